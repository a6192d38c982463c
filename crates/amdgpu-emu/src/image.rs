//! A loaded code object: its `PT_LOAD` segments placed in device memory
//! at one base address, its dynamic relocations applied, and its kernels
//! ready to launch. The runtime's executables are built on this; tests of
//! the emulator use it directly.

use amdgpu_isa::gfx9::Target;
use amdgpu_object::abi::WaveLayout;
use amdgpu_object::elf::{R_AMDGPU_ABS32_HI, R_AMDGPU_ABS32_LO, R_AMDGPU_ABS64, R_AMDGPU_NONE};
use amdgpu_object::kd::kernel_descriptor_t;
use amdgpu_object::{CodeObject, Metadata, Processor};

use crate::memory::Memory;
use crate::program::Program;

/// `R_AMDGPU_RELATIVE64`: base + addend.
pub const R_AMDGPU_RELATIVE64: u32 = 13;

const PT_LOAD: u32 = 1;

/// Why a code object cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The ELF file is malformed.
    #[error("{0}")]
    Object(#[from] amdgpu_object::Error),
    /// Something the loader does not support or cannot do, with where.
    #[error("{0}")]
    Unsupported(String),
}

/// One kernel of a loaded image.
#[derive(Debug, Clone)]
pub struct LoadedKernel {
    /// Symbol name (without `.kd`).
    pub name: String,
    /// The descriptor.
    pub descriptor: kernel_descriptor_t,
    /// Device address of the descriptor (the HSA kernel object).
    pub descriptor_address: u64,
    /// Device address of the first instruction.
    pub entry: u64,
    /// Initial register layout on the image's processor.
    pub layout: WaveLayout,
    /// The kernel's metadata (v3+), if present.
    pub metadata: Option<amdgpu_object::metadata::Kernel>,
}

/// A code object loaded into device memory.
#[derive(Debug)]
pub struct Image {
    /// Load bias: device address of virtual address 0.
    pub base: u64,
    /// Bytes reserved.
    pub size: u64,
    /// The processor.
    pub processor: &'static Processor,
    /// The instruction-set column of the processor.
    pub target: Target,
    /// Code object version.
    pub code_object_version: u32,
    /// The whole image as code, for instruction fetch.
    pub program: Program,
    /// Kernels.
    pub kernels: Vec<LoadedKernel>,
    /// Every defined dynamic or static symbol: name → device address.
    pub symbols: Vec<(String, u64, u64)>,
    /// The full metadata, if present.
    pub metadata: Option<Metadata>,
}

/// Device memory reserved for an image being loaded: freed on drop unless
/// the load succeeded.
struct Reservation<'a> {
    memory: &'a Memory,
    base: u64,
    keep: bool,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if !self.keep {
            self.memory.free(self.base);
        }
    }
}

impl Image {
    /// Loads a linked (`ET_DYN`) code object into `memory`.
    pub fn load(memory: &Memory, bytes: &[u8]) -> Result<Image, LoadError> {
        Image::load_parsed(memory, &CodeObject::parse(bytes)?)
    }

    /// Loads a code object the caller has already parsed.
    pub fn load_parsed(memory: &Memory, co: &CodeObject<'_>) -> Result<Image, LoadError> {
        let bytes = co.data;
        if co.header.e_type != 3 {
            return Err(LoadError::Unsupported(format!(
                "code object is not a shared object (e_type {}); link it with ld.lld -shared",
                co.header.e_type
            )));
        }
        let tid = co.header.target.as_ref().ok_or_else(|| {
            LoadError::Unsupported("code object names no processor in e_flags".into())
        })?;
        let processor = tid.processor;
        let target = Target::from_processor(processor.name).ok_or_else(|| {
            LoadError::Unsupported(format!(
                "processor {} is not emulated (gfx900, gfx906, gfx908, gfx90a, gfx942 are)",
                processor.name
            ))
        })?;
        let loads: Vec<_> = co.segments.iter().filter(|s| s.p_type == PT_LOAD).collect();
        let size = loads
            .iter()
            .map(|s| s.vaddr.saturating_add(s.memsz))
            .max()
            .unwrap_or(0);
        if size == 0 || size > 1 << 32 {
            return Err(LoadError::Unsupported(format!(
                "code object has no loadable segments or an image of {size} bytes"
            )));
        }
        let base = memory.allocate(size, 1 << 16).ok_or_else(|| {
            LoadError::Unsupported(format!("cannot allocate {size} bytes for the image"))
        })?;
        // Freed again if loading fails from here on.
        let mut reservation = Reservation {
            memory,
            base,
            keep: false,
        };
        let mut image = vec![0u8; size as usize];
        for s in &loads {
            let file = s
                .offset
                .checked_add(s.filesz)
                .and_then(|end| bytes.get(s.offset as usize..end as usize))
                .ok_or_else(|| {
                    LoadError::Unsupported(format!(
                        "segment at file offset {:#x} runs past the end of the file",
                        s.offset
                    ))
                })?;
            if s.filesz > s.memsz {
                return Err(LoadError::Unsupported(format!(
                    "segment at {:#x}: file size exceeds memory size",
                    s.vaddr
                )));
            }
            image[s.vaddr as usize..(s.vaddr + s.filesz) as usize].copy_from_slice(file);
        }
        let sym_addr = |name: &str| {
            co.dynamic_symbols
                .iter()
                .chain(&co.symbols)
                .find(|s| s.name == name && s.shndx != 0)
                .map(|s| base.wrapping_add(s.value))
        };
        for r in &co.relocations {
            let at = r.offset as usize;
            let put = |image: &mut Vec<u8>, bytes: &[u8]| -> Result<(), LoadError> {
                image
                    .get_mut(at..at.saturating_add(bytes.len()))
                    .ok_or_else(|| {
                        LoadError::Unsupported(format!(
                            "relocation at {:#x} outside the image",
                            r.offset
                        ))
                    })?
                    .copy_from_slice(bytes);
                Ok(())
            };
            let symbol = || {
                sym_addr(r.symbol_name).ok_or_else(|| {
                    LoadError::Unsupported(format!(
                        "relocation at {:#x} refers to undefined symbol `{}`",
                        r.offset, r.symbol_name
                    ))
                })
            };
            match r.r_type {
                R_AMDGPU_NONE => {}
                R_AMDGPU_RELATIVE64 => put(
                    &mut image,
                    &base.wrapping_add(r.addend as u64).to_le_bytes(),
                )?,
                R_AMDGPU_ABS64 => put(
                    &mut image,
                    &symbol()?.wrapping_add(r.addend as u64).to_le_bytes(),
                )?,
                R_AMDGPU_ABS32_LO => put(
                    &mut image,
                    &(symbol()?.wrapping_add(r.addend as u64) as u32).to_le_bytes(),
                )?,
                R_AMDGPU_ABS32_HI => put(
                    &mut image,
                    &((symbol()?.wrapping_add(r.addend as u64) >> 32) as u32).to_le_bytes(),
                )?,
                t => {
                    return Err(LoadError::Unsupported(format!(
                        "relocation type {t} at {:#x} is not supported by the loader",
                        r.offset
                    )));
                }
            }
        }
        memory
            .write(base, &image)
            .map_err(|e| LoadError::Unsupported(e.to_string()))?;
        let mut kernels = Vec::new();
        for k in &co.kernels {
            let Some(kd) = k.descriptor() else {
                return Err(LoadError::Unsupported(format!(
                    "kernel `{}` uses code object v2 (amd_kernel_code_t), which the loader does not run",
                    k.name
                )));
            };
            let descriptor_address = base.wrapping_add(k.descriptor_address);
            kernels.push(LoadedKernel {
                name: k.name.to_string(),
                descriptor: *kd,
                descriptor_address,
                entry: descriptor_address
                    .wrapping_add(kd.kernel_code_entry_byte_offset.get() as u64),
                layout: WaveLayout::new(kd, processor),
                metadata: co.kernel_metadata(k).cloned(),
            });
        }
        let symbols = co
            .dynamic_symbols
            .iter()
            .chain(&co.symbols)
            .filter(|s| s.shndx != 0 && !s.name.is_empty())
            .map(|s| (s.name.to_string(), base.wrapping_add(s.value), s.size))
            .collect();
        reservation.keep = true;
        Ok(Image {
            base,
            size,
            processor,
            target,
            code_object_version: co.header.code_object_version,
            program: Program::new(base, image, target),
            kernels,
            symbols,
            metadata: co.metadata.clone(),
        })
    }

    /// The kernel named `name` (with or without a `.kd` suffix).
    pub fn kernel(&self, name: &str) -> Option<&LoadedKernel> {
        let name = name.strip_suffix(".kd").unwrap_or(name);
        self.kernels.iter().find(|k| k.name == name)
    }
}
