//! Constant-time access to the entries of a [`BrigModule`].
//!
//! `BrigModule` keeps one bit per 4-byte word of each section marking the
//! entry starts (BRIG entries are 4-byte aligned), so checking a reference
//! and decoding the entry it names is constant time and needs no table of
//! decoded entries: [`Index`] is a thin view that decodes on demand, keeps
//! no per-entry memory of its own, and adds the validator's helpers
//! (instruction operands inline, raw lists, code ordinals). The accessors
//! mirror `BrigModule`'s names and return the same [`BrigError`]s.

use brig::{
    BrigError, BrigKind, BrigModule, BrigSectionIndex, Code, CodeOffset, DataOffset, Operand,
    OperandOffset,
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
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
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

/// A set of entry offsets in `[lo, hi)`, one bit per 4-byte word (BRIG
/// entries are 4-byte aligned): for the sets of a code block's entries,
/// which a hash set would hash on every use. Offsets outside the range or
/// not aligned are never members (and not inserted).
#[derive(Clone, Debug)]
pub struct OffsetBits {
    lo: u32,
    hi: u32,
    words: Vec<u64>,
}

impl OffsetBits {
    /// An empty set for offsets in `[lo, hi)`.
    pub fn new(lo: u32, hi: u32) -> Self {
        let bits = (hi.saturating_sub(lo) as usize).div_ceil(4);
        Self {
            lo,
            hi,
            words: vec![0; bits.div_ceil(64)],
        }
    }

    /// The word and bit of `offset`, if it can be a member.
    #[inline]
    fn slot(&self, offset: u32) -> Option<(usize, u64)> {
        let d = offset.checked_sub(self.lo)?;
        if d % 4 != 0 || offset >= self.hi {
            return None;
        }
        let bit = (d / 4) as usize;
        Some((bit / 64, 1 << (bit % 64)))
    }

    /// Adds `offset` (if it can be a member).
    #[inline]
    pub fn insert(&mut self, offset: u32) {
        if let Some((w, b)) = self.slot(offset) {
            self.words[w] |= b;
        }
    }

    /// Removes `offset`.
    #[inline]
    pub fn remove(&mut self, offset: u32) {
        if let Some((w, b)) = self.slot(offset) {
            self.words[w] &= !b;
        }
    }

    /// Whether `offset` is a member.
    #[inline]
    pub fn contains(&self, offset: u32) -> bool {
        self.slot(offset)
            .is_some_and(|(w, b)| self.words[w] & b != 0)
    }
}

/// No instruction has more operands than this (PRM 18.7: at most 5).
pub const MAX_INST_OPERANDS: usize = 6;

/// The operands of one instruction, offsets and decoded entries, inline.
#[derive(Clone, Copy, Debug, Default)]
pub struct InstOperands<'a> {
    offsets: [OperandOffset; MAX_INST_OPERANDS],
    entries: [Option<Operand<'a>>; MAX_INST_OPERANDS],
    len: usize,
    /// Whether an operand refers to a code entry (an address, code
    /// reference or code list): see [`Self::has_code_refs`].
    code_refs: bool,
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

    /// Whether an operand is an address, a code reference or a code list
    /// (the operands that name variables, labels or functions).
    #[inline]
    pub fn has_code_refs(&self) -> bool {
        self.code_refs
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

/// A view of one module for the validator (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    m: &'a BrigModule<'a>,
    /// Offsets of the `hsa_code` entries, in file order.
    code_starts: &'a [u32],
    /// The bytes of `hsa_code` (header included).
    code_section: &'a [u8],
    /// The bytes of `hsa_operand` (header included).
    operand_section: &'a [u8],
    /// The bytes of `hsa_data` (header included).
    data_section: &'a [u8],
    code_end: CodeOffset,
    /// The raw reads skip the entry-start checks: the module comes from
    /// our own writer (see [`Self::trusting`]).
    trusted: bool,
}

const DATA: BrigSectionIndex = BrigSectionIndex::DATA;

impl<'a> Index<'a> {
    /// A view of a module `BrigModule::parse` accepted (`parse` checked
    /// that every entry of a kind of its section is large enough for that
    /// kind, so every entry start decodes).
    pub fn new(m: &'a BrigModule<'a>) -> Self {
        Self {
            m,
            code_starts: m.code_offset_slice(),
            code_section: m.section(BrigSectionIndex::CODE).map_or(&[], |s| s.bytes),
            operand_section: m
                .section(BrigSectionIndex::OPERAND)
                .map_or(&[], |s| s.bytes),
            data_section: m.section(DATA).map_or(&[], |s| s.bytes),
            code_end: m.code_end(),
            trusted: false,
        }
    }

    /// This view for a module from our own [`brig::BrigWriter`], whose
    /// offsets are right by construction: the raw reads
    /// ([`Self::raw_operand`], [`Self::raw_data`]) then only check that the
    /// bytes are in their section, not that an entry starts there. They
    /// stay bounds-checked, so a wrong offset gives a wrong reading, never
    /// a panic.
    pub fn trusting(self) -> Self {
        Self {
            trusted: true,
            ..self
        }
    }

    /// Every code entry in file order (an entry that cannot be decoded,
    /// which `BrigModule::parse` rules out, is skipped).
    pub fn code_entries(&self) -> impl Iterator<Item = (CodeOffset, Code<'a>)> + 'a {
        self.code_entries_from(0)
    }

    /// The code entries from ordinal `first` on (see
    /// [`Self::code_ordinal`]).
    pub fn code_entries_from(
        &self,
        first: usize,
    ) -> impl Iterator<Item = (CodeOffset, Code<'a>)> + 'a {
        let ix = *self;
        self.code_starts
            .get(first..)
            .unwrap_or(&[])
            .iter()
            .filter_map(move |&o| ix.code_at_start(o).map(|c| (CodeOffset::new(o), c)))
    }

    /// The offsets of the code entries from ordinal `first` on (see
    /// [`Self::code_ordinal`]).
    pub fn code_starts_from(&self, first: usize) -> &'a [u32] {
        self.code_starts.get(first..).unwrap_or(&[])
    }

    /// The bytes of the code entry starting at `start` (an element of
    /// [`Self::code_offsets`]), without testing again that an entry starts
    /// there.
    #[inline]
    pub fn code_bytes_at_start(&self, start: u32) -> Option<&'a [u8]> {
        let at = start as usize;
        let len = le16(self.code_section, at)?;
        self.code_section.get(at..at + usize::from(len))
    }

    /// The offsets of the code entries, in file order.
    pub fn code_offsets(&self) -> &'a [u32] {
        self.code_starts
    }

    /// The kind of the code entry starting at `start` (an element of
    /// [`Self::code_offsets`]), read without decoding the entry.
    #[inline]
    pub fn code_kind_at_start(&self, start: u32) -> Option<BrigKind> {
        let at = start as usize;
        let k = self.code_section.get(at + 2..at + 4)?;
        Some(BrigKind::new(u16::from_le_bytes([k[0], k[1]])))
    }

    /// The kind of the code entry at `offset`, if an entry starts there,
    /// read without decoding the entry.
    #[inline]
    pub fn code_kind(&self, offset: CodeOffset) -> Option<BrigKind> {
        if !self.m.is_code_entry(offset) {
            return None;
        }
        self.code_kind_at_start(offset.get())
    }

    /// The code entry starting at `start` (an element of
    /// [`Self::code_offsets`]): what [`Self::code`] returns for it,
    /// without testing again that an entry starts there.
    #[inline]
    fn code_at_start(&self, start: u32) -> Option<Code<'a>> {
        let at = start as usize;
        let h = self.code_section.get(at..at + 2)?;
        let len = usize::from(u16::from_le_bytes([h[0], h[1]]));
        Code::decode(self.code_section.get(at..at + len)?)
    }

    /// Number of code entries.
    pub fn code_count(&self) -> usize {
        self.code_starts.len()
    }

    /// The first code entry's offset, if the module has code.
    pub fn first_code(&self) -> Option<CodeOffset> {
        self.code_starts.first().map(|&o| CodeOffset::new(o))
    }

    /// The offsets of the operand entries, in file order.
    pub fn operand_offsets(&self) -> &'a [u32] {
        self.m.operand_offset_slice()
    }

    /// The bytes of the `hsa_operand` section (header included: section
    /// offsets index into it).
    pub fn operand_section(&self) -> &'a [u8] {
        self.m
            .section(BrigSectionIndex::OPERAND)
            .map_or(&[], |s| s.bytes)
    }

    /// Every operand entry in file order.
    pub fn operand_entries(&self) -> impl Iterator<Item = (OperandOffset, Operand<'a>)> + 'a {
        let ix = *self;
        self.m.operand_offset_slice().iter().filter_map(move |&o| {
            let o = OperandOffset::new(o);
            ix.operand(o).ok().map(|x| (o, x))
        })
    }

    /// The ordinal of the code entry at `offset` in [`Self::code_entries`].
    pub fn code_ordinal(&self, offset: CodeOffset) -> Option<usize> {
        if !self.m.is_code_entry(offset) {
            return None;
        }
        self.code_starts.binary_search(&offset.get()).ok()
    }

    /// The bytes of the code entry at `offset`.
    #[inline]
    pub fn code_bytes(&self, offset: CodeOffset) -> Result<&'a [u8], BrigError> {
        self.m.code_bytes(offset)
    }

    /// The bytes of the operand entry starting at `offset`, or `None` if
    /// no entry starts there (in a [trusting](Self::trusting) view: if the
    /// bytes are not in the section): a raw read, for the instruction
    /// memo's shapes (which read a few fields of every operand without
    /// decoding it).
    #[inline(always)]
    pub fn raw_operand(&self, offset: u32) -> Option<&'a [u8]> {
        if offset == 0 || !(self.trusted || self.m.is_operand_entry(OperandOffset::new(offset))) {
            return None;
        }
        let at = offset as usize;
        let len = le16(self.operand_section, at)?;
        self.operand_section.get(at..at + usize::from(len))
    }

    /// The bytes of the offset list at `offset` in `hsa_data` (4 per
    /// element; offset 0 is the empty list), or `None` if no data entry
    /// of a whole number of offsets starts there: a raw read (see
    /// [`Self::raw_operand`]).
    #[inline(always)]
    pub fn raw_offsets(&self, offset: u32) -> Option<&'a [u8]> {
        if offset == 0 {
            return Some(&[]);
        }
        let b = self.raw_data(offset)?;
        b.len().is_multiple_of(4).then_some(b)
    }

    /// The bytes of the `hsa_data` entry at `offset` (without its length
    /// word), or `None` if no entry starts there (a raw read, see
    /// [`Self::raw_operand`]).
    #[inline(always)]
    pub fn raw_data(&self, offset: u32) -> Option<&'a [u8]> {
        if offset == 0 || !(self.trusted || self.m.is_data_entry(DataOffset::new(offset))) {
            return None;
        }
        let at = offset as usize;
        let len = le32(self.data_section, at)? as usize;
        self.data_section.get(at + 4..at + 4 + len)
    }

    /// The code entry at `offset`.
    #[inline]
    pub fn code(&self, offset: CodeOffset) -> Result<Code<'a>, BrigError> {
        self.m.code(offset)
    }

    /// The code entry at `offset`, if there is one (see
    /// [`BrigModule::try_code`]).
    #[inline]
    pub fn try_code(&self, offset: CodeOffset) -> Option<Code<'a>> {
        self.m.try_code(offset)
    }

    /// The operand entry at `offset`, if there is one (see
    /// [`BrigModule::try_operand`]).
    #[inline]
    pub fn try_operand(&self, offset: OperandOffset) -> Option<Operand<'a>> {
        self.m.try_operand(offset)
    }

    /// The operand entry at `offset`.
    #[inline]
    pub fn operand(&self, offset: OperandOffset) -> Result<Operand<'a>, BrigError> {
        self.m.operand(offset)
    }

    /// The kind of the operand entry at `offset` (what
    /// [`Self::operand`] would decode, without decoding it).
    #[inline]
    pub fn operand_kind(&self, offset: OperandOffset) -> Result<BrigKind, BrigError> {
        let b = self.m.operand_bytes(offset)?;
        match b.get(2..4) {
            Some(k) => Ok(BrigKind::new(u16::from_le_bytes([k[0], k[1]]))),
            None => self.operand(offset).map(|o| o.kind()),
        }
    }

    /// Whether `offset` starts an operand entry.
    pub fn is_operand_entry(&self, offset: OperandOffset) -> bool {
        self.m.is_operand_entry(offset)
    }

    /// Whether `offset` starts a code entry.
    pub fn is_code_entry(&self, offset: CodeOffset) -> bool {
        self.m.is_code_entry(offset)
    }

    /// One past the last code entry.
    pub fn code_end(&self) -> CodeOffset {
        self.code_end
    }

    /// The code entry after the one at `offset` (or the section end).
    pub fn next_code(&self, offset: CodeOffset) -> Result<CodeOffset, BrigError> {
        self.m.next_code(offset)
    }

    /// The bytes of the data entry at `offset`.
    #[inline]
    pub fn data_bytes(&self, offset: DataOffset) -> Result<&'a [u8], BrigError> {
        self.m.data_bytes(offset)
    }

    /// The data entry at `offset` as UTF-8 text.
    #[inline]
    pub fn string(&self, offset: DataOffset) -> Result<&'a str, BrigError> {
        self.m.string(offset)
    }

    /// The raw elements of an offset list, without checking them.
    #[inline]
    pub fn raw_list(
        &self,
        offset: DataOffset,
    ) -> Result<impl Iterator<Item = u32> + 'a, BrigError> {
        Ok(self.m.code_list_ref(offset)?.iter().map(|o| o.get()))
    }

    /// The operands of an instruction, without allocating (see
    /// [`Self::fill_inst_operands`]).
    pub fn inst_operands(&self, offset: DataOffset) -> Result<InstOperands<'a>, BrigError> {
        let mut out = InstOperands::default();
        if self.fill_inst_operands(offset, &mut out) {
            Ok(out)
        } else {
            Err(BrigError::in_section(
                DATA,
                u64::from(offset.get()),
                format!(
                    "not a list of at most {MAX_INST_OPERANDS} operand entries of kinds \
                     allowed in an instruction"
                ),
            ))
        }
    }

    /// Reads the operands of an instruction into `out`, without moving
    /// the array around. Returns whether the list is what layer 1 requires
    /// of an instruction's operands (a well-formed list of at most
    /// [`MAX_INST_OPERANDS`] operand entries, each of a kind allowed in an
    /// instruction): layer 3 checks the instructions it walks this way,
    /// in place of layer 1. When it is not, `out` is left empty.
    #[inline]
    pub fn fill_inst_operands(&self, offset: DataOffset, out: &mut InstOperands<'a>) -> bool {
        out.len = 0;
        out.code_refs = false;
        let Ok(list) = self.m.operand_list_ref(offset) else {
            return false;
        };
        if list.len() > MAX_INST_OPERANDS {
            return false;
        }
        for (i, &o) in list.iter().enumerate() {
            match self.m.try_operand(o) {
                Some(op) if super::structure::is_inst_operand_kind(op.kind()) => {
                    out.offsets[i] = o;
                    out.entries[i] = Some(op);
                    out.code_refs |= matches!(
                        op,
                        Operand::Address(_) | Operand::CodeRef(_) | Operand::CodeList(_)
                    );
                }
                _ => return false,
            }
        }
        out.len = list.len();
        true
    }

    /// An operand list; every element must start an operand entry.
    pub fn operand_list(&self, offset: DataOffset) -> Result<Vec<OperandOffset>, BrigError> {
        self.m.operand_list(offset)
    }

    /// A code list; every element must start a code entry.
    pub fn code_list(&self, offset: DataOffset) -> Result<Vec<CodeOffset>, BrigError> {
        self.check_code_list(offset)?;
        Ok(self.code_list_ref(offset)?.to_vec())
    }

    /// Checks what [`Self::code_list`] checks, without collecting the
    /// list: every element starts a code entry.
    pub fn check_code_list(&self, offset: DataOffset) -> Result<(), BrigError> {
        for (i, o) in self.raw_list(offset)?.enumerate() {
            if !self.m.is_code_entry(CodeOffset::new(o)) {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!("code list element {i} ({o:#x}) is not an hsa_code entry"),
                ));
            }
        }
        Ok(())
    }

    /// A code list in place, its elements not checked (for lists layer 1
    /// already checked).
    pub fn code_list_ref(&self, offset: DataOffset) -> Result<&'a [CodeOffset], BrigError> {
        self.m.code_list_ref(offset)
    }

    /// An operand list in place, its elements not checked (for lists
    /// layer 1 already checked).
    pub fn operand_list_ref(&self, offset: DataOffset) -> Result<&'a [OperandOffset], BrigError> {
        self.m.operand_list_ref(offset)
    }
}

/// The little-endian `u16` at `at` in `b`.
#[inline(always)]
pub fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(*b.get(at..)?.first_chunk()?))
}

/// The little-endian `u32` at `at` in `b`.
#[inline(always)]
pub fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(*b.get(at..)?.first_chunk()?))
}

/// The little-endian `u64` at `at` in `b`.
#[inline(always)]
pub fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(*b.get(at..)?.first_chunk()?))
}

#[cfg(test)]
mod tests {
    use super::OffsetBits;

    #[test]
    fn offset_bits_hold_aligned_offsets_in_range() {
        let mut s = OffsetBits::new(100, 400);
        for o in [100, 104, 356, 396] {
            assert!(!s.contains(o));
            s.insert(o);
            assert!(s.contains(o), "{o}");
        }
        // Outside the range or unaligned: never members.
        for o in [0, 96, 102, 400, 404, u32::MAX] {
            s.insert(o);
            assert!(!s.contains(o), "{o}");
        }
        s.remove(104);
        assert!(!s.contains(104));
        assert!(s.contains(100) && s.contains(356) && s.contains(396));
        assert!(!OffsetBits::new(8, 8).contains(8));
    }
}
