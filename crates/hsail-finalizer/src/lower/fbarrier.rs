//! Fine-grain barriers (PRM 9.2): `initfbar`, `joinfbar`, `waitfbar`,
//! `arrivefbar`, `leavefbar`, `releasefbar` and `ldf`.
//!
//! GFX9 has no fbarrier hardware, so each fbarrier is one dword of group
//! memory (LDS), laid out after the group variables; `ldf` gives its LDS
//! address. The dword packs the PRM's conceptual fields:
//!
//! | bits  | field |
//! |-------|-------|
//! | 0-10  | `member_count`: work-items that joined |
//! | 11-21 | `arrive_count`: members that arrived (waiting or not) |
//! | 22-31 | generation: counts the times the fbarrier was satisfied |
//!
//! Every active work-item acts on its own (`ds_add` with the same address
//! in every lane), so a wavefront's active lanes join and arrive together
//! and the counts are in work-items (a work-group has at most 1024). The
//! barrier is satisfied when `arrive_count == member_count` after an
//! arrival or a departure: the work-item that made them equal (seen from
//! the old value its `ds_add_rtn_u32` returned) clears `arrive_count` and
//! bumps the generation in one more `ds_add` (other work-items add 0).
//! Members may not arrive or leave again before that (PRM 9.2.4), so the
//! arrive field is stable until it is cleared. `waitfbar` then polls the
//! dword (`s_sleep 1` between reads) until the generation differs from the
//! one its arrival saw.
//!
//! The PRM defines the barrier operations as relaxed atomics (9.3); the
//! lowering adds the workgroup-scope release fence before an arrival and
//! the acquire fence after a wait (AMDGPUUsage), which only strengthens it.

use std::collections::HashMap;

use amdgpu_codegen::{Opnd, Terminator, VReg};
use brig::{BrigMemoryScope, BrigOpcode, OperandOffset};
use hsail::validate::{CodeBlock, Symbol, SymbolKind};

use super::{Cx, Src, r};
use crate::{Locator, Result};

/// The fbarrier instructions.
pub(super) const OPS: [BrigOpcode; 7] = [
    BrigOpcode::INITFBAR,
    BrigOpcode::JOINFBAR,
    BrigOpcode::WAITFBAR,
    BrigOpcode::ARRIVEFBAR,
    BrigOpcode::LEAVEFBAR,
    BrigOpcode::RELEASEFBAR,
    BrigOpcode::LDF,
];

/// One member in the member field.
const MEMBER: u32 = 1;
/// One arrival in the arrive field.
const ARRIVAL: u32 = 1 << 11;
/// The arrive field.
const ARRIVE_MASK: u32 = 0x7ff << 11;
/// The member field.
const MEMBER_MASK: u32 = 0x7ff;
/// One generation.
const GENERATION: u32 = 1 << 22;
/// Bytes of LDS per fbarrier.
const SIZE: u32 = 4;

/// Gives every fbarrier defined at module scope or in `cb` (and, for
/// module scope, each declaration of one) an LDS address after `size`
/// bytes of group variables, in `group`; returns the new group size.
pub(super) fn layout(
    module_syms: &[Symbol],
    cb: &CodeBlock,
    loc: &Locator<'_>,
    group: &mut HashMap<u32, u32>,
    size: u32,
) -> Result<u32> {
    let fbars = module_syms
        .iter()
        .chain(&cb.locals)
        .filter(|s| s.kind == SymbolKind::Fbarrier);
    let mut off = size.next_multiple_of(SIZE);
    for s in fbars.clone().filter(|s| s.is_definition) {
        group.insert(s.offset.get(), off);
        off = off.checked_add(SIZE).ok_or_else(|| {
            loc.unsupported("a group segment of more than 4 GiB".into(), s.offset.get())
        })?;
    }
    for s in fbars.filter(|s| !s.is_definition) {
        let Some(a) = s.definition.and_then(|d| group.get(&d.get()).copied()) else {
            return Err(loc.unsupported(
                format!("fbarrier `{}` defined outside the module", s.name),
                s.offset.get(),
            ));
        };
        group.insert(s.offset.get(), a);
    }
    Ok(off)
}

impl Cx<'_> {
    /// One fbarrier instruction (`op` is in [`OPS`]).
    pub(super) fn lower_fbar(
        &mut self,
        op: BrigOpcode,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if op == BrigOpcode::LDF {
            let &[dest, name] = ops else {
                return Err(self.unsupported(what.to_string()));
            };
            let d = self.dst(dest)?;
            let a = self.fbar_address(name, what)?;
            return self.emit("v_mov_b32", vec![r(d), Opnd::constant(a)]);
        }
        let &[src] = ops else {
            return Err(self.unsupported(what.to_string()));
        };
        let addr = self.fbar_operand(src, what)?;
        match op {
            BrigOpcode::INITFBAR => {
                let z = self.lds_value(0)?;
                self.emit("ds_write_b32", vec![r(addr), r(z)])
            }
            BrigOpcode::JOINFBAR => {
                let one = self.lds_value(MEMBER)?;
                self.emit("ds_add_u32", vec![r(addr), r(one)])
            }
            BrigOpcode::ARRIVEFBAR => {
                self.release(BrigMemoryScope::WORKGROUP)?;
                self.fbar_count(addr, ARRIVAL).map(drop)
            }
            BrigOpcode::WAITFBAR => {
                self.release(BrigMemoryScope::WORKGROUP)?;
                let seen = self.fbar_count(addr, ARRIVAL)?;
                self.fbar_spin(addr, seen)?;
                self.acquire(BrigMemoryScope::WORKGROUP)
            }
            BrigOpcode::LEAVEFBAR => self.fbar_count(addr, MEMBER.wrapping_neg()).map(drop),
            // Nothing to free: the dword is plain group memory again.
            _ => Ok(()),
        }
    }

    /// The LDS address of fbarrier directive operand `o`.
    fn fbar_address(&self, o: OperandOffset, what: &str) -> Result<u32> {
        match self.m.operand(o) {
            Ok(brig::Operand::CodeRef(c)) => self
                .group
                .get(&c.ref_.get())
                .copied()
                .ok_or_else(|| self.unsupported(format!("{what} on an unknown fbarrier"))),
            _ => Err(self.unsupported(format!("{what} without an fbarrier name"))),
        }
    }

    /// An fbarrier operand (a name, or a register holding `ldf`'s result)
    /// as a VGPR holding its LDS address.
    fn fbar_operand(&mut self, o: OperandOffset, what: &str) -> Result<VReg> {
        if let Ok(brig::Operand::Register(_)) = self.m.operand(o)
            && let Src::Reg(v) = self.src(o)?
        {
            return Ok(v);
        }
        let a = self.fbar_address(o, what)?;
        self.lds_value(a)
    }

    /// A VGPR holding `k`.
    fn lds_value(&mut self, k: u32) -> Result<VReg> {
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), Opnd::constant(k)])?;
        Ok(v)
    }

    /// Adds `delta` (one arrival or one member less) to the fbarrier at
    /// `addr` and, in the work-item that satisfied it, clears the arrive
    /// field and advances the generation. Returns the dword after this
    /// work-item's `delta` (its generation is the one to wait past).
    fn fbar_count(&mut self, addr: VReg, delta: u32) -> Result<Opnd> {
        let d = self.lds_value(delta)?;
        let old = self.vtemp(1);
        self.emit("ds_add_rtn_u32", vec![r(old), r(addr), r(d)])?;
        let dk = self.val(Src::Const(u64::from(delta)), 0)?;
        let now = self.tmp("v_add_u32_e64", vec![r(old), dk])?;
        let mm = self.val(Src::Const(u64::from(MEMBER_MASK)), 0)?;
        let members = self.tmp("v_and_b32_e64", vec![now, mm])?;
        let arrived = self.tmp(
            "v_bfe_u32",
            vec![now, Opnd::constant(11), Opnd::constant(11)],
        )?;
        self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), members, arrived])?;
        // Satisfied: add GENERATION - arrive field (clearing it).
        let am = self.val(Src::Const(u64::from(ARRIVE_MASK)), 0)?;
        let field = self.tmp("v_and_b32_e64", vec![now, am])?;
        let g = self.val(Src::Const(u64::from(GENERATION)), 0)?;
        let reset = self.tmp("v_sub_u32_e64", vec![g, field])?;
        let add = self.tmp(
            "v_cndmask_b32_e64",
            vec![Opnd::constant(0), reset, Opnd::vcc()],
        )?;
        self.emit("ds_add_u32", vec![r(addr), add])?;
        Ok(now)
    }

    /// `waitfbar`'s wait: a loop that sleeps, reads the fbarrier at `addr`
    /// and ends when its generation is no longer the one in `seen`.
    fn fbar_spin(&mut self, addr: VReg, seen: Opnd) -> Result<()> {
        self.spin_until(|cx| {
            let now = cx.vtemp(1);
            cx.emit("ds_read_b32", vec![r(now), r(addr)])?;
            let diff = cx.tmp("v_xor_b32_e64", vec![r(now), seen])?;
            let g = cx.val(Src::Const(u64::from(GENERATION)), 0)?;
            cx.emit("v_cmp_ge_u32_e64", vec![Opnd::vcc(), diff, g])?;
            let done = cx.vtemp(1);
            cx.vcc_to_bit(r(done))?;
            Ok(done)
        })
    }

    /// A polling loop: `s_sleep 1` (the emulator interleaves waves there),
    /// then `poll`, which returns a per-lane bit; a lane leaves the loop
    /// when its bit is 1, and the wave goes on once every active lane has.
    pub(super) fn spin_until(
        &mut self,
        poll: impl FnOnce(&mut Self) -> Result<VReg>,
    ) -> Result<()> {
        let spin = self.f.add_block();
        let cont = self.f.add_block();
        let from = self.cur;
        self.f.blocks[from].term = Terminator::Br(spin);
        self.cur = spin;
        self.emit("s_sleep", vec![Opnd::imm(1)])?;
        let done = poll(self)?;
        let end = self.cur;
        self.f.blocks[end].term = Terminator::CondBr {
            cond: done,
            then: cont,
            otherwise: spin,
        };
        self.cur = cont;
        self.restructured = true;
        Ok(())
    }
}
