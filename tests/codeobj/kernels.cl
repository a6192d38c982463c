__kernel void add(__global float *out, __global const float *a, float b, int n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
  if (i < n) out[i] = a[i] + b;
}
__kernel void k2(__global int *p, __local int *l, __constant char *c) {
  int x = __builtin_amdgcn_workitem_id_x();
  l[x] = x; __builtin_amdgcn_s_barrier();
  __constant uint *d = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  p[x] = l[63-x] + __builtin_amdgcn_workitem_id_y() + __builtin_amdgcn_workgroup_id_z() + d[3] + c[x];
}
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void many(__global double *d, __global const int *restrict r, __global volatile uint *v,
          long a, char c, short s, float4 f4, __local float *lds) {
  uint x = __builtin_amdgcn_workitem_id_x();
  uint z = __builtin_amdgcn_workitem_id_z();
  uint g = __builtin_amdgcn_workgroup_id_y();
  __private float tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = r[(x + i) & 63];
  lds[x] = tmp[(a + x) & 31] + f4.w;
  __builtin_amdgcn_s_barrier();
  d[x + z + g] = lds[63 - x] * (double)a + c + s;
  v[x] = *(__constant uint *)__builtin_amdgcn_queue_ptr();
}
