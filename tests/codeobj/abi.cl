// Tiny kernels whose code shows which SGPR/VGPR holds what at wave start
// (checked against amdgpu_object::abi::WaveLayout by tests/oracle.rs).
__kernel void wg_x(__global uint *o) { o[0] = __builtin_amdgcn_workgroup_id_x(); }
__kernel void wg_y(__global uint *o) { o[0] = __builtin_amdgcn_workgroup_id_y(); }
__kernel void wg_z(__global uint *o) { o[0] = __builtin_amdgcn_workgroup_id_z(); }
__kernel void wg_yz_dispatch(__global uint *o) {
  __constant uint *d = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  o[0] = __builtin_amdgcn_workgroup_id_z() + d[1];
}
__kernel void tid_y(__global uint *o) { o[0] = __builtin_amdgcn_workitem_id_y(); }
__kernel void tid_z(__global uint *o) { o[0] = __builtin_amdgcn_workitem_id_z(); }
