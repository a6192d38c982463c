//! GFX9 operands: the 9-bit source-operand code space (SGPRs, special
//! registers, inline constants, VGPRs), AGPRs, literals and immediates, with
//! LLVM's printed spelling and the assembler's accepted spellings.

use std::fmt::Write as _;

/// An operand of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register (tuple) or constant by its 9-bit source code: 0–101
    /// SGPRs, 102–127 special registers, 128–208 integer constants,
    /// 235–254 special sources and float constants, 256–511 VGPRs;
    /// `width` in dwords.
    Src {
        /// Source code (VGPR n is 256 + n).
        code: u16,
        /// Width in dwords.
        width: u8,
    },
    /// Accumulation register tuple (gfx90a/gfx942).
    Agpr {
        /// First register.
        num: u8,
        /// Width in dwords.
        width: u8,
    },
    /// A 32-bit literal constant (source code 255).
    Literal(u32),
    /// An immediate field (simm16, label offset, SMEM offset).
    Imm(i64),
    /// `off` (no address register / no soffset).
    Off,
}

/// The type of an instruction's sources, which decides how LLVM prints
/// inline float constants and how the assembler encodes float literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrcType {
    /// 16-bit float.
    F16,
    /// 32-bit float or 32-bit/64-bit integer (constants print as floats).
    B32,
    /// 64-bit float.
    F64,
    /// 16-bit integer (float constants print as f16 bit patterns).
    I16,
}

impl SrcType {
    /// The source type of a mnemonic: its last type token.
    pub fn of_mnemonic(mn: &str) -> SrcType {
        let mut ty = SrcType::B32;
        for tok in mn.split('_') {
            ty = match tok {
                "f16" => SrcType::F16,
                "f64" => SrcType::F64,
                "i16" | "u16" | "b16" => SrcType::I16,
                "f32" | "i32" | "u32" | "b32" | "i64" | "u64" | "b64" | "u8" | "i8" => SrcType::B32,
                _ => continue,
            };
        }
        // Scalar, packed and dot instructions print float constants by name.
        if ty == SrcType::I16
            && (!mn.starts_with("v_") || mn.contains("_pk_") || mn.contains("dot"))
        {
            ty = SrcType::B32;
        }
        ty
    }
}

const FLOATS: [(&str, u16, u32, u32); 8] = [
    ("0.5", 240, 0x3f00_0000, 0x3fe0_0000),
    ("-0.5", 241, 0xbf00_0000, 0xbfe0_0000),
    ("1.0", 242, 0x3f80_0000, 0x3ff0_0000),
    ("-1.0", 243, 0xbf80_0000, 0xbff0_0000),
    ("2.0", 244, 0x4000_0000, 0x4000_0000),
    ("-2.0", 245, 0xc000_0000, 0xc000_0000),
    ("4.0", 246, 0x4080_0000, 0x4010_0000),
    ("-4.0", 247, 0xc080_0000, 0xc010_0000),
];
const F16_BITS: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

const SPECIAL_SRC: [(&str, u16); 9] = [
    ("src_shared_base", 235),
    ("src_shared_limit", 236),
    ("src_private_base", 237),
    ("src_private_limit", 238),
    ("src_pops_exiting_wave_id", 239),
    ("src_vccz", 251),
    ("src_execz", 252),
    ("src_scc", 253),
    ("src_lds_direct", 254),
];

/// The special source operand named `name` (`src_shared_base`, …).
pub fn special_source(name: &str) -> Option<Operand> {
    SPECIAL_SRC
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, code)| Operand::Src { code, width: 1 })
}

const SPECIAL_REG: [(&str, u16, u8); 18] = [
    ("null", 125, 0),
    ("flat_scratch", 102, 2),
    ("flat_scratch_lo", 102, 1),
    ("flat_scratch_hi", 103, 1),
    ("xnack_mask", 104, 2),
    ("xnack_mask_lo", 104, 1),
    ("xnack_mask_hi", 105, 1),
    ("vcc", 106, 2),
    ("vcc_lo", 106, 1),
    ("vcc_hi", 107, 1),
    ("m0", 124, 1),
    ("exec", 126, 2),
    ("exec_lo", 126, 1),
    ("exec_hi", 127, 1),
    // Aliases the assembler accepts.
    ("lds_direct", 254, 1),
    ("scc", 253, 1),
    ("vccz", 251, 1),
    ("execz", 252, 1),
];

fn tuple(out: &mut String, prefix: &str, first: u32, width: u8) {
    if width <= 1 {
        let _ = write!(out, "{prefix}{first}");
    } else {
        let _ = write!(out, "{prefix}[{first}:{}]", first + u32::from(width) - 1);
    }
}

impl Operand {
    /// Whether this is a VGPR.
    pub fn is_vgpr(&self) -> bool {
        matches!(self, Operand::Src { code: 256.., .. })
    }

    /// The 9-bit source code (255 for a literal).
    pub fn code(&self) -> Option<u16> {
        match *self {
            Operand::Src { code, .. } => Some(code),
            Operand::Literal(_) => Some(255),
            _ => None,
        }
    }

    /// LLVM's spelling of the operand, for sources of type `ty`.
    pub fn print(&self, ty: SrcType) -> String {
        let mut s = String::new();
        match *self {
            Operand::Src { code, width } => print_code(&mut s, code, width, ty),
            Operand::Agpr { num, width } => tuple(&mut s, "a", u32::from(num), width),
            // llvm-objdump-19 prints a 16-bit operand's literal as its low
            // 16 bits (the high half of the dword is ignored).
            Operand::Literal(v) if matches!(ty, SrcType::F16 | SrcType::I16) => {
                let _ = write!(s, "{:#x}", v & 0xFFFF);
            }
            Operand::Literal(v) => {
                let _ = write!(s, "{v:#x}");
            }
            Operand::Imm(v) => {
                let _ = write!(s, "{v}");
            }
            Operand::Off => s.push_str("off"),
        }
        s
    }
}

fn print_code(s: &mut String, code: u16, width: u8, ty: SrcType) {
    let c = u32::from(code);
    match code {
        0..=101 => tuple(s, "s", c, width),
        125 => s.push_str("null"),
        102..=107 | 124 | 126 | 127 => {
            let name = SPECIAL_REG
                .iter()
                .find(|(_, k, w)| *k == code && (*w == width.min(2) || (width == 0 && *w == 1)))
                .or_else(|| SPECIAL_REG.iter().find(|(_, k, w)| *k == code && *w == 1))
                .map_or("?", |(n, _, _)| n);
            s.push_str(name);
        }
        108..=123 => tuple(s, "ttmp", c - 108, width),
        128..=192 => {
            let _ = write!(s, "{}", c - 128);
        }
        193..=208 => {
            let _ = write!(s, "-{}", c - 192);
        }
        240..=248 => {
            let i = usize::from(code - 240);
            if ty == SrcType::I16 {
                let _ = write!(s, "{:#x}", F16_BITS[i]);
            } else if code == 248 {
                s.push_str(if ty == SrcType::F64 || width == 2 {
                    "0.15915494309189532"
                } else {
                    "0.15915494"
                });
            } else {
                s.push_str(FLOATS[i].0);
            }
        }
        256..=511 => tuple(s, "v", c - 256, width),
        _ => {
            let name = SPECIAL_SRC
                .iter()
                .find(|(_, k)| *k == code)
                .map(|(n, _)| *n);
            match name {
                Some(n) => s.push_str(n),
                None => {
                    let _ = write!(s, "<invalid src {code}>");
                }
            }
        }
    }
}

/// Parses a register or register tuple: `s5`, `v[2:3]`, `a7`, `ttmp[4:7]`,
/// `vcc`, `exec_lo`, `m0`, `s[4]`.
pub(crate) fn parse_reg(text: &str) -> Option<Operand> {
    if let Some(list) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return parse_reg_list(list);
    }
    // `acc5`, `acc[0:3]`: llvm-mc's other spelling of AGPRs.
    if let Some(rest) = text.strip_prefix("acc") {
        return match parse_reg(&format!("a{rest}"))? {
            a @ Operand::Agpr { .. } => Some(a),
            _ => None,
        };
    }
    if let Some((_, code, width)) = SPECIAL_REG.iter().find(|(n, _, _)| *n == text) {
        if *width == 0 {
            // `null` (code 125) is printed on GFX9 but llvm-mc-19 refuses
            // it there ("not supported on this GPU").
            return None;
        }
        return Some(Operand::Src {
            code: *code,
            width: *width,
        });
    }
    if let Some(o) = special_source(text) {
        return Some(o);
    }
    let (prefix, rest) = if let Some(r) = text.strip_prefix("ttmp") {
        ("ttmp", r)
    } else {
        let p = text.get(..1)?;
        (p, &text[1..])
    };
    let (first, width) =
        if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            match inner.split_once(':') {
                Some((a, b)) => {
                    let a: u32 = a.trim().parse().ok()?;
                    let b: u32 = b.trim().parse().ok()?;
                    if b < a || b - a >= 32 {
                        return None;
                    }
                    (a, (b - a + 1) as u8)
                }
                None => (inner.trim().parse().ok()?, 1),
            }
        } else {
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (rest.parse().ok()?, 1)
        };
    // Saturating: `v4294967295` is out of range, not an overflow.
    let last = first.saturating_add(u32::from(width)) - 1;
    match prefix {
        "s" if last <= 101 => Some(Operand::Src {
            code: first as u16,
            width,
        }),
        "v" if last <= 255 => Some(Operand::Src {
            code: 256 + first as u16,
            width,
        }),
        "a" if last <= 255 => Some(Operand::Agpr {
            num: first as u8,
            width,
        }),
        "ttmp" if last <= 15 => Some(Operand::Src {
            code: 108 + first as u16,
            width,
        }),
        _ => None,
    }
}

/// `[s4,s5]`, `[ttmp4,ttmp5]`: consecutive single registers of one kind as
/// a tuple.
fn parse_reg_list(list: &str) -> Option<Operand> {
    let regs: Vec<Operand> = list
        .split(',')
        .map(|r| parse_reg(r.trim()))
        .collect::<Option<_>>()?;
    // Register numbers in one space (AGPRs after the 9-bit codes).
    let number = |r: &Operand| match *r {
        Operand::Src {
            code: c @ (0..=101 | 108..=123 | 256..),
            width: 1,
        } => Some(u32::from(c)),
        Operand::Agpr { num, width: 1 } => Some(1024 + u32::from(num)),
        _ => None,
    };
    let nums: Vec<u32> = regs.iter().map(number).collect::<Option<_>>()?;
    let width = u8::try_from(nums.len()).ok()?;
    if nums.windows(2).any(|w| w[1] != w[0] + 1) {
        return None;
    }
    let tuple = match *regs.first()? {
        Operand::Src { code, .. } => Operand::Src { code, width },
        Operand::Agpr { num, .. } => Operand::Agpr { num, width },
        _ => return None,
    };
    // The tuple stays within its register file (s101, ttmp15, v255, a255).
    let last = nums.last().copied()?;
    let first = nums[0];
    let same_file = [0..=101, 108..=123, 256..=511, 1024..=1279]
        .iter()
        .any(|r| r.contains(&first) && r.contains(&last));
    same_file.then_some(tuple)
}

/// Parses an integer as the assembler does (`12`, `-3`, `0x1f`); values
/// up to 64 bits wrap to `i64` as LLVM's 64-bit expressions do
/// (`0xffffffffffffffff` is -1).
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse::<u64>().ok()?
    } else {
        return None;
    };
    let v = v as i64;
    Some(if neg { v.wrapping_neg() } else { v })
}

/// 1/(2π) as an f32 and as an f64 (inline constant 248).
const INV_2PI_F32: u32 = 0x3e22_f983;
const INV_2PI_F64: u64 = 0x3fc4_5f30_6dc9_c882;

/// The inline constant code of an integer value (-16..=64).
fn int_inline(v: i64) -> Option<u16> {
    match v {
        0..=64 => Some(128 + v as u16),
        -16..=-1 => Some((192 - v) as u16),
        _ => None,
    }
}

/// The inline constant code of a 32-bit operand's bits: an integer
/// -16..=64 or an f32 constant (LLVM checks both whatever the type).
fn inline32(bits: u32) -> Option<u16> {
    int_inline(i64::from(bits as i32))
        .or_else(|| FLOATS.iter().find(|f| f.2 == bits).map(|f| f.1))
        .or((bits == INV_2PI_F32).then_some(248))
}

/// The inline constant code of a 64-bit operand's bits.
fn inline64(bits: u64) -> Option<u16> {
    int_inline(bits as i64)
        .or_else(|| {
            FLOATS
                .iter()
                .find(|f| u64::from(f.3) << 32 == bits)
                .map(|f| f.1)
        })
        .or((bits == INV_2PI_F64).then_some(248))
}

/// The inline constant code of an f16 bit pattern.
fn inline_f16(bits: u16) -> Option<u16> {
    F16_BITS
        .iter()
        .position(|&b| b == bits)
        .map(|i| 240 + i as u16)
        .or((bits == 0).then_some(128))
}

/// The bits a constant operand (inline code or literal) of a 32-bit or
/// f16 operand stands for (f16: the low 16 bits); None for registers and
/// other types.
fn constant_bits(op: &Operand, ty: SrcType) -> Option<u32> {
    let f16 = ty == SrcType::F16;
    match *op {
        Operand::Literal(x) => Some(if f16 { x & 0xFFFF } else { x }),
        Operand::Src { code, .. } => {
            let int = match code {
                128..=192 => i64::from(code) - 128,
                193..=208 => 192 - i64::from(code),
                240..=248 if f16 => return Some(u32::from(F16_BITS[usize::from(code - 240)])),
                240..=247 => return Some(FLOATS[usize::from(code - 240)].2),
                248 => return Some(INV_2PI_F32),
                _ => return None,
            };
            Some(if f16 { int as u32 & 0xFFFF } else { int as u32 })
        }
        _ => None,
    }
}

/// An f32 or f16 constant with llvm-mc's treatment of float modifiers on
/// an operand that has no modifier bits (VOP1/VOP2/VOPC e32): `abs` clears
/// and `neg` flips the sign bit of the constant itself (`v_add_f32 v0,
/// |-1.0|, v1` is `v_add_f32_e32 v0, 1.0, v1`). None when not a constant
/// of such a type.
pub(crate) fn apply_fp_modifiers(
    op: &Operand,
    ty: SrcType,
    width: u8,
    neg: bool,
    abs: bool,
) -> Option<Operand> {
    if width != 1 || !matches!(ty, SrcType::B32 | SrcType::F16) {
        return None;
    }
    let sign = if ty == SrcType::F16 { 1 << 15 } else { 1 << 31 };
    let mut bits = constant_bits(op, ty)?;
    if abs {
        bits &= !sign;
    }
    if neg {
        bits ^= sign;
    }
    Some(if ty == SrcType::F16 {
        constant(inline_f16(bits as u16), bits, width)
    } else {
        constant(inline32(bits), bits, width)
    })
}

/// A constant operand: an inline code, else a literal.
fn constant(inline: Option<u16>, literal: u32, width: u8) -> Operand {
    match inline {
        Some(code) => Operand::Src { code, width },
        None => Operand::Literal(literal),
    }
}

/// An integer constant for an operand of type `ty` and `width` dwords,
/// encoded as llvm-mc does: 64-bit operands take the fp64 bit patterns
/// (and, for f64, a 32-bit value as the high half); others take 32 bits,
/// where f16 operands also take the f16 bit patterns (16-bit integer ones
/// do not: `v_add_u16 v0, 0x3c00, v1` has a literal).
fn int_constant(v: i64, ty: SrcType, width: u8) -> Option<Operand> {
    let fits32 = (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v);
    if width >= 2 {
        let mut inline = inline64(v as u64);
        if ty == SrcType::F64 && (0..=i64::from(u32::MAX)).contains(&v) {
            inline = inline.or_else(|| inline64((v as u64) << 32));
        }
        return match inline {
            Some(code) => Some(Operand::Src { code, width }),
            None => fits32.then_some(Operand::Literal(v as u32)),
        };
    }
    if !fits32 {
        return None;
    }
    let inline = match ty {
        SrcType::I16 => int_inline(v),
        SrcType::F16 => int_inline(i64::from(v as u32 as i32)).or_else(|| {
            u16::try_from(v)
                .ok()
                .and_then(|b| F16_BITS.iter().position(|&x| x == b))
                .map(|i| 240 + i as u16)
        }),
        _ => inline32(v as u32),
    };
    Some(constant(inline, v as u32, width))
}

/// A floating-point constant for an operand of type `ty` and `width`
/// dwords: converted to the operand's format (f64 for 64-bit operands, f16
/// for f16 ones, else f32) and inline when its bits are an inline constant.
/// A 64-bit integer operand takes only inline values.
fn float_constant(f: f64, ty: SrcType, width: u8) -> Option<Operand> {
    if width >= 2 {
        let bits = f.to_bits();
        let inline = inline64(bits);
        return match inline {
            Some(code) => Some(Operand::Src { code, width }),
            None if ty == SrcType::F64 => Some(Operand::Literal((bits >> 32) as u32)),
            None => None,
        };
    }
    let single = f as f32;
    if ty == SrcType::F16 {
        let bits = f32_to_f16(single);
        let back = f16_magnitude(bits);
        if lossy_range(f, back) {
            return None;
        }
        return Some(constant(inline_f16(bits), u32::from(bits), width));
    }
    if lossy_range(f, f64::from(single)) {
        return None;
    }
    let bits = single.to_bits();
    Some(constant(inline32(bits), bits, width))
}

/// Parses a source operand value: register, special source, integer or
/// float constant (inline when possible, else a literal of type `ty`);
/// `lit(constant)` is the constant (llvm-mc-19 forces no literal on GFX9).
pub(crate) fn parse_src(text: &str, ty: SrcType, width: u8) -> Option<Operand> {
    if let Some(r) = parse_reg(text) {
        return Some(r);
    }
    let text = text
        .strip_prefix("lit(")
        .and_then(|t| t.strip_suffix(')'))
        .map_or(text, str::trim);
    if let Some(v) = parse_int(text) {
        return int_constant(v, ty, width);
    }
    if !text.contains('.') && !text.contains('e') && !text.contains('E') {
        return None;
    }
    let f: f64 = text.parse().ok()?;
    float_constant(f, ty, width)
}

/// Whether converting `f` gave `got` by overflow (to infinity) or underflow
/// (to zero or a denormal that lost bits): llvm-mc takes precision loss
/// but not those.
fn lossy_range(f: f64, got: f64) -> bool {
    let overflow = f.is_finite() && got.is_infinite();
    let underflow = f != 0.0 && got.abs() < f.abs() / 2.0;
    overflow || underflow
}

/// The value of an f16 bit pattern, ignoring sign (for range checks).
fn f16_magnitude(bits: u16) -> f64 {
    let exp = i32::from(bits >> 10 & 0x1F);
    let man = f64::from(bits & 0x3FF);
    match exp {
        0x1F => f64::INFINITY,
        0 => man * 2f64.powi(-24),
        e => (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    }
}

fn f32_to_f16(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = (man | 0x80_0000) >> (1 - e);
        return sign | ((m + 0x1000) >> 13) as u16;
    }
    let h = (sign as u32) | ((e as u32) << 10) | (man >> 13);
    let round = man & 0x1fff;
    let h = if round > 0x1000 || (round == 0x1000 && (h & 1) == 1) {
        h + 1
    } else {
        h
    };
    h as u16
}
