//! The PRM's example programs that the gccbrig differential harness
//! (`finalize_gccbrig.rs`) cannot check, run through the finalizer and
//! emulator (`hsakit run`) on gfx90a and gfx900 and compared with
//! references computed here from the PRM text:
//!
//! - `prm_10_4_variadic` (PRM 10.4): gccbrig-11 rejects the variadic
//!   argument array;
//! - `prm_10_7_scall` (PRM 10.7): gccbrig-11 crashes on `scall`;
//! - `prm_11_1_dispatch` (PRM 11.1): gccbrig-11 crashes on `gridsize_u64`;
//! - `prm_2_6_wavesize` (PRM 2.6, 11.4): lane ids and WAVESIZE, which
//!   gccbrig (WAVESIZE 1) cannot give;
//! - `prm_9_4_crosslane` (PRM 9.4): the cross-lane instructions, whose
//!   results depend on the wavefront;
//! - `prm_4_10_initializers` (PRM 4.10): gccbrig-11 lacks aggregate
//!   initializers; `prm_10_5_align` (PRM 10.5): a variadic argument;
//! - `prm_11_2_detectexcept` (PRM 11.2): per-wave DETECT flags;
//! - the BREAK exception policy (PRM 13.4), which must be refused;
//! - `conf_segment` (PRM 5.16, 5.17): gccbrig-11 gets `ftos` of a `stof`
//!   group address wrong.

use std::process::Command;

mod common;
use common::{Run, words};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// Kernel `kernel` of `tests/finalize/<stem>.hsail`.
fn prm_run(stem: &str, kernel: &str) -> Run {
    let file = oracles::workspace_root()
        .join("tests/finalize")
        .join(format!("{stem}.hsail"));
    Run::new(file, kernel)
}

/// Runs kernel `kernel` of `tests/finalize/<stem>.hsail` on every target
/// with one zero-filled output buffer as large as `want` as its only
/// argument and compares the buffer's words with `want`.
fn check_on_targets(stem: &str, kernel: &str, grid: &str, group: &str, want: &[u32]) {
    for mcpu in TARGETS {
        let out = prm_run(stem, kernel)
            .grid(grid)
            .group(group)
            .mcpu(mcpu)
            .arg_zeros(want.len() * 4)
            .run();
        assert_words(&format!("{stem} on {mcpu}"), &words(&out[0]), want);
    }
}

/// Asserts `got` equals `want` word by word, naming the first difference.
fn assert_words(what: &str, got: &[u32], want: &[u32]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: word {i} is {:#010x}, want {:#010x}",
            got[i], want[i]
        );
    }
}

#[test]
fn prm_10_4_variadic_sums_its_array_argument() {
    // &sumofN adds the first n f32 values of the array in order, from +0.0.
    let values = [1.2f32, 2.4, 3.6, 6.1];
    let sum_of = |n: usize| values[..n].iter().fold(0.0f32, |acc, v| acc + v);
    let full = sum_of(4);
    let want: Vec<u32> = (0..64)
        .map(|id| (sum_of(id % 5) + full).to_bits())
        .collect();
    check_on_targets("prm_10_4_variadic", "&adder", "64", "64", &want);
}

#[test]
fn prm_10_7_scall_selects_by_index() {
    // Index 0 calls &foo: cvt_u32_f32(2.0 * 3.5) = 7; index 1 calls &bar:
    // cvt_u32_f32(2.0 + 100.25), truncated: 102. The index is the
    // work-group id (64 work-items each) modulo 2.
    let want: Vec<u32> = (0..256u32)
        .map(|id| if (id / 64).is_multiple_of(2) { 7 } else { 102 } + id)
        .collect();
    check_on_targets("prm_10_7_scall", "&k", "256", "64", &want);
}

/// The 20 words `prm_11_1_dispatch` stores for the work-item at absolute
/// position `abs` of a 20x6x3 grid of 8x4x2 work-groups, from PRM 2.3 and
/// 11.1: current (possibly partial) work-group sizes, flattened ids.
fn dispatch_words(abs: [u32; 3]) -> [u32; 20] {
    const GRID: [u32; 3] = [20, 6, 3];
    const GROUP: [u32; 3] = [8, 4, 2];
    let id: [u32; 3] = std::array::from_fn(|d| abs[d] % GROUP[d]);
    let wg: [u32; 3] = std::array::from_fn(|d| abs[d] / GROUP[d]);
    let cur: [u32; 3] = std::array::from_fn(|d| GROUP[d].min(GRID[d] - wg[d] * GROUP[d]));
    let flat_abs = abs[0] + abs[1] * GRID[0] + abs[2] * GRID[0] * GRID[1];
    let flat = id[0] + id[1] * GROUP[0] + id[2] * GROUP[0] * GROUP[1];
    let cur_flat = id[0] + id[1] * cur[0] + id[2] * cur[0] * cur[1];
    let grid_groups_z = GRID[2].div_ceil(GROUP[2]);
    [
        cur[0],
        cur_flat,
        3,
        grid_groups_z,
        GRID[1],
        GRID[2],
        0, // gridsize_u64 high word
        wg[0],
        wg[1],
        wg[2],
        GROUP[0],
        abs[0],
        abs[1],
        0, // workitemabsid_u64 high word
        flat_abs,
        flat,
        id[0],
        id[1],
        id[2],
        0,
    ]
}

#[test]
fn prm_11_1_dispatch_examples_give_the_packet_values() {
    let mut want = vec![0u32; 360 * 20];
    for z in 0..3 {
        for y in 0..6 {
            for x in 0..20 {
                let flat = (x + y * 20 + z * 120) as usize;
                want[flat * 20..flat * 20 + 20].copy_from_slice(&dispatch_words([x, y, z]));
            }
        }
    }
    check_on_targets(
        "prm_11_1_dispatch",
        "&dispatch_examples",
        "20,6,3",
        "8,4,2",
        &want,
    );
}

#[test]
fn prm_2_6_lanes_and_waves_follow_the_flattened_id() {
    // PRM 2.6: lane = current flat id % WAVESIZE, with WAVESIZE 64 on both
    // targets; PRM 11.4: waveid <= maxwaveid (1); the current flat id.
    const GRID: [u32; 2] = [30, 20];
    const GROUP: [u32; 2] = [12, 8];
    let mut want = vec![0u32; (GRID[0] * GRID[1] * 4) as usize];
    for y in 0..GRID[1] {
        for x in 0..GRID[0] {
            let cur_x = GROUP[0].min(GRID[0] - x / GROUP[0] * GROUP[0]);
            let flat = x % GROUP[0] + y % GROUP[1] * cur_x;
            let at = ((x + y * GRID[0]) * 4) as usize;
            want[at..at + 4].copy_from_slice(&[flat % 64, 1, 64, flat]);
        }
    }
    check_on_targets("prm_2_6_wavesize", "&wavesize", "30,20", "12,8", &want);
}

/// The 12 words `prm_9_4_crosslane` stores for each work-item of a grid of
/// 230 in work-groups of 100, from the PRM 9.4 pseudocode: a work-item
/// `a` is active when `a % 3 != 0`; lanes are the flat ids modulo 64 in
/// each work-group (so the second wave of a work-group has 36 lanes, or
/// fewer in the partial last work-group).
fn crosslane_reference() -> Vec<u32> {
    const GRID: u32 = 230;
    const GROUP: u32 = 100;
    let active = |a: u32| a < GRID && !a.is_multiple_of(3);
    let c0 = |a: u32| a % 5 < 2;
    let src64 = |a: u32| (u64::from(a) << 32) | u64::from(!a);
    let mut out = vec![0u32; (GRID * 12) as usize];
    for a in (0..GRID).filter(|&a| active(a)) {
        let (group, local) = (a / GROUP, a % GROUP);
        let wave_start = group * GROUP + local / 64 * 64;
        let wave_end = (group + 1) * GROUP;
        // The work-item in lane `l` of this wave, if it exists and is active.
        let at = |l: u32| Some(wave_start + l % 64).filter(|&b| b < wave_end && active(b));
        let lane = local % 64;
        let lanes = || (0..64).filter_map(at);
        let mask = lanes()
            .filter(|&b| c0(b))
            .fold(0u64, |m, b| m | 1 << (b - wave_start));
        let permute = |l: u32, use_identity: bool, identity: u64, src: &dyn Fn(u32) -> u64| {
            at(l).filter(|_| !use_identity).map_or(identity, src)
        };
        let p32 = permute(lane + 69, a.is_multiple_of(7), 0xdead, &|b| {
            u64::from(b * 3 + 1)
        });
        let p64 = permute(63 - lane, false, 0x1234, &|b| src64(b));
        let p1 = permute(lane ^ 1, false, 1, &|b| u64::from(c0(b)));
        let ex1 = permute(a * 5, a.is_multiple_of(4), 0xabc, &|b| u64::from(b * 5));
        let ex2 = permute(0, false, 0, &|b| src64(b));
        let record = [
            lanes().filter(|&b| c0(b)).count() as u32,
            lanes().filter(|&b| b < a).count() as u32,
            mask as u32,
            (mask >> 32) as u32,
            0,
            p32 as u32,
            p64 as u32,
            (p64 >> 32) as u32,
            p1 as u32,
            ex1 as u32,
            ex2 as u32,
            (ex2 >> 32) as u32,
        ];
        out[(a * 12) as usize..(a * 12 + 12) as usize].copy_from_slice(&record);
    }
    out
}

#[test]
fn prm_9_4_cross_lane_instructions_follow_the_pseudocode() {
    let want = crosslane_reference();
    check_on_targets("prm_9_4_crosslane", "&crosslane", "230", "100", &want);
}

#[test]
fn prm_4_10_initializers_give_the_documented_bytes() {
    // PRM 4.10: typed, array and aggregate initializers, little-endian;
    // `align(8)` in an aggregate pads with zeros.
    let days = [31u8, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut want = vec![0u8; 256];
    let mut put = |at: usize, bytes: &[u8]| want[at..at + bytes.len()].copy_from_slice(bytes);
    put(0, &1.0f32.to_le_bytes());
    put(4, &3.0f32.to_le_bytes());
    put(8, &[1, 2, 3, 4]);
    put(16, &[0, 1, 0, 2]);
    put(24, &1.0f32.to_le_bytes());
    put(28, &[1, 0]);
    put(40, &days);
    put(56, &days);
    put(68, &(-1.0f32).to_le_bytes());
    put(72, &1.0f32.to_le_bytes());
    let want = words(&want);
    check_on_targets("prm_4_10_initializers", "&initializers", "1", "1", &want);
}

#[test]
fn prm_10_5_align_passes_an_aligned_byte_array() {
    // &top passes in[0..8] as an f64 and in[8] as a u8 (zero-extended to
    // 32 bits) through the byte array; &foo copies them out.
    let input: Vec<u8> = (0..16u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(0x91))
        .collect();
    let mut want = input[..8].to_vec();
    want.extend_from_slice(&u32::from(input[8]).to_le_bytes());
    want.extend_from_slice(&[0; 4]);
    for mcpu in TARGETS {
        let got = prm_run("prm_10_5_align", "&k")
            .grid(1)
            .group(1)
            .mcpu(mcpu)
            .arg_buf(&input)
            .arg_zeros(16)
            .run()
            .swap_remove(1);
        assert_eq!(got, want, "prm_10_5_align on {mcpu}");
    }
}

#[test]
fn conf_segment_conversions_round_trip() {
    // PRM 5.17: ftos(stof(a)) = a for a group address a, and the flat
    // address reaches the same group word; PRM 5.16: segmentp says group,
    // not global.
    let want: Vec<u32> = (0..128u32).flat_map(|i| [4 * (i % 64) + 1, 1, 0]).collect();
    check_on_targets("conf_segment", "&segment_conversion", "128", "64", &want);
}

#[test]
fn prm_11_2_detect_flags_are_set_cleared_and_read() {
    // PRM 11.2: only bits 0..4 exist; set ORs, clear removes.
    let want: Vec<u32> = (0..128).flat_map(|_| [0x15, 0x10, 0x1f, 0, 0x0a]).collect();
    check_on_targets("prm_11_2_detectexcept", "&detect", "128", "64", &want);
}

#[test]
fn prm_13_4_break_policy_is_refused_with_a_location() {
    // PRM 13.4: the finalizer must report an error when the BREAK policy is
    // enabled for an exception it does not support (here: any), also from
    // a called function; `enablebreakexceptions 0` is fine
    // (prm_13_4_control).
    let source = "module &B:1:0:$full:$large:$default;\n\
                  function &f()()\n{\n    enablebreakexceptions 0x2;\n};\n\
                  kernel &k()\n{\n    {\n        call &f()();\n    }\n};\n";
    let dir = oracles::Scratch::new("finalize-prm");
    let file = dir.path("break.hsail");
    std::fs::write(&file, source).expect("cannot write the kernel");
    let out = Command::new(env!("CARGO_BIN_EXE_hsakit"))
        .arg("finalize")
        .arg(&file)
        .args(["--mcpu", "gfx90a", "-o"])
        .arg(dir.path("break.co"))
        .output()
        .expect("cannot run hsakit");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted enablebreakexceptions 0x2");
    assert!(
        stderr.contains("break.hsail:4:5") && stderr.contains("BREAK exception policy"),
        "{stderr}"
    );
}
