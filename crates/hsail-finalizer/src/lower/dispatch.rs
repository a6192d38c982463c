//! Kernel dispatch packet and miscellaneous queries (PRM 11.1, 11.4):
//! `workitemid`, `gridsize`, `dim`, `packetid`, `laneid`, `clock`, ….
//!
//! Sources (the `hsa_kernel_dispatch_packet_t` layout is in
//! `hsa_runtime::packet`):
//!
//! | instruction | value |
//! |---|---|
//! | `workitemid`, `workgroupid` | ABI work-item ID VGPRs, work-group ID SGPRs |
//! | `workgroupsize`, `gridsize` | packet bytes 4 + 2d (u16), 12 + 4d (u32) |
//! | `dim` | packet `setup` bits 0–1 (byte 2) |
//! | `gridgroups` | `(gridsize - 1) / workgroupsize + 1` |
//! | `workitemflatid` and friends | PRM 2.3 formulas (`u64` forms exact mod 2^64) |
//! | `packetcompletionsig` | packet `completion_signal` (byte 56) |
//! | `packetid` | the ABI dispatch ID SGPRs (the packet's queue index) |
//! | `kernargbaseptr` | the ABI kernarg segment pointer |
//! | `groupbaseptr` | 0: group variables start at LDS address 0 |
//! | `nullptr` | 0, except group and private: `0xffffffff` (LDS and scratch address 0 are valid; AMDGPU's convention) |
//! | `laneid` | `v_mbcnt` of all lanes below this one |
//! | `clock` | `s_memrealtime` (a constant 100 MHz clock) |
//! | `cuid`, `maxcuid` | HW_ID bits 14:8 (SE_ID:SH_ID:CU_ID), so `maxcuid` = 127, the highest such slot number |
//! | `waveid`, `maxwaveid` | SIMD_ID × waves per SIMD + WAVE_ID from HW_ID; 4 SIMDs × 10 waves (gfx900) or × 8 (gfx90a) |

use amdgpu_codegen::{Opnd, Target, VReg};
use brig::{BrigModule, BrigOpcode, BrigSegment, Code, OperandOffset};
use hsail::validate::CodeBlock;

use super::{Cx, Src, Uses, const_of, dw, pair, r};
use crate::{Error, Result};

/// The queries [`Cx::lower_dispatch`] lowers (`InstBasic` forms).
pub(super) const QUERIES: &[BrigOpcode] = &[
    BrigOpcode::WORKITEMABSID,
    BrigOpcode::WORKITEMID,
    BrigOpcode::WORKGROUPID,
    BrigOpcode::WORKGROUPSIZE,
    BrigOpcode::CURRENTWORKGROUPSIZE,
    BrigOpcode::GRIDSIZE,
    BrigOpcode::GRIDGROUPS,
    BrigOpcode::DIM,
    BrigOpcode::WORKITEMFLATID,
    BrigOpcode::CURRENTWORKITEMFLATID,
    BrigOpcode::WORKITEMFLATABSID,
    BrigOpcode::PACKETID,
    BrigOpcode::PACKETCOMPLETIONSIG,
    BrigOpcode::KERNARGBASEPTR,
    BrigOpcode::GROUPBASEPTR,
    BrigOpcode::LANEID,
    BrigOpcode::CLOCK,
    BrigOpcode::CUID,
    BrigOpcode::MAXCUID,
    BrigOpcode::WAVEID,
    BrigOpcode::MAXWAVEID,
];

/// `hwreg` number of HW_ID.
const HW_ID: i64 = 4;

/// The `simm16` of `s_getreg_b32` for `size` bits of hardware register
/// `id` from bit `offset`.
fn hwreg(id: i64, offset: i64, size: i64) -> Opnd {
    Opnd::imm(id | offset << 6 | (size - 1) << 11)
}

/// Waves one SIMD runs at once (4 SIMDs per compute unit).
fn waves_per_simd(t: Target) -> u32 {
    if t == Target::Gfx90a { 8 } else { 10 }
}

/// Which ABI inputs (dispatch pointer, dispatch ID, kernarg pointer,
/// work-group and work-item ID dimensions) the instructions of the code
/// blocks read.
pub(super) fn scan_uses(m: &BrigModule<'_>, cbs: &[&CodeBlock]) -> Result<Uses> {
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
    let mut uses = Uses {
        workgroup_id_dims: 1,
        workitem_id_dims: 1,
        ..Uses::default()
    };
    for &at in cbs.iter().flat_map(|cb| &cb.instructions) {
        let code = m.code(at).map_err(brig_err)?;
        let Some(inst) = code.inst() else { continue };
        let op = inst.opcode;
        let dim = || -> u8 {
            m.operand_list(inst.operands)
                .ok()
                .and_then(|l| l.get(1).copied())
                .and_then(|o| const_of(m, o))
                .map_or(0, |d| d.min(2) as u8)
        };
        // (dispatch pointer, work-group ID dims, work-item ID dims).
        let (dp, wg, wi) = match op {
            BrigOpcode::LD => {
                if let Code::InstMem(mem) = code
                    && mem.segment == BrigSegment::KERNARG
                {
                    uses.kernarg_ptr = true;
                }
                continue;
            }
            BrigOpcode::KERNARGBASEPTR => {
                uses.kernarg_ptr = true;
                continue;
            }
            BrigOpcode::PACKETID => {
                uses.dispatch_id = true;
                continue;
            }
            BrigOpcode::WORKITEMABSID => (true, dim() + 1, dim() + 1),
            BrigOpcode::CURRENTWORKGROUPSIZE => (true, dim() + 1, 1),
            BrigOpcode::WORKGROUPSIZE
            | BrigOpcode::GRIDSIZE
            | BrigOpcode::GRIDGROUPS
            | BrigOpcode::DIM
            | BrigOpcode::PACKETCOMPLETIONSIG => (true, 1, 1),
            BrigOpcode::WORKITEMID => (false, 1, dim() + 1),
            BrigOpcode::WORKGROUPID => (false, dim() + 1, 1),
            BrigOpcode::WORKITEMFLATID => (true, 1, 3),
            BrigOpcode::CURRENTWORKITEMFLATID | BrigOpcode::WORKITEMFLATABSID => (true, 3, 3),
            _ => continue,
        };
        uses.dispatch_ptr |= dp;
        uses.workgroup_id_dims = uses.workgroup_id_dims.max(wg);
        uses.workitem_id_dims = uses.workitem_id_dims.max(wi);
    }
    Ok(uses)
}

/// A query's value: low and high dword (SGPR, VGPR or constant).
type Value = (Opnd, Opnd);

impl Cx<'_> {
    pub(super) fn dim(&self, ops: &[OperandOffset]) -> Result<usize> {
        match ops.get(1).and_then(|&o| const_of(self.m, o)) {
            Some(d @ 0..=2) => Ok(d as usize),
            _ => Err(self.unsupported("a dimension that is not 0, 1 or 2".into())),
        }
    }

    /// An SGPR tuple loaded from the dispatch packet at byte `off`.
    fn packet(&mut self, off: i64, width: u8) -> Result<VReg> {
        let dp = self.input(self.dispatch_ptr, "the dispatch pointer")?;
        let s = self.stemp(width);
        let op = if width == 2 {
            "s_load_dwordx2"
        } else {
            "s_load_dword"
        };
        let d = if width == 2 { pair(s) } else { r(s) };
        self.emit(op, vec![d, pair(dp), Opnd::imm(off)])?;
        Ok(s)
    }

    /// Bits `shift..shift + bits` of a packet dword, in a VGPR.
    fn packet_field(&mut self, off: i64, shift: u32, bits: u32) -> Result<VReg> {
        let s = self.packet(off, 1)?;
        let v = self.vtemp(1);
        self.emit(
            "v_bfe_u32",
            vec![r(v), r(s), Opnd::constant(shift), Opnd::constant(bits)],
        )?;
        Ok(v)
    }

    /// `workgroupsize` of dimension `d` (u16 at byte 4 + 2d of the packet).
    pub(super) fn wgsize(&mut self, d: usize) -> Result<VReg> {
        let (off, shift) = [(4, 0), (4, 16), (8, 0)][d];
        self.packet_field(off, shift, 16)
    }

    /// `gridsize` of dimension `d` (u32 at byte 12 + 4d of the packet).
    pub(super) fn gridsize(&mut self, d: usize) -> Result<VReg> {
        let s = self.packet(12 + 4 * d as i64, 1)?;
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), r(s)])?;
        Ok(v)
    }

    /// A 1-dword VGPR `a op b`.
    fn valu(&mut self, op: &str, a: Opnd, b: Opnd) -> Result<VReg> {
        let v = self.vtemp(1);
        self.emit(op, vec![r(v), a, b])?;
        Ok(v)
    }

    /// Work-group ID `d` times `workgroupsize` `d`: the first absolute ID
    /// of the work-group.
    fn group_base(&mut self, d: usize, size: VReg) -> Result<VReg> {
        let g = self.input(self.wgid[d], "the work-group ID")?;
        self.valu("v_mul_lo_u32", r(g), r(size))
    }

    fn tid(&self, d: usize) -> Result<VReg> {
        self.input(self.tid[d], "the work-item ID")
    }

    /// `workitemabsid` of dimension `d`.
    fn absid(&mut self, d: usize) -> Result<VReg> {
        let size = self.wgsize(d)?;
        let base = self.group_base(d, size)?;
        let tid = self.tid(d)?;
        self.valu("v_add_u32_e64", r(base), r(tid))
    }

    /// `currentworkgroupsize` of dimension `d`.
    fn current_wgsize(&mut self, d: usize) -> Result<VReg> {
        let size = self.wgsize(d)?;
        let grid = self.gridsize(d)?;
        let base = self.group_base(d, size)?;
        let rest = self.valu("v_sub_u32_e64", r(grid), r(base))?;
        self.valu("v_min_u32_e64", r(size), r(rest))
    }

    /// `id0 + id1 * max0 + id2 * max0 * max1`, 32 bits.
    fn flat32(&mut self, ids: [VReg; 3], max: [VReg; 2]) -> Result<Value> {
        let m01 = self.valu("v_mul_lo_u32", r(max[0]), r(max[1]))?;
        let a = self.valu("v_mul_lo_u32", r(ids[2]), r(m01))?;
        let b = self.valu("v_mul_lo_u32", r(ids[1]), r(max[0]))?;
        let s = self.valu("v_add_u32_e64", r(a), r(b))?;
        let v = self.valu("v_add_u32_e64", r(s), r(ids[0]))?;
        Ok((r(v), Opnd::constant(0)))
    }

    /// The full 64-bit product of two 32-bit VGPRs.
    fn mul_wide(&mut self, a: Opnd, b: Opnd) -> Result<VReg> {
        let p = self.vtemp(2);
        self.emit("v_mul_lo_u32", vec![dw(p, 0), a, b])?;
        self.emit("v_mul_hi_u32", vec![dw(p, 1), a, b])?;
        Ok(p)
    }

    /// `id0 + id1 * max0 + id2 * max0 * max1` modulo 2^64.
    fn flat64(&mut self, ids: [VReg; 3], max: [VReg; 2]) -> Result<Value> {
        let m01 = self.mul_wide(r(max[0]), r(max[1]))?;
        // id2 * m01 mod 2^64.
        let c = self.mul_wide(r(ids[2]), dw(m01, 0))?;
        let h = self.valu("v_mul_lo_u32", r(ids[2]), dw(m01, 1))?;
        self.emit("v_add_u32_e64", vec![dw(c, 1), dw(c, 1), r(h)])?;
        let b = self.mul_wide(r(ids[1]), r(max[0]))?;
        let id0 = self.vtemp(2);
        self.emit("v_mov_b32", vec![dw(id0, 0), r(ids[0])])?;
        self.emit("v_mov_b32", vec![dw(id0, 1), Opnd::constant(0)])?;
        let mut v = c;
        for t in [b, id0] {
            let sum = self.vtemp(2);
            self.add64(
                "v_add_co_u32_e64",
                "v_addc_co_u32_e64",
                sum,
                Src::Reg(v),
                Src::Reg(t),
            )?;
            v = sum;
        }
        Ok((dw(v, 0), dw(v, 1)))
    }

    /// `s_getreg_b32` of HW_ID bits `offset..offset + size`.
    fn hw_id(&mut self, offset: i64, size: i64) -> Result<VReg> {
        let s = self.stemp(1);
        self.emit("s_getreg_b32", vec![r(s), hwreg(HW_ID, offset, size)])?;
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), r(s)])?;
        Ok(v)
    }

    /// The value of a query (see the module docs); `wide` for a 64-bit
    /// destination.
    fn query(&mut self, op: BrigOpcode, ops: &[OperandOffset], wide: bool) -> Result<Value> {
        let zero = Opnd::constant(0);
        let v32 = |v: VReg| (r(v), zero);
        let dims =
            |cx: &mut Self| -> Result<[VReg; 3]> { Ok([cx.tid(0)?, cx.tid(1)?, cx.tid(2)?]) };
        Ok(match op {
            BrigOpcode::WORKITEMID => v32(self.tid(self.dim(ops)?)?),
            BrigOpcode::WORKGROUPID => {
                let d = self.dim(ops)?;
                (r(self.input(self.wgid[d], "the work-group ID")?), zero)
            }
            BrigOpcode::WORKGROUPSIZE => v32(self.wgsize(self.dim(ops)?)?),
            BrigOpcode::GRIDSIZE => v32(self.gridsize(self.dim(ops)?)?),
            BrigOpcode::WORKITEMABSID => v32(self.absid(self.dim(ops)?)?),
            BrigOpcode::CURRENTWORKGROUPSIZE => v32(self.current_wgsize(self.dim(ops)?)?),
            BrigOpcode::GRIDGROUPS => {
                let d = self.dim(ops)?;
                let grid = self.gridsize(d)?;
                let size = self.wgsize(d)?;
                let g1 = self.valu("v_add_u32_e64", r(grid), Opnd::constant(u32::MAX))?;
                let q = self.vtemp(1);
                self.divrem(false, false, q, [Src::Reg(g1), Src::Reg(size)], 1)?;
                v32(self.valu("v_add_u32_e64", r(q), Opnd::constant(1))?)
            }
            BrigOpcode::DIM => v32(self.packet_field(0, 16, 2)?),
            BrigOpcode::WORKITEMFLATID => {
                let ids = dims(self)?;
                let max = [self.wgsize(0)?, self.wgsize(1)?];
                self.flat32(ids, max)?
            }
            BrigOpcode::CURRENTWORKITEMFLATID => {
                let ids = dims(self)?;
                let max = [self.current_wgsize(0)?, self.current_wgsize(1)?];
                self.flat32(ids, max)?
            }
            BrigOpcode::WORKITEMFLATABSID => {
                let ids = [self.absid(0)?, self.absid(1)?, self.absid(2)?];
                let max = [self.gridsize(0)?, self.gridsize(1)?];
                if wide {
                    self.flat64(ids, max)?
                } else {
                    self.flat32(ids, max)?
                }
            }
            BrigOpcode::PACKETCOMPLETIONSIG => {
                let s = self.packet(56, 2)?;
                (dw(s, 0), dw(s, 1))
            }
            BrigOpcode::PACKETID => {
                let s = self.input(self.dispatch_id, "the dispatch ID")?;
                (dw(s, 0), dw(s, 1))
            }
            BrigOpcode::KERNARGBASEPTR => {
                let s = self.input(self.kernarg_ptr, "the kernarg segment pointer")?;
                (dw(s, 0), dw(s, 1))
            }
            BrigOpcode::GROUPBASEPTR => (zero, zero),
            BrigOpcode::LANEID => {
                let lo = self.valu("v_mbcnt_lo_u32_b32", Opnd::constant(u32::MAX), zero)?;
                v32(self.valu("v_mbcnt_hi_u32_b32", Opnd::constant(u32::MAX), r(lo))?)
            }
            BrigOpcode::CLOCK => {
                let s = self.stemp(2);
                self.emit("s_memrealtime", vec![pair(s)])?;
                (dw(s, 0), dw(s, 1))
            }
            BrigOpcode::CUID => v32(self.hw_id(8, 7)?),
            BrigOpcode::MAXCUID => (Opnd::constant(127), zero),
            BrigOpcode::WAVEID => {
                let wave = self.hw_id(0, 4)?;
                let simd = self.hw_id(4, 2)?;
                let n = Opnd::constant(waves_per_simd(self.t));
                let v = self.vtemp(1);
                self.emit("v_mad_u32_u24", vec![r(v), r(simd), n, r(wave)])?;
                v32(v)
            }
            BrigOpcode::MAXWAVEID => (Opnd::constant(4 * waves_per_simd(self.t) - 1), zero),
            _ => return Err(self.unsupported(format!("instruction {op:?}"))),
        })
    }

    /// A dispatch-packet or miscellaneous query: `u32` results in one
    /// dword, `u64` (and `sig64`) in two.
    pub(super) fn lower_dispatch(
        &mut self,
        op: BrigOpcode,
        _type: brig::BrigType,
        ops: &[OperandOffset],
        _what: &str,
    ) -> Result<()> {
        let d = self.dst(self.operand(ops, 0)?)?;
        let wide = self.f.info(d).width == 2;
        let (lo, hi) = self.query(op, ops, wide)?;
        self.emit("v_mov_b32", vec![dw(d, 0), lo])?;
        if wide {
            self.emit("v_mov_b32", vec![dw(d, 1), hi])?;
        }
        Ok(())
    }
}
