// kernel: native_half_math
// grid: 1024
// group: 64
// arg: zeros 65536
// arg: buf f32 1024 uniform(0.5,8)
// arg: buf f32 1024 uniform(-3,3)
// out: 0 ulp32 8192
// native_* (implementation-defined accuracy) and half_* (8192 ulp)
// builtins on well-conditioned inputs, compared with the half_ tolerance.

__kernel void native_half_math(__global float *out, __global const float *a,
                               __global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global float *o = out + i * 16;
  o[0] = native_sqrt(x);
  o[1] = native_rsqrt(x);
  o[2] = native_recip(x);
  o[3] = native_divide(y, x);
  o[4] = native_exp(y);
  o[5] = native_log(x);
  o[6] = native_sin(y);
  o[7] = native_cos(y);
  o[8] = native_exp2(y) + native_log2(x) + native_exp10(y * 0.3f) + native_log10(x);
  o[9] = half_sqrt(x);
  o[10] = half_rsqrt(x) + half_recip(x);
  o[11] = half_exp(y) + half_log(x);
  o[12] = half_sin(y) * half_cos(y) + 2.0f;
  o[13] = half_divide(y, x);
  o[14] = half_powr(x, y);
  // native_tan is left out: clang-19 with ROCm device libs scales the
  // argument by 1/(2 pi) twice (v_mul_f32 0.15915494 twice before
  // v_sin_f32/v_cos_f32), so native_tan(0.8f) is 0.128 on the GPU.
  o[15] = native_powr(x, y) + 4.0f;
}
