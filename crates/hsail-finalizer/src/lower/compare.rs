//! `cmp` (PRM §5.18): integer, bit and float comparisons into `b1`,
//! integer or float destinations.
//!
//! The comparison sets VCC with one `v_cmp_*_e64`; the destination then
//! gets the PRM's true/false values (Table 5-25 of §5.18.1): `b1` 1/0,
//! integers all ones/0, floats 1.0/0.0. Signaling forms compare like the
//! quiet ones (the finalizer reports no exceptions). `ftz` flushes
//! subnormal sources to zero first (`v_cmp_class` + select), independent
//! of the kernel's denormal mode.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigAluModifierMask, BrigCompareOperation as C, BrigType, OperandOffset};

use super::packed::{Control, Layout};
use super::{Cx, Kind, Src, dw, pair, ty};
use crate::Result;

/// HSAIL float comparisons (quiet and signaling form) → the GFX9 `v_cmp`
/// operation with the same true relations (Table 5-26).
const FLOAT_OPS: &[(C, C, &str)] = &[
    (C::EQ, C::SEQ, "eq"),
    (C::NE, C::SNE, "lg"),
    (C::LT, C::SLT, "lt"),
    (C::LE, C::SLE, "le"),
    (C::GT, C::SGT, "gt"),
    (C::GE, C::SGE, "ge"),
    (C::EQU, C::SEQU, "nlg"),
    (C::NEU, C::SNEU, "neq"),
    (C::LTU, C::SLTU, "nge"),
    (C::LEU, C::SLEU, "ngt"),
    (C::GTU, C::SGTU, "nle"),
    (C::GEU, C::SGEU, "nlt"),
    (C::NUM, C::SNUM, "o"),
    (C::NAN, C::SNAN, "u"),
];

/// HSAIL integer and bit comparisons → the GFX9 `v_cmp` operation.
const INT_OPS: &[(C, &str)] = &[
    (C::EQ, "eq"),
    (C::NE, "ne"),
    (C::LT, "lt"),
    (C::LE, "le"),
    (C::GT, "gt"),
    (C::GE, "ge"),
];

/// Destination type → (dwords, the true value's dwords); false is 0.
const DEST: &[(BrigType, u8, [u32; 2])] = &[
    (BrigType::B1, 1, [1, 0]),
    (BrigType::U32, 1, [u32::MAX, 0]),
    (BrigType::S32, 1, [u32::MAX, 0]),
    (BrigType::U64, 2, [u32::MAX, u32::MAX]),
    (BrigType::S64, 2, [u32::MAX, u32::MAX]),
    (BrigType::F16, 1, [0x3c00, 0]),
    (BrigType::F32, 1, [0x3f80_0000, 0]),
    (BrigType::F64, 2, [0, 0x3ff0_0000]),
];

/// The GFX9 `v_cmp` operation and type suffix for `cmp` on `(kind, bits)`
/// sources.
fn cmp_op(kind: Kind, bits: u32, cmp: C) -> Option<(&'static str, &'static str)> {
    let opname = if kind == Kind::F {
        FLOAT_OPS
            .iter()
            .find(|(q, s, _)| *q == cmp || *s == cmp)
            .map(|e| e.2)
    } else {
        INT_OPS.iter().find(|(o, _)| *o == cmp).map(|e| e.1)
    }?;
    let suffix = match (kind, bits) {
        (Kind::F, 16) => "f16",
        (Kind::F, 32) => "f32",
        (Kind::F, 64) => "f64",
        (Kind::S, 8 | 16 | 32) => "i32",
        (Kind::S, 64) => "i64",
        (Kind::U | Kind::B, 1 | 8 | 16 | 32) => "u32",
        (Kind::U | Kind::B, 64) => "u64",
        _ => return None,
    };
    Some((opname, suffix))
}

/// `v_cmp_class` mask of the subnormals (bit 4 negative, bit 7 positive).
const SUBNORMALS: u32 = 0x90;

impl Cx<'_> {
    pub(super) fn lower_cmp(
        &mut self,
        c: &brig::BrigInstCmp,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if c.source_type.is_packed() {
            return self.lower_cmp_packed(c, ops, what);
        }
        let Some(&(_, dwords, truth)) = DEST.iter().find(|(t, _, _)| *t == c.base.type_) else {
            return Err(self.unsupported(format!("{what} (cmp to this destination type)")));
        };
        let (Some((kind, bits)), 3) = (ty(c.source_type), ops.len()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let ftz = c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0;
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        if kind == Kind::F {
            let signaling = c.compare.raw() >= C::SEQ.raw();
            self.detect_nan_sources(super::convert::float_fmt(bits), &s, signaling)?;
        }
        self.cmp_to_vcc(kind, bits, c.compare, ftz, &s, what)?;
        self.vcc_to_value(d, dwords, truth)
    }

    /// VCC = `s[0] op s[1]` compared as `kind`/`bits` (also one element
    /// of a packed `cmp` with 64-bit elements, `packed64.rs`).
    pub(super) fn cmp_to_vcc(
        &mut self,
        kind: Kind,
        bits: u32,
        op: C,
        ftz: bool,
        s: &[Src],
        what: &str,
    ) -> Result<()> {
        let Some((opname, suffix)) = cmp_op(kind, bits, op) else {
            return Err(self.unsupported(what.to_string()));
        };
        let mut v = Vec::with_capacity(2);
        for &x in s {
            let o = if bits == 64 {
                pair(self.val64(x)?)
            } else {
                self.val(x, 0)?
            };
            v.push(if ftz && kind == Kind::F {
                self.flush_subnormal(o, suffix, bits)?
            } else {
                o
            });
        }
        self.emit(
            &format!("v_cmp_{opname}_{suffix}_e64"),
            vec![Opnd::vcc(), v[0], v[1]],
        )
    }

    /// Packed `cmp` (§5.18, Table 5-25): each destination element all
    /// ones or 0.
    fn lower_cmp_packed(
        &mut self,
        c: &brig::BrigInstCmp,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some(lay), Some(out), Some((kind, bits)), 3) = (
            Layout::of(c.source_type),
            Layout::of(c.base.type_),
            ty(c.source_type.element_type()),
            ops.len(),
        ) else {
            return Err(self.unsupported(what.to_string()));
        };
        let Some((opname, suffix)) = cmp_op(kind, bits, c.compare).filter(|_| out.w == lay.w)
        else {
            return Err(self.unsupported(what.to_string()));
        };
        let ftz = kind == Kind::F && c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0;
        let mn = format!("v_cmp_{opname}_{suffix}_e64");
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        self.elementwise(d, lay, Control::of(c.pack), &s, &mut |cx, x| {
            let mut v = [x[0], x[1]];
            if ftz {
                for o in &mut v {
                    *o = cx.flush_subnormal(*o, suffix, bits)?;
                }
            }
            cx.emit(&mn, vec![Opnd::vcc(), v[0], v[1]])?;
            cx.tmp(
                "v_cndmask_b32_e64",
                vec![Opnd::constant(0), Opnd::constant(u32::MAX), Opnd::vcc()],
            )
        })
    }

    /// `x` with a subnormal value replaced by +0 (`bits` 16, 32 or 64).
    fn flush_subnormal(&mut self, x: Opnd, suffix: &str, bits: u32) -> Result<Opnd> {
        let mask = self.val(Src::Const(u64::from(SUBNORMALS)), 0)?;
        self.emit(
            &format!("v_cmp_class_{suffix}_e64"),
            vec![Opnd::vcc(), x, mask],
        )?;
        if bits != 64 {
            return self.tmp("v_cndmask_b32_e64", vec![x, Opnd::constant(0), Opnd::vcc()]);
        }
        let Opnd::Reg { reg, .. } = x else {
            return Ok(x);
        };
        let t = self.vtemp(2);
        for i in 0..2 {
            self.emit(
                "v_cndmask_b32_e64",
                vec![dw(t, i), dw(reg, i), Opnd::constant(0), Opnd::vcc()],
            )?;
        }
        Ok(pair(t))
    }

    /// `d = vcc ? truth : 0` on `dwords` dwords.
    fn vcc_to_value(&mut self, d: VReg, dwords: u8, truth: [u32; 2]) -> Result<()> {
        for i in 0..dwords {
            let t = self.val(Src::Const(u64::from(truth[usize::from(i)])), 0)?;
            self.emit(
                "v_cndmask_b32_e64",
                vec![dw(d, i), Opnd::constant(0), t, Opnd::vcc()],
            )?;
        }
        Ok(())
    }
}
