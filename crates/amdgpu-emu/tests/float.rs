//! Floating-point VALU instructions through `run_asm` on gfx900 and
//! gfx90a. Expected values come from host IEEE arithmetic (nearest-even),
//! `rustc_apfloat` (directed rounding) or hand-derived constants.

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;
use rustc_apfloat::ieee::{Double, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round as AR};

const CPUS: [&str; 2] = ["gfx900", "gfx90a"];
const MODES: [AR; 4] = [
    AR::NearestTiesToEven,
    AR::TowardPositive,
    AR::TowardNegative,
    AR::TowardZero,
];

/// Runs `body` with three 32-bit input arrays in v1, v2, v3 and three
/// 64-bit ones in v[20:21], v[22:23], v[24:25]; returns the wave.
fn run(mcpu: &str, directives: &str, body: &str, a32: &[[u32; 64]], a64: &[[u64; 64]]) -> Wave {
    let mem = Arc::new(Memory::new());
    let mut bytes = vec![0u8; 4096];
    for (i, a) in a32.iter().enumerate() {
        for (l, v) in a.iter().enumerate() {
            bytes[256 * i + 4 * l..][..4].copy_from_slice(&v.to_le_bytes());
        }
    }
    for (i, a) in a64.iter().enumerate() {
        for (l, v) in a.iter().enumerate() {
            bytes[1024 + 512 * i + 8 * l..][..8].copy_from_slice(&v.to_le_bytes());
        }
    }
    let buf = mem.allocate(4096, 256).unwrap();
    mem.write(buf, &bytes).unwrap();
    let mut k = AsmKernel::new(mcpu);
    k.directives = directives.to_string();
    let mut asm = String::from(
        "  s_load_dwordx2 s[8:9], s[4:5], 0x0\n  s_waitcnt lgkmcnt(0)\n  v_and_b32 v10, 0x3ff, v0\n  v_lshlrev_b32 v11, 2, v10\n  v_lshlrev_b32 v12, 3, v10\n",
    );
    for i in 0..a32.len() {
        asm += &format!(
            "  global_load_dword v{}, v11, s[8:9] offset:{}\n",
            i + 1,
            256 * i
        );
    }
    for i in 0..a64.len() {
        asm += &format!(
            "  global_load_dwordx2 v[{}:{}], v12, s[8:9] offset:{}\n",
            20 + 2 * i,
            21 + 2 * i,
            1024 + 512 * i
        );
    }
    asm += "  s_waitcnt vmcnt(0)\n";
    asm += body;
    let waves = run_asm(&k, &asm, &mem, &buf.to_le_bytes()).unwrap_or_else(|e| panic!("{e}"));
    waves.into_iter().next().unwrap()
}

fn v64(w: &Wave, r: usize, l: usize) -> u64 {
    u64::from(w.v[r][l]) | u64::from(w.v[r + 1][l]) << 32
}

/// xorshift generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 64 f32 inputs: edge cases first, then random values of mixed
/// magnitudes (denormals, near overflow, around 1).
fn inputs32(seed: u64) -> [u32; 64] {
    const EDGE: [u32; 16] = [
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x3f80_0001,
        0x3eff_ffff,
        0x4b80_0001,
    ];
    let mut r = Rng(seed);
    let mut v = [0u32; 64];
    for (l, x) in v.iter_mut().enumerate() {
        *x = if l < 16 && seed & 1 == 0 {
            EDGE[l]
        } else {
            let b = r.next();
            let e = match b % 5 {
                0 => b >> 8 & 0x1f,
                1 => 0xe0 + (b >> 8 & 0x1f),
                _ => 0x70 + (b >> 8 & 0x1f),
            } as u32;
            (b >> 32) as u32 & 0x807f_ffff | e << 23
        };
    }
    v
}

fn inputs64(seed: u64) -> [u64; 64] {
    let mut r = Rng(seed);
    let mut v = [0u64; 64];
    for x in v.iter_mut() {
        let b = r.next();
        let e = match b % 4 {
            0 => b >> 8 & 0x3f,
            1 => 0x7c0 + (b >> 8 & 0x3f),
            _ => 0x3e0 + (b >> 8 & 0x3f),
        };
        *x = r.next() & 0x800f_ffff_ffff_ffff | e << 52;
    }
    v[0] = 0;
    v[1] = 0x8000_0000_0000_0000;
    v[2] = 1;
    v[3] = 0x7ff0_0000_0000_0000;
    v
}

fn inputs16(seed: u64) -> [u32; 64] {
    let mut r = Rng(seed);
    let mut v = [0u32; 64];
    for x in v.iter_mut() {
        *x = (r.next() & 0xffff) as u32;
    }
    v[0] = 0x0001;
    v[1] = 0x3c00;
    v[2] = 0x7bff;
    v
}

/// NaN-tolerant comparison of f32 bits (any NaN matches any NaN).
fn same32(got: u32, want: u32) -> bool {
    got == want || (got & 0x7fff_ffff > 0x7f80_0000 && want & 0x7fff_ffff > 0x7f80_0000)
}

#[test]
fn f32_add_mul_fma_in_every_round_mode() {
    let (a, b, c) = (inputs32(2), inputs32(3), inputs32(4));
    for cpu in CPUS {
        for (mi, mode) in MODES.iter().enumerate() {
            let dirs =
                format!("  .amdhsa_float_round_mode_32 {mi}\n  .amdhsa_float_denorm_mode_32 3\n");
            let w = run(
                cpu,
                &dirs,
                "  v_add_f32 v5, v1, v2\n  v_mul_f32 v6, v1, v2\n  v_fma_f32 v7, v1, v2, v3\n  v_sub_f32 v8, v1, v2\n  v_subrev_f32 v9, v1, v2\n",
                &[a, b, c],
                &[],
            );
            for l in 0..64 {
                let (x, y, z) = (
                    Single::from_bits(a[l].into()),
                    Single::from_bits(b[l].into()),
                    Single::from_bits(c[l].into()),
                );
                let chk = |r: usize, want: Single, what: &str| {
                    let want = want.to_bits() as u32;
                    assert!(
                        same32(w.v[r][l], want),
                        "{cpu} {what} {mode:?} lane {l}: {:#x} {:#x} {:#x} -> {:#x}, want {want:#x}",
                        a[l],
                        b[l],
                        c[l],
                        w.v[r][l]
                    );
                };
                chk(5, x.add_r(y, *mode).value, "add");
                chk(6, x.mul_r(y, *mode).value, "mul");
                chk(7, x.mul_add_r(y, z, *mode).value, "fma");
                chk(8, x.sub_r(y, *mode).value, "sub");
                chk(9, y.sub_r(x, *mode).value, "subrev");
            }
        }
    }
}

#[test]
fn f64_add_mul_fma_in_every_round_mode() {
    let (a, b, c) = (inputs64(5), inputs64(6), inputs64(7));
    for cpu in CPUS {
        for (mi, mode) in MODES.iter().enumerate() {
            let dirs = format!("  .amdhsa_float_round_mode_16_64 {mi}\n");
            let w = run(
                cpu,
                &dirs,
                "  v_add_f64 v[30:31], v[20:21], v[22:23]\n  v_mul_f64 v[32:33], v[20:21], v[22:23]\n  v_fma_f64 v[34:35], v[20:21], v[22:23], v[24:25]\n",
                &[],
                &[a, b, c],
            );
            for l in 0..64 {
                let (x, y, z) = (
                    Double::from_bits(a[l].into()),
                    Double::from_bits(b[l].into()),
                    Double::from_bits(c[l].into()),
                );
                assert_eq!(
                    v64(&w, 30, l),
                    x.add_r(y, *mode).value.to_bits() as u64,
                    "{cpu} add {mode:?} {l}"
                );
                assert_eq!(
                    v64(&w, 32, l),
                    x.mul_r(y, *mode).value.to_bits() as u64,
                    "{cpu} mul {mode:?} {l}"
                );
                assert_eq!(
                    v64(&w, 34, l),
                    x.mul_add_r(y, z, *mode).value.to_bits() as u64,
                    "{cpu} fma {mode:?} {l}"
                );
            }
        }
    }
}

#[test]
fn f16_arithmetic_rounding_and_high_halves() {
    let (a, b, c) = (inputs16(8), inputs16(9), inputs16(10));
    let is_nan = |x: u32| x & 0x7fff > 0x7c00;
    for cpu in CPUS {
        for (mi, mode) in MODES.iter().enumerate() {
            let dirs = format!("  .amdhsa_float_round_mode_16_64 {mi}\n");
            // v5/v6 start as 0xdead0000 | x: VOP2 f16 zeroes the high half,
            // v_fma_f16 keeps it, op_sel:[0,0,0,1] writes the high half.
            let w = run(
                cpu,
                &dirs,
                "  v_mov_b32 v5, 0xdeadbeef\n  v_mov_b32 v6, 0xdeadbeef\n  v_mov_b32 v7, 0xdeadbeef\n  v_add_f16 v5, v1, v2\n  v_fma_f16 v6, v1, v2, v3\n  v_fma_f16 v7, v1, v2, v3 op_sel:[0,0,0,1]\n  v_mul_f16 v8, v1, v2\n",
                &[a, b, c],
                &[],
            );
            for l in 0..64 {
                let h = |x: u32| Half::from_bits(x.into());
                let add = h(a[l]).add_r(h(b[l]), *mode).value.to_bits() as u32;
                let fma = h(a[l]).mul_add_r(h(b[l]), h(c[l]), *mode).value.to_bits() as u32;
                let mul = h(a[l]).mul_r(h(b[l]), *mode).value.to_bits() as u32;
                let ok = |got: u32, want: u32| got == want || (is_nan(got) && is_nan(want));
                assert!(
                    w.v[5][l] >> 16 == 0 && ok(w.v[5][l], add),
                    "{cpu} add {l}: {:#x} {add:#x}",
                    w.v[5][l]
                );
                assert!(
                    w.v[6][l] >> 16 == 0xdead && ok(w.v[6][l] & 0xffff, fma),
                    "{cpu} fma {l}"
                );
                assert!(
                    w.v[7][l] & 0xffff == 0xbeef && ok(w.v[7][l] >> 16, fma),
                    "{cpu} fma hi {l}"
                );
                assert!(ok(w.v[8][l], mul), "{cpu} mul {l}");
            }
        }
    }
}

/// Flushes an f32 denormal to a zero of the same sign.
fn ftz(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[test]
fn denormal_flush_in_and_out() {
    let (a, b) = (inputs32(12), inputs32(13));
    for cpu in CPUS {
        for denorm in 0..4u32 {
            let dirs = format!("  .amdhsa_float_denorm_mode_32 {denorm}\n");
            let w = run(
                cpu,
                &dirs,
                "  v_add_f32 v5, v1, v2\n  v_mul_f32 v6, v1, v2\n",
                &[a, b],
                &[],
            );
            let (fin, fout) = (denorm & 1 == 0, denorm & 2 == 0);
            for l in 0..64 {
                let i = |x: u32| if fin { ftz(x) } else { x };
                let o = |x: f32| if fout { ftz(x.to_bits()) } else { x.to_bits() };
                let (x, y) = (f32::from_bits(i(a[l])), f32::from_bits(i(b[l])));
                assert!(same32(w.v[5][l], o(x + y)), "{cpu} {denorm} add {l}");
                assert!(same32(w.v[6][l], o(x * y)), "{cpu} {denorm} mul {l}");
            }
        }
    }
}

#[test]
fn abs_neg_clamp_and_omod() {
    let (a, b) = (inputs32(14), inputs32(15));
    let clamp = |x: u32| {
        let f = f32::from_bits(x);
        if f.is_nan() || f <= 0.0 {
            0
        } else if f >= 1.0 {
            0x3f80_0000
        } else {
            x
        }
    };
    for cpu in CPUS {
        // IEEE mode on (default), denormals kept: omod is ignored.
        let w = run(
            cpu,
            "  .amdhsa_float_denorm_mode_32 3\n",
            "  v_add_f32_e64 v5, -v1, |v2| clamp\n  v_mul_f32_e64 v6, v1, v2 mul:2\n  v_mul_f32_e64 v7, -|v1|, v2\n",
            &[a, b],
            &[],
        );
        for l in 0..64 {
            let (x, y) = (f32::from_bits(a[l]), f32::from_bits(b[l]));
            assert_eq!(
                w.v[5][l],
                clamp((-x + y.abs()).to_bits()),
                "{cpu} clamp {l}"
            );
            assert!(
                same32(w.v[6][l], (x * y).to_bits()),
                "{cpu} omod ignored {l}"
            );
            assert!(
                same32(w.v[7][l], (-x.abs() * y).to_bits()),
                "{cpu} -|x| {l}"
            );
        }
        // IEEE mode off, denormals flushed: omod applies.
        let w = run(
            cpu,
            "  .amdhsa_ieee_mode 0\n  .amdhsa_float_denorm_mode_32 0\n",
            "  v_mul_f32_e64 v6, v1, v2 mul:2\n  v_mul_f32_e64 v7, v1, v2 mul:4\n  v_mul_f32_e64 v8, v1, v2 div:2\n",
            &[a, b],
            &[],
        );
        for l in 0..64 {
            let (x, y) = (f32::from_bits(ftz(a[l])), f32::from_bits(ftz(b[l])));
            let p = f32::from_bits(ftz((x * y).to_bits()));
            assert!(
                same32(w.v[6][l], ftz((p * 2.0).to_bits())),
                "{cpu} mul:2 {l}"
            );
            assert!(
                same32(w.v[7][l], ftz((p * 4.0).to_bits())),
                "{cpu} mul:4 {l}"
            );
            assert!(
                same32(w.v[8][l], ftz((p * 0.5).to_bits())),
                "{cpu} div:2 {l}"
            );
        }
    }
}

#[test]
fn division_sequence_matches_correctly_rounded_division() {
    // clang's f32 division expansion (denormals enabled).
    let body = "  v_div_scale_f32 v5, s[10:11], v2, v2, v1
  v_div_scale_f32 v6, vcc, v1, v2, v1
  v_rcp_f32 v7, v5
  v_fma_f32 v8, -v5, v7, 1.0
  v_fma_f32 v7, v8, v7, v7
  v_mul_f32 v8, v6, v7
  v_fma_f32 v9, -v5, v8, v6
  v_fma_f32 v8, v9, v7, v8
  v_fma_f32 v5, -v5, v8, v6
  v_div_fmas_f32 v5, v5, v7, v8
  v_div_fixup_f32 v5, v5, v2, v1
";
    let (mut n, mut d) = (inputs32(16), inputs32(17));
    n[0] = 0x3f80_0000; // 1 / 3
    d[0] = 0x4040_0000;
    n[1] = 0x0000_0001; // min denormal / 3: the quotient underflows
    d[1] = 0x4040_0000;
    n[2] = 0x7f7f_ffff; // max / 0.5: overflows to +inf
    d[2] = 0x3f00_0000;
    n[3] = 0x4120_0000; // 10 / 0 = +inf
    d[3] = 0;
    n[4] = 0; // 0 / 0 = NaN
    d[4] = 0;
    n[5] = 0x0080_0000; // min normal / 3 (denormal quotient)
    d[5] = 0xc040_0000;
    for cpu in CPUS {
        let w = run(
            cpu,
            "  .amdhsa_float_denorm_mode_32 3\n",
            body,
            &[n, d],
            &[],
        );
        for l in 0..64 {
            let want = (f32::from_bits(n[l]) / f32::from_bits(d[l])).to_bits();
            assert!(
                same32(w.v[5][l], want),
                "{cpu} {:#x}/{:#x}: {:#x} want {want:#x}",
                n[l],
                d[l],
                w.v[5][l]
            );
        }
        // 0/0 gives the default NaN from v_div_fixup.
        assert_eq!(w.v[5][4], 0xffc0_0000);
    }
}

#[test]
fn f64_division_sequence() {
    let body = "  v_div_scale_f64 v[30:31], s[10:11], v[22:23], v[22:23], v[20:21]
  v_rcp_f64 v[32:33], v[30:31]
  v_fma_f64 v[34:35], -v[30:31], v[32:33], 1.0
  v_fma_f64 v[32:33], v[32:33], v[34:35], v[32:33]
  v_fma_f64 v[34:35], -v[30:31], v[32:33], 1.0
  v_div_scale_f64 v[36:37], vcc, v[20:21], v[22:23], v[20:21]
  v_fma_f64 v[32:33], v[32:33], v[34:35], v[32:33]
  v_mul_f64 v[34:35], v[36:37], v[32:33]
  v_fma_f64 v[30:31], -v[30:31], v[34:35], v[36:37]
  v_div_fmas_f64 v[30:31], v[30:31], v[32:33], v[34:35]
  v_div_fixup_f64 v[30:31], v[30:31], v[22:23], v[20:21]
";
    let (n, d) = (inputs64(18), inputs64(19));
    for cpu in CPUS {
        let w = run(cpu, "", body, &[], &[n, d]);
        for l in 4..64 {
            let want = (f64::from_bits(n[l]) / f64::from_bits(d[l])).to_bits();
            assert_eq!(v64(&w, 30, l), want, "{cpu} {:#x}/{:#x}", n[l], d[l]);
        }
    }
}

#[test]
fn conversions_saturate_and_round() {
    let mut a = inputs32(20);
    a[16] = 0x4f00_0000; // 2^31: saturates to i32::MAX
    a[17] = 0xcf00_0001; // below −2^31: saturates to i32::MIN
    a[18] = 0xbfc0_0000; // −1.5: i32 −1, u32 0, rpi −1, flr −2
    a[19] = 0x3fc0_0000; // 1.5: rpi 2
    let ints: [u32; 64] = std::array::from_fn(|l| (Rng(l as u64 + 99).next() as u32) >> (l % 9));
    for cpu in CPUS {
        for (mi, mode) in MODES.iter().enumerate() {
            let dirs = format!(
                "  .amdhsa_float_round_mode_32 {mi}\n  .amdhsa_float_round_mode_16_64 {mi}\n  .amdhsa_float_denorm_mode_32 3\n"
            );
            let w = run(
                cpu,
                &dirs,
                "  v_cvt_i32_f32 v5, v1\n  v_cvt_u32_f32 v6, v1\n  v_cvt_f16_f32 v7, v1\n  v_cvt_f32_i32 v8, v2\n  v_cvt_f32_u32 v9, v2\n  v_cvt_rpi_i32_f32 v13, v1\n  v_cvt_flr_i32_f32 v14, v1\n  v_cvt_f64_f32 v[30:31], v1\n  v_cvt_f32_f64 v15, v[30:31]\n",
                &[a, ints],
                &[],
            );
            for l in 0..64 {
                let x = f32::from_bits(a[l]);
                let sat_i = if x.is_nan() { 0 } else { x as i32 };
                assert_eq!(w.v[5][l], sat_i as u32, "{cpu} cvt_i32 {l}");
                assert_eq!(w.v[6][l], x as u32, "{cpu} cvt_u32 {l}");
                let mut lost = false;
                let h: Half = Single::from_bits(a[l].into())
                    .convert_r(*mode, &mut lost)
                    .value;
                let hb = h.to_bits() as u32;
                assert!(
                    w.v[7][l] == hb || (x.is_nan() && w.v[7][l] & 0x7fff > 0x7c00),
                    "{cpu} cvt_f16 {mode:?} {l}: {:#x} {hb:#x}",
                    w.v[7][l]
                );
                let i = ints[l];
                let want_i = Single::from_i128_r(i128::from(i as i32), *mode)
                    .value
                    .to_bits() as u32;
                let want_u = Single::from_u128_r(u128::from(i), *mode).value.to_bits() as u32;
                assert_eq!(w.v[8][l], want_i, "{cpu} cvt_f32_i32 {mode:?} {i:#x}");
                assert_eq!(w.v[9][l], want_u, "{cpu} cvt_f32_u32 {mode:?} {i:#x}");
                let rpi = if x.is_nan() {
                    0
                } else {
                    (f64::from(x) + 0.5).floor() as i32
                };
                assert_eq!(w.v[13][l], rpi as u32, "{cpu} rpi {l}");
                let flr = if x.is_nan() {
                    0
                } else {
                    f64::from(x).floor() as i32
                };
                assert_eq!(w.v[14][l], flr as u32, "{cpu} flr {l}");
                assert!(same32(w.v[15][l], a[l]), "{cpu} f32->f64->f32 {l}");
                assert!(
                    v64(&w, 30, l) == f64::from(x).to_bits() || x.is_nan(),
                    "{cpu} cvt_f64_f32 {l}"
                );
            }
            assert_eq!(w.v[5][16], i32::MAX as u32);
            assert_eq!(w.v[5][17], i32::MIN as u32);
            assert_eq!(
                (w.v[5][18], w.v[6][18], w.v[13][18], w.v[14][18]),
                (-1i32 as u32, 0, -1i32 as u32, -2i32 as u32)
            );
            assert_eq!(w.v[13][19], 2);
        }
    }
}

#[test]
fn rounding_fract_frexp_ldexp() {
    let a = inputs32(21);
    for cpu in CPUS {
        let w = run(
            cpu,
            "  .amdhsa_float_denorm_mode_32 3\n",
            "  v_trunc_f32 v5, v1\n  v_ceil_f32 v6, v1\n  v_floor_f32 v7, v1\n  v_rndne_f32 v8, v1\n  v_fract_f32 v9, v1\n  v_frexp_mant_f32 v13, v1\n  v_frexp_exp_i32_f32 v14, v1\n  v_ldexp_f32 v15, v1, 3\n  s_movk_i32 s12, -200\n  v_ldexp_f32 v16, v1, s12\n",
            &[a],
            &[],
        );
        for (l, &bits) in a.iter().enumerate() {
            let x = f32::from_bits(bits);
            let chk = |r: usize, want: f32, what: &str| {
                assert!(
                    same32(w.v[r][l], want.to_bits()),
                    "{cpu} {what} {bits:#x}: {:#x}",
                    w.v[r][l]
                );
            };
            chk(5, x.trunc(), "trunc");
            chk(6, x.ceil(), "ceil");
            chk(7, x.floor(), "floor");
            chk(8, x.round_ties_even(), "rndne");
            if x.is_finite() {
                // fract: x − floor(x) rounded to nearest, kept below 1.
                let f = (f64::from(x) - f64::from(x).floor()) as f32;
                chk(9, f.min(f32::from_bits(0x3f7f_ffff)), "fract");
                if x != 0.0 {
                    // frexp: x = mant × 2^exp with |mant| in [0.5, 1).
                    let e = w.v[14][l] as i32;
                    let mant = f32::from_bits(w.v[13][l]);
                    assert!((0.5..1.0).contains(&mant.abs()), "{cpu} mant {l}");
                    assert_eq!(
                        f64::from(mant) * 2f64.powi(e),
                        f64::from(x),
                        "{cpu} frexp {l}"
                    );
                }
            } else {
                assert_eq!(w.v[14][l], 0, "{cpu} frexp_exp inf/nan");
            }
            chk(15, (f64::from(x) * 8.0) as f32, "ldexp 3");
            chk(16, (f64::from(x) * 2f64.powi(-200)) as f32, "ldexp -200");
        }
    }
}

#[test]
fn min_max_med3_ieee_rules() {
    let a: [u32; 64] =
        std::array::from_fn(|l| [0x0000_0000, 0x7fc0_0000, 0x7f80_0001, 0x3f80_0000][l % 4]);
    let b: [u32; 64] =
        std::array::from_fn(|l| [0x8000_0000, 0x4000_0000, 0x4000_0000, 0x7fc0_0000][l % 4]);
    let c: [u32; 64] =
        std::array::from_fn(|l| [0x3f00_0000, 0xc000_0000, 0x0000_0000, 0x4040_0000][l % 4]);
    for cpu in CPUS {
        let w = run(
            cpu,
            "",
            "  v_min_f32 v5, v1, v2\n  v_max_f32 v6, v1, v2\n  v_med3_f32 v7, v1, v2, v3\n  v_max3_f32 v8, v1, v2, v3\n",
            &[a, b, c],
            &[],
        );
        // (+0, −0): min −0, max +0. (qNaN, 2): the number. (sNaN, 2) with
        // IEEE=1: the quieted sNaN 0x7fc00001. (1, qNaN): 1.
        let want_min = [0x8000_0000, 0x4000_0000, 0x7fc0_0001, 0x3f80_0000];
        let want_max = [0x0000_0000, 0x4000_0000, 0x7fc0_0001, 0x3f80_0000];
        // med3 (+0, −0, 0.5) = +0 (max3 is 0.5 = S2, so med = max(S0, S1));
        // with a NaN input med3 is min3: (sNaN, 2, 0) → min(qNaN, 0) = 0.
        let want_med = [0x0000_0000, 0xc000_0000, 0x0000_0000, 0x3f80_0000];
        for l in 0..64 {
            assert_eq!(w.v[5][l], want_min[l % 4], "{cpu} min {l}");
            assert_eq!(w.v[6][l], want_max[l % 4], "{cpu} max {l}");
            assert_eq!(w.v[7][l], want_med[l % 4], "{cpu} med3 {l}");
        }
        assert_eq!(w.v[8][0], 0x3f00_0000);
        assert_eq!(w.v[8][3], 0x4040_0000);
    }
}

#[test]
fn transcendental_special_cases() {
    let a: [u32; 64] = std::array::from_fn(|l| {
        [
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x3f80_0000,
            0x4080_0000,
            0xbf80_0000,
            0x3e80_0000,
        ][l % 8]
    });
    for cpu in CPUS {
        let w = run(
            cpu,
            "",
            "  v_rcp_f32 v5, v1\n  v_rsq_f32 v6, v1\n  v_sqrt_f32 v7, v1\n  v_log_f32 v8, v1\n  v_exp_f32 v9, v1\n  v_sin_f32 v13, v1\n  v_cos_f32 v14, v1\n",
            &[a],
            &[],
        );
        const N: u32 = 0xffc0_0000; // default NaN
        // Inputs: +0, −0, +inf, −inf, 1, 4, −1, 0.25 (ISA functional examples).
        let rcp = [
            0x7f80_0000,
            0xff80_0000,
            0,
            0x8000_0000,
            0x3f80_0000,
            0x3e80_0000,
            0xbf80_0000,
            0x4080_0000,
        ];
        let rsq = [
            0x7f80_0000,
            0xff80_0000,
            0,
            N,
            0x3f80_0000,
            0x3f00_0000,
            N,
            0x4000_0000,
        ];
        let sqrt = [
            0,
            0x8000_0000,
            0x7f80_0000,
            N,
            0x3f80_0000,
            0x4000_0000,
            N,
            0x3f00_0000,
        ];
        let log = [
            0xff80_0000,
            0xff80_0000,
            0x7f80_0000,
            N,
            0,
            0x4000_0000,
            N,
            0xc000_0000,
        ];
        let exp = [
            0x3f80_0000,
            0x3f80_0000,
            0x7f80_0000,
            0,
            0x4000_0000,
            0x4180_0000,
            0x3f00_0000,
            0x3f98_37f0,
        ];
        let sin = [0, 0x8000_0000, N, N, 0, 0, 0, 0x3f80_0000];
        let cos = [
            0x3f80_0000,
            0x3f80_0000,
            N,
            N,
            0x3f80_0000,
            0x3f80_0000,
            0x3f80_0000,
            0,
        ];
        for l in 0..64 {
            let i = l % 8;
            assert_eq!(w.v[5][l], rcp[i], "{cpu} rcp {i}");
            assert_eq!(w.v[6][l], rsq[i], "{cpu} rsq {i}");
            assert_eq!(w.v[7][l], sqrt[i], "{cpu} sqrt {i}");
            assert_eq!(w.v[8][l], log[i], "{cpu} log {i}");
            assert_eq!(w.v[9][l], exp[i], "{cpu} exp {i}");
            assert_eq!(w.v[13][l], sin[i], "{cpu} sin {i}");
            assert_eq!(w.v[14][l], cos[i], "{cpu} cos {i}");
        }
    }
}

#[test]
fn partial_exec_and_setreg_mode() {
    let (a, b) = (inputs32(30), inputs32(31));
    for cpu in CPUS {
        // Round toward zero via s_setreg; only even lanes active.
        let w = run(
            cpu,
            "  .amdhsa_float_denorm_mode_32 3\n",
            "  v_mov_b32 v5, 0x12345678\n  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3\n  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n  v_add_f32 v5, v1, v2\n",
            &[a, b],
            &[],
        );
        for l in 0..64 {
            if l % 2 == 1 {
                assert_eq!(w.v[5][l], 0x1234_5678, "{cpu} inactive lane {l}");
            } else {
                let want = Single::from_bits(a[l].into())
                    .add_r(Single::from_bits(b[l].into()), AR::TowardZero)
                    .value
                    .to_bits() as u32;
                assert!(same32(w.v[5][l], want), "{cpu} rtz add {l}");
            }
        }
    }
}

#[test]
fn pack_and_pkrtz() {
    let a = inputs32(40);
    let b = inputs32(41);
    for cpu in CPUS {
        let w = run(
            cpu,
            "",
            "  v_cvt_pkrtz_f16_f32 v5, v1, v2\n  v_pack_b32_f16 v6, v1, v2 op_sel:[1,0]\n",
            &[a, b],
            &[],
        );
        for l in 0..64 {
            let rtz = |x: u32| {
                let mut lost = false;
                let h: Half = Single::from_bits(x.into())
                    .convert_r(AR::TowardZero, &mut lost)
                    .value;
                h.to_bits() as u32
            };
            let f32_nan = |x: u32| x & 0x7fff_ffff > 0x7f80_0000;
            if !f32_nan(a[l]) && !f32_nan(b[l]) {
                assert_eq!(w.v[5][l], rtz(a[l]) | rtz(b[l]) << 16, "{cpu} pkrtz {l}");
            }
            assert_eq!(
                w.v[6][l],
                a[l] >> 16 | (b[l] & 0xffff) << 16,
                "{cpu} pack {l}"
            );
        }
    }
}
