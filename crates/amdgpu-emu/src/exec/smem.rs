//! Scalar memory: SMEM loads, stores and cache controls.

use amdgpu_isa::gfx9::{Op, Operand};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a scalar memory instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::S_LOAD_DWORD
        | Op::S_LOAD_DWORDX2
        | Op::S_LOAD_DWORDX4
        | Op::S_LOAD_DWORDX8
        | Op::S_LOAD_DWORDX16 => exec_s_load_dwordxn,
        _ => return None,
    })
}

/// The byte address of an SMEM access: base + offset (immediate or SGPR).
fn address(w: &Wave, d: &Decoded) -> u64 {
    let base = w.scalar(d.op(1), Ty::B64).unwrap_or(0) & 0xffff_ffff_ffff;
    let off = match *d.op(2) {
        Operand::Imm(i) => i as u64,
        ref o => w.scalar(o, Ty::B32).unwrap_or(0),
    };
    base.wrapping_add(off)
}

/// SDST[0..n] = MEM[SBASE + OFFSET] (dword-aligned: the low two address bits are ignored).
fn exec_s_load_dwordxn(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let addr = address(w, d) & !3;
    let Operand::Src { code, width } = *d.op(0) else {
        return Ok(());
    };
    let mut buf = [0u32; 16];
    let n = usize::from(width).min(16);
    c.mem.load_dwords(addr, &mut buf[..n])?;
    for (i, v) in buf[..n].iter().enumerate() {
        let r = usize::from(code) + i;
        if r < 128 {
            w.s[r] = *v;
        }
    }
    Ok(())
}
