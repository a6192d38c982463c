// Loops and forward/backward branches of every SOPP kind (hsakit as vs llvm-mc-19).
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl loops
.type loops,@function
loops:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_mov_b32 s2, 16                      ; loop counter
  v_mov_b32 v1, 0
.Lloop:                                 // back edge target
  v_add_u32 v1, v1, v0
  s_sub_u32 s2, s2, 1
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Lloop
  s_cbranch_scc1 .Ldone
  s_cbranch_vccz .Ldone
  s_cbranch_vccnz .Lloop
  s_cbranch_execz .Ldone
  s_cbranch_execnz .Lloop
  s_branch .Ldone
  s_nop 7
.Ldone: s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, 0
  global_store_dword v2, v1, s[0:1]
  s_branch 0
  s_cbranch_scc0 -2
  // Not branches to labels: their operands are registers.
  s_cbranch_join s4
  s_cbranch_g_fork s[2:3], exec
  s_endpgm
.Lloops_end:
.size loops, .Lloops_end-loops
.rodata
.p2align 6
.amdhsa_kernel loops
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 6
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
