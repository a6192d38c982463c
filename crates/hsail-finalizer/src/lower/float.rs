//! Float arithmetic (PRM 5.11–5.14) for f16, f32 and f64.
//!
//! - f16 values live in the low 16 bits of an `$s` register (PRM 4.19.1;
//!   the high bits are undefined, GFX9 f16 instructions zero them).
//! - Rounding modifiers and `ftz` switch MODE around the instruction
//!   ([`Cx::in_mode`]); the MODE denorm bits flush subnormal inputs and
//!   results that are subnormal after rounding.
//! - `mad` is always fused (the PRM's single round method, 5.12): it is
//!   `fma` with the same modifiers.
//! - `div` and `sqrt` are correctly rounded in every rounding mode: f32
//!   division is the `v_div_scale`/`v_div_fmas`/`v_div_fixup` expansion, f64
//!   the same with two Newton steps; f32 square root refines `v_sqrt_f32`
//!   by testing its neighbours, f64 refines `v_rsq_f64` (Goldschmidt),
//!   both on scaled inputs so no residual underflows, and a residual
//!   sign test makes the nearest-even result directed. f16 goes through
//!   f32: the f32 result is correctly rounded in the same direction and
//!   24 ≥ 2·11 + 2 bits make the second rounding innocuous.
//! - Native instructions (5.14) use the hardware approximations in the
//!   kernel's default mode; `nsin`/`ncos` scale radians to revolutions.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::mode::{DOWN, FloatMods, Fmt, NEAR, UP, ZERO};
use super::{Cx, Src, dw, pair, r};
use crate::Result;

/// The format of a float type.
pub(super) fn fmt_of(t: BrigType) -> Option<Fmt> {
    match t {
        BrigType::F16 => Some(Fmt::F16),
        BrigType::F32 => Some(Fmt::F32),
        BrigType::F64 => Some(Fmt::F64),
        _ => None,
    }
}

/// Index of a format in the per-format mnemonic tables.
fn idx(f: Fmt) -> usize {
    match f {
        Fmt::F16 => 0,
        Fmt::F32 => 1,
        Fmt::F64 => 2,
    }
}

/// Sign bit of the dword holding a value's sign.
fn sign_bit(f: Fmt) -> u32 {
    if f == Fmt::F16 { 0x8000 } else { 0x8000_0000 }
}

/// Operations that are one instruction run in the instruction's MODE:
/// mnemonic stem and whether the f16/f32 forms need the `_e64` suffix
/// (VOP2 opcodes; f64 ones are VOP3 already).
const ARITH: &[(BrigOpcode, &str, bool)] = &[
    (BrigOpcode::ADD, "v_add", true),
    (BrigOpcode::SUB, "v_sub", true),
    (BrigOpcode::MUL, "v_mul", true),
    (BrigOpcode::FMA, "v_fma", false),
    (BrigOpcode::MAD, "v_fma", false),
    (BrigOpcode::MIN, "v_min", true),
    (BrigOpcode::MAX, "v_max", true),
    (BrigOpcode::CEIL, "v_ceil", false),
    (BrigOpcode::FLOOR, "v_floor", false),
    (BrigOpcode::RINT, "v_rndne", false),
    (BrigOpcode::TRUNC, "v_trunc", false),
];

/// Native instructions that are one hardware instruction (no mode switch:
/// their rounding and flushing are implementation defined).
const NATIVE: &[(BrigOpcode, &str)] = &[
    (BrigOpcode::NSQRT, "v_sqrt"),
    (BrigOpcode::NRSQRT, "v_rsq"),
    (BrigOpcode::NRCP, "v_rcp"),
    (BrigOpcode::NFMA, "v_fma"),
    (BrigOpcode::NLOG2, "v_log"),
    (BrigOpcode::NEXP2, "v_exp"),
];

/// The type suffix of a format.
fn suffix(f: Fmt) -> &'static str {
    ["f16", "f32", "f64"][idx(f)]
}

/// The mnemonic and VOP3 negate bits of an [`ARITH`] entry for `f` (f64
/// has no `v_sub`: it adds the negated second source).
fn arith_mnemonic(stem: &str, e64: bool, f: Fmt) -> (String, u8) {
    match f {
        Fmt::F64 if stem == "v_sub" => ("v_add_f64".into(), 2),
        Fmt::F64 => (format!("{stem}_f64"), 0),
        _ if e64 => (format!("{stem}_{}_e64", suffix(f)), 0),
        _ => (format!("{stem}_{}", suffix(f)), 0),
    }
}

/// Instructions whose only exception is INVALID for a signaling NaN
/// source (PRM 4.19.4, 5.11).
const SNAN_ONLY: [BrigOpcode; 7] = [
    BrigOpcode::MIN,
    BrigOpcode::MAX,
    BrigOpcode::CEIL,
    BrigOpcode::FLOOR,
    BrigOpcode::RINT,
    BrigOpcode::TRUNC,
    BrigOpcode::FRACT,
];

/// `1/(2π)` as f32: radians → revolutions for `v_sin`/`v_cos`.
const INV_2PI: u32 = 0x3e22_f983;

impl Cx<'_> {
    /// A float instruction with a float type (`add_f32`, `sqrt_f64`, …).
    pub(super) fn lower_float(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
        mods: FloatMods,
    ) -> Result<()> {
        let Some(f) = fmt_of(type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        self.float_op(op, f, d, &s, what, mods)
    }

    /// A float operation of format `f` on values: `d = op(s…)` (also one
    /// element of a packed operation, `packed_float.rs`).
    pub(super) fn float_op(
        &mut self,
        op: BrigOpcode,
        f: Fmt,
        d: VReg,
        s: &[Src],
        what: &str,
        mods: FloatMods,
    ) -> Result<()> {
        self.detect_arith(op, f, s, mods)?;
        if SNAN_ONLY.contains(&op) {
            self.detect_nan_sources(f, s, false)?;
        }
        if let Some(&(_, stem, e64)) = ARITH.iter().find(|(o, ..)| *o == op) {
            let (mn, neg) = arith_mnemonic(stem, e64, f);
            let mut v = vec![self.fdst(d, f)];
            for &x in s {
                let x = self.fval(x, f)?;
                // min/max do not flush in hardware: flush their inputs.
                let minmax = matches!(op, BrigOpcode::MIN | BrigOpcode::MAX);
                v.push(if mods.ftz && minmax {
                    self.flush(x, f)?
                } else {
                    x
                });
            }
            let m = self.mode_for(f, mods);
            return self.in_mode(m, |cx| cx.emit_neg(&mn, v, neg));
        }
        if let Some(&(_, stem)) = NATIVE.iter().find(|(o, _)| *o == op) {
            let log_exp = matches!(op, BrigOpcode::NLOG2 | BrigOpcode::NEXP2);
            if log_exp && f == Fmt::F64 {
                return Err(self.unsupported(what.to_string()));
            }
            let mn = format!("{stem}_{}", suffix(f));
            let mut v = vec![self.fdst(d, f)];
            for &x in s {
                v.push(self.fval(x, f)?);
            }
            return self.emit(&mn, v);
        }
        match op {
            BrigOpcode::MOV => self.copy(d, s[0], if f == Fmt::F64 { 2 } else { 1 }),
            BrigOpcode::ABS | BrigOpcode::NEG => self.sign_op(op, d, s[0], f),
            BrigOpcode::COPYSIGN => self.copysign(d, s[0], s[1], f),
            BrigOpcode::NSIN | BrigOpcode::NCOS if f == Fmt::F32 => {
                let x = self.val(s[0], 0)?;
                let k = self.val(Src::Const(u64::from(INV_2PI)), 0)?;
                let t = self.vtemp(1);
                self.emit("v_mul_f32_e64", vec![r(t), x, k])?;
                let mn = if op == BrigOpcode::NSIN {
                    "v_sin_f32"
                } else {
                    "v_cos_f32"
                };
                self.emit(mn, vec![r(d), r(t)])
            }
            BrigOpcode::FRACT => self.fract(d, s[0], f, mods),
            BrigOpcode::DIV => self.fdiv(d, s[0], s[1], f, mods),
            BrigOpcode::SQRT => self.fsqrt(d, s[0], f, mods),
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `class_b1_fN`: the AMDGPU class mask has the PRM's bit layout
    /// (Table 5-18: sNaN 0x1 … +inf 0x200).
    pub(super) fn lower_class(
        &mut self,
        c: &brig::BrigInstSourceType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some(f) = fmt_of(c.source_type) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let x = self.src(ops[1])?;
        let x = self.fval(x, f)?;
        let cond = self.src(ops[2])?;
        let cond = self.val(cond, 0)?;
        self.class_vcc(x, cond, f)?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )
    }

    /// The destination operand of format `f`.
    pub(super) fn fdst(&self, d: VReg, f: Fmt) -> Opnd {
        if f == Fmt::F64 { pair(d) } else { r(d) }
    }

    /// A float source as a VGPR operand (a pair for f64). Constants other
    /// than zero go through a VGPR: integer inline constants mean bit
    /// patterns but float ones mean values of the instruction's format.
    pub(super) fn fval(&mut self, s: Src, f: Fmt) -> Result<Opnd> {
        match (s, f) {
            (_, Fmt::F32) => self.val(s, 0),
            (_, Fmt::F64) => Ok(pair(self.val64(s)?)),
            (Src::Reg(v), Fmt::F16) => Ok(r(v)),
            (Src::Const(c), Fmt::F16) => {
                let c = (c & 0xffff) as u32;
                if c == 0 {
                    return Ok(Opnd::constant(0));
                }
                let v = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(v), Opnd::constant(c)])?;
                Ok(r(v))
            }
        }
    }

    /// Emits a VOP3 instruction with source negate bits.
    pub(super) fn emit_neg(&mut self, mn: &str, ops: Vec<Opnd>, neg: u8) -> Result<()> {
        let mut i = self.minst(mn, ops)?;
        i.mods.neg = neg;
        self.emit_inst(i);
        Ok(())
    }

    /// A new VGPR (pair for f64) holding `mn(ops…)` with negate bits.
    pub(super) fn op_new(&mut self, f: Fmt, mn: &str, srcs: &[Opnd], neg: u8) -> Result<Opnd> {
        let t = self.vtemp(if f == Fmt::F64 { 2 } else { 1 });
        let mut v = vec![self.fdst(t, f)];
        v.extend_from_slice(srcs);
        self.emit_neg(mn, v, neg)?;
        Ok(self.fdst(t, f))
    }

    /// `v_cmp_class` of `x` against `mask` into VCC.
    fn class_vcc(&mut self, x: Opnd, mask: Opnd, f: Fmt) -> Result<()> {
        let mn = [
            "v_cmp_class_f16_e64",
            "v_cmp_class_f32_e64",
            "v_cmp_class_f64_e64",
        ][idx(f)];
        self.emit(mn, vec![Opnd::vcc(), x, mask])
    }

    /// `vcc ? b : a`, dword by dword (both of `f`'s width).
    pub(super) fn select(&mut self, f: Fmt, a: Opnd, b: Opnd) -> Result<Opnd> {
        let n = if f == Fmt::F64 { 2 } else { 1 };
        let t = self.vtemp(n);
        for i in 0..n {
            let (x, y) = (part(a, i), part(b, i));
            self.emit("v_cndmask_b32_e64", vec![dw(t, i), x, y, Opnd::vcc()])?;
        }
        Ok(self.fdst(t, f))
    }

    /// The dword of a value that holds its sign (dword 1 of f64).
    fn sign_dword(f: Fmt) -> u8 {
        u8::from(f == Fmt::F64)
    }

    /// `abs` (clear the sign bit) and `neg` (flip it): bit operations.
    fn sign_op(&mut self, op: BrigOpcode, d: VReg, s: Src, f: Fmt) -> Result<()> {
        let hi = Self::sign_dword(f);
        let (mn, mask) = if op == BrigOpcode::NEG {
            ("v_xor_b32_e64", sign_bit(f))
        } else {
            ("v_and_b32_e64", !sign_bit(f))
        };
        if f == Fmt::F64 {
            let a = self.val_any(s, 0);
            self.emit("v_mov_b32", vec![dw(d, 0), a])?;
        }
        let a = self.val(s, hi)?;
        let k = self.val(Src::Const(u64::from(mask)), 0)?;
        self.emit(mn, vec![dw(d, hi), a, k])
    }

    /// `copysign`: magnitude of `a`, sign of `b` (`v_bfi_b32`).
    fn copysign(&mut self, d: VReg, a: Src, b: Src, f: Fmt) -> Result<()> {
        let hi = Self::sign_dword(f);
        if f == Fmt::F64 {
            let x = self.val_any(a, 0);
            self.emit("v_mov_b32", vec![dw(d, 0), x])?;
        }
        let k = self.val(Src::Const(u64::from(!sign_bit(f))), 0)?;
        let x = self.val(a, hi)?;
        let y = self.val(b, hi)?;
        self.emit("v_bfi_b32", vec![dw(d, hi), k, x, y])
    }

    /// `x` with subnormals replaced by a zero of the same sign, without
    /// touching MODE (for sequences that must run with denormals on).
    pub(super) fn flush(&mut self, x: Opnd, f: Fmt) -> Result<Opnd> {
        let hi = part(x, u8::from(f == Fmt::F64));
        let k = self.val(Src::Const(u64::from(sign_bit(f))), 0)?;
        let sign = self.vtemp(1);
        self.emit("v_and_b32_e64", vec![r(sign), hi, k])?;
        let zero = if f == Fmt::F64 {
            let z = self.vtemp(2);
            self.emit("v_mov_b32", vec![dw(z, 0), Opnd::constant(0)])?;
            self.emit("v_mov_b32", vec![dw(z, 1), r(sign)])?;
            pair(z)
        } else {
            r(sign)
        };
        let mask = self.val(Src::Const(0x90), 0)?;
        self.class_vcc(x, mask, f)?;
        self.select(f, x, zero)
    }

    /// `fract`: `x − floor(x)` below 1.0 (`v_fract`) in the instruction's
    /// MODE; ±0 and ±inf (and subnormals under `ftz`) give a zero of the
    /// source's sign (PRM 5.11).
    fn fract(&mut self, d: VReg, s: Src, f: Fmt, mods: FloatMods) -> Result<()> {
        let x = self.fval(s, f)?;
        let mn = ["v_fract_f16", "v_fract_f32", "v_fract_f64"][idx(f)];
        let m = self.mode_for(f, mods);
        let t = self.in_mode(m, |cx| cx.op_new(f, mn, &[x], 0))?;
        let hi = part(x, u8::from(f == Fmt::F64));
        let k = self.val(Src::Const(u64::from(sign_bit(f))), 0)?;
        let sign = self.vtemp(1);
        self.emit("v_and_b32_e64", vec![r(sign), hi, k])?;
        let special = if mods.ftz { 0x2f4 } else { 0x264 };
        let mask = self.val(Src::Const(special), 0)?;
        self.class_vcc(x, mask, f)?;
        let lo = if f == Fmt::F64 {
            Opnd::constant(0)
        } else {
            r(sign)
        };
        self.emit(
            "v_cndmask_b32_e64",
            vec![dw(d, 0), part(t, 0), lo, Opnd::vcc()],
        )?;
        if f == Fmt::F64 {
            self.emit(
                "v_cndmask_b32_e64",
                vec![dw(d, 1), part(t, 1), r(sign), Opnd::vcc()],
            )?;
        }
        Ok(())
    }

    /// Moves a value of format `f` into `d`.
    pub(super) fn mov_to(&mut self, d: VReg, x: Opnd, f: Fmt) -> Result<()> {
        let n = if f == Fmt::F64 { 2 } else { 1 };
        for i in 0..n {
            self.emit("v_mov_b32", vec![dw(d, i), part(x, i)])?;
        }
        Ok(())
    }

    /// `div`, correctly rounded in the instruction's rounding.
    fn fdiv(&mut self, d: VReg, a: Src, b: Src, f: Fmt, mods: FloatMods) -> Result<()> {
        let round = self.round_of(f, mods);
        let x = self.fval(a, f)?;
        let y = self.fval(b, f)?;
        if f == Fmt::F16 {
            // f32 quotient rounded in `round`, then f16 in `round`; the f16
            // conversions flush per `ftz` (input and result).
            let io = self.mode.round(Fmt::F16, round).ftz(Fmt::F16, mods.ftz);
            let (x, y) = self.in_mode(io, |cx| {
                let x = cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[x], 0)?;
                let y = cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[y], 0)?;
                Ok((x, y))
            })?;
            let q = self.div_core(Fmt::F32, x, y, round)?;
            return self.in_mode(io, |cx| cx.emit("v_cvt_f16_f32", vec![r(d), q]));
        }
        let (x, y) = if mods.ftz {
            (self.flush(x, f)?, self.flush(y, f)?)
        } else {
            (x, y)
        };
        let q = self.div_core(f, x, y, round)?;
        let q = if mods.ftz { self.flush(q, f)? } else { q };
        self.mov_to(d, q, f)
    }

    /// `x / y` for f32 or f64 rounded in `round`: `v_div_scale` both
    /// operands, refine a reciprocal by Newton steps, form the quotient
    /// and its exact residual (nearest-even MODE, denormals kept), then
    /// `v_div_fmas` (rounds once, undoing the scaling) and `v_div_fixup`
    /// (specials). For a directed rounding the quotient is first made the
    /// correctly rounded nearest one and its residual recomputed: the
    /// residual term then lies strictly inside the ulp on the exact
    /// quotient's side, so `v_div_fmas` in the directed MODE rounds the
    /// right way, denormal results included.
    /// VCC from the numerator's `v_div_scale` reaches `v_div_fmas` more
    /// than 4 VALU instructions later (the hazard distance).
    pub(super) fn div_core(&mut self, f: Fmt, x: Opnd, y: Opnd, round: u8) -> Result<Opnd> {
        let w = if f == Fmt::F64 { "f64" } else { "f32" };
        let near = self.mode.round(f, NEAR).ftz(f, false);
        let (inv, q, rem) = self.in_mode(near, |cx| {
            let one = Opnd::constant(0x3f80_0000);
            let scale = |cx: &mut Self, v: Opnd| -> Result<Opnd> {
                let t = cx.vtemp(if f == Fmt::F64 { 2 } else { 1 });
                let dst = cx.fdst(t, f);
                cx.emit(&format!("v_div_scale_{w}"), vec![dst, Opnd::vcc(), v, y, x])?;
                Ok(dst)
            };
            let den = scale(cx, y)?;
            let num = scale(cx, x)?;
            let fma = format!("v_fma_{w}");
            let rcp = cx.op_new(f, &format!("v_rcp_{w}"), &[den], 0)?;
            // e = 1 − den·rcp; rcp' = rcp + rcp·e (twice for f64).
            let e0 = cx.op_new(f, &fma, &[den, rcp, one], 1)?;
            let mut inv = cx.op_new(f, &fma, &[e0, rcp, rcp], 0)?;
            if f == Fmt::F64 {
                let e1 = cx.op_new(f, &fma, &[den, inv, one], 1)?;
                inv = cx.op_new(f, &fma, &[inv, e1, inv], 0)?;
            }
            let mut q = cx.op_new(f, &format!("v_mul_{w}"), &[num, inv], 0)?;
            if f == Fmt::F32 {
                let r0 = cx.op_new(f, &fma, &[den, q, num], 1)?;
                q = cx.op_new(f, &fma, &[r0, inv, q], 0)?;
            }
            let mut rem = cx.op_new(f, &fma, &[den, q, num], 1)?;
            if round != NEAR {
                q = cx.op_new(f, &fma, &[rem, inv, q], 0)?;
                rem = cx.op_new(f, &fma, &[den, q, num], 1)?;
            }
            Ok((inv, q, rem))
        })?;
        let last = self.mode.round(f, round).ftz(f, false);
        let q = self.in_mode(last, |cx| {
            let fmas = cx.op_new(f, &format!("v_div_fmas_{w}"), &[rem, inv, q], 0)?;
            cx.op_new(f, &format!("v_div_fixup_{w}"), &[fmas, y, x], 0)
        })?;
        self.directed_range_fix(f, q, x, y, round)
    }

    /// The scaled quotient overflows, and `v_div_fixup` returns a signed
    /// zero for quotients below the smallest subnormal, whatever the
    /// rounding. For finite non-zero operands a directed rounding wants
    /// the largest finite value instead of an infinity rounded away from,
    /// and the smallest subnormal instead of a zero rounded away from.
    fn directed_range_fix(&mut self, f: Fmt, q: Opnd, x: Opnd, y: Opnd, round: u8) -> Result<Opnd> {
        // Class masks: (infinity → largest finite, zero → smallest subnormal).
        let (inf_mask, zero_mask) = match round {
            UP => (0x004, 0x040),
            DOWN => (0x200, 0x020),
            ZERO => (0x204, 0),
            _ => return Ok(q),
        };
        let finite = self.val(Src::Const(0x198), 0)?;
        let both = self.vtemp(1);
        self.class_vcc(x, finite, f)?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(both), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )?;
        self.class_vcc(y, finite, f)?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(both), Opnd::constant(0), r(both), Opnd::vcc()],
        )?;
        let mut q = q;
        for (mask, step) in [(inf_mask, u32::MAX), (zero_mask, 1)] {
            if mask == 0 {
                continue;
            }
            let next = self.int_step(f, q, step)?;
            let m = self.val(Src::Const(mask), 0)?;
            self.class_vcc(q, m, f)?;
            let hit = self.vtemp(1);
            self.emit(
                "v_cndmask_b32_e64",
                vec![r(hit), Opnd::constant(0), r(both), Opnd::vcc()],
            )?;
            self.emit(
                "v_cmp_ne_u32_e64",
                vec![Opnd::vcc(), r(hit), Opnd::constant(0)],
            )?;
            q = self.select(f, q, next)?;
        }
        Ok(q)
    }

    /// `sqrt`, correctly rounded in the instruction's rounding.
    fn fsqrt(&mut self, d: VReg, a: Src, f: Fmt, mods: FloatMods) -> Result<()> {
        let round = self.round_of(f, mods);
        let x = self.fval(a, f)?;
        if f == Fmt::F16 {
            let m = self
                .mode
                .round(Fmt::F32, NEAR)
                .ftz(Fmt::F32, false)
                .round(Fmt::F16, round)
                .ftz(Fmt::F16, mods.ftz);
            return self.in_mode(m, |cx| {
                let x = cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[x], 0)?;
                let s = cx.sqrt_core(Fmt::F32, x, round)?;
                cx.emit("v_cvt_f16_f32", vec![r(d), s])
            });
        }
        let x = if mods.ftz { self.flush(x, f)? } else { x };
        let m = self.mode.round(f, NEAR).ftz(f, false);
        let s = self.in_mode(m, |cx| cx.sqrt_core(f, x, round))?;
        self.mov_to(d, s, f)
    }

    /// √x for f32 or f64 in a nearest-even, denormals-kept MODE, rounded
    /// in direction `round`. Inputs below 2^-96 (f32) / 2^-767 (f64) are
    /// scaled up by 2^64 / 2^256 first; ±0 and +inf return themselves.
    pub(super) fn sqrt_core(&mut self, f: Fmt, x: Opnd, round: u8) -> Result<Opnd> {
        let f64_ = f == Fmt::F64;
        let (tiny, up, down): (u64, u32, u32) = if f64_ {
            (0x1000_0000_0000_0000, 256, (-128i32) as u32)
        } else {
            (0x0f80_0000, 64, (-32i32) as u32)
        };
        let lim = self.fval(Src::Const(tiny), f)?;
        let cmp = if f64_ {
            "v_cmp_gt_f64_e64"
        } else {
            "v_cmp_gt_f32_e64"
        };
        self.emit(cmp, vec![Opnd::vcc(), lim, x])?;
        let k_up = self.val(Src::Const(u64::from(up)), 0)?;
        let k_down = self.val(Src::Const(u64::from(down)), 0)?;
        let e_up = self.vtemp(1);
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(e_up), Opnd::constant(0), k_up, Opnd::vcc()],
        )?;
        let e_down = self.vtemp(1);
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(e_down), Opnd::constant(0), k_down, Opnd::vcc()],
        )?;
        let w = if f64_ { "f64" } else { "f32" };
        let sx = self.op_new(f, &format!("v_ldexp_{w}"), &[x, r(e_up)], 0)?;
        let fma = format!("v_fma_{w}");
        let mut s = if f64_ {
            self.sqrt_rsq_f64(sx)?
        } else {
            self.sqrt_nearest_f32(sx)?
        };
        if round != NEAR {
            // The residual x − s² has the exact sign (no underflow after
            // the scaling); step one ulp toward the rounding direction.
            let res = self.op_new(f, &fma, &[s, s, sx], 1)?;
            let (cmp, step) = match round {
                UP => ("lt", 1u32),
                DOWN | ZERO => ("gt", u32::MAX),
                _ => ("lt", 0),
            };
            // (The f64 step writes VCC: it comes before the compare.)
            let next = self.int_step(f, s, step)?;
            let zero = Opnd::constant(0);
            self.emit(
                &format!("v_cmp_{cmp}_{w}_e64"),
                vec![Opnd::vcc(), zero, res],
            )?;
            s = self.select(f, s, next)?;
        }
        let s = self.op_new(f, &format!("v_ldexp_{w}"), &[s, r(e_down)], 0)?;
        let mask = self.val(Src::Const(0x260), 0)?;
        self.class_vcc(sx, mask, f)?;
        self.select(f, s, sx)
    }

    /// The value whose bits are `x`'s plus `step` (±1: the next float
    /// away from or toward zero for a positive `x`).
    fn int_step(&mut self, f: Fmt, x: Opnd, step: u32) -> Result<Opnd> {
        let k = Opnd::constant(step);
        if f != Fmt::F64 {
            return self.op_new(f, "v_add_u32_e64", &[x, k], 0);
        }
        let t = self.vtemp(2);
        let hi = if step == 1 { 0 } else { u32::MAX };
        self.emit(
            "v_add_co_u32_e64",
            vec![dw(t, 0), Opnd::vcc(), part(x, 0), k],
        )?;
        self.emit(
            "v_addc_co_u32_e64",
            vec![
                dw(t, 1),
                Opnd::vcc(),
                part(x, 1),
                Opnd::constant(hi),
                Opnd::vcc(),
            ],
        )?;
        Ok(pair(t))
    }

    /// Nearest-even √sx (f32) from `v_sqrt_f32` (within 1 ulp): a
    /// neighbour replaces it when the residual says the root lies past
    /// the midpoint.
    fn sqrt_nearest_f32(&mut self, sx: Opnd) -> Result<Opnd> {
        let f = Fmt::F32;
        let s = self.op_new(f, "v_sqrt_f32", &[sx], 0)?;
        let below = self.int_step(f, s, u32::MAX)?;
        let above = self.int_step(f, s, 1)?;
        let r_below = self.op_new(f, "v_fma_f32", &[below, s, sx], 1)?;
        let r_above = self.op_new(f, "v_fma_f32", &[above, s, sx], 1)?;
        let zero = Opnd::constant(0);
        self.emit("v_cmp_ge_f32_e64", vec![Opnd::vcc(), zero, r_below])?;
        let s = self.select(f, s, below)?;
        self.emit("v_cmp_lt_f32_e64", vec![Opnd::vcc(), zero, r_above])?;
        self.select(f, s, above)
    }

    /// Nearest-even √sx (f64): `v_rsq_f64` refined by Goldschmidt steps
    /// on g ≈ √x and h ≈ 1/(2√x), then two residual corrections.
    fn sqrt_rsq_f64(&mut self, sx: Opnd) -> Result<Opnd> {
        let f = Fmt::F64;
        let half = Opnd::constant(0x3f00_0000);
        let y = self.op_new(f, "v_rsq_f64", &[sx], 0)?;
        let g0 = self.op_new(f, "v_mul_f64", &[sx, y], 0)?;
        let h0 = self.op_new(f, "v_mul_f64", &[y, half], 0)?;
        let e = self.op_new(f, "v_fma_f64", &[h0, g0, half], 1)?;
        let g1 = self.op_new(f, "v_fma_f64", &[g0, e, g0], 0)?;
        let h1 = self.op_new(f, "v_fma_f64", &[h0, e, h0], 0)?;
        let d0 = self.op_new(f, "v_fma_f64", &[g1, g1, sx], 1)?;
        let g2 = self.op_new(f, "v_fma_f64", &[d0, h1, g1], 0)?;
        let d1 = self.op_new(f, "v_fma_f64", &[g2, g2, sx], 1)?;
        self.op_new(f, "v_fma_f64", &[d1, h1, g2], 0)
    }
}

/// Dword `i` of a register operand (a constant is its own dword).
pub(super) fn part(x: Opnd, i: u8) -> Opnd {
    match x {
        Opnd::Reg { reg, offset, .. } => dw(reg, offset + i),
        other => other,
    }
}
