//! Seeded smoke test of `fuzz::fuzz_execute`: programs made of random
//! valid instruction encodings (the llvm-mc vectors of each target), and
//! random bytes, run as two-wave kernels without panicking or hanging.

use amdgpu_emu::fuzz::fuzz_execute;
use amdgpu_isa::gfx9::Target;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn random_programs_never_panic() {
    let root = oracles::workspace_root();
    let mut rng = Rng(42);
    for (t, target) in Target::ALL.iter().enumerate() {
        let text = std::fs::read_to_string(
            root.join(format!("data/amdgpu/vectors/{}.tsv", target.name())),
        )
        .unwrap();
        let encodings: Vec<Vec<u8>> = text
            .lines()
            .skip(2)
            .filter_map(|l| l.split('\t').nth(2).map(hex_bytes))
            .collect();
        for _ in 0..60 {
            let mut program = vec![t as u8];
            for _ in 0..40 {
                let e = &encodings[(rng.next() % encodings.len() as u64) as usize];
                program.extend_from_slice(e);
            }
            program.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]); // s_endpgm
            fuzz_execute(&program);
        }
        for _ in 0..20 {
            let mut bytes = vec![t as u8];
            bytes.extend((0..64).map(|_| rng.next() as u8));
            fuzz_execute(&bytes);
        }
    }
    fuzz_execute(&[]);
    fuzz_execute(&[3]);
}
