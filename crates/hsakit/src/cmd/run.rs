//! `hsakit run FILE --kernel NAME --grid X[,Y[,Z]] --group X[,Y[,Z]]
//! [--arg SPEC]... [--out N=PATH]... [--stats[=json]] [--threads N]
//! [--mcpu X] [--machine-model small|large]`: runs one kernel of a code
//! object (or of an HSAIL module, finalized first) on the emulated GPU
//! through the HSA runtime, as an HSA application would: load the
//! executable, create a queue, put the kernarg segment in the kernarg
//! region, submit a dispatch packet with a completion signal, wait for
//! it, and check the queue for errors.
//!
//! Argument specs, one per explicit kernel argument, in order:
//! `buf=PATH` (a global buffer holding the file's bytes), `zeros=BYTES`
//! (a zero-filled global buffer), `local=BYTES` (a dynamic group-segment
//! buffer: the argument is its offset in the group segment, past the
//! kernel's static group variables and the earlier `local=` buffers,
//! 16-byte aligned; for a dynamic local pointer of OpenCL or a `u32`
//! argument of HSAIL, PRM 4.20), and scalars
//! `u32=V`, `i32=V`, `u64=V`, `i64=V` (decimal or `0x` hex), `f32=V`,
//! `f64=V`. Each is checked against the kernel's metadata.
//!
//! A kernel that uses OpenCL `printf` (its metadata lists
//! `hidden_printf_buffer`) gets a printf buffer; after the dispatch the
//! records are formatted with the code object's `amdhsa.printf` formats
//! and printed to stdout in buffer order, as ROCm's runtime does.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use amdgpu_object::CodeObject;
use amdgpu_object::metadata::{KernelArg, ValueKind};
use anyhow::{Context, anyhow, bail};
use hsa_runtime::system::GROUP_SEGMENT_SIZE;
use hsa_runtime::{
    Condition, DispatchPacket, Error, Executable, Geometry, HiddenValues, KernargBuilder,
    MachineModel, PrintfBuffer, Queue, Region, Signal, Stats, System, describe_arg, printf,
};

/// Arguments of `hsakit run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Code object (ELF `ET_DYN`, as ld.lld -shared or clang makes it).
    input: PathBuf,
    /// Kernel to run (with or without `.kd` or HSAIL's `&`). Without
    /// --kernel and --arg, runs the bundled example's `vec_add` on built-in
    /// inputs and checks the result.
    #[arg(long)]
    kernel: Option<String>,
    /// Grid size in work-items: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]")]
    grid: Option<String>,
    /// Work-group size: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]")]
    group: Option<String>,
    /// One explicit kernel argument, in order: buf=PATH, zeros=BYTES,
    /// local=BYTES (dynamic group memory; passes its group offset),
    /// u32=V, i32=V, u64=V, i64=V, f32=V, f64=V.
    #[arg(long = "arg", value_name = "SPEC")]
    args: Vec<String>,
    /// Write the final contents of buffer argument N (0-based) to PATH.
    #[arg(long = "out", value_name = "N=PATH")]
    outs: Vec<String>,
    /// Print execution statistics (`--stats=json`: as one JSON object).
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "text"
    )]
    stats: Option<String>,
    /// Host threads running work-groups (default: the host's CPUs).
    #[arg(long)]
    threads: Option<usize>,
    /// Processor of the emulated GPU (default: the code object's).
    #[arg(long)]
    mcpu: Option<String>,
    /// Machine model of the HSA system: `small` keeps all memory below
    /// 4 GiB, for kernels with 32-bit addresses (default: the HSAIL
    /// module's; `large` for code objects, which do not record it).
    #[arg(long, value_name = "small|large")]
    machine_model: Option<String>,
    /// Stop the dispatch with a fault when a wave has executed this many
    /// instructions (a runaway kernel; each `s_sleep` unit counts as 64).
    #[arg(long, value_name = "INSTRUCTIONS", default_value_t = amdgpu_emu::dispatch::DEFAULT_WATCHDOG)]
    watchdog: u64,
}

/// One `--arg`.
#[derive(Debug, Clone, PartialEq)]
enum Spec {
    Buf(PathBuf),
    Zeros(u64),
    Local(u64),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
}

fn parse_u64(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

fn parse_i64(text: &str) -> Option<i64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mag = parse_u64(body)?;
    if neg {
        0i64.checked_sub_unsigned(mag)
    } else {
        i64::try_from(mag).ok()
    }
}

impl Spec {
    fn parse(text: &str) -> anyhow::Result<Spec> {
        let (kind, value) = text.split_once('=').ok_or_else(|| {
            anyhow!("bad --arg `{text}`: expected KIND=VALUE (buf=PATH, zeros=BYTES, local=BYTES, u32=V, i32=V, u64=V, i64=V, f32=V, f64=V)")
        })?;
        let bad = |what: &str| anyhow!("bad --arg `{text}`: `{value}` is not {what}");
        Ok(match kind {
            "buf" => Spec::Buf(PathBuf::from(value)),
            "zeros" => Spec::Zeros(parse_u64(value).ok_or_else(|| bad("a byte count"))?),
            "local" => Spec::Local(parse_u64(value).ok_or_else(|| bad("a byte count"))?),
            "u32" => Spec::U32(
                parse_u64(value)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| bad("a 32-bit unsigned integer"))?,
            ),
            "i32" => Spec::I32(
                parse_i64(value)
                    .and_then(|v| i32::try_from(v).ok())
                    .ok_or_else(|| bad("a 32-bit signed integer"))?,
            ),
            "u64" => Spec::U64(parse_u64(value).ok_or_else(|| bad("a 64-bit unsigned integer"))?),
            "i64" => Spec::I64(parse_i64(value).ok_or_else(|| bad("a 64-bit signed integer"))?),
            "f32" => Spec::F32(value.parse().map_err(|_| bad("a number"))?),
            "f64" => Spec::F64(value.parse().map_err(|_| bad("a number"))?),
            other => bail!(
                "bad --arg `{text}`: unknown kind `{other}` (expected buf, zeros, local, u32, i32, u64, i64, f32 or f64)"
            ),
        })
    }

    fn is_buffer(&self) -> bool {
        matches!(self, Spec::Buf(_) | Spec::Zeros(_))
    }
}

/// Parses `X[,Y[,Z]]`, each in `1..=max`.
fn parse_dims(option: &str, text: &str, max: u64) -> anyhow::Result<Vec<u64>> {
    let dims: Vec<u64> = text
        .split(',')
        .map(|p| {
            parse_u64(p.trim())
                .filter(|&v| v >= 1 && v <= max)
                .ok_or_else(|| {
                    anyhow!("bad {option} `{text}`: `{p}` is not an integer in 1..={max}")
                })
        })
        .collect::<anyhow::Result<_>>()?;
    if dims.len() > 3 {
        bail!("bad {option} `{text}`: at most 3 dimensions");
    }
    Ok(dims)
}

/// A buffer argument's device allocation.
struct Buffer {
    address: u64,
    len: usize,
}

/// Loads, dispatches, waits, writes outputs and prints statistics.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.kernel.is_none() && args.args.is_empty() {
        return example(args);
    }
    let required = |v: &Option<String>, what: &str| {
        v.clone().ok_or_else(|| {
            anyhow!(
                "{what} is required (without --kernel and --arg, `hsakit run` runs the \
                 bundled example's vec_add on built-in inputs)"
            )
        })
    };
    let kernel_name = required(&args.kernel, "--kernel")?;
    let grid_text = required(&args.grid, "--grid")?;
    let group_text = required(&args.group, "--group")?;
    // HSAIL text or BRIG: finalize in memory first.
    let hsail = matches!(
        args.input.extension().and_then(|e| e.to_str()),
        Some("hsail" | "brig")
    );
    // A `$small` HSAIL module runs in a small-machine-model system (all
    // memory below 4 GiB).
    let (bytes, model) = if hsail {
        let mcpu = args.mcpu.as_deref().unwrap_or("gfx90a");
        let f = super::finalize::finalize_file(&args.input, mcpu, 5)?;
        let model = if f.small_model {
            MachineModel::Small
        } else {
            MachineModel::Large
        };
        (f.code_object, model)
    } else {
        (super::read_input(&args.input)?, MachineModel::Large)
    };
    let co = CodeObject::parse(&bytes)
        .with_context(|| format!("{}: malformed code object", args.input.display()))?;
    let processor = match &args.mcpu {
        Some(p) => p.clone(),
        None => co
            .header
            .target
            .as_ref()
            .map(|t| t.short())
            .ok_or_else(|| {
                anyhow!(
                    "{}: the code object names no processor in e_flags; use --mcpu",
                    args.input.display()
                )
            })?,
    };
    let grid = parse_dims("--grid", &grid_text, u64::from(u32::MAX))?;
    let group = parse_dims("--group", &group_text, 1024)?;
    let specs: Vec<Spec> = args
        .args
        .iter()
        .map(|s| Spec::parse(s))
        .collect::<anyhow::Result<_>>()?;
    let mut outs: Vec<(usize, PathBuf)> = Vec::new();
    for o in &args.outs {
        let (n, path) = o
            .split_once('=')
            .ok_or_else(|| anyhow!("bad --out `{o}`: expected N=PATH"))?;
        let n: usize = n
            .parse()
            .map_err(|_| anyhow!("bad --out `{o}`: `{n}` is not an argument index"))?;
        match specs.get(n) {
            Some(s) if s.is_buffer() => outs.push((n, PathBuf::from(path))),
            Some(_) => bail!("bad --out `{o}`: argument {n} is not a buffer (buf= or zeros=)"),
            None => bail!("bad --out `{o}`: there are only {} --arg", specs.len()),
        }
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));

    let model = match args.machine_model.as_deref() {
        None => model,
        Some("small") => MachineModel::Small,
        Some("large") => MachineModel::Large,
        Some(other) => bail!("bad --machine-model `{other}`: expected small or large"),
    };
    let system = System::with_machine_model(&processor, threads, model)?;
    system.set_watchdog(args.watchdog);
    let exe =
        Executable::load(&system, &bytes).with_context(|| format!("{}", args.input.display()))?;
    let kernel = exe.kernel(kernel_name.trim_start_matches('&'))?;
    let explicit: Vec<KernelArg> = kernel.explicit_args().cloned().collect();
    if explicit.len() != specs.len() {
        let list: Vec<String> = explicit
            .iter()
            .enumerate()
            .map(|(i, a)| describe_arg(i, a))
            .collect();
        bail!(
            "kernel `{}` takes {} explicit argument(s), {} --arg given{}{}",
            kernel.name,
            explicit.len(),
            specs.len(),
            if list.is_empty() { "" } else { ": " },
            list.join("; ")
        );
    }

    // Dims: the longer of --grid and --group; the other padded with 1.
    let dims = grid.len().max(group.len());
    let grid3: Vec<u32> = (0..dims)
        .map(|d| *grid.get(d).unwrap_or(&1) as u32)
        .collect();
    let group3: Vec<u16> = (0..dims)
        .map(|d| *group.get(d).unwrap_or(&1) as u16)
        .collect();
    let mut geometry =
        Geometry::new(&grid3, &group3).ok_or_else(|| anyhow!("bad --grid/--group"))?;
    if geometry.group_items() > 1024 {
        bail!(
            "work-group of {} work-items exceeds the maximum of 1024",
            geometry.group_items()
        );
    }

    let queue = Queue::new(&system, system.gpu(), 64)?;
    let mut kb = KernargBuilder::new(&kernel);
    let mut buffers: Vec<Option<Buffer>> = Vec::new();
    let mut group_size = u64::from(kernel.group_segment_size);
    for (i, (spec, meta)) in specs.iter().zip(&explicit).enumerate() {
        let what = || describe_arg(i, meta);
        let want_kind = |ok: bool, expected: &str| -> anyhow::Result<()> {
            if ok {
                Ok(())
            } else {
                Err(anyhow!(
                    "kernel `{}`: --arg `{}` gives {expected}, but {} is not one",
                    kernel.name,
                    args.args[i],
                    what()
                ))
            }
        };
        let mut buffer = None;
        let value: Vec<u8> = match spec {
            Spec::Buf(_) | Spec::Zeros(_) => {
                want_kind(
                    matches!(meta.value_kind, ValueKind::GlobalBuffer)
                        || (meta.value_kind == ValueKind::ByValue && matches!(meta.size, 4 | 8)),
                    "a global buffer",
                )?;
                let data = match spec {
                    Spec::Buf(path) => super::read_input(path)?,
                    Spec::Zeros(n) => vec![0; *n as usize],
                    _ => Vec::new(),
                };
                let address = system
                    .allocate(Region::CoarseGrained, data.len().max(1) as u64)
                    .with_context(|| format!("argument {i}"))?;
                system.write(address, &data)?;
                buffer = Some(Buffer {
                    address,
                    len: data.len(),
                });
                if meta.size < 8 && u32::try_from(address).is_err() {
                    bail!(
                        "kernel `{}`: --arg `{}`: buffer address {address:#x} does not fit {} (32-bit \
                         addresses need the small machine model: `--machine-model small`, the \
                         default for `$small` HSAIL)",
                        kernel.name,
                        args.args[i],
                        what()
                    );
                }
                address.to_le_bytes()[..(meta.size as usize).min(8)].to_vec()
            }
            Spec::Local(n) => {
                // OpenCL's dynamic local pointers; HSAIL kernels take the
                // group offset as a plain u32 (PRM 4.20).
                want_kind(
                    meta.value_kind == ValueKind::DynamicSharedPointer
                        || (meta.value_kind == ValueKind::ByValue && meta.size == 4),
                    "a dynamic group-segment (local) buffer",
                )?;
                let align = meta.pointee_align.unwrap_or(16).max(1);
                let offset = group_size
                    .checked_next_multiple_of(align)
                    .unwrap_or(u64::MAX);
                group_size = offset.saturating_add(*n);
                if group_size > GROUP_SEGMENT_SIZE {
                    bail!(
                        "kernel `{}`: group segment of {group_size} bytes (with {}) exceeds {GROUP_SEGMENT_SIZE}",
                        kernel.name,
                        what()
                    );
                }
                offset.to_le_bytes()[..(meta.size as usize).min(8)].to_vec()
            }
            scalar => {
                want_kind(meta.value_kind == ValueKind::ByValue, "a scalar")?;
                match *scalar {
                    Spec::U32(v) => v.to_le_bytes().to_vec(),
                    Spec::I32(v) => v.to_le_bytes().to_vec(),
                    Spec::U64(v) => v.to_le_bytes().to_vec(),
                    Spec::I64(v) => v.to_le_bytes().to_vec(),
                    Spec::F32(v) => v.to_le_bytes().to_vec(),
                    Spec::F64(v) => v.to_le_bytes().to_vec(),
                    _ => Vec::new(),
                }
            }
        };
        if value.len() as u64 != meta.size {
            bail!(
                "kernel `{}`: --arg `{}` is {} bytes, but {} takes {}",
                kernel.name,
                args.args[i],
                value.len(),
                what(),
                meta.size
            );
        }
        kb.push(&value)?;
        buffers.push(buffer);
    }
    geometry.dynamic_group_size = (group_size - u64::from(kernel.group_segment_size)) as u32;
    // OpenCL printf: a buffer for the records, formatted after the run.
    let printf_buffer = if kernel.uses_printf() {
        Some((
            PrintfBuffer::allocate(&system, printf::DEFAULT_SIZE)?,
            exe.printf_formats()
                .with_context(|| format!("{}", args.input.display()))?,
        ))
    } else {
        None
    };
    let mut kernarg = kb.finish(
        &geometry,
        &HiddenValues {
            queue_ptr: queue.address(),
            printf_buffer: printf_buffer.as_ref().map_or(0, |(b, _)| b.address),
        },
    )?;
    // rocm-device-libs' stub printf: give it a buffer so it does not
    // fault, and say why nothing is printed.
    if let Some(slot) = exe.undeclared_printf_slot(&kernel) {
        let buffer = PrintfBuffer::allocate(&system, printf::DEFAULT_SIZE)?;
        let at = slot as usize;
        kernarg[at..at + 8].copy_from_slice(&buffer.address.to_le_bytes());
        eprintln!(
            "hsakit: warning: kernel `{}` calls printf from rocm-device-libs' opencl.bc, a stub that \
             drops its arguments (clang linked it before LLVM's printf lowering); nothing will be \
             printed. Compile with -nogpulib, run `opt -passes=amdgpu-printf-runtime-binding`, then \
             link the device libraries (see crates/hsakit/tests/emu_printf.rs)",
            kernel.name
        );
    }

    // The HSA dispatch sequence.
    let kernarg_address = system.allocate(Region::Kernarg, kernarg.len().max(1) as u64)?;
    system.write(kernarg_address, &kernarg)?;
    let done = Signal::new(&system, 1)?;
    let index = queue.submit_dispatch(&DispatchPacket {
        dims: geometry.dims,
        workgroup_size: geometry.group,
        grid_size: geometry.grid,
        private_segment_size: kernel.private_segment_size,
        group_segment_size: group_size as u32,
        kernel_object: kernel.kernel_object,
        kernarg_address,
        completion_signal: done.handle(),
        ..Default::default()
    })?;
    done.wait(Condition::Eq, 0, Duration::MAX);
    // What the kernel printed comes first, even if it then faulted.
    if let Some((buffer, formats)) = &printf_buffer {
        print!("{}", buffer.read(&system, formats)?);
    }
    if let Some(e) = queue.error() {
        return Err(match e {
            Error::Fault(f) => anyhow!("kernel fault: {f}"),
            other => anyhow!(other),
        });
    }
    let stats = queue
        .stats_of(index)
        .ok_or_else(|| anyhow!("dispatch completed without statistics"))?;

    for (n, path) in &outs {
        if let Some(Some(b)) = buffers.get(*n) {
            let data = system.read_vec(b.address, b.len)?;
            super::write_output(path, &data)?;
        }
    }
    match args.stats.as_deref() {
        None => {}
        Some("json") => println!("{}", stats_json(&kernel.name, &stats)),
        Some("text") => print!("{}", stats_text(&stats)),
        Some(other) => bail!("bad --stats={other}: expected --stats or --stats=json"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Work-items of the built-in example.
const EXAMPLE_ITEMS: u32 = 1 << 20;

/// `hsakit run FILE` with no --kernel and no --arg: runs the bundled
/// example's `vec_add(a, b, c, n)` (examples/vector_add.hsail) on built-in
/// inputs through the normal path, checks `c[i] == a[i] + b[i]` bit for bit
/// (IEEE single precision, computed here on the host), and prints a short
/// summary.
fn example(args: Args) -> anyhow::Result<ExitCode> {
    let n = EXAMPLE_ITEMS as usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let dir = std::env::temp_dir().join(format!("hsakit-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = |name: &str| dir.join(name);
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(file("a.bin"), bytes(&a))?;
    std::fs::write(file("b.bin"), bytes(&b))?;
    let path = |name: &str| file(name).display().to_string();
    let result = run(Args {
        kernel: Some("vec_add".into()),
        grid: Some(n.to_string()),
        group: Some("256".into()),
        args: vec![
            format!("buf={}", path("a.bin")),
            format!("buf={}", path("b.bin")),
            format!("zeros={}", 4 * n),
            format!("u32={n}"),
        ],
        outs: vec![format!("2={}", path("c.bin"))],
        stats: Some("text".into()),
        ..args
    });
    let c = std::fs::read(file("c.bin"));
    let _ = std::fs::remove_dir_all(&dir);
    result.context(
        "the built-in inputs are for the bundled example's `vec_add(a, b, c, n)` \
         (examples/vector_add.hsail); for other kernels give --kernel, --grid, --group and --arg",
    )?;
    let c = c?;
    let wrong = (0..n)
        .filter(|&i| {
            let got = c
                .get(4 * i..4 * i + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
            got != Some((a[i] + b[i]).to_bits())
        })
        .count();
    if wrong != 0 {
        bail!("vec_add: {wrong} of {n} results differ from a[i] + b[i] computed on the host");
    }
    println!("vec_add: all {n} results equal a[i] + b[i] computed on the host");
    Ok(ExitCode::SUCCESS)
}

fn per_second(stats: &Stats) -> f64 {
    let secs = stats.elapsed.as_secs_f64();
    if secs > 0.0 {
        stats.instructions as f64 / secs
    } else {
        0.0
    }
}

fn stats_text(s: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "work-groups:          {}", s.workgroups);
    let _ = writeln!(out, "waves:                {}", s.waves);
    let _ = writeln!(out, "wave-instructions:    {}", s.instructions);
    let _ = writeln!(out, "lane-ops:             {}", s.lane_ops);
    let _ = writeln!(
        out,
        "wall time:            {:.3} ms",
        s.elapsed.as_secs_f64() * 1e3
    );
    let _ = writeln!(out, "wave-instructions/s:  {:.0}", per_second(s));
    out
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn stats_json(kernel: &str, s: &Stats) -> String {
    format!(
        "{{\"kernel\":{},\"workgroups\":{},\"waves\":{},\"wave_instructions\":{},\"lane_ops\":{},\"wall_time_s\":{:.9},\"wave_instructions_per_s\":{:.1}}}",
        json_string(kernel),
        s.workgroups,
        s.waves,
        s.instructions,
        s.lane_ops,
        s.elapsed.as_secs_f64(),
        per_second(s)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(Spec::parse("u32=0x10").unwrap(), Spec::U32(16));
        assert_eq!(Spec::parse("i32=-5").unwrap(), Spec::I32(-5));
        assert_eq!(Spec::parse("i64=-0x10").unwrap(), Spec::I64(-16));
        assert_eq!(
            Spec::parse("i64=-9223372036854775808").unwrap(),
            Spec::I64(i64::MIN)
        );
        assert_eq!(Spec::parse("f32=1.5").unwrap(), Spec::F32(1.5));
        assert_eq!(Spec::parse("zeros=64").unwrap(), Spec::Zeros(64));
        assert!(Spec::parse("u32=4294967296").is_err());
        assert!(Spec::parse("i32=2147483648").is_err());
        assert!(Spec::parse("u8=1").is_err());
        assert!(Spec::parse("buf").is_err());
        assert!(parse_dims("--grid", "4,0", 100).is_err());
        assert!(parse_dims("--grid", "1,2,3,4", 100).is_err());
        assert_eq!(parse_dims("--grid", "4, 2", 100).unwrap(), vec![4, 2]);
    }

    #[test]
    fn json_is_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
