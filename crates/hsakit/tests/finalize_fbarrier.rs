//! Fine-grain barriers (PRM 9.2) through the finalizer and the emulator:
//! the kernels `tests/finalize/fbarrier_*.hsail` run with `hsakit run` on
//! gfx90a and gfx900 and their outputs are compared with references
//! computed here from the PRM's examples (9.2.5); and a wait that no member
//! ever satisfies stops with the watchdog's located error instead of
//! hanging; and a wave spinning on group memory without `s_sleep` still
//! lets the wave it waits for run (the emulator's quantum).

use oracles::mutate::Rng;

mod common;
use common::{Run, hsakit};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// Runs kernel `&name` of `tests/finalize/<name>.hsail` (`name` = file
/// stem = kernel) with an input buffer `input` and a zeroed output buffer
/// of the same size on `mcpu`; returns the output words.
fn run(file: &str, kernel: &str, grid: &str, group: &str, mcpu: &str, input: &[u32]) -> Vec<u32> {
    let src = oracles::workspace_root()
        .join("tests/finalize")
        .join(format!("{file}.hsail"));
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bufs = Run::new(src, kernel)
        .mcpu(mcpu)
        .grid(grid)
        .group(group)
        .arg_buf(&bytes)
        .arg_zeros(bytes.len())
        .run();
    bufs[1]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Checks kernel `file` (grid `n` work-items, groups of `group`) on both
/// targets against `want(input, absolute id)`.
fn check(file: &str, kernel: &str, n: usize, group: usize, want: impl Fn(&[u32], usize) -> u32) {
    let mut rng = Rng::new(n as u64 * 977 + group as u64);
    let input: Vec<u32> = (0..n).map(|_| rng.next_u64() as u32).collect();
    let expect: Vec<u32> = (0..n).map(|i| want(&input, i)).collect();
    for mcpu in TARGETS {
        let got = run(
            file,
            kernel,
            &n.to_string(),
            &group.to_string(),
            mcpu,
            &input,
        );
        for (i, (g, w)) in got.iter().zip(&expect).enumerate() {
            assert_eq!(g, w, "{file} on {mcpu}: word {i}: got {g:#x}, want {w:#x}");
        }
    }
}

/// Example 3: each even wave folds the 8 values its partner (the next
/// wave) produced, `x * i + i * i` for i = 1..8, as `s = s * 31 + v`;
/// producers keep their last value.
#[test]
fn producer_consumer() {
    let produced = |x: u32, i: u32| x.wrapping_mul(i).wrapping_add(i * i);
    check("fbarrier_prodcons", "&prodcons", 512, 256, |input, i| {
        if (i / 64) % 2 == 1 {
            produced(input[i], 8)
        } else {
            let x = input[i + 64];
            (1..=8).fold(0u32, |s, k| s.wrapping_mul(31).wrapping_add(produced(x, k)))
        }
    });
}

/// Example 1: waves 2 and 3 swap values; waves 0 and 1 leave at once.
#[test]
fn divergent_leave() {
    check("fbarrier_leave", "&fbar_leave", 512, 256, |input, i| {
        let flat = (i % 256) as u32;
        match flat / 64 {
            0 => input[i].wrapping_add(flat),
            1 => input[i].wrapping_mul(5),
            _ => input[i ^ 64],
        }
    });
}

/// Example 2: waves 2 and 3 join a second fbarrier in divergent code and
/// swap values through it; the last group is one wave.
#[test]
fn divergent_join() {
    check("fbarrier_join", "&fbar_join", 320, 256, |input, i| {
        if (i % 256) / 64 >= 2 {
            input[i ^ 64].wrapping_add(1)
        } else {
            !input[i]
        }
    });
}

/// Released and initialized again three times, through `ldf`'s address.
#[test]
fn release_and_reinit() {
    check("fbarrier_reinit", "&fbar_reinit", 256, 128, |input, i| {
        let x = input[i ^ 64];
        (1..=3u32).fold(0u32, |s, r| {
            s.wrapping_mul(7)
                .wrapping_add(x.wrapping_mul(r).wrapping_add(r))
        })
    });
}

/// A module-scope fbarrier used in a function through its `ldf` address,
/// by 16 wavefronts: each work-item adds the input of its mirror in the
/// wavefront `15 - w`.
#[test]
fn module_fbarrier_in_a_function() {
    check("fbarrier_func", "&fbar_func", 2048, 1024, |input, i| {
        input[i ^ 0x3c0].wrapping_add(input[i])
    });
}

/// Runs `source` (one kernel `&kernel`, a 128-item group of two waves)
/// on `mcpu` with a watchdog of `watchdog` and the extra `args`.
fn run_source(
    dir: &oracles::Scratch,
    source: &str,
    mcpu: &str,
    kernel: &str,
    watchdog: &str,
    args: &[&str],
) -> std::process::Output {
    let src = dir.path("k.hsail");
    std::fs::write(&src, source).unwrap();
    let src = src.display().to_string();
    let mut cli = vec![
        "run",
        &src,
        "--mcpu",
        mcpu,
        "--kernel",
        kernel,
        "--grid",
        "128",
        "--group",
        "128",
        "--watchdog",
        watchdog,
    ];
    cli.extend_from_slice(args);
    hsakit(&cli)
}

/// A member that never arrives (wave 1 goes to the barrier without
/// leaving, which the PRM forbids): wave 0's `waitfbar` spins until
/// the watchdog (which counts `s_sleep` time) stops it with an error.
#[test]
fn unsatisfied_wait_is_a_watchdog_error() {
    let dir = oracles::Scratch::new("finalize-fbarrier");
    let source = "module &Stuck:1:0:$full:$large:$default;\n\
         kernel &stuck()\n{\n    fbarrier %fb;\n    workitemflatid_u32 $s0;\n\
         cmp_ne_b1_u32 $c0, $s0, 0;\n    cbr_b1 $c0, @joined;\n    initfbar %fb;\n\
         @joined:\n    barrier;\n    joinfbar %fb;\n    barrier;\n\
         cmp_ge_b1_u32 $c1, $s0, 64;\n    cbr_b1 $c1, @skip;\n    waitfbar %fb;\n\
         leavefbar %fb;\n@skip:\n    barrier;\n};\n";
    for mcpu in TARGETS {
        let o = run_source(&dir, source, mcpu, "&stuck", "200000", &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success(),
            "{mcpu}: a stuck waitfbar ran to the end"
        );
        assert!(
            err.contains("watchdog") && err.contains("s_sleep") && err.contains("wave 0"),
            "{mcpu}: {err}"
        );
    }
}

/// Wave 0 spins (atomic loads, no `s_sleep`) until wave 1 sets a group
/// flag; wave 1 sets it after a long loop. Both then store 1.
#[test]
fn spin_without_sleep_lets_the_other_wave_run() {
    let dir = oracles::Scratch::new("finalize-fbarrier");
    let source = "module &Spin:1:0:$full:$large:$default;\n\
         kernel &spin(kernarg_u64 %out)\n{\n    group_u32 %flag;\n\
         workitemflatid_u32 $s0;\n    cmp_lt_b1_u32 $c0, $s0, 64;\n    cbr_b1 $c0, @wait;\n\
         mov_b32 $s1, 0;\n@count:\n    add_u32 $s1, $s1, 1;\n\
         cmp_lt_b1_u32 $c1, $s1, 20000;\n    cbr_b1 $c1, @count;\n\
         atomicnoret_st_group_screl_wg_b32 [%flag], 1;\n    br @done;\n\
         @wait:\n    atomic_ld_group_scacq_wg_b32 $s2, [%flag];\n\
         cmp_eq_b1_u32 $c2, $s2, 0;\n    cbr_b1 $c2, @wait;\n\
         @done:\n    cvt_u64_u32 $d1, $s0;\n    shl_u64 $d1, $d1, 2;\n\
         ld_kernarg_u64 $d0, [%out];\n    add_u64 $d0, $d0, $d1;\n\
         st_global_u32 1, [$d0];\n};\n";
    let out = dir.path("out.bin");
    let out_spec = format!("0={}", out.display());
    for mcpu in TARGETS {
        let args = ["--arg", "zeros=512", "--out", &out_spec];
        let o = run_source(&dir, source, mcpu, "&spin", "10000000", &args);
        assert!(
            o.status.success(),
            "{mcpu}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let got = std::fs::read(&out).unwrap();
        assert!(got.chunks(4).all(|c| c == [1, 0, 0, 0]), "{mcpu}: {got:?}");
    }
}
