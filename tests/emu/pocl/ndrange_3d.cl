// kernel: ndrange_3d
// grid: 12,10,6
// group: 4,5,3
// arg: zeros 46080
// out: 0 exact
// Work-item functions in a 3-D NDRange: every id, size and count
// (get_global_offset is 0: hsakit run has no global offset).

__kernel void ndrange_3d(__global uint *out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
  __global uint *o = out + lin * 16;
  o[0] = get_work_dim();
  o[1] = get_global_size(0) * 10000 + get_global_size(1) * 100 + get_global_size(2);
  o[2] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2);
  o[3] = get_num_groups(0) * 100 + get_num_groups(1) * 10 + get_num_groups(2);
  o[4] = get_group_id(0) * 100 + get_group_id(1) * 10 + get_group_id(2);
  o[5] = get_local_id(0) * 100 + get_local_id(1) * 10 + get_local_id(2);
  o[6] = get_global_offset(0) + get_global_offset(1) + get_global_offset(2);
  o[7] = get_global_linear_id();
  o[8] = get_local_linear_id();
  o[9] = get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1) * 10 +
         get_enqueued_local_size(2);
  o[10] = x;
  o[11] = y;
  o[12] = z;
  o[13] = lin;
  // Dimensions >= get_work_dim() would give 0 for ids and 1 for sizes by
  // the spec; pocl 3.1 returns 0 for the sizes too, so they are not used.
  o[14] = get_global_id(0) * get_global_id(1) + get_group_id(2);
  o[15] = get_local_id(0) ^ get_local_id(2);
}
