// The OpenCL C twin of alu.hsail (no contraction: alu.hsail rounds the
// multiply and the add separately).
#pragma OPENCL FP_CONTRACT OFF
__kernel void alu(__global uint *out, uint iters) {
  uint g = get_global_id(0);
  uint a = g, b = g * 2654435761u;
  float f = (float)g * 0.5f, h = 1.0f;
  for (uint i = 0; i < iters; i++) {
    a = a * 1664525u + 1013904223u;
    b ^= a >> 7;
    f = fma(f, 0.999f, h);
    h = h * 1.0001f + (float)(a & 15);
  }
  out[g] = a ^ b ^ as_uint(f) ^ as_uint(h);
}
