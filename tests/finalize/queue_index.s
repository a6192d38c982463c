.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl queue_index
.type queue_index,@function
queue_index:
	s_mov_b64 s[6:7], s[0:1]
	s_mov_b64 s[0:1], s[2:3]
	s_mov_b32 s2, s4
	v_bfe_u32 v1, v0, 0, 10
	s_mov_b64 s[4:5], 0
	s_load_dwordx2 s[8:9], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s8
	v_mov_b32_e32 v3, s9
	s_load_dwordx2 s[0:1], s[0:1], 0x8
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v4, s0
	v_mov_b32_e32 v5, s1
	s_load_dword s0, s[6:7], 0x4
	s_waitcnt lgkmcnt(0)
	v_bfe_u32 v0, s0, 0, 16
	v_mul_lo_u32 v0, s2, v0
	v_add_u32_e64 v0, v0, v1
	v_cmp_ne_u32_e64 vcc, v0, 0
	s_or_b64 s[4:5], s[4:5], vcc
	s_andn2_b64 exec, exec, vcc
	s_cbranch_execz .Lqueue_index_5
	v_mov_b32_e32 v0, 5
	v_mov_b32_e32 v1, 0
	buffer_wbl2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_store_dwordx2 v[2:3], v[0:1] offset:56
	v_mov_b32_e32 v0, 3
	v_mov_b32_e32 v1, 0
	buffer_wbl2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_atomic_add_x2 v[0:1], v[2:3], v[0:1] offset:56 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	buffer_invl2
	buffer_wbinvl1_vol
	global_store_dwordx2 v[4:5], v[0:1], off
	v_mov_b32_e32 v8, 8
	v_mov_b32_e32 v9, 0
	v_mov_b32_e32 v6, 20
	v_mov_b32_e32 v7, 0
	buffer_wbl2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_atomic_cmpswap_x2 v[0:1], v[2:3], v[6:9] offset:56 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	buffer_invl2
	buffer_wbinvl1_vol
	global_store_dwordx2 v[4:5], v[0:1], off offset:8
	v_mov_b32_e32 v8, 8
	v_mov_b32_e32 v9, 0
	v_mov_b32_e32 v6, 0x63
	v_mov_b32_e32 v7, 0
	flat_atomic_cmpswap_x2 v[0:1], v[2:3], v[6:9] offset:56 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dwordx2 v[4:5], v[0:1], off offset:16
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_load_dwordx2 v[0:1], v[2:3] offset:56 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	buffer_invl2
	buffer_wbinvl1_vol
	global_store_dwordx2 v[4:5], v[0:1], off offset:24
	v_mov_b32_e32 v6, 7
	v_mov_b32_e32 v7, 0
	flat_store_dwordx2 v[2:3], v[6:7] offset:128
	flat_load_dwordx2 v[0:1], v[2:3] offset:128 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dwordx2 v[4:5], v[0:1], off offset:32
	s_or_b64 s[4:5], s[4:5], exec
.Lqueue_index_5:
	s_mov_b64 exec, s[4:5]
	s_mov_b64 s[4:5], 0
	s_cbranch_execz .Lqueue_index_7
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v4, 1
	v_mov_b32_e32 v5, 0
	flat_atomic_add_x2 v[0:1], v[2:3], v[4:5] offset:56 glc
	s_endpgm
	s_waitcnt vmcnt(0) lgkmcnt(0)
.Lqueue_index_7:
	s_endpgm
.Lqueue_index_end:
.size queue_index, .Lqueue_index_end-queue_index
.rodata
.p2align 6
.amdhsa_kernel queue_index
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_private_segment_fixed_size 0
  .amdhsa_kernarg_size 16
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 0
  .amdhsa_user_sgpr_flat_scratch_init 0
  .amdhsa_system_sgpr_private_segment_wavefront_offset 0
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 0
  .amdhsa_system_sgpr_workgroup_id_z 0
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_next_free_vgpr 10
  .amdhsa_next_free_sgpr 10
  .amdhsa_accum_offset 12
  .amdhsa_float_round_mode_32 0
  .amdhsa_float_round_mode_16_64 0
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .name:           queue
        .offset:         0
        .size:           8
        .value_kind:     by_value
      - .name:           out
        .offset:         8
        .size:           8
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 1024
    .name:           queue_index
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         queue_index.kd
    .uses_dynamic_stack: false
    .vgpr_count:     10
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
