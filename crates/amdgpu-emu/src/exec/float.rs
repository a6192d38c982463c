//! Vector floating point: f16, f32 and f64 arithmetic, conversions,
//! transcendentals and the division helpers of VOP1, VOP2 and VOP3 (and
//! their DPP/SDWA forms), honouring MODE's round and denorm modes
//! bit-exactly through [`super::fp`], with the `abs`/`neg` source modifiers
//! (abs first, then neg) and the `omod`/`clamp` output modifiers.
//!
//! Conventions, from the Vega / CDNA ISA manuals and LLVM's AMDGPU backend:
//! - Each f32 operation runs in MODE's f32 round/denorm mode, each f16 and
//!   f64 operation in the f16/f64 mode; a conversion flushes its input per
//!   the input type's mode and rounds/flushes its result per the result
//!   type's mode.
//! - `v_mad_*`, `v_mac_*`, `v_madak/madmk` (unfused: the product is rounded
//!   first) always flush denormals, as the ISA says ("denormals are
//!   flushed"; LLVM only selects them when denormals are off).
//! - `omod` (×2, ×4, ÷2) is applied, rounding in the result's mode, only
//!   when MODE.IEEE is 0 and the result type's output denormals are
//!   flushed: the hardware ignores it otherwise (LLVM `SIFoldOperands`
//!   relies on this). `clamp` then clamps to [+0, 1]: −0 and negative
//!   values give +0, a NaN gives +0 when MODE.DX10_CLAMP is set and stays
//!   NaN otherwise.
//! - Transcendentals (`rcp`, `rsq`, `sqrt`, `exp`, `log`, `sin`, `cos`) are
//!   approximations in hardware (about 1 ulp for f32/f16; 2^29 ulp for the
//!   f64 `rcp/rsq/sqrt`). The emulator returns the correctly rounded value
//!   (`rcp` and `sqrt` exactly, the others via f64 and one more rounding)
//!   with the ISA's special cases: `rcp(±0) = ±∞`, `rsq(−x) = NaN`,
//!   `rsq(−0) = −∞`, `log(±0) = −∞`, `exp(−∞) = 0`, `sin/cos(±∞) = NaN`,
//!   `sin(x)` is `sin(2πx)` with the argument reduced exactly. The f32
//!   versions flush denormal inputs and results ("denormals are flushed"
//!   in the ISA's notes) and round to nearest; the f16/f64 versions keep
//!   denormals as the mode says.
//! - 16-bit results: on GFX9 a VOP1/VOP2 (and promoted VOP3) f16 result
//!   zeroes the high half of the VGPR; `v_mad_f16`, `v_fma_f16` and
//!   `v_div_fixup_f16` preserve it, and their `op_sel[3]` writes the high
//!   half instead; the `*_legacy_f16` forms zero it (LLVM
//!   `GCNSubtarget::zeroesHigh16BitsOfDest`). SDWA forms leave the
//!   placement to the SDWA destination select.
//! - The division helpers follow the ISA pseudo-code, with the
//!   clarifications hardware measurements (and tinygrad's AMD emulator)
//!   document: `v_div_fmas` scales by 2^±64 (f64: 2^±128) depending on
//!   whether the quotient's exponent is above 1.0's; `v_div_fixup` turns a
//!   NaN quotient into ±∞ and an underflowing one into ±0; a zero
//!   numerator or denominator makes `v_div_scale` return the default NaN.

use amdgpu_isa::gfx9::{Family, Op};

use super::fp::{self, F16, F32, F64, Fmt, Fp, Round};
use super::valu::{abs_neg_masks, src, src_neg_abs, src64_neg_abs, write_dst, write_dst64};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a floating-point instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_ADD_F32 => exec_v_add_f32,
        Op::V_SUB_F32 => exec_v_sub_f32,
        Op::V_SUBREV_F32 => exec_v_subrev_f32,
        Op::V_MUL_F32 => exec_v_mul_f32,
        Op::V_MUL_LEGACY_F32 => exec_v_mul_legacy_f32,
        Op::V_MIN_F32 => exec_v_min_f32,
        Op::V_MAX_F32 => exec_v_max_f32,
        Op::V_MAC_F32 => exec_v_mac_f32,
        Op::V_FMAC_F32 => exec_v_fmac_f32,
        Op::V_MADAK_F32 | Op::V_MADMK_F32 | Op::V_MAD_F32 => exec_v_mad_f32,
        Op::V_FMAAK_F32 | Op::V_FMAMK_F32 | Op::V_FMA_F32 => exec_v_fma_f32,
        Op::V_MAD_LEGACY_F32 => exec_v_mad_legacy_f32,
        Op::V_MIN3_F32 => exec_v_min3_f32,
        Op::V_MAX3_F32 => exec_v_max3_f32,
        Op::V_MED3_F32 => exec_v_med3_f32,
        Op::V_LDEXP_F32 => exec_v_ldexp_f32,
        Op::V_ADD_F16 => exec_v_add_f16,
        Op::V_SUB_F16 => exec_v_sub_f16,
        Op::V_SUBREV_F16 => exec_v_subrev_f16,
        Op::V_MUL_F16 => exec_v_mul_f16,
        Op::V_MIN_F16 => exec_v_min_f16,
        Op::V_MAX_F16 => exec_v_max_f16,
        Op::V_MAC_F16 => exec_v_mac_f16,
        Op::V_MADAK_F16 | Op::V_MADMK_F16 | Op::V_MAD_LEGACY_F16 => exec_v_mad_legacy_f16,
        Op::V_MAD_F16 => exec_v_mad_f16,
        Op::V_FMA_F16 => exec_v_fma_f16,
        Op::V_FMA_LEGACY_F16 => exec_v_fma_legacy_f16,
        Op::V_MIN3_F16 => exec_v_min3_f16,
        Op::V_MAX3_F16 => exec_v_max3_f16,
        Op::V_MED3_F16 => exec_v_med3_f16,
        Op::V_LDEXP_F16 => exec_v_ldexp_f16,
        Op::V_ADD_F64 => exec_v_add_f64,
        Op::V_MUL_F64 => exec_v_mul_f64,
        Op::V_MIN_F64 => exec_v_min_f64,
        Op::V_MAX_F64 => exec_v_max_f64,
        Op::V_FMA_F64 => exec_v_fma_f64,
        Op::V_FMAC_F64 => exec_v_fmac_f64,
        Op::V_LDEXP_F64 => exec_v_ldexp_f64,
        Op::V_FRACT_F32 => exec_v_fract_f32,
        Op::V_TRUNC_F32 => exec_v_trunc_f32,
        Op::V_CEIL_F32 => exec_v_ceil_f32,
        Op::V_FLOOR_F32 => exec_v_floor_f32,
        Op::V_RNDNE_F32 => exec_v_rndne_f32,
        Op::V_FRACT_F16 => exec_v_fract_f16,
        Op::V_TRUNC_F16 => exec_v_trunc_f16,
        Op::V_CEIL_F16 => exec_v_ceil_f16,
        Op::V_FLOOR_F16 => exec_v_floor_f16,
        Op::V_RNDNE_F16 => exec_v_rndne_f16,
        Op::V_FRACT_F64 => exec_v_fract_f64,
        Op::V_TRUNC_F64 => exec_v_trunc_f64,
        Op::V_CEIL_F64 => exec_v_ceil_f64,
        Op::V_FLOOR_F64 => exec_v_floor_f64,
        Op::V_RNDNE_F64 => exec_v_rndne_f64,
        Op::V_FREXP_MANT_F32 => exec_v_frexp_mant_f32,
        Op::V_FREXP_EXP_I32_F32 => exec_v_frexp_exp_i32_f32,
        Op::V_FREXP_MANT_F16 => exec_v_frexp_mant_f16,
        Op::V_FREXP_EXP_I16_F16 => exec_v_frexp_exp_i16_f16,
        Op::V_FREXP_MANT_F64 => exec_v_frexp_mant_f64,
        Op::V_FREXP_EXP_I32_F64 => exec_v_frexp_exp_i32_f64,
        Op::V_RCP_F32 | Op::V_RCP_IFLAG_F32 => exec_v_rcp_f32,
        Op::V_RSQ_F32 => exec_v_rsq_f32,
        Op::V_SQRT_F32 => exec_v_sqrt_f32,
        Op::V_EXP_F32 | Op::V_EXP_LEGACY_F32 => exec_v_exp_f32,
        Op::V_LOG_F32 | Op::V_LOG_LEGACY_F32 => exec_v_log_f32,
        Op::V_SIN_F32 => exec_v_sin_f32,
        Op::V_COS_F32 => exec_v_cos_f32,
        Op::V_RCP_F16 => exec_v_rcp_f16,
        Op::V_RSQ_F16 => exec_v_rsq_f16,
        Op::V_SQRT_F16 => exec_v_sqrt_f16,
        Op::V_EXP_F16 => exec_v_exp_f16,
        Op::V_LOG_F16 => exec_v_log_f16,
        Op::V_SIN_F16 => exec_v_sin_f16,
        Op::V_COS_F16 => exec_v_cos_f16,
        Op::V_RCP_F64 => exec_v_rcp_f64,
        Op::V_RSQ_F64 => exec_v_rsq_f64,
        Op::V_SQRT_F64 => exec_v_sqrt_f64,
        Op::V_CVT_F32_I32 => exec_v_cvt_f32_i32,
        Op::V_CVT_F32_U32 => exec_v_cvt_f32_u32,
        Op::V_CVT_I32_F32 => exec_v_cvt_i32_f32,
        Op::V_CVT_U32_F32 => exec_v_cvt_u32_f32,
        Op::V_CVT_RPI_I32_F32 => exec_v_cvt_rpi_i32_f32,
        Op::V_CVT_FLR_I32_F32 => exec_v_cvt_flr_i32_f32,
        Op::V_CVT_OFF_F32_I4 => exec_v_cvt_off_f32_i4,
        Op::V_CVT_F32_UBYTE0 => exec_v_cvt_f32_ubyte0,
        Op::V_CVT_F32_UBYTE1 => exec_v_cvt_f32_ubyte1,
        Op::V_CVT_F32_UBYTE2 => exec_v_cvt_f32_ubyte2,
        Op::V_CVT_F32_UBYTE3 => exec_v_cvt_f32_ubyte3,
        Op::V_CVT_F16_F32 => exec_v_cvt_f16_f32,
        Op::V_CVT_F32_F16 => exec_v_cvt_f32_f16,
        Op::V_CVT_F32_F64 => exec_v_cvt_f32_f64,
        Op::V_CVT_F64_F32 => exec_v_cvt_f64_f32,
        Op::V_CVT_F64_I32 => exec_v_cvt_f64_i32,
        Op::V_CVT_F64_U32 => exec_v_cvt_f64_u32,
        Op::V_CVT_I32_F64 => exec_v_cvt_i32_f64,
        Op::V_CVT_U32_F64 => exec_v_cvt_u32_f64,
        Op::V_CVT_F16_U16 => exec_v_cvt_f16_u16,
        Op::V_CVT_F16_I16 => exec_v_cvt_f16_i16,
        Op::V_CVT_U16_F16 => exec_v_cvt_u16_f16,
        Op::V_CVT_I16_F16 => exec_v_cvt_i16_f16,
        Op::V_CVT_NORM_I16_F16 => exec_v_cvt_norm_i16_f16,
        Op::V_CVT_NORM_U16_F16 => exec_v_cvt_norm_u16_f16,
        Op::V_CVT_PKRTZ_F16_F32 => exec_v_cvt_pkrtz_f16_f32,
        Op::V_CVT_PKNORM_I16_F32 => exec_v_cvt_pknorm_i16_f32,
        Op::V_CVT_PKNORM_U16_F32 => exec_v_cvt_pknorm_u16_f32,
        Op::V_CVT_PKNORM_I16_F16 => exec_v_cvt_pknorm_i16_f16,
        Op::V_CVT_PKNORM_U16_F16 => exec_v_cvt_pknorm_u16_f16,
        Op::V_CVT_PK_U8_F32 => exec_v_cvt_pk_u8_f32,
        Op::V_CVT_PKACCUM_U8_F32 => exec_v_cvt_pkaccum_u8_f32,
        Op::V_PACK_B32_F16 => exec_v_pack_b32_f16,
        Op::V_CVT_F32_FP8 => exec_v_cvt_f32_fp8,
        Op::V_CVT_F32_BF8 => exec_v_cvt_f32_bf8,
        Op::V_CVT_PK_F32_FP8 => exec_v_cvt_pk_f32_fp8,
        Op::V_CVT_PK_F32_BF8 => exec_v_cvt_pk_f32_bf8,
        Op::V_DIV_SCALE_F32 => exec_v_div_scale_f32,
        Op::V_DIV_SCALE_F64 => exec_v_div_scale_f64,
        Op::V_DIV_FMAS_F32 => exec_v_div_fmas_f32,
        Op::V_DIV_FMAS_F64 => exec_v_div_fmas_f64,
        Op::V_DIV_FIXUP_F32 => exec_v_div_fixup_f32,
        Op::V_DIV_FIXUP_F64 => exec_v_div_fixup_f64,
        Op::V_DIV_FIXUP_F16 => exec_v_div_fixup_f16,
        Op::V_DIV_FIXUP_LEGACY_F16 => exec_v_div_fixup_legacy_f16,
        Op::V_CUBEID_F32 => exec_v_cubeid_f32,
        Op::V_CUBESC_F32 => exec_v_cubesc_f32,
        Op::V_CUBETC_F32 => exec_v_cubetc_f32,
        Op::V_CUBEMA_F32 => exec_v_cubema_f32,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Source readers and result writers.

/// Source `k` as f32 lanes, `abs` then `neg` applied.
#[inline]
fn s32(w: &Wave, d: &Decoded, k: usize) -> Lanes {
    src_neg_abs(w, d, d.first_src + k, Ty::B32)
}

/// Source `k` as f16 lanes (in the low 16 bits; `op_sel` bit `k` picks the
/// high half), `abs` then `neg` applied.
fn s16(w: &Wave, d: &Decoded, k: usize) -> Lanes {
    let mut v = src(w, d, d.first_src + k, Ty::F16);
    let sh = if d.inst.mods.op_sel >> k & 1 != 0 {
        16
    } else {
        0
    };
    let (abs, neg) = abs_neg_masks(d, k, 0x8000);
    let (and, xor) = (0xffff & !abs as u32, neg as u32);
    for x in v.iter_mut() {
        *x = (*x >> sh) & and ^ xor;
    }
    v
}

/// Source `k` as f64 lanes, `abs` then `neg` applied.
#[inline]
fn s64(w: &Wave, d: &Decoded, k: usize) -> [u64; LANES] {
    src64_neg_abs(w, d, d.first_src + k, Ty::F64)
}

/// Source `k` as raw 32-bit lanes (integer sources, no modifiers).
fn sint(w: &Wave, d: &Decoded, k: usize) -> Lanes {
    src(w, d, d.first_src + k, Ty::B32)
}

/// `f` on every active lane of `a` (inactive lanes give 0: they are not
/// written).
#[inline]
fn map<T: Copy + Default, U: Copy + Default>(
    exec: u64,
    a: &[T; LANES],
    f: impl Fn(T) -> U,
) -> [U; LANES] {
    let mut r = [U::default(); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = f(a[l]);
        }
    }
    r
}

/// `f` on every active lane of `a` and `b`.
#[inline]
fn map2<T: Copy + Default, U: Copy + Default>(
    exec: u64,
    a: &[T; LANES],
    b: &[T; LANES],
    f: impl Fn(T, T) -> U,
) -> [U; LANES] {
    let mut r = [U::default(); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = f(a[l], b[l]);
        }
    }
    r
}

/// `f` on every active lane of `a`, `b` and `c`.
#[inline]
fn map3<T: Copy + Default, U: Copy + Default>(
    exec: u64,
    a: &[T; LANES],
    b: &[T; LANES],
    c: &[T; LANES],
    f: impl Fn(T, T, T) -> U,
) -> [U; LANES] {
    let mut r = [U::default(); LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = f(a[l], b[l], c[l]);
        }
    }
    r
}

/// Whether `omod` takes effect: MODE.IEEE clear and output denormals
/// flushed in the result's mode.
#[inline]
fn omod_factor(w: &Wave, d: &Decoded, m: Fp) -> Option<i32> {
    match d.inst.mods.omod {
        0 => None,
        _ if w.ieee() || !m.flush_out => None,
        1 => Some(1),
        2 => Some(2),
        _ => Some(-1),
    }
}

/// Clamp of a float result of format `f` to [+0, 1].
#[inline]
fn clamp_bits(x: u64, f: Fmt, dx10: bool) -> u64 {
    let one = (f.bias() as u64) << f.mbits;
    if f.is_nan(x) {
        if dx10 { 0 } else { x }
    } else if x & f.sign() != 0 {
        0
    } else if x >= one {
        one
    } else {
        x
    }
}

/// Applies `omod` and `clamp` to f32 results and writes them.
fn finish32(w: &mut Wave, d: &Decoded, m: Fp, mut r: Lanes) {
    if let Some(k) = omod_factor(w, d, m) {
        for x in r.iter_mut() {
            *x = fp::ldexp_soft((*x).into(), k, F32, m) as u32;
        }
    }
    if d.inst.mods.clamp {
        let dx10 = w.dx10_clamp();
        for x in r.iter_mut() {
            *x = clamp_bits((*x).into(), F32, dx10) as u32;
        }
    }
    write_dst(w, d, 0, &r);
}

/// Applies `omod` and `clamp` to f64 results and writes them.
fn finish64(w: &mut Wave, d: &Decoded, m: Fp, mut r: [u64; LANES]) {
    if let Some(k) = omod_factor(w, d, m) {
        for x in r.iter_mut() {
            *x = fp::ldexp_soft(*x, k, F64, m);
        }
    }
    if d.inst.mods.clamp {
        let dx10 = w.dx10_clamp();
        for x in r.iter_mut() {
            *x = clamp_bits(*x, F64, dx10);
        }
    }
    write_dst64(w, d, 0, &r);
}

/// How a 16-bit result is placed in its 32-bit VGPR.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    /// Low half, high half zeroed (VOP1/VOP2 and legacy VOP3 on GFX9);
    /// `op_sel[3]` (where encodable) writes the high half instead.
    Zero,
    /// Low half or, with `op_sel[3]`, high half; the other half preserved.
    Keep,
}

/// Applies `omod` and `clamp` to f16 results and writes them.
fn finish16(w: &mut Wave, d: &Decoded, m: Fp, mut r: Lanes, half: Half) {
    if let Some(k) = omod_factor(w, d, m) {
        for x in r.iter_mut() {
            *x = fp::ldexp_soft((*x).into(), k, F16, m) as u32;
        }
    }
    if d.inst.mods.clamp {
        let dx10 = w.dx10_clamp();
        for x in r.iter_mut() {
            *x = clamp_bits((*x).into(), F16, dx10) as u32;
        }
    }
    write16(w, d, r, half);
}

/// Writes 16-bit results (in the low halves of `r`) per `half`.
fn write16(w: &mut Wave, d: &Decoded, mut r: Lanes, half: Half) {
    let sdwa = matches!(d.inst.def.family, Family::Vop1Sdwa | Family::Vop2Sdwa);
    let hi = d.inst.mods.op_sel & 8 != 0;
    if !sdwa && (hi || half == Half::Keep) {
        let old = w.lanes(d.op(0), Ty::B32);
        for l in 0..LANES {
            r[l] = if hi {
                old[l] & 0xffff | r[l] << 16
            } else {
                old[l] & 0xffff_0000 | r[l] & 0xffff
            };
        }
    }
    write_dst(w, d, 0, &r);
}

/// Writes integer results (no output modifiers).
fn write_int(w: &mut Wave, d: &Decoded, r: Lanes) {
    write_dst(w, d, 0, &r);
}

// Shapes of the common instructions: read, compute per lane, finish.

fn op1_32(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u32) -> u32) -> R {
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, f);
    finish32(w, d, m, r);
    Ok(())
}
fn op2_32(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u32, u32) -> u32) -> R {
    let (a, b) = (s32(w, d, 0), s32(w, d, 1));
    let r = map2(w.exec(), &a, &b, f);
    finish32(w, d, m, r);
    Ok(())
}
fn op3_32(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let (a, b, c) = (s32(w, d, 0), s32(w, d, 1), s32(w, d, 2));
    let r = map3(w.exec(), &a, &b, &c, f);
    finish32(w, d, m, r);
    Ok(())
}
fn op1_16(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u16) -> u16) -> R {
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |x| u32::from(f(x as u16)));
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}
fn op2_16(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u16, u16) -> u16) -> R {
    let (a, b) = (s16(w, d, 0), s16(w, d, 1));
    let r = map2(w.exec(), &a, &b, |x, y| u32::from(f(x as u16, y as u16)));
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}
fn op3_16(w: &mut Wave, d: &Decoded, m: Fp, half: Half, f: impl Fn(u16, u16, u16) -> u16) -> R {
    let (a, b, c) = (s16(w, d, 0), s16(w, d, 1), s16(w, d, 2));
    let r = map3(w.exec(), &a, &b, &c, |x, y, z| {
        u32::from(f(x as u16, y as u16, z as u16))
    });
    finish16(w, d, m, r, half);
    Ok(())
}
fn op1_64(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u64) -> u64) -> R {
    let a = s64(w, d, 0);
    let r = map(w.exec(), &a, f);
    finish64(w, d, m, r);
    Ok(())
}
fn op2_64(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u64, u64) -> u64) -> R {
    let (a, b) = (s64(w, d, 0), s64(w, d, 1));
    let r = map2(w.exec(), &a, &b, f);
    finish64(w, d, m, r);
    Ok(())
}
fn op3_64(w: &mut Wave, d: &Decoded, m: Fp, f: impl Fn(u64, u64, u64) -> u64) -> R {
    let (a, b, c) = (s64(w, d, 0), s64(w, d, 1), s64(w, d, 2));
    let r = map3(w.exec(), &a, &b, &c, f);
    finish64(w, d, m, r);
    Ok(())
}

/// A mode with denormals flushed both ways.
#[inline]
fn flushed(m: Fp) -> Fp {
    Fp {
        flush_in: true,
        flush_out: true,
        ..m
    }
}

// ---------------------------------------------------------------------------
// Scalar semantics shared by several instructions.

/// Unfused multiply-add (`v_mad_*`): round(round(a × b) + c).
#[inline]
fn mad(a: u64, b: u64, c: u64, f: Fmt, m: Fp) -> u64 {
    fp::add_soft(fp::mul_soft(a, b, f, m), c, f, m)
}

/// `v_mul_legacy_f32`: like `v_mul_f32`, but ±0 × anything (∞ and NaN
/// included) is +0 (DX9 rules).
#[inline]
fn mul_legacy(a: u32, b: u32, m: Fp) -> u32 {
    let (a, b) = (fp::flush_f32(a, m.flush_in), fp::flush_f32(b, m.flush_in));
    if a & 0x7fff_ffff == 0 || b & 0x7fff_ffff == 0 {
        0
    } else {
        fp::mul_f32(a, b, m)
    }
}

/// `v_min_*` (ISA pseudo-code): with MODE.IEEE a signalling NaN is returned
/// quieted; otherwise a NaN operand loses to the other; −0 < +0.
#[inline]
fn fmin(a: u64, b: u64, f: Fmt, ieee: bool) -> u64 {
    minmax(a, b, f, ieee, false)
}

/// `v_max_*`, see [`fmin`].
#[inline]
fn fmax(a: u64, b: u64, f: Fmt, ieee: bool) -> u64 {
    minmax(a, b, f, ieee, true)
}

fn minmax(a: u64, b: u64, f: Fmt, ieee: bool, max: bool) -> u64 {
    if ieee && f.is_snan(a) {
        return a | f.quiet();
    }
    if ieee && f.is_snan(b) {
        return b | f.quiet();
    }
    if f.is_nan(a) {
        return b;
    }
    if f.is_nan(b) {
        return a;
    }
    // Order as signed magnitudes: −0 sorts below +0.
    let key = |x: u64| -> i128 {
        let mag = i128::from(x & !f.sign());
        if x & f.sign() != 0 { -mag - 1 } else { mag }
    };
    let a_first = if max {
        key(a) >= key(b)
    } else {
        key(a) < key(b)
    };
    if a_first { a } else { b }
}

/// `v_med3_*`: the median, or `min3` when an input is a NaN.
fn med3(a: u64, b: u64, c: u64, f: Fmt, ieee: bool) -> u64 {
    if f.is_nan(a) || f.is_nan(b) || f.is_nan(c) {
        return fmin(fmin(a, b, f, ieee), c, f, ieee);
    }
    let v = |x: u64| to_f64(x, f);
    let mx = v(fmax(fmax(a, b, f, ieee), c, f, ieee));
    if mx == v(a) {
        fmax(b, c, f, ieee)
    } else if mx == v(b) {
        fmax(a, c, f, ieee)
    } else {
        fmax(a, b, f, ieee)
    }
}

/// The (exact) f64 value of `x` in format `f`.
#[inline]
fn to_f64(x: u64, f: Fmt) -> f64 {
    f64::from_bits(fp::convert(x, f, F64, Fp::IEEE))
}

/// Rounds an f64 value to format `f` in mode `m`; a NaN becomes the
/// default NaN.
#[inline]
fn from_f64(x: f64, f: Fmt, m: Fp) -> u64 {
    if x.is_nan() {
        f.default_nan()
    } else {
        fp::convert(x.to_bits(), F64, f, m)
    }
}

/// An integral rounding (`trunc`, `floor`, …) of `x` via the exact host
/// operation on the f64 value (NaN quieted, denormal inputs flushed per
/// mode).
#[inline]
fn round_int(x: u64, f: Fmt, m: Fp, op: fn(f64) -> f64) -> u64 {
    if f.is_nan(x) {
        return x | f.quiet();
    }
    let x = if m.flush_in && f.is_denorm(x) {
        x & f.sign()
    } else {
        x
    };
    fp::convert(op(to_f64(x, f)).to_bits(), F64, f, Fp::IEEE)
}

/// A transcendental computed in f64 and rounded to `f` in mode `m` (input
/// flushed per `m`, NaN inputs quieted).
#[inline]
fn trans(x: u64, f: Fmt, m: Fp, op: impl Fn(f64) -> f64) -> u64 {
    if f.is_nan(x) {
        return x | f.quiet();
    }
    let x = if m.flush_in && f.is_denorm(x) {
        x & f.sign()
    } else {
        x
    };
    from_f64(op(to_f64(x, f)), f, m)
}

/// sin(2πx) (`cos` false) or cos(2πx) of a finite x, with the argument
/// reduced exactly to an octant-free quarter turn; a zero result is +0.
fn sincos_rev(x: f64, cos: bool) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    if x == 0.0 && !cos {
        return x;
    }
    let fr = x - x.floor();
    let t = fr * 4.0;
    let q = t.floor();
    let r = t - q;
    let a = r * std::f64::consts::FRAC_PI_2;
    let v = match (q as i32 + i32::from(cos)) & 3 {
        0 => a.sin(),
        1 => a.cos(),
        2 => -a.sin(),
        _ => -a.cos(),
    };
    if v == 0.0 { 0.0 } else { v }
}

/// f32 reciprocal square root via f64.
#[inline]
fn rsq(x: f64) -> f64 {
    1.0 / x.sqrt()
}

// ---------------------------------------------------------------------------
// f32 arithmetic.

/// D = S0 + S1 (f32).
fn exec_v_add_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let r = fp::add_f32_lanes(&s32(w, d, 0), &s32(w, d, 1), m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S0 − S1 (f32).
fn exec_v_sub_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let r = fp::sub_f32_lanes(&s32(w, d, 0), &s32(w, d, 1), m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S1 − S0 (f32).
fn exec_v_subrev_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let r = fp::sub_f32_lanes(&s32(w, d, 1), &s32(w, d, 0), m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S0 × S1 (f32).
fn exec_v_mul_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let r = fp::mul_f32_lanes(&s32(w, d, 0), &s32(w, d, 1), m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S0 × S1 (f32) with ±0 × anything = +0.
fn exec_v_mul_legacy_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op2_32(w, d, m, |a, b| mul_legacy(a, b, m))
}

/// D = min(S0, S1) (f32, IEEE-mode NaN rules, −0 < +0).
fn exec_v_min_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_32(w, d, Fp::f32(w), |a, b| {
        fmin(a.into(), b.into(), F32, ieee) as u32
    })
}

/// D = max(S0, S1) (f32, IEEE-mode NaN rules, −0 < +0).
fn exec_v_max_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_32(w, d, Fp::f32(w), |a, b| {
        fmax(a.into(), b.into(), F32, ieee) as u32
    })
}

/// D = S0 × S1 + D (f32, unfused, denormals flushed).
fn exec_v_mac_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f32(w));
    let (a, b) = (s32(w, d, 0), s32(w, d, 1));
    let c = w.lanes(d.op(0), Ty::B32);
    let r = map3(w.exec(), &a, &b, &c, |a, b, c| {
        mad(a.into(), b.into(), c.into(), F32, m) as u32
    });
    finish32(w, d, m, r);
    Ok(())
}

/// D = fma(S0, S1, D) (f32).
fn exec_v_fmac_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let (a, b) = (s32(w, d, 0), s32(w, d, 1));
    let c = w.lanes(d.op(0), Ty::B32);
    let r = fp::fma_f32_lanes(&a, &b, &c, m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S0 × S1 + S2 (f32, unfused, denormals flushed); also `v_madak_f32`
/// (S2 = literal K) and `v_madmk_f32` (S1 = K), whose operands come in
/// the same order.
fn exec_v_mad_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f32(w));
    op3_32(w, d, m, |a, b, c| {
        mad(a.into(), b.into(), c.into(), F32, m) as u32
    })
}

/// D = fma(S0, S1, S2) (f32); also `v_fmaak_f32` / `v_fmamk_f32`.
fn exec_v_fma_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let r = fp::fma_f32_lanes(&s32(w, d, 0), &s32(w, d, 1), &s32(w, d, 2), m);
    finish32(w, d, m, r);
    Ok(())
}

/// D = S0 × S1 + S2 (f32, legacy multiply: ±0 × anything = +0; unfused,
/// denormals flushed).
fn exec_v_mad_legacy_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f32(w));
    op3_32(w, d, m, |a, b, c| fp::add_f32(mul_legacy(a, b, m), c, m))
}

/// D = min(min(S0, S1), S2) (f32).
fn exec_v_min3_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_32(w, d, Fp::f32(w), |a, b, c| {
        fmin(fmin(a.into(), b.into(), F32, ieee), c.into(), F32, ieee) as u32
    })
}

/// D = max(max(S0, S1), S2) (f32).
fn exec_v_max3_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_32(w, d, Fp::f32(w), |a, b, c| {
        fmax(fmax(a.into(), b.into(), F32, ieee), c.into(), F32, ieee) as u32
    })
}

/// D = median(S0, S1, S2) (f32; min3 if any input is a NaN).
fn exec_v_med3_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_32(w, d, Fp::f32(w), |a, b, c| {
        med3(a.into(), b.into(), c.into(), F32, ieee) as u32
    })
}

/// D = S0 × 2^S1.i32 (f32, rounded per mode).
fn exec_v_ldexp_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let (a, n) = (s32(w, d, 0), sint(w, d, 1));
    let r = map2(w.exec(), &a, &n, |a, n| {
        fp::ldexp_soft(a.into(), n as i32, F32, m) as u32
    });
    finish32(w, d, m, r);
    Ok(())
}

// ---------------------------------------------------------------------------
// f16 arithmetic.

/// D.f16 = S0 + S1.
fn exec_v_add_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_16(w, d, m, |a, b| fp::add_f16(a, b, m))
}

/// D.f16 = S0 − S1.
fn exec_v_sub_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_16(w, d, m, |a, b| fp::sub_f16(a, b, m))
}

/// D.f16 = S1 − S0.
fn exec_v_subrev_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_16(w, d, m, |a, b| fp::sub_f16(b, a, m))
}

/// D.f16 = S0 × S1.
fn exec_v_mul_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_16(w, d, m, |a, b| fp::mul_f16(a, b, m))
}

/// D.f16 = min(S0, S1).
fn exec_v_min_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_16(w, d, Fp::f16_f64(w), |a, b| {
        fmin(a.into(), b.into(), F16, ieee) as u16
    })
}

/// D.f16 = max(S0, S1).
fn exec_v_max_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_16(w, d, Fp::f16_f64(w), |a, b| {
        fmax(a.into(), b.into(), F16, ieee) as u16
    })
}

/// D.f16 = S0 × S1 + D.f16 (unfused, denormals flushed; high half zeroed).
fn exec_v_mac_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f16_f64(w));
    let (a, b) = (s16(w, d, 0), s16(w, d, 1));
    let c = w.lanes(d.op(0), Ty::B32);
    let r = map3(w.exec(), &a, &b, &c, |a, b, c| {
        mad(a.into(), b.into(), (c & 0xffff).into(), F16, m) as u32
    });
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}

/// D.f16 = S0 × S1 + S2 (unfused, denormals flushed, high half zeroed):
/// `v_mad_legacy_f16`, `v_madak_f16`, `v_madmk_f16`.
fn exec_v_mad_legacy_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f16_f64(w));
    op3_16(w, d, m, Half::Zero, |a, b, c| {
        mad(a.into(), b.into(), c.into(), F16, m) as u16
    })
}

/// D.f16 = S0 × S1 + S2 (unfused, denormals flushed; other half kept,
/// `op_sel`).
fn exec_v_mad_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = flushed(Fp::f16_f64(w));
    op3_16(w, d, m, Half::Keep, |a, b, c| {
        mad(a.into(), b.into(), c.into(), F16, m) as u16
    })
}

/// D.f16 = fma(S0, S1, S2) (other half kept, `op_sel`).
fn exec_v_fma_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op3_16(w, d, m, Half::Keep, |a, b, c| fp::fma_f16(a, b, c, m))
}

/// D.f16 = fma(S0, S1, S2) (high half zeroed).
fn exec_v_fma_legacy_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op3_16(w, d, m, Half::Zero, |a, b, c| fp::fma_f16(a, b, c, m))
}

/// D.f16 = min(min(S0, S1), S2).
fn exec_v_min3_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_16(w, d, Fp::f16_f64(w), Half::Keep, |a, b, c| {
        fmin(fmin(a.into(), b.into(), F16, ieee), c.into(), F16, ieee) as u16
    })
}

/// D.f16 = max(max(S0, S1), S2).
fn exec_v_max3_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_16(w, d, Fp::f16_f64(w), Half::Keep, |a, b, c| {
        fmax(fmax(a.into(), b.into(), F16, ieee), c.into(), F16, ieee) as u16
    })
}

/// D.f16 = median(S0, S1, S2).
fn exec_v_med3_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op3_16(w, d, Fp::f16_f64(w), Half::Keep, |a, b, c| {
        med3(a.into(), b.into(), c.into(), F16, ieee) as u16
    })
}

/// D.f16 = S0 × 2^S1.i16.
fn exec_v_ldexp_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let (a, n) = (s16(w, d, 0), sint(w, d, 1));
    let r = map2(w.exec(), &a, &n, |a, n| {
        fp::ldexp_soft(a.into(), i32::from(n as i16), F16, m) as u32
    });
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}

// ---------------------------------------------------------------------------
// f64 arithmetic.

/// D.f64 = S0 + S1.
fn exec_v_add_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_64(w, d, m, |a, b| fp::add_f64(a, b, m))
}

/// D.f64 = S0 × S1.
fn exec_v_mul_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op2_64(w, d, m, |a, b| fp::mul_f64(a, b, m))
}

/// D.f64 = min(S0, S1).
fn exec_v_min_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_64(w, d, Fp::f16_f64(w), |a, b| fmin(a, b, F64, ieee))
}

/// D.f64 = max(S0, S1).
fn exec_v_max_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ieee = w.ieee();
    op2_64(w, d, Fp::f16_f64(w), |a, b| fmax(a, b, F64, ieee))
}

/// D.f64 = fma(S0, S1, S2).
fn exec_v_fma_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op3_64(w, d, m, |a, b, c| fp::fma_f64(a, b, c, m))
}

/// D.f64 = fma(S0, S1, D).
fn exec_v_fmac_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let (a, b) = (s64(w, d, 0), s64(w, d, 1));
    let c = w.lanes64(d.op(0), Ty::F64);
    let r = map3(w.exec(), &a, &b, &c, |a, b, c| fp::fma_f64(a, b, c, m));
    finish64(w, d, m, r);
    Ok(())
}

/// D.f64 = S0 × 2^S1.i32.
fn exec_v_ldexp_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let a = s64(w, d, 0);
    let n = sint(w, d, 1);
    let exec = w.exec();
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = fp::ldexp_soft(a[l], n[l] as i32, F64, m);
        }
    }
    finish64(w, d, m, r);
    Ok(())
}

// ---------------------------------------------------------------------------
// Integral rounding, fract, frexp.

/// D = S0 + −floor(S0) (f32, rounded per mode, at most 0x3f7fffff).
fn exec_v_fract_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| fp::fract_soft(a.into(), F32, m) as u32)
}

/// D = trunc(S0) (f32).
fn exec_v_trunc_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| round_int(a.into(), F32, m, f64::trunc) as u32)
}

/// D = ceil(S0) (f32).
fn exec_v_ceil_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| round_int(a.into(), F32, m, f64::ceil) as u32)
}

/// D = floor(S0) (f32).
fn exec_v_floor_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| round_int(a.into(), F32, m, f64::floor) as u32)
}

/// D = S0 rounded to the nearest integer, ties to even (f32; −0.25 → −0).
fn exec_v_rndne_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| {
        round_int(a.into(), F32, m, f64::round_ties_even) as u32
    })
}

/// D.f16 = S0 + −floor(S0) (at most 0x3bff).
fn exec_v_fract_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| fp::fract_soft(a.into(), F16, m) as u16)
}

/// D.f16 = trunc(S0).
fn exec_v_trunc_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| round_int(a.into(), F16, m, f64::trunc) as u16)
}

/// D.f16 = ceil(S0).
fn exec_v_ceil_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| round_int(a.into(), F16, m, f64::ceil) as u16)
}

/// D.f16 = floor(S0).
fn exec_v_floor_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| round_int(a.into(), F16, m, f64::floor) as u16)
}

/// D.f16 = S0 rounded to the nearest integer, ties to even.
fn exec_v_rndne_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| {
        round_int(a.into(), F16, m, f64::round_ties_even) as u16
    })
}

/// D.f64 = S0 + −floor(S0) (at most 0x3fefffffffffffff).
fn exec_v_fract_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| fp::fract_soft(a, F64, m))
}

/// D.f64 = trunc(S0).
fn exec_v_trunc_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| round_int(a, F64, m, f64::trunc))
}

/// D.f64 = ceil(S0).
fn exec_v_ceil_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| round_int(a, F64, m, f64::ceil))
}

/// D.f64 = floor(S0).
fn exec_v_floor_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| round_int(a, F64, m, f64::floor))
}

/// D.f64 = S0 rounded to the nearest integer, ties to even.
fn exec_v_rndne_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| round_int(a, F64, m, f64::round_ties_even))
}

/// frexp significand of `x`, or `x` itself for ±0, ±∞ and NaN.
#[inline]
fn frexp_mant(x: u64, f: Fmt, flush: bool) -> u64 {
    match fp::frexp_soft(x, f, flush) {
        Some((m, _)) => m,
        None if flush && f.is_denorm(x) => x & f.sign(),
        None => x,
    }
}

/// frexp exponent of `x`, 0 for ±0, ±∞ and NaN.
#[inline]
fn frexp_exp(x: u64, f: Fmt, flush: bool) -> i32 {
    fp::frexp_soft(x, f, flush).map_or(0, |(_, e)| e)
}

/// D = mantissa(S0) in ±[0.5, 1) (f32; ±∞ and NaN returned as is).
fn exec_v_frexp_mant_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    op1_32(w, d, m, |a| frexp_mant(a.into(), F32, m.flush_in) as u32)
}

/// D.i32 = exponent(S0) − 126 (0 for ±∞ and NaN).
fn exec_v_frexp_exp_i32_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let flush = Fp::f32(w).flush_in;
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| frexp_exp(a.into(), F32, flush) as u32);
    write_int(w, d, r);
    Ok(())
}

/// D.f16 = mantissa(S0).
fn exec_v_frexp_mant_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| frexp_mant(a.into(), F16, m.flush_in) as u16)
}

/// D.i16 = exponent(S0) − 14 (0 for ±∞ and NaN; high half zeroed).
fn exec_v_frexp_exp_i16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let flush = Fp::f16_f64(w).flush_in;
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        u32::from(frexp_exp(a.into(), F16, flush) as u16)
    });
    write16(w, d, r, Half::Zero);
    Ok(())
}

/// D.f64 = mantissa(S0).
fn exec_v_frexp_mant_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| frexp_mant(a, F64, m.flush_in))
}

/// D.i32 = exponent(S0.f64) − 1022 (0 for ±∞ and NaN).
fn exec_v_frexp_exp_i32_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let flush = Fp::f16_f64(w).flush_in;
    let a = s64(w, d, 0);
    let r = map(w.exec(), &a, |a| frexp_exp(a, F64, flush) as u32);
    write_int(w, d, r);
    Ok(())
}

// ---------------------------------------------------------------------------
// Transcendentals.

/// The mode of the f32 transcendentals: nearest, denormals flushed.
#[inline]
fn trans32_mode(w: &Wave) -> Fp {
    flushed(Fp::f32(w).nearest())
}

/// D = 1 / S0 (f32, correctly rounded; denormals flushed); also
/// `v_rcp_iflag_f32`.
fn exec_v_rcp_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = trans32_mode(w);
    op1_32(w, d, Fp::f32(w), |a| fp::div_f32(0x3f80_0000, a, m))
}

/// D = 1 / √S0 (f32).
fn exec_v_rsq_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = trans32_mode(w);
    op1_32(w, d, Fp::f32(w), |a| trans(a.into(), F32, m, rsq) as u32)
}

/// D = √S0 (f32, correctly rounded; denormals flushed).
fn exec_v_sqrt_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = trans32_mode(w);
    op1_32(w, d, Fp::f32(w), |a| fp::sqrt_f32(a, m))
}

/// D = 2^S0 (f32); also `v_exp_legacy_f32`.
fn exec_v_exp_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = trans32_mode(w);
    op1_32(w, d, Fp::f32(w), |a| {
        trans(a.into(), F32, m, f64::exp2) as u32
    })
}

/// D = log2(S0) (f32); also `v_log_legacy_f32`.
fn exec_v_log_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = trans32_mode(w);
    op1_32(w, d, Fp::f32(w), |a| {
        trans(a.into(), F32, m, f64::log2) as u32
    })
}

/// D = sin(2π·S0) (f32; denormal inputs kept).
fn exec_v_sin_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w).nearest();
    op1_32(w, d, Fp::f32(w), |a| {
        trans(a.into(), F32, m, |x| sincos_rev(x, false)) as u32
    })
}

/// D = cos(2π·S0) (f32).
fn exec_v_cos_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w).nearest();
    op1_32(w, d, Fp::f32(w), |a| {
        trans(a.into(), F32, m, |x| sincos_rev(x, true)) as u32
    })
}

/// D.f16 = 1 / S0 (correctly rounded).
fn exec_v_rcp_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| fp::div_f16(0x3c00, a, m.nearest()))
}

/// D.f16 = 1 / √S0.
fn exec_v_rsq_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| trans(a.into(), F16, m.nearest(), rsq) as u16)
}

/// D.f16 = √S0 (correctly rounded).
fn exec_v_sqrt_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| fp::sqrt_f16(a, m.nearest()))
}

/// D.f16 = 2^S0.
fn exec_v_exp_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| {
        trans(a.into(), F16, m.nearest(), f64::exp2) as u16
    })
}

/// D.f16 = log2(S0).
fn exec_v_log_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| {
        trans(a.into(), F16, m.nearest(), f64::log2) as u16
    })
}

/// D.f16 = sin(2π·S0).
fn exec_v_sin_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| {
        trans(a.into(), F16, m.nearest(), |x| sincos_rev(x, false)) as u16
    })
}

/// D.f16 = cos(2π·S0).
fn exec_v_cos_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_16(w, d, m, |a| {
        trans(a.into(), F16, m.nearest(), |x| sincos_rev(x, true)) as u16
    })
}

/// D.f64 = 1 / S0 (correctly rounded).
fn exec_v_rcp_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| {
        fp::div_f64(0x3ff0_0000_0000_0000, a, m.nearest())
    })
}

/// D.f64 = 1 / √S0 (√ then division, each rounded to nearest).
fn exec_v_rsq_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w).nearest();
    op1_64(w, d, m, |a| {
        fp::div_f64(0x3ff0_0000_0000_0000, fp::sqrt_f64(a, m), m)
    })
}

/// D.f64 = √S0 (correctly rounded).
fn exec_v_sqrt_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    op1_64(w, d, m, |a| fp::sqrt_f64(a, m.nearest()))
}

// ---------------------------------------------------------------------------
// Conversions.

/// A mode taking input flushing from `input` and rounding and output
/// flushing from `output`.
#[inline]
fn cvt_mode(input: Fp, output: Fp) -> Fp {
    Fp {
        flush_in: input.flush_in,
        ..output
    }
}

/// Float `x` of format `f` to a signed integer in [lo, hi], truncating;
/// NaN gives 0, out-of-range values saturate.
#[inline]
fn to_int(x: u64, f: Fmt, lo: i64, hi: i64) -> i64 {
    let v = to_f64(x, f);
    if v.is_nan() {
        0
    } else {
        (v.trunc() as i64).clamp(lo, hi)
    }
}

/// D.f32 = (float)S0.i32, rounded per mode.
fn exec_v_cvt_f32_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        let v = a as i32;
        fp::int_to_f32(v < 0, u128::from(v.unsigned_abs()), 0, m)
    });
    finish32(w, d, m, r);
    Ok(())
}

/// D.f32 = (float)S0.u32, rounded per mode.
fn exec_v_cvt_f32_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| fp::int_to_f32(false, u128::from(a), 0, m));
    finish32(w, d, m, r);
    Ok(())
}

/// D.i32 = (int)S0.f32, toward zero, saturating, NaN → 0.
fn exec_v_cvt_i32_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        to_int(a.into(), F32, i32::MIN.into(), i32::MAX.into()) as u32
    });
    write_int(w, d, r);
    Ok(())
}

/// D.u32 = (uint)S0.f32, toward zero, saturating, NaN → 0.
fn exec_v_cvt_u32_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        to_int(a.into(), F32, 0, u32::MAX.into()) as u32
    });
    write_int(w, d, r);
    Ok(())
}

/// D.i32 = (int)floor(S0.f32 + 0.5), saturating, NaN → 0.
fn exec_v_cvt_rpi_i32_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        // S0 + 0.5 is exact in f64 for every f32.
        let v = (to_f64(a.into(), F32) + 0.5).floor();
        to_int(v.to_bits(), F64, i32::MIN.into(), i32::MAX.into()) as u32
    });
    write_int(w, d, r);
    Ok(())
}

/// D.i32 = (int)floor(S0.f32), saturating, NaN → 0.
fn exec_v_cvt_flr_i32_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        let v = to_f64(a.into(), F32).floor();
        to_int(v.to_bits(), F64, i32::MIN.into(), i32::MAX.into()) as u32
    });
    write_int(w, d, r);
    Ok(())
}

/// D.f32 = S0[3:0] as a signed 4-bit value / 16 (−0.5 … 0.4375).
fn exec_v_cvt_off_f32_i4(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        let v = ((a << 28) as i32 >> 28) as f32 / 16.0;
        v.to_bits()
    });
    finish32(w, d, Fp::f32(w), r);
    Ok(())
}

/// D.f32 = (float)S0.u8[byte].
fn cvt_ubyte(w: &mut Wave, d: &Decoded, byte: u32) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| ((a >> (8 * byte)) as u8 as f32).to_bits());
    finish32(w, d, Fp::f32(w), r);
    Ok(())
}

/// D.f32 = (float)S0[7:0].
fn exec_v_cvt_f32_ubyte0(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cvt_ubyte(w, d, 0)
}
/// D.f32 = (float)S0[15:8].
fn exec_v_cvt_f32_ubyte1(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cvt_ubyte(w, d, 1)
}
/// D.f32 = (float)S0[23:16].
fn exec_v_cvt_f32_ubyte2(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cvt_ubyte(w, d, 2)
}
/// D.f32 = (float)S0[31:24].
fn exec_v_cvt_f32_ubyte3(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cvt_ubyte(w, d, 3)
}

/// D.f16 = (half)S0.f32, rounded and flushed per the f16 mode.
fn exec_v_cvt_f16_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = cvt_mode(Fp::f32(w), Fp::f16_f64(w));
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| u32::from(fp::f32_to_f16(a, m)));
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}

/// D.f32 = (float)S0.f16 (exact; input flushed per the f16 mode).
fn exec_v_cvt_f32_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = cvt_mode(Fp::f16_f64(w), Fp::f32(w));
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| fp::f16_to_f32(a as u16, m));
    finish32(w, d, m, r);
    Ok(())
}

/// D.f32 = (float)S0.f64, rounded per the f32 mode.
fn exec_v_cvt_f32_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = cvt_mode(Fp::f16_f64(w), Fp::f32(w));
    let a = s64(w, d, 0);
    let r = map(w.exec(), &a, |a| fp::f64_to_f32(a, m));
    finish32(w, d, m, r);
    Ok(())
}

/// D.f64 = (double)S0.f32 (exact).
fn exec_v_cvt_f64_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = cvt_mode(Fp::f32(w), Fp::f16_f64(w));
    let a = s32(w, d, 0);
    let r = map(w.exec(), &a, |a| fp::f32_to_f64(a, m));
    finish64(w, d, m, r);
    Ok(())
}

/// D.f64 = (double)S0.i32 (exact).
fn exec_v_cvt_f64_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| f64::from(a as i32).to_bits());
    finish64(w, d, Fp::f16_f64(w), r);
    Ok(())
}

/// D.f64 = (double)S0.u32 (exact).
fn exec_v_cvt_f64_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| f64::from(a).to_bits());
    finish64(w, d, Fp::f16_f64(w), r);
    Ok(())
}

/// D.i32 = (int)S0.f64, toward zero, saturating, NaN → 0.
fn exec_v_cvt_i32_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s64(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        to_int(a, F64, i32::MIN.into(), i32::MAX.into()) as u32
    });
    write_int(w, d, r);
    Ok(())
}

/// D.u32 = (uint)S0.f64, toward zero, saturating, NaN → 0.
fn exec_v_cvt_u32_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s64(w, d, 0);
    let r = map(w.exec(), &a, |a| to_int(a, F64, 0, u32::MAX.into()) as u32);
    write_int(w, d, r);
    Ok(())
}

/// D.f16 = (half)S0.u16, rounded per the f16 mode.
fn exec_v_cvt_f16_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        u32::from(fp::int_to_f16(false, u128::from(a as u16), 0, m))
    });
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}

/// D.f16 = (half)S0.i16, rounded per the f16 mode.
fn exec_v_cvt_f16_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        let v = a as i16;
        u32::from(fp::int_to_f16(v < 0, u128::from(v.unsigned_abs()), 0, m))
    });
    finish16(w, d, m, r, Half::Zero);
    Ok(())
}

/// D.u16 = (ushort)S0.f16, toward zero, saturating, NaN → 0.
fn exec_v_cvt_u16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| to_int(a.into(), F16, 0, 0xffff) as u32);
    write16(w, d, r, Half::Zero);
    Ok(())
}

/// D.i16 = (short)S0.f16, toward zero, saturating, NaN → 0.
fn exec_v_cvt_i16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        u32::from(to_int(a.into(), F16, i16::MIN.into(), i16::MAX.into()) as u16)
    });
    write16(w, d, r, Half::Zero);
    Ok(())
}

/// Float `x` of format `f` to a normalized 16-bit integer: clamped to
/// [−1, 1] (`signed`) or [0, 1], scaled by 32767 or 65535, rounded to
/// nearest even; NaN → 0.
#[inline]
fn to_norm16(x: u64, f: Fmt, signed: bool) -> u32 {
    let v = to_f64(x, f);
    if v.is_nan() {
        return 0;
    }
    if signed {
        let s = (v.clamp(-1.0, 1.0) * 32767.0).round_ties_even();
        u32::from(s as i16 as u16)
    } else {
        u32::from((v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16)
    }
}

/// D.i16 = snorm16(S0.f16).
fn exec_v_cvt_norm_i16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| to_norm16(a.into(), F16, true));
    write16(w, d, r, Half::Zero);
    Ok(())
}

/// D.u16 = unorm16(S0.f16).
fn exec_v_cvt_norm_u16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s16(w, d, 0);
    let r = map(w.exec(), &a, |a| to_norm16(a.into(), F16, false));
    write16(w, d, r, Half::Zero);
    Ok(())
}

/// D = { f16(S1) , f16(S0) } converted with round toward zero.
fn exec_v_cvt_pkrtz_f16_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = cvt_mode(Fp::f32(w), Fp::f16_f64(w)).with_round(Round::TowardZero);
    let (a, b) = (s32(w, d, 0), s32(w, d, 1));
    let r = map2(w.exec(), &a, &b, |a, b| {
        u32::from(fp::f32_to_f16(a, m)) | u32::from(fp::f32_to_f16(b, m)) << 16
    });
    write_int(w, d, r);
    Ok(())
}

/// Packs two normalized 16-bit conversions of sources 0 and 1.
fn pknorm(w: &mut Wave, d: &Decoded, f: Fmt, signed: bool) -> R {
    let (a, b) = if f == F16 {
        (s16(w, d, 0), s16(w, d, 1))
    } else {
        (s32(w, d, 0), s32(w, d, 1))
    };
    let r = map2(w.exec(), &a, &b, |a, b| {
        to_norm16(a.into(), f, signed) | to_norm16(b.into(), f, signed) << 16
    });
    write_int(w, d, r);
    Ok(())
}

/// D = { snorm16(S1.f32), snorm16(S0.f32) }.
fn exec_v_cvt_pknorm_i16_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    pknorm(w, d, F32, true)
}
/// D = { unorm16(S1.f32), unorm16(S0.f32) }.
fn exec_v_cvt_pknorm_u16_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    pknorm(w, d, F32, false)
}
/// D = { snorm16(S1.f16), snorm16(S0.f16) } (`op_sel` picks source halves).
fn exec_v_cvt_pknorm_i16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    pknorm(w, d, F16, true)
}
/// D = { unorm16(S1.f16), unorm16(S0.f16) }.
fn exec_v_cvt_pknorm_u16_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    pknorm(w, d, F16, false)
}

/// f32 → u8: rounded to nearest even, saturating, NaN → 0.
#[inline]
fn to_u8(x: u32) -> u32 {
    let v = f64::from(f32::from_bits(x));
    if v.is_nan() {
        0
    } else {
        v.clamp(0.0, 255.0).round_ties_even() as u32
    }
}

/// D = (S2 & ~(0xff << 8·S1[1:0])) | u8(S0.f32) << 8·S1[1:0].
fn exec_v_cvt_pk_u8_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let (b, c) = (sint(w, d, 1), sint(w, d, 2));
    let r = map3(w.exec(), &a, &b, &c, |a, b, c| {
        let sh = 8 * (b & 3);
        c & !(0xff << sh) | to_u8(a) << sh
    });
    write_int(w, d, r);
    Ok(())
}

/// D.u8[S1[1:0]] = u8(S0.f32), the other bytes of D kept.
fn exec_v_cvt_pkaccum_u8_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = s32(w, d, 0);
    let b = sint(w, d, 1);
    let c = w.lanes(d.op(0), Ty::B32);
    let r = map3(w.exec(), &a, &b, &c, |a, b, c| {
        let sh = 8 * (b & 3);
        c & !(0xff << sh) | to_u8(a) << sh
    });
    write_int(w, d, r);
    Ok(())
}

/// D = { S1.f16, S0.f16 } (halves by `op_sel`, modifiers applied).
fn exec_v_pack_b32_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let (a, b) = (s16(w, d, 0), s16(w, d, 1));
    let r = map2(w.exec(), &a, &b, |a, b| a | b << 16);
    write_int(w, d, r);
    Ok(())
}

/// An 8-bit float (gfx942 FNUZ formats: no infinities, 0x80 is the NaN)
/// with `ebits` exponent bits and exponent bias `bias`, as f32 (exact).
#[inline]
fn f8_to_f32(x: u32, ebits: u32, bias: i32) -> u32 {
    let x = x & 0xff;
    if x == 0x80 {
        return fp::NAN_F32;
    }
    let mbits = 7 - ebits;
    let e = (x >> mbits & ((1 << ebits) - 1)) as i32;
    let mant = x & ((1 << mbits) - 1);
    let (sig, exp) = if e == 0 {
        (mant, 1 - bias - mbits as i32)
    } else {
        (mant | 1 << mbits, e - bias - mbits as i32)
    };
    fp::int_to_f32(x & 0x80 != 0, u128::from(sig), exp, Fp::IEEE)
}

/// FP8 (E4M3, bias 8) → f32.
#[inline]
fn fp8(x: u32) -> u32 {
    f8_to_f32(x, 4, 8)
}

/// BF8 (E5M2, bias 16) → f32.
#[inline]
fn bf8(x: u32) -> u32 {
    f8_to_f32(x, 5, 16)
}

/// D.f32 = fp8(S0 byte) (the SDWA source select picks the byte).
fn exec_v_cvt_f32_fp8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, fp8);
    finish32(w, d, Fp::f32(w), r);
    Ok(())
}

/// D.f32 = bf8(S0 byte).
fn exec_v_cvt_f32_bf8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, bf8);
    finish32(w, d, Fp::f32(w), r);
    Ok(())
}

/// D[1:0].f32 = { fp8(S0[15:8]), fp8(S0[7:0]) } (SDWA picks the word).
fn exec_v_cvt_pk_f32_fp8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        u64::from(fp8(a)) | u64::from(fp8(a >> 8)) << 32
    });
    finish64_raw(w, d, r);
    Ok(())
}

/// D[1:0].f32 = { bf8(S0[15:8]), bf8(S0[7:0]) }.
fn exec_v_cvt_pk_f32_bf8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = sint(w, d, 0);
    let r = map(w.exec(), &a, |a| {
        u64::from(bf8(a)) | u64::from(bf8(a >> 8)) << 32
    });
    finish64_raw(w, d, r);
    Ok(())
}

/// Writes 64-bit raw results.
fn finish64_raw(w: &mut Wave, d: &Decoded, r: [u64; LANES]) {
    write_dst64(w, d, 0, &r);
}

// ---------------------------------------------------------------------------
// Division helpers.

/// Biased exponent field of `x`.
#[inline]
fn efield(x: u64, f: Fmt) -> i32 {
    (x >> f.mbits & ((1 << f.ebits) - 1)) as i32
}

/// `v_div_scale` of format `f`: S0 scaled by 2^±`k` when the division
/// S2 / S1 needs it, and whether the quotient must be post-scaled. The
/// ISA's chain with its exponent-difference threshold `big` (96, 768) and
/// "tiny numerator" threshold `tiny` (23, 53); "1/S1 is denormal" is
/// |S1| > 2^(emax − 1) and "S2/S1 is denormal" is decided exactly (a
/// toward-zero quotient below the smallest normal).
pub fn div_scale(s0: u64, s1: u64, s2: u64, f: Fmt) -> (u64, bool) {
    let (k, big, tiny) = if f == F64 {
        (128, 768, 53)
    } else {
        (64, 96, 23)
    };
    let (e1, e2) = (efield(s1, f), efield(s2, f));
    let abs = |x: u64| x & !f.sign();
    if abs(s1) == 0 || abs(s2) == 0 {
        return (f.default_nan(), false);
    }
    let exact = Fp::IEEE;
    let up = |x: u64| fp::ldexp_soft(x, k, f, exact);
    let down = |x: u64| fp::ldexp_soft(x, -k, f, exact);
    if f.is_nan(s0) || f.is_nan(s1) || f.is_nan(s2) {
        return (s0, false);
    }
    // |S1| > 2^(emax−1): its reciprocal is denormal.
    let rcp_denorm = abs(s1) > ((f.bias() as u64 * 2 - 1) << f.mbits);
    let q_denorm = || {
        let q = fp::div_soft(s2, s1, f, exact.with_round(Round::TowardZero));
        efield(q, f) == 0
    };
    if e2 - e1 >= big {
        (if s0 == s1 { up(s0) } else { s0 }, true)
    } else if e1 == 0 {
        (up(s0), false)
    } else if rcp_denorm && q_denorm() {
        // Scale the denominator down so that the quotient is normal; the
        // ISA text's ldexp(S0, 64) here would overflow the denominator.
        (if s0 == s1 { down(s0) } else { s0 }, true)
    } else if rcp_denorm {
        (down(s0), false)
    } else if q_denorm() {
        (if s0 == s2 { up(s0) } else { s0 }, true)
    } else if e2 <= tiny {
        (up(s0), false)
    } else {
        (s0, false)
    }
}

/// `v_div_fmas` of format `f`: fma(S0, S1, S2), scaled by 2^±k (once
/// rounded) when `vcc`: up when S2 (the quotient) is ≥ 2, else down.
pub fn div_fmas(a: u64, b: u64, c: u64, vcc: bool, f: Fmt, m: Fp) -> u64 {
    if !vcc {
        return fp::fma_scaled(a, b, c, 0, f, m);
    }
    let k = if f == F64 { 128 } else { 64 };
    let scale = if efield(c, f) > f.bias() { k } else { -k };
    fp::fma_scaled(a, b, c, scale, f, m)
}

/// `v_div_fixup` of format `f`: S0 (quotient) with the special cases of
/// S2 / S1 applied. `underflow` is the exponent-difference limit (−150,
/// −1075; `None` for f16).
pub fn div_fixup(q: u64, den: u64, num: u64, f: Fmt, underflow: Option<i32>) -> u64 {
    let s = f.sign();
    let sign = (den ^ num) & s;
    let (da, na) = (den & !s, num & !s);
    let inf = f.inf(false);
    if f.is_nan(num) {
        num | f.quiet()
    } else if f.is_nan(den) {
        den | f.quiet()
    } else if (da == 0 && na == 0) || (da == inf && na == inf) {
        f.default_nan()
    } else if da == 0 || na == inf {
        sign | inf
    } else if da == inf || na == 0 || underflow.is_some_and(|u| efield(num, f) - efield(den, f) < u)
    {
        // x/∞, 0/y, or a quotient below the smallest denormal.
        sign
    } else if f.is_nan(q) {
        sign | inf
    } else {
        sign | q & !s
    }
}

/// D, VCC/SDST = div_scale(S0, S1, S2) (f32).
fn exec_v_div_scale_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    div_scale_lanes(w, d, F32)
}

/// D, VCC/SDST = div_scale(S0, S1, S2) (f64).
fn exec_v_div_scale_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    div_scale_lanes(w, d, F64)
}

fn div_scale_lanes(w: &mut Wave, d: &Decoded, f: Fmt) -> R {
    let exec = w.exec();
    let mut mask = 0u64;
    if f == F64 {
        let (a, b, c) = (s64(w, d, 0), s64(w, d, 1), s64(w, d, 2));
        let mut r = [0u64; LANES];
        for l in 0..LANES {
            if exec >> l & 1 != 0 {
                let (v, flag) = div_scale(a[l], b[l], c[l], F64);
                r[l] = v;
                mask |= u64::from(flag) << l;
            }
        }
        write_dst64(w, d, 0, &r);
    } else {
        let (a, b, c) = (s32(w, d, 0), s32(w, d, 1), s32(w, d, 2));
        let mut r = [0u32; LANES];
        for l in 0..LANES {
            if exec >> l & 1 != 0 {
                let (v, flag) = div_scale(a[l].into(), b[l].into(), c[l].into(), F32);
                r[l] = v as u32;
                mask |= u64::from(flag) << l;
            }
        }
        write_dst(w, d, 0, &r);
    }
    super::valu::write_mask(w, d, 1, mask);
    Ok(())
}

/// D = fma(S0, S1, S2), post-scaled where VCC is set (f32).
fn exec_v_div_fmas_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f32(w);
    let vcc = w.vcc();
    let (a, b, c) = (s32(w, d, 0), s32(w, d, 1), s32(w, d, 2));
    let exec = w.exec();
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = div_fmas(
                a[l].into(),
                b[l].into(),
                c[l].into(),
                vcc >> l & 1 != 0,
                F32,
                m,
            ) as u32;
        }
    }
    finish32(w, d, m, r);
    Ok(())
}

/// D = fma(S0, S1, S2), post-scaled where VCC is set (f64).
fn exec_v_div_fmas_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = Fp::f16_f64(w);
    let vcc = w.vcc();
    let (a, b, c) = (s64(w, d, 0), s64(w, d, 1), s64(w, d, 2));
    let exec = w.exec();
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = div_fmas(a[l], b[l], c[l], vcc >> l & 1 != 0, F64, m);
        }
    }
    finish64(w, d, m, r);
    Ok(())
}

/// D = div_fixup(S0 quotient, S1 denominator, S2 numerator) (f32).
fn exec_v_div_fixup_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    op3_32(w, d, Fp::f32(w), |q, den, num| {
        div_fixup(q.into(), den.into(), num.into(), F32, Some(-150)) as u32
    })
}

/// D = div_fixup(S0, S1, S2) (f64).
fn exec_v_div_fixup_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    op3_64(w, d, Fp::f16_f64(w), |q, den, num| {
        div_fixup(q, den, num, F64, Some(-1075))
    })
}

/// D.f16 = div_fixup(S0, S1, S2) (other half kept, `op_sel`).
fn exec_v_div_fixup_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    op3_16(w, d, Fp::f16_f64(w), Half::Keep, |q, den, num| {
        div_fixup(q.into(), den.into(), num.into(), F16, None) as u16
    })
}

/// D.f16 = div_fixup(S0, S1, S2) (high half zeroed).
fn exec_v_div_fixup_legacy_f16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    op3_16(w, d, Fp::f16_f64(w), Half::Zero, |q, den, num| {
        div_fixup(q.into(), den.into(), num.into(), F16, None) as u16
    })
}

// ---------------------------------------------------------------------------
// Cube map helpers (ISA pseudo-code; S0, S1, S2 = x, y, z).

/// Which axis of (x, y, z) is major: 2 (z), 1 (y) or 0 (x).
#[inline]
fn cube_axis(x: f32, y: f32, z: f32) -> u32 {
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}

fn cube(w: &mut Wave, d: &Decoded, f: fn(f32, f32, f32) -> f32) -> R {
    let m = Fp::f32(w);
    op3_32(w, d, m, |a, b, c| {
        f(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits()
    })
}

/// D = cube face id (0–5) of (S0, S1, S2).
fn exec_v_cubeid_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cube(w, d, |x, y, z| {
        let (axis, v) = match cube_axis(x, y, z) {
            2 => (2, z),
            1 => (1, y),
            _ => (0, x),
        };
        (2 * axis + u32::from(v < 0.0)) as f32
    })
}

/// D = cube map S coordinate of (S0, S1, S2).
fn exec_v_cubesc_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cube(w, d, |x, y, z| match cube_axis(x, y, z) {
        2 => {
            if z < 0.0 {
                -x
            } else {
                x
            }
        }
        1 => x,
        _ => {
            if x < 0.0 {
                z
            } else {
                -z
            }
        }
    })
}

/// D = cube map T coordinate of (S0, S1, S2).
fn exec_v_cubetc_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cube(w, d, |x, y, z| match cube_axis(x, y, z) {
        1 => {
            if y < 0.0 {
                -z
            } else {
                z
            }
        }
        _ => -y,
    })
}

/// D = 2 × the major axis of (S0, S1, S2).
fn exec_v_cubema_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cube(w, d, |x, y, z| {
        2.0 * match cube_axis(x, y, z) {
            2 => z,
            1 => y,
            _ => x,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LLVM's f32 division expansion (`SITargetLowering::LowerFDIV32`) run
    /// through the emulator's helpers gives the correctly rounded quotient.
    fn llvm_fdiv32(n: u32, dn: u32) -> u32 {
        let m = Fp::IEEE;
        let (den_s, _) = div_scale(dn.into(), dn.into(), n.into(), F32);
        let (num_s, vcc) = div_scale(n.into(), dn.into(), n.into(), F32);
        let (den_s, num_s) = (den_s as u32, num_s as u32);
        let rcp = fp::div_f32(0x3f80_0000, den_s, flushed(m));
        let neg = den_s ^ 0x8000_0000;
        let fma0 = fp::fma_f32(neg, rcp, 0x3f80_0000, m);
        let fma1 = fp::fma_f32(fma0, rcp, rcp, m);
        let mul = fp::mul_f32(num_s, fma1, m);
        let fma2 = fp::fma_f32(neg, mul, num_s, m);
        let fma3 = fp::fma_f32(fma2, fma1, mul, m);
        let fma4 = fp::fma_f32(neg, fma3, num_s, m);
        let fmas = div_fmas(fma4.into(), fma1.into(), fma3.into(), vcc, F32, m) as u32;
        div_fixup(fmas.into(), dn.into(), n.into(), F32, Some(-150)) as u32
    }

    #[test]
    fn division_sequence_is_correctly_rounded() {
        let mut s = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for i in 0..200_000 {
            let r = next();
            let (mut n, mut dn) = (r as u32, (r >> 32) as u32);
            if i % 3 == 0 {
                // Nearby exponents: ordinary quotients.
                n = n & 0x807f_ffff | (0x3f00_0000 + (n >> 8 & 0x0f80_0000) / 8) & 0x7f80_0000;
                dn = dn & 0x807f_ffff | (0x3f00_0000 + (dn >> 8 & 0x0f80_0000) / 8) & 0x7f80_0000;
            }
            let want = fp::div_f32(n, dn, Fp::IEEE);
            let got = llvm_fdiv32(n, dn);
            let both_nan = F32.is_nan(want.into()) && F32.is_nan(got.into());
            assert!(
                got == want || both_nan,
                "{n:#x} / {dn:#x}: {got:#x} vs {want:#x}"
            );
        }
    }

    #[test]
    fn minmax_ieee_rules() {
        let f = F32;
        // −0 < +0.
        assert_eq!(fmin(0, 0x8000_0000, f, true), 0x8000_0000);
        assert_eq!(fmax(0x8000_0000, 0, f, true), 0);
        // A quiet NaN loses; a signalling one is quieted in IEEE mode.
        assert_eq!(fmin(0x7fc0_0000, 0x3f80_0000, f, true), 0x3f80_0000);
        assert_eq!(fmax(0x3f80_0000, 0x7f80_0001, f, true), 0x7fc0_0001);
        assert_eq!(fmax(0x3f80_0000, 0x7f80_0001, f, false), 0x3f80_0000);
        assert_eq!(
            med3(0x4000_0000, 0x3f80_0000, 0x4040_0000, f, true),
            0x4000_0000
        );
    }

    #[test]
    fn sincos_quarter_turns_are_exact() {
        assert_eq!(sincos_rev(0.25, false), 1.0);
        assert_eq!(sincos_rev(0.25, true).to_bits(), 0);
        assert_eq!(sincos_rev(-0.0, false).to_bits(), (-0.0f64).to_bits());
        assert_eq!(sincos_rev(-3.4e38, true), 1.0);
        assert_eq!(sincos_rev(0.5, false).to_bits(), 0);
    }
}
