//! Conformance against HSAILasm, one test case per corpus file
//! (`tests/corpus/**/*.hsail`):
//!
//! 1. `hsail::assemble` gives the same BRIG bytes as `HSAILasm`;
//! 2. `hsail::disassemble` of HSAILasm's BRIG gives the same text as
//!    `HSAILasm -disassemble`;
//! 3. text → BRIG → text → BRIG is stable with our tools alone.
//!
//! On a mismatch the message names the first differing byte (with its
//! section) and the first differing entry of both sides' `HSAILasm -decode`
//! listings, or the first differing line of text.

use std::path::Path;

fn corpus_file(path: &Path, source: String) -> datatest_stable::Result<()> {
    if !oracles::hsailasm_available() {
        return Ok(());
    }
    let name = path.display().to_string();
    let reference = oracles::hsailasm_assemble_file(path)
        .map_err(|r| format!("HSAILasm rejects corpus file {name}:\n{}", r.output))?;
    let mut failures = Vec::new();

    // 1. Assembly.
    let ours = match hsail::assemble(&source, &name) {
        Ok(ours) => {
            if let Some(d) = oracles::brig_difference(&reference, &ours) {
                failures.push(format!("assemble: {d}"));
            }
            Some(ours)
        }
        Err(d) => {
            failures.push(format!(
                "assemble: hsakit rejects a file HSAILasm accepts:\n{d}"
            ));
            None
        }
    };

    // 2. Disassembly of the reference BRIG.
    let expected_text = oracles::hsailasm_disassemble(&reference)
        .map_err(|r| format!("HSAILasm cannot disassemble its own BRIG:\n{}", r.output))?;
    match hsail::disassemble(&reference) {
        Ok(text) => {
            if let Some(d) = oracles::text_difference(&expected_text, &text) {
                failures.push(format!(
                    "disassemble: text differs from HSAILasm -disassemble, {d}"
                ));
            }
        }
        Err(e) => failures.push(format!("disassemble: {e}")),
    }

    // 3. Round trip through our own tools.
    if let Some(ours) = ours {
        match hsail::disassemble(&ours) {
            Ok(text) => match hsail::assemble(&text, &format!("{name} (disassembled)")) {
                Ok(again) if again == ours => {}
                Ok(again) => failures.push(format!(
                    "round trip: BRIG → text → BRIG changed at offset {:#x}",
                    oracles::first_difference(&ours, &again).unwrap_or(0)
                )),
                Err(d) => failures.push(format!("round trip: our text does not assemble:\n{d}")),
            },
            Err(e) => failures.push(format!("round trip: cannot disassemble our BRIG: {e}")),
        }
    }

    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

datatest_stable::harness! {
    { test = corpus_file, root = "../../tests/corpus", pattern = r"\.hsail$" },
    { test = corpus_file, root = "../../examples", pattern = r"\.hsail$" },
}
