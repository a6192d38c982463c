//! Fuzz entry point (library code so that `cargo test` can smoke-test it;
//! `fuzz/` wraps it for `cargo fuzz`).

use std::sync::Arc;

use amdgpu_isa::gfx9::Target;
use amdgpu_object::Processor;
use amdgpu_object::abi::{WaveLayout, WaveValues};
use amdgpu_object::kd::{ComputePgmRsrc2, KernelCodeProperties, kernel_descriptor_t};

use crate::dispatch::{Device, Launch};
use crate::memory::Memory;
use crate::program::Program;

/// Runs arbitrary bytes as a kernel: byte 0 picks the target, the rest is
/// the code. Two waves of one work-group with LDS, scratch and a kernarg
/// pointer to a mapped buffer, stopped by a small watchdog. Any outcome is
/// fine except a panic or a hang.
pub fn fuzz_execute(data: &[u8]) {
    let Some((&pick, code)) = data.split_first() else {
        return;
    };
    let target = Target::ALL[usize::from(pick) % Target::ALL.len()];
    let Some(processor) = Processor::from_name(target.name()) else {
        return;
    };
    let memory = Arc::new(Memory::new());
    let Some(buffer) = memory.allocate(1 << 16, 1 << 16) else {
        return;
    };
    let mut kd = kernel_descriptor_t::default();
    let mut p = KernelCodeProperties::default();
    p.set_enable_sgpr_private_segment_buffer(1)
        .set_enable_sgpr_kernarg_segment_ptr(1);
    kd.set_properties(p);
    let mut r2 = ComputePgmRsrc2::default();
    r2.set_user_sgpr_count(6)
        .set_enable_sgpr_workgroup_id_x(1)
        .set_enable_private_segment(1)
        .set_enable_vgpr_workitem_id(2);
    kd.set_rsrc2(r2);
    let program = Program::new(0x1000, code.to_vec(), target);
    let launch = Launch {
        name: "fuzz".into(),
        program: &program,
        entry: 0x1000,
        layout: WaveLayout::new(&kd, processor),
        mode: 0x3f0,
        vgprs: 256,
        agprs: 256,
        grid: [128, 1, 1],
        group: [128, 1, 1],
        group_segment_size: 1024,
        private_segment_size: 16,
        values: WaveValues {
            kernarg_segment_ptr: buffer,
            ..Default::default()
        },
    };
    let mut device = Device::new(memory, 1);
    device.watchdog = 10_000;
    let _ = device.run(&launch);
}
