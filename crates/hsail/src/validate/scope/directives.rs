//! Directives (PRM 13): `loc`, `pragma` operands, control directives and
//! their consistency across a kernel.

use super::*;

/// PRM 13.2: a loc line and column are at least 1.
pub(super) fn check_loc(cx: &mut Cx<'_, '_>, at: CodeOffset, l: &brig::BrigDirectiveLoc) {
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
pub(super) fn check_module_pragma(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    p: &brig::BrigDirectivePragma,
) {
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
pub(super) fn check_pragma_constants(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    p: &brig::BrigDirectivePragma,
) {
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

/// Control directives (PRM 13.4): values in range.
pub(super) fn check_control(
    cx: &mut Cx<'_, '_>,
    b: &Block,
    at: CodeOffset,
    d: &brig::BrigDirectiveControl,
) {
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

pub(super) fn control_values(m: &Index<'_>, d: &brig::BrigDirectiveControl) -> ControlValues {
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
/// the required sizes. Errors go to `errors`.
pub(super) fn check_control_consistency(
    errors: &mut Vec<ValidationError>,
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
            errors.push(ValidationError::code(
                "PRM 13.4",
                at,
                "a repeated control directive must have the same values",
            ));
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
            errors.push(ValidationError::code(
                "PRM 13.4",
                at,
                format!("with requireddim {d}, the sizes of the unused dimensions must be 1"),
            ));
        }
        let product = v
            .iter()
            .try_fold(1u128, |p, x| x.map(|x| p * u128::from(x)));
        if let (Some(p), Some((mat, mv))) = (product, first(max))
            && let Some(m) = mv[0]
            && u128::from(m) < p
        {
            errors.push(ValidationError::code(
                "PRM 13.4",
                mat,
                format!(
                    "the maximum flat size {m} is less than the product {p} of the required sizes"
                ),
            ));
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

/// The control directives of a code block and the names of the functions
/// it calls by `call` or `scall` (see [`check_callee_controls`]).
type BlockControls<'a> = (
    Vec<(CodeOffset, brig::BrigControlDirective, ControlValues)>,
    Vec<&'a str>,
);

/// Whether the code block of `e` starts with a control directive that
/// must agree across the kernel's call tree (not the exception sets or
/// requirenopartialworkgroups, which are unioned). Control directives come
/// before any other statement (PRM 13.4), so only the first entries are
/// looked at.
fn leads_with_control(m: &Index<'_>, e: &BrigDirectiveExecutable) -> bool {
    let Some(first) = m.code_ordinal(e.first_code_block_entry) else {
        return false;
    };
    for (at, c) in m.code_entries_from(first) {
        if at >= e.next_module_entry {
            break;
        }
        match c {
            Code::DirectiveControl(d) if !unioned(d.control) => return true,
            Code::DirectiveControl(_)
            | Code::DirectiveComment(_)
            | Code::DirectiveLoc(_)
            | Code::DirectivePragma(_) => {}
            _ => break,
        }
    }
    false
}

/// Control directives whose repeats are unioned, not compared (PRM 13.4).
fn unioned(c: brig::BrigControlDirective) -> bool {
    use brig::BrigControlDirective as C;
    matches!(
        c,
        C::ENABLEBREAKEXCEPTIONS | C::ENABLEDETECTEXCEPTIONS | C::REQUIRENOPARTIALWORKGROUPS
    )
}

/// The compared control directives of the code block of `e` and the
/// functions it calls (decodes only control directives and branches).
fn block_controls<'a>(m: &Index<'a>, e: &BrigDirectiveExecutable) -> BlockControls<'a> {
    let (mut controls, mut callees) = (Vec::new(), Vec::new());
    let Some(first) = m.code_ordinal(e.first_code_block_entry) else {
        return (controls, callees);
    };
    let mut name_of = |r: CodeOffset| {
        if let Ok(c) = m.code(r)
            && let Some(f) = c.executable()
            && let Ok(n) = m.string(f.name)
        {
            callees.push(n);
        }
    };
    for &o in m.code_starts_from(first) {
        let at = CodeOffset::new(o);
        if at >= e.next_module_entry {
            break;
        }
        if !matches!(
            m.code_kind_at_start(o),
            Some(BrigKind::DIRECTIVE_CONTROL | BrigKind::INST_BR)
        ) {
            continue;
        }
        match m.code(at) {
            Ok(Code::DirectiveControl(d)) if !unioned(d.control) => {
                controls.push((at, d.control, control_values(m, d)));
            }
            Ok(Code::InstBr(i)) if matches!(i.base.opcode, Op::CALL | Op::SCALL) => {
                let Ok(ops) = m.inst_operands(i.base.operands) else {
                    continue;
                };
                match (ops.get(1), ops.get(3)) {
                    (Some(Operand::CodeRef(r)), _) if i.base.opcode == Op::CALL => name_of(r.ref_),
                    (_, Some(Operand::CodeList(l))) if i.base.opcode == Op::SCALL => {
                        for &r in m.code_list_ref(l.elements).unwrap_or_default() {
                            name_of(r);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    (controls, callees)
}

/// PRM 13.4: "If multiple control directives are present in the kernel or
/// the functions it calls, they must all have the same value(s)", and
/// requireddim and the maximum flat sizes must agree with the required
/// sizes, whichever of them gives each. Checked for each kernel over the
/// functions it reaches by `call`/`scall` among this module's definitions
/// (the directives of one code block are checked by
/// [`check_control_consistency`]). Runs only when a function has control
/// directives.
pub(super) fn check_callee_controls(cx: &mut Cx<'_, '_>, defs: &[(CodeOffset, Code<'_>)]) {
    let m = cx.m;
    if !defs.iter().any(|(_, c)| {
        c.kind() != BrigKind::DIRECTIVE_KERNEL
            && c.executable().is_some_and(|e| leads_with_control(m, e))
    }) {
        return;
    }
    let blocks: FastMap<&str, (BrigKind, BlockControls<'_>)> = defs
        .iter()
        .filter_map(|(_, c)| {
            let e = c.executable()?;
            Some((m.string(e.name).ok()?, (c.kind(), block_controls(m, e))))
        })
        .collect();
    let mut reported: FastSet<(u32, String)> = cx
        .errors
        .iter()
        .filter(|e| e.rule == "PRM 13.4")
        .map(|e| (e.offset, e.message.clone()))
        .collect();
    for &(_, c) in defs {
        if c.kind() != BrigKind::DIRECTIVE_KERNEL {
            continue;
        }
        let Some(kname) = c.executable().and_then(|e| m.string(e.name).ok()) else {
            continue;
        };
        // The kernel's directives, then those of each function it reaches.
        let mut union = Vec::new();
        let mut seen: FastSet<&str> = FastSet::default();
        let mut stack = vec![kname];
        let mut from_callees = false;
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let Some((kind, (controls, callees))) = blocks.get(n) else {
                continue;
            };
            if *kind == BrigKind::DIRECTIVE_KERNEL && n != kname {
                continue;
            }
            from_callees |= n != kname && !controls.is_empty();
            union.extend_from_slice(controls);
            stack.extend(callees.iter().rev());
        }
        if !from_callees {
            continue;
        }
        let mut errors = Vec::new();
        check_control_consistency(&mut errors, &union);
        for e in errors {
            if reported.insert((e.offset, e.message.clone())) {
                let msg = format!(
                    "{} (kernel {kname} and the functions it calls must agree)",
                    e.message
                );
                cx.errors.push(ValidationError::code(
                    e.rule,
                    CodeOffset::new(e.offset),
                    msg,
                ));
            }
        }
    }
}
