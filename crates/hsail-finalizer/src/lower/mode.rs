//! Float rounding and denormal modes: the kernel's default MODE register
//! (from the module header and profile) and the one helper that switches
//! MODE around instructions that need another rounding or `ftz`.
//!
//! MODE bits 7:0 (GFX9): `[1:0]` f32 round, `[3:2]` f16/f64 round, `[5:4]`
//! f32 denormals, `[7:6]` f16/f64 denormals. Round: 0 nearest even, 1 +∞,
//! 2 −∞, 3 toward zero. Denormals: bit 0 keeps input denormals, bit 1
//! keeps output denormals (3 = IEEE gradual underflow, 0 = flush both).
//!
//! Defaults: rounding is the module header's (`$zero` gives toward zero,
//! `$near`/`$default` nearest even). The full profile keeps denormals; the
//! base profile requires `ftz` on every float instruction, so it flushes
//! by default (f32 and f16; it has no f64) and never needs a switch.

use amdgpu_codegen::{Opnd, VReg};
use amdgpu_isa::gfx9::Operand;
use brig::{
    BrigControlDirective, BrigModule, BrigOpcode, BrigProfile, BrigRound, Code, OperandOffset,
};
use hsail::validate::CodeBlock;

use super::{Cx, Src, const_of, r};
use crate::Result;

/// `simm16` of `hwreg(HW_REG_TRAPSTS, 0, 6)`: the EXCP status bits the
/// hardware sets (sticky) when a float exception occurs, whether or not
/// its trap is enabled.
const HWREG_TRAPSTS_EXCP: i64 = 3 | (6 - 1) << 11;

/// The TRAPSTS.EXCP bit of each DETECT exception bit of PRM 11.2, in
/// order: INVALID_OPERATION (invalid), DIVIDE_BY_ZERO (float divide by
/// zero), OVERFLOW, UNDERFLOW, INEXACT. EXCP bit 1 (input denormal) has
/// no HSAIL exception. The order is that of the exception enables in
/// COMPUTE_PGM_RSRC2 bits 24..30 (AMDGPUUsage).
const EXCP_OF_DETECT: [u32; 5] = [0, 2, 3, 4, 5];

/// The TRAPSTS.EXCP bits of a DETECT exception mask.
fn excp_bits(detect: u64) -> u32 {
    (0..5)
        .filter(|&i| detect >> i & 1 != 0)
        .fold(0, |acc, i| acc | 1 << EXCP_OF_DETECT[i])
}

/// A float format: which MODE fields apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fmt {
    F16,
    F32,
    F64,
}

/// MODE round field values.
pub(super) const NEAR: u8 = 0;
pub(super) const UP: u8 = 1;
pub(super) const DOWN: u8 = 2;
pub(super) const ZERO: u8 = 3;

/// Denorm field values.
const FLUSH: u8 = 0;
const KEEP: u8 = 3;

/// The float part of MODE (bits 7:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FpMode {
    pub round32: u8,
    pub round16_64: u8,
    pub denorm32: u8,
    pub denorm16_64: u8,
}

impl FpMode {
    /// The kernel default for a module: its header's rounding and profile.
    pub(crate) fn kernel_default(m: &BrigModule<'_>) -> FpMode {
        let header = m.code_entries().find_map(|e| match e {
            Ok((_, Code::DirectiveModule(h))) => Some((h.profile, h.default_float_round)),
            _ => None,
        });
        let (profile, round) = header.unwrap_or((BrigProfile::FULL, BrigRound::FLOAT_NEAR_EVEN));
        let r = if round == BrigRound::FLOAT_ZERO {
            ZERO
        } else {
            NEAR
        };
        let d = if profile == BrigProfile::FULL {
            KEEP
        } else {
            FLUSH
        };
        FpMode {
            round32: r,
            round16_64: r,
            denorm32: d,
            denorm16_64: d,
        }
    }

    /// MODE bits 7:0.
    pub(crate) fn bits(self) -> u32 {
        u32::from(self.round32)
            | u32::from(self.round16_64) << 2
            | u32::from(self.denorm32) << 4
            | u32::from(self.denorm16_64) << 6
    }

    /// This mode with format `f`'s rounding set to `round`.
    pub(super) fn round(mut self, f: Fmt, round: u8) -> FpMode {
        match f {
            Fmt::F32 => self.round32 = round,
            Fmt::F16 | Fmt::F64 => self.round16_64 = round,
        }
        self
    }

    /// This mode with format `f`'s denormals flushed (`ftz`) or kept.
    pub(super) fn ftz(mut self, f: Fmt, ftz: bool) -> FpMode {
        let d = if ftz { FLUSH } else { KEEP };
        match f {
            Fmt::F32 => self.denorm32 = d,
            Fmt::F16 | Fmt::F64 => self.denorm16_64 = d,
        }
        self
    }
}

/// The rounding and `ftz` of one float instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FloatMods {
    /// MODE round value, or `None` for the module default.
    pub round: Option<u8>,
    pub ftz: bool,
}

impl FloatMods {
    /// No modifiers: default rounding, no `ftz`.
    pub(super) const NONE: FloatMods = FloatMods {
        round: None,
        ftz: false,
    };

    /// From a BRIG float rounding and the `ftz` bit; `None` for integer
    /// roundings.
    pub(super) fn from_brig(round: BrigRound, ftz: bool) -> Option<FloatMods> {
        let round = match round {
            BrigRound::NONE | BrigRound::FLOAT_DEFAULT => None,
            BrigRound::FLOAT_NEAR_EVEN => Some(NEAR),
            BrigRound::FLOAT_PLUS_INFINITY => Some(UP),
            BrigRound::FLOAT_MINUS_INFINITY => Some(DOWN),
            BrigRound::FLOAT_ZERO => Some(ZERO),
            _ => return None,
        };
        Some(FloatMods { round, ftz })
    }
}

/// `hwreg(HW_REG_MODE, 0, 8)`: id 1, offset 0, size 8.
const HWREG_MODE_0_8: i64 = 1 | (8 - 1) << 11;

impl Cx<'_> {
    /// The rounding (MODE encoding) an instruction with `mods` uses for
    /// format `f`.
    pub(super) fn round_of(&self, f: Fmt, mods: FloatMods) -> u8 {
        mods.round.unwrap_or(match f {
            Fmt::F32 => self.mode.round32,
            Fmt::F16 | Fmt::F64 => self.mode.round16_64,
        })
    }

    /// The kernel mode with format `f` set up for `mods`.
    pub(super) fn mode_for(&self, f: Fmt, mods: FloatMods) -> FpMode {
        let round = self.round_of(f, mods);
        self.mode.round(f, round).ftz(f, mods.ftz)
    }

    /// Runs `body` with the float MODE bits set to `want`, then restores
    /// the kernel default. Emits nothing when `want` is the default.
    pub(super) fn in_mode<T>(
        &mut self,
        want: FpMode,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        if want == self.mode {
            return body(self);
        }
        self.set_mode(want)?;
        let out = body(self)?;
        let default = self.mode;
        self.set_mode(default)?;
        Ok(out)
    }

    /// `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), bits`. A setreg right
    /// after another is a hazard; the back end's hazard recognizer
    /// (`amdgpu_codegen::hazard`) separates them.
    fn set_mode(&mut self, m: FpMode) -> Result<()> {
        self.emit(
            "s_setreg_imm32_b32",
            vec![
                Opnd::imm(HWREG_MODE_0_8),
                Opnd::Fixed(Operand::Literal(m.bits())),
            ],
        )
    }

    /// `cleardetectexcept`, `setdetectexcept` and `getdetectexcept` (PRM
    /// 11.2): the wave's DETECT flags are TRAPSTS.EXCP, which the hardware
    /// accumulates for every wave; set and clear rewrite it. A kernel that
    /// enables DETECT exceptions uses the software field instead
    /// ([`super::detect`]), exact per PRM 12.2.
    pub(super) fn lower_detect(
        &mut self,
        op: BrigOpcode,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let &[operand] = ops else {
            return Err(self.unsupported(what.to_string()));
        };
        if let Some(d) = self.detect {
            return self.detect_field_op(op, operand, d.field, what);
        }
        let excp = self.stemp(1);
        self.emit("s_nop", vec![Opnd::imm(1)])?;
        self.emit("s_getreg_b32", vec![r(excp), Opnd::imm(HWREG_TRAPSTS_EXCP)])?;
        if op == BrigOpcode::GETDETECTEXCEPT {
            let d = self.dst(operand)?;
            // DETECT bit 0 is EXCP bit 0; bits 1..4 are EXCP bits 2..5.
            let high = self.stemp(1);
            self.emit("s_lshr_b32", vec![r(high), r(excp), Opnd::constant(1)])?;
            self.emit("s_and_b32", vec![r(high), r(high), Opnd::constant(0x1e)])?;
            self.emit("s_and_b32", vec![r(excp), r(excp), Opnd::constant(1)])?;
            self.emit("s_or_b32", vec![r(excp), r(excp), r(high)])?;
            return self.emit("v_mov_b32", vec![r(d), r(excp)]);
        }
        let Src::Const(mask) = self.src(operand)? else {
            return Err(self.unsupported(format!("{what} of a register")));
        };
        let bits = excp_bits(mask);
        if op == BrigOpcode::SETDETECTEXCEPT {
            self.emit("s_or_b32", vec![r(excp), r(excp), Opnd::constant(bits)])?;
        } else {
            self.emit("s_and_b32", vec![r(excp), r(excp), Opnd::constant(!bits)])?;
        }
        self.emit("s_setreg_b32", vec![Opnd::imm(HWREG_TRAPSTS_EXCP), r(excp)])?;
        self.emit("s_nop", vec![Opnd::imm(1)])
    }

    /// `get`/`set`/`cleardetectexcept` on the software DETECT field of a
    /// kernel that enables DETECT exceptions ([`super::detect`]).
    fn detect_field_op(
        &mut self,
        op: BrigOpcode,
        operand: OperandOffset,
        field: VReg,
        what: &str,
    ) -> Result<()> {
        if op == BrigOpcode::GETDETECTEXCEPT {
            let d = self.dst(operand)?;
            return self.emit("v_mov_b32", vec![r(d), r(field)]);
        }
        let Src::Const(mask) = self.src(operand)? else {
            return Err(self.unsupported(format!("{what} of a register")));
        };
        let bits = (mask & 0x1f) as u32;
        let (mn, k) = if op == BrigOpcode::SETDETECTEXCEPT {
            ("s_or_b32", bits)
        } else {
            ("s_andn2_b32", bits)
        };
        self.emit(mn, vec![r(field), r(field), Opnd::constant(k)])
    }

    /// Refuses `enablebreakexceptions` with any of the five exceptions in
    /// code block `cb` (PRM 13.4: the finalizer must report an error for an
    /// exception the BREAK policy does not support, and there is no trap
    /// handler to break to). DETECT needs nothing: the flags are always
    /// recorded.
    pub(super) fn check_break_policy(&mut self, cb: &CodeBlock) -> Result<()> {
        let mut at = None;
        for (offset, mask) in controls(self.m, BrigControlDirective::ENABLEBREAKEXCEPTIONS, &[cb]) {
            if mask.is_none_or(|m| m & 0x1f != 0) {
                at = Some(offset);
            }
        }
        match at {
            Some(offset) => {
                self.at = offset;
                Err(self.unsupported("the BREAK exception policy (enablebreakexceptions)".into()))
            }
            None => Ok(()),
        }
    }
}

/// The `control` directives inside code blocks `blocks` of module `m`:
/// (offset, constant operand when it has one).
pub(super) fn controls(
    m: &BrigModule<'_>,
    control: BrigControlDirective,
    blocks: &[&CodeBlock],
) -> Vec<(u32, Option<u64>)> {
    let mut out = Vec::new();
    for entry in m.code_entries() {
        let Ok((offset, Code::DirectiveControl(d))) = entry else {
            continue;
        };
        let at = offset.get();
        let inside = blocks
            .iter()
            .any(|b| (b.start.get()..b.end.get()).contains(&at));
        if !inside || d.control != control {
            continue;
        }
        let value = m
            .operand_list(d.operands)
            .ok()
            .and_then(|ops| ops.first().and_then(|&o| const_of(m, o)));
        out.push((at, value));
    }
    out
}
