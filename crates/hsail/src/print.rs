//! The disassembler: BRIG → canonical HSAIL text, byte-identical to
//! `HSAILasm -disassemble`.
//!
//! The printer walks `hsa_code` from its first entry: module-level
//! directives one after another, skipping from each kernel or function to
//! its `nextModuleEntry` after printing its arguments and body. Everything
//! else (operands, strings, referenced symbols) is reached through offsets,
//! so any valid BRIG prints the same text whatever its layout, including
//! BRIG whose instructions share operand entries.
//!
//! Layout rules (all observed from HSAILasm): a blank line before every
//! kernel, function and label; one tab per nesting level (kernel body, arg
//! block) except for labels; a tab between mnemonic and operands; argument
//! lists with more than one argument put each on its own line.
//!
//! Output goes into one `String`; nothing is allocated per entry.

mod inst;
mod names;
mod reader;
mod value;

use core::fmt::Write as _;

use brig::BrigError;
use reader::{Entry, R, Section, Sections, fault};

/// Disassembles a BRIG module into HSAILasm's canonical text.
///
/// # Errors
/// Returns an error naming the section and byte offset when the BRIG is
/// malformed (bad header, offsets outside their section, unknown entry
/// kinds or enumeration values).
pub fn disassemble(brig: &[u8]) -> Result<String, BrigError> {
    let module = brig::BrigModule::parse(brig)?;
    let secs = Sections::new(&module)?;
    let mut p = Printer {
        // Canonical text is typically about half the size of its BRIG.
        out: String::with_capacity(brig.len() / 2 + 64),
        s: secs,
        indent: 0,
        large: true,
        in_body: false,
        depth: 0,
    };
    p.module()?;
    Ok(p.out)
}

/// Directive kinds.
mod kind {
    use brig::BrigKind;

    pub const ARG_BLOCK_END: u16 = BrigKind::DIRECTIVE_ARG_BLOCK_END.raw();
    pub const ARG_BLOCK_START: u16 = BrigKind::DIRECTIVE_ARG_BLOCK_START.raw();
    pub const COMMENT: u16 = BrigKind::DIRECTIVE_COMMENT.raw();
    pub const CONTROL: u16 = BrigKind::DIRECTIVE_CONTROL.raw();
    pub const EXTENSION: u16 = BrigKind::DIRECTIVE_EXTENSION.raw();
    pub const FBARRIER: u16 = BrigKind::DIRECTIVE_FBARRIER.raw();
    pub const FUNCTION: u16 = BrigKind::DIRECTIVE_FUNCTION.raw();
    pub const INDIRECT_FUNCTION: u16 = BrigKind::DIRECTIVE_INDIRECT_FUNCTION.raw();
    pub const KERNEL: u16 = BrigKind::DIRECTIVE_KERNEL.raw();
    pub const LABEL: u16 = BrigKind::DIRECTIVE_LABEL.raw();
    pub const LOC: u16 = BrigKind::DIRECTIVE_LOC.raw();
    pub const MODULE: u16 = BrigKind::DIRECTIVE_MODULE.raw();
    pub const PRAGMA: u16 = BrigKind::DIRECTIVE_PRAGMA.raw();
    pub const SIGNATURE: u16 = BrigKind::DIRECTIVE_SIGNATURE.raw();
    pub const VARIABLE: u16 = BrigKind::DIRECTIVE_VARIABLE.raw();
}

/// Printing state.
struct Printer<'a> {
    out: String,
    s: Sections<'a>,
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

/// Whether a code entry kind is a kernel, function, indirect function or
/// signature.
fn is_executable(kind: u16) -> bool {
    matches!(
        kind,
        kind::FUNCTION | kind::INDIRECT_FUNCTION | kind::KERNEL | kind::SIGNATURE
    )
}

impl<'a> Printer<'a> {
    fn module(&mut self) -> R<()> {
        let end = self.s.code_len();
        let mut off = self.s.code_first();
        while off < end {
            let e = self.s.code(off)?;
            if e.kind >= 0x2000 {
                return Err(fault(
                    Section::Code,
                    off,
                    "instruction outside a kernel or function",
                ));
            }
            self.directive_line(e)?;
            let next = if is_executable(e.kind) {
                e.u32(20)
            } else {
                e.end()
            };
            if next <= off {
                return Err(fault(
                    Section::Code,
                    off,
                    "nextModuleEntry does not advance",
                ));
            }
            off = next;
        }
        Ok(())
    }

    fn tabs(&mut self) {
        for _ in 0..self.indent.max(0) {
            self.out.push('\t');
        }
    }

    fn name(&mut self, off: u32) -> R<()> {
        let s = self.s.data(off)?;
        value::push_name(&mut self.out, s);
        Ok(())
    }

    /// A directive on its own line(s), with its blank line and indentation.
    fn directive_line(&mut self, e: Entry<'a>) -> R<()> {
        if e.kind == kind::MODULE {
            self.large = e.u8(17) == 1;
        }
        if matches!(e.kind, kind::LABEL | kind::KERNEL | kind::FUNCTION) {
            self.out.push('\n');
        }
        if e.kind == kind::ARG_BLOCK_END && self.indent > 0 {
            self.indent -= 1;
        }
        if e.kind != kind::LABEL {
            self.tabs();
        }
        if e.kind == kind::ARG_BLOCK_START {
            self.indent += 1;
        }
        self.directive(e)?;
        self.out.push('\n');
        Ok(())
    }

    fn directive(&mut self, e: Entry<'a>) -> R<()> {
        match e.kind {
            kind::MODULE => {
                self.out.push_str("module ");
                self.name(e.u32(4))?;
                let profile = names::profile(e.u8(16));
                let model = names::machine_model(e.u8(17));
                let round = names::default_round(e.u8(18));
                let (Some(profile), Some(model), Some(round)) = (profile, model, round) else {
                    return Err(fault(Section::Code, e.off, "bad module directive field"));
                };
                let _ = write!(
                    self.out,
                    ":{}:{}:{}:{}:{};",
                    e.u32(8),
                    e.u32(12),
                    profile,
                    model,
                    round
                );
            }
            kind::FUNCTION | kind::INDIRECT_FUNCTION | kind::KERNEL | kind::SIGNATURE => {
                self.executable(e)?;
            }
            kind::VARIABLE => {
                self.sym_decl(e)?;
                let init = e.u32(8);
                if init != 0 {
                    self.out.push_str(" = ");
                    let o = self.s.operand(init)?;
                    match o.kind {
                        inst::okind::CONSTANT_BYTES
                        | inst::okind::CONSTANT_OPERAND_LIST
                        | inst::okind::CONSTANT_IMAGE
                        | inst::okind::CONSTANT_SAMPLER => self.operand(o)?,
                        _ => {
                            return Err(fault(
                                Section::Operand,
                                init,
                                "variable initializer is not a constant",
                            ));
                        }
                    }
                }
                self.out.push(';');
            }
            kind::LABEL => {
                self.name(e.u32(4))?;
                self.out.push(':');
            }
            kind::COMMENT => {
                let s = self.s.data(e.u32(4))?;
                value::push_comment(&mut self.out, s);
            }
            kind::CONTROL => self.control(e)?,
            kind::EXTENSION => {
                self.out.push_str("extension ");
                let s = self.s.data(e.u32(4))?;
                value::push_string_literal(&mut self.out, s);
                self.out.push(';');
            }
            kind::LOC => {
                let _ = write!(self.out, "loc {}", e.u32(8));
                let column = e.u32(12);
                if column != 1 {
                    let _ = write!(self.out, " {column}");
                }
                self.out.push(' ');
                let s = self.s.data(e.u32(4))?;
                value::push_string_literal(&mut self.out, s);
                self.out.push(';');
            }
            kind::PRAGMA => {
                self.out.push_str("pragma ");
                let list = self.s.offsets(e.u32(4))?;
                for (i, off) in list.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.typed_operand(off, false)?;
                }
                self.out.push(';');
            }
            kind::FBARRIER => {
                if e.u8(8) & 1 == 0 {
                    self.out.push_str("decl ");
                }
                self.linkage(e.u8(9), e.off)?;
                self.out.push_str("fbarrier ");
                self.name(e.u32(4))?;
                self.out.push(';');
            }
            kind::ARG_BLOCK_START => self.out.push('{'),
            kind::ARG_BLOCK_END => self.out.push('}'),
            _ => {
                return Err(fault(
                    Section::Code,
                    e.off,
                    format!("unexpected directive kind {:#x}", e.kind),
                ));
            }
        }
        Ok(())
    }

    /// `prog ` for program linkage; nothing for the others.
    fn linkage(&mut self, linkage: u8, off: u32) -> R<()> {
        match linkage {
            1 => self.out.push_str("prog "),
            0 | 2..=4 => {}
            _ => return Err(fault(Section::Code, off, "bad linkage")),
        }
        Ok(())
    }

    fn control(&mut self, e: Entry<'a>) -> R<()> {
        const U32: u16 = brig::BrigType::U32.raw();
        const U64: u16 = brig::BrigType::U64.raw();
        let Some(name) = names::control(e.u16(4)) else {
            return Err(fault(Section::Code, e.off, "bad control directive"));
        };
        self.out.push_str(name);
        let list = self.s.offsets(e.u32(8))?;
        if list.len() > 0 {
            self.out.push(' ');
        }
        for (i, off) in list.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let o = self.s.operand(off)?;
            if o.kind == inst::okind::CONSTANT_BYTES {
                let ty = o.u16(4);
                if ty == U32 || ty == U64 {
                    let bytes = self.s.data(o.u32(8))?;
                    let (n, bits) = if ty == U32 { (4, 32) } else { (8, 64) };
                    let Some(v) = bytes.get(..n) else {
                        return Err(fault(Section::Operand, off, "constant too short"));
                    };
                    let raw = v.iter().rev().fold(0u64, |a, &b| (a << 8) | u64::from(b));
                    value::push_ctl_int(&mut self.out, raw, bits);
                    continue;
                }
            }
            self.operand(o)?;
        }
        self.out.push(';');
        Ok(())
    }

    /// A kernel, function, indirect function or signature with its
    /// arguments and body.
    fn executable(&mut self, e: Entry<'a>) -> R<()> {
        let definition = e.u8(24) & 1 == 1;
        if !definition {
            self.out.push_str("decl ");
        }
        self.linkage(e.u8(25), e.off)?;
        self.out.push_str(match e.kind {
            kind::KERNEL => "kernel ",
            kind::FUNCTION => "function ",
            kind::INDIRECT_FUNCTION => "indirect function ",
            _ => "signature ",
        });
        self.name(e.u32(4))?;
        if e.kind != kind::KERNEL {
            self.args(e.end(), e.u16(8))?;
        }
        self.args(e.u32(12), e.u16(10))?;
        let first = e.u32(16);
        let end = e.u32(20);
        if first != 0 && definition && e.kind != kind::SIGNATURE {
            if self.in_body {
                return Err(fault(
                    Section::Code,
                    e.off,
                    "kernel or function inside a body",
                ));
            }
            if end > self.s.code_len() {
                return Err(fault(
                    Section::Code,
                    e.off,
                    "nextModuleEntry outside hsa_code",
                ));
            }
            self.indent += 1;
            self.in_body = true;
            self.out.push_str("\n{\n");
            let mut off = first;
            while off < end {
                let c = self.s.code(off)?;
                if c.kind >= 0x2000 {
                    self.tabs();
                    self.instruction(c)?;
                    self.out.push('\n');
                } else {
                    self.directive_line(c)?;
                }
                off = c.end();
            }
            self.in_body = false;
            self.out.push('}');
            self.indent -= 1;
        }
        self.out.push(';');
        Ok(())
    }

    /// An argument list `(…)`: one argument inline, several one per line.
    fn args(&mut self, mut off: u32, count: u16) -> R<()> {
        self.out.push('(');
        if count == 1 {
            let a = self.arg(off)?;
            self.sym_decl(a)?;
        } else if count > 1 {
            self.indent += 1;
            for i in (1..=count).rev() {
                let a = self.arg(off)?;
                self.out.push('\n');
                self.tabs();
                self.sym_decl(a)?;
                if i > 1 {
                    self.out.push(',');
                }
                off = a.end();
            }
            self.indent -= 1;
        }
        self.out.push(')');
        Ok(())
    }

    fn arg(&self, off: u32) -> R<Entry<'a>> {
        let a = self.s.code(off)?;
        if a.kind != kind::VARIABLE {
            return Err(fault(Section::Code, off, "argument is not a variable"));
        }
        Ok(a)
    }

    /// A variable declaration without initializer or `;`.
    fn sym_decl(&mut self, e: Entry<'a>) -> R<()> {
        let ty = e.u16(12);
        let segment = e.u8(14);
        let align = e.u8(15);
        let modifier = e.u8(24);
        let linkage = e.u8(25);
        let allocation = e.u8(26);
        let elem = ty & !names::TYPE_ARRAY;
        let bad = |what: &str| fault(Section::Code, e.off, what);
        if modifier & 1 == 0 {
            self.out.push_str("decl ");
        }
        self.linkage(linkage, e.off)?;
        match allocation {
            2 if segment != names::SEGMENT_READONLY => self.out.push_str("alloc(agent) "),
            0..=3 => {}
            _ => return Err(bad("bad allocation")),
        }
        if align != 0 {
            let Some(bytes) = names::align_bytes(align) else {
                return Err(bad("bad alignment"));
            };
            if bytes > 1 && Some(bytes) != names::type_bytes(elem) {
                let _ = write!(self.out, "align({bytes}) ");
            }
        }
        if modifier & 2 != 0 {
            self.out.push_str("const ");
        }
        let Some(seg) = names::segment(segment) else {
            return Err(bad("bad segment"));
        };
        self.out.push_str(seg);
        let Some(tname) = names::type_name(elem) else {
            return Err(bad("bad type"));
        };
        if !tname.is_empty() {
            self.out.push('_');
            self.out.push_str(tname);
        }
        let name = self.s.data(e.u32(4))?;
        if !name.is_empty() {
            self.out.push(' ');
            value::push_name(&mut self.out, name);
        }
        if ty & names::TYPE_ARRAY != 0 {
            let dim = e.u64(16);
            if dim == 0 {
                self.out.push_str("[]");
            } else {
                let _ = write!(self.out, "[{dim}]");
            }
        }
        Ok(())
    }

    /// The name of a symbol referenced from an operand.
    fn symbol_name(&mut self, code_off: u32, from: Section, at: u32) -> R<()> {
        let d = self.s.code(code_off)?;
        match d.kind {
            kind::FUNCTION
            | kind::INDIRECT_FUNCTION
            | kind::KERNEL
            | kind::SIGNATURE
            | kind::VARIABLE
            | kind::LABEL
            | kind::FBARRIER
            | kind::MODULE => self.name(d.u32(4)),
            _ => Err(fault(from, at, "reference to an entry without a name")),
        }
    }
}
