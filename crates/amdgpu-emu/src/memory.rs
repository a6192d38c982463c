//! Device memory: the emulated agent's global address space.
//!
//! Memory is a set of allocations at fixed device addresses, separated by
//! unmapped guard gaps so that an access just past an allocation faults
//! instead of reading a neighbour. Every access is bounds-checked and
//! reports a [`MemFault`] naming the address and the nearest allocation.
//!
//! Waves on different host threads share memory, as work-groups on a GPU
//! do, so every access is a relaxed atomic access of its natural width (a
//! plain load or store on x86-64 and AArch64): racing kernels get some
//! value, never undefined behaviour in the emulator. This module is the
//! emulator's memory core, the one place allowed `unsafe`: it views the
//! `AtomicU64` storage at narrower widths.
//!
//! A [`MemView`] is a snapshot of the allocation map taken at dispatch
//! start; allocations made during a dispatch are not visible to it, and
//! freed allocations stay alive until the views holding them are gone.

#![allow(unsafe_code)]

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// First device address handed out: low addresses stay unmapped so that
/// null and small pointers fault.
pub const FIRST_ADDRESS: u64 = 0x1_0000_0000;

/// First device address of a small-machine-model memory
/// ([`Memory::new_small`]): 256 MiB, so that null and small pointers
/// still fault.
pub const SMALL_FIRST_ADDRESS: u64 = 0x1000_0000;

/// Highest address + 1 of a small-machine-model memory: every address
/// fits 32 bits, and the top 32 MiB stay free for the finalizer's 32-bit
/// flat windows onto group and private memory
/// (`hsail_finalizer`'s `FLAT32_GROUP`).
pub const SMALL_ADDRESS_LIMIT: u64 = 0xfe00_0000;

/// Unmapped gap after every allocation (and minimum alignment).
pub const GUARD: u64 = 0x1_0000;

/// Most bytes allocated at once (host memory backs device memory): an
/// allocation past it fails instead of exhausting the host.
pub const MEMORY_LIMIT: u64 = 16 << 30;

/// Highest device address + 1 (47-bit user address space; the group and
/// private apertures lie above it).
pub const ADDRESS_LIMIT: u64 = 1 << 47;

/// Why a memory access failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemFault {
    /// No allocation covers `[addr, addr + len)`.
    Unmapped {
        /// Start of the access.
        addr: u64,
        /// Bytes accessed.
        len: u64,
        /// Nearest allocation below the address, `(base, size)`.
        near: Option<(u64, u64)>,
    },
    /// An atomic access not aligned to its size.
    Misaligned {
        /// Start of the access.
        addr: u64,
        /// Required alignment.
        align: u64,
    },
}

impl fmt::Display for MemFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MemFault::Unmapped { addr, len, near } => {
                write!(f, "{len}-byte access at {addr:#x} outside any allocation")?;
                if let Some((base, size)) = near {
                    let end = base + size;
                    if addr >= end {
                        write!(
                            f,
                            " ({} bytes past the end of allocation {base:#x}..{end:#x})",
                            addr - end
                        )?;
                    } else {
                        write!(f, " (runs past the end of allocation {base:#x}..{end:#x})")?;
                    }
                }
                Ok(())
            }
            MemFault::Misaligned { addr, align } => {
                write!(f, "atomic access at {addr:#x} not aligned to {align} bytes")
            }
        }
    }
}

impl std::error::Error for MemFault {}

/// One allocation: zero-filled storage at a device address.
pub struct Allocation {
    base: u64,
    size: u64,
    words: Box<[AtomicU64]>,
}

impl fmt::Debug for Allocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Allocation({:#x}..{:#x})",
            self.base,
            self.base + self.size
        )
    }
}

impl Allocation {
    /// Zeroed storage, or `None` if the host cannot provide it (instead of
    /// aborting the process).
    fn new(base: u64, size: u64) -> Option<Allocation> {
        let n = usize::try_from(size.div_ceil(8)).ok()?;
        let mut words = Vec::new();
        words.try_reserve_exact(n).ok()?;
        words.extend((0..n).map(|_| AtomicU64::new(0)));
        Some(Allocation {
            base,
            size,
            words: words.into_boxed_slice(),
        })
    }

    /// Device address of the first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn ptr(&self, offset: usize) -> *mut u8 {
        debug_assert!(offset < self.words.len() * 8);
        // The storage is only ever accessed through atomics; the pointer is
        // derived from the slice, so it carries the slice's provenance.
        self.words
            .as_ptr()
            .cast::<u8>()
            .cast_mut()
            .wrapping_add(offset)
    }

    fn byte(&self, offset: usize) -> &AtomicU8 {
        // SAFETY: `offset` is within the storage (checked by the caller's
        // locate), AtomicU8 has alignment 1, and all accesses to the storage
        // are atomic, so no non-atomic access can race with this one.
        unsafe { AtomicU8::from_ptr(self.ptr(offset)) }
    }

    /// Loads `size` (1, 2, 4 or 8) bytes at `offset`, which is in bounds.
    fn load(&self, offset: usize, size: usize) -> u64 {
        if offset.is_multiple_of(size) {
            let p = self.ptr(offset);
            // SAFETY: in bounds (caller), naturally aligned (storage is
            // 8-aligned and offset % size == 0), and only accessed atomically.
            unsafe {
                match size {
                    1 => u64::from(AtomicU8::from_ptr(p).load(Ordering::Relaxed)),
                    2 => u64::from(AtomicU16::from_ptr(p.cast()).load(Ordering::Relaxed)),
                    4 => u64::from(AtomicU32::from_ptr(p.cast()).load(Ordering::Relaxed)),
                    _ => AtomicU64::from_ptr(p.cast()).load(Ordering::Relaxed),
                }
            }
        } else {
            let mut v = 0u64;
            for i in (0..size).rev() {
                v = v << 8 | u64::from(self.byte(offset + i).load(Ordering::Relaxed));
            }
            v
        }
    }

    /// Stores the low `size` bytes of `value` at `offset`, which is in bounds.
    fn store(&self, offset: usize, size: usize, value: u64) {
        if offset.is_multiple_of(size) {
            let p = self.ptr(offset);
            // SAFETY: as in `load`.
            unsafe {
                match size {
                    1 => AtomicU8::from_ptr(p).store(value as u8, Ordering::Relaxed),
                    2 => AtomicU16::from_ptr(p.cast()).store(value as u16, Ordering::Relaxed),
                    4 => AtomicU32::from_ptr(p.cast()).store(value as u32, Ordering::Relaxed),
                    _ => AtomicU64::from_ptr(p.cast()).store(value, Ordering::Relaxed),
                }
            }
        } else {
            for i in 0..size {
                self.byte(offset + i)
                    .store((value >> (8 * i)) as u8, Ordering::Relaxed);
            }
        }
    }

    fn atomic32(&self, offset: usize) -> &AtomicU32 {
        // SAFETY: in bounds and 4-aligned (checked by the caller); only
        // accessed atomically.
        unsafe { AtomicU32::from_ptr(self.ptr(offset).cast()) }
    }

    fn atomic64(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: in bounds and 8-aligned (checked by the caller); only
        // accessed atomically.
        unsafe { AtomicU64::from_ptr(self.ptr(offset).cast()) }
    }
}

/// The device's memory: allocate, free, copy in and out, and take views
/// for dispatches.
#[derive(Debug)]
pub struct Memory {
    map: RwLock<Arc<Vec<Arc<Allocation>>>>,
    next: Mutex<u64>,
    /// Highest address + 1 allocations may reach.
    limit: u64,
    /// Bytes currently allocated.
    allocated: AtomicU64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Memory {
    /// Empty memory whose allocations start at 4 GiB ([`FIRST_ADDRESS`]),
    /// so that an address truncated to 32 bits faults.
    pub fn new() -> Memory {
        Memory::with_range(FIRST_ADDRESS, ADDRESS_LIMIT)
    }

    /// Empty memory for the small machine model: every allocation lies
    /// below [`SMALL_ADDRESS_LIMIT`], so its addresses fit 32 bits.
    pub fn new_small() -> Memory {
        Memory::with_range(SMALL_FIRST_ADDRESS, SMALL_ADDRESS_LIMIT)
    }

    fn with_range(first: u64, limit: u64) -> Memory {
        Memory {
            map: RwLock::new(Arc::new(Vec::new())),
            next: Mutex::new(first),
            limit,
            allocated: AtomicU64::new(0),
        }
    }

    /// Whether every address this memory hands out fits 32 bits.
    pub fn is_small(&self) -> bool {
        self.limit <= 1 << 32
    }

    /// Allocates `size` zeroed bytes aligned to `align` (at least
    /// [`GUARD`]); returns the device address. `None` when the address
    /// space is exhausted.
    pub fn allocate(&self, size: u64, align: u64) -> Option<u64> {
        let align = align.max(GUARD).next_power_of_two();
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let base = next.checked_next_multiple_of(align)?;
        let end = base.checked_add(size.max(1))?;
        if end > self.limit {
            return None;
        }
        if self.allocated.load(Ordering::Relaxed).saturating_add(size) > MEMORY_LIMIT {
            return None;
        }
        let alloc = Arc::new(Allocation::new(base, size.max(1))?);
        self.allocated.fetch_add(alloc.size, Ordering::Relaxed);
        *next = end.checked_add(GUARD)?;
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<Arc<Allocation>> = map.as_ref().clone();
        let at = v.partition_point(|a| a.base < base);
        v.insert(at, alloc);
        *map = Arc::new(v);
        Some(base)
    }

    /// Frees the allocation starting at `addr`; false if there is none.
    pub fn free(&self, addr: u64) -> bool {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        let Some(at) = map.iter().position(|a| a.base == addr) else {
            return false;
        };
        let mut v: Vec<Arc<Allocation>> = map.as_ref().clone();
        let gone = v.remove(at);
        self.allocated.fetch_sub(gone.size, Ordering::Relaxed);
        *map = Arc::new(v);
        true
    }

    /// The allocation containing `addr`, as `(base, size)`.
    pub fn allocation_of(&self, addr: u64) -> Option<(u64, u64)> {
        let view = self.view();
        let (a, _) = view.locate(addr, 1).ok()?;
        Some((a.base, a.size))
    }

    /// A snapshot of the current allocations, for a dispatch.
    pub fn view(&self) -> MemView {
        MemView {
            allocs: self.map.read().unwrap_or_else(|e| e.into_inner()).clone(),
            hint: Cell::new(0),
        }
    }

    /// Copies `data` to device address `addr`.
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.view().write_bytes(addr, data)
    }

    /// Copies device memory at `addr` into `out`.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.view().read_bytes(addr, out)
    }

    /// Reads `len` bytes at `addr` into a new vector.
    pub fn read_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>, MemFault> {
        let view = self.view();
        if len != 0 {
            // Bounds first, so that a bad length faults instead of allocating.
            view.locate(addr, len as u64)?;
        }
        let mut v = vec![0; len];
        view.read_bytes(addr, &mut v)?;
        Ok(v)
    }
}

/// A snapshot of the allocation map with a per-thread lookup hint. Clone
/// one per host thread (it is `Send`, not `Sync`).
#[derive(Debug, Clone)]
pub struct MemView {
    allocs: Arc<Vec<Arc<Allocation>>>,
    hint: Cell<usize>,
}

impl MemView {
    /// The allocation holding `[addr, addr + len)` and the offset in it.
    #[inline]
    pub fn locate(&self, addr: u64, len: u64) -> Result<(&Allocation, usize), MemFault> {
        let allocs = &self.allocs;
        let h = self.hint.get();
        if let Some(a) = allocs.get(h)
            && addr >= a.base
            && addr.wrapping_sub(a.base).saturating_add(len) <= a.size
        {
            return Ok((a, (addr - a.base) as usize));
        }
        let i = allocs.partition_point(|a| a.base <= addr);
        if i > 0 {
            let a = &allocs[i - 1];
            if (addr - a.base).saturating_add(len) <= a.size {
                self.hint.set(i - 1);
                return Ok((a, (addr - a.base) as usize));
            }
            return Err(MemFault::Unmapped {
                addr,
                len,
                near: Some((a.base, a.size)),
            });
        }
        Err(MemFault::Unmapped {
            addr,
            len,
            near: None,
        })
    }

    /// Loads a little-endian value of `size` bytes (1, 2, 4 or 8).
    #[inline]
    pub fn load(&self, addr: u64, size: usize) -> Result<u64, MemFault> {
        let (a, off) = self.locate(addr, size as u64)?;
        Ok(a.load(off, size))
    }

    /// Stores the low `size` bytes (1, 2, 4 or 8) of `value`.
    #[inline]
    pub fn store(&self, addr: u64, size: usize, value: u64) -> Result<(), MemFault> {
        let (a, off) = self.locate(addr, size as u64)?;
        a.store(off, size, value);
        Ok(())
    }

    /// Loads a dword.
    #[inline]
    pub fn load_u32(&self, addr: u64) -> Result<u32, MemFault> {
        Ok(self.load(addr, 4)? as u32)
    }

    /// Stores a dword.
    #[inline]
    pub fn store_u32(&self, addr: u64, value: u32) -> Result<(), MemFault> {
        self.store(addr, 4, u64::from(value))
    }

    /// Loads `out.len()` consecutive dwords.
    pub fn load_dwords(&self, addr: u64, out: &mut [u32]) -> Result<(), MemFault> {
        let (a, off) = self.locate(addr, out.len() as u64 * 4)?;
        for (i, o) in out.iter_mut().enumerate() {
            *o = a.load(off + 4 * i, 4) as u32;
        }
        Ok(())
    }

    /// Stores consecutive dwords.
    pub fn store_dwords(&self, addr: u64, data: &[u32]) -> Result<(), MemFault> {
        let (a, off) = self.locate(addr, data.len() as u64 * 4)?;
        for (i, &d) in data.iter().enumerate() {
            a.store(off + 4 * i, 4, u64::from(d));
        }
        Ok(())
    }

    /// Atomically replaces the dword at `addr` (4-aligned) with `f(old)`;
    /// returns the old value.
    #[inline]
    pub fn atomic_u32(&self, addr: u64, f: impl Fn(u32) -> u32) -> Result<u32, MemFault> {
        if !addr.is_multiple_of(4) {
            return Err(MemFault::Misaligned { addr, align: 4 });
        }
        let (a, off) = self.locate(addr, 4)?;
        let cell = a.atomic32(off);
        let mut old = cell.load(Ordering::Relaxed);
        loop {
            match cell.compare_exchange_weak(old, f(old), Ordering::SeqCst, Ordering::Relaxed) {
                Ok(v) => return Ok(v),
                Err(v) => old = v,
            }
        }
    }

    /// Atomically replaces the qword at `addr` (8-aligned) with `f(old)`;
    /// returns the old value.
    #[inline]
    pub fn atomic_u64(&self, addr: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        if !addr.is_multiple_of(8) {
            return Err(MemFault::Misaligned { addr, align: 8 });
        }
        let (a, off) = self.locate(addr, 8)?;
        let cell = a.atomic64(off);
        let mut old = cell.load(Ordering::Relaxed);
        loop {
            match cell.compare_exchange_weak(old, f(old), Ordering::SeqCst, Ordering::Relaxed) {
                Ok(v) => return Ok(v),
                Err(v) => old = v,
            }
        }
    }

    /// Copies bytes in.
    pub fn write_bytes(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        if data.is_empty() {
            return Ok(());
        }
        let (a, off) = self.locate(addr, data.len() as u64)?;
        for (i, &b) in data.iter().enumerate() {
            a.byte(off + i).store(b, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Copies bytes out.
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        if out.is_empty() {
            return Ok(());
        }
        let (a, off) = self.locate(addr, out.len() as u64)?;
        for (i, o) in out.iter_mut().enumerate() {
            *o = a.byte(off + i).load(Ordering::Relaxed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_memory_stays_below_its_limit() {
        let m = Memory::new_small();
        assert!(m.is_small() && !Memory::new().is_small());
        let a = m.allocate(1 << 20, 64).unwrap();
        assert!(a >= SMALL_FIRST_ADDRESS && a + (1 << 20) <= SMALL_ADDRESS_LIMIT);
        // The arena is under 4 GiB: a 4 GiB allocation cannot fit.
        assert_eq!(m.allocate(1 << 32, 64), None);
        assert!(Memory::new().allocate(8, 8).unwrap() >= 1 << 32);
    }

    #[test]
    fn accesses_are_bounds_checked() {
        let m = Memory::new();
        let a = m.allocate(10, 4).unwrap();
        let b = m.allocate(8, 4).unwrap();
        assert!(b >= a + 10 + GUARD);
        let v = m.view();
        v.store(a + 6, 4, 0xdead_beef).unwrap();
        assert_eq!(v.load(a + 6, 4).unwrap(), 0xdead_beef);
        assert_eq!(v.load(a + 7, 2).unwrap(), 0xadbe);
        assert_eq!(
            v.load(a + 8, 4),
            Err(MemFault::Unmapped {
                addr: a + 8,
                len: 4,
                near: Some((a, 10))
            })
        );
        let e = v.load(a + 12, 1).unwrap_err().to_string();
        assert!(e.contains("2 bytes past the end"), "{e}");
        assert!(v.load(0, 4).is_err());
        assert!(v.load(u64::MAX - 1, 4).is_err());
        assert_eq!(
            v.atomic_u32(a + 2, |x| x + 1),
            Err(MemFault::Misaligned {
                addr: a + 2,
                align: 4
            })
        );
        v.store(b, 8, 7).unwrap();
        assert_eq!(v.atomic_u64(b, |x| x * 3).unwrap(), 7);
        assert_eq!(v.load(b, 8).unwrap(), 21);
        assert!(m.free(a));
        assert!(m.view().load(a, 1).is_err());
        // Past the limit: refused, not an abort; freed bytes count again.
        assert_eq!(m.allocate(MEMORY_LIMIT, 8), None);
        assert!(m.allocate(1 << 20, 8).is_some());
        // The old view still holds the allocation.
        assert_eq!(v.load(a + 6, 4).unwrap(), 0xdead_beef);
    }
}
