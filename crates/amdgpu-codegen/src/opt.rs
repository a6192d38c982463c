//! Clean-ups: on the lane-level IR (copies) and on wave-level machine
//! blocks (dead results).

use std::collections::{HashMap, HashSet};

use amdgpu_isa::gfx9::Family;

use crate::exec::MBlock;
use crate::ir::{Function, MInst, Opnd, RegClass, Terminator, VReg};

/// Removes vector ALU instructions whose results are never read (for
/// example the 0/1 value of a condition the branch now takes from its lane
/// mask), until none is left. Only instructions that write nothing but
/// virtual registers, touch no memory and have no implicit results are
/// candidates.
pub fn remove_dead(blocks: &mut [MBlock]) {
    loop {
        let mut read: HashSet<VReg> = HashSet::new();
        for inst in blocks.iter().flat_map(|b| &b.insts) {
            for (k, o) in inst.ops.iter().enumerate() {
                if let Opnd::Reg { reg, .. } = o
                    && !inst.is_def(k)
                {
                    read.insert(*reg);
                }
            }
        }
        let mut removed = false;
        for b in blocks.iter_mut() {
            b.insts.retain(|inst| {
                let dead = is_pure(inst)
                    && inst.ops.iter().enumerate().all(|(k, o)| {
                        !inst.is_def(k) || matches!(o, Opnd::Reg { reg, .. } if !read.contains(reg))
                    });
                removed |= dead;
                !dead
            });
        }
        if !removed {
            return;
        }
    }
}

/// Whether `inst` is a vector ALU instruction whose only effect is its
/// explicit register results.
fn is_pure(inst: &MInst) -> bool {
    let has_def = (0..inst.ops.len()).any(|k| inst.is_def(k));
    let implicit = match inst.def.family {
        Family::Vop1 | Family::Vop3 | Family::Vop3p => false,
        // 32-bit VOP2 carry-out/-in forms read or write VCC implicitly.
        Family::Vop2 => inst.def.mnemonic.contains("_co_"),
        _ => true,
    };
    has_def && !implicit
}

/// Writes results straight into the register they are copied to: when a
/// dword `t` is written once (by `p`) and read once, by `v_mov_b32 d, t`
/// later in the same block, and nothing between reads or writes `d`'s
/// dword or EXEC, `p` writes `d` and the copy goes. (The front end computes
/// into fresh temporaries so that a destination may also be a source.)
pub fn forward_copies(f: &mut Function) {
    // Reads and writes of every dword of every virtual register.
    let mut reads: HashMap<(VReg, u8), u32> = HashMap::new();
    let mut writes: HashMap<(VReg, u8), u32> = HashMap::new();
    let count = |inst: &MInst,
                 reads: &mut HashMap<(VReg, u8), u32>,
                 writes: &mut HashMap<(VReg, u8), u32>| {
        for (k, o) in inst.ops.iter().enumerate() {
            if let Opnd::Reg { reg, offset, width } = *o {
                let map = if inst.is_def(k) {
                    &mut *writes
                } else {
                    &mut *reads
                };
                for d in offset..offset + width {
                    *map.entry((reg, d)).or_default() += 1;
                }
            }
        }
    };
    for inst in f
        .prologue
        .iter()
        .chain(f.blocks.iter().flat_map(|b| &b.insts))
    {
        count(inst, &mut reads, &mut writes);
    }
    for b in &f.blocks {
        if let Terminator::CondBr { cond, .. } = b.term {
            *reads.entry((cond, 0)).or_default() += 1;
        }
    }
    let vgpr = |f: &Function, r: VReg| f.info(r).class == RegClass::Vgpr;
    for bi in 0..f.blocks.len() {
        let mut c = 0;
        while c < f.blocks[bi].insts.len() {
            let insts = &f.blocks[bi].insts;
            let copy = &insts[c];
            let (
                Some(&Opnd::Reg {
                    reg: d,
                    offset: od,
                    width: 1,
                }),
                Some(&Opnd::Reg {
                    reg: t,
                    offset: ot,
                    width: 1,
                }),
            ) = (copy.ops.first(), copy.ops.get(1))
            else {
                c += 1;
                continue;
            };
            let single = reads.get(&(t, ot)) == Some(&1) && writes.get(&(t, ot)) == Some(&1);
            if copy.def.mnemonic != "v_mov_b32" || d == t || !single || !vgpr(f, d) || !vgpr(f, t) {
                c += 1;
                continue;
            }
            let writes_t = |inst: &MInst| {
                inst.ops.iter().enumerate().any(|(k, o)| {
                    inst.is_def(k) && matches!(*o, Opnd::Reg { reg, offset, width: 1 } if reg == t && offset == ot)
                })
            };
            let Some(p) = insts[..c].iter().rposition(writes_t) else {
                c += 1;
                continue;
            };
            let touches_d = |inst: &MInst| {
                inst.ops.iter().any(|o| {
                    matches!(*o, Opnd::Reg { reg, offset, width } if reg == d && (offset..offset + width).contains(&od))
                })
            };
            let between = &insts[p + 1..c];
            let exec = |inst: &MInst| crate::uniform::writes_exec(inst);
            if between.iter().any(|i| touches_d(i) || exec(i)) || exec(&insts[p]) {
                c += 1;
                continue;
            }
            let insts = &mut f.blocks[bi].insts;
            for o in insts[p].ops.iter_mut() {
                if matches!(*o, Opnd::Reg { reg, offset, width: 1 } if reg == t && offset == ot) {
                    *o = Opnd::Reg {
                        reg: d,
                        offset: od,
                        width: 1,
                    };
                }
            }
            insts.remove(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Target;

    fn dw(reg: VReg, offset: u8) -> Opnd {
        Opnd::Reg {
            reg,
            offset,
            width: 1,
        }
    }

    #[test]
    fn a_temporary_copied_once_is_written_in_place() {
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        f.add_block();
        let d = f.new_vreg(RegClass::Vgpr, 2);
        let tmp = f.new_vreg(RegClass::Vgpr, 1);
        let other = f.new_vreg(RegClass::Vgpr, 1);
        let add = |dst, a| MInst::new("v_add_u32_e64", t, vec![dst, a, Opnd::constant(1)]).unwrap();
        let mov = |dst, src| MInst::new("v_mov_b32", t, vec![dst, src]).unwrap();
        let b = &mut f.blocks[0].insts;
        b.push(add(dw(tmp, 0), dw(d, 0))); // tmp = d.lo + 1
        b.push(add(dw(other, 0), dw(d, 1))); // reads d.hi only
        b.push(mov(dw(d, 0), dw(tmp, 0))); // d.lo = tmp
        forward_copies(&mut f);
        assert_eq!(f.blocks[0].insts.len(), 2);
        assert_eq!(f.blocks[0].insts[0].ops[0], dw(d, 0));

        // A read of the destination in between keeps the copy.
        let b = &mut f.blocks[0].insts;
        b.clear();
        b.push(add(dw(tmp, 0), dw(d, 1)));
        b.push(add(dw(other, 0), dw(d, 0)));
        b.push(mov(dw(d, 0), dw(tmp, 0)));
        forward_copies(&mut f);
        assert_eq!(f.blocks[0].insts.len(), 3);
    }
}
