// kernel: calls_noinline
// grid: 1024
// group: 128
// arg: zeros 16384
// arg: buf i32 1024 range(-5000,5000)
// arg: buf f32 1024 uniform(-10,10)
// out: 0 exact
// Non-inlined function calls: many arguments (some spilled to the stack),
// pointer arguments to private, global and local memory, calls in
// divergent control flow, a call chain, vector and double returns.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__attribute__((noinline)) int many(int a, int b, int c, int d, int e, int f,
                                   int g, int h, int i, int j, int k, int l,
                                   long m, long n, float o, double p, int q,
                                   int r, int s, int t, int u, int v, int w,
                                   int x, int y, int z, int aa, int bb,
                                   int cc, int dd, int ee, int ff, int gg,
                                   int hh, int ii, int jj) {
  return a - b + c * d - e + f * g - h + i - j + k * l + (int)(m >> 3) +
         (int)(n & 0xff) + (int)o + (int)(p * 2.0) + q * r - s + t - u + v * w -
         x + y - z + aa * bb - cc + dd - ee + ff * gg - hh + ii - jj;
}

__attribute__((noinline)) void bump(__private int *p, __global int *g,
                                    __local int *l, int v) {
  *p += v;
  g[0] = *p * 2;
  l[get_local_id(0)] = v ^ *p;
}

__attribute__((noinline)) int4 vec(int4 a, float b) {
  return a.wzyx * (int4)((int)b) + (int4)(1, 2, 3, 4);
}

__attribute__((noinline)) double dbl(double x, int n) {
  double r = 1.0;
  for (int k = 0; k < n; k++)
    r = r * x + 1.0;
  return r;
}

__attribute__((noinline)) int level3(int x) { return x * 7 + 1; }
__attribute__((noinline)) int level2(int x) { return level3(x ^ 5) - level3(x); }
__attribute__((noinline)) int level1(int x) { return x > 0 ? level2(x) : level3(-x); }

__kernel void calls_noinline(__global int *out, __global const int *a,
                             __global const float *b) {
  __local int lm[128];
  size_t gi = get_global_id(0);
  int x = a[gi];
  float f = b[gi];
  __global int *o = out + gi * 4;
  o[0] = many(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9,
              x + 10, x + 11, (long)x << 20, (long)x * -3, f, (double)f, x >> 1,
              x >> 2, x >> 3, x >> 4, x >> 5, x >> 6, x >> 7, x & 1, x & 2, x & 3,
              x & 4, x & 5, x & 6, x & 7, x & 8, x & 9, x | 1, x | 2, x | 3, 99);
  lm[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int p = x;
  if (x & 1)
    bump(&p, o + 1, lm, x);
  else
    o[1] = level1(x);
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 v = vec((int4)(x, p, lm[(get_local_id(0) + 1) & 127] * (x & 1), 5), f);
  o[2] = v.x ^ v.y ^ v.z ^ v.w;
  o[3] = (int)(dbl((double)f * 0.125, x & 15) * 1000.0);
}
