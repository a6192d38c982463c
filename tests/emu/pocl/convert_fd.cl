// kernel: convert_fd
// grid: 1024
// group: 64
// arg: zeros 32768
// arg: zeros 16384
// arg: buf f64 1024 special
// arg: buf f32 1024 special
// out: 0 f32
// out: 1 f64
// double <-> float conversions with rounding modes (incl. denormal and
// overflowing results), and float <-> half through vstore/vload_half.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void convert_fd(__global float *of, __global double *od,
                         __global const double *a, __global const float *b) {
  size_t i = get_global_id(0);
  double x = a[i];
  float y = b[i];
  __global float *o = of + i * 8;
  o[0] = convert_float(x);
  o[1] = convert_float_rte(x);
  o[2] = convert_float_rtz(x);
  o[3] = convert_float_rtp(x);
  o[4] = convert_float_rtn(x);
  o[5] = (float)(x * 1e-300);
  o[6] = convert_float_rtz(x * 1e300);
  o[7] = (float)((double)y * 3.0);
  __global double *d = od + i * 2;
  d[0] = convert_double(y);
  d[1] = (double)y * (double)y;
}
