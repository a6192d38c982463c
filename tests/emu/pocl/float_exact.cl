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

__kernel void float_exact(__global float *out, __global const float *a,
                          __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  __global float *o = out + i * 24;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = sqrt(fabs(x));
  o[5] = fma(x, y, z);
  o[6] = fabs(x);
  o[7] = floor(x);
  o[8] = ceil(x);
  o[9] = round(x);
  o[10] = trunc(x);
  o[11] = rint(x);
  o[12] = copysign(x, y);
  o[13] = fmin(x, y);
  o[14] = fmax(x, y);
  o[15] = fdim(x, y);
  o[16] = nextafter(x, y);
  o[17] = ldexp(x, (int)(z / 10.0f));
  o[18] = (float)ilogb(x);
  o[19] = logb(x);
  o[20] = fmod(x, y);
  o[21] = remainder(x, y);
  o[22] = x / z;
  o[23] = sqrt(z) + 1.0f / y;
}
