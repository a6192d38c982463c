// kernel: matmul_tiled
// grid: 64,48
// group: 16,16
// arg: zeros 12288
// arg: buf f32 2560 uniform(-4,4)
// arg: buf f32 2560 uniform(-4,4)
// arg: u32 40
// out: 0 ulp32 0
// Tiled matrix multiply C[48x64] = A[48x40] * B[40x64] with 16x16 local
// tiles (K not a multiple of the tile: guarded loads). Products are
// summed in the same order on both sides, with fma contraction disabled.

#pragma OPENCL FP_CONTRACT OFF
#define TS 16
__kernel void matmul_tiled(__global float *C, __global const float *A,
                           __global const float *B, uint K) {
  __local float As[TS][TS];
  __local float Bs[TS][TS + 1];
  int col = get_global_id(0), row = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  int M = get_global_size(1), N = get_global_size(0);
  float acc = 0.0f;
  for (int t = 0; t < (int)K; t += TS) {
    As[ly][lx] = (t + lx < (int)K) ? A[row * K + t + lx] : 0.0f;
    Bs[ly][lx] = (t + ly < (int)K) ? B[(t + ly) * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++) {
      float p = As[ly][k] * Bs[k][lx];
      acc = acc + p;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M)
    C[row * N + col] = acc;
}
