//! One kernel or function code block (PRM 4.3.5, 4.3.6, 4.6.2, 4.9, 8,
//! 10.2, Appendix A): definitions, labels, arg blocks, instructions through
//! the instruction rules, branch targets, register limits and the CFG.

use super::*;
use crate::validate::index::le16;

/// [`analyze_code_block`] for each definition in `defs`, in order.
pub(super) fn analyze_code_blocks(
    cx: &mut Cx<'_, '_>,
    defs: &[(CodeOffset, Code<'_>)],
) -> Vec<CodeBlock> {
    let mut out = Vec::with_capacity(defs.len());
    for &(at, c) in defs {
        if let Some(e) = c.executable() {
            out.push(analyze_code_block(cx, at, c.kind(), e));
        }
    }
    out
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
    // Arguments follow the directive, in increasing order.
    let args_end = args.last().map_or(0, |a| a.get().saturating_add(4));
    let mut visible = OffsetBits::new(at.get(), cb.end.get().max(args_end));
    for a in &args {
        visible.insert(a.get());
    }
    let mut b = Block {
        visible,
        arg_vars: Vec::new(),
        in_arg_block: None,
        calls_in_block: 0,
        seen_statement: false,
        code_stmt: false,
        arg_stmt: false,
        in_formals: if kind == BrigKind::DIRECTIVE_KERNEL {
            Vec::new()
        } else {
            args.iter().skip(n_out).map(|a| a.get()).collect()
        },
        out_formals: args.iter().take(n_out).map(|a| a.get()).collect(),
        label_scope: Vec::new(),
        label_uses: Vec::new(),
        names: Names::default(),
        arg_names: Names::default(),
        arg_entries: Vec::new(),
        indirect: (None, Vec::new()),
    };
    // The arguments' names (repeats are reported with the signature).
    for &a in &args {
        if let Ok(Code::DirectiveVariable(v)) = cx.m.code(a) {
            b.names.insert(cx.name_str(v.name));
        }
    }
    let mut regs = inst::RegisterNotes::new(cx.want_info);
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
    let mut label_names = std::mem::take(&mut cx.label_names);
    label_names.clear();
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
            (Some(memo), Some((_, list))) => inst::memo_hit(memo, cx.m, bytes, list, &mut regs),
            _ => None,
        };
        if let (Some(uses), Some((opcode, _))) = (hit, raw)
            && !uses.lists
            && !is_call(opcode)
        {
            b.seen_statement = true;
            if b.in_arg_block.is_some() {
                note_arg_entry(cx, &mut b, pos, None);
            }
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
        if b.in_arg_block.is_some() {
            note_arg_entry(cx, &mut b, pos, Some(c));
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
                b.label_scope.push((pos.get(), b.in_arg_block));
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
                if !f.modifier.contains(BrigVariableModifierMask::DEFINITION) {
                    cx.err(
                        "PRM 4.3.9",
                        pos,
                        "a code-block fbarrier must be a definition",
                    );
                }
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
                b.arg_entries.clear();
            }
            Code::DirectiveArgBlockEnd(_) => {
                match b.in_arg_block {
                    None => cx.err("PRM 4.3.6", pos, "end of an arg block that was not started"),
                    Some(start) => {
                        calls::check_arg_block(cx, &b.arg_entries);
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
                for v in b.arg_vars.drain(..) {
                    b.visible.remove(v);
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
                        &mut regs,
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
    cx.label_names = label_names;
    check_label_uses(cx, &b);
    if cx.indirect {
        let scan = std::mem::take(&mut b.indirect);
        cx.indirect_scans
            .insert(e.first_code_block_entry.get(), scan);
    }
    check_control_consistency(cx.errors, &controls);
    cb.registers = regs.finish();
    check_register_limits(cx, at, &cb.registers);
    if cx.want_info {
        cb.blocks = build_cfg(cx, &cb, &label_index, &block_ends);
    }
    cb
}

/// Whether `op` is a call (its operands are checked against the callee).
pub(super) fn is_call(op: Op) -> bool {
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

/// Keeps an entry of the open arg block if [`calls::check_arg_block`]
/// looks at it: a branch or call, a label, or (with IMAGE) a store of an
/// image or sampler handle. `c` is the entry at `at` when it is decoded already.
fn note_arg_entry<'a>(cx: &Cx<'_, 'a>, b: &mut Block<'a>, at: CodeOffset, c: Option<Code<'a>>) {
    let Some(kind) = cx.m.code_kind_at_start(at.get()) else {
        return;
    };
    let keep = match kind {
        BrigKind::INST_BR | BrigKind::DIRECTIVE_LABEL => true,
        // Stores of image and sampler handles (`BrigInstBase`: opcode
        // and type at bytes 4 and 6).
        BrigKind::INST_MEM => {
            cx.env.image_ext
                && cx.m.code_bytes_at_start(at.get()).is_some_and(|e| {
                    let ty = BrigType::new(le16(e, 6).unwrap_or(0));
                    le16(e, 4) == Some(Op::ST.raw()) && (ty.is_image() || ty == BrigType::SAMP)
                })
        }
        _ => false,
    };
    if keep && let Some(c) = c.or_else(|| cx.m.code(at).ok()) {
        b.arg_entries.push((at, c));
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
            b.arg_vars.push(at.get());
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
    check_variable(cx, at, v, name, '%');
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
#[inline]
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
#[inline]
fn check_variable_use(
    cx: &mut Cx<'_, '_>,
    b: &Block,
    at: CodeOffset,
    k: usize,
    op: Op,
    var: CodeOffset,
) {
    // Not the block's own variable nor a formal: a module-scope name.
    if !b.visible.contains(var.get()) {
        check_declared_before(cx, at, k, var);
        if !cx.module_vars.contains(&var.get()) {
            cx.errors.push(ValidationError::operand(
                "PRM 4.6.2",
                at,
                k,
                "the variable is not in scope here",
            ));
        }
        return;
    }
    if op != Op::LD && b.in_formals.binary_search(&var.get()).is_ok() {
        cx.errors.push(ValidationError::operand(
            "PRM 10.2",
            at,
            k,
            "input formal arguments can only be read with ld",
        ));
    }
    if op != Op::ST && b.out_formals.binary_search(&var.get()).is_ok() {
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
#[inline]
fn note_label_use(cx: &mut Cx<'_, '_>, b: &mut Block, at: CodeOffset, k: usize, t: CodeOffset) {
    if cx.m.code_kind(t) == Some(BrigKind::DIRECTIVE_LABEL) {
        b.label_uses.push((at, k, t, b.in_arg_block));
    } else {
        check_declared_before(cx, at, k, t);
    }
}

/// PRM 4.6.2: a module-scope name is visible from its first declaration
/// or definition on.
#[inline]
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
        let scope_of = b
            .label_scope
            .binary_search_by_key(&label.get(), |&(l, _)| l);
        match scope_of.ok().map(|i| &b.label_scope[i].1) {
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
