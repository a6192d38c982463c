//! Symbolic 32-bit literal operands (`s_mov_b32 s0, lds@abs32@lo`,
//! `s_add_u32 s0, s0, f@rel32@lo+4`, `s_add_u32 vcc_lo, vcc_lo,
//! (BB2-BB1)&4294967295`), as llvm-mc assembles them: the literal is a
//! fixup, listed as `A` bytes; at the end of the file it is resolved to a
//! value (label differences; PC-relative references to a local label of the
//! same section) or becomes an `R_AMDGPU_*` relocation of the object.
//!
//! llvm-mc's fixup kind: `FK_PCRel_4` unless the expression is a
//! subtraction or an `@abs32` reference (then `FK_Data_4`).

use super::expr::{Expr, ExprParser, Value};
use super::{Asm, Loc, ident_len};
use crate::elf::{
    R_AMDGPU_ABS32_HI, R_AMDGPU_ABS32_LO, R_AMDGPU_GOTPCREL32_HI, R_AMDGPU_GOTPCREL32_LO,
    R_AMDGPU_REL32, R_AMDGPU_REL32_HI, R_AMDGPU_REL32_LO,
};

/// The literal written in place of the expression while encoding (not an
/// inline constant of any operand type).
pub(super) const PLACEHOLDER: u32 = 0x1234_5678;

/// Symbol reference specifiers (`sym@abs32@lo`) and their relocation types.
const SPECIFIERS: [(&str, u32); 6] = [
    ("@abs32@lo", R_AMDGPU_ABS32_LO),
    ("@abs32@hi", R_AMDGPU_ABS32_HI),
    ("@rel32@lo", R_AMDGPU_REL32_LO),
    ("@rel32@hi", R_AMDGPU_REL32_HI),
    ("@gotpcrel32@lo", R_AMDGPU_GOTPCREL32_LO),
    ("@gotpcrel32@hi", R_AMDGPU_GOTPCREL32_HI),
];

/// A relocation of the relocatable object (`.rela<section>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation {
    /// Section index (into `Assembly::sections`).
    pub section: usize,
    /// Byte offset in the section.
    pub offset: u64,
    /// Symbol name.
    pub symbol: String,
    /// `R_AMDGPU_*`.
    pub kind: u32,
    /// Addend.
    pub addend: i64,
}

/// A symbolic literal waiting for the end of the file.
pub(super) struct LiteralFixup {
    section: usize,
    offset: u64,
    /// The expression with the specifier removed.
    expr: Expr,
    /// Relocation type of the specifier, if any.
    specifier: Option<u32>,
    loc: Loc,
}

/// Register and keyword operands that are never symbols.
pub(super) fn is_register_name(name: &str) -> bool {
    let numbered = |p: &str| {
        name.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    ["v", "s", "a", "ttmp"].into_iter().any(numbered)
        || name.starts_with("src_")
        || matches!(
            name,
            "vcc"
                | "vcc_lo"
                | "vcc_hi"
                | "exec"
                | "exec_lo"
                | "exec_hi"
                | "m0"
                | "scc"
                | "vccz"
                | "execz"
                | "off"
                | "null"
                | "lds_direct"
                | "flat_scratch"
                | "flat_scratch_lo"
                | "flat_scratch_hi"
                | "xnack_mask"
                | "xnack_mask_lo"
                | "xnack_mask_hi"
                | "tba"
                | "tba_lo"
                | "tba_hi"
                | "tma"
                | "tma_lo"
                | "tma_hi"
                | "pops_exiting_wave_id"
        )
}

/// `text` without its (single) specifier, and the specifier's relocation.
fn strip_specifier(text: &str) -> Option<(String, Option<u32>)> {
    let Some(at) = text.find('@') else {
        return Some((text.to_string(), None));
    };
    let (spec, kind) = SPECIFIERS.iter().find(|(s, _)| text[at..].starts_with(s))?;
    let rest = &text[at + spec.len()..];
    if rest.contains('@') {
        return None;
    }
    Some((format!("{}{rest}", &text[..at]), Some(*kind)))
}

/// Whether the expression names at least one symbol, and no register.
fn names_symbols(e: &Expr) -> Option<bool> {
    match e {
        Expr::Num(_) => Some(false),
        Expr::Dot(..) => Some(true),
        Expr::Sym(name, _) => (!is_register_name(name)).then_some(true),
        Expr::Neg(x) | Expr::Not(x) => names_symbols(x),
        Expr::Bin(_, l, r) => Some(names_symbols(l)? | names_symbols(r)?),
    }
}

/// Every symbol name in the expression, in order.
pub(super) fn symbol_names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Sym(name, _) => out.push(name.clone()),
        Expr::Neg(x) | Expr::Not(x) => symbol_names(x, out),
        Expr::Bin(_, l, r) => {
            symbol_names(l, out);
            symbol_names(r, out);
        }
        Expr::Num(_) | Expr::Dot(..) => {}
    }
}

/// Whether llvm-mc makes the fixup PC-relative (`needsPCRel`): a symbol
/// reference that is not `@abs32`, under any operator but subtraction.
fn pc_relative(e: &Expr, specifier: Option<u32>) -> bool {
    match e {
        Expr::Sym(..) => !matches!(specifier, Some(R_AMDGPU_ABS32_LO | R_AMDGPU_ABS32_HI)),
        Expr::Bin('-', ..) | Expr::Num(_) | Expr::Dot(..) => false,
        Expr::Bin(_, l, r) => pc_relative(l, specifier) || pc_relative(r, specifier),
        Expr::Neg(x) | Expr::Not(x) => pc_relative(x, specifier),
    }
}

/// Top-level comma-separated pieces of `text` from byte `from`: (start,
/// end) byte ranges, trimmed.
fn pieces(text: &str, from: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, from);
    let mut push = |s: usize, e: usize| {
        let piece = &text[s..e];
        let lead = piece.len() - piece.trim_start().len();
        out.push((s + lead, (s + piece.trim_end().len()).max(s + lead)));
    };
    for (i, c) in text.char_indices().skip_while(|(i, _)| *i < from) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                push(start, i);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(start, text.len());
    out
}

impl Asm<'_> {
    /// For an instruction line that did not parse: the same line with its
    /// one symbolic operand replaced by a literal placeholder, the
    /// operand's text, and its parsed expression and specifier.
    pub(super) fn symbolic_operand(
        &self,
        text: &str,
        from: usize,
    ) -> Option<(String, String, Expr, Option<u32>)> {
        for (s, e) in pieces(text, from) {
            let piece = &text[s..e];
            if piece.is_empty() || ident_len(piece) == 0 && !piece.starts_with(['(', '-', '~']) {
                continue;
            }
            let Some((plain, specifier)) = strip_specifier(piece) else {
                continue;
            };
            let mut p = ExprParser {
                s: plain.as_bytes(),
                text: &plain,
                pos: 0,
                col: 0,
                line: self.line_no,
                dot: (0, 0),
            };
            let Ok(expr) = p.expr() else { continue };
            p.ws();
            if p.pos < plain.len() || names_symbols(&expr) != Some(true) {
                continue;
            }
            let line = format!("{}{PLACEHOLDER:#x}{}", &text[..s], &text[e..]);
            let shown: String = piece.split_whitespace().collect();
            return Some((line, shown, expr, specifier));
        }
        None
    }

    /// Records the fixup of a literal at `offset` (the literal's bytes) of
    /// the current section; `bytes` is the encoding with the placeholder,
    /// which is cleared. Returns llvm-mc's fixup kind, or None when the
    /// placeholder is not the literal.
    pub(super) fn literal_fixup(
        &mut self,
        bytes: &mut [u8],
        expr: Expr,
        specifier: Option<u32>,
        loc: Loc,
    ) -> Option<&'static str> {
        let n = bytes.len();
        if n != 8 || bytes[4..] != PLACEHOLDER.to_le_bytes() {
            return None;
        }
        bytes[4..].fill(0);
        let kind = if pc_relative(&expr, specifier) {
            "FK_PCRel_4"
        } else {
            "FK_Data_4"
        };
        let section = self.section();
        let offset = self.sections[section].data.len() as u64 + 4;
        self.literal_fixups.push(LiteralFixup {
            section,
            offset,
            expr,
            specifier,
            loc,
        });
        Some(kind)
    }

    /// The symbol and addend of `sym`, `sym + c`, `sym - c`, `c + sym`.
    fn symbol_plus(&self, e: &Expr) -> Option<(String, i64)> {
        let constant = |x: &Expr| match self.eval(x) {
            Ok(Value::Abs(v)) => Some(v),
            _ => None,
        };
        match e {
            Expr::Sym(name, _) => Some((name.clone(), 0)),
            Expr::Bin('+', l, r) => match (&**l, &**r) {
                (Expr::Sym(n, _), x) | (x, Expr::Sym(n, _)) => Some((n.clone(), constant(x)?)),
                _ => None,
            },
            Expr::Bin('-', l, r) => match &**l {
                Expr::Sym(n, _) => Some((n.clone(), constant(r)?.wrapping_neg())),
                _ => None,
            },
            _ => None,
        }
    }

    /// Resolves every literal fixup (all labels are known now): writes the
    /// value or records a relocation.
    pub(super) fn resolve_literal_fixups(&mut self) {
        for f in std::mem::take(&mut self.literal_fixups) {
            match self.literal_value(&f) {
                Ok(Some(v)) => {
                    let at = f.offset as usize;
                    if let Some(dst) = self.sections[f.section].data.get_mut(at..at + 4) {
                        dst.copy_from_slice(&(v as u32).to_le_bytes());
                    }
                }
                Ok(None) => {}
                Err(message) => self.error(f.loc, message),
            }
        }
    }

    /// The value of a literal fixup, or None after recording its relocation.
    fn literal_value(&mut self, f: &LiteralFixup) -> Result<Option<i64>, String> {
        let pc = pc_relative(&f.expr, f.specifier);
        if !pc && f.specifier.is_none() {
            return match self.eval(&f.expr) {
                Ok(Value::Abs(v)) => Ok(Some(v)),
                _ => Err("expected relocatable expression".into()),
            };
        }
        let (name, addend) = self
            .symbol_plus(&f.expr)
            .ok_or("expected a symbol plus a constant")?;
        let sym = self.by_name.get(&name).map(|&i| self.symbols[i].clone());
        if let Some(v) = sym.as_ref().and_then(|s| s.absolute) {
            return Err(format!("symbol '{name}' is absolute ({v}): use a constant"));
        }
        let local = sym.as_ref().filter(|s| !s.global).and_then(|s| s.defined);
        let kind = f.specifier.unwrap_or(R_AMDGPU_REL32);
        // A plain PC-relative reference to a local label of the same
        // section is resolved here (S + A - P), as llvm-mc does; `@rel32`
        // ones stay relocations.
        if let (Some((sec, off)), None) = (local, f.specifier)
            && sec == f.section
        {
            let v = (off as i64).wrapping_add(addend);
            return Ok(Some(v.wrapping_sub(f.offset as i64)));
        }
        if local.is_some() {
            // llvm-mc relocates against the section symbol, which the
            // object writer does not emit.
            return Err(format!(
                "relocation against local symbol '{name}' is not supported (make it .globl)"
            ));
        }
        self.relocations.push(Relocation {
            section: f.section,
            offset: f.offset,
            symbol: name,
            kind,
            addend,
        });
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_and_pieces() {
        assert_eq!(
            strip_specifier("lds@abs32@lo+8"),
            Some(("lds+8".to_string(), Some(R_AMDGPU_ABS32_LO)))
        );
        assert_eq!(strip_specifier("a@b"), None);
        let t = "s_add_u32 vcc_lo, vcc_lo, (BB2-BB1)&4294967295";
        let p: Vec<&str> = pieces(t, 9).iter().map(|&(s, e)| &t[s..e]).collect();
        assert_eq!(p, ["vcc_lo", "vcc_lo", "(BB2-BB1)&4294967295"]);
        assert!(is_register_name("v12") && is_register_name("ttmp3") && !is_register_name("vx"));
        let t = "s_mov_b32 s0,  , x";
        let p: Vec<&str> = pieces(t, 9).iter().map(|&(s, e)| &t[s..e]).collect();
        assert_eq!(p, ["s0", "", "x"]);
    }
}
