// kernel: convert_d2i
// grid: 512
// group: 64
// arg: zeros 32768
// arg: zeros 32768
// arg: buf f64 512 finite
// arg: buf f64 512 uniform(-3e9,3e9)
// out: 0 exact
// out: 1 exact
// double -> integer conversions with rounding modes and saturation (no NaN
// inputs: see convert_f2i.cl).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define T double
#define KERNEL_NAME convert_d2i

// The double-only int results.
static void int_rest(__global int *o, double x, double y) {
  o[4] = (int)convert_uint_sat(x);
  o[5] = (int)convert_uint_sat_rte(x);
  o[6] = convert_short_sat(x);
  o[7] = convert_uchar_sat_rtp(x);
  o[8] = convert_int_sat_rte(y);
  o[9] = (int)convert_uint_sat_rtn(y);
  o[10] = convert_int_rte(y * 0.1);
  o[11] = convert_int_rtp(y * 0.1);
  o[12] = convert_int_rtn(y * 0.1);
  o[13] = convert_int(y * 0.1);
  o[14] = (int)convert_uint(fabs(y));
  o[15] = convert_char_sat_rtz(y);
}

// The double-only long results.
static void long_rest(__global long *p, double x, double y) {
  p[5] = convert_long_rte(y * 1e6);
  p[6] = convert_long_rtn(y * 1e6);
  p[7] = (long)convert_ulong_rtp(fabs(y) * 1e6) + convert_long(y);
}

#include "convert_f2i_d2i.inc"
