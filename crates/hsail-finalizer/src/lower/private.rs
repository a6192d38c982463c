//! The private and spill segments in scratch memory, and flat addresses
//! of group and private memory (`stof`, `ftos`, `segmentp`, `nullptr`).
//!
//! Private memory: each work-item's private and spill variables are laid
//! out from offset 0 ([`super::memory::segment_layout`]); the kernel
//! descriptor asks for `flat_scratch_init` and the wave's private segment
//! offset, the back end points `FLAT_SCRATCH` at the wave's scratch, and
//! `scratch_*` instructions take the per-lane private offset (the hardware
//! interleaves the lanes' dwords).
//!
//! Flat addresses (AMDGPUUsage "Address Spaces"): the group and private
//! apertures are 4 GiB windows whose base has a zero low dword; the high
//! dword is read from `src_shared_base`/`src_private_base`. A group or
//! private segment address `a` is the flat address `{aperture_hi, a}`.
//! Null pointers: 0 for flat and global addresses, `0xffffffff` for group
//! and private segment addresses (no variable is placed there), converted
//! into each other unless `nonull` is given.
//!
//! Small machine model: a flat address is 32 bits. Global memory is
//! below [`FLAT32_GROUP`] (the runtime's small-model arena ends there);
//! the 16 MiB windows at [`FLAT32_GROUP`] and [`FLAT32_PRIVATE`] hold the
//! group and private segment addresses: `stof` adds the window base,
//! `ftos` keeps the offset in the window, and a flat access maps the
//! window to its aperture ([`Cx::flat32_to_64`]).
//!
//! `alloca` (PRM 10.10): a function (kernel or machine function) with
//! `alloca`s keeps, in an SGPR, how many bytes they took in the area
//! right after its frame (`SP + frame`); each `alloca` takes the largest
//! size of the active lanes (PRM 10.10 allows it: one pointer per wave),
//! aligned, and traps past the stack like a call. A call from such a
//! function puts the callee's frame after the area (`amdgpu_codegen::calls`).
//! An inlined function's `alloca`s are freed when it returns (the area's
//! size is set back at the call's continuation), a machine function's
//! with its frame.

use amdgpu_codegen::{Opnd, ScratchInputs, VReg};
use amdgpu_isa::gfx9::Operand;
use amdgpu_object::abi::{SgprContent, WaveLayout};
use brig::{
    BrigInstSeg, BrigInstSegCvt, BrigOpcode, BrigSegCvtModifierMask, BrigSegment, BrigType,
    OperandOffset,
};

use super::{Cx, Src, dw, pair, r};
use crate::Result;

/// The segment null address of group and private memory.
const SEGMENT_NULL: u32 = 0xffff_ffff;

/// Small-model flat address of group segment address 0.
pub const FLAT32_GROUP: u32 = 0xfe00_0000;

/// Small-model flat address of private segment address 0.
pub const FLAT32_PRIVATE: u32 = 0xff00_0000;

/// Bytes of each small-model flat window.
const FLAT32_WINDOW: u32 = 1 << 24;

/// The small-model flat window of a segment.
fn window(seg: BrigSegment) -> Option<u32> {
    match seg {
        BrigSegment::GROUP => Some(FLAT32_GROUP),
        BrigSegment::PRIVATE => Some(FLAT32_PRIVATE),
        _ => None,
    }
}

/// The source operand holding the high dword of `seg`'s aperture
/// (`src_shared_base`, `src_private_base`).
fn aperture_source(seg: BrigSegment) -> Option<Operand> {
    let name = match seg {
        BrigSegment::GROUP => "src_shared_base",
        BrigSegment::PRIVATE => "src_private_base",
        _ => return None,
    };
    amdgpu_isa::gfx9::special_source(name)
}

impl Cx<'_> {
    /// `alloca_align(n)_u32 dest, size` (see the module docs).
    pub(super) fn lower_alloca(
        &mut self,
        mem: &brig::BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let d = self.dst(ops[0])?;
        let align = mem.align.bytes().unwrap_or(1).max(4);
        let Some(area) = self.alloca_area else {
            return Err(self.unsupported(format!("{what} (internal error: no alloca area)")));
        };
        // The size in an SGPR, rounded up to whole dwords.
        let size = self.stemp(1);
        match self.src(ops[1])? {
            Src::Const(c) => {
                let c = u32::try_from(c)
                    .ok()
                    .filter(|&c| c <= 1 << 30)
                    .ok_or_else(|| self.unsupported(format!("{what} of more than 1 GiB")))?;
                self.emit(
                    "s_mov_b32",
                    vec![r(size), Opnd::constant(c.next_multiple_of(4))],
                )?;
            }
            Src::Reg(v) => {
                self.wave_max(v, size)?;
                self.emit("s_add_u32", vec![r(size), r(size), Opnd::constant(3)])?;
                self.emit("s_and_b32", vec![r(size), r(size), Opnd::constant(!3)])?;
            }
        }
        // base = SP + frame: where the area starts.
        let base = self.stemp(1);
        let frame = amdgpu_codegen::calls::callee_frame(self.t, r(base))
            .map_err(|source| self.codegen_error(source))?;
        self.emit_inst(frame);
        let at = self.stemp(1);
        self.emit("s_add_u32", vec![r(at), r(base), r(area)])?;
        self.emit("s_add_u32", vec![r(at), r(at), Opnd::constant(align - 1)])?;
        self.emit(
            "s_and_b32",
            vec![r(at), r(at), Opnd::constant(!(align - 1))],
        )?;
        self.emit("v_mov_b32", vec![r(d), r(at)])?;
        let end = self.stemp(1);
        self.emit("s_add_u32", vec![r(end), r(at), r(size)])?;
        // Past the stack: trap (see `amdgpu_codegen::calls`).
        let limit = match self.f.callee {
            Some(l) => Opnd::constant(l),
            None => {
                let l = self.stemp(1);
                let budget = Opnd::constant(self.stack_size);
                self.emit("s_add_u32", vec![r(l), r(base), budget])?;
                r(l)
            }
        };
        self.emit("s_cmp_gt_u32", vec![r(end), limit])?;
        self.emit("s_cbranch_scc0", vec![Opnd::imm(1)])?;
        let trap = Opnd::imm(amdgpu_codegen::calls::STACK_OVERFLOW_TRAP);
        self.emit("s_trap", vec![trap])?;
        self.emit("s_sub_u32", vec![r(area), r(end), r(base)])
    }

    /// `m` = the largest value of VGPR `v` over the active lanes: every
    /// lane read (`v_readlane_b32` ignores EXEC), inactive ones count 0.
    fn wave_max(&mut self, v: VReg, m: VReg) -> Result<()> {
        self.emit("s_mov_b32", vec![r(m), Opnd::constant(0)])?;
        for lane in 0..64 {
            let t = self.stemp(1);
            let l = Opnd::constant(lane);
            self.emit("v_readlane_b32", vec![r(t), r(v), l])?;
            self.emit("s_bitcmp1_b64", vec![Opnd::exec(), l])?;
            self.emit("s_cselect_b32", vec![r(t), r(t), Opnd::constant(0)])?;
            self.emit("s_max_u32", vec![r(m), r(m), r(t)])?;
        }
        Ok(())
    }

    /// A function with `alloca`s: the SGPR holding the bytes its
    /// `alloca`s took, 0 on entry (see the module docs).
    pub(super) fn start_alloca_area(&mut self) -> Result<()> {
        let v = self.stemp(1);
        let init = self.minst("s_mov_b32", vec![r(v), Opnd::constant(0)])?;
        self.f.prologue.push(init);
        self.alloca_area = Some(v);
        Ok(())
    }

    /// Records the kernel's private size and, when it has private memory,
    /// the scratch inputs of the wave layout for the back end's prologue.
    pub(super) fn scratch_setup(
        &mut self,
        layout: &WaveLayout,
        private_size: u32,
        enabled: bool,
    ) -> Result<()> {
        if self.small && private_size >= FLAT32_WINDOW {
            return Err(self.unsupported(format!(
                "a private segment of {private_size} bytes in the small machine model (32-bit \
                 flat addresses reach the first {FLAT32_WINDOW} bytes)"
            )));
        }
        self.f.private_size = private_size.next_multiple_of(4);
        if !enabled {
            return Ok(());
        }
        let (Some(init), Some(off)) = (
            layout.sgpr_of(SgprContent::FlatScratchInit),
            layout.sgpr_of(SgprContent::PrivateSegmentWaveByteOffset),
        ) else {
            return Err(self.unsupported(
                "private memory (internal error: the scratch inputs are not enabled)".into(),
            ));
        };
        self.f.scratch = Some(ScratchInputs {
            flat_scratch_init: init as u16,
            wave_offset: off as u16,
        });
        Ok(())
    }

    /// The high dword of `seg`'s aperture in a VGPR.
    fn aperture_hi(&mut self, seg: BrigSegment, what: &str) -> Result<VReg> {
        let Some(src) = aperture_source(seg) else {
            return Err(self.unsupported(format!("{what} on the {seg:?} segment")));
        };
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), Opnd::Fixed(src)])?;
        Ok(v)
    }

    /// A lane mask (`s[..]` pair) of `cmp` between two dwords.
    fn lane_mask(&mut self, cmp: &str, a: Opnd, b: Opnd) -> Result<VReg> {
        let m = self.stemp(2);
        self.emit(cmp, vec![pair(m), a, b])?;
        Ok(m)
    }

    /// `stof`, `ftos` and `segmentp` (PRM 5.16, 5.17).
    pub(super) fn lower_segcvt(
        &mut self,
        c: &BrigInstSegCvt,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let nonull = c.modifier.raw() & BrigSegCvtModifierMask::NONULL.raw() != 0;
        let flat64 = |t: BrigType| t == BrigType::U64;
        let d = self.dst(ops[0])?;
        let s = self.src(ops[1])?;
        match c.base.opcode {
            BrigOpcode::STOF if flat64(c.base.type_) => {
                let hi = self.aperture_hi(c.segment, what)?;
                let lo = self.val(s, 0)?;
                if nonull {
                    self.emit("v_mov_b32", vec![dw(d, 0), lo])?;
                    return self.emit("v_mov_b32", vec![dw(d, 1), r(hi)]);
                }
                let k = self.val(Src::Const(u64::from(SEGMENT_NULL)), 0)?;
                let m = self.lane_mask("v_cmp_ne_u32_e64", lo, k)?;
                let mm = pair(m);
                self.emit(
                    "v_cndmask_b32_e64",
                    vec![dw(d, 0), Opnd::constant(0), lo, mm],
                )?;
                self.emit(
                    "v_cndmask_b32_e64",
                    vec![dw(d, 1), Opnd::constant(0), r(hi), mm],
                )
            }
            BrigOpcode::FTOS if flat64(c.source_type) => {
                aperture_source(c.segment)
                    .ok_or_else(|| self.unsupported(format!("{what} on this segment")))?;
                let lo = self.val(s, 0)?;
                if nonull {
                    return self.emit("v_mov_b32", vec![dw(d, 0), lo]);
                }
                let v = self.val64(s)?;
                let m = self.lane_mask("v_cmp_ne_u64_e64", pair(v), Opnd::constant(0))?;
                let k = self.val(Src::Const(u64::from(SEGMENT_NULL)), 0)?;
                self.emit("v_cndmask_b32_e64", vec![dw(d, 0), k, dw(v, 0), pair(m)])
            }
            BrigOpcode::SEGMENTP => self.segmentp(c.segment, nonull, s, d, what),
            _ if self.small => self.segcvt32(c.base.opcode, c.segment, nonull, s, d, what),
            _ => Err(self.unsupported(format!("{what} (32-bit flat addresses)"))),
        }
    }

    /// A constant as a VGPR or inline constant.
    fn k(&mut self, c: u32) -> Result<Opnd> {
        self.val(Src::Const(u64::from(c)), 0)
    }

    /// A lane mask of `lo <= x` (`lo` a constant).
    fn at_least(&mut self, x: Opnd, lo: u32) -> Result<VReg> {
        let k = self.k(lo)?;
        self.lane_mask("v_cmp_le_u32_e64", k, x)
    }

    /// The 64-bit flat address of a small-model flat address `a`: the
    /// group and private windows go to their apertures, anything else is
    /// a global address.
    pub(super) fn flat32_to_64(&mut self, a: Src) -> Result<VReg> {
        let f = self.val(a, 0)?;
        let g = self.at_least(f, FLAT32_GROUP)?;
        let p = self.at_least(f, FLAT32_PRIVATE)?;
        let mask = self.k(FLAT32_WINDOW - 1)?;
        let off = self.vtemp(1);
        self.emit("v_and_b32_e64", vec![r(off), f, mask])?;
        let shared = self.aperture_hi(BrigSegment::GROUP, "a flat access")?;
        let private = self.aperture_hi(BrigSegment::PRIVATE, "a flat access")?;
        let hi = self.vtemp(1);
        let d = self.vtemp(2);
        self.emit("v_cndmask_b32_e64", vec![dw(d, 0), f, r(off), pair(g)])?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(hi), Opnd::constant(0), r(shared), pair(g)],
        )?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![dw(d, 1), r(hi), r(private), pair(p)],
        )?;
        Ok(d)
    }

    /// Small-model `stof` and `ftos` (32-bit flat addresses in the windows
    /// of the module docs).
    fn segcvt32(
        &mut self,
        op: BrigOpcode,
        seg: BrigSegment,
        nonull: bool,
        s: Src,
        d: VReg,
        what: &str,
    ) -> Result<()> {
        let x = self.val(s, 0)?;
        // The conversion, and the null values of the source and the
        // destination segment.
        let (mn, k, null_in, null_out) = match (op, window(seg)) {
            (BrigOpcode::STOF, Some(base)) => ("v_add_u32_e64", base, SEGMENT_NULL, 0),
            (BrigOpcode::FTOS, Some(_)) => ("v_and_b32_e64", FLAT32_WINDOW - 1, 0, SEGMENT_NULL),
            _ => return Err(self.unsupported(format!("{what} on the {seg:?} segment"))),
        };
        let k = self.k(k)?;
        let t = self.vtemp(1);
        self.emit(mn, vec![r(t), x, k])?;
        if nonull {
            return self.emit("v_mov_b32", vec![r(d), r(t)]);
        }
        let null_in = self.k(null_in)?;
        let m = self.lane_mask("v_cmp_ne_u32_e64", x, null_in)?;
        let null_out = self.k(null_out)?;
        self.emit("v_cndmask_b32_e64", vec![r(d), null_out, r(t), pair(m)])
    }

    /// `segmentp`: whether the flat address is in `seg` (or null, unless
    /// `nonull`).
    fn segmentp(
        &mut self,
        seg: BrigSegment,
        nonull: bool,
        s: Src,
        d: VReg,
        what: &str,
    ) -> Result<()> {
        let (m, null) = if self.small {
            let x = self.val(s, 0)?;
            let m = self.window_mask(seg, x, what)?;
            (m, (!nonull).then_some(("v_cmp_eq_u32_e64", x)))
        } else {
            let v = self.val64(s)?;
            let m = self.aperture_mask(seg, v, what)?;
            (m, (!nonull).then_some(("v_cmp_eq_u64_e64", pair(v))))
        };
        let null = match null {
            Some((cmp, x)) => Some(self.lane_mask(cmp, x, Opnd::constant(0))?),
            None => None,
        };
        self.flag(m, null, d)
    }

    /// The lanes whose 64-bit flat address `v` is in `seg`.
    fn aperture_mask(&mut self, seg: BrigSegment, v: VReg, what: &str) -> Result<VReg> {
        let in_aperture = |cx: &mut Self, seg| -> Result<VReg> {
            let hi = cx.aperture_hi(seg, what)?;
            cx.lane_mask("v_cmp_eq_u32_e64", dw(v, 1), r(hi))
        };
        match seg {
            BrigSegment::GROUP | BrigSegment::PRIVATE => in_aperture(self, seg),
            BrigSegment::GLOBAL => {
                let g = in_aperture(self, BrigSegment::GROUP)?;
                let p = in_aperture(self, BrigSegment::PRIVATE)?;
                let m = self.stemp(2);
                self.emit("s_nor_b64", vec![pair(m), pair(g), pair(p)])?;
                Ok(m)
            }
            _ => Err(self.unsupported(format!("{what} on the {seg:?} segment"))),
        }
    }

    /// The lanes whose small-model flat address `x` is in `seg`'s window
    /// (global: below the windows).
    fn window_mask(&mut self, seg: BrigSegment, x: Opnd, what: &str) -> Result<VReg> {
        let g = self.at_least(x, FLAT32_GROUP)?;
        let p = self.at_least(x, FLAT32_PRIVATE)?;
        let m = self.stemp(2);
        match seg {
            BrigSegment::GROUP => self.emit("s_andn2_b64", vec![pair(m), pair(g), pair(p)])?,
            BrigSegment::PRIVATE => self.emit("s_mov_b64", vec![pair(m), pair(p)])?,
            BrigSegment::GLOBAL => self.emit("s_not_b64", vec![pair(m), pair(g)])?,
            _ => return Err(self.unsupported(format!("{what} on the {seg:?} segment"))),
        }
        Ok(m)
    }

    /// `d` = 1 in the lanes of mask `m` or of the `null` mask, else 0.
    fn flag(&mut self, m: VReg, null: Option<VReg>, d: VReg) -> Result<()> {
        let m = match null {
            None => m,
            Some(z) => {
                let o = self.stemp(2);
                self.emit("s_or_b64", vec![pair(o), pair(m), pair(z)])?;
                o
            }
        };
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(d), Opnd::constant(0), Opnd::constant(1), pair(m)],
        )
    }

    /// `nullptr`: 0 for flat, global and readonly (and kernarg) addresses,
    /// [`SEGMENT_NULL`] for group and private ones.
    pub(super) fn lower_nullptr(&mut self, i: &BrigInstSeg, ops: &[OperandOffset]) -> Result<()> {
        let d = self.dst(ops[0])?;
        let null = match i.segment {
            BrigSegment::GROUP | BrigSegment::PRIVATE => SEGMENT_NULL,
            _ => 0,
        };
        self.emit("v_mov_b32", vec![dw(d, 0), Opnd::constant(null)])?;
        if self.f.info(d).width > 1 {
            self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])?;
        }
        Ok(())
    }
}
