//! Text views of a code object in the formats of LLVM 19's tools, for
//! `hsakit readobj` and for differential tests: the ELF header, section
//! headers, program headers, symbol tables and notes as `llvm-readelf -h`,
//! `-S`, `-l`, `-s`, `--notes` print them; kernel descriptors as
//! `llvm-objdump -D --disassemble-symbols=K.kd` prints them.

use std::fmt::Write as _;

use crate::elf::{NT_AMDGPU_METADATA, SHT_NOTE};
use crate::metadata;
use crate::read::{CodeObject, Note};

fn note_type(n: &Note<'_>) -> String {
    match (n.name, n.n_type) {
        ("AMDGPU", NT_AMDGPU_METADATA) => "NT_AMDGPU_METADATA (AMDGPU Metadata)".into(),
        ("AMD", 1) => "NT_AMD_HSA_CODE_OBJECT_VERSION (AMD HSA Code Object Version)".into(),
        ("AMD", 2) => "NT_AMD_HSA_HSAIL (AMD HSA HSAIL Properties)".into(),
        ("AMD", 3) => "NT_AMD_HSA_ISA_VERSION (AMD HSA ISA Version)".into(),
        ("AMD", 10) => "NT_AMD_HSA_METADATA (AMD HSA Metadata)".into(),
        ("AMD", 11) => "NT_AMD_HSA_ISA_NAME (AMD HSA ISA Name)".into(),
        (_, t) => format!("Unknown note type: (0x{t:08x})"),
    }
}

fn print_note(out: &mut String, n: &Note<'_>) {
    let _ = writeln!(
        out,
        "  {:<20} 0x{:08x}\t{}",
        n.name,
        n.desc.len(),
        note_type(n)
    );
    if n.name == "AMDGPU" && n.n_type == NT_AMDGPU_METADATA {
        match metadata::decode_value(n.desc, n.desc_offset) {
            Ok(v) => {
                out.push_str("    AMDGPU Metadata:\n        ");
                out.push_str(&metadata::to_yaml(&v));
            }
            Err(_) => out.push_str("    Invalid AMDGPU Metadata\n"),
        }
        out.push('\n');
    }
}

/// The notes as `llvm-readelf-19 --notes` prints them (GNU style): one
/// block per `SHT_NOTE` section; AMDGPU metadata shown as YAML.
pub fn readelf_notes(co: &CodeObject<'_>) -> String {
    let mut out = String::new();
    for sec in co.sections.iter().filter(|s| s.sh_type == SHT_NOTE) {
        let _ = writeln!(out, "Displaying notes found in: {}", sec.name);
        out.push_str("  Owner                Data size \tDescription\n");
        for n in co
            .notes
            .iter()
            .filter(|n| n.desc_offset >= sec.offset && n.desc_offset < sec.offset + sec.size)
        {
            print_note(&mut out, n);
        }
    }
    out
}

/// Every kernel descriptor as `llvm-objdump-19 -D --disassemble-symbols=K.kd`
/// prints it (LLVM's error text for descriptors it rejects, as a comment).
pub fn kernel_descriptors(co: &CodeObject<'_>) -> String {
    let mut out = String::new();
    let Some(target) = &co.header.target else {
        return out;
    };
    for k in &co.kernels {
        let Some(kd) = k.descriptor() else { continue };
        match kd.to_directives(
            k.name,
            target.processor,
            co.header.code_object_version,
            k.descriptor_offset,
        ) {
            Ok(s) => out.push_str(&s),
            Err(crate::Error::KernelDescriptor { what, .. }) => {
                let _ = writeln!(out, "; error decoding {}.kd: {what}", k.name);
            }
            Err(e) => {
                let _ = writeln!(out, "; error: {e}");
            }
        }
    }
    out
}

/// Every kernel descriptor field by field (`kernel_descriptor_t` in
/// AMDGPUUsage's layout: offset, field, value), with where the entry
/// offset leads; the bit fields of the `COMPUTE_PGM_RSRC*` and property
/// words are what [`kernel_descriptors`] decodes.
pub fn kernel_descriptor_fields(co: &CodeObject<'_>) -> String {
    let mut out = String::new();
    for k in &co.kernels {
        let Some(kd) = k.descriptor() else {
            let _ = writeln!(out, "{}.kd: no descriptor", k.name);
            continue;
        };
        let _ = writeln!(
            out,
            "Kernel descriptor {}.kd at {:#x}:",
            k.name, k.descriptor_offset
        );
        let entry = kd.kernel_code_entry_byte_offset.get();
        let fields: [(u32, &str, String); 9] = [
            (
                0,
                "group_segment_fixed_size",
                kd.group_segment_fixed_size.get().to_string(),
            ),
            (
                4,
                "private_segment_fixed_size",
                kd.private_segment_fixed_size.get().to_string(),
            ),
            (8, "kernarg_size", kd.kernarg_size.get().to_string()),
            (
                16,
                "kernel_code_entry_byte_offset",
                format!("{entry} (entry at {:#x})", k.entry_address),
            ),
            (
                44,
                "compute_pgm_rsrc3",
                format!("{:#010x}", kd.compute_pgm_rsrc3.get()),
            ),
            (
                48,
                "compute_pgm_rsrc1",
                format!("{:#010x}", kd.compute_pgm_rsrc1.get()),
            ),
            (
                52,
                "compute_pgm_rsrc2",
                format!("{:#010x}", kd.compute_pgm_rsrc2.get()),
            ),
            (
                56,
                "kernel_code_properties",
                format!("{:#06x}", kd.kernel_code_properties.get()),
            ),
            (
                58,
                "kernarg_preload",
                format!("{:#06x}", kd.kernarg_preload.get()),
            ),
        ];
        for (offset, name, value) in fields {
            let _ = writeln!(out, "  {offset:>2}  {name:<30} {value}");
        }
    }
    out
}

fn os_abi_name(v: u8) -> String {
    match v {
        0 => "UNIX - System V".into(),
        64 => "AMDGPU - HSA".into(),
        65 => "AMDGPU - PAL".into(),
        66 => "AMDGPU - MESA3D".into(),
        v => format!("<unknown: {v:x}>"),
    }
}

fn e_type_name(t: u16) -> String {
    match t {
        0 => "NONE (None)".into(),
        1 => "REL (Relocatable file)".into(),
        2 => "EXEC (Executable file)".into(),
        3 => "DYN (Shared object file)".into(),
        4 => "CORE (Core file)".into(),
        t => format!("<unknown>: {t:x}"),
    }
}

/// `e_flags` as llvm-readelf writes it for AMDGPU v4+: hex, processor,
/// `xnack`/`xnack+`/`xnack-`, `sramecc`/`sramecc+`/`sramecc-`, then
/// `generic_vN` when the generic version (bits 24–31, v6) is set.
fn flags_text(co: &CodeObject<'_>) -> String {
    let f = co.header.e_flags;
    let mut s = format!("0x{f:X}");
    if co.header.code_object_version >= 4
        && let Some(p) = amdgpu_isa::target::Processor::from_mach((f & 0xff) as u8)
    {
        let _ = write!(s, ", {}", p.name);
        for (name, bits) in [("xnack", (f >> 8) & 3), ("sramecc", (f >> 10) & 3)] {
            match bits {
                1 => {
                    let _ = write!(s, ", {name}");
                }
                2 => {
                    let _ = write!(s, ", {name}-");
                }
                3 => {
                    let _ = write!(s, ", {name}+");
                }
                _ => {}
            }
        }
        let generic = f >> amdgpu_isa::target::EF_AMDGPU_GENERIC_VERSION_OFFSET;
        if generic != 0 {
            let _ = write!(s, ", generic_v{generic}");
        }
    }
    s
}

/// The ELF header as `llvm-readelf-19 -h` prints it.
pub fn readelf_header(co: &CodeObject<'_>) -> String {
    let d = co.data;
    let u16_at = |o: usize| u16::from_le_bytes([d[o], d[o + 1]]);
    let u64_at = |o: usize| u64::from_le_bytes(d[o..o + 8].try_into().unwrap_or([0; 8]));
    let mut out = String::from("ELF Header:\n  Magic:  ");
    for b in &d[..16] {
        let _ = write!(out, " {b:02x}");
    }
    out.push('\n');
    let mut field = |k: &str, v: String| {
        let _ = writeln!(out, "  {:<35}{v}", format!("{k}:"));
    };
    field("Class", "ELF64".into());
    field("Data", "2's complement, little endian".into());
    field("Version", "1 (current)".into());
    field("OS/ABI", os_abi_name(co.header.os_abi));
    field("ABI Version", co.header.abi_version.to_string());
    field("Type", e_type_name(co.header.e_type));
    field("Machine", "EM_AMDGPU".into());
    field(
        "Version",
        format!("0x{:x}", u32::from_le_bytes([d[20], d[21], d[22], d[23]])),
    );
    field("Entry point address", format!("0x{:x}", co.header.entry));
    field(
        "Start of program headers",
        format!("{} (bytes into file)", u64_at(32)),
    );
    field(
        "Start of section headers",
        format!("{} (bytes into file)", u64_at(40)),
    );
    field("Flags", flags_text(co));
    field("Size of this header", format!("{} (bytes)", u16_at(52)));
    field("Size of program headers", format!("{} (bytes)", u16_at(54)));
    field("Number of program headers", u16_at(56).to_string());
    field("Size of section headers", format!("{} (bytes)", u16_at(58)));
    field("Number of section headers", u16_at(60).to_string());
    field("Section header string table index", u16_at(62).to_string());
    out
}

fn section_type_name(t: u32) -> String {
    use crate::elf::*;
    match t {
        SHT_NULL => "NULL",
        SHT_PROGBITS => "PROGBITS",
        SHT_SYMTAB => "SYMTAB",
        SHT_STRTAB => "STRTAB",
        SHT_RELA => "RELA",
        SHT_HASH => "HASH",
        SHT_DYNAMIC => "DYNAMIC",
        SHT_NOTE => "NOTE",
        SHT_NOBITS => "NOBITS",
        SHT_REL => "REL",
        SHT_DYNSYM => "DYNSYM",
        SHT_GNU_HASH => "GNU_HASH",
        0x6fff_4c03 => "LLVM_ADDRSIG",
        0x6fff_ffff => "VERSYM",
        0x6fff_fffe => "VERNEED",
        0x6fff_fffd => "VERDEF",
        _ => return format!("0x{t:x}: <unknown>"),
    }
    .into()
}

fn section_flags(f: u64) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (0x1, 'W'),
        (0x2, 'A'),
        (0x4, 'X'),
        (0x10, 'M'),
        (0x20, 'S'),
        (0x40, 'I'),
        (0x80, 'L'),
        (0x100, 'O'),
        (0x200, 'G'),
        (0x400, 'T'),
        (0x800, 'C'),
        (0x20_0000, 'R'),
        (0x8000_0000, 'E'),
    ] {
        if f & bit != 0 {
            s.push(c);
        }
    }
    s
}

/// The section headers as `llvm-readelf-19 -S` prints them.
pub fn readelf_sections(co: &CodeObject<'_>) -> String {
    let d = co.data;
    let shoff = u64::from_le_bytes(d[40..48].try_into().unwrap_or([0; 8]));
    let mut out = format!(
        "There are {} section headers, starting at offset 0x{shoff:x}:\n\nSection Headers:\n",
        co.sections.len()
    );
    out.push_str("  [Nr] Name              Type            Address          Off    Size   ES Flg Lk Inf Al\n");
    for s in &co.sections {
        let name = if s.name.len() >= 17 {
            format!("{} ", s.name)
        } else {
            format!("{:<18}", s.name)
        };
        let ty = section_type_name(s.sh_type);
        let ty = if ty.len() >= 15 {
            format!("{ty} ")
        } else {
            format!("{ty:<16}")
        };
        let _ = writeln!(
            out,
            "  [{:>2}] {name}{ty}{:016x} {:06x} {:06x} {:02x} {:>3} {:>2} {:>3} {:>2}",
            s.index,
            s.addr,
            s.offset,
            s.size,
            s.entsize,
            section_flags(s.flags),
            s.link,
            s.info,
            s.align
        );
    }
    out.push_str(
        "Key to Flags:\n  W (write), A (alloc), X (execute), M (merge), S (strings), I (info),\n  \
         L (link order), O (extra OS processing required), G (group), T (TLS),\n  \
         C (compressed), x (unknown), o (OS specific), E (exclude),\n  \
         R (retain), p (processor specific)\n",
    );
    out
}

/// The symbol tables (`.dynsym`, then `.symtab`) as `llvm-readelf-19 -s`
/// prints them.
pub fn readelf_symbols(co: &CodeObject<'_>) -> String {
    let mut out = String::new();
    for (name, syms) in [(".dynsym", &co.dynamic_symbols), (".symtab", &co.symbols)] {
        if !co.sections.iter().any(|s| s.name == name) {
            continue;
        }
        let _ = writeln!(
            out,
            "\nSymbol table '{name}' contains {} entries:",
            syms.len()
        );
        out.push_str("   Num:    Value          Size Type    Bind   Vis       Ndx Name\n");
        for s in syms.iter() {
            let ty = match s.kind {
                0 => "NOTYPE".to_string(),
                1 => "OBJECT".into(),
                2 => "FUNC".into(),
                3 => "SECTION".into(),
                4 => "FILE".into(),
                5 => "COMMON".into(),
                6 => "TLS".into(),
                10 => "AMDGPU_HSA_KERNEL".into(),
                k => format!("<unknown>: {k}"),
            };
            let bind = match s.bind {
                0 => "LOCAL".to_string(),
                1 => "GLOBAL".into(),
                2 => "WEAK".into(),
                b => format!("<unknown>: {b}"),
            };
            let vis = ["DEFAULT", "INTERNAL", "HIDDEN", "PROTECTED"][usize::from(s.visibility & 3)];
            let ndx = match s.shndx {
                0 => "UND".to_string(),
                0xfff1 => "ABS".into(),
                0xfff2 => "COM".into(),
                n => n.to_string(),
            };
            let _ = writeln!(
                out,
                "{:>6}: {:016x} {:>5} {ty:<7} {bind:<6} {vis:<9} {ndx:>3} {}",
                s.index, s.value, s.size, s.name
            );
        }
    }
    out
}

fn segment_type_name(t: u32) -> String {
    use crate::elf::*;
    match t {
        0 => "NULL",
        PT_LOAD => "LOAD",
        PT_DYNAMIC => "DYNAMIC",
        3 => "INTERP",
        PT_NOTE => "NOTE",
        PT_PHDR => "PHDR",
        7 => "TLS",
        0x6474_e550 => "GNU_EH_FRAME",
        PT_GNU_STACK => "GNU_STACK",
        PT_GNU_RELRO => "GNU_RELRO",
        _ => return format!("0x{t:x}"),
    }
    .into()
}

/// Whether llvm-readelf counts a section as part of a segment (its
/// offset and address checks; TLS is not used by AMDGPU code objects).
fn section_in_segment(p: &crate::read::Segment, s: &crate::read::Section<'_>) -> bool {
    use crate::elf::{PT_DYNAMIC, SHF_ALLOC, SHT_NOBITS};
    if p.p_type == 7 {
        return false;
    }
    let offsets = s.sh_type == SHT_NOBITS
        || (s.offset >= p.offset
            && if s.size == 0 {
                s.offset < p.offset + p.filesz
            } else {
                s.offset + s.size <= p.offset + p.filesz
            });
    let vma = s.flags & SHF_ALLOC == 0
        || (s.addr >= p.vaddr
            && if s.size == 0 {
                s.addr < p.vaddr + p.memsz
            } else {
                s.addr + s.size <= p.vaddr + p.memsz
            });
    let dynamic = p.p_type != PT_DYNAMIC
        || p.memsz == 0
        || s.size != 0
        || ((s.sh_type == SHT_NOBITS || (s.offset > p.offset && s.offset < p.offset + p.filesz))
            && (s.flags & SHF_ALLOC == 0 || (s.addr > p.vaddr && s.addr < p.memsz)));
    offsets && vma && dynamic
}

/// The program headers and section-to-segment mapping as
/// `llvm-readelf-19 -l` prints them.
pub fn readelf_segments(co: &CodeObject<'_>) -> String {
    let mut out = String::from("\n");
    if co.segments.is_empty() {
        out.push_str("There are no program headers in this file.\n");
    } else {
        let phoff = u64::from_le_bytes(co.data[32..40].try_into().unwrap_or([0; 8]));
        let _ = writeln!(out, "Elf file type is {}", e_type_name(co.header.e_type));
        let _ = writeln!(out, "Entry point 0x{:x}", co.header.entry);
        let _ = writeln!(
            out,
            "There are {} program headers, starting at offset {phoff}\n",
            co.segments.len()
        );
        out.push_str("Program Headers:\n");
        out.push_str("  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align\n");
        for p in &co.segments {
            let flags: String = [(4, 'R'), (2, 'W'), (1, 'E')]
                .iter()
                .map(|&(b, c)| if p.flags & b != 0 { c } else { ' ' })
                .collect();
            let _ = writeln!(
                out,
                "  {:<14} 0x{:06x} 0x{:016x} 0x{:016x} 0x{:06x} 0x{:06x} {flags} 0x{:x}",
                segment_type_name(p.p_type),
                p.offset,
                p.vaddr,
                p.paddr,
                p.filesz,
                p.memsz,
                p.align
            );
        }
    }
    out.push_str("\n Section to Segment mapping:\n  Segment Sections...\n");
    let mut placed = vec![false; co.sections.len()];
    for (i, p) in co.segments.iter().enumerate() {
        let _ = write!(out, "   {i:02}     ");
        for s in co.sections.iter().skip(1) {
            if section_in_segment(p, s) {
                placed[s.index] = true;
                let _ = write!(out, "{} ", s.name);
            }
        }
        out.push('\n');
    }
    out.push_str("   None   ");
    for s in co.sections.iter().skip(1) {
        if !placed[s.index] {
            let _ = write!(out, "{} ", s.name);
        }
    }
    out.push('\n');
    out
}
