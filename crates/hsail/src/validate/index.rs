//! Constant-time access to the entries of a [`BrigModule`].
//!
//! `BrigModule`'s accessors find an entry by binary search over the entry
//! starts of its section on every call; the validator resolves tens of
//! offsets per instruction, so it first decodes every entry of the three
//! standard sections once and keeps a direct-mapped table from offset / 4
//! (BRIG entries are 4-byte aligned) to the decoded entry. The accessors
//! mirror `BrigModule`'s names and return the same [`BrigError`]s.

use brig::{
    BrigBase, BrigEntry, BrigError, BrigModule, BrigSectionIndex, Code, CodeOffset, DataOffset,
    Operand, OperandOffset,
};

/// A fast non-cryptographic hasher (the multiply-rotate scheme of rustc's
/// FxHasher) for the validator's sets of offsets and names.
#[derive(Clone, Copy, Default, Debug)]
pub struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl core::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `BuildHasher` of [`FxHasher`].
pub type FxBuild = core::hash::BuildHasherDefault<FxHasher>;
/// A `HashSet` with [`FxHasher`].
pub type FastSet<T> = std::collections::HashSet<T, FxBuild>;
/// A `HashMap` with [`FxHasher`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, FxBuild>;

/// No instruction has more operands than this (PRM 18.7: at most 5).
pub const MAX_INST_OPERANDS: usize = 6;

/// The operands of one instruction, offsets and decoded entries, inline.
#[derive(Clone, Copy, Debug, Default)]
pub struct InstOperands<'a> {
    offsets: [OperandOffset; MAX_INST_OPERANDS],
    entries: [Option<Operand<'a>>; MAX_INST_OPERANDS],
    len: usize,
}

impl<'a> InstOperands<'a> {
    /// Number of operands.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The offsets of the operands.
    pub fn offsets(&self) -> &[OperandOffset] {
        &self.offsets[..self.len]
    }

    /// Operand `i`.
    pub fn get(&self, i: usize) -> Option<Operand<'a>> {
        if i < self.len {
            self.entries.get(i).copied().flatten()
        } else {
            None
        }
    }

    /// The decoded operands in order.
    pub fn iter(&self) -> impl Iterator<Item = Operand<'a>> + '_ {
        self.entries[..self.len].iter().filter_map(|o| *o)
    }
}

/// Decoded entries and offset tables of one module.
#[derive(Debug)]
pub struct Index<'a> {
    code: Vec<(CodeOffset, Code<'a>)>,
    code_at: Vec<u32>,
    code_end: CodeOffset,
    ops: Vec<(OperandOffset, Operand<'a>)>,
    op_at: Vec<u32>,
    data: Vec<&'a [u8]>,
    data_at: Vec<u32>,
}

/// `table[offset / 4] = ordinal + 1` for every entry start.
fn table(len: usize, offsets: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut t = vec![0u32; len / 4 + 1];
    for (i, o) in offsets.enumerate() {
        if let Some(slot) = t.get_mut(o as usize / 4)
            && o.is_multiple_of(4)
        {
            *slot = i as u32 + 1;
        }
    }
    t
}

fn lookup(t: &[u32], offset: u32) -> Option<usize> {
    if offset == 0 || !offset.is_multiple_of(4) {
        return None;
    }
    match t.get(offset as usize / 4) {
        Some(&n) if n != 0 => Some(n as usize - 1),
        _ => None,
    }
}

const DATA: BrigSectionIndex = BrigSectionIndex::DATA;
const CODE: BrigSectionIndex = BrigSectionIndex::CODE;
const OPERAND: BrigSectionIndex = BrigSectionIndex::OPERAND;

/// A view of `bytes` as entry `T` (the entry's `byte_count` was checked
/// to cover `T` by `BrigModule::parse`).
fn view<T: BrigEntry>(bytes: &[u8]) -> Option<&T> {
    T::ref_from_prefix(bytes).ok().map(|(r, _)| r)
}

/// Decodes an `hsa_code` entry (as `BrigModule::code` does, without
/// looking its offset up again).
fn decode_code(bytes: &[u8]) -> Option<Code<'_>> {
    use brig::BrigKind as K;
    let base: &BrigBase = &view::<brig::BrigDirectiveNone>(bytes)?.base;
    Some(match base.kind {
        K::NONE => Code::DirectiveNone(view(bytes)?),
        K::DIRECTIVE_ARG_BLOCK_END => Code::DirectiveArgBlockEnd(view(bytes)?),
        K::DIRECTIVE_ARG_BLOCK_START => Code::DirectiveArgBlockStart(view(bytes)?),
        K::DIRECTIVE_COMMENT => Code::DirectiveComment(view(bytes)?),
        K::DIRECTIVE_CONTROL => Code::DirectiveControl(view(bytes)?),
        K::DIRECTIVE_EXTENSION => Code::DirectiveExtension(view(bytes)?),
        K::DIRECTIVE_FBARRIER => Code::DirectiveFbarrier(view(bytes)?),
        K::DIRECTIVE_FUNCTION => Code::DirectiveFunction(view(bytes)?),
        K::DIRECTIVE_INDIRECT_FUNCTION => Code::DirectiveIndirectFunction(view(bytes)?),
        K::DIRECTIVE_KERNEL => Code::DirectiveKernel(view(bytes)?),
        K::DIRECTIVE_LABEL => Code::DirectiveLabel(view(bytes)?),
        K::DIRECTIVE_LOC => Code::DirectiveLoc(view(bytes)?),
        K::DIRECTIVE_MODULE => Code::DirectiveModule(view(bytes)?),
        K::DIRECTIVE_PRAGMA => Code::DirectivePragma(view(bytes)?),
        K::DIRECTIVE_SIGNATURE => Code::DirectiveSignature(view(bytes)?),
        K::DIRECTIVE_VARIABLE => Code::DirectiveVariable(view(bytes)?),
        K::INST_ADDR => Code::InstAddr(view(bytes)?),
        K::INST_ATOMIC => Code::InstAtomic(view(bytes)?),
        K::INST_BASIC => Code::InstBasic(view(bytes)?),
        K::INST_BR => Code::InstBr(view(bytes)?),
        K::INST_CMP => Code::InstCmp(view(bytes)?),
        K::INST_CVT => Code::InstCvt(view(bytes)?),
        K::INST_IMAGE => Code::InstImage(view(bytes)?),
        K::INST_LANE => Code::InstLane(view(bytes)?),
        K::INST_MEM => Code::InstMem(view(bytes)?),
        K::INST_MEM_FENCE => Code::InstMemFence(view(bytes)?),
        K::INST_MOD => Code::InstMod(view(bytes)?),
        K::INST_QUERY_IMAGE => Code::InstQueryImage(view(bytes)?),
        K::INST_QUERY_SAMPLER => Code::InstQuerySampler(view(bytes)?),
        K::INST_QUEUE => Code::InstQueue(view(bytes)?),
        K::INST_SEG => Code::InstSeg(view(bytes)?),
        K::INST_SEG_CVT => Code::InstSegCvt(view(bytes)?),
        K::INST_SIGNAL => Code::InstSignal(view(bytes)?),
        K::INST_SOURCE_TYPE => Code::InstSourceType(view(bytes)?),
        _ => Code::Unknown(base),
    })
}

/// Decodes an `hsa_operand` entry.
fn decode_operand(bytes: &[u8]) -> Option<Operand<'_>> {
    use brig::BrigKind as K;
    let base: &BrigBase = &view::<brig::BrigDirectiveNone>(bytes)?.base;
    Some(match base.kind {
        K::OPERAND_ADDRESS => Operand::Address(view(bytes)?),
        K::OPERAND_ALIGN => Operand::Align(view(bytes)?),
        K::OPERAND_CODE_LIST => Operand::CodeList(view(bytes)?),
        K::OPERAND_CODE_REF => Operand::CodeRef(view(bytes)?),
        K::OPERAND_CONSTANT_BYTES => Operand::ConstantBytes(view(bytes)?),
        K::OPERAND_CONSTANT_IMAGE => Operand::ConstantImage(view(bytes)?),
        K::OPERAND_CONSTANT_OPERAND_LIST => Operand::ConstantOperandList(view(bytes)?),
        K::OPERAND_CONSTANT_SAMPLER => Operand::ConstantSampler(view(bytes)?),
        K::OPERAND_OPERAND_LIST => Operand::OperandList(view(bytes)?),
        K::OPERAND_REGISTER => Operand::Register(view(bytes)?),
        K::OPERAND_STRING => Operand::String(view(bytes)?),
        K::OPERAND_WAVESIZE => Operand::Wavesize(view(bytes)?),
        _ => Operand::Unknown(base),
    })
}

/// The bytes of the entry at `offset` of a code or operand section
/// (`byte_count` of them).
fn entry_at(sec: &[u8], offset: u32) -> Option<&[u8]> {
    let at = offset as usize;
    let bc = u16::from_le_bytes([*sec.get(at)?, *sec.get(at + 1)?]) as usize;
    sec.get(at..at.checked_add(bc)?)
}

impl<'a> Index<'a> {
    /// Decodes every entry of a module `BrigModule::parse` accepted. An
    /// entry too small for its kind is left out (references to it then
    /// fail) and returned as an error.
    pub fn new(m: &BrigModule<'a>) -> (Self, Vec<BrigError>) {
        let mut errors = Vec::new();
        let bytes = |s: BrigSectionIndex| m.section(s).map_or(&[][..], |s| s.bytes);
        let (code_sec, op_sec, data_sec) = (bytes(CODE), bytes(OPERAND), bytes(DATA));
        let mut code = Vec::new();
        for o in m.code_offsets() {
            match entry_at(code_sec, o.get()).and_then(decode_code) {
                Some(c) => code.push((o, c)),
                None => errors.push(BrigError::in_section(
                    CODE,
                    u64::from(o.get()),
                    "entry too small for its kind",
                )),
            }
        }
        let mut ops = Vec::new();
        for o in m.operand_offsets() {
            match entry_at(op_sec, o.get()).and_then(decode_operand) {
                Some(x) => ops.push((o, x)),
                None => errors.push(BrigError::in_section(
                    OPERAND,
                    u64::from(o.get()),
                    "entry too small for its kind",
                )),
            }
        }
        // hsa_data: a u32 byte count, the bytes, padding to 4 (PRM 18.4).
        let mut data_offsets = Vec::new();
        let mut data = Vec::new();
        let mut at = m.section(DATA).map_or(0, |s| s.first_entry() as usize);
        while let Some(len) = data_sec
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        {
            let Some(b) = data_sec.get(at + 4..at + 4 + len) else {
                break;
            };
            data_offsets.push(at as u32);
            data.push(b);
            at += 4 + len.div_ceil(4) * 4;
        }
        let len = |s: BrigSectionIndex| m.section(s).map_or(0, |s| s.bytes.len());
        let index = Self {
            code_at: table(len(CODE), code.iter().map(|(o, _)| o.get())),
            code,
            code_end: m.code_end(),
            op_at: table(len(OPERAND), ops.iter().map(|(o, _)| o.get())),
            ops,
            data_at: table(len(DATA), data_offsets.into_iter()),
            data,
        };
        (index, errors)
    }

    fn missing(section: BrigSectionIndex, offset: u32, what: &str) -> BrigError {
        BrigError::in_section(
            section,
            u64::from(offset),
            if offset == 0 {
                format!("null {what} reference")
            } else {
                format!("{what} reference does not point at the start of an entry")
            },
        )
    }

    /// Every code entry in file order.
    pub fn code_entries(&self) -> &[(CodeOffset, Code<'a>)] {
        &self.code
    }

    /// Every operand entry in file order.
    pub fn operand_entries(&self) -> &[(OperandOffset, Operand<'a>)] {
        &self.ops
    }

    /// The ordinal of the code entry at `offset` in [`Self::code_entries`].
    pub fn code_ordinal(&self, offset: CodeOffset) -> Option<usize> {
        lookup(&self.code_at, offset.get())
    }

    /// The code entry at `offset`.
    pub fn code(&self, offset: CodeOffset) -> Result<Code<'a>, BrigError> {
        lookup(&self.code_at, offset.get())
            .and_then(|i| self.code.get(i))
            .map(|&(_, c)| c)
            .ok_or_else(|| Self::missing(CODE, offset.get(), "hsa_code"))
    }

    /// The operand entry at `offset`.
    pub fn operand(&self, offset: OperandOffset) -> Result<Operand<'a>, BrigError> {
        lookup(&self.op_at, offset.get())
            .and_then(|i| self.ops.get(i))
            .map(|&(_, o)| o)
            .ok_or_else(|| Self::missing(OPERAND, offset.get(), "hsa_operand"))
    }

    /// Whether `offset` starts an operand entry.
    pub fn is_operand_entry(&self, offset: OperandOffset) -> bool {
        lookup(&self.op_at, offset.get()).is_some()
    }

    /// Whether `offset` starts a code entry.
    pub fn is_code_entry(&self, offset: CodeOffset) -> bool {
        lookup(&self.code_at, offset.get()).is_some()
    }

    /// One past the last code entry.
    pub fn code_end(&self) -> CodeOffset {
        self.code_end
    }

    /// The code entry after the one at `offset` (or the section end).
    pub fn next_code(&self, offset: CodeOffset) -> Result<CodeOffset, BrigError> {
        let i = lookup(&self.code_at, offset.get())
            .ok_or_else(|| Self::missing(CODE, offset.get(), "hsa_code"))?;
        Ok(self.code.get(i + 1).map_or(self.code_end, |&(o, _)| o))
    }

    /// The bytes of the data entry at `offset`.
    pub fn data_bytes(&self, offset: DataOffset) -> Result<&'a [u8], BrigError> {
        lookup(&self.data_at, offset.get())
            .and_then(|i| self.data.get(i))
            .copied()
            .ok_or_else(|| Self::missing(DATA, offset.get(), "hsa_data"))
    }

    /// The data entry at `offset` as UTF-8 text.
    pub fn string(&self, offset: DataOffset) -> Result<&'a str, BrigError> {
        let b = self.data_bytes(offset)?;
        core::str::from_utf8(b).map_err(|e| {
            BrigError::in_section(
                DATA,
                u64::from(offset.get()),
                format!("string is not UTF-8 ({e})"),
            )
        })
    }

    /// The raw little-endian `u32` elements of a list in `hsa_data`.
    fn u32_list(&self, offset: DataOffset) -> Result<&'a [u8], BrigError> {
        if offset.is_none() {
            return Ok(&[]);
        }
        let b = self.data_bytes(offset)?;
        if b.len() % 4 != 0 {
            return Err(BrigError::in_section(
                DATA,
                u64::from(offset.get()),
                format!("offset list of {} bytes is not a multiple of 4", b.len()),
            ));
        }
        Ok(b)
    }

    /// The raw elements of an offset list, without checking them.
    pub fn raw_list(
        &self,
        offset: DataOffset,
    ) -> Result<impl Iterator<Item = u32> + 'a, BrigError> {
        let b = self.u32_list(offset)?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
    }

    /// The operands of an instruction, without allocating: at most
    /// [`MAX_INST_OPERANDS`], each an operand entry start.
    pub fn inst_operands(&self, offset: DataOffset) -> Result<InstOperands<'a>, BrigError> {
        let mut out = InstOperands::default();
        self.fill_inst_operands(offset, &mut out)?;
        Ok(out)
    }

    /// [`Self::inst_operands`] into `out` (cleared first), without moving
    /// the array around.
    pub fn fill_inst_operands(
        &self,
        offset: DataOffset,
        out: &mut InstOperands<'a>,
    ) -> Result<(), BrigError> {
        out.len = 0;
        for (i, o) in self.raw_list(offset)?.enumerate() {
            let Some(k) = lookup(&self.op_at, o) else {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!("operand list element {i} ({o:#x}) is not an hsa_operand entry"),
                ));
            };
            if i >= MAX_INST_OPERANDS {
                out.len = 0;
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()),
                    format!("an instruction has more than {MAX_INST_OPERANDS} operands"),
                ));
            }
            out.offsets[i] = OperandOffset::new(o);
            out.entries[i] = self.ops.get(k).map(|&(_, e)| e);
            out.len = i + 1;
        }
        Ok(())
    }

    /// An operand list; every element must start an operand entry.
    pub fn operand_list(&self, offset: DataOffset) -> Result<Vec<OperandOffset>, BrigError> {
        let b = self.u32_list(offset)?;
        let mut out = Vec::with_capacity(b.len() / 4);
        for (i, c) in b.chunks_exact(4).enumerate() {
            let o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if lookup(&self.op_at, o).is_none() {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!("operand list element {i} ({o:#x}) is not an hsa_operand entry"),
                ));
            }
            out.push(OperandOffset::new(o));
        }
        Ok(out)
    }

    /// A code list; every element must start a code entry.
    pub fn code_list(&self, offset: DataOffset) -> Result<Vec<CodeOffset>, BrigError> {
        let b = self.u32_list(offset)?;
        let mut out = Vec::with_capacity(b.len() / 4);
        for (i, c) in b.chunks_exact(4).enumerate() {
            let o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if lookup(&self.code_at, o).is_none() {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!("code list element {i} ({o:#x}) is not an hsa_code entry"),
                ));
            }
            out.push(CodeOffset::new(o));
        }
        Ok(out)
    }
}
