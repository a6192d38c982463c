//! Bit-string and bit-counting operations (PRM §5.6 `popcount`, §5.7
//! `bitextract`, `bitinsert`, `bitmask`, `bitrev`, `firstbit`, `lastbit`;
//! `bitselect` is a table entry in `int.rs`).
//!
//! Offsets and widths are masked to 5 (32-bit) or 6 (64-bit) bits as the
//! PRM says; GFX9's `v_bfe`/`v_bfm` read exactly the low 5 bits and the
//! 64-bit shifts the low 6. Where the PRM leaves offset + width beyond the
//! operand length undefined, the 32-bit forms give what the hardware field
//! instructions give and the 64-bit forms what the PRM's pseudocode gives
//! with shift amounts taken modulo 64.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigInstSourceType, BrigOpcode, OperandOffset};

use super::int::{Halves, halves_of, small64};
use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

impl Cx<'_> {
    /// The bit-string operations of `InstBasic` form; `Ok(false)` if `op`
    /// is none of them.
    pub(super) fn lower_bits(
        &mut self,
        op: BrigOpcode,
        signed: bool,
        bits: u32,
        d: VReg,
        s: &[Src],
    ) -> Result<bool> {
        let arity = match op {
            BrigOpcode::BITEXTRACT => 3,
            BrigOpcode::BITINSERT => 4,
            BrigOpcode::BITMASK => 2,
            BrigOpcode::BITREV => 1,
            _ => return Ok(false),
        };
        if s.len() != arity || !(bits == 32 || bits == 64) {
            return Ok(false);
        }
        if bits == 32 {
            self.bits32(op, signed, d, s)?;
        } else {
            self.bits64(op, signed, d, s)?;
        }
        Ok(true)
    }

    fn bits32(&mut self, op: BrigOpcode, signed: bool, d: VReg, s: &[Src]) -> Result<()> {
        match op {
            BrigOpcode::BITEXTRACT => {
                let mn = if signed { "v_bfe_i32" } else { "v_bfe_u32" };
                let v = [self.val(s[0], 0)?, self.val(s[1], 0)?, self.val(s[2], 0)?];
                self.emit(mn, [vec![r(d)], v.to_vec()].concat())
            }
            BrigOpcode::BITINSERT => {
                let base = self.val(s[0], 0)?;
                let ins = self.val(s[1], 0)?;
                let off = self.val(s[2], 0)?;
                let width = self.val(s[3], 0)?;
                let mask = self.tmp("v_bfm_b32", vec![width, off])?;
                let sh = self.tmp("v_lshlrev_b32_e64", vec![off, ins])?;
                self.emit("v_bfi_b32", vec![r(d), mask, sh, base])
            }
            BrigOpcode::BITMASK => {
                let off = self.val(s[0], 0)?;
                let width = self.val(s[1], 0)?;
                self.emit("v_bfm_b32", vec![r(d), width, off])
            }
            _ => {
                let a = self.val_any(s[0], 0);
                self.emit("v_bfrev_b32", vec![r(d), a])
            }
        }
    }

    fn bits64(&mut self, op: BrigOpcode, signed: bool, d: VReg, s: &[Src]) -> Result<()> {
        match op {
            BrigOpcode::BITEXTRACT => {
                // width == 0 ? 0 : (a << (64 - width - off)) >> (64 - width)
                let a = self.val64(s[0])?;
                let off = self.val(s[1], 0)?;
                let width = self.val(s[2], 0)?;
                let w = self.tmp("v_and_b32_e64", vec![width, Opnd::constant(63)])?;
                let o = self.tmp("v_and_b32_e64", vec![off, Opnd::constant(63)])?;
                let right = self.tmp("v_sub_u32_e64", vec![Opnd::constant(64), w])?;
                let left = self.tmp("v_sub_u32_e64", vec![right, o])?;
                let x = self.vtemp(2);
                self.emit("v_lshlrev_b64", vec![pair(x), left, pair(a)])?;
                let y = self.vtemp(2);
                let shr = if signed {
                    "v_ashrrev_i64"
                } else {
                    "v_lshrrev_b64"
                };
                self.emit(shr, vec![pair(y), right, pair(x)])?;
                self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), w, Opnd::constant(0)])?;
                self.select64(d, small64(0), halves_of(y))
            }
            BrigOpcode::BITINSERT => {
                let base = self.halves(s[0])?;
                let ins = self.val64(s[1])?;
                let off = self.val(s[2], 0)?;
                let width = self.val(s[3], 0)?;
                let mask = self.mask64(off, width)?;
                let sh = self.vtemp(2);
                self.emit("v_lshlrev_b64", vec![pair(sh), off, pair(ins)])?;
                for i in 0..2 {
                    self.emit(
                        "v_bfi_b32",
                        vec![dw(d, i), dw(mask, i), dw(sh, i), base[usize::from(i)]],
                    )?;
                }
                Ok(())
            }
            BrigOpcode::BITMASK => {
                let off = self.val(s[0], 0)?;
                let width = self.val(s[1], 0)?;
                let mask = self.mask64(off, width)?;
                self.store64(d, mask)
            }
            _ => {
                let t = self.vtemp(2);
                for i in 0..2 {
                    let a = self.val_any(s[0], 1 - i);
                    self.emit("v_bfrev_b32", vec![dw(t, i), a])?;
                }
                self.store64(d, t)
            }
        }
    }

    /// `((1 << width) - 1) << off` on 64 bits (amounts modulo 64).
    fn mask64(&mut self, off: Opnd, width: Opnd) -> Result<VReg> {
        let one = self.vtemp(2);
        self.emit("v_lshlrev_b64", vec![pair(one), width, Opnd::constant(1)])?;
        let ones = self.addsub64(true, halves_of(one), small64(1))?;
        let mask = self.vtemp(2);
        self.emit("v_lshlrev_b64", vec![pair(mask), off, pair(ones)])?;
        Ok(mask)
    }

    /// `popcount`, `firstbit`, `lastbit` (and `combine`/`expand`, which
    /// share the instruction format).
    pub(super) fn lower_source_type(
        &mut self,
        st: &BrigInstSourceType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let op = st.base.opcode;
        if matches!(op, BrigOpcode::COMBINE | BrigOpcode::EXPAND) {
            return self.lower_combine_expand(op, ops, what);
        }
        if matches!(op, BrigOpcode::PACK | BrigOpcode::UNPACK) {
            return self.lower_pack_unpack(st, ops, what);
        }
        let (Some((kind, bits)), 2) = (ty(st.source_type), ops.len()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let a = self.src(ops[1])?;
        match (op, bits) {
            (BrigOpcode::POPCOUNT, 32) => {
                let x = self.val(a, 0)?;
                self.emit("v_bcnt_u32_b32", vec![r(d), x, Opnd::constant(0)])
            }
            (BrigOpcode::POPCOUNT, 64) => {
                let [lo, hi] = self.halves(a)?;
                let t = self.tmp("v_bcnt_u32_b32", vec![lo, Opnd::constant(0)])?;
                self.emit("v_bcnt_u32_b32", vec![r(d), hi, t])
            }
            (BrigOpcode::FIRSTBIT, 32) => {
                // v_ffbh_* give the PRM's values, -1 included.
                let mn = if kind == Kind::S {
                    "v_ffbh_i32"
                } else {
                    "v_ffbh_u32"
                };
                let x = self.val_any(a, 0);
                self.emit(mn, vec![r(d), x])
            }
            (BrigOpcode::FIRSTBIT, 64) => {
                let mut x = self.halves(a)?;
                if kind == Kind::S {
                    // Complement negative values.
                    let sign = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), x[1]])?;
                    for h in &mut x {
                        *h = self.tmp("v_xor_b32_e64", vec![*h, sign])?;
                    }
                }
                // High dword first; the low dword counts from 32.
                self.scan64(d, "v_ffbh_u32", [x[1], x[0]])
            }
            (BrigOpcode::LASTBIT, 32) => {
                let x = self.val_any(a, 0);
                self.emit("v_ffbl_b32", vec![r(d), x])
            }
            (BrigOpcode::LASTBIT, 64) => {
                let x = self.halves(a)?;
                self.scan64(d, "v_ffbl_b32", x)
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// A 64-bit bit scan from two 32-bit scans (-1 when nothing is found):
    /// `min(scan(first), scan(second) | 32)`; `-1 | 32` stays -1.
    fn scan64(&mut self, d: VReg, mn: &str, [first, second]: Halves) -> Result<()> {
        let f = self.tmp(mn, vec![first])?;
        let s = self.tmp(mn, vec![second])?;
        let s32 = self.tmp("v_or_b32_e64", vec![s, Opnd::constant(32)])?;
        self.emit("v_min_u32_e64", vec![r(d), f, s32])
    }
}
