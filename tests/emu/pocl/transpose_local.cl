// kernel: transpose_local
// grid: 96,16
// group: 32,8
// arg: zeros 24576
// arg: buf u32 6144 bits
// out: 0 exact
// Matrix transpose through a padded 32x33 local tile, each work-item
// moving 4 elements (ulong2 and ushort data mixed).

__kernel void transpose_local(__global uint *out, __global const uint *in) {
  __local uint tile[32][33];
  int W = get_global_size(0), H = get_global_size(1) * 4;
  int bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
  int lx = get_local_id(0), ly = get_local_id(1);
  for (int j = 0; j < 32; j += 8)
    tile[ly + j][lx] = in[(by + ly + j) * W + bx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < 32; j += 8)
    out[(bx + ly + j) * H + by + lx] = tile[lx][ly + j];
}
