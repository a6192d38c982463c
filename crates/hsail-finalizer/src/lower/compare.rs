//! `cmp`: integer and float comparisons to a `b1` register.

use amdgpu_codegen::Opnd;
use brig::{BrigAluModifierMask, BrigCompareOperation, BrigType, OperandOffset};

use super::{Cx, Kind, pair, r, ty};
use crate::Result;

impl Cx<'_> {
    pub(super) fn lower_cmp(
        &mut self,
        c: &brig::BrigInstCmp,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if c.base.type_ != BrigType::B1 {
            return Err(self.unsupported(format!("{what} (cmp to a non-b1 destination)")));
        }
        if c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0 {
            return Err(self.unsupported(format!("{what} with ftz")));
        }
        let Some((kind, bits)) = ty(c.source_type) else {
            return Err(self.unsupported(what.to_string()));
        };
        use BrigCompareOperation as C;
        let cmp = c.compare;
        let (opname, suffix) = match (kind, bits) {
            (Kind::F, 32) => {
                let n = match cmp {
                    C::EQ | C::SEQ => "eq",
                    C::NE | C::SNE => "lg",
                    C::LT | C::SLT => "lt",
                    C::LE | C::SLE => "le",
                    C::GT | C::SGT => "gt",
                    C::GE | C::SGE => "ge",
                    C::EQU | C::SEQU => "nlg",
                    C::NEU | C::SNEU => "neq",
                    C::LTU | C::SLTU => "nge",
                    C::LEU | C::SLEU => "ngt",
                    C::GTU | C::SGTU => "nle",
                    C::GEU | C::SGEU => "nlt",
                    C::NUM | C::SNUM => "o",
                    C::NAN | C::SNAN => "u",
                    _ => return Err(self.unsupported(what.to_string())),
                };
                (n, "f32")
            }
            (Kind::U | Kind::S | Kind::B, 32 | 64) => {
                let n = match cmp {
                    C::EQ => "eq",
                    C::NE => "ne",
                    C::LT => "lt",
                    C::LE => "le",
                    C::GT => "gt",
                    C::GE => "ge",
                    _ => return Err(self.unsupported(what.to_string())),
                };
                let sfx = match (kind == Kind::S, bits) {
                    (false, 32) => "u32",
                    (true, 32) => "i32",
                    (false, _) => "u64",
                    (true, _) => "i64",
                };
                (n, sfx)
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let (a, b) = if bits == 64 {
            let a = self.val64(s[0])?;
            let b = self.val64(s[1])?;
            (pair(a), pair(b))
        } else {
            (self.val(s[0], 0)?, self.val(s[1], 0)?)
        };
        self.emit(
            &format!("v_cmp_{opname}_{suffix}_e64"),
            vec![Opnd::vcc(), a, b],
        )?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )
    }
}
