// One or more instructions of each common encoding family (gfx90a).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.amdhsa_code_object_version 4
.text
.p2align 8
.globl families
.type families,@function
families:
  s_load_dwordx4 s[8:11], s[4:5], 0x10
  s_load_dword s12, s[4:5], 0x20 glc
  s_buffer_load_dword s13, s[8:11], 0x4
  s_mov_b64 s[14:15], exec
  s_not_b32 s16, s17
  s_add_u32 s16, s16, 0x12345678
  s_lshl_b64 s[18:19], s[14:15], 3
  s_and_b32 s20, s16, 0xff
  s_movk_i32 s21, 0x1234
  s_addk_i32 s21, -5
  s_cmp_lg_u64 s[14:15], 0
  s_bitcmp1_b32 s16, 4
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_setprio 2
  s_barrier
  s_getpc_b64 s[22:23]
  v_mov_b32 v1, 1.0
  v_mov_b32 v2, s16
  v_cvt_f32_i32 v3, v1
  v_rcp_f32 v4, v3
  v_add_f32 v5, v1, v2
  v_mul_lo_u32 v6, v1, v2
  v_fma_f32 v7, v1, v2, v3
  v_fma_f32 v7, -v1, |v2|, v3 clamp
  v_mad_u64_u32 v[8:9], s[24:25], v1, v2, v[8:9]
  v_add_co_u32 v10, vcc, v1, v2
  v_addc_co_u32 v11, vcc, v1, v2, vcc
  v_cmp_gt_f32 vcc, v1, v2
  v_cmp_eq_u32_e64 s[26:27], v1, 7
  v_cndmask_b32 v12, v1, v2, vcc
  v_pk_add_f16 v13, v1, v2
  v_pk_fma_f32 v[14:15], v[2:3], v[4:5], v[6:7]
  v_mov_b32_dpp v16, v1 row_shl:1 row_mask:0xf bank_mask:0xf
  v_add_f32_sdwa v17, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
  v_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]
  v_accvgpr_read_b32 v18, a0
  v_accvgpr_write_b32 a4, v18
  ds_write_b32 v1, v2 offset:16
  ds_read_b64 v[20:21], v1 offset:8
  ds_add_u32 v1, v2
  buffer_load_dword v22, v1, s[8:11], 0 offen offset:4
  buffer_store_dword v22, off, s[8:11], s12 offset:12
  global_load_dwordx2 v[24:25], v[20:21], off
  global_atomic_add v1, v2, s[8:9] offset:-16
  flat_load_dword v26, v[20:21] glc
  scratch_store_dword off, v1, s13 offset:8
  s_dcache_wb
  s_endpgm
.Lfamilies_end:
.size families, .Lfamilies_end-families
.rodata
.p2align 6
.amdhsa_kernel families
  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 64
  .amdhsa_private_segment_fixed_size 32
  .amdhsa_system_sgpr_private_segment_wavefront_offset 1
  .amdhsa_next_free_vgpr 27
  .amdhsa_next_free_sgpr 28
  .amdhsa_accum_offset 28
.end_amdhsa_kernel
