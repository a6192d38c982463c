// kernel: double_exact
// grid: 512
// group: 64
// v4
// arg: zeros 98304
// arg: buf f64 512 special
// arg: buf f64 512 special
// arg: buf f64 512 uniform(-1000,1000)
// arg: zeros 8192
// out: 0 f64
// out: 4 exact
// Correctly rounded double operations and exact builtins.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define T double
#define KERNEL_NAME double_exact
#define LDEXP_DIV 5.0
#define TAIL 18
#define EXTRA_PARAMS , __global int *iout
#define EXTRA_ARGS , iout

// The double-only slots and the integer results in iout.
static void more(__global double *o, double x, double y, double z, size_t i,
                 __global int *iout) {
  double ip;
  o[22] = modf(x, &ip) + ip * 0.5;
  int e;
  o[23] = frexp(x, &e);
  iout[i * 4] = e;
  iout[i * 4 + 1] = ilogb(x);
  int quo;
  double r = remquo(x, y, &quo);
  iout[i * 4 + 2] = isnan(r) ? 0 : (quo < 0 ? -((-quo) & 7) : (quo & 7));
  iout[i * 4 + 3] = (int)(x < y) + 2 * isnan(x) + 4 * isinf(y) + 8 * signbit(x) + 16 * isnormal(y);
}

#include "exact.inc"
