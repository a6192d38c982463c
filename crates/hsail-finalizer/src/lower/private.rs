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
//! `alloca` (PRM 10.10) with a constant size takes a slot of the frame it
//! runs in, like a private variable: the kernel's private memory, or a
//! machine function's frame (`SP`-relative, see [`super::machine`]), so
//! the memory is freed when the frame is. That is one allocation per
//! activation, so an `alloca` on a cycle of the control flow graph (which
//! must allocate anew each time round) is a located error; so is a size
//! in a register.

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

/// Source codes of `src_shared_base` and `src_private_base`.
fn aperture_code(seg: BrigSegment) -> Option<u16> {
    match seg {
        BrigSegment::GROUP => Some(235),
        BrigSegment::PRIVATE => Some(237),
        _ => None,
    }
}

impl Cx<'_> {
    /// `alloca_align(n)_u32 dest, size` with a constant size: a slot of
    /// the frame (see the module docs).
    pub(super) fn lower_alloca(
        &mut self,
        mem: &brig::BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let d = self.dst(ops[0])?;
        let Src::Const(size) = self.src(ops[1])? else {
            return Err(self.unsupported(format!("{what} with a size in a register")));
        };
        let size = u32::try_from(size)
            .ok()
            .filter(|&s| s <= 1 << 20)
            .ok_or_else(|| self.unsupported(format!("{what} of more than 1 MiB")))?;
        let align = mem.align.bytes().unwrap_or(1).max(4);
        self.allocas.push((self.cur, self.at));
        if self.f.callee.is_none() {
            // The kernel's frame starts at private offset 0.
            let at = self.f.private_size.next_multiple_of(align);
            self.f.private_size = at + size.max(1).next_multiple_of(4);
            return self.emit("v_mov_b32", vec![r(d), Opnd::constant(at)]);
        }
        // A frame starts at a multiple of 4: room to align at run time.
        let at = self.f.private_size.next_multiple_of(4);
        self.f.private_size = at + (size.max(1) + align - 4).next_multiple_of(4);
        let k = self.val(Src::Const(u64::from(at + align - 4)), 0)?;
        let sp = Opnd::sgpr(amdgpu_codegen::calls::SP, 1);
        let t = self.vtemp(1);
        self.emit("v_add_u32_e64", vec![r(t), sp, k])?;
        let mask = self.val(Src::Const(u64::from(!(align - 1))), 0)?;
        self.emit("v_and_b32_e64", vec![r(d), r(t), mask])
    }

    /// A located error for an `alloca` on a cycle of the lowered control
    /// flow graph (it would have to allocate anew each time round).
    pub(super) fn check_allocas(&self) -> Result<()> {
        let succ = |b: usize| -> Vec<usize> {
            match self.f.blocks.get(b).map(|b| b.term) {
                Some(amdgpu_codegen::Terminator::Br(t)) => vec![t],
                Some(amdgpu_codegen::Terminator::CondBr {
                    then, otherwise, ..
                }) => vec![then, otherwise],
                _ => Vec::new(),
            }
        };
        for &(block, at) in &self.allocas {
            let mut seen = vec![false; self.f.blocks.len()];
            let mut work = succ(block);
            while let Some(b) = work.pop() {
                if b == block {
                    return Err(self.loc.unsupported("`alloca` in a loop".to_string(), at));
                }
                if b < seen.len() && !seen[b] {
                    seen[b] = true;
                    work.extend(succ(b));
                }
            }
        }
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
        let Some(code) = aperture_code(seg) else {
            return Err(self.unsupported(format!("{what} on the {seg:?} segment")));
        };
        let v = self.vtemp(1);
        self.emit(
            "v_mov_b32",
            vec![r(v), Opnd::Fixed(Operand::Src { code, width: 1 })],
        )?;
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
                aperture_code(c.segment)
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
            BrigOpcode::SEGMENTP if flat64(c.source_type) => {
                self.segmentp(c.segment, nonull, s, d, what)
            }
            _ => Err(self.unsupported(format!("{what} (32-bit flat addresses)"))),
        }
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
        let v = self.val64(s)?;
        let in_aperture = |cx: &mut Self, seg| -> Result<VReg> {
            let hi = cx.aperture_hi(seg, what)?;
            cx.lane_mask("v_cmp_eq_u32_e64", dw(v, 1), r(hi))
        };
        let m = match seg {
            BrigSegment::GROUP | BrigSegment::PRIVATE => in_aperture(self, seg)?,
            BrigSegment::GLOBAL => {
                let g = in_aperture(self, BrigSegment::GROUP)?;
                let p = in_aperture(self, BrigSegment::PRIVATE)?;
                let m = self.stemp(2);
                self.emit("s_nor_b64", vec![pair(m), pair(g), pair(p)])?;
                m
            }
            _ => return Err(self.unsupported(format!("{what} on the {seg:?} segment"))),
        };
        let m = if nonull {
            m
        } else {
            let z = self.lane_mask("v_cmp_eq_u64_e64", pair(v), Opnd::constant(0))?;
            let o = self.stemp(2);
            self.emit("s_or_b64", vec![pair(o), pair(m), pair(z)])?;
            o
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
