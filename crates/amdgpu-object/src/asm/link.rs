//! [`Assembly::link`]: the loadable code object `ld.lld -shared` would
//! make of the assembled file, through [`write_code_object`].

use super::{Assembly, Diagnostic, Errors, Section, Symbol};
use crate::elf::STV_DEFAULT;
use crate::write::{KernelInput, WriteOptions, write_code_object};

impl Assembly {
    /// The section named `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    pub(super) fn sym(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    pub(super) fn link_error(&self, line: usize, message: String) -> Errors {
        Errors(vec![Diagnostic {
            file: self.file_name.clone(),
            line: 0,
            column: 0,
            len: 0,
            message: if line > 0 {
                format!("{message} (kernel at line {line})")
            } else {
                message
            },
            source: String::new(),
        }])
    }

    /// Links as `ld.lld -shared` would, through [`write_code_object`].
    /// Supports what that writer lays out: `.text` holding the kernels
    /// (each at a 256-byte boundary, in kernel order, nothing else) and
    /// `.rodata` holding their descriptors (64 bytes each, in order), and
    /// `.data` (plain bytes: module variables) when present.
    pub fn link(&self, comment: &str) -> Result<Vec<u8>, Errors> {
        if self.kernels.is_empty() {
            return Err(self.link_error(0, "no kernels (.amdhsa_kernel) to link".into()));
        }
        if let Some(r) = self.relocations.first() {
            return Err(self.link_error(
                0,
                format!(
                    "relocation against {} in {}: not supported by the linker (assemble with -c)",
                    r.symbol, self.sections[r.section].name
                ),
            ));
        }
        for s in &self.sections {
            if ![".text", ".rodata", ".data"].contains(&s.name.as_str()) && !s.data.is_empty() {
                return Err(self.link_error(
                    0,
                    format!(
                        "section {} is not supported by the linker (only .text, .rodata and .data)",
                        s.name
                    ),
                ));
            }
        }
        let text = self.section(".text").map_or(&[][..], |s| &s.data[..]);
        let rodata = self.section(".rodata");
        let mut inputs = Vec::new();
        let mut expect_text = 0u64;
        let mut kd_vis = Vec::new();
        for (i, k) in self.kernels.iter().enumerate() {
            let Some(sym) = self.sym(&k.name) else {
                return Err(self.link_error(k.line, format!("kernel {} has no code", k.name)));
            };
            let Some((sec, off)) = sym.defined else {
                return Err(self.link_error(k.line, format!("undefined symbol: {}", k.name)));
            };
            if self.sections[sec].name != ".text" {
                return Err(self.link_error(k.line, format!("kernel {} is not in .text", k.name)));
            }
            if !sym.global {
                return Err(self.link_error(k.line, format!("kernel {} is not .globl", k.name)));
            }
            if off != expect_text.next_multiple_of(256) {
                return Err(self.link_error(
                    k.line,
                    format!(
                        "kernel {} at .text+{off:#x}: the linker needs kernels at 256-byte boundaries in kernel order (.p2align 8)",
                        k.name
                    ),
                ));
            }
            let end = match sym.size {
                Some(size) => off.saturating_add(size),
                None => text.len() as u64,
            };
            let Some(code) = text.get(off as usize..end as usize) else {
                return Err(self.link_error(k.line, format!("bad .size of {}", k.name)));
            };
            expect_text = end;
            if self.sections[k.at.0].name != ".rodata" || k.at.1 != 64 * i as u64 {
                return Err(self.link_error(
                    k.line,
                    format!(
                        "descriptor of {} must be the next 64 bytes of .rodata (.p2align 6)",
                        k.name
                    ),
                ));
            }
            let kd = self.sym(&format!("{}.kd", k.name));
            kd_vis.push(kd.map_or(STV_DEFAULT, |s| s.visibility));
            inputs.push(KernelInput {
                name: &k.name,
                code,
                descriptor: k.descriptor,
            });
        }
        if text.len() as u64 > expect_text {
            return Err(self.link_error(
                0,
                "code after the last kernel's .size is not supported by the linker".into(),
            ));
        }
        if rodata.is_some_and(|r| r.data.len() != 64 * self.kernels.len()) {
            return Err(self.link_error(
                0,
                ".rodata holds more than the kernel descriptors (not supported by the linker)"
                    .into(),
            ));
        }
        for s in &self.symbols {
            let temp = s.name.starts_with(".L");
            let kernel = self
                .kernels
                .iter()
                .any(|k| k.name == s.name || format!("{}.kd", k.name) == s.name);
            if s.defined.is_some() && !temp && !kernel {
                return Err(self.link_error(
                    0,
                    format!(
                        "symbol {} is not supported by the linker (use .L labels)",
                        s.name
                    ),
                ));
            }
        }
        let mut opts = WriteOptions::new(self.target.clone(), self.code_object_version);
        opts.metadata = self.metadata.clone();
        opts.comment = comment.to_string();
        opts.kd_visibility = kd_vis;
        if let Some(d) = self.section(".data") {
            opts.data = d.data.clone();
            opts.data_align = d.align.max(1);
        }
        // Global symbols in order of first mention, as llvm-mc orders them.
        let mut order: Vec<(usize, usize)> = Vec::new();
        for (i, k) in self.kernels.iter().enumerate() {
            let at = |name: &str| self.symbols.iter().position(|s| s.name == name);
            order.push((at(&k.name).unwrap_or(usize::MAX), 2 * i));
            order.push((
                at(&format!("{}.kd", k.name)).unwrap_or(usize::MAX),
                2 * i + 1,
            ));
        }
        order.sort();
        opts.symbol_order = order.into_iter().map(|(_, j)| j).collect();
        write_code_object(&inputs, &opts).map_err(|e| self.link_error(0, e.to_string()))
    }
}
