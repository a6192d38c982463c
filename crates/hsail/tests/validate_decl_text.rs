//! Rules on declarations and constants that only the HSAIL text shows
//! (BRIG loses the difference), where the PRM is stricter than HSAILasm:
//! each program is rejected citing its PRM section; each valid neighbour
//! (accepted by HSAILasm too, see tests/corpus/audit/audit_decl.hsail)
//! is accepted (or, for white space, accepted per PRM 4.4).

use hsail::lower::assemble_validated;

const FULL: &str = "module &m:1:0:$full:$large:$default;\n";
const BASE: &str = "module &m:1:0:$base:$large:$default;\n";

/// (header, body, PRM section the error cites).
const INVALID: &[(&str, &str, &str)] = &[
    // PRM 4.3.10: alloc is only for global segment variables (HSAILasm
    // drops it on an argument).
    (
        FULL,
        "function &f()(alloc(agent) arg_u32 %x) { ret; };",
        "PRM 4.3.10",
    ),
    // PRM 4.8.2, 16.2.1: no double-precision constants in the base
    // profile, even where only the bits are used (b64).
    (BASE, "global_b64 &x = 1.5;", "PRM 16.2.1"),
    (
        BASE,
        "kernel &k() { mov_b64 $d0, 0D3ff8000000000000; ret; };",
        "PRM 16.2.1",
    ),
];

/// Valid neighbours of the cases above.
const VALID: &[(&str, &str)] = &[
    (FULL, "alloc(agent) global_u32 &x;"),
    (BASE, "global_b64 &x = 0x3ff8000000000000;"),
    (BASE, "kernel &k() { mov_b32 $s0, 1.5f; ret; };"),
    (FULL, "global_sig64 &s[2] = sig64[](sig64(0), sig64(0));"),
    // PRM 4.4: vertical tab and form feed are white space (HSAILasm
    // rejects the vertical tab).
    (FULL, "global_u32\x0b&x;\x0c"),
];

#[test]
fn text_only_rules_are_rejected() {
    let mut failures = Vec::new();
    for &(hdr, body, section) in INVALID {
        let text = format!("{hdr}{body}\n");
        match assemble_validated(&text, "t.hsail", true) {
            Ok(_) => failures.push(format!("accepted: {body}")),
            Err(d) if d.iter().any(|d| d.message.starts_with(section)) => {}
            Err(d) => failures.push(format!("{body}: no error cites {section}:\n{d}")),
        }
    }
    for &(hdr, body) in VALID {
        let text = format!("{hdr}{body}\n");
        if let Err(d) = assemble_validated(&text, "t.hsail", true) {
            failures.push(format!("rejected: {body}\n{d}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
