//! Every oracle vector both ways: bytes → instruction → text equals what
//! llvm-objdump-19 prints; text (the input line, and objdump's text) →
//! instruction → bytes equals what llvm-mc-19 encodes. Vectors come from
//! `scripts/gen-amdgpu-vectors` (data/amdgpu/vectors/<gfx>.tsv).
//!
//! Families the codec implements must pass every vector except those in
//! `KNOWN_GAPS` (each with its reason); other families are counted only.

use amdgpu_isa::gfx9::{self, Family, InstDef, SrcType, Target};
use std::collections::BTreeMap;

/// Vectors whose objdump text cannot be assembled back to the same bytes,
/// and why: (objdump text prefix, substring the text must also contain (""
/// for any), reason). Only the parse(objdump) direction is skipped for them.
const KNOWN_GAPS: &[(&str, &str, &str)] = &[
    (
        "s_waitcnt",
        "lgkmcnt(15)",
        "`s_waitcnt 0xffff` prints like 0xcf7f (unused bits dropped): the text is ambiguous",
    ),
    (
        "v_nop",
        "",
        "LLVM prints v_nop_e64 as `v_nop`: the text is ambiguous",
    ),
    (
        "v_clrexcp",
        "",
        "LLVM prints v_clrexcp_e64 as `v_clrexcp`: the text is ambiguous",
    ),
];

/// LLVM prints the inline f16 constants of 16-bit integer operands as bit
/// patterns (`v_add_u16_e32 v0, 0x3800, v1`), which llvm-mc-19 reads back
/// as literals: such objdump text does not round-trip (parse direction
/// skipped, as for `KNOWN_GAPS`).
const F16_PATTERNS: [&str; 9] = [
    "0x3800", "0xb800", "0x3c00", "0xbc00", "0x4000", "0xc000", "0x4400", "0xc400", "0x3118",
];

fn i16_inline_float(text: &str, target: Target) -> bool {
    let mn = text.split_whitespace().next().unwrap_or("");
    InstDef::find(mn, target).is_some_and(|d| d.src_type() == SrcType::I16)
        && text.split([' ', ',']).any(|t| F16_PATTERNS.contains(&t))
}

struct Vector {
    input: String,
    bytes: Vec<u8>,
    objdump: String,
}

fn load(target: Target) -> Vec<Vector> {
    let path = format!(
        "{}/../../data/amdgpu/vectors/{}.tsv",
        env!("CARGO_MANIFEST_DIR"),
        target.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("class\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let bytes = (0..f[2].len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&f[2][i..i + 2], 16).unwrap())
                .collect();
            Vector {
                input: f[1].to_string(),
                bytes,
                objdump: f[3].to_string(),
            }
        })
        .collect()
}

#[derive(Default, Debug)]
struct Count {
    total: usize,
    decode_ok: usize,
    parse_objdump_ok: usize,
    parse_input_ok: usize,
}

fn family_of(bytes: &[u8]) -> Family {
    let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    gfx9::classify(w).0
}

fn run(target: Target) {
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut failures = Vec::new();
    for v in load(target) {
        let fam = family_of(&v.bytes);
        let c = counts.entry(format!("{fam:?}")).or_default();
        c.total += 1;
        if !fam.is_supported() {
            continue;
        }
        let gap = KNOWN_GAPS
            .iter()
            .any(|(p, sub, _)| v.objdump.starts_with(p) && v.objdump.contains(sub))
            || i16_inline_float(&v.objdump, target);
        let mut fail = |what: String| failures.push(format!("{}: {what}", target.name()));
        match gfx9::decode(&v.bytes, target) {
            Ok((inst, len)) if len == v.bytes.len() && gfx9::print(&inst) == v.objdump => {
                c.decode_ok += 1
            }
            Ok((inst, len)) => fail(format!(
                "decode {} -> `{}` (len {len}), objdump `{}`",
                hex(&v.bytes),
                gfx9::print(&inst),
                v.objdump
            )),
            Err(e) => fail(format!(
                "decode {} failed: {e} (objdump `{}`)",
                hex(&v.bytes),
                v.objdump
            )),
        }
        for (text, slot) in [(&v.objdump, 0), (&v.input, 1)] {
            if gap && slot == 0 {
                continue;
            }
            match gfx9::parse_line(text, target).and_then(|i| gfx9::encode(&i, target)) {
                Ok(b) if b == v.bytes => {
                    if slot == 0 {
                        c.parse_objdump_ok += 1
                    } else {
                        c.parse_input_ok += 1
                    }
                }
                Ok(b) => fail(format!(
                    "assemble `{text}` -> {} want {}",
                    hex(&b),
                    hex(&v.bytes)
                )),
                Err(e) => fail(format!("assemble `{text}`: {e} (want {})", hex(&v.bytes))),
            }
        }
    }
    eprintln!(
        "{}: family total decode+print parse(objdump) parse(input)",
        target.name()
    );
    for (f, c) in &counts {
        eprintln!(
            "  {f:10} {:6} {:6} {:6} {:6}",
            c.total, c.decode_ok, c.parse_objdump_ok, c.parse_input_ok
        );
    }
    if !failures.is_empty() {
        let n = failures.len();
        if std::env::var_os("ALL").is_none() {
            failures.truncate(40);
        }
        panic!("{n} failures, first ones:\n{}", failures.join("\n"));
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn gfx900_vectors() {
    run(Target::Gfx900);
}

#[test]
fn gfx906_vectors() {
    run(Target::Gfx906);
}

#[test]
fn gfx908_vectors() {
    run(Target::Gfx908);
}

#[test]
fn gfx90a_vectors() {
    run(Target::Gfx90a);
}

#[test]
fn gfx942_vectors() {
    run(Target::Gfx942);
}

#[test]
fn gfx904_vectors() {
    run(Target::Gfx904);
}

#[test]
fn gfx9_generic_vectors() {
    run(Target::Gfx9Generic);
}
