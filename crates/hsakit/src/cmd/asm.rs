//! `hsakit asm IN.hsail [-o OUT.brig]`: HSAIL text to BRIG.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `hsakit asm`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// HSAIL source file.
    input: PathBuf,
    /// Output BRIG file (default: the input with extension `.brig`; `-` for stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Assembles; syntax errors go to stderr as `file:line:col: error: …`, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let source = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", args.input.display()))?;
    let name = args.input.display().to_string();
    match hsail::assemble(&source, &name) {
        Ok(brig) => {
            let out = super::output_path(&args.input, args.output, "brig");
            super::write_output(&out, &brig)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(diagnostics) => {
            eprint!("{diagnostics}");
            Ok(ExitCode::from(1))
        }
    }
}
