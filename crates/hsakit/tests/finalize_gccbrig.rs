//! Differential test of the finalizer against gccbrig: every kernel file
//! `tests/finalize/*.hsail` with a `// test:` header runs through
//! `hsakit run --mcpu gfx90a` and `--mcpu gfx900` (finalizer + emulator)
//! and, compiled by HSAILasm and `gccbrig-11`, natively on the host CPU by
//! the small launcher `tests/gccbrig/launch.c`; every buffer must agree bit
//! for bit.
//!
//! The header (comment lines before the module) says how to run a kernel:
//!
//! ```text
//! // test: kernel=&name grid=256 group=64      (grid/group: X[,Y[,Z]])
//! // arg: buf 1024 random      (fill: zero | random | iota32 | f32 | f64 | f16)
//! // arg: u32 77               (also s32, u64, s64, f32, f64)
//! // arg: local 16             (16 bytes of dynamic group memory: a u32
//! //                            group offset, PRM 4.20; the offsets start
//! //                            at the static group size rounded up to 16)
//! // gccbrig: skip REASON      (gccbrig is known wrong: the two targets only)
//! // targets: differ REASON    (outputs are target-specific, e.g. the clock:
//! //                            the targets are not compared with each other)
//! ```
//!
//! One `// arg:` line per kernel argument, in order; buffers are passed
//! as 64-bit global addresses. Inputs are generated deterministically from
//! the file name and argument index. Set `GCCBRIG_KERNEL=name` (file stem)
//! to run one file. Without gccbrig the test still compares the two
//! targets and skips the oracle loudly; with env `CI` set it fails.
//!
//! gccbrig runs work-items one at a time with WAVESIZE 1 and lane id 0, so
//! kernels whose results depend on the wavefront size or on the order of
//! work-items (returning atomics on shared words) cannot be compared with
//! it; nor can results where the PRM leaves latitude (NaN signs and
//! payloads, out-of-range conversions) or where gccbrig-11 is known wrong
//! (see /work/shared/design/oracles.md; also min/max of a signaling NaN).
//!
//! Besides the kernel files: random kernels (`GCCBRIG_RANDOM` of them from
//! seed `GCCBRIG_SEED`; `GCCBRIG_KEEP` keeps their sources), a Rust
//! reference of min/max with NaNs, and tests of the harness itself (the
//! launcher's kernarg layout, headers, inputs, mismatch reports).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The emulated processors every kernel runs on.
const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// How long one tool run may take before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(300);

/// A scalar kernel argument type: header name, `hsakit run` name, bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ScalarKind {
    name: &'static str,
    hsakit: &'static str,
    size: usize,
}

/// The scalar types a header may use.
const SCALARS: [ScalarKind; 6] = [
    scalar("u32", "u32", 4),
    scalar("s32", "i32", 4),
    scalar("u64", "u64", 8),
    scalar("s64", "i64", 8),
    scalar("f32", "f32", 4),
    scalar("f64", "f64", 8),
];

/// A [`ScalarKind`] (for the table).
const fn scalar(name: &'static str, hsakit: &'static str, size: usize) -> ScalarKind {
    ScalarKind { name, hsakit, size }
}

/// How a buffer's initial contents are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fill {
    Zero,
    Random,
    Iota32,
    /// Floats of this format mixing special and random finite values.
    Float(FloatFormat),
}

/// An IEEE binary interchange format: bytes, exponent and fraction bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FloatFormat {
    bytes: usize,
    exp: u32,
    frac: u32,
}

/// binary16, binary32 and binary64.
const F16: FloatFormat = float(2, 5, 10);
const F32: FloatFormat = float(4, 8, 23);
const F64: FloatFormat = float(8, 11, 52);

/// A [`FloatFormat`] (for the constants).
const fn float(bytes: usize, exp: u32, frac: u32) -> FloatFormat {
    FloatFormat { bytes, exp, frac }
}

/// Fill names of the header.
const FILLS: [(&str, Fill); 6] = [
    ("zero", Fill::Zero),
    ("random", Fill::Random),
    ("iota32", Fill::Iota32),
    ("f16", Fill::Float(F16)),
    ("f32", Fill::Float(F32)),
    ("f64", Fill::Float(F64)),
];

/// One kernel argument of a header.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Buf {
        bytes: usize,
        fill: Fill,
    },
    Scalar {
        kind: ScalarKind,
        value: String,
    },
    /// Dynamic group memory of this many bytes; the argument is its u32
    /// group offset (PRM 4.20).
    Local(u32),
}

/// A kernel file's `// test:` header.
#[derive(Debug, Clone, PartialEq)]
struct Header {
    kernel: String,
    grid: String,
    group: String,
    args: Vec<Arg>,
    /// Why gccbrig is not run (`// gccbrig: skip REASON`).
    skip: Option<String>,
    /// Why the two targets' outputs are not compared with each other
    /// (`// targets: differ REASON`, e.g. the clock or `maxwaveid`); both
    /// must still run, and gccbrig, unless skipped, is compared with each.
    targets_differ: Option<String>,
}

/// Parses the header of the leading comment block of `text`; `Ok(None)`
/// when it has no `// test:` line. Errors are `LINE: message`.
fn parse_header(text: &str) -> Result<Option<Header>, String> {
    let mut test = None;
    let mut args = Vec::new();
    let (mut skip, mut targets_differ) = (None, None);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix("//") else {
            break;
        };
        let at = |e: String| format!("line {}: {e}", i + 1);
        let comment = comment.trim();
        if let Some(rest) = comment.strip_prefix("test:") {
            test = Some(parse_test_line(rest).map_err(at)?);
        } else if let Some(rest) = comment.strip_prefix("arg:") {
            args.push(parse_arg_line(rest).map_err(at)?);
        } else if let Some(rest) = comment.strip_prefix("gccbrig:") {
            skip = Some(reason(rest, "gccbrig", "skip").map_err(at)?);
        } else if let Some(rest) = comment.strip_prefix("targets:") {
            targets_differ = Some(reason(rest, "targets", "differ").map_err(at)?);
        }
    }
    let Some((kernel, grid, group)) = test else {
        return match args.is_empty() && skip.is_none() && targets_differ.is_none() {
            true => Ok(None),
            false => Err("header lines without a `// test:` line".into()),
        };
    };
    Ok(Some(Header {
        kernel,
        grid,
        group,
        args,
        skip,
        targets_differ,
    }))
}

/// The REASON of `// KEY: WORD REASON` (`rest` follows the colon).
fn reason(rest: &str, key: &str, word: &str) -> Result<String, String> {
    match rest.trim().strip_prefix(word).map(str::trim) {
        Some(r) if !r.is_empty() => Ok(r.to_owned()),
        _ => Err(format!("expected `// {key}: {word} REASON`")),
    }
}

/// `kernel=&name grid=X[,Y[,Z]] group=X[,Y[,Z]]`.
fn parse_test_line(rest: &str) -> Result<(String, String, String), String> {
    let (mut kernel, mut grid, mut group) = (None, None, None);
    for word in rest.split_whitespace() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("`{word}` is not KEY=VALUE"))?;
        let slot = match key {
            "kernel" => &mut kernel,
            "grid" => &mut grid,
            "group" => &mut group,
            _ => return Err(format!("unknown key `{key}` (kernel, grid, group)")),
        };
        if key != "kernel" && parse_dims(value).is_none() {
            return Err(format!(
                "{key}=`{value}` is not X[,Y[,Z]] of positive integers"
            ));
        }
        *slot = Some(value.to_owned());
    }
    let need = |v: Option<String>, k: &str| v.ok_or_else(|| format!("`// test:` needs {k}="));
    Ok((
        need(kernel, "kernel")?,
        need(grid, "grid")?,
        need(group, "group")?,
    ))
}

/// `X[,Y[,Z]]` as 1 to 3 positive integers.
fn parse_dims(text: &str) -> Option<Vec<u64>> {
    let dims: Vec<u64> = text
        .split(',')
        .map(|d| d.parse().ok().filter(|&v| v > 0))
        .collect::<Option<_>>()?;
    (1..=3).contains(&dims.len()).then_some(dims)
}

/// `buf BYTES FILL` or `KIND VALUE`.
fn parse_arg_line(rest: &str) -> Result<Arg, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        ["buf", bytes, fill] => {
            let bytes = bytes
                .parse()
                .map_err(|_| format!("buffer size `{bytes}` is not a byte count"))?;
            let fill = FILLS
                .iter()
                .find(|(name, _)| name == fill)
                .map(|&(_, f)| f)
                .ok_or_else(|| {
                    format!("unknown fill `{fill}` (zero, random, iota32, f16, f32, f64)")
                })?;
            Ok(Arg::Buf { bytes, fill })
        }
        ["local", bytes] => bytes
            .parse()
            .map(Arg::Local)
            .map_err(|_| format!("local size `{bytes}` is not a byte count")),
        [kind, value] => {
            let kind = *SCALARS.iter().find(|k| k.name == *kind).ok_or_else(|| {
                format!("unknown argument kind `{kind}` (buf, u32, s32, u64, s64, f32, f64)")
            })?;
            scalar_bytes(kind, value)
                .ok_or_else(|| format!("`{value}` is not a {} value", kind.name))?;
            Ok(Arg::Scalar {
                kind,
                value: (*value).to_owned(),
            })
        }
        _ => Err("expected `buf BYTES FILL` or `KIND VALUE`".into()),
    }
}

/// An integer in decimal or `0x` hex, with an optional `-`.
fn parse_int(text: &str) -> Option<i128> {
    let (neg, body) = text.strip_prefix('-').map_or((false, text), |b| (true, b));
    let mag = match body.strip_prefix("0x") {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => body.parse().ok()?,
    };
    Some(if neg { -mag } else { mag })
}

/// The little-endian bytes a scalar argument puts in the kernarg segment
/// (as the PRM's kernarg types define them); `None` if out of range.
fn scalar_bytes(kind: ScalarKind, value: &str) -> Option<Vec<u8>> {
    match kind.name {
        "f32" => Some(value.parse::<f32>().ok()?.to_le_bytes().to_vec()),
        "f64" => Some(value.parse::<f64>().ok()?.to_le_bytes().to_vec()),
        name => {
            let v = parse_int(value)?;
            let bits = 8 * kind.size as u32;
            let range = if name.starts_with('s') {
                -(1i128 << (bits - 1))..=(1i128 << (bits - 1)) - 1
            } else {
                0..=(1i128 << bits) - 1
            };
            // Two's complement: the low bytes of the i128.
            range
                .contains(&v)
                .then(|| v.to_le_bytes()[..kind.size].to_vec())
        }
    }
}

/// FNV-1a of `text`: the seed of one argument's generator.
fn seed(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// One value of `f` as raw bits: a special value (±0, ±inf, quiet NaN,
/// a denormal, ±1, ±max normal, ±min normal) about one time in three,
/// otherwise a random finite number, mostly of moderate magnitude.
fn float_bits(rng: &mut oracles::Rng, f: FloatFormat) -> u64 {
    let frac_mask = (1u64 << f.frac) - 1;
    let max_exp = (1u64 << f.exp) - 1;
    let bias = max_exp >> 1;
    let inf = max_exp << f.frac;
    let sign = if rng.next_u64() & 1 == 0 {
        0
    } else {
        1u64 << (f.exp + f.frac)
    };
    let specials = [
        0,
        inf,
        inf | (1 << (f.frac - 1)),
        (rng.next_u64() & frac_mask).max(1),
        bias << f.frac,
        inf - 1,
        1 << f.frac,
    ];
    let r = rng.below(21);
    let magnitude = if r < specials.len() {
        specials[r]
    } else {
        // Exponents within ±24 of 1.0 (less for f16) two times in
        // three, else any finite.
        let near = 24.min(bias - 1);
        let exp = if r < 17 {
            bias - near + rng.below(2 * near as usize + 1) as u64
        } else {
            1 + rng.below(max_exp as usize - 1) as u64
        };
        (exp << f.frac) | (rng.next_u64() & frac_mask)
    };
    sign | magnitude
}

/// The initial contents of a buffer argument `index` of `file`.
fn fill_buffer(file: &str, index: usize, bytes: usize, fill: Fill) -> Vec<u8> {
    let mut rng = oracles::Rng::new(seed(&format!("{file}#{index}")));
    let mut out = Vec::with_capacity(bytes + 8);
    while out.len() < bytes {
        let (word, size) = match fill {
            Fill::Zero => (0, 8),
            Fill::Random => (rng.next_u64(), 8),
            Fill::Iota32 => ((out.len() / 4) as u64, 4),
            Fill::Float(f) => (float_bits(&mut rng, f), f.bytes),
        };
        out.extend_from_slice(&word.to_le_bytes()[..size]);
    }
    out.truncate(bytes);
    out
}

/// Where two runs' copies of one buffer differ.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mismatch {
    /// Number of differing 32-bit words (a short last word counts).
    words: usize,
    /// The first few differences: word index, value in run A, in run B.
    first: Vec<(usize, u32, u32)>,
    /// Lengths in bytes, when they differ.
    lengths: Option<(usize, usize)>,
}

/// How many differing words a report lists.
const SHOWN: usize = 4;

/// Compares two buffers word by word; `None` when they are identical.
fn compare(a: &[u8], b: &[u8]) -> Option<Mismatch> {
    let chunk = |s: &[u8], i: usize| -> Vec<u8> {
        s.get(i * 4..(i * 4 + 4).min(s.len()))
            .unwrap_or(&[])
            .to_vec()
    };
    let value = |c: &[u8]| c.iter().rev().fold(0u32, |v, &x| (v << 8) | u32::from(x));
    let mut m = Mismatch {
        words: 0,
        first: Vec::new(),
        lengths: (a.len() != b.len()).then_some((a.len(), b.len())),
    };
    for i in 0..a.len().max(b.len()).div_ceil(4) {
        let (x, y) = (chunk(a, i), chunk(b, i));
        if x != y {
            m.words += 1;
            if m.first.len() < SHOWN {
                m.first.push((i, value(&x), value(&y)));
            }
        }
    }
    (m.words > 0).then_some(m)
}

/// The report of one buffer's mismatch between runs named `a` and `b`.
fn report(file: &str, arg: usize, a: &str, b: &str, m: &Mismatch) -> String {
    let mut s = format!(
        "{file}: argument {arg}: {} differing 32-bit word(s) between {a} and {b}",
        m.words
    );
    if let Some((la, lb)) = m.lengths {
        s.push_str(&format!(" (lengths {la} vs {lb} bytes)"));
    }
    for (i, x, y) in &m.first {
        s.push_str(&format!(
            "\n    word {i} (byte {:#x}): {a} {x:#010x}, {b} {y:#010x}",
            i * 4
        ));
    }
    s
}

/// Every buffer of two runs compared; the reports of those that differ.
fn compare_runs(
    file: &str,
    h: &Header,
    a: (&str, &[Vec<u8>]),
    b: (&str, &[Vec<u8>]),
) -> Vec<String> {
    buffer_indices(h)
        .zip(a.1.iter().zip(b.1))
        .filter_map(|(arg, (x, y))| compare(x, y).map(|m| report(file, arg, a.0, b.0, &m)))
        .collect()
}

/// Indices of the buffer arguments of `h`.
fn buffer_indices(h: &Header) -> impl Iterator<Item = usize> + '_ {
    h.args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Arg::Buf { .. }))
        .map(|(i, _)| i)
}

/// Runs `cmd` with its output in `log` (a path prefix), within [`TIMEOUT`];
/// the error names the command and shows its output.
fn run_logged(cmd: &mut Command, log: &Path) -> Result<(), String> {
    let out_path = log.with_extension("out");
    let file = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{cmd:?} did not finish in {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if status.success() {
        return Ok(());
    }
    let output = std::fs::read_to_string(&out_path).unwrap_or_default();
    Err(format!("{cmd:?} failed ({status}):\n{output}"))
}

/// The launcher, compiled once per test process (into a fresh name, then
/// renamed, so that concurrent test processes never see half a file).
fn launcher() -> Result<&'static Path, String> {
    static LAUNCHER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = LAUNCHER.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gccbrig");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let exe = dir.join("launch");
        let fresh = dir.join(format!("launch.{}", std::process::id()));
        let src = oracles::workspace_root().join("tests/gccbrig/launch.c");
        // libhsail-rt uses libm without declaring it: link it into the host.
        run_logged(
            Command::new("gcc-11")
                .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
                .arg(&fresh)
                .arg(&src)
                .args(["-ldl", "-Wl,--no-as-needed", "-lm"]),
            &dir.join(format!("cc.{}", std::process::id())),
        )?;
        std::fs::rename(&fresh, &exe).map_err(|e| e.to_string())?;
        Ok(exe)
    });
    built.as_deref().map_err(Clone::clone)
}

/// Writes the inputs of a run named `tag` into `dir`; the argument list
/// for `hsakit run` (`hsakit = true`) or the launcher, and the paths of the
/// buffer files.
fn write_args(
    dir: &Path,
    tag: &str,
    h: &Header,
    inputs: &[Vec<u8>],
    hsakit: bool,
) -> (Vec<String>, Vec<PathBuf>) {
    let mut specs = Vec::new();
    let mut paths = Vec::new();
    let mut buffers = inputs.iter();
    for (i, arg) in h.args.iter().enumerate() {
        match arg {
            Arg::Buf { .. } => {
                let path = dir.join(format!("{tag}-arg{i}.bin"));
                std::fs::write(&path, buffers.next().expect("one input per buffer"))
                    .expect("cannot write an input");
                specs.push(format!("buf={}", path.display()));
                paths.push(path);
            }
            Arg::Scalar { kind, value } => {
                let name = if hsakit { kind.hsakit } else { kind.name };
                specs.push(format!("{name}={value}"));
            }
            Arg::Local(bytes) => specs.push(format!("local={bytes}")),
        }
    }
    (specs, paths)
}

/// Reads back the buffers a run wrote.
fn read_buffers(paths: &[PathBuf]) -> Result<Vec<Vec<u8>>, String> {
    paths
        .iter()
        .map(|p| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect()
}

/// Runs `file` on the emulated `mcpu`; the final buffers.
fn run_hsakit(
    dir: &Path,
    file: &Path,
    h: &Header,
    inputs: &[Vec<u8>],
    mcpu: &str,
) -> Result<Vec<Vec<u8>>, String> {
    let (specs, paths) = write_args(dir, mcpu, h, inputs, true);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hsakit"));
    cmd.arg("run")
        .arg(file)
        .args([
            "--kernel", &h.kernel, "--grid", &h.grid, "--group", &h.group,
        ])
        .args(["--mcpu", mcpu, "--threads", "1"]);
    for spec in &specs {
        cmd.args(["--arg", spec]);
    }
    for (i, path) in buffer_indices(h).zip(&paths) {
        cmd.arg("--out").arg(format!("{i}={}", path.display()));
    }
    run_logged(&mut cmd, &dir.join(mcpu))?;
    read_buffers(&paths)
}

/// Compiles `file` with HSAILasm and gccbrig-11 and runs it on the host
/// CPU; the final buffers.
fn run_gccbrig(
    dir: &Path,
    file: &Path,
    h: &Header,
    inputs: &[Vec<u8>],
) -> Result<Vec<Vec<u8>>, String> {
    let launch = launcher()?;
    let brig = dir.join("k.brig");
    let so = dir.join("k.so");
    run_logged(
        Command::new("HSAILasm").arg(file).arg("-o").arg(&brig),
        &dir.join("hsailasm"),
    )?;
    run_logged(
        Command::new("gccbrig-11")
            .args(["-O2", "-fPIC", "-shared"])
            .arg(&brig)
            .arg("-o")
            .arg(&so),
        &dir.join("gccbrig"),
    )?;
    let (specs, paths) = write_args(dir, "gccbrig", h, inputs, false);
    run_logged(
        Command::new(launch)
            .arg(&so)
            .args([&h.kernel, &h.grid, &h.group])
            .args(&specs),
        &dir.join("launch"),
    )?;
    read_buffers(&paths)
}

/// The generated inputs of every buffer argument of `h` for `name`.
fn inputs(name: &str, h: &Header) -> Vec<Vec<u8>> {
    h.args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Arg::Buf { bytes, fill } => Some(fill_buffer(name, i, *bytes, *fill)),
            Arg::Scalar { .. } | Arg::Local(_) => None,
        })
        .collect()
}

/// The final buffers of one run, named after where it ran.
type Run = (String, Vec<Vec<u8>>);

/// Runs one kernel file everywhere and compares; the failures.
fn check_file(file: &Path, h: &Header, with_gccbrig: bool) -> Vec<String> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_owned();
    let scratch = oracles::Scratch::new("gccbrig");
    let dir = scratch.path("");
    let inputs = inputs(&name, h);
    let mut failures = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    for mcpu in TARGETS {
        match run_hsakit(&dir, file, h, &inputs, mcpu) {
            Ok(out) => runs.push((mcpu.to_owned(), out)),
            Err(e) => failures.push(format!("{name}: hsakit run --mcpu {mcpu}: {e}")),
        }
    }
    let mut with_oracle = false;
    if h.skip.is_none() && with_gccbrig {
        match run_gccbrig(&dir, file, h, &inputs) {
            // The oracle first: every target is compared with it.
            Ok(out) => {
                runs.insert(0, ("gccbrig".to_owned(), out));
                with_oracle = true;
            }
            Err(e) => failures.push(format!("{name}: gccbrig: {e}")),
        }
    }
    let compared = with_oracle || h.targets_differ.is_none();
    if let Some((reference, others)) = runs.split_first().filter(|_| compared) {
        for (run_name, out) in others {
            let (ref_name, ref_out) = reference;
            failures.extend(compare_runs(&name, h, (ref_name, ref_out), (run_name, out)));
        }
    }
    if !failures.is_empty() {
        failures.push(format!(
            "{name}: files kept in {}",
            scratch.keep().display()
        ));
    }
    failures
}

/// Every `tests/finalize/*.hsail` with a header (or the one named by
/// `GCCBRIG_KERNEL`), parsed; header errors are failures.
fn kernel_files() -> (Vec<(PathBuf, Header)>, Vec<String>) {
    let only = std::env::var("GCCBRIG_KERNEL").ok();
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let dir = oracles::workspace_root().join("tests/finalize");
    for file in oracles::files_with_extension(&dir, "hsail") {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if only.as_deref().is_some_and(|o| o != stem) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        match parse_header(&text) {
            Ok(Some(h)) => found.push((file, h)),
            Ok(None) => {}
            Err(e) => errors.push(format!("{}: {e}", file.display())),
        }
    }
    (found, errors)
}

/// Checks every `(file, header)` on a few worker threads; the failures.
fn check_all(files: &[(PathBuf, Header)]) -> Vec<String> {
    let with_gccbrig = oracles::gccbrig_available();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    while let Some((file, h)) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        out.extend(check_file(file, h, with_gccbrig));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    })
}

#[test]
fn finalizer_matches_gccbrig() {
    let (files, mut failures) = kernel_files();
    assert!(
        !files.is_empty(),
        "no kernel file (GCCBRIG_KERNEL={:?}) has a `// test:` header",
        std::env::var("GCCBRIG_KERNEL").ok()
    );
    failures.extend(check_all(&files));
    assert!(
        failures.is_empty(),
        "{} problem(s) in {} kernel file(s):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

// Random kernels: integer, bit-string and f32 code over the instructions
// the finalizer supports, with divergent if/else, loops of data-dependent
// length, early loop exits, loads and stores of memory only the
// work-item uses, and (where control flow is uniform) exchanges through
// group memory with barriers. Every operation gets operands for which the
// PRM defines its result (divisors non-zero and positive, bit fields
// inside the register, NaN results made canonical, quiet NaNs only for
// min/max), so gccbrig and the targets must agree bit for bit.
//
// Registers: values `$s1..$s8`, `$d3..$d6`; temporaries `$s9..$s11`,
// `$s20`, `$s21`, `$s23`, `$s24`, `$d1`, `$d2`, `$d8`; loop counters and bounds
// `$s12..$s19`; `$d7` and `$s22` address the work-item's own global slot
// and group word; conditions `$c0..$c3` (by depth) and `$c7`.

/// Value registers of random kernels: `$s1..=$s8` and `$d3..=$d6`, all
/// loaded from the input and stored to the output.
const RAND_S: u32 = 8;
const RAND_D: std::ops::RangeInclusive<u32> = 3..=6;

/// Binary 32-bit operations (signed ones take register operands only).
const RAND_OPS32: [&str; 14] = [
    "add_u32", "sub_u32", "mul_u32", "and_b32", "or_b32", "xor_b32", "shl_u32", "shr_u32",
    "shr_s32", "min_u32", "max_u32", "min_s32", "max_s32", "mul_s32",
];

/// Binary 64-bit operations (the second operand of shifts is a `$s`).
const RAND_OPS64: [&str; 11] = [
    "add_u64", "sub_u64", "mul_u64", "and_b64", "or_b64", "xor_b64", "min_u64", "max_s64",
    "shl_u64", "shr_u64", "shr_s64",
];

/// Bit-string, multiply-add and carry instructions (PRM 5.3-5.7), as
/// templates for [`RandKernel::template`]. Operands are kept where the
/// PRM defines the result: bit fields within the register (offset plus
/// width at most its length), 23-bit operands of 24-bit multiplies,
/// 64-bit divisors positive and at least 2.
const RAND_BITS: [&str; 24] = [
    "popcount_u32_b32 {s}, {s}",
    "popcount_u32_b64 {s}, {d}",
    "bitrev_b32 {s}, {s}",
    "bitrev_b64 {d}, {d}",
    "firstbit_u32_u32 {s}, {s}",
    "firstbit_u32_s32 {s}, {s}",
    "firstbit_u32_u64 {s}, {d}",
    "lastbit_u32_u32 {s}, {s}",
    "lastbit_u32_s64 {s}, {d}",
    "and_b32 $s23, {s}, 15; and_b32 $s24, {s}, 15; bitextract_u32 {s}, {s}, $s23, $s24",
    "and_b32 $s23, {s}, 15; and_b32 $s24, {s}, 15; bitextract_s32 {s}, {s}, $s23, $s24",
    "and_b32 $s23, {s}, 31; and_b32 $s24, {s}, 31; bitextract_u64 {d}, {d}, $s23, $s24",
    "and_b32 $s23, {s}, 15; and_b32 $s24, {s}, 15; bitinsert_u32 {s}, {s}, {s}, $s23, $s24",
    "and_b32 $s23, {s}, 31; and_b32 $s24, {s}, 31; bitinsert_s64 {d}, {d}, {d}, $s23, $s24",
    "and_b32 $s23, {s}, 15; and_b32 $s24, {s}, 15; bitmask_b32 {s}, $s23, $s24",
    "bitselect_b32 {s}, {s}, {s}, {s}",
    "bitselect_b64 {d}, {d}, {d}, {d}",
    "mad_u32 {s}, {s}, {s}, {s}",
    "mad_u64 {d}, {d}, {d}, {d}",
    "and_b32 $s23, {s}, 0x7fffff; and_b32 $s24, {s}, 0x7fffff; mul24_s32 {s}, $s23, $s24",
    "and_b32 $s23, {s}, 0x7fffff; and_b32 $s24, {s}, 0x7fffff; mad24_u32 {s}, $s23, $s24, {s}",
    "carry_u32 {s}, {s}, {s}",
    "borrow_u64 {d}, {d}, {d}",
    "shr_u64 $d8, {d}, 1; or_b64 $d8, $d8, 2; div_s64 {d}, {d}, $d8; rem_u64 {d}, {d}, $d8",
];

/// Compare operations of conditions.
const RAND_CMPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

/// A random kernel's text and the state of its generation.
struct RandKernel {
    rng: oracles::Rng,
    text: String,
    labels: u32,
}

impl RandKernel {
    /// Appends one instruction (without its `;`).
    fn line(&mut self, inst: &str) {
        self.text.push_str("    ");
        self.text.push_str(inst);
        self.text.push_str(";\n");
    }

    /// A random 32-bit value register.
    fn s(&mut self) -> String {
        format!("$s{}", 1 + self.rng.below(RAND_S as usize))
    }

    /// A random 64-bit value register.
    fn d(&mut self) -> String {
        let n = RAND_D.end() - RAND_D.start() + 1;
        format!("$d{}", RAND_D.start() + self.rng.below(n as usize) as u32)
    }

    /// A `$s` register or, for unsigned and bit operations, an immediate.
    fn s_or_imm(&mut self, op: &str) -> String {
        match (op.contains("_s"), self.rng.below(4)) {
            (false, 0) => (self.rng.next_u64() as u32).to_string(),
            (false, 1) => self.rng.below(40).to_string(),
            _ => self.s(),
        }
    }

    /// One straight-line instruction (or a short defined sequence).
    fn simple(&mut self) {
        let (d, a) = (self.s(), self.s());
        match self.rng.below(16) {
            0..=3 => {
                let op = *self.rng.pick(&RAND_OPS32);
                // Often an accumulation, which carries values around loops.
                let a = if self.rng.below(2) == 0 { d.clone() } else { a };
                let b = self.s_or_imm(op);
                self.line(&format!("{op} {d}, {a}, {b}"));
            }
            4 => {
                let op = *self.rng.pick(&["neg_s32", "not_b32", "abs_s32"]);
                self.line(&format!("{op} {d}, {a}"));
            }
            5 => {
                // Divisors in [2, 2^31): no division by 0 and no MIN / -1.
                let b = self.s();
                let shift = 1 + self.rng.below(31);
                self.line(&format!("shr_u32 $s11, {b}, {shift}"));
                self.line("or_b32 $s11, $s11, 2");
                let op = *self.rng.pick(&["div_u32", "rem_u32", "div_s32", "rem_s32"]);
                self.line(&format!("{op} {d}, {a}, $s11"));
            }
            6..=7 => {
                let op = *self.rng.pick(&RAND_OPS64);
                let (dd, da) = (self.d(), self.d());
                let b = if op.starts_with("sh") {
                    self.s()
                } else {
                    self.d()
                };
                self.line(&format!("{op} {dd}, {da}, {b}"));
            }
            8 => {
                let dd = self.d();
                let op = *self.rng.pick(&["cvt_u64_u32", "cvt_s64_s32"]);
                self.line(&format!("{op} {dd}, {a}"));
            }
            9 => {
                let da = self.d();
                let op = *self.rng.pick(&["cvt_u32_u64", "cvt_s32_s64"]);
                self.line(&format!("{op} {d}, {da}"));
            }
            10 | 11 => self.float_op(&d, &a),
            12 | 13 => self.own_memory(&d),
            _ => {
                let template = *self.rng.pick(&RAND_BITS);
                self.template(template);
            }
        }
    }

    /// A store to or a load from memory only this work-item uses (its
    /// output slot at `$d7`, of which the final stores overwrite all, or
    /// its word of group memory at `%y[$s22]`), of a random width.
    fn own_memory(&mut self, d: &str) {
        const WIDTHS: [(&str, &str, u64); 6] = [
            ("u8", "s8", 1),
            ("u8", "u8", 1),
            ("u16", "s16", 2),
            ("u16", "u16", 2),
            ("u32", "u32", 4),
            ("u64", "u64", 8),
        ];
        let (st, ld, size) = *self.rng.pick(&WIDTHS);
        let at = self.rng.below((RAND_BYTES / size) as usize) as u64 * size;
        let reg = if size == 8 { self.d() } else { d.to_owned() };
        let group = size == 4 && self.rng.below(2) == 0;
        let addr = match group {
            true => "[%y][$s22]".to_owned(),
            false => format!("[$d7+{at}]"),
        };
        let seg = if group { "group" } else { "global" };
        if self.rng.below(2) == 0 {
            self.line(&format!("st_{seg}_{st} {reg}, {addr}"));
        } else {
            self.line(&format!("ld_{seg}_{ld} {reg}, {addr}"));
        }
    }

    /// One instruction (or short sequence) of a [`RAND_BITS`] template,
    /// each `{s}` replaced by a random `$s` register and `{d}` by a `$d`.
    fn template(&mut self, template: &str) {
        let mut text = template.to_owned();
        while let Some(at) = text.find("{s}").or_else(|| text.find("{d}")) {
            let reg = if &text[at..at + 3] == "{s}" {
                self.s()
            } else {
                self.d()
            };
            text.replace_range(at..at + 3, &reg);
        }
        for inst in text.split(';') {
            self.line(inst.trim());
        }
    }

    /// An f32 operation on register bits, its NaN results made canonical
    /// (the PRM leaves their sign and payload open).
    fn float_op(&mut self, d: &str, a: &str) {
        let b = self.s();
        match self.rng.below(3) {
            0 => {
                let op = *self.rng.pick(&["add", "sub", "mul", "min", "max"]);
                if op.starts_with('m') && op != "mul" {
                    // gccbrig-11 returns the number (or the signaling NaN)
                    // for min/max of a signaling NaN, where the PRM (4.19.4)
                    // wants a quiet NaN: give them quiet NaNs only.
                    self.line(&format!("mov_b32 $s20, {a}"));
                    self.line(&format!("mov_b32 $s21, {b}"));
                    self.canonicalize("$s20");
                    self.canonicalize("$s21");
                    self.line(&format!("{op}_f32 {d}, $s20, $s21"));
                } else {
                    self.line(&format!("{op}_f32 {d}, {a}, {b}"));
                }
            }
            1 => {
                let c = self.s();
                self.line(&format!("fma_f32 {d}, {a}, {b}, {c}"));
            }
            _ => {
                let op = *self.rng.pick(&["neg", "abs"]);
                self.line(&format!("{op}_f32 {d}, {a}"));
            }
        }
        self.canonicalize(d);
    }

    /// Replaces a NaN in `reg` by the quiet NaN 0x7fc00000.
    fn canonicalize(&mut self, reg: &str) {
        self.line(&format!("cmp_nan_b1_f32 $c7, {reg}, {reg}"));
        self.line("cvt_u32_b1 $s9, $c7");
        self.line("neg_s32 $s9, $s9");
        self.line("not_b32 $s10, $s9");
        self.line(&format!("and_b32 {reg}, {reg}, $s10"));
        self.line("and_b32 $s9, $s9, 0x7fc00000");
        self.line(&format!("or_b32 {reg}, {reg}, $s9"));
    }

    /// A condition into `$c{depth}` comparing random registers.
    fn condition(&mut self, depth: u32) -> String {
        let cmp = *self.rng.pick(&RAND_CMPS);
        let c = format!("$c{depth}");
        if self.rng.below(3) == 0 {
            let (a, b) = (self.d(), self.d());
            let ty = self.rng.pick(&["u64", "s64"]).to_owned();
            self.line(&format!("cmp_{cmp}_b1_{ty} {c}, {a}, {b}"));
        } else {
            let (a, b) = (self.s(), self.s());
            let ty = self.rng.pick(&["u32", "s32"]).to_owned();
            self.line(&format!("cmp_{cmp}_b1_{ty} {c}, {a}, {b}"));
        }
        c
    }

    /// A fresh label `@WHATn`.
    fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("@{what}{}", self.labels)
    }

    /// A block of `len` statements nested `depth` deep (at most 3).
    fn block(&mut self, len: usize, depth: u32) {
        for _ in 0..len {
            match self.rng.below(12) {
                0 if depth < 3 => self.if_else(depth),
                1 if depth < 3 => self.counted_loop(depth),
                // Barriers only where control flow is uniform.
                2 if depth == 0 => self.group_exchange(),
                _ => self.simple(),
            }
        }
    }

    /// Work-items trade a value through group memory: store at the own
    /// slot, barrier, load the slot `k` places on (modulo the current
    /// work-group size), barrier (before the slots are reused).
    fn group_exchange(&mut self) {
        let (v, d) = (self.s(), self.s());
        let k = 1 + self.rng.below(200);
        self.line("workitemid_u32 $s9, 0");
        self.line("shl_u32 $s10, $s9, 2");
        self.line(&format!("st_group_u32 {v}, [%x][$s10]"));
        self.line("barrier");
        self.line("currentworkgroupsize_u32 $s10, 0");
        self.line(&format!("add_u32 $s9, $s9, {k}"));
        self.line("rem_u32 $s9, $s9, $s10");
        self.line("shl_u32 $s9, $s9, 2");
        self.line(&format!("ld_group_u32 {d}, [%x][$s9]"));
        self.line("barrier");
    }

    /// `if (cond) { … } else { … }` (divergent: the data decides).
    fn if_else(&mut self, depth: u32) {
        let c = self.condition(depth);
        let (other, join) = (self.label("else"), self.label("join"));
        self.line(&format!("cbr_b1 {c}, {other}"));
        let len = 1 + self.rng.below(4);
        self.block(len, depth + 1);
        self.line(&format!("br {join}"));
        self.text.push_str(&format!("{other}:\n"));
        let len = self.rng.below(4);
        self.block(len, depth + 1);
        self.text.push_str(&format!("{join}:\n"));
    }

    /// A loop of 0 to 7 iterations (the count taken from a register) with
    /// a counter in `$s{12+depth}`, the bound in `$s{16+depth}`, and
    /// sometimes a divergent early exit.
    fn counted_loop(&mut self, depth: u32) {
        let (k, n) = (format!("$s{}", 12 + depth), format!("$s{}", 16 + depth));
        let (head, exit) = (self.label("head"), self.label("exit"));
        let src = self.s();
        self.line(&format!("and_b32 {n}, {src}, 7"));
        self.line(&format!("mov_b32 {k}, 0"));
        self.text.push_str(&format!("{head}:\n"));
        self.line(&format!("cmp_ge_b1_u32 $c{depth}, {k}, {n}"));
        self.line(&format!("cbr_b1 $c{depth}, {exit}"));
        let len = 1 + self.rng.below(4);
        self.block(len, depth + 1);
        if self.rng.below(3) == 0 {
            let c = self.condition(depth);
            self.line(&format!("cbr_b1 {c}, {exit}"));
        }
        self.line(&format!("add_u32 {k}, {k}, 1"));
        self.line(&format!("br {head}"));
        self.text.push_str(&format!("{exit}:\n"));
    }
}

/// Bytes of input and of output per work-item of a random kernel.
const RAND_BYTES: u64 = 64;

impl RandKernel {
    /// `ld` or `st` (`op`) of every value register from or to this
    /// work-item's [`RAND_BYTES`] of the buffer `%arg`.
    fn transfer(&mut self, op: &str, arg: &str) {
        self.line(&format!("mul_u64 $d1, $d0, {RAND_BYTES}"));
        self.line(&format!("ld_kernarg_u64 $d2, [%{arg}]"));
        self.line("add_u64 $d2, $d2, $d1");
        for i in 0..RAND_S {
            self.line(&format!("{op}_global_u32 $s{}, [$d2+{}]", i + 1, 4 * i));
        }
        let first = *RAND_D.start();
        for d in RAND_D {
            let at = 4 * RAND_S + 8 * (d - first);
            self.line(&format!("{op}_global_u64 $d{d}, [$d2+{at}]"));
        }
    }
}

/// A random kernel `&rand` of `seed`: loads `$s1..$s8` and `$d3..$d6`
/// from `%in`, runs random code, stores them to `%out`.
fn random_kernel(seed: u64) -> String {
    let mut k = RandKernel {
        rng: oracles::Rng::new(seed),
        text: String::new(),
        labels: 0,
    };
    k.text.push_str(&format!(
        "// Random kernel of seed {seed} (finalize_gccbrig.rs).\n\
         module &Rand:1:0:$full:$large:$default;\n\n\
         kernel &rand(kernarg_u64 %in, kernarg_u64 %out)\n{{\n"
    ));
    k.line("group_u32 %x[128]");
    k.line("group_u32 %y[128]");
    k.line("workitemabsid_u32 $s0, 0");
    k.line("cvt_u64_u32 $d0, $s0");
    k.transfer("ld", "in");
    // This work-item's output slot and group word, and their first values.
    k.line(&format!("mul_u64 $d1, $d0, {RAND_BYTES}"));
    k.line("ld_kernarg_u64 $d7, [%out]");
    k.line("add_u64 $d7, $d7, $d1");
    k.line("workitemid_u32 $s22, 0");
    k.line("shl_u32 $s22, $s22, 2");
    k.line("st_group_u32 $s1, [%y][$s22]");
    let len = 12 + k.rng.below(20);
    k.block(len, 0);
    k.transfer("st", "out");
    k.line("ret");
    k.text.push_str("};\n");
    k.text
}

/// Random kernels (`GCCBRIG_RANDOM` of them, default 12; seeds from
/// `GCCBRIG_SEED`, default 1) agree between gccbrig and both targets. A
/// failing kernel is kept in the scratch directory the report names (all
/// of them with `GCCBRIG_KEEP` set).
#[test]
fn random_kernels_match_gccbrig() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (count, first) = (env("GCCBRIG_RANDOM", 12), env("GCCBRIG_SEED", 1));
    let scratch = oracles::Scratch::new("gccbrig-random");
    let files: Vec<(PathBuf, Header)> = (first..first + count)
        .map(|seed| {
            let file = scratch.path(&format!("rand-{seed}.hsail"));
            std::fs::write(&file, random_kernel(seed)).unwrap();
            let (grid, group) =
                [("256", "64"), ("200", "64"), ("96", "32"), ("130", "128")][(seed % 4) as usize];
            let buf = |bytes: u64, fill| Arg::Buf {
                bytes: bytes as usize * grid.parse::<usize>().unwrap(),
                fill,
            };
            let h = Header {
                kernel: "&rand".into(),
                grid: grid.into(),
                group: group.into(),
                args: vec![buf(RAND_BYTES, Fill::Random), buf(RAND_BYTES, Fill::Zero)],
                skip: None,
                targets_differ: None,
            };
            (file, h)
        })
        .collect();
    let failures = check_all(&files);
    if std::env::var_os("GCCBRIG_KEEP").is_some() {
        eprintln!("random kernels kept in {}", scratch.keep().display());
    } else if !failures.is_empty() {
        let kept = scratch.keep();
        panic!(
            "{} problem(s) in random kernels (sources in {}):\n{}",
            failures.len(),
            kept.display(),
            failures.join("\n")
        );
    }
}

/// The PRM's min/max of f32 bit patterns (4.19.4, Full profile): a
/// signaling NaN operand gives a quiet NaN, a quiet NaN and a number give
/// the number; a NaN result is one of the NaN inputs, quieted, with any
/// sign. `Err` holds what the result may be, for the message.
fn check_min_max(max: bool, a: u32, b: u32, got: u32) -> Result<(), String> {
    const QUIET: u32 = 0x0040_0000;
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let snan = |v: u32| f32::from_bits(v).is_nan() && v & QUIET == 0;
    let nan_from = |inputs: &[u32]| {
        let quiet: Vec<u32> = inputs
            .iter()
            .filter(|v| f32::from_bits(**v).is_nan())
            .map(|v| (v | QUIET) & 0x7fff_ffff)
            .collect();
        if quiet.contains(&(got & 0x7fff_ffff)) {
            Ok(())
        } else {
            Err(format!("a quiet NaN of {quiet:#x?} (either sign)"))
        }
    };
    if snan(a) || snan(b) || (x.is_nan() && y.is_nan()) {
        return nan_from(&[a, b]);
    }
    let want = match (x.is_nan(), y.is_nan()) {
        (true, _) => vec![b],
        (_, true) => vec![a],
        // min(-0, +0) may be either zero.
        _ if x == y => vec![a, b],
        _ if (x < y) != max => vec![a],
        _ => vec![b],
    };
    if want.contains(&got) {
        Ok(())
    } else {
        Err(format!("{want:#x?}"))
    }
}

/// Both targets' min_f32/max_f32 follow the PRM on every pair of special
/// values, signaling NaNs included (gccbrig cannot check this: see the
/// header of `minmax_nan.hsail`).
#[test]
fn min_max_of_nans_follow_the_prm() {
    let specials: [u32; 12] = [
        0x7fa0_0000, // signaling NaN
        0xff80_0001, // signaling NaN, negative
        0x7fc0_0000, // quiet NaN
        0xffc1_2345, // quiet NaN with a payload, negative
        0x0000_0000,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001, // denormal
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
    ];
    let pairs: Vec<(u32, u32)> = specials
        .iter()
        .flat_map(|&a| specials.iter().map(move |&b| (a, b)))
        .collect();
    let bytes = |f: fn(&(u32, u32)) -> u32| -> Vec<u8> {
        pairs.iter().flat_map(|p| f(p).to_le_bytes()).collect()
    };
    let n = pairs.len();
    let h = Header {
        kernel: "&minmax_nan".into(),
        grid: n.to_string(),
        group: "48".into(),
        args: vec![
            Arg::Buf {
                bytes: 4 * n,
                fill: Fill::Zero,
            },
            Arg::Buf {
                bytes: 4 * n,
                fill: Fill::Zero,
            },
            Arg::Buf {
                bytes: 8 * n,
                fill: Fill::Zero,
            },
        ],
        skip: None,
        targets_differ: None,
    };
    let file = oracles::workspace_root().join("tests/finalize/minmax_nan.hsail");
    let inputs = vec![bytes(|p| p.0), bytes(|p| p.1), vec![0; 8 * n]];
    let scratch = oracles::Scratch::new("gccbrig-minmax");
    let mut wrong = Vec::new();
    for mcpu in TARGETS {
        let out = run_hsakit(&scratch.path(""), &file, &h, &inputs, mcpu).unwrap();
        for (i, &(a, b)) in pairs.iter().enumerate() {
            for (k, max) in [(0, false), (1, true)] {
                let at = 8 * i + 4 * k;
                let got = u32::from_le_bytes(out[2][at..at + 4].try_into().unwrap());
                if let Err(want) = check_min_max(max, a, b, got) {
                    let op = if max { "max" } else { "min" };
                    wrong.push(format!(
                        "{mcpu}: {op}({a:#x}, {b:#x}) = {got:#x}, PRM: {want}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_min_max_reference_reads_the_prm() {
    assert!(check_min_max(false, 0x7fa0_0000, 0x3f80_0000, 0x7fe0_0000).is_ok());
    assert!(check_min_max(false, 0x7fa0_0000, 0x3f80_0000, 0x3f80_0000).is_err());
    assert!(check_min_max(true, 0x7fc0_0000, 0x3f80_0000, 0x3f80_0000).is_ok());
    assert!(check_min_max(true, 0x7fc0_0000, 0x7fa0_0000, 0xffe0_0000).is_ok());
    assert!(check_min_max(true, 0x7fc0_0000, 0x7fa0_0000, 0x7fa0_0000).is_err());
    assert!(check_min_max(false, 0x0000_0000, 0x8000_0000, 0x8000_0000).is_ok());
    assert!(check_min_max(false, 0x3f80_0000, 0xbf80_0000, 0xbf80_0000).is_ok());
    assert!(check_min_max(true, 0x3f80_0000, 0xbf80_0000, 0xbf80_0000).is_err());
}

/// `tests/finalize/kernarg_mix.hsail` and its header.
fn kernarg_mix() -> (PathBuf, Header) {
    let file = oracles::workspace_root().join("tests/finalize/kernarg_mix.hsail");
    let text = std::fs::read_to_string(&file).unwrap();
    let h = parse_header(&text).unwrap().unwrap();
    assert!(h.skip.is_none());
    (file, h)
}

/// Runs `file` with header `h` through gccbrig in a scratch directory.
fn gccbrig_scratch_run(file: &Path, h: &Header) -> Result<Vec<Vec<u8>>, String> {
    let scratch = oracles::Scratch::new("gccbrig-launcher");
    run_gccbrig(&scratch.path(""), file, h, &inputs("launcher", h))
}

/// The launcher lays the kernarg segment out as gccbrig reads it: a kernel
/// storing its mixed u32/u64/f64/s64/f32/s32 arguments gets back exactly
/// the bytes the header gave (values from the header, not from a run).
#[test]
fn launcher_kernarg_layout_matches_gccbrig() {
    if !oracles::gccbrig_available() {
        return;
    }
    let (file, h) = kernarg_mix();
    let out = gccbrig_scratch_run(&file, &h).unwrap();
    // Each work-item stores the scalars in argument order, each at its
    // natural alignment, in a slot of 48 bytes (see the kernel's comment).
    let mut slot = Vec::new();
    for arg in &h.args {
        if let Arg::Scalar { kind, value } = arg {
            slot.resize(slot.len().next_multiple_of(kind.size), 0);
            slot.extend(scalar_bytes(*kind, value).unwrap());
        }
    }
    slot.resize(slot.len().next_multiple_of(8), 0);
    let items = parse_dims(&h.grid).unwrap()[0] as usize;
    assert_eq!(
        out[0],
        slot.repeat(items),
        "kernarg values read back by gccbrig's kernel"
    );
}

/// A kernarg layout that does not match the kernel's (the last argument
/// missing) is refused by the launcher, not run.
#[test]
fn launcher_refuses_a_wrong_kernarg_layout() {
    if !oracles::gccbrig_available() {
        return;
    }
    let (file, mut h) = kernarg_mix();
    h.args.pop();
    let e = gccbrig_scratch_run(&file, &h).unwrap_err();
    assert!(
        e.contains(
            "the arguments take 48 kernarg bytes aligned to 8, the kernel declares 64 aligned to 8"
        ),
        "{e}"
    );
}

/// A store past the end of a buffer (which the emulator faults on) is an
/// error of the gccbrig run too, not silent host memory corruption.
#[test]
fn launcher_reports_stores_past_a_buffer() {
    if !oracles::gccbrig_available() {
        return;
    }
    let (file, mut h) = kernarg_mix();
    h.args[1] = Arg::Buf {
        bytes: 190,
        fill: Fill::Zero,
    };
    let e = gccbrig_scratch_run(&file, &h).unwrap_err();
    assert!(
        e.contains("the kernel wrote past the end of argument 1 (190 bytes), at byte 190"),
        "{e}"
    );
}

#[test]
fn scalars_take_their_kernarg_bytes() {
    let bytes = |k: usize, v: &str| scalar_bytes(SCALARS[k], v);
    assert_eq!(bytes(0, "0xdeadbeef"), Some(vec![0xef, 0xbe, 0xad, 0xde]));
    assert_eq!(bytes(0, "4294967296"), None);
    assert_eq!(bytes(1, "-2"), Some(vec![0xfe, 0xff, 0xff, 0xff]));
    assert_eq!(bytes(1, "2147483648"), None);
    assert_eq!(bytes(3, "-1"), Some(vec![0xff; 8]));
    assert_eq!(bytes(2, "-1"), None);
    assert_eq!(bytes(4, "1.5"), Some(vec![0, 0, 0xc0, 0x3f]));
    assert_eq!(bytes(5, "-2"), Some((-2.0f64).to_le_bytes().to_vec()));
    assert_eq!(bytes(5, "two"), None);
}

#[test]
fn headers_parse_with_located_errors() {
    let text = "// about\n// test: kernel=&k grid=16,2 group=8\n// arg: buf 64 f32\n// arg: s64 -5\n// gccbrig: skip mulhi ICE\nmodule &m:1:0:$full:$large:$default;\n// arg: ignored after the module\n";
    let h = parse_header(text).unwrap().unwrap();
    assert_eq!(h.kernel, "&k");
    assert_eq!((h.grid.as_str(), h.group.as_str()), ("16,2", "8"));
    assert_eq!(h.args.len(), 2);
    assert_eq!(
        h.args[0],
        Arg::Buf {
            bytes: 64,
            fill: Fill::Float(F32)
        }
    );
    assert_eq!(h.skip.as_deref(), Some("mulhi ICE"));
    assert_eq!(h.targets_differ, None);
    let h = parse_header("// test: kernel=&k grid=1 group=1\n// targets: differ clock")
        .unwrap()
        .unwrap();
    assert_eq!(h.targets_differ.as_deref(), Some("clock"));
    assert_eq!(parse_header("// nothing\nmodule &m;").unwrap(), None);
    for (bad, needle) in [
        ("// test: kernel=&k grid=0 group=1", "line 1: grid="),
        (
            "// x\n// test: kernel=&k group=1",
            "line 2: `// test:` needs grid=",
        ),
        (
            "// test: kernel=&k grid=1 group=1\n// arg: buf 8 pink",
            "line 2: unknown fill `pink`",
        ),
        (
            "// test: kernel=&k grid=1 group=1\n// arg: u32 -1",
            "line 2: `-1` is not a u32",
        ),
        (
            "// test: kernel=&k grid=1 group=1\n// gccbrig: skip",
            "line 2: expected",
        ),
        ("// arg: u32 1", "without a `// test:`"),
        (
            "// test: kernel=&k grid=1 group=1\n// targets: same",
            "line 2: expected `// targets: differ REASON`",
        ),
    ] {
        let e = parse_header(bad).unwrap_err();
        assert!(e.contains(needle), "{bad:?}: {e}");
    }
}

#[test]
fn inputs_are_deterministic_and_mix_specials() {
    let a = fill_buffer("k.hsail", 1, 4096, Fill::Float(F32));
    assert_eq!(a, fill_buffer("k.hsail", 1, 4096, Fill::Float(F32)));
    assert_ne!(a, fill_buffer("k.hsail", 2, 4096, Fill::Float(F32)));
    let v: Vec<f32> = a
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(v.iter().any(|x| x.is_nan()));
    assert!(v.iter().any(|x| x.is_infinite() && x.is_sign_negative()));
    assert!(v.iter().any(|x| *x == 0.0 && x.is_sign_negative()));
    assert!(v.iter().any(|x| x.is_subnormal()));
    assert!(v.iter().any(|x| *x == f32::MAX || *x == -f32::MAX));
    assert!(
        v.iter()
            .any(|x| x.is_normal() && x.abs() > 1e-3 && x.abs() < 1e3 && x.abs() != 1.0)
    );
    let d = fill_buffer("k.hsail", 0, 800, Fill::Float(F64));
    assert!(
        d.chunks(8)
            .any(|c| f64::from_le_bytes(c.try_into().unwrap()).is_subnormal())
    );
    let h = fill_buffer("k.hsail", 0, 802, Fill::Float(F16));
    assert_eq!(h.len(), 802);
    assert!(
        h.chunks(2)
            .any(|c| u16::from_le_bytes([c[0], c[1]]) & 0x7c00 == 0x7c00)
    );
    assert_eq!(
        &fill_buffer("k", 0, 10, Fill::Iota32),
        &[0, 0, 0, 0, 1, 0, 0, 0, 2, 0]
    );
    assert_eq!(fill_buffer("k", 0, 9, Fill::Zero), vec![0; 9]);
}

#[test]
fn a_different_output_is_reported_as_a_mismatch() {
    let h = parse_header("// test: kernel=&k grid=1 group=1\n// arg: u32 1\n// arg: buf 16 zero\n")
        .unwrap()
        .unwrap();
    let good = vec![vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]];
    let mut bad = good.clone();
    bad[0][5] = 0xff;
    bad[0][12] = 9;
    assert!(compare_runs("k.hsail", &h, ("gccbrig", &good), ("gfx90a", &good)).is_empty());
    let r = compare_runs("k.hsail", &h, ("gccbrig", &good), ("gfx90a", &bad));
    assert_eq!(r.len(), 1);
    assert!(
        r[0].starts_with(
            "k.hsail: argument 1: 2 differing 32-bit word(s) between gccbrig and gfx90a"
        ),
        "{}",
        r[0]
    );
    assert!(
        r[0].contains("word 1 (byte 0x4): gccbrig 0x00000002, gfx90a 0x0000ff02"),
        "{}",
        r[0]
    );
    assert!(
        r[0].contains("word 3 (byte 0xc): gccbrig 0x00000004, gfx90a 0x00000009"),
        "{}",
        r[0]
    );
    let short = compare(&good[0], &good[0][..14]).unwrap();
    assert_eq!((short.words, short.lengths), (1, Some((16, 14))));
    assert_eq!(compare(&[], &[]), None);
    let many = compare(&[0; 64], &[1; 64]).unwrap();
    assert_eq!((many.words, many.first.len()), (16, SHOWN));
}
