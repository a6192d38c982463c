// kernel: uniform_int
// grid: 4096
// group: 64
// arg: zeros 20480
// arg: buf i32 256 edge
// arg: i32 -7
// out: 0 exact
// Integer builtins on wave-uniform int values (loaded with a uniform index:
// the compiler uses scalar ALU and scalar memory instructions), written by
// one work-item per group.

#define T int
#define U uint
#define KERNEL_NAME uniform_int
#include "uniform.inc"
