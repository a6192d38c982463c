// kernel: int_vec_uchar16
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf u8 4096 edge
// arg: buf u8 4096 edge
// arg: buf u8 4096 bits
// out: 0 exact
// Integer builtins and operators on uchar16 vectors.

#define T uchar16
#define U uchar16
#define E uchar
#define L(p) vload16(i, p)
#define KERNEL_NAME int_vec_uchar16
#include "int_vec.inc"
