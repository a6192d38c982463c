//! `disasm::objdump_d` against `llvm-objdump-19 -d`: code objects built at
//! test time (never committed) must print exactly what LLVM prints.
//!
//! - `tests/codeobj/*.cl` through clang-19 for each of `TARGETS`, code
//!   object v4 and v5 (gfx9-generic: v6), relocatable (`-c`) and linked
//!   (ld.lld);
//! - `tests/codeobj/objdump_*.s` through llvm-mc-19 (and ld.lld-19) for the
//!   targets named on their `// objdump-targets:` line: branches and
//!   labels, every encoding family, literals, data in `.text`;
//! - every oracle vector of `data/amdgpu/vectors/<gfx>.tsv` as one large
//!   `.text` (all instructions of the table, with labels every 1000);
//! - random bytes in `.text` of objects from our writer: never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_object::disasm::objdump_d;
use amdgpu_object::read::CodeObject;
use oracles::Scratch;

const TARGETS: [&str; 7] = [
    "gfx900",
    "gfx904",
    "gfx906",
    "gfx908",
    "gfx90a",
    "gfx942",
    "gfx9-generic",
];

/// Code object versions clang-19 builds for `mcpu`: a generic target only
/// exists from code object v6 on ("gfx9-generic is only available on code
/// object version 6 or better").
fn code_object_versions(mcpu: &str) -> &'static [u32] {
    if mcpu.ends_with("-generic") {
        &[6]
    } else {
        &[4, 5]
    }
}

fn inputs() -> PathBuf {
    oracles::workspace_root().join("tests/codeobj")
}

fn have_llvm() -> bool {
    oracles::clang_available() && oracles::llvm_available()
}

use oracles::run;

/// Compares our disassembly of `path` with llvm-objdump-19's; returns the
/// number of lines, or the first difference.
fn compare(path: &Path) -> Result<usize, String> {
    // Both name the file as given on the command line: run objdump from the
    // file's directory with the bare name.
    let dir = path.parent().unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    let want = run(Command::new("llvm-objdump-19")
        .current_dir(dir)
        .arg("-d")
        .arg(name));
    let bytes = std::fs::read(path).unwrap();
    let co = CodeObject::parse(&bytes).map_err(|e| format!("{name}: parse: {e}"))?;
    let got = objdump_d(&co, name).map_err(|e| format!("{name}: {e}"))?;
    match oracles::text_difference(&want, &got) {
        None => Ok(want.lines().count()),
        Some(d) => Err(format!("{name} (- llvm-objdump-19, + ours): {d}")),
    }
}

/// Runs `compare` on every object, reporting all failures at once.
fn compare_all(objects: &[PathBuf]) -> usize {
    let mut lines = 0;
    let mut failures = Vec::new();
    for o in objects {
        match compare(o) {
            Ok(n) => lines += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} objects differ:\n{}",
        failures.len(),
        objects.len(),
        failures.join("\n")
    );
    eprintln!("{} objects, {lines} lines identical", objects.len());
    lines
}

fn link(obj: &Path) -> PathBuf {
    let co = obj.with_extension("co");
    run(Command::new("ld.lld-19")
        .arg("-shared")
        .arg(obj)
        .arg("-o")
        .arg(&co));
    co
}

fn assemble(s: &Scratch, src: &Path, tag: &str, mcpu: &str) -> PathBuf {
    let obj = s.path(&format!("{tag}-{mcpu}.o"));
    run(Command::new("llvm-mc-19")
        .args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
        .arg(format!("-mcpu={mcpu}"))
        .arg(src)
        .arg("-o")
        .arg(&obj));
    obj
}

#[test]
fn opencl_kernels_disassemble_like_llvm_objdump() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("disasm-cl");
    let mut objects = Vec::new();
    for src in oracles::files_with_extension(&inputs(), "cl") {
        let stem = src.file_stem().unwrap().to_str().unwrap().to_string();
        for mcpu in TARGETS {
            for &cov in code_object_versions(mcpu) {
                let obj = s.path(&format!("{stem}-{mcpu}-v{cov}.o"));
                run(Command::new("clang-19")
                    .args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa"])
                    .args(["-O3", "-nogpulib"])
                    .arg(format!("-mcpu={mcpu}"))
                    .arg(format!("-mcode-object-version={cov}"))
                    .arg("-c")
                    .arg(&src)
                    .arg("-o")
                    .arg(&obj));
                objects.push(link(&obj));
                objects.push(obj);
            }
        }
    }
    assert!(objects.len() >= 48, "only {} objects", objects.len());
    compare_all(&objects);
}

#[test]
fn assembly_sources_disassemble_like_llvm_objdump() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("disasm-s");
    let mut objects = Vec::new();
    for src in oracles::files_with_extension(&inputs(), "s") {
        let stem = src.file_stem().unwrap().to_str().unwrap().to_string();
        if !stem.starts_with("objdump_") {
            continue;
        }
        let text = std::fs::read_to_string(&src).unwrap();
        let targets = text
            .lines()
            .find_map(|l| l.strip_prefix("// objdump-targets:"))
            .unwrap_or_else(|| panic!("{stem}.s: no `// objdump-targets:` line"));
        for mcpu in targets.split_whitespace() {
            let obj = assemble(&s, &src, &stem, mcpu);
            objects.push(link(&obj));
            objects.push(obj);
        }
    }
    assert!(objects.len() >= 20, "only {} objects", objects.len());
    compare_all(&objects);
}

/// Writes every instruction of the oracle vectors as `.byte` lines (with a
/// label every 1000 instructions) for one target.
fn vectors_source(mcpu: &str) -> String {
    let path = oracles::workspace_root().join(format!("data/amdgpu/vectors/{mcpu}.tsv"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut src = String::from(".text\n.globl k\n.type k,@function\nk:\n");
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("class\t"));
    for (i, line) in rows.enumerate() {
        let hex = line.split('\t').nth(2).expect("bytes column");
        if i % 1000 == 999 {
            src.push_str(&format!("lab{i}:\n"));
        }
        let bytes: Vec<String> = (0..hex.len())
            .step_by(2)
            .map(|j| format!("0x{}", &hex[j..j + 2]))
            .collect();
        src.push_str(&format!(".byte {}\n", bytes.join(", ")));
    }
    src
}

#[test]
fn every_vector_instruction_disassembles_like_llvm_objdump() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("disasm-vectors");
    let mut objects = Vec::new();
    for mcpu in TARGETS {
        let src = s.path(&format!("vectors-{mcpu}.s"));
        std::fs::write(&src, vectors_source(mcpu)).unwrap();
        let obj = assemble(&s, &src, "vectors", mcpu);
        objects.push(link(&obj));
        objects.push(obj);
    }
    let lines = compare_all(&objects);
    assert!(lines > 150_000, "only {lines} lines");
}

#[test]
fn processors_without_gfx9_tables_are_named_in_the_error() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("disasm-target");
    let src = s.path("k.s");
    std::fs::write(&src, ".text\nk:\n  s_endpgm\n").unwrap();
    for mcpu in ["gfx1010", "gfx1030"] {
        let obj = assemble(&s, &src, "k", mcpu);
        let bytes = std::fs::read(&obj).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        let err = objdump_d(&co, "k.o").unwrap_err().to_string();
        assert!(err.contains(mcpu), "{err}");
        assert!(err.ends_with("at offset 0x30"), "{err}");
    }
}

/// Random bytes as the code of our writer's kernels, for every target:
/// `objdump_d` must print something and never panic.
#[test]
fn random_code_never_panics() {
    use amdgpu_object::kernel_descriptor_t;
    use amdgpu_object::write::{KernelInput, WriteOptions, write_code_object};
    use amdgpu_object::{Processor, TargetId};
    use oracles::mutate::Rng;

    let mut rng = Rng::new(0x0b_d0_6d);
    let mut disassembled = 0;
    for case in 0..400 {
        let mcpu = *rng.pick(&TARGETS);
        let target = TargetId::new(Processor::from_name(mcpu).unwrap());
        let nkernels = 1 + rng.below(3);
        let codes: Vec<Vec<u8>> = (0..nkernels)
            .map(|_| {
                let len = 1 + rng.below(600);
                let mut code: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                // Bias towards opcodes that decode: copy in real
                // instruction words now and then.
                for _ in 0..rng.below(20) {
                    let word: u32 =
                        *rng.pick(&[0xbf81_0000, 0xbf82_fffe, 0xbf80_0000, 0x7e02_0280]);
                    oracles::mutate::set_aligned(&mut rng, &mut code, 0, &word.to_le_bytes());
                }
                if rng.below(4) == 0 {
                    let at = rng.below(len);
                    let n = rng.below(40).min(len - at);
                    code[at..at + n].fill(0);
                }
                code
            })
            .collect();
        let names: Vec<String> = (0..nkernels).map(|i| format!("k{i}")).collect();
        let kernels: Vec<KernelInput<'_>> = codes
            .iter()
            .zip(&names)
            .map(|(code, name)| KernelInput {
                name,
                code,
                descriptor: kernel_descriptor_t::default(),
            })
            .collect();
        let bytes = write_code_object(&kernels, &WriteOptions::new(target, 5))
            .unwrap_or_else(|e| panic!("case {case}: writer: {e}"));
        let co = CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let text = objdump_d(&co, "r.co").unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert!(text.contains("<k0>:"), "case {case}:\n{text}");
        disassembled += text.lines().count();
    }
    assert!(disassembled > 10_000, "only {disassembled} lines");
}
