//! Instruction semantics, one module per encoding family (AMD "Vega"
//! Instruction Set Architecture reference, ch. 4–12), one function per
//! instruction whose doc line states what it computes.
//!
//! Each instruction is decoded once per code address ([`crate::program`])
//! into a [`Decoded`]: the `amdgpu-isa` instruction plus the [`Exec`]
//! function that carries it out, chosen here by the instruction's
//! [`Op`]. The `_e32`, `_e64`, `_dpp` and `_sdwa` forms of one VALU
//! instruction share a function: their operands come in the same order,
//! and the shared source readers in [`valu`] apply the DPP, SDWA and VOP3
//! modifiers of the form at hand.

use amdgpu_isa::gfx9::{Inst, InstDef, Op, Target};

use crate::memory::{MemFault, MemView};
use crate::wave::Wave;

pub mod ds;
pub mod flat;
pub mod float;
pub mod fp;
pub mod mubuf;
pub mod smem;
pub mod sop;
pub mod trig;
pub mod valu;
pub mod vop3p;
pub mod vopc;

/// Carries out one instruction on a wave. `wave.pc` already points at the
/// next instruction.
pub type Exec = fn(&mut Wave, &Decoded, &mut Ctx<'_>) -> Result<(), FaultKind>;

/// A decoded instruction, ready to execute.
#[derive(Debug)]
pub struct Decoded {
    /// The instruction.
    pub inst: Inst,
    /// Its length in bytes.
    pub len: u32,
    /// Its semantics.
    pub exec: Exec,
    /// The base instruction whose semantics the form has (`V_ADD_F32` for
    /// `v_add_f32_e64`, `_dpp` and `_sdwa`).
    pub base: Op,
    /// Index of the first source operand (after `vdst`, `sdst`, `vcc`):
    /// source `k` is operand `first_src + k`, and bit `k` of the `neg`,
    /// `abs`, `sext` and `op_sel` modifiers refers to it.
    pub first_src: usize,
}

impl Decoded {
    /// Operand `i` (in assembly order). Panics never: a missing operand is
    /// read as `off`.
    #[inline]
    pub fn op(&self, i: usize) -> &amdgpu_isa::gfx9::Operand {
        const OFF: amdgpu_isa::gfx9::Operand = amdgpu_isa::gfx9::Operand::Off;
        self.inst.operands.get(i).unwrap_or(&OFF)
    }

    /// Source operand `k` (0 = src0).
    #[inline]
    pub fn src_op(&self, k: usize) -> &amdgpu_isa::gfx9::Operand {
        self.op(self.first_src + k)
    }
}

/// What an executing instruction can reach besides its wave.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// Global memory (this thread's view).
    pub mem: &'a MemView,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// The target.
    pub target: Target,
    /// Per-dispatch facts.
    pub dispatch: &'a DispatchFacts,
}

/// Facts of the running dispatch instructions may need.
#[derive(Debug, Clone, Default)]
pub struct DispatchFacts {
    /// Private segment bytes per work-item (scratch swizzle stride).
    pub private_segment_size: u32,
    /// Base of the dispatch's scratch allocation (0: none): the private
    /// segment buffer's base address.
    pub scratch_base: u64,
    /// Monotonic clock base for `s_memtime`/`s_memrealtime`.
    pub start: Option<std::time::Instant>,
}

impl DispatchFacts {
    /// Private bytes each work-item can address: scratch is allocated per
    /// wave in 1 KiB granules of 64 interleaved lanes, so the private
    /// segment size rounded up to 16.
    pub fn private_limit(&self) -> u64 {
        u64::from(self.private_segment_size).next_multiple_of(16)
    }
}

/// Why a wave stopped abnormally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// A global, flat or scratch access outside any allocation, or a
    /// misaligned atomic.
    Memory(MemFault),
    /// An LDS access outside the work-group's allocation.
    Lds {
        /// Byte address in LDS.
        addr: u64,
        /// Bytes accessed.
        len: u64,
        /// LDS bytes allocated to the work-group.
        size: u64,
    },
    /// A private (scratch) access past the work-item's private memory:
    /// on the hardware it would reach another wave's scratch (or another
    /// lane's, for MUBUF) without a fault, so the emulator reports it.
    Private {
        /// Byte offset in the work-item's private memory.
        offset: u64,
        /// Bytes accessed.
        len: u64,
        /// Private bytes each work-item has (the dispatch's private segment
        /// size rounded up to the 16-byte granule of scratch allocation).
        size: u64,
    },
    /// The bytes at PC do not decode.
    Illegal(String),
    /// The emulator does not implement this instruction.
    Unimplemented(&'static str),
    /// `s_trap` with this trap ID.
    Trap(u16),
    /// The wave ran more instructions than the watchdog allows.
    Watchdog(u64),
    /// The wave's instructions plus its `s_sleep` time (64 clocks per
    /// unit, counted as instructions) reached the watchdog: a spin-wait
    /// that never ends.
    SpinWatchdog {
        /// Instructions executed.
        instructions: u64,
        /// `s_sleep` instructions executed.
        sleeps: u64,
    },
    /// Something else the instruction cannot do (named).
    Other(String),
}

/// The trap ID the finalizer's call stack check raises
/// (`amdgpu_codegen::calls::STACK_OVERFLOW_TRAP`).
pub const STACK_OVERFLOW_TRAP: u16 = 0x5c;

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultKind::Memory(m) => write!(f, "memory fault: {m}"),
            FaultKind::Lds { addr, len, size } => write!(
                f,
                "LDS fault: {len}-byte access at LDS address {addr:#x} outside the work-group's {size} bytes"
            ),
            FaultKind::Private { offset, len, size } => write!(
                f,
                "private memory fault: {len}-byte access at private offset {offset:#x} outside the work-item's {size} bytes"
            ),
            FaultKind::Illegal(e) => write!(f, "illegal instruction: {e}"),
            FaultKind::Unimplemented(name) => {
                write!(f, "instruction `{name}` is not implemented by the emulator")
            }
            FaultKind::Trap(STACK_OVERFLOW_TRAP) => write!(
                f,
                "s_trap {STACK_OVERFLOW_TRAP}: call stack overflow (the finalizer's stack check: calls went deeper than the kernel's private segment holds)"
            ),
            FaultKind::Trap(id) => write!(f, "s_trap {id}"),
            FaultKind::Watchdog(n) => {
                write!(f, "watchdog: wave ran {n} instructions without ending")
            }
            FaultKind::SpinWatchdog {
                instructions,
                sleeps,
            } => write!(
                f,
                "watchdog: wave ran {instructions} instructions and {sleeps} `s_sleep`s without \
                 ending (a spin-wait nothing satisfies, e.g. an fbarrier a member never reaches)"
            ),
            FaultKind::Other(s) => f.write_str(s),
        }
    }
}

impl From<MemFault> for FaultKind {
    fn from(m: MemFault) -> Self {
        FaultKind::Memory(m)
    }
}

/// Fallback for instructions no family implements.
fn unimplemented(_: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> Result<(), FaultKind> {
    Err(FaultKind::Unimplemented(d.inst.def.name))
}

/// The base instruction of a VALU form: `v_add_f32_e64`, `v_add_f32_dpp`
/// and `v_add_f32_sdwa` → `v_add_f32`.
pub fn base_op(def: &InstDef, target: Target) -> Op {
    let m = def.mnemonic;
    for suffix in ["_e32", "_e64", "_dpp", "_sdwa"] {
        if let Some(stem) = m.strip_suffix(suffix)
            && let Some(base) = InstDef::find(stem, target)
        {
            return base.op;
        }
    }
    def.op
}

/// The function that carries out `op` (a base op, see [`base_op`]).
pub fn lookup(op: Op) -> Option<Exec> {
    sop::lookup(op)
        .or_else(|| smem::lookup(op))
        .or_else(|| valu::lookup(op))
        .or_else(|| vopc::lookup(op))
        .or_else(|| float::lookup(op))
        .or_else(|| trig::lookup(op))
        .or_else(|| vop3p::lookup(op))
        .or_else(|| ds::lookup(op))
        .or_else(|| flat::lookup(op))
        .or_else(|| mubuf::lookup(op))
}

/// Wraps a decoded instruction with its semantics.
pub fn prepare(inst: Inst, len: usize) -> Decoded {
    let base = base_op(inst.def, inst.target);
    let exec = lookup(base).unwrap_or(unimplemented);
    let first_src = inst
        .def
        .operands
        .iter()
        .position(|r| !matches!(r.split(':').next(), Some("vdst" | "sdst" | "vcc")))
        .unwrap_or(inst.def.operands.len());
    Decoded {
        inst,
        len: len as u32,
        exec,
        base,
        first_src,
    }
}
