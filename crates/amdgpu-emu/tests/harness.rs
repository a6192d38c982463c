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
