// kernel: structs
// grid: 256
// group: 64
// arg: zeros 24576
// arg: buf u32 3072 bits
// arg: u32 12345
// arg: f32 1.75
// out: 0 exact
// Structs with mixed member sizes and padding, in buffers, passed by value
// to non-inlined functions, returned, and nested; a union.

typedef struct {
  char tag;
  char pad[3];
  int value;
  short s[3];
  short s3;
  float f;
  int pad2;
  long big;
} Rec; // 32 bytes, no implicit padding (its bytes would be undefined)

typedef struct {
  Rec r;
  uchar flags;
  uint2 pair;
} Outer;

typedef union {
  float f;
  uint u;
  uchar b[4];
} Pun;

__attribute__((noinline)) Rec combine(Rec a, Rec b, uint k) {
  Rec r;
  r.tag = a.tag ^ b.tag;
  r.pad[0] = r.pad[1] = r.pad[2] = 0;
  r.s3 = -1;
  r.pad2 = 5;
  r.value = a.value * 3 - b.value + (int)k;
  r.s[0] = a.s[2];
  r.s[1] = b.s[1] + a.s[0];
  r.s[2] = (short)(a.s[1] * b.s[2]);
  r.f = a.f * 0.5f + (float)b.s[0];
  r.big = a.big + (b.big >> 3) + r.value;
  return r;
}

__attribute__((noinline)) uint hash(Outer o) {
  return o.r.value ^ (uint)o.r.big ^ (uint)(o.r.big >> 32) ^ o.flags ^ o.pair.x * 3u ^ o.pair.y;
}

__kernel void structs(__global Rec *out, __global const Rec *in, uint k, float sc) {
  size_t g = get_global_id(0);
  Rec a = in[g], b = in[(g * 7 + 3) % 384];
  a.f = (float)(a.value & 0xffff) * sc;
  b.f = (float)(b.s[0]) / 8.0f;
  Rec r = combine(a, b, k);
  out[g] = r;
  Outer o;
  o.r = r;
  o.flags = (uchar)g;
  o.pair = (uint2)(a.value, b.value);
  Pun p;
  p.f = r.f;
  Rec q;
  q.tag = p.b[3];
  q.pad[0] = p.b[0];
  q.pad[1] = p.b[1];
  q.pad[2] = p.b[2];
  q.s3 = 7;
  q.pad2 = -5;
  q.value = (int)hash(o);
  q.s[0] = (short)p.u;
  q.s[1] = (short)(p.u >> 16);
  q.s[2] = sizeof(Rec) + sizeof(Outer);
  q.f = sc;
  q.big = (long)g << 40 | (uint)q.value;
  out[g + 256] = q;
  out[g + 512] = a;
}
