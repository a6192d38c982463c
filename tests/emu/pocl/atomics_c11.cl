// kernel: atomics_c11
// grid: 1024
// group: 128
// arg: zeros 64
// arg: buf u32 1024 bits
// arg: zeros 512
// out: 0 exact
// out: 2 exact
// OpenCL 2.0 C11-style atomics with memory orders and scopes, on global
// and local memory, with atomic_work_item_fence.

__kernel void atomics_c11(__global atomic_int *g, __global const uint *in,
                          __global int *grp) {
  __local atomic_int l[4];
  size_t lid = get_local_id(0);
  if (lid < 4)
    atomic_init(&l[lid], lid == 1 ? 0x7fffffff : 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  int s = (int)v;
  atomic_fetch_add_explicit(&g[0], s, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&g[1], s >> 4, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_min_explicit(&g[2], s, memory_order_seq_cst, memory_scope_device);
  atomic_fetch_max(&g[3], s);
  atomic_fetch_or_explicit(&g[4], 1 << (v & 31), memory_order_release, memory_scope_device);
  atomic_fetch_and(&g[5], ~(1 << (v >> 27)));
  atomic_fetch_xor_explicit(&g[6], s, memory_order_acquire, memory_scope_device);
  int expected = atomic_load_explicit(&g[7], memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_weak_explicit(&g[7], &expected, expected + 1,
                                                memory_order_acq_rel, memory_order_relaxed,
                                                memory_scope_device))
    ;
  int e2 = atomic_load(&g[8]);
  while (!atomic_compare_exchange_strong(&g[8], &e2, e2 ^ s))
    ;
  atomic_fetch_add_explicit(&l[0], (int)(v & 0xff), memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_min_explicit(&l[1], s, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_or_explicit(&l[2], 1 << (v & 15), memory_order_relaxed, memory_scope_work_group);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    __global int *o = grp + get_group_id(0) * 4;
    o[0] = atomic_load(&l[0]);
    o[1] = atomic_load_explicit(&l[1], memory_order_relaxed, memory_scope_work_group);
    o[2] = atomic_exchange(&l[2], 0);
    o[3] = atomic_load(&l[2]);
    atomic_store_explicit(&g[9], 12345, memory_order_release, memory_scope_device);
  }
}
