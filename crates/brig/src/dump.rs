//! Annotated listing of every entry of every section of a BRIG module, for
//! diffing two BRIG files (`hsakit brig-dump`).
//!
//! Format (one line per entry, stable, our own — like `HSAILasm -decode`
//! but greppable and diffable): offsets are section-relative and decimal,
//! as in `HSAILasm -decode` (`code@80`); enum fields print the spec name;
//! strings are inlined after their offset; lists are expanded; references to
//! code entries show the target's kind and name. A bad reference prints
//! `<error: …>` in place: dumping never fails on a module that parsed.
//!
//! ```text
//! module: byte_count=688 version=1.0 section_count=3 section_index=104
//! section 0 "hsa_data": file_offset=128 byte_count=152 header_byte_count=32
//!   data@32 len=2 "&m"
//! section 1 "hsa_code": file_offset=288 byte_count=216 header_byte_count=32
//!   code@32 DirectiveModule size=20 name=data@32"&m" hsail_major=1 …
//! ```

use core::fmt::{self, Write};

use zerocopy::IntoBytes;

use crate::entries::*;
use crate::read::{BrigModule, Code, Operand};

/// Writes the annotated listing of `module` to `out`.
pub fn dump(module: &BrigModule<'_>, out: &mut impl Write) -> fmt::Result {
    let h = module.header();
    writeln!(
        out,
        "module: byte_count={} version={}.{} section_count={} section_index={} reserved={} hash={}",
        h.byte_count.get(),
        h.brig_major.get(),
        h.brig_minor.get(),
        h.section_count.get(),
        h.section_index.get(),
        h.reserved.get(),
        if h.hash.iter().all(|&b| b == 0) {
            "zero".to_owned()
        } else {
            hex(&h.hash)
        },
    )?;
    for s in module.sections() {
        writeln!(
            out,
            "section {} {:?}: file_offset={} byte_count={} header_byte_count={}",
            s.index.raw(),
            s.name_str(),
            s.file_offset,
            s.header.byte_count.get(),
            s.header.header_byte_count.get()
        )?;
        match s.index.raw() {
            0 => {
                for (off, bytes) in module.data_entries() {
                    write!(out, "  {off:?} len={} ", bytes.len())?;
                    write_blob(out, bytes)?;
                    writeln!(out)?;
                }
            }
            1 => {
                for e in module.code_entries() {
                    match e {
                        Ok((off, c)) => {
                            write!(out, "  {off:?} ")?;
                            dump_code(module, c, out)?;
                            writeln!(out)?;
                        }
                        Err(e) => writeln!(out, "  <error: {e}>")?,
                    }
                }
            }
            2 => {
                for e in module.operand_entries() {
                    match e {
                        Ok((off, o)) => {
                            write!(out, "  {off:?} ")?;
                            dump_operand(module, o, out)?;
                            writeln!(out)?;
                        }
                        Err(e) => writeln!(out, "  <error: {e}>")?,
                    }
                }
            }
            _ => {
                let body = s.body();
                write!(out, "  body len={} ", body.len())?;
                let shown = &body[..body.len().min(64)];
                write!(out, "{}", hex(shown))?;
                if body.len() > shown.len() {
                    write!(out, " …")?;
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

/// The listing of `module` as a `String`.
pub fn dump_to_string(module: &BrigModule<'_>) -> String {
    let mut s = String::new();
    let _ = dump(module, &mut s);
    s
}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 3);
    for (i, x) in b.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// Prints a data blob as a quoted string if it is printable text, else hex.
fn write_blob(out: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    match core::str::from_utf8(bytes) {
        Ok(s) if !s.is_empty() && s.chars().all(|c| !c.is_control() || c == '\n' || c == '\t') => {
            write!(out, "{s:?}")
        }
        _ => write!(out, "[{}]", hex(bytes)),
    }
}

struct Fields<'m, 'a, W: Write> {
    m: &'m BrigModule<'a>,
    out: &'m mut W,
}

impl<W: Write> Fields<'_, '_, W> {
    fn f(&mut self, name: &str, v: impl fmt::Display) -> fmt::Result {
        write!(self.out, " {name}={v}")
    }
    fn dbg(&mut self, name: &str, v: impl fmt::Debug) -> fmt::Result {
        write!(self.out, " {name}={v:?}")
    }
    fn string(&mut self, name: &str, off: DataOffset) -> fmt::Result {
        write!(self.out, " {name}={off:?}")?;
        if off.is_none() {
            return Ok(());
        }
        match self.m.data_bytes(off) {
            Ok(b) => match core::str::from_utf8(b) {
                Ok(s) => write!(self.out, "{s:?}"),
                Err(_) => write!(self.out, "[{}]", hex(b)),
            },
            Err(e) => write!(self.out, "<error: {e}>"),
        }
    }
    fn bytes(&mut self, name: &str, off: DataOffset) -> fmt::Result {
        write!(self.out, " {name}={off:?}")?;
        match self.m.data_bytes(off) {
            Ok(b) => write!(self.out, "[{}]", hex(b)),
            Err(e) => write!(self.out, "<error: {e}>"),
        }
    }
    fn olist(&mut self, name: &str, off: DataOffset) -> fmt::Result {
        write!(self.out, " {name}={off:?}[")?;
        match self.m.operand_list(off) {
            Ok(l) => {
                for (i, o) in l.iter().enumerate() {
                    if i > 0 {
                        write!(self.out, ", ")?;
                    }
                    write!(self.out, "{o:?}")?;
                }
                write!(self.out, "]")
            }
            Err(e) => write!(self.out, "<error: {e}>]"),
        }
    }
    fn clist(&mut self, name: &str, off: DataOffset) -> fmt::Result {
        write!(self.out, " {name}={off:?}[")?;
        match self.m.code_list(off) {
            Ok(l) => {
                for (i, &c) in l.iter().enumerate() {
                    if i > 0 {
                        write!(self.out, ", ")?;
                    }
                    self.code_target(c)?;
                }
                write!(self.out, "]")
            }
            Err(e) => write!(self.out, "<error: {e}>]"),
        }
    }
    fn code_ref(&mut self, name: &str, off: CodeOffset) -> fmt::Result {
        write!(self.out, " {name}=")?;
        self.code_target(off)
    }
    /// `code@80`, plus `(Kind name)` for a named directive; offsets equal to
    /// the section end are printed as `code@N(end)`.
    fn code_target(&mut self, off: CodeOffset) -> fmt::Result {
        write!(self.out, "{off:?}")?;
        if off.is_none() {
            return Ok(());
        }
        if off == self.m.code_end() {
            return write!(self.out, "(end)");
        }
        match self.m.code(off) {
            Ok(c) => {
                let name = match c {
                    Code::DirectiveVariable(v) => Some(v.name),
                    Code::DirectiveLabel(v) => Some(v.name),
                    Code::DirectiveFbarrier(v) => Some(v.name),
                    _ => c.executable().map(|e| e.name),
                };
                match name.and_then(|n| self.m.string(n).ok()) {
                    Some(n) => write!(self.out, "({} {n})", code_kind_name(&c)),
                    None => write!(self.out, "({})", code_kind_name(&c)),
                }
            }
            Err(e) => write!(self.out, "<error: {e}>"),
        }
    }
    fn operand_ref(&mut self, name: &str, off: OperandOffset) -> fmt::Result {
        write!(self.out, " {name}={off:?}")?;
        if off.is_none() {
            return Ok(());
        }
        if let Err(e) = self.m.operand(off) {
            write!(self.out, "<error: {e}>")?;
        }
        Ok(())
    }
    fn reserved(&mut self, bytes: &[u8]) -> fmt::Result {
        if bytes.iter().any(|&b| b != 0) {
            write!(self.out, " reserved=[{}]", hex(bytes))?;
        }
        Ok(())
    }
    fn inst(&mut self, b: &BrigInstBase) -> fmt::Result {
        self.dbg("opcode", b.opcode)?;
        self.dbg("type", b.type_)?;
        self.olist("operands", b.operands)
    }
}

/// The variant name of a code entry (`"InstBasic"`).
pub fn code_kind_name(c: &Code<'_>) -> &'static str {
    match c {
        Code::DirectiveArgBlockEnd(_) => "DirectiveArgBlockEnd",
        Code::DirectiveArgBlockStart(_) => "DirectiveArgBlockStart",
        Code::DirectiveComment(_) => "DirectiveComment",
        Code::DirectiveControl(_) => "DirectiveControl",
        Code::DirectiveExtension(_) => "DirectiveExtension",
        Code::DirectiveFbarrier(_) => "DirectiveFbarrier",
        Code::DirectiveFunction(_) => "DirectiveFunction",
        Code::DirectiveIndirectFunction(_) => "DirectiveIndirectFunction",
        Code::DirectiveKernel(_) => "DirectiveKernel",
        Code::DirectiveLabel(_) => "DirectiveLabel",
        Code::DirectiveLoc(_) => "DirectiveLoc",
        Code::DirectiveModule(_) => "DirectiveModule",
        Code::DirectiveNone(_) => "DirectiveNone",
        Code::DirectivePragma(_) => "DirectivePragma",
        Code::DirectiveSignature(_) => "DirectiveSignature",
        Code::DirectiveVariable(_) => "DirectiveVariable",
        Code::InstAddr(_) => "InstAddr",
        Code::InstAtomic(_) => "InstAtomic",
        Code::InstBasic(_) => "InstBasic",
        Code::InstBr(_) => "InstBr",
        Code::InstCmp(_) => "InstCmp",
        Code::InstCvt(_) => "InstCvt",
        Code::InstImage(_) => "InstImage",
        Code::InstLane(_) => "InstLane",
        Code::InstMem(_) => "InstMem",
        Code::InstMemFence(_) => "InstMemFence",
        Code::InstMod(_) => "InstMod",
        Code::InstQueryImage(_) => "InstQueryImage",
        Code::InstQuerySampler(_) => "InstQuerySampler",
        Code::InstQueue(_) => "InstQueue",
        Code::InstSeg(_) => "InstSeg",
        Code::InstSegCvt(_) => "InstSegCvt",
        Code::InstSignal(_) => "InstSignal",
        Code::InstSourceType(_) => "InstSourceType",
        Code::Unknown(_) => "Unknown",
    }
}

/// The variant name of an operand entry (`"OperandRegister"`).
pub fn operand_kind_name(o: &Operand<'_>) -> &'static str {
    match o {
        Operand::Address(_) => "OperandAddress",
        Operand::Align(_) => "OperandAlign",
        Operand::CodeList(_) => "OperandCodeList",
        Operand::CodeRef(_) => "OperandCodeRef",
        Operand::ConstantBytes(_) => "OperandConstantBytes",
        Operand::ConstantImage(_) => "OperandConstantImage",
        Operand::ConstantOperandList(_) => "OperandConstantOperandList",
        Operand::ConstantSampler(_) => "OperandConstantSampler",
        Operand::OperandList(_) => "OperandOperandList",
        Operand::Register(_) => "OperandRegister",
        Operand::String(_) => "OperandString",
        Operand::Wavesize(_) => "OperandWavesize",
        Operand::Unknown(_) => "Unknown",
    }
}

/// Writes one code entry (no leading offset, no newline).
pub fn dump_code(m: &BrigModule<'_>, c: Code<'_>, out: &mut impl Write) -> fmt::Result {
    let base = c.base();
    write!(out, "{} size={}", code_kind_name(&c), base.byte_count.get())?;
    let mut f = Fields { m, out };
    match c {
        Code::DirectiveArgBlockEnd(_)
        | Code::DirectiveArgBlockStart(_)
        | Code::DirectiveNone(_) => {}
        Code::DirectiveComment(d) => f.string("name", d.name)?,
        Code::DirectiveControl(d) => {
            f.dbg("control", d.control)?;
            f.reserved(d.reserved.as_bytes())?;
            f.olist("operands", d.operands)?;
        }
        Code::DirectiveExtension(d) => f.string("name", d.name)?,
        Code::DirectiveFbarrier(d) => {
            f.string("name", d.name)?;
            f.dbg("modifier", d.modifier)?;
            f.dbg("linkage", d.linkage)?;
            f.reserved(d.reserved.as_bytes())?;
        }
        Code::DirectiveFunction(d)
        | Code::DirectiveIndirectFunction(d)
        | Code::DirectiveKernel(d)
        | Code::DirectiveSignature(d) => {
            f.string("name", d.name)?;
            f.f("out_arg_count", d.out_arg_count.get())?;
            f.f("in_arg_count", d.in_arg_count.get())?;
            f.code_ref("first_in_arg", d.first_in_arg)?;
            f.code_ref("first_code_block_entry", d.first_code_block_entry)?;
            f.code_ref("next_module_entry", d.next_module_entry)?;
            f.dbg("modifier", d.modifier)?;
            f.dbg("linkage", d.linkage)?;
            f.reserved(d.reserved.as_bytes())?;
        }
        Code::DirectiveLabel(d) => f.string("name", d.name)?,
        Code::DirectiveLoc(d) => {
            f.string("filename", d.filename)?;
            f.f("line", d.line.get())?;
            f.f("column", d.column.get())?;
        }
        Code::DirectiveModule(d) => {
            f.string("name", d.name)?;
            f.f("hsail_major", d.hsail_major.raw())?;
            f.f("hsail_minor", d.hsail_minor.raw())?;
            f.dbg("profile", d.profile)?;
            f.dbg("machine_model", d.machine_model)?;
            f.dbg("default_float_round", d.default_float_round)?;
            f.reserved(&[d.reserved])?;
        }
        Code::DirectivePragma(d) => f.olist("operands", d.operands)?,
        Code::DirectiveVariable(d) => {
            f.string("name", d.name)?;
            f.operand_ref("init", d.init)?;
            f.dbg("type", d.type_)?;
            f.dbg("segment", d.segment)?;
            f.dbg("align", d.align)?;
            f.f("dim", d.dim.get())?;
            f.dbg("modifier", d.modifier)?;
            f.dbg("linkage", d.linkage)?;
            f.dbg("allocation", d.allocation)?;
            f.reserved(&[d.reserved])?;
        }
        Code::InstAddr(i) => {
            f.inst(&i.base)?;
            f.dbg("segment", i.segment)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstAtomic(i) => {
            f.inst(&i.base)?;
            f.dbg("segment", i.segment)?;
            f.dbg("memory_order", i.memory_order)?;
            f.dbg("memory_scope", i.memory_scope)?;
            f.dbg("atomic_operation", i.atomic_operation)?;
            f.f("equiv_class", i.equiv_class)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstBasic(i) => f.inst(&i.base)?,
        Code::InstBr(i) => {
            f.inst(&i.base)?;
            f.dbg("width", i.width)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstCmp(i) => {
            f.inst(&i.base)?;
            f.dbg("source_type", i.source_type)?;
            f.dbg("modifier", i.modifier)?;
            f.dbg("compare", i.compare)?;
            f.dbg("pack", i.pack)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstCvt(i) => {
            f.inst(&i.base)?;
            f.dbg("source_type", i.source_type)?;
            f.dbg("modifier", i.modifier)?;
            f.dbg("round", i.round)?;
        }
        Code::InstImage(i) => {
            f.inst(&i.base)?;
            f.dbg("image_type", i.image_type)?;
            f.dbg("coord_type", i.coord_type)?;
            f.dbg("geometry", i.geometry)?;
            f.f("equiv_class", i.equiv_class)?;
            f.reserved(i.reserved.as_bytes())?;
        }
        Code::InstLane(i) => {
            f.inst(&i.base)?;
            f.dbg("source_type", i.source_type)?;
            f.dbg("width", i.width)?;
            f.reserved(&[i.reserved])?;
        }
        Code::InstMem(i) => {
            f.inst(&i.base)?;
            f.dbg("segment", i.segment)?;
            f.dbg("align", i.align)?;
            f.f("equiv_class", i.equiv_class)?;
            f.dbg("width", i.width)?;
            f.dbg("modifier", i.modifier)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstMemFence(i) => {
            f.inst(&i.base)?;
            f.dbg("memory_order", i.memory_order)?;
            f.dbg("global_segment_memory_scope", i.global_segment_memory_scope)?;
            f.dbg("group_segment_memory_scope", i.group_segment_memory_scope)?;
            f.dbg("image_segment_memory_scope", i.image_segment_memory_scope)?;
        }
        Code::InstMod(i) => {
            f.inst(&i.base)?;
            f.dbg("modifier", i.modifier)?;
            f.dbg("round", i.round)?;
            f.dbg("pack", i.pack)?;
            f.reserved(&[i.reserved])?;
        }
        Code::InstQueryImage(i) => {
            f.inst(&i.base)?;
            f.dbg("image_type", i.image_type)?;
            f.dbg("geometry", i.geometry)?;
            f.dbg("query", i.query)?;
        }
        Code::InstQuerySampler(i) => {
            f.inst(&i.base)?;
            f.dbg("query", i.query)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstQueue(i) => {
            f.inst(&i.base)?;
            f.dbg("segment", i.segment)?;
            f.dbg("memory_order", i.memory_order)?;
            f.reserved(i.reserved.as_bytes())?;
        }
        Code::InstSeg(i) => {
            f.inst(&i.base)?;
            f.dbg("segment", i.segment)?;
            f.reserved(&i.reserved)?;
        }
        Code::InstSegCvt(i) => {
            f.inst(&i.base)?;
            f.dbg("source_type", i.source_type)?;
            f.dbg("segment", i.segment)?;
            f.dbg("modifier", i.modifier)?;
        }
        Code::InstSignal(i) => {
            f.inst(&i.base)?;
            f.dbg("signal_type", i.signal_type)?;
            f.dbg("memory_order", i.memory_order)?;
            f.dbg("signal_operation", i.signal_operation)?;
        }
        Code::InstSourceType(i) => {
            f.inst(&i.base)?;
            f.dbg("source_type", i.source_type)?;
            f.reserved(i.reserved.as_bytes())?;
        }
        Code::Unknown(b) => {
            f.dbg("kind", b.kind)?;
        }
    }
    Ok(())
}

/// Writes one operand entry (no leading offset, no newline).
pub fn dump_operand(m: &BrigModule<'_>, o: Operand<'_>, out: &mut impl Write) -> fmt::Result {
    let base = o.base();
    write!(
        out,
        "{} size={}",
        operand_kind_name(&o),
        base.byte_count.get()
    )?;
    let mut f = Fields { m, out };
    match o {
        Operand::Address(a) => {
            f.code_ref("symbol", a.symbol)?;
            f.operand_ref("reg", a.reg)?;
            f.f("offset", a.offset.get())?;
        }
        Operand::Align(a) => {
            f.dbg("align", a.align)?;
            f.reserved(&a.reserved)?;
        }
        Operand::CodeList(a) => f.clist("elements", a.elements)?,
        Operand::CodeRef(a) => f.code_ref("ref", a.ref_)?,
        Operand::ConstantBytes(a) => {
            f.dbg("type", a.type_)?;
            f.reserved(a.reserved.as_bytes())?;
            f.bytes("bytes", a.bytes)?;
        }
        Operand::ConstantImage(a) => {
            f.dbg("type", a.type_)?;
            f.dbg("geometry", a.geometry)?;
            f.dbg("channel_order", a.channel_order)?;
            f.dbg("channel_type", a.channel_type)?;
            f.reserved(&a.reserved)?;
            f.f("width", a.width.get())?;
            f.f("height", a.height.get())?;
            f.f("depth", a.depth.get())?;
            f.f("array", a.array.get())?;
        }
        Operand::ConstantOperandList(a) => {
            f.dbg("type", a.type_)?;
            f.reserved(a.reserved.as_bytes())?;
            f.olist("elements", a.elements)?;
        }
        Operand::ConstantSampler(a) => {
            f.dbg("type", a.type_)?;
            f.dbg("coord", a.coord)?;
            f.dbg("filter", a.filter)?;
            f.dbg("addressing", a.addressing)?;
            f.reserved(&a.reserved)?;
        }
        Operand::OperandList(a) => f.olist("elements", a.elements)?,
        Operand::Register(a) => {
            f.dbg("reg_kind", a.reg_kind)?;
            f.f("reg_num", a.reg_num.get())?;
        }
        Operand::String(a) => f.string("string", a.string)?,
        Operand::Wavesize(_) => {}
        Operand::Unknown(b) => f.dbg("kind", b.kind)?,
    }
    Ok(())
}
