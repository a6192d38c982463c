//! Any bytes through the HSAIL validator: errors, never panics.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsail::fuzz::fuzz_validate(data));
