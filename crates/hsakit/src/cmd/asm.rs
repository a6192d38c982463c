//! `hsakit asm IN.hsail [-o OUT.brig] [--validate|--no-validate]`: HSAIL
//! text to BRIG.
//!
//! `--validate` also checks the module against the PRM's rules (as `hsakit
//! validate` does, after the assembler's own checks) and writes nothing
//! when it breaks one; `--no-validate` (the default for now) does not.
//!
//! Built for big inputs: the file is read once into the one string the
//! assembler borrows from, and the module is written straight from the
//! assembler's sections (no copy of the whole module in memory).

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
    /// Validate the module (PRM rules); on errors write nothing, exit 1.
    #[arg(long, overrides_with = "no_validate")]
    validate: bool,
    /// Do not validate (the default).
    #[arg(long, overrides_with = "validate")]
    no_validate: bool,
}

/// Assembles; syntax errors go to stderr as `file:line:col: error: …`, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let source = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", args.input.display()))?;
    let name = args.input.display().to_string();
    if args.validate && !args.no_validate {
        return match hsail::lower::assemble_validated(&source, &name, true) {
            Ok(brig) => {
                drop(source);
                let out = super::output_path(&args.input, args.output, "brig");
                super::write_output(&out, &brig)?;
                Ok(ExitCode::SUCCESS)
            }
            Err(diagnostics) => {
                super::validate::report_text(&name, &diagnostics);
                Ok(ExitCode::from(1))
            }
        };
    }
    match hsail::lower::assemble_to_writer(&source, &name) {
        Ok(brig) => {
            drop(source);
            let out = super::output_path(&args.input, args.output, "brig");
            write_brig(&out, brig)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(diagnostics) => {
            eprint!("{diagnostics}");
            Ok(ExitCode::from(1))
        }
    }
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
