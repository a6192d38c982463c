// kernel: mad_enable
// grid: 1024
// group: 64
// flags: -cl-mad-enable -cl-unsafe-math-optimizations
// arg: zeros 65536
// arg: buf f32 1024 uniform(0.5,4)
// arg: buf f32 1024 uniform(-3,3)
// out: 0 ulp32 64
// -cl-mad-enable -cl-unsafe-math-optimizations: a*b+c may fuse; builtins
// keep their ULP limits mostly.
// -cl-finite-math-only): results need only be close; compared with a loose
// tolerance on well-conditioned inputs (finite, no cancellation).

#define KERNEL_NAME mad_enable
#include "fast_math.inc"
