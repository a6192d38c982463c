//! The finalizer end to end: each kernel of `tests/finalize/*.hsail` (and
//! `examples/vector_add.hsail`) finalized for gfx90a and gfx900, run on
//! the emulator through `hsakit run` with inputs built here, and its
//! outputs compared with values computed in Rust from the HSAIL
//! semantics. Every finalized object must disassemble with
//! `llvm-objdump-19` (no `<unknown>`), show its notes with
//! `llvm-readelf-19 --notes`, and its `-S` output must re-assemble with
//! `hsakit as` to the same bytes.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::{Arg, Run, hsakit};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

fn ok(args: &[&str]) -> String {
    let out = hsakit(args);
    assert!(
        out.status.success(),
        "hsakit {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn root() -> PathBuf {
    oracles::workspace_root()
}

fn kernel(name: &str) -> String {
    root()
        .join("tests/finalize")
        .join(name)
        .display()
        .to_string()
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u64s(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs `r` (with two emulator threads); the words of buffer argument
/// `out`.
fn run(r: Run, out: usize) -> Vec<u32> {
    r.threads(2).run()[out]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Runs kernel `k` of `tests/finalize/<file>` (grid `grid`, work-groups
/// of `group`) with `args` on every target and compares the words of
/// buffer argument `out` with `want`.
fn check_targets([file, k, grid, group]: [&str; 4], args: &[Arg], out: usize, want: &[u32]) {
    for mcpu in TARGETS {
        let r = Run::new(kernel(file), k).grid(grid).group(group);
        let got = run(r.mcpu(mcpu).args(args), out);
        check(k, mcpu, &got, want);
    }
}

fn check(name: &str, mcpu: &str, got: &[u32], want: &[u32]) {
    assert_eq!(got.len(), want.len(), "{name} on {mcpu}: output length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{name} on {mcpu}: word {i}: got {g:#x}, want {w:#x}");
    }
}

#[test]
fn vector_add_runs() {
    let n = 100usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let limit = 97;
    let want: Vec<u32> = (0..n)
        .map(|i| {
            if i < limit {
                (a[i] + b[i]).to_bits()
            } else {
                0
            }
        })
        .collect();
    let file = root()
        .join("examples/vector_add.hsail")
        .display()
        .to_string();
    for mcpu in TARGETS {
        for name in ["vec_add", "&vec_add"] {
            let got = run(
                Run::new(&file, name)
                    .grid("100")
                    .group("64")
                    .mcpu(mcpu)
                    .args(&[
                        Arg::Buf(f32s(&a)),
                        Arg::Buf(f32s(&b)),
                        Arg::Zeros(4 * n),
                        Arg::U32(limit as u32),
                    ]),
                2,
            );
            check("vec_add", mcpu, &got, &want);
        }
    }
}

#[test]
fn int_arith_runs() {
    let n = 128usize;
    let a: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(i % 32))
        .collect();
    let b: Vec<u32> = (0..n as u32)
        .map(|i| (i.wrapping_mul(40503) ^ 0x8000_1234).wrapping_sub(i << 20))
        .collect();
    let mut want = Vec::new();
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i32, y as i32);
        let mulhi_u = ((u64::from(x) * u64::from(y)) >> 32) as u32;
        let mulhi_s = ((i64::from(sy) * -7) >> 32) as u32;
        want.extend([
            x.wrapping_add(y),
            x.wrapping_sub(y).wrapping_mul(1_000_003),
            mulhi_u ^ 0x5a5a_5a5a,
            (x << (y & 31)) | (x >> 3),
            ((sy >> 2) & -256) as u32,
            x.max(y).wrapping_sub(sx.min(sy) as u32),
            (sy.wrapping_neg() as u32).wrapping_add(!x),
            mulhi_s.wrapping_add(sy.max(-1000) as u32),
        ]);
    }
    check_targets(
        ["int_arith.hsail", "&int_arith", "128", "64"],
        &[Arg::Buf(u32s(&a)), Arg::Buf(u32s(&b)), Arg::Zeros(32 * n)],
        2,
        &want,
    );
}

#[test]
fn divergent_if_runs() {
    let total = 200usize;
    let n = 150u32;
    let data: Vec<u32> = (0..total as u32)
        .map(|i| i.wrapping_mul(7919) % 1000)
        .collect();
    let want: Vec<u32> = data
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            if i as u32 >= n {
                x
            } else {
                let y = if x & 1 == 1 { x * 3 + 1 } else { x >> 1 };
                y + i as u32
            }
        })
        .collect();
    check_targets(
        ["divergent_if.hsail", "&collatz_step", "200", "64"],
        &[Arg::Buf(u32s(&data)), Arg::U32(n)],
        0,
        &want,
    );
}

#[test]
fn uniform_and_divergent_flow_nest() {
    let (grid, group) = (256usize, 64usize);
    let expect = |n: u32, flag: u32| -> Vec<u32> {
        (0..grid as u32)
            .map(|gid| {
                if flag == 7 {
                    return 0;
                }
                let mut acc = 0u32;
                for i in 0..n {
                    if gid & 3 != i & 3 {
                        acc = acc.wrapping_add(i);
                        for _ in 0..flag {
                            acc = acc.wrapping_mul(3);
                        }
                    }
                }
                if gid as usize / group == 1 {
                    acc = acc.wrapping_add(1000);
                }
                acc
            })
            .collect()
    };
    for mcpu in TARGETS {
        for (n, flag) in [(10, 2), (5, 0), (0, 3), (4, 7)] {
            let got = run(
                Run::new(kernel("uniform_flow.hsail"), "&uniform_flow")
                    .grid("256")
                    .group("64")
                    .mcpu(mcpu)
                    .args(&[Arg::Zeros(4 * grid), Arg::U32(n), Arg::U32(flag)]),
                0,
            );
            check("uniform_flow", mcpu, &got, &expect(n, flag));
        }
    }
}

#[test]
fn nested_loops_with_several_back_edges_run() {
    let n = 256usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x2545_f491).rotate_left(i % 29))
        .collect();
    let want: Vec<u32> = (0..n as u32)
        .map(|gid| {
            let x = input[gid as usize];
            let (trips, inner) = (x & 7, (x >> 3) & 7);
            let (mut i, mut acc) = (0u32, 1u32);
            'outer: while i < trips {
                i += 1;
                if i & 3 == 2 {
                    continue;
                }
                for j in 0..inner {
                    acc = acc.wrapping_mul(3).wrapping_add(j);
                    if (acc ^ gid) & 15 == 0 {
                        break 'outer;
                    }
                }
            }
            acc.wrapping_add(i * 1000)
        })
        .collect();
    check_targets(
        ["nested_loops.hsail", "&nested_loops", "256", "64"],
        &[Arg::Buf(u32s(&input)), Arg::Zeros(4 * n)],
        1,
        &want,
    );
}

/// The spill kernels (checked against gccbrig by finalize_gccbrig.rs)
/// really spill: SGPR masks to VGPR lanes, VGPRs to scratch.
#[test]
fn register_pressure_spills() {
    for (file, needle) in [
        ("spill_sgprs.hsail", "v_writelane_b32"),
        ("spill_vgprs.hsail", "scratch_store_dwordx2"),
    ] {
        for mcpu in TARGETS {
            let asm = ok(&["finalize", &kernel(file), "--mcpu", mcpu, "-S", "-o", "-"]);
            assert!(asm.contains(needle), "{file} on {mcpu}: no {needle}");
        }
    }
}

#[test]
fn loop_runs() {
    let n = 192usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) >> 7)
        .collect();
    let want: Vec<u32> = (0..n)
        .map(|i| {
            let mut acc = 7u32;
            for k in 0..(input[i] & 15) {
                if k & 1 == 1 {
                    acc = acc.wrapping_add(i as u32);
                } else {
                    acc = acc.wrapping_mul(3);
                }
            }
            acc
        })
        .collect();
    check_targets(
        ["loop.hsail", "loop", "192", "64"],
        &[Arg::Buf(u32s(&input)), Arg::Zeros(4 * n)],
        1,
        &want,
    );
}

#[test]
fn arith64_runs() {
    let n = 64usize;
    let a: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(i as u32))
        .collect();
    let b: Vec<u64> = (0..n as u64)
        .map(|i| (i << 40) ^ 0xfedc_ba98_7654_3210u64.wrapping_mul(i + 3))
        .collect();
    let sh = 13u32;
    let mut want = Vec::new();
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i64, y as i64);
        let w = [
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            (x << (sh & 63)) ^ ((sy >> (i & 63)) as u64),
            (x >> 33) | (y & 0x0000_ffff_0000_ffff),
            x.max(y).wrapping_sub(sx.min(sy) as u64),
            (sy.wrapping_neg() as u64).wrapping_add(!x),
            ((i as i64).wrapping_sub(i64::from(x as u32 as i32)) + 1_234_567_890_123) as u64,
        ];
        for v in w {
            want.push(v as u32);
            want.push((v >> 32) as u32);
        }
    }
    check_targets(
        ["arith64.hsail", "&arith64", "64", "32"],
        &[
            Arg::Buf(u64s(&a)),
            Arg::Buf(u64s(&b)),
            Arg::Zeros(64 * n),
            Arg::U32(sh),
        ],
        2,
        &want,
    );
}

#[test]
fn f32_math_runs() {
    let n = 96usize;
    let x: Vec<f32> = (0..n)
        .map(|i| {
            let base = (i as f32 - 40.0) * 1234.567;
            if i % 3 == 0 { base * 1.0e6 } else { base }
        })
        .collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 7) % 50) as f32 * 0.37 + 0.5).collect();
    let mut want = Vec::new();
    for i in 0..n {
        let (a, b) = (x[i], y[i]);
        let ti = a.trunc() as i32;
        want.extend([
            ((a + b) * 1.5).to_bits(),
            (a - b).mul_add(b, 1.0).to_bits(),
            (-(a.min(b)) + a.max(b).abs()).to_bits(),
            (ti as u32).wrapping_add(b.round_ties_even() as u32),
            (i as f32 + ti as f32).to_bits(),
            u32::from(a < b),
            ((a.trunc() as i64) as f32).to_bits(),
            ((i as u64).wrapping_mul(0x0123_4567_89ab_cdef) as f32).to_bits(),
        ]);
    }
    check_targets(
        ["f32_math.hsail", "&f32_math", "96", "64"],
        &[Arg::Buf(f32s(&x)), Arg::Buf(f32s(&y)), Arg::Zeros(32 * n)],
        2,
        &want,
    );
}

#[test]
fn dispatch_values_in_two_dimensions() {
    let (gx, gy, wx, wy) = (20u32, 3u32, 8u32, 2u32);
    let packed = 0x1234_f005u32;
    let mut want = vec![0u32; (gx * gy * 8) as usize];
    for y in 0..gy {
        for x in 0..gx {
            let flat = (y * gx + x) as usize * 8;
            let (gidx, gidy) = (x / wx, y / wy);
            let cur = |g: u32, w: u32, total: u32| w.min(total - g * w);
            want[flat..flat + 8].copy_from_slice(&[
                (x % wx) | (y % wy) << 16,
                gidx | gidy << 16,
                wx | wy << 16,
                cur(gidx, wx, gx) | cur(gidy, wy, gy) << 16,
                gx | gy << 16,
                0x1234u32.wrapping_mul(-16i32 as u32),
                x,
                0,
            ]);
        }
    }
    check_targets(
        ["dispatch.hsail", "&dispatch", "20,3", "8,2"],
        &[Arg::Zeros(want.len() * 4), Arg::U32(packed)],
        0,
        &want,
    );
}

#[test]
fn brig_input_runs() {
    let dir = oracles::Scratch::new("finalize-brig");
    let brig = dir.path("loop.brig");
    ok(&[
        "asm",
        &kernel("loop.hsail"),
        "-o",
        &brig.display().to_string(),
    ]);
    let input: Vec<u32> = (0..64).collect();
    let got = run(
        Run::new(brig.display().to_string(), "&loop")
            .grid("64")
            .group("64")
            .mcpu("gfx90a")
            .args(&[Arg::Buf(u32s(&input)), Arg::Zeros(256)]),
        1,
    );
    let want: Vec<u32> = (0..64u32)
        .map(|i| {
            let mut acc = 7u32;
            for k in 0..(i & 15) {
                acc = if k & 1 == 1 { acc + i } else { acc * 3 };
            }
            acc
        })
        .collect();
    check("loop (BRIG)", "gfx90a", &got, &want);
    // And `finalize` takes the BRIG too.
    let co = dir.path("loop.co");
    ok(&[
        "finalize",
        &brig.display().to_string(),
        "--mcpu",
        "gfx900",
        "-o",
        &co.display().to_string(),
    ]);
    assert!(std::fs::read(&co).unwrap().starts_with(b"\x7fELF"));
}

fn all_kernels() -> Vec<String> {
    let mut files: Vec<String> =
        oracles::files_with_extension(&root().join("tests/finalize"), "hsail")
            .into_iter()
            // `pending_*` kernels document what the finalizer cannot do yet.
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("pending_"))
            })
            .map(|p| p.display().to_string())
            .collect();
    files.push(
        root()
            .join("examples/vector_add.hsail")
            .display()
            .to_string(),
    );
    assert!(files.len() >= 7, "{files:?}");
    files
}

#[test]
fn assembly_reassembles_to_the_same_object() {
    let dir = oracles::Scratch::new("finalize-s");
    for file in all_kernels() {
        for mcpu in TARGETS {
            let co = dir.path("k.co");
            let s = dir.path("k.s");
            let again = dir.path("again.co");
            let (co_s, s_s, again_s) = (
                co.display().to_string(),
                s.display().to_string(),
                again.display().to_string(),
            );
            ok(&["finalize", &file, "--mcpu", mcpu, "-o", &co_s]);
            ok(&["finalize", &file, "--mcpu", mcpu, "-S", "-o", &s_s]);
            ok(&["as", &s_s, "--mcpu", mcpu, "-o", &again_s]);
            let a = std::fs::read(&co).unwrap();
            let b = std::fs::read(&again).unwrap();
            assert!(
                a == b,
                "{file} on {mcpu}: `hsakit as` of the -S output differs at byte {:?}",
                oracles::first_difference(&a, &b)
            );
        }
    }
}

#[test]
fn objects_pass_llvm_tools() {
    if !oracles::llvm_available() {
        return;
    }
    let dir = oracles::Scratch::new("finalize-llvm");
    for file in all_kernels() {
        for mcpu in TARGETS {
            let co = dir.path("k.co");
            ok(&[
                "finalize",
                &file,
                "--mcpu",
                mcpu,
                "-o",
                &co.display().to_string(),
            ]);
            let dis = oracles::run(Command::new("llvm-objdump-19").arg("-d").arg(&co));
            assert!(
                !dis.contains("<unknown>"),
                "{file} on {mcpu}: llvm-objdump-19 found unknown instructions:\n{dis}"
            );
            assert!(dis.contains("s_endpgm"), "{file} on {mcpu}:\n{dis}");
            let notes = oracles::run(Command::new("llvm-readelf-19").arg("--notes").arg(&co));
            assert!(
                notes.contains("amdhsa.kernels"),
                "{file} on {mcpu}:\n{notes}"
            );
            assert!(notes.contains(".kernarg_segment_size"), "{notes}");
        }
    }
}

#[test]
fn unsupported_instructions_are_located_errors() {
    let dir = oracles::Scratch::new("finalize-err");
    let src = dir.path("bad.hsail");
    std::fs::write(
        &src,
        "module &m:1:0:$full:$large:$default;\n\
         extension \"IMAGE\";\n\
         kernel &k(kernarg_u64 %p)\n{\n\
         \tld_kernarg_u64 $d0, [%p];\n\
         \tld_global_u32 $s0, [$d0];\n\
         \tldimage_v4_1d_u32_rwimg_u32 ($s0, $s1, $s2, $s3), $d0, $s0;\n\
         \tst_global_u32 $s0, [$d0];\n\
         \tret;\n};\n",
    )
    .unwrap();
    let out = hsakit(&["finalize", &src.display().to_string(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.hsail:7:2: error: instruction `ldimage_u32`"),
        "{err}"
    );
    assert!(err.contains("ldimage_v4_1d_u32_rwimg_u32 ($s0"), "{err}");
    let out = hsakit(&["finalize", &src.display().to_string(), "--mcpu", "gfx1030"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn group_reverse_runs() {
    let n = 512usize;
    let wg = 128usize;
    let input: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ 0x8081_8283)
        .collect();
    let mut want = Vec::new();
    for gid in 0..n {
        let (g, l) = (gid / wg, gid % wg);
        let r = wg - 1 - l;
        let v = input[g * wg + r];
        want.extend([
            v,
            v as u8 as i8 as i32 as u32,
            v as u16 as i16 as i32 as u32,
            r as u32,
            v,
            v.wrapping_add(wg as u32),
        ]);
    }
    for mcpu in TARGETS {
        let got = run(
            Run::new(kernel("group_reverse.hsail"), "&group_reverse")
                .grid("512")
                .group("128")
                .mcpu(mcpu)
                .args(&[Arg::Buf(u32s(&input)), Arg::Zeros(24 * n)]),
            1,
        );
        check("group_reverse", mcpu, &got, &want);
        // The group segment: 8 + 1024 (module scope, the second 8-aligned)
        // + 512 (16-aligned) + 128 + 256.
        let s = ok(&[
            "finalize",
            &kernel("group_reverse.hsail"),
            "--mcpu",
            mcpu,
            "-S",
            "-o",
            "-",
        ]);
        assert!(
            s.contains(".amdhsa_group_segment_fixed_size 1936"),
            "{mcpu}:\n{s}"
        );
        assert!(s.contains(".group_segment_fixed_size: 1936"), "{s}");
        assert!(s.contains("s_barrier"), "{s}");
        assert!(
            s.contains("ds_read_b64") && s.contains("ds_write_b8"),
            "{s}"
        );
    }
}

#[test]
fn divrem_runs() {
    let n = 256usize;
    let mut a: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(i % 29))
        .collect();
    let mut b: Vec<u32> = (0..n as u32)
        .map(|i| (i.wrapping_mul(40503) ^ 0x1234_5678) >> (i % 32))
        .collect();
    let edges = [
        (u32::MAX, 1),
        (u32::MAX, u32::MAX),
        (0, 5),
        (7, 7),
        (6, 7),
        (0x8000_0000, 0x8000_0000),
        (0x8000_0000, 1),
        (0x8000_0000, 3),
        (u32::MAX, 0x8000_0001),
        (u32::MAX - 1, u32::MAX),
        (1_000_000_007, 65_537),
        (0xffff_fff0, 0xffff_fff1),
        (0x7fff_ffff, 0xffff_fffe),
        (12345, 0x7fff_ffff),
    ];
    for (k, &(x, y)) in edges.iter().enumerate() {
        a[k] = x;
        b[k] = y;
    }
    for i in 0..n {
        if b[i] == 0 {
            b[i] = i as u32 + 1;
        }
        if a[i] == 0x8000_0000 && b[i] == u32::MAX {
            b[i] = 2;
        }
    }
    // Division by zero: any value, no fault (lane `zero` is not compared).
    let zero = 20;
    b[zero] = 0;
    let mut want = Vec::new();
    for i in 0..n {
        let (x, y) = (a[i], b[i].max(1));
        let (sx, sy) = (x as i32, y as i32);
        want.extend([
            x / y,
            x % y,
            sx.wrapping_div(sy) as u32,
            sx.wrapping_rem(sy) as u32,
            x / 7,
            (sx % -1_000_003) as u32,
            (123_456_789 / sy) as u32,
        ]);
    }
    for mcpu in TARGETS {
        let got = run(
            Run::new(kernel("divrem.hsail"), "&divrem")
                .grid("256")
                .group("64")
                .mcpu(mcpu)
                .args(&[Arg::Buf(u32s(&a)), Arg::Buf(u32s(&b)), Arg::Zeros(28 * n)]),
            2,
        );
        let mut want = want.clone();
        want[7 * zero..7 * zero + 7].copy_from_slice(&got[7 * zero..7 * zero + 7]);
        check("divrem", mcpu, &got, &want);
    }
}

#[test]
fn atomics_run() {
    let n = 256u32;
    let wg = 64usize;
    let mut init = vec![0u32; 16 + 10 * n as usize];
    init[2] = 10_000;
    init[3] = u32::MAX;
    init[6] = 0x7fff_ffff;
    init[8] = 5;
    for mcpu in TARGETS {
        let got = run(
            Run::new(kernel("atomics.hsail"), "&atomics")
                .grid("256")
                .group("64")
                .mcpu(mcpu)
                .args(&[Arg::Buf(u32s(&init))]),
            0,
        );
        let sum: u32 = (0..n).sum();
        let want_counters = [
            n,
            sum,
            10_000 - 3 * n,
            0,
            u32::MAX,
            0,
            (-100i32) as u32,
            3 * (n - 1),
        ];
        check("atomics counters", mcpu, &got[..8], &want_counters);
        check(
            "atomics 64-bit add, wrapinc, st",
            mcpu,
            &got[10..16],
            &[sum, n, n % 101, 77, 0, 0],
        );
        let per =
            |k: usize| -> Vec<u32> { (0..n as usize).map(|i| got[16 + 10 * i + k]).collect() };
        // Returning add: the old values are a permutation of 0..n.
        let mut olds = per(0);
        olds.sort_unstable();
        assert_eq!(olds, (0..n).collect::<Vec<_>>(), "{mcpu}: atomic_add olds");
        // Exchange: the final value and the olds are the initial value and
        // every stored value.
        let mut seen = per(1);
        seen.push(got[8]);
        seen.sort_unstable();
        let mut want: Vec<u32> = (0..n).map(|i| i + 1000).collect();
        want.push(5);
        want.sort_unstable();
        assert_eq!(seen, want, "{mcpu}: atomic_exch");
        // CAS from 0: exactly one work-item w wins and stores w + 1.
        let cas = per(2);
        let w = got[9].wrapping_sub(1) as usize;
        assert!(w < n as usize, "{mcpu}: cas final {}", got[9]);
        for (i, &c) in cas.iter().enumerate() {
            let expect = if i == w { 0 } else { got[9] };
            assert_eq!(c, expect, "{mcpu}: cas old of work-item {i}");
        }
        // Group atomics, per work-group.
        let (gadd, gcas, gexch) = (per(3), per(4), per(5));
        let (fadd, fand, fcas, fexch) = (per(6), per(7), per(8), per(9));
        for g in 0..n as usize / wg {
            let ids = g * wg..(g + 1) * wg;
            let mut olds = gadd[ids.clone()].to_vec();
            olds.sort_unstable();
            assert_eq!(
                olds,
                (0..wg as u32).collect::<Vec<_>>(),
                "{mcpu}: group add"
            );
            for i in ids.clone() {
                assert_eq!(fadd[i], wg as u32, "{mcpu}: group add final");
                assert_eq!(fand[i], 0, "{mcpu}: group and final");
                assert_eq!(fcas[i], fcas[g * wg], "{mcpu}: group cas final");
                assert_eq!(fexch[i], fexch[g * wg], "{mcpu}: group exch final");
            }
            let w = fcas[g * wg].wrapping_sub(1) as usize;
            assert!(ids.contains(&w), "{mcpu}: group cas winner {w}");
            for i in ids.clone() {
                let expect = if i == w { 0 } else { fcas[i] };
                assert_eq!(gcas[i], expect, "{mcpu}: group cas old of {i}");
            }
            let mut seen = gexch[ids].to_vec();
            seen.push(fexch[g * wg]);
            seen.sort_unstable();
            let mut want: Vec<u32> = (0..wg as u32).collect();
            want.push(0xdead);
            assert_eq!(seen, want, "{mcpu}: group exch");
        }
    }
}
