//! Real calls between the functions of one compile unit (the finalizer
//! inlines every other call): an internal ABI, simple rather than fast.
//!
//! - **Stack.** Each lane has a stack in its private (scratch) memory.
//!   The stack pointer `SP` is the wave-uniform SGPR [`SP`]: the private
//!   offset of the running function's frame. A kernel's frame starts at 0
//!   (its private variables, spill slots, ...); a callee's frame starts
//!   where its caller's ends. Frame layout is the front end's choice plus
//!   the slots added here and by the spiller, all addressed as `SP +
//!   offset` (`scratch_*` with `saddr`), so frames nest.
//! - **Call.** The front end puts the call pseudo-instruction ([`call`])
//!   in a block of its own; [`expand`] turns it into
//!   `SP += frame; s_getpc_b64; s_add_u32/s_addc_u32 (or s_sub_u32/
//!   s_subb_u32 backwards: PC-relative to the callee, [`Link::Callee`]); s_swappc_b64 RA, target; SP -= frame`,
//!   where `frame` is the caller's final frame size ([`Link::FrameSize`],
//!   known after register allocation). The call is made under the
//!   caller's EXEC: every lane in EXEC calls, together. EXEC is never
//!   zero there: the exec lowering enters a block only with lanes waiting
//!   for it, and if-conversion leaves blocks with calls alone (the pseudo
//!   names `exec`), so a recursion whose lanes stop at different depths
//!   ends: the recursive call's block is simply not entered any more.
//! - **Registers.** All caller-saved: every virtual register live across a
//!   call is stored to a slot of the caller's frame before it and loaded
//!   back after it (SGPRs through a VGPR, `v_readfirstlane_b32`). A callee
//!   writes VGPRs only in the lanes of its entry EXEC, so the values of
//!   the other lanes stay where they are. For the same reason functions
//!   with calls spill no SGPR to VGPR lanes (`v_writelane` ignores EXEC).
//!   The registers of this ABI ([`RA`], [`TARGET`], [`SP`], [`TEMP`]) are
//!   never allocated.
//! - **Callee.** [`prepare`] gives it a prologue keeping the return
//!   address and the entry EXEC in virtual registers, checking that its
//!   frame fits under the stack limit (else `s_trap` [`STACK_OVERFLOW_TRAP`]),
//!   and an epilogue (its `END` block) restoring EXEC and returning with
//!   `s_setpc_b64`. Lanes that return early wait there for the others.
//!   Arguments and results are the front end's business (it passes them
//!   in memory at the start of the callee's frame).

use std::collections::HashMap;

use amdgpu_isa::gfx9::Operand;

use crate::exec::MBlock;
use crate::ir::{FRAME_PLACEHOLDER, Function, Link, MInst, Opnd, RegClass, VReg};
use crate::regalloc::{Bits, for_units, liveness_of};
use crate::{Result, Target};

/// Return address pair `s[88:89]` (written by `s_swappc_b64`).
pub const RA: u16 = 88;
/// Call target pair `s[90:91]`.
pub const TARGET: u16 = 90;
/// The stack pointer `s92`.
pub const SP: u16 = 92;
/// A scratch SGPR of the call sequences, `s93`.
pub const TEMP: u16 = 93;
/// SGPRs from this one up are not allocated in functions with calls.
pub const RESERVED_SGPRS: u16 = 88;
/// One past the last SGPR of the ABI.
pub const ABI_SGPR_END: u16 = 94;
/// The `s_trap` ID of a stack overflow.
pub const STACK_OVERFLOW_TRAP: i64 = 0x5c;

/// Whether `f` runs on the call stack: it is a callee or makes calls.
pub fn uses_stack(f: &Function) -> bool {
    f.callee.is_some() || f.makes_calls
}

/// The call pseudo-instruction: a call to function `callee` of the compile
/// unit (an index the linker resolves, see [`crate::link`]).
pub fn call(target: Target, callee: u32) -> Result<MInst> {
    let mut i = MInst::new(
        "s_swappc_b64",
        target,
        vec![Opnd::sgpr(RA, 2), Opnd::exec()],
    )?;
    i.link = Some(Link::Callee(callee));
    Ok(i)
}

/// An instruction whose [`FRAME_PLACEHOLDER`] literal becomes the frame
/// size.
fn framed(target: Target, mn: &str, ops: Vec<Opnd>) -> Result<MInst> {
    let mut i = MInst::new(mn, target, ops)?;
    i.link = Some(Link::FrameSize);
    Ok(i)
}

/// The frame size placeholder operand.
pub fn frame_size() -> Opnd {
    Opnd::Fixed(Operand::Literal(FRAME_PLACEHOLDER))
}

/// `dst = SP + frame size`: where a callee's frame starts (its arguments).
pub fn callee_frame(target: Target, dst: Opnd) -> Result<MInst> {
    framed(
        target,
        "s_add_u32",
        vec![dst, Opnd::sgpr(SP, 1), frame_size()],
    )
}

/// Sets up the call ABI of `f` before the other passes: the kernel's
/// stack pointer, or a callee's prologue and epilogue.
pub fn prepare(f: &mut Function, target: Target) -> Result<()> {
    f.makes_calls = f.blocks.iter().flat_map(|b| &b.insts).any(MInst::is_call);
    if !uses_stack(f) {
        return Ok(());
    }
    let ins = |mn: &str, ops| MInst::new(mn, target, ops);
    let Some(limit) = f.callee else {
        let sp = ins("s_mov_b32", vec![Opnd::sgpr(SP, 1), Opnd::constant(0)])?;
        f.prologue.insert(0, sp);
        return Ok(());
    };
    let ra = f.new_vreg(RegClass::Sgpr, 2);
    let entry = f.new_vreg(RegClass::Sgpr, 2);
    let pair = |v: VReg| Opnd::vreg(v, 2);
    let temp = Opnd::sgpr(TEMP, 1);
    let pro = vec![
        ins("s_mov_b64", vec![pair(ra), Opnd::sgpr(RA, 2)])?,
        ins("s_mov_b64", vec![pair(entry), Opnd::exec()])?,
        // Stack overflow: SP + frame > limit.
        framed(
            target,
            "s_add_u32",
            vec![temp, Opnd::sgpr(SP, 1), frame_size()],
        )?,
        ins(
            "s_cmp_gt_u32",
            vec![temp, Opnd::Fixed(Operand::Literal(limit))],
        )?,
        ins("s_cbranch_scc0", vec![Opnd::imm(1)])?,
        ins("s_trap", vec![Opnd::imm(STACK_OVERFLOW_TRAP)])?,
    ];
    f.prologue.splice(0..0, pro);
    f.epilogue = vec![
        ins("s_mov_b64", vec![Opnd::exec(), pair(entry)])?,
        ins("s_setpc_b64", vec![pair(ra)])?,
    ];
    Ok(())
}

/// Replaces every call pseudo-instruction of the machine blocks by its
/// sequence, with the registers live across it saved before and restored
/// after (see the module docs). Runs after EXEC lowering, before register
/// allocation; adds the save slots to `f.private_size`.
pub fn expand(f: &mut Function, blocks: &mut [MBlock], target: Target) -> Result<()> {
    let mut slots: HashMap<VReg, u32> = HashMap::new();
    // The last call first: liveness sees the expanded calls after it.
    while let Some((bi, at, callee)) = last_call(blocks) {
        let live = liveness_of(f, blocks);
        let b = &mut blocks[bi];
        // Units live after the call: backwards from the block's end.
        let mut after = Bits(live.live_out[bi].0.clone());
        for inst in b.insts[at + 1..].iter().rev() {
            for (i, o) in inst.ops.iter().enumerate() {
                if inst.is_def(i) {
                    for_units(&live.base, o, |u| after.0[u / 64] &= !(1 << (u % 64)));
                }
            }
            for (i, o) in inst.ops.iter().enumerate() {
                if !inst.is_def(i) {
                    for_units(&live.base, o, |u| after.set(u));
                }
            }
        }
        let saved: Vec<VReg> = (0..f.vregs.len())
            .filter(|&v| {
                let w = usize::from(f.vregs[v].width);
                (live.base[v]..live.base[v] + w).any(|u| after.get(u))
            })
            .map(|v| VReg(v as u32))
            .collect();
        let mut seq = Vec::new();
        let mut back = Vec::new();
        for &v in &saved {
            let next = f.private_size.next_multiple_of(4);
            let slot = *slots.entry(v).or_insert_with(|| {
                f.private_size = next + 4 * u32::from(f.vregs[v.0 as usize].width);
                next
            });
            save(f, target, v, slot, &mut seq, &mut back)?;
        }
        let area = b.insts[at].ops.get(2).copied();
        seq.extend(call_sequence(f, target, callee, callee <= f.unit, area)?);
        seq.extend(back);
        b.insts.splice(at..=at, seq);
    }
    Ok(())
}

/// The block, position and callee of the last call pseudo-instruction.
fn last_call(blocks: &[MBlock]) -> Option<(usize, usize, u32)> {
    blocks.iter().enumerate().rev().find_map(|(bi, b)| {
        b.insts
            .iter()
            .enumerate()
            .rev()
            .find_map(|(at, i)| match i.link {
                Some(Link::Callee(k)) if i.is_call() => Some((bi, at, k)),
                _ => None,
            })
    })
}

/// The stack slot operands `saddr` (and the immediate offset) of `slot`.
fn slot_address(target: Target, slot: u32, pre: &mut Vec<MInst>) -> Result<(Opnd, i32)> {
    if slot < 4096 {
        return Ok((Opnd::sgpr(SP, 1), slot as i32));
    }
    pre.push(MInst::new(
        "s_add_u32",
        target,
        vec![Opnd::sgpr(TEMP, 1), Opnd::sgpr(SP, 1), Opnd::constant(slot)],
    )?);
    Ok((Opnd::sgpr(TEMP, 1), 0))
}

/// Appends the save of `v` to `slot` to `seq` and its restore to `back`.
fn save(
    f: &mut Function,
    target: Target,
    v: VReg,
    slot: u32,
    seq: &mut Vec<MInst>,
    back: &mut Vec<MInst>,
) -> Result<()> {
    let info = f.info(v);
    let w = info.width;
    let reg = |reg: VReg, offset: u8, width: u8| Opnd::Reg { reg, offset, width };
    // The VGPR (tuple) stored: `v` itself, or a copy of an SGPR tuple.
    let data = match info.class {
        RegClass::Vgpr => v,
        RegClass::Sgpr => {
            let t = f.new_vreg(RegClass::Vgpr, w);
            for d in 0..w {
                seq.push(MInst::new(
                    "v_mov_b32",
                    target,
                    vec![reg(t, d, 1), reg(v, d, 1)],
                )?);
            }
            t
        }
    };
    let suffix = match w {
        1 => "dword",
        2 => "dwordx2",
        3 => "dwordx3",
        _ => "dwordx4",
    };
    let (saddr, imm) = slot_address(target, slot, seq)?;
    let mut st = MInst::new(
        &format!("scratch_store_{suffix}"),
        target,
        vec![Opnd::off(), reg(data, 0, w), saddr],
    )?;
    st.mods.offset = imm;
    seq.push(st);
    let (saddr, imm) = slot_address(target, slot, back)?;
    let loaded = match info.class {
        RegClass::Vgpr => v,
        RegClass::Sgpr => f.new_vreg(RegClass::Vgpr, w),
    };
    let mut ld = MInst::new(
        &format!("scratch_load_{suffix}"),
        target,
        vec![reg(loaded, 0, w), Opnd::off(), saddr],
    )?;
    ld.mods.offset = imm;
    back.push(ld);
    if info.class == RegClass::Sgpr {
        for d in 0..w {
            back.push(MInst::new(
                "v_readfirstlane_b32",
                target,
                vec![reg(v, d, 1), reg(loaded, d, 1)],
            )?);
        }
    }
    Ok(())
}

/// `SP += frame; target = callee; s_swappc_b64; SP -= frame`. The target
/// is the PC plus the distance, or minus it for a function laid out at
/// or before the caller (`backward`): the literal is the distance's size
/// either way, so the carry into the high dword is right. With an
/// `alloca` area (an SGPR operand of the call: its size), the callee's
/// frame starts after the area and one word, which keeps how far `SP`
/// moved (the area's register does not survive the call).
fn call_sequence(
    f: &mut Function,
    target: Target,
    callee: u32,
    backward: bool,
    area: Option<Opnd>,
) -> Result<Vec<MInst>> {
    let sp = || Opnd::sgpr(SP, 1);
    let lo = Opnd::sgpr(TARGET, 1);
    let hi = Opnd::sgpr(TARGET + 1, 1);
    let (add_lo, add_hi) = if backward {
        ("s_sub_u32", "s_subb_u32")
    } else {
        ("s_add_u32", "s_addc_u32")
    };
    let mut add = MInst::new(
        add_lo,
        target,
        vec![
            lo,
            lo,
            Opnd::Fixed(Operand::Literal(crate::emit::PC_REL_PLACEHOLDER)),
        ],
    )?;
    add.link = Some(Link::Callee(callee));
    let jump = [
        MInst::new("s_getpc_b64", target, vec![Opnd::sgpr(TARGET, 2)])?,
        add,
        MInst::new(add_hi, target, vec![hi, hi, Opnd::constant(0)])?,
        MInst::new(
            "s_swappc_b64",
            target,
            vec![Opnd::sgpr(RA, 2), Opnd::sgpr(TARGET, 2)],
        )?,
    ];
    let Some(area) = area else {
        let mut seq = vec![framed(target, "s_add_u32", vec![sp(), sp(), frame_size()])?];
        seq.extend(jump);
        seq.push(framed(target, "s_sub_u32", vec![sp(), sp(), frame_size()])?);
        return Ok(seq);
    };
    // moved = frame + area + 4, kept in the word under the callee's frame.
    let moved = Opnd::vreg(f.new_vreg(RegClass::Sgpr, 1), 1);
    let kept = Opnd::vreg(f.new_vreg(RegClass::Vgpr, 1), 1);
    let back = Opnd::vreg(f.new_vreg(RegClass::Vgpr, 1), 1);
    let undo = Opnd::vreg(f.new_vreg(RegClass::Sgpr, 1), 1);
    let word = |mn: &str, ops: Vec<Opnd>| -> Result<MInst> {
        let mut i = MInst::new(mn, target, ops)?;
        i.mods.offset = -4;
        Ok(i)
    };
    let mut seq = vec![
        framed(target, "s_add_u32", vec![moved, area, frame_size()])?,
        MInst::new("s_add_u32", target, vec![moved, moved, Opnd::constant(4)])?,
        MInst::new("s_add_u32", target, vec![sp(), sp(), moved])?,
        MInst::new("v_mov_b32", target, vec![kept, moved])?,
        word("scratch_store_dword", vec![Opnd::off(), kept, sp()])?,
    ];
    seq.extend(jump);
    seq.extend([
        word("scratch_load_dword", vec![back, Opnd::off(), sp()])?,
        MInst::new("v_readfirstlane_b32", target, vec![undo, back])?,
        MInst::new("s_sub_u32", target, vec![sp(), sp(), undo])?,
    ]);
    Ok(seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Block, Terminator, compile, link};

    fn r(v: VReg) -> Opnd {
        Opnd::vreg(v, 1)
    }

    /// A function of one block: `a = tid; call k; store a` (`a` live
    /// across the call), and `b` computed before the call, dead after.
    fn caller(t: Target, name: &str, unit: u32, callee: Option<u32>, k: u32) -> Function {
        let mut f = Function::new(name);
        f.unit = unit;
        f.callee = callee;
        f.scratch = Some(crate::ScratchInputs {
            flat_scratch_init: 0,
            wave_offset: 2,
        });
        f.live_in_sgprs = vec![0, 1, 2];
        f.live_in_vgprs = vec![0];
        let a = f.new_vreg(RegClass::Vgpr, 1);
        let b = f.new_vreg(RegClass::Vgpr, 1);
        let mov = |d, s| MInst::new("v_mov_b32", t, vec![d, s]).unwrap();
        f.prologue.push(mov(r(a), Opnd::vgpr(0, 1)));
        let store =
            |v| MInst::new("scratch_store_dword", t, vec![r(v), r(v), Opnd::off()]).unwrap();
        f.blocks.push(Block {
            insts: vec![
                mov(r(b), Opnd::constant(7)),
                store(b),
                call(t, k).unwrap(),
                store(a),
            ],
            term: Terminator::Ret,
        });
        f
    }

    #[test]
    fn live_values_are_saved_around_calls_and_calls_are_linked() {
        let t = Target::Gfx90a;
        let kernel = compile(caller(t, "k", 0, None, 1), t).unwrap();
        let callee = compile(caller(t, "f", 1, Some(4096), 1), t).unwrap();
        // `a` is stored to and loaded from its stack slot; `b` is not.
        let saves = (kernel.asm.lines())
            .filter(|l| l.starts_with("\tscratch_") && l.contains("s92"))
            .count();
        assert_eq!(saves, 2, "{}", kernel.asm);
        assert!(kernel.asm.contains("s_swappc_b64 s[88:89], s[90:91]"));
        // The callee: a prologue with the stack check, a return.
        assert!(callee.asm.contains("s_trap 0x5c"), "{}", callee.asm);
        assert!(callee.asm.contains("s_setpc_b64"), "{}", callee.asm);
        assert!(
            callee.asm.contains("s_subb_u32 s91, s91, 0"),
            "{}",
            callee.asm
        );
        let start = kernel.code.len();
        let linked = link(vec![kernel, callee]);
        // Both calls reach the callee's first byte: s_getpc_b64 gives the
        // address of the next instruction, whose literal is the distance.
        let insts: Vec<(usize, amdgpu_isa::gfx9::Inst)> =
            amdgpu_isa::gfx9::disassemble(&linked.code, t)
                .map(|x| x.unwrap())
                .collect();
        let mut calls = 0;
        for w in insts.windows(2) {
            if w[0].1.def.mnemonic != "s_getpc_b64" {
                continue;
            }
            let (at, add) = (&w[1].0, &w[1].1);
            let Some(amdgpu_isa::gfx9::Operand::Literal(d)) = add.operands.get(2) else {
                panic!("no literal in {add:?}");
            };
            let to = match add.def.mnemonic {
                "s_add_u32" => *at as i64 + i64::from(*d),
                _ => *at as i64 - i64::from(*d),
            };
            assert_eq!(to, start as i64);
            calls += 1;
        }
        assert_eq!(calls, 2);
        assert!(!linked.asm.contains("0x5eed5eed"), "{}", linked.asm);
    }

    #[test]
    fn the_allocation_checker_sees_calls_clobber_registers() {
        let t = Target::Gfx90a;
        let mut f = caller(t, "k", 0, None, 1);
        prepare(&mut f, t).unwrap();
        let mut blocks = crate::exec::lower(&mut f, t).unwrap();
        expand(&mut f, &mut blocks, t).unwrap();
        // Without the restore after the call, `a` is read clobbered.
        for b in &mut blocks {
            if let Some(at) = b
                .insts
                .iter()
                .position(|i| i.def.mnemonic == "s_swappc_b64")
            {
                let load = at
                    + b.insts[at..]
                        .iter()
                        .position(|i| i.def.mnemonic == "scratch_load_dword")
                        .unwrap();
                b.insts.remove(load);
            }
        }
        let alloc = crate::regalloc::allocate(&mut f, &mut blocks, t).unwrap();
        let err = crate::verify::check(&f, &blocks, &alloc);
        assert!(
            matches!(err, Err(crate::Error::BadAllocation { .. })),
            "{err:?}"
        );
    }
}
