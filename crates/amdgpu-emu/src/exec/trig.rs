//! `v_trig_preop_f64`: 53-bit segments of 2/π for Payne–Hanek argument
//! reduction (ocml's double `sin`/`cos`/`tan` execute it on every call).

use amdgpu_isa::gfx9::Op;

use super::fp::{self, F64, Fp};
use super::valu::{src, src64_neg_abs, write_dst64};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Ty, Wave};

/// The first 1280 fraction bits of 2/π, most significant first (made by
/// `scripts/gen-two-over-pi`, which computes π exactly with Machin's
/// formula). The hardware holds 1201 of them.
const TWO_OVER_PI: [u64; 20] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b6bab,
    0xf0cfbc209af4361d,
];

/// Fraction bits of 2/π the hardware table holds.
const TABLE_BITS: u32 = 1201;

/// The function for `op`, if it is `v_trig_preop_f64`.
pub fn lookup(op: Op) -> Option<Exec> {
    match op {
        Op::V_TRIG_PREOP_F64 => Some(exec_v_trig_preop_f64),
        _ => None,
    }
}

/// Bits `[first, first + 53)` of 2/π's fraction (bit 0 is the first bit
/// after the binary point) as an integer; bits past the table read 0.
fn segment(first: u32) -> u64 {
    let mut v = 0u64;
    for i in first..first + 53 {
        let bit = if i < TABLE_BITS {
            TWO_OVER_PI[(i / 64) as usize] >> (63 - i % 64) & 1
        } else {
            0
        };
        v = v << 1 | bit;
    }
    v
}

/// D = segment `S1[4:0]` of 2/π for |S0|: with `shift = S1 * 53`, plus
/// `exponent(S0) - 1077` when the biased exponent exceeds 1077, D is the
/// 53 fraction bits of 2/π after the first `shift`, scaled by 2^(−53 −
/// shift) (2^128 more when the exponent is at least 1968, for callers that
/// pre-scale huge arguments).
pub fn trig_preop(x: u64, s1: u32) -> u64 {
    let exp = (x >> 52 & 0x7ff) as u32;
    let mut shift = (s1 & 31) * 53;
    if exp > 1077 {
        shift += exp - 1077;
    }
    let mut scale = -53 - shift as i32;
    if exp >= 1968 {
        scale += 128;
    }
    fp::ldexp_soft((segment(shift) as f64).to_bits(), scale, F64, Fp::IEEE)
}

/// D.f64 = trig_preop(S0.f64, S1.u32) (see [`trig_preop`]).
fn exec_v_trig_preop_f64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> Result<(), FaultKind> {
    let x = src64_neg_abs(w, d, d.first_src, Ty::F64);
    let s = src(w, d, d.first_src + 1, Ty::B32);
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        r[l] = trig_preop(x[l], s[l]);
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_sum_to_two_over_pi() {
        // Segment 0 for a small argument: 2/π truncated to 53 bits, one ulp
        // below std's FRAC_2_PI (0x3FE45F306DC9C883), which rounded up.
        let one = 1.0f64.to_bits();
        let s0 = f64::from_bits(trig_preop(one, 0));
        assert_eq!(s0.to_bits(), 0x3FE4_5F30_6DC9_C882);
        let s1 = f64::from_bits(trig_preop(one, 1));
        let s2 = f64::from_bits(trig_preop(one, 2));
        // The three segments add up to 2/π to within the last one's ulp.
        let two_over_pi = std::f64::consts::FRAC_2_PI;
        assert!((s0 + s1 + s2 - two_over_pi).abs() <= f64::EPSILON * two_over_pi);
        assert!(s1 < s0 * 2f64.powi(-52) && s1 > 0.0);
        // A large argument skips exponent − 1077 more bits.
        let big = (1100u64 << 52) | 1;
        let b0 = f64::from_bits(trig_preop(big, 0));
        assert_eq!(b0, segment(23) as f64 * 2f64.powi(-53 - 23));
        // Past the table: zero.
        assert_eq!(trig_preop(one, 31), 0);
    }
}
