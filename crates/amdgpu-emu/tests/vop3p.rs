//! VOP3P packed math, mixed precision, dot products, packed f32 and the
//! AccVGPR moves, run through `run_asm` and checked lane by lane against
//! references computed here: bit selection in plain Rust, float rounding
//! with `rustc_apfloat` (IEEE round-to-nearest-even, exact).

// Lane loops index several per-lane arrays at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;
use rustc_apfloat::ieee::{Half, Single};
use rustc_apfloat::{Float, FloatConvert};

/// Runs `body` on one wave of `mcpu` after loading `inputs[r]` (one dword
/// per lane) into `v(10 + r)`.
fn run(mcpu: &str, inputs: &[[u32; 64]], body: &str) -> Wave {
    let mem = Arc::new(Memory::new());
    let buf = mem.allocate(256 * inputs.len().max(1) as u64, 256).unwrap();
    let bytes: Vec<u8> = inputs
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    mem.write(buf, &bytes).unwrap();
    let mut src = String::from(
        "  s_load_dwordx2 s[8:9], s[4:5], 0x0\n  s_waitcnt lgkmcnt(0)\n  v_add_u32 v200, v0, v0\n  v_add_u32 v200, v200, v200\n",
    );
    for r in 0..inputs.len() {
        src += &format!(
            "  v_add_u32 v201, {}, v200\n  global_load_dword v{}, v201, s[8:9]\n",
            256 * r,
            10 + r
        );
    }
    src += "  s_waitcnt vmcnt(0)\n";
    src += body;
    let waves = run_asm(&AsmKernel::new(mcpu), &src, &mem, &buf.to_le_bytes())
        .unwrap_or_else(|e| panic!("{mcpu}: {e}\n{body}"));
    waves.into_iter().next().unwrap()
}

/// Deterministic pseudo-random numbers.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }
}

/// An f16 with exponent in [2^-3, 2^4) and random sign and mantissa.
fn moderate_f16(r: &mut Lcg) -> u16 {
    let x = r.next();
    let exp = 12 + (x >> 10) % 7;
    ((x >> 20 & 1) << 15 | exp << 10 | (x & 0x3ff)) as u16
}

/// An f32 with exponent in [2^-3, 2^4) and random sign and mantissa.
fn moderate_f32(r: &mut Lcg) -> u32 {
    let x = r.next();
    let exp = 124 + (r.next() % 7);
    (x & 0x8000_0000) | exp << 23 | (x & 0x7f_ffff)
}

/// Lanes of two moderate f16 values.
fn f16_pairs(seed: u64) -> [u32; 64] {
    let mut r = Lcg(seed);
    std::array::from_fn(|_| u32::from(moderate_f16(&mut r)) | u32::from(moderate_f16(&mut r)) << 16)
}

/// Lanes of moderate f32 values.
fn f32s(seed: u64) -> [u32; 64] {
    let mut r = Lcg(seed);
    std::array::from_fn(|_| moderate_f32(&mut r))
}

/// Lanes of random dwords, with edge values in the first lanes.
fn ints(seed: u64) -> [u32; 64] {
    const EDGE: [u32; 10] = [
        0,
        0xffff_ffff,
        0x8000_8000,
        0x7fff_7fff,
        0x0001_0001,
        0xffff_0000,
        0x8000_7fff,
        0x0010_000f,
        0x1234_5678,
        0x7f80_80ff,
    ];
    let mut r = Lcg(seed);
    std::array::from_fn(|l| {
        let x = r.next();
        if l < EDGE.len() {
            EDGE[(l + seed as usize) % EDGE.len()]
        } else {
            x
        }
    })
}

fn h(x: u16) -> Half {
    Half::from_bits(u128::from(x))
}

fn s(x: u32) -> Single {
    Single::from_bits(u128::from(x))
}

fn hb(x: Half) -> u16 {
    x.to_bits() as u16
}

fn sb(x: Single) -> u32 {
    x.to_bits() as u32
}

/// f16 → f32 (exact).
fn widen(x: u16) -> u32 {
    let mut loses = false;
    let r: Single = h(x).convert(&mut loses).value;
    assert!(!loses);
    sb(r)
}

/// f32 → f16, round to nearest even.
fn narrow(x: u32) -> u16 {
    let mut loses = false;
    hb(s(x).convert(&mut loses).value)
}

/// The packed-math operand halves for one result half: source k's high half
/// when bit k of `sel` is set, sign flipped when bit k of `neg` is.
fn pick<const N: usize>(src: [u32; N], sel: u8, neg: u8) -> [u16; N] {
    std::array::from_fn(|k| {
        let half = if sel >> k & 1 != 0 {
            src[k] >> 16
        } else {
            src[k]
        } as u16;
        if neg >> k & 1 != 0 {
            half ^ 0x8000
        } else {
            half
        }
    })
}

/// `[b0,b1,…]` of the low `n` bits of `v`.
fn bits(v: u8, n: usize) -> String {
    let b: Vec<String> = (0..n).map(|k| (v >> k & 1).to_string()).collect();
    format!("[{}]", b.join(","))
}

/// op_sel, op_sel_hi, neg_lo, neg_hi combinations to try.
const MODS: [(u8, u8, u8, u8); 6] = [
    (0, 7, 0, 0),
    (1, 7, 0, 0),
    (2, 5, 0, 0),
    (7, 0, 0, 0),
    (5, 2, 1, 6),
    (0, 7, 7, 5),
];

/// Checks a packed 16-bit instruction with `N` sources over the modifier
/// combinations (`float` adds neg_lo/neg_hi) against `f`.
fn check_packed<const N: usize>(
    mcpu: &str,
    mnemonic: &str,
    inputs: [[u32; 64]; N],
    float: bool,
    clamp: bool,
    f: impl Fn([u16; N]) -> u16,
) {
    let mut body = String::new();
    let srcs: Vec<String> = (0..N).map(|k| format!("v{}", 10 + k)).collect();
    for (t, &(op_sel, op_sel_hi, neg_lo, neg_hi)) in MODS.iter().enumerate() {
        let mut mods = format!(
            " op_sel:{} op_sel_hi:{}",
            bits(op_sel, N),
            bits(op_sel_hi, N)
        );
        if float {
            mods += &format!(" neg_lo:{} neg_hi:{}", bits(neg_lo, N), bits(neg_hi, N));
        }
        if clamp {
            mods += " clamp";
        }
        body += &format!("  {mnemonic} v{}, {}{mods}\n", 100 + t, srcs.join(", "));
    }
    let w = run(mcpu, &inputs, &body);
    for (t, &(op_sel, op_sel_hi, neg_lo, neg_hi)) in MODS.iter().enumerate() {
        let (neg_lo, neg_hi) = if float { (neg_lo, neg_hi) } else { (0, 0) };
        for l in 0..64 {
            let src: [u32; N] = std::array::from_fn(|k| inputs[k][l]);
            let lo = f(pick(src, op_sel, neg_lo));
            let hi = f(pick(src, op_sel_hi, neg_hi));
            let want = u32::from(lo) | u32::from(hi) << 16;
            assert_eq!(
                w.v[100 + t][l],
                want,
                "{mnemonic} mods #{t} lane {l}: inputs {src:08x?}"
            );
        }
    }
}

#[test]
fn packed_f16_arithmetic_with_op_sel_and_neg() {
    let (a, b, c) = (f16_pairs(1), f16_pairs(2), f16_pairs(3));
    check_packed("gfx900", "v_pk_add_f16", [a, b], true, false, |[x, y]| {
        hb((h(x) + h(y)).value)
    });
    check_packed("gfx900", "v_pk_mul_f16", [a, b], true, false, |[x, y]| {
        hb((h(x) * h(y)).value)
    });
    check_packed(
        "gfx900",
        "v_pk_fma_f16",
        [a, b, c],
        true,
        false,
        |[x, y, z]| hb(h(x).mul_add(h(y), h(z)).value),
    );
    check_packed(
        "gfx90a",
        "v_pk_fma_f16",
        [a, b, c],
        true,
        false,
        |[x, y, z]| hb(h(x).mul_add(h(y), h(z)).value),
    );
}

/// Clamps an f16 to [0, 1].
fn clamp_ref(x: u16) -> u16 {
    if x & 0x8000 != 0 { 0 } else { x.min(0x3c00) }
}

#[test]
fn packed_f16_clamp() {
    let (a, b) = (f16_pairs(4), f16_pairs(5));
    check_packed("gfx900", "v_pk_mul_f16", [a, b], true, true, |[x, y]| {
        clamp_ref(hb((h(x) * h(y)).value))
    });
    check_packed("gfx906", "v_pk_add_f16", [a, b], true, true, |[x, y]| {
        clamp_ref(hb((h(x) + h(y)).value))
    });
}

#[test]
fn packed_f16_min_max_specials() {
    // (a, b, min, max) per half: NaN loses to a number, -0 < +0.
    const CASES: [(u16, u16, u16, u16); 8] = [
        (0x3c00, 0x4000, 0x3c00, 0x4000),
        (0x8000, 0x0000, 0x8000, 0x0000),
        (0x0000, 0x8000, 0x8000, 0x0000),
        (0x7e00, 0x3c00, 0x3c00, 0x3c00),
        (0xbc00, 0x7e00, 0xbc00, 0xbc00),
        (0xfc00, 0x7c00, 0xfc00, 0x7c00),
        (0xc500, 0xc400, 0xc500, 0xc400),
        (0x0001, 0x8001, 0x8001, 0x0001),
    ];
    let mut a = [0u32; 64];
    let mut b = [0u32; 64];
    for l in 0..64 {
        let (x0, y0, _, _) = CASES[l % 8];
        let (x1, y1, _, _) = CASES[(l / 8) % 8];
        a[l] = u32::from(x0) | u32::from(x1) << 16;
        b[l] = u32::from(y0) | u32::from(y1) << 16;
    }
    let w = run(
        "gfx900",
        &[a, b],
        "  v_pk_min_f16 v20, v10, v11\n  v_pk_max_f16 v21, v10, v11\n  v_pk_max_f16 v22, v10, v11 op_sel:[1,0] op_sel_hi:[0,1]\n",
    );
    for l in 0..64 {
        let (lo, hi) = (CASES[l % 8], CASES[(l / 8) % 8]);
        assert_eq!(
            w.v[20][l],
            u32::from(lo.2) | u32::from(hi.2) << 16,
            "min lane {l}"
        );
        assert_eq!(
            w.v[21][l],
            u32::from(lo.3) | u32::from(hi.3) << 16,
            "max lane {l}"
        );
        // Low: max(a.hi, b.lo); high: max(a.lo, b.hi).
        let mx = |x: u16, y: u16| CASES.iter().find(|c| c.0 == x && c.1 == y).map(|c| c.3);
        if let (Some(r0), Some(r1)) = (mx(hi.0, lo.1), mx(lo.0, hi.1)) {
            assert_eq!(
                w.v[22][l],
                u32::from(r0) | u32::from(r1) << 16,
                "max sel lane {l}"
            );
        }
    }
}

#[test]
fn packed_integer_arithmetic() {
    let (a, b, c) = (ints(1), ints(2), ints(3));
    for mcpu in ["gfx900", "gfx90a"] {
        check_packed(mcpu, "v_pk_add_u16", [a, b], false, false, |[x, y]| {
            x.wrapping_add(y)
        });
        check_packed(mcpu, "v_pk_add_u16", [a, b], false, true, |[x, y]| {
            x.saturating_add(y)
        });
        check_packed(mcpu, "v_pk_add_i16", [a, b], false, false, |[x, y]| {
            x.wrapping_add(y)
        });
        check_packed(mcpu, "v_pk_add_i16", [a, b], false, true, |[x, y]| {
            (x as i16).saturating_add(y as i16) as u16
        });
        check_packed(mcpu, "v_pk_sub_u16", [a, b], false, false, |[x, y]| {
            x.wrapping_sub(y)
        });
        check_packed(mcpu, "v_pk_sub_u16", [a, b], false, true, |[x, y]| {
            x.saturating_sub(y)
        });
        check_packed(mcpu, "v_pk_sub_i16", [a, b], false, false, |[x, y]| {
            x.wrapping_sub(y)
        });
        check_packed(mcpu, "v_pk_sub_i16", [a, b], false, true, |[x, y]| {
            (x as i16).saturating_sub(y as i16) as u16
        });
        check_packed(mcpu, "v_pk_mul_lo_u16", [a, b], false, false, |[x, y]| {
            (u32::from(x) * u32::from(y)) as u16
        });
    }
    check_packed(
        "gfx900",
        "v_pk_mad_u16",
        [a, b, c],
        false,
        false,
        |[x, y, z]| (u64::from(x) * u64::from(y) + u64::from(z)) as u16,
    );
    check_packed(
        "gfx900",
        "v_pk_mad_u16",
        [a, b, c],
        false,
        true,
        |[x, y, z]| (u64::from(x) * u64::from(y) + u64::from(z)).min(0xffff) as u16,
    );
    check_packed(
        "gfx900",
        "v_pk_mad_i16",
        [a, b, c],
        false,
        false,
        |[x, y, z]| (i64::from(x as i16) * i64::from(y as i16) + i64::from(z as i16)) as u16,
    );
    check_packed(
        "gfx900",
        "v_pk_mad_i16",
        [a, b, c],
        false,
        true,
        |[x, y, z]| {
            (i64::from(x as i16) * i64::from(y as i16) + i64::from(z as i16)).clamp(-32768, 32767)
                as u16
        },
    );
}

#[test]
fn packed_integer_min_max_and_shifts() {
    let (a, b) = (ints(7), ints(8));
    check_packed("gfx900", "v_pk_min_u16", [a, b], false, false, |[x, y]| {
        x.min(y)
    });
    check_packed("gfx900", "v_pk_max_u16", [a, b], false, false, |[x, y]| {
        x.max(y)
    });
    check_packed("gfx900", "v_pk_min_i16", [a, b], false, false, |[x, y]| {
        (x as i16).min(y as i16) as u16
    });
    check_packed("gfx900", "v_pk_max_i16", [a, b], false, false, |[x, y]| {
        (x as i16).max(y as i16) as u16
    });
    // Shift amounts are taken modulo 16 (the edge lanes shift by 0x8000,
    // 0xffff, 0x7fff, …).
    check_packed(
        "gfx900",
        "v_pk_lshlrev_b16",
        [a, b],
        false,
        false,
        |[s, v]| ((u32::from(v) << (s % 16)) & 0xffff) as u16,
    );
    check_packed(
        "gfx900",
        "v_pk_lshrrev_b16",
        [a, b],
        false,
        false,
        |[s, v]| v >> (s % 16),
    );
    check_packed(
        "gfx900",
        "v_pk_ashrrev_i16",
        [a, b],
        false,
        false,
        |[s, v]| ((v as i16) >> (s % 16)) as u16,
    );
}

#[test]
fn packed_constants_sgprs_and_partial_exec() {
    let (a, b) = (f16_pairs(9), ints(10));
    let w = run(
        "gfx900",
        &[a, b],
        "  v_pk_add_f16 v20, v10, 1.0\n\
         v_pk_add_f16 v21, v10, 1.0 op_sel_hi:[1,0]\n\
         v_pk_add_u16 v22, v11, -1\n\
         v_pk_add_u16 v23, v11, 5\n\
         s_mov_b32 s20, 0x40003c00\n\
         v_pk_mul_f16 v24, v10, s20 op_sel:[0,1] op_sel_hi:[1,0]\n\
         v_mov_b32 v25, v11\n\
         s_mov_b32 exec_hi, 0\n\
         v_pk_sub_u16 v25, v11, v10\n\
         s_mov_b32 exec_hi, -1\n",
    );
    for l in 0..64 {
        let (lo, hi) = (a[l] as u16, (a[l] >> 16) as u16);
        let add = |x: u16, y: u16| u32::from(hb((h(x) + h(y)).value));
        // 1.0 is 0x3c00 in the low half and 0 in the high half.
        assert_eq!(
            w.v[20][l],
            add(lo, 0x3c00) | add(hi, 0) << 16,
            "v20 lane {l}"
        );
        assert_eq!(
            w.v[21][l],
            add(lo, 0x3c00) | add(hi, 0x3c00) << 16,
            "v21 lane {l}"
        );
        // -1 is 0xffff_ffff: both halves.
        let (x, y) = (b[l] as u16, (b[l] >> 16) as u16);
        assert_eq!(
            w.v[22][l],
            u32::from(x.wrapping_sub(1)) | u32::from(y.wrapping_sub(1)) << 16
        );
        assert_eq!(
            w.v[23][l],
            u32::from(x.wrapping_add(5)) | u32::from(y) << 16,
            "5 has a zero high half, lane {l}"
        );
        let mul = |x: u16, y: u16| u32::from(hb((h(x) * h(y)).value));
        assert_eq!(
            w.v[24][l],
            mul(lo, 0x4000) | mul(hi, 0x3c00) << 16,
            "v24 lane {l}"
        );
        let want = if l < 32 {
            let (p, q) = (a[l] as u16, (a[l] >> 16) as u16);
            u32::from(x.wrapping_sub(p)) | u32::from(y.wrapping_sub(q)) << 16
        } else {
            b[l]
        };
        assert_eq!(w.v[25][l], want, "partial exec lane {l}");
    }
}

/// Mix operand: f16 (half by `sel`) when `is16`, else the f32 dword; abs
/// then neg.
fn mix_operand(x: u32, is16: bool, sel: bool, abs: bool, neg: bool) -> u32 {
    let v = if is16 {
        widen((if sel { x >> 16 } else { x }) as u16)
    } else {
        x
    };
    let v = if abs { v & 0x7fff_ffff } else { v };
    if neg { v ^ 0x8000_0000 } else { v }
}

/// (op_sel, op_sel_hi, neg, abs) combinations for the mix instructions.
const MIX_MODS: [(u8, u8, u8, u8); 5] = [
    (0, 7, 0, 0),
    (5, 7, 1, 0),
    (2, 3, 0, 4),
    (0, 0, 2, 1),
    (7, 6, 4, 2),
];

/// Mix source syntax with neg/abs.
fn mix_src(reg: usize, neg: bool, abs: bool) -> String {
    let r = format!("v{reg}");
    let r = if abs { format!("|{r}|") } else { r };
    if neg { format!("-{r}") } else { r }
}

/// Checks a mix instruction (`kind` 0: f32, 1: lo, 2: hi) against
/// `f(a, b, c)` on f32 operands.
fn check_mix(mcpu: &str, mnemonic: &str, kind: u8, f: impl Fn(u32, u32, u32) -> u32) {
    // v10, v11: f16 pairs; v12: f32; v13: f32; v14: old destination bits.
    let inputs = [f16_pairs(21), f16_pairs(22), f32s(23), f32s(24), ints(25)];
    let mut body = String::new();
    for (t, &(op_sel, op_sel_hi, neg, abs)) in MIX_MODS.iter().enumerate() {
        // A source is f16 (v10/v11) when its op_sel_hi bit is set, else f32.
        let regs: Vec<String> = (0..3)
            .map(|k| {
                let reg = if op_sel_hi >> k & 1 != 0 {
                    10 + k % 2
                } else {
                    12 + k % 2
                };
                mix_src(reg, neg >> k & 1 != 0, abs >> k & 1 != 0)
            })
            .collect();
        body += &format!("  v_mov_b32 v{}, v14\n", 100 + t);
        body += &format!(
            "  {mnemonic} v{}, {} op_sel:{} op_sel_hi:{}\n",
            100 + t,
            regs.join(", "),
            bits(op_sel, 3),
            bits(op_sel_hi, 3)
        );
    }
    let w = run(mcpu, &inputs, &body);
    for (t, &(op_sel, op_sel_hi, neg, abs)) in MIX_MODS.iter().enumerate() {
        for l in 0..64 {
            let ops: Vec<u32> = (0..3)
                .map(|k| {
                    let is16 = op_sel_hi >> k & 1 != 0;
                    let reg = if is16 { k % 2 } else { 2 + k % 2 };
                    mix_operand(
                        inputs[reg][l],
                        is16,
                        op_sel >> k & 1 != 0,
                        abs >> k & 1 != 0,
                        neg >> k & 1 != 0,
                    )
                })
                .collect();
            let r = f(ops[0], ops[1], ops[2]);
            let old = inputs[4][l];
            let want = match kind {
                0 => r,
                1 => old & 0xffff_0000 | u32::from(narrow(r)),
                _ => old & 0xffff | u32::from(narrow(r)) << 16,
            };
            assert_eq!(w.v[100 + t][l], want, "{mnemonic} #{t} lane {l}");
        }
    }
}

#[test]
fn fma_mix_is_fused_and_mad_mix_rounds_the_product() {
    let fma = |a, b, c| sb(s(a).mul_add(s(b), s(c)).value);
    let mad = |a, b, c| sb((s(sb((s(a) * s(b)).value)) + s(c)).value);
    check_mix("gfx906", "v_fma_mix_f32", 0, fma);
    check_mix("gfx906", "v_fma_mixlo_f16", 1, fma);
    check_mix("gfx906", "v_fma_mixhi_f16", 2, fma);
    check_mix("gfx90a", "v_fma_mix_f32", 0, fma);
    check_mix("gfx900", "v_mad_mix_f32", 0, mad);
    check_mix("gfx900", "v_mad_mixlo_f16", 1, mad);
    check_mix("gfx900", "v_mad_mixhi_f16", 2, mad);
    // The two differ: with a = b = 1 + 2^-12 (f32) and c = -1 the product
    // 1 + 2^-11 + 2^-24 is a tie that rounds to 1 + 2^-11 unfused; fused
    // keeps the 2^-24 term.
    let (one_ulp, neg_one) = (0x3f80_0800u32, 0xbf80_0000u32);
    assert_eq!(mad(one_ulp, one_ulp, neg_one), 0x3a00_0000);
    assert_eq!(fma(one_ulp, one_ulp, neg_one), 0x3a00_0400);
    assert_ne!(
        fma(one_ulp, one_ulp, neg_one),
        mad(one_ulp, one_ulp, neg_one)
    );
    let w = run(
        "gfx906",
        &[[one_ulp; 64], [neg_one; 64]],
        "  v_fma_mix_f32 v20, v10, v10, v11\n",
    );
    assert_eq!(w.v[20][0], fma(one_ulp, one_ulp, neg_one));
    let w = run(
        "gfx900",
        &[[one_ulp; 64], [neg_one; 64]],
        "  v_mad_mix_f32 v20, v10, v10, v11\n  v_mad_mix_f32 v21, v10, v10, v11 op_sel_hi:[0,0,0] clamp\n",
    );
    assert_eq!(w.v[20][0], mad(one_ulp, one_ulp, neg_one));
    assert_eq!(w.v[21][0], 0x3a00_0000, "2^-11, within [0, 1]");
}

/// Integer dot product reference: `n` fields of `bits` bits.
fn dot_ref(a: u32, b: u32, c: u32, n: u32, bits: u32, signed: bool, clamp: bool) -> u32 {
    let field = |x: u32, e: u32| -> i64 {
        let v = (x >> (e * bits)) & ((1u32 << bits) - 1);
        if signed && v >> (bits - 1) & 1 != 0 {
            i64::from(v) - (1i64 << bits)
        } else {
            i64::from(v)
        }
    };
    let mut sum = if signed {
        i64::from(c as i32)
    } else {
        i64::from(c)
    };
    for e in 0..n {
        sum += field(a, e) * field(b, e);
    }
    match (clamp, signed) {
        (true, true) => sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
        (true, false) => sum.clamp(0, i64::from(u32::MAX)) as u32,
        _ => sum as u32,
    }
}

#[test]
fn integer_dot_products_wrap_or_saturate() {
    let (a, b) = (ints(31), ints(32));
    let mut c = ints(33);
    c[60] = 0x7fff_fff0;
    c[61] = 0x8000_0005;
    c[62] = 0xffff_fff0;
    let mut a = a;
    let mut b = b;
    for l in 60..63 {
        a[l] = 0x7f7f_7f7f;
        b[l] = if l == 61 { 0x8181_8181 } else { 0x7f7f_7f7f };
    }
    const OPS: [(&str, u32, u32, bool); 6] = [
        ("v_dot2_i32_i16", 2, 16, true),
        ("v_dot2_u32_u16", 2, 16, false),
        ("v_dot4_i32_i8", 4, 8, true),
        ("v_dot4_u32_u8", 4, 8, false),
        ("v_dot8_i32_i4", 8, 4, true),
        ("v_dot8_u32_u4", 8, 4, false),
    ];
    let mut body = String::new();
    for (t, (mn, ..)) in OPS.iter().enumerate() {
        body += &format!("  {mn} v{}, v10, v11, v12\n", 100 + 2 * t);
        body += &format!("  {mn} v{}, v10, v11, v12 clamp\n", 101 + 2 * t);
    }
    for mcpu in ["gfx906", "gfx90a"] {
        let w = run(mcpu, &[a, b, c], &body);
        for (t, &(mn, n, bits, signed)) in OPS.iter().enumerate() {
            for l in 0..64 {
                let plain = dot_ref(a[l], b[l], c[l], n, bits, signed, false);
                let sat = dot_ref(a[l], b[l], c[l], n, bits, signed, true);
                assert_eq!(w.v[100 + 2 * t][l], plain, "{mcpu} {mn} lane {l}");
                assert_eq!(w.v[101 + 2 * t][l], sat, "{mcpu} {mn} clamp lane {l}");
            }
        }
    }
}

#[test]
fn dot2_f32_f16_is_an_fma_chain_with_neg_modifiers() {
    let (a, b, c) = (f16_pairs(41), f16_pairs(42), f32s(43));
    // (neg_lo, neg_hi, op_sel, op_sel_hi)
    const M: [(u8, u8, u8, u8); 4] = [(0, 0, 0, 3), (5, 2, 0, 3), (2, 1, 1, 2), (7, 3, 3, 0)];
    let mut body = String::new();
    for (t, &(nl, nh, os, oh)) in M.iter().enumerate() {
        body += &format!(
            "  v_dot2_f32_f16 v{}, v10, v11, v12 op_sel:{} op_sel_hi:{} neg_lo:{} neg_hi:{}\n",
            100 + t,
            bits(os, 3),
            bits(oh | 4, 3),
            bits(nl, 3),
            bits(nh, 3)
        );
    }
    let w = run("gfx906", &[a, b, c], &body);
    for (t, &(nl, nh, os, oh)) in M.iter().enumerate() {
        for l in 0..64 {
            let lo = pick([a[l], b[l]], os, nl);
            let hi = pick([a[l], b[l]], oh, nh);
            let mut acc = c[l];
            if nh & 4 != 0 {
                acc &= 0x7fff_ffff;
            }
            if nl & 4 != 0 {
                acc ^= 0x8000_0000;
            }
            let r0 = s(widen(lo[0])).mul_add(s(widen(lo[1])), s(acc)).value;
            let r = s(widen(hi[0])).mul_add(s(widen(hi[1])), r0).value;
            assert_eq!(w.v[100 + t][l], sb(r), "#{t} lane {l}");
        }
    }
}

#[test]
fn vop2_accumulating_dot_products() {
    let (a, b, c) = (f16_pairs(51), f16_pairs(52), f32s(53));
    let (ia, ib, ic) = (ints(54), ints(55), ints(56));
    let w = run(
        "gfx90a",
        &[a, b, c, ia, ib, ic],
        "  v_mov_b32 v20, v12\n  v_dot2c_f32_f16 v20, v10, v11\n\
         v_mov_b32 v21, v15\n  v_dot2c_i32_i16 v21, v13, v14\n\
         v_mov_b32 v22, v15\n  v_dot4c_i32_i8 v22, v13, v14\n\
         v_mov_b32 v23, v15\n  v_dot8c_i32_i4 v23, v13, v14\n\
         v_mov_b32 v24, v15\n  v_dot4c_i32_i8_e64 v24, v13, v14 clamp\n",
    );
    for l in 0..64 {
        let r0 = s(widen(a[l] as u16))
            .mul_add(s(widen(b[l] as u16)), s(c[l]))
            .value;
        let r = s(widen((a[l] >> 16) as u16)).mul_add(s(widen((b[l] >> 16) as u16)), r0);
        assert_eq!(w.v[20][l], sb(r.value), "dot2c_f32_f16 lane {l}");
        assert_eq!(w.v[21][l], dot_ref(ia[l], ib[l], ic[l], 2, 16, true, false));
        assert_eq!(w.v[22][l], dot_ref(ia[l], ib[l], ic[l], 4, 8, true, false));
        assert_eq!(w.v[23][l], dot_ref(ia[l], ib[l], ic[l], 8, 4, true, false));
        assert_eq!(w.v[24][l], dot_ref(ia[l], ib[l], ic[l], 4, 8, true, true));
    }
}

#[test]
fn packed_f32_with_op_sel_neg_and_sgprs() {
    let inputs = [f32s(61), f32s(62), f32s(63), f32s(64), f32s(65), f32s(66)];
    let pair = |r: usize, l: usize| [inputs[r][l], inputs[r + 1][l]];
    // (op_sel, op_sel_hi, neg_lo, neg_hi)
    const M: [(u8, u8, u8, u8); 4] = [(0, 7, 0, 0), (7, 0, 0, 0), (5, 2, 3, 4), (2, 5, 4, 3)];
    let mut body = String::new();
    for (t, &(os, oh, nl, nh)) in M.iter().enumerate() {
        let d = 100 + 6 * t;
        let m3 = format!(
            " op_sel:{} op_sel_hi:{} neg_lo:{} neg_hi:{}",
            bits(os, 3),
            bits(oh, 3),
            bits(nl, 3),
            bits(nh, 3)
        );
        let m2 = format!(
            " op_sel:{} op_sel_hi:{} neg_lo:{} neg_hi:{}",
            bits(os, 2),
            bits(oh, 2),
            bits(nl, 2),
            bits(nh, 2)
        );
        body += &format!(
            "  v_pk_fma_f32 v[{}:{}], v[10:11], v[12:13], v[14:15]{m3}\n",
            d,
            d + 1
        );
        body += &format!(
            "  v_pk_mul_f32 v[{}:{}], v[10:11], v[12:13]{m2}\n",
            d + 2,
            d + 3
        );
        body += &format!(
            "  v_pk_add_f32 v[{}:{}], v[12:13], v[14:15]{m2}\n",
            d + 4,
            d + 5
        );
    }
    body += "  s_mov_b32 s20, 0x40400000\n  s_mov_b32 s21, 0xc0a00000\n\
             v_pk_add_f32 v[130:131], v[10:11], s[20:21]\n\
             v_pk_mul_f32 v[132:133], v[10:11], 2.0 op_sel_hi:[1,0]\n\
             v_pk_mov_b32 v[134:135], v[10:11], v[12:13] op_sel:[1,0]\n\
             v_pk_mov_b32 v[136:137], v[10:11], v[12:13] op_sel:[0,1]\n";
    // gfx942 has the same packed-f32 instructions.
    for mcpu in ["gfx90a", "gfx942"] {
        let w = run(mcpu, &inputs, &body);
        let sel = |p: [u32; 2], bit: u8, k: usize, neg: u8| {
            let v = p[usize::from(bit >> k & 1)];
            if neg >> k & 1 != 0 {
                v ^ 0x8000_0000
            } else {
                v
            }
        };
        for (t, &(os, oh, nl, nh)) in M.iter().enumerate() {
            let d = 100 + 6 * t;
            for l in 0..64 {
                let srcs = [pair(0, l), pair(2, l), pair(4, l)];
                for (half, (bit, neg)) in [(os, nl), (oh, nh)].into_iter().enumerate() {
                    let x: Vec<u32> = (0..3).map(|k| sel(srcs[k], bit, k, neg)).collect();
                    let fma = sb(s(x[0]).mul_add(s(x[1]), s(x[2])).value);
                    let mul = sb((s(x[0]) * s(x[1])).value);
                    // v_pk_add_f32 reads v[12:13] and v[14:15] as sources 0 and 1.
                    let y0 = sel(srcs[1], bit, 0, neg);
                    let y1 = sel(srcs[2], bit, 1, neg);
                    let add = sb((s(y0) + s(y1)).value);
                    assert_eq!(
                        w.v[d + half][l],
                        fma,
                        "{mcpu} pk_fma #{t} half {half} lane {l}"
                    );
                    assert_eq!(
                        w.v[d + 2 + half][l],
                        mul,
                        "{mcpu} pk_mul #{t} half {half} lane {l}"
                    );
                    assert_eq!(
                        w.v[d + 4 + half][l],
                        add,
                        "{mcpu} pk_add #{t} half {half} lane {l}"
                    );
                }
            }
        }
        for l in 0..64 {
            let (x0, x1) = (inputs[0][l], inputs[1][l]);
            assert_eq!(w.v[130][l], sb((s(x0) + s(0x4040_0000)).value));
            assert_eq!(w.v[131][l], sb((s(x1) + s(0xc0a0_0000)).value));
            // The constant 2.0 is dword 0; op_sel_hi:[1,0] reads it for both.
            assert_eq!(w.v[132][l], sb((s(x0) * s(0x4000_0000)).value));
            assert_eq!(w.v[133][l], sb((s(x1) * s(0x4000_0000)).value));
            assert_eq!((w.v[134][l], w.v[135][l]), (x1, inputs[2][l]));
            assert_eq!((w.v[136][l], w.v[137][l]), (x0, inputs[3][l]));
        }
    }
}

#[test]
fn accvgpr_moves() {
    let a = ints(71);
    let w = run(
        "gfx90a",
        &[a],
        "  v_accvgpr_write_b32 a5, v10\n  v_accvgpr_mov_b32 a6, a5\n  v_accvgpr_read_b32 v20, a6\n\
         v_accvgpr_write_b32 a7, 7\n  v_accvgpr_write_b32 a8, -1\n\
         s_mov_b32 exec_lo, 0\n  v_accvgpr_write_b32 a7, v10\n  s_mov_b32 exec_lo, -1\n",
    );
    for l in 0..64 {
        assert_eq!(w.a[5][l], a[l]);
        assert_eq!(w.a[6][l], a[l]);
        assert_eq!(w.v[20][l], a[l]);
        assert_eq!(w.a[7][l], if l < 32 { 7 } else { a[l] }, "lane {l}");
        assert_eq!(w.a[8][l], u32::MAX);
    }
    // gfx908: the same instructions (AGPRs only in MAI instructions).
    let w = run(
        "gfx908",
        &[a],
        "  v_accvgpr_write_b32 a1, v10\n  v_accvgpr_read_b32 v20, a1\n",
    );
    assert_eq!(w.v[20], a);
}

/// `v_pk_fmac_f16` (VOP2): per half `D = fma(S0, S1, D)`, one rounding,
/// in the MODE f16 round/denorm mode. Expected bits are worked out by
/// hand from the IEEE binary16 format:
/// - lo `0x3c01 × 0x3bff + 0xbc00` = (1+2⁻¹⁰)(1−2⁻¹¹) − 1 = 2⁻¹¹ − 2⁻²¹
///   = 2⁻¹² × 1.111111111b, exact: `0x0ffe` (a rounded product would give 0);
/// - hi `1.5 × 2 + 0.25` = 3.25: `0x4280`;
/// - lo `−2⁻¹⁴ × 0.5 + 0` = −2⁻¹⁵, denormal `0x8200`; flushed `0x8000`;
/// - hi `1 × 1 + 1.5·2⁻¹¹` = 1 + ¾ ulp: nearest `0x3c01`, toward zero `0x3c00`.
#[test]
fn pk_fmac_f16_hand_values() {
    for mcpu in ["gfx908", "gfx90a", "gfx942"] {
        let w = run(
            mcpu,
            &[],
            "  v_mov_b32 v10, 0x3e003c01\n  v_mov_b32 v11, 0x40003bff\n\
             v_mov_b32 v20, 0x3400bc00\n  v_pk_fmac_f16 v20, v10, v11\n\
             v_mov_b32 v12, 0x3c008400\n  v_mov_b32 v13, 0x3c003800\n\
             v_mov_b32 v21, 0x12000000\n  v_pk_fmac_f16 v21, v12, v13\n\
             s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 6), 0x3\n\
             v_mov_b32 v22, 0x12000000\n  v_pk_fmac_f16 v22, v12, v13\n\
             v_mov_b32 v23, 0x3400bc00\n  v_pk_fmac_f16 v23, 0x3e003c01, v11\n",
        );
        for l in 0..64 {
            assert_eq!(w.v[20][l], 0x4280_0ffe, "{mcpu} fused lane {l}");
            assert_eq!(w.v[21][l], 0x3c01_8200, "{mcpu} denormal, nearest lane {l}");
            assert_eq!(
                w.v[22][l], 0x3c00_8000,
                "{mcpu} flushed, toward zero lane {l}"
            );
            assert_eq!(w.v[23][l], 0x4280_0ffe, "{mcpu} literal src0 lane {l}");
        }
    }
}

/// `v_pk_fmac_f16` on random moderate values against `rustc_apfloat`.
#[test]
fn pk_fmac_f16_random() {
    let (a, b, c) = (f16_pairs(81), f16_pairs(82), f16_pairs(83));
    let w = run(
        "gfx90a",
        &[a, b, c],
        "  v_mov_b32 v20, v12\n  v_pk_fmac_f16 v20, v10, v11\n",
    );
    for l in 0..64 {
        let half = |v: u32, i: u32| (v >> (16 * i)) as u16;
        let want = |i| {
            let r = h(half(a[l], i)).mul_add(h(half(b[l], i)), h(half(c[l], i)));
            u32::from(hb(r.value))
        };
        assert_eq!(w.v[20][l], want(0) | want(1) << 16, "lane {l}");
    }
}
