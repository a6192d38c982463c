//! Any bytes through the BRIG reader and dump: errors, never panics.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| brig::fuzz::fuzz_read(data));
