//! Seeded smoke run of `brig::fuzz::fuzz_read` over ~2000 mutations of
//! valid modules (the long runs use `cargo fuzz`).

const KERNEL: &[u8] = include_bytes!("data/kernel.brig");

use oracles::Rng;
use oracles::mutate::{copy_chunk_over, flip_bit, set_aligned, set_byte, truncate};

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(7) {
            0 => flip_bit(rng, &mut b),
            1 => {
                // An "interesting" u16 (a byte_count or kind).
                let v: u16 = *rng.pick(&[0, 1, 4, 8, 0xfffc, 0xffff, 0x2008, 0x300a, 0x1008]);
                set_aligned(rng, &mut b, 0, &v.to_le_bytes());
            }
            2 => {
                // An "interesting" u32 (an offset or a length).
                let v: u32 = *rng.pick(&[0, 4, 32, 36, 108, 0x7fff_ffff, u32::MAX]);
                set_aligned(rng, &mut b, 0, &v.to_le_bytes());
            }
            3 => truncate(rng, &mut b),
            4 => copy_chunk_over(rng, &mut b, 32),
            5 => set_byte(rng, &mut b),
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
    let mut rng = Rng::new(0x5eed_b41c_0de5_1234);
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
