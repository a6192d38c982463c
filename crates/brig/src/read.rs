//! Zero-copy BRIG reader.
//!
//! [`BrigModule::parse`] validates the container in one pass — module header,
//! section index, section headers, and the walk of every entry of `hsa_data`,
//! `hsa_code` and `hsa_operand` to the exact end of its section — so the
//! accessors afterwards only have to check that an offset names an entry
//! start and that the entry has the expected kind. Nothing here panics on
//! arbitrary input; every problem is a [`BrigError`] naming the section and
//! byte offset.

use core::fmt;
use core::mem::size_of;
use std::borrow::Cow;

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::entries::*;
use crate::enums::*;

/// The names of the three standard sections, by [`BrigSectionIndex`].
pub const STANDARD_SECTION_NAMES: [&str; 3] = ["hsa_data", "hsa_code", "hsa_operand"];

/// A malformed BRIG module or a bad reference into one.
///
/// `Display` ends with the location: `… in section hsa_code at offset 0x1c4`
/// (section-relative, as BRIG offsets are) or `… at file offset 0x68` for
/// problems with the module header, section index or a section header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrigError {
    /// The section the offset is relative to; `None` for a file offset.
    pub section: Option<BrigSectionIndex>,
    /// Byte offset (section-relative if `section` is set, else from the
    /// start of the module).
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

impl BrigError {
    /// An error at a byte offset of the module.
    pub fn at_file(offset: u64, message: impl Into<String>) -> Self {
        Self {
            section: None,
            offset,
            message: message.into(),
        }
    }

    /// An error at a section-relative offset.
    pub fn in_section(section: BrigSectionIndex, offset: u64, message: impl Into<String>) -> Self {
        Self {
            section: Some(section),
            offset,
            message: message.into(),
        }
    }

    /// The name of the section (`"hsa_code"`, or `"#4"` for a non-standard one).
    pub fn section_name(&self) -> Option<String> {
        self.section.map(section_display_name)
    }
}

fn section_display_name(s: BrigSectionIndex) -> String {
    match STANDARD_SECTION_NAMES.get(s.raw() as usize) {
        Some(n) => (*n).to_owned(),
        None => format!("#{}", s.raw()),
    }
}

impl fmt::Display for BrigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.section {
            Some(s) => write!(
                f,
                "{} in section {} at offset {:#x}",
                self.message,
                section_display_name(s),
                self.offset
            ),
            None => write!(f, "{} at file offset {:#x}", self.message, self.offset),
        }
    }
}

impl std::error::Error for BrigError {}

/// Result with a [`BrigError`].
pub type Result<T, E = BrigError> = core::result::Result<T, E>;

/// One section of a module: its header, name and bytes.
#[derive(Clone, Copy, Debug)]
pub struct BrigSection<'a> {
    /// Position in the section index.
    pub index: BrigSectionIndex,
    /// Offset of the section from the start of the module.
    pub file_offset: u64,
    /// The fixed part of the section header.
    pub header: &'a BrigSectionHeader,
    /// The name (`name_length` bytes after the fixed header).
    pub name: &'a [u8],
    /// The whole section, header included (`header.byte_count` bytes);
    /// section offsets index into this.
    pub bytes: &'a [u8],
}

impl<'a> BrigSection<'a> {
    /// The name as text (lossy for non-UTF-8 names of non-standard sections).
    pub fn name_str(&self) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.name)
    }

    /// Offset of the first entry (`header_byte_count`).
    pub fn first_entry(&self) -> u32 {
        self.header.header_byte_count.get()
    }

    /// The bytes after the section header.
    pub fn body(&self) -> &'a [u8] {
        self.bytes.get(self.first_entry() as usize..).unwrap_or(&[])
    }
}

/// The least `byte_count` of an entry of `hsa_code` (`code`) or
/// `hsa_operand` by kind, for the kinds `k` with `k & 0xcfe0 == 0`, at
/// index `(k >> 7) & 0x60 | k & 0x1f`: 4 (a `BrigBase`), or the size of
/// the struct of a known kind of the section ([`entry_size`]).
const fn min_entry_sizes(code: bool) -> [u8; 128] {
    let mut t = [4u8; 128];
    let mut i = 0;
    while i < 128 {
        let kind = BrigKind::new(((i & 0x60) << 7 | (i & 0x1f)) as u16);
        let right_section = if code {
            kind.is_code()
        } else {
            kind.is_operand()
        };
        if right_section && let Some(n) = entry_size(kind) {
            assert!(n >= 4 && n < 256);
            t[i] = n as u8;
        }
        i += 1;
    }
    t
}

const MIN_CODE_ENTRY: [u8; 128] = min_entry_sizes(true);
const MIN_OPERAND_ENTRY: [u8; 128] = min_entry_sizes(false);

/// Whether an entry of `hsa_code` (`code`) or `hsa_operand` whose first
/// word (`byte_count`, kind) is `word` is well formed with `room` bytes
/// left in its section: its `byte_count` is a multiple of 4, at least the
/// size of the struct of its kind (for a known kind of the section) and
/// at most `room`: what the walks of [`BrigModule::parse`] check of each
/// entry, and [`crate::BrigWriter`] of each entry it appends.
#[inline(always)]
pub(crate) fn entry_fits(code: bool, word: u32, room: usize) -> bool {
    let bc = (word & 0xffff) as usize;
    let kind = word >> 16;
    let min = if kind & 0xcfe0 == 0 {
        let need = if code {
            &MIN_CODE_ENTRY
        } else {
            &MIN_OPERAND_ENTRY
        };
        need[((kind >> 7) & 0x60 | (kind & 0x1f)) as usize]
    } else {
        4
    };
    bc >= usize::from(min) && bc & 3 == 0 && bc <= room
}

/// A validated, borrowed BRIG module.
#[derive(Clone, Debug)]
pub struct BrigModule<'a> {
    bytes: &'a [u8],
    header: &'a BrigModuleHeader,
    sections: Vec<BrigSection<'a>>,
    /// The bytes of hsa_data, hsa_code, hsa_operand (as in `sections`).
    std: [&'a [u8]; 3],
    /// Entry starts of hsa_data, hsa_code, hsa_operand.
    starts: [EntryStarts<'a>; 3],
}

/// The entry starts of one section: in file order (to iterate) and as one
/// bit per 4-byte word (to check a reference in constant time; every entry
/// starts on a multiple of 4).
#[derive(Clone, Debug, Default)]
struct EntryStarts<'a> {
    /// Found by a walk (owned) or recorded by the producer (borrowed).
    offsets: Cow<'a, [u32]>,
    words: Vec<u64>,
}

impl<'a> EntryStarts<'a> {
    /// Empty starts for a section of `section_len` bytes.
    fn with_len(section_len: usize) -> Self {
        Self {
            offsets: Cow::Owned(Vec::with_capacity(section_len / 16)),
            words: vec![0u64; section_len.div_ceil(4 * 64)],
        }
    }

    /// The starts `offsets` of the entries of `sec` (section `which`) as
    /// their producer recorded them, if they are exactly the ones a walk
    /// finds: the first at the end of the section header, each entry well
    /// formed (as the walk checks it) and ending where the next starts,
    /// the last at the section end. Cheaper than the walk: the offsets are
    /// only checked, not collected.
    fn recorded(
        offsets: &'a [u32],
        sec: &BrigSection<'a>,
        which: BrigSectionIndex,
        check: bool,
    ) -> Option<Self> {
        let b = sec.bytes;
        let end = b.len();
        if !check && which != CODE {
            // A trusted producer's references into hsa_data and
            // hsa_operand are right by construction: every aligned offset
            // of the entries counts as a start, which spares a bitmap
            // built from a million offsets (the code starts stay exact:
            // they tell the kinds of references apart).
            return Some(Self {
                offsets: Cow::Borrowed(offsets),
                words: aligned_words(sec.first_entry() as usize, end),
            });
        }
        let mut words = vec![0u64; end.div_ceil(4 * 64)];
        if !check {
            // The bits of one bitmap word are gathered before it is
            // written: recorded offsets increase, so each word is written
            // about once (any order still gives the right bitmap).
            let (mut cur, mut acc) = (0usize, 0u64);
            for &o in offsets {
                let w = o as usize / (4 * 64);
                if w != cur {
                    *words.get_mut(cur)? |= acc;
                    (cur, acc) = (w, 0);
                }
                acc |= 1 << (o / 4 % 64);
            }
            if acc != 0 {
                *words.get_mut(cur)? |= acc;
            }
            return Some(Self {
                offsets: Cow::Borrowed(offsets),
                words,
            });
        }
        let mut expect = sec.first_entry() as usize;
        let (data, code) = (which == DATA, which == CODE);
        for &o in offsets {
            let at = o as usize;
            if at != expect {
                return None;
            }
            let h = b.get(at..at + 4)?;
            let word = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
            expect = if data {
                let size = (word as usize).div_ceil(4).checked_mul(4)?.checked_add(4)?;
                if size > end - at {
                    return None;
                }
                at + size
            } else if entry_fits(code, word, end - at) {
                at + (word & 0xffff) as usize
            } else {
                return None;
            };
            // `at < end`, so the word is in `words`.
            words[at / (4 * 64)] |= 1 << (at / 4 % 64);
        }
        (expect == end).then_some(Self {
            offsets: Cow::Borrowed(offsets),
            words,
        })
    }

    /// Records an entry start (`offset` is a multiple of 4 within the
    /// section, larger than the previous one).
    #[inline]
    fn push(&mut self, offset: u32) {
        let w = (offset / 4) as usize;
        if let Some(word) = self.words.get_mut(w / 64) {
            *word |= 1 << (w % 64);
        }
        self.offsets.to_mut().push(offset);
    }

    #[inline]
    fn contains(&self, offset: u32) -> bool {
        let w = (offset / 4) as usize;
        offset.is_multiple_of(4)
            && self
                .words
                .get(w / 64)
                .is_some_and(|b| b >> (w % 64) & 1 != 0)
    }
}

/// A start bitmap with a bit for every 4-byte word from `first` to `end`
/// (see [`EntryStarts::recorded`]).
fn aligned_words(first: usize, end: usize) -> Vec<u64> {
    let mut words = vec![u64::MAX; end.div_ceil(4 * 64)];
    for w in (0..first.min(end)).step_by(4) {
        words[w / (4 * 64)] &= !(1 << (w / 4 % 64));
    }
    for w in (end.next_multiple_of(4)..words.len() * 4 * 64).step_by(4) {
        words[w / (4 * 64)] &= !(1 << (w / 4 % 64));
    }
    words
}

/// An `hsa_code` entry, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Code<'a> {
    DirectiveArgBlockEnd(&'a BrigDirectiveArgBlock),
    DirectiveArgBlockStart(&'a BrigDirectiveArgBlock),
    DirectiveComment(&'a BrigDirectiveComment),
    DirectiveControl(&'a BrigDirectiveControl),
    DirectiveExtension(&'a BrigDirectiveExtension),
    DirectiveFbarrier(&'a BrigDirectiveFbarrier),
    DirectiveFunction(&'a BrigDirectiveExecutable),
    DirectiveIndirectFunction(&'a BrigDirectiveExecutable),
    DirectiveKernel(&'a BrigDirectiveExecutable),
    DirectiveLabel(&'a BrigDirectiveLabel),
    DirectiveLoc(&'a BrigDirectiveLoc),
    DirectiveModule(&'a BrigDirectiveModule),
    DirectiveNone(&'a BrigDirectiveNone),
    DirectivePragma(&'a BrigDirectivePragma),
    DirectiveSignature(&'a BrigDirectiveExecutable),
    DirectiveVariable(&'a BrigDirectiveVariable),
    InstAddr(&'a BrigInstAddr),
    InstAtomic(&'a BrigInstAtomic),
    InstBasic(&'a BrigInstBasic),
    InstBr(&'a BrigInstBr),
    InstCmp(&'a BrigInstCmp),
    InstCvt(&'a BrigInstCvt),
    InstImage(&'a BrigInstImage),
    InstLane(&'a BrigInstLane),
    InstMem(&'a BrigInstMem),
    InstMemFence(&'a BrigInstMemFence),
    InstMod(&'a BrigInstMod),
    InstQueryImage(&'a BrigInstQueryImage),
    InstQuerySampler(&'a BrigInstQuerySampler),
    InstQueue(&'a BrigInstQueue),
    InstSeg(&'a BrigInstSeg),
    InstSegCvt(&'a BrigInstSegCvt),
    InstSignal(&'a BrigInstSignal),
    InstSourceType(&'a BrigInstSourceType),
    /// A kind this crate does not know (or an operand kind in `hsa_code`).
    Unknown(&'a BrigBase),
}

/// An `hsa_operand` entry, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Operand<'a> {
    Address(&'a BrigOperandAddress),
    Align(&'a BrigOperandAlign),
    CodeList(&'a BrigOperandCodeList),
    CodeRef(&'a BrigOperandCodeRef),
    ConstantBytes(&'a BrigOperandConstantBytes),
    ConstantImage(&'a BrigOperandConstantImage),
    ConstantOperandList(&'a BrigOperandConstantOperandList),
    ConstantSampler(&'a BrigOperandConstantSampler),
    OperandList(&'a BrigOperandOperandList),
    Register(&'a BrigOperandRegister),
    String(&'a BrigOperandString),
    Wavesize(&'a BrigOperandWavesize),
    /// A kind this crate does not know (`OPERAND_RESERVED` included, or a
    /// code kind in `hsa_operand`).
    Unknown(&'a BrigBase),
}

macro_rules! view {
    ($bytes:expr, $t:ty) => {
        match <$t>::ref_from_prefix($bytes) {
            Ok((r, _)) => r,
            Err(_) => return None,
        }
    };
}

impl<'a> Code<'a> {
    /// Views `bytes` (an entry whose `byte_count` was validated to cover the
    /// struct of its kind) as a code entry.
    fn from_bytes(bytes: &'a [u8]) -> Option<Self> {
        let base = view!(bytes, BrigBase);
        Some(match base.kind {
            BrigKind::NONE => Code::DirectiveNone(view!(bytes, BrigDirectiveNone)),
            BrigKind::DIRECTIVE_ARG_BLOCK_END => {
                Code::DirectiveArgBlockEnd(view!(bytes, BrigDirectiveArgBlock))
            }
            BrigKind::DIRECTIVE_ARG_BLOCK_START => {
                Code::DirectiveArgBlockStart(view!(bytes, BrigDirectiveArgBlock))
            }
            BrigKind::DIRECTIVE_COMMENT => {
                Code::DirectiveComment(view!(bytes, BrigDirectiveComment))
            }
            BrigKind::DIRECTIVE_CONTROL => {
                Code::DirectiveControl(view!(bytes, BrigDirectiveControl))
            }
            BrigKind::DIRECTIVE_EXTENSION => {
                Code::DirectiveExtension(view!(bytes, BrigDirectiveExtension))
            }
            BrigKind::DIRECTIVE_FBARRIER => {
                Code::DirectiveFbarrier(view!(bytes, BrigDirectiveFbarrier))
            }
            BrigKind::DIRECTIVE_FUNCTION => {
                Code::DirectiveFunction(view!(bytes, BrigDirectiveExecutable))
            }
            BrigKind::DIRECTIVE_INDIRECT_FUNCTION => {
                Code::DirectiveIndirectFunction(view!(bytes, BrigDirectiveExecutable))
            }
            BrigKind::DIRECTIVE_KERNEL => {
                Code::DirectiveKernel(view!(bytes, BrigDirectiveExecutable))
            }
            BrigKind::DIRECTIVE_LABEL => Code::DirectiveLabel(view!(bytes, BrigDirectiveLabel)),
            BrigKind::DIRECTIVE_LOC => Code::DirectiveLoc(view!(bytes, BrigDirectiveLoc)),
            BrigKind::DIRECTIVE_MODULE => Code::DirectiveModule(view!(bytes, BrigDirectiveModule)),
            BrigKind::DIRECTIVE_PRAGMA => Code::DirectivePragma(view!(bytes, BrigDirectivePragma)),
            BrigKind::DIRECTIVE_SIGNATURE => {
                Code::DirectiveSignature(view!(bytes, BrigDirectiveExecutable))
            }
            BrigKind::DIRECTIVE_VARIABLE => {
                Code::DirectiveVariable(view!(bytes, BrigDirectiveVariable))
            }
            BrigKind::INST_ADDR => Code::InstAddr(view!(bytes, BrigInstAddr)),
            BrigKind::INST_ATOMIC => Code::InstAtomic(view!(bytes, BrigInstAtomic)),
            BrigKind::INST_BASIC => Code::InstBasic(view!(bytes, BrigInstBasic)),
            BrigKind::INST_BR => Code::InstBr(view!(bytes, BrigInstBr)),
            BrigKind::INST_CMP => Code::InstCmp(view!(bytes, BrigInstCmp)),
            BrigKind::INST_CVT => Code::InstCvt(view!(bytes, BrigInstCvt)),
            BrigKind::INST_IMAGE => Code::InstImage(view!(bytes, BrigInstImage)),
            BrigKind::INST_LANE => Code::InstLane(view!(bytes, BrigInstLane)),
            BrigKind::INST_MEM => Code::InstMem(view!(bytes, BrigInstMem)),
            BrigKind::INST_MEM_FENCE => Code::InstMemFence(view!(bytes, BrigInstMemFence)),
            BrigKind::INST_MOD => Code::InstMod(view!(bytes, BrigInstMod)),
            BrigKind::INST_QUERY_IMAGE => Code::InstQueryImage(view!(bytes, BrigInstQueryImage)),
            BrigKind::INST_QUERY_SAMPLER => {
                Code::InstQuerySampler(view!(bytes, BrigInstQuerySampler))
            }
            BrigKind::INST_QUEUE => Code::InstQueue(view!(bytes, BrigInstQueue)),
            BrigKind::INST_SEG => Code::InstSeg(view!(bytes, BrigInstSeg)),
            BrigKind::INST_SEG_CVT => Code::InstSegCvt(view!(bytes, BrigInstSegCvt)),
            BrigKind::INST_SIGNAL => Code::InstSignal(view!(bytes, BrigInstSignal)),
            BrigKind::INST_SOURCE_TYPE => Code::InstSourceType(view!(bytes, BrigInstSourceType)),
            _ => Code::Unknown(base),
        })
    }

    /// Views the bytes of an `hsa_code` entry (its `byte_count` bytes, as
    /// [`BrigModule::code_bytes`] returns them) as what
    /// [`BrigModule::code`] returns; `None` when they are too small for
    /// the entry's kind.
    #[inline]
    pub fn decode(bytes: &'a [u8]) -> Option<Self> {
        Self::from_bytes(bytes)
    }

    /// The entry's [`BrigBase`].
    #[inline]
    pub fn base(&self) -> &'a BrigBase {
        match *self {
            Code::DirectiveArgBlockEnd(e) | Code::DirectiveArgBlockStart(e) => &e.base,
            Code::DirectiveComment(e) => &e.base,
            Code::DirectiveControl(e) => &e.base,
            Code::DirectiveExtension(e) => &e.base,
            Code::DirectiveFbarrier(e) => &e.base,
            Code::DirectiveFunction(e)
            | Code::DirectiveIndirectFunction(e)
            | Code::DirectiveKernel(e)
            | Code::DirectiveSignature(e) => &e.base,
            Code::DirectiveLabel(e) => &e.base,
            Code::DirectiveLoc(e) => &e.base,
            Code::DirectiveModule(e) => &e.base,
            Code::DirectiveNone(e) => &e.base,
            Code::DirectivePragma(e) => &e.base,
            Code::DirectiveVariable(e) => &e.base,
            Code::Unknown(b) => b,
            Code::InstAddr(i) => &i.base.base,
            Code::InstAtomic(i) => &i.base.base,
            Code::InstBasic(i) => &i.base.base,
            Code::InstBr(i) => &i.base.base,
            Code::InstCmp(i) => &i.base.base,
            Code::InstCvt(i) => &i.base.base,
            Code::InstImage(i) => &i.base.base,
            Code::InstLane(i) => &i.base.base,
            Code::InstMem(i) => &i.base.base,
            Code::InstMemFence(i) => &i.base.base,
            Code::InstMod(i) => &i.base.base,
            Code::InstQueryImage(i) => &i.base.base,
            Code::InstQuerySampler(i) => &i.base.base,
            Code::InstQueue(i) => &i.base.base,
            Code::InstSeg(i) => &i.base.base,
            Code::InstSegCvt(i) => &i.base.base,
            Code::InstSignal(i) => &i.base.base,
            Code::InstSourceType(i) => &i.base.base,
        }
    }

    /// The entry kind.
    #[inline]
    pub fn kind(&self) -> BrigKind {
        self.base().kind
    }

    /// The common instruction part, if this is an instruction.
    #[inline]
    pub fn inst(&self) -> Option<&'a BrigInstBase> {
        Some(match *self {
            Code::InstAddr(i) => &i.base,
            Code::InstAtomic(i) => &i.base,
            Code::InstBasic(i) => &i.base,
            Code::InstBr(i) => &i.base,
            Code::InstCmp(i) => &i.base,
            Code::InstCvt(i) => &i.base,
            Code::InstImage(i) => &i.base,
            Code::InstLane(i) => &i.base,
            Code::InstMem(i) => &i.base,
            Code::InstMemFence(i) => &i.base,
            Code::InstMod(i) => &i.base,
            Code::InstQueryImage(i) => &i.base,
            Code::InstQuerySampler(i) => &i.base,
            Code::InstQueue(i) => &i.base,
            Code::InstSeg(i) => &i.base,
            Code::InstSegCvt(i) => &i.base,
            Code::InstSignal(i) => &i.base,
            Code::InstSourceType(i) => &i.base,
            _ => return None,
        })
    }

    /// The executable directive, for kernels, functions, indirect functions
    /// and signatures.
    pub fn executable(&self) -> Option<&'a BrigDirectiveExecutable> {
        match *self {
            Code::DirectiveFunction(e)
            | Code::DirectiveIndirectFunction(e)
            | Code::DirectiveKernel(e)
            | Code::DirectiveSignature(e) => Some(e),
            _ => None,
        }
    }
}

impl<'a> Operand<'a> {
    #[inline]
    fn from_bytes(bytes: &'a [u8]) -> Option<Self> {
        let base = view!(bytes, BrigBase);
        Some(match base.kind {
            BrigKind::OPERAND_ADDRESS => Operand::Address(view!(bytes, BrigOperandAddress)),
            BrigKind::OPERAND_ALIGN => Operand::Align(view!(bytes, BrigOperandAlign)),
            BrigKind::OPERAND_CODE_LIST => Operand::CodeList(view!(bytes, BrigOperandCodeList)),
            BrigKind::OPERAND_CODE_REF => Operand::CodeRef(view!(bytes, BrigOperandCodeRef)),
            BrigKind::OPERAND_CONSTANT_BYTES => {
                Operand::ConstantBytes(view!(bytes, BrigOperandConstantBytes))
            }
            BrigKind::OPERAND_CONSTANT_IMAGE => {
                Operand::ConstantImage(view!(bytes, BrigOperandConstantImage))
            }
            BrigKind::OPERAND_CONSTANT_OPERAND_LIST => {
                Operand::ConstantOperandList(view!(bytes, BrigOperandConstantOperandList))
            }
            BrigKind::OPERAND_CONSTANT_SAMPLER => {
                Operand::ConstantSampler(view!(bytes, BrigOperandConstantSampler))
            }
            BrigKind::OPERAND_OPERAND_LIST => {
                Operand::OperandList(view!(bytes, BrigOperandOperandList))
            }
            BrigKind::OPERAND_REGISTER => Operand::Register(view!(bytes, BrigOperandRegister)),
            BrigKind::OPERAND_STRING => Operand::String(view!(bytes, BrigOperandString)),
            BrigKind::OPERAND_WAVESIZE => Operand::Wavesize(view!(bytes, BrigOperandWavesize)),
            _ => Operand::Unknown(base),
        })
    }

    /// Views the bytes of an `hsa_operand` entry (as
    /// [`BrigModule::operand_bytes`] returns them) as what
    /// [`BrigModule::operand`] returns; `None` when they are too small for
    /// the entry's kind.
    #[inline]
    pub fn decode(bytes: &'a [u8]) -> Option<Self> {
        Self::from_bytes(bytes)
    }

    /// The entry's [`BrigBase`].
    #[inline]
    pub fn base(&self) -> &'a BrigBase {
        match *self {
            Operand::Address(e) => &e.base,
            Operand::Align(e) => &e.base,
            Operand::CodeList(e) => &e.base,
            Operand::CodeRef(e) => &e.base,
            Operand::ConstantBytes(e) => &e.base,
            Operand::ConstantImage(e) => &e.base,
            Operand::ConstantOperandList(e) => &e.base,
            Operand::ConstantSampler(e) => &e.base,
            Operand::OperandList(e) => &e.base,
            Operand::Register(e) => &e.base,
            Operand::String(e) => &e.base,
            Operand::Wavesize(e) => &e.base,
            Operand::Unknown(b) => b,
        }
    }

    /// The entry kind.
    #[inline]
    pub fn kind(&self) -> BrigKind {
        self.base().kind
    }
}

/// An empty list of entry offsets with room for every entry of `bytes`
/// bytes of entries (at least 4 bytes each), so the walks never grow it;
/// not zeroed: only the pages written are touched.
fn entry_offsets(bytes: usize) -> Vec<u32> {
    Vec::with_capacity(bytes / 4 + 1)
}

const DATA: BrigSectionIndex = BrigSectionIndex::DATA;
const CODE: BrigSectionIndex = BrigSectionIndex::CODE;
const OPERAND: BrigSectionIndex = BrigSectionIndex::OPERAND;

fn read_u64(bytes: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let b = bytes.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    let mut a = [0u8; 4];
    a.copy_from_slice(b);
    Some(u32::from_le_bytes(a))
}

impl<'a> BrigModule<'a> {
    /// Validates `bytes` as a BRIG 1.0 module (see the module docs for what
    /// is checked) and returns a reader over it.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let (header, _) = BrigModuleHeader::ref_from_prefix(bytes).map_err(|_| {
            BrigError::at_file(
                0,
                format!(
                    "module of {} bytes is shorter than the {}-byte BrigModuleHeader",
                    bytes.len(),
                    size_of::<BrigModuleHeader>()
                ),
            )
        })?;
        if header.identification != BrigModuleHeader::MAGIC {
            return Err(BrigError::at_file(
                0,
                format!(
                    "bad identification {:?}, expected \"HSA BRIG\"",
                    String::from_utf8_lossy(&header.identification)
                ),
            ));
        }
        if header.brig_major.get() != 1 || header.brig_minor.get() != 0 {
            return Err(BrigError::at_file(
                8,
                format!(
                    "unsupported BRIG version {}.{}, expected 1.0",
                    header.brig_major.get(),
                    header.brig_minor.get()
                ),
            ));
        }
        let byte_count = header.byte_count.get();
        if byte_count > bytes.len() as u64 {
            return Err(BrigError::at_file(
                16,
                format!(
                    "module byte_count {:#x} exceeds the {:#x} bytes available (truncated?)",
                    byte_count,
                    bytes.len()
                ),
            ));
        }
        if byte_count < size_of::<BrigModuleHeader>() as u64 {
            return Err(BrigError::at_file(
                16,
                format!("module byte_count {byte_count:#x} is smaller than the module header"),
            ));
        }
        let bytes = &bytes[..byte_count as usize];
        let section_count = header.section_count.get();
        if section_count < 3 {
            return Err(BrigError::at_file(
                92,
                format!("section_count {section_count} is less than the 3 standard sections"),
            ));
        }
        let index = header.section_index.get();
        if index % 8 != 0 {
            return Err(BrigError::at_file(
                96,
                format!("section_index {index:#x} is not 8-byte aligned"),
            ));
        }
        let index_end = u64::from(section_count)
            .checked_mul(8)
            .and_then(|n| n.checked_add(index))
            .filter(|&end| end <= byte_count);
        if index < size_of::<BrigModuleHeader>() as u64 || index_end.is_none() {
            return Err(BrigError::at_file(
                96,
                format!(
                    "section index at {index:#x} with {section_count} entries is not within the module \
                     ({byte_count:#x} bytes, after the header)"
                ),
            ));
        }

        let mut sections = Vec::with_capacity(section_count.min(64) as usize);
        for i in 0..section_count {
            let entry_at = index + u64::from(i) * 8;
            let sec_off = read_u64(bytes, entry_at)
                .ok_or_else(|| BrigError::at_file(entry_at, "section index entry out of bounds"))?;
            sections.push(Self::parse_section_header(bytes, i, entry_at, sec_off)?);
        }

        Self::with_sections(bytes, header, sections)
    }

    /// Walks the entries of the standard sections and makes the module.
    fn with_sections(
        bytes: &'a [u8],
        header: &'a BrigModuleHeader,
        sections: Vec<BrigSection<'a>>,
    ) -> Result<Self> {
        let starts = [
            Self::walk_data(&sections[0])?,
            Self::walk_entries(&sections[1], CODE)?,
            Self::walk_entries(&sections[2], OPERAND)?,
        ];
        let std = [sections[0].bytes, sections[1].bytes, sections[2].bytes];
        Ok(Self {
            bytes,
            header,
            sections,
            std,
            starts,
        })
    }

    /// A reader over a module whose sections are separate buffers (each
    /// one whole section, header included, as `BrigWriter` builds them),
    /// checked as [`parse`](Self::parse) checks a module file: lets a
    /// producer validate what it is about to write without first laying
    /// the module out in one buffer. The sections get the file offsets
    /// `BrigWriter` would give them. Such a module has no bytes of its own
    /// ([`bytes`](Self::bytes) is empty) and its [`header`](Self::header)
    /// holds only the identification and version.
    ///
    /// # Errors
    /// As [`parse`](Self::parse), for fewer than 3 sections, a bad section
    /// header or an entry walk that does not end at its section end.
    pub fn from_sections(sections: &[&'a [u8]]) -> Result<Self> {
        let (header, out) = Self::view_sections(sections)?;
        Self::with_sections(&[], header, out)
    }

    /// [`from_sections`](Self::from_sections) with the entry starts of the
    /// three standard sections as their producer recorded them (in order),
    /// checked instead of found by walking the sections: for
    /// [`crate::BrigWriter`]. `None` if the sections are malformed or the
    /// starts are not exactly the ones the walks find; `from_sections`
    /// then says what is wrong.
    pub fn from_recorded_sections(sections: &[&'a [u8]], starts: [&'a [u32]; 3]) -> Option<Self> {
        Self::with_recorded_starts(sections, starts, true)
    }

    /// [`from_recorded_sections`](Self::from_recorded_sections) without
    /// checking the entries at the starts (`check` false): for
    /// [`crate::BrigWriter::trusted_module`], whose entries were checked
    /// as they were appended. Such a module takes every aligned offset of
    /// `hsa_data` and `hsa_operand` past the section header for an entry
    /// start (the producer's references are right by construction). A
    /// wrong start or reference makes wrong answers, never a panic.
    pub(crate) fn with_recorded_starts(
        sections: &[&'a [u8]],
        starts: [&'a [u32]; 3],
        check: bool,
    ) -> Option<Self> {
        let (header, sections) = Self::view_sections(sections).ok()?;
        let std = [sections[0].bytes, sections[1].bytes, sections[2].bytes];
        let starts = [
            EntryStarts::recorded(starts[0], &sections[0], DATA, check)?,
            EntryStarts::recorded(starts[1], &sections[1], CODE, check)?,
            EntryStarts::recorded(starts[2], &sections[2], OPERAND, check)?,
        ];
        Some(Self {
            bytes: &[],
            header,
            sections,
            std,
            starts,
        })
    }

    /// The synthetic module header and the checked section views of
    /// [`from_sections`](Self::from_sections).
    fn view_sections(
        sections: &[&'a [u8]],
    ) -> Result<(&'static BrigModuleHeader, Vec<BrigSection<'a>>)> {
        static HEADER: [u8; size_of::<BrigModuleHeader>()] = {
            let mut h = [0u8; size_of::<BrigModuleHeader>()];
            let magic = *b"HSA BRIG";
            let mut i = 0;
            while i < 8 {
                h[i] = magic[i];
                i += 1;
            }
            h[8] = 1;
            h
        };
        let header = BrigModuleHeader::ref_from_bytes(&HEADER[..])
            .map_err(|_| BrigError::at_file(0, "bad synthetic module header"))?;
        if sections.len() < 3 {
            return Err(BrigError::at_file(
                92,
                format!(
                    "section_count {} is less than the 3 standard sections",
                    sections.len()
                ),
            ));
        }
        let fixed = size_of::<BrigSectionHeader>();
        let mut file_offset =
            (size_of::<BrigModuleHeader>() + 8 * sections.len()).div_ceil(16) * 16;
        let mut out = Vec::with_capacity(sections.len());
        for (i, &sec) in sections.iter().enumerate() {
            let what = match STANDARD_SECTION_NAMES.get(i) {
                Some(n) => format!("section {n}"),
                None => format!("section #{i}"),
            };
            let bad = |m: String| BrigError::at_file(file_offset as u64, format!("{what} {m}"));
            let (sh, _) = BrigSectionHeader::ref_from_prefix(sec)
                .map_err(|_| bad("header is truncated".to_owned()))?;
            let sbc = sh.byte_count.get();
            if sbc != sec.len() as u64 {
                return Err(bad(format!(
                    "byte_count {sbc:#x} is not its size {:#x}",
                    sec.len()
                )));
            }
            let hbc = sh.header_byte_count.get() as usize;
            let name_len = sh.name_length.get() as usize;
            if hbc > sec.len()
                || hbc < fixed + name_len
                || !hbc.is_multiple_of(4)
                || !sec.len().is_multiple_of(4)
            {
                return Err(bad(format!("header_byte_count {hbc:#x} is malformed")));
            }
            let name = &sec[fixed..fixed + name_len];
            if let Some(expected) = STANDARD_SECTION_NAMES.get(i)
                && name != expected.as_bytes()
            {
                return Err(bad(format!(
                    "is named {:?}, expected {expected:?}",
                    String::from_utf8_lossy(name)
                )));
            }
            out.push(BrigSection {
                index: BrigSectionIndex::new(i as u32),
                file_offset: file_offset as u64,
                header: sh,
                name,
                bytes: sec,
            });
            file_offset = (file_offset + sec.len()).div_ceil(16) * 16;
        }
        Ok((header, out))
    }

    fn parse_section_header(
        bytes: &'a [u8],
        i: u32,
        entry_at: u64,
        sec_off: u64,
    ) -> Result<BrigSection<'a>> {
        let what = match STANDARD_SECTION_NAMES.get(i as usize) {
            Some(n) => format!("section {n}"),
            None => format!("section #{i}"),
        };
        if !sec_off.is_multiple_of(16) {
            return Err(BrigError::at_file(
                entry_at,
                format!("{what} offset {sec_off:#x} is not 16-byte aligned"),
            ));
        }
        let fixed = size_of::<BrigSectionHeader>() as u64;
        if sec_off < size_of::<BrigModuleHeader>() as u64
            || sec_off
                .checked_add(fixed)
                .is_none_or(|e| e > bytes.len() as u64)
        {
            return Err(BrigError::at_file(
                entry_at,
                format!("{what} offset {sec_off:#x} is outside the module"),
            ));
        }
        let start = sec_off as usize;
        let (sh, _) = BrigSectionHeader::ref_from_prefix(&bytes[start..])
            .map_err(|_| BrigError::at_file(sec_off, format!("{what} header is truncated")))?;
        let sbc = sh.byte_count.get();
        if sbc > (bytes.len() - start) as u64 {
            return Err(BrigError::at_file(
                sec_off,
                format!("{what} byte_count {sbc:#x} runs past the end of the module"),
            ));
        }
        let hbc = u64::from(sh.header_byte_count.get());
        let name_len = u64::from(sh.name_length.get());
        if hbc > sbc || hbc < fixed + name_len {
            return Err(BrigError::at_file(
                sec_off + 8,
                format!(
                    "{what} header_byte_count {hbc:#x} is not between 16 + name_length ({}) and \
                     byte_count ({sbc:#x})",
                    fixed + name_len
                ),
            ));
        }
        let sec = &bytes[start..start + sbc as usize];
        let name = &sec[fixed as usize..(fixed + name_len) as usize];
        if let Some(expected) = STANDARD_SECTION_NAMES.get(i as usize) {
            if name != expected.as_bytes() {
                return Err(BrigError::at_file(
                    sec_off + fixed,
                    format!(
                        "section {i} is named {:?}, expected {expected:?}",
                        String::from_utf8_lossy(name)
                    ),
                ));
            }
            if hbc % 4 != 0 || sbc % 4 != 0 {
                return Err(BrigError::at_file(
                    sec_off,
                    format!(
                        "{what} byte_count {sbc:#x} or header_byte_count {hbc:#x} is not a multiple of 4"
                    ),
                ));
            }
        }
        Ok(BrigSection {
            index: BrigSectionIndex::new(i),
            file_offset: sec_off,
            header: sh,
            name,
            bytes: sec,
        })
    }

    fn walk_data(sec: &BrigSection<'a>) -> Result<EntryStarts<'a>> {
        match Self::walk_data_fast(sec) {
            Some(starts) => Ok(starts),
            None => Self::walk_data_checked(sec),
        }
    }

    /// [`Self::walk_data`] for a well-formed section, in one tight loop
    /// (as [`Self::walk_entries_fast`]).
    fn walk_data_fast(sec: &BrigSection<'a>) -> Option<EntryStarts<'a>> {
        let b = sec.bytes;
        let end = b.len();
        let first = sec.first_entry() as usize;
        let mut offsets = entry_offsets(end.saturating_sub(first));
        let mut at = first;
        while at < end {
            let h = b.get(at..at + 4)?;
            let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
            let total = len.div_ceil(4).checked_mul(4)?.checked_add(4)?;
            if total > end - at {
                return None;
            }
            offsets.push(at as u32);
            at += total;
        }
        offsets.shrink_to_fit();
        let mut words = vec![0u64; end.div_ceil(4 * 64)];
        for &o in &offsets {
            let w = (o / 4) as usize;
            *words.get_mut(w / 64)? |= 1 << (w % 64);
        }
        Some(EntryStarts {
            offsets: Cow::Owned(offsets),
            words,
        })
    }

    fn walk_data_checked(sec: &BrigSection<'a>) -> Result<EntryStarts<'a>> {
        let mut starts = EntryStarts::with_len(sec.bytes.len());
        let end = sec.bytes.len();
        let mut at = sec.first_entry() as usize;
        while at < end {
            let len = read_u32(sec.bytes, at).ok_or_else(|| {
                BrigError::in_section(DATA, at as u64, "BrigData length runs past the section end")
            })?;
            let total = (len as u64).div_ceil(4) * 4 + 4;
            if total > (end - at) as u64 {
                return Err(BrigError::in_section(
                    DATA,
                    at as u64,
                    format!("BrigData of {len} bytes runs past the section end ({end:#x})"),
                ));
            }
            starts.push(at as u32);
            at += total as usize;
        }
        Ok(starts)
    }

    /// Walks the entries of `hsa_code` or `hsa_operand` (`which`): every
    /// entry has a `byte_count` that is a multiple of 4, at least the size
    /// of the struct of its kind (for a known kind of the section) and
    /// within the section.
    fn walk_entries(sec: &BrigSection<'a>, which: BrigSectionIndex) -> Result<EntryStarts<'a>> {
        match Self::walk_entries_fast(sec, which) {
            Some(starts) => Ok(starts),
            None => Self::walk_entries_checked(sec, which),
        }
    }

    /// [`Self::walk_entries`] for a well-formed section, in one tight
    /// loop; `None` at the first problem (which
    /// [`Self::walk_entries_checked`] then reports).
    fn walk_entries_fast(
        sec: &BrigSection<'a>,
        which: BrigSectionIndex,
    ) -> Option<EntryStarts<'a>> {
        let b = sec.bytes;
        let end = b.len();
        let first = sec.first_entry() as usize;
        let code = which == CODE;
        let mut offsets = entry_offsets(end.saturating_sub(first));
        let mut words = vec![0u64; end.div_ceil(4 * 64)];
        let mut at = first;
        while at < end {
            let h = b.get(at..at + 4)?;
            let word = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
            if !entry_fits(code, word, end - at) {
                return None;
            }
            offsets.push(at as u32);
            let w = at / 4;
            *words.get_mut(w / 64)? |= 1 << (w % 64);
            at += (word & 0xffff) as usize;
        }
        offsets.shrink_to_fit();
        Some(EntryStarts {
            offsets: Cow::Owned(offsets),
            words,
        })
    }

    fn walk_entries_checked(
        sec: &BrigSection<'a>,
        which: BrigSectionIndex,
    ) -> Result<EntryStarts<'a>> {
        let mut starts = EntryStarts::with_len(sec.bytes.len());
        let end = sec.bytes.len();
        let mut at = sec.first_entry() as usize;
        while at < end {
            let Ok((base, _)) = BrigBase::ref_from_prefix(&sec.bytes[at..]) else {
                return Err(BrigError::in_section(
                    which,
                    at as u64,
                    format!(
                        "{} bytes left at the section end, too few for a BrigBase",
                        end - at
                    ),
                ));
            };
            let bc = base.byte_count.get() as usize;
            if bc < size_of::<BrigBase>() || !bc.is_multiple_of(4) {
                return Err(BrigError::in_section(
                    which,
                    at as u64,
                    format!(
                        "entry of kind {:?} has byte_count {bc}, not a multiple of 4 of at least 4",
                        base.kind
                    ),
                ));
            }
            if bc > end - at {
                return Err(BrigError::in_section(
                    which,
                    at as u64,
                    format!(
                        "entry of kind {:?} with byte_count {bc} runs past the section end ({end:#x})",
                        base.kind
                    ),
                ));
            }
            let right_section = if which == CODE {
                base.kind.is_code()
            } else {
                base.kind.is_operand()
            };
            if right_section
                && let Some(need) = entry_size(base.kind)
                && bc < need
            {
                return Err(BrigError::in_section(
                    which,
                    at as u64,
                    format!(
                        "entry of kind {:?} has byte_count {bc}, less than the {need} bytes \
                                 of its struct",
                        base.kind
                    ),
                ));
            }
            starts.push(at as u32);
            at += bc;
        }
        Ok(starts)
    }

    /// The module bytes (`header().byte_count` of them).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The module header.
    pub fn header(&self) -> &'a BrigModuleHeader {
        self.header
    }

    /// Every section in section-index order: the three standard ones first,
    /// then any implementation-defined ones.
    pub fn sections(&self) -> &[BrigSection<'a>] {
        &self.sections
    }

    /// The section at `index` of the section index.
    pub fn section(&self, index: BrigSectionIndex) -> Option<&BrigSection<'a>> {
        self.sections.get(index.raw() as usize)
    }

    #[inline(always)]
    fn std_section(&self, which: BrigSectionIndex) -> &BrigSection<'a> {
        // parse() guarantees at least 3 sections.
        &self.sections[which.raw() as usize]
    }

    /// `offset` as an index into section `which` if an entry starts there
    /// (one bit test in the entry-start bitmap; the error is made out of
    /// line).
    #[inline(always)]
    fn check_start(&self, which: BrigSectionIndex, offset: u32, what: &str) -> Result<usize> {
        if self.starts[which.raw() as usize].contains(offset) && offset != 0 {
            Ok(offset as usize)
        } else {
            Err(Self::bad_start(which, offset, what))
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_start(which: BrigSectionIndex, offset: u32, what: &str) -> BrigError {
        if offset == 0 {
            BrigError::in_section(which, 0, format!("null {what} reference"))
        } else {
            BrigError::in_section(
                which,
                u64::from(offset),
                format!("{what} reference does not point at the start of an entry"),
            )
        }
    }

    /// The bytes of the `hsa_data` entry at `offset` (its `byte_count`
    /// bytes, padding excluded).
    #[inline]
    pub fn data_bytes(&self, offset: DataOffset) -> Result<&'a [u8]> {
        let at = offset.get() as usize;
        let sec = self.std[0];
        // `parse` walked every entry: its length and bytes are in the section.
        if self.starts[0].contains(offset.get())
            && at != 0
            && let Some(b) = sec.get(at..at + 4)
            && let len = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
            && let Some(bytes) = sec.get(at + 4..at + 4 + len)
        {
            return Ok(bytes);
        }
        Err(self.bad_entry(DATA, offset.get(), "hsa_data"))
    }

    /// The error for a reference to `offset` of section `which` that
    /// [`entry_bytes`](Self::entry_bytes) or
    /// [`data_bytes`](Self::data_bytes) could not follow.
    #[cold]
    #[inline(never)]
    fn bad_entry(&self, which: BrigSectionIndex, offset: u32, what: &str) -> BrigError {
        match self.check_start(which, offset, what) {
            Err(e) => e,
            Ok(at) => BrigError::in_section(
                which,
                at as u64,
                if which == DATA {
                    "BrigData runs past the section end"
                } else {
                    "entry runs past the section end"
                },
            ),
        }
    }

    /// The `hsa_data` entry at `offset` as UTF-8 text.
    #[inline]
    pub fn string(&self, offset: DataOffset) -> Result<&'a str> {
        let b = self.data_bytes(offset)?;
        core::str::from_utf8(b).map_err(|e| {
            BrigError::in_section(
                DATA,
                u64::from(offset.get()),
                format!("string is not UTF-8 ({e})"),
            )
        })
    }

    /// An offset list in `hsa_data` viewed in place as `T`s (offset 0 is
    /// the empty list).
    #[inline]
    fn list_ref<T: FromBytes + Immutable + KnownLayout + Unaligned>(
        &self,
        offset: DataOffset,
    ) -> Result<&'a [T]> {
        if offset.is_none() {
            return Ok(&[]);
        }
        let b = self.data_bytes(offset)?;
        <[T]>::ref_from_bytes(b).map_err(|_| {
            BrigError::in_section(
                DATA,
                u64::from(offset.get()),
                format!("offset list of {} bytes is not a multiple of 4", b.len()),
            )
        })
    }

    /// An operand list in place, its elements not yet checked: each is
    /// checked when followed with [`operand`](Self::operand). Offset 0 is
    /// the empty list. For readers that follow every element anyway (the
    /// printer); [`operand_list`](Self::operand_list) checks them all first.
    #[inline]
    pub fn operand_list_ref(&self, offset: DataOffset) -> Result<&'a [OperandOffset]> {
        self.list_ref(offset)
    }

    /// A code list in place, its elements not yet checked (see
    /// [`operand_list_ref`](Self::operand_list_ref)).
    #[inline]
    pub fn code_list_ref(&self, offset: DataOffset) -> Result<&'a [CodeOffset]> {
        self.list_ref(offset)
    }

    /// An operand list (instruction operands, `BrigOperandOperandList` and
    /// `BrigOperandConstantOperandList` elements, control/pragma operands).
    /// Offset 0 is the empty list. Every element must be an `hsa_operand`
    /// entry start.
    pub fn operand_list(&self, offset: DataOffset) -> Result<Vec<OperandOffset>> {
        let list = self.operand_list_ref(offset)?;
        for (i, &o) in list.iter().enumerate() {
            if !self.is_operand_entry(o) {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!(
                        "operand list element {i} ({:#x}) is not an hsa_operand entry",
                        o.get()
                    ),
                ));
            }
        }
        Ok(list.to_vec())
    }

    /// A code list (`BrigOperandCodeList` elements). Offset 0 is the empty
    /// list. Every element must be an `hsa_code` entry start.
    pub fn code_list(&self, offset: DataOffset) -> Result<Vec<CodeOffset>> {
        let list = self.code_list_ref(offset)?;
        for (i, &o) in list.iter().enumerate() {
            if !self.is_code_entry(o) {
                return Err(BrigError::in_section(
                    DATA,
                    u64::from(offset.get()) + 4 + 4 * i as u64,
                    format!(
                        "code list element {i} ({:#x}) is not an hsa_code entry",
                        o.get()
                    ),
                ));
            }
        }
        Ok(list.to_vec())
    }

    #[inline(always)]
    fn entry_bytes(&self, which: BrigSectionIndex, offset: u32, what: &str) -> Result<&'a [u8]> {
        match self.try_entry_bytes(which, offset) {
            Some(bytes) => Ok(bytes),
            None => Err(self.bad_entry(which, offset, what)),
        }
    }

    /// The raw bytes of the `hsa_code` entry at `offset` (`byte_count` of them).
    #[inline]
    pub fn code_bytes(&self, offset: CodeOffset) -> Result<&'a [u8]> {
        self.entry_bytes(CODE, offset.get(), "hsa_code")
    }

    /// The raw bytes of the `hsa_operand` entry at `offset`.
    #[inline]
    pub fn operand_bytes(&self, offset: OperandOffset) -> Result<&'a [u8]> {
        self.entry_bytes(OPERAND, offset.get(), "hsa_operand")
    }

    /// The `hsa_code` entry at `offset`.
    #[inline]
    pub fn code(&self, offset: CodeOffset) -> Result<Code<'a>> {
        let b = self.code_bytes(offset)?;
        Code::from_bytes(b).ok_or_else(|| {
            BrigError::in_section(
                CODE,
                u64::from(offset.get()),
                "entry too small for its kind",
            )
        })
    }

    /// [`code`](Self::code) without the error: `None` where `code` fails
    /// (for hot paths that only need to know).
    #[inline(always)]
    pub fn try_code(&self, offset: CodeOffset) -> Option<Code<'a>> {
        Code::from_bytes(self.try_entry_bytes(CODE, offset.get())?)
    }

    /// [`operand`](Self::operand) without the error: `None` where
    /// `operand` fails (for hot paths that only need to know).
    #[inline(always)]
    pub fn try_operand(&self, offset: OperandOffset) -> Option<Operand<'a>> {
        Operand::from_bytes(self.try_entry_bytes(OPERAND, offset.get())?)
    }

    /// What [`Self::entry_bytes`] returns, as an `Option`.
    #[inline(always)]
    fn try_entry_bytes(&self, which: BrigSectionIndex, offset: u32) -> Option<&'a [u8]> {
        let at = offset as usize;
        let sec = self.std[which.raw() as usize];
        if !self.starts[which.raw() as usize].contains(offset) || at == 0 {
            return None;
        }
        let b = sec.get(at..at + 2)?;
        sec.get(at..at + u16::from_le_bytes([b[0], b[1]]) as usize)
    }

    /// The `hsa_operand` entry at `offset`.
    #[inline]
    pub fn operand(&self, offset: OperandOffset) -> Result<Operand<'a>> {
        let b = self.operand_bytes(offset)?;
        Operand::from_bytes(b).ok_or_else(|| {
            BrigError::in_section(
                OPERAND,
                u64::from(offset.get()),
                "entry too small for its kind",
            )
        })
    }

    fn typed<T: BrigEntry>(
        &self,
        which: BrigSectionIndex,
        b: &'a [u8],
        offset: u32,
    ) -> Result<&'a T> {
        let (base, _) = BrigBase::ref_from_prefix(b)
            .map_err(|_| BrigError::in_section(which, u64::from(offset), "entry too small"))?;
        if !T::KINDS.contains(&base.kind) {
            return Err(BrigError::in_section(
                which,
                u64::from(offset),
                format!("expected a {} entry, found kind {:?}", T::NAME, base.kind),
            ));
        }
        T::ref_from_prefix(b).map(|(r, _)| r).map_err(|_| {
            BrigError::in_section(
                which,
                u64::from(offset),
                format!("entry too small for {}", T::NAME),
            )
        })
    }

    /// The `hsa_code` entry at `offset` as `T`, checking its kind.
    pub fn code_as<T: BrigEntry>(&self, offset: CodeOffset) -> Result<&'a T> {
        let b = self.code_bytes(offset)?;
        self.typed(CODE, b, offset.get())
    }

    /// The `hsa_operand` entry at `offset` as `T`, checking its kind.
    pub fn operand_as<T: BrigEntry>(&self, offset: OperandOffset) -> Result<&'a T> {
        let b = self.operand_bytes(offset)?;
        self.typed(OPERAND, b, offset.get())
    }

    /// Every `hsa_code` entry in file order.
    pub fn code_entries(&self) -> impl Iterator<Item = Result<(CodeOffset, Code<'a>)>> + '_ {
        self.starts[1].offsets.iter().map(move |&o| {
            let off = CodeOffset::new(o);
            self.code(off).map(|c| (off, c))
        })
    }

    /// Every `hsa_operand` entry in file order.
    pub fn operand_entries(
        &self,
    ) -> impl Iterator<Item = Result<(OperandOffset, Operand<'a>)>> + '_ {
        self.starts[2].offsets.iter().map(move |&o| {
            let off = OperandOffset::new(o);
            self.operand(off).map(|c| (off, c))
        })
    }

    /// Every `hsa_data` entry in file order, as (offset, bytes).
    pub fn data_entries(&self) -> impl Iterator<Item = (DataOffset, &'a [u8])> + '_ {
        self.starts[0].offsets.iter().filter_map(move |&o| {
            let off = DataOffset::new(o);
            self.data_bytes(off).ok().map(|b| (off, b))
        })
    }

    /// Offsets of all `hsa_code` entries, in file order.
    pub fn code_offsets(&self) -> impl Iterator<Item = CodeOffset> + '_ {
        self.starts[1].offsets.iter().map(|&o| CodeOffset::new(o))
    }

    /// Offsets of all `hsa_code` entries, in file order, as a slice (to
    /// find an entry's ordinal or iterate from one).
    pub fn code_offset_slice(&self) -> &[u32] {
        &self.starts[1].offsets
    }

    /// Offsets of all `hsa_operand` entries, in file order, as a slice.
    pub fn operand_offset_slice(&self) -> &[u32] {
        &self.starts[2].offsets
    }

    /// Offsets of all `hsa_operand` entries, in file order.
    pub fn operand_offsets(&self) -> impl Iterator<Item = OperandOffset> + '_ {
        self.starts[2]
            .offsets
            .iter()
            .map(|&o| OperandOffset::new(o))
    }

    /// Whether `offset` is the start of an `hsa_code` entry.
    #[inline]
    pub fn is_code_entry(&self, offset: CodeOffset) -> bool {
        self.starts[1].contains(offset.get())
    }

    /// Whether `offset` is the start of an `hsa_operand` entry.
    #[inline]
    pub fn is_operand_entry(&self, offset: OperandOffset) -> bool {
        self.starts[2].contains(offset.get())
    }

    /// Whether `offset` is the start of an `hsa_data` entry.
    #[inline]
    pub fn is_data_entry(&self, offset: DataOffset) -> bool {
        self.starts[0].contains(offset.get())
    }

    /// The offset of the first `hsa_code` entry (possibly
    /// [`code_end`](Self::code_end), for a module without code).
    pub fn code_begin(&self) -> CodeOffset {
        CodeOffset::new(self.std_section(CODE).first_entry())
    }

    /// The offset one past the last `hsa_code` entry (= the section size);
    /// `next_module_entry` of the last executable points here.
    pub fn code_end(&self) -> CodeOffset {
        CodeOffset::new(self.std_section(CODE).bytes.len() as u32)
    }

    /// The offset of the `hsa_code` entry after the one at `offset`
    /// (possibly [`code_end`](Self::code_end)).
    pub fn next_code(&self, offset: CodeOffset) -> Result<CodeOffset> {
        let b = self.code_bytes(offset)?;
        Ok(CodeOffset::new(offset.get() + b.len() as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &[u8] = include_bytes!("../tests/data/kernel.brig");

    /// The constant-time entry-start check agrees with the list of starts
    /// at every offset of every section.
    #[test]
    fn entry_start_bits_match_the_offsets() {
        let m = BrigModule::parse(KERNEL).unwrap();
        for (s, sec) in m.starts.iter().zip(m.sections()) {
            assert!(!s.offsets.is_empty());
            for off in 0..sec.bytes.len() as u32 + 8 {
                assert_eq!(
                    s.contains(off),
                    s.offsets.binary_search(&off).is_ok(),
                    "{off}"
                );
            }
        }
    }

    /// The tight walks find the entries the checked walks find, and give
    /// up exactly where those report an error (on bit-flipped sections).
    #[test]
    fn fast_walks_match_checked_walks() {
        let m = BrigModule::parse(KERNEL).unwrap();
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut ok, mut bad) = (0, 0);
        for (i, sec) in m.sections().iter().take(3).enumerate() {
            let hbc = sec.first_entry() as usize;
            assert!(sec.bytes.len() > hbc);
            for round in 0..600 {
                let mut b = sec.bytes.to_vec();
                for _ in 0..round % 3 {
                    let at = hbc + next() as usize % (b.len() - hbc);
                    b[at] ^= 1 << (next() % 8);
                }
                let s = BrigSection { bytes: &b, ..*sec };
                let (fast, checked) = if i == 0 {
                    (
                        BrigModule::walk_data_fast(&s),
                        BrigModule::walk_data_checked(&s),
                    )
                } else {
                    let which = BrigSectionIndex::new(i as u32);
                    (
                        BrigModule::walk_entries_fast(&s, which),
                        BrigModule::walk_entries_checked(&s, which),
                    )
                };
                // Checking the starts of the unflipped section gives them
                // back exactly when the walk finds them.
                let which = BrigSectionIndex::new(i as u32);
                let recorded = EntryStarts::recorded(&m.starts[i].offsets, &s, which, true);
                match (&recorded, &checked) {
                    (Some(r), Ok(c)) => assert_eq!((&r.offsets, &r.words), (&c.offsets, &c.words)),
                    (None, Ok(c)) => assert_ne!(c.offsets, m.starts[i].offsets),
                    (Some(_), Err(e)) => panic!("recorded starts pass, the walk fails: {e}"),
                    (None, Err(_)) => {}
                }
                match (fast, checked) {
                    (Some(f), Ok(c)) => {
                        assert_eq!((f.offsets, f.words), (c.offsets, c.words));
                        ok += 1;
                    }
                    (None, Err(_)) => bad += 1,
                    (f, c) => panic!(
                        "section {i}: fast walk {:?}, checked walk {c:?}",
                        f.is_some()
                    ),
                }
            }
        }
        assert!(ok > 100 && bad > 50, "{ok} walks passed, {bad} failed");
    }

    /// A module viewed over a writer's sections has the entries, starts
    /// and section file offsets of the module file the writer makes.
    #[test]
    fn from_sections_matches_parse() {
        let m = BrigModule::parse(KERNEL).unwrap();
        let mut w = crate::BrigWriter::from_module(&m);
        let file = w.clone().finish();
        let parsed = BrigModule::parse(&file).unwrap();
        let view = w.module().unwrap();
        assert!(view.bytes().is_empty());
        assert_eq!(view.header().identification, BrigModuleHeader::MAGIC);
        for (a, b) in parsed.sections().iter().zip(view.sections()) {
            assert_eq!((a.file_offset, a.bytes), (b.file_offset, b.bytes));
        }
        assert_eq!(parsed.code_offset_slice(), view.code_offset_slice());
        assert_eq!(parsed.operand_offset_slice(), view.operand_offset_slice());
        let a: Vec<_> = parsed.code_entries().map(|e| e.unwrap().0).collect();
        let b: Vec<_> = view.code_entries().map(|e| e.unwrap().0).collect();
        assert_eq!(a, b);
        assert!(BrigModule::from_sections(&[&[][..]; 3]).is_err());
    }

    /// The in-place lists hold what the checked lists hold.
    #[test]
    fn lists_in_place_match_checked_lists() {
        let m = BrigModule::parse(KERNEL).unwrap();
        assert_eq!(m.code_offsets().next(), Some(m.code_begin()));
        let mut lists = 0;
        for entry in m.code_entries() {
            let (_, code) = entry.unwrap();
            if let Some(inst) = code.inst() {
                let list = m.operand_list_ref(inst.operands).unwrap();
                assert_eq!(list, &m.operand_list(inst.operands).unwrap()[..]);
                lists += usize::from(!list.is_empty());
            }
        }
        assert!(lists > 0);
        assert!(m.operand_list_ref(DataOffset::NONE).unwrap().is_empty());
        assert!(m.code_list_ref(DataOffset::NONE).unwrap().is_empty());
    }
}
