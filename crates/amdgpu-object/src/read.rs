//! Zero-copy reader of AMDGPU code objects: ELF64 `EM_AMDGPU`, relocatable
//! (`ET_REL`, from llvm-mc/clang `-c`) or shared (`ET_DYN`, from ld.lld),
//! code object v2 (ROCm notes, `amd_kernel_code_t`) through v6.
//!
//! Every offset and size is checked before use; malformed or truncated
//! input gives an [`Error`] naming the file offset, never a panic.

use zerocopy::FromBytes;

use crate::amd_kernel_code::{AMD_KERNEL_CODE_SIZE, amd_kernel_code_t};
use crate::elf::*;
use crate::error::{Error, Result};
use crate::kd::{KERNEL_DESCRIPTOR_SIZE, kernel_descriptor_t};
use crate::metadata::{self, Metadata};
use crate::metadata_v2::MetadataV2;
use crate::target::{Processor, Setting, TargetId};

/// The ELF header, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// `e_type` (`ET_REL`, `ET_DYN`, …).
    pub e_type: u16,
    /// `EI_OSABI` (64 = `ELFOSABI_AMDGPU_HSA`).
    pub os_abi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// Raw `e_flags`.
    pub e_flags: u32,
    /// `e_entry`.
    pub entry: u64,
    /// Code object version (2..=6) from OS ABI + ABI version.
    pub code_object_version: u32,
    /// Processor and features from `e_flags` (v3+) or the ISA note (v2).
    pub target: Option<TargetId>,
}

/// One section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section<'a> {
    /// Index in the section header table.
    pub index: usize,
    /// Name from `.shstrtab`.
    pub name: &'a str,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info`.
    pub info: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// Contents (empty for `SHT_NOBITS`).
    pub data: &'a [u8],
}

/// One program header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_paddr`.
    pub paddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
}

/// One symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// Index in its table.
    pub index: usize,
    /// Name.
    pub name: &'a str,
    /// `st_value` (an address in `ET_DYN`, a section offset in `ET_REL`).
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `STT_*`.
    pub kind: u8,
    /// `STB_*`.
    pub bind: u8,
    /// `STV_*`.
    pub visibility: u8,
    /// `st_shndx`.
    pub shndx: u16,
    /// File offset of the symbol table entry (for errors).
    pub entry_offset: u64,
}

/// One note record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Note<'a> {
    /// Owner name without the NUL (`AMDGPU`, `AMD`).
    pub name: &'a str,
    /// `n_type`.
    pub n_type: u32,
    /// Descriptor bytes.
    pub desc: &'a [u8],
    /// File offset of the descriptor.
    pub desc_offset: u64,
}

/// One relocation (REL entries are read with addend 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation<'a> {
    /// Index of the relocation section.
    pub section: usize,
    /// Index of the section the relocation applies to (`sh_info`).
    pub target_section: usize,
    /// `r_offset`.
    pub offset: u64,
    /// `R_AMDGPU_*`.
    pub r_type: u32,
    /// Symbol index.
    pub symbol: u32,
    /// Symbol name (empty for none).
    pub symbol_name: &'a str,
    /// `r_addend`.
    pub addend: i64,
}

/// How a kernel's launch parameters are described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelHeader {
    /// v3+: 64-byte kernel descriptor (`name.kd`).
    Descriptor(kernel_descriptor_t),
    /// v2: `amd_kernel_code_t` at the kernel symbol.
    AmdKernelCode(Box<amd_kernel_code_t>),
}

/// One kernel found in the code object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelEntry<'a> {
    /// Kernel (function) name.
    pub name: &'a str,
    /// Descriptor or `amd_kernel_code_t`.
    pub header: KernelHeader,
    /// Symbol value of the descriptor (`name.kd`, or the v2 kernel symbol).
    pub descriptor_address: u64,
    /// File offset of the descriptor.
    pub descriptor_offset: u64,
    /// Address (ET_DYN) or section offset (ET_REL) of the first instruction.
    pub entry_address: u64,
    /// The machine code, when the function symbol gives its size.
    pub code: &'a [u8],
    /// Index into `CodeObject::metadata.kernels`, if present.
    pub metadata_index: Option<usize>,
}

impl KernelEntry<'_> {
    /// The v3+ kernel descriptor, if this is not a v2 kernel.
    pub fn descriptor(&self) -> Option<&kernel_descriptor_t> {
        match &self.header {
            KernelHeader::Descriptor(kd) => Some(kd),
            KernelHeader::AmdKernelCode(_) => None,
        }
    }
}

/// A parsed code object borrowing the file bytes.
#[derive(Debug, Clone)]
pub struct CodeObject<'a> {
    /// The file.
    pub data: &'a [u8],
    /// ELF header.
    pub header: Header,
    /// Section headers (index 0 is the null section).
    pub sections: Vec<Section<'a>>,
    /// Program headers.
    pub segments: Vec<Segment>,
    /// `.symtab` entries (empty if stripped).
    pub symbols: Vec<Symbol<'a>>,
    /// `.dynsym` entries.
    pub dynamic_symbols: Vec<Symbol<'a>>,
    /// Every note in every `SHT_NOTE` section (or `PT_NOTE` if no sections).
    pub notes: Vec<Note<'a>>,
    /// Every relocation.
    pub relocations: Vec<Relocation<'a>>,
    /// v3+ metadata (`NT_AMDGPU_METADATA`).
    pub metadata: Option<Metadata>,
    /// v2 metadata YAML text (`NT_AMD_HSA_METADATA`).
    pub metadata_v2_text: Option<&'a str>,
    /// v2 metadata, parsed.
    pub metadata_v2: Option<MetadataV2>,
    /// Kernels.
    pub kernels: Vec<KernelEntry<'a>>,
}

fn slice<'a>(data: &'a [u8], offset: u64, size: u64, what: &'static str) -> Result<&'a [u8]> {
    let available = (data.len() as u64).saturating_sub(offset);
    if offset > data.len() as u64 || size > available {
        return Err(Error::Truncated {
            what,
            offset,
            needed: size,
            available,
        });
    }
    Ok(&data[offset as usize..(offset + size) as usize])
}

fn read<T: FromBytes>(data: &[u8], offset: u64, what: &'static str) -> Result<T> {
    let bytes = slice(data, offset, size_of::<T>() as u64, what)?;
    T::read_from_bytes(bytes).map_err(|_| Error::malformed(what, offset))
}

fn cstr(table: &[u8], table_offset: u64, index: u32) -> Result<&str> {
    let start = index as usize;
    if start > table.len() {
        return Err(Error::malformed(
            format!(
                "string index {index} beyond string table of {} bytes",
                table.len()
            ),
            table_offset,
        ));
    }
    let rest = &table[start..];
    let len = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| Error::malformed("unterminated string", table_offset + u64::from(index)))?;
    std::str::from_utf8(&rest[..len])
        .map_err(|_| Error::malformed("string is not UTF-8", table_offset + u64::from(index)))
}

fn align4(n: u64) -> u64 {
    n.div_ceil(4) * 4
}

/// Parses a note area (`SHT_NOTE` contents) starting at file offset `base`.
pub fn parse_notes(area: &[u8], base: u64) -> Result<Vec<Note<'_>>> {
    let mut notes = Vec::new();
    let mut pos = 0u64;
    let len = area.len() as u64;
    while pos < len {
        let at = base + pos;
        let nh: Elf64_Nhdr = read(area, pos, "note header").map_err(|e| rebase(e, base))?;
        let namesz = u64::from(nh.n_namesz.get());
        let descsz = u64::from(nh.n_descsz.get());
        let name_off = pos + 12;
        let name = slice(area, name_off, namesz, "note name").map_err(|e| rebase(e, base))?;
        let name = name.strip_suffix(&[0]).unwrap_or(name);
        let name = std::str::from_utf8(name)
            .map_err(|_| Error::malformed("note name is not UTF-8", base + name_off))?;
        let desc_off = name_off + align4(namesz);
        let desc = slice(area, desc_off, descsz, "note descriptor").map_err(|e| rebase(e, base))?;
        notes.push(Note {
            name,
            n_type: nh.n_type.get(),
            desc,
            desc_offset: base + desc_off,
        });
        pos = desc_off + align4(descsz);
        debug_assert!(base + pos > at);
    }
    Ok(notes)
}

fn rebase(e: Error, base: u64) -> Error {
    match e {
        Error::Truncated {
            what,
            offset,
            needed,
            available,
        } => Error::Truncated {
            what,
            offset: offset + base,
            needed,
            available,
        },
        Error::Malformed { what, offset } => Error::Malformed {
            what,
            offset: offset + base,
        },
        other => other,
    }
}

impl<'a> CodeObject<'a> {
    /// Parses a code object.
    pub fn parse(data: &'a [u8]) -> Result<CodeObject<'a>> {
        let eh: Elf64_Ehdr = read(data, 0, "ELF header")?;
        if eh.e_ident[..4] != ELFMAG {
            return Err(Error::malformed("not an ELF file (bad magic)", 0));
        }
        if eh.e_ident[EI_CLASS] != ELFCLASS64 {
            return Err(Error::Unsupported {
                what: "ELF class (need ELFCLASS64)".into(),
                offset: 4,
            });
        }
        if eh.e_ident[EI_DATA] != ELFDATA2LSB {
            return Err(Error::Unsupported {
                what: "ELF data encoding (need little-endian)".into(),
                offset: 5,
            });
        }
        if eh.e_machine.get() != EM_AMDGPU {
            return Err(Error::Unsupported {
                what: format!("e_machine {} (need EM_AMDGPU = 224)", eh.e_machine.get()),
                offset: 18,
            });
        }
        let os_abi = eh.e_ident[EI_OSABI];
        let abi_version = eh.e_ident[EI_ABIVERSION];
        let e_flags = eh.e_flags.get();
        let code_object_version = match (os_abi, abi_version) {
            (ELFOSABI_AMDGPU_HSA, v @ 0..=4) => u32::from(v) + 2,
            (ELFOSABI_AMDGPU_HSA, v) => {
                return Err(Error::Unsupported {
                    what: format!("HSA ABI version {v}"),
                    offset: 8,
                });
            }
            // PAL, Mesa and unknown-OS objects: treat like v3 layout.
            _ => 3,
        };

        // Section headers.
        let shoff = eh.e_shoff.get();
        let shnum = u64::from(eh.e_shnum.get());
        if shnum != 0 && u64::from(eh.e_shentsize.get()) != size_of::<Elf64_Shdr>() as u64 {
            return Err(Error::malformed(
                format!("e_shentsize {}", eh.e_shentsize.get()),
                58,
            ));
        }
        let mut raw_sections = Vec::new();
        for i in 0..shnum {
            let at = shoff
                .checked_add(i * 64)
                .ok_or_else(|| Error::malformed("e_shoff overflows", 40))?;
            raw_sections.push((at, read::<Elf64_Shdr>(data, at, "section header")?));
        }
        let shstrndx = usize::from(eh.e_shstrndx.get());
        let shstr: (&[u8], u64) = if shnum == 0 {
            (&[], 0)
        } else {
            let (at, sh) = raw_sections.get(shstrndx).ok_or_else(|| {
                Error::malformed(format!("e_shstrndx {shstrndx} out of range"), 62)
            })?;
            let off = sh.sh_offset.get();
            let _ = at;
            (
                slice(data, off, sh.sh_size.get(), "section name table")?,
                off,
            )
        };
        let mut sections = Vec::new();
        for (index, (at, sh)) in raw_sections.iter().enumerate() {
            let name = if shnum == 0 || (index == 0 && sh.sh_name.get() == 0) {
                ""
            } else {
                cstr(shstr.0, shstr.1, sh.sh_name.get()).map_err(|e| match e {
                    Error::Malformed { what, .. } => {
                        Error::malformed(format!("section name: {what}"), *at)
                    }
                    other => other,
                })?
            };
            let sh_type = sh.sh_type.get();
            let offset = sh.sh_offset.get();
            let size = sh.sh_size.get();
            let data = if sh_type == SHT_NOBITS || sh_type == SHT_NULL {
                &[][..]
            } else {
                slice(data, offset, size, "section contents")?
            };
            sections.push(Section {
                index,
                name,
                sh_type,
                flags: sh.sh_flags.get(),
                addr: sh.sh_addr.get(),
                offset,
                size,
                link: sh.sh_link.get(),
                info: sh.sh_info.get(),
                align: sh.sh_addralign.get(),
                entsize: sh.sh_entsize.get(),
                data,
            });
        }

        // Program headers.
        let phoff = eh.e_phoff.get();
        let phnum = u64::from(eh.e_phnum.get());
        if phnum != 0 && u64::from(eh.e_phentsize.get()) != size_of::<Elf64_Phdr>() as u64 {
            return Err(Error::malformed(
                format!("e_phentsize {}", eh.e_phentsize.get()),
                54,
            ));
        }
        let mut segments = Vec::new();
        for i in 0..phnum {
            let at = phoff
                .checked_add(i * 56)
                .ok_or_else(|| Error::malformed("e_phoff overflows", 32))?;
            let ph: Elf64_Phdr = read(data, at, "program header")?;
            segments.push(Segment {
                p_type: ph.p_type.get(),
                flags: ph.p_flags.get(),
                offset: ph.p_offset.get(),
                vaddr: ph.p_vaddr.get(),
                paddr: ph.p_paddr.get(),
                filesz: ph.p_filesz.get(),
                memsz: ph.p_memsz.get(),
                align: ph.p_align.get(),
            });
        }

        // Symbols.
        let symbols_of = |sh_type: u32| -> Result<Vec<Symbol<'a>>> {
            let Some(sec) = sections.iter().find(|s| s.sh_type == sh_type) else {
                return Ok(Vec::new());
            };
            let strtab = sections.get(sec.link as usize).ok_or_else(|| {
                Error::malformed(
                    format!("symbol table links to missing section {}", sec.link),
                    sec.offset,
                )
            })?;
            read_symbols(sec, strtab)
        };
        let symbols = symbols_of(SHT_SYMTAB)?;
        let dynamic_symbols = symbols_of(SHT_DYNSYM)?;

        // Notes.
        let mut notes = Vec::new();
        let note_sections: Vec<_> = sections.iter().filter(|s| s.sh_type == SHT_NOTE).collect();
        if note_sections.is_empty() {
            for seg in segments.iter().filter(|p| p.p_type == PT_NOTE) {
                let area = slice(data, seg.offset, seg.filesz, "note segment")?;
                notes.extend(parse_notes(area, seg.offset)?);
            }
        } else {
            for s in note_sections {
                notes.extend(parse_notes(s.data, s.offset)?);
            }
        }

        // Relocations.
        let mut relocations = Vec::new();
        for sec in sections
            .iter()
            .filter(|s| s.sh_type == SHT_RELA || s.sh_type == SHT_REL)
        {
            let rela = sec.sh_type == SHT_RELA;
            let entsize = if rela { 24 } else { 16 };
            let symtab = sections.get(sec.link as usize);
            let syms: Vec<Symbol<'a>> = match symtab {
                Some(st) if st.sh_type == SHT_SYMTAB || st.sh_type == SHT_DYNSYM => {
                    let strtab = sections.get(st.link as usize).ok_or_else(|| {
                        Error::malformed("symbol table links to missing section", st.offset)
                    })?;
                    read_symbols(st, strtab)?
                }
                _ => Vec::new(),
            };
            for i in 0..sec.size / entsize {
                let at = sec.offset + i * entsize;
                let (r_offset, r_info, addend) = if rela {
                    let r: Elf64_Rela = read(data, at, "relocation")?;
                    (r.r_offset.get(), r.r_info.get(), r.r_addend.get())
                } else {
                    let r_offset: u64 =
                        read::<zerocopy::little_endian::U64>(data, at, "relocation")?.get();
                    let r_info: u64 =
                        read::<zerocopy::little_endian::U64>(data, at + 8, "relocation")?.get();
                    (r_offset, r_info, 0)
                };
                let symbol = (r_info >> 32) as u32;
                let symbol_name = match symbol {
                    0 => "",
                    n => syms.get(n as usize).map(|s| s.name).ok_or_else(|| {
                        Error::malformed(format!("relocation symbol index {n} out of range"), at)
                    })?,
                };
                relocations.push(Relocation {
                    section: sec.index,
                    target_section: sec.info as usize,
                    offset: r_offset,
                    r_type: r_info as u32,
                    symbol,
                    symbol_name,
                    addend,
                });
            }
        }

        // Metadata and target.
        let mut metadata = None;
        let mut metadata_v2 = None;
        let mut metadata_v2_text = None;
        let mut isa_v2 = None;
        for n in &notes {
            match (n.name, n.n_type) {
                ("AMDGPU", NT_AMDGPU_METADATA) => {
                    metadata = Some(Metadata::from_msgpack(n.desc, n.desc_offset)?);
                }
                ("AMD", NT_AMD_HSA_METADATA) => {
                    let text = n.desc.strip_suffix(&[0]).unwrap_or(n.desc);
                    let text = std::str::from_utf8(text).map_err(|_| Error::Metadata {
                        what: "v2 metadata is not UTF-8".into(),
                        offset: n.desc_offset,
                    })?;
                    metadata_v2 = Some(MetadataV2::from_yaml(text, n.desc_offset)?);
                    metadata_v2_text = Some(text);
                }
                ("AMD", NT_AMD_HSA_ISA_VERSION) if n.desc.len() >= 16 => {
                    // vendor_name_size u16, architecture_name_size u16,
                    // major u32, minor u32, stepping u32, names.
                    isa_v2 = Some((u32_at(n.desc, 4), u32_at(n.desc, 8), u32_at(n.desc, 12)));
                }
                _ => {}
            }
        }
        let target = if code_object_version >= 4 {
            TargetId::from_e_flags_v4(e_flags).ok()
        } else if code_object_version == 3 {
            Processor::from_mach((e_flags & EF_AMDGPU_MACH) as u8).map(|p| {
                let mut id = TargetId::new(p);
                let set = |bit: u32, s: Option<Setting>| {
                    s.map(|_| {
                        if e_flags & bit != 0 {
                            Setting::On
                        } else {
                            Setting::Off
                        }
                    })
                };
                id.xnack = set(EF_AMDGPU_FEATURE_XNACK_V3, id.xnack);
                id.sramecc = set(EF_AMDGPU_FEATURE_SRAMECC_V3, id.sramecc);
                id
            })
        } else {
            isa_v2.and_then(|(ma, mi, st)| {
                let mut id = crate::metadata_v2::isa_version_target(ma, mi, st)?;
                if e_flags & EF_AMDGPU_FEATURE_XNACK_V2 != 0 && id.xnack.is_some() {
                    id.xnack = Some(Setting::On);
                }
                Some(id)
            })
        };

        let header = Header {
            e_type: eh.e_type.get(),
            os_abi,
            abi_version,
            e_flags,
            entry: eh.e_entry.get(),
            code_object_version,
            target,
        };
        let mut co = CodeObject {
            data,
            header,
            sections,
            segments,
            symbols,
            dynamic_symbols,
            notes,
            relocations,
            metadata,
            metadata_v2_text,
            metadata_v2,
            kernels: Vec::new(),
        };
        co.kernels = co.find_kernels()?;
        Ok(co)
    }

    /// The code object v2 notes ("AMD" namespace), decoded.
    pub fn v2_notes(&self) -> Result<crate::metadata_v2::V2Notes> {
        crate::metadata_v2::decode_v2_notes(&self.notes)
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The symbols to search: `.symtab`, else `.dynsym`.
    pub fn all_symbols(&self) -> &[Symbol<'a>] {
        if self.symbols.is_empty() {
            &self.dynamic_symbols
        } else {
            &self.symbols
        }
    }

    /// File offset of a symbol's value (section-relative in `ET_REL`, an
    /// address otherwise).
    pub fn symbol_file_offset(&self, sym: &Symbol<'a>) -> Option<u64> {
        let sec = self.sections.get(usize::from(sym.shndx))?;
        if sec.sh_type == SHT_NOBITS || sec.index == 0 {
            return None;
        }
        let rel = if self.header.e_type == ET_REL {
            sym.value
        } else {
            sym.value.checked_sub(sec.addr)?
        };
        (rel <= sec.size).then(|| sec.offset + rel)
    }

    fn find_kernels(&self) -> Result<Vec<KernelEntry<'a>>> {
        let syms = self.all_symbols();
        let mut kernels = Vec::new();
        for sym in syms {
            let v2 = sym.kind == STT_AMDGPU_HSA_KERNEL;
            let name = if v2 {
                sym.name
            } else if sym.kind == STT_OBJECT {
                match sym.name.strip_suffix(".kd") {
                    Some(n) => n,
                    None => continue,
                }
            } else {
                continue;
            };
            let offset = self.symbol_file_offset(sym).ok_or_else(|| {
                Error::malformed(
                    format!("kernel symbol `{}` points outside its section", sym.name),
                    sym.entry_offset,
                )
            })?;
            let metadata_index = self.metadata.as_ref().and_then(|m| {
                m.kernels
                    .iter()
                    .position(|k| k.symbol == sym.name || k.name == name)
            });
            if v2 {
                let akc = amd_kernel_code_t::read(
                    slice(
                        self.data,
                        offset,
                        AMD_KERNEL_CODE_SIZE as u64,
                        "amd_kernel_code_t",
                    )?,
                    offset,
                )?;
                let entry_off = akc.kernel_code_entry_byte_offset.get();
                let entry_address = sym.value.wrapping_add_signed(entry_off);
                let code_len = sym.size.saturating_sub(entry_off.max(0) as u64);
                let code = offset
                    .checked_add_signed(entry_off)
                    .and_then(|o| slice(self.data, o, code_len, "kernel code").ok())
                    .unwrap_or(&[]);
                kernels.push(KernelEntry {
                    name,
                    header: KernelHeader::AmdKernelCode(Box::new(akc)),
                    descriptor_address: sym.value,
                    descriptor_offset: offset,
                    entry_address,
                    code,
                    metadata_index,
                });
                continue;
            }
            let bytes = slice(
                self.data,
                offset,
                KERNEL_DESCRIPTOR_SIZE as u64,
                "kernel descriptor",
            )?;
            let kd = kernel_descriptor_t::read(bytes, offset)?;
            let func = syms.iter().find(|s| s.name == name && s.kind == STT_FUNC);
            let entry_address = if self.header.e_type == ET_REL {
                // The entry offset is a relocation in relocatable objects.
                func.map(|f| f.value).unwrap_or(0)
            } else {
                sym.value
                    .wrapping_add_signed(kd.kernel_code_entry_byte_offset.get())
            };
            let code = match func {
                Some(f) => match self.symbol_file_offset(f) {
                    Some(o) => slice(self.data, o, f.size, "kernel code")?,
                    None => &[],
                },
                None => &[],
            };
            kernels.push(KernelEntry {
                name,
                header: KernelHeader::Descriptor(kd),
                descriptor_address: sym.value,
                descriptor_offset: offset,
                entry_address,
                code,
                metadata_index,
            });
        }
        Ok(kernels)
    }

    /// The metadata entry of a kernel.
    pub fn kernel_metadata(&self, k: &KernelEntry<'_>) -> Option<&metadata::Kernel> {
        self.metadata.as_ref()?.kernels.get(k.metadata_index?)
    }
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    b.get(i..i + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .unwrap_or(0)
}

fn read_symbols<'a>(sec: &Section<'a>, strtab: &Section<'a>) -> Result<Vec<Symbol<'a>>> {
    let mut out = Vec::new();
    let n = sec.data.len() / 24;
    for index in 0..n {
        let at = index as u64 * 24;
        let s: Elf64_Sym = read(sec.data, at, "symbol").map_err(|e| rebase(e, sec.offset))?;
        let name = cstr(strtab.data, strtab.offset, s.st_name.get()).map_err(|e| match e {
            Error::Malformed { what, .. } => {
                Error::malformed(format!("symbol name: {what}"), sec.offset + at)
            }
            other => other,
        })?;
        out.push(Symbol {
            index,
            name,
            value: s.st_value.get(),
            size: s.st_size.get(),
            kind: s.st_info & 0xf,
            bind: s.st_info >> 4,
            visibility: s.st_other & 3,
            shndx: s.st_shndx.get(),
            entry_offset: sec.offset + at,
        });
    }
    Ok(out)
}
