//! Executables and calls (PRM 4.3, 10): formal arguments, call argument
//! lists against the callee's signature, indirect functions (10.8).

use super::*;

/// PRM 10.8: an indirect function, and every function it reaches by
/// `call` or `scall` (among the definitions of this module), defines no
/// group variable or fbarrier and references no module-scope group or
/// private variable or fbarrier (it cannot add to a kernel's group or
/// private memory or fbarriers).
pub(super) fn check_indirect_functions(cx: &mut Cx<'_, '_>, defs: &[(CodeOffset, Code<'_>)]) {
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
pub(super) fn note_indirect_ref(
    cx: &Cx<'_, '_>,
    b: &mut Block,
    at: CodeOffset,
    target: CodeOffset,
) {
    if cx.indirect && b.indirect.0.is_none() {
        b.indirect.0 = indirect_ref(cx.m, target, &mut b.indirect.1).map(|what| (at, what));
    }
}

/// Records a definition PRM 10.8 forbids in an indirect function.
pub(super) fn note_indirect_definition(b: &mut Block, at: CodeOffset, what: &'static str) {
    if b.indirect.0.is_none() {
        b.indirect.0 = Some((at, what));
    }
}

/// Kernel, function, indirect function and signature directives (PRM 4.3.1,
/// 4.12, 10.3): linkage, name, arguments.
pub(super) fn check_executable(
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

/// The argument directives of an executable, outputs first.
pub(super) fn arguments(
    m: &Index<'_>,
    at: CodeOffset,
    e: &BrigDirectiveExecutable,
) -> Vec<CodeOffset> {
    argument_offsets(m, at, e).collect()
}

/// [`arguments`], walked in place: the entries after the directive at
/// `at`, as many as it has arguments (fewer at the section's end).
pub(super) fn argument_offsets<'m>(
    m: &'m Index<'_>,
    at: CodeOffset,
    e: &BrigDirectiveExecutable,
) -> impl Iterator<Item = CodeOffset> + 'm {
    let n = usize::from(e.out_arg_count.get()) + usize::from(e.in_arg_count.get());
    std::iter::successors(m.next_code(at).ok(), |&p| m.next_code(p).ok()).take(n)
}

/// PRM 10.2 / 10.6: the argument lists of a call match the callee's
/// signature and name arg variables of the current arg block.
pub(super) fn check_call_args(
    cx: &mut Cx<'_, '_>,
    b: &Block,
    at: CodeOffset,
    op: Op,
    ops: &InstOperands<'_>,
) {
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
    // in the call's lists. Both checks run on the listed offsets sorted
    // (in place when there are few).
    let mut few = [0u32; 16];
    let mut many = Vec::new();
    let listed = outs.iter().chain(ins).map(|a| a.get());
    let sorted: &mut [u32] = match few.get_mut(..outs.len() + ins.len()) {
        Some(s) => {
            for (d, a) in s.iter_mut().zip(listed) {
                *d = a;
            }
            s
        }
        None => {
            many.extend(listed);
            &mut many
        }
    };
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        cx.err(
            "PRM 10.2",
            at,
            "an actual argument appears more than once in the call",
        );
    }
    // The block's arg variables (in increasing order) not listed.
    let mut rest = sorted.iter().peekable();
    for &v in &b.arg_vars {
        while rest.next_if(|&&a| a < v).is_some() {}
        if rest.peek() != Some(&&v) {
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
    let var_of = |a: CodeOffset| match m.code(a) {
        Ok(Code::DirectiveVariable(v)) => Some(v),
        _ => None,
    };
    for (k, v) in [(0usize, outs), (2, ins)] {
        for &a in v {
            match var_of(a) {
                Some(var) if var.segment == Seg::ARG => {
                    if b.arg_vars.binary_search(&a.get()).is_err() {
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
        let Ok(c) = m.code(callee) else { continue };
        let Some(e) = c.executable() else { continue };
        if c.kind() == BrigKind::DIRECTIVE_KERNEL {
            cx.err("PRM 10.6", at, "kernels cannot be called");
            continue;
        }
        // The callee's parameters (outputs first), walked in place.
        let n_out = usize::from(e.out_arg_count.get());
        let params = || argument_offsets(m, callee, e);
        let found = params().count();
        let (n_pout, n_pin) = (n_out.min(found), found.saturating_sub(n_out));
        if outs.len() != n_pout || ins.len() != n_pin {
            cx.err(
                "PRM 10.2",
                at,
                format!(
                    "call passes {} output and {} input arguments, the callee takes {} and {}",
                    outs.len(),
                    ins.len(),
                    n_pout,
                    n_pin
                ),
            );
            continue;
        }
        for (i, (&g, w)) in outs.iter().chain(ins).zip(params()).enumerate() {
            let k = if i < outs.len() { 0 } else { 2 };
            if let (Some(g), Some(w)) = (var_of(g), var_of(w))
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

/// Rules on an arg block as a whole, checked at its end (they need the
/// block's call, which may come after the instruction at fault), on the
/// `entries` of the block the walk kept (`block::note_arg_entry`):
///
/// * PRM 10.2: the call is executed exactly once, "it is not allowed to
///   conditionally execute the call instruction within the arg block, or
///   loop within the arg block": no branch inside the block jumps from
///   before the call to after it, or from after it back to it or before.
///   (Branches into or out of the block are checked by the walk.)
/// * PRM 7.1.9: an image or sampler handle is stored (`st_arg_roimg`, …,
///   `st_arg_samp`) only to an input actual argument of the call or to the
///   output formal argument of the function, "a store instruction is not
///   allowed on any other segment" (nor variable): not to an output actual
///   argument. Only in modules with extension IMAGE (13.1.2).
pub(super) fn check_arg_block(cx: &mut Cx<'_, '_>, entries: &[(CodeOffset, Code<'_>)]) {
    let m = cx.m;
    let is_call =
        |c: &Code<'_>| matches!(c, Code::InstBr(i) if super::block::is_call(i.base.opcode));
    let Some(call) = entries.iter().position(|(_, c)| is_call(c)) else {
        return;
    };
    let (call_at, Code::InstBr(call_inst)) = entries[call] else {
        return;
    };
    for &(at, c) in entries {
        match c {
            Code::InstBr(i) if matches!(i.base.opcode, Op::BR | Op::CBR | Op::SBR) => {
                let Ok(ops) = m.inst_operands(i.base.operands) else {
                    continue;
                };
                let mut targets: Vec<CodeOffset> = Vec::new();
                for o in ops.iter() {
                    match o {
                        Operand::CodeRef(r) => targets.push(r.ref_),
                        Operand::CodeList(l) => targets
                            .extend_from_slice(m.code_list_ref(l.elements).unwrap_or_default()),
                        _ => {}
                    }
                }
                // Labels of this arg block only (others are 10.2 errors of
                // the walk); a label at the call's offset precedes it.
                // `entries` are in offset order: a label is found by
                // binary search (a huge arg block stays linear-logarithmic).
                let in_block = |t: CodeOffset| {
                    entries
                        .binary_search_by_key(&t, |&(l, _)| l)
                        .is_ok_and(|k| matches!(entries[k].1, Code::DirectiveLabel(_)))
                };
                let skips = targets.iter().any(|&t| {
                    ((at < call_at && t > call_at) || (at > call_at && t <= call_at)) && in_block(t)
                });
                if skips {
                    cx.err(
                        "PRM 10.2",
                        at,
                        "the call of an arg block is executed exactly once: no branch in the arg block may skip it or repeat it",
                    );
                }
            }
            Code::InstMem(i)
                if i.base.opcode == Op::ST
                    && i.segment == Seg::ARG
                    && (i.base.type_.is_image() || i.base.type_ == BrigType::SAMP) =>
            {
                let Ok(ops) = m.inst_operands(i.base.operands) else {
                    continue;
                };
                let Some(Operand::Address(a)) = ops.get(1) else {
                    continue;
                };
                let Some(s) = a.symbol.non_null() else {
                    continue;
                };
                let outs = match m
                    .inst_operands(call_inst.base.operands)
                    .ok()
                    .and_then(|o| o.get(0))
                {
                    Some(Operand::CodeList(l)) => m.code_list_ref(l.elements).unwrap_or_default(),
                    _ => &[],
                };
                if outs.contains(&s) {
                    cx.errors.push(ValidationError::operand(
                        "PRM 7.1.9",
                        at,
                        1,
                        "an image or sampler handle can be stored only to an input actual argument or the output formal argument, not to an output actual argument",
                    ));
                }
            }
            _ => {}
        }
    }
}
