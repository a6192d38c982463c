//! [`Assembly::object`]: the relocatable object (`ET_REL`) that
//! `llvm-mc -filetype=obj` writes, byte for byte.

use std::collections::HashMap;

use super::{Assembly, Errors, Symbol};
use crate::elf::*;

/// `R_AMDGPU_REL64`: the descriptor's `kernel_code_entry_byte_offset`.
const R_AMDGPU_REL64: u64 = 5;
/// `SHF_INFO_LINK`.
const SHF_INFO_LINK: u64 = 0x40;

/// A string table as LLVM's `StringTableBuilder` (ELF kind, optimized)
/// lays it out: strings sorted by their reversed bytes, descending, so that
/// a string that is a suffix of the previous one shares its bytes.
fn llvm_string_table(names: &[&str]) -> (Vec<u8>, HashMap<String, u32>) {
    let mut unique: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    unique.sort_by(|a, b| b.bytes().rev().cmp(a.bytes().rev()));
    unique.dedup();
    let mut bytes = vec![0u8];
    let mut at = HashMap::new();
    let mut previous: &str = "";
    for name in unique {
        if previous.ends_with(name) {
            let pos = bytes.len() - name.len() - 1;
            at.insert(name.to_string(), pos as u32);
            continue;
        }
        at.insert(name.to_string(), bytes.len() as u32);
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        previous = name;
    }
    at.insert(String::new(), 0);
    (bytes, at)
}

impl Assembly {
    /// The relocatable object `llvm-mc -filetype=obj` writes (`ET_REL`):
    /// `.strtab`, the sections in order of creation (`.text` first), each
    /// followed by its `.rela` section, the metadata `.note`, `.symtab`.
    pub fn object(&self) -> Result<Vec<u8>, Errors> {
        struct Sec<'a> {
            name: String,
            sh_type: u32,
            flags: u64,
            data: &'a [u8],
            align: u64,
            link: u32,
            info: u32,
            entsize: u64,
        }
        // User sections; `.text` always exists and comes first.
        let mut user: Vec<usize> = Vec::new();
        let text = self.sections.iter().position(|s| s.name == ".text");
        user.extend(text);
        user.extend((0..self.sections.len()).filter(|&i| Some(i) != text));
        // Symbols: locals (non-temporary), then globals, in order of
        // first mention.
        let emitted = |s: &&Symbol| {
            !s.name.starts_with(".L") && (s.defined.is_some() || s.absolute.is_some() || s.global)
        };
        // An LDS variable is global, and only there when `.globl` or used.
        let mut undefined_refs: Vec<&str> = Vec::new();
        for k in &self.kernels {
            if self.sym(&k.name).is_none_or(|s| s.defined.is_none()) {
                undefined_refs.push(&k.name);
            }
        }
        for r in &self.relocations {
            if self.sym(&r.symbol).is_none_or(|s| s.defined.is_none()) {
                undefined_refs.push(&r.symbol);
            }
        }
        let is_global = |s: &Symbol| {
            s.global
                || (s.defined.is_none() && undefined_refs.contains(&s.name.as_str()))
                || (s.lds.is_some() && emitted(&s))
        };
        let mut syms: Vec<&Symbol> = self
            .symbols
            .iter()
            .filter(|s| emitted(s) || undefined_refs.contains(&s.name.as_str()))
            .filter(|s| !is_global(s))
            .collect();
        let n_locals = syms.len() + 1;
        syms.extend(
            self.symbols
                .iter()
                .filter(|s| emitted(s) || undefined_refs.contains(&s.name.as_str()))
                .filter(|s| is_global(s)),
        );
        let sym_index = |name: &str| syms.iter().position(|s| s.name == name).map(|i| i + 1);

        // Relocations per user section: (offset, symbol, type, addend).
        let mut relocs: Vec<Vec<(u64, usize, u64, i64)>> = vec![Vec::new(); self.sections.len()];
        for k in &self.kernels {
            let Some(si) = sym_index(&k.name) else {
                return Err(self.link_error(k.line, format!("no symbol for kernel {}", k.name)));
            };
            relocs[k.at.0].push((k.at.1 + 16, si, R_AMDGPU_REL64, 16));
        }
        for r in &self.relocations {
            let Some(si) = sym_index(&r.symbol) else {
                return Err(self.link_error(0, format!("no symbol for relocation {}", r.symbol)));
            };
            relocs[r.section].push((r.offset, si, u64::from(r.kind), r.addend));
        }

        // Section headers: null, .strtab, (section, .rela)*, .note, .symtab.
        let mut secs: Vec<Sec<'_>> = vec![Sec {
            name: ".strtab".into(),
            sh_type: SHT_STRTAB,
            flags: 0,
            data: &[],
            align: 1,
            link: 0,
            info: 0,
            entsize: 0,
        }];
        let mut header_of = vec![0u32; self.sections.len()];
        let mut rela_of: Vec<(usize, usize)> = Vec::new();
        for &i in &user {
            let s = &self.sections[i];
            let default_align = if s.name == ".text" { 4 } else { 1 };
            secs.push(Sec {
                name: s.name.clone(),
                sh_type: s.sh_type,
                flags: s.flags,
                data: &s.data,
                align: s.align.max(default_align),
                link: 0,
                info: 0,
                entsize: 0,
            });
            header_of[i] = (secs.len()) as u32;
            if !relocs[i].is_empty() {
                secs.push(Sec {
                    name: format!(".rela{}", s.name),
                    sh_type: SHT_RELA,
                    flags: SHF_INFO_LINK,
                    data: &[],
                    align: 8,
                    link: 0,
                    info: header_of[i],
                    entsize: 24,
                });
                rela_of.push((secs.len() - 1, i));
            }
        }
        let note = self.metadata.as_ref().map(|m| {
            let desc = m.to_msgpack();
            let mut n = Vec::new();
            n.extend_from_slice(&7u32.to_le_bytes());
            n.extend_from_slice(&(desc.len() as u32).to_le_bytes());
            n.extend_from_slice(&crate::elf::NT_AMDGPU_METADATA.to_le_bytes());
            n.extend_from_slice(b"AMDGPU\0\0");
            n.extend_from_slice(&desc);
            n.resize(n.len().next_multiple_of(4), 0);
            n
        });
        if let Some(n) = &note {
            secs.push(Sec {
                name: ".note".into(),
                sh_type: SHT_NOTE,
                flags: SHF_ALLOC,
                data: n,
                align: 4,
                link: 0,
                info: 0,
                entsize: 0,
            });
        }
        let symtab_index = secs.len() as u32 + 1;
        secs.push(Sec {
            name: ".symtab".into(),
            sh_type: SHT_SYMTAB,
            flags: 0,
            data: &[],
            align: 8,
            link: 1,
            info: n_locals as u32,
            entsize: 24,
        });
        for (r, _) in &rela_of {
            secs[*r].link = symtab_index;
        }

        // One string table for section and symbol names.
        let mut names: Vec<&str> = secs.iter().map(|s| s.name.as_str()).collect();
        names.extend(syms.iter().map(|s| s.name.as_str()));
        let (strtab, str_at) = llvm_string_table(&names);
        let name_of = |n: &str| str_at.get(n).copied().unwrap_or(0);

        let mut symtab = vec![0u8; 24];
        for s in &syms {
            let (shndx, value) = match (s.defined, s.absolute, s.lds) {
                (Some((sec, off)), ..) => (header_of[sec] as u16, off),
                (None, Some(v), _) => (SHN_ABS, v as u64),
                (None, None, Some((_, align))) => (SHN_AMDGPU_LDS, align),
                _ => (SHN_UNDEF, 0),
            };
            let kind = if s.function {
                STT_FUNC
            } else if s.object {
                STT_OBJECT
            } else {
                STT_NOTYPE
            };
            let bind = if is_global(s) { STB_GLOBAL } else { STB_LOCAL };
            symtab.extend_from_slice(&name_of(&s.name).to_le_bytes());
            symtab.push(bind << 4 | kind);
            symtab.push(s.visibility);
            symtab.extend_from_slice(&shndx.to_le_bytes());
            symtab.extend_from_slice(&value.to_le_bytes());
            let size = s.lds.map_or(s.size.unwrap_or(0), |(n, _)| n);
            symtab.extend_from_slice(&size.to_le_bytes());
        }
        let mut rela_data: Vec<Vec<u8>> = Vec::new();
        for (_, i) in &rela_of {
            let mut d = Vec::new();
            for &(off, sym, ty, addend) in &relocs[*i] {
                d.extend_from_slice(&off.to_le_bytes());
                d.extend_from_slice(&((sym as u64) << 32 | ty).to_le_bytes());
                d.extend_from_slice(&addend.to_le_bytes());
            }
            rela_data.push(d);
        }

        // File layout: header, section contents, .symtab, .rela*, .strtab,
        // section headers.
        let mut out = vec![0u8; 64];
        let mut placed: Vec<(u64, u64)> = vec![(0, 0); secs.len()];
        let put = |out: &mut Vec<u8>, data: &[u8], align: u64| -> (u64, u64) {
            let at = (out.len() as u64).next_multiple_of(align.max(1));
            out.resize(at as usize, 0);
            out.extend_from_slice(data);
            (at, data.len() as u64)
        };
        for (i, s) in secs.iter().enumerate() {
            if matches!(s.sh_type, SHT_PROGBITS | SHT_NOTE) {
                placed[i] = put(&mut out, s.data, s.align);
            } else if s.sh_type == SHT_NOBITS {
                let at = (out.len() as u64).next_multiple_of(s.align.max(1));
                placed[i] = (at, s.data.len() as u64);
            }
        }
        let last = secs.len() - 1;
        placed[last] = put(&mut out, &symtab, 8);
        for ((r, _), d) in rela_of.iter().zip(&rela_data) {
            placed[*r] = put(&mut out, d, 8);
        }
        placed[0] = put(&mut out, &strtab, 1);
        let shoff = (out.len() as u64).next_multiple_of(8);
        out.resize(shoff as usize, 0);
        out.extend_from_slice(&[0u8; 64]);
        for (s, (off, size)) in secs.iter().zip(&placed) {
            out.extend_from_slice(&name_of(&s.name).to_le_bytes());
            out.extend_from_slice(&s.sh_type.to_le_bytes());
            out.extend_from_slice(&s.flags.to_le_bytes());
            out.extend_from_slice(&0u64.to_le_bytes());
            out.extend_from_slice(&off.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&s.link.to_le_bytes());
            out.extend_from_slice(&s.info.to_le_bytes());
            out.extend_from_slice(&s.align.to_le_bytes());
            out.extend_from_slice(&s.entsize.to_le_bytes());
        }

        // ELF header.
        let mut h = Vec::with_capacity(64);
        h.extend_from_slice(&ELFMAG);
        h.extend_from_slice(&[ELFCLASS64, ELFDATA2LSB, EV_CURRENT, ELFOSABI_AMDGPU_HSA]);
        h.push((self.code_object_version - 2) as u8);
        h.extend_from_slice(&[0u8; 7]);
        h.extend_from_slice(&ET_REL.to_le_bytes());
        h.extend_from_slice(&EM_AMDGPU.to_le_bytes());
        h.extend_from_slice(&1u32.to_le_bytes());
        h.extend_from_slice(&0u64.to_le_bytes()); // e_entry
        h.extend_from_slice(&0u64.to_le_bytes()); // e_phoff
        h.extend_from_slice(&shoff.to_le_bytes());
        h.extend_from_slice(&self.target.e_flags_v4().to_le_bytes());
        h.extend_from_slice(&64u16.to_le_bytes()); // e_ehsize
        h.extend_from_slice(&0u16.to_le_bytes()); // e_phentsize
        h.extend_from_slice(&0u16.to_le_bytes()); // e_phnum
        h.extend_from_slice(&64u16.to_le_bytes()); // e_shentsize
        h.extend_from_slice(&(secs.len() as u16 + 1).to_le_bytes());
        h.extend_from_slice(&1u16.to_le_bytes()); // e_shstrndx
        out[..64].copy_from_slice(&h);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_table_is_laid_out_like_llvm() {
        // `.strtab` of `llvm-mc-19 -filetype=obj` for a kernel `k` whose
        // descriptor is in `.rodata` (see tests/asm_oracle.rs for whole files).
        let names = [
            ".strtab",
            ".text",
            ".rodata",
            ".rela.rodata",
            ".symtab",
            "k.kd",
            "k",
        ];
        let (bytes, at) = llvm_string_table(&names);
        assert_eq!(
            bytes,
            b"\0.text\0k\0k.kd\0.strtab\0.symtab\0.rela.rodata\0".as_slice()
        );
        assert_eq!(at[".rodata"], at[".rela.rodata"] + 5);
    }
}
