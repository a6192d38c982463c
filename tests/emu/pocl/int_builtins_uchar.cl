// kernel: int_builtins_uchar
// grid: 512
// group: 64
// v4
// arg: zeros 15360
// arg: buf u8 512 edge
// arg: buf u8 512 edge
// arg: buf u8 512 bits
// out: 0 exact
// Integer builtins on uchar / uchar (edge values: 0, ±1, min, max, powers of two).

#define T uchar
#define U uchar
#define KERNEL_NAME int_builtins_uchar
#include "int_builtins.inc"
