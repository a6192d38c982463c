//! Packed integer operations on 32- and 64-bit registers (PRM §4.14
//! packing controls, §5.2 packed arithmetic, §5.5 packed shifts, §5.10
//! packed `cmov`; packed `cmp` is in `compare.rs`).
//!
//! Each element is extracted into a dword (sign- or zero-extended by the
//! element type), computed with 32-bit instructions, saturated if the
//! control says so, and the results are packed back. Narrow elements
//! compute exactly in 32 bits, so truncating the result wraps as the PRM
//! requires. 128-bit packed types live in `$q` registers (`quad.rs`);
//! types with 64-bit elements (`u64x2`, `s64x2`) are not supported yet.

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigPack, BrigType, Code, OperandOffset};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

/// A packed type's element width, count and signedness.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub w: u32,
    pub n: u32,
    pub signed: bool,
}

impl Layout {
    /// The layout of a 32-, 64- or 128-bit packed type with elements of
    /// at most 32 bits (64-bit elements are not supported yet).
    pub(super) fn of(t: BrigType) -> Option<Layout> {
        let (kind, w) = ty(t.element_type())?;
        let n = t.packed_count();
        (t.is_packed() && w <= 32 && matches!(w * n, 32 | 64 | 128)).then_some(Layout {
            w,
            n,
            signed: kind == Kind::S,
        })
    }

    /// All ones in an element.
    fn ones(self) -> u32 {
        if self.w == 32 {
            u32::MAX
        } else {
            (1 << self.w) - 1
        }
    }
}

/// What a packing control selects: which sources are scalar (their
/// element 0 broadcast), whether only element 0 of the destination is
/// written, and whether results saturate.
#[derive(Clone, Copy)]
pub(super) struct Control {
    pub scalar: [bool; 2],
    pub low_only: bool,
    pub sat: bool,
}

impl Control {
    pub(super) fn of(p: BrigPack) -> Control {
        use BrigPack as P;
        let sat = matches!(
            p,
            P::PPSAT | P::PSSAT | P::SPSAT | P::SSSAT | P::SSAT | P::PSAT
        );
        let scalar = match p {
            P::PS | P::PSSAT => [false, true],
            P::SP | P::SPSAT => [true, false],
            P::SS | P::SSSAT | P::S | P::SSAT => [true, true],
            _ => [false, false],
        };
        Control {
            scalar,
            low_only: scalar == [true, true],
            sat,
        }
    }
}

/// A per-element computation: extracted sources → the element's result.
pub(super) type ElementFn<'f, 'c> = &'f mut dyn FnMut(&mut Cx<'c>, &[Opnd]) -> Result<Opnd>;

impl<'c> Cx<'c> {
    /// A packed integer instruction (`InstMod` with a packing control, or
    /// `InstBasic` on a packed type: shifts and `cmov`).
    pub(super) fn lower_packed(
        &mut self,
        code: &Code<'_>,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some(inst) = code.inst() else {
            return Ok(());
        };
        let pack = match code {
            Code::InstMod(md) => md.pack,
            _ => BrigPack::NONE,
        };
        let (op, ctl) = (inst.opcode, Control::of(pack));
        let Some(lay) = Layout::of(inst.type_).filter(|_| !ops.is_empty()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let float = ty(inst.type_.element_type()).is_some_and(|(k, _)| k == Kind::F);
        let moves = matches!(
            op,
            BrigOpcode::CMOV | BrigOpcode::SHUFFLE | BrigOpcode::UNPACKLO | BrigOpcode::UNPACKHI
        );
        if float && !moves {
            return Err(self.unsupported(what.to_string()));
        }
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        match (op, s.len()) {
            (BrigOpcode::SHL | BrigOpcode::SHR, 2) => {
                let amount = self.val(s[1], 0)?;
                let amount = self.tmp("v_and_b32_e64", vec![amount, Opnd::constant(lay.w - 1)])?;
                let mn = match (op, lay.signed) {
                    (BrigOpcode::SHL, _) => "v_lshlrev_b32_e64",
                    (_, false) => "v_lshrrev_b32_e64",
                    (_, true) => "v_ashrrev_i32_e64",
                };
                self.elementwise(d, lay, ctl, &s[..1], &mut |cx, x| {
                    cx.tmp(mn, vec![amount, x[0]])
                })
            }
            (BrigOpcode::CMOV, 3) => self.elementwise(d, lay, ctl, &s, &mut |cx, x| {
                cx.emit(
                    "v_cmp_ne_u32_e64",
                    vec![Opnd::vcc(), x[0], Opnd::constant(0)],
                )?;
                cx.tmp("v_cndmask_b32_e64", vec![x[2], x[1], Opnd::vcc()])
            }),
            (
                BrigOpcode::ADD
                | BrigOpcode::SUB
                | BrigOpcode::MUL
                | BrigOpcode::MULHI
                | BrigOpcode::MIN
                | BrigOpcode::MAX,
                2,
            )
            | (BrigOpcode::ABS | BrigOpcode::NEG, 1) => {
                self.elementwise(d, lay, ctl, &s, &mut |cx, x| {
                    cx.element_op(op, lay, ctl.sat, x)
                })
            }
            (BrigOpcode::SHUFFLE | BrigOpcode::UNPACKLO | BrigOpcode::UNPACKHI, _) => {
                self.rearrange(op, d, lay, &s, what)
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `shuffle`, `unpacklo`, `unpackhi` (§5.9): each destination element
    /// is a source element chosen at compile time. `shuffle` fills the
    /// lower half of the destination from `src0` and the upper half from
    /// `src1` (the PRM's description); the unpacks interleave the lower or
    /// upper halves of both sources, `src0` first.
    fn rearrange(
        &mut self,
        op: BrigOpcode,
        d: VReg,
        lay: Layout,
        s: &[Src],
        what: &str,
    ) -> Result<()> {
        let n = lay.n;
        let picks: Vec<(usize, u32)> = match (op, s) {
            (BrigOpcode::SHUFFLE, [_, _, Src::Const(sel)]) => {
                let bits = n.trailing_zeros();
                (0..n)
                    .map(|i| {
                        let index = (*sel >> (i * bits)) as u32 & (n - 1);
                        (usize::from(i >= n / 2), index)
                    })
                    .collect()
            }
            (BrigOpcode::UNPACKLO | BrigOpcode::UNPACKHI, [_, _]) => {
                let base = if op == BrigOpcode::UNPACKHI { n / 2 } else { 0 };
                (0..n).map(|i| ((i % 2) as usize, base + i / 2)).collect()
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        let raw = Layout {
            signed: false,
            ..lay
        };
        let mut results = Vec::with_capacity(picks.len());
        for (src, index) in picks {
            results.push(self.element(s[src], index, raw)?);
        }
        self.pack_elements(d, raw, &results, false)
    }

    /// `pack` and `unpack` (§5.9): one element, chosen at run time by the
    /// index operand (modulo the element count), replaced or extracted
    /// (`unpack` extends it by the element type).
    pub(super) fn lower_pack_unpack(
        &mut self,
        st: &brig::BrigInstSourceType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let pack = st.base.opcode == BrigOpcode::PACK;
        let packed_type = if pack { st.base.type_ } else { st.source_type };
        let lay = Layout::of(packed_type).filter(|l| l.w * l.n <= 64);
        if lay.is_none() {
            return self.pack_unpack128(pack, packed_type, ops, what);
        }
        let (Some(lay), Some(&dst)) = (lay, ops.first()) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(dst)?;
        let s = self.srcs(ops, 1)?;
        let (index, arity) = if pack { (2, 3) } else { (1, 2) };
        if s.len() != arity {
            return Err(self.unsupported(what.to_string()));
        }
        // Bit offset of the element: (index mod n) * w.
        let i = self.val(s[index], 0)?;
        let i = self.tmp("v_and_b32_e64", vec![i, Opnd::constant(lay.n - 1)])?;
        let log_w = Opnd::constant(lay.w.trailing_zeros());
        let sh = self.tmp("v_lshlrev_b32_e64", vec![log_w, i])?;
        let wide = lay.w * lay.n == 64;
        if pack {
            self.pack_one(d, lay, sh, &s, wide)
        } else {
            let v = if wide {
                let a = self.val64(s[0])?;
                let t = self.vtemp(2);
                self.emit("v_lshrrev_b64", vec![pair(t), sh, pair(a)])?;
                dw(t, 0)
            } else {
                self.val(s[0], 0)?
            };
            let x = if lay.w == 32 {
                v
            } else {
                let mn = if lay.signed { "v_bfe_i32" } else { "v_bfe_u32" };
                let off = if wide { Opnd::constant(0) } else { sh };
                self.tmp(mn, vec![v, off, Opnd::constant(lay.w)])?
            };
            self.emit("v_mov_b32", vec![r(d), x])
        }
    }

    /// `pack`: `bfi(ones << sh, value << sh, src0)` on each dword.
    fn pack_one(&mut self, d: VReg, lay: Layout, sh: Opnd, s: &[Src], wide: bool) -> Result<()> {
        let ones = Src::Const(u64::from(lay.ones()));
        let v = self.val(s[1], 0)?;
        let m = self.val(ones, 0)?;
        let v = self.tmp("v_and_b32_e64", vec![v, m])?;
        let (mask, value) = if wide {
            let m = self.vtemp(2);
            let ones = self.val64(ones)?;
            self.emit("v_lshlrev_b64", vec![pair(m), sh, pair(ones)])?;
            let x = self.vtemp(2);
            self.emit("v_mov_b32", vec![dw(x, 0), v])?;
            self.emit("v_mov_b32", vec![dw(x, 1), Opnd::constant(0)])?;
            let t = self.vtemp(2);
            self.emit("v_lshlrev_b64", vec![pair(t), sh, pair(x)])?;
            (vec![dw(m, 0), dw(m, 1)], vec![dw(t, 0), dw(t, 1)])
        } else {
            let m = self.tmp("v_lshlrev_b32_e64", vec![sh, m])?;
            (vec![m], vec![self.tmp("v_lshlrev_b32_e64", vec![sh, v])?])
        };
        let mut out = Vec::new();
        for (k, (m, x)) in (0u8..).zip(mask.into_iter().zip(value)) {
            let base = self.val(s[0], k)?;
            out.push(self.tmp("v_bfi_b32", vec![m, x, base])?);
        }
        for (k, v) in (0u8..).zip(out) {
            self.emit("v_mov_b32", vec![dw(d, k), v])?;
        }
        Ok(())
    }

    /// One element of an arithmetic operation (sources extended to 32 bits).
    fn element_op(&mut self, op: BrigOpcode, lay: Layout, sat: bool, x: &[Opnd]) -> Result<Opnd> {
        let s = lay.signed;
        if sat && lay.w == 32 {
            return self.saturate32(op, s, x[0], x[1]);
        }
        let r = match op {
            BrigOpcode::ADD => self.tmp("v_add_u32_e64", vec![x[0], x[1]])?,
            BrigOpcode::SUB => self.tmp("v_sub_u32_e64", vec![x[0], x[1]])?,
            BrigOpcode::MUL => self.tmp("v_mul_lo_u32", vec![x[0], x[1]])?,
            BrigOpcode::MULHI if lay.w == 32 => {
                let mn = if s { "v_mul_hi_i32" } else { "v_mul_hi_u32" };
                self.tmp(mn, vec![x[0], x[1]])?
            }
            BrigOpcode::MULHI => {
                // Narrow products are exact in 32 bits.
                let p = self.tmp("v_mul_lo_u32", vec![x[0], x[1]])?;
                let mn = if s {
                    "v_ashrrev_i32_e64"
                } else {
                    "v_lshrrev_b32_e64"
                };
                self.tmp(mn, vec![Opnd::constant(lay.w), p])?
            }
            BrigOpcode::MIN => {
                let mn = if s { "v_min_i32_e64" } else { "v_min_u32_e64" };
                self.tmp(mn, vec![x[0], x[1]])?
            }
            BrigOpcode::MAX => {
                let mn = if s { "v_max_i32_e64" } else { "v_max_u32_e64" };
                self.tmp(mn, vec![x[0], x[1]])?
            }
            BrigOpcode::NEG => self.tmp("v_sub_u32_e64", vec![Opnd::constant(0), x[0]])?,
            _ => {
                let n = self.tmp("v_sub_u32_e64", vec![Opnd::constant(0), x[0]])?;
                self.tmp("v_max_i32_e64", vec![x[0], n])?
            }
        };
        if !sat {
            return Ok(r);
        }
        // Clamp the exact result to the element's range.
        if !s && op == BrigOpcode::MUL {
            let hi = self.val(Src::Const(u64::from(lay.ones())), 0)?;
            return self.tmp("v_min_u32_e64", vec![r, hi]);
        }
        let (lo, hi) = if s {
            let half = 1u32 << (lay.w - 1);
            (half.wrapping_neg(), half - 1)
        } else {
            (0, lay.ones())
        };
        let lo = self.val(Src::Const(u64::from(lo)), 0)?;
        let hi = self.val(Src::Const(u64::from(hi)), 0)?;
        self.tmp("v_med3_i32", vec![r, lo, hi])
    }

    /// Saturating add, sub or mul of 32-bit elements.
    fn saturate32(&mut self, op: BrigOpcode, signed: bool, a: Opnd, b: Opnd) -> Result<Opnd> {
        let vcc = Opnd::vcc();
        if !signed {
            // Carry, borrow or a nonzero high product: all ones (0 for sub).
            let (r, limit) = match op {
                BrigOpcode::ADD => (self.tmp("v_add_co_u32_e64", vec![vcc, a, b])?, u32::MAX),
                BrigOpcode::SUB => (self.tmp("v_sub_co_u32_e64", vec![vcc, a, b])?, 0),
                _ => {
                    let hi = self.tmp("v_mul_hi_u32", vec![a, b])?;
                    self.emit("v_cmp_ne_u32_e64", vec![vcc, hi, Opnd::constant(0)])?;
                    (self.tmp("v_mul_lo_u32", vec![a, b])?, u32::MAX)
                }
            };
            return self.tmp("v_cndmask_b32_e64", vec![r, Opnd::constant(limit), vcc]);
        }
        // Overflow is detected from the signs; the limit has the sign of
        // the exact result (that of a, or of a ^ b for mul).
        let (r, sign_of) = match op {
            BrigOpcode::MUL => {
                let lo = self.tmp("v_mul_lo_u32", vec![a, b])?;
                let hi = self.tmp("v_mul_hi_i32", vec![a, b])?;
                let ext = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), lo])?;
                self.emit("v_cmp_ne_u32_e64", vec![vcc, hi, ext])?;
                (lo, self.tmp("v_xor_b32_e64", vec![a, b])?)
            }
            _ => {
                let add = op == BrigOpcode::ADD;
                let mn = if add {
                    "v_add_u32_e64"
                } else {
                    "v_sub_u32_e64"
                };
                let r = self.tmp(mn, vec![a, b])?;
                let x = self.tmp("v_xor_b32_e64", vec![a, r])?;
                let y = if add {
                    self.tmp("v_xor_b32_e64", vec![b, r])?
                } else {
                    self.tmp("v_xor_b32_e64", vec![a, b])?
                };
                let ov = self.tmp("v_and_b32_e64", vec![x, y])?;
                self.emit("v_cmp_gt_i32_e64", vec![vcc, Opnd::constant(0), ov])?;
                (r, a)
            }
        };
        let sign = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), sign_of])?;
        let max = self.val(Src::Const(0x7fff_ffff), 0)?;
        let limit = self.tmp("v_xor_b32_e64", vec![sign, max])?;
        self.tmp("v_cndmask_b32_e64", vec![r, limit, vcc])
    }

    /// Applies `f` to each element of `srcs` under `ctl` and packs the
    /// results into `d`.
    pub(super) fn elementwise(
        &mut self,
        d: VReg,
        lay: Layout,
        ctl: Control,
        srcs: &[Src],
        f: ElementFn<'_, 'c>,
    ) -> Result<()> {
        let count = if ctl.low_only { 1 } else { lay.n };
        let mut results = Vec::with_capacity(count as usize);
        for i in 0..count {
            let mut x = Vec::with_capacity(srcs.len());
            for (k, &s) in srcs.iter().enumerate() {
                let scalar = ctl.scalar.get(k).copied().unwrap_or(false);
                x.push(self.element(s, if scalar { 0 } else { i }, lay)?);
            }
            results.push(f(self, &x)?);
        }
        self.pack_elements(d, lay, &results, ctl.low_only)
    }

    /// Element `i` of `s` in a dword, extended by the element type.
    pub(super) fn element(&mut self, s: Src, i: u32, lay: Layout) -> Result<Opnd> {
        let bit = i * lay.w;
        let v = self.val(s, (bit / 32) as u8)?;
        if lay.w == 32 {
            return Ok(v);
        }
        let mn = if lay.signed { "v_bfe_i32" } else { "v_bfe_u32" };
        self.tmp(mn, vec![v, Opnd::constant(bit % 32), Opnd::constant(lay.w)])
    }

    /// Writes element results (in dwords) into `d`, each truncated to the
    /// element width; with `low_only`, only element 0 (the rest of `d`
    /// keeps its value). Every result is read before `d` is written.
    pub(super) fn pack_elements(
        &mut self,
        d: VReg,
        lay: Layout,
        results: &[Opnd],
        low_only: bool,
    ) -> Result<()> {
        let ones = self.val(Src::Const(u64::from(lay.ones())), 0)?;
        if low_only {
            let v = match results.first() {
                Some(&r) if lay.w < 32 => self.tmp("v_bfi_b32", vec![ones, r, dw(d, 0)])?,
                Some(&r) => r,
                None => return Ok(()),
            };
            return self.emit("v_mov_b32", vec![dw(d, 0), v]);
        }
        let per_dword = (32 / lay.w) as usize;
        let mut dwords = Vec::new();
        for chunk in results.chunks(per_dword) {
            let mut acc = None;
            for (e, &r) in (0u32..).zip(chunk) {
                let t = if lay.w < 32 {
                    self.tmp("v_and_b32_e64", vec![r, ones])?
                } else {
                    r
                };
                acc = Some(match acc {
                    None => t,
                    Some(a) => self.tmp("v_lshl_or_b32", vec![t, Opnd::constant(e * lay.w), a])?,
                });
            }
            dwords.extend(acc);
        }
        for (i, v) in (0u8..).zip(dwords) {
            self.emit("v_mov_b32", vec![dw(d, i), v])?;
        }
        Ok(())
    }
}
