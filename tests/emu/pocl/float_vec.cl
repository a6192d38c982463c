// kernel: float_vec
// grid: 512
// group: 64
// v4
// arg: zeros 65536
// arg: buf f32 4096 special
// arg: buf f32 4096 special
// arg: buf f32 2048 uniform(-100,100)
// out: 0 f32
// float2/float4/float8 arithmetic on special values (gfx90a turns these
// into packed v_pk_add_f32/v_pk_mul_f32/v_pk_fma_f32), with uniform
// (scalar) operands and constants mixed in.

__kernel void float_vec(__global float *out, __global const float *a,
                        __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  float8 x = vload8(i, a), y = vload8(i, b);
  float4 z = vload4(i, c);
  float s = c[get_group_id(0)];
  __global float *o = out + i * 32;
  vstore8(x + y, 0, o);
  vstore8(x * y, 1, o);
  vstore8(fma(x, y, (float8)(z, z)), 2, o);
  float4 p = x.lo * s - y.hi;
  float4 q = (x.even * 0.5f + 3.0f) * z;
  vstore4(p, 6, o);
  vstore4(q - fma(z, (float4)(s), x.odd), 7, o);
}
