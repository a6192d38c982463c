// kernel: half_arith
// grid: 1024
// group: 64
// arg: zeros 32768
// arg: buf f16 1024 uniform(-60,60)
// arg: buf f16 1024 uniform(-60,60)
// arg: buf f16 1024 special
// out: 0 f16
// cl_khr_fp16 arithmetic (scalar and half2/half4) and conversions. pocl
// lacks cl_khr_fp16: with POCL_REF each op is computed in float and
// rounded to half, which equals the correctly rounded half result for
// + - * / sqrt (float has more than 2p+2 bits); fma is done in double.

#pragma OPENCL FP_CONTRACT OFF
#ifdef POCL_REF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef float H;
typedef float2 H2;
#define LD(i, p) vload_half(i, p)
#define LD2(i, p) vload_half2(i, p)
#define ST(v, i, p) vstore_half_rte(v, i, p)
#define FMA(a, b, c) ((float)fma((double)(a), (double)(b), (double)(c)))
#else
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half H;
typedef half2 H2;
#define LD(i, p) (p)[i]
#define LD2(i, p) vload2(i, p)
#define ST(v, i, p) ((p)[i] = (v))
#define FMA(a, b, c) fma(a, b, c)
#endif

#ifdef POCL_REF
// round to the nearest half (ties to even) and back, in float: pocl does
// not allow half variables, even for vstore_half.
float rh(float x) {
  if (isnan(x) || isinf(x) || x == 0.0f)
    return x;
  int e = max(ilogb(x), -14);
  float q = ldexp(1.0f, e - 10);
  float r = rint(x / q) * q;
  return fabs(r) >= 65520.0f ? copysign(INFINITY, x) : r;
}
float2 rh2(float2 x) { return (float2)(rh(x.x), rh(x.y)); }
#define K(v) rh(v)
#else
#define rh(x) (x)
#define rh2(x) (x)
#define K(v) ((half)(v))
#endif

__kernel void half_arith(__global half *out, __global const half *a,
                         __global const half *b, __global const half *c) {
  size_t i = get_global_id(0);
  H x = LD(i, a), y = LD(i, b), z = LD(i, c);
  __global half *o = out + i * 16;
  ST(rh(x + y), 0, o);
  ST(rh(x - y), 1, o);
  ST(rh(x * y), 2, o);
  ST(rh(x / y), 3, o);
  ST(rh(sqrt(fabs(x))), 4, o);
  ST(rh(FMA(x, y, z)), 5, o);
  ST(rh(z * z), 6, o);
  ST(rh(z + x), 7, o);
  ST(fmin(x, z), 8, o);
  ST(floor(z), 9, o);
  ST(rh(x * K(0.1f)), 10, o);
  ST(rh(ceil(y) - trunc(x)), 11, o);
  H2 p = LD2(i & 511, a), q = LD2(i & 511, b);
  H2 s = rh2(rh2(p * q) + q);
  ST(s.x, 12, o);
  ST(s.y, 13, o);
  ST((H)(x < y ? 1.0f : -1.0f) * rh(fabs(z)), 14, o);
  ST(rh(copysign(y, x) + (H)3.0f), 15, o);
}
