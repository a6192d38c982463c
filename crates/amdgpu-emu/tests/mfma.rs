//! MFMA (gfx908, gfx90a) through `run_asm`: A, B and C are filled with
//! distinct small integers (exact in every input format, so the products
//! and sums are exact in f32 whatever the accumulation order), the matrix
//! product is computed here from the register layout of AMD's matrix
//! instruction calculator, and every output register of every lane is
//! compared. A separate test pins the documented rounding (an RNE FMA
//! chain in k order).

// Lane loops index several per-lane arrays at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;

/// Runs `body` on one wave of `mcpu` after loading `inputs[r]` into
/// `v(10 + r)`.
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

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }

    /// A small integer in [-lim, lim].
    fn small(&mut self, lim: u32) -> i64 {
        i64::from(self.next() % (2 * lim + 1)) - i64::from(lim)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    F32,
    F16,
    Bf16,
    I8,
    F64,
}

impl Ty {
    fn bits(self) -> usize {
        match self {
            Ty::F32 => 32,
            Ty::F16 | Ty::Bf16 => 16,
            Ty::I8 => 8,
            Ty::F64 => 64,
        }
    }
}

/// One MFMA: mnemonic, M, N, K, blocks, input type, A/B registers, C/D
/// registers.
#[derive(Clone, Copy, Debug)]
struct Mfma {
    name: &'static str,
    m: usize,
    n: usize,
    k: usize,
    b: usize,
    ty: Ty,
    in_regs: usize,
    cd_regs: usize,
}

const fn mf(
    name: &'static str,
    m: usize,
    k: usize,
    b: usize,
    ty: Ty,
    in_regs: usize,
    cd_regs: usize,
) -> Mfma {
    Mfma {
        name,
        m,
        n: m,
        k,
        b,
        ty,
        in_regs,
        cd_regs,
    }
}

/// The gfx90a MFMAs (gfx908 has all but the `_1k` and f64 ones).
const GFX90A: [Mfma; 27] = [
    mf("v_mfma_f32_32x32x1f32", 32, 1, 2, Ty::F32, 1, 32),
    mf("v_mfma_f32_16x16x1f32", 16, 1, 4, Ty::F32, 1, 16),
    mf("v_mfma_f32_4x4x1f32", 4, 1, 16, Ty::F32, 1, 4),
    mf("v_mfma_f32_32x32x2f32", 32, 2, 1, Ty::F32, 1, 16),
    mf("v_mfma_f32_16x16x4f32", 16, 4, 1, Ty::F32, 1, 4),
    mf("v_mfma_f32_32x32x4f16", 32, 4, 2, Ty::F16, 2, 32),
    mf("v_mfma_f32_16x16x4f16", 16, 4, 4, Ty::F16, 2, 16),
    mf("v_mfma_f32_4x4x4f16", 4, 4, 16, Ty::F16, 2, 4),
    mf("v_mfma_f32_32x32x8f16", 32, 8, 1, Ty::F16, 2, 16),
    mf("v_mfma_f32_16x16x16f16", 16, 16, 1, Ty::F16, 2, 4),
    mf("v_mfma_i32_32x32x4i8", 32, 4, 2, Ty::I8, 1, 32),
    mf("v_mfma_i32_16x16x4i8", 16, 4, 4, Ty::I8, 1, 16),
    mf("v_mfma_i32_4x4x4i8", 4, 4, 16, Ty::I8, 1, 4),
    mf("v_mfma_i32_32x32x8i8", 32, 8, 1, Ty::I8, 1, 16),
    mf("v_mfma_i32_16x16x16i8", 16, 16, 1, Ty::I8, 1, 4),
    mf("v_mfma_f32_32x32x2bf16", 32, 2, 2, Ty::Bf16, 1, 32),
    mf("v_mfma_f32_16x16x2bf16", 16, 2, 4, Ty::Bf16, 1, 16),
    mf("v_mfma_f32_4x4x2bf16", 4, 2, 16, Ty::Bf16, 1, 4),
    mf("v_mfma_f32_32x32x4bf16", 32, 4, 1, Ty::Bf16, 1, 16),
    mf("v_mfma_f32_16x16x8bf16", 16, 8, 1, Ty::Bf16, 1, 4),
    mf("v_mfma_f32_32x32x4bf16_1k", 32, 4, 2, Ty::Bf16, 2, 32),
    mf("v_mfma_f32_16x16x4bf16_1k", 16, 4, 4, Ty::Bf16, 2, 16),
    mf("v_mfma_f32_4x4x4bf16_1k", 4, 4, 16, Ty::Bf16, 2, 4),
    mf("v_mfma_f32_32x32x8bf16_1k", 32, 8, 1, Ty::Bf16, 2, 16),
    mf("v_mfma_f32_16x16x16bf16_1k", 16, 16, 1, Ty::Bf16, 2, 4),
    mf("v_mfma_f64_16x16x4f64", 16, 4, 1, Ty::F64, 2, 8),
    mf("v_mfma_f64_4x4x4f64", 4, 4, 4, Ty::F64, 2, 2),
];

/// Per-lane input values (`kl` items per lane) and their register dwords.
struct Input {
    vals: Vec<[i64; 8]>,
    regs: Vec<[u32; 64]>,
}

/// Encodes a small integer in `ty`.
fn encode(v: i64, ty: Ty) -> u64 {
    match ty {
        Ty::F32 => u64::from((v as f32).to_bits()),
        Ty::F16 => u64::from(half::f16::from_f64(v as f64).to_bits()),
        Ty::Bf16 => u64::from((v as f32).to_bits() >> 16),
        Ty::I8 => u64::from(v as i8 as u8),
        Ty::F64 => (v as f64).to_bits(),
    }
}

fn make_input(mf: &Mfma, rng: &mut Lcg, lim: u32) -> Input {
    let kl = mf.in_regs * 32 / mf.ty.bits();
    let mut vals = vec![[0i64; 8]; 64];
    let mut regs = vec![[0u32; 64]; mf.in_regs];
    for l in 0..64 {
        let mut q = 0u64;
        for (it, slot) in vals[l].iter_mut().enumerate().take(kl) {
            let v = rng.small(lim);
            *slot = v;
            q |= encode(v, mf.ty) << (it * mf.ty.bits());
        }
        for (r, reg) in regs.iter_mut().enumerate() {
            reg[l] = (q >> (32 * r)) as u32;
        }
    }
    Input { vals, regs }
}

/// The (register, lane) of output element (i, j) of block `b` (register
/// pairs for f64), per the matrix instruction calculator.
fn out_pos(mf: &Mfma, i: usize, j: usize, b: usize) -> (usize, usize) {
    let (m, n) = (mf.m, mf.n);
    let mh = if mf.ty == Ty::F64 { 1 } else { 4 };
    let mpr = 64 / n;
    let bpr = 64usize.div_ceil(m * n / mh);
    let reg = b * (m * n / 64) + (i / (mh * mpr)) * mh + i % mh;
    let lane = (b % bpr) * n + ((i / mh) % mpr) * bpr * n + j;
    (reg, lane)
}

/// The (lane, item) of A[i][k] of block `b` (B[k][j]: `i` = j).
fn in_pos(mf: &Mfma, i: usize, k: usize, b: usize) -> (usize, usize) {
    let kl = mf.in_regs * 32 / mf.ty.bits();
    (b * mf.m + (k / kl) * mf.m * mf.b + i, k % kl)
}

/// The lane B is read from under `blgp` (calculator semantics).
fn blgp_lane(lane: usize, blgp: u8) -> usize {
    match blgp {
        1 => lane % 32,
        2 if lane < 32 => lane + 32,
        3 => (lane + 16) % 64,
        4 => lane % 16,
        5 => match lane {
            0..16 => lane + 16,
            48.. => lane - 32,
            32.. => lane - 16,
            _ => lane,
        },
        6 => match lane {
            48.. => lane - 16,
            0..16 => lane + 32,
            16..32 => lane + 16,
            _ => lane,
        },
        7 => lane + (3 - lane / 16) * 16,
        _ => lane,
    }
}

/// Expected D registers for the inputs and modifiers.
fn reference(
    mf: &Mfma,
    a: &Input,
    b: &Input,
    c: &[[u32; 64]],
    (cbsz, abid, blgp): (u8, u8, u8),
) -> Vec<[u32; 64]> {
    let mut d = c.to_vec();
    for blk in 0..mf.b {
        let n_recv = 1usize << cbsz;
        let ablk = blk / n_recv * n_recv + usize::from(abid);
        for i in 0..mf.m {
            for j in 0..mf.n {
                let (reg, lane) = out_pos(mf, i, j, blk);
                let mut sum: i64 = 0;
                for k in 0..mf.k {
                    let (la, ia) = in_pos(mf, i, k, ablk);
                    let (lb, ib) = in_pos(mf, j, k, blk);
                    sum += a.vals[la][ia] * b.vals[blgp_lane(lb, blgp)][ib];
                }
                match mf.ty {
                    Ty::I8 => d[reg][lane] = (c[reg][lane] as i32).wrapping_add(sum as i32) as u32,
                    Ty::F64 => {
                        let cv = f64::from_bits(
                            u64::from(c[2 * reg][lane]) | u64::from(c[2 * reg + 1][lane]) << 32,
                        );
                        let r = (cv + sum as f64).to_bits();
                        d[2 * reg][lane] = r as u32;
                        d[2 * reg + 1][lane] = (r >> 32) as u32;
                    }
                    _ => {
                        d[reg][lane] = (f32::from_bits(c[reg][lane]) + sum as f32).to_bits();
                    }
                }
            }
        }
    }
    d
}

/// C values: small integers in the output type.
fn make_c(mf: &Mfma, rng: &mut Lcg) -> Vec<[u32; 64]> {
    let mut c = vec![[0u32; 64]; mf.cd_regs];
    for l in 0..64 {
        if mf.ty == Ty::F64 {
            for p in 0..mf.cd_regs / 2 {
                let v = (rng.small(1000) as f64).to_bits();
                c[2 * p][l] = v as u32;
                c[2 * p + 1][l] = (v >> 32) as u32;
            }
        } else {
            for reg in c.iter_mut() {
                let v = rng.small(1000);
                reg[l] = if mf.ty == Ty::I8 {
                    v as i32 as u32
                } else {
                    (v as f32).to_bits()
                };
            }
        }
    }
    c
}

fn range(first: usize, n: usize) -> String {
    if n == 1 {
        format!("{first}")
    } else {
        format!("[{}:{}]", first, first + n - 1)
    }
}

/// Runs `mf` on `mcpu` with the modifiers; `agpr` puts C and D in AGPRs.
fn check(mcpu: &str, mf: &Mfma, mods: (u8, u8, u8), agpr: bool, seed: u64) {
    let mut rng = Lcg(seed);
    let lim = if mf.ty == Ty::I8 { 127 } else { 8 };
    let a = make_input(mf, &mut rng, lim);
    let b = make_input(mf, &mut rng, lim);
    let c = make_c(mf, &mut rng);
    let mut inputs = a.regs.clone();
    inputs.extend(b.regs.iter().copied());
    inputs.extend(c.iter().copied());
    let (ra, rb, rc) = (10, 10 + mf.in_regs, 10 + 2 * mf.in_regs);
    let mut body = String::new();
    let (dst, csrc) = if agpr {
        for r in 0..mf.cd_regs {
            body += &format!("  v_accvgpr_write_b32 a{}, v{}\n", r, rc + r);
        }
        (
            format!("a{}", range(0, mf.cd_regs)),
            format!("a{}", range(0, mf.cd_regs)),
        )
    } else {
        (
            format!("v{}", range(100, mf.cd_regs)),
            format!("v{}", range(rc, mf.cd_regs)),
        )
    };
    let (cbsz, abid, blgp) = mods;
    let mut m = String::new();
    if cbsz != 0 {
        m += &format!(" cbsz:{cbsz}");
    }
    if abid != 0 {
        m += &format!(" abid:{abid}");
    }
    if blgp != 0 {
        m += &format!(" blgp:{blgp}");
    }
    body += &format!(
        "  {} {dst}, v{}, v{}, {csrc}{m}\n",
        mf.name,
        range(ra, mf.in_regs),
        range(rb, mf.in_regs)
    );
    let w = run(mcpu, &inputs, &body);
    let want = reference(mf, &a, &b, &c, mods);
    for (r, reg) in want.iter().enumerate() {
        let got = if agpr { w.a[r] } else { w.v[100 + r] };
        for l in 0..64 {
            assert_eq!(
                got[l], reg[l],
                "{mcpu} {} mods {mods:?} agpr {agpr}: register {r} lane {l}",
                mf.name
            );
        }
    }
}

#[test]
fn every_gfx90a_mfma_matches_the_matrix_product_vgpr_and_agpr() {
    for (t, mf) in GFX90A.iter().enumerate() {
        check("gfx90a", mf, (0, 0, 0), false, 100 + t as u64);
        check("gfx90a", mf, (0, 0, 0), true, 200 + t as u64);
    }
}

#[test]
fn gfx908_mfma_uses_agprs() {
    for mf in GFX90A
        .iter()
        .filter(|m| !m.name.ends_with("_1k") && m.ty != Ty::F64)
    {
        check("gfx908", mf, (0, 0, 0), true, 300);
    }
}

#[test]
fn cbsz_abid_broadcast_and_blgp_lane_patterns() {
    let multi = GFX90A.iter().filter(|m| m.b > 1 && m.ty != Ty::F64);
    for (t, mf) in multi.enumerate() {
        let max_cbsz = mf.b.trailing_zeros() as u8;
        for cbsz in 0..=max_cbsz.min(4) {
            let abid = ((t as u8) + cbsz) % (1 << cbsz);
            check("gfx90a", mf, (cbsz, abid, 0), false, 400 + t as u64);
        }
    }
    for blgp in 1..8 {
        for mf in &GFX90A[..3] {
            check("gfx90a", mf, (0, 0, blgp), false, 500 + u64::from(blgp));
        }
        check(
            "gfx90a",
            &GFX90A[9],
            (0, 0, blgp),
            true,
            600 + u64::from(blgp),
        );
    }
}

#[test]
fn f32_accumulation_is_an_rne_fma_chain_in_k_order() {
    // v_mfma_f32_16x16x4f32 (one block, k = lane / 16 for A and B).
    // D[0][0] = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))):
    // c = 1, a0*b0 = 2^-24 (a tie: rounds to even, back to 1), then
    // a1*b1 = 2^-24 again (ties again to 1), a2*b2 = 2^-23 (exact: 1 + 2^-23),
    // a3*b3 = -1 → 2^-23. An exact sum (2^-24 + 2^-24 + 2^-23 = 2^-22)
    // would give 2^-22 instead.
    let mut a = [0u32; 64];
    let mut b = [0u32; 64];
    let vals = [
        (2f32.powi(-12), 2f32.powi(-12)),
        (2f32.powi(-12), 2f32.powi(-12)),
        (2f32.powi(-12), 2f32.powi(-11)),
        (1.0, -1.0),
    ];
    for (k, (x, y)) in vals.iter().enumerate() {
        a[16 * k] = x.to_bits(); // A[0][k]
        b[16 * k] = y.to_bits(); // B[k][0]
    }
    let c = [1f32.to_bits(); 64];
    let w = run(
        "gfx90a",
        &[a, b, c, c, c, c],
        "  v_mfma_f32_16x16x4f32 v[100:103], v10, v11, v[12:15]\n",
    );
    assert_eq!(f32::from_bits(w.v[100][0]), 2f32.powi(-23));
    // Everything else is C: 1.0.
    assert_eq!(w.v[100][1], 1f32.to_bits());
    assert_eq!(w.v[101][0], 1f32.to_bits());
}

#[test]
fn mfma_honours_exec_and_overlapping_c_d() {
    let mf = GFX90A[4]; // v_mfma_f32_16x16x4f32
    let mut rng = Lcg(77);
    let a = make_input(&mf, &mut rng, 8);
    let b = make_input(&mf, &mut rng, 8);
    let c = make_c(&mf, &mut rng);
    let mut inputs = a.regs.clone();
    inputs.extend(b.regs.iter().copied());
    inputs.extend(c.iter().copied());
    // D overwrites C in place (v[12:15]); lanes 32–63 are disabled.
    let w = run(
        "gfx90a",
        &inputs,
        "  s_mov_b32 exec_hi, 0\n  v_mfma_f32_16x16x4f32 v[12:15], v10, v11, v[12:15]\n  s_mov_b32 exec_hi, -1\n",
    );
    let want = reference(&mf, &a, &b, &c, (0, 0, 0));
    for r in 0..4 {
        for l in 0..64 {
            let exp = if l < 32 { want[r][l] } else { c[r][l] };
            assert_eq!(w.v[12 + r][l], exp, "register {r} lane {l}");
        }
    }
}

#[test]
fn integer_mfma_wraps() {
    // v_mfma_i32_4x4x4i8: D[0][0] of block 0 (lane 0, register 0) =
    // C + 4 * (-128 * -128) with C = i32::MAX wraps around.
    let a = [0x8080_8080u32; 64];
    let c = [i32::MAX as u32; 64];
    let w = run(
        "gfx90a",
        &[a, a, c, c, c, c],
        "  v_mfma_i32_4x4x4i8 v[100:103], v10, v11, v[12:15]\n",
    );
    assert_eq!(w.v[100][0], (i32::MAX).wrapping_add(4 * 16384) as u32);
}

/// gfx942 runs the gfx90a MFMAs it still has the same way. The bf16
/// names without `_1k` are skipped: on gfx942 llvm-mc-19 gives them the
/// `_1k` operand shapes (64-bit A/B sources), which this table does not
/// describe.
#[test]
fn gfx942_mfma_matches_the_matrix_product() {
    use amdgpu_isa::gfx9::{InstDef, Target};
    let mut checked = 0;
    for (t, mf) in GFX90A.iter().enumerate() {
        let old_bf16 = mf.name.contains("bf16") && !mf.name.ends_with("_1k");
        if old_bf16 || InstDef::find(mf.name, Target::Gfx942).is_none() {
            continue;
        }
        check("gfx942", mf, (0, 0, 0), false, 700 + t as u64);
        checked += 1;
    }
    assert!(
        checked >= 20,
        "only {checked} gfx90a MFMAs exist on gfx942?"
    );
}
