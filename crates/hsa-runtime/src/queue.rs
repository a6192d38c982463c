//! User-mode AQL queues and their packet processor (HSA Runtime spec
//! §2.5; HSA System Architecture spec §2.8–2.9).
//!
//! A queue is, as in ROCr, an `amd_queue_t` (256 bytes, 64-byte aligned,
//! `amd_hsa_queue.h`) in device memory whose first 40 bytes are the
//! `hsa_queue_t`, plus a ring buffer of `size` 64-byte packets. Offsets
//! used here (ROCr's layout; only those the runtime or kernels read are
//! filled in):
//!
//! | offset | field | value here |
//! |-------:|-------|------------|
//! | 0   | `hsa_queue_t::type` (u32) | `HSA_QUEUE_TYPE_MULTI` (0) |
//! | 4   | `features` (u32) | `HSA_QUEUE_FEATURE_KERNEL_DISPATCH` (1) |
//! | 8   | `base_address` (u64) | the ring buffer |
//! | 16  | `doorbell_signal` (u64 handle) | the doorbell [`Signal`] |
//! | 24  | `size` (u32, packets) | |
//! | 32  | `id` (u64) | |
//! | 40  | `caps`, `reserved1[3]` | 0 |
//! | 56  | `write_dispatch_id` (u64) | the write index |
//! | 64  | `group_segment_aperture_base_hi` (u32) | `SHARED_APERTURE >> 32` |
//! | 68  | `private_segment_aperture_base_hi` (u32) | `PRIVATE_APERTURE >> 32` |
//! | 72  | `max_cu_id` (u32) | host threads − 1 |
//! | 76  | `max_wave_id` (u32) | 39 (4 SIMDs × 10 waves, GFX9) |
//! | 128 | `read_dispatch_id` (u64) | the read index |
//! | 136 | `read_dispatch_id_field_base_byte_offset` (u32) | 128 |
//! | 140 | `compute_tmpring_size` (u32) | 0 |
//! | 144 | `scratch_resource_descriptor[4]` | 0 |
//! | 160 | `scratch_backing_memory_location` (u64) | 0 |
//! | 168 | `scratch_backing_memory_byte_size` (u64) | 0 |
//! | 176 | `scratch_wave64_lane_byte_size` (u32) | 0 |
//! | 180 | `queue_properties` (u32) | `AMD_QUEUE_PROPERTIES_IS_PTR64` (bit 1) |
//! | 192 | `queue_inactive_signal` (u64 handle) | 0 |
//!
//! Scratch is not described in the queue: the emulator allocates each
//! dispatch's scratch itself and hands the waves their private segment
//! buffer and flat-scratch values, which is what the CP does with these
//! fields on hardware.
//!
//! The packet processor is one host thread per queue. It is woken by the
//! doorbell (every host-side signal change wakes it, and it re-checks
//! every [`POLL_PERIOD`](crate::system::POLL_PERIOD) so that packets
//! published without a doorbell write, e.g. by a kernel, are seen too)
//! and processes packets strictly in order from the read index: it waits
//! while the packet's type is `INVALID`, runs it, decrements its
//! completion signal, sets the header back to `INVALID` and increments
//! the read index. One packet runs at a time, so every packet behaves as
//! if its barrier bit were set, and the acquire/release fences need no
//! action (the emulator's memory is coherent).
//!
//! An invalid packet or a kernel fault makes the queue record the error
//! ([`Queue::error`]) and become inactive, like a queue error in ROCr:
//! the failing packet's completion signal is still decremented so that
//! waiters wake up, but later packets are never processed (their
//! completion signals never change; wait with a timeout, check
//! [`Queue::error`], and create a new queue).

use std::sync::atomic::{AtomicBool, Ordering, fence};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use amdgpu_emu::wave::{PRIVATE_APERTURE, SHARED_APERTURE};
use amdgpu_emu::{Device, DispatchError, Launch, MemView, Stats, initial_mode};
use amdgpu_object::abi::WaveValues;

use crate::error::{Error, Result};
use crate::executable::KernelInfo;
use crate::kernarg::Geometry;
use crate::packet::{BarrierPacket, DispatchPacket, FenceScope, PACKET_SIZE, PacketType};
use crate::signal::{self, Condition, SIGNAL_END_TS, SIGNAL_START_TS, Signal};
use crate::system::{Agent, AgentKind, GROUP_SEGMENT_SIZE, Shared, System, WORKGROUP_MAX_SIZE};

/// Size of `amd_queue_t`.
pub const AMD_QUEUE_SIZE: u64 = 256;
/// Offset of `hsa_queue_t::type`.
pub const QUEUE_TYPE: u64 = 0;
/// Offset of `hsa_queue_t::features`.
pub const QUEUE_FEATURES: u64 = 4;
/// Offset of `hsa_queue_t::base_address`.
pub const QUEUE_BASE_ADDRESS: u64 = 8;
/// Offset of `hsa_queue_t::doorbell_signal`.
pub const QUEUE_DOORBELL_SIGNAL: u64 = 16;
/// Offset of `hsa_queue_t::size`.
pub const QUEUE_SIZE: u64 = 24;
/// Offset of `hsa_queue_t::id`.
pub const QUEUE_ID: u64 = 32;
/// Offset of `amd_queue_t::write_dispatch_id`.
pub const QUEUE_WRITE_DISPATCH_ID: u64 = 56;
/// Offset of `amd_queue_t::group_segment_aperture_base_hi`.
pub const QUEUE_GROUP_APERTURE_BASE_HI: u64 = 64;
/// Offset of `amd_queue_t::private_segment_aperture_base_hi`.
pub const QUEUE_PRIVATE_APERTURE_BASE_HI: u64 = 68;
/// Offset of `amd_queue_t::max_cu_id`.
pub const QUEUE_MAX_CU_ID: u64 = 72;
/// Offset of `amd_queue_t::max_wave_id`.
pub const QUEUE_MAX_WAVE_ID: u64 = 76;
/// Offset of `amd_queue_t::read_dispatch_id`.
pub const QUEUE_READ_DISPATCH_ID: u64 = 128;
/// Offset of `amd_queue_t::read_dispatch_id_field_base_byte_offset`.
pub const QUEUE_READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET: u64 = 136;
/// Offset of `amd_queue_t::compute_tmpring_size`.
pub const QUEUE_COMPUTE_TMPRING_SIZE: u64 = 140;
/// Offset of `amd_queue_t::scratch_resource_descriptor`.
pub const QUEUE_SCRATCH_RESOURCE_DESCRIPTOR: u64 = 144;
/// Offset of `amd_queue_t::scratch_backing_memory_location`.
pub const QUEUE_SCRATCH_BACKING_MEMORY_LOCATION: u64 = 160;
/// Offset of `amd_queue_t::scratch_backing_memory_byte_size`.
pub const QUEUE_SCRATCH_BACKING_MEMORY_BYTE_SIZE: u64 = 168;
/// Offset of `amd_queue_t::scratch_wave64_lane_byte_size`.
pub const QUEUE_SCRATCH_WAVE64_LANE_BYTE_SIZE: u64 = 176;
/// Offset of `amd_queue_t::queue_properties`.
pub const QUEUE_PROPERTIES: u64 = 180;
/// Offset of `amd_queue_t::queue_inactive_signal`.
pub const QUEUE_INACTIVE_SIGNAL: u64 = 192;

/// `HSA_QUEUE_TYPE_MULTI`.
pub const HSA_QUEUE_TYPE_MULTI: u32 = 0;
/// `HSA_QUEUE_FEATURE_KERNEL_DISPATCH`.
pub const HSA_QUEUE_FEATURE_KERNEL_DISPATCH: u32 = 1;
/// `AMD_QUEUE_PROPERTIES_IS_PTR64`.
pub const AMD_QUEUE_PROPERTIES_IS_PTR64: u32 = 1 << 1;

/// Private bytes per work-item given to kernels with a dynamic call
/// stack on top of their fixed size (HIP's default stack limit).
pub const DYNAMIC_STACK_SIZE: u32 = 1024;

/// One completed dispatch, for statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchRecord {
    /// Packet index (dispatch ID).
    pub index: u64,
    /// Kernel name.
    pub kernel: String,
    /// Execution counts and wall time.
    pub stats: Stats,
}

#[derive(Debug)]
struct Inner {
    shared: Arc<Shared>,
    /// `amd_queue_t` address.
    address: u64,
    /// Ring buffer address.
    ring: u64,
    /// Packets in the ring (a power of two).
    size: u32,
    doorbell: Signal,
    stop: AtomicBool,
    /// The error that stopped the queue, with its packet index.
    error: Mutex<Option<(u64, Error)>>,
    log: Mutex<Vec<DispatchRecord>>,
}

/// An AQL queue on the GPU agent (`hsa_queue_t`), with its packet
/// processor thread. Dropping it stops the thread (after the packet in
/// progress, if any) and frees the queue memory (`hsa_queue_destroy`).
#[derive(Debug)]
pub struct Queue {
    system: System,
    inner: Arc<Inner>,
    thread: Option<JoinHandle<()>>,
}

impl Queue {
    /// Creates a queue of `size` packets (a power of two within the
    /// agent's queue size limits) on `agent`, which must be a kernel
    /// dispatch agent of `system` (`hsa_queue_create`).
    pub fn new(system: &System, agent: &Agent, size: u32) -> Result<Queue> {
        if agent.kind != AgentKind::Gpu || !agent.kernel_dispatch {
            return Err(Error::InvalidArgument(format!(
                "agent `{}` does not accept kernel dispatch queues",
                agent.name
            )));
        }
        if !size.is_power_of_two() || size < agent.queue_min_size || size > agent.queue_max_size {
            return Err(Error::InvalidArgument(format!(
                "queue size {size} must be a power of two in {}..={}",
                agent.queue_min_size, agent.queue_max_size
            )));
        }
        let shared = system.shared().clone();
        let ring_bytes = u64::from(size) * PACKET_SIZE;
        let ring = shared.allocate_internal(ring_bytes, "an AQL ring buffer")?;
        let address = match shared.allocate_internal(AMD_QUEUE_SIZE, "an amd_queue_t") {
            Ok(a) => a,
            Err(e) => {
                shared.memory.free(ring);
                return Err(e);
            }
        };
        let free_both = |e: Error| {
            shared.memory.free(ring);
            shared.memory.free(address);
            e
        };
        let doorbell = Signal::new(system, 0).map_err(free_both)?;
        let id = system.next_queue_id();
        let mut ring_init = vec![0u8; ring_bytes as usize];
        for p in ring_init.chunks_mut(PACKET_SIZE as usize) {
            p[0] = PacketType::Invalid as u8;
        }
        let mut q = [0u8; AMD_QUEUE_SIZE as usize];
        let mut put = |at: u64, bytes: &[u8]| {
            q[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
        };
        put(QUEUE_TYPE, &HSA_QUEUE_TYPE_MULTI.to_le_bytes());
        put(
            QUEUE_FEATURES,
            &HSA_QUEUE_FEATURE_KERNEL_DISPATCH.to_le_bytes(),
        );
        put(QUEUE_BASE_ADDRESS, &ring.to_le_bytes());
        put(QUEUE_DOORBELL_SIGNAL, &doorbell.handle().to_le_bytes());
        put(QUEUE_SIZE, &size.to_le_bytes());
        put(QUEUE_ID, &id.to_le_bytes());
        put(
            QUEUE_GROUP_APERTURE_BASE_HI,
            &((SHARED_APERTURE >> 32) as u32).to_le_bytes(),
        );
        put(
            QUEUE_PRIVATE_APERTURE_BASE_HI,
            &((PRIVATE_APERTURE >> 32) as u32).to_le_bytes(),
        );
        put(
            QUEUE_MAX_CU_ID,
            &(system.threads() as u32 - 1).to_le_bytes(),
        );
        put(QUEUE_MAX_WAVE_ID, &39u32.to_le_bytes());
        put(
            QUEUE_READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET,
            &(QUEUE_READ_DISPATCH_ID as u32).to_le_bytes(),
        );
        put(
            QUEUE_PROPERTIES,
            &AMD_QUEUE_PROPERTIES_IS_PTR64.to_le_bytes(),
        );
        let init = shared
            .memory
            .write(ring, &ring_init)
            .and_then(|()| shared.memory.write(address, &q));
        if let Err(e) = init {
            return Err(free_both(e.into()));
        }
        doorbell.set_queue_ptr(address).map_err(free_both)?;
        let inner = Arc::new(Inner {
            shared,
            address,
            ring,
            size,
            doorbell,
            stop: AtomicBool::new(false),
            error: Mutex::new(None),
            log: Mutex::new(Vec::new()),
        });
        let worker = inner.clone();
        let thread = std::thread::Builder::new()
            .name(format!("aql-queue-{id}"))
            .spawn(move || worker.run())
            .map_err(|e| {
                inner.shared.memory.free(inner.ring);
                inner.shared.memory.free(inner.address);
                Error::OutOfResources(format!("cannot start the packet processor thread: {e}"))
            })?;
        Ok(Queue {
            system: system.clone(),
            inner,
            thread: Some(thread),
        })
    }

    /// Device address of the `amd_queue_t` (the `hsa_queue_t*`; what
    /// kernels get as their queue pointer).
    pub fn address(&self) -> u64 {
        self.inner.address
    }

    /// Device address of the ring buffer (`hsa_queue_t::base_address`).
    pub fn base_address(&self) -> u64 {
        self.inner.ring
    }

    /// Packets in the ring.
    pub fn size(&self) -> u32 {
        self.inner.size
    }

    /// The doorbell signal (`hsa_queue_t::doorbell_signal`).
    pub fn doorbell(&self) -> &Signal {
        &self.inner.doorbell
    }

    /// Device address of the packet slot of `index`.
    pub fn packet_address(&self, index: u64) -> u64 {
        self.inner.packet_address(index)
    }

    /// `hsa_queue_load_write_index_scacquire`.
    pub fn load_write_index(&self) -> u64 {
        self.inner.load_u64(QUEUE_WRITE_DISPATCH_ID)
    }

    /// `hsa_queue_store_write_index_screlease`.
    pub fn store_write_index(&self, value: u64) {
        self.inner.rmw_u64(QUEUE_WRITE_DISPATCH_ID, |_| value);
    }

    /// Atomically adds `n` to the write index and returns its previous
    /// value: reserves packet slots `[old, old + n)`
    /// (`hsa_queue_add_write_index_scacq_screl`).
    pub fn add_write_index(&self, n: u64) -> u64 {
        self.inner
            .rmw_u64(QUEUE_WRITE_DISPATCH_ID, |x| x.wrapping_add(n))
    }

    /// Sets the write index to `new` if it is `expected`; returns the
    /// previous value (`hsa_queue_cas_write_index_scacq_screl`).
    pub fn cas_write_index(&self, expected: u64, new: u64) -> u64 {
        self.inner.rmw_u64(
            QUEUE_WRITE_DISPATCH_ID,
            |x| {
                if x == expected { new } else { x }
            },
        )
    }

    /// `hsa_queue_load_read_index_scacquire`: packets before it are done.
    pub fn load_read_index(&self) -> u64 {
        self.inner.load_u64(QUEUE_READ_DISPATCH_ID)
    }

    /// Writes a packet the caller built into slot `index`: bytes 4–63
    /// first, then bytes 0–3 (header and the dispatch `setup` word) as one
    /// 32-bit store with release semantics, which publishes the packet.
    /// The slot must have been reserved with [`Queue::add_write_index`]
    /// and be free (`index < read index + size`).
    pub fn write_packet(&self, index: u64, packet: &[u8; 64]) -> Result<()> {
        let at = self.packet_address(index);
        let mem = &self.inner.shared.memory;
        mem.write(at + 4, &packet[4..])?;
        fence(Ordering::Release);
        let first = u32::from_le_bytes([packet[0], packet[1], packet[2], packet[3]]);
        mem.view().store(at, 4, u64::from(first))?;
        Ok(())
    }

    /// Rings the doorbell with the index of the last packet written
    /// (`hsa_signal_store_screlease(queue->doorbell_signal, index)`).
    pub fn ring_doorbell(&self, index: u64) {
        self.inner.doorbell.store(index as i64);
    }

    /// Reserves a slot, waits until it is free, writes `packet` and rings
    /// the doorbell; returns the packet index.
    pub fn submit(&self, packet: &[u8; 64]) -> Result<u64> {
        self.check_active()?;
        let index = self.add_write_index(1);
        let size = u64::from(self.inner.size);
        let inner = &self.inner;
        let mut inactive = false;
        inner.shared.notifier.wait_until(None, || {
            inactive = inner
                .error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some();
            inactive || index < inner.load_u64(QUEUE_READ_DISPATCH_ID) + size
        });
        if inactive {
            self.check_active()?;
        }
        self.write_packet(index, packet)?;
        self.ring_doorbell(index);
        Ok(index)
    }

    /// Submits a kernel dispatch packet; returns its index.
    pub fn submit_dispatch(&self, packet: &DispatchPacket) -> Result<u64> {
        self.submit(&packet.to_bytes())
    }

    fn submit_barrier(
        &self,
        packet_type: PacketType,
        deps: &[&Signal],
        completion: Option<&Signal>,
    ) -> Result<u64> {
        if deps.len() > 5 {
            return Err(Error::InvalidArgument(format!(
                "a barrier packet takes at most 5 dependency signals, {} given",
                deps.len()
            )));
        }
        let mut dep_signals = [0u64; 5];
        for (slot, s) in dep_signals.iter_mut().zip(deps) {
            *slot = s.handle();
        }
        let p = BarrierPacket {
            packet_type,
            barrier: true,
            acquire: FenceScope::System,
            release: FenceScope::System,
            dep_signals,
            completion_signal: completion.map_or(0, Signal::handle),
        };
        self.submit(&p.to_bytes())
    }

    /// Submits a barrier-AND packet: it completes when every signal in
    /// `deps` (at most 5) is 0, then decrements `completion`.
    pub fn submit_barrier_and(&self, deps: &[&Signal], completion: Option<&Signal>) -> Result<u64> {
        self.submit_barrier(PacketType::BarrierAnd, deps, completion)
    }

    /// Submits a barrier-OR packet: it completes when any signal in
    /// `deps` (at most 5) is 0 (at once if `deps` is empty), then
    /// decrements `completion`.
    pub fn submit_barrier_or(&self, deps: &[&Signal], completion: Option<&Signal>) -> Result<u64> {
        self.submit_barrier(PacketType::BarrierOr, deps, completion)
    }

    /// The error that made the queue inactive, if any.
    pub fn error(&self) -> Option<Error> {
        self.inner
            .error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map(|(_, e)| e.clone())
    }

    /// The error and the index of the packet that caused it.
    pub fn error_at(&self) -> Option<(u64, Error)> {
        self.inner
            .error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The kernel fault that made the queue inactive, if that is what
    /// happened.
    pub fn fault(&self) -> Option<DispatchError> {
        match self.error() {
            Some(Error::Fault(f)) => Some(f),
            _ => None,
        }
    }

    /// Whether the queue still processes packets.
    pub fn is_active(&self) -> bool {
        self.error().is_none()
    }

    fn check_active(&self) -> Result<()> {
        match self.error() {
            Some(e) => Err(Error::QueueInactive(Box::new(e))),
            None => Ok(()),
        }
    }

    /// Statistics of the last completed dispatch.
    pub fn last_stats(&self) -> Option<Stats> {
        self.inner
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .last()
            .map(|r| r.stats)
    }

    /// Statistics of every completed dispatch, in order.
    pub fn dispatch_log(&self) -> Vec<DispatchRecord> {
        self.inner
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Statistics of the dispatch at packet `index`, if it completed.
    pub fn stats_of(&self, index: u64) -> Option<Stats> {
        self.inner
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .rev()
            .find(|r| r.index == index)
            .map(|r| r.stats)
    }

    /// Runs one kernel to completion through the regular path: the
    /// kernarg segment copied into the kernarg region, a dispatch packet
    /// with a fresh completion signal, a wait (up to `timeout`) for the
    /// signal to reach 0, and a check of the queue's error state.
    pub fn dispatch(
        &self,
        kernel: &KernelInfo,
        kernarg: &[u8],
        geometry: &Geometry,
        timeout: Duration,
    ) -> Result<Stats> {
        self.check_active()?;
        let region = crate::system::Region::Kernarg;
        let ka = self.system.allocate(region, kernarg.len().max(1) as u64)?;
        let r = self.dispatch_with(kernel, ka, kernarg, geometry, timeout);
        if !matches!(r, Err(Error::Timeout(_))) {
            // A timed-out dispatch may still read its kernarg: leak it.
            let _ = self.system.free(ka);
        }
        r
    }

    fn dispatch_with(
        &self,
        kernel: &KernelInfo,
        ka: u64,
        kernarg: &[u8],
        geometry: &Geometry,
        timeout: Duration,
    ) -> Result<Stats> {
        self.system.write(ka, kernarg)?;
        let done = Signal::new(&self.system, 1)?;
        let packet = DispatchPacket {
            dims: geometry.dims,
            workgroup_size: geometry.group,
            grid_size: geometry.grid,
            private_segment_size: kernel.private_segment_size,
            group_segment_size: kernel
                .group_segment_size
                .saturating_add(geometry.dynamic_group_size),
            kernel_object: kernel.kernel_object,
            kernarg_address: ka,
            completion_signal: done.handle(),
            ..Default::default()
        };
        let index = self.submit_dispatch(&packet)?;
        done.wait_until(Condition::Eq, 0, timeout)?;
        if let Some((at, e)) = self.error_at() {
            return Err(if at == index {
                e
            } else {
                Error::QueueInactive(Box::new(e))
            });
        }
        self.stats_of(index).ok_or_else(|| {
            Error::InvalidArgument(format!("dispatch {index} completed without statistics"))
        })
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        self.inner.stop.store(true, Ordering::Release);
        self.inner.shared.notifier.notify();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.inner.shared.memory.free(self.inner.ring);
        self.inner.shared.memory.free(self.inner.address);
    }
}

/// How a packet ended.
enum Outcome {
    /// Completed.
    Done,
    /// The queue is being destroyed: stop without completing.
    Stopped,
}

impl Inner {
    fn packet_address(&self, index: u64) -> u64 {
        self.ring + (index & u64::from(self.size - 1)) * PACKET_SIZE
    }

    fn view(&self) -> MemView {
        self.shared.memory.view()
    }

    fn load_u64(&self, offset: u64) -> u64 {
        let v = self.view().load(self.address + offset, 8);
        debug_assert!(v.is_ok(), "amd_queue_t unmapped");
        fence(Ordering::SeqCst);
        v.unwrap_or(0)
    }

    fn rmw_u64(&self, offset: u64, f: impl Fn(u64) -> u64) -> u64 {
        fence(Ordering::SeqCst);
        let v = self.view().atomic_u64(self.address + offset, f);
        debug_assert!(v.is_ok(), "amd_queue_t unmapped");
        fence(Ordering::SeqCst);
        v.unwrap_or(0)
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The packet processor's loop.
    fn run(&self) {
        let mut device = Device::new(self.shared.memory.clone(), self.shared.threads);
        loop {
            let index = self.load_u64(QUEUE_READ_DISPATCH_ID);
            let slot = self.packet_address(index);
            let mut header = 0u16;
            self.shared.notifier.wait_until(None, || {
                header = self.view().load(slot, 2).unwrap_or(1) as u16;
                self.stopping() || header & 0xff != PacketType::Invalid as u16
            });
            if self.stopping() {
                return;
            }
            fence(Ordering::Acquire);
            let mut bytes = [0u8; 64];
            if let Err(e) = self.shared.memory.read(slot, &mut bytes) {
                self.fail(
                    index,
                    invalid(index, format!("ring buffer unreadable: {e}")),
                );
                return self.park();
            }
            let completion = u64::from_le_bytes(bytes[56..64].try_into().unwrap_or([0; 8]));
            let start = self.shared.timestamp();
            device.watchdog = self.shared.watchdog.load(Ordering::Relaxed);
            let outcome = self.process(&device, index, slot, &bytes);
            let failed = match outcome {
                Ok(Outcome::Stopped) => return,
                Ok(Outcome::Done) => false,
                Err(e) => {
                    self.fail(index, e);
                    true
                }
            };
            // Retire: free the slot, then signal completion (a waiter that
            // wakes sees the error and the advanced read index).
            let view = self.view();
            let _ = view.store(slot, 2, u64::from(PacketType::Invalid as u8));
            let _ = view.atomic_u64(self.address + QUEUE_READ_DISPATCH_ID, |x| x + 1);
            fence(Ordering::SeqCst);
            if completion != 0 {
                let _ = view.store(completion + SIGNAL_START_TS, 8, start);
                let _ = view.store(completion + SIGNAL_END_TS, 8, self.shared.timestamp());
                if let Err(reason) = signal::update_raw(&view, completion, |v| v.wrapping_sub(1))
                    && !failed
                {
                    self.fail(
                        index,
                        invalid(index, format!("completion_signal: {reason}")),
                    );
                    self.shared.notifier.notify();
                    return self.park();
                }
            }
            self.shared.notifier.notify();
            if failed {
                return self.park();
            }
        }
    }

    /// Inactive after an error: do nothing until the queue is destroyed.
    fn park(&self) {
        self.shared.notifier.wait_until(None, || self.stopping());
    }

    fn fail(&self, index: u64, e: Error) {
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some((index, e));
        }
    }

    fn process(&self, device: &Device, index: u64, slot: u64, b: &[u8; 64]) -> Result<Outcome> {
        let header = u16::from_le_bytes([b[0], b[1]]);
        match PacketType::from_header(header) {
            Some(PacketType::KernelDispatch) => {
                let p = DispatchPacket::from_bytes(b);
                self.dispatch(device, index, slot, &p)?;
                Ok(Outcome::Done)
            }
            Some(PacketType::BarrierAnd | PacketType::BarrierOr) => {
                let Some(p) = BarrierPacket::from_bytes(b) else {
                    return Err(invalid(index, "malformed barrier packet".into()));
                };
                self.barrier(index, &p)
            }
            Some(PacketType::AgentDispatch) => Err(invalid(
                index,
                "agent dispatch packets are not supported on a GPU queue".into(),
            )),
            Some(PacketType::VendorSpecific) => Err(invalid(
                index,
                "vendor-specific packets (AMD barrier-value, …) are not supported".into(),
            )),
            Some(PacketType::Invalid) | None => Err(invalid(
                index,
                format!("unknown packet type {}", header & 0xff),
            )),
        }
    }

    fn barrier(&self, index: u64, p: &BarrierPacket) -> Result<Outcome> {
        let deps: Vec<u64> = p.dep_signals.iter().copied().filter(|&h| h != 0).collect();
        let view = self.view();
        for (i, &h) in p.dep_signals.iter().enumerate() {
            if h != 0 {
                signal::load_raw(&view, h)
                    .map_err(|r| invalid(index, format!("dep_signal[{i}]: {r}")))?;
            }
        }
        if deps.is_empty() {
            return Ok(Outcome::Done);
        }
        let all = p.packet_type == PacketType::BarrierAnd;
        let mut failure = None;
        self.shared.notifier.wait_until(None, || {
            if self.stopping() {
                return true;
            }
            let view = self.shared.memory.view();
            let mut zeros = 0;
            for &h in &deps {
                match signal::load_raw(&view, h) {
                    Ok(0) => zeros += 1,
                    Ok(_) => {}
                    Err(r) => {
                        failure = Some(r);
                        return true;
                    }
                }
            }
            if all { zeros == deps.len() } else { zeros > 0 }
        });
        if let Some(r) = failure {
            return Err(invalid(index, format!("dependency signal: {r}")));
        }
        if self.stopping() {
            return Ok(Outcome::Stopped);
        }
        Ok(Outcome::Done)
    }

    /// Validates a kernel dispatch packet, runs it, and logs its stats.
    fn dispatch(&self, device: &Device, index: u64, slot: u64, p: &DispatchPacket) -> Result<()> {
        const AXES: [char; 3] = ['x', 'y', 'z'];
        let dims = p.dims;
        if !(1..=3).contains(&dims) {
            return Err(invalid(
                index,
                format!("setup dimensions is {dims}; must be 1, 2 or 3"),
            ));
        }
        let mut grid = [1u32; 3];
        let mut group = [1u32; 3];
        for d in 0..usize::from(dims) {
            grid[d] = p.grid_size[d];
            group[d] = u32::from(p.workgroup_size[d]);
            if group[d] == 0 {
                return Err(invalid(index, format!("workgroup_size_{} is 0", AXES[d])));
            }
            if grid[d] == 0 {
                return Err(invalid(index, format!("grid_size_{} is 0", AXES[d])));
            }
        }
        let items: u64 = group.iter().map(|&g| u64::from(g)).product();
        if items > u64::from(WORKGROUP_MAX_SIZE) {
            return Err(invalid(
                index,
                format!(
                    "work-group of {items} work-items exceeds the agent's maximum of {WORKGROUP_MAX_SIZE}"
                ),
            ));
        }
        let Some(entry) = self.shared.kernel(p.kernel_object) else {
            return Err(invalid(
                index,
                format!(
                    "kernel_object {:#x} is not the kernel descriptor of a loaded executable",
                    p.kernel_object
                ),
            ));
        };
        let image = &entry.image;
        let k = &image.kernels[entry.index];
        let kd = &k.descriptor;
        let md = k.metadata.as_ref();
        let kernarg_size = md.map_or(u64::from(kd.kernarg_size.get()), |m| m.kernarg_segment_size);
        let kernarg = if kernarg_size == 0 {
            Vec::new()
        } else if p.kernarg_address == 0 {
            return Err(invalid(
                index,
                format!(
                    "kernarg_address is null but kernel `{}` takes {kernarg_size} bytes of arguments",
                    k.name
                ),
            ));
        } else {
            self.shared
                .memory
                .read_vec(p.kernarg_address, kernarg_size as usize)
                .map_err(|e| {
                    invalid(
                        index,
                        format!(
                            "kernarg segment at {:#x} ({kernarg_size} bytes) is not readable: {e}",
                            p.kernarg_address
                        ),
                    )
                })?
        };
        let group_segment_size = p.group_segment_size.max(kd.group_segment_fixed_size.get());
        if u64::from(group_segment_size) > GROUP_SEGMENT_SIZE {
            return Err(invalid(
                index,
                format!(
                    "group segment of {group_segment_size} bytes exceeds the agent's {GROUP_SEGMENT_SIZE}"
                ),
            ));
        }
        let mut private = p
            .private_segment_size
            .max(kd.private_segment_fixed_size.get());
        let dynamic_stack = kd.properties().uses_dynamic_stack() != 0
            || md.and_then(|m| m.uses_dynamic_stack).unwrap_or(false);
        if dynamic_stack {
            private = private.max(
                kd.private_segment_fixed_size
                    .get()
                    .saturating_add(DYNAMIC_STACK_SIZE),
            );
        }
        let agprs = if image.target.has_mai() {
            md.and_then(|m| m.agpr_count).unwrap_or(0) as u32
        } else {
            0
        };
        let launch = Launch {
            name: k.name.clone(),
            program: &image.program,
            entry: k.entry,
            layout: k.layout.clone(),
            mode: initial_mode(kd.rsrc1()),
            vgprs: kd.allocated_vgprs(image.processor),
            agprs,
            grid,
            group,
            group_segment_size,
            private_segment_size: private,
            values: WaveValues {
                dispatch_ptr: slot,
                queue_ptr: self.address,
                kernarg_segment_ptr: p.kernarg_address,
                dispatch_id: index,
                private_segment_size: private,
                grid_workgroup_count: std::array::from_fn(|d| grid[d].div_ceil(group[d])),
                kernarg,
                ..Default::default()
            },
        };
        let stats = device.run(&launch)?;
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(DispatchRecord {
                index,
                kernel: k.name.clone(),
                stats,
            });
        Ok(())
    }
}

fn invalid(index: u64, reason: String) -> Error {
    Error::InvalidPacket { index, reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented `amd_queue_t` offsets are the ROCr ones.
    #[test]
    fn amd_queue_t_offsets() {
        assert_eq!(QUEUE_ID + 8, 40, "hsa_queue_t is 40 bytes");
        assert_eq!(QUEUE_WRITE_DISPATCH_ID, 40 + 4 * 4);
        assert_eq!(QUEUE_READ_DISPATCH_ID, 88 + 4 + 9 * 4);
        assert_eq!(QUEUE_PROPERTIES, QUEUE_SCRATCH_WAVE64_LANE_BYTE_SIZE + 4);
        assert_eq!(QUEUE_INACTIVE_SIGNAL, QUEUE_PROPERTIES + 4 + 8);
    }
}
