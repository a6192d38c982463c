//! GNU-as expressions as llvm-mc evaluates them: integers, symbols, `.`,
//! unary and binary operators; a value is absolute or section-relative.

use super::{Loc, ident_len};

/// Parsed expression.
#[derive(Debug, Clone)]
pub(super) enum Expr {
    Num(i64),
    Sym(String, Loc),
    Dot(usize, u64),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
}

/// Value of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    Abs(i64),
    Rel(usize, i64),
}

pub(super) fn expr_loc(e: &Expr) -> Loc {
    match e {
        Expr::Sym(_, l) => *l,
        Expr::Neg(x) | Expr::Not(x) => expr_loc(x),
        Expr::Bin(_, l, _) => expr_loc(l),
        _ => Loc {
            line: 0,
            col: 0,
            len: 0,
        },
    }
}

/// Recursive-descent parser of GNU-as expressions (integers, symbols, `.`,
/// unary `- ~ +`, `* / % << >> & | ^ + -`, parentheses).
pub(super) struct ExprParser<'a> {
    pub(super) s: &'a [u8],
    pub(super) text: &'a str,
    pub(super) pos: usize,
    pub(super) col: usize,
    pub(super) line: usize,
    pub(super) dot: (usize, u64),
}

type PResult<T> = Result<T, (Loc, String)>;

impl ExprParser<'_> {
    pub(super) fn loc(&self, len: usize) -> Loc {
        Loc {
            line: self.line,
            col: self.col + self.pos,
            len,
        }
    }

    pub(super) fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    pub(super) fn expr(&mut self) -> PResult<Expr> {
        self.binary(0)
    }

    /// Precedence climbing: `|` < `^` < `&` < `+ -` < `<< >>` < `* / %`
    /// (LLVM's GNU-compatible levels, simplified).
    fn binary(&mut self, level: usize) -> PResult<Expr> {
        const LEVELS: [&[&str]; 6] = [
            &["|"],
            &["^"],
            &["&"],
            &["+", "-"],
            &["<<", ">>"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            self.ws();
            let rest = &self.text[self.pos.min(self.text.len())..];
            let Some(op) = LEVELS[level].iter().find(|op| {
                rest.starts_with(**op)
                    && !(**op == "|" && rest.starts_with("||"))
                    && !(**op == "&" && rest.starts_with("&&"))
            }) else {
                return Ok(lhs);
            };
            self.pos += op.len();
            let rhs = self.binary(level + 1)?;
            let c = match *op {
                "<<" => '<',
                ">>" => '>',
                o => o.chars().next().unwrap_or('+'),
            };
            lhs = Expr::Bin(c, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.ws();
        match self.s.get(self.pos) {
            Some(b'-') => {
                self.pos += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some(b'~') => {
                self.pos += 1;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Some(b'+') => {
                self.pos += 1;
                self.unary()
            }
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr()?;
                self.ws();
                if self.s.get(self.pos) != Some(&b')') {
                    return Err((self.loc(0), "expected ')' in parentheses expression".into()));
                }
                self.pos += 1;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() => self.number(),
            Some(_) => {
                let rest = &self.text[self.pos..];
                let n = ident_len(rest);
                if n == 0 {
                    return Err((self.loc(0), "unknown token in expression".into()));
                }
                let loc = self.loc(n);
                self.pos += n;
                if &rest[..n] == "." {
                    return Ok(Expr::Dot(self.dot.0, self.dot.1));
                }
                Ok(Expr::Sym(rest[..n].to_string(), loc))
            }
            None => Err((self.loc(0), "unknown token in expression".into())),
        }
    }

    fn number(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let rest = &self.text[start..];
        let n = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let tok = &rest[..n];
        let lower = tok.to_ascii_lowercase();
        let parsed = if let Some(h) = lower.strip_prefix("0x") {
            u64::from_str_radix(h, 16)
        } else if let Some(b) = lower.strip_prefix("0b") {
            u64::from_str_radix(b, 2)
        } else if let Some(h) = lower.strip_suffix('h') {
            u64::from_str_radix(h, 16)
        } else if lower.len() > 1 && lower.starts_with('0') {
            u64::from_str_radix(&lower[1..], 8)
        } else {
            lower.parse::<u64>()
        };
        match parsed {
            Ok(v) => {
                self.pos += n;
                Ok(Expr::Num(v as i64))
            }
            Err(_) => Err((self.loc(0), "invalid integer".into())),
        }
    }
}
