//! The entry structs of HSA PRM 1.0 §18.3, §18.5 and §18.6, named exactly as
//! in the spec, as zero-copy `#[repr(C)]` views.
//!
//! Every struct is `Unaligned` and built only from byte arrays, the
//! little-endian integers of [`zerocopy::little_endian`] and the enum
//! newtypes of [`crate::enums`], so a `&T` can be taken at any byte offset of
//! a `&[u8]` (`T::ref_from_prefix`). Field names are the spec's in
//! snake_case (`byteCount` → `byte_count`, `type` → `type_`).
//!
//! Sizes are checked against the spec at compile time.

// zerocopy's `KnownLayout` derive emits a helper type without `Debug` for
// structs whose last field is another struct; every entry here derives Debug.
#![allow(missing_debug_implementations)]

use core::fmt;
use core::mem::size_of;
use zerocopy::little_endian::{U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::enums::*;

macro_rules! offset_type {
    ($(#[$meta:meta])* $name:ident, $tag:literal) => {
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        pub struct $name([u8; 4]);

        impl $name {
            /// The offset 0, which the spec reserves for "no entry".
            pub const NONE: Self = Self::new(0);

            /// Wraps a byte offset from the start of the section.
            #[inline]
            pub const fn new(offset: u32) -> Self {
                Self(offset.to_le_bytes())
            }

            /// The byte offset from the start of the section.
            #[inline]
            pub const fn get(self) -> u32 {
                u32::from_le_bytes(self.0)
            }

            /// Whether this is the reserved offset 0 ("no entry").
            #[inline]
            pub const fn is_none(self) -> bool {
                self.get() == 0
            }

            /// `None` for offset 0, else `Some(self)`.
            #[inline]
            pub const fn non_null(self) -> Option<Self> {
                if self.is_none() { None } else { Some(self) }
            }
        }


        numeric_value_impls!($name, u32, get);

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($tag, "@{}"), self.get())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($tag, "@{:#x}"), self.get())
            }
        }
    };
}

offset_type! {
    /// `BrigDataOffset32_t` (and its aliases `BrigDataOffsetString32_t`,
    /// `BrigDataOffsetCodeList32_t`, `BrigDataOffsetOperandList32_t`): byte
    /// offset of a [`BrigData`] entry in `hsa_data`. 0 means none.
    DataOffset, "data"
}
offset_type! {
    /// `BrigCodeOffset32_t`: byte offset of an entry in `hsa_code`. 0 means none.
    CodeOffset, "code"
}
offset_type! {
    /// `BrigOperandOffset32_t`: byte offset of an entry in `hsa_operand`.
    /// 0 means none.
    OperandOffset, "operand"
}

/// Derive list shared by every entry struct.
macro_rules! entry {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* } = $size:expr) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        pub struct $name { $($body)* }

        const _: () = assert!(size_of::<$name>() == $size);
    };
}

/// A BRIG entry that can be viewed in place; implemented by every struct of
/// §18.5/§18.6 (those that start with a [`BrigBase`]).
pub trait BrigEntry: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned + Sized {
    /// The spec's struct name (`"BrigInstBasic"`).
    const NAME: &'static str;
    /// The kinds stored with this struct (`BrigDirectiveExecutable` serves
    /// kernels, functions, indirect functions and signatures).
    const KINDS: &'static [BrigKind];
    /// The leading [`BrigBase`].
    fn brig_base(&self) -> &BrigBase;
    /// The leading [`BrigBase`], mutably.
    fn brig_base_mut(&mut self) -> &mut BrigBase;
}

macro_rules! impl_entry {
    ($name:ident, [$($kind:ident),*], |$s:ident| $base:expr) => {
        impl BrigEntry for $name {
            const NAME: &'static str = stringify!($name);
            const KINDS: &'static [BrigKind] = &[$(BrigKind::$kind),*];
            #[inline]
            fn brig_base(&self) -> &BrigBase {
                let $s = self;
                &$base
            }
            #[inline]
            fn brig_base_mut(&mut self) -> &mut BrigBase {
                let $s = self;
                &mut $base
            }
        }
    };
}

// ---------------------------------------------------------------- §18.3 ----

entry! {
    /// `BrigBase` (§18.3.6): the start of every `hsa_code`/`hsa_operand` entry.
    pub struct BrigBase {
        /// Size of the entry in bytes including this header; a multiple of 4.
        pub byte_count: U16,
        /// The entry kind.
        pub kind: BrigKind,
    } = 4
}

impl BrigBase {
    /// A base for an entry of `byte_count` bytes.
    pub fn new(byte_count: u16, kind: BrigKind) -> Self {
        Self {
            byte_count: U16::new(byte_count),
            kind,
        }
    }
}

entry! {
    /// `BrigModuleHeader` (§18.3.21): at offset 0 of every BRIG module.
    pub struct BrigModuleHeader {
        /// `"HSA BRIG"`.
        pub identification: [u8; 8],
        /// `BRIG_VERSION_BRIG_MAJOR` (1).
        pub brig_major: U32,
        /// `BRIG_VERSION_BRIG_MINOR` (0).
        pub brig_minor: U32,
        /// Size of the whole module; a multiple of 16.
        pub byte_count: U64,
        /// Implementation-defined hash, all zero if unused.
        pub hash: [u8; 64],
        /// Must be 0.
        pub reserved: U32,
        /// Number of sections, at least 3.
        pub section_count: U32,
        /// Byte offset of the section index (array of `u64` section offsets);
        /// a multiple of 8.
        pub section_index: U64,
    } = 104
}

impl BrigModuleHeader {
    /// The magic `identification` value.
    pub const MAGIC: [u8; 8] = *b"HSA BRIG";
}

entry! {
    /// `BrigSectionHeader` (§18.3.32), fixed part only: the spec's trailing
    /// `uint8_t name[1]` is the `name_length` bytes that follow, then any
    /// implementation data and zero padding up to `header_byte_count`.
    pub struct BrigSectionHeader {
        /// Size of the section including this header; a multiple of 4.
        pub byte_count: U64,
        /// Size of the header = offset of the first entry; a multiple of 4.
        pub header_byte_count: U32,
        /// Length of the name that follows.
        pub name_length: U32,
    } = 16
}

entry! {
    /// `BrigUInt64` (§18.3.36): a 64-bit value as two 32-bit halves.
    pub struct BrigUInt64 {
        /// Low 32 bits.
        pub lo: U32,
        /// High 32 bits.
        pub hi: U32,
    } = 8
}

impl BrigUInt64 {
    /// Splits `v` into halves.
    pub fn new(v: u64) -> Self {
        Self {
            lo: U32::new(v as u32),
            hi: U32::new((v >> 32) as u32),
        }
    }
    /// `(hi << 32) | lo`.
    pub fn get(&self) -> u64 {
        (u64::from(self.hi.get()) << 32) | u64::from(self.lo.get())
    }
}

impl From<u64> for BrigUInt64 {
    fn from(v: u64) -> Self {
        Self::new(v)
    }
}

entry! {
    /// `BrigData` (§18.4), fixed part only: an `hsa_data` entry is this
    /// length, then `byte_count` bytes, then zero padding to a multiple of 4.
    pub struct BrigData {
        /// Number of data bytes that follow (padding excluded).
        pub byte_count: U32,
    } = 4
}

// ------------------------------------------------------- §18.5 directives ----

entry! {
    /// `BrigDirectiveArgBlock` (§18.5.1.2): `{` and `}` of an argument block
    /// (`BRIG_KIND_DIRECTIVE_ARG_BLOCK_START` / `_END`).
    pub struct BrigDirectiveArgBlock {
        /// Header.
        pub base: BrigBase,
    } = 4
}
impl_entry!(
    BrigDirectiveArgBlock,
    [DIRECTIVE_ARG_BLOCK_START, DIRECTIVE_ARG_BLOCK_END],
    |s| s.base
);

entry! {
    /// `BrigDirectiveComment` (§18.5.1.3).
    pub struct BrigDirectiveComment {
        /// Header.
        pub base: BrigBase,
        /// The comment text including `//` or `/* */`.
        pub name: DataOffset,
    } = 8
}
impl_entry!(BrigDirectiveComment, [DIRECTIVE_COMMENT], |s| s.base);

entry! {
    /// `BrigDirectiveControl` (§18.5.1.4).
    pub struct BrigDirectiveControl {
        /// Header.
        pub base: BrigBase,
        /// Which control directive.
        pub control: BrigControlDirective,
        /// Must be 0.
        pub reserved: U16,
        /// Operand list (`BrigDataOffsetOperandList32_t`).
        pub operands: DataOffset,
    } = 12
}
impl_entry!(BrigDirectiveControl, [DIRECTIVE_CONTROL], |s| s.base);

entry! {
    /// `BrigDirectiveExecutable` (§18.5.1.5): kernels, functions, indirect
    /// functions and signatures.
    pub struct BrigDirectiveExecutable {
        /// Header.
        pub base: BrigBase,
        /// Name (`&k`).
        pub name: DataOffset,
        /// Number of output arguments.
        pub out_arg_count: U16,
        /// Number of input arguments.
        pub in_arg_count: U16,
        /// First input argument's `BrigDirectiveVariable` (0 if none).
        pub first_in_arg: CodeOffset,
        /// First entry of the body (0 for a declaration; else the entry after
        /// the last argument).
        pub first_code_block_entry: CodeOffset,
        /// Entry after the last entry of this executable.
        pub next_module_entry: CodeOffset,
        /// `BRIG_EXECUTABLE_DEFINITION`.
        pub modifier: BrigExecutableModifierMask,
        /// Linkage.
        pub linkage: BrigLinkage,
        /// Must be 0.
        pub reserved: U16,
    } = 28
}
impl_entry!(
    BrigDirectiveExecutable,
    [
        DIRECTIVE_KERNEL,
        DIRECTIVE_FUNCTION,
        DIRECTIVE_INDIRECT_FUNCTION,
        DIRECTIVE_SIGNATURE
    ],
    |s| s.base
);

entry! {
    /// `BrigDirectiveExtension` (§18.5.1.6).
    pub struct BrigDirectiveExtension {
        /// Header.
        pub base: BrigBase,
        /// Extension name (`"IMAGE"`, `"CORE"`, …).
        pub name: DataOffset,
    } = 8
}
impl_entry!(BrigDirectiveExtension, [DIRECTIVE_EXTENSION], |s| s.base);

entry! {
    /// `BrigDirectiveFbarrier` (§18.5.1.7).
    pub struct BrigDirectiveFbarrier {
        /// Header.
        pub base: BrigBase,
        /// Name.
        pub name: DataOffset,
        /// `BRIG_VARIABLE_DEFINITION`.
        pub modifier: BrigVariableModifierMask,
        /// Linkage.
        pub linkage: BrigLinkage,
        /// Must be 0.
        pub reserved: U16,
    } = 12
}
impl_entry!(BrigDirectiveFbarrier, [DIRECTIVE_FBARRIER], |s| s.base);

entry! {
    /// `BrigDirectiveLabel` (§18.5.1.8).
    pub struct BrigDirectiveLabel {
        /// Header.
        pub base: BrigBase,
        /// Name (`@L1`).
        pub name: DataOffset,
    } = 8
}
impl_entry!(BrigDirectiveLabel, [DIRECTIVE_LABEL], |s| s.base);

entry! {
    /// `BrigDirectiveLoc` (§18.5.1.9).
    pub struct BrigDirectiveLoc {
        /// Header.
        pub base: BrigBase,
        /// File name (0 if omitted and none earlier).
        pub filename: DataOffset,
        /// Line.
        pub line: U32,
        /// Column (1 if omitted).
        pub column: U32,
    } = 16
}
impl_entry!(BrigDirectiveLoc, [DIRECTIVE_LOC], |s| s.base);

entry! {
    /// `BrigDirectiveModule` (§18.5.1.10).
    pub struct BrigDirectiveModule {
        /// Header.
        pub base: BrigBase,
        /// Module name (`&m`).
        pub name: DataOffset,
        /// HSAIL major version.
        pub hsail_major: BrigVersion,
        /// HSAIL minor version.
        pub hsail_minor: BrigVersion,
        /// Profile.
        pub profile: BrigProfile,
        /// Machine model.
        pub machine_model: BrigMachineModel,
        /// Default floating-point rounding.
        pub default_float_round: BrigRound,
        /// Must be 0.
        pub reserved: u8,
    } = 20
}
impl_entry!(BrigDirectiveModule, [DIRECTIVE_MODULE], |s| s.base);

entry! {
    /// `BrigDirectiveNone` (§18.5.1.11): filler, `kind` is `BRIG_KIND_NONE`,
    /// `byte_count` may cover any number of zero words after it.
    pub struct BrigDirectiveNone {
        /// Header.
        pub base: BrigBase,
    } = 4
}
impl_entry!(BrigDirectiveNone, [NONE], |s| s.base);

entry! {
    /// `BrigDirectivePragma` (§18.5.1.12).
    pub struct BrigDirectivePragma {
        /// Header.
        pub base: BrigBase,
        /// Operand list.
        pub operands: DataOffset,
    } = 8
}
impl_entry!(BrigDirectivePragma, [DIRECTIVE_PRAGMA], |s| s.base);

entry! {
    /// `BrigDirectiveVariable` (§18.5.1.13).
    pub struct BrigDirectiveVariable {
        /// Header.
        pub base: BrigBase,
        /// Name (`%x`, `&x`).
        pub name: DataOffset,
        /// Initializer operand (0 if none).
        pub init: OperandOffset,
        /// Type (array types for arrays).
        pub type_: BrigType,
        /// Segment.
        pub segment: BrigSegment,
        /// Alignment.
        pub align: BrigAlignment,
        /// Array dimension (0 if not an array, or flexible/unspecified).
        pub dim: BrigUInt64,
        /// `BRIG_VARIABLE_DEFINITION`, `BRIG_VARIABLE_CONST`.
        pub modifier: BrigVariableModifierMask,
        /// Linkage.
        pub linkage: BrigLinkage,
        /// Allocation.
        pub allocation: BrigAllocation,
        /// Must be 0.
        pub reserved: u8,
    } = 28
}
impl_entry!(BrigDirectiveVariable, [DIRECTIVE_VARIABLE], |s| s.base);

// ----------------------------------------------------- §18.5 instructions ----

entry! {
    /// `BrigInstBase` (§18.5.2.1): the common start of every instruction.
    pub struct BrigInstBase {
        /// Header.
        pub base: BrigBase,
        /// Opcode.
        pub opcode: BrigOpcode,
        /// Instruction type.
        pub type_: BrigType,
        /// Operand list (`BrigDataOffsetOperandList32_t`).
        pub operands: DataOffset,
    } = 12
}

macro_rules! inst {
    ($(#[$meta:meta])* $name:ident, $kind:ident, $size:expr, { $($body:tt)* }) => {
        entry! {
            $(#[$meta])*
            pub struct $name {
                /// Common instruction fields.
                pub base: BrigInstBase,
                $($body)*
            } = $size
        }
        impl_entry!($name, [$kind], |s| s.base.base);
    };
}

inst! {
    /// `BrigInstAddr` (§18.5.2.2): `lda`.
    BrigInstAddr, INST_ADDR, 16, {
        /// Segment.
        pub segment: BrigSegment,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstAtomic` (§18.5.2.3).
    BrigInstAtomic, INST_ATOMIC, 20, {
        /// Segment.
        pub segment: BrigSegment,
        /// Memory order.
        pub memory_order: BrigMemoryOrder,
        /// Memory scope.
        pub memory_scope: BrigMemoryScope,
        /// Atomic operation.
        pub atomic_operation: BrigAtomicOperation,
        /// Equivalence class.
        pub equiv_class: u8,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstBasic` (§18.5.2.4): no fields beyond [`BrigInstBase`].
    BrigInstBasic, INST_BASIC, 12, {}
}

inst! {
    /// `BrigInstBr` (§18.5.2.5).
    BrigInstBr, INST_BR, 16, {
        /// Width.
        pub width: BrigWidth,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstCmp` (§18.5.2.6).
    BrigInstCmp, INST_CMP, 20, {
        /// Source operand type.
        pub source_type: BrigType,
        /// `BRIG_ALU_FTZ`.
        pub modifier: BrigAluModifierMask,
        /// Comparison.
        pub compare: BrigCompareOperation,
        /// Packing.
        pub pack: BrigPack,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstCvt` (§18.5.2.7).
    BrigInstCvt, INST_CVT, 16, {
        /// Source operand type.
        pub source_type: BrigType,
        /// `BRIG_ALU_FTZ`.
        pub modifier: BrigAluModifierMask,
        /// Rounding.
        pub round: BrigRound,
    }
}

inst! {
    /// `BrigInstImage` (§18.5.2.8).
    BrigInstImage, INST_IMAGE, 20, {
        /// Image type.
        pub image_type: BrigType,
        /// Coordinate type.
        pub coord_type: BrigType,
        /// Geometry.
        pub geometry: BrigImageGeometry,
        /// Equivalence class.
        pub equiv_class: u8,
        /// Must be 0.
        pub reserved: U16,
    }
}

inst! {
    /// `BrigInstLane` (§18.5.2.9).
    BrigInstLane, INST_LANE, 16, {
        /// Source operand type.
        pub source_type: BrigType,
        /// Width.
        pub width: BrigWidth,
        /// Must be 0.
        pub reserved: u8,
    }
}

inst! {
    /// `BrigInstMem` (§18.5.2.10).
    BrigInstMem, INST_MEM, 20, {
        /// Segment.
        pub segment: BrigSegment,
        /// Alignment.
        pub align: BrigAlignment,
        /// Equivalence class.
        pub equiv_class: u8,
        /// Width (`ld` only).
        pub width: BrigWidth,
        /// `BRIG_MEMORY_CONST`.
        pub modifier: BrigMemoryModifierMask,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstMemFence` (§18.5.2.11).
    BrigInstMemFence, INST_MEM_FENCE, 16, {
        /// Memory order.
        pub memory_order: BrigMemoryOrder,
        /// Global segment scope.
        pub global_segment_memory_scope: BrigMemoryScope,
        /// Group segment scope.
        pub group_segment_memory_scope: BrigMemoryScope,
        /// Image segment scope.
        pub image_segment_memory_scope: BrigMemoryScope,
    }
}

inst! {
    /// `BrigInstMod` (§18.5.2.12).
    BrigInstMod, INST_MOD, 16, {
        /// `BRIG_ALU_FTZ`.
        pub modifier: BrigAluModifierMask,
        /// Rounding.
        pub round: BrigRound,
        /// Packing.
        pub pack: BrigPack,
        /// Must be 0.
        pub reserved: u8,
    }
}

inst! {
    /// `BrigInstQueryImage` (§18.5.2.13).
    BrigInstQueryImage, INST_QUERY_IMAGE, 16, {
        /// Image type.
        pub image_type: BrigType,
        /// Geometry.
        pub geometry: BrigImageGeometry,
        /// Query.
        pub query: BrigImageQuery,
    }
}

inst! {
    /// `BrigInstQuerySampler` (§18.5.2.14).
    BrigInstQuerySampler, INST_QUERY_SAMPLER, 16, {
        /// Query.
        pub query: BrigSamplerQuery,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstQueue` (§18.5.2.15).
    BrigInstQueue, INST_QUEUE, 16, {
        /// Segment.
        pub segment: BrigSegment,
        /// Memory order.
        pub memory_order: BrigMemoryOrder,
        /// Must be 0.
        pub reserved: U16,
    }
}

inst! {
    /// `BrigInstSeg` (§18.5.2.16).
    BrigInstSeg, INST_SEG, 16, {
        /// Segment.
        pub segment: BrigSegment,
        /// Must be 0.
        pub reserved: [u8; 3],
    }
}

inst! {
    /// `BrigInstSegCvt` (§18.5.2.17).
    BrigInstSegCvt, INST_SEG_CVT, 16, {
        /// Source operand type.
        pub source_type: BrigType,
        /// Segment.
        pub segment: BrigSegment,
        /// `BRIG_SEG_CVT_NONULL`.
        pub modifier: BrigSegCvtModifierMask,
    }
}

inst! {
    /// `BrigInstSignal` (§18.5.2.18).
    BrigInstSignal, INST_SIGNAL, 16, {
        /// Signal type.
        pub signal_type: BrigType,
        /// Memory order.
        pub memory_order: BrigMemoryOrder,
        /// Signal operation.
        pub signal_operation: BrigAtomicOperation,
    }
}

inst! {
    /// `BrigInstSourceType` (§18.5.2.19).
    BrigInstSourceType, INST_SOURCE_TYPE, 16, {
        /// Source operand type.
        pub source_type: BrigType,
        /// Must be 0.
        pub reserved: U16,
    }
}

// ------------------------------------------------------------ §18.6 ----

entry! {
    /// `BrigOperandAddress` (§18.6.2).
    pub struct BrigOperandAddress {
        /// Header.
        pub base: BrigBase,
        /// Symbol's `BrigDirectiveVariable` (0 if none).
        pub symbol: CodeOffset,
        /// Register operand (0 if none).
        pub reg: OperandOffset,
        /// Offset.
        pub offset: BrigUInt64,
    } = 20
}
impl_entry!(BrigOperandAddress, [OPERAND_ADDRESS], |s| s.base);

entry! {
    /// `BrigOperandAlign` (§18.6.3).
    pub struct BrigOperandAlign {
        /// Header.
        pub base: BrigBase,
        /// Alignment.
        pub align: BrigAlignment,
        /// Must be 0.
        pub reserved: [u8; 3],
    } = 8
}
impl_entry!(BrigOperandAlign, [OPERAND_ALIGN], |s| s.base);

entry! {
    /// `BrigOperandCodeList` (§18.6.4).
    pub struct BrigOperandCodeList {
        /// Header.
        pub base: BrigBase,
        /// Code list (`BrigDataOffsetCodeList32_t`).
        pub elements: DataOffset,
    } = 8
}
impl_entry!(BrigOperandCodeList, [OPERAND_CODE_LIST], |s| s.base);

entry! {
    /// `BrigOperandCodeRef` (§18.6.5).
    pub struct BrigOperandCodeRef {
        /// Header.
        pub base: BrigBase,
        /// Referenced directive.
        pub ref_: CodeOffset,
    } = 8
}
impl_entry!(BrigOperandCodeRef, [OPERAND_CODE_REF], |s| s.base);

entry! {
    /// `BrigOperandConstantBytes` (§18.6.6).
    pub struct BrigOperandConstantBytes {
        /// Header.
        pub base: BrigBase,
        /// Type.
        pub type_: BrigType,
        /// Must be 0.
        pub reserved: U16,
        /// Value bytes (`BrigDataOffsetString32_t`).
        pub bytes: DataOffset,
    } = 12
}
impl_entry!(BrigOperandConstantBytes, [OPERAND_CONSTANT_BYTES], |s| s
    .base);

entry! {
    /// `BrigOperandConstantImage` (§18.6.7).
    pub struct BrigOperandConstantImage {
        /// Header.
        pub base: BrigBase,
        /// Image type.
        pub type_: BrigType,
        /// Geometry.
        pub geometry: BrigImageGeometry,
        /// Channel order.
        pub channel_order: BrigImageChannelOrder,
        /// Channel type.
        pub channel_type: BrigImageChannelType,
        /// Must be 0.
        pub reserved: [u8; 3],
        /// Width.
        pub width: BrigUInt64,
        /// Height.
        pub height: BrigUInt64,
        /// Depth.
        pub depth: BrigUInt64,
        /// Array size.
        pub array: BrigUInt64,
    } = 44
}
impl_entry!(BrigOperandConstantImage, [OPERAND_CONSTANT_IMAGE], |s| s
    .base);

entry! {
    /// `BrigOperandConstantOperandList` (§18.6.8): aggregate constant.
    pub struct BrigOperandConstantOperandList {
        /// Header.
        pub base: BrigBase,
        /// Type.
        pub type_: BrigType,
        /// Must be 0.
        pub reserved: U16,
        /// Element operands.
        pub elements: DataOffset,
    } = 12
}
impl_entry!(
    BrigOperandConstantOperandList,
    [OPERAND_CONSTANT_OPERAND_LIST],
    |s| s.base
);

entry! {
    /// `BrigOperandConstantSampler` (§18.6.9).
    pub struct BrigOperandConstantSampler {
        /// Header.
        pub base: BrigBase,
        /// Sampler type.
        pub type_: BrigType,
        /// Coordinate normalization.
        pub coord: BrigSamplerCoordNormalization,
        /// Filter.
        pub filter: BrigSamplerFilter,
        /// Addressing.
        pub addressing: BrigSamplerAddressing,
        /// Must be 0.
        pub reserved: [u8; 3],
    } = 12
}
impl_entry!(
    BrigOperandConstantSampler,
    [OPERAND_CONSTANT_SAMPLER],
    |s| s.base
);

entry! {
    /// `BrigOperandOperandList` (§18.6.10): a vector operand `($s1, $s2)`.
    pub struct BrigOperandOperandList {
        /// Header.
        pub base: BrigBase,
        /// Element operands.
        pub elements: DataOffset,
    } = 8
}
impl_entry!(BrigOperandOperandList, [OPERAND_OPERAND_LIST], |s| s.base);

entry! {
    /// `BrigOperandRegister` (§18.6.11).
    pub struct BrigOperandRegister {
        /// Header.
        pub base: BrigBase,
        /// Register kind.
        pub reg_kind: BrigRegisterKind,
        /// Register number.
        pub reg_num: U16,
    } = 8
}
impl_entry!(BrigOperandRegister, [OPERAND_REGISTER], |s| s.base);

entry! {
    /// `BrigOperandString` (§18.6.12).
    pub struct BrigOperandString {
        /// Header.
        pub base: BrigBase,
        /// The string.
        pub string: DataOffset,
    } = 8
}
impl_entry!(BrigOperandString, [OPERAND_STRING], |s| s.base);

entry! {
    /// `BrigOperandWavesize` (§18.6.13).
    pub struct BrigOperandWavesize {
        /// Header.
        pub base: BrigBase,
    } = 4
}
impl_entry!(BrigOperandWavesize, [OPERAND_WAVESIZE], |s| s.base);

/// The size in bytes of the struct the spec defines for `kind`, or `None`
/// for an unknown kind (`OPERAND_RESERVED` included).
pub const fn entry_size(kind: BrigKind) -> Option<usize> {
    Some(match kind {
        BrigKind::NONE => size_of::<BrigDirectiveNone>(),
        BrigKind::DIRECTIVE_ARG_BLOCK_END | BrigKind::DIRECTIVE_ARG_BLOCK_START => {
            size_of::<BrigDirectiveArgBlock>()
        }
        BrigKind::DIRECTIVE_COMMENT => size_of::<BrigDirectiveComment>(),
        BrigKind::DIRECTIVE_CONTROL => size_of::<BrigDirectiveControl>(),
        BrigKind::DIRECTIVE_EXTENSION => size_of::<BrigDirectiveExtension>(),
        BrigKind::DIRECTIVE_FBARRIER => size_of::<BrigDirectiveFbarrier>(),
        BrigKind::DIRECTIVE_FUNCTION
        | BrigKind::DIRECTIVE_INDIRECT_FUNCTION
        | BrigKind::DIRECTIVE_KERNEL
        | BrigKind::DIRECTIVE_SIGNATURE => size_of::<BrigDirectiveExecutable>(),
        BrigKind::DIRECTIVE_LABEL => size_of::<BrigDirectiveLabel>(),
        BrigKind::DIRECTIVE_LOC => size_of::<BrigDirectiveLoc>(),
        BrigKind::DIRECTIVE_MODULE => size_of::<BrigDirectiveModule>(),
        BrigKind::DIRECTIVE_PRAGMA => size_of::<BrigDirectivePragma>(),
        BrigKind::DIRECTIVE_VARIABLE => size_of::<BrigDirectiveVariable>(),
        BrigKind::INST_ADDR => size_of::<BrigInstAddr>(),
        BrigKind::INST_ATOMIC => size_of::<BrigInstAtomic>(),
        BrigKind::INST_BASIC => size_of::<BrigInstBasic>(),
        BrigKind::INST_BR => size_of::<BrigInstBr>(),
        BrigKind::INST_CMP => size_of::<BrigInstCmp>(),
        BrigKind::INST_CVT => size_of::<BrigInstCvt>(),
        BrigKind::INST_IMAGE => size_of::<BrigInstImage>(),
        BrigKind::INST_LANE => size_of::<BrigInstLane>(),
        BrigKind::INST_MEM => size_of::<BrigInstMem>(),
        BrigKind::INST_MEM_FENCE => size_of::<BrigInstMemFence>(),
        BrigKind::INST_MOD => size_of::<BrigInstMod>(),
        BrigKind::INST_QUERY_IMAGE => size_of::<BrigInstQueryImage>(),
        BrigKind::INST_QUERY_SAMPLER => size_of::<BrigInstQuerySampler>(),
        BrigKind::INST_QUEUE => size_of::<BrigInstQueue>(),
        BrigKind::INST_SEG => size_of::<BrigInstSeg>(),
        BrigKind::INST_SEG_CVT => size_of::<BrigInstSegCvt>(),
        BrigKind::INST_SIGNAL => size_of::<BrigInstSignal>(),
        BrigKind::INST_SOURCE_TYPE => size_of::<BrigInstSourceType>(),
        BrigKind::OPERAND_ADDRESS => size_of::<BrigOperandAddress>(),
        BrigKind::OPERAND_ALIGN => size_of::<BrigOperandAlign>(),
        BrigKind::OPERAND_CODE_LIST => size_of::<BrigOperandCodeList>(),
        BrigKind::OPERAND_CODE_REF => size_of::<BrigOperandCodeRef>(),
        BrigKind::OPERAND_CONSTANT_BYTES => size_of::<BrigOperandConstantBytes>(),
        BrigKind::OPERAND_CONSTANT_IMAGE => size_of::<BrigOperandConstantImage>(),
        BrigKind::OPERAND_CONSTANT_OPERAND_LIST => size_of::<BrigOperandConstantOperandList>(),
        BrigKind::OPERAND_CONSTANT_SAMPLER => size_of::<BrigOperandConstantSampler>(),
        BrigKind::OPERAND_OPERAND_LIST => size_of::<BrigOperandOperandList>(),
        BrigKind::OPERAND_REGISTER => size_of::<BrigOperandRegister>(),
        BrigKind::OPERAND_STRING => size_of::<BrigOperandString>(),
        BrigKind::OPERAND_WAVESIZE => size_of::<BrigOperandWavesize>(),
        _ => return None,
    })
}
