// kernel: int_vec_uchar16
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf u8 4096 edge
// arg: buf u8 4096 edge
// arg: buf u8 4096 bits
// out: 0 exact
// Integer builtins and operators on uchar16 vectors.

#define T uchar16
#define U uchar16
#define L(p) vload16(i, p)
__kernel void int_vec_uchar16(__global T *out, __global const uchar *a,
                           __global const uchar *b, __global const uchar *c) {
  size_t i = get_global_id(0);
  T x = L(a), y = L(b), z = L(c);
  __global T *o = out + i * 16;
  o[0] = as_uchar16(abs(x)) + as_uchar16(abs_diff(x, y));
  o[1] = add_sat(x, y) ^ sub_sat(x, z);
  o[2] = hadd(x, y) - rhadd(x, z);
  o[3] = clamp(x, min(y, z), max(y, z));
  o[4] = clz(x) + (popcount(y) << 2);
  o[5] = mad_hi(x, y, z);
  o[6] = mad_sat(x, y, z);
  o[7] = mul_hi(x, z) + rotate(x, y);
  o[8] = x * y + z;
  o[9] = x << y;
  o[10] = x >> z;
  o[11] = convert_uchar16(x < y) + convert_uchar16(x >= z) * (T)2;
  o[12] = select(x, y, x > z);
  o[13] = bitselect(x, y, z);
  o[14] = as_uchar16(max(as_uchar16(x), as_uchar16(y))) + as_uchar16(add_sat(as_uchar16(x), as_uchar16(z)));
  o[15] = ctz(x) + (T)(x.s0 == y.s1);
}
