//! HSAIL data types as text (`u32`, `f16x2`, `b128`, `roimg`): sizes,
//! register kinds, and random immediates of the right type in every
//! literal form the PRM allows (PRM 4.8, 4.13, 4.14).

use crate::rng::Rng;

/// Bit size of a type name; opaque handles are 64 bits in both models.
pub(crate) fn bits(ty: &str) -> u32 {
    if matches!(ty, "roimg" | "woimg" | "rwimg" | "samp" | "sig32" | "sig64") {
        return 64;
    }
    let digits = ty.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    match digits.split_once('x') {
        Some((elem, count)) => {
            elem.parse::<u32>().unwrap_or(32) * count.parse::<u32>().unwrap_or(1)
        }
        None => digits.parse().unwrap_or(32),
    }
}

/// Register class for a value of the type: `c`, `s`, `d` or `q`.
pub(crate) fn reg_kind(ty: &str) -> char {
    match bits(ty) {
        1 => 'c',
        0..=32 => 's',
        64 => 'd',
        _ => 'q',
    }
}

/// Element type and element count of a packed type (`u8x4` → (`u8`, 4)).
pub(crate) fn packed_parts(ty: &str) -> Option<(&str, u32)> {
    let (elem, count) = ty.split_once('x')?;
    Some((elem, count.parse().ok()?))
}

pub(crate) fn is_float(ty: &str) -> bool {
    ty.starts_with('f')
}

/// A random integer literal for an integer/bit type of `width` bits, in
/// decimal, hex or octal; negative only for signed types.
fn int_literal(rng: &mut Rng, signed: bool, width: u32) -> String {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let small = rng.range(0, 300);
    match rng.below(7) {
        0 => small.to_string(),
        1 => format!("0x{:x}", rng.next_u64() & mask),
        2 => format!("0{:o}", small.max(1)),
        3 if signed => format!("-{}", rng.range(1, 1000)),
        4 => format!("0X{:X}", small),
        5 => (rng.next_u64() & mask & 0xffff_ffff).to_string(),
        _ => rng.range(0, 16).to_string(),
    }
}

/// Exactly representable decimal value such as `12.5` or `-0.25`.
fn decimal_value(rng: &mut Rng) -> String {
    let whole = rng.range(0, 100);
    let frac = ["0", "5", "25", "125", "75"][rng.below(5)];
    let sign = if rng.chance(1, 4) { "-" } else { "" };
    format!("{sign}{whole}.{frac}")
}

fn float_literal(rng: &mut Rng, ty: &str) -> String {
    let (suffix_dec, bits_prefix, nbits) = match ty {
        "f16" => ("h", "0H", 16),
        "f32" => ("f", "0F", 32),
        _ => ("", "0D", 64),
    };
    match rng.below(5) {
        0 | 1 => format!("{}{}", decimal_value(rng), suffix_dec),
        2 => {
            // IEEE bits of a finite, normal value: exponent bits not all ones.
            let raw = rng.next_u64();
            let v = match nbits {
                16 => format!("{:04x}", (raw as u16) & 0xbbff),
                32 => format!("{:08x}", (raw as u32) & 0xbf7f_ffff),
                _ => format!("{:016x}", raw & 0xbfef_ffff_ffff_ffff),
            };
            format!("{bits_prefix}{v}")
        }
        3 => {
            let mant = ["1", "1.8", "1.4", "1.c"][rng.below(4)];
            let exp = rng.range(0, 6);
            let neg = if rng.chance(1, 2) { "-" } else { "" };
            format!("0x{mant}p{neg}{exp}{suffix_dec}")
        }
        _ => {
            let e = rng.range(0, 3);
            format!("{}e{}{}", rng.range(1, 9), e, suffix_dec)
        }
    }
}

/// A random immediate of the type, in one of the literal forms valid for
/// it (integer, float, typed or packed constant). `base`: the Base profile
/// has no double-precision constants (PRM 16.2.1), not even for `b64`.
pub(crate) fn immediate(rng: &mut Rng, ty: &str, base: bool) -> String {
    if ty == "b1" {
        return rng.below(2).to_string();
    }
    if ty == "b128" {
        let p = ["u32x4", "u64x2", "u8x16", "s16x8"][rng.below(4)];
        return packed_literal(rng, p);
    }
    if packed_parts(ty).is_some() {
        return packed_literal(rng, ty);
    }
    if is_float(ty) {
        let lit = float_literal(rng, ty);
        if rng.chance(1, 10) {
            return format!("{ty}({lit})");
        }
        return lit;
    }
    let signed = ty.starts_with('s');
    let w = bits(ty);
    if ty.starts_with('b') && (w == 32 || (w == 64 && !base)) && rng.chance(1, 8) {
        // Length-only rule: a float constant of the same size (Table 4-1).
        let f = if w == 32 { "f32" } else { "f64" };
        return float_literal(rng, f);
    }
    let lit = int_literal(rng, signed, w);
    if !ty.starts_with('b') && rng.chance(1, 10) && !lit.starts_with('-') {
        return format!("{ty}({lit})");
    }
    lit
}

fn packed_literal(rng: &mut Rng, ty: &str) -> String {
    let Some((elem, count)) = packed_parts(ty) else {
        return "0".to_owned();
    };
    let mut s = format!("{ty}(");
    for i in 0..count {
        if i > 0 {
            s.push(',');
        }
        if is_float(elem) {
            s.push_str(&float_literal(rng, elem));
        } else {
            let w = bits(elem);
            let max = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
            if elem.starts_with('s') && rng.chance(1, 3) {
                s.push_str(&format!("-{}", rng.range(1, 100)));
            } else {
                s.push_str(&(rng.next_u64() & max & 0xffff).to_string());
            }
        }
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_prm_table_4_2() {
        assert_eq!(bits("b1"), 1);
        assert_eq!(bits("u8"), 8);
        assert_eq!(bits("f16"), 16);
        assert_eq!(bits("s64"), 64);
        assert_eq!(bits("u8x4"), 32);
        assert_eq!(bits("f16x8"), 128);
        assert_eq!(bits("b128"), 128);
        assert_eq!(bits("sig32"), 64);
        assert_eq!(reg_kind("b1"), 'c');
        assert_eq!(reg_kind("u16"), 's');
        assert_eq!(reg_kind("f64"), 'd');
        assert_eq!(reg_kind("u32x4"), 'q');
        assert_eq!(packed_parts("s16x2"), Some(("s16", 2)));
        assert_eq!(packed_parts("u32"), None);
    }
}
