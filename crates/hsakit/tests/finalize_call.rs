//! Functions, switch branches and dispatch queries through the finalizer:
//! the kernels `tests/finalize/{call,sbr,dispatch}_*.hsail` run on the
//! emulator (`hsakit run`) for gfx90a and gfx900, their outputs compared
//! with references computed here from the PRM's definitions; and the
//! located errors for what is not supported (irreducible control flow,
//! `alloca` in loops).

use oracles::mutate::Rng;

mod common;
use common::{Arg, Run, hsakit, words};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// A dispatch of kernel `&name` of `tests/finalize/<name>.hsail` (or of
/// another file).
struct Dispatch<'a> {
    file: String,
    name: &'a str,
    grid: &'a str,
    group: &'a str,
}

impl<'a> Dispatch<'a> {
    fn new(name: &'a str, grid: &'a str, group: &'a str) -> Dispatch<'a> {
        let file = oracles::workspace_root()
            .join("tests/finalize")
            .join(format!("{name}.hsail"));
        Dispatch {
            file: file.display().to_string(),
            name,
            grid,
            group,
        }
    }

    /// Runs on `mcpu`; returns the final bytes of every buffer argument
    /// (in argument order; scalars give empty vectors).
    fn run(&self, mcpu: &str, args: &[Arg]) -> Vec<Vec<u8>> {
        Run::new(&self.file, &format!("&{}", self.name))
            .mcpu(mcpu)
            .grid(self.grid)
            .group(self.group)
            .args(args)
            .run()
    }
}

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `n` pseudo-random words.
fn random_words(seed: u64, n: usize) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next_u64() as u32).collect()
}

fn check(what: &str, mcpu: &str, got: &[u32], want: &[u32]) {
    assert_eq!(got.len(), want.len(), "{what} on {mcpu}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what} on {mcpu}: word {i}: got {g:#x}, want {w:#x}");
    }
}

/// Runs a one-input, one-output kernel (`in` words in, `out_words` out,
/// plus `extra` scalar arguments) on both targets against `want`.
fn check_in_out(d: &Dispatch<'_>, input: &[u32], out_words: usize, extra: Vec<Arg>, want: &[u32]) {
    for mcpu in TARGETS {
        let mut args = vec![Arg::Buf(bytes(input)), Arg::Zeros(4 * out_words)];
        args.extend(extra.iter().cloned());
        let got = d.run(mcpu, &args);
        check(d.name, mcpu, &words(&got[1]), want);
    }
}

/// Runs kernel `name` (one random input word per work-item, `K` output
/// words each) with `grid` work-items in groups of 64 and checks it
/// against `f`.
fn check_map<const K: usize>(name: &str, seed: u64, extra: Vec<Arg>, f: impl Fn(u32) -> [u32; K]) {
    let n = 256;
    let input = random_words(seed, n);
    let want: Vec<u32> = input.iter().flat_map(|&x| f(x)).collect();
    let d = Dispatch::new(name, "256", "64");
    check_in_out(&d, &input, K * n, extra, &want);
}

#[test]
fn call_args_pass_values_of_every_size() {
    let n = 128;
    let input = random_words(1, 2 * n);
    let mut want = Vec::new();
    for i in 0..n {
        let (x, y) = (input[2 * i], input[2 * i + 1]);
        let xy = u64::from(y) << 32 | u64::from(x);
        let rot = xy.rotate_left(x & 63);
        let f = ((x & 0xffff) as f32 * 0.5 + 1.0).to_bits();
        let flip = xy ^ 1 << 63;
        let prod = ((x & 0xff) as i32 * i32::from(y as u8 as i8)) as i16 as i32 as u32;
        want.extend([
            x.wrapping_mul(3).wrapping_add(y),
            rot as u32,
            (rot >> 32) as u32,
            f,
            flip as u32,
            (flip >> 32) as u32,
            prod,
            x ^ x >> 16,
            x.wrapping_add(y).wrapping_sub(i as u32),
            i as u32,
        ]);
    }
    let d = Dispatch::new("call_args", "128", "64");
    check_in_out(&d, &input, 10 * n, vec![], &want);
}

#[test]
fn variadic_calls_pass_arrays_of_two_sizes() {
    let n = 128;
    let input = random_words(8, n);
    let want: Vec<u32> = (0..n as u32)
        .zip(&input)
        .map(|(i, &x)| {
            if i % 2 == 1 {
                return x.wrapping_add(i) ^ (x >> 8 & 0xff);
            }
            let sh = 8 * (i & 3);
            let v2 = (1000 & !(0xff << sh)) | 0x5a << sh;
            x.wrapping_add(i).wrapping_add(v2) ^ (x >> 16 & 0xff)
        })
        .collect();
    let d = Dispatch::new("call_variadic", "128", "64");
    check_in_out(&d, &input, n, vec![], &want);
}

#[test]
fn divergent_calls_and_returns() {
    let classify = |x: u32| match x & 3 {
        0 => 100,
        1 => x.wrapping_add(7),
        _ => x >> 2,
    };
    let find = |v: u32| (4..32).find(|&b| v >> b & 1 == 1).unwrap_or(99);
    check_map("call_divergent", 2, vec![], |x| {
        let sparse = (x >> 8) & x & (x >> 16);
        [
            if x & 16 != 0 { classify(x) } else { x ^ 1 },
            if x & 32 != 0 { find(sparse) } else { 1000 },
        ]
    });
}

#[test]
fn nested_calls_in_a_divergent_loop() {
    let inner = |x: u32| (x >> 13) ^ x.wrapping_mul(2_654_435_761);
    let middle = |x: u32, y: u32| inner(x).wrapping_add(inner(y));
    let outer = |x: u32| middle(x, x.wrapping_add(1)) ^ inner(x);
    check_map("call_nested", 3, vec![], |x| {
        let mut acc = x;
        for i in 0..x & 7 {
            acc = acc.wrapping_add(outer(acc ^ i));
        }
        [acc, inner(x)]
    });
}

#[test]
fn barrier_and_group_variable_in_a_callee() {
    let (n, g) = (256, 128);
    let input = random_words(4, n);
    // mirror(v)[i] = v[mirrored i] + v[i] within each work-group.
    let mirror = |v: &[u32]| -> Vec<u32> {
        (0..n)
            .map(|i| {
                let m = i / g * g + (g - 1 - i % g);
                v[m].wrapping_add(v[i])
            })
            .collect()
    };
    let first: Vec<u32> = mirror(&input).iter().map(|x| x.wrapping_mul(3)).collect();
    let want = mirror(&first);
    let d = Dispatch::new("call_barrier", "256", "128");
    check_in_out(&d, &input, n, vec![], &want);
}

#[test]
fn switch_calls_with_divergent_and_uniform_indices() {
    for sel in [2u64, 7] {
        check_map("call_switch", 5, vec![Arg::U64(sel)], |x| {
            let a = match x % 3 {
                0 => x.wrapping_add(11),
                1 => x.wrapping_mul(5),
                _ => !x,
            };
            let b = if sel & 1 == 0 { !a } else { a.wrapping_mul(5) };
            [a, b, x.wrapping_mul(5)]
        });
    }
}

#[test]
fn switch_branches_with_divergent_and_uniform_indices() {
    for k in [0u32, 1, 2] {
        check_map("sbr_switch", 6, vec![Arg::U32(k)], |x| {
            if k == 2 {
                return [0];
            }
            let mut acc = 0u32;
            for i in 0..(x & 3) + 1 {
                acc = match (x >> i >> i) & 3 {
                    0 => acc.wrapping_add(1),
                    1 => acc << 1,
                    2 => acc ^ 0x55,
                    _ => acc.wrapping_sub(7),
                };
            }
            [acc.wrapping_add(1000 * (k + 1))]
        });
    }
}

/// Grids (and work-groups) in one, two and three dimensions, with partial
/// work-groups.
const DIMS: [(&str, &str, [u32; 3], [u32; 3]); 3] = [
    ("10", "4", [10, 1, 1], [4, 1, 1]),
    ("10,6", "4,4", [10, 6, 1], [4, 4, 1]),
    ("10,6,3", "4,4,2", [10, 6, 3], [4, 4, 2]),
];

/// What `dispatch_flat` writes for one work-item (PRM 2.3, 11.1).
fn flat_reference(grid: [u32; 3], group: [u32; 3], dims: u32) -> Vec<u32> {
    let mut out = vec![0u32; (grid[0] * grid[1] * grid[2] * 16) as usize];
    for z in 0..grid[2] {
        for y in 0..grid[1] {
            for x in 0..grid[0] {
                let id = [x, y, z];
                let t: Vec<u32> = (0..3).map(|d| id[d] % group[d]).collect();
                let cur: Vec<u32> = (0..3)
                    .map(|d| group[d].min(grid[d] - id[d] / group[d] * group[d]))
                    .collect();
                let flat_abs = x + y * grid[0] + z * grid[0] * grid[1];
                let k = flat_abs as usize * 16;
                out[k..k + 16].copy_from_slice(&[
                    t[0] + t[1] * group[0] + t[2] * group[0] * group[1],
                    t[0] + t[1] * cur[0] + t[2] * cur[0] * cur[1],
                    flat_abs,
                    flat_abs,
                    0,
                    grid[0].div_ceil(group[0]),
                    grid[1].div_ceil(group[1]),
                    grid[2].div_ceil(group[2]),
                    dims,
                    z,
                    0,
                    z / group[2],
                    grid[2],
                    t[1],
                    y,
                    cur[1],
                ]);
            }
        }
    }
    out
}

#[test]
fn flat_ids_grid_groups_and_dims_in_one_two_and_three_dimensions() {
    for ((grid_s, group_s, grid, group), dims) in DIMS.into_iter().zip(1..) {
        let want = flat_reference(grid, group, dims);
        let d = Dispatch::new("dispatch_flat", grid_s, group_s);
        for mcpu in TARGETS {
            let got = d.run(mcpu, &[Arg::Zeros(4 * want.len())]);
            check(
                &format!("dispatch_flat {grid_s}"),
                mcpu,
                &words(&got[0]),
                &want,
            );
        }
    }
}

#[test]
fn u64_grid_sizes_and_ids_in_one_two_and_three_dimensions() {
    for (grid_s, group_s, grid, _) in DIMS {
        let mut want = vec![0u32; (grid[0] * grid[1] * grid[2] * 14) as usize];
        for z in 0..grid[2] {
            for y in 0..grid[1] {
                for x in 0..grid[0] {
                    let flat = x + y * grid[0] + z * grid[0] * grid[1];
                    let k = flat as usize * 14;
                    let w = [flat, grid[0], grid[1], grid[2], x, y, z];
                    for (i, v) in w.into_iter().enumerate() {
                        want[k + 2 * i] = v;
                    }
                }
            }
        }
        let d = Dispatch::new("dispatch_u64", grid_s, group_s);
        for mcpu in TARGETS {
            let got = d.run(mcpu, &[Arg::Zeros(4 * want.len())]);
            check(
                &format!("dispatch_u64 {grid_s}"),
                mcpu,
                &words(&got[0]),
                &want,
            );
        }
    }
}

#[test]
fn lane_wave_cu_clock_and_pointer_queries() {
    let (n, g) = (256usize, 128usize);
    let d = Dispatch::new("dispatch_misc", "256", "128");
    for mcpu in TARGETS {
        let got = words(&d.run(mcpu, &[Arg::Zeros(80 * n)])[0]);
        let item = |i: usize| &got[20 * i..20 * i + 20];
        let max_wave = if mcpu == "gfx90a" { 31 } else { 39 };
        let u64_at = |w: &[u32], k: usize| u64::from(w[k + 1]) << 32 | u64::from(w[k]);
        for i in 0..n {
            let w = item(i);
            let what = format!("dispatch_misc on {mcpu}, work-item {i}");
            assert_eq!(w[0] as usize, i % g % 64, "{what}: laneid");
            assert_eq!(w[2], max_wave, "{what}: maxwaveid");
            assert!(w[1] <= w[2], "{what}: waveid {} > maxwaveid", w[1]);
            assert_eq!(w[4], 127, "{what}: maxcuid");
            assert!(w[3] <= w[4], "{what}: cuid {} > maxcuid", w[3]);
            assert!(u64_at(w, 5) <= u64_at(w, 7), "{what}: clock went back");
            assert_eq!(w[9], 0, "{what}: groupbaseptr");
            assert_eq!([w[10], w[11]], [u32::MAX; 2], "{what}: group/private null");
            assert_eq!(u64_at(w, 12), 0, "{what}: flat null");
            // The first kernel argument read through kernargbaseptr, the
            // packet ID and the completion signal: the same for all.
            assert_ne!(u64_at(w, 14), 0, "{what}: kernarg 0 through kernargbaseptr");
            assert_eq!(w[14..20], item(0)[14..20], "{what}: packet values");
            // One wave ID per wave, different waves of a group apart; the
            // compute unit is the group's.
            let first_of_wave = item(i / 64 * 64);
            assert_eq!(w[1], first_of_wave[1], "{what}: waveid within a wave");
            assert_eq!(w[3], item(i / g * g)[3], "{what}: cuid within a group");
            if i % 64 == 0 && i % g != 0 {
                assert_ne!(w[1], item(i - 64)[1], "{what}: two waves share a waveid");
            }
        }
    }
}

/// Finalizes `source`: it must fail with an error at `at` (`line:col`)
/// that starts with `what` and shows the source line `line`.
fn assert_error(source: &str, at: &str, what: &str, line: &str) {
    let dir = oracles::Scratch::new("finalize-call-err");
    let src = dir.path("bad.hsail");
    std::fs::write(&src, source).unwrap();
    let out = hsakit(&["finalize", &src.display().to_string(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(1), "{source}");
    let err = String::from_utf8_lossy(&out.stderr);
    let want = format!("bad.hsail:{at}: error: {what}");
    assert!(err.contains(&want), "want `{want}` in:\n{err}");
    assert!(err.contains(line), "want the line `{line}` in:\n{err}");
}

const CALLER: &str = "kernel &k()\n{\n    {\n        arg_u32 %a;\n        arg_u32 %b;\n        \
                      st_arg_u32 1, [%a];\n        call &f(%b)(%a);\n    }\n};\n";

/// fib(n) as PRM 4.3.3's `&fib` computes it, with fib(1) = fib(2) = 1.
fn fib(n: u32) -> u32 {
    if n < 3 {
        1
    } else {
        fib(n - 2).wrapping_add(fib(n - 1))
    }
}

#[test]
fn recursive_fib_has_a_private_variable_per_activation() {
    // gccbrig-11 shares a function's private variable between the
    // activations (PRM 4.11 wants one per activation): checked here.
    let d = Dispatch::new("prm_4_3_fib", "64", "32");
    let d = Dispatch {
        name: "fib_kernel",
        ..d
    };
    let want: Vec<u32> = (0..64).map(|i| fib(i % 16 + 1)).collect();
    for mcpu in TARGETS {
        let got = d.run(mcpu, &[Arg::Zeros(256)]);
        check("prm_4_3_fib", mcpu, &words(&got[0]), &want);
    }
}

#[test]
fn irreducible_control_flow_is_a_located_error_naming_the_function() {
    let body = "    ld_arg_u32 $s0, [%x];\n    cmp_eq_b1_u32 $c0, $s0, 0;\n    cbr_b1 $c0, @b;\n\
                @a:\n    add_u32 $s0, $s0, 1;\n@b:\n    add_u32 $s0, $s0, 2;\n    \
                cmp_lt_b1_u32 $c0, $s0, 10;\n    cbr_b1 $c0, @a;\n";
    let src = format!(
        "module &m:1:0:$full:$large:$default;\n\
         function &f(arg_u32 %r)(arg_u32 %x)\n{{\n{body}    st_arg_u32 $s0, [%r];\n}};\n{CALLER}"
    );
    assert_error(
        &src,
        "12:5",
        "irreducible control flow in `&f`",
        "cbr_b1 $c0, @a;",
    );
    // The same in a kernel.
    let src = format!(
        "module &m:1:0:$full:$large:$default;\n\
         kernel &kk(kernarg_u32 %x)\n{{\n{}}};\n",
        body.replace("ld_arg_u32 $s0, [%x]", "ld_kernarg_u32 $s0, [%x]")
    );
    assert_error(
        &src,
        "12:5",
        "irreducible control flow in `&kk`",
        "cbr_b1 $c0, @a;",
    );
}

#[test]
fn calls_to_functions_without_a_definition_are_located_errors() {
    let src = format!(
        "module &m:1:0:$full:$large:$default;\n\
         decl prog function &f(arg_u32 %r)(arg_u32 %x);\n{CALLER}"
    );
    assert_error(
        &src,
        "9:9",
        "a call to `&f`, which this module does not define,",
        "call &f",
    );
}

/// The indirect function of handle `h` in `tests/finalize/icall.hsail`
/// (the module's `h`th indirect function, see lower/call.rs).
fn indirect(h: u32, x: u32) -> u32 {
    fn digits(x: u32) -> u32 {
        if x < 10 { x } else { digits(x / 10) + x % 10 }
    }
    match h {
        1 => x.wrapping_add(x),
        2 => x.wrapping_mul(x),
        3 => digits(x),
        _ => !x,
    }
}

#[test]
fn icall_with_divergent_and_uniform_handles_and_scall_of_recursive_functions() {
    let input = random_words(41, 256);
    let want: Vec<u32> = input
        .iter()
        .enumerate()
        .flat_map(|(i, &x)| {
            let group = i as u32 / 64;
            [
                indirect((x & 3) + 1, x),
                indirect((group & 3) + 1, x),
                indirect(3, x),
                // The scall: &digits (handle 3) or &flip (4).
                indirect(3 + (x >> 2 & 1), x),
            ]
        })
        .collect();
    check_in_out(
        &Dispatch::new("icall", "256", "64"),
        &input,
        4 * 256,
        Vec::new(),
        &want,
    );
}

#[test]
fn icall_without_a_candidate_is_a_located_error() {
    let src = "module &m:1:0:$full:$large:$default;\n\
               signature &s(arg_u32 %r)(arg_u32 %x);\n\
               kernel &k(kernarg_u64 %h)\n{\n\
               \tld_kernarg_u64 $d0, [%h];\n\
               \t{\n\targ_u32 %a;\n\targ_u32 %b;\n\
               \ticall_u64 $d0 (%b)(%a) &s;\n\t}\n};\n";
    assert_error(
        src,
        "9:2",
        "`icall` with no indirect function of its signature in the module",
        "icall_u64 $d0",
    );
}

#[test]
fn calls_from_hsailasm_brig_run_the_same() {
    if !oracles::hsailasm_available() {
        eprintln!("SKIPPED: HSAILasm is not installed; the BRIG cross-check did not run");
        return;
    }
    let d = Dispatch::new("call_nested", "256", "64");
    let brig = oracles::hsailasm_assemble_file(std::path::Path::new(&d.file))
        .expect("HSAILasm rejects call_nested.hsail");
    let dir = oracles::Scratch::new("finalize-call-brig");
    let path = dir.path("k.brig");
    std::fs::write(&path, brig).unwrap();
    let input = bytes(&random_words(7, 256));
    let from_text = d.run("gfx90a", &[Arg::Buf(input.clone()), Arg::Zeros(2048)]);
    let b = Dispatch {
        file: path.display().to_string(),
        ..d
    };
    let from_brig = b.run("gfx90a", &[Arg::Buf(input), Arg::Zeros(2048)]);
    assert_eq!(from_text[1], from_brig[1]);
}

#[test]
fn too_deep_recursion_traps_with_a_stack_overflow() {
    // &down recurses n times: with n = 100000 its frames pass the kernel's
    // call stack (16 KiB per work-item by default).
    let src = "module &m:1:0:$full:$large:$default;\n\
               function &down(arg_u32 %r)(arg_u32 %n)\n{\n\
               \tld_arg_u32 $s0, [%n];\n\tmov_b32 $s2, 0;\n\
               \tcmp_eq_b1_u32 $c0, $s0, 0;\n\tcbr_b1 $c0, @done;\n\
               \t{\n\targ_u32 %a;\n\targ_u32 %b;\n\tsub_u32 $s1, $s0, 1;\n\
               \tst_arg_u32 $s1, [%a];\n\tcall &down (%b) (%a);\n\tld_arg_u32 $s2, [%b];\n\t}\n\
               @done:\n\tst_arg_u32 $s2, [%r];\n};\n\
               kernel &k(kernarg_u32 %n)\n{\n\tld_kernarg_u32 $s0, [%n];\n\
               \t{\n\targ_u32 %a;\n\targ_u32 %b;\n\tst_arg_u32 $s0, [%a];\n\
               \tcall &down (%b) (%a);\n\t}\n};\n";
    let dir = oracles::Scratch::new("finalize-call-overflow");
    let file = dir.path("deep.hsail");
    std::fs::write(&file, src).unwrap();
    let file = file.display().to_string();
    for (n, ok) in [("100", true), ("100000", false)] {
        let arg = format!("u32={n}");
        let out = hsakit(&[
            "run", &file, "--kernel", "&k", "--grid", "64", "--group", "64", "--arg", &arg,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.success(), ok, "n = {n}: {err}");
        if !ok {
            assert!(err.contains("call stack overflow"), "{err}");
        }
    }
    // A smaller stack (`finalize --stack-size`): 100 levels no longer fit.
    let co = dir.path("deep.co").display().to_string();
    let out = hsakit(&["finalize", &file, "--stack-size", "256", "-o", &co]);
    assert!(out.status.success());
    let out = hsakit(&[
        "run", &co, "--kernel", "&k", "--grid", "64", "--group", "64", "--arg", "u32=100",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("call stack overflow"), "{err}");
}

/// PRM 10.10: `tests/finalize/alloca.hsail`'s three results per
/// work-item, from its input word.
fn alloca_reference(x: u32) -> [u32; 4] {
    let w: Vec<u32> = (0..16u32)
        .map(|i| x.wrapping_mul(3u32.wrapping_pow(i)))
        .collect();
    let mut sum = 0u32;
    for j in 0..16 + (x & 7) {
        sum = sum.wrapping_add(w[(j & 15) as usize]).rotate_left(5);
    }
    let scratchpad = x.wrapping_sub(!x);
    fn chain(n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        (chain(n - 1).wrapping_mul(31).wrapping_add(n)) ^ n.wrapping_mul(7)
    }
    [sum, scratchpad, chain(x & 15), 0]
}

#[test]
fn alloca_in_kernels_inlined_and_recursive_functions() {
    check_map("alloca", 31, Vec::new(), alloca_reference);
}

/// `tests/finalize/alloca_dynamic.hsail`'s results per work-item.
fn alloca_dynamic_reference(x: u32) -> [u32; 4] {
    let k = x % 5 + 1;
    let values: Vec<u32> = (0..k).map(|i| x.wrapping_mul(i).wrapping_add(i)).collect();
    let list = values
        .iter()
        .rev()
        .fold(0u32, |s, &v| s.wrapping_mul(7).wrapping_add(v));
    fn deep(n: u32) -> u32 {
        let below = if n == 0 { 0 } else { deep(n - 1) };
        below.wrapping_mul(3).wrapping_add(n * 13)
    }
    [list, deep(x & 15), x.wrapping_add(1000), 0]
}

#[test]
fn alloca_in_loops_with_register_sizes_and_freed_at_returns() {
    check_map("alloca_dynamic", 77, Vec::new(), alloca_dynamic_reference);
    // The private segment holds the stack (16 KiB by default) and the
    // metadata says its size is dynamic (AMDGPUUsage).
    let file = Dispatch::new("alloca_dynamic", "1", "1").file;
    let out = hsakit(&["finalize", &file, "-S", "-o", "-"]);
    let asm = String::from_utf8_lossy(&out.stdout);
    assert!(asm.contains(".uses_dynamic_stack: true"), "{asm}");
    let size: u32 = asm
        .lines()
        .find_map(|l| l.trim().strip_prefix(".private_segment_fixed_size: "))
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(size >= 16384, "{size}");
}

#[test]
fn private_addresses_go_down_a_recursion() {
    // chain(n) adds n to its caller's word, sets its own to 100 n, and
    // returns it after its callee added n - 1 to it (PRM 4.11: a private
    // variable per activation).
    let d = Dispatch::new("call_recursive_private", "128", "64");
    let want: Vec<u32> = (0..128)
        .map(|i| {
            let n = i & 7;
            let own = if n == 0 { 0 } else { 101 * n - 1 };
            own + 1000 + n
        })
        .collect();
    for mcpu in TARGETS {
        let got = d.run(mcpu, &[Arg::Zeros(512)]);
        check("call_recursive_private", mcpu, &words(&got[0]), &want);
    }
}

/// Two kernels calling one recursive function (each gets its copy): the
/// function, then a kernel template (`KERNEL` adding `PLUS`).
const SHARED: &str = "module &Shared:1:0:$full:$large:$default;

// Shared by two kernels.
function &other(arg_u32 %r)(arg_u32 %n)
{
    ld_arg_u32          $s0, [%n];
    mov_b32             $s1, 7;
    cmp_eq_b1_u32       $c0, $s0, 0;
    cbr_b1              $c0, @done;
    {
        arg_u32 %a;
        arg_u32 %b;
        sub_u32             $s2, $s0, 1;
        st_arg_u32          $s2, [%a];
        call                &other (%b) (%a);
        ld_arg_u32          $s1, [%b];
    }
    mul_u32             $s1, $s1, 5;
    add_u32             $s1, $s1, $s0;
@done:
    st_arg_u32          $s1, [%r];
};

kernel &KERNEL(kernarg_u64 %out)
{
    workitemabsid_u32   $s0, 0;
    and_b32             $s1, $s0, 7;
    {
        arg_u32 %a;
        arg_u32 %b;
        st_arg_u32          $s1, [%a];
        call                &other (%b) (%a);
        ld_arg_u32          $s2, [%b];
    }
    add_u32             $s2, $s2, PLUS;
    cvt_u64_u32         $d0, $s0;
    shl_u64             $d0, $d0, 2;
    ld_kernarg_u64      $d1, [%out];
    add_u64             $d1, $d1, $d0;
    st_global_u32       $s2, [$d1];
};
";

#[test]
fn two_kernels_share_a_recursive_function() {
    // other(0) = 7, other(n) = 5 other(n - 1) + n; `&first` stores
    // other(id & 7) + 1, `&second` other(id & 7).
    fn other(n: u32) -> u32 {
        if n == 0 { 7 } else { other(n - 1) * 5 + n }
    }
    let dir = oracles::Scratch::new("finalize-call-shared");
    let file = dir.path("shared.hsail");
    let (function, kernel) = SHARED.split_at(SHARED.find("kernel &KERNEL").unwrap());
    let mut src = function.to_string();
    for (name, plus) in [("first", "1"), ("second", "0")] {
        src.push_str(&kernel.replace("KERNEL", name).replace("PLUS", plus));
    }
    std::fs::write(&file, src).unwrap();
    for (name, plus) in [("first", 1), ("second", 0)] {
        let d = Dispatch {
            file: file.display().to_string(),
            name,
            grid: "128",
            group: "64",
        };
        let want: Vec<u32> = (0..128).map(|i| other(i & 7) + plus).collect();
        for mcpu in TARGETS {
            let got = d.run(mcpu, &[Arg::Zeros(512)]);
            check(name, mcpu, &words(&got[0]), &want);
        }
    }
}
