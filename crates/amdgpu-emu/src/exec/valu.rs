//! Vector ALU, integer and data movement: VOP1, VOP2 and VOP3 (and their
//! DPP and SDWA forms), plus the source readers and destination writers
//! every VALU family shares.
//!
//! # Forms
//!
//! The plain `_e32`/`_e64` forms read their sources as they are and write
//! the lanes EXEC enables; the readers and writers check the family first so
//! that this path stays a register copy.
//!
//! - **DPP** (`Vop1Dpp`, `Vop2Dpp`): src0 is read from another lane chosen
//!   by `dpp_ctrl` ([`dpp_source_lane`]). A source lane is *invalid* when the
//!   control points outside the row (or wave) or at a lane EXEC disables;
//!   with `bound_ctrl` an invalid source reads 0, without it the lane is
//!   not written. `row_mask`/`bank_mask` bits that are clear disable the
//!   writes of the rows (16 lanes) and banks (lanes 4k..4k+3 of each row).
//!   [`active_lanes`] is that per-instruction write mask; the writers use it.
//! - **SDWA** (`Vop1Sdwa`, `Vop2Sdwa`, `VopcSdwa`): src0/src1 are the byte,
//!   word or dword `src_sel` picks, zero- or (`sext`) sign-extended
//!   ([`sdwa_select`]); the result is placed in the `dst_sel` field of the
//!   destination and the other bits are zeroed, sign-extended or kept by
//!   `dst_unused` ([`sdwa_place`]).
//!
//! Float source modifiers (`neg`/`abs` of VOP3, DPP and SDWA forms, all in
//! `mods.neg`/`mods.abs`, bit k for source k) are not applied by [`src`]:
//! float instructions apply them, e.g. with [`src_neg_abs`].
//!
//! 16-bit integer operations: the legacy ones (`v_add_u16` …) write their
//! result zero-extended to 32 bits; the GFX9 VOP3 ones with `op_sel`
//! (`v_mad_u16`, `v_add_i16`, `v_min3_i16` …) read the source halves
//! `op_sel` picks and write the half `op_sel[3]` picks, keeping the other
//! half ([`write_dst16`]).

use amdgpu_isa::gfx9::{Family, Op, Operand};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Lanes, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is an integer or data-movement VALU instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        // Data movement and lane access.
        Op::V_NOP => exec_v_nop,
        Op::V_CLREXCP => exec_v_clrexcp,
        Op::V_MOV_B32 => exec_v_mov_b32,
        Op::V_MOV_B64 => exec_v_mov_b64,
        Op::V_ACCVGPR_MOV_B32 => exec_v_accvgpr_mov_b32,
        Op::V_SWAP_B32 => exec_v_swap_b32,
        Op::V_READFIRSTLANE_B32 => exec_v_readfirstlane_b32,
        Op::V_READLANE_B32 => exec_v_readlane_b32,
        Op::V_WRITELANE_B32 => exec_v_writelane_b32,
        Op::V_CNDMASK_B32 => exec_v_cndmask_b32,
        // 32-bit add/sub.
        Op::V_ADD_U32 => exec_v_add_u32,
        Op::V_SUB_U32 => exec_v_sub_u32,
        Op::V_SUBREV_U32 => exec_v_subrev_u32,
        Op::V_ADD_I32 => exec_v_add_i32,
        Op::V_SUB_I32 => exec_v_sub_i32,
        Op::V_ADD_CO_U32 => exec_v_add_co_u32,
        Op::V_SUB_CO_U32 => exec_v_sub_co_u32,
        Op::V_SUBREV_CO_U32 => exec_v_subrev_co_u32,
        Op::V_ADDC_CO_U32 => exec_v_addc_co_u32,
        Op::V_SUBB_CO_U32 => exec_v_subb_co_u32,
        Op::V_SUBBREV_CO_U32 => exec_v_subbrev_co_u32,
        Op::V_ADD3_U32 => exec_v_add3_u32,
        Op::V_XAD_U32 => exec_v_xad_u32,
        Op::V_LSHL_ADD_U32 => exec_v_lshl_add_u32,
        Op::V_ADD_LSHL_U32 => exec_v_add_lshl_u32,
        Op::V_LSHL_ADD_U64 => exec_v_lshl_add_u64,
        // 16-bit arithmetic.
        Op::V_ADD_U16 => exec_v_add_u16,
        Op::V_SUB_U16 => exec_v_sub_u16,
        Op::V_SUBREV_U16 => exec_v_subrev_u16,
        Op::V_ADD_I16 => exec_v_add_i16,
        Op::V_SUB_I16 => exec_v_sub_i16,
        Op::V_MUL_LO_U16 => exec_v_mul_lo_u16,
        Op::V_LSHLREV_B16 => exec_v_lshlrev_b16,
        Op::V_LSHRREV_B16 => exec_v_lshrrev_b16,
        Op::V_ASHRREV_I16 => exec_v_ashrrev_i16,
        Op::V_MAX_U16 => exec_v_max_u16,
        Op::V_MAX_I16 => exec_v_max_i16,
        Op::V_MIN_U16 => exec_v_min_u16,
        Op::V_MIN_I16 => exec_v_min_i16,
        Op::V_MAD_U16 => exec_v_mad_u16,
        Op::V_MAD_I16 => exec_v_mad_i16,
        Op::V_MAD_LEGACY_U16 => exec_v_mad_legacy_u16,
        Op::V_MAD_LEGACY_I16 => exec_v_mad_legacy_i16,
        Op::V_MAD_U32_U16 => exec_v_mad_u32_u16,
        Op::V_MAD_I32_I16 => exec_v_mad_i32_i16,
        Op::V_MIN3_U16 => exec_v_min3_u16,
        Op::V_MIN3_I16 => exec_v_min3_i16,
        Op::V_MAX3_U16 => exec_v_max3_u16,
        Op::V_MAX3_I16 => exec_v_max3_i16,
        Op::V_MED3_U16 => exec_v_med3_u16,
        Op::V_MED3_I16 => exec_v_med3_i16,
        // Shifts.
        Op::V_LSHLREV_B32 => exec_v_lshlrev_b32,
        Op::V_LSHRREV_B32 => exec_v_lshrrev_b32,
        Op::V_ASHRREV_I32 => exec_v_ashrrev_i32,
        Op::V_LSHLREV_B64 => exec_v_lshlrev_b64,
        Op::V_LSHRREV_B64 => exec_v_lshrrev_b64,
        Op::V_ASHRREV_I64 => exec_v_ashrrev_i64,
        // Bitwise and bit fields.
        Op::V_AND_B32 => exec_v_and_b32,
        Op::V_OR_B32 => exec_v_or_b32,
        Op::V_XOR_B32 => exec_v_xor_b32,
        Op::V_XNOR_B32 => exec_v_xnor_b32,
        Op::V_NOT_B32 => exec_v_not_b32,
        Op::V_AND_OR_B32 => exec_v_and_or_b32,
        Op::V_OR3_B32 => exec_v_or3_b32,
        Op::V_LSHL_OR_B32 => exec_v_lshl_or_b32,
        Op::V_BFREV_B32 => exec_v_bfrev_b32,
        Op::V_FFBH_U32 => exec_v_ffbh_u32,
        Op::V_FFBL_B32 => exec_v_ffbl_b32,
        Op::V_FFBH_I32 => exec_v_ffbh_i32,
        Op::V_BCNT_U32_B32 => exec_v_bcnt_u32_b32,
        Op::V_MBCNT_LO_U32_B32 => exec_v_mbcnt_lo_u32_b32,
        Op::V_MBCNT_HI_U32_B32 => exec_v_mbcnt_hi_u32_b32,
        Op::V_BFE_U32 => exec_v_bfe_u32,
        Op::V_BFE_I32 => exec_v_bfe_i32,
        Op::V_BFI_B32 => exec_v_bfi_b32,
        Op::V_BFM_B32 => exec_v_bfm_b32,
        Op::V_ALIGNBIT_B32 => exec_v_alignbit_b32,
        Op::V_ALIGNBYTE_B32 => exec_v_alignbyte_b32,
        Op::V_PERM_B32 => exec_v_perm_b32,
        // Multiplies.
        Op::V_MUL_LO_U32 => exec_v_mul_lo_u32,
        Op::V_MUL_HI_U32 => exec_v_mul_hi_u32,
        Op::V_MUL_HI_I32 => exec_v_mul_hi_i32,
        Op::V_MUL_U32_U24 => exec_v_mul_u32_u24,
        Op::V_MUL_I32_I24 => exec_v_mul_i32_i24,
        Op::V_MUL_HI_U32_U24 => exec_v_mul_hi_u32_u24,
        Op::V_MUL_HI_I32_I24 => exec_v_mul_hi_i32_i24,
        Op::V_MAD_U32_U24 => exec_v_mad_u32_u24,
        Op::V_MAD_I32_I24 => exec_v_mad_i32_i24,
        Op::V_MAD_U64_U32 => exec_v_mad_u64_u32,
        Op::V_MAD_I64_I32 => exec_v_mad_i64_i32,
        Op::V_DOT2C_I32_I16 => exec_v_dot2c_i32_i16,
        Op::V_DOT4C_I32_I8 => exec_v_dot4c_i32_i8,
        Op::V_DOT8C_I32_I4 => exec_v_dot8c_i32_i4,
        // Min/max.
        Op::V_MIN_U32 => exec_v_min_u32,
        Op::V_MIN_I32 => exec_v_min_i32,
        Op::V_MAX_U32 => exec_v_max_u32,
        Op::V_MAX_I32 => exec_v_max_i32,
        Op::V_MIN3_U32 => exec_v_min3_u32,
        Op::V_MIN3_I32 => exec_v_min3_i32,
        Op::V_MAX3_U32 => exec_v_max3_u32,
        Op::V_MAX3_I32 => exec_v_max3_i32,
        Op::V_MED3_U32 => exec_v_med3_u32,
        Op::V_MED3_I32 => exec_v_med3_i32,
        // Media: SAD, lerp, packing.
        Op::V_SAD_U8 => exec_v_sad_u8,
        Op::V_SAD_HI_U8 => exec_v_sad_hi_u8,
        Op::V_SAD_U16 => exec_v_sad_u16,
        Op::V_SAD_U32 => exec_v_sad_u32,
        Op::V_MSAD_U8 => exec_v_msad_u8,
        Op::V_QSAD_PK_U16_U8 => exec_v_qsad_pk_u16_u8,
        Op::V_MQSAD_PK_U16_U8 => exec_v_mqsad_pk_u16_u8,
        Op::V_MQSAD_U32_U8 => exec_v_mqsad_u32_u8,
        Op::V_LERP_U8 => exec_v_lerp_u8,
        Op::V_SAT_PK_U8_I16 => exec_v_sat_pk_u8_i16,
        Op::V_CVT_PK_U16_U32 => exec_v_cvt_pk_u16_u32,
        Op::V_CVT_PK_I16_I32 => exec_v_cvt_pk_i16_i32,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Forms: DPP and SDWA.

/// Whether the instruction is a DPP form.
#[inline]
fn is_dpp(d: &Decoded) -> bool {
    matches!(
        d.inst.def.family,
        Family::Vop1Dpp | Family::Vop2Dpp | Family::VopcDpp
    )
}

/// Whether the instruction is an SDWA form.
#[inline]
fn is_sdwa(d: &Decoded) -> bool {
    matches!(
        d.inst.def.family,
        Family::Vop1Sdwa | Family::Vop2Sdwa | Family::VopcSdwa
    )
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

/// The lane whose src0 lane `lane` reads under DPP control `ctrl`, or
/// `None` when the control points outside the row (or the wave):
///
/// - `quad_perm` (0x00–0xFF): lane `sel[lane % 4]` of the lane's quad;
/// - `row_shl:n` (0x101–0x10F): lane + n, `row_shr:n` (0x111–0x11F):
///   lane − n, both within the row of 16; `row_ror:n` (0x121–0x12F): lane − n
///   rotated within the row;
/// - `wave_shl:1` (0x130): lane + 1, `wave_rol:1` (0x134): (lane + 1) mod 64,
///   `wave_shr:1` (0x138): lane − 1, `wave_ror:1` (0x13C): (lane − 1) mod 64;
/// - `row_mirror` (0x140): lane 15 − i of the row, `row_half_mirror`
///   (0x141): lane 7 − i of the half row;
/// - `row_bcast:15` (0x142): lane 15 of the previous row (row 0 has none),
///   `row_bcast:31` (0x143): lane 31 for rows 2 and 3;
/// - `row_newbcast:n` (0x150–0x15F, gfx90a+): lane n of the row.
pub fn dpp_source_lane(ctrl: u16, lane: usize) -> Option<usize> {
    let row = lane & !15;
    let x = lane & 15;
    let n = usize::from(ctrl & 15);
    match ctrl {
        0x000..=0x0FF => Some((lane & !3) | usize::from(ctrl >> (2 * (lane & 3)) & 3)),
        0x101..=0x10F => (x + n < 16).then_some(lane + n),
        0x111..=0x11F => (x >= n).then(|| lane - n),
        0x121..=0x12F => Some(row | ((x + 16 - n) & 15)),
        0x130 => (lane < 63).then_some(lane + 1),
        0x134 => Some((lane + 1) & 63),
        0x138 => lane.checked_sub(1),
        0x13C => Some((lane + 63) & 63),
        0x140 => Some(row | (15 - x)),
        0x141 => Some((lane & !7) | (7 - (lane & 7))),
        0x142 => row.checked_sub(1),
        0x143 => (lane >= 32).then_some(31),
        0x150..=0x15F => Some(row | n),
        _ => None,
    }
}

/// DPP routing of the instruction: for each lane the lane its src0 comes
/// from, and the lanes whose source is valid (in range and enabled in EXEC).
fn dpp_route(w: &Wave, d: &Decoded) -> ([u8; LANES], u64) {
    let ctrl = d.inst.mods.dpp_ctrl;
    let exec = w.exec();
    let mut map = [0u8; LANES];
    let mut valid = 0u64;
    for (l, m) in map.iter_mut().enumerate() {
        if let Some(s) = dpp_source_lane(ctrl, l) {
            *m = s as u8;
            valid |= (exec >> s & 1) << l;
        }
    }
    (map, valid)
}

/// The lanes the instruction writes (its VGPR destination, and the bits of
/// its carry/compare mask that may be 1): EXEC, narrowed for DPP forms to
/// the rows and banks `row_mask`/`bank_mask` enable and, without
/// `bound_ctrl`, to the lanes whose source lane is valid.
#[inline]
pub fn active_lanes(w: &Wave, d: &Decoded) -> u64 {
    let exec = w.exec();
    if !is_dpp(d) {
        return exec;
    }
    let m = &d.inst.mods;
    let mut enabled = 0u64;
    for l in 0..LANES {
        let on = m.row_mask >> (l >> 4) & 1 != 0 && m.bank_mask >> ((l >> 2) & 3) & 1 != 0;
        enabled |= u64::from(on) << l;
    }
    if !m.bound_ctrl {
        enabled &= dpp_route(w, d).1;
    }
    exec & enabled
}

/// The SDWA operand select `sel` (0–3 BYTE_0..3, 4–5 WORD_0..1, 6 DWORD) of
/// `v`, zero-extended or, with `sext`, sign-extended to 32 bits.
#[inline]
pub fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    match sel {
        0..=3 => {
            let b = (v >> (8 * sel)) as u8;
            if sext { b as i8 as u32 } else { u32::from(b) }
        }
        4 | 5 => {
            let h = (v >> (16 * (sel - 4))) as u16;
            if sext { h as i16 as u32 } else { u32::from(h) }
        }
        _ => v,
    }
}

/// The SDWA destination value: `v`'s low byte/word placed in the `dst_sel`
/// field `sel` of the register, the other bits zero (`unused` 0,
/// UNUSED_PAD), the field's sign above it and zero below (1, UNUSED_SEXT),
/// or those of `old` (2, UNUSED_PRESERVE).
#[inline]
pub fn sdwa_place(v: u32, old: u32, sel: u8, unused: u8) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return v,
    };
    let fmask = (1u32 << width) - 1;
    let field = (v & fmask) << shift;
    match unused {
        2 => (old & !(fmask << shift)) | field,
        1 if v >> (width - 1) & 1 != 0 => {
            let top = shift + width;
            if top < 32 {
                field | (u32::MAX << top)
            } else {
                field
            }
        }
        _ => field,
    }
}

/// Operand `i` as the instruction sees it: with GPR indexing on
/// (`s_set_gpr_idx_on`: MODE.GPR_IDX_EN), a VGPR source `k` < 3 whose
/// enable bit M0[12 + k] is set, or a VGPR destination with M0[15] set,
/// is offset by M0[7:0]. An index past v255 reads 0 and writes nothing.
#[inline]
fn operand(w: &Wave, d: &Decoded, i: usize) -> Operand {
    let op = *d.op(i);
    if w.mode & super::sop::GPR_IDX_EN == 0 {
        return op;
    }
    gpr_indexed(w, d, i, op)
}

#[inline(never)]
fn gpr_indexed(w: &Wave, d: &Decoded, i: usize, op: Operand) -> Operand {
    let m0 = w.m0();
    let slot = if i < d.first_src {
        3
    } else if i - d.first_src < 3 {
        i - d.first_src
    } else {
        return op;
    };
    if m0 >> (12 + slot) & 1 == 0 {
        return op;
    }
    match op {
        Operand::Src {
            code: c @ 256..,
            width,
        } => {
            let n = u32::from(c - 256) + (m0 & 0xff);
            if n < 256 {
                Operand::Src {
                    code: 256 + n as u16,
                    width,
                }
            } else {
                Operand::Off
            }
        }
        o => o,
    }
}

/// Applies the form's lane selection (DPP) or operand select (SDWA) to the
/// raw value `v` of operand `i`.
#[inline(never)]
fn form_src(w: &Wave, d: &Decoded, i: usize, v: Lanes) -> Lanes {
    let k = i.wrapping_sub(d.first_src);
    if is_dpp(d) {
        if k != 0 {
            return v;
        }
        dpp_gather(w, d, &v)
    } else if k < 2 {
        let m = &d.inst.mods;
        let (sel, sext) = (m.src_sel[k], m.sext >> k & 1 != 0);
        if sel == 6 {
            return v;
        }
        v.map(|x| sdwa_select(x, sel, sext))
    } else {
        v
    }
}

/// Source operand `i` (an index into the operand list) of a VALU
/// instruction as 32-bit lanes, with the DPP lane selection (on src0) and
/// SDWA operand selection (src0/src1, with `sext`) of the form applied: the
/// raw selected bits. VOP3/DPP/SDWA `abs`/`neg` are not applied here: float
/// instructions apply them (see [`src_neg_abs`]).
#[inline]
pub fn src(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> Lanes {
    let v = w.lanes(&operand(w, d, i), ty);
    if !is_dpp_or_sdwa(d) {
        return v;
    }
    form_src(w, d, i, v)
}

/// A source's lanes: borrowed from the register file when that is what
/// the instruction reads (a plain VGPR operand), else computed. The owned
/// variant is large on purpose: it lives on the stack, never boxed.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum LanesRef<'a> {
    /// A VGPR, read in place.
    Reg(&'a Lanes),
    /// A computed value (scalar broadcast, DPP/SDWA selection, indexing).
    Owned(Lanes),
}

impl std::ops::Deref for LanesRef<'_> {
    type Target = Lanes;
    #[inline]
    fn deref(&self) -> &Lanes {
        match self {
            LanesRef::Reg(r) => r,
            LanesRef::Owned(v) => v,
        }
    }
}

/// Source `k` like [`src_k`], without copying a plain VGPR operand.
#[inline]
pub fn src_ref_k<'a>(w: &'a Wave, d: &Decoded, k: usize, ty: Ty) -> LanesRef<'a> {
    let i = d.first_src + k;
    if !is_dpp_or_sdwa(d)
        && w.mode & super::sop::GPR_IDX_EN == 0
        && let Operand::Src {
            code: c @ 256.., ..
        } = *d.op(i)
    {
        return LanesRef::Reg(&w.v[usize::from(c - 256)]);
    }
    LanesRef::Owned(src(w, d, i, ty))
}

/// Source `k` (0 = src0) as 32-bit lanes: `src(w, d, d.first_src + k, ty)`.
#[inline]
pub fn src_k(w: &Wave, d: &Decoded, k: usize, ty: Ty) -> Lanes {
    src(w, d, d.first_src + k, ty)
}

/// Source operand `i` as 64-bit lanes (DPP lane selection applied to src0).
#[inline]
pub fn src64(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> [u64; LANES] {
    let v = w.lanes64(&operand(w, d, i), ty);
    if !is_dpp(d) || i != d.first_src {
        return v;
    }
    dpp_gather(w, d, &v)
}

/// DPP src0: each lane reads the lane its control routes it to; a lane
/// with no valid source reads 0 (written only with `bound_ctrl`).
fn dpp_gather<T: Copy + Default>(w: &Wave, d: &Decoded, v: &[T; LANES]) -> [T; LANES] {
    let (map, valid) = dpp_route(w, d);
    std::array::from_fn(|l| {
        if valid >> l & 1 != 0 {
            v[usize::from(map[l])]
        } else {
            T::default()
        }
    })
}

/// Source `k` (0 = src0) as 64-bit lanes.
#[inline]
pub fn src64_k(w: &Wave, d: &Decoded, k: usize, ty: Ty) -> [u64; LANES] {
    src64(w, d, d.first_src + k, ty)
}

/// The float `abs` and `neg` modifiers of source `k` as masks of the sign
/// bit `sign` (zero when the modifier is off): the value is
/// `(x & !abs) ^ neg` (abs first, then neg).
#[inline]
pub fn abs_neg_masks(d: &Decoded, k: usize, sign: u64) -> (u64, u64) {
    if k >= 8 {
        return (0, 0);
    }
    let m = &d.inst.mods;
    let on = |bits: u8| if bits >> k & 1 != 0 { sign } else { 0 };
    (on(m.abs), on(m.neg))
}

/// Operand `i` as 32-bit lanes with the float source modifiers of source
/// `i - first_src` applied to the sign bit (bit 15 for `Ty::F16`, else
/// bit 31): `abs` clears it, then `neg` flips it.
#[inline]
pub fn src_neg_abs(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> Lanes {
    let mut v = src(w, d, i, ty);
    let sign = if ty == Ty::F16 { 0x8000 } else { 0x8000_0000 };
    let (abs, neg) = abs_neg_masks(d, i.wrapping_sub(d.first_src), sign);
    if abs | neg != 0 {
        let (abs, neg) = (abs as u32, neg as u32);
        for x in v.iter_mut() {
            *x = (*x & !abs) ^ neg;
        }
    }
    v
}

/// Operand `i` as 64-bit lanes with the float `abs` (clear bit 63) then
/// `neg` (flip bit 63) modifiers of source `i - first_src` applied.
#[inline]
pub fn src64_neg_abs(w: &Wave, d: &Decoded, i: usize, ty: Ty) -> [u64; LANES] {
    let mut v = src64(w, d, i, ty);
    let (abs, neg) = abs_neg_masks(d, i.wrapping_sub(d.first_src), 1 << 63);
    if abs | neg != 0 {
        for x in v.iter_mut() {
            *x = (*x & !abs) ^ neg;
        }
    }
    v
}

/// Writes the 32-bit VALU result to destination operand `i` (usually 0) in
/// the lanes the instruction writes ([`active_lanes`]); SDWA forms place it
/// in their `dst_sel` field.
#[inline]
pub fn write_dst(w: &mut Wave, d: &Decoded, i: usize, value: &Lanes) {
    if !is_dpp_or_sdwa(d) {
        w.lane_ops += u64::from(w.exec().count_ones());
        w.write_lanes(&operand(w, d, i), value);
        return;
    }
    write_dst_form(w, d, i, value);
}

/// [`write_dst`] for DPP and SDWA forms.
#[inline(never)]
fn write_dst_form(w: &mut Wave, d: &Decoded, i: usize, value: &Lanes) {
    let mask = active_lanes(w, d);
    w.lane_ops += u64::from(mask.count_ones());
    let op = operand(w, d, i);
    let old = w.lanes(&op, Ty::B32);
    let m = &d.inst.mods;
    let place = is_sdwa(d) && d.inst.def.family != Family::VopcSdwa && m.dst_sel < 6;
    let mut out = old;
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            out[l] = if place {
                sdwa_place(value[l], old[l], m.dst_sel, m.dst_unused)
            } else {
                value[l]
            };
        }
    }
    w.write_lanes(&op, &out);
}

/// Writes a 16-bit result (low 16 bits of `value`) to destination operand
/// `i`. Legacy 16-bit instructions (`keep_other_half` false) zero the high
/// half; the GFX9 `op_sel` instructions write the half `op_sel[3]` picks
/// and keep the other one.
#[inline]
pub fn write_dst16(w: &mut Wave, d: &Decoded, i: usize, value: &Lanes, keep_other_half: bool) {
    let mut r = [0u32; LANES];
    if keep_other_half {
        let old = w.lanes(&operand(w, d, i), Ty::B32);
        let hi = d.inst.mods.op_sel >> 3 & 1 != 0;
        for l in 0..LANES {
            r[l] = if hi {
                (old[l] & 0xFFFF) | value[l] << 16
            } else {
                (old[l] & 0xFFFF_0000) | (value[l] & 0xFFFF)
            };
        }
    } else {
        for l in 0..LANES {
            r[l] = value[l] & 0xFFFF;
        }
    }
    write_dst(w, d, i, &r);
}

/// Writes a 64-bit VALU result to destination operand `i` in the lanes the
/// instruction writes.
#[inline]
pub fn write_dst64(w: &mut Wave, d: &Decoded, i: usize, value: &[u64; LANES]) {
    if !is_dpp(d) {
        w.lane_ops += u64::from(w.exec().count_ones());
        w.write_lanes64(&operand(w, d, i), value);
        return;
    }
    let mask = active_lanes(w, d);
    w.lane_ops += u64::from(mask.count_ones());
    let op = operand(w, d, i);
    let mut out = w.lanes64(&op, Ty::B64);
    for l in 0..LANES {
        if mask >> l & 1 != 0 {
            out[l] = value[l];
        }
    }
    w.write_lanes64(&op, &out);
}

/// Writes a per-lane condition mask (carry-out, compare result) to scalar
/// destination operand `i`: bits of lanes the instruction does not write
/// (not in EXEC, or disabled by DPP) are written as 0.
#[inline]
pub fn write_mask(w: &mut Wave, d: &Decoded, i: usize, mask: u64) {
    let m = mask & active_lanes(w, d);
    w.write_scalar(d.op(i), m, true);
}

// ---------------------------------------------------------------------------
// Lane-wise helpers.

/// D = f(S0) on 32-bit lanes.
#[inline]
fn map1(w: &mut Wave, d: &Decoded, f: impl Fn(u32) -> u32) -> R {
    let r = src_ref_k(w, d, 0, Ty::B32).map(f);
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D = f(S0, S1) on 32-bit lanes.
#[inline]
fn map2(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> u32) -> R {
    let r = {
        let (a, b) = (src_ref_k(w, d, 0, Ty::B32), src_ref_k(w, d, 1, Ty::B32));
        let (a, b): (&Lanes, &Lanes) = (&a, &b);
        std::array::from_fn(|l| f(a[l], b[l]))
    };
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D = f(S0, S1, S2) on 32-bit lanes.
#[inline]
fn map3(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let r = {
        let (a, b, c) = (
            src_ref_k(w, d, 0, Ty::B32),
            src_ref_k(w, d, 1, Ty::B32),
            src_ref_k(w, d, 2, Ty::B32),
        );
        let (a, b, c): (&Lanes, &Lanes, &Lanes) = (&a, &b, &c);
        std::array::from_fn(|l| f(a[l], b[l], c[l]))
    };
    write_dst(w, d, 0, &r);
    Ok(())
}

/// Source `k` of a 16-bit operation: the half `op_sel` picks (the low one
/// unless the instruction has `op_sel`), in the low 16 bits.
#[inline]
fn src16(w: &Wave, d: &Decoded, k: usize) -> Lanes {
    let v = src_k(w, d, k, Ty::F16);
    if d.inst.mods.op_sel >> k & 1 != 0 {
        v.map(|x| x >> 16)
    } else {
        v.map(|x| x & 0xFFFF)
    }
}

/// D.u16 = f(S0.u16, S1.u16) (sources zero-extended in u32).
#[inline]
fn map2_16(w: &mut Wave, d: &Decoded, keep: bool, f: impl Fn(u32, u32) -> u32) -> R {
    let a = src16(w, d, 0);
    let b = src16(w, d, 1);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = f(a[l], b[l]);
    }
    write_dst16(w, d, 0, &r, keep);
    Ok(())
}

/// D.u16 = f(S0.u16, S1.u16, S2.u16) (sources zero-extended in u32).
#[inline]
fn map3_16(w: &mut Wave, d: &Decoded, keep: bool, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let a = src16(w, d, 0);
    let b = src16(w, d, 1);
    let c = src16(w, d, 2);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = f(a[l], b[l], c[l]);
    }
    write_dst16(w, d, 0, &r, keep);
    Ok(())
}

/// Whether the instruction's `clamp` bit (integer saturation) is set.
#[inline]
fn clamp(d: &Decoded) -> bool {
    d.inst.mods.clamp
}

/// `x` saturated to u32.
#[inline]
fn sat_u32(x: u64) -> u32 {
    x.min(u64::from(u32::MAX)) as u32
}

/// `x` saturated to i32.
#[inline]
fn sat_i32(x: i64) -> u32 {
    x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
}

/// Low 16 bits as i16, widened.
#[inline]
fn i16v(x: u32) -> i32 {
    i32::from(x as u16 as i16)
}

/// Low 24 bits sign-extended.
#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// Median of three.
#[inline]
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.min(b).max(a.max(b).min(c))
}

// ---------------------------------------------------------------------------
// Data movement and lane access.

/// No operation.
fn exec_v_nop(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

/// Clears the wave's exception state (TRAPSTS.EXCP, bits 8:0).
fn exec_v_clrexcp(w: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    w.trapsts &= !0x1FF;
    Ok(())
}

/// D = S0.
fn exec_v_mov_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    write_dst(w, d, 0, &a);
    Ok(())
}

/// D.u64 = S0.u64 (gfx942).
fn exec_v_mov_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64_k(w, d, 0, Ty::B64);
    write_dst64(w, d, 0, &a);
    Ok(())
}

/// AGPR D = AGPR S0 (gfx90a+).
fn exec_v_accvgpr_mov_b32(w: &mut Wave, d: &Decoded, ctx: &mut Ctx<'_>) -> R {
    exec_v_mov_b32(w, d, ctx)
}

/// Swaps VGPRs D and S0 in the active lanes.
fn exec_v_swap_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = w.lanes(d.op(0), Ty::B32);
    let b = w.lanes(d.op(1), Ty::B32);
    w.lane_ops += u64::from(w.exec().count_ones());
    w.write_lanes(d.op(0), &b);
    w.write_lanes(d.op(1), &a);
    Ok(())
}

/// SDST = S0 of the first lane enabled in EXEC (lane 0 when EXEC is 0).
fn exec_v_readfirstlane_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = w.lanes(d.op(1), Ty::B32);
    let exec = w.exec();
    let lane = if exec == 0 {
        0
    } else {
        exec.trailing_zeros() as usize
    };
    w.write_scalar(d.op(0), u64::from(v[lane]), false);
    Ok(())
}

/// SDST = S0 of lane S1[5:0] (EXEC ignored).
fn exec_v_readlane_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = w.lanes(d.op(1), Ty::B32);
    let lane = w.scalar(d.op(2), Ty::B32).unwrap_or(0) as usize & 63;
    w.write_scalar(d.op(0), u64::from(v[lane]), false);
    Ok(())
}

/// VGPR D of lane S1[5:0] = scalar S0 (EXEC ignored).
fn exec_v_writelane_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = w.scalar(d.op(1), Ty::B32).unwrap_or(0) as u32;
    let lane = w.scalar(d.op(2), Ty::B32).unwrap_or(0) as usize & 63;
    w.lane_ops += 1;
    w.write_lane(d.op(0), 0, lane, v);
    Ok(())
}

/// D = VCC/SSRC2[lane] ? S1 : S0 (with float abs/neg source modifiers).
fn exec_v_cndmask_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_neg_abs(w, d, d.first_src, Ty::B32);
    let b = src_neg_abs(w, d, d.first_src + 1, Ty::B32);
    let m = w.scalar(d.src_op(2), Ty::B64).unwrap_or(0);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = if m >> l & 1 != 0 { b[l] } else { a[l] };
    }
    write_dst(w, d, 0, &r);
    Ok(())
}

// ---------------------------------------------------------------------------
// 32-bit add and subtract.

/// D = S0 + S1 (clamp: unsigned saturation).
fn exec_v_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if clamp(d) {
        map2(w, d, u32::saturating_add)
    } else {
        map2(w, d, u32::wrapping_add)
    }
}

/// D = S0 - S1 (clamp: unsigned saturation).
fn exec_v_sub_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if clamp(d) {
        map2(w, d, u32::saturating_sub)
    } else {
        map2(w, d, u32::wrapping_sub)
    }
}

/// D = S1 - S0 (clamp: unsigned saturation).
fn exec_v_subrev_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if clamp(d) {
        map2(w, d, |a, b| b.saturating_sub(a))
    } else {
        map2(w, d, |a, b| b.wrapping_sub(a))
    }
}

/// D.i = S0.i + S1.i (VOP3; clamp: signed saturation).
fn exec_v_add_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if clamp(d) {
        map2(w, d, |a, b| (a as i32).saturating_add(b as i32) as u32)
    } else {
        map2(w, d, u32::wrapping_add)
    }
}

/// D.i = S0.i - S1.i (VOP3; clamp: signed saturation).
fn exec_v_sub_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if clamp(d) {
        map2(w, d, |a, b| (a as i32).saturating_sub(b as i32) as u32)
    } else {
        map2(w, d, u32::wrapping_sub)
    }
}

/// Add/subtract with carry out to operand 1 (VCC/SDST): `f(S0, S1, cin)`
/// gives the 33-bit result as (value, carry/borrow); `cin` is the lane's bit
/// of source 2 when `carry_in`. With clamp, a carry/borrow saturates the
/// value to `sat`.
#[inline]
fn carry_op(
    w: &mut Wave,
    d: &Decoded,
    carry_in: bool,
    sat: u32,
    f: impl Fn(u32, u32, u32) -> (u32, bool),
) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let cin = if carry_in {
        w.scalar(d.src_op(2), Ty::B64).unwrap_or(0)
    } else {
        0
    };
    let clamp = clamp(d);
    let mut r = [0u32; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let (v, c) = f(a[l], b[l], (cin >> l & 1) as u32);
        r[l] = if clamp && c { sat } else { v };
        carry |= u64::from(c) << l;
    }
    write_dst(w, d, 0, &r);
    write_mask(w, d, 1, carry);
    Ok(())
}

/// 33-bit a + b + c as (low 32 bits, carry).
#[inline]
fn add_c(a: u32, b: u32, c: u32) -> (u32, bool) {
    let s = u64::from(a) + u64::from(b) + u64::from(c);
    (s as u32, s >> 32 != 0)
}

/// a - b - c as (low 32 bits, borrow).
#[inline]
fn sub_c(a: u32, b: u32, c: u32) -> (u32, bool) {
    let s = u64::from(a)
        .wrapping_sub(u64::from(b))
        .wrapping_sub(u64::from(c));
    (s as u32, s >> 32 != 0)
}

/// D = S0 + S1; VCC/SDST = carry out per lane.
fn exec_v_add_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, false, u32::MAX, |a, b, _| add_c(a, b, 0))
}

/// D = S0 - S1; VCC/SDST = borrow out per lane.
fn exec_v_sub_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, false, 0, |a, b, _| sub_c(a, b, 0))
}

/// D = S1 - S0; VCC/SDST = borrow out per lane.
fn exec_v_subrev_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, false, 0, |a, b, _| sub_c(b, a, 0))
}

/// D = S0 + S1 + VCC/SSRC2[lane]; VCC/SDST = carry out.
fn exec_v_addc_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, true, u32::MAX, add_c)
}

/// D = S0 - S1 - VCC/SSRC2[lane]; VCC/SDST = borrow out.
fn exec_v_subb_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, true, 0, sub_c)
}

/// D = S1 - S0 - VCC/SSRC2[lane]; VCC/SDST = borrow out.
fn exec_v_subbrev_co_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    carry_op(w, d, true, 0, |a, b, c| sub_c(b, a, c))
}

/// D = S0 + S1 + S2.
fn exec_v_add3_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| a.wrapping_add(b).wrapping_add(c))
}

/// D = (S0 ^ S1) + S2.
fn exec_v_xad_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| (a ^ b).wrapping_add(c))
}

/// D = (S0 << S1[4:0]) + S2.
fn exec_v_lshl_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| (a << (b & 31)).wrapping_add(c))
}

/// D = (S0 + S1) << S2[4:0].
fn exec_v_add_lshl_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| a.wrapping_add(b) << (c & 31))
}

/// D.u64 = (S0.u64 << S1[2:0]) + S2.u64 (gfx942).
fn exec_v_lshl_add_u64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64_k(w, d, 0, Ty::B64);
    let s = src_k(w, d, 1, Ty::B32);
    let c = src64_k(w, d, 2, Ty::B64);
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        r[l] = (a[l] << (s[l] & 7)).wrapping_add(c[l]);
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

// ---------------------------------------------------------------------------
// 16-bit arithmetic.

/// D.u16 = S0.u16 + S1.u16 (clamp: unsigned saturation).
fn exec_v_add_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2_16(
        w,
        d,
        false,
        |a, b| if c { (a + b).min(0xFFFF) } else { a + b },
    )
}

/// D.u16 = S0.u16 - S1.u16 (clamp: unsigned saturation).
fn exec_v_sub_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2_16(w, d, false, move |a, b| {
        if c {
            a.saturating_sub(b)
        } else {
            a.wrapping_sub(b)
        }
    })
}

/// D.u16 = S1.u16 - S0.u16 (clamp: unsigned saturation).
fn exec_v_subrev_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2_16(w, d, false, move |a, b| {
        if c {
            b.saturating_sub(a)
        } else {
            b.wrapping_sub(a)
        }
    })
}

/// `x` saturated to i16 (as a 16-bit pattern) when `c`, else wrapped.
#[inline]
fn sat16(x: i32, c: bool) -> u32 {
    if c {
        x.clamp(-0x8000, 0x7FFF) as u32 & 0xFFFF
    } else {
        x as u32 & 0xFFFF
    }
}

/// D.i16 = S0.i16 + S1.i16 (op_sel; clamp: signed saturation).
fn exec_v_add_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2_16(w, d, true, move |a, b| sat16(i16v(a) + i16v(b), c))
}

/// D.i16 = S0.i16 - S1.i16 (op_sel; clamp: signed saturation).
fn exec_v_sub_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2_16(w, d, true, move |a, b| sat16(i16v(a) - i16v(b), c))
}

/// D.u16 = S0.u16 * S1.u16 (low 16 bits).
fn exec_v_mul_lo_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| a.wrapping_mul(b))
}

/// D.u16 = S1.u16 << S0[3:0].
fn exec_v_lshlrev_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| b << (a & 15))
}

/// D.u16 = S1.u16 >> S0[3:0].
fn exec_v_lshrrev_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| b >> (a & 15))
}

/// D.i16 = S1.i16 >> S0[3:0] (arithmetic).
fn exec_v_ashrrev_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| (i16v(b) >> (a & 15)) as u32)
}

/// D.u16 = max(S0.u16, S1.u16).
fn exec_v_max_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, u32::max)
}

/// D.i16 = max(S0.i16, S1.i16).
fn exec_v_max_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| i16v(a).max(i16v(b)) as u32)
}

/// D.u16 = min(S0.u16, S1.u16).
fn exec_v_min_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, u32::min)
}

/// D.i16 = min(S0.i16, S1.i16).
fn exec_v_min_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2_16(w, d, false, |a, b| i16v(a).min(i16v(b)) as u32)
}

/// D.u16 = S0.u16 * S1.u16 + S2.u16 (clamp: unsigned saturation); `keep`
/// selects the op_sel (GFX9) or legacy destination behaviour.
#[inline]
fn mad_u16(w: &mut Wave, d: &Decoded, keep: bool) -> R {
    let c = clamp(d);
    map3_16(w, d, keep, move |a, b, s| {
        let x = a * b + s;
        if c { x.min(0xFFFF) } else { x }
    })
}

/// D.i16 = S0.i16 * S1.i16 + S2.i16 (clamp: signed saturation).
#[inline]
fn mad_i16(w: &mut Wave, d: &Decoded, keep: bool) -> R {
    let c = clamp(d);
    map3_16(w, d, keep, move |a, b, s| {
        sat16(i16v(a).wrapping_mul(i16v(b)).wrapping_add(i16v(s)), c)
    })
}

/// D.u16 = S0.u16 * S1.u16 + S2.u16 (op_sel; keeps the other half).
fn exec_v_mad_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mad_u16(w, d, true)
}

/// D.i16 = S0.i16 * S1.i16 + S2.i16 (op_sel; keeps the other half).
fn exec_v_mad_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mad_i16(w, d, true)
}

/// D.u16 = S0.u16 * S1.u16 + S2.u16 (high half zeroed).
fn exec_v_mad_legacy_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mad_u16(w, d, false)
}

/// D.i16 = S0.i16 * S1.i16 + S2.i16 (high half zeroed).
fn exec_v_mad_legacy_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mad_i16(w, d, false)
}

/// D.u32 = S0.u16 * S1.u16 + S2.u32 (op_sel on S0/S1; clamp: saturation).
fn exec_v_mad_u32_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src16(w, d, 0);
    let b = src16(w, d, 1);
    let s = src_k(w, d, 2, Ty::B32);
    let c = clamp(d);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let x = u64::from(a[l] * b[l]) + u64::from(s[l]);
        r[l] = if c { sat_u32(x) } else { x as u32 };
    }
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.i32 = S0.i16 * S1.i16 + S2.i32 (op_sel on S0/S1; clamp: saturation).
fn exec_v_mad_i32_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src16(w, d, 0);
    let b = src16(w, d, 1);
    let s = src_k(w, d, 2, Ty::B32);
    let c = clamp(d);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let x = i64::from(i16v(a[l]) * i16v(b[l])) + i64::from(s[l] as i32);
        r[l] = if c { sat_i32(x) } else { x as u32 };
    }
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.u16 = min(S0.u16, S1.u16, S2.u16) (op_sel).
fn exec_v_min3_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, |a, b, c| a.min(b).min(c))
}

/// D.i16 = min(S0.i16, S1.i16, S2.i16) (op_sel).
fn exec_v_min3_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, |a, b, c| {
        i16v(a).min(i16v(b)).min(i16v(c)) as u32
    })
}

/// D.u16 = max(S0.u16, S1.u16, S2.u16) (op_sel).
fn exec_v_max3_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, |a, b, c| a.max(b).max(c))
}

/// D.i16 = max(S0.i16, S1.i16, S2.i16) (op_sel).
fn exec_v_max3_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, |a, b, c| {
        i16v(a).max(i16v(b)).max(i16v(c)) as u32
    })
}

/// D.u16 = median(S0.u16, S1.u16, S2.u16) (op_sel).
fn exec_v_med3_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, med3)
}

/// D.i16 = median(S0.i16, S1.i16, S2.i16) (op_sel).
fn exec_v_med3_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3_16(w, d, true, |a, b, c| med3(i16v(a), i16v(b), i16v(c)) as u32)
}

// ---------------------------------------------------------------------------
// Shifts.

/// D = S1 << S0[4:0].
fn exec_v_lshlrev_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| b << (a & 31))
}

/// D = S1 >> S0[4:0] (logical).
fn exec_v_lshrrev_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| b >> (a & 31))
}

/// D.i = S1.i >> S0[4:0] (arithmetic).
fn exec_v_ashrrev_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| ((b as i32) >> (a & 31)) as u32)
}

/// 64-bit shift D.u64 = f(S1.u64, S0[5:0]).
#[inline]
fn shift64(w: &mut Wave, d: &Decoded, f: impl Fn(u64, u32) -> u64) -> R {
    let s = src_k(w, d, 0, Ty::B32);
    let v = src64_k(w, d, 1, Ty::B64);
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        r[l] = f(v[l], s[l] & 63);
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

/// D.u64 = S1.u64 << S0[5:0].
fn exec_v_lshlrev_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    shift64(w, d, |v, s| v << s)
}

/// D.u64 = S1.u64 >> S0[5:0] (logical).
fn exec_v_lshrrev_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    shift64(w, d, |v, s| v >> s)
}

/// D.i64 = S1.i64 >> S0[5:0] (arithmetic).
fn exec_v_ashrrev_i64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    shift64(w, d, |v, s| ((v as i64) >> s) as u64)
}

// ---------------------------------------------------------------------------
// Bitwise and bit fields.

/// D = S0 & S1.
fn exec_v_and_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| a & b)
}

/// D = S0 | S1.
fn exec_v_or_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| a | b)
}

/// D = S0 ^ S1.
fn exec_v_xor_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| a ^ b)
}

/// D = ~(S0 ^ S1) (gfx906+).
fn exec_v_xnor_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| !(a ^ b))
}

/// D = ~S0.
fn exec_v_not_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, |a| !a)
}

/// D = (S0 & S1) | S2.
fn exec_v_and_or_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| (a & b) | c)
}

/// D = S0 | S1 | S2.
fn exec_v_or3_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| a | b | c)
}

/// D = (S0 << S1[4:0]) | S2.
fn exec_v_lshl_or_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| (a << (b & 31)) | c)
}

/// D = S0 with its bits reversed.
fn exec_v_bfrev_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, u32::reverse_bits)
}

/// D = number of leading zeros of S0 (0xFFFFFFFF when S0 = 0).
fn exec_v_ffbh_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, |a| if a == 0 { u32::MAX } else { a.leading_zeros() })
}

/// D = number of trailing zeros of S0 (0xFFFFFFFF when S0 = 0).
fn exec_v_ffbl_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, |a| if a == 0 { u32::MAX } else { a.trailing_zeros() })
}

/// D = position from the MSB of the first bit differing from the sign bit
/// (0xFFFFFFFF when S0 is 0 or -1).
fn exec_v_ffbh_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, |a| {
        let x = a ^ ((a as i32 >> 31) as u32);
        if x == 0 { u32::MAX } else { x.leading_zeros() }
    })
}

/// D = popcount(S0) + S1.
fn exec_v_bcnt_u32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| a.count_ones().wrapping_add(b))
}

/// D = popcount(S0 & lanes-below-this-one mask [31:0]) + S1.
fn exec_v_mbcnt_lo_u32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mbcnt(w, d, 0)
}

/// D = popcount(S0 & lanes-below-this-one mask [63:32]) + S1.
fn exec_v_mbcnt_hi_u32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    mbcnt(w, d, 32)
}

/// Shared `v_mbcnt_*`: `shift` picks the half of the thread mask.
#[inline]
fn mbcnt(w: &mut Wave, d: &Decoded, shift: u32) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let below = ((1u64 << l) - 1) >> shift;
        r[l] = (a[l] & below as u32).count_ones().wrapping_add(b[l]);
    }
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1).
fn exec_v_bfe_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, o, n| (a >> (o & 31)) & ((1u32 << (n & 31)) - 1))
}

/// D = sign-extended bit field of S0 at S1[4:0], S2[4:0] bits wide (0 for
/// width 0).
fn exec_v_bfe_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, o, n| {
        let n = n & 31;
        if n == 0 {
            return 0;
        }
        let x = ((a as i32) >> (o & 31)) as u32;
        (((x << (32 - n)) as i32) >> (32 - n)) as u32
    })
}

/// D = (S0 & S1) | (~S0 & S2).
fn exec_v_bfi_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| (a & b) | (!a & c))
}

/// D = ((1 << S0[4:0]) - 1) << S1[4:0].
fn exec_v_bfm_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| ((1u32 << (a & 31)) - 1) << (b & 31))
}

/// D = ({S0, S1} >> S2[4:0])[31:0].
fn exec_v_alignbit_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32
    })
}

/// D = ({S0, S1} >> (8 * S2[1:0]))[31:0].
fn exec_v_alignbyte_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        ((u64::from(a) << 32 | u64::from(b)) >> (8 * (c & 3))) as u32
    })
}

/// D.byte[i] = byte selected by S2.byte[i] from {S0, S1} (0–7: bytes of
/// S1 then S0; 8–11: 0xFF if bit 15/31 of S1 / bit 15/31 of S0 is set;
/// 12: 0x00; 13–255: 0xFF).
fn exec_v_perm_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        let x = u64::from(a) << 32 | u64::from(b);
        let mut r = 0u32;
        for i in 0..4 {
            let s = (c >> (8 * i)) & 0xFF;
            let byte = match s {
                0..=7 => (x >> (8 * s)) as u8,
                8..=11 => {
                    let bit = [15, 31, 47, 63][(s - 8) as usize];
                    if x >> bit & 1 != 0 { 0xFF } else { 0 }
                }
                12 => 0,
                _ => 0xFF,
            };
            r |= u32::from(byte) << (8 * i);
        }
        r
    })
}

// ---------------------------------------------------------------------------
// Multiplies.

/// D = (S0 * S1)[31:0].
fn exec_v_mul_lo_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, u32::wrapping_mul)
}

/// D = (S0.u * S1.u)[63:32].
fn exec_v_mul_hi_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32)
}

/// D = (S0.i * S1.i)[63:32].
fn exec_v_mul_hi_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| {
        ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
    })
}

/// D = (S0[23:0] * S1[23:0])[31:0] (clamp: unsigned saturation).
fn exec_v_mul_u32_u24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2(w, d, move |a, b| {
        let p = u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF);
        if c { sat_u32(p) } else { p as u32 }
    })
}

/// D = (S0.i24 * S1.i24)[31:0] (clamp: signed saturation).
fn exec_v_mul_i32_i24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map2(w, d, move |a, b| {
        let p = i24(a) * i24(b);
        if c { sat_i32(p) } else { p as u32 }
    })
}

/// D = (S0[23:0] * S1[23:0])[47:32].
fn exec_v_mul_hi_u32_u24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| {
        ((u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF)) >> 32) as u32
    })
}

/// D = (S0.i24 * S1.i24)[63:32].
fn exec_v_mul_hi_i32_i24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| ((i24(a) * i24(b)) >> 32) as u32)
}

/// D = S0[23:0] * S1[23:0] + S2 (clamp: unsigned saturation).
fn exec_v_mad_u32_u24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map3(w, d, move |a, b, s| {
        let x = u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF) + u64::from(s);
        if c { sat_u32(x) } else { x as u32 }
    })
}

/// D = S0.i24 * S1.i24 + S2.i (clamp: signed saturation).
fn exec_v_mad_i32_i24(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = clamp(d);
    map3(w, d, move |a, b, s| {
        let x = i24(a) * i24(b) + i64::from(s as i32);
        if c { sat_i32(x) } else { x as u32 }
    })
}

/// {SDST[lane], D.u64} = S0.u32 * S1.u32 + S2.u64 (SDST: carry out of the
/// 64-bit add; clamp: saturate to u64 max).
fn exec_v_mad_u64_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let s = src64_k(w, d, 2, Ty::B64);
    let c = clamp(d);
    let mut r = [0u64; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let (x, o) = (u64::from(a[l]) * u64::from(b[l])).overflowing_add(s[l]);
        r[l] = if c && o { u64::MAX } else { x };
        carry |= u64::from(o) << l;
    }
    write_dst64(w, d, 0, &r);
    write_mask(w, d, 1, carry);
    Ok(())
}

/// {SDST[lane], D.i64} = S0.i32 * S1.i32 + S2.i64 (SDST: signed overflow of
/// the 64-bit add; clamp: signed saturation).
fn exec_v_mad_i64_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let s = src64_k(w, d, 2, Ty::B64);
    let c = clamp(d);
    let mut r = [0u64; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let p = i64::from(a[l] as i32) * i64::from(b[l] as i32);
        let (x, o) = p.overflowing_add(s[l] as i64);
        r[l] = if c && o {
            if p < 0 {
                i64::MIN as u64
            } else {
                i64::MAX as u64
            }
        } else {
            x as u64
        };
        carry |= u64::from(o) << l;
    }
    write_dst64(w, d, 0, &r);
    write_mask(w, d, 1, carry);
    Ok(())
}

/// Shared `v_dot*c`: D.i32 = D.i32 + Σ S0.field[i] * S1.field[i] over the
/// `n` signed `bits`-wide fields (clamp: signed saturation).
#[inline]
fn dotc(w: &mut Wave, d: &Decoded, bits: u32) -> R {
    let a = src_k(w, d, 0, Ty::B32);
    let b = src_k(w, d, 1, Ty::B32);
    let acc = w.lanes(d.op(0), Ty::B32);
    let c = clamp(d);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let mut sum = i64::from(acc[l] as i32);
        for i in 0..32 / bits {
            let f = |x: u32| i64::from(((x >> (i * bits)) << (32 - bits)) as i32 >> (32 - bits));
            sum += f(a[l]) * f(b[l]);
        }
        r[l] = if c { sat_i32(sum) } else { sum as u32 };
    }
    write_dst(w, d, 0, &r);
    Ok(())
}

/// D.i32 = D.i32 + S0.i16[0] * S1.i16[0] + S0.i16[1] * S1.i16[1].
fn exec_v_dot2c_i32_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    dotc(w, d, 16)
}

/// D.i32 = D.i32 + Σ S0.i8[i] * S1.i8[i] (4 bytes).
fn exec_v_dot4c_i32_i8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    dotc(w, d, 8)
}

/// D.i32 = D.i32 + Σ S0.i4[i] * S1.i4[i] (8 nibbles).
fn exec_v_dot8c_i32_i4(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    dotc(w, d, 4)
}

// ---------------------------------------------------------------------------
// Min/max.

/// D.u = min(S0.u, S1.u).
fn exec_v_min_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, u32::min)
}

/// D.i = min(S0.i, S1.i).
fn exec_v_min_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| (a as i32).min(b as i32) as u32)
}

/// D.u = max(S0.u, S1.u).
fn exec_v_max_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, u32::max)
}

/// D.i = max(S0.i, S1.i).
fn exec_v_max_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| (a as i32).max(b as i32) as u32)
}

/// D.u = min(S0.u, S1.u, S2.u).
fn exec_v_min3_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| a.min(b).min(c))
}

/// D.i = min(S0.i, S1.i, S2.i).
fn exec_v_min3_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        (a as i32).min(b as i32).min(c as i32) as u32
    })
}

/// D.u = max(S0.u, S1.u, S2.u).
fn exec_v_max3_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| a.max(b).max(c))
}

/// D.i = max(S0.i, S1.i, S2.i).
fn exec_v_max3_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        (a as i32).max(b as i32).max(c as i32) as u32
    })
}

/// D.u = median(S0.u, S1.u, S2.u).
fn exec_v_med3_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, med3)
}

/// D.i = median(S0.i, S1.i, S2.i).
fn exec_v_med3_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| med3(a as i32, b as i32, c as i32) as u32)
}

// ---------------------------------------------------------------------------
// Media: sums of absolute differences, lerp, packing.

/// Σ |a.byte[i] - b.byte[i]| over the 4 bytes; with `masked`, bytes where
/// the reference `b` is 0 are skipped (MSAD).
#[inline]
fn sad_bytes(a: u32, b: u32, masked: bool) -> u32 {
    let mut s = 0;
    for i in 0..4 {
        let x = (a >> (8 * i)) & 0xFF;
        let y = (b >> (8 * i)) & 0xFF;
        if !(masked && y == 0) {
            s += x.abs_diff(y);
        }
    }
    s
}

/// D = f(S0, S1) + S2 with clamp to u32 when the instruction clamps.
#[inline]
fn sad_acc(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> u64) -> R {
    let c = clamp(d);
    map3(w, d, move |a, b, s| {
        let x = f(a, b) + u64::from(s);
        if c { sat_u32(x) } else { x as u32 }
    })
}

/// D = Σ |S0.u8[i] - S1.u8[i]| + S2 (clamp: saturation).
fn exec_v_sad_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sad_acc(w, d, |a, b| u64::from(sad_bytes(a, b, false)))
}

/// D = (Σ |S0.u8[i] - S1.u8[i]| << 16) + S2 (clamp: saturation).
fn exec_v_sad_hi_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sad_acc(w, d, |a, b| u64::from(sad_bytes(a, b, false)) << 16)
}

/// D = Σ |S0.u16[i] - S1.u16[i]| + S2 (clamp: saturation).
fn exec_v_sad_u16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sad_acc(w, d, |a, b| {
        u64::from((a & 0xFFFF).abs_diff(b & 0xFFFF) + (a >> 16).abs_diff(b >> 16))
    })
}

/// D = |S0 - S1| + S2 (clamp: saturation).
fn exec_v_sad_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sad_acc(w, d, |a, b| u64::from(a.abs_diff(b)))
}

/// D = Σ |S0.u8[i] - S1.u8[i]| over bytes with S1.u8[i] ≠ 0, + S2.
fn exec_v_msad_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sad_acc(w, d, |a, b| u64::from(sad_bytes(a, b, true)))
}

/// Shared quad SAD with packed u16 accumulators: D.u16[i] =
/// SAD(S0.u64 bytes i..i+3, S1) + S2.u16[i] (clamp: saturate to u16).
#[inline]
fn qsad(w: &mut Wave, d: &Decoded, masked: bool) -> R {
    let a = src64_k(w, d, 0, Ty::B64);
    let b = src_k(w, d, 1, Ty::B32);
    let s = src64_k(w, d, 2, Ty::B64);
    let c = clamp(d);
    let mut r = [0u64; LANES];
    for l in 0..LANES {
        let mut out = 0u64;
        for i in 0..4 {
            let acc = (s[l] >> (16 * i)) as u32 & 0xFFFF;
            let x = sad_bytes((a[l] >> (8 * i)) as u32, b[l], masked) + acc;
            let x = if c { x.min(0xFFFF) } else { x & 0xFFFF };
            out |= u64::from(x) << (16 * i);
        }
        r[l] = out;
    }
    write_dst64(w, d, 0, &r);
    Ok(())
}

/// D.u16[i] = SAD(S0.u64 bytes i..i+3, S1.u8x4) + S2.u16[i], i = 0..3.
fn exec_v_qsad_pk_u16_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    qsad(w, d, false)
}

/// D.u16[i] = MSAD(S0.u64 bytes i..i+3, S1.u8x4) + S2.u16[i], i = 0..3.
fn exec_v_mqsad_pk_u16_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    qsad(w, d, true)
}

/// D.u32[i] = MSAD(S0.u64 bytes i..i+3, S1.u8x4) + S2.u32[i], i = 0..3
/// (4-dword destination and S2; clamp: saturation).
fn exec_v_mqsad_u32_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64_k(w, d, 0, Ty::B64);
    let b = src_k(w, d, 1, Ty::B32);
    let c = clamp(d);
    let s2 = *d.src_op(2);
    let mut out = [[0u32; LANES]; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let s = w.lanes_at(&s2, i, Ty::B32);
        for l in 0..LANES {
            let x = u64::from(sad_bytes((a[l] >> (8 * i)) as u32, b[l], true)) + u64::from(s[l]);
            o[l] = if c { sat_u32(x) } else { x as u32 };
        }
    }
    w.lane_ops += u64::from(w.exec().count_ones());
    let dst = *d.op(0);
    for (i, o) in out.iter().enumerate() {
        w.write_lanes_at(&dst, i, o);
    }
    Ok(())
}

/// D.u8[i] = (S0.u8[i] + S1.u8[i] + S2.u8[i][0]) >> 1 (rounded average).
fn exec_v_lerp_u8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map3(w, d, |a, b, c| {
        let mut r = 0;
        for i in 0..4 {
            let sh = 8 * i;
            let x = ((a >> sh) & 0xFF) + ((b >> sh) & 0xFF) + ((c >> sh) & 1);
            r |= (x >> 1) << sh;
        }
        r
    })
}

/// D.u8[0] = sat_u8(S0.i16[0]), D.u8[1] = sat_u8(S0.i16[1]), D[31:16] = 0.
fn exec_v_sat_pk_u8_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map1(w, d, |a| {
        let s = |x: u32| i16v(x).clamp(0, 255) as u32;
        s(a) | s(a >> 16) << 8
    })
}

/// D = {sat_u16(S1.u32), sat_u16(S0.u32)}.
fn exec_v_cvt_pk_u16_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| a.min(0xFFFF) | b.min(0xFFFF) << 16)
}

/// D = {sat_i16(S1.i32), sat_i16(S0.i32)}.
fn exec_v_cvt_pk_i16_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    map2(w, d, |a, b| {
        sat16(a as i32, true) | sat16(b as i32, true) << 16
    })
}
