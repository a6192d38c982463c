// A private array indexed by data: lives in scratch memory.
__kernel void scratch(__global int *out, __global const int *in) {
  int tmp[48];
  size_t g = get_global_id(0);
  for (int i = 0; i < 48; i++) tmp[i] = in[(g + i) % 256] * (i + 1);
  int s = 0;
  for (int i = 0; i < 48; i++) s += tmp[(in[g] + 7 * i) % 48] ^ i;
  out[g] = s;
}
