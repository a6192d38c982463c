// kernel: convert_i2f
// grid: 1024
// group: 64
// v4
// arg: zeros 65536
// arg: zeros 32768
// arg: buf i64 1024 bits
// arg: buf i32 1024 edge
// arg: buf i64 1024 edge
// out: 0 exact
// out: 1 exact
// integer -> float/double conversions with every rounding mode.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void convert_i2f(__global float *of, __global double *od,
                          __global const long *a, __global const int *b,
                          __global const long *c) {
  size_t i = get_global_id(0);
  long x = a[i], z = c[i];
  int y = b[i];
  __global float *o = of + i * 16;
  o[0] = convert_float(x);
  o[1] = convert_float_rte(x);
  o[2] = convert_float_rtz(x);
  o[3] = convert_float_rtp(x);
  o[4] = convert_float_rtn(x);
  o[5] = convert_float((ulong)x);
  o[6] = convert_float_rtz((ulong)x);
  o[7] = convert_float_rtp((ulong)z);
  o[8] = convert_float(y);
  o[9] = convert_float_rtz(y);
  o[10] = convert_float_rtp(y);
  o[11] = convert_float_rtn(y);
  o[12] = convert_float((uint)y);
  o[13] = convert_float_rtz((uint)y);
  o[14] = convert_float_rtn(z);
  o[15] = convert_float((short)y) + convert_float((uchar)y);
  __global double *d = od + i * 4;
  d[0] = convert_double(x);
  d[1] = convert_double_rtz(x);
  d[2] = convert_double_rtp((ulong)z);
  d[3] = convert_double_rtn(z) + convert_double((uint)y);
}
