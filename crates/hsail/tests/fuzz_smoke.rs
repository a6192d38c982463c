//! Seeded smoke test of the fuzz entry points: mutations of the corpus
//! (HSAIL text) and of the BRIG we make from it must never panic.
//!
//! Deterministic: a fixed-seed xorshift generator picks the mutations, so a
//! failure reproduces with the same seed and case number, printed on panic.

use oracles::Rng;
use oracles::mutate::{delete_range, duplicate_chunk, flip_bit, insert, truncate};

/// Pieces of HSAIL syntax to splice in, so mutations reach deep parser states.
const TOKENS: &[&str] = &[
    ";",
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "$s1",
    "$d99999999999",
    "$q3",
    "$c8",
    "&x",
    "%y",
    "@l",
    "0x",
    "0F",
    "0D7ff0000000000000",
    "1.5f",
    "-",
    "+",
    "_u8x4(1,2,3,4)",
    "WAVESIZE",
    "//",
    "/*",
    "\"",
    "kernel",
    "function",
    "arg_u32",
    "align(",
    "ld_",
    "_global",
    "_u32",
    "\n",
    "\0",
    "é",
    "module &m:1:0:$full:$large:$default;",
    "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 => flip_bit(rng, &mut v),
            1 => delete_range(rng, &mut v, 16),
            2 => {
                let t = rng.pick(TOKENS).as_bytes();
                insert(rng, &mut v, t);
            }
            3 => duplicate_chunk(rng, &mut v, 32),
            _ => truncate(rng, &mut v),
        }
    }
    v
}

/// The corpus and the example, as bytes.
fn seeds() -> Vec<Vec<u8>> {
    let root = oracles::workspace_root();
    let mut out = vec![std::fs::read(root.join("examples/vector_add.hsail")).unwrap()];
    out.extend(
        oracles::corpus_files()
            .iter()
            .map(|p| std::fs::read(p).unwrap()),
    );
    out.sort();
    out
}

/// 3000 mutations of `inputs` through a fuzz `target`, none may panic.
fn never_panics(what: &str, inputs: &[Vec<u8>], seed: u64, target: fn(&[u8])) {
    assert!(!inputs.is_empty(), "no {what} input: nothing to mutate");
    let mut rng = Rng::new(seed);
    for case in 0..3000 {
        let seed = rng.pick(inputs);
        let input = mutate(&mut rng, seed);
        let result = std::panic::catch_unwind(|| target(&input));
        assert!(
            result.is_ok(),
            "{what} panicked on case {case} ({} bytes): {:?}",
            input.len(),
            String::from_utf8_lossy(&input)
        );
    }
}

#[test]
fn mutated_hsail_never_panics() {
    never_panics(
        "assembler",
        &seeds(),
        0x9e37_79b9_7f4a_7c15,
        hsail::fuzz::fuzz_assemble,
    );
}

#[test]
fn mutated_brig_never_panics() {
    let brigs: Vec<Vec<u8>> = seeds()
        .iter()
        .filter_map(|s| hsail::assemble(&String::from_utf8_lossy(s), "seed").ok())
        .collect();
    never_panics(
        "disassembler",
        &brigs,
        0x2545_f491_4f6c_dd1d,
        hsail::fuzz::fuzz_disassemble,
    );
}
