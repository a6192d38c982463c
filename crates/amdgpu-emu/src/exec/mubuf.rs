//! Buffer memory: MUBUF and MTBUF through a buffer resource (V#),
//! including swizzled scratch through the private segment buffer (Vega ISA
//! ch. 9.1 "Buffer instructions": "Buffer addressing", "Range checking").
//!
//! The V# (GFX9 layout, 4 SGPRs):
//! - word 0: BASE_ADDRESS[31:0];
//! - word 1: BASE_ADDRESS[47:32] (bits 15:0), STRIDE[13:0] (29:16),
//!   CACHE_SWIZZLE (30), SWIZZLE_ENABLE (31);
//! - word 2: NUM_RECORDS;
//! - word 3: DST_SEL_X/Y/Z/W (11:0), NUM_FORMAT (14:12), DATA_FORMAT
//!   (18:15; with ADD_TID_ENABLE it also supplies STRIDE[17:14]),
//!   USER_VM_ENABLE (19), USER_VM_MODE (20), INDEX_STRIDE (22:21: 8, 16,
//!   32 or 64), ADD_TID_ENABLE (23), NV (27), TYPE (31:30).
//!
//! GFX9 has no ELEMENT_SIZE field: swizzled buffers use 4-byte elements.
//! Per lane: index = (`idxen` ? VGPR : 0) + (ADD_TID_ENABLE ? lane : 0),
//! offset = (`offen` ? VGPR : 0) + inst_offset, and
//! - linear: buffer_offset = offset + stride · index;
//! - swizzled: buffer_offset = (index / index_stride · stride + offset / 4 · 4)
//!   · index_stride + index % index_stride · 4 + offset % 4;
//!
//! address = base + soffset + buffer_offset. Range checking (out of range:
//! loads return 0, stores and atomics are dropped, atomics return 0):
//! with STRIDE = 0 (raw buffers; NUM_RECORDS counts bytes), buffer_offset
//! ≥ NUM_RECORDS − soffset (saturating: `soffset` takes part in the check
//! as in gem5 and LLVM's buffer lowering); with STRIDE ≠ 0 (NUM_RECORDS
//! counts records), index ≥ NUM_RECORDS, or for swizzled buffers also
//! offset ≥ stride. Dword
//! loads and stores check each dword; format accesses and atomics check
//! their first byte (all or nothing). A range-checked access that lands
//! outside every allocation still faults.
//!
//! Formats: DATA_FORMAT 8, 16, 32, 8_8, 16_16, 32_32, 32_32_32, 8_8_8_8,
//! 16_16_16_16, 32_32_32_32 with NUM_FORMAT unorm, snorm, uscaled, sscaled,
//! uint, sint and float (8-bit float is invalid); other formats report
//! [`FaultKind::Unimplemented`]. DST_SEL is taken as identity; components
//! a format lacks read as 0 (w: 1). `tfe` status dwords are not written.

use amdgpu_isa::gfx9::{Op, Operand};

use super::flat::{
    Atomic, Ld, St, atomic_data, atomic_f32_ftz, f16_to_f32, f32_to_f16, lanes_of, load_to_lds,
    write_returned,
};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a buffer instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    use Op::*;
    Some(match op {
        BUFFER_WBINVL1 | BUFFER_WBINVL1_VOL | BUFFER_WBL2 | BUFFER_INVL2 | BUFFER_INV => {
            exec_buffer_cache_op
        }
        BUFFER_LOAD_UBYTE => exec_buffer_load_ubyte,
        BUFFER_LOAD_SBYTE => exec_buffer_load_sbyte,
        BUFFER_LOAD_USHORT => exec_buffer_load_ushort,
        BUFFER_LOAD_SSHORT => exec_buffer_load_sshort,
        BUFFER_LOAD_DWORD => exec_buffer_load_dword,
        BUFFER_LOAD_DWORDX2 => exec_buffer_load_dwordx2,
        BUFFER_LOAD_DWORDX3 => exec_buffer_load_dwordx3,
        BUFFER_LOAD_DWORDX4 => exec_buffer_load_dwordx4,
        BUFFER_LOAD_UBYTE_D16 => exec_buffer_load_ubyte_d16,
        BUFFER_LOAD_UBYTE_D16_HI => exec_buffer_load_ubyte_d16_hi,
        BUFFER_LOAD_SBYTE_D16 => exec_buffer_load_sbyte_d16,
        BUFFER_LOAD_SBYTE_D16_HI => exec_buffer_load_sbyte_d16_hi,
        BUFFER_LOAD_SHORT_D16 => exec_buffer_load_short_d16,
        BUFFER_LOAD_SHORT_D16_HI => exec_buffer_load_short_d16_hi,
        BUFFER_STORE_BYTE => exec_buffer_store_byte,
        BUFFER_STORE_BYTE_D16_HI => exec_buffer_store_byte_d16_hi,
        BUFFER_STORE_SHORT => exec_buffer_store_short,
        BUFFER_STORE_SHORT_D16_HI => exec_buffer_store_short_d16_hi,
        BUFFER_STORE_DWORD => exec_buffer_store_dword,
        BUFFER_STORE_DWORDX2 => exec_buffer_store_dwordx2,
        BUFFER_STORE_DWORDX3 => exec_buffer_store_dwordx3,
        BUFFER_STORE_DWORDX4 => exec_buffer_store_dwordx4,
        BUFFER_LOAD_FORMAT_X | TBUFFER_LOAD_FORMAT_X => exec_buffer_load_format_x,
        BUFFER_LOAD_FORMAT_XY | TBUFFER_LOAD_FORMAT_XY => exec_buffer_load_format_xy,
        BUFFER_LOAD_FORMAT_XYZ | TBUFFER_LOAD_FORMAT_XYZ => exec_buffer_load_format_xyz,
        BUFFER_LOAD_FORMAT_XYZW | TBUFFER_LOAD_FORMAT_XYZW => exec_buffer_load_format_xyzw,
        BUFFER_LOAD_FORMAT_D16_X | TBUFFER_LOAD_FORMAT_D16_X => exec_buffer_load_format_d16_x,
        BUFFER_LOAD_FORMAT_D16_HI_X => exec_buffer_load_format_d16_hi_x,
        BUFFER_LOAD_FORMAT_D16_XY | TBUFFER_LOAD_FORMAT_D16_XY => exec_buffer_load_format_d16_xy,
        BUFFER_LOAD_FORMAT_D16_XYZ | TBUFFER_LOAD_FORMAT_D16_XYZ => exec_buffer_load_format_d16_xyz,
        BUFFER_LOAD_FORMAT_D16_XYZW | TBUFFER_LOAD_FORMAT_D16_XYZW => {
            exec_buffer_load_format_d16_xyzw
        }
        BUFFER_STORE_FORMAT_X | TBUFFER_STORE_FORMAT_X => exec_buffer_store_format_x,
        BUFFER_STORE_FORMAT_XY | TBUFFER_STORE_FORMAT_XY => exec_buffer_store_format_xy,
        BUFFER_STORE_FORMAT_XYZ | TBUFFER_STORE_FORMAT_XYZ => exec_buffer_store_format_xyz,
        BUFFER_STORE_FORMAT_XYZW | TBUFFER_STORE_FORMAT_XYZW => exec_buffer_store_format_xyzw,
        BUFFER_STORE_FORMAT_D16_X | TBUFFER_STORE_FORMAT_D16_X => exec_buffer_store_format_d16_x,
        BUFFER_STORE_FORMAT_D16_HI_X => exec_buffer_store_format_d16_hi_x,
        BUFFER_STORE_FORMAT_D16_XY | TBUFFER_STORE_FORMAT_D16_XY => exec_buffer_store_format_d16_xy,
        BUFFER_STORE_FORMAT_D16_XYZ | TBUFFER_STORE_FORMAT_D16_XYZ => {
            exec_buffer_store_format_d16_xyz
        }
        BUFFER_STORE_FORMAT_D16_XYZW | TBUFFER_STORE_FORMAT_D16_XYZW => {
            exec_buffer_store_format_d16_xyzw
        }
        BUFFER_ATOMIC_SWAP => exec_buffer_atomic_swap,
        BUFFER_ATOMIC_CMPSWAP => exec_buffer_atomic_cmpswap,
        BUFFER_ATOMIC_ADD => exec_buffer_atomic_add,
        BUFFER_ATOMIC_SUB => exec_buffer_atomic_sub,
        BUFFER_ATOMIC_SMIN => exec_buffer_atomic_smin,
        BUFFER_ATOMIC_UMIN => exec_buffer_atomic_umin,
        BUFFER_ATOMIC_SMAX => exec_buffer_atomic_smax,
        BUFFER_ATOMIC_UMAX => exec_buffer_atomic_umax,
        BUFFER_ATOMIC_AND => exec_buffer_atomic_and,
        BUFFER_ATOMIC_OR => exec_buffer_atomic_or,
        BUFFER_ATOMIC_XOR => exec_buffer_atomic_xor,
        BUFFER_ATOMIC_INC => exec_buffer_atomic_inc,
        BUFFER_ATOMIC_DEC => exec_buffer_atomic_dec,
        BUFFER_ATOMIC_SWAP_X2 => exec_buffer_atomic_swap_x2,
        BUFFER_ATOMIC_CMPSWAP_X2 => exec_buffer_atomic_cmpswap_x2,
        BUFFER_ATOMIC_ADD_X2 => exec_buffer_atomic_add_x2,
        BUFFER_ATOMIC_SUB_X2 => exec_buffer_atomic_sub_x2,
        BUFFER_ATOMIC_SMIN_X2 => exec_buffer_atomic_smin_x2,
        BUFFER_ATOMIC_UMIN_X2 => exec_buffer_atomic_umin_x2,
        BUFFER_ATOMIC_SMAX_X2 => exec_buffer_atomic_smax_x2,
        BUFFER_ATOMIC_UMAX_X2 => exec_buffer_atomic_umax_x2,
        BUFFER_ATOMIC_AND_X2 => exec_buffer_atomic_and_x2,
        BUFFER_ATOMIC_OR_X2 => exec_buffer_atomic_or_x2,
        BUFFER_ATOMIC_XOR_X2 => exec_buffer_atomic_xor_x2,
        BUFFER_ATOMIC_INC_X2 => exec_buffer_atomic_inc_x2,
        BUFFER_ATOMIC_DEC_X2 => exec_buffer_atomic_dec_x2,
        BUFFER_ATOMIC_ADD_F32 => exec_buffer_atomic_add_f32,
        BUFFER_ATOMIC_PK_ADD_F16 => exec_buffer_atomic_pk_add_f16,
        BUFFER_ATOMIC_ADD_F64 => exec_buffer_atomic_add_f64,
        BUFFER_ATOMIC_MIN_F64 => exec_buffer_atomic_min_f64,
        BUFFER_ATOMIC_MAX_F64 => exec_buffer_atomic_max_f64,
        _ => return None,
    })
}

/// The private segment buffer V# for scratch at `base` (the values ROCm's
/// runtime puts in a GFX9 queue's scratch descriptor):
/// - BASE_ADDRESS = `base`, STRIDE = 0, SWIZZLE_ENABLE = 1;
/// - NUM_RECORDS = 0xffff_ffff (the emulator's scratch allocation bounds
///   the accesses instead);
/// - DST_SEL = X, Y, Z, W; NUM_FORMAT = UINT (4); DATA_FORMAT = 32 (4);
///   INDEX_STRIDE = 64 (3); ADD_TID_ENABLE = 1.
///
/// With `soffset` = the wave's scratch offset this places dword `i` of lane
/// `l`'s private memory at `base + wave_offset + (i * 64 + l) * 4`.
pub fn scratch_resource(base: u64) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | 1 << 31,
        u32::MAX,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 4 << 12 | 4 << 15 | 3 << 21 | 1 << 23,
    ]
}

/// A decoded buffer resource.
#[derive(Debug, Clone, Copy)]
struct Rsrc {
    base: u64,
    /// Stride for addressing (with ADD_TID_ENABLE: DATA_FORMAT supplies
    /// bits 17:14).
    stride: u64,
    /// The 14-bit STRIDE field (decides the range check).
    raw_stride: u64,
    swizzle: bool,
    num_records: u64,
    index_stride: u64,
    add_tid: bool,
    dfmt: u32,
    nfmt: u32,
}

impl Rsrc {
    fn read(w: &Wave, op: &Operand) -> Rsrc {
        let code = match *op {
            Operand::Src { code, .. } if code < 128 => usize::from(code),
            _ => 0,
        };
        let s = |i: usize| w.s[(code + i) & 127];
        let (w1, w3) = (s(1), s(3));
        let raw_stride = u64::from(w1 >> 16 & 0x3fff);
        let add_tid = w3 >> 23 & 1 != 0;
        let dfmt = w3 >> 15 & 0xf;
        Rsrc {
            base: u64::from(s(0)) | u64::from(w1 & 0xffff) << 32,
            stride: if add_tid {
                raw_stride | u64::from(dfmt) << 14
            } else {
                raw_stride
            },
            raw_stride,
            swizzle: w1 >> 31 != 0,
            num_records: u64::from(s(2)),
            index_stride: 8 << (w3 >> 21 & 3),
            add_tid,
            dfmt,
            nfmt: w3 >> 12 & 7,
        }
    }

    /// The address of byte `off` of record `idx`, or `None` if out of range.
    #[inline]
    fn address(&self, idx: u64, off: u64, soff: u64) -> Option<u64> {
        let buffer_offset = if self.swizzle {
            let (im, il) = (idx / self.index_stride, idx % self.index_stride);
            (im * self.stride + (off & !3)) * self.index_stride + il * 4 + (off & 3)
        } else {
            off + self.stride * idx
        };
        let out = if self.raw_stride == 0 {
            buffer_offset >= self.num_records.saturating_sub(soff)
        } else {
            idx >= self.num_records || (self.swizzle && off >= self.stride)
        };
        (!out).then(|| self.base.wrapping_add(soff).wrapping_add(buffer_offset))
    }
}

/// Per-lane addressing inputs of a buffer instruction.
struct Lanes2 {
    rsrc: Rsrc,
    idx: [u64; LANES],
    off: [u64; LANES],
    soff: u64,
    /// Through the dispatch's private segment buffer: the wave's scratch
    /// bytes `[start, end)`, which every access must stay inside.
    window: Option<(u64, u64)>,
}

impl Lanes2 {
    /// Reads V#, vaddr and soffset; `vaddr` is the vaddr operand index.
    fn read(w: &Wave, c: &Ctx<'_>, d: &Decoded, vaddr: usize) -> Lanes2 {
        let rsrc = Rsrc::read(w, d.op(vaddr + 1));
        let facts = c.dispatch;
        let window = (facts.scratch_base != 0 && rsrc.base == facts.scratch_base).then(|| {
            (
                w.scratch_base,
                w.scratch_base + facts.private_limit() * LANES as u64,
            )
        });
        let soff = w.scalar(d.op(vaddr + 2), Ty::B32).unwrap_or(0) & 0xffff_ffff;
        let m = &d.inst.mods;
        let inst = u64::from(m.offset as u32 & 0xfff);
        let va = d.op(vaddr);
        let zero = [0u32; LANES];
        let (iv, ov) = match (m.idxen, m.offen) {
            (true, true) => (w.lanes_at(va, 0, Ty::B32), w.lanes_at(va, 1, Ty::B32)),
            (true, false) => (w.lanes(va, Ty::B32), zero),
            (false, true) => (zero, w.lanes(va, Ty::B32)),
            (false, false) => (zero, zero),
        };
        let mut idx = [0u64; LANES];
        let mut off = [0u64; LANES];
        for l in 0..LANES {
            idx[l] = u64::from(iv[l]) + if rsrc.add_tid { l as u64 } else { 0 };
            off[l] = u64::from(ov[l]) + inst;
        }
        Lanes2 {
            rsrc,
            idx,
            off,
            soff,
            window,
        }
    }

    /// The address of byte `k` of lane `l`'s access (`None`: out of the
    /// buffer's range, which the hardware skips), or a fault for private
    /// memory outside the wave's scratch.
    #[inline]
    fn address(&self, l: usize, k: u64) -> Result<Option<u64>, FaultKind> {
        let a = self.rsrc.address(self.idx[l], self.off[l] + k, self.soff);
        if let (Some(addr), Some((start, end))) = (a, self.window)
            && !(start..end).contains(&addr)
        {
            // Dword `i` of a lane's private memory is 256 · i bytes in.
            let rel = addr.wrapping_sub(start);
            return Err(FaultKind::Private {
                offset: rel / 256 * 4 + rel % 4,
                len: 4,
                size: (end - start) / LANES as u64,
            });
        }
        Ok(a)
    }
}

/// Operand index of vaddr (the data operand, when present, precedes it).
fn vaddr_index(d: &Decoded) -> usize {
    d.inst.operands.len().saturating_sub(3)
}

/// Cache write-back and invalidation: no-ops (memory is coherent here).
fn exec_buffer_cache_op(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

fn buffer_load(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: Ld) -> R {
    let va = vaddr_index(d);
    let a = Lanes2::read(w, c, d, va);
    let exec = w.exec();
    let load = |c: &Ctx<'_>, l: usize, k: u64, size: usize| -> Result<u32, FaultKind> {
        Ok(match a.address(l, k)? {
            Some(addr) => c.mem.load(addr, size)? as u32,
            None => 0,
        })
    };
    if va == 0 || d.inst.mods.lds {
        for l in lanes_of(exec) {
            let v = match kind {
                Ld::Dwords(_) => load(c, l, 0, 4)?,
                k => k.convert(load(c, l, 0, k.bytes())?, 0),
            };
            load_to_lds(w, d, c, l, v)?;
        }
        return Ok(());
    }
    let dst = *d.op(0);
    match kind {
        Ld::Dwords(n) => {
            let mut out = [[0u32; LANES]; 4];
            for l in lanes_of(exec) {
                for (i, o) in out[..n].iter_mut().enumerate() {
                    o[l] = load(c, l, 4 * i as u64, 4)?;
                }
            }
            for (i, o) in out[..n].iter().enumerate() {
                w.write_lanes_at(&dst, i, o);
            }
        }
        k => {
            let mut out: Lanes = w.lanes(&dst, Ty::B32);
            for l in lanes_of(exec) {
                out[l] = k.convert(load(c, l, 0, k.bytes())?, out[l]);
            }
            w.write_lanes(&dst, &out);
        }
    }
    Ok(())
}

fn buffer_store(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: St) -> R {
    let a = Lanes2::read(w, c, d, 1);
    let exec = w.exec();
    let data = *d.op(0);
    let n = match kind {
        St::Dwords(n) => n,
        _ => 1,
    };
    for i in 0..n {
        let v = w.lanes_at(&data, i, Ty::B32);
        for l in lanes_of(exec) {
            if let Some(addr) = a.address(l, 4 * i as u64)? {
                match kind {
                    St::Dwords(_) => c.mem.store_u32(addr, v[l])?,
                    k => c.mem.store(addr, k.bytes(), k.value(v[l]))?,
                }
            }
        }
    }
    Ok(())
}

fn buffer_atomic(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, op: Atomic, wide: bool) -> R {
    let a = Lanes2::read(w, c, d, 1);
    let exec = w.exec();
    let data = *d.op(0);
    let (src, cmp) = atomic_data(w, &data, op, wide);
    let mut old = [0u64; LANES];
    for l in lanes_of(exec) {
        let Some(addr) = a.address(l, 0)? else {
            continue;
        };
        let (s, k) = (src[l], cmp[l]);
        old[l] = if wide {
            c.mem.atomic_u64(addr, |o| op.apply64(o, s, k))?
        } else {
            u64::from(
                c.mem
                    .atomic_u32(addr, |o| op.apply32(o, s as u32, k as u32))?,
            )
        };
    }
    if d.inst.mods.glc {
        write_returned(w, &data, &old, wide);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Formats.

/// Component sizes in bits of a data format (`None`: not emulated).
fn format_bits(dfmt: u32) -> Option<&'static [u32]> {
    Some(match dfmt {
        1 => &[8],
        2 => &[16],
        3 => &[8, 8],
        4 => &[32],
        5 => &[16, 16],
        10 => &[8, 8, 8, 8],
        11 => &[32, 32],
        12 => &[16, 16, 16, 16],
        13 => &[32, 32, 32],
        14 => &[32, 32, 32, 32],
        _ => return None,
    })
}

const UNORM: u32 = 0;
const SNORM: u32 = 1;
const USCALED: u32 = 2;
const SSCALED: u32 = 3;
const UINT: u32 = 4;
const SINT: u32 = 5;
const FLOAT: u32 = 7;

/// The value of a `bits`-wide component as a 32-bit register value
/// (f32 bits for the float-valued formats, integers otherwise), or with
/// `d16` as a 16-bit register value (f16 bits, truncated integers).
fn unpack(raw: u32, bits: u32, nfmt: u32, d16: bool) -> Option<u32> {
    let sext = |v: u32| ((v << (32 - bits)) as i32 >> (32 - bits)) as i64;
    let f: f64 = match nfmt {
        UINT => return Some(if d16 { raw & 0xffff } else { raw }),
        SINT => return Some(if d16 { raw & 0xffff } else { sext(raw) as u32 }),
        FLOAT => {
            return match (bits, d16) {
                (32, false) | (16, true) => Some(raw),
                (16, false) => Some(f16_to_f32(raw as u16).to_bits()),
                (32, true) => Some(u32::from(f32_to_f16(f32::from_bits(raw)))),
                _ => None,
            };
        }
        UNORM => f64::from(raw) / ((1u64 << bits) - 1) as f64,
        SNORM => (sext(raw) as f64 / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0),
        USCALED => f64::from(raw),
        SSCALED => sext(raw) as f64,
        _ => return None,
    };
    let x = f as f32;
    Some(if d16 {
        u32::from(f32_to_f16(x))
    } else {
        x.to_bits()
    })
}

/// The `bits`-wide memory value of register component `v` (32-bit, or
/// 16-bit with `d16`).
fn pack(v: u32, bits: u32, nfmt: u32, d16: bool) -> Option<u32> {
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let x = if d16 {
        f16_to_f32(v as u16)
    } else {
        f32::from_bits(v)
    };
    let r = match nfmt {
        UINT => v,
        SINT if d16 => v as u16 as i16 as i32 as u32,
        SINT => v,
        FLOAT => match (bits, d16) {
            (32, false) | (16, true) => v,
            (16, false) => u32::from(f32_to_f16(x)),
            (32, true) => x.to_bits(),
            _ => return None,
        },
        UNORM => {
            let m = ((1u64 << bits) - 1) as f64;
            (f64::from(x).clamp(0.0, 1.0) * m).round_ties_even() as u32
        }
        SNORM => {
            let m = ((1u64 << (bits - 1)) - 1) as f64;
            (f64::from(x).clamp(-1.0, 1.0) * m).round_ties_even() as i32 as u32
        }
        USCALED => x.round_ties_even() as u32,
        SSCALED => x.round_ties_even() as i32 as u32,
        _ => return None,
    };
    Some(r & mask)
}

/// The (dfmt, nfmt) of a format instruction: MTBUF's `format` field, or
/// the V#'s.
fn formats(d: &Decoded, r: &Rsrc) -> (u32, u32) {
    if d.inst.def.mnemonic.starts_with("tbuffer") {
        let f = u32::from(d.inst.mods.format);
        (f & 0xf, f >> 4 & 7)
    } else {
        (r.dfmt, r.nfmt)
    }
}

/// Loads `n` components (converted by the format) per lane. `d16` packs
/// two 16-bit components per dword; `hi` puts a single one in the high half.
fn buffer_load_format(
    w: &mut Wave,
    d: &Decoded,
    c: &mut Ctx<'_>,
    n: usize,
    d16: bool,
    hi: bool,
) -> R {
    let va = vaddr_index(d);
    let a = Lanes2::read(w, c, d, va);
    let (dfmt, nfmt) = formats(d, &a.rsrc);
    let unimpl = || FaultKind::Unimplemented(d.inst.def.name);
    let bits = format_bits(dfmt).ok_or_else(unimpl)?;
    let exec = w.exec();
    let one = if nfmt == UINT || nfmt == SINT {
        1
    } else if d16 {
        0x3c00
    } else {
        0x3f80_0000
    };
    let mut comps = [[0u32; LANES]; 4];
    for l in lanes_of(exec) {
        let Some(addr) = a.address(l, 0)? else {
            continue;
        };
        let mut pos = 0;
        for (i, comp) in comps[..n].iter_mut().enumerate() {
            comp[l] = match bits.get(i) {
                Some(&b) => {
                    let raw = c.mem.load(addr + pos, b as usize / 8)? as u32;
                    pos += u64::from(b / 8);
                    unpack(raw, b, nfmt, d16).ok_or_else(unimpl)?
                }
                None if i == 3 => one,
                None => 0,
            };
        }
    }
    if va == 0 || d.inst.mods.lds {
        for l in lanes_of(exec) {
            load_to_lds(w, d, c, l, comps[0][l])?;
        }
        return Ok(());
    }
    let dst = *d.op(0);
    if !d16 {
        for (i, comp) in comps[..n].iter().enumerate() {
            w.write_lanes_at(&dst, i, comp);
        }
    } else if n == 1 {
        let mut out = w.lanes(&dst, Ty::B32);
        for l in 0..LANES {
            out[l] = if hi {
                (out[l] & 0xffff) | comps[0][l] << 16
            } else {
                (out[l] & 0xffff_0000) | comps[0][l]
            };
        }
        w.write_lanes(&dst, &out);
    } else {
        for k in 0..n.div_ceil(2) {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = comps[2 * k][l] | comps[2 * k + 1][l] << 16;
            }
            w.write_lanes_at(&dst, k, &out);
        }
    }
    Ok(())
}

/// Stores `n` components (converted by the format) per lane.
fn buffer_store_format(
    w: &mut Wave,
    d: &Decoded,
    c: &mut Ctx<'_>,
    n: usize,
    d16: bool,
    hi: bool,
) -> R {
    let a = Lanes2::read(w, c, d, 1);
    let (dfmt, nfmt) = formats(d, &a.rsrc);
    let unimpl = || FaultKind::Unimplemented(d.inst.def.name);
    let bits = format_bits(dfmt).ok_or_else(unimpl)?;
    let data = *d.op(0);
    let mut comps = [[0u32; LANES]; 4];
    for (i, comp) in comps[..n].iter_mut().enumerate() {
        *comp = if d16 {
            let r = w.lanes_at(&data, i / 2, Ty::B32);
            let shift = if hi || i % 2 == 1 { 16 } else { 0 };
            r.map(|v| v >> shift & 0xffff)
        } else {
            w.lanes_at(&data, i, Ty::B32)
        };
    }
    for l in lanes_of(w.exec()) {
        let Some(addr) = a.address(l, 0)? else {
            continue;
        };
        let mut pos = 0;
        for (i, &b) in bits.iter().enumerate().take(n) {
            let v = pack(comps[i][l], b, nfmt, d16).ok_or_else(unimpl)?;
            c.mem.store(addr + pos, b as usize / 8, u64::from(v))?;
            pos += u64::from(b / 8);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Instructions.

macro_rules! ops {
    ($($name:ident => $f:ident($($arg:expr),*), $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            $f(w, d, c, $($arg),*)
        }
    )*};
}

use Atomic as A;

ops! {
    exec_buffer_load_ubyte => buffer_load(Ld::Zext(1)), "VDST = zext(MEM[ADDR].u8) (`lds`: to LDS at M0 + offset + 4·lane).";
    exec_buffer_load_sbyte => buffer_load(Ld::Sext(1)), "VDST = sext(MEM[ADDR].i8).";
    exec_buffer_load_ushort => buffer_load(Ld::Zext(2)), "VDST = zext(MEM[ADDR].u16).";
    exec_buffer_load_sshort => buffer_load(Ld::Sext(2)), "VDST = sext(MEM[ADDR].i16).";
    exec_buffer_load_dword => buffer_load(Ld::Dwords(1)), "VDST = MEM[ADDR].b32.";
    exec_buffer_load_dwordx2 => buffer_load(Ld::Dwords(2)), "VDST[0:1] = MEM[ADDR] (each dword range-checked).";
    exec_buffer_load_dwordx3 => buffer_load(Ld::Dwords(3)), "VDST[0:2] = MEM[ADDR] (each dword range-checked).";
    exec_buffer_load_dwordx4 => buffer_load(Ld::Dwords(4)), "VDST[0:3] = MEM[ADDR] (each dword range-checked).";
    exec_buffer_load_ubyte_d16 => buffer_load(Ld::D16 { size: 1, signed: false, hi: false }), "VDST.lo16 = zext(MEM[ADDR].u8).";
    exec_buffer_load_ubyte_d16_hi => buffer_load(Ld::D16 { size: 1, signed: false, hi: true }), "VDST.hi16 = zext(MEM[ADDR].u8).";
    exec_buffer_load_sbyte_d16 => buffer_load(Ld::D16 { size: 1, signed: true, hi: false }), "VDST.lo16 = sext(MEM[ADDR].i8).";
    exec_buffer_load_sbyte_d16_hi => buffer_load(Ld::D16 { size: 1, signed: true, hi: true }), "VDST.hi16 = sext(MEM[ADDR].i8).";
    exec_buffer_load_short_d16 => buffer_load(Ld::D16 { size: 2, signed: false, hi: false }), "VDST.lo16 = MEM[ADDR].b16.";
    exec_buffer_load_short_d16_hi => buffer_load(Ld::D16 { size: 2, signed: false, hi: true }), "VDST.hi16 = MEM[ADDR].b16.";
    exec_buffer_store_byte => buffer_store(St::Low(1)), "MEM[ADDR].u8 = VDATA[7:0].";
    exec_buffer_store_byte_d16_hi => buffer_store(St::Hi(1)), "MEM[ADDR].u8 = VDATA[23:16].";
    exec_buffer_store_short => buffer_store(St::Low(2)), "MEM[ADDR].u16 = VDATA[15:0].";
    exec_buffer_store_short_d16_hi => buffer_store(St::Hi(2)), "MEM[ADDR].u16 = VDATA[31:16].";
    exec_buffer_store_dword => buffer_store(St::Dwords(1)), "MEM[ADDR].b32 = VDATA.";
    exec_buffer_store_dwordx2 => buffer_store(St::Dwords(2)), "MEM[ADDR] = VDATA[0:1] (each dword range-checked).";
    exec_buffer_store_dwordx3 => buffer_store(St::Dwords(3)), "MEM[ADDR] = VDATA[0:2] (each dword range-checked).";
    exec_buffer_store_dwordx4 => buffer_store(St::Dwords(4)), "MEM[ADDR] = VDATA[0:3] (each dword range-checked).";
    exec_buffer_load_format_x => buffer_load_format(1, false, false), "VDST = format-converted component x.";
    exec_buffer_load_format_xy => buffer_load_format(2, false, false), "VDST[0:1] = components x, y.";
    exec_buffer_load_format_xyz => buffer_load_format(3, false, false), "VDST[0:2] = components x, y, z.";
    exec_buffer_load_format_xyzw => buffer_load_format(4, false, false), "VDST[0:3] = components x, y, z, w.";
    exec_buffer_load_format_d16_x => buffer_load_format(1, true, false), "VDST.lo16 = 16-bit component x.";
    exec_buffer_load_format_d16_hi_x => buffer_load_format(1, true, true), "VDST.hi16 = 16-bit component x.";
    exec_buffer_load_format_d16_xy => buffer_load_format(2, true, false), "VDST = {y, x} as 16-bit halves.";
    exec_buffer_load_format_d16_xyz => buffer_load_format(3, true, false), "VDST[0:1] = {y, x}, {0, z}.";
    exec_buffer_load_format_d16_xyzw => buffer_load_format(4, true, false), "VDST[0:1] = {y, x}, {w, z}.";
    exec_buffer_store_format_x => buffer_store_format(1, false, false), "MEM[ADDR] = format(VDATA).";
    exec_buffer_store_format_xy => buffer_store_format(2, false, false), "MEM[ADDR] = format(VDATA[0:1]).";
    exec_buffer_store_format_xyz => buffer_store_format(3, false, false), "MEM[ADDR] = format(VDATA[0:2]).";
    exec_buffer_store_format_xyzw => buffer_store_format(4, false, false), "MEM[ADDR] = format(VDATA[0:3]).";
    exec_buffer_store_format_d16_x => buffer_store_format(1, true, false), "MEM[ADDR] = format(VDATA.lo16).";
    exec_buffer_store_format_d16_hi_x => buffer_store_format(1, true, true), "MEM[ADDR] = format(VDATA.hi16).";
    exec_buffer_store_format_d16_xy => buffer_store_format(2, true, false), "MEM[ADDR] = format(VDATA halves x, y).";
    exec_buffer_store_format_d16_xyz => buffer_store_format(3, true, false), "MEM[ADDR] = format(x, y, z from VDATA[0:1] halves).";
    exec_buffer_store_format_d16_xyzw => buffer_store_format(4, true, false), "MEM[ADDR] = format(x, y, z, w from VDATA[0:1] halves).";
    exec_buffer_atomic_swap => buffer_atomic(A::Swap, false), "tmp = MEM; MEM = DATA; RETURN tmp (glc).";
    exec_buffer_atomic_cmpswap => buffer_atomic(A::CmpSwap, false), "tmp = MEM; MEM = tmp == DATA[1] ? DATA[0] : tmp; RETURN tmp.";
    exec_buffer_atomic_add => buffer_atomic(A::Add, false), "MEM += DATA (u32).";
    exec_buffer_atomic_sub => buffer_atomic(A::Sub, false), "MEM -= DATA (u32).";
    exec_buffer_atomic_smin => buffer_atomic(A::Smin, false), "MEM = min(MEM, DATA) (i32).";
    exec_buffer_atomic_umin => buffer_atomic(A::Umin, false), "MEM = min(MEM, DATA) (u32).";
    exec_buffer_atomic_smax => buffer_atomic(A::Smax, false), "MEM = max(MEM, DATA) (i32).";
    exec_buffer_atomic_umax => buffer_atomic(A::Umax, false), "MEM = max(MEM, DATA) (u32).";
    exec_buffer_atomic_and => buffer_atomic(A::And, false), "MEM &= DATA.";
    exec_buffer_atomic_or => buffer_atomic(A::Or, false), "MEM |= DATA.";
    exec_buffer_atomic_xor => buffer_atomic(A::Xor, false), "MEM ^= DATA.";
    exec_buffer_atomic_inc => buffer_atomic(A::Inc, false), "MEM = MEM >= DATA ? 0 : MEM + 1.";
    exec_buffer_atomic_dec => buffer_atomic(A::Dec, false), "MEM = (MEM == 0 || MEM > DATA) ? DATA : MEM - 1.";
    exec_buffer_atomic_swap_x2 => buffer_atomic(A::Swap, true), "64-bit swap.";
    exec_buffer_atomic_cmpswap_x2 => buffer_atomic(A::CmpSwap, true), "tmp = MEM.b64; MEM = tmp == DATA[2:3] ? DATA[0:1] : tmp; RETURN tmp.";
    exec_buffer_atomic_add_x2 => buffer_atomic(A::Add, true), "MEM += DATA (u64).";
    exec_buffer_atomic_sub_x2 => buffer_atomic(A::Sub, true), "MEM -= DATA (u64).";
    exec_buffer_atomic_smin_x2 => buffer_atomic(A::Smin, true), "MEM = min(MEM, DATA) (i64).";
    exec_buffer_atomic_umin_x2 => buffer_atomic(A::Umin, true), "MEM = min(MEM, DATA) (u64).";
    exec_buffer_atomic_smax_x2 => buffer_atomic(A::Smax, true), "MEM = max(MEM, DATA) (i64).";
    exec_buffer_atomic_umax_x2 => buffer_atomic(A::Umax, true), "MEM = max(MEM, DATA) (u64).";
    exec_buffer_atomic_and_x2 => buffer_atomic(A::And, true), "MEM &= DATA (b64).";
    exec_buffer_atomic_or_x2 => buffer_atomic(A::Or, true), "MEM |= DATA (b64).";
    exec_buffer_atomic_xor_x2 => buffer_atomic(A::Xor, true), "MEM ^= DATA (b64).";
    exec_buffer_atomic_inc_x2 => buffer_atomic(A::Inc, true), "64-bit inc.";
    exec_buffer_atomic_dec_x2 => buffer_atomic(A::Dec, true), "64-bit dec.";
    exec_buffer_atomic_pk_add_f16 => buffer_atomic(A::PkAddF16, false), "MEM.f16x2 += DATA.f16x2 (RNE).";
    exec_buffer_atomic_add_f64 => buffer_atomic(A::AddF { ftz: false }, true), "MEM.f64 += DATA.f64 (RNE).";
    exec_buffer_atomic_min_f64 => buffer_atomic(A::MinF, true), "MEM.f64 = minNum(MEM, DATA).";
    exec_buffer_atomic_max_f64 => buffer_atomic(A::MaxF, true), "MEM.f64 = maxNum(MEM, DATA).";
}

/// MEM.f32 += DATA.f32 (RNE; denormals flushed on gfx908/gfx90a).
fn exec_buffer_atomic_add_f32(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let ftz = atomic_f32_ftz(c.target);
    buffer_atomic(w, d, c, A::AddF { ftz }, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_resource_swizzles_dwords_by_lane() {
        let base = 0x1_0000_0000u64;
        let words = scratch_resource(base);
        let mut w = Wave::new(false);
        w.s[0..4].copy_from_slice(&words);
        let r = Rsrc::read(&w, &Operand::Src { code: 0, width: 4 });
        assert!(r.swizzle && r.add_tid && r.index_stride == 64 && r.raw_stride == 0);
        for lane in [0u64, 1, 63] {
            for off in [0u64, 4, 8, 13] {
                assert_eq!(
                    r.address(lane, off, 0x400),
                    Some(base + 0x400 + (off / 4) * 256 + lane * 4 + off % 4)
                );
            }
        }
        // A raw buffer: offsets from num_records - soffset on are out of range.
        let raw = Rsrc {
            stride: 0,
            raw_stride: 0,
            swizzle: false,
            num_records: 16,
            add_tid: false,
            ..r
        };
        assert_eq!(raw.address(0, 11, 4), Some(base + 15));
        assert_eq!(raw.address(0, 12, 4), None);
        assert_eq!(raw.address(0, 0, 20), None);
    }
}
