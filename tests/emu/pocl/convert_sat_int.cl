// kernel: convert_sat_int
// grid: 512
// group: 64
// v4
// arg: zeros 65536
// arg: buf i64 512 edge
// arg: buf i32 512 edge
// arg: buf u32 512 bits
// out: 0 exact
// Integer <-> integer conversions, plain (truncating) and saturating.

__kernel void convert_sat_int(__global int *out, __global const long *a,
                              __global const int *b, __global const uint *c) {
  size_t i = get_global_id(0);
  long x = a[i];
  int y = b[i];
  uint z = c[i];
  __global int *o = out + i * 32;
  o[0] = convert_uchar_sat(y);
  o[1] = convert_char_sat(y);
  o[2] = convert_ushort_sat(y);
  o[3] = convert_short_sat(y);
  o[4] = (int)convert_uint_sat(y);
  o[5] = convert_int_sat(z);
  o[6] = convert_char_sat(z);
  o[7] = convert_uchar_sat(z);
  o[8] = convert_short_sat(z);
  o[9] = convert_int_sat(x);
  o[10] = (int)convert_uint_sat(x);
  o[11] = convert_short_sat(x);
  o[12] = convert_uchar_sat(x);
  o[13] = convert_char_sat(x);
  long l = convert_long_sat((ulong)x);
  o[14] = (int)l;
  o[15] = (int)(l >> 32);
  ulong u = convert_ulong_sat(x);
  o[16] = (int)u;
  o[17] = (int)(u >> 32);
  ulong u2 = convert_ulong_sat(y);
  o[18] = (int)u2;
  o[19] = (int)(u2 >> 32);
  o[20] = convert_char(y);
  o[21] = convert_uchar(y);
  o[22] = convert_short(x);
  o[23] = convert_ushort(x);
  o[24] = convert_int(x);
  o[25] = (int)convert_ulong(y);
  o[26] = (int)(convert_long(z) >> 8);
  uchar4 v = convert_uchar4_sat((int4)(y, y >> 4, y >> 12, (int)z));
  o[27] = as_int(v);
  char4 w = convert_char4_sat((short4)((short)y, (short)(y >> 8), (short)z, (short)x));
  o[28] = as_int(w);
  ushort2 s = convert_ushort2_sat((long2)(x, (long)y * 3));
  o[29] = as_int(s);
  short2 t = convert_short2_sat((uint2)(z, (uint)y));
  o[30] = as_int(t);
  o[31] = as_int(convert_uchar4_sat((float4)((float)y, (float)z, (float)x, 1.5f)));
}
