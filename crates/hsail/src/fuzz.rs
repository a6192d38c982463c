//! Fuzz entry points (used by `fuzz/fuzz_targets/*` and by the seeded smoke
//! test `tests/fuzz_smoke.rs`): arbitrary bytes go through the assembler and
//! the disassembler, which must answer with a result or an error, never a
//! panic or a hang.

/// Any bytes as HSAIL source (lossily decoded) through [`crate::assemble`].
pub fn fuzz_assemble(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let _ = crate::assemble(&source, "fuzz.hsail");
}

/// Any bytes as a BRIG module through [`crate::disassemble`].
pub fn fuzz_disassemble(data: &[u8]) {
    let _ = crate::disassemble(data);
}

/// Any bytes as a BRIG module through the validator.
pub fn fuzz_validate(data: &[u8]) {
    crate::validate::fuzz_one(data);
}
