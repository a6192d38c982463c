//! `hsakit validate FILE`: checks an HSAIL text or BRIG module against the
//! PRM's rules; exit status 0 when valid, 1 with every independent error
//! listed when not.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use hsail::validate::ValidationError;

/// Arguments of `hsakit validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// HSAIL source or BRIG module (recognized by its `HSA BRIG` magic).
    input: PathBuf,
}

/// Validates; syntax errors and rule violations go to stderr, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let brig = if bytes.starts_with(b"HSA BRIG") {
        bytes
    } else {
        let source = String::from_utf8(bytes)
            .with_context(|| format!("{} is not UTF-8 text", args.input.display()))?;
        match hsail::lower::assemble_unchecked(&source, &args.input.display().to_string()) {
            Ok(brig) => brig,
            Err(diagnostics) => {
                eprint!("{diagnostics}");
                return Ok(ExitCode::from(1));
            }
        }
    };
    Ok(if check(&args.input, &brig) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Validates `brig` (read from or assembled from `input`) and reports every
/// error on stderr; returns whether it is valid.
pub fn check(input: &Path, brig: &[u8]) -> bool {
    let module = match brig::BrigModule::parse(brig) {
        Ok(module) => module,
        Err(e) => {
            eprintln!("{}: error: malformed BRIG: {e}", input.display());
            return false;
        }
    };
    match hsail::validate::validate(&module) {
        Ok(_) => true,
        Err(errors) => {
            report(input, &module, &errors);
            false
        }
    }
}

fn report(input: &Path, module: &brig::BrigModule<'_>, errors: &[ValidationError]) {
    for e in errors {
        eprintln!(
            "{}: {}",
            input.display(),
            hsail::validate::render(module, e)
        );
    }
    let n = errors.len();
    eprintln!(
        "{}: {n} error{} found",
        input.display(),
        if n == 1 { "" } else { "s" }
    );
}
