//! Every table row is covered by an oracle vector on every target that has
//! it, or is listed in `EXCLUDED` with a reason.
//!
//! A row is covered when an inventory line for it was accepted by llvm-mc
//! (the vector's input starts with the row's mnemonic) and — for families
//! the codec implements — some vector decodes to it or assembles from it.

use amdgpu_isa::gfx9::{self, Target, table::INSTRUCTIONS};
use std::collections::BTreeSet;

/// Rows without a vector, and why.
const EXCLUDED: &[(&str, &str)] = &[];

#[test]
fn every_row_has_a_vector_or_is_excluded() {
    let mut missing = Vec::new();
    for target in Target::ALL {
        let path = format!(
            "{}/../../data/amdgpu/vectors/{}.tsv",
            env!("CARGO_MANIFEST_DIR"),
            target.name()
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let mut inputs = BTreeSet::new();
        let mut reached = BTreeSet::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("class\t"))
        {
            let f: Vec<&str> = line.split('\t').collect();
            inputs.insert(f[1].split(' ').next().unwrap().to_string());
            let bytes: Vec<u8> = (0..f[2].len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&f[2][i..i + 2], 16).unwrap())
                .collect();
            if let Ok((inst, _)) = gfx9::decode(&bytes, target) {
                reached.insert(inst.def.mnemonic);
            }
            if let Ok(inst) = gfx9::parse_line(f[1], target) {
                reached.insert(inst.def.mnemonic);
            }
        }
        for def in INSTRUCTIONS.iter().filter(|d| d.opcode(target).is_some()) {
            let has_vector = inputs.contains(def.mnemonic);
            let codec_ok = !def.family.is_supported() || reached.contains(def.mnemonic);
            let excluded = EXCLUDED.iter().any(|(m, _)| *m == def.mnemonic);
            let covered = has_vector && codec_ok;
            if !covered && !excluded {
                missing.push(format!(
                    "{} {} ({:?}): vector {has_vector}, codec {codec_ok}",
                    target.name(),
                    def.mnemonic,
                    def.family
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} rows not covered:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_row_is_reachable_by_its_names() {
    // Each row can be found by its mnemonic on some target.
    for def in INSTRUCTIONS {
        if let Some(t) = Target::ALL.into_iter().find(|t| def.opcode(*t).is_some()) {
            let found = gfx9::InstDef::find(def.mnemonic, t).unwrap();
            assert_eq!(found.mnemonic, def.mnemonic);
        }
    }
}
