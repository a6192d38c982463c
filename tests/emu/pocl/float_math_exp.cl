// kernel: float_math_exp
// grid: 1024
// group: 64
// arg: zeros 65536
// arg: buf f32 1024 uniform(-90,90)
// arg: buf f32 1024 uniform(0.001,1000)
// arg: buf f32 1024 special
// out: 0 ulp32 8
// Exponentials and logarithms (OpenCL: exp/exp2/exp10/expm1 3 ulp,
// log/log2/log10/log1p 2-4 ulp; two implementations may differ by the
// sum of their errors).

__kernel void float_math_exp(__global float *out, __global const float *a,
                             __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], s = c[i];
  __global float *o = out + i * 16;
  o[0] = exp(x);
  o[1] = exp2(x);
  o[2] = exp10(x * 0.4f);
  o[3] = expm1(x);
  o[4] = log(y);
  o[5] = log2(y);
  o[6] = log10(y);
  o[7] = log1p(y);
  o[8] = exp(s);
  o[9] = log(s);
  o[10] = log2(s);
  o[11] = expm1(x * 0.001f);
  o[12] = log1p(x * 0.0001f);
  o[13] = exp2(s);
  o[14] = cbrt(s);
  o[15] = cbrt(x);
}
