//! `hsakit disasm IN.brig [-o OUT.hsail]`: BRIG to canonical HSAIL text.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `hsakit disasm`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// BRIG module.
    input: PathBuf,
    /// Output text file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Disassembles; malformed BRIG is reported with section and byte offset.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let text = hsail::disassemble(&bytes)
        .with_context(|| format!("{}: malformed BRIG", args.input.display()))?;
    let out = args.output.unwrap_or_else(|| PathBuf::from("-"));
    super::write_output(&out, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
