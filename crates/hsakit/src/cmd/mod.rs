//! One module per subcommand, plus the file helpers they share.

pub mod as_;
pub mod asm;
pub mod brig_dump;
pub mod disasm;
pub mod finalize;
pub mod objdump;
pub mod readobj;
pub mod run;
pub mod validate;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// Reads an input file, naming it in the error.
pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The output path: `-o` if given, else the input with `ext` as extension.
pub fn output_path(input: &Path, output: Option<PathBuf>, ext: &str) -> PathBuf {
    output.unwrap_or_else(|| input.with_extension(ext))
}

/// Writes `bytes` to `path`, or to stdout when `path` is `-`.
pub fn write_output(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).context("cannot write to stdout")?;
        return out.flush().context("cannot write to stdout");
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
