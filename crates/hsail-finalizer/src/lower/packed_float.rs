//! Packed float arithmetic (PRM §5.11 Table 5-16: `add`, `sub`, `mul`,
//! `div`, `min`, `max`, `ceil`, `floor`, `fract`, `rint`, `sqrt`,
//! `trunc`; §5.12: `abs`, `neg`, `copysign`) on `f16x2`, `f16x4`,
//! `f32x2`, and in `$q` registers `f16x8` and `f32x4`, under the packing
//! controls of §4.14 (`f64x2` is in `packed64.rs`).
//!
//! Each element is moved into a dword of its own and computed by the
//! scalar float lowering (`float.rs`) with the instruction's rounding and
//! `ftz`, so a packed element gets exactly the scalar instruction's
//! result; elements are extracted and packed back by the packed-integer
//! helpers (`packed.rs`). `add`/`sub`/`mul` with `pp`/`ps`/`sp` use the VOP3P `v_pk_*` forms
//! instead (same per-half result in the same MODE). `s`/`ss` compute
//! element 0 only and keep the other bits of the destination.

use brig::{BrigAluModifierMask, BrigOpcode, BrigPack, BrigType, Code, OperandOffset};

use super::float::fmt_of;
use super::mode::{FloatMods, Fmt};
use super::packed::{Control, Layout};
use super::{Cx, Src, dw, r, ty};
use crate::Result;
use amdgpu_codegen::{Opnd, Target, VReg};

/// The packed float operations and their source counts.
const OPS: &[(BrigOpcode, usize)] = &[
    (BrigOpcode::ADD, 2),
    (BrigOpcode::SUB, 2),
    (BrigOpcode::MUL, 2),
    (BrigOpcode::DIV, 2),
    (BrigOpcode::MIN, 2),
    (BrigOpcode::MAX, 2),
    (BrigOpcode::COPYSIGN, 2),
    (BrigOpcode::CEIL, 1),
    (BrigOpcode::FLOOR, 1),
    (BrigOpcode::FRACT, 1),
    (BrigOpcode::RINT, 1),
    (BrigOpcode::SQRT, 1),
    (BrigOpcode::TRUNC, 1),
    (BrigOpcode::ABS, 1),
    (BrigOpcode::NEG, 1),
];

/// Element width in bits of a float format.
fn bits(f: Fmt) -> u32 {
    match f {
        Fmt::F16 => 16,
        Fmt::F32 => 32,
        Fmt::F64 => 64,
    }
}

impl Cx<'_> {
    /// An instruction `op` on the packed float type `t`, or on any packed
    /// type with 64-bit elements (`packed64.rs`). Moves (`cmov`,
    /// `shuffle`, the unpacks) are bit operations and stay with the
    /// packed integer lowering.
    pub(super) fn lower_packed_float(
        &mut self,
        op: BrigOpcode,
        t: BrigType,
        code: &Code<'_>,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (pack, mods) = match code {
            Code::InstMod(md) => {
                let ftz = md.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0;
                (md.pack, FloatMods::from_brig(md.round, ftz))
            }
            _ => (BrigPack::NONE, Some(FloatMods::NONE)),
        };
        let ctl = Control::of(pack);
        if ty(t.element_type()).is_some_and(|(_, w)| w == 64) {
            return match mods {
                Some(mods) => self.lower_packed64(op, t, ctl, mods, ops, what),
                None => Err(self.unsupported(what.to_string())),
            };
        }
        if matches!(
            op,
            BrigOpcode::CMOV | BrigOpcode::SHUFFLE | BrigOpcode::UNPACKLO | BrigOpcode::UNPACKHI
        ) {
            return self.lower_packed(code, ops, what);
        }
        let f = fmt_of(t.element_type());
        let arity = OPS.iter().find(|(o, _)| *o == op).map(|&(_, n)| n);
        let (Some(f), Some(mods), Some(arity)) = (f, mods, arity) else {
            return Err(self.unsupported(what.to_string()));
        };
        let n = t.packed_count();
        if ctl.sat || f == Fmt::F64 || bits(f) * n > 128 || ops.len() != arity + 1 {
            return Err(self.unsupported(what.to_string()));
        }
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        // With DETECT, element by element: each element's flags count.
        if self.detect.is_none() && self.packed_vop3p(op, f, n, ctl, mods, d, &s)? {
            return Ok(());
        }
        let lay = Layout {
            w: bits(f),
            n,
            signed: false,
        };
        // Elements arrive zero-extended in dwords (f16 in the low half).
        self.elementwise(d, lay, ctl, &s, &mut |cx, x| {
            let mut srcs = Vec::with_capacity(x.len());
            for &e in x {
                let v = cx.vtemp(1);
                cx.emit("v_mov_b32", vec![r(v), e])?;
                srcs.push(Src::Reg(v));
            }
            let e = cx.vtemp(1);
            cx.float_op(op, f, e, &srcs, what, mods)?;
            Ok(r(e))
        })
    }

    /// `add`/`sub`/`mul` with a `pp`, `ps` or `sp` control as VOP3P
    /// instructions (`v_pk_*_f16`; `v_pk_*_f32` on gfx90a), which compute
    /// each half exactly as the scalar instruction in the same MODE; a
    /// scalar source is broadcast with `op_sel_hi`, `sub` negates both
    /// halves of the second source. Returns false when not applicable.
    #[allow(clippy::too_many_arguments)]
    fn packed_vop3p(
        &mut self,
        op: BrigOpcode,
        f: Fmt,
        n: u32,
        ctl: Control,
        mods: FloatMods,
        d: VReg,
        s: &[Src],
    ) -> Result<bool> {
        let Some(&(_, m16, m32)) = VOP3P.iter().find(|(o, ..)| *o == op) else {
            return Ok(false);
        };
        let sub = op == BrigOpcode::SUB;
        let (mn, per) = match f {
            Fmt::F16 => (m16, 1u8),
            Fmt::F32 if self.t == Target::Gfx90a && !sub => (m32, 2),
            _ => return Ok(false),
        };
        if ctl.low_only || s.len() != 2 {
            return Ok(false);
        }
        let total = (bits(f) * n / 32) as u8;
        // Sources in VGPRs: inline constants mean other things in VOP3P.
        let mut regs = Vec::with_capacity(2);
        for &x in s {
            regs.push(match x {
                Src::Reg(v) => v,
                Src::Const(_) => {
                    let v = self.vtemp(total);
                    for i in 0..total {
                        let c = self.val_any(x, i);
                        self.emit("v_mov_b32", vec![dw(v, i), c])?;
                    }
                    v
                }
            });
        }
        let out = self.vtemp(total);
        let wide = |v: VReg, offset: u8| Opnd::Reg {
            reg: v,
            offset,
            width: per,
        };
        let m = self.mode_for(f, mods);
        self.in_mode(m, |cx| {
            for j in (0..total).step_by(usize::from(per)) {
                let mut v = vec![wide(out, j)];
                let mut op_sel_hi = 0b111u8;
                for (k, &reg) in regs.iter().enumerate() {
                    let scalar = ctl.scalar.get(k).copied().unwrap_or(false);
                    v.push(wide(reg, if scalar { 0 } else { j }));
                    if scalar {
                        op_sel_hi &= !(1 << k);
                    }
                }
                let mut inst = cx.minst(mn, v)?;
                inst.mods.op_sel_hi = op_sel_hi;
                if sub {
                    // neg_lo and neg_hi of src1.
                    inst.mods.neg = 2;
                    inst.mods.abs = 2;
                }
                cx.emit_inst(inst);
            }
            Ok(())
        })?;
        for i in 0..total {
            self.emit("v_mov_b32", vec![dw(d, i), dw(out, i)])?;
        }
        Ok(true)
    }
}

/// Packed float operations with a VOP3P form: f16 and f32 mnemonics.
const VOP3P: &[(BrigOpcode, &str, &str)] = &[
    (BrigOpcode::ADD, "v_pk_add_f16", "v_pk_add_f32"),
    (BrigOpcode::SUB, "v_pk_add_f16", "v_pk_add_f32"),
    (BrigOpcode::MUL, "v_pk_mul_f16", "v_pk_mul_f32"),
];
