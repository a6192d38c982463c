// kernel: fast_math
// grid: 1024
// group: 64
// flags: -cl-fast-relaxed-math
// arg: zeros 65536
// arg: buf f32 1024 uniform(0.5,4)
// arg: buf f32 1024 uniform(-3,3)
// out: 0 ulp32 16384
// -cl-fast-relaxed-math (also -cl-mad-enable, -cl-unsafe-math-optimizations,
// -cl-finite-math-only): results need only be close; compared with a loose
// tolerance on well-conditioned inputs (finite, no cancellation).

#define KERNEL_NAME fast_math
#include "fast_math.inc"
