// kernel: uniform_char
// grid: 4096
// group: 64
// arg: zeros 20480
// arg: buf i8 256 edge
// arg: i32 -7
// out: 0 exact
// Integer builtins on wave-uniform char values (loaded with a uniform index:
// the compiler uses scalar ALU and scalar memory instructions), written by
// one work-item per group.

#define T char
#define U uchar
#define KERNEL_NAME uniform_char
#include "uniform.inc"
