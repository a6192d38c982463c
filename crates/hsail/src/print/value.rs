//! How HSAILasm spells constant values: integers in decimal or hex (by its
//! readability rule), floats as raw bit patterns (`0F3fc00000`), packed
//! values as `u8x4(…)` with the highest lane first, and string literals.

use core::fmt::Write as _;

use brig::BrigType;

/// Appends `v` in decimal (without the formatting machinery: this is the
/// hot path for register numbers and offsets).
pub(crate) fn push_u64(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.push_str(core::str::from_utf8(&buf[i..]).unwrap_or(""));
}

/// Appends `v` in signed decimal.
pub(crate) fn push_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_u64(out, v.unsigned_abs());
}

/// Appends an integer of `bits` width (16, 32 or 64; `raw` holds the value's
/// bits, zero-extended) the way HSAILasm does:
///
/// * magnitudes up to 256 (or up to 8192 for powers of two, and the most
///   negative value) print in signed decimal;
/// * larger values whose signed decimal text contains a run of three zeros
///   print in decimal too;
/// * everything else prints as `0x` + lowercase hex of the unsigned bits.
///
/// Values are always read as signed, so `u32 0x80000000` prints as
/// `-2147483648` and `u64 0xffffffffffffffff` as `-1`.
pub(crate) fn push_int(out: &mut String, raw: u64, bits: u32) {
    let shift = 64 - bits;
    let signed = ((raw << shift) as i64) >> shift;
    let min = i64::MIN >> shift;
    let unsigned = if bits == 64 {
        raw
    } else {
        raw & ((1u64 << bits) - 1)
    };
    if signed == min {
        push_i64(out, signed);
        return;
    }
    let mag = signed.unsigned_abs();
    let not_pow2 = mag & mag.wrapping_sub(1) != 0;
    let threshold = if not_pow2 { 256 } else { 8192 };
    if mag <= threshold {
        push_i64(out, signed);
        return;
    }
    if not_pow2 {
        let start = out.len();
        push_i64(out, signed);
        if has_three_zeros(&out.as_bytes()[start..]) {
            return;
        }
        out.truncate(start);
    }
    let _ = write!(out, "{unsigned:#x}");
}

/// Whether a decimal text holds three consecutive `0` digits.
fn has_three_zeros(text: &[u8]) -> bool {
    let mut run = 0;
    for &c in text {
        if c == b'0' {
            run += 1;
            if run == 3 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Appends a control directive operand: as [`push_int`], but a value whose
/// text would start with `-` prints as unsigned hex instead.
pub(crate) fn push_ctl_int(out: &mut String, raw: u64, bits: u32) {
    let start = out.len();
    push_int(out, raw, bits);
    if out.as_bytes().get(start) == Some(&b'-') {
        out.truncate(start);
        let _ = write!(out, "{raw:#x}");
    }
}

/// Lowercase hex digits of `v`, `digits` wide (zero padded).
fn push_hex(out: &mut String, v: u64, digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for i in (0..digits).rev() {
        out.push(char::from(HEX[((v >> (4 * i)) & 0xf) as usize]));
    }
}

/// Reads `n` little-endian bytes as an unsigned integer.
fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// Appends one scalar element of base type `base` (a `BrigType` without
/// pack or array bits) from its little-endian bytes.
fn push_scalar(out: &mut String, base: u16, b: &[u8]) {
    let v = le(b);
    match base {
        // u8, b8: unsigned char printed as int.
        1 | 13 => push_u64(out, u64::from(v as u8)),
        // s8: signed char printed as int.
        5 => push_i64(out, i64::from(v as u8 as i8)),
        2 | 6 | 14 => push_int(out, v, 16),
        3 | 7 | 15 => push_int(out, v, 32),
        // f16, f32, f64: raw bits.
        9 => {
            out.push_str("0H");
            push_hex(out, v, 4);
        }
        10 => {
            out.push_str("0F");
            push_hex(out, v, 8);
        }
        11 => {
            out.push_str("0D");
            push_hex(out, v, 16);
        }
        _ => push_int(out, v, 64),
    }
}

/// Size in bytes of one element of scalar base type `base` as stored in a
/// constant (`b1` is one byte).
fn scalar_bytes(base: u16) -> usize {
    match base {
        1 | 5 | 12 | 13 => 1,
        2 | 6 | 9 | 14 => 2,
        3 | 7 | 10 | 15 | 22 => 4,
        _ => 8,
    }
}

/// Appends the values of constant bytes of (non-array) element type `ty`,
/// separated by `", "`. Returns `false` if `ty` cannot be printed
/// (opaque types, or `b1` with no byte).
pub(crate) fn push_values(out: &mut String, ty: BrigType, bytes: &[u8]) -> bool {
    // There are no b128 scalars: they print as u8x16.
    let ty = if ty == BrigType::B128 {
        BrigType::U8X16
    } else {
        ty
    };
    let base = ty.raw() & 0x1f;
    let pack = (ty.raw() >> 5) & 3;
    if base == 0 || (17..=21).contains(&base) {
        return false;
    }
    if base == 12 {
        // b1: the low bit of the first byte, whatever the length.
        return match bytes.first() {
            Some(b) => {
                out.push(if b & 1 == 1 { '1' } else { '0' });
                true
            }
            None => false,
        };
    }
    let elem = scalar_bytes(base);
    if pack == 0 {
        let prefix = match base {
            22 => Some("sig32("),
            23 => Some("sig64("),
            _ => None,
        };
        for (i, chunk) in bytes.chunks_exact(elem).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            match prefix {
                Some(p) => {
                    out.push_str(p);
                    push_int(out, le(chunk), (elem * 8) as u32);
                    out.push(')');
                }
                None => push_scalar(out, base, chunk),
            }
        }
        return true;
    }
    let value_bytes = 2usize << pack;
    let name = crate::ops::names::types::text(ty).unwrap_or("");
    for (i, value) in bytes.chunks_exact(value_bytes).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(name);
        out.push('(');
        for (j, lane) in value.chunks_exact(elem).rev().enumerate() {
            if j > 0 {
                out.push(',');
            }
            push_scalar(out, base, lane);
        }
        out.push(')');
    }
    true
}

/// Appends a string literal in double quotes with C escapes; other
/// non-printable bytes become `\xNN`.
pub(crate) fn push_string_literal(out: &mut String, s: &[u8]) {
    out.push('"');
    for &c in s {
        match c {
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            32..=126 => out.push(char::from(c)),
            _ => {
                let _ = write!(out, "\\x{c:02x}");
            }
        }
    }
    out.push('"');
}

/// Appends a comment's text, replacing non-printable bytes by `.`.
pub(crate) fn push_comment(out: &mut String, s: &[u8]) {
    out.extend(s.iter().map(|&c| {
        if (32..127).contains(&c) {
            char::from(c)
        } else {
            '.'
        }
    }));
}

/// Appends a name from the string table: bytes as they are (invalid UTF-8
/// is replaced, which valid BRIG never holds).
pub(crate) fn push_name(out: &mut String, s: &[u8]) {
    match core::str::from_utf8(s) {
        Ok(t) => out.push_str(t),
        Err(_) => out.push_str(&String::from_utf8_lossy(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(raw: u64, bits: u32) -> String {
        let mut s = String::new();
        push_int(&mut s, raw, bits);
        s
    }

    /// Expected texts observed from `HSAILasm -disassemble`.
    #[test]
    fn integers_match_hsailasm() {
        assert_eq!(int(300, 32), "0x12c");
        assert_eq!(int((-300i32) as u32 as u64, 32), "0xfffffed4");
        assert_eq!(int(4096, 32), "4096");
        assert_eq!(int(16384, 32), "0x4000");
        assert_eq!(int(100000, 32), "100000");
        assert_eq!(int(123456, 32), "0x1e240");
        assert_eq!(int(u64::MAX, 64), "-1");
        assert_eq!(int(0x8000_0000, 32), "-2147483648");
        assert_eq!(int(8192, 32), "8192");
        assert_eq!(int(8193, 32), "0x2001");
        assert_eq!(int(257, 32), "0x101");
        assert_eq!(int(256, 32), "256");
        assert_eq!(int(1000, 32), "1000");
        assert_eq!(int(1001, 32), "0x3e9");
        assert_eq!(int(10001, 32), "10001");
        assert_eq!(int(0xfed4, 16), "0xfed4");
        assert_eq!(int(65535, 16), "-1");
        assert_eq!(int(0x3ff0_0000_0000_0000, 64), "4607182418800017408");
        assert_eq!(int(0x8000, 16), "-32768");
        assert_eq!(int(1 << 63, 64), "-9223372036854775808");
        assert_eq!(int(0, 64), "0");
    }
}
