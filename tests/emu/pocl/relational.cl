// kernel: relational
// grid: 512
// group: 64
// arg: zeros 49152
// arg: buf f32 2048 special
// arg: buf f32 2048 special
// arg: buf f64 1536 special
// out: 0 exact
// Relational builtins (isnan, isinf, isfinite, isnormal, signbit,
// isordered, isunordered, isequal, islessgreater, ...) and comparison
// operators on float4 and double2 (vector results are -1/0).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void relational(__global int *out, __global const float *a,
                         __global const float *b, __global const double *d) {
  size_t i = get_global_id(0);
  float4 x = vload4(i, a), y = vload4(i, b);
  double2 p = vload2(i, d), q = vload2(i + 256, d);
  __global int *o = out + i * 24;
  vstore4(isnan(x) & 1 | isinf(y) & 2 | isfinite(x) & 4 | isnormal(y) & 8 |
              signbit(x) & 16 | isordered(x, y) & 32 | isunordered(x, y) & 64,
          0, o);
  vstore4(isequal(x, y) & 1 | isnotequal(x, y) & 2 | isgreater(x, y) & 4 |
              isgreaterequal(x, y) & 8 | isless(x, y) & 16 |
              islessequal(x, y) & 32 | islessgreater(x, y) & 64,
          1, o);
  vstore4((x == y) & 1 | (x != y) & 2 | (x < y) & 4 | (x <= y) & 8 |
              (x > y) & 16 | (x >= y) & 32 | (!x) & 64,
          2, o);
  long2 r = isnan(p) & 1 | isinf(q) & 2 | isfinite(p) & 4 | isnormal(q) & 8 |
            signbit(p) & 16 | isordered(p, q) & 32 | isunordered(p, q) & 64 |
            (p < q) & 128 | (p >= q) & 256 | islessgreater(p, q) & 512;
  vstore2(convert_int2(r), 6, o);
  o[14] = isnan(x.x) + 2 * isinf(x.y) + 4 * signbit(x.z) + 8 * isnormal(x.w) +
          16 * isnan(p.x) + 32 * isfinite(q.y) + 64 * signbit(q.x) +
          128 * (x.x < y.x) + 256 * (p.y != q.y);
  o[15] = any(isnan(x)) + 2 * all(isfinite(y)) + 4 * any(p > q);
  vstore4(as_int4(copysign(x, y)), 4, o);
  vstore4(ilogb(x), 5, o);
}
