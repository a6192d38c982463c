// kernel: fast_math
// grid: 1024
// group: 64
// flags: -cl-fast-relaxed-math
// arg: zeros 65536
// arg: buf f32 1024 uniform(0.5,4)
// arg: buf f32 1024 uniform(-3,3)
// out: 0 ulp32 16384
// -cl-fast-relaxed-math (also -cl-mad-enable, -cl-unsafe-math-optimizations,
// -cl-finite-math-only): results need only be close; compared with a loose
// tolerance on well-conditioned inputs (finite, no cancellation).

__kernel void fast_math(__global float *out, __global const float *a,
                        __global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global float *o = out + i * 16;
  o[0] = x / (y * y + 1.0f);
  o[1] = sqrt(x);
  o[2] = exp(y);
  o[3] = log(x);
  o[4] = sin(y);
  o[5] = cos(y);
  o[6] = pow(x, y);
  o[7] = x * fabs(y) + x;
  o[8] = rsqrt(x);
  o[9] = 1.0f / x;
  o[10] = exp2(y) + log2(x) * 0.0f;
  o[11] = tan(y * 0.4f);
  o[12] = mad(x, fabs(y), 10.0f);
  o[13] = atan2(y, x);
  o[14] = fmax(x, y) + fmin(x, y);
  o[15] = hypot(x, y);
}
