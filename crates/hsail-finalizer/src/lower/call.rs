//! Functions and multiway branches (PRM 8, 10).
//!
//! Calls are inlined at finalize time: every `call` site gets a fresh copy
//! of the callee's lane-level blocks with its own register map (registers
//! are per code block, PRM 4.7), the callee's `ret` (and the end of its
//! code block) branches to a continuation block holding the rest of the
//! caller's block. Divergent returns need nothing special: the CFG is
//! lane-level and the back end's EXEC linearization reconverges the lanes.
//! Functions are never emitted as symbols of their own; recursion is a
//! located error.
//!
//! Arg-segment variables (actual arguments in arg blocks, formal
//! arguments of functions) are per-lane values, so they live in VGPRs:
//! one 1-dword virtual register per dword of the variable. A callee's
//! formal arguments are the caller's actual arguments (pass by value is
//! kept since a callee only loads its input formals and only stores its
//! output formal, PRM 10.2).
//!
//! `sbr` and `scall` select a target per lane through a chain of
//! conditional branches on `index == k` (an index past the end of the
//! list is undefined, PRM 8.2 and 10.7.2: such lanes take the last target).
//!
//! `icall` (PRM 10.8): the indirect function code handle of the `k`th
//! indirect function definition of the module (in module order) is
//! `k + 1`, this finalizer's convention (there is no function address in
//! HSAIL to compare with, and the runtime has no handle query yet). An
//! `icall` is then an `scall` over the module's indirect functions whose
//! formal arguments have the types of its actual arguments, keyed by
//! handle: correct for handles that differ per lane, and each target is
//! inlined or called like any other. A handle of another module's
//! function is not supported (undefined here: such lanes take the last
//! candidate).
//!
//! Recursive functions (on a cycle of the call graph) cannot be inlined:
//! they are compiled as machine functions of the kernel's code and called
//! for real (see [`super::machine`]); calls to the other functions, even
//! from a machine function, are still inlined.

use std::collections::{HashMap, HashSet};

use amdgpu_codegen::{Opnd, Terminator, VReg};
use brig::{BrigModule, BrigOpcode, BrigType, CodeOffset, OperandOffset};
use hsail::validate::CodeBlock;

use super::cfg::map_targets;
use super::{Cx, Src, dw, pair, r, ty};
use crate::{Error, Locator, Result};

/// The block index `ret` branches to inside a function being inlined,
/// until the call's continuation block exists (then it is patched).
pub(super) const PENDING: usize = usize::MAX;

/// Most lane-level blocks one kernel may grow to by inlining.
const MAX_BLOCKS: usize = 1 << 16;

/// Where `ret` (or the end of the code block) goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RetTo {
    /// The kernel's end: the lane finishes.
    Exit,
    /// The continuation of the call being inlined.
    Caller,
}

impl RetTo {
    /// The terminator of a block that returns.
    pub(super) fn terminator(self) -> Terminator {
        match self {
            RetTo::Exit => Terminator::Ret,
            RetTo::Caller => Terminator::Br(PENDING),
        }
    }
}

pub(super) fn brig_err(e: brig::BrigError) -> Error {
    Error::Invalid(e.to_string())
}

/// The code list of operand `o` (arguments of a call, functions of an
/// `scall`, labels of an `sbr`).
fn code_list(m: &BrigModule<'_>, o: Option<&OperandOffset>) -> Vec<CodeOffset> {
    match o.map(|&o| m.operand(o)) {
        Some(Ok(brig::Operand::CodeList(l))) => m.code_list(l.elements).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The functions named by a `call` or `scall` at `ops` (empty for other
/// instructions).
fn call_targets(m: &BrigModule<'_>, op: BrigOpcode, ops: &[OperandOffset]) -> Vec<CodeOffset> {
    match op {
        BrigOpcode::CALL => match ops.get(1).map(|&o| m.operand(o)) {
            Some(Ok(brig::Operand::CodeRef(c))) => vec![c.ref_],
            _ => Vec::new(),
        },
        BrigOpcode::SCALL => code_list(m, ops.get(3)),
        _ => Vec::new(),
    }
}

/// The code block defining the function whose directive (definition or
/// declaration) is `f`.
fn definition<'b>(
    m: &BrigModule<'_>,
    loc: &Locator<'_>,
    blocks: &'b [CodeBlock],
    f: CodeOffset,
    at: u32,
) -> Result<&'b CodeBlock> {
    if let Some(b) = blocks.iter().find(|b| b.directive == f) {
        return Ok(b);
    }
    let name = match m.code(f).map_err(brig_err)?.executable() {
        Some(e) => m.string(e.name).map_err(brig_err)?.to_string(),
        None => format!("{f}"),
    };
    blocks.iter().find(|b| b.name == name).ok_or_else(|| {
        loc.unsupported(
            format!("a call to `{name}`, which this module does not define,"),
            at,
        )
    })
}

/// The functions a `call`, `scall` or `icall` at `at` (operands `ops`)
/// may go to, each with the index or handle value that selects it
/// (`scall`: its position; `icall`: its indirect function code handle,
/// see the module docs).
fn targets_of<'b>(
    m: &BrigModule<'_>,
    loc: &Locator<'_>,
    blocks: &'b [CodeBlock],
    op: BrigOpcode,
    ops: &[OperandOffset],
    at: u32,
) -> Result<Vec<(&'b CodeBlock, u64)>> {
    if op == BrigOpcode::ICALL {
        let outs = code_list(m, ops.first());
        let ins = code_list(m, ops.get(2));
        let mut out = Vec::new();
        for (k, b) in indirect_functions(blocks).enumerate() {
            if same_args(m, &outs, &b.out_args)? && same_args(m, &ins, &b.in_args)? {
                out.push((b, k as u64 + 1));
            }
        }
        return Ok(out);
    }
    call_targets(m, op, ops)
        .into_iter()
        .enumerate()
        .map(|(k, f)| Ok((definition(m, loc, blocks, f, at)?, k as u64)))
        .collect()
}

/// The module's indirect function definitions, in module order: the
/// handle of the `k`th is `k + 1`.
fn indirect_functions(blocks: &[CodeBlock]) -> impl Iterator<Item = &CodeBlock> {
    blocks
        .iter()
        .filter(|b| b.kind == hsail::validate::SymbolKind::IndirectFunction)
}

/// Whether two lists of arg variables have the same types.
fn same_args(m: &BrigModule<'_>, a: &[CodeOffset], b: &[CodeOffset]) -> Result<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (&x, &y) in a.iter().zip(b) {
        let x: &brig::BrigDirectiveVariable = m.code_as(x).map_err(brig_err)?;
        let y: &brig::BrigDirectiveVariable = m.code_as(y).map_err(brig_err)?;
        if x.type_ != y.type_ || (x.type_.is_array() && x.dim.get() != y.dim.get()) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The functions the calls (`call`, `scall`, `icall`) of `b` may go to.
fn callees<'b>(
    m: &BrigModule<'_>,
    loc: &Locator<'_>,
    blocks: &'b [CodeBlock],
    b: &CodeBlock,
) -> Result<Vec<&'b CodeBlock>> {
    let mut out: Vec<&CodeBlock> = Vec::new();
    for &at in &b.instructions {
        let code = m.code(at).map_err(brig_err)?;
        let Some(inst) = code.inst() else { continue };
        if !matches!(
            inst.opcode,
            BrigOpcode::CALL | BrigOpcode::SCALL | BrigOpcode::ICALL
        ) {
            continue;
        }
        let ops = m.operand_list(inst.operands).map_err(brig_err)?;
        for (d, _) in targets_of(m, loc, blocks, inst.opcode, &ops, at.get())? {
            if !out.iter().any(|o| o.directive == d.directive) {
                out.push(d);
            }
        }
    }
    Ok(out)
}

/// The kernel (or function) `cb` and every function its calls reach, `cb`
/// first, not looking into the functions of `stop` (machine functions:
/// they are not inlined).
pub(super) fn reachable<'b>(
    m: &BrigModule<'_>,
    loc: &Locator<'_>,
    blocks: &'b [CodeBlock],
    cb: &'b CodeBlock,
    stop: &[u32],
) -> Result<Vec<&'b CodeBlock>> {
    let mut out = vec![cb];
    let mut seen = HashSet::from([cb.directive]);
    let mut i = 0;
    while let Some(&b) = out.get(i) {
        i += 1;
        for d in callees(m, loc, blocks, b)? {
            if !stop.contains(&d.directive.get()) && seen.insert(d.directive) {
                out.push(d);
            }
        }
    }
    Ok(out)
}

/// The functions kernel `cb` reaches that are on a cycle of the call
/// graph (recursive): they become machine functions of the kernel's code.
pub(super) fn machine_functions<'b>(
    m: &BrigModule<'_>,
    loc: &Locator<'_>,
    blocks: &'b [CodeBlock],
    cb: &'b CodeBlock,
) -> Result<Vec<&'b CodeBlock>> {
    let all = reachable(m, loc, blocks, cb, &[])?;
    let mut out = Vec::new();
    for &f in &all[1..] {
        // Whether `f` reaches itself.
        let mut seen = HashSet::new();
        let mut work = callees(m, loc, blocks, f)?;
        while let Some(g) = work.pop() {
            if g.directive == f.directive {
                out.push(f);
                break;
            }
            if seen.insert(g.directive) {
                work.extend(callees(m, loc, blocks, g)?);
            }
        }
    }
    Ok(out)
}

impl<'a> Cx<'a> {
    /// Operand `i` of an instruction (a located error if it is missing).
    pub(super) fn operand(&self, ops: &[OperandOffset], i: usize) -> Result<OperandOffset> {
        ops.get(i)
            .copied()
            .ok_or_else(|| self.unsupported(format!("an instruction without operand {i}")))
    }

    /// The block a `cbr` at the very end of a code block falls through to.
    pub(super) fn ret_block(&mut self, ret: RetTo) -> usize {
        match ret {
            RetTo::Caller => PENDING,
            RetTo::Exit => self.f.add_block(),
        }
    }

    /// `call`, `scall` or `icall`: inlines the callee(s) and continues the
    /// caller's block in a new block.
    pub(super) fn lower_call(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
    ) -> Result<()> {
        let outs = code_list(self.m, ops.first());
        let ins = code_list(self.m, ops.get(2));
        let targets = targets_of(self.m, self.loc, self.code_blocks, op, ops, self.at)?;
        if targets.is_empty() && op == BrigOpcode::ICALL {
            return Err(self.unsupported(
                "`icall` with no indirect function of its signature in the module".into(),
            ));
        }
        if targets.is_empty() {
            return Err(self.unsupported("a call without a function".into()));
        }
        let (callees, keys): (Vec<&CodeBlock>, Vec<u64>) = targets.into_iter().unzip();
        for c in &callees {
            if self.machine_index(c).is_none() && self.inlining.contains(&c.directive.get()) {
                let caller = self
                    .inlining
                    .last()
                    .and_then(|&d| self.code_blocks.iter().find(|b| b.directive.get() == d));
                let caller = caller.map_or(self.name.as_str(), |b| b.name.as_str());
                return Err(
                    self.unsupported(format!("recursive call to `{}` (in `{caller}`)", c.name))
                );
            }
        }
        // Conditions of an `scall` or `icall`, in the calling block.
        let conds = if op != BrigOpcode::CALL {
            let idx = self.src(self.operand(ops, 1)?)?;
            self.switch_conds(idx, type_, &keys)?
        } else {
            Vec::new()
        };
        // A constant index: only the function it selects.
        let (callees, conds) = match conds.first() {
            Some(Cond::Known(_)) => {
                let k = conds.iter().position(|c| *c == Cond::Known(true));
                let last = callees.len() - 1;
                (vec![callees[k.unwrap_or(last)]], Vec::new())
            }
            _ => (callees, conds),
        };
        let from = self.cur;
        // Inlined functions' allocas are freed when they return.
        let area = match self.alloca_area {
            Some(a) => {
                let saved = self.stemp(1);
                self.emit("s_mov_b32", vec![r(saved), r(a)])?;
                Some((a, saved))
            }
            None => None,
        };
        let first = self.f.blocks.len();
        let mut entries = Vec::new();
        for c in callees {
            let entry = match self.machine_index(c) {
                Some(k) => self.call_machine(k, c, &outs, &ins)?,
                None => self.inline(c, &outs, &ins)?,
            };
            entries.push(entry);
        }
        let chain = self.switch_chain(&conds, &entries);
        self.f.blocks[from].term = chain;
        let cont = self.f.add_block();
        for b in &mut self.f.blocks[first..cont] {
            b.term = map_targets(b.term, |t| if t == PENDING { cont } else { t });
        }
        self.cur = cont;
        if let Some((a, saved)) = area {
            self.emit("s_mov_b32", vec![r(a), r(saved)])?;
        }
        self.restructured = true;
        Ok(())
    }

    /// A copy of `cb`'s blocks whose formal arguments are the actual
    /// arguments `outs` and `ins`; returns its entry block.
    fn inline(
        &mut self,
        cb: &'a CodeBlock,
        outs: &[CodeOffset],
        ins: &[CodeOffset],
    ) -> Result<usize> {
        if self.f.blocks.len() + cb.blocks.len() > MAX_BLOCKS {
            return Err(self.unsupported(format!(
                "inlining `{}` into `{}` (more than {MAX_BLOCKS} blocks)",
                cb.name, self.name
            )));
        }
        let mut args = HashMap::new();
        for (formals, actuals) in [(&cb.out_args, outs), (&cb.in_args, ins)] {
            for (f, a) in formals.iter().zip(actuals) {
                args.insert(f.get(), self.arg_var(a.get())?);
            }
        }
        let regs = std::mem::take(&mut self.regs);
        let args = std::mem::replace(&mut self.args, args);
        let at = self.at;
        self.inlining.push(cb.directive.get());
        let entry = self.lower_body(cb, RetTo::Caller);
        self.inlining.pop();
        self.regs = regs;
        self.args = args;
        self.at = at;
        entry
    }

    /// The registers of arg variable `var` of the code block being lowered
    /// (created at first use).
    pub(super) fn arg_var(&mut self, var: u32) -> Result<Vec<VReg>> {
        if let Some(v) = self.args.get(&var) {
            return Ok(v.clone());
        }
        let size = self.arg_bytes(var)?;
        let regs: Vec<VReg> = (0..size.div_ceil(4)).map(|_| self.vtemp(1)).collect();
        self.args.insert(var, regs.clone());
        Ok(regs)
    }

    /// `ld_arg` / `st_arg`: register moves (sub-dword parts through bit
    /// field extract / insert); an address with a register selects the
    /// variable's dwords per lane.
    pub(super) fn lower_arg_mem(
        &mut self,
        mem: &brig::BrigInstMem,
        ops: &[OperandOffset],
    ) -> Result<()> {
        let t = mem.base.type_;
        let op = mem.base.opcode;
        let what = format!(
            "`{}_arg_{}`",
            op.short_name().unwrap_or("?").to_ascii_lowercase(),
            t.short_name().unwrap_or("?").to_ascii_lowercase()
        );
        // `b128` (a `$q` register) moves four dwords.
        let wide = (t == brig::BrigType::B128).then_some((super::Kind::B, 128));
        let Some((kind, bits)) = ty(t).or(wide) else {
            return Err(self.unsupported(what));
        };
        let Some(Ok(brig::Operand::Address(a))) = ops.get(1).map(|&o| self.m.operand(o)) else {
            return Err(self.unsupported(format!("{what} without a variable address")));
        };
        if a.symbol.get() == 0 {
            return Err(self.unsupported(format!("{what} without a variable")));
        }
        let var = self.arg_var(a.symbol.get())?;
        let pos = self.arg_pos(a, bits, &what)?;
        let dwords = bits.div_ceil(32) as u8;
        if op == BrigOpcode::LD {
            let d = self.dst(self.operand(ops, 0)?)?;
            for i in 0..dwords {
                let v = self.arg_dword(&var, pos, i)?;
                if bits >= 32 {
                    self.emit("v_mov_b32", vec![dw(d, i), v])?;
                } else {
                    let bfe = if kind == super::Kind::S {
                        "v_bfe_i32"
                    } else {
                        "v_bfe_u32"
                    };
                    let sh = pos.shift();
                    self.emit(bfe, vec![r(d), v, sh, Opnd::constant(bits)])?;
                }
            }
            return Ok(());
        }
        let s = self.src(self.operand(ops, 0)?)?;
        if bits >= 32 {
            for i in 0..dwords {
                let v = self.val(s, i)?;
                self.arg_store(&var, pos, i, &|_, _| Ok(v))?;
            }
            return Ok(());
        }
        // dword = (dword & ~mask) | ((s << shift) & mask).
        let mask = self.val(Src::Const((1u64 << bits) - 1), 0)?;
        let v = self.val(s, 0)?;
        let (m, sv) = (self.vtemp(1), self.vtemp(1));
        self.emit("v_lshlrev_b32_e64", vec![r(m), pos.shift(), mask])?;
        self.emit("v_lshlrev_b32_e64", vec![r(sv), pos.shift(), v])?;
        self.arg_store(&var, pos, 0, &|cx, old| {
            let n = cx.vtemp(1);
            cx.emit("v_bfi_b32", vec![r(n), r(m), r(sv), old])?;
            Ok(r(n))
        })
    }

    /// Where an arg access goes in its variable.
    fn arg_pos(&mut self, a: &brig::BrigOperandAddress, bits: u32, what: &str) -> Result<ArgPos> {
        let off = a.offset.get();
        if a.reg.get() == 0 {
            let shift = (off % 4) as u32 * 8;
            if shift + bits.min(32) > 32 || (bits >= 32 && shift != 0) {
                return Err(self.unsupported(format!(
                    "{what} at byte {off} of its variable (not naturally aligned)"
                )));
            }
            return Ok(ArgPos::At {
                k: (off / 4) as usize,
                shift,
            });
        }
        // A byte offset per lane (natural alignment assumed, PRM 6.3).
        let Ok(brig::Operand::Register(reg)) = self.m.operand(a.reg) else {
            return Err(self.unsupported(format!("{what}: this address register")));
        };
        let base = self.reg(reg.reg_kind, reg.reg_num.get())?;
        let c = self.val(Src::Const(off & 0xffff_ffff), 0)?;
        let o = self.vtemp(1);
        self.emit("v_add_u32_e64", vec![r(o), dw(base, 0), c])?;
        let (q, b, sh) = (self.vtemp(1), self.vtemp(1), self.vtemp(1));
        self.emit("v_lshrrev_b32_e64", vec![r(q), Opnd::constant(2), r(o)])?;
        self.emit("v_and_b32_e64", vec![r(b), Opnd::constant(3), r(o)])?;
        self.emit("v_lshlrev_b32_e64", vec![r(sh), Opnd::constant(3), r(b)])?;
        Ok(ArgPos::Lane { q, sh })
    }

    /// The variable's dword index `i` dwords after the access position,
    /// per lane for [`ArgPos::Lane`].
    fn lane_dword_index(&mut self, q: VReg, i: u8) -> Result<VReg> {
        if i == 0 {
            return Ok(q);
        }
        let qi = self.vtemp(1);
        self.emit(
            "v_add_u32_e64",
            vec![r(qi), r(q), Opnd::constant(u32::from(i))],
        )?;
        Ok(qi)
    }

    /// VCC = whether the lane's dword index `q` is `j`.
    fn is_dword(&mut self, q: VReg, j: usize) -> Result<()> {
        let jc = self.val(Src::Const(j as u64), 0)?;
        self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), jc, r(q)])
    }

    /// Dword `i` of an arg access (0 past the end of the variable: a
    /// variadic function reading more than this call passes, on a path
    /// the call does not take; the value is undefined, PRM 10.2).
    fn arg_dword(&mut self, var: &[VReg], pos: ArgPos, i: u8) -> Result<Opnd> {
        let q = match pos {
            ArgPos::At { k, .. } => {
                let v = var.get(k + usize::from(i));
                return Ok(v.map_or(Opnd::constant(0), |&v| r(v)));
            }
            ArgPos::Lane { q, .. } => q,
        };
        let qi = self.lane_dword_index(q, i)?;
        let mut acc = Opnd::constant(0);
        for (j, &v) in var.iter().enumerate() {
            self.is_dword(qi, j)?;
            let t = self.vtemp(1);
            self.emit("v_cndmask_b32_e64", vec![r(t), acc, r(v), Opnd::vcc()])?;
            acc = r(t);
        }
        Ok(acc)
    }

    /// Stores `new(old dword)` into dword `i` of an arg access (nothing
    /// past the end of the variable).
    fn arg_store(
        &mut self,
        var: &[VReg],
        pos: ArgPos,
        i: u8,
        new: &dyn Fn(&mut Self, Opnd) -> Result<Opnd>,
    ) -> Result<()> {
        let q = match pos {
            ArgPos::At { k, .. } => {
                let Some(&v) = var.get(k + usize::from(i)) else {
                    return Ok(());
                };
                let n = new(self, r(v))?;
                return self.emit("v_mov_b32", vec![r(v), n]);
            }
            ArgPos::Lane { q, .. } => q,
        };
        let qi = self.lane_dword_index(q, i)?;
        for (j, &v) in var.iter().enumerate() {
            let n = new(self, r(v))?;
            self.is_dword(qi, j)?;
            self.emit("v_cndmask_b32_e64", vec![r(v), r(v), n, Opnd::vcc()])?;
        }
        Ok(())
    }

    /// `sbr`: the lane goes to the label its index selects.
    pub(super) fn lower_sbr(
        &mut self,
        type_: BrigType,
        ops: &[OperandOffset],
        label_block: &HashMap<u32, usize>,
    ) -> Result<Terminator> {
        let labels = code_list(self.m, ops.get(1));
        let targets = labels
            .iter()
            .map(|l| {
                label_block
                    .get(&l.get())
                    .copied()
                    .ok_or_else(|| self.unsupported("sbr to an unknown label".into()))
            })
            .collect::<Result<Vec<_>>>()?;
        if targets.is_empty() {
            return Err(self.unsupported("sbr without labels".into()));
        }
        let idx = self.src(self.operand(ops, 0)?)?;
        let keys: Vec<u64> = (0..targets.len() as u64).collect();
        let conds = self.switch_conds(idx, type_, &keys)?;
        self.restructured = true;
        Ok(self.switch_chain(&conds, &targets))
    }

    /// Per lane `index == k` (a 0/1 VGPR) for each key but the last, in
    /// the current block; a constant index gives one constant condition per
    /// target instead (folded by [`Self::switch_chain`]).
    fn switch_conds(&mut self, idx: Src, type_: BrigType, keys: &[u64]) -> Result<Vec<Cond>> {
        let wide = match type_ {
            BrigType::U32 => false,
            BrigType::U64 => true,
            _ => return Err(self.unsupported("a switch index that is not u32 or u64".into())),
        };
        if let Src::Const(c) = idx {
            let c = if wide { c } else { c & 0xffff_ffff };
            return Ok(keys.iter().map(|&k| Cond::Known(k == c)).collect());
        }
        let mut conds = Vec::new();
        for &k in &keys[..keys.len().saturating_sub(1)] {
            let (cmp, a, b) = if wide {
                // Inline constants stand for 64-bit values too.
                let kv = match Opnd::constant(k as u32) {
                    c if k <= 64 => c,
                    _ => pair(self.val64(Src::Const(k))?),
                };
                ("v_cmp_eq_u64_e64", kv, self.val64(idx).map(pair)?)
            } else {
                let kv = self.val(Src::Const(k), 0)?;
                ("v_cmp_eq_u32_e64", kv, self.val(idx, 0)?)
            };
            self.emit(cmp, vec![Opnd::vcc(), a, b])?;
            let c = self.vtemp(1);
            self.emit(
                "v_cndmask_b32_e64",
                vec![r(c), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
            )?;
            conds.push(Cond::Lane(c));
        }
        Ok(conds)
    }

    /// The terminator of the block computing `conds`: lanes with
    /// condition `k` go to `targets[k]`, the rest to the last target,
    /// through new blocks holding one conditional branch each.
    fn switch_chain(&mut self, conds: &[Cond], targets: &[usize]) -> Terminator {
        let last = targets.len() - 1;
        if let Some(k) = conds.iter().position(|c| *c == Cond::Known(true)) {
            return Terminator::Br(targets[k]);
        }
        let lane: Vec<(VReg, usize)> = conds
            .iter()
            .zip(targets)
            .filter_map(|(c, &t)| match c {
                Cond::Lane(v) => Some((*v, t)),
                Cond::Known(_) => None,
            })
            .collect();
        let mut otherwise = targets[last];
        // Built back to front: each test falls through to the next one.
        for (i, &(cond, then)) in lane.iter().enumerate().rev() {
            let term = Terminator::CondBr {
                cond,
                then,
                otherwise,
            };
            if i == 0 {
                return term;
            }
            let b = self.f.add_block();
            self.f.blocks[b].term = term;
            otherwise = b;
        }
        Terminator::Br(otherwise)
    }
}

/// Where an arg access starts in its variable.
#[derive(Debug, Clone, Copy)]
enum ArgPos {
    /// Dword `k`, bit `shift` (a constant address).
    At { k: usize, shift: u32 },
    /// Per lane: dword index `q`, bit shift `sh` (an address with a
    /// register).
    Lane { q: VReg, sh: VReg },
}

impl ArgPos {
    /// The bit position of the access in its first dword.
    fn shift(self) -> Opnd {
        match self {
            ArgPos::At { shift, .. } => Opnd::constant(shift),
            ArgPos::Lane { sh, .. } => r(sh),
        }
    }
}

/// A switch condition: per lane, or known at finalize time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cond {
    Lane(VReg),
    Known(bool),
}
