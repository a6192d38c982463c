//! Float and `cvt` kernels (`tests/finalize/float_*.hsail`, `cvt_*.hsail`)
//! finalized for gfx900 and gfx90a, run on the emulator, and checked
//! against a reference written from the PRM (ch. 4.19, 5.11–5.14, 5.19)
//! with `rustc_apfloat` doing IEEE arithmetic in every rounding mode.
//!
//! Each kernel loads one element of its source type from each input
//! buffer and writes one 8-byte slot per instruction marked `// #k`;
//! float results are NaN-canonicalized in the kernel (NaN payloads are
//! the PRM's latitude). The reference reads the marked lines, so a kernel
//! is its own test list. Where the PRM leaves a result undefined (regular
//! float → integer conversions out of range) or implementation defined
//! (native instructions: a tolerance; min/max of ±0), the check is
//! relaxed accordingly.

use std::path::{Path, PathBuf};

mod common;
use common::Run;

use rustc_apfloat::ieee::{Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// One instruction of a kernel: its mnemonic and source registers.
struct Op {
    name: String,
    /// How many of the inputs it reads.
    srcs: usize,
    extra: Option<u64>,
}

/// A kernel file's test description.
struct Kernel {
    path: PathBuf,
    name: String,
    grid: usize,
    inputs: usize,
    src: String,
    /// NaN results keep an input's payload (not canonicalized).
    nan_payload: bool,
    ops: Vec<Op>,
}

fn parse_kernel(path: &Path) -> Kernel {
    let text = std::fs::read_to_string(path).unwrap();
    let mut name = String::new();
    let mut grid = 0;
    let mut bufs = 0;
    let mut src = String::new();
    let mut nan_payload = false;
    let mut ops = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("// test:") {
            for kv in rest.split_whitespace() {
                match kv.split_once('=') {
                    Some(("kernel", v)) => name = v.trim_start_matches('&').to_string(),
                    Some(("grid", v)) => grid = v.parse().unwrap(),
                    _ => {}
                }
            }
        } else if l.starts_with("// arg: buf") {
            bufs += 1;
        } else if let Some(rest) = l.strip_prefix("// ref: src=") {
            let mut words = rest.split_whitespace();
            src = words.next().unwrap().to_string();
            nan_payload = words.any(|w| w == "nan=payload");
        } else if l.contains("// #") {
            let inst = l.split(';').next().unwrap();
            let (mn, operands) = inst.split_once(' ').unwrap();
            let operands: Vec<&str> = operands.split(',').map(str::trim).skip(1).collect();
            let srcs = operands
                .iter()
                .filter(|o| o.starts_with("$s") || o.starts_with("$d"))
                .count();
            let extra = operands
                .iter()
                .find(|o| !o.starts_with('$'))
                .map(|o| parse_int(o));
            ops.push(Op {
                name: mn.to_string(),
                srcs,
                extra,
            });
        }
    }
    Kernel {
        path: path.to_path_buf(),
        name,
        grid,
        inputs: bufs - 1,
        src,
        nan_payload,
        ops,
    }
}

fn parse_int(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

// ---------------------------------------------------------------------------
// Inputs.

use oracles::Rng;

/// Bit size of a type name (`f32` → 32, `b1` → 1).
fn bits_of(t: &str) -> u32 {
    t[1..].parse().unwrap()
}

/// Interesting values of a float format: zeros, infinities, NaNs,
/// subnormals, the smallest normal, halves (ties), integers near the
/// integer ranges, and the largest finite value.
fn float_specials(t: &str) -> Vec<u64> {
    let (e, m) = match t {
        "f16" => (5, 10),
        "f32" => (8, 23),
        _ => (11, 52),
    };
    let bias = (1i64 << (e - 1)) - 1;
    let sign = 1u64 << (e + m);
    let exp_all = ((1u64 << e) - 1) << m;
    let from = |v: f64| -> u64 {
        let d = Double::from_bits(u128::from(v.to_bits()));
        let mut lost = false;
        match t {
            "f16" => FloatConvert::<Half>::convert_r(d, Round::NearestTiesToEven, &mut lost)
                .value
                .to_bits() as u64,
            "f32" => FloatConvert::<Single>::convert_r(d, Round::NearestTiesToEven, &mut lost)
                .value
                .to_bits() as u64,
            _ => v.to_bits(),
        }
    };
    let mut v = vec![
        0,
        sign,
        exp_all,
        exp_all | sign,
        exp_all | 1 << (m - 1),
        exp_all | 1,
        1,
        sign | 1,
        (1 << m) - 1,
        1 << m,
        sign | 1 << m,
        exp_all - 1,
        sign | (exp_all - 1),
    ];
    let _ = bias;
    for x in [
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        1.0,
        -1.0,
        0.25,
        3.0,
        127.5,
        128.0,
        -128.5,
        255.5,
        256.0,
        -32768.5,
        32767.5,
        65535.5,
        65536.0,
        2147483647.5,
        -2147483648.5,
        4294967295.0,
        4294967296.0,
        9.2e18,
        -9.3e18,
        1.8e19,
        1e-3,
        -7.75,
    ] {
        v.push(from(x));
    }
    v
}

/// `n` input elements of type `t` (bit patterns).
fn gen_inputs(t: &str, n: usize, rng: &mut Rng) -> Vec<u64> {
    let b = bits_of(t);
    let mask = if b == 64 { u64::MAX } else { (1 << b) - 1 };
    let specials = if t.starts_with('f') {
        float_specials(t)
    } else {
        let top = 1u64 << (b - 1);
        vec![0, 1, mask, top, top - 1, top + 1, 2, mask - 1]
    };
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            if r.is_multiple_of(4) {
                specials[(r >> 8) as usize % specials.len()]
            } else if t.starts_with('f') && r % 4 == 1 {
                // Moderate magnitudes: exponents near the bias.
                let (e, m) = match t {
                    "f16" => (5, 10),
                    "f32" => (8, 23),
                    _ => (11, 52),
                };
                let bias = (1u64 << (e - 1)) - 1;
                let exp = bias - 8 + (r >> 20) % 48;
                let exp = exp.min((1 << e) - 2);
                let sign = (r >> 10) & 1;
                (sign << (e + m)) | (exp << m) | (rng.next_u64() & ((1 << m) - 1))
            } else {
                rng.next_u64() & mask
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The reference.

/// Rounding of a float instruction (MODE-like): the module default when
/// omitted.
fn round_of(name: &str, default: Round) -> Round {
    let parts: Vec<&str> = name.split('_').collect();
    if parts.contains(&"up") {
        Round::TowardPositive
    } else if parts.contains(&"down") {
        Round::TowardNegative
    } else if parts.contains(&"zero") {
        Round::TowardZero
    } else if parts.contains(&"near") {
        Round::NearestTiesToEven
    } else {
        default
    }
}

/// A float value of any of the three formats, as bits plus its format.
trait Fmt: Float + FloatConvert<Double> + FloatConvert<Quad> + Copy {
    fn canonical_nan() -> u64;
}
impl Fmt for Half {
    fn canonical_nan() -> u64 {
        0x7e00
    }
}
impl Fmt for Single {
    fn canonical_nan() -> u64 {
        0x7fc0_0000
    }
}
impl Fmt for Double {
    fn canonical_nan() -> u64 {
        0x7ff8_0000_0000_0000
    }
}

fn fx<F: Fmt>(b: u64) -> F {
    F::from_bits(u128::from(b))
}

/// Bits with NaN canonicalized (what the kernels store).
fn canon<F: Fmt>(x: F) -> u64 {
    if x.is_nan() {
        F::canonical_nan()
    } else {
        x.to_bits() as u64
    }
}

/// Subnormals → zero of the same sign (PRM 4.19.3) when `ftz`.
fn flush<F: Fmt>(x: F, ftz: bool) -> F {
    if ftz && x.is_denormal() {
        F::ZERO.copy_sign(x)
    } else {
        x
    }
}

/// Expected result slot, or `None` when any value is allowed. `Some(Err)`
/// lists alternatives (either is fine).
type Expect = Option<Vec<u64>>;

fn one(v: u64) -> Expect {
    Some(vec![v])
}

/// √x correctly rounded in `round` (x already flushed).
fn sqrt_ref<F: Fmt>(x: F, round: Round) -> F
where
    Double: FloatConvert<F>,
{
    if x.is_nan() || x.is_zero() || (x.is_infinite() && !x.is_negative()) {
        return x;
    }
    if x.is_negative() {
        return F::NAN;
    }
    let mut lost = false;
    let xd: Double = x.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let sd = f64::from_bits(xd.to_bits() as u64).sqrt();
    // Nearest even: f64 √ is correctly rounded; rounding it again to a
    // format of ≤ 24 bits is innocuous (53 ≥ 2·24 + 2).
    let c: F = Double::from_bits(u128::from(sd.to_bits()))
        .convert_r(Round::NearestTiesToEven, &mut lost)
        .value;
    if round == Round::NearestTiesToEven {
        return c;
    }
    // Exact comparison of c² with x in Quad.
    let cq: Quad = c.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let xq: Quad = x.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let sq = cq.mul_r(cq, Round::NearestTiesToEven).value;
    let below = sq < xq;
    let above = sq > xq;
    match round {
        Round::TowardPositive if below => c.next_up().value,
        Round::TowardNegative | Round::TowardZero if above => c.next_down().value,
        _ => c,
    }
}

/// PRM `fract`.
fn fract_ref<F: Fmt>(x: F, round: Round) -> F {
    if x.is_zero() || x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return F::ZERO.copy_sign(x);
    }
    let fl = x.round_to_integral(Round::TowardNegative).value;
    let r = x.sub_r(fl, round).value;
    let one = F::from_u128(1).value;
    let below = one.next_down().value;
    if r >= one { below } else { r }
}

/// An arithmetic/bit instruction of format `F` on inputs `a`, `b`, `c`.
fn arith<F: Fmt>(op: &Op, ins: [u64; 3], default: Round) -> Expect
where
    Double: FloatConvert<F>,
{
    let n = &op.name;
    let parts: Vec<&str> = n.split('_').collect();
    let base = parts[0];
    let ftz = parts.contains(&"ftz");
    let round = round_of(n, default);
    let [a, b, c] = ins.map(|v| flush(fx::<F>(v), ftz));
    let out = |x: F| one(canon(flush(x, ftz)));
    let raw = ins.map(fx::<F>);
    match base {
        "add" => out(a.add_r(b, round).value),
        "sub" => out(a.sub_r(b, round).value),
        "mul" => out(a.mul_r(b, round).value),
        "div" => out(a.div_r(b, round).value),
        "fma" | "mad" => out(a.mul_add_r(b, c, round).value),
        "sqrt" => out(sqrt_ref(a, round)),
        "fract" => out(fract_ref(a, round)),
        "ceil" => out(a.round_to_integral(Round::TowardPositive).value),
        "floor" => out(a.round_to_integral(Round::TowardNegative).value),
        "trunc" => out(a.round_to_integral(Round::TowardZero).value),
        "rint" => out(a.round_to_integral(Round::NearestTiesToEven).value),
        "min" | "max" => {
            if a.is_nan() || b.is_nan() {
                let v = if a.is_signaling() || b.is_signaling() || (a.is_nan() && b.is_nan()) {
                    F::NAN
                } else if a.is_nan() {
                    b
                } else {
                    a
                };
                return one(canon(v));
            }
            if a.is_zero() && b.is_zero() {
                // minNum/maxNum leave the sign of a zero result open; the
                // kernels add +0.0, which makes it +0.
                return one(canon(F::ZERO));
            }
            let pick_a = if base == "min" { a < b } else { a > b };
            let v = if pick_a { a } else { b };
            one(canon(if v.is_zero() { F::ZERO } else { v }))
        }
        "abs" => one(canon(raw[0].abs())),
        "neg" => one(canon(-raw[0])),
        "copysign" => one(canon(raw[0].copy_sign(raw[1]))),
        "class" => {
            let x = raw[0];
            let bit = if x.is_nan() {
                if x.is_signaling() { 0 } else { 1 }
            } else {
                let neg = x.is_negative();
                let k = if x.is_infinite() {
                    (2, 9)
                } else if x.is_zero() {
                    (5, 6)
                } else if x.is_denormal() {
                    (4, 7)
                } else {
                    (3, 8)
                };
                if neg { k.0 } else { k.1 }
            };
            one(op.extra.unwrap() >> bit & 1)
        }
        _ => panic!("no reference for {n}"),
    }
}

/// Natives: `None` = no check for this input, else (reference, relative
/// tolerance) in f64.
fn native(op: &Op, t: &str, ins: [u64; 3], got: u64) -> Result<(), String> {
    let to64 = |b: u64| -> f64 {
        let mut lost = false;
        match t {
            "f16" => f64::from_bits(
                FloatConvert::<Double>::convert_r(
                    fx::<Half>(b),
                    Round::NearestTiesToEven,
                    &mut lost,
                )
                .value
                .to_bits() as u64,
            ),
            "f32" => f64::from(f32::from_bits(b as u32)),
            _ => f64::from_bits(b),
        }
    };
    let [a, b, c] = ins.map(to64);
    let g = to64(got);
    let base = op.name.split('_').next().unwrap();
    let (want, tol): (f64, f64) = match base {
        "nsqrt" => (a.sqrt(), 1e-6),
        "nrsqrt" => (1.0 / a.sqrt(), 1e-6),
        "nrcp" => (1.0 / a, 1e-6),
        "nfma" => (a.mul_add(b, c), 1e-6),
        "nsin" if a.abs() < 100.0 => (a.sin(), 1e-6),
        "ncos" if a.abs() < 100.0 => (a.cos(), 1e-6),
        "nlog2" => (a.log2(), 1e-6),
        "nexp2" => (a.exp2(), 1e-6),
        _ => return Ok(()),
    };
    let tol = match t {
        "f16" => 2e-3,
        "f32" => tol.max(4e-7),
        _ => tol,
    };
    // Results beyond the format's range overflow.
    let max = match t {
        "f16" => 65504.0,
        "f32" => f64::from(f32::MAX),
        _ => f64::MAX,
    };
    // (A value just past the largest finite may round either way.)
    if want.abs() > max * 0.999 && (g.is_infinite() || g.abs() >= max * 0.999) {
        return Ok(());
    }
    let want = if want.abs() > max {
        want * f64::INFINITY
    } else {
        want
    };
    let ok = if want.is_nan() {
        g.is_nan()
    } else if want.is_infinite() || want == 0.0 {
        // Denormal inputs and results may be flushed (implementation defined).
        g == want || g.abs() < 1e-30 || g.is_infinite()
    } else if matches!(base, "nsin" | "ncos") {
        (g - want).abs() < 1e-3
    } else if want.abs() < 1e-30 || want.abs() > 1e300 || a.abs() < 1e-30 {
        true
    } else {
        ((g - want) / want).abs() <= tol
            || (base == "nfma" && (g - want).abs() <= 1e-6 * (a * b).abs())
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} of {a:e} {b:e} {c:e}: got {g:e}, want {want:e}",
            op.name
        ))
    }
}

/// Whether an instruction is a native (approximate) one (PRM 5.14).
fn is_native(name: &str) -> bool {
    let base = name.split('_').next().unwrap_or("");
    [
        "nsqrt", "nrsqrt", "nrcp", "nfma", "nsin", "ncos", "nlog2", "nexp2",
    ]
    .contains(&base)
}

/// Integer source value (sign- or zero-extended from its bits).
fn int_val(t: &str, v: u64) -> i128 {
    let b = bits_of(t);
    if t.starts_with('s') {
        i128::from(((v << (64 - b)) as i64) >> (64 - b))
    } else {
        i128::from(v & if b == 64 { u64::MAX } else { (1 << b) - 1 })
    }
}

/// Integer result as stored (low 32 bits for sizes under 64, extended by
/// the destination type per PRM 5.19.1).
fn int_store(t: &str, v: i128) -> u64 {
    let b = bits_of(t);
    let cut = if b == 64 {
        v as u64
    } else {
        (v as u64) & ((1 << b) - 1)
    };
    if b == 64 {
        return cut;
    }
    let ext = if t.starts_with('s') {
        ((cut << (64 - b)) as i64 >> (64 - b)) as u64
    } else {
        cut
    };
    ext & 0xffff_ffff
}

fn int_range(t: &str) -> (i128, i128) {
    let b = bits_of(t);
    if t.starts_with('s') {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

fn float_bits_of(t: &str) -> u32 {
    bits_of(t)
}

/// Float (bits) of type `t` to f64-representable apfloat Quad.
fn to_quad(t: &str, v: u64, ftz: bool) -> Quad {
    let mut lost = false;
    match t {
        "f16" => {
            flush(fx::<Half>(v), ftz)
                .convert_r(Round::NearestTiesToEven, &mut lost)
                .value
        }
        "f32" => {
            flush(fx::<Single>(v), ftz)
                .convert_r(Round::NearestTiesToEven, &mut lost)
                .value
        }
        _ => {
            flush(fx::<Double>(v), ftz)
                .convert_r(Round::NearestTiesToEven, &mut lost)
                .value
        }
    }
}

/// Rounds a Quad to float type `t` in `round` (flushing tiny results under
/// `ftz`), canonical bits.
fn from_quad(t: &str, q: Quad, round: Round, ftz: bool) -> u64 {
    let mut lost = false;
    match t {
        "f16" => canon(flush::<Half>(q.convert_r(round, &mut lost).value, ftz)),
        "f32" => canon(flush::<Single>(q.convert_r(round, &mut lost).value, ftz)),
        _ => canon(flush::<Double>(q.convert_r(round, &mut lost).value, ftz)),
    }
}

/// `cvt_<mods>_<dst>_<src>`.
fn cvt(op: &Op, v: u64, default: Round) -> Expect {
    let parts: Vec<&str> = op.name.split('_').collect();
    let (dt, st) = (parts[parts.len() - 2], parts[parts.len() - 1]);
    let ftz = parts.contains(&"ftz");
    let sat = parts.contains(&"sat");
    let src_float = st.starts_with('f');
    if st == "b1" {
        // The kernels set the b1 from a u32 input (ztest).
        let bit = i128::from(v & 0xffff_ffff != 0);
        return one(match dt {
            "f16" => 0x3c00 * bit as u64,
            "f32" => 0x3f80_0000 * bit as u64,
            "f64" => 0x3ff0_0000_0000_0000 * bit as u64,
            "s32" | "s64" => int_store(dt, -bit),
            _ => int_store(dt, bit),
        });
    }
    if dt == "b1" {
        let nz = if src_float {
            !to_quad(st, v, ftz).is_zero()
        } else {
            int_val(st, v) != 0
        };
        return one(u64::from(nz));
    }
    if dt.starts_with('f') {
        let q = if src_float {
            to_quad(st, v, ftz)
        } else {
            let i = int_val(st, v);
            Quad::from_i128(i).value
        };
        if q.is_nan() {
            return one(from_quad(dt, Quad::NAN, Round::NearestTiesToEven, false));
        }
        let round = round_of(&op.name, default);
        let _ = float_bits_of(dt);
        return one(from_quad(dt, q, round, ftz));
    }
    if src_float {
        let q = to_quad(st, v, ftz);
        let round = if parts.iter().any(|p| p.ends_with("upi")) {
            Round::TowardPositive
        } else if parts.iter().any(|p| p.ends_with("downi")) {
            Round::TowardNegative
        } else if parts.iter().any(|p| p.ends_with("neari")) {
            Round::NearestTiesToEven
        } else {
            Round::TowardZero
        };
        let (lo, hi) = int_range(dt);
        if q.is_nan() {
            return if sat { one(0) } else { None };
        }
        let r = q.round_to_integral(round).value;
        let val = if r.is_infinite() {
            if r.is_negative() {
                i128::MIN
            } else {
                i128::MAX
            }
        } else {
            let mut exact = false;
            r.to_i128_r(128, Round::TowardZero, &mut exact).value
        };
        if val < lo || val > hi {
            return if sat {
                one(int_store(dt, val.clamp(lo, hi)))
            } else {
                None
            };
        }
        return one(int_store(dt, val));
    }
    // Integer → integer.
    one(int_store(dt, int_val(st, v)))
}

/// The expected slot value of one instruction.
fn expect(op: &Op, src: &str, ins: [u64; 3], default: Round) -> Expect {
    if op.name.starts_with("cvt") {
        return cvt(op, ins[0], default);
    }
    match src {
        "f16" => arith::<Half>(op, ins, default),
        "f32" => arith::<Single>(op, ins, default),
        _ => arith::<Double>(op, ins, default),
    }
}

/// The size in bytes of the stored result of an instruction.
fn result_mask(op: &Op) -> u64 {
    let parts: Vec<&str> = op.name.split('_').collect();
    let dt = if op.name.starts_with("cvt") {
        parts[parts.len() - 2]
    } else if op.name.starts_with("class") {
        "b1"
    } else {
        parts[parts.len() - 1]
    };
    match dt {
        "f16" => 0xffff,
        "f64" | "u64" | "s64" => u64::MAX,
        _ => 0xffff_ffff,
    }
}

// ---------------------------------------------------------------------------
// Running.

/// Runs a kernel on `mcpu` with `inputs` (bit patterns of the source type).
fn run(k: &Kernel, mcpu: &str, inputs: &[Vec<u64>]) -> Vec<u64> {
    let es = (bits_of(&k.src) / 8).max(1) as usize;
    let mut r = Run::new(&k.path, &k.name).grid(k.grid).group(64).mcpu(mcpu);
    for vals in inputs {
        let bytes: Vec<u8> = vals
            .iter()
            .flat_map(|v| v.to_le_bytes()[..es].to_vec())
            .collect();
        r = r.arg_buf(&bytes);
    }
    r.arg_zeros(8 * k.ops.len() * k.grid).run()[k.inputs]
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Checks one kernel file on both targets; returns the mismatches.
fn check(path: &Path) -> Vec<String> {
    let k = parse_kernel(path);
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ k.name.len() as u64);
    let inputs: Vec<Vec<u64>> = (0..k.inputs)
        .map(|_| gen_inputs(&k.src, k.grid, &mut rng))
        .collect();
    let text = std::fs::read_to_string(path).unwrap();
    let default = if text.contains(":$zero;") {
        Round::TowardZero
    } else {
        Round::NearestTiesToEven
    };
    let mut errors = Vec::new();
    for mcpu in ["gfx900", "gfx90a"] {
        let out = run(&k, mcpu, &inputs);
        for i in 0..k.grid {
            let ins = [0, 1, 2].map(|j| inputs.get(j).map_or(0, |v| v[i]));
            for (n, op) in k.ops.iter().enumerate() {
                let got = out[i * k.ops.len() + n] & result_mask(op);
                if is_native(&op.name) {
                    if let Err(e) = native(op, &k.src, ins, got) {
                        errors.push(format!("{mcpu} {}: {e}", k.name));
                    }
                    continue;
                }
                if k.nan_payload && !nan_ok(&k.src, op, ins, got) {
                    errors.push(format!(
                        "{mcpu} {} #{n} {} inputs {:x?}: NaN {got:#x} is no input NaN",
                        k.name,
                        op.name,
                        &ins[..op.srcs]
                    ));
                    continue;
                }
                if let Some(want) = expect(op, &k.src, ins, default)
                    && !want.contains(&got)
                    && !(k.nan_payload && is_nan_bits(&k.src, got))
                {
                    errors.push(format!(
                        "{mcpu} {} #{n} {} inputs {:x?}: got {got:#x}, want {:x?}",
                        k.name,
                        op.name,
                        &ins[..k.inputs.max(1)],
                        want
                    ));
                }
            }
        }
    }
    errors
}

/// Whether `x` (bits of float type `t`) is a NaN.
fn is_nan_bits(t: &str, x: u64) -> bool {
    match t {
        "f16" => fx::<Half>(x).is_nan(),
        "f32" => fx::<Single>(x).is_nan(),
        _ => fx::<Double>(x).is_nan(),
    }
}

/// PRM 4.19.4 (full profile): a NaN result is one of the NaN inputs,
/// quieted, with any sign; without NaN inputs any quiet NaN. (Non-NaN
/// results are checked against the reference separately.)
fn nan_ok(t: &str, op: &Op, ins: [u64; 3], got: u64) -> bool {
    if !is_nan_bits(t, got) {
        return true;
    }
    let b = bits_of(t);
    let sign = 1u64 << (b - 1);
    let quiet = match t {
        "f16" => 0x200,
        "f32" => 0x40_0000,
        _ => 1 << 51,
    };
    let nans: Vec<u64> = ins[..op.srcs]
        .iter()
        .filter(|&&v| is_nan_bits(t, v))
        .map(|&v| (v | quiet) & !sign)
        .collect();
    got & quiet != 0 && (nans.is_empty() || nans.contains(&(got & !sign)))
}

fn kernels(prefix: &str) -> Vec<PathBuf> {
    let dir = oracles::workspace_root().join("tests/finalize");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(prefix) && n.ends_with(".hsail")
        })
        .collect();
    v.sort();
    v
}

fn check_all(prefix: &str) {
    let mut errors = Vec::new();
    let files = kernels(prefix);
    assert!(!files.is_empty());
    for f in &files {
        errors.extend(check(f));
    }
    let n = errors.len();
    // One line per failing instruction and target, then the first ones.
    let mut seen = std::collections::BTreeSet::new();
    let mut firsts: Vec<String> = errors
        .iter()
        .filter(|e| {
            let key: Vec<&str> = e.split_whitespace().take(4).collect();
            seen.insert(key.join(" "))
        })
        .cloned()
        .collect();
    firsts.truncate(60);
    errors = firsts;
    assert!(n == 0, "{n} mismatches, first ones:\n{}", errors.join("\n"));
}

#[test]
fn float_kernels_match_the_prm() {
    check_all("float_");
}

#[test]
fn cvt_kernels_match_the_prm() {
    check_all("cvt_");
}
