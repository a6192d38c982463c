// kernel: control_flow
// grid: 1024
// group: 64
// arg: zeros 12288
// arg: buf u32 1024 bits
// out: 0 exact
// Divergent control flow: switch statements (dense and sparse), irregular
// data-dependent loops with break/continue, early returns, nested
// conditions, a do-while.

__kernel void control_flow(__global uint *out, __global const uint *in) {
  size_t g = get_global_id(0);
  uint v = in[g];
  __global uint *o = out + g * 3;
  uint r;
  switch (v & 7) {
  case 0: r = v >> 3; break;
  case 1: r = v * 3; break;
  case 2:
  case 3: r = ~v; break;
  case 4: r = v ^ 0xdeadbeef; // fall through
  case 5: r = (v & 4) ? v + 1 : v - 1; break;
  default: r = popcount(v);
  }
  switch (v >> 28) {
  case 1: r += 100; break;
  case 7: r += 7000; break;
  case 13: r ^= 0xffff; break;
  case 15: r = 0; break;
  default: break;
  }
  o[0] = r;
  // collatz-like iteration with a data-dependent trip count
  uint x = (v & 0xffff) | 1, steps = 0;
  while (x != 1) {
    if (steps > 300)
      break;
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    steps++;
    if ((x & 0xff) == 0x55)
      continue;
    steps += (x >> 20) & 1;
  }
  o[1] = steps | (x << 16);
  if ((v & 0xf00) == 0x300) {
    o[2] = 1;
    return;
  }
  uint k = 0, acc = v;
  do {
    acc = (acc >> 1) ^ (-(acc & 1) & 0xedb88320u);
    k++;
  } while (k < (v & 31) + 1);
  if (acc & 1)
    return; // o[2] stays 0
  o[2] = acc;
}
