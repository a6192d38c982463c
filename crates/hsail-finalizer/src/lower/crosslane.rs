//! Cross-lane instructions (PRM 9.4): `activelanecount`, `activelaneid`,
//! `activelanemask` and `activelanepermute`, over the 64 lanes of a wave.
//!
//! The active work-items are the lanes set in EXEC (partial lanes are never
//! set), so:
//!
//! | HSAIL | Lowering |
//! |---|---|
//! | `activelanecount` | `s_bcnt1_i32_b64` of the ballot `v_cmp_ne_u32(src, 0) & exec` |
//! | `activelaneid` | `v_mbcnt` of EXEC below this lane |
//! | `activelanemask` | the ballot in `dest0`; `dest1..3` are 0 (lanes 64 and up do not exist) |
//! | `activelanepermute` | `ds_bpermute_b32` per dword from lane `laneId % 64`; `identity` where `useIdentity` is set or that lane is inactive |

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigOpcode, BrigType, OperandOffset};

use super::{Cx, Src, dw, pair, r};
use crate::Result;

impl Cx<'_> {
    /// `activelanecount`, `activelaneid` or `activelanemask`.
    pub(super) fn lower_crosslane(
        &mut self,
        op: BrigOpcode,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        match (op, ops) {
            (BrigOpcode::ACTIVELANEID, &[dest]) => {
                let d = self.dst(dest)?;
                let exec = self.exec_copy()?;
                let lo = self.tmp("v_mbcnt_lo_u32_b32", vec![dw(exec, 0), Opnd::constant(0)])?;
                self.emit("v_mbcnt_hi_u32_b32", vec![r(d), dw(exec, 1), lo])
            }
            (BrigOpcode::ACTIVELANECOUNT, &[dest, src]) => {
                let d = self.dst(dest)?;
                let mask = self.ballot(src)?;
                let n = self.stemp(1);
                self.emit("s_bcnt1_i32_b64", vec![r(n), pair(mask)])?;
                self.emit("v_mov_b32", vec![r(d), r(n)])
            }
            (BrigOpcode::ACTIVELANEMASK, &[dests, src]) => {
                let parts = self.operand_list(dests)?;
                if parts.len() != 4 {
                    return Err(self.unsupported(format!("{what} with {} parts", parts.len())));
                }
                let mask = self.ballot(src)?;
                for (k, &p) in parts.iter().enumerate() {
                    let d = self.dst(p)?;
                    for i in 0..2 {
                        let v = if k == 0 {
                            dw(mask, i)
                        } else {
                            Opnd::constant(0)
                        };
                        self.emit("v_mov_b32", vec![dw(d, i), v])?;
                    }
                }
                Ok(())
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// `activelanepermute_bN dest, src, laneId, identity, useIdentity`.
    pub(super) fn lower_permute(
        &mut self,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let dwords = match type_ {
            BrigType::B1 | BrigType::B32 => 1,
            BrigType::B64 => 2,
            _ => return Err(self.unsupported(what.to_string())),
        };
        let &[dest, src, lane, identity, use_identity] = ops else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(dest)?;
        let src = self.src(src)?;
        let lane = self.src(lane)?;
        let identity = self.src(identity)?;
        let use_identity = self.src(use_identity)?;
        // The sending lane and its byte address for ds_bpermute.
        let l = self.val(lane, 0)?;
        let index = self.tmp("v_and_b32_e64", vec![Opnd::constant(63), l])?;
        let addr = self.tmp("v_lshlrev_b32_e64", vec![Opnd::constant(2), index])?;
        // keep = sending lane active && !useIdentity.
        let exec = self.exec_copy()?;
        let shifted = self.vtemp(2);
        self.emit("v_lshrrev_b64", vec![pair(shifted), index, pair(exec)])?;
        let active = self.tmp("v_and_b32_e64", vec![Opnd::constant(1), dw(shifted, 0)])?;
        let u = self.val(use_identity, 0)?;
        let not_use = self.tmp("v_xor_b32_e64", vec![Opnd::constant(1), u])?;
        let keep = self.tmp("v_and_b32_e64", vec![active, not_use])?;
        self.emit(
            "v_cmp_ne_u32_e64",
            vec![Opnd::vcc(), Opnd::constant(0), keep],
        )?;
        // Read every dword from the sending lane first: dest may be a source.
        let mut got = Vec::new();
        for i in 0..dwords {
            let data = self.vgpr_dword(src, i)?;
            got.push(self.tmp("ds_bpermute_b32", vec![addr, data])?);
        }
        for (i, g) in (0u8..).zip(got) {
            let id = self.val(identity, i)?;
            self.emit("v_cndmask_b32_e64", vec![dw(d, i), id, g, Opnd::vcc()])?;
        }
        Ok(())
    }

    /// Dword `i` of a source in a VGPR (DS instructions take no constants).
    fn vgpr_dword(&mut self, s: Src, i: u8) -> Result<Opnd> {
        match s {
            Src::Reg(v) => Ok(dw(v, i)),
            Src::Const(_) => {
                let c = self.val_any(s, i);
                self.tmp("v_mov_b32", vec![c])
            }
        }
    }

    /// An SGPR pair holding EXEC.
    fn exec_copy(&mut self) -> Result<VReg> {
        let s = self.stemp(2);
        self.emit("s_mov_b64", vec![pair(s), Opnd::exec()])?;
        Ok(s)
    }

    /// The lanes whose b1 `src` is non-zero, among the active ones, as an
    /// SGPR pair.
    fn ballot(&mut self, src: OperandOffset) -> Result<VReg> {
        let s = self.src(src)?;
        let v = self.val(s, 0)?;
        let mask = self.stemp(2);
        self.emit("v_cmp_ne_u32_e64", vec![pair(mask), Opnd::constant(0), v])?;
        self.emit("s_and_b64", vec![pair(mask), pair(mask), Opnd::exec()])?;
        Ok(mask)
    }
}
