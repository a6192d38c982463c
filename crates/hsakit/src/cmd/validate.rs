//! `hsakit validate FILE`: checks an HSAIL text or BRIG module against the
//! PRM's rules; exit status 0 when valid, 1 with every independent error
//! listed when not.
//!
//! Text input is assembled without the assembler's own instruction checks
//! (so the validator sees and reports every rule) while recording a source
//! map: errors print as `file:line:col: error: PRM x.y: …` with the source
//! line and a caret at the offending statement or operand, and integer
//! constants that do not fit their type (PRM 4.8) are reported too. BRIG
//! input gets each error's section and offset and a dump of the entry.

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
        let name = args.input.display().to_string();
        return Ok(
            match hsail::lower::assemble_validated(&source, &name, false) {
                Ok(_) => ExitCode::SUCCESS,
                Err(diagnostics) => {
                    report_text(&name, &diagnostics);
                    ExitCode::from(1)
                }
            },
        );
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

/// Prints text-input errors (assembler or validator) and their count.
pub fn report_text(name: &str, diagnostics: &hsail::Diagnostics) {
    eprintln!("{diagnostics}");
    let n = diagnostics.len();
    eprintln!("{name}: {n} error{} found", if n == 1 { "" } else { "s" });
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
