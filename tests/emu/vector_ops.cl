// saxpy with an explicit fma, integer arithmetic incl. division and remainder.
__kernel void vector_ops(__global float *y, __global const float *x, float a,
                         __global int *q, __global const int *n, __global const int *d) {
  size_t i = get_global_id(0);
  y[i] = fma(a, x[i], y[i]);
  int nn = n[i], dd = d[i];
  q[4 * i + 0] = nn / dd;
  q[4 * i + 1] = nn % dd;
  q[4 * i + 2] = (int)((uint)nn / (uint)dd);
  q[4 * i + 3] = max(nn, dd) - min(nn, dd) + (nn > dd ? 1 : -1) + mul24(nn, dd) + mad_hi(nn, dd, 3);
}
