//! Test support for differential tests: runs the oracles (reference
//! implementations installed from Debian, see `README.md`) and applies one
//! policy when an oracle is missing: a developer's run skips with a loud
//! message, a CI run (env `CI` set) fails.
//!
//! Besides the oracle runners: [`Scratch`] directories, the corpus, ways
//! to show where two outputs differ, and [`mutate`], the seeded generator
//! and byte mutations of the fuzz smoke and robustness tests.
//!
//! Nothing here is used by the shipped crates; only tests and benchmarks
//! depend on it.

pub mod mutate;

pub use mutate::Rng;

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

/// Whether the LLVM 19 tools for AMDGPU machine code are usable
/// (`llvm-mc-19`, `llvm-readelf-19`, `llvm-objdump-19` from `llvm-19`;
/// `ld.lld-19` from `lld-19`); see [`require`].
pub fn llvm_available() -> bool {
    ["llvm-mc-19", "llvm-readelf-19", "llvm-objdump-19"]
        .iter()
        .all(|tool| require(tool, "llvm-19"))
        && require("ld.lld-19", "lld-19")
}

/// Whether `clang-19` (package `clang-19`) is usable; see [`require`].
pub fn clang_available() -> bool {
    require("clang-19", "clang-19")
}

/// Whether gccbrig can compile and run HSAIL kernels on the host:
/// `gccbrig-11` (package `gccbrig-11`, which brings `gcc-11`,
/// `libhsail-rt-11-dev` and HSAILasm along); see [`require`].
pub fn gccbrig_available() -> bool {
    require("gccbrig-11", "gccbrig-11")
        && require("gcc-11", "gcc-11")
        && require("HSAILasm", "hsail-tools")
}

/// Runs an oracle command that must succeed and returns its standard
/// output; panics with both output streams when it fails.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("oracle output is not UTF-8")
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

    /// Keeps the directory (for a failure message to point at) and returns
    /// its path.
    pub fn keep(self) -> PathBuf {
        let dir = self.dir.clone();
        std::mem::forget(self);
        dir
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

fn run_hsailasm(cmd: &mut Command) -> Result<(), Rejected> {
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
    hsailasm_assemble_file_with(input, &[])
}

/// `HSAILasm ARGS… IN -o OUT` (`args` such as `-g`).
pub fn hsailasm_assemble_file_with(input: &Path, args: &[&str]) -> Result<Vec<u8>, Rejected> {
    let scratch = Scratch::new("asm");
    let out = scratch.path("out.brig");
    run_hsailasm(
        Command::new("HSAILasm")
            .args(args)
            .arg(input)
            .arg("-o")
            .arg(&out),
    )?;
    Ok(std::fs::read(&out).expect("HSAILasm succeeded but wrote no output"))
}

/// The reference BRIG for HSAIL text.
pub fn hsailasm_assemble(source: &str) -> Result<Vec<u8>, Rejected> {
    hsailasm_assemble_with(source, &[])
}

/// The reference BRIG for HSAIL text, with extra HSAILasm `args`.
pub fn hsailasm_assemble_with(source: &str, args: &[&str]) -> Result<Vec<u8>, Rejected> {
    let scratch = Scratch::new("asm-src");
    let input = scratch.path("in.hsail");
    std::fs::write(&input, source).expect("cannot write a scratch file");
    hsailasm_assemble_file_with(&input, args)
}

/// `HSAILasm -disassemble`: the canonical text of a BRIG module.
pub fn hsailasm_disassemble(brig: &[u8]) -> Result<String, Rejected> {
    let bytes =
        hsailasm_read_brig("-disassemble", brig)?.expect("HSAILasm succeeded but wrote no output");
    Ok(String::from_utf8(bytes).expect("HSAILasm wrote non-UTF-8 text"))
}

/// `HSAILasm -decode`: HSAILasm's YAML listing of every entry, for messages.
pub fn hsailasm_decode(brig: &[u8]) -> Result<String, Rejected> {
    let bytes = hsailasm_read_brig("-decode", brig)?.unwrap_or_default();
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `HSAILasm MODE IN -o OUT` for a BRIG input: what it wrote to `OUT`.
fn hsailasm_read_brig(mode: &str, brig: &[u8]) -> Result<std::io::Result<Vec<u8>>, Rejected> {
    let scratch = Scratch::new("dis");
    let input = scratch.path("in.brig");
    let out = scratch.path("out.txt");
    std::fs::write(&input, brig).expect("cannot write a scratch file");
    run_hsailasm(
        Command::new("HSAILasm")
            .arg(mode)
            .arg(&input)
            .arg("-o")
            .arg(&out),
    )?;
    Ok(std::fs::read(&out))
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

/// Every HSAIL file of the corpus (`tests/corpus/**/*.hsail`), sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    files_with_extension(&workspace_root().join("tests/corpus"), "hsail")
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

/// Where two BRIG modules first differ: the file offset, the section it
/// falls in (by `expected`'s section index) and the first differing line of
/// `HSAILasm -decode` of both; `None` if they are equal.
pub fn brig_difference(expected: &[u8], actual: &[u8]) -> Option<String> {
    let at = first_difference(expected, actual)?;
    let mut msg = format!(
        "BRIG differs at file offset {at:#x} ({}); sizes {} (expected) vs {} (actual)\n",
        brig_section_of(expected, at),
        expected.len(),
        actual.len()
    );
    match (hsailasm_decode(expected), hsailasm_decode(actual)) {
        (Ok(e), Ok(a)) => match text_difference(&e, &a) {
            Some(d) => msg.push_str(&format!("HSAILasm -decode of both, {d}")),
            None => msg.push_str("(HSAILasm -decode shows no difference)\n"),
        },
        (_, Err(r)) => msg.push_str(&format!(
            "HSAILasm cannot decode the actual BRIG: {}\n",
            r.output
        )),
        (Err(r), _) => msg.push_str(&format!(
            "HSAILasm cannot decode the expected BRIG: {}\n",
            r.output
        )),
    }
    Some(msg)
}

/// `hsa_code + 0x1c` for a file offset of a BRIG module (read from its
/// section index; `header` before the first section).
fn brig_section_of(brig: &[u8], offset: usize) -> String {
    let u = |at: usize, n: usize| -> Option<u64> {
        let b = brig.get(at..at.checked_add(n)?)?;
        Some(b.iter().rev().fold(0, |a, &x| (a << 8) | u64::from(x)))
    };
    let count = u(92, 4).unwrap_or(0).min(64) as usize;
    let index = u(96, 8).unwrap_or(0) as usize;
    let mut found = ("header".to_owned(), offset);
    for i in 0..count {
        let Some(start) = u(index + 8 * i, 8).map(|s| s as usize) else {
            break;
        };
        if (start..start + u(start, 8).unwrap_or(0) as usize).contains(&offset) {
            let name = match i {
                0..=2 => ["hsa_data", "hsa_code", "hsa_operand"][i].to_owned(),
                _ => format!("section #{i}"),
            };
            found = (name, offset - start);
        }
    }
    format!("{} + {:#x}", found.0, found.1)
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
        assert_eq!(brig_difference(b"ab", b"ab"), None);
    }

    #[test]
    fn brig_offsets_name_their_section() {
        // A header whose section index (at 104) lists two sections.
        let mut b = vec![0u8; 160];
        b[92] = 2;
        b[96] = 104;
        b[104] = 128;
        b[112] = 144;
        b[128] = 16; // hsa_data: 16 bytes at 128
        b[144] = 16; // hsa_code: 16 bytes at 144
        assert_eq!(brig_section_of(&b, 10), "header + 0xa");
        assert_eq!(brig_section_of(&b, 130), "hsa_data + 0x2");
        assert_eq!(brig_section_of(&b, 150), "hsa_code + 0x6");
    }
}
