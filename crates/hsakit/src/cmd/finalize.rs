//! `hsakit finalize IN.(hsail|brig) --mcpu gfx90a [--code-object-version 5]
//! [--enable-detect-exceptions MASK] [-o OUT.co] [-S]`: the HSA finalizer (`hsail-finalizer`): HSAIL text or
//! BRIG to a loadable AMDGPU code object, or (`-S`) to assembly that
//! `hsakit as` turns into the same code object.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use hsail_finalizer::{Finalized, Options};

/// Arguments of `hsakit finalize`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// HSAIL text (`.hsail`) or BRIG (anything else).
    input: PathBuf,
    /// Processor: gfx900 or gfx90a (with optional target-ID features).
    #[arg(long, default_value = "gfx90a")]
    mcpu: String,
    /// Code object version (4 or 5).
    #[arg(long, default_value_t = 5)]
    code_object_version: u32,
    /// Output file (default: the input with extension `.co`, or `.s` with
    /// `-S`; `-` for stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write assembly instead of a code object.
    #[arg(short = 'S')]
    assembly: bool,
    /// Call stack bytes per work-item for kernels with recursion or
    /// `alloca` beyond their frame (default 16384).
    #[arg(long, default_value_t = hsail_finalizer::DEFAULT_STACK_SIZE)]
    stack_size: u32,
    /// Exceptions to enable for the DETECT policy in every kernel, as
    /// `enabledetectexceptions` would (bit 0 INVALID_OPERATION, 1
    /// DIVIDE_BY_ZERO, 2 OVERFLOW, 3 UNDERFLOW, 4 INEXACT; decimal or 0x…).
    #[arg(long, value_parser = parse_mask, default_value = "0")]
    enable_detect_exceptions: u32,
}

/// A DETECT exception mask: decimal or `0x` hexadecimal, bits 0..4.
fn parse_mask(s: &str) -> Result<u32, String> {
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => s.parse(),
    }
    .map_err(|e| format!("`{s}` is not a number: {e}"))?;
    if v > 0x1f {
        return Err(format!("`{s}` has bits beyond the five exceptions (0x1f)"));
    }
    Ok(v)
}

/// Finalizes the file at `path` (HSAIL text if it ends in `.hsail`, else
/// BRIG) for `mcpu`, code object `version`.
pub fn finalize_file(path: &Path, mcpu: &str, version: u32) -> anyhow::Result<Finalized> {
    let mut opts = Options::new(mcpu)?;
    opts.code_object_version = version;
    finalize_with(path, &opts)
}

/// Finalizes the file at `path` with `opts`.
fn finalize_with(path: &Path, opts: &Options) -> anyhow::Result<Finalized> {
    let bytes = super::read_input(path)?;
    let result = if path.extension().is_some_and(|e| e == "hsail") {
        let text = String::from_utf8(bytes)
            .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
        hsail_finalizer::finalize_text(&text, &path.display().to_string(), opts)
    } else {
        hsail_finalizer::finalize_brig(&bytes, opts)
    };
    result.map_err(|e| anyhow::anyhow!("{e}"))
}

/// Finalizes; errors go to stderr, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = Options::new(&args.mcpu).map(|mut o| {
        o.code_object_version = args.code_object_version;
        o.stack_size = args.stack_size;
        o.detect_exceptions = args.enable_detect_exceptions;
        o
    });
    let out = match opts
        .map_err(anyhow::Error::from)
        .and_then(|o| finalize_with(&args.input, &o))
    {
        Ok(out) => out,
        Err(e) => {
            eprint!("{e}");
            if !e.to_string().ends_with('\n') {
                eprintln!();
            }
            return Ok(ExitCode::from(1));
        }
    };
    if args.assembly {
        let path = super::output_path(&args.input, args.output, "s");
        super::write_output(&path, out.asm.as_bytes())?;
    } else {
        let path = super::output_path(&args.input, args.output, "co");
        super::write_output(&path, &out.code_object)?;
    }
    Ok(ExitCode::SUCCESS)
}
