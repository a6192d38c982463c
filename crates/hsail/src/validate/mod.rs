//! The HSAIL validator: HSA PRM 1.0 rules over a BRIG module.
//!
//! ```text
//!  BRIG bytes ─► BrigModule::parse ─► validate ─► ModuleInfo ─► finalizer
//!                                        │
//!                                        └─► Vec<ValidationError> (all of them)
//! ```
//!
//! The validator works on BRIG, so it checks modules from any producer; for
//! BRIG made by our own assembler the caller maps `(section, offset)` back to
//! a source span. It runs in layers, each relying on the previous one:
//!
//! 0. [`index`]: a view of the module that checks and decodes the entry
//!    at an offset in constant time, on demand (from `BrigModule`'s
//!    entry-start bitsets), so the layers hold no per-entry tables.
//! 1. [`structure`]: every offset a field holds points at an entry start of
//!    the right section and an allowed kind, lists and strings are well
//!    formed, the `nextModuleEntry`/`firstCodeBlockEntry` chains are
//!    consistent (PRM 18). If this layer finds anything, validation stops:
//!    later layers index without checks.
//! 2. [`inst`]: per-instruction rules (PRM ch. 5–11, 16), driven by the
//!    table in [`rules`]: format, operand count and kinds, types, modifiers,
//!    segments, memory orders and scopes, profile and machine model.
//!    Layer 3 runs them through a memo: an instruction's *shape* (its
//!    fields and, per operand, what the rules read — read in place, see
//!    [`inst::memo_hit`]) that passed once passes again, so most
//!    instructions are only looked up; `validate_unmemoized` and the tests
//!    `memo_tells_shapes_apart` / `memo_changes_no_verdict` keep it exact.
//! 3. [`scope`]: declarations, definitions and linkage (PRM 4.3, 4.11,
//!    4.12), code blocks, labels and branch targets (4.9, 8), arg blocks and
//!    calls (10), directive placement (13), extensions, Appendix A limits.
//!
//! What the layers learn — symbols, code blocks with their labels,
//! instructions, basic blocks and register use — is returned as a
//! [`ModuleInfo`] so the finalizer does not recompute it.

pub mod index;
pub mod inst;
pub mod rules;
pub mod scope;
pub mod structure;

use core::fmt;
use std::collections::BTreeMap;

use brig::{
    BrigLinkage, BrigMachineModel, BrigModule, BrigProfile, BrigRound, BrigSectionIndex, CodeOffset,
};

/// The `section` of an error located by a byte offset from the start of
/// the module (a bad module header, section index or section header).
pub const FILE_OFFSET: BrigSectionIndex = BrigSectionIndex::new(u32::MAX);

/// One violated rule, located at the offending BRIG entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The PRM section that states the rule, e.g. `"PRM 5.2"`.
    pub rule: &'static str,
    /// What is wrong, in words.
    pub message: String,
    /// The section holding the offending entry (usually `hsa_code`).
    pub section: BrigSectionIndex,
    /// Section-relative offset of the offending entry.
    pub offset: u32,
    /// The offending operand (0-based index into the instruction's operand
    /// list), when one operand is at fault.
    pub operand: Option<usize>,
}

impl ValidationError {
    /// An error at an `hsa_code` entry.
    pub fn code(rule: &'static str, offset: CodeOffset, message: impl Into<String>) -> Self {
        Self {
            rule,
            message: message.into(),
            section: BrigSectionIndex::CODE,
            offset: offset.get(),
            operand: None,
        }
    }

    /// An error at operand `index` of the instruction at `offset`.
    pub fn operand(
        rule: &'static str,
        offset: CodeOffset,
        index: usize,
        message: impl Into<String>,
    ) -> Self {
        Self {
            operand: Some(index),
            ..Self::code(rule, offset, message)
        }
    }

    /// An error at an entry of any section.
    pub fn at(
        rule: &'static str,
        section: BrigSectionIndex,
        offset: u32,
        message: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            message: message.into(),
            section,
            offset,
            operand: None,
        }
    }

    /// The name of the section (`"hsa_code"`, `"#4"`, or `"file"` for
    /// [`FILE_OFFSET`]).
    pub fn section_name(&self) -> String {
        if self.section == FILE_OFFSET {
            return "file".to_owned();
        }
        match brig::read::STANDARD_SECTION_NAMES.get(self.section.raw() as usize) {
            Some(n) => (*n).to_owned(),
            None => format!("#{}", self.section.raw()),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)?;
        if let Some(i) = self.operand {
            write!(f, " (operand {i})")?;
        }
        write!(
            f,
            " in section {} at offset {:#x}",
            self.section_name(),
            self.offset
        )
    }
}

impl std::error::Error for ValidationError {}

/// `error` followed by the annotated listing of the offending entry (the
/// BRIG-input form of a diagnostic).
pub fn render(module: &BrigModule<'_>, error: &ValidationError) -> String {
    let mut out = format!("error: {error}");
    let entry = if error.section == BrigSectionIndex::CODE {
        module.code(CodeOffset::new(error.offset)).ok().map(|c| {
            let mut s = String::new();
            let _ = brig::dump::dump_code(module, c, &mut s);
            s
        })
    } else if error.section == BrigSectionIndex::OPERAND {
        module
            .operand(brig::OperandOffset::new(error.offset))
            .ok()
            .map(|o| {
                let mut s = String::new();
                let _ = brig::dump::dump_operand(module, o, &mut s);
                s
            })
    } else {
        None
    };
    if let Some(e) = entry {
        out.push_str("\n  | ");
        out.push_str(e.trim_end());
    }
    out
}

/// Text-input diagnostics: each error as `file:line:col: error: …` with the
/// source line and a caret, at the span `span_of(section, offset, operand)`
/// gives for the offending BRIG entry (the assembler knows which source
/// token produced which entry). Errors without a span point at the start
/// of the file and name their BRIG location instead.
pub fn to_diagnostics(
    errors: &[ValidationError],
    span_of: &dyn Fn(BrigSectionIndex, u32, Option<usize>) -> Option<core::ops::Range<usize>>,
    file: &str,
    source: &str,
) -> crate::Diagnostics {
    let index = crate::lexer::LineIndex::new(source);
    crate::Diagnostics(
        errors
            .iter()
            .map(|e| match span_of(e.section, e.offset, e.operand) {
                Some(span) => crate::Diagnostic::new(
                    format!("{}: {}", e.rule, e.message),
                    span,
                    file,
                    source,
                    &index,
                ),
                None => crate::Diagnostic::new(e.to_string(), 0..0, file, source, &index),
            })
            .collect(),
    )
}

/// What kind of thing a symbol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// `kernel`.
    Kernel,
    /// `function`.
    Function,
    /// `indirect function`.
    IndirectFunction,
    /// `signature`.
    Signature,
    /// A variable (`global`, `group`, `arg`, … segment).
    Variable,
    /// `fbarrier`.
    Fbarrier,
}

/// One named directive: a module-scope symbol or a code-block local.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name with its sigil (`&x`, `%y`).
    pub name: String,
    /// The directive.
    pub offset: CodeOffset,
    /// Its kind.
    pub kind: SymbolKind,
    /// Its linkage.
    pub linkage: BrigLinkage,
    /// Whether this directive is a definition (not a `decl`).
    pub is_definition: bool,
    /// The defining directive for this name, if the module has one (equal
    /// to `offset` for a definition).
    pub definition: Option<CodeOffset>,
}

/// Highest register number and number of distinct registers per class.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegisterUse {
    /// Highest register number used, indexed by `BrigRegisterKind`
    /// (`$c`, `$s`, `$d`, `$q`).
    pub max: [Option<u16>; 4],
    /// Number of distinct registers used per class.
    pub distinct: [u32; 4],
}

impl RegisterUse {
    /// `c_max + 1` (Appendix A).
    pub fn c_pool(&self) -> u32 {
        self.max[0].map_or(0, |m| u32::from(m) + 1)
    }

    /// `(s_max + 1) + 2 (d_max + 1) + 4 (q_max + 1)` (Appendix A).
    pub fn sdq_pool(&self) -> u32 {
        let n = |i: usize| self.max[i].map_or(0, |m| u32::from(m) + 1);
        n(1) + 2 * n(2) + 4 * n(3)
    }
}

/// A basic block: a run of instructions entered only at the top.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BasicBlock {
    /// Index of the first instruction in [`CodeBlock::instructions`].
    pub first: usize,
    /// One past the index of the last instruction.
    pub end: usize,
    /// Labels that name the start of the block.
    pub labels: Vec<CodeOffset>,
    /// Indices (into [`CodeBlock::blocks`]) of the blocks control may go
    /// to next.
    pub successors: Vec<usize>,
}

/// A kernel or function definition's code block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBlock {
    /// The kernel or function directive.
    pub directive: CodeOffset,
    /// Its name.
    pub name: String,
    /// Kernel, function or indirect function.
    pub kind: SymbolKind,
    /// Output argument directives.
    pub out_args: Vec<CodeOffset>,
    /// Input argument directives (kernargs for a kernel).
    pub in_args: Vec<CodeOffset>,
    /// First entry of the code block.
    pub start: CodeOffset,
    /// One past the last entry of the code block.
    pub end: CodeOffset,
    /// Variables and fbarriers declared in the code block (arg-block
    /// variables included).
    pub locals: Vec<Symbol>,
    /// Label name → label directive.
    pub labels: BTreeMap<String, CodeOffset>,
    /// Every instruction, in order.
    pub instructions: Vec<CodeOffset>,
    /// The control-flow graph over `instructions`.
    pub blocks: Vec<BasicBlock>,
    /// Register use.
    pub registers: RegisterUse,
}

/// Everything the validator learned about a valid module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleInfo {
    /// The module name (`&m`).
    pub name: String,
    /// `$base` or `$full`.
    pub profile: BrigProfile,
    /// `$small` or `$large`.
    pub machine_model: BrigMachineModel,
    /// Default float rounding of the module header.
    pub default_float_round: BrigRound,
    /// Names of the `extension` directives.
    pub extensions: Vec<String>,
    /// Module-scope symbols, in module order.
    pub symbols: Vec<Symbol>,
    /// Code blocks of kernel and function definitions, in module order.
    pub code_blocks: Vec<CodeBlock>,
}

impl ModuleInfo {
    /// The module-scope symbol defined or declared by `name`, preferring
    /// the definition.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        let mut found = None;
        for s in self.symbols.iter().filter(|s| s.name == name) {
            if s.is_definition {
                return Some(s);
            }
            found.get_or_insert(s);
        }
        found
    }

    /// Whether the module enables extension `name` (`"IMAGE"`, `"CORE"`).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// Address size in bits of a segment in this machine model (PRM 2.9,
    /// Table 2-3).
    pub fn address_bits(&self, segment: brig::BrigSegment) -> u32 {
        use brig::BrigSegment as S;
        let large = self.machine_model == BrigMachineModel::LARGE;
        match segment {
            S::FLAT | S::GLOBAL | S::READONLY | S::KERNARG | S::NONE if large => 64,
            _ => 32,
        }
    }
}

/// Validates `module` against the PRM. Returns what was learned, or every
/// independent error found.
///
/// # Errors
/// Every violated rule, each located at its BRIG entry. Structural errors
/// (layer 1) stop validation before the later layers.
pub fn validate(module: &BrigModule<'_>) -> Result<ModuleInfo, Vec<ValidationError>> {
    validate_with(module, &Mode::full(module))
}

/// [`validate`] without the instruction memo: every instruction is checked
/// in full. For tests that the memo changes no verdict.
#[doc(hidden)]
pub fn validate_unmemoized(module: &BrigModule<'_>) -> Result<ModuleInfo, Vec<ValidationError>> {
    let mode = Mode {
        memo: false,
        ..Mode::full(module)
    };
    validate_with(module, &mode)
}

/// How [`validate_with`] runs (the result does not depend on `parallel`
/// nor on `memo`).
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// Two threads or one.
    parallel: bool,
    /// Instructions of a shape that already passed the instruction rules
    /// are not checked again (see [`inst::memo_hit`]).
    memo: bool,
    /// The module comes from our own [`brig::BrigWriter`], whose output is
    /// trusted to be structurally sound: layer 1 checks only the module
    /// chain up front (layer 3 still checks the operand lists it reads,
    /// and any problem it finds runs the whole of layer 1).
    trusted: bool,
    /// Build the per-code-block parts of the [`ModuleInfo`] (see
    /// [`scope::analyze`]).
    want_info: bool,
}

impl Mode {
    /// Every check, with the module info, on as many threads as pay.
    fn full(module: &BrigModule<'_>) -> Self {
        Self {
            parallel: parallel(module.code_offset_slice().len()),
            memo: true,
            trusted: false,
            want_info: true,
        }
    }
}

/// [`validate`], run as `mode` says.
fn validate_with(module: &BrigModule<'_>, mode: &Mode) -> Result<ModuleInfo, Vec<ValidationError>> {
    let Mode {
        parallel,
        memo,
        trusted,
        want_info,
    } = *mode;
    let index = index::Index::new(module);
    let mut errors = Vec::new();
    // Layer 1 leaves the operand lists of the instructions in code blocks
    // to the walk of layer 3, which reads them anyway; when either finds
    // a problem, the full layer 1 runs and its errors are the result.
    let sound = if trusted {
        structure::chain_ok(&index)
    } else {
        structure::quick_check(&index, &scope::code_block_ranges(&index))
    };
    if !sound {
        structure::check_structure(&index, &mut errors, parallel);
        if !errors.is_empty() {
            return Err(errors);
        }
    }
    // Once the module is known sound, a module from our writer is read
    // without the entry-start checks (its offsets are right by
    // construction); the checks of layer 1 always use the checking view.
    let walk = if trusted { index.trusting() } else { index };
    let (info, structural) = scope::analyze(&walk, &mut errors, parallel, memo, want_info, trusted);
    if structural {
        let mut structure_errors = Vec::new();
        structure::check_structure(&index, &mut structure_errors, parallel);
        if !structure_errors.is_empty() {
            return Err(structure_errors);
        }
    }
    if errors.is_empty() {
        Ok(info)
    } else {
        errors.sort_by_key(|e| (e.section.raw(), e.offset));
        errors.dedup();
        Err(errors)
    }
}

/// Modules with at least this many code entries are validated on two
/// threads (below it, spawning costs more than it saves).
const PARALLEL_MIN_CODE_ENTRIES: usize = 16_384;

/// Whether to split the work of a module with `code_count` code entries
/// over two threads: the module is large and the machine has two or more
/// cores. The result (errors and their order, the module info) does not
/// depend on it.
fn parallel(code_count: usize) -> bool {
    code_count >= PARALLEL_MIN_CODE_ENTRIES
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// Parses and validates BRIG bytes; a container error becomes a
/// `PRM 18` validation error.
///
/// # Errors
/// See [`validate`].
pub fn validate_bytes(bytes: &[u8]) -> Result<ModuleInfo, Vec<ValidationError>> {
    match BrigModule::parse(bytes) {
        Ok(m) => validate(&m),
        Err(e) => Err(vec![ValidationError {
            rule: "PRM 18.2",
            message: e.message.clone(),
            section: e.section.unwrap_or(FILE_OFFSET),
            offset: u32::try_from(e.offset).unwrap_or(u32::MAX),
            operand: None,
        }]),
    }
}

/// Validates the module `writer` holds, in place (no copy of the module
/// is made: see [`brig::BrigWriter::module`]): what `hsakit asm` does
/// between assembling and writing. A sectioning problem becomes a
/// `PRM 18.2` error, as in [`validate_bytes`].
///
/// # Errors
/// See [`validate`].
pub fn validate_writer(writer: &mut brig::BrigWriter) -> Result<ModuleInfo, Vec<ValidationError>> {
    writer_module(writer, validate)
}

/// Whether the module `writer` holds is valid, as [`validate_writer`]
/// decides it, the faster way: the writer's output is trusted to be
/// structurally sound (see `Mode::trusted`; the entry starts are the ones
/// the writer recorded, each entry checked as it was appended: see
/// [`brig::BrigWriter::trusted_module`]) and no module info is built.
/// For `hsakit asm`, which only needs the verdict (on errors it assembles
/// again with a source map and reports [`validate_bytes`]' errors).
///
/// # Errors
/// Every violated rule found.
pub fn check_writer(writer: &mut brig::BrigWriter) -> Result<(), Vec<ValidationError>> {
    let module = writer.trusted_module();
    module_or_error(module, |m| {
        let mode = Mode {
            trusted: true,
            want_info: false,
            ..Mode::full(m)
        };
        validate_with(m, &mode).map(drop)
    })
}

/// `check` on the module `writer` holds; a sectioning problem becomes a
/// `PRM 18.2` error, as in [`validate_bytes`].
fn writer_module<T>(
    writer: &mut brig::BrigWriter,
    check: impl FnOnce(&BrigModule<'_>) -> Result<T, Vec<ValidationError>>,
) -> Result<T, Vec<ValidationError>> {
    module_or_error(writer.module(), check)
}

/// `check` on `module`; a sectioning problem becomes a `PRM 18.2` error.
fn module_or_error<T>(
    module: Result<BrigModule<'_>, brig::BrigError>,
    check: impl FnOnce(&BrigModule<'_>) -> Result<T, Vec<ValidationError>>,
) -> Result<T, Vec<ValidationError>> {
    match module {
        Ok(m) => check(&m),
        Err(e) => Err(vec![ValidationError {
            rule: "PRM 18.2",
            message: e.message.clone(),
            section: e.section.unwrap_or(FILE_OFFSET),
            offset: u32::try_from(e.offset).unwrap_or(u32::MAX),
            operand: None,
        }]),
    }
}

/// Fuzz entry point: validates arbitrary bytes and renders every error;
/// must never panic. For `fuzz/` targets and the seeded smoke test.
pub fn fuzz_one(data: &[u8]) {
    if let Ok(m) = BrigModule::parse(data)
        && let Err(errors) = validate(&m)
    {
        for e in &errors {
            let _ = render(&m, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use oracles::mutate::{Rng, flip_bit};

    use super::*;

    /// [`validate_with`] as it was before layer 1 left instruction
    /// operand lists to layer 3: the whole of layer 1 first.
    fn validate_layer_by_layer(
        module: &BrigModule<'_>,
    ) -> Result<ModuleInfo, Vec<ValidationError>> {
        let index = index::Index::new(module);
        let mut errors = Vec::new();
        structure::check_structure(&index, &mut errors, false);
        if !errors.is_empty() {
            return Err(errors);
        }
        let (info, structural) = scope::analyze(&index, &mut errors, false, false, true, false);
        assert!(
            !structural,
            "layer 1 passed, yet layer 3 found an operand list it breaks"
        );
        if errors.is_empty() {
            Ok(info)
        } else {
            errors.sort_by_key(|e| (e.section.raw(), e.offset));
            errors.dedup();
            Err(errors)
        }
    }

    /// `from_writer`: `bytes` are our writer's output, so the trusted
    /// mode of [`check_writer`] applies to them too.
    fn same_both_ways(bytes: &[u8], from_writer: bool) -> bool {
        let Ok(m) = BrigModule::parse(bytes) else {
            return false;
        };
        let mode = |parallel, memo| Mode {
            parallel,
            memo,
            trusted: false,
            want_info: true,
        };
        let full = validate_with(&m, &mode(false, false));
        assert_eq!(validate_layer_by_layer(&m), full);
        assert_eq!(validate_with(&m, &mode(false, true)), full);
        assert_eq!(validate_with(&m, &mode(true, true)), full);
        // Without the module info: the same verdict and errors.
        let check_only = Mode {
            want_info: false,
            ..mode(false, true)
        };
        assert_eq!(
            validate_with(&m, &check_only).map(drop),
            full.clone().map(drop)
        );
        if from_writer {
            let trusted = Mode {
                trusted: true,
                ..check_only
            };
            assert_eq!(validate_with(&m, &trusted).map(drop), full.map(drop));
        }
        true
    }

    /// Two threads or one, with the instruction memo or without, layer 1
    /// in full first or partly folded into layer 3: the same errors in the
    /// same order, the same module info (on the corpora, and on
    /// bit-flipped modules).
    #[test]
    fn parallel_matches_sequential() {
        let tests = oracles::workspace_root().join("tests");
        let mut files = Vec::new();
        for dir in ["corpus", "corpus-invalid", "corpus-bad"] {
            files.extend(oracles::files_with_extension(&tests.join(dir), "hsail"));
        }
        assert!(
            files.len() > 100,
            "corpora not found under {}",
            tests.display()
        );
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        let (mut valid, mut mutated) = (0, 0);
        for file in &files {
            let source = std::fs::read_to_string(file).unwrap();
            let Ok(bytes) = crate::lower::assemble_unchecked(&source, "x") else {
                continue;
            };
            valid += usize::from(same_both_ways(&bytes, true));
            // What `hsakit asm` runs: the writer's trusted module.
            let (mut writer, _) = crate::lower::assemble_with(&source, "x", false, false).unwrap();
            assert_eq!(
                check_writer(&mut writer),
                validate_bytes(&bytes).map(drop),
                "{}",
                file.display()
            );
            for _ in 0..4 {
                let mut b = bytes.clone();
                for _ in 0..3 {
                    flip_bit(&mut rng, &mut b);
                }
                mutated += usize::from(same_both_ways(&b, false));
            }
        }
        assert!(
            valid > 100 && mutated > 100,
            "too few modules compared: {valid} valid, {mutated} mutated"
        );
    }
}
