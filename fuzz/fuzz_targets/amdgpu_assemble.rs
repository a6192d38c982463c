//! Any text through the AMDGPU assembler (`hsakit as`), its object writer
//! and linker: errors, never panics (first byte: the GFX9 processor).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| amdgpu_object::fuzz::fuzz_assemble(data));
