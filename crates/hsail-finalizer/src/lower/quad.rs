//! 128-bit `$q` registers (PRM 4.4: four dwords in one VGPR tuple):
//! `mov_b128`, 128-bit constants, and the part sizes of `combine`/`expand`
//! (§5.8, lowered in `int.rs`). `ld`/`st` of `b128` are in `ldst.rs`.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigRegisterKind, OperandOffset};

use super::{Cx, dw};
use crate::Result;

impl Cx<'_> {
    /// A constant operand wider than 8 bytes (a `b128` or 128-bit packed
    /// constant) moved into a new `$q`-sized VGPR tuple; `None` for other
    /// operands.
    pub(super) fn wide_const(&mut self, o: OperandOffset) -> Result<Option<VReg>> {
        let Ok(brig::Operand::ConstantBytes(c)) = self.m.operand(o) else {
            return Ok(None);
        };
        let Ok(bytes) = self.m.data_bytes(c.bytes) else {
            return Ok(None);
        };
        if bytes.len() <= 8 {
            return Ok(None);
        }
        let mut b = [0u8; 16];
        let n = bytes.len().min(16);
        b[..n].copy_from_slice(&bytes[..n]);
        let v = self.vtemp(4);
        for (i, chunk) in (0u8..).zip(b.chunks(4)) {
            let mut w = [0u8; 4];
            w.copy_from_slice(chunk);
            self.emit(
                "v_mov_b32",
                vec![dw(v, i), Opnd::constant(u32::from_le_bytes(w))],
            )?;
        }
        Ok(Some(v))
    }

    /// `mov_b128`: four dword moves.
    pub(super) fn lower_mov_b128(&mut self, ops: &[OperandOffset], what: &str) -> Result<()> {
        let (Some(&d), Some(&s)) = (ops.first(), ops.get(1)) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(d)?;
        let s = self.src(s)?;
        for i in 0..4 {
            let x = self.val_any(s, i);
            self.emit("v_mov_b32", vec![dw(d, i), x])?;
        }
        Ok(())
    }

    /// Dwords per part when the register (or constant) `whole` is split
    /// into `n` parts by `combine`/`expand`: 2 or 4 parts of a `$d` or
    /// `$q` value.
    pub(super) fn part_dwords(&self, whole: OperandOffset, n: usize, what: &str) -> Result<u8> {
        let total = match self.m.operand(whole) {
            Ok(brig::Operand::Register(reg)) if reg.reg_kind == BrigRegisterKind::QUAD => 4,
            Ok(brig::Operand::Register(reg)) if reg.reg_kind == BrigRegisterKind::DOUBLE => 2,
            Ok(brig::Operand::ConstantBytes(c)) => {
                self.m.data_bytes(c.bytes).map_or(0, |b| b.len() / 4)
            }
            _ => 0,
        };
        match (total, n) {
            (2, 2) => Ok(1),
            (4, 2) => Ok(2),
            (4, 4) => Ok(1),
            _ => Err(self.unsupported(format!("{what} with {n} parts"))),
        }
    }
}
