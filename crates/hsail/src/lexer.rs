//! Tokens of HSAIL text (PRM §19.1, lexical grammar), produced by a `logos`
//! scanner. The parser pulls them one at a time from [`Tok::lexer`];
//! [`lex`] scans a whole source into a list (for tools and tests).
//!
//! Words are kept whole: an instruction mnemonic such as `ld_global_align`
//! is one [`Tok::Word`]; the parser splits it at `_` the way HSAILasm scans
//! opcode suffixes. Identifiers keep their sigil (`&global`, `%local`,
//! `@label`). Numbers are classified but not converted: the parser converts
//! them once it knows the type they must take. Comments are tokens because
//! HSAILasm turns every comment at statement level into a
//! `BrigDirectiveComment`.

use logos::Logos;

/// One token kind. The text of a token is the source slice of its span.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
// PRM 4.4: space, tab, new-line, vertical tab and form feed separate tokens.
#[logos(skip r"[ \t\r\n\f\x0b]+")]
pub enum Tok {
    /// A keyword, mnemonic, type name or other bare word.
    #[regex(r"[a-zA-Z_][a-zA-Z0-9_.]*")]
    Word,
    /// `$` followed by a word: registers (`$s1`) and `$full`, `$small`, ….
    #[regex(r"\$[a-zA-Z_][a-zA-Z0-9_]*")]
    Dollar,
    /// A global identifier `&name`.
    #[regex(r"&[a-zA-Z_][a-zA-Z0-9_.]*")]
    Global,
    /// A local identifier `%name`.
    #[regex(r"%[a-zA-Z_][a-zA-Z0-9_.]*")]
    Local,
    /// A label `@name`.
    #[regex(r"@[a-zA-Z_][a-zA-Z0-9_.]*")]
    Label,
    /// Decimal, octal or hexadecimal integer.
    #[regex(r"[0-9]+")]
    #[regex(r"0[xX][0-9a-fA-F]+")]
    Int,
    /// Half-precision literal: `0H` bits or a decimal/C99 float with `h`.
    #[regex(r"0[hH][0-9a-fA-F]{4}", priority = 10)]
    #[regex(r"([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+(\.[0-9]*)?[eE][+-]?[0-9]+)[hH]")]
    #[regex(r"0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[hH]")]
    F16,
    /// Single-precision literal: `0F` bits or a decimal/C99 float with `f`.
    #[regex(r"0[fF][0-9a-fA-F]{8}", priority = 10)]
    #[regex(r"([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+(\.[0-9]*)?[eE][+-]?[0-9]+)[fF]")]
    #[regex(r"0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fF]")]
    F32,
    /// Double-precision literal: `0D` bits, a plain decimal float, or C99.
    #[regex(r"0[dD][0-9a-fA-F]{16}", priority = 10)]
    #[regex(r"([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+(\.[0-9]*)?[eE][+-]?[0-9]+)[dD]?")]
    #[regex(r"0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[dD]?")]
    F64,
    /// A string literal with its quotes (escapes are decoded by the parser).
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*""#)]
    Str,
    /// `// …` to the end of the line.
    #[regex(r"//[^\r\n]*", allow_greedy = true)]
    LineComment,
    /// `/* … */`, possibly over several lines.
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/")]
    BlockComment,
    /// `/*` without its `*/` up to the end of input.
    #[regex(r"/\*([^*]|\*+[^*/])*\**", priority = 1)]
    UnterminatedComment,
    /// A string literal that runs into the end of its line.
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*"#, priority = 1)]
    UnterminatedStr,
    #[token("{")]
    LCurl,
    #[token("}")]
    RCurl,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("<")]
    LAngle,
    #[token(">")]
    RAngle,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("=")]
    Equal,
    /// Anything the lexical grammar does not know (filled in by [`lex`]).
    Error,
    /// End of input (filled in by [`lex`]).
    Eof,
}

/// A token with its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

/// Scan the whole source. Unknown characters become [`Tok::Error`] tokens;
/// the list always ends with one [`Tok::Eof`].
pub fn lex(source: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(source.len() / 4 + 1);
    let mut lx = Tok::lexer(source);
    while let Some(r) = lx.next() {
        let span = lx.span();
        let kind = r.unwrap_or(Tok::Error);
        out.push(Token {
            kind,
            start: span.start as u32,
            end: span.end as u32,
        });
    }
    let end = source.len() as u32;
    out.push(Token {
        kind: Tok::Eof,
        start: end,
        end,
    });
    out
}

/// Maps byte offsets to 1-based line and column numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    /// Index the line starts of `source`.
    pub fn new(source: &str) -> Self {
        let mut starts = vec![0u32];
        for (i, b) in source.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i as u32 + 1);
            }
        }
        LineIndex { starts }
    }

    /// 1-based (line, column) of a byte offset; columns count bytes.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.starts[line] + 1)
    }

    /// Byte range of the given 1-based line (without the newline).
    pub fn line_range(&self, line: u32, source_len: u32) -> (u32, u32) {
        let i = (line.max(1) - 1) as usize;
        let start = self.starts.get(i).copied().unwrap_or(source_len);
        let end = self.starts.get(i + 1).map(|s| s - 1).unwrap_or(source_len);
        (start, end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn basic_tokens() {
        assert_eq!(
            kinds("ld_global_align(4)_u32 $s1, [&g][$d1+8]; // c"),
            vec![
                Tok::Word,
                Tok::LParen,
                Tok::Int,
                Tok::RParen,
                Tok::Word,
                Tok::Dollar,
                Tok::Comma,
                Tok::LBrack,
                Tok::Global,
                Tok::RBrack,
                Tok::LBrack,
                Tok::Dollar,
                Tok::Plus,
                Tok::Int,
                Tok::RBrack,
                Tok::Semi,
                Tok::LineComment,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("0F3f800000")[0], Tok::F32);
        assert_eq!(kinds("0D3ff0000000000000")[0], Tok::F64);
        assert_eq!(kinds("0H3c00")[0], Tok::F16);
        assert_eq!(kinds("1.5f")[0], Tok::F32);
        assert_eq!(kinds("1.5")[0], Tok::F64);
        assert_eq!(kinds("1.5h")[0], Tok::F16);
        assert_eq!(kinds("0x1.8p1")[0], Tok::F64);
        // PRM 19.1 hexFloatConstant: the digits before the point may be omitted.
        assert_eq!(kinds("0x.8p1"), vec![Tok::F64, Tok::Eof]);
        assert_eq!(kinds("0x.8p1f")[0], Tok::F32);
        assert_eq!(kinds("0x10")[0], Tok::Int);
        assert_eq!(kinds("/* a\n b */")[0], Tok::BlockComment);
    }
}
