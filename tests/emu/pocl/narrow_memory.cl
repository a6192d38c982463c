// kernel: narrow_memory
// grid: 512
// group: 128
// v4
// arg: zeros 16384
// arg: buf i8 2048 bits
// arg: buf i16 2048 bits
// arg: buf u8 1536 bits
// out: 0 exact
// 8- and 16-bit loads/stores (sign/zero extension) in global, local and
// private memory; unaligned char3/short3/uchar4 vectors; byte writes into
// shared words by neighbouring work-items; packing halves of registers.

__kernel void narrow_memory(__global int *out, __global const char *c,
                            __global const short *s, __global const uchar *u) {
  __local char lc[512];
  __local short ls[256];
  __local uchar lu3[384];
  int g = get_global_id(0), l = get_local_id(0);
  lc[l * 4] = c[g * 4];
  lc[l * 4 + 1] = c[g * 4 + 1] + 1;
  lc[l * 4 + 2] = c[g * 4 + 2] ^ 0x55;
  lc[l * 4 + 3] = (char)l;
  ls[l * 2] = s[g * 4];
  ls[l * 2 + 1] = (short)(s[g * 4 + 1] >> 3);
  vstore3(vload3(g, u), l, lu3);
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = (l + 37) & 127;
  char4 q = vload4(n, lc);
  short2 r = vload2(n, ls);
  uchar3 t = vload3(n, lu3);
  char pc[24];
  for (int k = 0; k < 24; k++)
    pc[k] = c[(g * 3 + k) & 2047];
  __global int *o = out + g * 8;
  o[0] = q.x * 1000000 + q.y * 1000 + q.z;
  o[1] = as_int(q);
  o[2] = r.x * 65536 + r.y;
  o[3] = t.x | t.y << 8 | t.z << 16 | (int)pc[(g * 7) % 24] << 24;
  short3 s3 = vload3(g, s + 1);
  o[4] = s3.x + s3.y * 3 + s3.z * 5;
  char3 c3 = vload3(g, c + 1);
  o[5] = c3.x * c3.y - c3.z;
  ushort us = ((__global const ushort *)s)[g * 3];
  uchar ub = u[g * 2 + 1];
  o[6] = us * 3 + ub + (int)(char)ub;
  o[7] = pc[g % 24] + pc[(g + 5) % 24] * 256;
}
