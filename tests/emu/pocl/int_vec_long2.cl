// kernel: int_vec_long2
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i64 512 edge
// arg: buf i64 512 edge
// arg: buf i64 512 bits
// out: 0 exact
// Integer builtins and operators on long2 vectors.

#define T long2
#define U ulong2
#define E long
#define L(p) vload2(i, p)
#define KERNEL_NAME int_vec_long2
#include "int_vec.inc"
