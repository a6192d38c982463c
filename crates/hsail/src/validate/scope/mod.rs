//! Layer 3: the module as a whole — header, declarations, definitions and
//! linkage (PRM 4.3, 4.11, 4.12, 14), code blocks with their labels, arg
//! blocks and calls (4.9, 8, 10), directive placement (13), variables and
//! initializers, Appendix A limits; builds the [`ModuleInfo`] (symbols,
//! code blocks, CFG, register use) and runs the instruction rules of
//! [`super::inst`] on every instruction with the module's environment.
//!
//! This file walks the module level (header, extensions, symbols and
//! their linkage); `block` walks each code block, `variables` checks
//! variables and initializers, `directives` the `loc`, `pragma` and
//! control directives, `calls` executables, call argument lists and
//! indirect functions.

use std::collections::BTreeMap;

use brig::{
    BrigAllocation, BrigDirectiveExecutable, BrigDirectiveVariable, BrigExecutableModifierMask,
    BrigKind, BrigLinkage, BrigMachineModel, BrigOpcode as Op, BrigProfile, BrigRound,
    BrigSegment as Seg, BrigType, BrigVariableModifierMask, Code, CodeOffset, Operand,
};

use super::index::{FastMap, FastSet, Index, InstOperands, OffsetBits};
use super::inst::{self, CodeUse, InstEnv};
use super::{BasicBlock, CodeBlock, ModuleInfo, RegisterUse, Symbol, SymbolKind, ValidationError};

mod block;
mod calls;
mod directives;
mod variables;

use block::*;
use calls::*;
use directives::*;
use variables::*;

struct Cx<'m, 'a> {
    m: &'m Index<'a>,
    errors: &'m mut Vec<ValidationError>,
    env: InstEnv,
    /// Module-scope variables (offsets), visible from every code block.
    module_vars: FastSet<u32>,
    /// Module-scope directive → offset of the first directive declaring
    /// or defining its name (its scope starts there, PRM 4.6.2).
    first_decl: FastMap<u32, u32>,
    /// Instruction shapes that passed the instruction rules (`None`: check
    /// every instruction in full).
    memo: Option<inst::InstMemo>,
    /// Whether an instruction's operand list broke a layer-1 rule (see
    /// [`Index::fill_inst_operands`]).
    structural: bool,
    /// Whether to build the per-code-block parts of the [`ModuleInfo`]
    /// (instructions, labels, locals, CFG); without, only the rules run.
    want_info: bool,
    /// Whether the module defines indirect functions: code blocks then
    /// record what PRM 10.8 asks of them in `indirect_scans`.
    indirect: bool,
    /// What each code block (by its first entry) holds that PRM 10.8
    /// forbids in an indirect function, and the functions it calls (see
    /// [`check_indirect_functions`]).
    indirect_scans: FastMap<u32, IndirectScan>,
    /// The label names of the code block being walked (duplicates are
    /// errors), kept here so its table grows once, not once per block.
    label_names: FastSet<&'a str>,
}

impl<'a> Cx<'_, 'a> {
    fn err(&mut self, rule: &'static str, at: CodeOffset, msg: impl Into<String>) {
        self.errors.push(ValidationError::code(rule, at, msg));
    }

    fn name(&self, n: brig::DataOffset) -> String {
        self.name_str(n).to_owned()
    }

    /// A name in place (`""` if it is not a string).
    fn name_str(&self, n: brig::DataOffset) -> &'a str {
        self.m.string(n).unwrap_or("")
    }
}

/// The code blocks [`analyze`] walks, as `[start, end)` ranges of
/// `hsa_code` in increasing order: those of the kernel and function
/// definitions among the module-level entries.
pub fn code_block_ranges(m: &Index<'_>) -> Vec<(CodeOffset, CodeOffset)> {
    definitions(&module_entries(m))
        .iter()
        .filter_map(|&(_, c)| c.executable())
        .map(|e| (e.first_code_block_entry, e.next_module_entry))
        .collect()
}

/// The kernel and function definitions among the module-level `entries`.
fn definitions<'a>(entries: &[(CodeOffset, Code<'a>)]) -> Vec<(CodeOffset, Code<'a>)> {
    entries
        .iter()
        .copied()
        .filter(|&(_, c)| {
            c.executable().is_some_and(|e| {
                c.kind() != BrigKind::DIRECTIVE_SIGNATURE
                    && e.modifier.contains(BrigExecutableModifierMask::DEFINITION)
            })
        })
        .collect()
}

/// Runs layers 2 and 3 and builds the module info. With `parallel`, the
/// code blocks are analyzed on two threads (same errors, same order, same
/// info). Also returns whether an instruction in a code block has an
/// operand list that breaks a layer-1 rule (layer 1 left those to this
/// walk: see [`super::structure::quick_check`]); if so, the errors and
/// info are meaningless and layer 1's errors are to be reported instead.
/// With `want_info` false, the code blocks of the info are left without
/// their instructions, labels, locals and CFG (the rules all run).
pub fn analyze(
    m: &Index<'_>,
    errors: &mut Vec<ValidationError>,
    parallel: bool,
    memo: bool,
    want_info: bool,
    trusted: bool,
) -> (ModuleInfo, bool) {
    let mut info = ModuleInfo {
        name: String::new(),
        profile: BrigProfile::FULL,
        machine_model: BrigMachineModel::LARGE,
        default_float_round: BrigRound::FLOAT_NEAR_EVEN,
        extensions: Vec::new(),
        symbols: Vec::new(),
        code_blocks: Vec::new(),
    };
    let mut cx = Cx {
        m,
        errors,
        env: InstEnv {
            profile: BrigProfile::FULL,
            model: BrigMachineModel::LARGE,
            image_ext: false,
            fields: !trusted,
        },
        module_vars: FastSet::default(),
        first_decl: FastMap::default(),
        memo: memo.then(|| inst::memo_for(m)),
        structural: false,
        want_info,
        indirect: false,
        indirect_scans: FastMap::default(),
        label_names: FastSet::default(),
    };
    let entries = module_entries(m);
    check_header(&mut cx, &entries, &mut info);
    // Extensions first: they gate everything after them.
    info.extensions = entries
        .iter()
        .filter_map(|&(_, c)| match c {
            Code::DirectiveExtension(e) => Some(cx.name(e.name)),
            _ => None,
        })
        .collect();
    cx.env.image_ext = info.has_extension("IMAGE");
    let core = info.extensions.iter().any(|e| e == "CORE");
    if core {
        for &(at, c) in &entries {
            if let Code::DirectiveExtension(e) = c {
                let name = cx.name(e.name);
                // PRM 13.1.1: only other "CORE" directives (an empty name
                // is not "CORE" either).
                if name != "CORE" {
                    cx.err(
                        "PRM 13.1.1",
                        at,
                        format!("extension {name:?} is not allowed with extension \"CORE\""),
                    );
                }
            }
        }
    }
    let mut seen_decl = false;
    for &(at, c) in &entries {
        match c {
            Code::DirectiveModule(_) => {}
            Code::DirectiveExtension(_) => {
                if seen_decl {
                    cx.err(
                        "PRM 13.1",
                        at,
                        "extension directives must come before every declaration and definition",
                    );
                }
            }
            Code::DirectivePragma(p) => check_module_pragma(&mut cx, at, p),
            Code::DirectiveLoc(l) => check_loc(&mut cx, at, l),
            Code::DirectiveComment(_) => {}
            Code::DirectiveVariable(v) => {
                seen_decl = true;
                cx.module_vars.insert(at.get());
                check_module_variable(&mut cx, at, v);
                info.symbols.push(symbol(&cx, at, c));
            }
            Code::DirectiveFbarrier(f) => {
                seen_decl = true;
                let name = cx.name_str(f.name);
                check_sigil(&mut cx, at, "fbarrier", name, '&');
                check_reserved_name(&mut cx, at, name);
                check_module_linkage(&mut cx, at, f.linkage);
                info.symbols.push(symbol(&cx, at, c));
            }
            Code::DirectiveKernel(e)
            | Code::DirectiveFunction(e)
            | Code::DirectiveIndirectFunction(e)
            | Code::DirectiveSignature(e) => {
                seen_decl = true;
                info.symbols.push(symbol(&cx, at, c));
                check_executable(&mut cx, at, c.kind(), e);
            }
            Code::DirectiveControl(_) => cx.err(
                "PRM 13.4",
                at,
                "control directives belong in a kernel or function code block",
            ),
            Code::DirectiveLabel(_) => cx.err(
                "PRM 4.9",
                at,
                "labels belong in a kernel or function code block",
            ),
            Code::DirectiveArgBlockStart(_) | Code::DirectiveArgBlockEnd(_) => cx.err(
                "PRM 4.3.6",
                at,
                "arg blocks belong in a kernel or function code block",
            ),
            Code::DirectiveNone(_) => {}
            _ => cx.err(
                "PRM 4.3",
                at,
                "instructions belong in a kernel or function code block",
            ),
        }
    }
    check_symbols(&mut cx, &mut info.symbols);
    let mut first: FastMap<&str, u32> = FastMap::default();
    for sym in &info.symbols {
        first.entry(sym.name.as_str()).or_insert(sym.offset.get());
        if sym.name == info.name && !info.name.is_empty() {
            cx.err(
                "PRM 4.6.2",
                sym.offset,
                format!("{} is already the module's name", sym.name),
            );
        }
    }
    for sym in &info.symbols {
        if let Some(&f) = first.get(sym.name.as_str()) {
            cx.first_decl.insert(sym.offset.get(), f);
        }
    }
    let defs = definitions(&entries);
    cx.indirect = defs
        .iter()
        .any(|(_, c)| c.kind() == BrigKind::DIRECTIVE_INDIRECT_FUNCTION);
    if parallel && defs.len() > 1 {
        // Code blocks are independent: analyze the second half (by code
        // entries) on another thread; its errors follow the first half's,
        // as in the sequential order.
        let half = m.code_count() / 2;
        let split = defs
            .iter()
            .position(|&(at, _)| m.code_ordinal(at).unwrap_or(usize::MAX) >= half)
            .unwrap_or(defs.len())
            .max(1);
        let (front, back) = defs.split_at(split);
        let (env, module_vars, first_decl, indirect) = (
            cx.env,
            cx.module_vars.clone(),
            cx.first_decl.clone(),
            cx.indirect,
        );
        // If no thread can be started, the same work runs here.
        let back_result = std::thread::scope(|s| {
            let t = std::thread::Builder::new().spawn_scoped(s, move || {
                let mut back_errors = Vec::new();
                let mut back_cx = Cx {
                    m,
                    errors: &mut back_errors,
                    env,
                    module_vars,
                    first_decl,
                    memo: memo.then(|| inst::memo_for(m)),
                    structural: false,
                    want_info,
                    indirect,
                    indirect_scans: FastMap::default(),
                    label_names: FastSet::default(),
                };
                let blocks = analyze_code_blocks(&mut back_cx, back);
                let (structural, scans) = (back_cx.structural, back_cx.indirect_scans);
                (blocks, back_errors, structural, scans)
            });
            info.code_blocks = analyze_code_blocks(&mut cx, front);
            t.ok()
                .map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        });
        match back_result {
            Some((blocks, mut back_errors, structural, scans)) => {
                info.code_blocks.extend(blocks);
                cx.errors.append(&mut back_errors);
                cx.structural |= structural;
                cx.indirect_scans.extend(scans);
            }
            None => {
                let blocks = analyze_code_blocks(&mut cx, back);
                info.code_blocks.extend(blocks);
            }
        }
    } else {
        info.code_blocks = analyze_code_blocks(&mut cx, &defs);
    }
    check_indirect_functions(&mut cx, &defs);
    check_callee_controls(&mut cx, &defs);
    (info, cx.structural)
}

/// What [`indirect_scan`] finds in a code block: its first forbidden
/// definition or reference (where, and what), and the names of the
/// functions it calls.
type IndirectScan = (Option<(CodeOffset, &'static str)>, Vec<brig::DataOffset>);

/// The module-level entries, following `nextModuleEntry` over code blocks
/// (layer 1 made the chain consistent).
fn module_entries<'a>(m: &Index<'a>) -> Vec<(CodeOffset, Code<'a>)> {
    let mut out = Vec::new();
    let end = m.code_end();
    let Some(mut at) = m.first_code() else {
        return out;
    };
    while at < end {
        let Ok(c) = m.code(at) else { break };
        out.push((at, c));
        let next = match c.executable() {
            Some(e) => e.next_module_entry,
            None => match m.next_code(at) {
                Ok(n) => n,
                Err(_) => break,
            },
        };
        if next <= at {
            break;
        }
        at = next;
    }
    out
}

/// PRM 14.1: the module starts with exactly one `module` header.
fn check_header(cx: &mut Cx<'_, '_>, entries: &[(CodeOffset, Code<'_>)], info: &mut ModuleInfo) {
    let mut headers = entries
        .iter()
        .filter(|(_, c)| matches!(c, Code::DirectiveModule(_)));
    let first_real = entries.iter().find(|(_, c)| {
        !matches!(
            c,
            Code::DirectiveComment(_)
                | Code::DirectiveNone(_)
                | Code::DirectiveLoc(_)
                | Code::DirectivePragma(_)
        )
    });
    match headers.next() {
        None => {
            cx.errors.push(ValidationError::code(
                "PRM 14.1",
                CodeOffset::new(0),
                "the module has no module header",
            ));
        }
        Some(&(at, Code::DirectiveModule(h))) => {
            if first_real.is_some_and(|(o, _)| *o != at) {
                cx.err(
                    "PRM 14.1",
                    at,
                    "the module header must be the first directive",
                );
            }
            info.name = cx.name(h.name);
            info.profile = h.profile;
            info.machine_model = h.machine_model;
            info.default_float_round = h.default_float_round;
            if h.hsail_major.raw() != 1 || h.hsail_minor.raw() != 0 {
                cx.err(
                    "PRM 14.1",
                    at,
                    format!(
                        "HSAIL version {}.{} is not 1.0",
                        h.hsail_major.raw(),
                        h.hsail_minor.raw()
                    ),
                );
            }
            if h.profile.raw() > 1 {
                cx.err("PRM 14.1", at, "unknown profile");
            }
            if h.machine_model.raw() > 1 {
                cx.err("PRM 14.1", at, "unknown machine model");
            }
            if !matches!(
                h.default_float_round,
                BrigRound::FLOAT_DEFAULT | BrigRound::FLOAT_NEAR_EVEN | BrigRound::FLOAT_ZERO
            ) {
                cx.err(
                    "PRM 14.1",
                    at,
                    "the default float rounding must be default, near or zero",
                );
            }
            if !info.name.starts_with('&') {
                cx.err("PRM 14.1", at, "the module name must start with &");
            }
            check_reserved_name(cx, at, &info.name);
            cx.env.profile = h.profile;
            cx.env.model = h.machine_model;
        }
        Some(_) => {}
    }
    for &(at, _) in headers {
        cx.err("PRM 14.1", at, "a module has exactly one module header");
    }
}

fn symbol(cx: &Cx<'_, '_>, at: CodeOffset, c: Code<'_>) -> Symbol {
    let (name, kind, linkage, def) = match c {
        Code::DirectiveVariable(v) => (
            v.name,
            SymbolKind::Variable,
            v.linkage,
            v.modifier.contains(BrigVariableModifierMask::DEFINITION),
        ),
        Code::DirectiveFbarrier(f) => (
            f.name,
            SymbolKind::Fbarrier,
            f.linkage,
            f.modifier.contains(BrigVariableModifierMask::DEFINITION),
        ),
        Code::DirectiveKernel(e) => exe(e, SymbolKind::Kernel),
        Code::DirectiveFunction(e) => exe(e, SymbolKind::Function),
        Code::DirectiveIndirectFunction(e) => exe(e, SymbolKind::IndirectFunction),
        Code::DirectiveSignature(e) => exe(e, SymbolKind::Signature),
        _ => (
            brig::DataOffset::NONE,
            SymbolKind::Variable,
            BrigLinkage::NONE,
            false,
        ),
    };
    let is_definition = def;
    Symbol {
        name: cx.name(name),
        offset: at,
        kind,
        linkage,
        is_definition,
        definition: is_definition.then_some(at),
    }
}

fn exe(
    e: &BrigDirectiveExecutable,
    kind: SymbolKind,
) -> (brig::DataOffset, SymbolKind, BrigLinkage, bool) {
    (
        e.name,
        kind,
        e.linkage,
        e.modifier.contains(BrigExecutableModifierMask::DEFINITION),
    )
}

/// PRM 4.6.1: identifiers must not start with `__hsa` (after the sigil).
#[inline]
fn check_reserved_name(cx: &mut Cx<'_, '_>, at: CodeOffset, name: &str) {
    if name.get(1..).is_some_and(|n| n.starts_with("__hsa")) {
        cx.err(
            "PRM 4.6.1",
            at,
            format!("identifier {name} starts with the reserved prefix __hsa"),
        );
    }
}

/// PRM 4.12: module-scope names have program or module linkage.
fn check_module_linkage(cx: &mut Cx<'_, '_>, at: CodeOffset, l: BrigLinkage) {
    if !matches!(l, BrigLinkage::PROGRAM | BrigLinkage::MODULE) {
        cx.err(
            "PRM 4.12",
            at,
            format!(
                "a module-scope symbol has program or module linkage, not {}",
                l.name().unwrap_or("?")
            ),
        );
    }
}

/// The channel types legal with each channel order (PRM 7.1.5, Table
/// 7-4), as a mask of `BrigImageChannelType` values, indexed by
/// `BrigImageChannelOrder`: a..rgba take every 8/16/32-bit integer and
/// float type, rgb(x) the packed ones, bgra/argb/abgr 8-bit integers, the
/// s-forms unorm_int8, intensity/luminance unorm/snorm 8/16 and floats,
/// depth unorm_int16/24 and float, depth_stencil unorm_int24 and float.
const CHANNEL_TYPES_OF_ORDER: [u16; 20] = [
    0xff0f, 0xff0f, 0xff0f, 0xff0f, 0xff0f, 0xff0f, // a r rx rg rgx ra
    0x00e0, 0x00e0, 0xff0f, // rgb rgbx rgba
    0x0905, 0x0905, 0x0905, // bgra argb abgr
    0x0004, 0x0004, 0x0004, 0x0004, // srgb srgbx srgba sbgra
    0xc00f, 0xc00f, // intensity luminance
    0x8018, 0x8010, // depth depth_stencil
];

/// A comparable summary of a variable's declaration-relevant properties.
fn var_shape(v: &BrigDirectiveVariable) -> (u16, u8, u8, u8, u8) {
    (
        v.type_.raw(),
        v.segment.raw(),
        v.modifier.raw() & 2,
        v.align.raw(),
        v.allocation.raw(),
    )
}

/// PRM 4.3 / 4.12: one definition per name; declarations agree with the
/// definition; module-linkage declarations are defined in the module.
fn check_symbols(cx: &mut Cx<'_, '_>, symbols: &mut [Symbol]) {
    let mut by_name: FastMap<String, Vec<usize>> = FastMap::default();
    for (i, s) in symbols.iter().enumerate() {
        by_name.entry(s.name.clone()).or_default().push(i);
    }
    let mut names: Vec<_> = by_name.into_iter().collect();
    names.sort_by_key(|(_, v)| v[0]);
    for (name, idx) in names {
        let defs: Vec<usize> = idx
            .iter()
            .copied()
            .filter(|&i| symbols[i].is_definition)
            .collect();
        for &d in defs.iter().skip(1) {
            cx.err(
                "PRM 4.3",
                symbols[d].offset,
                format!("{name} is defined more than once"),
            );
        }
        let first = symbols[idx[0]].clone();
        for &i in &idx[1..] {
            let s = symbols[i].clone();
            if s.kind != first.kind {
                cx.err(
                    "PRM 4.3",
                    s.offset,
                    format!("{name} is declared as two different kinds of symbol"),
                );
                continue;
            }
            if s.linkage != first.linkage {
                cx.err(
                    "PRM 4.12",
                    s.offset,
                    format!("{name} is declared with two different linkages"),
                );
            }
            check_compatible(cx, first.offset, s.offset, &name);
        }
        let def = defs.first().map(|&d| symbols[d].offset);
        for &i in &idx {
            symbols[i].definition = def;
        }
        if def.is_none()
            && first.linkage == BrigLinkage::MODULE
            && first.kind != SymbolKind::Signature
        {
            cx.err(
                "PRM 4.12.2",
                first.offset,
                format!("{name} has module linkage but is not defined in the module"),
            );
        }
    }
}

/// PRM 4.3.1 / 4.3.3: a declaration and a definition of a name agree
/// (type, segment, const, array size; argument lists).
fn check_compatible(cx: &mut Cx<'_, '_>, a: CodeOffset, b: CodeOffset, name: &str) {
    let (Ok(ca), Ok(cb)) = (cx.m.code(a), cx.m.code(b)) else {
        return;
    };
    match (ca, cb) {
        (Code::DirectiveVariable(x), Code::DirectiveVariable(y)) => {
            let dims_ok = x.dim.get() == y.dim.get() || x.dim.get() == 0 || y.dim.get() == 0;
            if var_shape(x) != var_shape(y) || !dims_ok {
                cx.err(
                    "PRM 4.3.10",
                    b,
                    format!(
                        "{name} is declared with a different type, segment, qualifier (const, align, alloc) or size"
                    ),
                );
            }
        }
        _ => {
            if let (Some(x), Some(y)) = (ca.executable(), cb.executable()) {
                let ax = arguments(cx.m, a, x);
                let ay = arguments(cx.m, b, y);
                let same = x.out_arg_count == y.out_arg_count
                    && x.in_arg_count == y.in_arg_count
                    && ax
                        .iter()
                        .zip(&ay)
                        .all(|(&p, &q)| match (cx.m.code(p), cx.m.code(q)) {
                            (Ok(Code::DirectiveVariable(p)), Ok(Code::DirectiveVariable(q))) => {
                                p.type_ == q.type_
                                    && p.dim.get() == q.dim.get()
                                    && p.align == q.align
                            }
                            _ => false,
                        });
                if !same {
                    cx.err(
                        "PRM 10.3",
                        b,
                        format!("{name} is declared with different arguments"),
                    );
                }
            }
        }
    }
}

/// State of the walk over one code block.
struct Block<'a> {
    /// Variables visible in the block (args and locals), by offset.
    visible: OffsetBits,
    /// Variables of the currently open arg block, in increasing order.
    arg_vars: Vec<u32>,
    in_arg_block: Option<CodeOffset>,
    calls_in_block: u32,
    /// Whether a definition or statement has been seen (control directives
    /// must come before, PRM 13.4).
    seen_statement: bool,
    /// Whether a statement (label, instruction, arg block) has been seen in
    /// the code block / in the current arg block (definitions come first,
    /// PRM 4.3.5, 4.3.6).
    code_stmt: bool,
    arg_stmt: bool,
    /// Input and output formal arguments of a function definition, in
    /// increasing order.
    in_formals: Vec<u32>,
    out_formals: Vec<u32>,
    /// Labels and the arg block each is in (`None`: outside arg blocks),
    /// in increasing order.
    label_scope: Vec<(u32, Option<CodeOffset>)>,
    /// (instruction, operand, label, arg block of the instruction).
    label_uses: Vec<(CodeOffset, usize, CodeOffset, Option<CodeOffset>)>,
    /// Names of the block's arguments and local definitions, and of the
    /// open arg block's variables (each defined once, PRM 4.6.2).
    names: Names<'a>,
    arg_names: Names<'a>,
    /// The entries of the open arg block that [`calls::check_arg_block`]
    /// looks at (branches, labels and, with IMAGE, memory instructions).
    arg_entries: Vec<(CodeOffset, Code<'a>)>,
    /// What PRM 10.8 asks of the block (when the module has indirect
    /// functions; see [`Cx::indirect_scans`]).
    indirect: IndirectScan,
}

/// The values of a control directive's operands (`None`: WAVESIZE or not
/// a constant), at most three.
type ControlValues = [Option<u64>; 3];

/// A set of names that stays a short vector while it is small (an arg
/// block names a few variables, a function a few locals) and becomes a
/// hash set past that.
#[derive(Default)]
struct Names<'a> {
    few: Vec<&'a str>,
    many: FastSet<&'a str>,
}

impl<'a> Names<'a> {
    /// Names kept in the vector before the set takes over.
    const FEW: usize = 8;

    /// Adds `name`; `false` if it was there already.
    fn insert(&mut self, name: &'a str) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&name) {
                return false;
            }
            if self.few.len() < Self::FEW {
                self.few.push(name);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(name)
    }

    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn names_find_repeats_before_and_after_growing() {
        let owned: Vec<String> = (0..40).map(|i| format!("%n{i}")).collect();
        let mut names = Names::default();
        for (i, n) in owned.iter().enumerate() {
            assert!(names.insert(n), "{n} is new");
            // Every name seen so far is a repeat, in the vector or the set.
            for seen in &owned[..=i] {
                assert!(!names.insert(seen), "{seen} is a repeat");
            }
        }
        names.clear();
        assert!(names.insert(&owned[0]));
        assert!(!names.insert(&owned[0]));
    }
}
