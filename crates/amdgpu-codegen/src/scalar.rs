//! Scalarization: uniform values computed by integer vector instructions
//! move to SGPRs, computed by the scalar ALU.
//!
//! The front end computes everything in VGPRs. A virtual VGPR the
//! divergence analysis ([`crate::uniform`]) finds uniform becomes an SGPR
//! when every instruction that writes it has a scalar twin (`v_add_u32` →
//! `s_add_u32`, a carry pair `v_add_co`/`v_addc_co` → `s_add_u32`/
//! `s_addc_u32`, …) whose sources are scalar too, and every instruction
//! that reads it can take it as an SGPR operand: scalar twins, and vector
//! ALU instructions within GFX9's constant-bus limit (one SGPR or literal
//! per instruction; only `src0` of 32-bit encodings). No copy is ever
//! added, so the code never grows. Scalar writes are not masked by EXEC;
//! uniform values are only written where every live lane runs (the
//! analysis counts writes anywhere else as divergent).

use std::collections::HashSet;

use amdgpu_isa::gfx9::{Family, Modifiers, Operand};

use crate::ir::{Function, MInst, Opnd, RegClass, VReg};
use crate::uniform::{analyze, finishing, predecessors};
use crate::{Result, Target};

/// Vector instruction → scalar twin, and whether the twin takes the two
/// sources in the other order (`v_lshlrev_b32 d, shift, x` →
/// `s_lshl_b32 d, x, shift`).
const TWINS: &[(&str, &str, bool)] = &[
    ("v_mov_b32", "s_mov_b32", false),
    ("v_not_b32", "s_not_b32", false),
    ("v_add_u32_e64", "s_add_u32", false),
    ("v_sub_u32_e64", "s_sub_u32", false),
    ("v_mul_lo_u32", "s_mul_i32", false),
    ("v_and_b32_e64", "s_and_b32", false),
    ("v_or_b32_e64", "s_or_b32", false),
    ("v_xor_b32_e64", "s_xor_b32", false),
    ("v_min_u32_e64", "s_min_u32", false),
    ("v_max_u32_e64", "s_max_u32", false),
    ("v_min_i32_e64", "s_min_i32", false),
    ("v_max_i32_e64", "s_max_i32", false),
    ("v_lshlrev_b32_e64", "s_lshl_b32", true),
    ("v_lshrrev_b32_e64", "s_lshr_b32", true),
    ("v_ashrrev_i32_e64", "s_ashr_i32", true),
    ("v_lshlrev_b64", "s_lshl_b64", true),
    ("v_lshrrev_b64", "s_lshr_b64", true),
    ("v_ashrrev_i64", "s_ashr_i64", true),
];

/// Carry pairs: low half (writes VCC), high half (reads and writes VCC).
const CARRY_PAIRS: &[(&str, &str, &str, &str)] = &[
    (
        "v_add_co_u32_e64",
        "v_addc_co_u32_e64",
        "s_add_u32",
        "s_addc_u32",
    ),
    (
        "v_sub_co_u32_e64",
        "v_subb_co_u32_e64",
        "s_sub_u32",
        "s_subb_u32",
    ),
];

/// Where an instruction sits: block (`None`: the prologue) and index.
type At = (Option<usize>, usize);

/// Moves the uniform values of `f` that qualify to SGPRs.
pub fn scalarize(f: &mut Function, target: Target) -> Result<()> {
    let preds = predecessors(f);
    let finishes = finishing(f, &preds);
    let uni = analyze(f, &finishes);
    let sites: Vec<At> = (0..f.prologue.len())
        .map(|i| (None, i))
        .chain(
            f.blocks
                .iter()
                .enumerate()
                .flat_map(|(b, blk)| (0..blk.insts.len()).map(move |i| (Some(b), i))),
        )
        .collect();
    let inst = |f: &Function, (b, i): At| -> MInst {
        match b {
            None => f.prologue[i].clone(),
            Some(b) => f.blocks[b].insts[i].clone(),
        }
    };
    // Candidates: uniform 1- and 2-dword VGPRs.
    let mut cand: HashSet<VReg> = (0..f.vregs.len())
        .map(|v| VReg(v as u32))
        .filter(|&v| {
            let i = f.info(v);
            i.class == RegClass::Vgpr && i.width <= 2 && !uni.divergent[v.0 as usize]
        })
        .collect();
    // Conditions of branches are read by the vector compare EXEC
    // lowering adds: a bus slot it may use.
    loop {
        let before = cand.len();
        for &at in &sites {
            let mi = inst(f, at);
            let defs: Vec<VReg> = regs(&mi, true).collect();
            let twin = twin_of(&mi, f, at);
            // Writers: all candidates written need a scalar twin whose
            // sources are scalar.
            if defs.iter().any(|d| cand.contains(d)) {
                // Both halves of a carry pair become scalar, or neither.
                let partner_ok = twin.is_some_and(|_| {
                    carry_partner(&mi, at)
                        .is_none_or(|p| regs(&inst(f, p), true).all(|d| cand.contains(&d)))
                });
                let ok = partner_ok && sources_scalar(&mi, f, &cand);
                if !ok || defs.len() != 1 {
                    for d in defs {
                        cand.remove(&d);
                    }
                }
                continue;
            }
            // Readers that stay vector: within the constant bus.
            let reads: Vec<VReg> = regs(&mi, false).filter(|r| cand.contains(r)).collect();
            if reads.is_empty() {
                continue;
            }
            if !vector_reader_ok(&mi, f, &cand) {
                // Drop the last candidate it reads and try again.
                cand.remove(reads.last().expect("not empty"));
            }
        }
        if cand.len() == before {
            break;
        }
    }
    if cand.is_empty() {
        return Ok(());
    }
    // Rewrite.
    for v in &cand {
        f.vregs[v.0 as usize].class = RegClass::Sgpr;
    }
    let rewrite = |insts: &mut Vec<MInst>, cand: &HashSet<VReg>| -> Result<()> {
        let mut k = 0;
        while k < insts.len() {
            let defs_cand = regs(&insts[k], true).any(|d| cand.contains(&d));
            if !defs_cand {
                k += 1;
                continue;
            }
            let mn = insts[k].def.mnemonic;
            if let Some(&(_, _, lo_s, hi_s)) = CARRY_PAIRS.iter().find(|p| p.0 == mn) {
                // [lo, vcc, a, b] + [hi, vcc, c, d, vcc]
                let lo = &insts[k];
                let hi = &insts[k + 1];
                let new_lo = MInst::new(lo_s, target, vec![lo.ops[0], lo.ops[2], lo.ops[3]])?;
                let new_hi = MInst::new(hi_s, target, vec![hi.ops[0], hi.ops[2], hi.ops[3]])?;
                insts[k] = new_lo;
                insts[k + 1] = new_hi;
                k += 2;
                continue;
            }
            let &(_, s_mn, swap) = TWINS
                .iter()
                .find(|t| t.0 == mn)
                .expect("candidates are written by twins");
            let ops = &insts[k].ops;
            let new_ops = if swap {
                vec![ops[0], ops[2], ops[1]]
            } else {
                ops.clone()
            };
            insts[k] = MInst::new(s_mn, target, new_ops)?;
            k += 1;
        }
        Ok(())
    };
    let mut pro = std::mem::take(&mut f.prologue);
    rewrite(&mut pro, &cand)?;
    f.prologue = pro;
    for b in 0..f.blocks.len() {
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        rewrite(&mut insts, &cand)?;
        f.blocks[b].insts = insts;
    }
    Ok(())
}

/// Virtual registers an instruction writes (`defs`) or reads.
fn regs(mi: &MInst, defs: bool) -> impl Iterator<Item = VReg> + '_ {
    mi.ops.iter().enumerate().filter_map(move |(k, o)| match o {
        Opnd::Reg { reg, .. } if mi.is_def(k) == defs => Some(*reg),
        _ => None,
    })
}

/// The scalar twin of `mi` at `at`, if it has one (plain modifiers; a
/// carry half only as part of an adjacent pair).
fn twin_of(mi: &MInst, f: &Function, (b, i): At) -> Option<&'static str> {
    if mi.mods != Modifiers::defaults_for(mi.def) {
        return None;
    }
    let mn = mi.def.mnemonic;
    if let Some(t) = TWINS.iter().find(|t| t.0 == mn) {
        let literals = mi.ops.iter().filter(|o| o.is_literal()).count();
        return (literals <= 1).then_some(t.1);
    }
    let insts = match b {
        None => &f.prologue,
        Some(b) => &f.blocks[b].insts,
    };
    let pair = |lo: &MInst, hi: &MInst| {
        CARRY_PAIRS
            .iter()
            .find(|p| p.0 == lo.def.mnemonic && p.1 == hi.def.mnemonic)
            .filter(|_| {
                lo.ops.get(1) == Some(&Opnd::vcc())
                    && hi.ops.get(1) == Some(&Opnd::vcc())
                    && hi.ops.get(4) == Some(&Opnd::vcc())
                    && hi.mods == Modifiers::defaults_for(hi.def)
                    && lo.ops.iter().chain(&hi.ops).all(|o| !o.is_literal())
            })
    };
    if let Some(hi) = insts.get(i + 1)
        && let Some(p) = pair(mi, hi)
    {
        return Some(p.2);
    }
    if i > 0
        && let Some(p) = pair(&insts[i - 1], mi)
    {
        return Some(p.3);
    }
    None
}

/// Where the other half of a carry pair is, if `mi` (with a scalar twin)
/// is one.
fn carry_partner(mi: &MInst, (b, i): At) -> Option<At> {
    let mn = mi.def.mnemonic;
    if CARRY_PAIRS.iter().any(|p| p.0 == mn) {
        Some((b, i + 1))
    } else if CARRY_PAIRS.iter().any(|p| p.1 == mn) {
        Some((b, i.checked_sub(1)?))
    } else {
        None
    }
}

/// Whether every register source of `mi` is scalar once `cand` are
/// (SGPR virtual registers, candidates, physical SGPRs or VCC as the
/// carry of a pair; constants).
fn sources_scalar(mi: &MInst, f: &Function, cand: &HashSet<VReg>) -> bool {
    mi.ops.iter().enumerate().all(|(k, o)| {
        if mi.is_def(k) {
            return true;
        }
        match *o {
            Opnd::Reg { reg, .. } => f.info(reg).class == RegClass::Sgpr || cand.contains(&reg),
            Opnd::Fixed(Operand::Src { code, .. }) => code < 256 && code != 126,
            _ => true,
        }
    })
}

/// Whether vector instruction `mi` stays encodable when the candidates it
/// reads become SGPRs: at most one SGPR or literal among its sources, and
/// in 32-bit encodings only as the first source.
fn vector_reader_ok(mi: &MInst, f: &Function, cand: &HashSet<VReg>) -> bool {
    let vector = matches!(
        mi.def.family,
        Family::Vop1 | Family::Vop2 | Family::Vop3 | Family::Vopc
    );
    if !vector
        || mi.def.mnemonic.starts_with("v_readlane")
        || mi.def.mnemonic.starts_with("v_writelane")
    {
        return false;
    }
    let e32 = matches!(mi.def.family, Family::Vop1 | Family::Vop2 | Family::Vopc);
    let mut bus: Vec<Opnd> = Vec::new();
    let mut first_source = true;
    for (k, o) in mi.ops.iter().enumerate() {
        if mi.is_def(k) {
            continue;
        }
        let scalar = match *o {
            Opnd::Reg { reg, .. } => f.info(reg).class == RegClass::Sgpr || cand.contains(&reg),
            // SGPRs, VCC, M0, EXEC (inline constants are free).
            Opnd::Fixed(Operand::Src { code, .. }) => matches!(code, 0..=107 | 124..=127),
            Opnd::Fixed(Operand::Literal(_)) => true,
            _ => false,
        };
        if scalar {
            let key = match *o {
                Opnd::Reg { reg, offset, .. } => Opnd::Reg {
                    reg,
                    offset,
                    width: 1,
                },
                other => other,
            };
            if !bus.contains(&key) {
                bus.push(key);
            }
            if e32 && !first_source {
                return false;
            }
        }
        first_source = false;
    }
    // 32-bit carry and select forms read VCC implicitly; v_div_fmas too.
    let mn = mi.def.mnemonic;
    let implicit_vcc = mn.starts_with("v_div_fmas")
        || (e32 && (mn.contains("cndmask") || mn.contains("addc") || mn.contains("subb")));
    bus.len() + usize::from(implicit_vcc) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(v: VReg) -> Opnd {
        Opnd::vreg(v, 1)
    }

    #[test]
    fn uniform_integer_values_move_to_the_scalar_alu() {
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        f.add_block();
        let (a, b, c, d) = (
            f.new_vreg(RegClass::Vgpr, 1),
            f.new_vreg(RegClass::Vgpr, 1),
            f.new_vreg(RegClass::Vgpr, 1),
            f.new_vreg(RegClass::Vgpr, 1),
        );
        let i = |mn: &str, ops| MInst::new(mn, t, ops).unwrap();
        let insts = &mut f.blocks[0].insts;
        // a, b uniform (from an SGPR input); c divergent (work-item ID).
        insts.push(i(
            "v_add_u32_e64",
            vec![r(a), Opnd::sgpr(4, 1), Opnd::constant(3)],
        ));
        insts.push(i("v_lshlrev_b32_e64", vec![r(b), Opnd::constant(2), r(a)]));
        insts.push(i("v_add_u32_e64", vec![r(c), Opnd::vgpr(0, 1), r(b)]));
        // A vector-only instruction (no scalar twin) with two scalar
        // sources would exceed the constant bus: one of a, b stays a VGPR.
        insts.push(i("v_bfe_u32", vec![r(d), r(a), r(b), Opnd::constant(4)]));
        scalarize(&mut f, t).unwrap();
        let class = |v: VReg| f.info(v).class;
        assert_eq!(class(c), RegClass::Vgpr);
        assert_eq!(class(d), RegClass::Vgpr);
        assert_ne!(class(a), class(b), "exactly one of a, b is scalar");
        let names: Vec<&str> = f.blocks[0].insts.iter().map(|i| i.def.mnemonic).collect();
        if class(a) == RegClass::Sgpr {
            assert_eq!(names[0], "s_add_u32");
        } else {
            // b scalar: its shift swaps the operands.
            assert_eq!(names[1], "s_lshl_b32");
            assert_eq!(f.blocks[0].insts[1].ops[1], r(a));
        }
    }
}
