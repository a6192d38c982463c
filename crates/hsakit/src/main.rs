//! `hsakit`: the one command line of the HSA system for AMD GPUs.
//!
//! Each subcommand lives in its own file under `cmd/` and is a thin shell
//! over a library crate: `asm`/`disasm`/`validate` over `hsail`, `brig-dump` over
//! `brig`, `as`/`objdump`/`readobj` over
//! `amdgpu-object`. Library errors carry their location; this binary only turns them
//! into messages on stderr and exit codes (0 success, 1 bad input, 2 usage).

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The HSA system for AMD GPUs: HSAIL, BRIG and (soon) AMDGPU code objects.
#[derive(Debug, Parser)]
#[command(name = "hsakit", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Assemble HSAIL text into a BRIG module (byte-identical to HSAILasm).
    Asm(cmd::asm::Args),
    /// Check HSAIL text or BRIG against the PRM's rules.
    Validate(cmd::validate::Args),
    /// Disassemble a BRIG module into canonical HSAIL text.
    Disasm(cmd::disasm::Args),
    /// List every entry of a BRIG module with its section and offset.
    BrigDump(cmd::brig_dump::Args),
    /// Assemble AMDGPU (GFX9) assembly into a code object, as llvm-mc + ld.lld -shared.
    As(cmd::as_::Args),
    /// Disassemble an AMDGPU code object exactly as llvm-objdump-19 -d.
    Objdump(cmd::objdump::Args),
    /// Show an AMDGPU code object: header, sections, symbols, notes, kernels.
    Readobj(cmd::readobj::Args),
    /// Finalize HSAIL text or BRIG into an AMDGPU code object (or assembly).
    Finalize(cmd::finalize::Args),
    /// Run a kernel of a code object on the emulated GPU through the HSA runtime.
    Run(cmd::run::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Asm(args) => cmd::asm::run(args),
        Command::Validate(args) => cmd::validate::run(args),
        Command::Disasm(args) => cmd::disasm::run(args),
        Command::BrigDump(args) => cmd::brig_dump::run(args),
        Command::As(args) => cmd::as_::run(args),
        Command::Objdump(args) => cmd::objdump::run(args),
        Command::Readobj(args) => cmd::readobj::run(args),
        Command::Finalize(args) => cmd::finalize::run(args),
        Command::Run(args) => cmd::run::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("hsakit: error: {err:#}");
            ExitCode::from(1)
        }
    }
}
