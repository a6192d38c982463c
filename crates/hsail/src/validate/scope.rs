//! Layer 3: the module as a whole — header, declarations, definitions and
//! linkage (PRM 4.3, 4.11, 4.12, 14), code blocks with their labels, arg
//! blocks and calls (4.9, 8, 10), directive placement (13), variables and
//! initializers, Appendix A limits; builds the [`ModuleInfo`] (symbols,
//! code blocks, CFG, register use) and runs the instruction rules of
//! [`super::inst`] on every instruction with the module's environment.

use std::collections::BTreeMap;

use brig::{
    BrigAllocation, BrigDirectiveExecutable, BrigDirectiveVariable, BrigExecutableModifierMask,
    BrigKind, BrigLinkage, BrigMachineModel, BrigOpcode as Op, BrigProfile, BrigRound,
    BrigSegment as Seg, BrigType, BrigVariableModifierMask, Code, CodeOffset, Operand,
};

use super::index::{FastMap, FastSet, Index, InstOperands};
use super::inst::{self, CodeUse, InstEnv};
use super::{BasicBlock, CodeBlock, ModuleInfo, RegisterUse, Symbol, SymbolKind, ValidationError};

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
        },
        module_vars: FastSet::default(),
        first_decl: FastMap::default(),
        memo: memo.then(|| inst::memo_for(m)),
        structural: false,
        want_info,
        indirect: false,
        indirect_scans: FastMap::default(),
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
    (info, cx.structural)
}

/// PRM 10.8: an indirect function, and every function it reaches by
/// `call` or `scall` (among the definitions of this module), defines no
/// group variable or fbarrier and references no module-scope group or
/// private variable or fbarrier (it cannot add to a kernel's group or
/// private memory or fbarriers).
fn check_indirect_functions(cx: &mut Cx<'_, '_>, defs: &[(CodeOffset, Code<'_>)]) {
    if !defs
        .iter()
        .any(|(_, c)| c.kind() == BrigKind::DIRECTIVE_INDIRECT_FUNCTION)
    {
        return;
    }
    let by_name: FastMap<&str, &BrigDirectiveExecutable> = defs
        .iter()
        .filter_map(|(_, c)| c.executable().map(|e| (cx.name_str(e.name), e)))
        .collect();
    let scans = std::mem::take(&mut cx.indirect_scans);
    for &(_, c) in defs {
        let Some(root) = c.executable() else { continue };
        if c.kind() != BrigKind::DIRECTIVE_INDIRECT_FUNCTION {
            continue;
        }
        let mut seen: FastSet<&str> = FastSet::default();
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if !seen.insert(cx.name_str(e.name)) {
                continue;
            }
            let Some((violation, callees)) = scans.get(&e.first_code_block_entry.get()) else {
                continue;
            };
            if let Some((at, what)) = *violation {
                let msg = format!(
                    "indirect function {} (or a function it calls) {what}",
                    cx.name_str(root.name)
                );
                cx.err("PRM 10.8", at, msg);
                break;
            }
            stack.extend(callees.iter().filter_map(|n| by_name.get(cx.name_str(*n))));
        }
    }
}

/// What [`indirect_scan`] finds in a code block: its first forbidden
/// definition or reference (where, and what), and the names of the
/// functions it calls.
type IndirectScan = (Option<(CodeOffset, &'static str)>, Vec<brig::DataOffset>);

/// What a code entry an instruction names means for PRM 10.8 (see
/// [`check_indirect_functions`]): a forbidden reference, or a call of a
/// function (recorded in `callees`).
fn indirect_ref(
    m: &Index<'_>,
    at: CodeOffset,
    callees: &mut Vec<brig::DataOffset>,
) -> Option<&'static str> {
    match m.code(at) {
        Ok(Code::DirectiveVariable(v))
            if matches!(v.segment, Seg::GROUP | Seg::PRIVATE)
                && matches!(v.linkage, BrigLinkage::MODULE | BrigLinkage::PROGRAM) =>
        {
            Some("references a module-scope group or private variable")
        }
        Ok(Code::DirectiveFbarrier(f))
            if matches!(f.linkage, BrigLinkage::MODULE | BrigLinkage::PROGRAM) =>
        {
            Some("references a module-scope fbarrier")
        }
        Ok(Code::DirectiveFunction(f) | Code::DirectiveIndirectFunction(f)) => {
            callees.push(f.name);
            None
        }
        _ => None,
    }
}

/// Records in `b` (when the module has indirect functions) what PRM 10.8
/// asks of the code entry `target` named by the instruction at `at`.
fn note_indirect_ref(cx: &Cx<'_, '_>, b: &mut Block, at: CodeOffset, target: CodeOffset) {
    if cx.indirect && b.indirect.0.is_none() {
        b.indirect.0 = indirect_ref(cx.m, target, &mut b.indirect.1).map(|what| (at, what));
    }
}

/// Records a definition PRM 10.8 forbids in an indirect function.
fn note_indirect_definition(b: &mut Block, at: CodeOffset, what: &'static str) {
    if b.indirect.0.is_none() {
        b.indirect.0 = Some((at, what));
    }
}

/// [`analyze_code_block`] for each definition in `defs`, in order.
fn analyze_code_blocks(cx: &mut Cx<'_, '_>, defs: &[(CodeOffset, Code<'_>)]) -> Vec<CodeBlock> {
    let mut out = Vec::with_capacity(defs.len());
    for &(at, c) in defs {
        if let Some(e) = c.executable() {
            out.push(analyze_code_block(cx, at, c.kind(), e));
        }
    }
    out
}

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

/// PRM 4.3.3, 4.11, 4.12: module-scope variables.
fn check_module_variable(cx: &mut Cx<'_, '_>, at: CodeOffset, v: &BrigDirectiveVariable) {
    check_module_linkage(cx, at, v.linkage);
    if !matches!(
        v.segment,
        Seg::GLOBAL | Seg::READONLY | Seg::GROUP | Seg::PRIVATE
    ) {
        cx.err(
            "PRM 4.3.8",
            at,
            format!(
                "a module-scope variable cannot be in the {} segment",
                v.segment.name().unwrap_or("?").to_ascii_lowercase()
            ),
        );
    }
    check_variable(cx, at, v, '&');
}

/// PRM 4.6: the name of a `what` declared at module scope starts with
/// `&`, in a code block with `%` (`sigil`), and has a body.
fn check_sigil(cx: &mut Cx<'_, '_>, at: CodeOffset, what: &str, name: &str, sigil: char) {
    if !name.starts_with(sigil) || name.len() < 2 {
        cx.err(
            "PRM 4.6",
            at,
            format!("{what} name {name:?} must start with {sigil}"),
        );
    }
}

/// Rules common to every variable (PRM 4.3.10, 4.11, 4.13, 4.20).
fn check_variable(cx: &mut Cx<'_, '_>, at: CodeOffset, v: &BrigDirectiveVariable, sigil: char) {
    let name = cx.name_str(v.name);
    check_sigil(cx, at, "variable", name, sigil);
    check_reserved_name(cx, at, name);
    let elem = v.type_.array_element().unwrap_or(v.type_);
    if elem == BrigType::B1 || elem == BrigType::NONE || elem.bit_size().is_none() {
        cx.err(
            "PRM 4.3.8",
            at,
            format!(
                "variables cannot have type {}",
                elem.text().unwrap_or_default()
            ),
        );
    }
    let dim = v.dim.get();
    if !v.type_.is_array() && dim != 0 {
        cx.err("PRM 18.5", at, "a non-array variable has dim 0");
    }
    let is_def = v.modifier.contains(BrigVariableModifierMask::DEFINITION);
    if v.type_.is_array()
        && dim == 0
        && is_def
        && v.segment != Seg::ARG
        && v.segment != Seg::KERNARG
        && v.init.is_none()
    {
        cx.err(
            "PRM 4.3.8",
            at,
            "an array definition without an initializer needs a size",
        );
    }
    check_natural_align(cx, at, v);
    check_type_support(cx, at, elem);
    // PRM 7.1.7, 7.1.8: image and sampler handles live in the global,
    // readonly, arg and kernarg segments only.
    if (elem.is_image() || elem == BrigType::SAMP)
        && !matches!(
            v.segment,
            Seg::GLOBAL | Seg::READONLY | Seg::ARG | Seg::KERNARG
        )
    {
        let rule = if elem == BrigType::SAMP {
            "PRM 7.1.8"
        } else {
            "PRM 7.1.7"
        };
        cx.err(
            rule,
            at,
            "image and sampler variables are in the global, readonly, arg or kernarg segment",
        );
    }
    if v.modifier.contains(BrigVariableModifierMask::CONST)
        && !matches!(v.segment, Seg::GLOBAL | Seg::READONLY)
    {
        cx.err(
            "PRM 4.3.10",
            at,
            "const applies only to global and readonly variables",
        );
    }
    if v.modifier.contains(BrigVariableModifierMask::CONST)
        && v.modifier.contains(BrigVariableModifierMask::DEFINITION)
        && matches!(v.segment, Seg::GLOBAL | Seg::READONLY)
        && v.init.is_none()
    {
        cx.err(
            "PRM 4.3.10",
            at,
            "a const global or readonly definition needs an initializer",
        );
    }
    if let Some(init) = v.init.non_null() {
        check_initializer(cx, at, v, init);
    }
    let alloc_ok = match v.segment {
        Seg::GLOBAL | Seg::READONLY => matches!(
            v.allocation,
            BrigAllocation::AGENT | BrigAllocation::PROGRAM
        ),
        _ => v.allocation == BrigAllocation::AUTOMATIC || v.allocation == BrigAllocation::NONE,
    };
    if !alloc_ok {
        cx.err(
            "PRM 4.3.10",
            at,
            format!(
                "allocation {} is not allowed in the {} segment",
                v.allocation.name().unwrap_or("?"),
                v.segment.name().unwrap_or("?")
            ),
        );
    }
}

/// The profile, machine model and extensions allow the type of a variable
/// or formal argument: image and sampler types need extension IMAGE
/// (PRM 13.1.2), the base profile has no f64 (16.2.1), the small model no
/// sig64 and the large model no sig32 (4.13.3).
fn check_type_support(cx: &mut Cx<'_, '_>, at: CodeOffset, elem: BrigType) {
    if (elem.is_image() || elem == BrigType::SAMP) && !cx.env.image_ext {
        cx.err(
            "PRM 13.1.2",
            at,
            "image and sampler variables and arguments need extension \"IMAGE\"",
        );
    }
    if cx.env.profile == BrigProfile::BASE && elem.base() == BrigType::F64 {
        cx.err(
            "PRM 16.2.1",
            at,
            "the base profile does not support f64 variables or arguments",
        );
    }
    // PRM 4.13.3: sig32 only in the small model, sig64 only in the large
    // one ("this includes segment variable declarations, definitions").
    let large = cx.env.model == BrigMachineModel::LARGE;
    if elem
        == if large {
            BrigType::SIG32
        } else {
            BrigType::SIG64
        }
    {
        let model = if large { "large" } else { "small" };
        let msg = format!(
            "the {model} model has no {} variables",
            elem.text().unwrap_or_default()
        );
        cx.err("PRM 4.13.3", at, msg);
    }
}

/// PRM 4.10: initializers only on global/readonly definitions, of the
/// variable's type (Table 4-1) and exactly its byte size.
fn check_initializer(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    init: brig::OperandOffset,
) {
    if !matches!(v.segment, Seg::GLOBAL | Seg::READONLY) {
        cx.err(
            "PRM 4.10",
            at,
            "only global and readonly variables can have initializers",
        );
    }
    if !v.modifier.contains(BrigVariableModifierMask::DEFINITION) {
        cx.err("PRM 4.10", at, "a declaration cannot have an initializer");
    }
    let elem = v.type_.array_element().unwrap_or(v.type_);
    let Ok(o) = cx.m.operand(init) else { return };
    let mut opaque = false;
    match o {
        Operand::ConstantImage(c) => {
            opaque = true;
            if !elem.is_image() || c.type_ != elem {
                cx.err("PRM 4.10", at, "image initializer for a non-image variable");
            }
            check_image_properties(cx, at, c);
        }
        Operand::ConstantSampler(c) => {
            opaque = true;
            if elem != BrigType::SAMP {
                cx.err(
                    "PRM 4.10",
                    at,
                    "sampler initializer for a non-sampler variable",
                );
            }
            check_sampler_properties(cx, at, c);
        }
        Operand::ConstantBytes(c) => {
            check_initializer_type(cx, at, v, c.type_);
            if elem.is_image() || elem == BrigType::SAMP {
                cx.err(
                    "PRM 4.10",
                    at,
                    "an image or sampler needs an image or sampler initializer",
                );
            }
        }
        Operand::ConstantOperandList(l) => {
            // Table 4-1: an aggregate initializes only a bit-type array;
            // an array of images or samplers is a list of their constants.
            if elem.base_class() != brig::BaseClass::Opaque
                && !(v.type_.is_array() && elem.base_class() == brig::BaseClass::B)
            {
                cx.err(
                    "PRM 4.10",
                    at,
                    "an aggregate constant initializes only an array of a bit type (Table 4-1)",
                );
            }
            let elems = cx.m.operand_list(l.elements).unwrap_or_default();
            let mut only_align = !elems.is_empty();
            for e in elems {
                match cx.m.operand(e) {
                    Ok(Operand::ConstantImage(c)) => {
                        opaque = true;
                        only_align = false;
                        check_image_properties(cx, at, c);
                    }
                    Ok(Operand::ConstantSampler(c)) => {
                        opaque = true;
                        only_align = false;
                        check_sampler_properties(cx, at, c);
                    }
                    Ok(Operand::Align(_)) => {}
                    _ => only_align = false,
                }
            }
            if only_align {
                cx.err(
                    "PRM 4.8.4",
                    at,
                    "an aggregate constant cannot consist of only alignment requests",
                );
            }
        }
        _ => {
            cx.err("PRM 4.10", at, "an initializer must be a constant");
            return;
        }
    }
    if cx.env.profile == BrigProfile::BASE && has_f64_constant(cx.m, o) {
        cx.err(
            "PRM 16.2.1",
            at,
            "the base profile does not support double-precision constants",
        );
    }
    // PRM 4.3.10: program allocation takes no image or sampler initializer.
    if opaque && v.allocation != BrigAllocation::AGENT {
        cx.err(
            "PRM 4.3.10",
            at,
            "image and sampler initializers need agent allocation (alloc(agent))",
        );
    }
    check_initializer_size(cx, at, v, o);
}

/// PRM 4.10: the byte size of the initializer is the byte size of the
/// variable (no zero fill, no truncation); an array with an empty
/// dimension takes a whole number of elements.
fn check_initializer_size(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    o: Operand<'_>,
) {
    let Some(len) = constant_size(cx.m, o, 0) else {
        return;
    };
    let elem = v.type_.array_element().unwrap_or(v.type_);
    let Some(esz) = elem.byte_size().map(u64::from).filter(|&n| n > 0) else {
        return;
    };
    let want = if v.type_.is_array() {
        esz.saturating_mul(v.dim.get())
    } else {
        esz
    };
    if len != want || len % esz != 0 {
        let msg =
            format!("the initializer has {len} bytes, the variable {want} (they must be equal)");
        cx.err("PRM 4.10", at, msg);
    }
}

/// The byte size of a constant operand (images, samplers and signal
/// handles are 8 bytes; aggregate alignment requests pad with zeros,
/// PRM 4.8.4), or `None` if it is not a constant.
fn constant_size(m: &Index<'_>, o: Operand<'_>, depth: u32) -> Option<u64> {
    match o {
        Operand::ConstantBytes(c) => Some(m.data_bytes(c.bytes).map_or(0, <[u8]>::len) as u64),
        Operand::ConstantImage(_) | Operand::ConstantSampler(_) => Some(8),
        Operand::ConstantOperandList(l) if depth < 4 => {
            let mut n: u64 = 0;
            for e in m.operand_list(l.elements).ok()? {
                match m.operand(e).ok()? {
                    Operand::Align(a) => {
                        let b = u64::from(a.align.bytes()?);
                        n = n.div_ceil(b) * b;
                    }
                    e => n += constant_size(m, e, depth + 1)?,
                }
            }
            Some(n)
        }
        _ => None,
    }
}

/// Whether a constant operand holds an f64 value (an f64 or f64x2 typed
/// constant, or an array or aggregate with one).
fn has_f64_constant(m: &Index<'_>, o: Operand<'_>) -> bool {
    match o {
        Operand::ConstantBytes(c) => c.type_.array_element().unwrap_or(c.type_).base() == BrigType::F64,
        Operand::ConstantOperandList(l) => m
            .operand_list(l.elements)
            .unwrap_or_default()
            .iter()
            .any(|&e| matches!(m.operand(e), Ok(Operand::ConstantBytes(c)) if c.type_.array_element().unwrap_or(c.type_).base() == BrigType::F64)),
        _ => false,
    }
}

/// PRM 13.2: a loc line and column are at least 1.
fn check_loc(cx: &mut Cx<'_, '_>, at: CodeOffset, l: &brig::BrigDirectiveLoc) {
    if l.line.get() == 0 {
        cx.err(
            "PRM 13.2",
            at,
            "the line number of a loc directive is at least 1",
        );
    }
    if l.column.get() == 0 {
        cx.err(
            "PRM 13.2",
            at,
            "the column number of a loc directive is at least 1",
        );
    }
}

/// PRM 13.3, 4.6.2: identifiers in a pragma are in scope; registers exist
/// only inside code blocks (4.7), so a module-scope pragma names none.
fn check_module_pragma(cx: &mut Cx<'_, '_>, at: CodeOffset, p: &brig::BrigDirectivePragma) {
    let ops = cx.m.operand_list(p.operands).unwrap_or_default();
    if ops
        .iter()
        .any(|&o| matches!(cx.m.operand(o), Ok(Operand::Register(_))))
    {
        cx.err(
            "PRM 13.3",
            at,
            "a module-scope pragma cannot name a register (registers are in scope only in a code block)",
        );
    }
    check_pragma_constants(cx, at, p);
}

/// Constants in a pragma (any scope) follow the module's profile and
/// extensions: no f64 in the base profile (PRM 4.8.2, 16.2.1), image and
/// sampler constants only with extension IMAGE (PRM 13.1.2).
fn check_pragma_constants(cx: &mut Cx<'_, '_>, at: CodeOffset, p: &brig::BrigDirectivePragma) {
    for o in cx.m.operand_list(p.operands).unwrap_or_default() {
        let Ok(op) = cx.m.operand(o) else { continue };
        if cx.env.profile == BrigProfile::BASE && has_f64_constant(cx.m, op) {
            cx.err(
                "PRM 16.2.1",
                at,
                "the base profile does not support double-precision constants",
            );
        }
        if !cx.env.image_ext && has_opaque_image_constant(cx.m, op) {
            cx.err(
                "PRM 13.1.2",
                at,
                "image and sampler constants need extension \"IMAGE\"",
            );
        }
    }
}

/// Whether a constant operand is (or lists) an image or sampler constant.
fn has_opaque_image_constant(m: &Index<'_>, o: Operand<'_>) -> bool {
    match o {
        Operand::ConstantImage(_) | Operand::ConstantSampler(_) => true,
        Operand::ConstantOperandList(l) => {
            let t = l.type_.array_element().unwrap_or(l.type_);
            t.is_image()
                || t == BrigType::SAMP
                || m.operand_list(l.elements)
                    .unwrap_or_default()
                    .iter()
                    .any(|&e| {
                        matches!(
                            m.operand(e),
                            Ok(Operand::ConstantImage(_) | Operand::ConstantSampler(_))
                        )
                    })
        }
        _ => false,
    }
}

/// PRM 4.10, Table 4-1: an array variable takes an array constant of its
/// element type, a non-array variable a non-array constant.
fn check_initializer_type(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    t: BrigType,
) {
    match (v.type_.array_element(), t.array_element()) {
        (Some(want), Some(got)) if want != got => {
            let msg = format!(
                "an array of {} is initialized with an array of {} (Table 4-1: same type)",
                want.text().unwrap_or_default(),
                got.text().unwrap_or_default()
            );
            cx.err("PRM 4.10", at, msg);
        }
        (None, Some(_)) => cx.err(
            "PRM 4.10",
            at,
            "an array constant initializes only an array variable",
        ),
        (Some(_), None) => cx.err(
            "PRM 4.10",
            at,
            "an array variable needs an array or aggregate constant",
        ),
        _ => {}
    }
}

/// Image properties (PRM 7.1.3, 7.1.7): a width always; a height, depth or
/// array size exactly when the geometry has that dimension.
fn check_image_properties(cx: &mut Cx<'_, '_>, at: CodeOffset, c: &brig::BrigOperandConstantImage) {
    use brig::BrigImageGeometry as G;
    let g = c.geometry;
    if g.raw() > G::_2DADEPTH.raw() {
        cx.err(
            "PRM 7.1.3",
            at,
            format!("unknown image geometry {}", g.raw()),
        );
        return;
    }
    let has_height = matches!(g, G::_2D | G::_3D | G::_2DA | G::_2DDEPTH | G::_2DADEPTH);
    let has_depth = g == G::_3D;
    let has_array = matches!(g, G::_1DA | G::_2DA | G::_2DADEPTH);
    for (name, value, wanted) in [
        ("width", c.width.get(), true),
        ("height", c.height.get(), has_height),
        ("depth", c.depth.get(), has_depth),
        ("array", c.array.get(), has_array),
    ] {
        if wanted && value == 0 {
            cx.err(
                "PRM 7.1.7",
                at,
                format!("an image of this geometry needs a {name} greater than 0"),
            );
        }
        if !wanted && value != 0 {
            cx.err(
                "PRM 7.1.7",
                at,
                format!("an image of this geometry has no {name}"),
            );
        }
    }
    let depth_order = matches!(
        c.channel_order,
        brig::BrigImageChannelOrder::DEPTH | brig::BrigImageChannelOrder::DEPTH_STENCIL
    );
    if depth_order != matches!(g, G::_2DDEPTH | G::_2DADEPTH)
        && c.channel_order.raw() < brig::BrigImageChannelOrder::FIRST_USER_DEFINED.raw()
    {
        cx.err(
            "PRM 7.1.4.1",
            at,
            "depth channel orders go with exactly the 2ddepth and 2dadepth geometries",
        );
    }
    check_image_format(cx, at, c);
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

/// PRM 7.1.5: only the channel order and channel type combinations of
/// Table 7-4 are legal (implementation-defined values are not checked).
fn check_image_format(cx: &mut Cx<'_, '_>, at: CodeOffset, c: &brig::BrigOperandConstantImage) {
    let (order, ty) = (c.channel_order.raw(), c.channel_type.raw());
    let Some(&legal) = CHANNEL_TYPES_OF_ORDER.get(usize::from(order)) else {
        return;
    };
    if ty < 16 && legal & (1 << ty) == 0 {
        let msg = format!(
            "channel type {} is not legal with channel order {} (Table 7-4)",
            crate::ops::names::channel_type::text(c.channel_type).unwrap_or("?"),
            crate::ops::names::channel_order::text(c.channel_order).unwrap_or("?")
        );
        cx.err("PRM 7.1.5", at, msg);
    }
}

/// Sampler properties (PRM 7.1.6.2): repeat addressing modes need
/// normalized coordinates.
fn check_sampler_properties(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    c: &brig::BrigOperandConstantSampler,
) {
    use brig::{BrigSamplerAddressing as A, BrigSamplerCoordNormalization as N};
    if c.coord == N::UNNORMALIZED && matches!(c.addressing, A::REPEAT | A::MIRRORED_REPEAT) {
        cx.err(
            "PRM 7.1.6.2",
            at,
            "repeat and mirrored_repeat addressing need normalized coordinates",
        );
    }
    if c.coord.raw() > 1 {
        cx.err("PRM 7.1.6.1", at, "unknown coordinate normalization mode");
    }
}

/// Kernel, function, indirect function and signature directives (PRM 4.3.1,
/// 4.12, 10.3): linkage, name, arguments.
fn check_executable(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    kind: BrigKind,
    e: &BrigDirectiveExecutable,
) {
    let name = cx.name(e.name);
    if !name.starts_with('&') || name.len() < 2 {
        cx.err("PRM 4.6", at, format!("name {name:?} must start with &"));
    }
    check_reserved_name(cx, at, &name);
    if kind == BrigKind::DIRECTIVE_SIGNATURE {
        if e.linkage != BrigLinkage::NONE && e.linkage != BrigLinkage::MODULE {
            // HSAILasm writes NONE; tolerate MODULE from other producers.
            cx.err("PRM 4.3.4", at, "a signature has no linkage");
        }
    } else {
        check_module_linkage(cx, at, e.linkage);
    }
    if kind == BrigKind::DIRECTIVE_KERNEL && e.out_arg_count.get() != 0 {
        cx.err("PRM 4.3.2", at, "a kernel has no output arguments");
    }
    if kind != BrigKind::DIRECTIVE_KERNEL && e.out_arg_count.get() > 1 {
        cx.err("PRM 10.3", at, "a function has at most one output argument");
    }
    let want_seg = if kind == BrigKind::DIRECTIVE_KERNEL {
        Seg::KERNARG
    } else {
        Seg::ARG
    };
    let args = arguments(cx.m, at, e);
    let n = args.len();
    for (i, &a) in args.iter().enumerate() {
        let Ok(Code::DirectiveVariable(v)) = cx.m.code(a) else {
            continue;
        };
        if v.segment != want_seg {
            cx.err(
                "PRM 4.3.3",
                a,
                format!(
                    "an argument of a {} is in the {} segment",
                    if want_seg == Seg::KERNARG {
                        "kernel"
                    } else {
                        "function"
                    },
                    want_seg.name().unwrap_or("?").to_ascii_lowercase()
                ),
            );
        }
        if v.type_.is_array() && v.dim.get() == 0 {
            if kind == BrigKind::DIRECTIVE_KERNEL {
                cx.err(
                    "PRM 4.3.8",
                    a,
                    "a kernel argument array needs a dimension (only functions and signatures take a flexible array)",
                );
            } else if i + 1 != n || i < usize::from(e.out_arg_count.get()) {
                cx.err(
                    "PRM 10.4",
                    a,
                    "only the last input argument can be a flexible array",
                );
            }
        }
        check_argument_qualifiers(cx, a, v);
        if v.init.non_null().is_some() {
            cx.err("PRM 4.10", a, "arguments cannot have initializers");
        }
        let is_def = e.modifier.contains(BrigExecutableModifierMask::DEFINITION)
            && kind != BrigKind::DIRECTIVE_SIGNATURE;
        let want_linkage = if is_def {
            BrigLinkage::FUNCTION
        } else {
            BrigLinkage::NONE
        };
        if v.linkage != want_linkage {
            cx.err(
                "PRM 4.12",
                a,
                format!(
                    "formal arguments of {} have {} linkage",
                    if is_def {
                        "definitions"
                    } else {
                        "declarations and signatures"
                    },
                    if is_def { "function" } else { "no" }
                ),
            );
        }
        if v.allocation != BrigAllocation::AUTOMATIC {
            cx.err(
                "PRM 4.3.10",
                a,
                "formal arguments have automatic allocation",
            );
        }
        if !v.modifier.contains(BrigVariableModifierMask::DEFINITION) {
            cx.err("PRM 4.3.10", a, "formal arguments are definitions");
        }
        let vname = cx.name(v.name);
        if kind != BrigKind::DIRECTIVE_SIGNATURE && !vname.starts_with('%') {
            cx.err(
                "PRM 4.6",
                a,
                format!("argument name {vname:?} must start with %"),
            );
        }
        let elem = v.type_.array_element().unwrap_or(v.type_);
        if elem == BrigType::B1 || elem.bit_size().is_none() {
            cx.err("PRM 4.13", a, "arguments cannot have this type");
        }
        check_type_support(cx, a, elem);
    }
    let mut names = FastSet::default();
    for &a in &args {
        if let Ok(Code::DirectiveVariable(v)) = cx.m.code(a) {
            let nm = cx.name(v.name);
            if !nm.is_empty() && !names.insert(nm.clone()) {
                cx.err("PRM 4.6.2", a, format!("argument {nm} is defined twice"));
            }
        }
    }
}

/// PRM 4.3.10: a formal argument is not const, and an align qualifier is
/// at least the natural alignment of its type.
fn check_argument_qualifiers(cx: &mut Cx<'_, '_>, a: CodeOffset, v: &BrigDirectiveVariable) {
    if v.modifier.contains(BrigVariableModifierMask::CONST) {
        cx.err(
            "PRM 4.3.10",
            a,
            "const applies only to global and readonly variables, not to arguments",
        );
    }
    check_natural_align(cx, a, v);
}

/// PRM 4.3.10: align(n) is a valid value, at least the natural alignment.
fn check_natural_align(cx: &mut Cx<'_, '_>, at: CodeOffset, v: &BrigDirectiveVariable) {
    let elem = v.type_.array_element().unwrap_or(v.type_);
    if v.align.raw() != 0 && v.align.bytes().is_none() {
        cx.err("PRM 4.3.10", at, "bad alignment value");
    }
    if let (Some(a), Some(n)) = (v.align.bytes(), elem.byte_size())
        && a < n
    {
        cx.err(
            "PRM 4.3.10",
            at,
            format!("align({a}) is less than the natural alignment {n} of the type"),
        );
    }
}

/// The argument directives of an executable, outputs first.
fn arguments(m: &Index<'_>, at: CodeOffset, e: &BrigDirectiveExecutable) -> Vec<CodeOffset> {
    let n = usize::from(e.out_arg_count.get()) + usize::from(e.in_arg_count.get());
    let mut out = Vec::with_capacity(n);
    let mut pos = m.next_code(at).ok();
    while let Some(p) = pos {
        if out.len() == n {
            break;
        }
        out.push(p);
        pos = m.next_code(p).ok();
    }
    out
}

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
    visible: FastSet<u32>,
    /// Variables of the currently open arg block.
    arg_vars: FastSet<u32>,
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
    /// Input and output formal arguments of a function definition.
    in_formals: FastSet<u32>,
    out_formals: FastSet<u32>,
    /// Label → the arg block it is in (`None`: outside arg blocks).
    label_scope: FastMap<u32, Option<CodeOffset>>,
    /// (instruction, operand, label, arg block of the instruction).
    label_uses: Vec<(CodeOffset, usize, CodeOffset, Option<CodeOffset>)>,
    names: FastSet<&'a str>,
    arg_names: FastSet<&'a str>,
    /// What PRM 10.8 asks of the block (when the module has indirect
    /// functions; see [`Cx::indirect_scans`]).
    indirect: IndirectScan,
}

/// Walks a kernel or function code block: directives, instructions, labels,
/// arg blocks and calls; then branch targets, limits and the CFG.
fn analyze_code_block<'a>(
    cx: &mut Cx<'_, 'a>,
    at: CodeOffset,
    kind: BrigKind,
    e: &BrigDirectiveExecutable,
) -> CodeBlock {
    let args = arguments(cx.m, at, e);
    let n_out = usize::from(e.out_arg_count.get());
    let symkind = match kind {
        BrigKind::DIRECTIVE_KERNEL => SymbolKind::Kernel,
        BrigKind::DIRECTIVE_INDIRECT_FUNCTION => SymbolKind::IndirectFunction,
        _ => SymbolKind::Function,
    };
    let mut cb = CodeBlock {
        directive: at,
        name: cx.name(e.name),
        kind: symkind,
        out_args: args.iter().take(n_out).copied().collect(),
        in_args: args.iter().skip(n_out).copied().collect(),
        start: e.first_code_block_entry,
        end: e.next_module_entry,
        locals: Vec::new(),
        labels: BTreeMap::new(),
        instructions: Vec::new(),
        blocks: Vec::new(),
        registers: RegisterUse::default(),
    };
    let mut b = Block {
        visible: args.iter().map(|a| a.get()).collect(),
        arg_vars: FastSet::default(),
        in_arg_block: None,
        calls_in_block: 0,
        seen_statement: false,
        code_stmt: false,
        arg_stmt: false,
        in_formals: if kind == BrigKind::DIRECTIVE_KERNEL {
            FastSet::default()
        } else {
            args.iter().skip(n_out).map(|a| a.get()).collect()
        },
        out_formals: args.iter().take(n_out).map(|a| a.get()).collect(),
        label_scope: FastMap::default(),
        label_uses: Vec::new(),
        names: args
            .iter()
            .filter_map(|&a| match cx.m.code(a) {
                Ok(Code::DirectiveVariable(v)) => Some(cx.name_str(v.name)),
                _ => None,
            })
            .collect(),
        arg_names: FastSet::default(),
        indirect: (None, Vec::new()),
    };
    let mut seen: [Vec<u64>; 4] = Default::default();
    let mut ops = InstOperands::default();
    // Label offsets of this block, and the instruction index each precedes.
    let mut label_index: FastMap<u32, usize> = FastMap::default();
    // Indices of the instructions that end a basic block (branches, ret).
    let mut block_ends: Vec<usize> = Vec::new();
    let first = cx.m.code_ordinal(cb.start).unwrap_or(cx.m.code_count());
    let last = cx.m.code_ordinal(cb.end).unwrap_or(cx.m.code_count());
    if cx.want_info {
        cb.instructions.reserve(last.saturating_sub(first));
    }
    // Label names of the block (duplicates are errors).
    let mut label_names: FastSet<&'a str> = FastSet::default();
    // Control directives of the block: (offset, directive, values).
    let mut controls: Vec<(CodeOffset, brig::BrigControlDirective, ControlValues)> = Vec::new();
    let mut n_inst = 0;
    for &o in cx.m.code_starts_from(first) {
        let pos = CodeOffset::new(o);
        if pos >= cb.end {
            break;
        }
        let Some(bytes) = cx.m.code_bytes_at_start(o) else {
            continue;
        };
        // An instruction first tries the memo on its bytes: one of a shape
        // that passed, naming no code list and not a call, needs only the
        // code entries its operands name (see `inst::memo_hit`), and is
        // not decoded.
        let raw = inst::raw_inst(bytes);
        let hit = match (cx.memo.as_mut(), raw) {
            (Some(memo), Some((_, list))) => {
                inst::memo_hit(memo, cx.m, bytes, list, &mut cb.registers, &mut seen)
            }
            _ => None,
        };
        if let (Some(uses), Some((opcode, _))) = (hit, raw)
            && !uses.lists
            && !is_call(opcode)
        {
            b.seen_statement = true;
            if cx.want_info && is_block_end(opcode) {
                block_ends.push(n_inst);
            }
            for u in uses.iter() {
                check_code_use(cx, &mut b, pos, opcode, u);
            }
            check_opcode_in_block(cx, &b, pos, opcode);
            note_statement(&mut b);
            n_inst += 1;
            if cx.want_info {
                cb.instructions.push(pos);
            }
            continue;
        }
        let Some(c) = Code::decode(bytes) else {
            continue;
        };
        if !matches!(
            c,
            Code::DirectiveControl(_)
                | Code::DirectiveComment(_)
                | Code::DirectivePragma(_)
                | Code::DirectiveLoc(_)
                | Code::DirectiveNone(_)
        ) {
            b.seen_statement = true;
        }
        match c {
            Code::DirectiveLabel(l) => {
                let name = cx.name_str(l.name);
                if !name.starts_with('@') || name.len() < 2 {
                    cx.err(
                        "PRM 4.9",
                        pos,
                        format!("label name {name:?} must start with @"),
                    );
                }
                check_reserved_name(cx, pos, name);
                if !label_names.insert(name) {
                    cx.err("PRM 4.9", pos, format!("label {name} is defined twice"));
                }
                if cx.want_info {
                    cb.labels.insert(name.to_owned(), pos);
                    label_index.insert(pos.get(), n_inst);
                }
                b.label_scope.insert(pos.get(), b.in_arg_block);
                note_statement(&mut b);
            }
            Code::DirectiveVariable(v) => {
                if v.segment == Seg::GROUP {
                    note_indirect_definition(&mut b, pos, "defines a group segment variable");
                }
                check_definition_order(cx, &b, pos);
                check_local_variable(cx, &mut b, pos, v);
                if cx.want_info {
                    cb.locals.push(symbol(cx, pos, c));
                }
            }
            Code::DirectiveFbarrier(f) => {
                note_indirect_definition(&mut b, pos, "defines an fbarrier");
                check_definition_order(cx, &b, pos);
                if b.in_arg_block.is_some() {
                    cx.err("PRM 4.3.6", pos, "an arg block defines only arg variables");
                }
                let name = cx.name_str(f.name);
                check_sigil(cx, pos, "fbarrier", name, '%');
                check_reserved_name(cx, pos, name);
                if !b.names.insert(name) {
                    cx.err(
                        "PRM 4.6.2",
                        pos,
                        format!("{name} is defined twice in this scope"),
                    );
                }
                if f.linkage != BrigLinkage::FUNCTION {
                    cx.err("PRM 4.12.3", pos, "a local fbarrier has function linkage");
                }
                if !f.modifier.contains(BrigVariableModifierMask::DEFINITION) {
                    cx.err(
                        "PRM 4.3.9",
                        pos,
                        "a code-block fbarrier must be a definition",
                    );
                }
                if cx.want_info {
                    cb.locals.push(symbol(cx, pos, c));
                }
            }
            Code::DirectiveArgBlockStart(_) => {
                if b.in_arg_block.is_some() {
                    cx.err("PRM 4.3.6", pos, "arg blocks cannot be nested");
                }
                b.code_stmt = true;
                b.arg_stmt = false;
                b.in_arg_block = Some(pos);
                b.calls_in_block = 0;
                b.arg_vars.clear();
                b.arg_names.clear();
            }
            Code::DirectiveArgBlockEnd(_) => {
                match b.in_arg_block {
                    None => cx.err("PRM 4.3.6", pos, "end of an arg block that was not started"),
                    Some(start) => {
                        if b.calls_in_block != 1 {
                            cx.err(
                                "PRM 4.3.6",
                                start,
                                format!(
                                    "an arg block contains exactly one call, found {}",
                                    b.calls_in_block
                                ),
                            );
                        }
                    }
                }
                b.in_arg_block = None;
                for v in b.arg_vars.drain() {
                    b.visible.remove(&v);
                }
            }
            Code::DirectiveControl(d) => {
                check_control(cx, &b, pos, d);
                controls.push((pos, d.control, control_values(cx.m, d)));
            }
            Code::DirectivePragma(p) => check_pragma_constants(cx, pos, p),
            Code::DirectiveLoc(l) => check_loc(cx, pos, l),
            Code::DirectiveComment(_) | Code::DirectiveNone(_) => {}
            _ if let Some(i) = c.inst() => {
                // Not done by the memo above: the operands are decoded.
                if !cx.m.fill_inst_operands(i.operands, &mut ops) {
                    cx.structural = true;
                }
                if cx.want_info && is_block_end(i.opcode) {
                    block_ends.push(n_inst);
                }
                if hit.is_none() {
                    inst::check_inst_missed(
                        cx.memo.as_mut(),
                        cx.m,
                        &cx.env,
                        pos,
                        c,
                        &ops,
                        cx.errors,
                        &mut cb.registers,
                        &mut seen,
                    );
                }
                check_operands_in_block(cx, &mut b, pos, i.opcode, &ops);
                check_opcode_in_block(cx, &b, pos, i.opcode);
                note_statement(&mut b);
                n_inst += 1;
                if cx.want_info {
                    cb.instructions.push(pos);
                }
            }
            _ => cx.err(
                "PRM 4.3",
                pos,
                format!("{:?} cannot appear inside a code block", c.kind()),
            ),
        }
    }
    if let Some(start) = b.in_arg_block {
        cx.err("PRM 4.3.6", start, "arg block is not closed");
    }
    check_label_uses(cx, &b);
    if cx.indirect {
        let scan = std::mem::take(&mut b.indirect);
        cx.indirect_scans
            .insert(e.first_code_block_entry.get(), scan);
    }
    check_control_consistency(cx, &controls);
    check_register_limits(cx, at, &cb.registers);
    if cx.want_info {
        cb.blocks = build_cfg(cx, &cb, &label_index, &block_ends);
    }
    cb
}

/// Whether `op` is a call (its operands are checked against the callee).
fn is_call(op: Op) -> bool {
    matches!(op, Op::CALL | Op::SCALL | Op::ICALL)
}

/// Whether `op` ends a basic block.
fn is_block_end(op: Op) -> bool {
    matches!(op, Op::BR | Op::CBR | Op::SBR | Op::RET)
}

/// A label or instruction: definitions may no longer follow.
fn note_statement(b: &mut Block) {
    if b.in_arg_block.is_some() {
        b.arg_stmt = true;
    } else {
        b.code_stmt = true;
    }
}

/// PRM 4.3.5 / 4.3.6: definitions precede the statements of their code
/// block or arg block.
fn check_definition_order(cx: &mut Cx<'_, '_>, b: &Block, at: CodeOffset) {
    if b.in_arg_block.is_some() {
        if b.arg_stmt {
            cx.err(
                "PRM 4.3.6",
                at,
                "arg block definitions must precede the arg block's labels and instructions",
            );
        }
    } else if b.code_stmt {
        cx.err(
            "PRM 4.3.5",
            at,
            "code block definitions must precede its labels, instructions and arg blocks",
        );
    }
}

/// Local variables (PRM 4.3.3, 4.6.2, 4.12.3): segment, scope, names.
fn check_local_variable<'a>(
    cx: &mut Cx<'_, 'a>,
    b: &mut Block<'a>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
) {
    let name = cx.name_str(v.name);
    match v.segment {
        Seg::ARG => {
            if b.in_arg_block.is_none() {
                cx.err(
                    "PRM 4.3.6",
                    at,
                    "arg variables are declared only inside arg blocks",
                );
            }
            if !b.arg_names.insert(name) {
                cx.err(
                    "PRM 4.6.2",
                    at,
                    format!("{name} is defined twice in this arg block"),
                );
            }
            b.arg_vars.insert(at.get());
            if v.type_.is_array() && v.dim.get() == 0 {
                cx.err(
                    "PRM 4.3.8",
                    at,
                    "an arg block variable is a definition: its array needs a dimension",
                );
            }
            if v.linkage != BrigLinkage::ARG {
                cx.err("PRM 4.12.4", at, "an arg-block variable has arg linkage");
            }
        }
        Seg::KERNARG => cx.err(
            "PRM 4.3.8",
            at,
            "kernarg variables are only kernel arguments",
        ),
        Seg::GLOBAL | Seg::READONLY | Seg::GROUP | Seg::PRIVATE | Seg::SPILL => {
            if b.in_arg_block.is_some() {
                cx.err("PRM 4.3.6", at, "an arg block defines only arg variables");
            }
            if !b.names.insert(name) {
                cx.err(
                    "PRM 4.6.2",
                    at,
                    format!("{name} is defined twice in this scope"),
                );
            }
            if v.linkage != BrigLinkage::FUNCTION {
                cx.err(
                    "PRM 4.12.3",
                    at,
                    "a code-block variable has function linkage",
                );
            }
        }
        s => cx.err(
            "PRM 4.3.8",
            at,
            format!("variables cannot be in segment {}", s.raw()),
        ),
    }
    if !v.modifier.contains(BrigVariableModifierMask::DEFINITION) {
        cx.err(
            "PRM 4.3.8",
            at,
            "a code-block variable must be a definition",
        );
    }
    b.visible.insert(at.get());
    check_variable(cx, at, v, '%');
}

/// Control directives (PRM 13.4): values in range.
fn check_control(cx: &mut Cx<'_, '_>, b: &Block, at: CodeOffset, d: &brig::BrigDirectiveControl) {
    use brig::BrigControlDirective as C;
    if b.seen_statement {
        cx.err(
            "PRM 13.4",
            at,
            "control directives must come before the first definition or statement of the code block",
        );
    }
    let n = cx.m.operand_list(d.operands).map_or(0, |l| l.len());
    let want = match d.control {
        C::ENABLEBREAKEXCEPTIONS
        | C::ENABLEDETECTEXCEPTIONS
        | C::MAXDYNAMICGROUPSIZE
        | C::MAXFLATGRIDSIZE
        | C::MAXFLATWORKGROUPSIZE
        | C::REQUIREDDIM => 1,
        C::REQUIREDGRIDSIZE | C::REQUIREDWORKGROUPSIZE => 3,
        C::REQUIRENOPARTIALWORKGROUPS => 0,
        _ => {
            cx.err("PRM 13.4", at, "unknown control directive");
            return;
        }
    };
    if n != want {
        cx.err(
            "PRM 13.4",
            at,
            format!("control directive takes {want} operands, found {n}"),
        );
    }
    // Operand types: u64 for grid sizes, u32 otherwise; WAVESIZE only for
    // counts and sizes of work-items.
    let (want_ty, wavesize_ok) = match d.control {
        C::MAXFLATGRIDSIZE | C::REQUIREDGRIDSIZE => (BrigType::U64, true),
        C::MAXFLATWORKGROUPSIZE | C::REQUIREDWORKGROUPSIZE => (BrigType::U32, true),
        _ => (BrigType::U32, false),
    };
    for o in cx.m.operand_list(d.operands).unwrap_or_default() {
        match cx.m.operand(o) {
            Ok(Operand::Wavesize(_)) if !wavesize_ok => {
                cx.err(
                    "PRM 13.4",
                    at,
                    "WAVESIZE is not allowed in this control directive",
                );
            }
            Ok(Operand::ConstantBytes(c)) => {
                let len = cx.m.data_bytes(c.bytes).map_or(0, <[u8]>::len);
                if Some(len as u32) != want_ty.byte_size() {
                    cx.err(
                        "PRM 13.4",
                        at,
                        format!(
                            "control directive operand must be a {} value",
                            want_ty.text().unwrap_or_default()
                        ),
                    );
                } else if c.type_ != want_ty {
                    // PRM 18.6.1: a directive's constant operand has the
                    // type the directive expects.
                    cx.err(
                        "PRM 18.6.1",
                        at,
                        format!(
                            "control directive operand has type {}, must be {}",
                            c.type_.text().unwrap_or_default(),
                            want_ty.text().unwrap_or_default()
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    if d.control == C::REQUIREDDIM
        && let Some(v) = first_constant(cx.m, d.operands)
        && !(1..=3).contains(&v)
    {
        cx.err("PRM 13.4", at, "requireddim must be 1, 2 or 3");
    }
    if matches!(
        d.control,
        C::MAXFLATGRIDSIZE
            | C::MAXFLATWORKGROUPSIZE
            | C::REQUIREDGRIDSIZE
            | C::REQUIREDWORKGROUPSIZE
    ) && let Ok(list) = cx.m.operand_list(d.operands)
    {
        for o in list {
            if let Ok(Operand::ConstantBytes(c)) = cx.m.operand(o)
                && const_value(cx.m, c) == Some(0)
            {
                cx.err(
                    "PRM 13.4",
                    at,
                    "a size in a control directive must be greater than 0",
                );
            }
        }
    }
}

/// The values of a control directive's operands (`None`: WAVESIZE or not
/// a constant), at most three.
type ControlValues = [Option<u64>; 3];

fn control_values(m: &Index<'_>, d: &brig::BrigDirectiveControl) -> ControlValues {
    let mut out = [None; 3];
    for (slot, o) in out
        .iter_mut()
        .zip(m.operand_list(d.operands).unwrap_or_default())
    {
        if let Ok(Operand::ConstantBytes(c)) = m.operand(o) {
            *slot = const_value(m, c);
        }
    }
    out
}

/// PRM 13.4, across the control directives of one code block: a repeated
/// directive (other than the exception sets and requirenopartialworkgroups)
/// repeats its values; requireddim agrees with the required sizes (unused
/// dimensions are 1); the maximum flat sizes are at least the product of
/// the required sizes.
fn check_control_consistency(
    cx: &mut Cx<'_, '_>,
    controls: &[(CodeOffset, brig::BrigControlDirective, ControlValues)],
) {
    use brig::BrigControlDirective as C;
    if controls.len() < 2 {
        return;
    }
    let first = |c: C| controls.iter().find(|x| x.1 == c).map(|x| (x.0, x.2));
    for (k, &(at, c, vals)) in controls.iter().enumerate() {
        let unioned = matches!(
            c,
            C::ENABLEBREAKEXCEPTIONS | C::ENABLEDETECTEXCEPTIONS | C::REQUIRENOPARTIALWORKGROUPS
        );
        if !unioned && controls[..k].iter().any(|x| x.1 == c && x.2 != vals) {
            cx.err(
                "PRM 13.4",
                at,
                "a repeated control directive must have the same values",
            );
        }
    }
    let dim = first(C::REQUIREDDIM).and_then(|(_, v)| v[0]);
    for (c, max) in [
        (C::REQUIREDWORKGROUPSIZE, C::MAXFLATWORKGROUPSIZE),
        (C::REQUIREDGRIDSIZE, C::MAXFLATGRIDSIZE),
    ] {
        let Some((at, v)) = first(c) else { continue };
        if let Some(d) = dim
            && v.iter()
                .enumerate()
                .any(|(i, x)| (i as u64) >= d && x.is_some_and(|x| x != 1))
        {
            cx.err(
                "PRM 13.4",
                at,
                format!("with requireddim {d}, the sizes of the unused dimensions must be 1"),
            );
        }
        let product = v
            .iter()
            .try_fold(1u128, |p, x| x.map(|x| p * u128::from(x)));
        if let (Some(p), Some((mat, mv))) = (product, first(max))
            && let Some(m) = mv[0]
            && u128::from(m) < p
        {
            cx.err(
                "PRM 13.4",
                mat,
                format!(
                    "the maximum flat size {m} is less than the product {p} of the required sizes"
                ),
            );
        }
    }
}

fn const_value(m: &Index<'_>, c: &brig::BrigOperandConstantBytes) -> Option<u64> {
    let b = m.data_bytes(c.bytes).ok()?;
    if b.is_empty() || b.len() > 8 {
        return None;
    }
    let mut v = [0u8; 8];
    v[..b.len()].copy_from_slice(b);
    Some(u64::from_le_bytes(v))
}

fn first_constant(m: &Index<'_>, list: brig::DataOffset) -> Option<u64> {
    let o = *m.operand_list(list).ok()?.first()?;
    match m.operand(o).ok()? {
        Operand::ConstantBytes(c) => const_value(m, c),
        _ => None,
    }
}

/// Code-structure rules on the operands of one instruction (PRM 4.6.2
/// scope, 4.9 labels, 10.2 calls and arg blocks).
fn check_operands_in_block(
    cx: &mut Cx<'_, '_>,
    b: &mut Block,
    at: CodeOffset,
    opcode: Op,
    ops: &InstOperands<'_>,
) {
    let refs = if ops.has_code_refs() { ops.len() } else { 0 };
    for index in 0..refs {
        match ops.get(index) {
            Some(Operand::Address(a)) => {
                if let Some(s) = a.symbol.non_null() {
                    note_indirect_ref(cx, b, at, s);
                    check_variable_use(cx, b, at, index, opcode, s);
                }
            }
            Some(Operand::CodeRef(r)) => {
                note_indirect_ref(cx, b, at, r.ref_);
                note_label_use(cx, b, at, index, r.ref_);
            }
            Some(Operand::CodeList(l)) => {
                for &t in cx.m.code_list_ref(l.elements).unwrap_or_default() {
                    note_indirect_ref(cx, b, at, t);
                    note_label_use(cx, b, at, index, t);
                }
            }
            _ => {}
        }
    }
    if is_call(opcode) {
        if b.in_arg_block.is_none() {
            cx.err("PRM 10.2", at, "a call must be inside an arg block");
        } else {
            b.calls_in_block += 1;
        }
        check_call_args(cx, b, at, opcode, ops);
    }
}

/// What [`check_operands_in_block`] does for one code entry an operand
/// names, from an instruction's shape (see [`inst::memo_hit`]).
fn check_code_use(cx: &mut Cx<'_, '_>, b: &mut Block, at: CodeOffset, opcode: Op, u: CodeUse) {
    match u {
        CodeUse::Symbol { index, at: s } => {
            note_indirect_ref(cx, b, at, s);
            check_variable_use(cx, b, at, index, opcode, s);
        }
        CodeUse::Target { index, at: t } => {
            note_indirect_ref(cx, b, at, t);
            note_label_use(cx, b, at, index, t);
        }
    }
}

/// PRM 10.2: what may not appear inside an arg block.
fn check_opcode_in_block(cx: &mut Cx<'_, '_>, b: &Block, at: CodeOffset, opcode: Op) {
    match opcode {
        Op::RET if b.in_arg_block.is_some() => {
            cx.err("PRM 10.2", at, "ret cannot be inside an arg block");
        }
        Op::ALLOCA if b.in_arg_block.is_some() => {
            cx.err("PRM 10.2", at, "alloca cannot be inside an arg block");
        }
        _ => {}
    }
}

/// A variable named in an address (PRM 4.6.2): in scope here; formal
/// arguments of a function are only loaded (inputs) or stored (output)
/// (PRM 10.2).
fn check_variable_use(
    cx: &mut Cx<'_, '_>,
    b: &Block,
    at: CodeOffset,
    k: usize,
    op: Op,
    var: CodeOffset,
) {
    check_declared_before(cx, at, k, var);
    if !cx.module_vars.contains(&var.get()) && !b.visible.contains(&var.get()) {
        cx.errors.push(ValidationError::operand(
            "PRM 4.6.2",
            at,
            k,
            "the variable is not in scope here",
        ));
        return;
    }
    if b.in_formals.contains(&var.get()) && op != Op::LD {
        cx.errors.push(ValidationError::operand(
            "PRM 10.2",
            at,
            k,
            "input formal arguments can only be read with ld",
        ));
    }
    if b.out_formals.contains(&var.get()) && op != Op::ST {
        cx.errors.push(ValidationError::operand(
            "PRM 10.2",
            at,
            k,
            "the output formal argument can only be written with st",
        ));
    }
}

/// Records a reference to a code entry; labels are checked when the code
/// block ends (they may be defined later).
fn note_label_use(cx: &mut Cx<'_, '_>, b: &mut Block, at: CodeOffset, k: usize, t: CodeOffset) {
    if let Ok(Code::DirectiveLabel(_)) = cx.m.code(t) {
        b.label_uses.push((at, k, t, b.in_arg_block));
    } else {
        check_declared_before(cx, at, k, t);
    }
}

/// PRM 4.6.2: a module-scope name is visible from its first declaration
/// or definition on.
fn check_declared_before(cx: &mut Cx<'_, '_>, at: CodeOffset, k: usize, target: CodeOffset) {
    if let Some(&first) = cx.first_decl.get(&target.get())
        && first > at.get()
    {
        cx.errors.push(ValidationError::operand(
            "PRM 4.6.2",
            at,
            k,
            "the name is used before its first declaration",
        ));
    }
}

/// PRM 4.9 / 10.2: branch targets are labels of the same code block, and
/// no branch goes into or out of an arg block.
fn check_label_uses(cx: &mut Cx<'_, '_>, b: &Block) {
    for &(at, k, label, scope) in &b.label_uses {
        match b.label_scope.get(&label.get()) {
            None => cx.errors.push(ValidationError::operand(
                "PRM 4.9",
                at,
                k,
                "branch target label is not in this code block",
            )),
            Some(&s) if s != scope => cx.errors.push(ValidationError::operand(
                "PRM 10.2",
                at,
                k,
                "branch into or out of an arg block",
            )),
            Some(_) => {}
        }
    }
}

/// PRM 10.2 / 10.6: the argument lists of a call match the callee's
/// signature and name arg variables of the current arg block.
fn check_call_args(cx: &mut Cx<'_, '_>, b: &Block, at: CodeOffset, op: Op, ops: &InstOperands<'_>) {
    let m = cx.m;
    let list = |k: usize| -> &[CodeOffset] {
        match ops.get(k) {
            Some(Operand::CodeList(l)) if m.check_code_list(l.elements).is_ok() => {
                m.code_list_ref(l.elements).unwrap_or_default()
            }
            _ => &[],
        }
    };
    let (outs, ins) = (list(0), list(2));
    // PRM 10.2: every actual argument of the arg block appears exactly once
    // in the call's lists.
    let listed = || outs.iter().chain(ins).map(|a| a.get());
    let twice = if outs.len() + ins.len() <= 32 {
        listed()
            .enumerate()
            .any(|(i, a)| listed().skip(i + 1).any(|x| x == a))
    } else {
        let mut sorted: Vec<u32> = listed().collect();
        sorted.sort_unstable();
        sorted.windows(2).any(|w| w[0] == w[1])
    };
    if twice {
        cx.err(
            "PRM 10.2",
            at,
            "an actual argument appears more than once in the call",
        );
    }
    // Without repeats, every arg variable is passed when as many listed
    // arguments are arg variables of the block as it has.
    if twice || listed().filter(|a| b.arg_vars.contains(a)).count() != b.arg_vars.len() {
        let mut unused: Vec<u32> = b
            .arg_vars
            .iter()
            .copied()
            .filter(|v| !listed().any(|a| a == *v))
            .collect();
        unused.sort_unstable();
        for v in unused {
            cx.err(
                "PRM 10.2",
                at,
                format!(
                    "actual argument {} of the arg block is not passed to the call",
                    CodeOffset::new(v)
                ),
            );
        }
    }
    for (k, v) in [(0usize, outs), (2, ins)] {
        for &a in v {
            match cx.m.code(a) {
                Ok(Code::DirectiveVariable(var)) if var.segment == Seg::ARG => {
                    if !b.arg_vars.contains(&a.get()) {
                        cx.errors.push(ValidationError::operand(
                            "PRM 10.2",
                            at,
                            k,
                            "call arguments are arg variables of the call's arg block",
                        ));
                    }
                }
                _ => cx.errors.push(ValidationError::operand(
                    "PRM 10.2",
                    at,
                    k,
                    "call arguments must be arg-segment variables",
                )),
            }
        }
    }
    // The callee(s) whose signature the lists must match.
    let callees: &[CodeOffset] = match (op, ops.get(1)) {
        (Op::CALL, Some(Operand::CodeRef(r))) => core::slice::from_ref(&r.ref_),
        (Op::ICALL, _) => match ops.get(3) {
            Some(Operand::CodeRef(r)) => core::slice::from_ref(&r.ref_),
            _ => &[],
        },
        (Op::SCALL, _) => list(3),
        _ => &[],
    };
    for &callee in callees {
        let Ok(c) = cx.m.code(callee) else { continue };
        let Some(e) = c.executable() else { continue };
        if c.kind() == BrigKind::DIRECTIVE_KERNEL {
            cx.err("PRM 10.6", at, "kernels cannot be called");
            continue;
        }
        let params = arguments(cx.m, callee, e);
        let n_out = usize::from(e.out_arg_count.get());
        let (pout, pin) = params.split_at(n_out.min(params.len()));
        if outs.len() != pout.len() || (ins.len() != pin.len() && !variadic_ok(cx.m, pin, ins)) {
            cx.err(
                "PRM 10.2",
                at,
                format!(
                    "call passes {} output and {} input arguments, the callee takes {} and {}",
                    outs.len(),
                    ins.len(),
                    pout.len(),
                    pin.len()
                ),
            );
            continue;
        }
        for (k, (got, want)) in [(0usize, (outs, pout)), (2, (ins, pin))] {
            for (&g, &w) in got.iter().zip(want.iter()) {
                if let (Ok(Code::DirectiveVariable(g)), Ok(Code::DirectiveVariable(w))) =
                    (cx.m.code(g), cx.m.code(w))
                    && !arg_compatible(g, w)
                {
                    cx.errors.push(ValidationError::operand(
                        "PRM 10.2",
                        at,
                        k,
                        format!(
                            "argument of type {} passed for a parameter of type {}",
                            g.type_.text().unwrap_or_default(),
                            w.type_.text().unwrap_or_default()
                        ),
                    ));
                }
            }
        }
    }
}

fn variadic_ok(m: &Index<'_>, params: &[CodeOffset], ins: &[CodeOffset]) -> bool {
    params.last().is_some_and(|&p| {
        matches!(m.code(p), Ok(Code::DirectiveVariable(v)) if v.type_.is_array() && v.dim.get() == 0)
    }) && ins.len() == params.len()
}

/// PRM 10.2: an argument matches its parameter in type and size (a
/// flexible array parameter takes any array of its element type).
fn arg_compatible(g: &BrigDirectiveVariable, w: &BrigDirectiveVariable) -> bool {
    if g.type_ != w.type_ || effective_align(g) != effective_align(w) {
        return false;
    }
    !w.type_.is_array() || w.dim.get() == 0 || g.dim.get() == w.dim.get()
}

/// The alignment of a variable in bytes: explicit, else natural (PRM 10.2:
/// "regardless of whether it is explicitly specified").
fn effective_align(v: &BrigDirectiveVariable) -> u32 {
    let elem = v.type_.array_element().unwrap_or(v.type_);
    v.align
        .bytes()
        .unwrap_or_else(|| elem.byte_size().unwrap_or(1))
}

/// Appendix A / PRM 4.7: register limits per code block.
fn check_register_limits(cx: &mut Cx<'_, '_>, at: CodeOffset, r: &RegisterUse) {
    if r.c_pool() > 128 {
        cx.err(
            "PRM 4.7",
            at,
            format!(
                "uses $c registers up to $c{}; at most 128 ($c0..$c127) are allowed (Appendix A)",
                r.c_pool() - 1
            ),
        );
    }
    if r.sdq_pool() > 2048 {
        cx.err(
            "PRM 4.7",
            at,
            format!(
                "(s_max+1) + 2(d_max+1) + 4(q_max+1) = {} exceeds 2048 (Appendix A)",
                r.sdq_pool()
            ),
        );
    }
}

/// Basic blocks and successors (PRM 2.12, 8): leaders are the first
/// instruction, label targets and instructions after a branch or `ret`
/// (`block_ends`: the indices of those, in `cb.instructions`).
fn build_cfg(
    cx: &Cx<'_, '_>,
    cb: &CodeBlock,
    label_index: &FastMap<u32, usize>,
    block_ends: &[usize],
) -> Vec<BasicBlock> {
    let n = cb.instructions.len();
    if n == 0 {
        return Vec::new();
    }
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    leader[n] = true;
    for &i in label_index.values() {
        leader[i.min(n)] = true;
    }
    for &k in block_ends {
        if let Some(l) = leader.get_mut(k + 1) {
            *l = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&k| leader[k]).collect();
    let block_of = |k: usize| starts.partition_point(|&s| s <= k).saturating_sub(1);
    let mut blocks: Vec<BasicBlock> = starts
        .iter()
        .enumerate()
        .map(|(b, &s)| BasicBlock {
            first: s,
            end: starts.get(b + 1).copied().unwrap_or(n),
            labels: Vec::new(),
            successors: Vec::new(),
        })
        .collect();
    for (&lab, &k) in label_index {
        if k < n {
            blocks[block_of(k)].labels.push(CodeOffset::new(lab));
        }
    }
    for b in &mut blocks {
        b.labels.sort();
    }
    let target_block = |o: CodeOffset| -> Option<usize> {
        let k = *label_index.get(&o.get())?;
        (k < n).then(|| block_of(k))
    };
    for bi in 0..blocks.len() {
        let last = blocks[bi].end - 1;
        let inst = cx.m.code(cb.instructions[last]).ok();
        let op = inst.and_then(|c| c.inst().map(|i| i.opcode));
        let ops = inst
            .and_then(|c| c.inst())
            .and_then(|i| cx.m.operand_list_ref(i.operands).ok())
            .unwrap_or_default();
        let mut succ = Vec::new();
        let refs = |succ: &mut Vec<usize>| {
            for &o in ops {
                match cx.m.operand(o) {
                    Ok(Operand::CodeRef(r)) => succ.extend(target_block(r.ref_)),
                    Ok(Operand::CodeList(l)) => {
                        for &t in cx.m.code_list_ref(l.elements).unwrap_or_default() {
                            succ.extend(target_block(t));
                        }
                    }
                    _ => {}
                }
            }
        };
        match op {
            Some(Op::RET) => {}
            Some(Op::BR | Op::SBR) => refs(&mut succ),
            Some(Op::CBR) => {
                refs(&mut succ);
                if bi + 1 < blocks.len() {
                    succ.push(bi + 1);
                }
            }
            _ => {
                if bi + 1 < blocks.len() {
                    succ.push(bi + 1);
                }
            }
        }
        succ.sort_unstable();
        succ.dedup();
        blocks[bi].successors = succ;
    }
    blocks
}
