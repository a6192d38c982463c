//! Vector compares (`v_cmp_*`, `v_cmpx_*`, `v_cmp_class_*`) on the
//! emulator: every condition of every type, e32/e64/SDWA forms, source
//! modifiers, denormal flushing and EXEC handling, against host-computed
//! expectations.

// The expectations spell IEEE semantics out with host comparisons, where
// `!(a >= b)` differs from `a < b` for NaNs on purpose.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::nonminimal_bool,
    clippy::double_comparisons
)]

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;

/// EXEC while the compares run.
const EXEC: u64 = 0xBFFF_FF7F_FFFF_FFFE;

fn load(reg: u32, vals: &[u32; 64]) -> String {
    let mut s = String::new();
    for (l, v) in vals.iter().enumerate() {
        s.push_str(&format!(
            "  s_mov_b32 s90, {v:#x}\n  v_writelane_b32 v{reg}, s90, {l}\n"
        ));
    }
    s
}

/// Keeps f32 denormals (the descriptor's default flushes them).
const KEEP: &str = "  .amdhsa_float_denorm_mode_32 3\n";

/// Loads v1–v4, sets EXEC to [`EXEC`] (saved in s[10:11]), runs `body`.
fn run(mcpu: &str, directives: &str, regs: [&[u32; 64]; 4], body: &str) -> Wave {
    let mut src = String::new();
    for (i, r) in regs.iter().enumerate() {
        src += &load(i as u32 + 1, r);
    }
    src += &format!(
        "  s_mov_b32 s10, {:#x}\n  s_mov_b32 s11, {:#x}\n  s_mov_b64 exec, s[10:11]\n",
        EXEC as u32,
        (EXEC >> 32) as u32
    );
    src += body;
    src += "\n  s_mov_b64 exec, -1\n";
    let mut k = AsmKernel::new(mcpu);
    k.directives = directives.to_string();
    let mem = Arc::new(Memory::new());
    let mut waves = run_asm(&k, &src, &mem, &[0; 8]).unwrap_or_else(|e| panic!("{mcpu}: {e}"));
    waves.remove(0)
}

const FCONDS: [&str; 16] = [
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt",
    "tru",
];

/// IEEE compare condition `c` on host floats (NaN-aware by construction:
/// `a == a` is false only for NaN).
#[allow(clippy::eq_op)]
fn fcond<T: PartialOrd>(c: &str, a: T, b: T) -> bool {
    match c {
        "f" => false,
        "lt" => a < b,
        "eq" => a == b,
        "le" => a <= b,
        "gt" => a > b,
        "lg" => a < b || a > b,
        "ge" => a >= b,
        "o" => a == a && b == b,
        "u" => a != a || b != b,
        "nge" => !(a >= b),
        "nlg" => !(a < b || a > b),
        "ngt" => !(a > b),
        "nle" => !(a <= b),
        "neq" => a != b,
        "nlt" => !(a < b),
        "tru" => true,
        _ => unreachable!(),
    }
}

const F32S: [u32; 16] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x4000_0000, // 2
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x7FC0_0000, // qNaN
    0x7F80_0001, // sNaN
    0xFFC0_1234, // -qNaN
    0x0000_0001, // +min denormal
    0x8000_0010, // -denormal
    0x0080_0000, // min normal
    0x7F7F_FFFF, // max
    0x3F80_0001, // 1 + ulp
    0xC2F6_E979, // -123.456
];

/// (a, b) per lane: every pair of 8 values in two runs.
fn pairs(vals: &[u32], offset: usize) -> ([u32; 64], [u32; 64]) {
    let n = vals.len();
    let mut a = [0; 64];
    let mut b = [0; 64];
    for l in 0..64 {
        let k = l + 64 * offset;
        a[l] = vals[k % n];
        b[l] = vals[(k / n + k) % n];
    }
    (a, b)
}

fn mask_of(f: impl Fn(usize) -> bool) -> u64 {
    (0..64)
        .filter(|&l| EXEC >> l & 1 != 0 && f(l))
        .fold(0, |m, l| m | 1 << l)
}

fn f16_to_f32(h: u32) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let e = (h >> 10) & 31;
    let m = (h & 0x3FF) as f32;
    sign * match e {
        0 => m * 2f32.powi(-24),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1024.0 + m) * 2f32.powi(e as i32 - 25),
    }
}

/// Runs all 16 conditions of type `ty` (`f16`, `f32`, `f64`) as e32 (into
/// VCC, copied out) and e64 forms and compares the masks.
fn float_conds(mcpu: &str, ty: &str, a: &[u32; 64], b: &[u32; 64], c: &[u32; 64], d: &[u32; 64]) {
    let (s0, s1) = if ty == "f64" {
        ("v[2:3]", "v[4:5]")
    } else {
        ("v1", "v2")
    };
    let mut body = String::new();
    // v[2:3] and v[4:5] hold (B, C) and (D, A): aligned f64 pairs.
    body += "  v_mov_b32 v5, v1\n";
    for (i, cond) in FCONDS.iter().enumerate() {
        if i % 2 == 0 {
            body += &format!(
                "  v_cmp_{cond}_{ty} vcc, {s0}, {s1}\n  s_mov_b64 s[{}:{}], vcc\n",
                20 + 2 * i,
                21 + 2 * i
            );
        } else {
            body += &format!(
                "  v_cmp_{cond}_{ty}_e64 s[{}:{}], {s0}, {s1}\n",
                20 + 2 * i,
                21 + 2 * i
            );
        }
    }
    let w = run(mcpu, KEEP, [a, b, c, d], &body);
    for (i, cond) in FCONDS.iter().enumerate() {
        let want = mask_of(|l| match ty {
            "f32" => fcond(cond, f32::from_bits(a[l]), f32::from_bits(b[l])),
            "f16" => fcond(cond, f16_to_f32(a[l] & 0xFFFF), f16_to_f32(b[l] & 0xFFFF)),
            _ => fcond(
                cond,
                f64::from_bits(u64::from(b[l]) | u64::from(c[l]) << 32),
                f64::from_bits(u64::from(d[l]) | u64::from(a[l]) << 32),
            ),
        });
        let got = w.s64(20 + 2 * i);
        assert_eq!(
            got, want,
            "{mcpu} v_cmp_{cond}_{ty}: got {got:#x} want {want:#x}"
        );
    }
}

#[test]
fn float_compares_all_conditions() {
    let f16s: Vec<u32> = vec![
        0x0000, 0x8000, 0x3C00, 0xBC00, 0x4000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE12, 0x0001,
        0x8010, 0x0400, 0x7BFF, 0x3C01, 0xD7B7,
    ];
    // Garbage in the high half of f16 operands must be ignored.
    let f16s_hi: Vec<u32> = f16s.iter().map(|x| x | 0xABCD_0000).collect();
    // f64 patterns: high dwords from F32S-like exponents.
    let f64_hi: [u32; 16] = [
        0,
        0x8000_0000,
        0x3FF0_0000,
        0xBFF0_0000,
        0x4000_0000,
        0x7FF0_0000,
        0xFFF0_0000,
        0x7FF8_0000,
        0x7FF0_0000,
        0xFFF8_0000,
        0,
        0x8000_0000,
        0x0010_0000,
        0x7FEF_FFFF,
        0x3FF0_0000,
        0xC05E_DD2F,
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        for off in 0..4 {
            let (a, b) = pairs(&F32S, off);
            let (c, d) = pairs(&F32S, off + 4);
            float_conds(mcpu, "f32", &a, &b, &c, &d);
            let (a, b) = pairs(if off % 2 == 0 { &f16s } else { &f16s_hi }, off);
            float_conds(mcpu, "f16", &a, &b, &c, &d);
            // f64: lane values (lo, hi) = (B, C) vs (D, A); lows 0 or 1 so
            // NaN/inf/denormal patterns arise from the high dwords.
            let (hi0, hi1) = pairs(&f64_hi, off);
            let lo0: [u32; 64] = std::array::from_fn(|l| (l as u32 / 3) & 1);
            let lo1: [u32; 64] = std::array::from_fn(|l| (l as u32 / 5) & 1);
            float_conds(mcpu, "f64", &hi1, &lo0, &hi0, &lo1);
        }
    }
}

const ICONDS: [&str; 8] = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"];

fn icond<T: Ord>(c: &str, a: T, b: T) -> bool {
    match c {
        "f" => false,
        "lt" => a < b,
        "eq" => a == b,
        "le" => a <= b,
        "gt" => a > b,
        "ne" => a != b,
        "ge" => a >= b,
        "t" => true,
        _ => unreachable!(),
    }
}

#[test]
fn integer_compares_all_conditions() {
    let vals: [u32; 12] = [
        0,
        1,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7FFF_FFFF,
        0x8000,
        0x7FFF,
        0xFFFF,
        0x1_8000,
        0xFFFF_0001,
        2,
        0x8000_0001,
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        for off in 0..3 {
            let (a, b) = pairs(&vals, off);
            let (c, d) = pairs(&vals, off + 3);
            for ty in ["i16", "u16", "i32", "u32", "i64", "u64"] {
                let wide = ty.ends_with("64");
                let (s0, s1) = if wide {
                    ("v[6:7]", "v[8:9]")
                } else {
                    ("v1", "v2")
                };
                // 64-bit operands: (A, C) vs (B, D).
                let mut body = String::from(
                    "  v_mov_b32 v6, v1\n  v_mov_b32 v7, v3\n  v_mov_b32 v8, v2\n  v_mov_b32 v9, v4\n",
                );
                for (i, cond) in ICONDS.iter().enumerate() {
                    if i % 2 == 1 {
                        body += &format!(
                            "  v_cmp_{cond}_{ty} vcc, {s0}, {s1}\n  s_mov_b64 s[{}:{}], vcc\n",
                            20 + 2 * i,
                            21 + 2 * i
                        );
                    } else {
                        body += &format!(
                            "  v_cmp_{cond}_{ty}_e64 s[{}:{}], {s0}, {s1}\n",
                            20 + 2 * i,
                            21 + 2 * i
                        );
                    }
                }
                let w = run(mcpu, KEEP, [&a, &b, &c, &d], &body);
                for (i, cond) in ICONDS.iter().enumerate() {
                    let want = mask_of(|l| {
                        let x = u64::from(a[l]) | u64::from(c[l]) << 32;
                        let y = u64::from(b[l]) | u64::from(d[l]) << 32;
                        match ty {
                            "i16" => icond(cond, a[l] as i16, b[l] as i16),
                            "u16" => icond(cond, a[l] as u16, b[l] as u16),
                            "i32" => icond(cond, a[l] as i32, b[l] as i32),
                            "u32" => icond(cond, a[l], b[l]),
                            "i64" => icond(cond, x as i64, y as i64),
                            _ => icond(cond, x, y),
                        }
                    });
                    assert_eq!(w.s64(20 + 2 * i), want, "{mcpu} v_cmp_{cond}_{ty}");
                }
            }
        }
    }
}

#[test]
fn cmpx_writes_exec_and_sdst() {
    for mcpu in ["gfx900", "gfx90a"] {
        let (a, b) = pairs(&F32S, 1);
        let ints: [u32; 64] = std::array::from_fn(|l| (l as u32 * 7) % 11);
        let ints2: [u32; 64] = std::array::from_fn(|l| (l as u32 * 3) % 13);
        let body = "  v_cmpx_lt_f32 vcc, v1, v2\n  s_mov_b64 s[20:21], exec\n  s_mov_b64 s[22:23], vcc\n  \
                    s_mov_b64 exec, s[10:11]\n  v_cmpx_gt_u32_e64 s[24:25], v3, v4\n  s_mov_b64 s[26:27], exec\n  \
                    s_mov_b64 exec, s[10:11]\n  v_cmpx_nlg_f32_e64 s[28:29], v1, v2\n  s_mov_b64 s[30:31], exec\n  \
                    v_mov_b32 v10, 5\n  \
                    s_mov_b64 exec, s[10:11]\n  v_cmpx_class_f32 vcc, v1, v4\n  s_mov_b64 s[32:33], exec\n  s_mov_b64 s[34:35], vcc\n  \
                    s_mov_b64 exec, s[10:11]\n  v_cmpx_ne_i64_e64 s[36:37], v[2:3], v[4:5]\n  s_mov_b64 s[38:39], exec";
        let w = run(mcpu, KEEP, [&a, &b, &ints, &ints2], body);
        let lt = mask_of(|l| f32::from_bits(a[l]) < f32::from_bits(b[l]));
        assert_eq!(w.s64(20), lt, "{mcpu} cmpx_lt exec");
        assert_eq!(w.s64(22), lt, "{mcpu} cmpx_lt vcc");
        let gt = mask_of(|l| ints[l] > ints2[l]);
        assert_eq!(w.s64(24), gt, "{mcpu} cmpx_gt sdst");
        assert_eq!(w.s64(26), gt, "{mcpu} cmpx_gt exec");
        let nlg = mask_of(|l| fcond("nlg", f32::from_bits(a[l]), f32::from_bits(b[l])));
        assert_eq!(w.s64(28), nlg, "{mcpu} cmpx_nlg sdst");
        assert_eq!(w.s64(30), nlg, "{mcpu} cmpx_nlg exec");
        // v_mov under the cmpx-made EXEC writes only those lanes.
        for l in 0..64 {
            assert_eq!(
                w.v[10][l] == 5,
                nlg >> l & 1 != 0,
                "{mcpu} lane {l} after cmpx"
            );
        }
        let cls = mask_of(|l| ints2[l] >> class_f32(a[l]) & 1 != 0);
        assert_eq!(w.s64(32), cls, "{mcpu} cmpx_class exec");
        assert_eq!(w.s64(34), cls, "{mcpu} cmpx_class vcc");
        // v[4:5] = (ints2, v5) and v5 is never written: 0 (registers start zeroed).
        let ne64 = mask_of(|l| (u64::from(b[l]) | u64::from(ints[l]) << 32) != u64::from(ints2[l]));
        assert_eq!(w.s64(36), ne64, "{mcpu} cmpx_ne_i64 sdst");
        assert_eq!(w.s64(38), ne64, "{mcpu} cmpx_ne_i64 exec");
    }
}

/// Class index of an f32 (the `v_cmp_class` mask bit).
fn class_f32(x: u32) -> u32 {
    let f = f32::from_bits(x);
    let neg = f.is_sign_negative();
    use std::num::FpCategory::*;
    match f.classify() {
        Nan => {
            if x & 0x40_0000 != 0 {
                1
            } else {
                0
            }
        }
        Infinite => {
            if neg {
                2
            } else {
                9
            }
        }
        Normal => {
            if neg {
                3
            } else {
                8
            }
        }
        Subnormal => {
            if neg {
                4
            } else {
                7
            }
        }
        Zero => {
            if neg {
                5
            } else {
                6
            }
        }
    }
}

fn class_f64(x: u64) -> u32 {
    let f = f64::from_bits(x);
    let neg = f.is_sign_negative();
    use std::num::FpCategory::*;
    match f.classify() {
        Nan => u32::from(x >> 51 & 1 != 0),
        Infinite => {
            if neg {
                2
            } else {
                9
            }
        }
        Normal => {
            if neg {
                3
            } else {
                8
            }
        }
        Subnormal => {
            if neg {
                4
            } else {
                7
            }
        }
        Zero => {
            if neg {
                5
            } else {
                6
            }
        }
    }
}

fn class_f16(x: u32) -> u32 {
    let neg = x & 0x8000 != 0;
    let (e, m) = ((x >> 10) & 31, x & 0x3FF);
    let pick = |n, p| if neg { n } else { p };
    match (e, m) {
        (31, 0) => pick(2, 9),
        (31, m) => u32::from(m & 0x200 != 0),
        (0, 0) => pick(5, 6),
        (0, _) => pick(4, 7),
        _ => pick(3, 8),
    }
}

#[test]
fn class_compares() {
    let f16s: [u32; 16] = [
        0x0000, 0x8000, 0x3C00, 0xBC00, 0x4000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE12, 0x0001,
        0x8010, 0x0400, 0x7BFF, 0x3C01, 0xD7B7,
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        let a: [u32; 64] = std::array::from_fn(|l| F32S[l % 16]);
        let h: [u32; 64] = std::array::from_fn(|l| f16s[(l * 5) % 16]);
        // Masks: single bits, all, random-ish.
        let m: [u32; 64] = std::array::from_fn(|l| match l / 16 {
            0 => 1 << class_f32(a[l]),
            1 => 0x3FF ^ (1 << class_f32(a[l])),
            2 => (l as u32 * 0x2F5) & 0x3FF,
            _ => 1 << (l % 10),
        });
        let hi: [u32; 64] = std::array::from_fn(|l| {
            [
                0x7FF0_0000,
                0x8000_0000,
                0x000F_FFFF,
                0x7FF8_0000,
                0xBFF0_0000,
            ][l % 5]
        });
        let body = "  v_cmp_class_f32 vcc, v1, v3\n  s_mov_b64 s[20:21], vcc\n  \
                    v_cmp_class_f32_e64 s[22:23], -v1, v3\n  \
                    v_cmp_class_f32_e64 s[24:25], |v1|, v3\n  \
                    v_cmp_class_f16 vcc, v2, v3\n  s_mov_b64 s[26:27], vcc\n  \
                    v_mov_b32 v6, v1\n  v_mov_b32 v7, v4\n  \
                    v_cmp_class_f64_e64 s[28:29], v[6:7], v3\n  \
                    v_cmp_class_f64_e64 s[30:31], -|v[6:7]|, v3\n  \
                    v_cmp_class_f32_e64 s[32:33], v1, 0x3ff";
        let body = body.replace(", 0x3ff", ", s40").replace(
            "  v_cmp_class_f32_e64 s[32:33]",
            "  s_movk_i32 s40, 0x3ff\n  v_cmp_class_f32_e64 s[32:33]",
        );
        let w = run(mcpu, KEEP, [&a, &h, &m, &hi], &body);
        let bit = |m: u32, c: u32| m >> c & 1 != 0;
        assert_eq!(
            w.s64(20),
            mask_of(|l| bit(m[l], class_f32(a[l]))),
            "{mcpu} class_f32"
        );
        assert_eq!(
            w.s64(22),
            mask_of(|l| bit(m[l], class_f32(a[l] ^ 0x8000_0000))),
            "{mcpu} class_f32 neg"
        );
        assert_eq!(
            w.s64(24),
            mask_of(|l| bit(m[l], class_f32(a[l] & 0x7FFF_FFFF))),
            "{mcpu} class_f32 abs"
        );
        assert_eq!(
            w.s64(26),
            mask_of(|l| bit(m[l], class_f16(h[l]))),
            "{mcpu} class_f16"
        );
        let d = |l: usize| u64::from(a[l]) | u64::from(hi[l]) << 32;
        assert_eq!(
            w.s64(28),
            mask_of(|l| bit(m[l], class_f64(d(l)))),
            "{mcpu} class_f64"
        );
        assert_eq!(
            w.s64(30),
            mask_of(|l| bit(m[l], class_f64(d(l) | 1 << 63))),
            "{mcpu} class_f64 -|x|"
        );
        assert_eq!(w.s64(32), EXEC, "{mcpu} class with all bits");
    }
}

#[test]
fn float_modifiers_and_sdwa() {
    for mcpu in ["gfx900", "gfx90a"] {
        let (a, b) = pairs(&F32S, 2);
        let c: [u32; 64] = std::array::from_fn(|l| (l as u32).wrapping_mul(0x9E37_79B9));
        let d: [u32; 64] = std::array::from_fn(|l| (l as u32).wrapping_mul(0x85EB_CA6B));
        let body = "  v_cmp_lt_f32_e64 s[20:21], -v1, |v2|\n  \
                    v_cmp_eq_f32_e64 s[22:23], |v1|, -|v2|\n  \
                    v_cmp_gt_i32_sdwa s[24:25], sext(v3), v4 src0_sel:BYTE_0 src1_sel:WORD_1\n  \
                    v_cmp_eq_u32_sdwa vcc, v3, v4 src0_sel:BYTE_1 src1_sel:BYTE_2\n  s_mov_b64 s[26:27], vcc\n  \
                    v_cmp_lt_u16_sdwa s[28:29], v3, v4 src0_sel:WORD_1 src1_sel:WORD_0\n  \
                    v_cmp_nge_f32_sdwa s[30:31], -v1, v2 src0_sel:DWORD src1_sel:DWORD\n  \
                    v_cmp_le_f16_sdwa s[32:33], v1, |v2| src0_sel:WORD_1 src1_sel:WORD_0\n  \
                    v_cmp_lt_i32 vcc, -5, v3\n  s_mov_b64 s[34:35], vcc";
        let w = run(mcpu, KEEP, [&a, &b, &c, &d], body);
        let f = f32::from_bits;
        assert_eq!(
            w.s64(20),
            mask_of(|l| -f(a[l]) < f(b[l]).abs()),
            "{mcpu} neg/abs lt"
        );
        assert_eq!(
            w.s64(22),
            mask_of(|l| f(a[l]).abs() == -f(b[l]).abs()),
            "{mcpu} abs eq"
        );
        assert_eq!(
            w.s64(24),
            mask_of(|l| i32::from(c[l] as u8 as i8) > (d[l] >> 16) as i32),
            "{mcpu} sdwa gt_i32"
        );
        assert_eq!(
            w.s64(26),
            mask_of(|l| (c[l] >> 8) & 0xFF == (d[l] >> 16) & 0xFF),
            "{mcpu} sdwa eq vcc"
        );
        assert_eq!(
            w.s64(28),
            mask_of(|l| (c[l] >> 16) < (d[l] & 0xFFFF)),
            "{mcpu} sdwa lt_u16"
        );
        assert_eq!(
            w.s64(30),
            mask_of(|l| !(-f(a[l]) >= f(b[l]))),
            "{mcpu} sdwa nge neg"
        );
        assert_eq!(
            w.s64(32),
            mask_of(|l| f16_to_f32(a[l] >> 16) <= f16_to_f32(b[l] & 0x7FFF)),
            "{mcpu} sdwa le_f16"
        );
        assert_eq!(w.s64(34), mask_of(|l| -5 < c[l] as i32), "{mcpu} constant");
    }
}

/// With MODE flushing f32 input denormals, denormals compare as ±0; f16/f64
/// keep theirs (their mode bits are separate).
#[test]
fn denormal_inputs_follow_mode() {
    let a: [u32; 64] =
        std::array::from_fn(|l| [0x0000_0001, 0x8000_0010, 0x0000_0000, 0x007F_FFFF][l % 4]);
    let b: [u32; 64] =
        std::array::from_fn(|l| [0x0000_0000, 0x0000_0000, 0x8000_0000, 0x0000_0001][(l / 4) % 4]);
    let h: [u32; 64] = std::array::from_fn(|l| [0x0001, 0x8001, 0x0000, 0x03FF][l % 4]);
    let z = [0u32; 64];
    let body = "  v_cmp_eq_f32 vcc, v1, v2\n  s_mov_b64 s[20:21], vcc\n  \
                v_cmp_eq_f16_e64 s[22:23], v3, v4\n  v_cmp_class_f32_e64 s[24:25], v1, 0x90";
    let body = body
        .replace(", 0x90", ", s40")
        .replace("  v_cmp_class", "  s_movk_i32 s40, 0x90\n  v_cmp_class");
    for (directives, flush) in [(KEEP, false), ("  .amdhsa_float_denorm_mode_32 0\n", true)] {
        let w = run("gfx900", directives, [&a, &b, &h, &z], &body);
        let fl = |x: u32| {
            if flush && x & 0x7F80_0000 == 0 {
                0
            } else {
                x & 0x7FFF_FFFF
            }
        };
        let eq = |x: u32, y: u32| {
            // Sign-magnitude equality with ±0 equal (no NaNs here).
            let (mx, my) = (fl(x), fl(y));
            (mx == 0 && my == 0) || (mx == my && x >> 31 == y >> 31)
        };
        assert_eq!(
            w.s64(20),
            mask_of(|l| eq(a[l], b[l])),
            "f32 eq flush={flush}"
        );
        assert_eq!(
            w.s64(22),
            mask_of(|l| h[l] & 0x7FFF == 0),
            "f16 eq keeps denormals, flush={flush}"
        );
        // 0x90: -denormal | +denormal — class ignores the flush mode.
        assert_eq!(
            w.s64(24),
            mask_of(|l| a[l] & 0x7F80_0000 == 0 && a[l] & 0x7F_FFFF != 0),
            "class of denormals, flush={flush}"
        );
    }
}
