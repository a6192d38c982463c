//! Vector compares: VOPC (and their VOP3 and SDWA forms), `v_cmpx_*`
//! (which also write EXEC) and `v_cmp_class_*`.
//!
//! Every compare writes a 64-bit lane mask to its scalar destination (VCC
//! for `_e32`, SDST for `_e64` and SDWA): bit l is the result of lane l,
//! and 0 for lanes EXEC disables. On GFX9 `v_cmpx_*` writes the same mask
//! to both the destination and EXEC.
//!
//! The compare condition is the low bits of the opcode: bit 0 means
//! "true if less", bit 1 "if equal", bit 2 "if greater" and, for floats,
//! bit 3 "if unordered" (a NaN operand), so `lt` = 1, `le` = 3, `nge` = 9
//! (less or unordered), `tru` = 15; integer `ne` is 5 and `t` is 7. Each
//! lookup entry names the condition as a const parameter.
//!
//! Float inputs take the `abs`/`neg` source modifiers (abs first). ±0
//! compare equal. Denormal inputs are compared exactly when MODE keeps
//! input denormals (denorm mode bit 0: MODE[4] for f32, MODE[6] for f16 and
//! f64) and as zero when it flushes them, like the other float
//! instructions' inputs. `v_cmp_class_*` classifies its input as is
//! (denormals are reported as denormals in every mode).

use std::cmp::Ordering;

use amdgpu_isa::gfx9::Op;

use super::valu::{active_lanes, src_k, src_neg_abs, src64_k, src64_neg_abs, write_mask};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a compare.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_CMP_CLASS_F16 => class_f16::<false>,
        Op::V_CMP_CLASS_F32 => class_f32::<false>,
        Op::V_CMP_CLASS_F64 => class_f64::<false>,
        Op::V_CMP_EQ_F16 => cmp_f16::<2, false>,
        Op::V_CMP_EQ_F32 => cmp_f32::<2, false>,
        Op::V_CMP_EQ_F64 => cmp_f64::<2, false>,
        Op::V_CMP_EQ_I16 => cmp_i16::<2, false>,
        Op::V_CMP_EQ_I32 => cmp_i32::<2, false>,
        Op::V_CMP_EQ_I64 => cmp_i64::<2, false>,
        Op::V_CMP_EQ_U16 => cmp_u16::<2, false>,
        Op::V_CMP_EQ_U32 => cmp_u32::<2, false>,
        Op::V_CMP_EQ_U64 => cmp_u64::<2, false>,
        Op::V_CMP_F_F16 => cmp_f16::<0, false>,
        Op::V_CMP_F_F32 => cmp_f32::<0, false>,
        Op::V_CMP_F_F64 => cmp_f64::<0, false>,
        Op::V_CMP_F_I16 => cmp_i16::<0, false>,
        Op::V_CMP_F_I32 => cmp_i32::<0, false>,
        Op::V_CMP_F_I64 => cmp_i64::<0, false>,
        Op::V_CMP_F_U16 => cmp_u16::<0, false>,
        Op::V_CMP_F_U32 => cmp_u32::<0, false>,
        Op::V_CMP_F_U64 => cmp_u64::<0, false>,
        Op::V_CMP_GE_F16 => cmp_f16::<6, false>,
        Op::V_CMP_GE_F32 => cmp_f32::<6, false>,
        Op::V_CMP_GE_F64 => cmp_f64::<6, false>,
        Op::V_CMP_GE_I16 => cmp_i16::<6, false>,
        Op::V_CMP_GE_I32 => cmp_i32::<6, false>,
        Op::V_CMP_GE_I64 => cmp_i64::<6, false>,
        Op::V_CMP_GE_U16 => cmp_u16::<6, false>,
        Op::V_CMP_GE_U32 => cmp_u32::<6, false>,
        Op::V_CMP_GE_U64 => cmp_u64::<6, false>,
        Op::V_CMP_GT_F16 => cmp_f16::<4, false>,
        Op::V_CMP_GT_F32 => cmp_f32::<4, false>,
        Op::V_CMP_GT_F64 => cmp_f64::<4, false>,
        Op::V_CMP_GT_I16 => cmp_i16::<4, false>,
        Op::V_CMP_GT_I32 => cmp_i32::<4, false>,
        Op::V_CMP_GT_I64 => cmp_i64::<4, false>,
        Op::V_CMP_GT_U16 => cmp_u16::<4, false>,
        Op::V_CMP_GT_U32 => cmp_u32::<4, false>,
        Op::V_CMP_GT_U64 => cmp_u64::<4, false>,
        Op::V_CMP_LE_F16 => cmp_f16::<3, false>,
        Op::V_CMP_LE_F32 => cmp_f32::<3, false>,
        Op::V_CMP_LE_F64 => cmp_f64::<3, false>,
        Op::V_CMP_LE_I16 => cmp_i16::<3, false>,
        Op::V_CMP_LE_I32 => cmp_i32::<3, false>,
        Op::V_CMP_LE_I64 => cmp_i64::<3, false>,
        Op::V_CMP_LE_U16 => cmp_u16::<3, false>,
        Op::V_CMP_LE_U32 => cmp_u32::<3, false>,
        Op::V_CMP_LE_U64 => cmp_u64::<3, false>,
        Op::V_CMP_LG_F16 => cmp_f16::<5, false>,
        Op::V_CMP_LG_F32 => cmp_f32::<5, false>,
        Op::V_CMP_LG_F64 => cmp_f64::<5, false>,
        Op::V_CMP_LT_F16 => cmp_f16::<1, false>,
        Op::V_CMP_LT_F32 => cmp_f32::<1, false>,
        Op::V_CMP_LT_F64 => cmp_f64::<1, false>,
        Op::V_CMP_LT_I16 => cmp_i16::<1, false>,
        Op::V_CMP_LT_I32 => cmp_i32::<1, false>,
        Op::V_CMP_LT_I64 => cmp_i64::<1, false>,
        Op::V_CMP_LT_U16 => cmp_u16::<1, false>,
        Op::V_CMP_LT_U32 => cmp_u32::<1, false>,
        Op::V_CMP_LT_U64 => cmp_u64::<1, false>,
        Op::V_CMP_NEQ_F16 => cmp_f16::<13, false>,
        Op::V_CMP_NEQ_F32 => cmp_f32::<13, false>,
        Op::V_CMP_NEQ_F64 => cmp_f64::<13, false>,
        Op::V_CMP_NE_I16 => cmp_i16::<5, false>,
        Op::V_CMP_NE_I32 => cmp_i32::<5, false>,
        Op::V_CMP_NE_I64 => cmp_i64::<5, false>,
        Op::V_CMP_NE_U16 => cmp_u16::<5, false>,
        Op::V_CMP_NE_U32 => cmp_u32::<5, false>,
        Op::V_CMP_NE_U64 => cmp_u64::<5, false>,
        Op::V_CMP_NGE_F16 => cmp_f16::<9, false>,
        Op::V_CMP_NGE_F32 => cmp_f32::<9, false>,
        Op::V_CMP_NGE_F64 => cmp_f64::<9, false>,
        Op::V_CMP_NGT_F16 => cmp_f16::<11, false>,
        Op::V_CMP_NGT_F32 => cmp_f32::<11, false>,
        Op::V_CMP_NGT_F64 => cmp_f64::<11, false>,
        Op::V_CMP_NLE_F16 => cmp_f16::<12, false>,
        Op::V_CMP_NLE_F32 => cmp_f32::<12, false>,
        Op::V_CMP_NLE_F64 => cmp_f64::<12, false>,
        Op::V_CMP_NLG_F16 => cmp_f16::<10, false>,
        Op::V_CMP_NLG_F32 => cmp_f32::<10, false>,
        Op::V_CMP_NLG_F64 => cmp_f64::<10, false>,
        Op::V_CMP_NLT_F16 => cmp_f16::<14, false>,
        Op::V_CMP_NLT_F32 => cmp_f32::<14, false>,
        Op::V_CMP_NLT_F64 => cmp_f64::<14, false>,
        Op::V_CMP_O_F16 => cmp_f16::<7, false>,
        Op::V_CMP_O_F32 => cmp_f32::<7, false>,
        Op::V_CMP_O_F64 => cmp_f64::<7, false>,
        Op::V_CMP_TRU_F16 => cmp_f16::<15, false>,
        Op::V_CMP_TRU_F32 => cmp_f32::<15, false>,
        Op::V_CMP_TRU_F64 => cmp_f64::<15, false>,
        Op::V_CMP_T_I16 => cmp_i16::<7, false>,
        Op::V_CMP_T_I32 => cmp_i32::<7, false>,
        Op::V_CMP_T_I64 => cmp_i64::<7, false>,
        Op::V_CMP_T_U16 => cmp_u16::<7, false>,
        Op::V_CMP_T_U32 => cmp_u32::<7, false>,
        Op::V_CMP_T_U64 => cmp_u64::<7, false>,
        Op::V_CMP_U_F16 => cmp_f16::<8, false>,
        Op::V_CMP_U_F32 => cmp_f32::<8, false>,
        Op::V_CMP_U_F64 => cmp_f64::<8, false>,
        Op::V_CMPX_CLASS_F16 => class_f16::<true>,
        Op::V_CMPX_CLASS_F32 => class_f32::<true>,
        Op::V_CMPX_CLASS_F64 => class_f64::<true>,
        Op::V_CMPX_EQ_F16 => cmp_f16::<2, true>,
        Op::V_CMPX_EQ_F32 => cmp_f32::<2, true>,
        Op::V_CMPX_EQ_F64 => cmp_f64::<2, true>,
        Op::V_CMPX_EQ_I16 => cmp_i16::<2, true>,
        Op::V_CMPX_EQ_I32 => cmp_i32::<2, true>,
        Op::V_CMPX_EQ_I64 => cmp_i64::<2, true>,
        Op::V_CMPX_EQ_U16 => cmp_u16::<2, true>,
        Op::V_CMPX_EQ_U32 => cmp_u32::<2, true>,
        Op::V_CMPX_EQ_U64 => cmp_u64::<2, true>,
        Op::V_CMPX_F_F16 => cmp_f16::<0, true>,
        Op::V_CMPX_F_F32 => cmp_f32::<0, true>,
        Op::V_CMPX_F_F64 => cmp_f64::<0, true>,
        Op::V_CMPX_F_I16 => cmp_i16::<0, true>,
        Op::V_CMPX_F_I32 => cmp_i32::<0, true>,
        Op::V_CMPX_F_I64 => cmp_i64::<0, true>,
        Op::V_CMPX_F_U16 => cmp_u16::<0, true>,
        Op::V_CMPX_F_U32 => cmp_u32::<0, true>,
        Op::V_CMPX_F_U64 => cmp_u64::<0, true>,
        Op::V_CMPX_GE_F16 => cmp_f16::<6, true>,
        Op::V_CMPX_GE_F32 => cmp_f32::<6, true>,
        Op::V_CMPX_GE_F64 => cmp_f64::<6, true>,
        Op::V_CMPX_GE_I16 => cmp_i16::<6, true>,
        Op::V_CMPX_GE_I32 => cmp_i32::<6, true>,
        Op::V_CMPX_GE_I64 => cmp_i64::<6, true>,
        Op::V_CMPX_GE_U16 => cmp_u16::<6, true>,
        Op::V_CMPX_GE_U32 => cmp_u32::<6, true>,
        Op::V_CMPX_GE_U64 => cmp_u64::<6, true>,
        Op::V_CMPX_GT_F16 => cmp_f16::<4, true>,
        Op::V_CMPX_GT_F32 => cmp_f32::<4, true>,
        Op::V_CMPX_GT_F64 => cmp_f64::<4, true>,
        Op::V_CMPX_GT_I16 => cmp_i16::<4, true>,
        Op::V_CMPX_GT_I32 => cmp_i32::<4, true>,
        Op::V_CMPX_GT_I64 => cmp_i64::<4, true>,
        Op::V_CMPX_GT_U16 => cmp_u16::<4, true>,
        Op::V_CMPX_GT_U32 => cmp_u32::<4, true>,
        Op::V_CMPX_GT_U64 => cmp_u64::<4, true>,
        Op::V_CMPX_LE_F16 => cmp_f16::<3, true>,
        Op::V_CMPX_LE_F32 => cmp_f32::<3, true>,
        Op::V_CMPX_LE_F64 => cmp_f64::<3, true>,
        Op::V_CMPX_LE_I16 => cmp_i16::<3, true>,
        Op::V_CMPX_LE_I32 => cmp_i32::<3, true>,
        Op::V_CMPX_LE_I64 => cmp_i64::<3, true>,
        Op::V_CMPX_LE_U16 => cmp_u16::<3, true>,
        Op::V_CMPX_LE_U32 => cmp_u32::<3, true>,
        Op::V_CMPX_LE_U64 => cmp_u64::<3, true>,
        Op::V_CMPX_LG_F16 => cmp_f16::<5, true>,
        Op::V_CMPX_LG_F32 => cmp_f32::<5, true>,
        Op::V_CMPX_LG_F64 => cmp_f64::<5, true>,
        Op::V_CMPX_LT_F16 => cmp_f16::<1, true>,
        Op::V_CMPX_LT_F32 => cmp_f32::<1, true>,
        Op::V_CMPX_LT_F64 => cmp_f64::<1, true>,
        Op::V_CMPX_LT_I16 => cmp_i16::<1, true>,
        Op::V_CMPX_LT_I32 => cmp_i32::<1, true>,
        Op::V_CMPX_LT_I64 => cmp_i64::<1, true>,
        Op::V_CMPX_LT_U16 => cmp_u16::<1, true>,
        Op::V_CMPX_LT_U32 => cmp_u32::<1, true>,
        Op::V_CMPX_LT_U64 => cmp_u64::<1, true>,
        Op::V_CMPX_NEQ_F16 => cmp_f16::<13, true>,
        Op::V_CMPX_NEQ_F32 => cmp_f32::<13, true>,
        Op::V_CMPX_NEQ_F64 => cmp_f64::<13, true>,
        Op::V_CMPX_NE_I16 => cmp_i16::<5, true>,
        Op::V_CMPX_NE_I32 => cmp_i32::<5, true>,
        Op::V_CMPX_NE_I64 => cmp_i64::<5, true>,
        Op::V_CMPX_NE_U16 => cmp_u16::<5, true>,
        Op::V_CMPX_NE_U32 => cmp_u32::<5, true>,
        Op::V_CMPX_NE_U64 => cmp_u64::<5, true>,
        Op::V_CMPX_NGE_F16 => cmp_f16::<9, true>,
        Op::V_CMPX_NGE_F32 => cmp_f32::<9, true>,
        Op::V_CMPX_NGE_F64 => cmp_f64::<9, true>,
        Op::V_CMPX_NGT_F16 => cmp_f16::<11, true>,
        Op::V_CMPX_NGT_F32 => cmp_f32::<11, true>,
        Op::V_CMPX_NGT_F64 => cmp_f64::<11, true>,
        Op::V_CMPX_NLE_F16 => cmp_f16::<12, true>,
        Op::V_CMPX_NLE_F32 => cmp_f32::<12, true>,
        Op::V_CMPX_NLE_F64 => cmp_f64::<12, true>,
        Op::V_CMPX_NLG_F16 => cmp_f16::<10, true>,
        Op::V_CMPX_NLG_F32 => cmp_f32::<10, true>,
        Op::V_CMPX_NLG_F64 => cmp_f64::<10, true>,
        Op::V_CMPX_NLT_F16 => cmp_f16::<14, true>,
        Op::V_CMPX_NLT_F32 => cmp_f32::<14, true>,
        Op::V_CMPX_NLT_F64 => cmp_f64::<14, true>,
        Op::V_CMPX_O_F16 => cmp_f16::<7, true>,
        Op::V_CMPX_O_F32 => cmp_f32::<7, true>,
        Op::V_CMPX_O_F64 => cmp_f64::<7, true>,
        Op::V_CMPX_TRU_F16 => cmp_f16::<15, true>,
        Op::V_CMPX_TRU_F32 => cmp_f32::<15, true>,
        Op::V_CMPX_TRU_F64 => cmp_f64::<15, true>,
        Op::V_CMPX_T_I16 => cmp_i16::<7, true>,
        Op::V_CMPX_T_I32 => cmp_i32::<7, true>,
        Op::V_CMPX_T_I64 => cmp_i64::<7, true>,
        Op::V_CMPX_T_U16 => cmp_u16::<7, true>,
        Op::V_CMPX_T_U32 => cmp_u32::<7, true>,
        Op::V_CMPX_T_U64 => cmp_u64::<7, true>,
        Op::V_CMPX_U_F16 => cmp_f16::<8, true>,
        Op::V_CMPX_U_F32 => cmp_f32::<8, true>,
        Op::V_CMPX_U_F64 => cmp_f64::<8, true>,
        _ => return None,
    })
}

/// Writes the compare result `m` (bit per lane): to the destination mask,
/// and for `v_cmpx_*` (`X`) also to EXEC; lanes not written are 0.
#[inline]
fn finish<const X: bool>(w: &mut Wave, d: &Decoded, m: u64) -> R {
    let act = active_lanes(w, d);
    w.lane_ops += u64::from(act.count_ones());
    if X {
        let r = m & act;
        w.write_scalar(d.op(0), r, true);
        w.set_exec(r);
    } else {
        write_mask(w, d, 0, m);
    }
    Ok(())
}

/// Whether condition `c` holds for relation `rel` (0 less, 1 equal,
/// 2 greater, 3 unordered).
#[inline]
fn holds(c: u8, rel: u32) -> bool {
    c >> rel & 1 != 0
}

/// Relation code of two integers.
#[inline]
fn rel<T: Ord>(a: T, b: T) -> u32 {
    match a.cmp(&b) {
        Ordering::Less => 0,
        Ordering::Equal => 1,
        Ordering::Greater => 2,
    }
}

/// Layout of an IEEE format `BITS` wide: (sign bit, exponent mask,
/// mantissa mask).
#[inline]
const fn layout(bits: u32) -> (u64, u64, u64) {
    let mant_bits = match bits {
        16 => 10,
        32 => 23,
        _ => 52,
    };
    let sign = 1u64 << (bits - 1);
    let mant = (1u64 << mant_bits) - 1;
    (sign, (sign - 1) & !mant, mant)
}

/// Relation code (0 less, 1 equal, 2 greater, 3 unordered) of two floats
/// `BITS` wide given as bit patterns; denormals count as zero with `flush`.
#[inline]
fn frel<const BITS: u32>(a: u64, b: u64, flush: bool) -> u32 {
    let (sign, exp, mant) = layout(BITS);
    let nan = |x: u64| x & exp == exp && x & mant != 0;
    if nan(a) || nan(b) {
        return 3;
    }
    // Sign-magnitude to a signed key: ±0 both map to 0.
    let key = |x: u64| {
        let mag = if flush && x & exp == 0 {
            0
        } else {
            x & (sign - 1)
        };
        if x & sign != 0 {
            -(mag as i64)
        } else {
            mag as i64
        }
    };
    rel(key(a), key(b))
}

/// Class index of a float `BITS` wide: 0 signaling NaN, 1 quiet NaN,
/// 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal,
/// 9 +inf.
#[inline]
fn class<const BITS: u32>(x: u64) -> u32 {
    let (sign, exp, mant) = layout(BITS);
    let neg = x & sign != 0;
    let pick = |n: u32, p: u32| if neg { n } else { p };
    if x & exp == exp {
        if x & mant == 0 {
            pick(2, 9)
        } else if x & (mant + 1) >> 1 != 0 {
            1
        } else {
            0
        }
    } else if x & exp == 0 {
        if x & mant == 0 {
            pick(5, 6)
        } else {
            pick(4, 7)
        }
    } else {
        pick(3, 8)
    }
}

/// Float compare of 16/32-bit lanes `a`, `b` under condition `C`.
#[inline]
fn fcmp_lanes<const BITS: u32, const C: u8>(
    a: &[u32; LANES],
    b: &[u32; LANES],
    flush: bool,
) -> u64 {
    let mask = (1u64 << BITS) - 1;
    let mut m = 0u64;
    for l in 0..LANES {
        let r = frel::<BITS>(u64::from(a[l]) & mask, u64::from(b[l]) & mask, flush);
        m |= u64::from(holds(C, r)) << l;
    }
    m
}

/// D[lane] = S0.f16 <C> S1.f16 (`X`: also EXEC).
fn cmp_f16<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_neg_abs(w, d, d.first_src, Ty::F16);
    let b = src_neg_abs(w, d, d.first_src + 1, Ty::F16);
    let m = fcmp_lanes::<16, C>(&a, &b, w.denorm_mode_16_64() & 1 == 0);
    finish::<X>(w, d, m)
}

/// D[lane] = S0.f32 <C> S1.f32 (`X`: also EXEC).
fn cmp_f32<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_neg_abs(w, d, d.first_src, Ty::B32);
    let b = src_neg_abs(w, d, d.first_src + 1, Ty::B32);
    let m = fcmp_lanes::<32, C>(&a, &b, w.denorm_mode_32() & 1 == 0);
    finish::<X>(w, d, m)
}

/// D[lane] = S0.f64 <C> S1.f64 (`X`: also EXEC).
fn cmp_f64<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64_neg_abs(w, d, d.first_src, Ty::F64);
    let b = src64_neg_abs(w, d, d.first_src + 1, Ty::F64);
    let flush = w.denorm_mode_16_64() & 1 == 0;
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(holds(C, frel::<64>(a[l], b[l], flush))) << l;
    }
    finish::<X>(w, d, m)
}

/// Integer compare of 32-bit lanes after mapping each through `key`.
#[inline]
fn icmp32<const C: u8, const X: bool, K: Ord>(
    w: &mut Wave,
    d: &Decoded,
    ty: Ty,
    key: impl Fn(u32) -> K,
) -> R {
    let a = src_k(w, d, 0, ty);
    let b = src_k(w, d, 1, ty);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(holds(C, rel(key(a[l]), key(b[l])))) << l;
    }
    finish::<X>(w, d, m)
}

/// D[lane] = S0.i16 <C> S1.i16 (`X`: also EXEC).
fn cmp_i16<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp32::<C, X, i16>(w, d, Ty::F16, |x| x as i16)
}

/// D[lane] = S0.u16 <C> S1.u16 (`X`: also EXEC).
fn cmp_u16<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp32::<C, X, u16>(w, d, Ty::F16, |x| x as u16)
}

/// D[lane] = S0.i32 <C> S1.i32 (`X`: also EXEC).
fn cmp_i32<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp32::<C, X, i32>(w, d, Ty::B32, |x| x as i32)
}

/// D[lane] = S0.u32 <C> S1.u32 (`X`: also EXEC).
fn cmp_u32<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp32::<C, X, u32>(w, d, Ty::B32, |x| x)
}

/// Integer compare of 64-bit lanes after mapping each through `key`.
#[inline]
fn icmp64<const C: u8, const X: bool, K: Ord>(
    w: &mut Wave,
    d: &Decoded,
    key: impl Fn(u64) -> K,
) -> R {
    let a = src64_k(w, d, 0, Ty::B64);
    let b = src64_k(w, d, 1, Ty::B64);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(holds(C, rel(key(a[l]), key(b[l])))) << l;
    }
    finish::<X>(w, d, m)
}

/// D[lane] = S0.i64 <C> S1.i64 (`X`: also EXEC).
fn cmp_i64<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp64::<C, X, i64>(w, d, |x| x as i64)
}

/// D[lane] = S0.u64 <C> S1.u64 (`X`: also EXEC).
fn cmp_u64<const C: u8, const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    icmp64::<C, X, u64>(w, d, |x| x)
}

/// D[lane] = S1.u[class(S0.f16)] (`X`: also EXEC).
fn class_f16<const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_neg_abs(w, d, d.first_src, Ty::F16);
    let b = src_k(w, d, 1, Ty::B32);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(b[l] >> class::<16>(u64::from(a[l] & 0xFFFF)) & 1) << l;
    }
    finish::<X>(w, d, m)
}

/// D[lane] = S1.u[class(S0.f32)] (`X`: also EXEC).
fn class_f32<const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_neg_abs(w, d, d.first_src, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(b[l] >> class::<32>(u64::from(a[l])) & 1) << l;
    }
    finish::<X>(w, d, m)
}

/// D[lane] = S1.u[class(S0.f64)] (`X`: also EXEC).
fn class_f64<const X: bool>(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64_neg_abs(w, d, d.first_src, Ty::F64);
    let b = src_k(w, d, 1, Ty::B32);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(b[l] >> class::<64>(a[l]) & 1) << l;
    }
    finish::<X>(w, d, m)
}
