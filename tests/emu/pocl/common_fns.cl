// kernel: common_fns
// grid: 1024
// group: 64
// arg: zeros 65536
// arg: buf f32 1024 uniform(-10,10)
// arg: buf f32 1024 uniform(-10,10)
// arg: buf f32 1024 uniform(0,1)
// out: 0 ulp32 4
// Common functions: clamp, mix, step, smoothstep, sign, degrees, radians,
// min/max with scalar broadcast, maxmag/minmag, mad; float4 variants.
// (mix and smoothstep are not correctly rounded: small tolerance.)

__kernel void common_fns(__global float *out, __global const float *a,
                         __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], t = c[i];
  __global float *o = out + i * 16;
  o[0] = clamp(x, -2.5f, 3.0f);
  // mix is x + (y - x) * t with implementation-defined accuracy: inputs
  // of one sign avoid cancellation.
  o[1] = mix(fabs(x) + 1.0f, fabs(y) + 1.0f, t);
  o[2] = step(y, x);
  o[3] = smoothstep(-5.0f, 5.0f, x);
  o[4] = sign(x);
  o[5] = degrees(y);
  o[6] = radians(x);
  o[7] = maxmag(x, y);
  o[8] = minmag(x, y);
  float4 v = (float4)(x, y, t, x * y);
  float4 w = clamp(v, (float4)(-1.0f), (float4)(1.0f));
  o[9] = w.x + w.y * 2.0f + w.z * 4.0f + w.w * 8.0f;
  float4 m = mix(fabs(v) + 1.0f, fabs(v.wzyx) + 1.0f, (float4)(t));
  o[10] = m.x;
  o[11] = m.w;
  o[12] = max(v, 0.5f).y + min(v, -0.5f).z;
  o[13] = sign(v.w) * fabs(v.z);
  o[14] = step(0.5f, v).z + smoothstep(0.0f, 1.0f, v).z;
  o[15] = sign(0.0f * x) + sign(-0.0f);
}
