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

use std::collections::HashMap;

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::entries::*;
use crate::enums::*;
use crate::read::{BrigModule, STANDARD_SECTION_NAMES};

/// Header size HSAIL-Tools gives a section named `name`:
/// `align4(sizeof(BrigSectionHeader) - 1 + name.len())` with the C struct
/// being 24 bytes.
pub const fn section_header_size(name_len: usize) -> usize {
    (24 - 1 + name_len + 3) & !3
}

fn align_up(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

/// One section under construction: its whole bytes, header included.
#[derive(Clone, Debug)]
struct SectionBuf {
    bytes: Vec<u8>,
}

impl SectionBuf {
    fn new(name: &[u8]) -> Self {
        let hbc = section_header_size(name.len());
        let mut bytes = vec![0u8; hbc];
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

/// Builds a BRIG module (see the module docs for the layout).
#[derive(Clone, Debug)]
pub struct BrigWriter {
    data: SectionBuf,
    code: SectionBuf,
    operand: SectionBuf,
    extra: Vec<SectionBuf>,
    /// Shared `hsa_data` entries (added by `add_data`), by content.
    dedup: HashMap<Vec<u8>, u32>,
}

impl Default for BrigWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl BrigWriter {
    /// An empty module with the three standard sections.
    pub fn new() -> Self {
        Self {
            data: SectionBuf::new(STANDARD_SECTION_NAMES[0].as_bytes()),
            code: SectionBuf::new(STANDARD_SECTION_NAMES[1].as_bytes()),
            operand: SectionBuf::new(STANDARD_SECTION_NAMES[2].as_bytes()),
            extra: Vec::new(),
            dedup: HashMap::new(),
        }
    }

    /// A writer holding a copy of `module`'s sections, to append to or patch.
    /// Like HSAIL-Tools loading a container, every existing `hsa_data`
    /// entry becomes shareable by [`add_data`](Self::add_data).
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
            dedup: HashMap::new(),
        };
        for (off, bytes) in module.data_entries() {
            w.dedup.entry(bytes.to_vec()).or_insert(off.get());
        }
        w
    }

    // ------------------------------------------------------------ hsa_data --

    fn push_data(&mut self, bytes: &[u8]) -> DataOffset {
        let off = self.data.len() as u32;
        let buf = &mut self.data.bytes;
        buf.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        buf.extend_from_slice(bytes);
        buf.resize(align_up(buf.len(), 4), 0);
        DataOffset::new(off)
    }

    /// Adds a string or constant-bytes entry to `hsa_data`, sharing an
    /// existing entry with the same bytes that was added this way (as
    /// HSAIL-Tools' `addString` does).
    pub fn add_data(&mut self, bytes: &[u8]) -> DataOffset {
        if let Some(&off) = self.dedup.get(bytes) {
            return DataOffset::new(off);
        }
        let off = self.push_data(bytes);
        self.dedup.insert(bytes.to_vec(), off.get());
        off
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
    pub fn add_operand_list(&mut self, list: &[OperandOffset]) -> DataOffset {
        self.push_data(list.as_bytes())
    }

    /// Adds a code list (`BrigDataOffsetCodeList32_t`), never shared.
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

    /// Size of `hsa_data` so far = the offset the next entry will get.
    pub fn data_len(&self) -> u32 {
        self.data.len() as u32
    }

    // ----------------------------------------------- hsa_code / hsa_operand --

    fn push_entry(buf: &mut Vec<u8>, bytes: &[u8]) -> u32 {
        let off = buf.len() as u32;
        buf.extend_from_slice(bytes);
        buf.resize(align_up(buf.len(), 4), 0);
        off
    }

    /// Appends an entry to `hsa_code` as is (its `BrigBase` must already
    /// hold the right `byte_count` and kind) and returns its offset.
    pub fn append_code<T: IntoBytes + Immutable + ?Sized>(&mut self, entry: &T) -> CodeOffset {
        CodeOffset::new(Self::push_entry(&mut self.code.bytes, entry.as_bytes()))
    }

    /// Appends an entry to `hsa_operand` as is and returns its offset.
    pub fn append_operand<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        entry: &T,
    ) -> OperandOffset {
        OperandOffset::new(Self::push_entry(&mut self.operand.bytes, entry.as_bytes()))
    }

    /// Appends `entry` to `hsa_code` with its `byte_count` set to its size.
    pub fn add_code<T: BrigEntry>(&mut self, mut entry: T) -> CodeOffset {
        entry.brig_base_mut().byte_count = (size_of::<T>() as u16).into();
        self.append_code(&entry)
    }

    /// Appends `entry` to `hsa_operand` with its `byte_count` set to its size.
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
    pub fn code_len(&self) -> u32 {
        self.code.len() as u32
    }

    /// [`code_len`](Self::code_len) as a [`CodeOffset`].
    pub fn next_code_offset(&self) -> CodeOffset {
        CodeOffset::new(self.code_len())
    }

    /// Size of `hsa_operand` so far = the offset of the next operand.
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
        let mut s = SectionBuf::new(name);
        s.bytes.extend_from_slice(body);
        self.extra.push(s);
        BrigSectionIndex::new(2 + self.extra.len() as u32)
    }

    /// Lays out the module and returns its bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut sections = vec![
            self.data.finish(),
            self.code.finish(),
            self.operand.finish(),
        ];
        sections.extend(self.extra.into_iter().map(SectionBuf::finish));

        let header_size = size_of::<BrigModuleHeader>();
        let index_at = header_size;
        let mut at = align_up(index_at + 8 * sections.len(), 16);
        let mut offsets = Vec::with_capacity(sections.len());
        for s in &sections {
            offsets.push(at as u64);
            at = align_up(at + s.len(), 16);
        }
        let total = at;

        let mut out = vec![0u8; total];
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
        out[..header_size].copy_from_slice(header.as_bytes());
        for (i, (s, &off)) in sections.iter().zip(&offsets).enumerate() {
            let e = index_at + 8 * i;
            out[e..e + 8].copy_from_slice(&off.to_le_bytes());
            out[off as usize..off as usize + s.len()].copy_from_slice(s);
        }
        out
    }
}

use core::mem::size_of;
