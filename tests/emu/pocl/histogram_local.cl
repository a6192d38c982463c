// kernel: histogram_local
// grid: 4096
// group: 128
// arg: zeros 1024
// arg: buf u8 4096 bits
// arg: local 1024
// out: 0 exact
// 256-bin byte histogram: per-group local histogram (atomic_inc on local
// memory), then merged into the global one with atomic_add.

__kernel void histogram_local(__global uint *hist, __global const uchar *data,
                              __local uint *lh) {
  int l = get_local_id(0);
  for (int k = l; k < 256; k += get_local_size(0))
    lh[k] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&lh[data[get_global_id(0)]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = l; k < 256; k += get_local_size(0))
    if (lh[k])
      atomic_add(&hist[k], lh[k]);
}
