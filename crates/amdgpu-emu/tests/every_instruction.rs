//! Every instruction of the oracle vectors (`data/amdgpu/vectors/<target>.tsv`:
//! each GFX9 table row with its operand variants, as llvm-mc-19 encodes
//! them) executed once on a wave with arbitrary register contents, for each
//! target: an instruction may fault (bad address, unimplemented), but it must
//! never panic. Prints how many rows have semantics.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use amdgpu_emu::exec::{Ctx, DispatchFacts, lookup, prepare};
use amdgpu_emu::{Memory, Wave};
use amdgpu_isa::gfx9::{Target, decode};

/// xorshift64*.
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
fn no_instruction_panics() {
    let root = oracles::workspace_root();
    let mut report = Vec::new();
    let mut panics = Vec::new();
    for target in Target::ALL {
        let path = root.join(format!("data/amdgpu/vectors/{}.tsv", target.name()));
        let text = std::fs::read_to_string(&path).unwrap();
        let mem = Memory::new();
        let buf = mem.allocate(1 << 16, 1 << 16).unwrap();
        let view = mem.view();
        let facts = DispatchFacts::default();
        let mut lds = vec![0u8; 1 << 16];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target.index() as u64);
        let mut wave = Wave::new(target.has_mai());
        let mut rows = 0;
        let mut unimplemented = BTreeSet::new();
        for line in text.lines().skip(2) {
            let mut cols = line.split('\t');
            let (Some(_), Some(input), Some(bytes)) = (cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            let Ok((inst, len)) = decode(&hex_bytes(bytes), target) else {
                continue;
            };
            rows += 1;
            let d = prepare(inst, len);
            if lookup(d.base).is_none() {
                unimplemented.insert(d.inst.def.mnemonic);
            }
            // Arbitrary state, with some registers pointing into a mapped
            // buffer so that memory instructions run too.
            for s in wave.s.iter_mut().take(104) {
                *s = rng.next() as u32;
            }
            for (i, r) in wave.v.iter_mut().enumerate().take(16) {
                for (l, x) in r.iter_mut().enumerate() {
                    *x = if i % 2 == 0 {
                        (buf as u32).wrapping_add((l as u32 * 4) & 0xfff)
                    } else {
                        (buf >> 32) as u32
                    };
                }
            }
            wave.set_s64(0, buf);
            wave.set_exec(rng.next() | 1);
            wave.s[124] = rng.next() as u32 & 0xffff;
            wave.mode = rng.next() as u32 & 0x3ff;
            wave.ended = false;
            wave.at_barrier = false;
            wave.pc = 0x1000 + u64::from(d.len);
            let mut ctx = Ctx {
                mem: &view,
                lds: &mut lds,
                target,
                dispatch: &facts,
            };
            let exec = d.exec;
            match catch_unwind(AssertUnwindSafe(|| exec(&mut wave, &d, &mut ctx))) {
                Ok(_) => {}
                Err(_) => {
                    panics.push(format!("{}: `{input}`", target.name()));
                    wave = Wave::new(target.has_mai());
                }
            }
        }
        report.push(format!(
            "{}: {rows} vectors, {} instructions without semantics: {}",
            target.name(),
            unimplemented.len(),
            unimplemented.iter().copied().collect::<Vec<_>>().join(" ")
        ));
    }
    for r in &report {
        eprintln!("{r}");
    }
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}
