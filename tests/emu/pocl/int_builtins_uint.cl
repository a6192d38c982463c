// kernel: int_builtins_uint
// grid: 512
// group: 64
// v4
// arg: zeros 61440
// arg: buf u32 512 edge
// arg: buf u32 512 edge
// arg: buf u32 512 bits
// out: 0 exact
// Integer builtins on uint / uint (edge values: 0, ±1, min, max, powers of two).

#define T uint
#define U uint
#define KERNEL_NAME int_builtins_uint
#include "int_builtins.inc"
