// kernel: int_vec_char16
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i8 4096 edge
// arg: buf i8 4096 edge
// arg: buf i8 4096 bits
// out: 0 exact
// Integer builtins and operators on char16 vectors.

#define T char16
#define U uchar16
#define E char
#define L(p) vload16(i, p)
#define KERNEL_NAME int_vec_char16
#include "int_vec.inc"
