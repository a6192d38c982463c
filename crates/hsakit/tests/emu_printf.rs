//! OpenCL `printf` through `hsakit run`: the kernels of
//! `tests/emu/printf.cl`, compiled by clang-19 for gfx900/gfx90a as code
//! objects v4 and v5, print to the printf buffer; `hsakit run` decodes the
//! records with the code object's `amdhsa.printf` formats. The expected
//! stdout comes from a host C program (built with `cc`) that calls the C
//! library's printf with the same values, in the order one wave issues
//! them (every lane's first printf in lane order, then the second, …).
//! OpenCL vector conversions (`%v4hld`) are written out per element,
//! joined by `,` (OpenCL C 2.0 §6.13.13.2).
//!
//! Why not the usual clang command line: Debian's rocm-device-libs
//! (opencl.bc) defines a stub `printf` that drops its arguments; linked in
//! by clang's front end, it replaces the call before LLVM's printf
//! lowering sees it. So the kernel is compiled without the device
//! libraries (`-nogpulib`), lowered by `opt -passes=amdgpu-printf-runtime-binding`
//! (what ROCm's compiler does for OpenCL), then linked with them.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{Ran, Run};

const BITCODE: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

/// `clang-19` set to compile OpenCL C 2.0 at -O3 for `mcpu`, code object `cov`.
fn clang_cl(mcpu: &str, cov: u32) -> Command {
    let mut c = Command::new("clang-19");
    let lang = "-x cl -cl-std=CL2.0 -O3 -target amdgcn-amd-amdhsa";
    c.args(lang.split(' '))
        .arg(format!("-mcpu={mcpu}"))
        .arg(format!("-mcode-object-version={cov}"));
    c
}

/// The source of the kernels.
fn source() -> PathBuf {
    oracles::workspace_root().join("tests/emu/printf.cl")
}

/// Builds `tests/emu/printf.cl` for `mcpu` and code object `cov`.
fn compile(dir: &oracles::Scratch, mcpu: &str, cov: u32) -> PathBuf {
    let stem = format!("printf-{mcpu}-v{cov}");
    let (bc0, bc1, co) = (
        dir.path(&format!("{stem}.bc")),
        dir.path(&format!("{stem}-lowered.bc")),
        dir.path(&format!("{stem}.co")),
    );
    oracles::run(
        clang_cl(mcpu, cov)
            .args(["-nogpulib", "-Xclang", "-finclude-default-header"])
            .args(["-emit-llvm", "-c"])
            .arg(source())
            .arg("-o")
            .arg(&bc0),
    );
    oracles::run(
        Command::new("opt-19")
            .args([
                "-mtriple=amdgcn-amd-amdhsa",
                "-passes=amdgpu-printf-runtime-binding",
            ])
            .arg(&bc0)
            .arg("-o")
            .arg(&bc1),
    );
    let isa = mcpu.trim_start_matches("gfx");
    let libs = [
        "opencl".to_string(),
        "ockl".to_string(),
        "ocml".to_string(),
        format!("oclc_abi_version_{}00", cov),
        format!("oclc_isa_version_{isa}"),
        "oclc_wavefrontsize64_on".to_string(),
        "oclc_daz_opt_off".to_string(),
        "oclc_finite_only_off".to_string(),
        "oclc_unsafe_math_off".to_string(),
        "oclc_correctly_rounded_sqrt_on".to_string(),
    ];
    // The last `-x` before the input wins: the input is LLVM bitcode.
    let mut link = clang_cl(mcpu, cov);
    link.args(["-x", "ir", "-nogpulib"]);
    for lib in &libs {
        link.args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
            .arg(format!("{BITCODE}/{lib}.bc"));
    }
    oracles::run(link.arg(&bc1).arg("-o").arg(&co));
    co
}

/// `hsakit run`'s stdout.
fn run(co: &Path, kernel: &str, grid: &str, group: &str, bufs: &[PathBuf]) -> String {
    run_output(co, kernel, grid, group, bufs).stdout
}

/// Runs `hsakit run` with one emulator thread, asserting success.
fn run_output(co: &Path, kernel: &str, grid: &str, group: &str, bufs: &[PathBuf]) -> Ran {
    let r = Run::new(co, kernel).grid(grid).group(group).threads(1);
    bufs.iter()
        .fold(r, |r, b| r.arg_file(b))
        .try_run()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Compiles and runs a host C program; returns its stdout.
fn host_c(dir: &oracles::Scratch, name: &str, body: &str) -> String {
    let src = dir.path(&format!("{name}.c"));
    let exe = dir.path(name);
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\n#include <string.h>\nint main(void) {{\n{body}return 0;\n}}\n"
        ),
    )
    .unwrap();
    oracles::run(Command::new("cc").arg(&src).arg("-o").arg(&exe));
    oracles::run(&mut Command::new(&exe))
}

/// A C expression for the float with bits `b` (exact, via memcpy).
fn c_float(b: u32) -> String {
    format!("({{ unsigned u = {b}u; float f; memcpy(&f, &u, 4); (double)f; }})")
}

/// A C expression for the `int` `v` (`INT_MIN` has no `int` literal).
fn c_int(v: i32) -> String {
    format!("((int){v}L)")
}

/// Inputs: integers with both signs and edge values, floats with
/// specials, longs spanning 64 bits.
fn inputs(n: usize) -> (Vec<i32>, Vec<u32>, Vec<i64>) {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let specials = [0u32, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x3f80_0000, 1];
    let a = (0..n)
        .map(|i| match i {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => -1,
            _ => next() as i32 >> (i % 20),
        })
        .collect();
    let f = (0..n)
        .map(|i| {
            specials.get(i).copied().unwrap_or_else(|| {
                let v = (next() as i32 >> 8) as f32 / 1024.0;
                v.to_bits()
            })
        })
        .collect();
    let l = (0..n)
        .map(|i| {
            if i == 0 {
                i64::MIN
            } else {
                next() as i64 >> (i % 60)
            }
        })
        .collect();
    (a, f, l)
}

fn write<T: Copy, const N: usize>(
    dir: &oracles::Scratch,
    name: &str,
    v: &[T],
    b: fn(T) -> [u8; N],
) -> PathBuf {
    let p = dir.path(name);
    std::fs::write(&p, v.iter().flat_map(|&x| b(x)).collect::<Vec<u8>>()).unwrap();
    p
}

/// The host C program printing what kernel `scalars` prints for one wave.
fn scalars_c(a: &[i32], f: &[u32], l: &[i64]) -> String {
    let mut body = String::new();
    for i in 0..a.len() {
        body += &format!(
            "printf(\"%d: d=%d u=%u x=%x X=%#X o=%o c=%c s=%s ld=%ld lu=%lu 100%%\\n\", {i}, {a}, (unsigned){a}, {a}, {a}, (unsigned){a} & 0777, 'a' + {i} % 26, \"hello\", {l}L, (unsigned long){l}L);\n",
            a = c_int(a[i]),
            l = l[i],
        );
    }
    for i in 0..a.len() {
        body += &format!(
            "printf(\"%d: f=%f e=%e g=%g w=%8.3f|%-+6d|%05d|a:b\\n\", {i}, {x}, {x}, {x}, {x}, {a} % 1000, {i});\n",
            x = c_float(f[i]),
            a = c_int(a[i]),
        );
    }
    for i in (0..a.len()).filter(|i| i % 3 == 1) {
        body += &format!("printf(\"branch %d %.2f\\n\", {i}, {});\n", c_float(f[i]));
    }
    body
}

#[test]
fn printf_scalars_and_vectors_match_host_c() {
    if !oracles::clang_available() || !oracles::require("opt-19", "llvm-19") {
        return;
    }
    if !oracles::require("cc", "gcc") {
        return;
    }
    let dir = oracles::Scratch::new("emu-printf");
    let n = 64;
    let (a, f, mut l) = inputs(n);
    // i64::MIN has no C literal; use MIN + 1 on both sides.
    l[0] = i64::MIN + 1;
    let bufs = [
        write(&dir, "a.bin", &a, i32::to_le_bytes),
        write(&dir, "f.bin", &f, u32::to_le_bytes),
        write(&dir, "l.bin", &l, i64::to_le_bytes),
    ];
    let want_scalars = host_c(&dir, "scalars", &scalars_c(&a, &f, &l));

    // vectors: int4 from `a`, float4 from `f`, for 8 work-items.
    let m = 8;
    let mut vbody = String::new();
    for i in 0..m {
        let v = &a[4 * i..4 * i + 4];
        let w: Vec<String> = f[4 * i..4 * i + 4].iter().map(|&b| c_float(b)).collect();
        vbody += &format!(
            "printf(\"v=%d,%d,%d,%d w=%f,%f,%f,%f c=%hhd,%hhd l=%ld,%ld u3=%u,%u,%u\\n\", {}, {}, {}, {}, {}, {}, {}, {}, (char){i}, (char)-{i}, {i}L, -3L, 1u, 2u, {i}u);\n",
            c_int(v[0]),
            c_int(v[1]),
            c_int(v[2]),
            c_int(v[3]),
            w[0],
            w[1],
            w[2],
            w[3]
        );
    }
    let want_vectors = host_c(&dir, "vectors", &vbody);
    for (mcpu, cov) in [("gfx90a", 5), ("gfx900", 5), ("gfx900", 4), ("gfx90a", 4)] {
        let co = compile(&dir, mcpu, cov);
        let what = format!("{mcpu} v{cov}");
        let got = run(&co, "scalars", "64", "64", &bufs);
        if let Some(d) = oracles::text_difference(&want_scalars, &got) {
            panic!("scalars on {what}: {d}");
        }
        let got = run(&co, "vectors", &m.to_string(), "4", &bufs[..2]);
        // Two work-groups: compare as sorted lines (group order is free).
        let sorted = |s: &str| {
            let mut v: Vec<&str> = s.lines().collect();
            v.sort_unstable();
            v.join("\n")
        };
        assert_eq!(sorted(&got), sorted(&want_vectors), "vectors on {what}");
    }
}

/// With the usual one-step clang command line, Debian's opencl.bc stub
/// `printf` reads a printf-buffer slot the metadata does not declare:
/// `hsakit run` gives it a buffer (no fault), prints nothing, and warns.
#[test]
fn stub_printf_runs_and_warns() {
    if !oracles::clang_available() {
        return;
    }
    let dir = oracles::Scratch::new("emu-printf-stub");
    let (a, f, l) = inputs(64);
    let bufs = [
        write(&dir, "a.bin", &a, i32::to_le_bytes),
        write(&dir, "f.bin", &f, u32::to_le_bytes),
        write(&dir, "l.bin", &l, i64::to_le_bytes),
    ];
    for (mcpu, cov) in [("gfx90a", 5), ("gfx900", 4)] {
        let co = dir.path(&format!("stub-{mcpu}-v{cov}.co"));
        oracles::run(
            clang_cl(mcpu, cov)
                .arg(format!("--rocm-device-lib-path={BITCODE}"))
                .arg("--rocm-path=/usr")
                .arg(source())
                .arg("-o")
                .arg(&co),
        );
        let out = run_output(&co, "scalars", "64", "64", &bufs);
        assert!(out.stdout.is_empty(), "{mcpu} v{cov}: stub printf printed");
        let err = &out.stderr;
        assert!(err.contains("stub"), "{mcpu} v{cov}: no warning: {err}");
    }
}
