// kernel: float_parts
// grid: 1024
// group: 64
// arg: zeros 32768
// arg: zeros 12288
// arg: buf f32 1024 special
// arg: buf f32 1024 special
// out: 0 f32
// out: 1 exact
// modf, frexp, remquo, fract, and the int results of frexp/remquo/ilogb.
// remquo's quotient: only the sign and the low 3 bits are specified
// (OpenCL: at least 7 bits; pocl and ROCm both give 7 or more); we keep
// the low 3 bits.

__kernel void float_parts(__global float *out, __global int *iout,
                          __global const float *a, __global const float *b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global float *o = out + i * 8;
  __global int *q = iout + i * 3;
  float ip;
  o[0] = modf(x, &ip);
  o[1] = ip;
  int e;
  o[2] = frexp(x, &e);
  q[0] = e;
  int quo;
  float r = remquo(x, y, &quo);
  o[3] = r;
  q[1] = isnan(r) ? 0 : (quo < 0 ? -((-quo) & 7) : (quo & 7));
  float fl;
  o[4] = fract(x, &fl);
  o[5] = fl;
  q[2] = ilogb(y);
  o[6] = ldexp(y, q[0] & 63);
  o[7] = frexp(y * 3.0f, &e) + (float)e;
}
