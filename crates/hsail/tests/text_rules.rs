//! PRM rules that only the HSAIL text can break: the BRIG of the bad
//! statement is identical to that of a valid one (the suffix or modifier
//! leaves no trace), so the assembler must reject it. Each snippet breaks
//! the PRM rule named beside it (expected from the PRM text, not from
//! HSAILasm, which accepts some of these); its valid neighbour must
//! assemble.

const HEADER: &str = "module &m:1:0:$full:$large:$default;\nextension \"IMAGE\";\nsignature &s()();\nfunction &f()() { ret; };\nkernel &k()\n{\n\t";

/// `(PRM section, bad statement, valid neighbour)`.
const CASES: &[(&str, &str, &str)] = &[
    // 9.4: only activelanemask has a vector form.
    ("9.4", "activelaneid_v2_u32 $s0;", "activelaneid_u32 $s0;"),
    (
        "9.4",
        "activelanecount_v4_u32_b1 $s0, $c0;",
        "activelanecount_u32_b1 $s0, $c0;",
    ),
    (
        "9.4",
        "activelanepermute_v2_b32 $s0, $s1, $s2, $s3, $c0;",
        "activelanepermute_b32 $s0, $s1, $s2, $s3, $c0;",
    ),
    // 10.10: alloca_align(n)_u32, no vector.
    ("10.10", "alloca_v2_u32 $s0, 4;", "alloca_u32 $s0, 4;"),
    // 8.1, 9.1, 10.6: no width modifier, even the one BRIG records.
    ("8.1", "br_width(all) @l;\n@l:", "br @l;\n@l:"),
    ("9.1", "wavebarrier_width(WAVESIZE);", "wavebarrier;"),
    (
        "10.6",
        "{\n\t\tcall_width(all) &f () ();\n\t}",
        "{\n\t\tcall &f () ();\n\t}",
    ),
    // 8.1 (ch. 19 grammar): no comma before the sbr label list.
    ("8.1", "sbr_u32 $s0, [@l];\n@l:", "sbr_u32 $s0 [@l];\n@l:"),
    // 7.2-7.5: the geometry is not optional.
    (
        "7.3",
        "ldimage_v4_f32_roimg_u32 ($s0, $s1, $s2, $s3), $d0, $s4;",
        "ldimage_v4_1d_f32_roimg_u32 ($s0, $s1, $s2, $s3), $d0, $s4;",
    ),
    (
        "7.5",
        "queryimage_width_u32_roimg $s0, $d0;",
        "queryimage_1d_width_u32_roimg $s0, $d0;",
    ),
];

fn program(stmt: &str) -> String {
    format!("{HEADER}{stmt}\n\tret;\n}};\n")
}

#[test]
fn text_only_rules_are_rejected() {
    let mut failures = Vec::new();
    for &(prm, bad, good) in CASES {
        if hsail::assemble(&program(bad), "bad.hsail").is_ok() {
            failures.push(format!("PRM {prm}: accepted {bad:?}"));
        }
        if let Err(e) = hsail::assemble(&program(good), "good.hsail") {
            failures.push(format!("PRM {prm}: rejected the neighbour {good:?}:\n{e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
