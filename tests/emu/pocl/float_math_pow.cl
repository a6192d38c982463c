// kernel: float_math_pow
// grid: 1024
// group: 64
// arg: zeros 65536
// arg: buf f32 1024 uniform(0.01,20)
// arg: buf f32 1024 uniform(-8,8)
// arg: buf i32 1024 range(-12,12)
// out: 0 ulp32 40
// pow family, hypot, erf, gamma (OpenCL: pow 16 ulp, tgamma 16 ulp,
// erf/erfc 16 ulp, hypot 4 ulp; lgamma is unbounded in the spec).

__kernel void float_math_pow(__global float *out, __global const float *a,
                             __global const float *b, __global const int *n) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  int k = n[i];
  __global float *o = out + i * 16;
  o[0] = pow(x, y);
  o[1] = pown(y, k);
  o[2] = powr(x, y);
  o[3] = rootn(x, k == 0 ? 3 : k);
  o[4] = hypot(x, y);
  o[5] = erf(y * 0.5f);
  o[6] = erfc(y * 0.3f);
  o[7] = tgamma(x * 0.5f);
  o[8] = lgamma(x);
  int sg;
  o[9] = lgamma_r(x, &sg) + (float)sg;
  o[10] = rsqrt(x);
  o[11] = pow(y, (float)k);
  o[12] = exp(y) * x;
  o[13] = sqrt(x * x + y * y);
  o[14] = fabs(pow(-x, (float)k));
  o[15] = cbrt(y);
}
