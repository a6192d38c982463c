//! `hsakit as IN.s --mcpu gfx90a[:features] [-o OUT.co] [-c] [--show-encoding]`:
//! AMDGPU (GFX9) assembly to a loadable code object — what
//! `llvm-mc -triple=amdgcn-amd-amdhsa -filetype=obj` followed by
//! `ld.lld -shared` gives. See `amdgpu_object::asm`.

use std::path::PathBuf;
use std::process::ExitCode;

use amdgpu_object::asm::{Options, assemble, assemble_object};
use amdgpu_object::target::TargetId;
use anyhow::Context;

/// Arguments of `hsakit as`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Assembly source file.
    input: PathBuf,
    /// Processor with optional target-ID features, e.g. `gfx90a:xnack-`.
    #[arg(long)]
    mcpu: String,
    /// Output code object (default: the input with extension `.co`, or `.o`
    /// with `-c`; `-` for stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Stop at a relocatable object (`ET_REL`), as `llvm-mc -filetype=obj`.
    #[arg(short = 'c')]
    compile_only: bool,
    /// Print each instruction with its encoding, as `llvm-mc -show-encoding`,
    /// instead of writing a file.
    #[arg(long)]
    show_encoding: bool,
}

/// Assembles; errors go to stderr as `file:line:col: error: …`, exit 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target = TargetId::parse(&args.mcpu)
        .map_err(|e| anyhow::anyhow!("invalid --mcpu {}: {e}", args.mcpu))?;
    let bytes = super::read_input(&args.input)?;
    let source = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", args.input.display()))?;
    let opts = Options {
        target,
        file_name: args.input.display().to_string(),
    };
    let assembled = if args.show_encoding {
        assemble(&source, &opts)
    } else {
        assemble_object(&source, &opts)
    };
    let assembly = match assembled {
        Ok(a) => a,
        Err(errors) => {
            eprint!("{errors}");
            return Ok(ExitCode::from(1));
        }
    };
    if args.show_encoding {
        super::write_output(std::path::Path::new("-"), assembly.listing.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (result, ext) = if args.compile_only {
        (assembly.object(), "o")
    } else {
        (
            assembly.link(concat!("hsakit ", env!("CARGO_PKG_VERSION"))),
            "co",
        )
    };
    match result {
        Ok(co) => {
            let out = super::output_path(&args.input, args.output, ext);
            super::write_output(&out, &co)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            eprint!("{errors}");
            Ok(ExitCode::from(1))
        }
    }
}
