//! Helpers shared by the integration tests: finding and running HSAILasm.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `HSAILasm` if it is usable; the `oracles` crate applies the project's
/// policy when it is missing (skip loudly on a developer box, fail in CI).
pub fn hsailasm() -> Option<PathBuf> {
    oracles::hsailasm_available().then(|| PathBuf::from("HSAILasm"))
}

/// A fresh scratch directory under the system temp dir.
pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "brig-test-{}-{}-{}",
        tag,
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Assembles `src` with HSAILasm into `dir/name.brig`; returns the bytes.
pub fn assemble(asm: &Path, dir: &Path, name: &str, src: &str) -> Vec<u8> {
    let hsail = dir.join(format!("{name}.hsail"));
    let brig = dir.join(format!("{name}.brig"));
    std::fs::write(&hsail, src).unwrap();
    let out = Command::new(asm)
        .arg(&hsail)
        .arg("-o")
        .arg(&brig)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "HSAILasm failed on {name}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&brig).unwrap()
}

/// `HSAILasm -decode` of `brig` (a file path) as YAML text.
pub fn decode(asm: &Path, brig: &Path) -> String {
    let yaml = brig.with_extension("yaml");
    let out = Command::new(asm)
        .arg("-decode")
        .arg(brig)
        .arg("-o")
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "HSAILasm -decode failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::read_to_string(&yaml).unwrap()
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
