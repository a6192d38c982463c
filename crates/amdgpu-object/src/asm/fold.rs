//! Constant expressions in instruction operands, folded to numbers before
//! the line goes to `amdgpu_isa::gfx9::parse_line`, as llvm-mc evaluates
//! them at assembly time: `sext(1-2)`, `op_sel:[2-1,0]`, `row_shl:2-1`,
//! `hwreg(50 + 1, 2 - 1, 30 + 1)`, `s_call_b64 s[0:1], 4 + 4`. Symbols
//! defined by `.set`/`=` are substituted before (see
//! `Asm::substitute_absolutes`); an expression that still names a symbol
//! (a label, an undefined name, a register) is left alone.

use super::expr::{Expr, ExprParser};

/// Whether `text` may hold a binary operator between constants (a cheap
/// test that keeps the common line free of any parsing): one of
/// `+ * / % ^ ~ < > &`, or a `-` after an operand (a digit, a name or `)`,
/// spaces between), not a negation such as `-v1` or `-16`.
fn may_hold_operator(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, &c)| match c {
        b'+' | b'*' | b'/' | b'%' | b'^' | b'~' | b'<' | b'>' | b'&' => true,
        b'-' => b[..i]
            .iter()
            .rev()
            .find(|p| **p != b' ' && **p != b'\t')
            .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b')' || *p == b'_'),
        _ => false,
    })
}

/// Whether `e` is made of numbers only, and whether it applies at least
/// one operator (a lone number needs no folding).
fn constant(e: &Expr) -> Option<bool> {
    match e {
        Expr::Num(_) => Some(false),
        // `-16` is a number; `-(2+1)` and `~0` are not.
        Expr::Neg(x) => constant(x),
        Expr::Not(x) => constant(x).map(|_| true),
        Expr::Bin(_, l, r) => {
            constant(l)?;
            constant(r)?;
            Some(true)
        }
        Expr::Sym(..) | Expr::Dot(..) => None,
    }
}

/// The value of a constant expression (None: division by zero).
fn value(e: &Expr) -> Option<i64> {
    Some(match e {
        Expr::Num(v) => *v,
        Expr::Neg(x) => value(x)?.wrapping_neg(),
        Expr::Not(x) => !value(x)?,
        Expr::Bin(op, l, r) => {
            let (x, y) = (value(l)?, value(r)?);
            match op {
                '+' => x.wrapping_add(y),
                '-' => x.wrapping_sub(y),
                '*' => x.wrapping_mul(y),
                '/' => x.checked_div(y)?,
                '%' => x.checked_rem(y)?,
                '<' => x.wrapping_shl(y as u32),
                '>' => x.wrapping_shr(y as u32),
                '&' => x & y,
                '|' => x | y,
                '^' => x ^ y,
                _ => return None,
            }
        }
        Expr::Sym(..) | Expr::Dot(..) => return None,
    })
}

/// Where an expression may start: a digit, `(`, `-`, `~` or `+` that does
/// not continue a name, a number or a float (`v1`, `0x1f`, `1.5e-3`).
fn starts_expression(b: &[u8], i: usize) -> bool {
    let prev = i.checked_sub(1).map(|p| b[p]);
    let continues =
        prev.is_some_and(|p| p.is_ascii_alphanumeric() || matches!(p, b'_' | b'.' | b'$'));
    !continues && matches!(b[i], b'0'..=b'9' | b'(' | b'-' | b'~' | b'+')
}

/// Folds every constant expression after byte `from` of `text` (the
/// mnemonic) into its decimal value.
pub(super) fn fold_constants(text: &str, from: usize) -> String {
    if !may_hold_operator(&text[from.min(text.len())..]) {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if i < from || b[i] == b'"' || !starts_expression(b, i) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let mut p = ExprParser {
            s: rest.as_bytes(),
            text: rest,
            pos: 0,
            col: 0,
            line: 0,
            dot: (0, 0),
        };
        let folded = p.expr().ok().and_then(|e| {
            // `2*0.5`: the number goes on; not an integer expression.
            let end = p.pos;
            let float = matches!(rest.as_bytes().get(end), Some(b'.'));
            match constant(&e) {
                Some(true) if !float => value(&e).map(|v| (v, end)),
                _ => None,
            }
        });
        match folded {
            Some((v, end)) => {
                // Keep the spaces the expression ended with.
                let span = rest[..end].trim_end();
                out.push_str(&text[copied..i]);
                out.push_str(&v.to_string());
                i += span.len();
                copied = i;
            }
            None => {
                // Skip the token (`-v1`, `1.5`): never start inside it.
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.')) {
                    i += 1;
                }
            }
        }
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::fold_constants;

    #[test]
    fn folds_constant_operands_only() {
        let f = |s: &str| fold_constants(s, s.find(' ').unwrap_or(s.len()));
        // Expected forms: what llvm-mc-19 -show-encoding prints for these
        // operands (LLVM's MC tests expressions-gfx9.s, vop_dpp_expr.s,
        // sopk.s).
        assert_eq!(
            f("v_mov_b32_sdwa v1, sext(1-2)"),
            "v_mov_b32_sdwa v1, sext(-1)"
        );
        assert_eq!(
            f("v_mov_b32_sdwa v1, sext(-2+1)"),
            "v_mov_b32_sdwa v1, sext(-1)"
        );
        assert_eq!(
            f("v_pk_add_u16 v1, v2, v3 op_sel:[2-1,1-1]"),
            "v_pk_add_u16 v1, v2, v3 op_sel:[1,0]"
        );
        assert_eq!(
            f("v_mov_b32 v0, v0 row_bcast:150/(2*2+0/1+2*3)"),
            "v_mov_b32 v0, v0 row_bcast:15"
        );
        assert_eq!(
            f("v_mov_b32 v0, v0 quad_perm:[1,2+1,0,2-1] row_mask:2*5 bank_mask:0x2-1"),
            "v_mov_b32 v0, v0 quad_perm:[1,3,0,1] row_mask:10 bank_mask:1"
        );
        assert_eq!(
            f("s_getreg_b32 s2, hwreg(50 + 1, -1 + 2, 1 + 30)"),
            "s_getreg_b32 s2, hwreg(51, 1, 31)"
        );
        assert_eq!(f("s_call_b64 s[0:1], 4 + 4"), "s_call_b64 s[0:1], 8");
        // Left alone: registers, negations, floats, abs bars, labels,
        // waitcnt counters, lone numbers.
        for s in [
            "v_add_f32 v1, -v2, s3",
            "v_sub_f32 v1, -|v2|, |-1|",
            "v_add_f32 v0, -1.5, 2.5e-3",
            "s_add_u32 vcc_lo, vcc_lo, (BB2-BB1)&4294967295",
            "s_waitcnt vmcnt(0) & lgkmcnt(1)",
            "global_load_dword v1, v[2:3], off offset:-16",
            "v_mov_b32 v1, 010",
        ] {
            assert_eq!(f(s), s);
        }
    }
}
