// Double sin and cos (ocml: Payne-Hanek reduction through v_trig_preop_f64).
__kernel void trig_f64(__global double *out, __global const double *a) {
  size_t i = get_global_id(0);
  out[2 * i + 0] = sin(a[i]);
  out[2 * i + 1] = cos(a[i]);
}
