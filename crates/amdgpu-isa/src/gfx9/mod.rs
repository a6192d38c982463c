//! GFX9 machine code (gfx900, gfx904, gfx906, gfx908, gfx90a, gfx942,
//! gfx9-generic, and the processors sharing their instruction sets): the instruction
//! table and the encoder, decoder, LLVM-syntax printer and assembler-line
//! parser it drives.
//!
//! [`table::INSTRUCTIONS`] is generated (`scripts/gen-amdgpu-vectors-table`)
//! from LLVM's instruction inventory and the oracle's encodings: one row per
//! instruction (and per target variant) with its LLVM mnemonic, the name
//! llvm-objdump prints, its encoding [`Family`], its opcode per target, its
//! operand roles and register widths, and the modifier keywords LLVM takes
//! on each target. Everything else here is written against that table and
//! the per-family field layouts in the private `codec` module.
//!
//! Families: SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3
//! (native and e64 forms, VOP3B), VOP3P (packed math, dot, mix, MFMA/SMFMAC),
//! the DPP and SDWA forms of VOP1/VOP2/VOPC, VINTRP, DS, MUBUF, MTBUF, MIMG,
//! EXP, FLAT/GLOBAL/SCRATCH.
//!
//! ```
//! use amdgpu_isa::gfx9::{Target, decode, encode, parse_line, print};
//! let inst = parse_line("v_add_f32 v1, -v2, s3", Target::Gfx90a).unwrap();
//! let bytes = encode(&inst, Target::Gfx90a).unwrap();
//! assert_eq!(bytes, [0x01, 0x00, 0x01, 0xd1, 0x02, 0x07, 0x00, 0x20]);
//! let (back, len) = decode(&bytes, Target::Gfx90a).unwrap();
//! assert_eq!((print(&back).as_str(), len), ("v_add_f32_e64 v1, -v2, s3", 8));
//! ```

mod codec;
mod operand;
#[rustfmt::skip]
pub mod table;

pub use codec::{classify, decode, encode, parse_line, print};

pub use operand::{Operand, SrcType, special_source};
pub use table::Op;

use crate::target::Processor;

/// GFX9 targets the table has opcodes for (index into [`InstDef::opcodes`]).
///
/// One column per distinct instruction set (checked with llvm-mc-19 and
/// llvm-objdump-19 over every vector: see `data/amdgpu/README.md`); the
/// columns of gfx904 and gfx9-generic come after the original five so the
/// older columns keep their indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// gfx900 (and gfx902/909/90c: same instruction set per llvm-mc-19).
    Gfx900,
    /// gfx906 (adds dot and fma-mix instructions).
    Gfx906,
    /// gfx908 (CDNA1: AGPRs and MFMA, but AGPRs only in MAI instructions).
    Gfx908,
    /// gfx90a (CDNA2: AGPRs, MFMA, packed FP32).
    Gfx90a,
    /// gfx942 (CDNA3: sc0/sc1/nt cache bits, fp8 MFMA; also gfx940/941).
    Gfx942,
    /// gfx904: gfx900's instruction set with `v_fma_mix_f32`,
    /// `v_fma_mixlo_f16`, `v_fma_mixhi_f16` where gfx900 has `v_mad_mix*`
    /// (same opcodes).
    Gfx904,
    /// gfx9-generic: gfx900's instruction set without the mix instructions
    /// (neither `v_mad_mix*` nor `v_fma_mix*`).
    Gfx9Generic,
}

impl Target {
    /// Number of table columns.
    pub const COUNT: usize = 7;

    /// All targets, in table column order.
    pub const ALL: [Target; Target::COUNT] = [
        Target::Gfx900,
        Target::Gfx906,
        Target::Gfx908,
        Target::Gfx90a,
        Target::Gfx942,
        Target::Gfx904,
        Target::Gfx9Generic,
    ];

    /// Column in [`InstDef::opcodes`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The processor name.
    pub fn name(self) -> &'static str {
        [
            "gfx900",
            "gfx906",
            "gfx908",
            "gfx90a",
            "gfx942",
            "gfx904",
            "gfx9-generic",
        ][self.index()]
    }

    /// Parses a processor name, mapping GFX9 processors to the table column
    /// whose instruction set they share (checked with llvm-mc-19: see
    /// `tests/target_oracle.rs`); non-GFX9 names give `None`.
    pub fn from_processor(name: &str) -> Option<Target> {
        let p = Processor::from_name(name)?;
        Some(match p.name {
            "gfx900" | "gfx902" | "gfx909" | "gfx90c" => Target::Gfx900,
            "gfx904" => Target::Gfx904,
            "gfx9-generic" => Target::Gfx9Generic,
            "gfx906" => Target::Gfx906,
            "gfx908" => Target::Gfx908,
            "gfx90a" => Target::Gfx90a,
            "gfx940" | "gfx941" | "gfx942" => Target::Gfx942,
            _ => return None,
        })
    }

    /// Whether the target has accumulation registers (AGPRs) in memory
    /// instructions as well as MAI instructions (gfx90a, gfx942; not gfx908,
    /// where llvm-mc rejects "agpr loads and stores").
    pub fn has_agprs(self) -> bool {
        matches!(self, Target::Gfx90a | Target::Gfx942)
    }

    /// Whether the target has MAI instructions (MFMA, `v_accvgpr_*`) and
    /// AGPRs in them (gfx908, gfx90a, gfx942).
    pub fn has_mai(self) -> bool {
        matches!(self, Target::Gfx908 | Target::Gfx90a | Target::Gfx942)
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
    /// Whether the codec implements this family (all GFX9 families; not
    /// [`Family::Unknown`], and GFX9 has no VOPC DPP).
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
                | Family::Vop3p
                | Family::Vop1Dpp
                | Family::Vop2Dpp
                | Family::Vop1Sdwa
                | Family::Vop2Sdwa
                | Family::VopcSdwa
                | Family::Vintrp
                | Family::Ds
                | Family::Mubuf
                | Family::Mtbuf
                | Family::Mimg
                | Family::Exp
                | Family::Flat
                | Family::Global
                | Family::Scratch
        )
    }
}

/// Mnemonics llvm-mc accepts that the inventory does not list, and the
/// instruction each stands for (found with the oracle).
pub const ALIASES: &[(&str, &str)] = &[
    ("v_accvgpr_read", "v_accvgpr_read_b32"),
    ("v_accvgpr_write", "v_accvgpr_write_b32"),
    ("v_accvgpr_mov", "v_accvgpr_mov_b32"),
    // The low half of a product is the same for signed and unsigned.
    ("v_mul_lo_i32", "v_mul_lo_u32"),
];

/// Mnemonic or printed name → rows, in table order.
fn name_index() -> &'static std::collections::HashMap<&'static str, Vec<&'static InstDef>> {
    static INDEX: std::sync::OnceLock<
        std::collections::HashMap<&'static str, Vec<&'static InstDef>>,
    > = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: std::collections::HashMap<&'static str, Vec<&'static InstDef>> =
            std::collections::HashMap::new();
        for d in table::INSTRUCTIONS {
            map.entry(d.mnemonic).or_default().push(d);
            if d.name != d.mnemonic {
                map.entry(d.name).or_default().push(d);
            }
        }
        map
    })
}

/// One instruction of the table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstDef {
    /// The instruction's identity for dispatch (one per mnemonic).
    pub op: table::Op,
    /// LLVM's mnemonic as documented (`v_add_f32`, `v_add_f32_e64`).
    pub mnemonic: &'static str,
    /// The name llvm-objdump-19 prints (`v_add_f32_e32`).
    pub name: &'static str,
    /// The inventory's class (`VOP2`, `SMEM`, …).
    pub class: &'static str,
    /// Encoding family.
    pub family: Family,
    /// Opcode per [`Target`] column (gfx900, gfx906, gfx908, gfx90a, gfx942,
    /// gfx904, gfx9-generic; None: not on that target).
    pub opcodes: [Option<u16>; Target::COUNT],
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
    pub accepted: [&'static [&'static str]; Target::COUNT],
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
        thread_local! {
            /// The last mnemonic asked about (its address) and its type:
            /// the assembler and printer ask once per operand.
            static LAST: std::cell::Cell<(usize, SrcType)> =
                const { std::cell::Cell::new((0, SrcType::B32)) };
        }
        let key = self.mnemonic.as_ptr() as usize ^ (self.mnemonic.len() << 48);
        LAST.with(|last| {
            let (k, ty) = last.get();
            if k == key {
                return ty;
            }
            let ty = SrcType::of_mnemonic(self.mnemonic);
            last.set((key, ty));
            ty
        })
    }

    /// Looks an instruction up by LLVM mnemonic, printed name, or one of
    /// the assembler aliases in [`ALIASES`].
    pub fn find(name: &str, target: Target) -> Option<&'static InstDef> {
        let name = ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |(_, real)| real);
        name_index()
            .get(name)?
            .iter()
            .copied()
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

impl Inst {
    /// An instruction of `def` for `target` with `operands` (in assembly
    /// order) and default modifiers ([`Modifiers::defaults_for`]); set
    /// `mods` fields for more. For code generators: `encode` it.
    pub fn new(def: &'static InstDef, target: Target, operands: Vec<Operand>) -> Inst {
        Inst {
            target,
            def,
            operands,
            mods: Modifiers::defaults_for(def),
        }
    }
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
    /// Per-source negate bits (bit i: source i): VOP3 `neg`, VOP3P `neg_lo`.
    pub neg: u8,
    /// Per-source absolute-value bits: VOP3 `abs`, VOP3P `neg_hi`.
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
    /// SMEM: an SGPR offset plus an immediate one (`s0 offset:N`, printed
    /// even when N is 0).
    pub soe: bool,
    /// MUBUF/MTBUF `offen` (vaddr holds an offset).
    pub offen: bool,
    /// MUBUF/MTBUF `idxen` (vaddr holds an index).
    pub idxen: bool,
    /// MUBUF/MTBUF `tfe` (gfx900/gfx906).
    pub tfe: bool,
    /// MTBUF data and numeric format, `dfmt | nfmt << 4` (default 1).
    pub format: u8,
    /// VOP3P `op_sel_hi` bits (src0..src2).
    pub op_sel_hi: u8,
    /// MFMA `cbsz`.
    pub cbsz: u8,
    /// MFMA `abid`.
    pub abid: u8,
    /// MFMA `blgp` (gfx942 f64 MFMA: `neg`).
    pub blgp: u8,
    /// DPP control (`quad_perm`, `row_shl`, …), 9 bits.
    pub dpp_ctrl: u16,
    /// DPP `row_mask` (default 0xf).
    pub row_mask: u8,
    /// DPP `bank_mask` (default 0xf).
    pub bank_mask: u8,
    /// DPP `bound_ctrl` (printed `bound_ctrl:1`).
    pub bound_ctrl: bool,
    /// SDWA `dst_sel` (6: DWORD).
    pub dst_sel: u8,
    /// SDWA `dst_unused` (2: UNUSED_PRESERVE).
    pub dst_unused: u8,
    /// SDWA `src0_sel`, `src1_sel`.
    pub src_sel: [u8; 2],
    /// SDWA per-source `sext` bits.
    pub sext: u8,
    /// MIMG `dmask`.
    pub dmask: u8,
    /// MIMG `unorm`.
    pub unorm: bool,
    /// MIMG `a16` (the r128 bit on GFX9).
    pub a16: bool,
    /// MIMG `lwe`.
    pub lwe: bool,
    /// MIMG `da`.
    pub da: bool,
    /// MIMG `d16`.
    pub d16: bool,
    /// EXP `done`.
    pub done: bool,
    /// EXP `compr`.
    pub compr: bool,
    /// EXP `vm`.
    pub vm: bool,
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

impl Error {
    /// The same error with byte offsets moved by `base` (for errors of an
    /// instruction decoded at `base` within a larger buffer).
    pub fn shifted(self, base: usize) -> Error {
        match self {
            Error::Truncated { need, have, offset } => Error::Truncated {
                need: need + base,
                have: have + base,
                offset: offset + base,
            },
            Error::UnknownOpcode {
                family,
                opcode,
                target,
                offset,
            } => Error::UnknownOpcode {
                family,
                opcode,
                target,
                offset: offset + base,
            },
            Error::Unsupported {
                family,
                name,
                offset,
            } => Error::Unsupported {
                family,
                name,
                offset: offset + base,
            },
            Error::Invalid {
                name,
                reason,
                offset,
            } => Error::Invalid {
                name,
                reason,
                offset: offset + base,
            },
            e @ Error::Syntax { .. } => e,
        }
    }
}

/// Decodes the instruction at byte `offset` of `code`; errors carry offsets
/// within `code`.
pub fn decode_at(code: &[u8], offset: usize, target: Target) -> Result<(Inst, usize)> {
    let bytes = code.get(offset..).unwrap_or(&[]);
    decode(bytes, target).map_err(|e| e.shifted(offset))
}

/// Disassembles `code` into (offset, instruction) pairs, stopping at the
/// first error (returned as the last item).
pub fn disassemble(
    code: &[u8],
    target: Target,
) -> impl Iterator<Item = Result<(usize, Inst)>> + '_ {
    let mut offset = 0;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || offset >= code.len() {
            return None;
        }
        match decode_at(code, offset, target) {
            Ok((inst, len)) => {
                let at = offset;
                offset += len;
                Some(Ok((at, inst)))
            }
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_errors_carry_offsets() {
        // s_mov_b32 s1, s2; then two bytes of a truncated instruction.
        let code = [0x02, 0x00, 0x81, 0xbe, 0x02, 0x00];
        let items: Vec<_> = disassemble(&code, Target::Gfx900).collect();
        assert_eq!(items.len(), 2);
        assert_eq!(print(&items[0].as_ref().unwrap().1), "s_mov_b32 s1, s2");
        assert_eq!(
            items[1].as_ref().unwrap_err(),
            &Error::Truncated {
                need: 8,
                have: 6,
                offset: 4
            }
        );
        // A VOP3 with a literal source code (255) is invalid on GFX9.
        let code = [0x02, 0x00, 0x80, 0xd2, 0xff, 0x00, 0x02, 0x00];
        let err = decode_at(&code, 0, Target::Gfx900).unwrap_err();
        assert!(matches!(err, Error::Invalid { offset: 4, .. }), "{err}");
        assert!(err.to_string().ends_with("at offset 0x4"), "{err}");
    }

    #[test]
    fn parse_errors_carry_columns() {
        let col = |line: &str| match parse_line(line, Target::Gfx900) {
            Err(Error::Syntax { column, .. }) => column,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(col("v_bogus v1, v2"), 1);
        assert_eq!(col("  s_mov_b32 s1, q2"), 17);
        assert_eq!(col("s_mov_b32 s1, s2 glc"), 18);
        assert_eq!(col("v_add_f32 v1, v2"), 17);
        assert_eq!(col("s_waitcnt vmcnt(99)"), 11);
        assert_eq!(col("ds_read_b32 v1, v2 offset:70000"), 20);
        assert_eq!(col("global_load_dword v1, v[2:3], s[4:5]"), 23);
        // Register numbers past u32: an error, not an overflow.
        assert_eq!(col("v_mov_b32 v4294967295, v1"), 11);
        let e = parse_line("s_mov_b32 s1, q2", Target::Gfx900).unwrap_err();
        assert!(e.to_string().ends_with("at column 15"), "{e}");
    }

    #[test]
    fn ops_name_their_mnemonics() {
        let d = InstDef::find("v_add_f32", Target::Gfx900).unwrap();
        assert_eq!(d.op, Op::V_ADD_F32);
        for d in table::INSTRUCTIONS {
            assert_eq!(format!("{:?}", d.op), d.mnemonic.to_ascii_uppercase());
        }
        let (inst, _) = decode(&[0x02, 0x00, 0x81, 0xbe], Target::Gfx942).unwrap();
        assert_eq!(inst.def.op, Op::S_MOV_B32);
    }

    #[test]
    fn build_and_encode() {
        // v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf
        let def = InstDef::find("v_mov_b32_dpp", Target::Gfx900).unwrap();
        let v = |n: u16| Operand::Src {
            code: 256 + n,
            width: 1,
        };
        let mut inst = Inst::new(def, Target::Gfx900, vec![v(1), v(2)]);
        inst.mods.dpp_ctrl = 0x101;
        let bytes = encode(&inst, Target::Gfx900).unwrap();
        // llvm-mc-19 -mcpu=gfx900: v_mov_b32_dpp v1, v2 row_shl:1
        assert_eq!(bytes, [0xfa, 0x02, 0x02, 0x7e, 0x02, 0x01, 0x01, 0xff]);
        assert_eq!(
            print(&decode(&bytes, Target::Gfx900).unwrap().0),
            "v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf"
        );
    }

    #[test]
    fn targets_from_processor_names() {
        assert_eq!(Target::from_processor("gfx90a"), Some(Target::Gfx90a));
        assert_eq!(Target::from_processor("gfx908"), Some(Target::Gfx908));
        assert_eq!(Target::from_processor("gfx940"), Some(Target::Gfx942));
        assert_eq!(Target::from_processor("gfx902"), Some(Target::Gfx900));
        assert_eq!(Target::from_processor("gfx1030"), None);
        // llvm-mc-19 accepts v_fma_mix_f32 for gfx904, v_mad_mix_f32 for
        // gfx900 and neither for gfx9-generic: columns of their own.
        assert_eq!(Target::from_processor("gfx904"), Some(Target::Gfx904));
        assert_eq!(
            Target::from_processor("gfx9-generic"),
            Some(Target::Gfx9Generic)
        );
        for t in Target::ALL {
            assert_eq!(Target::from_processor(t.name()), Some(t));
        }
    }

    #[test]
    fn operand_less_vop1_and_dpp_comments_decode_like_llvm_objdump() {
        // Expected texts and lengths: llvm-objdump-19 -d --mcpu=gfx900 (and
        // gfx90a for row_newbcast) on these words.
        /// Bytes, target, LLVM's text and length (None: `.long`).
        type Case<'a> = (&'a [u8], Target, Option<(&'a str, usize)>);
        let cases: [Case; 7] = [
            // src0 = SDWA with an invalid SDWA word: the 4-byte v_nop.
            (
                &[0xf9, 0, 0, 0x7e, 6, 6, 6, 0],
                Target::Gfx900,
                Some(("v_nop", 4)),
            ),
            (
                &[0xf9, 0, 0, 0x7e, 0, 0, 0, 0],
                Target::Gfx900,
                Some(("v_nop", 8)),
            ),
            (&[0x01, 0, 0, 0x7e], Target::Gfx900, Some(("v_nop", 4))),
            (&[0x00, 0, 0x02, 0x7e], Target::Gfx900, None),
            (
                &[0xfa, 0, 0, 0x7e, 0, 0xe4, 0x01, 0xff],
                Target::Gfx900,
                Some((
                    "v_nop /* Invalid dpp_ctrl value */ row_mask:0xf bank_mask:0xf",
                    8,
                )),
            ),
            (
                &[0xfa, 0x02, 0x02, 0x7e, 0, 0x50, 0x01, 0xff],
                Target::Gfx900,
                Some((
                    "v_mov_b32_dpp v1, v0  /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */ row_mask:0xf bank_mask:0xf",
                    8,
                )),
            ),
            (
                &[0xfa, 0x02, 0x02, 0x7e, 0, 0x50, 0x01, 0xff],
                Target::Gfx90a,
                Some((
                    "v_mov_b32_dpp v1, v0 row_newbcast:0 row_mask:0xf bank_mask:0xf",
                    8,
                )),
            ),
        ];
        for (bytes, t, want) in cases {
            let got = decode(bytes, t).map(|(i, len)| (print(&i), len));
            match want {
                Some((text, len)) => assert_eq!(got, Ok((text.to_string(), len)), "{bytes:x?}"),
                None => assert!(got.is_err(), "{bytes:x?}: {got:?}"),
            }
        }
        // llvm-mc-19: `v_nop_sdwa` is a zero SDWA word.
        let inst = parse_line("v_nop_sdwa", Target::Gfx900).unwrap();
        assert_eq!(
            encode(&inst, Target::Gfx900).unwrap(),
            [0xf9, 0, 0, 0x7e, 0, 0, 0, 0]
        );
    }

    #[test]
    fn found_by_the_wider_mc_corpus_net() {
        // llvm-objdump-19 --mcpu=gfx900: a 16-bit operand's literal prints
        // as its low half; unused DS register fields must be zero.
        let (i, len) = decode(
            &[0xff, 0x04, 0x50, 0x7d, 0x73, 0x72, 0x71, 0x3f],
            Target::Gfx900,
        )
        .unwrap();
        assert_eq!(
            (print(&i).as_str(), len),
            ("v_cmp_f_u16_e32 vcc, 0x7273, v2", 8)
        );
        let ds = |vdst: u8| [0x00, 0x00, 0x80, 0xd8, 0x01, 0xfd, 0x00, vdst];
        let (i, _) = decode(&ds(0), Target::Gfx900).unwrap();
        assert_eq!(print(&i), "ds_add_u64 v1, v[253:254]");
        assert!(decode(&ds(0xff), Target::Gfx900).is_err());
        // llvm-mc-19: a carry-out other than vcc needs the VOP3 form.
        let inst = parse_line("v_add_co_u32 v5, s[0:1], v1, v2", Target::Gfx900).unwrap();
        assert_eq!(
            encode(&inst, Target::Gfx900).unwrap(),
            [0x05, 0x00, 0x19, 0xd1, 0x01, 0x05, 0x02, 0x00]
        );
    }

    #[test]
    fn mix_instructions_per_target() {
        // llvm-mc-19: gfx900 `v_mad_mix_f32 v2, v3, v4, v5` and gfx904
        // `v_fma_mix_f32 v2, v3, v4, v5` are [0x02,0x00,0xa0,0xd3,0x03,0x09,0x16,0x04];
        // gfx9-generic takes neither and llvm-objdump-19 prints `.long`.
        let bytes = [0x02, 0x00, 0xa0, 0xd3, 0x03, 0x09, 0x16, 0x04];
        for (t, name) in [
            (Target::Gfx900, "v_mad_mix_f32"),
            (Target::Gfx904, "v_fma_mix_f32"),
        ] {
            let line = format!("{name} v2, v3, v4, v5");
            let inst = parse_line(&line, t).unwrap();
            assert_eq!(encode(&inst, t).unwrap(), bytes);
            assert_eq!(print(&decode(&bytes, t).unwrap().0), line);
        }
        assert!(parse_line("v_fma_mix_f32 v2, v3, v4, v5", Target::Gfx900).is_err());
        assert!(parse_line("v_mad_mix_f32 v2, v3, v4, v5", Target::Gfx904).is_err());
        for name in ["v_mad_mix_f32", "v_fma_mix_f32"] {
            let line = format!("{name} v2, v3, v4, v5");
            assert!(parse_line(&line, Target::Gfx9Generic).is_err(), "{line}");
        }
        assert!(decode(&bytes, Target::Gfx9Generic).is_err());
    }
}
