//! Memory instructions (GLOBAL/FLAT/SCRATCH, MUBUF/MTBUF, SMEM, DS) run
//! through `run_asm`, with expectations computed here from the inputs.

// Lane loops index several per-lane arrays at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};

const CPUS: [&str; 2] = ["gfx900", "gfx90a"];

/// Input bytes used by most tests: byte i = i·7 + 3.
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + 3) as u8).collect()
}

fn buffer(mem: &Memory, bytes: &[u8]) -> u64 {
    let a = mem.allocate(bytes.len() as u64, 256).unwrap();
    mem.write(a, bytes).unwrap();
    a
}

/// Kernarg bytes: the pointers, padded to the three the prologue loads.
fn kernarg(ptrs: &[u64]) -> Vec<u8> {
    let mut k: Vec<u8> = ptrs.iter().flat_map(|p| p.to_le_bytes()).collect();
    k.resize(k.len().max(32), 0);
    k
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().unwrap())
}

/// Loads the kernarg pointers into s[8:9], s[10:11], s[12:13].
const PROLOGUE: &str = "
  s_load_dwordx2 s[8:9], s[4:5], 0x0
  s_load_dwordx2 s[10:11], s[4:5], 0x8
  s_load_dwordx2 s[12:13], s[4:5], 0x10
  s_waitcnt lgkmcnt(0)
";

fn run(mcpu: &str, body: &str, mem: &Arc<Memory>, ptrs: &[u64]) -> Vec<amdgpu_emu::Wave> {
    let k = AsmKernel::new(mcpu);
    run_asm(&k, &format!("{PROLOGUE}{body}"), mem, &kernarg(ptrs))
        .unwrap_or_else(|e| panic!("{mcpu}: {e}"))
}

fn run_err(k: &AsmKernel, body: &str, mem: &Arc<Memory>, ptrs: &[u64]) -> String {
    run_asm(k, &format!("{PROLOGUE}{body}"), mem, &kernarg(ptrs)).unwrap_err()
}

#[test]
fn global_loads_of_every_width() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(64 * 16);
        let pa = buffer(&mem, &a);
        let body = "
  v_lshlrev_b32 v10, 4, v0
  global_load_ubyte v20, v10, s[8:9] offset:1
  global_load_sbyte v21, v10, s[8:9] offset:5
  global_load_ushort v22, v10, s[8:9] offset:2
  global_load_sshort v23, v10, s[8:9] offset:6
  global_load_dword v24, v10, s[8:9]
  global_load_dwordx2 v[26:27], v10, s[8:9] offset:4
  global_load_dwordx3 v[28:30], v10, s[8:9]
  global_load_dwordx4 v[32:35], v10, s[8:9]
  v_mov_b32 v40, 0x12345678
  v_mov_b32 v41, 0x12345678
  v_mov_b32 v42, 0x12345678
  v_mov_b32 v43, 0x12345678
  v_mov_b32 v44, 0x12345678
  v_mov_b32 v45, 0x12345678
  global_load_short_d16 v40, v10, s[8:9] offset:6
  global_load_short_d16_hi v41, v10, s[8:9] offset:6
  global_load_ubyte_d16 v42, v10, s[8:9] offset:9
  global_load_ubyte_d16_hi v43, v10, s[8:9] offset:9
  global_load_sbyte_d16 v44, v10, s[8:9] offset:9
  global_load_sbyte_d16_hi v45, v10, s[8:9] offset:9
  v_mov_b32 v11, 0
  v_add_co_u32 v12, vcc, s8, v10
  v_mov_b32 v13, s9
  v_addc_co_u32 v13, vcc, 0, v13, vcc
  v_add_co_u32 v14, vcc, 16, v12
  v_addc_co_u32 v15, vcc, 0, v13, vcc
  global_load_dword v46, v[14:15], off offset:-4
  flat_load_dwordx2 v[48:49], v[12:13] offset:8
  flat_load_dword v50, v[12:13] offset:4
";
        let w = run(cpu, body, &mem, &[pa]);
        let v = &w[0].v;
        for l in 0..64 {
            let b = |i: usize| a[16 * l + i];
            let d = |i: usize| u32_at(&a, 16 * l + i);
            assert_eq!(v[20][l], u32::from(b(1)), "{cpu} ubyte {l}");
            assert_eq!(v[21][l], b(5) as i8 as i32 as u32, "{cpu} sbyte {l}");
            assert_eq!(v[22][l], u32::from(u16::from_le_bytes([b(2), b(3)])));
            assert_eq!(v[23][l], i16::from_le_bytes([b(6), b(7)]) as i32 as u32);
            assert_eq!(v[24][l], d(0));
            assert_eq!([v[26][l], v[27][l]], [d(4), d(8)]);
            assert_eq!([v[28][l], v[29][l], v[30][l]], [d(0), d(4), d(8)]);
            assert_eq!(
                [v[32][l], v[33][l], v[34][l], v[35][l]],
                [d(0), d(4), d(8), d(12)]
            );
            let h = u32::from(u16::from_le_bytes([b(6), b(7)]));
            assert_eq!(v[40][l], 0x1234_0000 | h, "{cpu} short_d16 {l}");
            assert_eq!(v[41][l], 0x5678 | h << 16);
            assert_eq!(v[42][l], 0x1234_0000 | u32::from(b(9)));
            assert_eq!(v[43][l], 0x5678 | u32::from(b(9)) << 16);
            assert_eq!(v[44][l], 0x1234_0000 | u32::from(b(9) as i8 as i16 as u16));
            assert_eq!(v[45][l], 0x5678 | u32::from(b(9) as i8 as i16 as u16) << 16);
            assert_eq!(v[46][l], d(12));
            assert_eq!([v[48][l], v[49][l]], [d(8), d(12)]);
            assert_eq!(v[50][l], d(4));
        }
    }
}

/// Partial EXEC keeps inactive lanes (with unmapped addresses) away from
/// memory; the same code with every lane active faults.
#[test]
fn inactive_lanes_do_not_touch_memory() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(64 * 4);
        let pa = buffer(&mem, &a);
        let pb = buffer(&mem, &[0u8; 64 * 4]);
        // Odd lanes get an offset 16 MiB past the buffers.
        let body = "
  v_lshlrev_b32 v10, 2, v0
  v_and_b32 v11, 1, v0
  v_lshlrev_b32 v11, 24, v11
  v_or_b32 v10, v10, v11
  v_mov_b32 v20, 0xdeadbeef
  s_mov_b32 exec_lo, 0x55555555
  s_mov_b32 exec_hi, 0x55555555
  global_load_dword v20, v10, s[8:9]
  global_store_dword v10, v20, s[10:11]
  global_atomic_add v10, v20, s[10:11]
  s_mov_b64 exec, -1
";
        let w = run(cpu, body, &mem, &[pa, pb]);
        let out = mem.read_vec(pb, 64 * 4).unwrap();
        for l in 0..64 {
            if l % 2 == 0 {
                assert_eq!(w[0].v[20][l], u32_at(&a, 4 * l), "{cpu} {l}");
                assert_eq!(u32_at(&out, 4 * l), u32_at(&a, 4 * l).wrapping_mul(2));
            } else {
                assert_eq!(w[0].v[20][l], 0xdead_beef, "{cpu} {l}");
                assert_eq!(u32_at(&out, 4 * l), 0);
            }
        }
        // The same with every lane active faults at lane 1's address.
        let body = body.replace(
            "s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555",
            "",
        );
        let err = run_err(&AsmKernel::new(cpu), &body, &mem, &[pa, pb]);
        let bad = pa + 4 + (1 << 24);
        assert!(err.contains(&format!("{bad:#x}")), "{cpu}: {err}");
    }
}

#[test]
fn global_stores_of_every_width() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(64 * 16);
        let pa = buffer(&mem, &a);
        let pb = buffer(&mem, &[0u8; 64 * 64]);
        let body = "
  v_lshlrev_b32 v10, 4, v0
  v_lshlrev_b32 v11, 6, v0
  global_load_dwordx4 v[20:23], v10, s[8:9]
  global_store_dwordx4 v11, v[20:23], s[10:11]
  global_store_dwordx3 v11, v[20:22], s[10:11] offset:16
  global_store_dwordx2 v11, v[20:21], s[10:11] offset:32
  global_store_dword v11, v23, s[10:11] offset:40
  global_store_byte v11, v21, s[10:11] offset:44
  global_store_byte_d16_hi v11, v21, s[10:11] offset:45
  global_store_short v11, v22, s[10:11] offset:46
  global_store_short_d16_hi v11, v22, s[10:11] offset:48
  v_mov_b32 v12, 0
  v_add_co_u32 v12, vcc, s10, v11
  v_mov_b32 v13, s11
  v_addc_co_u32 v13, vcc, 0, v13, vcc
  flat_store_short v[12:13], v23 offset:52
";
        run(cpu, body, &mem, &[pa, pb]);
        let out = mem.read_vec(pb, 64 * 64).unwrap();
        for l in 0..64 {
            let src = &a[16 * l..16 * l + 16];
            let mut e = [0u8; 64];
            e[0..16].copy_from_slice(src);
            e[16..28].copy_from_slice(&src[..12]);
            e[32..40].copy_from_slice(&src[..8]);
            e[40..44].copy_from_slice(&src[12..16]);
            e[44] = src[4];
            e[45] = src[6];
            e[46..48].copy_from_slice(&src[8..10]);
            e[48..50].copy_from_slice(&src[10..12]);
            e[52..54].copy_from_slice(&src[12..14]);
            assert_eq!(&out[64 * l..64 * l + 64], &e[..], "{cpu} lane {l}");
        }
    }
}

#[test]
fn global_integer_atomics() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let mut c = vec![0u8; 64];
        c[8..12].copy_from_slice(&5u32.to_le_bytes());
        let pc = buffer(&mem, &c);
        // Per-lane words: D[l] = l, E[l] = 0x80000000 + l, F[l] (u64) = 0xffffffff.
        let mut dd = vec![0u8; 64 * 4 * 2 + 64 * 8 * 2];
        for l in 0..64 {
            dd[4 * l..4 * l + 4].copy_from_slice(&(l as u32).to_le_bytes());
            dd[256 + 4 * l..256 + 4 * l + 4]
                .copy_from_slice(&(0x8000_0000u32 + l as u32).to_le_bytes());
            dd[512 + 8 * l..512 + 8 * l + 8].copy_from_slice(&0xffff_ffffu64.to_le_bytes());
            dd[1024 + 8 * l..1024 + 8 * l + 8].copy_from_slice(&(l as u64 * 3).to_le_bytes());
        }
        let pd = buffer(&mem, &dd);
        let body = "
  v_mov_b32 v1, 0
  v_add_u32 v20, 1, v0
  global_atomic_add v30, v1, v20, s[8:9] glc
  v_mov_b32 v21, 10
  global_atomic_inc v31, v1, v21, s[8:9] offset:4 glc
  v_mov_b32 v22, 7
  global_atomic_dec v32, v1, v22, s[8:9] offset:8 glc
  global_atomic_umax v1, v20, s[8:9] offset:12
  global_atomic_smin v33, v1, v20, s[8:9] offset:16 glc
  global_atomic_sub v1, v20, s[8:9] offset:20
  global_atomic_xor v1, v20, s[8:9] offset:24
  global_atomic_or v1, v20, s[8:9] offset:28
  global_atomic_swap v34, v1, v20, s[8:9] offset:32 glc
  v_lshlrev_b32 v10, 2, v0
  v_and_b32 v23, 1, v0
  v_add_u32 v25, v0, v23
  v_add_u32 v24, 1000, v0
  global_atomic_cmpswap v35, v10, v[24:25], s[10:11] glc
  v_mov_b32 v26, -1
  global_atomic_smax v36, v10, v26, s[10:11] offset:256 glc
  v_lshlrev_b32 v11, 3, v0
  v_mov_b32 v28, 1
  v_mov_b32 v29, 0
  global_atomic_add_x2 v[38:39], v11, v[28:29], s[10:11] offset:512 glc
  v_mul_lo_u32 v42, v0, 3
  v_and_b32 v42, -2, v42
  v_mov_b32 v43, 0
  v_mov_b32 v40, 77
  v_mov_b32 v41, 0
  global_atomic_cmpswap_x2 v[46:47], v11, v[40:43], s[10:11] offset:1024 glc
  global_atomic_and_x2 v11, v[28:29], s[10:11] offset:512
";
        // cmpswap_x2 data = {src = 77, cmp = 3l & !1}: lanes with 3l even swap.
        let w = run(cpu, body, &mem, &[pc, pd]);
        let v = &w[0].v;
        let out = mem.read_vec(pc, 64).unwrap();
        let (mut add, mut inc, mut dec, mut smin) = (0u32, 0u32, 5u32, 0i32);
        let (mut sub, mut xor, mut or, mut swap) = (0u32, 0u32, 0u32, 0u32);
        for l in 0..64usize {
            let x = l as u32 + 1;
            assert_eq!(v[30][l], add, "{cpu} add {l}");
            add += x;
            assert_eq!(v[31][l], inc, "{cpu} inc {l}");
            inc = if inc >= 10 { 0 } else { inc + 1 };
            assert_eq!(v[32][l], dec, "{cpu} dec {l}");
            dec = if dec == 0 || dec > 7 { 7 } else { dec - 1 };
            assert_eq!(v[33][l], smin as u32);
            smin = smin.min(x as i32);
            sub = sub.wrapping_sub(x);
            xor ^= x;
            or |= x;
            assert_eq!(v[34][l], swap);
            swap = x;
        }
        assert_eq!(
            [0, 4, 8, 12, 16, 20, 24, 28, 32].map(|i| u32_at(&out, i)),
            [add, inc, dec, 64, smin as u32, sub, xor, or, swap],
            "{cpu}"
        );
        let out = mem.read_vec(pd, dd.len()).unwrap();
        for l in 0..64usize {
            let lu = l as u32;
            assert_eq!(v[35][l], lu);
            let swapped = l % 2 == 0;
            assert_eq!(
                u32_at(&out, 4 * l),
                if swapped { 1000 + lu } else { lu },
                "{cpu} cmpswap {l}"
            );
            assert_eq!(v[36][l], 0x8000_0000 + lu);
            assert_eq!(u32_at(&out, 256 + 4 * l), u32::MAX); // smax(i32 min-ish, -1) = -1
            assert_eq!([v[38][l], v[39][l]], [u32::MAX, 0]);
            assert_eq!(u64_at(&out, 512 + 8 * l), 0x1_0000_0000 & 1);
            let old = 3 * l as u64;
            assert_eq!(u64::from(v[46][l]) | u64::from(v[47][l]) << 32, old);
            let cmp = old & !1;
            assert_eq!(
                u64_at(&out, 1024 + 8 * l),
                if old == cmp { 77 } else { old },
                "{cpu} cmpswap_x2 {l}"
            );
        }
        // A misaligned atomic faults.
        let err = run_err(
            &AsmKernel::new(cpu),
            "  v_mov_b32 v1, 2\n  global_atomic_add v1, v1, s[8:9]",
            &mem,
            &[pc, pd],
        );
        assert!(
            err.contains("not aligned") && err.contains(&format!("{:#x}", pc + 2)),
            "{err}"
        );
    }
}

#[test]
fn float_atomics_on_gfx90a() {
    let mem = Arc::new(Memory::new());
    let vals: Vec<f32> = (0..64).map(|l| l as f32 * 0.37 - 5.0).collect();
    let mut a = vec![0u8; 64 * 4 + 64 * 8];
    for l in 0..64 {
        a[4 * l..4 * l + 4].copy_from_slice(&vals[l].to_le_bytes());
        a[256 + 8 * l..256 + 8 * l + 8].copy_from_slice(&(f64::from(vals[l]) * 1.1).to_le_bytes());
    }
    let pa = buffer(&mem, &a);
    let mut c = vec![0u8; 64];
    c[0..4].copy_from_slice(&1.5f32.to_le_bytes());
    c[4..8].copy_from_slice(&0x0000_0001u32.to_le_bytes()); // f32 denormal
    c[8..16].copy_from_slice(&0.25f64.to_le_bytes());
    c[16..20].copy_from_slice(&0x4000_3c00u32.to_le_bytes()); // f16 (1.0, 2.0)
    c[24..32].copy_from_slice(&3.0f64.to_le_bytes());
    let pc = buffer(&mem, &c);
    let body = "
  v_lshlrev_b32 v10, 2, v0
  v_lshlrev_b32 v11, 3, v0
  global_load_dword v20, v10, s[8:9]
  global_load_dwordx2 v[22:23], v11, s[8:9] offset:256
  v_mov_b32 v1, 0
  global_atomic_add_f32 v30, v1, v20, s[10:11] glc
  v_mov_b32 v21, 0
  global_atomic_add_f32 v1, v21, s[10:11] offset:4
  global_atomic_add_f64 v[32:33], v1, v[22:23], s[10:11] offset:8 glc
  v_mov_b32 v24, 0x34003800
  global_atomic_pk_add_f16 v1, v24, s[10:11] offset:16
  global_atomic_max_f64 v1, v[22:23], s[10:11] offset:24
";
    let w = run("gfx90a", body, &mem, &[pa, pc]);
    let v = &w[0].v;
    let out = mem.read_vec(pc, 64).unwrap();
    let mut acc = 1.5f32;
    let mut acc64 = 0.25f64;
    let mut mx = 3.0f64;
    for l in 0..64 {
        assert_eq!(v[30][l], acc.to_bits(), "add_f32 lane {l}");
        acc += vals[l];
        let old = u64::from(v[32][l]) | u64::from(v[33][l]) << 32;
        assert_eq!(old, acc64.to_bits(), "add_f64 lane {l}");
        let x = f64::from(vals[l]) * 1.1;
        acc64 += x;
        mx = mx.max(x);
    }
    assert_eq!(u32_at(&out, 0), acc.to_bits());
    // gfx90a's f32 atomic add flushes denormals: denormal + 0 = +0.
    assert_eq!(u32_at(&out, 4), 0);
    assert_eq!(u64_at(&out, 8), acc64.to_bits());
    // 1.0 + 64 · 0.5 = 33.0 (0x5020), 2.0 + 64 · 0.25 = 18.0 (0x4c80).
    assert_eq!(u32_at(&out, 16), 0x4c80_5020);
    assert_eq!(u64_at(&out, 24), mx.to_bits());
}

#[test]
fn lds_loads_stores_and_two_address_forms() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(64 * 16);
        let pa = buffer(&mem, &a);
        let mut k = AsmKernel::new(cpu);
        k.lds = 4096;
        let body = "
  v_lshlrev_b32 v10, 4, v0
  global_load_dwordx4 v[20:23], v10, s[8:9]
  v_lshlrev_b32 v11, 2, v0
  v_sub_u32 v12, 63, v0
  v_lshlrev_b32 v12, 2, v12
  ds_write_b32 v11, v20
  ds_read_b32 v30, v12
  ds_write_b128 v10, v[20:23] offset:1024
  ds_read_b128 v[32:35], v10 offset:1024
  ds_read_b96 v[36:38], v10 offset:1028
  ds_read_b64 v[40:41], v10 offset:1032
  ds_read_u8 v42, v10 offset:1025
  ds_read_i8 v43, v10 offset:1029
  ds_read_u16 v44, v10 offset:1026
  ds_read_i16 v45, v10 offset:1030
  v_mov_b32 v46, 0x12345678
  v_mov_b32 v47, 0x12345678
  ds_read_u16_d16_hi v46, v10 offset:1030
  ds_read_i8_d16 v47, v10 offset:1031
  v_lshlrev_b32 v13, 3, v0
  ds_write2_b32 v13, v21, v22 offset0:0 offset1:1
  ds_read2_b32 v[48:49], v13 offset1:1
  ds_read_b64 v[50:51], v13
  ds_write2st64_b32 v11, v23, v20 offset0:4 offset1:5
  ds_read2st64_b32 v[52:53], v11 offset0:5 offset1:4
  ds_write2_b64 v10, v[20:21], v[22:23] offset0:64 offset1:65
  ds_read2st64_b64 v[54:57], v10 offset0:1 offset1:1
  ds_write_b16 v11, v23 offset:2048
  ds_write_b8_d16_hi v11, v23 offset:2048
  ds_read_b32 v58, v11 offset:2048
";
        let w = run_asm(&k, &format!("{PROLOGUE}{body}"), &mem, &kernarg(&[pa]))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        let v = &w[0].v;
        for l in 0..64 {
            let d = |l: usize, i: usize| u32_at(&a, 16 * l + i);
            let b = |i: usize| a[16 * l + i];
            assert_eq!(v[30][l], d(63 - l, 0), "{cpu} {l}");
            assert_eq!(
                [v[32][l], v[33][l], v[34][l], v[35][l]],
                [d(l, 0), d(l, 4), d(l, 8), d(l, 12)]
            );
            assert_eq!([v[36][l], v[37][l], v[38][l]], [d(l, 4), d(l, 8), d(l, 12)]);
            assert_eq!([v[40][l], v[41][l]], [d(l, 8), d(l, 12)]);
            assert_eq!(v[42][l], u32::from(b(1)));
            assert_eq!(v[43][l], b(5) as i8 as u32);
            assert_eq!(v[44][l], u32::from(u16::from_le_bytes([b(2), b(3)])));
            assert_eq!(v[45][l], i16::from_le_bytes([b(6), b(7)]) as u32);
            assert_eq!(
                v[46][l],
                0x5678 | u32::from(u16::from_le_bytes([b(6), b(7)])) << 16
            );
            assert_eq!(v[47][l], 0x1234_0000 | u32::from(b(7) as i8 as u16));
            assert_eq!([v[48][l], v[49][l]], [d(l, 4), d(l, 8)]);
            assert_eq!([v[50][l], v[51][l]], [d(l, 4), d(l, 8)]);
            assert_eq!([v[52][l], v[53][l]], [d(l, 0), d(l, 12)], "{cpu} st64 {l}");
            // Lane l wrote its x2 pair at 16l + 512 and 16l + 520; it reads
            // 16l + 512 twice.
            assert_eq!(
                [v[54][l], v[55][l], v[56][l], v[57][l]],
                [d(l, 0), d(l, 4), d(l, 0), d(l, 4)]
            );
            let x = d(l, 12);
            // b16 wrote bytes 0–1, then b8_d16_hi replaced byte 0 with bits 23:16.
            assert_eq!(v[58][l], (x & 0xff00) | (x >> 16 & 0xff));
        }
    }
}

#[test]
fn lds_atomics() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let pa = buffer(&mem, &[0u8; 4]);
        let mut k = AsmKernel::new(cpu);
        k.lds = 4096;
        let body = "
  v_lshlrev_b32 v11, 2, v0
  v_lshlrev_b32 v12, 3, v0
  v_add_u32 v20, 1, v0
  v_mov_b32 v1, 0
  ds_write_b32 v11, v0
  ds_add_rtn_u32 v30, v1, v20 offset:2048
  ds_read_b32 v31, v1 offset:2048
  v_and_b32 v21, 1, v0
  v_add_u32 v21, v0, v21
  v_add_u32 v22, 500, v0
  ds_cmpst_rtn_b32 v32, v11, v21, v22
  ds_read_b32 v33, v11
  v_mov_b32 v23, 0xff00
  v_mov_b32 v24, 0x5a
  ds_write_b32 v1, v23 offset:2052
  ds_mskor_rtn_b32 v34, v1, v23, v24 offset:2052
  ds_read_b32 v35, v1 offset:2052
  v_mov_b32 v25, 3
  v_mov_b32 v26, 10
  ds_wrap_rtn_b32 v36, v1, v25, v26 offset:2056
  ds_min_rtn_i32 v37, v1, v20 offset:2060
  v_mov_b32 v27, 0
  ds_max_rtn_u64 v[38:39], v12, v[20:21] offset:1024
  ds_inc_rtn_u32 v40, v1, v25 offset:2064
  ds_rsub_u32 v1, v20 offset:2068
  ds_read_b32 v41, v1 offset:2068
  ds_wrxchg_rtn_b32 v42, v11, v20
  ds_read_b32 v43, v11
";
        let w = run_asm(&k, &format!("{PROLOGUE}{body}"), &mem, &kernarg(&[pa]))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        let v = &w[0].v;
        let (mut add, mut wrap, mut inc, mut rsub) = (0u32, 0u32, 0u32, 0u32);
        let mut min = 0i32;
        for l in 0..64usize {
            let lu = l as u32;
            let x = lu + 1;
            assert_eq!(v[30][l], add, "{cpu} add_rtn {l}");
            add += x;
            // cmpst: DATA0 (v21) is the compare value, DATA1 (v22) the new one.
            assert_eq!(v[32][l], lu);
            assert_eq!(
                v[33][l],
                if l % 2 == 0 { 500 + lu } else { lu },
                "{cpu} cmpst {l}"
            );
            assert_eq!(v[36][l], wrap);
            wrap = if wrap >= 3 { wrap - 3 } else { wrap + 10 };
            assert_eq!(v[37][l], min as u32);
            min = min.min(x as i32);
            // max_u64 over a fresh (zero) qword per lane: {l+1, l odd}.
            assert_eq!([v[38][l], v[39][l]], [0, 0]);
            assert_eq!(v[40][l], inc);
            inc = if inc >= 3 { 0 } else { inc + 1 };
            rsub = x.wrapping_sub(rsub);
            assert_eq!(v[42][l], if l % 2 == 0 { 500 + lu } else { lu });
            assert_eq!(v[43][l], x);
        }
        assert!(v[31].iter().all(|&s| s == add));
        // mskor: every lane computes (old & ~0xff00) | 0x5a.
        assert_eq!(v[34][0], 0xff00);
        assert_eq!(v[34][1], 0x5a);
        assert!(v[35].iter().all(|&s| s == 0x5a));
        assert!(v[41].iter().all(|&s| s == rsub), "{cpu}");
        // An access past the LDS allocation faults.
        let err = run_err(
            &k,
            "  v_mov_b32 v1, 4094\n  ds_read_b32 v2, v1",
            &mem,
            &[pa],
        );
        assert!(err.contains("LDS fault") && err.contains("0xffe"), "{err}");
    }
}

/// The source lane of a `ds_swizzle_b32` pattern, written from the ISA
/// description (independently of the emulator).
fn swizzle_ref(offset: u32, lane: usize) -> usize {
    if offset >= 0x8000 {
        let sel = (offset >> (2 * (lane % 4))) & 3;
        lane / 4 * 4 + sel as usize
    } else {
        let and = (offset & 31) as usize;
        let or = ((offset >> 5) & 31) as usize;
        let xor = ((offset >> 10) & 31) as usize;
        lane / 32 * 32 + (((lane % 32) & and | or) ^ xor)
    }
}

#[test]
fn swizzle_and_permute() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let pa = buffer(&mem, &[0u8; 4]);
        let body = "
  v_mul_lo_u32 v20, v0, 3
  v_add_u32 v20, 11, v20
  ds_swizzle_b32 v30, v20 offset:swizzle(SWAP,1)
  ds_swizzle_b32 v31, v20 offset:swizzle(QUAD_PERM,3,2,1,0)
  ds_swizzle_b32 v32, v20 offset:swizzle(BROADCAST,8,3)
  ds_swizzle_b32 v33, v20 offset:swizzle(REVERSE,16)
  ds_swizzle_b32 v34, v20 offset:swizzle(BITMASK_PERM,\"01pip\")
  v_sub_u32 v12, 63, v0
  v_lshlrev_b32 v12, 2, v12
  ds_bpermute_b32 v35, v12, v20
  ds_permute_b32 v36, v12, v20
  v_lshlrev_b32 v13, 2, v0
  ds_bpermute_b32 v37, v13, v20 offset:4
  v_mov_b32 v38, 7
  v_mov_b32 v39, 7
  s_mov_b32 exec_hi, 0
  ds_bpermute_b32 v38, v12, v20
  ds_permute_b32 v39, v12, v20
  s_mov_b64 exec, -1
";
        let w = run(cpu, body, &mem, &[pa]);
        let v = &w[0].v;
        let data = |l: usize| 11 + 3 * l as u32;
        let pats = [
            (30, 0x041f),
            (31, 0x801b),
            (32, 0x0078),
            (33, 0x3c1f),
            (34, 0x0907),
        ];
        for l in 0..64 {
            for (reg, off) in pats {
                assert_eq!(
                    v[reg][l],
                    data(swizzle_ref(off, l)),
                    "{cpu} swizzle {off:#x} lane {l}"
                );
            }
            assert_eq!(v[35][l], data(63 - l));
            assert_eq!(v[36][l], data(63 - l));
            assert_eq!(v[37][l], data((l + 1) % 64));
            if l < 32 {
                // Sources 63 - l ≥ 32 are inactive: 0.
                assert_eq!(v[38][l], 0, "{cpu} bpermute partial {l}");
                // Only lanes 0–31 send, to lanes 63–32: nothing arrives here.
                assert_eq!(v[39][l], 0);
            } else {
                assert_eq!([v[38][l], v[39][l]], [7, 7]);
            }
        }
    }
}

#[test]
fn scratch_through_mubuf_flat_and_scratch_instructions() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let pa = buffer(&mem, &[0u8; 4]);
        let mut k = AsmKernel::new(cpu);
        k.private = 64;
        k.group = [128, 1, 1];
        // flat_scratch = private segment base (V# base) + wave offset.
        let body = "
  v_and_b32 v0, 63, v0
  v_add_u32 v1, 100, v0
  v_add_u32 v1, s7, v1
  buffer_store_dword v1, off, s[0:3], s7 offset:8
  buffer_load_dword v2, off, s[0:3], s7 offset:8
  v_mov_b32 v3, 8
  buffer_load_dword v4, v3, s[0:3], s7 offen
  s_and_b32 s13, s1, 0xffff
  s_add_u32 flat_scratch_lo, s0, s7
  s_addc_u32 flat_scratch_hi, s13, 0
  scratch_load_dword v5, v3, off
  v_mov_b32 v6, 12
  v_add_u32 v7, 1, v1
  scratch_store_dword v6, v7, off
  buffer_load_dword v8, off, s[0:3], s7 offset:12
  s_mov_b32 s20, 16
  scratch_store_dwordx2 off, v[2:3], s20 offset:4
  buffer_load_dwordx2 v[10:11], off, s[0:3], s7 offset:20
  s_mov_b32 s11, src_private_base
  v_mov_b32 v12, 20
  v_mov_b32 v13, s11
  flat_load_dword v14, v[12:13]
  v_lshlrev_b32 v15, 2, v0
  v_add_u32 v15, 0x300, v15
  s_add_u32 s14, s0, s7
  s_addc_u32 s15, s13, 0
  global_load_dword v16, v15, s[14:15]
  buffer_store_byte v1, off, s[0:3], s7 offset:33
  scratch_load_ubyte v17, off, s20 offset:17
  scratch_load_dword v18, off, s20 offset:16
";
        let w = run_asm(&k, &format!("{PROLOGUE}{body}"), &mem, &kernarg(&[pa]))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        assert_eq!(w.len(), 2);
        for (i, wave) in w.iter().enumerate() {
            let v = &wave.v;
            let s7 = wave.s[7];
            assert_eq!(s7 as usize, i * 64 * 64, "{cpu}: wave scratch offsets");
            for l in 0..64 {
                let x = 100 + l as u32 + s7;
                assert_eq!(
                    [v[2][l], v[4][l], v[5][l]],
                    [x, x, x],
                    "{cpu} wave {i} lane {l}"
                );
                assert_eq!(v[8][l], x + 1);
                assert_eq!([v[10][l], v[11][l]], [x, 8]);
                assert_eq!(v[14][l], x);
                // Private dword 3 (offset 12) of lane l is at base + 3 · 256 + 4l.
                assert_eq!(v[16][l], x + 1, "{cpu} swizzled layout, lane {l}");
                assert_eq!(v[17][l], x & 0xff);
                assert_eq!(v[18][l], (x & 0xff) << 8);
            }
        }
    }
}

/// A private access past the work-item's private bytes (here 64) faults
/// through each path: MUBUF with the private segment buffer, SCRATCH, and
/// FLAT through the private aperture. In bounds, the last dword works.
#[test]
fn private_accesses_past_the_private_segment_fault() {
    let setup = "
  s_and_b32 s13, s1, 0xffff
  s_add_u32 flat_scratch_lo, s0, s7
  s_addc_u32 flat_scratch_hi, s13, 0
  s_mov_b32 s11, src_private_base
  v_mov_b32 v1, 7
  v_mov_b32 v6, 0
";
    let cases = [
        ("buffer_store_dword v1, off, s[0:3], s7 offset:60", None),
        (
            "buffer_store_dword v1, off, s[0:3], s7 offset:64",
            Some("0x40"),
        ),
        ("scratch_store_dword v6, v1, off offset:60", None),
        ("scratch_store_dword v6, v1, off offset:64", Some("0x40")),
        (
            "scratch_load_dwordx2 v[2:3], v6, off offset:60",
            Some("0x40"),
        ),
        (
            "v_mov_b32 v2, 0x100\n  v_mov_b32 v3, s11\n  flat_load_dword v4, v[2:3]",
            Some("0x100"),
        ),
    ];
    for cpu in CPUS {
        for (inst, fault) in cases {
            let mem = Arc::new(Memory::new());
            let pa = buffer(&mem, &[0u8; 4]);
            let mut k = AsmKernel::new(cpu);
            k.private = 64;
            k.group = [128, 1, 1];
            let body = format!("{PROLOGUE}{setup}  {inst}\n");
            let r = run_asm(&k, &body, &mem, &kernarg(&[pa]));
            match fault {
                None => assert!(r.is_ok(), "{cpu}: `{inst}`: {:?}", r.err()),
                Some(offset) => {
                    let e = r
                        .err()
                        .unwrap_or_else(|| panic!("{cpu}: `{inst}` did not fault"));
                    assert!(
                        e.contains("private memory fault")
                            && e.contains(&format!("private offset {offset}"))
                            && e.contains("64 bytes"),
                        "{cpu}: `{inst}`: {e}"
                    );
                }
            }
        }
    }
}

#[test]
fn flat_accesses_reach_lds_through_the_shared_aperture() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let pa = buffer(&mem, &[0u8; 4]);
        let mut k = AsmKernel::new(cpu);
        k.lds = 1024;
        let body = "
  v_lshlrev_b32 v10, 2, v0
  v_add_u32 v1, 100, v0
  ds_write_b32 v10, v1
  s_mov_b32 s11, src_shared_base
  v_mov_b32 v20, v10
  v_mov_b32 v21, s11
  flat_load_dword v22, v[20:21]
  v_add_u32 v2, 1, v1
  flat_store_dword v[20:21], v2 offset:256
  ds_read_b32 v23, v10 offset:256
  v_mov_b32 v24, 1
  flat_atomic_add v25, v[20:21], v24 glc
  ds_read_b32 v26, v10
";
        let w = run_asm(&k, &format!("{PROLOGUE}{body}"), &mem, &kernarg(&[pa]))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        let v = &w[0].v;
        for l in 0..64 {
            let x = 100 + l as u32;
            assert_eq!(
                [v[22][l], v[23][l], v[25][l], v[26][l]],
                [x, x + 1, x, x + 1],
                "{cpu} {l}"
            );
        }
        let err = run_err(
            &k,
            "  s_mov_b32 s11, src_shared_base\n  v_mov_b32 v20, 1024\n  v_mov_b32 v21, s11\n  flat_load_dword v1, v[20:21]",
            &mem,
            &[pa],
        );
        assert!(err.contains("LDS fault"), "{err}");
    }
}

#[test]
fn raw_and_structured_buffers_are_range_checked() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(256);
        let pa = buffer(&mem, &a);
        let pb = buffer(&mem, &[0u8; 512]);
        // s[16:19]: raw V# over A with 40 bytes; s[20:23]: raw V# over B with
        // 40 bytes; s[24:27]: stride 8, 5 records over A.
        let body = "
  s_mov_b32 s16, s8
  s_and_b32 s17, s9, 0xffff
  s_mov_b32 s18, 40
  s_mov_b32 s19, 0x24000
  s_mov_b32 s20, s10
  s_and_b32 s21, s11, 0xffff
  s_mov_b32 s22, 40
  s_mov_b32 s23, 0x24000
  s_mov_b32 s24, s8
  s_or_b32 s25, s17, 0x80000
  s_mov_b32 s26, 5
  s_mov_b32 s27, 0x24000
  v_lshlrev_b32 v10, 2, v0
  buffer_load_dword v20, v10, s[16:19], 0 offen
  buffer_load_dwordx2 v[22:23], v10, s[16:19], 0 offen
  buffer_load_dword v24, v10, s[16:19], 8 offen
  buffer_load_dword v25, v0, s[24:27], 0 idxen offset:4
  buffer_load_ubyte v26, v0, s[16:19], 0 offen offset:1
  v_mov_b32 v27, 0x77
  buffer_store_dword v27, v10, s[20:23], 0 offen
  buffer_atomic_add v27, v10, s[20:23], 0 offen glc
  s_buffer_load_dwordx2 s[30:31], s[16:19], 0x24
  s_buffer_load_dword s32, s[16:19], 0x8
  s_load_dwordx4 s[36:39], s[8:9], 0x10
  s_mov_b32 s33, 0x20
  s_load_dword s40, s[8:9], s33 offset:0x4
  s_store_dword s40, s[10:11], 0x180
  s_mov_b32 s41, 5
  s_atomic_add s41, s[10:11], 0x180 glc
";
        let w = run(cpu, body, &mem, &[pa, pb]);
        let v = &w[0].v;
        let s = &w[0].s;
        for l in 0..64 {
            let d = |i: usize| u32_at(&a, i);
            assert_eq!(v[20][l], if l < 10 { d(4 * l) } else { 0 }, "{cpu} {l}");
            assert_eq!(v[22][l], if l < 10 { d(4 * l) } else { 0 });
            assert_eq!(v[23][l], if l < 9 { d(4 * l + 4) } else { 0 });
            // soffset 8 counts against num_records: offsets < 32 are in range.
            assert_eq!(v[24][l], if l < 8 { d(4 * l + 8) } else { 0 });
            assert_eq!(
                v[25][l],
                if l < 5 { d(8 * l + 4) } else { 0 },
                "{cpu} idxen {l}"
            );
            assert_eq!(
                v[26][l],
                if l + 1 < 40 { u32::from(a[l + 1]) } else { 0 },
                "{cpu} ubyte {l}"
            );
            assert_eq!(v[27][l], if l < 10 { 0x77 } else { 0 });
        }
        let out = mem.read_vec(pb, 512).unwrap();
        for l in 0..64 {
            assert_eq!(
                u32_at(&out, 4 * l),
                if l < 10 { 0xee } else { 0 },
                "{cpu} store {l}"
            );
        }
        assert_eq!([s[30], s[31], s[32]], [u32_at(&a, 36), 0, u32_at(&a, 8)]);
        assert_eq!(
            [s[36], s[37], s[38], s[39]],
            [16, 20, 24, 28].map(|i| u32_at(&a, i))
        );
        assert_eq!(s[40], u32_at(&a, 0x24));
        assert_eq!(s[41], u32_at(&a, 0x24));
        assert_eq!(u32_at(&out, 0x180), u32_at(&a, 0x24) + 5);
    }
}

#[test]
fn format_buffer_accesses() {
    let mem = Arc::new(Memory::new());
    let a = pattern(256);
    let pa = buffer(&mem, &a);
    let pb = buffer(&mem, &[0u8; 256]);
    // s[16:19]: V# over A, DATA_FORMAT 8_8_8_8 (10), NUM_FORMAT UNORM (0);
    // s[20:23]: V# over B, DATA_FORMAT 16_16 (5), NUM_FORMAT FLOAT (7).
    let body = "
  s_mov_b32 s16, s8
  s_and_b32 s17, s9, 0xffff
  s_mov_b32 s18, 256
  s_mov_b32 s19, 0x50000
  s_mov_b32 s20, s10
  s_and_b32 s21, s11, 0xffff
  s_mov_b32 s22, 256
  s_mov_b32 s23, 0x2f000
  v_lshlrev_b32 v10, 2, v0
  buffer_load_format_xyzw v[20:23], v10, s[16:19], 0 offen
  tbuffer_load_format_xy v[24:25], v10, s[16:19], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UINT] offen
  tbuffer_load_format_x v26, v10, s[16:19], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_SINT] offen
  v_mov_b32 v27, 0x3c00bc00
  buffer_store_format_xy v[27:28], v10, s[20:23], 0 offen
  v_mov_b32 v28, 0x40000000
  v_mov_b32 v29, 0xbf000000
  buffer_store_format_xy v[28:29], v10, s[20:23], 0 offen offset:128
  buffer_load_format_d16_xy v30, v10, s[16:19], 0 offen
";
    // v[27:28] = {x = 0x3c00bc00 as f32 bits, y = v28 (unset)}: only check the
    // second store (f32 → f16) and the loads.
    let w = run("gfx900", body, &mem, &[pa, pb]);
    let v = &w[0].v;
    let out = mem.read_vec(pb, 256).unwrap();
    for l in 0..32 {
        let b = |i: usize| a[4 * l + i];
        for c in 0..4 {
            assert_eq!(
                v[20 + c][l],
                (f32::from(b(c)) / 255.0).to_bits(),
                "unorm lane {l} comp {c}"
            );
        }
        assert_eq!(v[24][l], u32::from(u16::from_le_bytes([b(0), b(1)])));
        assert_eq!(v[25][l], u32::from(u16::from_le_bytes([b(2), b(3)])));
        assert_eq!(v[26][l], b(0) as i8 as u32);
        // 2.0 = f16 0x4000, -0.5 = f16 0xb800.
        assert_eq!(
            u32_at(&out, 128 + 4 * l),
            0xb800_4000,
            "store_format lane {l}"
        );
        // d16 unorm: f16 of b/255, e.g. 0 → 0x0000 and 255 → 0x3c00.
        let h = |x: u8| {
            let f = f32::from(x) / 255.0;
            half_rne(f)
        };
        assert_eq!(
            v[30][l],
            u32::from(h(b(0))) | u32::from(h(b(1))) << 16,
            "d16 lane {l}"
        );
    }
}

/// f32 → f16 bits, round to nearest even, for values in [0, 1] (normal f16
/// range or zero suffices for b/255).
fn half_rne(f: f32) -> u16 {
    if f == 0.0 {
        return 0;
    }
    // Exact via f64: find the f16 neighbours and pick the nearest (even on ties).
    let e = f.log2().floor() as i32;
    let ulp = 2f64.powi(e.max(-14) - 10);
    let q = f64::from(f) / ulp;
    let mut m = q.floor();
    let r = q - m;
    if r > 0.5 || (r == 0.5 && m % 2.0 == 1.0) {
        m += 1.0;
    }
    let value = m * ulp;
    // Encode.
    let e2 = value.log2().floor() as i32;
    if e2 < -14 {
        return (value / 2f64.powi(-24)) as u16;
    }
    let man = ((value / 2f64.powi(e2) - 1.0) * 1024.0).round() as u16;
    (((e2 + 15) as u16) << 10) | man
}

#[test]
fn lds_loads_from_buffers_addtid_and_counters() {
    for cpu in CPUS {
        let mem = Arc::new(Memory::new());
        let a = pattern(256);
        let pa = buffer(&mem, &a);
        let mut k = AsmKernel::new(cpu);
        k.lds = 1024;
        let body = "
  s_mov_b32 s16, s8
  s_and_b32 s17, s9, 0xffff
  s_mov_b32 s18, 256
  s_mov_b32 s19, 0x24000
  v_lshlrev_b32 v10, 2, v0
  s_mov_b32 m0, 0x100
  buffer_load_dword v10, s[16:19], 0 offen lds
  s_waitcnt vmcnt(0)
  ds_read_addtid_b32 v30 offset:4
  ds_read_b32 v31, v10 offset:0x100
  v_add_u32 v20, 7, v0
  ds_write_addtid_b32 v20 offset:0x200
  ds_read_b32 v32, v10 offset:0x300
  s_mov_b32 m0, 0
  s_mov_b32 exec_hi, 0
  ds_append v33 offset:0x40
  s_mov_b64 exec, -1
  ds_append v34 offset:0x40
  ds_consume v35 offset:0x40
  ds_read_b32 v36, v10 offset:0x40
";
        let w = run_asm(&k, &format!("{PROLOGUE}{body}"), &mem, &kernarg(&[pa]))
            .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        let v = &w[0].v;
        for l in 0..64 {
            // LDS[0x100 + 4l] = A[4l]; addtid at m0 0x100 + offset 4 reads lane l + 1's.
            assert_eq!(v[31][l], u32_at(&a, 4 * l), "{cpu} {l}");
            if l < 63 {
                assert_eq!(v[30][l], u32_at(&a, 4 * l + 4));
            }
            assert_eq!(v[32][l], 7 + l as u32);
            if l < 32 {
                assert_eq!(v[33][l], 0);
            }
            assert_eq!([v[34][l], v[35][l]], [32, 96]);
        }
        assert_eq!(v[36][0], 32);
    }
}
