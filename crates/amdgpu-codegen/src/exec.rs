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
    /// The machine blocks a *lane* active here goes to next: a lane only
    /// runs the blocks of its own lane-level path (header then body of
    /// each), whatever the wave does. VGPR writes are masked by EXEC, so
    /// VGPR liveness follows these edges; SGPRs follow the wave's
    /// ([`MBlock::successors`]).
    pub lane_succs: Vec<usize>,
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
            .is_some_and(|i| matches!(i.def.mnemonic, "s_branch" | "s_endpgm" | "s_setpc_b64"));
        if !ends && index + 1 < len {
            out.push(index + 1);
        }
        out
    }
}

/// How a lane-level block is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// Through its mask `M_i` and header (the general case).
    Masked,
    /// Only ever with every live lane (see [`crate::uniform`]), by a
    /// plain jump or fall-through from a uniform block: no mask, no header.
    Uniform,
    /// Straight from the closest block before it in the layout, its only
    /// predecessor, which has no backward successor and sets EXEC for it:
    /// no mask, no header.
    Inline,
    /// Never: an empty block that only returns (lanes sent to it simply
    /// finish) or a block no lane can reach.
    Finish,
}

/// Lowers `f`'s lane-level CFG to wave-level machine blocks (see the
/// module docs). Adds the mask registers to `f.vregs`.
///
/// Refinements of the scheme above, each keeping its invariant:
/// - uniform blocks ([`crate::uniform`]) have no mask: uniform branches
///   between them are scalar branches, and the walk skips them;
/// - a block whose only predecessor is the closest block before it, which
///   has no backward successor, is entered inline: that block sets EXEC
///   for it (`s_and_b64 exec, exec, c` or `s_andn2_b64`), with no mask;
/// - lanes branching to an empty `ret` block finish at once (no mask);
/// - a condition computed as `v_cndmask_b32 c, 0, 1, m` in the same block
///   branches on the lane mask `m` itself.
pub fn lower(f: &mut Function, target: Target) -> Result<Vec<MBlock>> {
    let n = f.blocks.len();
    let succs: Vec<Vec<usize>> = f.blocks.iter().map(|b| targets(b.term)).collect();
    let preds = predecessors(f);
    let finishes = finishing(f, &preds);
    let uni = crate::uniform::analyze(f, &finishes);
    let mut entry = vec![Entry::Masked; n];
    let mut prev: Option<usize> = None;
    for i in 0..n {
        entry[i] = if finishes[i] {
            Entry::Finish
        } else if uni.together[i] {
            Entry::Uniform
        } else if prev.is_some_and(|p| preds[i] == [p] && succs[p].iter().all(|&s| s > p)) {
            Entry::Inline
        } else {
            Entry::Masked
        };
        if !finishes[i] {
            prev = Some(i);
        }
    }
    let masks: Vec<Option<VReg>> = entry
        .iter()
        .map(|e| (*e == Entry::Masked).then(|| f.new_vreg(RegClass::Sgpr, 2)))
        .collect();
    let r = |v: VReg| Opnd::Reg {
        reg: v,
        offset: 0,
        width: 2,
    };
    let ins = |mn: &str, ops: Vec<Opnd>| MInst::new(mn, target, ops);
    let header = |i: usize| 1 + 2 * i;
    let end = 1 + 2 * n;
    // The header of the first masked block at or after `k`: where the
    // walk goes when no lane is left for the blocks before it.
    let next_masked = |k: usize| {
        (k..n)
            .find(|&j| entry[j] == Entry::Masked)
            .map_or(end, header)
    };
    // Where a lane (or, from a uniform branch, the wave) goes for block t.
    let goto = |t: usize| {
        if entry[t] == Entry::Finish {
            end
        } else {
            header(t)
        }
    };
    // The first block after `i` that is not skipped over as empty.
    let next_live = |i: usize| (i + 1..n).find(|&j| entry[j] != Entry::Finish);
    let mut out = Vec::with_capacity(2 * n + 2);
    // Where the whole wave is done: the end of the kernel, or a callee's
    // return (its epilogue, see `crate::calls`).
    let callee = !f.epilogue.is_empty();
    let finish = |body: &mut Vec<MInst>| -> Result<()> {
        body.push(if callee {
            ins("s_branch", vec![Opnd::Label(end)])?
        } else {
            ins("s_endpgm", vec![])?
        });
        Ok(())
    };

    let mut pro = std::mem::take(&mut f.prologue);
    for (j, m) in masks.iter().enumerate() {
        if let Some(m) = *m {
            let src = if j == 0 {
                Opnd::exec()
            } else {
                Opnd::constant(0)
            };
            pro.push(ins("s_mov_b64", vec![r(m), src])?);
        }
    }
    out.push(MBlock {
        insts: pro,
        lane_succs: vec![if n == 0 { end } else { goto(0) }],
    });

    let blocks = std::mem::take(&mut f.blocks);
    for (i, b) in blocks.iter().enumerate() {
        let mut head = Vec::new();
        if let Some(m) = masks[i] {
            head.push(ins("s_mov_b64", vec![Opnd::exec(), r(m)])?);
            head.push(ins("s_mov_b64", vec![r(m), Opnd::constant(0)])?);
            head.push(ins(
                "s_cbranch_execz",
                vec![Opnd::Label(next_masked(i + 1))],
            )?);
        }
        out.push(MBlock {
            insts: head,
            lane_succs: vec![header(i) + 1],
        });
        if entry[i] == Entry::Finish {
            out.push(MBlock {
                insts: Vec::new(),
                lane_succs: vec![end],
            });
            continue;
        }
        let mut body = b.insts.clone();
        let following = next_live(i);
        // The lane mask of a conditional branch.
        let mut cond_mask = |body: &mut Vec<MInst>, cond: VReg| -> Result<Opnd> {
            if let Some(m) = fused_mask(body, cond) {
                return Ok(m);
            }
            let x = f.new_vreg(RegClass::Sgpr, 2);
            let c = Opnd::Reg {
                reg: cond,
                offset: 0,
                width: 1,
            };
            body.push(ins("v_cmp_ne_u32_e64", vec![r(x), Opnd::constant(0), c])?);
            Ok(r(x))
        };
        if uni.branch[i] {
            // Every lane goes the same way: scalar branches, no masks.
            let jump = |body: &mut Vec<MInst>, t: usize| -> Result<()> {
                if entry[t] == Entry::Finish {
                    finish(body)?;
                } else if Some(t) != following {
                    body.push(ins("s_branch", vec![Opnd::Label(goto(t))])?);
                }
                Ok(())
            };
            match b.term {
                Terminator::Ret => finish(&mut body)?,
                Terminator::Br(t) => jump(&mut body, t)?,
                Terminator::CondBr {
                    cond,
                    then,
                    otherwise,
                } => {
                    if then == otherwise {
                        jump(&mut body, then)?;
                    } else {
                        let x = cond_mask(&mut body, cond)?;
                        let any = f.new_vreg(RegClass::Sgpr, 2);
                        // SCC: whether any (so every) active lane takes the
                        // branch to `first`.
                        let (mn, ops, first, second) = if Some(then) == following {
                            (
                                "s_andn2_b64",
                                vec![r(any), Opnd::exec(), x],
                                otherwise,
                                then,
                            )
                        } else {
                            ("s_and_b64", vec![r(any), Opnd::exec(), x], then, otherwise)
                        };
                        body.push(ins(mn, ops)?);
                        body.push(ins("s_cbranch_scc1", vec![Opnd::Label(goto(first))])?);
                        jump(&mut body, second)?;
                    }
                }
            }
            let lane_succs = match b.term {
                Terminator::Ret => vec![end],
                _ => succs[i].iter().map(|&t| goto(t)).collect(),
            };
            out.push(MBlock {
                insts: body,
                lane_succs,
            });
            continue;
        }
        // The block after this one, when this block enters it inline.
        let inline_next = following.filter(|&j| entry[j] == Entry::Inline);
        // A single backward successor (a loop latch): its lanes go back
        // with EXEC, straight into the loop header's body. Its mask is 0
        // then (the walk's invariant), so the header has nothing to add.
        let backward: Vec<usize> = succs[i]
            .iter()
            .copied()
            .filter(|&s| s <= i && masks[s].is_some())
            .collect();
        let latch_to = match backward.as_slice() {
            [h] => Some(*h),
            _ => None,
        };
        // Adds the lanes of `mask` to block `t`'s waiting lanes.
        let send = |body: &mut Vec<MInst>, t: usize, mask: Opnd| -> Result<()> {
            if let Some(m) = masks[t] {
                body.push(ins("s_or_b64", vec![r(m), r(m), mask])?);
            }
            Ok(())
        };
        let single = match targets(b.term).as_slice() {
            [t] => Some(*t),
            _ => None,
        };
        if let Some(t) = single {
            if Some(t) == latch_to {
                body.push(ins("s_branch", vec![Opnd::Label(header(t) + 1)])?);
            } else if Some(t) != inline_next {
                send(&mut body, t, Opnd::exec())?;
            }
        } else if let Terminator::CondBr {
            cond,
            then,
            otherwise,
        } = b.term
        {
            let x = cond_mask(&mut body, cond)?;
            // A compare under this block's EXEC leaves inactive lanes 0:
            // its mask is already the taken lanes.
            let masked = compared_under_exec(&body, x);
            for (t, taken) in [(then, true), (otherwise, false)] {
                if Some(t) == inline_next || Some(t) == latch_to || masks[t].is_none() {
                    continue;
                }
                if taken && masked {
                    send(&mut body, t, x)?;
                    continue;
                }
                let lanes = f.new_vreg(RegClass::Sgpr, 2);
                let (mn, ops) = if taken {
                    ("s_and_b64", vec![r(lanes), x, Opnd::exec()])
                } else {
                    ("s_andn2_b64", vec![r(lanes), Opnd::exec(), x])
                };
                body.push(ins(mn, ops)?);
                send(&mut body, t, r(lanes))?;
            }
            if let Some(next) = inline_next {
                let mn = if next == then {
                    "s_and_b64"
                } else {
                    "s_andn2_b64"
                };
                body.push(ins(mn, vec![Opnd::exec(), Opnd::exec(), x])?);
                body.push(ins(
                    "s_cbranch_execz",
                    vec![Opnd::Label(next_masked(next + 1))],
                )?);
            }
            if let Some(h) = latch_to {
                let mn = if h == then {
                    "s_and_b64"
                } else {
                    "s_andn2_b64"
                };
                body.push(ins(mn, vec![Opnd::exec(), Opnd::exec(), x])?);
                body.push(ins("s_cbranch_execnz", vec![Opnd::Label(header(h) + 1)])?);
            }
        }
        let back = if latch_to.is_some() {
            Vec::new()
        } else {
            backward
        };
        for s in back {
            let m = masks[s].expect("filtered on masks");
            body.push(ins("s_cmp_lg_u64", vec![r(m), Opnd::constant(0)])?);
            body.push(ins("s_cbranch_scc1", vec![Opnd::Label(header(s))])?);
        }
        // The walk goes on at the next masked header; uniform blocks on
        // the way are not entered by falling through.
        if following.is_some_and(|j| entry[j] == Entry::Uniform) {
            body.push(ins("s_branch", vec![Opnd::Label(next_masked(i + 1))])?);
        }
        let mut lane_succs: Vec<usize> = succs[i].iter().map(|&t| goto(t)).collect();
        if b.term == Terminator::Ret {
            lane_succs.push(end);
        }
        out.push(MBlock {
            insts: body,
            lane_succs,
        });
    }
    let last = if callee {
        std::mem::take(&mut f.epilogue)
    } else {
        vec![ins("s_endpgm", vec![])?]
    };
    out.push(MBlock {
        insts: last,
        lane_succs: Vec::new(),
    });
    debug_assert_eq!(out.len(), end + 1);
    Ok(out)
}

use crate::uniform::{finishing, predecessors, targets};

/// Whether the block's last write of `mask` is a vector compare
/// (`v_cmp_*`, which writes 0 for inactive lanes) with no EXEC change
/// after it.
fn compared_under_exec(body: &[MInst], mask: Opnd) -> bool {
    let writes = |inst: &MInst| {
        inst.ops
            .iter()
            .enumerate()
            .any(|(k, o)| inst.is_def(k) && same_register(o, &mask))
    };
    let Some(at) = body.iter().rposition(writes) else {
        return false;
    };
    let mn = body[at].def.mnemonic;
    mn.starts_with("v_cmp_") && !body[at + 1..].iter().any(crate::uniform::writes_exec)
}

/// Whether two operands name the same whole register.
fn same_register(a: &Opnd, b: &Opnd) -> bool {
    match (a, b) {
        (Opnd::Reg { reg: x, .. }, Opnd::Reg { reg: y, .. }) => x == y,
        _ => a == b,
    }
}

/// The lane mask `m` when the block's last write of `cond` is
/// `v_cndmask_b32_e64 cond, 0, 1, m` and nothing after it in the block can
/// change `m` (or VCC, when `m` is VCC).
pub(crate) fn fused_mask(body: &[MInst], cond: VReg) -> Option<Opnd> {
    let writes = |inst: &MInst, reg: VReg| {
        inst.ops
            .iter()
            .enumerate()
            .any(|(k, o)| inst.is_def(k) && matches!(o, Opnd::Reg { reg: r, .. } if *r == reg))
    };
    let at = body.iter().rposition(|inst| writes(inst, cond))?;
    let def = &body[at];
    let [Opnd::Reg { offset: 0, .. }, zero, one, m] = def.ops.as_slice() else {
        return None;
    };
    if def.def.mnemonic != "v_cndmask_b32_e64"
        || *zero != Opnd::constant(0)
        || *one != Opnd::constant(1)
        || def.mods != amdgpu_isa::gfx9::Modifiers::defaults_for(def.def)
    {
        return None;
    }
    let later = &body[at + 1..];
    match *m {
        Opnd::Reg {
            reg,
            offset: 0,
            width: 2,
        } => (!later.iter().any(|inst| writes(inst, reg))).then_some(*m),
        m if m == Opnd::vcc() => {
            // VCC: no later instruction may name it or write it implicitly
            // (VOPC and VOP2 carry-outs in their 32-bit encodings).
            let touches = |inst: &MInst| {
                inst.ops.contains(&Opnd::vcc())
                    || matches!(
                        inst.def.family,
                        amdgpu_isa::gfx9::Family::Vopc | amdgpu_isa::gfx9::Family::Vop2
                    )
            };
            (!later.iter().any(touches)).then_some(m)
        }
        _ => None,
    }
}
