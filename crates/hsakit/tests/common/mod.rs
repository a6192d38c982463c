//! Helpers shared by the integration tests (each test file is its own
//! crate and uses only some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Deterministic pseudo-random bytes: a xorshift stream from `seed`.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (seed + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Little-endian 32-bit words of `b` (a trailing partial word is dropped).
pub fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

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

/// One `hsakit run` of a kernel on the emulator, built argument by
/// argument: `Run::new(file, "&k").grid(256).group(64).mcpu("gfx90a")
/// .arg_buf(&input).arg_zeros(1024).arg_u32(7).run()` returns the final
/// bytes of every buffer argument (in argument order; scalar arguments
/// give empty vectors). Input buffers are written to a scratch directory
/// that lives as long as the `Run`.
pub struct Run {
    file: PathBuf,
    options: Vec<String>,
    args: Vec<String>,
    /// Per argument: the file its final bytes are written to (buffers).
    outs: Vec<Option<PathBuf>>,
    dir: oracles::Scratch,
}

/// A kernel argument of a [`Run`].
#[derive(Clone, Debug)]
pub enum Arg {
    /// A global buffer with these bytes, read back after the run.
    Buf(Vec<u8>),
    /// A zero-filled global buffer of this many bytes, read back.
    Zeros(usize),
    U32(u32),
    U64(u64),
    F32(f32),
    /// A group-segment pointer to this many bytes of dynamic group memory.
    Local(usize),
}

/// What a successful [`Run::try_run`] left: every argument's final bytes
/// (empty for scalars), the standard output and the standard error.
pub struct Ran {
    pub bufs: Vec<Vec<u8>>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Kernel `kernel` of `file` (HSAIL text or a code object).
    pub fn new(file: impl AsRef<Path>, kernel: &str) -> Run {
        Run {
            file: file.as_ref().to_path_buf(),
            options: vec!["--kernel".into(), kernel.into()],
            args: Vec::new(),
            outs: Vec::new(),
            dir: oracles::Scratch::new("run"),
        }
    }

    /// Adds `--name value`.
    fn option(mut self, name: &str, value: impl std::fmt::Display) -> Run {
        self.options.push(format!("--{name}"));
        self.options.push(value.to_string());
        self
    }

    /// The grid size (`X` or `X,Y[,Z]`).
    pub fn grid(self, grid: impl std::fmt::Display) -> Run {
        self.option("grid", grid)
    }

    /// The work-group size (`X` or `X,Y[,Z]`).
    pub fn group(self, group: impl std::fmt::Display) -> Run {
        self.option("group", group)
    }

    /// The emulated processor.
    pub fn mcpu(self, mcpu: &str) -> Run {
        self.option("mcpu", mcpu)
    }

    /// How many host threads the emulator uses.
    pub fn threads(self, n: u32) -> Run {
        self.option("threads", n)
    }

    /// A kernel argument given as `hsakit run --arg` spells it
    /// (`u32=7`, `f32=1.5`, `local=256`...); `out` when its final bytes
    /// are read back.
    fn push(mut self, spec: String, out: bool) -> Run {
        let i = self.args.len();
        self.args.push(spec);
        self.outs
            .push(out.then(|| self.dir.path(&format!("out{i}.bin"))));
        self
    }

    /// A scalar (or `local=N`) argument in `hsakit run --arg` syntax.
    pub fn arg(self, spec: &str) -> Run {
        self.push(spec.to_string(), false)
    }

    /// A u32 kernel argument.
    pub fn arg_u32(self, v: u32) -> Run {
        self.push(format!("u32={v}"), false)
    }

    /// A u64 kernel argument.
    pub fn arg_u64(self, v: u64) -> Run {
        self.push(format!("u64={v}"), false)
    }

    /// A global buffer holding `bytes`, read back after the run.
    pub fn arg_buf(self, bytes: &[u8]) -> Run {
        let path = self.dir.path(&format!("in{}.bin", self.args.len()));
        std::fs::write(&path, bytes).expect("cannot write an input buffer");
        self.arg_file(&path)
    }

    /// A global buffer holding the contents of `path`, read back after the
    /// run.
    pub fn arg_file(self, path: &Path) -> Run {
        self.push(format!("buf={}", path.display()), true)
    }

    /// A zero-filled global buffer of `n` bytes, read back after the run.
    pub fn arg_zeros(self, n: usize) -> Run {
        self.push(format!("zeros={n}"), true)
    }

    /// Adds `arg`.
    pub fn with(self, arg: &Arg) -> Run {
        match arg {
            Arg::Buf(bytes) => self.arg_buf(bytes),
            Arg::Zeros(n) => self.arg_zeros(*n),
            Arg::U32(v) => self.arg_u32(*v),
            Arg::U64(v) => self.arg_u64(*v),
            Arg::F32(v) => self.arg(&format!("f32={v}")),
            Arg::Local(n) => self.arg(&format!("local={n}")),
        }
    }

    /// Adds every one of `args`, in order.
    pub fn args(self, args: &[Arg]) -> Run {
        args.iter().fold(self, Run::with)
    }

    /// The command line.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hsakit"));
        cmd.arg("run").arg(&self.file).args(&self.options);
        for (i, (spec, out)) in self.args.iter().zip(&self.outs).enumerate() {
            cmd.arg("--arg").arg(spec);
            if let Some(path) = out {
                cmd.arg("--out").arg(format!("{i}={}", path.display()));
            }
        }
        cmd
    }

    /// Runs; the buffers and stdout, or an error naming the command line
    /// with its output.
    pub fn try_run(self) -> Result<Ran, String> {
        let mut cmd = self.command();
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{cmd:?} failed ({}):\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let bufs = self
            .outs
            .iter()
            .map(|p| p.as_ref().map_or(Ok(Vec::new()), std::fs::read))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{cmd:?}: cannot read an output buffer: {e}"))?;
        Ok(Ran {
            bufs,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }

    /// Runs, panicking with the command line and its output on failure;
    /// every argument's final bytes (empty for scalars).
    pub fn run(self) -> Vec<Vec<u8>> {
        self.try_run().unwrap_or_else(|e| panic!("{e}")).bufs
    }

    /// Runs like [`Run::run`]; the standard output.
    pub fn stdout(self) -> String {
        self.try_run().unwrap_or_else(|e| panic!("{e}")).stdout
    }
}
