// kernel: atomics_global
// grid: 2048
// group: 128
// v4
// arg: zeros 128
// arg: buf u32 2048 bits
// arg: zeros 8192
// out: 0 exact
// out: 2 exact
// OpenCL 1.x atomics on global memory (32-bit). The final values are
// order-independent; returned old values are only checked where they are
// (atomic_inc's results form a permutation: we histogram them).

__kernel void atomics_global(__global int *g, __global const uint *in,
                             __global uint *seen) {
  size_t i = get_global_id(0);
  uint v = in[i];
  int s = (int)v;
  atomic_add(&g[0], s);
  atomic_sub(&g[1], s >> 3);
  atomic_min(&g[2], s);
  atomic_max(&g[3], s);
  atomic_min((__global uint *)&g[4], v | 1u);
  atomic_max((__global uint *)&g[5], v >> 1);
  atomic_and(&g[6], ~(1 << (v & 31)));
  atomic_or(&g[7], 1 << (v >> 27));
  atomic_xor(&g[8], s);
  uint t = atomic_inc((__global uint *)&g[9]);
  atomic_add(&seen[t], 1u);
  atomic_dec((__global uint *)&g[10]);
  atomic_xchg(&g[11], 5);
  // compare-and-swap loop: add 3 (all lanes contend on one word)
  int old = g[12], prev;
  while ((prev = atomic_cmpxchg(&g[12], old, old + 3)) != old)
    old = prev;
  // float add through cmpxchg on the bit pattern (exact: small integers)
  __global volatile uint *fp = (__global volatile uint *)&g[13];
  uint ob = *fp, pb;
  while ((pb = atomic_cmpxchg(fp, ob, as_uint(as_float(ob) + (float)(v & 15)))) != ob)
    ob = pb;
  atom_add(&g[14], 2);
  atomic_inc(&g[16 + (v & 15)]);
  if (i == 0) {
    atomic_xchg((__global float *)&g[15], 2.5f);
  }
}
