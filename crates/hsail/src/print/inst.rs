//! Instructions and operands: mnemonics with their suffixes in HSAILasm's
//! order (per instruction format), and every operand kind.

use brig::{
    BrigAlignment, BrigAluModifierMask, BrigMemoryModifierMask, BrigOpcode, BrigOperandCodeList,
    BrigOperandConstantImage, BrigRegisterKind, BrigRound, BrigSegCvtModifierMask, BrigSegment,
    BrigType, BrigWidth, Code, CodeOffset, DataOffset, Operand, OperandOffset,
};

use super::{Printer, R, code_error, operand_error, value};
use crate::ops::{self, OpInfo, names};

/// Whether a type is `f16`, `f32` or `f64`.
fn is_scalar_float(t: BrigType) -> bool {
    matches!(t, BrigType::F16 | BrigType::F32 | BrigType::F64)
}

/// Deepest nesting of operands inside operand lists (valid BRIG needs 2).
const MAX_DEPTH: u32 = 8;

impl<'a> Printer<'a> {
    /// `_` + text, unless the text is empty; `None` is the error `what`.
    fn suffix(&mut self, text: Option<&str>, at: CodeOffset, what: &str) -> R<()> {
        match text {
            Some("") => Ok(()),
            Some(t) => {
                self.out.push('_');
                self.out.push_str(t);
                Ok(())
            }
            None => Err(code_error(at, what)),
        }
    }

    fn type_suffix(&mut self, t: BrigType, at: CodeOffset) -> R<()> {
        self.suffix(names::types::text(t), at, "bad type")
    }

    fn seg_suffix(&mut self, s: BrigSegment, at: CodeOffset) -> R<()> {
        self.suffix(super::segment_text(s), at, "bad segment")
    }

    fn order_suffix(&mut self, v: brig::BrigMemoryOrder, at: CodeOffset) -> R<()> {
        self.suffix(names::memory_order::text(v), at, "bad memory order")
    }

    fn scope_suffix(&mut self, v: brig::BrigMemoryScope, at: CodeOffset) -> R<()> {
        self.suffix(names::memory_scope::text(v), at, "bad memory scope")
    }

    fn equiv_suffix(&mut self, class: u8) {
        if class != 0 {
            self.out.push_str("_equiv(");
            value::push_u64(&mut self.out, class.into());
            self.out.push(')');
        }
    }

    fn ftz_suffix(&mut self, modifier: BrigAluModifierMask) {
        if modifier.contains(BrigAluModifierMask::FTZ) {
            self.out.push_str("_ftz");
        }
    }

    /// `_text(spelling)`, unless the spelling is empty.
    fn paren_suffix(&mut self, text: &str, spelling: &str) {
        if !spelling.is_empty() {
            self.out.push('_');
            self.out.push_str(text);
            self.out.push('(');
            self.out.push_str(spelling);
            self.out.push(')');
        }
    }

    /// `_width(n)` unless `w` is the instruction's default width (the
    /// width its text gets when it gives none).
    fn width_suffix(&mut self, w: BrigWidth, info: &OpInfo, at: CodeOffset) -> R<()> {
        if w == info.width.brig() {
            return Ok(());
        }
        let Some(text) = names::width::text(w) else {
            return Err(code_error(at, "bad width"));
        };
        self.paren_suffix("width", text);
        Ok(())
    }

    fn vector_suffix(&mut self, info: &OpInfo, ops: &[OperandOffset], at: CodeOffset) -> R<()> {
        let Some(i) = info.vector_operand else {
            return Ok(());
        };
        let Some(&o) = ops.get(i).filter(|o| !o.is_none()) else {
            return Err(code_error(at, "missing vector operand"));
        };
        match self.m.operand(o)? {
            Operand::OperandList(l) => match self.m.operand_list_ref(l.elements)?.len() {
                n @ 2..=4 => {
                    self.out.push_str("_v");
                    value::push_u64(&mut self.out, n as u64);
                }
                _ => return Err(operand_error(o, "bad vector size")),
            },
            Operand::Register(_) | Operand::ConstantBytes(_) | Operand::Wavesize(_) => {}
            _ => return Err(operand_error(o, "bad vector operand")),
        }
        Ok(())
    }

    fn round_suffix(&mut self, round: BrigRound, default_zero: bool, at: CodeOffset) -> R<()> {
        if default_zero && round == BrigRound::INTEGER_ZERO {
            return Ok(());
        }
        self.suffix(names::round::text(round), at, "bad rounding")
    }

    /// One instruction (without indentation or newline).
    pub(super) fn instruction(&mut self, at: CodeOffset, e: Code<'a>) -> R<()> {
        let Some(inst) = e.inst() else {
            return Err(code_error(at, "unknown instruction format"));
        };
        let opcode = inst.opcode;
        let ty = inst.type_;
        let ops = self.m.operand_list_ref(inst.operands)?;
        let Some(info) = ops::info(opcode.raw()) else {
            return Err(code_error(at, "unknown opcode"));
        };
        self.out.push_str(info.mnemonic);
        match e {
            Code::InstBasic(_) => self.type_suffix(ty, at)?,
            Code::InstMod(i) => {
                self.ftz_suffix(i.modifier);
                self.round_suffix(i.round, false, at)?;
                self.suffix(names::pack::text(i.pack), at, "bad packing")?;
                self.type_suffix(ty, at)?;
            }
            Code::InstAddr(i) => {
                self.seg_suffix(i.segment, at)?;
                self.type_suffix(ty, at)?;
            }
            Code::InstSeg(i) => {
                self.seg_suffix(i.segment, at)?;
                self.type_suffix(ty, at)?;
            }
            Code::InstBr(i) => {
                self.width_suffix(i.width, info, at)?;
                self.type_suffix(ty, at)?;
                match opcode {
                    BrigOpcode::CALL | BrigOpcode::SCALL | BrigOpcode::ICALL => {
                        return self.call_args(at, ops);
                    }
                    BrigOpcode::SBR => return self.sbr_args(at, ops),
                    _ => {}
                }
            }
            Code::InstMem(i) => {
                self.vector_suffix(info, ops, at)?;
                if opcode != BrigOpcode::ALLOCA {
                    self.seg_suffix(i.segment, at)?;
                }
                if i.align != BrigAlignment::_1 {
                    let Some(align) = names::align::text(i.align) else {
                        return Err(code_error(at, "bad alignment"));
                    };
                    self.paren_suffix("align", align);
                }
                if i.modifier.contains(BrigMemoryModifierMask::CONST) {
                    self.out.push_str("_const");
                }
                self.equiv_suffix(i.equiv_class);
                self.width_suffix(i.width, info, at)?;
                self.type_suffix(ty, at)?;
            }
            Code::InstSegCvt(i) => {
                self.seg_suffix(i.segment, at)?;
                if i.modifier.contains(BrigSegCvtModifierMask::NONULL) {
                    self.out.push_str("_nonull");
                }
                self.type_suffix(ty, at)?;
                self.type_suffix(i.source_type, at)?;
            }
            Code::InstQueue(i) => {
                self.seg_suffix(i.segment, at)?;
                self.order_suffix(i.memory_order, at)?;
                self.type_suffix(ty, at)?;
            }
            Code::InstSourceType(i) => {
                self.vector_suffix(info, ops, at)?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.source_type, at)?;
            }
            Code::InstCmp(i) => {
                let compare = names::compare::text(i.compare);
                self.suffix(compare, at, "bad compare operation")?;
                self.ftz_suffix(i.modifier);
                self.suffix(names::pack::text(i.pack), at, "bad packing")?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.source_type, at)?;
            }
            Code::InstCvt(i) => {
                self.ftz_suffix(i.modifier);
                let zero_default = opcode == BrigOpcode::CVT
                    && ops::default_round_cvt(ty.raw(), i.source_type.raw())
                        == BrigRound::INTEGER_ZERO.raw();
                self.round_suffix(i.round, zero_default, at)?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.source_type, at)?;
            }
            Code::InstAtomic(i) => {
                let operation = names::atomic::text(i.atomic_operation);
                self.suffix(operation, at, "bad atomic operation")?;
                self.seg_suffix(i.segment, at)?;
                self.order_suffix(i.memory_order, at)?;
                self.scope_suffix(i.memory_scope, at)?;
                self.equiv_suffix(i.equiv_class);
                self.type_suffix(ty, at)?;
            }
            Code::InstImage(i) => {
                self.vector_suffix(info, ops, at)?;
                let geometry = names::geometry::text(i.geometry);
                self.suffix(geometry, at, "bad geometry")?;
                self.equiv_suffix(i.equiv_class);
                self.type_suffix(ty, at)?;
                self.type_suffix(i.image_type, at)?;
                self.type_suffix(i.coord_type, at)?;
            }
            Code::InstLane(i) => {
                self.vector_suffix(info, ops, at)?;
                self.width_suffix(i.width, info, at)?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.source_type, at)?;
            }
            Code::InstMemFence(i) => {
                self.order_suffix(i.memory_order, at)?;
                self.scope_suffix(i.global_segment_memory_scope, at)?;
                self.type_suffix(ty, at)?;
            }
            Code::InstSignal(i) => {
                let operation = names::atomic::text(i.signal_operation);
                self.suffix(operation, at, "bad signal operation")?;
                self.order_suffix(i.memory_order, at)?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.signal_type, at)?;
            }
            Code::InstQueryImage(i) => {
                self.suffix(names::geometry::text(i.geometry), at, "bad geometry")?;
                let query = names::image_query::text(i.query);
                self.suffix(query, at, "bad image query")?;
                self.type_suffix(ty, at)?;
                self.type_suffix(i.image_type, at)?;
            }
            Code::InstQuerySampler(i) => {
                let query = names::sampler_query::text(i.query);
                self.suffix(query, at, "bad sampler query")?;
                self.type_suffix(ty, at)?;
            }
            _ => return Err(code_error(at, "unknown instruction format")),
        }
        if !ops.is_empty() {
            self.out.push('\t');
            self.comma_separated(ops, |p, o| {
                if o.is_none() {
                    p.out.push_str("NULL");
                    Ok(())
                } else {
                    p.operand_at(o)
                }
            })?;
        }
        self.out.push(';');
        Ok(())
    }

    /// `call`, `scall`, `icall`: target, output and input argument lists,
    /// then the function list or signature.
    fn call_args(&mut self, at: CodeOffset, ops: &[OperandOffset]) -> R<()> {
        let Some(&target) = ops.get(1).filter(|o| !o.is_none()) else {
            return Err(code_error(at, "call without a target"));
        };
        self.out.push('\t');
        self.operand_at(target)?;
        for i in [0, 2] {
            if let Some(&o) = ops.get(i).filter(|o| !o.is_none()) {
                let e = self.m.operand(o)?;
                if matches!(e, Operand::CodeList(_)) {
                    self.out.push(' ');
                    self.operand(o, e)?;
                }
            }
        }
        if let Some(&o) = ops.get(3).filter(|o| !o.is_none()) {
            match self.m.operand(o)? {
                Operand::CodeList(l) => {
                    self.out.push_str(" [");
                    self.code_list_names(o, l)?;
                    self.out.push(']');
                }
                Operand::CodeRef(r) => {
                    self.out.push(' ');
                    self.symbol_name(r.ref_, o)?;
                }
                _ => {}
            }
        }
        self.out.push(';');
        Ok(())
    }

    /// `sbr`: index, then the label list in brackets.
    fn sbr_args(&mut self, at: CodeOffset, ops: &[OperandOffset]) -> R<()> {
        let [index, labels, ..] = ops else {
            return Err(code_error(at, "sbr needs an index and a label list"));
        };
        if index.is_none() || labels.is_none() {
            return Err(code_error(at, "sbr needs an index and a label list"));
        }
        self.out.push('\t');
        self.operand_at(*index)?;
        self.out.push(' ');
        if let Operand::CodeList(l) = self.m.operand(*labels)? {
            self.out.push('[');
            self.code_list_names(*labels, l)?;
            self.out.push(']');
        }
        self.out.push(';');
        Ok(())
    }

    /// Names of a code list, separated by `", "`.
    fn code_list_names(&mut self, at: OperandOffset, l: &BrigOperandCodeList) -> R<()> {
        let list = self.m.code_list_ref(l.elements)?;
        self.comma_separated(list, |p, c| p.symbol_name(c, at))
    }

    /// An operand in a `pragma` or `{…}` list: integer constants other than
    /// those allowed implicitly get an explicit `type(…)` wrapper.
    pub(super) fn typed_operand(&mut self, at: OperandOffset, strict: bool) -> R<()> {
        let o = self.m.operand(at)?;
        if let Operand::ConstantBytes(c) = o {
            let t = c.type_;
            let implicit = ops::types::is_int(t.raw()) || is_scalar_float(t);
            let allowed = !strict && (t == BrigType::U64 || is_scalar_float(t));
            if implicit && !allowed {
                self.out.push_str(names::types::text(t).unwrap_or(""));
                self.out.push('(');
                self.operand(at, o)?;
                self.out.push(')');
                return Ok(());
            }
        }
        self.operand(at, o)
    }

    /// A list of operands; multi-line (each on its own line after a tab)
    /// when it has more than one element.
    fn operand_lines(&mut self, list: DataOffset, typed: bool) -> R<()> {
        let list = self.m.operand_list_ref(list)?;
        let n = list.len();
        self.comma_separated(list, |p, o| {
            if n > 1 {
                p.out.push('\n');
                p.tabs();
                p.out.push('\t');
            }
            if typed {
                p.typed_operand(o, true)
            } else {
                p.operand_at(o)
            }
        })?;
        if n > 1 {
            self.out.push('\n');
        }
        Ok(())
    }

    /// The operand at `at`.
    fn operand_at(&mut self, at: OperandOffset) -> R<()> {
        let o = self.m.operand(at)?;
        self.operand(at, o)
    }

    /// Any operand (`o`, found at `at`).
    pub(super) fn operand(&mut self, at: OperandOffset, o: Operand<'a>) -> R<()> {
        if self.depth >= MAX_DEPTH {
            return Err(operand_error(at, "operand lists nested too deeply"));
        }
        self.depth += 1;
        let r = self.operand_inner(at, o);
        self.depth -= 1;
        r
    }

    fn operand_inner(&mut self, at: OperandOffset, o: Operand<'a>) -> R<()> {
        let bad = |what: &str| operand_error(at, what);
        match o {
            Operand::Register(r) => {
                let Some(prefix) = names::register::text(r.reg_kind) else {
                    return Err(bad("bad register kind"));
                };
                self.out.push_str(prefix);
                value::push_u64(&mut self.out, r.reg_num.get().into());
            }
            Operand::Address(_) => self.address(at, o)?,
            Operand::Wavesize(_) => self.out.push_str("WAVESIZE"),
            Operand::ConstantBytes(c) => {
                let bytes = self.m.data_bytes(c.bytes)?;
                let elem = BrigType::new(c.type_.raw() & !BrigType::ARRAY_MASK);
                let Some(name) = names::types::text(elem) else {
                    return Err(bad("bad constant type"));
                };
                if c.type_.is_array() {
                    self.out.push_str(name);
                    self.out.push_str("[](");
                }
                if !value::push_values(&mut self.out, elem, bytes) {
                    return Err(bad("constant of a type that has no values"));
                }
                if c.type_.is_array() {
                    self.out.push(')');
                }
            }
            Operand::CodeList(l) => {
                self.out.push('(');
                self.code_list_names(at, l)?;
                self.out.push(')');
            }
            Operand::CodeRef(r) => self.symbol_name(r.ref_, at)?,
            Operand::ConstantImage(i) => self.image_constant(at, i)?,
            Operand::OperandList(l) => {
                self.out.push('(');
                let list = self.m.operand_list_ref(l.elements)?;
                self.comma_separated(list, Self::operand_at)?;
                self.out.push(')');
            }
            Operand::ConstantOperandList(l) if l.type_ == BrigType::NONE => {
                self.out.push('{');
                self.operand_lines(l.elements, true)?;
                self.out.push('}');
            }
            Operand::ConstantOperandList(l) => {
                let elem = BrigType::new(l.type_.raw() & !BrigType::ARRAY_MASK);
                let Some(name) = names::types::text(elem) else {
                    return Err(bad("bad constant list type"));
                };
                self.out.push_str(name);
                self.out.push_str("[](");
                self.operand_lines(l.elements, false)?;
                self.tabs();
                self.out.push(')');
            }
            Operand::ConstantSampler(s) => {
                let (Some(t), Some(c), Some(f), Some(a)) = (
                    names::types::text(s.type_),
                    names::sampler_coord::text(s.coord),
                    names::sampler_filter::text(s.filter),
                    names::sampler_addressing::text(s.addressing),
                ) else {
                    return Err(bad("bad sampler constant"));
                };
                for text in [
                    t,
                    "(coord = ",
                    c,
                    ", filter = ",
                    f,
                    ", addressing = ",
                    a,
                    ")",
                ] {
                    self.out.push_str(text);
                }
            }
            Operand::String(s) => self.string_literal(s.string)?,
            Operand::Align(a) => {
                if a.align != BrigAlignment::NONE && a.align != BrigAlignment::_1 {
                    let Some(align) = names::align::text(a.align) else {
                        return Err(bad("bad alignment"));
                    };
                    for text in ["align(", align, ")"] {
                        self.out.push_str(text);
                    }
                }
            }
            _ => return Err(bad("unexpected operand kind")),
        }
        Ok(())
    }

    fn image_constant(&mut self, at: OperandOffset, i: &BrigOperandConstantImage) -> R<()> {
        let (Some(t), Some(g), Some(order), Some(ct)) = (
            names::types::text(i.type_),
            names::geometry::text(i.geometry),
            names::channel_order::text(i.channel_order),
            names::channel_type::text(i.channel_type),
        ) else {
            return Err(operand_error(at, "bad image constant"));
        };
        for text in [t, "(geometry = ", g] {
            self.out.push_str(text);
        }
        let sizes = [
            ("width", i.width.get()),
            ("height", i.height.get()),
            ("depth", i.depth.get()),
            ("array", i.array.get()),
        ];
        for (name, v) in sizes {
            if v != 0 {
                for text in [", ", name, " = "] {
                    self.out.push_str(text);
                }
                value::push_u64(&mut self.out, v);
            }
        }
        for text in [", channel_type = ", ct, ", channel_order = ", order, ")"] {
            self.out.push_str(text);
        }
        Ok(())
    }

    /// An address `[&sym][$reg+off]`.
    fn address(&mut self, at: OperandOffset, o: Operand<'a>) -> R<()> {
        let Operand::Address(a) = o else {
            return Err(operand_error(at, "not an address"));
        };
        let raw = a.offset.get();
        let mut reg = None;
        // The offset's size, which decides whether it is read as signed.
        let size = if let Some(r) = a.reg.non_null() {
            let Operand::Register(e) = self.m.operand(r)? else {
                return Err(operand_error(r, "address register is not a register"));
            };
            reg = Some((r, e));
            match e.reg_kind {
                BrigRegisterKind::CONTROL => 1,
                BrigRegisterKind::SINGLE => 32,
                BrigRegisterKind::DOUBLE => 64,
                _ => 128,
            }
        } else if let Some(s) = a.symbol.non_null() {
            let Code::DirectiveVariable(v) = self.m.code(s)? else {
                return Err(operand_error(at, "address symbol is not a variable"));
            };
            match v.segment.raw() {
                1..=4 if self.large => 64,
                _ => 32,
            }
        } else if raw >> 32 != 0 {
            64
        } else {
            0
        };
        let offset = if size == 32 {
            i64::from(raw as u32 as i32)
        } else {
            raw as i64
        };
        if let Some(s) = a.symbol.non_null() {
            self.out.push('[');
            self.symbol_name(s, at)?;
            self.out.push(']');
        }
        if let Some((r, e)) = reg {
            self.out.push('[');
            self.operand(r, Operand::Register(e))?;
            if offset > 0 {
                self.out.push('+');
                value::push_i64(&mut self.out, offset);
            } else if offset < 0 {
                // HSAILasm negates in 64 bits: the most negative offset
                // keeps its sign.
                self.out.push('-');
                value::push_i64(&mut self.out, offset.wrapping_neg());
            }
            self.out.push(']');
        } else if offset != 0 || a.symbol.is_none() {
            self.out.push('[');
            if !a.symbol.is_none() && offset < 0 {
                self.out.push('-');
                value::push_i64(&mut self.out, offset.wrapping_neg());
            } else {
                value::push_u64(&mut self.out, raw);
            }
            self.out.push(']');
        }
        Ok(())
    }
}
