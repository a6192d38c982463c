//! Instructions and operands: mnemonics with their suffixes in HSAILasm's
//! order (per instruction format), and every operand kind.

use core::fmt::Write as _;

use super::names::{self, WidthText, op, width};
use super::reader::{Entry, R, Section, fault};
use super::{Printer, value};
use crate::ops::DefWidth;

/// Operand kinds.
pub(super) mod okind {
    use brig::BrigKind;

    pub const ADDRESS: u16 = BrigKind::OPERAND_ADDRESS.raw();
    pub const ALIGN: u16 = BrigKind::OPERAND_ALIGN.raw();
    pub const CODE_LIST: u16 = BrigKind::OPERAND_CODE_LIST.raw();
    pub const CODE_REF: u16 = BrigKind::OPERAND_CODE_REF.raw();
    pub const CONSTANT_BYTES: u16 = BrigKind::OPERAND_CONSTANT_BYTES.raw();
    pub const CONSTANT_IMAGE: u16 = BrigKind::OPERAND_CONSTANT_IMAGE.raw();
    pub const CONSTANT_OPERAND_LIST: u16 = BrigKind::OPERAND_CONSTANT_OPERAND_LIST.raw();
    pub const CONSTANT_SAMPLER: u16 = BrigKind::OPERAND_CONSTANT_SAMPLER.raw();
    pub const OPERAND_LIST: u16 = BrigKind::OPERAND_OPERAND_LIST.raw();
    pub const REGISTER: u16 = BrigKind::OPERAND_REGISTER.raw();
    pub const STRING: u16 = BrigKind::OPERAND_STRING.raw();
    pub const WAVESIZE: u16 = BrigKind::OPERAND_WAVESIZE.raw();
}

/// Instruction formats (`BrigKind`).
mod ikind {
    use brig::BrigKind;

    pub const ADDR: u16 = BrigKind::INST_ADDR.raw();
    pub const ATOMIC: u16 = BrigKind::INST_ATOMIC.raw();
    pub const BASIC: u16 = BrigKind::INST_BASIC.raw();
    pub const BR: u16 = BrigKind::INST_BR.raw();
    pub const CMP: u16 = BrigKind::INST_CMP.raw();
    pub const CVT: u16 = BrigKind::INST_CVT.raw();
    pub const IMAGE: u16 = BrigKind::INST_IMAGE.raw();
    pub const LANE: u16 = BrigKind::INST_LANE.raw();
    pub const MEM: u16 = BrigKind::INST_MEM.raw();
    pub const MEM_FENCE: u16 = BrigKind::INST_MEM_FENCE.raw();
    pub const MOD: u16 = BrigKind::INST_MOD.raw();
    pub const QUERY_IMAGE: u16 = BrigKind::INST_QUERY_IMAGE.raw();
    pub const QUERY_SAMPLER: u16 = BrigKind::INST_QUERY_SAMPLER.raw();
    pub const QUEUE: u16 = BrigKind::INST_QUEUE.raw();
    pub const SEG: u16 = BrigKind::INST_SEG.raw();
    pub const SEG_CVT: u16 = BrigKind::INST_SEG_CVT.raw();
    pub const SIGNAL: u16 = BrigKind::INST_SIGNAL.raw();
    pub const SOURCE_TYPE: u16 = BrigKind::INST_SOURCE_TYPE.raw();
}

/// The width an instruction has when its text gives none (HSAILasm prints
/// the width only when it differs from this), from the opcode table.
fn default_width(opcode: u16) -> u8 {
    match crate::ops::info(opcode).map(|i| i.width) {
        Some(DefWidth::One) => width::W1,
        Some(DefWidth::All) => width::ALL,
        Some(DefWidth::WaveSize) => width::WAVESIZE,
        Some(DefWidth::None) | None => width::NONE,
    }
}

/// Index of the operand whose vector size shows in the mnemonic (`_v4`).
fn vector_index(opcode: u16) -> Option<usize> {
    match opcode {
        op::LD
        | op::ST
        | op::EXPAND
        | op::ACTIVELANEMASK
        | op::RDIMAGE
        | op::LDIMAGE
        | op::STIMAGE => Some(0),
        op::COMBINE => Some(1),
        _ => None,
    }
}

/// Deepest nesting of operands inside operand lists (valid BRIG needs 2).
const MAX_DEPTH: u32 = 8;

impl<'a> Printer<'a> {
    fn bad(&self, e: &Entry<'_>, what: &str) -> super::reader::Fault {
        fault(Section::Code, e.off, what)
    }

    /// `_` + text, unless the text is empty.
    fn suffix(&mut self, text: Option<&str>, e: &Entry<'_>, what: &str) -> R<()> {
        match text {
            Some("") => Ok(()),
            Some(t) => {
                self.out.push('_');
                self.out.push_str(t);
                Ok(())
            }
            None => Err(self.bad(e, what)),
        }
    }

    fn type_suffix(&mut self, t: u16, e: &Entry<'_>) -> R<()> {
        self.suffix(names::type_name(t), e, "bad type")
    }

    fn seg_suffix(&mut self, s: u8, e: &Entry<'_>) -> R<()> {
        self.suffix(names::segment(s), e, "bad segment")
    }

    fn order_suffix(&mut self, v: u8, e: &Entry<'_>) -> R<()> {
        self.suffix(names::memory_order(v), e, "bad memory order")
    }

    fn scope_suffix(&mut self, v: u8, e: &Entry<'_>) -> R<()> {
        self.suffix(names::memory_scope(v), e, "bad memory scope")
    }

    fn equiv_suffix(&mut self, v: u8) {
        if v != 0 {
            let _ = write!(self.out, "_equiv({v})");
        }
    }

    fn ftz_suffix(&mut self, modifier: u8) {
        if modifier & 1 != 0 {
            self.out.push_str("_ftz");
        }
    }

    fn width_suffix(&mut self, w: u8, opcode: u16, e: &Entry<'_>) -> R<()> {
        if w == default_width(opcode) {
            return Ok(());
        }
        match names::width(w) {
            Some(WidthText::None) => {}
            Some(WidthText::Count(n)) => {
                let _ = write!(self.out, "_width({n})");
            }
            Some(WidthText::Text(t)) => {
                let _ = write!(self.out, "_width({t})");
            }
            None => return Err(self.bad(e, "bad width")),
        }
        Ok(())
    }

    fn vector_suffix(
        &mut self,
        opcode: u16,
        ops: &super::reader::Offsets<'a>,
        e: &Entry<'_>,
    ) -> R<()> {
        let Some(i) = vector_index(opcode) else {
            return Ok(());
        };
        let off = ops.get(i);
        if off == 0 || i >= ops.len() {
            return Err(self.bad(e, "missing vector operand"));
        }
        let o = self.s.operand(off)?;
        match o.kind {
            okind::OPERAND_LIST => {
                let n = self.s.offsets(o.u32(4))?.len();
                match n {
                    2..=4 => {
                        let _ = write!(self.out, "_v{n}");
                    }
                    _ => return Err(fault(Section::Operand, off, "bad vector size")),
                }
            }
            okind::REGISTER | okind::CONSTANT_BYTES | okind::WAVESIZE => {}
            _ => return Err(fault(Section::Operand, off, "bad vector operand")),
        }
        Ok(())
    }

    fn round_suffix(&mut self, round: u8, default_zero: bool, e: &Entry<'_>) -> R<()> {
        if default_zero && round == names::ROUND_INTEGER_ZERO {
            return Ok(());
        }
        self.suffix(names::round(round), e, "bad rounding")
    }

    /// One instruction (without indentation or newline).
    pub(super) fn instruction(&mut self, e: Entry<'a>) -> R<()> {
        let opcode = e.u16(4);
        let ty = e.u16(6);
        let ops = self.s.offsets(e.u32(8))?;
        let Some(info) = crate::ops::info(opcode) else {
            return Err(self.bad(&e, "unknown opcode"));
        };
        self.out.push_str(info.mnemonic);
        match e.kind {
            ikind::BASIC => self.type_suffix(ty, &e)?,
            ikind::MOD => {
                self.ftz_suffix(e.u8(12));
                self.round_suffix(e.u8(13), false, &e)?;
                self.suffix(names::pack(e.u8(14)), &e, "bad packing")?;
                self.type_suffix(ty, &e)?;
            }
            ikind::ADDR | ikind::SEG => {
                self.seg_suffix(e.u8(12), &e)?;
                self.type_suffix(ty, &e)?;
            }
            ikind::BR => {
                self.width_suffix(e.u8(12), opcode, &e)?;
                self.type_suffix(ty, &e)?;
                match opcode {
                    op::CALL | op::SCALL | op::ICALL => return self.call_args(&e, &ops),
                    op::SBR => return self.sbr_args(&e, &ops),
                    _ => {}
                }
            }
            ikind::MEM => {
                self.vector_suffix(opcode, &ops, &e)?;
                if opcode != op::ALLOCA {
                    self.seg_suffix(e.u8(12), &e)?;
                }
                let align = e.u8(13);
                match align {
                    0 | 1 => {}
                    _ => match names::align_bytes(align) {
                        Some(n) => {
                            let _ = write!(self.out, "_align({n})");
                        }
                        None => return Err(self.bad(&e, "bad alignment")),
                    },
                }
                if e.u8(16) & 1 != 0 {
                    self.out.push_str("_const");
                }
                self.equiv_suffix(e.u8(14));
                self.width_suffix(e.u8(15), opcode, &e)?;
                self.type_suffix(ty, &e)?;
            }
            ikind::SEG_CVT => {
                self.seg_suffix(e.u8(14), &e)?;
                if e.u8(15) & 1 != 0 {
                    self.out.push_str("_nonull");
                }
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::QUEUE => {
                self.seg_suffix(e.u8(12), &e)?;
                self.order_suffix(e.u8(13), &e)?;
                self.type_suffix(ty, &e)?;
            }
            ikind::SOURCE_TYPE => {
                self.vector_suffix(opcode, &ops, &e)?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::CMP => {
                self.suffix(names::compare(e.u8(15)), &e, "bad compare operation")?;
                self.ftz_suffix(e.u8(14));
                self.suffix(names::pack(e.u8(16)), &e, "bad packing")?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::CVT => {
                let stype = e.u16(12);
                self.ftz_suffix(e.u8(14));
                let zero_default = opcode == op::CVT
                    && crate::ops::default_round_cvt(ty, stype) == names::ROUND_INTEGER_ZERO;
                self.round_suffix(e.u8(15), zero_default, &e)?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(stype, &e)?;
            }
            ikind::ATOMIC => {
                self.suffix(names::atomic_op(e.u8(15)), &e, "bad atomic operation")?;
                self.seg_suffix(e.u8(12), &e)?;
                self.order_suffix(e.u8(13), &e)?;
                self.scope_suffix(e.u8(14), &e)?;
                self.equiv_suffix(e.u8(16));
                self.type_suffix(ty, &e)?;
            }
            ikind::IMAGE => {
                self.vector_suffix(opcode, &ops, &e)?;
                self.suffix(names::geometry(e.u8(16)), &e, "bad geometry")?;
                self.equiv_suffix(e.u8(17));
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
                self.type_suffix(e.u16(14), &e)?;
            }
            ikind::LANE => {
                self.vector_suffix(opcode, &ops, &e)?;
                self.width_suffix(e.u8(14), opcode, &e)?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::MEM_FENCE => {
                self.order_suffix(e.u8(12), &e)?;
                self.scope_suffix(e.u8(13), &e)?;
                self.type_suffix(ty, &e)?;
            }
            ikind::SIGNAL => {
                self.suffix(names::atomic_op(e.u8(15)), &e, "bad signal operation")?;
                self.order_suffix(e.u8(14), &e)?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::QUERY_IMAGE => {
                self.suffix(names::geometry(e.u8(14)), &e, "bad geometry")?;
                self.suffix(names::image_query(e.u8(15)), &e, "bad image query")?;
                self.type_suffix(ty, &e)?;
                self.type_suffix(e.u16(12), &e)?;
            }
            ikind::QUERY_SAMPLER => {
                self.suffix(names::sampler_query(e.u8(12)), &e, "bad sampler query")?;
                self.type_suffix(ty, &e)?;
            }
            _ => return Err(self.bad(&e, "unknown instruction format")),
        }
        if ops.len() > 0 {
            self.out.push('\t');
            for (i, off) in ops.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                if off == 0 {
                    self.out.push_str("NULL");
                } else {
                    let o = self.s.operand(off)?;
                    self.operand(o)?;
                }
            }
        }
        self.out.push(';');
        Ok(())
    }

    /// `call`, `scall`, `icall`: target, output and input argument lists,
    /// then the function list or signature.
    fn call_args(&mut self, e: &Entry<'_>, ops: &super::reader::Offsets<'a>) -> R<()> {
        let target = ops.get(1);
        if ops.len() < 2 || target == 0 {
            return Err(self.bad(e, "call without a target"));
        }
        self.out.push('\t');
        let t = self.s.operand(target)?;
        self.operand(t)?;
        for i in [0, 2] {
            let off = ops.get(i);
            if i < ops.len() && off != 0 {
                let o = self.s.operand(off)?;
                if o.kind == okind::CODE_LIST {
                    self.out.push(' ');
                    self.operand(o)?;
                }
            }
        }
        let off = ops.get(3);
        if ops.len() > 3 && off != 0 {
            let o = self.s.operand(off)?;
            match o.kind {
                okind::CODE_LIST => {
                    self.out.push_str(" [");
                    self.code_list_names(o)?;
                    self.out.push(']');
                }
                okind::CODE_REF => {
                    self.out.push(' ');
                    self.symbol_name(o.u32(4), Section::Operand, o.off)?;
                }
                _ => {}
            }
        }
        self.out.push(';');
        Ok(())
    }

    /// `sbr`: index, then the label list in brackets.
    fn sbr_args(&mut self, e: &Entry<'_>, ops: &super::reader::Offsets<'a>) -> R<()> {
        let first = ops.get(0);
        if ops.len() < 2 || first == 0 || ops.get(1) == 0 {
            return Err(self.bad(e, "sbr needs an index and a label list"));
        }
        self.out.push('\t');
        let o = self.s.operand(first)?;
        self.operand(o)?;
        self.out.push(' ');
        let l = self.s.operand(ops.get(1))?;
        if l.kind == okind::CODE_LIST {
            self.out.push('[');
            self.code_list_names(l)?;
            self.out.push(']');
        }
        self.out.push(';');
        Ok(())
    }

    /// Names of a code list, separated by `", "`.
    fn code_list_names(&mut self, o: Entry<'_>) -> R<()> {
        let list = self.s.offsets(o.u32(4))?;
        for (i, c) in list.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.symbol_name(c, Section::Operand, o.off)?;
        }
        Ok(())
    }

    /// An operand in a `pragma` or `{…}` list: integer constants other than
    /// those allowed implicitly get an explicit `type(…)` wrapper.
    pub(super) fn typed_operand(&mut self, off: u32, strict: bool) -> R<()> {
        let o = self.s.operand(off)?;
        if o.kind == okind::CONSTANT_BYTES {
            let t = o.u16(4);
            let implicit = names::is_int(t) || names::is_float(t);
            let allowed = !strict && (t == brig::BrigType::U64.raw() || names::is_float(t));
            if implicit && !allowed {
                self.out.push_str(names::type_name(t).unwrap_or(""));
                self.out.push('(');
                self.operand(o)?;
                self.out.push(')');
                return Ok(());
            }
        }
        self.operand(o)
    }

    /// A list of operands; multi-line (each on its own line after a tab)
    /// when it has more than one element.
    fn operand_lines(&mut self, list_off: u32, typed: bool) -> R<()> {
        let list = self.s.offsets(list_off)?;
        let n = list.len();
        for (i, off) in list.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if n > 1 {
                self.out.push('\n');
                self.tabs();
                self.out.push('\t');
            }
            if typed {
                self.typed_operand(off, true)?;
            } else {
                let o = self.s.operand(off)?;
                self.operand(o)?;
            }
        }
        if n > 1 {
            self.out.push('\n');
        }
        Ok(())
    }

    /// Any operand.
    pub(super) fn operand(&mut self, o: Entry<'a>) -> R<()> {
        if self.depth >= MAX_DEPTH {
            return Err(fault(
                Section::Operand,
                o.off,
                "operand lists nested too deeply",
            ));
        }
        self.depth += 1;
        let r = self.operand_inner(o);
        self.depth -= 1;
        r
    }

    fn operand_inner(&mut self, o: Entry<'a>) -> R<()> {
        let bad = |what: &str| fault(Section::Operand, o.off, what);
        match o.kind {
            okind::REGISTER => {
                let Some(prefix) = names::register(o.u16(4)) else {
                    return Err(bad("bad register kind"));
                };
                self.out.push_str(prefix);
                value::push_u64(&mut self.out, u64::from(o.u16(6)));
            }
            okind::ADDRESS => self.address(o)?,
            okind::WAVESIZE => self.out.push_str("WAVESIZE"),
            okind::CONSTANT_BYTES => {
                let t = o.u16(4);
                let bytes = self.s.data(o.u32(8))?;
                let elem = t & !names::TYPE_ARRAY;
                let array = t & names::TYPE_ARRAY != 0;
                if array {
                    let Some(n) = names::type_name(elem) else {
                        return Err(bad("bad constant type"));
                    };
                    self.out.push_str(n);
                    self.out.push_str("[](");
                }
                if names::type_name(elem).is_none()
                    || !value::push_values(&mut self.out, elem, bytes)
                {
                    return Err(bad("constant of a type that has no values"));
                }
                if array {
                    self.out.push(')');
                }
            }
            okind::CODE_LIST => {
                self.out.push('(');
                self.code_list_names(o)?;
                self.out.push(')');
            }
            okind::CODE_REF => self.symbol_name(o.u32(4), Section::Operand, o.off)?,
            okind::CONSTANT_IMAGE => self.image_constant(o)?,
            okind::OPERAND_LIST => {
                self.out.push('(');
                let list = self.s.offsets(o.u32(4))?;
                for (i, off) in list.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    let e = self.s.operand(off)?;
                    self.operand(e)?;
                }
                self.out.push(')');
            }
            okind::CONSTANT_OPERAND_LIST => {
                let t = o.u16(4);
                if t == 0 {
                    self.out.push('{');
                    self.operand_lines(o.u32(8), true)?;
                    self.out.push('}');
                } else {
                    let Some(n) = names::type_name(t & !names::TYPE_ARRAY) else {
                        return Err(bad("bad constant list type"));
                    };
                    self.out.push_str(n);
                    self.out.push_str("[](");
                    self.operand_lines(o.u32(8), false)?;
                    self.tabs();
                    self.out.push(')');
                }
            }
            okind::CONSTANT_SAMPLER => {
                let coord = names::sampler_coord(o.u8(6));
                let filter = names::sampler_filter(o.u8(7));
                let addressing = names::sampler_addressing(o.u8(8));
                let (Some(t), Some(c), Some(f), Some(a)) =
                    (names::type_name(o.u16(4)), coord, filter, addressing)
                else {
                    return Err(bad("bad sampler constant"));
                };
                let _ = write!(self.out, "{t}(coord = {c}, filter = {f}, addressing = {a})");
            }
            okind::STRING => {
                let s = self.s.data(o.u32(4))?;
                value::push_string_literal(&mut self.out, s);
            }
            okind::ALIGN => match o.u8(4) {
                0 | 1 => {}
                a => match names::align_bytes(a) {
                    Some(n) => {
                        let _ = write!(self.out, "align({n})");
                    }
                    None => return Err(bad("bad alignment")),
                },
            },
            _ => return Err(bad("unexpected operand kind")),
        }
        Ok(())
    }

    fn image_constant(&mut self, o: Entry<'a>) -> R<()> {
        let bad = |what: &str| fault(Section::Operand, o.off, what);
        let (Some(t), Some(g), Some(order), Some(ct)) = (
            names::type_name(o.u16(4)),
            names::geometry(o.u8(6)),
            names::channel_order(o.u8(7)),
            names::channel_type(o.u8(8)),
        ) else {
            return Err(bad("bad image constant"));
        };
        let _ = write!(self.out, "{t}(geometry = {g}");
        for (name, at) in [("width", 12), ("height", 20), ("depth", 28), ("array", 36)] {
            let v = o.u64(at);
            if v != 0 {
                let _ = write!(self.out, ", {name} = {v}");
            }
        }
        let _ = write!(self.out, ", channel_type = {ct}, channel_order = {order})");
        Ok(())
    }

    /// An address `[&sym][$reg+off]`.
    fn address(&mut self, o: Entry<'a>) -> R<()> {
        let symbol = o.u32(4);
        let reg = o.u32(8);
        let raw = o.u64(12);
        let mut reg_entry = None;
        let size = if reg != 0 {
            let r = self.s.operand(reg)?;
            if r.kind != okind::REGISTER {
                return Err(fault(
                    Section::Operand,
                    reg,
                    "address register is not a register",
                ));
            }
            reg_entry = Some(r);
            match r.u16(4) {
                0 => 1,
                1 => 32,
                2 => 64,
                _ => 128,
            }
        } else if symbol != 0 {
            let d = self.s.code(symbol)?;
            if d.kind != super::kind::VARIABLE {
                return Err(fault(
                    Section::Operand,
                    o.off,
                    "address symbol is not a variable",
                ));
            }
            match d.u8(14) {
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
        if symbol != 0 {
            self.out.push('[');
            self.symbol_name(symbol, Section::Operand, o.off)?;
            self.out.push(']');
        }
        if let Some(r) = reg_entry {
            self.out.push('[');
            self.operand(r)?;
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
        } else if offset != 0 || symbol == 0 {
            if symbol != 0 && offset < 0 {
                let _ = write!(self.out, "[-{}]", offset.wrapping_neg());
            } else {
                let _ = write!(self.out, "[{raw}]");
            }
        }
        Ok(())
    }
}
