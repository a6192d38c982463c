// hsakit-as: object-only — local symbols, .set, data directives, visibility and
// section attributes that the linked-object writer does not lay out.
.set N, 3
.equ M, N*4+1
.text
helper:
  s_nop N
  s_setpc_b64 s[30:31]
.globl k
.p2align 6
.type k,@function
k:
  s_mov_b32 s0, M
loop2:
  s_cbranch_scc0 loop2
  s_endpgm
.Lk_end:
.size k, .Lk_end-k
.data
.byte 1, 2, 0xff
.short -1
.long 0x12345678, .Lk_end-k
.quad 1<<40
.fill 3, 2, 0x1234
.zero 5
.p2align 3
.rodata
.byte 7
.protected k2
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.hidden k2
.amdhsa_kernel k2
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.protected k.kd
.section .AMDGPU.foo
.long 5
