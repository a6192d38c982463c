// A hand-written descriptor with many non-default fields, for GFX10/GFX11.
.amdhsa_code_object_version 5
.text
.p2align 8
.globl k32
.type k32,@function
k32:
  s_endpgm
.Lk32_end:
.size k32, .Lk32_end-k32
.rodata
.p2align 6
.amdhsa_kernel k32
  .amdhsa_group_segment_fixed_size 1024
  .amdhsa_private_segment_fixed_size 16
  .amdhsa_kernarg_size 40
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_private_segment_size 1
  .amdhsa_wavefront_size32 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_next_free_vgpr 37
  .amdhsa_next_free_sgpr 20
  .amdhsa_float_round_mode_32 1
  .amdhsa_float_denorm_mode_32 2
  .amdhsa_fp16_overflow 1
  .amdhsa_workgroup_processor_mode 0
  .amdhsa_memory_ordered 1
  .amdhsa_forward_progress 1
  .amdhsa_exception_fp_ieee_invalid_op 1
  .amdhsa_exception_int_div_zero 1
.end_amdhsa_kernel
.text
.p2align 8
.globl k64
.type k64,@function
k64:
  s_endpgm
.Lk64_end:
.size k64, .Lk64_end-k64
.rodata
.p2align 6
.amdhsa_kernel k64
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 0
  .amdhsa_shared_vgpr_count 3
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 3
.end_amdhsa_kernel
