//! FLAT, GLOBAL and SCRATCH memory instructions (Vega ISA ch. 9 "Flat
//! memory instructions"; MI200/MI300 ISA for the float atomics).
//!
//! Addressing:
//! - FLAT: 64-bit `vaddr` + unsigned 12-bit offset. The flat address is
//!   routed per lane: the group aperture (`SHARED_APERTURE`, 4 GiB) goes to
//!   LDS, the private aperture (`PRIVATE_APERTURE`) to the lane's private
//!   memory, anything else to global memory.
//! - GLOBAL: `saddr` = `off`: 64-bit `vaddr`; else the SGPR pair `saddr` +
//!   the 32-bit `vaddr` (zero-extended); plus the signed 13-bit offset.
//!   Always global memory.
//! - SCRATCH: private offset = `vaddr` (32-bit, or 0 when `off`) + `saddr`
//!   (32-bit SGPR, or 0 when `off`) + signed 13-bit offset.
//!
//! Private memory is swizzled like the hardware's scratch: dword `o / 4`
//! of lane `l` lies at `FLAT_SCRATCH + (o / 4) * 256 + l * 4 + o % 4`, where
//! `FLAT_SCRATCH` (s102:103) holds the wave's scratch base (set by the
//! kernel prologue on gfx9, by the dispatcher with architected flat scratch).
//! Multi-dword private accesses place every dword separately.
//!
//! Atomics return the pre-op value in `vdst` when `glc` (gfx942: `sc0`) is
//! set. `cmpswap` data is `{src, cmp}`: `vdata[0]` (or `vdata[0:1]` for
//! `_x2`) is the value stored when memory equals `vdata[1]` (`vdata[2:3]`).
//! The read-modify-write semantics ([`Atomic`]) are shared with the DS,
//! MUBUF and SMEM atomics. Lanes run in lane order within one instruction.
//!
//! Float atomics: `*_add_f32` flushes input and result denormals to zero on
//! gfx908/gfx90a (the MI100/MI200 global FP atomics do not honour MODE; LLVM
//! only selects them when the function's f32 denormal mode is
//! preserve-sign) and keeps them on gfx942; `add_f64`, `pk_add_f16` and
//! `pk_add_bf16` keep denormals. All round to nearest even. `min_f64`/
//! `max_f64` follow IEEE minNum/maxNum (a NaN operand yields the other one).
//!
//! Inactive lanes never access memory. Faults name the first failing
//! lane's address (global: unmapped or misaligned atomic; LDS: outside the
//! work-group's allocation).

use amdgpu_isa::gfx9::{Family, Op, Operand, Target};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{
    APERTURE_SIZE, FLAT_SCRATCH, LANES, Lanes, M0, PRIVATE_APERTURE, SHARED_APERTURE, Ty, Wave,
};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a FLAT/GLOBAL/SCRATCH instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    use Op::*;
    Some(match op {
        FLAT_LOAD_UBYTE | GLOBAL_LOAD_UBYTE | SCRATCH_LOAD_UBYTE => exec_load_ubyte,
        FLAT_LOAD_SBYTE | GLOBAL_LOAD_SBYTE | SCRATCH_LOAD_SBYTE => exec_load_sbyte,
        FLAT_LOAD_USHORT | GLOBAL_LOAD_USHORT | SCRATCH_LOAD_USHORT => exec_load_ushort,
        FLAT_LOAD_SSHORT | GLOBAL_LOAD_SSHORT | SCRATCH_LOAD_SSHORT => exec_load_sshort,
        FLAT_LOAD_DWORD | GLOBAL_LOAD_DWORD | SCRATCH_LOAD_DWORD => exec_load_dword,
        FLAT_LOAD_DWORDX2 | GLOBAL_LOAD_DWORDX2 | SCRATCH_LOAD_DWORDX2 => exec_load_dwordx2,
        FLAT_LOAD_DWORDX3 | GLOBAL_LOAD_DWORDX3 | SCRATCH_LOAD_DWORDX3 => exec_load_dwordx3,
        FLAT_LOAD_DWORDX4 | GLOBAL_LOAD_DWORDX4 | SCRATCH_LOAD_DWORDX4 => exec_load_dwordx4,
        FLAT_LOAD_UBYTE_D16 | GLOBAL_LOAD_UBYTE_D16 | SCRATCH_LOAD_UBYTE_D16 => exec_load_ubyte_d16,
        FLAT_LOAD_UBYTE_D16_HI | GLOBAL_LOAD_UBYTE_D16_HI | SCRATCH_LOAD_UBYTE_D16_HI => {
            exec_load_ubyte_d16_hi
        }
        FLAT_LOAD_SBYTE_D16 | GLOBAL_LOAD_SBYTE_D16 | SCRATCH_LOAD_SBYTE_D16 => exec_load_sbyte_d16,
        FLAT_LOAD_SBYTE_D16_HI | GLOBAL_LOAD_SBYTE_D16_HI | SCRATCH_LOAD_SBYTE_D16_HI => {
            exec_load_sbyte_d16_hi
        }
        FLAT_LOAD_SHORT_D16 | GLOBAL_LOAD_SHORT_D16 | SCRATCH_LOAD_SHORT_D16 => exec_load_short_d16,
        FLAT_LOAD_SHORT_D16_HI | GLOBAL_LOAD_SHORT_D16_HI | SCRATCH_LOAD_SHORT_D16_HI => {
            exec_load_short_d16_hi
        }
        GLOBAL_LOAD_LDS_UBYTE | SCRATCH_LOAD_LDS_UBYTE => exec_load_ubyte,
        GLOBAL_LOAD_LDS_SBYTE | SCRATCH_LOAD_LDS_SBYTE => exec_load_sbyte,
        GLOBAL_LOAD_LDS_USHORT | SCRATCH_LOAD_LDS_USHORT => exec_load_ushort,
        GLOBAL_LOAD_LDS_SSHORT | SCRATCH_LOAD_LDS_SSHORT => exec_load_sshort,
        GLOBAL_LOAD_LDS_DWORD | SCRATCH_LOAD_LDS_DWORD => exec_load_dword,
        FLAT_STORE_BYTE | GLOBAL_STORE_BYTE | SCRATCH_STORE_BYTE => exec_store_byte,
        FLAT_STORE_BYTE_D16_HI | GLOBAL_STORE_BYTE_D16_HI | SCRATCH_STORE_BYTE_D16_HI => {
            exec_store_byte_d16_hi
        }
        FLAT_STORE_SHORT | GLOBAL_STORE_SHORT | SCRATCH_STORE_SHORT => exec_store_short,
        FLAT_STORE_SHORT_D16_HI | GLOBAL_STORE_SHORT_D16_HI | SCRATCH_STORE_SHORT_D16_HI => {
            exec_store_short_d16_hi
        }
        FLAT_STORE_DWORD | GLOBAL_STORE_DWORD | SCRATCH_STORE_DWORD => exec_store_dword,
        FLAT_STORE_DWORDX2 | GLOBAL_STORE_DWORDX2 | SCRATCH_STORE_DWORDX2 => exec_store_dwordx2,
        FLAT_STORE_DWORDX3 | GLOBAL_STORE_DWORDX3 | SCRATCH_STORE_DWORDX3 => exec_store_dwordx3,
        FLAT_STORE_DWORDX4 | GLOBAL_STORE_DWORDX4 | SCRATCH_STORE_DWORDX4 => exec_store_dwordx4,
        FLAT_ATOMIC_SWAP | GLOBAL_ATOMIC_SWAP => exec_atomic_swap,
        FLAT_ATOMIC_CMPSWAP | GLOBAL_ATOMIC_CMPSWAP => exec_atomic_cmpswap,
        FLAT_ATOMIC_ADD | GLOBAL_ATOMIC_ADD => exec_atomic_add,
        FLAT_ATOMIC_SUB | GLOBAL_ATOMIC_SUB => exec_atomic_sub,
        FLAT_ATOMIC_SMIN | GLOBAL_ATOMIC_SMIN => exec_atomic_smin,
        FLAT_ATOMIC_UMIN | GLOBAL_ATOMIC_UMIN => exec_atomic_umin,
        FLAT_ATOMIC_SMAX | GLOBAL_ATOMIC_SMAX => exec_atomic_smax,
        FLAT_ATOMIC_UMAX | GLOBAL_ATOMIC_UMAX => exec_atomic_umax,
        FLAT_ATOMIC_AND | GLOBAL_ATOMIC_AND => exec_atomic_and,
        FLAT_ATOMIC_OR | GLOBAL_ATOMIC_OR => exec_atomic_or,
        FLAT_ATOMIC_XOR | GLOBAL_ATOMIC_XOR => exec_atomic_xor,
        FLAT_ATOMIC_INC | GLOBAL_ATOMIC_INC => exec_atomic_inc,
        FLAT_ATOMIC_DEC | GLOBAL_ATOMIC_DEC => exec_atomic_dec,
        FLAT_ATOMIC_SWAP_X2 | GLOBAL_ATOMIC_SWAP_X2 => exec_atomic_swap_x2,
        FLAT_ATOMIC_CMPSWAP_X2 | GLOBAL_ATOMIC_CMPSWAP_X2 => exec_atomic_cmpswap_x2,
        FLAT_ATOMIC_ADD_X2 | GLOBAL_ATOMIC_ADD_X2 => exec_atomic_add_x2,
        FLAT_ATOMIC_SUB_X2 | GLOBAL_ATOMIC_SUB_X2 => exec_atomic_sub_x2,
        FLAT_ATOMIC_SMIN_X2 | GLOBAL_ATOMIC_SMIN_X2 => exec_atomic_smin_x2,
        FLAT_ATOMIC_UMIN_X2 | GLOBAL_ATOMIC_UMIN_X2 => exec_atomic_umin_x2,
        FLAT_ATOMIC_SMAX_X2 | GLOBAL_ATOMIC_SMAX_X2 => exec_atomic_smax_x2,
        FLAT_ATOMIC_UMAX_X2 | GLOBAL_ATOMIC_UMAX_X2 => exec_atomic_umax_x2,
        FLAT_ATOMIC_AND_X2 | GLOBAL_ATOMIC_AND_X2 => exec_atomic_and_x2,
        FLAT_ATOMIC_OR_X2 | GLOBAL_ATOMIC_OR_X2 => exec_atomic_or_x2,
        FLAT_ATOMIC_XOR_X2 | GLOBAL_ATOMIC_XOR_X2 => exec_atomic_xor_x2,
        FLAT_ATOMIC_INC_X2 | GLOBAL_ATOMIC_INC_X2 => exec_atomic_inc_x2,
        FLAT_ATOMIC_DEC_X2 | GLOBAL_ATOMIC_DEC_X2 => exec_atomic_dec_x2,
        FLAT_ATOMIC_ADD_F32 | GLOBAL_ATOMIC_ADD_F32 => exec_atomic_add_f32,
        FLAT_ATOMIC_PK_ADD_F16 | GLOBAL_ATOMIC_PK_ADD_F16 => exec_atomic_pk_add_f16,
        FLAT_ATOMIC_PK_ADD_BF16 | GLOBAL_ATOMIC_PK_ADD_BF16 => exec_atomic_pk_add_bf16,
        FLAT_ATOMIC_ADD_F64 | GLOBAL_ATOMIC_ADD_F64 => exec_atomic_add_f64,
        FLAT_ATOMIC_MIN_F64 | GLOBAL_ATOMIC_MIN_F64 => exec_atomic_min_f64,
        FLAT_ATOMIC_MAX_F64 | GLOBAL_ATOMIC_MAX_F64 => exec_atomic_max_f64,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Shared read-modify-write semantics (also used by DS, MUBUF and SMEM).

/// The read-modify-write of an atomic instruction: `new = f(old, src, cmp)`.
/// `src` is the instruction's data, `cmp` its second data operand
/// (compare value of cmpswap, `DATA2` of the DS two-operand forms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Atomic {
    /// `src`.
    Swap,
    /// `old == cmp ? src : old` (bitwise compare).
    CmpSwap,
    /// `old == cmp ? src : old`, compared as floats (DS `cmpst_f32/f64`).
    CmpSwapF,
    /// `old + src` (wrapping).
    Add,
    /// `old - src` (wrapping).
    Sub,
    /// `src - old` (wrapping).
    Rsub,
    /// Signed minimum.
    Smin,
    /// Unsigned minimum.
    Umin,
    /// Signed maximum.
    Smax,
    /// Unsigned maximum.
    Umax,
    /// `old & src`.
    And,
    /// `old | src`.
    Or,
    /// `old ^ src`.
    Xor,
    /// `old >= src ? 0 : old + 1`.
    Inc,
    /// `(old == 0 || old > src) ? src : old - 1`.
    Dec,
    /// `(old & !src) | cmp`.
    Mskor,
    /// `old >= src ? old - src : old + cmp`.
    Wrap,
    /// Float add (f32 or f64 by width); `ftz` flushes f32 denormals.
    AddF {
        /// Flush f32 input and output denormals to zero.
        ftz: bool,
    },
    /// Float minimum (`src < old ? src : old`, NaN: the non-NaN operand).
    MinF,
    /// Float maximum.
    MaxF,
    /// Two packed f16 adds.
    PkAddF16,
    /// Two packed bf16 adds.
    PkAddBf16,
}

/// The integer read-modify-writes, the same for both widths: `$u` is the
/// unsigned type and `$i` its signed twin; `None` for the float ones.
macro_rules! integer_rmw {
    ($op:expr, $old:expr, $src:expr, $cmp:expr, $u:ty, $i:ty) => {{
        use Atomic::*;
        let (old, src, cmp): ($u, $u, $u) = ($old, $src, $cmp);
        let float = matches!(
            $op,
            CmpSwapF | AddF { .. } | MinF | MaxF | PkAddF16 | PkAddBf16
        );
        let v: $u = match $op {
            Swap => src,
            CmpSwap => {
                if old == cmp {
                    src
                } else {
                    old
                }
            }
            Add => old.wrapping_add(src),
            Sub => old.wrapping_sub(src),
            Rsub => src.wrapping_sub(old),
            Smin => (old as $i).min(src as $i) as $u,
            Umin => old.min(src),
            Smax => (old as $i).max(src as $i) as $u,
            Umax => old.max(src),
            And => old & src,
            Or => old | src,
            Xor => old ^ src,
            Inc => {
                if old >= src {
                    0
                } else {
                    old + 1
                }
            }
            Dec => {
                if old == 0 || old > src {
                    src
                } else {
                    old - 1
                }
            }
            Mskor => (old & !src) | cmp,
            Wrap => {
                if old >= src {
                    old - src
                } else {
                    old.wrapping_add(cmp)
                }
            }
            CmpSwapF | AddF { .. } | MinF | MaxF | PkAddF16 | PkAddBf16 => 0,
        };
        if float { None } else { Some(v) }
    }};
}

impl Atomic {
    /// The 32-bit read-modify-write.
    #[inline]
    pub(crate) fn apply32(self, old: u32, src: u32, cmp: u32) -> u32 {
        if let Some(v) = integer_rmw!(self, old, src, cmp, u32, i32) {
            return v;
        }
        let f = f32::from_bits;
        match self {
            Atomic::CmpSwapF if f(old) == f(cmp) => src,
            Atomic::AddF { ftz: true } => flush32(flush32(f(old)) + flush32(f(src))).to_bits(),
            Atomic::AddF { ftz: false } => (f(old) + f(src)).to_bits(),
            Atomic::MinF => min_num(f(old), f(src)).to_bits(),
            Atomic::MaxF => max_num(f(old), f(src)).to_bits(),
            Atomic::PkAddF16 => pk_add(old, src, f16_to_f32, f32_to_f16),
            Atomic::PkAddBf16 => pk_add(old, src, bf16_to_f32, f32_to_bf16),
            _ => old,
        }
    }

    /// The 64-bit read-modify-write.
    #[inline]
    pub(crate) fn apply64(self, old: u64, src: u64, cmp: u64) -> u64 {
        if let Some(v) = integer_rmw!(self, old, src, cmp, u64, i64) {
            return v;
        }
        let f = f64::from_bits;
        match self {
            Atomic::CmpSwapF if f(old) == f(cmp) => src,
            Atomic::AddF { .. } => (f(old) + f(src)).to_bits(),
            Atomic::MinF => min_num(f(old), f(src)).to_bits(),
            Atomic::MaxF => max_num(f(old), f(src)).to_bits(),
            // No 64-bit packed forms (memory unchanged), and a failed
            // float compare-and-swap.
            _ => old,
        }
    }
}

/// Flushes an f32 denormal to a zero of the same sign.
fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// IEEE minNum: the smaller operand; a NaN operand yields the other one.
fn min_num<T: PartialOrd + Copy>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if b != b || a < b { a } else { b }
}

/// IEEE maxNum: the larger operand; a NaN operand yields the other one.
fn max_num<T: PartialOrd + Copy>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if b != b || a > b { a } else { b }
}

/// Adds two pairs of packed 16-bit floats. Each sum is computed exactly
/// enough in f32 (24 ≥ 2·11 + 2 bits, so rounding twice is harmless) and
/// rounded once to the 16-bit format.
fn pk_add(a: u32, b: u32, widen: fn(u16) -> f32, narrow: fn(f32) -> u16) -> u32 {
    let lo = narrow(widen(a as u16) + widen(b as u16));
    let hi = narrow(widen((a >> 16) as u16) + widen((b >> 16) as u16));
    u32::from(lo) | u32::from(hi) << 16
}

/// An IEEE half as f32 (exact).
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10 & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Denormal: m · 2^-24 (exact in f32).
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7fc0_0000 | m << 13,
        (e, m) => sign | (e + 112) << 23 | m << 13,
    };
    f32::from_bits(bits)
}

/// An f32 rounded to an IEEE half, to nearest even (denormals kept,
/// overflow to infinity, NaN quieted).
pub(crate) fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = (b >> 23 & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | 0x7c00
            | if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
    }
    // Value = 1.man · 2^(exp-127) (or denormal f32, which rounds to ±0).
    if exp == 0 {
        return sign;
    }
    let e = exp - 127 + 15;
    let full = man | 0x80_0000; // 24-bit significand
    let (shift, biased) = if e >= 1 {
        (13, e as u32)
    } else {
        // f16 denormal: shift more.
        let s = 13 + (1 - e);
        if s > 25 {
            return sign;
        }
        (s as u32, 0)
    };
    let mut m = full >> shift;
    let rem = full & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && m & 1 == 1) {
        m += 1;
    }
    // m includes the implicit bit for normals; adding the exponent field
    // lets a mantissa carry propagate into the exponent.
    let v = if biased == 0 {
        m
    } else {
        ((biased) << 10) + (m - 0x400)
    };
    if v >= 0x7c00 {
        return sign | 0x7c00;
    }
    sign | v as u16
}

/// A bfloat16 as f32 (exact).
pub(crate) fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// An f32 rounded to bfloat16, to nearest even (NaN quieted).
pub(crate) fn f32_to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let round = 0x7fff + ((b >> 16) & 1);
    (b.wrapping_add(round) >> 16) as u16
}

// ---------------------------------------------------------------------------
// Addressing and routing.

/// Which address space the instruction's addresses are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seg {
    Flat,
    Global,
    Scratch,
}

fn seg_of(d: &Decoded) -> Seg {
    match d.inst.def.family {
        Family::Global => Seg::Global,
        Family::Scratch => Seg::Scratch,
        _ => Seg::Flat,
    }
}

/// Where one lane's access lands.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Global memory (private memory resolves to its global location).
    Mem(u64),
    /// LDS byte address.
    Lds(u64),
}

/// The global address of byte `o` of lane `lane`'s private memory in a
/// wave whose scratch starts at `base` (dword-interleaved, 64 lanes).
#[inline]
pub(crate) fn private_address(base: u64, lane: usize, o: u64) -> u64 {
    let o = o & 0xffff_ffff;
    base.wrapping_add((o >> 2) * 256 + lane as u64 * 4 + (o & 3))
}

/// Whether `addr` needs placing dword by dword (private memory).
#[inline]
fn is_private(seg: Seg, addr: u64) -> bool {
    seg == Seg::Scratch || (seg == Seg::Flat && addr.wrapping_sub(PRIVATE_APERTURE) < APERTURE_SIZE)
}

/// Where byte `addr` of `seg` lives for one lane: private offsets must
/// leave `size` bytes below `limit` ([`super::DispatchFacts::private_limit`]).
#[inline]
fn place(
    seg: Seg,
    addr: u64,
    scratch: u64,
    lane: usize,
    size: usize,
    limit: u64,
) -> Result<Place, FaultKind> {
    let private = |o: u64| {
        let o = o & 0xffff_ffff;
        if o + size as u64 > limit {
            return Err(FaultKind::Private {
                offset: o,
                len: size as u64,
                size: limit,
            });
        }
        Ok(Place::Mem(private_address(scratch, lane, o)))
    };
    match seg {
        Seg::Global => Ok(Place::Mem(addr)),
        Seg::Scratch => private(addr),
        Seg::Flat => {
            if addr.wrapping_sub(SHARED_APERTURE) < APERTURE_SIZE {
                Ok(Place::Lds(addr - SHARED_APERTURE))
            } else if addr.wrapping_sub(PRIVATE_APERTURE) < APERTURE_SIZE {
                private(addr - PRIVATE_APERTURE)
            } else {
                Ok(Place::Mem(addr))
            }
        }
    }
}

/// Per-lane addresses: flat/global byte addresses, or scratch private
/// offsets. `vaddr` and `saddr` are operand indices (`saddr` unused for FLAT).
fn addresses(w: &Wave, d: &Decoded, seg: Seg, vaddr: usize, saddr: usize) -> [u64; LANES] {
    let off = i64::from(d.inst.mods.offset) as u64;
    let mut out = [0u64; LANES];
    match seg {
        Seg::Flat => {
            let a = w.lanes64(d.op(vaddr), Ty::B64);
            for l in 0..LANES {
                out[l] = a[l].wrapping_add(off);
            }
        }
        Seg::Global => match d.op(saddr) {
            Operand::Off => {
                let a = w.lanes64(d.op(vaddr), Ty::B64);
                for l in 0..LANES {
                    out[l] = a[l].wrapping_add(off);
                }
            }
            s => {
                let base = w.scalar(s, Ty::B64).unwrap_or(0).wrapping_add(off);
                let a = w.lanes(d.op(vaddr), Ty::B32);
                for l in 0..LANES {
                    out[l] = base.wrapping_add(u64::from(a[l]));
                }
            }
        },
        Seg::Scratch => {
            let s = match d.op(saddr) {
                Operand::Off => 0,
                o => w.scalar(o, Ty::B32).unwrap_or(0) as u32,
            };
            let base = s.wrapping_add(off as u32);
            let v = match d.op(vaddr) {
                Operand::Off => [0; LANES],
                o => w.lanes(o, Ty::B32),
            };
            for l in 0..LANES {
                out[l] = u64::from(v[l].wrapping_add(base));
            }
        }
    }
    out
}

/// Loads `size` (1, 2, 4 or 8) bytes for one lane.
#[inline]
fn load(
    c: &Ctx<'_>,
    seg: Seg,
    scratch: u64,
    lane: usize,
    addr: u64,
    size: usize,
) -> Result<u64, FaultKind> {
    match place(seg, addr, scratch, lane, size, c.dispatch.private_limit())? {
        Place::Mem(a) => Ok(c.mem.load(a, size)?),
        Place::Lds(a) => super::ds::lds_load(c.lds, a, size),
    }
}

/// Stores the low `size` bytes of `v` for one lane.
#[inline]
fn store(
    c: &mut Ctx<'_>,
    seg: Seg,
    scratch: u64,
    lane: usize,
    addr: u64,
    size: usize,
    v: u64,
) -> R {
    match place(seg, addr, scratch, lane, size, c.dispatch.private_limit())? {
        Place::Mem(a) => Ok(c.mem.store(a, size, v)?),
        Place::Lds(a) => super::ds::lds_store(c.lds, a, size, v),
    }
}

/// Loads consecutive dwords for one lane.
fn load_dwords(c: &Ctx<'_>, seg: Seg, scratch: u64, lane: usize, addr: u64, out: &mut [u32]) -> R {
    if !is_private(seg, addr)
        && let Place::Mem(a) = place(seg, addr, scratch, lane, 4, 0)?
    {
        return Ok(c.mem.load_dwords(a, out)?);
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = load(c, seg, scratch, lane, addr.wrapping_add(4 * i as u64), 4)? as u32;
    }
    Ok(())
}

/// Stores consecutive dwords for one lane.
fn store_dwords(
    c: &mut Ctx<'_>,
    seg: Seg,
    scratch: u64,
    lane: usize,
    addr: u64,
    data: &[u32],
) -> R {
    if !is_private(seg, addr)
        && let Place::Mem(a) = place(seg, addr, scratch, lane, 4, 0)?
    {
        return Ok(c.mem.store_dwords(a, data)?);
    }
    for (i, &v) in data.iter().enumerate() {
        store(
            c,
            seg,
            scratch,
            lane,
            addr.wrapping_add(4 * i as u64),
            4,
            u64::from(v),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Generic loads, stores and atomics (shared shapes with MUBUF).

/// How a load converts memory to registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ld {
    /// `size` bytes, zero-extended to 32 bits.
    Zext(usize),
    /// `size` bytes, sign-extended to 32 bits.
    Sext(usize),
    /// `n` dwords into `vdst[0..n]`.
    Dwords(usize),
    /// `size` bytes (sign- or zero-extended to 16 bits) into the low or
    /// high half of `vdst`; the other half is kept.
    D16 {
        /// Bytes loaded (1 or 2).
        size: usize,
        /// Sign-extend a byte.
        signed: bool,
        /// Write the high half.
        hi: bool,
    },
}

impl Ld {
    /// Bytes of memory per lane.
    pub(crate) fn bytes(self) -> usize {
        match self {
            Ld::Zext(s) | Ld::Sext(s) | Ld::D16 { size: s, .. } => s,
            Ld::Dwords(n) => 4 * n,
        }
    }

    /// The register value of a sub-dword load of `raw` into `old`.
    #[inline]
    pub(crate) fn convert(self, raw: u32, old: u32) -> u32 {
        match self {
            Ld::Zext(_) | Ld::Dwords(_) => raw,
            Ld::Sext(1) => raw as u8 as i8 as i32 as u32,
            Ld::Sext(_) => raw as u16 as i16 as i32 as u32,
            Ld::D16 { size, signed, hi } => {
                let h = if size == 1 && signed {
                    raw as u8 as i8 as i16 as u16
                } else {
                    raw as u16
                };
                if hi {
                    (old & 0xffff) | u32::from(h) << 16
                } else {
                    (old & 0xffff_0000) | u32::from(h)
                }
            }
        }
    }
}

/// What a store writes from its data register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum St {
    /// The low `size` bytes.
    Low(usize),
    /// `size` bytes from bit 16 (`_d16_hi`).
    Hi(usize),
    /// `n` dwords.
    Dwords(usize),
}

impl St {
    /// Bytes of memory per lane.
    pub(crate) fn bytes(self) -> usize {
        match self {
            St::Low(s) | St::Hi(s) => s,
            St::Dwords(n) => 4 * n,
        }
    }

    /// The memory value of a sub-dword store of register value `v`.
    #[inline]
    pub(crate) fn value(self, v: u32) -> u64 {
        match self {
            St::Hi(_) => u64::from(v >> 16),
            _ => u64::from(v),
        }
    }
}

/// Writes a loaded value into LDS for the `lds` forms: lane `l`'s dword
/// goes to `M0 + inst_offset + 4 * l` (LLVM's `global.load.lds`: the
/// immediate offset applies to both addresses).
pub(crate) fn load_to_lds(w: &Wave, d: &Decoded, c: &mut Ctx<'_>, lane: usize, v: u32) -> R {
    let a = u64::from(w.s[M0])
        .wrapping_add(i64::from(d.inst.mods.offset) as u64)
        .wrapping_add(4 * lane as u64)
        & 0xffff_ffff;
    super::ds::lds_store(c.lds, a, 4, u64::from(v))
}

/// Iterates over the set bits of `mask`, lowest first.
#[inline]
pub(crate) fn lanes_of(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(l)
        }
    })
}

fn exec_load(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: Ld) -> R {
    let seg = seg_of(d);
    let has_dst = d.inst.operands.len() == d.inst.def.operands.len();
    let vaddr = usize::from(has_dst);
    let addr = addresses(w, d, seg, vaddr, vaddr + 1);
    let scratch = w.s64(FLAT_SCRATCH);
    let exec = w.exec();
    if !has_dst || d.inst.mods.lds {
        for l in lanes_of(exec) {
            let v = match kind {
                Ld::Dwords(_) => load(c, seg, scratch, l, addr[l], 4)? as u32,
                k => k.convert(load(c, seg, scratch, l, addr[l], k.bytes())? as u32, 0),
            };
            load_to_lds(w, d, c, l, v)?;
        }
        return Ok(());
    }
    let dst = *d.op(0);
    match kind {
        Ld::Dwords(n) => {
            let mut out = [[0u32; LANES]; 4];
            let mut buf = [0u32; 4];
            for l in lanes_of(exec) {
                load_dwords(c, seg, scratch, l, addr[l], &mut buf[..n])?;
                for i in 0..n {
                    out[i][l] = buf[i];
                }
            }
            for (i, o) in out[..n].iter().enumerate() {
                w.write_lanes_at(&dst, i, o);
            }
        }
        k => {
            let mut out: Lanes = w.lanes(&dst, Ty::B32);
            for l in lanes_of(exec) {
                let raw = load(c, seg, scratch, l, addr[l], k.bytes())? as u32;
                out[l] = k.convert(raw, out[l]);
            }
            w.write_lanes(&dst, &out);
        }
    }
    Ok(())
}

fn exec_store(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, kind: St) -> R {
    let seg = seg_of(d);
    let addr = addresses(w, d, seg, 0, 2);
    let scratch = w.s64(FLAT_SCRATCH);
    let exec = w.exec();
    let data = *d.op(1);
    match kind {
        St::Dwords(n) => {
            let mut regs = [[0u32; LANES]; 4];
            for (i, r) in regs[..n].iter_mut().enumerate() {
                *r = w.lanes_at(&data, i, Ty::B32);
            }
            let mut buf = [0u32; 4];
            for l in lanes_of(exec) {
                for i in 0..n {
                    buf[i] = regs[i][l];
                }
                store_dwords(c, seg, scratch, l, addr[l], &buf[..n])?;
            }
        }
        k => {
            let v = w.lanes(&data, Ty::B32);
            for l in lanes_of(exec) {
                store(c, seg, scratch, l, addr[l], k.bytes(), k.value(v[l]))?;
            }
        }
    }
    Ok(())
}

/// Reads the `src` and `cmp` operands of an atomic per lane from data
/// operand `data` (`cmp` follows `src` for cmpswap, else zero).
pub(crate) fn atomic_data(
    w: &Wave,
    data: &Operand,
    op: Atomic,
    wide: bool,
) -> ([u64; LANES], [u64; LANES]) {
    let cmpswap = matches!(op, Atomic::CmpSwap);
    let mut src = [0u64; LANES];
    let mut cmp = [0u64; LANES];
    let dw = if wide { 2 } else { 1 };
    for i in 0..dw {
        let s = w.lanes_at(data, i, Ty::B32);
        let k = if cmpswap {
            w.lanes_at(data, dw + i, Ty::B32)
        } else {
            [0; LANES]
        };
        for l in 0..LANES {
            src[l] |= u64::from(s[l]) << (32 * i);
            cmp[l] |= u64::from(k[l]) << (32 * i);
        }
    }
    (src, cmp)
}

/// Writes the pre-op values of an atomic to `dst` (1 or 2 dwords).
pub(crate) fn write_returned(w: &mut Wave, dst: &Operand, old: &[u64; LANES], wide: bool) {
    if wide {
        w.write_lanes64(dst, old);
    } else {
        let mut lo = [0u32; LANES];
        for l in 0..LANES {
            lo[l] = old[l] as u32;
        }
        w.write_lanes(dst, &lo);
    }
}

fn exec_atomic(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>, op: Atomic, wide: bool) -> R {
    let seg = seg_of(d);
    let has_dst = d.inst.operands.len() == d.inst.def.operands.len();
    let vaddr = usize::from(has_dst);
    let addr = addresses(w, d, seg, vaddr, vaddr + 2);
    let scratch = w.s64(FLAT_SCRATCH);
    let exec = w.exec();
    let (src, cmp) = atomic_data(w, d.op(vaddr + 1), op, wide);
    let mut old = [0u64; LANES];
    for l in lanes_of(exec) {
        let (s, k) = (src[l], cmp[l]);
        let size = if wide { 8 } else { 4 };
        old[l] = match place(seg, addr[l], scratch, l, size, c.dispatch.private_limit())? {
            Place::Mem(a) if wide => c.mem.atomic_u64(a, |o| op.apply64(o, s, k))?,
            Place::Mem(a) => u64::from(c.mem.atomic_u32(a, |o| op.apply32(o, s as u32, k as u32))?),
            Place::Lds(a) => super::ds::lds_rmw(c.lds, a, wide, op, s, k)?,
        };
    }
    if has_dst {
        write_returned(w, d.op(0), &old, wide);
    }
    Ok(())
}

/// Whether `add_f32` atomics flush denormals on this target.
pub(crate) fn atomic_f32_ftz(t: Target) -> bool {
    t != Target::Gfx942
}

macro_rules! loads {
    ($($name:ident => $kind:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            exec_load(w, d, c, $kind)
        }
    )*};
}

loads! {
    exec_load_ubyte => Ld::Zext(1), "VDST = zext(MEM[ADDR].u8) (`lds`: to LDS at M0 + offset + 4·lane).";
    exec_load_sbyte => Ld::Sext(1), "VDST = sext(MEM[ADDR].i8).";
    exec_load_ushort => Ld::Zext(2), "VDST = zext(MEM[ADDR].u16).";
    exec_load_sshort => Ld::Sext(2), "VDST = sext(MEM[ADDR].i16).";
    exec_load_dword => Ld::Dwords(1), "VDST = MEM[ADDR].b32.";
    exec_load_dwordx2 => Ld::Dwords(2), "VDST[0:1] = MEM[ADDR].b64.";
    exec_load_dwordx3 => Ld::Dwords(3), "VDST[0:2] = MEM[ADDR].b96.";
    exec_load_dwordx4 => Ld::Dwords(4), "VDST[0:3] = MEM[ADDR].b128.";
    exec_load_ubyte_d16 => Ld::D16 { size: 1, signed: false, hi: false }, "VDST.lo16 = zext(MEM[ADDR].u8); VDST.hi16 kept.";
    exec_load_ubyte_d16_hi => Ld::D16 { size: 1, signed: false, hi: true }, "VDST.hi16 = zext(MEM[ADDR].u8); VDST.lo16 kept.";
    exec_load_sbyte_d16 => Ld::D16 { size: 1, signed: true, hi: false }, "VDST.lo16 = sext(MEM[ADDR].i8); VDST.hi16 kept.";
    exec_load_sbyte_d16_hi => Ld::D16 { size: 1, signed: true, hi: true }, "VDST.hi16 = sext(MEM[ADDR].i8); VDST.lo16 kept.";
    exec_load_short_d16 => Ld::D16 { size: 2, signed: false, hi: false }, "VDST.lo16 = MEM[ADDR].b16; VDST.hi16 kept.";
    exec_load_short_d16_hi => Ld::D16 { size: 2, signed: false, hi: true }, "VDST.hi16 = MEM[ADDR].b16; VDST.lo16 kept.";
}

macro_rules! stores {
    ($($name:ident => $kind:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            exec_store(w, d, c, $kind)
        }
    )*};
}

stores! {
    exec_store_byte => St::Low(1), "MEM[ADDR].u8 = VDATA[7:0].";
    exec_store_byte_d16_hi => St::Hi(1), "MEM[ADDR].u8 = VDATA[23:16].";
    exec_store_short => St::Low(2), "MEM[ADDR].u16 = VDATA[15:0].";
    exec_store_short_d16_hi => St::Hi(2), "MEM[ADDR].u16 = VDATA[31:16].";
    exec_store_dword => St::Dwords(1), "MEM[ADDR].b32 = VDATA.";
    exec_store_dwordx2 => St::Dwords(2), "MEM[ADDR].b64 = VDATA[0:1].";
    exec_store_dwordx3 => St::Dwords(3), "MEM[ADDR].b96 = VDATA[0:2].";
    exec_store_dwordx4 => St::Dwords(4), "MEM[ADDR].b128 = VDATA[0:3].";
}

macro_rules! atomics {
    ($($name:ident => $op:expr, $wide:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        fn $name(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
            exec_atomic(w, d, c, $op, $wide)
        }
    )*};
}

atomics! {
    exec_atomic_swap => Atomic::Swap, false, "tmp = MEM[ADDR]; MEM[ADDR] = DATA; RETURN tmp.";
    exec_atomic_cmpswap => Atomic::CmpSwap, false, "tmp = MEM[ADDR]; MEM[ADDR] = tmp == DATA[1] ? DATA[0] : tmp; RETURN tmp.";
    exec_atomic_add => Atomic::Add, false, "MEM[ADDR] += DATA (u32); RETURN old.";
    exec_atomic_sub => Atomic::Sub, false, "MEM[ADDR] -= DATA (u32); RETURN old.";
    exec_atomic_smin => Atomic::Smin, false, "MEM[ADDR] = min(MEM, DATA) (i32); RETURN old.";
    exec_atomic_umin => Atomic::Umin, false, "MEM[ADDR] = min(MEM, DATA) (u32); RETURN old.";
    exec_atomic_smax => Atomic::Smax, false, "MEM[ADDR] = max(MEM, DATA) (i32); RETURN old.";
    exec_atomic_umax => Atomic::Umax, false, "MEM[ADDR] = max(MEM, DATA) (u32); RETURN old.";
    exec_atomic_and => Atomic::And, false, "MEM[ADDR] &= DATA; RETURN old.";
    exec_atomic_or => Atomic::Or, false, "MEM[ADDR] |= DATA; RETURN old.";
    exec_atomic_xor => Atomic::Xor, false, "MEM[ADDR] ^= DATA; RETURN old.";
    exec_atomic_inc => Atomic::Inc, false, "MEM[ADDR] = old >= DATA ? 0 : old + 1 (u32); RETURN old.";
    exec_atomic_dec => Atomic::Dec, false, "MEM[ADDR] = (old == 0 || old > DATA) ? DATA : old - 1 (u32); RETURN old.";
    exec_atomic_swap_x2 => Atomic::Swap, true, "64-bit swap; RETURN old.";
    exec_atomic_cmpswap_x2 => Atomic::CmpSwap, true, "tmp = MEM[ADDR].b64; MEM = tmp == DATA[2:3] ? DATA[0:1] : tmp; RETURN tmp.";
    exec_atomic_add_x2 => Atomic::Add, true, "MEM[ADDR] += DATA (u64); RETURN old.";
    exec_atomic_sub_x2 => Atomic::Sub, true, "MEM[ADDR] -= DATA (u64); RETURN old.";
    exec_atomic_smin_x2 => Atomic::Smin, true, "MEM[ADDR] = min(MEM, DATA) (i64); RETURN old.";
    exec_atomic_umin_x2 => Atomic::Umin, true, "MEM[ADDR] = min(MEM, DATA) (u64); RETURN old.";
    exec_atomic_smax_x2 => Atomic::Smax, true, "MEM[ADDR] = max(MEM, DATA) (i64); RETURN old.";
    exec_atomic_umax_x2 => Atomic::Umax, true, "MEM[ADDR] = max(MEM, DATA) (u64); RETURN old.";
    exec_atomic_and_x2 => Atomic::And, true, "MEM[ADDR] &= DATA (b64); RETURN old.";
    exec_atomic_or_x2 => Atomic::Or, true, "MEM[ADDR] |= DATA (b64); RETURN old.";
    exec_atomic_xor_x2 => Atomic::Xor, true, "MEM[ADDR] ^= DATA (b64); RETURN old.";
    exec_atomic_inc_x2 => Atomic::Inc, true, "MEM[ADDR] = old >= DATA ? 0 : old + 1 (u64); RETURN old.";
    exec_atomic_dec_x2 => Atomic::Dec, true, "MEM[ADDR] = (old == 0 || old > DATA) ? DATA : old - 1 (u64); RETURN old.";
    exec_atomic_pk_add_f16 => Atomic::PkAddF16, false, "MEM[ADDR].f16x2 += DATA.f16x2 (RNE, denormals kept); RETURN old.";
    exec_atomic_pk_add_bf16 => Atomic::PkAddBf16, false, "MEM[ADDR].bf16x2 += DATA.bf16x2 (RNE); RETURN old.";
    exec_atomic_add_f64 => Atomic::AddF { ftz: false }, true, "MEM[ADDR].f64 += DATA.f64 (RNE, denormals kept); RETURN old.";
    exec_atomic_min_f64 => Atomic::MinF, true, "MEM[ADDR].f64 = minNum(MEM, DATA); RETURN old.";
    exec_atomic_max_f64 => Atomic::MaxF, true, "MEM[ADDR].f64 = maxNum(MEM, DATA); RETURN old.";
}

/// MEM[ADDR].f32 += DATA.f32 (RNE; denormals flushed on gfx908/gfx90a); RETURN old.
fn exec_atomic_add_f32(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let ftz = atomic_f32_ftz(c.target);
    exec_atomic(w, d, c, Atomic::AddF { ftz }, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_to_nearest_even() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f32_to_f16(f) & 0x7c00 == 0x7c00);
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#x}");
        }
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f32_to_f16(1.0 + f32::powi(2.0, -11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * f32::powi(2.0, -11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        // Smallest denormal 2^-24, half of it ties to 0, a bit more rounds up.
        assert_eq!(f32_to_f16(f32::powi(2.0, -25)), 0);
        assert_eq!(f32_to_f16(f32::powi(2.0, -25) * 1.5), 1);
        assert_eq!(f32_to_bf16(1.0 + f32::powi(2.0, -8)), 0x3f80);
        assert_eq!(Atomic::Dec.apply32(0, 5, 0), 5);
        assert_eq!(Atomic::Dec.apply32(7, 5, 0), 5);
        assert_eq!(Atomic::Dec.apply32(3, 5, 0), 2);
        assert_eq!(Atomic::Inc.apply32(5, 5, 0), 0);
        assert_eq!(Atomic::Inc.apply32(4, 5, 0), 5);
    }
}
