//! Register-allocation checker (run in debug builds by [`crate::compile`]).
//!
//! Simulates, along the machine CFG, whether each physical register still
//! holds what the allocation put there. Every dword of every virtual
//! register (and every ABI input register) is a *unit* with a status:
//! undefined (not written on any path so far), valid (written, and its
//! physical register not overwritten since on any path) or clobbered (on
//! some path written and then its physical register overwritten by
//! another unit or a fixed operand). At a join the worst status wins. A
//! read of a clobbered unit is an allocation error: on some path the
//! instruction reads a physical register that does not hold the virtual
//! register it expects. Undefined-on-a-path reads are no error (the
//! program reads a value it never wrote there).
//!
//! SGPR units flow along the wave's successors ([`MBlock::successors`]),
//! VGPR units along each lane's path ([`MBlock::lane_succs`]): a masked
//! VGPR write never reaches lanes that do not run its block (the same
//! edges the allocator's liveness uses). A call (`s_swappc_b64`)
//! clobbers every unit: values read after it must be restored.

use crate::exec::MBlock;
use crate::ir::{Function, MInst, Opnd, RegClass};
use crate::regalloc::{Allocation, is_copy};
use crate::{Error, Result};

/// Unit status; the join is the maximum.
const UNDEF: u8 = 0;
const VALID: u8 = 1;
const CLOBBERED: u8 = 2;

/// A physical register: class and number.
type Phys = (RegClass, u16);

/// The units of a function: where each lives and what it is called.
struct Units {
    /// First unit of each virtual register.
    base: Vec<usize>,
    /// Physical register of each unit.
    phys: Vec<Phys>,
    /// Printable name of each unit (`%7.1`, `input s4`).
    names: Vec<String>,
    /// Units per physical register.
    at: std::collections::HashMap<Phys, Vec<usize>>,
    /// Units from here on are ABI input registers.
    first_input: usize,
}

impl Units {
    fn new(f: &Function, alloc: &Allocation) -> Units {
        let mut u = Units {
            base: Vec::new(),
            phys: Vec::new(),
            names: Vec::new(),
            at: Default::default(),
            first_input: 0,
        };
        for (v, info) in f.vregs.iter().enumerate() {
            u.base.push(u.phys.len());
            for d in 0..u16::from(info.width) {
                u.push((info.class, alloc.phys[v] + d), format!("%{v}.{d}"));
            }
        }
        u.first_input = u.phys.len();
        for &s in &f.live_in_sgprs {
            u.push((RegClass::Sgpr, s), format!("input s{s}"));
        }
        for &v in &f.live_in_vgprs {
            u.push((RegClass::Vgpr, v), format!("input v{v}"));
        }
        u
    }

    fn push(&mut self, p: Phys, name: String) {
        self.at.entry(p).or_default().push(self.phys.len());
        self.phys.push(p);
        self.names.push(name);
    }

    /// The units an operand names (virtual dwords, or the input units of a
    /// fixed physical register), with their physical registers.
    fn of(&self, o: &Opnd) -> Vec<(Option<usize>, Phys)> {
        match *o {
            Opnd::Reg { reg, offset, width } => {
                let b = self.base[reg.0 as usize] + usize::from(offset);
                (b..b + usize::from(width))
                    .map(|u| (Some(u), self.phys[u]))
                    .collect()
            }
            Opnd::Fixed(amdgpu_isa::gfx9::Operand::Src { code, width }) => (0..u16::from(width))
                .filter_map(|d| fixed_phys(code + d))
                .map(|p| {
                    let us = self.at.get(&p).into_iter().flatten();
                    (us.copied().find(|&u| u >= self.first_input), p)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The allocatable physical register of a source code, if it is one.
fn fixed_phys(code: u16) -> Option<Phys> {
    if code < crate::regalloc::SGPR_LIMIT {
        Some((RegClass::Sgpr, code))
    } else if code >= 256 {
        Some((RegClass::Vgpr, code - 256))
    } else {
        None
    }
}

/// Runs one instruction on `state` (units of `class` only). Calls `bad`
/// with the unit of each read of a clobbered unit.
fn step(
    units: &Units,
    class: RegClass,
    inst: &MInst,
    state: &mut [u8],
    bad: &mut dyn FnMut(usize),
) {
    let ops: Vec<Vec<(Option<usize>, Phys)>> = inst.ops.iter().map(|o| units.of(o)).collect();
    for (i, us) in ops.iter().enumerate() {
        if inst.is_def(i) {
            continue;
        }
        for &(u, p) in us {
            if let Some(u) = u
                && p.0 == class
                && state[u] == CLOBBERED
            {
                bad(u);
            }
        }
    }
    // A copy into the register it copies from keeps the source valid.
    let same_copy = is_copy(inst.def.mnemonic)
        && ops.len() == 2
        && ops[0].iter().map(|x| x.1).eq(ops[1].iter().map(|x| x.1));
    for (i, us) in ops.iter().enumerate() {
        if !inst.is_def(i) {
            continue;
        }
        for &(u, p) in us {
            if p.0 != class {
                continue;
            }
            for &other in units.at.get(&p).into_iter().flatten() {
                let kept = same_copy && ops[1].iter().any(|x| x.0 == Some(other));
                if Some(other) != u && state[other] == VALID && !kept {
                    state[other] = CLOBBERED;
                }
            }
            if let Some(u) = u {
                state[u] = VALID;
            }
        }
    }
    // A call (`crate::calls`) may write every register: what is read
    // after it must have been restored.
    if inst.def.mnemonic == "s_swappc_b64" {
        for (u, s) in state.iter_mut().enumerate() {
            if units.phys[u].0 == class && *s == VALID {
                *s = CLOBBERED;
            }
        }
    }
}

/// Checks `alloc` for `blocks` (see the module docs).
pub fn check(f: &Function, blocks: &[MBlock], alloc: &Allocation) -> Result<()> {
    let units = Units::new(f, alloc);
    let n = blocks.len();
    let wave: Vec<Vec<usize>> = (0..n).map(|i| blocks[i].successors(i, n)).collect();
    let lane: Vec<Vec<usize>> = blocks.iter().map(|b| b.lane_succs.clone()).collect();
    for (class, succs) in [(RegClass::Sgpr, &wave), (RegClass::Vgpr, &lane)] {
        let entry = flow(&units, class, blocks, succs);
        for (bi, b) in blocks.iter().enumerate() {
            let Some(mut state) = entry[bi].clone() else {
                continue;
            };
            for (ii, inst) in b.insts.iter().enumerate() {
                let mut first = None;
                step(&units, class, inst, &mut state, &mut |u| {
                    first.get_or_insert(u);
                });
                if let Some(u) = first {
                    let (c, p) = units.phys[u];
                    let reg = match c {
                        RegClass::Sgpr => format!("s{p}"),
                        RegClass::Vgpr => format!("v{p}"),
                    };
                    return Err(Error::BadAllocation {
                        function: f.name.clone(),
                        inst: format!(
                            "{} (machine block {bi}, instruction {ii})",
                            inst.def.mnemonic
                        ),
                        reg,
                        expected: units.names[u].clone(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Unit states at each block entry (None: unreachable), to a fixpoint.
fn flow(
    units: &Units,
    class: RegClass,
    blocks: &[MBlock],
    succs: &[Vec<usize>],
) -> Vec<Option<Vec<u8>>> {
    let mut start = vec![UNDEF; units.phys.len()];
    for s in &mut start[units.first_input..] {
        *s = VALID;
    }
    let mut entry: Vec<Option<Vec<u8>>> = vec![None; blocks.len()];
    if blocks.is_empty() {
        return entry;
    }
    entry[0] = Some(start);
    let mut work = vec![0usize];
    while let Some(b) = work.pop() {
        let Some(mut state) = entry[b].clone() else {
            continue;
        };
        for inst in &blocks[b].insts {
            step(units, class, inst, &mut state, &mut |_| {});
        }
        for &s in &succs[b] {
            let changed = match &mut entry[s] {
                Some(e) => {
                    let mut changed = false;
                    for (x, &y) in e.iter_mut().zip(&state) {
                        if y > *x {
                            *x = y;
                            changed = true;
                        }
                    }
                    changed
                }
                slot @ None => {
                    *slot = Some(state.clone());
                    true
                }
            };
            if changed && !work.contains(&s) {
                work.push(s);
            }
        }
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Terminator, VReg};
    use amdgpu_isa::gfx9::Target;

    fn r(v: VReg) -> Opnd {
        Opnd::vreg(v, 1)
    }

    /// `a = v0; b = a + 1; (divergent if) c = a + b ...; store c`: `a` and
    /// `b` are live together, then `c` across a divergent branch.
    fn sample(t: Target) -> (Function, VReg, VReg) {
        let mut f = Function::new("k");
        let a = f.new_vreg(RegClass::Vgpr, 1);
        let b = f.new_vreg(RegClass::Vgpr, 1);
        let c = f.new_vreg(RegClass::Vgpr, 1);
        let addr = f.new_vreg(RegClass::Vgpr, 2);
        f.live_in_vgprs.push(0);
        let mov = MInst::new("v_mov_b32", t, vec![r(a), Opnd::vgpr(0, 1)]).unwrap();
        f.prologue.push(mov);
        let b0 = f.add_block();
        let b1 = f.add_block();
        let b2 = f.add_block();
        let add = |d, x, y| MInst::new("v_add_u32_e64", t, vec![r(d), x, y]).unwrap();
        let i0 = &mut f.blocks[b0].insts;
        i0.push(add(b, r(a), Opnd::constant(1)));
        i0.push(add(c, r(a), r(b)));
        let lo = Opnd::Reg {
            reg: addr,
            offset: 0,
            width: 1,
        };
        let hi = Opnd::Reg {
            reg: addr,
            offset: 1,
            width: 1,
        };
        i0.push(MInst::new("v_mov_b32", t, vec![lo, r(b)]).unwrap());
        i0.push(MInst::new("v_mov_b32", t, vec![hi, Opnd::constant(0)]).unwrap());
        f.blocks[b0].term = Terminator::CondBr {
            cond: b,
            then: b1,
            otherwise: b2,
        };
        for _ in 0..=crate::ifconv::MAX_ARM {
            f.blocks[b1].insts.push(add(c, r(c), r(a)));
        }
        f.blocks[b1].term = Terminator::Br(b2);
        let wide = Opnd::Reg {
            reg: addr,
            offset: 0,
            width: 2,
        };
        let store = MInst::new("global_store_dword", t, vec![wide, r(c), Opnd::off()]).unwrap();
        f.blocks[b2].insts.push(store);
        (f, a, b)
    }

    fn lowered(t: Target) -> (Function, Vec<MBlock>, Allocation, VReg, VReg) {
        let (mut f, a, b) = sample(t);
        crate::ifconv::convert(&mut f, t).unwrap();
        let mut blocks = crate::exec::lower(&mut f, t).unwrap();
        let alloc = crate::regalloc::allocate(&mut f, &mut blocks, t).unwrap();
        (f, blocks, alloc, a, b)
    }

    #[test]
    fn correct_allocation_passes() {
        for t in [Target::Gfx900, Target::Gfx90a] {
            let (f, blocks, alloc, _, _) = lowered(t);
            check(&f, &blocks, &alloc).unwrap();
        }
    }

    #[test]
    fn overlapping_vregs_in_one_register_are_caught() {
        for t in [Target::Gfx900, Target::Gfx90a] {
            let (f, blocks, mut alloc, a, b) = lowered(t);
            assert_ne!(alloc.phys[a.0 as usize], alloc.phys[b.0 as usize]);
            // `b` is written while `a` is live: giving it `a`'s register
            // clobbers `a` before `c = a + b` reads it.
            alloc.phys[b.0 as usize] = alloc.phys[a.0 as usize];
            let err = check(&f, &blocks, &alloc).unwrap_err();
            let Error::BadAllocation {
                function, expected, ..
            } = &err
            else {
                panic!("{err}");
            };
            assert_eq!(function, "k");
            assert_eq!(expected, &format!("%{}.0", a.0), "{err}");
        }
    }

    #[test]
    fn clobbered_input_register_is_caught() {
        let t = Target::Gfx90a;
        let (f, mut blocks, mut alloc, a, b) = lowered(t);
        // Write `b` into v0 before the prologue's copy of input v0 to `a`.
        let at = blocks[0]
            .insts
            .iter()
            .position(|i| i.ops.get(1) == Some(&Opnd::vgpr(0, 1)))
            .unwrap();
        assert_eq!(blocks[0].insts[at].ops[0], r(a));
        let early = MInst::new("v_mov_b32", t, vec![r(b), Opnd::constant(7)]).unwrap();
        blocks[0].insts.insert(at, early);
        alloc.phys[b.0 as usize] = 200;
        check(&f, &blocks, &alloc).unwrap();
        alloc.phys[b.0 as usize] = 0;
        let err = check(&f, &blocks, &alloc).unwrap_err();
        let Error::BadAllocation { reg, expected, .. } = &err else {
            panic!("{err}");
        };
        assert_eq!((reg.as_str(), expected.as_str()), ("v0", "input v0"));
    }
}
