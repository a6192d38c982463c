//! Scalar ALU and program control: SOP1, SOP2, SOPK, SOPC, SOPP.

use amdgpu_isa::gfx9::Op;

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a scalar instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::S_MOV_B32 => exec_s_mov_b32,
        Op::S_AND_B32 => exec_s_and_b32,
        Op::S_MUL_I32 => exec_s_mul_i32,
        Op::S_AND_SAVEEXEC_B64 => exec_s_and_saveexec_b64,
        Op::S_NOP | Op::S_WAITCNT => exec_s_nop,
        Op::S_ENDPGM => exec_s_endpgm,
        Op::S_BRANCH => exec_s_branch,
        Op::S_CBRANCH_EXECZ => exec_s_cbranch_execz,
        _ => return None,
    })
}

fn src32(w: &Wave, d: &Decoded, i: usize) -> u32 {
    w.scalar(d.op(i), Ty::B32).unwrap_or(0) as u32
}

fn src64(w: &Wave, d: &Decoded, i: usize) -> u64 {
    w.scalar(d.op(i), Ty::B64).unwrap_or(0)
}

/// Branch to the instruction `simm16` dwords after the next one.
fn branch(w: &mut Wave, d: &Decoded) {
    if let amdgpu_isa::gfx9::Operand::Imm(off) = *d.op(0) {
        w.pc = w.pc.wrapping_add((i64::from(off as i16) * 4) as u64);
    }
}

/// D = S0.
fn exec_s_mov_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = src32(w, d, 1);
    w.write_scalar(d.op(0), u64::from(v), false);
    Ok(())
}

/// D = S0 & S1; SCC = D != 0.
fn exec_s_and_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = src32(w, d, 1) & src32(w, d, 2);
    w.write_scalar(d.op(0), u64::from(v), false);
    w.scc = v != 0;
    Ok(())
}

/// D = S0 * S1 (low 32 bits).
fn exec_s_mul_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = src32(w, d, 1).wrapping_mul(src32(w, d, 2));
    w.write_scalar(d.op(0), u64::from(v), false);
    Ok(())
}

/// D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0.
fn exec_s_and_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let s0 = src64(w, d, 1);
    let old = w.exec();
    w.write_scalar(d.op(0), old, true);
    let e = s0 & old;
    w.set_exec(e);
    w.scc = e != 0;
    Ok(())
}

/// No effect (the emulator completes memory operations in order, so
/// waiting on counters is a no-op).
fn exec_s_nop(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

/// End the wave.
fn exec_s_endpgm(w: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    w.ended = true;
    Ok(())
}

/// PC = PC + 4 + simm16 * 4.
fn exec_s_branch(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    branch(w, d);
    Ok(())
}

/// Branch if EXEC == 0.
fn exec_s_cbranch_execz(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if w.exec() == 0 {
        branch(w, d);
    }
    Ok(())
}
