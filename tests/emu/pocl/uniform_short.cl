// kernel: uniform_short
// grid: 4096
// group: 64
// arg: zeros 20480
// arg: buf i16 256 edge
// arg: i32 -7
// out: 0 exact
// Integer builtins on wave-uniform short values (loaded with a uniform index:
// the compiler uses scalar ALU and scalar memory instructions), written by
// one work-item per group.

#define T short
#define U ushort
#define KERNEL_NAME uniform_short
#include "uniform.inc"
