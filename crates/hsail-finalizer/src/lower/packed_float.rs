//! Packed float arithmetic (PRM §5.11 Table 5-16: `add`, `sub`, `mul`,
//! `div`, `min`, `max`, `ceil`, `floor`, `fract`, `rint`, `sqrt`,
//! `trunc`; §5.12: `abs`, `neg`, `copysign`) on `f16x2`, `f16x4`,
//! `f32x2`, and in `$q` registers `f16x8` and `f32x4`, under the packing
//! controls of §4.14 (`f64x2` is not supported yet).
//!
//! Each element is moved into a dword of its own and computed by the
//! scalar float lowering (`float.rs`) with the instruction's rounding and
//! `ftz`, so a packed element gets exactly the scalar instruction's
//! result; elements are extracted and packed back by the packed-integer
//! helpers (`packed.rs`).
//! (The `v_pk_*` instructions would be faster, but their min/max do not
//! flush and division/square root have no packed form: one path keeps
//! every operation exact.) `s`/`ss` compute element 0 only and keep the
//! other bits of the destination.

use brig::{BrigAluModifierMask, BrigOpcode, BrigPack, BrigType, Code, OperandOffset};

use super::float::fmt_of;
use super::mode::{FloatMods, Fmt};
use super::packed::{Control, Layout};
use super::{Cx, Src, r, ty};
use crate::Result;

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
}
