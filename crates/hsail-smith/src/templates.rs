//! The table of "ALU-shaped" instruction templates: opcode, the type
//! suffixes the PRM allows (ch. 5 syntax tables), the modifiers it takes
//! and the kind of each operand. Instructions with a richer shape (memory,
//! cvt, cmp, branches, calls…) have their own emitters in `body.rs`.

/// Operand kind of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Opnd {
    /// A value of the first type of the suffix (`add_u32` → u32;
    /// `popcount_u32_b64` → u32).
    T0,
    /// A value of the second type of the suffix (`popcount_u32_b64` → b64).
    T1,
    /// A `u32` value.
    U32,
    /// A `b1` value (control register or 0/1).
    B1,
    /// An unsigned integer register of the same size as T0 (packed `cmov`).
    SameSizeU,
    /// A constant in `0..n` (shuffle selectors, `unpackcvt` index).
    Const(u32),
}

/// Optional `ftz` (required in the Base profile).
pub(crate) const FTZ: u8 = 1;
/// Optional float rounding `up`/`down`/`zero`/`near` (not in Base).
pub(crate) const ROUND: u8 = 2;
/// Packing control `p`/`s`.
pub(crate) const PACK1: u8 = 4;
/// Packing control `pp`/`ps`/`sp`/`ss`.
pub(crate) const PACK2: u8 = 8;
/// `PACK2` plus the `_sat` variants.
pub(crate) const PACK2SAT: u8 = 16;
/// `WAVESIZE` may replace an integer source.
pub(crate) const WS: u8 = 32;

#[derive(Debug, Clone, Copy)]
pub(crate) struct Template {
    pub(crate) opcode: &'static str,
    pub(crate) types: &'static [&'static str],
    pub(crate) dst: Opnd,
    pub(crate) srcs: &'static [Opnd],
    pub(crate) mods: u8,
}

const INT: &[&str] = &["s32", "u32", "s64", "u64"];
const SINT: &[&str] = &["s32", "s64"];
const FLOAT: &[&str] = &["f16", "f32", "f64"];
const PF: &[&str] = &["f16x2", "f16x4", "f16x8", "f32x2", "f32x4", "f64x2"];
const PS: &[&str] = &[
    "s8x4", "s8x8", "s8x16", "s16x2", "s16x4", "s16x8", "s32x2", "s32x4", "s64x2",
];
const PSU: &[&str] = &[
    "s8x4", "s8x8", "s8x16", "s16x2", "s16x4", "s16x8", "s32x2", "s32x4", "s64x2", "u8x4", "u8x8",
    "u8x16", "u16x2", "u16x4", "u16x8", "u32x2", "u32x4", "u64x2",
];
const SHIFT: &[&str] = &[
    "s32", "u32", "s64", "u64", "s8x4", "s8x8", "s8x16", "s16x2", "s16x4", "s16x8", "s32x2",
    "s32x4", "s64x2", "u8x4", "u8x8", "u8x16", "u16x2", "u16x4", "u16x8", "u32x2", "u32x4",
    "u64x2",
];
const SHUF: &[&str] = &[
    "s8x4", "s8x8", "s16x2", "s16x4", "s32x2", "u8x4", "u8x8", "u16x2", "u16x4", "u32x2", "f16x2",
    "f16x4", "f32x2",
];
const PACK: &[&str] = &[
    "s8x4_s32",
    "s8x8_s32",
    "s8x16_s32",
    "s16x2_s32",
    "s16x4_s32",
    "s16x8_s32",
    "s32x2_s32",
    "s32x4_s32",
    "s64x2_s64",
    "u8x4_u32",
    "u8x8_u32",
    "u8x16_u32",
    "u16x2_u32",
    "u16x4_u32",
    "u16x8_u32",
    "u32x2_u32",
    "u32x4_u32",
    "u64x2_u64",
    "f16x2_f16",
    "f16x4_f16",
    "f16x8_f16",
    "f32x2_f32",
    "f32x4_f32",
    "f64x2_f64",
];
const UNPACK: &[&str] = &[
    "s32_s8x4",
    "s32_s8x8",
    "s32_s8x16",
    "s32_s16x2",
    "s32_s16x4",
    "s32_s16x8",
    "s32_s32x2",
    "s32_s32x4",
    "s64_s64x2",
    "u32_u8x4",
    "u32_u8x8",
    "u32_u8x16",
    "u32_u16x2",
    "u32_u16x4",
    "u32_u16x8",
    "u32_u32x2",
    "u32_u32x4",
    "u64_u64x2",
    "f16_f16x2",
    "f16_f16x4",
    "f16_f16x8",
    "f32_f32x2",
    "f32_f32x4",
    "f64_f64x2",
];
const PACKED_ALL: &[&str] = &[
    "s8x4", "s8x8", "s8x16", "s16x2", "s16x4", "s16x8", "s32x2", "s32x4", "s64x2", "u8x4", "u8x8",
    "u8x16", "u16x2", "u16x4", "u16x8", "u32x2", "u32x4", "u64x2", "f16x2", "f16x4", "f16x8",
    "f32x2", "f32x4", "f64x2",
];

use Opnd::{B1, Const, SameSizeU, T0, T1, U32};

const fn t(
    opcode: &'static str,
    types: &'static [&'static str],
    dst: Opnd,
    srcs: &'static [Opnd],
    mods: u8,
) -> Template {
    Template {
        opcode,
        types,
        dst,
        srcs,
        mods,
    }
}

/// Every ALU-shaped instruction form of PRM ch. 5.
pub(crate) const TEMPLATES: &[Template] = &[
    // 5.2 integer arithmetic
    t("abs", SINT, T0, &[T0], 0),
    t("add", INT, T0, &[T0, T0], WS),
    t("borrow", INT, T0, &[T0, T0], 0),
    t("carry", INT, T0, &[T0, T0], 0),
    t("div", INT, T0, &[T0, T0], 0),
    t("max", INT, T0, &[T0, T0], WS),
    t("min", INT, T0, &[T0, T0], WS),
    t("mul", INT, T0, &[T0, T0], WS),
    t("mulhi", INT, T0, &[T0, T0], 0),
    t("neg", SINT, T0, &[T0], 0),
    t("rem", INT, T0, &[T0, T0], 0),
    t("sub", INT, T0, &[T0, T0], WS),
    // packed integer arithmetic
    t("abs", PS, T0, &[T0], PACK1),
    t("neg", PS, T0, &[T0], PACK1),
    t("add", PSU, T0, &[T0, T0], PACK2SAT),
    t("sub", PSU, T0, &[T0, T0], PACK2SAT),
    t("mul", PSU, T0, &[T0, T0], PACK2SAT),
    t("max", PSU, T0, &[T0, T0], PACK2),
    t("min", PSU, T0, &[T0, T0], PACK2),
    t("mulhi", PSU, T0, &[T0, T0], PACK2),
    // 5.3, 5.4
    t("mad", INT, T0, &[T0, T0, T0], 0),
    t("mad24", &["s32", "u32"], T0, &[T0, T0, T0], 0),
    t("mad24hi", &["s32", "u32"], T0, &[T0, T0, T0], 0),
    t("mul24", &["s32", "u32"], T0, &[T0, T0], 0),
    t("mul24hi", &["s32", "u32"], T0, &[T0, T0], 0),
    // 5.5 shifts
    t("shl", SHIFT, T0, &[T0, U32], 0),
    t("shr", SHIFT, T0, &[T0, U32], 0),
    // 5.6 individual bit
    t("and", &["b1", "b32", "b64"], T0, &[T0, T0], 0),
    t("or", &["b1", "b32", "b64"], T0, &[T0, T0], 0),
    t("xor", &["b1", "b32", "b64"], T0, &[T0, T0], 0),
    t("not", &["b1", "b32", "b64"], T0, &[T0], 0),
    t("popcount", &["u32_b32", "u32_b64"], T0, &[T1], 0),
    // 5.7 bit string
    t("bitextract", INT, T0, &[T0, U32, U32], 0),
    t("bitinsert", INT, T0, &[T0, T0, U32, U32], 0),
    t("bitmask", &["b32", "b64"], T0, &[U32, U32], 0),
    t("bitrev", &["b32", "b64"], T0, &[T0], 0),
    t("bitselect", &["b32", "b64"], T0, &[T0, T0, T0], 0),
    t(
        "firstbit",
        &["u32_s32", "u32_u32", "u32_s64", "u32_u64"],
        T0,
        &[T1],
        0,
    ),
    t(
        "lastbit",
        &["u32_s32", "u32_u32", "u32_s64", "u32_u64"],
        T0,
        &[T1],
        0,
    ),
    // 5.8 mov
    t(
        "mov",
        &[
            "b1", "b32", "b64", "b128", "u32", "u64", "s32", "s64", "f16", "f32", "f64",
        ],
        T0,
        &[T0],
        WS,
    ),
    // 5.9 packed data
    t("shuffle", SHUF, T0, &[T0, T0, Const(256)], 0),
    t("unpacklo", SHUF, T0, &[T0, T0], 0),
    t("unpackhi", SHUF, T0, &[T0, T0], 0),
    t("pack", PACK, T0, &[T0, T1, U32], 0),
    t("unpack", UNPACK, T0, &[T1, U32], 0),
    // 5.10 cmov
    t("cmov", &["b1", "b32", "b64"], T0, &[B1, T0, T0], 0),
    t("cmov", PACKED_ALL, T0, &[SameSizeU, T0, T0], 0),
    // 5.11 float arithmetic
    t("add", FLOAT, T0, &[T0, T0], FTZ | ROUND),
    t("sub", FLOAT, T0, &[T0, T0], FTZ | ROUND),
    t("mul", FLOAT, T0, &[T0, T0], FTZ | ROUND),
    t("div", FLOAT, T0, &[T0, T0], FTZ | ROUND),
    t("fma", FLOAT, T0, &[T0, T0, T0], FTZ | ROUND),
    t("sqrt", FLOAT, T0, &[T0], FTZ | ROUND),
    t("fract", FLOAT, T0, &[T0], FTZ | ROUND),
    t("ceil", FLOAT, T0, &[T0], FTZ),
    t("floor", FLOAT, T0, &[T0], FTZ),
    t("rint", FLOAT, T0, &[T0], FTZ),
    t("trunc", FLOAT, T0, &[T0], FTZ),
    t("max", FLOAT, T0, &[T0, T0], FTZ),
    t("min", FLOAT, T0, &[T0, T0], FTZ),
    t("add", PF, T0, &[T0, T0], FTZ | ROUND | PACK2),
    t("sub", PF, T0, &[T0, T0], FTZ | ROUND | PACK2),
    t("mul", PF, T0, &[T0, T0], FTZ | ROUND | PACK2),
    t("div", PF, T0, &[T0, T0], FTZ | ROUND | PACK2),
    t("sqrt", PF, T0, &[T0], FTZ | ROUND | PACK1),
    t("fract", PF, T0, &[T0], FTZ | ROUND | PACK1),
    t("ceil", PF, T0, &[T0], FTZ | PACK1),
    t("floor", PF, T0, &[T0], FTZ | PACK1),
    t("rint", PF, T0, &[T0], FTZ | PACK1),
    t("trunc", PF, T0, &[T0], FTZ | PACK1),
    t("max", PF, T0, &[T0, T0], FTZ | PACK2),
    t("min", PF, T0, &[T0, T0], FTZ | PACK2),
    // 5.12
    t("mad", FLOAT, T0, &[T0, T0, T0], FTZ | ROUND),
    // 5.13 float bit
    t("abs", FLOAT, T0, &[T0], 0),
    t("neg", FLOAT, T0, &[T0], 0),
    t("copysign", FLOAT, T0, &[T0, T0], 0),
    t("class", &["b1_f16", "b1_f32", "b1_f64"], T0, &[T1, U32], 0),
    t("abs", PF, T0, &[T0], PACK1),
    t("neg", PF, T0, &[T0], PACK1),
    t("copysign", PF, T0, &[T0, T0], PACK2),
    // 5.14 native float
    t("ncos", &["f32"], T0, &[T0], 0),
    t("nexp2", &["f32"], T0, &[T0], 0),
    t("nlog2", &["f32"], T0, &[T0], 0),
    t("nsin", &["f32"], T0, &[T0], 0),
    t("nfma", FLOAT, T0, &[T0, T0, T0], 0),
    t("nrcp", FLOAT, T0, &[T0], 0),
    t("nrsqrt", FLOAT, T0, &[T0], 0),
    t("nsqrt", FLOAT, T0, &[T0], 0),
    // 5.15 multimedia
    t("bitalign", &["b32"], T0, &[T0, T0, T0], 0),
    t("bytealign", &["b32"], T0, &[T0, T0, T0], 0),
    t("lerp", &["u8x4"], T0, &[T0, T0, T0], 0),
    t("packcvt", &["u8x4_f32"], T0, &[T1, T1, T1, T1], 0),
    t("unpackcvt", &["f32_u8x4"], T0, &[T1, Const(4)], 0),
    t(
        "sad",
        &["u32_u32", "u32_u16x2", "u32_u8x4"],
        T0,
        &[T1, T1, U32],
        0,
    ),
    t("sadhi", &["u16x2_u8x4"], T0, &[T1, T1, T0], 0),
];
