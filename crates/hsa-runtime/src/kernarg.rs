//! Kernarg segments: the explicit arguments a caller passes, checked
//! against the kernel's metadata, and the hidden arguments the runtime
//! fills in (AMDGPUUsage "Code Object V4/V5 Metadata", `.args` value
//! kinds; ROCclr's `rocvirtual.cpp` fills the same values).
//!
//! Hidden arguments are written exactly at the offsets the metadata gives
//! (`KernelArg::offset`, truncated to `KernelArg::size`), so v4 and v5
//! layouts both work:
//!
//! | value kind | value |
//! |------------|-------|
//! | `hidden_block_count_{x,y,z}` | grid / work-group size (whole groups, rounded down) |
//! | `hidden_group_size_{x,y,z}` | work-group size |
//! | `hidden_remainder_{x,y,z}` | grid % work-group size (size of the partial last group) |
//! | `hidden_global_offset_{x,y,z}` | 0 (HSA dispatches have no global offset) |
//! | `hidden_grid_dims` | dimensions (1–3) |
//! | `hidden_dynamic_lds_size` | dynamic group-segment bytes |
//! | `hidden_private_base`, `hidden_shared_base` | high dword of the private/shared aperture base |
//! | `hidden_queue_ptr` | the `amd_queue_t` address |
//! | `hidden_printf_buffer` | the printf buffer ([`crate::printf`]), or 0 if the caller gives none |
//! | `hidden_hostcall_buffer`, `hidden_heap_v1`, `hidden_multigrid_sync_arg`, `hidden_default_queue`, `hidden_completion_action`, `hidden_none` | 0: hostcall services, device malloc, multi-grid sync and device enqueue are not provided |

use amdgpu_emu::wave::{PRIVATE_APERTURE, SHARED_APERTURE};
use amdgpu_object::metadata::{KernelArg, ValueKind};

use crate::error::{Error, Result};
use crate::executable::KernelInfo;

/// The dispatch geometry: what a dispatch packet carries and the hidden
/// arguments derive from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Grid dimensions, 1–3.
    pub dims: u16,
    /// Grid size in work-items; unused dimensions are 1.
    pub grid: [u32; 3],
    /// Work-group size; unused dimensions are 1.
    pub group: [u16; 3],
    /// Dynamic group-segment bytes added to the kernel's static size.
    pub dynamic_group_size: u32,
}

impl Geometry {
    /// A geometry from 1–3 grid and group sizes (the missing dimensions
    /// are 1); `None` if the lists are empty, longer than 3, or of
    /// different lengths.
    pub fn new(grid: &[u32], group: &[u16]) -> Option<Geometry> {
        if grid.is_empty() || grid.len() > 3 || grid.len() != group.len() {
            return None;
        }
        let mut g = Geometry {
            dims: grid.len() as u16,
            grid: [1; 3],
            group: [1; 3],
            dynamic_group_size: 0,
        };
        g.grid[..grid.len()].copy_from_slice(grid);
        g.group[..group.len()].copy_from_slice(group);
        Some(g)
    }

    /// Work-items per work-group.
    pub fn group_items(&self) -> u64 {
        self.group.iter().map(|&g| u64::from(g)).product()
    }
}

/// Values of the hidden arguments that do not come from the geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HiddenValues {
    /// Device address of the `amd_queue_t` the kernel is dispatched on.
    pub queue_ptr: u64,
    /// Device address of the printf buffer (`hidden_printf_buffer`;
    /// [`crate::printf::PrintfBuffer`]), 0 for none.
    pub printf_buffer: u64,
}

/// Writes every hidden argument `args` (a kernel's metadata) lists into
/// `kernarg`, at its metadata offset. Explicit arguments are untouched.
pub fn fill_hidden_args(
    args: &[KernelArg],
    kernarg: &mut [u8],
    geometry: &Geometry,
    values: &HiddenValues,
) -> Result<()> {
    let g = geometry;
    let dim = |d: usize| (u64::from(g.grid[d]), u64::from(g.group[d].max(1)));
    for a in args.iter().filter(|a| a.value_kind.is_hidden()) {
        let value: u64 = match a.value_kind {
            ValueKind::HiddenBlockCountX => dim(0).0 / dim(0).1,
            ValueKind::HiddenBlockCountY => dim(1).0 / dim(1).1,
            ValueKind::HiddenBlockCountZ => dim(2).0 / dim(2).1,
            ValueKind::HiddenGroupSizeX => u64::from(g.group[0]),
            ValueKind::HiddenGroupSizeY => u64::from(g.group[1]),
            ValueKind::HiddenGroupSizeZ => u64::from(g.group[2]),
            ValueKind::HiddenRemainderX => dim(0).0 % dim(0).1,
            ValueKind::HiddenRemainderY => dim(1).0 % dim(1).1,
            ValueKind::HiddenRemainderZ => dim(2).0 % dim(2).1,
            ValueKind::HiddenGridDims => u64::from(g.dims),
            ValueKind::HiddenDynamicLdsSize => u64::from(g.dynamic_group_size),
            ValueKind::HiddenPrivateBase => PRIVATE_APERTURE >> 32,
            ValueKind::HiddenSharedBase => SHARED_APERTURE >> 32,
            ValueKind::HiddenQueuePtr => values.queue_ptr,
            ValueKind::HiddenPrintfBuffer => values.printf_buffer,
            // Global offsets are 0; hostcall/heap/multigrid/device
            // enqueue services are not provided; hidden_none is padding.
            _ => 0,
        };
        let start = a.offset as usize;
        let size = (a.size as usize).min(8);
        let len = kernarg.len();
        let slot = start
            .checked_add(size)
            .and_then(|end| kernarg.get_mut(start..end))
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "hidden argument {} at offset {} (size {}) lies outside the {}-byte kernarg segment",
                    a.value_kind, a.offset, a.size, len
                ))
            })?;
        slot.copy_from_slice(&value.to_le_bytes()[..size]);
    }
    Ok(())
}

/// Builds a kernarg segment: explicit arguments pushed in order, each
/// checked against the metadata (count and size), then the hidden ones.
#[derive(Debug, Clone)]
pub struct KernargBuilder {
    kernel: String,
    args: Vec<KernelArg>,
    explicit: Vec<usize>,
    bytes: Vec<u8>,
    next: usize,
}

/// How an argument is described in messages, from its metadata:
/// ``argument 1 (`b`: float*, 8 bytes, global_buffer)`` (the name only if
/// the code object records it, e.g. with `-cl-kernel-arg-info`).
pub fn describe_arg(index: usize, a: &KernelArg) -> String {
    let name = a
        .name
        .as_deref()
        .map(|n| format!("`{n}`: "))
        .unwrap_or_default();
    let ty = a.type_name.as_deref().unwrap_or("?");
    format!(
        "argument {index} ({name}{ty}, {} bytes, {})",
        a.size, a.value_kind
    )
}

impl KernargBuilder {
    /// A zeroed segment of the kernel's kernarg size.
    pub fn new(kernel: &KernelInfo) -> KernargBuilder {
        let explicit = kernel
            .args
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.value_kind.is_hidden())
            .map(|(i, _)| i)
            .collect();
        KernargBuilder {
            kernel: kernel.name.clone(),
            args: kernel.args.clone(),
            explicit,
            bytes: vec![0; kernel.kernarg_segment_size as usize],
            next: 0,
        }
    }

    fn error(&self, message: String) -> Error {
        Error::KernelArgument {
            kernel: self.kernel.clone(),
            message,
        }
    }

    /// The metadata of the next explicit argument, if any is left.
    pub fn next_arg(&self) -> Option<&KernelArg> {
        self.explicit.get(self.next).map(|&i| &self.args[i])
    }

    /// Index of the next explicit argument.
    pub fn next_index(&self) -> usize {
        self.next
    }

    /// Explicit arguments the kernel takes.
    pub fn explicit_count(&self) -> usize {
        self.explicit.len()
    }

    /// Sets the next explicit argument to `value`, whose length must equal
    /// the argument's metadata size.
    pub fn push(&mut self, value: &[u8]) -> Result<&mut Self> {
        let Some(a) = self.next_arg().cloned() else {
            return Err(self.error(format!(
                "too many arguments: the kernel takes {} explicit argument(s)",
                self.explicit.len()
            )));
        };
        if value.len() as u64 != a.size {
            return Err(self.error(format!(
                "{} takes {} bytes, but a {}-byte value was given",
                describe_arg(self.next, &a),
                a.size,
                value.len()
            )));
        }
        let start = a.offset as usize;
        let Some(slot) = self.bytes.get_mut(start..start.saturating_add(value.len())) else {
            return Err(self.error(format!(
                "{} lies outside the {}-byte kernarg segment",
                describe_arg(self.next, &a),
                self.bytes.len()
            )));
        };
        slot.copy_from_slice(value);
        self.next += 1;
        Ok(self)
    }

    /// Pushes a 32-bit value.
    pub fn push_u32(&mut self, v: u32) -> Result<&mut Self> {
        self.push(&v.to_le_bytes())
    }

    /// Pushes a 64-bit value or a pointer.
    pub fn push_u64(&mut self, v: u64) -> Result<&mut Self> {
        self.push(&v.to_le_bytes())
    }

    /// Pushes an `f32`.
    pub fn push_f32(&mut self, v: f32) -> Result<&mut Self> {
        self.push(&v.to_le_bytes())
    }

    /// Pushes an `f64`.
    pub fn push_f64(&mut self, v: f64) -> Result<&mut Self> {
        self.push(&v.to_le_bytes())
    }

    /// Checks that every explicit argument was given, fills the hidden
    /// arguments and returns the segment.
    pub fn finish(mut self, geometry: &Geometry, values: &HiddenValues) -> Result<Vec<u8>> {
        if self.next != self.explicit.len() {
            let a = self.next_arg().cloned();
            let missing = a.map(|a| describe_arg(self.next, &a)).unwrap_or_default();
            return Err(self.error(format!(
                "{} explicit argument(s) given, the kernel takes {}; missing {missing}",
                self.next,
                self.explicit.len()
            )));
        }
        fill_hidden_args(&self.args, &mut self.bytes, geometry, values)?;
        Ok(self.bytes)
    }
}
