// kernel: int_builtins_char
// grid: 512
// group: 64
// v4
// arg: zeros 15360
// arg: buf i8 512 edge
// arg: buf i8 512 edge
// arg: buf i8 512 bits
// out: 0 exact
// Integer builtins on char / uchar (edge values: 0, ±1, min, max, powers of two).

#define T char
#define U uchar
#define KERNEL_NAME int_builtins_char
#include "int_builtins.inc"
