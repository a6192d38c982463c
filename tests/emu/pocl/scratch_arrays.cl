// kernel: scratch_arrays
// grid: 512
// group: 64
// v4
// arg: zeros 16384
// arg: buf u32 8192 bits
// arg: buf u32 512 range(0,1000)
// out: 0 exact
// Private arrays with data-dependent indexing (scratch memory): a small
// insertion sort, a 64-entry lookup table built at run time, a
// sieve-like loop, char and double private arrays.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scratch_arrays(__global uint *out, __global const uint *in,
                             __global const uint *sel) {
  size_t g = get_global_id(0);
  uint a[16];
  uint t[64];
  uchar c[37];
  double d[9];
  for (int k = 0; k < 16; k++)
    a[k] = in[g * 16 + k];
  for (int k = 1; k < 16; k++) {
    uint v = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  for (int k = 0; k < 64; k++)
    t[k] = a[k & 15] ^ (k * 2654435761u);
  uint s = sel[g];
  for (int k = 0; k < 37; k++)
    c[k] = (uchar)(s * k + (k >> 1));
  for (int k = 0; k < 9; k++)
    d[k] = (double)a[k] * 0.5 + k;
  uint idx = s;
  uint acc = 0;
  for (int k = 0; k < 20; k++) {
    idx = (idx * 33 + t[idx & 63]) % 1000;
    acc += t[idx & 63] + c[idx % 37];
    t[(idx >> 3) & 63] ^= acc;
  }
  __global uint *o = out + g * 8;
  o[0] = a[0];
  o[1] = a[15];
  o[2] = a[s & 15];
  o[3] = acc;
  o[4] = t[s & 63];
  o[5] = c[s % 37];
  o[6] = (uint)d[s % 9];
  o[7] = (uint)(d[(s >> 2) % 9] * 3.0);
}
