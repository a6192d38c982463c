//! End to end on the emulator alone: a clang-19 OpenCL kernel loaded with
//! `Image` and dispatched with a hand-built kernarg segment.

use std::process::Command;
use std::sync::Arc;

use amdgpu_emu::{Device, Image, Launch, Memory, initial_mode};
use amdgpu_object::abi::WaveValues;

fn compile(src: &str, mcpu: &str) -> Option<Vec<u8>> {
    if !oracles::clang_available() {
        return None;
    }
    let dir = oracles::Scratch::new("emu-smoke");
    let cl = dir.path("k.cl");
    let co = dir.path("k.co");
    std::fs::write(&cl, src).unwrap();
    oracles::run(
        Command::new("clang-19")
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-target",
                "amdgcn-amd-amdhsa",
                "-O3",
            ])
            .arg(format!("-mcpu={mcpu}"))
            .args(["-mcode-object-version=5", "-nogpulib"])
            .arg(&cl)
            .arg("-o")
            .arg(&co),
    );
    Some(std::fs::read(&co).unwrap())
}

#[test]
fn vector_add_runs_on_gfx90a_and_gfx900() {
    let src = "__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n) {
      uint i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
      if (i < n) c[i] = a[i] + b[i];
    }";
    for mcpu in ["gfx90a", "gfx900"] {
        let Some(co) = compile(src, mcpu) else { return };
        let mem = Arc::new(Memory::new());
        let image = Image::load(&mem, &co).unwrap();
        let k = image.kernel("vadd").unwrap();
        let n = 1000u32;
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
        let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let pa = mem.allocate(4 * n as u64, 256).unwrap();
        let pb = mem.allocate(4 * n as u64, 256).unwrap();
        let pc = mem.allocate(4 * n as u64, 256).unwrap();
        mem.write(pa, &bytes(&a)).unwrap();
        mem.write(pb, &bytes(&b)).unwrap();
        // Explicit arguments, then the v5 hidden block at 32 (group size X at +12).
        let mut kernarg = vec![0u8; 32 + 256];
        kernarg[0..8].copy_from_slice(&pa.to_le_bytes());
        kernarg[8..16].copy_from_slice(&pb.to_le_bytes());
        kernarg[16..24].copy_from_slice(&pc.to_le_bytes());
        kernarg[24..28].copy_from_slice(&n.to_le_bytes());
        kernarg[32..36].copy_from_slice(&n.div_ceil(256).to_le_bytes());
        kernarg[44..46].copy_from_slice(&256u16.to_le_bytes());
        let ka = mem.allocate(kernarg.len() as u64, 64).unwrap();
        mem.write(ka, &kernarg).unwrap();
        let launch = Launch {
            name: k.name.clone(),
            program: &image.program,
            entry: k.entry,
            layout: k.layout.clone(),
            mode: initial_mode(k.descriptor.rsrc1()),
            vgprs: k.descriptor.allocated_vgprs(image.processor),
            agprs: 0,
            grid: [n, 1, 1],
            group: [256, 1, 1],
            group_segment_size: k.descriptor.group_segment_fixed_size.get(),
            private_segment_size: k.descriptor.private_segment_fixed_size.get(),
            values: WaveValues {
                kernarg_segment_ptr: ka,
                kernarg,
                ..Default::default()
            },
        };
        let dev = Device::new(mem.clone(), 2);
        let stats = dev.run(&launch).unwrap_or_else(|e| panic!("{mcpu}: {e}"));
        assert_eq!(stats.waves, 16, "{mcpu}");
        let out = mem.read_vec(pc, 4 * n as usize).unwrap();
        for i in 0..n as usize {
            let got = f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(got.to_bits(), (a[i] + b[i]).to_bits(), "{mcpu}: c[{i}]");
        }
    }
}
