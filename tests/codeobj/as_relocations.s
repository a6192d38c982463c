// hsakit-as: object-only mcpu=gfx900 — symbolic literals: @abs32/@rel32 relocations, PC-relative local labels, label differences and LDS variables (.amdgpu_lds).
.text
.globl k
.p2align 8
.type k,@function
k:
BB0:
  s_mov_b32 s0, lds0@abs32@lo
  s_mov_b32 s1, ext@abs32@hi
  v_mov_b32 v0, ext@abs32@lo+8
  s_getpc_b64 s[2:3]
  s_add_u32 s2, s2, ext@rel32@lo+4
  s_addc_u32 s3, s3, ext@rel32@hi+12
  s_add_u32 s4, s4, glob@rel32@lo
  s_mov_b32 s5, ext
  s_mov_b32 s5, ext+4
BB1:
  s_mov_b32 s6, .Lloc
BB2:
  s_add_u32 vcc_lo, vcc_lo, (BB2-BB1)&4294967295
  s_addc_u32 vcc_hi, vcc_hi, (BB2-BB1)>>32
  s_add_u32 vcc_lo, vcc_lo, (BB0-BB1)&4294967295
  s_addc_u32 vcc_hi, vcc_hi, (BB0-BB1)>>32
  v_add_u32 v1, BB2-BB0, v1
.Lloc:
  s_nop 0
.globl glob
glob:
  s_endpgm
.Lk_end:
.size k, .Lk_end-k
.globl lds0
.amdgpu_lds lds0, 192, 16
.globl lds1
.amdgpu_lds lds1, 387, 8
.amdgpu_lds lds2, 12
