// kernel: fp_atomics
// grid: 1024
// group: 128
// clang-flags: -munsafe-fp-atomics
// arg: zeros 64
// arg: buf f32 1024 range(-50,50)
// arg: buf f64 1024 range(-1000,1000)
// arg: zeros 256
// out: 0 f64
// out: 3 exact
// Floating-point atomic add/min/max on global and local memory (with
// -munsafe-fp-atomics clang uses the hardware float atomics: ds_add_f32,
// global_atomic_add_f32/f64, global_atomic_min/max_f64 on gfx90a).
// Integral values keep the sums exact in any order. pocl has no float
// atomics: with POCL_REF they are compare-and-swap loops.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#ifndef POCL_REF
// clang builtins: opencl-c.h declares the float overloads only with the
// cl_ext_float_atomics feature macros
#define GADD_F(p, v) __opencl_atomic_fetch_add((volatile __global atomic_float *)(p), v, memory_order_relaxed, memory_scope_device)
#define LADD_F(p, v) __opencl_atomic_fetch_add((volatile __local atomic_float *)(p), v, memory_order_relaxed, memory_scope_work_group)
#define GADD_D(p, v) __opencl_atomic_fetch_add((volatile __global atomic_double *)(p), v, memory_order_relaxed, memory_scope_device)
#define GMIN_D(p, v) __opencl_atomic_fetch_min((volatile __global atomic_double *)(p), v, memory_order_relaxed, memory_scope_device)
#define GMAX_D(p, v) __opencl_atomic_fetch_max((volatile __global atomic_double *)(p), v, memory_order_relaxed, memory_scope_device)
#define GMAX_F(p, v) __opencl_atomic_fetch_max((volatile __global atomic_float *)(p), v, memory_order_relaxed, memory_scope_device)
#else
float gadd_f(volatile __global float *p, float v) {
  uint o = as_uint(*p), n;
  while ((n = atomic_cmpxchg((volatile __global uint *)p, o, as_uint(as_float(o) + v))) != o) o = n;
  return as_float(o);
}
float ladd_f(volatile __local float *p, float v) {
  uint o = as_uint(*p), n;
  while ((n = atomic_cmpxchg((volatile __local uint *)p, o, as_uint(as_float(o) + v))) != o) o = n;
  return as_float(o);
}
float gmax_f(volatile __global float *p, float v) {
  uint o = as_uint(*p), n;
  while ((n = atomic_cmpxchg((volatile __global uint *)p, o, as_uint(fmax(as_float(o), v)))) != o) o = n;
  return as_float(o);
}
#define DOP(name, expr)                                                        \
  double name(volatile __global double *p, double v) {                        \
    ulong o = as_ulong(*p), n;                                                 \
    while ((n = atom_cmpxchg((volatile __global ulong *)p, o,                  \
                             as_ulong(expr))) != o)                            \
      o = n;                                                                   \
    return as_double(o);                                                       \
  }
DOP(gadd_d, as_double(o) + v)
DOP(gmin_d, fmin(as_double(o), v))
DOP(gmax_d, fmax(as_double(o), v))
#define GADD_F gadd_f
#define LADD_F ladd_f
#define GADD_D gadd_d
#define GMIN_D gmin_d
#define GMAX_D gmax_d
#define GMAX_F gmax_f
#endif

__kernel void fp_atomics(__global double *g, __global const float *a,
                         __global const double *b, __global float *grp) {
  __local float lsum[2];
  int l = get_local_id(0);
  if (l < 2)
    lsum[l] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float x = a[get_global_id(0)];
  double y = b[get_global_id(0)];
  GADD_F((__global float *)&g[0], x);
  GADD_D(&g[1], y);
  GMIN_D(&g[2], y);
  GMAX_D(&g[3], y);
  GMAX_F((__global float *)&g[4], x);
  LADD_F(&lsum[0], x);
  LADD_F(&lsum[1], 0.5f);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    grp[get_group_id(0) * 2] = lsum[0];
    grp[get_group_id(0) * 2 + 1] = lsum[1];
  }
}
