//! Divergence analysis on the lane-level CFG.
//!
//! A block is *uniform* when it only ever runs with every live lane of the
//! wave: the entry block, and any block whose predecessors are all
//! uniform blocks that end in a uniform branch. A value is *divergent*
//! when lanes may hold different values of it: it is computed from a
//! divergent value or a lane-dependent source (the work-item ID VGPRs,
//! EXEC, memory other than scalar loads, lane counts), or written in a
//! block that is not uniform. A branch is uniform when its condition is
//! not divergent and its targets are uniform blocks (or blocks where lanes
//! finish). Both facts depend on each other; the analysis starts from
//! "everything uniform" and removes what the rules refute until nothing
//! changes.

use amdgpu_isa::gfx9::{Family, Operand};

use crate::ir::{Function, MInst, Opnd, Terminator, VReg};

/// What the analysis found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uniformity {
    /// Per block: runs only with every live lane.
    pub block: Vec<bool>,
    /// Per block: entered only from uniform blocks by uniform branches
    /// (so it needs no lane mask). A uniform block that is not entered
    /// together is a reconvergence point: the lanes of a divergent region
    /// meet there, through its mask.
    pub together: Vec<bool>,
    /// Per block: a uniform block whose terminator sends every lane the
    /// same way.
    pub branch: Vec<bool>,
    /// Per virtual register: lanes may hold different values.
    pub divergent: Vec<bool>,
}

/// Analyzes `f`. `finishes[i]`: lanes that reach block `i` just end.
pub fn analyze(f: &Function, finishes: &[bool]) -> Uniformity {
    let n = f.blocks.len();
    let preds = predecessors(f);
    let reconverge = reconvergence(f, &preds);
    let mut divergent = vec![false; f.vregs.len()];
    let mut block = vec![true; n];
    let mut together = vec![true; n];
    let mut branch = vec![true; n];
    loop {
        let mut changed = false;
        // Values.
        let mut scan = |insts: &[MInst], uniform_block: bool, divergent: &mut Vec<bool>| {
            // VCC as a value, tracked through the block.
            let mut vcc_divergent = true;
            // Once the block changes EXEC (an if-converted hammock), lanes
            // may have run different instructions.
            let mut exec_changed = false;
            for inst in insts {
                let div = !uniform_block
                    || exec_changed
                    || produces_divergent(inst, divergent, vcc_divergent);
                exec_changed |= writes_exec(inst);
                for (k, o) in inst.ops.iter().enumerate() {
                    if !inst.is_def(k) {
                        continue;
                    }
                    match o {
                        Opnd::Reg { reg, .. } if div && !divergent[reg.0 as usize] => {
                            divergent[reg.0 as usize] = true;
                            changed = true;
                        }
                        o if *o == Opnd::vcc() => vcc_divergent = div,
                        _ => {}
                    }
                }
            }
        };
        scan(&f.prologue, true, &mut divergent);
        for (i, b) in f.blocks.iter().enumerate() {
            scan(&b.insts, block[i], &mut divergent);
        }
        // Branches and blocks.
        for i in 0..n {
            let b = &f.blocks[i];
            let lands = |t: usize| finishes[t] || together[t];
            let uniform = block[i]
                && match b.term {
                    Terminator::Ret => true,
                    Terminator::Br(t) => lands(t),
                    Terminator::CondBr {
                        cond,
                        then,
                        otherwise,
                    } => !divergent[cond.0 as usize] && lands(then) && lands(otherwise),
                };
            if branch[i] && !uniform {
                branch[i] = false;
                changed = true;
            }
        }
        for i in 0..n {
            let entered_together = preds[i].iter().all(|&p| block[p] && branch[p]);
            if together[i] && !entered_together {
                together[i] = false;
                changed = true;
            }
            let reconverges = reconverge[i].iter().any(|&d| block[d]);
            if block[i] && !entered_together && !reconverges {
                block[i] = false;
                changed = true;
            }
        }
        if !changed {
            return Uniformity {
                block,
                together,
                branch,
                divergent,
            };
        }
    }
}

/// For each block `p`, the blocks `d` whose divergent lanes all meet at
/// `p` before anything after `p` runs: `p` is `d`'s immediate
/// post-dominator, every block lanes can reach from `d` without passing
/// `p` is laid out strictly between `d` and `p`, and every predecessor of
/// `p` is `d` or such a block. Then, under the walk of [`crate::exec`],
/// when the wave reaches `p` every lane that was in `d` is in `p`'s mask
/// (or finished): `p` runs with every live lane if `d` did.
fn reconvergence(f: &Function, preds: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = f.blocks.len();
    let succs: Vec<Vec<usize>> = f.blocks.iter().map(|b| targets(b.term)).collect();
    // Post-dominator sets (bit sets), to a fixpoint; blocks that cannot
    // reach a return keep "all blocks".
    let words = n.div_ceil(64);
    let full: Vec<u64> = (0..words)
        .map(|w| {
            if (w + 1) * 64 <= n {
                !0
            } else {
                (1u64 << (n % 64)) - 1
            }
        })
        .collect();
    let mut pdom: Vec<Vec<u64>> = vec![full.clone(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut set = if succs[i].is_empty() {
                vec![0; words]
            } else {
                full.clone()
            };
            for &s in &succs[i] {
                for (a, b) in set.iter_mut().zip(&pdom[s]) {
                    *a &= b;
                }
            }
            set[i / 64] |= 1 << (i % 64);
            if set != pdom[i] {
                pdom[i] = set;
                changed = true;
            }
        }
    }
    let has = |set: &[u64], j: usize| set[j / 64] >> (j % 64) & 1 == 1;
    let mut out = vec![Vec::new(); n];
    for d in 0..n {
        if succs[d].len() < 2 {
            continue;
        }
        // The immediate post-dominator: the strict post-dominator that
        // every other strict post-dominator post-dominates.
        let strict: Vec<usize> = (0..n).filter(|&j| j != d && has(&pdom[d], j)).collect();
        let Some(&p) = strict
            .iter()
            .find(|&&j| strict.iter().all(|&k| k == j || has(&pdom[j], k)))
        else {
            continue;
        };
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = succs[d].iter().copied().filter(|&s| s != p).collect();
        let mut inside = true;
        while let Some(b) = stack.pop() {
            if seen[b] {
                continue;
            }
            seen[b] = true;
            if !(d < b && b < p) {
                inside = false;
                break;
            }
            stack.extend(succs[b].iter().copied().filter(|&s| s != p));
        }
        if inside && preds[p].iter().all(|&q| q == d || seen[q]) {
            out[p].push(d);
        }
    }
    out
}

/// Lane-level predecessors of every block.
pub fn predecessors(f: &Function) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (i, b) in f.blocks.iter().enumerate() {
        for t in targets(b.term) {
            preds[t].push(i);
        }
    }
    preds
}

/// Blocks where lanes just finish: empty blocks that only return, and
/// blocks nothing enters (no predecessor, or only such blocks before them).
pub fn finishing(f: &Function, preds: &[Vec<usize>]) -> Vec<bool> {
    let n = f.blocks.len();
    let mut finishes: Vec<bool> = (0..n)
        .map(|i| {
            let b = &f.blocks[i];
            i > 0 && (preds[i].is_empty() || (b.insts.is_empty() && b.term == Terminator::Ret))
        })
        .collect();
    for i in 1..n {
        if preds[i].iter().all(|&p| finishes[p]) {
            finishes[i] = true;
        }
    }
    finishes
}

/// Lane-level successors of a terminator.
pub(crate) fn targets(t: Terminator) -> Vec<usize> {
    match t {
        Terminator::Ret => Vec::new(),
        Terminator::Br(t) => vec![t],
        Terminator::CondBr {
            then, otherwise, ..
        } if then == otherwise => vec![then],
        Terminator::CondBr {
            then, otherwise, ..
        } => vec![then, otherwise],
    }
}

/// Whether `inst`, run by every live lane, may give lanes different
/// results.
fn produces_divergent(inst: &MInst, divergent: &[bool], vcc_divergent: bool) -> bool {
    let mn = inst.def.mnemonic;
    if mn.starts_with("v_readfirstlane") || mn.starts_with("v_readlane") {
        return false;
    }
    if mn.starts_with("v_mbcnt") {
        return true;
    }
    if matches!(
        inst.def.family,
        Family::Flat
            | Family::Global
            | Family::Scratch
            | Family::Ds
            | Family::Mubuf
            | Family::Mtbuf
            | Family::Mimg
    ) {
        return true;
    }
    // 32-bit VOPC and VOP2 carry forms read or write VCC implicitly.
    if matches!(inst.def.family, Family::Vopc | Family::Vop2) && vcc_divergent {
        let implicit =
            inst.def.family == Family::Vopc || mn.contains("_co_") || mn.starts_with("v_cndmask");
        if implicit {
            return true;
        }
    }
    inst.ops.iter().enumerate().any(|(k, o)| {
        if inst.is_def(k) {
            return false;
        }
        match *o {
            Opnd::Reg { reg, .. } => reads_divergent(reg, divergent),
            Opnd::Fixed(Operand::Src { code, .. }) => {
                // VGPRs (work-item IDs), EXEC.
                code >= 256 || code == 126 || (code == 106 && vcc_divergent)
            }
            _ => false,
        }
    })
}

/// Whether `inst` writes EXEC.
pub(crate) fn writes_exec(inst: &MInst) -> bool {
    inst.def.mnemonic.contains("saveexec")
        || inst
            .ops
            .iter()
            .enumerate()
            .any(|(k, o)| inst.is_def(k) && *o == Opnd::exec())
}

fn reads_divergent(reg: VReg, divergent: &[bool]) -> bool {
    divergent[reg.0 as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Target;
    use crate::ir::RegClass;

    /// `c = (input op 5)` in block 0, from an SGPR (uniform) or the
    /// work-item ID VGPR (divergent).
    fn cond_from(f: &mut Function, uniform: bool) -> VReg {
        let t = Target::Gfx90a;
        let c = f.new_vreg(RegClass::Vgpr, 1);
        let src = if uniform {
            Opnd::sgpr(4, 1)
        } else {
            Opnd::vgpr(0, 1)
        };
        let r = Opnd::Reg {
            reg: c,
            offset: 0,
            width: 1,
        };
        f.blocks[0]
            .insts
            .push(MInst::new("v_add_u32_e64", t, vec![r, src, Opnd::constant(5)]).unwrap());
        c
    }

    /// 0 → (1 | 2) → 3: an if/else diamond.
    fn diamond(uniform: bool, join_last: bool) -> Function {
        let mut f = Function::new("k");
        for _ in 0..4 {
            f.add_block();
        }
        let c = cond_from(&mut f, uniform);
        let (then, other, join) = if join_last { (1, 2, 3) } else { (1, 3, 2) };
        f.blocks[0].term = Terminator::CondBr {
            cond: c,
            then,
            otherwise: other,
        };
        f.blocks[then].term = Terminator::Br(join);
        f.blocks[other].term = Terminator::Br(join);
        f
    }

    #[test]
    fn uniform_diamond_is_entered_together() {
        let f = diamond(true, true);
        let u = analyze(&f, &[false; 4]);
        assert_eq!(u.together, vec![true; 4]);
        assert!(u.branch[0]);
    }

    #[test]
    fn divergent_diamond_reconverges_at_its_join() {
        let f = diamond(false, true);
        let u = analyze(&f, &[false; 4]);
        assert_eq!(u.block, vec![true, false, false, true]);
        assert_eq!(u.together, vec![true, false, false, false]);
        assert!(!u.branch[0] && !u.branch[1]);
    }

    #[test]
    fn a_join_laid_out_inside_its_region_does_not_reconverge() {
        // The join (2) comes before the else block (3): when the walk
        // reaches 2, lanes of 3 have not arrived yet.
        let f = diamond(false, false);
        let u = analyze(&f, &[false; 4]);
        assert!(!u.block[2]);
    }

    #[test]
    fn values_written_under_divergence_are_divergent() {
        // 0 (divergent cbr) → 1 writes v; 2 (join) branches on v: the
        // join is uniform, but its branch is not.
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        for _ in 0..4 {
            f.add_block();
        }
        let c = cond_from(&mut f, false);
        let v = f.new_vreg(RegClass::Vgpr, 1);
        f.blocks[0].term = Terminator::CondBr {
            cond: c,
            then: 1,
            otherwise: 2,
        };
        let r = Opnd::Reg {
            reg: v,
            offset: 0,
            width: 1,
        };
        f.blocks[1]
            .insts
            .push(MInst::new("v_mov_b32", t, vec![r, Opnd::constant(1)]).unwrap());
        f.blocks[1].term = Terminator::Br(2);
        f.blocks[2].term = Terminator::CondBr {
            cond: v,
            then: 3,
            otherwise: 3,
        };
        let u = analyze(&f, &[false; 4]);
        assert!(u.block[2]);
        f.blocks[2].term = Terminator::CondBr {
            cond: v,
            then: 3,
            otherwise: 0,
        };
        let u = analyze(&f, &[false; 4]);
        assert!(!u.branch[2]);
    }
}
