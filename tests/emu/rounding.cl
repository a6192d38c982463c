// Rounding-mode and denormal sensitive conversions and arithmetic.
__kernel void rounding(__global int *oi, __global float *of, __global const float *a) {
  size_t i = get_global_id(0);
  float x = a[i];
  oi[4 * i + 0] = convert_int_rte(x);
  oi[4 * i + 1] = convert_int_rtz(x);
  oi[4 * i + 2] = convert_int_rtp(x);
  oi[4 * i + 3] = convert_int_rtn(x);
  of[4 * i + 0] = x * 1e-30f;
  of[4 * i + 1] = x * 0x1p-140f;
  of[4 * i + 2] = convert_float((int)(x * 1e6f));
  of[4 * i + 3] = fma(x, 0x1p-130f, 0x1p-149f);
}
