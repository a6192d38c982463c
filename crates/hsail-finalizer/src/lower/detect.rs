//! DETECT exception flags computed in software (PRM 11.2, 12.2, 13.4).
//!
//! Design. When a kernel (or a function it reaches) enables DETECT for a
//! set E of the five exceptions (`enabledetectexceptions E`), the wave's
//! `exception_detected` field lives in one SGPR, zeroed in the prologue;
//! `getdetectexcept`/`setdetectexcept`/`cleardetectexcept` read and write
//! it ([`super::mode`]). Before each f32/f64 `add`, `sub`, `mul`, `fma`,
//! `mad`, `div` and `sqrt` the finalizer computes, per lane, which of the
//! exceptions in E the instruction raises (PRM 4.19.2) and ORs each one
//! present in an active lane into the field (`v_cmp` lane mask, AND EXEC,
//! `s_cselect`). Hardware flags (TRAPSTS.EXCP) are not used: the
//! multi-instruction `div`/`sqrt` expansions raise flags the single HSAIL
//! instruction must not. A kernel without the directive gets no extra
//! code and keeps the TRAPSTS behaviour of `getdetectexcept`.
//!
//! Rules (after flushing subnormal inputs under `ftz`, PRM 4.19.3), with
//! v the exact result:
//! - INVALID_OPERATION: an input is a signaling NaN, or the result is a
//!   NaN while no input is one (∞−∞, 0·∞, 0/0, ∞/∞, √negative); `fma`
//!   of 0·∞ also with a quiet NaN addend.
//! - DIVIDE_BY_ZERO (`div`): divisor zero, dividend finite non-zero.
//! - OVERFLOW: finite inputs and v beyond the rounding's overflow
//!   threshold: the largest finite plus half an ulp for `near`, above
//!   the largest finite when rounding away from zero, 2^(emax+1) toward
//!   zero (f64: v's nearest-even rounding is infinite, which misses only
//!   v in [max + ulp/2, 2^1024) rounded toward zero).
//! - UNDERFLOW: tininess is detected BEFORE rounding (|v| below the
//!   smallest normal, v ≠ 0); raised when v is tiny and not representable,
//!   or tiny under `ftz` (flushed to zero).
//! - INEXACT: v is not representable (overflow included), or v is tiny
//!   under `ftz` (this implementation's choice, PRM 4.19.2).
//!
//! v is represented as v = (s + e)·2^k with s, e f64 values, s the
//! nearest-even rounding of v/2^k and e of the sign of the rest (zero
//! when exact): f32 operations are evaluated in f64 (k = 0; products
//! exactly, sums with TwoSum, quotients and square roots with their fma
//! remainder). f64 `add`/`sub` use TwoSum (k = 0, exact); `mul`, `div`,
//! `sqrt` and `fma` work on the operands' `v_frexp` mantissas so that no
//! residual underflows, with k the exponents combined (for `fma` the
//! larger of product and addend, the smaller part shifted at most 110
//! bits: below that it is only a sticky bit). `fma`'s rest is a chain of
//! TwoSums whose last addition rounds: its sign could only be wrong in a
//! cancellation finer than 2^-106 of the result. Conversions: see
//! `detect_cvt`.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigControlDirective, BrigOpcode};
use hsail::validate::CodeBlock;

use super::convert::float_fmt;
use super::mode::{DOWN, FloatMods, Fmt, NEAR, UP, ZERO};
use super::{Cx, Kind, Src, pair};
use crate::Result;

/// The exceptions enabled for DETECT in code blocks `blocks` (a kernel
/// and the functions it reaches): the union of their
/// `enabledetectexceptions` masks.
pub(super) fn enabled(m: &brig::BrigModule<'_>, blocks: &[&CodeBlock]) -> u32 {
    super::mode::controls(m, BrigControlDirective::ENABLEDETECTEXCEPTIONS, blocks)
        .iter()
        .fold(0, |acc, &(_, v)| acc | (v.unwrap_or(0x1f) as u32 & 0x1f))
}

/// DETECT state of the kernel being lowered.
#[derive(Debug, Clone, Copy)]
pub(super) struct Detect {
    /// The SGPR holding the wave's `exception_detected` bits.
    pub field: VReg,
    /// The exceptions enabled for DETECT (bits 0..4).
    pub mask: u32,
}

/// Exception bits (PRM 11.2).
const INVALID: u32 = 1;
const DIVIDE_BY_ZERO: u32 = 2;
const OVERFLOW: u32 = 4;
const UNDERFLOW: u32 = 8;
const INEXACT: u32 = 16;

/// `v_cmp_class` masks (PRM Table 5-18 layout).
const SNAN: u64 = 0x1;
const NAN: u64 = 0x3;
const NEG_INF: u64 = 0x4;
const POS_INF: u64 = 0x200;
const ZEROS: u64 = 0x60;
const FINITE: u64 = 0x1f8;
const FINITE_NONZERO: u64 = 0x198;

/// The largest finite f64.
const F64_MAX: u64 = 0x7fef_ffff_ffff_ffff;
/// +∞ (f64): "the result is infinite" as a threshold.
const F64_INF: u64 = 0x7ff0_0000_0000_0000;

/// A result format's limits as f64 bit patterns: smallest normal, largest
/// finite, overflow threshold of `near` (largest plus half an ulp) and of
/// rounding toward zero (2^(emax+1); f64: its rounding is infinite).
struct Limits {
    min: u64,
    max: u64,
    near: u64,
    zero: u64,
}

/// The [`Limits`] of f16, f32 and f64.
fn limits(f: Fmt) -> Limits {
    match f {
        Fmt::F16 => Limits {
            min: 0x3f10_0000_0000_0000,
            max: 0x40ef_fc00_0000_0000,
            near: 0x40ef_fe00_0000_0000,
            zero: 0x40f0_0000_0000_0000,
        },
        Fmt::F32 => Limits {
            min: 0x3810_0000_0000_0000,
            max: 0x47ef_ffff_e000_0000,
            near: 0x47ef_ffff_f000_0000,
            zero: 0x47f0_0000_0000_0000,
        },
        Fmt::F64 => Limits {
            min: 0x0010_0000_0000_0000,
            max: F64_MAX,
            near: F64_INF,
            zero: F64_INF,
        },
    }
}

/// The exponent standing for a zero product or addend in `fma` scaling.
const NO_EXP: i32 = -100_000;
/// The largest right shift of an `fma` part (bits): beyond 2·53 + 2 it
/// lies below a quarter ulp of the other part.
const FMA_SHIFT: i32 = 110;

/// The arithmetic operations DETECT covers.
const OPS: [BrigOpcode; 7] = [
    BrigOpcode::ADD,
    BrigOpcode::SUB,
    BrigOpcode::MUL,
    BrigOpcode::FMA,
    BrigOpcode::MAD,
    BrigOpcode::DIV,
    BrigOpcode::SQRT,
];

/// The exact result v = (s + e)·2^exp as f64 values, with `e` of the
/// sign of (v/2^exp − s) (zero when exact) and `s` the nearest-even
/// rounding of v/2^exp.
struct Exact {
    /// Reference result (f64), scaled by 2^−exp.
    s: Opnd,
    /// Residual (its sign and whether it is zero matter).
    e: Opnd,
    /// The scale's exponent (a VGPR), when the operands were normalized
    /// so that no residual underflows.
    exp: Option<VReg>,
    /// The result format: f16 and f32 results are evaluated in f64 and
    /// must also be representable in it.
    fmt: Fmt,
}

impl Cx<'_> {
    /// Sets up DETECT for a kernel with the exceptions `mask` enabled
    /// ([`enabled`]): reserves and zeroes the field.
    pub(super) fn detect_init(&mut self, mask: u32) -> Result<()> {
        if mask == 0 {
            return Ok(());
        }
        let field = self.stemp(1);
        let zero = self.minst("s_mov_b32", vec![super::r(field), Opnd::constant(0)])?;
        self.f.prologue.push(zero);
        self.detect = Some(Detect { field, mask });
        Ok(())
    }

    /// A machine function of a kernel with DETECT `mask`: its field is
    /// loaded from the context area on entry ([`Self::detect_slot`]).
    pub(super) fn detect_callee(&mut self, mask: u32) -> Result<()> {
        if mask == 0 {
            return Ok(());
        }
        let field = self.stemp(1);
        self.detect = Some(Detect { field, mask });
        let load = self.detect_slot(false)?;
        self.f.prologue.extend(load);
        Ok(())
    }

    /// The instructions moving the field to (`store`) or from the
    /// context area's DETECT slot, the field's home across calls between
    /// the kernel and its machine functions (per lane, every active lane
    /// writes the same value). Empty without DETECT or machine functions.
    pub(super) fn detect_slot(&mut self, store: bool) -> Result<Vec<amdgpu_codegen::MInst>> {
        let (Some(d), Some(at)) = (self.detect, self.context) else {
            return Ok(Vec::new());
        };
        let r = super::r;
        let (a, t) = (self.vtemp(1), self.vtemp(1));
        let addr = at + super::machine::CONTEXT_SIZE;
        let mut out = vec![self.minst("v_mov_b32", vec![r(a), Opnd::constant(addr)])?];
        if store {
            out.push(self.minst("v_mov_b32", vec![r(t), r(d.field)])?);
            out.push(self.minst("scratch_store_dword", vec![r(a), r(t), Opnd::off()])?);
        } else {
            out.push(self.minst("scratch_load_dword", vec![r(t), r(a), Opnd::off()])?);
            out.push(self.minst("v_readfirstlane_b32", vec![r(d.field), r(t)])?);
        }
        Ok(out)
    }

    /// Records the DETECT flags `op` raises on the values `s` (called
    /// before the instruction, whose destination may alias a source).
    pub(super) fn detect_arith(
        &mut self,
        op: BrigOpcode,
        f: Fmt,
        s: &[Src],
        mods: FloatMods,
    ) -> Result<()> {
        if self.detect.is_none() || !OPS.contains(&op) {
            return Ok(());
        }
        let mut x = Vec::new();
        for &v in s {
            let v = self.fval(v, f)?;
            x.push(if mods.ftz { self.flush(v, f)? } else { v });
        }
        // Input classes.
        let snan = self.fold_class(&x, f, SNAN, "s_or_b64")?;
        let nan_in = self.fold_class(&x, f, NAN, "s_or_b64")?;
        let finite = self.fold_class(&x, f, FINITE, "s_and_b64")?;
        let exact = match f {
            Fmt::F16 | Fmt::F32 => self.exact_narrow(op, &x, f)?,
            _ => self.exact_f64(op, &x)?,
        };
        // INVALID: sNaN input, or a NaN made from non-NaN inputs.
        let nan_out = self.class_mask(exact.s, Fmt::F64, NAN)?;
        let made = self.mask_op("s_andn2_b64", nan_out, nan_in)?;
        let mut invalid = self.mask_op("s_or_b64", snan, made)?;
        if matches!(op, BrigOpcode::FMA | BrigOpcode::MAD) {
            // 0·∞ is invalid even with a quiet NaN addend (IEEE 754 7.2
            // leaves it to the implementation; this one raises it).
            let zero_inf = self.zero_times_inf(x[0], x[1], f)?;
            invalid = self.mask_op("s_or_b64", invalid, zero_inf)?;
        }
        self.record(invalid, INVALID)?;
        let divzero = if op == BrigOpcode::DIV {
            let z = self.class_mask(x[1], f, ZEROS)?;
            let n = self.class_mask(x[0], f, FINITE_NONZERO)?;
            let m = self.mask_op("s_and_b64", z, n)?;
            self.record(m, DIVIDE_BY_ZERO)?;
            Some(m)
        } else {
            None
        };
        let round = self.round_of(f, mods);
        self.classify(&exact, finite, divzero, round, mods.ftz)
    }

    /// Records OVERFLOW, UNDERFLOW and INEXACT of the exact result
    /// `exact` rounded in `round` (with `ftz`) from inputs finite in
    /// `finite` lanes, lanes `divzero` excepted.
    fn classify(
        &mut self,
        exact: &Exact,
        finite: VReg,
        divzero: Option<VReg>,
        round: u8,
        ftz: bool,
    ) -> Result<()> {
        if self
            .detect
            .is_some_and(|d| d.mask & (OVERFLOW | UNDERFLOW | INEXACT) == 0)
        {
            return Ok(());
        }
        let s_finite = self.class_mask(exact.s, Fmt::F64, FINITE)?;
        let mut valid = self.mask_op("s_and_b64", finite, s_finite)?;
        if let Some(z) = divzero {
            valid = self.mask_op("s_andn2_b64", valid, z)?;
        }
        let over = self.overflow(exact, round, finite, divzero)?;
        self.record(over, OVERFLOW)?;
        // Tiny before rounding and non-representable.
        let tiny = self.tiny(exact)?;
        let tiny = self.mask_op("s_and_b64", tiny, valid)?;
        let mut inexact = self.cmp_f64("v_cmp_neq_f64_e64", exact.e, Opnd::constant(0))?;
        if exact.fmt != Fmt::F64 {
            let round_trip = self.round_trip(exact.s, exact.fmt)?;
            inexact = self.mask_op("s_or_b64", inexact, round_trip)?;
        }
        if let Some(lost) = self.scale_lost(exact)? {
            inexact = self.mask_op("s_or_b64", inexact, lost)?;
        }
        inexact = self.mask_op("s_and_b64", inexact, valid)?;
        inexact = self.mask_op("s_or_b64", inexact, over)?;
        if ftz {
            inexact = self.mask_op("s_or_b64", inexact, tiny)?;
        }
        self.record(inexact, INEXACT)?;
        let under = if ftz {
            tiny
        } else {
            self.mask_op("s_and_b64", tiny, inexact)?
        };
        self.record(under, UNDERFLOW)
    }

    /// Lanes where one of `a`, `b` is a zero and the other an infinity.
    fn zero_times_inf(&mut self, a: Opnd, b: Opnd, f: Fmt) -> Result<VReg> {
        let mut either = Vec::new();
        for (x, y) in [(a, b), (b, a)] {
            let z = self.class_mask(x, f, ZEROS)?;
            let i = self.class_mask(y, f, NEG_INF | POS_INF)?;
            either.push(self.mask_op("s_and_b64", z, i)?);
        }
        self.mask_op("s_or_b64", either[0], either[1])
    }

    /// The MODE of the reference computations: nearest even, subnormals
    /// kept, for f32 and f64.
    fn exact_mode(&self) -> super::mode::FpMode {
        self.mode
            .round(Fmt::F32, NEAR)
            .ftz(Fmt::F32, false)
            .round(Fmt::F64, NEAR)
            .ftz(Fmt::F64, false)
    }

    /// f16/f32 (`f`) `op` on `x` evaluated in f64 as an exact pair.
    fn exact_narrow(&mut self, op: BrigOpcode, x: &[Opnd], f: Fmt) -> Result<Exact> {
        let m = self.exact_mode();
        let w: Vec<Opnd> = self.in_mode(m, |cx| {
            x.iter()
                .map(|&v| {
                    let v = if f == Fmt::F16 {
                        cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[v], 0)?
                    } else {
                        v
                    };
                    cx.op_new(Fmt::F64, "v_cvt_f64_f32", &[v], 0)
                })
                .collect()
        })?;
        let (s, e) = self.exact_pair(op, &w)?;
        Ok(Exact {
            s,
            e,
            exp: None,
            fmt: f,
        })
    }

    /// f64 `op` on `x`: `mul`, `div` and `sqrt` on the operands'
    /// mantissas (`v_frexp_mant`, in [0.5, 1)) and the exponents apart,
    /// so the residual never underflows; `add`/`sub` (TwoSum is exact)
    /// and `fma` unscaled.
    fn exact_f64(&mut self, op: BrigOpcode, x: &[Opnd]) -> Result<Exact> {
        if !matches!(
            op,
            BrigOpcode::MUL
                | BrigOpcode::DIV
                | BrigOpcode::SQRT
                | BrigOpcode::FMA
                | BrigOpcode::MAD
        ) {
            let (s, e) = self.exact_pair(op, x)?;
            return Ok(Exact {
                s,
                e,
                exp: None,
                fmt: Fmt::F64,
            });
        }
        let m = self.exact_mode();
        let parts = self.in_mode(m, |cx| {
            x.iter()
                .map(|&v| {
                    let mant = cx.op_new(Fmt::F64, "v_frexp_mant_f64", &[v], 0)?;
                    let e = cx.vtemp(1);
                    cx.emit("v_frexp_exp_i32_f64", vec![super::r(e), v])?;
                    Ok((mant, e))
                })
                .collect::<Result<Vec<_>>>()
        })?;
        let exp = self.vtemp(1);
        let mut w: Vec<Opnd> = parts.iter().map(|p| p.0).collect();
        match op {
            BrigOpcode::MUL => self.emit(
                "v_add_u32_e64",
                vec![super::r(exp), super::r(parts[0].1), super::r(parts[1].1)],
            )?,
            BrigOpcode::DIV => self.emit(
                "v_sub_u32_e64",
                vec![super::r(exp), super::r(parts[0].1), super::r(parts[1].1)],
            )?,
            BrigOpcode::FMA | BrigOpcode::MAD => {
                let (ab, c) = self.fma_scale(x, &parts, exp)?;
                w[0] = ab;
                w[2] = c;
            }
            _ => {
                // An odd exponent moves one factor 2 into the mantissa.
                let odd = self.vtemp(1);
                let e0 = super::r(parts[0].1);
                self.emit("v_and_b32_e64", vec![super::r(odd), e0, Opnd::constant(1)])?;
                let even = self.vtemp(1);
                self.emit("v_sub_u32_e64", vec![super::r(even), e0, super::r(odd)])?;
                self.emit(
                    "v_ashrrev_i32_e64",
                    vec![super::r(exp), Opnd::constant(1), super::r(even)],
                )?;
                let odd = super::r(odd);
                w[0] = self.in_mode(m, |cx| cx.op_new(Fmt::F64, "v_ldexp_f64", &[w[0], odd], 0))?;
            }
        }
        let (s, e) = self.exact_pair(op, &w)?;
        Ok(Exact {
            s,
            e,
            exp: Some(exp),
            fmt: Fmt::F64,
        })
    }

    /// `fma` scaling: 2^exp with exp = the larger of the product's and the
    /// addend's exponents (a zero product or addend does not count); the
    /// product's first factor and the addend become mantissas shifted
    /// right by their distance to exp, at most [`FMA_SHIFT`] bits: a part
    /// that far below the other only acts as a sticky bit, which keeps the
    /// rounding, the residual's sign and whether it is zero. Returns the
    /// new first factor and addend.
    fn fma_scale(&mut self, x: &[Opnd], parts: &[(Opnd, VReg)], exp: VReg) -> Result<(Opnd, Opnd)> {
        let r = super::r;
        let low = self.val(Src::Const(u64::from(NO_EXP as u32)), 0)?;
        let ab = self.vtemp(1);
        self.emit("v_add_u32_e64", vec![r(ab), r(parts[0].1), r(parts[1].1)])?;
        let za = self.class_mask(x[0], Fmt::F64, ZEROS)?;
        let zb = self.class_mask(x[1], Fmt::F64, ZEROS)?;
        let zab = self.mask_op("s_or_b64", za, zb)?;
        self.emit("v_cndmask_b32_e64", vec![r(ab), r(ab), low, pair(zab)])?;
        let c = self.vtemp(1);
        let zc = self.class_mask(x[2], Fmt::F64, ZEROS)?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(c), r(parts[2].1), low, pair(zc)],
        )?;
        self.emit("v_max_i32_e64", vec![r(exp), r(ab), r(c)])?;
        let limit = self.val(Src::Const(u64::from(FMA_SHIFT.wrapping_neg() as u32)), 0)?;
        let m = self.exact_mode();
        let mut out = Vec::new();
        for (e, mant) in [(ab, parts[0].0), (c, parts[2].0)] {
            let shift = self.vtemp(1);
            self.emit("v_sub_u32_e64", vec![r(shift), r(e), r(exp)])?;
            self.emit("v_max_i32_e64", vec![r(shift), r(shift), limit])?;
            out.push(self.in_mode(m, |cx| {
                cx.op_new(Fmt::F64, "v_ldexp_f64", &[mant, r(shift)], 0)
            })?);
        }
        Ok((out[0], out[1]))
    }

    /// `x.s·2^x.exp` rounded in MODE `mode` (`x.s` itself when unscaled).
    fn unscaled(&mut self, x: &Exact, s: Opnd, mode: super::mode::FpMode) -> Result<Opnd> {
        match x.exp {
            None => Ok(s),
            Some(e) => self.in_mode(mode, |cx| {
                cx.op_new(Fmt::F64, "v_ldexp_f64", &[s, super::r(e)], 0)
            }),
        }
    }

    /// `(s, e)` for `op` on f64 values `w`: `s` the nearest-even result,
    /// `e` a residual with the sign of (exact − s).
    fn exact_pair(&mut self, op: BrigOpcode, w: &[Opnd]) -> Result<(Opnd, Opnd)> {
        let m = self.exact_mode();
        let f = Fmt::F64;
        match op {
            BrigOpcode::ADD | BrigOpcode::SUB => {
                let neg = if op == BrigOpcode::SUB { 2 } else { 0 };
                let b = self.in_mode(m, |cx| cx.op_new(f, "v_mul_f64", &[w[1], one64()], neg))?;
                self.in_mode(m, |cx| cx.two_sum(w[0], b))
            }
            BrigOpcode::MUL => self.in_mode(m, |cx| {
                let s = cx.op_new(f, "v_mul_f64", &[w[0], w[1]], 0)?;
                let e = cx.op_new(f, "v_fma_f64", &[w[0], w[1], s], 4)?;
                Ok((s, e))
            }),
            BrigOpcode::FMA | BrigOpcode::MAD => self.in_mode(m, |cx| {
                let p = cx.op_new(f, "v_mul_f64", &[w[0], w[1]], 0)?;
                let pe = cx.op_new(f, "v_fma_f64", &[w[0], w[1], p], 4)?;
                let (u, ue) = cx.two_sum(p, w[2])?;
                let s = cx.op_new(f, "v_fma_f64", &[w[0], w[1], w[2]], 0)?;
                // v − s = (u − s) + ue + pe, summed with TwoSums.
                let d = cx.op_new(f, "v_add_f64", &[u, s], 2)?;
                let (t, te) = cx.two_sum(d, ue)?;
                let (r, re) = cx.two_sum(t, pe)?;
                let low = cx.op_new(f, "v_add_f64", &[re, te], 0)?;
                let e = cx.op_new(f, "v_add_f64", &[r, low], 0)?;
                Ok((s, e))
            }),
            BrigOpcode::DIV => {
                let q = self.div_core(f, w[0], w[1], NEAR)?;
                self.in_mode(m, |cx| {
                    // rem = a − q·b exactly; sign(v − q) = sign(rem·b).
                    let rem = cx.op_new(f, "v_fma_f64", &[q, w[1], w[0]], 1)?;
                    let e = cx.op_new(f, "v_mul_f64", &[rem, w[1]], 0)?;
                    Ok((q, e))
                })
            }
            _ => self.in_mode(m, |cx| {
                let s = cx.sqrt_core(f, w[0], NEAR)?;
                let e = cx.op_new(f, "v_fma_f64", &[s, s, w[0]], 1)?;
                Ok((s, e))
            }),
        }
    }

    /// TwoSum: `s = a + b` and its exact rounding error (nearest even).
    fn two_sum(&mut self, a: Opnd, b: Opnd) -> Result<(Opnd, Opnd)> {
        let f = Fmt::F64;
        let s = self.op_new(f, "v_add_f64", &[a, b], 0)?;
        let bb = self.op_new(f, "v_add_f64", &[s, a], 2)?;
        let ab = self.op_new(f, "v_add_f64", &[s, bb], 2)?;
        let da = self.op_new(f, "v_add_f64", &[a, ab], 2)?;
        let db = self.op_new(f, "v_add_f64", &[b, bb], 2)?;
        let e = self.op_new(f, "v_add_f64", &[da, db], 0)?;
        Ok((s, e))
    }

    /// Lanes where `s` (f64) rounded to format `f` (f16 through f32) and
    /// back differs from `s`.
    fn round_trip(&mut self, s: Opnd, f: Fmt) -> Result<VReg> {
        let m = self.exact_mode();
        let back = self.in_mode(m, |cx| {
            let mut t = cx.op_new(Fmt::F32, "v_cvt_f32_f64", &[s], 0)?;
            if f == Fmt::F16 {
                let h = cx.op_new(Fmt::F32, "v_cvt_f16_f32", &[t], 0)?;
                t = cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[h], 0)?;
            }
            cx.op_new(Fmt::F64, "v_cvt_f64_f32", &[t], 0)
        })?;
        self.cmp_f64("v_cmp_neq_f64_e64", s, back)
    }

    /// Lanes whose exact result is past the overflow threshold of
    /// rounding `round`, from finite inputs, not a division by zero.
    fn overflow(
        &mut self,
        x: &Exact,
        round: u8,
        finite: VReg,
        divzero: Option<VReg>,
    ) -> Result<VReg> {
        let m = self.exact_mode();
        let s = self.unscaled(x, x.s, m)?;
        let Limits {
            max, near, zero, ..
        } = limits(x.fmt);
        let (away, near, zero) = ((max, true), (near, false), (zero, false));
        let (pos, neg) = match round {
            NEAR => (near, near),
            UP => (away, zero),
            DOWN => (zero, away),
            _ => (zero, zero),
        };
        let p = self.beyond(s, x.e, pos, false)?;
        let n = self.beyond(s, x.e, neg, true)?;
        let mut over = self.mask_op("s_or_b64", p, n)?;
        over = self.mask_op("s_and_b64", over, finite)?;
        if let Some(z) = divzero {
            over = self.mask_op("s_andn2_b64", over, z)?;
        }
        Ok(over)
    }

    /// Lanes where v = s + e (`e` a residual below half an ulp of `s`)
    /// is at least `t` (beyond it when `strict`), or on the `negative`
    /// side at most −t. An infinite `t` means `s` is that infinity.
    fn beyond(
        &mut self,
        s: Opnd,
        e: Opnd,
        (t, strict): (u64, bool),
        negative: bool,
    ) -> Result<VReg> {
        if t == F64_INF {
            return self.class_mask(s, Fmt::F64, if negative { NEG_INF } else { POS_INF });
        }
        let t = if negative { t | 1 << 63 } else { t };
        let t = pair(self.val64(Src::Const(t))?);
        let (past, tie) = match (negative, strict) {
            (false, false) => ("v_cmp_gt_f64_e64", "v_cmp_le_f64_e64"),
            (false, true) => ("v_cmp_gt_f64_e64", "v_cmp_lt_f64_e64"),
            (true, false) => ("v_cmp_lt_f64_e64", "v_cmp_ge_f64_e64"),
            (true, true) => ("v_cmp_lt_f64_e64", "v_cmp_gt_f64_e64"),
        };
        let over = self.cmp_f64(past, s, t)?;
        let at = self.cmp_f64("v_cmp_eq_f64_e64", s, t)?;
        // `tie` compares 0 with e: 0 ≤ e (e ≥ 0), 0 < e, 0 ≥ e, 0 > e.
        let side = self.cmp_f64(tie, Opnd::constant(0), e)?;
        let at = self.mask_op("s_and_b64", at, side)?;
        self.mask_op("s_or_b64", over, at)
    }

    /// Lanes whose exact result is non-zero with a magnitude below the
    /// smallest normal of the instruction's format.
    fn tiny(&mut self, x: &Exact) -> Result<VReg> {
        let min = pair(self.val64(Src::Const(limits(x.fmt).min))?);
        let m = self.exact_mode();
        let abs = self.in_mode(m, |cx| cx.op_new(Fmt::F64, "v_max_f64", &[x.s, x.s], 2))?;
        // |s|·2^exp rounded toward zero: below `min` exactly when it is.
        let t = self.unscaled(x, abs, m.round(Fmt::F64, ZERO))?;
        let below = self.cmp_f64("v_cmp_lt_f64_e64", t, min)?;
        let s_nz = self.cmp_f64("v_cmp_neq_f64_e64", x.s, Opnd::constant(0))?;
        let e_nz = self.cmp_f64("v_cmp_neq_f64_e64", x.e, Opnd::constant(0))?;
        let nz = self.mask_op("s_or_b64", s_nz, e_nz)?;
        let below = self.mask_op("s_and_b64", below, nz)?;
        // |s|·2^exp is the smallest normal and the residual points inward.
        let mut at = self.cmp_f64("v_cmp_eq_f64_e64", t, min)?;
        if let Some(lost) = self.scale_lost(x)? {
            at = self.mask_op("s_andn2_b64", at, lost)?;
        }
        let zero = Opnd::constant(0);
        let s_pos = self.cmp_f64("v_cmp_gt_f64_e64", x.s, zero)?;
        let e_neg = self.cmp_f64("v_cmp_lt_f64_e64", x.e, zero)?;
        let s_neg = self.cmp_f64("v_cmp_lt_f64_e64", x.s, zero)?;
        let e_pos = self.cmp_f64("v_cmp_gt_f64_e64", x.e, zero)?;
        let a = self.mask_op("s_and_b64", s_pos, e_neg)?;
        let b = self.mask_op("s_and_b64", s_neg, e_pos)?;
        let inward = self.mask_op("s_or_b64", a, b)?;
        let edge = self.mask_op("s_and_b64", at, inward)?;
        self.mask_op("s_or_b64", below, edge)
    }

    /// For a scaled result: lanes where s·2^exp is not representable
    /// (rounded to a subnormal or overflowed), by scaling back.
    fn scale_lost(&mut self, x: &Exact) -> Result<Option<VReg>> {
        let Some(e) = x.exp else {
            return Ok(None);
        };
        let m = self.exact_mode();
        let neg = self.vtemp(1);
        self.emit(
            "v_sub_u32_e64",
            vec![super::r(neg), Opnd::constant(0), super::r(e)],
        )?;
        let back = self.in_mode(m, |cx| {
            let t = cx.op_new(Fmt::F64, "v_ldexp_f64", &[x.s, super::r(e)], 0)?;
            cx.op_new(Fmt::F64, "v_ldexp_f64", &[t, super::r(neg)], 0)
        })?;
        Ok(Some(self.cmp_f64("v_cmp_neq_f64_e64", x.s, back)?))
    }

    /// A lane mask from an f64 comparison.
    fn cmp_f64(&mut self, mn: &str, a: Opnd, b: Opnd) -> Result<VReg> {
        let m = self.stemp(2);
        self.emit(mn, vec![pair(m), a, b])?;
        Ok(m)
    }

    /// Lanes where `x` (format `f`) is in class `mask`.
    fn class_mask(&mut self, x: Opnd, f: Fmt, mask: u64) -> Result<VReg> {
        let k = self.val(Src::Const(mask), 0)?;
        let mn = match f {
            Fmt::F16 => "v_cmp_class_f16_e64",
            Fmt::F32 => "v_cmp_class_f32_e64",
            Fmt::F64 => "v_cmp_class_f64_e64",
        };
        let m = self.stemp(2);
        self.emit(mn, vec![pair(m), x, k])?;
        Ok(m)
    }

    /// Lanes where any (`combine` = `s_or_b64`) or all (`s_and_b64`) of
    /// `xs` are in class `mask`.
    fn fold_class(&mut self, xs: &[Opnd], f: Fmt, mask: u64, combine: &str) -> Result<VReg> {
        let mut acc = self.class_mask(xs[0], f, mask)?;
        for &x in &xs[1..] {
            let m = self.class_mask(x, f, mask)?;
            acc = self.mask_op(combine, acc, m)?;
        }
        Ok(acc)
    }

    /// A new lane mask `mn(a, b)` (`s_and_b64`, `s_or_b64`, …).
    fn mask_op(&mut self, mn: &str, a: VReg, b: VReg) -> Result<VReg> {
        let m = self.stemp(2);
        self.emit(mn, vec![pair(m), pair(a), pair(b)])?;
        Ok(m)
    }

    /// ORs exception `bit` into the field when an active lane of `lanes`
    /// raised it and DETECT is enabled for it.
    fn record(&mut self, lanes: VReg, bit: u32) -> Result<()> {
        let Some(d) = self.detect else {
            return Ok(());
        };
        if d.mask & bit == 0 {
            return Ok(());
        }
        let any = self.stemp(2);
        let t = self.stemp(1);
        self.emit("s_and_b64", vec![pair(any), pair(lanes), Opnd::exec()])?;
        self.emit(
            "s_cselect_b32",
            vec![super::r(t), Opnd::constant(bit), Opnd::constant(0)],
        )?;
        self.emit(
            "s_or_b32",
            vec![super::r(d.field), super::r(d.field), super::r(t)],
        )
    }
}

/// The f64 constant 1.0 as an inline operand.
fn one64() -> Opnd {
    Opnd::constant(0x3f80_0000)
}

/// `cvt` (PRM 5.19): INVALID for a signaling NaN source; float → float
/// narrowing and integer → float rounding raise what
/// rounding raises (PRM 4.19.2); float → integer raises INVALID when the
/// regular (non-saturating) rounded value is out of range or NaN, and
/// INEXACT for the signaling rounding modes (`s…i`) on an in-range
/// non-integral source. Saturating modes raise nothing for out-of-range
/// values (implementation defined). f16 → integer only reports INVALID
/// for a signaling NaN.
impl Cx<'_> {
    /// Records the DETECT flags of `cvt` `c` on source `s` (before the
    /// conversion: the destination may alias it).
    pub(super) fn detect_cvt(
        &mut self,
        c: &brig::BrigInstCvt,
        s: Src,
        (dk, db): (Kind, u32),
        (sk, sb): (Kind, u32),
        ftz: bool,
    ) -> Result<()> {
        if self.detect.is_none() || db == 1 || sb == 1 {
            return Ok(());
        }
        match (dk, sk) {
            (Kind::F, Kind::F) => self.detect_cvt_float(c, s, db, sb, ftz),
            (Kind::F, Kind::S | Kind::U) => self.detect_int_to_float(c, s, db, sk == Kind::S, sb),
            (Kind::S | Kind::U, Kind::F) => {
                self.detect_float_to_int(c, s, (dk == Kind::S, db), sb, ftz)
            }
            _ => Ok(()),
        }
    }

    /// INVALID when a float source of format `f` is a signaling NaN (any NaN
    /// when `signaling`: the `s…` comparisons, PRM 5.18). Not flushed:
    /// subnormals are not NaNs.
    pub(super) fn detect_nan_sources(&mut self, f: Fmt, s: &[Src], signaling: bool) -> Result<()> {
        if self.detect.is_none_or(|d| d.mask & INVALID == 0) {
            return Ok(());
        }
        let mut x = Vec::new();
        for &v in s {
            x.push(self.fval(v, f)?);
        }
        let class = if signaling { NAN } else { SNAN };
        let nan = self.fold_class(&x, f, class, "s_or_b64")?;
        self.record(nan, INVALID)
    }

    /// A float source (flushed under `ftz`) and its sNaN → INVALID.
    fn cvt_source(&mut self, s: Src, f: Fmt, ftz: bool) -> Result<Opnd> {
        let x = self.fval(s, f)?;
        let x = if ftz { self.flush(x, f)? } else { x };
        let snan = self.class_mask(x, f, SNAN)?;
        self.record(snan, INVALID)?;
        Ok(x)
    }

    /// float → float.
    fn detect_cvt_float(
        &mut self,
        c: &brig::BrigInstCvt,
        s: Src,
        db: u32,
        sb: u32,
        ftz: bool,
    ) -> Result<()> {
        let x = self.cvt_source(s, float_fmt(sb), ftz)?;
        if sb <= db {
            return Ok(());
        }
        let Some(mods) = FloatMods::from_brig(c.round, ftz) else {
            return Ok(());
        };
        let x = if sb == 32 {
            let m = self.exact_mode();
            self.in_mode(m, |cx| cx.op_new(Fmt::F64, "v_cvt_f64_f32", &[x], 0))?
        } else {
            x
        };
        let finite = self.class_mask(x, Fmt::F64, FINITE)?;
        let exact = Exact {
            s: x,
            e: Opnd::constant(0),
            exp: None,
            fmt: float_fmt(db),
        };
        let round = self.round_of(float_fmt(db), mods);
        self.classify(&exact, finite, None, round, ftz)
    }

    /// integer → float: the integer exactly as an f64 pair.
    fn detect_int_to_float(
        &mut self,
        c: &brig::BrigInstCvt,
        s: Src,
        db: u32,
        signed: bool,
        sb: u32,
    ) -> Result<()> {
        if sb <= 32 && db == 64 {
            return Ok(());
        }
        let Some(mods) = FloatMods::from_brig(c.round, false) else {
            return Ok(());
        };
        let m = self.exact_mode();
        let cvt = if signed {
            "v_cvt_f64_i32"
        } else {
            "v_cvt_f64_u32"
        };
        let (hs, lo) = if sb == 64 {
            let hi = self.val(s, 1)?;
            let lo = self.val(s, 0)?;
            self.in_mode(m, |cx| {
                let h = cx.op_new(Fmt::F64, cvt, &[hi], 0)?;
                let k = Opnd::constant(32);
                let h = cx.op_new(Fmt::F64, "v_ldexp_f64", &[h, k], 0)?;
                let l = cx.op_new(Fmt::F64, "v_cvt_f64_u32", &[lo], 0)?;
                Ok((h, l))
            })?
        } else {
            let x = self.val(s, 0)?;
            let x = self.extend32(x, signed, sb)?;
            let v = self.in_mode(m, |cx| cx.op_new(Fmt::F64, cvt, &[x], 0))?;
            (v, Opnd::constant(0))
        };
        let (s, e) = self.in_mode(m, |cx| cx.two_sum(hs, lo))?;
        let finite = self.stemp(2);
        self.emit("s_mov_b64", vec![pair(finite), Opnd::exec()])?;
        let exact = Exact {
            s,
            e,
            exp: None,
            fmt: float_fmt(db),
        };
        let f = float_fmt(db);
        let round = self.round_of(f, mods);
        self.classify(&exact, finite, None, round, false)
    }

    /// float → integer of `(signed, db)` bits.
    fn detect_float_to_int(
        &mut self,
        c: &brig::BrigInstCvt,
        s: Src,
        (signed, db): (bool, u32),
        sb: u32,
        ftz: bool,
    ) -> Result<()> {
        let f = float_fmt(sb);
        let x = self.cvt_source(s, f, ftz)?;
        let Some(stem) = super::convert::int_round(c.round) else {
            return Ok(());
        };
        let raw = c.round.raw();
        let sat = matches!(raw, 10..=13 | 18..=21);
        let signaling = raw >= 14;
        if f == Fmt::F16 || (sat && !signaling) {
            return Ok(());
        }
        let m = self.exact_mode();
        let w = if f == Fmt::F64 { "f64" } else { "f32" };
        let rv = self.in_mode(m, |cx| cx.op_new(f, &format!("{stem}_{w}"), &[x], 0))?;
        // Out of range: NaN, ≥ 2^(db − signed), < −2^(db−1) (or < 0).
        let top = db - u32::from(signed);
        let (upper, lower) = if f == Fmt::F64 {
            let low = u64::from(signed) * (1 << 63 | u64::from(1023 + db - 1) << 52);
            (u64::from(1023 + top) << 52, low)
        } else {
            let low = u64::from(signed) * (1 << 31 | u64::from(127 + db - 1) << 23);
            (u64::from(127 + top) << 23, low)
        };
        let (upper, lower) = (self.const_of_fmt(f, upper)?, self.const_of_fmt(f, lower)?);
        let nan = self.class_mask(rv, f, NAN)?;
        let ge = self.cmp_fmt(f, "ge", rv, upper)?;
        let lt = self.cmp_fmt(f, "lt", rv, lower)?;
        let out = self.mask_op("s_or_b64", nan, ge)?;
        let out = self.mask_op("s_or_b64", out, lt)?;
        if !sat {
            self.record(out, INVALID)?;
        }
        if signaling {
            let frac = self.cmp_fmt(f, "neq", rv, x)?;
            let inexact = self.mask_op("s_andn2_b64", frac, out)?;
            self.record(inexact, INEXACT)?;
        }
        Ok(())
    }

    /// A float constant of format `f` (bits) as an operand.
    fn const_of_fmt(&mut self, f: Fmt, bits: u64) -> Result<Opnd> {
        if f == Fmt::F64 {
            Ok(pair(self.val64(Src::Const(bits))?))
        } else {
            self.val(Src::Const(bits), 0)
        }
    }

    /// A lane mask from a float comparison `v_cmp_{cond}` of format `f`.
    fn cmp_fmt(&mut self, f: Fmt, cond: &str, a: Opnd, b: Opnd) -> Result<VReg> {
        let w = if f == Fmt::F64 { "f64" } else { "f32" };
        self.cmp_f64(&format!("v_cmp_{cond}_{w}_e64"), a, b)
    }
}
