//! `hsakit asm IN.hsail [-o OUT.brig] [--no-validate]`: HSAIL text to
//! BRIG.
//!
//! The module is validated by default: checked against the PRM's rules
//! (as `hsakit validate` does, after the assembler's own checks); when it
//! breaks one, every error is reported at its source position, nothing is
//! written and the exit status is 1. `--no-validate` skips that;
//! `--validate` is accepted (and does nothing) for compatibility.
//!
//! Built for big inputs: the file is read once into the one string the
//! assembler borrows from; validation reads the assembler's sections in
//! place, after the source is dropped (on errors the file is read and
//! assembled again, with a source map, to place them), and the module is
//! written straight from the sections (no copy of the whole module in
//! memory).

use std::io::Write;
use std::path::{Path, PathBuf};
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
    /// Validate the module (the default; kept for compatibility).
    #[arg(long, overrides_with = "no_validate")]
    validate: bool,
    /// Do not validate the module against the PRM's rules.
    #[arg(long, overrides_with = "validate")]
    no_validate: bool,
}

/// Assembles (and validates unless `--no-validate`); syntax and rule
/// errors go to stderr as `file:line:col: error: …`, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = args.input.display().to_string();
    let source = read_source(&args.input)?;
    let mut brig = match hsail::lower::assemble_to_writer(&source, &name) {
        Ok(brig) => brig,
        Err(diagnostics) => {
            eprint!("{diagnostics}");
            return Ok(ExitCode::from(1));
        }
    };
    drop(source);
    if !args.no_validate
        && let Err(errors) = hsail::validate::check_writer(&mut brig)
    {
        drop(brig);
        report_errors(&args.input, &name, &errors)?;
        return Ok(ExitCode::from(1));
    }
    let out = super::output_path(&args.input, args.output, "brig");
    write_brig(&out, brig)?;
    Ok(ExitCode::SUCCESS)
}

fn read_source(input: &Path) -> anyhow::Result<String> {
    let bytes = super::read_input(input)?;
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", input.display()))
}

/// Reports validation errors at their source positions: the source is
/// read and assembled again, recording where each entry comes from (the
/// happy path keeps no source map). Should the file have changed in the
/// meantime, the errors are reported at their BRIG locations.
fn report_errors(
    input: &Path,
    name: &str,
    errors: &[hsail::validate::ValidationError],
) -> anyhow::Result<()> {
    let source = read_source(input)?;
    match hsail::lower::assemble_validated(&source, name, true) {
        Err(diagnostics) => super::validate::report_text(name, &diagnostics),
        Ok(_) => {
            for e in errors {
                eprintln!("{name}: error: {e}");
            }
            let n = errors.len();
            eprintln!("{name}: {n} error{} found", if n == 1 { "" } else { "s" });
        }
    }
    Ok(())
}

/// Writes the module to `path`, or to stdout when `path` is `-`.
fn write_brig(path: &Path, brig: brig::BrigWriter) -> anyhow::Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        brig.write_to(&mut out).context("cannot write to stdout")?;
        return out.flush().context("cannot write to stdout");
    }
    let cannot = || format!("cannot write {}", path.display());
    let file = std::fs::File::create(path).with_context(cannot)?;
    brig.write_to(file).with_context(cannot)
}
