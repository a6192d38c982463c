// kernel: denormals_daz
// grid: 1024
// group: 64
// flags: -cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt
// arg: zeros 65536
// arg: buf f32 1024 uniform(-1,1)
// arg: buf f32 1024 special
// out: 0 f32
// As denormals.cl, compiled with -cl-denorms-are-zero: the GPU flushes f32
// denormals, which the spec allows, and pocl may or may not: mode f32daz
// takes a zero and a denormal of the same sign... as equal to any value of
// magnitude below FLT_MIN (see emu_pocl.rs).
// Float arithmetic producing and consuming denormals
// kept by default for OpenCL on gfx9): scaling into the denormal range,
// denormal inputs to + * / sqrt fma, ldexp, conversions, min/max,
// frexp/ilogb of denormals, nextafter around zero.

__kernel void denormals_daz(__global float *out, __global const float *a,
                        __global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float d = x * 1e-39f;
  float e = y * 1e-30f;
  __global float *o = out + i * 16;
  o[0] = d;
  o[1] = d * 3.0f;
  o[2] = d + e;
  o[3] = d / 7.0f;
  o[4] = sqrt(fabs(d));
  o[5] = fma(x, 1e-38f, d);
  o[6] = ldexp(x, -140);
  o[7] = (float)((double)x * 1e-42);
  o[8] = fmin(d, e);
  o[9] = fmax(d, e) * 1e30f;
  int ex;
  o[10] = frexp(d, &ex) + (float)ex;
  o[11] = (float)ilogb(d);
  o[12] = nextafter(0.0f, x);
  o[13] = d * 1e38f;
  o[14] = floor(d) + ceil(d) + round(d) + trunc(d);
  o[15] = y * y * 1e-20f;
}
