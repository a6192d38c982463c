//! Every enumeration and bit mask of HSA PRM 1.0 §18.3 (BRIG support types).
//!
//! Each spec enum is a `#[repr(transparent)]` newtype over the little-endian
//! bytes of the spec's integer width (`u8`, `u16` or `u32`), so that:
//!
//! * a value read from a file that the spec does not define is still
//!   representable (and printed as its raw number);
//! * the type can sit directly inside a zero-copy `#[repr(C)]` entry at any
//!   byte offset (it is `Unaligned`);
//! * the associated consts (`BrigOpcode::ADD`, `BrigType::U32`, …) can be used
//!   as `match` patterns.
//!
//! Values were taken from PRM 1.0 §18.3 and cross-checked against the
//! HSA 1.0.1 BRIG header as shipped by HSAIL-Tools / GCC. The PRM text has a
//! few typos that those headers fix (`BRIG_KIND_OPERAND_WAVESIZE` is 0x300c,
//! `BRIG_OPCODE_GROUPBASEPTR` is 130, opcodes 123–126 are
//! `LDQUEUEREADINDEX`, `LDQUEUEWRITEINDEX`, `STQUEUEREADINDEX`,
//! `STQUEUEWRITEINDEX`, opcode 55 is `NRCP`, 83 is `QUERYSAMPLER`).

use core::fmt;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The spec name of a value: prefix + explicit name, or prefix + identifier.
macro_rules! brig_name {
    ($prefix:literal, $variant:ident, $sname:literal) => {
        concat!($prefix, $sname)
    };
    ($prefix:literal, $variant:ident) => {
        concat!($prefix, stringify!($variant))
    };
}

/// Defines a BRIG enumeration newtype.
///
/// ```text
/// brig_enum! {
///     /// docs
///     BrigFoo: u8, "BRIG_FOO_" {
///         A = 0,          // named value: const + name()
///     }
///     aliases { BEGIN = 0 } // extra consts that name() never returns
/// }
/// ```
macro_rules! brig_enum {
    (
        $(#[$meta:meta])*
        $name:ident : $repr:ident, $prefix:literal {
            $( $(#[$vmeta:meta])* $([$sname:literal])? $variant:ident = $value:expr ),* $(,)?
        }
        $( aliases { $( $(#[$ameta:meta])* $alias:ident = $avalue:expr ),* $(,)? } )?
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        pub struct $name([u8; core::mem::size_of::<$repr>()]);

        #[allow(missing_docs)]
        impl $name {
            $( $(#[$vmeta])* pub const $variant: Self = Self::new($value); )*
            $($( $(#[$ameta])* pub const $alias: Self = Self::new($avalue); )*)?

            /// Every value the spec names, in spec order (aliases excluded).
            pub const VALUES: &'static [Self] = &[ $( Self::$variant ),* ];

            /// Every spec name with its value, aliases included
            /// (`("BRIG_KIND_DIRECTIVE_BEGIN", BrigKind::DIRECTIVE_BEGIN)`).
            pub const NAMES: &'static [(&'static str, Self)] = &[
                $( (brig_name!($prefix, $variant $(, $sname)?), Self::$variant), )*
                $($( (concat!($prefix, stringify!($alias)), Self::$alias), )*)?
            ];

            /// The value with spec name `name` (aliases included).
            pub fn from_name(name: &str) -> Option<Self> {
                Self::NAMES.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
            }

            /// The spec's name prefix of this enum's values.
            pub const PREFIX: &'static str = $prefix;

            /// Wraps a raw value (which need not be one the spec defines).
            #[inline]
            pub const fn new(raw: $repr) -> Self {
                Self(raw.to_le_bytes())
            }

            /// The raw integer value.
            #[inline]
            pub const fn raw(self) -> $repr {
                <$repr>::from_le_bytes(self.0)
            }

            /// The spec's name of this value (`"BRIG_OPCODE_ADD"`), or `None`
            /// for a value the spec does not define.
            pub const fn name(self) -> Option<&'static str> {
                #[allow(unreachable_patterns)]
                match self.raw() {
                    $( x if x == $value => Some(brig_name!($prefix, $variant $(, $sname)?)), )*
                    _ => None,
                }
            }

            /// The name without the spec prefix (`"ADD"`), if the value is known.
            pub fn short_name(self) -> Option<&'static str> {
                self.name().map(|n| &n[$prefix.len()..])
            }

            /// Whether the spec defines this value.
            pub const fn is_known(self) -> bool {
                self.name().is_some()
            }
        }


        numeric_value_impls!($name, $repr, raw);

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{}({})", stringify!($name), self.raw()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{}", self.raw()),
                }
            }
        }
    };
}

/// Defines a BRIG bit-mask newtype: like [`brig_enum!`] but with bit
/// operations, and `Debug` prints the set bits joined by `|`.
macro_rules! brig_mask {
    (
        $(#[$meta:meta])*
        $name:ident : $repr:ident, $prefix:literal {
            $( $(#[$vmeta:meta])* $([$sname:literal])? $variant:ident = $value:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        pub struct $name([u8; core::mem::size_of::<$repr>()]);

        #[allow(missing_docs)]
        impl $name {
            $( $(#[$vmeta])* pub const $variant: Self = Self::new($value); )*

            /// No bit set.
            pub const EMPTY: Self = Self::new(0);

            /// Every named bit, in spec order.
            pub const VALUES: &'static [Self] = &[ $( Self::$variant ),* ];

            /// Every spec name with its bit.
            pub const NAMES: &'static [(&'static str, Self)] = &[
                $( (brig_name!($prefix, $variant $(, $sname)?), Self::$variant), )*
            ];

            /// The bit with spec name `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::NAMES.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
            }

            /// The spec's name prefix of this mask's bits.
            pub const PREFIX: &'static str = $prefix;

            /// Wraps a raw value.
            #[inline]
            pub const fn new(raw: $repr) -> Self {
                Self(raw.to_le_bytes())
            }

            /// The raw integer value.
            #[inline]
            pub const fn raw(self) -> $repr {
                <$repr>::from_le_bytes(self.0)
            }

            /// Whether every bit of `other` is set in `self`.
            #[inline]
            pub const fn contains(self, other: Self) -> bool {
                self.raw() & other.raw() == other.raw()
            }

            /// Whether no bit is set.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.raw() == 0
            }

            /// The bits the spec does not name.
            #[inline]
            pub const fn unknown_bits(self) -> $repr {
                self.raw() & !(0 $( | $value )*)
            }

            /// `self` with the bits of `other` set (`on`) or cleared.
            #[inline]
            #[must_use]
            pub const fn with(self, other: Self, on: bool) -> Self {
                if on {
                    Self::new(self.raw() | other.raw())
                } else {
                    Self::new(self.raw() & !other.raw())
                }
            }

            /// The spec's name if exactly one named bit is set
            /// (`"BRIG_ALU_FTZ"`).
            pub const fn name(self) -> Option<&'static str> {
                #[allow(unreachable_patterns)]
                match self.raw() {
                    $( x if x == $value => Some(brig_name!($prefix, $variant $(, $sname)?)), )*
                    _ => None,
                }
            }
        }

        impl core::ops::BitOr for $name {
            type Output = Self;
            #[inline]
            fn bitor(self, rhs: Self) -> Self {
                Self::new(self.raw() | rhs.raw())
            }
        }
        impl core::ops::BitOrAssign for $name {
            #[inline]
            fn bitor_assign(&mut self, rhs: Self) {
                *self = *self | rhs;
            }
        }
        impl core::ops::BitAnd for $name {
            type Output = Self;
            #[inline]
            fn bitand(self, rhs: Self) -> Self {
                Self::new(self.raw() & rhs.raw())
            }
        }
        impl core::ops::BitAndAssign for $name {
            #[inline]
            fn bitand_assign(&mut self, rhs: Self) {
                *self = *self & rhs;
            }
        }
        impl core::ops::Not for $name {
            type Output = Self;
            #[inline]
            fn not(self) -> Self {
                Self::new(!self.raw())
            }
        }

        numeric_value_impls!($name, $repr, raw);

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.is_empty() {
                    return f.write_str("0");
                }
                let mut first = true;
                $(
                    if $value != 0 && self.contains(Self::$variant) {
                        if !first { f.write_str("|")?; }
                        first = false;
                        f.write_str(brig_name!($prefix, $variant $(, $sname)?))?;
                    }
                )*
                let rest = self.unknown_bits();
                if rest != 0 {
                    if !first { f.write_str("|")?; }
                    write!(f, "{:#x}", rest)?;
                }
                Ok(())
            }
        }
    };
}

brig_enum! {
    /// `BrigAlignment8_t` (§18.3.2): `log2(bytes) + 1`; 0 means none.
    BrigAlignment: u8, "BRIG_ALIGNMENT_" {
        NONE = 0, ["1"] _1 = 1, ["2"] _2 = 2, ["4"] _4 = 3, ["8"] _8 = 4, ["16"] _16 = 5, ["32"] _32 = 6, ["64"] _64 = 7, ["128"] _128 = 8, ["256"] _256 = 9,
    }
}

impl BrigAlignment {
    /// The alignment in bytes (`None` for `NONE` or an unknown value).
    pub const fn bytes(self) -> Option<u32> {
        match self.raw() {
            1..=9 => Some(1 << (self.raw() - 1)),
            _ => None,
        }
    }

    /// The alignment for a power-of-two byte count from 1 to 256.
    pub const fn from_bytes(bytes: u64) -> Option<Self> {
        if bytes == 0 || !bytes.is_power_of_two() || bytes > 256 {
            return None;
        }
        Some(Self::new(bytes.trailing_zeros() as u8 + 1))
    }
}

brig_enum! {
    /// `BrigAllocation8_t` (§18.3.3).
    BrigAllocation: u8, "BRIG_ALLOCATION_" {
        NONE = 0, PROGRAM = 1, AGENT = 2, AUTOMATIC = 3,
    }
}

brig_mask! {
    /// `BrigAluModifier8_t` (§18.3.4).
    BrigAluModifierMask: u8, "BRIG_ALU_" {
        FTZ = 1,
    }
}

brig_enum! {
    /// `BrigAtomicOperation8_t` (§18.3.5).
    BrigAtomicOperation: u8, "BRIG_ATOMIC_" {
        ADD = 0, AND = 1, CAS = 2, EXCH = 3, LD = 4, MAX = 5, MIN = 6, OR = 7, ST = 8,
        SUB = 9, WRAPDEC = 10, WRAPINC = 11, XOR = 12, WAIT_EQ = 13, WAIT_NE = 14,
        WAIT_LT = 15, WAIT_GTE = 16, WAITTIMEOUT_EQ = 17, WAITTIMEOUT_NE = 18,
        WAITTIMEOUT_LT = 19, WAITTIMEOUT_GTE = 20,
    }
}

brig_enum! {
    /// `BrigCompareOperation8_t` (§18.3.7).
    BrigCompareOperation: u8, "BRIG_COMPARE_" {
        EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5, EQU = 6, NEU = 7, LTU = 8, LEU = 9,
        GTU = 10, GEU = 11, NUM = 12, NAN = 13, SEQ = 14, SNE = 15, SLT = 16, SLE = 17,
        SGT = 18, SGE = 19, SGEU = 20, SEQU = 21, SNEU = 22, SLTU = 23, SLEU = 24,
        SNUM = 25, SNAN = 26, SGTU = 27,
    }
}

brig_enum! {
    /// `BrigControlDirective16_t` (§18.3.8).
    BrigControlDirective: u16, "BRIG_CONTROL_" {
        NONE = 0, ENABLEBREAKEXCEPTIONS = 1, ENABLEDETECTEXCEPTIONS = 2,
        MAXDYNAMICGROUPSIZE = 3, MAXFLATGRIDSIZE = 4, MAXFLATWORKGROUPSIZE = 5,
        REQUIREDDIM = 6, REQUIREDGRIDSIZE = 7, REQUIREDWORKGROUPSIZE = 8,
        REQUIRENOPARTIALWORKGROUPS = 9,
    }
}

brig_mask! {
    /// `BrigExceptions32_t` (§18.3.9). Bits 16–31 are implementation defined.
    BrigExceptionsMask: u32, "BRIG_EXCEPTIONS_" {
        INVALID_OPERATION = 1 << 0, DIVIDE_BY_ZERO = 1 << 1, OVERFLOW = 1 << 2,
        UNDERFLOW = 1 << 3, INEXACT = 1 << 4, FIRST_USER_DEFINED = 1 << 16,
    }
}

brig_mask! {
    /// `BrigExecutableModifier8_t` (§18.3.10).
    BrigExecutableModifierMask: u8, "BRIG_EXECUTABLE_" {
        DEFINITION = 1,
    }
}

brig_enum! {
    /// `BrigImageChannelOrder8_t` (§18.3.11). 128–255 implementation defined.
    BrigImageChannelOrder: u8, "BRIG_CHANNEL_ORDER_" {
        A = 0, R = 1, RX = 2, RG = 3, RGX = 4, RA = 5, RGB = 6, RGBX = 7, RGBA = 8,
        BGRA = 9, ARGB = 10, ABGR = 11, SRGB = 12, SRGBX = 13, SRGBA = 14, SBGRA = 15,
        INTENSITY = 16, LUMINANCE = 17, DEPTH = 18, DEPTH_STENCIL = 19,
        FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigImageChannelType8_t` (§18.3.12). 128–255 implementation defined.
    BrigImageChannelType: u8, "BRIG_CHANNEL_TYPE_" {
        SNORM_INT8 = 0, SNORM_INT16 = 1, UNORM_INT8 = 2, UNORM_INT16 = 3, UNORM_INT24 = 4,
        UNORM_SHORT_555 = 5, UNORM_SHORT_565 = 6, UNORM_INT_101010 = 7, SIGNED_INT8 = 8,
        SIGNED_INT16 = 9, SIGNED_INT32 = 10, UNSIGNED_INT8 = 11, UNSIGNED_INT16 = 12,
        UNSIGNED_INT32 = 13, HALF_FLOAT = 14, FLOAT = 15, FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigImageGeometry8_t` (§18.3.13). 128–255 implementation defined.
    BrigImageGeometry: u8, "BRIG_GEOMETRY_" {
        ["1D"] _1D = 0, ["2D"] _2D = 1, ["3D"] _3D = 2, ["1DA"] _1DA = 3, ["2DA"] _2DA = 4, ["1DB"] _1DB = 5, ["2DDEPTH"] _2DDEPTH = 6,
        ["2DADEPTH"] _2DADEPTH = 7, FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigImageQuery8_t` (§18.3.14).
    BrigImageQuery: u8, "BRIG_IMAGE_QUERY_" {
        WIDTH = 0, HEIGHT = 1, DEPTH = 2, ARRAY = 3, CHANNELORDER = 4, CHANNELTYPE = 5,
    }
}

brig_enum! {
    /// `BrigKind16_t` (§18.3.15): the kind of an `hsa_code` or `hsa_operand`
    /// entry. `DIRECTIVE_*`/`INST_*` only in `hsa_code`, `OPERAND_*` only in
    /// `hsa_operand`; `NONE` is [`BrigDirectiveNone`](crate::BrigDirectiveNone).
    BrigKind: u16, "BRIG_KIND_" {
        NONE = 0x0000,
        DIRECTIVE_ARG_BLOCK_END = 0x1000,
        DIRECTIVE_ARG_BLOCK_START = 0x1001,
        DIRECTIVE_COMMENT = 0x1002,
        DIRECTIVE_CONTROL = 0x1003,
        DIRECTIVE_EXTENSION = 0x1004,
        DIRECTIVE_FBARRIER = 0x1005,
        DIRECTIVE_FUNCTION = 0x1006,
        DIRECTIVE_INDIRECT_FUNCTION = 0x1007,
        DIRECTIVE_KERNEL = 0x1008,
        DIRECTIVE_LABEL = 0x1009,
        DIRECTIVE_LOC = 0x100a,
        DIRECTIVE_MODULE = 0x100b,
        DIRECTIVE_PRAGMA = 0x100c,
        DIRECTIVE_SIGNATURE = 0x100d,
        DIRECTIVE_VARIABLE = 0x100e,
        INST_ADDR = 0x2000,
        INST_ATOMIC = 0x2001,
        INST_BASIC = 0x2002,
        INST_BR = 0x2003,
        INST_CMP = 0x2004,
        INST_CVT = 0x2005,
        INST_IMAGE = 0x2006,
        INST_LANE = 0x2007,
        INST_MEM = 0x2008,
        INST_MEM_FENCE = 0x2009,
        INST_MOD = 0x200a,
        INST_QUERY_IMAGE = 0x200b,
        INST_QUERY_SAMPLER = 0x200c,
        INST_QUEUE = 0x200d,
        INST_SEG = 0x200e,
        INST_SEG_CVT = 0x200f,
        INST_SIGNAL = 0x2010,
        INST_SOURCE_TYPE = 0x2011,
        OPERAND_ADDRESS = 0x3000,
        OPERAND_ALIGN = 0x3001,
        OPERAND_CODE_LIST = 0x3002,
        OPERAND_CODE_REF = 0x3003,
        OPERAND_CONSTANT_BYTES = 0x3004,
        OPERAND_RESERVED = 0x3005,
        OPERAND_CONSTANT_IMAGE = 0x3006,
        OPERAND_CONSTANT_OPERAND_LIST = 0x3007,
        OPERAND_CONSTANT_SAMPLER = 0x3008,
        OPERAND_OPERAND_LIST = 0x3009,
        OPERAND_REGISTER = 0x300a,
        OPERAND_STRING = 0x300b,
        OPERAND_WAVESIZE = 0x300c,
    }
    aliases {
        DIRECTIVE_BEGIN = 0x1000,
        DIRECTIVE_END = 0x100f,
        INST_BEGIN = 0x2000,
        INST_END = 0x2012,
        OPERAND_BEGIN = 0x3000,
        OPERAND_END = 0x300d,
    }
}

impl BrigKind {
    /// A directive kind (`DIRECTIVE_BEGIN..DIRECTIVE_END`; `NONE` excluded).
    pub const fn is_directive(self) -> bool {
        self.raw() >= Self::DIRECTIVE_BEGIN.raw() && self.raw() < Self::DIRECTIVE_END.raw()
    }
    /// An instruction kind (`INST_BEGIN..INST_END`).
    pub const fn is_inst(self) -> bool {
        self.raw() >= Self::INST_BEGIN.raw() && self.raw() < Self::INST_END.raw()
    }
    /// An operand kind (`OPERAND_BEGIN..OPERAND_END`).
    pub const fn is_operand(self) -> bool {
        self.raw() >= Self::OPERAND_BEGIN.raw() && self.raw() < Self::OPERAND_END.raw()
    }
    /// A kind allowed in `hsa_code`: a directive, an instruction or `NONE`.
    pub const fn is_code(self) -> bool {
        self.raw() == 0 || self.is_directive() || self.is_inst()
    }
}

brig_enum! {
    /// `BrigLinkage8_t` (§18.3.16).
    BrigLinkage: u8, "BRIG_LINKAGE_" {
        NONE = 0, PROGRAM = 1, MODULE = 2, FUNCTION = 3, ARG = 4,
    }
}

brig_enum! {
    /// `BrigMachineModel8_t` (§18.3.17).
    BrigMachineModel: u8, "BRIG_MACHINE_" {
        SMALL = 0, LARGE = 1,
    }
}

brig_mask! {
    /// `BrigMemoryModifier8_t` (§18.3.18).
    BrigMemoryModifierMask: u8, "BRIG_MEMORY_" {
        CONST = 1,
    }
}

brig_enum! {
    /// `BrigMemoryOrder8_t` (§18.3.19).
    BrigMemoryOrder: u8, "BRIG_MEMORY_ORDER_" {
        NONE = 0, RELAXED = 1, SC_ACQUIRE = 2, SC_RELEASE = 3, SC_ACQUIRE_RELEASE = 4,
    }
}

brig_enum! {
    /// `BrigMemoryScope8_t` (§18.3.20).
    BrigMemoryScope: u8, "BRIG_MEMORY_SCOPE_" {
        NONE = 0, WORKITEM = 1, WAVEFRONT = 2, WORKGROUP = 3, AGENT = 4, SYSTEM = 5,
    }
}

brig_enum! {
    /// `BrigOpcode16_t` (§18.3.22). 32768–65535 implementation defined.
    BrigOpcode: u16, "BRIG_OPCODE_" {
        NOP = 0, ABS = 1, ADD = 2, BORROW = 3, CARRY = 4, CEIL = 5, COPYSIGN = 6, DIV = 7,
        FLOOR = 8, FMA = 9, FRACT = 10, MAD = 11, MAX = 12, MIN = 13, MUL = 14, MULHI = 15,
        NEG = 16, REM = 17, RINT = 18, SQRT = 19, SUB = 20, TRUNC = 21, MAD24 = 22,
        MAD24HI = 23, MUL24 = 24, MUL24HI = 25, SHL = 26, SHR = 27, AND = 28, NOT = 29,
        OR = 30, POPCOUNT = 31, XOR = 32, BITEXTRACT = 33, BITINSERT = 34, BITMASK = 35,
        BITREV = 36, BITSELECT = 37, FIRSTBIT = 38, LASTBIT = 39, COMBINE = 40,
        EXPAND = 41, LDA = 42, MOV = 43, SHUFFLE = 44, UNPACKHI = 45, UNPACKLO = 46,
        PACK = 47, UNPACK = 48, CMOV = 49, CLASS = 50, NCOS = 51, NEXP2 = 52, NFMA = 53,
        NLOG2 = 54, NRCP = 55, NRSQRT = 56, NSIN = 57, NSQRT = 58, BITALIGN = 59,
        BYTEALIGN = 60, PACKCVT = 61, UNPACKCVT = 62, LERP = 63, SAD = 64, SADHI = 65,
        SEGMENTP = 66, FTOS = 67, STOF = 68, CMP = 69, CVT = 70, LD = 71, ST = 72,
        ATOMIC = 73, ATOMICNORET = 74, SIGNAL = 75, SIGNALNORET = 76, MEMFENCE = 77,
        RDIMAGE = 78, LDIMAGE = 79, STIMAGE = 80, IMAGEFENCE = 81, QUERYIMAGE = 82,
        QUERYSAMPLER = 83, CBR = 84, BR = 85, SBR = 86, BARRIER = 87, WAVEBARRIER = 88,
        ARRIVEFBAR = 89, INITFBAR = 90, JOINFBAR = 91, LEAVEFBAR = 92, RELEASEFBAR = 93,
        WAITFBAR = 94, LDF = 95, ACTIVELANECOUNT = 96, ACTIVELANEID = 97,
        ACTIVELANEMASK = 98, ACTIVELANEPERMUTE = 99, CALL = 100, SCALL = 101, ICALL = 102,
        RET = 103, ALLOCA = 104, CURRENTWORKGROUPSIZE = 105, CURRENTWORKITEMFLATID = 106,
        DIM = 107, GRIDGROUPS = 108, GRIDSIZE = 109, PACKETCOMPLETIONSIG = 110,
        PACKETID = 111, WORKGROUPID = 112, WORKGROUPSIZE = 113, WORKITEMABSID = 114,
        WORKITEMFLATABSID = 115, WORKITEMFLATID = 116, WORKITEMID = 117,
        CLEARDETECTEXCEPT = 118, GETDETECTEXCEPT = 119, SETDETECTEXCEPT = 120,
        ADDQUEUEWRITEINDEX = 121, CASQUEUEWRITEINDEX = 122, LDQUEUEREADINDEX = 123,
        LDQUEUEWRITEINDEX = 124, STQUEUEREADINDEX = 125, STQUEUEWRITEINDEX = 126,
        CLOCK = 127, CUID = 128, DEBUGTRAP = 129, GROUPBASEPTR = 130, KERNARGBASEPTR = 131,
        LANEID = 132, MAXCUID = 133, MAXWAVEID = 134, NULLPTR = 135, WAVEID = 136,
    }
    aliases {
        /// First implementation-defined opcode.
        FIRST_USER_DEFINED = 32768,
    }
}

brig_enum! {
    /// `BrigPack8_t` (§18.3.23).
    BrigPack: u8, "BRIG_PACK_" {
        NONE = 0, PP = 1, PS = 2, SP = 3, SS = 4, S = 5, P = 6, PPSAT = 7, PSSAT = 8,
        SPSAT = 9, SSSAT = 10, SSAT = 11, PSAT = 12,
    }
}

brig_enum! {
    /// `BrigProfile8_t` (§18.3.24).
    BrigProfile: u8, "BRIG_PROFILE_" {
        BASE = 0, FULL = 1,
    }
}

brig_enum! {
    /// `BrigRegisterKind16_t` (§18.3.25): `$c`, `$s`, `$d`, `$q`.
    BrigRegisterKind: u16, "BRIG_REGISTER_KIND_" {
        CONTROL = 0, SINGLE = 1, DOUBLE = 2, QUAD = 3,
    }
}

brig_enum! {
    /// `BrigRound8_t` (§18.3.26).
    BrigRound: u8, "BRIG_ROUND_" {
        NONE = 0, FLOAT_DEFAULT = 1, FLOAT_NEAR_EVEN = 2, FLOAT_ZERO = 3,
        FLOAT_PLUS_INFINITY = 4, FLOAT_MINUS_INFINITY = 5, INTEGER_NEAR_EVEN = 6,
        INTEGER_ZERO = 7, INTEGER_PLUS_INFINITY = 8, INTEGER_MINUS_INFINITY = 9,
        INTEGER_NEAR_EVEN_SAT = 10, INTEGER_ZERO_SAT = 11, INTEGER_PLUS_INFINITY_SAT = 12,
        INTEGER_MINUS_INFINITY_SAT = 13, INTEGER_SIGNALING_NEAR_EVEN = 14,
        INTEGER_SIGNALING_ZERO = 15, INTEGER_SIGNALING_PLUS_INFINITY = 16,
        INTEGER_SIGNALING_MINUS_INFINITY = 17, INTEGER_SIGNALING_NEAR_EVEN_SAT = 18,
        INTEGER_SIGNALING_ZERO_SAT = 19, INTEGER_SIGNALING_PLUS_INFINITY_SAT = 20,
        INTEGER_SIGNALING_MINUS_INFINITY_SAT = 21,
    }
    aliases {
        /// Short alias of `INTEGER_NEAR_EVEN_SAT` (`neari_sat`).
        INTEGER_NEAR_SAT = 10,
    }
}

brig_enum! {
    /// `BrigSamplerAddressing8_t` (§18.3.27). 128–255 implementation defined.
    BrigSamplerAddressing: u8, "BRIG_ADDRESSING_" {
        UNDEFINED = 0, CLAMP_TO_EDGE = 1, CLAMP_TO_BORDER = 2, REPEAT = 3,
        MIRRORED_REPEAT = 4, FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigSamplerCoordNormalization8_t` (§18.3.28).
    BrigSamplerCoordNormalization: u8, "BRIG_COORD_" {
        UNNORMALIZED = 0, NORMALIZED = 1,
    }
}

brig_enum! {
    /// `BrigSamplerFilter8_t` (§18.3.29). 128–255 implementation defined.
    BrigSamplerFilter: u8, "BRIG_FILTER_" {
        NEAREST = 0, LINEAR = 1, FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigSamplerQuery8_t` (§18.3.30).
    BrigSamplerQuery: u8, "BRIG_SAMPLER_QUERY_" {
        ADDRESSING = 0, COORD = 1, FILTER = 2,
    }
}

brig_enum! {
    /// `BrigSectionIndex32_t` (§18.3.31): index into the section index array.
    BrigSectionIndex: u32, "BRIG_SECTION_INDEX_" {
        DATA = 0, CODE = 1, OPERAND = 2, BEGIN_IMPLEMENTATION_DEFINED = 3,
    }
}

brig_mask! {
    /// `BrigSegCvtModifier8_t` (§18.3.33).
    BrigSegCvtModifierMask: u8, "BRIG_SEG_CVT_" {
        NONULL = 1,
    }
}

brig_enum! {
    /// `BrigSegment8_t` (§18.3.34). 128–255 implementation defined.
    BrigSegment: u8, "BRIG_SEGMENT_" {
        NONE = 0, FLAT = 1, GLOBAL = 2, READONLY = 3, KERNARG = 4, GROUP = 5,
        PRIVATE = 6, SPILL = 7, ARG = 8, FIRST_USER_DEFINED = 128,
    }
}

brig_enum! {
    /// `BrigType16_t` (§18.3.35): base type in bits 0–4, packing in bits 5–6,
    /// array flag in bit 7.
    BrigType: u16, "BRIG_TYPE_" {
        NONE = 0,
        U8 = 1, U16 = 2, U32 = 3, U64 = 4,
        S8 = 5, S16 = 6, S32 = 7, S64 = 8,
        F16 = 9, F32 = 10, F64 = 11,
        B1 = 12, B8 = 13, B16 = 14, B32 = 15, B64 = 16, B128 = 17,
        SAMP = 18, ROIMG = 19, WOIMG = 20, RWIMG = 21,
        SIG32 = 22, SIG64 = 23,

        U8X4 = 1 | 32, U8X8 = 1 | 64, U8X16 = 1 | 96,
        U16X2 = 2 | 32, U16X4 = 2 | 64, U16X8 = 2 | 96,
        U32X2 = 3 | 64, U32X4 = 3 | 96,
        U64X2 = 4 | 96,
        S8X4 = 5 | 32, S8X8 = 5 | 64, S8X16 = 5 | 96,
        S16X2 = 6 | 32, S16X4 = 6 | 64, S16X8 = 6 | 96,
        S32X2 = 7 | 64, S32X4 = 7 | 96,
        S64X2 = 8 | 96,
        F16X2 = 9 | 32, F16X4 = 9 | 64, F16X8 = 9 | 96,
        F32X2 = 10 | 64, F32X4 = 10 | 96,
        F64X2 = 11 | 96,

        U8_ARRAY = 1 | 128, U16_ARRAY = 2 | 128, U32_ARRAY = 3 | 128, U64_ARRAY = 4 | 128,
        S8_ARRAY = 5 | 128, S16_ARRAY = 6 | 128, S32_ARRAY = 7 | 128, S64_ARRAY = 8 | 128,
        F16_ARRAY = 9 | 128, F32_ARRAY = 10 | 128, F64_ARRAY = 11 | 128,
        B8_ARRAY = 13 | 128, B16_ARRAY = 14 | 128, B32_ARRAY = 15 | 128,
        B64_ARRAY = 16 | 128, B128_ARRAY = 17 | 128,
        SAMP_ARRAY = 18 | 128, ROIMG_ARRAY = 19 | 128, WOIMG_ARRAY = 20 | 128,
        RWIMG_ARRAY = 21 | 128,
        SIG32_ARRAY = 22 | 128, SIG64_ARRAY = 23 | 128,

        U8X4_ARRAY = 1 | 32 | 128, U8X8_ARRAY = 1 | 64 | 128, U8X16_ARRAY = 1 | 96 | 128,
        U16X2_ARRAY = 2 | 32 | 128, U16X4_ARRAY = 2 | 64 | 128, U16X8_ARRAY = 2 | 96 | 128,
        U32X2_ARRAY = 3 | 64 | 128, U32X4_ARRAY = 3 | 96 | 128,
        U64X2_ARRAY = 4 | 96 | 128,
        S8X4_ARRAY = 5 | 32 | 128, S8X8_ARRAY = 5 | 64 | 128, S8X16_ARRAY = 5 | 96 | 128,
        S16X2_ARRAY = 6 | 32 | 128, S16X4_ARRAY = 6 | 64 | 128, S16X8_ARRAY = 6 | 96 | 128,
        S32X2_ARRAY = 7 | 64 | 128, S32X4_ARRAY = 7 | 96 | 128,
        S64X2_ARRAY = 8 | 96 | 128,
        F16X2_ARRAY = 9 | 32 | 128, F16X4_ARRAY = 9 | 64 | 128, F16X8_ARRAY = 9 | 96 | 128,
        F32X2_ARRAY = 10 | 64 | 128, F32X4_ARRAY = 10 | 96 | 128,
        F64X2_ARRAY = 11 | 96 | 128,
    }
}

/// The class of a BRIG base type: `b`, `u`, `s`, `f` or one of the opaque
/// types (`samp`, images, signals).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BaseClass {
    /// `none`.
    None,
    /// Bit types `b1`…`b128`.
    B,
    /// Unsigned integers.
    U,
    /// Signed integers.
    S,
    /// Floating point.
    F,
    /// `samp`, `roimg`, `woimg`, `rwimg`, `sig32`, `sig64`.
    Opaque,
}

impl BrigType {
    /// `BRIG_TYPE_BASE_SIZE`.
    pub const BASE_SIZE: u16 = 5;
    /// `BRIG_TYPE_PACK_SIZE`.
    pub const PACK_SIZE: u16 = 2;
    /// `BRIG_TYPE_ARRAY_SIZE`.
    pub const ARRAY_SIZE: u16 = 1;
    /// `BRIG_TYPE_BASE_SHIFT`.
    pub const BASE_SHIFT: u16 = 0;
    /// `BRIG_TYPE_PACK_SHIFT`.
    pub const PACK_SHIFT: u16 = 5;
    /// `BRIG_TYPE_ARRAY_SHIFT`.
    pub const ARRAY_SHIFT: u16 = 7;
    /// `BRIG_TYPE_BASE_MASK`.
    pub const BASE_MASK: u16 = 0x1f;
    /// `BRIG_TYPE_PACK_MASK`.
    pub const PACK_MASK: u16 = 0x60;
    /// `BRIG_TYPE_ARRAY_MASK`.
    pub const ARRAY_MASK: u16 = 0x80;
    /// `BRIG_TYPE_PACK_NONE`.
    pub const PACK_NONE: u16 = 0;
    /// `BRIG_TYPE_PACK_32`.
    pub const PACK_32: u16 = 0x20;
    /// `BRIG_TYPE_PACK_64`.
    pub const PACK_64: u16 = 0x40;
    /// `BRIG_TYPE_PACK_128`.
    pub const PACK_128: u16 = 0x60;
    /// `BRIG_TYPE_ARRAY` (the array bit).
    pub const ARRAY_BIT: u16 = 0x80;

    /// The base type (bits 0–4), without packing or array bit.
    pub const fn base(self) -> BrigType {
        BrigType::new(self.raw() & Self::BASE_MASK)
    }

    /// Whether the array bit is set.
    pub const fn is_array(self) -> bool {
        self.raw() & Self::ARRAY_MASK != 0
    }

    /// The element type of an array type (the array bit cleared), or `None`
    /// if this is not an array type.
    pub const fn array_element(self) -> Option<BrigType> {
        if self.is_array() {
            Some(BrigType::new(self.raw() & !Self::ARRAY_MASK))
        } else {
            None
        }
    }

    /// The array type whose elements are `self` (array bit set).
    pub const fn array_of(self) -> BrigType {
        BrigType::new(self.raw() | Self::ARRAY_MASK)
    }

    /// Whether this (non-array part) is a packed type.
    pub const fn is_packed(self) -> bool {
        self.raw() & Self::PACK_MASK != 0
    }

    /// The element type of a packed type (e.g. `U8` for `U8X4`, also for
    /// `U8X4_ARRAY`), or `self` for a non-packed type (array bit kept).
    pub const fn element_type(self) -> BrigType {
        if self.is_packed() { self.base() } else { self }
    }

    /// Number of elements of a packed type (1 for a non-packed type).
    pub const fn packed_count(self) -> u32 {
        match (self.base().bit_size(), self.pack_bits()) {
            (Some(e), Some(p)) if e != 0 => p / e,
            _ => 1,
        }
    }

    const fn pack_bits(self) -> Option<u32> {
        match self.raw() & Self::PACK_MASK {
            0x20 => Some(32),
            0x40 => Some(64),
            0x60 => Some(128),
            _ => None,
        }
    }

    /// Size in bits of one value of this type (for an array type, of one
    /// element). `None` for `NONE` and unknown base types. Opaque types:
    /// `samp`/images 64, `sig32` 32, `sig64` 64.
    pub const fn bit_size(self) -> Option<u32> {
        if let Some(p) = self.pack_bits() {
            return match self.raw() & Self::BASE_MASK {
                1..=11 => Some(p),
                _ => None,
            };
        }
        match self.raw() & Self::BASE_MASK {
            1 | 5 | 13 => Some(8),
            2 | 6 | 9 | 14 => Some(16),
            3 | 7 | 10 | 15 | 22 => Some(32),
            4 | 8 | 11 | 16 | 18..=21 | 23 => Some(64),
            12 => Some(1),
            17 => Some(128),
            _ => None,
        }
    }

    /// Size in bytes of one value (1 for `b1`), for an array type of one
    /// element.
    pub const fn byte_size(self) -> Option<u32> {
        match self.bit_size() {
            Some(1) => Some(1),
            Some(b) => Some(b / 8),
            None => None,
        }
    }

    /// The class of the base type.
    pub const fn base_class(self) -> BaseClass {
        match self.raw() & Self::BASE_MASK {
            0 => BaseClass::None,
            1..=4 => BaseClass::U,
            5..=8 => BaseClass::S,
            9..=11 => BaseClass::F,
            12..=17 => BaseClass::B,
            _ => BaseClass::Opaque,
        }
    }

    /// Whether the base class is `f`.
    pub const fn is_float(self) -> bool {
        matches!(self.base_class(), BaseClass::F)
    }

    /// Whether the base type is an image type (`roimg`, `woimg`, `rwimg`).
    pub const fn is_image(self) -> bool {
        matches!(self.raw() & Self::BASE_MASK, 19..=21)
    }

    /// The HSAIL spelling (`"u32"`, `"f16x2"`, `"b1"`), arrays as
    /// `"u32[]"`; `None` if unknown.
    pub fn text(self) -> Option<String> {
        let n = self.short_name()?;
        Some(match n.strip_suffix("_ARRAY") {
            Some(e) => format!("{}[]", e.to_ascii_lowercase()),
            None => n.to_ascii_lowercase(),
        })
    }
}

brig_mask! {
    /// `BrigVariableModifier8_t` (§18.3.37).
    BrigVariableModifierMask: u8, "BRIG_VARIABLE_" {
        DEFINITION = 1, CONST = 2,
    }
}

brig_enum! {
    /// `BrigVersion32_t` (§18.3.38). All four spec constants alias the values
    /// 1 and 0, so `name()` names none of them.
    BrigVersion: u32, "BRIG_VERSION_" {}
    aliases {
        HSAIL_MAJOR = 1, HSAIL_MINOR = 0, BRIG_MAJOR = 1, BRIG_MINOR = 0,
    }
}

brig_enum! {
    /// `BrigWidth8_t` (§18.3.39): `_width(n)` is `log2(n) + 1`.
    BrigWidth: u8, "BRIG_WIDTH_" {
        NONE = 0, ["1"] _1 = 1, ["2"] _2 = 2, ["4"] _4 = 3, ["8"] _8 = 4, ["16"] _16 = 5, ["32"] _32 = 6, ["64"] _64 = 7, ["128"] _128 = 8,
        ["256"] _256 = 9, ["512"] _512 = 10, ["1024"] _1024 = 11, ["2048"] _2048 = 12, ["4096"] _4096 = 13, ["8192"] _8192 = 14,
        ["16384"] _16384 = 15, ["32768"] _32768 = 16, ["65536"] _65536 = 17, ["131072"] _131072 = 18, ["262144"] _262144 = 19,
        ["524288"] _524288 = 20, ["1048576"] _1048576 = 21, ["2097152"] _2097152 = 22, ["4194304"] _4194304 = 23, ["8388608"] _8388608 = 24,
        ["16777216"] _16777216 = 25, ["33554432"] _33554432 = 26, ["67108864"] _67108864 = 27, ["134217728"] _134217728 = 28,
        ["268435456"] _268435456 = 29, ["536870912"] _536870912 = 30, ["1073741824"] _1073741824 = 31, ["2147483648"] _2147483648 = 32,
        WAVESIZE = 33, ALL = 34,
    }
}

impl BrigWidth {
    /// The width in work-items for `_1`…`_2147483648`.
    pub const fn count(self) -> Option<u64> {
        match self.raw() {
            1..=32 => Some(1u64 << (self.raw() - 1)),
            _ => None,
        }
    }

    /// The width for a power-of-two work-item count 1 … 2^31.
    pub const fn from_count(n: u64) -> Option<Self> {
        if n == 0 || !n.is_power_of_two() || n > (1u64 << 31) {
            return None;
        }
        Some(Self::new(n.trailing_zeros() as u8 + 1))
    }
}
