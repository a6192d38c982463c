//! Helpers shared by the integration tests: HSAILasm's output (through the
//! `oracles` crate) and a reader for its `-decode` listings.
#![allow(dead_code)]

/// HSAILasm's BRIG for `src` (the test is named `name` in the message).
pub fn assemble(name: &str, src: &str) -> Vec<u8> {
    oracles::hsailasm_assemble(src)
        .unwrap_or_else(|r| panic!("HSAILasm failed on {name}:\n{}", r.output))
}

/// `HSAILasm -decode` of a module, as YAML text.
pub fn decode(brig: &[u8]) -> String {
    oracles::hsailasm_decode(brig)
        .unwrap_or_else(|r| panic!("HSAILasm -decode failed: {}", r.output))
}

/// One entry of a `-decode` listing: section, kind name, offset, byte count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub section: String,
    pub kind: String,
    pub offset: u64,
    pub byte_count: u64,
}

/// Parses the entry lines of `HSAILasm -decode` output:
/// `Code:` / `Operands:` / `Data:` headings, then `  - Kind: {offset: N, byteCount: M, …}`.
pub fn parse_decode(yaml: &str) -> Vec<Decoded> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in yaml.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line.trim_end_matches(':').to_owned();
            continue;
        }
        let Some(rest) = line.strip_prefix("  - ") else {
            continue;
        };
        let Some((kind, fields)) = rest.split_once(": {") else {
            continue;
        };
        let num = |key: &str| -> Option<u64> {
            let at = fields.find(&format!("{key}: "))? + key.len() + 2;
            let digits: String = fields[at..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            digits.parse().ok()
        };
        if let (Some(offset), Some(byte_count)) = (num("offset"), num("byteCount")) {
            out.push(Decoded {
                section: section.clone(),
                kind: kind.to_owned(),
                offset,
                byte_count,
            });
        }
    }
    out
}

/// The sample HSAIL programs in `tests/data`.
pub fn samples() -> Vec<(&'static str, &'static str)> {
    vec![
        ("kernel", include_str!("../data/kernel.hsail")),
        ("calls", include_str!("../data/calls.hsail")),
        ("coverage", include_str!("../data/coverage.hsail")),
        ("sharing", include_str!("../data/sharing.hsail")),
    ]
}
