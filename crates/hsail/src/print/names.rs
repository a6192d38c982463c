//! The spellings HSAILasm uses for BRIG enumeration values in its canonical
//! text: type names, modifiers and directive keywords (opcode mnemonics and
//! default widths come from the opcode table in `crate::ops`).
//!
//! Every function maps a raw BRIG value to its text; `None` means the value
//! is not one HSAIL 1.0 defines (the printer turns that into an error).
//! An empty string means "printed as nothing" (for example the flat segment
//! or the default rounding mode).

/// Opcode values the printer treats specially.
pub(crate) mod op {
    use brig::BrigOpcode;

    pub const COMBINE: u16 = BrigOpcode::COMBINE.raw();
    pub const CVT: u16 = BrigOpcode::CVT.raw();
    pub const LD: u16 = BrigOpcode::LD.raw();
    pub const ST: u16 = BrigOpcode::ST.raw();
    pub const SBR: u16 = BrigOpcode::SBR.raw();
    pub const EXPAND: u16 = BrigOpcode::EXPAND.raw();
    pub const RDIMAGE: u16 = BrigOpcode::RDIMAGE.raw();
    pub const LDIMAGE: u16 = BrigOpcode::LDIMAGE.raw();
    pub const STIMAGE: u16 = BrigOpcode::STIMAGE.raw();
    pub const ACTIVELANEMASK: u16 = BrigOpcode::ACTIVELANEMASK.raw();
    pub const CALL: u16 = BrigOpcode::CALL.raw();
    pub const SCALL: u16 = BrigOpcode::SCALL.raw();
    pub const ICALL: u16 = BrigOpcode::ICALL.raw();
    pub const ALLOCA: u16 = BrigOpcode::ALLOCA.raw();
}

/// Base type names indexed by the low five bits of `BrigType` (0..=23).
const BASE_TYPES: [&str; 24] = [
    "", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64", "b1", "b8",
    "b16", "b32", "b64", "b128", "samp", "roimg", "woimg", "rwimg", "sig32", "sig64",
];

/// The name of a non-array type (`u32`, `u8x4`, `roimg`); `""` for none.
pub(crate) fn type_name(t: u16) -> Option<&'static str> {
    if t & !0x7f != 0 {
        return None;
    }
    let base = t & 0x1f;
    let pack = (t >> 5) & 3;
    if pack == 0 {
        return BASE_TYPES.get(usize::from(base)).copied();
    }
    Some(match (base, pack) {
        (1, 1) => "u8x4",
        (1, 2) => "u8x8",
        (1, 3) => "u8x16",
        (2, 1) => "u16x2",
        (2, 2) => "u16x4",
        (2, 3) => "u16x8",
        (3, 2) => "u32x2",
        (3, 3) => "u32x4",
        (4, 3) => "u64x2",
        (5, 1) => "s8x4",
        (5, 2) => "s8x8",
        (5, 3) => "s8x16",
        (6, 1) => "s16x2",
        (6, 2) => "s16x4",
        (6, 3) => "s16x8",
        (7, 2) => "s32x2",
        (7, 3) => "s32x4",
        (8, 3) => "s64x2",
        (9, 1) => "f16x2",
        (9, 2) => "f16x4",
        (9, 3) => "f16x8",
        (10, 2) => "f32x2",
        (10, 3) => "f32x4",
        (11, 3) => "f64x2",
        _ => return None,
    })
}

/// `BRIG_TYPE_ARRAY` bit.
pub(crate) const TYPE_ARRAY: u16 = 0x80;

/// Byte size of one value of a (non-array) type, as HSAILasm counts it for
/// natural alignment (opaque handles are 8 bytes).
pub(crate) fn type_bytes(t: u16) -> Option<u32> {
    let base = t & 0x1f;
    let pack = (t >> 5) & 3;
    if pack != 0 {
        return Some(2u32 << pack);
    }
    Some(match base {
        1 | 5 | 13 | 12 => 1,
        2 | 6 | 9 | 14 => 2,
        3 | 7 | 10 | 15 => 4,
        4 | 8 | 11 | 16 => 8,
        17 => 16,
        18..=23 => 8,
        _ => return None,
    })
}

/// Whether a type is a signed or unsigned integer scalar (`s8`…`u64`).
pub(crate) fn is_int(t: u16) -> bool {
    (1..=8).contains(&t)
}

/// Whether a type is a floating-point scalar (`f16`, `f32`, `f64`).
pub(crate) fn is_float(t: u16) -> bool {
    (9..=11).contains(&t)
}

/// Segment names; the flat segment prints as nothing.
pub(crate) fn segment(v: u8) -> Option<&'static str> {
    Some(match v {
        0 | 1 => "",
        2 => "global",
        3 => "readonly",
        4 => "kernarg",
        5 => "group",
        6 => "private",
        7 => "spill",
        8 => "arg",
        _ => return None,
    })
}

/// `BRIG_SEGMENT_READONLY`.
pub(crate) const SEGMENT_READONLY: u8 = 3;

/// Alignment in bytes (`BrigAlignment` is `log2(n) + 1`); `None` for none.
pub(crate) fn align_bytes(v: u8) -> Option<u32> {
    match v {
        1..=9 => Some(1u32 << (v - 1)),
        _ => None,
    }
}

/// Packing controls.
pub(crate) fn pack(v: u8) -> Option<&'static str> {
    Some(match v {
        0 => "",
        1 => "pp",
        2 => "ps",
        3 => "sp",
        4 => "ss",
        5 => "s",
        6 => "p",
        7 => "pp_sat",
        8 => "ps_sat",
        9 => "sp_sat",
        10 => "ss_sat",
        11 => "s_sat",
        12 => "p_sat",
        _ => return None,
    })
}

/// Compare operations.
pub(crate) fn compare(v: u8) -> Option<&'static str> {
    const T: [&str; 28] = [
        "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
        "seq", "sne", "slt", "sle", "sgt", "sge", "sgeu", "sequ", "sneu", "sltu", "sleu", "snum",
        "snan", "sgtu",
    ];
    T.get(usize::from(v)).copied()
}

/// Rounding modes; none and the float default print as nothing.
pub(crate) fn round(v: u8) -> Option<&'static str> {
    const T: [&str; 22] = [
        "",
        "",
        "near",
        "zero",
        "up",
        "down",
        "neari",
        "zeroi",
        "upi",
        "downi",
        "neari_sat",
        "zeroi_sat",
        "upi_sat",
        "downi_sat",
        "sneari",
        "szeroi",
        "supi",
        "sdowni",
        "sneari_sat",
        "szeroi_sat",
        "supi_sat",
        "sdowni_sat",
    ];
    T.get(usize::from(v)).copied()
}

/// `BRIG_ROUND_INTEGER_ZERO`.
pub(crate) const ROUND_INTEGER_ZERO: u8 = 7;

/// Memory orders.
pub(crate) fn memory_order(v: u8) -> Option<&'static str> {
    Some(match v {
        0 => "",
        1 => "rlx",
        2 => "scacq",
        3 => "screl",
        4 => "scar",
        _ => return None,
    })
}

/// Memory scopes.
pub(crate) fn memory_scope(v: u8) -> Option<&'static str> {
    Some(match v {
        0 => "",
        1 => "wi",
        2 => "wave",
        3 => "wg",
        4 => "agent",
        5 => "system",
        _ => return None,
    })
}

/// Atomic and signal operations.
pub(crate) fn atomic_op(v: u8) -> Option<&'static str> {
    const T: [&str; 21] = [
        "add",
        "and",
        "cas",
        "exch",
        "ld",
        "max",
        "min",
        "or",
        "st",
        "sub",
        "wrapdec",
        "wrapinc",
        "xor",
        "wait_eq",
        "wait_ne",
        "wait_lt",
        "wait_gte",
        "waittimeout_eq",
        "waittimeout_ne",
        "waittimeout_lt",
        "waittimeout_gte",
    ];
    T.get(usize::from(v)).copied()
}

/// Image geometries.
pub(crate) fn geometry(v: u8) -> Option<&'static str> {
    const T: [&str; 8] = ["1d", "2d", "3d", "1da", "2da", "1db", "2ddepth", "2dadepth"];
    T.get(usize::from(v)).copied()
}

/// Image queries.
pub(crate) fn image_query(v: u8) -> Option<&'static str> {
    const T: [&str; 6] = [
        "width",
        "height",
        "depth",
        "array",
        "channelorder",
        "channeltype",
    ];
    T.get(usize::from(v)).copied()
}

/// Sampler queries.
pub(crate) fn sampler_query(v: u8) -> Option<&'static str> {
    const T: [&str; 3] = ["addressing", "coord", "filter"];
    T.get(usize::from(v)).copied()
}

/// Image channel orders.
pub(crate) fn channel_order(v: u8) -> Option<&'static str> {
    const T: [&str; 20] = [
        "a",
        "r",
        "rx",
        "rg",
        "rgx",
        "ra",
        "rgb",
        "rgbx",
        "rgba",
        "bgra",
        "argb",
        "abgr",
        "srgb",
        "srgbx",
        "srgba",
        "sbgra",
        "intensity",
        "luminance",
        "depth",
        "depth_stencil",
    ];
    T.get(usize::from(v)).copied()
}

/// Image channel types.
pub(crate) fn channel_type(v: u8) -> Option<&'static str> {
    const T: [&str; 16] = [
        "snorm_int8",
        "snorm_int16",
        "unorm_int8",
        "unorm_int16",
        "unorm_int24",
        "unorm_short_555",
        "unorm_short_565",
        "unorm_int_101010",
        "signed_int8",
        "signed_int16",
        "signed_int32",
        "unsigned_int8",
        "unsigned_int16",
        "unsigned_int32",
        "half_float",
        "float",
    ];
    T.get(usize::from(v)).copied()
}

/// Sampler coordinate normalization.
pub(crate) fn sampler_coord(v: u8) -> Option<&'static str> {
    match v {
        0 => Some("unnormalized"),
        1 => Some("normalized"),
        _ => None,
    }
}

/// Sampler filters.
pub(crate) fn sampler_filter(v: u8) -> Option<&'static str> {
    match v {
        0 => Some("nearest"),
        1 => Some("linear"),
        _ => None,
    }
}

/// Sampler addressing modes.
pub(crate) fn sampler_addressing(v: u8) -> Option<&'static str> {
    const T: [&str; 5] = [
        "undefined",
        "clamp_to_edge",
        "clamp_to_border",
        "repeat",
        "mirrored_repeat",
    ];
    T.get(usize::from(v)).copied()
}

/// Control directive keywords.
pub(crate) fn control(v: u16) -> Option<&'static str> {
    const T: [&str; 10] = [
        "none",
        "enablebreakexceptions",
        "enabledetectexceptions",
        "maxdynamicgroupsize",
        "maxflatgridsize",
        "maxflatworkgroupsize",
        "requireddim",
        "requiredgridsize",
        "requiredworkgroupsize",
        "requirenopartialworkgroups",
    ];
    match v {
        1..=9 => T.get(usize::from(v)).copied(),
        _ => None,
    }
}

/// Register name prefixes.
pub(crate) fn register(v: u16) -> Option<&'static str> {
    Some(match v {
        0 => "$c",
        1 => "$s",
        2 => "$d",
        3 => "$q",
        _ => return None,
    })
}

/// Module profile.
pub(crate) fn profile(v: u8) -> Option<&'static str> {
    match v {
        0 => Some("$base"),
        1 => Some("$full"),
        _ => None,
    }
}

/// Module machine model.
pub(crate) fn machine_model(v: u8) -> Option<&'static str> {
    match v {
        0 => Some("$small"),
        1 => Some("$large"),
        _ => None,
    }
}

/// Module default float rounding.
pub(crate) fn default_round(v: u8) -> Option<&'static str> {
    match v {
        1 => Some("$default"),
        2 => Some("$near"),
        3 => Some("$zero"),
        _ => None,
    }
}

/// Width modifier value names (inside `width(…)`); `""` for none.
pub(crate) fn width(v: u8) -> Option<WidthText> {
    match v {
        0 => Some(WidthText::None),
        1..=32 => Some(WidthText::Count(1u64 << (v - 1))),
        33 => Some(WidthText::Text("WAVESIZE")),
        34 => Some(WidthText::Text("all")),
        _ => None,
    }
}

/// How a width value prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WidthText {
    /// `BRIG_WIDTH_NONE`: nothing.
    None,
    /// `width(n)`.
    Count(u64),
    /// `width(WAVESIZE)` or `width(all)`.
    Text(&'static str),
}

/// `BRIG_WIDTH_*` values used as defaults.
pub(crate) mod width {
    pub const NONE: u8 = 0;
    pub const W1: u8 = 1;
    pub const WAVESIZE: u8 = 33;
    pub const ALL: u8 = 34;
}
