//! Disassembling a code object as `llvm-objdump-19 -d` does.
//!
//! [`objdump_d`] reproduces, byte for byte, what llvm-objdump-19 prints for
//! the executable sections of an AMDGPU code object (`ET_REL` from
//! llvm-mc/clang, `ET_DYN` from ld.lld) on the GFX9 targets `amdgpu-isa`
//! decodes (gfx900 family, gfx906, gfx908, gfx90a, gfx940–942). The rules below are
//! llvm-objdump's (`disassembleObject` in `llvm-objdump.cpp`, the
//! `AMDGCNPrettyPrinter`, and the AMDGPU symbolizer), found in its source
//! and checked against its output:
//!
//! - **Symbols.** `.symtab` (or `.dynsym` when `.symtab` gives no symbol in
//!   any section), without unnamed, `STT_SECTION` and `STT_FILE` symbols,
//!   grouped by section and sorted by (address, name, type). A section with
//!   no symbol at its start gets a dummy one named after the section.
//! - **Chunks.** Each run of symbols at one address starts a chunk that ends
//!   at the next symbol's address. One label is printed: the last symbol of
//!   the run that is not `STT_OBJECT`/`STT_COMMON`, else the last one. A
//!   chunk whose symbols are all data is dumped as hex and ASCII, 8 bytes a
//!   line.
//! - **Instructions.** `\t` + LLVM text left-justified to 60 columns, then
//!   `// ADDRESS:` (12 hex digits) and the instruction dwords. Bytes that
//!   do not decode print as `.long 0x…` (4 bytes) or `.byte 0x…, …` (the
//!   last 1–3 bytes of the section). Runs of 8 or more zero bytes print as
//!   `\t\t...` (skipping a multiple of 4). An instruction may read past its
//!   chunk's end, as LLVM's does.
//! - **Branches.** A branch whose target address holds an `STT_NOTYPE`
//!   symbol of the section prints that name as its operand (the AMDGPU
//!   symbolizer); otherwise SOPP branches get ` <sym+0xDISP>` after the
//!   encoding, naming the last symbol at or before the target.
//! - **Decoder comments.** A misaligned SGPR/TTMP tuple prints rounded down
//!   with ` ; Warning: SGPR_128: scalar reg isn't aligned 62` at the end.
//! - **Code object v2** kernel symbols (`STT_AMDGPU_HSA_KERNEL`) print
//!   LLVM's "code object v2 is not supported" error and 256 `.byte` lines.
//!
//! Known differences, all on bytes no assembler or compiler emits: where
//! LLVM prints an instruction with an `/*Invalid register…*/` note,
//! `amdgpu-isa` refuses it and we print `.long`; some misaligned-tuple
//! warnings of FLAT `saddr` and non-returning SMEM atomics differ; and a
//! v3+ kernel descriptor symbol (`*.kd`) inside an executable section is an
//! error here, where LLVM prints its directives.

use std::collections::HashMap;
use std::fmt::Write as _;

use amdgpu_isa::gfx9::{self, Operand, Target};

use crate::elf::{
    ET_REL, SHF_EXECINSTR, SHN_UNDEF, SHT_NOBITS, STT_AMDGPU_HSA_KERNEL, STT_FUNC, STT_NOTYPE,
    STT_OBJECT, STT_SECTION,
};
use crate::error::{Error, Result};
use crate::read::CodeObject;

/// `STT_COMMON`: data, like `STT_OBJECT`.
const STT_COMMON: u8 = 5;
/// `STT_FILE`: never a label.
const STT_FILE: u8 = 6;
/// First reserved section index (`SHN_LORESERVE`).
const SHN_LORESERVE: u16 = 0xff00;
/// Width llvm-objdump left-justifies instruction text to (tab included).
const TEXT_COLUMN: usize = 60;
/// Offset of `e_flags` in the ELF header (for target errors).
const E_FLAGS_OFFSET: u64 = 48;

/// A symbol as llvm-objdump's disassembler sees it (`SymbolInfoTy`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Label<'a> {
    addr: u64,
    name: &'a str,
    kind: u8,
}

impl Label<'_> {
    /// LLVM's order: address, then name (bytewise), then type.
    fn key(&self) -> (u64, &[u8], u8) {
        (self.addr, self.name.as_bytes(), self.kind)
    }

    fn is_data(&self) -> bool {
        self.kind == STT_OBJECT || self.kind == STT_COMMON
    }
}

/// Symbols by section index, plus those in no section (absolute,
/// undefined, common).
struct SymbolMap<'a> {
    by_section: Vec<Vec<Label<'a>>>,
    absolute: Vec<Label<'a>>,
}

impl<'a> SymbolMap<'a> {
    fn new(co: &CodeObject<'a>) -> SymbolMap<'a> {
        let nsec = co.sections.len();
        let relocatable = co.header.e_type == ET_REL;
        let mut map = SymbolMap {
            by_section: vec![Vec::new(); nsec],
            absolute: Vec::new(),
        };
        for (i, s) in co.symbols.iter().enumerate() {
            // The null symbol, STT_FILE and STT_SECTION are format-specific.
            if i == 0 || s.name.is_empty() || s.kind == STT_FILE || s.kind == STT_SECTION {
                continue;
            }
            match section_of(s.shndx, nsec) {
                Some(sec) => {
                    let base = if relocatable {
                        co.sections[sec].addr
                    } else {
                        0
                    };
                    map.by_section[sec].push(Label {
                        addr: s.value.wrapping_add(base),
                        name: s.name,
                        kind: s.kind,
                    });
                }
                None => map.absolute.push(Label {
                    addr: s.value,
                    name: s.name,
                    kind: s.kind,
                }),
            }
        }
        if map.by_section.iter().all(Vec::is_empty) {
            for s in co.dynamic_symbols.iter().skip(1) {
                if s.kind == STT_SECTION || s.name.is_empty() {
                    continue;
                }
                if let Some(sec) = section_of(s.shndx, nsec) {
                    let base = if relocatable {
                        co.sections[sec].addr
                    } else {
                        0
                    };
                    map.by_section[sec].push(Label {
                        addr: s.value.wrapping_add(base),
                        name: s.name,
                        kind: s.kind,
                    });
                }
            }
        }
        for list in &mut map.by_section {
            list.sort_by(|a, b| a.key().cmp(&b.key()));
        }
        map.absolute.sort_by(|a, b| a.key().cmp(&b.key()));
        map
    }
}

/// The section a symbol's `st_shndx` names, if it is a real section.
fn section_of(shndx: u16, nsec: usize) -> Option<usize> {
    if shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || usize::from(shndx) >= nsec {
        None
    } else {
        Some(usize::from(shndx))
    }
}

/// The GFX9 instruction set of the code object's processor.
pub fn target_of(co: &CodeObject<'_>) -> Result<Target> {
    let Some(id) = &co.header.target else {
        return Err(Error::Unsupported {
            what: format!(
                "code object without a target processor (e_flags {:#x}) for disassembly",
                co.header.e_flags
            ),
            offset: E_FLAGS_OFFSET,
        });
    };
    Target::from_processor(id.processor.name).ok_or_else(|| Error::Unsupported {
        what: format!(
            "processor {} for disassembly (supported: gfx900, gfx902, gfx906, \
             gfx908, gfx909, gfx90a, gfx90c, gfx940, gfx941, gfx942)",
            id.processor.name
        ),
        offset: E_FLAGS_OFFSET,
    })
}

/// What `llvm-objdump-19 -d FILE` prints for `co`, with `file_name` the
/// name given on its command line. Errors only for a processor without a
/// GFX9 table in `amdgpu-isa` and for v3+ kernel descriptors placed in code; bytes
/// that do not decode are printed as LLVM prints them.
pub fn objdump_d(co: &CodeObject<'_>, file_name: &str) -> Result<String> {
    let target = target_of(co)?;
    let mut symbols = SymbolMap::new(co);
    let relocatable = co.header.e_type == ET_REL;

    // Sections by address (empty ones first among equal addresses), for
    // branch-target lookups in linked objects.
    let mut by_addr: Vec<(u64, u64, usize)> = co
        .sections
        .iter()
        .map(|s| (s.addr, s.size, s.index))
        .collect();
    by_addr.sort_by_key(|&(addr, size, _)| (addr, size));

    let mut out = String::with_capacity(co.data.len() * 8);
    let mut memo = Memo::default();
    let _ = write!(out, "\n{file_name}:\tfile format elf64-amdgpu\n");

    for sec in &co.sections {
        if sec.flags & SHF_EXECINSTR == 0 || sec.sh_type == SHT_NOBITS || sec.size == 0 {
            continue;
        }
        let section = Section {
            addr: sec.addr,
            name: sec.name,
            bytes: sec.data,
            index: sec.index,
            offset: sec.offset,
        };
        insert_dummy(&mut symbols.by_section[sec.index], &section);
        let mut d = Disassembler {
            target,
            symbols: &symbols,
            by_addr: &by_addr,
            relocatable,
            section,
            memo: &mut memo,
            out: &mut out,
        };
        d.section()?;
    }
    Ok(out)
}

/// The section being disassembled.
#[derive(Debug, Clone, Copy)]
struct Section<'a> {
    addr: u64,
    name: &'a str,
    bytes: &'a [u8],
    index: usize,
    /// File offset of the contents.
    offset: u64,
}

/// Adds a label named after the section at its start when no symbol is
/// there (llvm-objdump's dummy symbol).
fn insert_dummy<'a>(list: &mut Vec<Label<'a>>, sec: &Section<'a>) {
    if list.first().is_some_and(|l| l.addr == sec.addr) {
        return;
    }
    let dummy = Label {
        addr: sec.addr,
        name: sec.name,
        kind: STT_FUNC,
    };
    let at = list.partition_point(|l| l.key() < dummy.key());
    list.insert(at, dummy);
}

struct Disassembler<'s, 'a> {
    target: Target,
    symbols: &'s SymbolMap<'a>,
    by_addr: &'s [(u64, u64, usize)],
    relocatable: bool,
    section: Section<'a>,
    memo: &'s mut Memo,
    out: &'s mut String,
}

impl Disassembler<'_, '_> {
    fn labels(&self) -> &[Label<'_>] {
        &self.symbols.by_section[self.section.index]
    }

    fn section(&mut self) -> Result<()> {
        let sec = self.section;
        let symbols = self.symbols;
        let size = sec.bytes.len() as u64;
        let sec_end = sec.addr.wrapping_add(size);
        let nsyms = self.labels().len();
        let mut printed_header = false;
        let mut si = 0;
        while si < nsyms {
            let first = si;
            let start_addr = self.labels()[si].addr;
            while si < nsyms && self.labels()[si].addr == start_addr {
                si += 1;
            }
            let here = &symbols.by_section[sec.index][first..si];
            let mut display = here.len() - 1;
            let mut as_data = true;
            for (i, l) in here.iter().enumerate() {
                if !l.is_data() {
                    as_data = false;
                    display = i;
                }
            }
            if start_addr < sec.addr {
                continue;
            }
            let mut end_addr = sec_end;
            if si < nsyms {
                end_addr = end_addr.min(self.labels()[si].addr);
            }
            if start_addr >= end_addr {
                continue;
            }
            let mut start = (start_addr - sec.addr) as usize;
            let end = (end_addr - sec.addr) as usize;
            if !printed_header {
                printed_header = true;
                let _ = write!(self.out, "\nDisassembly of section {}:\n", sec.name);
            }
            let shown = &here[display];
            let _ = write!(self.out, "\n{:016x} <{}>:\n", start_addr, shown.name);

            // Target-specific symbol handling (AMDGPUDisassembler::onSymbolStart).
            for l in here {
                if l.kind == STT_AMDGPU_HSA_KERNEL {
                    let _ = write!(
                        self.out,
                        "; error decoding {}: code object v2 is not supported\n\
                         ; decoding failed region as bytes\n",
                        l.name
                    );
                    // LLVM prints the first 256 bytes of the section here.
                    for b in sec.bytes.iter().take(256) {
                        let _ = writeln!(self.out, "\t.byte\t 0x{b:X}");
                    }
                    start += 256;
                    break;
                }
                if l.kind == STT_OBJECT && l.name.ends_with(".kd") {
                    return Err(Error::Unsupported {
                        what: format!("kernel descriptor `{}` in executable section", l.name),
                        offset: sec.offset + start as u64,
                    });
                }
            }
            if start >= end {
                continue;
            }
            if as_data {
                self.dump_data(start, end);
            } else {
                self.code(start, end);
            }
        }
        Ok(())
    }

    /// Hex and ASCII, 8 bytes a line (llvm-objdump's `dumpELFData`).
    fn dump_data(&mut self, start: usize, end: usize) {
        let base = self.section.addr;
        for (n, chunk) in self.section.bytes[start..end].chunks(8).enumerate() {
            let at = base.wrapping_add((start + n * 8) as u64);
            let _ = write!(self.out, "{at:8x}:");
            for b in chunk {
                let _ = write!(self.out, " {b:02x}");
            }
            let pad = 3 * (8 - chunk.len()) + 9;
            self.out.extend(std::iter::repeat_n(' ', pad));
            for &b in chunk {
                self.out.push(if (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                });
            }
            self.out.push('\n');
        }
    }

    /// Instructions from `index` to `end` (section offsets).
    fn code(&mut self, mut index: usize, end: usize) {
        let bytes = self.section.bytes;
        while index < end {
            let zeros = bytes[index..end].iter().take_while(|&&b| b == 0).count();
            if zeros >= 8 {
                self.out.push_str("\t\t...\n");
                index += zeros & !3;
                continue;
            }
            let addr = self.section.addr.wrapping_add(index as u64);
            let size = match self.memo.decode(&bytes[index..], self.target) {
                Some(d) => {
                    let len = usize::from(d.len);
                    self.instruction(d, addr, &bytes[index..index + len]);
                    len
                }
                None => {
                    let len = (bytes.len() - index).min(4);
                    self.unknown(addr, &bytes[index..index + len]);
                    len
                }
            };
            index += size;
        }
    }

    fn instruction(&mut self, d: Decoded, addr: u64, bytes: &[u8]) {
        let text = self.memo.text(d);
        let mut symbolized = None;
        let mut annotation = None;
        if let Some((i, simm)) = d.label {
            let offset = i64::from(simm as i16) * 4;
            // The symbolizer names the target when an untyped symbol is
            // there (computed as address + 4 + offset).
            let symbolic = addr.wrapping_add(4).wrapping_add(offset as u64);
            if let Some(l) = self
                .labels()
                .iter()
                .find(|l| l.addr == symbolic && l.kind == STT_NOTYPE)
            {
                let cut = text.rfind([' ', ',']).map_or(text.len(), |p| p + 1);
                symbolized = Some(format!("{}{}", &text[..cut], l.name));
            } else if i == 0 {
                // MCInstrAnalysis::evaluateBranch: only when the label is
                // the first operand.
                let target = addr
                    .wrapping_add(bytes.len() as u64)
                    .wrapping_add(offset as u64);
                annotation = self.target_symbol(target).map(|l| {
                    let disp = target.wrapping_sub(l.addr);
                    if disp == 0 {
                        format!(" <{}>", l.name)
                    } else {
                        format!(" <{}+0x{disp:x}>", l.name)
                    }
                });
            }
        }
        let text = symbolized.as_deref().unwrap_or(self.memo.text(d));
        self.out.push('\t');
        self.out.push_str(text);
        pad(self.out, text.len() + 1);
        self.encoding(addr, bytes);
        if let Some(a) = annotation {
            self.out.push_str(&a);
        }
        if let Some(c) = d.comment {
            // Decoder comments follow at column 40 or one space further.
            self.out.push_str(" ; ");
            self.out.push_str(&self.memo.texts[c as usize]);
        }
        self.out.push('\n');
    }

    /// Bytes that do not decode: `.long` for 4, `.byte` for the 1–3 bytes
    /// at the end of the section.
    fn unknown(&mut self, addr: u64, bytes: &[u8]) {
        if bytes.len() >= 4 {
            let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            let _ = write!(self.out, "\t.long 0x{w:08x} ");
            pad(self.out, 18);
        } else {
            let _ = write!(self.out, "\t.byte 0x{:02x}", bytes[0]);
            for b in &bytes[1..] {
                let _ = write!(self.out, ", 0x{b:02x}");
            }
            self.out
                .extend(std::iter::repeat_n(' ', 55 - 6 * bytes.len()));
        }
        self.encoding(addr, bytes);
        self.out.push('\n');
    }

    /// `// ADDRESS:` and the dwords (or bytes, when fewer than 4).
    fn encoding(&mut self, addr: u64, bytes: &[u8]) {
        self.out.push_str("// ");
        push_hex(self.out, addr, 12);
        self.out.push(':');
        if bytes.len() >= 4 {
            for w in bytes.chunks_exact(4) {
                self.out.push(' ');
                let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                push_hex(self.out, u64::from(w), 8);
            }
        } else {
            for &b in bytes {
                self.out.push(' ');
                push_hex(self.out, u64::from(b), 2);
            }
        }
    }

    /// The symbol llvm-objdump names a branch target after: the last one at
    /// or before it in the target's section(s) (linked objects) or this
    /// section (relocatable ones), else among the absolute symbols.
    fn target_symbol(&self, target: u64) -> Option<&Label<'_>> {
        let last_at_or_before = |list: &'_ [Label<'_>]| {
            let n = list.partition_point(|l| l.addr <= target);
            n.checked_sub(1)
        };
        let mut lists: Vec<&[Label<'_>]> = Vec::new();
        if self.relocatable {
            lists.push(self.labels());
        } else {
            let n = self.by_addr.partition_point(|&(a, _, _)| a <= target);
            if let Some(last) = n.checked_sub(1) {
                let sec_addr = self.by_addr[last].0;
                for &(a, _, idx) in self.by_addr[..n].iter().rev() {
                    if a != sec_addr {
                        break;
                    }
                    lists.push(&self.symbols.by_section[idx]);
                }
            }
        }
        lists.push(&self.symbols.absolute);
        lists
            .into_iter()
            .find_map(|list| last_at_or_before(list).map(|i| &list[i]))
    }
}

/// Pads the current line to [`TEXT_COLUMN`] given `written` columns.
fn pad(out: &mut String, written: usize) {
    const SPACES: &str = "                                                            ";
    out.push_str(&SPACES[..TEXT_COLUMN.saturating_sub(written)]);
}

/// Appends the low `digits` hex digits of `v`, upper case (`%0NX`; LLVM's
/// addresses are always printed at width 12 here, and wider values print
/// in full).
fn push_hex(out: &mut String, v: u64, digits: usize) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let digits = digits.max((64 - v.leading_zeros() as usize).div_ceil(4));
    for i in (0..digits).rev() {
        out.push(char::from(HEX[((v >> (4 * i)) & 0xf) as usize]));
    }
}

/// A decoded instruction: its length, its text (in [`Memo::texts`]) and its
/// branch-label operand.
#[derive(Debug, Clone, Copy)]
struct Decoded {
    len: u8,
    text: u32,
    label: Option<(usize, u16)>,
    /// LLVM's decoder comment (misaligned SGPR/TTMP tuples), in
    /// [`Memo::texts`].
    comment: Option<u32>,
}

/// Decoded instructions by encoding: code repeats (`s_nop` fill, waits,
/// moves), and decoding and printing dominate the run time. An instruction
/// depends only on the bytes it consumes, so 4-byte ones are keyed by their
/// dword and 8-byte ones by both.
#[derive(Debug, Default)]
struct Memo {
    short: HashMap<u32, Decoded>,
    long: HashMap<u64, Decoded>,
    texts: Vec<String>,
}

impl Memo {
    fn text(&self, d: Decoded) -> &str {
        &self.texts[d.text as usize]
    }

    /// The instruction at the start of `bytes`, or `None` if LLVM would
    /// print `.long`/`.byte` there.
    fn decode(&mut self, bytes: &[u8], target: Target) -> Option<Decoded> {
        let word = |i: usize| {
            bytes
                .get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let w0 = word(0);
        let q = w0
            .zip(word(4))
            .map(|(a, b)| u64::from(a) | u64::from(b) << 32);
        if let Some(d) = w0.and_then(|w| self.short.get(&w)) {
            return Some(*d);
        }
        if let Some(d) = q.and_then(|q| self.long.get(&q)) {
            return Some(*d);
        }
        let (inst, len) = gfx9::decode(bytes, target).ok()?;
        let text = u32::try_from(self.texts.len()).ok()?;
        self.texts.push(gfx9::print(&inst));
        let warnings = misaligned_tuples(&inst, &bytes[..len], target);
        let comment = if warnings.is_empty() {
            None
        } else {
            self.texts.push(warnings);
            Some(text + 1)
        };
        let d = Decoded {
            len: u8::try_from(len).ok()?,
            text,
            label: label_operand(&inst),
            comment,
        };
        match (len, w0, q) {
            (4, Some(w), _) => {
                self.short.insert(w, d);
            }
            (8, _, Some(q)) => {
                self.long.insert(q, d);
            }
            _ => {}
        }
        Some(d)
    }
}

/// LLVM's warnings for SGPR and TTMP tuples whose encoded register is not
/// aligned (`AMDGPUDisassembler::createSRegOperand`), which both decoders
/// round down: `Warning: SGPR_128: scalar reg isn't aligned 62`, one per
/// operand, concatenated. The decoded instruction keeps only the rounded
/// register, so the encoded one is found by re-encoding with each possible
/// low part and keeping the largest whose changed bits all differ between
/// `bytes` and the rounded encoding.
fn misaligned_tuples(inst: &gfx9::Inst, bytes: &[u8], target: Target) -> String {
    let candidates = |op: &Operand| match *op {
        Operand::Src { code, width } if width >= 2 && code <= 101 => Some(("SGPR", 0, code, width)),
        Operand::Src { code, width } if width >= 2 && (108..=123).contains(&code) => {
            Some(("TTMP", 108, code, width))
        }
        _ => None,
    };
    let mut out = String::new();
    if !inst.operands.iter().any(|op| candidates(op).is_some()) {
        return out;
    }
    let Ok(base) = gfx9::encode(inst, target) else {
        return out;
    };
    if base.len() != bytes.len() || base == bytes {
        return out;
    }
    for (i, op) in inst.operands.iter().enumerate() {
        let Some((class, first, code, width)) = candidates(op) else {
            continue;
        };
        let align = if width == 2 { 2 } else { 4 };
        // The smallest low part giving the largest consistent change (a
        // field may drop low bits, as SMEM `sbase` does).
        let mut found = 0;
        let mut found_enc = Vec::new();
        for delta in 1..align {
            let mut m = inst.clone();
            m.operands[i] = Operand::Src {
                code: code + delta,
                width,
            };
            let Ok(e) = gfx9::encode(&m, target) else {
                continue;
            };
            let changed = e != base && e != found_enc;
            let consistent = e.len() == base.len()
                && e.iter()
                    .zip(&base)
                    .zip(bytes)
                    .all(|((e, b), o)| (e ^ b) & !(o ^ b) == 0);
            if changed && consistent {
                found = delta;
                found_enc = e;
            }
        }
        // A returning SMEM atomic decodes its data operand twice (as the
        // result and as the tied source).
        let times = if inst.def.family == gfx9::Family::Smem
            && inst.def.mnemonic.contains("atomic")
            && inst.mods.glc
            && i == 0
        {
            2
        } else {
            1
        };
        for _ in 0..if found > 0 { times } else { 0 } {
            let _ = write!(
                out,
                "Warning: {class}_{}: scalar reg isn't aligned {}",
                32 * u32::from(width),
                code - first + found
            );
        }
    }
    out
}

/// The position and raw 16-bit value of an instruction's branch-label
/// operand (`s_branch`, `s_cbranch_*`, `s_call_b64`, `s_cbranch_i_fork`).
fn label_operand(inst: &gfx9::Inst) -> Option<(usize, u16)> {
    let i = inst.def.operands.iter().position(|r| *r == "label")?;
    match inst.operands.get(i)? {
        Operand::Imm(v) => Some((i, *v as u16)),
        _ => None,
    }
}
