//! Regression tests for emulator bugs found by the differential test
//! against pocl (crates/hsakit/tests/emu_pocl.rs). Each runs the
//! instruction sequence clang emitted and checks the value the ISA
//! semantics give.

use std::sync::Arc;

use amdgpu_emu::Memory;
use amdgpu_emu::testing::{AsmKernel, run_asm};
use amdgpu_emu::wave::Wave;

const CPUS: [&str; 2] = ["gfx900", "gfx90a"];

/// Runs `body` as one wave on `mcpu`; returns the final wave.
fn run(mcpu: &str, body: &str) -> Wave {
    let mem = Arc::new(Memory::new());
    let k = AsmKernel::new(mcpu);
    let waves = run_asm(&k, body, &mem, &[0u8; 8]).unwrap_or_else(|e| panic!("{mcpu}: {e}"));
    waves.into_iter().next().unwrap()
}

fn v64(w: &Wave, r: usize, l: usize) -> u64 {
    u64::from(w.v[r][l]) | u64::from(w.v[r + 1][l]) << 32
}

/// `s_mov_b64 s[2:3], 1.0` (clang's tgamma(double)): a float inline
/// constant for a 64-bit operand is the f64 bit pattern, also for B64
/// (integer-typed) operations. The emulator gave the f32 pattern
/// zero-extended, so tgamma(2.0) came out infinite.
#[test]
fn float_inline_constant_in_b64_operand() {
    for cpu in CPUS {
        let w = run(
            cpu,
            "  s_mov_b64 s[2:3], 1.0
  s_mov_b64 s[4:5], -0.5
  s_mov_b64 s[6:7], -4
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  v_lshlrev_b64 v[6:7], 0, 2.0
  s_or_b64 s[8:9], 0, 4.0
",
        );
        assert_eq!(w.s64(2), 1.0f64.to_bits(), "{cpu}");
        assert_eq!(w.s64(4), (-0.5f64).to_bits(), "{cpu}");
        assert_eq!(w.s64(6), -4i64 as u64, "{cpu}");
        assert_eq!(v64(&w, 4, 0), 1.0f64.to_bits(), "{cpu}");
        assert_eq!(v64(&w, 6, 0), 2.0f64.to_bits(), "{cpu}");
        assert_eq!(w.s64(8), 4.0f64.to_bits(), "{cpu}");
    }
}
