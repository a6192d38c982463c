//! Writer of loadable code objects (v4/v5/v6, `ET_DYN`), laid out exactly
//! as `ld.lld-19 -shared` lays out the output of one llvm-mc/clang object:
//!
//! ```text
//! ELF header, program headers (PHDR, LOAD r, LOAD rx, LOAD rw, DYNAMIC,
//!   GNU_RELRO, GNU_STACK, NOTE)
//! .note .dynsym .gnu.hash .hash .dynstr .rodata   first page(s), VA = offset
//! .text                                           next page, 256-aligned
//! .dynamic .relro_padding                         next page
//! .data (only when WriteOptions::data is not empty)  next page, own PT_LOAD
//! .comment .symtab .shstrtab .strtab              not loaded
//! section headers
//! ```
//!
//! A new `PT_LOAD` starts at `align(dot, 4096) + dot % 4096` and its file
//! offset is congruent to its address modulo the page size (lld's rule).
//! `.dynsym` is ordered by GNU hash bucket (stable), like lld.

use zerocopy::IntoBytes;

use crate::elf::*;
use crate::error::{Error, Result};
use crate::kd::kernel_descriptor_t;
use crate::metadata::Metadata;
use crate::target::TargetId;

const PAGE: u64 = 0x1000;
/// `s_nop 0`, which llvm-mc uses to pad code between kernels.
const S_NOP_0: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];

/// One kernel to write.
#[derive(Debug, Clone)]
pub struct KernelInput<'a> {
    /// Kernel (function) name; the descriptor is `name.kd`.
    pub name: &'a str,
    /// Machine code.
    pub code: &'a [u8],
    /// Descriptor; `kernel_code_entry_byte_offset` is filled in by the writer.
    pub descriptor: kernel_descriptor_t,
}

/// What the whole code object is for.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// Processor and xnack/sramecc settings (`e_flags`).
    pub target: TargetId,
    /// 4, 5 or 6 (`EI_ABIVERSION` = version - 2).
    pub code_object_version: u32,
    /// Metadata for the `NT_AMDGPU_METADATA` note (omitted if `None`).
    pub metadata: Option<Metadata>,
    /// Contents of `.comment` (lld writes `Linker: LLD <version>`).
    pub comment: String,
    /// `STV_*` visibility of each kernel's `.kd` symbol, in kernel order;
    /// kernels past the end of the list get `STV_PROTECTED`. (llvm-mc
    /// leaves `.kd` at `STV_DEFAULT` unless the source says `.protected`.)
    pub kd_visibility: Vec<u8>,
    /// Order of the global symbols in the input object (which `.symtab` and
    /// the bucket-stable `.dynsym` follow), as indices into
    /// `[k0, k0.kd, k1, k1.kd, …]`; empty for that order. llvm-mc orders
    /// them by first mention in the source.
    pub symbol_order: Vec<usize>,
    /// Contents of a writable `.data` section (module variables), placed
    /// in its own `PT_LOAD` after the RELRO one; none when empty.
    pub data: Vec<u8>,
    /// Alignment of `.data` (a power of two).
    pub data_align: u64,
}

impl WriteOptions {
    /// Options with an `hsakit` comment and no metadata.
    pub fn new(target: TargetId, code_object_version: u32) -> WriteOptions {
        WriteOptions {
            target,
            code_object_version,
            metadata: None,
            comment: concat!("hsakit ", env!("CARGO_PKG_VERSION")).to_string(),
            kd_visibility: Vec::new(),
            symbol_order: Vec::new(),
            data: Vec::new(),
            data_align: 1,
        }
    }
}

/// GNU hash of a symbol name (`h = h * 33 + c`, from 5381).
pub fn gnu_hash(name: &str) -> u32 {
    name.bytes().fold(5381u32, |h, c| {
        h.wrapping_mul(33).wrapping_add(u32::from(c))
    })
}

/// SysV ELF hash of a symbol name.
pub fn elf_hash(name: &str) -> u32 {
    let mut h = 0u32;
    for c in name.bytes() {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

struct StrTab {
    bytes: Vec<u8>,
}

impl StrTab {
    fn new() -> StrTab {
        StrTab { bytes: vec![0] }
    }
    fn add(&mut self, s: &str) -> u32 {
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        at
    }
}

#[derive(Clone)]
struct Sym {
    name: String,
    info: u8,
    other: u8,
    shndx: u16,
    value: u64,
    size: u64,
}

fn align(v: u64, a: u64) -> u64 {
    if a <= 1 { v } else { v.next_multiple_of(a) }
}

/// Smallest offset >= `off` with `offset % PAGE == va % PAGE`.
fn congruent(off: u64, va: u64) -> u64 {
    off + (va.wrapping_sub(off) % PAGE)
}

struct Shdr {
    name: &'static str,
    sh_type: u32,
    flags: u64,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

/// Writes a loadable code object.
pub fn write_code_object(kernels: &[KernelInput<'_>], opts: &WriteOptions) -> Result<Vec<u8>> {
    if !(4..=6).contains(&opts.code_object_version) {
        return Err(Error::Write {
            what: format!(
                "code object version {} (need 4, 5 or 6)",
                opts.code_object_version
            ),
        });
    }
    if kernels.is_empty() {
        return Err(Error::Write {
            what: "no kernels".into(),
        });
    }
    let note = opts.metadata.as_ref().map(|m| {
        let desc = m.to_msgpack();
        let mut n = Vec::new();
        n.extend_from_slice(&7u32.to_le_bytes());
        n.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        n.extend_from_slice(&NT_AMDGPU_METADATA.to_le_bytes());
        n.extend_from_slice(b"AMDGPU\0\0");
        n.extend_from_slice(&desc);
        n.resize(align(n.len() as u64, 4) as usize, 0);
        n
    });
    let has_note = note.is_some();
    let has_data = !opts.data.is_empty();
    let phnum: u64 = 7 + u64::from(has_note) + u64::from(has_data);

    // Section indices.
    let base = u16::from(has_note);
    let (i_dynsym, i_gnu_hash, i_hash, i_dynstr, i_rodata, i_text, i_dynamic) = (
        base + 1,
        base + 2,
        base + 3,
        base + 4,
        base + 5,
        base + 6,
        base + 7,
    );
    let after = base + u16::from(has_data);
    let (i_relro, i_comment, i_symtab, i_shstrtab, i_strtab) =
        (base + 8, after + 9, after + 10, after + 11, after + 12);

    // Global symbols in input order: each function, then its descriptor.
    let mut globals: Vec<Sym> = Vec::new();
    for (i, k) in kernels.iter().enumerate() {
        globals.push(Sym {
            name: k.name.to_string(),
            info: STB_GLOBAL << 4 | STT_FUNC,
            other: STV_PROTECTED,
            shndx: i_text,
            value: 0,
            size: k.code.len() as u64,
        });
        globals.push(Sym {
            name: format!("{}.kd", k.name),
            info: STB_GLOBAL << 4 | STT_OBJECT,
            other: opts.kd_visibility.get(i).copied().unwrap_or(STV_PROTECTED),
            shndx: i_rodata,
            value: 0,
            size: 64,
        });
    }
    // `pos[j]`: where the j-th symbol of the default order ends up.
    let mut pos: Vec<usize> = (0..globals.len()).collect();
    if !opts.symbol_order.is_empty() {
        let mut seen = vec![false; globals.len()];
        let valid = opts.symbol_order.len() == globals.len()
            && opts
                .symbol_order
                .iter()
                .all(|&j| j < seen.len() && !std::mem::replace(&mut seen[j], true));
        if !valid {
            return Err(Error::Write {
                what: "symbol_order is not a permutation of the kernel symbols".into(),
            });
        }
        let default = globals.clone();
        for (at, &j) in opts.symbol_order.iter().enumerate() {
            globals[at] = default[j].clone();
            pos[j] = at;
        }
    }
    let n_hashed = globals.len();
    let nbuckets = (n_hashed / 4).max(1);
    let mut dynstr = StrTab::new();
    let dyn_names: Vec<u32> = globals.iter().map(|s| dynstr.add(&s.name)).collect();
    // Stable sort by bucket, as lld does.
    let mut order: Vec<usize> = (0..n_hashed).collect();
    order.sort_by_key(|&i| gnu_hash(&globals[i].name) as usize % nbuckets);

    // Sizes of the first segment's sections.
    let dynsym_size = (1 + n_hashed as u64) * 24;
    let mask_words = (n_hashed as u64 * 12 / 64 + 1).next_power_of_two();
    let gnu_hash_size = 16 + 8 * mask_words + 4 * nbuckets as u64 + 4 * n_hashed as u64;
    let hash_size = (2 + 2 * (1 + n_hashed as u64)) * 4;

    let mut off = 64 + phnum * 56;
    let note_off = align(off, 4);
    if let Some(n) = &note {
        off = note_off + n.len() as u64;
    }
    let dynsym_off = align(off, 8);
    let gnu_hash_off = align(dynsym_off + dynsym_size, 8);
    let hash_off = align(gnu_hash_off + gnu_hash_size, 4);
    let dynstr_off = hash_off + hash_size;
    let rodata_off = align(dynstr_off + dynstr.bytes.len() as u64, 64);
    let rodata_size = 64 * kernels.len() as u64;
    let seg1_end = rodata_off + rodata_size;

    // .text on the next page.
    let mut text_off_in = Vec::new();
    let mut t = 0u64;
    for k in kernels {
        t = align(t, 256);
        text_off_in.push(t);
        t += k.code.len() as u64;
    }
    let text_size = t;
    let text_va = align(align(seg1_end, PAGE) + seg1_end % PAGE, 256);
    let text_off = congruent(align(seg1_end, 256), text_va);
    let text_end_va = text_va + text_size;
    let text_end_off = text_off + text_size;

    // .dynamic on the next page.
    let dynamic_size = 7 * 16;
    let dynamic_va = align(align(text_end_va, PAGE) + text_end_va % PAGE, 8);
    let dynamic_off = congruent(align(text_end_off, 8), dynamic_va);
    let dyn_end_va = dynamic_va + dynamic_size;
    let relro_size = align(dyn_end_va, PAGE) - dyn_end_va;
    let after_dyn_off = dynamic_off + dynamic_size;

    // .data right after .dynamic in the file, on the page after the RELRO
    // padding in memory (congruent modulo the page size).
    let data_align = opts.data_align.max(1);
    let relro_end = dyn_end_va + relro_size;
    let data_off = align(after_dyn_off, data_align);
    let data_va = align(relro_end, PAGE) + data_off % PAGE;
    let data_size = opts.data.len() as u64;
    let after_data_off = if has_data {
        data_off + data_size
    } else {
        after_dyn_off
    };

    // Addresses of symbols.
    for (i, k) in kernels.iter().enumerate() {
        globals[pos[2 * i]].value = text_va + text_off_in[i];
        globals[pos[2 * i + 1]].value = rodata_off + 64 * i as u64;
        let _ = k;
    }

    // Non-loaded sections.
    let comment_off = after_data_off;
    let mut comment = opts.comment.as_bytes().to_vec();
    comment.push(0);
    let symtab_off = align(comment_off + comment.len() as u64, 8);
    let mut strtab = StrTab::new();
    let str_names: Vec<u32> = globals.iter().map(|s| strtab.add(&s.name)).collect();
    let dynamic_name = strtab.add("_DYNAMIC");
    let symtab_size = (2 + n_hashed as u64) * 24;
    let mut shstrtab = StrTab::new();
    let mut names = Vec::new();
    let section_names: &[&str] = &[
        ".note",
        ".dynsym",
        ".gnu.hash",
        ".hash",
        ".dynstr",
        ".rodata",
        ".text",
        ".dynamic",
        ".relro_padding",
        ".comment",
        ".symtab",
        ".shstrtab",
        ".strtab",
    ];
    for n in &section_names[usize::from(!has_note)..] {
        names.push((*n, shstrtab.add(n)));
        if *n == ".relro_padding" && has_data {
            names.push((".data", shstrtab.add(".data")));
        }
    }
    let shstrtab_off = symtab_off + symtab_size;
    let strtab_off = shstrtab_off + shstrtab.bytes.len() as u64;
    let shoff = align(strtab_off + strtab.bytes.len() as u64, 8);

    let mut shdrs = vec![Shdr {
        name: "",
        sh_type: SHT_NULL,
        flags: 0,
        addr: 0,
        offset: 0,
        size: 0,
        link: 0,
        info: 0,
        align: 0,
        entsize: 0,
    }];
    if let Some(n) = &note {
        shdrs.push(Shdr {
            name: ".note",
            sh_type: SHT_NOTE,
            flags: SHF_ALLOC,
            addr: note_off,
            offset: note_off,
            size: n.len() as u64,
            link: 0,
            info: 0,
            align: 4,
            entsize: 0,
        });
    }
    let l_dynstr = u32::from(i_dynstr);
    let l_dynsym = u32::from(i_dynsym);
    shdrs.extend([
        Shdr {
            name: ".dynsym",
            sh_type: SHT_DYNSYM,
            flags: SHF_ALLOC,
            addr: dynsym_off,
            offset: dynsym_off,
            size: dynsym_size,
            link: l_dynstr,
            info: 1,
            align: 8,
            entsize: 24,
        },
        Shdr {
            name: ".gnu.hash",
            sh_type: SHT_GNU_HASH,
            flags: SHF_ALLOC,
            addr: gnu_hash_off,
            offset: gnu_hash_off,
            size: gnu_hash_size,
            link: l_dynsym,
            info: 0,
            align: 8,
            entsize: 0,
        },
        Shdr {
            name: ".hash",
            sh_type: SHT_HASH,
            flags: SHF_ALLOC,
            addr: hash_off,
            offset: hash_off,
            size: hash_size,
            link: l_dynsym,
            info: 0,
            align: 4,
            entsize: 4,
        },
        Shdr {
            name: ".dynstr",
            sh_type: SHT_STRTAB,
            flags: SHF_ALLOC,
            addr: dynstr_off,
            offset: dynstr_off,
            size: dynstr.bytes.len() as u64,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        },
        Shdr {
            name: ".rodata",
            sh_type: SHT_PROGBITS,
            flags: SHF_ALLOC,
            addr: rodata_off,
            offset: rodata_off,
            size: rodata_size,
            link: 0,
            info: 0,
            align: 64,
            entsize: 0,
        },
        Shdr {
            name: ".text",
            sh_type: SHT_PROGBITS,
            flags: SHF_ALLOC | SHF_EXECINSTR,
            addr: text_va,
            offset: text_off,
            size: text_size,
            link: 0,
            info: 0,
            align: 256,
            entsize: 0,
        },
        Shdr {
            name: ".dynamic",
            sh_type: SHT_DYNAMIC,
            flags: SHF_WRITE | SHF_ALLOC,
            addr: dynamic_va,
            offset: dynamic_off,
            size: dynamic_size,
            link: l_dynstr,
            info: 0,
            align: 8,
            entsize: 16,
        },
        Shdr {
            name: ".relro_padding",
            sh_type: SHT_NOBITS,
            flags: SHF_WRITE | SHF_ALLOC,
            addr: dyn_end_va,
            offset: after_dyn_off,
            size: relro_size,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        },
    ]);
    if has_data {
        shdrs.push(Shdr {
            name: ".data",
            sh_type: SHT_PROGBITS,
            flags: SHF_WRITE | SHF_ALLOC,
            addr: data_va,
            offset: data_off,
            size: data_size,
            link: 0,
            info: 0,
            align: data_align,
            entsize: 0,
        });
    }
    shdrs.extend([
        Shdr {
            name: ".comment",
            sh_type: SHT_PROGBITS,
            flags: SHF_MERGE | SHF_STRINGS,
            addr: 0,
            offset: comment_off,
            size: comment.len() as u64,
            link: 0,
            info: 0,
            align: 1,
            entsize: 1,
        },
        Shdr {
            name: ".symtab",
            sh_type: SHT_SYMTAB,
            flags: 0,
            addr: 0,
            offset: symtab_off,
            size: symtab_size,
            link: u32::from(i_strtab),
            info: 2,
            align: 8,
            entsize: 24,
        },
        Shdr {
            name: ".shstrtab",
            sh_type: SHT_STRTAB,
            flags: 0,
            addr: 0,
            offset: shstrtab_off,
            size: shstrtab.bytes.len() as u64,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        },
        Shdr {
            name: ".strtab",
            sh_type: SHT_STRTAB,
            flags: 0,
            addr: 0,
            offset: strtab_off,
            size: strtab.bytes.len() as u64,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        },
    ]);
    debug_assert_eq!(shdrs.len(), usize::from(i_strtab) + 1);
    let _ = (i_gnu_hash, i_hash, i_relro, i_comment, i_symtab);

    let mut out = vec![0u8; (shoff + 64 * shdrs.len() as u64) as usize];
    let put = |out: &mut Vec<u8>, at: u64, bytes: &[u8]| {
        out[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
    };

    // ELF header.
    let mut eh = Elf64_Ehdr::default();
    eh.e_ident[..4].copy_from_slice(&ELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_ident[EI_OSABI] = ELFOSABI_AMDGPU_HSA;
    eh.e_ident[EI_ABIVERSION] = (opts.code_object_version - 2) as u8;
    eh.e_type.set(ET_DYN);
    eh.e_machine.set(EM_AMDGPU);
    eh.e_version.set(1);
    eh.e_phoff.set(64);
    eh.e_shoff.set(shoff);
    eh.e_flags.set(opts.target.e_flags_v4());
    eh.e_ehsize.set(64);
    eh.e_phentsize.set(56);
    eh.e_phnum.set(phnum as u16);
    eh.e_shentsize.set(64);
    eh.e_shnum.set(shdrs.len() as u16);
    eh.e_shstrndx.set(i_shstrtab);
    put(&mut out, 0, eh.as_bytes());

    // Program headers.
    let ph = |p_type, flags, offset, vaddr, filesz, memsz, align| {
        let mut p = Elf64_Phdr::default();
        p.p_type.set(p_type);
        p.p_flags.set(flags);
        p.p_offset.set(offset);
        p.p_vaddr.set(vaddr);
        p.p_paddr.set(vaddr);
        p.p_filesz.set(filesz);
        p.p_memsz.set(memsz);
        p.p_align.set(align);
        p
    };
    let mut phdrs = vec![
        ph(PT_PHDR, PF_R, 64, 64, phnum * 56, phnum * 56, 8),
        ph(PT_LOAD, PF_R, 0, 0, seg1_end, seg1_end, PAGE),
        ph(
            PT_LOAD,
            PF_R | PF_X,
            text_off,
            text_va,
            text_size,
            text_size,
            PAGE,
        ),
        ph(
            PT_LOAD,
            PF_R | PF_W,
            dynamic_off,
            dynamic_va,
            dynamic_size,
            dynamic_size + relro_size,
            PAGE,
        ),
    ];
    if has_data {
        phdrs.push(ph(
            PT_LOAD,
            PF_R | PF_W,
            data_off,
            data_va,
            data_size,
            data_size,
            PAGE,
        ));
    }
    phdrs.extend([
        ph(
            PT_DYNAMIC,
            PF_R | PF_W,
            dynamic_off,
            dynamic_va,
            dynamic_size,
            dynamic_size,
            8,
        ),
        ph(
            PT_GNU_RELRO,
            PF_R,
            dynamic_off,
            dynamic_va,
            dynamic_size,
            dynamic_size + relro_size,
            1,
        ),
        ph(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0),
    ]);
    if let Some(n) = &note {
        phdrs.push(ph(
            PT_NOTE,
            PF_R,
            note_off,
            note_off,
            n.len() as u64,
            n.len() as u64,
            4,
        ));
    }
    for (i, p) in phdrs.iter().enumerate() {
        put(&mut out, 64 + 56 * i as u64, p.as_bytes());
    }

    if let Some(n) = &note {
        put(&mut out, note_off, n);
    }

    // .dynsym in bucket order.
    let sym_bytes = |s: &Sym, name: u32| {
        let mut e = Elf64_Sym::default();
        e.st_name.set(name);
        e.st_info = s.info;
        e.st_other = s.other;
        e.st_shndx.set(s.shndx);
        e.st_value.set(s.value);
        e.st_size.set(s.size);
        e
    };
    for (pos, &i) in order.iter().enumerate() {
        put(
            &mut out,
            dynsym_off + 24 * (1 + pos as u64),
            sym_bytes(&globals[i], dyn_names[i]).as_bytes(),
        );
    }

    // .gnu.hash
    let mut gh = Vec::new();
    gh.extend_from_slice(&(nbuckets as u32).to_le_bytes());
    gh.extend_from_slice(&1u32.to_le_bytes());
    gh.extend_from_slice(&(mask_words as u32).to_le_bytes());
    gh.extend_from_slice(&26u32.to_le_bytes());
    let mut bloom = vec![0u64; mask_words as usize];
    for &i in &order {
        let h = gnu_hash(&globals[i].name);
        let w = ((h as u64 / 64) & (mask_words - 1)) as usize;
        bloom[w] |= 1u64 << (h % 64);
        bloom[w] |= 1u64 << ((h >> 26) % 64);
    }
    for w in bloom {
        gh.extend_from_slice(&w.to_le_bytes());
    }
    let mut buckets = vec![0u32; nbuckets];
    let mut values = Vec::new();
    for (pos, &i) in order.iter().enumerate() {
        let h = gnu_hash(&globals[i].name);
        let b = h as usize % nbuckets;
        let last = order
            .get(pos + 1)
            .is_none_or(|&j| gnu_hash(&globals[j].name) as usize % nbuckets != b);
        values.push(if last { h | 1 } else { h & !1 });
        if buckets[b] == 0 {
            buckets[b] = 1 + pos as u32;
        }
    }
    for b in buckets {
        gh.extend_from_slice(&b.to_le_bytes());
    }
    for v in values {
        gh.extend_from_slice(&v.to_le_bytes());
    }
    put(&mut out, gnu_hash_off, &gh);

    // .hash (SysV): nbucket = nchain = number of dynamic symbols.
    let nsyms = 1 + n_hashed;
    let mut hb = vec![0u32; nsyms];
    let mut hc = vec![0u32; nsyms];
    for (pos, &i) in order.iter().enumerate() {
        let idx = 1 + pos;
        let b = elf_hash(&globals[i].name) as usize % nsyms;
        hc[idx] = hb[b];
        hb[b] = idx as u32;
    }
    let mut hs = Vec::new();
    hs.extend_from_slice(&(nsyms as u32).to_le_bytes());
    hs.extend_from_slice(&(nsyms as u32).to_le_bytes());
    for v in hb.into_iter().chain(hc) {
        hs.extend_from_slice(&v.to_le_bytes());
    }
    put(&mut out, hash_off, &hs);
    put(&mut out, dynstr_off, &dynstr.bytes);

    // .rodata: descriptors with the entry offset filled in.
    for (i, k) in kernels.iter().enumerate() {
        let mut kd = k.descriptor;
        let kd_addr = rodata_off + 64 * i as u64;
        let entry = text_va + text_off_in[i];
        kd.kernel_code_entry_byte_offset
            .set(entry.wrapping_sub(kd_addr) as i64);
        put(&mut out, kd_addr, kd.as_bytes());
    }

    // .text: code, padded with s_nop 0 between kernels.
    for (i, k) in kernels.iter().enumerate() {
        let start = text_off + text_off_in[i];
        put(&mut out, start, k.code);
        let end = text_off + text_off_in.get(i + 1).copied().unwrap_or(text_size);
        let mut p = start + k.code.len() as u64;
        while p + 4 <= end {
            put(&mut out, p, &S_NOP_0);
            p += 4;
        }
    }

    // .dynamic
    let dyns: [(i64, u64); 7] = [
        (DT_SYMTAB, dynsym_off),
        (DT_SYMENT, 24),
        (DT_STRTAB, dynstr_off),
        (DT_STRSZ, dynstr.bytes.len() as u64),
        (DT_GNU_HASH, gnu_hash_off),
        (DT_HASH, hash_off),
        (DT_NULL, 0),
    ];
    for (i, (tag, val)) in dyns.iter().enumerate() {
        let mut d = Elf64_Dyn::default();
        d.d_tag.set(*tag);
        d.d_val.set(*val);
        put(&mut out, dynamic_off + 16 * i as u64, d.as_bytes());
    }

    if has_data {
        put(&mut out, data_off, &opts.data);
    }
    put(&mut out, comment_off, &comment);

    // .symtab: null, _DYNAMIC (local), globals in input order.
    let dynamic_sym = Sym {
        name: "_DYNAMIC".into(),
        info: STB_LOCAL << 4 | STT_NOTYPE,
        other: STV_HIDDEN,
        shndx: i_dynamic,
        value: dynamic_va,
        size: 0,
    };
    put(
        &mut out,
        symtab_off + 24,
        sym_bytes(&dynamic_sym, dynamic_name).as_bytes(),
    );
    for (i, s) in globals.iter().enumerate() {
        put(
            &mut out,
            symtab_off + 24 * (2 + i as u64),
            sym_bytes(s, str_names[i]).as_bytes(),
        );
    }
    put(&mut out, shstrtab_off, &shstrtab.bytes);
    put(&mut out, strtab_off, &strtab.bytes);

    // Section headers.
    for (i, s) in shdrs.iter().enumerate() {
        let mut h = Elf64_Shdr::default();
        let name = names
            .iter()
            .find(|(n, _)| *n == s.name)
            .map_or(0, |(_, o)| *o);
        h.sh_name.set(if i == 0 { 0 } else { name });
        h.sh_type.set(s.sh_type);
        h.sh_flags.set(s.flags);
        h.sh_addr.set(s.addr);
        h.sh_offset.set(s.offset);
        h.sh_size.set(s.size);
        h.sh_link.set(s.link);
        h.sh_info.set(s.info);
        h.sh_addralign.set(s.align);
        h.sh_entsize.set(s.entsize);
        put(&mut out, shoff + 64 * i as u64, h.as_bytes());
    }
    Ok(out)
}
