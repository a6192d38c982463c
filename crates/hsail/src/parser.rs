//! Recursive-descent parser for HSAIL text (PRM §19.2) into [`crate::ast`].
//!
//! The parser pulls tokens from the [`crate::lexer`] scanner one at a time
//! (one token of lookahead; no token list is built) and hands out the
//! module one statement at a time ([`Items`]: top-level statements, and
//! the statements of a code block one by one), so that the assembler can
//! lower each statement and drop its tree before reading the next;
//! [`parse_module`] collects them into a whole [`Module`]. On a
//! syntax error it records a diagnostic, skips to the next `;` or `}` and
//! goes on, so one run reports several errors. It never panics: every
//! number is range-checked and nesting is bounded by the grammar.
//!
//! Instruction mnemonics are split the way HSAILasm scans them: the opcode
//! is the word up to the first `_`, the rest are `_`-separated suffixes,
//! interpreted according to the opcode's [`Syntax`] from [`crate::ops`].
//! `_align(n)`, `_width(n)` and `_equiv(n)` carry a parenthesized argument,
//! after which the mnemonic continues with the next `_…` word.

use logos::Logos;

use crate::ast::*;
use crate::lexer::{Tok, Token};
use crate::lower::fxmap::FxMap;
use crate::ops::{self, Syntax, names, types};

/// A syntax error: message and byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub span: Span,
}

type PResult<T> = Result<T, SyntaxError>;

/// Parse a whole module. Returns the tree (possibly partial) and the errors.
pub fn parse_module(src: &str) -> (Module<'_>, Vec<SyntaxError>) {
    let mut items = Items::new(src);
    let mut module = Module::default();
    // The kernel or function whose body is being read.
    let mut open: Option<Executable<'_>> = None;
    for piece in items.by_ref() {
        match piece {
            Piece::Item(item) => {
                open = None;
                module.items.push(item);
            }
            Piece::Body(e) => open = Some(e),
            Piece::Stmt(s) => {
                if let Some(body) = open.as_mut().and_then(|e| e.body.as_mut()) {
                    body.push(s);
                }
            }
            Piece::End(end) => {
                if let Some(mut e) = open.take() {
                    e.span.end = end;
                    module.items.push(Item::Executable(e));
                }
            }
        }
    }
    (module, items.into_errors())
}

/// A part of a module as [`Items`] returns it.
#[derive(Debug)]
pub enum Piece<'a> {
    /// A top-level statement other than a kernel or function definition.
    Item(Item<'a>),
    /// A kernel or function definition up to the `{` of its body (which is
    /// `Some` and empty); its statements follow, then [`Piece::End`].
    Body(Executable<'a>),
    /// A statement of the body being read.
    Stmt(Stmt<'a>),
    /// The `};` ending the body, with the byte offset after it. A body with
    /// a syntax error that ends the definition has no `End`.
    End(u32),
}

/// The module in source order, parsed one piece at a time as it is asked
/// for: top-level statements, and the statements of code blocks one by one
/// (so that a big kernel need not be held as a whole). Statements with a
/// syntax error are skipped (and the error recorded), so a piece is only as
/// good as [`errors`](Self::errors) is empty after it has been returned.
/// Parsing stops after 100 errors.
#[derive(Debug)]
pub struct Items<'a> {
    p: Parser<'a>,
    done: bool,
    /// Inside the body of a definition that started at this token.
    body_start: Option<usize>,
}

impl<'a> Items<'a> {
    /// Start parsing `src`.
    pub fn new(src: &'a str) -> Self {
        let mut lexer = Tok::lexer(src);
        let cur = scan(&mut lexer);
        Items {
            p: Parser {
                src,
                lexer,
                cur,
                prev_end: 0,
                pos: 0,
                errors: Vec::new(),
                depth: 0,
                mnemonics: FxMap::default(),
                spare_operands: Vec::new(),
            },
            done: false,
            body_start: None,
        }
    }

    /// The errors found so far, in source order.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.p.errors
    }

    /// All the errors found (call after the last piece).
    pub fn into_errors(self) -> Vec<SyntaxError> {
        self.p.errors
    }

    /// Hands back a statement that is no longer needed, for its operand
    /// list to hold the operands of a later one: a big module then does not
    /// allocate and free an operand list per instruction (which was most
    /// of the allocator's work).
    pub fn recycle(&mut self, stmt: Stmt<'a>) {
        match stmt {
            Stmt::Inst(Inst { mut operands, .. }) if operands.capacity() > 0 => {
                operands.clear();
                self.p.spare_operands.push(operands);
            }
            Stmt::ArgBlock(b) => b.stmts.into_iter().for_each(|s| self.recycle(s)),
            _ => {}
        }
    }

    /// The next piece of the open body, or `None` once a syntax error
    /// ended the definition (as a top-level error, like the statement
    /// parsers' errors outside bodies).
    fn body_piece(&mut self, item_start: usize) -> Option<Piece<'a>> {
        let p = &mut self.p;
        let error = loop {
            match p.peek() {
                Tok::RCurl => {
                    p.bump();
                    match p.expect(Tok::Semi, "`;`") {
                        Ok(t) => {
                            self.body_start = None;
                            return Some(Piece::End(t.end));
                        }
                        Err(e) => break e,
                    }
                }
                Tok::Eof => break p.unexpected_error("`}`"),
                _ => {}
            }
            let start = p.pos;
            match p.body_statement(0) {
                Ok(s) => return Some(Piece::Stmt(s)),
                Err(e) => {
                    p.errors.push(e);
                    if p.errors.len() > 100 {
                        break SyntaxError {
                            message: "too many errors".into(),
                            span: p.span(),
                        };
                    }
                    p.skip_statement(start);
                }
            }
        };
        p.errors.push(error);
        p.recover(item_start);
        self.body_start = None;
        self.done = p.errors.len() > 100;
        None
    }
}

impl<'a> Iterator for Items<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        if let Some(start) = self.body_start
            && let Some(piece) = self.body_piece(start)
        {
            return Some(piece);
        }
        let p = &mut self.p;
        while !self.done && p.peek() != Tok::Eof {
            let start = p.pos;
            match p.top_level() {
                Ok(Item::Executable(e)) if e.body.is_some() => {
                    self.body_start = Some(start);
                    return Some(Piece::Body(e));
                }
                Ok(item) => {
                    self.done = p.errors.len() > 100;
                    return Some(Piece::Item(item));
                }
                Err(e) => {
                    p.errors.push(e);
                    p.recover(start);
                    self.done = p.errors.len() > 100;
                }
            }
        }
        None
    }
}

/// Whether a token kind can include letters or digits (PRM 4.4: two such
/// tokens need white space, or a comment, between them).
fn has_alnum(k: Tok) -> bool {
    matches!(
        k,
        Tok::Word
            | Tok::Dollar
            | Tok::Global
            | Tok::Local
            | Tok::Label
            | Tok::Int
            | Tok::F16
            | Tok::F32
            | Tok::F64
            | Tok::Str
    )
}

/// An image geometry name (`2d`, `1da`, …), one PRM token that the lexer
/// scans as a number followed by a word.
fn is_geometry(text: &str) -> bool {
    matches!(
        text,
        "1d" | "2d" | "3d" | "1da" | "2da" | "1db" | "2ddepth" | "2dadepth"
    )
}

/// The next token of `lexer` (unknown characters are [`Tok::Error`]), or
/// [`Tok::Eof`] at the end of the source.
fn scan(lexer: &mut logos::Lexer<'_, Tok>) -> Token {
    match lexer.next() {
        Some(kind) => {
            let span = lexer.span();
            Token {
                kind: kind.unwrap_or(Tok::Error),
                start: span.start as u32,
                end: span.end as u32,
            }
        }
        None => {
            let end = lexer.source().len() as u32;
            Token {
                kind: Tok::Eof,
                start: end,
                end,
            }
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    lexer: logos::Lexer<'a, Tok>,
    /// The current token (the one lookahead).
    cur: Token,
    /// End of the token before `cur` (0 at the start).
    prev_end: u32,
    /// Number of tokens consumed (error recovery checks progress with it).
    pos: usize,
    errors: Vec<SyntaxError>,
    /// Nesting depth of constants being read (bounded, against deep input).
    depth: u32,
    /// Mnemonics decoded so far, by spelling (see `Parser::mnemonic`).
    mnemonics: FxMap<&'a str, (&'static ops::OpInfo, Mnemonic)>,
    /// Empty operand lists to fill next (see `Items::recycle`).
    spare_operands: Vec<Vec<Operand<'a>>>,
}

impl std::fmt::Debug for Parser<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parser")
            .field("cur", &self.cur)
            .field("errors", &self.errors)
            .finish_non_exhaustive()
    }
}

/// One `_`-separated part of a mnemonic.
#[derive(Debug, Clone, Copy)]
enum Part<'a> {
    /// A suffix and the byte offset of its leading `_`.
    Word(&'a str, u32),
    Align(u64),
    Width(u8),
    Equiv(u64),
}

/// Category of a mnemonic suffix (for the order check).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cat {
    Vector,
    Segment,
    Align,
    Const,
    Equiv,
    Width,
    Ftz,
    Round,
    Pack,
    Type,
    Order,
    Scope,
    Geometry,
    Query,
    NoNull,
}

impl Cat {
    fn name(self) -> &'static str {
        match self {
            Cat::Vector => "vector",
            Cat::Segment => "segment",
            Cat::Align => "align",
            Cat::Const => "const",
            Cat::Equiv => "equiv",
            Cat::Width => "width",
            Cat::Ftz => "ftz",
            Cat::Round => "rounding",
            Cat::Pack => "packing",
            Cat::Type => "type",
            Cat::Order => "memory order",
            Cat::Scope => "memory scope",
            Cat::Geometry => "geometry",
            Cat::Query => "query",
            Cat::NoNull => "nonull",
        }
    }
}

/// The suffixes of one mnemonic, without heap allocation.
#[derive(Debug, Clone, Copy)]
struct Parts<'a> {
    items: [Part<'a>; 16],
    len: usize,
}

impl Default for Parts<'_> {
    fn default() -> Self {
        Parts {
            items: [Part::Align(0); 16],
            len: 0,
        }
    }
}

impl<'a> Parts<'a> {
    fn push(&mut self, p: Part<'a>) -> bool {
        if self.len == self.items.len() {
            return false;
        }
        self.items[self.len] = p;
        self.len += 1;
        true
    }
    fn pop(&mut self) -> Option<Part<'a>> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len])
    }
    fn as_slice(&self) -> &[Part<'a>] {
        &self.items[..self.len]
    }
}

fn err<T>(message: impl Into<String>, span: Span) -> PResult<T> {
    Err(SyntaxError {
        message: message.into(),
        span,
    })
}

// Suffix and keyword spellings come from the one table in `ops::names`,
// shared with the printer.

fn segment_of(s: &str) -> Option<u8> {
    names::segment::from_text(s).map(brig::BrigSegment::raw)
}

/// The text name of a segment number (`""` if unknown).
fn segment_name(s: u8) -> &'static str {
    names::segment::text(brig::BrigSegment::new(s)).unwrap_or("")
}

fn round_of(s: &str) -> Option<u8> {
    names::round::from_text(s).map(brig::BrigRound::raw)
}

fn pack_of(s: &str) -> Option<u8> {
    names::pack::from_text(s).map(brig::BrigPack::raw)
}

fn compare_of(s: &str) -> Option<u8> {
    names::compare::from_text(s).map(brig::BrigCompareOperation::raw)
}

fn atomic_of(s: &str) -> Option<u8> {
    names::atomic::from_text(s).map(brig::BrigAtomicOperation::raw)
}

fn order_of(s: &str) -> Option<u8> {
    names::memory_order::from_text(s).map(brig::BrigMemoryOrder::raw)
}

fn scope_of(s: &str) -> Option<u8> {
    names::memory_scope::from_text(s).map(brig::BrigMemoryScope::raw)
}

fn geometry_of(s: &str) -> Option<u8> {
    names::geometry::from_text(s).map(brig::BrigImageGeometry::raw)
}

fn image_query_of(s: &str) -> Option<u8> {
    names::image_query::from_text(s).map(brig::BrigImageQuery::raw)
}

fn sampler_query_of(s: &str) -> Option<u8> {
    names::sampler_query::from_text(s).map(brig::BrigSamplerQuery::raw)
}

fn channel_order_of(s: &str) -> Option<u8> {
    names::channel_order::from_text(s).map(brig::BrigImageChannelOrder::raw)
}

fn channel_type_of(s: &str) -> Option<u8> {
    names::channel_type::from_text(s).map(brig::BrigImageChannelType::raw)
}

fn coord_of(s: &str) -> Option<u8> {
    names::sampler_coord::from_text(s).map(brig::BrigSamplerCoordNormalization::raw)
}

fn filter_of(s: &str) -> Option<u8> {
    names::sampler_filter::from_text(s).map(brig::BrigSamplerFilter::raw)
}

fn addressing_of(s: &str) -> Option<u8> {
    names::sampler_addressing::from_text(s).map(brig::BrigSamplerAddressing::raw)
}

/// Control directive names and their BRIG values.
pub fn control_of(s: &str) -> Option<u16> {
    names::control::from_text(s).map(brig::BrigControlDirective::raw)
}

/// BRIG_ALIGNMENT value for a byte count.
fn align_of(n: u64) -> Option<u8> {
    let n = u16::try_from(n).ok()?;
    if !n.is_power_of_two() {
        return None;
    }
    names::align::from_text(&n.to_string()).map(brig::BrigAlignment::raw)
}

/// Parse an integer literal text (decimal, octal with leading 0, hex).
pub fn parse_int(text: &str) -> Option<u64> {
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        u64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse::<u64>().ok()
    }
}

/// Parse a C99 hexadecimal float (`0x1.8p3`) into (mantissa, binary exponent).
fn parse_hex_float(text: &str) -> Option<(u128, i32)> {
    let t = text.get(2..)?;
    let (mant, exp) = t.split_once(['p', 'P'])?;
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    let mut m: u128 = 0;
    let mut e: i32 = exp.parse().ok()?;
    let mut sticky = false;
    for c in ip.chars().chain(fp.chars()) {
        let d = c.to_digit(16)? as u128;
        if m >> 120 != 0 {
            // Too many digits: drop low ones (keep a sticky bit).
            sticky |= d != 0;
            e = e.checked_add(4)?;
        } else {
            m = m * 16 + d;
        }
    }
    e = e.checked_sub(i32::try_from(fp.len()).ok()?.checked_mul(4)?)?;
    if sticky {
        m |= 1;
    }
    Some((m, e))
}

fn hex_float_f64(text: &str) -> Option<f64> {
    let (m, e) = parse_hex_float(text)?;
    Some(scale(m as f64, e))
}

fn hex_float_f32(text: &str) -> Option<f32> {
    let (m, e) = parse_hex_float(text)?;
    // Round the mantissa once to f32, then scale exactly by a power of two.
    Some(scale(m as f32 as f64, e) as f32)
}

fn scale(mut v: f64, mut e: i32) -> f64 {
    while e > 0 {
        let s = e.min(1000);
        v *= 2f64.powi(s);
        e -= s;
    }
    while e < 0 {
        let s = (-e).min(1000);
        v /= 2f64.powi(s);
        e += s;
    }
    v
}

/// Round an `f64` to IEEE half precision bits (nearest even).
pub fn f64_to_f16_bits(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & 0x000f_ffff_ffff_ffff;
    if exp == 0x7ff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 1023 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let full = mant | (1u64 << 52);
    let (m, shift) = if e <= 0 {
        if e < -10 {
            return sign;
        }
        (full, (42 + 1 - e) as u32)
    } else {
        (full, 42)
    };
    let mut r = (m >> shift) as u32;
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rem > half || (rem == half && r & 1 == 1) {
        r += 1;
    }
    if e <= 0 {
        sign | r as u16
    } else {
        // r includes the implicit bit (11 bits); carry may bump the exponent.
        let v = ((e as u32) << 10) + (r - 0x400);
        if v >= 0x7c00 {
            sign | 0x7c00
        } else {
            sign | v as u16
        }
    }
}

impl<'a> Parser<'a> {
    fn tok(&self) -> Token {
        self.cur
    }
    fn peek(&self) -> Tok {
        self.tok().kind
    }
    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }
    fn cur_text(&self) -> &'a str {
        self.text(self.tok())
    }
    fn span(&self) -> Span {
        let t = self.tok();
        Span::new(t.start, t.end)
    }
    #[inline]
    fn bump(&mut self) -> Token {
        let t = self.cur;
        if t.kind != Tok::Eof {
            self.prev_end = t.end;
            self.cur = scan(&mut self.lexer);
            self.pos += 1;
            if self.cur.start == t.end && has_alnum(t.kind) && has_alnum(self.cur.kind) {
                self.not_separated(t);
            }
        }
        t
    }

    /// PRM 4.4: `t` and the token after it, both of kinds that can hold
    /// letters or digits, touch: an error unless they spell one image
    /// geometry name (`2d`, which the lexer splits). Rare, so out of the
    /// hot [`bump`](Self::bump).
    #[cold]
    #[inline(never)]
    fn not_separated(&mut self, t: Token) {
        if t.kind == Tok::Int && is_geometry(&self.src[t.start as usize..self.cur.end as usize]) {
            return;
        }
        self.errors.push(SyntaxError {
            message:
                "PRM 4.4: white space is required between tokens that can include letters or digits"
                    .into(),
            span: Span::new(self.cur.start, self.cur.end),
        });
    }

    fn prev_end(&self) -> u32 {
        self.prev_end
    }
    fn eat(&mut self, k: Tok) -> bool {
        if self.peek() == k {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, k: Tok, what: &str) -> PResult<Token> {
        if self.peek() == k {
            Ok(self.bump())
        } else {
            self.unexpected(what)
        }
    }
    fn unexpected<T>(&self, what: &str) -> PResult<T> {
        Err(self.unexpected_error(what))
    }
    fn unexpected_error(&self, what: &str) -> SyntaxError {
        let t = self.tok();
        let (message, span) = match t.kind {
            Tok::Eof => (
                format!("expected {what}, found end of input"),
                Span::new(t.start, t.end),
            ),
            Tok::UnterminatedComment => {
                let end = self.src.len() as u32;
                ("Premature end of comment".into(), Span::new(end, end))
            }
            Tok::UnterminatedStr => ("Runaway string literal".into(), Span::new(t.end, t.end)),
            Tok::Error => (
                format!("invalid character, expected {what}"),
                Span::new(t.start, t.end),
            ),
            _ => (
                format!("expected {what}, found `{}`", self.text(t)),
                Span::new(t.start, t.end),
            ),
        };
        SyntaxError { message, span }
    }
    fn is_word(&self, w: &str) -> bool {
        self.peek() == Tok::Word && self.cur_text() == w
    }
    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect_word(&mut self, w: &str) -> PResult<Token> {
        if self.is_word(w) {
            Ok(self.bump())
        } else {
            self.unexpected(&format!("`{w}`"))
        }
    }

    /// Skip to just after the next `;` (or to a `}`), for error recovery.
    fn recover(&mut self, start: usize) {
        if self.pos == start {
            self.bump();
        }
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Semi => {
                    self.bump();
                    return;
                }
                Tok::RCurl => {
                    self.bump();
                    self.eat(Tok::Semi);
                    return;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn read_int(&mut self) -> PResult<u64> {
        let t = self.expect(Tok::Int, "integer constant")?;
        match parse_int(self.text(t)) {
            Some(v) => Ok(v),
            None => err("integer constant out of range", Span::new(t.start, t.end)),
        }
    }

    fn comment(&mut self) -> Comment<'a> {
        let t = self.bump();
        Comment {
            text: self.text(t),
            span: Span::new(t.start, t.end),
        }
    }

    fn top_level(&mut self) -> PResult<Item<'a>> {
        match self.peek() {
            Tok::LineComment | Tok::BlockComment => return Ok(Item::Comment(self.comment())),
            Tok::Word => {}
            _ => return self.unexpected("a module statement"),
        }
        let w = self.cur_text();
        match w {
            "module" => return self.module_header().map(Item::Module),
            "extension" => return self.extension().map(Item::Extension),
            "pragma" => return self.pragma().map(Item::Pragma),
            "loc" => return self.loc().map(Item::Loc),
            _ => {}
        }
        if control_of(w).is_some() {
            return self.control().map(Item::Control);
        }
        let start = self.tok().start;
        let decl = self.eat_word("decl");
        let linkage = if self.eat_word("prog") {
            Some(1u8)
        } else {
            None
        };
        let indirect = self.eat_word("indirect");
        if indirect {
            // PRM 4.3.3: `indirect` qualifies only a function.
            if !self.is_word("function") {
                return err(
                    "PRM 4.3.3: `indirect` qualifies only a function",
                    self.span(),
                );
            }
            return self
                .executable(ExeKind::IndirectFunction, decl, linkage, start)
                .map(Item::Executable);
        }
        match self.cur_text() {
            "function" if self.peek() == Tok::Word => self
                .executable(ExeKind::Function, decl, linkage, start)
                .map(Item::Executable),
            "kernel" if self.peek() == Tok::Word => self
                .executable(ExeKind::Kernel, decl, linkage, start)
                .map(Item::Executable),
            "signature" if decl || linkage.is_some() => err(
                "PRM 4.3.10: decl and prog do not apply to a signature",
                self.span(),
            ),
            "signature" if self.peek() == Tok::Word => self
                .executable(ExeKind::Signature, decl, linkage, start)
                .map(Item::Executable),
            "fbarrier" if self.peek() == Tok::Word => self
                .fbarrier(decl, linkage, start, true)
                .map(Item::Fbarrier),
            _ => {
                if self.is_variable_start() {
                    let v = self.variable(decl, linkage, true, start)?;
                    self.expect(Tok::Semi, "`;`")?;
                    Ok(Item::Variable(v))
                } else {
                    self.unexpected("a module statement")
                }
            }
        }
    }

    fn is_variable_start(&self) -> bool {
        if self.peek() != Tok::Word {
            return false;
        }
        let w = self.cur_text();
        if matches!(w, "const" | "align" | "alloc") {
            return true;
        }
        match w.split_once('_') {
            Some((seg, _)) => segment_of(seg).is_some(),
            None => false,
        }
    }

    fn module_header(&mut self) -> PResult<ModuleHeader<'a>> {
        let start = self.bump().start;
        let nt = self.expect(Tok::Global, "module name")?;
        let name = Name {
            text: self.text(nt),
            span: Span::new(nt.start, nt.end),
        };
        self.expect(Tok::Colon, "`:`")?;
        let major = self.read_u32("major version")?;
        self.expect(Tok::Colon, "`:`")?;
        let minor = self.read_u32("minor version")?;
        self.expect(Tok::Colon, "`:`")?;
        let (word, span) = self.dollar_word()?;
        let Some(profile) = names::profile::from_text(word) else {
            return err("profile expected ($base or $full)", span);
        };
        let profile = profile.raw();
        self.expect(Tok::Colon, "`:`")?;
        let (word, span) = self.dollar_word()?;
        let Some(machine_model) = names::machine_model::from_text(word) else {
            return err("machine model expected ($small or $large)", span);
        };
        let machine_model = machine_model.raw();
        self.expect(Tok::Colon, "`:`")?;
        // PRM 19.2: defaultFloatRounding is $default, $zero or $near.
        let (word, span) = self.dollar_word()?;
        let Some(default_round) = names::default_round::from_text(word) else {
            return err("default rounding expected ($default, $zero or $near)", span);
        };
        let default_round = default_round.raw();
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(ModuleHeader {
            name,
            major,
            minor,
            profile,
            machine_model,
            default_round,
            span: Span::new(start, end),
        })
    }

    /// A property value word (`geometry = 2d`), looked up in a spelling
    /// table; `invalid` is the error at the word when it is not there.
    fn spelled(&mut self, invalid: &str, lookup: fn(&str) -> Option<u8>) -> PResult<u8> {
        let (word, span) = self.glued_word()?;
        match lookup(&word) {
            Some(v) => Ok(v),
            None => err(invalid, span),
        }
    }

    fn read_u32(&mut self, what: &str) -> PResult<u32> {
        let s = self.span();
        let v = self.read_int()?;
        u32::try_from(v).or_else(|_| err(format!("invalid {what}"), s))
    }

    fn dollar_word(&mut self) -> PResult<(&'a str, Span)> {
        let t = self.expect(Tok::Dollar, "`$` keyword")?;
        Ok((self.text(t), Span::new(t.start, t.end)))
    }

    fn string_lit(&mut self) -> PResult<(Vec<u8>, Span)> {
        let first = self.expect(Tok::Str, "string")?;
        let mut out = Vec::new();
        let mut end = first.end;
        self.decode_string(first, &mut out)?;
        while self.peek() == Tok::Str {
            let t = self.bump();
            end = t.end;
            self.decode_string(t, &mut out)?;
        }
        Ok((out, Span::new(first.start, end)))
    }

    fn decode_string(&self, t: Token, out: &mut Vec<u8>) -> PResult<()> {
        let s = self.text(t);
        let b = s.as_bytes();
        let body = &b[1..b.len() - 1];
        let mut i = 0;
        while i < body.len() {
            let c = body[i];
            if c != b'\\' {
                out.push(c);
                i += 1;
                continue;
            }
            i += 1;
            let Some(&e) = body.get(i) else {
                return err("invalid escape sequence", Span::new(t.start, t.end));
            };
            match e {
                b'0'..=b'7' => {
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < 3 && i < body.len() && (b'0'..=b'7').contains(&body[i]) {
                        v = v * 8 + (body[i] - b'0') as u32;
                        i += 1;
                        n += 1;
                    }
                    if v > 255 {
                        return err("invalid character code", Span::new(t.start, t.end));
                    }
                    out.push(v as u8);
                    continue;
                }
                b'x' | b'X' => {
                    i += 1;
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < 2 && i < body.len() && body[i].is_ascii_hexdigit() {
                        v = v * 16 + (body[i] as char).to_digit(16).unwrap_or(0);
                        i += 1;
                        n += 1;
                    }
                    if n == 0 {
                        return err("invalid escape sequence", Span::new(t.start, t.end));
                    }
                    out.push(v as u8);
                    continue;
                }
                b'\\' => out.push(b'\\'),
                b'\'' => out.push(b'\''),
                b'"' => out.push(b'"'),
                b'?' => out.push(b'?'),
                b'a' => out.push(7),
                b'b' => out.push(8),
                b'f' => out.push(6), // HSAILasm writes `\f` as 6
                b'n' => out.push(10),
                b'r' => out.push(13),
                b't' => out.push(9),
                b'v' => out.push(11),
                _ => return err("invalid escape sequence", Span::new(t.start, t.end)),
            }
            i += 1;
        }
        Ok(())
    }

    fn extension(&mut self) -> PResult<Extension> {
        let start = self.bump().start;
        let (name, _) = self.string_lit()?;
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Extension {
            name,
            span: Span::new(start, end),
        })
    }

    fn loc(&mut self) -> PResult<Loc> {
        let start = self.bump().start;
        let line = self.read_u32("source line")?;
        let column = if self.peek() == Tok::Int {
            self.read_u32("source column")?
        } else {
            1
        };
        let file = if self.peek() == Tok::Str {
            Some(self.string_lit()?.0)
        } else {
            None
        };
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Loc {
            line,
            column,
            file,
            span: Span::new(start, end),
        })
    }

    fn control(&mut self) -> PResult<Control> {
        let t = self.bump();
        let control = control_of(self.text(t)).unwrap_or(0);
        let mut values = Vec::new();
        if self.peek() != Tok::Semi {
            loop {
                let s = self.span();
                if self.eat_word("WAVESIZE") {
                    values.push((None, s));
                } else {
                    values.push((Some(self.read_int()?), s));
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Control {
            control,
            values,
            span: Span::new(t.start, end),
        })
    }

    fn pragma(&mut self) -> PResult<Pragma<'a>> {
        let start = self.bump().start;
        let mut operands = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Str => {
                    let (s, sp) = self.string_lit()?;
                    Operand::Str(s, sp)
                }
                Tok::Global | Tok::Local => {
                    let t = self.bump();
                    Operand::Ident(Name {
                        text: self.text(t),
                        span: Span::new(t.start, t.end),
                    })
                }
                Tok::Label => {
                    let t = self.bump();
                    Operand::Label(Name {
                        text: self.text(t),
                        span: Span::new(t.start, t.end),
                    })
                }
                Tok::Dollar => Operand::Reg(self.register()?),
                Tok::LCurl => {
                    let (a, s) = self.aggregate()?;
                    Operand::Aggregate(a, s)
                }
                Tok::Word if self.cur_text() == "WAVESIZE" => {
                    Operand::WaveSize(Span::new(self.bump().start, self.prev_end()))
                }
                Tok::Word if self.opaque_type().is_some() => {
                    let s = self.span();
                    Operand::Opaque(self.opaque()?, s)
                }
                _ => Operand::Imm(self.imm()?),
            };
            operands.push(op);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Pragma {
            operands,
            span: Span::new(start, end),
        })
    }

    fn executable(
        &mut self,
        kind: ExeKind,
        decl: bool,
        linkage: Option<u8>,
        start: u32,
    ) -> PResult<Executable<'a>> {
        self.bump(); // keyword
        let nt = self.expect(Tok::Global, "a global name")?;
        let name = Name {
            text: self.text(nt),
            span: Span::new(nt.start, nt.end),
        };
        let named = kind != ExeKind::Signature;
        let mut out_args = Vec::new();
        if matches!(
            kind,
            ExeKind::Function | ExeKind::IndirectFunction | ExeKind::Signature
        ) {
            out_args = self.formal_args(named)?;
        }
        let in_args = self.formal_args(named)?;
        // A definition stops after the `{` of its body: [`Items`] reads the
        // statements one by one.
        let (body, end) = if kind != ExeKind::Signature && !decl {
            (Some(Vec::new()), self.expect(Tok::LCurl, "`{`")?.end)
        } else {
            (None, self.expect(Tok::Semi, "`;`")?.end)
        };
        Ok(Executable {
            kind,
            decl,
            linkage,
            name,
            out_args,
            in_args,
            body,
            span: Span::new(start, end),
        })
    }

    fn formal_args(&mut self, named: bool) -> PResult<Vec<Variable<'a>>> {
        self.expect(Tok::LParen, "`(`")?;
        let mut args = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(args);
        }
        loop {
            let start = self.tok().start;
            args.push(self.variable_inner(false, None, named, false, start)?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "`)`")?;
        Ok(args)
    }

    /// Statements up to and including the closing `}`.
    fn statements(&mut self, stmts: &mut Vec<Stmt<'a>>, depth: u32) -> PResult<()> {
        loop {
            match self.peek() {
                Tok::RCurl => {
                    self.bump();
                    return Ok(());
                }
                Tok::Eof => return self.unexpected("`}`"),
                _ => {}
            }
            let start = self.pos;
            match self.body_statement(depth) {
                Ok(s) => stmts.push(s),
                Err(e) => {
                    self.errors.push(e);
                    if self.errors.len() > 100 {
                        return err("too many errors", self.span());
                    }
                    self.skip_statement(start);
                }
            }
        }
    }

    /// After an error in the statement that started at token `start`: skip
    /// to the next `;`, but stop before a `}` so the block still closes.
    fn skip_statement(&mut self, start: usize) {
        if self.pos == start {
            self.bump();
        }
        loop {
            match self.peek() {
                Tok::Eof | Tok::RCurl => break,
                Tok::Semi => {
                    self.bump();
                    break;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn body_statement(&mut self, depth: u32) -> PResult<Stmt<'a>> {
        match self.peek() {
            Tok::LineComment | Tok::BlockComment => Ok(Stmt::Comment(self.comment())),
            Tok::Label => {
                let t = self.bump();
                self.expect(Tok::Colon, "`:`")?;
                Ok(Stmt::Label(Name {
                    text: self.text(t),
                    span: Span::new(t.start, t.end),
                }))
            }
            Tok::LCurl => {
                if depth > 0 {
                    return err("nested argument scope is not allowed", self.span());
                }
                let start = self.bump().start;
                let mut stmts = Vec::new();
                self.statements(&mut stmts, depth + 1)?;
                Ok(Stmt::ArgBlock(ArgBlock {
                    stmts,
                    span: Span::new(start, self.prev_end()),
                }))
            }
            Tok::Word => {
                let w = self.cur_text();
                // A mnemonic decoded before (the common case) is no keyword.
                if let Some(&known) = self.mnemonics.get(w) {
                    let start = self.bump().start;
                    return self.instruction_rest(start, known).map(Stmt::Inst);
                }
                match w {
                    "pragma" => return self.pragma().map(Stmt::Pragma),
                    "loc" => return self.loc().map(Stmt::Loc),
                    "fbarrier" => {
                        let s = self.tok().start;
                        return self.fbarrier(false, None, s, false).map(Stmt::Fbarrier);
                    }
                    _ => {}
                }
                if control_of(w).is_some() {
                    return self.control().map(Stmt::Control);
                }
                if self.is_variable_start() {
                    let s = self.tok().start;
                    let v = self.variable_inner(false, None, true, false, s)?;
                    self.expect(Tok::Semi, "`;`")?;
                    return Ok(Stmt::Variable(v));
                }
                self.instruction().map(Stmt::Inst)
            }
            _ => self.unexpected("a statement"),
        }
    }

    fn fbarrier(
        &mut self,
        decl: bool,
        linkage: Option<u8>,
        start: u32,
        global: bool,
    ) -> PResult<Fbarrier<'a>> {
        self.bump();
        let nt = if global {
            self.expect(Tok::Global, "a global name")?
        } else {
            self.expect(Tok::Local, "a local name")?
        };
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Fbarrier {
            decl,
            linkage,
            name: Name {
                text: self.text(nt),
                span: Span::new(nt.start, nt.end),
            },
            span: Span::new(start, end),
        })
    }

    fn variable(
        &mut self,
        decl: bool,
        linkage: Option<u8>,
        global: bool,
        start: u32,
    ) -> PResult<Variable<'a>> {
        self.variable_inner(decl, linkage, true, global, start)
    }

    fn variable_inner(
        &mut self,
        decl: bool,
        linkage: Option<u8>,
        name_required: bool,
        global: bool,
        start: u32,
    ) -> PResult<Variable<'a>> {
        let mut alloc_agent = false;
        let mut align = None;
        if self.eat_word("alloc") {
            self.expect(Tok::LParen, "`(`")?;
            self.expect_word("agent")?;
            self.expect(Tok::RParen, "`)`")?;
            alloc_agent = true;
        }
        if self.eat_word("align") {
            self.expect(Tok::LParen, "`(`")?;
            let s = self.span();
            let n = self.read_int()?;
            align = Some(align_of(n).ok_or_else(|| SyntaxError {
                message: "invalid alignment".into(),
                span: s,
            })?);
            self.expect(Tok::RParen, "`)`")?;
        }
        let is_const = self.eat_word("const");
        if self.peek() != Tok::Word {
            return self.unexpected("variable segment");
        }
        let wt = self.bump();
        let w = self.text(wt);
        let wspan = Span::new(wt.start, wt.end);
        let Some((seg, ty)) = w.split_once('_') else {
            return err("variable segment expected", wspan);
        };
        let Some(segment) = segment_of(seg) else {
            return err("variable segment expected", wspan);
        };
        let Some(ty) = types::from_name(ty) else {
            return err("variable type expected", wspan);
        };
        if alloc_agent && !matches!(segment_name(segment), "global" | "readonly") {
            return err(
                "PRM 4.3.10: alloc applies only to global segment variables",
                wspan,
            );
        }
        let name = if name_required {
            let nt = if global {
                self.expect(Tok::Global, "a global name")?
            } else {
                self.expect(Tok::Local, "a local name")?
            };
            Some(Name {
                text: self.text(nt),
                span: Span::new(nt.start, nt.end),
            })
        } else if self.peek() == Tok::Local {
            let nt = self.bump();
            Some(Name {
                text: self.text(nt),
                span: Span::new(nt.start, nt.end),
            })
        } else {
            None
        };
        let mut dim = None;
        if self.eat(Tok::LBrack) {
            if self.eat(Tok::RBrack) {
                dim = Some(None);
            } else {
                let s = self.span();
                let n = self.read_int()?;
                if n == 0 {
                    return err("arrays must have dim > 0", s);
                }
                self.expect(Tok::RBrack, "`]`")?;
                dim = Some(Some(n));
            }
        }
        let mut init = None;
        if self.eat(Tok::Equal) {
            init = Some(match self.peek() {
                Tok::LCurl => {
                    let (a, s) = self.aggregate()?;
                    Init::Aggregate(a, s)
                }
                Tok::Word if self.opaque_type().is_some() => {
                    let s = self.span();
                    Init::Opaque(self.opaque()?, s)
                }
                _ => Init::Imm(self.imm()?),
            });
        }
        Ok(Variable {
            decl,
            linkage,
            alloc_agent,
            align,
            is_const,
            segment,
            ty,
            name,
            dim,
            init,
            span: Span::new(start, self.prev_end()),
        })
    }

    fn opaque_type(&self) -> Option<u16> {
        if self.peek() != Tok::Word {
            return None;
        }
        match self.cur_text() {
            "rwimg" => Some(types::RWIMG),
            "roimg" => Some(types::ROIMG),
            "woimg" => Some(types::WOIMG),
            "samp" => Some(types::SAMP),
            _ => None,
        }
    }

    fn opaque(&mut self) -> PResult<Opaque> {
        let ty = self.opaque_type().unwrap_or(types::SAMP);
        let keyword = self.span();
        self.bump();
        if self.eat(Tok::LBrack) {
            self.expect(Tok::RBrack, "`]`")?;
            self.expect(Tok::LParen, "`(`")?;
            let mut elems = Vec::new();
            loop {
                let s = self.span();
                if self.opaque_type() != Some(ty) {
                    return err(format!("{} constant expected", types::name(ty)), s);
                }
                self.bump();
                elems.push(self.opaque_props(ty, s)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "`)`")?;
            Ok(Opaque {
                ty,
                array: true,
                elems,
            })
        } else {
            let p = self.opaque_props(ty, keyword)?;
            Ok(Opaque {
                ty,
                array: false,
                elems: vec![p],
            })
        }
    }

    /// A word possibly glued to a leading number (`2d`, `1da`).
    fn glued_word(&mut self) -> PResult<(String, Span)> {
        let t = self.bump();
        let mut s = self.text(t).to_string();
        let mut end = t.end;
        while matches!(self.peek(), Tok::Word | Tok::Int) && self.tok().start == end {
            let n = self.bump();
            s.push_str(self.text(n));
            end = n.end;
        }
        Ok((s, Span::new(t.start, end)))
    }

    /// Properties `( name = value, … )` after the type keyword at `keyword`.
    fn opaque_props(&mut self, ty: u16, keyword: Span) -> PResult<OpaqueProps> {
        let mut p = OpaqueProps {
            ty,
            geometry: 255,
            channel_order: 255,
            channel_type: 255,
            ..Default::default()
        };
        if ty == types::SAMP {
            p.coord = 255;
            p.filter = 255;
            p.addressing = 255;
        }
        self.expect(Tok::LParen, "`(`")?;
        // Each property is given once (PRM 7.1.7, 7.1.8 list each once).
        let mut seen: Vec<&str> = Vec::new();
        loop {
            let kt = self.expect(Tok::Word, "property name")?;
            let key = self.text(kt);
            let ks = Span::new(kt.start, kt.end);
            if seen.contains(&key) {
                return err(format!("PRM 7.1.7: {key} is already set"), ks);
            }
            seen.push(key);
            self.expect(Tok::Equal, "`=`")?;
            match (ty == types::SAMP, key) {
                (false, "width") => p.width = self.read_int()?,
                (false, "height") => p.height = self.read_int()?,
                (false, "depth") => p.depth = self.read_int()?,
                (false, "array") => p.array = self.read_int()?,
                (false, "geometry") => {
                    p.geometry = self.spelled("invalid image geometry", geometry_of)?
                }
                (false, "channel_order") => {
                    p.channel_order = self.spelled("invalid channel order", channel_order_of)?;
                }
                (false, "channel_type") => {
                    p.channel_type = self.spelled("invalid channel type", channel_type_of)?;
                }
                (true, "coord") => p.coord = self.spelled("invalid coord value", coord_of)?,
                (true, "filter") => p.filter = self.spelled("invalid filter value", filter_of)?,
                (true, "addressing") => {
                    p.addressing = self.spelled("invalid addressing value", addressing_of)?;
                }
                _ => return err("invalid property name", ks),
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let close = self.expect(Tok::RParen, "`)`")?;
        let close = Span::new(close.start, close.end);
        // The completeness checks HSAILasm makes, at its positions: image
        // errors at the type keyword, sampler errors at the `)`.
        if ty == types::SAMP {
            for (v, what) in [
                (p.addressing, "addressing"),
                (p.coord, "coord"),
                (p.filter, "filter"),
            ] {
                if v == 255 {
                    return err(format!("{what} value missing"), close);
                }
            }
            return Ok(p);
        }
        let missing = |what: &str| err(format!("Missing image {what}"), keyword);
        if p.geometry == 255 {
            return missing("geometry");
        }
        if p.channel_order == 255 {
            return missing("channel order");
        }
        if p.channel_type == 255 {
            return missing("channel type");
        }
        if p.width == 0 {
            return missing("width");
        }
        // Geometry numbers: 1d 0, 2d 1, 3d 2, 1da 3, 2da 4, 1db 5,
        // 2ddepth 6, 2dadepth 7.
        let g = p.geometry;
        let cannot = |what: &str| {
            err(
                format!("Image {what} cannot be specified for this image geometry"),
                keyword,
            )
        };
        if matches!(g, 1 | 2 | 4 | 6 | 7) {
            if p.height == 0 {
                return missing("height");
            }
        } else if p.height > 0 {
            return cannot("height");
        }
        if g == 2 {
            if p.depth == 0 {
                return missing("depth");
            }
        } else if p.depth > 0 {
            return cannot("depth");
        }
        if matches!(g, 3 | 4 | 7) {
            if p.array == 0 {
                return missing("array");
            }
        } else if p.array > 0 {
            return cannot("array");
        }
        Ok(p)
    }

    fn aggregate(&mut self) -> PResult<(Vec<AggElem<'a>>, Span)> {
        let start = self.expect(Tok::LCurl, "`{`")?.start;
        let mut elems = Vec::new();
        loop {
            if self.is_word("align") {
                let s = self.bump().start;
                self.expect(Tok::LParen, "`(`")?;
                let ns = self.span();
                let n = self.read_int()?;
                let a = align_of(n).ok_or_else(|| SyntaxError {
                    message: "invalid alignment".into(),
                    span: ns,
                })?;
                self.expect(Tok::RParen, "`)`")?;
                elems.push(AggElem::Align(a, Span::new(s, self.prev_end())));
            } else if self.opaque_type().is_some() {
                let s = self.span();
                elems.push(AggElem::Opaque(self.opaque()?, s));
            } else {
                elems.push(AggElem::Imm(self.imm()?));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::RCurl, "`}`")?.end;
        Ok((elems, Span::new(start, end)))
    }

    /// A constant: optional sign, then a number or a typed constant.
    fn imm(&mut self) -> PResult<Imm<'a>> {
        if self.depth >= 4 {
            return err("constant nested too deeply", self.span());
        }
        self.depth += 1;
        let r = self.imm_inner();
        self.depth -= 1;
        r
    }

    fn imm_inner(&mut self) -> PResult<Imm<'a>> {
        let start = self.tok().start;
        let mut neg = false;
        if self.peek() == Tok::Minus || self.peek() == Tok::Plus {
            neg = self.bump().kind == Tok::Minus;
        }
        let t = self.tok();
        let text = self.text(t);
        let value = match t.kind {
            Tok::Int => {
                self.bump();
                match parse_int(text) {
                    Some(v) => ImmValue::Int(v),
                    None => return err("integer constant out of range", Span::new(t.start, t.end)),
                }
            }
            Tok::F16 => {
                self.bump();
                ImmValue::F16(self.f16_bits(t)?)
            }
            Tok::F32 => {
                self.bump();
                ImmValue::F32(self.f32_bits(t)?)
            }
            Tok::F64 => {
                self.bump();
                ImmValue::F64(self.f64_bits(t)?)
            }
            Tok::Word => {
                // A typed constant starts with its type name: no `_`
                // prefix (ch. 19 `typedConstant`; HSAILasm rejects `_u32(1)`
                // although a PRM 4.17 example writes `_f16x2(…)`).
                let Some(ty) = types::from_name(text) else {
                    return err("constant value expected", Span::new(t.start, t.end));
                };
                if types::is_bit(ty) {
                    return err(
                        "PRM 4.8.3: there are no bit typed constants",
                        Span::new(t.start, t.end),
                    );
                }
                self.bump();
                if self.eat(Tok::LBrack) {
                    self.expect(Tok::RBrack, "`]`")?;
                    self.expect(Tok::LParen, "`(`")?;
                    let mut elems = Vec::new();
                    loop {
                        elems.push(self.imm()?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen, "`)`")?;
                    ImmValue::Array(ty, elems)
                } else {
                    // A packed constant has exactly one element per lane.
                    self.expect(Tok::LParen, "`(`")?;
                    let lanes = (types::size_bits(ty)
                        / types::size_bits(ty & types::BASE_MASK).max(1))
                    .clamp(1, 16) as usize;
                    let mut elems = Vec::with_capacity(lanes);
                    for k in 0..lanes {
                        if k > 0 {
                            self.expect(Tok::Comma, "`,`")?;
                        }
                        elems.push(self.imm()?);
                    }
                    self.expect(Tok::RParen, "`)`")?;
                    ImmValue::Typed(ty, elems)
                }
            }
            _ => return self.unexpected("constant value"),
        };
        Ok(Imm {
            neg,
            value,
            span: Span::new(start, self.prev_end()),
        })
    }

    fn f16_bits(&self, t: Token) -> PResult<u16> {
        let s = self.text(t);
        let sp = Span::new(t.start, t.end);
        if s.len() == 6 && (s.starts_with("0h") || s.starts_with("0H")) {
            return u16::from_str_radix(&s[2..], 16).or_else(|_| err("invalid f16 constant", sp));
        }
        let body = &s[..s.len() - 1];
        let v = if body.starts_with("0x") || body.starts_with("0X") {
            hex_float_f64(body)
        } else {
            body.parse::<f64>().ok()
        };
        match v {
            Some(v) => Ok(f64_to_f16_bits(v)),
            None => err("invalid f16 constant", sp),
        }
    }

    fn f32_bits(&self, t: Token) -> PResult<u32> {
        let s = self.text(t);
        let sp = Span::new(t.start, t.end);
        if s.len() == 10 && (s.starts_with("0f") || s.starts_with("0F")) {
            return u32::from_str_radix(&s[2..], 16).or_else(|_| err("invalid f32 constant", sp));
        }
        let body = &s[..s.len() - 1];
        let v = if body.starts_with("0x") || body.starts_with("0X") {
            hex_float_f32(body)
        } else {
            body.parse::<f32>().ok()
        };
        match v {
            Some(v) => Ok(v.to_bits()),
            None => err("invalid f32 constant", sp),
        }
    }

    fn f64_bits(&self, t: Token) -> PResult<u64> {
        let s = self.text(t);
        let sp = Span::new(t.start, t.end);
        if s.len() == 18 && (s.starts_with("0d") || s.starts_with("0D")) {
            return u64::from_str_radix(&s[2..], 16).or_else(|_| err("invalid f64 constant", sp));
        }
        let body = s.strip_suffix(['d', 'D']).unwrap_or(s);
        let v = if body.starts_with("0x") || body.starts_with("0X") {
            hex_float_f64(body)
        } else {
            body.parse::<f64>().ok()
        };
        match v {
            Some(v) => Ok(v.to_bits()),
            None => err("invalid f64 constant", sp),
        }
    }

    fn register(&mut self) -> PResult<Reg> {
        let t = self.expect(Tok::Dollar, "register")?;
        let s = self.text(t);
        let sp = Span::new(t.start, t.end);
        let b = s.as_bytes();
        let kind = match b.get(1) {
            Some(b'c') => 0,
            Some(b's') => 1,
            Some(b'd') => 2,
            Some(b'q') => 3,
            _ => return err("invalid register", sp),
        };
        let digits = &b[2..];
        if digits.is_empty()
            || !digits.iter().all(u8::is_ascii_digit)
            || (digits.len() > 1 && digits[0] == b'0')
        {
            return err("invalid register", sp);
        }
        // At most five digits (`$s65535` is 7 bytes), at most 65535.
        let n = digits.iter().fold(0u32, |n, &d| {
            n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
        });
        match u16::try_from(n) {
            Ok(num) if s.len() <= 7 => Ok(Reg {
                kind,
                num,
                span: sp,
            }),
            _ => err("Invalid register number", sp),
        }
    }

    /// Collect the parts of a mnemonic (the word and any `(…)` arguments).
    fn mnemonic_parts(&mut self) -> PResult<(&'a str, Parts<'a>, Span)> {
        let t = self.bump();
        let word = self.text(t);
        let (op, mut rest, mut rest_at) = match word.bytes().position(|b| b == b'_') {
            Some(i) => (&word[..i], &word[i..], t.start + i as u32),
            None => (word, "", t.end),
        };
        let mut parts = Parts::default();
        let mut end = t.end;
        loop {
            // Split `rest` (which starts with `_` or is empty) into words.
            let mut last_param: Option<&str> = None;
            let mut at = rest_at;
            // `rest` is `_a_b_c`: each `_` starts a suffix.
            let bytes = rest.as_bytes();
            let mut i = 1;
            while i <= bytes.len() && !rest.is_empty() {
                let len = bytes[i..]
                    .iter()
                    .position(|&b| b == b'_')
                    .unwrap_or(bytes.len() - i);
                let w = &rest[i..i + len];
                if !parts.push(Part::Word(w, at)) {
                    return err("too many instruction suffixes", Span::new(at, at + 1));
                }
                at += w.len() as u32 + 1;
                last_param = Some(w);
                i += len + 1;
            }
            let wants_arg = matches!(last_param, Some("align" | "width" | "equiv"))
                && self.peek() == Tok::LParen
                && self.tok().start == end;
            if wants_arg {
                let which = match parts.pop() {
                    Some(Part::Word(w, _)) => w,
                    _ => "",
                };
                self.bump();
                let s = self.span();
                let part = match which {
                    "width" => {
                        if self.eat_word("all") {
                            Part::Width(34)
                        } else if self.eat_word("WAVESIZE") {
                            Part::Width(33)
                        } else {
                            let n = self.read_int()?;
                            if n == 0 || n > 2147483648 {
                                return err("Invalid width", s);
                            }
                            if n & (n - 1) != 0 {
                                return err("Width must be a power of two", s);
                            }
                            Part::Width(n.trailing_zeros() as u8 + 1)
                        }
                    }
                    "align" => {
                        let n = self.read_int()?;
                        if align_of(n).is_none() {
                            return err("Invalid alignment", s);
                        }
                        Part::Align(n)
                    }
                    _ => Part::Equiv(self.read_int()?),
                };
                parts.push(part);
                end = self.expect(Tok::RParen, "`)`")?.end;
                if self.peek() == Tok::Word
                    && self.tok().start == end
                    && self.cur_text().starts_with('_')
                {
                    let n = self.bump();
                    rest = self.text(n);
                    rest_at = n.start;
                    end = n.end;
                    continue;
                }
            }
            break;
        }
        Ok((op, parts, Span::new(t.start, end)))
    }

    /// The opcode and decoded suffixes of the mnemonic at the current
    /// token. A mnemonic that is one word without `(…)` arguments decodes
    /// the same wherever it is, so it is decoded once per spelling.
    fn mnemonic(&mut self) -> PResult<(&'static ops::OpInfo, Mnemonic)> {
        let word = self.cur_text();
        if let Some(&known) = self.mnemonics.get(word) {
            self.bump();
            return Ok(known);
        }
        let (op, parts, mspan) = self.mnemonic_parts()?;
        let Some(info) = ops::lookup(op) else {
            // HSAILasm reports this at the token after the mnemonic.
            let word = &self.src[mspan.start as usize..mspan.end as usize];
            return err(format!("Undefined instruction `{word}`"), self.span());
        };
        let m = decode_mnemonic(info, parts.as_slice(), mspan)?;
        let one_word = parts.as_slice().iter().all(|p| matches!(p, Part::Word(..)))
            && !matches!(
                parts.as_slice().last(),
                Some(Part::Word("align" | "width" | "equiv", _))
            );
        if one_word {
            self.mnemonics.insert(word, (info, m));
        }
        Ok((info, m))
    }

    fn instruction(&mut self) -> PResult<Inst<'a>> {
        let start = self.tok().start;
        let known = self.mnemonic()?;
        self.instruction_rest(start, known)
    }

    /// The operands and `;` of an instruction starting at `start`, whose
    /// mnemonic has been read.
    fn instruction_rest(
        &mut self,
        start: u32,
        (info, m): (&'static ops::OpInfo, Mnemonic),
    ) -> PResult<Inst<'a>> {
        let operands = match info.opcode {
            100..=102 => self.call_operands(info.opcode)?,
            86 => self.sbr_operands()?,
            _ => self.operands()?,
        };
        let end = self.expect(Tok::Semi, "`;`")?.end;
        Ok(Inst {
            mnemonic: m,
            operands,
            span: Span::new(start, end),
        })
    }

    fn operands(&mut self) -> PResult<Vec<Operand<'a>>> {
        if self.peek() == Tok::Semi {
            return Ok(Vec::new());
        }
        let mut ops = self
            .spare_operands
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(4));
        loop {
            ops.push(self.operand(true)?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        Ok(ops)
    }

    fn name_tok(&mut self) -> Name<'a> {
        let t = self.bump();
        Name {
            text: self.text(t),
            span: Span::new(t.start, t.end),
        }
    }

    fn operand(&mut self, allow_vector: bool) -> PResult<Operand<'a>> {
        match self.peek() {
            Tok::LBrack => self.bracket_operand(),
            Tok::LParen if allow_vector => {
                let start = self.bump().start;
                let mut elems = Vec::new();
                loop {
                    let s = self.span();
                    let o = self.operand(false)?;
                    if !matches!(o, Operand::Reg(_) | Operand::Imm(_) | Operand::WaveSize(_)) {
                        return err("register, wavesize or immediate constant value expected", s);
                    }
                    elems.push(o);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                    if elems.len() == 4 {
                        return err("vector cannot contain more than 4 elements", self.span());
                    }
                }
                let end = self.expect(Tok::RParen, "`)`")?.end;
                Ok(Operand::Vector(elems, Span::new(start, end)))
            }
            Tok::Dollar => Ok(Operand::Reg(self.register()?)),
            Tok::Global | Tok::Local => Ok(Operand::Ident(self.name_tok())),
            Tok::Label => Ok(Operand::Label(self.name_tok())),
            Tok::Word if self.cur_text() == "WAVESIZE" => {
                let t = self.bump();
                Ok(Operand::WaveSize(Span::new(t.start, t.end)))
            }
            Tok::Plus | Tok::Minus | Tok::Int | Tok::F16 | Tok::F32 | Tok::F64 | Tok::Word => {
                Ok(Operand::Imm(self.imm()?))
            }
            _ => self.unexpected("an operand"),
        }
    }

    fn bracket_operand(&mut self) -> PResult<Operand<'a>> {
        let start = self.expect(Tok::LBrack, "`[`")?.start;
        match self.peek() {
            Tok::RBrack => err("Invalid operand", self.span()),
            Tok::Label => {
                let n = self.name_tok();
                self.expect(Tok::RBrack, "`]`")?;
                Ok(Operand::Label(n))
            }
            Tok::Global | Tok::Local => {
                let n = self.name_tok();
                self.expect(Tok::RBrack, "`]`")?;
                let (mut reg, mut offset) = (None, 0);
                if self.eat(Tok::LBrack) {
                    (reg, offset) = self.address_body()?;
                    self.expect(Tok::RBrack, "`]`")?;
                }
                Ok(Operand::Address {
                    symbol: Some(n),
                    reg,
                    offset,
                    span: Span::new(start, self.prev_end()),
                })
            }
            _ => {
                let (reg, offset) = self.address_body()?;
                self.expect(Tok::RBrack, "`]`")?;
                Ok(Operand::Address {
                    symbol: None,
                    reg,
                    offset,
                    span: Span::new(start, self.prev_end()),
                })
            }
        }
    }

    fn address_body(&mut self) -> PResult<(Option<Reg>, i64)> {
        match self.peek() {
            Tok::Dollar => {
                let r = self.register()?;
                let off = match self.peek() {
                    Tok::Plus => {
                        self.bump();
                        self.read_int()? as i64
                    }
                    Tok::Minus => {
                        self.bump();
                        (self.read_int()? as i64).wrapping_neg()
                    }
                    _ => 0,
                };
                Ok((Some(r), off))
            }
            Tok::Plus => {
                self.bump();
                Ok((None, self.read_int()? as i64))
            }
            Tok::Minus => {
                self.bump();
                Ok((None, (self.read_int()? as i64).wrapping_neg()))
            }
            Tok::Int => Ok((None, self.read_int()? as i64)),
            _ => self.unexpected("register or offset"),
        }
    }

    fn arg_list(&mut self) -> PResult<Operand<'a>> {
        let start = self.expect(Tok::LParen, "`(`")?.start;
        let mut names = Vec::new();
        while !self.eat(Tok::RParen) {
            if self.peek() != Tok::Local {
                return self.unexpected("an argument name");
            }
            names.push(self.name_tok());
            self.eat(Tok::Comma);
        }
        Ok(Operand::ArgList(names, Span::new(start, self.prev_end())))
    }

    fn call_operands(&mut self, opcode: u16) -> PResult<Vec<Operand<'a>>> {
        let target = self.operand(true)?;
        if self.peek() != Tok::LParen {
            return err("missing call argument list", self.span());
        }
        let outs = self.arg_list()?;
        if self.peek() != Tok::LParen {
            return err("missing call argument list", self.span());
        }
        let ins = self.arg_list()?;
        let mut v = vec![outs, target, ins];
        if opcode != 100 && self.peek() != Tok::Semi {
            if self.peek() == Tok::LBrack {
                let start = self.bump().start;
                let mut names = Vec::new();
                loop {
                    if self.peek() != Tok::Global {
                        return self.unexpected("a function name");
                    }
                    names.push(self.name_tok());
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                let end = self.expect(Tok::RBrack, "`]`")?.end;
                v.push(Operand::FuncList(names, Span::new(start, end)));
            } else {
                if self.peek() != Tok::Global {
                    return self.unexpected("a signature name");
                }
                v.push(Operand::Ident(self.name_tok()));
            }
        }
        Ok(v)
    }

    fn sbr_operands(&mut self) -> PResult<Vec<Operand<'a>>> {
        let first = self.operand(true)?;
        // PRM 19 `sbr ... operand branchTargets`: no comma before the list.
        let start = self.expect(Tok::LBrack, "`[`")?.start;
        let mut names = Vec::new();
        loop {
            if self.peek() != Tok::Label {
                return self.unexpected("a label");
            }
            names.push(self.name_tok());
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::RBrack, "`]`")?.end;
        Ok(vec![
            first,
            Operand::LabelList(names, Span::new(start, end)),
        ])
    }
}

/// Interpret the suffixes of a mnemonic for the opcode's grammar.
fn decode_mnemonic(info: &ops::OpInfo, parts: &[Part<'_>], span: Span) -> PResult<Mnemonic> {
    let mut m = Mnemonic {
        opcode: info.opcode,
        ..Default::default()
    };
    let mut i = 0;
    let word = |i: usize| -> Option<&str> {
        match parts.get(i) {
            Some(Part::Word(w, _)) => Some(w),
            _ => None,
        }
    };
    let at = |i: usize| -> Span {
        match parts.get(i) {
            Some(Part::Word(w, a)) => Span::new(*a, *a + 1 + w.len() as u32),
            _ => span,
        }
    };
    let syntax = info.syntax;
    // Leading operation-specific suffix.
    match syntax {
        Syntax::Cmp => {
            m.compare = word(0).and_then(compare_of);
            if m.compare.is_none() {
                return err("comparison operator expected", at(0));
            }
            i = 1;
        }
        Syntax::Atomic | Syntax::Signal => {
            let w = word(0).unwrap_or("");
            let (op, n) = match (w, word(1)) {
                ("wait" | "waittimeout", Some(c)) => {
                    let joined = format!("{w}_{c}");
                    (atomic_of(&joined), 2)
                }
                _ => (atomic_of(w), 1),
            };
            m.atomic_op = op;
            if m.atomic_op.is_none() {
                return err("atomic operation expected", at(0));
            }
            i = n;
        }
        Syntax::QuerySampler => {
            m.sampler_query = word(0).and_then(sampler_query_of);
            if m.sampler_query.is_none() {
                return err("sampler query expected", at(0));
            }
            i = 1;
        }
        Syntax::Image | Syntax::QueryImage => {
            // PRM 7.2-7.5 syntax: the geometry follows the optional `_v4`
            // and is not optional (BRIG would silently read 1d).
            let g = usize::from(matches!(word(0), Some("v2" | "v3" | "v4")));
            if word(g).and_then(geometry_of).is_none() {
                return err("geometry modifier expected (PRM 7.1.3)", at(g));
            }
        }
        _ => {}
    }
    // Suffix categories in the order the opcode's grammar allows them
    // (HSAILasm reads them in this order and rejects anything else).
    let order: &[Cat] = match syntax {
        Syntax::Basic | Syntax::QuerySampler => &[Cat::Type],
        Syntax::BasicNoType | Syntax::Nop | Syntax::ImageFence => &[],
        Syntax::BasicOrMod => &[Cat::Ftz, Cat::Round, Cat::Pack, Cat::Type],
        Syntax::SourceType => &[Cat::Vector, Cat::Type],
        Syntax::Seg | Syntax::Addr => &[Cat::Segment, Cat::Type],
        // PRM 19: `alloca optAlignMod nonOpaqueTypeMod`.
        Syntax::Mem if m.opcode == 104 => &[Cat::Align, Cat::Type],
        Syntax::Mem => &[
            Cat::Vector,
            Cat::Segment,
            Cat::Align,
            Cat::Const,
            Cat::Equiv,
            Cat::Width,
            Cat::Type,
        ],
        Syntax::Br => &[Cat::Width, Cat::Type],
        Syntax::Cmp => &[Cat::Ftz, Cat::Pack, Cat::Type],
        Syntax::Cvt => &[Cat::Ftz, Cat::Round, Cat::Type],
        Syntax::Atomic => &[Cat::Segment, Cat::Order, Cat::Scope, Cat::Equiv, Cat::Type],
        Syntax::MemFence => &[Cat::Order, Cat::Scope],
        Syntax::Image => &[Cat::Vector, Cat::Geometry, Cat::Equiv, Cat::Type],
        Syntax::QueryImage => &[Cat::Geometry, Cat::Query, Cat::Type],
        Syntax::Lane => &[Cat::Vector, Cat::Width, Cat::Type],
        Syntax::Queue => &[Cat::Segment, Cat::Order, Cat::Type],
        Syntax::Signal => &[Cat::Order, Cat::Type],
        Syntax::SegCvt => &[Cat::Segment, Cat::NoNull, Cat::Type],
    };
    let max_types = match syntax {
        Syntax::Image => 3,
        Syntax::SourceType
        | Syntax::Cmp
        | Syntax::Cvt
        | Syntax::Signal
        | Syntax::QueryImage
        | Syntax::Lane
        | Syntax::SegCvt => 2,
        _ => 1,
    };
    let mut last: Option<usize> = None;
    while i < parts.len() {
        let here = at(i);
        let cat = match parts[i] {
            Part::Align(n) => {
                m.align = Some(align_of(n).ok_or_else(|| SyntaxError {
                    message: "Invalid alignment".into(),
                    span,
                })?);
                Cat::Align
            }
            Part::Width(w) => {
                m.width = Some(w);
                Cat::Width
            }
            Part::Equiv(n) => {
                if n >= 256 {
                    return err("equivalence class should be in the 0..255 range", span);
                }
                m.equiv = Some(n as u8);
                Cat::Equiv
            }
            Part::Word(w, _) => {
                let next_sat = matches!(parts.get(i + 1), Some(Part::Word("sat", _)));
                if let Some(t) = types::from_name(w) {
                    if m.ntypes as usize >= max_types {
                        return err("no more modifiers expected", here);
                    }
                    m.types[m.ntypes as usize] = t;
                    m.ntypes += 1;
                    Cat::Type
                } else if w == "ftz" {
                    m.ftz = true;
                    Cat::Ftz
                } else if w == "const" {
                    m.is_const = true;
                    Cat::Const
                } else if w == "nonull" {
                    m.nonull = true;
                    Cat::NoNull
                } else if let Some(v) = match w {
                    "v2" => Some(2),
                    "v3" => Some(3),
                    "v4" => Some(4),
                    _ => None,
                } {
                    m.vector = Some(v);
                    Cat::Vector
                } else if w == "flat" && syntax != Syntax::SegCvt {
                    // PRM 19 `segmentMod`: a flat address is written by
                    // leaving the segment out (segmentp/ftos/stof keep the
                    // word for the validator's PRM 5.16/5.17 message).
                    return err(
                        "PRM 4.18: no `_flat` modifier: a flat address has no segment suffix",
                        here,
                    );
                } else if let Some(s) = segment_of(w) {
                    m.segment = Some(s);
                    Cat::Segment
                } else if syntax == Syntax::QueryImage
                    && m.geometry.is_some()
                    && image_query_of(w).is_some()
                {
                    m.image_query = image_query_of(w);
                    Cat::Query
                } else if let Some(g) = geometry_of(w) {
                    m.geometry = Some(g);
                    Cat::Geometry
                } else if let Some(o) = order_of(w) {
                    m.memory_order = Some(o);
                    Cat::Order
                } else if let Some(s) = scope_of(w) {
                    m.memory_scope = Some(s);
                    Cat::Scope
                } else if next_sat && round_of(&format!("{w}_sat")).is_some() {
                    m.round = round_of(&format!("{w}_sat"));
                    i += 1;
                    Cat::Round
                } else if next_sat && pack_of(&format!("{w}_sat")).is_some() {
                    m.pack = pack_of(&format!("{w}_sat"));
                    i += 1;
                    Cat::Pack
                } else if let Some(r) = round_of(w) {
                    m.round = Some(r);
                    Cat::Round
                } else if let Some(p) = pack_of(w) {
                    m.pack = Some(p);
                    Cat::Pack
                } else if w.starts_with(['b', 'u', 's', 'f'])
                    && w[1..].bytes().all(|c| c.is_ascii_digit() || c == b'x')
                {
                    return err("data type expected", here);
                } else {
                    return err(format!("invalid instruction suffix `_{w}`"), here);
                }
            }
        };
        // Each category once (types may repeat), in grammar order.
        // HSAILasm's words: after the type nothing may follow, before it a
        // misplaced modifier is where it expected the type.
        let after_type = last.is_some_and(|l| order.get(l) == Some(&Cat::Type));
        let misplaced = |what: &str| -> PResult<Mnemonic> {
            if after_type {
                err(format!("no more modifiers expected (`{what}`)"), here)
            } else {
                err(format!("data type expected (found {what} modifier)"), here)
            }
        };
        let Some(pos) = order.iter().position(|&c| c == cat) else {
            return misplaced(cat.name());
        };
        match last {
            Some(l) if pos < l || (pos == l && cat != Cat::Type) => {
                return misplaced(cat.name());
            }
            _ => last = Some(pos),
        }
        i += 1;
    }
    // Type requirements.
    let need = match syntax {
        Syntax::Nop | Syntax::BasicNoType | Syntax::MemFence | Syntax::ImageFence => 0,
        Syntax::Br => 0,
        Syntax::Cmp | Syntax::Cvt | Syntax::SourceType | Syntax::Signal | Syntax::QueryImage => 2,
        Syntax::Image => 3,
        _ => 1,
    };
    if (m.ntypes as usize) < need {
        return err("type suffix expected", span);
    }
    // PRM 9.4: of the cross-lane instructions only activelanemask takes a
    // vector suffix (BRIG has no trace of one, so this is text-only).
    if syntax == Syntax::Lane && m.vector.is_some() && m.opcode != 98 {
        return err("no vector modifier expected (PRM 9.4)", span);
    }
    if syntax == Syntax::QueryImage && m.image_query.is_none() {
        return err("image query expected", span);
    }
    if need == 0 && m.ntypes > 0 && syntax != Syntax::Br {
        return err("unexpected type suffix", span);
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion() {
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f64_to_f16_bits(5.960464477539063e-8), 0x0001);
        assert_eq!(f64_to_f16_bits(0.5), 0x3800);
    }

    #[test]
    fn ints() {
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("0x10"), Some(16));
        assert_eq!(parse_int("99999999999999999999999"), None);
    }
}
