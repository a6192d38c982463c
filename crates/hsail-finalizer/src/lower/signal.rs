//! Signal instructions (PRM 6.8): `signal` and `signalnoret`.
//!
//! The runtime's signal handle is the device address of its `amd_signal_t`
//! (`hsa_runtime::signal`), whose 64-bit value is at byte
//! [`SIGNAL_VALUE`]. So every signal instruction is the corresponding
//! atomic (PRM 6.8.2) on the global address handle + 8 at system scope,
//! lowered by [`Cx::atomic_at`].
//!
//! `wait` and `waittimeout` poll that value with system-scope atomic loads
//! (`s_sleep 1` between polls) until the signed comparison with `src0`
//! holds, and return the last value read; `waittimeout` also stops once
//! `timeout` ticks of `s_memrealtime` have passed since the instruction
//! began. The PRM gives the timeout in system timestamp units; the
//! finalizer takes them as `s_memrealtime` ticks (the constant 100 MHz
//! clock that `clock` also reads). A plain `wait` never times out early
//! (the PRM allows but does not require spurious returns; the runtime's
//! signal timeout bounds nothing here). Under divergence every active lane
//! polls its own handle and value: a lane whose condition holds leaves the
//! loop keeping what it read, and the wave goes on once every lane has.
//!
//! Only the large model's `sig64` is supported.

use amdgpu_codegen::{Opnd, VReg};
use brig::{
    BrigAtomicOperation, BrigInstSignal, BrigMemoryScope, BrigOpcode, BrigSegment, BrigType,
    OperandOffset,
};

use super::ldst::{Addr, Mem};
use super::memory::Atomic;
use super::{Cx, Src, dw, pair, r};
use crate::Result;

/// Byte offset of the signal value in the runtime's `amd_signal_t`.
const SIGNAL_VALUE: i64 = 8;

/// The signed 64-bit comparison that ends a wait, and whether the wait
/// has a timeout operand.
fn wait_condition(op: BrigAtomicOperation) -> Option<(&'static str, bool)> {
    use BrigAtomicOperation as A;
    Some(match op {
        A::WAIT_EQ => ("v_cmp_eq_i64_e64", false),
        A::WAIT_NE => ("v_cmp_ne_i64_e64", false),
        A::WAIT_LT => ("v_cmp_lt_i64_e64", false),
        A::WAIT_GTE => ("v_cmp_ge_i64_e64", false),
        A::WAITTIMEOUT_EQ => ("v_cmp_eq_i64_e64", true),
        A::WAITTIMEOUT_NE => ("v_cmp_ne_i64_e64", true),
        A::WAITTIMEOUT_LT => ("v_cmp_lt_i64_e64", true),
        A::WAITTIMEOUT_GTE => ("v_cmp_ge_i64_e64", true),
        _ => return None,
    })
}

impl Cx<'_> {
    /// One `signal`/`signalnoret` instruction.
    pub(super) fn lower_signal(
        &mut self,
        s: &BrigInstSignal,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if s.signal_type != BrigType::SIG64 {
            return Err(self.unsupported(format!(
                "{what}: sig32 signals (small machine model; only sig64 is supported)"
            )));
        }
        let ret = s.base.opcode == BrigOpcode::SIGNAL;
        let first = usize::from(ret);
        let Some(&handle) = ops.get(first) else {
            return Err(self.unsupported(format!("{what} without a signal handle")));
        };
        let handle = self.data_reg(handle, 64, what)?;
        let addr = Addr {
            mem: Mem::Vmem { flat: false },
            base: Some(handle),
            off: 0,
        };
        let access = |op, type_| Atomic {
            ret: true,
            segment: BrigSegment::GLOBAL,
            type_,
            op,
            order: s.memory_order,
            scope: BrigMemoryScope::SYSTEM,
            field: SIGNAL_VALUE,
        };
        let data = &ops[first + 1..];
        match wait_condition(s.signal_operation) {
            Some((cmp, timed)) if ret => {
                let load = access(BrigAtomicOperation::LD, BrigType::B64);
                self.signal_wait(&load, &addr, cmp, timed, ops, what)
            }
            Some(_) => Err(self.unsupported(what.to_string())),
            None => {
                let a = Atomic {
                    ret,
                    ..access(s.signal_operation, s.base.type_)
                };
                let dest = if ret { Some(self.dst(ops[0])?) } else { None };
                self.atomic_at(&a, &addr, dest, data, what)
            }
        }
    }

    /// `wait`/`waittimeout`: polls the signal at `addr` with the atomic
    /// load `load` until `cmp` (value, `src0`) holds in every active lane
    /// (or, when `timed`, the timeout passed), then writes the last value
    /// read to the destination.
    fn signal_wait(
        &mut self,
        load: &Atomic,
        addr: &Addr,
        cmp: &str,
        timed: bool,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (&[dest, _, src0] | &[dest, _, src0, _]) = ops else {
            return Err(self.unsupported(format!("{what} with missing operands")));
        };
        let expect = self.data_reg(src0, 64, what)?;
        let timeout = match (timed, ops.get(3)) {
            (true, Some(&t)) => Some(self.data_reg(t, 64, what)?),
            (true, None) => return Err(self.unsupported(format!("{what} without a timeout"))),
            (false, _) => None,
        };
        let start = match timeout {
            Some(_) => Some(self.realtime()?),
            None => None,
        };
        let seen = self.vtemp(2);
        self.spin_until(|cx| {
            cx.atomic_at(load, addr, Some(seen), &[], what)?;
            cx.emit(cmp, vec![Opnd::vcc(), pair(seen), pair(expect)])?;
            let holds = cx.vtemp(1);
            cx.vcc_to_bit(r(holds))?;
            let (Some(limit), Some(start)) = (timeout, start) else {
                return Ok(holds);
            };
            let expired = cx.expired(start, limit)?;
            let done = cx.vtemp(1);
            cx.emit("v_or_b32_e64", vec![r(done), r(holds), r(expired)])?;
            Ok(done)
        })?;
        let d = self.dst(dest)?;
        for i in 0..2 {
            self.emit("v_mov_b32", vec![dw(d, i), dw(seen, i)])?;
        }
        Ok(())
    }

    /// Whether `limit` ticks of `s_memrealtime` passed since `start`, as a
    /// per-lane bit.
    fn expired(&mut self, start: VReg, limit: VReg) -> Result<VReg> {
        let now = self.realtime()?;
        let elapsed = self.vtemp(2);
        self.add64(
            "v_sub_co_u32_e64",
            "v_subb_co_u32_e64",
            elapsed,
            Src::Reg(now),
            Src::Reg(start),
        )?;
        self.emit(
            "v_cmp_ge_u64_e64",
            vec![Opnd::vcc(), pair(elapsed), pair(limit)],
        )?;
        let bit = self.vtemp(1);
        self.vcc_to_bit(r(bit))?;
        Ok(bit)
    }

    /// The `s_memrealtime` clock in a VGPR pair.
    fn realtime(&mut self) -> Result<VReg> {
        let s = self.stemp(2);
        self.emit("s_memrealtime", vec![pair(s)])?;
        let v = self.vtemp(2);
        for i in 0..2 {
            self.emit("v_mov_b32", vec![dw(v, i), dw(s, i)])?;
        }
        Ok(v)
    }
}
