//! Processor facts this crate needs beyond `amdgpu-isa`'s processor table:
//! the register-count granules of the kernel descriptor and the ABI quirks
//! of initial wave state (AMDGPUUsage "Kernel Descriptor", "Initial Kernel
//! Execution State"), as an extension trait on [`Processor`].

pub use amdgpu_isa::target::{FlatScratch, Generation, Processor, Setting, TargetId};

/// Code-object facts about a processor.
pub trait ProcessorExt {
    /// gfx90a and the gfx94x family: unified VGPR/AGPR file with
    /// `ACCUM_OFFSET` and `TG_SPLIT` in `compute_pgm_rsrc3`.
    fn is_gfx90a_family(&self) -> bool;
    /// GFX10 or later (RDNA).
    fn is_gfx10_plus(&self) -> bool;
    /// Architected flat scratch: the hardware sets up FLAT_SCRATCH, so there
    /// is no private segment buffer / flat scratch init user SGPR and no
    /// scratch wave offset system SGPR (gfx94x, GFX11+).
    fn has_architected_flat_scratch(&self) -> bool;
    /// Whether wave32 can be selected (GFX10+).
    fn supports_wave32(&self) -> bool;
    /// Granule of `GRANULATED_WORKITEM_VGPR_COUNT` (LLVM's VGPR encoding
    /// granule): 8 on gfx90a/gfx94x and for GFX10+ wave32, else 4.
    fn vgpr_encoding_granule(&self, wave32: bool) -> u32;
    /// Granule of `GRANULATED_WAVEFRONT_SGPR_COUNT` (8; the field is 0 on GFX10+).
    fn sgpr_encoding_granule(&self) -> u32;
}

impl ProcessorExt for Processor {
    fn is_gfx90a_family(&self) -> bool {
        self.generation == Generation::Gfx9 && self.packed_work_item_ids
    }

    fn is_gfx10_plus(&self) -> bool {
        self.generation >= Generation::Gfx10_1
    }

    fn has_architected_flat_scratch(&self) -> bool {
        self.flat_scratch == FlatScratch::Architected
    }

    fn supports_wave32(&self) -> bool {
        self.is_gfx10_plus()
    }

    fn vgpr_encoding_granule(&self, wave32: bool) -> u32 {
        if self.is_gfx90a_family() || (self.is_gfx10_plus() && wave32) {
            8
        } else {
            4
        }
    }

    fn sgpr_encoding_granule(&self) -> u32 {
        8
    }
}
