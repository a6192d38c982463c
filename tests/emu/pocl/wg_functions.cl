// kernel: wg_functions
// grid: 1024
// group: 256
// arg: zeros 16640
// arg: buf i32 1024 range(-100000,100000)
// arg: buf u32 1024 bits
// arg: buf f32 1024 uniform(-64,64)
// out: 0 exact
// OpenCL 2.0 work-group collective functions: reduce/scan (inclusive and
// exclusive) add/min/max for int, uint and float, broadcast, any/all.
// pocl has no work-group functions: with POCL_REF the kernel computes the
// same values through local memory. Float adds use integral values (exact
// in any order).

#ifdef POCL_REF
#define N 256
#define WG_OP(name, T, store, op, init)                                        \
  T name(T v, __local T *buf) {                                                \
    size_t l = get_local_id(0);                                                \
    buf[l] = v;                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    T acc = init;                                                              \
    for (int k = 0; k < (int)get_local_size(0); k++)                           \
      if (store)                                                               \
        acc = op;                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return acc;                                                                \
  }
#define ADD acc + buf[k]
#define MIN min(acc, buf[k])
#define MAX max(acc, buf[k])
WG_OP(r_add_i, int, 1, ADD, 0)
WG_OP(r_min_i, int, 1, MIN, INT_MAX)
WG_OP(r_max_i, int, 1, MAX, INT_MIN)
WG_OP(r_add_u, uint, 1, ADD, 0)
WG_OP(r_min_u, uint, 1, MIN, UINT_MAX)
WG_OP(r_max_u, uint, 1, MAX, 0)
WG_OP(r_add_f, float, 1, ADD, 0.0f)
WG_OP(r_max_f, float, 1, fmax(acc, buf[k]), -INFINITY)
WG_OP(si_add_i, int, k <= (int)l, ADD, 0)
WG_OP(se_add_i, int, k < (int)l, ADD, 0)
WG_OP(si_min_i, int, k <= (int)l, MIN, INT_MAX)
WG_OP(se_max_i, int, k < (int)l, MAX, INT_MIN)
WG_OP(si_max_u, uint, k <= (int)l, MAX, 0)
WG_OP(se_add_u, uint, k < (int)l, ADD, 0)
WG_OP(si_add_f, float, k <= (int)l, ADD, 0.0f)
WG_OP(se_min_f, float, k < (int)l, fmin(acc, buf[k]), INFINITY)
#endif

__kernel void wg_functions(__global int *out, __global const int *a,
                           __global const uint *b, __global const float *c) {
#ifdef POCL_REF
  __local int bi[N];
  __local uint bu[N];
  __local float bf[N];
#endif
  size_t g = get_global_id(0);
  int x = a[g];
  uint u = b[g];
  float f = floor(c[g]);
  __global int *o = out + g * 4;
  __global int *w = out + 4096 + get_group_id(0) * 16;
#ifndef POCL_REF
  int ra = work_group_reduce_add(x);
  int rmin = work_group_reduce_min(x);
  int rmax = work_group_reduce_max(x);
  uint rua = work_group_reduce_add(u);
  uint rumin = work_group_reduce_min(u);
  uint rumax = work_group_reduce_max(u);
  float rfa = work_group_reduce_add(f);
  float rfm = work_group_reduce_max(f);
  int bc = work_group_broadcast(x, 17);
  int any = work_group_any(x > 99000);
  int all = work_group_all(x > -99990);
  o[0] = work_group_scan_inclusive_add(x) ^ work_group_scan_exclusive_add(x);
  o[1] = work_group_scan_inclusive_min(x) + work_group_scan_exclusive_max(x);
  o[2] = (int)(work_group_scan_inclusive_max(u) - work_group_scan_exclusive_add(u));
  o[3] = (int)work_group_scan_inclusive_add(f) ^ as_int(work_group_scan_exclusive_min(f));
#else
  int ra = r_add_i(x, bi);
  int rmin = r_min_i(x, bi);
  int rmax = r_max_i(x, bi);
  uint rua = r_add_u(u, bu);
  uint rumin = r_min_u(u, bu);
  uint rumax = r_max_u(u, bu);
  float rfa = r_add_f(f, bf);
  float rfm = r_max_f(f, bf);
  bi[get_local_id(0)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  int bc = bi[17];
  int any = 0, all = 1;
  for (int k = 0; k < N; k++) {
    any |= bi[k] > 99000;
    all &= bi[k] > -99990;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  o[0] = si_add_i(x, bi) ^ se_add_i(x, bi);
  o[1] = si_min_i(x, bi) + se_max_i(x, bi);
  o[2] = (int)(si_max_u(u, bu) - se_add_u(u, bu));
  o[3] = (int)si_add_f(f, bf) ^ as_int(se_min_f(f, bf));
#endif
  if (get_local_id(0) == 5) {
    w[0] = ra;
    w[1] = rmin;
    w[2] = rmax;
    w[3] = (int)rua;
    w[4] = (int)rumin;
    w[5] = (int)rumax;
    w[6] = as_int(rfa);
    w[7] = as_int(rfm);
    w[8] = bc;
    w[9] = any != 0;
    w[10] = all != 0;
  }
}
