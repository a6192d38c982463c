//! Dispatch-packet and work-item queries (`workitemid`, `gridsize`, …).

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigModule, BrigOpcode, BrigSegment, BrigType, Code, OperandOffset};
use hsail::validate::CodeBlock;

use super::{Cx, Uses, const_of, dw, pair, r};
use crate::{Error, Result};

/// Which ABI inputs (dispatch pointer, kernarg pointer, work-group and
/// work-item ID dimensions) the instructions of `cb` read.
pub(super) fn scan_uses(m: &BrigModule<'_>, cb: &CodeBlock) -> Result<Uses> {
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
    let mut uses = Uses {
        workgroup_id_dims: 1,
        workitem_id_dims: 1,
        ..Uses::default()
    };
    for &at in &cb.instructions {
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
        match op {
            BrigOpcode::LD => {
                if let Code::InstMem(mem) = code
                    && mem.segment == BrigSegment::KERNARG
                {
                    uses.kernarg_ptr = true;
                }
            }
            BrigOpcode::WORKITEMABSID | BrigOpcode::CURRENTWORKGROUPSIZE => {
                uses.dispatch_ptr = true;
                let d = dim() + 1;
                uses.workgroup_id_dims = uses.workgroup_id_dims.max(d);
                if op == BrigOpcode::WORKITEMABSID {
                    uses.workitem_id_dims = uses.workitem_id_dims.max(d);
                }
            }
            BrigOpcode::WORKGROUPSIZE | BrigOpcode::GRIDSIZE => uses.dispatch_ptr = true,
            BrigOpcode::WORKITEMID => uses.workitem_id_dims = uses.workitem_id_dims.max(dim() + 1),
            BrigOpcode::WORKGROUPID => {
                uses.workgroup_id_dims = uses.workgroup_id_dims.max(dim() + 1)
            }
            _ => {}
        }
    }
    Ok(uses)
}

impl Cx<'_> {
    pub(super) fn dim(&mut self, ops: &[OperandOffset]) -> Result<usize> {
        match ops.get(1).and_then(|&o| const_of(self.m, o)) {
            Some(d @ 0..=2) => Ok(d as usize),
            _ => Err(self.unsupported("a dimension that is not 0, 1 or 2".into())),
        }
    }

    /// `workgroupsize` of dimension `d` (u16 at byte 4 + 2d of the packet).
    pub(super) fn wgsize(&mut self, d: usize) -> Result<VReg> {
        let dp = self.input(self.dispatch_ptr, "the dispatch pointer")?;
        let s = self.stemp(1);
        let (off, shift) = [(4, 0), (4, 16), (8, 0)][d];
        self.emit("s_load_dword", vec![r(s), pair(dp), Opnd::imm(off)])?;
        let v = self.vtemp(1);
        self.emit(
            "v_bfe_u32",
            vec![r(v), r(s), Opnd::constant(shift), Opnd::constant(16)],
        )?;
        Ok(v)
    }

    /// `gridsize` of dimension `d` (u32 at byte 12 + 4d of the packet).
    pub(super) fn gridsize(&mut self, d: usize) -> Result<VReg> {
        let dp = self.input(self.dispatch_ptr, "the dispatch pointer")?;
        let s = self.stemp(1);
        self.emit(
            "s_load_dword",
            vec![r(s), pair(dp), Opnd::imm(12 + 4 * d as i64)],
        )?;
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), r(s)])?;
        Ok(v)
    }

    pub(super) fn lower_dispatch(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let wide = match type_ {
            BrigType::U32 => false,
            BrigType::U64 => true,
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let dim = self.dim(ops)?;
        let v = match op {
            BrigOpcode::WORKITEMID => self.input(self.tid[dim], "the work-item ID")?,
            BrigOpcode::WORKGROUPID => {
                let v = self.vtemp(1);
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                self.emit("v_mov_b32", vec![r(v), r(g)])?;
                v
            }
            BrigOpcode::WORKGROUPSIZE => self.wgsize(dim)?,
            BrigOpcode::GRIDSIZE => self.gridsize(dim)?,
            BrigOpcode::WORKITEMABSID => {
                let size = self.wgsize(dim)?;
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                let base = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(base), r(g), r(size)])?;
                let v = self.vtemp(1);
                let tid = self.input(self.tid[dim], "the work-item ID")?;
                self.emit("v_add_u32_e64", vec![r(v), r(base), r(tid)])?;
                v
            }
            BrigOpcode::CURRENTWORKGROUPSIZE => {
                let size = self.wgsize(dim)?;
                let grid = self.gridsize(dim)?;
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                let base = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(base), r(g), r(size)])?;
                let rest = self.vtemp(1);
                self.emit("v_sub_u32_e64", vec![r(rest), r(grid), r(base)])?;
                let v = self.vtemp(1);
                self.emit("v_min_u32_e64", vec![r(v), r(size), r(rest)])?;
                v
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        self.emit("v_mov_b32", vec![dw(d, 0), r(v)])?;
        if wide {
            self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])?;
        }
        Ok(())
    }
}
