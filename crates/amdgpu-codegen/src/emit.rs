//! From allocated machine blocks to bytes and assembly text: virtual
//! registers replaced by physical ones, `s_waitcnt` inserted, branch
//! offsets resolved.
//!
//! `s_waitcnt` rule (simple and correct): a register written by a VMEM
//! load or returning atomic (`vmcnt`) or an SMEM or DS load (`lgkmcnt`) is waited for (count 0)
//! before any instruction reads or writes it; everything outstanding is
//! waited for before a branch and at the end of every machine block, so
//! each block starts with nothing outstanding.

use amdgpu_isa::gfx9::{Family, Inst, Operand, Target, encode, print};

use crate::exec::MBlock;
use crate::ir::{Function, Link, Opnd, RegClass};
use crate::regalloc::Allocation;
use crate::{Error, Result};

/// `s_waitcnt` immediates (GFX9: vmcnt bits 3:0 and 15:14, expcnt 6:4,
/// lgkmcnt 11:8).
/// `s_waitcnt vmcnt(0)`.
pub const WAIT_VM: i64 = 0x0f70;
/// `s_waitcnt lgkmcnt(0)`.
pub const WAIT_LGKM: i64 = 0xc07f;
/// `s_waitcnt vmcnt(0) lgkmcnt(0)`.
pub const WAIT_ALL: i64 = 0x0070;

/// Which counters (`vmcnt`, `lgkmcnt`) a load of `family` increments:
/// FLAT may reach LDS as well as memory, so it counts on both.
fn counters(family: Family) -> (bool, bool) {
    match family {
        Family::Global | Family::Scratch => (true, false),
        Family::Flat => (true, true),
        Family::Smem | Family::Ds => (false, true),
        _ => (false, false),
    }
}

/// A physical instruction with its branch target (machine block index).
struct PInst {
    inst: Inst,
    label: Option<usize>,
    pc_rel: Option<u32>,
    /// A PC-relative literal to function `k` of the compile unit.
    call: Option<u32>,
}

/// The literal an instruction with a PC-relative operand is emitted with
/// until [`crate::Compiled::relocate`] replaces it.
pub const PC_REL_PLACEHOLDER: u32 = 0x5eed_5eed;

/// A PC-relative literal in emitted code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PcRel {
    /// Byte offset of the instruction in the code.
    pub inst_at: usize,
    /// Byte offset of its 32-bit literal in the code.
    pub literal_at: usize,
    /// Byte offset of the literal's text in the assembly.
    pub asm_at: usize,
    /// Target: a byte offset in the data segment.
    pub target: u32,
}

/// Emitted machine code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// Machine code bytes.
    pub code: Vec<u8>,
    /// The instructions as LLVM assembly, one per line (tab-indented), with
    /// `.L` labels for branch targets.
    pub asm: String,
    /// Instructions emitted.
    pub instructions: usize,
    /// PC-relative literals to fill in.
    pub pc_rel: Vec<PcRel>,
    /// PC-relative literals to other functions of the compile unit
    /// (`target` is the function's index).
    pub calls: Vec<PcRel>,
}

fn phys_operand(f: &Function, alloc: &Allocation, o: &Opnd) -> Operand {
    match *o {
        Opnd::Reg { reg, offset, width } => {
            let p = alloc.phys[reg.0 as usize] + u16::from(offset);
            match f.info(reg).class {
                RegClass::Sgpr => Operand::Src { code: p, width },
                RegClass::Vgpr => Operand::Src {
                    code: 256 + p,
                    width,
                },
            }
        }
        Opnd::Fixed(op) => op,
        Opnd::Label(_) => Operand::Imm(0),
    }
}

fn regs_of(op: &Operand) -> impl Iterator<Item = u16> {
    let (code, width) = match *op {
        Operand::Src { code, width } if code <= 101 || code >= 256 => (code, width.max(1)),
        _ => (0, 0),
    };
    (0..u16::from(width)).map(move |d| code + d)
}

/// Rewrites, inserts waits, resolves branches and encodes.
pub fn emit(
    f: &Function,
    blocks: &[MBlock],
    alloc: &Allocation,
    target: Target,
) -> Result<Emitted> {
    let waitcnt =
        amdgpu_isa::gfx9::InstDef::find("s_waitcnt", target).ok_or(Error::UnknownInstruction {
            mnemonic: "s_waitcnt".into(),
            target: target.name(),
        })?;
    let wait = |v: i64| PInst {
        inst: Inst::new(waitcnt, target, vec![Operand::Imm(v)]),
        label: None,
        pc_rel: None,
        call: None,
    };
    let mut out: Vec<Vec<PInst>> = Vec::with_capacity(blocks.len());
    for b in blocks {
        let mut pb = Vec::new();
        let mut vm: Vec<u16> = Vec::new();
        let mut lgkm: Vec<u16> = Vec::new();
        for mi in &b.insts {
            let mut ops: Vec<Operand> = mi.ops.iter().map(|o| phys_operand(f, alloc, o)).collect();
            if mi.link == Some(Link::FrameSize) {
                let frame = Operand::Literal(crate::ir::FRAME_PLACEHOLDER);
                for o in ops.iter_mut().filter(|o| **o == frame) {
                    *o = crate::ir::inline_or_literal(f.private_size);
                }
            }
            if crate::regalloc::is_copy(mi.def.mnemonic) && ops.len() == 2 && ops[0] == ops[1] {
                continue;
            }
            let label = mi.ops.iter().find_map(|o| match o {
                Opnd::Label(t) => Some(*t),
                _ => None,
            });
            let touches = |set: &Vec<u16>| ops.iter().any(|o| regs_of(o).any(|r| set.contains(&r)));
            // Nothing may be outstanding when control leaves the block or
            // the function (calls and returns too).
            let leaves =
                mi.is_branch() || matches!(mi.def.mnemonic, "s_swappc_b64" | "s_setpc_b64");
            let need_vm = !vm.is_empty() && (leaves || touches(&vm));
            let need_lgkm = !lgkm.is_empty() && (leaves || touches(&lgkm));
            match (need_vm, need_lgkm) {
                (true, true) => pb.push(wait(WAIT_ALL)),
                (true, false) => pb.push(wait(WAIT_VM)),
                (false, true) => pb.push(wait(WAIT_LGKM)),
                (false, false) => {}
            }
            if need_vm {
                vm.clear();
            }
            if need_lgkm {
                lgkm.clear();
            }
            // An explicit wait (memory-model fences, barriers) of a zero
            // count settles what it covers.
            if mi.def.mnemonic == "s_waitcnt"
                && let Some(Opnd::Fixed(Operand::Imm(v))) = mi.ops.first()
            {
                if v & 0xf == 0 && (v >> 14) & 3 == 0 {
                    vm.clear();
                }
                if (v >> 8) & 0xf == 0 {
                    lgkm.clear();
                }
            }
            let mut inst = Inst::new(mi.def, target, ops);
            inst.mods = mi.mods.clone();
            let (counts_vm, counts_lgkm) = counters(mi.def.family);
            for (i, o) in inst.operands.iter().enumerate() {
                if (counts_vm || counts_lgkm) && mi.is_def(i) {
                    if counts_vm {
                        vm.extend(regs_of(o));
                    }
                    if counts_lgkm {
                        lgkm.extend(regs_of(o));
                    }
                }
            }
            let call = match mi.link {
                Some(Link::Callee(k)) => Some(k),
                _ => None,
            };
            pb.push(PInst {
                inst,
                label,
                pc_rel: mi.pc_rel,
                call,
            });
        }
        match (!vm.is_empty(), !lgkm.is_empty()) {
            (true, true) => pb.push(wait(WAIT_ALL)),
            (true, false) => pb.push(wait(WAIT_VM)),
            (false, true) => pb.push(wait(WAIT_LGKM)),
            (false, false) => {}
        }
        out.push(pb);
    }
    let succs: Vec<Vec<usize>> = (blocks.iter().enumerate())
        .map(|(i, b)| b.successors(i, blocks.len()))
        .collect();
    crate::hazard::insert(
        &mut out,
        &succs,
        target,
        |p| &p.inst,
        |inst| PInst {
            inst,
            label: None,
            pc_rel: None,
            call: None,
        },
    )?;

    // Offsets: every instruction's size does not depend on branch offsets.
    let mut sizes = Vec::new();
    let mut block_start = Vec::with_capacity(out.len() + 1);
    let mut pc = 0usize;
    for pb in &out {
        block_start.push(pc);
        let mut s = Vec::with_capacity(pb.len());
        for p in pb {
            let bytes = encode(&p.inst, target).map_err(|e| Error::Encode {
                inst: print(&p.inst),
                message: e.to_string(),
            })?;
            pc += bytes.len();
            s.push(bytes.len());
        }
        sizes.push(s);
    }
    block_start.push(pc);

    // Which blocks need a label.
    let mut labelled = vec![false; out.len() + 1];
    for pb in &out {
        for p in pb {
            if let Some(t) = p.label {
                labelled[t] = true;
            }
        }
    }
    let label_name = |t: usize| format!(".L{}_{}", f.name, t);

    let mut code = Vec::with_capacity(pc);
    let mut asm = String::new();
    let mut count = 0;
    let mut pc_rel = Vec::new();
    let mut calls = Vec::new();
    for (bi, pb) in out.iter_mut().enumerate() {
        if labelled[bi] {
            asm.push_str(&label_name(bi));
            asm.push_str(":\n");
        }
        for (ii, p) in pb.iter_mut().enumerate() {
            let at = code.len();
            if let Some(t) = p.label {
                let target_pc = block_start[t] as i64;
                let delta = (target_pc - (at as i64 + 4)) / 4;
                if !(-32768..=32767).contains(&delta) {
                    return Err(Error::BranchOutOfRange {
                        function: f.name.clone(),
                    });
                }
                p.inst.operands = vec![Operand::Imm(delta)];
                asm.push_str(&format!("\t{} {}\n", p.inst.def.name, label_name(t)));
            } else {
                asm.push('\t');
                let line = print(&p.inst);
                for (t, list) in [(p.pc_rel, &mut pc_rel), (p.call, &mut calls)] {
                    let Some(t) = t else { continue };
                    let text = format!("{PC_REL_PLACEHOLDER:#x}");
                    let Some(i) = line.find(&text) else {
                        return Err(Error::Encode {
                            inst: line,
                            message: "a PC-relative operand needs a literal".into(),
                        });
                    };
                    list.push(PcRel {
                        inst_at: at,
                        literal_at: at + sizes[bi][ii] - 4,
                        asm_at: asm.len() + i,
                        target: t,
                    });
                }
                asm.push_str(&line);
                asm.push('\n');
            }
            let bytes = encode(&p.inst, target).map_err(|e| Error::Encode {
                inst: print(&p.inst),
                message: e.to_string(),
            })?;
            debug_assert_eq!(bytes.len(), sizes[bi][ii]);
            code.extend_from_slice(&bytes);
            count += 1;
        }
    }
    Ok(Emitted {
        code,
        asm,
        instructions: count,
        pc_rel,
        calls,
    })
}
