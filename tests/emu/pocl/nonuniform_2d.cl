// kernel: nonuniform_2d
// grid: 37,23
// group: 8,8
// arg: zeros 27232
// arg: buf f32 851 uniform(-100,100)
// out: 0 exact
// OpenCL 2.0 non-uniform work-groups: a 37x23 grid of 8x8 groups leaves
// partial groups on the right and bottom edges; get_local_size is the
// partial size there, get_enqueued_local_size stays 8. A 3x3 stencil
// through a local tile with a halo, sized by get_local_size.
// pocl cannot run non-uniform groups: with REF_NONUNIFORM the grid is
// rounded up and the kernel computes the partial sizes itself.

#ifdef REF_NONUNIFORM
#define GSIZE(d) ((d) == 0 ? REF_GS0 : REF_GS1)
#define LSIZE(d)                                                               \
  min((int)get_local_size(d), (int)GSIZE(d) - (int)(get_group_id(d) * get_local_size(d)))
#else
#define GSIZE(d) get_global_size(d)
#define LSIZE(d) get_local_size(d)
#endif

__kernel void nonuniform_2d(__global float *out, __global const float *in) {
  __local float tile[10][10];
  int x = get_global_id(0), y = get_global_id(1);
  int W = GSIZE(0), H = GSIZE(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  int lw = LSIZE(0), lh = LSIZE(1);
  bool live = x < W && y < H;
  if (live) {
    tile[ly + 1][lx + 1] = in[y * W + x];
    if (lx == 0)
      tile[ly + 1][0] = x > 0 ? in[y * W + x - 1] : 0.0f;
    if (lx == lw - 1)
      tile[ly + 1][lw + 1] = x + 1 < W ? in[y * W + x + 1] : 0.0f;
    if (ly == 0)
      tile[0][lx + 1] = y > 0 ? in[(y - 1) * W + x] : 0.0f;
    if (ly == lh - 1)
      tile[lh + 1][lx + 1] = y + 1 < H ? in[(y + 1) * W + x] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!live)
    return;
  float s = tile[ly + 1][lx + 1] * 4.0f - tile[ly][lx + 1] - tile[ly + 2][lx + 1] -
            tile[ly + 1][lx] - tile[ly + 1][lx + 2];
  __global float *o = out + (y * W + x) * 8;
  o[0] = s;
  o[1] = (float)lw;
  o[2] = (float)lh;
  o[3] = (float)(get_group_id(0) * 10 + get_group_id(1));
  o[4] = (float)(get_num_groups(0) * 10 + get_num_groups(1));
  o[5] = (float)(get_enqueued_local_size(0) * 10 + get_enqueued_local_size(1));
  // get_local_linear_id() is not used: ROCm device libs compute it with
  // the enqueued group size (ly * 8 + lx in a partial group), where the
  // spec says get_local_size.
  o[6] = (float)(ly * lw + lx);
#ifdef REF_NONUNIFORM
  o[7] = (float)(y * W + x);
#else
  o[7] = (float)get_global_linear_id();
#endif
}
