//! OpenCL C kernels from `tests/emu/`, compiled by clang-19 for gfx900 and
//! gfx90a as code objects v4 and v5, run by `hsakit run`, and compared bit
//! for bit with results computed here in Rust from the same inputs (the
//! OpenCL C semantics, with IEEE-754 round-to-nearest-even host
//! arithmetic). The expected values never come from the emulator.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{Arg, CONFIGS, Config, Run, words};

fn corpus_dir() -> PathBuf {
    oracles::workspace_root().join("tests/emu")
}

/// Compiles `file` for `c` with the file's `// flags:` plus `extra`.
fn compile(dir: &oracles::Scratch, file: &str, c: &Config, extra: &[&str]) -> PathBuf {
    let src = corpus_dir().join(file);
    let text = std::fs::read_to_string(&src).unwrap();
    let flags: Vec<&str> = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// flags:"))
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let out = dir.path(&format!(
        "{}-{}-v{}{}.co",
        file.trim_end_matches(".cl"),
        c.mcpu,
        c.cov,
        extra.join("")
    ));
    oracles::run(
        Command::new("clang-19")
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-target",
                "amdgcn-amd-amdhsa",
                "-O3",
            ])
            .arg(format!("-mcpu={}", c.mcpu))
            .arg(format!("-mcode-object-version={}", c.cov))
            .arg("--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
            .arg("--rocm-path=/usr")
            .args(&flags)
            .args(extra)
            .arg(&src)
            .arg("-o")
            .arg(&out),
    );
    out
}

/// Runs `kernel` of `co` with `args`; returns the final contents of every
/// buffer argument (empty for the others).
fn run(co: &Path, kernel: &str, grid: &str, group: &str, args: &[Arg]) -> Vec<Vec<u8>> {
    Run::new(co, kernel)
        .grid(grid)
        .group(group)
        .args(args)
        .run()
}

/// A deterministic stream of pseudo-random words (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
    /// Uniform-ish integer in `lo..hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.next()) % (hi - lo)
    }
}

fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn qwords(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Compares word by word, naming the first differences.
fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: &[T], want: &[T]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| g != w)
        .take(5)
        .map(|(i, (g, w))| format!("[{i}] got {g:?}, want {w:?}"))
        .collect();
    assert!(bad.is_empty(), "{what}: {}", bad.join("; "));
}

/// Runs `body` for every configuration (skipping loudly without clang).
fn each_config(file: &str, extra: &[&str], body: impl Fn(&Path, &str)) {
    if !oracles::clang_available() {
        return;
    }
    let dir = oracles::Scratch::new("emu-corpus");
    for c in &CONFIGS {
        let co = compile(&dir, file, c, extra);
        body(&co, &format!("{file} {} v{}", c.mcpu, c.cov));
    }
}

#[test]
fn vector_ops() {
    const N: usize = 1024;
    let mut r = Rng(1);
    let x: Vec<f32> = (0..N)
        .map(|_| r.range(-1_000_000, 1_000_000) as f32 / 977.0)
        .collect();
    let y: Vec<f32> = (0..N)
        .map(|_| r.range(-1_000_000, 1_000_000) as f32 / 313.0)
        .collect();
    let a = 1.7321f32;
    let n: Vec<i32> = (0..N)
        .map(|_| r.range(-(1 << 23), 1 << 23) as i32)
        .collect();
    let d: Vec<i32> = (0..N)
        .map(|_| match r.range(-5000, 5000) as i32 {
            0 => 7,
            v => v,
        })
        .collect();
    each_config("vector_ops.cl", &[], |co, what| {
        let out = run(
            co,
            "vector_ops",
            &N.to_string(),
            "256",
            &[
                Arg::Buf(bytes_f32(&y)),
                Arg::Buf(bytes_f32(&x)),
                Arg::F32(a),
                Arg::Zeros(16 * N),
                Arg::Buf(bytes_i32(&n)),
                Arg::Buf(bytes_i32(&d)),
            ],
        );
        let want_y: Vec<u32> = (0..N).map(|i| a.mul_add(x[i], y[i]).to_bits()).collect();
        check(&format!("{what} y"), &words(&out[0]), &want_y);
        let mut want_q = Vec::new();
        for i in 0..N {
            let (nn, dd) = (n[i], d[i]);
            let mul24 = ((i64::from(nn << 8 >> 8) * i64::from(dd << 8 >> 8)) as i32) as u32;
            let mad_hi = ((i64::from(nn) * i64::from(dd)) >> 32) as i32 + 3;
            want_q.push((nn / dd) as u32);
            want_q.push((nn % dd) as u32);
            want_q.push((nn as u32) / (dd as u32));
            want_q.push(
                (nn.max(dd).wrapping_sub(nn.min(dd)) + if nn > dd { 1 } else { -1 })
                    .wrapping_add(mul24 as i32)
                    .wrapping_add(mad_hi) as u32,
            );
        }
        check(&format!("{what} q"), &words(&out[3]), &want_q);
    });
}

#[test]
fn reduce_lds() {
    const N: usize = 4096;
    let mut r = Rng(2);
    let input: Vec<u32> = (0..N).map(|_| r.next()).collect();
    each_config("reduce_lds.cl", &[], |co, what| {
        let out = run(
            co,
            "reduce_lds",
            &N.to_string(),
            "256",
            &[
                Arg::Zeros(4 * N / 256),
                Arg::Buf(bytes_u32(&input)),
                Arg::Local(1024),
            ],
        );
        let want: Vec<u32> = input
            .chunks(256)
            .map(|c| c.iter().fold(0u32, |s, &v| s.wrapping_add(v)))
            .collect();
        check(what, &words(&out[0]), &want);
    });
}

#[test]
fn tile2d() {
    let (w, h) = (64usize, 48usize);
    let mut r = Rng(3);
    let input: Vec<f32> = (0..w * h).map(|_| r.next() as f32 * 1e-3).collect();
    each_config("tile2d.cl", &[], |co, what| {
        let out = run(
            co,
            "tile2d",
            &format!("{w},{h}"),
            "16,16",
            &[
                Arg::Zeros(4 * w * h),
                Arg::Buf(bytes_f32(&input)),
                Arg::U32(w as u32),
                Arg::U32(h as u32),
            ],
        );
        let mut want = vec![0u32; w * h];
        for row in 0..w {
            for col in 0..h {
                want[row * h + col] = input[col * w + row].to_bits();
            }
        }
        check(what, &words(&out[0]), &want);
    });
}

#[test]
fn atomics() {
    const N: usize = 2048;
    let mut r = Rng(4);
    let input: Vec<u32> = (0..N).map(|_| r.next() >> 12).collect();
    each_config("atomics.cl", &[], |co, what| {
        let out = run(
            co,
            "atomics",
            &N.to_string(),
            "256",
            &[
                Arg::Zeros(64),
                Arg::Buf(bytes_i32(&[i32::MAX, i32::MIN])),
                Arg::Zeros(8),
                Arg::Buf(bytes_u32(&input)),
            ],
        );
        let mut hist = vec![0u32; 16];
        for v in &input {
            hist[(v & 15) as usize] += 1;
        }
        check(&format!("{what} hist"), &words(&out[0]), &hist);
        let min = input.iter().map(|&v| v as i32 - 1000).min().unwrap();
        let max = input.iter().map(|&v| v as i32 - 1000).max().unwrap();
        check(
            &format!("{what} minmax"),
            &words(&out[1]),
            &[min as u32, max as u32],
        );
        let sum = input.iter().map(|v| v & 7).sum::<u32>();
        let xor = input.iter().fold(0, |a, v| a ^ v);
        check(&format!("{what} cas"), &words(&out[2]), &[sum, xor]);
    });
}

#[test]
fn scratch() {
    const N: usize = 256;
    let mut r = Rng(5);
    let input: Vec<i32> = (0..N).map(|_| r.range(0, 1000) as i32).collect();
    each_config("scratch.cl", &[], |co, what| {
        let out = run(
            co,
            "scratch",
            &N.to_string(),
            "64",
            &[Arg::Zeros(4 * N), Arg::Buf(bytes_i32(&input))],
        );
        let want: Vec<u32> = (0..N)
            .map(|g| {
                let tmp: Vec<i32> = (0..48)
                    .map(|i| input[(g + i) % 256].wrapping_mul(i as i32 + 1))
                    .collect();
                let mut s = 0i32;
                for i in 0..48 {
                    s = s.wrapping_add(tmp[((input[g] + 7 * i) % 48) as usize] ^ i);
                }
                s as u32
            })
            .collect();
        check(what, &words(&out[0]), &want);
    });
}

#[test]
fn calls() {
    const N: usize = 128;
    let mut r = Rng(6);
    let input: Vec<i32> = (0..N).map(|_| r.range(-1000, 1000) as i32).collect();
    each_config("calls.cl", &[], |co, what| {
        let out = run(
            co,
            "calls",
            &N.to_string(),
            "64",
            &[Arg::Zeros(4 * N), Arg::Buf(bytes_i32(&input))],
        );
        let want: Vec<u32> = (0..N)
            .map(|g| {
                let (x, y) = (input[g], g as i32);
                let poly = x.wrapping_mul(x).wrapping_sub(3 * y).wrapping_add(x ^ y);
                let n = input[g] & 127;
                let w: Vec<i32> = (0..12).map(|i| input[((n + i) & 127) as usize]).collect();
                let mut s = 0i32;
                for i in 0..12 {
                    s = s.wrapping_add(w[((n * 5 + i) % 12) as usize].wrapping_mul(i));
                }
                poly.wrapping_add(s) as u32
            })
            .collect();
        check(what, &words(&out[0]), &want);
    });
}

#[test]
fn f64() {
    const N: usize = 256;
    let mut r = Rng(7);
    let a: Vec<f64> = (0..N)
        .map(|_| r.range(-1 << 40, 1 << 40) as f64 / 1.1e9)
        .collect();
    let b: Vec<f64> = (0..N)
        .map(|_| match r.range(-1 << 40, 1 << 40) as f64 / 3.3e9 {
            0.0 => 0.5,
            v => v,
        })
        .collect();
    each_config("f64.cl", &[], |co, what| {
        let out = run(
            co,
            "f64",
            &N.to_string(),
            "64",
            &[
                Arg::Zeros(48 * N),
                Arg::Buf(bytes_f64(&a)),
                Arg::Buf(bytes_f64(&b)),
            ],
        );
        let mut want = Vec::new();
        for i in 0..N {
            let (x, y) = (a[i], b[i]);
            want.push(x.mul_add(y, 1.0).to_bits());
            want.push((x / y).to_bits());
            want.push(x.abs().sqrt().to_bits());
            want.push(f64::from(x as f32).to_bits());
            want.push((((x * 1000.0) as i64) as f64).to_bits());
            want.push(
                (x.floor() + y.ceil() - (x * y).trunc() + (x / 3.0).round_ties_even()).to_bits(),
            );
        }
        check(what, &qwords(&out[0]), &want);
    });
}

#[test]
fn half_math() {
    use half::f16;
    const N: usize = 256;
    let mut r = Rng(8);
    // Magnitudes in [0.5, 64) so that x * y + x is exact in f64.
    let mut sample = || {
        let m = r.range(1024, 2048) as f64 / 1024.0;
        let e = r.range(-1, 6) as i32;
        let s = if r.next() & 1 == 0 { 1.0 } else { -1.0 };
        f16::from_f64(s * m * 2f64.powi(e))
    };
    let a: Vec<f16> = (0..N).map(|_| sample()).collect();
    let b: Vec<f16> = (0..N).map(|_| sample()).collect();
    let bytes = |v: &[f16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    each_config("half.cl", &[], |co, what| {
        let out = run(
            co,
            "half_math",
            &N.to_string(),
            "64",
            &[Arg::Zeros(8 * N), Arg::Buf(bytes(&a)), Arg::Buf(bytes(&b))],
        );
        let got: Vec<u16> = out[0]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let mut want = Vec::new();
        for i in 0..N {
            let (x, y) = (a[i].to_f64(), b[i].to_f64());
            want.push(f16::from_f64(x + y).to_bits());
            want.push(f16::from_f64(x * y).to_bits());
            want.push(f16::from_f64(x * y + x).to_bits());
            want.push(f16::from_f64(y * x + x).to_bits());
        }
        check(what, &got, &want);
    });
}

#[test]
fn divergent() {
    const N: usize = 1024;
    let mut r = Rng(9);
    let input: Vec<u32> = (0..N).map(|_| r.range(1, 100_000) as u32).collect();
    each_config("divergent.cl", &[], |co, what| {
        let out = run(
            co,
            "divergent",
            &N.to_string(),
            "128",
            &[Arg::Zeros(4 * N), Arg::Buf(bytes_u32(&input))],
        );
        let want: Vec<u32> = input
            .iter()
            .map(|&v| {
                let (mut n, mut steps) = (v, 0u32);
                while n != 1 && steps < 1000 {
                    n = if n & 1 != 0 {
                        n.wrapping_mul(3).wrapping_add(1)
                    } else {
                        n >> 1
                    };
                    steps += 1;
                }
                if steps & 1 != 0 {
                    steps * 3
                } else if steps % 3 == 0 {
                    steps + 100
                } else {
                    steps
                }
            })
            .collect();
        check(what, &words(&out[0]), &want);
    });
}

#[test]
fn bits() {
    const N: usize = 512;
    let mut r = Rng(10);
    let mut input: Vec<u32> = (0..N).map(|_| r.next() >> (r.next() % 32)).collect();
    input[0] = 0;
    input[1] = u32::MAX;
    each_config("bits.cl", &[], |co, what| {
        let out = run(
            co,
            "bits",
            &N.to_string(),
            "64",
            &[Arg::Zeros(32 * N), Arg::Buf(bytes_u32(&input))],
        );
        let mut want = Vec::new();
        for i in 0..N {
            let (x, y) = (input[i], input[i ^ 1]);
            want.push(x.count_ones());
            want.push(x.leading_zeros());
            want.push(x.trailing_zeros());
            want.push(x.rotate_left(y & 31));
            want.push((x & !0x0f0f_0f0f) | (y & 0x0f0f_0f0f));
            want.push(((u64::from(x) * u64::from(y)) >> 32) as u32);
            want.push(((x & 0xff_ffff).wrapping_mul(y & 0xff_ffff)).wrapping_add(x));
            want.push((x >> (y & 31)) | ((y as i32 >> 3) as u32) | (x << 7));
        }
        check(what, &words(&out[0]), &want);
    });
}

fn rounding_case(extra: &[&str], flush: bool) {
    const N: usize = 512;
    let mut r = Rng(11);
    let mut a: Vec<f32> = (0..N)
        .map(|_| r.range(-2_000_000, 2_000_000) as f32 / 2048.0)
        .collect();
    // Exact ties and small values.
    for (i, v) in [
        0.5f32, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, 3.75e-3, -7.0e-6,
    ]
    .iter()
    .enumerate()
    {
        a[i] = *v;
    }
    let daz = |v: f32| {
        if flush && v.is_subnormal() {
            f32::from_bits(v.to_bits() & 0x8000_0000)
        } else {
            v
        }
    };
    each_config("rounding.cl", extra, |co, what| {
        let out = run(
            co,
            "rounding",
            &N.to_string(),
            "64",
            &[
                Arg::Zeros(16 * N),
                Arg::Zeros(16 * N),
                Arg::Buf(bytes_f32(&a)),
            ],
        );
        let mut wi = Vec::new();
        let mut wf = Vec::new();
        for &x in &a {
            wi.push(x.round_ties_even() as i32 as u32);
            wi.push(x.trunc() as i32 as u32);
            wi.push(x.ceil() as i32 as u32);
            wi.push(x.floor() as i32 as u32);
            let tiny = f32::from_bits(0x0000_0200); // 2^-140, a denormal constant
            let t130 = f32::from_bits(0x0008_0000); // 2^-130
            let t149 = f32::from_bits(1); // 2^-149
            wf.push(daz(x * 1e-30f32).to_bits());
            wf.push(daz(x * daz(tiny)).to_bits());
            wf.push((((x * 1e6f32) as i32) as f32).to_bits());
            wf.push(daz(x.mul_add(daz(t130), daz(t149))).to_bits());
        }
        check(&format!("{what} ints"), &words(&out[0]), &wi);
        check(&format!("{what} floats"), &words(&out[1]), &wf);
    });
}

#[test]
fn rounding_ieee_denormals() {
    rounding_case(&[], false);
}

#[test]
fn rounding_denormals_are_zero() {
    rounding_case(&["-cl-denorms-are-zero"], true);
}

/// Distance in units in the last place between two finite doubles.
fn ulps(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let b = x.to_bits() as i64;
        if b < 0 { i64::MIN - b } else { b }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn trig_f64() {
    const N: usize = 256;
    let mut r = Rng(12);
    let mut a: Vec<f64> = (0..N)
        .map(|_| r.range(-1 << 40, 1 << 40) as f64 / 1e9)
        .collect();
    for (i, v) in [
        1e6,
        -3.5e9,
        1e15,
        1e22,
        1e300,
        -1e300,
        0.0,
        1e-300,
        std::f64::consts::PI,
    ]
    .iter()
    .enumerate()
    {
        a[i] = *v;
    }
    each_config("trig_f64.cl", &[], |co, what| {
        let out = run(
            co,
            "trig_f64",
            &N.to_string(),
            "64",
            &[Arg::Zeros(16 * N), Arg::Buf(bytes_f64(&a))],
        );
        let got = qwords(&out[0]);
        for i in 0..N {
            // OpenCL's limit for double sin and cos is 4 ulp.
            for (k, want) in [a[i].sin(), a[i].cos()].into_iter().enumerate() {
                let g = f64::from_bits(got[2 * i + k]);
                assert!(
                    ulps(g, want) <= 4,
                    "{what}: {}({:e}) = {g:e}, want {want:e}",
                    ["sin", "cos"][k],
                    a[i]
                );
            }
        }
    });
}
