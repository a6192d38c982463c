//! AMDGPU code objects: the ELF files that carry GPU kernels.
//!
//! ```text
//!  hsail-finalizer ──write──►  code object (ELF)  ◄── clang / llvm-mc + ld.lld
//!  hsakit as       ──write──►        │
//!                                   read
//!                        ┌──────────┼──────────────┐
//!                        ▼          ▼              ▼
//!                 hsa-runtime   amdgpu-emu     hsakit readobj
//!                  (loader)   (wave state via [abi])
//! ```
//!
//! This crate knows the code object format (AMDGPUUsage "ELF Code Object",
//! "Kernel Descriptor", "Code Object Metadata"; ROCm's v2 format):
//!
//! - [`kd`]: the 64-byte `kernel_descriptor_t` with typed views of
//!   `compute_pgm_rsrc1/2/3` and `kernel_code_properties`, and a printer of
//!   the `.amdhsa_*` directives as `llvm-objdump -D` shows them;
//! - [`directives`]: the `.amdhsa_kernel` directives and how llvm-mc turns
//!   them into a descriptor (defaults, register blocks, user SGPR count);
//! - [`metadata`]: v3–v5 msgpack metadata (serde types, LLVM-identical
//!   encoding, the YAML `llvm-readelf --notes` prints);
//! - [`metadata_v2`]: code object v2 YAML metadata and ISA notes;
//! - [`read`]: a zero-copy, bounds-checked reader for v2–v6, `ET_REL` and
//!   `ET_DYN` (header, sections, segments, symbols, notes, relocations,
//!   kernels);
//! - [`write`](mod@write): a writer of loadable v4–v6 objects laid out as
//!   `ld.lld -shared` lays them out;
//! - [`print`](mod@print): notes and descriptors in the text formats of
//!   `llvm-readelf`/`llvm-objdump` (for `hsakit readobj`);
//! - [`abi`]: the kernel ABI contract — what the hardware puts in which
//!   SGPR/VGPR at wave start, and the hidden kernel arguments — shared by
//!   the finalizer (which generates code against it) and the emulator
//!   (which builds wave state from it).
//!
//! Processors and target IDs come from `amdgpu-isa`; [`target`] adds the
//! code-object facts (register granules, ABI quirks) on top.

pub mod abi;
pub mod amd_kernel_code;
pub mod asm;
pub mod directives;
pub mod disasm;
pub mod elf;
pub mod error;
pub mod kd;
pub mod metadata;
pub mod metadata_v2;
pub mod print;
pub mod read;
pub mod target;
pub mod write;

pub use error::{Error, Result};
pub use kd::kernel_descriptor_t;
pub use metadata::Metadata;
pub use read::CodeObject;
pub use target::{Processor, TargetId};

/// Fuzz entry points (library code so that `cargo test` can smoke-test
/// them; `fuzz/` wraps them for `cargo fuzz`).
pub mod fuzz {
    /// Parses arbitrary bytes as a code object and exercises everything
    /// derived from it. Must never panic.
    pub fn fuzz_read(data: &[u8]) {
        let Ok(co) = crate::read::CodeObject::parse(data) else {
            return;
        };
        for k in &co.kernels {
            if let (Some(kd), Some(t)) = (k.descriptor(), &co.header.target) {
                let _ = kd.to_directives(k.name, t.processor, co.header.code_object_version, 0);
                let _ = crate::abi::WaveLayout::new(kd, t.processor);
            }
        }
        let _ = co.v2_notes();
        let _ = crate::print::readelf_notes(&co);
        let _ = crate::print::readelf_header(&co);
        let _ = crate::print::readelf_sections(&co);
        let _ = crate::print::readelf_symbols(&co);
        let _ = crate::print::readelf_segments(&co);
        let _ = crate::print::kernel_descriptors(&co);
        if let Some(m) = &co.metadata {
            let _ = m.to_yaml();
        }
        for n in &co.notes {
            if n.n_type == crate::elf::NT_AMDGPU_METADATA
                && let Ok(v) = crate::metadata::decode_value(n.desc, n.desc_offset)
            {
                let _ = crate::metadata::to_yaml(&v);
            }
        }
        let _ = crate::disasm::objdump_d(&co, "fuzz");
    }

    /// The GFX9 processor a fuzz input's first byte selects (one per
    /// table column), and the rest of the input.
    fn target_and_rest(data: &[u8]) -> Option<(amdgpu_isa::gfx9::Target, &[u8])> {
        let (&pick, rest) = data.split_first()?;
        let all = amdgpu_isa::gfx9::Target::ALL;
        Some((all[usize::from(pick) % all.len()], rest))
    }

    /// Assembles arbitrary text (`hsakit as`: the directive and
    /// instruction parser) for the processor the first byte selects, then
    /// writes the relocatable object, links, and reads the result back.
    /// Must never panic.
    pub fn fuzz_assemble(data: &[u8]) {
        let Some((target, rest)) = target_and_rest(data) else {
            return;
        };
        let Ok(id) = crate::target::TargetId::parse(target.name()) else {
            return;
        };
        let opts = crate::asm::Options {
            target: id,
            file_name: "fuzz.s".into(),
        };
        let Ok(assembly) = crate::asm::assemble(&String::from_utf8_lossy(rest), &opts) else {
            return;
        };
        if let Ok(obj) = assembly.object() {
            fuzz_read(&obj);
        }
        if let Ok(co) = assembly.link("fuzz") {
            fuzz_read(&co);
        }
    }

    /// Decodes arbitrary bytes as GFX9 machine code for the processor the
    /// first byte selects: every instruction is printed, and the text is
    /// parsed and encoded again. Must never panic.
    pub fn fuzz_decode(data: &[u8]) {
        use amdgpu_isa::gfx9;
        let Some((target, code)) = target_and_rest(data) else {
            return;
        };
        for (_, inst) in gfx9::disassemble(code, target).flatten() {
            let text = gfx9::print(&inst);
            let _ = gfx9::encode(&inst, target);
            if let Ok(again) = gfx9::parse_line(&text, target) {
                let _ = gfx9::encode(&again, target);
            }
        }
    }
}
