//! Register allocation: per-dword liveness over the machine CFG, one live
//! interval per virtual register over the layout order, linear scan with
//! aligned tuples. Out of SGPRs, the lane mask with the longest interval
//! moves to lanes of a VGPR; out of VGPRs, the VGPR with the longest
//! interval moves to a private-memory slot. One attempt collects every
//! such spill (it goes on as if each victim were gone from the point
//! where it was chosen); then they are all made and allocation starts
//! again, so the number of attempts does not grow with the spills.
//!
//! Positions: instruction `k` (in layout order) reads at `2k` and writes
//! at `2k + 1`, so a register whose last read is at `k` can be written by
//! `k` itself. An interval covers every read and write of the register
//! and every block boundary where one of its dwords is live, so it is
//! conservative around holes and loops.

use amdgpu_isa::gfx9::{Family, Target};

use crate::exec::MBlock;
use crate::ir::{Function, MInst, Opnd, RegClass, VReg};
use crate::{Error, Result};

/// Registers the allocator may hand out (SGPRs: s0..s95, leaving room for
/// VCC and FLAT_SCRATCH/XNACK at the top of the SGPR file; VGPRs: v0..v255).
pub const SGPR_LIMIT: u16 = 96;
/// See [`SGPR_LIMIT`].
pub const VGPR_LIMIT: u16 = 256;

/// The result: the first physical register of every virtual register,
/// and the counts the kernel descriptor needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// First physical register per virtual register (SGPR n or VGPR n).
    pub phys: Vec<u16>,
    /// One past the highest SGPR used (inputs included).
    pub next_free_sgpr: u16,
    /// One past the highest VGPR used (inputs included).
    pub next_free_vgpr: u16,
}

/// A bit set.
pub(crate) struct Bits(pub Vec<u64>);

impl Bits {
    pub fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    /// Calls `g` with every member, in increasing order.
    pub fn each(&self, mut g: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                g(64 * w + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
    }
}

/// Why an allocation attempt stopped.
enum Failure {
    /// Out of registers; spilling these virtual registers (in this order)
    /// would help.
    Spill(Vec<VReg>),
    /// Out of registers with nothing to spill.
    Out(RegClass),
}

/// Allocates registers for `blocks` (the output of [`crate::exec::lower`]),
/// spilling SGPRs to lanes of a VGPR when they run out.
pub fn allocate(f: &mut Function, blocks: &mut [MBlock], target: Target) -> Result<Allocation> {
    allocate_counted(f, blocks, target).map(|(a, _)| a)
}

/// [`allocate`], also returning the number of allocation attempts.
fn allocate_counted(
    f: &mut Function,
    blocks: &mut [MBlock],
    target: Target,
) -> Result<(Allocation, usize)> {
    let mut slots = LaneSlots::default();
    let mut attempts = 0;
    loop {
        attempts += 1;
        match try_allocate(f, blocks, target) {
            Ok(a) => return Ok((a, attempts)),
            Err(Failure::Spill(victims)) => {
                let mut spills = Vec::with_capacity(victims.len());
                for v in victims {
                    spills.push(match f.info(v).class {
                        // SGPR spill lanes ignore EXEC, so a callee would
                        // overwrite its caller's (see `crate::calls`): no
                        // SGPR spills with calls.
                        RegClass::Sgpr if crate::calls::uses_stack(f) => {
                            return Err(Error::OutOfRegisters {
                                class: RegClass::Sgpr,
                                function: f.name.clone(),
                            });
                        }
                        RegClass::Sgpr => spill_sgpr(f, v, &mut slots, target),
                        // (A callee's scratch is set up by its kernel.)
                        RegClass::Vgpr if f.scratch.is_none() && f.callee.is_none() => {
                            return Err(Error::NeedsScratch {
                                function: f.name.clone(),
                            });
                        }
                        RegClass::Vgpr => spill_vgpr(f, v, target),
                    });
                }
                rewrite_uses(f, blocks, &spills)?;
            }
            Err(Failure::Out(class)) => {
                return Err(Error::OutOfRegisters {
                    class,
                    function: f.name.clone(),
                });
            }
        }
    }
}

/// One allocation attempt.
fn try_allocate(
    f: &Function,
    blocks: &[MBlock],
    target: Target,
) -> std::result::Result<Allocation, Failure> {
    let Liveness {
        base,
        units,
        live_in,
        live_out,
    } = liveness_of(f, blocks);
    // Intervals.
    let nv = f.vregs.len();
    let mut start = vec![usize::MAX; nv];
    let mut end = vec![0usize; nv];
    let mut unit_owner = vec![0usize; units];
    for (v, &b) in base.iter().enumerate() {
        for d in 0..usize::from(f.vregs[v].width) {
            unit_owner[b + d] = v;
        }
    }
    let mut touch = |v: usize, p: usize| {
        start[v] = start[v].min(p);
        end[v] = end[v].max(p);
    };
    let mut k = 0usize;
    // Last reference of each physical input register.
    let mut last_input_sgpr = vec![0usize; usize::from(SGPR_LIMIT)];
    let mut last_input_vgpr = vec![0usize; usize::from(VGPR_LIMIT)];
    for (bi, b) in blocks.iter().enumerate() {
        let first = k;
        for inst in &b.insts {
            for (i, o) in inst.ops.iter().enumerate() {
                let p = if inst.is_def(i) { 2 * k + 1 } else { 2 * k };
                if let Opnd::Reg { reg, .. } = o {
                    touch(reg.0 as usize, p);
                }
                if let Opnd::Fixed(amdgpu_isa::gfx9::Operand::Src { code, width }) = *o {
                    for d in 0..u16::from(width.max(1)) {
                        let c = code + d;
                        if f.live_in_sgprs.contains(&c) && c < SGPR_LIMIT {
                            last_input_sgpr[usize::from(c)] = 2 * k + 1;
                        }
                        if c >= 256 && f.live_in_vgprs.contains(&(c - 256)) {
                            last_input_vgpr[usize::from(c - 256)] = 2 * k + 1;
                        }
                    }
                }
            }
            k += 1;
        }
        let last = k.max(first + 1) - 1;
        live_in[bi].each(|u| touch(unit_owner[u], 2 * first));
        live_out[bi].each(|u| touch(unit_owner[u], 2 * last + 2));
    }

    // Pinned VGPRs (SGPR spill lanes) live from start to end.
    let last_position = 2 * k + 2;
    for &p in &f.pinned {
        start[p.0 as usize] = 0;
        end[p.0 as usize] = last_position;
    }
    let hints = copy_hints(f, blocks);
    let spillable = spillable_sgprs(f, blocks);

    // Linear scan.
    let mut order: Vec<usize> = (0..nv).filter(|&v| start[v] != usize::MAX).collect();
    order.sort_by_key(|&v| (start[v], v));
    // busy_until[r]: the position up to which physical register r is taken.
    let sgpr_limit = if crate::calls::uses_stack(f) {
        crate::calls::RESERVED_SGPRS
    } else {
        SGPR_LIMIT
    };
    let mut sgpr_busy: Vec<Option<usize>> = vec![None; usize::from(sgpr_limit)];
    let mut vgpr_busy: Vec<Option<usize>> = vec![None; usize::from(VGPR_LIMIT)];
    for &s in &f.live_in_sgprs {
        if let Some(b) = sgpr_busy.get_mut(usize::from(s)) {
            *b = Some(last_input_sgpr[usize::from(s)]);
        }
    }
    for &v in &f.live_in_vgprs {
        if let Some(b) = vgpr_busy.get_mut(usize::from(v)) {
            *b = Some(last_input_vgpr[usize::from(v)]);
        }
    }
    let mut phys = vec![0u16; nv];
    let mut next_free_sgpr = f.live_in_sgprs.iter().map(|&s| s + 1).max().unwrap_or(0);
    let mut next_free_vgpr = f.live_in_vgprs.iter().map(|&v| v + 1).max().unwrap_or(0);
    // Victims chosen so far (in order) and whether each vreg is one or
    // already has its register.
    let mut victims = Vec::new();
    let mut spilled = vec![false; nv];
    let mut placed = vec![false; nv];
    for v in order {
        let info = f.vregs[v];
        let w = usize::from(info.width);
        let (busy, align) = match info.class {
            RegClass::Sgpr => (&mut sgpr_busy, if w >= 4 { 4 } else { w.min(2) }),
            RegClass::Vgpr => (
                &mut vgpr_busy,
                if w >= 2 && target == Target::Gfx90a {
                    2
                } else {
                    1
                },
            ),
        };
        let r = loop {
            if spilled[v] {
                break None;
            }
            if let Some(r) = find_register(busy, start[v], w, align, &hints[v], &phys, &start) {
                break Some(r);
            }
            // Spill the (spillable) register of this class live here with
            // the longest interval, and go on as if it were gone from here.
            let at = start[v];
            let victim = (0..nv)
                .filter(|&u| {
                    !spilled[u]
                        && start[u] <= at
                        && at <= end[u]
                        && match info.class {
                            RegClass::Sgpr => spillable[u],
                            RegClass::Vgpr => {
                                f.vregs[u].class == RegClass::Vgpr
                                    && !f.pinned.contains(&VReg(u as u32))
                            }
                        }
                })
                .max_by_key(|&u| end[u] - start[u]);
            let Some(u) = victim else {
                return Err(if victims.is_empty() {
                    Failure::Out(info.class)
                } else {
                    Failure::Spill(victims)
                });
            };
            spilled[u] = true;
            victims.push(VReg(u as u32));
            if placed[u] {
                let p = usize::from(phys[u]);
                for b in &mut busy[p..p + usize::from(f.vregs[u].width)] {
                    *b = None;
                }
            }
        };
        let Some(r) = r else { continue };
        for b in &mut busy[r..r + w] {
            *b = Some(end[v]);
        }
        phys[v] = r as u16;
        placed[v] = true;
        let top = (r + w) as u16;
        match info.class {
            RegClass::Sgpr => next_free_sgpr = next_free_sgpr.max(top),
            RegClass::Vgpr => next_free_vgpr = next_free_vgpr.max(top),
        }
    }
    if !victims.is_empty() {
        return Err(Failure::Spill(victims));
    }
    Ok(Allocation {
        phys,
        next_free_sgpr,
        next_free_vgpr,
    })
}

/// A register for a virtual register of `w` dwords with interval start
/// `at` (aligned to `align`) among the physical registers `busy` (the
/// position up to which each is taken): the register a copy hint names
/// when free (a copy's destination takes its source's register when the
/// source dies at the copy, so the copy becomes a no-op), else the
/// lowest free one.
fn find_register(
    busy: &[Option<usize>],
    at: usize,
    w: usize,
    align: usize,
    hints: &[(usize, i32)],
    phys: &[u16],
    start: &[usize],
) -> Option<usize> {
    let free = |r: usize| busy[r].is_none_or(|u| u < at);
    let fits = |r: usize| r.is_multiple_of(align) && r + w <= busy.len() && (r..r + w).all(free);
    let hinted = hints.iter().find_map(|&(u, delta)| {
        let r = i32::from(phys[u]) + delta;
        (start[u] < at && r >= 0 && fits(r as usize)).then_some(r as usize)
    });
    hinted.or_else(|| {
        (0..=busy.len().checked_sub(w)?)
            .step_by(align)
            .find(|&r| (r..r + w).all(free))
    })
}

/// Per-dword liveness of a function's machine blocks.
pub(crate) struct Liveness {
    /// First dword unit of each virtual register.
    pub base: Vec<usize>,
    /// Dword units in all.
    pub units: usize,
    /// Units live at each block's start.
    pub live_in: Vec<Bits>,
    /// Units live at each block's end.
    pub live_out: Vec<Bits>,
}

/// Liveness of every virtual register dword: SGPR dwords along the
/// wave's machine CFG, VGPR dwords along the lanes' paths (see
/// `MBlock::lane_succs`): a lane never sees a VGPR write of a block it
/// does not run.
pub(crate) fn liveness_of(f: &Function, blocks: &[MBlock]) -> Liveness {
    let mut base = Vec::with_capacity(f.vregs.len());
    let mut units = 0usize;
    for v in &f.vregs {
        base.push(units);
        units += usize::from(v.width);
    }
    let n = blocks.len();
    let mut gen_ = Vec::with_capacity(n);
    let mut kill = Vec::with_capacity(n);
    for b in blocks {
        let mut g = Bits::new(units);
        let mut k = Bits::new(units);
        for inst in &b.insts {
            for (i, o) in inst.ops.iter().enumerate() {
                if !inst.is_def(i) {
                    for_units(&base, o, |u| {
                        if !k.get(u) {
                            g.set(u);
                        }
                    });
                }
            }
            for (i, o) in inst.ops.iter().enumerate() {
                if inst.is_def(i) {
                    for_units(&base, o, |u| k.set(u));
                }
            }
        }
        gen_.push(g);
        kill.push(k);
    }
    let wave_succs: Vec<Vec<usize>> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| b.successors(i, n))
        .collect();
    let lane_succs: Vec<&[usize]> = blocks.iter().map(|b| &b.lane_succs[..]).collect();
    let mut vgpr_unit = Bits::new(units);
    for (v, &b) in base.iter().enumerate() {
        if f.vregs[v].class == RegClass::Vgpr {
            for d in 0..usize::from(f.vregs[v].width) {
                vgpr_unit.set(b + d);
            }
        }
    }
    let (live_in, live_out) = liveness(&gen_, &kill, &wave_succs, &lane_succs, &vgpr_unit);
    Liveness {
        base,
        units,
        live_in,
        live_out,
    }
}

/// Calls `g` with every dword unit operand `o` names.
pub(crate) fn for_units(base: &[usize], o: &Opnd, mut g: impl FnMut(usize)) {
    if let Opnd::Reg { reg, offset, width } = *o {
        for d in 0..usize::from(width) {
            g(base[reg.0 as usize] + usize::from(offset) + d);
        }
    }
}

/// Live-in and live-out sets per block, to a fixpoint: the units of
/// `vgpr` along `lane_succs`, the others along `wave_succs`. A worklist
/// of blocks (last first) revisits only the predecessors of a block
/// whose live-in set changed.
fn liveness(
    gen_: &[Bits],
    kill: &[Bits],
    wave_succs: &[Vec<usize>],
    lane_succs: &[&[usize]],
    vgpr: &Bits,
) -> (Vec<Bits>, Vec<Bits>) {
    let n = gen_.len();
    let words = vgpr.0.len();
    let mut preds = vec![Vec::new(); n];
    for i in 0..n {
        for &s in wave_succs[i].iter().chain(lane_succs[i]) {
            if s < n && preds[s].last() != Some(&i) {
                preds[s].push(i);
            }
        }
    }
    let mut live_in: Vec<Bits> = (0..n).map(|_| Bits(vec![0; words])).collect();
    let mut live_out: Vec<Bits> = (0..n).map(|_| Bits(vec![0; words])).collect();
    // A stack popping the last block first, with membership flags.
    let mut work: Vec<usize> = (0..n).collect();
    let mut queued = vec![true; n];
    while let Some(i) = work.pop() {
        queued[i] = false;
        let mut changed = false;
        for w in 0..words {
            let mut out = 0u64;
            for &s in &wave_succs[i] {
                out |= live_in[s].0[w] & !vgpr.0[w];
            }
            for &s in lane_succs[i] {
                out |= live_in[s].0[w] & vgpr.0[w];
            }
            let inn = gen_[i].0[w] | (out & !kill[i].0[w]);
            live_out[i].0[w] = out;
            if inn != live_in[i].0[w] {
                changed = true;
                live_in[i].0[w] = inn;
            }
        }
        if changed {
            for &p in &preds[i] {
                if !queued[p] {
                    queued[p] = true;
                    work.push(p);
                }
            }
        }
    }
    (live_in, live_out)
}

/// Whether `mnemonic` is a plain register copy (`v_mov_b32`, `s_mov_b32`,
/// `s_mov_b64`).
pub fn is_copy(mnemonic: &str) -> bool {
    matches!(mnemonic, "v_mov_b32" | "s_mov_b32" | "s_mov_b64")
}

/// For each virtual register, the registers it is copied from, with the
/// offset of its first dword relative to the source's first physical
/// register (`dst.offset` dwords into `dst` is `src.offset` into `src`).
fn copy_hints(f: &Function, blocks: &[MBlock]) -> Vec<Vec<(usize, i32)>> {
    let mut hints = vec![Vec::new(); f.vregs.len()];
    for inst in blocks.iter().flat_map(|b| &b.insts) {
        if !is_copy(inst.def.mnemonic) {
            continue;
        }
        let (
            Some(&Opnd::Reg {
                reg: d, offset: od, ..
            }),
            Some(&Opnd::Reg {
                reg: s, offset: os, ..
            }),
        ) = (inst.ops.first(), inst.ops.get(1))
        else {
            continue;
        };
        if d != s && f.info(d).class == f.info(s).class {
            hints[d.0 as usize].push((s.0 as usize, i32::from(os) - i32::from(od)));
        }
    }
    hints
}

/// SGPR virtual registers that only scalar ALU instructions read or write
/// (lane masks): they can live in VGPR lanes between uses.
fn spillable_sgprs(f: &Function, blocks: &[MBlock]) -> Vec<bool> {
    let mut ok: Vec<bool> = f
        .vregs
        .iter()
        .map(|v| v.class == RegClass::Sgpr && v.width <= 2)
        .collect();
    for inst in f
        .prologue
        .iter()
        .chain(blocks.iter().flat_map(|b| &b.insts))
    {
        let salu = matches!(
            inst.def.family,
            Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk
        );
        for o in &inst.ops {
            if let Opnd::Reg { reg, .. } = o
                && !salu
            {
                ok[reg.0 as usize] = false;
            }
        }
    }
    ok
}

/// Lanes of VGPRs that hold spilled SGPRs.
#[derive(Default)]
struct LaneSlots {
    /// The current lane VGPR and its next free lane.
    current: Option<(VReg, u32)>,
}

impl LaneSlots {
    /// `width` consecutive lanes of one VGPR.
    fn take(&mut self, f: &mut Function, width: u32) -> (VReg, u32) {
        match self.current {
            Some((v, lane)) if lane + width <= 64 => {
                self.current = Some((v, lane + width));
                (v, lane)
            }
            _ => {
                let v = f.new_vreg(RegClass::Vgpr, 1);
                f.pinned.push(v);
                self.current = Some((v, width));
                (v, 0)
            }
        }
    }
}

/// Makes the instructions that load (`load`) or store (`store`) the
/// temporary register standing for a spilled one.
type Access = Box<dyn Fn(&mut Function, VReg) -> Result<Vec<MInst>>>;

/// A virtual register on its way out of the registers.
struct Spill {
    /// The spilled register.
    v: VReg,
    /// Loads a temporary from its home before a use.
    load: Access,
    /// Stores a temporary to its home after a write.
    store: Access,
}

/// Rewrites every instruction that uses a spilled virtual register to use
/// a fresh temporary instead, with its load before the instruction when
/// the instruction reads it (or writes only part of it) and its store
/// after when it writes it. One pass for all of `spills`: loads in the
/// order of `spills`, stores in the reverse order (as if they had been
/// spilled one after another).
fn rewrite_uses(f: &mut Function, blocks: &mut [MBlock], spills: &[Spill]) -> Result<()> {
    let mut which = vec![usize::MAX; f.vregs.len()];
    for (i, s) in spills.iter().enumerate() {
        which[s.v.0 as usize] = i;
    }
    let spilled = |o: &Opnd| match o {
        Opnd::Reg { reg, .. } => which
            .get(reg.0 as usize)
            .copied()
            .filter(|&i| i != usize::MAX),
        _ => None,
    };
    for b in blocks.iter_mut() {
        if !b
            .insts
            .iter()
            .any(|i| i.ops.iter().any(|o| spilled(o).is_some()))
        {
            continue;
        }
        let old = std::mem::take(&mut b.insts);
        for mut inst in old {
            let mut here: Vec<usize> = inst.ops.iter().filter_map(spilled).collect();
            if here.is_empty() {
                b.insts.push(inst);
                continue;
            }
            here.sort_unstable();
            here.dedup();
            let mut stores = Vec::new();
            for &i in &here {
                let Spill { v, load, store } = &spills[i];
                let info = f.info(*v);
                let refs = |o: &Opnd| matches!(o, Opnd::Reg { reg, .. } if reg == v);
                let defs = (0..inst.ops.len()).any(|k| inst.is_def(k) && refs(&inst.ops[k]));
                let reads = (0..inst.ops.len()).any(|k| !inst.is_def(k) && refs(&inst.ops[k]));
                let partial = (0..inst.ops.len()).any(|k| {
                    inst.is_def(k)
                        && matches!(inst.ops[k], Opnd::Reg { reg, width, .. } if reg == *v && width < info.width)
                });
                let t = f.new_vreg(info.class, info.width);
                if reads || partial {
                    b.insts.extend(load(f, t)?);
                }
                for o in inst.ops.iter_mut() {
                    if let Opnd::Reg { reg, .. } = o
                        && reg == v
                    {
                        *reg = t;
                    }
                }
                if defs {
                    stores.push((store, t));
                }
            }
            b.insts.push(inst);
            for (store, t) in stores.into_iter().rev() {
                b.insts.extend(store(f, t)?);
            }
        }
    }
    Ok(())
}

/// Moves VGPR virtual register `v` to a private-memory slot of every
/// work-item (after the function's own private bytes): loaded before each
/// use, stored after each write, under EXEC like the instructions
/// themselves (a lane's slot changes only where its value does): the
/// [`Spill`] for [`rewrite_uses`].
fn spill_vgpr(f: &mut Function, v: VReg, target: Target) -> Spill {
    let width = f.info(v).width;
    let slot = f.private_size.next_multiple_of(4);
    f.private_size = slot + 4 * u32::from(width);
    let suffix = match width {
        1 => "dword",
        2 => "dwordx2",
        3 => "dwordx3",
        _ => "dwordx4",
    };
    let whole = move |t: VReg| Opnd::Reg {
        reg: t,
        offset: 0,
        width,
    };
    // The slot's offset in an SGPR (any offset fits; relative to the
    // stack pointer with calls), then the access.
    let stack = crate::calls::uses_stack(f);
    let access = move |f: &mut Function, t: VReg, store: bool| -> Result<Vec<MInst>> {
        let at = f.new_vreg(RegClass::Sgpr, 1);
        let at_op = Opnd::Reg {
            reg: at,
            offset: 0,
            width: 1,
        };
        let set = if stack {
            let sp = Opnd::sgpr(crate::calls::SP, 1);
            MInst::new("s_add_u32", target, vec![at_op, sp, Opnd::constant(slot)])?
        } else {
            MInst::new("s_mov_b32", target, vec![at_op, Opnd::constant(slot)])?
        };
        let mem = if store {
            MInst::new(
                &format!("scratch_store_{suffix}"),
                target,
                vec![Opnd::off(), whole(t), at_op],
            )?
        } else {
            MInst::new(
                &format!("scratch_load_{suffix}"),
                target,
                vec![whole(t), Opnd::off(), at_op],
            )?
        };
        Ok(vec![set, mem])
    };
    Spill {
        v,
        load: Box::new(move |f, t| access(f, t, false)),
        store: Box::new(move |f, t| access(f, t, true)),
    }
}

/// Moves SGPR virtual register `v` into VGPR lanes: each instruction that
/// uses it gets a fresh SGPR temporary, read from the lanes before
/// (`v_readlane_b32`) and written back after (`v_writelane_b32`), both of
/// which ignore EXEC: the [`Spill`] for [`rewrite_uses`].
fn spill_sgpr(f: &mut Function, v: VReg, slots: &mut LaneSlots, target: Target) -> Spill {
    let width = f.info(v).width;
    let (lanes, first) = slots.take(f, u32::from(width));
    let lane_reg = Opnd::Reg {
        reg: lanes,
        offset: 0,
        width: 1,
    };
    let lane_op = move |t: VReg, store: bool| -> Result<Vec<MInst>> {
        (0..width)
            .map(|d| {
                let dword = Opnd::Reg {
                    reg: t,
                    offset: d,
                    width: 1,
                };
                let lane = Opnd::constant(first + u32::from(d));
                if store {
                    MInst::new("v_writelane_b32", target, vec![lane_reg, dword, lane])
                } else {
                    MInst::new("v_readlane_b32", target, vec![dword, lane_reg, lane])
                }
            })
            .collect()
    };
    Spill {
        v,
        load: Box::new(move |_, t| lane_op(t, false)),
        store: Box::new(move |_, t| lane_op(t, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Terminator;

    fn r(v: VReg) -> Opnd {
        Opnd::vreg(v, 1)
    }

    /// `n` VGPRs set one after another, then all added up and stored:
    /// all `n` are live at once before the additions.
    fn many_live(t: Target, n: usize) -> Function {
        let mut f = Function::new("k");
        f.scratch = Some(crate::ScratchInputs {
            flat_scratch_init: 0,
            wave_offset: 2,
        });
        f.live_in_sgprs.extend([0, 1, 2]);
        let vals: Vec<VReg> = (0..n).map(|_| f.new_vreg(RegClass::Vgpr, 1)).collect();
        let addr = f.new_vreg(RegClass::Vgpr, 2);
        let b = f.add_block();
        let insts = &mut f.blocks[b].insts;
        for (i, &v) in vals.iter().enumerate() {
            let k = Opnd::constant(i as u32 * 7 + 1);
            insts.push(MInst::new("v_mov_b32", t, vec![r(v), k]).unwrap());
        }
        for w in vals.windows(2) {
            let add = vec![r(w[1]), r(w[1]), r(w[0])];
            insts.push(MInst::new("v_add_u32_e64", t, add).unwrap());
        }
        let part = |offset, width| Opnd::Reg {
            reg: addr,
            offset,
            width,
        };
        let (lo, hi, wide) = (part(0, 1), part(1, 1), part(0, 2));
        insts.push(MInst::new("v_mov_b32", t, vec![lo, Opnd::constant(0)]).unwrap());
        insts.push(MInst::new("v_mov_b32", t, vec![hi, Opnd::constant(0)]).unwrap());
        let last = r(vals[n - 1]);
        insts.push(MInst::new("global_store_dword", t, vec![wide, last, Opnd::off()]).unwrap());
        f.blocks[b].term = Terminator::Ret;
        f
    }

    #[test]
    fn many_spills_take_few_attempts() {
        // 400 values live at once in 256 VGPRs: at least 144 spilled.
        // The first attempt finds them; the temporaries of their reloads
        // may need a few more (one attempt per spill would take 145).
        for t in [Target::Gfx900, Target::Gfx90a] {
            let mut f = many_live(t, 400);
            let mut blocks = crate::exec::lower(&mut f, t).unwrap();
            let (alloc, attempts) = allocate_counted(&mut f, &mut blocks, t).unwrap();
            assert!(f.private_size >= 4 * (400 - 256), "{}", f.private_size);
            assert!(attempts <= 4, "{attempts} attempts");
            crate::verify::check(&f, &blocks, &alloc).unwrap();
        }
    }
}
