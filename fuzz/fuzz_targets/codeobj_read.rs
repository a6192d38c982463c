//! Any bytes through the AMDGPU code-object reader: errors, never panics.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| amdgpu_object::fuzz::fuzz_read(data));
