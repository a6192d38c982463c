//! Any bytes run as a kernel on the emulated GPU: faults, never panics or hangs.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| amdgpu_emu::fuzz::fuzz_execute(data));
