//! Signals (HSA Runtime spec §2.4): a 64-bit value that host threads,
//! the packet processor and kernels change atomically and wait on.
//!
//! As in ROCr, a signal is an `amd_signal_t` (64 bytes, `amd_hsa_signal.h`)
//! in device memory, and its handle is that structure's device address, so
//! AQL packets and kernels can name it:
//!
//! | offset | field |
//! |-------:|-------|
//! | 0  | `kind` (`AMD_SIGNAL_KIND_USER` = 1) |
//! | 8  | `value` (i64) |
//! | 16 | `event_mailbox_ptr` (0: no interrupt events) |
//! | 24 | `event_id` |
//! | 32 | `start_ts` (set by the packet processor on completion signals) |
//! | 40 | `end_ts` |
//! | 48 | `queue_ptr` (doorbell signals: the `amd_queue_t`) |
//!
//! Memory ordering: the emulator's memory is sequentially consistent from
//! the host's point of view (every access is an atomic read-modify-write
//! or access on shared storage), so the `_relaxed`, `_scacquire`,
//! `_screlease` and `_scacq_screl` variants of the HSA API share one
//! implementation here; each operation also issues a `SeqCst` fence so
//! host data written before a signal store is visible to whoever observes
//! the store.
//!
//! Waiting spins briefly, then sleeps on a condition variable that every
//! host-side signal change (and the packet processor) notifies; a kernel
//! changing a signal in memory is seen by polling every
//! [`POLL_PERIOD`](crate::system::POLL_PERIOD).

use std::sync::Arc;
use std::sync::atomic::{Ordering, fence};
use std::time::{Duration, Instant};

use amdgpu_emu::{MemFault, MemView};

use crate::error::{Error, Result};
use crate::system::{Shared, System};

/// Size of `amd_signal_t`.
pub const AMD_SIGNAL_SIZE: u64 = 64;
/// `amd_signal_kind_t` of a user (host-created) signal.
pub const AMD_SIGNAL_KIND_USER: i64 = 1;
/// Offset of `amd_signal_t::kind`.
pub const SIGNAL_KIND: u64 = 0;
/// Offset of `amd_signal_t::value`.
pub const SIGNAL_VALUE: u64 = 8;
/// Offset of `amd_signal_t::event_mailbox_ptr`.
pub const SIGNAL_EVENT_MAILBOX_PTR: u64 = 16;
/// Offset of `amd_signal_t::start_ts`.
pub const SIGNAL_START_TS: u64 = 32;
/// Offset of `amd_signal_t::end_ts`.
pub const SIGNAL_END_TS: u64 = 40;
/// Offset of `amd_signal_t::queue_ptr`.
pub const SIGNAL_QUEUE_PTR: u64 = 48;

/// Iterations a wait spins before it sleeps.
const SPIN: u32 = 200;

/// Condition of [`Signal::wait`] (`hsa_signal_condition_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Condition {
    /// `HSA_SIGNAL_CONDITION_EQ`: value == compare.
    Eq,
    /// `HSA_SIGNAL_CONDITION_NE`: value != compare.
    Ne,
    /// `HSA_SIGNAL_CONDITION_LT`: value < compare.
    Lt,
    /// `HSA_SIGNAL_CONDITION_GTE`: value >= compare.
    Gte,
}

impl Condition {
    /// Whether `value` satisfies the condition against `compare`.
    pub fn holds(self, value: i64, compare: i64) -> bool {
        match self {
            Condition::Eq => value == compare,
            Condition::Ne => value != compare,
            Condition::Lt => value < compare,
            Condition::Gte => value >= compare,
        }
    }
}

/// Reads a signal's value by handle (for the packet processor), checking
/// that the handle points at a user signal.
pub(crate) fn load_raw(view: &MemView, handle: u64) -> Result<i64, String> {
    check_raw(view, handle)?;
    view.load(handle + SIGNAL_VALUE, 8)
        .map(|v| v as i64)
        .map_err(|e| e.to_string())
}

/// Applies `f` to a signal's value by handle; returns the old value.
pub(crate) fn update_raw(
    view: &MemView,
    handle: u64,
    f: impl Fn(i64) -> i64,
) -> Result<i64, String> {
    check_raw(view, handle)?;
    view.atomic_u64(handle + SIGNAL_VALUE, |old| f(old as i64) as u64)
        .map(|v| v as i64)
        .map_err(|e| e.to_string())
}

fn check_raw(view: &MemView, handle: u64) -> Result<(), String> {
    if !handle.is_multiple_of(8) {
        return Err(format!("signal handle {handle:#x} is not 8-byte aligned"));
    }
    match view.load(handle + SIGNAL_KIND, 8) {
        Ok(k) if k as i64 == AMD_SIGNAL_KIND_USER => Ok(()),
        Ok(k) => Err(format!(
            "signal handle {handle:#x} is not a signal (amd_signal_t kind {})",
            k as i64
        )),
        Err(e) => Err(format!("signal handle {handle:#x} is not a signal: {e}")),
    }
}

#[derive(Debug)]
struct SignalInner {
    shared: Arc<Shared>,
    handle: u64,
}

impl Drop for SignalInner {
    fn drop(&mut self) {
        self.shared.memory.free(self.handle);
    }
}

/// A signal (`hsa_signal_t`). Clones share the same signal; its memory is
/// freed when the last clone is dropped (`hsa_signal_destroy`), so keep a
/// signal alive while packets or kernels refer to its handle.
#[derive(Debug, Clone)]
pub struct Signal {
    inner: Arc<SignalInner>,
}

impl Signal {
    /// A user signal with `initial` value (`hsa_signal_create`).
    pub fn new(system: &System, initial: i64) -> Result<Signal> {
        let shared = system.shared().clone();
        let handle = shared.allocate_internal(AMD_SIGNAL_SIZE, "a signal")?;
        let mut bytes = [0u8; AMD_SIGNAL_SIZE as usize];
        bytes[0..8].copy_from_slice(&AMD_SIGNAL_KIND_USER.to_le_bytes());
        bytes[8..16].copy_from_slice(&initial.to_le_bytes());
        shared.memory.write(handle, &bytes)?;
        Ok(Signal {
            inner: Arc::new(SignalInner { shared, handle }),
        })
    }

    /// The handle: the device address of the `amd_signal_t`.
    pub fn handle(&self) -> u64 {
        self.inner.handle
    }

    /// Writes `amd_signal_t::queue_ptr` (doorbell signals).
    pub(crate) fn set_queue_ptr(&self, queue: u64) -> Result<()> {
        Ok(self
            .inner
            .shared
            .memory
            .write(self.handle() + SIGNAL_QUEUE_PTR, &queue.to_le_bytes())?)
    }

    fn value_address(&self) -> u64 {
        self.inner.handle + SIGNAL_VALUE
    }

    fn view(&self) -> MemView {
        self.inner.shared.memory.view()
    }

    /// The signal's memory is owned by this object and never freed before
    /// it, so accesses cannot fault; a fault would be a runtime bug.
    fn expect_mapped<T: Default>(&self, r: Result<T, MemFault>) -> T {
        debug_assert!(
            r.is_ok(),
            "signal memory unmapped: {r:?}",
            r = r.as_ref().err()
        );
        r.unwrap_or_default()
    }

    /// Atomically replaces the value with `f(old)`, notifies waiters and
    /// returns the old value.
    fn rmw(&self, f: impl Fn(i64) -> i64) -> i64 {
        fence(Ordering::SeqCst);
        let r = self
            .view()
            .atomic_u64(self.value_address(), |old| f(old as i64) as u64);
        let old = self.expect_mapped(r) as i64;
        fence(Ordering::SeqCst);
        self.inner.shared.notifier.notify();
        old
    }

    /// The current value (`hsa_signal_load_scacquire`).
    pub fn load(&self) -> i64 {
        let r = self.view().load(self.value_address(), 8);
        let v = self.expect_mapped(r) as i64;
        fence(Ordering::SeqCst);
        v
    }

    /// `hsa_signal_load_relaxed` (same as [`Signal::load`] here).
    pub fn load_relaxed(&self) -> i64 {
        self.load()
    }

    /// `hsa_signal_load_scacquire` (same as [`Signal::load`]).
    pub fn load_acquire(&self) -> i64 {
        self.load()
    }

    /// Sets the value (`hsa_signal_store_screlease`) and wakes waiters.
    pub fn store(&self, value: i64) {
        self.rmw(|_| value);
    }

    /// `hsa_signal_store_relaxed` (same as [`Signal::store`] here).
    pub fn store_relaxed(&self, value: i64) {
        self.store(value);
    }

    /// `hsa_signal_store_screlease` (same as [`Signal::store`]).
    pub fn store_release(&self, value: i64) {
        self.store(value);
    }

    /// `hsa_signal_silent_store_*`: sets the value without waking waiters
    /// (they still see it at their next poll).
    pub fn silent_store(&self, value: i64) {
        let r = self.view().store(self.value_address(), 8, value as u64);
        self.expect_mapped(r);
    }

    /// Adds `v` (wrapping) (`hsa_signal_add_scacq_screl`).
    pub fn add(&self, v: i64) {
        self.rmw(|x| x.wrapping_add(v));
    }

    /// Subtracts `v` (wrapping) (`hsa_signal_subtract_scacq_screl`).
    pub fn sub(&self, v: i64) {
        self.rmw(|x| x.wrapping_sub(v));
    }

    /// Bitwise AND with `v` (`hsa_signal_and_scacq_screl`).
    pub fn and(&self, v: i64) {
        self.rmw(|x| x & v);
    }

    /// Bitwise OR with `v` (`hsa_signal_or_scacq_screl`).
    pub fn or(&self, v: i64) {
        self.rmw(|x| x | v);
    }

    /// Bitwise XOR with `v` (`hsa_signal_xor_scacq_screl`).
    pub fn xor(&self, v: i64) {
        self.rmw(|x| x ^ v);
    }

    /// Sets the value to `v` and returns the previous one
    /// (`hsa_signal_exchange_scacq_screl`).
    pub fn exchange(&self, v: i64) -> i64 {
        self.rmw(|_| v)
    }

    /// Sets the value to `new` if it equals `expected`; returns the
    /// previous value either way (`hsa_signal_cas_scacq_screl`).
    pub fn cas(&self, expected: i64, new: i64) -> i64 {
        self.rmw(|x| if x == expected { new } else { x })
    }

    /// Blocks until the value satisfies `condition` against `compare` or
    /// `timeout` passes (`hsa_signal_wait_scacquire`; use
    /// `Duration::MAX` to wait forever). Returns the last value observed,
    /// which does not satisfy the condition if the wait timed out.
    pub fn wait(&self, condition: Condition, compare: i64, timeout: Duration) -> i64 {
        let start = Instant::now();
        let deadline = start.checked_add(timeout);
        for _ in 0..SPIN {
            let v = self.load();
            if condition.holds(v, compare) {
                return v;
            }
            std::hint::spin_loop();
        }
        let mut last = self.load();
        self.inner.shared.notifier.wait_until(deadline, || {
            last = self.load();
            condition.holds(last, compare)
        });
        last
    }

    /// Like [`Signal::wait`], but a timeout is an [`Error::Timeout`].
    pub fn wait_until(&self, condition: Condition, compare: i64, timeout: Duration) -> Result<i64> {
        let v = self.wait(condition, compare, timeout);
        if condition.holds(v, compare) {
            Ok(v)
        } else {
            Err(Error::Timeout(timeout))
        }
    }

    /// The `start_ts`/`end_ts` the packet processor recorded on this
    /// completion signal (nanoseconds since the system was created; zero
    /// when the signal completed no dispatch).
    pub fn timestamps(&self) -> (u64, u64) {
        let v = self.view();
        let start = v.load(self.handle() + SIGNAL_START_TS, 8);
        let end = v.load(self.handle() + SIGNAL_END_TS, 8);
        (self.expect_mapped(start), self.expect_mapped(end))
    }
}
