// kernel: convert_f2i
// grid: 1024
// group: 64
// v4
// arg: zeros 65536
// arg: zeros 65536
// arg: buf f32 1024 finite
// arg: buf f32 1024 uniform(-70000,70000)
// out: 0 exact
// out: 1 exact
// float -> integer conversions with every rounding mode and saturation.
// Without _sat, out-of-range and NaN inputs are undefined: those use the
// in-range input b only. NaN inputs are left out of the _sat conversions:
// ROCm device libs implement convert_int_sat(float) as
// fptosi(minnum(maxnum(x, INT_MIN), INT_MAX)), which gives INT_MIN for
// NaN on AMD GPUs (the spec wants 0; pocl gives 0).

#define T float
#define KERNEL_NAME convert_f2i

// The float-only int results.
static void int_rest(__global int *o, float x, float y) {
  o[4] = convert_int_sat_rtz(x);
  o[5] = (int)convert_uint_sat(x);
  o[6] = (int)convert_uint_sat_rtp(x);
  o[7] = convert_short_sat_rte(x);
  o[8] = convert_char_sat_rtn(x);
  o[9] = convert_uchar_sat_rtp(x);
  o[10] = convert_ushort_sat(x);
  o[11] = convert_int_rte(y);
  o[12] = convert_int_rtp(y);
  o[13] = convert_int_rtn(y);
  o[14] = convert_int(y) + (int)convert_short_rtp(y * 0.1f);
  o[15] = (int)convert_uint_rtn(fabs(y)) + convert_char_rte(y / 1000.0f);
}

// The float-only long results.
static void long_rest(__global long *p, float x, float y) {
  p[5] = (long)convert_ulong_sat_rtp(x);
  p[6] = convert_long_rtn(y * 1e9f);
  p[7] = convert_long_rtp(y * 1e9f) + (long)convert_ulong(fabs(y) * 1e10f);
}

#include "convert_f2i_d2i.inc"
