// kernel: atomics64
// grid: 1024
// group: 64
// arg: zeros 128
// arg: buf u64 1024 bits
// out: 0 exact
// 64-bit atomics on global memory (cl_khr_int64_base_atomics and
// cl_khr_int64_extended_atomics).

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global long *g, __global const ulong *in) {
  size_t i = get_global_id(0);
  ulong v = in[i];
  long s = (long)v;
  atom_add(&g[0], s);
  atom_sub(&g[1], s >> 5);
  atom_min(&g[2], s);
  atom_max(&g[3], s);
  atom_min((__global ulong *)&g[4], v | 1);
  atom_max((__global ulong *)&g[5], v >> 1);
  atom_and(&g[6], ~(1L << (v & 63)));
  atom_or(&g[7], 1L << (v >> 58));
  atom_xor(&g[8], s);
  atom_inc(&g[9]);
  atom_dec(&g[10]);
  atom_xchg(&g[11], 77L);
  long old = g[12], prev;
  while ((prev = atom_cmpxchg(&g[12], old, old + (s & 0xffff))) != old)
    old = prev;
  atom_add(&g[13 + (v & 1)], (long)(v >> 40));
}
