//! The BRIG container as HSAILasm lays it out, for the assembler.
//!
//! Entries are the `brig` crate's spec-named `#[repr(C)]` structs; this
//! writer appends them, interns `hsa_data` blobs and writes the module.
//! Layout (the same as `brig::BrigWriter`, checked byte for byte against
//! HSAILasm by the oracle tests): 104-byte module header, section index,
//! sections 16-byte aligned; section headers of `align4(23 + name length)`
//! bytes; `hsa_data` entries are a `u32` length, the bytes and zero padding.
//! Strings and constant bytes are shared by content (HSAIL-Tools'
//! `addString`), operand and code lists never are, not even empty ones.
//!
//! It is local rather than `brig::BrigWriter` for speed: interning hashes
//! with FxHash into a table of offsets (the content is compared in place),
//! which made whole-module assembly about 15% faster than a
//! `HashMap<Vec<u8>, u32>` with SipHash.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use brig::BrigEntry;

/// A fast non-cryptographic hasher (FxHash).
#[derive(Default, Debug, Clone, Copy)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

const DATA_HEADER: usize = section_header_size("hsa_data".len());
const CODE_HEADER: usize = section_header_size("hsa_code".len());
/// Size of the `hsa_operand` section header = offset of the first operand.
pub const OPERAND_HEADER: usize = section_header_size("hsa_operand".len());

/// HSAIL-Tools' section header size: `sizeof(BrigSectionHeader) - 1 + name
/// length`, rounded up to 4, the C struct being 24 bytes.
const fn section_header_size(name_len: usize) -> usize {
    (23 + name_len + 3) & !3
}

fn get32(v: &[u8], at: usize) -> u32 {
    v.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .unwrap_or(0)
}

/// A BRIG module under construction.
#[derive(Debug)]
pub struct Brig {
    data: Vec<u8>,
    code: Vec<u8>,
    operands: Vec<u8>,
    /// Shared blobs by content hash: the first offset with that hash…
    interned: FxMap<u64, u32>,
    /// …and further offsets whose content has the same hash.
    collisions: FxMap<u64, Vec<u32>>,
}

impl Default for Brig {
    fn default() -> Self {
        Self::new()
    }
}

impl Brig {
    /// An empty module.
    pub fn new() -> Self {
        Self::with_source_len(0)
    }

    /// An empty module with room for the BRIG of about `len` bytes of
    /// HSAIL text (avoids regrowing the sections of big modules).
    pub fn with_source_len(len: usize) -> Self {
        let with = |header: usize, cap: usize| {
            let mut v = Vec::with_capacity(header + cap);
            v.resize(header, 0);
            v
        };
        Brig {
            data: with(DATA_HEADER, len / 2),
            code: with(CODE_HEADER, len),
            operands: with(OPERAND_HEADER, len + len / 2),
            interned: FxMap::default(),
            collisions: FxMap::default(),
        }
    }

    /// Offset the next code entry will get.
    pub fn code_end(&self) -> u32 {
        self.code.len() as u32
    }

    /// Offset the next operand entry will get.
    pub fn operand_end(&self) -> u32 {
        self.operands.len() as u32
    }

    /// The operand section so far (header included).
    pub fn operand_bytes(&self) -> &[u8] {
        &self.operands
    }

    fn push_data(&mut self, bytes: &[u8]) -> u32 {
        let off = self.data.len() as u32;
        self.data
            .extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        self.data.extend_from_slice(bytes);
        let padded = self.data.len().next_multiple_of(4);
        self.data.resize(padded, 0);
        off
    }

    fn blob(&self, off: u32) -> &[u8] {
        let at = off as usize;
        let len = get32(&self.data, at) as usize;
        self.data.get(at + 4..at + 4 + len).unwrap_or(&[])
    }

    /// Add a string or constant bytes, sharing an earlier entry with the
    /// same content.
    pub fn add_data(&mut self, bytes: &[u8]) -> u32 {
        let mut h = FxHasher::default();
        h.write(bytes);
        h.write_usize(bytes.len());
        let h = h.finish();
        match self.interned.get(&h) {
            None => {
                let off = self.push_data(bytes);
                self.interned.insert(h, off);
                off
            }
            Some(&first) => {
                if self.blob(first) == bytes {
                    return first;
                }
                if let Some(v) = self.collisions.get(&h)
                    && let Some(&o) = v.iter().find(|&&o| self.blob(o) == bytes)
                {
                    return o;
                }
                let off = self.push_data(bytes);
                self.collisions.entry(h).or_default().push(off);
                off
            }
        }
    }

    /// Add an operand or code list (offsets), never shared.
    pub fn add_list(&mut self, offsets: &[u32]) -> u32 {
        let off = self.data.len() as u32;
        self.data
            .extend_from_slice(&(offsets.len() as u32 * 4).to_le_bytes());
        for &o in offsets {
            self.data.extend_from_slice(&o.to_le_bytes());
        }
        off
    }

    /// Overwrite element `index` of the list at `list`.
    pub fn set_list_element(&mut self, list: u32, index: usize, value: u32) {
        let at = list as usize + 4 + 4 * index;
        if let Some(s) = self.data.get_mut(at..at + 4) {
            s.copy_from_slice(&value.to_le_bytes());
        }
    }

    /// The elements of the list at `list`.
    pub fn list_elements(&self, list: u32) -> Vec<u32> {
        self.blob(list)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// Append a code entry (its `byte_count` is set from its size).
    pub fn code<T: BrigEntry>(&mut self, mut entry: T) -> u32 {
        entry.brig_base_mut().byte_count = (size_of::<T>() as u16).into();
        let off = self.code.len() as u32;
        self.code.extend_from_slice(entry.as_bytes());
        off
    }

    /// Append an operand entry (its `byte_count` is set from its size).
    pub fn operand<T: BrigEntry>(&mut self, mut entry: T) -> u32 {
        entry.brig_base_mut().byte_count = (size_of::<T>() as u16).into();
        let off = self.operands.len() as u32;
        self.operands.extend_from_slice(entry.as_bytes());
        off
    }

    /// The code entry at `off` as a `T`, for patching.
    pub fn code_at<T: BrigEntry>(&mut self, off: u32) -> Option<&mut T> {
        let b = self.code.get_mut(off as usize..)?;
        T::mut_from_prefix(b).ok().map(|(t, _)| t)
    }

    /// The operand entry at `off` as a `T`, for patching.
    pub fn operand_at<T: BrigEntry>(&mut self, off: u32) -> Option<&mut T> {
        let b = self.operands.get_mut(off as usize..)?;
        T::mut_from_prefix(b).ok().map(|(t, _)| t)
    }

    /// The finished module bytes.
    pub fn finish(self) -> Vec<u8> {
        fn section(out: &mut Vec<u8>, name: &str, mut body: Vec<u8>) {
            let len = body.len() as u64;
            let header = section_header_size(name.len()) as u32;
            body[0..8].copy_from_slice(&len.to_le_bytes());
            body[8..12].copy_from_slice(&header.to_le_bytes());
            body[12..16].copy_from_slice(&(name.len() as u32).to_le_bytes());
            body[16..16 + name.len()].copy_from_slice(name.as_bytes());
            out.extend_from_slice(&body);
            let padded = out.len().next_multiple_of(16);
            out.resize(padded, 0);
        }
        let total = 128 + self.data.len() + self.code.len() + self.operands.len() + 48;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"HSA BRIG");
        out.extend_from_slice(&1u32.to_le_bytes()); // brigMajor
        out.extend_from_slice(&0u32.to_le_bytes()); // brigMinor
        out.extend_from_slice(&0u64.to_le_bytes()); // byteCount, patched below
        out.extend_from_slice(&[0u8; 64]); // hash (HSAILasm leaves it zero)
        out.extend_from_slice(&0u32.to_le_bytes()); // reserved
        out.extend_from_slice(&3u32.to_le_bytes()); // sectionCount
        out.extend_from_slice(&104u64.to_le_bytes()); // sectionIndex
        let index_at = out.len();
        out.extend_from_slice(&[0u8; 24]);
        let d = out.len() as u64;
        section(&mut out, "hsa_data", self.data);
        let c = out.len() as u64;
        section(&mut out, "hsa_code", self.code);
        let o = out.len() as u64;
        section(&mut out, "hsa_operand", self.operands);
        let total = out.len() as u64;
        out[16..24].copy_from_slice(&total.to_le_bytes());
        out[index_at..index_at + 8].copy_from_slice(&d.to_le_bytes());
        out[index_at + 8..index_at + 16].copy_from_slice(&c.to_le_bytes());
        out[index_at + 16..index_at + 24].copy_from_slice(&o.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_sizes_match_hsailasm() {
        assert_eq!(DATA_HEADER, 32);
        assert_eq!(CODE_HEADER, 32);
        assert_eq!(OPERAND_HEADER, 36);
    }

    #[test]
    fn data_sharing() {
        let mut b = Brig::new();
        let a = b.add_data(b"abc");
        let l1 = b.add_list(&[]);
        let l2 = b.add_list(&[]);
        assert_ne!(l1, l2);
        assert_eq!(b.add_data(b"abc"), a);
        let e1 = b.add_data(b"");
        assert_eq!(b.add_data(b""), e1);
        assert_ne!(e1, l1);
    }
}
