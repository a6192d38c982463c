// hsakit-as: mcpu=gfx942 — cache-policy bits, packed math, MFMA and a loop on gfx942.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.amdhsa_code_object_version 5
.text
.globl k942
.p2align 8
.type k942,@function
k942:
  s_load_dwordx4 s[0:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx2 v[2:3], v1, s[0:1] sc0 sc1
  s_mov_b32 s4, 4
.Lagain:
  v_pk_mul_f32 v[2:3], v[2:3], v[2:3]
  v_pk_add_f32 v[2:3], v[2:3], 1.0 op_sel_hi:[1,0]
  s_add_u32 s4, s4, -1
  s_cmp_lg_u32 s4, 0
  s_cbranch_scc1 .Lagain
  v_mfma_f32_16x16x4_f32 a[0:3], v2, v3, 0
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v4, a0
  s_waitcnt vmcnt(0)
  global_store_dwordx2 v1, v[2:3], s[2:3] nt
  s_endpgm
.Lk942_end:
.size k942, .Lk942_end-k942
.rodata
.p2align 6
.amdhsa_kernel k942
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 5
  .amdhsa_next_free_sgpr 5
  .amdhsa_accum_offset 8
  .amdhsa_enable_private_segment 1
  .amdhsa_uses_dynamic_stack 0
.end_amdhsa_kernel
