//! Bounds-checked access to the three BRIG sections for the printer.
//!
//! The printer follows offsets from entry to entry in any order, so every
//! read here is checked: a bad offset, a truncated entry or an entry too
//! short for its kind becomes a [`Fault`] naming the section and the byte
//! offset, never a panic. Entries are read by their meaning only (offsets
//! and kinds), so BRIG from any producer works, whatever its layout.

/// The BRIG section a fault was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    /// `hsa_data`.
    Data,
    /// `hsa_code`.
    Code,
    /// `hsa_operand`.
    Operand,
}

/// A problem in the BRIG input: the brig crate's error (what, section,
/// offset).
pub(crate) type Fault = brig::BrigError;

/// Result of a checked read.
pub(crate) type R<T> = Result<T, Fault>;

/// Builds a fault at a section-relative offset.
pub(crate) fn fault(section: Section, offset: impl Into<u64>, what: impl Into<String>) -> Fault {
    let index = match section {
        Section::Data => brig::BrigSectionIndex::DATA,
        Section::Code => brig::BrigSectionIndex::CODE,
        Section::Operand => brig::BrigSectionIndex::OPERAND,
    };
    brig::BrigError::in_section(index, offset.into(), what)
}

/// Little-endian field reads from an entry whose size was checked; a read
/// past the end yields zero instead of panicking.
pub(crate) fn rd8(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// See [`rd8`].
pub(crate) fn rd16(b: &[u8], i: usize) -> u16 {
    match b.get(i..i + 2) {
        Some(s) => u16::from_le_bytes([s[0], s[1]]),
        None => 0,
    }
}

/// See [`rd8`].
pub(crate) fn rd32(b: &[u8], i: usize) -> u32 {
    match b.get(i..i + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

/// See [`rd8`].
pub(crate) fn rd64(b: &[u8], i: usize) -> u64 {
    u64::from(rd32(b, i)) | (u64::from(rd32(b, i + 4)) << 32)
}

/// One entry of `hsa_code` or `hsa_operand`: its offset, kind and bytes
/// (exactly `byteCount` long, at least as long as its kind's struct).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<'a> {
    /// Offset in its section.
    pub off: u32,
    /// `BrigKind`.
    pub kind: u16,
    /// The entry's bytes.
    pub b: &'a [u8],
}

impl Entry<'_> {
    /// Offset just past this entry.
    pub(crate) fn end(&self) -> u32 {
        let len = u32::try_from(self.b.len()).unwrap_or(u32::MAX);
        self.off.saturating_add(len)
    }
    pub(crate) fn u8(&self, i: usize) -> u8 {
        rd8(self.b, i)
    }
    pub(crate) fn u16(&self, i: usize) -> u16 {
        rd16(self.b, i)
    }
    pub(crate) fn u32(&self, i: usize) -> u32 {
        rd32(self.b, i)
    }
    pub(crate) fn u64(&self, i: usize) -> u64 {
        rd64(self.b, i)
    }
}

/// The three sections of a BRIG module.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sections<'a> {
    data: &'a [u8],
    code: &'a [u8],
    operand: &'a [u8],
    code_first: u32,
}

impl<'a> Sections<'a> {
    /// The standard sections of a module that the brig crate has checked
    /// (header, section index, and every entry's size and kind).
    pub(crate) fn new(m: &brig::BrigModule<'a>) -> R<Self> {
        let get = |i: brig::BrigSectionIndex| {
            m.section(i)
                .ok_or_else(|| brig::BrigError::at_file(92, "missing standard section"))
        };
        let data = get(brig::BrigSectionIndex::DATA)?;
        let code = get(brig::BrigSectionIndex::CODE)?;
        let operand = get(brig::BrigSectionIndex::OPERAND)?;
        Ok(Sections {
            data: data.bytes,
            code: code.bytes,
            operand: operand.bytes,
            code_first: code.first_entry(),
        })
    }

    /// Offset of the first `hsa_code` entry.
    pub(crate) fn code_first(&self) -> u32 {
        self.code_first
    }

    /// Size of `hsa_code`.
    pub(crate) fn code_len(&self) -> u32 {
        u32::try_from(self.code.len()).unwrap_or(u32::MAX)
    }

    fn entry(&self, section: Section, bytes: &'a [u8], off: u32) -> R<Entry<'a>> {
        let o = off as usize;
        if off < 16 || !off.is_multiple_of(4) || o.saturating_add(4) > bytes.len() {
            return Err(fault(section, off, "entry offset outside the section"));
        }
        let len = usize::from(rd16(bytes, o));
        let kind = rd16(bytes, o + 2);
        let Some(min) = brig::entry_size(brig::BrigKind::new(kind)) else {
            return Err(fault(section, off, format!("unknown entry kind {kind:#x}")));
        };
        if len < min || !len.is_multiple_of(4) || o + len > bytes.len() {
            return Err(fault(
                section,
                off,
                format!("bad byteCount {len} for entry kind {kind:#x}"),
            ));
        }
        Ok(Entry {
            off,
            kind,
            b: &bytes[o..o + len],
        })
    }

    /// The `hsa_code` entry (directive or instruction) at `off`.
    pub(crate) fn code(&self, off: u32) -> R<Entry<'a>> {
        let e = self.entry(Section::Code, self.code, off)?;
        if !(0x1000..0x3000).contains(&e.kind) {
            return Err(fault(
                Section::Code,
                off,
                "entry in hsa_code is not a directive or instruction",
            ));
        }
        Ok(e)
    }

    /// The `hsa_operand` entry at `off`.
    pub(crate) fn operand(&self, off: u32) -> R<Entry<'a>> {
        let e = self.entry(Section::Operand, self.operand, off)?;
        if e.kind < 0x3000 {
            return Err(fault(
                Section::Operand,
                off,
                "non-operand kind in hsa_operand",
            ));
        }
        Ok(e)
    }

    /// The bytes of the `hsa_data` entry at `off` (after its length).
    pub(crate) fn data(&self, off: u32) -> R<&'a [u8]> {
        let o = off as usize;
        if off < 16 || o.saturating_add(4) > self.data.len() {
            return Err(fault(Section::Data, off, "data offset outside the section"));
        }
        let len = rd32(self.data, o) as usize;
        match self.data.get(o + 4..(o + 4).saturating_add(len)) {
            Some(s) => Ok(s),
            None => Err(fault(
                Section::Data,
                off,
                "data entry runs past the section",
            )),
        }
    }

    /// A list of 32-bit offsets stored in `hsa_data` (operand or code list).
    pub(crate) fn offsets(&self, off: u32) -> R<Offsets<'a>> {
        if off == 0 {
            return Ok(Offsets(&[]));
        }
        let b = self.data(off)?;
        if !b.len().is_multiple_of(4) {
            return Err(fault(
                Section::Data,
                off,
                "offset list length not a multiple of 4",
            ));
        }
        Ok(Offsets(b))
    }
}

/// A list of 32-bit section offsets.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Offsets<'a>(&'a [u8]);

impl<'a> Offsets<'a> {
    /// Number of offsets.
    pub(crate) fn len(&self) -> usize {
        self.0.len() / 4
    }
    /// The `i`th offset (0 if out of range).
    pub(crate) fn get(&self, i: usize) -> u32 {
        rd32(self.0, i * 4)
    }
    /// All offsets.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.0
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }
}
