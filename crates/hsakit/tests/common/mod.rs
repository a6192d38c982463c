//! Helpers shared by the integration tests (each test file is its own
//! crate and uses only some of them).
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the `hsakit` binary under test.
pub fn hsakit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hsakit"))
        .args(args)
        .output()
        .expect("cannot run hsakit")
}

/// A processor and code object version the emulator tests run on.
pub struct Config {
    pub mcpu: &'static str,
    pub cov: u32,
}

/// gfx900 and gfx90a, code object v5 and v4.
pub const CONFIGS: [Config; 4] = [
    Config {
        mcpu: "gfx900",
        cov: 5,
    },
    Config {
        mcpu: "gfx90a",
        cov: 5,
    },
    Config {
        mcpu: "gfx900",
        cov: 4,
    },
    Config {
        mcpu: "gfx90a",
        cov: 4,
    },
];
