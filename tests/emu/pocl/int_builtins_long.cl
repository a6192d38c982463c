// kernel: int_builtins_long
// grid: 512
// group: 64
// v4
// arg: zeros 122880
// arg: buf i64 512 edge
// arg: buf i64 512 edge
// arg: buf i64 512 bits
// out: 0 exact
// Integer builtins on long / ulong (edge values: 0, ±1, min, max, powers of two).

#define T long
#define U ulong
#define KERNEL_NAME int_builtins_long
#include "int_builtins.inc"
