//! If-conversion of small divergent hammocks on the lane-level CFG.
//!
//! A divergent branch whose arms are single blocks that meet again right
//! after (an if/else diamond, or an if triangle) becomes straight-line
//! code that runs both arms under EXEC:
//!
//! ```text
//! A: …; cbr c, T, E          A': …; m = (c != 0)
//! T: …; br J                     s_and_saveexec_b64 save, m   ; then-lanes
//! E: …; br J          ──►        T…
//! J: …                           s_andn2_b64 exec, save, m    ; else-lanes
//!                                E…
//!                                s_mov_b64 exec, save
//!                                J…
//! ```
//!
//! Three scalar instructions instead of masks for four blocks. An arm is
//! run even when none of its lanes is active, so arms must be short and
//! free of instructions that act for the whole wave (barriers, messages,
//! scalar stores) or write scalar registers read outside the arm. Nested
//! hammocks convert inside out. The merged blocks are left empty and
//! unreachable (so block indices stay valid).

use crate::ir::{Function, MInst, Opnd, RegClass, Terminator, VReg};
use crate::uniform::{analyze, finishing, predecessors};
use crate::{Result, Target};

/// Longest arm (instructions) worth running without a skip.
pub const MAX_ARM: usize = 12;

/// Converts every eligible hammock of `f`.
pub fn convert(f: &mut Function, target: Target) -> Result<()> {
    while let Some(h) = find(f) {
        apply(f, h, target)?;
    }
    Ok(())
}

/// A hammock: `head` branches on `cond` to `then` / `other` (either may be
/// `None`: the arm is empty, a triangle), both meet at `join`.
#[derive(Debug, Clone, Copy)]
struct Hammock {
    head: usize,
    cond: VReg,
    then: Option<usize>,
    other: Option<usize>,
    join: usize,
}

fn find(f: &Function) -> Option<Hammock> {
    let preds = predecessors(f);
    let finishes = finishing(f, &preds);
    let uni = analyze(f, &finishes);
    let reads_outside = |arm: usize, reg: VReg| {
        f.blocks
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != arm)
            .flat_map(|(_, b)| &b.insts)
            .chain(&f.prologue)
            .any(|inst| reads(inst, reg))
            || f.blocks
                .iter()
                .any(|b| matches!(b.term, Terminator::CondBr { cond, .. } if cond == reg))
    };
    let arm_ok = |arm: usize, head: usize, join: usize| {
        let b = &f.blocks[arm];
        arm != head
            && arm != join
            && preds[arm] == [head]
            && b.term == Terminator::Br(join)
            && b.insts.len() <= MAX_ARM
            && b.insts.iter().all(|inst| {
                safe_without_lanes(inst)
                    && inst.ops.iter().enumerate().all(|(k, o)| match o {
                        Opnd::Reg { reg, .. } if inst.is_def(k) => {
                            f.info(*reg).class == RegClass::Vgpr || !reads_outside(arm, *reg)
                        }
                        _ => true,
                    })
            })
    };
    for (head, b) in f.blocks.iter().enumerate() {
        let Terminator::CondBr {
            cond,
            then,
            otherwise,
        } = b.term
        else {
            continue;
        };
        if then == otherwise || uni.branch[head] || finishes[head] {
            continue;
        }
        let succ_join = |arm: usize| match f.blocks[arm].term {
            Terminator::Br(j) => Some(j),
            _ => None,
        };
        // Diamond: both arms go to the same join.
        if let (Some(j1), Some(j2)) = (succ_join(then), succ_join(otherwise))
            && j1 == j2
            && arm_ok(then, head, j1)
            && arm_ok(otherwise, head, j1)
            && sorted(&preds[j1]) == sorted(&[then, otherwise])
            && j1 != head
        {
            return Some(Hammock {
                head,
                cond,
                then: Some(then),
                other: Some(otherwise),
                join: j1,
            });
        }
        // Triangles: one arm is the join itself.
        for (arm, join, arm_is_then) in [(then, otherwise, true), (otherwise, then, false)] {
            if succ_join(arm) == Some(join)
                && join != head
                && arm_ok(arm, head, join)
                && sorted(&preds[join]) == sorted(&[head, arm])
            {
                return Some(Hammock {
                    head,
                    cond,
                    then: arm_is_then.then_some(arm),
                    other: (!arm_is_then).then_some(arm),
                    join,
                });
            }
        }
    }
    None
}

fn sorted(v: &[usize]) -> Vec<usize> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

fn apply(f: &mut Function, h: Hammock, target: Target) -> Result<()> {
    let pair = |v: VReg| Opnd::Reg {
        reg: v,
        offset: 0,
        width: 2,
    };
    let m = f.new_vreg(RegClass::Sgpr, 2);
    let save = f.new_vreg(RegClass::Sgpr, 2);
    let c = Opnd::Reg {
        reg: h.cond,
        offset: 0,
        width: 1,
    };
    let take = |f: &mut Function, b: Option<usize>| -> Vec<MInst> {
        b.map(|b| std::mem::take(&mut f.blocks[b].insts))
            .unwrap_or_default()
    };
    let then = take(f, h.then);
    let other = take(f, h.other);
    let join = take(f, Some(h.join));
    // The lane mask: from the compare that produced the condition when
    // there is one (copied out of VCC, which the arms may overwrite).
    let first = match crate::exec::fused_mask(&f.blocks[h.head].insts, h.cond) {
        Some(x) if x == Opnd::vcc() => MInst::new("s_mov_b64", target, vec![pair(m), x])?,
        _ => MInst::new(
            "v_cmp_ne_u32_e64",
            target,
            vec![pair(m), Opnd::constant(0), c],
        )?,
    };
    let mut code = vec![first];
    if then.is_empty() {
        // Only an else arm.
        code.push(MInst::new(
            "s_mov_b64",
            target,
            vec![pair(save), Opnd::exec()],
        )?);
        code.push(MInst::new(
            "s_andn2_b64",
            target,
            vec![Opnd::exec(), Opnd::exec(), pair(m)],
        )?);
    } else {
        code.push(MInst::new(
            "s_and_saveexec_b64",
            target,
            vec![pair(save), pair(m)],
        )?);
        code.extend(then);
        if !other.is_empty() {
            code.push(MInst::new(
                "s_andn2_b64",
                target,
                vec![Opnd::exec(), pair(save), pair(m)],
            )?);
        }
    }
    code.extend(other);
    code.push(MInst::new(
        "s_mov_b64",
        target,
        vec![Opnd::exec(), pair(save)],
    )?);
    code.extend(join);
    let term = f.blocks[h.join].term;
    let head = &mut f.blocks[h.head];
    head.insts.extend(code);
    head.term = term;
    for b in [h.then, h.other, Some(h.join)].into_iter().flatten() {
        f.blocks[b].term = Terminator::Ret;
    }
    Ok(())
}

/// Whether `inst` reads `reg`.
fn reads(inst: &MInst, reg: VReg) -> bool {
    inst.ops
        .iter()
        .enumerate()
        .any(|(k, o)| !inst.is_def(k) && matches!(o, Opnd::Reg { reg: r, .. } if *r == reg))
}

/// Whether running `inst` with no active lane does nothing lanes could
/// observe.
fn safe_without_lanes(inst: &MInst) -> bool {
    let mn = inst.def.mnemonic;
    !(mn.starts_with("s_barrier")
        || mn.starts_with("s_sendmsg")
        || mn.starts_with("s_store")
        || mn.starts_with("s_atomic")
        || mn.starts_with("s_buffer_store")
        || mn.starts_with("s_endpgm")
        || mn.starts_with("s_setreg")
        || mn.starts_with("s_trap")
        || mn.contains("saveexec")
        || inst.ops.contains(&Opnd::exec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(v: VReg) -> Opnd {
        Opnd::Reg {
            reg: v,
            offset: 0,
            width: 1,
        }
    }

    /// 0: c = v0 & 1; cbr c, 1, 2 / 1: x = 1 / 2: x = 2 / 3: cbr x, 4, 5.
    fn diamond() -> (Function, VReg) {
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        for _ in 0..6 {
            f.add_block();
        }
        let c = f.new_vreg(RegClass::Vgpr, 1);
        let x = f.new_vreg(RegClass::Vgpr, 1);
        f.blocks[0].insts.push(
            MInst::new(
                "v_and_b32_e64",
                t,
                vec![reg(c), Opnd::vgpr(0, 1), Opnd::constant(1)],
            )
            .unwrap(),
        );
        f.blocks[0].term = Terminator::CondBr {
            cond: c,
            then: 1,
            otherwise: 2,
        };
        for (b, k) in [(1, 1), (2, 2)] {
            f.blocks[b]
                .insts
                .push(MInst::new("v_mov_b32", t, vec![reg(x), Opnd::constant(k)]).unwrap());
            f.blocks[b].term = Terminator::Br(3);
        }
        f.blocks[3].term = Terminator::CondBr {
            cond: x,
            then: 4,
            otherwise: 5,
        };
        (f, x)
    }

    #[test]
    fn a_divergent_diamond_becomes_straight_line_code() {
        let (mut f, _) = diamond();
        convert(&mut f, Target::Gfx90a).unwrap();
        let names: Vec<&str> = f.blocks[0].insts.iter().map(|i| i.def.mnemonic).collect();
        assert_eq!(
            names,
            [
                "v_and_b32_e64",
                "v_cmp_ne_u32_e64",
                "s_and_saveexec_b64",
                "v_mov_b32",
                "s_andn2_b64",
                "v_mov_b32",
                "s_mov_b64"
            ]
        );
        assert!(matches!(
            f.blocks[0].term,
            Terminator::CondBr {
                then: 4,
                otherwise: 5,
                ..
            }
        ));
        assert!(
            (1..4).all(|b| f.blocks[b].insts.is_empty() && f.blocks[b].term == Terminator::Ret)
        );
        // Each arm wrote a constant, but lanes hold different ones: the
        // branch on it is divergent.
        let preds = predecessors(&f);
        let u = analyze(&f, &finishing(&f, &preds));
        assert!(!u.branch[0]);
    }

    #[test]
    fn arms_with_barriers_keep_their_branch() {
        let (mut f, _) = diamond();
        f.blocks[1]
            .insts
            .push(MInst::new("s_barrier", Target::Gfx90a, vec![]).unwrap());
        convert(&mut f, Target::Gfx90a).unwrap();
        assert!(matches!(
            f.blocks[0].term,
            Terminator::CondBr { then: 1, .. }
        ));
    }
}
