//! EXEC-mask lowering of divergent control flow ("mask linearization").
//!
//! Every lane-level block `i` gets a 64-bit lane mask `M_i` (an SGPR pair)
//! of the lanes waiting to run it. The blocks are laid out in the given
//! order (block 0 first) and the wave walks them in that order:
//!
//! ```text
//! prologue:  M_0 = exec; M_j = 0 (j > 0)
//! H_i:       exec = M_i; M_i = 0; if exec == 0 goto H_{i+1}
//! B_i:       body
//!            br T:           M_T |= exec
//!            cbr c, T, F:    t = exec & (c != 0); M_T |= t; M_F |= exec & ~t
//!            for each successor S <= i, lowest first:
//!                            if M_S != 0 goto H_S
//! END:       s_endpgm
//! ```
//!
//! Invariant: when the wave enters `H_i`, every `M_j` with `j < i` is 0
//! (block `i` only adds lanes to its successors, and a successor at or
//! before `i` is run again at once). So the wave always runs the first
//! block that has waiting lanes, every lane follows exactly its own path
//! through the lane-level CFG, and the wave ends when all masks are 0.
//! This is correct for any CFG (reducible or not) and any layout; a
//! layout in reverse post-order keeps loops together. Values are written
//! under EXEC only, so per-lane liveness on the resulting machine CFG
//! (which contains every lane path) is what the register allocator needs.

use amdgpu_isa::gfx9::Target;

use crate::Result;
use crate::ir::{Function, MInst, Opnd, RegClass, Terminator, VReg};

/// A wave-level machine block: straight-line code, possibly ending in
/// branches (`Opnd::Label` operands name machine block indices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MBlock {
    /// Instructions.
    pub insts: Vec<MInst>,
}

impl MBlock {
    /// Machine block indices control may go to next (`len` blocks in all).
    pub fn successors(&self, index: usize, len: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for i in &self.insts {
            if i.is_branch() {
                for o in &i.ops {
                    if let Opnd::Label(t) = o {
                        out.push(*t);
                    }
                }
            }
        }
        let ends = self
            .insts
            .last()
            .is_some_and(|i| i.def.mnemonic == "s_branch" || i.def.mnemonic == "s_endpgm");
        if !ends && index + 1 < len {
            out.push(index + 1);
        }
        out
    }
}

/// Lowers `f`'s lane-level CFG to wave-level machine blocks (see the
/// module docs). Adds the mask registers to `f.vregs`.
pub fn lower(f: &mut Function, target: Target) -> Result<Vec<MBlock>> {
    let n = f.blocks.len();
    let masks: Vec<VReg> = (0..n).map(|_| f.new_vreg(RegClass::Sgpr, 2)).collect();
    let r = |v: VReg| Opnd::Reg {
        reg: v,
        offset: 0,
        width: 2,
    };
    let header = |i: usize| 1 + 2 * i;
    let end = 1 + 2 * n;
    let mut out = Vec::with_capacity(2 * n + 2);

    let mut pro = std::mem::take(&mut f.prologue);
    for (j, &m) in masks.iter().enumerate() {
        let src = if j == 0 {
            Opnd::exec()
        } else {
            Opnd::constant(0)
        };
        pro.push(MInst::new("s_mov_b64", target, vec![r(m), src])?);
    }
    out.push(MBlock { insts: pro });

    let blocks = std::mem::take(&mut f.blocks);
    for (i, b) in blocks.iter().enumerate() {
        let m = masks[i];
        out.push(MBlock {
            insts: vec![
                MInst::new("s_mov_b64", target, vec![Opnd::exec(), r(m)])?,
                MInst::new("s_mov_b64", target, vec![r(m), Opnd::constant(0)])?,
                MInst::new("s_cbranch_execz", target, vec![Opnd::Label(header(i + 1))])?,
            ],
        });
        let mut body = b.insts.clone();
        let mut succs = Vec::new();
        match b.term {
            Terminator::Ret => {}
            Terminator::Br(t) => {
                body.push(MInst::new(
                    "s_or_b64",
                    target,
                    vec![r(masks[t]), r(masks[t]), Opnd::exec()],
                )?);
                succs.push(t);
            }
            Terminator::CondBr {
                cond,
                then,
                otherwise,
            } => {
                let t = f.new_vreg(RegClass::Sgpr, 2);
                let e = f.new_vreg(RegClass::Sgpr, 2);
                let c = Opnd::Reg {
                    reg: cond,
                    offset: 0,
                    width: 1,
                };
                body.push(MInst::new(
                    "v_cmp_ne_u32_e64",
                    target,
                    vec![r(t), Opnd::constant(0), c],
                )?);
                body.push(MInst::new(
                    "s_and_b64",
                    target,
                    vec![r(t), r(t), Opnd::exec()],
                )?);
                body.push(MInst::new(
                    "s_andn2_b64",
                    target,
                    vec![r(e), Opnd::exec(), r(t)],
                )?);
                body.push(MInst::new(
                    "s_or_b64",
                    target,
                    vec![r(masks[then]), r(masks[then]), r(t)],
                )?);
                body.push(MInst::new(
                    "s_or_b64",
                    target,
                    vec![r(masks[otherwise]), r(masks[otherwise]), r(e)],
                )?);
                succs.push(then);
                succs.push(otherwise);
            }
        }
        succs.sort_unstable();
        succs.dedup();
        for &s in succs.iter().filter(|&&s| s <= i) {
            body.push(MInst::new(
                "s_cmp_lg_u64",
                target,
                vec![r(masks[s]), Opnd::constant(0)],
            )?);
            body.push(MInst::new(
                "s_cbranch_scc1",
                target,
                vec![Opnd::Label(header(s))],
            )?);
        }
        out.push(MBlock { insts: body });
    }
    out.push(MBlock {
        insts: vec![MInst::new("s_endpgm", target, vec![])?],
    });
    debug_assert_eq!(out.len(), end + 1);
    Ok(out)
}
