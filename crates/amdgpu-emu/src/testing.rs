//! Running a snippet of assembly on the emulator, for tests and examples.
//!
//! [`run_asm`] wraps instruction lines in a kernel, assembles and links it
//! with `amdgpu_object::asm`, loads it, runs work-group (0, 0, 0) and
//! returns the final state of its waves. The kernel's initial state is
//! fixed so tests can rely on it:
//!
//! - `s[0:3]`: private segment buffer V# (gfx900–gfx90a); on gfx942
//!   (architected flat scratch) the dispatch and queue pointers (0);
//! - `s[4:5]`: kernarg segment address (the bytes given to [`run_asm`]);
//! - `s6`: work-group ID X; `s7`: scratch wave offset (not on gfx942,
//!   where FLAT_SCRATCH is set up by the dispatch instead);
//! - `v0`, `v1`, `v2`: work-item IDs X, Y, Z (gfx90a, gfx942: packed in `v0`);
//! - EXEC: the work-group's lanes; MODE from the kernel descriptor, with
//!   llvm-mc's defaults unless `AsmKernel::directives` says otherwise:
//!   round to nearest even, f32 denormals flushed, f16/f64 denormals
//!   kept, DX10 clamp and IEEE on.

use std::sync::Arc;

use amdgpu_object::TargetId;
use amdgpu_object::abi::WaveValues;
use amdgpu_object::asm::{Options, assemble};
use amdgpu_object::target::{Processor, ProcessorExt};

use crate::dispatch::{Device, Launch, initial_mode};
use crate::image::Image;
use crate::memory::Memory;
use crate::wave::Wave;

/// Kernel parameters for [`run_asm`].
#[derive(Debug, Clone)]
pub struct AsmKernel {
    /// Processor (`gfx900`, `gfx906`, `gfx908`, `gfx90a`, `gfx942`).
    pub mcpu: String,
    /// Work-group size (also the grid: one work-group runs).
    pub group: [u32; 3],
    /// LDS bytes.
    pub lds: u32,
    /// Private bytes per work-item.
    pub private: u32,
    /// Extra `.amdhsa_*` directive lines.
    pub directives: String,
}

impl AsmKernel {
    /// One wave of 64 work-items on `mcpu`, no LDS, no scratch.
    pub fn new(mcpu: &str) -> AsmKernel {
        AsmKernel {
            mcpu: mcpu.to_string(),
            group: [64, 1, 1],
            lds: 0,
            private: 0,
            directives: String::new(),
        }
    }
}

/// The source text of the kernel [`run_asm`] runs.
pub fn kernel_source(k: &AsmKernel, body: &str) -> String {
    let processor = Processor::from_name(&k.mcpu);
    let unified = processor.is_some_and(|p| p.is_gfx90a_family());
    let accum = if unified {
        "  .amdhsa_accum_offset 256\n"
    } else {
        ""
    };
    let agprs = if unified { 512 } else { 256 };
    // Architected flat scratch (gfx942): no private segment buffer and no
    // wave offset SGPR; the dispatch and queue pointers fill s[0:3] so the
    // kernarg pointer stays in s[4:5] and the work-group ID in s6.
    let sgprs = if processor.is_some_and(|p| p.has_architected_flat_scratch()) {
        "  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_enable_private_segment 1"
    } else {
        "  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_private_segment_wavefront_offset 1"
    };
    format!(
        ".amdgcn_target \"amdgcn-amd-amdhsa--{mcpu}\"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl k
.type k,@function
k:
{body}
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
{sgprs}
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_next_free_vgpr {agprs}
  .amdhsa_next_free_sgpr 96
  .amdhsa_group_segment_fixed_size {lds}
  .amdhsa_private_segment_fixed_size {private}
{accum}{directives}.end_amdhsa_kernel
",
        mcpu = k.mcpu,
        lds = k.lds,
        private = k.private,
        directives = k.directives,
    )
}

/// Assembles `body` into a kernel (see the module docs), runs one
/// work-group with `kernarg` as its kernarg segment, and returns the final
/// waves. Errors are assembler diagnostics or the dispatch's fault, as text.
pub fn run_asm(
    k: &AsmKernel,
    body: &str,
    memory: &Arc<Memory>,
    kernarg: &[u8],
) -> Result<Vec<Wave>, String> {
    let source = kernel_source(k, body);
    let target = TargetId::parse(&k.mcpu).map_err(|e| e.to_string())?;
    let asm = assemble(
        &source,
        &Options {
            target,
            file_name: "snippet.s".into(),
        },
    )
    .map_err(|e| e.to_string())?;
    let elf = asm.link("").map_err(|e| e.to_string())?;
    let image = Image::load(memory, &elf).map_err(|e| e.to_string())?;
    let kernel = image.kernel("k").ok_or("no kernel")?;
    let ka = memory
        .allocate(kernarg.len().max(8) as u64, 64)
        .ok_or("out of memory")?;
    memory.write(ka, kernarg).map_err(|e| e.to_string())?;
    let launch = Launch {
        name: "k".into(),
        program: &image.program,
        entry: kernel.entry,
        layout: kernel.layout.clone(),
        mode: initial_mode(kernel.descriptor.rsrc1()),
        vgprs: 256,
        agprs: 256,
        grid: k.group,
        group: k.group,
        group_segment_size: k.lds,
        private_segment_size: k.private,
        values: WaveValues {
            kernarg_segment_ptr: ka,
            kernarg: kernarg.to_vec(),
            ..Default::default()
        },
    };
    let device = Device::new(memory.clone(), 1);
    device
        .run_first_workgroup(&launch)
        .map_err(|e| e.to_string())
}
