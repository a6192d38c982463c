// kernel: bitonic_sort
// grid: 1024
// group: 256
// arg: buf i32 2048 bits
// arg: buf f32 2048 special
// out: 0 exact
// out: 1 f32
// Bitonic sort of 512 keys per group in local memory (ints, and floats
// by their total order with NaNs removed first).

__kernel void bitonic_sort(__global int *keys, __global float *fk) {
  __local int t[512];
  __local float f[512];
  int l = get_local_id(0);
  int base = get_group_id(0) * 512;
  t[l] = keys[base + l];
  t[l + 256] = keys[base + l + 256];
  float a = fk[base + l], b = fk[base + l + 256];
  f[l] = isnan(a) ? 1.0f : a;
  f[l + 256] = isnan(b) ? -1.0f : b;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 2; k <= 512; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = l; i < 512; i += 256) {
        int ixj = i ^ j;
        if (ixj > i) {
          bool up = (i & k) == 0;
          int x = t[i], y = t[ixj];
          if ((x > y) == up) {
            t[i] = y;
            t[ixj] = x;
          }
          float p = f[i], q = f[ixj];
          if ((p > q || (p == q && signbit(q) && !signbit(p))) == up) {
            f[i] = q;
            f[ixj] = p;
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  keys[base + l] = t[l];
  keys[base + l + 256] = t[l + 256];
  fk[base + l] = f[l];
  fk[base + l + 256] = f[l + 256];
}
