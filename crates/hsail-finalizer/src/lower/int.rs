//! Integer and bit operations (and, for now, f32 arithmetic) on 32- and
//! 64-bit registers.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

impl Cx<'_> {
    pub(super) fn lower_alu(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = ty(type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let signed = kind == Kind::S;
        match (bits, kind) {
            (1, Kind::B) | (32, Kind::U | Kind::S | Kind::B) => {
                let bin = match (op, signed) {
                    (BrigOpcode::ADD, _) => Some("v_add_u32_e64"),
                    (BrigOpcode::SUB, _) => Some("v_sub_u32_e64"),
                    (BrigOpcode::MUL, _) => Some("v_mul_lo_u32"),
                    (BrigOpcode::MULHI, false) => Some("v_mul_hi_u32"),
                    (BrigOpcode::MULHI, true) => Some("v_mul_hi_i32"),
                    (BrigOpcode::AND, _) => Some("v_and_b32_e64"),
                    (BrigOpcode::OR, _) => Some("v_or_b32_e64"),
                    (BrigOpcode::XOR, _) => Some("v_xor_b32_e64"),
                    (BrigOpcode::MIN, false) => Some("v_min_u32_e64"),
                    (BrigOpcode::MIN, true) => Some("v_min_i32_e64"),
                    (BrigOpcode::MAX, false) => Some("v_max_u32_e64"),
                    (BrigOpcode::MAX, true) => Some("v_max_i32_e64"),
                    _ => None,
                };
                if let Some(mn) = bin.filter(|_| s.len() == 2) {
                    let a = self.val(s[0], 0)?;
                    let b = self.val(s[1], 0)?;
                    return self.emit(mn, vec![r(d), a, b]);
                }
                match op {
                    BrigOpcode::SHL | BrigOpcode::SHR if s.len() == 2 => {
                        let mn = match (op, signed) {
                            (BrigOpcode::SHL, _) => "v_lshlrev_b32_e64",
                            (_, false) => "v_lshrrev_b32_e64",
                            (_, true) => "v_ashrrev_i32_e64",
                        };
                        let a = self.val(s[0], 0)?;
                        let b = self.val(s[1], 0)?;
                        self.emit(mn, vec![r(d), b, a])
                    }
                    BrigOpcode::MOV => {
                        let a = self.val_any(s[0], 0);
                        self.emit("v_mov_b32", vec![r(d), a])
                    }
                    BrigOpcode::NOT if bits == 1 => {
                        let a = self.val(s[0], 0)?;
                        self.emit("v_xor_b32_e64", vec![r(d), a, Opnd::constant(1)])
                    }
                    BrigOpcode::NOT => {
                        let a = self.val_any(s[0], 0);
                        self.emit("v_not_b32", vec![r(d), a])
                    }
                    BrigOpcode::NEG => {
                        let a = self.val(s[0], 0)?;
                        self.emit("v_sub_u32_e64", vec![r(d), Opnd::constant(0), a])
                    }
                    BrigOpcode::DIV | BrigOpcode::REM if s.len() == 2 && kind != Kind::B => {
                        self.divrem32(op == BrigOpcode::REM, signed, d, s[0], s[1])
                    }
                    BrigOpcode::ABS if signed => {
                        let a = self.val(s[0], 0)?;
                        let t = self.vtemp(1);
                        self.emit("v_sub_u32_e64", vec![r(t), Opnd::constant(0), a])?;
                        self.emit("v_max_i32_e64", vec![r(d), a, r(t)])
                    }
                    _ => Err(self.unsupported(what.to_string())),
                }
            }
            (64, Kind::U | Kind::S | Kind::B) => self.lower_alu64(op, signed, d, &s, what),
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    pub(super) fn lower_alu64(
        &mut self,
        op: BrigOpcode,
        signed: bool,
        d: VReg,
        s: &[Src],
        what: &str,
    ) -> Result<()> {
        match op {
            BrigOpcode::MOV => {
                for i in 0..2 {
                    let a = self.val_any(s[0], i);
                    self.emit("v_mov_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            BrigOpcode::ADD | BrigOpcode::SUB => {
                let (lo, hi) = if op == BrigOpcode::ADD {
                    ("v_add_co_u32_e64", "v_addc_co_u32_e64")
                } else {
                    ("v_sub_co_u32_e64", "v_subb_co_u32_e64")
                };
                self.add64(lo, hi, d, s[0], s[1])
            }
            BrigOpcode::NEG => self.add64(
                "v_sub_co_u32_e64",
                "v_subb_co_u32_e64",
                d,
                Src::Const(0),
                s[0],
            ),
            BrigOpcode::AND | BrigOpcode::OR | BrigOpcode::XOR => {
                let mn = match op {
                    BrigOpcode::AND => "v_and_b32_e64",
                    BrigOpcode::OR => "v_or_b32_e64",
                    _ => "v_xor_b32_e64",
                };
                for i in 0..2 {
                    let a = self.val(s[0], i)?;
                    let b = self.val(s[1], i)?;
                    self.emit(mn, vec![dw(d, i), a, b])?;
                }
                Ok(())
            }
            BrigOpcode::NOT => {
                for i in 0..2 {
                    let a = self.val_any(s[0], i);
                    self.emit("v_not_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            BrigOpcode::SHL | BrigOpcode::SHR => {
                let mn = match (op, signed) {
                    (BrigOpcode::SHL, _) => "v_lshlrev_b64",
                    (_, false) => "v_lshrrev_b64",
                    (_, true) => "v_ashrrev_i64",
                };
                let a = self.val64(s[0])?;
                let b = self.val(s[1], 0)?;
                self.emit(mn, vec![pair(d), b, pair(a)])
            }
            BrigOpcode::MUL => {
                let a = self.val64(s[0])?;
                let b = self.val64(s[1])?;
                let lo = self.vtemp(1);
                let hi = self.vtemp(1);
                let t1 = self.vtemp(1);
                let t2 = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(lo), dw(a, 0), dw(b, 0)])?;
                self.emit("v_mul_hi_u32", vec![r(hi), dw(a, 0), dw(b, 0)])?;
                self.emit("v_mul_lo_u32", vec![r(t1), dw(a, 0), dw(b, 1)])?;
                self.emit("v_mul_lo_u32", vec![r(t2), dw(a, 1), dw(b, 0)])?;
                self.emit("v_add_u32_e64", vec![r(hi), r(hi), r(t1)])?;
                self.emit("v_add_u32_e64", vec![dw(d, 1), r(hi), r(t2)])?;
                self.emit("v_mov_b32", vec![dw(d, 0), r(lo)])
            }
            BrigOpcode::MIN | BrigOpcode::MAX => {
                let a = self.val64(s[0])?;
                let b = self.val64(s[1])?;
                let cmp = match (op, signed) {
                    (BrigOpcode::MIN, false) => "v_cmp_lt_u64_e64",
                    (BrigOpcode::MIN, true) => "v_cmp_lt_i64_e64",
                    (_, false) => "v_cmp_gt_u64_e64",
                    (_, true) => "v_cmp_gt_i64_e64",
                };
                // vcc = a is the result; d = vcc ? a : b.
                self.emit(cmp, vec![Opnd::vcc(), pair(a), pair(b)])?;
                let t = self.vtemp(2);
                for i in 0..2 {
                    self.emit(
                        "v_cndmask_b32_e64",
                        vec![dw(t, i), dw(b, i), dw(a, i), Opnd::vcc()],
                    )?;
                }
                for i in 0..2 {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(t, i)])?;
                }
                Ok(())
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// A 64-bit add or subtract through VCC.
    pub(super) fn add64(&mut self, lo: &str, hi: &str, d: VReg, a: Src, b: Src) -> Result<()> {
        let a0 = self.val(a, 0)?;
        let b0 = self.val(b, 0)?;
        let a1 = self.val(a, 1)?;
        let b1 = self.val(b, 1)?;
        let t = self.vtemp(1);
        self.emit(lo, vec![r(t), Opnd::vcc(), a0, b0])?;
        self.emit(hi, vec![dw(d, 1), Opnd::vcc(), a1, b1, Opnd::vcc()])?;
        self.emit("v_mov_b32", vec![dw(d, 0), r(t)])
    }
}
