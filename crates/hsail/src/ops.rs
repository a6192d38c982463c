//! The one table of HSAIL instructions (PRM ch. 5–16, BRIG opcodes §18.7).
//!
//! Every core opcode has one row in
//! [`for_each_opcode!`](crate::for_each_opcode): its BRIG opcode number,
//! mnemonic, the mnemonic grammar it takes (which also fixes the BRIG
//! instruction format, see [`Syntax`]), the default width HSAILasm writes
//! when no `_width(…)` suffix is given, and the type each operand is read
//! with (this decides how an immediate is encoded), and which operand's
//! vector size the mnemonic shows (`ld_v4`). Parser, lowering, printer and
//! validator all read this table; nothing else lists opcodes.
//!
//! Format rule (as HSAILasm does it): a [`Syntax::BasicOrMod`] instruction is
//! written as `BrigInstBasic` unless it has an `_ftz`, rounding or packing
//! suffix, then it is `BrigInstMod` (with the default rounding of the
//! instruction filled in, see [`default_round_mod`]).
//!
//! The spellings of every other BRIG enumeration value (types, segments,
//! rounding modes, …) are the tables of [`names`], in both directions.

pub mod names;

/// Mnemonic grammar of an instruction; fixes the BRIG instruction kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `op_type` → `BrigInstBasic`.
    Basic,
    /// `op` (no type) → `BrigInstBasic` with type NONE.
    BasicNoType,
    /// `op[_ftz][_round][_pack]_type` → `BrigInstBasic` or `BrigInstMod`.
    BasicOrMod,
    /// `op[_vN]_dtype_stype` → `BrigInstSourceType`.
    SourceType,
    /// `op[_segment]_type` → `BrigInstSeg`.
    Seg,
    /// `op[_segment]_type` → `BrigInstAddr`.
    Addr,
    /// `op[_vN][_segment][_align(n)][_const][_equiv(n)][_width(n)]_type` → `BrigInstMem`.
    Mem,
    /// `op[_width(n)][_type]` → `BrigInstBr`.
    Br,
    /// `op_cmpop[_ftz][_pack]_dtype_stype` → `BrigInstCmp`.
    Cmp,
    /// `op[_ftz][_round]_dtype_stype` → `BrigInstCvt`.
    Cvt,
    /// `op_atomicop[_segment]_order_scope[_equiv(n)]_type` → `BrigInstAtomic`.
    Atomic,
    /// `op_order_scope` → `BrigInstMemFence`.
    MemFence,
    /// `op[_vN]_geom[_equiv(n)]_dtype_itype_ctype` → `BrigInstImage`.
    Image,
    /// `op_geom_query_dtype_itype` → `BrigInstQueryImage`.
    QueryImage,
    /// `op_query_dtype` → `BrigInstQuerySampler`.
    QuerySampler,
    /// `op[_vN][_width(n)]_dtype[_stype]` → `BrigInstLane`.
    Lane,
    /// `nop` → `BrigInstBasic`.
    Nop,
    /// `op[_segment]_order_type` → `BrigInstQueue`.
    Queue,
    /// `op_signalop_order_type_sigtype` → `BrigInstSignal`.
    Signal,
    /// `op[_segment][_nonull]_dtype[_stype]` → `BrigInstSegCvt`.
    SegCvt,
    /// `imagefence` → `BrigInstBasic` (image extension).
    ImageFence,
}

/// Type an operand is read with (decides immediate encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpTy {
    /// The instruction type.
    T,
    /// The source type.
    S,
    /// The coordinate type (image instructions: third type suffix).
    C,
    U32,
    U64,
    B1,
    B32,
    /// `cmov` condition: b1 for bit types, the unsigned packed type otherwise.
    Cond,
    /// An address (size from segment and machine model).
    Addr,
    /// The signal type (`sig32`/`sig64`, second type suffix).
    Sig,
    /// The image type (second type suffix) for image instructions.
    Img,
    /// No particular type.
    Any,
}

/// Default width HSAILasm writes when no `_width` suffix is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefWidth {
    None,
    One,
    All,
    WaveSize,
}

impl DefWidth {
    /// The `BrigWidth` value (what the printer leaves out).
    pub const fn brig(self) -> brig::BrigWidth {
        match self {
            DefWidth::None => brig::BrigWidth::NONE,
            DefWidth::One => brig::BrigWidth::_1,
            DefWidth::All => brig::BrigWidth::ALL,
            DefWidth::WaveSize => brig::BrigWidth::WAVESIZE,
        }
    }
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// `BRIG_OPCODE_*` value.
    pub opcode: u16,
    /// Spec name without prefix, e.g. `ADD`.
    pub name: &'static str,
    /// Mnemonic, e.g. `add`.
    pub mnemonic: &'static str,
    pub syntax: Syntax,
    pub width: DefWidth,
    /// Type of each operand, in order.
    pub operands: &'static [OpTy],
    /// The operand whose vector size the mnemonic shows as `_vN` (`ld_v4`,
    /// `combine_v2`), if the instruction has one.
    pub vector_operand: Option<usize>,
}

/// Calls `$m!` with the whole table:
/// `{ (NAME, number, "mnemonic", Syntax, DefWidth, [operand types]), … }`,
/// where a row ends in `, vector N` when operand `N` can be a vector whose
/// size the mnemonic shows (`_vN`).
#[macro_export]
macro_rules! for_each_opcode {
    ($m:ident) => {
        $m! {
            (NOP, 0, "nop", Nop, None, []),
            (ABS, 1, "abs", BasicOrMod, None, [T, T]),
            (ADD, 2, "add", BasicOrMod, None, [T, T, T]),
            (BORROW, 3, "borrow", Basic, None, [T, T, T]),
            (CARRY, 4, "carry", Basic, None, [T, T, T]),
            (CEIL, 5, "ceil", BasicOrMod, None, [T, T]),
            (COPYSIGN, 6, "copysign", BasicOrMod, None, [T, T, T]),
            (DIV, 7, "div", BasicOrMod, None, [T, T, T]),
            (FLOOR, 8, "floor", BasicOrMod, None, [T, T]),
            (FMA, 9, "fma", BasicOrMod, None, [T, T, T, T]),
            (FRACT, 10, "fract", BasicOrMod, None, [T, T]),
            (MAD, 11, "mad", BasicOrMod, None, [T, T, T, T]),
            (MAX, 12, "max", BasicOrMod, None, [T, T, T]),
            (MIN, 13, "min", BasicOrMod, None, [T, T, T]),
            (MUL, 14, "mul", BasicOrMod, None, [T, T, T]),
            (MULHI, 15, "mulhi", BasicOrMod, None, [T, T, T]),
            (NEG, 16, "neg", BasicOrMod, None, [T, T]),
            (REM, 17, "rem", Basic, None, [T, T, T]),
            (RINT, 18, "rint", BasicOrMod, None, [T, T]),
            (SQRT, 19, "sqrt", BasicOrMod, None, [T, T]),
            (SUB, 20, "sub", BasicOrMod, None, [T, T, T]),
            (TRUNC, 21, "trunc", BasicOrMod, None, [T, T]),
            (MAD24, 22, "mad24", Basic, None, [T, T, T, T]),
            (MAD24HI, 23, "mad24hi", Basic, None, [T, T, T, T]),
            (MUL24, 24, "mul24", Basic, None, [T, T, T]),
            (MUL24HI, 25, "mul24hi", Basic, None, [T, T, T]),
            (SHL, 26, "shl", Basic, None, [T, T, U32]),
            (SHR, 27, "shr", Basic, None, [T, T, U32]),
            (AND, 28, "and", Basic, None, [T, T, T]),
            (NOT, 29, "not", Basic, None, [T, T]),
            (OR, 30, "or", Basic, None, [T, T, T]),
            (POPCOUNT, 31, "popcount", SourceType, None, [T, S]),
            (XOR, 32, "xor", Basic, None, [T, T, T]),
            (BITEXTRACT, 33, "bitextract", Basic, None, [T, T, U32, U32]),
            (BITINSERT, 34, "bitinsert", Basic, None, [T, T, T, U32, U32]),
            (BITMASK, 35, "bitmask", Basic, None, [T, U32, U32]),
            (BITREV, 36, "bitrev", Basic, None, [T, T]),
            (BITSELECT, 37, "bitselect", Basic, None, [T, T, T, T]),
            (FIRSTBIT, 38, "firstbit", SourceType, None, [T, S]),
            (LASTBIT, 39, "lastbit", SourceType, None, [T, S]),
            (COMBINE, 40, "combine", SourceType, None, [T, S], vector 1),
            (EXPAND, 41, "expand", SourceType, None, [T, S], vector 0),
            (LDA, 42, "lda", Addr, None, [T, Addr]),
            (MOV, 43, "mov", Basic, None, [T, T]),
            (SHUFFLE, 44, "shuffle", Basic, None, [T, T, T, B32]),
            (UNPACKHI, 45, "unpackhi", Basic, None, [T, T, T]),
            (UNPACKLO, 46, "unpacklo", Basic, None, [T, T, T]),
            (PACK, 47, "pack", SourceType, None, [T, T, S, U32]),
            (UNPACK, 48, "unpack", SourceType, None, [T, S, U32]),
            (CMOV, 49, "cmov", Basic, None, [T, Cond, T, T]),
            (CLASS, 50, "class", SourceType, None, [T, S, U32]),
            (NCOS, 51, "ncos", Basic, None, [T, T]),
            (NEXP2, 52, "nexp2", Basic, None, [T, T]),
            (NFMA, 53, "nfma", Basic, None, [T, T, T, T]),
            (NLOG2, 54, "nlog2", Basic, None, [T, T]),
            (NRCP, 55, "nrcp", Basic, None, [T, T]),
            (NRSQRT, 56, "nrsqrt", Basic, None, [T, T]),
            (NSIN, 57, "nsin", Basic, None, [T, T]),
            (NSQRT, 58, "nsqrt", Basic, None, [T, T]),
            (BITALIGN, 59, "bitalign", Basic, None, [T, T, T, T]),
            (BYTEALIGN, 60, "bytealign", Basic, None, [T, T, T, T]),
            (PACKCVT, 61, "packcvt", SourceType, None, [T, S, S, S, S]),
            (UNPACKCVT, 62, "unpackcvt", SourceType, None, [T, S, U32]),
            (LERP, 63, "lerp", Basic, None, [T, T, T, T]),
            (SAD, 64, "sad", SourceType, None, [T, S, S, U32]),
            (SADHI, 65, "sadhi", SourceType, None, [T, S, S, T]),
            (SEGMENTP, 66, "segmentp", SegCvt, None, [T, S]),
            (FTOS, 67, "ftos", SegCvt, None, [T, S]),
            (STOF, 68, "stof", SegCvt, None, [T, S]),
            (CMP, 69, "cmp", Cmp, None, [T, S, S]),
            (CVT, 70, "cvt", Cvt, None, [T, S]),
            (LD, 71, "ld", Mem, One, [T, Addr], vector 0),
            (ST, 72, "st", Mem, None, [T, Addr], vector 0),
            (ATOMIC, 73, "atomic", Atomic, None, [T, Addr, T, T]),
            (ATOMICNORET, 74, "atomicnoret", Atomic, None, [Addr, T, T]),
            (SIGNAL, 75, "signal", Signal, None, [T, Sig, T, T]),
            (SIGNALNORET, 76, "signalnoret", Signal, None, [Sig, T]),
            (MEMFENCE, 77, "memfence", MemFence, None, []),
            (RDIMAGE, 78, "rdimage", Image, None, [T, Img, Any, C], vector 0),
            (LDIMAGE, 79, "ldimage", Image, None, [T, Img, C], vector 0),
            (STIMAGE, 80, "stimage", Image, None, [T, Img, C], vector 0),
            (IMAGEFENCE, 81, "imagefence", ImageFence, None, []),
            (QUERYIMAGE, 82, "queryimage", QueryImage, None, [T, Img]),
            (QUERYSAMPLER, 83, "querysampler", QuerySampler, None, [T, Any]),
            (CBR, 84, "cbr", Br, One, [T, Any]),
            (BR, 85, "br", Br, All, [Any]),
            (SBR, 86, "sbr", Br, One, [T, Any]),
            (BARRIER, 87, "barrier", Br, All, []),
            (WAVEBARRIER, 88, "wavebarrier", Br, WaveSize, []),
            (ARRIVEFBAR, 89, "arrivefbar", Br, WaveSize, [U32]),
            (INITFBAR, 90, "initfbar", BasicNoType, None, [U32]),
            (JOINFBAR, 91, "joinfbar", Br, WaveSize, [U32]),
            (LEAVEFBAR, 92, "leavefbar", Br, WaveSize, [U32]),
            (RELEASEFBAR, 93, "releasefbar", BasicNoType, None, [U32]),
            (WAITFBAR, 94, "waitfbar", Br, WaveSize, [U32]),
            (LDF, 95, "ldf", Basic, None, [T, U32]),
            (ACTIVELANECOUNT, 96, "activelanecount", Lane, One, [T, S]),
            (ACTIVELANEID, 97, "activelaneid", Lane, One, [T]),
            (ACTIVELANEMASK, 98, "activelanemask", Lane, One, [T, S], vector 0),
            (ACTIVELANEPERMUTE, 99, "activelanepermute", Lane, One, [T, T, U32, T, B1]),
            (CALL, 100, "call", Br, All, [Any, U64, Any]),
            (SCALL, 101, "scall", Br, One, [Any, T, Any, Any]),
            (ICALL, 102, "icall", Br, One, [Any, T, Any, Any]),
            (RET, 103, "ret", BasicNoType, None, []),
            (ALLOCA, 104, "alloca", Mem, None, [T, T]),
            (CURRENTWORKGROUPSIZE, 105, "currentworkgroupsize", Basic, None, [T, U32]),
            (CURRENTWORKITEMFLATID, 106, "currentworkitemflatid", Basic, None, [T]),
            (DIM, 107, "dim", Basic, None, [T]),
            (GRIDGROUPS, 108, "gridgroups", Basic, None, [T, U32]),
            (GRIDSIZE, 109, "gridsize", Basic, None, [T, U32]),
            (PACKETCOMPLETIONSIG, 110, "packetcompletionsig", Basic, None, [T]),
            (PACKETID, 111, "packetid", Basic, None, [T]),
            (WORKGROUPID, 112, "workgroupid", Basic, None, [T, U32]),
            (WORKGROUPSIZE, 113, "workgroupsize", Basic, None, [T, U32]),
            (WORKITEMABSID, 114, "workitemabsid", Basic, None, [T, U32]),
            (WORKITEMFLATABSID, 115, "workitemflatabsid", Basic, None, [T]),
            (WORKITEMFLATID, 116, "workitemflatid", Basic, None, [T]),
            (WORKITEMID, 117, "workitemid", Basic, None, [T, U32]),
            (CLEARDETECTEXCEPT, 118, "cleardetectexcept", Basic, None, [T]),
            (GETDETECTEXCEPT, 119, "getdetectexcept", Basic, None, [T]),
            (SETDETECTEXCEPT, 120, "setdetectexcept", Basic, None, [T]),
            (ADDQUEUEWRITEINDEX, 121, "addqueuewriteindex", Queue, None, [T, Addr, T]),
            (CASQUEUEWRITEINDEX, 122, "casqueuewriteindex", Queue, None, [T, Addr, T, T]),
            (LDQUEUEREADINDEX, 123, "ldqueuereadindex", Queue, None, [T, Addr]),
            (LDQUEUEWRITEINDEX, 124, "ldqueuewriteindex", Queue, None, [T, Addr]),
            (STQUEUEREADINDEX, 125, "stqueuereadindex", Queue, None, [Addr, T]),
            (STQUEUEWRITEINDEX, 126, "stqueuewriteindex", Queue, None, [Addr, T]),
            (CLOCK, 127, "clock", Basic, None, [T]),
            (CUID, 128, "cuid", Basic, None, [T]),
            (DEBUGTRAP, 129, "debugtrap", Basic, None, [T]),
            (GROUPBASEPTR, 130, "groupbaseptr", Basic, None, [T]),
            (KERNARGBASEPTR, 131, "kernargbaseptr", Basic, None, [T]),
            (LANEID, 132, "laneid", Basic, None, [T]),
            (MAXCUID, 133, "maxcuid", Basic, None, [T]),
            (MAXWAVEID, 134, "maxwaveid", Basic, None, [T]),
            (NULLPTR, 135, "nullptr", Seg, None, [T]),
            (WAVEID, 136, "waveid", Basic, None, [T]),
        }
    };
}

/// `None`, or `Some` of the optional column.
macro_rules! optional {
    () => {
        None
    };
    ($v:literal) => {
        Some($v)
    };
}

macro_rules! build_table {
    ($(($name:ident, $num:expr, $mn:expr, $syn:ident, $w:ident, [$($ty:ident),*]
        $(, vector $v:literal)?)),* $(,)?) => {
        /// Every core opcode, in opcode order.
        pub static OPCODES: &[OpInfo] = &[
            $(OpInfo {
                opcode: $num,
                name: stringify!($name),
                mnemonic: $mn,
                syntax: Syntax::$syn,
                width: DefWidth::$w,
                operands: &[$(OpTy::$ty),*],
                vector_operand: optional!($($v)?),
            }),*
        ];
    };
}

for_each_opcode!(build_table);

/// Row for a BRIG opcode number.
pub fn info(opcode: u16) -> Option<&'static OpInfo> {
    OPCODES.get(opcode as usize).filter(|i| i.opcode == opcode)
}

macro_rules! build_lookup {
    ($(($name:ident, $num:expr, $mn:expr, $syn:ident, $w:ident, [$($ty:ident),*]
        $(, vector $v:literal)?)),* $(,)?) => {
        /// Row for a mnemonic (the part before the first `_`).
        pub fn lookup(mnemonic: &str) -> Option<&'static OpInfo> {
            let i: usize = match mnemonic {
                $($mn => $num,)*
                _ => return None,
            };
            OPCODES.get(i)
        }
    };
}

for_each_opcode!(build_lookup);

/// Does this opcode use floating-point rounding when its type is a float
/// (or packed float) type? (`round = float` in HSAILasm's rules.)
pub fn has_float_round(opcode: u16) -> bool {
    matches!(
        opcode,
        2 /*ADD*/ | 20 /*SUB*/ | 14 /*MUL*/ | 7 /*DIV*/ | 10 /*FRACT*/ | 19 /*SQRT*/
            | 11 /*MAD*/ | 9 /*FMA*/
    )
}

/// Rounding HSAILasm fills into a `BrigInstMod` without a rounding suffix.
pub fn default_round_mod(opcode: u16, ty: u16) -> u8 {
    if has_float_round(opcode) && crate::ops::types::is_float(ty) {
        BRIG_ROUND_FLOAT_DEFAULT
    } else {
        BRIG_ROUND_NONE
    }
}

/// Rounding HSAILasm fills into a `cvt` without a rounding suffix.
pub fn default_round_cvt(dst: u16, src: u16) -> u8 {
    use types::*;
    let df = is_float(dst);
    let sf = is_float(src);
    let dint = is_int(dst);
    let sint = is_int(src);
    if sf && dint {
        BRIG_ROUND_INTEGER_ZERO
    } else if (sint && df) || (sf && df && size_bits(dst) < size_bits(src)) {
        BRIG_ROUND_FLOAT_DEFAULT
    } else {
        BRIG_ROUND_NONE
    }
}

pub const BRIG_ROUND_NONE: u8 = 0;
pub const BRIG_ROUND_FLOAT_DEFAULT: u8 = 1;
pub const BRIG_ROUND_INTEGER_ZERO: u8 = 7;

/// `BrigType` helpers (PRM §18.3.10).
pub mod types {
    pub const NONE: u16 = 0;
    pub const U8: u16 = 1;
    pub const U16: u16 = 2;
    pub const U32: u16 = 3;
    pub const U64: u16 = 4;
    pub const S8: u16 = 5;
    pub const S16: u16 = 6;
    pub const S32: u16 = 7;
    pub const S64: u16 = 8;
    pub const F16: u16 = 9;
    pub const F32: u16 = 10;
    pub const F64: u16 = 11;
    pub const B1: u16 = 12;
    pub const B8: u16 = 13;
    pub const B16: u16 = 14;
    pub const B32: u16 = 15;
    pub const B64: u16 = 16;
    pub const B128: u16 = 17;
    pub const SAMP: u16 = 18;
    pub const ROIMG: u16 = 19;
    pub const WOIMG: u16 = 20;
    pub const RWIMG: u16 = 21;
    pub const SIG32: u16 = 22;
    pub const SIG64: u16 = 23;
    pub const PACK_32: u16 = 1 << 5;
    pub const PACK_64: u16 = 2 << 5;
    pub const PACK_128: u16 = 3 << 5;
    pub const ARRAY: u16 = 1 << 7;
    pub const BASE_MASK: u16 = 31;
    pub const PACK_MASK: u16 = 3 << 5;

    /// Type value of a type name (the [`super::names::types`] table).
    pub fn from_name(s: &str) -> Option<u16> {
        super::names::types::from_text(s).map(brig::BrigType::raw)
    }

    /// Name of a type value (array bit ignored); `"none"` if it has none.
    pub fn name(t: u16) -> &'static str {
        match super::names::types::text(brig::BrigType::new(t & !ARRAY)) {
            Some(n) if !n.is_empty() => n,
            _ => "none",
        }
    }

    pub fn is_packed(t: u16) -> bool {
        t & PACK_MASK != 0 && t & ARRAY == 0
    }
    pub fn is_array(t: u16) -> bool {
        t & ARRAY != 0
    }
    pub fn is_float(t: u16) -> bool {
        matches!(t & BASE_MASK, F16 | F32 | F64) && t & ARRAY == 0
    }
    pub fn is_int(t: u16) -> bool {
        matches!(t, U8..=S64)
    }
    pub fn is_signed(t: u16) -> bool {
        matches!(t, S8..=S64)
    }
    pub fn is_unsigned(t: u16) -> bool {
        matches!(t, U8..=U64)
    }
    pub fn is_bit(t: u16) -> bool {
        matches!(t, B1..=B128)
    }

    /// Size in bits (packed types: whole size; opaque types: 64; b1: 1).
    pub fn size_bits(t: u16) -> u32 {
        match t & PACK_MASK {
            PACK_32 => return 32,
            PACK_64 => return 64,
            PACK_128 => return 128,
            _ => {}
        }
        match t & BASE_MASK {
            U8 | S8 | B8 => 8,
            U16 | S16 | F16 | B16 => 16,
            U32 | S32 | F32 | B32 => 32,
            U64 | S64 | F64 | B64 => 64,
            B128 => 128,
            B1 => 1,
            SAMP | ROIMG | WOIMG | RWIMG | SIG32 | SIG64 => 64,
            _ => 0,
        }
    }

    /// Size in bytes as HSAILasm counts it (b1 takes one byte).
    pub fn size_bytes(t: u16) -> u32 {
        if t & BASE_MASK == B1 && t & PACK_MASK == 0 {
            1
        } else {
            size_bits(t) / 8
        }
    }

    /// Unsigned type of the same size as a bit type (b1 → u8).
    pub fn bit_to_unsigned(t: u16) -> u16 {
        match t {
            B1 | B8 => U8,
            B16 => U16,
            B32 => U32,
            B64 => U64,
            B128 => U8 | PACK_128,
            _ => t,
        }
    }

    /// Bit type of a given size in bits.
    pub fn bit_type(bits: u32) -> u16 {
        match bits {
            1 => B1,
            8 => B8,
            16 => B16,
            32 => B32,
            64 => B64,
            128 => B128,
            _ => NONE,
        }
    }

    /// Unsigned type of a size in bits.
    pub fn unsigned_of_bits(bits: u32) -> u16 {
        match bits {
            8 => U8,
            16 => U16,
            32 => U32,
            64 => U64,
            _ => NONE,
        }
    }

    /// Natural alignment (BRIG_ALIGNMENT_*) of a type.
    pub fn natural_align(t: u16) -> u8 {
        match size_bytes(t & !ARRAY) {
            1 => 1,
            2 => 2,
            4 => 3,
            8 => 4,
            16 => 5,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_round_trip() {
        for &(t, n) in names::types::ALL {
            assert_eq!(types::from_name(n), Some(t.raw()));
            assert_eq!(types::name(t.raw()), n);
            assert_eq!(types::name(t.raw() | types::ARRAY), n);
        }
        assert_eq!(types::name(types::NONE), "none");
    }

    #[test]
    fn vector_operands() {
        let vector = |m| lookup(m).unwrap().vector_operand;
        assert_eq!(vector("ld"), Some(0));
        assert_eq!(vector("combine"), Some(1));
        assert_eq!(vector("add"), None);
        let n = OPCODES
            .iter()
            .filter(|i| i.vector_operand.is_some())
            .count();
        assert_eq!(n, 8);
    }

    #[test]
    fn table_is_dense_and_ordered() {
        for (i, op) in OPCODES.iter().enumerate() {
            assert_eq!(op.opcode as usize, i, "{}", op.name);
            assert_eq!(op.name.to_ascii_lowercase(), op.mnemonic);
        }
        assert_eq!(lookup("add").unwrap().opcode, 2);
        assert_eq!(lookup("waveid").unwrap().opcode, 136);
        assert!(lookup("bogus").is_none());
    }
}
