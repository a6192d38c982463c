// hsakit-as: mcpu=gfx9-generic — the GFX9 common subset (no mix instructions) in a code object v6 with the generic version in e_flags.
.amdgcn_target "amdgcn-amd-amdhsa--gfx9-generic"
.amdhsa_code_object_version 6
.text
.globl kgen
.p2align 8
.type kgen,@function
kgen:
  s_load_dwordx4 s[0:3], s[4:5], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_pk_add_f16 v2, v0, v1 op_sel_hi:[0,1]
  v_mad_u32_u24 v3, v0, 4, v1
  v_add_f32_sdwa v4, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1
  v_mov_b32_dpp v5, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  s_waitcnt lgkmcnt(0)
  global_load_dword v6, v1, s[0:1]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v6, s[2:3]
  s_endpgm
.Lkgen_end:
.size kgen, .Lkgen_end-kgen
.rodata
.p2align 6
.amdhsa_kernel kgen
  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 7
  .amdhsa_next_free_sgpr 8
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
