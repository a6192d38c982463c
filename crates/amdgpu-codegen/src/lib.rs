//! The AMDGPU machine back end. It knows nothing of HSAIL: a front end
//! (the HSA finalizer) builds a [`Function`] of lane-level blocks over
//! virtual registers, and this crate makes machine code of it.
//!
//! ```text
//!  ir::Function (lane-level CFG, vregs)
//!      │ ifconv           small divergent if/else → straight-line code under EXEC
//!      │ exec::lower      divergent control flow → EXEC masks, wave-level blocks
//!      │ opt              dead vector ALU results removed
//!      │ regalloc         per-dword liveness, linear scan, aligned tuples
//!      │ verify           (debug builds) every read finds its vreg in place
//!      │ emit             physical operands, s_waitcnt, hazard s_nops
//!      ▼                  (hazard), branch fixups, encode / print
//!  Compiled { code, asm, register counts }
//! ```
//!
//! First slice: every value the front end computes lives in VGPRs (all
//! control flow is treated as divergent); SGPRs hold ABI inputs, scalar
//! loads and lane masks. No spilling yet.

pub mod emit;
pub mod exec;
pub mod hazard;
pub mod ifconv;
pub mod ir;
pub mod opt;
pub mod regalloc;
pub mod uniform;
pub mod verify;

pub use amdgpu_isa::gfx9::Target;
pub use ir::{Block, Function, MInst, Opnd, RegClass, Terminator, VReg, VRegInfo};

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
    /// Register allocation failed (spilling is not implemented yet).
    #[error("out of {class}s in function `{function}` (spilling is not implemented yet)")]
    OutOfRegisters {
        /// The class that ran out.
        class: RegClass,
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
}

/// Compiles `f` for `target`.
pub fn compile(mut f: Function, target: Target) -> Result<Compiled> {
    opt::forward_copies(&mut f);
    ifconv::convert(&mut f, target)?;
    let mut blocks = exec::lower(&mut f, target)?;
    opt::remove_dead(&mut blocks);
    let alloc = regalloc::allocate(&f, &blocks, target)?;
    #[cfg(debug_assertions)]
    verify::check(&f, &blocks, &alloc)?;
    let out = emit::emit(&f, &blocks, &alloc, target)?;
    Ok(Compiled {
        code: out.code,
        asm: out.asm,
        next_free_sgpr: alloc.next_free_sgpr,
        next_free_vgpr: alloc.next_free_vgpr,
        instructions: out.instructions,
    })
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
}
