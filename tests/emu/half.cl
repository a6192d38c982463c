// Half precision, scalar and packed (half2).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_math(__global half *out, __global const half *a, __global const half *b) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x * y;
  half2 p = (half2)(x, y) * (half2)(y, x) + (half2)(x, x);
  out[4 * i + 2] = p.x;
  out[4 * i + 3] = p.y;
}
