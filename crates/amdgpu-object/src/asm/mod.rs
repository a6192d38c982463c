//! A file-level assembler for llvm-mc's AMDGPU assembly language (GFX9):
//! what `llvm-mc -triple=amdgcn-amd-amdhsa -filetype=obj` followed by
//! `ld.lld -shared` does, for `hsakit as`.
//!
//! ```text
//!  source ──lines──► statements ──► sections (.text, .rodata, …) + symbols
//!                     │  instructions: amdgpu_isa::gfx9::{parse_line, encode}
//!                     │  .amdhsa_kernel: directives::KernelDirectives
//!                     │  .amdgpu_metadata: YAML → metadata::Metadata
//!                     ▼
//!               fixups (branch labels, `.size` expressions) resolved
//!                     ▼
//!      Assembly::object ──► ET_REL, byte-identical to llvm-mc -filetype=obj
//!      Assembly::link   ──► write::write_code_object (ld.lld -shared layout)
//!      Assembly::listing ─► the instruction lines of llvm-mc -show-encoding
//! ```
//!
//! The language: one statement per line (an optional `label:` first);
//! comments start with `;` or `//` (`/* … */` too); directives
//! `.text`/`.data`/`.rodata`/`.section`, `.p2align`/`.balign`/`.align`,
//! `.byte`/`.short`/`.long`/`.quad`/`.fill`/`.zero`/`.space`,
//! `.globl`/`.type`/`.size`/`.protected`/`.hidden`, `.set`/`=`,
//! `.amdgcn_target`, `.amdhsa_code_object_version`,
//! `.amdhsa_kernel NAME … .end_amdhsa_kernel`,
//! `.amdgpu_metadata … .end_amdgpu_metadata`, `.amdgpu_lds`. Branches
//! (`s_branch`, `s_cbranch_*`, `s_call_b64`) take labels, resolved to word
//! offsets. Operands may be constant expressions of `.set` symbols (folded);
//! a 32-bit literal may name symbols (`sym@abs32@lo`, `sym@rel32@hi+4`,
//! `(BB2-BB1)&0xffffffff`, `label`), resolved at the end of the file or
//! written as `R_AMDGPU_*` relocations of the `-c` object.
//!
//! Not supported (an error, never wrong output): data directives whose
//! value needs a relocation (`.long sym`), relocations against local
//! symbols (llvm-mc's section-symbol relocations), relocations in the
//! linked output, `.if`/`.ifdef`, macros, and
//! for [`Assembly::link`] anything but kernels (`.text` holding the
//! kernels at 256-byte boundaries, `.rodata` holding their descriptors,
//! only `.L` labels besides the kernel symbols).
//!
//! Errors are reported like llvm-mc: `file:line:col: error: message`, the
//! source line and a caret; assembly goes on after an error so that all of
//! them are reported. Nothing here panics on any input.

use std::collections::HashMap;
use std::fmt;

use amdgpu_isa::gfx9::{self, Family};

use crate::directives::KernelDirectives;
use crate::elf::*;
use crate::kd::kernel_descriptor_t;
use crate::metadata::Metadata;
use crate::target::TargetId;

mod expr;
mod fold;
mod link;
mod object;
mod reloc;
mod yaml;

pub use reloc::Relocation;

use expr::{Expr, ExprParser, Value, expr_loc};
use yaml::{YamlTree, dropped_key};

/// `s_nop 0`, llvm-mc's padding in code sections.
const S_NOP_0: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];
/// Column of the `; encoding:` comment in `-show-encoding` output.
const COMMENT_COLUMN: usize = 40;
/// Largest padding `.p2align` may insert (a guard against huge outputs).
const MAX_PADDING: u64 = 1 << 24;
/// llvm-mc 19's default code object version.
const DEFAULT_CODE_OBJECT_VERSION: u32 = 5;

/// One error, located as llvm-mc locates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name as given.
    pub file: String,
    /// 1-based line (0: no location).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Length of the range underlined after the caret (0 or 1: caret only).
    pub len: usize,
    /// The message, without the `error: ` prefix.
    pub message: String,
    /// The source line.
    pub source: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return writeln!(f, "{}: error: {}", self.file, self.message);
        }
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        writeln!(f, "{}", self.source)?;
        let pad: String = self
            .source
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let tildes = "~".repeat(self.len.saturating_sub(1));
        writeln!(f, "{pad}^{tildes}")
    }
}

/// Every error of one assembly run (at least one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors(pub Vec<Diagnostic>);

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}

/// What to assemble for.
#[derive(Debug, Clone)]
pub struct Options {
    /// Processor and features (`--mcpu gfx90a:xnack-`).
    pub target: TargetId,
    /// File name used in diagnostics.
    pub file_name: String,
}

/// A section of the assembled file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// `.text`, `.rodata`, …
    pub name: String,
    /// Contents.
    pub data: Vec<u8>,
    /// Alignment (the largest `.p2align` seen).
    pub align: u64,
    /// Whether it holds code (`s_nop` padding).
    pub code: bool,
    /// ELF `sh_flags`.
    pub flags: u64,
    /// ELF `sh_type`.
    pub sh_type: u32,
}

/// A symbol: labels, `.set` values, kernel descriptors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Section index and offset, if defined by a label.
    pub defined: Option<(usize, u64)>,
    /// Absolute value from `.set`.
    pub absolute: Option<i64>,
    /// `.globl`.
    pub global: bool,
    /// `.type NAME,@function`.
    pub function: bool,
    /// `.type NAME,@object`.
    pub object: bool,
    /// `.size`, resolved.
    pub size: Option<u64>,
    /// `STV_*`.
    pub visibility: u8,
    /// `.amdgpu_lds NAME, SIZE[, ALIGN]`: an LDS variable (size, alignment),
    /// a symbol of section `SHN_AMDGPU_LDS` whose value is its alignment.
    pub lds: Option<(u64, u64)>,
}

/// A kernel from `.amdhsa_kernel`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// Kernel (code symbol) name.
    pub name: String,
    /// The descriptor llvm-mc builds (entry offset 0).
    pub descriptor: kernel_descriptor_t,
    /// Section and offset of the descriptor.
    pub at: (usize, u64),
    /// Source line of `.amdhsa_kernel`.
    pub line: usize,
}

/// The result of assembling a file.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// Target.
    pub target: TargetId,
    /// `.amdhsa_code_object_version` (default 5).
    pub code_object_version: u32,
    /// Sections in order of first use.
    pub sections: Vec<Section>,
    /// Symbols in order of first mention.
    pub symbols: Vec<Symbol>,
    /// Kernels in source order.
    pub kernels: Vec<Kernel>,
    /// `.amdgpu_metadata`, if given.
    pub metadata: Option<Metadata>,
    /// Relocations of symbolic instruction literals (`sym@abs32@lo`, …).
    pub relocations: Vec<Relocation>,
    /// `-show-encoding` text: every label and instruction as llvm-mc
    /// prints them (directives are not echoed).
    pub listing: String,
    file_name: String,
}

/// Assembles `source`. On error, every diagnostic found.
pub fn assemble(source: &str, opts: &Options) -> Result<Assembly, Errors> {
    assemble_with(source, opts, true)
}

/// Assembles `source` like [`assemble`] but leaves
/// [`Assembly::listing`] empty: faster when only the object is wanted.
pub fn assemble_object(source: &str, opts: &Options) -> Result<Assembly, Errors> {
    assemble_with(source, opts, false)
}

/// Assembles `source`, building the listing if `want_listing`.
fn assemble_with(source: &str, opts: &Options, want_listing: bool) -> Result<Assembly, Errors> {
    let Some(isa) = gfx9::Target::from_processor(opts.target.processor.name) else {
        return Err(Errors(vec![Diagnostic {
            file: opts.file_name.clone(),
            line: 0,
            column: 0,
            len: 0,
            message: format!(
                "processor {} is not supported (GFX9 only: gfx900, gfx902, gfx904, gfx906, gfx908, gfx909, gfx90a, gfx90c, gfx940, gfx941, gfx942, gfx9-generic)",
                opts.target.processor.name
            ),
            source: String::new(),
        }]));
    };
    let mut a = Asm {
        target: opts.target.clone(),
        isa,
        file: opts.file_name.clone(),
        lines: source.lines().collect(),
        sections: Vec::new(),
        cur: None,
        symbols: Vec::new(),
        by_name: HashMap::new(),
        fixups: Vec::new(),
        literal_fixups: Vec::new(),
        relocations: Vec::new(),
        sizes: Vec::new(),
        kernels: Vec::new(),
        metadata: None,
        cov: DEFAULT_CODE_OBJECT_VERSION,
        diags: Vec::new(),
        listing: String::new(),
        want_listing,
        line_no: 0,
    };
    a.run();
    a.finish()
}

/// A branch whose target is a label.
struct Fixup {
    section: usize,
    offset: u64,
    label: String,
    loc: Loc,
}

/// Where in the source.
#[derive(Debug, Clone, Copy)]
struct Loc {
    line: usize,
    col: usize,
    len: usize,
}

struct Asm<'s> {
    target: TargetId,
    isa: gfx9::Target,
    file: String,
    lines: Vec<&'s str>,
    sections: Vec<Section>,
    cur: Option<usize>,
    symbols: Vec<Symbol>,
    by_name: HashMap<String, usize>,
    fixups: Vec<Fixup>,
    literal_fixups: Vec<reloc::LiteralFixup>,
    relocations: Vec<Relocation>,
    sizes: Vec<(String, Expr, Loc)>,
    kernels: Vec<Kernel>,
    metadata: Option<Metadata>,
    cov: u32,
    diags: Vec<Diagnostic>,
    listing: String,
    /// Whether to build `listing` at all.
    want_listing: bool,
    line_no: usize,
}

/// Strips comments (`;`, `//`, `/* */` on one line) outside strings.
fn strip_comment(line: &str) -> std::borrow::Cow<'_, str> {
    let b = line.as_bytes();
    // Most lines hold no comment or string: borrow them as they are.
    if !b.iter().any(|c| matches!(c, b';' | b'/' | b'"')) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&line[i..i + 2]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if c == b'"' {
            in_str = true;
        } else if c == b';' || (c == b'/' && b.get(i + 1) == Some(&b'/')) {
            break;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match line[i + 2..].find("*/") {
                Some(end) => {
                    // Keep columns: replace the comment by spaces.
                    let n = end + 4;
                    out.extend(std::iter::repeat_n(' ', n));
                    i += n;
                    continue;
                }
                None => break,
            }
        }
        let ch = line[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    std::borrow::Cow::Owned(out)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$' || c == '@'
}

/// Length of the identifier at the start of `s` (0 if none).
fn ident_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if is_ident_start(c) => {}
        _ => return 0,
    }
    for (i, c) in chars {
        if !is_ident_char(c) {
            return i;
        }
    }
    s.len()
}

/// Mnemonics whose last operand is a PC-relative word offset.
fn is_branch(mnemonic: &str, target: gfx9::Target) -> bool {
    // The table names a branch target operand `label` (s_branch, the
    // s_cbranch_* that take one, s_cbranch_i_fork, s_call_b64); not
    // s_cbranch_join or s_cbranch_g_fork, whose operands are registers.
    gfx9::InstDef::find(mnemonic, target).is_some_and(|d| d.operands.last() == Some(&"label"))
}

impl<'s> Asm<'s> {
    fn error(&mut self, loc: Loc, message: impl Into<String>) {
        let source = self
            .lines
            .get(loc.line.wrapping_sub(1))
            .copied()
            .unwrap_or("")
            .to_string();
        self.diags.push(Diagnostic {
            file: self.file.clone(),
            line: loc.line,
            column: loc.col,
            len: loc.len,
            message: message.into(),
            source,
        });
    }

    fn loc(&self, col: usize, len: usize) -> Loc {
        Loc {
            line: self.line_no,
            col,
            len,
        }
    }

    fn symbol(&mut self, name: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            return i;
        }
        self.symbols.push(Symbol {
            name: name.to_string(),
            defined: None,
            absolute: None,
            global: false,
            function: false,
            object: false,
            size: None,
            visibility: STV_DEFAULT,
            lds: None,
        });
        self.by_name
            .insert(name.to_string(), self.symbols.len() - 1);
        self.symbols.len() - 1
    }

    fn switch_section(&mut self, name: &str) {
        self.switch_section_with(name, None);
    }

    /// Selects (creating if new) a section; `attrs` are the `sh_flags` and
    /// `sh_type` of a `.section` directive, else they follow from the name
    /// as in llvm-mc (`.text*` code, `.data*` writable, `.rodata*`
    /// read-only, `.bss*` no bits, other names no flags).
    fn switch_section_with(&mut self, name: &str, attrs: Option<(u64, u32)>) {
        let i = match self.sections.iter().position(|s| s.name == name) {
            Some(i) => i,
            None => {
                let prefixed = |p: &str| name == p || name.starts_with(&format!("{p}."));
                let (flags, sh_type) = attrs.unwrap_or(if prefixed(".text") {
                    (SHF_ALLOC | SHF_EXECINSTR, SHT_PROGBITS)
                } else if prefixed(".data") {
                    (SHF_ALLOC | SHF_WRITE, SHT_PROGBITS)
                } else if prefixed(".bss") {
                    (SHF_ALLOC | SHF_WRITE, SHT_NOBITS)
                } else if prefixed(".rodata") {
                    (SHF_ALLOC, SHT_PROGBITS)
                } else if prefixed(".note") {
                    (0, SHT_NOTE)
                } else {
                    (0, SHT_PROGBITS)
                });
                self.sections.push(Section {
                    name: name.to_string(),
                    data: Vec::new(),
                    align: 1,
                    code: flags & SHF_EXECINSTR != 0,
                    flags,
                    sh_type,
                });
                self.sections.len() - 1
            }
        };
        self.cur = Some(i);
    }

    /// The current section (`.text` if none was selected, as llvm-mc).
    fn section(&mut self) -> usize {
        match self.cur {
            Some(i) => i,
            None => {
                self.switch_section(".text");
                self.sections.len() - 1
            }
        }
    }

    fn emit(&mut self, bytes: &[u8]) {
        let s = self.section();
        self.sections[s].data.extend_from_slice(bytes);
    }

    fn align_to(&mut self, align: u64, fill: Option<u8>, max: Option<u64>) {
        let s = self.section();
        let len = self.sections[s].data.len() as u64;
        let pad = len.next_multiple_of(align.max(1)) - len;
        if max.is_some_and(|m| pad > m) {
            return;
        }
        if pad > MAX_PADDING {
            let loc = self.loc(1, 0);
            self.error(loc, "alignment padding larger than 16 MiB is not supported");
            return;
        }
        let sec = &mut self.sections[s];
        sec.align = sec.align.max(align);
        match fill {
            None if sec.code => {
                // llvm-mc: zero bytes up to a word, then `s_nop 0`.
                let zeros = pad % 4;
                sec.data.extend(std::iter::repeat_n(0u8, zeros as usize));
                for _ in 0..pad / 4 {
                    sec.data.extend_from_slice(&S_NOP_0);
                }
            }
            _ => sec
                .data
                .extend(std::iter::repeat_n(fill.unwrap_or(0), pad as usize)),
        }
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.lines.len() {
            self.line_no = i + 1;
            let raw = self.lines[i];
            i += 1;
            let text = strip_comment(raw);
            let trimmed_start = text.len() - text.trim_start().len();
            let mut rest = &text[trimmed_start..];
            let mut col = trimmed_start + 1;
            // Labels.
            loop {
                let n = ident_len(rest);
                if n > 0 && rest[n..].starts_with(':') && !rest[n..].starts_with("::") {
                    let name = rest[..n].to_string();
                    self.define_label(&name, self.loc(col, n));
                    let after = &rest[n + 1..];
                    let skip = after.len() - after.trim_start().len();
                    col += n + 1 + skip;
                    rest = &after[skip..];
                } else {
                    break;
                }
            }
            let rest = rest.trim_end();
            if rest.is_empty() {
                continue;
            }
            let stmt = rest.to_string();
            if stmt.starts_with('.') {
                let n = ident_len(&stmt);
                let name = stmt[..n].to_ascii_lowercase();
                match name.as_str() {
                    ".amdhsa_kernel" => {
                        i = self.kernel(&stmt[n..], col, n, i);
                        continue;
                    }
                    ".amdgpu_metadata" => {
                        i = self.metadata_block(i);
                        continue;
                    }
                    _ => {}
                }
                self.directive(&name, &stmt[n..], col, col + n);
            } else if let Some((name, args)) = self.assignment(&stmt) {
                // `NAME = EXPR`
                self.set(&name, args, col);
            } else {
                self.instruction(&stmt, col);
            }
        }
    }

    /// `NAME = EXPR`, if the statement is one.
    fn assignment<'a>(&self, stmt: &'a str) -> Option<(String, &'a str)> {
        let n = ident_len(stmt);
        let after = stmt[n..].trim_start();
        (n > 0 && after.starts_with('=') && !after.starts_with("=="))
            .then(|| (stmt[..n].to_string(), &after[1..]))
    }

    fn define_label(&mut self, name: &str, loc: Loc) {
        let s = self.section();
        let off = self.sections[s].data.len() as u64;
        let i = self.symbol(name);
        if self.symbols[i].defined.is_some() || self.symbols[i].absolute.is_some() {
            self.error(
                Loc {
                    col: loc.col,
                    len: 0,
                    ..loc
                },
                format!("symbol '{name}' is already defined"),
            );
            return;
        }
        self.symbols[i].defined = Some((s, off));
        if self.want_listing {
            self.listing.push_str(&format!("{name}:\n"));
        }
    }

    fn set(&mut self, name: &str, expr: &str, col: usize) {
        let Some(e) = self.parse_expr_at(expr, col) else {
            return;
        };
        match self.eval(&e) {
            Ok(Value::Abs(v)) => {
                let i = self.symbol(name);
                if self.symbols[i].defined.is_some() {
                    self.error(
                        self.loc(col, 0),
                        "invalid reassignment of non-absolute variable",
                    );
                    return;
                }
                self.symbols[i].absolute = Some(v);
            }
            Ok(Value::Rel(s, v)) => {
                let i = self.symbol(name);
                self.symbols[i].defined = Some((s, v as u64));
            }
            Err((loc, msg)) => self.error(loc, msg),
        }
    }

    /// Parses an expression; `col` is the column of `text`'s first byte
    /// minus its own offset (so positions are reported within the line).
    fn parse_expr_at(&mut self, text: &str, col: usize) -> Option<Expr> {
        let mut p = ExprParser {
            s: text.as_bytes(),
            text,
            pos: 0,
            col,
            line: self.line_no,
            dot: self.dot(),
        };
        match p.expr() {
            Ok(e) => {
                p.ws();
                if p.pos < p.s.len() {
                    let loc = p.loc(0);
                    self.error(loc, "unexpected token");
                    return None;
                }
                Some(e)
            }
            Err((loc, msg)) => {
                self.error(loc, msg);
                None
            }
        }
    }

    /// The location counter `.` (selecting `.text` if nothing is yet).
    fn dot(&mut self) -> (usize, u64) {
        let s = self.section();
        (s, self.sections[s].data.len() as u64)
    }

    /// Evaluates with the symbols defined so far (an undefined symbol is
    /// an error: llvm-mc would need a relocation).
    fn eval(&self, e: &Expr) -> Result<Value, (Loc, String)> {
        Ok(match e {
            Expr::Num(v) => Value::Abs(*v),
            Expr::Dot(s, o) => Value::Rel(*s, *o as i64),
            Expr::Sym(name, loc) => {
                let sym = self.by_name.get(name).map(|&i| &self.symbols[i]);
                match sym {
                    Some(Symbol {
                        absolute: Some(v), ..
                    }) => Value::Abs(*v),
                    Some(Symbol {
                        defined: Some((s, o)),
                        ..
                    }) => Value::Rel(*s, *o as i64),
                    _ => {
                        return Err((*loc, "expected absolute expression".into()));
                    }
                }
            }
            Expr::Neg(x) => match self.eval(x)? {
                Value::Abs(v) => Value::Abs(v.wrapping_neg()),
                Value::Rel(..) => return Err((expr_loc(x), "expected absolute expression".into())),
            },
            Expr::Not(x) => match self.eval(x)? {
                Value::Abs(v) => Value::Abs(!v),
                Value::Rel(..) => return Err((expr_loc(x), "expected absolute expression".into())),
            },
            Expr::Bin(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                match (op, a, b) {
                    ('+', Value::Rel(s, x), Value::Abs(y))
                    | ('+', Value::Abs(y), Value::Rel(s, x)) => Value::Rel(s, x.wrapping_add(y)),
                    ('-', Value::Rel(s, x), Value::Abs(y)) => Value::Rel(s, x.wrapping_sub(y)),
                    ('-', Value::Rel(s, x), Value::Rel(t, y)) if s == t => {
                        Value::Abs(x.wrapping_sub(y))
                    }
                    (op, Value::Abs(x), Value::Abs(y)) => Value::Abs(match op {
                        '+' => x.wrapping_add(y),
                        '-' => x.wrapping_sub(y),
                        '*' => x.wrapping_mul(y),
                        '/' | '%' if y == 0 => {
                            return Err((expr_loc(r), "division by zero".into()));
                        }
                        '/' => x.wrapping_div(y),
                        '%' => x.wrapping_rem(y),
                        '<' => x.wrapping_shl(y as u32),
                        '>' => x.wrapping_shr(y as u32),
                        '&' => x & y,
                        '|' => x | y,
                        '^' => x ^ y,
                        _ => return Err((expr_loc(l), "unsupported operator".into())),
                    }),
                    _ => return Err((expr_loc(l), "expected absolute expression".into())),
                }
            }
        })
    }

    /// Evaluates an absolute expression now.
    fn absolute(&mut self, text: &str, col: usize) -> Option<i64> {
        let e = self.parse_expr_at(text, col)?;
        match self.eval(&e) {
            Ok(Value::Abs(v)) => Some(v),
            Ok(Value::Rel(..)) => {
                self.error(expr_loc(&e), "expected absolute expression");
                None
            }
            Err((loc, msg)) => {
                self.error(loc, msg);
                None
            }
        }
    }

    /// `.amdgpu_lds NAME, SIZE[, ALIGN]` (alignment 4 by default, a power
    /// of two).
    fn amdgpu_lds(&mut self, args: &[(&str, usize)]) {
        let Some(&(name, c)) = args
            .first()
            .filter(|(t, _)| ident_len(t) == t.len() && !t.is_empty())
        else {
            let c = args.first().map_or(0, |a| a.1);
            self.error(self.loc(c, 0), "expected identifier");
            return;
        };
        let Some(&(size, sc)) = args.get(1) else {
            self.error(self.loc(c + name.len(), 0), "expected ','");
            return;
        };
        let Some(size) = self.absolute(size, sc) else {
            return;
        };
        let align = match args.get(2) {
            Some(&(a, ac)) => match self.absolute(a, ac) {
                Some(v) if v > 0 && (v as u64).is_power_of_two() => v as u64,
                Some(_) => return self.error(self.loc(ac, 0), "alignment must be a power of two"),
                None => return,
            },
            None => 4,
        };
        if !(0..=i64::from(u32::MAX)).contains(&size) {
            return self.error(self.loc(sc, 0), "size is too large");
        }
        let i = self.symbol(name);
        if self.symbols[i].defined.is_some() || self.symbols[i].absolute.is_some() {
            return self.error(
                self.loc(c, 0),
                format!("invalid symbol redefinition: {name}"),
            );
        }
        self.symbols[i].lds = Some((size as u64, align));
        self.symbols[i].object = true;
    }

    /// Splits comma-separated arguments, with their columns.
    fn args(text: &str, col: usize) -> Vec<(&str, usize)> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut in_str = false;
        let b = text.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            if c == b'"' {
                in_str = !in_str;
            }
            if c == b',' && !in_str {
                out.push(start..i);
                start = i + 1;
            }
        }
        out.push(start..text.len());
        out.into_iter()
            .map(|r| {
                let piece = &text[r.clone()];
                let lead = piece.len() - piece.trim_start().len();
                (piece.trim(), col + r.start + lead)
            })
            .collect()
    }

    fn directive(&mut self, name: &str, args_text: &str, col: usize, args_col: usize) {
        let args = Self::args(args_text, args_col);
        let first = args.first().copied().unwrap_or(("", args_col));
        match name {
            ".text" | ".data" | ".rodata" | ".bss" => self.switch_section(name),
            ".section" => {
                let n = ident_len(first.0);
                if n == 0 {
                    self.error(self.loc(first.1, 0), "expected identifier in directive");
                    return;
                }
                let sec = first.0[..n].to_string();
                // `.section NAME, "flags", @type`
                let attrs = args.get(1).map(|(f, _)| {
                    let mut flags = 0;
                    for c in f.trim_matches('"').chars() {
                        flags |= match c {
                            'a' => SHF_ALLOC,
                            'w' => SHF_WRITE,
                            'x' => SHF_EXECINSTR,
                            'M' => SHF_MERGE,
                            'S' => SHF_STRINGS,
                            _ => 0,
                        };
                    }
                    let sh_type = match args.get(2).map(|(t, _)| t.trim_start_matches(['@', '%'])) {
                        Some("nobits") => SHT_NOBITS,
                        Some("note") => SHT_NOTE,
                        _ => SHT_PROGBITS,
                    };
                    (flags, sh_type)
                });
                self.switch_section_with(&sec, attrs);
            }
            ".p2align" | ".p2alignw" | ".p2alignl" | ".balign" | ".align" | ".balignw"
            | ".balignl" => {
                let Some(v) = self.absolute(first.0, first.1) else {
                    return;
                };
                let align = if name.starts_with(".p2") {
                    if !(0..=32).contains(&v) {
                        self.error(self.loc(first.1, 0), "invalid alignment value");
                        return;
                    }
                    1u64 << v
                } else {
                    if v <= 0 || (v as u64).count_ones() != 1 {
                        self.error(self.loc(first.1, 0), "alignment must be a power of 2");
                        return;
                    }
                    v as u64
                };
                let fill = match args.get(1) {
                    Some((t, c)) if !t.is_empty() => self.absolute(t, *c).map(|v| v as u8),
                    _ => None,
                };
                let max = match args.get(2) {
                    Some((t, c)) if !t.is_empty() => self.absolute(t, *c).map(|v| v as u64),
                    _ => None,
                };
                self.align_to(align, fill, max);
            }
            ".byte" | ".short" | ".hword" | ".2byte" | ".value" | ".long" | ".int" | ".4byte"
            | ".word" | ".quad" | ".8byte" => {
                let size = match name {
                    ".byte" => 1,
                    ".short" | ".hword" | ".2byte" | ".value" => 2,
                    ".long" | ".int" | ".4byte" | ".word" => 4,
                    _ => 8,
                };
                if first.0.is_empty() && args.len() == 1 {
                    return;
                }
                for (t, c) in args {
                    if let Some(v) = self.absolute(t, c) {
                        let bytes = v.to_le_bytes();
                        self.emit(&bytes[..size]);
                    }
                }
            }
            ".zero" | ".space" | ".skip" => {
                let Some(n) = self.absolute(first.0, first.1) else {
                    return;
                };
                let fill = match args.get(1) {
                    Some((t, c)) => self.absolute(t, *c).unwrap_or(0) as u8,
                    None => 0,
                };
                if !(0..=1 << 24).contains(&n) {
                    self.error(self.loc(first.1, 0), "invalid number of bytes");
                    return;
                }
                self.emit(&vec![fill; n as usize]);
            }
            ".fill" => {
                let Some(n) = self.absolute(first.0, first.1) else {
                    return;
                };
                let size = match args.get(1) {
                    Some((t, c)) => self.absolute(t, *c).unwrap_or(1),
                    None => 1,
                };
                let value = match args.get(2) {
                    Some((t, c)) => self.absolute(t, *c).unwrap_or(0),
                    None => 0,
                };
                if !(0..=8).contains(&size) || !(0..=(1 << 24) / size.max(1)).contains(&n) {
                    self.error(self.loc(first.1, 0), "invalid .fill count or size");
                    return;
                }
                // GNU as: each repeat is `size` bytes of the 4-byte value.
                let v = (value as u64 & 0xffff_ffff).to_le_bytes();
                for _ in 0..n {
                    self.emit(&v[..size as usize]);
                }
            }
            ".globl" | ".global" | ".protected" | ".hidden" | ".internal" | ".local" | ".weak" => {
                for (t, c) in args {
                    let n = ident_len(t);
                    if n == 0 || n != t.len() {
                        self.error(self.loc(c, 0), "expected identifier");
                        continue;
                    }
                    let i = self.symbol(t);
                    let s = &mut self.symbols[i];
                    match name {
                        ".globl" | ".global" | ".weak" => s.global = true,
                        ".protected" => s.visibility = STV_PROTECTED,
                        ".hidden" | ".internal" => s.visibility = STV_HIDDEN,
                        _ => s.global = false,
                    }
                }
            }
            ".amdgpu_lds" => self.amdgpu_lds(&args),
            ".type" => {
                let n = ident_len(first.0);
                if n == 0 || args.len() < 2 {
                    self.error(self.loc(first.1, 0), "expected identifier");
                    return;
                }
                let i = self.symbol(&first.0[..n]);
                let kind = args[1].0.trim_start_matches(['@', '%']);
                match kind {
                    "function" | "STT_FUNC" => self.symbols[i].function = true,
                    "object" | "STT_OBJECT" => self.symbols[i].object = true,
                    "notype" | "STT_NOTYPE" => {}
                    _ => {
                        let skip = usize::from(args[1].0.starts_with(['@', '%']));
                        self.error(self.loc(args[1].1 + skip, 0), "unsupported attribute")
                    }
                }
            }
            ".size" => {
                let n = ident_len(first.0);
                if n == 0 {
                    self.error(self.loc(first.1, 0), "expected identifier");
                    return;
                }
                if args.len() < 2 {
                    self.error(self.loc(first.1 + n, 0), "expected comma");
                    return;
                }
                let (t, c) = args[1];
                if let Some(e) = self.parse_expr_at(t, c) {
                    let name = first.0[..n].to_string();
                    self.symbol(&name);
                    self.sizes.push((name, e, self.loc(c, 0)));
                }
            }
            ".set" | ".equ" => {
                let n = ident_len(first.0);
                if n == 0 || args.len() < 2 {
                    self.error(self.loc(first.1, 0), "expected identifier");
                    return;
                }
                let name = first.0[..n].to_string();
                let (t, c) = args[1];
                self.set(&name, t, c);
            }
            ".amdgcn_target" => {
                let t = first.0;
                let Some(inner) = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
                    self.error(self.loc(first.1, 0), "expected string");
                    return;
                };
                let ours = self.target.to_string();
                match TargetId::parse(inner) {
                    Ok(t) if t == self.target && inner.starts_with("amdgcn-amd-amdhsa--") => {}
                    _ => self.error(
                        self.loc(first.1, 0),
                        format!(
                            ".amdgcn_target directive's target id {inner} does not match the specified target id {ours}"
                        ),
                    ),
                }
            }
            ".amdhsa_code_object_version" => {
                if let Some(v) = self.absolute(first.0, first.1) {
                    if (4..=6).contains(&v) {
                        self.cov = v as u32;
                    } else {
                        self.error(
                            self.loc(first.1, 0),
                            format!("code object version {v} is not supported (4, 5 or 6)"),
                        );
                    }
                }
            }
            _ => self.error(self.loc(col, 0), "unknown directive"),
        }
    }

    /// `.amdhsa_kernel NAME` … `.end_amdhsa_kernel`, starting after the
    /// opening line; returns the index of the line after the block.
    fn kernel(&mut self, args: &str, col: usize, n: usize, mut i: usize) -> usize {
        let start_line = self.line_no;
        let name = args.trim();
        let name_col = col + n + (args.len() - args.trim_start().len());
        if name.is_empty() || ident_len(name) != name.len() {
            self.error(
                self.loc(name_col, 0),
                "expected symbol name after .amdhsa_kernel",
            );
        }
        let name = name.to_string();
        let mut d = KernelDirectives::new();
        let mut ok = true;
        let end_col;
        loop {
            let Some(raw) = self.lines.get(i).copied() else {
                // llvm-mc: at the end of the file.
                self.line_no = i + 1;
                self.error(
                    self.loc(1, 0),
                    "expected .amdhsa_ directive or .end_amdhsa_kernel",
                );
                return i;
            };
            i += 1;
            self.line_no = i;
            let text = strip_comment(raw);
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            let c = text.len() - text.trim_start().len() + 1;
            let k = ident_len(t);
            let dname = &t[..k];
            if dname == ".end_amdhsa_kernel" {
                end_col = c + k;
                break;
            }
            if !dname.starts_with(".amdhsa_") {
                self.error(
                    self.loc(c, 0),
                    "expected .amdhsa_ directive or .end_amdhsa_kernel",
                );
                ok = false;
                continue;
            }
            let vtext = &t[k..];
            let vcol = c + k + (vtext.len() - vtext.trim_start().len());
            let Some(v) = self.absolute(vtext.trim(), vcol) else {
                ok = false;
                continue;
            };
            if v < 0 {
                self.error(self.loc(vcol, 0), "value out of range");
                ok = false;
                continue;
            }
            let set = d.set(dname, v as u64, &self.target).and_then(|()| {
                // llvm-mc checks each value's range as it reads it.
                let bare = dname.trim_start_matches(".amdhsa_");
                match d.build(&self.target) {
                    Err(e) if e == format!("value out of range for `.amdhsa_{bare}`") => Err(e),
                    _ => Ok(()),
                }
            });
            if let Err(msg) = set {
                let msg = if msg.starts_with("unknown .amdhsa_kernel directive") {
                    "unknown .amdhsa_kernel directive".to_string()
                } else if msg.starts_with("value out of range") {
                    "value out of range".to_string()
                } else {
                    msg
                };
                // llvm-mc: a repeated directive is reported at its value.
                let loc = if msg.contains("repeated") || msg.starts_with("value out of range") {
                    self.loc(vcol, 0)
                } else {
                    self.loc(c, k)
                };
                self.error(loc, msg);
                ok = false;
            }
        }
        if !ok || name.is_empty() {
            return i;
        }
        let end_line = self.line_no;
        let descriptor = match d.build(&self.target) {
            Ok(kd) => kd,
            Err(msg) => {
                // llvm-mc: after `.end_amdhsa_kernel`.
                self.error(self.loc(end_col, 0), msg);
                return i;
            }
        };
        self.line_no = start_line;
        let kd_name = format!("{name}.kd");
        let s = self.section();
        let off = self.sections[s].data.len() as u64;
        self.emit(zerocopy::IntoBytes::as_bytes(&descriptor));
        // As LLVM's AMDGPUTargetELFStreamer: the descriptor symbol takes
        // the code symbol's binding and visibility, then the code symbol
        // becomes protected (if it was default).
        let kd = self.symbol(&kd_name);
        let code = self.symbol(&name);
        let code_vis = self.symbols[code].visibility;
        let global = self.symbols[code].global || self.symbols[code].defined.is_none();
        if code_vis == STV_DEFAULT {
            self.symbols[code].visibility = STV_PROTECTED;
        }
        if self.symbols[kd].defined.is_some() {
            self.error(self.loc(name_col, 0), "invalid symbol redefinition");
        }
        let sym = &mut self.symbols[kd];
        sym.defined = Some((s, off));
        sym.object = true;
        sym.global = sym.global || global;
        sym.visibility = code_vis;
        sym.size = Some(64);
        self.kernels.push(Kernel {
            name,
            descriptor,
            at: (s, off),
            line: start_line,
        });
        self.line_no = end_line;
        i
    }

    /// `.amdgpu_metadata` … `.end_amdgpu_metadata`: YAML.
    fn metadata_block(&mut self, mut i: usize) -> usize {
        let start = self.line_no;
        let mut yaml = String::new();
        loop {
            let Some(raw) = self.lines.get(i).copied() else {
                self.line_no = start;
                self.error(
                    self.loc(1, 0),
                    "expected directive .end_amdgpu_metadata not found",
                );
                return i;
            };
            i += 1;
            if raw.trim() == ".end_amdgpu_metadata" {
                break;
            }
            yaml.push_str(raw);
            yaml.push('\n');
        }
        self.line_no = start;
        if self.metadata.is_some() {
            self.error(self.loc(1, 0), "duplicate .amdgpu_metadata");
        }
        match serde_saphyr::from_str::<Metadata>(&yaml) {
            Ok(m) => {
                // Keys the typed metadata does not know would be dropped
                // silently (llvm-mc keeps them): refuse them instead.
                let kept = crate::metadata::decode_value(&m.to_msgpack(), 0).ok();
                let tree = serde_saphyr::from_str::<YamlTree>(&yaml).ok();
                if let (Some(kept), Some(tree)) = (kept, tree)
                    && let Some(key) = dropped_key(&tree, &kept)
                {
                    self.error(
                        self.loc(1, 0),
                        format!("metadata key `{key}` is not supported by hsakit as"),
                    );
                } else {
                    self.metadata = Some(m);
                }
            }
            Err(e) => self.error(self.loc(1, 0), format!("invalid AMDGPU metadata: {e}")),
        }
        self.line_no = i;
        i
    }

    fn instruction(&mut self, stmt: &str, col: usize) {
        let mlen = stmt.find(|c: char| c.is_whitespace()).unwrap_or(stmt.len());
        let mnemonic = &stmt[..mlen];
        // A branch to a label: assemble with offset 0 and fix up later.
        let mut label: Option<(String, usize)> = None;
        let mut text = stmt.to_string();
        if is_branch(mnemonic, self.isa) {
            let last_start = stmt.rfind([',', ' ', '\t']).map_or(stmt.len(), |p| p + 1);
            let last = &stmt[last_start..];
            let n = ident_len(last);
            let absolute = self
                .by_name
                .get(last)
                .and_then(|&i| self.symbols[i].absolute);
            if n > 0 && n == last.len() && absolute.is_none() {
                label = Some((last.to_string(), col + last_start));
                text = format!("{}0", &stmt[..last_start]);
            } else if let (true, Some(v)) = (n > 0 && n == last.len(), absolute) {
                text = format!("{}{v}", &stmt[..last_start]);
            }
        }
        let text = fold::fold_constants(&self.substitute_absolutes(&text, mlen), mlen);
        // A literal operand naming symbols: encoded with a placeholder,
        // fixed up at the end of the file.
        let mut symbolic = None;
        let parsed = gfx9::parse_line(&text, self.isa).or_else(|e| {
            let (line, shown, expr, spec) = self.symbolic_operand(&text, mlen).ok_or(e.clone())?;
            let inst = gfx9::parse_line(&line, self.isa).map_err(|_| e)?;
            symbolic = Some((shown, expr, spec));
            Ok(inst)
        });
        let inst = match parsed {
            Ok(inst) => inst,
            Err(gfx9::Error::Syntax { message, column }) => {
                self.error(self.loc(col + column - 1, 0), message);
                return;
            }
            Err(e) => {
                self.error(self.loc(col, 0), e.to_string());
                return;
            }
        };
        let mut bytes = match gfx9::encode(&inst, self.isa) {
            Ok(b) => b,
            Err(e) => {
                self.error(self.loc(col, 0), e.to_string());
                return;
            }
        };
        let mut literal = None;
        if let Some((shown, expr, spec)) = symbolic {
            // Symbols exist from their first mention (their table order).
            let mut names = Vec::new();
            reloc::symbol_names(&expr, &mut names);
            for n in names {
                self.symbol(&n);
            }
            let loc = self.loc(col, 0);
            match self.literal_fixup(&mut bytes, expr, spec, loc) {
                Some(kind) => literal = Some((shown, kind)),
                None => {
                    self.error(loc, "invalid operand for instruction");
                    return;
                }
            }
        }
        let s = self.section();
        let offset = self.sections[s].data.len() as u64;
        if let Some((l, lcol)) = &label {
            if inst.def.family != Family::Sopp && inst.def.family != Family::Sopk {
                self.error(self.loc(*lcol, 0), "invalid operand for instruction");
                return;
            }
            self.fixups.push(Fixup {
                section: s,
                offset,
                label: l.clone(),
                // llvm-mc reports an undefined label at the mnemonic.
                loc: self.loc(col, 0),
            });
        }
        if self.want_listing {
            let branch = is_branch(mnemonic, self.isa);
            self.list_instruction(
                &inst,
                &bytes,
                label.as_ref().map(|(l, _)| l.as_str()),
                branch,
            );
            if let Some((shown, kind)) = &literal {
                self.list_literal_fixup(shown, kind);
            }
        }
        self.emit(&bytes);
    }

    /// Appends the `-show-encoding` lines of one instruction (`label`: the
    /// branch target label of a fixup; `branch`: a branch mnemonic).
    fn list_instruction(
        &mut self,
        inst: &gfx9::Inst,
        bytes: &[u8],
        label: Option<&str>,
        branch: bool,
    ) {
        let printed = gfx9::print(inst);
        let mut enc: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        let shown = match label {
            Some(l) => {
                enc[0] = "A".into();
                enc[1] = "A".into();
                let head = printed
                    .rsplit_once(' ')
                    .map_or(printed.as_str(), |(h, _)| h);
                format!("{head} {l}")
            }
            // llvm-mc prints a branch's simm16 signed.
            None if branch => match printed.rsplit_once(' ') {
                Some((head, v)) => match v.parse::<u16>() {
                    Ok(v) => format!("{head} {}", v as i16),
                    Err(_) => printed,
                },
                None => printed,
            },
            None => printed,
        };
        let pad = COMMENT_COLUMN.saturating_sub(shown.len()).max(1);
        self.listing.push_str(&format!(
            "\t{shown}{}; encoding: [{}]\n",
            " ".repeat(pad),
            enc.join(",")
        ));
        if let Some(l) = label {
            self.listing.push_str(&format!(
                "{};   fixup A - offset: 0, value: {l}, kind: fixup_si_sopp_br\n",
                " ".repeat(COMMENT_COLUMN)
            ));
        }
    }

    /// Rewrites the listing line just added for an instruction whose
    /// literal is a fixup: the expression in place of the placeholder, `A`
    /// for the literal bytes, then llvm-mc's fixup line.
    fn list_literal_fixup(&mut self, shown: &str, kind: &str) {
        let start = self.listing[..self.listing.len() - 1]
            .rfind('\n')
            .map_or(0, |p| p + 1);
        let line = self.listing.split_off(start);
        let (text, enc) = line.split_once("; encoding: [").unwrap_or((&line, ""));
        let placeholder = format!("{:#x}", reloc::PLACEHOLDER);
        let text = text.trim().replacen(&placeholder, shown, 1);
        let mut enc: Vec<&str> = enc.trim_end().trim_end_matches(']').split(',').collect();
        for b in enc.iter_mut().skip(4) {
            *b = "A";
        }
        let pad = COMMENT_COLUMN.saturating_sub(text.len()).max(1);
        self.listing.push_str(&format!(
            "\t{text}{}; encoding: [{}]\n{};   fixup A - offset: 4, value: {shown}, kind: {kind}\n",
            " ".repeat(pad),
            enc.join(","),
            " ".repeat(COMMENT_COLUMN)
        ));
    }

    /// Replaces operands that name `.set` symbols by their values (after
    /// the mnemonic, which is `from` bytes long).
    fn substitute_absolutes(&self, text: &str, from: usize) -> String {
        if !self.symbols.iter().any(|s| s.absolute.is_some()) {
            return text.to_string();
        }
        let mut out = text[..from.min(text.len())].to_string();
        let mut rest = &text[from.min(text.len())..];
        while let Some(c) = rest.chars().next() {
            let n = ident_len(rest);
            // An identifier that starts a token (not the tail of `0x1f`).
            let starts_token = !out.ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_');
            // `offset:` and `{id: …}` keys and `hwreg(…)`-like operand
            // syntax are keywords, not symbols.
            // A register name stays a register (`s0 = 1` does not change `s0`).
            let key = rest[n..].starts_with([':', '(']) || reloc::is_register_name(&rest[..n]);
            if n > 0 && starts_token {
                let word = &rest[..n];
                match self
                    .by_name
                    .get(word)
                    .and_then(|&i| self.symbols[i].absolute)
                    .filter(|_| !key)
                {
                    Some(v) => out.push_str(&v.to_string()),
                    None => out.push_str(word),
                }
                rest = &rest[n..];
            } else {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        out
    }

    fn finish(mut self) -> Result<Assembly, Errors> {
        self.resolve_literal_fixups();
        // Branches.
        for f in std::mem::take(&mut self.fixups) {
            let target = self
                .by_name
                .get(&f.label)
                .and_then(|&i| self.symbols[i].defined);
            let Some((ts, toff)) = target else {
                self.error(f.loc, format!("undefined label '{}'", f.label));
                continue;
            };
            if ts != f.section {
                self.error(f.loc, "branch target in another section");
                continue;
            }
            let delta = toff as i64 - (f.offset as i64 + 4);
            if delta % 4 != 0 || !(i16::MIN as i64..=i16::MAX as i64).contains(&(delta / 4)) {
                self.error(f.loc, "branch size exceeds simm16");
                continue;
            }
            let v = ((delta / 4) as i16).to_le_bytes();
            let at = f.offset as usize;
            if let Some(dst) = self.sections[f.section].data.get_mut(at..at + 2) {
                dst.copy_from_slice(&v);
            }
        }
        // Sizes.
        for (name, e, loc) in std::mem::take(&mut self.sizes) {
            match self.eval(&e) {
                Ok(Value::Abs(v)) if v >= 0 => {
                    let i = self.symbol(&name);
                    self.symbols[i].size = Some(v as u64);
                }
                Ok(_) => self.error(loc, "expected absolute expression"),
                Err((l, m)) => self.error(l, m),
            }
        }
        if !self.diags.is_empty() {
            return Err(Errors(self.diags));
        }
        Ok(Assembly {
            target: self.target.for_code_object(self.cov),
            code_object_version: self.cov,
            sections: self.sections,
            symbols: self.symbols,
            kernels: self.kernels,
            metadata: self.metadata,
            relocations: self.relocations,
            listing: self.listing,
            file_name: self.file,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_labels() {
        assert_eq!(strip_comment("  s_nop 0 ; x // y"), "  s_nop 0 ");
        assert_eq!(strip_comment("a /* b */ c // d"), "a         c ");
        assert_eq!(strip_comment(".ascii \"a;b\" ; c"), ".ascii \"a;b\" ");
        assert_eq!(ident_len(".Lloop: s_nop 0"), 6);
        assert_eq!(ident_len("0x1"), 0);
    }

    #[test]
    fn errors_carry_file_line_column_and_caret() {
        let opts = Options {
            target: TargetId::parse("gfx90a").unwrap(),
            file_name: "t.s".into(),
        };
        let e = assemble("k:\n  s_endpgm\n.size k\n", &opts).unwrap_err();
        // llvm-mc-19: t.s:3:8: error: expected comma
        assert_eq!(
            e.to_string(),
            "t.s:3:8: error: expected comma\n.size k\n       ^\n"
        );
        let e = assemble("\ts_branch .Lnowhere\n", &opts).unwrap_err();
        assert_eq!((e.0[0].line, e.0[0].column), (1, 2));
        assert!(assemble("", &opts).is_ok());
        let md =
            ".amdgpu_metadata\namdhsa.version: [1, 2]\namdhsa.kernels: []\n.end_amdgpu_metadata\n";
        assert!(assemble(md, &opts).unwrap().metadata.is_some());
        let md = md.replace("amdhsa.kernels", "amdhsa.extra: 1\namdhsa.kernels");
        let e = assemble(&md, &opts).unwrap_err();
        assert!(e.0[0].message.contains("`amdhsa.extra`"), "{e}");
    }
}
