//! The AMDGPU machine back end. It knows nothing of HSAIL: a front end
//! (the HSA finalizer) builds a [`Function`] of lane-level blocks over
//! virtual registers, and this crate makes machine code of it.
//!
//! ```text
//!  ir::Function (lane-level CFG, vregs)
//!      │ ifconv           small divergent if/else → straight-line code under EXEC
//!      │ hoist            constants set inside loops → set in the preheader
//!      │ exec::lower      divergent control flow → EXEC masks, wave-level blocks
//!      │ opt              dead vector ALU results removed
//!      │ calls::expand    calls: values live across saved to the stack
//!      │ regalloc         per-dword liveness, linear scan, aligned tuples
//!      │ verify           (debug builds) every read finds its vreg in place
//!      │ emit             physical operands, s_waitcnt, hazard s_nops
//!      ▼                  (hazard), branch fixups, encode / print
//!  Compiled { code, asm, register counts }
//! ```
//!
//! Every value the front end computes lives in VGPRs (uniform ones too:
//! the divergence analysis drives control flow only); SGPRs hold ABI
//! inputs, scalar loads and lane masks. When registers run out, SGPR lane
//! masks are spilled to lanes of a VGPR (`v_writelane`/`v_readlane`) and
//! VGPRs to private memory after the function's own (`scratch_*`; a
//! function without scratch inputs gets [`Error::NeedsScratch`] so that
//! the front end enables them and compiles it again).
//!
//! Scratch: a function with private memory sets [`Function::private_size`]
//! (bytes per work-item) and [`Function::scratch`] (where the ABI puts
//! `flat_scratch_init` and the wave's private offset); [`compile`] then
//! points `FLAT_SCRATCH` at the wave's scratch first thing, so
//! `scratch_load/store` with a per-lane offset (`vaddr`) reach the
//! work-item's private bytes, and reports the size in
//! [`Compiled::private_size`]. A register spiller would put its slots at
//! `private_size` and up and raise it. Module data: an `s_add_u32` marked
//! [`MInst::pc_rel`] right after an `s_getpc_b64` gets its literal from
//! [`Compiled::relocate`] once the code object is laid out.
//!
//! Calls: the functions of a compile unit (a kernel and the functions it
//! calls for real) are compiled one by one and joined by [`link`]; the
//! call ABI (stack, registers, EXEC) is [`calls`].

pub mod calls;
pub mod emit;
pub mod exec;
pub mod hazard;
pub mod hoist;
pub mod ifconv;
pub mod ir;
pub mod opt;
pub mod regalloc;
pub mod scalar;
pub mod uniform;
pub mod verify;

pub use amdgpu_isa::gfx9::Target;
pub use ir::{
    Block, Function, Link, MInst, Opnd, RegClass, ScratchInputs, Terminator, VReg, VRegInfo,
};

/// A code generation error; each names the function or instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The instruction table has no such instruction on the target.
    #[error("no instruction `{mnemonic}` on {target}")]
    UnknownInstruction {
        /// The mnemonic asked for.
        mnemonic: String,
        /// The target.
        target: &'static str,
    },
    /// Register allocation failed with nothing left to spill.
    #[error("out of {class}s in function `{function}`")]
    OutOfRegisters {
        /// The class that ran out.
        class: RegClass,
        /// The function.
        function: String,
    },
    /// VGPRs must be spilled but the function has no scratch inputs: the
    /// front end should compile it again with [`Function::scratch`] set.
    #[error("function `{function}` needs scratch memory to spill registers")]
    NeedsScratch {
        /// The function.
        function: String,
    },
    /// An instruction the encoder rejected (a bug in the front end).
    #[error("cannot encode `{inst}`: {message}")]
    Encode {
        /// The instruction as printed.
        inst: String,
        /// The encoder's message.
        message: String,
    },
    /// The register-allocation checker ([`verify`]) found an instruction
    /// reading a physical register that, on some path, no longer holds
    /// the virtual register it expects (an allocator bug).
    #[error(
        "bad register allocation in function `{function}`: `{inst}` reads {reg} expecting {expected}, overwritten on some path"
    )]
    BadAllocation {
        /// The function.
        function: String,
        /// The instruction and where it is.
        inst: String,
        /// The physical register read.
        reg: String,
        /// The virtual register (`%v.dword`) or input expected there.
        expected: String,
    },
    /// A branch further than ±32767 instructions.
    #[error("branch out of range in function `{function}`")]
    BranchOutOfRange {
        /// The function.
        function: String,
    },
}

/// The result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Machine code for one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// Machine code.
    pub code: Vec<u8>,
    /// The same code as LLVM assembly lines (`hsakit as` re-assembles it).
    pub asm: String,
    /// `.amdhsa_next_free_sgpr`.
    pub next_free_sgpr: u16,
    /// `.amdhsa_next_free_vgpr`.
    pub next_free_vgpr: u16,
    /// Number of instructions.
    pub instructions: usize,
    /// Private (scratch) bytes per work-item: the descriptor's
    /// `private_segment_fixed_size`.
    pub private_size: u32,
    /// PC-relative literals [`Compiled::relocate`] fills in.
    pub pc_rel: Vec<emit::PcRel>,
    /// PC-relative literals to other functions of the compile unit
    /// ([`link`] fills them in).
    pub calls: Vec<emit::PcRel>,
    /// The function's name (its label after [`link`]).
    pub name: String,
}

/// Links a compile unit into one piece of code: function 0 (the kernel)
/// first, then the others in order (function `k` must have
/// [`Function::unit`] `k`), with the PC-relative literals of calls
/// (function `k` of [`calls::call`]) filled in. Register counts are
/// the largest (a callee runs in its caller's wave).
pub fn link(units: Vec<Compiled>) -> Compiled {
    let mut out = Compiled {
        code: Vec::new(),
        asm: String::new(),
        next_free_sgpr: 0,
        next_free_vgpr: 0,
        instructions: 0,
        private_size: units.first().map_or(0, |u| u.private_size),
        pc_rel: Vec::new(),
        calls: Vec::new(),
        name: units.first().map_or(String::new(), |u| u.name.clone()),
    };
    let mut starts = Vec::new();
    let mut calls = Vec::new();
    for (k, u) in units.into_iter().enumerate() {
        if k > 0 {
            out.asm.push_str(&format!(".L{}:\n", u.name));
        }
        let (code_at, asm_at) = (out.code.len(), out.asm.len());
        starts.push(code_at);
        let shift = |r: emit::PcRel| emit::PcRel {
            inst_at: r.inst_at + code_at,
            literal_at: r.literal_at + code_at,
            asm_at: r.asm_at + asm_at,
            target: r.target,
        };
        out.pc_rel.extend(u.pc_rel.into_iter().map(shift));
        calls.extend(u.calls.into_iter().map(|r| (k, shift(r))));
        out.code.extend(u.code);
        out.asm.push_str(&u.asm);
        out.next_free_sgpr = out.next_free_sgpr.max(u.next_free_sgpr);
        out.next_free_vgpr = out.next_free_vgpr.max(u.next_free_vgpr);
        out.instructions += u.instructions;
    }
    if starts.len() > 1 {
        out.next_free_sgpr = out.next_free_sgpr.max(calls::ABI_SGPR_END);
    }
    let placeholder = format!("{:#x}", emit::PC_REL_PLACEHOLDER);
    for (k, r) in calls {
        // A call to a function at or before the caller's subtracts the
        // distance (see `calls::call_sequence`).
        let to = starts.get(r.target as usize).copied().unwrap_or(0) as i64;
        let distance = to - r.inst_at as i64;
        let v = if r.target as usize <= k {
            -distance
        } else {
            distance
        } as u32;
        out.code[r.literal_at..r.literal_at + 4].copy_from_slice(&v.to_le_bytes());
        out.asm.replace_range(
            r.asm_at..r.asm_at + placeholder.len(),
            &format!("{v:#010x}"),
        );
    }
    out
}

impl Compiled {
    /// Fills in the PC-relative literals once the code sits at address
    /// `code_va` and the data segment at `data_va`, in the code and in the
    /// assembly text (hex literals of the same width, so `asm_at` offsets
    /// stay valid).
    pub fn relocate(&mut self, code_va: u64, data_va: u64) {
        let placeholder = format!("{:#x}", emit::PC_REL_PLACEHOLDER);
        for r in &self.pc_rel {
            let pc = code_va + r.inst_at as u64;
            let v = (data_va + u64::from(r.target)).wrapping_sub(pc) as u32;
            self.code[r.literal_at..r.literal_at + 4].copy_from_slice(&v.to_le_bytes());
            let text = format!("{v:#010x}");
            self.asm
                .replace_range(r.asm_at..r.asm_at + placeholder.len(), &text);
        }
    }
}

/// Compiles `f` for `target`.
pub fn compile(f: Function, target: Target) -> Result<Compiled> {
    // Scalar values raise SGPR pressure, and only lane masks spill: out
    // of SGPRs, compile again with every value in VGPRs.
    match compile_with(f.clone(), target, true) {
        Err(Error::OutOfRegisters {
            class: RegClass::Sgpr,
            ..
        }) => compile_with(f, target, false),
        other => other,
    }
}

fn compile_with(mut f: Function, target: Target, scalar_values: bool) -> Result<Compiled> {
    calls::prepare(&mut f, target)?;
    if f.callee.is_none() {
        init_flat_scratch(&mut f, target)?;
    }
    opt::forward_copies(&mut f);
    ifconv::convert(&mut f, target)?;
    hoist::constants(&mut f);
    if scalar_values {
        scalar::scalarize(&mut f, target)?;
    }
    let mut blocks = exec::lower(&mut f, target)?;
    opt::remove_dead(&mut blocks);
    calls::expand(&mut f, &mut blocks, target)?;
    let alloc = regalloc::allocate(&mut f, &mut blocks, target)?;
    #[cfg(debug_assertions)]
    verify::check(&f, &blocks, &alloc)?;
    let out = emit::emit(&f, &blocks, &alloc, target)?;
    Ok(Compiled {
        code: out.code,
        asm: out.asm,
        next_free_sgpr: alloc.next_free_sgpr,
        next_free_vgpr: alloc.next_free_vgpr,
        instructions: out.instructions,
        private_size: f.private_size,
        pc_rel: out.pc_rel,
        calls: out.calls,
        name: f.name.clone(),
    })
}

/// `FLAT_SCRATCH_LO/HI` (SGPR codes 102 and 103 on GFX9).
const FLAT_SCRATCH: u16 = 102;

/// Points `FLAT_SCRATCH` at the wave's scratch memory before anything
/// else runs (AMDGPUUsage, GFX9: `flat_scratch_init` plus the wave's
/// private segment offset), so that `scratch_*` and flat private accesses
/// work.
fn init_flat_scratch(f: &mut Function, target: Target) -> Result<()> {
    let Some(s) = f.scratch else {
        return Ok(());
    };
    let init = s.flat_scratch_init;
    let setup = [
        MInst::new(
            "s_add_u32",
            target,
            vec![
                Opnd::sgpr(FLAT_SCRATCH, 1),
                Opnd::sgpr(init, 1),
                Opnd::sgpr(s.wave_offset, 1),
            ],
        )?,
        MInst::new(
            "s_addc_u32",
            target,
            vec![
                Opnd::sgpr(FLAT_SCRATCH + 1, 1),
                Opnd::sgpr(init + 1, 1),
                Opnd::constant(0),
            ],
        )?,
    ];
    f.prologue.splice(0..0, setup);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_returning_atomics_define_nothing() {
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        let a = f.new_vreg(RegClass::Vgpr, 2);
        let d = f.new_vreg(RegClass::Vgpr, 1);
        let reg = |v, width| Opnd::Reg {
            reg: v,
            offset: 0,
            width,
        };
        let noret = MInst::new(
            "global_atomic_add",
            t,
            vec![reg(a, 2), reg(d, 1), Opnd::off()],
        )
        .unwrap();
        assert!(!noret.is_def(0) && !noret.is_def(1));
        let ret = MInst::new(
            "global_atomic_add",
            t,
            vec![reg(d, 1), reg(a, 2), reg(d, 1), Opnd::off()],
        )
        .unwrap();
        assert!(ret.is_def(0) && !ret.is_def(1));
        let read = MInst::new("ds_read_b32", t, vec![reg(d, 1), reg(d, 1)]).unwrap();
        assert!(read.is_def(0) && !read.is_def(1));
    }

    #[test]
    fn divergent_if_compiles_and_disassembles() {
        let t = Target::Gfx90a;
        let mut f = Function::new("k");
        let a = f.new_vreg(RegClass::Vgpr, 1);
        let c = f.new_vreg(RegClass::Vgpr, 1);
        f.live_in_vgprs.push(0);
        f.prologue.push(
            MInst::new(
                "v_mov_b32",
                t,
                vec![
                    Opnd::Reg {
                        reg: a,
                        offset: 0,
                        width: 1,
                    },
                    Opnd::vgpr(0, 1),
                ],
            )
            .unwrap(),
        );
        let b0 = f.add_block();
        let b1 = f.add_block();
        let b2 = f.add_block();
        let r = |v| Opnd::Reg {
            reg: v,
            offset: 0,
            width: 1,
        };
        f.blocks[b0]
            .insts
            .push(MInst::new("v_and_b32_e64", t, vec![r(c), r(a), Opnd::constant(1)]).unwrap());
        f.blocks[b0].term = Terminator::CondBr {
            cond: c,
            then: b1,
            otherwise: b2,
        };
        // Longer than an if-converted arm may be: lowered with masks.
        for _ in 0..=ifconv::MAX_ARM {
            f.blocks[b1]
                .insts
                .push(MInst::new("v_add_u32_e64", t, vec![r(a), r(a), Opnd::constant(5)]).unwrap());
        }
        f.blocks[b1].term = Terminator::Br(b2);
        let out = compile(f, t).unwrap();
        assert!(out.asm.contains("s_cbranch_execz"), "{}", out.asm);
        // Every instruction decodes back to what was printed.
        let printed: Vec<String> = amdgpu_isa::gfx9::disassemble(&out.code, t)
            .map(|r| amdgpu_isa::gfx9::print(&r.unwrap().1))
            .collect();
        assert_eq!(printed.len(), out.instructions);
        assert!(out.next_free_vgpr >= 1);
    }

    #[test]
    fn scratch_prologue_and_pc_relative_literals() {
        let t = Target::Gfx900;
        let mut f = Function::new("k");
        f.live_in_sgprs = vec![0, 1, 2];
        f.private_size = 16;
        f.scratch = Some(ScratchInputs {
            flat_scratch_init: 0,
            wave_offset: 2,
        });
        let p = f.new_vreg(RegClass::Sgpr, 2);
        let b = f.add_block();
        let d = |i| Opnd::Reg {
            reg: p,
            offset: i,
            width: 1,
        };
        let pc = Opnd::Reg {
            reg: p,
            offset: 0,
            width: 2,
        };
        let lit = Opnd::Fixed(amdgpu_isa::gfx9::Operand::Literal(emit::PC_REL_PLACEHOLDER));
        let mut add = MInst::new("s_add_u32", t, vec![d(0), d(0), lit]).unwrap();
        add.pc_rel = Some(8);
        f.blocks[b].insts = vec![
            MInst::new("s_getpc_b64", t, vec![pc]).unwrap(),
            add,
            MInst::new("s_addc_u32", t, vec![d(1), d(1), Opnd::constant(0)]).unwrap(),
            MInst::new("s_load_dword", t, vec![d(0), pc, Opnd::imm(0)]).unwrap(),
        ];
        let mut out = compile(f, t).unwrap();
        assert_eq!(out.private_size, 16);
        let first: Vec<&str> = out.asm.lines().take(2).collect();
        assert_eq!(
            first,
            [
                "\ts_add_u32 flat_scratch_lo, s0, s2",
                "\ts_addc_u32 flat_scratch_hi, s1, 0"
            ]
        );
        // The literal is data + 8 minus the s_add_u32's own address.
        let r = out.pc_rel[0];
        out.relocate(0x1000, 0x3000);
        let want = 0x3000 + 8 - (0x1000 + r.inst_at as u32);
        let got = u32::from_le_bytes(out.code[r.literal_at..r.literal_at + 4].try_into().unwrap());
        assert_eq!(got, want);
        assert!(out.asm.contains(&format!("{want:#010x}")), "{}", out.asm);
    }
}
