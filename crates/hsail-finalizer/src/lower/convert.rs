//! `cvt`: conversions between integer and float types.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigAluModifierMask, BrigRound, OperandOffset};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

impl Cx<'_> {
    pub(super) fn lower_cvt(
        &mut self,
        c: &brig::BrigInstCvt,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some((dk, db)), Some((sk, sb))) = (ty(c.base.type_), ty(c.source_type)) else {
            return Err(self.unsupported(what.to_string()));
        };
        if c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0 {
            return Err(self.unsupported(format!("{what} with ftz")));
        }
        let d = self.dst(ops[0])?;
        let s = self.src(ops[1])?;
        let int = |k: Kind| matches!(k, Kind::U | Kind::S);
        match (dk, db, sk, sb) {
            // Integer ↔ integer.
            (dk, 64, sk, 32) if int(dk) && int(sk) => {
                let a = self.val_any(s, 0);
                let hi = if sk == Kind::S {
                    let a = self.val(s, 0)?;
                    let t = self.vtemp(1);
                    self.emit("v_ashrrev_i32_e64", vec![r(t), Opnd::constant(31), a])?;
                    r(t)
                } else {
                    Opnd::constant(0)
                };
                self.emit("v_mov_b32", vec![dw(d, 0), a])?;
                self.emit("v_mov_b32", vec![dw(d, 1), hi])
            }
            (dk, 32, sk, 32 | 64) | (dk, 64, sk, 64) if int(dk) && int(sk) => {
                for i in 0..(db / 32) as u8 {
                    let a = self.val_any(s, i);
                    self.emit("v_mov_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            (dk, 32, Kind::B, 1) if int(dk) => {
                let a = self.val_any(s, 0);
                self.emit("v_mov_b32", vec![r(d), a])
            }
            (Kind::B, 1, sk, 32 | 64) if int(sk) => {
                if sb == 64 {
                    let a = self.val64(s)?;
                    self.emit(
                        "v_cmp_ne_u64_e64",
                        vec![Opnd::vcc(), pair(a), Opnd::constant(0)],
                    )?;
                } else {
                    let a = self.val(s, 0)?;
                    self.emit("v_cmp_ne_u32_e64", vec![Opnd::vcc(), a, Opnd::constant(0)])?;
                }
                self.emit(
                    "v_cndmask_b32_e64",
                    vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
                )
            }
            // Integer → f32.
            (Kind::F, 32, sk, 32) if int(sk) => {
                self.check_float_round(c.round, what)?;
                let a = self.val_any(s, 0);
                let mn = if sk == Kind::S {
                    "v_cvt_f32_i32"
                } else {
                    "v_cvt_f32_u32"
                };
                self.emit(mn, vec![r(d), a])
            }
            (Kind::F, 32, sk, 64) if int(sk) => {
                self.check_float_round(c.round, what)?;
                self.cvt_f32_64(d, s, sk == Kind::S)
            }
            // f32 → integer.
            (dk, 32 | 64, Kind::F, 32) if int(dk) => {
                let a = self.val(s, 0)?;
                let t = self.vtemp(1);
                let mn = match c.round {
                    BrigRound::NONE
                    | BrigRound::INTEGER_ZERO
                    | BrigRound::INTEGER_ZERO_SAT
                    | BrigRound::INTEGER_SIGNALING_ZERO
                    | BrigRound::INTEGER_SIGNALING_ZERO_SAT => "v_trunc_f32",
                    BrigRound::INTEGER_NEAR_EVEN
                    | BrigRound::INTEGER_NEAR_EVEN_SAT
                    | BrigRound::INTEGER_SIGNALING_NEAR_EVEN
                    | BrigRound::INTEGER_SIGNALING_NEAR_EVEN_SAT => "v_rndne_f32",
                    BrigRound::INTEGER_PLUS_INFINITY
                    | BrigRound::INTEGER_PLUS_INFINITY_SAT
                    | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY
                    | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY_SAT => "v_ceil_f32",
                    BrigRound::INTEGER_MINUS_INFINITY
                    | BrigRound::INTEGER_MINUS_INFINITY_SAT
                    | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY
                    | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY_SAT => "v_floor_f32",
                    _ => return Err(self.unsupported(format!("{what} with this rounding"))),
                };
                self.emit(mn, vec![r(t), a])?;
                if db == 32 {
                    let mn = if dk == Kind::S {
                        "v_cvt_i32_f32"
                    } else {
                        "v_cvt_u32_f32"
                    };
                    self.emit(mn, vec![r(d), r(t)])
                } else {
                    self.cvt_64_f32(d, t, dk == Kind::S)
                }
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    pub(super) fn check_float_round(&self, round: BrigRound, what: &str) -> Result<()> {
        if matches!(
            round,
            BrigRound::NONE | BrigRound::FLOAT_DEFAULT | BrigRound::FLOAT_NEAR_EVEN
        ) {
            Ok(())
        } else {
            Err(self.unsupported(format!("{what} with a rounding other than near")))
        }
    }

    /// u64/s64 → f32, rounded to nearest even (LLVM's expansion: normalize
    /// to 32 significant bits with a sticky bit, convert, scale).
    pub(super) fn cvt_f32_64(&mut self, d: VReg, s: Src, signed: bool) -> Result<()> {
        let x = self.val64(s)?;
        let (mag, sign) = if signed {
            let sign = self.vtemp(1);
            self.emit(
                "v_ashrrev_i32_e64",
                vec![r(sign), Opnd::constant(31), dw(x, 1)],
            )?;
            let t = self.vtemp(2);
            for i in 0..2 {
                self.emit("v_xor_b32_e64", vec![dw(t, i), dw(x, i), r(sign)])?;
            }
            let m = self.vtemp(2);
            self.emit(
                "v_sub_co_u32_e64",
                vec![dw(m, 0), Opnd::vcc(), dw(t, 0), r(sign)],
            )?;
            self.emit(
                "v_subb_co_u32_e64",
                vec![dw(m, 1), Opnd::vcc(), dw(t, 1), r(sign), Opnd::vcc()],
            )?;
            (m, Some(sign))
        } else {
            (x, None)
        };
        let clz = self.vtemp(1);
        self.emit("v_ffbh_u32", vec![r(clz), dw(mag, 1)])?;
        self.emit("v_min_u32_e64", vec![r(clz), r(clz), Opnd::constant(32)])?;
        let n = self.vtemp(2);
        self.emit("v_lshlrev_b64", vec![pair(n), r(clz), pair(mag)])?;
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
        match sign {
            None => self.emit("v_ldexp_f32", vec![r(d), r(f), r(e)]),
            Some(sign) => {
                let g = self.vtemp(1);
                self.emit("v_ldexp_f32", vec![r(g), r(f), r(e)])?;
                let bit = self.vtemp(1);
                self.emit(
                    "v_lshlrev_b32_e64",
                    vec![r(bit), Opnd::constant(31), r(sign)],
                )?;
                self.emit("v_xor_b32_e64", vec![r(d), r(g), r(bit)])
            }
        }
    }

    /// An integral f32 (`t`) → u64/s64 (truncating; out of range undefined).
    pub(super) fn cvt_64_f32(&mut self, d: VReg, t: VReg, signed: bool) -> Result<()> {
        let (mag, sign) = if signed {
            let sign = self.vtemp(1);
            self.emit("v_ashrrev_i32_e64", vec![r(sign), Opnd::constant(31), r(t)])?;
            let k = self.val(Src::Const(0x7fff_ffff), 0)?;
            let a = self.vtemp(1);
            self.emit("v_and_b32_e64", vec![r(a), r(t), k])?;
            (a, Some(sign))
        } else {
            (t, None)
        };
        // hi = floor(x * 2^-32); lo = fma(hi, -2^32, x).
        let k1 = self.val(Src::Const(0x2f80_0000), 0)?;
        let k2 = self.val(Src::Const(0xcf80_0000), 0)?;
        let h = self.vtemp(1);
        self.emit("v_mul_f32_e64", vec![r(h), r(mag), k1])?;
        self.emit("v_floor_f32", vec![r(h), r(h)])?;
        let l = self.vtemp(1);
        self.emit("v_fma_f32", vec![r(l), r(h), k2, r(mag)])?;
        let u = self.vtemp(2);
        self.emit("v_cvt_u32_f32", vec![dw(u, 1), r(h)])?;
        self.emit("v_cvt_u32_f32", vec![dw(u, 0), r(l)])?;
        match sign {
            None => {
                for i in 0..2 {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(u, i)])?;
                }
                Ok(())
            }
            Some(sign) => {
                let x = self.vtemp(2);
                for i in 0..2 {
                    self.emit("v_xor_b32_e64", vec![dw(x, i), dw(u, i), r(sign)])?;
                }
                let lo = self.vtemp(1);
                self.emit(
                    "v_sub_co_u32_e64",
                    vec![r(lo), Opnd::vcc(), dw(x, 0), r(sign)],
                )?;
                self.emit(
                    "v_subb_co_u32_e64",
                    vec![dw(d, 1), Opnd::vcc(), dw(x, 1), r(sign), Opnd::vcc()],
                )?;
                self.emit("v_mov_b32", vec![dw(d, 0), r(lo)])
            }
        }
    }
}
