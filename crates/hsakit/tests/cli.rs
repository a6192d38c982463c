//! The `hsakit` binary as a user meets it: exit codes, output files, and
//! error messages that name file:line:col (text) or section and offset (BRIG).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::hsakit;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn example_assembles_and_disassembles() {
    let scratch = oracles::Scratch::new("cli-example");
    let brig = scratch.path("va.brig");
    let example = root().join("examples/vector_add.hsail");
    let out = hsakit(&[
        "asm",
        example.to_str().unwrap(),
        "-o",
        brig.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "asm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&brig).unwrap();
    assert_eq!(&bytes[..8], b"HSA BRIG", "output is not a BRIG module");
    let out = hsakit(&["disasm", brig.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "disasm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("kernel &vec_add("),
        "unexpected disassembly:\n{text}"
    );
    let out = hsakit(&["brig-dump", brig.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "brig-dump failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("hsa_code"));
}

/// Each file in `tests/corpus-bad` starts with `// expect-error: LINE:COL`,
/// where HSAILasm reports the error; we must report it there too.
#[test]
fn syntax_errors_name_file_line_col() {
    let files = oracles::files_with_extension(&root().join("tests/corpus-bad"), "hsail");
    assert!(!files.is_empty(), "tests/corpus-bad is empty");
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect-error:"))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| {
                panic!(
                    "{} lacks an `// expect-error: LINE:COL` line",
                    file.display()
                )
            })
            .to_string();
        let scratch = oracles::Scratch::new("cli-bad");
        let out_path = scratch.path("x.brig");
        let out = hsakit(&[
            "asm",
            file.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let want = format!("{}:{expect}: error:", file.display());
        if out.status.code() != Some(1) || !stderr.contains(&want) {
            failures.push(format!(
                "{}: want exit 1 and `{want}`, got {:?}:\n{stderr}",
                file.display(),
                out.status.code()
            ));
        }
        if out_path.exists() {
            failures.push(format!(
                "{}: an output file was written despite errors",
                file.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_brig_names_section_and_offset() {
    let scratch = oracles::Scratch::new("cli-badbrig");
    let path = scratch.path("bad.brig");
    std::fs::write(&path, b"HSA BRIG\x01\x00\x00\x00\x00\x00\x00\x00garbage").unwrap();
    for cmd in ["disasm", "brig-dump"] {
        let out = hsakit(&[cmd, path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {stderr}");
        assert!(
            stderr.contains("offset"),
            "{cmd}: error does not name an offset: {stderr}"
        );
    }
}

#[test]
fn missing_input_is_an_error_not_a_panic() {
    let out = hsakit(&["asm", "/nonexistent/x.hsail"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.hsail"));
}

/// `hsakit readobj` of a code object that clang-19 and ld.lld-19 made from
/// OpenCL C shows the header, symbols and notes exactly as llvm-readelf-19.
#[test]
fn readobj_matches_llvm_readelf() {
    if !(oracles::clang_available() && oracles::llvm_available()) {
        return;
    }
    let scratch = oracles::Scratch::new("cli-readobj");
    let obj = scratch.path("k.o");
    let co = scratch.path("k.co");
    let source = root().join("tests/codeobj/kernels.cl");
    let run = oracles::run;
    run(Command::new("clang-19")
        .args([
            "-x",
            "cl",
            "-cl-std=CL2.0",
            "-target",
            "amdgcn-amd-amdhsa",
            "-mcpu=gfx90a",
            "-O2",
            "-nogpulib",
            "-mcode-object-version=5",
            "-c",
        ])
        .arg(&source)
        .arg("-o")
        .arg(&obj));
    run(Command::new("ld.lld-19")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&co));
    for (ours, theirs) in [("-H", "-h"), ("-s", "-s"), ("--notes", "--notes")] {
        let expected = run(Command::new("llvm-readelf-19").arg(theirs).arg(&co));
        let out = hsakit(&["readobj", ours, co.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "readobj {ours}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let actual = String::from_utf8(out.stdout).unwrap();
        if let Some(d) = oracles::text_difference(&expected, &actual) {
            panic!("readobj {ours} differs from llvm-readelf-19 {theirs}, {d}");
        }
    }
}

/// `hsakit validate` rejects every file of `tests/corpus-invalid` (each
/// starts with `// reject: PRM <section>: <rule>`) with exit status 1 and a
/// message citing that section, and accepts valid text and BRIG.
#[test]
fn validate_rejects_the_invalid_corpus_citing_the_prm() {
    let files = oracles::files_with_extension(&root().join("tests/corpus-invalid"), "hsail");
    assert!(files.len() > 50, "tests/corpus-invalid not found");
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let section = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// reject: "))
            .and_then(|rest| rest.split(':').next())
            .unwrap_or_else(|| panic!("{} lacks a `// reject: PRM x.y: …` line", file.display()))
            .trim()
            .to_string();
        let out = hsakit(&["validate", file.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Rejected by the validator, citing the section, or by the
        // assembler's own checks, at a `file:LINE:COL` position.
        let cited =
            stderr.contains(&format!("{section}:")) || stderr.contains(&format!("{section} "));
        let positioned = stderr
            .strip_prefix(&format!("{}:", file.display()))
            .and_then(|rest| rest.split_once(": error:"))
            .is_some_and(|(pos, _)| {
                pos.split(':').count() == 2 && pos.split(':').all(|n| n.parse::<u32>().is_ok())
            });
        if out.status.code() != Some(1) || !(cited || positioned) {
            failures.push(format!(
                "{}: want exit 1 citing {section}, got {:?}:\n{stderr}",
                file.display(),
                out.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let example = root().join("examples/vector_add.hsail");
    let out = hsakit(&["validate", example.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "valid text rejected: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    if oracles::hsailasm_available() {
        let scratch = oracles::Scratch::new("cli-validate");
        let brig = scratch.path("va.brig");
        std::fs::write(&brig, oracles::hsailasm_assemble_file(&example).unwrap()).unwrap();
        let out = hsakit(&["validate", brig.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "valid BRIG rejected: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `hsakit asm` validates by default without rejecting anything valid:
/// every file of `tests/corpus` (all accepted by HSAILasm) assembles to
/// the bytes `--no-validate` writes; every file of `tests/corpus-invalid`
/// is rejected (exit 1, no output), by the validator or the assembler's
/// own checks.
#[test]
fn asm_validates_by_default() {
    let scratch = oracles::Scratch::new("cli-asm-validate");
    let valid = oracles::files_with_extension(&root().join("tests/corpus"), "hsail");
    assert!(valid.len() > 50, "tests/corpus not found");
    let mut failures = Vec::new();
    for file in &valid {
        let (a, b) = (scratch.path("a.brig"), scratch.path("b.brig"));
        let out = hsakit(&["asm", file.to_str().unwrap(), "-o", a.to_str().unwrap()]);
        if !out.status.success() {
            failures.push(format!(
                "{}: rejected:\n{}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let out = hsakit(&[
            "asm",
            file.to_str().unwrap(),
            "--no-validate",
            "-o",
            b.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", file.display());
        if std::fs::read(&a).unwrap() != std::fs::read(&b).unwrap() {
            failures.push(format!("{}: validated output differs", file.display()));
        }
    }
    let invalid = oracles::files_with_extension(&root().join("tests/corpus-invalid"), "hsail");
    assert!(invalid.len() > 50, "tests/corpus-invalid not found");
    for file in &invalid {
        let o = scratch.path("i.brig");
        let _ = std::fs::remove_file(&o);
        let out = hsakit(&["asm", file.to_str().unwrap(), "-o", o.to_str().unwrap()]);
        if out.status.code() != Some(1) || o.exists() {
            failures.push(format!(
                "{}: want exit 1 and no output, got {:?}",
                file.display(),
                out.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `hsakit as` makes a code object from GFX9 assembly that
/// `llvm-objdump-19 -d` and `hsakit objdump -d` print identically.
#[test]
fn as_then_objdump_matches_llvm_objdump() {
    if !oracles::require("llvm-objdump-19", "llvm-19") {
        return;
    }
    let scratch = oracles::Scratch::new("cli-as");
    let co = scratch.path("k.co");
    let source = root().join("tests/codeobj/as_multi.s");
    let out = hsakit(&[
        "as",
        source.to_str().unwrap(),
        "--mcpu",
        "gfx90a",
        "-o",
        co.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "as failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = Command::new("llvm-objdump-19")
        .arg("-d")
        .arg(&co)
        .output()
        .expect("llvm-objdump-19");
    assert!(
        theirs.status.success(),
        "llvm-objdump-19 rejects our code object"
    );
    let ours = hsakit(&["objdump", "-d", co.to_str().unwrap()]);
    assert!(
        ours.status.success(),
        "objdump failed: {}",
        String::from_utf8_lossy(&ours.stderr)
    );
    let (e, a) = (
        String::from_utf8_lossy(&theirs.stdout),
        String::from_utf8_lossy(&ours.stdout),
    );
    if let Some(d) = oracles::text_difference(&e, &a) {
        panic!("hsakit objdump -d differs from llvm-objdump-19 -d, {d}");
    }
}
