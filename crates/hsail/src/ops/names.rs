//! The one table of HSAIL spellings of BRIG enumeration values (PRM ch. 4–17
//! for the words, §18.3 for the values), in both directions.
//!
//! Each table is a module with the same three items:
//!
//! * `text(value) -> Option<&'static str>`: the spelling (the printer);
//!   `Some("")` for a value HSAIL writes as nothing (no segment, no
//!   rounding, no packing…), `None` for a value HSAIL 1.0 does not define;
//! * `from_text(&str) -> Option<value>`: the value of a spelling (the
//!   parser); never matches `""`;
//! * `ALL`: every spelled value with its spelling (those written as nothing left out).
//!
//! Opcode mnemonics and default widths are in the parent module,
//! [`crate::ops`]. Which values the printer leaves out because they are
//! the default in their place (the flat segment in `ld_u32`, natural
//! alignment, …) is the printer's rule, not a spelling.
//!
//! ```
//! use brig::{BrigSegment, BrigType};
//! use hsail::ops::names::{segment, types};
//! assert_eq!(segment::text(BrigSegment::GLOBAL), Some("global"));
//! assert_eq!(types::from_text("u8x4"), Some(BrigType::U8X4));
//! ```

/// Defines one spelling table per enum: `pub mod name: BrigEnum { "" = [A,
/// B], C = "c", … }`, where `A` and `B` are written as nothing.
macro_rules! spellings {
    ($(
        $(#[$meta:meta])*
        pub mod $module:ident : $ty:ident {
            $("" = [$($silent:ident),* $(,)?],)?
            $($value:ident = $text:literal),* $(,)?
        }
    )*) => {$(
        $(#[$meta])*
        pub mod $module {
            use brig::$ty as T;

            /// Every spelled value with its spelling (those written as nothing left out).
            pub const ALL: &[(T, &str)] = &[$((T::$value, $text)),*];

            /// Spellings indexed by raw value (every table's values are
            /// small), so that printing a value is one load.
            const BY_VALUE: [Option<&str>; {
                let mut len = 0;
                $($(len = super::max(len, T::$silent.raw() as usize + 1);)*)?
                $(len = super::max(len, T::$value.raw() as usize + 1);)*
                len
            }] = {
                let mut t = [None; _];
                $($(t[T::$silent.raw() as usize] = Some("");)*)?
                $(t[T::$value.raw() as usize] = Some($text);)*
                t
            };

            /// The spelling of `value` (`""` if written as nothing), or
            /// `None` if HSAIL 1.0 does not define it.
            #[inline]
            pub fn text(value: T) -> Option<&'static str> {
                BY_VALUE.get(usize::try_from(value.raw()).ok()?).copied().flatten()
            }

            /// The value spelled `text`.
            #[inline]
            pub fn from_text(text: &str) -> Option<T> {
                match text {
                    $($text => Some(T::$value),)*
                    _ => None,
                }
            }
        }
    )*};
}

/// The larger of two sizes (`Ord::max` is not `const`).
const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

spellings! {
    /// Type names (`u32`, `u8x4`, `roimg`): the last suffixes of a
    /// mnemonic, variable types, typed constants. Array types are spelled
    /// by their element type and `[]`.
    pub mod types: BrigType {
        "" = [NONE],
        U8 = "u8", U16 = "u16", U32 = "u32", U64 = "u64",
        S8 = "s8", S16 = "s16", S32 = "s32", S64 = "s64",
        F16 = "f16", F32 = "f32", F64 = "f64",
        B1 = "b1", B8 = "b8", B16 = "b16", B32 = "b32", B64 = "b64", B128 = "b128",
        SAMP = "samp", ROIMG = "roimg", WOIMG = "woimg", RWIMG = "rwimg",
        SIG32 = "sig32", SIG64 = "sig64",
        U8X4 = "u8x4", U8X8 = "u8x8", U8X16 = "u8x16",
        U16X2 = "u16x2", U16X4 = "u16x4", U16X8 = "u16x8",
        U32X2 = "u32x2", U32X4 = "u32x4", U64X2 = "u64x2",
        S8X4 = "s8x4", S8X8 = "s8x8", S8X16 = "s8x16",
        S16X2 = "s16x2", S16X4 = "s16x4", S16X8 = "s16x8",
        S32X2 = "s32x2", S32X4 = "s32x4", S64X2 = "s64x2",
        F16X2 = "f16x2", F16X4 = "f16x4", F16X8 = "f16x8",
        F32X2 = "f32x2", F32X4 = "f32x4", F64X2 = "f64x2",
    }

    /// Segments (`ld_global`, `group_u32 %x`). HSAILasm leaves the flat
    /// segment out of mnemonics.
    pub mod segment: BrigSegment {
        "" = [NONE],
        FLAT = "flat", GLOBAL = "global", READONLY = "readonly", KERNARG = "kernarg",
        GROUP = "group", PRIVATE = "private", SPILL = "spill", ARG = "arg",
    }

    /// Rounding modes (`cvt_neari_s32_f32`); none and the float default are
    /// written as nothing.
    pub mod round: BrigRound {
        "" = [NONE, FLOAT_DEFAULT],
        FLOAT_NEAR_EVEN = "near", FLOAT_ZERO = "zero", FLOAT_PLUS_INFINITY = "up",
        FLOAT_MINUS_INFINITY = "down",
        INTEGER_NEAR_EVEN = "neari", INTEGER_ZERO = "zeroi",
        INTEGER_PLUS_INFINITY = "upi", INTEGER_MINUS_INFINITY = "downi",
        INTEGER_NEAR_EVEN_SAT = "neari_sat", INTEGER_ZERO_SAT = "zeroi_sat",
        INTEGER_PLUS_INFINITY_SAT = "upi_sat", INTEGER_MINUS_INFINITY_SAT = "downi_sat",
        INTEGER_SIGNALING_NEAR_EVEN = "sneari", INTEGER_SIGNALING_ZERO = "szeroi",
        INTEGER_SIGNALING_PLUS_INFINITY = "supi",
        INTEGER_SIGNALING_MINUS_INFINITY = "sdowni",
        INTEGER_SIGNALING_NEAR_EVEN_SAT = "sneari_sat",
        INTEGER_SIGNALING_ZERO_SAT = "szeroi_sat",
        INTEGER_SIGNALING_PLUS_INFINITY_SAT = "supi_sat",
        INTEGER_SIGNALING_MINUS_INFINITY_SAT = "sdowni_sat",
    }

    /// Packing controls (`add_pp_sat_u8x4`).
    pub mod pack: BrigPack {
        "" = [NONE],
        PP = "pp", PS = "ps", SP = "sp", SS = "ss", S = "s", P = "p",
        PPSAT = "pp_sat", PSSAT = "ps_sat", SPSAT = "sp_sat", SSSAT = "ss_sat",
        SSAT = "s_sat", PSAT = "p_sat",
    }

    /// Compare operations (`cmp_lt`).
    pub mod compare: BrigCompareOperation {
        EQ = "eq", NE = "ne", LT = "lt", LE = "le", GT = "gt", GE = "ge",
        EQU = "equ", NEU = "neu", LTU = "ltu", LEU = "leu", GTU = "gtu", GEU = "geu",
        NUM = "num", NAN = "nan", SEQ = "seq", SNE = "sne", SLT = "slt", SLE = "sle",
        SGT = "sgt", SGE = "sge", SGEU = "sgeu", SEQU = "sequ", SNEU = "sneu",
        SLTU = "sltu", SLEU = "sleu", SNUM = "snum", SNAN = "snan", SGTU = "sgtu",
    }

    /// Atomic and signal operations (`atomic_add`, `signal_wait_eq`).
    pub mod atomic: BrigAtomicOperation {
        ADD = "add", AND = "and", CAS = "cas", EXCH = "exch", LD = "ld", MAX = "max",
        MIN = "min", OR = "or", ST = "st", SUB = "sub", WRAPDEC = "wrapdec",
        WRAPINC = "wrapinc", XOR = "xor",
        WAIT_EQ = "wait_eq", WAIT_NE = "wait_ne", WAIT_LT = "wait_lt",
        WAIT_GTE = "wait_gte", WAITTIMEOUT_EQ = "waittimeout_eq",
        WAITTIMEOUT_NE = "waittimeout_ne", WAITTIMEOUT_LT = "waittimeout_lt",
        WAITTIMEOUT_GTE = "waittimeout_gte",
    }

    /// Memory orders (`_scacq`).
    pub mod memory_order: BrigMemoryOrder {
        "" = [NONE],
        RELAXED = "rlx", SC_ACQUIRE = "scacq", SC_RELEASE = "screl",
        SC_ACQUIRE_RELEASE = "scar",
    }

    /// Memory scopes (`_agent`).
    pub mod memory_scope: BrigMemoryScope {
        "" = [NONE],
        WORKITEM = "wi", WAVEFRONT = "wave", WORKGROUP = "wg", AGENT = "agent",
        SYSTEM = "system",
    }

    /// Image geometries (`rdimage_2d`, `geometry = 2d`).
    pub mod geometry: BrigImageGeometry {
        _1D = "1d", _2D = "2d", _3D = "3d", _1DA = "1da", _2DA = "2da", _1DB = "1db",
        _2DDEPTH = "2ddepth", _2DADEPTH = "2dadepth",
    }

    /// Image queries (`queryimage_2d_width`).
    pub mod image_query: BrigImageQuery {
        WIDTH = "width", HEIGHT = "height", DEPTH = "depth", ARRAY = "array",
        CHANNELORDER = "channelorder", CHANNELTYPE = "channeltype",
    }

    /// Sampler queries (`querysampler_filter`).
    pub mod sampler_query: BrigSamplerQuery {
        ADDRESSING = "addressing", COORD = "coord", FILTER = "filter",
    }

    /// Image channel orders (`channel_order = rgba`).
    pub mod channel_order: BrigImageChannelOrder {
        A = "a", R = "r", RX = "rx", RG = "rg", RGX = "rgx", RA = "ra", RGB = "rgb",
        RGBX = "rgbx", RGBA = "rgba", BGRA = "bgra", ARGB = "argb", ABGR = "abgr",
        SRGB = "srgb", SRGBX = "srgbx", SRGBA = "srgba", SBGRA = "sbgra",
        INTENSITY = "intensity", LUMINANCE = "luminance", DEPTH = "depth",
        DEPTH_STENCIL = "depth_stencil",
    }

    /// Image channel types (`channel_type = unorm_int8`).
    pub mod channel_type: BrigImageChannelType {
        SNORM_INT8 = "snorm_int8", SNORM_INT16 = "snorm_int16",
        UNORM_INT8 = "unorm_int8", UNORM_INT16 = "unorm_int16",
        UNORM_INT24 = "unorm_int24", UNORM_SHORT_555 = "unorm_short_555",
        UNORM_SHORT_565 = "unorm_short_565", UNORM_INT_101010 = "unorm_int_101010",
        SIGNED_INT8 = "signed_int8", SIGNED_INT16 = "signed_int16",
        SIGNED_INT32 = "signed_int32", UNSIGNED_INT8 = "unsigned_int8",
        UNSIGNED_INT16 = "unsigned_int16", UNSIGNED_INT32 = "unsigned_int32",
        HALF_FLOAT = "half_float", FLOAT = "float",
    }

    /// Sampler coordinate normalization (`coord = normalized`).
    pub mod sampler_coord: BrigSamplerCoordNormalization {
        UNNORMALIZED = "unnormalized", NORMALIZED = "normalized",
    }

    /// Sampler filters (`filter = linear`).
    pub mod sampler_filter: BrigSamplerFilter {
        NEAREST = "nearest", LINEAR = "linear",
    }

    /// Sampler addressing modes (`addressing = clamp_to_edge`).
    pub mod sampler_addressing: BrigSamplerAddressing {
        UNDEFINED = "undefined", CLAMP_TO_EDGE = "clamp_to_edge",
        CLAMP_TO_BORDER = "clamp_to_border", REPEAT = "repeat",
        MIRRORED_REPEAT = "mirrored_repeat",
    }

    /// Control directives (`maxflatgridsize 64;`).
    pub mod control: BrigControlDirective {
        ENABLEBREAKEXCEPTIONS = "enablebreakexceptions",
        ENABLEDETECTEXCEPTIONS = "enabledetectexceptions",
        MAXDYNAMICGROUPSIZE = "maxdynamicgroupsize", MAXFLATGRIDSIZE = "maxflatgridsize",
        MAXFLATWORKGROUPSIZE = "maxflatworkgroupsize", REQUIREDDIM = "requireddim",
        REQUIREDGRIDSIZE = "requiredgridsize",
        REQUIREDWORKGROUPSIZE = "requiredworkgroupsize",
        REQUIRENOPARTIALWORKGROUPS = "requirenopartialworkgroups",
    }

    /// Register name prefixes (`$s7`).
    pub mod register: BrigRegisterKind {
        CONTROL = "$c", SINGLE = "$s", DOUBLE = "$d", QUAD = "$q",
    }

    /// Module profile (`module &m:1:0:$full:…`).
    pub mod profile: BrigProfile {
        BASE = "$base", FULL = "$full",
    }

    /// Module machine model (`…:$large:…`).
    pub mod machine_model: BrigMachineModel {
        SMALL = "$small", LARGE = "$large",
    }

    /// Module default floating-point rounding (`…:$near;`).
    pub mod default_round: BrigRound {
        FLOAT_DEFAULT = "$default", FLOAT_NEAR_EVEN = "$near", FLOAT_ZERO = "$zero",
    }

    /// Linkage: `prog` for program linkage, nothing for the others.
    pub mod linkage: BrigLinkage {
        "" = [NONE, MODULE, FUNCTION, ARG],
        PROGRAM = "prog",
    }

    /// Allocation, as in `alloc(agent)`; the others are implied by the
    /// segment.
    pub mod allocation: BrigAllocation {
        "" = [NONE, PROGRAM, AUTOMATIC],
        AGENT = "agent",
    }

    /// Alignment in bytes, as in `align(16)`.
    pub mod align: BrigAlignment {
        "" = [NONE],
        _1 = "1", _2 = "2", _4 = "4", _8 = "8", _16 = "16", _32 = "32", _64 = "64",
        _128 = "128", _256 = "256",
    }

    /// Widths, as in `_width(64)`, `_width(WAVESIZE)`, `_width(all)`.
    pub mod width: BrigWidth {
        "" = [NONE],
        _1 = "1", _2 = "2", _4 = "4", _8 = "8", _16 = "16", _32 = "32", _64 = "64",
        _128 = "128", _256 = "256", _512 = "512", _1024 = "1024", _2048 = "2048",
        _4096 = "4096", _8192 = "8192", _16384 = "16384", _32768 = "32768",
        _65536 = "65536", _131072 = "131072", _262144 = "262144", _524288 = "524288",
        _1048576 = "1048576", _2097152 = "2097152", _4194304 = "4194304",
        _8388608 = "8388608", _16777216 = "16777216", _33554432 = "33554432",
        _67108864 = "67108864", _134217728 = "134217728", _268435456 = "268435456",
        _536870912 = "536870912", _1073741824 = "1073741824",
        _2147483648 = "2147483648", WAVESIZE = "WAVESIZE", ALL = "all",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table maps each spelling to its value and back, and the
    /// spellings within a table are distinct.
    #[test]
    fn spellings_round_trip() {
        fn check<T: Copy + Eq + core::fmt::Debug>(
            all: &[(T, &str)],
            text: fn(T) -> Option<&'static str>,
            from_text: fn(&str) -> Option<T>,
        ) {
            for &(v, s) in all {
                assert!(!s.is_empty());
                assert_eq!(text(v), Some(s), "{v:?}");
                assert_eq!(from_text(s), Some(v), "{s}");
            }
            assert_eq!(from_text(""), None);
        }
        macro_rules! check_all {
            ($($m:ident),*) => {$(check($m::ALL, $m::text, $m::from_text);)*};
        }
        check_all!(
            types,
            segment,
            round,
            pack,
            compare,
            atomic,
            memory_order,
            memory_scope,
            geometry,
            image_query,
            sampler_query,
            channel_order,
            channel_type,
            sampler_coord,
            sampler_filter,
            sampler_addressing,
            control,
            register,
            profile,
            machine_model,
            default_round,
            linkage,
            allocation,
            align,
            width
        );
    }

    /// Tables over a whole enum cover every value the spec names, and the
    /// numeric spellings agree with the brig crate's conversions.
    #[test]
    fn tables_cover_their_enums() {
        use brig::*;
        for &v in BrigCompareOperation::VALUES {
            assert!(compare::text(v).is_some(), "{v:?}");
        }
        for &v in BrigAtomicOperation::VALUES {
            assert!(atomic::text(v).is_some(), "{v:?}");
        }
        for &v in BrigRound::VALUES {
            assert!(round::text(v).is_some(), "{v:?}");
        }
        for &v in BrigPack::VALUES {
            assert!(pack::text(v).is_some(), "{v:?}");
        }
        for &(a, s) in align::ALL {
            assert_eq!(a.bytes().map(|b| b.to_string()).as_deref(), Some(s));
        }
        for &(w, s) in width::ALL {
            if let Some(n) = w.count() {
                assert_eq!(n.to_string(), s);
            }
        }
        for &v in BrigType::VALUES {
            let spelled = types::text(v).is_some();
            assert_eq!(spelled, !v.is_array(), "{v:?}");
        }
        assert_eq!(types::text(BrigType::new(17 | 32)), None);
    }
}
