// Hand-written GFX9 descriptors with non-default fields (gfx900, gfx90a, gfx942).
.amdhsa_code_object_version 4
.text
.p2align 8
.globl k
.type k,@function
k:
  s_endpgm
.Lk_end:
.size k, .Lk_end-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_group_segment_fixed_size 65536
  .amdhsa_private_segment_fixed_size 4096
  .amdhsa_kernarg_size 8
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_private_segment_size 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_next_free_vgpr 101
  .amdhsa_next_free_sgpr 60
  .amdhsa_float_round_mode_16_64 2
  .amdhsa_float_denorm_mode_16_64 1
  .amdhsa_dx10_clamp 0
  .amdhsa_ieee_mode 0
  .amdhsa_exception_fp_denorm_src 1
  .amdhsa_exception_fp_ieee_inexact 1
.ifdef GFX90A
  .amdhsa_accum_offset 52
  .amdhsa_tg_split 1
.endif
.end_amdhsa_kernel
