//! Test support for differential tests: runs the oracles (reference
//! implementations installed from Debian, see `README.md`) and applies one
//! policy when an oracle is missing: a developer's run skips with a loud
//! message, a CI run (env `CI` set) fails.
//!
//! Nothing here is used by the shipped crates; only tests and benchmarks
//! depend on it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Whether `program` can be found on `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Returns `true` when `program` is available. Otherwise prints a loud
/// notice and returns `false` on a developer machine, and panics in CI,
/// where every oracle test must run.
pub fn require(program: &str, package: &str) -> bool {
    if on_path(program) {
        return true;
    }
    let msg = format!(
        "oracle `{program}` (Debian package `{package}`) is not installed; \
         run scripts/test to install it"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}: CI must run every oracle test");
    }
    // Straight to stderr: the test harness captures `eprintln!`, which would
    // hide the notice in a passing run.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("\n!!!!! SKIPPED: {msg} !!!!!\n\n").as_bytes(),
    );
    false
}

/// Whether HSAILasm (package `hsail-tools`) is usable; see [`require`].
pub fn hsailasm_available() -> bool {
    require("HSAILasm", "hsail-tools")
}

/// A fresh scratch directory under the system temp dir, removed on drop.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Creates a unique directory for this process and call.
    pub fn new(tag: &str) -> Scratch {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("hsakit-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("cannot create a scratch directory");
        Scratch { dir }
    }

    /// A path inside the scratch directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What HSAILasm said when it rejected an input: its stdout (it prints
/// errors there) and exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Exit status (1 for an error, 134 for an internal assertion).
    pub status: Option<i32>,
    /// Its whole output.
    pub output: String,
}

impl Rejected {
    /// The first `input(LINE,COL)` position HSAILasm reported, if any.
    pub fn position(&self) -> Option<(u32, u32)> {
        let start = self.output.find("input(")? + "input(".len();
        let rest = &self.output[start..];
        let end = rest.find(')')?;
        let (line, col) = rest[..end].split_once(',')?;
        Some((line.trim().parse().ok()?, col.trim().parse().ok()?))
    }
}

fn run(cmd: &mut Command) -> Result<(), Rejected> {
    let out = cmd.output().expect("cannot start HSAILasm");
    if out.status.success() {
        return Ok(());
    }
    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stderr));
    Err(Rejected {
        status: out.status.code(),
        output,
    })
}

/// `HSAILasm IN -o OUT`: the reference BRIG for an HSAIL file.
pub fn hsailasm_assemble_file(input: &Path) -> Result<Vec<u8>, Rejected> {
    let scratch = Scratch::new("asm");
    let out = scratch.path("out.brig");
    run(Command::new("HSAILasm").arg(input).arg("-o").arg(&out))?;
    Ok(std::fs::read(&out).expect("HSAILasm succeeded but wrote no output"))
}

/// The reference BRIG for HSAIL text.
pub fn hsailasm_assemble(source: &str) -> Result<Vec<u8>, Rejected> {
    let scratch = Scratch::new("asm-src");
    let input = scratch.path("in.hsail");
    std::fs::write(&input, source).expect("cannot write a scratch file");
    hsailasm_assemble_file(&input)
}

/// `HSAILasm -disassemble`: the canonical text of a BRIG module.
pub fn hsailasm_disassemble(brig: &[u8]) -> Result<String, Rejected> {
    let scratch = Scratch::new("dis");
    let input = scratch.path("in.brig");
    let out = scratch.path("out.hsail");
    std::fs::write(&input, brig).expect("cannot write a scratch file");
    run(Command::new("HSAILasm")
        .arg("-disassemble")
        .arg(&input)
        .arg("-o")
        .arg(&out))?;
    let bytes = std::fs::read(&out).expect("HSAILasm succeeded but wrote no output");
    Ok(String::from_utf8(bytes).expect("HSAILasm wrote non-UTF-8 text"))
}

/// `HSAILasm -decode`: HSAILasm's YAML listing of every entry, for messages.
pub fn hsailasm_decode(brig: &[u8]) -> Result<String, Rejected> {
    let scratch = Scratch::new("dec");
    let input = scratch.path("in.brig");
    let out = scratch.path("out.yaml");
    std::fs::write(&input, brig).expect("cannot write a scratch file");
    run(Command::new("HSAILasm")
        .arg("-decode")
        .arg(&input)
        .arg("-o")
        .arg(&out))?;
    Ok(String::from_utf8_lossy(&std::fs::read(&out).unwrap_or_default()).into_owned())
}

/// The workspace root (two levels above a crate's manifest directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` (recursively) whose name ends in `.ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The first difference between two byte strings, as an offset.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// A short report of the first differing line of two texts, with context.
pub fn text_difference(expected: &str, actual: &str) -> Option<String> {
    let e: Vec<&str> = expected.split('\n').collect();
    let a: Vec<&str> = actual.split('\n').collect();
    let i = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i))?;
    let from = i.saturating_sub(3);
    let mut s = format!("first difference at line {}:\n", i + 1);
    for line in &e[from..i.min(e.len())] {
        s.push_str(&format!("   {line}\n"));
    }
    s.push_str(&format!(
        " - {}\n",
        e.get(i).copied().unwrap_or("<end of text>")
    ));
    s.push_str(&format!(
        " + {}\n",
        a.get(i).copied().unwrap_or("<end of text>")
    ));
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_is_read_from_hsailasm_output() {
        let r = Rejected {
            status: Some(1),
            output: "> x\n>  ^\ninput(21,34): bad\n".into(),
        };
        assert_eq!(r.position(), Some((21, 34)));
    }

    #[test]
    fn differences_are_located() {
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"ab", b"abc"), Some(2));
        assert_eq!(first_difference(b"ab", b"ab"), None);
        assert!(text_difference("a\nb", "a\nc").unwrap().contains("line 2"));
        assert_eq!(text_difference("a", "a"), None);
    }
}
