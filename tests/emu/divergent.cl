// Data-dependent loops and branches: Collatz step counts.
__kernel void divergent(__global uint *out, __global const uint *in) {
  size_t i = get_global_id(0);
  uint n = in[i], steps = 0;
  while (n != 1 && steps < 1000) {
    if (n & 1) n = 3 * n + 1; else n >>= 1;
    steps++;
  }
  if (steps & 1) out[i] = steps * 3; else if (steps % 3 == 0) out[i] = steps + 100; else out[i] = steps;
}
