// kernel: int_builtins_ulong
// grid: 512
// group: 64
// v4
// arg: zeros 122880
// arg: buf u64 512 edge
// arg: buf u64 512 edge
// arg: buf u64 512 bits
// out: 0 exact
// Integer builtins on ulong / ulong (edge values: 0, ±1, min, max, powers of two).

#define T ulong
#define U ulong
#define KERNEL_NAME int_builtins_ulong
#include "int_builtins.inc"
