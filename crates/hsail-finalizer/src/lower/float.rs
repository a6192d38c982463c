//! Float arithmetic (f16, f32, f64).

use amdgpu_codegen::VReg;
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::{Cx, Src, r};
use crate::Result;

impl Cx<'_> {
    /// A float ALU instruction (`add_f32`, `sqrt_f64`, …).
    pub(super) fn lower_float(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if type_ != BrigType::F32 {
            return Err(self.unsupported(what.to_string()));
        }
        let d: VReg = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let mn = match op {
            BrigOpcode::ADD => "v_add_f32_e64",
            BrigOpcode::SUB => "v_sub_f32_e64",
            BrigOpcode::MUL => "v_mul_f32_e64",
            BrigOpcode::MIN => "v_min_f32_e64",
            BrigOpcode::MAX => "v_max_f32_e64",
            BrigOpcode::FMA => "v_fma_f32",
            BrigOpcode::MOV => {
                let a = self.val_any(s[0], 0);
                return self.emit("v_mov_b32", vec![r(d), a]);
            }
            BrigOpcode::NEG | BrigOpcode::ABS => {
                let (mn, mask) = if op == BrigOpcode::NEG {
                    ("v_xor_b32_e64", 0x8000_0000)
                } else {
                    ("v_and_b32_e64", 0x7fff_ffff)
                };
                let a = self.val(s[0], 0)?;
                let k = self.val(Src::Const(mask), 0)?;
                return self.emit(mn, vec![r(d), a, k]);
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        let mut v = vec![r(d)];
        for &x in &s {
            v.push(self.val(x, 0)?);
        }
        self.emit(mn, v)
    }
}
