//! Scalar ALU and program control: SOP1, SOP2, SOPK, SOPC, SOPP (AMD
//! "Vega" Instruction Set Architecture reference, ch. 4 "Program Flow
//! Control", ch. 5 "Scalar ALU Operations" and ch. 12.1–12.5).
//!
//! Every SOP1, SOP2, SOPK, SOPC and SOPP instruction of the GFX9 table has a
//! function here. `D` is the destination, `S0`/`S1` the sources, `SCC` the
//! scalar condition code; an instruction whose doc line does not mention
//! SCC leaves it unchanged. Sources are read before the destination is
//! written, so they may overlap it.
//!
//! What the emulator does not model, and how the affected instructions
//! behave instead:
//!
//! - Counters and scheduling: memory operations complete in program order
//!   before the next instruction, so `s_waitcnt`, `s_nop`, `s_sleep`,
//!   `s_setprio`, `s_wakeup`, `s_incperflevel`, `s_decperflevel` and
//!   `s_ttracedata` have no effect (`HW_REG_IB_STS` reads 0).
//! - Caches and code: code is decoded once and never changes, so
//!   `s_icache_inv` has no effect.
//! - Messages: nothing listens to `s_sendmsg`/`s_sendmsghalt` (GS, interrupt
//!   and debug messages mean nothing to a compute kernel); they have no
//!   effect, and `s_sendmsghalt` does not halt.
//! - Debugger: no debugger is attached, so `s_cbranch_cdbg*` are never
//!   taken; `s_sethalt 0` has no effect and `s_sethalt` with bit 0 set (a
//!   halt nothing would resume) is a fault.
//! - Graphics: `s_setkill` (pixel kill) has no effect; `s_endpgm_saved` and
//!   `s_endpgm_ordered_ps_done` end the wave like `s_endpgm`.
//! - Traps: there is no trap handler; `s_trap` stops the dispatch with
//!   [`FaultKind::Trap`], `s_rfe_b64`/`s_rfe_restore_b64` act as
//!   `s_setpc_b64`.
//! - The fork/join control stack (`s_cbranch_g_fork`, `s_cbranch_i_fork`,
//!   `s_cbranch_join`, never emitted by LLVM) is a fault naming it.
//! - `s_setvskip` stores VSKIP in MODE bit 28 when it clears it; setting it
//!   is a fault, since vector instructions do not honour it.
//! - GPR indexing (`s_set_gpr_idx_*`) sets MODE.GPR_IDX_EN (bit 27) and the
//!   index and enables in M0 as the ISA says; honouring them is up to the
//!   vector-operand readers (see [`GPR_IDX_EN`]).

use amdgpu_isa::gfx9::{Op, Operand};

use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{M0, Ty, Wave};

type R = Result<(), FaultKind>;

/// MODE bit 27 (GPR_IDX_EN): while set, vector instructions index VGPRs
/// relative to M0[7:0] for the operands whose enables are set in M0[15:12]
/// (bit 12 VSRC0_REL, 13 VSRC1_REL, 14 VSRC2_REL, 15 VDST_REL).
pub const GPR_IDX_EN: u32 = 1 << 27;

/// MODE bit 28 (VSKIP): skip vector instructions.
pub const VSKIP: u32 = 1 << 28;

/// `HW_REG_*` IDs of the `hwreg` operand (bits 5:0).
pub mod hwreg {
    /// MODE: round and denorm modes, DX10 clamp, IEEE, GPR_IDX_EN, VSKIP.
    pub const MODE: u32 = 1;
    /// STATUS (read-only here): SCC, EXECZ, VCCZ, VALID.
    pub const STATUS: u32 = 2;
    /// TRAPSTS: exception status.
    pub const TRAPSTS: u32 = 3;
    /// HW_ID: where the wave runs.
    pub const HW_ID: u32 = 4;
    /// GPR_ALLOC: VGPR and SGPR allocation.
    pub const GPR_ALLOC: u32 = 5;
    /// LDS_ALLOC: LDS allocation.
    pub const LDS_ALLOC: u32 = 6;
    /// IB_STS: outstanding counters.
    pub const IB_STS: u32 = 7;
    /// SH_MEM_BASES: bits 63:48 of the private (15:0) and shared (31:16)
    /// apertures.
    pub const SH_MEM_BASES: u32 = 15;
}

/// The function for `op`, if it is a scalar ALU or program-control
/// instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        // SOP1
        Op::S_MOV_B32 | Op::S_MOV_B64 => exec_s_mov,
        Op::S_CMOV_B32 | Op::S_CMOV_B64 => exec_s_cmov,
        Op::S_NOT_B32 => exec_s_not_b32,
        Op::S_NOT_B64 => exec_s_not_b64,
        Op::S_WQM_B32 => exec_s_wqm_b32,
        Op::S_WQM_B64 => exec_s_wqm_b64,
        Op::S_BREV_B32 => exec_s_brev_b32,
        Op::S_BREV_B64 => exec_s_brev_b64,
        Op::S_BCNT0_I32_B32 => exec_s_bcnt0_i32_b32,
        Op::S_BCNT0_I32_B64 => exec_s_bcnt0_i32_b64,
        Op::S_BCNT1_I32_B32 => exec_s_bcnt1_i32_b32,
        Op::S_BCNT1_I32_B64 => exec_s_bcnt1_i32_b64,
        Op::S_FF0_I32_B32 => exec_s_ff0_i32_b32,
        Op::S_FF0_I32_B64 => exec_s_ff0_i32_b64,
        Op::S_FF1_I32_B32 => exec_s_ff1_i32_b32,
        Op::S_FF1_I32_B64 => exec_s_ff1_i32_b64,
        Op::S_FLBIT_I32_B32 => exec_s_flbit_i32_b32,
        Op::S_FLBIT_I32_B64 => exec_s_flbit_i32_b64,
        Op::S_FLBIT_I32 => exec_s_flbit_i32,
        Op::S_FLBIT_I32_I64 => exec_s_flbit_i32_i64,
        Op::S_SEXT_I32_I8 => exec_s_sext_i32_i8,
        Op::S_SEXT_I32_I16 => exec_s_sext_i32_i16,
        Op::S_BITSET0_B32 => exec_s_bitset0_b32,
        Op::S_BITSET0_B64 => exec_s_bitset0_b64,
        Op::S_BITSET1_B32 => exec_s_bitset1_b32,
        Op::S_BITSET1_B64 => exec_s_bitset1_b64,
        Op::S_GETPC_B64 => exec_s_getpc_b64,
        Op::S_SETPC_B64 => exec_s_setpc_b64,
        Op::S_SWAPPC_B64 => exec_s_swappc_b64,
        Op::S_RFE_B64 => exec_s_rfe_b64,
        Op::S_AND_SAVEEXEC_B64 => exec_s_and_saveexec_b64,
        Op::S_OR_SAVEEXEC_B64 => exec_s_or_saveexec_b64,
        Op::S_XOR_SAVEEXEC_B64 => exec_s_xor_saveexec_b64,
        Op::S_ANDN2_SAVEEXEC_B64 => exec_s_andn2_saveexec_b64,
        Op::S_ORN2_SAVEEXEC_B64 => exec_s_orn2_saveexec_b64,
        Op::S_NAND_SAVEEXEC_B64 => exec_s_nand_saveexec_b64,
        Op::S_NOR_SAVEEXEC_B64 => exec_s_nor_saveexec_b64,
        Op::S_XNOR_SAVEEXEC_B64 => exec_s_xnor_saveexec_b64,
        Op::S_ANDN1_SAVEEXEC_B64 => exec_s_andn1_saveexec_b64,
        Op::S_ORN1_SAVEEXEC_B64 => exec_s_orn1_saveexec_b64,
        Op::S_ANDN1_WREXEC_B64 => exec_s_andn1_wrexec_b64,
        Op::S_ANDN2_WREXEC_B64 => exec_s_andn2_wrexec_b64,
        Op::S_QUADMASK_B32 => exec_s_quadmask_b32,
        Op::S_QUADMASK_B64 => exec_s_quadmask_b64,
        Op::S_MOVRELS_B32 | Op::S_MOVRELS_B64 => exec_s_movrels,
        Op::S_MOVRELD_B32 | Op::S_MOVRELD_B64 => exec_s_movreld,
        Op::S_CBRANCH_JOIN | Op::S_CBRANCH_G_FORK | Op::S_CBRANCH_I_FORK => exec_fork_join,
        Op::S_ABS_I32 => exec_s_abs_i32,
        Op::S_SET_GPR_IDX_IDX => exec_s_set_gpr_idx_idx,
        Op::S_BITREPLICATE_B64_B32 => exec_s_bitreplicate_b64_b32,
        // SOP2
        Op::S_ADD_U32 => exec_s_add_u32,
        Op::S_SUB_U32 => exec_s_sub_u32,
        Op::S_ADD_I32 => exec_s_add_i32,
        Op::S_SUB_I32 => exec_s_sub_i32,
        Op::S_ADDC_U32 => exec_s_addc_u32,
        Op::S_SUBB_U32 => exec_s_subb_u32,
        Op::S_MIN_I32 => exec_s_min_i32,
        Op::S_MIN_U32 => exec_s_min_u32,
        Op::S_MAX_I32 => exec_s_max_i32,
        Op::S_MAX_U32 => exec_s_max_u32,
        Op::S_CSELECT_B32 | Op::S_CSELECT_B64 => exec_s_cselect,
        Op::S_AND_B32 | Op::S_AND_B64 => exec_s_and,
        Op::S_OR_B32 | Op::S_OR_B64 => exec_s_or,
        Op::S_XOR_B32 | Op::S_XOR_B64 => exec_s_xor,
        Op::S_ANDN2_B32 | Op::S_ANDN2_B64 => exec_s_andn2,
        Op::S_ORN2_B32 | Op::S_ORN2_B64 => exec_s_orn2,
        Op::S_NAND_B32 | Op::S_NAND_B64 => exec_s_nand,
        Op::S_NOR_B32 | Op::S_NOR_B64 => exec_s_nor,
        Op::S_XNOR_B32 | Op::S_XNOR_B64 => exec_s_xnor,
        Op::S_LSHL_B32 => exec_s_lshl_b32,
        Op::S_LSHL_B64 => exec_s_lshl_b64,
        Op::S_LSHR_B32 => exec_s_lshr_b32,
        Op::S_LSHR_B64 => exec_s_lshr_b64,
        Op::S_ASHR_I32 => exec_s_ashr_i32,
        Op::S_ASHR_I64 => exec_s_ashr_i64,
        Op::S_BFM_B32 => exec_s_bfm_b32,
        Op::S_BFM_B64 => exec_s_bfm_b64,
        Op::S_MUL_I32 => exec_s_mul_i32,
        Op::S_BFE_U32 => exec_s_bfe_u32,
        Op::S_BFE_I32 => exec_s_bfe_i32,
        Op::S_BFE_U64 => exec_s_bfe_u64,
        Op::S_BFE_I64 => exec_s_bfe_i64,
        Op::S_ABSDIFF_I32 => exec_s_absdiff_i32,
        Op::S_RFE_RESTORE_B64 => exec_s_rfe_b64,
        Op::S_MUL_HI_U32 => exec_s_mul_hi_u32,
        Op::S_MUL_HI_I32 => exec_s_mul_hi_i32,
        Op::S_LSHL1_ADD_U32 => exec_s_lshl1_add_u32,
        Op::S_LSHL2_ADD_U32 => exec_s_lshl2_add_u32,
        Op::S_LSHL3_ADD_U32 => exec_s_lshl3_add_u32,
        Op::S_LSHL4_ADD_U32 => exec_s_lshl4_add_u32,
        Op::S_PACK_LL_B32_B16 => exec_s_pack_ll_b32_b16,
        Op::S_PACK_LH_B32_B16 => exec_s_pack_lh_b32_b16,
        Op::S_PACK_HH_B32_B16 => exec_s_pack_hh_b32_b16,
        // SOPK
        Op::S_MOVK_I32 => exec_s_movk_i32,
        Op::S_CMOVK_I32 => exec_s_cmovk_i32,
        Op::S_CMPK_EQ_I32 => exec_s_cmpk_eq_i32,
        Op::S_CMPK_LG_I32 => exec_s_cmpk_lg_i32,
        Op::S_CMPK_GT_I32 => exec_s_cmpk_gt_i32,
        Op::S_CMPK_GE_I32 => exec_s_cmpk_ge_i32,
        Op::S_CMPK_LT_I32 => exec_s_cmpk_lt_i32,
        Op::S_CMPK_LE_I32 => exec_s_cmpk_le_i32,
        Op::S_CMPK_EQ_U32 => exec_s_cmpk_eq_u32,
        Op::S_CMPK_LG_U32 => exec_s_cmpk_lg_u32,
        Op::S_CMPK_GT_U32 => exec_s_cmpk_gt_u32,
        Op::S_CMPK_GE_U32 => exec_s_cmpk_ge_u32,
        Op::S_CMPK_LT_U32 => exec_s_cmpk_lt_u32,
        Op::S_CMPK_LE_U32 => exec_s_cmpk_le_u32,
        Op::S_ADDK_I32 => exec_s_addk_i32,
        Op::S_MULK_I32 => exec_s_mulk_i32,
        Op::S_GETREG_B32 => exec_s_getreg_b32,
        Op::S_SETREG_B32 | Op::S_SETREG_IMM32_B32 => exec_s_setreg_b32,
        Op::S_CALL_B64 => exec_s_call_b64,
        // SOPC
        Op::S_CMP_EQ_I32 | Op::S_CMP_EQ_U32 | Op::S_CMP_EQ_U64 => exec_s_cmp_eq,
        Op::S_CMP_LG_I32 | Op::S_CMP_LG_U32 | Op::S_CMP_LG_U64 => exec_s_cmp_lg,
        Op::S_CMP_GT_I32 => exec_s_cmp_gt_i32,
        Op::S_CMP_GE_I32 => exec_s_cmp_ge_i32,
        Op::S_CMP_LT_I32 => exec_s_cmp_lt_i32,
        Op::S_CMP_LE_I32 => exec_s_cmp_le_i32,
        Op::S_CMP_GT_U32 => exec_s_cmp_gt_u32,
        Op::S_CMP_GE_U32 => exec_s_cmp_ge_u32,
        Op::S_CMP_LT_U32 => exec_s_cmp_lt_u32,
        Op::S_CMP_LE_U32 => exec_s_cmp_le_u32,
        Op::S_BITCMP0_B32 => exec_s_bitcmp0_b32,
        Op::S_BITCMP1_B32 => exec_s_bitcmp1_b32,
        Op::S_BITCMP0_B64 => exec_s_bitcmp0_b64,
        Op::S_BITCMP1_B64 => exec_s_bitcmp1_b64,
        Op::S_SETVSKIP => exec_s_setvskip,
        Op::S_SET_GPR_IDX_ON => exec_s_set_gpr_idx_on,
        // SOPP
        Op::S_NOP
        | Op::S_WAITCNT
        | Op::S_SETPRIO
        | Op::S_SETKILL
        | Op::S_WAKEUP
        | Op::S_TTRACEDATA
        | Op::S_ICACHE_INV
        | Op::S_INCPERFLEVEL
        | Op::S_DECPERFLEVEL
        | Op::S_SENDMSG
        | Op::S_SENDMSGHALT => exec_s_nop,
        Op::S_SLEEP => exec_s_sleep,
        Op::S_ENDPGM | Op::S_ENDPGM_SAVED | Op::S_ENDPGM_ORDERED_PS_DONE => exec_s_endpgm,
        Op::S_BRANCH => exec_s_branch,
        Op::S_CBRANCH_SCC0 => exec_s_cbranch_scc0,
        Op::S_CBRANCH_SCC1 => exec_s_cbranch_scc1,
        Op::S_CBRANCH_VCCZ => exec_s_cbranch_vccz,
        Op::S_CBRANCH_VCCNZ => exec_s_cbranch_vccnz,
        Op::S_CBRANCH_EXECZ => exec_s_cbranch_execz,
        Op::S_CBRANCH_EXECNZ => exec_s_cbranch_execnz,
        Op::S_CBRANCH_CDBGSYS
        | Op::S_CBRANCH_CDBGUSER
        | Op::S_CBRANCH_CDBGSYS_OR_USER
        | Op::S_CBRANCH_CDBGSYS_AND_USER => exec_s_cbranch_cdbg,
        Op::S_BARRIER => exec_s_barrier,
        Op::S_SETHALT => exec_s_sethalt,
        Op::S_TRAP => exec_s_trap,
        Op::S_SET_GPR_IDX_OFF => exec_s_set_gpr_idx_off,
        Op::S_SET_GPR_IDX_MODE => exec_s_set_gpr_idx_mode,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Operand access

/// Whether operand `i` is 64 bits wide (by the instruction's table entry).
#[inline]
fn wide(d: &Decoded, i: usize) -> bool {
    d.inst.def.widths.get(i) == Some(&2)
}

/// Operand `i` as a source, 32 or 64 bits by the table.
#[inline]
fn get(w: &Wave, d: &Decoded, i: usize) -> u64 {
    let ty = if wide(d, i) { Ty::B64 } else { Ty::B32 };
    w.scalar(d.op(i), ty).unwrap_or(0)
}

/// Operand `i` as a 32-bit source.
#[inline]
fn get32(w: &Wave, d: &Decoded, i: usize) -> u32 {
    get(w, d, i) as u32
}

/// Writes destination operand `i`, 32 or 64 bits by the table.
#[inline]
fn put(w: &mut Wave, d: &Decoded, i: usize, v: u64) {
    let is_64 = wide(d, i);
    w.write_scalar(d.op(i), v, is_64);
}

/// The raw 16-bit immediate of operand `i` (SOPK `simm16`, SOPP).
#[inline]
fn imm16(d: &Decoded, i: usize) -> u16 {
    match *d.op(i) {
        Operand::Imm(v) => v as u16,
        _ => 0,
    }
}

/// The immediate of operand `i` sign-extended to 32 bits.
#[inline]
fn simm16(d: &Decoded, i: usize) -> u32 {
    i32::from(imm16(d, i) as i16) as u32
}

/// SOP2 shape: D = f(S0, S1, SCC); SCC = the second result when `Some`.
#[inline]
fn sop2(w: &mut Wave, d: &Decoded, f: impl FnOnce(u64, u64, bool) -> (u64, Option<bool>)) -> R {
    let (a, b) = (get(w, d, 1), get(w, d, 2));
    let (v, scc) = f(a, b, w.scc);
    put(w, d, 0, v);
    if let Some(s) = scc {
        w.scc = s;
    }
    Ok(())
}

/// SOP2 shape on 32-bit values.
#[inline]
fn sop2_32(w: &mut Wave, d: &Decoded, f: impl FnOnce(u32, u32, bool) -> (u32, Option<bool>)) -> R {
    sop2(w, d, |a, b, scc| {
        let (v, s) = f(a as u32, b as u32, scc);
        (u64::from(v), s)
    })
}

/// SOP1 shape: D = f(S0); SCC = the second result when `Some`.
#[inline]
fn sop1(w: &mut Wave, d: &Decoded, f: impl FnOnce(u64) -> (u64, Option<bool>)) -> R {
    let a = get(w, d, 1);
    let (v, scc) = f(a);
    put(w, d, 0, v);
    if let Some(s) = scc {
        w.scc = s;
    }
    Ok(())
}

/// SOPC shape: SCC = f(S0, S1).
#[inline]
fn sopc(w: &mut Wave, d: &Decoded, f: impl FnOnce(u64, u64) -> bool) -> R {
    let (a, b) = (get(w, d, 0), get(w, d, 1));
    w.scc = f(a, b);
    Ok(())
}

/// SOPK compare: SCC = f(S0, simm16), the immediate sign- or zero-extended.
#[inline]
fn sopk_cmp(w: &mut Wave, d: &Decoded, signed: bool, f: impl FnOnce(u32, u32) -> bool) -> R {
    let a = get32(w, d, 0);
    let k = if signed {
        simm16(d, 1)
    } else {
        u32::from(imm16(d, 1))
    };
    w.scc = f(a, k);
    Ok(())
}

/// Result and SCC = result != 0.
#[inline]
fn nz32(v: u32) -> (u32, Option<bool>) {
    (v, Some(v != 0))
}

/// Result and SCC = result != 0.
#[inline]
fn nz64(v: u64) -> (u64, Option<bool>) {
    (v, Some(v != 0))
}

// ---------------------------------------------------------------------------
// SOP1

/// D = S0 (32 or 64 bits).
fn exec_s_mov(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (a, None))
}

/// if SCC then D = S0 (32 or 64 bits).
fn exec_s_cmov(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if w.scc {
        let v = get(w, d, 1);
        put(w, d, 0, v);
    }
    Ok(())
}

/// D = ~S0; SCC = D != 0.
fn exec_s_not_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from(!(a as u32))))
}

/// D = ~S0; SCC = D != 0 (64 bits).
fn exec_s_not_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(!a))
}

/// Whole-quad mode: each 4-bit group of D is all ones if any bit of the
/// group in S0 is set.
fn wqm(a: u64) -> u64 {
    let mut v = 0;
    for q in 0..16 {
        if a >> (4 * q) & 0xf != 0 {
            v |= 0xf << (4 * q);
        }
    }
    v
}

/// D = whole-quad mask of S0 (each quad all ones if any of its bits is set); SCC = D != 0.
fn exec_s_wqm_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(wqm(a & 0xffff_ffff)))
}

/// D = whole-quad mask of S0 (64 bits); SCC = D != 0.
fn exec_s_wqm_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(wqm(a)))
}

/// D = S0 with its 32 bits reversed.
fn exec_s_brev_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (u64::from((a as u32).reverse_bits()), None))
}

/// D = S0 with its 64 bits reversed.
fn exec_s_brev_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (a.reverse_bits(), None))
}

/// D = number of zero bits in S0 (32 bits); SCC = D != 0.
fn exec_s_bcnt0_i32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from((a as u32).count_zeros())))
}

/// D = number of zero bits in S0 (64 bits); SCC = D != 0.
fn exec_s_bcnt0_i32_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from(a.count_zeros())))
}

/// D = number of one bits in S0 (32 bits); SCC = D != 0.
fn exec_s_bcnt1_i32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from((a as u32).count_ones())))
}

/// D = number of one bits in S0 (64 bits); SCC = D != 0.
fn exec_s_bcnt1_i32_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from(a.count_ones())))
}

/// Index of the lowest set bit of `v` (of `bits`), or -1 if none.
fn first_one(v: u64, bits: u32) -> u64 {
    if v == 0 {
        u64::from(u32::MAX)
    } else {
        u64::from(v.trailing_zeros().min(bits))
    }
}

/// D = index of the lowest zero bit of S0 (32 bits), or -1 if none.
fn exec_s_ff0_i32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (first_one(u64::from(!(a as u32)), 32), None))
}

/// D = index of the lowest zero bit of S0 (64 bits), or -1 if none.
fn exec_s_ff0_i32_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (first_one(!a, 64), None))
}

/// D = index of the lowest set bit of S0 (32 bits), or -1 if none.
fn exec_s_ff1_i32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (first_one(a & 0xffff_ffff, 32), None))
}

/// D = index of the lowest set bit of S0 (64 bits), or -1 if none.
fn exec_s_ff1_i32_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (first_one(a, 64), None))
}

/// D = number of zero bits above the highest set bit of S0 (32 bits), or -1 if S0 = 0.
fn exec_s_flbit_i32_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        let a = a as u32;
        let v = if a == 0 { u32::MAX } else { a.leading_zeros() };
        (u64::from(v), None)
    })
}

/// D = number of zero bits above the highest set bit of S0 (64 bits), or -1 if S0 = 0.
fn exec_s_flbit_i32_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        let v = if a == 0 { u32::MAX } else { a.leading_zeros() };
        (u64::from(v), None)
    })
}

/// D = number of bits below the sign bit of S0 (i32) equal to it, counting
/// from the MSB (the position of the first bit opposite the sign), or -1
/// if S0 is 0 or -1.
fn exec_s_flbit_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        let a = a as u32;
        let m = if a >> 31 != 0 { !a } else { a };
        let v = if m == 0 { u32::MAX } else { m.leading_zeros() };
        (u64::from(v), None)
    })
}

/// D = position (from the MSB) of the first bit of S0 (i64) opposite its
/// sign bit, or -1 if S0 is 0 or -1.
fn exec_s_flbit_i32_i64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        let m = if a >> 63 != 0 { !a } else { a };
        let v = if m == 0 { u32::MAX } else { m.leading_zeros() };
        (u64::from(v), None)
    })
}

/// D = S0[7:0] sign-extended.
fn exec_s_sext_i32_i8(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| (u64::from(i32::from(a as u8 as i8) as u32), None))
}

/// D = S0[15:0] sign-extended.
fn exec_s_sext_i32_i16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        (u64::from(i32::from(a as u16 as i16) as u32), None)
    })
}

/// D[bit] = `value` with bit = S0 masked to the destination width.
fn bitset(w: &mut Wave, d: &Decoded, value: bool) -> R {
    let bits = if wide(d, 0) { 64 } else { 32 };
    let bit = get32(w, d, 1) & (bits - 1);
    let old = get(w, d, 0);
    let v = if value {
        old | 1 << bit
    } else {
        old & !(1 << bit)
    };
    put(w, d, 0, v);
    Ok(())
}

/// D[S0[4:0]] = 0.
fn exec_s_bitset0_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    bitset(w, d, false)
}

/// D.u64[S0[5:0]] = 0.
fn exec_s_bitset0_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    bitset(w, d, false)
}

/// D[S0[4:0]] = 1.
fn exec_s_bitset1_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    bitset(w, d, true)
}

/// D.u64[S0[5:0]] = 1.
fn exec_s_bitset1_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    bitset(w, d, true)
}

/// D.u64 = address of the next instruction.
fn exec_s_getpc_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let pc = w.pc;
    put(w, d, 0, pc);
    Ok(())
}

/// PC = S0.u64.
fn exec_s_setpc_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    w.pc = get(w, d, 0);
    Ok(())
}

/// D.u64 = address of the next instruction; PC = S0.u64 (S0 read first).
fn exec_s_swappc_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let target = get(w, d, 1);
    let ret = w.pc;
    put(w, d, 0, ret);
    w.pc = target;
    Ok(())
}

/// Return from exception: PC = S0.u64 (no trap handler runs, so this is
/// `s_setpc_b64`; `s_rfe_restore_b64` also ignores its S1).
fn exec_s_rfe_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    w.pc = get(w, d, 0);
    Ok(())
}

/// D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
fn saveexec(w: &mut Wave, d: &Decoded, f: impl FnOnce(u64, u64) -> u64) -> R {
    let s0 = get(w, d, 1);
    let old = w.exec();
    put(w, d, 0, old);
    let e = f(s0, old);
    w.set_exec(e);
    w.scc = e != 0;
    Ok(())
}

/// D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0.
fn exec_s_and_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| s & e)
}

/// D = EXEC; EXEC = S0 | EXEC; SCC = EXEC != 0.
fn exec_s_or_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| s | e)
}

/// D = EXEC; EXEC = S0 ^ EXEC; SCC = EXEC != 0.
fn exec_s_xor_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| s ^ e)
}

/// D = EXEC; EXEC = S0 & ~EXEC; SCC = EXEC != 0.
fn exec_s_andn2_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| s & !e)
}

/// D = EXEC; EXEC = S0 | ~EXEC; SCC = EXEC != 0.
fn exec_s_orn2_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| s | !e)
}

/// D = EXEC; EXEC = ~(S0 & EXEC); SCC = EXEC != 0.
fn exec_s_nand_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| !(s & e))
}

/// D = EXEC; EXEC = ~(S0 | EXEC); SCC = EXEC != 0.
fn exec_s_nor_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| !(s | e))
}

/// D = EXEC; EXEC = ~(S0 ^ EXEC); SCC = EXEC != 0.
fn exec_s_xnor_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| !(s ^ e))
}

/// D = EXEC; EXEC = ~S0 & EXEC; SCC = EXEC != 0.
fn exec_s_andn1_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| !s & e)
}

/// D = EXEC; EXEC = ~S0 | EXEC; SCC = EXEC != 0.
fn exec_s_orn1_saveexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    saveexec(w, d, |s, e| !s | e)
}

/// EXEC = f(S0, EXEC); D = EXEC (the new value); SCC = EXEC != 0.
fn wrexec(w: &mut Wave, d: &Decoded, f: impl FnOnce(u64, u64) -> u64) -> R {
    let s0 = get(w, d, 1);
    let e = f(s0, w.exec());
    w.set_exec(e);
    put(w, d, 0, e);
    w.scc = e != 0;
    Ok(())
}

/// EXEC = ~S0 & EXEC; D = EXEC; SCC = EXEC != 0.
fn exec_s_andn1_wrexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    wrexec(w, d, |s, e| !s & e)
}

/// EXEC = S0 & ~EXEC; D = EXEC; SCC = EXEC != 0.
fn exec_s_andn2_wrexec_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    wrexec(w, d, |s, e| s & !e)
}

/// Bit `i` of the result = OR of bits 4i..4i+3 of `a`, for `quads` quads.
fn quadmask(a: u64, quads: u32) -> u64 {
    let mut v = 0;
    for q in 0..quads {
        if a >> (4 * q) & 0xf != 0 {
            v |= 1 << q;
        }
    }
    v
}

/// D[i] = OR(S0[4i+3:4i]) for the 8 quads of S0; SCC = D != 0.
fn exec_s_quadmask_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(quadmask(a, 8)))
}

/// D[i] = OR(S0[4i+3:4i]) for the 16 quads of S0 (D 64 bits); SCC = D != 0.
fn exec_s_quadmask_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(quadmask(a, 16)))
}

/// The SGPR `op`'s register number plus M0, if the register (pair when
/// `is_64`) lies in `s0`–`s101`.
fn relative_sgpr(w: &Wave, op: &Operand, is_64: bool) -> Option<usize> {
    let Operand::Src { code, .. } = *op else {
        return None;
    };
    let r = u64::from(code) + u64::from(w.m0());
    let last = r + u64::from(is_64);
    (code < 128 && last <= 101).then_some(r as usize)
}

/// D = SGPR[S0.addr + M0] (32 or 64 bits); an index past `s101` reads 0.
fn exec_s_movrels(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let is_64 = wide(d, 1);
    let v = match relative_sgpr(w, d.op(1), is_64) {
        Some(r) if is_64 => w.s64(r),
        Some(r) => u64::from(w.s[r]),
        None => 0,
    };
    put(w, d, 0, v);
    Ok(())
}

/// SGPR[D.addr + M0] = S0 (32 or 64 bits); a write past `s101` is dropped.
fn exec_s_movreld(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let is_64 = wide(d, 0);
    let v = get(w, d, 1);
    if let Some(r) = relative_sgpr(w, d.op(0), is_64) {
        if is_64 {
            w.set_s64(r, v);
        } else {
            w.s[r] = v as u32;
        }
    }
    Ok(())
}

/// The fork/join control stack (`s_cbranch_g_fork`, `s_cbranch_i_fork`,
/// `s_cbranch_join`): not emulated (a fault naming the instruction).
fn exec_fork_join(_: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    Err(FaultKind::Other(format!(
        "`{}` is not implemented by the emulator: the fork/join control stack (MODE.CSP) is not modelled (LLVM never emits it)",
        d.inst.def.name
    )))
}

/// D.i = |S0.i| (|-2^31| = -2^31); SCC = D != 0.
fn exec_s_abs_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| nz64(u64::from((a as i32).wrapping_abs() as u32)))
}

/// M0[7:0] = S0[7:0] (the GPR index); the rest of M0 is kept.
fn exec_s_set_gpr_idx_idx(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let s0 = get32(w, d, 0);
    w.s[M0] = (w.s[M0] & !0xff) | (s0 & 0xff);
    Ok(())
}

/// D.u64[2i] = D.u64[2i+1] = S0[i] for i in 0..32.
fn exec_s_bitreplicate_b64_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop1(w, d, |a| {
        let mut v = 0u64;
        for i in 0..32 {
            if a >> i & 1 != 0 {
                v |= 3 << (2 * i);
            }
        }
        (v, None)
    })
}

// ---------------------------------------------------------------------------
// SOP2

/// D = S0 + S1; SCC = unsigned carry out.
fn exec_s_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let (v, c) = a.overflowing_add(b);
        (v, Some(c))
    })
}

/// D = S0 - S1; SCC = unsigned borrow (S1 > S0).
fn exec_s_sub_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let (v, c) = a.overflowing_sub(b);
        (v, Some(c))
    })
}

/// D = S0 + S1; SCC = signed overflow.
fn exec_s_add_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let (v, o) = (a as i32).overflowing_add(b as i32);
        (v as u32, Some(o))
    })
}

/// D = S0 - S1; SCC = signed overflow.
fn exec_s_sub_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let (v, o) = (a as i32).overflowing_sub(b as i32);
        (v as u32, Some(o))
    })
}

/// D = S0 + S1 + SCC; SCC = unsigned carry out.
fn exec_s_addc_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, c| {
        let sum = u64::from(a) + u64::from(b) + u64::from(c);
        (sum as u32, Some(sum >> 32 != 0))
    })
}

/// D = S0 - S1 - SCC; SCC = unsigned borrow.
fn exec_s_subb_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, c| {
        let sub = u64::from(b) + u64::from(c);
        (a.wrapping_sub(sub as u32), Some(sub > u64::from(a)))
    })
}

/// D = S0.i < S1.i ? S0 : S1; SCC = S0.i < S1.i.
fn exec_s_min_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let lt = (a as i32) < (b as i32);
        (if lt { a } else { b }, Some(lt))
    })
}

/// D = S0.u < S1.u ? S0 : S1; SCC = S0.u < S1.u.
fn exec_s_min_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let lt = a < b;
        (if lt { a } else { b }, Some(lt))
    })
}

/// D = S0.i > S1.i ? S0 : S1; SCC = S0.i > S1.i.
fn exec_s_max_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let gt = (a as i32) > (b as i32);
        (if gt { a } else { b }, Some(gt))
    })
}

/// D = S0.u > S1.u ? S0 : S1; SCC = S0.u > S1.u.
fn exec_s_max_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        let gt = a > b;
        (if gt { a } else { b }, Some(gt))
    })
}

/// D = SCC ? S0 : S1 (32 or 64 bits).
fn exec_s_cselect(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, c| (if c { a } else { b }, None))
}

/// D = S0 & S1 (32 or 64 bits); SCC = D != 0.
fn exec_s_and(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(a & b))
}

/// D = S0 | S1 (32 or 64 bits); SCC = D != 0.
fn exec_s_or(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(a | b))
}

/// D = S0 ^ S1 (32 or 64 bits); SCC = D != 0.
fn exec_s_xor(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(a ^ b))
}

/// The mask of the destination width of a bitwise SOP2.
fn dmask(d: &Decoded) -> u64 {
    if wide(d, 0) { u64::MAX } else { 0xffff_ffff }
}

/// D = S0 & ~S1 (32 or 64 bits); SCC = D != 0.
fn exec_s_andn2(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = dmask(d);
    sop2(w, d, |a, b, _| nz64(a & !b & m))
}

/// D = S0 | ~S1 (32 or 64 bits); SCC = D != 0.
fn exec_s_orn2(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = dmask(d);
    sop2(w, d, |a, b, _| nz64((a | !b) & m))
}

/// D = ~(S0 & S1) (32 or 64 bits); SCC = D != 0.
fn exec_s_nand(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = dmask(d);
    sop2(w, d, |a, b, _| nz64(!(a & b) & m))
}

/// D = ~(S0 | S1) (32 or 64 bits); SCC = D != 0.
fn exec_s_nor(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = dmask(d);
    sop2(w, d, |a, b, _| nz64(!(a | b) & m))
}

/// D = ~(S0 ^ S1) (32 or 64 bits); SCC = D != 0.
fn exec_s_xnor(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let m = dmask(d);
    sop2(w, d, |a, b, _| nz64(!(a ^ b) & m))
}

/// D = S0 << S1[4:0]; SCC = D != 0.
fn exec_s_lshl_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| nz32(a << (b & 31)))
}

/// D.u64 = S0.u64 << S1[5:0]; SCC = D != 0.
fn exec_s_lshl_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(a << (b & 63)))
}

/// D = S0 >> S1[4:0] (logical); SCC = D != 0.
fn exec_s_lshr_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| nz32(a >> (b & 31)))
}

/// D.u64 = S0.u64 >> S1[5:0] (logical); SCC = D != 0.
fn exec_s_lshr_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(a >> (b & 63)))
}

/// D.i = S0.i >> S1[4:0] (arithmetic); SCC = D != 0.
fn exec_s_ashr_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| nz32(((a as i32) >> (b & 31)) as u32))
}

/// D.i64 = S0.i64 >> S1[5:0] (arithmetic); SCC = D != 0.
fn exec_s_ashr_i64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(((a as i64) >> (b & 63)) as u64))
}

/// D = ((1 << S0[4:0]) - 1) << S1[4:0] (a bit-field mask).
fn exec_s_bfm_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| (((1u32 << (a & 31)) - 1) << (b & 31), None))
}

/// D.u64 = ((1 << S0[5:0]) - 1) << S1[5:0] (a bit-field mask).
fn exec_s_bfm_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| (((1u64 << (a & 63)) - 1) << (b & 63), None))
}

/// D = S0 * S1 (low 32 bits).
fn exec_s_mul_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| (a.wrapping_mul(b), None))
}

/// Bit-field extract of `bits`-bit `x`: offset S1[4:0] (S1[5:0] for 64
/// bits), width S1[22:16] (7 bits; a width of at least `bits` keeps every
/// bit above the offset); signed fields are sign-extended from their top
/// bit (the shift is arithmetic).
pub fn bfe(x: u64, s1: u32, bits: u32, signed: bool) -> u64 {
    let off = s1 & (bits - 1);
    let width = s1 >> 16 & 0x7f;
    let full = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let x = x & full;
    if width == 0 {
        return 0;
    }
    let shifted = if signed {
        // Arithmetic shift within `bits`.
        let sx = ((x << (64 - bits)) as i64) >> (64 - bits);
        ((sx >> off) as u64) & full
    } else {
        x >> off
    };
    if width >= bits {
        return shifted;
    }
    let field = shifted & ((1u64 << width) - 1);
    if signed && field >> (width - 1) & 1 != 0 {
        (field | !((1u64 << width) - 1)) & full
    } else {
        field
    }
}

/// D.u = (S0.u >> S1[4:0]) & ((1 << S1[22:16]) - 1); SCC = D != 0.
fn exec_s_bfe_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(bfe(a, b as u32, 32, false)))
}

/// D.i = sign-extended field S0[S1[4:0] + S1[22:16] - 1 : S1[4:0]]; SCC = D != 0.
fn exec_s_bfe_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(bfe(a, b as u32, 32, true)))
}

/// D.u64 = (S0.u64 >> S1[5:0]) & ((1 << S1[22:16]) - 1); SCC = D != 0.
fn exec_s_bfe_u64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(bfe(a, b as u32, 64, false)))
}

/// D.i64 = sign-extended field S0.u64[S1[5:0] + S1[22:16] - 1 : S1[5:0]]; SCC = D != 0.
fn exec_s_bfe_i64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2(w, d, |a, b, _| nz64(bfe(a, b as u32, 64, true)))
}

/// D.i = |S0.i - S1.i| (the difference wraps); SCC = D != 0.
fn exec_s_absdiff_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        nz32((a as i32).wrapping_sub(b as i32).wrapping_abs() as u32)
    })
}

/// D = (S0.u * S1.u) >> 32.
fn exec_s_mul_hi_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        (((u64::from(a) * u64::from(b)) >> 32) as u32, None)
    })
}

/// D = (S0.i * S1.i) >> 32.
fn exec_s_mul_hi_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| {
        (
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
            None,
        )
    })
}

/// D = (S0 << n) + S1; SCC = the 64-bit sum >= 2^32 (bits shifted out count).
fn lshl_add(w: &mut Wave, d: &Decoded, n: u32) -> R {
    sop2_32(w, d, |a, b, _| {
        let sum = (u64::from(a) << n) + u64::from(b);
        (sum as u32, Some(sum >> 32 != 0))
    })
}

/// D = (S0 << 1) + S1; SCC = carry out of the 64-bit sum.
fn exec_s_lshl1_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    lshl_add(w, d, 1)
}

/// D = (S0 << 2) + S1; SCC = carry out of the 64-bit sum.
fn exec_s_lshl2_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    lshl_add(w, d, 2)
}

/// D = (S0 << 3) + S1; SCC = carry out of the 64-bit sum.
fn exec_s_lshl3_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    lshl_add(w, d, 3)
}

/// D = (S0 << 4) + S1; SCC = carry out of the 64-bit sum.
fn exec_s_lshl4_add_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    lshl_add(w, d, 4)
}

/// D = { S1[15:0], S0[15:0] }.
fn exec_s_pack_ll_b32_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| ((a & 0xffff) | b << 16, None))
}

/// D = { S1[31:16], S0[15:0] }.
fn exec_s_pack_lh_b32_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| ((a & 0xffff) | (b & 0xffff_0000), None))
}

/// D = { S1[31:16], S0[31:16] }.
fn exec_s_pack_hh_b32_b16(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sop2_32(w, d, |a, b, _| (a >> 16 | (b & 0xffff_0000), None))
}

// ---------------------------------------------------------------------------
// SOPK

/// D = simm16 sign-extended.
fn exec_s_movk_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let k = simm16(d, 1);
    put(w, d, 0, u64::from(k));
    Ok(())
}

/// if SCC then D = simm16 sign-extended.
fn exec_s_cmovk_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if w.scc {
        let k = simm16(d, 1);
        put(w, d, 0, u64::from(k));
    }
    Ok(())
}

/// SCC = S0.i == simm16 (sign-extended).
fn exec_s_cmpk_eq_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| a == k)
}

/// SCC = S0.i != simm16 (sign-extended).
fn exec_s_cmpk_lg_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| a != k)
}

/// SCC = S0.i > simm16 (sign-extended).
fn exec_s_cmpk_gt_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| (a as i32) > (k as i32))
}

/// SCC = S0.i >= simm16 (sign-extended).
fn exec_s_cmpk_ge_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| (a as i32) >= (k as i32))
}

/// SCC = S0.i < simm16 (sign-extended).
fn exec_s_cmpk_lt_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| (a as i32) < (k as i32))
}

/// SCC = S0.i <= simm16 (sign-extended).
fn exec_s_cmpk_le_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, true, |a, k| (a as i32) <= (k as i32))
}

/// SCC = S0.u == simm16 (zero-extended).
fn exec_s_cmpk_eq_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a == k)
}

/// SCC = S0.u != simm16 (zero-extended).
fn exec_s_cmpk_lg_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a != k)
}

/// SCC = S0.u > simm16 (zero-extended).
fn exec_s_cmpk_gt_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a > k)
}

/// SCC = S0.u >= simm16 (zero-extended).
fn exec_s_cmpk_ge_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a >= k)
}

/// SCC = S0.u < simm16 (zero-extended).
fn exec_s_cmpk_lt_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a < k)
}

/// SCC = S0.u <= simm16 (zero-extended).
fn exec_s_cmpk_le_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopk_cmp(w, d, false, |a, k| a <= k)
}

/// D = D + simm16 (sign-extended); SCC = signed overflow.
fn exec_s_addk_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let (v, o) = (get32(w, d, 0) as i32).overflowing_add(simm16(d, 1) as i32);
    put(w, d, 0, u64::from(v as u32));
    w.scc = o;
    Ok(())
}

/// D = D * simm16 (sign-extended; low 32 bits).
fn exec_s_mulk_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let v = get32(w, d, 0).wrapping_mul(simm16(d, 1));
    put(w, d, 0, u64::from(v));
    Ok(())
}

/// A `hwreg(id, offset, size)` operand: id bits 5:0, offset 10:6, size - 1
/// 15:11. Returns (id, offset, mask of `size` bits at bit 0).
fn hwreg_field(v: u16) -> (u32, u32, u32) {
    let v = u32::from(v);
    let size = (v >> 11 & 31) + 1;
    let mask = if size == 32 {
        u32::MAX
    } else {
        (1 << size) - 1
    };
    (v & 63, v >> 6 & 31, mask)
}

/// The value of hardware register `id` as `s_getreg_b32` reads it.
///
/// - MODE, TRAPSTS: the wave's registers.
/// - STATUS: SCC (bit 0), EXECZ (9), VCCZ (10) and VALID (16) from the
///   wave's state; everything else 0 (user mode, no trap handler, not in a
///   barrier since the wave is running).
/// - HW_ID: SIMD_ID (bits 5:4) = wave index in the work-group mod 4,
///   WAVE_ID (3:0) = wave index / 4 mod 16, every other field 0.
/// - GPR_ALLOC: the whole register file: VGPR_SIZE (13:8) = 63 (256
///   VGPRs in 4-register granules, or 512 unified in 8-register granules on
///   gfx90a/gfx942), SGPR_SIZE (27:24) = 6 (112 SGPRs in granules of 16);
///   bases 0.
/// - LDS_ALLOC: LDS_SIZE (20:12) = the work-group's LDS in 64-dword
///   granules; base 0.
/// - IB_STS: 0 (no outstanding memory operations).
/// - SH_MEM_BASES: 0x0001_0002, bits 63:48 of the shared (1 << 48, in
///   31:16) and private (2 << 48, in 15:0) apertures.
/// - Others (TBA, TMA, XCC_ID, …): 0.
pub fn read_hwreg(w: &Wave, c: &Ctx<'_>, id: u32) -> u32 {
    match id {
        hwreg::MODE => w.mode,
        hwreg::STATUS => {
            u32::from(w.scc)
                | u32::from(w.exec() == 0) << 9
                | u32::from(w.vcc() == 0) << 10
                | 1 << 16
        }
        hwreg::TRAPSTS => w.trapsts,
        hwreg::HW_ID => (w.wave_in_group & 3) << 4 | (w.wave_in_group >> 2 & 15),
        hwreg::GPR_ALLOC => 63 << 8 | 6 << 24,
        hwreg::LDS_ALLOC => ((c.lds.len().div_ceil(256) as u32) & 0x1ff) << 12,
        hwreg::IB_STS => 0,
        hwreg::SH_MEM_BASES => {
            ((crate::wave::SHARED_APERTURE >> 48) as u32) << 16
                | (crate::wave::PRIVATE_APERTURE >> 48) as u32
        }
        _ => 0,
    }
}

/// D = hwreg[offset + size - 1 : offset] (see [`read_hwreg`]).
fn exec_s_getreg_b32(w: &mut Wave, d: &Decoded, c: &mut Ctx<'_>) -> R {
    let (id, off, mask) = hwreg_field(imm16(d, 1));
    let v = (read_hwreg(w, c, id) >> off) & mask;
    put(w, d, 0, u64::from(v));
    Ok(())
}

/// hwreg[offset + size - 1 : offset] = S0[size - 1 : 0] (S0 a register or,
/// for `s_setreg_imm32_b32`, a literal). Only MODE and TRAPSTS are
/// writable; writes to the other registers are ignored.
fn exec_s_setreg_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let (id, off, mask) = hwreg_field(imm16(d, 0));
    let s0 = get32(w, d, 1);
    let field = mask << off;
    let reg = match id {
        hwreg::MODE => &mut w.mode,
        hwreg::TRAPSTS => &mut w.trapsts,
        _ => return Ok(()),
    };
    *reg = (*reg & !field) | ((s0 << off) & field);
    Ok(())
}

/// D.u64 = address of the next instruction; PC = that address + simm16 * 4.
fn exec_s_call_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let ret = w.pc;
    put(w, d, 0, ret);
    branch(w, imm16(d, 1));
    Ok(())
}

// ---------------------------------------------------------------------------
// SOPC

/// SCC = S0 == S1 (32 or 64 bits).
fn exec_s_cmp_eq(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a == b)
}

/// SCC = S0 != S1 (32 or 64 bits).
fn exec_s_cmp_lg(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a != b)
}

/// SCC = S0.i > S1.i.
fn exec_s_cmp_gt_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| (a as i32) > (b as i32))
}

/// SCC = S0.i >= S1.i.
fn exec_s_cmp_ge_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| (a as i32) >= (b as i32))
}

/// SCC = S0.i < S1.i.
fn exec_s_cmp_lt_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| (a as i32) < (b as i32))
}

/// SCC = S0.i <= S1.i.
fn exec_s_cmp_le_i32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| (a as i32) <= (b as i32))
}

/// SCC = S0.u > S1.u.
fn exec_s_cmp_gt_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a as u32 > b as u32)
}

/// SCC = S0.u >= S1.u.
fn exec_s_cmp_ge_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a as u32 >= b as u32)
}

/// SCC = S0.u < S1.u.
fn exec_s_cmp_lt_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| (a as u32) < b as u32)
}

/// SCC = S0.u <= S1.u.
fn exec_s_cmp_le_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a as u32 <= b as u32)
}

/// SCC = S0[S1[4:0]] == 0.
fn exec_s_bitcmp0_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a >> (b & 31) & 1 == 0)
}

/// SCC = S0[S1[4:0]] == 1.
fn exec_s_bitcmp1_b32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a >> (b & 31) & 1 == 1)
}

/// SCC = S0.u64[S1[5:0]] == 0.
fn exec_s_bitcmp0_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a >> (b & 63) & 1 == 0)
}

/// SCC = S0.u64[S1[5:0]] == 1.
fn exec_s_bitcmp1_b64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    sopc(w, d, |a, b| a >> (b & 63) & 1 == 1)
}

/// MODE.VSKIP = S0[S1[4:0]]; setting it is a fault (vector instructions
/// do not honour VSKIP).
fn exec_s_setvskip(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let (a, b) = (get32(w, d, 0), get32(w, d, 1));
    if a >> (b & 31) & 1 != 0 {
        return Err(FaultKind::Other(
            "`s_setvskip` setting VSKIP is not implemented by the emulator (vector instructions do not honour MODE.VSKIP)"
                .into(),
        ));
    }
    w.mode &= !VSKIP;
    Ok(())
}

/// MODE.GPR_IDX_EN = 1; M0[7:0] = S0[7:0]; M0[15:12] = the `gpr_idx` mask
/// (bit 0 SRC0, 1 SRC1, 2 SRC2, 3 DST); the rest of M0 is kept.
fn exec_s_set_gpr_idx_on(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let s0 = get32(w, d, 0);
    let mask = u32::from(imm16(d, 1)) & 0xf;
    w.s[M0] = (w.s[M0] & !0xf0ff) | (s0 & 0xff) | mask << 12;
    w.mode |= GPR_IDX_EN;
    Ok(())
}

// ---------------------------------------------------------------------------
// SOPP

/// No effect (see the module docs for what the emulator does not model).
fn exec_s_nop(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

/// Sleep for 64 * simm16[6:0] clocks: the wave yields to the other waves
/// of its work-group (a spin-wait makes progress only if they run).
fn exec_s_sleep(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    w.yielded = true;
    w.sleeps += 1;
    w.slept += u64::from(imm16(d, 0) & 0x7f).max(1);
    Ok(())
}

/// End the wave.
fn exec_s_endpgm(w: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    w.ended = true;
    Ok(())
}

/// PC = address of the next instruction + simm16 * 4 (simm16 signed).
fn branch(w: &mut Wave, simm16: u16) {
    w.pc = w.pc.wrapping_add((i64::from(simm16 as i16) * 4) as u64);
}

/// Conditional branch: taken when `cond`.
fn cbranch(w: &mut Wave, d: &Decoded, cond: bool) -> R {
    if cond {
        branch(w, imm16(d, 0));
    }
    Ok(())
}

/// PC = PC + 4 + simm16 * 4.
fn exec_s_branch(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    cbranch(w, d, true)
}

/// Branch if SCC == 0.
fn exec_s_cbranch_scc0(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = !w.scc;
    cbranch(w, d, c)
}

/// Branch if SCC == 1.
fn exec_s_cbranch_scc1(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = w.scc;
    cbranch(w, d, c)
}

/// Branch if VCC == 0.
fn exec_s_cbranch_vccz(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = w.vcc() == 0;
    cbranch(w, d, c)
}

/// Branch if VCC != 0.
fn exec_s_cbranch_vccnz(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = w.vcc() != 0;
    cbranch(w, d, c)
}

/// Branch if EXEC == 0.
fn exec_s_cbranch_execz(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = w.exec() == 0;
    cbranch(w, d, c)
}

/// Branch if EXEC != 0.
fn exec_s_cbranch_execnz(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let c = w.exec() != 0;
    cbranch(w, d, c)
}

/// Branch on the conditional-debug bits: never taken (no debugger).
fn exec_s_cbranch_cdbg(_: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    Ok(())
}

/// Wait at the work-group barrier (the scheduler releases the wave when
/// every live wave of the group waits).
fn exec_s_barrier(w: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    w.at_barrier = true;
    Ok(())
}

/// Halt the wave if simm16[0]: no effect when clear; a fault when set, as
/// nothing would resume the wave.
fn exec_s_sethalt(_: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    if imm16(d, 0) & 1 != 0 {
        return Err(FaultKind::Other(
            "`s_sethalt` halted the wave, and no debugger resumes it".into(),
        ));
    }
    Ok(())
}

/// Trap with trap ID simm16[7:0]: no trap handler runs; the dispatch stops
/// with [`FaultKind::Trap`].
fn exec_s_trap(_: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    Err(FaultKind::Trap(imm16(d, 0) & 0xff))
}

/// MODE.GPR_IDX_EN = 0.
fn exec_s_set_gpr_idx_off(w: &mut Wave, _: &Decoded, _: &mut Ctx<'_>) -> R {
    w.mode &= !GPR_IDX_EN;
    Ok(())
}

/// M0[15:12] = the `gpr_idx` mask (bit 0 SRC0, 1 SRC1, 2 SRC2, 3 DST);
/// MODE.GPR_IDX_EN is unchanged.
fn exec_s_set_gpr_idx_mode(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let mask = u32::from(imm16(d, 0)) & 0xf;
    w.s[M0] = (w.s[M0] & !0xf000) | mask << 12;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_isa::gfx9::Family;
    use amdgpu_isa::gfx9::table::INSTRUCTIONS;

    #[test]
    fn every_scalar_alu_and_control_instruction_has_semantics() {
        let mut n = 0;
        for def in INSTRUCTIONS {
            if matches!(
                def.family,
                Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp
            ) {
                assert!(lookup(def.op).is_some(), "{} has no semantics", def.name);
                n += 1;
            }
        }
        assert!(n >= 179, "{n}");
    }

    #[test]
    fn bit_field_extract() {
        assert_eq!(bfe(0xabcd_1234, 8 | 8 << 16, 32, false), 0x12);
        assert_eq!(bfe(0x0000_8000, 8 | 8 << 16, 32, true), 0xffff_ff80);
        assert_eq!(bfe(0x8000_0000, 4 | 40 << 16, 32, true), 0xf800_0000);
        assert_eq!(bfe(0x8000_0000, 4 | 40 << 16, 32, false), 0x0800_0000);
        assert_eq!(bfe(0xffff_ffff, 4, 32, true), 0);
        assert_eq!(bfe(u64::MAX, 60 | 8 << 16, 64, true), u64::MAX);
        assert_eq!(bfe(u64::MAX, 60 | 8 << 16, 64, false), 0xf);
    }
}
