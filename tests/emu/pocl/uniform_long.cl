// kernel: uniform_long
// grid: 4096
// group: 64
// arg: zeros 20480
// arg: buf i64 256 edge
// arg: i32 -7
// out: 0 exact
// Integer builtins on wave-uniform long values (loaded with a uniform index:
// the compiler uses scalar ALU and scalar memory instructions), written by
// one work-item per group.

#define T long
#define U ulong
#define KERNEL_NAME uniform_long
#include "uniform.inc"
