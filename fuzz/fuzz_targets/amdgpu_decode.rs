//! Any bytes through the GFX9 decoder, printer and re-encoder: errors,
//! never panics (first byte: the GFX9 processor).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| amdgpu_object::fuzz::fuzz_decode(data));
