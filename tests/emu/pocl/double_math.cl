// kernel: double_math
// grid: 512
// group: 64
// arg: zeros 98304
// arg: buf f64 512 uniform(-10,10)
// arg: buf f64 512 uniform(0.001,100)
// arg: buf f64 512 uniform(-1,1)
// out: 0 ulp64 40
// Double math builtins (OpenCL: 2-16 ulp).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void double_math(__global double *out, __global const double *a,
                          __global const double *b, __global const double *c) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  __global double *o = out + i * 24;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  o[3] = exp(x);
  o[4] = exp2(x);
  o[5] = exp10(x);
  o[6] = expm1(x);
  o[7] = log(y);
  o[8] = log2(y);
  o[9] = log10(y);
  o[10] = log1p(y);
  o[11] = pow(y, x);
  o[12] = atan2(x, y);
  o[13] = asin(z);
  o[14] = acos(z);
  o[15] = atan(x);
  o[16] = sinh(x);
  o[17] = cosh(x);
  o[18] = tanh(x);
  o[19] = cbrt(x);
  o[20] = hypot(x, y);
  o[21] = erf(x);
  o[22] = tgamma(y * 0.1 + 0.5);
  o[23] = rsqrt(y) + pown(x, 5) + rootn(y, 3);
}
