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

__kernel void convert_f2i(__global int *o32, __global long *o64,
                          __global const float *a, __global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global int *o = o32 + i * 16;
  o[0] = convert_int_sat(x);
  o[1] = convert_int_sat_rte(x);
  o[2] = convert_int_sat_rtp(x);
  o[3] = convert_int_sat_rtn(x);
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
  __global long *p = o64 + i * 8;
  p[0] = convert_long_sat(x);
  p[1] = convert_long_sat_rte(x);
  p[2] = convert_long_sat_rtp(x);
  p[3] = convert_long_sat_rtn(x);
  p[4] = (long)convert_ulong_sat(x);
  p[5] = (long)convert_ulong_sat_rtp(x);
  p[6] = convert_long_rtn(y * 1e9f);
  p[7] = convert_long_rtp(y * 1e9f) + (long)convert_ulong(fabs(y) * 1e10f);
}
