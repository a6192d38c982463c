//! Multimedia instructions (PRM §5.15): `bitalign`, `bytealign`, `lerp`,
//! `packcvt`, `unpackcvt`, `sad`, `sadhi`.
//!
//! - `bitalign`/`bytealign` are `v_alignbit_b32`/`v_alignbyte_b32` with
//!   the sources swapped (AMDGPU takes the high dword first).
//! - `lerp_u8x4` is `v_lerp_u8` (per byte `(a + b + (c & 1)) >> 1`).
//! - `unpackcvt` is `v_cvt_f32_ubyte{0..3}` (exact).
//! - `sad_u32_u8x4` and `sadhi_u16x2_u8x4` are `v_sad_u8`/`v_sad_hi_u8`.
//!   `sad_u32_u32` is `max − min + src2` (unsigned: AMDGPU's `v_sad_u32`
//!   is documented on signed operands), and `sad_u32_u16x2` applies it
//!   to each half.
//! - `packcvt` converts each f32 with `cvt_near_sat_u8_f32` semantics:
//!   round to nearest even (`v_rndne_f32`), saturating conversion
//!   (`v_cvt_u32_f32`: NaN and negatives → 0), then min 255. The
//!   hardware's `v_cvt_pk_u8_f32` rounds in the MODE rounding, so it is
//!   not used.

use amdgpu_codegen::Opnd;
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::{Cx, Src, r};
use crate::Result;

/// The multimedia opcodes with `InstBasic` encoding.
pub(super) const BASIC: &[BrigOpcode] = &[
    BrigOpcode::BITALIGN,
    BrigOpcode::BYTEALIGN,
    BrigOpcode::LERP,
];

/// The multimedia opcodes with `InstSourceType` encoding.
pub(super) const SOURCE_TYPE: &[BrigOpcode] = &[
    BrigOpcode::PACKCVT,
    BrigOpcode::UNPACKCVT,
    BrigOpcode::SAD,
    BrigOpcode::SADHI,
];

/// `v_cvt_f32_ubyteN` by byte index.
const UBYTE: [&str; 4] = [
    "v_cvt_f32_ubyte0",
    "v_cvt_f32_ubyte1",
    "v_cvt_f32_ubyte2",
    "v_cvt_f32_ubyte3",
];

impl Cx<'_> {
    /// `bitalign_b32`, `bytealign_b32`, `lerp_u8x4`.
    pub(super) fn lower_multimedia(
        &mut self,
        op: BrigOpcode,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if ops.len() != 4 {
            return Err(self.unsupported(what.to_string()));
        }
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let mut x = Vec::with_capacity(3);
        for &v in &s {
            x.push(self.val(v, 0)?);
        }
        match op {
            BrigOpcode::BITALIGN => self.emit("v_alignbit_b32", vec![r(d), x[1], x[0], x[2]]),
            BrigOpcode::BYTEALIGN => self.emit("v_alignbyte_b32", vec![r(d), x[1], x[0], x[2]]),
            _ => self.emit("v_lerp_u8", vec![r(d), x[0], x[1], x[2]]),
        }
    }

    /// `packcvt_u8x4_f32`, `unpackcvt_f32_u8x4`, `sad_u32_*`,
    /// `sadhi_u16x2_u8x4`.
    pub(super) fn lower_multimedia_st(
        &mut self,
        op: BrigOpcode,
        source_type: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let arity = match op {
            BrigOpcode::PACKCVT => 4,
            BrigOpcode::UNPACKCVT => 2,
            _ => 3,
        };
        if ops.len() != arity + 1 {
            return Err(self.unsupported(what.to_string()));
        }
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        match (op, source_type, &s[..]) {
            (BrigOpcode::UNPACKCVT, _, &[a, Src::Const(i)]) => {
                let x = self.val_any(a, 0);
                let mn = UBYTE[(i & 3) as usize];
                self.emit(mn, vec![r(d), x])
            }
            (BrigOpcode::PACKCVT, _, _) => self.packcvt(d, &s),
            (BrigOpcode::SAD, BrigType::U32, &[a, b, c]) => {
                let (a, b, c) = (self.val(a, 0)?, self.val(b, 0)?, self.val(c, 0)?);
                let t = self.sad32(a, b, c)?;
                self.emit("v_mov_b32", vec![r(d), t])
            }
            (BrigOpcode::SAD, BrigType::U16X2, &[a, b, c]) => {
                let (a, b, c) = (self.val(a, 0)?, self.val(b, 0)?, self.val(c, 0)?);
                let ones = self.val(Src::Const(0xffff), 0)?;
                let sixteen = Opnd::constant(16);
                let (al, bl) = (
                    self.tmp("v_and_b32_e64", vec![a, ones])?,
                    self.tmp("v_and_b32_e64", vec![b, ones])?,
                );
                let (ah, bh) = (
                    self.tmp("v_lshrrev_b32_e64", vec![sixteen, a])?,
                    self.tmp("v_lshrrev_b32_e64", vec![sixteen, b])?,
                );
                let lo = self.sad32(al, bl, c)?;
                let t = self.sad32(ah, bh, lo)?;
                self.emit("v_mov_b32", vec![r(d), t])
            }
            (BrigOpcode::SAD | BrigOpcode::SADHI, BrigType::U8X4, &[a, b, c]) => {
                let (a, b, c) = (self.val(a, 0)?, self.val(b, 0)?, self.val(c, 0)?);
                let mn = if op == BrigOpcode::SAD {
                    "v_sad_u8"
                } else {
                    "v_sad_hi_u8"
                };
                self.emit(mn, vec![r(d), a, b, c])
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `|a − b| + c` on unsigned dwords (wrapping).
    fn sad32(&mut self, a: Opnd, b: Opnd, c: Opnd) -> Result<Opnd> {
        let hi = self.tmp("v_max_u32_e64", vec![a, b])?;
        let lo = self.tmp("v_min_u32_e64", vec![a, b])?;
        let diff = self.tmp("v_sub_u32_e64", vec![hi, lo])?;
        self.tmp("v_add_u32_e64", vec![diff, c])
    }

    /// `packcvt_u8x4_f32`: four `cvt_near_sat_u8_f32`, element 0 lowest.
    fn packcvt(&mut self, d: amdgpu_codegen::VReg, s: &[Src]) -> Result<()> {
        let max = self.val(Src::Const(255), 0)?;
        let mut acc: Option<Opnd> = None;
        for (i, &v) in (0u32..).zip(s) {
            let x = self.val_any(v, 0);
            let n = self.tmp("v_rndne_f32", vec![x])?;
            let u = self.tmp("v_cvt_u32_f32", vec![n])?;
            let b = self.tmp("v_min_u32_e64", vec![u, max])?;
            acc = Some(match acc {
                None => b,
                Some(a) => self.tmp("v_lshl_or_b32", vec![b, Opnd::constant(8 * i), a])?,
            });
        }
        match acc {
            Some(a) => self.emit("v_mov_b32", vec![r(d), a]),
            None => Ok(()),
        }
    }
}
