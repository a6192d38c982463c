//! Packed types with 64-bit elements in `$q` registers: `u64x2`, `s64x2`
//! (§5.2 arithmetic, saturating add/sub/mul, §5.5 shifts, §5.10 `cmov`) and
//! `f64x2` (the packed float operations of `packed_float.rs`), and packed
//! `cmp` on them (§5.18).
//!
//! Each element is a dword pair computed by the scalar 64-bit lowering
//! (`int.rs` [`Cx::alu64`], `float.rs` [`Cx::float_op`]); `s`/`ss`
//! compute element 0 and keep the rest of the destination.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::int::halves_of;
use super::mode::{FloatMods, Fmt};
use super::packed::Control;
use super::{Cx, Kind, Src, dw, pair, ty};
use crate::Result;

/// Integer operations lowered element by element through [`Cx::alu64`].
const INT_OPS: &[BrigOpcode] = &[
    BrigOpcode::ADD,
    BrigOpcode::SUB,
    BrigOpcode::MUL,
    BrigOpcode::MULHI,
    BrigOpcode::MIN,
    BrigOpcode::MAX,
    BrigOpcode::ABS,
    BrigOpcode::NEG,
];

impl Cx<'_> {
    /// An instruction `op` on `u64x2`, `s64x2` or `f64x2` with packing
    /// control `ctl` and float modifiers `mods`.
    pub(super) fn lower_packed64(
        &mut self,
        op: BrigOpcode,
        t: BrigType,
        ctl: Control,
        mods: FloatMods,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let sat_ok = !ctl.sat || matches!(op, BrigOpcode::ADD | BrigOpcode::SUB | BrigOpcode::MUL);
        let (Some((kind, 64)), true) = (ty(t.element_type()), sat_ok && !ops.is_empty()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let signed = kind == Kind::S;
        let count = if ctl.low_only { 1 } else { 2 };
        let mut results = Vec::with_capacity(2);
        for i in 0..count {
            let e = self.vtemp(2);
            match (op, s.len()) {
                (BrigOpcode::SHL | BrigOpcode::SHR, 2) if kind != Kind::F => {
                    let x = self.element64(s[0], i)?;
                    let x = self.val64(x)?;
                    let amount = self.val(s[1], 0)?;
                    let mn = match (op, signed) {
                        (BrigOpcode::SHL, _) => "v_lshlrev_b64",
                        (_, false) => "v_lshrrev_b64",
                        (_, true) => "v_ashrrev_i64",
                    };
                    self.emit(mn, vec![pair(e), amount, pair(x)])?;
                }
                (BrigOpcode::CMOV, 3) => {
                    let mut x = Vec::with_capacity(3);
                    for &src in &s {
                        let v = self.element64(src, i)?;
                        x.push(self.val64(v)?);
                    }
                    self.emit(
                        "v_cmp_ne_u64_e64",
                        vec![Opnd::vcc(), pair(x[0]), Opnd::constant(0)],
                    )?;
                    let out = self.select(Fmt::F64, pair(x[2]), pair(x[1]))?;
                    self.mov_to(e, out, Fmt::F64)?;
                }
                _ => {
                    let mut x = Vec::with_capacity(s.len());
                    for (k, &src) in s.iter().enumerate() {
                        let scalar = ctl.scalar.get(k).copied().unwrap_or(false);
                        x.push(self.element64(src, if scalar { 0 } else { i })?);
                    }
                    if kind == Kind::F {
                        self.float_op(op, Fmt::F64, e, &x, what, mods)?;
                    } else if let (true, &[a, b]) = (ctl.sat, &x[..]) {
                        self.saturate64(op, signed, e, a, b)?;
                    } else if INT_OPS.contains(&op) {
                        self.alu64(op, signed, e, &x, what)?;
                    } else {
                        return Err(self.unsupported(what.to_string()));
                    }
                }
            }
            results.push(e);
        }
        self.write_elements64(d, &results)
    }

    /// Element `i` (dwords `2i`, `2i + 1`) of a 128-bit source.
    fn element64(&mut self, s: Src, i: u8) -> Result<Src> {
        match s {
            Src::Reg(v) if i == 0 => Ok(Src::Reg(v)),
            Src::Reg(v) => {
                let e: VReg = self.vtemp(2);
                for k in 0..2 {
                    self.emit("v_mov_b32", vec![dw(e, k), dw(v, 2 * i + k)])?;
                }
                Ok(Src::Reg(e))
            }
            // Constants of 128-bit types are materialized in registers
            // (`quad.rs`); a narrower one is its own element 0.
            Src::Const(c) if i == 0 => Ok(Src::Const(c)),
            Src::Const(_) => Ok(Src::Const(0)),
        }
    }

    /// Packed `cmp` on `u64x2`, `s64x2` or `f64x2` (§5.18): each
    /// destination element all ones or 0.
    pub(super) fn lower_cmp_packed64(
        &mut self,
        c: &brig::BrigInstCmp,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some((kind, 64)), 3) = (ty(c.source_type.element_type()), ops.len()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let ctl = Control::of(c.pack);
        let ftz = c.modifier.raw() & brig::BrigAluModifierMask::FTZ.raw() != 0;
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let count = if ctl.low_only { 1 } else { 2 };
        let mut results = Vec::with_capacity(2);
        for i in 0..count {
            let mut x = Vec::with_capacity(2);
            for (k, &src) in s.iter().enumerate() {
                let scalar = ctl.scalar.get(k).copied().unwrap_or(false);
                x.push(self.element64(src, if scalar { 0 } else { i })?);
            }
            self.cmp_to_vcc(kind, 64, c.compare, ftz, &x, what)?;
            let ones = self.val(Src::Const(u64::from(u32::MAX)), 0)?;
            let e = self.vtemp(2);
            for k in 0..2 {
                self.emit(
                    "v_cndmask_b32_e64",
                    vec![dw(e, k), Opnd::constant(0), ones, Opnd::vcc()],
                )?;
            }
            results.push(e);
        }
        self.write_elements64(d, &results)
    }

    /// Moves element results (dword pairs) into `d`, element 0 first.
    fn write_elements64(&mut self, d: VReg, results: &[VReg]) -> Result<()> {
        for (i, &e) in (0u8..).zip(results) {
            for k in 0..2 {
                self.emit("v_mov_b32", vec![dw(d, 2 * i + k), dw(e, k)])?;
            }
        }
        Ok(())
    }

    /// Saturating `add`, `sub` or `mul` of 64-bit elements into `e`: the
    /// wrapped result, or the limit of the element type when it overflows
    /// (PRM 4.14.1).
    fn saturate64(&mut self, op: BrigOpcode, signed: bool, e: VReg, a: Src, b: Src) -> Result<()> {
        let (a, b) = (self.halves(a)?, self.halves(b)?);
        let vcc = Opnd::vcc();
        let ones = Opnd::constant(u32::MAX);
        if !signed {
            // Carry, borrow or a nonzero high product: all ones (0 for sub).
            let (r, limit) = match op {
                BrigOpcode::MUL => {
                    let lo = self.mul64(a, b)?;
                    let hi = self.mulhi64(false, a, b)?;
                    self.emit("v_cmp_ne_u64_e64", vec![vcc, pair(hi), Opnd::constant(0)])?;
                    (lo, ones)
                }
                _ => {
                    let sub = op == BrigOpcode::SUB;
                    let r = self.addsub64(sub, a, b)?;
                    (r, if sub { Opnd::constant(0) } else { ones })
                }
            };
            return self.select64(e, [limit, limit], halves_of(r));
        }
        // Overflow from the signs; the limit has the sign of the exact
        // result (that of a, or of a ^ b for mul).
        let (r, sign_of) = match op {
            BrigOpcode::MUL => {
                let lo = self.mul64(a, b)?;
                let hi = self.mulhi64(true, a, b)?;
                let ext = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), dw(lo, 1)])?;
                let x0 = self.tmp("v_xor_b32_e64", vec![dw(hi, 0), ext])?;
                let x1 = self.tmp("v_xor_b32_e64", vec![dw(hi, 1), ext])?;
                let any = self.tmp("v_or_b32_e64", vec![x0, x1])?;
                self.emit("v_cmp_ne_u32_e64", vec![vcc, any, Opnd::constant(0)])?;
                (lo, self.tmp("v_xor_b32_e64", vec![a[1], b[1]])?)
            }
            _ => {
                let add = op == BrigOpcode::ADD;
                let r = self.addsub64(!add, a, b)?;
                let x = self.tmp("v_xor_b32_e64", vec![a[1], dw(r, 1)])?;
                let y = if add {
                    self.tmp("v_xor_b32_e64", vec![b[1], dw(r, 1)])?
                } else {
                    self.tmp("v_xor_b32_e64", vec![a[1], b[1]])?
                };
                let ov = self.tmp("v_and_b32_e64", vec![x, y])?;
                self.emit("v_cmp_gt_i32_e64", vec![vcc, Opnd::constant(0), ov])?;
                (r, a[1])
            }
        };
        let sign = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), sign_of])?;
        let max = self.val(Src::Const(0x7fff_ffff), 0)?;
        let lo = self.tmp("v_not_b32", vec![sign])?;
        let hi = self.tmp("v_xor_b32_e64", vec![sign, max])?;
        self.select64(e, [lo, hi], halves_of(r))
    }
}
