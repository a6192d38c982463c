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

/// Converts every eligible hammock of `f`, in block order of their heads
/// and inside out: the order of converting one at a time, re-analysing
/// divergence after each.
///
/// One analysis serves a whole round instead. Every hammock it finds is
/// converted in order, unless a conversion of the round changed one of its
/// blocks (it waits for the next round): converting a hammock only makes
/// values divergent (the join's code now runs after EXEC changes), so
/// what was eligible stays so. After each conversion the merged head is
/// tried at once, as a fresh analysis would find it first: it ends with
/// the join's branch, which heads the next hammock of a chain when that
/// was eligible or its condition is now computed after the EXEC change
/// (divergent). Rounds repeat until an analysis finds nothing; a chain of
/// N hammocks takes one round, not N analyses.
pub fn convert(f: &mut Function, target: Target) -> Result<()> {
    loop {
        let readers = Readers::of(f);
        let found = find_all(f, &readers);
        if found.is_empty() {
            return Ok(());
        }
        let mut eligible = vec![false; f.blocks.len()];
        for h in &found {
            eligible[h.head] = true;
        }
        let mut touched = vec![false; f.blocks.len()];
        for h in found {
            let blocks = h.blocks();
            if blocks.iter().any(|&b| touched[b]) {
                continue;
            }
            let mut h = h;
            loop {
                apply(f, h, target)?;
                for b in h.blocks() {
                    touched[b] = true;
                }
                let preds = predecessors(f);
                let next = hammock_at(f, &preds, &readers, h.head).filter(|n| {
                    eligible[h.join] || cond_after_exec_change(&f.blocks[h.head].insts, n.cond)
                });
                match next {
                    Some(n) => h = n,
                    None => break,
                }
            }
        }
    }
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

impl Hammock {
    /// Every block the conversion changes.
    fn blocks(&self) -> Vec<usize> {
        [Some(self.head), self.then, self.other, Some(self.join)]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// Where the instructions that read each virtual register are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    Nowhere,
    /// Only in this block.
    In(usize),
    /// In several blocks, the prologue, or a branch condition.
    Elsewhere,
}

/// [`Read`] of every virtual register, indexed by its number.
struct Readers(Vec<Read>);

impl Readers {
    fn of(f: &Function) -> Readers {
        let mut r = vec![Read::Nowhere; f.vregs.len()];
        let mut note = |reg: VReg, at: Option<usize>| {
            let slot = &mut r[reg.0 as usize];
            *slot = match (*slot, at) {
                (Read::Nowhere, Some(b)) => Read::In(b),
                (Read::In(a), Some(b)) if a == b => Read::In(a),
                _ => Read::Elsewhere,
            };
        };
        let read_regs = |inst: &MInst| -> Vec<VReg> {
            inst.ops
                .iter()
                .enumerate()
                .filter_map(|(k, o)| match o {
                    Opnd::Reg { reg, .. } if !inst.is_def(k) => Some(*reg),
                    _ => None,
                })
                .collect()
        };
        for inst in &f.prologue {
            for reg in read_regs(inst) {
                note(reg, None);
            }
        }
        for (i, b) in f.blocks.iter().enumerate() {
            for inst in &b.insts {
                for reg in read_regs(inst) {
                    note(reg, Some(i));
                }
            }
            if let Terminator::CondBr { cond, .. } = b.term {
                note(cond, None);
            }
        }
        Readers(r)
    }

    /// Whether `reg` is read outside block `arm` (or in its branch).
    fn outside(&self, arm: usize, reg: VReg) -> bool {
        match self.0.get(reg.0 as usize) {
            Some(Read::Nowhere) => false,
            Some(Read::In(b)) => *b != arm,
            _ => true,
        }
    }
}

/// Every hammock with a divergent branch, by one divergence analysis, in
/// block order of their heads.
fn find_all(f: &Function, readers: &Readers) -> Vec<Hammock> {
    let preds = predecessors(f);
    let finishes = finishing(f, &preds);
    let uni = analyze(f, &finishes);
    (0..f.blocks.len())
        .filter(|&head| !uni.branch[head] && !finishes[head])
        .filter_map(|head| hammock_at(f, &preds, readers, head))
        .collect()
}

/// Whether an instruction of `insts` after one that writes EXEC defines
/// `cond` (the divergence analysis then takes it as divergent).
fn cond_after_exec_change(insts: &[MInst], cond: VReg) -> bool {
    let Some(exec) = insts.iter().position(crate::uniform::writes_exec) else {
        return false;
    };
    insts[exec + 1..].iter().any(|inst| {
        inst.ops
            .iter()
            .enumerate()
            .any(|(k, o)| inst.is_def(k) && matches!(o, Opnd::Reg { reg, .. } if *reg == cond))
    })
}

/// The hammock `head` heads, if its shape allows converting it (whatever
/// its branch's divergence).
fn hammock_at(
    f: &Function,
    preds: &[Vec<usize>],
    readers: &Readers,
    head: usize,
) -> Option<Hammock> {
    let Terminator::CondBr {
        cond,
        then,
        otherwise,
    } = f.blocks[head].term
    else {
        return None;
    };
    if then == otherwise {
        return None;
    }
    let arm_ok = |arm: usize, join: usize| {
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
                            f.info(*reg).class == RegClass::Vgpr || !readers.outside(arm, *reg)
                        }
                        _ => true,
                    })
            })
    };
    let succ_join = |arm: usize| match f.blocks[arm].term {
        Terminator::Br(j) => Some(j),
        _ => None,
    };
    // Diamond: both arms go to the same join.
    if let (Some(j1), Some(j2)) = (succ_join(then), succ_join(otherwise))
        && j1 == j2
        && arm_ok(then, j1)
        && arm_ok(otherwise, j1)
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
    [(then, otherwise, true), (otherwise, then, false)]
        .into_iter()
        .find(|&(arm, join, _)| {
            succ_join(arm) == Some(join)
                && join != head
                && arm_ok(arm, join)
                && sorted(&preds[join]) == sorted(&[head, arm])
        })
        .map(|(arm, join, arm_is_then)| Hammock {
            head,
            cond,
            then: arm_is_then.then_some(arm),
            other: (!arm_is_then).then_some(arm),
            join,
        })
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
pub(crate) mod tests {
    use super::*;

    /// The whole of one-dword register `v`.
    pub(crate) fn reg(v: VReg) -> Opnd {
        Opnd::Reg {
            reg: v,
            offset: 0,
            width: 1,
        }
    }

    /// `head` computes `c = op src, 1` and branches on it to `head + 1` /
    /// `head + 2`, which set a new `x` to 1 / 2 and go to `head + 3`; `x`.
    fn hammock(f: &mut Function, head: usize, op: &str, src: Opnd) -> VReg {
        let t = Target::Gfx90a;
        let c = f.new_vreg(RegClass::Vgpr, 1);
        let x = f.new_vreg(RegClass::Vgpr, 1);
        let inst = MInst::new(op, t, vec![reg(c), src, Opnd::constant(1)]);
        f.blocks[head].insts.push(inst.unwrap());
        f.blocks[head].term = Terminator::CondBr {
            cond: c,
            then: head + 1,
            otherwise: head + 2,
        };
        for k in 1..3 {
            let set = MInst::new("v_mov_b32", t, vec![reg(x), Opnd::constant(k)]);
            f.blocks[head + k as usize].insts.push(set.unwrap());
            f.blocks[head + k as usize].term = Terminator::Br(head + 3);
        }
        x
    }

    /// 0: c = v0 & 1; cbr c, 1, 2 / 1: x = 1 / 2: x = 2 / 3: cbr x, 4, 5.
    fn diamond() -> (Function, VReg) {
        let mut f = Function::new("k");
        for _ in 0..6 {
            f.add_block();
        }
        let x = hammock(&mut f, 0, "v_and_b32_e64", Opnd::vgpr(0, 1));
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

    #[test]
    fn a_chain_converts_in_one_call_even_when_its_second_branch_was_uniform() {
        // 0 → (1 | 2) → 3: d = s4 + 1 (uniform); cbr d → (4 | 5) → 6: the
        // second branch only turns divergent once 3's code runs under the
        // first hammock's EXEC changes, inside the merged block 0.
        let (mut f, _) = diamond();
        f.add_block();
        hammock(&mut f, 3, "v_add_u32_e64", Opnd::sgpr(4, 1));
        let preds = predecessors(&f);
        assert!(analyze(&f, &finishing(&f, &preds)).branch[3]);
        convert(&mut f, Target::Gfx90a).unwrap();
        assert_eq!(f.blocks[0].term, Terminator::Ret);
        assert_eq!(f.blocks[0].insts.len(), 14);
        assert!(
            (1..7).all(|b| f.blocks[b].insts.is_empty() && f.blocks[b].term == Terminator::Ret)
        );
    }
}
