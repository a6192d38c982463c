// kernel: float_exact
// grid: 1024
// group: 128
// flags: -cl-fp32-correctly-rounded-divide-sqrt
// v4
// arg: zeros 98304
// arg: buf f32 1024 special
// arg: buf f32 1024 special
// arg: buf f32 1024 uniform(-1000,1000)
// out: 0 f32
// Correctly rounded float operations (exact in OpenCL with
// -cl-fp32-correctly-rounded-divide-sqrt) and exact builtins on special
// values (zeros, infinities, NaNs, denormals, huge and tiny numbers).

#define T float
#define KERNEL_NAME float_exact
#define LDEXP_DIV 10.0f
#define TAIL 19
#define EXTRA_PARAMS
#define EXTRA_ARGS

// The float-only slots.
static void more(__global float *o, float x, float y, float z, size_t i) {
  o[18] = (float)ilogb(x);
  o[23] = sqrt(z) + 1.0f / y;
}

#include "exact.inc"
