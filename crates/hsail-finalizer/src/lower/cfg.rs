//! Control-flow graph checks and layout: irreducible code blocks are
//! refused (for now), and kernels grown by inlining are laid out in
//! reverse post-order.

use amdgpu_codegen::{Block, Function, Terminator};
use brig::{BrigModule, BrigOpcode, Operand, OperandOffset};
use hsail::validate::CodeBlock;

use crate::{Locator, Result};

/// Depth-first post-order of the nodes reachable from node 0 of a graph
/// with `n` nodes and successor lists `succ`, and which nodes it reached.
fn post_order(n: usize, succ: &dyn Fn(usize) -> Vec<usize>) -> (Vec<usize>, Vec<bool>) {
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    if n == 0 {
        return (post, seen);
    }
    let mut stack = vec![(0usize, succ(0), 0usize)];
    seen[0] = true;
    while let Some((b, out, k)) = stack.last_mut() {
        match out.get(*k).copied() {
            Some(s) => {
                *k += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, succ(s), 0));
                }
            }
            None => {
                post.push(*b);
                stack.pop();
            }
        }
    }
    (post, seen)
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iteration over the
/// reverse post-order); `None` for unreachable nodes, node 0 its own.
fn idoms(n: usize, succ: &dyn Fn(usize) -> Vec<usize>) -> Vec<Option<usize>> {
    let (post, _) = post_order(n, succ);
    let mut rank = vec![usize::MAX; n];
    for (i, &b) in post.iter().rev().enumerate() {
        rank[b] = i;
    }
    let mut preds = vec![Vec::new(); n];
    for &b in &post {
        for s in succ(b) {
            preds[s].push(b);
        }
    }
    let mut idom = vec![None; n];
    if n > 0 {
        idom[0] = Some(0);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &p in preds[b].iter().filter(|&&p| idom[p].is_some()) {
                new = Some(match new {
                    None => p,
                    Some(mut x) => {
                        let mut y = p;
                        while x != y {
                            while rank[x] > rank[y] {
                                x = idom[x].unwrap_or(0);
                            }
                            while rank[y] > rank[x] {
                                y = idom[y].unwrap_or(0);
                            }
                        }
                        x
                    }
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

/// Whether `a` dominates `b` (both reachable).
fn dominates(idom: &[Option<usize>], a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    }
}

/// A block ending a cycle that is entered other than through one header
/// (the graph of `n` nodes from node 0 is irreducible), if any.
fn irreducible_block(n: usize, succ: &dyn Fn(usize) -> Vec<usize>) -> Option<usize> {
    let idom = idoms(n, succ);
    // Without its back edges (to a dominator) a reducible graph is
    // acyclic: a remaining cycle shows up in post-order as an edge to a
    // node that is not finished earlier.
    let forward = |b: usize| -> Vec<usize> {
        succ(b)
            .into_iter()
            .filter(|&s| !dominates(&idom, s, b))
            .collect()
    };
    let (post, _) = post_order(n, &forward);
    let mut rank = vec![usize::MAX; n];
    for (i, &b) in post.iter().enumerate() {
        rank[b] = i;
    }
    post.into_iter()
        .find(|&b| forward(b).into_iter().any(|s| rank[s] >= rank[b]))
}

/// A located error (at the branch closing the cycle) if the control-flow
/// graph of `cb` is irreducible. The back end's EXEC linearization would
/// run it, but such code is not supported yet.
pub(super) fn check_reducible(m: &BrigModule<'_>, loc: &Locator<'_>, cb: &CodeBlock) -> Result<()> {
    let n = cb.blocks.len();
    let succ = |b: usize| -> Vec<usize> {
        cb.blocks[b]
            .successors
            .iter()
            .copied()
            .filter(|&s| s < n)
            .collect()
    };
    let Some(b) = irreducible_block(n, &succ) else {
        return Ok(());
    };
    let last = cb.instructions[cb.blocks[b].end - 1];
    let name = m
        .code(cb.directive)
        .ok()
        .and_then(|c| c.executable().and_then(|e| m.string(e.name).ok()))
        .unwrap_or(&cb.name);
    Err(loc.unsupported(
        format!(
            "irreducible control flow in `{name}` (a loop entered other than through its first block)"
        ),
        last.get(),
    ))
}

/// Whether a branch (`br`, `cbr`, `sbr`) of `cb` names one of `labels`.
pub(super) fn branches_to_any(m: &BrigModule<'_>, cb: &CodeBlock, labels: &[u32]) -> bool {
    if labels.is_empty() {
        return false;
    }
    let names = |o: &OperandOffset| -> Vec<u32> {
        match m.operand(*o) {
            Ok(Operand::CodeRef(c)) => vec![c.ref_.get()],
            Ok(Operand::CodeList(l)) => m
                .code_list(l.elements)
                .unwrap_or_default()
                .iter()
                .map(|c| c.get())
                .collect(),
            _ => Vec::new(),
        }
    };
    cb.instructions.iter().any(|&at| {
        let Some(inst) = m.code(at).ok().and_then(|c| c.inst()) else {
            return false;
        };
        matches!(
            inst.opcode,
            BrigOpcode::BR | BrigOpcode::CBR | BrigOpcode::SBR
        ) && m
            .operand_list(inst.operands)
            .unwrap_or_default()
            .iter()
            .flat_map(names)
            .any(|l| labels.contains(&l))
    })
}

/// The blocks a lane may go to after a block.
fn successors(t: &Terminator) -> Vec<usize> {
    match *t {
        Terminator::Ret => Vec::new(),
        Terminator::Br(b) => vec![b],
        Terminator::CondBr {
            then, otherwise, ..
        } => vec![then, otherwise],
    }
}

/// `t` with every target block `b` replaced by `f(b)`.
pub(super) fn map_targets(t: Terminator, f: impl Fn(usize) -> usize) -> Terminator {
    match t {
        Terminator::Ret => Terminator::Ret,
        Terminator::Br(b) => Terminator::Br(f(b)),
        Terminator::CondBr {
            cond,
            then,
            otherwise,
        } => Terminator::CondBr {
            cond,
            then: f(then),
            otherwise: f(otherwise),
        },
    }
}

/// Lays the blocks of `f` out in reverse post-order from the entry (so
/// the continuation of a call follows the inlined callee and the blocks
/// of a switch chain precede their targets); unreachable blocks go last.
pub(super) fn layout_rpo(f: &mut Function) {
    let n = f.blocks.len();
    let terms: Vec<Terminator> = f.blocks.iter().map(|b| b.term).collect();
    let (post, seen) = post_order(n, &|b| successors(&terms[b]));
    let mut order: Vec<usize> = post.into_iter().rev().collect();
    order.extend((0..n).filter(|&b| !seen[b]));
    let mut new_index = vec![0; n];
    for (i, &b) in order.iter().enumerate() {
        new_index[b] = i;
    }
    let mut old: Vec<Option<Block>> = std::mem::take(&mut f.blocks)
        .into_iter()
        .map(Some)
        .collect();
    for &b in &order {
        let Some(mut block) = old[b].take() else {
            continue;
        };
        block.term = map_targets(block.term, |t| new_index[t]);
        f.blocks.push(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn irreducible(edges: &[&[usize]]) -> Option<usize> {
        irreducible_block(edges.len(), &|b| edges[b].to_vec())
    }

    #[test]
    fn reducible_graphs_pass() {
        // Straight line, diamond, self loop, while loop, nested loops,
        // loop with two exits, unreachable cycle.
        let graphs: [&[&[usize]]; 7] = [
            &[&[1], &[2], &[]],
            &[&[1, 2], &[3], &[3], &[]],
            &[&[0, 1], &[]],
            &[&[1], &[2, 3], &[1], &[]],
            &[&[1], &[2], &[2, 3], &[1, 4], &[]],
            &[&[1], &[2, 4], &[1, 3, 4], &[], &[]],
            &[&[], &[2], &[1]],
        ];
        for g in graphs {
            assert_eq!(irreducible(g), None, "{g:?}");
        }
    }

    #[test]
    fn a_loop_with_two_entries_is_irreducible() {
        // 0 → 1 and 0 → 2, with 1 ⇄ 2.
        assert!(irreducible(&[&[1, 2], &[2], &[1]]).is_some());
        // The same inside an outer loop.
        assert!(irreducible(&[&[1], &[2, 3], &[3, 4], &[2, 1], &[]]).is_some());
    }

    #[test]
    fn dominators_of_a_diamond() {
        let edges: [&[usize]; 4] = [&[1, 2], &[3], &[3], &[]];
        let idom = idoms(4, &|b| edges[b].to_vec());
        assert_eq!(idom, [Some(0), Some(0), Some(0), Some(0)]);
        assert!(dominates(&idom, 0, 3));
        assert!(!dominates(&idom, 1, 3));
    }
}
