// The OpenCL C twin of tests/finalize/loop.hsail.
__kernel void loop(__global const uint *in, __global uint *out) {
  uint g = get_global_id(0);
  uint n = in[g] & 15, acc = 7;
  for (uint k = 0; k < n; k++) {
    if (k & 1)
      acc += g;
    else
      acc *= 3;
  }
  out[g] = acc;
}
