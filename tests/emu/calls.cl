// Non-inlined calls, including one with a private array on the stack.
__attribute__((noinline)) int poly(int x, int y) { return x * x - 3 * y + (x ^ y); }
__attribute__((noinline)) int sum_window(__global const int *p, int n) {
  int w[12];
  for (int i = 0; i < 12; i++) w[i] = p[(n + i) & 127];
  int s = 0;
  for (int i = 0; i < 12; i++) s += w[(n * 5 + i) % 12] * i;
  return s;
}
__kernel void calls(__global int *out, __global const int *in) {
  int g = get_global_id(0);
  out[g] = poly(in[g], g) + sum_window(in, in[g] & 127);
}
