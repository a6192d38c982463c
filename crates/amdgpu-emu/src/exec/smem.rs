//! Scalar memory: SMEM loads, stores, atomics, clocks and cache controls
//! (Vega ISA ch. 8 "Scalar memory operations").
//!
//! Addresses: `s_load`/`s_store`/`s_atomic` use the 64-bit SGPR pair
//! `sbase` (bits 47:0) + offset, where the offset is the immediate (signed
//! 21 bits on GFX9), or the SGPR `soffset` (unsigned 32 bits) plus the
//! optional immediate `offset:`. The buffer forms take the offset (20-bit
//! unsigned immediate or SGPR) into the V# in `sbase[0:3]`: address =
//! V#.base + offset; dwords at or beyond NUM_RECORDS (× STRIDE when the
//! stride is nonzero) read as 0 and are not written. Loads and stores
//! ignore the low two address bits; atomics must be naturally aligned.
//!
//! `s_scratch_*` access the wave's scratch unswizzled at
//! `FLAT_SCRATCH + SGPR[sbase] (32-bit) + offset`. Cache controls
//! (`s_dcache_*`, `s_atc_probe*`) are no-ops: memory is coherent here.
//! `s_memtime` counts nanoseconds since the dispatch started (a 1 GHz shader
//! clock), `s_memrealtime` the same clock at 100 MHz.

use amdgpu_isa::gfx9::{Op, Operand};

use super::flat::Atomic;
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{FLAT_SCRATCH, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a scalar memory instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    use Op::*;
    Some(match op {
        S_LOAD_DWORD | S_LOAD_DWORDX2 | S_LOAD_DWORDX4 | S_LOAD_DWORDX8 | S_LOAD_DWORDX16 => {
            exec_s_load_dwordxn
        }
        S_BUFFER_LOAD_DWORD
        | S_BUFFER_LOAD_DWORDX2
        | S_BUFFER_LOAD_DWORDX4
        | S_BUFFER_LOAD_DWORDX8
        | S_BUFFER_LOAD_DWORDX16 => exec_s_buffer_load_dwordxn,
        S_STORE_DWORD | S_STORE_DWORDX2 | S_STORE_DWORDX4 => exec_s_store_dwordxn,
        S_BUFFER_STORE_DWORD | S_BUFFER_STORE_DWORDX2 | S_BUFFER_STORE_DWORDX4 => {
            exec_s_buffer_store_dwordxn
        }
        S_SCRATCH_LOAD_DWORD | S_SCRATCH_LOAD_DWORDX2 | S_SCRATCH_LOAD_DWORDX4 => {
            exec_s_scratch_load_dwordxn
        }
        S_SCRATCH_STORE_DWORD | S_SCRATCH_STORE_DWORDX2 | S_SCRATCH_STORE_DWORDX4 => {
            exec_s_scratch_store_dwordxn
        }
        S_DCACHE_INV | S_DCACHE_INV_VOL | S_DCACHE_WB | S_DCACHE_WB_VOL | S_DCACHE_DISCARD
        | S_DCACHE_DISCARD_X2 | S_ATC_PROBE | S_ATC_PROBE_BUFFER => exec_s_dcache_op,
        S_MEMTIME => exec_s_memtime,
        S_MEMREALTIME => exec_s_memrealtime,
        S_ATOMIC_SWAP | S_BUFFER_ATOMIC_SWAP => exec_s_atomic_swap,
        S_ATOMIC_CMPSWAP | S_BUFFER_ATOMIC_CMPSWAP => exec_s_atomic_cmpswap,
        S_ATOMIC_ADD | S_BUFFER_ATOMIC_ADD => exec_s_atomic_add,
        S_ATOMIC_SUB | S_BUFFER_ATOMIC_SUB => exec_s_atomic_sub,
        S_ATOMIC_SMIN | S_BUFFER_ATOMIC_SMIN => exec_s_atomic_smin,
        S_ATOMIC_UMIN | S_BUFFER_ATOMIC_UMIN => exec_s_atomic_umin,
        S_ATOMIC_SMAX | S_BUFFER_ATOMIC_SMAX => exec_s_atomic_smax,
        S_ATOMIC_UMAX | S_BUFFER_ATOMIC_UMAX => exec_s_atomic_umax,
        S_ATOMIC_AND | S_BUFFER_ATOMIC_AND => exec_s_atomic_and,
        S_ATOMIC_OR | S_BUFFER_ATOMIC_OR => exec_s_atomic_or,
        S_ATOMIC_XOR | S_BUFFER_ATOMIC_XOR => exec_s_atomic_xor,
        S_ATOMIC_INC | S_BUFFER_ATOMIC_INC => exec_s_atomic_inc,
        S_ATOMIC_DEC | S_BUFFER_ATOMIC_DEC => exec_s_atomic_dec,
        S_ATOMIC_SWAP_X2 | S_BUFFER_ATOMIC_SWAP_X2 => exec_s_atomic_swap_x2,
        S_ATOMIC_CMPSWAP_X2 | S_BUFFER_ATOMIC_CMPSWAP_X2 => exec_s_atomic_cmpswap_x2,
        S_ATOMIC_ADD_X2 | S_BUFFER_ATOMIC_ADD_X2 => exec_s_atomic_add_x2,
        S_ATOMIC_SUB_X2 | S_BUFFER_ATOMIC_SUB_X2 => exec_s_atomic_sub_x2,
        S_ATOMIC_SMIN_X2 | S_BUFFER_ATOMIC_SMIN_X2 => exec_s_atomic_smin_x2,
        S_ATOMIC_UMIN_X2 | S_BUFFER_ATOMIC_UMIN_X2 => exec_s_atomic_umin_x2,
        S_ATOMIC_SMAX_X2 | S_BUFFER_ATOMIC_SMAX_X2 => exec_s_atomic_smax_x2,
        S_ATOMIC_UMAX_X2 | S_BUFFER_ATOMIC_UMAX_X2 => exec_s_atomic_umax_x2,
        S_ATOMIC_AND_X2 | S_BUFFER_ATOMIC_AND_X2 => exec_s_atomic_and_x2,
        S_ATOMIC_OR_X2 | S_BUFFER_ATOMIC_OR_X2 => exec_s_atomic_or_x2,
        S_ATOMIC_XOR_X2 | S_BUFFER_ATOMIC_XOR_X2 => exec_s_atomic_xor_x2,
        S_ATOMIC_INC_X2 | S_BUFFER_ATOMIC_INC_X2 => exec_s_atomic_inc_x2,
        S_ATOMIC_DEC_X2 | S_BUFFER_ATOMIC_DEC_X2 => exec_s_atomic_dec_x2,
        _ => return None,
    })
}

/// Whether the instruction addresses through a buffer V#.
fn is_buffer(d: &Decoded) -> bool {
    d.inst.def.mnemonic.starts_with("s_buffer")
}

/// The byte offset of an SMEM access (immediate, or SGPR + `offset:`).
fn offset(w: &Wave, d: &Decoded, buffer: bool) -> u64 {
    let imm = |i: i64| {
        if buffer {
            (i as u64) & 0xf_ffff
        } else {
            i as u64
        }
    };
    match *d.op(2) {
        Operand::Imm(i) => imm(i),
        ref o => (w.scalar(o, Ty::B32).unwrap_or(0) & 0xffff_ffff)
            .wrapping_add(imm(i64::from(d.inst.mods.offset))),
    }
}

/// Where an SMEM access goes: the start address and, for buffers, the
/// byte limit (offsets from it on are out of range) and the offset.
struct Target {
    addr: u64,
    /// `(offset, limit)` of a buffer access.
    range: Option<(u64, u64)>,
}

impl Target {
    fn of(w: &Wave, d: &Decoded) -> Target {
        let buffer = is_buffer(d);
        let off = offset(w, d, buffer);
        if buffer {
            let code = match *d.op(1) {
                Operand::Src { code, .. } if code < 128 => usize::from(code),
                _ => 0,
            };
            let s = |i: usize| w.s[(code + i) & 127];
            let base = u64::from(s(0)) | u64::from(s(1) & 0xffff) << 32;
            let stride = u64::from(s(1) >> 16 & 0x3fff);
            let records = u64::from(s(2));
            let limit = if stride == 0 {
                records
            } else {
                records * stride
            };
            Target {
                addr: base.wrapping_add(off),
                range: Some((off, limit)),
            }
        } else {
            let base = w.scalar(d.op(1), Ty::B64).unwrap_or(0) & 0xffff_ffff_ffff;
            Target {
                addr: base.wrapping_add(off),
                range: None,
            }
        }
    }

    /// Whether dword `i` of the access is within the buffer.
    fn in_range(&self, i: usize) -> bool {
        self.range
            .is_none_or(|(off, limit)| (off & !3) + 4 * i as u64 + 4 <= limit)
    }
}

/// The first SGPR and the dword count of a data operand.
fn sdata(op: &Operand) -> (usize, usize) {
    match *op {
        Operand::Src { code, width } if code < 128 => (usize::from(code), usize::from(width)),
        _ => (0, 0),
    }
}

/// Writes dwords to consecutive SGPRs from `first` (ignoring any beyond s127).
fn write_sgprs(w: &mut Wave, first: usize, v: &[u32]) {
    for (i, &x) in v.iter().enumerate() {
        if let Some(r) = w.s.get_mut(first + i) {
            *r = x;
        }
    }
}

/// SDST[0..n] = MEM[SBASE + OFFSET] (dword-aligned: the low two address bits are ignored).
fn exec_s_load_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = Target::of(w, d);
    let (first, n) = sdata(d.op(0));
    let mut buf = [0u32; 16];
    let n = n.min(16);
    c.mem.load_dwords(t.addr & !3, &mut buf[..n])?;
    write_sgprs(w, first, &buf[..n]);
    Ok(())
}

/// SDST[i] = OFFSET + 4i < NUM_RECORDS ? MEM[V#.base + OFFSET + 4i] : 0.
fn exec_s_buffer_load_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = Target::of(w, d);
    let (first, n) = sdata(d.op(0));
    let mut buf = [0u32; 16];
    for (i, b) in buf[..n.min(16)].iter_mut().enumerate() {
        if t.in_range(i) {
            *b = c.mem.load_u32((t.addr & !3) + 4 * i as u64)?;
        }
    }
    write_sgprs(w, first, &buf[..n.min(16)]);
    Ok(())
}

/// MEM[SBASE + OFFSET] = SDATA[0..n].
fn exec_s_store_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = Target::of(w, d);
    let (first, n) = sdata(d.op(0));
    for i in 0..n {
        c.mem
            .store_u32((t.addr & !3) + 4 * i as u64, w.s[(first + i) & 127])?;
    }
    Ok(())
}

/// MEM[V#.base + OFFSET + 4i] = SDATA[i] for the dwords within the buffer.
fn exec_s_buffer_store_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = Target::of(w, d);
    let (first, n) = sdata(d.op(0));
    for i in 0..n {
        if t.in_range(i) {
            c.mem
                .store_u32((t.addr & !3) + 4 * i as u64, w.s[(first + i) & 127])?;
        }
    }
    Ok(())
}

/// The unswizzled scratch address of an `s_scratch_*` access.
fn scratch_address(w: &Wave, d: &Decoded) -> u64 {
    let sbase = w.scalar(d.op(1), Ty::B32).unwrap_or(0) & 0xffff_ffff;
    w.s64(FLAT_SCRATCH)
        .wrapping_add(sbase)
        .wrapping_add(offset(w, d, false))
        & !3
}

/// SDST[0..n] = SCRATCH[SGPR[SBASE] + OFFSET] (unswizzled, wave-relative).
fn exec_s_scratch_load_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let a = scratch_address(w, d);
    let (first, n) = sdata(d.op(0));
    let mut buf = [0u32; 4];
    c.mem.load_dwords(a, &mut buf[..n.min(4)])?;
    write_sgprs(w, first, &buf[..n.min(4)]);
    Ok(())
}

/// SCRATCH[SGPR[SBASE] + OFFSET] = SDATA[0..n] (unswizzled, wave-relative).
fn exec_s_scratch_store_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let a = scratch_address(w, d);
    let (first, n) = sdata(d.op(0));
    for i in 0..n {
        c.mem.store_u32(a + 4 * i as u64, w.s[(first + i) & 127])?;
    }
    Ok(())
}

/// Scalar cache write-back/invalidate/discard and ATC probes: no-ops.
fn exec_s_dcache_op(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

fn elapsed_ns(c: &Ctx<'_>) -> u64 {
    c.dispatch
        .start
        .map_or(0, |s| s.elapsed().as_nanos() as u64)
}

/// SDST[0:1] = shader clock (nanoseconds since the dispatch started).
fn exec_s_memtime(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = elapsed_ns(c);
    w.write_scalar(d.op(0), t, true);
    Ok(())
}

/// SDST[0:1] = real-time clock at 100 MHz.
fn exec_s_memrealtime(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let t = elapsed_ns(c) / 10;
    w.write_scalar(d.op(0), t, true);
    Ok(())
}

/// A scalar atomic: `SDATA` = src (then cmp for cmpswap); with `glc` the
/// pre-op value is returned in `SDATA[0]` (`[0:1]` for `_x2`). Buffer
/// atomics outside the buffer do nothing and return 0.
fn s_atomic(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, op: Atomic, wide: bool) -> R {
    let t = Target::of(w, d);
    let (first, _) = sdata(d.op(0));
    let dw = if wide { 2 } else { 1 };
    let get = |i: usize| {
        let lo = u64::from(w.s[(first + i) & 127]);
        if wide {
            lo | u64::from(w.s[(first + i + 1) & 127]) << 32
        } else {
            lo
        }
    };
    let src = get(0);
    let cmp = if op == Atomic::CmpSwap { get(dw) } else { 0 };
    let in_range = t.in_range(0) && (!wide || t.in_range(1));
    let old = if !in_range {
        0
    } else if wide {
        c.mem.atomic_u64(t.addr, |o| op.apply64(o, src, cmp))?
    } else {
        u64::from(
            c.mem
                .atomic_u32(t.addr, |o| op.apply32(o, src as u32, cmp as u32))?,
        )
    };
    if d.inst.mods.glc {
        write_sgprs(w, first, &[old as u32, (old >> 32) as u32][..dw]);
    }
    Ok(())
}

macro_rules! atomics {
    ($($name:ident => $op:expr, $wide:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            s_atomic(w, d, c, $op, $wide)
        }
    )*};
}

atomics! {
    exec_s_atomic_swap => Atomic::Swap, false, "tmp = MEM; MEM = SDATA; RETURN tmp (glc).";
    exec_s_atomic_cmpswap => Atomic::CmpSwap, false, "tmp = MEM; MEM = tmp == SDATA[1] ? SDATA[0] : tmp; RETURN tmp.";
    exec_s_atomic_add => Atomic::Add, false, "MEM += SDATA (u32).";
    exec_s_atomic_sub => Atomic::Sub, false, "MEM -= SDATA (u32).";
    exec_s_atomic_smin => Atomic::Smin, false, "MEM = min(MEM, SDATA) (i32).";
    exec_s_atomic_umin => Atomic::Umin, false, "MEM = min(MEM, SDATA) (u32).";
    exec_s_atomic_smax => Atomic::Smax, false, "MEM = max(MEM, SDATA) (i32).";
    exec_s_atomic_umax => Atomic::Umax, false, "MEM = max(MEM, SDATA) (u32).";
    exec_s_atomic_and => Atomic::And, false, "MEM &= SDATA.";
    exec_s_atomic_or => Atomic::Or, false, "MEM |= SDATA.";
    exec_s_atomic_xor => Atomic::Xor, false, "MEM ^= SDATA.";
    exec_s_atomic_inc => Atomic::Inc, false, "MEM = MEM >= SDATA ? 0 : MEM + 1.";
    exec_s_atomic_dec => Atomic::Dec, false, "MEM = (MEM == 0 || MEM > SDATA) ? SDATA : MEM - 1.";
    exec_s_atomic_swap_x2 => Atomic::Swap, true, "64-bit swap.";
    exec_s_atomic_cmpswap_x2 => Atomic::CmpSwap, true, "tmp = MEM.b64; MEM = tmp == SDATA[2:3] ? SDATA[0:1] : tmp; RETURN tmp.";
    exec_s_atomic_add_x2 => Atomic::Add, true, "MEM += SDATA (u64).";
    exec_s_atomic_sub_x2 => Atomic::Sub, true, "MEM -= SDATA (u64).";
    exec_s_atomic_smin_x2 => Atomic::Smin, true, "MEM = min(MEM, SDATA) (i64).";
    exec_s_atomic_umin_x2 => Atomic::Umin, true, "MEM = min(MEM, SDATA) (u64).";
    exec_s_atomic_smax_x2 => Atomic::Smax, true, "MEM = max(MEM, SDATA) (i64).";
    exec_s_atomic_umax_x2 => Atomic::Umax, true, "MEM = max(MEM, SDATA) (u64).";
    exec_s_atomic_and_x2 => Atomic::And, true, "MEM &= SDATA (b64).";
    exec_s_atomic_or_x2 => Atomic::Or, true, "MEM |= SDATA (b64).";
    exec_s_atomic_xor_x2 => Atomic::Xor, true, "MEM ^= SDATA (b64).";
    exec_s_atomic_inc_x2 => Atomic::Inc, true, "64-bit inc.";
    exec_s_atomic_dec_x2 => Atomic::Dec, true, "64-bit dec.";
}
