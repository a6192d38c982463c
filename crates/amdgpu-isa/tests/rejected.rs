//! Lines llvm-mc-19 rejects (data/amdgpu/vectors/<gfx>.rejected.tsv, with
//! its error and column) must not assemble here either.

use amdgpu_isa::gfx9::{self, Target};

fn run(target: Target) -> (usize, Vec<String>) {
    let path = format!(
        "{}/../../data/amdgpu/vectors/{}.rejected.tsv",
        env!("CARGO_MANIFEST_DIR"),
        target.name()
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut total = 0;
    let mut accepted = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("class\t"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        total += 1;
        if let Ok(bytes) = gfx9::parse_line(f[1], target).and_then(|i| gfx9::encode(&i, target)) {
            accepted.push(format!(
                "{}: `{}` -> {bytes:02x?} (llvm-mc: {})",
                target.name(),
                f[1],
                f[3]
            ));
        }
    }
    (total, accepted)
}

#[test]
fn llvm_rejected_lines_are_rejected() {
    let mut all = Vec::new();
    for t in Target::ALL {
        let (total, accepted) = run(t);
        eprintln!(
            "{}: {} rejected lines, {} accepted here",
            t.name(),
            total,
            accepted.len()
        );
        all.extend(accepted);
    }
    let n = all.len();
    if std::env::var_os("ALL").is_none() {
        all.truncate(60);
    }
    assert!(
        n == 0,
        "{n} lines llvm-mc rejects are accepted:\n{}",
        all.join("\n")
    );
}
