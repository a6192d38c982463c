//! The HSA finalizer: HSAIL kernels (BRIG, or text assembled first) to
//! AMDGPU code objects (v4/v5) for GFX9 (gfx900, gfx90a).
//!
//! ```text
//!  HSAIL text ─hsail::lower─► BRIG ─hsail::validate─► ModuleInfo
//!                                   │
//!       lower (this crate): per kernel, kernarg layout, ABI registers
//!       (amdgpu_object::abi::WaveLayout), HSAIL instructions → machine IR
//!                                   │
//!       amdgpu_codegen::compile: EXEC lowering, regalloc, waitcnt, encode
//!                                   │
//!       descriptor (amdgpu_object::directives) + v5 metadata
//!       → amdgpu_object::write::write_code_object
//! ```
//!
//! Both machine models: in `$small` modules global, readonly, kernarg and
//! flat addresses are 32-bit (zero-extended; flat ones map windows onto
//! group and private memory, see `lower/private.rs`), so the HSA system
//! running them must keep all memory below 4 GiB
//! ([`Finalized::small_model`]; `hsa_runtime::MachineModel::Small`).
//!
//! Kernels, with the functions they call inlined, except recursive ones,
//! which become machine functions of the kernel's code called on a per
//! work-item stack (`lower/machine.rs`, `amdgpu_codegen::calls`); `icall`
//! over the module's indirect functions, `alloca` in frames. All values in
//! VGPRs, divergent control flow through EXEC masks. Anything else is an
//! [`Error::Unsupported`] naming the instruction and where it is.

mod lower;

use amdgpu_isa::gfx9::Target;
use amdgpu_object::Metadata;
use amdgpu_object::directives::KernelDirectives;
use amdgpu_object::metadata::{Kernel, KernelArg, ValueKind};
use amdgpu_object::target::TargetId;
use amdgpu_object::write::{KernelInput, WriteOptions, write_code_object};
use brig::{BrigModule, BrigSectionIndex};

/// What to finalize for.
#[derive(Debug, Clone)]
pub struct Options {
    /// Processor (gfx900 or gfx90a, with features).
    pub target: TargetId,
    /// 4 or 5.
    pub code_object_version: u32,
    /// Bytes of call stack per work-item for kernels that make real
    /// (recursive or indirect) calls.
    pub stack_size: u32,
    /// Exceptions enabled for the DETECT policy in every kernel, besides
    /// its `enabledetectexceptions` directives (PRM 11.2, 13.4; bit 0
    /// INVALID_OPERATION … bit 4 INEXACT).
    pub detect_exceptions: u32,
}

/// The default [`Options::stack_size`]: 16 KiB per work-item.
pub const DEFAULT_STACK_SIZE: u32 = 16 * 1024;

impl Options {
    /// Options for a processor name such as `gfx90a`, code object v5.
    pub fn new(mcpu: &str) -> Result<Options> {
        let target = TargetId::parse(mcpu).map_err(|e| Error::Target {
            message: format!("invalid processor `{mcpu}`: {e}"),
        })?;
        Ok(Options {
            target,
            code_object_version: 5,
            stack_size: DEFAULT_STACK_SIZE,
            detect_exceptions: 0,
        })
    }
}

/// A finalizer error. Messages end with where (`file:line:col` and the
/// source line for text input, `hsa_code offset 0x…` for BRIG).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input does not assemble or validate (the diagnostics, rendered).
    #[error("{0}")]
    Invalid(String),
    /// An instruction or feature outside what the finalizer supports yet.
    #[error("{location}: error: {what} is not supported by the finalizer yet\n{snippet}")]
    Unsupported {
        /// What (`instruction div_f32`, …).
        what: String,
        /// `file:line:col` or `hsa_code offset 0x…`.
        location: String,
        /// The source line and a caret (empty for BRIG input).
        snippet: String,
    },
    /// Code generation failed.
    #[error("kernel {kernel}: {source}")]
    Codegen {
        /// The kernel.
        kernel: String,
        /// The back end's error.
        source: amdgpu_codegen::Error,
    },
    /// Bad target or code object version.
    #[error("{message}")]
    Target {
        /// What is wrong.
        message: String,
    },
    /// Writing the code object failed.
    #[error("{message}")]
    Object {
        /// What is wrong.
        message: String,
    },
}

/// The result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// A finalized module.
#[derive(Debug, Clone)]
pub struct Finalized {
    /// The loadable code object.
    pub code_object: Vec<u8>,
    /// The same as an assembly file `hsakit as` turns into the same bytes.
    pub asm: String,
    /// Kernel symbol names (without `&`), in module order.
    pub kernels: Vec<String>,
    /// The module is `$small`: its kernels take 32-bit global addresses,
    /// so everything they reach (kernarg segment, buffers, `.data`, the
    /// dispatch packet) must lie below 4 GiB (an HSA system in the small
    /// machine model). The code object itself does not record this.
    pub small_model: bool,
}

/// Where BRIG code entries come from, for error messages.
pub(crate) struct Locator<'a> {
    source: Option<(&'a str, &'a str, hsail::lower::SourceMap)>,
}

impl Locator<'_> {
    pub(crate) fn unsupported(&self, what: String, offset: u32) -> Error {
        let Some((text, file, map)) = &self.source else {
            return Error::Unsupported {
                what,
                location: format!("hsa_code offset {offset:#x}"),
                snippet: String::new(),
            };
        };
        let Some(span) = map.span_of(BrigSectionIndex::CODE, offset, None) else {
            return Error::Unsupported {
                what,
                location: format!("{file}: hsa_code offset {offset:#x}"),
                snippet: String::new(),
            };
        };
        let start = span.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |p| start + p);
        let line = text[..start].matches('\n').count() + 1;
        let col = text[line_start..start].chars().count() + 1;
        let src = &text[line_start..line_end];
        let pad: String = src
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        Error::Unsupported {
            what,
            location: format!("{file}:{line}:{col}"),
            snippet: format!("{src}\n{pad}^"),
        }
    }
}

/// Assembles, validates and finalizes HSAIL text.
pub fn finalize_text(source: &str, file_name: &str, opts: &Options) -> Result<Finalized> {
    let (brig, map) = hsail::lower::assemble_with_map(source, file_name, true)
        .map_err(|d| Error::Invalid(d.to_string()))?;
    if let Err(errors) = hsail::validate::validate_bytes(&brig) {
        let span_of = |section, offset, operand| map.span_of(section, offset, operand);
        let mut d = hsail::validate::to_diagnostics(&errors, &span_of, file_name, source);
        d.0.sort_by_key(|d| d.span.start);
        return Err(Error::Invalid(d.to_string()));
    }
    let loc = Locator {
        source: Some((source, file_name, map)),
    };
    finalize_with(&brig, &loc, opts)
}

/// Validates and finalizes a BRIG module.
pub fn finalize_brig(bytes: &[u8], opts: &Options) -> Result<Finalized> {
    finalize_with(bytes, &Locator { source: None }, opts)
}

fn finalize_with(bytes: &[u8], loc: &Locator<'_>, opts: &Options) -> Result<Finalized> {
    let module = BrigModule::parse(bytes).map_err(|e| Error::Invalid(e.to_string()))?;
    let info = hsail::validate::validate(&module).map_err(|errors| {
        Error::Invalid(
            errors
                .iter()
                .map(|e| hsail::validate::render(&module, e))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let target = Target::from_processor(opts.target.processor.name)
        .filter(|t| matches!(t, Target::Gfx900 | Target::Gfx90a))
        .ok_or_else(|| Error::Target {
            message: format!(
                "processor {} is not supported by the finalizer (gfx900, gfx90a)",
                opts.target.processor.name
            ),
        })?;
    if !(4..=5).contains(&opts.code_object_version) {
        return Err(Error::Target {
            message: format!(
                "code object version {} (the finalizer writes 4 or 5)",
                opts.code_object_version
            ),
        });
    }

    let data = lower::module_data(&module, &info, loc)?;
    let job = lower::KernelJob {
        m: &module,
        info: &info,
        data: &data,
        loc,
        opts,
        t: target,
    };
    let mut kernels = Vec::new();
    // Functions are compiled only where kernels call them (inlined).
    for cb in &info.code_blocks {
        if cb.kind != hsail::validate::SymbolKind::Kernel {
            continue;
        }
        kernels.push(lower::lower_kernel(&job, cb)?);
    }
    if kernels.is_empty() {
        return Err(Error::Invalid("the module defines no kernel".into()));
    }

    // Descriptors and metadata.
    let mut descriptors = Vec::new();
    let mut meta_kernels = Vec::new();
    let mut directive_text = Vec::new();
    for k in &kernels {
        let dirs = directives(k, opts);
        let mut kd = KernelDirectives::new();
        for (name, value) in &dirs {
            kd.set(name, *value, &opts.target)
                .map_err(|message| Error::Object { message })?;
        }
        let desc = kd
            .build(&opts.target)
            .map_err(|message| Error::Object { message })?;
        descriptors.push(desc);
        directive_text.push(dirs);
        let extra = if target == Target::Gfx90a || target == Target::Gfx900 {
            6
        } else {
            2
        };
        meta_kernels.push(Kernel {
            agpr_count: (target == Target::Gfx90a).then_some(0),
            args: Some(
                k.args
                    .iter()
                    .map(|a| {
                        let mut arg = KernelArg::new(ValueKind::ByValue, a.offset, a.size);
                        arg.name = Some(a.name.clone());
                        arg
                    })
                    .collect(),
            ),
            device_enqueue_symbol: None,
            group_segment_fixed_size: u64::from(k.group_size),
            kernarg_segment_align: u64::from(k.kernarg_align.max(4)),
            kernarg_segment_size: u64::from(k.kernarg_size),
            kind: None,
            language: None,
            language_version: None,
            max_flat_workgroup_size: 1024,
            max_num_workgroups_x: None,
            max_num_workgroups_y: None,
            max_num_workgroups_z: None,
            name: k.name.clone(),
            private_segment_fixed_size: u64::from(k.compiled.private_size),
            reqd_workgroup_size: None,
            sgpr_count: u64::from(k.compiled.next_free_sgpr) + extra,
            sgpr_spill_count: Some(0),
            symbol: format!("{}.kd", k.name),
            uniform_work_group_size: None,
            uses_dynamic_stack: Some(k.dynamic_stack),
            vec_type_hint: None,
            vgpr_count: u64::from(k.compiled.next_free_vgpr.max(1)),
            vgpr_spill_count: Some(0),
            wavefront_size: 64,
            workgroup_processor_mode: None,
            workgroup_size_hint: None,
        });
    }
    let metadata = Metadata {
        kernels: meta_kernels,
        printf: None,
        target: Some(opts.target.to_string()),
        version: Metadata::version_for(opts.code_object_version),
    };

    let mut wo = WriteOptions::new(opts.target.clone(), opts.code_object_version);
    wo.metadata = Some(metadata.clone());
    wo.kd_visibility = vec![amdgpu_object::elf::STV_DEFAULT; kernels.len()];
    // The symbol order `-S` text gets from an assembler and ld.lld: every
    // kernel's code symbol, then every descriptor (the text prints all
    // kernels, then all `.amdhsa_kernel` blocks).
    wo.symbol_order = (0..kernels.len())
        .map(|i| 2 * i)
        .chain((0..kernels.len()).map(|i| 2 * i + 1))
        .collect();
    wo.data = data.bytes.clone();
    wo.data_align = u64::from(data.align);
    let mut code_object = write(&kernels, &descriptors, &wo)?;
    if !data.bytes.is_empty() {
        // Now that the layout is known, fill in the PC-relative addresses
        // of the variables (same sizes, same layout) and write again.
        let (code_vas, data_va) = layout(&code_object, &kernels)?;
        for (k, va) in kernels.iter_mut().zip(code_vas) {
            k.compiled.relocate(va, data_va);
        }
        code_object = write(&kernels, &descriptors, &wo)?;
    }

    // The same as assembly.
    let mut asm = String::new();
    asm.push_str(&format!(".amdgcn_target \"{}\"\n", opts.target));
    asm.push_str(&format!(
        ".amdhsa_code_object_version {}\n",
        opts.code_object_version
    ));
    asm.push_str(".text\n");
    for k in &kernels {
        asm.push_str(&format!(
            ".p2align 8\n.globl {n}\n.type {n},@function\n{n}:\n",
            n = k.name
        ));
        asm.push_str(&k.compiled.asm);
        asm.push_str(&format!(
            ".L{n}_end:\n.size {n}, .L{n}_end-{n}\n",
            n = k.name
        ));
    }
    asm.push_str(".rodata\n");
    for (k, dirs) in kernels.iter().zip(&directive_text) {
        asm.push_str(&format!(".p2align 6\n.amdhsa_kernel {}\n", k.name));
        for (name, value) in dirs {
            asm.push_str(&format!("  .amdhsa_{name} {value}\n"));
        }
        asm.push_str(".end_amdhsa_kernel\n");
    }
    if !data.bytes.is_empty() {
        asm.push_str(&format!(
            ".data\n.p2align {}\n",
            data.align.trailing_zeros()
        ));
        for line in data.bytes.chunks(16) {
            let bytes: Vec<String> = line.iter().map(|b| b.to_string()).collect();
            asm.push_str(&format!("\t.byte {}\n", bytes.join(", ")));
        }
    }
    asm.push_str(".amdgpu_metadata\n");
    asm.push_str(&metadata.to_yaml());
    asm.push_str(".end_amdgpu_metadata\n");

    Ok(Finalized {
        code_object,
        asm,
        kernels: kernels.iter().map(|k| k.name.clone()).collect(),
        small_model: info.machine_model == brig::BrigMachineModel::SMALL,
    })
}

/// Writes the code object of `kernels`.
fn write(
    kernels: &[lower::LoweredKernel],
    descriptors: &[amdgpu_object::kd::kernel_descriptor_t],
    wo: &WriteOptions,
) -> Result<Vec<u8>> {
    let inputs: Vec<KernelInput<'_>> = kernels
        .iter()
        .zip(descriptors)
        .map(|(k, d)| KernelInput {
            name: &k.name,
            code: &k.compiled.code,
            descriptor: *d,
        })
        .collect();
    write_code_object(&inputs, wo).map_err(|e| Error::Object {
        message: e.to_string(),
    })
}

/// Where a written code object put each kernel's code and `.data`.
fn layout(co: &[u8], kernels: &[lower::LoweredKernel]) -> Result<(Vec<u64>, u64)> {
    let object_err = |message: String| Error::Object { message };
    let parsed =
        amdgpu_object::read::CodeObject::parse(co).map_err(|e| object_err(e.to_string()))?;
    let data_va = parsed
        .section(".data")
        .map(|s| s.addr)
        .ok_or_else(|| object_err("the code object has no .data section".into()))?;
    let code = kernels
        .iter()
        .map(|k| {
            parsed
                .symbols
                .iter()
                .find(|s| s.name == k.name)
                .map(|s| s.value)
                .ok_or_else(|| object_err(format!("no symbol for kernel {}", k.name)))
        })
        .collect::<Result<Vec<u64>>>()?;
    Ok((code, data_va))
}

/// The `.amdhsa_` directives of a kernel (name without prefix, value).
fn directives(k: &lower::LoweredKernel, opts: &Options) -> Vec<(&'static str, u64)> {
    let u = &k.uses;
    let scratch = k.compiled.private_size > 0;
    let mut d = vec![
        ("group_segment_fixed_size", u64::from(k.group_size)),
        (
            "private_segment_fixed_size",
            u64::from(k.compiled.private_size),
        ),
        ("kernarg_size", u64::from(k.kernarg_size)),
        ("user_sgpr_dispatch_ptr", u64::from(u.dispatch_ptr)),
        ("user_sgpr_kernarg_segment_ptr", u64::from(u.kernarg_ptr)),
        ("user_sgpr_dispatch_id", u64::from(u.dispatch_id)),
        ("user_sgpr_flat_scratch_init", u64::from(scratch)),
        (
            "system_sgpr_private_segment_wavefront_offset",
            u64::from(scratch),
        ),
        ("system_sgpr_workgroup_id_x", 1),
        (
            "system_sgpr_workgroup_id_y",
            u64::from(u.workgroup_id_dims >= 2),
        ),
        (
            "system_sgpr_workgroup_id_z",
            u64::from(u.workgroup_id_dims >= 3),
        ),
        (
            "system_vgpr_workitem_id",
            u64::from(u.workitem_id_dims.max(1) - 1),
        ),
        (
            "next_free_vgpr",
            u64::from(k.compiled.next_free_vgpr.max(1)),
        ),
        (
            "next_free_sgpr",
            u64::from(k.compiled.next_free_sgpr.max(1)),
        ),
    ];
    if opts.target.processor.name == "gfx90a" {
        d.push((
            "accum_offset",
            u64::from(k.compiled.next_free_vgpr.max(1)).next_multiple_of(4),
        ));
    }
    // The kernel's default float mode (module rounding; the full profile
    // keeps denormals, the base profile flushes them): see lower/mode.rs.
    let m = k.mode;
    d.push(("float_round_mode_32", u64::from(m.round32)));
    d.push(("float_round_mode_16_64", u64::from(m.round16_64)));
    d.push(("float_denorm_mode_32", u64::from(m.denorm32)));
    d.push(("float_denorm_mode_16_64", u64::from(m.denorm16_64)));
    if k.dynamic_stack {
        d.push(("uses_dynamic_stack", 1));
    }
    d
}
