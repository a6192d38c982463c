//! `hsakit validate` and `hsakit asm` (validating by default,
//! `--no-validate` to skip, `--validate` accepted) on text: validator
//! errors at `file:line:col` with the source line and a caret, exit status
//! 1 and no output file on errors; BRIG input keeps the section-and-offset
//! form.

use std::path::Path;

mod common;
use common::hsakit;

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

/// Line 4 breaks PRM 2.9 (a 32-bit address register in the large model)
/// at `[$s2]` (col 21); the assembler's own checks let it through.
const INVALID: &str = "module &m:1:0:$full:$large:$default;\n\
                       kernel &k()\n\
                       {\n\
                       \tld_global_u32 $s1, [$s2];\n\
                       \tret;\n\
                       };\n";

#[test]
fn asm_validate_flags() {
    let scratch = oracles::Scratch::new("validate-cli-asm");
    let file = scratch.path("t.hsail");
    std::fs::write(&file, TRUNCATED).unwrap();
    let f = s(&file);
    let expected = hsail::assemble(TRUNCATED, f).expect("plain assembly truncates");

    // Valid input (the wide literal is valid): the bytes of plain assembly
    // by default, with --validate, with --no-validate, in any order.
    for args in [
        &[][..],
        &["--validate"],
        &["--no-validate"],
        &["--validate", "--no-validate"],
        &["--no-validate", "--validate"],
    ] {
        let o = scratch.path("t.brig");
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

    // A rule only the validator checks: an error at its source position,
    // exit 1 and no file by default and with --validate (also after
    // --no-validate); --no-validate (also after --validate) writes the
    // module.
    let invalid = scratch.path("invalid.hsail");
    std::fs::write(&invalid, INVALID).unwrap();
    for args in [&[][..], &["--validate"], &["--no-validate", "--validate"]] {
        let o = scratch.path("i.brig");
        let _ = std::fs::remove_file(&o);
        let mut argv = vec!["asm", s(&invalid), "-o", s(&o)];
        argv.extend_from_slice(args);
        let out = hsakit(&argv);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("{}:4:21: error: PRM 2.9: ", s(&invalid))),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("1 error found"), "{args:?}: {stderr}");
        assert!(!o.exists(), "{args:?}: output written despite errors");
    }
    for args in [&["--no-validate"][..], &["--validate", "--no-validate"]] {
        let o = scratch.path("i.brig");
        let _ = std::fs::remove_file(&o);
        let mut argv = vec!["asm", s(&invalid), "-o", s(&o)];
        argv.extend_from_slice(args);
        let out = hsakit(&argv);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            std::fs::read(&o).unwrap(),
            hsail::lower::assemble(INVALID, s(&invalid)).unwrap(),
            "{args:?}"
        );
    }

    // Every error is reported, each at its statement, in source order.
    let bad = scratch.path("bad.hsail");
    std::fs::write(&bad, BAD).unwrap();
    let o = scratch.path("b.brig");
    let out = hsakit(&["asm", s(&bad), "-o", s(&o)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("{}:4:15: error: ", s(&bad))),
        "{stderr}"
    );
    assert!(!o.exists(), "output written despite errors");

    // Valid input: the same bytes as plain asm.
    let good = scratch.path("good.hsail");
    std::fs::write(&good, GOOD).unwrap();
    let o = scratch.path("good.brig");
    let out = hsakit(&["asm", s(&good), "-o", s(&o)]);
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

/// Edge cases next to rules the mutation differential found (issue #3):
/// each is valid per the PRM, and HSAILasm accepts it.
const VALID_EDGES: &[&str] = &[
    // PRM 2.6.2 / 4.16.1: WAVESIZE stands for bit values too, b1 included.
    "cvt_u32_b1 $s1, WAVESIZE;",
    "cmov_b32 $s1, WAVESIZE, $s2, $s3;",
    "cbr_b1 WAVESIZE, @l;\n@l:",
    // PRM 11.1: dimensions 0 to 2.
    "workitemid_u32 $s1, 2;",
    // PRM 5.15: unpackcvt elements 0 to 3.
    "unpackcvt_f32_u8x4 $s1, $s2, 3;",
    // PRM 6.3: opaque values loaded from a variable of their own type.
    "ld_global_sig64 $d1, [&s];",
    "ld_global_sig64 $d1, [&sa][8];",
    // PRM 6.4: signal handles (unlike images and samplers) are stored
    // to any segment.
    "st_global_sig64 $d1, [&s];",
    "st_sig64 $d1, [$d2];",
    // PRM 4.18: a segment address with a variable of that segment.
    "ld_global_u64 $d1, [&u];",
    "ld_spill_u32 $s1, [%sp][$s2];",
];

/// Each of [`VALID_EDGES`] in a kernel of the large model.
fn valid_edge_module(body: &str) -> String {
    format!(
        "module &m:1:0:$full:$large:$default;\n\
         global_sig64 &s;\nglobal_sig64 &sa[4];\nglobal_u64 &u;\n\
         kernel &k()\n{{\n\tspill_u32 %sp[4];\n\t{body}\n\tret;\n}};\n"
    )
}

#[test]
fn validate_accepts_valid_edges() {
    let scratch = oracles::Scratch::new("validate-cli-edges");
    let hsailasm = oracles::hsailasm_available();
    if !hsailasm {
        eprintln!("HSAILasm missing: checking the edges without the oracle");
    }
    for (i, body) in VALID_EDGES.iter().enumerate() {
        let text = valid_edge_module(body);
        if hsailasm {
            assert!(
                oracles::hsailasm_assemble(&text).is_ok(),
                "HSAILasm rejects {body}"
            );
        }
        let file = scratch.path(&format!("edge{i}.hsail"));
        std::fs::write(&file, &text).unwrap();
        let out = hsakit(&["validate", s(&file)]);
        assert!(
            out.status.success(),
            "{body}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
