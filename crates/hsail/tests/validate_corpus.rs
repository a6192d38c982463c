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
/// again, so the shape must hold everything the rules read. Each case is
/// a valid instruction followed by one that differs from it only in one
/// thing the rules read, and breaks a rule there: the second must be
/// reported, as it is without the memo.
#[test]
fn memo_tells_shapes_apart() {
    let cases = [
        // The type of an immediate (a signal operand takes only a signal
        // typed constant: PRM 4.8, Table 4-1).
        (
            "",
            "st_global_sig64 sig64(0), [$d1];",
            "st_global_sig64 0, [$d1];",
        ),
        // The segment of the variable an address names (PRM 4.18).
        (
            "prog global_u32 &g;\nprog group_u32 &h;",
            "ld_global_u32 $s1, [&g];",
            "ld_global_u32 $s1, [&h];",
        ),
        // The class of an address register (PRM 2.9).
        ("", "ld_global_u32 $s1, [$d2];", "ld_global_u32 $s1, [$s2];"),
        // The class of a register operand (PRM 4.16.2).
        ("", "add_u32 $s1, $s2, $s3;", "add_u32 $s1, $s2, $d3;"),
        // Registers repeated in a vector destination (PRM 4.17).
        (
            "",
            "ld_v2_global_u32 ($s1, $s2), [$d2];",
            "ld_v2_global_u32 ($s1, $s1), [$d2];",
        ),
        // An opaque variable loaded with another type (PRM 6.3).
        (
            "extension \"IMAGE\";\nprog global_roimg &i;\nprog global_u64 &j;",
            "ld_global_u64 $d1, [&j];",
            "ld_global_u64 $d1, [&i];",
        ),
    ];
    for (decls, good, bad) in cases {
        let src = format!(
            "module &m:1:0:$full:$large:$default;\n{decls}\nkernel &k()\n{{\n\t{good}\n\t{bad}\n}};\n"
        );
        let brig = hsail::lower::assemble_unchecked(&src, "memo.hsail")
            .unwrap_or_else(|e| panic!("{bad}: does not assemble: {e:?}"));
        let m = BrigModule::parse(&brig).expect("parses");
        let with = validate::validate(&m).map(drop);
        let without = validate::validate_unmemoized(&m).map(drop);
        assert_eq!(with, without, "{bad}: the memo changed the verdict");
        let errors = with.expect_err(bad);
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
    }
}

/// The instruction memo skips instructions of a shape that already passed,
/// so it must not change any verdict: field changes in instruction and
/// operand entries of generated modules (where most shapes repeat) —
/// random bytes, and swaps that keep the module well formed (an address
/// naming another variable, a register of another class or number, an
/// immediate of another type) — get the same errors with and without it.
#[test]
fn memo_changes_no_verdict() {
    use brig::{BrigKind, BrigSectionIndex};
    let mut rng = Rng(0x6d65_6d6f_5eed_0002);
    let (mut modules, mut invalid) = (0, 0);
    for seed in 0..24u64 {
        let src = hsail_smith::generate(seed, &hsail_smith::Config::default());
        let brig = hsail::lower::assemble(&src, "smith.hsail").expect("generated module assembles");
        let parsed = BrigModule::parse(&brig).expect("parses");
        // (file offset, size, kind) of instruction and operand entries,
        // and the section offsets of the variables.
        let (mut targets, mut variables) = (Vec::new(), Vec::new());
        for which in [BrigSectionIndex::CODE, BrigSectionIndex::OPERAND] {
            let sec = parsed.section(which).expect("standard section");
            let base = sec.file_offset as usize;
            let mut at = sec.first_entry() as usize;
            while at + 4 <= sec.bytes.len() {
                let len = usize::from(u16::from_le_bytes([sec.bytes[at], sec.bytes[at + 1]]));
                if len < 4 {
                    break;
                }
                let kind =
                    BrigKind::new(u16::from_le_bytes([sec.bytes[at + 2], sec.bytes[at + 3]]));
                if kind == BrigKind::DIRECTIVE_VARIABLE {
                    variables.push(at as u32);
                }
                if (which == BrigSectionIndex::OPERAND || kind.is_inst()) && len > 4 {
                    targets.push((base + at, len, kind));
                }
                at += len;
            }
        }
        drop(parsed);
        for _ in 0..16 {
            let mut b = brig.clone();
            for _ in 0..1 + rng.next() % 2 {
                let (at, len, kind) = targets[(rng.next() as usize) % targets.len()];
                let r = rng.next();
                let put16 = |b: &mut Vec<u8>, i: usize, v: u16| {
                    b[i..i + 2].copy_from_slice(&v.to_le_bytes())
                };
                match kind {
                    BrigKind::OPERAND_ADDRESS if r.is_multiple_of(2) && !variables.is_empty() => {
                        let v = variables[(rng.next() as usize) % variables.len()];
                        b[at + 4..at + 8].copy_from_slice(&v.to_le_bytes());
                    }
                    BrigKind::OPERAND_REGISTER if r.is_multiple_of(2) => {
                        put16(&mut b, at + 4, (rng.next() % 4) as u16);
                        put16(&mut b, at + 6, (rng.next() % 8) as u16);
                    }
                    BrigKind::OPERAND_CONSTANT_BYTES if r.is_multiple_of(2) => {
                        const TYPES: [u16; 8] = [3, 4, 7, 8, 12, 15, 20, 21];
                        put16(&mut b, at + 4, TYPES[(rng.next() % 8) as usize]);
                    }
                    _ => {
                        // A field byte past the entry header (size and kind
                        // stay).
                        let i = at + 4 + (rng.next() as usize) % (len - 4);
                        b[i] = match rng.next() % 3 {
                            0 => b[i] ^ (1 << (rng.next() % 8)),
                            1 => b[i].wrapping_add(1),
                            _ => rng.next() as u8,
                        };
                    }
                }
            }
            let Ok(m) = BrigModule::parse(&b) else {
                continue;
            };
            modules += 1;
            let with = validate::validate(&m).map(drop);
            let without = validate::validate_unmemoized(&m).map(drop);
            invalid += usize::from(with.is_err());
            assert_eq!(
                with, without,
                "smith seed {seed}: the memo changed the verdict"
            );
        }
    }
    eprintln!("memo: {modules} changed modules, {invalid} invalid, same errors with and without");
    assert!(
        invalid > modules / 4,
        "too few changes were invalid ({invalid} of {modules})"
    );
}
