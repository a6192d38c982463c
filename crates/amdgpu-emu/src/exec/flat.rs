//! FLAT, GLOBAL and SCRATCH memory instructions: flat addresses routed to
//! global memory, the group aperture (LDS) or the private aperture
//! (scratch), and the global/scratch forms.

use amdgpu_isa::gfx9::{Op, Operand};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a FLAT/GLOBAL/SCRATCH instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::GLOBAL_LOAD_DWORD => exec_global_load_dword,
        Op::GLOBAL_STORE_DWORD => exec_global_store_dword,
        _ => return None,
    })
}

/// Per-lane addresses of a GLOBAL instruction: VADDR (64-bit) + offset, or
/// SADDR (64-bit SGPR pair) + VADDR (32-bit) + offset.
fn global_addresses(w: &Wave, d: &Decoded, vaddr: usize, saddr: usize) -> [u64; LANES] {
    let off = d.inst.mods.offset as i64 as u64;
    let mut out = [0u64; LANES];
    match d.op(saddr) {
        Operand::Off => {
            let a = w.lanes64(d.op(vaddr), Ty::B64);
            for l in 0..LANES {
                out[l] = a[l].wrapping_add(off);
            }
        }
        s => {
            let base = w.scalar(s, Ty::B64).unwrap_or(0);
            let a = w.lanes(d.op(vaddr), Ty::B32);
            for l in 0..LANES {
                out[l] = base.wrapping_add(u64::from(a[l])).wrapping_add(off);
            }
        }
    }
    out
}

/// VDST = MEM[ADDR].u32.
fn exec_global_load_dword(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let addr = global_addresses(w, d, 1, 2);
    let exec = w.exec();
    let mut r = w.lanes(d.op(0), Ty::B32);
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            r[l] = c.mem.load_u32(addr[l])?;
        }
    }
    w.write_lanes(d.op(0), &r);
    Ok(())
}

/// MEM[ADDR].u32 = VDATA.
fn exec_global_store_dword(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let addr = global_addresses(w, d, 0, 2);
    let data = w.lanes(d.op(1), Ty::B32);
    let exec = w.exec();
    for l in 0..LANES {
        if exec >> l & 1 != 0 {
            c.mem.store_u32(addr[l], data[l])?;
        }
    }
    Ok(())
}
