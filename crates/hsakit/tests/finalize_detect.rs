//! DETECT exception flags (PRM 11.2, 12.2, 4.19.2–4.19.3) of f32/f64
//! arithmetic, finalized for gfx900 and gfx90a and run on the emulator,
//! against a reference written from the PRM with `rustc_apfloat` doing
//! the IEEE arithmetic (and its status flags) in every rounding mode.
//!
//! Each generated kernel enables DETECT for all five exceptions, clears
//! the flags, performs one instruction on the operands of its case and
//! stores `getdetectexcept`. Work-groups of one work-item make every case
//! its own wave, so its flags are that case's alone.
//!
//! The reference follows the finalizer's documented choices where the PRM
//! leaves them to the implementation: tininess is detected before
//! rounding, and a result flushed by `ftz` also raises INEXACT.

mod common;
use common::Run;

use rustc_apfloat::ieee::{Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

const INVALID: u32 = 1;
const DIVIDE_BY_ZERO: u32 = 2;
const OVERFLOW: u32 = 4;
const UNDERFLOW: u32 = 8;
const INEXACT: u32 = 16;

/// f32 operands: specials, the extremes of each range, values whose
/// results are inexact, tiny, huge, or land just below the smallest
/// normal (0x3f7fffff × 0x00800000 rounds up to it).
const F32_VALUES: [u32; 18] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x0000_0001,
    0x8040_0000,
    0x4040_0000,
    0x3dcc_cccd,
    0x7149_f2ca,
    0x0da2_4260,
    0x3f7f_ffff,
    0x00c0_0000,
];

/// f64 operands, the same kinds as [`F32_VALUES`].
const F64_VALUES: [u64; 18] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff4_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x8008_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x3fb9_9999_9999_999a,
    0x7e37_e43c_8800_759c,
    0x01a5_6e1f_c2f8_f359,
    0x3fef_ffff_ffff_ffff,
    0x0018_0000_0000_0000,
];

/// f16 operands, the same kinds as [`F32_VALUES`] (0x3bff × 0x0400
/// rounds up to the smallest normal).
const F16_VALUES: [u16; 18] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x7bff, 0x0400, 0x0001, 0x8200,
    0x4200, 0x2e66, 0x7400, 0x0a00, 0x3bff, 0x0600,
];

/// Addends of the `fma` cases (a subset, to keep the case count small;
/// each product also meets its own negated rounding).
const FMA_ADDENDS: [usize; 6] = [0, 2, 4, 7, 9, 13];

/// A float format under test.
trait Fmt: Float + FloatConvert<Quad> + Copy {
    /// HSAIL type suffix.
    const NAME: &'static str;
    /// Operand bits of this format.
    fn values() -> Vec<u64>;
    /// `d` rounded to this format (nearest even).
    fn from_double(d: Double) -> Self;
}

impl Fmt for Half {
    const NAME: &'static str = "f16";
    fn values() -> Vec<u64> {
        F16_VALUES.iter().map(|&v| u64::from(v)).collect()
    }
    fn from_double(d: Double) -> Self {
        d.convert_r(Round::NearestTiesToEven, &mut false).value
    }
}

impl Fmt for Single {
    const NAME: &'static str = "f32";
    fn values() -> Vec<u64> {
        F32_VALUES.iter().map(|&v| u64::from(v)).collect()
    }
    fn from_double(d: Double) -> Self {
        d.convert_r(Round::NearestTiesToEven, &mut false).value
    }
}

impl Fmt for Double {
    const NAME: &'static str = "f64";
    fn values() -> Vec<u64> {
        F64_VALUES.to_vec()
    }
    fn from_double(d: Double) -> Self {
        d
    }
}

fn fx<F: Fmt>(b: u64) -> F {
    F::from_bits(u128::from(b))
}

/// Subnormals → zero of the same sign (PRM 4.19.3) when `ftz`.
fn flush<F: Fmt>(x: F, ftz: bool) -> F {
    if ftz && x.is_denormal() {
        F::ZERO.copy_sign(x)
    } else {
        x
    }
}

/// IEEE status → DETECT bits (UNDERFLOW is recomputed by the caller).
fn bits(s: Status) -> u32 {
    [
        (Status::INVALID_OP, INVALID),
        (Status::DIV_BY_ZERO, DIVIDE_BY_ZERO),
        (Status::OVERFLOW, OVERFLOW),
        (Status::INEXACT, INEXACT),
    ]
    .iter()
    .filter(|(st, _)| s.contains(*st))
    .fold(0, |acc, (_, b)| acc | b)
}

/// `op` on `x` in rounding `round` with apfloat.
fn apply<F: Float>(op: &str, x: &[F], round: Round) -> StatusAnd<F> {
    match op {
        "add" => x[0].add_r(x[1], round),
        "sub" => x[0].sub_r(x[1], round),
        "mul" => x[0].mul_r(x[1], round),
        "div" => x[0].div_r(x[1], round),
        _ => x[0].mul_add_r(x[1], x[2], round),
    }
}

/// The DETECT flags of `op` (PRM 4.19.2/4.19.3, 12.2) on operand bits.
fn expected<F: Fmt>(op: &str, operands: &[u64], round: Round, ftz: bool) -> u32 {
    let x: Vec<F> = operands.iter().map(|&b| flush(fx::<F>(b), ftz)).collect();
    let snan = if x.iter().any(|v| v.is_signaling()) {
        INVALID
    } else {
        0
    };
    if op == "sqrt" {
        return snan | sqrt_flags(x[0]);
    }
    let r = apply(op, &x, round);
    let mut flags = bits(r.status) | snan | directed_overflow(op, &x, r);
    // Tininess before rounding: the result rounded toward zero is below
    // the smallest normal exactly when the exact value is.
    let rz = apply(op, &x, Round::TowardZero);
    let nonzero = !rz.value.is_zero() || rz.status.contains(Status::INEXACT);
    let finite = rz.value.is_finite() && flags & (INVALID | DIVIDE_BY_ZERO) == 0;
    let tiny = finite && nonzero && (rz.value.is_denormal() || rz.value.is_zero());
    if tiny && ftz {
        flags |= UNDERFLOW | INEXACT;
    } else if tiny && flags & INEXACT != 0 {
        flags |= UNDERFLOW;
    }
    flags
}

/// OVERFLOW of a result rounded toward zero to the largest finite value
/// (apfloat reports only INEXACT there; PRM 4.19.2 and IEEE 754 ask for
/// OVERFLOW when the exact value reaches 2^(emax+1)): decided on the
/// operation in Quad rounded toward zero.
fn directed_overflow<F: Fmt>(op: &str, x: &[F], r: StatusAnd<F>) -> u32 {
    let max = F::largest();
    let at_max = r.value == max || r.value == -max;
    if !at_max || !r.status.contains(Status::INEXACT) || r.status.contains(Status::OVERFLOW) {
        return 0;
    }
    let mut lost = false;
    let q: Vec<Quad> = x
        .iter()
        .map(|v| v.convert_r(Round::NearestTiesToEven, &mut lost).value)
        .collect();
    let exact = apply(op, &q, Round::TowardZero).value.abs();
    let ulp = max - max.next_down().value;
    let top: Quad = max.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let ulp: Quad = ulp
        .value
        .convert_r(Round::NearestTiesToEven, &mut lost)
        .value;
    if exact >= (top + ulp).value {
        OVERFLOW
    } else {
        0
    }
}

/// `sqrt` flags: invalid for a negative non-zero non-NaN input, inexact
/// when no value of the format squares to the input (never tiny or huge).
fn sqrt_flags<F: Fmt>(x: F) -> u32 {
    if x.is_nan() || x.is_zero() || x.is_infinite() && !x.is_negative() {
        return 0;
    }
    if x.is_negative() {
        return INVALID;
    }
    let mut lost = false;
    let xq: Quad = x.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let d = f64::from_bits(
        FloatConvert::<Double>::convert_r(xq, Round::NearestTiesToEven, &mut lost)
            .value
            .to_bits() as u64,
    );
    let root = Double::from_bits(u128::from(d.sqrt().to_bits()));
    let c = F::from_double(root);
    let cq: Quad = c.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let exact = cq.mul_r(cq, Round::NearestTiesToEven).value == xq;
    if exact { 0 } else { INEXACT }
}

/// The cases of `op`: operand bit tuples.
fn cases<F: Fmt>(op: &str) -> Vec<Vec<u64>> {
    let v = F::values();
    match op {
        "sqrt" => v.iter().map(|&a| vec![a]).collect(),
        "fma" => {
            let mut out = Vec::new();
            for &a in &v {
                for &b in &v {
                    for &c in &FMA_ADDENDS {
                        out.push(vec![a, b, v[c]]);
                    }
                    // The product's rounding error alone (cancellation).
                    let p = fx::<F>(a).mul_r(fx::<F>(b), Round::NearestTiesToEven).value;
                    out.push(vec![a, b, (-p).to_bits() as u64]);
                }
            }
            out
        }
        _ => v
            .iter()
            .flat_map(|&a| v.iter().map(move |&b| vec![a, b]))
            .collect(),
    }
}

/// A kernel performing `inst` (sources of type `t`, destination of
/// `dst_t`) on the case of its work-item (3 operand slots of 8 bytes per
/// case) and storing `getdetectexcept`.
fn kernel_text(t: &str, dst_t: &str, inst: &str, srcs: usize, enable: u32) -> String {
    let reg_of = |t: &str| if t.ends_with("64") { "$d" } else { "$s" };
    let (reg, dreg, ld) = (reg_of(t), reg_of(dst_t), format!("ld_global_{t}"));
    let operands: Vec<String> = (0..srcs).map(|i| format!("{reg}{}", 10 + i)).collect();
    let loads: String = operands
        .iter()
        .enumerate()
        .map(|(i, o)| format!("    {ld} {o}, [$d2+{}];\n", 8 * i))
        .collect();
    format!(
        "module &D:1:0:$full:$large:$default;\n\
         kernel &k(kernarg_u64 %in, kernarg_u64 %out)\n{{\n\
         \x20   enabledetectexceptions {enable};\n\
         \x20   cleardetectexcept_u32 0x1f;\n\
         \x20   workitemabsid_u32 $s0, 0;\n\
         \x20   cvt_u64_u32 $d0, $s0;\n\
         \x20   mul_u64 $d1, $d0, 24;\n\
         \x20   ld_kernarg_u64 $d2, [%in];\n\
         \x20   add_u64 $d2, $d2, $d1;\n\
         {loads}\
         \x20   {inst} {dreg}9, {};\n\
         \x20   getdetectexcept_u32 $s1;\n\
         \x20   shl_u64 $d0, $d0, 2;\n\
         \x20   ld_kernarg_u64 $d3, [%out];\n\
         \x20   add_u64 $d3, $d3, $d0;\n\
         \x20   st_global_u32 $s1, [$d3];\n}};\n",
        operands.join(", ")
    )
}

/// Runs `kernel` (one work-item per wave) on every target with the case
/// operands and returns nothing; panics naming the first wrong case.
fn check_cases(what: &str, src: &str, cases: &[Vec<u64>], want: &[u32]) {
    let dir = oracles::Scratch::new("finalize-detect");
    let file = dir.path("k.hsail");
    std::fs::write(&file, src).expect("cannot write the kernel");
    let mut input = Vec::new();
    for c in cases {
        for i in 0..3 {
            input.extend_from_slice(&c.get(i).copied().unwrap_or(0).to_le_bytes());
        }
    }
    for mcpu in TARGETS {
        let got = run_words(&file, mcpu, (cases.len(), 1), Some(&input), cases.len());
        for (i, c) in cases.iter().enumerate() {
            let hex: Vec<String> = c.iter().map(|v| format!("{v:#x}")).collect();
            assert_eq!(
                got[i],
                want[i],
                "{what} on {mcpu}: operands [{}]: flags {:#x}, want {:#x}",
                hex.join(", "),
                got[i],
                want[i]
            );
        }
    }
}

/// Runs `&k` of `file` on `mcpu` with `(grid, group)`, the buffer
/// `input` when given, then an output buffer of `words` words, and
/// returns the output words.
fn run_words(
    file: &std::path::Path,
    mcpu: &str,
    (grid, group): (usize, usize),
    input: Option<&[u8]>,
    words: usize,
) -> Vec<u32> {
    let mut run = Run::new(file, "&k").grid(grid).group(group).mcpu(mcpu);
    if let Some(bytes) = input {
        run = run.arg_buf(bytes);
    }
    let out = run.arg_zeros(4 * words).run();
    out[usize::from(input.is_some())]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// HSAIL rounding modifier and apfloat rounding of a variant.
const ROUNDS: [(&str, Round); 4] = [
    ("near", Round::NearestTiesToEven),
    ("zero", Round::TowardZero),
    ("up", Round::TowardPositive),
    ("down", Round::TowardNegative),
];

/// Checks `op` of format `F` in every rounding, and with `ftz` in `near`.
fn check_op<F: Fmt>(op: &str) {
    let cases = cases::<F>(op);
    let srcs = cases[0].len();
    let mut variants: Vec<(String, Round, bool)> = Vec::new();
    if op == "sqrt" {
        variants.push((format!("sqrt_{}", F::NAME), Round::NearestTiesToEven, false));
        variants.push((
            format!("sqrt_ftz_{}", F::NAME),
            Round::NearestTiesToEven,
            true,
        ));
    } else {
        for (name, round) in ROUNDS {
            variants.push((format!("{op}_{name}_{}", F::NAME), round, false));
        }
        let near = Round::NearestTiesToEven;
        variants.push((format!("{op}_ftz_near_{}", F::NAME), near, true));
        variants.push((
            format!("{op}_ftz_zero_{}", F::NAME),
            Round::TowardZero,
            true,
        ));
    }
    for (inst, round, ftz) in variants {
        let want: Vec<u32> = cases
            .iter()
            .map(|c| expected::<F>(op, c, round, ftz))
            .collect();
        let src = kernel_text(F::NAME, F::NAME, &inst, srcs, 0x1f);
        check_cases(&inst, &src, &cases, &want);
    }
}

#[test]
fn detect_f32_add_sub() {
    check_op::<Single>("add");
    check_op::<Single>("sub");
}

#[test]
fn detect_f32_mul_div() {
    check_op::<Single>("mul");
    check_op::<Single>("div");
}

#[test]
fn detect_f32_fma_sqrt() {
    check_op::<Single>("fma");
    check_op::<Single>("sqrt");
}

#[test]
fn detect_f16_arithmetic() {
    for op in ["add", "sub", "mul", "div", "fma", "sqrt"] {
        check_op::<Half>(op);
    }
}

#[test]
fn detect_f64_add_sub() {
    check_op::<Double>("add");
    check_op::<Double>("sub");
}

#[test]
fn detect_f64_mul_div() {
    check_op::<Double>("mul");
    check_op::<Double>("div");
}

#[test]
fn detect_f64_fma_sqrt() {
    check_op::<Double>("fma");
    check_op::<Double>("sqrt");
}

/// Runs HSAIL `src`'s `&k` (one output buffer of `want.len()` words) on
/// every target with grid `grid` and work-groups of `group`.
fn check_words(what: &str, src: &str, grid: usize, group: usize, want: &[u32]) {
    let dir = oracles::Scratch::new("finalize-detect");
    let file = dir.path("k.hsail");
    std::fs::write(&file, src).expect("cannot write the kernel");
    for mcpu in TARGETS {
        let got = run_words(&file, mcpu, (grid, group), None, want.len());
        assert_eq!(got, want, "{what} on {mcpu}");
    }
}

/// A kernel `&k(%out)` enabling DETECT for `enable`, whose work-item i
/// stores the `n` words `$s20`… after running `body` (`$s0` = i).
fn words_kernel(enable: u32, body: &str, n: usize) -> String {
    let stores: String = (0..n)
        .map(|k| format!("    st_global_u32 $s{}, [$d1+{}];\n", 20 + k, 4 * k))
        .collect();
    format!(
        "module &D:1:0:$full:$large:$default;\n\
         kernel &k(kernarg_u64 %out)\n{{\n\
         \x20   enabledetectexceptions {enable};\n\
         \x20   workitemabsid_u32 $s0, 0;\n\
         {body}\
         \x20   cvt_u64_u32 $d0, $s0;\n\
         \x20   mul_u64 $d0, $d0, {};\n\
         \x20   ld_kernarg_u64 $d1, [%out];\n\
         \x20   add_u64 $d1, $d1, $d0;\n\
         {stores}}};\n",
        4 * n
    )
}

#[test]
fn detect_divide_by_zero_kernel() {
    // tests/finalize/detect_divide_by_zero.hsail: 1/(i·0) in every lane.
    let file = oracles::workspace_root().join("tests/finalize/detect_divide_by_zero.hsail");
    let src = std::fs::read_to_string(file).expect("cannot read the kernel");
    let src = src.replace("&detectexcept", "&k");
    check_words("detect_divide_by_zero", &src, 64, 64, &[DIVIDE_BY_ZERO; 64]);
}

#[test]
fn detect_counts_only_active_lanes() {
    // Lane 5 skips x/x (0/0 there: INVALID); then only lane 5 divides 1
    // by x = 0 (DIVIDE_BY_ZERO), the others (1/(i−5): INEXACT) skip it.
    let body = "    cleardetectexcept_u32 0x1f;\n\
                \x20   sub_u32 $s5, $s0, 5;\n\
                \x20   cvt_f32_s32 $s3, $s5;\n\
                \x20   cmp_eq_b1_u32 $c0, $s0, 5;\n\
                \x20   cbr_b1 $c0, @p1;\n\
                \x20   div_f32 $s2, $s3, $s3;\n\
                @p1:\n\
                \x20   getdetectexcept_u32 $s20;\n\
                \x20   cmp_ne_b1_u32 $c1, $s0, 5;\n\
                \x20   cbr_b1 $c1, @p2;\n\
                \x20   div_f32 $s2, 1.0f, $s3;\n\
                @p2:\n\
                \x20   getdetectexcept_u32 $s21;\n";
    let want: Vec<u32> = (0..64).flat_map(|_| [0, DIVIDE_BY_ZERO]).collect();
    check_words(
        "divergent lanes",
        &words_kernel(0x1f, body, 2),
        64,
        64,
        &want,
    );
}

#[test]
fn detect_set_clear_get_with_the_field() {
    // PRM 11.2: set ORs, clear removes, only bits 0..4 exist; the
    // exceptions then add to what was set. Only the enabled exceptions
    // (here DIVIDE_BY_ZERO and INEXACT) are reported.
    let body = "    cleardetectexcept_u32 0xffffffff;\n\
                \x20   getdetectexcept_u32 $s20;\n\
                \x20   setdetectexcept_u32 0xf5;\n\
                \x20   getdetectexcept_u32 $s21;\n\
                \x20   cleardetectexcept_u32 0x14;\n\
                \x20   getdetectexcept_u32 $s22;\n\
                \x20   div_f32 $s1, 0.0f, 0.0f;\n\
                \x20   getdetectexcept_u32 $s23;\n\
                \x20   add_f32 $s1, 0.1f, 0.2f;\n\
                \x20   getdetectexcept_u32 $s24;\n\
                \x20   div_f64 $d2, 1.0, 0.0;\n\
                \x20   getdetectexcept_u32 $s25;\n";
    let want: Vec<u32> = (0..128)
        .flat_map(|_| [0, 0x15, 0x01, 0x01, 0x11, 0x13])
        .collect();
    check_words(
        "set/clear/get",
        &words_kernel(0x12, body, 6),
        128,
        64,
        &want,
    );
}

/// f32 sources of the float → integer conversions: halves, the edges of
/// the 32-bit ranges, beyond them, specials and a subnormal.
const CVT_F32: [u32; 20] = [
    0x0000_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x4020_0000,
    0xc020_0000,
    0x4eff_ffff,
    0x4f00_0000,
    0xcf00_0000,
    0xcf00_0001,
    0x4f7f_ffff,
    0x4f80_0000,
    0x5f00_0000,
    0x5f80_0000,
    0xdf00_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0000,
    0x0000_0001,
    0x42fe_0000,
];

/// (HSAIL integer rounding stem, apfloat rounding).
const INT_ROUNDS: [(&str, Round); 4] = [
    ("neari", Round::NearestTiesToEven),
    ("zeroi", Round::TowardZero),
    ("upi", Round::TowardPositive),
    ("downi", Round::TowardNegative),
];

/// PRM 5.19.3 float → integer flags: sNaN → INVALID; regular modes:
/// out of range (apfloat INVALID_OP) → INVALID; signaling (`s…`) modes:
/// in range and not integral → INEXACT; saturating: nothing more.
fn cvt_int_flags<F: Fmt>(
    x: F,
    (signed, bits): (bool, usize),
    round: Round,
    sat: bool,
    sig: bool,
) -> u32 {
    let mut exact = false;
    let st = if signed {
        x.to_i128_r(bits, round, &mut exact).status
    } else {
        x.to_u128_r(bits, round, &mut exact).status
    };
    let out = st.contains(Status::INVALID_OP) || x.is_nan();
    let mut flags = if x.is_signaling() { INVALID } else { 0 };
    if out && !sat {
        flags |= INVALID;
    }
    if sig && !out && !exact {
        flags |= INEXACT;
    }
    flags
}

#[test]
fn detect_cvt_f32_to_integers() {
    let cases: Vec<Vec<u64>> = CVT_F32.iter().map(|&v| vec![u64::from(v)]).collect();
    for (dst, signed, bits) in [
        ("s32", true, 32),
        ("u32", false, 32),
        ("s64", true, 64),
        ("u8", false, 8),
    ] {
        for (stem, round) in INT_ROUNDS {
            for (sig, sat) in [(false, false), (true, false), (true, true), (false, true)] {
                let name = format!(
                    "{}{stem}{}",
                    if sig { "s" } else { "" },
                    if sat { "_sat" } else { "" }
                );
                let inst = format!("cvt_{name}_{dst}_f32");
                let want: Vec<u32> = CVT_F32
                    .iter()
                    .map(|&v| {
                        cvt_int_flags(fx::<Single>(u64::from(v)), (signed, bits), round, sat, sig)
                    })
                    .collect();
                check_cases(
                    &inst,
                    &kernel_text("f32", dst, &inst, 1, 0x1f),
                    &cases,
                    &want,
                );
            }
        }
    }
}

#[test]
fn detect_cvt_f64_to_f32_and_integers_to_floats() {
    // f64 → f32 rounds like arithmetic (overflow, tiny, inexact).
    let cases: Vec<Vec<u64>> = F64_VALUES
        .iter()
        .chain(&[
            0x3810_0000_0000_0000,
            0x380f_ffff_ffff_ffff,
            0x47ef_ffff_f000_0000,
            0x47ef_ffff_efff_ffff,
        ])
        .map(|&v| vec![v])
        .collect();
    for (name, round) in ROUNDS {
        for ftz in [false, true] {
            let ftz_name = if ftz { "_ftz" } else { "" };
            let targets: [(&str, NarrowRef); 2] = [
                ("f32", narrow_flags::<Single>),
                ("f16", narrow_flags::<Half>),
            ];
            for (dst, reference) in targets {
                let inst = format!("cvt{ftz_name}_{name}_{dst}_f64");
                let want: Vec<u32> = cases
                    .iter()
                    .map(|c| reference(flush(fx::<Double>(c[0]), ftz), round, ftz))
                    .collect();
                let src = kernel_text("f64", dst, &inst, 1, 0x1f);
                check_cases(&inst, &src, &cases, &want);
            }
            // f32 → f16 (the f32 sources widen exactly).
            let inst = format!("cvt{ftz_name}_{name}_f16_f32");
            let singles: Vec<Vec<u64>> = F32_VALUES
                .iter()
                .chain(&[0x477f_f000, 0x477f_efff, 0x3880_0000, 0x387f_ffff])
                .map(|&v| vec![u64::from(v)])
                .collect();
            let want: Vec<u32> = singles
                .iter()
                .map(|c| {
                    let x = flush(fx::<Single>(c[0]), ftz);
                    let wide: Double = x.convert_r(Round::NearestTiesToEven, &mut false).value;
                    let snan = if x.is_signaling() { INVALID } else { 0 };
                    narrow_flags::<Half>(wide, round, ftz) | snan
                })
                .collect();
            check_cases(
                &inst,
                &kernel_text("f32", "f16", &inst, 1, 0x1f),
                &singles,
                &want,
            );
        }
    }
    // Integers → floats: inexact when the integer is not representable.
    let ints: Vec<Vec<u64>> = [
        0u64,
        1,
        0x00ff_ffff,
        0x0100_0001,
        0x7fff_ffff,
        0xffff_ffff,
        0x8000_0000_0000_0001,
        u64::MAX,
        0x0020_0000_0000_0001,
    ]
    .iter()
    .map(|&v| vec![v])
    .collect();
    for (src, signed) in [("u32", false), ("s32", true), ("u64", false), ("s64", true)] {
        for (dst, name) in [
            ("f32", "near"),
            ("f32", "zero"),
            ("f64", "near"),
            ("f16", "near"),
        ] {
            let inst = format!("cvt_{name}_{dst}_{src}");
            let want: Vec<u32> = ints
                .iter()
                .map(|c| int_to_float_flags(c[0], src, signed, dst))
                .collect();
            check_cases(&inst, &kernel_text(src, dst, &inst, 1, 0x1f), &ints, &want);
        }
    }
}

/// A reference for f64 → narrower conversions: (source, rounding, ftz).
type NarrowRef = fn(Double, Round, bool) -> u32;

/// f64 → `T` flags per PRM 4.19.2 (tininess before rounding, ftz).
fn narrow_flags<T: Fmt + FloatConvert<Double>>(x: Double, round: Round, ftz: bool) -> u32
where
    Double: FloatConvert<T>,
{
    let mut lost = false;
    let r: StatusAnd<T> = x.convert_r(round, &mut lost);
    let mut flags = bits(r.status) & !INVALID | if x.is_signaling() { INVALID } else { 0 };
    let max = T::largest();
    let ulp = (max - max.next_down().value).value;
    let wide_max: Double = max.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let wide_ulp: Double = ulp.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let top = (wide_max + wide_ulp).value;
    if (r.value == max || r.value == -max) && x.abs() >= top {
        flags |= OVERFLOW | INEXACT;
    }
    let min: Double = T::smallest_normalized()
        .convert_r(Round::NearestTiesToEven, &mut lost)
        .value;
    let tiny = x.is_finite() && !x.is_zero() && x.abs() < min;
    if tiny && ftz {
        flags |= UNDERFLOW | INEXACT;
    } else if tiny && flags & INEXACT != 0 {
        flags |= UNDERFLOW;
    }
    flags
}

/// Integer (`src` bits as the low bits of `v`) → `dst` flags: INEXACT
/// when it is not representable, OVERFLOW (and INEXACT) past f16's range
/// (the cases round to nearest only: apfloat misses OVERFLOW when it
/// rounds to the largest finite value).
fn int_to_float_flags(v: u64, src: &str, signed: bool, dst: &str) -> u32 {
    let wide = src.ends_with("64");
    let value: i128 = match (wide, signed) {
        (true, true) => i128::from(v as i64),
        (true, false) => i128::from(v),
        (false, true) => i128::from(v as u32 as i32),
        (false, false) => i128::from(v as u32),
    };
    let round = Round::NearestTiesToEven;
    let st = match dst {
        "f16" => Half::from_i128_r(value, round).status,
        "f32" => Single::from_i128_r(value, round).status,
        _ => Double::from_i128_r(value, round).status,
    };
    bits(st)
}

#[test]
fn detect_signaling_nan_only_instructions_and_compares() {
    // PRM 4.19.4/5.11: min, max, ceil, floor, rint, trunc, fract raise
    // only INVALID, for a signaling NaN source; PRM 5.18: cmp too, and
    // the signaling forms (`s…`) for any NaN.
    for t in ["f32", "f64"] {
        let values: Vec<u64> = if t == "f32" {
            Single::values()
        } else {
            Double::values()
        };
        let is = |v: u64, signaling: bool| -> bool {
            let (nan, snan) = if t == "f32" {
                let x = fx::<Single>(v);
                (x.is_nan(), x.is_signaling())
            } else {
                let x = fx::<Double>(v);
                (x.is_nan(), x.is_signaling())
            };
            if signaling { nan } else { snan }
        };
        let pairs: Vec<Vec<u64>> = values
            .iter()
            .flat_map(|&a| values.iter().map(move |&b| vec![a, b]))
            .collect();
        let singles: Vec<Vec<u64>> = values.iter().map(|&a| vec![a]).collect();
        let insts = [
            ("min", false, 2, t),
            ("max", false, 2, t),
            ("ceil", false, 1, t),
            ("floor", false, 1, t),
            ("rint", false, 1, t),
            ("trunc", false, 1, t),
            ("fract", false, 1, t),
            ("cmp_lt_u32", false, 2, "u32"),
            ("cmp_equ_u32", false, 2, "u32"),
            ("cmp_sle_u32", true, 2, "u32"),
            ("cmp_snan_u32", true, 2, "u32"),
        ];
        for (op, signaling, srcs, dst) in insts {
            let cases = if srcs == 2 { &pairs } else { &singles };
            let want: Vec<u32> = cases
                .iter()
                .map(|c| u32::from(c.iter().any(|&v| is(v, signaling))))
                .collect();
            let inst = format!("{op}_{t}");
            check_cases(&inst, &kernel_text(t, dst, &inst, srcs, 0x1f), cases, &want);
        }
    }
}

#[test]
fn detect_flags_cross_recursive_calls() {
    // The flags are the wave's, whatever function raises or reads them:
    // the kernel sets OVERFLOW, the recursion's base divides by zero,
    // every level above it adds 0.1 + 0.2 (INEXACT) and returns the
    // flags it reads; the kernel reads the same afterwards.
    let src = "module &D:1:0:$full:$large:$default;\n\
        function &f(arg_u32 %r)(arg_u32 %n)\n{\n\
        \x20   ld_arg_u32 $s0, [%n];\n\
        \x20   cmp_eq_b1_u32 $c0, $s0, 0;\n\
        \x20   cbr_b1 $c0, @base;\n\
        \x20   sub_u32 $s1, $s0, 1;\n\
        \x20   {\n\
        \x20       arg_u32 %rr;\n\
        \x20       arg_u32 %nn;\n\
        \x20       st_arg_u32 $s1, [%nn];\n\
        \x20       call &f(%rr)(%nn);\n\
        \x20       ld_arg_u32 $s2, [%rr];\n\
        \x20   }\n\
        \x20   add_f32 $s3, 0.1f, 0.2f;\n\
        \x20   getdetectexcept_u32 $s2;\n\
        \x20   st_arg_u32 $s2, [%r];\n\
        \x20   ret;\n\
        @base:\n\
        \x20   div_f32 $s3, 1.0f, 0.0f;\n\
        \x20   getdetectexcept_u32 $s2;\n\
        \x20   st_arg_u32 $s2, [%r];\n\
        \x20   ret;\n};\n\
        kernel &k(kernarg_u64 %out)\n{\n\
        \x20   enabledetectexceptions 0x1f;\n\
        \x20   workitemabsid_u32 $s0, 0;\n\
        \x20   cleardetectexcept_u32 0x1f;\n\
        \x20   setdetectexcept_u32 0x4;\n\
        \x20   mov_b32 $s5, 3;\n\
        \x20   {\n\
        \x20       arg_u32 %r;\n\
        \x20       arg_u32 %n;\n\
        \x20       st_arg_u32 $s5, [%n];\n\
        \x20       call &f(%r)(%n);\n\
        \x20       ld_arg_u32 $s20, [%r];\n\
        \x20   }\n\
        \x20   getdetectexcept_u32 $s21;\n\
        \x20   cvt_u64_u32 $d0, $s0;\n\
        \x20   shl_u64 $d0, $d0, 3;\n\
        \x20   ld_kernarg_u64 $d1, [%out];\n\
        \x20   add_u64 $d1, $d1, $d0;\n\
        \x20   st_global_u32 $s20, [$d1];\n\
        \x20   st_global_u32 $s21, [$d1+4];\n};\n";
    let flags = OVERFLOW | DIVIDE_BY_ZERO | INEXACT;
    check_words("recursion", src, 64, 64, &[flags; 128]);
}

#[test]
fn detect_enabled_by_the_finalizer_option() {
    // PRM 11.2: DETECT may be enabled when finalizing instead of by the
    // directive: `hsakit finalize --enable-detect-exceptions MASK`.
    let body = "    cleardetectexcept_u32 0x1f;\n\
                \x20   div_f32 $s1, 1.0f, 0.0f;\n\
                \x20   add_f32 $s1, 0.1f, 0.2f;\n\
                \x20   getdetectexcept_u32 $s20;\n";
    let src = words_kernel(0, body, 1);
    let dir = oracles::Scratch::new("finalize-detect");
    let file = dir.path("k.hsail");
    std::fs::write(&file, src).expect("cannot write the kernel");
    for mcpu in TARGETS {
        let co = dir.path(&format!("k-{mcpu}.co"));
        let args = [
            "finalize",
            file.to_str().expect("UTF-8 path"),
            "--mcpu",
            mcpu,
            "--enable-detect-exceptions",
            "0x12",
            "-o",
            co.to_str().expect("UTF-8 path"),
        ];
        let out = common::hsakit(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = run_words(&co, mcpu, (64, 64), None, 64);
        assert_eq!(got, [DIVIDE_BY_ZERO | INEXACT; 64], "option on {mcpu}");
    }
    let bad = common::hsakit(&[
        "finalize",
        file.to_str().expect("UTF-8 path"),
        "--enable-detect-exceptions",
        "0x20",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("beyond the five exceptions"));
}

#[test]
fn detect_packed_elements() {
    // Each element of a packed operation raises its own exceptions: the
    // low halves add exactly (1 + 1), the high ones overflow (max + max);
    // then 2 + 0.1 (f32x2: INEXACT in the high element only).
    let body = "    cleardetectexcept_u32 0x1f;\n\
                \x20   mov_b32 $s1, 0x7bff3c00;\n\
                \x20   add_pp_f16x2 $s3, $s1, $s1;\n\
                \x20   getdetectexcept_u32 $s20;\n\
                \x20   cleardetectexcept_u32 0x1f;\n\
                \x20   mov_b64 $d1, 0x3dcccccd40000000;\n\
                \x20   mov_b64 $d2, 0x4000000040000000;\n\
                \x20   add_pp_f32x2 $d3, $d1, $d2;\n\
                \x20   getdetectexcept_u32 $s21;\n";
    let want: Vec<u32> = (0..64)
        .flat_map(|_| [OVERFLOW | INEXACT, INEXACT])
        .collect();
    check_words("packed", &words_kernel(0x1f, body, 2), 64, 64, &want);
}
