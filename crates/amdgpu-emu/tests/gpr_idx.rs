//! GPR indexing mode (`s_set_gpr_idx_on`): VGPR operands of vector
//! instructions are offset by M0[7:0] where M0[15:12] enables them.

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};

#[test]
fn vgpr_sources_and_destinations_are_indexed() {
    let body = "
  v_mov_b32 v10, 10
  v_mov_b32 v11, 11
  v_mov_b32 v12, 12
  v_mov_b32 v13, 13
  s_mov_b32 s20, 2
  s_set_gpr_idx_on s20, gpr_idx(SRC0)
  v_mov_b32 v1, v10
  v_add_u32 v2, v10, v11
  s_set_gpr_idx_off
  v_mov_b32 v3, v10
  s_set_gpr_idx_on s20, gpr_idx(DST)
  v_mov_b32 v4, v11
  s_set_gpr_idx_off
  s_mov_b32 s20, 250
  s_set_gpr_idx_on s20, gpr_idx(SRC0,DST)
  v_mov_b32 v7, v10
  s_set_gpr_idx_off";
    for mcpu in ["gfx900", "gfx90a"] {
        let mem = Arc::new(Memory::new());
        let w = &run_asm(&AsmKernel::new(mcpu), body, &mem, &[]).unwrap()[0];
        // Source 0 indexed by 2: v12; source 1 not indexed.
        assert_eq!(w.v[1][0], 12, "{mcpu}");
        assert_eq!(w.v[2][5], 12 + 11, "{mcpu}");
        assert_eq!(w.v[3][0], 10, "{mcpu}");
        // Destination indexed: v4 + 2 = v6 gets 11, v4 keeps its value.
        assert_eq!(w.v[6][63], 11, "{mcpu}");
        assert_eq!(w.v[4][63], 0, "{mcpu}");
        // Index past v255: the read gives 0 and the write is dropped.
        assert_eq!(w.v[7][0], 0, "{mcpu}");
    }
}
