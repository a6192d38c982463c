// kernel: int_vec_short8
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i16 2048 edge
// arg: buf i16 2048 edge
// arg: buf i16 2048 bits
// out: 0 exact
// Integer builtins and operators on short8 vectors.

#define T short8
#define U ushort8
#define E short
#define L(p) vload8(i, p)
#define KERNEL_NAME int_vec_short8
#include "int_vec.inc"
