// Global and LDS atomics: histogram, min/max, compare-and-swap counter.
__kernel void atomics(__global uint *hist, __global int *minmax, __global uint *cas,
                      __global const uint *in) {
  __local uint lh[16];
  size_t l = get_local_id(0);
  if (l < 16) lh[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&lh[v & 15]);
  atomic_min(&minmax[0], (int)v - 1000);
  atomic_max(&minmax[1], (int)v - 1000);
  uint old = cas[0];
  while (true) {
    uint seen = atomic_cmpxchg(&cas[0], old, old + (v & 7));
    if (seen == old) break;
    old = seen;
  }
  atomic_xor(&cas[1], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&hist[l], lh[l]);
}
