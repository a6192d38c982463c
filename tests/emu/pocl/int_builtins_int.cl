// kernel: int_builtins_int
// grid: 512
// group: 64
// v4
// arg: zeros 61440
// arg: buf i32 512 edge
// arg: buf i32 512 edge
// arg: buf i32 512 bits
// out: 0 exact
// Integer builtins on int / uint (edge values: 0, ±1, min, max, powers of two).

#define T int
#define U uint
#define KERNEL_NAME int_builtins_int
#include "int_builtins.inc"
