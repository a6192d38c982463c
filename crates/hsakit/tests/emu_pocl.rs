//! Differential test of the emulator against pocl, a CPU OpenCL
//! implementation: every OpenCL C kernel in `tests/emu/pocl/` is compiled
//! by clang-19 for gfx900 and gfx90a and run by `hsakit run`, and run on
//! pocl by `scripts/pocl-reference` (pyopencl) with the same inputs; the
//! final buffers are compared.
//!
//! A kernel file's header comments say how to run and compare it:
//!
//! ```text
//! // kernel: NAME
//! // grid: X[,Y[,Z]]
//! // group: X[,Y[,Z]]
//! // flags: CLANG AND POCL BUILD OPTIONS     (optional)
//! // clang-flags: CLANG-ONLY OPTIONS          (optional)
//! // pocl-flags: POCL-ONLY OPTIONS            (optional)
//! // v4                                       (also code object v4)
//! // arg: buf TYPE COUNT DIST    TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64
//! // arg: zeros BYTES | local BYTES | u32 V | i32 V | u64 V | i64 V | f32 V | f64 V
//! // out: N MODE                 MODE: exact | f32 | f64 | ulp32 K | ulp64 K | ulp16 K
//! ```
//!
//! DIST is `bits` (random bits), `range(LO,HI)` (integers LO..HI),
//! `uniform(LO,HI)` (floats), `special` (floats: zeros, infinities, NaNs,
//! denormals, integers, halves and random values of all magnitudes),
//! `finite` (`special` without NaNs),
//! `edge` (integers: 0, ±1, min, max, powers of two and random bits),
//! `iota` or `const(V)`. Inputs are generated here deterministically from
//! the file name and argument index.
//!
//! Modes: `exact` compares bytes; `f32`/`f64` compare bits but take any NaN
//! as equal to any NaN (OpenCL leaves NaN payloads and signs unspecified);
//! `ulpNN K` allows K units in the last place (math builtins have ULP
//! limits in the OpenCL spec, and both implementations use their error
//! budget differently).
//!
//! Set `POCL_KERNEL=name` to run one file. Without pocl/pyopencl or clang
//! the test skips loudly; with env CI set it fails instead.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{CONFIGS, Config};

fn corpus_dir() -> PathBuf {
    oracles::workspace_root().join("tests/emu/pocl")
}

#[derive(Debug, Clone)]
enum ArgSpec {
    Buf {
        ty: String,
        count: usize,
        dist: String,
    },
    Scalar(String),
}

#[derive(Debug, Clone)]
enum Mode {
    Exact,
    Float(u32),
    Ulp(u32, u64),
}

#[derive(Debug)]
struct Header {
    kernel: String,
    grid: String,
    group: String,
    flags: Vec<String>,
    clang_flags: Vec<String>,
    pocl_flags: Vec<String>,
    v4: bool,
    args: Vec<ArgSpec>,
    outs: Vec<(usize, Mode)>,
}

fn parse_header(file: &Path) -> Header {
    let text = std::fs::read_to_string(file).unwrap();
    let mut h = Header {
        kernel: String::new(),
        grid: String::new(),
        group: String::new(),
        flags: Vec::new(),
        clang_flags: Vec::new(),
        pocl_flags: Vec::new(),
        v4: false,
        args: Vec::new(),
        outs: Vec::new(),
    };
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    for line in text.lines() {
        let Some(c) = line.strip_prefix("//") else {
            continue;
        };
        let c = c.trim();
        let (key, rest) = c.split_once(':').unwrap_or((c, ""));
        let rest = rest.trim();
        match key {
            "kernel" => h.kernel = rest.to_string(),
            "grid" => h.grid = rest.to_string(),
            "group" => h.group = rest.to_string(),
            "flags" => h.flags = words(rest),
            "clang-flags" => h.clang_flags = words(rest),
            "pocl-flags" => h.pocl_flags = words(rest),
            "v4" => h.v4 = true,
            "arg" => {
                let w = words(rest);
                h.args.push(if w[0] == "buf" {
                    ArgSpec::Buf {
                        ty: w[1].clone(),
                        count: w[2].parse().unwrap(),
                        dist: w.get(3).cloned().unwrap_or_else(|| "bits".into()),
                    }
                } else {
                    ArgSpec::Scalar(format!("{}={}", w[0], w[1]))
                });
            }
            "out" => {
                let w = words(rest);
                let n: usize = w[0].parse().unwrap();
                let mode = match w[1].as_str() {
                    "exact" => Mode::Exact,
                    "f32" => Mode::Float(4),
                    "f64" => Mode::Float(8),
                    "f16" => Mode::Float(2),
                    "ulp32" => Mode::Ulp(4, w[2].parse().unwrap()),
                    "ulp64" => Mode::Ulp(8, w[2].parse().unwrap()),
                    "ulp16" => Mode::Ulp(2, w[2].parse().unwrap()),
                    m => panic!("{}: bad out mode `{m}`", file.display()),
                };
                h.outs.push((n, mode));
            }
            _ => {}
        }
    }
    assert!(
        !h.kernel.is_empty() && !h.grid.is_empty() && !h.group.is_empty(),
        "{}: header needs kernel, grid and group",
        file.display()
    );
    h
}

/// xorshift64* seeded from a string.
struct Rng(u64);

impl Rng {
    fn new(seed: &str) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn parse_pair(dist: &str, name: &str) -> Option<(f64, f64)> {
    let inner = dist
        .strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')?;
    let (a, b) = inner.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// One element of type `ty` (size `size` bytes) drawn from `dist`, as raw
/// little-endian bits.
fn element(r: &mut Rng, ty: &str, size: usize, dist: &str, index: usize) -> u64 {
    let is_float = ty.starts_with('f');
    let signed = ty.starts_with('i');
    let mask = if size == 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    };
    let from_f64 = |v: f64| -> u64 {
        match size {
            8 => v.to_bits(),
            4 => u64::from((v as f32).to_bits()),
            _ => u64::from(half::f16::from_f64(v).to_bits()),
        }
    };
    let from_i128 = |v: i128| -> u64 {
        if is_float {
            from_f64(v as f64)
        } else {
            (v as u64) & mask
        }
    };
    if dist == "bits" {
        return r.next() & mask;
    }
    if dist == "iota" {
        return from_i128(index as i128);
    }
    if let Some(v) = dist
        .strip_prefix("const(")
        .and_then(|s| s.strip_suffix(')'))
    {
        return if is_float {
            from_f64(v.parse().unwrap())
        } else {
            from_i128(v.parse().unwrap())
        };
    }
    if let Some((lo, hi)) = parse_pair(dist, "range") {
        let span = (hi - lo) as u64;
        return from_i128(lo as i128 + (r.next() % span.max(1)) as i128);
    }
    if let Some((lo, hi)) = parse_pair(dist, "uniform") {
        return from_f64(lo + (hi - lo) * r.unit());
    }
    if dist == "edge" {
        let bits = size as u32 * 8;
        let (min, max): (i128, i128) = if signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        return match r.next() % 12 {
            0 => 0,
            1 => from_i128(1),
            2 => from_i128(-1),
            3 => from_i128(min),
            4 => from_i128(max),
            5 => from_i128(min + 1),
            6 => from_i128(max - 1),
            7 => from_i128(1i128 << (r.next() % u64::from(bits))),
            8 => from_i128(r.next() as i128 % 100 - 50),
            _ => r.next() & mask,
        };
    }
    if dist == "finite" {
        // `special` without NaNs (infinities stay)
        loop {
            let v = element(r, ty, size, "special", index);
            if !is_nan(v, size) {
                return v;
            }
        }
    }
    if dist == "special" {
        let (ebits, mbits) = match size {
            8 => (11u32, 52u32),
            4 => (8, 23),
            _ => (5, 10),
        };
        let sign = (r.next() & 1) << (size * 8 - 1);
        let inf = ((1u64 << ebits) - 1) << mbits;
        let v = match r.next() % 16 {
            0 => 0,
            1 => inf,
            2 => inf | (1 << (mbits - 1)) | (r.next() & 0xff),
            3 => r.next() & ((1 << mbits) - 1), // denormal
            4 => from_f64((r.next() % 2000) as f64 - 1000.0),
            5 => from_f64(((r.next() % 2000) as f64 - 1000.0) + 0.5),
            6 => from_f64((r.next() % 8) as f64 * 0.25),
            7 => r.next() & mask,
            8 => from_f64(1.0) ^ (r.next() & 3),
            9 => inf - 1 - (r.next() & 3),       // near max
            10 => (1 << mbits) + (r.next() & 3), // near min normal
            _ => {
                // random exponent in a moderate range
                let bias = (1u64 << (ebits - 1)) - 1;
                let span = bias.min(60);
                let e = bias - span + r.next() % (2 * span);
                (e << mbits) | (r.next() & ((1 << mbits) - 1))
            }
        };
        return (v | sign) & mask;
    }
    panic!("bad distribution `{dist}`");
}

fn type_size(ty: &str) -> usize {
    match ty {
        "i8" | "u8" => 1,
        "i16" | "u16" | "f16" => 2,
        "i32" | "u32" | "f32" => 4,
        "i64" | "u64" | "f64" => 8,
        _ => panic!("bad type `{ty}`"),
    }
}

fn generate(seed: &str, ty: &str, count: usize, dist: &str) -> Vec<u8> {
    let mut r = Rng::new(seed);
    let size = type_size(ty);
    let mut out = Vec::with_capacity(count * size);
    for i in 0..count {
        let v = element(&mut r, ty, size, dist, i);
        out.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    out
}

fn clang(src: &Path, h: &Header, c: &Config, out: &Path) -> Result<(), String> {
    let o = Command::new("clang-19")
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
        .args(&h.flags)
        .args(&h.clang_flags)
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| e.to_string())?;
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

/// `--arg`/`--out` lists for both runners; buffer inputs are written
/// to `dir` under `tag`.
fn arg_list(dir: &Path, tag: &str, h: &Header, inputs: &[Option<Vec<u8>>]) -> Vec<String> {
    let mut v = Vec::new();
    for (i, a) in h.args.iter().enumerate() {
        let spec = match a {
            ArgSpec::Buf { .. } => {
                let p = dir.join(format!("{tag}-in{i}.bin"));
                std::fs::write(&p, inputs[i].as_ref().unwrap()).unwrap();
                format!("buf={}", p.display())
            }
            ArgSpec::Scalar(s) => s.clone(),
        };
        v.push("--arg".to_string());
        v.push(spec);
    }
    for (n, _) in &h.outs {
        v.push("--out".into());
        v.push(format!(
            "{n}={}",
            dir.join(format!("{tag}-out{n}.bin")).display()
        ));
    }
    v
}

fn read_outs(dir: &Path, tag: &str, h: &Header) -> Vec<Vec<u8>> {
    h.outs
        .iter()
        .map(|(n, _)| std::fs::read(dir.join(format!("{tag}-out{n}.bin"))).unwrap())
        .collect()
}

fn ordered(bits: u64, size: usize) -> i128 {
    let sign = 1u64 << (size * 8 - 1);
    let mag = bits & (sign - 1);
    if bits & sign != 0 {
        -(mag as i128)
    } else {
        mag as i128
    }
}

fn is_nan(bits: u64, size: usize) -> bool {
    let (ebits, mbits) = match size {
        8 => (11u32, 52u32),
        4 => (8, 23),
        _ => (5, 10),
    };
    let e = (bits >> mbits) & ((1 << ebits) - 1);
    e == (1 << ebits) - 1 && bits & ((1 << mbits) - 1) != 0
}

fn fmt_elem(bits: u64, size: usize) -> String {
    match size {
        8 => format!("{:#018x} ({:e})", bits, f64::from_bits(bits)),
        4 => format!("{:#010x} ({:e})", bits, f32::from_bits(bits as u32)),
        _ => format!(
            "{:#06x} ({})",
            bits,
            half::f16::from_bits(bits as u16).to_f32()
        ),
    }
}

/// Compares one output buffer; returns a description of the differences.
fn compare(got: &[u8], want: &[u8], mode: &Mode) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} vs {}", got.len(), want.len()));
    }
    let mut bad = Vec::new();
    let mut count = 0;
    match mode {
        Mode::Exact => {
            for (i, (g, w)) in got.chunks(4).zip(want.chunks(4)).enumerate() {
                if g != w {
                    count += 1;
                    if bad.len() < 6 {
                        bad.push(format!("[byte {}] got {:02x?} want {:02x?}", 4 * i, g, w));
                    }
                }
            }
        }
        Mode::Float(size) | Mode::Ulp(size, _) => {
            let size = *size as usize;
            let tol = if let Mode::Ulp(_, k) = mode { *k } else { 0 };
            for (i, (g, w)) in got.chunks(size).zip(want.chunks(size)).enumerate() {
                let mut gb = [0u8; 8];
                let mut wb = [0u8; 8];
                gb[..size].copy_from_slice(g);
                wb[..size].copy_from_slice(w);
                let (g, w) = (u64::from_le_bytes(gb), u64::from_le_bytes(wb));
                let ok = if is_nan(g, size) || is_nan(w, size) {
                    is_nan(g, size) && is_nan(w, size)
                } else {
                    (ordered(g, size) - ordered(w, size)).unsigned_abs() <= u128::from(tol)
                };
                if !ok {
                    count += 1;
                    if bad.len() < 6 {
                        bad.push(format!(
                            "[{i}] got {} want {}",
                            fmt_elem(g, size),
                            fmt_elem(w, size)
                        ));
                    }
                }
            }
        }
    }
    (count > 0).then(|| format!("{count} differences: {}", bad.join("; ")))
}

fn pocl_available() -> bool {
    let ok = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import pyopencl as cl, sys; sys.exit(0 if any('Portable' in p.name for p in cl.get_platforms()) else 1)",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return true;
    }
    let msg = "pocl via pyopencl (Debian packages `pocl-opencl-icd python3-pyopencl`) is not \
               usable by /usr/bin/python3; run scripts/test to install it";
    if std::env::var_os("CI").is_some() {
        panic!("{msg}: CI must run every oracle test");
    }
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("\n!!!!! SKIPPED: {msg} !!!!!\n\n").as_bytes(),
    );
    false
}

/// Runs one kernel file on both sides; returns failure descriptions.
fn check_file(dir: &Path, file: &Path) -> Vec<String> {
    let name = file.file_stem().unwrap().to_string_lossy().to_string();
    let h = parse_header(file);
    let inputs: Vec<Option<Vec<u8>>> = h
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            ArgSpec::Buf { ty, count, dist } => {
                Some(generate(&format!("{name}/{i}"), ty, *count, dist))
            }
            ArgSpec::Scalar(_) => None,
        })
        .collect();
    let mut failures = Vec::new();

    // Reference.
    let rtag = format!("{name}-ref");
    let mut pocl_opts = h.flags.clone();
    pocl_opts.extend(h.pocl_flags.iter().cloned());
    let o = Command::new("/usr/bin/python3")
        .arg(oracles::workspace_root().join("scripts/pocl-reference"))
        .arg(file)
        .args([
            "--kernel", &h.kernel, "--grid", &h.grid, "--group", &h.group,
        ])
        .arg(format!("--options={}", pocl_opts.join(" ")))
        .args(arg_list(dir, &rtag, &h, &inputs))
        .output()
        .unwrap();
    if !o.status.success() {
        return vec![format!(
            "{name}: pocl-reference failed ({}):\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        )];
    }
    let want = read_outs(dir, &rtag, &h);

    for c in CONFIGS.iter().filter(|c| c.cov == 5 || h.v4) {
        let what = format!("{name} {} v{}", c.mcpu, c.cov);
        let tag = format!("{name}-{}-v{}", c.mcpu, c.cov);
        let co = dir.join(format!("{tag}.co"));
        if let Err(e) = clang(file, &h, c, &co) {
            failures.push(format!("{what}: clang failed:\n{e}"));
            continue;
        }
        let o = Command::new(env!("CARGO_BIN_EXE_hsakit"))
            .arg("run")
            .arg(&co)
            .args([
                "--kernel", &h.kernel, "--grid", &h.grid, "--group", &h.group,
            ])
            .args(arg_list(dir, &tag, &h, &inputs))
            .output()
            .unwrap();
        if !o.status.success() {
            failures.push(format!(
                "{what}: hsakit run failed:\n{}",
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        let got = read_outs(dir, &tag, &h);
        for (k, (n, mode)) in h.outs.iter().enumerate() {
            if let Some(d) = compare(&got[k], &want[k], mode) {
                failures.push(format!("{what} out {n}: {d}"));
            }
        }
    }
    failures
}

#[test]
fn emu_matches_pocl() {
    if !oracles::clang_available() || !pocl_available() {
        return;
    }
    let only = std::env::var("POCL_KERNEL").ok();
    let files: Vec<PathBuf> = oracles::files_with_extension(&corpus_dir(), "cl")
        .into_iter()
        .filter(|f| {
            only.as_ref()
                .is_none_or(|o| f.file_stem().unwrap().to_string_lossy() == *o)
        })
        .collect();
    assert!(
        !files.is_empty(),
        "no kernels in {}",
        corpus_dir().display()
    );
    let scratch = oracles::Scratch::new("emu-pocl");
    let dir = scratch.path("");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let r = check_file(&dir, f);
                    failures.lock().unwrap().extend(r);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    if !failures.is_empty() {
        let kept = scratch.keep();
        panic!(
            "{} failures (files kept in {}):\n{}",
            failures.len(),
            kept.display(),
            failures.join("\n")
        );
    }
}
