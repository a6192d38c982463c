//! `assemble` never panics: seeded random mutations of the corpus and of
//! hand-written inputs (garbage, huge numbers, deep nesting) must give
//! `Ok` or `Err` with diagnostics, never a panic.

use oracles::Rng;
use oracles::mutate::{delete_range, duplicate_chunk, insert, truncate};

const PIECES: &[&str] = &[
    ";",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "+",
    "-",
    "$s1",
    "$d99999",
    "$q",
    "&x",
    "%y",
    "@l",
    "@l:",
    "0x",
    "0xffffffffffffffffffffff",
    "1.5",
    "1.5f",
    "0F",
    "0H3c00",
    "u8x4(",
    "u32[](",
    "\"",
    "\"abc",
    "/*",
    "*/",
    "//",
    "\n",
    "ld_global_align(",
    "_u32",
    "width(",
    "WAVESIZE",
    "kernel",
    "function",
    "decl",
    "prog",
    "arg_u32",
    "global_b128",
    "rwimg(",
    "samp(",
    "call",
    "{ arg_u32 %a; }",
    "pragma",
    "loc",
    "extension \"IMAGE\";",
    "requireddim",
    "sbr_u32 $s1 [",
    "cvt_upi_sat_s32_f32",
    "\u{00e9}",
    "\u{1F600}",
    "\0",
    "999999999999999999999999999",
    "-0x8000000000000000",
];

/// The corpus and a small kernel.
fn sources() -> Vec<String> {
    let mut out: Vec<String> = oracles::corpus_files()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    out.sort();
    out.push(
        "module &m:1:0:$full:$small:$default;\nkernel &k(kernarg_u32 %a)\n{\n\tld_kernarg_u32 $s0, [%a];\n\tadd_u32 $s1, $s0, 1;\n\tret;\n};\n"
            .to_string(),
    );
    out
}

/// Up to four edits: deletions, insertions of [`PIECES`], duplicated
/// chunks, truncation (a mutation that splits a character leaves U+FFFD).
fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut s = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 => delete_range(rng, &mut s, 40),
            1 => {
                let piece = rng.pick(PIECES).as_bytes();
                insert(rng, &mut s, piece);
            }
            2 => duplicate_chunk(rng, &mut s, 40),
            3 => truncate(rng, &mut s),
            _ => {
                delete_range(rng, &mut s, 40);
                let piece = rng.pick(PIECES).as_bytes();
                insert(rng, &mut s, piece);
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

#[test]
fn mutated_inputs_never_panic() {
    let srcs = sources();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let cases = 3000;
    let mut errors = 0;
    for i in 0..cases {
        let base = &srcs[i % srcs.len()];
        let m = mutate(&mut rng, base);
        let _ = hsail::lower::assemble_unchecked(&m, "fuzz.hsail");
        if let Err(d) = hsail::assemble(&m, "fuzz.hsail") {
            assert!(!d.is_empty(), "error without diagnostics for:\n{m}");
            let _ = d.to_string();
            errors += 1;
        }
    }
    eprintln!("{cases} mutated inputs, {errors} rejected, none panicked");
}

#[test]
fn pathological_inputs_never_panic() {
    let deep_paren = format!("pragma {}1{};", "u8x4(".repeat(5000), ")".repeat(5000));
    let deep_curl = format!("kernel &k() {}ret;{};", "{".repeat(5000), "}".repeat(5000));
    let inputs = [
        String::new(),
        "\0\0\0".to_string(),
        "module".to_string(),
        "module &m:99999999999999999999:0:$full:$small:$default;".to_string(),
        "}".repeat(10_000),
        ";".repeat(10_000),
        deep_paren,
        deep_curl,
        "kernel &k() { mov_b32 $s1, 0xffffffffffffffffffffffffffff; };".to_string(),
        "kernel &k() { mov_b32 $s4294967296, 1; };".to_string(),
        "kernel &k() { ld_global_width(4294967296)_u32 $s1, [0]; };".to_string(),
        "global_u32 &x[0];".to_string(),
        "global_u32 &x[] = u32[]();".to_string(),
        "/* abc".to_string(),
        "\"abc".to_string(),
        "kernel &k() { @a: br @a; br @b; };".to_string(),
    ];
    for s in &inputs {
        let _ = hsail::assemble(s, "p.hsail");
        let _ = hsail::lower::assemble_unchecked(s, "p.hsail");
    }
}
