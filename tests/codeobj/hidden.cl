// A kernel that reads the implicit (hidden) kernel arguments, so that clang
// emits all of them in the metadata (v4: global offsets + 4 more slots).
__kernel void imp(__global ulong *o, int n) {
  o[n] = *(__constant ulong *)__builtin_amdgcn_implicitarg_ptr();
}
