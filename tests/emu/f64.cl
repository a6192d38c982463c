// flags: -cl-fp32-correctly-rounded-divide-sqrt
// Double arithmetic: fma, correctly rounded division and sqrt, conversions.
__kernel void f64(__global double *out, __global const double *a, __global const double *b) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[6 * i + 0] = fma(x, y, 1.0);
  out[6 * i + 1] = x / y;
  out[6 * i + 2] = sqrt(fabs(x));
  out[6 * i + 3] = (double)(float)x;
  out[6 * i + 4] = (double)(long)(x * 1000.0);
  out[6 * i + 5] = floor(x) + ceil(y) - trunc(x * y) + rint(x / 3.0);
}
