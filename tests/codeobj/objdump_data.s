// llvm-objdump -d: data in code. Words that decode to nothing (`.long`),
// runs of zeros (`...`), an STT_OBJECT chunk dumped as hex and ASCII, an
// instruction whose literal runs past the section end, and trailing bytes
// (`.byte`).
// objdump-targets: gfx900 gfx90a gfx942
.text
.globl kern
.type kern,@function
kern:
  s_mov_b32 s0, 0x12345678
  .long 0xffffffff
  .long 0x7d179efa
  s_nop 0
  .long 0, 0, 0, 0, 0
  .byte 0, 0, 0
  .byte 0x80, 0x00, 0x81, 0xbe
  .long 0, 0, 0
  s_endpgm
table:
  .byte 1, 2, 3, 0
  .byte 0, 0, 0, 0, 0, 0, 0, 0, 0
  .type obj,@object
obj:
  .ascii "hsakit objdump test\0"
  .long 0xbf810000
  .byte 0x0f
  .type obj2,@object
obj2:
  .byte 0x41
  .type code_and_data,@function
code_and_data:
  .type code_and_data_obj,@object
code_and_data_obj:
  .byte 0, 0, 0x80, 0xbf
tail:
  .byte 0x05, 0xff, 0x80, 0xbe, 0x11
