// kernel: mul24_misc
// grid: 512
// group: 64
// arg: zeros 32768
// arg: buf i32 512 range(-8388608,8388607)
// arg: buf i32 512 range(-8388608,8388607)
// arg: buf u64 512 bits
// out: 0 exact
// mul24/mad24 (24-bit operands), upsample, 64-bit mul_hi/rotate/clz/
// popcount/ctz, bit tricks, integer division by constants.

__kernel void mul24_misc(__global uint *out, __global const int *a,
                         __global const int *b, __global const ulong *c) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  ulong u = c[i];
  long s = (long)u;
  __global uint *o = out + i * 16;
  o[0] = mul24(x, y);
  o[1] = mad24(x, y, 12345);
  o[2] = mul24((uint)x & 0xffffff, (uint)y & 0xffffff);
  o[3] = mad24((uint)x & 0xffffff, (uint)y & 0xffffff, (uint)x);
  ulong up = upsample((uint)x, (uint)y);
  o[4] = (uint)(up >> 16);
  o[5] = upsample((ushort)x, (ushort)y);
  o[6] = upsample((char)x, (uchar)y);
  long m = mul_hi(s, (long)x * 77777);
  o[7] = (uint)m ^ (uint)(m >> 32);
  ulong mu = mul_hi(u, (ulong)u * 3);
  o[8] = (uint)mu ^ (uint)(mu >> 32);
  o[9] = (uint)clz(u) | (uint)popcount(u) << 8 | (uint)ctz(u) << 16;
  ulong r = rotate(u, (ulong)x);
  o[10] = (uint)r ^ (uint)(r >> 32);
  o[11] = x / 7 + x / -3 + x % 11;
  o[12] = (uint)(s / 1000003) ^ (uint)(u % 65537);
  o[13] = (uint)(u / 10) ^ (uint)((u >> 5) % 12345);
  o[14] = (uint)(s >> (x & 63)) ^ (uint)(u << (y & 63) >> 32);
  long sq = mad_sat(s, (long)x, (long)y);
  o[15] = (uint)sq ^ (uint)(sq >> 32) ^ (uint)add_sat(s, s) ^ (uint)(sub_sat(s, (long)y) >> 32);
}
