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
__kernel void double_exact(__global double *out, __global const double *a,
                           __global const double *b, __global const double *c,
                           __global int *iout) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  __global double *o = out + i * 24;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = sqrt(fabs(x));
  o[5] = fma(x, y, z);
  o[6] = fabs(x);
  o[7] = floor(x);
  o[8] = ceil(x);
  o[9] = round(x);
  o[10] = trunc(x);
  o[11] = rint(x);
  o[12] = copysign(x, y);
  o[13] = fmin(x, y);
  o[14] = fmax(x, y);
  o[15] = fdim(x, y);
  o[16] = nextafter(x, y);
  o[17] = ldexp(x, (int)(z / 5.0));
  o[18] = logb(x);
  o[19] = fmod(x, y);
  o[20] = remainder(x, y);
  o[21] = x / z;
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
