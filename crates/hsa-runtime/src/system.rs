//! The system: agents, memory regions and device memory.
//!
//! HSA Runtime spec §2.3 (system and agent information) and §2.7 (memory):
//! a system has agents; each agent reaches memory regions. Here the system
//! holds one emulated GPU agent (named after its processor, as ROCr names
//! GPU agents) and one CPU agent (the host). All device memory is one
//! [`amdgpu_emu::Memory`]: the regions differ only in what they report,
//! because the emulator's memory is coherent for host and device alike.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use amdgpu_emu::{Image, Memory};
use amdgpu_isa::gfx9::Target;
use amdgpu_isa::target::{Setting, TargetId};

use crate::error::{Error, Result};

/// How often blocked waiters re-read memory: a kernel can change a signal
/// (or write an AQL packet) without telling the host, so waits poll at this
/// period besides being woken by host-side changes.
pub const POLL_PERIOD: Duration = Duration::from_millis(1);

/// Maximum work-items per work-group (`HSA_AGENT_INFO_WORKGROUP_MAX_SIZE`;
/// 1024 on every GFX9 agent).
pub const WORKGROUP_MAX_SIZE: u32 = 1024;

/// Group segment (LDS) bytes per work-group available on GFX9 (64 KiB).
pub const GROUP_SEGMENT_SIZE: u64 = 64 * 1024;

/// Minimum AQL queue size in packets (ROCr's `minAqlSize_`).
pub const QUEUE_MIN_SIZE: u32 = 64;

/// Maximum AQL queue size in packets (ROCr's `maxAqlSize_`, 128 Ki).
pub const QUEUE_MAX_SIZE: u32 = 128 * 1024;

/// Reported size of each global region. The emulator's address space is
/// 128 TiB; 64 GiB is what a large discrete GPU reports.
pub const GLOBAL_REGION_SIZE: u64 = 64 << 30;

/// The machine model of the system (`hsa_machine_model_t`,
/// `HSA_SYSTEM_INFO_MACHINE_MODEL`): the size of global addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MachineModel {
    /// 32-bit global addresses: all device memory (code objects, queues,
    /// signals, kernarg segments, allocations) lies below 4 GiB, as HSAIL
    /// `$small` kernels need.
    Small,
    /// 64-bit global addresses; device memory starts at 4 GiB, so that a
    /// truncated address faults.
    #[default]
    Large,
}

/// Kind of an agent (`hsa_device_type_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// The host (`HSA_DEVICE_TYPE_CPU`).
    Cpu,
    /// The emulated GPU (`HSA_DEVICE_TYPE_GPU`), a kernel-dispatch agent.
    Gpu,
}

/// The segment a region belongs to (`hsa_region_segment_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Segment {
    /// Global segment: visible to every agent.
    Global,
    /// Group segment: per work-group LDS; not allocatable by the host.
    Group,
}

/// A memory region (`hsa_region_t`, ROCr's memory pools). The global ones
/// are all backed by the same device memory; they differ in what they
/// report, as on an APU with unified memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Region {
    /// System memory, fine-grained: coherent between host and device while
    /// kernels run (`HSA_REGION_GLOBAL_FLAG_FINE_GRAINED`).
    FineGrained,
    /// Device-local memory, coarse-grained: coherent at dispatch
    /// boundaries (`HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED`). In the emulator
    /// it is as coherent as the fine-grained region.
    CoarseGrained,
    /// Memory for kernarg segments: fine-grained with the
    /// `HSA_REGION_GLOBAL_FLAG_KERNARG` flag.
    Kernarg,
    /// The group segment (64 KiB per work-group); its size is reported,
    /// but it cannot be allocated from the host.
    Group,
}

impl Region {
    /// Every region, in the order agents list them.
    pub const ALL: [Region; 4] = [
        Region::CoarseGrained,
        Region::FineGrained,
        Region::Kernarg,
        Region::Group,
    ];

    /// `HSA_REGION_INFO_SEGMENT`.
    pub fn segment(self) -> Segment {
        match self {
            Region::Group => Segment::Group,
            _ => Segment::Global,
        }
    }

    /// `HSA_REGION_GLOBAL_FLAG_FINE_GRAINED`.
    pub fn is_fine_grained(self) -> bool {
        matches!(self, Region::FineGrained | Region::Kernarg)
    }

    /// `HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED`.
    pub fn is_coarse_grained(self) -> bool {
        self == Region::CoarseGrained
    }

    /// `HSA_REGION_GLOBAL_FLAG_KERNARG`.
    pub fn is_kernarg(self) -> bool {
        self == Region::Kernarg
    }

    /// `HSA_REGION_INFO_SIZE`.
    pub fn size(self) -> u64 {
        match self {
            Region::Group => GROUP_SEGMENT_SIZE,
            _ => GLOBAL_REGION_SIZE,
        }
    }

    /// `HSA_REGION_INFO_ALLOC_MAX_SIZE` (0 for the group segment).
    pub fn alloc_max_size(self) -> u64 {
        if self.runtime_alloc_allowed() {
            self.size()
        } else {
            0
        }
    }

    /// `HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED`.
    pub fn runtime_alloc_allowed(self) -> bool {
        self != Region::Group
    }

    /// `HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE` (bytes; allocations are
    /// rounded up to it): one 4 KiB page, as ROCr reports.
    pub fn alloc_granule(self) -> u64 {
        4096
    }

    /// `HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT`: allocations start on a
    /// page boundary (the emulator actually aligns them to 64 KiB).
    pub fn alloc_alignment(self) -> u64 {
        4096
    }
}

/// One agent and its properties (`hsa_agent_get_info`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    /// `HSA_AGENT_INFO_NAME`: the processor (`gfx90a`) for the GPU, `cpu`
    /// for the host.
    pub name: String,
    /// `HSA_AGENT_INFO_VENDOR_NAME`.
    pub vendor: String,
    /// `HSA_AGENT_INFO_DEVICE`.
    pub kind: AgentKind,
    /// Whether the agent accepts kernel-dispatch packets
    /// (`HSA_AGENT_FEATURE_KERNEL_DISPATCH`).
    pub kernel_dispatch: bool,
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE` (0 for the CPU).
    pub wavefront_size: u32,
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_DIM`.
    pub workgroup_max_dim: [u16; 3],
    /// `HSA_AGENT_INFO_WORKGROUP_MAX_SIZE`.
    pub workgroup_max_size: u32,
    /// `HSA_AGENT_INFO_GRID_MAX_DIM`.
    pub grid_max_dim: [u32; 3],
    /// `HSA_AGENT_INFO_GRID_MAX_SIZE`.
    pub grid_max_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_MIN_SIZE` (packets; 0 for the CPU).
    pub queue_min_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_MAX_SIZE` (packets; 0 for the CPU).
    pub queue_max_size: u32,
    /// `HSA_AGENT_INFO_QUEUES_MAX`.
    pub queues_max: u32,
    /// The agent's ISA name (`HSA_ISA_INFO_NAME`), e.g.
    /// `amdgcn-amd-amdhsa--gfx90a:xnack-`; `None` for the CPU.
    pub isa: Option<String>,
    /// Compute units (`HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT`): the host
    /// threads that run work-groups.
    pub compute_units: u32,
    /// Regions the agent can reach (`hsa_agent_iterate_regions`).
    pub regions: Vec<Region>,
}

/// Wakes host threads blocked on signals or empty queues.
#[derive(Debug, Default)]
pub(crate) struct Notifier {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Notifier {
    /// Wakes every waiter (after a host-side change of device memory).
    pub(crate) fn notify(&self) {
        let mut g = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        *g = g.wrapping_add(1);
        self.changed.notify_all();
    }

    /// Blocks until `done()` holds or `deadline` passes; `done` is checked
    /// under the notifier's lock (so no notification is lost) and again at
    /// least every [`POLL_PERIOD`]. Returns whether `done()` held.
    pub(crate) fn wait_until(
        &self,
        deadline: Option<Instant>,
        mut done: impl FnMut() -> bool,
    ) -> bool {
        let mut g = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if done() {
                return true;
            }
            let mut period = POLL_PERIOD;
            if let Some(d) = deadline {
                let now = Instant::now();
                if now >= d {
                    return false;
                }
                period = period.min(d - now);
            }
            g = self
                .changed
                .wait_timeout(g, period)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// A kernel the packet processor can find by its kernel object.
#[derive(Debug, Clone)]
pub(crate) struct KernelEntry {
    pub image: Arc<Image>,
    pub index: usize,
}

/// State shared by the system, its queues, signals and executables.
#[derive(Debug)]
pub(crate) struct Shared {
    pub memory: Arc<Memory>,
    pub target_id: TargetId,
    pub threads: usize,
    /// Instructions one wave may execute before the dispatch is stopped
    /// (`amdgpu_emu::Device::watchdog`).
    pub watchdog: AtomicU64,
    /// Kernel object (descriptor address) → loaded kernel.
    pub kernels: RwLock<HashMap<u64, KernelEntry>>,
    /// Host allocations: address → region.
    pub allocations: Mutex<HashMap<u64, Region>>,
    pub notifier: Notifier,
    pub start: Instant,
    pub next_queue_id: AtomicU64,
}

impl Shared {
    /// Nanoseconds since the system was created (signal timestamps).
    pub(crate) fn timestamp(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64
    }

    pub(crate) fn kernel(&self, object: u64) -> Option<KernelEntry> {
        self.kernels
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&object)
            .cloned()
    }

    /// Allocates device memory for the runtime's own structures.
    pub(crate) fn allocate_internal(&self, size: u64, what: &str) -> Result<u64> {
        self.memory.allocate(size, 64).ok_or_else(|| {
            Error::OutOfResources(format!("cannot allocate {size} bytes for {what}"))
        })
    }
}

/// The HSA system over one emulated GPU: agents, regions, device memory.
/// Cheap to clone (shared state).
#[derive(Debug, Clone)]
pub struct System {
    pub(crate) shared: Arc<Shared>,
    agents: Vec<Agent>,
}

impl System {
    /// A system whose GPU agent is `processor` (a target ID such as
    /// `gfx90a`, `gfx900:xnack-` or `amdgcn-amd-amdhsa--gfx90a:sramecc+`),
    /// running work-groups on `threads` host threads (at least 1), in the
    /// large machine model.
    pub fn new(processor: &str, threads: usize) -> Result<System> {
        System::with_machine_model(processor, threads, MachineModel::Large)
    }

    /// [`System::new`] in machine model `model`.
    pub fn with_machine_model(
        processor: &str,
        threads: usize,
        model: MachineModel,
    ) -> Result<System> {
        let target_id = TargetId::parse(processor)
            .map_err(|e| Error::Agent(format!("bad processor `{processor}`: {e}")))?;
        let name = target_id.processor.name;
        if Target::from_processor(name).is_none() {
            return Err(Error::Agent(format!(
                "processor {name} is not emulated (gfx900, gfx906, gfx908, gfx90a, gfx942 are)"
            )));
        }
        let threads = threads.max(1);
        let gpu = Agent {
            name: name.to_string(),
            vendor: "AMD".into(),
            kind: AgentKind::Gpu,
            kernel_dispatch: true,
            wavefront_size: 64,
            workgroup_max_dim: [1024; 3],
            workgroup_max_size: WORKGROUP_MAX_SIZE,
            grid_max_dim: [u32::MAX; 3],
            grid_max_size: u32::MAX,
            queue_min_size: QUEUE_MIN_SIZE,
            queue_max_size: QUEUE_MAX_SIZE,
            queues_max: 128,
            isa: Some(target_id.to_string()),
            compute_units: threads as u32,
            regions: Region::ALL.to_vec(),
        };
        let cpu = Agent {
            name: "cpu".into(),
            vendor: "CPU".into(),
            kind: AgentKind::Cpu,
            kernel_dispatch: false,
            wavefront_size: 0,
            workgroup_max_dim: [0; 3],
            workgroup_max_size: 0,
            grid_max_dim: [0; 3],
            grid_max_size: 0,
            queue_min_size: 0,
            queue_max_size: 0,
            queues_max: 0,
            isa: None,
            compute_units: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
            regions: vec![Region::FineGrained, Region::Kernarg],
        };
        Ok(System {
            shared: Arc::new(Shared {
                memory: Arc::new(match model {
                    MachineModel::Small => Memory::new_small(),
                    MachineModel::Large => Memory::new(),
                }),
                target_id,
                threads,
                watchdog: AtomicU64::new(amdgpu_emu::dispatch::DEFAULT_WATCHDOG),
                kernels: RwLock::new(HashMap::new()),
                allocations: Mutex::new(HashMap::new()),
                notifier: Notifier::default(),
                start: Instant::now(),
                next_queue_id: AtomicU64::new(0),
            }),
            agents: vec![gpu, cpu],
        })
    }

    /// Every agent (`hsa_iterate_agents`): the GPU first, then the CPU.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// The emulated GPU agent.
    pub fn gpu(&self) -> &Agent {
        &self.agents[0]
    }

    /// The host CPU agent.
    pub fn cpu(&self) -> &Agent {
        &self.agents[1]
    }

    /// The GPU's target ID (processor and `xnack`/`sramecc` settings).
    pub fn target_id(&self) -> &TargetId {
        &self.shared.target_id
    }

    /// Host threads that run work-groups.
    pub fn threads(&self) -> usize {
        self.shared.threads
    }

    /// The watchdog: instructions one wave may execute before its dispatch
    /// ends with a fault (for dispatches started from now on).
    pub fn watchdog(&self) -> u64 {
        self.shared.watchdog.load(Ordering::Relaxed)
    }

    /// Sets the watchdog (at least 1).
    pub fn set_watchdog(&self, instructions: u64) {
        self.shared
            .watchdog
            .store(instructions.max(1), Ordering::Relaxed);
    }

    /// The machine model (`HSA_SYSTEM_INFO_MACHINE_MODEL`).
    pub fn machine_model(&self) -> MachineModel {
        if self.shared.memory.is_small() {
            MachineModel::Small
        } else {
            MachineModel::Large
        }
    }

    /// The device memory every region is carved from.
    pub fn memory(&self) -> &Arc<Memory> {
        &self.shared.memory
    }

    /// Allocates `size` bytes (rounded up to the region's granule, zero
    /// filled) in `region` (`hsa_memory_allocate`); returns the device
    /// address, which the host reaches with [`System::write`]/[`System::read`].
    pub fn allocate(&self, region: Region, size: u64) -> Result<u64> {
        if !region.runtime_alloc_allowed() {
            return Err(Error::InvalidArgument(format!(
                "region {region:?} cannot be allocated from the host"
            )));
        }
        if size == 0 {
            return Err(Error::InvalidArgument("allocation of 0 bytes".into()));
        }
        if size > region.alloc_max_size() {
            return Err(Error::OutOfResources(format!(
                "{size} bytes exceed the region's maximum allocation of {} bytes",
                region.alloc_max_size()
            )));
        }
        let rounded = size.next_multiple_of(region.alloc_granule());
        let addr = self
            .shared
            .memory
            .allocate(rounded, region.alloc_alignment())
            .ok_or_else(|| {
                Error::OutOfResources(format!(
                    "cannot allocate {size} bytes in {region:?}{}",
                    self.small_note()
                ))
            })?;
        self.shared
            .allocations
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(addr, region);
        Ok(addr)
    }

    /// Why an allocation may fail in the small machine model.
    fn small_note(&self) -> &'static str {
        match self.machine_model() {
            MachineModel::Small => " (small machine model: all memory must lie below 4 GiB)",
            MachineModel::Large => "",
        }
    }

    /// Frees memory returned by [`System::allocate`] (`hsa_memory_free`).
    pub fn free(&self, addr: u64) -> Result<()> {
        let mut allocs = self
            .shared
            .allocations
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if allocs.remove(&addr).is_none() {
            return Err(Error::InvalidArgument(format!(
                "{addr:#x} was not returned by System::allocate (or was freed already)"
            )));
        }
        self.shared.memory.free(addr);
        Ok(())
    }

    /// The region an address returned by [`System::allocate`] came from.
    pub fn region_of(&self, addr: u64) -> Option<Region> {
        self.shared
            .allocations
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&addr)
            .copied()
    }

    /// Copies `data` to device address `addr`.
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<()> {
        Ok(self.shared.memory.write(addr, data)?)
    }

    /// Copies device memory at `addr` into `out`.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<()> {
        Ok(self.shared.memory.read(addr, out)?)
    }

    /// Reads `len` bytes at `addr`.
    pub fn read_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>> {
        Ok(self.shared.memory.read_vec(addr, len)?)
    }

    /// Copies `len` bytes from device address `src` to `dst`
    /// (`hsa_memory_copy`); the ranges may overlap.
    pub fn copy(&self, dst: u64, src: u64, len: usize) -> Result<()> {
        let bytes = self.shared.memory.read_vec(src, len)?;
        self.write(dst, &bytes)
    }

    /// Whether a code object for `object` runs on this system's GPU: same
    /// processor, and no `xnack`/`sramecc` setting that contradicts the
    /// agent's (an unspecified setting on either side matches).
    pub fn is_compatible(&self, object: &TargetId) -> bool {
        let agent = &self.shared.target_id;
        let clash = |a: Option<Setting>, b: Option<Setting>| {
            matches!(
                (a, b),
                (Some(Setting::On), Some(Setting::Off)) | (Some(Setting::Off), Some(Setting::On))
            )
        };
        object.processor.name == agent.processor.name
            && !clash(object.xnack, agent.xnack)
            && !clash(object.sramecc, agent.sramecc)
    }

    /// Shared bookkeeping for the other modules.
    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Next queue ID.
    pub(crate) fn next_queue_id(&self) -> u64 {
        self.shared.next_queue_id.fetch_add(1, Ordering::Relaxed)
    }
}
