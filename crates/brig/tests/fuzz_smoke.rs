//! Seeded smoke run of `brig::fuzz::fuzz_read` over ~2000 mutations of
//! valid modules (the long runs use `cargo fuzz`).

const KERNEL: &[u8] = include_bytes!("data/kernel.brig");

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut XorShift, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        match rng.below(7) {
            0 => {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
            1 => {
                // An "interesting" u16 (a byte_count or kind) at a 4-aligned spot.
                let i = rng.below(len / 2) * 2;
                let v: u16 = [0, 1, 4, 8, 0xfffc, 0xffff, 0x2008, 0x300a, 0x1008][rng.below(9)];
                if i + 2 <= len {
                    b[i..i + 2].copy_from_slice(&v.to_le_bytes());
                }
            }
            2 => {
                // An "interesting" u32 (an offset or a length).
                let i = rng.below(len / 4) * 4;
                let v: u32 = [0, 4, 32, 36, 108, 0x7fff_ffff, u32::MAX][rng.below(7)];
                if i + 4 <= len {
                    b[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            3 => {
                let n = rng.below(len);
                b.truncate(n);
            }
            4 => {
                // Copy a chunk over another place.
                let from = rng.below(len);
                let to = rng.below(len);
                let n = rng.below(32).min(len - from).min(len - to);
                let chunk = b[from..from + n].to_vec();
                b[to..to + n].copy_from_slice(&chunk);
            }
            5 => {
                let i = rng.below(len);
                b[i] = rng.next() as u8;
            }
            _ => {
                // Keep the header's byte_count consistent with the length.
                if b.len() >= 24 {
                    let n = b.len() as u64;
                    b[16..24].copy_from_slice(&n.to_le_bytes());
                }
            }
        }
        if b.is_empty() {
            break;
        }
    }
    b
}

#[test]
fn fuzz_read_survives_2000_mutations() {
    let mut rng = XorShift(0x5eed_b41c_0de5_1234);
    let mut w = brig::BrigWriter::new();
    w.add_string("&m");
    w.add_section(b"extra", &[1, 2, 3]);
    let inputs = [KERNEL.to_vec(), w.finish()];
    let mut parsed = 0;
    for i in 0..2000 {
        let m = mutate(&mut rng, &inputs[i % inputs.len()]);
        if brig::BrigModule::parse(&m).is_ok() {
            parsed += 1;
        }
        brig::fuzz::fuzz_read(&m);
    }
    // Many mutations only touch entry fields, so a fair share still parses
    // and gets walked in depth.
    assert!(
        parsed > 200,
        "only {parsed} of 2000 mutants parsed: the smoke test is too shallow"
    );
}
