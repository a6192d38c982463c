//! Layer 1 of the validator (PRM 18): bad offsets, kinds, lists and sizes in
//! otherwise valid BRIG are reported at the offending entry, never panic,
//! and stop validation before the later layers.
//!
//! Each case patches one field of HSAILasm's BRIG for a corpus kernel.

use brig::{BrigModule, BrigSectionIndex};
use hsail::validate::{self, ValidationError};

fn vector_add() -> Option<Vec<u8>> {
    if !oracles::hsailasm_available() {
        return None;
    }
    let path = oracles::workspace_root().join("tests/corpus/kernels/vector_add.hsail");
    Some(oracles::hsailasm_assemble_file(&path).expect("corpus file assembles"))
}

/// File offset and section offset of the `n`-th code entry named `kind`.
fn code_entry(brig: &[u8], kind: &str, n: usize) -> (usize, u32) {
    let m = BrigModule::parse(brig).unwrap();
    let base = m.sections()[1].file_offset as usize;
    let at = m
        .code_entries()
        .filter_map(Result::ok)
        .filter(|(_, c)| brig::dump::code_kind_name(c) == kind)
        .nth(n)
        .unwrap_or_else(|| panic!("no {kind} #{n}"))
        .0
        .get();
    (base + at as usize, at)
}

/// File offset and section offset of the `n`-th operand entry named `kind`.
fn operand_entry(brig: &[u8], kind: &str, n: usize) -> (usize, u32) {
    let m = BrigModule::parse(brig).unwrap();
    let base = m.sections()[2].file_offset as usize;
    let at = m
        .operand_entries()
        .filter_map(Result::ok)
        .filter(|(_, o)| brig::dump::operand_kind_name(o) == kind)
        .nth(n)
        .unwrap_or_else(|| panic!("no {kind} #{n}"))
        .0
        .get();
    (base + at as usize, at)
}

fn put(brig: &mut [u8], at: usize, bytes: &[u8]) {
    brig[at..at + bytes.len()].copy_from_slice(bytes);
}

/// Validates and returns the errors, which must all be PRM 18 errors.
fn structural_errors(brig: &[u8]) -> Vec<ValidationError> {
    let errors = validate::validate_bytes(brig).expect_err("patched BRIG must be rejected");
    for e in &errors {
        assert_eq!(e.rule, "PRM 18", "only layer 1 may report: {e}");
    }
    errors
}

#[test]
fn unpatched_module_is_valid() {
    let Some(brig) = vector_add() else { return };
    validate::validate_bytes(&brig).expect("valid");
}

#[test]
fn next_module_entry_inside_an_entry() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = code_entry(&brig, "DirectiveKernel", 0);
    // nextModuleEntry is at byte 20 of BrigDirectiveExecutable.
    put(&mut brig, file + 20, &(at + 2).to_le_bytes());
    let errors = structural_errors(&brig);
    assert!(
        errors
            .iter()
            .any(|e| e.section == BrigSectionIndex::CODE && e.offset == at),
        "{errors:?}"
    );
}

#[test]
fn operand_list_offset_not_a_data_entry() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = code_entry(&brig, "InstBasic", 0);
    // operands (DataOffset) is at byte 8 of BrigInstBase.
    put(&mut brig, file + 8, &3u32.to_le_bytes());
    let errors = structural_errors(&brig);
    assert!(errors.iter().any(|e| e.offset == at), "{errors:?}");
}

#[test]
fn address_symbol_is_not_a_variable() {
    let Some(mut brig) = vector_add() else { return };
    let (_, kernel) = code_entry(&brig, "DirectiveKernel", 0);
    let (file, at) = operand_entry(&brig, "OperandAddress", 0);
    // symbol (CodeOffset) is at byte 4 of BrigOperandAddress.
    put(&mut brig, file + 4, &kernel.to_le_bytes());
    let errors = structural_errors(&brig);
    assert!(
        errors
            .iter()
            .any(|e| e.section == BrigSectionIndex::OPERAND && e.offset == at),
        "{errors:?}"
    );
}

#[test]
fn constant_size_differs_from_its_type() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = operand_entry(&brig, "OperandConstantBytes", 0);
    // type at byte 4: make the 4-byte constant a u64.
    put(
        &mut brig,
        file + 4,
        &brig::BrigType::U64.raw().to_le_bytes(),
    );
    let errors = structural_errors(&brig);
    assert!(errors.iter().any(|e| e.offset == at), "{errors:?}");
}

#[test]
fn unknown_code_kind() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = code_entry(&brig, "InstMem", 0);
    put(&mut brig, file + 2, &0x2fffu16.to_le_bytes());
    let errors = structural_errors(&brig);
    assert!(errors.iter().any(|e| e.offset == at), "{errors:?}");
}

#[test]
fn label_reference_into_the_middle_of_an_entry() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = operand_entry(&brig, "OperandCodeRef", 0);
    let (_, label) = code_entry(&brig, "DirectiveLabel", 0);
    put(&mut brig, file + 4, &(label + 4).to_le_bytes());
    let errors = structural_errors(&brig);
    assert!(errors.iter().any(|e| e.offset == at), "{errors:?}");
}

#[test]
fn errors_display_rule_section_and_offset() {
    let Some(mut brig) = vector_add() else { return };
    let (file, at) = code_entry(&brig, "InstMem", 0);
    put(&mut brig, file + 2, &0x2fffu16.to_le_bytes());
    let errors = structural_errors(&brig);
    let text = errors[0].to_string();
    assert!(text.starts_with("PRM 18: "), "{text}");
    assert!(
        text.ends_with(&format!("in section hsa_code at offset {at:#x}")),
        "{text}"
    );
}

/// Layer 3 errors are independent: two bad instructions give two errors.
#[test]
fn all_independent_errors_are_reported() {
    let Some(mut brig) = vector_add() else { return };
    // Make two `add_u32` instructions f64 adds on $s registers.
    let (a, _) = code_entry(&brig, "InstBasic", 2);
    let (b, _) = code_entry(&brig, "InstBasic", 3);
    for file in [a, b] {
        put(
            &mut brig,
            file + 6,
            &brig::BrigType::F64.raw().to_le_bytes(),
        );
    }
    let errors = validate::validate_bytes(&brig).expect_err("rejected");
    let mut offsets: Vec<u32> = errors.iter().map(|e| e.offset).collect();
    offsets.dedup();
    assert!(offsets.len() >= 2, "{errors:?}");
}
