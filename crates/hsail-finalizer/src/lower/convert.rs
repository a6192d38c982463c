//! `cvt` (PRM 5.19): every legal source/destination pair.
//!
//! - Integer ↔ integer: the source's low bits extended by its type, cut to
//!   the destination size, and (under 32 bits) extended again by the
//!   destination type; `b1` sources give 0/1 (`b2s`: 0/−1 for s32/s64).
//! - To `b1`: `ztest` (floats: non-zero magnitude bits, so NaN and ±inf
//!   are 1, ±0 is 0; `ftz` flushes subnormals first).
//! - Float → integer: round to an integral value (`v_trunc`/`v_rndne`/
//!   `v_ceil`/`v_floor` for zeroi/neari/upi/downi), then a saturating
//!   conversion with NaN → 0. That is the `_sat` semantics; the regular
//!   and signalling forms share it (their out-of-range results are
//!   undefined and exceptions are not observable). 64-bit results split
//!   the f64 value into high and low words.
//! - Integer → float: rounded in the instruction's mode (MODE switch);
//!   64-bit integers go through a 32-bit normalization with a sticky bit
//!   (f32) or two exact halves and one rounding add (f64); f16 through an
//!   f32 rounded in the same direction (innocuous: every integer that f32
//!   rounds is past f16's overflow threshold).
//! - Float → float: widening is exact; narrowing rounds in the
//!   instruction's mode. f64 → f16 first rounds to f32 toward zero and
//!   ORs the inexact flag into the last bit (round to odd), so the
//!   second rounding is correct in every direction.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigAluModifierMask, BrigRound, OperandOffset};

use super::float::part;
use super::mode::{DOWN, FloatMods, Fmt, UP, ZERO};
use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

/// The integral-rounding instruction stem for an integer rounding mode.
pub(super) fn int_round(round: BrigRound) -> Option<&'static str> {
    Some(match round {
        BrigRound::NONE
        | BrigRound::INTEGER_ZERO
        | BrigRound::INTEGER_ZERO_SAT
        | BrigRound::INTEGER_SIGNALING_ZERO
        | BrigRound::INTEGER_SIGNALING_ZERO_SAT => "v_trunc",
        BrigRound::INTEGER_NEAR_EVEN
        | BrigRound::INTEGER_NEAR_EVEN_SAT
        | BrigRound::INTEGER_SIGNALING_NEAR_EVEN
        | BrigRound::INTEGER_SIGNALING_NEAR_EVEN_SAT => "v_rndne",
        BrigRound::INTEGER_PLUS_INFINITY
        | BrigRound::INTEGER_PLUS_INFINITY_SAT
        | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY
        | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY_SAT => "v_ceil",
        BrigRound::INTEGER_MINUS_INFINITY
        | BrigRound::INTEGER_MINUS_INFINITY_SAT
        | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY
        | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY_SAT => "v_floor",
        _ => return None,
    })
}

/// Whether a kind is an integer kind.
fn int(k: Kind) -> bool {
    matches!(k, Kind::U | Kind::S)
}

/// f64 bit patterns used by the 64-bit integer conversions.
const F64_2_POW_M32: u64 = 0x3df0_0000_0000_0000;
const F64_M2_POW_32: u64 = 0xc1f0_0000_0000_0000;

impl Cx<'_> {
    /// `cvt_<dst>_<src>`.
    pub(super) fn lower_cvt(
        &mut self,
        c: &brig::BrigInstCvt,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some((dk, db)), Some((sk, sb))) = (ty(c.base.type_), ty(c.source_type)) else {
            return Err(self.unsupported(what.to_string()));
        };
        let ftz = c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0;
        let d = self.dst(ops[0])?;
        let s = self.src(ops[1])?;
        self.detect_cvt(c, s, (dk, db), (sk, sb), ftz)?;
        let bad = |cx: &Self| cx.unsupported(format!("{what} with this rounding"));
        match (dk, sk) {
            (Kind::B, _) if db == 1 => self.cvt_ztest(d, s, sk, sb, ftz),
            (_, Kind::B) if sb == 1 => self.cvt_from_b1(d, s, dk, db),
            (Kind::F, Kind::F) => {
                let mods = FloatMods::from_brig(c.round, ftz).ok_or_else(|| bad(self))?;
                self.cvt_float(d, s, db, sb, mods)
            }
            (Kind::F, k) if int(k) => {
                let mods = FloatMods::from_brig(c.round, false).ok_or_else(|| bad(self))?;
                self.cvt_int_to_float(d, s, db, k == Kind::S, sb, mods)
            }
            (k, Kind::F) if int(k) => {
                let stem = int_round(c.round).ok_or_else(|| bad(self))?;
                self.cvt_float_to_int(d, s, k == Kind::S, db, sb, stem, ftz)
            }
            (dk, sk) if int(dk) && int(sk) => self.cvt_int(d, s, dk, db, sk, sb),
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `x` sign- or zero-extended from its low `bits` (8/16) to 32 bits.
    pub(super) fn extend32(&mut self, x: Opnd, signed: bool, bits: u32) -> Result<Opnd> {
        if bits >= 32 {
            return Ok(x);
        }
        let mn = if signed { "v_bfe_i32" } else { "v_bfe_u32" };
        let t = self.vtemp(1);
        self.emit(mn, vec![r(t), x, Opnd::constant(0), Opnd::constant(bits)])?;
        Ok(r(t))
    }

    /// Integer ↔ integer (`zext`, `sext`, `chop`).
    fn cvt_int(&mut self, d: VReg, s: Src, dk: Kind, db: u32, sk: Kind, sb: u32) -> Result<()> {
        let lo = self.val(s, 0)?;
        let lo = self.extend32(lo, sk == Kind::S, sb)?;
        let lo = self.extend32(lo, dk == Kind::S, db)?;
        self.emit("v_mov_b32", vec![dw(d, 0), lo])?;
        if db < 64 {
            return Ok(());
        }
        let hi = if sb == 64 {
            self.val_any(s, 1)
        } else if sk == Kind::S {
            let t = self.vtemp(1);
            self.emit("v_ashrrev_i32_e64", vec![r(t), Opnd::constant(31), lo])?;
            r(t)
        } else {
            Opnd::constant(0)
        };
        self.emit("v_mov_b32", vec![dw(d, 1), hi])
    }

    /// `b1` → integer or float: 0/1, `b2s` 0/−1 for s32/s64, 0.0/1.0.
    fn cvt_from_b1(&mut self, d: VReg, s: Src, dk: Kind, db: u32) -> Result<()> {
        let c = self.val(s, 0)?;
        self.emit("v_cmp_ne_u32_e64", vec![Opnd::vcc(), c, Opnd::constant(0)])?;
        let (one, hi): (u32, Option<u32>) = match (dk, db) {
            (Kind::F, 16) => (0x3c00, None),
            (Kind::F, 32) => (0x3f80_0000, None),
            (Kind::F, _) => (0, Some(0x3ff0_0000)),
            (Kind::S, 32) => (u32::MAX, None),
            (Kind::S, 64) => (u32::MAX, Some(u32::MAX)),
            (_, 64) => (1, Some(0)),
            _ => (1, None),
        };
        let k = self.val(Src::Const(u64::from(one)), 0)?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![dw(d, 0), Opnd::constant(0), k, Opnd::vcc()],
        )?;
        if let Some(h) = hi {
            let k = self.val(Src::Const(u64::from(h)), 0)?;
            self.emit(
                "v_cndmask_b32_e64",
                vec![dw(d, 1), Opnd::constant(0), k, Opnd::vcc()],
            )?;
        }
        Ok(())
    }

    /// Anything → `b1` (`ztest`).
    fn cvt_ztest(&mut self, d: VReg, s: Src, sk: Kind, sb: u32, ftz: bool) -> Result<()> {
        let (lo, hi) = if sk == Kind::F {
            let f = float_fmt(sb);
            let x = self.fval(s, f)?;
            let x = if ftz { self.flush(x, f)? } else { x };
            let mag = if f == Fmt::F16 { 0x7fff } else { 0x7fff_ffff };
            let k = self.val(Src::Const(mag), 0)?;
            let h = part(x, u8::from(f == Fmt::F64));
            let t = self.vtemp(1);
            self.emit("v_and_b32_e64", vec![r(t), h, k])?;
            if f == Fmt::F64 {
                (part(x, 0), Some(r(t)))
            } else {
                (r(t), None)
            }
        } else {
            let x = self.val(s, 0)?;
            let x = if sb < 32 {
                let t = self.vtemp(1);
                let k = self.val(Src::Const((1 << sb) - 1), 0)?;
                self.emit("v_and_b32_e64", vec![r(t), x, k])?;
                r(t)
            } else {
                x
            };
            let hi = if sb == 64 {
                Some(self.val(s, 1)?)
            } else {
                None
            };
            (x, hi)
        };
        let any = match hi {
            Some(h) => {
                let t = self.vtemp(1);
                self.emit("v_or_b32_e64", vec![r(t), lo, h])?;
                r(t)
            }
            None => lo,
        };
        self.emit(
            "v_cmp_ne_u32_e64",
            vec![Opnd::vcc(), any, Opnd::constant(0)],
        )?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )
    }

    /// Float → float.
    fn cvt_float(&mut self, d: VReg, s: Src, db: u32, sb: u32, mods: FloatMods) -> Result<()> {
        let (to, from) = (float_fmt(db), float_fmt(sb));
        let x = self.fval(s, from)?;
        let round = self.round_of(to, mods);
        let flush = mods.ftz;
        // Input flushing follows the source format's field, rounding and
        // output flushing the destination's.
        let m = self.mode.ftz(from, flush).ftz(to, flush).round(to, round);
        match (to, from) {
            (Fmt::F32, Fmt::F16) => self.in_mode(m, |cx| cx.emit("v_cvt_f32_f16", vec![r(d), x])),
            (Fmt::F64, Fmt::F32) => {
                self.in_mode(m, |cx| cx.emit("v_cvt_f64_f32", vec![pair(d), x]))
            }
            (Fmt::F64, Fmt::F16) => self.in_mode(m, |cx| {
                let t = cx.op_new(Fmt::F32, "v_cvt_f32_f16", &[x], 0)?;
                cx.emit("v_cvt_f64_f32", vec![pair(d), t])
            }),
            (Fmt::F16, Fmt::F32) => self.in_mode(m, |cx| cx.emit("v_cvt_f16_f32", vec![r(d), x])),
            (Fmt::F32, Fmt::F64) => self.in_mode(m, |cx| cx.emit("v_cvt_f32_f64", vec![r(d), x])),
            (Fmt::F16, Fmt::F64) => self.cvt_f16_f64(d, x, round, flush),
            _ => Err(self.unsupported("cvt between equal float types".into())),
        }
    }

    /// f64 → f16: f32 rounded to odd (toward zero, inexact → last bit
    /// set), then rounded to f16 in `round`.
    fn cvt_f16_f64(&mut self, d: VReg, x: Opnd, round: u8, ftz: bool) -> Result<()> {
        let x = if ftz { self.flush(x, Fmt::F64)? } else { x };
        let m = self
            .mode
            .round(Fmt::F32, ZERO)
            .ftz(Fmt::F32, false)
            .round(Fmt::F16, round)
            .ftz(Fmt::F16, ftz);
        self.in_mode(m, |cx| {
            let t = cx.op_new(Fmt::F32, "v_cvt_f32_f64", &[x], 0)?;
            let back = cx.op_new(Fmt::F64, "v_cvt_f64_f32", &[t], 0)?;
            cx.emit("v_cmp_neq_f64_e64", vec![Opnd::vcc(), back, x])?;
            let bit = cx.vtemp(1);
            cx.emit(
                "v_cndmask_b32_e64",
                vec![r(bit), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
            )?;
            let odd = cx.op_new(Fmt::F32, "v_or_b32_e64", &[t, r(bit)], 0)?;
            cx.emit("v_cvt_f16_f32", vec![r(d), odd])
        })
    }

    /// Integer (8–64 bits) → float, rounded per `mods`.
    fn cvt_int_to_float(
        &mut self,
        d: VReg,
        s: Src,
        db: u32,
        signed: bool,
        sb: u32,
        mods: FloatMods,
    ) -> Result<()> {
        let to = float_fmt(db);
        let round = self.round_of(to, mods);
        if to == Fmt::F16 {
            let t = self.vtemp(1);
            self.int_to_f32(t, s, signed, sb, round)?;
            let m = self.mode.round(Fmt::F16, round);
            return self.in_mode(m, |cx| cx.emit("v_cvt_f16_f32", vec![r(d), r(t)]));
        }
        if to == Fmt::F32 {
            return self.int_to_f32(d, s, signed, sb, round);
        }
        let cvt = if signed {
            "v_cvt_f64_i32"
        } else {
            "v_cvt_f64_u32"
        };
        if sb < 64 {
            let x = self.val(s, 0)?;
            let x = self.extend32(x, signed, sb)?;
            return self.emit(cvt, vec![pair(d), x]);
        }
        // hi·2^32 and lo are exact in f64; one rounding add.
        let x = self.val64(s)?;
        let hi = self.op_new(Fmt::F64, cvt, &[dw(x, 1)], 0)?;
        let k = self.val(Src::Const(32), 0)?;
        let hi = self.op_new(Fmt::F64, "v_ldexp_f64", &[hi, k], 0)?;
        let lo = self.op_new(Fmt::F64, "v_cvt_f64_u32", &[dw(x, 0)], 0)?;
        let m = self.mode.round(Fmt::F64, round);
        self.in_mode(m, |cx| cx.emit("v_add_f64", vec![pair(d), hi, lo]))
    }

    /// Integer → f32 rounded in direction `round`.
    fn int_to_f32(&mut self, d: VReg, s: Src, signed: bool, sb: u32, round: u8) -> Result<()> {
        let m = self.mode.round(Fmt::F32, round);
        if sb < 64 {
            let x = self.val(s, 0)?;
            let x = self.extend32(x, signed, sb)?;
            let mn = if signed {
                "v_cvt_f32_i32"
            } else {
                "v_cvt_f32_u32"
            };
            return self.in_mode(m, |cx| cx.emit(mn, vec![r(d), x]));
        }
        let x = self.val64(s)?;
        if !signed {
            return self.in_mode(m, |cx| cx.u64_to_f32(d, x));
        }
        // |x| and its sign; a negative value rounds its magnitude the
        // other way under up/down.
        let sign = self.vtemp(1);
        self.emit(
            "v_ashrrev_i32_e64",
            vec![r(sign), Opnd::constant(31), dw(x, 1)],
        )?;
        let t = self.vtemp(2);
        for i in 0..2 {
            self.emit("v_xor_b32_e64", vec![dw(t, i), dw(x, i), r(sign)])?;
        }
        let mag = self.vtemp(2);
        self.emit(
            "v_sub_co_u32_e64",
            vec![dw(mag, 0), Opnd::vcc(), dw(t, 0), r(sign)],
        )?;
        self.emit(
            "v_subb_co_u32_e64",
            vec![dw(mag, 1), Opnd::vcc(), dw(t, 1), r(sign), Opnd::vcc()],
        )?;
        let pos = self.vtemp(1);
        self.in_mode(m, |cx| cx.u64_to_f32(pos, mag))?;
        let neg_round = match round {
            UP => DOWN,
            DOWN => UP,
            other => other,
        };
        let neg = if neg_round == round {
            pos
        } else {
            let n = self.vtemp(1);
            let m = self.mode.round(Fmt::F32, neg_round);
            self.in_mode(m, |cx| cx.u64_to_f32(n, mag))?;
            n
        };
        self.emit(
            "v_cmp_gt_i32_e64",
            vec![Opnd::vcc(), Opnd::constant(0), r(sign)],
        )?;
        let v = self.vtemp(1);
        self.emit("v_cndmask_b32_e64", vec![r(v), r(pos), r(neg), Opnd::vcc()])?;
        let bit = self.vtemp(1);
        self.emit(
            "v_lshlrev_b32_e64",
            vec![r(bit), Opnd::constant(31), r(sign)],
        )?;
        self.emit("v_xor_b32_e64", vec![r(d), r(v), r(bit)])
    }

    /// u64 → f32 in the current MODE rounding: the top 32 significant bits
    /// with a sticky bit for the rest (enough for any direction), converted
    /// once, then scaled (exactly) by 2^(32 − leading zeros).
    fn u64_to_f32(&mut self, d: VReg, x: VReg) -> Result<()> {
        let clz = self.vtemp(1);
        self.emit("v_ffbh_u32", vec![r(clz), dw(x, 1)])?;
        self.emit("v_min_u32_e64", vec![r(clz), r(clz), Opnd::constant(32)])?;
        let n = self.vtemp(2);
        self.emit("v_lshlrev_b64", vec![pair(n), r(clz), pair(x)])?;
        let sticky = self.vtemp(1);
        self.emit(
            "v_min_u32_e64",
            vec![r(sticky), Opnd::constant(1), dw(n, 0)],
        )?;
        let v = self.vtemp(1);
        self.emit("v_or_b32_e64", vec![r(v), dw(n, 1), r(sticky)])?;
        let f = self.vtemp(1);
        self.emit("v_cvt_f32_u32", vec![r(f), r(v)])?;
        let e = self.vtemp(1);
        self.emit("v_sub_u32_e64", vec![r(e), Opnd::constant(32), r(clz)])?;
        self.emit("v_ldexp_f32", vec![r(d), r(f), r(e)])
    }

    /// Float → integer (any size), saturating, NaN → 0.
    #[allow(clippy::too_many_arguments)]
    fn cvt_float_to_int(
        &mut self,
        d: VReg,
        s: Src,
        signed: bool,
        db: u32,
        sb: u32,
        stem: &str,
        ftz: bool,
    ) -> Result<()> {
        let mut f = float_fmt(sb);
        let mut x = self.fval(s, f)?;
        if ftz {
            x = self.flush(x, f)?;
        }
        if f == Fmt::F16 {
            x = self.op_new(Fmt::F32, "v_cvt_f32_f16", &[x], 0)?;
            f = Fmt::F32;
        }
        let w = if f == Fmt::F64 { "f64" } else { "f32" };
        let rounded = self.op_new(f, &format!("{stem}_{w}"), &[x], 0)?;
        if db == 64 {
            let v = if f == Fmt::F32 {
                self.op_new(Fmt::F64, "v_cvt_f64_f32", &[rounded], 0)?
            } else {
                rounded
            };
            return self.f64_to_int64(d, v, signed);
        }
        let kind = if signed { "i32" } else { "u32" };
        let t = self.op_new(Fmt::F32, &format!("v_cvt_{kind}_{w}"), &[rounded], 0)?;
        let v = match (signed, db) {
            (_, 32) => t,
            (true, _) => {
                let lo = self.val(Src::Const((-(1i64 << (db - 1))) as u64), 0)?;
                let hi = self.val(Src::Const((1 << (db - 1)) - 1), 0)?;
                self.op_new(Fmt::F32, "v_med3_i32", &[t, lo, hi], 0)?
            }
            (false, _) => {
                let hi = self.val(Src::Const((1 << db) - 1), 0)?;
                self.op_new(Fmt::F32, "v_min_u32_e64", &[t, hi], 0)?
            }
        };
        self.emit("v_mov_b32", vec![r(d), v])
    }

    /// An integral f64 → s64/u64, saturating, NaN → 0: high word
    /// floor(v·2^-32) clamped to the word's range, low word the exact
    /// remainder (saturated by `v_cvt_u32_f64` when the high word was).
    fn f64_to_int64(&mut self, d: VReg, v: Opnd, signed: bool) -> Result<()> {
        let f = Fmt::F64;
        self.emit("v_cmp_o_f64_e64", vec![Opnd::vcc(), v, v])?;
        let zero = Opnd::constant(0);
        let v = self.select(f, zero, v)?;
        let k = self.fval(Src::Const(F64_2_POW_M32), f)?;
        let h = self.op_new(f, "v_mul_f64", &[v, k], 0)?;
        let h = self.op_new(f, "v_floor_f64", &[h], 0)?;
        let (lo, hi) = if signed {
            (-2_147_483_648.0f64, 2_147_483_647.0f64)
        } else {
            (0.0, 4_294_967_295.0)
        };
        let lo = self.fval(Src::Const(lo.to_bits()), f)?;
        let hi = self.fval(Src::Const(hi.to_bits()), f)?;
        let h = self.op_new(f, "v_max_f64", &[h, lo], 0)?;
        let h = self.op_new(f, "v_min_f64", &[h, hi], 0)?;
        let k = self.fval(Src::Const(F64_M2_POW_32), f)?;
        let l = self.op_new(f, "v_fma_f64", &[h, k, v], 0)?;
        let cvt = if signed {
            "v_cvt_i32_f64"
        } else {
            "v_cvt_u32_f64"
        };
        self.emit(cvt, vec![dw(d, 1), h])?;
        self.emit("v_cvt_u32_f64", vec![dw(d, 0), l])
    }
}

/// The float format of a bit size.
pub(super) fn float_fmt(bits: u32) -> Fmt {
    match bits {
        16 => Fmt::F16,
        32 => Fmt::F32,
        _ => Fmt::F64,
    }
}
