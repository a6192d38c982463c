// kernel: int_builtins_ushort
// grid: 512
// group: 64
// v4
// arg: zeros 30720
// arg: buf u16 512 edge
// arg: buf u16 512 edge
// arg: buf u16 512 bits
// out: 0 exact
// Integer builtins on ushort / ushort (edge values: 0, ±1, min, max, powers of two).

#define T ushort
#define U ushort
#define KERNEL_NAME int_builtins_ushort
#include "int_builtins.inc"
