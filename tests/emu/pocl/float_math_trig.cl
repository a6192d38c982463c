// kernel: float_math_trig
// grid: 1024
// group: 64
// arg: zeros 98304
// arg: buf f32 1024 uniform(-10,10)
// arg: buf f32 1024 uniform(-1,1)
// arg: buf f32 1024 uniform(-100000,100000)
// out: 0 ulp32 8
// Trigonometric and hyperbolic functions (OpenCL: 4-6 ulp).

__kernel void float_math_trig(__global float *out, __global const float *a,
                              __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  __global float *o = out + i * 24;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  o[3] = asin(y);
  o[4] = acos(y);
  o[5] = atan(x);
  o[6] = atan2(x, y);
  o[7] = sinh(x);
  o[8] = cosh(x);
  o[9] = tanh(x);
  o[10] = sinpi(x);
  o[11] = cospi(x);
  o[12] = tanpi(y * 0.4f);
  o[13] = asinh(x);
  o[14] = acosh(fabs(x) + 1.0f);
  o[15] = atanh(y * 0.99f);
  o[16] = sin(z);
  o[17] = cos(z);
  float c2;
  o[18] = sincos(x * 3.0f, &c2);
  o[19] = c2;
  o[20] = asinpi(y);
  o[21] = acospi(y);
  o[22] = atanpi(x);
  o[23] = atan2pi(y, x);
}
