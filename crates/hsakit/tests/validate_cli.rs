//! `hsakit validate` and `hsakit asm --validate/--no-validate` on text:
//! validator errors at `file:line:col` with the source line and a caret,
//! exit status 1 and no output file on errors; BRIG input keeps the
//! section-and-offset form.

use std::path::Path;
use std::process::{Command, Output};

fn hsakit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hsakit"))
        .args(args)
        .output()
        .expect("cannot run hsakit")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Line 4 breaks PRM 4.16.2 at `$s2` (col 15); line 5's wide literal is
/// valid (PRM 4.8.1 keeps its low 32 bits).
const BAD: &str = "module &m:1:0:$full:$large:$default;\n\
                   kernel &k()\n\
                   {\n\
                   \tadd_u64 $d1, $s2, $d3;\n\
                   \tadd_u32 $s1, $s2, 0x100000000;\n\
                   \tret;\n\
                   };\n";

/// A literal wider than its type (line 4): valid, its low 32 bits are used
/// (PRM 4.8.1), as HSAILasm does.
const TRUNCATED: &str = "module &m:1:0:$full:$large:$default;\n\
                         kernel &k()\n\
                         {\n\
                         \tadd_u32 $s1, $s2, 0x100000000;\n\
                         \tret;\n\
                         };\n";

const GOOD: &str = "module &m:1:0:$full:$large:$default;\n\
                    kernel &k()\n\
                    {\n\
                    \tadd_u32 $s1, $s2, 0xffffffff;\n\
                    \tret;\n\
                    };\n";

#[test]
fn validate_text_reports_file_line_col_with_the_source_line() {
    let scratch = oracles::Scratch::new("validate-cli-text");
    let file = scratch.path("bad.hsail");
    std::fs::write(&file, BAD).unwrap();
    let out = hsakit(&["validate", s(&file)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let f = s(&file);
    assert!(
        stderr.starts_with(&format!("{f}:4:15: error: PRM 4.16.2: ")),
        "{stderr}"
    );
    // The source line and a caret under the operand.
    assert!(
        stderr.contains("4 |     add_u64 $d1, $s2, $d3;"),
        "{stderr}"
    );
    assert!(stderr.contains("  |                  ^^^\n"), "{stderr}");
    assert!(
        !stderr.contains(":5:"),
        "the wide literal is valid: {stderr}"
    );
    assert!(stderr.contains("1 error found"), "{stderr}");
    assert!(!stderr.contains("offset 0x"), "BRIG form on text: {stderr}");

    let good = scratch.path("good.hsail");
    std::fs::write(&good, GOOD).unwrap();
    let out = hsakit(&["validate", s(&good)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn validate_brig_keeps_section_and_offset() {
    let scratch = oracles::Scratch::new("validate-cli-brig");
    let brig = scratch.path("bad.brig");
    let text = BAD.replace("0x100000000", "1");
    std::fs::write(
        &brig,
        hsail::lower::assemble_unchecked(&text, "bad.hsail").unwrap(),
    )
    .unwrap();
    let out = hsakit(&["validate", s(&brig)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("PRM 4.16.2"), "{stderr}");
    assert!(
        stderr.contains("in section hsa_code at offset 0x"),
        "{stderr}"
    );
}

#[test]
fn asm_validate_flags() {
    let scratch = oracles::Scratch::new("validate-cli-asm");
    let file = scratch.path("t.hsail");
    std::fs::write(&file, TRUNCATED).unwrap();
    let f = s(&file);
    let expected = hsail::assemble(TRUNCATED, f).expect("plain assembly truncates");

    // Default: no validation, HSAILasm's truncation.
    let out_default = scratch.path("default.brig");
    let out = hsakit(&["asm", f, "-o", s(&out_default)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&out_default).unwrap(), expected);

    // --no-validate, also when it comes after --validate.
    for args in [&["--no-validate"][..], &["--validate", "--no-validate"]] {
        let o = scratch.path("nv.brig");
        let _ = std::fs::remove_file(&o);
        let mut argv = vec!["asm", f, "-o", s(&o)];
        argv.extend_from_slice(args);
        let out = hsakit(&argv);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&o).unwrap(), expected, "{args:?}");
    }

    // --validate (also after --no-validate): the wide literal is valid, the
    // bytes are plain assembly's; a rule violation is an error, no file.
    let bad = scratch.path("bad.hsail");
    std::fs::write(&bad, BAD).unwrap();
    for args in [&["--validate"][..], &["--no-validate", "--validate"]] {
        let o = scratch.path("v.brig");
        let _ = std::fs::remove_file(&o);
        let mut argv = vec!["asm", f, "-o", s(&o)];
        argv.extend_from_slice(args);
        let out = hsakit(&argv);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&o).unwrap(), expected, "{args:?}");

        let _ = std::fs::remove_file(&o);
        let mut argv = vec!["asm", s(&bad), "-o", s(&o)];
        argv.extend_from_slice(args);
        let out = hsakit(&argv);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("{}:4:15: error: ", s(&bad))),
            "{args:?}: {stderr}"
        );
        assert!(!o.exists(), "{args:?}: output written despite errors");
    }

    // --validate on a valid module writes the same bytes as plain asm.
    let good = scratch.path("good.hsail");
    std::fs::write(&good, GOOD).unwrap();
    let o = scratch.path("good.brig");
    let out = hsakit(&["asm", s(&good), "--validate", "-o", s(&o)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&o).unwrap(),
        hsail::assemble(GOOD, s(&good)).unwrap()
    );
}
