// llvm-objdump -d: branch targets, symbolized labels, several symbols at one
// address, chunks per symbol, and a second executable section.
// objdump-targets: gfx900 gfx904 gfx906 gfx90a gfx942 gfx9-generic
.text
.globl kern
.p2align 8
.type kern,@function
kern:
alias_of_kern:
  s_mov_b32 s0, 0
loop:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 0x100
  s_cbranch_scc1 loop
  s_cbranch_execz done
  s_cbranch_vccz .Lfar
  s_cbranch_vccnz .Llocal
  s_branch .Llocal
.Llocal:
  s_cbranch_execnz .Llocal
  s_cbranch_scc0 alias_of_kern
  s_getpc_b64 s[4:5]
  s_call_b64 s[30:31], helper
  s_call_b64 s[30:31], .Lfar
  s_cbranch_i_fork s[2:3], loop
  s_nop 7
  s_branch 0x7fff
  s_branch 0x8000
  s_cbranch_cdbgsys .Llocal
  s_cbranch_cdbguser 3
.Lfar:
  s_nop 0
done:
  s_endpgm
.Lkern_end:
.size kern, .Lkern_end-kern

.p2align 6
.type helper,@function
helper:
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_setpc_b64 s[30:31]
.size helper, .-helper

.section .text.other,"ax",@progbits
.p2align 2
other:
  s_branch other
  s_branch .Lother_next
.Lother_next:
  s_endpgm
