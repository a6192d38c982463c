// kernel: subgroups
// grid: 512
// group: 128
// arg: zeros 12288
// arg: buf i32 512 range(-100000,100000)
// arg: buf f32 512 uniform(-100,100)
// out: 0 exact
// cl_khr_subgroups on wave64: sub-group size, ids, reduce/scan add/min/
// max, broadcast, any/all. pocl has no sub-groups: with POCL_REF the
// kernel computes the same values through local memory for 64-wide
// sub-groups of consecutive local ids. Float sums use integral values.

#ifndef POCL_REF
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

__kernel void subgroups(__global int *out, __global const int *a,
                        __global const float *b) {
  int g = get_global_id(0), l = get_local_id(0);
  int x = a[g];
  float f = floor(b[g]);
  __global int *o = out + g * 6;
#ifndef POCL_REF
  o[0] = get_sub_group_size() * 10000 + get_max_sub_group_size() * 100 +
         get_num_sub_groups() * 10 + get_sub_group_id();
  o[1] = get_sub_group_local_id();
  o[2] = sub_group_reduce_add(x) ^ sub_group_reduce_min(x) ^ sub_group_reduce_max(x);
  o[3] = sub_group_scan_inclusive_add(x) + sub_group_scan_exclusive_max(x);
  o[4] = (int)sub_group_reduce_add(f) + (int)sub_group_scan_inclusive_add(f);
  o[5] = sub_group_broadcast(x, 13) + sub_group_any(x > 99000) * 2 + sub_group_all(x > -99999) * 4;
#else
  __local int bx[128];
  __local float bf[128];
  bx[l] = x;
  bf[l] = f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int base = l & ~63, sl = l & 63;
  int nsg = (get_local_size(0) + 63) / 64;
  o[0] = 64 * 10000 + 64 * 100 + nsg * 10 + (l >> 6);
  o[1] = sl;
  int sum = 0, mn = INT_MAX, mx = INT_MIN, inc = 0, exm = INT_MIN, any = 0, all = 1;
  float fs = 0.0f, finc = 0.0f;
  for (int k = 0; k < 64; k++) {
    int v = bx[base + k];
    sum += v;
    mn = min(mn, v);
    mx = max(mx, v);
    if (k <= sl)
      inc += v, finc += bf[base + k];
    if (k < sl)
      exm = max(exm, v);
    fs += bf[base + k];
    any |= v > 99000;
    all &= v > -99999;
  }
  o[2] = sum ^ mn ^ mx;
  o[3] = inc + exm;
  o[4] = (int)fs + (int)finc;
  o[5] = bx[base + 13] + (any != 0) * 2 + (all != 0) * 4;
#endif
}
