//! GFX9 machine code (gfx900, gfx906, gfx90a, gfx942): the instruction
//! table and the encoder, decoder, LLVM-syntax printer and assembler-line
//! parser it drives.
//!
//! [`table::INSTRUCTIONS`] is generated (`scripts/gen-amdgpu-vectors-table`)
//! from LLVM's instruction inventory and the oracle's encodings: one row per
//! instruction with its LLVM mnemonic, the name llvm-objdump prints, its
//! encoding [`Family`], its opcode per target and its operand roles and
//! register widths. Everything else here is written against that table and
//! the per-family field layouts in [`codec`].
//!
//! Families implemented by the codec: SOP1, SOP2, SOPK, SOPC, SOPP, SMEM,
//! VOP1, VOP2, VOPC (e32), VOP3 (native and e64 forms), VINTRP, DS, MUBUF, MTBUF,
//! FLAT/GLOBAL/SCRATCH. Others ([`Family::is_supported`] false) decode to
//! [`Error::Unsupported`].

mod codec;
mod operand;
#[rustfmt::skip]
pub mod table;

pub use codec::{decode, encode, parse_line, print};
pub use operand::{Operand, SrcType};

use crate::target::Processor;

/// GFX9 targets the table has opcodes for (index into [`InstDef::opcodes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// gfx900 (and gfx902/904/909/90c, same instruction set).
    Gfx900,
    /// gfx906 (adds dot and fma-mix instructions).
    Gfx906,
    /// gfx90a (CDNA2: AGPRs, MFMA, packed FP32).
    Gfx90a,
    /// gfx942 (CDNA3: sc0/sc1/nt cache bits, fp8 MFMA).
    Gfx942,
}

impl Target {
    /// All four, in table column order.
    pub const ALL: [Target; 4] = [
        Target::Gfx900,
        Target::Gfx906,
        Target::Gfx90a,
        Target::Gfx942,
    ];

    /// Column in [`InstDef::opcodes`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The processor name.
    pub fn name(self) -> &'static str {
        ["gfx900", "gfx906", "gfx90a", "gfx942"][self.index()]
    }

    /// Parses a processor name, mapping GFX9 processors to the table column
    /// whose instruction set they share.
    pub fn from_processor(name: &str) -> Option<Target> {
        let p = Processor::from_name(name)?;
        Some(match p.name {
            "gfx900" | "gfx902" | "gfx904" | "gfx909" | "gfx90c" | "gfx9-generic" => Target::Gfx900,
            "gfx906" => Target::Gfx906,
            "gfx908" | "gfx90a" => Target::Gfx90a,
            "gfx940" | "gfx941" | "gfx942" => Target::Gfx942,
            _ => return None,
        })
    }

    /// Whether the target has accumulation registers (AGPRs) in memory and
    /// MAI instructions (gfx90a, gfx942).
    pub fn has_agprs(self) -> bool {
        matches!(self, Target::Gfx90a | Target::Gfx942)
    }
}

/// Encoding families of GFX9 (DPP and SDWA variants of VOP1/VOP2/VOPC are
/// their own families because their layout differs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Family {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop1Dpp,
    Vop1Sdwa,
    Vop2,
    Vop2Dpp,
    Vop2Sdwa,
    Vopc,
    VopcDpp,
    VopcSdwa,
    Vop3,
    Vop3p,
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Flat,
    Global,
    Scratch,
    Exp,
    /// No oracle vector gave this row a family.
    Unknown,
}

impl Family {
    /// Whether the codec implements this family.
    pub fn is_supported(self) -> bool {
        matches!(
            self,
            Family::Sop1
                | Family::Sop2
                | Family::Sopk
                | Family::Sopc
                | Family::Sopp
                | Family::Smem
                | Family::Vop1
                | Family::Vop2
                | Family::Vopc
                | Family::Vop3
                | Family::Vintrp
                | Family::Ds
                | Family::Mubuf
                | Family::Mtbuf
                | Family::Flat
                | Family::Global
                | Family::Scratch
        )
    }
}

/// One instruction of the table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstDef {
    /// LLVM's mnemonic as documented (`v_add_f32`, `v_add_f32_e64`).
    pub mnemonic: &'static str,
    /// The name llvm-objdump-19 prints (`v_add_f32_e32`).
    pub name: &'static str,
    /// The inventory's class (`VOP2`, `SMEM`, …).
    pub class: &'static str,
    /// Encoding family.
    pub family: Family,
    /// Opcode on gfx900, gfx906, gfx90a, gfx942 (None: not on that target).
    pub opcodes: [Option<u16>; 4],
    /// Operand roles from the inventory, in assembly order (`vdst`,
    /// `src0:m`, `sbase`, …; `:opt` marks optional ones).
    pub operands: &'static [&'static str],
    /// Register width in dwords of each operand of the base form as LLVM
    /// prints it (0: not a register there).
    pub widths: &'static [u8],
    /// Modifiers the instruction accepts (inventory names).
    pub modifiers: &'static [&'static str],
    /// Modifier keywords llvm-objdump printed in this instruction's vectors,
    /// per target (`gds`, `glc`, `sc1`, `clamp`, …): what LLVM accepts there.
    pub accepted: [&'static [&'static str]; 4],
}

impl InstDef {
    /// The opcode on `target`, if the instruction exists there.
    pub fn opcode(&self, target: Target) -> Option<u16> {
        self.opcodes[target.index()]
    }

    /// Whether LLVM accepted modifier keyword `word` for this instruction on
    /// `target` in the oracle vectors.
    pub fn accepts(&self, word: &str, target: Target) -> bool {
        self.accepted[target.index()].contains(&word)
    }

    /// The type of the source operands, from the mnemonic's last type token
    /// (`v_cvt_f16_i16` → `I16`): decides how inline constants print.
    pub fn src_type(&self) -> SrcType {
        SrcType::of_mnemonic(self.mnemonic)
    }

    /// Looks an instruction up by LLVM mnemonic or printed name.
    pub fn find(name: &str, target: Target) -> Option<&'static InstDef> {
        table::INSTRUCTIONS
            .iter()
            .filter(|d| d.mnemonic == name || d.name == name)
            .find(|d| d.opcode(target).is_some())
    }
}

/// A decoded or parsed instruction: its table row, operands in assembly
/// order, and modifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inst {
    /// The target it was decoded or parsed for (decides spellings such as
    /// gfx942's `sc0`/`nt`).
    pub target: Target,
    /// The table row.
    pub def: &'static InstDef,
    /// Operands in assembly order.
    pub operands: Vec<Operand>,
    /// Modifiers.
    pub mods: Modifiers,
}

/// Instruction modifiers (all families; unused fields stay default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// VOP3 `clamp`.
    pub clamp: bool,
    /// VOP3 output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// VOP3 `op_sel` bits (src0, src1, src2, dst).
    pub op_sel: u8,
    /// Interpolation `high` (VOP3 attr bit 8).
    pub high: bool,
    /// Per-source negate bits (bit i: source i), VOP3 `neg`.
    pub neg: u8,
    /// Per-source absolute-value bits, VOP3 `abs`.
    pub abs: u8,
    /// Memory/SMEM offset (`offset:N`).
    pub offset: i32,
    /// DS `offset0`/`offset1`.
    pub offset01: Option<(u8, u8)>,
    /// `glc` (gfx942: `sc0`).
    pub glc: bool,
    /// `slc` (gfx942: `nt`).
    pub slc: bool,
    /// gfx942 `sc1`.
    pub sc1: bool,
    /// DS `gds`.
    pub gds: bool,
    /// FLAT/MUBUF `lds`.
    pub lds: bool,
    /// SMEM `nv`.
    pub nv: bool,
    /// MUBUF/MTBUF `offen` (vaddr holds an offset).
    pub offen: bool,
    /// MUBUF/MTBUF `idxen` (vaddr holds an index).
    pub idxen: bool,
    /// MUBUF/MTBUF `tfe` (gfx900/gfx906).
    pub tfe: bool,
    /// MTBUF data and numeric format, `dfmt | nfmt << 4` (default 1).
    pub format: u8,
}

/// A codec error with its location: a byte offset (decode) or a 1-based
/// column in the line (parse); never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Not enough bytes.
    #[error("truncated instruction: need {need} bytes, have {have} at offset {offset:#x}")]
    Truncated {
        /// Bytes needed.
        need: usize,
        /// Bytes available.
        have: usize,
        /// Byte offset.
        offset: usize,
    },
    /// No table row matches the encoding.
    #[error("unknown {family:?} opcode {opcode:#x} for {target} at offset {offset:#x}")]
    UnknownOpcode {
        /// Family.
        family: Family,
        /// Opcode.
        opcode: u16,
        /// Target name.
        target: &'static str,
        /// Byte offset.
        offset: usize,
    },
    /// A family the codec does not implement yet.
    #[error("{family:?} encoding not supported yet (`{name}`) at offset {offset:#x}")]
    Unsupported {
        /// Family.
        family: Family,
        /// Instruction name, if known.
        name: &'static str,
        /// Byte offset (0 when encoding).
        offset: usize,
    },
    /// Bits that this instruction cannot have set.
    #[error("invalid encoding of `{name}`: {reason} at offset {offset:#x}")]
    Invalid {
        /// Instruction.
        name: &'static str,
        /// What is wrong.
        reason: &'static str,
        /// Byte offset.
        offset: usize,
    },
    /// The assembler line is not valid.
    #[error("{message} at column {column}")]
    Syntax {
        /// What is wrong.
        message: String,
        /// 1-based column in the line.
        column: usize,
    },
}

/// The result type of this module.
pub type Result<T> = std::result::Result<T, Error>;
