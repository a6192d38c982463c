//! The disassembler: BRIG → canonical HSAIL text, byte-identical to
//! `HSAILasm -disassemble`.
//!
//! The printer reads BRIG through the `brig` crate's zero-copy reader:
//! [`BrigModule::parse`] checks the container and every entry boundary,
//! then each reference is followed with [`BrigModule::code`],
//! [`BrigModule::operand`] or [`BrigModule::data_bytes`] (which check that
//! it names an entry start) and the entry's fields are read by their spec
//! names (`inst.operands`, `var.segment`). Enumeration values are spelled
//! with the tables of [`crate::ops::names`], mnemonics come from
//! [`crate::ops`]. A bad reference or value is a [`BrigError`] naming the
//! section and offset, never a panic.
//!
//! The printer walks `hsa_code` from its first entry: module-level
//! directives one after another, skipping from each kernel or function to
//! its `next_module_entry` after printing its arguments and body.
//! Everything else (operands, strings, referenced symbols) is reached
//! through offsets, so any valid BRIG prints the same text whatever its
//! layout, including BRIG whose instructions share operand entries.
//!
//! Layout rules (all observed from HSAILasm): a blank line before every
//! kernel, function and label; one tab per nesting level (kernel body, arg
//! block) except for labels; a tab between mnemonic and operands; argument
//! lists with more than one argument put each on its own line.
//!
//! Output goes into one `String`; nothing is allocated per entry.

mod inst;
mod value;

use brig::{
    BrigDirectiveExecutable, BrigDirectiveVariable, BrigError, BrigExecutableModifierMask,
    BrigLinkage, BrigMachineModel, BrigModule, BrigSectionIndex, BrigSegment, BrigType,
    BrigVariableModifierMask, Code, CodeOffset, DataOffset, Operand, OperandOffset,
};

use crate::ops::names;

/// Result of printing: text in [`Printer::out`] or what is wrong where.
type R<T> = Result<T, BrigError>;

/// Disassembles a BRIG module into HSAILasm's canonical text.
///
/// # Errors
/// Returns an error naming the section and byte offset when the BRIG is
/// malformed (bad header, references that are not entry starts, unknown
/// entry kinds or enumeration values).
pub fn disassemble(brig: &[u8]) -> Result<String, BrigError> {
    let mut p = Printer {
        m: BrigModule::parse(brig)?,
        // Canonical text is typically half to two thirds the size of its
        // BRIG; reserving the BRIG's size avoids copying on growth (pages
        // never written are never touched).
        out: String::with_capacity(brig.len() + 64),
        indent: 0,
        large: true,
        in_body: false,
        depth: 0,
    };
    p.module()?;
    Ok(p.out)
}

/// An error at an `hsa_code` offset.
fn code_error(at: CodeOffset, what: impl Into<String>) -> BrigError {
    BrigError::in_section(BrigSectionIndex::CODE, at.get().into(), what)
}

/// An error at an `hsa_operand` offset.
fn operand_error(at: OperandOffset, what: impl Into<String>) -> BrigError {
    BrigError::in_section(BrigSectionIndex::OPERAND, at.get().into(), what)
}

/// The offset just past the code entry `e` at `at`.
fn next_code(at: CodeOffset, e: Code<'_>) -> CodeOffset {
    CodeOffset::new(at.get().saturating_add(e.base().byte_count.get().into()))
}

/// A kernel, function, indirect function or signature.
fn executable(e: Code<'_>) -> Option<&BrigDirectiveExecutable> {
    match e {
        Code::DirectiveKernel(x)
        | Code::DirectiveFunction(x)
        | Code::DirectiveIndirectFunction(x)
        | Code::DirectiveSignature(x) => Some(x),
        _ => None,
    }
}

/// The spelling of a segment where HSAILasm leaves the flat segment out.
fn segment_text(s: BrigSegment) -> Option<&'static str> {
    if s == BrigSegment::FLAT {
        Some("")
    } else {
        names::segment::text(s)
    }
}

/// Printing state.
struct Printer<'a> {
    m: BrigModule<'a>,
    out: String,
    /// Tabs before a line; arg block ends inside a body can take it below
    /// the body's level, as in HSAILasm (a negative level prints no tabs).
    indent: i32,
    /// Machine model (large until a `module` directive says otherwise).
    large: bool,
    /// Inside a kernel or function body (nested executables are malformed).
    in_body: bool,
    /// Nesting of operand lists (bounded, so a list that contains itself is
    /// an error instead of endless recursion).
    depth: u32,
}

impl<'a> Printer<'a> {
    fn module(&mut self) -> R<()> {
        let end = self.m.code_end();
        let mut at = self.m.code_begin();
        while at < end {
            let e = self.m.code(at)?;
            if e.kind().is_inst() {
                return Err(code_error(at, "instruction outside a kernel or function"));
            }
            self.directive_line(at, e)?;
            let next = match executable(e) {
                Some(x) => x.next_module_entry,
                None => next_code(at, e),
            };
            if next <= at {
                return Err(code_error(at, "nextModuleEntry does not advance"));
            }
            at = next;
        }
        Ok(())
    }

    /// `item` for each element of `list`, separated by `", "`.
    fn comma_separated<T: Copy>(
        &mut self,
        list: &[T],
        mut item: impl FnMut(&mut Self, T) -> R<()>,
    ) -> R<()> {
        for (i, &x) in list.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            item(self, x)?;
        }
        Ok(())
    }

    fn tabs(&mut self) {
        for _ in 0..self.indent.max(0) {
            self.out.push('\t');
        }
    }

    /// A name from `hsa_data`.
    fn name(&mut self, at: DataOffset) -> R<()> {
        let s = self.m.data_bytes(at)?;
        value::push_name(&mut self.out, s);
        Ok(())
    }

    /// A string from `hsa_data` as a quoted literal.
    fn string_literal(&mut self, at: DataOffset) -> R<()> {
        let s = self.m.data_bytes(at)?;
        value::push_string_literal(&mut self.out, s);
        Ok(())
    }

    /// A directive on its own line(s), with its blank line and indentation.
    fn directive_line(&mut self, at: CodeOffset, e: Code<'a>) -> R<()> {
        match e {
            Code::DirectiveModule(d) => self.large = d.machine_model == BrigMachineModel::LARGE,
            Code::DirectiveLabel(_) | Code::DirectiveKernel(_) | Code::DirectiveFunction(_) => {
                self.out.push('\n');
            }
            Code::DirectiveArgBlockEnd(_) if self.indent > 0 => self.indent -= 1,
            _ => {}
        }
        if !matches!(e, Code::DirectiveLabel(_)) {
            self.tabs();
        }
        if matches!(e, Code::DirectiveArgBlockStart(_)) {
            self.indent += 1;
        }
        self.directive(at, e)?;
        self.out.push('\n');
        Ok(())
    }

    fn directive(&mut self, at: CodeOffset, e: Code<'a>) -> R<()> {
        match e {
            Code::DirectiveModule(d) => {
                self.out.push_str("module ");
                self.name(d.name)?;
                let (Some(profile), Some(model), Some(round)) = (
                    names::profile::text(d.profile),
                    names::machine_model::text(d.machine_model),
                    names::default_round::text(d.default_float_round),
                ) else {
                    return Err(code_error(at, "bad module directive field"));
                };
                self.out.push(':');
                value::push_u64(&mut self.out, d.hsail_major.raw().into());
                self.out.push(':');
                value::push_u64(&mut self.out, d.hsail_minor.raw().into());
                for text in [profile, model, round] {
                    self.out.push(':');
                    self.out.push_str(text);
                }
                self.out.push(';');
            }
            Code::DirectiveKernel(x)
            | Code::DirectiveFunction(x)
            | Code::DirectiveIndirectFunction(x)
            | Code::DirectiveSignature(x) => self.executable(at, e, x)?,
            Code::DirectiveVariable(v) => {
                self.sym_decl(at, v)?;
                if let Some(init) = v.init.non_null() {
                    self.out.push_str(" = ");
                    let o = self.m.operand(init)?;
                    match o {
                        Operand::ConstantBytes(_)
                        | Operand::ConstantOperandList(_)
                        | Operand::ConstantImage(_)
                        | Operand::ConstantSampler(_) => self.operand(init, o)?,
                        _ => {
                            return Err(operand_error(
                                init,
                                "variable initializer is not a constant",
                            ));
                        }
                    }
                }
                self.out.push(';');
            }
            Code::DirectiveLabel(l) => {
                self.name(l.name)?;
                self.out.push(':');
            }
            Code::DirectiveComment(c) => {
                let s = self.m.data_bytes(c.name)?;
                value::push_comment(&mut self.out, s);
            }
            Code::DirectiveControl(c) => {
                let Some(name) = names::control::text(c.control) else {
                    return Err(code_error(at, "bad control directive"));
                };
                self.out.push_str(name);
                let list = self.m.operand_list_ref(c.operands)?;
                if !list.is_empty() {
                    self.out.push(' ');
                }
                self.comma_separated(list, Self::control_operand)?;
                self.out.push(';');
            }
            Code::DirectiveExtension(x) => {
                self.out.push_str("extension ");
                self.string_literal(x.name)?;
                self.out.push(';');
            }
            Code::DirectiveLoc(l) => {
                self.out.push_str("loc ");
                value::push_u64(&mut self.out, l.line.get().into());
                let column = l.column.get();
                if column != 1 {
                    self.out.push(' ');
                    value::push_u64(&mut self.out, column.into());
                }
                self.out.push(' ');
                self.string_literal(l.filename)?;
                self.out.push(';');
            }
            Code::DirectivePragma(p) => {
                self.out.push_str("pragma ");
                let list = self.m.operand_list_ref(p.operands)?;
                self.comma_separated(list, |p, o| p.typed_operand(o, false))?;
                self.out.push(';');
            }
            Code::DirectiveFbarrier(f) => {
                if !f.modifier.contains(BrigVariableModifierMask::DEFINITION) {
                    self.out.push_str("decl ");
                }
                self.linkage(f.linkage, at)?;
                self.out.push_str("fbarrier ");
                self.name(f.name)?;
                self.out.push(';');
            }
            Code::DirectiveArgBlockStart(_) => self.out.push('{'),
            Code::DirectiveArgBlockEnd(_) => self.out.push('}'),
            _ => {
                return Err(code_error(
                    at,
                    format!("unexpected directive kind {:#x}", e.kind().raw()),
                ));
            }
        }
        Ok(())
    }

    /// `prog ` for program linkage; nothing for the others.
    fn linkage(&mut self, linkage: BrigLinkage, at: CodeOffset) -> R<()> {
        match names::linkage::text(linkage) {
            Some("") => {}
            Some(t) => {
                self.out.push_str(t);
                self.out.push(' ');
            }
            None => return Err(code_error(at, "bad linkage")),
        }
        Ok(())
    }

    /// An operand of a control directive: 32- and 64-bit integer constants
    /// print as unsigned hex where HSAILasm's rule would give a `-`.
    fn control_operand(&mut self, at: OperandOffset) -> R<()> {
        let o = self.m.operand(at)?;
        if let Operand::ConstantBytes(c) = o {
            let bits = match c.type_ {
                BrigType::U32 => 32,
                BrigType::U64 => 64,
                _ => return self.operand(at, o),
            };
            let bytes = self.m.data_bytes(c.bytes)?;
            let Some(v) = bytes.get(..bits / 8) else {
                return Err(operand_error(at, "constant too short"));
            };
            let raw = v.iter().rev().fold(0u64, |a, &b| (a << 8) | u64::from(b));
            value::push_ctl_int(&mut self.out, raw, bits as u32);
            return Ok(());
        }
        self.operand(at, o)
    }

    /// A kernel, function, indirect function or signature with its
    /// arguments and body.
    fn executable(&mut self, at: CodeOffset, e: Code<'a>, x: &BrigDirectiveExecutable) -> R<()> {
        let definition = x.modifier.contains(BrigExecutableModifierMask::DEFINITION);
        if !definition {
            self.out.push_str("decl ");
        }
        self.linkage(x.linkage, at)?;
        let kernel = matches!(e, Code::DirectiveKernel(_));
        self.out.push_str(match e {
            Code::DirectiveKernel(_) => "kernel ",
            Code::DirectiveFunction(_) => "function ",
            Code::DirectiveIndirectFunction(_) => "indirect function ",
            _ => "signature ",
        });
        self.name(x.name)?;
        if !kernel {
            self.args(next_code(at, e), x.out_arg_count.get())?;
        }
        self.args(x.first_in_arg, x.in_arg_count.get())?;
        let first = x.first_code_block_entry;
        let end = x.next_module_entry;
        if !first.is_none() && definition && !matches!(e, Code::DirectiveSignature(_)) {
            if self.in_body {
                return Err(code_error(at, "kernel or function inside a body"));
            }
            if end > self.m.code_end() {
                return Err(code_error(at, "nextModuleEntry outside hsa_code"));
            }
            self.indent += 1;
            self.in_body = true;
            self.out.push_str("\n{\n");
            let mut c = first;
            while c < end {
                let e = self.m.code(c)?;
                if e.kind().is_inst() {
                    self.tabs();
                    self.instruction(c, e)?;
                    self.out.push('\n');
                } else {
                    self.directive_line(c, e)?;
                }
                c = next_code(c, e);
            }
            self.in_body = false;
            self.out.push('}');
            self.indent -= 1;
        }
        self.out.push(';');
        Ok(())
    }

    /// An argument list `(…)` of `count` variables from `at` on: one
    /// argument inline, several one per line.
    fn args(&mut self, mut at: CodeOffset, count: u16) -> R<()> {
        self.out.push('(');
        if count == 1 {
            let a = self.arg(at)?;
            self.sym_decl(at, a)?;
        } else if count > 1 {
            self.indent += 1;
            for i in (1..=count).rev() {
                let a = self.arg(at)?;
                self.out.push('\n');
                self.tabs();
                self.sym_decl(at, a)?;
                if i > 1 {
                    self.out.push(',');
                }
                at = next_code(at, Code::DirectiveVariable(a));
            }
            self.indent -= 1;
        }
        self.out.push(')');
        Ok(())
    }

    fn arg(&self, at: CodeOffset) -> R<&'a BrigDirectiveVariable> {
        match self.m.code(at)? {
            Code::DirectiveVariable(v) => Ok(v),
            _ => Err(code_error(at, "argument is not a variable")),
        }
    }

    /// A variable declaration without initializer or `;`.
    fn sym_decl(&mut self, at: CodeOffset, v: &BrigDirectiveVariable) -> R<()> {
        let elem = BrigType::new(v.type_.raw() & !BrigType::ARRAY_MASK);
        if !v.modifier.contains(BrigVariableModifierMask::DEFINITION) {
            self.out.push_str("decl ");
        }
        self.linkage(v.linkage, at)?;
        match names::allocation::text(v.allocation) {
            None => return Err(code_error(at, "bad allocation")),
            Some(a) if !a.is_empty() && v.segment != BrigSegment::READONLY => {
                self.out.push_str("alloc(");
                self.out.push_str(a);
                self.out.push_str(") ");
            }
            Some(_) => {}
        }
        // Natural alignment is left out.
        let Some(align) = names::align::text(v.align) else {
            return Err(code_error(at, "bad alignment"));
        };
        let bytes = v.align.bytes().unwrap_or(0);
        if bytes > 1 && bytes != crate::ops::types::size_bytes(elem.raw()) {
            self.out.push_str("align(");
            self.out.push_str(align);
            self.out.push_str(") ");
        }
        if v.modifier.contains(BrigVariableModifierMask::CONST) {
            self.out.push_str("const ");
        }
        let Some(seg) = segment_text(v.segment) else {
            return Err(code_error(at, "bad segment"));
        };
        self.out.push_str(seg);
        let Some(tname) = names::types::text(elem) else {
            return Err(code_error(at, "bad type"));
        };
        if !tname.is_empty() {
            self.out.push('_');
            self.out.push_str(tname);
        }
        let name = self.m.data_bytes(v.name)?;
        if !name.is_empty() {
            self.out.push(' ');
            value::push_name(&mut self.out, name);
        }
        if v.type_.is_array() {
            match v.dim.get() {
                0 => self.out.push_str("[]"),
                dim => {
                    self.out.push('[');
                    value::push_u64(&mut self.out, dim);
                    self.out.push(']');
                }
            }
        }
        Ok(())
    }

    /// The name of a symbol referenced from the operand at `from`.
    fn symbol_name(&mut self, symbol: CodeOffset, from: OperandOffset) -> R<()> {
        let name = match self.m.code(symbol)? {
            Code::DirectiveKernel(x)
            | Code::DirectiveFunction(x)
            | Code::DirectiveIndirectFunction(x)
            | Code::DirectiveSignature(x) => x.name,
            Code::DirectiveVariable(v) => v.name,
            Code::DirectiveLabel(l) => l.name,
            Code::DirectiveFbarrier(f) => f.name,
            Code::DirectiveModule(d) => d.name,
            _ => return Err(operand_error(from, "reference to an entry without a name")),
        };
        self.name(name)
    }
}
