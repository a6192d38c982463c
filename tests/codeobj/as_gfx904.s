// hsakit-as: mcpu=gfx904 — fma-mix (gfx904's names for gfx900's mad-mix opcodes), DPP/SDWA and xnack on gfx904 (code object v5).
.amdgcn_target "amdgcn-amd-amdhsa--gfx904"
.amdhsa_code_object_version 5
.text
.globl k904
.p2align 8
.type k904,@function
k904:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_fma_mix_f32 v1, v2, v3, v4 op_sel_hi:[1,1,1]
  v_fma_mixlo_f16 v5, v1, v2, v3 clamp
  v_fma_mixhi_f16 v5, -v1, |v2|, v3 op_sel:[1,0,1]
  v_pk_fma_f16 v6, v1, v2, v3 op_sel:[1,0,0] neg_lo:[0,1,0]
  v_add_u32_dpp v7, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_sdwa v8, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2
  v_mad_u32_u16 v9, v1, v2, v3 op_sel:[1,0,0,0]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v10, 0
  global_store_dword v10, v1, s[0:1] offset:-16
  s_endpgm
.Lk904_end:
.size k904, .Lk904_end-k904
.rodata
.p2align 6
.amdhsa_kernel k904
  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 11
  .amdhsa_next_free_sgpr 6
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
