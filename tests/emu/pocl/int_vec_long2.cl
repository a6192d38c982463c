// kernel: int_vec_long2
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i64 512 edge
// arg: buf i64 512 edge
// arg: buf i64 512 bits
// out: 0 exact
// Integer builtins and operators on long2 vectors.

#define T long2
#define U ulong2
#define L(p) vload2(i, p)
__kernel void int_vec_long2(__global T *out, __global const long *a,
                           __global const long *b, __global const long *c) {
  size_t i = get_global_id(0);
  T x = L(a), y = L(b), z = L(c);
  __global T *o = out + i * 16;
  o[0] = as_long2(abs(x)) + as_long2(abs_diff(x, y));
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
  o[11] = convert_long2(x < y) + convert_long2(x >= z) * (T)2;
  o[12] = select(x, y, x > z);
  o[13] = bitselect(x, y, z);
  o[14] = as_long2(max(as_ulong2(x), as_ulong2(y))) + as_long2(add_sat(as_ulong2(x), as_ulong2(z)));
  o[15] = ctz(x) + (T)(x.s0 == y.s1);
}
