//! The test harness itself: initial state as documented in `testing`.

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};

#[test]
fn snippet_sees_kernarg_ids_and_exec() {
    let mem = Arc::new(Memory::new());
    let mut k = AsmKernel::new("gfx900");
    k.group = [100, 1, 1];
    let waves = run_asm(
        &k,
        "  s_load_dword s10, s[4:5], 0x4\n  s_waitcnt lgkmcnt(0)\n  v_add_u32 v3, s10, v0",
        &mem,
        &[1, 0, 0, 0, 42, 0, 0, 0],
    )
    .unwrap();
    assert_eq!(waves.len(), 2);
    assert_eq!(waves[0].s[10], 42);
    assert_eq!(waves[0].v[3][5], 47);
    assert_eq!(waves[1].v[3][0], 42 + 64);
    assert_eq!(waves[1].exec(), (1u64 << 36) - 1);
    let err = run_asm(&k, "  v_interp_mov_f32 v1, p10, attr0.x", &mem, &[]).unwrap_err();
    assert!(
        err.contains("`v_interp_mov_f32_e32` is not implemented") && err.contains("pc 0x"),
        "{err}"
    );
}

/// gfx942 (architected flat scratch): the kernarg pointer is still in
/// s[4:5], work-item IDs are packed in v0, and scratch instructions reach
/// each work-item's private memory through the FLAT_SCRATCH the dispatch
/// set up, with no private segment buffer or wave offset SGPR.
#[test]
fn gfx942_kernarg_ids_and_flat_scratch() {
    let mem = Arc::new(Memory::new());
    let mut k = AsmKernel::new("gfx942");
    k.group = [128, 1, 1];
    k.private = 32;
    let body = "
  s_load_dword s10, s[4:5], 0x4
  s_waitcnt lgkmcnt(0)
  v_and_b32 v1, 0x3ff, v0
  v_add_u32 v3, s10, v1
  v_mov_b32 v4, 8
  scratch_store_dword v4, v3, off
  v_add_u32 v5, 1, v3
  scratch_store_dword off, v5, off offset:12
  s_waitcnt vmcnt(0)
  scratch_load_dword v6, v4, off
  v_mov_b32 v10, 12
  s_mov_b32 s11, src_private_base
  v_mov_b32 v11, s11
  flat_load_dword v9, v[10:11]
  s_waitcnt vmcnt(0) lgkmcnt(0)
";
    let waves = run_asm(&k, body, &mem, &[1, 0, 0, 0, 42, 0, 0, 0]).unwrap();
    assert_eq!(waves.len(), 2);
    for (i, w) in waves.iter().enumerate() {
        assert_eq!(w.s[10], 42);
        assert_eq!(w.s[6], 0, "work-group ID X in s6");
        for l in 0..64 {
            let x = 42 + (64 * i + l) as u32;
            assert_eq!(w.v[3][l], x, "wave {i} lane {l}: work-item ID");
            assert_eq!(w.v[6][l], x, "wave {i} lane {l}: scratch round trip");
            assert_eq!(w.v[9][l], x + 1, "wave {i} lane {l}: flat private load");
        }
    }
}
