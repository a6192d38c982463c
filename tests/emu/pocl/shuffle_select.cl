// kernel: shuffle_select
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf u32 4096 bits
// arg: buf u32 4096 bits
// arg: buf u32 1024 bits
// arg: buf f32 2048 special
// out: 0 exact
// shuffle/shuffle2 with data-dependent masks, select/bitselect on
// integer and float vectors, any/all, vector component swizzles.

__kernel void shuffle_select(__global uint *out, __global const uint *a,
                             __global const uint *b, __global const uint *m,
                             __global const float *f) {
  size_t i = get_global_id(0);
  uint8 x = vload8(2 * i, a), y = vload8(2 * i + 1, a);
  uint4 mk = vload4(i, m);
  uint16 big = vload16(i, b);
  __global uint *o = out + i * 64;
  uint8 m8 = (uint8)(mk, mk >> 8) ;
  vstore8(shuffle(x, m8), 0, o);
  vstore8(shuffle2(x, y, m8 >> 3), 1, o);
  vstore4(shuffle(big, mk), 4, o);
  uchar16 c = as_uchar16(big.s0123);
  uchar16 cm = as_uchar16((uint4)(mk.x, mk.y ^ mk.z, mk.w, mk.x >> 3));
  vstore4(as_uint4(shuffle(c, cm)), 5, o);
  vstore4(as_uint4(shuffle2(c, as_uchar16(x.lo), cm >> (uchar)2)), 6, o);
  int4 s = as_int4(x.lo);
  int4 t = as_int4(y.hi);
  vstore4(as_uint4(select(s, t, s < t)), 7, o);
  vstore4(as_uint4(select(s, t, as_uint4(t))), 8, o);
  vstore4(bitselect(x.lo, y.lo, mk), 9, o);
  float4 fa = vload4(i, f), fb = vload4(i + 256, f);
  vstore4(as_uint4(select(fa, fb, isgreater(fa, fb))), 10, o);
  vstore4(as_uint4(bitselect(fa, fb, as_float4(mk))), 11, o);
  // fmax of +0/-0 may return either zero and NaN payloads are open:
  // canonicalize both.
  float4 mx = fmax(fa, fb) + 0.0f;
  vstore4(select(as_uint4(mx), (uint4)0x7fc00000u, as_uint4(isnan(mx))), 12, o);
  o[52] = any(s < 0) | (all(t < 0) << 1) | (any(as_char16(c)) << 2) |
          (all(as_short8(big.s0123)) << 3) | (any((long2)(s.x, t.y)) << 4);
  o[53] = x.s7 + y.s0 * x.s3;
  uint3 v3 = (uint3)(x.s1, y.s2, mk.w);
  vstore3(v3.zxy, 0, o + 54);
  o[57] = (x.even + y.odd).s2;
  uint2 ex = (uint2)(x.s5, y.s6);
  o[58] = ex.y - ex.x;
  vstore4(as_uint4(select((char16)(1), as_char16(big.s4567), as_char16(c) > (char)0)), 15, o);
  o[59] = as_uint(select(fa.x, fb.y, (int)(mk.x & 1)));
}
