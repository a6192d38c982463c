//! The validator against the corpora (issue #3).
//!
//! * `corpus_is_valid`: every `tests/corpus/**/*.hsail`, assembled by
//!   HSAILasm (the oracle for what is valid), validates with zero errors.
//! * `invalid_corpus_is_rejected`: every `tests/corpus-invalid/*.hsail`
//!   starts with `// reject: PRM <section>: <rule>` and
//!   `// hsailasm: rejects` or `// hsailasm: accepts (PRM stricter)`.
//!   HSAILasm must agree with the second line; our validator must report an
//!   error citing the section, on HSAILasm's BRIG when HSAILasm accepts the
//!   file, else on BRIG from our assembler (`hsail::lower::assemble_unchecked`) or on
//!   HSAILasm's BRIG of the file's `// variant:` with `// patch:` fields
//!   patched (see [`apply_patch`]).
//! * `generator_output_is_valid`: `hsail_smith::generate` for seeds
//!   0..60 (`VALIDATE_SMITH_SEEDS=N` for more), assembled by HSAILasm,
//!   validates with zero errors.
//! * `mutated_brig_never_panics`: seeded random bit flips of valid BRIG.

use std::path::{Path, PathBuf};

use brig::{BrigModule, Code};
use hsail::validate::{self, ValidationError};

fn root() -> PathBuf {
    oracles::workspace_root()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn corpus_is_valid() {
    if !oracles::hsailasm_available() {
        return;
    }
    let files = oracles::files_with_extension(&root().join("tests/corpus"), "hsail");
    assert!(files.len() > 50, "corpus not found");
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in &files {
        let brig = match oracles::hsailasm_assemble_file(f) {
            Ok(b) => b,
            Err(e) => panic!("HSAILasm rejects corpus file {}: {}", rel(f), e.output),
        };
        let module = BrigModule::parse(&brig).expect("HSAILasm BRIG parses");
        match validate::validate(&module) {
            Ok(info) => {
                assert!(!info.name.is_empty());
                passed += 1;
            }
            Err(errors) => {
                let mut msg = format!("{}: {} errors", rel(f), errors.len());
                for e in errors.iter().take(12) {
                    msg.push_str("\n  ");
                    msg.push_str(&validate::render(&module, e));
                }
                failures.push(msg);
            }
        }
    }
    eprintln!("validate corpus: {passed}/{} files valid", files.len());
    assert!(
        failures.is_empty(),
        "{} of {} corpus files were rejected (false rejections):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn generator_output_is_valid() {
    if !oracles::hsailasm_available() {
        return;
    }
    let seeds: u64 = std::env::var("VALIDATE_SMITH_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut failures = Vec::new();
    let mut valid = 0;
    let config = hsail_smith::Config::default();
    for seed in 0..seeds {
        let text = hsail_smith::generate(seed, &config);
        let brig = oracles::hsailasm_assemble(&text).unwrap_or_else(|r| {
            panic!("HSAILasm rejects hsail-smith --seed {seed}:\n{}", r.output)
        });
        let module = BrigModule::parse(&brig).expect("HSAILasm BRIG parses");
        let errors: Vec<ValidationError> = match validate::validate(&module) {
            Ok(_) => Vec::new(),
            Err(errors) => errors,
        };
        match errors.is_empty() {
            true => valid += 1,
            false => {
                let mut msg = format!("hsail-smith --seed {seed}: {} errors", errors.len());
                for e in errors.iter().take(6) {
                    msg.push_str("\n  ");
                    msg.push_str(&validate::render(&module, e));
                }
                failures.push(msg);
            }
        }
    }
    eprintln!(
        "generator: {valid}/{seeds} valid, {} rejected",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The two header lines of a negative-corpus file.
struct Expect {
    section: String,
    hsailasm_rejects: bool,
}

fn parse_header(path: &Path, text: &str) -> Expect {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let second = lines.next().unwrap_or("");
    let rest = first.strip_prefix("// reject: ").unwrap_or_else(|| {
        panic!(
            "{}: first line must be `// reject: PRM <section>: <rule>`",
            rel(path)
        )
    });
    let (section, _) = rest
        .split_once(": ")
        .unwrap_or_else(|| panic!("{}: `// reject: PRM <section>: <rule>`", rel(path)));
    assert!(
        section.starts_with("PRM "),
        "{}: section must start with PRM",
        rel(path)
    );
    let hsailasm_rejects = match second.trim() {
        "// hsailasm: rejects" => true,
        s if s.starts_with("// hsailasm: accepts (PRM stricter") => false,
        s => panic!("{}: bad second line {s:?}", rel(path)),
    };
    Expect {
        section: section.to_owned(),
        hsailasm_rejects,
    }
}

/// Whether an error's rule cites `section` (or a subsection of it).
fn cites(e: &ValidationError, section: &str) -> bool {
    e.rule == section
        || e.rule
            .strip_prefix(section)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// BRIG for a file HSAILasm rejects, made from an accepted variant:
/// `// variant: FROM => TO` lines (`\n`, `\t` escapes) turn the file into
/// text HSAILasm accepts; each `// patch: KIND N FIELD[:WIDTH] VALUE` line
/// then sets the little-endian field at byte `FIELD` (`WIDTH` bytes, 1 if
/// omitted) of the `N`-th `hsa_code` entry of kind `KIND` (as named by
/// `brig::dump`, e.g. `InstBasic`; `Operand…` kinds are `hsa_operand`
/// entries) to `VALUE`, which is a number or
/// `@KIND2:N2` (the same field of another entry) or `#KIND2:N2` (the
/// section offset of another entry). `None` without patches.
fn apply_patch(text: &str, path: &Path) -> Option<Vec<u8>> {
    let unescape = |s: &str| s.replace("\\n", "\n").replace("\\t", "\t");
    let mut variant: String = text
        .lines()
        .filter(|l| !l.starts_with("// variant: ") && !l.starts_with("// patch: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut patches = Vec::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("// variant: ") {
            let (from, to) = v.split_once(" => ").expect("variant: FROM => TO");
            let (from, to) = (unescape(from), unescape(to));
            assert!(
                variant.contains(&from),
                "{}: variant text {from:?} not found",
                rel(path)
            );
            variant = variant.replacen(&from, &to, 1);
        }
        if let Some(p) = line.strip_prefix("// patch: ") {
            patches.push(p.to_owned());
        }
    }
    if patches.is_empty() {
        return None;
    }
    let mut brig = oracles::hsailasm_assemble(&variant)
        .unwrap_or_else(|e| panic!("{}: HSAILasm rejects the variant: {}", rel(path), e.output));
    for patch in patches {
        let parts: Vec<&str> = patch.split_whitespace().collect();
        let [kind, n, field, value] = parts[..] else {
            panic!("{}: patch: KIND N FIELD[:WIDTH] VALUE", rel(path))
        };
        let (field, width) = field.split_once(':').unwrap_or((field, "1"));
        let field: usize = field.parse().expect("patch field offset");
        let width: usize = width.parse().expect("patch field width");
        let module = BrigModule::parse(&brig).expect("variant parses");
        let code_file_offset = module.sections()[1].file_offset as usize;
        let op_file_offset = module.sections()[2].file_offset as usize;
        let entry = |kind: &str, n: &str| -> usize {
            let n: usize = n.parse().expect("patch entry index");
            let found = if kind.starts_with("Operand") {
                module
                    .operand_entries()
                    .filter_map(Result::ok)
                    .filter(|(_, o)| brig::dump::operand_kind_name(o) == kind)
                    .nth(n)
                    .map(|(at, _)| op_file_offset + at.get() as usize)
            } else {
                module
                    .code_entries()
                    .filter_map(Result::ok)
                    .filter(|(_, c)| brig::dump::code_kind_name(c) == kind)
                    .nth(n)
                    .map(|(at, _)| code_file_offset + at.get() as usize)
            };
            found.unwrap_or_else(|| panic!("{}: no entry {kind} #{n}", rel(path)))
        };
        let target = entry(kind, n) + field;
        let value: u64 = if let Some(src) = value.strip_prefix('#') {
            let (k2, n2) = src.split_once(':').expect("#KIND:N");
            let base = if k2.starts_with("Operand") {
                op_file_offset
            } else {
                code_file_offset
            };
            (entry(k2, n2) - base) as u64
        } else if let Some(src) = value.strip_prefix('@') {
            let (k2, n2) = src.split_once(':').expect("@KIND:N");
            let from = entry(k2, n2) + field;
            (0..width).fold(0u64, |v, i| v | (u64::from(brig[from + i]) << (8 * i)))
        } else if let Some(h) = value.strip_prefix("0x") {
            u64::from_str_radix(h, 16).expect("patch value")
        } else {
            value.parse().expect("patch value")
        };
        drop(module);
        for i in 0..width {
            brig[target + i] = (value >> (8 * i)) as u8;
        }
    }
    Some(brig)
}

#[test]
fn invalid_corpus_is_rejected() {
    if !oracles::hsailasm_available() {
        return;
    }
    let files = oracles::files_with_extension(&root().join("tests/corpus-invalid"), "hsail");
    assert!(!files.is_empty(), "tests/corpus-invalid is empty");
    let mut failures = Vec::new();
    let (mut ok, mut pending) = (0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let expect = parse_header(f, &text);
        let oracle = oracles::hsailasm_assemble_file(f);
        if oracle.is_err() != expect.hsailasm_rejects {
            failures.push(format!(
                "{}: header says HSAILasm {}, but it {}",
                rel(f),
                if expect.hsailasm_rejects {
                    "rejects"
                } else {
                    "accepts"
                },
                match &oracle {
                    Ok(_) => "accepts it".to_owned(),
                    Err(e) => format!("rejects it: {}", e.output.trim()),
                }
            ));
            continue;
        }
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let brig = match oracle {
            Ok(b) => Some(b),
            Err(_) => apply_patch(&text, f)
                .or_else(|| hsail::lower::assemble_unchecked(&text, &name).ok()),
        };
        let Some(brig) = brig else {
            pending.push(rel(f));
            continue;
        };
        let result = validate::validate_bytes(&brig);
        match result {
            Ok(_) => failures.push(format!(
                "{}: validator accepts it (expected an error citing {})",
                rel(f),
                expect.section
            )),
            Err(errors) if errors.iter().any(|e| cites(e, &expect.section)) => ok += 1,
            Err(errors) => failures.push(format!(
                "{}: no error cites {}; got:\n    {}",
                rel(f),
                expect.section,
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n    ")
            )),
        }
    }
    eprintln!(
        "invalid corpus: {ok}/{} rejected with the right rule; {} pending (no BRIG producer yet: {})",
        files.len(),
        pending.len(),
        pending.join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn mutated_brig_never_panics() {
    if !oracles::hsailasm_available() {
        return;
    }
    let seeds = [
        "tests/corpus/kernels/vector_add.hsail",
        "tests/corpus/func/calls.hsail",
        "tests/corpus/branch/branches.hsail",
        "tests/corpus/decl/variables.hsail",
        "tests/corpus/decl/images.hsail",
        "tests/corpus/directives/control.hsail",
        "tests/corpus/gen/mem/atomic_1.hsail",
        "tests/corpus/gen/image/rdimage.hsail",
        "tests/corpus/gen/inst/cvt_int.hsail",
        "tests/corpus/gen/special/special_small.hsail",
    ];
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut runs, mut parsed, mut rejected) = (0, 0, 0);
    for s in seeds {
        let brig = oracles::hsailasm_assemble_file(&root().join(s)).expect("seed assembles");
        for _ in 0..400 {
            let mut b = brig.clone();
            let flips = 1 + rng.next() % 4;
            for _ in 0..flips {
                // Mostly inside the sections (past the 104-byte header).
                let i = (rng.next() as usize) % b.len();
                b[i] ^= 1 << (rng.next() % 8);
            }
            runs += 1;
            validate::fuzz_one(&b);
            if let Ok(m) = BrigModule::parse(&b) {
                parsed += 1;
                if let Err(errors) = validate::validate(&m) {
                    rejected += 1;
                    for e in &errors {
                        let _ = validate::render(&m, e);
                    }
                }
            }
        }
    }
    eprintln!("mutation: {runs} runs, {parsed} parsed, {rejected} rejected by the validator");
    assert!(parsed > 0);
}

#[test]
fn module_info_describes_vector_add() {
    if !oracles::hsailasm_available() {
        return;
    }
    let brig =
        oracles::hsailasm_assemble_file(&root().join("tests/corpus/kernels/vector_add.hsail"))
            .unwrap();
    let module = BrigModule::parse(&brig).unwrap();
    let info = validate::validate(&module).expect("valid");
    assert_eq!(info.name, "&VectorAdd");
    let k = &info.code_blocks[0];
    assert_eq!(k.name, "&_OpenCL_vec_add_kernel");
    assert_eq!(k.in_args.len(), 4);
    assert_eq!(k.labels.len(), 3);
    assert_eq!(k.instructions.len(), 18);
    // Registers: $c0, $s0..$s3.
    assert_eq!(k.registers.max, [Some(0), Some(3), None, None]);
    assert_eq!(k.registers.distinct, [1, 4, 0, 0]);
    // Blocks: entry (to cbr), br, ret, then-block.
    assert_eq!(k.blocks.len(), 4);
    assert_eq!(k.blocks[0].successors, vec![1, 3]);
    assert_eq!(k.blocks[1].successors, vec![2]);
    assert!(k.blocks[2].successors.is_empty());
    assert_eq!(k.blocks[3].successors, vec![2]);
    let is_ret = |i: usize| matches!(module.code(k.instructions[i]), Ok(Code::InstBasic(b)) if b.base.opcode == brig::BrigOpcode::RET);
    assert!(is_ret(k.blocks[2].first));
}

/// An instruction whose shape matches one that passed is not checked
/// again, so the shape must hold everything the rules read: here the
/// type of an immediate (a signal operand takes only a signal typed
/// constant, PRM 4.8, Table 4-1), after a passing instruction with the
/// same operand sizes.
#[test]
fn memo_tells_immediate_types_apart() {
    let src = "module &m:1:0:$full:$large:$default;\n\
               kernel &k()\n{\n\
               \tst_global_sig64 sig64(0), [$d1];\n\
               \tst_global_sig64 0, [$d1];\n\
               };\n";
    let brig = hsail::lower::assemble_unchecked(src, "memo.hsail").expect("assembles");
    let errors = hsail::validate::validate_bytes(&brig).expect_err("the second st is invalid");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(cites(&errors[0], "PRM 4.8"), "{errors:?}");
}
