// llvm-objdump -d: every encoding family common to GFX9 targets, literals,
// inline constants, DPP and SDWA, 64-bit forms.
// objdump-targets: gfx900 gfx904 gfx906 gfx90a gfx942 gfx9-generic
.text
.globl kern
.type kern,@function
kern:
  ds_add_f32 v2, v4
  ds_inc_rtn_u32 v2, v4, v6
  ds_mskor_rtn_b32 v2, v4, v6, v8 offset:4
  ds_write2_b32 v1, v2, v3 offset0:4 offset1:8
  flat_atomic_add v[4:5], v6
  flat_load_short_d16_hi v2, v[4:5]
  global_atomic_or_x2 v4, v[6:7], s[2:3] offset:-4096
  global_load_sbyte_d16_hi v2, v4, s[2:3] offset:-1
  global_load_dword v2, v[2:3], off
  scratch_load_dword v1, off, s3 offset:16
  tbuffer_load_format_d16_x v2, off, s[12:15], s1
  tbuffer_load_format_xyzw v[4:7], v4, s[12:15], s1 idxen
  buffer_atomic_add v2, off, s[12:15], s1
  buffer_atomic_sub v2, v5, s[12:15], s1 offen offset:4095
  buffer_load_format_d16_xyz v[2:3], off, s[12:15], ttmp2
  buffer_store_byte v2, off, s[12:15], s1
  s_atc_probe 7, s[4:5], s1
  s_atomic_sub_x2 s[2:3], s[4:5], s101
  s_buffer_atomic_smax s2, s[8:11], s1
  s_buffer_store_dwordx4 s[4:7], s[8:11], s1 offset:0x10
  s_load_dwordx8 s[8:15], s[4:5], 0x40
  s_abs_i32 s2, s4
  s_bitset0_b64 s[2:3], 1.0
  s_flbit_i32 s2, 0x3fc00000
  s_or_saveexec_b64 s[100:101], s[4:5]
  s_absdiff_i32 s2, s4, s6
  s_bfe_u64 s[100:101], s[4:5], s6
  s_lshr_b64 s[2:3], -4.0, s6
  s_or_b64 s[2:3], flat_scratch, s[6:7]
  s_and_b32 s2, s2, 0xffff
  s_bitcmp0_b32 s2, s4
  s_cmp_lg_u32 s2, ttmp1
  s_addk_i32 s2, 0x1234
  s_cmovk_i32 flat_scratch_lo, 0x1234
  s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)
  s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0x5baff3a4
  s_barrier
  s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
  s_setprio 3
  s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)
  s_sleep 2
  v_bfrev_b32 v2, v4
  v_cvt_f64_f32 v[2:3], src_scc
  v_ffbl_b32_dpp v2, v4 row_ror:4
  v_rcp_f32 v2, v7
  v_mov_b32 v1, 0x3e22f983
  v_mov_b32_sdwa v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_add_co_u32 v2, vcc, v6, v8
  v_lshlrev_b32_dpp v2, v4, v6 row_shr:15
  v_min_i16 v2, 1.0, v6
  v_sub_co_u32_dpp v2, vcc, v6, v8 row_shl:1 row_mask:0x3 bank_mask:0xc bound_ctrl:0
  v_add_f32_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_0
  v_mul_f32 v1, 0x40490fdb, v2
  v_add3_u32 v2, v4, v6, v8
  v_cmp_nle_f32_e64 s[2:3], v4, -7
  v_cmpx_nlg_f64_e64 s[2:3], 1.0, v[6:7]
  v_mad_f16 v2, v4, v6, v8 mul:4
  v_fma_f64 v[0:1], -v[2:3], |s[4:5]|, v[6:7] clamp
  v_add_f32_e64 v1, -v2, s3
  v_pk_add_f16 v2, v4, v6
  v_pk_fma_f16 v2, vcc_lo, v6, v8
  v_pk_mad_u16 v2, v9, v6, v8
  v_pk_min_i16 v2, -7, v6
  v_pk_mul_lo_u16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]
  v_cmp_class_f16 vcc, v4, v6
  v_cmp_lt_f16_sdwa s[2:3], v4, v6
  v_cmp_u_f64 vcc, v[4:5], |v[6:7]|
  v_cmpx_lt_f16 vcc, v4, |v6|
  v_cmp_eq_u32 vcc, 0x11223344, v1
  v_readfirstlane_b32 s1, v2
  v_writelane_b32 v1, s2, 3
  s_endpgm
