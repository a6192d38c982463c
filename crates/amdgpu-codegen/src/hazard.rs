//! GFX9 hazard recognizer: `s_nop` where the hardware needs wait states it
//! does not enforce itself (gfx900 and gfx90a).
//!
//! Runs on physical instructions (after register allocation and
//! `s_waitcnt` insertion, before encoding). Every instruction is one wait
//! state, `s_nop N` is `N + 1`. The state at a point is the set of recent
//! hazard *events* (what an earlier instruction wrote) with the wait states
//! since each; it flows forward along the wave's machine CFG and at a block
//! start is the union of all predecessors' states, each event at its
//! smallest distance (the worst case). The kernel starts with no events.
//!
//! Rows implemented, from the Vega ISA "Manually Inserted Wait States
//! (NOPs)" table (also in the MI200 / CDNA2 ISA) and LLVM's
//! `GCNHazardRecognizer` for GFX9:
//!
//! | first instruction                         | second instruction                      | wait |
//! |-------------------------------------------|-----------------------------------------|------|
//! | VALU writes SGPR (or VCC, EXEC)           | VMEM (MUBUF/MTBUF/MIMG/FLAT/global/scratch) reads that SGPR (EXEC: every VMEM) | 5 |
//! | VALU writes VCC (`v_cmp`, `v_div_scale`…) | `v_div_fmas_*`                           | 4 |
//! | VALU writes SGPR/VCC                      | `v_readlane`/`v_writelane` lane select   | 4 |
//! | VALU writes VCC or EXEC                   | VALU reading VCCZ or EXECZ as a source  | 5 |
//! | `s_setreg` hwreg *r*                      | `s_getreg` *r*                          | 2 |
//! | `s_setreg` hwreg *r*                      | `s_setreg` *r*                          | 2 |
//! | SALU writes M0                            | `s_sendmsg*`, `s_ttracedata`, `s_movrel*`, GDS, DS add-TID, LDS DMA, VINTRP | 1 |
//! | VMEM store of more than 64 bits of data (FLAT/global/scratch `*_x3`/`*_x4` stores, `*cmpswap_x2`; MUBUF/MTBUF without an SGPR soffset) | VALU writes those data VGPRs | 1 |
//! | VALU writes VGPR                          | DPP reads that VGPR                     | 2 |
//! | VALU writes EXEC                          | DPP                                     | 5 |
//!
//! Not applicable to code the finalizer emits (no producer or consumer
//! ever appears), hence not implemented: `s_setvskip`/`s_setreg
//! MODE.vskip` (no vskip), `s_setreg TRAPSTS` → `s_rfe` (no trap
//! handler code), the "mixed use of VCC by alias and by name" row (VCC is
//! only ever named `vcc`, never by its SGPR alias), MIMG stores (no image
//! instructions), and every gfx90a row whose first instruction is an
//! MFMA/SMFMA/DGEMM or `v_dot*` or touches AGPRs (none emitted). The
//! gfx90a 64-bit shift bug (`v_*shr*_b64`/`v_lshlrev_b64` shift amount in
//! the last VGPR of a 64-register bank) is a register constraint, not a
//! wait state, and is not handled here.
//!
//! No row has a scalar arithmetic instruction as its second instruction,
//! so no `s_nop` ever lands between `s_getpc_b64` and the PC-relative
//! `s_add_u32` after it (whose literal assumes they are adjacent).

use std::collections::BTreeMap;

use amdgpu_isa::gfx9::{Family, Inst, InstDef, Operand, Target};

use crate::{Error, Result};

/// The largest wait any row needs: older events cannot matter.
const MAX_WAIT: u8 = 5;

/// SGPR-space codes of special registers.
const VCC: u16 = 106;
const M0: u16 = 124;
const EXEC: u16 = 126;
/// Source codes of the VCCZ and EXECZ bits.
const VCCZ: u16 = 251;
const EXECZ: u16 = 252;

/// What an earlier instruction did that a later one may have to wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// A VALU wrote SGPR-space register `code` (0..=127: SGPRs, VCC, EXEC…).
    ValuSgpr(u16),
    /// A VALU wrote VGPR `code` (256 + n).
    ValuVgpr(u16),
    /// A SALU wrote M0.
    SaluM0,
    /// `s_setreg` wrote hardware register `id`.
    SetReg(u16),
    /// A wide VMEM store reads its data from VGPR `code`.
    StoreData(u16),
}

/// Recent events and the wait states since each (smallest over paths).
type State = BTreeMap<Event, u8>;

/// One row of the table: the wait states it needs, and a function that
/// pushes the events an instruction must be that far from under it.
type Row = (u8, fn(&Inst, &mut Vec<Event>));

/// The rows (see the module docs).
const ROWS: &[Row] = &[
    // VALU writes SGPR -> VMEM reads that SGPR.
    (5, vmem_reads_sgpr),
    // VALU writes VCC -> v_div_fmas.
    (4, div_fmas),
    // VALU writes SGPR/VCC -> v_readlane/v_writelane lane select.
    (4, lane_select),
    // VALU writes VCC/EXEC -> VALU reads VCCZ/EXECZ.
    (5, reads_vccz_execz),
    // s_setreg -> s_getreg/s_setreg of the same hwreg.
    (2, hwreg_access),
    // SALU writes M0 -> sendmsg/movrel/GDS/add-TID/LDS DMA/VINTRP.
    (1, reads_m0),
    // VMEM store > 64 bits -> VALU writes its data VGPRs.
    (1, overwrites_store_data),
    // VALU writes VGPR -> DPP reads it.
    (2, dpp_reads_vgpr),
    // VALU writes EXEC -> DPP.
    (5, dpp_exec),
];

/// Whether `inst` is a vector ALU instruction.
fn is_valu(inst: &Inst) -> bool {
    matches!(
        inst.def.family,
        Family::Vop1
            | Family::Vop1Dpp
            | Family::Vop1Sdwa
            | Family::Vop2
            | Family::Vop2Dpp
            | Family::Vop2Sdwa
            | Family::Vopc
            | Family::VopcDpp
            | Family::VopcSdwa
            | Family::Vop3
            | Family::Vop3p
    )
}

/// Whether `inst` is a scalar ALU instruction.
fn is_salu(inst: &Inst) -> bool {
    matches!(
        inst.def.family,
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc
    )
}

/// Whether `inst` is a vector memory instruction.
fn is_vmem(inst: &Inst) -> bool {
    matches!(
        inst.def.family,
        Family::Mubuf
            | Family::Mtbuf
            | Family::Mimg
            | Family::Flat
            | Family::Global
            | Family::Scratch
    )
}

/// Whether `inst` is a DPP instruction.
fn is_dpp(inst: &Inst) -> bool {
    matches!(
        inst.def.family,
        Family::Vop1Dpp | Family::Vop2Dpp | Family::VopcDpp
    )
}

/// The operand roles of `inst` aligned with its operands: optional roles
/// are dropped when the instruction has fewer operands than roles.
fn roles(inst: &Inst) -> Vec<&'static str> {
    let all: Vec<&'static str> = inst
        .def
        .operands
        .iter()
        .copied()
        .filter(|r| !r.is_empty())
        .collect();
    if inst.operands.len() < all.len() {
        all.into_iter()
            .filter(|r| !r.split(':').any(|p| p == "opt"))
            .collect()
    } else {
        all
    }
}

/// Per operand: whether it is written. Destinations are `vdst`/`sdst`
/// roles, and a `vcc` role among the leading destinations (VOPC e32
/// compares, carry-outs, `v_div_scale`); a later `vcc` is a read.
fn written(inst: &Inst) -> Vec<bool> {
    let roles = roles(inst);
    let mut leading = true;
    let mut out = Vec::with_capacity(inst.operands.len());
    for i in 0..inst.operands.len() {
        let role = roles.get(i).copied().unwrap_or("");
        let def =
            role.starts_with("vdst") || role.starts_with("sdst") || (leading && role == "vcc");
        leading &= def;
        out.push(def);
    }
    out
}

/// The register codes (SGPR space or 256 + VGPR) an operand covers.
fn codes(op: &Operand) -> impl Iterator<Item = u16> {
    let (code, width) = match *op {
        Operand::Src { code, width } if code <= 127 || code >= 256 => (code, width.max(1)),
        _ => (0, 0),
    };
    (0..u16::from(width)).map(move |d| code + d)
}

/// Register codes `inst` reads (explicit operands).
fn reads(inst: &Inst) -> impl Iterator<Item = u16> + '_ {
    let w = written(inst);
    inst.operands
        .iter()
        .zip(w)
        .filter(|(_, d)| !d)
        .flat_map(|(o, _)| codes(o))
}

/// Register codes `inst` writes (explicit operands, and EXEC for `v_cmpx`).
fn writes(inst: &Inst) -> Vec<u16> {
    let mut out: Vec<u16> = inst
        .operands
        .iter()
        .zip(written(inst))
        .filter(|(_, d)| *d)
        .flat_map(|(o, _)| codes(o))
        .collect();
    if inst.def.mnemonic.starts_with("v_cmpx") {
        out.extend([EXEC, EXEC + 1]);
    }
    out
}

/// The hardware register id of an `s_getreg`/`s_setreg` (simm16 bits 5:0).
fn hwreg_id(inst: &Inst) -> Option<u16> {
    let mn = inst.def.mnemonic;
    if !(mn.starts_with("s_setreg") || mn.starts_with("s_getreg")) {
        return None;
    }
    let i = roles(inst).iter().position(|r| r.starts_with("hwreg"))?;
    match inst.operands.get(i) {
        Some(Operand::Imm(v)) => Some((*v & 0x3f) as u16),
        _ => None,
    }
}

fn vmem_reads_sgpr(inst: &Inst, out: &mut Vec<Event>) {
    if is_vmem(inst) {
        out.extend(reads(inst).filter(|&c| c <= 127).map(Event::ValuSgpr));
        out.extend([Event::ValuSgpr(EXEC), Event::ValuSgpr(EXEC + 1)]);
    }
}

fn div_fmas(inst: &Inst, out: &mut Vec<Event>) {
    if inst.def.mnemonic.starts_with("v_div_fmas") {
        out.extend([Event::ValuSgpr(VCC), Event::ValuSgpr(VCC + 1)]);
    }
}

fn lane_select(inst: &Inst, out: &mut Vec<Event>) {
    let mn = inst.def.mnemonic;
    if mn.starts_with("v_readlane") || mn.starts_with("v_writelane") {
        // The lane select is the last operand (`ssrc1`).
        if let Some(op) = inst.operands.last() {
            out.extend(codes(op).filter(|&c| c <= 127).map(Event::ValuSgpr));
        }
    }
}

fn reads_vccz_execz(inst: &Inst, out: &mut Vec<Event>) {
    if !is_valu(inst) {
        return;
    }
    for op in &inst.operands {
        match *op {
            Operand::Src { code: VCCZ, .. } => {
                out.extend([Event::ValuSgpr(VCC), Event::ValuSgpr(VCC + 1)]);
            }
            Operand::Src { code: EXECZ, .. } => {
                out.extend([Event::ValuSgpr(EXEC), Event::ValuSgpr(EXEC + 1)]);
            }
            _ => {}
        }
    }
}

fn hwreg_access(inst: &Inst, out: &mut Vec<Event>) {
    out.extend(hwreg_id(inst).map(Event::SetReg));
}

fn reads_m0(inst: &Inst, out: &mut Vec<Event>) {
    let mn = inst.def.mnemonic;
    let uses_m0 = mn.starts_with("s_sendmsg")
        || mn == "s_ttracedata"
        || mn.starts_with("s_movrel")
        || mn.contains("_addtid_")
        || inst.def.family == Family::Vintrp
        || (inst.def.family == Family::Ds && inst.mods.gds)
        || (is_vmem(inst) && inst.mods.lds);
    if uses_m0 {
        out.push(Event::SaluM0);
    }
}

fn overwrites_store_data(inst: &Inst, out: &mut Vec<Event>) {
    if is_valu(inst) {
        out.extend(
            writes(inst)
                .into_iter()
                .filter(|&c| c >= 256)
                .map(Event::StoreData),
        );
    }
}

fn dpp_reads_vgpr(inst: &Inst, out: &mut Vec<Event>) {
    if is_dpp(inst) {
        out.extend(reads(inst).filter(|&c| c >= 256).map(Event::ValuVgpr));
    }
}

fn dpp_exec(inst: &Inst, out: &mut Vec<Event>) {
    if is_dpp(inst) {
        out.extend([Event::ValuSgpr(EXEC), Event::ValuSgpr(EXEC + 1)]);
    }
}

/// The VGPR codes of a wide store's data (more than 64 bits), or none.
/// MUBUF/MTBUF stores with an SGPR `soffset` do not have the hazard.
fn wide_store_data(inst: &Inst) -> Vec<u16> {
    if !is_vmem(inst) {
        return Vec::new();
    }
    let roles = roles(inst);
    let sgpr_soffset = roles.iter().zip(&inst.operands).any(|(r, o)| {
        r.starts_with("soffset") && matches!(o, Operand::Src { code, .. } if *code <= 101)
    });
    if matches!(inst.def.family, Family::Mubuf | Family::Mtbuf) && sgpr_soffset {
        return Vec::new();
    }
    roles
        .iter()
        .zip(&inst.operands)
        .filter(|(r, _)| r.starts_with("vdata"))
        .filter(|(_, o)| matches!(o, Operand::Src { width, .. } if *width > 2))
        .flat_map(|(_, o)| codes(o))
        .collect()
}

/// The events `inst` starts.
fn events(inst: &Inst) -> Vec<Event> {
    let mut out = Vec::new();
    if is_valu(inst) {
        for c in writes(inst) {
            out.push(if c >= 256 {
                Event::ValuVgpr(c)
            } else {
                Event::ValuSgpr(c)
            });
        }
    }
    if is_salu(inst) && writes(inst).contains(&M0) {
        out.push(Event::SaluM0);
    }
    if inst.def.mnemonic.starts_with("s_setreg") {
        out.extend(hwreg_id(inst).map(Event::SetReg));
    }
    out.extend(wide_store_data(inst).into_iter().map(Event::StoreData));
    out
}

/// Wait states `inst` adds: `s_nop N` is `N + 1`, everything else 1.
fn wait_states_of(inst: &Inst) -> u8 {
    match (inst.def.mnemonic, inst.operands.first()) {
        ("s_nop", Some(Operand::Imm(n))) => (*n & 0xf) as u8 + 1,
        _ => 1,
    }
}

/// Wait states needed before `inst` in `state`.
fn needed(inst: &Inst, state: &State) -> u8 {
    let mut want = Vec::new();
    let mut most = 0;
    for &(wait, needs) in ROWS {
        want.clear();
        needs(inst, &mut want);
        for e in &want {
            if let Some(&since) = state.get(e) {
                most = most.max(wait.saturating_sub(since));
            }
        }
    }
    most
}

/// Advances `state` by `n` wait states, dropping expired events.
fn advance(state: &mut State, n: u8) {
    state.retain(|_, since| {
        *since = since.saturating_add(n);
        *since < MAX_WAIT
    });
}

/// Runs `inst` on `state`: its own wait states, then its events.
fn step(state: &mut State, inst: &Inst) {
    advance(state, wait_states_of(inst));
    for e in events(inst) {
        state.insert(e, 0);
    }
}

/// Merges `from` into `into` (union, smallest distance); whether it changed.
fn merge(into: &mut State, from: &State) -> bool {
    let mut changed = false;
    for (e, &d) in from {
        let slot = into.entry(*e).or_insert(u8::MAX);
        if d < *slot {
            *slot = d;
            changed = true;
        }
    }
    changed
}

/// Wait states to insert before every instruction of `blocks` (wave-level
/// machine blocks with successors `succs`; block 0 is the entry).
pub fn wait_states(blocks: &[Vec<&Inst>], succs: &[Vec<usize>]) -> Vec<Vec<u8>> {
    let n = blocks.len();
    let mut entry: Vec<Option<State>> = vec![None; n];
    if n > 0 {
        entry[0] = Some(State::new());
    }
    let mut work: Vec<usize> = (0..n).rev().collect();
    let mut nops: Vec<Vec<u8>> = blocks.iter().map(|b| vec![0; b.len()]).collect();
    while let Some(b) = work.pop() {
        let Some(mut state) = entry[b].clone() else {
            continue;
        };
        for (i, inst) in blocks[b].iter().enumerate() {
            let w = needed(inst, &state);
            nops[b][i] = w;
            advance(&mut state, w);
            step(&mut state, inst);
        }
        for &s in succs.get(b).into_iter().flatten() {
            let changed = match &mut entry[s] {
                Some(e) => merge(e, &state),
                slot @ None => {
                    *slot = Some(state.clone());
                    true
                }
            };
            if changed && !work.contains(&s) {
                work.push(s);
            }
        }
    }
    nops
}

/// Inserts `s_nop`s into `blocks` where [`wait_states`] says so. `view`
/// sees an element as an instruction; `wrap` makes an element of an
/// `s_nop`.
pub fn insert<T>(
    blocks: &mut [Vec<T>],
    succs: &[Vec<usize>],
    target: Target,
    view: impl Fn(&T) -> &Inst,
    wrap: impl Fn(Inst) -> T,
) -> Result<()> {
    let nop = InstDef::find("s_nop", target).ok_or(Error::UnknownInstruction {
        mnemonic: "s_nop".into(),
        target: target.name(),
    })?;
    let views: Vec<Vec<&Inst>> = blocks
        .iter()
        .map(|b| b.iter().map(&view).collect())
        .collect();
    let waits = wait_states(&views, succs);
    for (b, w) in blocks.iter_mut().zip(waits) {
        for (i, &n) in w.iter().enumerate().rev() {
            if n > 0 {
                let imm = Operand::Imm(i64::from(n - 1));
                b.insert(i, wrap(Inst::new(nop, target, vec![imm])));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Each test is a minimal machine sequence and the wait states the ISA
    //! table row demands before each instruction (Vega ISA / MI200 ISA,
    //! "Manually Inserted Wait States (NOPs)"); both targets.
    use super::*;
    use amdgpu_isa::gfx9::{parse_line, print};

    const TARGETS: [Target; 2] = [Target::Gfx900, Target::Gfx90a];

    fn parse(t: Target, lines: &[&str]) -> Vec<Inst> {
        lines
            .iter()
            .map(|l| parse_line(l, t).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect()
    }

    /// Wait states before each instruction of one straight-line block.
    fn waits(lines: &[&str]) -> Vec<u8> {
        let mut all = Vec::new();
        for t in TARGETS {
            let insts = parse(t, lines);
            let views = vec![insts.iter().collect::<Vec<_>>()];
            all.push(wait_states(&views, &[vec![]]).remove(0));
        }
        assert_eq!(all[0], all[1], "gfx900 and gfx90a differ");
        all.remove(0)
    }

    #[test]
    fn valu_sgpr_then_vmem_read_needs_5() {
        // Row: VALU writes SGPR -> VMEM reads that SGPR: 5.
        let cmp = "v_cmp_eq_u32_e64 s[4:5], v0, v1";
        let load = "global_load_dword v2, v3, s[4:5]";
        assert_eq!(waits(&[cmp, load]), [0, 5]);
        assert_eq!(waits(&[cmp, "v_mov_b32_e32 v5, v6", load]), [0, 0, 4]);
        let four = ["s_nop 3", load];
        assert_eq!(waits(&[&[cmp][..], &four].concat()), [0, 0, 1]);
        // v_readfirstlane is a VALU writing an SGPR too.
        assert_eq!(waits(&["v_readfirstlane_b32 s5, v0", load]), [0, 5]);
    }

    #[test]
    fn no_wait_where_none_is_needed() {
        let load = "global_load_dword v2, v3, s[4:5]";
        // An SALU write of the SGPR is interlocked.
        assert_eq!(waits(&["s_mov_b64 s[4:5], 0", load]), [0, 0]);
        // A VALU write of another SGPR.
        assert_eq!(waits(&["v_cmp_eq_u32_e64 s[6:7], v0, v1", load]), [0, 0]);
        // VALU → VALU through VGPRs and SGPRs is interlocked on GFX9.
        assert_eq!(
            waits(&[
                "v_cmp_eq_u32_e64 s[6:7], v0, v1",
                "v_cndmask_b32_e64 v0, 0, 1, s[6:7]",
                "v_add_u32_e32 v1, v0, v0",
                "global_load_dword v2, v[6:7], off",
                "global_store_dwordx2 v[6:7], v[4:5], off",
                "v_mov_b32_e32 v4, 0",
            ]),
            [0; 6]
        );
        // Setreg/getreg of different hardware registers.
        assert_eq!(
            waits(&[
                "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 3",
                "s_getreg_b32 s0, hwreg(HW_REG_HW_ID, 0, 32)",
            ]),
            [0, 0]
        );
    }

    #[test]
    fn valu_vcc_then_div_fmas_needs_4() {
        // Row: VALU writes VCC (including v_div_scale) -> V_DIV_FMAS: 4.
        let scale = "v_div_scale_f32 v0, vcc, v1, v2, v1";
        let fmas = "v_div_fmas_f32 v3, v0, v1, v2";
        assert_eq!(waits(&[scale, fmas]), [0, 4]);
        assert_eq!(waits(&["v_cmp_eq_u32_e32 vcc, v0, v1", fmas]), [0, 4]);
        let mid = "v_fma_f32 v4, v0, v1, v2";
        assert_eq!(waits(&[scale, mid, mid, mid, mid, fmas]), [0; 6]);
        assert_eq!(waits(&[scale, mid, mid, fmas]), [0, 0, 0, 2]);
    }

    #[test]
    fn valu_sgpr_then_lane_select_needs_4() {
        // Row: VALU writes SGPR/VCC -> V_{READ,WRITE}LANE lane select: 4.
        let rfl = "v_readfirstlane_b32 s4, v0";
        assert_eq!(waits(&[rfl, "v_readlane_b32 s6, v1, s4"]), [0, 4]);
        assert_eq!(waits(&[rfl, "v_writelane_b32 v1, 0, s4"]), [0, 4]);
        // Reading the SGPR as data (not lane select) needs nothing.
        assert_eq!(waits(&[rfl, "v_readlane_b32 s6, v1, s7"]), [0, 0]);
    }

    #[test]
    fn setreg_then_getreg_or_setreg_needs_2() {
        // Rows: S_SETREG -> S_GETREG same reg: 2; S_SETREG -> S_SETREG same reg: 2.
        let set = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 3";
        assert_eq!(
            waits(&[set, "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 8)"]),
            [0, 2]
        );
        assert_eq!(waits(&[set, set]), [0, 2]);
        assert_eq!(waits(&[set, "s_mov_b32 s0, 0", set]), [0, 0, 1]);
    }

    #[test]
    fn salu_m0_then_sendmsg_needs_1() {
        // Row: SALU writes M0 -> S_SENDMSG / GDS / LDS add-TID: 1.
        assert_eq!(
            waits(&["s_mov_b32 m0, s0", "s_sendmsg sendmsg(MSG_INTERRUPT)"]),
            [0, 1]
        );
        assert_eq!(
            waits(&["s_mov_b32 m0, s0", "ds_read_addtid_b32 v0"]),
            [0, 1]
        );
        assert_eq!(waits(&["s_mov_b32 m0, s0", "ds_read_b32 v0, v1"]), [0, 0]);
        // An SALU write of another SGPR needs nothing.
        assert_eq!(
            waits(&["s_mov_b32 s1, s0", "s_sendmsg sendmsg(MSG_INTERRUPT)"]),
            [0, 0]
        );
    }

    #[test]
    fn wide_store_then_data_overwrite_needs_1() {
        // Row: FLAT_STORE_X3/X4, FLAT_ATOMIC_CMPSWAP_X2 -> write VGPRs
        // holding writedata: 1.
        let st = "global_store_dwordx4 v[0:1], v[2:5], off";
        assert_eq!(waits(&[st, "v_mov_b32_e32 v3, 0"]), [0, 1]);
        assert_eq!(waits(&[st, "v_mov_b32_e32 v7, 0"]), [0, 0]);
        let cas = "global_atomic_cmpswap_x2 v[0:1], v[2:5], off";
        assert_eq!(waits(&[cas, "v_mov_b32_e32 v5, 0"]), [0, 1]);
    }

    #[test]
    fn valu_vcc_then_vccz_source_needs_5() {
        // Row: VALU that sets VCC or EXEC -> VALU that uses EXECZ or VCCZ
        // as a data source: 5.
        let cmp = "v_cmp_eq_u32_e32 vcc, v0, v1";
        assert_eq!(waits(&[cmp, "v_mov_b32_e32 v2, src_vccz"]), [0, 5]);
        assert_eq!(waits(&[cmp, "v_mov_b32_e32 v2, src_execz"]), [0, 0]);
    }

    #[test]
    fn valu_vgpr_then_dpp_needs_2() {
        // Rows: VALU writes VGPR -> VALU DPP reads that VGPR: 2;
        // VALU writes EXEC -> VALU DPP op: 5.
        let dpp = "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
        assert_eq!(waits(&["v_mov_b32_e32 v1, v2", dpp]), [0, 2]);
        assert_eq!(waits(&["v_cmpx_eq_u32_e64 s[0:1], v3, v4", dpp]), [0, 5]);
    }

    #[test]
    fn block_start_takes_the_worst_predecessor() {
        for t in TARGETS {
            // b0: VALU writes s[4:5], branch to b2 or fall into b1;
            // b1: 4 instructions; b2: VMEM reads s[4:5].
            let b0 = parse(t, &["v_cmp_eq_u32_e64 s[4:5], v0, v1", "s_cbranch_scc1 0"]);
            let b1 = parse(t, &["v_mov_b32_e32 v5, v6"; 4]);
            let b2 = parse(t, &["global_load_dword v2, v3, s[4:5]"]);
            let views: Vec<Vec<&Inst>> =
                [&b0, &b1, &b2].iter().map(|b| b.iter().collect()).collect();
            let w = wait_states(&views, &[vec![2, 1], vec![2], vec![]]);
            // Through the branch only one wait state has passed.
            assert_eq!(w[2], [4]);
            // Without the direct edge, the path through b1 has 5 already.
            let w = wait_states(&views, &[vec![1], vec![2], vec![]]);
            assert_eq!(w[2], [0]);
            // A loop: b0 reads s[4:5] at its top and writes it at its end.
            let l = parse(
                t,
                &[
                    "global_load_dword v2, v3, s[4:5]",
                    "v_cmp_eq_u32_e64 s[4:5], v0, v1",
                ],
            );
            let w = wait_states(&[l.iter().collect()], &[vec![0]]);
            assert_eq!(w[0], [5, 0]);
        }
    }

    #[test]
    fn insert_places_s_nop() {
        let t = Target::Gfx90a;
        let mut blocks = vec![parse(
            t,
            &[
                "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 3",
                "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0",
            ],
        )];
        insert(&mut blocks, &[vec![]], t, |i| i, |i| i).unwrap();
        let printed: Vec<String> = blocks[0].iter().map(print).collect();
        assert_eq!(printed[1], "s_nop 1");
        assert_eq!(printed.len(), 3);
    }

    #[test]
    fn compile_separates_back_to_back_setregs() {
        // The emit hook: two MODE writes in a row get `s_nop 1` (2 wait
        // states, the S_SETREG -> S_SETREG row), as the finalizer's mode
        // switches need.
        for t in TARGETS {
            let mut f = crate::Function::new("k");
            let b = f.add_block();
            for bits in [3, 0] {
                let ops = vec![
                    crate::Opnd::imm(1 | (8 - 1) << 11),
                    crate::Opnd::Fixed(Operand::Literal(bits)),
                ];
                let set = crate::MInst::new("s_setreg_imm32_b32", t, ops).unwrap();
                f.blocks[b].insts.push(set);
            }
            let out = crate::compile(f, t).unwrap();
            let lines: Vec<&str> = out.asm.lines().map(str::trim).collect();
            let first = lines
                .iter()
                .position(|l| l.starts_with("s_setreg"))
                .unwrap();
            assert_eq!(lines[first + 1], "s_nop 1", "{}", out.asm);
            assert!(lines[first + 2].starts_with("s_setreg"), "{}", out.asm);
        }
    }
}
