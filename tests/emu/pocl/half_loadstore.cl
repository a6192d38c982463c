// kernel: half_loadstore
// grid: 512
// group: 64
// v4
// arg: zeros 16384
// arg: zeros 32768
// arg: buf f32 2048 special
// arg: buf u16 4200 bits
// arg: buf f64 512 special
// out: 0 f16
// out: 1 f32
// NaN results compare as equal whatever their payload (pocl keeps the
// payload's top bits, the GPU's v_cvt_f16_f32 gives a canonical NaN).
// vstore_half with every rounding mode (float and double sources),
// vstore_halfN/vstorea_halfN, vload_half/vload_halfN/vloada_halfN.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void half_loadstore(__global half *oh, __global float *of,
                         __global const float *a, __global const half *h,
                         __global const double *d) {
  size_t i = get_global_id(0);
  float x = a[i];
  float4 x4 = vload4(i, a);
  __global half *o = oh + i * 16;
  vstore_half(x, 0, o);
  vstore_half_rte(x, 1, o);
  vstore_half_rtz(x, 2, o);
  vstore_half_rtp(x, 3, o);
  vstore_half_rtn(x, 4, o);
  vstore_half(d[i], 5, o);
  vstore_half_rtz(d[i], 6, o);
  vstore_half_rtp(d[i], 7, o);
  vstore_half4_rtn(x4, 2, o);
  vstorea_half2_rtz(x4.zw, 6, o);
  __global float *f = of + i * 16;
  f[0] = vload_half(i, h);
  float4 v = vload_half4(i, h + 3);
  vstore4(v, 1, f);
  float2 w = vloada_half2(i, h);
  f[2] = w.x;
  f[3] = w.y;
  float8 e = vload_half8(i, h);
  vstore8(e, 1, f);
  f[1] = vload_half(0, h + 2 * i + 1) + 1.0f;
}
