//! `amd_kernel_code_t`: the 256-byte code object v2 kernel header that
//! precedes a kernel's machine code (ROCm "AMD Kernel Code Object
//! amd_kernel_code_t"). Code object v2 is read-only here: LLVM 19 no longer
//! produces it.

#![allow(non_camel_case_types)]

use zerocopy::byteorder::little_endian::{I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{Error, Result};
use crate::kd::{ComputePgmRsrc1, ComputePgmRsrc2};

/// `amd_kernel_code_t` as laid out in a v2 code object.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct amd_kernel_code_t {
    /// Major version of this structure (1).
    pub amd_code_version_major: U32,
    /// Minor version.
    pub amd_code_version_minor: U32,
    /// `amd_machine_kind` (1 = AMDGPU).
    pub amd_machine_kind: U16,
    /// GFXIP major.
    pub amd_machine_version_major: U16,
    /// GFXIP minor.
    pub amd_machine_version_minor: U16,
    /// GFXIP stepping.
    pub amd_machine_version_stepping: U16,
    /// Byte offset from this structure to the entry point (usually 256).
    pub kernel_code_entry_byte_offset: I64,
    /// Prefetch range offset.
    pub kernel_code_prefetch_byte_offset: I64,
    /// Prefetch range size.
    pub kernel_code_prefetch_byte_size: U64,
    /// Reserved for the runtime.
    pub max_scratch_backing_memory_byte_size: U64,
    /// `COMPUTE_PGM_RSRC1`.
    pub compute_pgm_rsrc1: U32,
    /// `COMPUTE_PGM_RSRC2`.
    pub compute_pgm_rsrc2: U32,
    /// `enable_sgpr_*`, `is_ptr64`, … flags (bits 448-479).
    pub kernel_code_properties: U32,
    /// Private (scratch) bytes per work-item.
    pub workitem_private_segment_byte_size: U32,
    /// LDS bytes per work-group.
    pub workgroup_group_segment_byte_size: U32,
    /// GDS bytes.
    pub gds_segment_byte_size: U32,
    /// Kernarg segment size.
    pub kernarg_segment_byte_size: U64,
    /// Fbarriers per work-group.
    pub workgroup_fbarrier_count: U32,
    /// SGPRs per wave.
    pub wavefront_sgpr_count: U16,
    /// VGPRs per work-item.
    pub workitem_vgpr_count: U16,
    /// First reserved VGPR.
    pub reserved_vgpr_first: U16,
    /// Reserved VGPR count.
    pub reserved_vgpr_count: U16,
    /// First reserved SGPR.
    pub reserved_sgpr_first: U16,
    /// Reserved SGPR count.
    pub reserved_sgpr_count: U16,
    /// Debugger SGPR.
    pub debug_wavefront_private_segment_offset_sgpr: U16,
    /// Debugger SGPR.
    pub debug_private_segment_buffer_sgpr: U16,
    /// log2 of kernarg alignment.
    pub kernarg_segment_alignment: u8,
    /// log2 of group segment alignment.
    pub group_segment_alignment: u8,
    /// log2 of private segment alignment.
    pub private_segment_alignment: u8,
    /// log2 of wavefront size (6 = 64).
    pub wavefront_size: u8,
    /// Call convention.
    pub call_convention: U32,
    /// Reserved.
    pub reserved3: [u8; 12],
    /// Filled by the loader.
    pub runtime_loader_kernel_symbol: U64,
    /// HSAIL control directives.
    pub control_directives: [u8; 128],
}

const _: () = assert!(size_of::<amd_kernel_code_t>() == 256);

/// Size of `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_SIZE: usize = 256;

impl amd_kernel_code_t {
    /// Reads from the start of `bytes` (`offset` is for the error).
    pub fn read(bytes: &[u8], offset: u64) -> Result<amd_kernel_code_t> {
        amd_kernel_code_t::read_from_prefix(bytes)
            .map(|(k, _)| k)
            .map_err(|_| Error::Truncated {
                what: "amd_kernel_code_t",
                offset,
                needed: AMD_KERNEL_CODE_SIZE as u64,
                available: bytes.len() as u64,
            })
    }

    /// Typed `compute_pgm_rsrc1`.
    pub fn rsrc1(&self) -> ComputePgmRsrc1 {
        ComputePgmRsrc1(self.compute_pgm_rsrc1.get())
    }

    /// Typed `compute_pgm_rsrc2`.
    pub fn rsrc2(&self) -> ComputePgmRsrc2 {
        ComputePgmRsrc2(self.compute_pgm_rsrc2.get())
    }

    /// Bit `n` (0-based within the 32-bit properties word).
    fn prop(&self, n: u32) -> bool {
        self.kernel_code_properties.get() >> n & 1 != 0
    }

    /// `enable_sgpr_private_segment_buffer`.
    pub fn enable_sgpr_private_segment_buffer(&self) -> bool {
        self.prop(0)
    }
    /// `enable_sgpr_dispatch_ptr`.
    pub fn enable_sgpr_dispatch_ptr(&self) -> bool {
        self.prop(1)
    }
    /// `enable_sgpr_queue_ptr`.
    pub fn enable_sgpr_queue_ptr(&self) -> bool {
        self.prop(2)
    }
    /// `enable_sgpr_kernarg_segment_ptr`.
    pub fn enable_sgpr_kernarg_segment_ptr(&self) -> bool {
        self.prop(3)
    }
    /// `enable_sgpr_dispatch_id`.
    pub fn enable_sgpr_dispatch_id(&self) -> bool {
        self.prop(4)
    }
    /// `enable_sgpr_flat_scratch_init`.
    pub fn enable_sgpr_flat_scratch_init(&self) -> bool {
        self.prop(5)
    }
    /// `enable_sgpr_private_segment_size`.
    pub fn enable_sgpr_private_segment_size(&self) -> bool {
        self.prop(6)
    }
    /// `enable_sgpr_grid_workgroup_count_{X,Y,Z}` (`dim` 0..3).
    pub fn enable_sgpr_grid_workgroup_count(&self, dim: u32) -> bool {
        dim < 3 && self.prop(7 + dim)
    }
    /// `is_ptr64`.
    pub fn is_ptr64(&self) -> bool {
        self.prop(19)
    }
    /// `is_xnack_enabled`.
    pub fn is_xnack_enabled(&self) -> bool {
        self.prop(22)
    }
}
