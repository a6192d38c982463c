//! The per-opcode rule table (PRM ch. 5–11; BRIG formats and operands from
//! §18.7 "BRIG Syntax for Instructions").
//!
//! One [`InstRule`] row per core opcode: the PRM section, the BRIG formats
//! it may be written in, the allowed instruction types and source types,
//! the operands (kind and the type each is read with) and which modifier
//! family applies. [`super::inst`] interprets the table; rules that do not
//! fit a table (memory orders per segment, cvt pairs, …) are small
//! `check_*` functions there.
//!
//! This table is keyed by the same opcode numbers as `crate::ops` and could
//! become extra columns of `for_each_opcode!` (see the module docs of
//! `crate::validate` and the session report).

use brig::{BrigKind, BrigOpcode, BrigType};

/// A set of BRIG types (non-array), as a bitset (see `index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types(pub u64);

/// The bit of `t`: base types `1..=23` at their value, packed type
/// `base | pack` at `24 + 3 (base - 1) + pack - 1` (bases 1–11, 33 slots;
/// combinations that are not packed types are never set).
const fn index(t: BrigType) -> Option<u32> {
    let raw = t.raw();
    if raw & BrigType::ARRAY_MASK != 0 {
        return None;
    }
    let base = (raw & BrigType::BASE_MASK) as u32;
    let pack = ((raw & BrigType::PACK_MASK) >> BrigType::PACK_SHIFT) as u32;
    if pack == 0 {
        return if base <= 23 { Some(base) } else { None };
    }
    if base == 0 || base > 11 {
        return None;
    }
    Some(24 + 3 * (base - 1) + pack - 1)
}

impl Types {
    /// No type at all.
    pub const EMPTY: Types = Types(0);

    /// The set of the listed types.
    pub const fn of(list: &[BrigType]) -> Types {
        let mut bits = 0u64;
        let mut i = 0;
        while i < list.len() {
            if let Some(b) = index(list[i]) {
                bits |= 1 << b;
            }
            i += 1;
        }
        Types(bits)
    }

    /// Union.
    pub const fn or(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// Whether `t` is in the set.
    pub const fn contains(self, t: BrigType) -> bool {
        match index(t) {
            Some(b) => self.0 & (1 << b) != 0,
            None => false,
        }
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The types of the set, spelled as in HSAIL, for messages.
    pub fn names(self) -> String {
        let mut out = Vec::new();
        for raw in 0u16..256 {
            let t = BrigType::new(raw);
            if self.contains(t) {
                out.push(t.text().unwrap_or_default());
            }
        }
        out.join(", ")
    }
}

use BrigType as T;

/// `none` only (instructions without a type).
pub const NONE: Types = Types::of(&[T::NONE]);
/// `u32`.
pub const U32: Types = Types::of(&[T::U32]);
/// `u64`.
pub const U64: Types = Types::of(&[T::U64]);
/// `u32`, `u64`.
pub const U32_64: Types = Types::of(&[T::U32, T::U64]);
/// `s32`, `s64`.
pub const S32_64: Types = Types::of(&[T::S32, T::S64]);
/// `s32`, `u32`, `s64`, `u64`.
pub const INT32_64: Types = Types::of(&[T::S32, T::U32, T::S64, T::U64]);
/// `s32`, `u32`.
pub const INT32: Types = Types::of(&[T::S32, T::U32]);
/// `f16`, `f32`, `f64`.
pub const FLOAT: Types = Types::of(&[T::F16, T::F32, T::F64]);
/// `b1`, `b32`, `b64`.
pub const B1_32_64: Types = Types::of(&[T::B1, T::B32, T::B64]);
/// `b32`, `b64`.
pub const B32_64: Types = Types::of(&[T::B32, T::B64]);
/// `b32`.
pub const B32: Types = Types::of(&[T::B32]);
/// `b64`.
pub const B64: Types = Types::of(&[T::B64]);
/// `b1`.
pub const B1: Types = Types::of(&[T::B1]);
/// Packed signed integers.
pub const PACKED_S: Types = Types::of(&[
    T::S8X4,
    T::S8X8,
    T::S8X16,
    T::S16X2,
    T::S16X4,
    T::S16X8,
    T::S32X2,
    T::S32X4,
    T::S64X2,
]);
/// Packed unsigned integers.
pub const PACKED_U: Types = Types::of(&[
    T::U8X4,
    T::U8X8,
    T::U8X16,
    T::U16X2,
    T::U16X4,
    T::U16X8,
    T::U32X2,
    T::U32X4,
    T::U64X2,
]);
/// Packed integers.
pub const PACKED_INT: Types = PACKED_S.or(PACKED_U);
/// Packed floats.
pub const PACKED_F: Types =
    Types::of(&[T::F16X2, T::F16X4, T::F16X8, T::F32X2, T::F32X4, T::F64X2]);
/// Every packed type.
pub const PACKED: Types = PACKED_INT.or(PACKED_F);
/// Packed types of 32 or 64 bits (shuffle, unpack: PRM 5.9).
pub const PACKED_32_64: Types = Types::of(&[
    T::U8X4,
    T::U8X8,
    T::U16X2,
    T::U16X4,
    T::U32X2,
    T::S8X4,
    T::S8X8,
    T::S16X2,
    T::S16X4,
    T::S32X2,
    T::F16X2,
    T::F16X4,
    T::F32X2,
]);
/// Opaque types (images, sampler, signals).
pub const OPAQUE: Types = Types::of(&[T::ROIMG, T::WOIMG, T::RWIMG, T::SAMP, T::SIG32, T::SIG64]);
/// Image types.
pub const IMAGE: Types = Types::of(&[T::ROIMG, T::WOIMG, T::RWIMG]);
/// Signal types.
pub const SIGNAL: Types = Types::of(&[T::SIG32, T::SIG64]);
/// Integer types of every size.
pub const INT_ALL: Types =
    Types::of(&[T::U8, T::U16, T::U32, T::U64, T::S8, T::S16, T::S32, T::S64]);
/// Types of `cvt` operands (Table 5-27).
pub const CVT: Types = INT_ALL.or(FLOAT).or(B1);
/// Types of `ld`/`st` (PRM 6.3, 6.4): integers, floats, `b128`, opaque.
pub const MEM: Types = INT_ALL.or(FLOAT).or(Types::of(&[T::B128])).or(OPAQUE);
/// Types of `mov` (PRM 5.8).
pub const MOV: Types = Types::of(&[
    T::B1,
    T::B32,
    T::B64,
    T::B128,
    T::U32,
    T::S32,
    T::F32,
    T::U64,
    T::S64,
    T::F64,
    T::F16,
])
.or(OPAQUE);
/// Destination types of `cmp` (PRM 5.18).
pub const CMP_DEST: Types = Types::of(&[
    T::B1,
    T::U32,
    T::S32,
    T::F32,
    T::U64,
    T::S64,
    T::F64,
    T::F16,
])
.or(PACKED_U);
/// Source types of `cmp` (PRM 5.18).
pub const CMP_SRC: Types = B1_32_64.or(INT32_64).or(FLOAT).or(PACKED);
/// Atomic types (PRM 6.6).
pub const ATOMIC: Types = B32_64.or(INT32_64);
/// `activelanepermute` types.
pub const LANE_PERMUTE: Types = Types::of(&[T::B1, T::B32, T::B64, T::B128]);

/// The type an operand is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// The instruction type.
    Inst,
    /// The source type.
    Src,
    /// A fixed type.
    Fixed(BrigType),
    /// `cmov` condition: `b1`, or the unsigned packed type of a packed type.
    Cond,
    /// A flat or segment address (size from segment and machine model).
    Addr,
    /// A signal handle (`$d`).
    SigHandle,
    /// An image or sampler handle (`$d`).
    Handle,
    /// The image coordinate type.
    Coord,
    /// Unchecked.
    Any,
}

/// The kind of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    /// Destination register.
    Dst(Ty),
    /// Destination register or vector of registers.
    DstVec(Ty),
    /// Source: register, immediate or WAVESIZE.
    Src(Ty),
    /// Source register, immediate, or a vector of those.
    SrcVec(Ty),
    /// Source register only.
    Reg(Ty),
    /// Immediate only.
    Imm(Ty),
    /// Address expression.
    Address,
    /// Label.
    Label,
    /// List of labels.
    LabelList,
    /// Direct function (call).
    Function,
    /// List of functions (scall).
    FunctionList,
    /// Signature (icall).
    Signature,
    /// List of argument variables.
    ArgList,
    /// An fbarrier name or a `u32` register holding its address.
    Fbarrier,
    /// Image (register) or sampler (register) handle.
    Handle,
}

/// Which modifier family the instruction takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mods {
    /// None.
    None,
    /// `ftz` and floating-point rounding on float types, packing on packed
    /// types, `_sat` packing on packed integers (add, sub, mul).
    FloatRoundPackSat,
    /// `ftz` and float rounding on float types, packing (no `_sat`).
    FloatRoundPack,
    /// `ftz` (no rounding) on float types, packing.
    FtzPack,
    /// Packing only (integer-or-float bit operations).
    Pack,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct InstRule {
    /// The opcode.
    pub opcode: BrigOpcode,
    /// PRM section of the syntax table.
    pub prm: &'static str,
    /// Allowed BRIG formats.
    pub formats: &'static [BrigKind],
    /// Allowed instruction types.
    pub types: Types,
    /// Allowed source types (`EMPTY`: the format has none).
    pub src: Types,
    /// Operands, in order.
    pub operands: &'static [Opnd],
    /// Optional trailing operands (how many of `operands` may be missing).
    pub optional: u8,
    /// Modifier family.
    pub mods: Mods,
}

use BrigKind as K;
use Opnd::*;
use Ty::{Cond, Coord, Fixed, Handle as TH, Inst as I, SigHandle, Src as S};

const BASIC: &[BrigKind] = &[K::INST_BASIC];
const BASIC_MOD: &[BrigKind] = &[K::INST_BASIC, K::INST_MOD];
const SRCTY: &[BrigKind] = &[K::INST_SOURCE_TYPE];
const BR: &[BrigKind] = &[K::INST_BR];
const MEMF: &[BrigKind] = &[K::INST_MEM];
const U32T: Ty = Fixed(T::U32);
const B1T: Ty = Fixed(T::B1);
const B32T: Ty = Fixed(T::B32);

const UN: &[Opnd] = &[Dst(I), Src(I)];
const BIN: &[Opnd] = &[Dst(I), Src(I), Src(I)];
const TER: &[Opnd] = &[Dst(I), Src(I), Src(I), Src(I)];
const DST: &[Opnd] = &[Dst(I)];
const DST_DIM: &[Opnd] = &[Dst(I), Imm(U32T)];

macro_rules! rule {
    ($op:ident, $prm:literal, $fmt:expr, $types:expr, $src:expr, $ops:expr, $mods:ident) => {
        rule!($op, $prm, $fmt, $types, $src, $ops, 0, $mods)
    };
    ($op:ident, $prm:literal, $fmt:expr, $types:expr, $src:expr, $ops:expr, $opt:expr, $mods:ident) => {
        InstRule {
            opcode: BrigOpcode::$op,
            prm: $prm,
            formats: $fmt,
            types: $types,
            src: $src,
            operands: $ops,
            optional: $opt,
            mods: Mods::$mods,
        }
    };
}

const E: Types = Types::EMPTY;
const INT_ARITH: Types = INT32_64.or(PACKED_INT);
const SIGNED_ARITH: Types = S32_64.or(PACKED_S);
const FLOATS: Types = FLOAT.or(PACKED_F);

/// The table, indexed by opcode number (`RULES[op].opcode == op`).
pub static RULES: &[InstRule] = &[
    rule!(NOP, "PRM 11.4", BASIC, NONE, E, &[], None),
    rule!(
        ABS,
        "PRM 5.2",
        BASIC_MOD,
        SIGNED_ARITH.or(FLOATS),
        E,
        UN,
        Pack
    ),
    rule!(
        ADD,
        "PRM 5.2",
        BASIC_MOD,
        INT_ARITH.or(FLOATS),
        E,
        BIN,
        FloatRoundPackSat
    ),
    rule!(BORROW, "PRM 5.2", BASIC, INT32_64, E, BIN, None),
    rule!(CARRY, "PRM 5.2", BASIC, INT32_64, E, BIN, None),
    rule!(CEIL, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FtzPack),
    rule!(COPYSIGN, "PRM 5.13", BASIC_MOD, FLOATS, E, BIN, Pack),
    rule!(
        DIV,
        "PRM 5.2",
        BASIC_MOD,
        INT32_64.or(FLOATS),
        E,
        BIN,
        FloatRoundPack
    ),
    rule!(FLOOR, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FtzPack),
    // fma has no packed form (PRM 5.11: three sources).
    rule!(FMA, "PRM 5.11", BASIC_MOD, FLOAT, E, TER, FloatRoundPack),
    rule!(FRACT, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FloatRoundPack),
    rule!(
        MAD,
        "PRM 5.3",
        BASIC_MOD,
        INT32_64.or(FLOAT),
        E,
        TER,
        FloatRoundPack
    ),
    rule!(
        MAX,
        "PRM 5.2",
        BASIC_MOD,
        INT_ARITH.or(FLOATS),
        E,
        BIN,
        FtzPack
    ),
    rule!(
        MIN,
        "PRM 5.2",
        BASIC_MOD,
        INT_ARITH.or(FLOATS),
        E,
        BIN,
        FtzPack
    ),
    rule!(
        MUL,
        "PRM 5.2",
        BASIC_MOD,
        INT_ARITH.or(FLOATS),
        E,
        BIN,
        FloatRoundPackSat
    ),
    rule!(MULHI, "PRM 5.2", BASIC_MOD, INT_ARITH, E, BIN, Pack),
    rule!(
        NEG,
        "PRM 5.2",
        BASIC_MOD,
        SIGNED_ARITH.or(FLOATS),
        E,
        UN,
        Pack
    ),
    rule!(REM, "PRM 5.2", BASIC, INT32_64, E, BIN, None),
    rule!(RINT, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FtzPack),
    rule!(SQRT, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FloatRoundPack),
    rule!(
        SUB,
        "PRM 5.2",
        BASIC_MOD,
        INT_ARITH.or(FLOATS),
        E,
        BIN,
        FloatRoundPackSat
    ),
    rule!(TRUNC, "PRM 5.11", BASIC_MOD, FLOATS, E, UN, FtzPack),
    rule!(MAD24, "PRM 5.4", BASIC, INT32, E, TER, None),
    rule!(MAD24HI, "PRM 5.4", BASIC, INT32, E, TER, None),
    rule!(MUL24, "PRM 5.4", BASIC, INT32, E, BIN, None),
    rule!(MUL24HI, "PRM 5.4", BASIC, INT32, E, BIN, None),
    rule!(
        SHL,
        "PRM 5.5",
        BASIC,
        INT32_64.or(PACKED_INT),
        E,
        &[Dst(I), Src(I), Src(U32T)],
        None
    ),
    rule!(
        SHR,
        "PRM 5.5",
        BASIC,
        INT32_64.or(PACKED_INT),
        E,
        &[Dst(I), Src(I), Src(U32T)],
        None
    ),
    rule!(AND, "PRM 5.6", BASIC, B1_32_64, E, BIN, None),
    rule!(NOT, "PRM 5.6", BASIC, B1_32_64, E, UN, None),
    rule!(OR, "PRM 5.6", BASIC, B1_32_64, E, BIN, None),
    rule!(
        POPCOUNT,
        "PRM 5.6",
        SRCTY,
        U32,
        B32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(XOR, "PRM 5.6", BASIC, B1_32_64, E, BIN, None),
    rule!(
        BITEXTRACT,
        "PRM 5.7",
        BASIC,
        INT32_64,
        E,
        &[Dst(I), Src(I), Src(U32T), Src(U32T)],
        None
    ),
    rule!(
        BITINSERT,
        "PRM 5.7",
        BASIC,
        INT32_64,
        E,
        &[Dst(I), Src(I), Src(I), Src(U32T), Src(U32T)],
        None
    ),
    rule!(
        BITMASK,
        "PRM 5.7",
        BASIC,
        B32_64,
        E,
        &[Dst(I), Src(U32T), Src(U32T)],
        None
    ),
    rule!(BITREV, "PRM 5.7", BASIC, B32_64, E, UN, None),
    rule!(BITSELECT, "PRM 5.7", BASIC, B32_64, E, TER, None),
    rule!(
        FIRSTBIT,
        "PRM 5.7",
        SRCTY,
        U32,
        INT32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        LASTBIT,
        "PRM 5.7",
        SRCTY,
        U32,
        INT32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        COMBINE,
        "PRM 5.8",
        SRCTY,
        Types::of(&[T::B64, T::B128]),
        B32_64,
        &[Dst(I), SrcVec(S)],
        None
    ),
    rule!(
        EXPAND,
        "PRM 5.8",
        SRCTY,
        B32_64,
        Types::of(&[T::B64, T::B128]),
        &[DstVec(I), Src(S)],
        None
    ),
    rule!(
        LDA,
        "PRM 5.8",
        &[K::INST_ADDR],
        U32_64,
        E,
        &[Dst(I), Address],
        None
    ),
    rule!(MOV, "PRM 5.8", BASIC, MOV, E, UN, None),
    rule!(
        SHUFFLE,
        "PRM 5.9",
        BASIC,
        PACKED_32_64,
        E,
        &[Dst(I), Src(I), Src(I), Imm(B32T)],
        None
    ),
    rule!(UNPACKHI, "PRM 5.9", BASIC, PACKED_32_64, E, BIN, None),
    rule!(UNPACKLO, "PRM 5.9", BASIC, PACKED_32_64, E, BIN, None),
    rule!(
        PACK,
        "PRM 5.9",
        SRCTY,
        PACKED,
        INT32_64.or(FLOAT),
        &[Dst(I), Src(I), Src(S), Src(U32T)],
        None
    ),
    rule!(
        UNPACK,
        "PRM 5.9",
        SRCTY,
        INT32_64.or(FLOAT),
        PACKED,
        &[Dst(I), Src(S), Src(U32T)],
        None
    ),
    rule!(
        CMOV,
        "PRM 5.10",
        BASIC,
        B1_32_64.or(PACKED),
        E,
        &[Dst(I), Src(Cond), Src(I), Src(I)],
        None
    ),
    rule!(
        CLASS,
        "PRM 5.13",
        SRCTY,
        B1,
        FLOAT,
        &[Dst(I), Src(S), Src(U32T)],
        None
    ),
    rule!(NCOS, "PRM 5.14", BASIC, Types::of(&[T::F32]), E, UN, None),
    rule!(NEXP2, "PRM 5.14", BASIC, Types::of(&[T::F32]), E, UN, None),
    rule!(NFMA, "PRM 5.14", BASIC, FLOAT, E, TER, None),
    rule!(NLOG2, "PRM 5.14", BASIC, Types::of(&[T::F32]), E, UN, None),
    rule!(NRCP, "PRM 5.14", BASIC, FLOAT, E, UN, None),
    rule!(NRSQRT, "PRM 5.14", BASIC, FLOAT, E, UN, None),
    rule!(NSIN, "PRM 5.14", BASIC, Types::of(&[T::F32]), E, UN, None),
    rule!(NSQRT, "PRM 5.14", BASIC, FLOAT, E, UN, None),
    rule!(BITALIGN, "PRM 5.15", BASIC, B32, E, TER, None),
    rule!(BYTEALIGN, "PRM 5.15", BASIC, B32, E, TER, None),
    rule!(
        PACKCVT,
        "PRM 5.15",
        SRCTY,
        Types::of(&[T::U8X4]),
        Types::of(&[T::F32]),
        &[Dst(I), Src(S), Src(S), Src(S), Src(S)],
        None
    ),
    rule!(
        UNPACKCVT,
        "PRM 5.15",
        SRCTY,
        Types::of(&[T::F32]),
        Types::of(&[T::U8X4]),
        &[Dst(I), Src(S), Imm(U32T)],
        None
    ),
    rule!(LERP, "PRM 5.15", BASIC, Types::of(&[T::U8X4]), E, TER, None),
    rule!(
        SAD,
        "PRM 5.15",
        SRCTY,
        U32,
        Types::of(&[T::U32, T::U16X2, T::U8X4]),
        &[Dst(I), Src(S), Src(S), Src(U32T)],
        None
    ),
    rule!(
        SADHI,
        "PRM 5.15",
        SRCTY,
        Types::of(&[T::U16X2]),
        Types::of(&[T::U8X4]),
        &[Dst(I), Src(S), Src(S), Src(I)],
        None
    ),
    rule!(
        SEGMENTP,
        "PRM 5.16",
        &[K::INST_SEG_CVT],
        B1,
        U32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        FTOS,
        "PRM 5.17",
        &[K::INST_SEG_CVT],
        U32_64,
        U32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        STOF,
        "PRM 5.17",
        &[K::INST_SEG_CVT],
        U32_64,
        U32_64,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        CMP,
        "PRM 5.18",
        &[K::INST_CMP],
        CMP_DEST,
        CMP_SRC,
        &[Dst(I), Src(S), Src(S)],
        None
    ),
    rule!(
        CVT,
        "PRM 5.19",
        &[K::INST_CVT],
        CVT,
        CVT,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(LD, "PRM 6.3", MEMF, MEM, E, &[DstVec(I), Address], None),
    rule!(ST, "PRM 6.4", MEMF, MEM, E, &[SrcVec(I), Address], None),
    rule!(
        ATOMIC,
        "PRM 6.6",
        &[K::INST_ATOMIC],
        ATOMIC,
        E,
        &[Dst(I), Address, Src(I), Src(I)],
        2,
        None
    ),
    rule!(
        ATOMICNORET,
        "PRM 6.7",
        &[K::INST_ATOMIC],
        ATOMIC,
        E,
        &[Address, Src(I), Src(I)],
        1,
        None
    ),
    rule!(
        SIGNAL,
        "PRM 6.8",
        &[K::INST_SIGNAL],
        ATOMIC,
        E,
        &[Dst(I), Reg(SigHandle), Src(I), Src(I)],
        2,
        None
    ),
    rule!(
        SIGNALNORET,
        "PRM 6.8",
        &[K::INST_SIGNAL],
        ATOMIC,
        E,
        &[Reg(SigHandle), Src(I)],
        None
    ),
    rule!(
        MEMFENCE,
        "PRM 6.9",
        &[K::INST_MEM_FENCE],
        NONE,
        E,
        &[],
        None
    ),
    rule!(
        RDIMAGE,
        "PRM 7.2",
        &[K::INST_IMAGE],
        Types::of(&[T::S32, T::U32, T::F32]),
        E,
        &[DstVec(I), Reg(TH), Reg(TH), SrcVec(Coord)],
        None
    ),
    rule!(
        LDIMAGE,
        "PRM 7.3",
        &[K::INST_IMAGE],
        Types::of(&[T::S32, T::U32, T::F32]),
        E,
        &[DstVec(I), Reg(TH), SrcVec(Coord)],
        None
    ),
    rule!(
        STIMAGE,
        "PRM 7.4",
        &[K::INST_IMAGE],
        Types::of(&[T::S32, T::U32, T::F32]),
        E,
        &[SrcVec(I), Reg(TH), SrcVec(Coord)],
        None
    ),
    rule!(IMAGEFENCE, "PRM 7.6", BASIC, NONE, E, &[], None),
    rule!(
        QUERYIMAGE,
        "PRM 7.5",
        &[K::INST_QUERY_IMAGE],
        U32,
        E,
        &[Dst(I), Reg(TH)],
        None
    ),
    rule!(
        QUERYSAMPLER,
        "PRM 7.5",
        &[K::INST_QUERY_SAMPLER],
        U32,
        E,
        &[Dst(I), Reg(TH)],
        None
    ),
    rule!(CBR, "PRM 8.1", BR, B1, E, &[Src(B1T), Label], None),
    rule!(BR, "PRM 8.1", BR, NONE, E, &[Label], None),
    rule!(SBR, "PRM 8.1", BR, U32_64, E, &[Src(I), LabelList], None),
    rule!(BARRIER, "PRM 9.1", BR, NONE, E, &[], None),
    rule!(WAVEBARRIER, "PRM 9.1", BR, NONE, E, &[], None),
    rule!(ARRIVEFBAR, "PRM 9.2", BR, NONE, E, &[Fbarrier], None),
    rule!(INITFBAR, "PRM 9.2", BASIC, NONE, E, &[Fbarrier], None),
    rule!(JOINFBAR, "PRM 9.2", BR, NONE, E, &[Fbarrier], None),
    rule!(LEAVEFBAR, "PRM 9.2", BR, NONE, E, &[Fbarrier], None),
    rule!(RELEASEFBAR, "PRM 9.2", BASIC, NONE, E, &[Fbarrier], None),
    rule!(WAITFBAR, "PRM 9.2", BR, NONE, E, &[Fbarrier], None),
    rule!(LDF, "PRM 9.2", BASIC, U32, E, &[Dst(I), Fbarrier], None),
    rule!(
        ACTIVELANECOUNT,
        "PRM 9.4",
        &[K::INST_LANE],
        U32,
        B1,
        &[Dst(I), Src(S)],
        None
    ),
    rule!(
        ACTIVELANEID,
        "PRM 9.4",
        &[K::INST_LANE],
        U32,
        Types::of(&[T::NONE]),
        DST,
        None
    ),
    rule!(
        ACTIVELANEMASK,
        "PRM 9.4",
        &[K::INST_LANE],
        B64,
        B1,
        &[DstVec(I), Src(S)],
        None
    ),
    rule!(
        ACTIVELANEPERMUTE,
        "PRM 9.4",
        &[K::INST_LANE],
        LANE_PERMUTE,
        Types::of(&[T::NONE]),
        &[Dst(I), Src(I), Src(U32T), Src(I), Src(B1T)],
        None
    ),
    rule!(
        CALL,
        "PRM 10.6",
        BR,
        NONE,
        E,
        &[ArgList, Function, ArgList],
        None
    ),
    rule!(
        SCALL,
        "PRM 10.7",
        BR,
        U32_64,
        E,
        &[ArgList, Src(I), ArgList, FunctionList],
        None
    ),
    rule!(
        ICALL,
        "PRM 10.8",
        BR,
        U32_64,
        E,
        &[ArgList, Reg(I), ArgList, Signature],
        None
    ),
    rule!(RET, "PRM 10.9", BASIC, NONE, E, &[], None),
    rule!(
        ALLOCA,
        "PRM 10.10",
        MEMF,
        U32,
        E,
        &[Dst(I), Src(U32T)],
        None
    ),
    rule!(
        CURRENTWORKGROUPSIZE,
        "PRM 11.1",
        BASIC,
        U32,
        E,
        DST_DIM,
        None
    ),
    rule!(CURRENTWORKITEMFLATID, "PRM 11.1", BASIC, U32, E, DST, None),
    rule!(DIM, "PRM 11.1", BASIC, U32, E, DST, None),
    rule!(GRIDGROUPS, "PRM 11.1", BASIC, U32, E, DST_DIM, None),
    rule!(GRIDSIZE, "PRM 11.1", BASIC, U32_64, E, DST_DIM, None),
    rule!(PACKETCOMPLETIONSIG, "PRM 11.1", BASIC, SIGNAL, E, DST, None),
    rule!(PACKETID, "PRM 11.1", BASIC, U64, E, DST, None),
    rule!(WORKGROUPID, "PRM 11.1", BASIC, U32, E, DST_DIM, None),
    rule!(WORKGROUPSIZE, "PRM 11.1", BASIC, U32, E, DST_DIM, None),
    rule!(WORKITEMABSID, "PRM 11.1", BASIC, U32_64, E, DST_DIM, None),
    rule!(WORKITEMFLATABSID, "PRM 11.1", BASIC, U32_64, E, DST, None),
    rule!(WORKITEMFLATID, "PRM 11.1", BASIC, U32, E, DST, None),
    rule!(WORKITEMID, "PRM 11.1", BASIC, U32, E, DST_DIM, None),
    rule!(
        CLEARDETECTEXCEPT,
        "PRM 11.2",
        BASIC,
        U32,
        E,
        &[Imm(I)],
        None
    ),
    rule!(GETDETECTEXCEPT, "PRM 11.2", BASIC, U32, E, DST, None),
    rule!(SETDETECTEXCEPT, "PRM 11.2", BASIC, U32, E, &[Imm(I)], None),
    rule!(
        ADDQUEUEWRITEINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Dst(I), Address, Src(I)],
        None
    ),
    rule!(
        CASQUEUEWRITEINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Dst(I), Address, Src(I), Src(I)],
        None
    ),
    rule!(
        LDQUEUEREADINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Dst(I), Address],
        None
    ),
    rule!(
        LDQUEUEWRITEINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Dst(I), Address],
        None
    ),
    rule!(
        STQUEUEREADINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Address, Src(I)],
        None
    ),
    rule!(
        STQUEUEWRITEINDEX,
        "PRM 11.3",
        &[K::INST_QUEUE],
        U64,
        E,
        &[Address, Src(I)],
        None
    ),
    rule!(CLOCK, "PRM 11.4", BASIC, U64, E, DST, None),
    rule!(CUID, "PRM 11.4", BASIC, U32, E, DST, None),
    rule!(DEBUGTRAP, "PRM 11.4", BASIC, U32, E, &[Src(I)], None),
    rule!(GROUPBASEPTR, "PRM 11.4", BASIC, U32, E, DST, None),
    rule!(KERNARGBASEPTR, "PRM 11.4", BASIC, U32_64, E, DST, None),
    rule!(LANEID, "PRM 11.4", BASIC, U32, E, DST, None),
    rule!(MAXCUID, "PRM 11.4", BASIC, U32, E, DST, None),
    rule!(MAXWAVEID, "PRM 11.4", BASIC, U32, E, DST, None),
    rule!(NULLPTR, "PRM 11.4", &[K::INST_SEG], U32_64, E, DST, None),
    rule!(WAVEID, "PRM 11.4", BASIC, U32, E, DST, None),
];

/// The PRM section whose syntax table lists `opcode` with type `ty`: rows
/// shared by integer and float forms cite ch. 5.2/5.3 for integers and
/// 5.11–5.13 for floats.
pub fn section_for(r: &InstRule, ty: BrigType) -> &'static str {
    if !ty.is_float() {
        return r.prm;
    }
    match r.opcode {
        BrigOpcode::ABS | BrigOpcode::NEG => "PRM 5.13",
        BrigOpcode::MAD => "PRM 5.12",
        _ if r.prm == "PRM 5.2" => "PRM 5.11",
        _ => r.prm,
    }
}

/// The rule row of a core opcode.
pub fn rule(opcode: BrigOpcode) -> Option<&'static InstRule> {
    RULES
        .get(usize::from(opcode.raw()))
        .filter(|r| r.opcode == opcode)
}

/// Whether opcode belongs to the IMAGE extension (PRM 7, 13.1.2).
pub fn is_image_opcode(opcode: BrigOpcode) -> bool {
    matches!(
        opcode,
        BrigOpcode::RDIMAGE
            | BrigOpcode::LDIMAGE
            | BrigOpcode::STIMAGE
            | BrigOpcode::IMAGEFENCE
            | BrigOpcode::QUERYIMAGE
            | BrigOpcode::QUERYSAMPLER
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_dense_and_matches_ops() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(usize::from(r.opcode.raw()), i);
            let op = crate::ops::info(r.opcode.raw()).expect("opcode in ops table");
            assert_eq!(op.opcode, r.opcode.raw());
        }
        assert_eq!(RULES.len(), crate::ops::OPCODES.len());
    }

    #[test]
    fn type_sets() {
        assert!(INT32_64.contains(T::U64));
        assert!(!INT32_64.contains(T::U8));
        assert!(PACKED_F.contains(T::F64X2));
        assert!(!PACKED_F.contains(T::F64X2.array_of()));
        assert!(!Types::EMPTY.contains(T::NONE));
        assert!(NONE.contains(T::NONE));
    }
}
