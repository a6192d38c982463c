// kernel: denormals
// grid: 1024
// group: 64
// flags: -cl-fp32-correctly-rounded-divide-sqrt
// arg: zeros 65536
// arg: buf f32 1024 uniform(-1,1)
// arg: buf f32 1024 special
// out: 0 f32
// Float arithmetic producing and consuming denormals (f32 denormals are
// kept by default for OpenCL on gfx9): scaling into the denormal range,
// denormal inputs to + * / sqrt fma, ldexp, conversions, min/max,
// frexp/ilogb of denormals, nextafter around zero.

#define KERNEL_NAME denormals
#include "denormals.inc"
