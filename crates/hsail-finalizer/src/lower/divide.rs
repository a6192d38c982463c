//! 32-bit integer `div`/`rem`: LLVM's AMDGPU expansion (an f32 reciprocal
//! estimate of the divisor refined to a 32-bit fixed-point reciprocal,
//! then two correction steps). Division by zero gives some value and
//! never faults, as HSAIL allows.

use amdgpu_codegen::{Opnd, VReg};

use super::{Cx, Src, r};
use crate::Result;

impl Cx<'_> {
    /// `d = a / b` or `a % b` (u32 or s32).
    pub(super) fn divrem32(
        &mut self,
        rem: bool,
        signed: bool,
        d: VReg,
        a: Src,
        b: Src,
    ) -> Result<()> {
        let x = self.val(a, 0)?;
        let y = self.val(b, 0)?;
        if !signed {
            let (q, m) = self.udivrem32(x, y)?;
            return self.emit("v_mov_b32", vec![r(d), r(if rem { m } else { q })]);
        }
        // |x|, |y| as (v + sign) ^ sign; the quotient's sign is sx ^ sy,
        // the remainder's that of x.
        let sx = self.vtemp(1);
        self.emit("v_ashrrev_i32_e64", vec![r(sx), Opnd::constant(31), x])?;
        let sy = self.vtemp(1);
        self.emit("v_ashrrev_i32_e64", vec![r(sy), Opnd::constant(31), y])?;
        let abs = |cx: &mut Self, v: Opnd, s: VReg| -> Result<VReg> {
            let t = cx.vtemp(1);
            cx.emit("v_add_u32_e64", vec![r(t), v, r(s)])?;
            let u = cx.vtemp(1);
            cx.emit("v_xor_b32_e64", vec![r(u), r(t), r(s)])?;
            Ok(u)
        };
        let ax = abs(self, x, sx)?;
        let ay = abs(self, y, sy)?;
        let (q, m) = self.udivrem32(r(ax), r(ay))?;
        let (v, s) = if rem {
            (m, sx)
        } else {
            let sq = self.vtemp(1);
            self.emit("v_xor_b32_e64", vec![r(sq), r(sx), r(sy)])?;
            (q, sq)
        };
        let t = self.vtemp(1);
        self.emit("v_xor_b32_e64", vec![r(t), r(v), r(s)])?;
        self.emit("v_sub_u32_e64", vec![r(d), r(t), r(s)])
    }

    /// Unsigned quotient and remainder of VGPR/inline operands.
    fn udivrem32(&mut self, x: Opnd, y: Opnd) -> Result<(VReg, VReg)> {
        let fy = self.vtemp(1);
        self.emit("v_cvt_f32_u32", vec![r(fy), y])?;
        let rcp = self.vtemp(1);
        self.emit("v_rcp_iflag_f32", vec![r(rcp), r(fy)])?;
        // 2^32 - 512 (0x4f7ffffe): just below 2^32 so the estimate is low.
        let k = self.val(Src::Const(0x4f7f_fffe), 0)?;
        let sc = self.vtemp(1);
        self.emit("v_mul_f32_e64", vec![r(sc), r(rcp), k])?;
        let z = self.vtemp(1);
        self.emit("v_cvt_u32_f32", vec![r(z), r(sc)])?;
        // One Newton–Raphson step in fixed point: z += mulhi(z, -y * z).
        let ny = self.vtemp(1);
        self.emit("v_sub_u32_e64", vec![r(ny), Opnd::constant(0), y])?;
        let nyz = self.vtemp(1);
        self.emit("v_mul_lo_u32", vec![r(nyz), r(ny), r(z)])?;
        let h = self.vtemp(1);
        self.emit("v_mul_hi_u32", vec![r(h), r(z), r(nyz)])?;
        let z2 = self.vtemp(1);
        self.emit("v_add_u32_e64", vec![r(z2), r(z), r(h)])?;
        let mut q = self.vtemp(1);
        self.emit("v_mul_hi_u32", vec![r(q), x, r(z2)])?;
        let qy = self.vtemp(1);
        self.emit("v_mul_lo_u32", vec![r(qy), r(q), y])?;
        let mut m = self.vtemp(1);
        self.emit("v_sub_u32_e64", vec![r(m), x, r(qy)])?;
        // Two corrections: while m >= y { q += 1; m -= y }.
        for _ in 0..2 {
            self.emit("v_cmp_ge_u32_e64", vec![Opnd::vcc(), r(m), y])?;
            let q1 = self.vtemp(1);
            self.emit("v_add_u32_e64", vec![r(q1), r(q), Opnd::constant(1)])?;
            let m1 = self.vtemp(1);
            self.emit("v_sub_u32_e64", vec![r(m1), r(m), y])?;
            let q2 = self.vtemp(1);
            self.emit("v_cndmask_b32_e64", vec![r(q2), r(q), r(q1), Opnd::vcc()])?;
            let m2 = self.vtemp(1);
            self.emit("v_cndmask_b32_e64", vec![r(m2), r(m), r(m1), Opnd::vcc()])?;
            q = q2;
            m = m2;
        }
        Ok((q, m))
    }
}
