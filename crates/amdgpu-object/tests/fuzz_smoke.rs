//! Seeded smoke tests of the AMDGPU fuzz entry points (`fuzz/`:
//! `amdgpu_assemble`, `amdgpu_decode`; `codeobj_read` is smoke-tested in
//! `oracle.rs`): real inputs and seeded mutations of them never panic.
//! Longer runs: `AMDGPU_FUZZ_ITERS=100000 cargo test -p amdgpu-object --test fuzz_smoke`.

use amdgpu_object::fuzz::{fuzz_assemble, fuzz_decode};

fn iterations(default: usize) -> usize {
    std::env::var("AMDGPU_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// xorshift64: deterministic mutations.
fn rng(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Mutates `seed` in place: overwritten, inserted or deleted bytes.
fn mutate(seed: &[u8], rand: &mut impl FnMut() -> u64, alphabet: &[u8]) -> Vec<u8> {
    let mut m = seed.to_vec();
    for _ in 0..1 + rand() % 6 {
        if m.is_empty() {
            break;
        }
        let i = (rand() % m.len() as u64) as usize;
        let b = alphabet[(rand() % alphabet.len() as u64) as usize];
        match rand() % 3 {
            0 => m[i] = b,
            1 => m.insert(i, b),
            _ => {
                m.remove(i);
            }
        }
    }
    m
}

#[test]
fn assembler_never_panics() {
    let root = oracles::workspace_root();
    let mut seeds = Vec::new();
    for f in oracles::files_with_extension(&root.join("tests/codeobj"), "s") {
        let text = std::fs::read(&f).unwrap();
        for pick in 0..7u8 {
            let mut s = vec![pick];
            s.extend_from_slice(&text);
            seeds.push(s);
        }
    }
    assert!(seeds.len() >= 50, "too few seeds");
    let alphabet = b" ,:;[]()|-+*/@.0123456789abcdefsvx_\n\"";
    let mut rand = rng(0x5eed_a55e_b1e5_0001);
    for seed in &seeds {
        fuzz_assemble(seed);
        for _ in 0..iterations(12) {
            fuzz_assemble(&mutate(seed, &mut rand, alphabet));
        }
    }
}

#[test]
fn decoder_never_panics() {
    let root = oracles::workspace_root();
    let mut rand = rng(0x5eed_dec0_de00_0002);
    for (pick, target) in amdgpu_isa::gfx9::Target::ALL.iter().enumerate() {
        let text = std::fs::read_to_string(
            root.join(format!("data/amdgpu/vectors/{}.tsv", target.name())),
        )
        .unwrap();
        let mut code = vec![pick as u8];
        for line in text.lines().skip(2).step_by(7) {
            let hex = line.split('\t').nth(2).unwrap_or("");
            code.extend(
                (0..hex.len() / 2)
                    .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()),
            );
        }
        fuzz_decode(&code);
        let all: Vec<u8> = (0..=255).collect();
        for _ in 0..iterations(40) {
            let start = 1 + (rand() % (code.len() as u64 - 1)) as usize;
            let end = (start + 64 + (rand() % 512) as usize).min(code.len());
            let mut piece = vec![pick as u8];
            piece.extend_from_slice(&code[start..end]);
            fuzz_decode(&mutate(&piece, &mut rand, &all));
        }
        // Random words.
        for _ in 0..iterations(200) {
            let mut w = vec![pick as u8];
            for _ in 0..8 {
                w.extend_from_slice(&(rand() as u32).to_le_bytes());
            }
            fuzz_decode(&w);
        }
    }
}
