// kernel: int_vec_short8
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i16 2048 edge
// arg: buf i16 2048 edge
// arg: buf i16 2048 bits
// out: 0 exact
// Integer builtins and operators on short8 vectors.

#define T short8
#define U ushort8
#define L(p) vload8(i, p)
__kernel void int_vec_short8(__global T *out, __global const short *a,
                           __global const short *b, __global const short *c) {
  size_t i = get_global_id(0);
  T x = L(a), y = L(b), z = L(c);
  __global T *o = out + i * 16;
  o[0] = as_short8(abs(x)) + as_short8(abs_diff(x, y));
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
  o[11] = convert_short8(x < y) + convert_short8(x >= z) * (T)2;
  o[12] = select(x, y, x > z);
  o[13] = bitselect(x, y, z);
  o[14] = as_short8(max(as_ushort8(x), as_ushort8(y))) + as_short8(add_sat(as_ushort8(x), as_ushort8(z)));
  o[15] = ctz(x) + (T)(x.s0 == y.s1);
}
