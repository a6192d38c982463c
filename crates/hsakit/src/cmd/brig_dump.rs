//! `hsakit brig-dump IN.brig`: every entry with section and offset.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `hsakit brig-dump`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// BRIG module.
    input: PathBuf,
    /// Output file (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Prints the annotated listing; malformed BRIG is reported with section and offset.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let module = brig::BrigModule::parse(&bytes)
        .with_context(|| format!("{}: malformed BRIG", args.input.display()))?;
    let mut text = String::new();
    brig::dump::dump(&module, &mut text).context("cannot format the listing")?;
    let out = args.output.unwrap_or_else(|| PathBuf::from("-"));
    super::write_output(&out, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
