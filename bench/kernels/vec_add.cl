// The OpenCL C twin of examples/vector_add.hsail.
__kernel void vec_add(__global const float *a, __global const float *b,
                      __global float *c, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
