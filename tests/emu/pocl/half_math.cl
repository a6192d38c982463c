// kernel: half_math
// grid: 1024
// group: 64
// arg: zeros 32768
// arg: buf f16 1024 uniform(0.1,10)
// arg: buf f16 1024 uniform(-4,4)
// out: 0 ulp16 3
// cl_khr_fp16 math builtins (OpenCL: 2-4 ulp in half) on v_sqrt_f16,
// v_rsq_f16, v_rcp_f16, v_exp_f16, v_log_f16, v_sin/cos_f16,
// v_frexp/ldexp_f16, v_fract_f16. pocl lacks cl_khr_fp16: with POCL_REF
// the float builtin is rounded to half.

#ifdef POCL_REF
typedef float H;
#define LD(i, p) vload_half(i, p)
#define ST(v, i, p) vstore_half_rte(v, i, p)
#else
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half H;
#define LD(i, p) (p)[i]
#define ST(v, i, p) ((p)[i] = (v))
#endif

__kernel void half_math(__global half *out, __global const half *a,
                        __global const half *b) {
  size_t i = get_global_id(0);
  H x = LD(i, a), y = LD(i, b);
  __global half *o = out + i * 16;
  ST(sqrt(x), 0, o);
  ST(rsqrt(x), 1, o);
  ST(exp(y), 2, o);
  ST(exp2(y), 3, o);
  ST(log(x), 4, o);
  ST(log2(x), 5, o);
  // sin/cos(half) are left out: with clang-19 and Debian's ROCm device
  // libs the optimized IR is select(fcmp one |x|, inf; NaN; r), i.e. NaN
  // for every finite input (the emulator runs that faithfully).
  ST(sinh(y * (H)0.5f), 6, o);
  ST(cosh(y * (H)0.5f), 7, o);
  ST(pow(x, y * (H)0.5f), 8, o);
  int e;
  ST(frexp(x, &e), 9, o);
  ST(ldexp(y, e), 10, o);
  H fl;
  ST(fract(y, &fl), 11, o);
  ST(1.0f / x, 12, o);
  ST(fmod(x, (H)1.5f), 13, o);
  ST(round(y) * (H)2.0f + fl, 14, o);
  ST(tanh(y), 15, o);
}
