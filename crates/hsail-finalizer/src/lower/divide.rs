//! Integer `div`/`rem` on 32 and 64 bits (PRM §5.2.2).
//!
//! Unsigned division multiplies by a fixed-point reciprocal of the divisor:
//! an f32 estimate (deliberately a little low, so the product never
//! overshoots), refined by Newton–Raphson steps in integer arithmetic,
//! then the quotient `mulhi(n, z)` corrected upward at most twice. The
//! signed forms divide magnitudes and fix the signs (C99 truncation: the
//! quotient is negative when the signs differ, the remainder takes the
//! dividend's sign).
//!
//! The PRM leaves division by zero undefined; this finalizer defines it
//! without faulting: the unsigned quotient is all ones and the remainder
//! is the dividend (signed: the quotient of the magnitudes, all ones, with
//! the sign fix applied, and the remainder is the dividend). `-2^(n-1) /
//! -1` wraps to `-2^(n-1)` and its remainder is 0, as the PRM requires.

use amdgpu_codegen::{Opnd, VReg};

use super::int::{Halves, halves_of, small64};
use super::{Cx, Src, dw, pair};
use crate::Result;

/// f32 bit patterns of the reciprocal estimate's constants.
mod k {
    /// 2^32.
    pub const TWO_32: u32 = 0x4f80_0000;
    /// -2^32.
    pub const NEG_TWO_32: u32 = 0xcf80_0000;
    /// 2^-32.
    pub const TWO_M32: u32 = 0x2f80_0000;
    /// 2^32 (1 - 2^-22), just below 2^32: the 32-bit estimate stays low.
    pub const BELOW_2_32: u32 = 0x4f7f_fffe;
    /// 2^64 (1 - 2^-20): the 64-bit estimate stays low by a margin wider
    /// than the f32 conversion and reciprocal errors.
    pub const BELOW_2_64: u32 = 0x5f7f_fff0;
}

impl Cx<'_> {
    /// `d = a / b` or `a % b` on `dwords` (1 or 2) dwords.
    pub(super) fn divrem(
        &mut self,
        rem: bool,
        signed: bool,
        d: VReg,
        [a, b]: [Src; 2],
        dwords: u8,
    ) -> Result<()> {
        let mut x = (0..dwords)
            .map(|i| self.val(a, i))
            .collect::<Result<Vec<_>>>()?;
        let mut y = (0..dwords)
            .map(|i| self.val(b, i))
            .collect::<Result<Vec<_>>>()?;
        let mut signs = None;
        if signed {
            let hi = usize::from(dwords - 1);
            let sx = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), x[hi]])?;
            let sy = self.tmp("v_ashrrev_i32_e64", vec![Opnd::constant(31), y[hi]])?;
            x = self.magnitude(&x, sx)?;
            y = self.magnitude(&y, sy)?;
            signs = Some((sx, sy));
        }
        let (q, m) = if dwords == 1 {
            let (q, m) = self.udivrem32(x[0], y[0])?;
            (vec![q], vec![m])
        } else {
            let (q, m) = self.udivrem64([x[0], x[1]], [y[0], y[1]])?;
            (halves_of(q).to_vec(), halves_of(m).to_vec())
        };
        let mut v = if rem { m } else { q };
        if let Some((sx, sy)) = signs {
            let s = if rem {
                sx
            } else {
                self.tmp("v_xor_b32_e64", vec![sx, sy])?
            };
            v = self.magnitude(&v, s)?;
        }
        for (i, part) in (0u8..).zip(v) {
            self.emit("v_mov_b32", vec![dw(d, i), part])?;
        }
        Ok(())
    }

    /// `(v + s) ^ s` on one or two dwords for a sign mask `s` (0 or -1,
    /// extended): `v` or `-v`. Gives `|v|` when `s` is `v`'s sign, and
    /// applies a result's sign.
    fn magnitude(&mut self, v: &[Opnd], s: Opnd) -> Result<Vec<Opnd>> {
        let sum = if let [lo, hi] = *v {
            halves_of(self.addsub64(false, [lo, hi], [s, s])?).to_vec()
        } else {
            vec![self.tmp("v_add_u32_e64", vec![v[0], s])?]
        };
        sum.into_iter()
            .map(|t| self.tmp("v_xor_b32_e64", vec![t, s]))
            .collect()
    }

    /// Unsigned quotient and remainder of VGPR/inline operands.
    fn udivrem32(&mut self, x: Opnd, y: Opnd) -> Result<(Opnd, Opnd)> {
        let fy = self.tmp("v_cvt_f32_u32", vec![y])?;
        let rcp = self.tmp("v_rcp_iflag_f32", vec![fy])?;
        let kb = self.val(Src::Const(u64::from(k::BELOW_2_32)), 0)?;
        let sc = self.tmp("v_mul_f32_e64", vec![rcp, kb])?;
        let z = self.tmp("v_cvt_u32_f32", vec![sc])?;
        // One Newton–Raphson step in fixed point: z += mulhi(z, -y * z).
        let ny = self.tmp("v_sub_u32_e64", vec![Opnd::constant(0), y])?;
        let nyz = self.tmp("v_mul_lo_u32", vec![ny, z])?;
        let h = self.tmp("v_mul_hi_u32", vec![z, nyz])?;
        let z2 = self.tmp("v_add_u32_e64", vec![z, h])?;
        let mut q = self.tmp("v_mul_hi_u32", vec![x, z2])?;
        let qy = self.tmp("v_mul_lo_u32", vec![q, y])?;
        let mut m = self.tmp("v_sub_u32_e64", vec![x, qy])?;
        // Two corrections: while m >= y { q += 1; m -= y }.
        for _ in 0..2 {
            let q1 = self.tmp("v_add_u32_e64", vec![q, Opnd::constant(1)])?;
            let m1 = self.tmp("v_sub_u32_e64", vec![m, y])?;
            self.emit("v_cmp_ge_u32_e64", vec![Opnd::vcc(), m, y])?;
            q = self.tmp("v_cndmask_b32_e64", vec![q, q1, Opnd::vcc()])?;
            m = self.tmp("v_cndmask_b32_e64", vec![m, m1, Opnd::vcc()])?;
        }
        // Division by zero: all ones, remainder x.
        self.emit("v_cmp_eq_u32_e64", vec![Opnd::vcc(), y, Opnd::constant(0)])?;
        let q = self.tmp(
            "v_cndmask_b32_e64",
            vec![q, Opnd::constant(u32::MAX), Opnd::vcc()],
        )?;
        let m = self.tmp("v_cndmask_b32_e64", vec![m, x, Opnd::vcc()])?;
        Ok((q, m))
    }

    /// Unsigned 64-bit quotient and remainder, as new pairs.
    fn udivrem64(&mut self, n: Halves, dv: Halves) -> Result<(VReg, VReg)> {
        let z = self.reciprocal64(dv)?;
        // Two Newton–Raphson steps: z += mulhi(z, -dv * z).
        let mut z = z;
        for _ in 0..2 {
            let p = self.mul64(dv, halves_of(z))?;
            let e = self.addsub64(true, small64(0), halves_of(p))?;
            let h = self.mulhi64(false, halves_of(z), halves_of(e))?;
            z = self.addsub64(false, halves_of(z), halves_of(h))?;
        }
        let mut q = self.mulhi64(false, n, halves_of(z))?;
        let qd = self.mul64(halves_of(q), dv)?;
        let mut m = self.addsub64(true, n, halves_of(qd))?;
        let dvp = self.pair_of(dv)?;
        // Two corrections: while m >= dv { q += 1; m -= dv }.
        for _ in 0..2 {
            let q1 = self.addsub64(false, halves_of(q), small64(1))?;
            let m1 = self.addsub64(true, halves_of(m), dv)?;
            self.emit("v_cmp_ge_u64_e64", vec![Opnd::vcc(), pair(m), pair(dvp)])?;
            q = self.select_new(halves_of(q1), halves_of(q))?;
            m = self.select_new(halves_of(m1), halves_of(m))?;
        }
        // Division by zero: all ones, remainder n.
        self.emit(
            "v_cmp_eq_u64_e64",
            vec![Opnd::vcc(), pair(dvp), Opnd::constant(0)],
        )?;
        let ones = [Opnd::constant(u32::MAX), Opnd::constant(u32::MAX)];
        let q = self.select_new(ones, halves_of(q))?;
        let m = self.select_new(n, halves_of(m))?;
        Ok((q, m))
    }

    /// A low estimate of `2^64 / dv` (any value for `dv = 0`): the f32
    /// reciprocal of `dv` scaled by a little less than 2^64 and split into
    /// two 32-bit halves.
    fn reciprocal64(&mut self, dv: Halves) -> Result<VReg> {
        let fhi = self.tmp("v_cvt_f32_u32", vec![dv[1]])?;
        let flo = self.tmp("v_cvt_f32_u32", vec![dv[0]])?;
        let two32 = self.val(Src::Const(u64::from(k::TWO_32)), 0)?;
        let fd = self.tmp("v_fma_f32", vec![fhi, two32, flo])?;
        let rcp = self.tmp("v_rcp_f32", vec![fd])?;
        let kb = self.val(Src::Const(u64::from(k::BELOW_2_64)), 0)?;
        let sc = self.tmp("v_mul_f32_e64", vec![rcp, kb])?;
        let km = self.val(Src::Const(u64::from(k::TWO_M32)), 0)?;
        let hi = self.tmp("v_mul_f32_e64", vec![sc, km])?;
        let hi = self.tmp("v_trunc_f32", vec![hi])?;
        let kn = self.val(Src::Const(u64::from(k::NEG_TWO_32)), 0)?;
        let lo = self.tmp("v_fma_f32", vec![hi, kn, sc])?;
        let z = self.vtemp(2);
        self.emit("v_cvt_u32_f32", vec![dw(z, 0), lo])?;
        self.emit("v_cvt_u32_f32", vec![dw(z, 1), hi])?;
        Ok(z)
    }

    /// Halves in one VGPR pair (copied unless they already are one).
    fn pair_of(&mut self, h: Halves) -> Result<VReg> {
        if let [
            Opnd::Reg {
                reg: a,
                offset: 0,
                width: 1,
            },
            Opnd::Reg {
                reg: b,
                offset: 1,
                width: 1,
            },
        ] = h
            && a == b
        {
            return Ok(a);
        }
        let p = self.vtemp(2);
        for i in 0..2 {
            self.emit("v_mov_b32", vec![dw(p, i), h[usize::from(i)]])?;
        }
        Ok(p)
    }
}
