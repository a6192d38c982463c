// hsakit-as: object-only mcpu=gfx900 — constant expressions of absolute symbols in operands (DPP controls, op_sel, sext, hwreg, simm16, branch offsets), and symbols named like keywords.
.set i1, 1
two = 2
zero = 0
hwreg = 6
offset = 4
s0 = 1
xnack_mask_lo = 1
.text
k:
  v_mov_b32_sdwa v1, sext(i1-2)
  v_mov_b32_sdwa v1, sext(-2+i1) dst_sel:WORD_1
  v_pk_add_u16 v1, v2, v3 op_sel:[2-i1,i1-1]
  v_pk_add_u16 v1, v2, v3 neg_lo:[two-i1,zero]
  v_mov_b32 v0, v0 quad_perm:[0+zero,zero-2+two*two,1/i1,1]
  v_mov_b32 v0, v0 row_shl:two-1 row_mask:2*5 bank_mask:0x2-i1
  v_mov_b32 v0, v0 row_bcast:150/(two*2+zero/i1+two*3) bound_ctrl:1-1
  v_mov_b32 v0, v0 wave_ror:two*2-3
  s_getreg_b32 s2, hwreg
  s_getreg_b32 s2, hwreg + 1
  s_getreg_b32 s2, hwreg(hwreg + 45, offset - 1, two * 10)
  s_getreg_b32 s2, {id: hwreg + 45, offset: offset - 1, size: two * 10}
  ds_read_b32 v1, v2 offset:offset*4
  s_call_b64 s[0:1], offset + 4
  s_call_b64 s[0:1], 4 + offset
  s_mov_b32 s0, (1 << 10) | 3
  v_add_f32 v1, -v2, |v3|
  v_add_f32 v1, -1.5, v3
  v_sin_f32 v0, -s0
  v_sin_f32 v0, xnack_mask_lo
  s_endpgm
