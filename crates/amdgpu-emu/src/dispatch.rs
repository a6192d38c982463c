//! Kernel dispatch: work-groups spread over host threads, the waves of
//! one work-group taking turns in a fixed order (a turn ends at a barrier,
//! at `s_sleep` or after a quantum of instructions), each wave
//! started in the state AMDGPUUsage's "Initial Kernel Execution State"
//! describes (via `amdgpu_object::abi::WaveLayout`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use amdgpu_object::abi::{WaveLayout, WaveValues, WorkItemIds, workgroup_info};

use crate::exec::{Ctx, DispatchFacts, FaultKind};
use crate::memory::{MemView, Memory};
use crate::program::Program;
use crate::wave::{FLAT_SCRATCH, LANES, Wave};

/// Everything the packet processor knows about one kernel dispatch.
#[derive(Debug, Clone)]
pub struct Launch<'a> {
    /// Kernel name (for error reports).
    pub name: String,
    /// The loaded code containing the kernel.
    pub program: &'a Program,
    /// Device address of the kernel's first instruction.
    pub entry: u64,
    /// Initial register layout, from the kernel descriptor.
    pub layout: WaveLayout,
    /// Initial MODE register (from `compute_pgm_rsrc1`, see [`initial_mode`]).
    pub mode: u32,
    /// VGPRs the kernel allocated (these start zeroed).
    pub vgprs: u32,
    /// AGPRs the kernel allocated (gfx90a: unified with VGPRs).
    pub agprs: u32,
    /// Grid size in work-items, per dimension.
    pub grid: [u32; 3],
    /// Work-group size in work-items, per dimension.
    pub group: [u32; 3],
    /// LDS bytes per work-group (static + dynamic).
    pub group_segment_size: u32,
    /// Private (scratch) bytes per work-item.
    pub private_segment_size: u32,
    /// Values the packet processor supplies (dispatch/queue/kernarg
    /// pointers, dispatch ID, kernarg bytes for preloading). Per-wave fields
    /// are filled in here.
    pub values: WaveValues,
}

/// Execution counts of a dispatch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Work-groups run.
    pub workgroups: u64,
    /// Waves run.
    pub waves: u64,
    /// Wave-instructions executed.
    pub instructions: u64,
    /// Lane operations of vector instructions (active lanes summed).
    pub lane_ops: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// A dispatch that stopped on a fault: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "kernel `{kernel}`, work-group ({}, {}, {}), wave {wave}: {kind} at pc {pc:#x}{}",
    workgroup[0], workgroup[1], workgroup[2],
    instruction.as_deref().map(|i| format!(" (`{i}`)")).unwrap_or_default()
)]
pub struct DispatchError {
    /// Kernel name.
    pub kernel: String,
    /// Work-group ID.
    pub workgroup: [u32; 3],
    /// Wave index in the work-group.
    pub wave: u32,
    /// Address of the faulting instruction.
    pub pc: u64,
    /// The instruction, disassembled (if it decodes).
    pub instruction: Option<String>,
    /// What went wrong.
    pub kind: FaultKind,
}

/// The emulated GPU's execution resources.
#[derive(Debug)]
pub struct Device {
    /// Device memory.
    pub memory: std::sync::Arc<Memory>,
    /// Host threads running work-groups.
    pub threads: usize,
    /// Maximum instructions one wave may execute before it is stopped.
    pub watchdog: u64,
}

/// Default watchdog: instructions per wave.
pub const DEFAULT_WATCHDOG: u64 = 1 << 30;

/// MODE at wave start from `compute_pgm_rsrc1`: round modes, denorm modes,
/// DX10 clamp and IEEE bits in the MODE register's layout.
pub fn initial_mode(rsrc1: amdgpu_object::kd::ComputePgmRsrc1) -> u32 {
    rsrc1.float_round_mode_32()
        | rsrc1.float_round_mode_16_64() << 2
        | rsrc1.float_denorm_mode_32() << 4
        | rsrc1.float_denorm_mode_16_64() << 6
        | rsrc1.enable_dx10_clamp() << 8
        | rsrc1.enable_ieee_mode() << 9
}

/// Per-dispatch scratch: one slot per (thread, wave in work-group).
struct Scratch {
    base: u64,
    per_wave: u64,
    waves_per_thread: u64,
}

impl Device {
    /// A device over `memory` running work-groups on `threads` host threads.
    pub fn new(memory: std::sync::Arc<Memory>, threads: usize) -> Device {
        Device {
            memory,
            threads: threads.max(1),
            watchdog: DEFAULT_WATCHDOG,
        }
    }

    /// Runs a dispatch to completion, or to its first fault.
    pub fn run(&self, launch: &Launch<'_>) -> Result<Stats, DispatchError> {
        let start = Instant::now();
        let counts: [u32; 3] = std::array::from_fn(|d| {
            if launch.group[d] == 0 {
                0
            } else {
                launch.grid[d].div_ceil(launch.group[d])
            }
        });
        let total = u64::from(counts[0]) * u64::from(counts[1]) * u64::from(counts[2]);
        let items_per_group: u64 = launch.group.iter().map(|&g| u64::from(g)).product();
        let waves_per_group = items_per_group.div_ceil(LANES as u64).max(1);
        let threads = (self.threads as u64).min(total.max(1)) as usize;

        let scratch = self.scratch(launch, waves_per_group, threads as u64)?;
        let facts = DispatchFacts {
            private_segment_size: launch.private_segment_size,
            scratch_base: scratch.as_ref().map_or(0, |s| s.base),
            start: Some(start),
        };
        let next = AtomicU64::new(0);
        let abort = AtomicBool::new(false);
        let failure: Mutex<Option<(u64, DispatchError)>> = Mutex::new(None);
        let totals = Mutex::new(Stats::default());
        let view = self.memory.view();

        std::thread::scope(|s| {
            for t in 0..threads {
                let view = view.clone();
                let (next, abort, failure, totals, facts, scratch) =
                    (&next, &abort, &failure, &totals, &facts, &scratch);
                s.spawn(move || {
                    let mut runner = Runner::new(launch, view, facts, self.watchdog);
                    if let Some(sc) = scratch {
                        runner.values.flat_scratch_init = sc.base;
                        runner.values.private_segment_buffer =
                            crate::exec::mubuf::scratch_resource(sc.base);
                        runner.scratch_base = sc.base;
                    }
                    let mut local = Stats::default();
                    loop {
                        if abort.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let wg = [
                            (i % u64::from(counts[0])) as u32,
                            (i / u64::from(counts[0]) % u64::from(counts[1])) as u32,
                            (i / (u64::from(counts[0]) * u64::from(counts[1]))) as u32,
                        ];
                        let slot = scratch
                            .as_ref()
                            .map(|s| s.base + t as u64 * s.waves_per_thread * s.per_wave);
                        match runner.run_workgroup(
                            wg,
                            slot,
                            scratch.as_ref().map_or(0, |s| s.per_wave),
                        ) {
                            Ok(()) => local.workgroups += 1,
                            Err(e) => {
                                abort.store(true, Ordering::Relaxed);
                                let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                                if f.as_ref().is_none_or(|(j, _)| i < *j) {
                                    *f = Some((i, e));
                                }
                                break;
                            }
                        }
                    }
                    local.waves = runner.waves;
                    local.instructions = runner.instructions;
                    local.lane_ops = runner.lane_ops;
                    let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
                    t.workgroups += local.workgroups;
                    t.waves += local.waves;
                    t.instructions += local.instructions;
                    t.lane_ops += local.lane_ops;
                });
            }
        });
        if let Some(s) = &scratch {
            self.memory.free(s.base);
        }
        if let Some((_, e)) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let mut stats = totals.into_inner().unwrap_or_else(|e| e.into_inner());
        stats.elapsed = start.elapsed();
        Ok(stats)
    }

    /// Runs only work-group (0, 0, 0) on the calling thread and returns
    /// its waves' final state (for tests).
    pub fn run_first_workgroup(&self, launch: &Launch<'_>) -> Result<Vec<Wave>, DispatchError> {
        let items: u64 = launch.group.iter().map(|&g| u64::from(g)).product();
        let waves_per_group = items.div_ceil(LANES as u64).max(1);
        let scratch = self.scratch(launch, waves_per_group, 1)?;
        let facts = DispatchFacts {
            private_segment_size: launch.private_segment_size,
            scratch_base: scratch.as_ref().map_or(0, |s| s.base),
            start: Some(Instant::now()),
        };
        let mut runner = Runner::new(launch, self.memory.view(), &facts, self.watchdog);
        if let Some(sc) = &scratch {
            runner.values.flat_scratch_init = sc.base;
            runner.values.private_segment_buffer = crate::exec::mubuf::scratch_resource(sc.base);
            runner.scratch_base = sc.base;
        }
        let result = runner.run_workgroup(
            [0; 3],
            scratch.as_ref().map(|s| s.base),
            scratch.as_ref().map_or(0, |s| s.per_wave),
        );
        if let Some(s) = &scratch {
            self.memory.free(s.base);
        }
        result?;
        // The first group may be partial (grid smaller than a group), so it
        // can have fewer than `waves_per_group` waves: return the ones it ran.
        Ok(runner.waves_store)
    }

    fn scratch(
        &self,
        launch: &Launch<'_>,
        waves_per_group: u64,
        threads: u64,
    ) -> Result<Option<Scratch>, DispatchError> {
        if launch.private_segment_size == 0 {
            return Ok(None);
        }
        // Scratch is allocated per wave in 1 KiB granules (WAVESIZE).
        let per_wave =
            (u64::from(launch.private_segment_size) * LANES as u64).next_multiple_of(1024);
        let size = per_wave * waves_per_group * threads;
        let base = self
            .memory
            .allocate(size, 1 << 16)
            .ok_or_else(|| DispatchError {
                kernel: launch.name.clone(),
                workgroup: [0; 3],
                wave: 0,
                pc: launch.entry,
                instruction: None,
                kind: FaultKind::Other(format!(
                    "cannot allocate {size} bytes of scratch ({} bytes per work-item)",
                    launch.private_segment_size
                )),
            })?;
        Ok(Some(Scratch {
            base,
            per_wave,
            waves_per_thread: waves_per_group,
        }))
    }
}

/// Runs work-groups on one host thread, reusing wave and LDS storage.
struct Runner<'a> {
    launch: &'a Launch<'a>,
    view: MemView,
    facts: &'a DispatchFacts,
    watchdog: u64,
    values: WaveValues,
    scratch_base: u64,
    waves_store: Vec<Wave>,
    lds: Vec<u8>,
    waves: u64,
    instructions: u64,
    lane_ops: u64,
}

impl<'a> Runner<'a> {
    fn new(launch: &'a Launch<'a>, view: MemView, facts: &'a DispatchFacts, watchdog: u64) -> Self {
        Runner {
            launch,
            view,
            facts,
            watchdog,
            values: launch.values.clone(),
            scratch_base: 0,
            waves_store: Vec::new(),
            lds: vec![0; launch.group_segment_size as usize],
            waves: 0,
            instructions: 0,
            lane_ops: 0,
        }
    }

    fn error(&self, w: &Wave, pc: u64, kind: FaultKind) -> DispatchError {
        let instruction = self
            .launch
            .program
            .fetch(pc)
            .ok()
            .map(|d| amdgpu_isa::gfx9::print(&d.inst));
        DispatchError {
            kernel: self.launch.name.clone(),
            workgroup: w.workgroup_id,
            wave: w.wave_in_group,
            pc,
            instruction,
            kind,
        }
    }

    /// Sets up the waves of work-group `wg` and runs them to the end.
    fn run_workgroup(
        &mut self,
        wg: [u32; 3],
        scratch_slot: Option<u64>,
        scratch_per_wave: u64,
    ) -> Result<(), DispatchError> {
        let l = self.launch;
        let size: [u32; 3] =
            std::array::from_fn(|d| l.group[d].min(l.grid[d] - wg[d] * l.group[d]));
        let items = size[0] * size[1] * size[2];
        let nwaves = items.div_ceil(LANES as u32).max(1) as usize;
        let agprs = l.program.target().has_mai();
        while self.waves_store.len() < nwaves {
            self.waves_store.push(Wave::new(agprs));
        }
        self.lds.fill(0);
        let mut values = self.values.clone();
        values.workgroup_id = wg;
        for (i, w) in self.waves_store[..nwaves].iter_mut().enumerate() {
            let scratch = scratch_slot.map_or(0, |s| s + i as u64 * scratch_per_wave);
            values.workgroup_info = workgroup_info(i == 0, 0, nwaves as u32);
            values.private_segment_wave_byte_offset =
                scratch_slot.map_or(0, |_| (scratch - self.scratch_base) as u32);
            init_wave(w, l, &values, i as u32, wg, size, items, scratch);
        }
        self.waves += nwaves as u64;

        // Run waves in turn, each until it ends, waits at the barrier,
        // sleeps (`s_sleep`: a spin-wait lets the others run) or has run
        // `QUANTUM` instructions; when every live wave waits at the
        // barrier, release them.
        let Runner {
            waves_store,
            lds,
            view,
            facts,
            watchdog,
            ..
        } = self;
        let waves = &mut waves_store[..nwaves];
        loop {
            let mut live = 0;
            for w in waves.iter_mut() {
                if w.ended {
                    continue;
                }
                live += 1;
                if w.at_barrier {
                    continue;
                }
                let mut ctx = Ctx {
                    mem: view,
                    lds,
                    target: l.program.target(),
                    dispatch: facts,
                };
                if let Err((pc, kind)) = run_wave(w, l.program, &mut ctx, *watchdog) {
                    let w = w.clone();
                    self.instructions += w.instructions;
                    return Err(self.error(&w, pc, kind));
                }
            }
            if live == 0 {
                break;
            }
            if waves.iter().all(|w| w.ended || w.at_barrier) {
                for w in waves.iter_mut() {
                    w.at_barrier = false;
                }
            }
        }
        for w in waves.iter() {
            self.instructions += w.instructions;
            self.lane_ops += w.lane_ops;
        }
        Ok(())
    }
}

/// Instructions a wave runs before the other waves of its work-group get a
/// turn (so that a wave spinning on LDS without `s_sleep` cannot starve
/// the wave it waits for).
const QUANTUM: u64 = 1 << 14;

/// Instructions the watchdog charges per unit of `s_sleep` (64 clocks).
const SLEEP_COST: u64 = 64;

/// Runs a wave until it ends, reaches a barrier, sleeps, has run
/// [`QUANTUM`] instructions, or faults (returning the faulting PC). The
/// watchdog counts instructions plus sleep time.
#[inline(never)]
fn run_wave(
    w: &mut Wave,
    p: &Program,
    ctx: &mut Ctx<'_>,
    watchdog: u64,
) -> Result<(), (u64, FaultKind)> {
    let budget = watchdog.saturating_sub(w.slept.saturating_mul(SLEEP_COST));
    let limit = budget.min(w.instructions.saturating_add(QUANTUM));
    loop {
        let pc = w.pc;
        let d = p.fetch(pc).map_err(|k| (pc, k))?;
        w.pc = pc.wrapping_add(u64::from(d.len));
        (d.exec)(w, d, ctx).map_err(|k| (pc, k))?;
        w.instructions += 1;
        if w.ended || w.at_barrier {
            return Ok(());
        }
        if w.yielded {
            w.yielded = false;
            if w.instructions
                .saturating_add(w.slept.saturating_mul(SLEEP_COST))
                >= watchdog
            {
                return Err((w.pc, watchdog_fault(w)));
            }
            return Ok(());
        }
        if w.instructions >= limit {
            if limit >= budget {
                return Err((w.pc, watchdog_fault(w)));
            }
            return Ok(());
        }
    }
}

/// The fault of a wave that reached the watchdog.
fn watchdog_fault(w: &Wave) -> FaultKind {
    if w.sleeps == 0 {
        FaultKind::Watchdog(w.instructions)
    } else {
        FaultKind::SpinWatchdog {
            instructions: w.instructions,
            sleeps: w.sleeps,
        }
    }
}

/// The initial state of wave `index` of a work-group of `size` work-items.
#[allow(clippy::too_many_arguments)]
fn init_wave(
    w: &mut Wave,
    l: &Launch<'_>,
    values: &WaveValues,
    index: u32,
    wg: [u32; 3],
    size: [u32; 3],
    items: u32,
    scratch: u64,
) {
    w.s = [0; 128];
    let nv = (l.vgprs as usize).clamp(3, w.v.len());
    for r in &mut w.v[..nv] {
        *r = [0; LANES];
    }
    let na = (l.agprs as usize).min(w.a.len());
    for r in &mut w.a[..na] {
        *r = [0; LANES];
    }
    for (reg, value) in l.layout.sgpr_values(values) {
        if let Some(s) = w.s.get_mut(reg as usize) {
            *s = value;
        }
    }
    let first = index * LANES as u32;
    let lanes = (items - first).min(LANES as u32);
    w.set_exec(if lanes == 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    });
    let ids = l.layout.work_item_ids;
    let dims = usize::from(ids.dims()).min(3);
    for lane in 0..lanes as usize {
        let flat = first + lane as u32;
        let id = [
            flat % size[0],
            flat / size[0] % size[1],
            flat / (size[0] * size[1]),
        ];
        match ids {
            WorkItemIds::Separate { .. } => {
                for (d, &v) in id.iter().enumerate().take(dims) {
                    w.v[d][lane] = v;
                }
            }
            WorkItemIds::Packed { .. } => {
                // Same packing as `WorkItemIds::vgpr_values`, without allocating.
                let mut v = id[0] & 0x3ff;
                if dims >= 2 {
                    v |= (id[1] & 0x3ff) << 10;
                }
                if dims >= 3 {
                    v |= (id[2] & 0x3ff) << 20;
                }
                w.v[0][lane] = v;
            }
        }
    }
    w.pc = l.entry;
    w.scc = false;
    w.mode = l.mode;
    w.trapsts = 0;
    w.wave_in_group = index;
    w.workgroup_id = wg;
    w.scratch_base = scratch;
    if l.layout.architected_flat_scratch {
        w.set_s64(FLAT_SCRATCH, scratch);
    }
    w.ended = false;
    w.at_barrier = false;
    w.yielded = false;
    w.sleeps = 0;
    w.slept = 0;
    w.instructions = 0;
    w.lane_ops = 0;
}
