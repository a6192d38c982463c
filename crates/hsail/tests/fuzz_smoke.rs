//! Seeded smoke test of the fuzz entry points: mutations of the corpus
//! (HSAIL text) and of the BRIG we make from it must never panic.
//!
//! Deterministic: a fixed-seed xorshift generator picks the mutations, so a
//! failure reproduces with the same seed and case number, printed on panic.

use std::path::PathBuf;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces of HSAIL syntax to splice in, so mutations reach deep parser states.
const TOKENS: &[&str] = &[
    ";", ",", "(", ")", "[", "]", "{", "}", "$s1", "$d99999999999", "$q3", "$c8", "&x", "%y", "@l",
    "0x", "0F", "0D7ff0000000000000", "1.5f", "-", "+", "_u8x4(1,2,3,4)", "WAVESIZE", "//", "/*",
    "\"", "kernel", "function", "arg_u32", "align(", "ld_", "_global", "_u32", "\n", "\0", "é",
    "module &m:1:0:$full:$large:$default;", "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let end = (at + rng.below(16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            3 if !v.is_empty() => {
                let from = rng.below(v.len());
                let len = rng.below(32).min(v.len() - from);
                let chunk: Vec<u8> = v[from..from + len].to_vec();
                v.splice(at..at, chunk);
            }
            _ => v.truncate(at),
        }
    }
    v
}

fn seeds() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = vec![std::fs::read(root.join("examples/vector_add.hsail")).unwrap()];
    let mut dirs = vec![root.join("tests/corpus")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "hsail") {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn mutated_hsail_never_panics() {
    let seeds = seeds();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..3000 {
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, seed);
        let result = std::panic::catch_unwind(|| hsail::fuzz::fuzz_assemble(&input));
        assert!(result.is_ok(), "assembler panicked on case {case}: {:?}", String::from_utf8_lossy(&input));
    }
}

#[test]
fn mutated_brig_never_panics() {
    let brigs: Vec<Vec<u8>> =
        seeds().iter().filter_map(|s| hsail::assemble(&String::from_utf8_lossy(s), "seed").ok()).collect();
    assert!(!brigs.is_empty(), "no corpus file assembles: nothing to mutate");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for case in 0..3000 {
        let seed = &brigs[rng.below(brigs.len())];
        let input = mutate(&mut rng, seed);
        let result = std::panic::catch_unwind(|| hsail::fuzz::fuzz_disassemble(&input));
        assert!(result.is_ok(), "disassembler panicked on case {case} ({} bytes)", input.len());
    }
}
