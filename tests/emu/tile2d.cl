// Transpose through a 16x16 LDS tile on a 2-D grid.
#define T 16
__kernel void tile2d(__global float *out, __global const float *in, uint w, uint h) {
  __local float tile[T][T + 1];
  uint x = get_global_id(0), y = get_global_id(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
  out[oy * h + ox] = tile[lx][ly];
}
