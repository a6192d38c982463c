// kernel: int_vec_int4
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i32 1024 edge
// arg: buf i32 1024 edge
// arg: buf i32 1024 bits
// out: 0 exact
// Integer builtins and operators on int4 vectors.

#define T int4
#define U uint4
#define E int
#define L(p) vload4(i, p)
#define KERNEL_NAME int_vec_int4
#include "int_vec.inc"
