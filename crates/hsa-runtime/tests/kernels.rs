//! clang-19 OpenCL kernels end to end through the runtime: executable
//! load, kernarg with hidden arguments from the metadata (code object v4
//! and v5), dispatch packets on a queue, completion signals, results
//! checked against Rust; and a faulting kernel that leaves the process
//! (and a new queue) working.

use std::process::Command;
use std::time::Duration;

use hsa_runtime::{
    Condition, DispatchPacket, Error, Executable, Geometry, HiddenValues, KernargBuilder, Queue,
    Region, Signal, System,
};

const TIMEOUT: Duration = Duration::from_secs(120);

const SRC: &str = r#"
__kernel void scale_add(__global const float *a, __global const float *b,
                        __global float *c, __global uint *d, uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    c[i] = a[i] + b[i];
    d[i] = get_local_size(0) * 1000 + get_local_id(0);
  }
}

__kernel void ids2d(__global uint *out, uint width) {
  uint x = get_global_id(0), y = get_global_id(1);
  __global uint *o = out + 5 * (y * width + x);
  o[0] = x + 1000 * y;
  o[1] = get_local_size(0) | (get_local_size(1) << 16);
  o[2] = get_group_id(0) | (get_group_id(1) << 16);
  o[3] = get_global_size(0) | (get_global_size(1) << 8) | (get_work_dim() << 24);
  o[4] = get_num_groups(0) | (get_num_groups(1) << 16);
}

__kernel void group_sum(__global const uint *in, __global uint *out, __local uint *tmp) {
  uint l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(1); // CLK_LOCAL_MEMORY_FENCE (no opencl-c.h without -finclude-default-header)
  if (l == 0) {
    uint s = 0;
    for (uint k = 0; k < get_local_size(0); k++) s += tmp[k];
    out[get_group_id(0)] = s;
  }
}

__global uint table[4] = {11, 22, 33, 44};

__kernel void read_table(__global uint *out) {
  out[get_global_id(0)] = table[get_global_id(0) & 3];
}

__kernel void oob(__global uint *p) {
  p[(ulong)get_global_id(0) + 0x40000000UL] = 1;
}
"#;

fn compile(mcpu: &str, cov: u32) -> Option<Vec<u8>> {
    if !oracles::clang_available() {
        return None;
    }
    let dir = oracles::Scratch::new("hsa-rt-kernels");
    let cl = dir.path("k.cl");
    let co = dir.path("k.co");
    std::fs::write(&cl, SRC).unwrap();
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
            .arg(format!("-mcode-object-version={cov}"))
            .args([
                "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                "--rocm-path=/usr",
            ])
            .arg(&cl)
            .arg("-o")
            .arg(&co),
    );
    Some(std::fs::read(&co).unwrap())
}

const TARGETS: [(&str, u32); 4] = [("gfx90a", 5), ("gfx90a", 4), ("gfx900", 5), ("gfx900", 4)];

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn buffer(sys: &System, bytes: &[u8]) -> u64 {
    let a = sys
        .allocate(Region::CoarseGrained, bytes.len() as u64)
        .unwrap();
    sys.write(a, bytes).unwrap();
    a
}

#[test]
fn scale_add_with_partial_last_group() {
    for (mcpu, cov) in TARGETS {
        let Some(co) = compile(mcpu, cov) else { return };
        let ctx = format!("{mcpu} v{cov}");
        let sys = System::new(mcpu, 2).unwrap();
        let exe = Executable::load(&sys, &co).unwrap();
        let k = exe.kernel("scale_add").unwrap();
        assert_eq!(k.code_object_version, cov, "{ctx}");
        assert_eq!(
            exe.kernel("scale_add.kd").unwrap().kernel_object,
            k.kernel_object
        );
        assert_eq!(k.explicit_args().count(), 5, "{ctx}");
        assert_eq!(
            k.kernarg_segment_size,
            if cov == 5 { 296 } else { 96 },
            "{ctx}"
        );
        let n = 1000u32;
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
        let (pa, pb) = (buffer(&sys, &f32_bytes(&a)), buffer(&sys, &f32_bytes(&b)));
        let pc = sys
            .allocate(Region::CoarseGrained, 4 * u64::from(n))
            .unwrap();
        let pd = sys.allocate(Region::FineGrained, 4 * u64::from(n)).unwrap();
        let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let geometry = Geometry::new(&[n], &[256]).unwrap();
        let mut kb = KernargBuilder::new(&k);
        kb.push_u64(pa)
            .unwrap()
            .push_u64(pb)
            .unwrap()
            .push_u64(pc)
            .unwrap();
        kb.push_u64(pd).unwrap().push_u32(n).unwrap();
        let kernarg = kb
            .finish(
                &geometry,
                &HiddenValues {
                    queue_ptr: q.address(),
                    ..Default::default()
                },
            )
            .unwrap();
        let stats = q
            .dispatch(&k, &kernarg, &geometry, TIMEOUT)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(stats.workgroups, 4, "{ctx}");
        assert_eq!(stats.waves, 16, "{ctx}");
        assert!(stats.instructions > 0 && stats.lane_ops > 0, "{ctx}");
        assert_eq!(q.last_stats(), Some(stats));
        let out = sys.read_vec(pc, 4 * n as usize).unwrap();
        let d = u32s(&sys.read_vec(pd, 4 * n as usize).unwrap());
        for i in 0..n as usize {
            let want = a[i] + b[i];
            let got = f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(got.to_bits(), want.to_bits(), "{ctx}: c[{i}]");
            // The last group has 1000 - 3 * 256 = 232 work-items.
            let local = if i < 768 { 256 } else { 232 };
            assert_eq!(d[i], local * 1000 + (i as u32 % 256), "{ctx}: d[{i}]");
        }
    }
}

#[test]
fn two_dimensional_ids_and_sizes_through_raw_packets() {
    for (mcpu, cov) in TARGETS {
        let Some(co) = compile(mcpu, cov) else { return };
        let ctx = format!("{mcpu} v{cov}");
        let sys = System::new(mcpu, 2).unwrap();
        let exe = Executable::load(&sys, &co).unwrap();
        let k = exe.kernel("ids2d").unwrap();
        let (w, h) = (40u32, 12u32);
        let (gx, gy) = (16u16, 4u16);
        let out = sys
            .allocate(Region::FineGrained, 20 * u64::from(w * h))
            .unwrap();
        let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let geometry = Geometry::new(&[w, h], &[gx, gy]).unwrap();
        let mut kb = KernargBuilder::new(&k);
        kb.push_u64(out).unwrap().push_u32(w).unwrap();
        let kernarg = kb
            .finish(
                &geometry,
                &HiddenValues {
                    queue_ptr: q.address(),
                    ..Default::default()
                },
            )
            .unwrap();
        // The explicit path: kernarg region, packet, completion signal.
        let ka = sys.allocate(Region::Kernarg, kernarg.len() as u64).unwrap();
        sys.write(ka, &kernarg).unwrap();
        let done = Signal::new(&sys, 1).unwrap();
        let index = q
            .submit_dispatch(&DispatchPacket {
                dims: 2,
                workgroup_size: [gx, gy, 1],
                grid_size: [w, h, 1],
                group_segment_size: k.group_segment_size,
                private_segment_size: k.private_segment_size,
                kernel_object: k.kernel_object,
                kernarg_address: ka,
                completion_signal: done.handle(),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(done.wait(Condition::Eq, 0, TIMEOUT), 0, "{ctx}");
        if let Some(e) = q.error() {
            panic!("{ctx}: {e}");
        }
        assert_eq!(q.load_read_index(), index + 1);
        let (start, end) = done.timestamps();
        assert!(start > 0 && end >= start, "{ctx}: timestamps {start} {end}");
        let v = u32s(&sys.read_vec(out, 20 * (w * h) as usize).unwrap());
        for y in 0..h {
            for x in 0..w {
                let o = &v[5 * (y * w + x) as usize..][..5];
                // 40 = 2 * 16 + 8: the third group column has 8 work-items.
                let lx = if x < 32 { 16 } else { 8 };
                assert_eq!(o[0], x + 1000 * y, "{ctx} ({x},{y}) id");
                assert_eq!(o[1], lx | 4 << 16, "{ctx} ({x},{y}) local size");
                assert_eq!(o[2], (x / 16) | ((y / 4) << 16), "{ctx} ({x},{y}) group id");
                assert_eq!(
                    o[3],
                    40 | 12 << 8 | 2 << 24,
                    "{ctx} ({x},{y}) global size, dims"
                );
                // ceil(40 / 16) = 3, 12 / 4 = 3.
                assert_eq!(o[4], 3 | (3 << 16), "{ctx} ({x},{y}) number of groups");
            }
        }
        sys.free(ka).unwrap();
    }
}

#[test]
fn dynamic_group_memory() {
    for (mcpu, cov) in TARGETS {
        let Some(co) = compile(mcpu, cov) else { return };
        let ctx = format!("{mcpu} v{cov}");
        let sys = System::new(mcpu, 2).unwrap();
        let exe = Executable::load(&sys, &co).unwrap();
        let k = exe.kernel("group_sum").unwrap();
        let local = k.explicit_args().nth(2).unwrap().clone();
        assert_eq!(local.value_kind.as_str(), "dynamic_shared_pointer", "{ctx}");
        let n = 640u32;
        let group = 128u16;
        let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761) >> 8).collect();
        let pin = buffer(
            &sys,
            &input
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        let groups = n / u32::from(group);
        let pout = sys
            .allocate(Region::CoarseGrained, 4 * u64::from(groups))
            .unwrap();
        let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let mut geometry = Geometry::new(&[n], &[group]).unwrap();
        let bytes = 4 * u32::from(group);
        geometry.dynamic_group_size = bytes;
        let offset = k.group_segment_size.next_multiple_of(16);
        let mut kb = KernargBuilder::new(&k);
        kb.push_u64(pin).unwrap().push_u64(pout).unwrap();
        kb.push(&offset.to_le_bytes()[..local.size as usize])
            .unwrap();
        let kernarg = kb
            .finish(
                &geometry,
                &HiddenValues {
                    queue_ptr: q.address(),
                    ..Default::default()
                },
            )
            .unwrap();
        q.dispatch(&k, &kernarg, &geometry, TIMEOUT)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let got = u32s(&sys.read_vec(pout, 4 * groups as usize).unwrap());
        for g in 0..groups as usize {
            let want = input[g * 128..(g + 1) * 128]
                .iter()
                .fold(0u32, |s, &x| s.wrapping_add(x));
            assert_eq!(got[g], want, "{ctx}: group {g}");
        }
    }
}

#[test]
fn kernarg_builder_checks_the_metadata() {
    let Some(co) = compile("gfx90a", 5) else {
        return;
    };
    let sys = System::new("gfx90a", 1).unwrap();
    let exe = Executable::load(&sys, &co).unwrap();
    let k = exe.kernel("scale_add").unwrap();
    let g = Geometry::new(&[64], &[64]).unwrap();
    let mut kb = KernargBuilder::new(&k);
    let e = kb.push_u32(1).unwrap_err().to_string();
    assert!(
        e.contains("scale_add") && e.contains("argument 0 (") && e.contains("float*"),
        "{e}"
    );
    assert!(e.contains("takes 8 bytes, but a 4-byte value"), "{e}");
    kb.push_u64(1).unwrap();
    let e = kb
        .clone()
        .finish(&g, &HiddenValues::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("1 explicit argument(s) given, the kernel takes 5"),
        "{e}"
    );
    kb.push_u64(2)
        .unwrap()
        .push_u64(3)
        .unwrap()
        .push_u64(4)
        .unwrap();
    kb.push_u32(4).unwrap();
    assert!(kb.push_u32(5).unwrap_err().to_string().contains("too many"));
    let bytes = kb
        .finish(
            &g,
            &HiddenValues {
                queue_ptr: 0x1234_5678_9abc,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(bytes.len(), 296);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u16_at = |o: usize| u16::from_le_bytes(bytes[o..o + 2].try_into().unwrap());
    // v5 hidden block at 40 (after n at 32): block count, group size,
    // remainder, grid dims.
    assert_eq!(u32_at(32), 4);
    assert_eq!(u32_at(40), 1);
    assert_eq!(u32_at(44), 1);
    assert_eq!(u16_at(52), 64);
    assert_eq!(u16_at(54), 1);
    assert_eq!(u16_at(58), 0);
    assert_eq!(u16_at(40 + 64), 1);
    // Every hidden argument the metadata lists sits where it says.
    for a in k.args.iter().filter(|a| a.value_kind.is_hidden()) {
        let at = a.offset as usize;
        let v = &bytes[at..at + a.size as usize];
        match a.value_kind.as_str() {
            "hidden_block_count_x" | "hidden_block_count_y" | "hidden_block_count_z" => {
                assert_eq!(v, 1u32.to_le_bytes())
            }
            "hidden_group_size_x" => assert_eq!(v, 64u16.to_le_bytes()),
            "hidden_grid_dims" => assert_eq!(v, 1u16.to_le_bytes()),
            "hidden_shared_base" => assert_eq!(v, 0x1_0000u32.to_le_bytes()),
            "hidden_private_base" => assert_eq!(v, 0x2_0000u32.to_le_bytes()),
            "hidden_queue_ptr" => assert_eq!(v, 0x1234_5678_9abcu64.to_le_bytes()),
            _ => {}
        }
    }
    // Program-scope variables are symbols with device addresses.
    let t = exe.variable("table").unwrap();
    assert_eq!(t.size, 16);
    let words = u32s(&sys.read_vec(t.address, 16).unwrap());
    assert_eq!(words, [11, 22, 33, 44]);
    assert!(
        exe.variables()
            .iter()
            .all(|v| !v.name.starts_with("scale_add"))
    );
    assert!(
        exe.variable("missing")
            .unwrap_err()
            .to_string()
            .contains("table")
    );
    // A kernel reads the variable (through its relocated address).
    sys.write(t.address + 4, &99u32.to_le_bytes()).unwrap();
    let rt = exe.kernel("read_table").unwrap();
    let out = sys.allocate(Region::CoarseGrained, 32).unwrap();
    let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
    let g8 = Geometry::new(&[8], &[8]).unwrap();
    let mut kb = KernargBuilder::new(&rt);
    kb.push_u64(out).unwrap();
    let ka = kb
        .finish(
            &g8,
            &HiddenValues {
                queue_ptr: q.address(),
                ..Default::default()
            },
        )
        .unwrap();
    q.dispatch(&rt, &ka, &g8, TIMEOUT).unwrap();
    assert_eq!(
        u32s(&sys.read_vec(out, 32).unwrap()),
        [11, 99, 33, 44, 11, 99, 33, 44]
    );
    // Unknown names list what exists.
    let e = exe.kernel("nope").unwrap_err().to_string();
    assert!(
        e.contains("nope") && e.contains("scale_add") && e.contains("oob"),
        "{e}"
    );
    // Wrong processor.
    let other = System::new("gfx900", 1).unwrap();
    assert!(matches!(
        Executable::load(&other, &co),
        Err(Error::IncompatibleIsa { .. })
    ));
    assert!(matches!(
        Executable::load(&sys, b"not an elf"),
        Err(Error::Load(_))
    ));
}

#[test]
fn fault_is_reported_through_the_queue_and_a_new_queue_works() {
    for (mcpu, cov) in [("gfx90a", 5), ("gfx900", 4)] {
        let Some(co) = compile(mcpu, cov) else { return };
        let ctx = format!("{mcpu} v{cov}");
        let sys = System::new(mcpu, 2).unwrap();
        let exe = Executable::load(&sys, &co).unwrap();
        let bad = exe.kernel("oob").unwrap();
        let p = sys.allocate(Region::CoarseGrained, 256).unwrap();
        let q = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let g = Geometry::new(&[64], &[64]).unwrap();
        let mut kb = KernargBuilder::new(&bad);
        kb.push_u64(p).unwrap();
        let kernarg = kb
            .finish(
                &g,
                &HiddenValues {
                    queue_ptr: q.address(),
                    ..Default::default()
                },
            )
            .unwrap();
        let e = q.dispatch(&bad, &kernarg, &g, TIMEOUT).unwrap_err();
        let Error::Fault(f) = &e else {
            panic!("{ctx}: not a fault: {e}")
        };
        assert_eq!(f.kernel, "oob");
        let text = e.to_string();
        assert!(text.contains("memory fault"), "{ctx}: {text}");
        assert_eq!(q.fault().as_ref(), Some(f));
        assert!(!q.is_active());
        // The inactive queue refuses more work...
        assert!(matches!(
            q.dispatch(&bad, &kernarg, &g, TIMEOUT),
            Err(Error::QueueInactive(_))
        ));
        // ...and a new queue runs a good kernel.
        let q2 = Queue::new(&sys, sys.gpu(), 64).unwrap();
        let k = exe.kernel("scale_add").unwrap();
        let a = buffer(&sys, &f32_bytes(&[1.0; 64]));
        let b = buffer(&sys, &f32_bytes(&[2.0; 64]));
        let c = sys.allocate(Region::CoarseGrained, 256).unwrap();
        let d = sys.allocate(Region::CoarseGrained, 256).unwrap();
        let mut kb = KernargBuilder::new(&k);
        kb.push_u64(a)
            .unwrap()
            .push_u64(b)
            .unwrap()
            .push_u64(c)
            .unwrap();
        kb.push_u64(d).unwrap().push_u32(64).unwrap();
        let kernarg = kb
            .finish(
                &g,
                &HiddenValues {
                    queue_ptr: q2.address(),
                    ..Default::default()
                },
            )
            .unwrap();
        q2.dispatch(&k, &kernarg, &g, TIMEOUT)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let out = sys.read_vec(c, 256).unwrap();
        assert!(
            out.chunks(4)
                .all(|x| f32::from_le_bytes(x.try_into().unwrap()) == 3.0),
            "{ctx}"
        );
    }
}
