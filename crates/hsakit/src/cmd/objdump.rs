//! `hsakit objdump -d FILE`: an AMDGPU code object's executable sections
//! disassembled exactly as `llvm-objdump-19 -d FILE` prints them.

use std::path::PathBuf;
use std::process::ExitCode;

use amdgpu_object::disasm;
use amdgpu_object::read::CodeObject;
use anyhow::Context;

/// Arguments of `hsakit objdump`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Code object (ELF; relocatable or linked; gfx900, gfx906, gfx90a or
    /// gfx94x).
    input: PathBuf,
    /// Disassemble the executable sections (required for now).
    #[arg(short = 'd', long = "disassemble", required = true)]
    disassemble: bool,
}

/// Prints the disassembly; malformed ELF or an unsupported processor is
/// reported with its file offset.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    debug_assert!(args.disassemble);
    let bytes = super::read_input(&args.input)?;
    let co = CodeObject::parse(&bytes)
        .with_context(|| format!("{}: malformed code object", args.input.display()))?;
    // llvm-objdump names the file as it was given on the command line.
    let name = args.input.to_string_lossy();
    let text = disasm::objdump_d(&co, &name)
        .with_context(|| format!("{}: cannot disassemble", args.input.display()))?;
    super::write_output(std::path::Path::new("-"), text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
