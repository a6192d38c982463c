// kernel: denormals_daz
// grid: 1024
// group: 64
// flags: -cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt
// arg: zeros 65536
// arg: buf f32 1024 uniform(-1,1)
// arg: buf f32 1024 special
// out: 0 f32
// As denormals.cl, compiled with -cl-denorms-are-zero: the GPU flushes f32
// denormals, which the spec allows, and pocl may or may not: mode f32daz
// takes a zero and a denormal of the same sign... as equal to any value of
// magnitude below FLT_MIN (see emu_pocl.rs).
// Float arithmetic producing and consuming denormals
// kept by default for OpenCL on gfx9): scaling into the denormal range,
// denormal inputs to + * / sqrt fma, ldexp, conversions, min/max,
// frexp/ilogb of denormals, nextafter around zero.

#define KERNEL_NAME denormals_daz
#include "denormals.inc"
