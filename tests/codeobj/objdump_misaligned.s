// llvm-objdump -d: SGPR tuples encoded at a misaligned register print
// rounded down with a decoder warning (twice for a returning SMEM atomic,
// whose data operand is decoded as result and tied source).
// objdump-targets: gfx900 gfx906
.text
.globl kern
.type kern,@function
kern:
  .long 0xc0484f8b, 0x17798d1a   // s_store_dwordx4 s[60:63] (encoded s62)
  .long 0xc29b55e3, 0xb8d01f5e   // s_atomic_smax_x2 s[86:87] glc (s87)
  .long 0xc028e831, 0xc8245986   // s_buffer_load_dwordx4 with sbase s98
  s_endpgm
