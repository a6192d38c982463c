//! `hsakit readobj FILE`: an AMDGPU code object as LLVM's tools show it —
//! ELF header with decoded e_flags, section and program headers, symbols,
//! notes with metadata as YAML, and every kernel descriptor field by field.

use std::path::PathBuf;
use std::process::ExitCode;

use amdgpu_object::print;
use amdgpu_object::read::CodeObject;
use anyhow::Context;

/// One view of a code object, as text.
type View = fn(&CodeObject<'_>) -> String;

/// Arguments of `hsakit readobj`. With no view selected, all are shown.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Code object (ELF, v2 to v6; relocatable or linked).
    input: PathBuf,
    /// ELF file header, as `llvm-readelf-19 -h`.
    #[arg(long = "file-header", short = 'H')]
    header: bool,
    /// Section headers, as `llvm-readelf-19 -S`.
    #[arg(long = "sections", short = 'S')]
    sections: bool,
    /// Program headers, as `llvm-readelf-19 -l`.
    #[arg(long = "segments", short = 'l')]
    segments: bool,
    /// Symbol tables, as `llvm-readelf-19 -s`.
    #[arg(long = "symbols", short = 's')]
    symbols: bool,
    /// Notes with the metadata as YAML, as `llvm-readelf-19 --notes`.
    #[arg(long = "notes", short = 'n')]
    notes: bool,
    /// Kernel descriptors as `.amdhsa_*` directives, as
    /// `llvm-objdump-19 -D --disassemble-symbols=K.kd`.
    #[arg(long = "kernels", short = 'k')]
    kernels: bool,
    /// Kernel descriptors field by field (`kernel_descriptor_t`: offset,
    /// field, value).
    #[arg(long = "kd-fields", short = 'F')]
    kd_fields: bool,
}

/// Prints the selected views; malformed ELF is reported with its offset.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = super::read_input(&args.input)?;
    let co = CodeObject::parse(&bytes)
        .with_context(|| format!("{}: malformed code object", args.input.display()))?;
    let all = !(args.header
        || args.sections
        || args.segments
        || args.symbols
        || args.notes
        || args.kernels
        || args.kd_fields);
    let views: [(bool, View); 7] = [
        (args.header, print::readelf_header),
        (args.sections, print::readelf_sections),
        (args.segments, print::readelf_segments),
        (args.symbols, print::readelf_symbols),
        (args.notes, print::readelf_notes),
        (args.kd_fields, print::kernel_descriptor_fields),
        (args.kernels, print::kernel_descriptors),
    ];
    let mut out = String::new();
    for (selected, view) in views {
        if all || selected {
            out.push_str(&view(&co));
        }
    }
    super::write_output(std::path::Path::new("-"), out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
