// kernel: int_vec_int4
// grid: 256
// group: 64
// arg: zeros 65536
// arg: buf i32 1024 edge
// arg: buf i32 1024 edge
// arg: buf i32 1024 bits
// out: 0 exact
// Integer builtins and operators on int4 vectors.

#define T int4
#define U uint4
#define L(p) vload4(i, p)
__kernel void int_vec_int4(__global T *out, __global const int *a,
                           __global const int *b, __global const int *c) {
  size_t i = get_global_id(0);
  T x = L(a), y = L(b), z = L(c);
  __global T *o = out + i * 16;
  o[0] = as_int4(abs(x)) + as_int4(abs_diff(x, y));
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
  o[11] = convert_int4(x < y) + convert_int4(x >= z) * (T)2;
  o[12] = select(x, y, x > z);
  o[13] = bitselect(x, y, z);
  o[14] = as_int4(max(as_uint4(x), as_uint4(y))) + as_int4(add_sat(as_uint4(x), as_uint4(z)));
  o[15] = ctz(x) + (T)(x.s0 == y.s1);
}
