// hsakit-as: mcpu=gfx906 — dot products, mixed precision and DPP/SDWA on gfx906 (code object v4).
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.amdhsa_code_object_version 4
.text
.globl k906
.p2align 8
.type k906,@function
k906:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_dot2_f32_f16 v1, v2, v3, v4
  v_dot4_i32_i8 v5, v6, v7, v8
  v_fma_mix_f32 v9, v1, v2, v3 op_sel_hi:[1,1,1]
  v_fma_mixlo_f16 v10, v1, v2, v3
  v_add_u32_dpp v11, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mov_b32_sdwa v12, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
  v_readlane_b32 s2, v1, 5
  v_writelane_b32 v13, s2, 7
  ds_bpermute_b32 v14, v1, v2
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v15, 0
  global_store_dword v15, v14, s[0:1]
  s_endpgm
.Lk906_end:
.size k906, .Lk906_end-k906
.rodata
.p2align 6
.amdhsa_kernel k906
  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 6
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
