// Bit manipulation builtins.
__kernel void bits(__global uint *out, __global const uint *in) {
  size_t i = get_global_id(0);
  uint x = in[i], y = in[i ^ 1];
  out[8 * i + 0] = popcount(x);
  out[8 * i + 1] = clz(x);
  out[8 * i + 2] = ctz(x);
  out[8 * i + 3] = rotate(x, y & 31);
  out[8 * i + 4] = bitselect(x, y, 0x0f0f0f0fu);
  out[8 * i + 5] = mul_hi(x, y);
  out[8 * i + 6] = mad24(x & 0xffffff, y & 0xffffff, x);
  out[8 * i + 7] = (x >> (y & 31)) | (uint)((int)y >> 3) | (x << 7);
}
