//! Integer operations on 1-, 32- and 64-bit registers (PRM §5.2–5.5,
//! §5.8 `mov`/`combine`/`expand`, §5.10 `cmov`): one VALU instruction where
//! GFX9 has it, short expansions (64-bit multiply high, `abs`, carries)
//! where it does not. The bit and bit-string operations are in `bits.rs`,
//! `div`/`rem` in `divide.rs`.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

/// 32-bit operations that are one VOP3 instruction `d = op(src0, src1[,
/// src2])`, by opcode and signedness (`None`: either).
const DIRECT32: &[(BrigOpcode, Option<bool>, &str)] = &[
    (BrigOpcode::ADD, None, "v_add_u32_e64"),
    (BrigOpcode::SUB, None, "v_sub_u32_e64"),
    (BrigOpcode::MUL, None, "v_mul_lo_u32"),
    (BrigOpcode::MULHI, Some(false), "v_mul_hi_u32"),
    (BrigOpcode::MULHI, Some(true), "v_mul_hi_i32"),
    (BrigOpcode::AND, None, "v_and_b32_e64"),
    (BrigOpcode::OR, None, "v_or_b32_e64"),
    (BrigOpcode::XOR, None, "v_xor_b32_e64"),
    (BrigOpcode::MIN, Some(false), "v_min_u32_e64"),
    (BrigOpcode::MIN, Some(true), "v_min_i32_e64"),
    (BrigOpcode::MAX, Some(false), "v_max_u32_e64"),
    (BrigOpcode::MAX, Some(true), "v_max_i32_e64"),
    // The 24-bit forms read the low 24 bits of each source, as the PRM
    // describes them (§5.4).
    (BrigOpcode::MUL24, Some(false), "v_mul_u32_u24_e64"),
    (BrigOpcode::MUL24, Some(true), "v_mul_i32_i24_e64"),
    (BrigOpcode::MUL24HI, Some(false), "v_mul_hi_u32_u24_e64"),
    (BrigOpcode::MUL24HI, Some(true), "v_mul_hi_i32_i24_e64"),
    (BrigOpcode::MAD24, Some(false), "v_mad_u32_u24"),
    (BrigOpcode::MAD24, Some(true), "v_mad_i32_i24"),
    (BrigOpcode::BITSELECT, None, "v_bfi_b32"),
];

/// 32-bit operations computed as `op1` then `op2` with the third source:
/// `d = op2(op1(src0, src1), src2)`.
const FUSED32: &[(BrigOpcode, Option<bool>, [&str; 2])] = &[
    (BrigOpcode::MAD, None, ["v_mul_lo_u32", "v_add_u32_e64"]),
    (
        BrigOpcode::MAD24HI,
        Some(false),
        ["v_mul_hi_u32_u24_e64", "v_add_u32_e64"],
    ),
    (
        BrigOpcode::MAD24HI,
        Some(true),
        ["v_mul_hi_i32_i24_e64", "v_add_u32_e64"],
    ),
];

/// Dword-wise operations on 64-bit (and 1-bit) values: the same VOP3
/// instruction on each dword.
const DWORDWISE: &[(BrigOpcode, &str)] = &[
    (BrigOpcode::AND, "v_and_b32_e64"),
    (BrigOpcode::OR, "v_or_b32_e64"),
    (BrigOpcode::XOR, "v_xor_b32_e64"),
    (BrigOpcode::BITSELECT, "v_bfi_b32"),
];

/// Shifts by opcode and signedness: the 32- and 64-bit mnemonics (GFX9's
/// `rev` forms take the amount first and use its low 5 or 6 bits, as the
/// PRM's masking of the amount requires).
const SHIFTS: &[(BrigOpcode, Option<bool>, [&str; 2])] = &[
    (
        BrigOpcode::SHL,
        None,
        ["v_lshlrev_b32_e64", "v_lshlrev_b64"],
    ),
    (
        BrigOpcode::SHR,
        Some(false),
        ["v_lshrrev_b32_e64", "v_lshrrev_b64"],
    ),
    (
        BrigOpcode::SHR,
        Some(true),
        ["v_ashrrev_i32_e64", "v_ashrrev_i64"],
    ),
];

/// One integer instruction: opcode, signedness, destination, sources and
/// its description for errors.
#[derive(Clone, Copy)]
struct IntInst<'a> {
    op: BrigOpcode,
    signed: bool,
    d: VReg,
    s: &'a [Src],
    what: &'a str,
}

/// The mnemonic of `op` in `table` for the given signedness.
fn lookup<T: Copy>(
    table: &[(BrigOpcode, Option<bool>, T)],
    op: BrigOpcode,
    signed: bool,
) -> Option<T> {
    table
        .iter()
        .find(|(o, s, _)| *o == op && s.is_none_or(|s| s == signed))
        .map(|e| e.2)
}

/// A 64-bit value as its two dwords (VGPRs or inline constants).
pub(super) type Halves = [Opnd; 2];

impl Cx<'_> {
    /// An integer or bit ALU instruction of `InstBasic`/`InstMod` form.
    pub(super) fn lower_alu(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = ty(type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        if ops.is_empty() {
            return Err(self.unsupported(format!("{what} without operands")));
        }
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let signed = kind == Kind::S;
        if self.lower_bits(op, kind == Kind::S, bits, d, &s)? {
            return Ok(());
        }
        if let (Some(mns), 2, 32 | 64) = (lookup(SHIFTS, op, signed), s.len(), bits) {
            let b = self.val(s[1], 0)?;
            if bits == 32 {
                let a = self.val(s[0], 0)?;
                return self.emit(mns[0], vec![r(d), b, a]);
            }
            let a = self.val64(s[0])?;
            return self.emit(mns[1], vec![pair(d), b, pair(a)]);
        }
        let i = IntInst {
            op,
            signed,
            d,
            s: &s,
            what,
        };
        match (bits, kind) {
            (1, Kind::B) => self.lower_alu1(i),
            (32, Kind::U | Kind::S | Kind::B) => self.lower_alu32(i),
            (64, Kind::U | Kind::S | Kind::B) => self.lower_alu64(i),
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `b1` operations on `$c` registers (0 or 1 in a dword).
    fn lower_alu1(&mut self, i: IntInst<'_>) -> Result<()> {
        let IntInst { op, d, s, what, .. } = i;
        match (op, s.len()) {
            (BrigOpcode::NOT, 1) => {
                let a = self.val(s[0], 0)?;
                self.emit("v_xor_b32_e64", vec![r(d), a, Opnd::constant(1)])
            }
            (BrigOpcode::MOV, 1) => self.copy(d, s[0], 1),
            (BrigOpcode::CMOV, 3) => self.cmov(d, s, 1),
            _ => self.dwordwise(op, d, s, 1, what),
        }
    }

    /// 32-bit integer operations.
    fn lower_alu32(&mut self, i: IntInst<'_>) -> Result<()> {
        let IntInst {
            op,
            signed,
            d,
            s,
            what,
        } = i;
        if let Some(mn) = lookup(DIRECT32, op, signed) {
            let v = self.vals(s, 0)?;
            return self.emit(mn, [vec![r(d)], v].concat());
        }
        if let (Some([m1, m2]), 3) = (lookup(FUSED32, op, signed), s.len()) {
            let a = self.val(s[0], 0)?;
            let b = self.val(s[1], 0)?;
            let t = self.tmp(m1, vec![a, b])?;
            let c = self.val(s[2], 0)?;
            return self.emit(m2, vec![r(d), t, c]);
        }
        match (op, s.len()) {
            (BrigOpcode::MOV, 1) => self.copy(d, s[0], 1),
            (BrigOpcode::NOT, 1) => {
                let a = self.val_any(s[0], 0);
                self.emit("v_not_b32", vec![r(d), a])
            }
            (BrigOpcode::NEG, 1) => {
                let a = self.val(s[0], 0)?;
                self.emit("v_sub_u32_e64", vec![r(d), Opnd::constant(0), a])
            }
            (BrigOpcode::ABS, 1) if signed => {
                // max(a, -a): -2^31 stays -2^31 (PRM §5.2.2).
                let a = self.val(s[0], 0)?;
                let t = self.tmp("v_sub_u32_e64", vec![Opnd::constant(0), a])?;
                self.emit("v_max_i32_e64", vec![r(d), a, t])
            }
            (BrigOpcode::DIV | BrigOpcode::REM, 2) => {
                self.divrem(op == BrigOpcode::REM, signed, d, [s[0], s[1]], 1)
            }
            (BrigOpcode::CARRY | BrigOpcode::BORROW, 2) => {
                let a = self.val(s[0], 0)?;
                let b = self.val(s[1], 0)?;
                let mn = if op == BrigOpcode::CARRY {
                    "v_add_co_u32_e64"
                } else {
                    "v_sub_co_u32_e64"
                };
                self.tmp(mn, vec![Opnd::vcc(), a, b])?;
                self.vcc_to_bit(r(d))
            }
            (BrigOpcode::CMOV, 3) => self.cmov(d, s, 1),
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// A 64-bit integer operation on values (one element of a `u64x2` or
    /// `s64x2` operation, `packed64.rs`).
    pub(super) fn alu64(
        &mut self,
        op: BrigOpcode,
        signed: bool,
        d: VReg,
        s: &[Src],
        what: &str,
    ) -> Result<()> {
        self.lower_alu64(IntInst {
            op,
            signed,
            d,
            s,
            what,
        })
    }

    /// 64-bit integer operations.
    fn lower_alu64(&mut self, i: IntInst<'_>) -> Result<()> {
        let IntInst {
            op,
            signed,
            d,
            s,
            what,
        } = i;
        match (op, s.len()) {
            (BrigOpcode::MOV, 1) => self.copy(d, s[0], 2),
            (BrigOpcode::ADD | BrigOpcode::SUB, 2) => {
                let a = self.halves(s[0])?;
                let b = self.halves(s[1])?;
                let t = self.addsub64(op == BrigOpcode::SUB, a, b)?;
                self.store64(d, t)
            }
            (BrigOpcode::NEG, 1) => {
                let a = self.halves(s[0])?;
                let t = self.addsub64(true, small64(0), a)?;
                self.store64(d, t)
            }
            (BrigOpcode::ABS, 1) if signed => {
                let a = self.halves(s[0])?;
                let n = self.addsub64(true, small64(0), a)?;
                self.emit(
                    "v_cmp_gt_i32_e64",
                    vec![Opnd::vcc(), Opnd::constant(0), a[1]],
                )?;
                self.select64(d, halves_of(n), a)
            }
            (BrigOpcode::NOT, 1) => {
                for i in 0..2 {
                    let a = self.val_any(s[0], i);
                    self.emit("v_not_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            (BrigOpcode::MUL, 2) => {
                let a = self.halves(s[0])?;
                let b = self.halves(s[1])?;
                let t = self.mul64(a, b)?;
                self.store64(d, t)
            }
            (BrigOpcode::MAD, 3) => {
                let a = self.halves(s[0])?;
                let b = self.halves(s[1])?;
                let c = self.halves(s[2])?;
                let p = self.mul64(a, b)?;
                let t = self.addsub64(false, halves_of(p), c)?;
                self.store64(d, t)
            }
            (BrigOpcode::MULHI, 2) => {
                let a = self.halves(s[0])?;
                let b = self.halves(s[1])?;
                let t = self.mulhi64(signed, a, b)?;
                self.store64(d, t)
            }
            (BrigOpcode::MIN | BrigOpcode::MAX, 2) => {
                let a = self.val64(s[0])?;
                let b = self.val64(s[1])?;
                let cmp = match (op, signed) {
                    (BrigOpcode::MIN, false) => "v_cmp_lt_u64_e64",
                    (BrigOpcode::MIN, true) => "v_cmp_lt_i64_e64",
                    (_, false) => "v_cmp_gt_u64_e64",
                    (_, true) => "v_cmp_gt_i64_e64",
                };
                // vcc = a is the result.
                self.emit(cmp, vec![Opnd::vcc(), pair(a), pair(b)])?;
                self.select64(d, halves_of(a), halves_of(b))
            }
            (BrigOpcode::CARRY | BrigOpcode::BORROW, 2) => {
                let a = self.halves(s[0])?;
                let b = self.halves(s[1])?;
                self.addsub64(op == BrigOpcode::BORROW, a, b)?;
                self.vcc_to_bit(dw(d, 0))?;
                self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])
            }
            (BrigOpcode::DIV | BrigOpcode::REM, 2) => {
                self.divrem(op == BrigOpcode::REM, signed, d, [s[0], s[1]], 2)
            }
            (BrigOpcode::CMOV, 3) => self.cmov(d, s, 2),
            _ => self.dwordwise(op, d, s, 2, what),
        }
    }

    /// A [`DWORDWISE`] operation on `dwords` dwords.
    fn dwordwise(
        &mut self,
        op: BrigOpcode,
        d: VReg,
        s: &[Src],
        dwords: u8,
        what: &str,
    ) -> Result<()> {
        let Some(&(_, mn)) = DWORDWISE.iter().find(|(o, _)| *o == op) else {
            return Err(self.unsupported(what.to_string()));
        };
        let arity = if op == BrigOpcode::BITSELECT { 3 } else { 2 };
        if s.len() != arity {
            return Err(self.unsupported(what.to_string()));
        }
        for i in 0..dwords {
            let v = self.vals(s, i)?;
            self.emit(mn, [vec![dw(d, i)], v].concat())?;
        }
        Ok(())
    }

    /// `mov`: copies `dwords` dwords of `a` into `d`.
    pub(super) fn copy(&mut self, d: VReg, a: Src, dwords: u8) -> Result<()> {
        for i in 0..dwords {
            let v = self.val_any(a, i);
            self.emit("v_mov_b32", vec![dw(d, i), v])?;
        }
        Ok(())
    }

    /// `cmov`: `d = s0 ? s1 : s2` on `dwords` dwords (`s0` is a `b1`).
    fn cmov(&mut self, d: VReg, s: &[Src], dwords: u8) -> Result<()> {
        let c = self.val(s[0], 0)?;
        self.emit("v_cmp_ne_u32_e64", vec![Opnd::vcc(), Opnd::constant(0), c])?;
        for i in 0..dwords {
            let t = self.val(s[1], i)?;
            let f = self.val(s[2], i)?;
            self.emit("v_cndmask_b32_e64", vec![dw(d, i), f, t, Opnd::vcc()])?;
        }
        Ok(())
    }

    /// `combine` and `expand` (§5.8): the parts are consecutive dwords of
    /// the `$d` or `$q` register (`part_dwords` in `quad.rs`).
    pub(super) fn lower_combine_expand(
        &mut self,
        op: BrigOpcode,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some(&first), Some(&second)) = (ops.first(), ops.get(1)) else {
            return Err(self.unsupported(format!("{what} without operands")));
        };
        if op == BrigOpcode::COMBINE {
            let parts = self.operand_list(second)?;
            let per = self.part_dwords(first, parts.len(), what)?;
            let d = self.dst(first)?;
            for (k, &p) in (0u8..).zip(&parts) {
                let s = self.src(p)?;
                for i in 0..per {
                    self.copy_dword(dw(d, k * per + i), s, i)?;
                }
            }
            Ok(())
        } else {
            let parts = self.operand_list(first)?;
            let per = self.part_dwords(second, parts.len(), what)?;
            let s = self.src(second)?;
            for (k, &p) in (0u8..).zip(&parts) {
                let d = self.dst(p)?;
                for i in 0..per {
                    self.copy_dword(dw(d, i), s, k * per + i)?;
                }
            }
            Ok(())
        }
    }

    /// Moves dword `i` of `s` into `to`.
    fn copy_dword(&mut self, to: Opnd, s: Src, i: u8) -> Result<()> {
        let v = self.val_any(s, i);
        self.emit("v_mov_b32", vec![to, v])
    }

    /// The elements of an operand-list operand (`(…)` in the text).
    pub(super) fn operand_list(&self, o: OperandOffset) -> Result<Vec<OperandOffset>> {
        match self.m.operand(o) {
            Ok(brig::Operand::OperandList(l)) => self
                .m
                .operand_list(l.elements)
                .map_err(|e| crate::Error::Invalid(e.to_string())),
            _ => Err(self.unsupported("a vector operand that is not a register list".into())),
        }
    }

    /// Dword `i` of each source, as VGPRs or inline constants.
    fn vals(&mut self, s: &[Src], i: u8) -> Result<Vec<Opnd>> {
        s.iter().map(|&x| self.val(x, i)).collect()
    }

    /// Emits `mn` with a fresh one-dword destination and returns it.
    pub(super) fn tmp(&mut self, mn: &str, srcs: Vec<Opnd>) -> Result<Opnd> {
        let t = self.vtemp(1);
        self.emit(mn, [vec![r(t)], srcs].concat())?;
        Ok(r(t))
    }

    /// `to = vcc ? 1 : 0`.
    pub(super) fn vcc_to_bit(&mut self, to: Opnd) -> Result<()> {
        self.emit(
            "v_cndmask_b32_e64",
            vec![to, Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )
    }

    /// The two dwords of a 64-bit source.
    pub(super) fn halves(&mut self, s: Src) -> Result<Halves> {
        Ok([self.val(s, 0)?, self.val(s, 1)?])
    }

    /// Copies a 64-bit temporary into `d`.
    pub(super) fn store64(&mut self, d: VReg, t: VReg) -> Result<()> {
        for i in 0..2 {
            self.emit("v_mov_b32", vec![dw(d, i), dw(t, i)])?;
        }
        Ok(())
    }

    /// `d = vcc ? t : f` on 64-bit values.
    pub(super) fn select64(&mut self, d: VReg, t: Halves, f: Halves) -> Result<()> {
        let x = self.select_new(t, f)?;
        self.store64(d, x)
    }

    /// `vcc ? t : f` on 64-bit values, into a new pair.
    pub(super) fn select_new(&mut self, t: Halves, f: Halves) -> Result<VReg> {
        let x = self.vtemp(2);
        for i in 0..2 {
            self.emit(
                "v_cndmask_b32_e64",
                vec![dw(x, i), f[usize::from(i)], t[usize::from(i)], Opnd::vcc()],
            )?;
        }
        Ok(x)
    }

    /// `a + b` or `a - b` on 64 bits into a new pair; VCC is left holding
    /// the carry (borrow) out.
    pub(super) fn addsub64(&mut self, sub: bool, a: Halves, b: Halves) -> Result<VReg> {
        let (lo, hi) = if sub {
            ("v_sub_co_u32_e64", "v_subb_co_u32_e64")
        } else {
            ("v_add_co_u32_e64", "v_addc_co_u32_e64")
        };
        self.carry_chain(lo, hi, a, b)
    }

    /// `lo` then `hi` through VCC into a new pair.
    fn carry_chain(&mut self, lo: &str, hi: &str, a: Halves, b: Halves) -> Result<VReg> {
        let t = self.vtemp(2);
        self.emit(lo, vec![dw(t, 0), Opnd::vcc(), a[0], b[0]])?;
        self.emit(hi, vec![dw(t, 1), Opnd::vcc(), a[1], b[1], Opnd::vcc()])?;
        Ok(t)
    }

    /// `d = a + b` (`lo`/`hi` the carry-chain pair of mnemonics; the form
    /// the memory lowering uses for addresses).
    pub(super) fn add64(&mut self, lo: &str, hi: &str, d: VReg, a: Src, b: Src) -> Result<()> {
        let a = self.halves(a)?;
        let b = self.halves(b)?;
        let t = self.carry_chain(lo, hi, a, b)?;
        self.store64(d, t)
    }

    /// The low 64 bits of `a * b` into a new pair.
    pub(super) fn mul64(&mut self, a: Halves, b: Halves) -> Result<VReg> {
        let t = self.vtemp(2);
        self.emit(
            "v_mad_u64_u32",
            vec![pair(t), Opnd::vcc(), a[0], b[0], Opnd::constant(0)],
        )?;
        let x = self.tmp("v_mul_lo_u32", vec![a[0], b[1]])?;
        let y = self.tmp("v_mul_lo_u32", vec![a[1], b[0]])?;
        let hi = self.tmp("v_add3_u32", vec![dw(t, 1), x, y])?;
        self.emit("v_mov_b32", vec![dw(t, 1), hi])?;
        Ok(t)
    }

    /// The high 64 bits of the 128-bit product `a * b` into a new pair:
    /// with `a = a1:a0`, `b = b1:b0`, `a0*b1 + a1*b0 + hi(a0*b0)` summed
    /// with its carry, then `a1*b1` plus that sum's high part. The signed
    /// form subtracts `b` if `a < 0` and `a` if `b < 0`.
    pub(super) fn mulhi64(&mut self, signed: bool, a: Halves, b: Halves) -> Result<VReg> {
        // u = a0*b1 + hi(a0*b0) (cannot overflow).
        let h = self.vtemp(2);
        self.emit("v_mul_hi_u32", vec![dw(h, 0), a[0], b[0]])?;
        self.emit("v_mov_b32", vec![dw(h, 1), Opnd::constant(0)])?;
        let u = self.vtemp(2);
        self.emit(
            "v_mad_u64_u32",
            vec![pair(u), Opnd::vcc(), a[0], b[1], pair(h)],
        )?;
        // v = a1*b0 + u, carry out in VCC.
        let v = self.vtemp(2);
        self.emit(
            "v_mad_u64_u32",
            vec![pair(v), Opnd::vcc(), a[1], b[0], pair(u)],
        )?;
        // w = a1*b1 + (carry:hi(v)).
        let c = self.vtemp(2);
        self.emit("v_mov_b32", vec![dw(c, 0), dw(v, 1)])?;
        self.vcc_to_bit(dw(c, 1))?;
        let w = self.vtemp(2);
        self.emit(
            "v_mad_u64_u32",
            vec![pair(w), Opnd::vcc(), a[1], b[1], pair(c)],
        )?;
        if !signed {
            return Ok(w);
        }
        let mut acc = w;
        for (x, y) in [(a, b), (b, a)] {
            // acc -= x < 0 ? y : 0
            let sign = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), x[1]])?;
            let lo = self.tmp("v_and_b32_e64", vec![sign, y[0]])?;
            let hi = self.tmp("v_and_b32_e64", vec![sign, y[1]])?;
            acc = self.addsub64(true, halves_of(acc), [lo, hi])?;
        }
        Ok(acc)
    }
}

/// A 64-bit constant below 2^32 + 64 as halves of inline constants.
pub(super) fn small64(lo: u32) -> Halves {
    [Opnd::constant(lo), Opnd::constant(0)]
}

/// The dwords of a 64-bit register.
pub(super) fn halves_of(v: VReg) -> Halves {
    [dw(v, 0), dw(v, 1)]
}
