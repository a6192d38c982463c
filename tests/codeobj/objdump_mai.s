// llvm-objdump -d: gfx90a/gfx942 matrix instructions, AGPRs, packed FP32,
// and the cache-policy bits.
// objdump-targets: gfx90a gfx942
.text
.globl kern
.type kern,@function
kern:
  v_mfma_f32_32x32x4f16 v[0:31], v[0:1], v[2:3], v[0:31] cbsz:4 abid:1 blgp:2
  v_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]
  v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]
  v_accvgpr_write_b32 a1, v2
  v_accvgpr_read_b32 v1, a2
  v_accvgpr_mov_b32 a3, a4
  v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]
  v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,0]
  global_load_dwordx4 a[0:3], v[0:1], off
  ds_read_b64 a[2:3], v1 offset:16
  buffer_load_dword a1, off, s[0:3], 0
  v_fmac_f64 v[0:1], v[2:3], v[4:5]
  s_endpgm
