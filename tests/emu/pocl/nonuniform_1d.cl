// kernel: nonuniform_1d
// grid: 1000
// group: 96
// arg: zeros 4000
// arg: zeros 4000
// arg: buf u32 1000 range(0,100000)
// out: 0 exact
// out: 1 exact
// A 1-D non-uniform NDRange (1000 = 10 x 96 + 40) with a local-memory
// group sum, a work-group barrier in the partial group, and atomics.
// See nonuniform_2d.cl for the pocl substitute.

#ifdef REF_NONUNIFORM
#define GS REF_GS0
#define LS min((int)get_local_size(0), REF_GS0 - (int)(get_group_id(0) * get_local_size(0)))
#else
#define GS get_global_size(0)
#define LS get_local_size(0)
#endif

__kernel void nonuniform_1d(__global uint *out, __global uint *cnt,
                            __global const uint *in) {
  __local uint s[96];
  int g = get_global_id(0), l = get_local_id(0);
  int ls = LS;
  if (g < (int)GS)
    s[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g >= (int)GS)
    return;
  uint sum = 0;
  for (int k = 0; k < ls; k++)
    sum += s[k] * (uint)(k + 1);
  out[g] = sum + (uint)ls * 1000000u;
  atomic_inc(&cnt[get_group_id(0)]);
  atomic_add(&cnt[100 + (in[g] & 127)], 1u);
  atomic_max(&cnt[300], (uint)ls);
  atomic_min(&cnt[301] , (uint)(ls ^ 0x80000000u));
}
