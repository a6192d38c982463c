// kernel: atomics_local
// grid: 1024
// group: 256
// arg: zeros 8192
// arg: buf u32 1024 bits
// arg: local 256
// out: 0 exact
// Atomics on local memory, a per-group histogram, and the group results
// flushed to global memory.

__kernel void atomics_local(__global uint *out, __global const uint *in,
                            __local uint *hist) {
  __local int acc[16];
  size_t l = get_local_id(0);
  if (l < 64)
    hist[l] = 0;
  if (l < 16)
    acc[l] = l == 2 ? 0x7fffffff : (l == 3 ? (int)0x80000000 : (l == 6 ? -1 : 0));
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  int s = (int)v;
  atomic_inc(&hist[v & 63]);
  atomic_add(&acc[0], s);
  atomic_sub(&acc[1], s >> 2);
  atomic_min(&acc[2], s);
  atomic_max(&acc[3], s);
  atomic_min((__local uint *)&acc[4], v);
  atomic_max((__local uint *)&acc[5], v);
  atomic_and(&acc[6], ~(1 << (v & 31)));
  atomic_or(&acc[7], 1 << (v >> 27));
  atomic_xor(&acc[8], s);
  atomic_dec((__local uint *)&acc[9]);
  int old = acc[10], prev;
  while ((prev = atomic_cmpxchg(&acc[10], old, old ^ (int)(v | 1))) != old)
    old = prev;
  atomic_xchg(&acc[11], 9);
  barrier(CLK_LOCAL_MEM_FENCE);
  __global uint *o = out + get_group_id(0) * 128;
  if (l < 64)
    o[l] = hist[l];
  if (l < 12)
    o[64 + l] = (uint)acc[l];
}
