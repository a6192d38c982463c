// kernel: int_builtins_short
// grid: 512
// group: 64
// v4
// arg: zeros 30720
// arg: buf i16 512 edge
// arg: buf i16 512 edge
// arg: buf i16 512 bits
// out: 0 exact
// Integer builtins on short / ushort (edge values: 0, ±1, min, max, powers of two).

#define T short
#define U ushort
#define KERNEL_NAME int_builtins_short
#include "int_builtins.inc"
