//! Loop-invariant constants: a virtual register written only once, by a
//! `v_mov_b32` of a constant inside a loop, is set in the loop's preheader
//! instead of on every iteration (the front end materializes every
//! literal a VOP3 instruction reads this way, into a fresh register).
//!
//! The preheader is the one block outside the loop that enters its
//! header. Every lane that runs the loop ran the preheader first, so
//! writing the constant there (first thing, under the preheader's full
//! EXEC) gives each of them the value it would have read; the register is
//! written nowhere else. Loops are taken innermost first, so a constant
//! moves out of a whole loop nest. Equal constants hoisted to the same
//! preheader share one register. At most [`MAX_PER_LOOP`] registers are
//! hoisted per loop, to keep register pressure in check.

use crate::ir::{Function, MInst, Opnd, RegClass, Terminator, VReg};
use crate::uniform::{predecessors, targets};

/// Most constants kept in registers across one loop.
pub const MAX_PER_LOOP: usize = 8;

/// Hoists the loop-invariant constants of `f`.
pub fn constants(f: &mut Function) {
    let mut loops = natural_loops(f);
    if loops.is_empty() {
        return;
    }
    loops.sort_by_key(|l| l.body.len());
    let defs = def_counts(f, &loops);
    for l in &loops {
        hoist(f, l, &defs);
    }
}

/// A natural loop: its blocks (header included) and its preheader.
struct Loop {
    body: Vec<usize>,
    preheader: usize,
}

/// How many instructions write each virtual register a `v_mov_b32` in
/// one of `loops` writes (0 for the others: counting is costly).
fn def_counts(f: &Function, loops: &[Loop]) -> Vec<u32> {
    let mut n = vec![0; f.vregs.len()];
    let mut wanted = vec![false; f.vregs.len()];
    for inst in loops
        .iter()
        .flat_map(|l| &l.body)
        .flat_map(|&b| &f.blocks[b].insts)
    {
        if let (true, Some(Opnd::Reg { reg, .. })) =
            (inst.def.mnemonic == "v_mov_b32", inst.ops.first())
        {
            wanted[reg.0 as usize] = true;
        }
    }
    let insts = f
        .prologue
        .iter()
        .chain(f.blocks.iter().flat_map(|b| &b.insts));
    for inst in insts {
        for (k, o) in inst.ops.iter().enumerate() {
            if let Opnd::Reg { reg, .. } = o
                && wanted[reg.0 as usize]
                && inst.is_def(k)
            {
                n[reg.0 as usize] += 1;
            }
        }
    }
    n
}

/// The constant `inst` sets a one-dword VGPR to, when that register has
/// no other writer: `(register, constant)`.
fn constant_def(f: &Function, inst: &MInst, defs: &[u32]) -> Option<(VReg, Opnd)> {
    match inst.ops.as_slice() {
        [
            Opnd::Reg {
                reg,
                offset: 0,
                width: 1,
            },
            c,
        ] if inst.def.mnemonic == "v_mov_b32"
            && c.is_constant()
            && defs[reg.0 as usize] == 1
            && f.info(*reg).width == 1
            && f.info(*reg).class == RegClass::Vgpr
            && !f.pinned.contains(reg) =>
        {
            Some((*reg, *c))
        }
        _ => None,
    }
}

/// Moves the constants of loop `l` to its preheader.
fn hoist(f: &mut Function, l: &Loop, defs: &[u32]) {
    let mut kept: Vec<(VReg, Opnd)> = Vec::new();
    let mut moved = Vec::new();
    let mut renames: Vec<(VReg, VReg)> = Vec::new();
    for &b in &l.body {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let inst = &f.blocks[b].insts[i];
            let Some((reg, c)) = constant_def(f, inst, defs) else {
                i += 1;
                continue;
            };
            if let Some(&(same, _)) = kept.iter().find(|(_, k)| *k == c) {
                renames.push((reg, same));
            } else if kept.len() < MAX_PER_LOOP {
                kept.push((reg, c));
                moved.push(f.blocks[b].insts[i].clone());
            } else {
                i += 1;
                continue;
            }
            f.blocks[b].insts.remove(i);
        }
    }
    let pre = &mut f.blocks[l.preheader].insts;
    pre.splice(0..0, moved);
    if !renames.is_empty() {
        rename(f, &renames);
    }
}

/// Replaces every read of each `from` by its `to`.
fn rename(f: &mut Function, pairs: &[(VReg, VReg)]) {
    let to = |r: VReg| pairs.iter().find(|(from, _)| *from == r).map(|p| p.1);
    let insts = f
        .prologue
        .iter_mut()
        .chain(f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()));
    for inst in insts {
        for o in &mut inst.ops {
            if let Opnd::Reg { reg, .. } = o
                && let Some(t) = to(*reg)
            {
                *reg = t;
            }
        }
    }
    for b in &mut f.blocks {
        if let Terminator::CondBr { cond, .. } = &mut b.term
            && let Some(t) = to(*cond)
        {
            *cond = t;
        }
    }
}

/// The natural loops of `f` (one per header, its back edges merged) that
/// have a preheader.
fn natural_loops(f: &Function) -> Vec<Loop> {
    let preds = predecessors(f);
    let idom = dominators(f, &preds);
    let dominates = |h: usize, mut b: usize| loop {
        if b == h {
            return true;
        }
        match idom[b] {
            Some(d) if d != b => b = d,
            _ => return false,
        }
    };
    let mut loops = Vec::new();
    for h in 0..f.blocks.len() {
        let latches: Vec<usize> = preds[h]
            .iter()
            .copied()
            .filter(|&t| idom[t].is_some() && dominates(h, t))
            .collect();
        if latches.is_empty() {
            continue;
        }
        let mut inside = vec![false; f.blocks.len()];
        inside[h] = true;
        let mut stack = latches;
        while let Some(b) = stack.pop() {
            if !inside[b] {
                inside[b] = true;
                stack.extend(preds[b].iter().copied());
            }
        }
        let outside: Vec<usize> = preds[h].iter().copied().filter(|&p| !inside[p]).collect();
        if let [preheader] = outside[..] {
            let body = (0..f.blocks.len()).filter(|&b| inside[b]).collect();
            loops.push(Loop { body, preheader });
        }
    }
    loops
}

/// The immediate dominator of every block reachable from block 0 (block 0
/// is its own), by the iterative algorithm of Cooper, Harvey and Kennedy
/// over reverse postorder.
fn dominators(f: &Function, preds: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = f.blocks.len();
    let order = reverse_postorder(f);
    let mut rank = vec![usize::MAX; n];
    for (i, &b) in order.iter().enumerate() {
        rank[b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n == 0 {
        return idom;
    }
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(q) => intersect(&idom, &rank, p, q),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

/// The nearest common dominator of `a` and `b`.
fn intersect(idom: &[Option<usize>], rank: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rank[a] > rank[b] {
            a = idom[a].unwrap_or(0);
        }
        while rank[b] > rank[a] {
            b = idom[b].unwrap_or(0);
        }
    }
    a
}

/// The blocks reachable from block 0, in reverse postorder.
fn reverse_postorder(f: &Function) -> Vec<usize> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return post;
    }
    // (block, next successor to visit)
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        let succs = targets(f.blocks[b].term);
        if let Some(&s) = succs.get(*next) {
            *next += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Target;
    use crate::ifconv::tests::reg;

    fn inst(mnemonic: &str, ops: Vec<Opnd>) -> MInst {
        MInst::new(mnemonic, Target::Gfx90a, ops).unwrap()
    }

    /// 0 → 1: cbr c, 2, 3 / 2: `body`; br 1 / 3: ret, where `body` adds
    /// constants `k` (each set by a `v_mov_b32`) to `x`; the function and
    /// `x`.
    fn counting_loop(k: &[u32]) -> (Function, VReg) {
        let mut f = Function::new("k");
        for _ in 0..4 {
            f.add_block();
        }
        let c = f.new_vreg(RegClass::Vgpr, 1);
        let x = f.new_vreg(RegClass::Vgpr, 1);
        f.blocks[0].term = Terminator::Br(1);
        f.blocks[1].insts.push(inst(
            "v_and_b32_e64",
            vec![reg(c), Opnd::vgpr(0, 1), reg(x)],
        ));
        f.blocks[1].term = Terminator::CondBr {
            cond: c,
            then: 2,
            otherwise: 3,
        };
        for &v in k {
            let t = f.new_vreg(RegClass::Vgpr, 1);
            f.blocks[2]
                .insts
                .push(inst("v_mov_b32", vec![reg(t), Opnd::constant(v)]));
            f.blocks[2]
                .insts
                .push(inst("v_add_u32_e64", vec![reg(x), reg(x), reg(t)]));
        }
        f.blocks[2].term = Terminator::Br(1);
        (f, x)
    }

    fn names(f: &Function, b: usize) -> Vec<&'static str> {
        f.blocks[b].insts.iter().map(|i| i.def.mnemonic).collect()
    }

    #[test]
    fn a_constant_set_in_a_loop_moves_to_the_preheader() {
        let (mut f, _) = counting_loop(&[0x1234_5678]);
        constants(&mut f);
        assert_eq!(names(&f, 0), ["v_mov_b32"]);
        assert_eq!(names(&f, 2), ["v_add_u32_e64"]);
    }

    #[test]
    fn equal_constants_share_one_register() {
        let (mut f, _) = counting_loop(&[777, 777]);
        constants(&mut f);
        assert_eq!(names(&f, 0), ["v_mov_b32"]);
        let Opnd::Reg { reg: kept, .. } = f.blocks[0].insts[0].ops[0] else {
            panic!("no register");
        };
        assert!(f.blocks[2].insts.iter().all(|i| i.ops[2] == reg(kept)));
    }

    #[test]
    fn registers_written_twice_or_loops_without_preheader_stay() {
        let (mut f, x) = counting_loop(&[5]);
        f.blocks[2]
            .insts
            .push(inst("v_mov_b32", vec![reg(x), Opnd::constant(9)]));
        constants(&mut f);
        assert_eq!(names(&f, 0), ["v_mov_b32"]);
        assert_eq!(names(&f, 2), ["v_add_u32_e64", "v_mov_b32"]);
        // A second way into the header: no preheader.
        let (mut f, _) = counting_loop(&[5]);
        let other = f.add_block();
        f.blocks[other].term = Terminator::Br(1);
        f.blocks[0].term = Terminator::CondBr {
            cond: VReg(0),
            then: 1,
            otherwise: other,
        };
        constants(&mut f);
        assert!(f.blocks[0].insts.is_empty());
    }
}
