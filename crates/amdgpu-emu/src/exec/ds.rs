//! Local data share: DS loads, stores, atomics, `ds_swizzle_b32`,
//! `ds_permute_b32`/`ds_bpermute_b32`, `ds_append`/`ds_consume` (Vega ISA
//! ch. 10 "Data share operations" and ch. 12.13 "LDS & GDS instructions").
//!
//! The LDS address of a lane is `VGPR[vaddr] + offset` (32-bit; `offset` is
//! the unsigned 16-bit field; the two-address forms scale `offset0` and
//! `offset1` by the element size, or by 64 elements for `st64`). An access
//! that does not fit in the work-group's allocation faults with
//! [`FaultKind::Lds`] instead of the hardware's silent behaviour (reads of
//! 0, dropped writes), so that out-of-bounds bugs surface. Misaligned LDS
//! accesses are carried out bytewise (unaligned LDS access is enabled on
//! GFX9).
//!
//! Atomics run lane by lane in lane order, so results are deterministic.
//! Operand order of the two-data atomics follows the ISA: `ds_cmpst_*`
//! stores `DATA1` when memory equals `DATA0` (the opposite order of
//! `buffer_atomic_cmpswap`), `ds_mskor_*` computes `(MEM & ~DATA0) | DATA1`,
//! `ds_wrap_rtn_b32` computes `MEM >= DATA0 ? MEM - DATA0 : MEM + DATA1`.
//! `ds_min_f32`/`ds_max_f32` and the f64 forms use IEEE minNum/maxNum and
//! the float adds keep denormals (round to nearest even).
//!
//! GDS (`gds` modifier), GWS (`ds_gws_*`), `ds_ordered_count` and
//! `ds_condxchg32_rtn_b64` report [`FaultKind::Unimplemented`].
//! `ds_append`/`ds_consume` use an LDS counter at `M0[15:0] + offset`.

use amdgpu_isa::gfx9::{Op, Operand};

use super::flat::{Atomic, Ld, St, atomic_data, lanes_of, write_returned};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, M0, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a DS instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    use Op::*;
    Some(match op {
        DS_NOP => exec_ds_nop,
        DS_READ_U8 => exec_ds_read_u8,
        DS_READ_I8 => exec_ds_read_i8,
        DS_READ_U16 => exec_ds_read_u16,
        DS_READ_I16 => exec_ds_read_i16,
        DS_READ_B32 => exec_ds_read_b32,
        DS_READ_B64 => exec_ds_read_b64,
        DS_READ_B96 => exec_ds_read_b96,
        DS_READ_B128 => exec_ds_read_b128,
        DS_READ_U8_D16 => exec_ds_read_u8_d16,
        DS_READ_U8_D16_HI => exec_ds_read_u8_d16_hi,
        DS_READ_I8_D16 => exec_ds_read_i8_d16,
        DS_READ_I8_D16_HI => exec_ds_read_i8_d16_hi,
        DS_READ_U16_D16 => exec_ds_read_u16_d16,
        DS_READ_U16_D16_HI => exec_ds_read_u16_d16_hi,
        DS_WRITE_B8 => exec_ds_write_b8,
        DS_WRITE_B8_D16_HI => exec_ds_write_b8_d16_hi,
        DS_WRITE_B16 => exec_ds_write_b16,
        DS_WRITE_B16_D16_HI => exec_ds_write_b16_d16_hi,
        DS_WRITE_B32 => exec_ds_write_b32,
        DS_WRITE_B64 => exec_ds_write_b64,
        DS_WRITE_B96 => exec_ds_write_b96,
        DS_WRITE_B128 => exec_ds_write_b128,
        DS_READ2_B32 => exec_ds_read2_b32,
        DS_READ2_B64 => exec_ds_read2_b64,
        DS_READ2ST64_B32 => exec_ds_read2st64_b32,
        DS_READ2ST64_B64 => exec_ds_read2st64_b64,
        DS_WRITE2_B32 => exec_ds_write2_b32,
        DS_WRITE2_B64 => exec_ds_write2_b64,
        DS_WRITE2ST64_B32 => exec_ds_write2st64_b32,
        DS_WRITE2ST64_B64 => exec_ds_write2st64_b64,
        DS_WRXCHG2_RTN_B32 => exec_ds_wrxchg2_rtn_b32,
        DS_WRXCHG2_RTN_B64 => exec_ds_wrxchg2_rtn_b64,
        DS_WRXCHG2ST64_RTN_B32 => exec_ds_wrxchg2st64_rtn_b32,
        DS_WRXCHG2ST64_RTN_B64 => exec_ds_wrxchg2st64_rtn_b64,
        DS_READ_ADDTID_B32 => exec_ds_read_addtid_b32,
        DS_WRITE_ADDTID_B32 => exec_ds_write_addtid_b32,
        DS_SWIZZLE_B32 => exec_ds_swizzle_b32,
        DS_PERMUTE_B32 => exec_ds_permute_b32,
        DS_BPERMUTE_B32 => exec_ds_bpermute_b32,
        DS_APPEND => exec_ds_append,
        DS_CONSUME => exec_ds_consume,
        // Atomics without return.
        DS_ADD_U32 => exec_ds_add_u32,
        DS_SUB_U32 => exec_ds_sub_u32,
        DS_RSUB_U32 => exec_ds_rsub_u32,
        DS_INC_U32 => exec_ds_inc_u32,
        DS_DEC_U32 => exec_ds_dec_u32,
        DS_MIN_I32 => exec_ds_min_i32,
        DS_MAX_I32 => exec_ds_max_i32,
        DS_MIN_U32 => exec_ds_min_u32,
        DS_MAX_U32 => exec_ds_max_u32,
        DS_AND_B32 => exec_ds_and_b32,
        DS_OR_B32 => exec_ds_or_b32,
        DS_XOR_B32 => exec_ds_xor_b32,
        DS_MSKOR_B32 => exec_ds_mskor_b32,
        DS_CMPST_B32 => exec_ds_cmpst_b32,
        DS_CMPST_F32 => exec_ds_cmpst_f32,
        DS_MIN_F32 => exec_ds_min_f32,
        DS_MAX_F32 => exec_ds_max_f32,
        DS_ADD_F32 => exec_ds_add_f32,
        DS_PK_ADD_F16 => exec_ds_pk_add_f16,
        DS_PK_ADD_BF16 => exec_ds_pk_add_bf16,
        DS_ADD_U64 => exec_ds_add_u64,
        DS_SUB_U64 => exec_ds_sub_u64,
        DS_RSUB_U64 => exec_ds_rsub_u64,
        DS_INC_U64 => exec_ds_inc_u64,
        DS_DEC_U64 => exec_ds_dec_u64,
        DS_MIN_I64 => exec_ds_min_i64,
        DS_MAX_I64 => exec_ds_max_i64,
        DS_MIN_U64 => exec_ds_min_u64,
        DS_MAX_U64 => exec_ds_max_u64,
        DS_AND_B64 => exec_ds_and_b64,
        DS_OR_B64 => exec_ds_or_b64,
        DS_XOR_B64 => exec_ds_xor_b64,
        DS_MSKOR_B64 => exec_ds_mskor_b64,
        DS_CMPST_B64 => exec_ds_cmpst_b64,
        DS_CMPST_F64 => exec_ds_cmpst_f64,
        DS_MIN_F64 => exec_ds_min_f64,
        DS_MAX_F64 => exec_ds_max_f64,
        DS_ADD_F64 => exec_ds_add_f64,
        // Atomics returning the pre-op value.
        DS_ADD_RTN_U32 => exec_ds_add_rtn_u32,
        DS_SUB_RTN_U32 => exec_ds_sub_rtn_u32,
        DS_RSUB_RTN_U32 => exec_ds_rsub_rtn_u32,
        DS_INC_RTN_U32 => exec_ds_inc_rtn_u32,
        DS_DEC_RTN_U32 => exec_ds_dec_rtn_u32,
        DS_MIN_RTN_I32 => exec_ds_min_rtn_i32,
        DS_MAX_RTN_I32 => exec_ds_max_rtn_i32,
        DS_MIN_RTN_U32 => exec_ds_min_rtn_u32,
        DS_MAX_RTN_U32 => exec_ds_max_rtn_u32,
        DS_AND_RTN_B32 => exec_ds_and_rtn_b32,
        DS_OR_RTN_B32 => exec_ds_or_rtn_b32,
        DS_XOR_RTN_B32 => exec_ds_xor_rtn_b32,
        DS_MSKOR_RTN_B32 => exec_ds_mskor_rtn_b32,
        DS_WRXCHG_RTN_B32 => exec_ds_wrxchg_rtn_b32,
        DS_CMPST_RTN_B32 => exec_ds_cmpst_rtn_b32,
        DS_CMPST_RTN_F32 => exec_ds_cmpst_rtn_f32,
        DS_MIN_RTN_F32 => exec_ds_min_rtn_f32,
        DS_MAX_RTN_F32 => exec_ds_max_rtn_f32,
        DS_WRAP_RTN_B32 => exec_ds_wrap_rtn_b32,
        DS_ADD_RTN_F32 => exec_ds_add_rtn_f32,
        DS_PK_ADD_RTN_F16 => exec_ds_pk_add_rtn_f16,
        DS_PK_ADD_RTN_BF16 => exec_ds_pk_add_rtn_bf16,
        DS_ADD_RTN_U64 => exec_ds_add_rtn_u64,
        DS_SUB_RTN_U64 => exec_ds_sub_rtn_u64,
        DS_RSUB_RTN_U64 => exec_ds_rsub_rtn_u64,
        DS_INC_RTN_U64 => exec_ds_inc_rtn_u64,
        DS_DEC_RTN_U64 => exec_ds_dec_rtn_u64,
        DS_MIN_RTN_I64 => exec_ds_min_rtn_i64,
        DS_MAX_RTN_I64 => exec_ds_max_rtn_i64,
        DS_MIN_RTN_U64 => exec_ds_min_rtn_u64,
        DS_MAX_RTN_U64 => exec_ds_max_rtn_u64,
        DS_AND_RTN_B64 => exec_ds_and_rtn_b64,
        DS_OR_RTN_B64 => exec_ds_or_rtn_b64,
        DS_XOR_RTN_B64 => exec_ds_xor_rtn_b64,
        DS_MSKOR_RTN_B64 => exec_ds_mskor_rtn_b64,
        DS_WRXCHG_RTN_B64 => exec_ds_wrxchg_rtn_b64,
        DS_CMPST_RTN_B64 => exec_ds_cmpst_rtn_b64,
        DS_CMPST_RTN_F64 => exec_ds_cmpst_rtn_f64,
        DS_MIN_RTN_F64 => exec_ds_min_rtn_f64,
        DS_MAX_RTN_F64 => exec_ds_max_rtn_f64,
        DS_ADD_RTN_F64 => exec_ds_add_rtn_f64,
        // The src2 forms (gfx900–gfx908): both operands in LDS.
        DS_ADD_SRC2_U32 => exec_ds_add_src2_u32,
        DS_SUB_SRC2_U32 => exec_ds_sub_src2_u32,
        DS_RSUB_SRC2_U32 => exec_ds_rsub_src2_u32,
        DS_INC_SRC2_U32 => exec_ds_inc_src2_u32,
        DS_DEC_SRC2_U32 => exec_ds_dec_src2_u32,
        DS_MIN_SRC2_I32 => exec_ds_min_src2_i32,
        DS_MAX_SRC2_I32 => exec_ds_max_src2_i32,
        DS_MIN_SRC2_U32 => exec_ds_min_src2_u32,
        DS_MAX_SRC2_U32 => exec_ds_max_src2_u32,
        DS_AND_SRC2_B32 => exec_ds_and_src2_b32,
        DS_OR_SRC2_B32 => exec_ds_or_src2_b32,
        DS_XOR_SRC2_B32 => exec_ds_xor_src2_b32,
        DS_WRITE_SRC2_B32 => exec_ds_write_src2_b32,
        DS_MIN_SRC2_F32 => exec_ds_min_src2_f32,
        DS_MAX_SRC2_F32 => exec_ds_max_src2_f32,
        DS_ADD_SRC2_F32 => exec_ds_add_src2_f32,
        DS_ADD_SRC2_U64 => exec_ds_add_src2_u64,
        DS_SUB_SRC2_U64 => exec_ds_sub_src2_u64,
        DS_RSUB_SRC2_U64 => exec_ds_rsub_src2_u64,
        DS_INC_SRC2_U64 => exec_ds_inc_src2_u64,
        DS_DEC_SRC2_U64 => exec_ds_dec_src2_u64,
        DS_MIN_SRC2_I64 => exec_ds_min_src2_i64,
        DS_MAX_SRC2_I64 => exec_ds_max_src2_i64,
        DS_MIN_SRC2_U64 => exec_ds_min_src2_u64,
        DS_MAX_SRC2_U64 => exec_ds_max_src2_u64,
        DS_AND_SRC2_B64 => exec_ds_and_src2_b64,
        DS_OR_SRC2_B64 => exec_ds_or_src2_b64,
        DS_XOR_SRC2_B64 => exec_ds_xor_src2_b64,
        DS_WRITE_SRC2_B64 => exec_ds_write_src2_b64,
        DS_MIN_SRC2_F64 => exec_ds_min_src2_f64,
        DS_MAX_SRC2_F64 => exec_ds_max_src2_f64,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// LDS access (also used by FLAT through the group aperture).

/// The byte range of an LDS access, or the fault.
#[inline]
fn range(lds: &[u8], addr: u64, len: usize) -> Result<std::ops::Range<usize>, FaultKind> {
    let size = lds.len() as u64;
    if addr.checked_add(len as u64).is_none_or(|end| end > size) {
        return Err(FaultKind::Lds {
            addr,
            len: len as u64,
            size,
        });
    }
    Ok(addr as usize..addr as usize + len)
}

/// Loads `size` (1, 2, 4 or 8) little-endian bytes from LDS.
#[inline]
pub(crate) fn lds_load(lds: &[u8], addr: u64, size: usize) -> Result<u64, FaultKind> {
    let r = range(lds, addr, size)?;
    let mut b = [0u8; 8];
    b[..size].copy_from_slice(&lds[r]);
    Ok(u64::from_le_bytes(b))
}

/// Stores the low `size` bytes of `v` to LDS.
#[inline]
pub(crate) fn lds_store(lds: &mut [u8], addr: u64, size: usize, v: u64) -> R {
    let r = range(lds, addr, size)?;
    lds[r].copy_from_slice(&v.to_le_bytes()[..size]);
    Ok(())
}

/// Applies an atomic read-modify-write to 4 (or 8 if `wide`) LDS bytes;
/// returns the old value.
#[inline]
pub(crate) fn lds_rmw(
    lds: &mut [u8],
    addr: u64,
    wide: bool,
    op: Atomic,
    src: u64,
    cmp: u64,
) -> Result<u64, FaultKind> {
    let size = if wide { 8 } else { 4 };
    let old = lds_load(lds, addr, size)?;
    let new = if wide {
        op.apply64(old, src, cmp)
    } else {
        u64::from(op.apply32(old as u32, src as u32, cmp as u32))
    };
    lds_store(lds, addr, size, new)?;
    Ok(old)
}

/// Fails for GDS accesses (not emulated).
#[inline]
fn no_gds(d: &Decoded) -> R {
    if d.inst.mods.gds {
        return Err(FaultKind::Unimplemented(d.inst.def.name));
    }
    Ok(())
}

/// Per-lane LDS addresses `VGPR[op] + extra` (32-bit).
#[inline]
fn addrs(w: &Wave, op: &Operand, extra: u32) -> [u64; LANES] {
    let v = w.lanes(op, Ty::B32);
    let mut out = [0u64; LANES];
    for l in 0..LANES {
        out[l] = u64::from(v[l].wrapping_add(extra));
    }
    out
}

fn offset(d: &Decoded) -> u32 {
    d.inst.mods.offset as u32 & 0xffff
}

// ---------------------------------------------------------------------------
// Generic shapes.

/// Loads with `vdst, vaddr` operands.
fn ds_read(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: Ld) -> R {
    no_gds(d)?;
    let a = addrs(w, d.op(1), offset(d));
    let dst = *d.op(0);
    let exec = w.exec();
    match kind {
        Ld::Dwords(n) => {
            let mut out = [[0u32; LANES]; 4];
            for l in lanes_of(exec) {
                for (i, o) in out[..n].iter_mut().enumerate() {
                    o[l] = lds_load(c.lds, a[l] + 4 * i as u64, 4)? as u32;
                }
            }
            for (i, o) in out[..n].iter().enumerate() {
                w.write_lanes_at(&dst, i, o);
            }
        }
        k => {
            let mut out: Lanes = w.lanes(&dst, Ty::B32);
            for l in lanes_of(exec) {
                out[l] = k.convert(lds_load(c.lds, a[l], k.bytes())? as u32, out[l]);
            }
            w.write_lanes(&dst, &out);
        }
    }
    Ok(())
}

/// Stores with `vaddr, vdata` operands.
fn ds_write(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: St) -> R {
    no_gds(d)?;
    let a = addrs(w, d.op(0), offset(d));
    let data = *d.op(1);
    let exec = w.exec();
    match kind {
        St::Dwords(n) => {
            for i in 0..n {
                let v = w.lanes_at(&data, i, Ty::B32);
                for l in lanes_of(exec) {
                    lds_store(c.lds, a[l] + 4 * i as u64, 4, u64::from(v[l]))?;
                }
            }
        }
        k => {
            let v = w.lanes(&data, Ty::B32);
            for l in lanes_of(exec) {
                lds_store(c.lds, a[l], k.bytes(), k.value(v[l]))?;
            }
        }
    }
    Ok(())
}

/// The two byte offsets of a two-address form (`elem` bytes per element).
fn offsets2(d: &Decoded, elem: u32, st64: bool) -> (u32, u32) {
    let (o0, o1) = d.inst.mods.offset01.unwrap_or((0, 0));
    let scale = if st64 { elem * 64 } else { elem };
    (u32::from(o0) * scale, u32::from(o1) * scale)
}

/// `ds_read2*`: `vdst` = the element at offset0, then the one at offset1.
fn ds_read2(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, wide: bool, st64: bool) -> R {
    no_gds(d)?;
    let dw = if wide { 2 } else { 1 };
    let (o0, o1) = offsets2(d, 4 * dw as u32, st64);
    let base = w.lanes(d.op(1), Ty::B32);
    let dst = *d.op(0);
    let mut out = [[0u32; LANES]; 4];
    for l in lanes_of(w.exec()) {
        for (k, o) in [o0, o1].into_iter().enumerate() {
            let a = u64::from(base[l].wrapping_add(o));
            for i in 0..dw {
                out[k * dw + i][l] = lds_load(c.lds, a + 4 * i as u64, 4)? as u32;
            }
        }
    }
    for (i, o) in out[..2 * dw].iter().enumerate() {
        w.write_lanes_at(&dst, i, o);
    }
    Ok(())
}

/// `ds_write2*`: DATA0 to offset0, DATA1 to offset1.
fn ds_write2(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, wide: bool, st64: bool) -> R {
    no_gds(d)?;
    let dw = if wide { 2 } else { 1 };
    let (o0, o1) = offsets2(d, 4 * dw as u32, st64);
    let base = w.lanes(d.op(0), Ty::B32);
    let data = [*d.op(1), *d.op(2)];
    let mut regs = [[0u32; LANES]; 4];
    for k in 0..2 {
        for i in 0..dw {
            regs[k * dw + i] = w.lanes_at(&data[k], i, Ty::B32);
        }
    }
    for l in lanes_of(w.exec()) {
        for (k, o) in [o0, o1].into_iter().enumerate() {
            let a = u64::from(base[l].wrapping_add(o));
            for i in 0..dw {
                lds_store(c.lds, a + 4 * i as u64, 4, u64::from(regs[k * dw + i][l]))?;
            }
        }
    }
    Ok(())
}

/// `ds_wrxchg2*_rtn`: swaps DATA0 in at offset0 and DATA1 at offset1,
/// returning both old elements.
fn ds_wrxchg2(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, wide: bool, st64: bool) -> R {
    no_gds(d)?;
    let dw = if wide { 2 } else { 1 };
    let (o0, o1) = offsets2(d, 4 * dw as u32, st64);
    let base = w.lanes(d.op(1), Ty::B32);
    let (s0, _) = atomic_data(w, d.op(2), Atomic::Swap, wide);
    let (s1, _) = atomic_data(w, d.op(3), Atomic::Swap, wide);
    let dst = *d.op(0);
    let mut out = [[0u32; LANES]; 4];
    for l in lanes_of(w.exec()) {
        for (k, (o, s)) in [(o0, s0[l]), (o1, s1[l])].into_iter().enumerate() {
            let a = u64::from(base[l].wrapping_add(o));
            let old = lds_rmw(c.lds, a, wide, Atomic::Swap, s, 0)?;
            for i in 0..dw {
                out[k * dw + i][l] = (old >> (32 * i)) as u32;
            }
        }
    }
    for (i, o) in out[..2 * dw].iter().enumerate() {
        w.write_lanes_at(&dst, i, o);
    }
    Ok(())
}

/// An LDS atomic: `[vdst,] vaddr, data0[, data1]`. `swap` takes the
/// source from DATA1 and the second operand from DATA0 (`ds_cmpst_*`).
fn ds_atomic(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, op: Atomic, wide: bool, rtn: bool) -> R {
    no_gds(d)?;
    let i = usize::from(rtn);
    let a = addrs(w, d.op(i), offset(d));
    let two = d.inst.operands.len() == i + 3;
    let (mut src, _) = atomic_data(w, d.op(i + 1), Atomic::Swap, wide);
    let mut cmp = if two {
        atomic_data(w, d.op(i + 2), Atomic::Swap, wide).0
    } else {
        [0; LANES]
    };
    if matches!(op, Atomic::CmpSwap | Atomic::CmpSwapF) {
        std::mem::swap(&mut src, &mut cmp);
    }
    let mut old = [0u64; LANES];
    for l in lanes_of(w.exec()) {
        old[l] = lds_rmw(c.lds, a[l], wide, op, src[l], cmp[l])?;
    }
    if rtn {
        write_returned(w, d.op(0), &old, wide);
    }
    Ok(())
}

/// The src2 forms: `MEM[A] = op(MEM[A], MEM[B])` with `A = VGPR[vaddr]`
/// and `B = A + elem · X`, X = offset1[7] ? sext(A[31:17]) :
/// sext({offset1[6:0], offset0}) (15-bit signed).
fn ds_src2(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, op: Atomic, wide: bool) -> R {
    no_gds(d)?;
    let base = w.lanes(d.op(0), Ty::B32);
    let off = offset(d);
    let elem: i64 = if wide { 8 } else { 4 };
    let size = elem as usize;
    for l in lanes_of(w.exec()) {
        let a = base[l];
        let x = if off & 0x8000 != 0 {
            i64::from((a as i32) >> 17)
        } else {
            i64::from(((off << 17) as i32) >> 17)
        };
        let b = u64::from((i64::from(a) + elem * x) as u32);
        let s = lds_load(c.lds, b, size)?;
        lds_rmw(c.lds, u64::from(a), wide, op, s, 0)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Instructions.

/// No operation.
fn exec_ds_nop(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

macro_rules! shapes {
    ($($name:ident => $f:ident($($arg:expr),*), $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            $f(w, d, c, $($arg),*)
        }
    )*};
}

shapes! {
    exec_ds_read_u8 => ds_read(Ld::Zext(1)), "VDST = zext(LDS[ADDR].u8).";
    exec_ds_read_i8 => ds_read(Ld::Sext(1)), "VDST = sext(LDS[ADDR].i8).";
    exec_ds_read_u16 => ds_read(Ld::Zext(2)), "VDST = zext(LDS[ADDR].u16).";
    exec_ds_read_i16 => ds_read(Ld::Sext(2)), "VDST = sext(LDS[ADDR].i16).";
    exec_ds_read_b32 => ds_read(Ld::Dwords(1)), "VDST = LDS[ADDR].b32.";
    exec_ds_read_b64 => ds_read(Ld::Dwords(2)), "VDST[0:1] = LDS[ADDR].b64.";
    exec_ds_read_b96 => ds_read(Ld::Dwords(3)), "VDST[0:2] = LDS[ADDR].b96.";
    exec_ds_read_b128 => ds_read(Ld::Dwords(4)), "VDST[0:3] = LDS[ADDR].b128.";
    exec_ds_read_u8_d16 => ds_read(Ld::D16 { size: 1, signed: false, hi: false }), "VDST.lo16 = zext(LDS[ADDR].u8).";
    exec_ds_read_u8_d16_hi => ds_read(Ld::D16 { size: 1, signed: false, hi: true }), "VDST.hi16 = zext(LDS[ADDR].u8).";
    exec_ds_read_i8_d16 => ds_read(Ld::D16 { size: 1, signed: true, hi: false }), "VDST.lo16 = sext(LDS[ADDR].i8).";
    exec_ds_read_i8_d16_hi => ds_read(Ld::D16 { size: 1, signed: true, hi: true }), "VDST.hi16 = sext(LDS[ADDR].i8).";
    exec_ds_read_u16_d16 => ds_read(Ld::D16 { size: 2, signed: false, hi: false }), "VDST.lo16 = LDS[ADDR].b16.";
    exec_ds_read_u16_d16_hi => ds_read(Ld::D16 { size: 2, signed: false, hi: true }), "VDST.hi16 = LDS[ADDR].b16.";
    exec_ds_write_b8 => ds_write(St::Low(1)), "LDS[ADDR].u8 = DATA[7:0].";
    exec_ds_write_b8_d16_hi => ds_write(St::Hi(1)), "LDS[ADDR].u8 = DATA[23:16].";
    exec_ds_write_b16 => ds_write(St::Low(2)), "LDS[ADDR].u16 = DATA[15:0].";
    exec_ds_write_b16_d16_hi => ds_write(St::Hi(2)), "LDS[ADDR].u16 = DATA[31:16].";
    exec_ds_write_b32 => ds_write(St::Dwords(1)), "LDS[ADDR].b32 = DATA.";
    exec_ds_write_b64 => ds_write(St::Dwords(2)), "LDS[ADDR].b64 = DATA[0:1].";
    exec_ds_write_b96 => ds_write(St::Dwords(3)), "LDS[ADDR].b96 = DATA[0:2].";
    exec_ds_write_b128 => ds_write(St::Dwords(4)), "LDS[ADDR].b128 = DATA[0:3].";
    exec_ds_read2_b32 => ds_read2(false, false), "VDST[0] = LDS[ADDR + 4·offset0]; VDST[1] = LDS[ADDR + 4·offset1].";
    exec_ds_read2_b64 => ds_read2(true, false), "VDST[0:1] = LDS[ADDR + 8·offset0].b64; VDST[2:3] = LDS[ADDR + 8·offset1].b64.";
    exec_ds_read2st64_b32 => ds_read2(false, true), "As ds_read2_b32 with offsets scaled by 256 bytes.";
    exec_ds_read2st64_b64 => ds_read2(true, true), "As ds_read2_b64 with offsets scaled by 512 bytes.";
    exec_ds_write2_b32 => ds_write2(false, false), "LDS[ADDR + 4·offset0] = DATA0; LDS[ADDR + 4·offset1] = DATA1.";
    exec_ds_write2_b64 => ds_write2(true, false), "LDS[ADDR + 8·offset0].b64 = DATA0; LDS[ADDR + 8·offset1].b64 = DATA1.";
    exec_ds_write2st64_b32 => ds_write2(false, true), "As ds_write2_b32 with offsets scaled by 256 bytes.";
    exec_ds_write2st64_b64 => ds_write2(true, true), "As ds_write2_b64 with offsets scaled by 512 bytes.";
    exec_ds_wrxchg2_rtn_b32 => ds_wrxchg2(false, false), "Swap DATA0 into ADDR + 4·offset0 and DATA1 into ADDR + 4·offset1; VDST = both old values.";
    exec_ds_wrxchg2_rtn_b64 => ds_wrxchg2(true, false), "64-bit ds_wrxchg2 (offsets scaled by 8).";
    exec_ds_wrxchg2st64_rtn_b32 => ds_wrxchg2(false, true), "ds_wrxchg2_rtn_b32 with offsets scaled by 256 bytes.";
    exec_ds_wrxchg2st64_rtn_b64 => ds_wrxchg2(true, true), "ds_wrxchg2_rtn_b64 with offsets scaled by 512 bytes.";
}

macro_rules! atomics {
    ($($name:ident => $op:expr, $wide:expr, $rtn:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            ds_atomic(w, d, c, $op, $wide, $rtn)
        }
    )*};
}

use Atomic as A;
const ADDF: Atomic = Atomic::AddF { ftz: false };

atomics! {
    exec_ds_add_u32 => A::Add, false, false, "LDS[ADDR] += DATA (u32).";
    exec_ds_sub_u32 => A::Sub, false, false, "LDS[ADDR] -= DATA (u32).";
    exec_ds_rsub_u32 => A::Rsub, false, false, "LDS[ADDR] = DATA - LDS[ADDR] (u32).";
    exec_ds_inc_u32 => A::Inc, false, false, "LDS[ADDR] = old >= DATA ? 0 : old + 1.";
    exec_ds_dec_u32 => A::Dec, false, false, "LDS[ADDR] = (old == 0 || old > DATA) ? DATA : old - 1.";
    exec_ds_min_i32 => A::Smin, false, false, "LDS[ADDR] = min(old, DATA) (i32).";
    exec_ds_max_i32 => A::Smax, false, false, "LDS[ADDR] = max(old, DATA) (i32).";
    exec_ds_min_u32 => A::Umin, false, false, "LDS[ADDR] = min(old, DATA) (u32).";
    exec_ds_max_u32 => A::Umax, false, false, "LDS[ADDR] = max(old, DATA) (u32).";
    exec_ds_and_b32 => A::And, false, false, "LDS[ADDR] &= DATA.";
    exec_ds_or_b32 => A::Or, false, false, "LDS[ADDR] |= DATA.";
    exec_ds_xor_b32 => A::Xor, false, false, "LDS[ADDR] ^= DATA.";
    exec_ds_mskor_b32 => A::Mskor, false, false, "LDS[ADDR] = (old & ~DATA0) | DATA1.";
    exec_ds_cmpst_b32 => A::CmpSwap, false, false, "LDS[ADDR] = old == DATA0 ? DATA1 : old.";
    exec_ds_cmpst_f32 => A::CmpSwapF, false, false, "LDS[ADDR] = old == DATA0 (as f32) ? DATA1 : old.";
    exec_ds_min_f32 => A::MinF, false, false, "LDS[ADDR] = minNum(old, DATA) (f32).";
    exec_ds_max_f32 => A::MaxF, false, false, "LDS[ADDR] = maxNum(old, DATA) (f32).";
    exec_ds_add_f32 => ADDF, false, false, "LDS[ADDR] += DATA (f32, RNE, denormals kept).";
    exec_ds_pk_add_f16 => A::PkAddF16, false, false, "LDS[ADDR].f16x2 += DATA.f16x2.";
    exec_ds_pk_add_bf16 => A::PkAddBf16, false, false, "LDS[ADDR].bf16x2 += DATA.bf16x2.";
    exec_ds_add_u64 => A::Add, true, false, "LDS[ADDR] += DATA (u64).";
    exec_ds_sub_u64 => A::Sub, true, false, "LDS[ADDR] -= DATA (u64).";
    exec_ds_rsub_u64 => A::Rsub, true, false, "LDS[ADDR] = DATA - old (u64).";
    exec_ds_inc_u64 => A::Inc, true, false, "LDS[ADDR] = old >= DATA ? 0 : old + 1 (u64).";
    exec_ds_dec_u64 => A::Dec, true, false, "LDS[ADDR] = (old == 0 || old > DATA) ? DATA : old - 1 (u64).";
    exec_ds_min_i64 => A::Smin, true, false, "LDS[ADDR] = min(old, DATA) (i64).";
    exec_ds_max_i64 => A::Smax, true, false, "LDS[ADDR] = max(old, DATA) (i64).";
    exec_ds_min_u64 => A::Umin, true, false, "LDS[ADDR] = min(old, DATA) (u64).";
    exec_ds_max_u64 => A::Umax, true, false, "LDS[ADDR] = max(old, DATA) (u64).";
    exec_ds_and_b64 => A::And, true, false, "LDS[ADDR] &= DATA (b64).";
    exec_ds_or_b64 => A::Or, true, false, "LDS[ADDR] |= DATA (b64).";
    exec_ds_xor_b64 => A::Xor, true, false, "LDS[ADDR] ^= DATA (b64).";
    exec_ds_mskor_b64 => A::Mskor, true, false, "LDS[ADDR] = (old & ~DATA0) | DATA1 (b64).";
    exec_ds_cmpst_b64 => A::CmpSwap, true, false, "LDS[ADDR] = old == DATA0 ? DATA1 : old (b64).";
    exec_ds_cmpst_f64 => A::CmpSwapF, true, false, "LDS[ADDR] = old == DATA0 (as f64) ? DATA1 : old.";
    exec_ds_min_f64 => A::MinF, true, false, "LDS[ADDR] = minNum(old, DATA) (f64).";
    exec_ds_max_f64 => A::MaxF, true, false, "LDS[ADDR] = maxNum(old, DATA) (f64).";
    exec_ds_add_f64 => ADDF, true, false, "LDS[ADDR] += DATA (f64, RNE).";
    exec_ds_add_rtn_u32 => A::Add, false, true, "VDST = old; LDS[ADDR] += DATA (u32).";
    exec_ds_sub_rtn_u32 => A::Sub, false, true, "VDST = old; LDS[ADDR] -= DATA (u32).";
    exec_ds_rsub_rtn_u32 => A::Rsub, false, true, "VDST = old; LDS[ADDR] = DATA - old.";
    exec_ds_inc_rtn_u32 => A::Inc, false, true, "VDST = old; LDS[ADDR] = old >= DATA ? 0 : old + 1.";
    exec_ds_dec_rtn_u32 => A::Dec, false, true, "VDST = old; LDS[ADDR] = (old == 0 || old > DATA) ? DATA : old - 1.";
    exec_ds_min_rtn_i32 => A::Smin, false, true, "VDST = old; LDS[ADDR] = min(old, DATA) (i32).";
    exec_ds_max_rtn_i32 => A::Smax, false, true, "VDST = old; LDS[ADDR] = max(old, DATA) (i32).";
    exec_ds_min_rtn_u32 => A::Umin, false, true, "VDST = old; LDS[ADDR] = min(old, DATA) (u32).";
    exec_ds_max_rtn_u32 => A::Umax, false, true, "VDST = old; LDS[ADDR] = max(old, DATA) (u32).";
    exec_ds_and_rtn_b32 => A::And, false, true, "VDST = old; LDS[ADDR] &= DATA.";
    exec_ds_or_rtn_b32 => A::Or, false, true, "VDST = old; LDS[ADDR] |= DATA.";
    exec_ds_xor_rtn_b32 => A::Xor, false, true, "VDST = old; LDS[ADDR] ^= DATA.";
    exec_ds_mskor_rtn_b32 => A::Mskor, false, true, "VDST = old; LDS[ADDR] = (old & ~DATA0) | DATA1.";
    exec_ds_wrxchg_rtn_b32 => A::Swap, false, true, "VDST = old; LDS[ADDR] = DATA.";
    exec_ds_cmpst_rtn_b32 => A::CmpSwap, false, true, "VDST = old; LDS[ADDR] = old == DATA0 ? DATA1 : old.";
    exec_ds_cmpst_rtn_f32 => A::CmpSwapF, false, true, "VDST = old; LDS[ADDR] = old == DATA0 (f32) ? DATA1 : old.";
    exec_ds_min_rtn_f32 => A::MinF, false, true, "VDST = old; LDS[ADDR] = minNum(old, DATA) (f32).";
    exec_ds_max_rtn_f32 => A::MaxF, false, true, "VDST = old; LDS[ADDR] = maxNum(old, DATA) (f32).";
    exec_ds_wrap_rtn_b32 => A::Wrap, false, true, "VDST = old; LDS[ADDR] = old >= DATA0 ? old - DATA0 : old + DATA1.";
    exec_ds_add_rtn_f32 => ADDF, false, true, "VDST = old; LDS[ADDR] += DATA (f32).";
    exec_ds_pk_add_rtn_f16 => A::PkAddF16, false, true, "VDST = old; LDS[ADDR].f16x2 += DATA.";
    exec_ds_pk_add_rtn_bf16 => A::PkAddBf16, false, true, "VDST = old; LDS[ADDR].bf16x2 += DATA.";
    exec_ds_add_rtn_u64 => A::Add, true, true, "VDST = old; LDS[ADDR] += DATA (u64).";
    exec_ds_sub_rtn_u64 => A::Sub, true, true, "VDST = old; LDS[ADDR] -= DATA (u64).";
    exec_ds_rsub_rtn_u64 => A::Rsub, true, true, "VDST = old; LDS[ADDR] = DATA - old (u64).";
    exec_ds_inc_rtn_u64 => A::Inc, true, true, "VDST = old; 64-bit inc.";
    exec_ds_dec_rtn_u64 => A::Dec, true, true, "VDST = old; 64-bit dec.";
    exec_ds_min_rtn_i64 => A::Smin, true, true, "VDST = old; LDS[ADDR] = min(old, DATA) (i64).";
    exec_ds_max_rtn_i64 => A::Smax, true, true, "VDST = old; LDS[ADDR] = max(old, DATA) (i64).";
    exec_ds_min_rtn_u64 => A::Umin, true, true, "VDST = old; LDS[ADDR] = min(old, DATA) (u64).";
    exec_ds_max_rtn_u64 => A::Umax, true, true, "VDST = old; LDS[ADDR] = max(old, DATA) (u64).";
    exec_ds_and_rtn_b64 => A::And, true, true, "VDST = old; LDS[ADDR] &= DATA (b64).";
    exec_ds_or_rtn_b64 => A::Or, true, true, "VDST = old; LDS[ADDR] |= DATA (b64).";
    exec_ds_xor_rtn_b64 => A::Xor, true, true, "VDST = old; LDS[ADDR] ^= DATA (b64).";
    exec_ds_mskor_rtn_b64 => A::Mskor, true, true, "VDST = old; LDS[ADDR] = (old & ~DATA0) | DATA1 (b64).";
    exec_ds_wrxchg_rtn_b64 => A::Swap, true, true, "VDST = old; LDS[ADDR] = DATA (b64).";
    exec_ds_cmpst_rtn_b64 => A::CmpSwap, true, true, "VDST = old; LDS[ADDR] = old == DATA0 ? DATA1 : old (b64).";
    exec_ds_cmpst_rtn_f64 => A::CmpSwapF, true, true, "VDST = old; LDS[ADDR] = old == DATA0 (f64) ? DATA1 : old.";
    exec_ds_min_rtn_f64 => A::MinF, true, true, "VDST = old; LDS[ADDR] = minNum(old, DATA) (f64).";
    exec_ds_max_rtn_f64 => A::MaxF, true, true, "VDST = old; LDS[ADDR] = maxNum(old, DATA) (f64).";
    exec_ds_add_rtn_f64 => ADDF, true, true, "VDST = old; LDS[ADDR] += DATA (f64).";
}

macro_rules! src2 {
    ($($name:ident => $op:expr, $wide:expr;)*) => {$(
        #[doc = concat!("LDS[A] = ", stringify!($op), "(LDS[A], LDS[B]) (src2 form, see `ds_src2`).")]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            ds_src2(w, d, c, $op, $wide)
        }
    )*};
}

src2! {
    exec_ds_add_src2_u32 => A::Add, false;
    exec_ds_sub_src2_u32 => A::Sub, false;
    exec_ds_rsub_src2_u32 => A::Rsub, false;
    exec_ds_inc_src2_u32 => A::Inc, false;
    exec_ds_dec_src2_u32 => A::Dec, false;
    exec_ds_min_src2_i32 => A::Smin, false;
    exec_ds_max_src2_i32 => A::Smax, false;
    exec_ds_min_src2_u32 => A::Umin, false;
    exec_ds_max_src2_u32 => A::Umax, false;
    exec_ds_and_src2_b32 => A::And, false;
    exec_ds_or_src2_b32 => A::Or, false;
    exec_ds_xor_src2_b32 => A::Xor, false;
    exec_ds_write_src2_b32 => A::Swap, false;
    exec_ds_min_src2_f32 => A::MinF, false;
    exec_ds_max_src2_f32 => A::MaxF, false;
    exec_ds_add_src2_f32 => ADDF, false;
    exec_ds_add_src2_u64 => A::Add, true;
    exec_ds_sub_src2_u64 => A::Sub, true;
    exec_ds_rsub_src2_u64 => A::Rsub, true;
    exec_ds_inc_src2_u64 => A::Inc, true;
    exec_ds_dec_src2_u64 => A::Dec, true;
    exec_ds_min_src2_i64 => A::Smin, true;
    exec_ds_max_src2_i64 => A::Smax, true;
    exec_ds_min_src2_u64 => A::Umin, true;
    exec_ds_max_src2_u64 => A::Umax, true;
    exec_ds_and_src2_b64 => A::And, true;
    exec_ds_or_src2_b64 => A::Or, true;
    exec_ds_xor_src2_b64 => A::Xor, true;
    exec_ds_write_src2_b64 => A::Swap, true;
    exec_ds_min_src2_f64 => A::MinF, true;
    exec_ds_max_src2_f64 => A::MaxF, true;
}

/// VDST = LDS[M0 + offset + 4·lane].b32.
fn exec_ds_read_addtid_b32(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    no_gds(d)?;
    let base = w.s[M0].wrapping_add(offset(d));
    let mut out = [0u32; LANES];
    for l in lanes_of(w.exec()) {
        out[l] = lds_load(c.lds, u64::from(base.wrapping_add(4 * l as u32)), 4)? as u32;
    }
    w.write_lanes(d.op(0), &out);
    Ok(())
}

/// LDS[M0 + offset + 4·lane].b32 = DATA.
fn exec_ds_write_addtid_b32(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    no_gds(d)?;
    let base = w.s[M0].wrapping_add(offset(d));
    let v = w.lanes(d.op(0), Ty::B32);
    for l in lanes_of(w.exec()) {
        lds_store(
            c.lds,
            u64::from(base.wrapping_add(4 * l as u32)),
            4,
            u64::from(v[l]),
        )?;
    }
    Ok(())
}

/// The source lane of `ds_swizzle_b32` for `lane` under pattern `offset`:
/// offset[15] = 1: quad permute, lane (offset >> 2·(lane % 4)) & 3 of its
/// quad; else bitmask mode within 32 lanes: ((lane & and) | or) ^ xor with
/// and = offset[4:0], or = offset[9:5], xor = offset[14:10].
pub(crate) fn swizzle_source(offset: u32, lane: usize) -> usize {
    if offset & 0x8000 != 0 {
        (lane & !3) | (offset as usize >> (2 * (lane & 3)) & 3)
    } else {
        let and = offset as usize & 0x1f;
        let or = offset as usize >> 5 & 0x1f;
        let xor = offset as usize >> 10 & 0x1f;
        (lane & 0x20) | (((lane & and) | or) ^ xor)
    }
}

/// VDST[lane] = DATA[swizzle(lane, offset)] (0 when the source lane is
/// inactive); no LDS access.
fn exec_ds_swizzle_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let src = w.lanes(d.op(1), Ty::B32);
    let exec = w.exec();
    let off = offset(d);
    let mut out = [0u32; LANES];
    for (l, o) in out.iter_mut().enumerate() {
        let s = swizzle_source(off, l);
        *o = if exec >> s & 1 != 0 { src[s] } else { 0 };
    }
    w.write_lanes(d.op(0), &out);
    Ok(())
}

/// Forward permute: each active lane i sends DATA[i] to lane
/// ((ADDR[i] + offset) / 4) % 64 (the highest sender wins; lanes nobody
/// sends to get 0); active lanes write VDST.
fn exec_ds_permute_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let addr = w.lanes(d.op(1), Ty::B32);
    let data = w.lanes(d.op(2), Ty::B32);
    let exec = w.exec();
    let off = offset(d);
    let mut out = [0u32; LANES];
    for l in lanes_of(exec) {
        out[(addr[l].wrapping_add(off) / 4 % 64) as usize] = data[l];
    }
    w.write_lanes(d.op(0), &out);
    Ok(())
}

/// Backward permute: VDST[i] = DATA[((ADDR[i] + offset) / 4) % 64], 0 when
/// that source lane is inactive.
fn exec_ds_bpermute_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let addr = w.lanes(d.op(1), Ty::B32);
    let data = w.lanes(d.op(2), Ty::B32);
    let exec = w.exec();
    let off = offset(d);
    let mut out = [0u32; LANES];
    for (l, o) in out.iter_mut().enumerate() {
        let s = (addr[l].wrapping_add(off) / 4 % 64) as usize;
        *o = if exec >> s & 1 != 0 { data[s] } else { 0 };
    }
    w.write_lanes(d.op(0), &out);
    Ok(())
}

/// The counter update of `ds_append`/`ds_consume`: returns the old value
/// to every active lane.
fn counter(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, consume: bool) -> R {
    no_gds(d)?;
    let a = u64::from((w.s[M0] & 0xffff) + offset(d));
    let n = w.exec().count_ones();
    let old = lds_load(c.lds, a, 4)? as u32;
    let new = if consume {
        old.wrapping_sub(n)
    } else {
        old.wrapping_add(n)
    };
    lds_store(c.lds, a, 4, u64::from(new))?;
    w.write_lanes(d.op(0), &[old; LANES]);
    Ok(())
}

/// VDST = LDS[M0.base + offset]; LDS[...] += popcount(EXEC).
fn exec_ds_append(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    counter(w, d, c, false)
}

/// VDST = LDS[M0.base + offset]; LDS[...] -= popcount(EXEC).
fn exec_ds_consume(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    counter(w, d, c, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_patterns() {
        // swizzle(SWAP, 1) = bitmask and 0x1f, xor 1.
        assert_eq!(swizzle_source(0x1f | 1 << 10, 6), 7);
        // swizzle(BROADCAST, 8, 3): and 0x18, or 3.
        assert_eq!(swizzle_source(0x18 | 3 << 5, 45), 32 + 8 + 3);
        // quad_perm [3,2,1,0].
        assert_eq!(swizzle_source(0x8000 | 0b00_01_10_11, 5), 6);
        let lds = vec![0u8; 8];
        assert_eq!(
            lds_load(&lds, 6, 4),
            Err(FaultKind::Lds {
                addr: 6,
                len: 4,
                size: 8
            })
        );
    }
}
