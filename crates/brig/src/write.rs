//! BRIG writer that lays a module out exactly as HSAILasm (HSAIL-Tools
//! 1.0) does, so that an assembler driving it in HSAILasm's order produces
//! byte-identical files.
//!
//! What HSAILasm does, and this writer reproduces (checked against
//! `HSAILasm` output, see `tests/writer.rs`):
//!
//! * **Module**: the 104-byte [`BrigModuleHeader`] (`"HSA BRIG"`, version
//!   1.0, `byte_count`, 64-byte hash left zero, `reserved` 0,
//!   `section_count` 3, `section_index` 104), the section index (one `u64`
//!   file offset per section) right after it at 104, then the sections in
//!   index order, each starting 16-byte aligned with zero padding between;
//!   the module size is padded with zeros to a multiple of 16.
//! * **Section header**: `byte_count` (u64), `header_byte_count`,
//!   `name_length`, the name, zero padding. The header size is
//!   `align4(23 + name_length)` — HSAIL-Tools computes
//!   `sizeof(BrigSectionHeader) - 1 + name.length()` with the C struct's
//!   `name[1]` padded to 24 bytes — so `hsa_data` and `hsa_code` have
//!   32-byte headers and `hsa_operand` a 36-byte one: the first entries are
//!   at offsets 32, 32 and 36.
//! * **`hsa_data`**: each entry is a `u32` length, the bytes, zero padding to
//!   4. Strings and constant bytes go through HSAIL-Tools' `addString`,
//!   which shares one entry among all identical byte strings added that
//!   way ([`add_data`](BrigWriter::add_data)/[`add_string`](BrigWriter::add_string)).
//!   Operand and code lists are *never* shared, not even empty ones
//!   ([`add_operand_list`](BrigWriter::add_operand_list),
//!   [`add_code_list`](BrigWriter::add_code_list),
//!   [`add_data_unique`](BrigWriter::add_data_unique)), and a list is never
//!   matched by a later `add_data` of the same bytes.
//! * **`hsa_code`/`hsa_operand`**: entries appended in call order, each a
//!   multiple of 4 bytes.
//!
//! The writer only lays out bytes; the order of calls (which decides every
//! offset) is the assembler's business.
//!
//! It is built for big modules: shared `hsa_data` entries are found through
//! maps to their offsets, keyed by the bytes themselves for short entries
//! and by an FxHash of them for the others (then comparing content in place
//! in the section, so no copy of the bytes is kept); sections can be
//! pre-sized ([`with_capacity`](BrigWriter::with_capacity)); and
//! [`write_to`](BrigWriter::write_to) writes the module straight from the
//! sections (to a file, say), freeing each once written, which
//! [`finish`](BrigWriter::finish) also does into one `Vec`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::entries::*;
use crate::enums::*;
use crate::read::{BrigModule, STANDARD_SECTION_NAMES, entry_fits};

/// Header size HSAIL-Tools gives a section named `name`:
/// `align4(sizeof(BrigSectionHeader) - 1 + name.len())` with the C struct
/// being 24 bytes.
pub const fn section_header_size(name_len: usize) -> usize {
    (24 - 1 + name_len + 3) & !3
}

fn align_up(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

/// Appends zeros up to the next multiple of 4.
#[inline]
fn pad4(buf: &mut Vec<u8>) {
    let pad = buf.len().wrapping_neg() & 3;
    buf.extend_from_slice(&[0; 3][..pad]);
}

/// One section under construction: its whole bytes, header included.
#[derive(Clone, Debug)]
struct SectionBuf {
    bytes: Vec<u8>,
}

impl SectionBuf {
    fn new(name: &[u8], capacity: usize) -> Self {
        let hbc = section_header_size(name.len());
        let mut bytes = Vec::with_capacity(hbc + capacity);
        bytes.resize(hbc, 0);
        bytes[8..12].copy_from_slice(&(hbc as u32).to_le_bytes());
        bytes[12..16].copy_from_slice(&(name.len() as u32).to_le_bytes());
        bytes[16..16 + name.len()].copy_from_slice(name);
        Self { bytes }
    }

    fn from_existing(bytes: &[u8]) -> Self {
        Self {
            bytes: bytes.to_vec(),
        }
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }

    fn finish(mut self) -> Vec<u8> {
        let n = self.bytes.len() as u64;
        self.bytes[0..8].copy_from_slice(&n.to_le_bytes());
        self.bytes
    }
}

/// FxHash (the hasher of `rustc`), a word at a time, with the final
/// rotation of `rustc-hash` 2 (so that the low bits, which pick a bucket,
/// depend on all input bits): fast and good enough for interning; not
/// meant to resist chosen collisions, which only cost time here.
fn fx_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let add = |h: u64, w: u64| h.wrapping_add(w).wrapping_mul(K);
    let mut h = add(0, bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = add(h, u64::from_le_bytes(w));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = add(h, u64::from_le_bytes(w));
    }
    h.rotate_left(26)
}

/// A `Hasher` for `u64` keys: one FxHash round (keys are [`fx_hash`]
/// values or entries of at most 8 bytes).
#[derive(Clone, Copy, Debug, Default)]
struct U64Hasher(u64);

impl Hasher for U64Hasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; this path is a fallback.
        self.0 = fx_hash(bytes);
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = fx_hash(&k.to_le_bytes());
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type U64Map<V> = HashMap<u64, V, BuildHasherDefault<U64Hasher>>;

/// The `hsa_data` entry (without its length) at byte `at` of `data`.
fn data_entry(data: &[u8], at: u32) -> &[u8] {
    let at = at as usize;
    let len = data
        .get(at..at + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])) as usize;
    data.get(at + 4..at + 4 + len).unwrap_or(&[])
}

/// The shared `hsa_data` entries, by content. Entries of up to 8 bytes
/// (most constants) are keyed by their bytes; longer ones by the hash of
/// their content, a candidate then being compared with the entry's bytes
/// in the data section itself. Either way no copy of the content is kept.
#[derive(Clone, Debug, Default)]
struct Interner {
    /// Entries of 0 to 8 bytes, by length and bytes (zero-extended).
    short: [U64Map<u32>; 9],
    /// The first longer entry with each hash…
    long: U64Map<u32>,
    /// …and later ones whose content has the same hash (rare).
    collisions: U64Map<Vec<u32>>,
}

/// Where a new shared entry goes in the [`Interner`].
#[derive(Clone, Copy, Debug)]
enum Key {
    Short(usize, u64),
    Long(u64),
}

impl Interner {
    /// The offset of the interned entry of `data` equal to `bytes`, or its
    /// key, to [`insert`](Self::insert) it with once it is appended.
    fn find(&self, data: &[u8], bytes: &[u8]) -> Result<u32, Key> {
        if bytes.len() <= 8 {
            let mut word = [0u8; 8];
            word[..bytes.len()].copy_from_slice(bytes);
            let word = u64::from_le_bytes(word);
            let short = &self.short[bytes.len()];
            return short
                .get(&word)
                .copied()
                .ok_or(Key::Short(bytes.len(), word));
        }
        let hash = fx_hash(bytes);
        let Some(&first) = self.long.get(&hash) else {
            return Err(Key::Long(hash));
        };
        if data_entry(data, first) == bytes {
            return Ok(first);
        }
        let more = self.collisions.get(&hash).map_or(&[][..], |v| &v[..]);
        more.iter()
            .copied()
            .find(|&o| data_entry(data, o) == bytes)
            .ok_or(Key::Long(hash))
    }

    fn insert(&mut self, key: Key, offset: u32) {
        match key {
            Key::Short(len, word) => {
                self.short[len].insert(word, offset);
            }
            Key::Long(hash) => match self.long.entry(hash) {
                Entry::Vacant(v) => {
                    v.insert(offset);
                }
                Entry::Occupied(_) => self.collisions.entry(hash).or_default().push(offset),
            },
        }
    }
}

/// Builds a BRIG module (see the module docs for the layout).
#[derive(Clone, Debug)]
pub struct BrigWriter {
    data: SectionBuf,
    code: SectionBuf,
    operand: SectionBuf,
    extra: Vec<SectionBuf>,
    /// Shared `hsa_data` entries (added by `add_data`), by content.
    shared: Interner,
    /// The entry starts of `hsa_data`, `hsa_code` and `hsa_operand`, as
    /// appended: [`module`](Self::module) checks them against the entries
    /// instead of finding them by walking the sections.
    starts: [Vec<u32>; 3],
    /// Whether `starts` holds every entry, each checked as it was appended
    /// (see [`trusted_module`](Self::trusted_module)): false for a writer
    /// made [`from_module`](Self::from_module), or once an entry fails the
    /// check.
    recorded: bool,
}

impl Default for BrigWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl BrigWriter {
    /// An empty module with the three standard sections.
    pub fn new() -> Self {
        Self::with_capacity(0, 0, 0)
    }

    /// An empty module with room for `data`, `code` and `operand` bytes of
    /// entries in the three sections (so that big modules do not regrow
    /// and copy them).
    pub fn with_capacity(data: usize, code: usize, operand: usize) -> Self {
        Self {
            data: SectionBuf::new(STANDARD_SECTION_NAMES[0].as_bytes(), data),
            code: SectionBuf::new(STANDARD_SECTION_NAMES[1].as_bytes(), code),
            operand: SectionBuf::new(STANDARD_SECTION_NAMES[2].as_bytes(), operand),
            extra: Vec::new(),
            shared: Interner::default(),
            // Entries average well over 8 bytes.
            starts: [data, code, operand].map(|n| Vec::with_capacity(n / 8)),
            recorded: true,
        }
    }

    /// A writer holding a copy of `module`'s sections, to append to or patch.
    /// Like HSAIL-Tools loading a container, every existing `hsa_data`
    /// entry becomes shareable by [`add_data`](Self::add_data) (the first
    /// one, when several hold the same bytes).
    pub fn from_module(module: &BrigModule<'_>) -> Self {
        let secs = module.sections();
        let mut w = Self {
            data: SectionBuf::from_existing(secs[0].bytes),
            code: SectionBuf::from_existing(secs[1].bytes),
            operand: SectionBuf::from_existing(secs[2].bytes),
            extra: secs[3..]
                .iter()
                .map(|s| SectionBuf::from_existing(s.bytes))
                .collect(),
            shared: Interner::default(),
            starts: Default::default(),
            recorded: false,
        };
        for (off, bytes) in module.data_entries() {
            if let Err(key) = w.shared.find(&w.data.bytes, bytes) {
                w.shared.insert(key, off.get());
            }
        }
        w
    }

    // ------------------------------------------------------------ hsa_data --

    #[inline]
    fn push_data(&mut self, bytes: &[u8]) -> DataOffset {
        let off = self.data.len() as u32;
        self.starts[0].push(off);
        let buf = &mut self.data.bytes;
        buf.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        buf.extend_from_slice(bytes);
        pad4(buf);
        DataOffset::new(off)
    }

    /// Adds a string or constant-bytes entry to `hsa_data`, sharing an
    /// existing entry with the same bytes that was added this way (as
    /// HSAIL-Tools' `addString` does).
    pub fn add_data(&mut self, bytes: &[u8]) -> DataOffset {
        match self.shared.find(&self.data.bytes, bytes) {
            Ok(off) => DataOffset::new(off),
            Err(key) => {
                let off = self.push_data(bytes);
                self.shared.insert(key, off.get());
                off
            }
        }
    }

    /// [`add_data`](Self::add_data) of a string's UTF-8 bytes (no NUL).
    pub fn add_string(&mut self, s: &str) -> DataOffset {
        self.add_data(s.as_bytes())
    }

    /// Adds an `hsa_data` entry that is never shared (HSAIL-Tools' lists).
    pub fn add_data_unique(&mut self, bytes: &[u8]) -> DataOffset {
        self.push_data(bytes)
    }

    /// Adds an operand list (`BrigDataOffsetOperandList32_t`), never shared;
    /// an empty list still gets its own zero-length entry, as in HSAILasm.
    #[inline]
    pub fn add_operand_list(&mut self, list: &[OperandOffset]) -> DataOffset {
        self.push_data(list.as_bytes())
    }

    /// Adds a code list (`BrigDataOffsetCodeList32_t`), never shared.
    #[inline]
    pub fn add_code_list(&mut self, list: &[CodeOffset]) -> DataOffset {
        self.push_data(list.as_bytes())
    }

    /// The bytes of the `hsa_data` entry at `offset`, mutably (for patching
    /// a list whose elements were not known when it was added). `None` if
    /// `offset` is not inside the section.
    pub fn data_bytes_mut(&mut self, offset: DataOffset) -> Option<&mut [u8]> {
        let at = offset.get() as usize;
        let buf = &mut self.data.bytes;
        let len = buf
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))? as usize;
        buf.get_mut(at + 4..at + 4 + len)
    }

    /// The code list (`BrigDataOffsetCodeList32_t`) at `offset`, mutably,
    /// for patching forward references. `None` if there is no entry there.
    pub fn code_list_mut(&mut self, offset: DataOffset) -> Option<&mut [CodeOffset]> {
        <[CodeOffset]>::mut_from_bytes(self.data_bytes_mut(offset)?).ok()
    }

    /// Size of `hsa_data` so far = the offset the next entry will get.
    #[inline]
    pub fn data_len(&self) -> u32 {
        self.data.len() as u32
    }

    // ----------------------------------------------- hsa_code / hsa_operand --

    /// Appends an entry to `hsa_code` (`code`) or `hsa_operand`, records
    /// its start and checks it as the reader's walk would: a `byte_count`
    /// equal to its padded size, at least the size of its kind's struct.
    #[inline]
    fn push_entry(&mut self, code: bool, bytes: &[u8]) -> u32 {
        let (buf, starts) = if code {
            (&mut self.code.bytes, &mut self.starts[1])
        } else {
            (&mut self.operand.bytes, &mut self.starts[2])
        };
        let off = buf.len() as u32;
        starts.push(off);
        buf.extend_from_slice(bytes);
        pad4(buf);
        let size = buf.len() - off as usize;
        let word = bytes
            .first_chunk::<4>()
            .map_or(0, |w| u32::from_le_bytes(*w));
        self.recorded &= (word & 0xffff) as usize == size && entry_fits(code, word, size);
        off
    }

    /// Appends an entry to `hsa_code` as is (its `BrigBase` must already
    /// hold the right `byte_count` and kind) and returns its offset.
    #[inline]
    pub fn append_code<T: IntoBytes + Immutable + ?Sized>(&mut self, entry: &T) -> CodeOffset {
        CodeOffset::new(self.push_entry(true, entry.as_bytes()))
    }

    /// Appends an entry to `hsa_operand` as is and returns its offset.
    #[inline]
    pub fn append_operand<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        entry: &T,
    ) -> OperandOffset {
        OperandOffset::new(self.push_entry(false, entry.as_bytes()))
    }

    /// Appends `entry` to `hsa_code` with its `byte_count` set to its size.
    #[inline]
    pub fn add_code<T: BrigEntry>(&mut self, mut entry: T) -> CodeOffset {
        entry.brig_base_mut().byte_count = (size_of::<T>() as u16).into();
        self.append_code(&entry)
    }

    /// Appends `entry` to `hsa_operand` with its `byte_count` set to its size.
    #[inline]
    pub fn add_operand<T: BrigEntry>(&mut self, mut entry: T) -> OperandOffset {
        entry.brig_base_mut().byte_count = (size_of::<T>() as u16).into();
        self.append_operand(&entry)
    }

    /// The `hsa_code` entry at `offset` viewed as `T`, for patching forward
    /// links (`next_module_entry`, `first_code_block_entry`, …). `None` if
    /// `offset` is out of range.
    pub fn code_mut<T: FromBytes + IntoBytes + KnownLayout>(
        &mut self,
        offset: CodeOffset,
    ) -> Option<&mut T> {
        let at = offset.get() as usize;
        let b = self.code.bytes.get_mut(at..)?;
        T::mut_from_prefix(b).ok().map(|(t, _)| t)
    }

    /// The `hsa_operand` entry at `offset` viewed as `T`, mutably.
    pub fn operand_mut<T: FromBytes + IntoBytes + KnownLayout>(
        &mut self,
        offset: OperandOffset,
    ) -> Option<&mut T> {
        let at = offset.get() as usize;
        let b = self.operand.bytes.get_mut(at..)?;
        T::mut_from_prefix(b).ok().map(|(t, _)| t)
    }

    /// Size of `hsa_code` so far = the offset the next code entry will get.
    #[inline]
    pub fn code_len(&self) -> u32 {
        self.code.len() as u32
    }

    /// [`code_len`](Self::code_len) as a [`CodeOffset`].
    #[inline]
    pub fn next_code_offset(&self) -> CodeOffset {
        CodeOffset::new(self.code_len())
    }

    /// Size of `hsa_operand` so far = the offset of the next operand.
    #[inline]
    pub fn operand_len(&self) -> u32 {
        self.operand.len() as u32
    }

    /// [`operand_len`](Self::operand_len) as an [`OperandOffset`].
    pub fn next_operand_offset(&self) -> OperandOffset {
        OperandOffset::new(self.operand_len())
    }

    /// The bytes written so far to a standard section (header included).
    pub fn section_bytes(&self, index: BrigSectionIndex) -> Option<&[u8]> {
        match index {
            BrigSectionIndex::DATA => Some(&self.data.bytes),
            BrigSectionIndex::CODE => Some(&self.code.bytes),
            BrigSectionIndex::OPERAND => Some(&self.operand.bytes),
            _ => self
                .extra
                .get((index.raw() as usize).checked_sub(3)?)
                .map(|s| &s.bytes[..]),
        }
    }

    /// Adds an implementation-defined section after the standard ones, with
    /// `body` after its header; returns its section index.
    pub fn add_section(&mut self, name: &[u8], body: &[u8]) -> BrigSectionIndex {
        let mut s = SectionBuf::new(name, body.len());
        s.bytes.extend_from_slice(body);
        self.extra.push(s);
        BrigSectionIndex::new(2 + self.extra.len() as u32)
    }

    /// A reader over the module as it stands, without laying it out in
    /// one buffer (see [`BrigModule::from_sections`]): to validate a module
    /// before writing it. Sets each section header's `byte_count`, as
    /// [`finish`](Self::finish) does; appending more entries afterwards is
    /// fine. The entry starts recorded as entries were appended are checked
    /// to be exactly the ones a walk of the sections finds (see
    /// [`BrigModule::from_recorded_sections`]), which is faster than the
    /// walk; should they not be (an entry appended with a bad `byte_count`
    /// or patched since), the sections are walked and the walk reports
    /// the problem.
    ///
    /// # Errors
    /// What [`BrigModule::from_sections`] finds wrong with the sections.
    pub fn module(&mut self) -> Result<BrigModule<'_>, crate::BrigError> {
        self.set_byte_counts();
        let sections = self.section_list();
        let [d, c, o] = &self.starts;
        if self.recorded
            && let Some(m) = BrigModule::from_recorded_sections(&sections, [d, c, o])
        {
            return Ok(m);
        }
        BrigModule::from_sections(&sections)
    }

    /// [`module`](Self::module) for a caller that trusts its own patches:
    /// the entry starts recorded as entries were appended are used as they
    /// are. Every entry was checked when it was appended (as the reader's
    /// walk checks it), so they are right unless an entry's `byte_count`
    /// or kind was changed since through [`code_mut`](Self::code_mut) or
    /// [`operand_mut`](Self::operand_mut), which only `module` would
    /// notice. The module also trusts the references into `hsa_data` and
    /// `hsa_operand`: any aligned offset past the section header counts as
    /// an entry start there (see `BrigModule::with_recorded_starts`). For
    /// the assembler, which validates its own output before writing it
    /// (and patches only the link and list fields of entries).
    ///
    /// # Errors
    /// As [`module`](Self::module).
    pub fn trusted_module(&mut self) -> Result<BrigModule<'_>, crate::BrigError> {
        if !self.recorded {
            return self.module();
        }
        self.set_byte_counts();
        let sections = self.section_list();
        let [d, c, o] = &self.starts;
        match BrigModule::with_recorded_starts(&sections, [d, c, o], false) {
            Some(m) => Ok(m),
            None => BrigModule::from_sections(&sections),
        }
    }

    /// Sets each section header's `byte_count` to the section's size.
    fn set_byte_counts(&mut self) {
        for s in [&mut self.data, &mut self.code, &mut self.operand]
            .into_iter()
            .chain(&mut self.extra)
        {
            let n = s.bytes.len() as u64;
            s.bytes[0..8].copy_from_slice(&n.to_le_bytes());
        }
    }

    /// Every section's bytes, in index order.
    fn section_list(&self) -> Vec<&[u8]> {
        [&self.data, &self.code, &self.operand]
            .into_iter()
            .chain(&self.extra)
            .map(|s| &s.bytes[..])
            .collect()
    }

    /// Size of the finished module in bytes.
    pub fn module_len(&self) -> usize {
        self.layout().1
    }

    /// The sections in index order, the file offset of each and the module
    /// size.
    fn layout(&self) -> (Vec<&SectionBuf>, usize, Vec<usize>) {
        let sections: Vec<&SectionBuf> = [&self.data, &self.code, &self.operand]
            .into_iter()
            .chain(&self.extra)
            .collect();
        let mut at = align_up(size_of::<BrigModuleHeader>() + 8 * sections.len(), 16);
        let mut offsets = Vec::with_capacity(sections.len());
        for s in &sections {
            offsets.push(at);
            at = align_up(at + s.len(), 16);
        }
        (sections, at, offsets)
    }

    /// Lays out the module and returns its bytes. Each section is freed as
    /// soon as it is copied, so the peak is about the module size plus its
    /// largest section.
    pub fn finish(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.module_len());
        self.write_to(&mut out)
            .expect("writing to a Vec<u8> cannot fail");
        out
    }

    /// Lays out the module into `out` (for a big module straight into a
    /// file, without first building it in memory like
    /// [`finish`](Self::finish)): the header and section index, then each
    /// section with its padding, one `write_all` each; each section is
    /// freed once written.
    pub fn write_to<W: Write>(self, mut out: W) -> io::Result<()> {
        let (sections, total, offsets) = self.layout();
        let index_at = size_of::<BrigModuleHeader>();
        let header = BrigModuleHeader {
            identification: BrigModuleHeader::MAGIC,
            brig_major: 1.into(),
            brig_minor: 0.into(),
            byte_count: (total as u64).into(),
            hash: [0; 64],
            reserved: 0.into(),
            section_count: (sections.len() as u32).into(),
            section_index: (index_at as u64).into(),
        };
        let mut head = header.as_bytes().to_vec();
        for &off in &offsets {
            head.extend_from_slice(&(off as u64).to_le_bytes());
        }
        head.resize(offsets[0], 0);
        drop(sections);
        out.write_all(&head)?;

        let Self {
            data,
            code,
            operand,
            extra,
            shared,
            starts,
            ..
        } = self;
        drop((shared, starts));
        let mut at = offsets[0];
        for s in [data, code, operand].into_iter().chain(extra) {
            let bytes = s.finish();
            out.write_all(&bytes)?;
            at += bytes.len();
            drop(bytes);
            let padded = align_up(at, 16);
            out.write_all(&[0; 16][..padded - at])?;
            at = padded;
        }
        debug_assert_eq!(at, total);
        Ok(())
    }
}

use core::mem::size_of;
