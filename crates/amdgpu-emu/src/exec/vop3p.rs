//! Packed math and matrix instructions: VOP3P (`v_pk_*`, dot products,
//! `v_mad_mix*`/`v_fma_mix*`, MFMA and `v_accvgpr_read/write` on gfx908+),
//! plus the VOP2 `v_pk_fmac_f16` (packed f16 FMA into VDST) and
//! `v_dot2c_f32_f16`, which shares the f16 dot arithmetic (the integer `v_dot*c_*` forms and `v_accvgpr_mov_b32` live in `valu`).
//!
//! # Packed 16-bit operands
//!
//! A packed instruction computes a low and a high 16-bit result. For the
//! low result source `k` supplies its high half when `op_sel` bit `k` is
//! set (else its low half); for the high result `op_sel_hi` bit `k` decides
//! the same way (default all ones). `neg_lo`/`neg_hi` (decoded into
//! `mods.neg`/`mods.abs`) flip the sign of the float operand feeding the
//! low/high result; integer instructions ignore them. `clamp` clamps float
//! results to [0, 1] and saturates integer results of the add, subtract
//! and multiply-add instructions.
//!
//! Scalar and constant sources are 32-bit values split into halves like a
//! VGPR (GFX9 VOP3P has no literal). An inline constant is read as a
//! 16-bit operand: a float constant is its f16 pattern in the low half
//! with a zero high half, an integer constant is sign-extended to 32 bits
//! (so `-1` is `0xffff_ffff`). This is the model LLVM's
//! `isInlinableLiteralV216` encodes: a splat constant is only foldable with
//! `op_sel_hi` cleared, and `<c, 0>` is foldable as is.
//!
//! # Packed f32 (gfx90a, gfx942)
//!
//! Sources are 64-bit (two f32 dwords); `op_sel`/`op_sel_hi` bit `k` picks
//! dword 1 of source `k` for the low/high result. An SGPR source is a pair;
//! an inline constant is the 32-bit constant in dword 0 with dword 1 zero
//! (LLVM clears `op_sel_hi` to use a constant for both halves).
//! `v_pk_mov_b32`: D.dword0 = src0.dword[op_sel[0]], D.dword1 =
//! src1.dword[op_sel[1]].
//!
//! # Mixed precision
//!
//! `op_sel_hi` bit `k` makes source `k` an f16 (the half chosen by `op_sel`
//! bit `k`, converted exactly to f32), else an f32; `abs` then `neg` apply
//! to the f32 value. `v_fma_mix*` (gfx906+) is a fused f32 FMA in the MODE
//! f32 round mode. `v_mad_mix*` (gfx900) is the unfused multiply-add: the
//! product is rounded to f32 before the add and, like `v_mad_f32`, it
//! flushes f32 denormals (LLVM only selects it when f32 denormals are
//! off). The `mixlo`/`mixhi` forms round the f32 result to f16 (f16 MODE
//! round mode) into the low/high half of VDST and keep the other half.
//!
//! # Dot products
//!
//! Integer dot products are exact (widened), then wrap to 32 bits, or
//! saturate with `clamp`. `v_dot2_f32_f16` computes the f16 products
//! exactly in f32 and accumulates them as an f32 FMA chain in element
//! order, `fma(a.hi, b.hi, fma(a.lo, b.lo, c))`, in the MODE f32 round
//! mode (the ISA does not specify the intermediate rounding). `neg_lo`
//! bit 2 negates and `neg_hi` bit 2 takes the absolute value of the f32
//! accumulator source. The 16-bit dot products honour `op_sel`/`op_sel_hi`
//! like packed math. The VOP2 `c` forms accumulate into VDST.
//!
//! # MAI (gfx908, gfx90a, gfx942)
//!
//! MFMA register layouts follow AMD's matrix instruction calculator for
//! CDNA (gfx9): with `kl` elements of A per lane (per register tuple),
//! element A\[i\]\[k\] of block `b` is item `k % kl` of lane
//! `b*M + (k / kl)*M*B + i` (16-bit items: dword `item / 2`, half
//! `item % 2`; 8-bit: dword `item / 4`, byte `item % 4`); B\[k\]\[j\] the same
//! with `j` and `N`. For 32-bit results D\[i\]\[j\] of block `b` is in
//! register `b*(M*N/64) + 4*(i / (4*(64/N))) + i % 4` of lane
//! `(b % bpr)*N + ((i/4) % (64/N))*bpr*N + j` where `bpr = ceil(256/(M*N))`;
//! 64-bit results use row groups of one (register pair
//! `b*(M*N/64) + i / (64/N)`, lane `(b % bpr)*N + (i % (64/N))*bpr*N + j`,
//! `bpr = ceil(64/(M*N))`). `cbsz`/`abid` make block `b` read A from block
//! `(b >> cbsz << cbsz) + abid`; `blgp` remaps the lanes B is read from
//! (broadcasts and rotations of 16/32-lane groups); on gfx942 the f64
//! instructions' `blgp` field is `neg` (bits: negate A, B, C).
//!
//! Arithmetic: f16 and bf16 inputs convert exactly to f32; each D element
//! is an IEEE round-to-nearest-even FMA chain `acc = fma(A[i][k], B[k][j],
//! acc)` over `k` in increasing order starting from C (f64: the same in
//! f64), ignoring MODE (denormals kept). Integer MFMA wraps in 32 bits.
//! The result is written in the lanes EXEC enables (sources are read from
//! every lane). The fp8/bf8 and xf32 MFMAs and the sparse `v_smfmac_*`
//! (gfx942) raise [`FaultKind::Unimplemented`].

use amdgpu_isa::gfx9::{Family, Op, Operand};

use super::fp::{self, Fp};
use super::valu::{abs_neg_masks, src, write_dst, write_dst64};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a VOP3P (or MAI, or VOP2 dot) instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_PK_ADD_F16 => exec_v_pk_add_f16,
        Op::V_PK_MUL_F16 => exec_v_pk_mul_f16,
        Op::V_PK_FMA_F16 => exec_v_pk_fma_f16,
        Op::V_PK_FMAC_F16 => exec_v_pk_fmac_f16,
        Op::V_PK_MIN_F16 => exec_v_pk_min_f16,
        Op::V_PK_MAX_F16 => exec_v_pk_max_f16,
        Op::V_PK_ADD_U16 => exec_v_pk_add_u16,
        Op::V_PK_ADD_I16 => exec_v_pk_add_i16,
        Op::V_PK_SUB_U16 => exec_v_pk_sub_u16,
        Op::V_PK_SUB_I16 => exec_v_pk_sub_i16,
        Op::V_PK_MUL_LO_U16 => exec_v_pk_mul_lo_u16,
        Op::V_PK_MIN_U16 => exec_v_pk_min_u16,
        Op::V_PK_MAX_U16 => exec_v_pk_max_u16,
        Op::V_PK_MIN_I16 => exec_v_pk_min_i16,
        Op::V_PK_MAX_I16 => exec_v_pk_max_i16,
        Op::V_PK_LSHLREV_B16 => exec_v_pk_lshlrev_b16,
        Op::V_PK_LSHRREV_B16 => exec_v_pk_lshrrev_b16,
        Op::V_PK_ASHRREV_I16 => exec_v_pk_ashrrev_i16,
        Op::V_PK_MAD_U16 => exec_v_pk_mad_u16,
        Op::V_PK_MAD_I16 => exec_v_pk_mad_i16,
        Op::V_MAD_MIX_F32 => exec_v_mad_mix_f32,
        Op::V_MAD_MIXLO_F16 => exec_v_mad_mixlo_f16,
        Op::V_MAD_MIXHI_F16 => exec_v_mad_mixhi_f16,
        Op::V_FMA_MIX_F32 => exec_v_fma_mix_f32,
        Op::V_FMA_MIXLO_F16 => exec_v_fma_mixlo_f16,
        Op::V_FMA_MIXHI_F16 => exec_v_fma_mixhi_f16,
        Op::V_DOT2_F32_F16 => exec_v_dot2_f32_f16,
        Op::V_DOT2_I32_I16 => exec_v_dot2_i32_i16,
        Op::V_DOT2_U32_U16 => exec_v_dot2_u32_u16,
        Op::V_DOT4_I32_I8 => exec_v_dot4_i32_i8,
        Op::V_DOT4_U32_U8 => exec_v_dot4_u32_u8,
        Op::V_DOT8_I32_I4 => exec_v_dot8_i32_i4,
        Op::V_DOT8_U32_U4 => exec_v_dot8_u32_u4,
        Op::V_DOT2C_F32_F16 => exec_v_dot2c_f32_f16,
        Op::V_PK_FMA_F32 => exec_v_pk_fma_f32,
        Op::V_PK_MUL_F32 => exec_v_pk_mul_f32,
        Op::V_PK_ADD_F32 => exec_v_pk_add_f32,
        Op::V_PK_MOV_B32 => exec_v_pk_mov_b32,
        Op::V_ACCVGPR_READ_B32 | Op::V_ACCVGPR_WRITE_B32 => exec_v_accvgpr_mov,
        Op::V_MFMA_F32_32X32X1F32
        | Op::V_MFMA_F32_32X32X1_2B_F32
        | Op::V_MFMA_F32_16X16X1F32
        | Op::V_MFMA_F32_16X16X1_4B_F32
        | Op::V_MFMA_F32_4X4X1F32
        | Op::V_MFMA_F32_4X4X1_16B_F32
        | Op::V_MFMA_F32_32X32X2F32
        | Op::V_MFMA_F32_32X32X2_F32
        | Op::V_MFMA_F32_16X16X4F32
        | Op::V_MFMA_F32_16X16X4_F32
        | Op::V_MFMA_F32_32X32X4F16
        | Op::V_MFMA_F32_32X32X4_2B_F16
        | Op::V_MFMA_F32_16X16X4F16
        | Op::V_MFMA_F32_16X16X4_4B_F16
        | Op::V_MFMA_F32_4X4X4F16
        | Op::V_MFMA_F32_4X4X4_16B_F16
        | Op::V_MFMA_F32_32X32X8F16
        | Op::V_MFMA_F32_32X32X8_F16
        | Op::V_MFMA_F32_16X16X16F16
        | Op::V_MFMA_F32_16X16X16_F16
        | Op::V_MFMA_F32_32X32X2BF16
        | Op::V_MFMA_F32_16X16X2BF16
        | Op::V_MFMA_F32_4X4X2BF16
        | Op::V_MFMA_F32_32X32X4BF16
        | Op::V_MFMA_F32_16X16X8BF16
        | Op::V_MFMA_F32_32X32X4BF16_1K
        | Op::V_MFMA_F32_32X32X4_2B_BF16
        | Op::V_MFMA_F32_16X16X4BF16
        | Op::V_MFMA_F32_16X16X4BF16_1K
        | Op::V_MFMA_F32_16X16X4_4B_BF16
        | Op::V_MFMA_F32_4X4X4BF16
        | Op::V_MFMA_F32_4X4X4BF16_1K
        | Op::V_MFMA_F32_4X4X4_16B_BF16
        | Op::V_MFMA_F32_32X32X8BF16
        | Op::V_MFMA_F32_32X32X8BF16_1K
        | Op::V_MFMA_F32_32X32X8_BF16
        | Op::V_MFMA_F32_16X16X16BF16
        | Op::V_MFMA_F32_16X16X16BF16_1K
        | Op::V_MFMA_F32_16X16X16_BF16
        | Op::V_MFMA_I32_32X32X4I8
        | Op::V_MFMA_I32_32X32X4_2B_I8
        | Op::V_MFMA_I32_16X16X4I8
        | Op::V_MFMA_I32_16X16X4_4B_I8
        | Op::V_MFMA_I32_4X4X4I8
        | Op::V_MFMA_I32_4X4X4_16B_I8
        | Op::V_MFMA_I32_32X32X8I8
        | Op::V_MFMA_I32_16X16X16I8
        | Op::V_MFMA_I32_32X32X16I8
        | Op::V_MFMA_I32_32X32X16_I8
        | Op::V_MFMA_I32_16X16X32I8
        | Op::V_MFMA_I32_16X16X32_I8
        | Op::V_MFMA_F64_16X16X4F64
        | Op::V_MFMA_F64_16X16X4_F64
        | Op::V_MFMA_F64_4X4X4F64
        | Op::V_MFMA_F64_4X4X4_4B_F64 => exec_v_mfma,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Float helpers
// ---------------------------------------------------------------------------

/// Whether an f16 pattern is a NaN.
#[inline]
fn nan16(x: u16) -> bool {
    x & 0x7fff > 0x7c00
}

/// Whether an f16 pattern is a signaling NaN.
#[inline]
fn snan16(x: u16) -> bool {
    nan16(x) && x & 0x0200 == 0
}

/// Total order key of a non-NaN f16 (-0 below +0).
#[inline]
fn key16(x: u16) -> i32 {
    if x & 0x8000 != 0 {
        -i32::from(x & 0x7fff) - 1
    } else {
        i32::from(x)
    }
}

/// Flushes an f16 denormal to a signed zero when `flush` is set.
#[inline]
fn flush16(x: u16, flush: bool) -> u16 {
    if flush && x & 0x7c00 == 0 {
        x & 0x8000
    } else {
        x
    }
}

/// IEEE-754-2008 minNum/maxNum on f16 (`max` picks the larger): a quiet
/// NaN loses to a number; in IEEE mode a signaling NaN gives that NaN
/// quieted; -0 orders below +0.
#[inline]
fn minmax16(a: u16, b: u16, max: bool, ieee: bool, flush: bool) -> u16 {
    let (a, b) = (flush16(a, flush), flush16(b, flush));
    if nan16(a) || nan16(b) {
        if ieee && snan16(a) {
            return a | 0x0200;
        }
        if ieee && snan16(b) {
            return b | 0x0200;
        }
        return match (nan16(a), nan16(b)) {
            (true, true) => a | 0x0200,
            (true, false) => b,
            _ => a,
        };
    }
    if (key16(a) < key16(b)) == max { b } else { a }
}

/// Clamps an f16 result to [0, 1] (NaN becomes 0 under DX10_CLAMP).
#[inline]
fn clamp16(x: u16, dx10: bool) -> u16 {
    if nan16(x) {
        if dx10 { 0 } else { x }
    } else if x & 0x8000 != 0 {
        0
    } else {
        x.min(0x3c00)
    }
}

/// Clamps an f32 result to [0, 1] (NaN becomes 0 under DX10_CLAMP).
#[inline]
fn clamp32(x: u32, dx10: bool) -> u32 {
    if x & 0x7fff_ffff > 0x7f80_0000 {
        if dx10 { 0 } else { x }
    } else if x & 0x8000_0000 != 0 {
        0
    } else {
        x.min(0x3f80_0000)
    }
}

/// Applies a VOP3 output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2) to an f32.
#[inline]
fn omod32(x: u32, omod: u8, m: Fp) -> u32 {
    match omod {
        1 => fp::mul_f32(x, 0x4000_0000, m),
        2 => fp::mul_f32(x, 0x4080_0000, m),
        3 => fp::mul_f32(x, 0x3f00_0000, m),
        _ => x,
    }
}

// ---------------------------------------------------------------------------
// Packed 16-bit math
// ---------------------------------------------------------------------------

/// Runs a packed 16-bit operation with `N` sources: `f` gets the operand
/// halves feeding one result half (after `op_sel`/`op_sel_hi` selection
/// and, when `float`, `neg_lo`/`neg_hi`) and returns that half.
#[inline]
fn packed16<const N: usize>(w: &mut Wave, d: &Decoded, float: bool, f: impl Fn([u16; N]) -> u16) {
    let m = &d.inst.mods;
    let s: [Lanes; N] = std::array::from_fn(|k| src(w, d, d.first_src + k, Ty::F16));
    let sh_lo: [u32; N] = std::array::from_fn(|k| 16 * u32::from(m.op_sel >> k & 1));
    let sh_hi: [u32; N] = std::array::from_fn(|k| 16 * u32::from(m.op_sel_hi >> k & 1));
    let sign = |bits: u8, k: usize| {
        if float && bits >> k & 1 != 0 {
            0x8000u16
        } else {
            0
        }
    };
    let neg_lo: [u16; N] = std::array::from_fn(|k| sign(m.neg, k));
    let neg_hi: [u16; N] = std::array::from_fn(|k| sign(m.abs, k));
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let lo = std::array::from_fn(|k| (s[k][l] >> sh_lo[k]) as u16 ^ neg_lo[k]);
        let hi = std::array::from_fn(|k| (s[k][l] >> sh_hi[k]) as u16 ^ neg_hi[k]);
        r[l] = u32::from(f(lo)) | u32::from(f(hi)) << 16;
    }
    write_dst(w, d, 0, &r);
}

/// Float packed op: `f` computes one f16 result, `clamp` applied after.
#[inline]
fn packed_f16<const N: usize>(w: &mut Wave, d: &Decoded, f: impl Fn([u16; N], Fp) -> u16) {
    let m = Fp::f16_f64(w);
    let (clamp, dx10) = (d.inst.mods.clamp, w.dx10_clamp());
    packed16::<N>(w, d, true, |x| {
        let r = f(x, m);
        if clamp { clamp16(r, dx10) } else { r }
    });
}

/// D.f16[i] = S0.f16[i] + S1.f16[i].
fn exec_v_pk_add_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f16::<2>(w, d, |[a, b], m| fp::add_f16(a, b, m));
    Ok(())
}

/// D.f16[i] = S0.f16[i] * S1.f16[i].
fn exec_v_pk_mul_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f16::<2>(w, d, |[a, b], m| fp::mul_f16(a, b, m));
    Ok(())
}

/// D.f16[i] = fma(S0.f16[i], S1.f16[i], S2.f16[i]) (one rounding).
fn exec_v_pk_fma_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f16::<3>(w, d, |[a, b, c], m| fp::fma_f16(a, b, c, m));
    Ok(())
}

/// VOP2 (gfx908+): D.f16[i] = fma(S0.f16[i], S1.f16[i], D.f16[i]), one
/// rounding per half in the MODE f16 round and denorm mode. VOP2 has no
/// `op_sel`: the low result takes the low halves, the high the high ones.
fn exec_v_pk_fmac_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let a = src(w, d, d.first_src, Ty::F16);
    let b = src(w, d, d.first_src + 1, Ty::F16);
    let c = w.lanes(d.op(0), Ty::B32);
    let half = |v: u32, i: u32| (v >> (16 * i)) as u16;
    let r: [u32; LANES] = std::array::from_fn(|l| {
        let fma = |i| u32::from(fp::fma_f16(half(a[l], i), half(b[l], i), half(c[l], i), m));
        fma(0) | fma(1) << 16
    });
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.f16[i] = minNum(S0.f16[i], S1.f16[i]).
fn exec_v_pk_min_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    packed_f16::<2>(w, d, |[a, b], m| minmax16(a, b, false, ieee, m.flush_in));
    Ok(())
}

/// D.f16[i] = maxNum(S0.f16[i], S1.f16[i]).
fn exec_v_pk_max_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    packed_f16::<2>(w, d, |[a, b], m| minmax16(a, b, true, ieee, m.flush_in));
    Ok(())
}

/// D.u16[i] = S0.u16[i] + S1.u16[i] (clamp: saturate to 0xffff).
fn exec_v_pk_add_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<2>(w, d, false, |[a, b]| {
        if clamp {
            a.saturating_add(b)
        } else {
            a.wrapping_add(b)
        }
    });
    Ok(())
}

/// D.i16[i] = S0.i16[i] + S1.i16[i] (clamp: saturate to the i16 range).
fn exec_v_pk_add_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<2>(w, d, false, |[a, b]| {
        let (a, b) = (a as i16, b as i16);
        (if clamp {
            a.saturating_add(b)
        } else {
            a.wrapping_add(b)
        }) as u16
    });
    Ok(())
}

/// D.u16[i] = S0.u16[i] - S1.u16[i] (clamp: saturate at 0).
fn exec_v_pk_sub_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<2>(w, d, false, |[a, b]| {
        if clamp {
            a.saturating_sub(b)
        } else {
            a.wrapping_sub(b)
        }
    });
    Ok(())
}

/// D.i16[i] = S0.i16[i] - S1.i16[i] (clamp: saturate to the i16 range).
fn exec_v_pk_sub_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<2>(w, d, false, |[a, b]| {
        let (a, b) = (a as i16, b as i16);
        (if clamp {
            a.saturating_sub(b)
        } else {
            a.wrapping_sub(b)
        }) as u16
    });
    Ok(())
}

/// D.u16[i] = low 16 bits of S0.u16[i] * S1.u16[i].
fn exec_v_pk_mul_lo_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[a, b]| a.wrapping_mul(b));
    Ok(())
}

/// D.u16[i] = min(S0.u16[i], S1.u16[i]).
fn exec_v_pk_min_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[a, b]| a.min(b));
    Ok(())
}

/// D.u16[i] = max(S0.u16[i], S1.u16[i]).
fn exec_v_pk_max_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[a, b]| a.max(b));
    Ok(())
}

/// D.i16[i] = min(S0.i16[i], S1.i16[i]).
fn exec_v_pk_min_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[a, b]| (a as i16).min(b as i16) as u16);
    Ok(())
}

/// D.i16[i] = max(S0.i16[i], S1.i16[i]).
fn exec_v_pk_max_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[a, b]| (a as i16).max(b as i16) as u16);
    Ok(())
}

/// D.u16[i] = S1.u16[i] << S0.u16[i][3:0].
fn exec_v_pk_lshlrev_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[s, v]| v << (s & 15));
    Ok(())
}

/// D.u16[i] = S1.u16[i] >> S0.u16[i][3:0] (logical).
fn exec_v_pk_lshrrev_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[s, v]| v >> (s & 15));
    Ok(())
}

/// D.i16[i] = S1.i16[i] >> S0.u16[i][3:0] (arithmetic).
fn exec_v_pk_ashrrev_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed16::<2>(w, d, false, |[s, v]| ((v as i16) >> (s & 15)) as u16);
    Ok(())
}

/// D.u16[i] = S0.u16[i] * S1.u16[i] + S2.u16[i] (clamp: saturate to 0xffff).
fn exec_v_pk_mad_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<3>(w, d, false, |[a, b, c]| {
        let r = u32::from(a) * u32::from(b) + u32::from(c);
        if clamp {
            r.min(0xffff) as u16
        } else {
            r as u16
        }
    });
    Ok(())
}

/// D.i16[i] = S0.i16[i] * S1.i16[i] + S2.i16[i] (clamp: saturate to i16).
fn exec_v_pk_mad_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let clamp = d.inst.mods.clamp;
    packed16::<3>(w, d, false, |[a, b, c]| {
        let r = i32::from(a as i16) * i32::from(b as i16) + i32::from(c as i16);
        if clamp {
            r.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as u16
        } else {
            r as u16
        }
    });
    Ok(())
}

// ---------------------------------------------------------------------------
// Mixed precision
// ---------------------------------------------------------------------------

/// The f32 result of a mix instruction, per lane, before clamping:
/// S0 * S1 + S2 with each source an f16 or f32 (see the module docs),
/// fused for `v_fma_mix*`, rounded twice and denormal-flushing for
/// `v_mad_mix*`.
fn mix(w: &Wave, d: &Decoded, fused: bool) -> Lanes {
    let mods = &d.inst.mods;
    let m16 = Fp::f16_f64(w);
    let m32 = if fused {
        Fp::f32(w)
    } else {
        Fp {
            flush_in: true,
            flush_out: true,
            ..Fp::f32(w)
        }
    };
    let mut s = [[0u32; LANES]; 3];
    for (k, sk) in s.iter_mut().enumerate() {
        let is16 = mods.op_sel_hi >> k & 1 != 0;
        let v = src(w, d, d.first_src + k, if is16 { Ty::F16 } else { Ty::B32 });
        let shift = 16 * u32::from(mods.op_sel >> k & 1);
        let (abs, neg) = abs_neg_masks(d, k, 0x8000_0000);
        let (abs, neg) = (!abs as u32, neg as u32);
        for l in 0..LANES {
            let x = if is16 {
                fp::f16_to_f32((v[l] >> shift) as u16, m16)
            } else {
                v[l]
            };
            sk[l] = (x & abs) ^ neg;
        }
    }
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let (a, b, c) = (s[0][l], s[1][l], s[2][l]);
        r[l] = if fused {
            fp::fma_f32(a, b, c, m32)
        } else {
            fp::add_f32(fp::mul_f32(a, b, m32), c, m32)
        };
    }
    if mods.clamp {
        let dx10 = w.dx10_clamp();
        for x in r.iter_mut() {
            *x = clamp32(*x, dx10);
        }
    }
    r
}

/// Writes the f16 rounding of an f32 mix result into the low (`hi` false)
/// or high half of VDST, keeping the other half.
fn mix_to_f16(w: &mut Wave, d: &Decoded, r: &Lanes, hi: bool) {
    let m16 = Fp::f16_f64(w);
    let old = w.lanes(d.op(0), Ty::B32);
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        let h = u32::from(fp::f32_to_f16(r[l], m16));
        out[l] = if hi {
            old[l] & 0xffff | h << 16
        } else {
            old[l] & 0xffff_0000 | h
        };
    }
    write_dst(w, d, 0, &out);
}

/// D.f32 = S0 * S1 + S2 (unfused; sources f16 or f32 by `op_sel_hi`).
fn exec_v_mad_mix_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, false);
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.f16[0] = f16(S0 * S1 + S2) (unfused), D[31:16] kept.
fn exec_v_mad_mixlo_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, false);
    mix_to_f16(w, d, &r, false);
    Ok(())
}

/// D.f16[1] = f16(S0 * S1 + S2) (unfused), D[15:0] kept.
fn exec_v_mad_mixhi_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, false);
    mix_to_f16(w, d, &r, true);
    Ok(())
}

/// D.f32 = fma(S0, S1, S2) (sources f16 or f32 by `op_sel_hi`).
fn exec_v_fma_mix_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, true);
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.f16[0] = f16(fma(S0, S1, S2)), D[31:16] kept.
fn exec_v_fma_mixlo_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, true);
    mix_to_f16(w, d, &r, false);
    Ok(())
}

/// D.f16[1] = f16(fma(S0, S1, S2)), D[15:0] kept.
fn exec_v_fma_mixhi_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let r = mix(w, d, true);
    mix_to_f16(w, d, &r, true);
    Ok(())
}

// ---------------------------------------------------------------------------
// Dot products
// ---------------------------------------------------------------------------

/// S0 and S1 of a dot product as 32-bit lanes; for the 16-bit-element VOP3P
/// forms the halves are re-packed per `op_sel` (low) and `op_sel_hi` (high).
fn dot_sources(w: &Wave, d: &Decoded, halves: bool) -> [Lanes; 2] {
    let mut s = [
        src(w, d, d.first_src, Ty::B32),
        src(w, d, d.first_src + 1, Ty::B32),
    ];
    let m = &d.inst.mods;
    if halves && d.inst.def.family == Family::Vop3p && (m.op_sel & 3 != 0 || m.op_sel_hi & 3 != 3) {
        for (k, sk) in s.iter_mut().enumerate() {
            let lo = 16 * u32::from(m.op_sel >> k & 1);
            let hi = 16 * u32::from(m.op_sel_hi >> k & 1);
            for x in sk.iter_mut() {
                *x = (*x >> lo) & 0xffff | (*x >> hi) << 16;
            }
        }
    }
    s
}

/// The accumulator: S2 for VOP3P, the old VDST for the VOP2/VOP3 `c` forms.
fn dot_acc(w: &Wave, d: &Decoded) -> Lanes {
    if d.inst.def.family == Family::Vop3p {
        src(w, d, d.first_src + 2, Ty::B32)
    } else {
        w.lanes(d.op(0), Ty::B32)
    }
}

/// Integer dot product of `n` fields of `bits` bits (signed when `signed`)
/// plus the accumulator; clamp saturates to the 32-bit range, else wraps.
fn int_dot(w: &mut Wave, d: &Decoded, n: u32, bits: u32, signed: bool) {
    let [a, b] = dot_sources(w, d, bits == 16);
    let c = dot_acc(w, d);
    let clamp = d.inst.mods.clamp;
    let mask = (1u32 << bits) - 1;
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let mut sum: i64 = if signed {
            i64::from(c[l] as i32)
        } else {
            i64::from(c[l])
        };
        for e in 0..n {
            let (x, y) = (a[l] >> (e * bits) & mask, b[l] >> (e * bits) & mask);
            let (x, y) = if signed {
                let sh = 32 - bits;
                (
                    i64::from(((x << sh) as i32) >> sh),
                    i64::from(((y << sh) as i32) >> sh),
                )
            } else {
                (i64::from(x), i64::from(y))
            };
            sum += x * y;
        }
        r[l] = match (clamp, signed) {
            (true, true) => sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
            (true, false) => sum.min(i64::from(u32::MAX)) as u32,
            _ => sum as u32,
        };
    }
    write_dst(w, d, 0, &r);
}

/// f16 dot product: fma(a.hi, b.hi, fma(a.lo, b.lo, acc)) in f32.
fn f16_dot(w: &mut Wave, d: &Decoded) {
    let mods = &d.inst.mods;
    let [a, b] = dot_sources(w, d, true);
    let mut c = dot_acc(w, d);
    let m = Fp::f32(w);
    let m16 = Fp::f16_f64(w);
    let vop3p = d.inst.def.family == Family::Vop3p;
    // Sign flips of the low and high halves of S0 and S1.
    let flip = |k: usize| -> u32 {
        if vop3p {
            u32::from(mods.neg >> k & 1) << 15 | u32::from(mods.abs >> k & 1) << 31
        } else {
            // VOP3/DPP `neg` applies to both halves (`abs` clears both signs).
            0x8000_8000 * u32::from(mods.neg >> k & 1)
        }
    };
    let abs = |k: usize| -> u32 {
        if !vop3p && mods.abs >> k & 1 != 0 {
            0x7fff_7fff
        } else {
            u32::MAX
        }
    };
    let (fa, fb, ma, mb) = (flip(0), flip(1), abs(0), abs(1));
    if vop3p {
        let cabs = if mods.abs >> 2 & 1 != 0 {
            0x7fff_ffff
        } else {
            u32::MAX
        };
        let cneg = u32::from(mods.neg >> 2 & 1) << 31;
        for x in c.iter_mut() {
            *x = (*x & cabs) ^ cneg;
        }
    }
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let (x, y) = ((a[l] & ma) ^ fa, (b[l] & mb) ^ fb);
        let f = |v: u32, h: u32| fp::f16_to_f32((v >> (16 * h)) as u16, m16);
        let lo = fp::fma_f32(f(x, 0), f(y, 0), c[l], m);
        r[l] = fp::fma_f32(f(x, 1), f(y, 1), lo, m);
    }
    let dx10 = w.dx10_clamp();
    for x in r.iter_mut() {
        *x = omod32(*x, mods.omod, m);
        if mods.clamp {
            *x = clamp32(*x, dx10);
        }
    }
    write_dst(w, d, 0, &r);
}

/// D.f32 = S0.f16[0] * S1.f16[0] + S0.f16[1] * S1.f16[1] + S2.f32.
fn exec_v_dot2_f32_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    f16_dot(w, d);
    Ok(())
}

/// D.i32 = S0.i16[0] * S1.i16[0] + S0.i16[1] * S1.i16[1] + S2.i32.
fn exec_v_dot2_i32_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 2, 16, true);
    Ok(())
}

/// D.u32 = S0.u16[0] * S1.u16[0] + S0.u16[1] * S1.u16[1] + S2.u32.
fn exec_v_dot2_u32_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 2, 16, false);
    Ok(())
}

/// D.i32 = sum of S0.i8[i] * S1.i8[i] (i = 0..4) + S2.i32.
fn exec_v_dot4_i32_i8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 4, 8, true);
    Ok(())
}

/// D.u32 = sum of S0.u8[i] * S1.u8[i] (i = 0..4) + S2.u32.
fn exec_v_dot4_u32_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 4, 8, false);
    Ok(())
}

/// D.i32 = sum of S0.i4[i] * S1.i4[i] (i = 0..8) + S2.i32.
fn exec_v_dot8_i32_i4(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 8, 4, true);
    Ok(())
}

/// D.u32 = sum of S0.u4[i] * S1.u4[i] (i = 0..8) + S2.u32.
fn exec_v_dot8_u32_u4(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    int_dot(w, d, 8, 4, false);
    Ok(())
}

/// D.f32 = S0.f16[0] * S1.f16[0] + S0.f16[1] * S1.f16[1] + D.f32.
fn exec_v_dot2c_f32_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    f16_dot(w, d);
    Ok(())
}

// ---------------------------------------------------------------------------
// Packed f32 (gfx90a, gfx942)
// ---------------------------------------------------------------------------

/// Dword `i` of 64-bit packed-f32 source `k` (see the module docs).
#[inline]
fn pk64_dword(w: &Wave, d: &Decoded, k: usize, i: usize) -> Lanes {
    let op = d.src_op(k);
    let ty = if matches!(op, Operand::Src { code: 0..=127, .. }) {
        Ty::B64
    } else {
        Ty::B32
    };
    w.lanes_at(op, i, ty)
}

/// Runs a packed f32 operation with `N` sources: `f` gets the f32 operands
/// feeding one result dword (selected by `op_sel`/`op_sel_hi`, signs
/// flipped by `neg_lo`/`neg_hi`).
#[inline]
fn packed_f32<const N: usize>(w: &mut Wave, d: &Decoded, f: impl Fn([u32; N], Fp) -> u32) {
    let mods = &d.inst.mods;
    let m = Fp::f32(w);
    let s: [[Lanes; 2]; N] =
        std::array::from_fn(|k| [pk64_dword(w, d, k, 0), pk64_dword(w, d, k, 1)]);
    let sel_lo: [usize; N] = std::array::from_fn(|k| usize::from(mods.op_sel >> k & 1));
    let sel_hi: [usize; N] = std::array::from_fn(|k| usize::from(mods.op_sel_hi >> k & 1));
    let neg_lo: [u32; N] = std::array::from_fn(|k| u32::from(mods.neg >> k & 1) << 31);
    let neg_hi: [u32; N] = std::array::from_fn(|k| u32::from(mods.abs >> k & 1) << 31);
    let (clamp, dx10) = (mods.clamp, w.dx10_clamp());
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        let lo = f(std::array::from_fn(|k| s[k][sel_lo[k]][l] ^ neg_lo[k]), m);
        let hi = f(std::array::from_fn(|k| s[k][sel_hi[k]][l] ^ neg_hi[k]), m);
        let (lo, hi) = if clamp {
            (clamp32(lo, dx10), clamp32(hi, dx10))
        } else {
            (lo, hi)
        };
        r[l] = u64::from(lo) | u64::from(hi) << 32;
    }
    write_dst64(w, d, 0, &r);
}

/// D.f32[i] = fma(S0.f32[i], S1.f32[i], S2.f32[i]).
fn exec_v_pk_fma_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f32::<3>(w, d, |[a, b, c], m| fp::fma_f32(a, b, c, m));
    Ok(())
}

/// D.f32[i] = S0.f32[i] * S1.f32[i].
fn exec_v_pk_mul_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f32::<2>(w, d, |[a, b], m| fp::mul_f32(a, b, m));
    Ok(())
}

/// D.f32[i] = S0.f32[i] + S1.f32[i].
fn exec_v_pk_add_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    packed_f32::<2>(w, d, |[a, b], m| fp::add_f32(a, b, m));
    Ok(())
}

/// D.dword[0] = S0.dword[op_sel[0]]; D.dword[1] = S1.dword[op_sel[1]].
fn exec_v_pk_mov_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let sel = d.inst.mods.op_sel;
    let lo = pk64_dword(w, d, 0, usize::from(sel & 1));
    let hi = pk64_dword(w, d, 1, usize::from(sel >> 1 & 1));
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        r[l] = u64::from(lo[l]) | u64::from(hi[l]) << 32;
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

// ---------------------------------------------------------------------------
// MAI: AccVGPR moves and MFMA
// ---------------------------------------------------------------------------

/// D = S0 between VGPRs and AGPRs (`v_accvgpr_read_b32` AGPR → VGPR,
/// `v_accvgpr_write_b32` VGPR/constant → AGPR); the operands carry their
/// register files.
fn exec_v_accvgpr_mov(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = src(w, d, d.first_src, Ty::B32);
    write_dst(w, d, 0, &v);
    Ok(())
}

/// Element type of MFMA inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    F32,
    F16,
    Bf16,
    I8,
    F64,
}

impl Elem {
    fn bits(self) -> usize {
        match self {
            Elem::F32 => 32,
            Elem::F16 | Elem::Bf16 => 16,
            Elem::I8 => 8,
            Elem::F64 => 64,
        }
    }
}

/// Dimensions of an MFMA: `blocks` independent M×N×K products, `kl`
/// elements of A (and of B) per lane.
#[derive(Debug, Clone, Copy)]
struct Shape {
    m: usize,
    n: usize,
    k: usize,
    blocks: usize,
    kl: usize,
    elem: Elem,
    /// Registers of C and D.
    cd_regs: usize,
}

/// Leading decimal number of `s`.
fn leading_number(s: &str) -> Option<usize> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s[..end].parse().ok()
}

/// The shape of an MFMA from its mnemonic
/// (`v_mfma_<out>_<M>x<N>x<K>[_<blocks>b]<type>[_1k]`) and register widths.
fn mfma_shape(d: &Decoded) -> Result<Shape, FaultKind> {
    let def = d.inst.def;
    let unimpl = FaultKind::Unimplemented(def.name);
    let rest = def.mnemonic.strip_prefix("v_mfma_").ok_or(unimpl.clone())?;
    let dims = rest.get(4..).ok_or(unimpl.clone())?;
    if dims.contains("xf32") || dims.contains("fp8") || dims.contains("bf8") {
        return Err(unimpl);
    }
    let mut parts = dims.splitn(3, 'x');
    let (Some(m), Some(n), Some(tail)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(unimpl);
    };
    let (Some(m), Some(n), Some(k)) = (leading_number(m), leading_number(n), leading_number(tail))
    else {
        return Err(unimpl);
    };
    let elem = if tail.contains("bf16") {
        Elem::Bf16
    } else if tail.contains("f16") {
        Elem::F16
    } else if tail.contains("i8") {
        Elem::I8
    } else if tail.contains("f64") {
        Elem::F64
    } else if tail.contains("f32") {
        Elem::F32
    } else {
        return Err(unimpl);
    };
    let in_regs = usize::from(*def.widths.get(1).unwrap_or(&1));
    let cd_regs = usize::from(*def.widths.first().unwrap_or(&1));
    let kl = (in_regs * 32 / elem.bits()).max(1);
    let blocks = 64 * kl / (m * k).max(1);
    let out_bits = if elem == Elem::F64 { 64 } else { 32 };
    if m == 0 || n == 0 || k == 0 || blocks == 0 || m * n * blocks * out_bits != cd_regs * 32 * 64 {
        return Err(unimpl);
    }
    Ok(Shape {
        m,
        n,
        k,
        blocks,
        kl,
        elem,
        cd_regs,
    })
}

/// Dword `i` of a register-tuple source: VGPRs/AGPRs `n + i`; a constant
/// feeds every dword (a 64-bit one alternates its low and high dwords).
#[inline]
fn tuple_dword(w: &Wave, op: &Operand, i: usize, ty: Ty) -> Lanes {
    match op {
        Operand::Src { code: 256.., .. } | Operand::Agpr { .. } => w.lanes_at(op, i, ty),
        _ => {
            let v = w.scalar(op, ty).unwrap_or(0);
            let dw = if ty.is_64() {
                (v >> (32 * (i % 2))) as u32
            } else {
                v as u32
            };
            [dw; LANES]
        }
    }
}

/// A or B of an MFMA, per lane and item: f32 bit patterns for float
/// inputs (f16/bf16 converted exactly), f64 bits, or sign-extended i8.
fn mfma_input(w: &Wave, op: &Operand, s: &Shape) -> [[u64; 8]; LANES] {
    let ty = match s.elem {
        Elem::F16 | Elem::Bf16 => Ty::F16,
        Elem::F64 => Ty::F64,
        _ => Ty::B32,
    };
    let regs = (s.kl * s.elem.bits()).div_ceil(32);
    let d0 = tuple_dword(w, op, 0, ty);
    let d1 = if regs > 1 {
        tuple_dword(w, op, 1, ty)
    } else {
        [0; LANES]
    };
    let mut out = [[0u64; 8]; LANES];
    for l in 0..LANES {
        let q = u64::from(d0[l]) | u64::from(d1[l]) << 32;
        for (it, o) in out[l].iter_mut().enumerate().take(s.kl) {
            *o = match s.elem {
                Elem::F32 => q & 0xffff_ffff,
                Elem::F64 => q,
                Elem::F16 => u64::from(fp::f16_to_f32((q >> (16 * it)) as u16, Fp::IEEE)),
                Elem::Bf16 => (q >> (16 * it) & 0xffff) << 16,
                Elem::I8 => (q >> (8 * it)) as u8 as i8 as i64 as u64,
            };
        }
    }
    out
}

/// The lane B is read from for logical lane `lane` under `blgp`
/// (0 none, 1/2 broadcast lanes 0–31/32–63, 3 rotate down by 16, 4–7
/// broadcast the 16-lane group `blgp - 4`).
#[inline]
fn blgp_lane(lane: usize, blgp: u8) -> usize {
    match blgp {
        1 => lane % 32,
        2 => lane % 32 + 32,
        3 => (lane + 16) % 64,
        4..=7 => lane % 16 + 16 * usize::from(blgp - 4),
        _ => lane,
    }
}

/// D = A × B + C for every block of a matrix fused multiply-add (layouts,
/// modifiers and rounding in the module docs).
fn exec_v_mfma(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let s = mfma_shape(d)?;
    let mods = &d.inst.mods;
    // gfx942 spells the f64 MFMAs' BLGP field `neg`.
    let f64_neg = s.elem == Elem::F64 && d.inst.def.modifiers.contains(&"neg");
    let (blgp, neg) = if f64_neg {
        (0, mods.blgp)
    } else {
        (mods.blgp, 0)
    };
    let cbsz = u32::from(mods.cbsz.min(4));
    let abid = usize::from(mods.abid);
    let a = mfma_input(w, d.src_op(0), &s);
    let b = mfma_input(w, d.src_op(1), &s);
    let c_op = d.src_op(2);
    let c_ty = if s.elem == Elem::F64 {
        Ty::F64
    } else {
        Ty::B32
    };
    let mut cd = [[0u32; LANES]; 32];
    for (r, reg) in cd.iter_mut().enumerate().take(s.cd_regs) {
        *reg = tuple_dword(w, c_op, r, c_ty);
    }
    let (mm, nn, kk, bb, kl) = (s.m, s.n, s.k, s.blocks, s.kl);
    let f64_out = s.elem == Elem::F64;
    let mh = if f64_out { 1 } else { 4 };
    let mpr = 64 / nn;
    let bpr = (64usize).div_ceil(mm * nn / mh);
    let sign_a = if neg & 1 != 0 { 1u64 << 63 } else { 0 };
    let sign_b = if neg & 2 != 0 { 1u64 << 63 } else { 0 };
    let sign_c = if neg & 4 != 0 { 1u64 << 63 } else { 0 };
    for blk in 0..bb {
        let ablk = (((blk >> cbsz) << cbsz) + abid) % bb;
        for i in 0..mm {
            let reg = blk * (mm * nn / 64) + (i / (mh * mpr)) * mh + i % mh;
            for j in 0..nn {
                let lane = (blk % bpr) * nn + ((i / mh) % mpr) * bpr * nn + j;
                let a_at = |k: usize| a[ablk * mm + (k / kl) * mm * bb + i][k % kl];
                let b_at = |k: usize| b[blgp_lane(blk * nn + (k / kl) * nn * bb + j, blgp)][k % kl];
                match s.elem {
                    Elem::F64 => {
                        let (r0, r1) = (2 * reg, 2 * reg + 1);
                        let mut acc =
                            (u64::from(cd[r0][lane]) | u64::from(cd[r1][lane]) << 32) ^ sign_c;
                        for k in 0..kk {
                            acc = fp::fma_f64(a_at(k) ^ sign_a, b_at(k) ^ sign_b, acc, Fp::IEEE);
                        }
                        cd[r0][lane] = acc as u32;
                        cd[r1][lane] = (acc >> 32) as u32;
                    }
                    Elem::I8 => {
                        let mut acc = cd[reg][lane] as i32;
                        for k in 0..kk {
                            let p = (a_at(k) as i64).wrapping_mul(b_at(k) as i64);
                            acc = acc.wrapping_add(p as i32);
                        }
                        cd[reg][lane] = acc as u32;
                    }
                    _ => {
                        let mut acc = cd[reg][lane];
                        for k in 0..kk {
                            acc = fp::fma_f32(a_at(k) as u32, b_at(k) as u32, acc, Fp::IEEE);
                        }
                        cd[reg][lane] = acc;
                    }
                }
            }
        }
    }
    w.lane_ops += u64::from(w.exec().count_ones());
    let dst = d.op(0);
    for (r, reg) in cd.iter().enumerate().take(s.cd_regs) {
        w.write_lanes_at(dst, r, reg);
    }
    Ok(())
}
