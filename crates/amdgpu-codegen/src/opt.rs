//! Clean-ups on wave-level machine blocks.

use std::collections::HashSet;

use amdgpu_isa::gfx9::Family;

use crate::exec::MBlock;
use crate::ir::{MInst, Opnd, VReg};

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
