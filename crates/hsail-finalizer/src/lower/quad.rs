//! 128-bit `$q` registers (PRM 4.4: four dwords in one VGPR tuple):
//! `mov_b128`, 128-bit constants, the part sizes of `combine`/`expand`
//! (§5.8, lowered in `int.rs`), and `pack`/`unpack` of 128-bit packed
//! types (§5.9). `ld`/`st` of `b128` are in `ldst.rs`.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigRegisterKind, BrigType, OperandOffset};

use super::{Cx, Kind, Src, dw, ty};
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

    /// `pack`/`unpack` (§5.9) on a 128-bit packed type `t`: the element
    /// index (modulo the element count) picks, at run time, the dword
    /// (pair for 64-bit elements) holding the element.
    pub(super) fn pack_unpack128(
        &mut self,
        pack: bool,
        t: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let n = t.packed_count();
        let arity = if pack { 4 } else { 3 };
        let (Some((kind, w)), 128, true) = (ty(t.element_type()), ty_bits(t), ops.len() == arity)
        else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let i = self.val(s[arity - 2], 0)?;
        let i = self.tmp("v_and_b32_e64", vec![i, Opnd::constant(n - 1)])?;
        let bit = self.tmp(
            "v_lshlrev_b32_e64",
            vec![Opnd::constant(w.trailing_zeros()), i],
        )?;
        let k = self.tmp("v_lshrrev_b32_e64", vec![Opnd::constant(5), bit])?;
        let off = self.tmp("v_and_b32_e64", vec![bit, Opnd::constant(31)])?;
        let per = if w == 64 { 2 } else { 1 };
        if pack {
            let mut out = Vec::with_capacity(4);
            for j in 0..4u8 {
                let base = self.val(s[0], j)?;
                let new = match w {
                    64 => self.val(s[1], j % 2)?,
                    32 => self.val(s[1], 0)?,
                    _ => {
                        let ones = self.val(Src::Const((1 << w) - 1), 0)?;
                        let v = self.val(s[1], 0)?;
                        let m = self.tmp("v_lshlrev_b32_e64", vec![off, ones])?;
                        let v = self.tmp("v_lshlrev_b32_e64", vec![off, v])?;
                        self.tmp("v_bfi_b32", vec![m, v, base])?
                    }
                };
                let first = Opnd::constant(u32::from(j - j % per));
                self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), k, first])?;
                out.push(self.tmp("v_cndmask_b32_e64", vec![base, new, Opnd::vcc()])?);
            }
            for (j, v) in (0u8..).zip(out) {
                self.emit("v_mov_b32", vec![dw(d, j), v])?;
            }
            return Ok(());
        }
        // unpack: the dword(s) at k, then the field.
        let mut picked = Vec::with_capacity(2);
        for h in 0..per {
            let mut acc = self.val(s[0], h)?;
            for j in (per..4).step_by(usize::from(per)) {
                let x = self.val(s[0], j + h)?;
                let at = Opnd::constant(u32::from(j));
                self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), k, at])?;
                acc = self.tmp("v_cndmask_b32_e64", vec![acc, x, Opnd::vcc()])?;
            }
            picked.push(acc);
        }
        let signed = kind == Kind::S;
        let lo = match w {
            32 | 64 => picked[0],
            _ => {
                let mn = if signed { "v_bfe_i32" } else { "v_bfe_u32" };
                self.tmp(mn, vec![picked[0], off, Opnd::constant(w)])?
            }
        };
        self.emit("v_mov_b32", vec![dw(d, 0), lo])?;
        if let Some(&hi) = picked.get(1) {
            self.emit("v_mov_b32", vec![dw(d, 1), hi])?;
        }
        Ok(())
    }
}

/// Total bits of a packed type.
fn ty_bits(t: BrigType) -> u32 {
    ty(t.element_type()).map_or(0, |(_, w)| w * t.packed_count())
}
