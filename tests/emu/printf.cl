// OpenCL printf through the printf buffer (hidden_printf_buffer and the
// amdhsa.printf formats). Not part of emu_corpus: crates/hsakit/tests/emu_printf.rs
// compiles it with LLVM's printf lowering before the device libraries are
// linked (see that file), and compares `hsakit run`'s stdout with a host C
// program's printf of the same values.

kernel void scalars(global const int *a, global const float *f,
                    global const long *l) {
  int i = get_global_id(0);
  printf("%d: d=%d u=%u x=%x X=%#X o=%o c=%c s=%s ld=%ld lu=%lu 100%%\n", i,
         a[i], (uint)a[i], a[i], a[i], (uint)a[i] & 0777, 'a' + i % 26,
         "hello", l[i], (ulong)l[i]);
  printf("%d: f=%f e=%e g=%g w=%8.3f|%-+6d|%05d|a:b\n", i, f[i], f[i], f[i],
         f[i], a[i] % 1000, i);
  if (i % 3 == 1)
    printf("branch %d %.2f\n", i, f[i]);
}

kernel void vectors(global const int4 *v, global const float4 *w) {
  int i = get_global_id(0);
  printf("v=%v4hld w=%v4hlf c=%v2hhd l=%v2ld u3=%v3hlu\n", v[i], w[i],
         (char2)(i, -i), (long2)(i, -3), (uint3)(1, 2, i));
}
