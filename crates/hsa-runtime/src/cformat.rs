//! C `printf` conversions on raw argument bytes, as the host side of the
//! OpenCL printf service formats them (ROCclr hands each conversion with
//! its value to the C library; this module implements the same C99
//! §7.19.6.1 rules in Rust, plus OpenCL C's vector specifier `vN` and
//! length modifier `hl`, OpenCL C 2.0 §6.13.13).
//!
//! A conversion specification is `%[flags][width][.precision][vN][length]conv`
//! with flags `-+ #0`, length `hh h hl l ll`, and conversions
//! `d i u o x X c s p f F e E g G a A`. A vector argument's elements are
//! formatted one by one with the same specification and joined by `,`.

use std::fmt::Write as _;

use amdgpu_emu::exec::fp::{self, Fp};

/// One parsed conversion specification.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spec {
    /// `-`: left-justify within the width.
    pub left: bool,
    /// `+`: always print a sign for signed conversions.
    pub plus: bool,
    /// ` `: a space where a `+` sign would go.
    pub space: bool,
    /// `#`: alternate form.
    pub alt: bool,
    /// `0`: pad numbers with zeros.
    pub zero: bool,
    /// Minimum field width.
    pub width: usize,
    /// Precision, if given.
    pub precision: Option<usize>,
    /// Vector length (OpenCL `vN`), 1 for a scalar.
    pub vector: usize,
    /// Length modifier (`""`, `hh`, `h`, `hl`, `l`, `ll`).
    pub length: String,
    /// Conversion character.
    pub conv: char,
}

/// A piece of a format string: literal text or one conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text printed as is (`%%` already folded to `%`).
    Text(String),
    /// A conversion consuming one argument.
    Conv(Spec),
}

/// Splits a format string into text and conversions; an error names the
/// byte offset of a malformed conversion.
pub fn parse(format: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = format.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if chars.peek().map(|&(_, c)| c) == Some('%') {
            chars.next();
            text.push('%');
            continue;
        }
        let rest = &format[at + 1..];
        let (spec, used) =
            parse_spec(rest).ok_or_else(|| format!("bad conversion at byte {at} of {format:?}"))?;
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        out.push(Piece::Conv(spec));
        for _ in 0..used {
            chars.next();
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

/// Digits at the start of `s` as a number, and how many there were.
fn number(s: &str) -> (usize, usize) {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (s[..n].parse().unwrap_or(0), n)
}

/// Parses what follows a `%`; returns the spec and the characters used.
fn parse_spec(s: &str) -> Option<(Spec, usize)> {
    let mut spec = Spec {
        vector: 1,
        ..Spec::default()
    };
    let mut i = 0;
    let b = s.as_bytes();
    while let Some(&f) = b.get(i) {
        match f {
            b'-' => spec.left = true,
            b'+' => spec.plus = true,
            b' ' => spec.space = true,
            b'#' => spec.alt = true,
            b'0' => spec.zero = true,
            _ => break,
        }
        i += 1;
    }
    let (w, n) = number(&s[i..]);
    spec.width = w;
    i += n;
    if b.get(i) == Some(&b'.') {
        let (p, n) = number(&s[i + 1..]);
        spec.precision = Some(p);
        i += 1 + n;
    }
    if b.get(i) == Some(&b'v') {
        let (v, n) = number(&s[i + 1..]);
        if ![2, 3, 4, 8, 16].contains(&v) {
            return None;
        }
        spec.vector = v;
        i += 1 + n;
    }
    for len in ["hh", "hl", "h", "ll", "l"] {
        if s[i..].starts_with(len) {
            spec.length = len.to_string();
            i += len.len();
            break;
        }
    }
    let conv = *b.get(i)?;
    if !b"diuoxXcspfFeEgGaA".contains(&conv) {
        return None;
    }
    spec.conv = conv as char;
    Some((spec, i + 1))
}

/// Little-endian bytes as an unsigned integer (at most 8 bytes).
fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .take(8)
        .rev()
        .fold(0, |acc, &b| (acc << 8) | u64::from(b))
}

/// Formats one argument's bytes per `spec` (its elements, for a vector).
pub fn format_arg(spec: &Spec, bytes: &[u8]) -> String {
    if spec.conv == 's' {
        return format_str(spec, bytes);
    }
    let slots = if spec.vector == 3 { 4 } else { spec.vector };
    let elem = (bytes.len() / slots).max(1);
    (0..spec.vector)
        .map(|i| {
            let e = bytes.get(i * elem..(i + 1) * elem).unwrap_or(&[]);
            format_scalar(spec, e)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Pads `body` (after its sign/prefix `head`) to the field width.
fn pad(spec: &Spec, head: &str, body: &str, zero_ok: bool) -> String {
    let len = head.chars().count() + body.chars().count();
    let fill = spec.width.saturating_sub(len);
    if spec.left {
        format!("{head}{body}{}", " ".repeat(fill))
    } else if spec.zero && zero_ok {
        format!("{head}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{head}{body}", " ".repeat(fill))
    }
}

fn format_str(spec: &Spec, bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let end = spec.precision.map_or(end, |p| p.min(end));
    let text: String = bytes[..end].iter().map(|&b| b as char).collect();
    pad(spec, "", &text, false)
}

/// Sign-extends the low `bits` of `v`.
fn sext(v: u64, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

fn format_scalar(spec: &Spec, bytes: &[u8]) -> String {
    let raw = le(bytes);
    // The value's width: the length modifier's, else the argument's size.
    let bits = match spec.length.as_str() {
        "hh" => 8,
        "h" => 16,
        "hl" => 32,
        "l" | "ll" => 64,
        _ => (8 * bytes.len().clamp(1, 8)) as u32,
    };
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    match spec.conv {
        'd' | 'i' => {
            let v = sext(raw, bits);
            let sign = sign_of(spec, v < 0);
            format_int(spec, sign, &v.unsigned_abs().to_string(), "")
        }
        'u' => format_int(spec, "", &(raw & mask).to_string(), ""),
        'o' => {
            let digits = format!("{:o}", raw & mask);
            let prefix = if spec.alt && !digits.starts_with('0') {
                "0"
            } else {
                ""
            };
            format_int(spec, "", &digits, prefix)
        }
        'x' | 'X' => {
            let v = raw & mask;
            let mut digits = format!("{v:x}");
            let mut prefix = if spec.alt && v != 0 { "0x" } else { "" }.to_string();
            if spec.conv == 'X' {
                digits = digits.to_uppercase();
                prefix = prefix.to_uppercase();
            }
            format_int(spec, "", &digits, &prefix)
        }
        'c' => pad(spec, "", &((raw as u8) as char).to_string(), false),
        'p' => {
            if raw == 0 {
                pad(spec, "", "(nil)", false)
            } else {
                pad(spec, "0x", &format!("{raw:x}"), false)
            }
        }
        _ => format_float(spec, float_of(bytes, raw)),
    }
}

/// A float argument's value: half, float or double by its size.
fn float_of(bytes: &[u8], raw: u64) -> f64 {
    match bytes.len() {
        2 => f64::from_bits(fp::f16_to_f64(raw as u16, Fp::IEEE)),
        4 => f64::from(f32::from_bits(raw as u32)),
        _ => f64::from_bits(raw),
    }
}

fn sign_of(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// An integer: precision is the minimum digit count (`0` with precision 0
/// prints nothing); `0` padding is ignored when a precision is given.
fn format_int(spec: &Spec, sign: &str, digits: &str, prefix: &str) -> String {
    let digits = match spec.precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if p > digits.len() => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits.to_string(),
    };
    pad(
        spec,
        &format!("{sign}{prefix}"),
        &digits,
        spec.precision.is_none(),
    )
}

/// `%f %e %g %a` and upper-case forms.
fn format_float(spec: &Spec, v: f64) -> String {
    let upper = spec.conv.is_ascii_uppercase();
    let sign = sign_of(spec, v.is_sign_negative());
    let body = if v.is_nan() || v.is_infinite() {
        let s = if v.is_nan() { "nan" } else { "inf" };
        return pad(spec, sign, &case(s, upper), false);
    } else {
        let a = v.abs();
        let p = spec.precision;
        match spec.conv.to_ascii_lowercase() {
            'f' => fixed(a, p.unwrap_or(6), spec.alt),
            'e' => exponent(a, p.unwrap_or(6), spec.alt),
            'g' => general(a, p.unwrap_or(6), spec.alt),
            _ => hex_float(a, p, spec.alt),
        }
    };
    pad(spec, sign, &case(&body, upper), true)
}

fn case(s: &str, upper: bool) -> String {
    if upper {
        s.to_uppercase()
    } else {
        s.to_string()
    }
}

/// `%f` of a non-negative finite value (Rust rounds exactly, ties to even,
/// as glibc does in the default rounding mode).
fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// `%e` of a non-negative finite value: `d.ddde±XX`.
fn exponent(a: f64, p: usize, alt: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alt && p == 0 { "." } else { "" };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}{dot}e{sign}{:02}", exp.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the decimal exponent, trailing zeros removed
/// (kept with `#`).
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let e = format!("{a:.prec$e}", prec = p - 1);
    let x: i64 = e
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    let s = if (x as i128) < p as i128 && x >= -4 {
        fixed(a, (p as i64 - 1 - x) as usize, alt)
    } else {
        exponent(a, p - 1, alt)
    };
    if alt {
        return s;
    }
    let (num, exp) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s.as_str(), ""),
    };
    let num = if num.contains('.') {
        num.trim_end_matches('0').trim_end_matches('.')
    } else {
        num
    };
    format!("{num}{exp}")
}

/// `%a` of a non-negative finite value: `0xh.hhhp±d` (glibc's form:
/// normalised with a leading 1, denormals with a leading 0; without a
/// precision, the shortest exact digits).
fn hex_float(a: f64, p: Option<usize>, alt: bool) -> String {
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut man = bits & ((1 << 52) - 1);
    let (mut lead, exp) = match (raw_exp, man) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        (e, _) => (1, e - 1023),
    };
    let mut digits = 13;
    if let Some(p) = p.filter(|&p| p < 13) {
        // Round the 52-bit fraction to p hex digits, ties to even.
        let drop = 4 * (13 - p) as u32;
        let half = 1u64 << (drop - 1);
        let rest = man & ((1 << drop) - 1);
        man >>= drop;
        if rest > half || (rest == half && man & 1 == 1) {
            man += 1;
            if man >> (4 * p) != 0 {
                man &= (1 << (4 * p)) - 1;
                lead += 1;
            }
        }
        digits = p;
    }
    let mut frac = if digits == 0 {
        String::new()
    } else {
        format!("{man:0digits$x}")
    };
    match p {
        None => frac = frac.trim_end_matches('0').to_string(),
        Some(p) if p > 13 => frac.push_str(&"0".repeat(p - 13)),
        _ => {}
    }
    let mut out = format!("0x{lead:x}");
    if !frac.is_empty() || alt {
        out.push('.');
    }
    let _ = write!(
        out,
        "{frac}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats one value; expected strings are C99's documented results.
    fn one(fmt: &str, bytes: &[u8]) -> String {
        let pieces = parse(fmt).unwrap();
        match &pieces[0] {
            Piece::Conv(s) => format_arg(s, bytes),
            Piece::Text(_) => panic!("no conversion"),
        }
    }

    #[test]
    fn integers() {
        assert_eq!(one("%d", &(-42i32).to_le_bytes()), "-42");
        assert_eq!(one("%5d", &7i32.to_le_bytes()), "    7");
        assert_eq!(one("%-5d|", &7i32.to_le_bytes()), "7    ");
        assert_eq!(one("%05d", &(-7i32).to_le_bytes()), "-0007");
        assert_eq!(one("%+.3d", &7i32.to_le_bytes()), "+007");
        assert_eq!(one("%.0d", &0i32.to_le_bytes()), "");
        assert_eq!(one("%u", &(-1i32).to_le_bytes()), "4294967295");
        assert_eq!(one("%#x", &255u32.to_le_bytes()), "0xff");
        assert_eq!(one("%#X", &255u32.to_le_bytes()), "0XFF");
        assert_eq!(one("%#o", &8u32.to_le_bytes()), "010");
        assert_eq!(one("%hhd", &200u32.to_le_bytes()), "-56");
        assert_eq!(one("%ld", &i64::MIN.to_le_bytes()), "-9223372036854775808");
        assert_eq!(one("%c", &65u32.to_le_bytes()), "A");
    }

    #[test]
    fn floats() {
        let f = |v: f32| v.to_le_bytes();
        assert_eq!(one("%f", &f(0.5)), "0.500000");
        assert_eq!(one("%.2f", &f(2.675)), "2.67"); // 2.67499995...
        assert_eq!(one("%e", &f(1234.5)), "1.234500e+03");
        assert_eq!(one("%E", &1e-300f64.to_le_bytes()), "1.000000E-300");
        assert_eq!(one("%g", &f(0.0001)), "0.0001");
        assert_eq!(one("%g", &f(1e-5)), "1e-05");
        assert_eq!(one("%g", &f(123456.0)), "123456");
        assert_eq!(one("%g", &f(1234567.0)), "1.23457e+06");
        assert_eq!(one("%#g", &f(1.0)), "1.00000");
        assert_eq!(one("%f", &f(f32::NEG_INFINITY)), "-inf");
        assert_eq!(one("%F", &f(f32::NAN)), "NAN");
        assert_eq!(one("%8.3f", &f(-1.5)), "  -1.500");
        assert_eq!(one("%a", &1.0f64.to_le_bytes()), "0x1p+0");
        assert_eq!(one("%a", &0.5f64.to_le_bytes()), "0x1p-1");
        assert_eq!(one("%.1a", &1.96875f64.to_le_bytes()), "0x2.0p+0");
    }

    #[test]
    fn vectors_and_strings() {
        let v: Vec<u8> = [1i32, -2, 3, 4]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(one("%v4hld", &v), "1,-2,3,4");
        assert_eq!(one("%v3hld", &v), "1,-2,3");
        assert_eq!(one("%s", b"abc\0"), "abc");
        assert_eq!(one("%5.2s|", b"abc\0"), "   ab");
        assert!(parse("%v5d").is_err());
        assert!(parse("%q").is_err());
        assert_eq!(parse("a%%b").unwrap(), vec![Piece::Text("a%b".into())]);
    }
}
