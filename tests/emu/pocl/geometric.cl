// kernel: geometric
// grid: 512
// group: 64
// arg: zeros 32768
// arg: buf f32 2048 uniform(-10,10)
// arg: buf f32 2048 uniform(-10,10)
// out: 0 ulp32 64
// Geometric functions on float3/float4: dot, cross, length, distance,
// normalize, fast_length, fast_normalize (the spec allows a few ulp, and
// fast_ variants more: compared with a loose tolerance away from
// cancellation), and float3 vload3/vstore3.

__kernel void geometric(__global float *out, __global const float *a,
                        __global const float *b) {
  size_t i = get_global_id(0);
  float4 p = vload4(i, a), q = vload4(i, b);
  float3 r = vload3(i, a), s = vload3(i, b);
  __global float *o = out + i * 16;
  o[0] = length(p);
  o[1] = distance(p, q);
  float4 n = normalize(p);
  o[2] = n.x;
  o[3] = n.w;
  // cross products of integral values: exact whatever the evaluation
  float3 c = cross(floor(r), floor(s));
  vstore3(c, 0, o + 4);
  o[7] = length(r) + length(s);
  o[8] = fast_length(p);
  o[9] = fast_distance(r, s);
  o[10] = fast_normalize(q).y;
  o[11] = length(q.xy) + length(q.z);
  o[12] = dot(fabs(p), fabs(q)) + 1.0f;
  o[13] = dot(r * r, s * s) + 1.0f;
  float4 c4 = cross(floor(p), floor(q));
  o[14] = fabs(c4.z) + fabs(c4.w) + 1.0f;
  o[15] = normalize(s).z;
}
