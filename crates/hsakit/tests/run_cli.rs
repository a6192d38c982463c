//! `hsakit run` as a user meets it: a clang-19 vector add run from the
//! command line with buf=/zeros=/u32= arguments and --out, statistics as
//! JSON, and the error cases (exit status 1 and a message naming the
//! problem).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::hsakit;

const SRC: &str = r#"
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void fill(__global uint *p, uint v, __local uint *tmp) {
  uint l = get_local_id(0);
  tmp[l] = v + l;
  barrier(1);
  p[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}

__kernel void oob(__global uint *p) {
  p[(ulong)get_global_id(0) + 0x40000000UL] = 1;
}

__kernel void spin(volatile __global uint *flag) {
  while (flag[0] == 0) {}
}
"#;

/// The code object, or `None` (test skipped loudly) without clang.
fn compile(dir: &oracles::Scratch) -> Option<PathBuf> {
    if !oracles::clang_available() {
        return None;
    }
    let cl = dir.path("k.cl");
    let co = dir.path("k.co");
    std::fs::write(&cl, SRC).unwrap();
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
            .args(["-mcpu=gfx90a", "-mcode-object-version=5"])
            .args([
                "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                "--rocm-path=/usr",
            ])
            .arg(&cl)
            .arg("-o")
            .arg(&co),
    );
    Some(co)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn assert_fails(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in stderr: {err}");
    }
}

#[test]
fn vector_add_writes_its_output() {
    let dir = oracles::Scratch::new("run-cli-vadd");
    let Some(co) = compile(&dir) else { return };
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 7.0).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let (pa, pb, pc) = (dir.path("a.bin"), dir.path("b.bin"), dir.path("c.bin"));
    std::fs::write(&pa, floats(&a)).unwrap();
    std::fs::write(&pb, floats(&b)).unwrap();
    let out = hsakit(&[
        "run",
        s(&co),
        "--kernel",
        "vadd",
        "--grid",
        "1000",
        "--group",
        "256",
        "--arg",
        &format!("buf={}", s(&pa)),
        "--arg",
        &format!("buf={}", s(&pb)),
        "--arg",
        &format!("zeros={}", 4 * n),
        "--arg",
        "u32=1000",
        "--out",
        &format!("2={}", s(&pc)),
        "--threads",
        "2",
    ]);
    assert!(
        out.status.success(),
        "run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c = std::fs::read(&pc).unwrap();
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(c, floats(&want), "output differs from a + b");
}

#[test]
fn local_buffers_and_json_stats() {
    let dir = oracles::Scratch::new("run-cli-stats");
    let Some(co) = compile(&dir) else { return };
    let p = dir.path("p.bin");
    let out = hsakit(&[
        "run",
        s(&co),
        "--kernel",
        "fill.kd",
        "--grid",
        "256",
        "--group",
        "128",
        "--arg",
        "zeros=1024",
        "--arg",
        "u32=0x100",
        "--arg",
        "local=512",
        "--out",
        &format!("0={}", s(&p)),
        "--stats=json",
        "--threads",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<u32> = std::fs::read(&p)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<u32> = (0..256u32).map(|i| 0x100 + 127 - i % 128).collect();
    assert_eq!(got, want);
    // One JSON object with the expected keys and values.
    let json = stdout.trim();
    assert!(json.starts_with('{') && json.ends_with('}'), "{json}");
    let fields: Vec<(&str, &str)> = json[1..json.len() - 1]
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once(':').unwrap();
            (k.trim_matches('"'), v)
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        [
            "kernel",
            "workgroups",
            "waves",
            "wave_instructions",
            "lane_ops",
            "wall_time_s",
            "wave_instructions_per_s"
        ]
    );
    let get = |k: &str| fields.iter().find(|(x, _)| *x == k).unwrap().1;
    assert_eq!(get("kernel"), "\"fill\"");
    assert_eq!(get("workgroups"), "2");
    assert_eq!(get("waves"), "4");
    assert!(get("wave_instructions").parse::<u64>().unwrap() > 0);
    assert!(get("lane_ops").parse::<u64>().unwrap() > 0);
    assert!(get("wall_time_s").parse::<f64>().unwrap() > 0.0);
    assert!(get("wave_instructions_per_s").parse::<f64>().unwrap() > 0.0);

    // Plain --stats prints the same counts as text.
    let out = hsakit(&[
        "run",
        s(&co),
        "--kernel",
        "fill",
        "--grid",
        "256",
        "--group",
        "128",
        "--arg",
        "zeros=1024",
        "--arg",
        "u32=1",
        "--arg",
        "local=512",
        "--stats",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for k in [
        "waves:",
        "wave-instructions:",
        "lane-ops:",
        "wall time:",
        "wave-instructions/s:",
    ] {
        assert!(text.contains(k), "`{k}` missing: {text}");
    }
}

#[test]
fn errors_exit_1_with_a_message() {
    let dir = oracles::Scratch::new("run-cli-errors");
    let Some(co) = compile(&dir) else { return };
    let co = s(&co);
    let base = |kernel: &'static str| {
        vec![
            "run", co, "--kernel", kernel, "--grid", "64", "--group", "64",
        ]
    };

    let mut a = base("nope");
    a.extend(["--arg", "zeros=4"]);
    assert_fails(&hsakit(&a), &["no kernel named `nope`", "vadd"]);

    let mut a = base("vadd");
    a.extend(["--arg", "zeros=256", "--arg", "zeros=256"]);
    assert_fails(
        &hsakit(&a),
        &["takes 4 explicit argument(s), 2 --arg given", "float*"],
    );

    let mut a = base("vadd");
    a.extend([
        "--arg",
        "zeros=256",
        "--arg",
        "zeros=256",
        "--arg",
        "zeros=256",
        "--arg",
        "u64=3",
    ]);
    assert_fails(&hsakit(&a), &["u64=3", "argument 3", "4 bytes"]);

    let mut a = base("vadd");
    a.extend([
        "--arg",
        "u32=1",
        "--arg",
        "zeros=256",
        "--arg",
        "zeros=256",
        "--arg",
        "u32=3",
    ]);
    assert_fails(
        &hsakit(&a),
        &[
            "u32=1",
            "gives a scalar",
            "argument 0 (float*",
            "global_buffer",
        ],
    );

    let mut a = base("vadd");
    a.extend(["--arg", "bogus=1"]);
    assert_fails(
        &hsakit(&a),
        &["bad --arg `bogus=1`", "unknown kind `bogus`"],
    );

    let mut a = base("vadd");
    a.extend(["--arg", "u32=12x"]);
    assert_fails(&hsakit(&a), &["bad --arg `u32=12x`"]);

    let a = vec![
        "run", co, "--kernel", "vadd", "--grid", "0", "--group", "64",
    ];
    assert_fails(&hsakit(&a), &["bad --grid `0`"]);

    let mut a = base("vadd");
    a.extend([
        "--arg", "zeros=4", "--arg", "zeros=4", "--arg", "zeros=4", "--arg", "u32=1",
    ]);
    a.extend(["--out", "3=/tmp/x"]);
    assert_fails(&hsakit(&a), &["argument 3 is not a buffer"]);

    let mut a = base("oob");
    a.extend(["--arg", "zeros=256"]);
    assert_fails(&hsakit(&a), &["kernel fault", "oob", "memory fault"]);

    let a = vec![
        "run",
        "/nonexistent/k.co",
        "--kernel",
        "k",
        "--grid",
        "1",
        "--group",
        "1",
    ];
    assert_fails(&hsakit(&a), &["cannot read /nonexistent/k.co"]);

    let mut a = base("vadd");
    a.extend(["--mcpu", "gfx900"]);
    assert_fails(&hsakit(&a), &["gfx90a", "gfx900"]);
}

/// A runaway kernel stops at the watchdog with a report naming the kernel,
/// the work-group and the instruction; exit status 1.
#[test]
fn runaway_kernel_stops_at_the_watchdog() {
    let dir = oracles::Scratch::new("run-cli-watchdog");
    let Some(co) = compile(&dir) else { return };
    let out = hsakit(&[
        "run",
        s(&co),
        "--kernel",
        "spin",
        "--grid",
        "64",
        "--group",
        "64",
        "--arg",
        "zeros=4",
        "--watchdog",
        "5000",
    ]);
    assert_fails(
        &out,
        &["kernel `spin`", "work-group (0, 0, 0)", "watchdog", "pc 0x"],
    );
}

/// The README's main job: `hsakit run examples/vector_add.hsail` with no
/// --kernel and no --arg finalizes the example, runs it on built-in inputs
/// and checks the result on the host. Other kernels need their arguments.
#[test]
fn bundled_example_runs_and_checks_itself() {
    let root = oracles::workspace_root();
    let example = root.join("examples/vector_add.hsail");
    let out = hsakit(&["run", s(&example)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("vec_add: all 1048576 results equal a[i] + b[i]"),
        "{stdout}"
    );
    assert!(stdout.contains("waves:                16384"), "{stdout}");
    let other = root.join("tests/finalize/int_arith.hsail");
    assert_fails(
        &hsakit(&["run", s(&other)]),
        &["built-in inputs are for the bundled example"],
    );
}
