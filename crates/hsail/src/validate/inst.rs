//! Layer 2: per-instruction rules (PRM ch. 5–11, profiles ch. 16, machine
//! models 2.9).
//!
//! [`check_inst`] looks the opcode up in [`rules::RULES`] and checks the
//! format, types, operand count and operand kinds and sizes against the row;
//! the rules a table cannot say (modifiers, segments, memory orders and
//! scopes, cvt pairs, profiles) are the `check_*` functions below, one rule
//! each. Every function pushes errors and goes on, so independent errors are
//! all reported.

use brig::{
    BaseClass, BrigAtomicOperation as AOp, BrigKind, BrigMachineModel, BrigMemoryOrder as Ord,
    BrigMemoryScope as Scope, BrigOpcode as Op, BrigPack, BrigProfile, BrigRegisterKind, BrigRound,
    BrigSegment as Seg, BrigType, Code, CodeOffset, DataOffset, Operand,
};

use super::index::{Index, InstOperands, MAX_INST_OPERANDS, le16, le32, le64};
use super::rules::{self, InstRule, Mods, Opnd, Ty};
use super::{RegisterUse, ValidationError};

/// Module-wide facts the instruction rules depend on.
#[derive(Clone, Copy, Debug)]
pub struct InstEnv {
    /// `$base` or `$full`.
    pub profile: BrigProfile,
    /// `$small` or `$large`.
    pub model: BrigMachineModel,
    /// Whether `extension "IMAGE"` is present.
    pub image_ext: bool,
    /// Whether to check each instruction's PRM 18 field values (enums,
    /// masks, reserved fields): off for modules from our own writer, whose
    /// entries layer 1 trusts (see `Mode::trusted` in the module docs).
    pub fields: bool,
}

impl InstEnv {
    fn large(&self) -> bool {
        self.model == BrigMachineModel::LARGE
    }

    fn base(&self) -> bool {
        self.profile == BrigProfile::BASE
    }

    /// Address size in bits for `segment` (PRM 2.9, Table 2-3).
    pub fn address_bits(&self, segment: Seg) -> u32 {
        match segment {
            Seg::FLAT | Seg::GLOBAL | Seg::READONLY | Seg::KERNARG if self.large() => 64,
            _ => 32,
        }
    }
}

/// The common fields of an instruction, with the format-specific ones
/// that the rules read.
#[derive(Clone, Copy, Debug)]
struct View {
    opcode: Op,
    ty: BrigType,
    src: BrigType,
    coord: BrigType,
    segment: Seg,
    ftz: bool,
    round: BrigRound,
    pack: BrigPack,
}

fn view(c: &Code<'_>) -> Option<View> {
    let i = c.inst()?;
    let mut v = View {
        opcode: i.opcode,
        ty: i.type_,
        src: BrigType::NONE,
        coord: BrigType::NONE,
        segment: Seg::NONE,
        ftz: false,
        round: BrigRound::NONE,
        pack: BrigPack::NONE,
    };
    match *c {
        Code::InstSourceType(e) => v.src = e.source_type,
        Code::InstCmp(e) => {
            v.src = e.source_type;
            v.ftz = e.modifier.contains(brig::BrigAluModifierMask::FTZ);
            v.pack = e.pack;
        }
        Code::InstCvt(e) => {
            v.src = e.source_type;
            v.ftz = e.modifier.contains(brig::BrigAluModifierMask::FTZ);
            v.round = e.round;
        }
        Code::InstLane(e) => v.src = e.source_type,
        Code::InstSegCvt(e) => {
            v.src = e.source_type;
            v.segment = e.segment;
        }
        Code::InstMod(e) => {
            v.ftz = e.modifier.contains(brig::BrigAluModifierMask::FTZ);
            v.round = e.round;
            v.pack = e.pack;
        }
        Code::InstMem(e) => v.segment = e.segment,
        Code::InstAtomic(e) => v.segment = e.segment,
        Code::InstAddr(e) => v.segment = e.segment,
        Code::InstSeg(e) => v.segment = e.segment,
        Code::InstQueue(e) => v.segment = e.segment,
        Code::InstImage(e) => {
            v.src = e.image_type;
            v.coord = e.coord_type;
        }
        Code::InstSignal(e) => v.src = e.signal_type,
        _ => {}
    }
    Some(v)
}

struct Cx<'e, 'm, 'a> {
    m: &'m Index<'a>,
    env: &'e InstEnv,
    at: CodeOffset,
    v: View,
    rule: &'static InstRule,
    operands: &'e InstOperands<'a>,
    errors: &'e mut Vec<ValidationError>,
    regs: &'e mut RegisterNotes,
}

impl<'a> Cx<'_, '_, 'a> {
    fn err(&mut self, rule: &'static str, msg: impl Into<String>) {
        self.errors.push(ValidationError::code(rule, self.at, msg));
    }

    fn op_err(&mut self, rule: &'static str, i: usize, msg: impl Into<String>) {
        self.errors
            .push(ValidationError::operand(rule, self.at, i, msg));
    }

    fn mnemonic(&self) -> &'static str {
        crate::ops::info(self.v.opcode.raw()).map_or("?", |i| i.mnemonic)
    }

    fn operand(&self, i: usize) -> Option<Operand<'a>> {
        self.operands.get(i)
    }
}

fn tname(t: BrigType) -> String {
    t.text().unwrap_or_else(|| format!("type {:#x}", t.raw()))
}

/// Checks one instruction; notes its registers in `regs`.
pub fn check_inst(
    m: &Index<'_>,
    env: &InstEnv,
    at: CodeOffset,
    c: Code<'_>,
    operands: &InstOperands<'_>,
    errors: &mut Vec<ValidationError>,
    regs: &mut RegisterNotes,
) {
    // PRM 18.5.2: the entry's own fields first; the rules below read them.
    if env.fields
        && let Ok(bytes) = m.code_bytes(at)
        && !super::structure::check_inst_fields(errors, at, bytes)
    {
        return;
    }
    let Some(v) = view(&c) else { return };
    let Some(rule) = rules::rule(v.opcode) else {
        errors.push(ValidationError::code(
            "PRM 18.7",
            at,
            format!("unknown opcode {}", v.opcode.raw()),
        ));
        return;
    };
    let mut cx = Cx {
        m,
        env,
        at,
        v,
        rule,
        operands,
        errors,
        regs,
    };
    if !check_format(&mut cx, c.kind()) {
        return;
    }
    check_types(&mut cx);
    check_operand_count(&mut cx);
    check_operands(&mut cx);
    check_modifiers(&mut cx, &c);
    check_profile(&mut cx);
    check_image_extension(&mut cx);
    match c {
        Code::InstCmp(_) => check_cmp(&mut cx),
        Code::InstCvt(_) => check_cvt(&mut cx),
        Code::InstMem(e) => check_mem(&mut cx, e),
        Code::InstAtomic(e) => check_atomic(&mut cx, e),
        Code::InstSignal(e) => check_signal(&mut cx, e),
        Code::InstMemFence(e) => check_memfence(&mut cx, e),
        Code::InstQueue(e) => check_queue(&mut cx, e.memory_order),
        Code::InstAddr(_) => check_lda(&mut cx),
        Code::InstSeg(_) => check_nullptr(&mut cx),
        Code::InstSegCvt(_) => check_segcvt(&mut cx),
        Code::InstImage(e) => check_image(&mut cx, e),
        Code::InstQueryImage(e) => check_queryimage(&mut cx, e),
        Code::InstBr(e) => check_width(&mut cx, e.width),
        Code::InstLane(e) => {
            check_width(&mut cx, e.width);
            check_lane_mask(&mut cx);
        }
        _ if cx.v.opcode == Op::LDF => check_ldf(&mut cx),
        _ => {}
    }
    check_pack_source(&mut cx);
    check_combine(&mut cx);
    check_signal_model(&mut cx);
    check_model_sized(&mut cx);
}

/// The shape of an instruction: everything [`check_inst`] reads — the
/// entry's bytes except its operand-list offset (and the unchecked
/// equivalence class), and per operand its kind and what the rules look at
/// (register class, immediate size, address register class, variable
/// segment and offset range, code-reference target kind, code-list
/// emptiness and element kind, vector elements and which of them name the
/// same register) — but not register numbers nor offsets. Two instructions
/// of one shape get the same errors from [`check_inst`] in one module, so a
/// shape that passed once passes again: see [`InstMemo`].
///
/// Words: the entry's first 8 bytes (size, kind, opcode, type), its bytes
/// from 12 on (the format's own fields: at most 8 bytes), then one word per
/// operand, a nonzero tag in the low byte and the fields the rules read
/// above it (see `ShapeBuf::operand`); unused words are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape([u64; SHAPE_WORDS]);

impl core::hash::Hash for Shape {
    /// The entry's words and the first three operands': a fixed number
    /// of words, hashed without a loop. (Equal shapes hash alike. Shapes
    /// that differ only from the fourth operand on share a hash: the
    /// valid variants of those operands, given the rest, are few.)
    #[inline]
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let [w0, w1, o0, o1, o2, ..] = self.0;
        state.write_u64(w0);
        state.write_u64(w1);
        state.write_u64(o0);
        state.write_u64(o1);
        state.write_u64(o2);
    }
}

const SHAPE_WORDS: usize = 2 + MAX_INST_OPERANDS;

/// Operand tags of a [`Shape`].
const TAG_REGISTER: u64 = 1;
const TAG_CONSTANT: u64 = 2;
const TAG_WAVESIZE: u64 = 3;
const TAG_ADDRESS: u64 = 4;
const TAG_CODE_REF: u64 = 5;
const TAG_LIST: u64 = 6;
const TAG_CODE_LIST: u64 = 7;

/// Elements of a vector operand a [`Shape`] has room for, 12 bits each.
const SHAPE_VECTOR: usize = 4;

/// A [`Shape`] being built from the raw bytes of an instruction and its
/// operands, with the registers its operands name (what [`check_inst`]
/// records) and the code entries they name (what the scope rules look
/// at), so an instruction of a known shape is done without decoding its
/// operands. One buffer serves every instruction of a walk (see
/// [`InstMemo`]).
#[derive(Debug)]
struct ShapeBuf {
    shape: Shape,
    regs: ShapeRegs,
    uses: CodeUses,
    /// Whether `shape` holds the shape of the instruction being checked
    /// (`false`: the instruction is not remembered).
    shaped: bool,
}

/// The registers an instruction names, as (class, number), in operand
/// order (see `ShapeBuf`).
#[derive(Debug)]
pub struct ShapeRegs {
    list: [(BrigRegisterKind, u16); SHAPE_REGS],
    len: usize,
}

/// Instructions naming more registers than this are not remembered.
const SHAPE_REGS: usize = 16;

impl ShapeRegs {
    #[inline(always)]
    fn push(&mut self, kind: u16, num: u16) -> Option<()> {
        *self.list.get_mut(self.len)? = (BrigRegisterKind::new(kind), num);
        self.len += 1;
        Some(())
    }

    fn iter(&self) -> impl Iterator<Item = (BrigRegisterKind, u16)> + '_ {
        self.list[..self.len].iter().copied()
    }
}

/// A code entry named by operand `index` of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeUse {
    /// The variable (or other entry) of an address.
    Symbol { index: usize, at: CodeOffset },
    /// The target of a code reference (a label, function or signature).
    Target { index: usize, at: CodeOffset },
}

/// The code entries an instruction's operands name, in operand order;
/// `lists` when an operand is a code list (its elements are not listed).
#[derive(Clone, Copy, Debug)]
pub struct CodeUses {
    list: [CodeUse; MAX_INST_OPERANDS],
    len: usize,
    /// Whether an operand is a code list.
    pub lists: bool,
}

impl CodeUses {
    /// The code entries named, in operand order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = CodeUse> + '_ {
        self.list[..self.len].iter().copied()
    }

    #[inline(always)]
    fn push(&mut self, u: CodeUse) -> Option<()> {
        *self.list.get_mut(self.len)? = u;
        self.len += 1;
        Some(())
    }
}

impl ShapeBuf {
    fn new() -> Self {
        Self {
            shape: Shape([0; SHAPE_WORDS]),
            regs: ShapeRegs {
                list: [(BrigRegisterKind::CONTROL, 0); SHAPE_REGS],
                len: 0,
            },
            uses: CodeUses {
                list: [CodeUse::Symbol {
                    index: 0,
                    at: CodeOffset::new(0),
                }; MAX_INST_OPERANDS],
                len: 0,
                lists: false,
            },
            shaped: false,
        }
    }

    /// Builds in `self` the shape of the instruction `bytes` (its entry)
    /// whose operand list is at `list`, reading each operand's fields in
    /// place (each offset checked to start an operand entry). `None` for
    /// instructions not worth remembering (code lists of mixed kinds, rare
    /// operand kinds, long vectors) or a list layer 1 would reject.
    #[inline]
    fn build(&mut self, m: &Index<'_>, bytes: &[u8], list: DataOffset) -> Option<()> {
        self.regs.len = 0;
        self.uses.len = 0;
        self.uses.lists = false;
        let w = &mut self.shape.0;
        *w = [0; SHAPE_WORDS];
        // BrigInstBase: base (4), opcode (2), type (2), operands (4).
        w[0] = le64(bytes, 0)?;
        if immediate_max(Op::new((w[0] >> 32) as u16)).is_some() {
            return None;
        }
        w[1] = match bytes.len() {
            12 => 0,
            16 => u64::from(le32(bytes, 12)?),
            20 => le64(bytes, 12)?,
            _ => return None,
        };
        // The equivalence class of memory instructions is not checked
        // (every value is valid, PRM 6.1.4): left out, so it does not
        // split shapes.
        if let Some(at) = equiv_class_at(BrigKind::new((w[0] >> 16) as u16)) {
            w[1] &= !(0xff << (8 * (at - 12)));
        }
        let list = m.raw_offsets(list.get())?;
        let n = list.len() / 4;
        if n > MAX_INST_OPERANDS {
            return None;
        }
        for index in 0..n {
            self.shape.0[2 + index] = self.operand(m, index, le32(list, 4 * index)?)?;
        }
        Some(())
    }

    /// Operand `index`, the entry at `offset`: its word of the shape.
    #[inline(always)]
    fn operand(&mut self, m: &Index<'_>, index: usize, offset: u32) -> Option<u64> {
        let e = m.raw_operand(offset)?;
        match BrigKind::new(le16(e, 2)?) {
            BrigKind::OPERAND_REGISTER => {
                let (kind, num) = (le16(e, 4)?, le16(e, 6)?);
                self.regs.push(kind, num)?;
                Some(TAG_REGISTER | u64::from(kind) << 8)
            }
            // Its size and type (Table 4-1: a signal operand takes only a
            // signal typed constant).
            BrigKind::OPERAND_CONSTANT_BYTES => {
                let ty = u64::from(le16(e, 4)?);
                Some(TAG_CONSTANT | ty << 8 | constant_size(m, e)? << 24)
            }
            BrigKind::OPERAND_WAVESIZE => Some(TAG_WAVESIZE),
            BrigKind::OPERAND_ADDRESS => self.address(m, index, e),
            BrigKind::OPERAND_CODE_REF => {
                let at = CodeOffset::new(le32(e, 4)?);
                let kind = m.try_code(at)?.kind().raw();
                self.uses.push(CodeUse::Target { index, at })?;
                Some(TAG_CODE_REF | u64::from(kind) << 8)
            }
            BrigKind::OPERAND_CODE_LIST => {
                // What the rules read of a code list: whether it is empty,
                // and its elements' kind (lists mixing kinds are not
                // remembered).
                self.uses.lists = true;
                let elems = m.code_list_ref(DataOffset::new(le32(e, 4)?)).ok()?;
                let mut common = None;
                for &c in elems {
                    let kind = m.try_code(c)?.kind();
                    if *common.get_or_insert(kind) != kind {
                        return None;
                    }
                }
                let kind = common.map_or(0, |c| u64::from(c.raw()));
                Some(TAG_CODE_LIST | u64::from(!elems.is_empty()) << 8 | kind << 16)
            }
            BrigKind::OPERAND_OPERAND_LIST => self.vector(m, e),
            _ => None,
        }
    }

    /// A vector (`BrigOperandOperandList` bytes `e`): per element, 12 bits
    /// above the count: a tag (2 bits) and, for a register, its class and
    /// the position of the first element naming the same register (2 bits
    /// each: distinct destinations, PRM 4.17), for an immediate its type.
    fn vector(&mut self, m: &Index<'_>, e: &[u8]) -> Option<u64> {
        let elems = m.raw_offsets(le32(e, 4)?)?;
        let n = elems.len() / 4;
        if n > SHAPE_VECTOR {
            return None;
        }
        let mut word = TAG_LIST | (n as u64) << 8;
        let mut names = [(u16::MAX, 0u16); SHAPE_VECTOR];
        for i in 0..n {
            let e = m.raw_operand(le32(elems, 4 * i)?)?;
            let field = match BrigKind::new(le16(e, 2)?) {
                BrigKind::OPERAND_REGISTER => {
                    let (kind, num) = (le16(e, 4)?, le16(e, 6)?);
                    if kind > 3 {
                        return None;
                    }
                    self.regs.push(kind, num)?;
                    names[i] = (kind, num);
                    let first = names.iter().position(|&x| x == (kind, num))?;
                    1 | u64::from(kind) << 2 | (first as u64) << 4
                }
                // Its type, which (not an array type) decides its size
                // (layer 1 checked that; our writer writes it so).
                BrigKind::OPERAND_CONSTANT_BYTES => {
                    let ty = le16(e, 4)?;
                    if ty >= 0x400 || BrigType::new(ty).is_array() {
                        return None;
                    }
                    2 | u64::from(ty) << 2
                }
                BrigKind::OPERAND_WAVESIZE => 3,
                _ => return None,
            };
            word |= field << (12 + 12 * i);
        }
        Some(word)
    }

    /// An address (`BrigOperandAddress` bytes `e`): its register's class,
    /// the variable's segment and, when opaque, its type (ld/st must then
    /// use that type, PRM 6.3), and whether the offset has a nonzero high word.
    fn address(&mut self, m: &Index<'_>, index: usize, e: &[u8]) -> Option<u64> {
        let (symbol, reg, offset) = (le32(e, 4)?, le32(e, 8)?, le64(e, 12)?);
        let reg = match reg {
            0 => 0xffff,
            r => {
                let r = m.raw_operand(r)?;
                if BrigKind::new(le16(r, 2)?) != BrigKind::OPERAND_REGISTER {
                    return None;
                }
                let (kind, num) = (le16(r, 4)?, le16(r, 6)?);
                self.regs.push(kind, num)?;
                kind
            }
        };
        let (seg, opaque) = match symbol {
            0 => (0xff, 0),
            s => {
                let at = CodeOffset::new(s);
                self.uses.push(CodeUse::Symbol { index, at })?;
                match m.try_code(at)? {
                    Code::DirectiveVariable(v) => (v.segment.raw(), opaque_type(v).raw()),
                    _ => (0xfe, 0),
                }
            }
        };
        let wide = offset > u64::from(u32::MAX);
        Some(
            TAG_ADDRESS
                | u64::from(reg) << 8
                | u64::from(seg) << 24
                | u64::from(wide) << 32
                | u64::from(opaque) << 40,
        )
    }
}

/// The size in bytes of an immediate (`BrigOperandConstantBytes` bytes
/// `e`).
#[inline(always)]
fn constant_size(m: &Index<'_>, e: &[u8]) -> Option<u64> {
    Some(m.raw_data(le32(e, 8)?)?.len() as u64)
}

/// The byte offset of the `equivClass` field in instructions of `kind`.
fn equiv_class_at(kind: BrigKind) -> Option<usize> {
    match kind {
        BrigKind::INST_MEM => Some(14),
        BrigKind::INST_ATOMIC => Some(16),
        _ => None,
    }
}

/// Shapes of the instructions that passed [`check_inst`] (in one module,
/// so with one [`InstEnv`]): an instruction of a known shape only has its
/// registers recorded ([`memo_hit`]).
#[derive(Debug)]
pub struct InstMemo {
    passed: super::index::FastSet<Shape>,
    /// Where each instruction's shape is built.
    buf: ShapeBuf,
}

/// An empty [`InstMemo`] for module `m`, with room for as many shapes as
/// a module of its size usually has (about one per eight code entries),
/// so it seldom grows.
pub fn memo_for(m: &Index<'_>) -> InstMemo {
    InstMemo {
        passed: super::index::FastSet::with_capacity_and_hasher(
            m.code_count() / 8,
            Default::default(),
        ),
        buf: ShapeBuf::new(),
    }
}

/// The instruction rules through the memo, first half: builds the shape
/// of the instruction `bytes` (its entry; operand list `list`) and, if an
/// instruction of that shape already passed [`check_inst`], records its
/// registers (what `check_inst` records for an instruction that passes)
/// and returns the code entries its operands name — the instruction rules
/// are then done, and its operands need not be decoded. `None`: the
/// caller runs [`check_inst_missed`].
#[inline]
pub fn memo_hit(
    memo: &mut InstMemo,
    m: &Index<'_>,
    bytes: &[u8],
    list: DataOffset,
    regs: &mut RegisterNotes,
) -> Option<CodeUses> {
    let buf = &mut memo.buf;
    buf.shaped = buf.build(m, bytes, list).is_some();
    if !buf.shaped || !memo.passed.contains(&buf.shape) {
        return None;
    }
    for (k, n) in buf.regs.iter() {
        regs.note(k, n);
    }
    Some(buf.uses)
}

/// The opcode and operand list of the code entry `bytes` if it is an
/// instruction (`BrigInstBase`: base, opcode, type, operands), read in
/// place.
#[inline]
pub fn raw_inst(bytes: &[u8]) -> Option<(Op, DataOffset)> {
    if !BrigKind::new(le16(bytes, 2)?).is_inst() {
        return None;
    }
    Some((Op::new(le16(bytes, 4)?), DataOffset::new(le32(bytes, 8)?)))
}

/// [`check_inst`] for an instruction [`memo_hit`] did not find (or for
/// every instruction, without a memo); remembers its shape if it passes.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn check_inst_missed(
    memo: Option<&mut InstMemo>,
    m: &Index<'_>,
    env: &InstEnv,
    at: CodeOffset,
    c: Code<'_>,
    operands: &InstOperands<'_>,
    errors: &mut Vec<ValidationError>,
    regs: &mut RegisterNotes,
) {
    let before = errors.len();
    check_inst(m, env, at, c, operands, errors, regs);
    if let Some(memo) = memo
        && memo.buf.shaped
        && errors.len() == before
    {
        memo.passed.insert(memo.buf.shape);
    }
}

/// PRM 18.7: each opcode is written in its own BRIG format(s).
fn check_format(cx: &mut Cx<'_, '_, '_>, kind: BrigKind) -> bool {
    if cx.rule.formats.contains(&kind) {
        return true;
    }
    let msg = format!(
        "{} must be encoded as {:?}, not {kind:?}",
        cx.mnemonic(),
        cx.rule.formats
    );
    cx.err("PRM 18.7", msg);
    false
}

/// The type tables of PRM ch. 5–11.
fn check_types(cx: &mut Cx<'_, '_, '_>) {
    let r = cx.rule;
    let prm = rules::section_for(r, cx.v.ty);
    if !r.types.contains(cx.v.ty) {
        let msg = format!(
            "{} does not take type {} (allowed: {})",
            cx.mnemonic(),
            tname(cx.v.ty),
            r.types.names()
        );
        cx.err(prm, msg);
    }
    if !r.src.is_empty() && !r.src.contains(cx.v.src) {
        let msg = format!(
            "{} does not take source type {} (allowed: {})",
            cx.mnemonic(),
            tname(cx.v.src),
            r.src.names()
        );
        cx.err(prm, msg);
    }
}

/// How many operands the instruction must have (atomic and signal forms
/// vary with the operation).
fn operand_range(cx: &Cx<'_, '_, '_>) -> (usize, usize) {
    let n = cx.rule.operands.len();
    let fixed = |k: usize| (k, k);
    match cx.v.opcode {
        Op::ATOMIC | Op::ATOMICNORET | Op::SIGNAL | Op::SIGNALNORET => {
            let base = usize::from(matches!(cx.v.opcode, Op::ATOMIC | Op::SIGNAL));
            let op = atomic_op(cx);
            match op {
                Some(AOp::LD) => fixed(base + 1),
                Some(AOp::CAS) => fixed(base + 3),
                Some(o) if o.raw() >= AOp::WAITTIMEOUT_EQ.raw() => fixed(base + 3),
                _ => fixed(base + 2),
            }
        }
        _ => (n - usize::from(cx.rule.optional), n),
    }
}

fn atomic_op(cx: &Cx<'_, '_, '_>) -> Option<AOp> {
    match cx.m.code(cx.at).ok()? {
        Code::InstAtomic(e) => Some(e.atomic_operation),
        Code::InstSignal(e) => Some(e.signal_operation),
        _ => None,
    }
}

/// PRM 18.7: operand count per opcode.
fn check_operand_count(cx: &mut Cx<'_, '_, '_>) {
    let (lo, hi) = operand_range(cx);
    let n = cx.operands.len();
    if n < lo || n > hi {
        let want = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} to {hi}")
        };
        let msg = format!("{} takes {want} operands, found {n}", cx.mnemonic());
        cx.err("PRM 18.7", msg);
    }
}

/// The type an operand is read with, resolved for this instruction.
#[inline]
fn resolve(cx: &Cx<'_, '_, '_>, t: Ty) -> Option<BrigType> {
    Some(match t {
        Ty::Inst => cx.v.ty,
        Ty::Src => cx.v.src,
        Ty::Fixed(t) => t,
        Ty::Coord => cx.v.coord,
        Ty::Cond => {
            if cx.v.ty.is_packed() {
                unsigned_of(cx.v.ty)
            } else {
                BrigType::B1
            }
        }
        Ty::Addr => {
            if cx.env.address_bits(cx.v.segment) == 64 {
                BrigType::U64
            } else {
                BrigType::U32
            }
        }
        Ty::SigHandle | Ty::Handle => BrigType::B64,
        Ty::Any => return None,
    })
}

/// The unsigned type of the same shape (`s8x4` → `u8x4`, `f32` → `u32`).
fn unsigned_of(t: BrigType) -> BrigType {
    let base = match t.base().bit_size() {
        Some(8) => BrigType::U8,
        Some(16) => BrigType::U16,
        Some(32) => BrigType::U32,
        Some(64) => BrigType::U64,
        _ => return t,
    };
    BrigType::new(base.raw() | (t.raw() & BrigType::PACK_MASK))
}

/// The register class holding values of `t` (PRM 4.16.2).
#[inline]
fn reg_kind_for(t: BrigType) -> Option<BrigRegisterKind> {
    if t.base_class() == BaseClass::Opaque {
        // Image, sampler and signal handles are 64-bit in both models
        // (PRM 4.13.2 / 6.8); only the signal *value* follows the model.
        return Some(BrigRegisterKind::DOUBLE);
    }
    Some(match t.bit_size()? {
        1 => BrigRegisterKind::CONTROL,
        8 | 16 | 32 => BrigRegisterKind::SINGLE,
        64 => BrigRegisterKind::DOUBLE,
        128 => BrigRegisterKind::QUAD,
        _ => return None,
    })
}

fn reg_name(k: BrigRegisterKind, n: u16) -> String {
    let c = ["c", "s", "d", "q"]
        .get(k.raw() as usize)
        .copied()
        .unwrap_or("?");
    format!("${c}{n}")
}

/// Records a register in the use summary.
#[inline]
fn note_register(cx: &mut Cx<'_, '_, '_>, k: BrigRegisterKind, n: u16) {
    cx.regs.note(k, n);
}

/// The registers the instructions of one code block name, as they are
/// noted: the highest number per class (what the Appendix A limits read)
/// and, when asked for, the distinct numbers (for [`RegisterUse`]).
#[derive(Debug, Default)]
pub struct RegisterNotes {
    /// Per class (`$c`, `$s`, `$d`, `$q`): the highest number + 1, 0 for none.
    pool: [u32; 4],
    /// Per class, one bit per register number seen, when distinct
    /// registers are counted.
    seen: Option<[Vec<u64>; 4]>,
    distinct: [u32; 4],
}

impl RegisterNotes {
    /// Empty notes; `count_distinct` also counts the distinct registers
    /// of each class (otherwise [`RegisterUse::distinct`] stays 0).
    pub fn new(count_distinct: bool) -> Self {
        Self {
            seen: count_distinct.then(Default::default),
            ..Self::default()
        }
    }

    /// Notes register `n` of class `k`.
    #[inline]
    pub fn note(&mut self, k: BrigRegisterKind, n: u16) {
        let i = usize::from(k.raw());
        let Some(pool) = self.pool.get_mut(i) else {
            return;
        };
        *pool = (*pool).max(u32::from(n) + 1);
        if let Some(seen) = self.seen.as_mut() {
            let seen = &mut seen[i];
            let (word, bit) = (usize::from(n) / 64, n % 64);
            if seen.len() <= word {
                seen.resize(word + 1, 0);
            }
            if seen[word] & (1 << bit) == 0 {
                seen[word] |= 1 << bit;
                self.distinct[i] += 1;
            }
        }
    }

    /// The use summary of what was noted.
    pub fn finish(&self) -> RegisterUse {
        RegisterUse {
            max: self
                .pool
                .map(|p| p.checked_sub(1).and_then(|m| u16::try_from(m).ok())),
            distinct: self.distinct,
        }
    }
}

/// Operand kinds and sizes (PRM 4.16 operands, 18.7 operand kinds).
fn check_operands(cx: &mut Cx<'_, '_, '_>) {
    let kinds = cx.rule.operands;
    let timeout = cx.v.opcode == Op::SIGNAL
        && atomic_op(cx).is_some_and(|o| o.raw() >= AOp::WAITTIMEOUT_EQ.raw());
    for (i, &kind) in kinds.iter().enumerate().take(cx.operands.len()) {
        let Some(o) = cx.operand(i) else { continue };
        // signal waittimeout: the timeout is a u64 (PRM 6.8).
        let kind = if timeout && i == 3 {
            Opnd::Src(Ty::Fixed(BrigType::U64))
        } else {
            kind
        };
        if !operand_passes(cx, kind, &o) {
            check_operand(cx, i, kind, o);
        }
    }
    // Registers in operands beyond the table (already an error) are still
    // recorded for the limits.
    for i in kinds.len()..cx.operands.len() {
        if let Some(Operand::Register(r)) = cx.operand(i) {
            note_register(cx, r.reg_kind, r.reg_num.get());
        }
    }
}

/// The common case of [`check_operand`] without building any message: a
/// register of the right class for a register or source operand, or an
/// immediate of the right size for a source operand. Records the register
/// and returns `true` when the operand passes; `false` sends it to
/// [`check_operand`] (recording a register twice is harmless).
#[inline]
fn operand_passes(cx: &mut Cx<'_, '_, '_>, kind: Opnd, o: &Operand<'_>) -> bool {
    let (t, src) = match kind {
        Opnd::Dst(t) | Opnd::Reg(t) => (t, false),
        Opnd::Src(t) => (t, true),
        _ => return false,
    };
    match o {
        Operand::Register(r) => {
            if let Some(want) = resolve(cx, t).and_then(reg_kind_for)
                && want != r.reg_kind
            {
                return false;
            }
            note_register(cx, r.reg_kind, r.reg_num.get());
            true
        }
        Operand::ConstantBytes(c) if src => {
            let Some(t) = resolve(cx, t) else { return true };
            let len = cx.m.data_bytes(c.bytes).map_or(0, <[u8]>::len) as u32;
            len == t.byte_size().unwrap_or(0)
                && t.base_class() != BaseClass::Opaque
                && c.type_ == constant_type_for(t)
        }
        _ => false,
    }
}

fn check_operand(cx: &mut Cx<'_, '_, '_>, i: usize, kind: Opnd, o: Operand<'_>) {
    const R: &str = "PRM 4.16";
    match kind {
        Opnd::Dst(t) => check_register(cx, i, o, resolve(cx, t), true),
        Opnd::Reg(t) => check_register(cx, i, o, resolve(cx, t), false),
        Opnd::DstVec(t) => {
            let t = resolve(cx, t);
            if let Operand::OperandList(l) = o {
                let elems = cx.m.operand_list_ref(l.elements).unwrap_or_default();
                check_vector_len(cx, i, elems.len());
                let mut regs = Vec::new();
                for &e in elems {
                    if let Ok(eo) = cx.m.operand(e) {
                        if let Operand::Register(r) = eo {
                            let key = (r.reg_kind.raw(), r.reg_num.get());
                            if regs.contains(&key) {
                                cx.op_err(
                                    "PRM 4.17",
                                    i,
                                    format!(
                                        "destination vector names {} twice",
                                        reg_name(r.reg_kind, r.reg_num.get())
                                    ),
                                );
                            }
                            regs.push(key);
                        }
                        check_register(cx, i, eo, t, true);
                    }
                }
            } else {
                check_register(cx, i, o, t, true);
            }
        }
        Opnd::Src(t) => check_source(cx, i, o, resolve(cx, t), true),
        Opnd::Imm(t) => check_immediate(cx, i, o, resolve(cx, t)),
        Opnd::SrcVec(t) => {
            let t = resolve(cx, t);
            if let Operand::OperandList(l) = o {
                let elems = cx.m.operand_list_ref(l.elements).unwrap_or_default();
                check_vector_len(cx, i, elems.len());
                for &e in elems {
                    if let Ok(eo) = cx.m.operand(e) {
                        check_source(cx, i, eo, t, true);
                    }
                }
            } else {
                check_source(cx, i, o, t, true);
            }
        }
        Opnd::Address => match o {
            Operand::Address(a) => check_address(cx, i, a),
            _ => cx.op_err(R, i, format!("{} needs an address here", cx.mnemonic())),
        },
        Opnd::Label => check_code_ref(cx, i, o, &[BrigKind::DIRECTIVE_LABEL], "a label"),
        Opnd::Function => check_code_ref(cx, i, o, &[BrigKind::DIRECTIVE_FUNCTION], "a function"),
        Opnd::Signature => {
            check_code_ref(cx, i, o, &[BrigKind::DIRECTIVE_SIGNATURE], "a signature")
        }
        Opnd::Fbarrier => match o {
            Operand::Register(_) => {
                check_register(cx, i, o, Some(BrigType::U32), false);
            }
            _ => check_code_ref(cx, i, o, &[BrigKind::DIRECTIVE_FBARRIER], "an fbarrier"),
        },
        Opnd::LabelList => check_code_list(cx, i, o, BrigKind::DIRECTIVE_LABEL, "labels"),
        Opnd::FunctionList => check_code_list(cx, i, o, BrigKind::DIRECTIVE_FUNCTION, "functions"),
        Opnd::ArgList => check_code_list(cx, i, o, BrigKind::DIRECTIVE_VARIABLE, "variables"),
        Opnd::Handle => check_register(cx, i, o, Some(BrigType::B64), false),
    }
}

/// An operand that must be a constant (PRM 18.7 `number`): never a
/// register or WAVESIZE (dimNumber 11.1, exceptionsNumber 11.2, shuffle 5.9,
/// unpackcvt 5.15), and in range where the PRM gives one.
fn check_immediate(cx: &mut Cx<'_, '_, '_>, i: usize, o: Operand<'_>, t: Option<BrigType>) {
    let prm = cx.rule.prm;
    let Operand::ConstantBytes(c) = o else {
        let what = if matches!(o, Operand::Wavesize(_)) {
            "WAVESIZE is not allowed"
        } else {
            "a constant is required"
        };
        cx.op_err(prm, i, format!("{} operand {i}: {what}", cx.mnemonic()));
        return;
    };
    check_source(cx, i, o, t, true);
    let Some(max) = immediate_max(cx.v.opcode) else {
        return;
    };
    let bytes = cx.m.data_bytes(c.bytes).unwrap_or_default();
    let value = bytes
        .iter()
        .take(8)
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    if value > max {
        let msg = format!("{} operand {i} is {value}, not 0 to {max}", cx.mnemonic());
        cx.op_err(prm, i, msg);
    }
}

/// The largest value of the constant operand of `op` where the PRM bounds
/// it: unpackcvt's element (5.15), the dimension of the dispatch queries
/// (11.1). Instructions with such a value are not remembered by shape
/// ([`Shape`]), which leaves constant values out.
fn immediate_max(op: Op) -> Option<u64> {
    match op {
        Op::UNPACKCVT => Some(3),
        Op::CURRENTWORKGROUPSIZE
        | Op::GRIDGROUPS
        | Op::GRIDSIZE
        | Op::WORKGROUPID
        | Op::WORKGROUPSIZE
        | Op::WORKITEMABSID
        | Op::WORKITEMID => Some(2),
        _ => None,
    }
}

/// PRM 4.16: vector operands have 2, 3 or 4 elements.
fn check_vector_len(cx: &mut Cx<'_, '_, '_>, i: usize, n: usize) {
    if !(2..=4).contains(&n) {
        cx.op_err(
            "PRM 4.17",
            i,
            format!("a vector operand has 2 to 4 elements, found {n}"),
        );
    }
}

/// A register operand of the class of `t` (PRM 4.16.2).
fn check_register(
    cx: &mut Cx<'_, '_, '_>,
    i: usize,
    o: Operand<'_>,
    t: Option<BrigType>,
    dest: bool,
) {
    let Operand::Register(r) = o else {
        let what = if dest { "destination" } else { "operand" };
        cx.op_err("PRM 4.16", i, format!("the {what} must be a register"));
        return;
    };
    note_register(cx, r.reg_kind, r.reg_num.get());
    let Some(t) = t else { return };
    let Some(want) = reg_kind_for(t) else { return };
    if r.reg_kind != want {
        let msg = format!(
            "{} cannot hold a {} value (PRM 4.16.2 needs a ${} register)",
            reg_name(r.reg_kind, r.reg_num.get()),
            tname(t),
            ["c", "s", "d", "q"][want.raw() as usize]
        );
        cx.op_err("PRM 4.16.2", i, msg);
    }
}

/// A source operand: register, immediate of the right size, or WAVESIZE
/// (integer operands only, PRM 2.6.2).
fn check_source(cx: &mut Cx<'_, '_, '_>, i: usize, o: Operand<'_>, t: Option<BrigType>, _: bool) {
    match o {
        Operand::Register(_) => check_register(cx, i, o, t, false),
        Operand::ConstantBytes(c) => {
            let Some(t) = t else { return };
            let len = cx.m.data_bytes(c.bytes).map_or(0, <[u8]>::len) as u32;
            let want = t.byte_size().unwrap_or(0);
            if len != want {
                let msg = format!(
                    "immediate of {len} bytes does not fit type {} ({want} bytes)",
                    tname(t)
                );
                cx.op_err("PRM 4.8", i, msg);
            }
            let want_type = constant_type_for(t);
            if c.type_ != want_type && t.base_class() != BaseClass::Opaque {
                let msg = format!(
                    "an immediate where a {} value is expected has type {}, must be {}",
                    tname(t),
                    tname(c.type_),
                    tname(want_type)
                );
                cx.op_err("PRM 18.6.1", i, msg);
            }
            // PRM 4.8.3: image and sampler constants only initialize
            // variables (or are pragma operands); a signal typed constant
            // (the null handle) is an ordinary immediate of its type.
            let signal_const = matches!(t, BrigType::SIG32 | BrigType::SIG64) && c.type_ == t;
            if matches!(t.base_class(), BaseClass::Opaque) && !signal_const {
                cx.op_err(
                    "PRM 4.8",
                    i,
                    format!("an immediate cannot be used as a {} value", tname(t)),
                );
            }
        }
        Operand::Wavesize(_) => {
            if let Some(t) = t
                && (t.is_float()
                    || t.is_packed()
                    || !matches!(t.base_class(), BaseClass::U | BaseClass::S | BaseClass::B)
                    || t.byte_size().unwrap_or(0) > 8)
            {
                cx.op_err(
                    "PRM 2.6.2",
                    i,
                    format!("WAVESIZE cannot be used as a {} value", tname(t)),
                );
            }
        }
        _ => cx.op_err(
            "PRM 4.16",
            i,
            format!("{} needs a register or an immediate here", cx.mnemonic()),
        ),
    }
}

/// PRM 18.6.1: the type of a constant where a value of type `t` is
/// expected: `u8` for `b1`, `u8x16` for `b128`, the unsigned type of the
/// same size for the other bit types, `t` itself otherwise.
fn constant_type_for(t: BrigType) -> BrigType {
    match t {
        BrigType::B1 | BrigType::B8 => BrigType::U8,
        BrigType::B16 => BrigType::U16,
        BrigType::B32 => BrigType::U32,
        BrigType::B64 => BrigType::U64,
        BrigType::B128 => BrigType::U8X16,
        _ => t,
    }
}

/// A code reference of one of `kinds`.
fn check_code_ref(
    cx: &mut Cx<'_, '_, '_>,
    i: usize,
    o: Operand<'_>,
    kinds: &[BrigKind],
    what: &str,
) {
    let Operand::CodeRef(r) = o else {
        cx.op_err(
            "PRM 18.7",
            i,
            format!("{} needs {what} here", cx.mnemonic()),
        );
        return;
    };
    let k = cx.m.code(r.ref_).map(|c| c.kind()).ok();
    let ok = k.is_some_and(|k| {
        kinds.contains(&k)
            || (kinds.contains(&BrigKind::DIRECTIVE_FUNCTION)
                && k == BrigKind::DIRECTIVE_INDIRECT_FUNCTION)
    });
    if !ok {
        cx.op_err(
            "PRM 18.7",
            i,
            format!("{} needs {what} here, found {k:?}", cx.mnemonic()),
        );
    }
}

/// A list of code entries of `kind`.
fn check_code_list(cx: &mut Cx<'_, '_, '_>, i: usize, o: Operand<'_>, kind: BrigKind, what: &str) {
    let Operand::CodeList(l) = o else {
        cx.op_err(
            "PRM 18.7",
            i,
            format!("{} needs a list of {what} here", cx.mnemonic()),
        );
        return;
    };
    let list = cx.m.code_list_ref(l.elements).unwrap_or_default();
    if list.is_empty() && kind != BrigKind::DIRECTIVE_VARIABLE {
        let msg = format!("{} needs at least one of its {what}", cx.mnemonic());
        cx.op_err(cx.rule.prm, i, msg);
    }
    for &c in list {
        let k = cx.m.code(c).map(|c| c.kind()).ok();
        let ok = k == Some(kind)
            || (kind == BrigKind::DIRECTIVE_FUNCTION
                && k == Some(BrigKind::DIRECTIVE_INDIRECT_FUNCTION));
        if !ok {
            cx.op_err(
                "PRM 18.7",
                i,
                format!(
                    "{} needs a list of {what}, found {k:?} at {c}",
                    cx.mnemonic()
                ),
            );
        }
    }
}

/// PRM 4.18: address expressions — the register holds an address of the
/// segment's size (2.9), the variable is in the instruction's segment, the
/// offset fits the address size.
fn check_address(cx: &mut Cx<'_, '_, '_>, i: usize, a: &brig::BrigOperandAddress) {
    let seg = cx.v.segment;
    let bits = cx.env.address_bits(seg);
    if let Some(r) = a.reg.non_null()
        && let Ok(Operand::Register(reg)) = cx.m.operand(r)
    {
        note_register(cx, reg.reg_kind, reg.reg_num.get());
        let want = if bits == 64 {
            BrigRegisterKind::DOUBLE
        } else {
            BrigRegisterKind::SINGLE
        };
        if reg.reg_kind != want {
            let msg = format!(
                "address register {} is not {bits} bits, the {} address size in the {} model",
                reg_name(reg.reg_kind, reg.reg_num.get()),
                seg_name(seg),
                if cx.env.large() { "large" } else { "small" }
            );
            cx.op_err("PRM 2.9", i, msg);
        }
    }
    let var = match a.symbol.non_null().map(|sym| cx.m.code(sym)) {
        Some(Ok(Code::DirectiveVariable(var))) => Some(var),
        _ => None,
    };
    let var_segment = var.map(|v| v.segment);
    if var.is_none() && matches!(seg, Seg::ARG | Seg::SPILL) {
        let msg = format!(
            "an address in the {} segment must name a variable: the address of an arg or spill variable cannot be taken (no lda)",
            seg_name(seg)
        );
        cx.op_err("PRM 5.8", i, msg);
    }
    if let Some(v) = var
        && matches!(cx.v.opcode, Op::LD | Op::ST)
    {
        check_opaque_variable(cx, i, v);
    }
    if let Some(var_segment) = var_segment
        && var_segment != seg
        && cx.v.opcode != Op::LDA
    {
        let msg = format!(
            "variable in the {} segment used by an instruction of the {} segment",
            seg_name(var_segment),
            seg_name(seg)
        );
        cx.op_err("PRM 4.18", i, msg);
    }
    if let Some(var_segment) = var_segment
        && cx.v.opcode == Op::LDA
        && var_segment != seg
    {
        cx.op_err(
            "PRM 5.8",
            i,
            format!(
                "lda in the {} segment of a variable in the {} segment",
                seg_name(seg),
                seg_name(var_segment)
            ),
        );
    }
    // PRM 18.6.2: the offset of a 32-bit address (2.9) has a zero high
    // word (a negative offset is its 32-bit two's complement).
    let hi = a.offset.hi.get();
    if bits == 32 && hi != 0 {
        cx.op_err(
            "PRM 18.6.2",
            i,
            format!(
                "the offset of a 32-bit address has offset.hi {hi:#x}, must be 0 (offset {:#x})",
                a.offset.get()
            ),
        );
    }
}

/// The element type of `v` when it is opaque (image, sampler, signal);
/// `NONE` otherwise.
fn opaque_type(v: &brig::BrigDirectiveVariable) -> BrigType {
    let t = v.type_.array_element().unwrap_or(v.type_);
    if t.base_class() == BaseClass::Opaque {
        t
    } else {
        BrigType::NONE
    }
}

/// PRM 6.3, 6.4: an opaque value is loaded and stored with its own type,
/// so when the instruction type or the variable's type is opaque both are
/// the same.
fn check_opaque_variable(cx: &mut Cx<'_, '_, '_>, i: usize, v: &brig::BrigDirectiveVariable) {
    let var_ty = v.type_.array_element().unwrap_or(v.type_);
    let ty = cx.v.ty;
    let opaque = |t: BrigType| t.base_class() == BaseClass::Opaque;
    if (opaque(ty) || opaque(var_ty)) && ty != var_ty {
        let msg = format!(
            "{} of a {} variable: opaque values are accessed with their own type",
            tname(ty),
            tname(var_ty)
        );
        cx.op_err(cx.rule.prm, i, msg);
    }
}

fn seg_name(s: Seg) -> &'static str {
    match s {
        Seg::NONE => "none",
        Seg::FLAT => "flat",
        Seg::GLOBAL => "global",
        Seg::READONLY => "readonly",
        Seg::KERNARG => "kernarg",
        Seg::GROUP => "group",
        Seg::PRIVATE => "private",
        Seg::SPILL => "spill",
        Seg::ARG => "arg",
        _ => "unknown",
    }
}

fn is_float_type(t: BrigType) -> bool {
    t.is_float()
}

const FLOAT_ROUNDS: [BrigRound; 5] = [
    BrigRound::FLOAT_DEFAULT,
    BrigRound::FLOAT_NEAR_EVEN,
    BrigRound::FLOAT_ZERO,
    BrigRound::FLOAT_PLUS_INFINITY,
    BrigRound::FLOAT_MINUS_INFINITY,
];

/// Modifiers of `BrigInstMod` (PRM 4.14 packing, 4.19 rounding, 5.11 ftz).
fn check_modifiers(cx: &mut Cx<'_, '_, '_>, c: &Code<'_>) {
    let mods = cx.rule.mods;
    let ty = cx.v.ty;
    let float = is_float_type(ty);
    let is_mod = matches!(c, Code::InstMod(_));
    if is_mod {
        check_ftz(cx, float && mods != Mods::Pack);
        check_round(
            cx,
            float && matches!(mods, Mods::FloatRoundPack | Mods::FloatRoundPackSat),
        );
    }
    if mods != Mods::None {
        check_pack(cx, is_mod);
    }
}

/// `ftz` only on floating-point operations that flush (PRM 4.19.3).
fn check_ftz(cx: &mut Cx<'_, '_, '_>, allowed: bool) {
    if cx.v.ftz && !allowed {
        let msg = format!("{}_{} does not take ftz", cx.mnemonic(), tname(cx.v.ty));
        cx.err("PRM 4.19.3", msg);
    }
}

/// Floating-point rounding only on the operations that round (PRM 4.19.2).
fn check_round(cx: &mut Cx<'_, '_, '_>, float_round: bool) {
    let r = cx.v.round;
    let ok = if float_round {
        FLOAT_ROUNDS.contains(&r)
    } else {
        r == BrigRound::NONE
    };
    if !ok {
        let msg = format!(
            "{}_{} does not take rounding mode {}",
            cx.mnemonic(),
            tname(cx.v.ty),
            r.name().unwrap_or("?")
        );
        cx.err("PRM 4.19.2", msg);
    }
}

/// Packing controls (PRM 4.14): required exactly on packed types; `p`/`s`
/// for one source, `pp`/`ps`/`sp`/`ss` for two; `_sat` only on packed
/// integer add, sub, mul.
fn check_pack(cx: &mut Cx<'_, '_, '_>, is_mod: bool) {
    let ty = cx.v.ty;
    let pack = cx.v.pack;
    if !ty.is_packed() {
        if pack != BrigPack::NONE {
            let msg = format!("packing control on the unpacked type {}", tname(ty));
            cx.err("PRM 4.14", msg);
        }
        return;
    }
    if !is_mod || pack == BrigPack::NONE {
        let msg = format!("{}_{} needs a packing control", cx.mnemonic(), tname(ty));
        cx.err("PRM 4.14", msg);
        return;
    }
    let sources = cx.rule.operands.len().saturating_sub(1);
    let sat_ok = cx.rule.mods == Mods::FloatRoundPackSat && !ty.is_float();
    use BrigPack as P;
    let ok = match sources {
        1 => matches!(pack, P::P | P::S) || (sat_ok && matches!(pack, P::PSAT | P::SSAT)),
        2 => {
            matches!(pack, P::PP | P::PS | P::SP | P::SS)
                || (sat_ok && matches!(pack, P::PPSAT | P::PSSAT | P::SPSAT | P::SSSAT))
        }
        _ => matches!(pack, P::PP | P::PS | P::SP | P::SS),
    };
    if !ok {
        let msg = format!(
            "packing control {} is not allowed on {}_{}",
            pack.name().unwrap_or("?"),
            cx.mnemonic(),
            tname(ty)
        );
        cx.err("PRM 4.14", msg);
    }
}

/// Base profile (PRM 16.2.1): no f64, ftz required, only default rounding,
/// no icall.
fn check_profile(cx: &mut Cx<'_, '_, '_>) {
    if !cx.env.base() {
        return;
    }
    const R: &str = "PRM 16.2.1";
    let f64ish = |t: BrigType| t.base() == BrigType::F64;
    if f64ish(cx.v.ty) || f64ish(cx.v.src) {
        let msg = format!("the base profile does not support f64 ({})", cx.mnemonic());
        cx.err(R, msg);
    }
    if cx.v.opcode == Op::ICALL {
        cx.err(R, "the base profile does not support icall");
    }
    let float_op = match cx.rule.mods {
        Mods::FloatRoundPack | Mods::FloatRoundPackSat | Mods::FtzPack => is_float_type(cx.v.ty),
        _ => false,
    } || (matches!(cx.v.opcode, Op::CMP | Op::CVT) && is_float_type(cx.v.src));
    if float_op && !cx.v.ftz {
        let msg = format!(
            "the base profile requires ftz on floating-point {}",
            cx.mnemonic()
        );
        cx.err(R, msg);
    }
    if cx.v.opcode != Op::CVT && !matches!(cx.v.round, BrigRound::NONE | BrigRound::FLOAT_DEFAULT) {
        cx.err(R, "the base profile allows only the default rounding mode");
    }
}

/// Image instructions need `extension "IMAGE"` (PRM 7, 13.1.2).
fn check_image_extension(cx: &mut Cx<'_, '_, '_>) {
    let uses_image = rules::is_image_opcode(cx.v.opcode)
        || matches!(cx.v.ty.base(), t if rules::IMAGE.contains(t) || t == BrigType::SAMP);
    if uses_image && !cx.env.image_ext {
        let msg = format!("{} needs extension \"IMAGE\"", cx.mnemonic());
        cx.err("PRM 13.1.2", msg);
    }
}

/// Packed `cmp` (PRM 5.18): destination is the unsigned packed type of the
/// source's shape; packing `pp` (the only control Table 5-25 allows) on
/// packed sources only; ftz only on float sources.
fn check_cmp(cx: &mut Cx<'_, '_, '_>) {
    let (ty, src) = (cx.v.ty, cx.v.src);
    if src.is_packed() {
        if ty != unsigned_of(src) {
            let msg = format!(
                "packed compare of {} must write {}, not {}",
                tname(src),
                tname(unsigned_of(src)),
                tname(ty)
            );
            cx.err("PRM 5.18", msg);
        }
        if cx.v.pack != BrigPack::PP {
            cx.err(
                "PRM 5.18",
                "a packed compare takes the packing control pp only (Table 5-25)",
            );
        }
    } else {
        if ty.is_packed() {
            cx.err("PRM 5.18", "packed destination for an unpacked compare");
        }
        if cx.v.pack != BrigPack::NONE {
            cx.err("PRM 4.14", "packing control on an unpacked compare");
        }
    }
    if cx.v.ftz && !src.is_float() {
        cx.err("PRM 4.19.3", "ftz on a compare of non-float sources");
    }
    if src.base_class() == BaseClass::B
        && let Ok(Code::InstCmp(e)) = cx.m.code(cx.at)
        && !matches!(
            e.compare,
            brig::BrigCompareOperation::EQ | brig::BrigCompareOperation::NE
        )
    {
        cx.err("PRM 5.18", "bit-type sources allow only eq and ne");
    }
    if !src.is_float()
        && let Ok(Code::InstCmp(e)) = cx.m.code(cx.at)
        && e.compare.raw() > brig::BrigCompareOperation::GE.raw()
    {
        cx.err(
            "PRM 5.18",
            "unordered, signalling and num/nan compares need float sources",
        );
    }
}

/// `cvt` (PRM 5.19, Tables 5-27 to 5-30): allowed pairs and roundings.
fn check_cvt(cx: &mut Cx<'_, '_, '_>) {
    let (d, s, r) = (cx.v.ty, cx.v.src, cx.v.round);
    let int = |t: BrigType| matches!(t.base_class(), BaseClass::U | BaseClass::S);
    if int(d) && int(s) && d.bit_size() == s.bit_size() {
        cx.err(
            "PRM 5.19",
            format!(
                "cvt between same-size integers {} and {}",
                tname(d),
                tname(s)
            ),
        );
    }
    if d == s {
        cx.err("PRM 5.19", format!("cvt from {} to itself", tname(d)));
    }
    let int_round = (6..=21).contains(&r.raw());
    let float_round = FLOAT_ROUNDS.contains(&r);
    let (ok, want) = if s.is_float() && int(d) {
        (int_round, "an integer rounding")
    } else if int(s) && d.is_float() || s.is_float() && d.is_float() && d.bit_size() < s.bit_size()
    {
        (float_round, "a floating-point rounding")
    } else {
        (r == BrigRound::NONE, "no rounding")
    };
    if !ok {
        let msg = format!(
            "cvt_{}_{} takes {want}, not {}",
            tname(d),
            tname(s),
            r.name().unwrap_or("?")
        );
        cx.err("PRM 5.19.3", msg);
    }
    if cx.v.ftz && !s.is_float() {
        cx.err("PRM 5.19", "ftz on a cvt from a non-float type");
    }
    if cx.env.base() {
        let base_ok = if s.is_float() && int(d) {
            matches!(r.raw(), 7 | 11 | 15 | 19)
        } else {
            !float_round || r == BrigRound::FLOAT_DEFAULT
        };
        if !base_ok {
            let msg = format!(
                "the base profile does not allow rounding {} on cvt",
                r.name().unwrap_or("?")
            );
            cx.err("PRM 16.2.1", msg);
        }
    }
}

/// `pack` (PRM 5.10): the source type is the element type, s/u widened to
/// 32 bits for 8/16-bit elements; `unpack` the reverse.
fn check_pack_source(cx: &mut Cx<'_, '_, '_>) {
    let (packed, scalar) = match cx.v.opcode {
        Op::PACK => (cx.v.ty, cx.v.src),
        Op::UNPACK => (cx.v.src, cx.v.ty),
        _ => return,
    };
    let elem = packed.base();
    let want = match (elem.base_class(), elem.bit_size()) {
        (BaseClass::U, Some(8 | 16)) => BrigType::U32,
        (BaseClass::S, Some(8 | 16)) => BrigType::S32,
        _ => elem,
    };
    if scalar != want {
        let msg = format!(
            "{} of {} uses {}, not {}",
            cx.mnemonic(),
            tname(packed),
            tname(want),
            tname(scalar)
        );
        cx.err("PRM 5.9", msg);
    }
}

/// `combine`/`expand` (PRM 5.8): the vector operand has as many elements
/// as the wide operand holds narrow ones (b64 = 2 × b32, b128 = 4 × b32 or
/// 2 × b64), so the two types also differ in size.
fn check_combine(cx: &mut Cx<'_, '_, '_>) {
    let (wide, narrow, vector) = match cx.v.opcode {
        Op::COMBINE => (cx.v.ty, cx.v.src, 1),
        Op::EXPAND => (cx.v.src, cx.v.ty, 0),
        _ => return,
    };
    let (Some(w), Some(n)) = (wide.bit_size(), narrow.bit_size()) else {
        return;
    };
    let name = || format!("{}_{}_{}", cx.mnemonic(), tname(cx.v.ty), tname(cx.v.src));
    let want = (w / n.max(1)) as usize;
    if want < 2 {
        let msg = format!(
            "{}: the vector elements must be narrower than the {w}-bit value",
            name()
        );
        cx.err("PRM 5.8", msg);
        return;
    }
    if let Some(found) = operand_width(cx, vector)
        && found != want
    {
        let msg = format!(
            "{} needs a vector of {want} elements, found {found}",
            name()
        );
        cx.op_err("PRM 5.8", vector, msg);
    }
}

/// `ld`/`st`/`alloca` (PRM 6.3, 6.4, 10.10): segments, opaque types,
/// `const`, widths, alignment.
fn check_mem(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstMem) {
    let seg = e.segment;
    let op = cx.v.opcode;
    let allowed: &[Seg] = match op {
        Op::LD => &[
            Seg::FLAT,
            Seg::GLOBAL,
            Seg::READONLY,
            Seg::KERNARG,
            Seg::GROUP,
            Seg::PRIVATE,
            Seg::SPILL,
            Seg::ARG,
        ],
        Op::ST => &[
            Seg::FLAT,
            Seg::GLOBAL,
            Seg::GROUP,
            Seg::PRIVATE,
            Seg::SPILL,
            Seg::ARG,
        ],
        _ => &[Seg::NONE, Seg::PRIVATE],
    };
    if !allowed.contains(&seg) {
        let msg = format!(
            "{} cannot access the {} segment",
            cx.mnemonic(),
            seg_name(seg)
        );
        cx.err(cx.rule.prm, msg);
    }
    // PRM 6.4: image and sampler handles (not signal handles) are only
    // stored to the arg segment.
    let image_or_sampler = matches!(
        cx.v.ty,
        BrigType::ROIMG | BrigType::WOIMG | BrigType::RWIMG | BrigType::SAMP
    );
    if op == Op::ST && image_or_sampler && seg != Seg::ARG {
        cx.err(
            "PRM 6.4",
            "image and sampler values can only be stored to the arg segment",
        );
    }
    if e.modifier.contains(brig::BrigMemoryModifierMask::CONST)
        && (op != Op::LD || !matches!(seg, Seg::GLOBAL | Seg::READONLY | Seg::FLAT))
    {
        cx.err(
            "PRM 6.3",
            "const applies only to ld from global, readonly or flat",
        );
    }
    if e.align.bytes().is_none() && !(op == Op::ALLOCA && e.align == brig::BrigAlignment::NONE) {
        cx.err(
            "PRM 18.3.2",
            format!("bad alignment value {}", e.align.raw()),
        );
    }
    if op == Op::LD && e.width.raw() > brig::BrigWidth::ALL.raw() {
        cx.err("PRM 2.12.2", format!("bad width value {}", e.width.raw()));
    }
    // PRM 18.5.2.10: ld has a width, width(1) when none is written.
    if op == Op::LD && e.width == brig::BrigWidth::NONE {
        cx.err(
            "PRM 18.5.2.10",
            "ld has width none, must have one (width(1) by default)",
        );
    }
    if op != Op::LD && e.width != brig::BrigWidth::NONE {
        cx.err(
            "PRM 6.4",
            format!("{} has no width modifier", cx.mnemonic()),
        );
    }
}

/// Memory orders and scopes of atomics (PRM 6.6, 6.2.1, 6.2.2) and the
/// operation/type pairs.
fn check_atomic(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstAtomic) {
    let op = e.atomic_operation;
    let seg = e.segment;
    if !matches!(seg, Seg::FLAT | Seg::GLOBAL | Seg::GROUP) {
        cx.err(
            "PRM 6.6",
            format!("atomics cannot access the {} segment", seg_name(seg)),
        );
    }
    let ret = cx.v.opcode == Op::ATOMIC;
    let op_ok = match op {
        AOp::LD => ret,
        AOp::ST => !ret,
        AOp::ADD
        | AOp::AND
        | AOp::MAX
        | AOp::MIN
        | AOp::OR
        | AOp::SUB
        | AOp::WRAPDEC
        | AOp::WRAPINC
        | AOp::XOR => true,
        // PRM 6.6.2: exch and cas have no atomicnoret form.
        AOp::EXCH | AOp::CAS => ret,
        _ => false,
    };
    if !op_ok {
        let msg = format!(
            "{} does not take operation {}",
            cx.mnemonic(),
            op.name().unwrap_or("?")
        );
        cx.err(cx.rule.prm, msg);
    }
    check_operation_type(cx, op);
    check_order(cx, e.memory_order, op);
    let scope = e.memory_scope;
    let scope_ok = if seg == Seg::GROUP {
        matches!(scope, Scope::WAVEFRONT | Scope::WORKGROUP)
    } else {
        matches!(
            scope,
            Scope::WAVEFRONT | Scope::WORKGROUP | Scope::AGENT | Scope::SYSTEM
        )
    };
    if !scope_ok {
        let msg = format!(
            "memory scope {} is not allowed for atomics in the {} segment",
            scope.name().unwrap_or("?"),
            seg_name(seg)
        );
        cx.err("PRM 6.2.2", msg);
    }
    if !cx.env.large() && cx.v.ty.bit_size() == Some(64) {
        cx.err("PRM 2.9", "the small machine model has no 64-bit atomics");
    }
}

/// Memory order allowed for the operation (PRM 6.2.1): loads acquire,
/// stores release, read-modify-writes any.
fn check_order(cx: &mut Cx<'_, '_, '_>, order: Ord, op: AOp) {
    let ok = match op {
        AOp::LD => matches!(order, Ord::RELAXED | Ord::SC_ACQUIRE),
        AOp::ST => matches!(order, Ord::RELAXED | Ord::SC_RELEASE),
        o if o.raw() >= AOp::WAIT_EQ.raw() => matches!(order, Ord::RELAXED | Ord::SC_ACQUIRE),
        _ => matches!(
            order,
            Ord::RELAXED | Ord::SC_ACQUIRE | Ord::SC_RELEASE | Ord::SC_ACQUIRE_RELEASE
        ),
    };
    if !ok {
        let msg = format!(
            "memory order {} is not allowed for {} {}",
            order.name().unwrap_or("?"),
            cx.mnemonic(),
            op.name().unwrap_or("?")
        );
        cx.err("PRM 6.2.1", msg);
    }
}

/// Signals (PRM 6.8): operations per form, signal type per machine model,
/// value type size, memory order.
/// The type class an atomic (PRM 6.6) or signal (6.8) operation takes:
/// `b` for ld, st, and, or, xor, exch, cas; `u`/`s` for add, sub, max,
/// min; `u` for wrapinc, wrapdec; `s` for the signal waits.
fn check_operation_type(cx: &mut Cx<'_, '_, '_>, op: AOp) {
    let class = cx.v.ty.base_class();
    let type_ok = match op {
        AOp::AND | AOp::OR | AOp::XOR | AOp::EXCH | AOp::CAS | AOp::LD | AOp::ST => {
            class == BaseClass::B
        }
        AOp::ADD | AOp::SUB | AOp::MAX | AOp::MIN => matches!(class, BaseClass::U | BaseClass::S),
        AOp::WRAPINC | AOp::WRAPDEC => class == BaseClass::U,
        o if o.raw() >= AOp::WAIT_EQ.raw() && o.raw() <= AOp::WAITTIMEOUT_GTE.raw() => {
            class == BaseClass::S
        }
        _ => true,
    };
    if !type_ok {
        let msg = format!(
            "{}_{} does not take type {}",
            cx.mnemonic(),
            crate::ops::names::atomic::text(op).unwrap_or("?"),
            tname(cx.v.ty)
        );
        cx.err(cx.rule.prm, msg);
    }
}

fn check_signal(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstSignal) {
    let op = e.signal_operation;
    check_operation_type(cx, op);
    let ret = cx.v.opcode == Op::SIGNAL;
    let op_ok = match op {
        AOp::LD | AOp::EXCH | AOp::CAS => ret,
        AOp::ST => !ret,
        AOp::AND | AOp::OR | AOp::XOR | AOp::ADD | AOp::SUB => true,
        o => ret && o.raw() >= AOp::WAIT_EQ.raw() && o.raw() <= AOp::WAITTIMEOUT_GTE.raw(),
    };
    if !op_ok {
        let msg = format!(
            "{} does not take operation {}",
            cx.mnemonic(),
            op.name().unwrap_or("?")
        );
        cx.err("PRM 6.8", msg);
    }
    let want_sig = if cx.env.large() {
        BrigType::SIG64
    } else {
        BrigType::SIG32
    };
    if e.signal_type != want_sig {
        let msg = format!(
            "the {} model uses {} signals, not {}",
            if cx.env.large() { "large" } else { "small" },
            tname(want_sig),
            tname(e.signal_type)
        );
        cx.err("PRM 2.9", msg);
    }
    let bits = if cx.env.large() { 64 } else { 32 };
    if cx.v.ty.bit_size() != Some(bits) {
        let msg = format!(
            "signal values are {bits} bits in this model, not {}",
            tname(cx.v.ty)
        );
        cx.err("PRM 6.8", msg);
    }
    let class = cx.v.ty.base_class();
    let type_ok = match op {
        AOp::AND | AOp::OR | AOp::XOR | AOp::EXCH | AOp::CAS => class == BaseClass::B,
        AOp::ADD | AOp::SUB => matches!(class, BaseClass::U | BaseClass::S),
        AOp::LD | AOp::ST => matches!(class, BaseClass::U | BaseClass::S | BaseClass::B),
        _ => class == BaseClass::S,
    };
    if !type_ok {
        let msg = format!(
            "signal {} does not take type {}",
            op.name().unwrap_or("?"),
            tname(cx.v.ty)
        );
        cx.err("PRM 6.8", msg);
    }
    check_order(cx, e.memory_order, op);
}

/// `memfence` (PRM 6.9): an acquire and/or release order; group scope at
/// most work-group.
fn check_memfence(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstMemFence) {
    if !matches!(
        e.memory_order,
        Ord::SC_ACQUIRE | Ord::SC_RELEASE | Ord::SC_ACQUIRE_RELEASE
    ) {
        cx.err("PRM 6.9", "memfence needs scacq, screl or scar");
    }
    if !matches!(
        e.global_segment_memory_scope,
        Scope::WAVEFRONT | Scope::WORKGROUP | Scope::AGENT | Scope::SYSTEM
    ) {
        cx.err("PRM 6.2.2", "bad global memory scope on memfence");
    }
    // PRM 18.5.2.11: the group segment scope is the global one; the image
    // segment is not synchronized (none).
    if e.group_segment_memory_scope != e.global_segment_memory_scope {
        let msg = format!(
            "memfence groupSegmentMemoryScope is {}, must equal globalSegmentMemoryScope ({})",
            e.group_segment_memory_scope.raw(),
            e.global_segment_memory_scope.raw()
        );
        cx.err("PRM 18.5.2.11", msg);
    }
    if e.image_segment_memory_scope != Scope::NONE {
        let msg = format!(
            "memfence imageSegmentMemoryScope is {}, must be 0 (none)",
            e.image_segment_memory_scope.raw()
        );
        cx.err("PRM 18.5.2.11", msg);
    }
}

/// Queue instructions (PRM 11.3): flat or global, order per access.
fn check_queue(cx: &mut Cx<'_, '_, '_>, order: Ord) {
    if !matches!(cx.v.segment, Seg::FLAT | Seg::GLOBAL) {
        cx.err(
            "PRM 11.3",
            "queue instructions access the flat or global segment",
        );
    }
    let op = match cx.v.opcode {
        Op::LDQUEUEREADINDEX | Op::LDQUEUEWRITEINDEX => AOp::LD,
        Op::STQUEUEREADINDEX | Op::STQUEUEWRITEINDEX => AOp::ST,
        _ => AOp::ADD,
    };
    check_order(cx, order, op);
}

/// `lda` (PRM 5.8): flat, global, group, private, kernarg or readonly;
/// the result is an address of the segment's size.
fn check_lda(cx: &mut Cx<'_, '_, '_>) {
    let seg = cx.v.segment;
    if !matches!(
        seg,
        Seg::FLAT | Seg::GLOBAL | Seg::GROUP | Seg::PRIVATE | Seg::KERNARG | Seg::READONLY
    ) {
        cx.err(
            "PRM 5.8",
            format!("lda cannot take the {} segment", seg_name(seg)),
        );
    }
    check_address_type(cx, seg);
}

/// `nullptr` (PRM 11.4): flat (no segment), group, private or kernarg —
/// global and readonly share the flat null value, arg and spill have none;
/// the type is the segment's address size.
fn check_nullptr(cx: &mut Cx<'_, '_, '_>) {
    let seg = cx.v.segment;
    if !matches!(seg, Seg::FLAT | Seg::GROUP | Seg::PRIVATE | Seg::KERNARG) {
        let msg = format!(
            "nullptr cannot take the {} segment (flat, group, private or kernarg)",
            seg_name(seg)
        );
        cx.err("PRM 11.4", msg);
    }
    check_address_type(cx, seg);
}

fn check_address_type(cx: &mut Cx<'_, '_, '_>, seg: Seg) {
    let bits = cx.env.address_bits(seg);
    if cx.v.ty.bit_size() != Some(bits) {
        let msg = format!(
            "{} addresses are {bits} bits in this machine model, not {}",
            seg_name(seg),
            tname(cx.v.ty)
        );
        cx.err("PRM 2.9", msg);
    }
}

/// `segmentp`, `ftos`, `stof` (PRM 5.16, 5.17): segments and address sizes.
fn check_segcvt(cx: &mut Cx<'_, '_, '_>) {
    let seg = cx.v.segment;
    let op = cx.v.opcode;
    let seg_ok = match op {
        Op::SEGMENTP => matches!(seg, Seg::GLOBAL | Seg::GROUP | Seg::PRIVATE),
        _ => matches!(seg, Seg::GROUP | Seg::PRIVATE),
    };
    if !seg_ok {
        let msg = format!(
            "{} cannot take the {} segment",
            cx.mnemonic(),
            seg_name(seg)
        );
        cx.err(cx.rule.prm, msg);
    }
    let flat = cx.env.address_bits(Seg::FLAT);
    let segb = cx.env.address_bits(seg);
    let (dbits, sbits) = match op {
        Op::FTOS => (Some(segb), flat),
        Op::STOF => (Some(flat), segb),
        _ => (None, flat),
    };
    if let Some(d) = dbits
        && cx.v.ty.bit_size() != Some(d)
    {
        let msg = format!("{} must produce a {d}-bit address here", cx.mnemonic());
        cx.err("PRM 2.9", msg);
    }
    if cx.v.src.bit_size() != Some(sbits) {
        let msg = format!("{} must take a {sbits}-bit address here", cx.mnemonic());
        cx.err("PRM 2.9", msg);
    }
}

/// Number of coordinates of an image geometry (PRM 7.1.3).
fn coordinates(g: brig::BrigImageGeometry) -> Option<usize> {
    use brig::BrigImageGeometry as G;
    Some(match g {
        G::_1D | G::_1DB => 1,
        G::_2D | G::_2DDEPTH | G::_1DA => 2,
        G::_3D | G::_2DA | G::_2DADEPTH => 3,
        _ => return None,
    })
}

/// How many elements operand `i` has (1 for a non-vector operand).
fn operand_width(cx: &Cx<'_, '_, '_>, i: usize) -> Option<usize> {
    Some(match cx.operand(i)? {
        Operand::OperandList(l) => cx.m.operand_list(l.elements).map_or(0, |v| v.len()),
        _ => 1,
    })
}

/// `rdimage`, `ldimage`, `stimage` (PRM 7.2–7.4): image and coordinate
/// types per instruction, geometry, number of coordinates and components.
fn check_image(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstImage) {
    use brig::BrigImageGeometry as G;
    let prm = cx.rule.prm;
    let (images, coords): (&[BrigType], &[BrigType]) = match cx.v.opcode {
        Op::RDIMAGE => (&[BrigType::ROIMG], &[BrigType::S32, BrigType::F32]),
        Op::LDIMAGE => (&[BrigType::ROIMG, BrigType::RWIMG], &[BrigType::U32]),
        _ => (&[BrigType::WOIMG, BrigType::RWIMG], &[BrigType::U32]),
    };
    if !images.contains(&e.image_type) {
        let msg = format!(
            "{} does not take image type {}",
            cx.mnemonic(),
            tname(e.image_type)
        );
        cx.err(prm, msg);
    }
    if !coords.contains(&e.coord_type) {
        let msg = format!(
            "{} does not take coordinate type {}",
            cx.mnemonic(),
            tname(e.coord_type)
        );
        cx.err(prm, msg);
    }
    let Some(n) = coordinates(e.geometry) else {
        cx.err(
            "PRM 7.1.3",
            format!("unknown image geometry {}", e.geometry.raw()),
        );
        return;
    };
    if cx.v.opcode == Op::RDIMAGE && e.geometry == G::_1DB {
        cx.err(prm, "rdimage does not take the 1db geometry");
    }
    let coord_at = cx.operands.len().saturating_sub(1);
    if let Some(w) = operand_width(cx, coord_at)
        && w != n
    {
        let msg = format!("geometry needs {n} coordinates, found {w}");
        cx.op_err(prm, coord_at, msg);
    }
    let depth = matches!(e.geometry, G::_2DDEPTH | G::_2DADEPTH);
    let want = if depth { 1 } else { 4 };
    if let Some(w) = operand_width(cx, 0)
        && w != want
    {
        let msg = format!("this geometry reads or writes {want} components, found {w}");
        cx.op_err(prm, 0, msg);
    }
}

/// `queryimage` (PRM 7.5): the property must exist for the geometry.
fn check_queryimage(cx: &mut Cx<'_, '_, '_>, e: &brig::BrigInstQueryImage) {
    use brig::{BrigImageGeometry as G, BrigImageQuery as Q};
    if !rules::IMAGE.contains(e.image_type) {
        let msg = format!(
            "queryimage does not take image type {}",
            tname(e.image_type)
        );
        cx.err("PRM 7.5", msg);
    }
    if coordinates(e.geometry).is_none() {
        cx.err(
            "PRM 7.1.3",
            format!("unknown image geometry {}", e.geometry.raw()),
        );
        return;
    }
    let ok = match e.query {
        Q::WIDTH | Q::CHANNELORDER | Q::CHANNELTYPE => true,
        Q::HEIGHT => matches!(
            e.geometry,
            G::_2D | G::_3D | G::_2DA | G::_2DDEPTH | G::_2DADEPTH
        ),
        Q::DEPTH => e.geometry == G::_3D,
        Q::ARRAY => matches!(e.geometry, G::_1DA | G::_2DA | G::_2DADEPTH),
        _ => false,
    };
    if !ok {
        cx.err(
            "PRM 7.5",
            "the queried property does not exist for this image geometry",
        );
    }
}

/// Width modifiers (PRM 2.12.2): a power of two, `wavesize` or `all`.
fn check_width(cx: &mut Cx<'_, '_, '_>, w: brig::BrigWidth) {
    if w.raw() > brig::BrigWidth::ALL.raw() {
        cx.err("PRM 2.12.2", format!("bad width value {}", w.raw()));
    }
    // PRM 18.3 (BrigInstBr): instructions without a width modifier
    // (br, call: PRM 8.1, 10.1) carry BRIG_WIDTH_ALL.
    if matches!(cx.v.opcode, Op::BR | Op::CALL) && w != brig::BrigWidth::ALL {
        let msg = format!("{} has no width modifier", cx.mnemonic());
        let prm = if cx.v.opcode == Op::CALL {
            "PRM 10.6"
        } else {
            "PRM 8.1"
        };
        cx.err(prm, msg);
    }
    // PRM 9.1 (18.7.5: BRIG_WIDTH_WAVESIZE): wavebarrier has no width.
    if cx.v.opcode == Op::WAVEBARRIER && w != brig::BrigWidth::WAVESIZE {
        cx.err("PRM 9.1", "wavebarrier has no width modifier");
    }
}

/// PRM 10.8.1, 11.4: the type of icall (an indirect function code handle)
/// and of kernargbaseptr (a kernarg address) is the address size of the
/// machine model (Table 2-3).
fn check_model_sized(cx: &mut Cx<'_, '_, '_>) {
    let prm = match cx.v.opcode {
        Op::ICALL => "PRM 10.8",
        Op::KERNARGBASEPTR => "PRM 11.4",
        _ => return,
    };
    let (model, want) = if cx.env.large() {
        ("large", BrigType::U64)
    } else {
        ("small", BrigType::U32)
    };
    if cx.v.ty != want {
        let msg = format!(
            "{} in the {model} model takes {}, not {}",
            cx.mnemonic(),
            tname(want),
            tname(cx.v.ty)
        );
        cx.err(prm, msg);
    }
}

/// PRM 9.4: `activelanemask_v4` writes a vector of four `d` registers.
fn check_lane_mask(cx: &mut Cx<'_, '_, '_>) {
    if cx.v.opcode != Op::ACTIVELANEMASK {
        return;
    }
    let four = match cx.operand(0) {
        Some(Operand::OperandList(l)) => {
            cx.m.operand_list_ref(l.elements).map_or(0, <[_]>::len) == 4
        }
        _ => false,
    };
    if !four {
        cx.op_err(
            "PRM 9.4",
            0,
            "activelanemask writes a vector of 4 registers (_v4)",
        );
    }
}

/// PRM 9.2 (ch. 19 `ldf ... nonRegisterIdentifier`): ldf names an
/// fbarrier; a register holding an fbarrier address is not allowed.
fn check_ldf(cx: &mut Cx<'_, '_, '_>) {
    if let Some(Operand::Register(_)) = cx.operand(1) {
        cx.op_err(
            "PRM 9.2",
            1,
            "ldf takes the name of an fbarrier, not a register",
        );
    }
}

/// PRM 4.13.3 (Table 4-4), 2.9: sig64 does not exist in the small model
/// and sig32 not in the large one, for instructions and variables alike;
/// icall's code handle has the model's size (10.8.1).
fn check_signal_model(cx: &mut Cx<'_, '_, '_>) {
    let bad = if cx.env.large() {
        BrigType::SIG32
    } else {
        BrigType::SIG64
    };
    if cx.v.opcode != Op::SIGNAL
        && cx.v.opcode != Op::SIGNALNORET
        && (cx.v.ty == bad || cx.v.src == bad)
    {
        let model = if cx.env.large() { "large" } else { "small" };
        cx.err(
            "PRM 2.9",
            format!("the {model} model has no {} type", tname(bad)),
        );
    }
    // PRM 10.8.1, Table 2-3: icall's length is the size of an indirect
    // function code handle, 32 bits in the small model and 64 in the large.
    let handle = if cx.env.large() {
        BrigType::U64
    } else {
        BrigType::U32
    };
    if cx.v.opcode == Op::ICALL && cx.v.ty != handle {
        let msg = format!(
            "icall takes a {}-bit indirect function code handle in this machine model",
            if cx.env.large() { 64 } else { 32 }
        );
        cx.err("PRM 10.8", msg);
    }
}
