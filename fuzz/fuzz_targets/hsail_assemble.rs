//! HSAIL text (any bytes) through the assembler: errors, never panics.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| hsail::fuzz::fuzz_assemble(data));
