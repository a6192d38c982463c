// Three kernels with descriptors and v5 metadata (hsakit as vs llvm-mc-19 + ld.lld-19).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 5
	.text
	.globl	copy
	.p2align	8
	.type	copy,@function
copy:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[0:1]
	s_waitcnt vmcnt(0)
	global_store_dword v1, v2, s[2:3]
	s_endpgm
.Lcopy_end:
	.size	copy, .Lcopy_end-copy

	.globl	fill
	.p2align	8
	.type	fill,@function
fill:
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s2, s[4:5], 0x8
	v_lshlrev_b32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v2, s2
	global_store_dword v1, v2, s[0:1]
	s_endpgm
.Lfill_end:
	.size	fill, .Lfill_end-fill

	.globl	empty
	.p2align	8
	.type	empty,@function
empty:
	s_endpgm
.Lempty_end:
	.size	empty, .Lempty_end-empty

	.rodata
	.p2align	6
	.amdhsa_kernel copy
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.p2align	6
	.amdhsa_kernel fill
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 12
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 3
		.amdhsa_accum_offset 4
		.amdhsa_group_segment_fixed_size 256
	.end_amdhsa_kernel
	.p2align	6
	.amdhsa_kernel empty
		.amdhsa_next_free_vgpr 0
		.amdhsa_next_free_sgpr 0
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           src
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           dst
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           copy
    .private_segment_fixed_size: 0
    .sgpr_count:     6
    .symbol:         copy.kd
    .vgpr_count:     3
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 12
    .max_flat_workgroup_size: 1024
    .name:           fill
    .private_segment_fixed_size: 0
    .sgpr_count:     3
    .symbol:         fill.kd
    .vgpr_count:     3
    .wavefront_size: 64
  - .group_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           empty
    .private_segment_fixed_size: 0
    .sgpr_count:     0
    .symbol:         empty.kd
    .vgpr_count:     0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
