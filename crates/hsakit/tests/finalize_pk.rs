//! Rust references (written from the PRM) for the packed-float and
//! multimedia kernels gccbrig cannot check (`tests/finalize/pkf_*_round`,
//! `mm_packcvt`): the kernels are finalized for gfx900 and gfx90a, run on
//! the emulator and compared bit for bit.
//!
//! - Packed float (PRM 4.14, 5.11, 5.12): each element is the scalar IEEE
//!   operation in the instruction's rounding (`rustc_apfloat`), with
//!   `ftz` flushing subnormal inputs and results; `s`/`ss` compute element
//!   0 only and leave the other elements of the destination (which the
//!   kernel sets to `B` first) as they were. NaN results are canonical
//!   (the kernels canonicalize them per element).
//! - Saturating `u64x2`/`s64x2` add/sub/mul (`q_sat64`, PRM 4.14.1): the
//!   exact result clamped to the element's range.
//! - `packcvt_u8x4_f32` (PRM 5.15): `cvt_near_sat_u8_f32` of each source:
//!   round to nearest even, clamp to [0, 255], NaN → 0.

use std::path::{Path, PathBuf};

mod common;
use common::Run;

use rustc_apfloat::ieee::{Half, Single};
use rustc_apfloat::{Float, Round, StatusAnd};

fn kernel_path(stem: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/finalize/{stem}.hsail"))
}

/// Deterministic pseudo-random numbers (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Element bit patterns: specials (zeros, infinities, NaNs, subnormals,
/// extremes, ±1) mixed with random values.
fn elements(w: u32, count: usize, rng: &mut Rng) -> Vec<u64> {
    let specials: &[u64] = if w == 16 {
        &[
            0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x0001, 0x83ff, 0x0400, 0x7bff, 0x3c00,
            0xbc00, 0x3800, 0x0200,
        ]
    } else {
        &[
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0000,
            0x0000_0001,
            0x807f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x3f00_0000,
            0x0040_0000,
        ]
    };
    let mask = (1u64 << w) - 1;
    (0..count)
        .map(|_| {
            let r = rng.next();
            if r.is_multiple_of(4) {
                specials[(r >> 8) as usize % specials.len()]
            } else {
                (r >> 16) & mask
            }
        })
        .collect()
}

/// Runs `stem` on `mcpu` with the given input buffers and an output
/// buffer of `out_len` bytes; returns the output.
fn run(stem: &str, mcpu: &str, inputs: &[Vec<u8>], out_len: usize) -> Vec<u8> {
    run_grid(stem, mcpu, inputs, out_len, 256)
}

/// [`run`] with `grid` work-items.
fn run_grid(stem: &str, mcpu: &str, inputs: &[Vec<u8>], out_len: usize, grid: u32) -> Vec<u8> {
    let r = Run::new(kernel_path(stem), stem)
        .grid(grid)
        .group(64)
        .mcpu(mcpu);
    let r = inputs.iter().fold(r, |r, bytes| r.arg_buf(bytes));
    r.arg_zeros(out_len).run().swap_remove(inputs.len())
}

/// One `// #k` instruction of a kernel: opcode, modifiers and type.
struct Op {
    text: String,
    op: String,
    round: Round,
    ftz: bool,
    /// Which sources are scalar (element 0 broadcast).
    scalar: [bool; 2],
    low_only: bool,
}

fn parse_ops(stem: &str) -> Vec<Op> {
    let text = std::fs::read_to_string(kernel_path(stem)).unwrap();
    text.lines()
        .filter(|l| l.contains("// #"))
        .map(|l| {
            let inst = l.trim().split(';').next().unwrap().to_string();
            let mn = inst.split_whitespace().next().unwrap();
            let parts: Vec<&str> = mn.split('_').collect();
            let has = |w: &str| parts.contains(&w);
            let round = if has("up") {
                Round::TowardPositive
            } else if has("down") {
                Round::TowardNegative
            } else if has("zero") {
                Round::TowardZero
            } else {
                Round::NearestTiesToEven
            };
            let ctl = parts
                .iter()
                .copied()
                .find(|p| matches!(*p, "pp" | "ps" | "sp" | "ss" | "p" | "s"))
                .unwrap_or("pp");
            let scalar = match ctl {
                "ps" => [false, true],
                "sp" => [true, false],
                "ss" | "s" => [true, true],
                _ => [false, false],
            };
            Op {
                op: parts[0].to_string(),
                round,
                ftz: has("ftz"),
                scalar,
                low_only: matches!(ctl, "ss" | "s"),
                text: inst,
            }
        })
        .collect()
}

/// The scalar result of `op` on one element pair (bits of format `F`).
fn element<F: Float>(op: &Op, w: u32, a: u64, b: u64) -> u64 {
    let fx = |x: u64| {
        let v = F::from_bits(u128::from(x));
        if op.ftz && v.is_denormal() {
            F::ZERO.copy_sign(v)
        } else {
            v
        }
    };
    let sign = 1 << (w - 1);
    let (x, y) = (fx(a), fx(b));
    let r: StatusAnd<F> = match op.op.as_str() {
        "abs" => return a & !sign,
        "neg" => return a ^ sign,
        "copysign" => return a & !sign | b & sign,
        "add" => x.add_r(y, op.round),
        "sub" => x.sub_r(y, op.round),
        "mul" => x.mul_r(y, op.round),
        "div" => x.div_r(y, op.round),
        "floor" => x.round_to_integral(Round::TowardNegative),
        "ceil" => x.round_to_integral(Round::TowardPositive),
        other => panic!("no reference for `{other}`"),
    };
    let v = r.value;
    let v = if op.ftz && v.is_denormal() {
        F::ZERO.copy_sign(v)
    } else {
        v
    };
    v.to_bits() as u64
}

/// Expected packed result of `op` on `a`, `b` (`n` elements of `w` bits).
fn packed(op: &Op, w: u32, n: u32, a: u64, b: u64) -> u64 {
    let mask = (1u64 << w) - 1;
    let get = |v: u64, i: u32| (v >> (i * w)) & mask;
    let mut out = b;
    let count = if op.low_only { 1 } else { n };
    for i in 0..count {
        let ea = get(a, if op.scalar[0] { 0 } else { i });
        let eb = get(b, if op.scalar[1] { 0 } else { i });
        let r = if w == 16 {
            element::<Half>(op, w, ea, eb)
        } else {
            element::<Single>(op, w, ea, eb)
        };
        out = out & !(mask << (i * w)) | r << (i * w);
    }
    // The kernel canonicalizes NaNs in every element.
    (0..n).fold(0, |acc, i| {
        let e = get(out, i);
        let nan = if w == 16 {
            Half::from_bits(u128::from(e)).is_nan()
        } else {
            Single::from_bits(u128::from(e)).is_nan()
        };
        let e = if nan { canonical_nan(w) } else { e };
        acc | e << (i * w)
    })
}

/// The NaN the kernels store for a `w`-bit element.
fn canonical_nan(w: u32) -> u64 {
    if w == 16 { 0x7e00 } else { 0x7fc0_0000 }
}

/// Runs `pkf_<t>_round` and compares every slot with the reference.
fn check_round(t: &str, w: u32, n: u32) {
    let stem = format!("pkf_{t}_round");
    let ops = parse_ops(&stem);
    let bytes = (w * n / 8) as usize;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(w * n));
    let mut vals = [Vec::new(), Vec::new()];
    for v in &mut vals {
        let e = elements(w, 256 * n as usize, &mut rng);
        *v = e
            .chunks(n as usize)
            .map(|c| (0..n).fold(0u64, |acc, i| acc | c[i as usize] << (i * w)))
            .collect::<Vec<u64>>();
    }
    let inputs: Vec<Vec<u8>> = vals
        .iter()
        .map(|v| {
            v.iter()
                .flat_map(|x| x.to_le_bytes()[..bytes].to_vec())
                .collect()
        })
        .collect();
    let stride = 8 * ops.len();
    for mcpu in ["gfx90a", "gfx900"] {
        let out = run(&stem, mcpu, &inputs, 256 * stride);
        let mut bad = Vec::new();
        for (wi, (&a, &b)) in vals[0].iter().zip(&vals[1]).enumerate() {
            for (k, op) in ops.iter().enumerate() {
                let at = wi * stride + 8 * k;
                let mut got = [0u8; 8];
                got[..bytes].copy_from_slice(&out[at..at + bytes]);
                let got = u64::from_le_bytes(got);
                let want = packed(op, w, n, a, b);
                if got != want {
                    bad.push(format!(
                        "{mcpu} #{k} `{}` A={a:#x} B={b:#x}: got {got:#x}, want {want:#x}",
                        op.text
                    ));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{} mismatches:\n{}",
            bad.len(),
            bad[..bad.len().min(20)].join("\n")
        );
    }
}

#[test]
fn packed_f16x2_rounding_matches_the_prm() {
    check_round("f16x2", 16, 2);
}

#[test]
fn packed_f16x4_rounding_matches_the_prm() {
    check_round("f16x4", 16, 4);
}

#[test]
fn packed_f32x2_rounding_matches_the_prm() {
    check_round("f32x2", 32, 2);
}

/// `cvt_near_sat_u8_f32` (PRM 5.19 with `_sat`, used by `packcvt`).
fn cvt_near_sat_u8(bits: u32) -> u32 {
    let x = Single::from_bits(u128::from(bits));
    if x.is_nan() {
        return 0;
    }
    let r = x.round_to_integral(Round::NearestTiesToEven).value;
    let lo = Single::from_u128(0).value;
    let hi = Single::from_u128(255).value;
    if r < lo {
        0
    } else if r > hi {
        255
    } else {
        r.to_u128(8).value as u32
    }
}

#[test]
fn packcvt_matches_the_prm() {
    // Specials, then ties and fractions around the range ends.
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut vals: Vec<u32> = elements(32, 512, &mut rng)
        .into_iter()
        .map(|v| v as u32)
        .collect();
    for i in 0..512u32 {
        // k/4 − 8 for k in 0..1088: [-8, 264) in quarter steps.
        let k = (i * 17 + (rng.next() as u32 % 17)) % 1088;
        let v = Single::from_i128(i128::from(k)).value;
        let q = Single::from_u128(4).value;
        let v = (v / q).value - Single::from_u128(8).value;
        vals.push(v.value.to_bits() as u32);
    }
    let input: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    for mcpu in ["gfx90a", "gfx900"] {
        let out = run("mm_packcvt", mcpu, std::slice::from_ref(&input), 1024);
        for wi in 0..256 {
            let want = (0..4).fold(0u32, |acc, e| {
                acc | cvt_near_sat_u8(vals[4 * wi + e]) << (8 * e)
            });
            let got = u32::from_le_bytes(out[4 * wi..4 * wi + 4].try_into().unwrap());
            assert_eq!(
                got,
                want,
                "{mcpu} work-item {wi}: inputs {:#x?}",
                &vals[4 * wi..4 * wi + 4]
            );
        }
    }
}

/// A 64-bit element value of a `u64x2`/`s64x2` input: specials near the
/// saturation limits, or random.
fn element64(rng: &mut Rng) -> u64 {
    const SPECIALS: [u64; 10] = [
        0,
        1,
        u64::MAX,
        i64::MAX as u64,
        i64::MIN as u64,
        (i64::MIN as u64) + 1,
        1 << 32,
        0xffff_ffff,
        3_037_000_500,
        (-3_037_000_500i64) as u64,
    ];
    let r = rng.next();
    match r % 3 {
        0 => SPECIALS[(r >> 8) as usize % SPECIALS.len()],
        1 => rng.next() >> ((r >> 40) % 64),
        _ => rng.next(),
    }
}

/// One saturating element: the exact result clamped to the element's
/// range (PRM 4.14.1).
fn sat64(op: &str, signed: bool, a: u64, b: u64) -> u64 {
    let (x, y) = if signed {
        (i128::from(a as i64), i128::from(b as i64))
    } else {
        (i128::from(a), i128::from(b))
    };
    let exact = match op {
        "add" => x + y,
        "sub" => x - y,
        _ => x.saturating_mul(y),
    };
    let (lo, hi) = if signed {
        (i128::from(i64::MIN), i128::from(i64::MAX))
    } else {
        (0, i128::from(u64::MAX))
    };
    exact.clamp(lo, hi) as u64
}

#[test]
fn saturating_64bit_packed_matches_the_prm() {
    let stem = "q_sat64";
    let ops = parse_ops(stem);
    let mut rng = Rng(0x5eed_0064);
    let vals: Vec<[[u64; 2]; 2]> = (0..128)
        .map(|_| {
            [
                [element64(&mut rng), element64(&mut rng)],
                [element64(&mut rng), element64(&mut rng)],
            ]
        })
        .collect();
    let inputs: Vec<Vec<u8>> = (0..2)
        .map(|k| {
            vals.iter()
                .flat_map(|v| v[k].iter().flat_map(|x| x.to_le_bytes()))
                .collect()
        })
        .collect();
    let stride = 16 * ops.len();
    for mcpu in ["gfx90a", "gfx900"] {
        let out = run_grid(stem, mcpu, &inputs, 128 * stride, 128);
        for (wi, [a, b]) in vals.iter().enumerate() {
            for (k, op) in ops.iter().enumerate() {
                let signed = op.text.contains("s64x2");
                let mut want = *b;
                for i in 0..if op.low_only { 1 } else { 2 } {
                    let x = a[if op.scalar[0] { 0 } else { i }];
                    let y = b[if op.scalar[1] { 0 } else { i }];
                    want[i] = sat64(&op.op, signed, x, y);
                }
                let at = wi * stride + 16 * k;
                let got: Vec<u64> = out[at..at + 16]
                    .chunks(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(
                    got, want,
                    "{mcpu} work-item {wi} `{}`: A={a:#x?} B={b:#x?}",
                    op.text
                );
            }
        }
    }
}
