//! Random valid modules from `hsail-smith` (fixed seeds), each through the
//! same checks as the corpus: our BRIG equals HSAILasm's, our disassembly of
//! HSAILasm's BRIG equals its own; and the validator accepts it (as
//! `hsakit asm`, which validates by default, must).

const SEEDS: std::ops::Range<u64> = 0..40;

#[test]
fn generated_modules_match_hsailasm() {
    if !oracles::hsailasm_available() {
        return;
    }
    let config = hsail_smith::Config::default();
    let mut failures = Vec::new();
    for seed in SEEDS {
        let source = hsail_smith::generate(seed, &config);
        let reference = match oracles::hsailasm_assemble(&source) {
            Ok(r) => r,
            Err(r) => {
                failures.push(format!(
                    "seed {seed}: HSAILasm rejects the module:\n{}",
                    r.output
                ));
                continue;
            }
        };
        match hsail::assemble(&source, &format!("seed-{seed}.hsail")) {
            Ok(ours) if ours == reference => {
                if let Err(errors) = hsail::validate::validate_bytes(&ours) {
                    failures.push(format!(
                        "seed {seed}: the validator rejects it: {}",
                        errors[0]
                    ));
                }
            }
            Ok(ours) => failures.push(format!(
                "seed {seed}: BRIG differs at offset {:#x}",
                oracles::first_difference(&reference, &ours).unwrap_or(0)
            )),
            Err(d) => failures.push(format!("seed {seed}: hsakit rejects it:\n{d}")),
        }
        let expected =
            oracles::hsailasm_disassemble(&reference).expect("HSAILasm disassembles its BRIG");
        match hsail::disassemble(&reference) {
            Ok(text) => {
                if let Some(d) = oracles::text_difference(&expected, &text) {
                    failures.push(format!("seed {seed}: disassembly differs, {d}"));
                }
            }
            Err(e) => failures.push(format!("seed {seed}: disassemble: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} generated modules fail:\n{}",
        failures.len(),
        SEEDS.end - SEEDS.start,
        failures.join("\n")
    );
}
