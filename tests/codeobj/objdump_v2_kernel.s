// llvm-objdump -d: a code object v2 kernel symbol (STT_AMDGPU_HSA_KERNEL,
// the value of STT_GNU_IFUNC) makes LLVM print an error and 256 `.byte`
// lines taken from the start of the section, then disassemble after them.
// objdump-targets: gfx900
.text
pre:
  s_nop 2
.type kk,@gnu_indirect_function
kk:
  .fill 256, 1, 7
  s_nop 0
  s_endpgm
foo:
  s_nop 1
