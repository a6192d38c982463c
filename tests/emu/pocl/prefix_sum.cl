// kernel: prefix_sum
// grid: 2048
// group: 256
// arg: zeros 8192
// arg: buf u32 2048 range(0,1000)
// arg: zeros 32
// out: 0 exact
// out: 2 exact
// Blelloch work-efficient exclusive scan of each group's 512 elements
// (two per work-item) in local memory, with the group totals.

__kernel void prefix_sum(__global uint *out, __global const uint *in,
                         __global uint *sums) {
  __local uint t[512];
  int l = get_local_id(0), n = 512;
  int base = get_group_id(0) * 512;
  if (base >= (int)get_global_size(0)) {
    return;
  }
  t[2 * l] = in[base + 2 * l];
  t[2 * l + 1] = in[base + 2 * l + 1];
  int off = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      t[bi] += t[ai];
    }
    off *= 2;
  }
  if (l == 0) {
    sums[get_group_id(0)] = t[n - 1];
    t[n - 1] = 0;
  }
  for (int d = 1; d < n; d *= 2) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      uint x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = t[2 * l];
  out[base + 2 * l + 1] = t[2 * l + 1];
}
