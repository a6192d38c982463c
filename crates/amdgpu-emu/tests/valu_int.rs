//! Integer and data-movement VALU instructions (VOP1/VOP2/VOP3 and their
//! DPP and SDWA forms) on the emulator, against expectations computed here
//! from the ISA's definitions.
//!
//! Every test loads distinct per-lane inputs into v1–v4 (with
//! `v_writelane_b32`), fills the destinations with a marker, runs the
//! instructions under test with EXEC partly disabled, and checks each lane:
//! active lanes hold the expected value, inactive ones keep the marker.

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;

const MARK: u32 = 0xDEAD_BEEF;
/// EXEC while the instructions under test run.
const EXEC: u64 = 0x7FFF_FFFF_FFF0_FFF7;

/// Deterministic pseudo-random values (xorshift).
fn rng(seed: u32) -> impl FnMut() -> u32 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}

/// 64 inputs: edge cases first, then pseudo-random values (some small).
fn inputs(seed: u32) -> [u32; 64] {
    const EDGES: [u32; 24] = [
        0,
        1,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7FFF_FFFF,
        31,
        32,
        33,
        63,
        64,
        0xFFFF,
        0x8000,
        0x7FFF,
        0xFF,
        0x80,
        0x00FF_FFFF,
        0x0080_0000,
        0xFF80_0000,
        0x1234_5678,
        0x8765_4321,
        16,
        15,
        0xFFFF_8000,
        0x0001_0000,
    ];
    let mut r = rng(seed);
    let mut v = [0u32; 64];
    let rot = (seed as usize) % EDGES.len();
    for (l, x) in v.iter_mut().enumerate() {
        *x = if l < EDGES.len() {
            EDGES[(l + rot) % EDGES.len()]
        } else if l % 3 == 0 {
            r() & 0x3F
        } else {
            r()
        };
    }
    v
}

/// Setup lines writing `vals` into VGPR `reg` lane by lane.
fn load(reg: u32, vals: &[u32; 64]) -> String {
    let mut s = String::new();
    for (l, v) in vals.iter().enumerate() {
        s.push_str(&format!(
            "  s_mov_b32 s40, {v:#x}\n  v_writelane_b32 v{reg}, s40, {l}\n"
        ));
    }
    s
}

struct Setup {
    a: [u32; 64],
    b: [u32; 64],
    c: [u32; 64],
    d: [u32; 64],
}

impl Setup {
    fn new(seed: u32) -> Setup {
        Setup {
            a: inputs(seed),
            b: inputs(seed.wrapping_mul(7) + 3),
            c: inputs(seed.wrapping_mul(13) + 5),
            d: inputs(seed.wrapping_mul(17) + 11),
        }
    }

    /// Runs `body` after loading v1–v4 and marking v`marks`, with EXEC set
    /// to [`EXEC`] around `body`; returns the wave.
    fn run(&self, mcpu: &str, marks: std::ops::Range<u32>, body: &str) -> Wave {
        let mut src = String::new();
        src += &load(1, &self.a);
        src += &load(2, &self.b);
        src += &load(3, &self.c);
        src += &load(4, &self.d);
        for r in marks {
            src += &format!("  v_mov_b32 v{r}, {MARK:#x}\n");
        }
        src += &format!(
            "  s_mov_b32 exec_lo, {:#x}\n  s_mov_b32 exec_hi, {:#x}\n",
            EXEC as u32,
            (EXEC >> 32) as u32
        );
        src += body;
        src += "\n  s_mov_b64 exec, -1\n";
        let mem = Arc::new(Memory::new());
        let mut waves = run_asm(&AsmKernel::new(mcpu), &src, &mem, &[0; 8])
            .unwrap_or_else(|e| panic!("{mcpu}: {e}"));
        waves.remove(0)
    }
}

/// Checks VGPR `reg`: `want(lane)` in EXEC lanes, the marker elsewhere.
fn check(w: &Wave, what: &str, reg: usize, want: impl Fn(usize) -> u32) {
    for l in 0..64 {
        let exp = if EXEC >> l & 1 != 0 { want(l) } else { MARK };
        assert_eq!(
            w.v[reg][l], exp,
            "{what}: lane {l}: got {:#x}, want {exp:#x}",
            w.v[reg][l]
        );
    }
}

type F3 = fn(usize, u32, u32, u32) -> u32;

/// Runs one instruction per case (destination v10, v11, …, sources v1, v2,
/// v3 as the text says) and checks each against its function of
/// (lane, A, B, C).
fn table(mcpu: &str, seed: u32, cases: &[(&str, F3)]) {
    let s = Setup::new(seed);
    let body: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (t, _))| format!("  {}", t.replace("vD", &format!("v{}", 10 + i))))
        .collect();
    let w = s.run(mcpu, 10..10 + cases.len() as u32, &body.join("\n"));
    for (i, (t, f)) in cases.iter().enumerate() {
        check(&w, &format!("{mcpu}: {t}"), 10 + i, |l| {
            f(l, s.a[l], s.b[l], s.c[l])
        });
    }
}

fn sx16(x: u32) -> i32 {
    i32::from(x as u16 as i16)
}

fn sx24(x: u32) -> i64 {
    let v = i64::from(x & 0xFF_FFFF);
    if v & 0x80_0000 != 0 {
        v - 0x100_0000
    } else {
        v
    }
}

fn clamp_i32(x: i64) -> u32 {
    if x > i64::from(i32::MAX) {
        i32::MAX as u32
    } else if x < i64::from(i32::MIN) {
        i32::MIN as u32
    } else {
        x as u32
    }
}

#[test]
fn binary_32bit_ops() {
    let cases: &[(&str, F3)] = &[
        ("v_add_u32 vD, v1, v2", |_, a, b, _| a.wrapping_add(b)),
        ("v_sub_u32 vD, v1, v2", |_, a, b, _| a.wrapping_sub(b)),
        ("v_subrev_u32 vD, v1, v2", |_, a, b, _| b.wrapping_sub(a)),
        ("v_add_u32_e64 vD, v1, v2 clamp", |_, a, b, _| {
            let s = u64::from(a) + u64::from(b);
            if s > 0xFFFF_FFFF { u32::MAX } else { s as u32 }
        }),
        ("v_sub_u32_e64 vD, v1, v2 clamp", |_, a, b, _| {
            (i64::from(a) - i64::from(b)).max(0) as u32
        }),
        ("v_subrev_u32_e64 vD, v1, v2 clamp", |_, a, b, _| {
            (i64::from(b) - i64::from(a)).max(0) as u32
        }),
        ("v_add_i32 vD, v1, v2", |_, a, b, _| a.wrapping_add(b)),
        ("v_add_i32 vD, v1, v2 clamp", |_, a, b, _| {
            clamp_i32(i64::from(a as i32) + i64::from(b as i32))
        }),
        ("v_sub_i32 vD, v1, v2 clamp", |_, a, b, _| {
            clamp_i32(i64::from(a as i32) - i64::from(b as i32))
        }),
        ("v_lshlrev_b32 vD, v1, v2", |_, a, b, _| {
            b.wrapping_shl(a % 32)
        }),
        ("v_lshrrev_b32 vD, v1, v2", |_, a, b, _| {
            b.wrapping_shr(a % 32)
        }),
        ("v_ashrrev_i32 vD, v1, v2", |_, a, b, _| {
            (b as i32).wrapping_shr(a % 32) as u32
        }),
        ("v_lshlrev_b32_e64 vD, 35, v2", |_, _, b, _| b << 3),
        ("v_and_b32 vD, v1, v2", |_, a, b, _| a & b),
        ("v_or_b32 vD, v1, v2", |_, a, b, _| a | b),
        ("v_xor_b32 vD, v1, v2", |_, a, b, _| a ^ b),
        ("v_xor_b32 vD, -1, v2", |_, _, b, _| !b),
        (
            "v_min_u32 vD, v1, v2",
            |_, a, b, _| if a < b { a } else { b },
        ),
        (
            "v_max_u32 vD, v1, v2",
            |_, a, b, _| if a > b { a } else { b },
        ),
        ("v_min_i32 vD, v1, v2", |_, a, b, _| {
            if (a as i32) < (b as i32) { a } else { b }
        }),
        ("v_max_i32 vD, v1, v2", |_, a, b, _| {
            if (a as i32) > (b as i32) { a } else { b }
        }),
        ("v_mul_lo_u32 vD, v1, v2", |_, a, b, _| {
            (u64::from(a) * u64::from(b)) as u32
        }),
        ("v_mul_hi_u32 vD, v1, v2", |_, a, b, _| {
            ((u128::from(a) * u128::from(b)) >> 32) as u32
        }),
        ("v_mul_hi_i32 vD, v1, v2", |_, a, b, _| {
            ((i128::from(a as i32) * i128::from(b as i32)) >> 32) as u32
        }),
        ("v_mul_u32_u24 vD, v1, v2", |_, a, b, _| {
            (u64::from(a % (1 << 24)) * u64::from(b % (1 << 24))) as u32
        }),
        ("v_mul_hi_u32_u24 vD, v1, v2", |_, a, b, _| {
            ((u64::from(a % (1 << 24)) * u64::from(b % (1 << 24))) >> 32) as u32
        }),
        ("v_mul_i32_i24 vD, v1, v2", |_, a, b, _| {
            (sx24(a) * sx24(b)) as u32
        }),
        ("v_mul_hi_i32_i24 vD, v1, v2", |_, a, b, _| {
            ((sx24(a) * sx24(b)) >> 32) as u32
        }),
        ("v_mul_i32_i24_e64 vD, v1, v2 clamp", |_, a, b, _| {
            clamp_i32(sx24(a) * sx24(b))
        }),
        ("v_bcnt_u32_b32 vD, v1, v2", |_, a, b, _| {
            ((0..32).filter(|i| a >> i & 1 == 1).count() as u32).wrapping_add(b)
        }),
        ("v_bfm_b32 vD, v1, v2", |_, a, b, _| {
            let mut m = 0u32;
            for i in 0..(a & 31) {
                m |= 1 << i;
            }
            m << (b & 31)
        }),
        ("v_mbcnt_lo_u32_b32 vD, v1, v2", |l, a, b, _| {
            ((0..l.min(32)).filter(|i| a >> i & 1 == 1).count() as u32).wrapping_add(b)
        }),
        ("v_mbcnt_hi_u32_b32 vD, v1, v2", |l, a, b, _| {
            ((32..l.max(32)).filter(|i| a >> (i - 32) & 1 == 1).count() as u32).wrapping_add(b)
        }),
        ("v_mbcnt_lo_u32_b32 vD, -1, 0", |l, _, _, _| {
            l.min(32) as u32
        }),
        ("v_cndmask_b32_e64 vD, v1, v2, s[50:51]", |l, a, b, _| {
            if 0xF0F0_1234_5678_9ABCu64 >> l & 1 == 1 {
                b
            } else {
                a
            }
        }),
        ("v_cndmask_b32_e64 vD, -v1, |v2|, s[50:51]", |l, a, b, _| {
            if 0xF0F0_1234_5678_9ABCu64 >> l & 1 == 1 {
                b & 0x7FFF_FFFF
            } else {
                a ^ 0x8000_0000
            }
        }),
        ("v_cndmask_b32 vD, v1, v2, vcc", |l, a, b, _| {
            if 0x0123_4567_89AB_CDEFu64 >> l & 1 == 1 {
                b
            } else {
                a
            }
        }),
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        let mut c = cases.to_vec();
        let pre = "s_mov_b32 s50, 0x56789abc\n  s_mov_b32 s51, 0xf0f01234\n  s_mov_b32 vcc_lo, 0x89abcdef\n  s_mov_b32 vcc_hi, 0x01234567\n  v_add_u32 vD, v1, v2";
        c[0].0 = pre;
        table(mcpu, 1, &c);
        table(mcpu, 99, &c);
    }
}

#[test]
fn unary_ops() {
    let cases: &[(&str, F3)] = &[
        ("v_mov_b32 vD, v1", |_, a, _, _| a),
        ("v_mov_b32 vD, 0x12345", |_, _, _, _| 0x12345),
        ("v_mov_b32 vD, -7", |_, _, _, _| (-7i32) as u32),
        ("v_mov_b32 vD, 0.5", |_, _, _, _| 0x3F00_0000),
        ("v_mov_b32 vD, s5", |_, _, _, _| 0x55),
        ("v_not_b32 vD, v1", |_, a, _, _| a ^ u32::MAX),
        ("v_bfrev_b32 vD, v1", |_, a, _, _| {
            (0..32).fold(0, |r, i| r | (a >> i & 1) << (31 - i))
        }),
        ("v_ffbh_u32 vD, v1", |_, a, _, _| {
            (0..32).find(|i| a >> (31 - i) & 1 == 1).unwrap_or(u32::MAX)
        }),
        ("v_ffbl_b32 vD, v1", |_, a, _, _| {
            (0..32).find(|i| a >> i & 1 == 1).unwrap_or(u32::MAX)
        }),
        ("v_ffbh_i32 vD, v1", |_, a, _, _| {
            let s = a >> 31;
            (1..32).find(|i| a >> (31 - i) & 1 != s).unwrap_or(u32::MAX)
        }),
        ("v_ffbh_u32_e64 vD, v2", |_, _, b, _| {
            (0..32).find(|i| b >> (31 - i) & 1 == 1).unwrap_or(u32::MAX)
        }),
        ("v_sat_pk_u8_i16 vD, v1", |_, a, _, _| {
            let s = |x: i32| {
                if x < 0 {
                    0
                } else if x > 255 {
                    255
                } else {
                    x as u32
                }
            };
            s(sx16(a)) | s(sx16(a >> 16)) << 8
        }),
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        let mut c = cases.to_vec();
        c.insert(
            0,
            ("s_mov_b32 s5, 0x55\n  v_mov_b32 vD, v2", |_, _, b, _| b),
        );
        table(mcpu, 3, &c);
        table(mcpu, 41, &c);
    }
}

#[test]
fn ternary_ops() {
    let cases: &[(&str, F3)] = &[
        ("v_add3_u32 vD, v1, v2, v3", |_, a, b, c| {
            (u64::from(a) + u64::from(b) + u64::from(c)) as u32
        }),
        ("v_xad_u32 vD, v1, v2, v3", |_, a, b, c| {
            (a ^ b).wrapping_add(c)
        }),
        ("v_lshl_add_u32 vD, v1, v2, v3", |_, a, b, c| {
            a.wrapping_shl(b % 32).wrapping_add(c)
        }),
        ("v_add_lshl_u32 vD, v1, v2, v3", |_, a, b, c| {
            a.wrapping_add(b).wrapping_shl(c % 32)
        }),
        ("v_and_or_b32 vD, v1, v2, v3", |_, a, b, c| (a & b) | c),
        ("v_or3_b32 vD, v1, v2, v3", |_, a, b, c| a | b | c),
        ("v_lshl_or_b32 vD, v1, v2, v3", |_, a, b, c| {
            a.wrapping_shl(b % 32) | c
        }),
        ("v_bfe_u32 vD, v1, v2, v3", |_, a, b, c| {
            let (o, n) = (b & 31, c & 31);
            (0..n).fold(0, |r, i| {
                let bit = if o + i < 32 { a >> (o + i) & 1 } else { 0 };
                r | bit << i
            })
        }),
        ("v_bfe_i32 vD, v1, v2, v3", |_, a, b, c| {
            let (o, n) = (b & 31, c & 31);
            if n == 0 {
                return 0;
            }
            let mut r = 0u32;
            for i in 0..32 {
                // Bits past the field (and past bit 31) repeat its top bit.
                let src = (o + i.min(n - 1)).min(31);
                r |= (a >> src & 1) << i;
            }
            r
        }),
        ("v_bfe_u32 vD, v1, 8, 12", |_, a, _, _| (a >> 8) & 0xFFF),
        ("v_bfi_b32 vD, v1, v2, v3", |_, a, b, c| (a & b) | (!a & c)),
        ("v_alignbit_b32 vD, v1, v2, v3", |_, a, b, c| {
            let s = c & 31;
            if s == 0 {
                b
            } else {
                (b >> s) | (a << (32 - s))
            }
        }),
        ("v_alignbyte_b32 vD, v1, v2, v3", |_, a, b, c| {
            let s = 8 * (c & 3);
            if s == 0 {
                b
            } else {
                (b >> s) | (a << (32 - s))
            }
        }),
        ("v_perm_b32 vD, v1, v2, v3", |_, a, b, c| {
            let bytes = [
                b as u8,
                (b >> 8) as u8,
                (b >> 16) as u8,
                (b >> 24) as u8,
                a as u8,
                (a >> 8) as u8,
                (a >> 16) as u8,
                (a >> 24) as u8,
            ];
            let mut r = 0u32;
            for i in 0..4 {
                let sel = (c >> (8 * i)) as u8;
                let v = match sel {
                    0..=7 => bytes[sel as usize],
                    8 => 0xFF * (bytes[1] >> 7),
                    9 => 0xFF * (bytes[3] >> 7),
                    10 => 0xFF * (bytes[5] >> 7),
                    11 => 0xFF * (bytes[7] >> 7),
                    12 => 0,
                    _ => 0xFF,
                };
                r |= u32::from(v) << (8 * i);
            }
            r
        }),
        (
            "s_mov_b32 s45, 0x0c080905\n  v_perm_b32 vD, v1, v2, s45",
            |_, a, b, _| {
                let b1 = if b & 0x8000 != 0 { 0xFF } else { 0 };
                let b3 = if b & 0x8000_0000 != 0 { 0xFF } else { 0 };
                ((a >> 8) & 0xFF) | b3 << 8 | b1 << 16
            },
        ),
        ("v_mad_u32_u24 vD, v1, v2, v3", |_, a, b, c| {
            ((u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF)) + u64::from(c)) as u32
        }),
        ("v_mad_i32_i24 vD, v1, v2, v3", |_, a, b, c| {
            (sx24(a) * sx24(b) + i64::from(c as i32)) as u32
        }),
        ("v_mad_u32_u24 vD, v1, v2, v3 clamp", |_, a, b, c| {
            let x = u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF) + u64::from(c);
            x.min(0xFFFF_FFFF) as u32
        }),
        ("v_min3_u32 vD, v1, v2, v3", |_, a, b, c| {
            *[a, b, c].iter().min().unwrap()
        }),
        ("v_max3_u32 vD, v1, v2, v3", |_, a, b, c| {
            *[a, b, c].iter().max().unwrap()
        }),
        ("v_med3_u32 vD, v1, v2, v3", |_, a, b, c| {
            let mut v = [a, b, c];
            v.sort();
            v[1]
        }),
        ("v_min3_i32 vD, v1, v2, v3", |_, a, b, c| {
            *[a as i32, b as i32, c as i32].iter().min().unwrap() as u32
        }),
        ("v_max3_i32 vD, v1, v2, v3", |_, a, b, c| {
            *[a as i32, b as i32, c as i32].iter().max().unwrap() as u32
        }),
        ("v_med3_i32 vD, v1, v2, v3", |_, a, b, c| {
            let mut v = [a as i32, b as i32, c as i32];
            v.sort();
            v[1] as u32
        }),
        ("v_sad_u8 vD, v1, v2, v3", |_, a, b, c| {
            let s: i32 = (0..4)
                .map(|i| ((a >> (8 * i)) as u8 as i32 - (b >> (8 * i)) as u8 as i32).abs())
                .sum();
            c.wrapping_add(s as u32)
        }),
        ("v_sad_hi_u8 vD, v1, v2, v3", |_, a, b, c| {
            let s: i32 = (0..4)
                .map(|i| ((a >> (8 * i)) as u8 as i32 - (b >> (8 * i)) as u8 as i32).abs())
                .sum();
            c.wrapping_add((s as u32) << 16)
        }),
        ("v_sad_u16 vD, v1, v2, v3", |_, a, b, c| {
            let s: i32 = (0..2)
                .map(|i| ((a >> (16 * i)) as u16 as i32 - (b >> (16 * i)) as u16 as i32).abs())
                .sum();
            c.wrapping_add(s as u32)
        }),
        ("v_sad_u32 vD, v1, v2, v3", |_, a, b, c| {
            c.wrapping_add((i64::from(a) - i64::from(b)).unsigned_abs() as u32)
        }),
        ("v_sad_u32 vD, v1, v2, v3 clamp", |_, a, b, c| {
            let x = u64::from(c) + (i64::from(a) - i64::from(b)).unsigned_abs();
            x.min(0xFFFF_FFFF) as u32
        }),
        ("v_msad_u8 vD, v1, v2, v3", |_, a, b, c| {
            let s: i32 = (0..4)
                .filter(|i| (b >> (8 * i)) as u8 != 0)
                .map(|i| ((a >> (8 * i)) as u8 as i32 - (b >> (8 * i)) as u8 as i32).abs())
                .sum();
            c.wrapping_add(s as u32)
        }),
        ("v_lerp_u8 vD, v1, v2, v3", |_, a, b, c| {
            let mut r = 0u32;
            for i in 0..4 {
                let x = u32::from((a >> (8 * i)) as u8)
                    + u32::from((b >> (8 * i)) as u8)
                    + (c >> (8 * i) & 1);
                r |= (x / 2) << (8 * i);
            }
            r
        }),
        ("v_cvt_pk_u16_u32 vD, v1, v2", |_, a, b, _| {
            let s = |x: u32| if x > 0xFFFF { 0xFFFF } else { x };
            s(a) | s(b) << 16
        }),
        ("v_cvt_pk_i16_i32 vD, v1, v2", |_, a, b, _| {
            let s = |x: u32| (x as i32).clamp(-32768, 32767) as u16 as u32;
            s(a) | s(b) << 16
        }),
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        table(mcpu, 5, cases);
        table(mcpu, 77, cases);
    }
}

/// Legacy 16-bit ops zero the high half; the GFX9 `op_sel` ones keep the
/// half they do not write (the marker here).
#[test]
fn sixteen_bit_ops() {
    fn keep_lo(r: u32) -> u32 {
        (MARK & 0xFFFF_0000) | (r & 0xFFFF)
    }
    fn keep_hi(r: u32) -> u32 {
        (MARK & 0xFFFF) | (r << 16)
    }
    let cases: &[(&str, F3)] = &[
        ("v_add_u16 vD, v1, v2", |_, a, b, _| {
            a.wrapping_add(b) & 0xFFFF
        }),
        ("v_sub_u16 vD, v1, v2", |_, a, b, _| {
            a.wrapping_sub(b) & 0xFFFF
        }),
        ("v_subrev_u16 vD, v1, v2", |_, a, b, _| {
            b.wrapping_sub(a) & 0xFFFF
        }),
        ("v_add_u16_e64 vD, v1, v2 clamp", |_, a, b, _| {
            ((a & 0xFFFF) + (b & 0xFFFF)).min(0xFFFF)
        }),
        ("v_sub_u16_e64 vD, v1, v2 clamp", |_, a, b, _| {
            (a & 0xFFFF).saturating_sub(b & 0xFFFF)
        }),
        ("v_mul_lo_u16 vD, v1, v2", |_, a, b, _| {
            a.wrapping_mul(b) & 0xFFFF
        }),
        ("v_lshlrev_b16 vD, v1, v2", |_, a, b, _| {
            (b << (a % 16)) & 0xFFFF
        }),
        ("v_lshrrev_b16 vD, v1, v2", |_, a, b, _| {
            (b & 0xFFFF) >> (a % 16)
        }),
        ("v_ashrrev_i16 vD, v1, v2", |_, a, b, _| {
            (sx16(b) >> (a % 16)) as u32 & 0xFFFF
        }),
        ("v_max_u16 vD, v1, v2", |_, a, b, _| {
            (a & 0xFFFF).max(b & 0xFFFF)
        }),
        ("v_min_u16 vD, v1, v2", |_, a, b, _| {
            (a & 0xFFFF).min(b & 0xFFFF)
        }),
        ("v_max_i16 vD, v1, v2", |_, a, b, _| {
            sx16(a).max(sx16(b)) as u32 & 0xFFFF
        }),
        ("v_min_i16 vD, v1, v2", |_, a, b, _| {
            sx16(a).min(sx16(b)) as u32 & 0xFFFF
        }),
        ("v_add_u16 vD, 1.0, v2", |_, _, b, _| {
            b.wrapping_add(0x3C00) & 0xFFFF
        }),
        ("v_add_i16 vD, v1, v2", |_, a, b, _| {
            keep_lo((sx16(a) + sx16(b)) as u32)
        }),
        ("v_add_i16 vD, v1, v2 op_sel:[1,0,1]", |_, a, b, _| {
            keep_hi((sx16(a >> 16) + sx16(b)) as u32 & 0xFFFF)
        }),
        ("v_add_i16 vD, v1, v2 clamp", |_, a, b, _| {
            keep_lo((sx16(a) + sx16(b)).clamp(-32768, 32767) as u32)
        }),
        ("v_sub_i16 vD, v1, v2 op_sel:[0,1,0] clamp", |_, a, b, _| {
            keep_lo((sx16(a) - sx16(b >> 16)).clamp(-32768, 32767) as u32)
        }),
        ("v_mad_u16 vD, v1, v2, v3", |_, a, b, c| {
            keep_lo(((a & 0xFFFF) * (b & 0xFFFF)).wrapping_add(c))
        }),
        (
            "v_mad_u16 vD, v1, v2, v3 op_sel:[1,1,1,1] clamp",
            |_, a, b, c| keep_hi(((a >> 16) * (b >> 16) + (c >> 16)).min(0xFFFF)),
        ),
        ("v_mad_i16 vD, v1, v2, v3", |_, a, b, c| {
            keep_lo((sx16(a) * sx16(b) + sx16(c)) as u32)
        }),
        ("v_mad_i16 vD, v1, v2, v3 clamp", |_, a, b, c| {
            keep_lo((sx16(a) * sx16(b) + sx16(c)).clamp(-32768, 32767) as u32)
        }),
        ("v_mad_legacy_u16 vD, v1, v2, v3", |_, a, b, c| {
            (a & 0xFFFF).wrapping_mul(b & 0xFFFF).wrapping_add(c) & 0xFFFF
        }),
        ("v_mad_legacy_i16 vD, v1, v2, v3", |_, a, b, c| {
            (sx16(a) * sx16(b) + sx16(c)) as u32 & 0xFFFF
        }),
        ("v_mad_u32_u16 vD, v1, v2, v3", |_, a, b, c| {
            ((a & 0xFFFF) * (b & 0xFFFF)).wrapping_add(c)
        }),
        (
            "v_mad_u32_u16 vD, v1, v2, v3 op_sel:[1,0,0,0]",
            |_, a, b, c| ((a >> 16) * (b & 0xFFFF)).wrapping_add(c),
        ),
        ("v_mad_i32_i16 vD, v1, v2, v3", |_, a, b, c| {
            (sx16(a) * sx16(b)).wrapping_add(c as i32) as u32
        }),
        (
            "v_mad_i32_i16 vD, v1, v2, v3 op_sel:[0,1,0,0] clamp",
            |_, a, b, c| clamp_i32(i64::from(sx16(a) * sx16(b >> 16)) + i64::from(c as i32)),
        ),
        ("v_min3_u16 vD, v1, v2, v3", |_, a, b, c| {
            keep_lo((a & 0xFFFF).min(b & 0xFFFF).min(c & 0xFFFF))
        }),
        (
            "v_max3_i16 vD, v1, v2, v3 op_sel:[0,0,1,1]",
            |_, a, b, c| keep_hi(sx16(a).max(sx16(b)).max(sx16(c >> 16)) as u32 & 0xFFFF),
        ),
        ("v_med3_i16 vD, v1, v2, v3", |_, a, b, c| {
            let mut v = [sx16(a), sx16(b), sx16(c)];
            v.sort();
            keep_lo(v[1] as u32)
        }),
        (
            "v_med3_u16 vD, v1, v2, v3 op_sel:[1,1,1,0]",
            |_, a, b, c| {
                let mut v = [a >> 16, b >> 16, c >> 16];
                v.sort();
                keep_lo(v[1])
            },
        ),
        ("v_max3_u16 vD, v1, v2, v3", |_, a, b, c| {
            keep_lo((a & 0xFFFF).max(b & 0xFFFF).max(c & 0xFFFF))
        }),
        ("v_min3_i16 vD, v1, v2, v3", |_, a, b, c| {
            keep_lo(sx16(a).min(sx16(b)).min(sx16(c)) as u32 & 0xFFFF)
        }),
    ];
    for mcpu in ["gfx900", "gfx90a"] {
        table(mcpu, 9, cases);
        table(mcpu, 1234, cases);
    }
}

#[test]
fn dot_products_gfx90a() {
    fn dot(a: u32, b: u32, bits: u32, acc: u32) -> i64 {
        let n = 32 / bits;
        let f = |x: u32, i: u32| {
            let v = i64::from((x >> (i * bits)) & ((1 << bits) - 1));
            if v >> (bits - 1) & 1 == 1 {
                v - (1 << bits)
            } else {
                v
            }
        };
        (0..n).map(|i| f(a, i) * f(b, i)).sum::<i64>() + i64::from(acc as i32)
    }
    let s = Setup::new(21);
    let body = "  v_mov_b32 v10, v3\n  v_mov_b32 v11, v3\n  v_mov_b32 v12, v3\n  v_mov_b32 v13, v3\n  \
                v_dot2c_i32_i16 v10, v1, v2\n  v_dot4c_i32_i8 v11, v1, v2\n  v_dot8c_i32_i4 v12, v1, v2\n  \
                v_dot4c_i32_i8_e64 v13, v1, v2 clamp";
    let w = s.run("gfx90a", 10..14, body);
    check(&w, "dot2c", 10, |l| dot(s.a[l], s.b[l], 16, s.c[l]) as u32);
    check(&w, "dot4c", 11, |l| dot(s.a[l], s.b[l], 8, s.c[l]) as u32);
    check(&w, "dot8c", 12, |l| dot(s.a[l], s.b[l], 4, s.c[l]) as u32);
    check(&w, "dot4c clamp", 13, |l| {
        clamp_i32(dot(s.a[l], s.b[l], 8, s.c[l]))
    });
    let w = s.run("gfx90a", 10..12, "  v_xnor_b32 v10, v1, v2\n  v_accvgpr_write_b32 a5, v1\n  v_accvgpr_mov_b32 a6, a5\n  v_accvgpr_read_b32 v11, a6");
    check(&w, "xnor", 10, |l| !(s.a[l] ^ s.b[l]));
    for l in 0..64 {
        if EXEC >> l & 1 != 0 {
            assert_eq!(w.a[6][l], s.a[l], "accvgpr_mov lane {l}");
        }
    }
}

#[test]
fn carries_and_masks() {
    for mcpu in ["gfx900", "gfx90a"] {
        let s = Setup::new(17);
        let body = "  s_mov_b32 s50, 0x89abcdef\n  s_mov_b32 s51, 0xfedcba98\n  \
                    s_mov_b64 vcc, s[50:51]\n  v_addc_co_u32 v10, vcc, v1, v2, vcc\n  s_mov_b64 s[60:61], vcc\n  \
                    v_add_co_u32 v11, vcc, v1, v2\n  s_mov_b64 s[62:63], vcc\n  \
                    v_sub_co_u32_e64 v12, s[64:65], v1, v2\n  \
                    v_subrev_co_u32_e64 v13, s[66:67], v1, v2\n  \
                    v_subb_co_u32_e64 v14, s[68:69], v1, v2, s[50:51]\n  \
                    v_subbrev_co_u32_e64 v15, s[70:71], v1, v2, s[50:51]\n  \
                    v_add_co_u32_e64 v16, s[72:73], v1, v2 clamp\n  \
                    v_addc_co_u32_e64 v17, s[74:75], v1, v2, s[50:51]";
        let w = s.run(mcpu, 10..18, body);
        let cin = 0xFEDC_BA98_89AB_CDEFu64;
        let mut masks = [0u64; 8];
        for l in 0..64 {
            let (a, b) = (u64::from(s.a[l]), u64::from(s.b[l]));
            let c = cin >> l & 1;
            let results = [
                (a + b + c, (a + b + c) >> 32),
                (a + b, (a + b) >> 32),
                (a.wrapping_sub(b), u64::from(b > a)),
                (b.wrapping_sub(a), u64::from(a > b)),
                (a.wrapping_sub(b + c), u64::from(b + c > a)),
                (b.wrapping_sub(a + c), u64::from(a + c > b)),
                (
                    if a + b > 0xFFFF_FFFF {
                        0xFFFF_FFFF
                    } else {
                        a + b
                    },
                    (a + b) >> 32,
                ),
                (a + b + c, (a + b + c) >> 32),
            ];
            for (i, (v, co)) in results.iter().enumerate() {
                if EXEC >> l & 1 != 0 {
                    masks[i] |= co << l;
                    assert_eq!(w.v[10 + i][l], *v as u32, "{mcpu} op {i} lane {l}");
                } else {
                    assert_eq!(w.v[10 + i][l], MARK, "{mcpu} op {i} lane {l}");
                }
            }
        }
        for (i, sreg) in [60, 62, 64, 66, 68, 70, 72, 74].iter().enumerate() {
            let got = u64::from(w.s[*sreg]) | u64::from(w.s[sreg + 1]) << 32;
            assert_eq!(got, masks[i], "{mcpu} mask {i}");
        }
    }
}

#[test]
fn sixty_four_bit_ops() {
    for mcpu in ["gfx900", "gfx90a"] {
        let s = Setup::new(23);
        // gfx90a needs even-aligned register tuples: copy the inputs to
        // v32 = A, v33 = B, v34 = C, v35 = D, v36 = B, v37 = C.
        let body = "  v_mov_b32 v32, v1\n  v_mov_b32 v33, v2\n  v_mov_b32 v34, v3\n  \
                    v_mov_b32 v35, v4\n  v_mov_b32 v36, v2\n  v_mov_b32 v37, v3\n  \
                    v_lshlrev_b64 v[10:11], v1, v[36:37]\n  v_lshrrev_b64 v[12:13], v1, v[36:37]\n  \
                    v_ashrrev_i64 v[14:15], v1, v[36:37]\n  \
                    v_mad_u64_u32 v[16:17], s[60:61], v1, v2, v[34:35]\n  \
                    v_mad_i64_i32 v[18:19], s[62:63], v1, v2, v[34:35]\n  \
                    v_lshlrev_b64 v[20:21], 4, 1\n  \
                    v_qsad_pk_u16_u8 v[22:23], v[32:33], v3, v[34:35]\n  \
                    v_mqsad_pk_u16_u8 v[24:25], v[32:33], v3, v[34:35]\n  \
                    v_mqsad_u32_u8 v[26:29], v[32:33], v3, v[32:35]";
        let w = s.run(mcpu, 10..30, body);
        let pair =
            |lo: &[u32; 64], hi: &[u32; 64], l: usize| u64::from(lo[l]) | u64::from(hi[l]) << 32;
        let sad = |x: u64, y: u32, masked: bool| -> u64 {
            (0..4)
                .filter(|i| !masked || (y >> (8 * i)) & 0xFF != 0)
                .map(|i| ((x >> (8 * i)) & 0xFF).abs_diff(u64::from((y >> (8 * i)) & 0xFF)))
                .sum()
        };
        let (mut m1, mut m2) = (0u64, 0u64);
        for l in 0..64 {
            let on = EXEC >> l & 1 != 0;
            let get = |r: usize| pair(&w.v[r], &w.v[r + 1], l);
            let sh = s.a[l] % 64;
            let v = pair(&s.b, &s.c, l);
            let acc = pair(&s.c, &s.d, l);
            let prod_u = u128::from(s.a[l]) * u128::from(s.b[l]) + u128::from(acc);
            let prod_i =
                i128::from(s.a[l] as i32) * i128::from(s.b[l] as i32) + i128::from(acc as i64);
            let src0 = pair(&s.a, &s.b, l);
            let q = |masked: bool| -> u64 {
                (0..4)
                    .map(|i| {
                        ((sad(src0 >> (8 * i), s.c[l], masked) + ((acc >> (16 * i)) & 0xFFFF))
                            & 0xFFFF)
                            << (16 * i)
                    })
                    .sum()
            };
            let want = [
                (10, v.wrapping_shl(sh)),
                (12, v.wrapping_shr(sh)),
                (14, (v as i64).wrapping_shr(sh) as u64),
                (16, prod_u as u64),
                (18, prod_i as u64),
                (20, 16),
                (22, q(false)),
                (24, q(true)),
            ];
            for (r, x) in want {
                let exp = if on {
                    x
                } else {
                    u64::from(MARK) * 0x1_0000_0001
                };
                assert_eq!(get(r), exp, "{mcpu} v[{r}] lane {l}");
            }
            let regs = [s.a[l], s.b[l], s.c[l], s.d[l]];
            for (i, reg) in regs.iter().enumerate() {
                let exp = if on {
                    (sad(src0 >> (8 * i), s.c[l], true) as u32).wrapping_add(*reg)
                } else {
                    MARK
                };
                assert_eq!(w.v[26 + i][l], exp, "{mcpu} mqsad_u32 dword {i} lane {l}");
            }
            if on {
                m1 |= u64::from(prod_u >> 64 != 0) << l;
                m2 |= u64::from(prod_i != i128::from(prod_i as i64)) << l;
            }
        }
        assert_eq!(w.s64(60), m1, "{mcpu} mad_u64_u32 carry");
        assert_eq!(w.s64(62), m2, "{mcpu} mad_i64_i32 overflow");
    }
}

#[test]
fn lane_access() {
    for mcpu in ["gfx900", "gfx90a"] {
        let s = Setup::new(29);
        let body = "  v_readfirstlane_b32 s60, v1\n  v_readlane_b32 s61, v1, 37\n  \
                    s_mov_b32 s40, 69\n  v_readlane_b32 s62, v2, s40\n  \
                    s_mov_b32 m0, 16\n  v_readlane_b32 s63, v3, m0\n  \
                    s_mov_b32 s41, 0x4242\n  v_writelane_b32 v10, s41, 19\n  v_writelane_b32 v10, 7, 63\n  \
                    v_mov_b32 v11, v1\n  v_mov_b32 v12, v2\n  v_swap_b32 v11, v12\n  \
                    s_mov_b64 exec, 0\n  v_readfirstlane_b32 s64, v4";
        let w = s.run(mcpu, 10..13, body);
        assert_eq!(w.s[60], s.a[EXEC.trailing_zeros() as usize], "{mcpu}");
        assert_eq!(w.s[61], s.a[37], "{mcpu}");
        assert_eq!(w.s[62], s.b[5], "{mcpu}");
        assert_eq!(w.s[63], s.c[16], "{mcpu}");
        assert_eq!(w.s[64], s.d[0], "{mcpu}");
        for l in 0..64 {
            // writelane ignores EXEC (lane 19 is disabled here).
            let exp = match l {
                19 => 0x4242,
                63 => 7,
                _ => MARK,
            };
            assert_eq!(w.v[10][l], exp, "{mcpu} writelane lane {l}");
        }
        check(&w, "swap a", 11, |l| s.b[l]);
        check(&w, "swap b", 12, |l| s.a[l]);
    }
}

// ---------------------------------------------------------------------------
// DPP.

/// Independent model of a DPP control: the lane `l` reads, if any.
fn dpp_model(ctrl: &str, l: usize) -> Option<usize> {
    let (row, x) = (l / 16, l % 16);
    let (name, n) = ctrl.split_once(':').unwrap_or((ctrl, "0"));
    let n: usize = n.parse().unwrap_or(0);
    match name {
        "quad_perm" => {
            let sel: Vec<usize> = n_list(ctrl);
            Some(l / 4 * 4 + sel[l % 4])
        }
        "row_shl" => (x + n <= 15).then(|| l + n),
        "row_shr" => (x >= n).then(|| l - n),
        "row_ror" => Some(row * 16 + (x + 16 - n) % 16),
        "wave_shl" => (l != 63).then(|| l + 1),
        "wave_shr" => (l != 0).then(|| l - 1),
        "wave_rol" => Some((l + 1) % 64),
        "wave_ror" => Some((l + 63) % 64),
        "row_mirror" => Some(row * 16 + 15 - x),
        "row_half_mirror" => Some(l / 8 * 8 + 7 - l % 8),
        "row_bcast" if n == 15 => (row >= 1).then(|| row * 16 - 1),
        "row_bcast" => (row >= 2).then_some(31),
        "row_newbcast" => Some(row * 16 + n),
        _ => panic!("{ctrl}"),
    }
}

fn n_list(ctrl: &str) -> Vec<usize> {
    let inner = ctrl.split_once('[').unwrap().1.trim_end_matches(']');
    inner
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect()
}

/// Runs `v_mov_b32_dpp` / `v_add_u32_dpp` with each control and masks, and
/// checks against the model: a lane is written when EXEC, its row and bank
/// are enabled and (without bound_ctrl) its source lane is valid (in range
/// and in EXEC); an invalid source reads 0 with bound_ctrl.
fn dpp_case(mcpu: &str, ctrl: &str, row_mask: u32, bank_mask: u32, bound: bool) {
    let s = Setup::new(31);
    let extra = format!(
        "row_mask:{row_mask:#x} bank_mask:{bank_mask:#x}{}",
        if bound { " bound_ctrl:0" } else { "" }
    );
    let body = format!(
        "  v_mov_b32_dpp v10, v1 {ctrl} {extra}\n  v_add_u32_dpp v11, v1, v2 {ctrl} {extra}\n  \
         v_subrev_co_u32_dpp v12, vcc, v1, v2 {ctrl} {extra}\n  s_mov_b64 s[60:61], vcc"
    );
    let w = s.run(mcpu, 10..13, &body);
    let mut borrow = 0u64;
    for l in 0..64 {
        let src = dpp_model(ctrl, l).filter(|&sl| EXEC >> sl & 1 != 0);
        let enabled = EXEC >> l & 1 != 0
            && row_mask >> (l / 16) & 1 != 0
            && bank_mask >> (l % 16 / 4) & 1 != 0
            && (bound || src.is_some());
        let a = src.map_or(0, |sl| s.a[sl]);
        let what = format!("{mcpu} {ctrl} {extra} lane {l}");
        let want = |v: u32| if enabled { v } else { MARK };
        assert_eq!(w.v[10][l], want(a), "mov {what}");
        assert_eq!(w.v[11][l], want(a.wrapping_add(s.b[l])), "add {what}");
        assert_eq!(w.v[12][l], want(s.b[l].wrapping_sub(a)), "subrev {what}");
        if enabled && a > s.b[l] {
            borrow |= 1 << l;
        }
    }
    assert_eq!(w.s64(60), borrow, "{mcpu} {ctrl} {extra} borrow mask");
}

#[test]
fn dpp_controls() {
    for mcpu in ["gfx900", "gfx90a"] {
        for ctrl in [
            "quad_perm:[3,2,1,0]",
            "quad_perm:[1,1,0,2]",
            "row_shl:1",
            "row_shl:15",
            "row_shr:3",
            "row_ror:5",
            "wave_shl:1",
            "wave_shr:1",
            "wave_rol:1",
            "wave_ror:1",
            "row_mirror",
            "row_half_mirror",
            "row_bcast:15",
            "row_bcast:31",
        ] {
            dpp_case(mcpu, ctrl, 0xF, 0xF, false);
            dpp_case(mcpu, ctrl, 0xF, 0xF, true);
        }
        dpp_case(mcpu, "row_shr:1", 0x5, 0xF, true);
        dpp_case(mcpu, "row_ror:7", 0xF, 0x6, false);
        dpp_case(mcpu, "row_bcast:15", 0xA, 0xF, false);
        dpp_case(mcpu, "row_bcast:31", 0xC, 0xF, true);
        dpp_case(mcpu, "quad_perm:[0,0,0,0]", 0xE, 0x9, false);
    }
    dpp_case("gfx90a", "row_newbcast:5", 0xF, 0xF, false);
    dpp_case("gfx90a", "row_newbcast:15", 0x7, 0xB, true);
}

// ---------------------------------------------------------------------------
// SDWA.

fn sel(v: u32, s: &str, sext: bool) -> u32 {
    let (shift, bits) = match s {
        "BYTE_0" => (0, 8),
        "BYTE_1" => (8, 8),
        "BYTE_2" => (16, 8),
        "BYTE_3" => (24, 8),
        "WORD_0" => (0, 16),
        "WORD_1" => (16, 16),
        _ => return v,
    };
    let f = (v >> shift) & ((1 << bits) - 1);
    if sext && f >> (bits - 1) == 1 {
        f | (u32::MAX << bits)
    } else {
        f
    }
}

fn place(v: u32, old: u32, s: &str, unused: &str) -> u32 {
    let (shift, bits) = match s {
        "BYTE_0" => (0, 8),
        "BYTE_1" => (8, 8),
        "BYTE_2" => (16, 8),
        "BYTE_3" => (24, 8),
        "WORD_0" => (0, 16),
        "WORD_1" => (16, 16),
        _ => return v,
    };
    let fmask: u32 = (1 << bits) - 1;
    let field = (v & fmask) << shift;
    match unused {
        "UNUSED_PRESERVE" => old & !(fmask << shift) | field,
        "UNUSED_SEXT" => {
            let top = shift + bits;
            if v >> (bits - 1) & 1 == 1 && top < 32 {
                field | u32::MAX << top
            } else {
                field
            }
        }
        _ => field,
    }
}

#[test]
fn sdwa_selects() {
    let sels = [
        "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
    ];
    let unused = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];
    for mcpu in ["gfx900", "gfx90a"] {
        let s = Setup::new(37);
        // Cases: (dst_sel, dst_unused, src0_sel, src1_sel, sext0, sext1).
        let mut cases = Vec::new();
        for (i, d) in sels.iter().enumerate() {
            let u = unused[i % 3];
            cases.push((
                *d,
                u,
                sels[(i + 1) % 7],
                sels[(i + 3) % 7],
                i % 2 == 0,
                i % 3 == 0,
            ));
            cases.push((
                *d,
                unused[(i + 1) % 3],
                sels[(i + 5) % 7],
                sels[i],
                false,
                true,
            ));
            cases.push((
                *d,
                unused[(i + 2) % 3],
                sels[(i + 2) % 7],
                "DWORD",
                true,
                false,
            ));
        }
        let mut body = String::new();
        for (i, (d, u, s0, s1, x0, x1)) in cases.iter().enumerate() {
            let a = if *x0 { "sext(v1)" } else { "v1" };
            let b = if *x1 { "sext(v2)" } else { "v2" };
            body += &format!(
                "  v_add_u32_sdwa v{}, {a}, {b} dst_sel:{d} dst_unused:{u} src0_sel:{s0} src1_sel:{s1}\n",
                10 + i
            );
        }
        let n = cases.len() as u32;
        // Unary, SGPR source, clamp and a 16-bit op.
        body += &format!(
            "  v_mov_b32_sdwa v{}, v1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:WORD_1\n\
             s_mov_b32 s44, 0x9876fedc\n  v_sub_u32_sdwa v{}, s44, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:BYTE_0\n\
             v_add_u32_sdwa v{}, v1, v2 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\n\
             v_mul_lo_u16_sdwa v{}, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:WORD_1\n\
             v_not_b32_sdwa v{}, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0\n",
            10 + n,
            11 + n,
            12 + n,
            13 + n,
            14 + n
        );
        let w = s.run(mcpu, 10..15 + n, &body);
        for (i, (d, u, s0, s1, x0, x1)) in cases.iter().enumerate() {
            check(
                &w,
                &format!("{mcpu} sdwa {d} {u} {s0}{x0} {s1}{x1}"),
                10 + i,
                |l| {
                    let r = sel(s.a[l], s0, *x0).wrapping_add(sel(s.b[l], s1, *x1));
                    place(r, MARK, d, u)
                },
            );
        }
        let n = n as usize;
        check(&w, "mov_sdwa", 10 + n, |l| {
            place(s.a[l] >> 16, MARK, "BYTE_1", "UNUSED_SEXT")
        });
        check(&w, "sub_sdwa sgpr", 11 + n, |l| {
            place(
                0x76u32.wrapping_sub(s.b[l] & 0xFF),
                MARK,
                "WORD_1",
                "UNUSED_PRESERVE",
            )
        });
        check(&w, "add_sdwa clamp", 12 + n, |l| {
            s.a[l].saturating_add(s.b[l])
        });
        check(&w, "mul_lo_u16_sdwa", 13 + n, |l| {
            (((s.a[l] >> 24) * (s.b[l] >> 16)) & 0xFFFF) << 16
        });
        check(&w, "not_sdwa sext", 14 + n, |l| {
            !sel(s.a[l], "BYTE_0", true)
        });
    }
}
