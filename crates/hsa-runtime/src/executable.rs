//! Executables (HSA Runtime spec §2.9, code objects and executables):
//! a code object loaded into device memory for the GPU agent, its kernels
//! and variables queried by name.
//!
//! Loading goes through [`amdgpu_emu::Image`] (segments placed at one
//! base, dynamic relocations applied). The executable registers its
//! kernels with the system so that the packet processor can map a
//! dispatch packet's `kernel_object` (the device address of the kernel
//! descriptor, `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`) back to the
//! loaded code. Dropping the executable unregisters its kernels and frees
//! its memory (`hsa_executable_destroy`); keep it alive while its kernels
//! run.

use std::sync::Arc;

use amdgpu_emu::Image;
use amdgpu_object::CodeObject;
use amdgpu_object::abi::{V4_HIDDEN_ARGS, V5_HIDDEN_ARGS};
use amdgpu_object::metadata::{Kernel, KernelArg, ValueKind};

use crate::error::{Error, Result};
use crate::system::{KernelEntry, Shared, System};

/// What the HSA runtime reports about a kernel symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInfo {
    /// Kernel name (without `.kd`).
    pub name: String,
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`: device address of the
    /// kernel descriptor, for dispatch packets.
    pub kernel_object: u64,
    /// `…_KERNEL_KERNARG_SEGMENT_SIZE`: bytes of kernarg, explicit and
    /// hidden arguments.
    pub kernarg_segment_size: u32,
    /// `…_KERNEL_KERNARG_SEGMENT_ALIGNMENT` (at least 16, as ROCr reports).
    pub kernarg_segment_alignment: u32,
    /// `…_KERNEL_GROUP_SEGMENT_SIZE`: static LDS bytes per work-group.
    pub group_segment_size: u32,
    /// `…_KERNEL_PRIVATE_SEGMENT_SIZE`: fixed scratch bytes per work-item.
    pub private_segment_size: u32,
    /// `…_KERNEL_DYNAMIC_CALLSTACK`: the kernel's stack size is not known
    /// statically.
    pub dynamic_callstack: bool,
    /// Every argument from the metadata, explicit then hidden, with
    /// offsets, sizes and value kinds (empty without metadata).
    pub args: Vec<KernelArg>,
    /// The kernel's full metadata, if the code object has it.
    pub metadata: Option<Kernel>,
    /// Code object version (4, 5, …).
    pub code_object_version: u32,
}

impl KernelInfo {
    /// The arguments the caller supplies (not `hidden_*`), in order.
    pub fn explicit_args(&self) -> impl Iterator<Item = &KernelArg> {
        self.args.iter().filter(|a| !a.value_kind.is_hidden())
    }

    /// The kernel takes a printf buffer (`hidden_printf_buffer`): give it
    /// a [`crate::PrintfBuffer`] and read that after the dispatch.
    pub fn uses_printf(&self) -> bool {
        self.args
            .iter()
            .any(|a| a.value_kind == ValueKind::HiddenPrintfBuffer)
    }

    fn new(image: &Image, index: usize) -> KernelInfo {
        let k = &image.kernels[index];
        let kd = &k.descriptor;
        let md = k.metadata.as_ref();
        let kernarg_size = md.map_or(kd.kernarg_size.get(), |m| m.kernarg_segment_size as u32);
        let align = md.map_or(16, |m| m.kernarg_segment_align as u32).max(16);
        KernelInfo {
            name: k.name.clone(),
            kernel_object: k.descriptor_address,
            kernarg_segment_size: kernarg_size,
            kernarg_segment_alignment: align,
            group_segment_size: kd.group_segment_fixed_size.get(),
            private_segment_size: kd.private_segment_fixed_size.get(),
            dynamic_callstack: kd.properties().uses_dynamic_stack() != 0
                || md.and_then(|m| m.uses_dynamic_stack).unwrap_or(false),
            args: md.map(|m| m.args().to_vec()).unwrap_or_default(),
            metadata: md.cloned(),
            code_object_version: image.code_object_version,
        }
    }
}

/// A global or read-only variable of an executable
/// (`HSA_SYMBOL_KIND_VARIABLE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Symbol name.
    pub name: String,
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS`.
    pub address: u64,
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE`.
    pub size: u64,
}

/// A loaded code object (`hsa_executable_t` with one code object,
/// frozen).
#[derive(Debug)]
pub struct Executable {
    shared: Arc<Shared>,
    image: Arc<Image>,
}

impl Executable {
    /// Loads a linked code object (`ET_DYN`, as `ld.lld -shared` makes)
    /// for the system's GPU: `hsa_code_object_reader_create_from_memory`,
    /// `hsa_executable_load_agent_code_object` and `hsa_executable_freeze`
    /// in one step. The code object's processor and `xnack`/`sramecc`
    /// settings must suit the agent.
    pub fn load(system: &System, elf: &[u8]) -> Result<Executable> {
        let co = CodeObject::parse(elf).map_err(|e| Error::Load(e.into()))?;
        if let Some(tid) = &co.header.target
            && !system.is_compatible(tid)
        {
            return Err(Error::IncompatibleIsa {
                object: tid.to_string(),
                agent: system.target_id().to_string(),
            });
        }
        let shared = system.shared().clone();
        let image = Arc::new(Image::load_parsed(&shared.memory, &co)?);
        {
            let mut map = shared.kernels.write().unwrap_or_else(|e| e.into_inner());
            for (index, k) in image.kernels.iter().enumerate() {
                map.insert(
                    k.descriptor_address,
                    KernelEntry {
                        image: image.clone(),
                        index,
                    },
                );
            }
        }
        Ok(Executable { shared, image })
    }

    /// The loaded image (base address, program, raw kernels).
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// The printf formats of the code object (`amdhsa.printf`; empty
    /// without).
    pub fn printf_formats(&self) -> Result<crate::printf::Formats> {
        let entries = self
            .image
            .metadata
            .as_ref()
            .and_then(|m| m.printf.as_deref());
        crate::printf::Formats::parse(entries.unwrap_or(&[]))
    }

    /// For a kernel whose code calls rocm-device-libs' `__printf_alloc`
    /// while its metadata lists no `hidden_printf_buffer`, the kernarg
    /// offset of the implicit-argument slot `__printf_alloc` reads (the
    /// ABI's printf-buffer slot: implicit byte 72 for code object v5, 24
    /// for v4). Debian's opencl.bc defines a stub `printf` that drops its
    /// arguments and only reserves 0 bytes; clang links it before LLVM's
    /// printf lowering runs, so such kernels read an undeclared slot.
    /// `None` if the kernel declares its buffer, calls no `__printf_alloc`,
    /// or the slot is outside its kernarg segment or taken by another
    /// argument (`hidden_none` and the unprovided `hidden_hostcall_buffer`
    /// do not count).
    pub fn undeclared_printf_slot(&self, kernel: &KernelInfo) -> Option<u64> {
        let calls_alloc = self
            .image
            .symbols
            .iter()
            .any(|(name, _, _)| name == "__printf_alloc");
        if !calls_alloc || kernel.uses_printf() {
            return None;
        }
        let table = if kernel.code_object_version >= 5 {
            V5_HIDDEN_ARGS
        } else {
            V4_HIDDEN_ARGS
        };
        let (rel, size, _) = table
            .iter()
            .find(|(_, _, kind)| *kind == ValueKind::HiddenPrintfBuffer)?;
        let base = kernel
            .explicit_args()
            .map(|a| a.offset + a.size)
            .max()
            .unwrap_or(0)
            .next_multiple_of(8);
        let slot = base + rel;
        // The runtime provides no hostcall buffer, so the v4 slot the
        // metadata gives to `hidden_hostcall_buffer` is free too.
        let free = [ValueKind::HiddenNone, ValueKind::HiddenHostcallBuffer];
        let taken = kernel.args.iter().any(|a| {
            !free.contains(&a.value_kind) && a.offset < slot + size && slot < a.offset + a.size
        });
        (slot + size <= u64::from(kernel.kernarg_segment_size) && !taken).then_some(slot)
    }

    /// Every kernel, in symbol-table order.
    pub fn kernels(&self) -> Vec<KernelInfo> {
        (0..self.image.kernels.len())
            .map(|i| KernelInfo::new(&self.image, i))
            .collect()
    }

    /// The kernel named `name` (with or without `.kd`)
    /// (`hsa_executable_get_symbol_by_name`).
    pub fn kernel(&self, name: &str) -> Result<KernelInfo> {
        let bare = name.strip_suffix(".kd").unwrap_or(name);
        match self.image.kernels.iter().position(|k| k.name == bare) {
            Some(i) => Ok(KernelInfo::new(&self.image, i)),
            None => Err(Error::SymbolNotFound {
                what: "kernel",
                name: name.to_string(),
                available: list(self.image.kernels.iter().map(|k| k.name.as_str())),
            }),
        }
    }

    /// Variables: defined symbols that are neither kernels nor their
    /// descriptors (`HSA_SYMBOL_KIND_VARIABLE`).
    pub fn variables(&self) -> Vec<Variable> {
        let is_kernel = |n: &str| {
            let bare = n.strip_suffix(".kd").unwrap_or(n);
            self.image.kernels.iter().any(|k| k.name == bare)
        };
        let mut out: Vec<Variable> = Vec::new();
        for (name, address, size) in &self.image.symbols {
            if is_kernel(name) || out.iter().any(|v| &v.name == name) {
                continue;
            }
            out.push(Variable {
                name: name.clone(),
                address: *address,
                size: *size,
            });
        }
        out
    }

    /// The variable named `name`.
    pub fn variable(&self, name: &str) -> Result<Variable> {
        let vars = self.variables();
        match vars.iter().find(|v| v.name == name) {
            Some(v) => Ok(v.clone()),
            None => Err(Error::SymbolNotFound {
                what: "variable",
                name: name.to_string(),
                available: list(vars.iter().map(|v| v.name.as_str())),
            }),
        }
    }
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

impl Drop for Executable {
    fn drop(&mut self) {
        let mut map = self
            .shared
            .kernels
            .write()
            .unwrap_or_else(|e| e.into_inner());
        for k in &self.image.kernels {
            map.remove(&k.descriptor_address);
        }
        drop(map);
        self.shared.memory.free(self.image.base);
    }
}
