//! The machine IR: virtual registers (SGPR/VGPR class, 1–4 dwords),
//! instructions naming an `amdgpu-isa` table row, and lane-level basic
//! blocks whose terminators ([`Terminator`]) say where each *lane* goes.
//! [`crate::exec`] turns the lane-level CFG into wave-level machine blocks.

use std::fmt;

use amdgpu_isa::gfx9::{InstDef, Modifiers, Operand, Target};

use crate::{Error, Result};

/// Register class of a virtual register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// Scalar (wave-uniform) registers.
    Sgpr,
    /// Vector (per-lane) registers.
    Vgpr,
}

impl fmt::Display for RegClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RegClass::Sgpr => "SGPR",
            RegClass::Vgpr => "VGPR",
        })
    }
}

/// A virtual register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// Class and width of a virtual register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VRegInfo {
    /// Class.
    pub class: RegClass,
    /// Width in dwords (1, 2 or 4).
    pub width: u8,
}

/// An operand of a machine instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opnd {
    /// Dwords `offset..offset + width` of a virtual register.
    Reg {
        /// The register.
        reg: VReg,
        /// First dword.
        offset: u8,
        /// Dwords.
        width: u8,
    },
    /// A fixed machine operand: a physical register (`exec`, `vcc`, an ABI
    /// input register), a constant, an immediate field or `off`.
    Fixed(Operand),
    /// A branch target: a machine block index (after EXEC lowering).
    Label(usize),
}

impl Opnd {
    /// A 32-bit constant: an inline constant when the value is one
    /// (-16..=64, or the bits of an f32 inline constant), else a literal (only VOP1/VOP2/SOP instructions take
    /// literals on GFX9).
    pub fn constant(v: u32) -> Opnd {
        Opnd::Fixed(inline_or_literal(v))
    }

    /// The first `width` dwords of virtual register `reg`.
    pub fn vreg(reg: VReg, width: u8) -> Opnd {
        Opnd::Reg {
            reg,
            offset: 0,
            width,
        }
    }

    /// An immediate field (SMEM offset, `s_waitcnt` value).
    pub fn imm(v: i64) -> Opnd {
        Opnd::Fixed(Operand::Imm(v))
    }

    /// `exec`.
    pub fn exec() -> Opnd {
        Opnd::Fixed(Operand::Src {
            code: 126,
            width: 2,
        })
    }

    /// `vcc`.
    pub fn vcc() -> Opnd {
        Opnd::Fixed(Operand::Src {
            code: 106,
            width: 2,
        })
    }

    /// Physical SGPR tuple `s[n:n+width-1]`.
    pub fn sgpr(n: u16, width: u8) -> Opnd {
        Opnd::Fixed(Operand::Src { code: n, width })
    }

    /// Physical VGPR tuple `v[n:n+width-1]`.
    pub fn vgpr(n: u16, width: u8) -> Opnd {
        Opnd::Fixed(Operand::Src {
            code: 256 + n,
            width,
        })
    }

    /// `off`.
    pub fn off() -> Opnd {
        Opnd::Fixed(Operand::Off)
    }

    /// Whether this is a constant (inline or literal), not a register.
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            Opnd::Fixed(Operand::Literal(_))
                | Opnd::Fixed(Operand::Src {
                    code: 128..=254,
                    ..
                })
        )
    }

    /// Whether this is a literal constant.
    pub fn is_literal(&self) -> bool {
        matches!(self, Opnd::Fixed(Operand::Literal(_)))
    }
}

/// The operand for a 32-bit constant: inline when possible.
pub fn inline_or_literal(v: u32) -> Operand {
    let s = v as i32;
    if (0..=64).contains(&s) {
        Operand::Src {
            code: 128 + s as u16,
            width: 1,
        }
    } else if (-16..0).contains(&s) {
        Operand::Src {
            code: (192 - s) as u16,
            width: 1,
        }
    } else if let Some(i) = FLOAT_INLINE.iter().position(|&b| b == v) {
        // 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi) as f32 bits.
        Operand::Src {
            code: 240 + i as u16,
            width: 1,
        }
    } else {
        Operand::Literal(v)
    }
}

/// Bit patterns of the f32 inline constants (source codes 240..=248).
const FLOAT_INLINE: [u32; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];

/// A machine instruction over virtual registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MInst {
    /// The table row.
    pub def: &'static InstDef,
    /// Operands in assembly order.
    pub ops: Vec<Opnd>,
    /// Modifiers (offsets, cache bits, …).
    pub mods: Modifiers,
    /// A PC-relative literal: the instruction (an `s_add_u32` right after
    /// an `s_getpc_b64`) takes, as its literal, the distance from its own
    /// address to byte `target` of the data segment, filled in by
    /// [`crate::Compiled::relocate`] once the code object is laid out.
    pub pc_rel: Option<u32>,
    /// A link-time operand of the internal call ABI (see [`crate::calls`]).
    pub link: Option<Link>,
}

/// Operands known only once the compile unit is allocated or laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// On the call pseudo-instruction (`s_swappc_b64`, see
    /// [`crate::calls`]): a call to function `k` of the compile unit; on
    /// the `s_add_u32` after an `s_getpc_b64` its expansion makes, a
    /// PC-relative literal to that function's entry.
    Callee(u32),
    /// The instruction's [`FRAME_PLACEHOLDER`] literal becomes the
    /// function's final frame size (its private bytes after spilling).
    FrameSize,
}

/// The literal an instruction marked [`Link::FrameSize`] is built with.
pub const FRAME_PLACEHOLDER: u32 = 0x0f4a_3e00;

impl MInst {
    /// An instruction by LLVM mnemonic or printed name.
    pub fn new(mnemonic: &str, target: Target, ops: Vec<Opnd>) -> Result<MInst> {
        let def = InstDef::find(mnemonic, target).ok_or_else(|| Error::UnknownInstruction {
            mnemonic: mnemonic.to_string(),
            target: target.name(),
        })?;
        Ok(MInst {
            def,
            ops,
            mods: Modifiers::defaults_for(def),
            pc_rel: None,
            link: None,
        })
    }

    /// Whether operand `i` is written (its role is `vdst`/`sdst`/`sdata`
    /// of a load).
    /// Optional roles (`vdst:opt` of FLAT atomics) that are absent from
    /// `ops` do not count.
    pub fn is_def(&self, i: usize) -> bool {
        let roles = || self.def.operands.iter().filter(|r| !r.is_empty());
        let all = roles().count();
        let role = if self.ops.len() < all {
            roles().filter(|r| !r.split(':').any(|p| p == "opt")).nth(i)
        } else {
            roles().nth(i)
        };
        role.is_some_and(|r| r.starts_with("vdst") || r.starts_with("sdst"))
    }

    /// Whether this is the call pseudo-instruction of [`crate::calls`].
    pub fn is_call(&self) -> bool {
        matches!(self.link, Some(Link::Callee(_))) && self.def.mnemonic == "s_swappc_b64"
    }

    /// Whether this is a SOPP branch (its operand is a label).
    pub fn is_branch(&self) -> bool {
        self.def.mnemonic == "s_branch" || self.def.mnemonic.starts_with("s_cbranch_")
    }
}

/// Where each lane goes after a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminator {
    /// The lane finishes.
    Ret,
    /// The lane goes to a block.
    Br(usize),
    /// The lane goes to `then` if its value of `cond` (a 1-dword VGPR) is
    /// nonzero, else to `otherwise`.
    CondBr {
        /// The condition.
        cond: VReg,
        /// Target when nonzero.
        then: usize,
        /// Target when zero.
        otherwise: usize,
    },
}

/// A lane-level basic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Straight-line instructions (no branches).
    pub insts: Vec<MInst>,
    /// Where each lane goes next.
    pub term: Terminator,
}

/// A kernel in machine IR, before EXEC lowering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Kernel symbol name (used for labels and errors).
    pub name: String,
    /// Virtual registers.
    pub vregs: Vec<VRegInfo>,
    /// Instructions run once with the wave's initial EXEC before block 0
    /// (copies of the ABI input registers).
    pub prologue: Vec<MInst>,
    /// Lane-level blocks; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// Physical SGPRs holding inputs at wave start (kept free until their
    /// last reference).
    pub live_in_sgprs: Vec<u16>,
    /// Physical VGPRs holding inputs at wave start.
    pub live_in_vgprs: Vec<u16>,
    /// Bytes of private (scratch) memory per work-item the function's
    /// own variables take; a register spiller appends its slots after them.
    pub private_size: u32,
    /// Where the scratch inputs arrive, when the kernel uses scratch.
    pub scratch: Option<ScratchInputs>,
    /// VGPRs live for the whole function whatever their uses say (the
    /// lanes SGPRs are spilled to: `v_writelane` writes lanes EXEC does not
    /// cover, so lane-path liveness does not apply to them).
    pub pinned: Vec<VReg>,
    /// A function called with `s_swappc_b64` rather than a kernel (see
    /// [`crate::calls`]): the stack size limit in bytes (the stack pointer
    /// plus the frame may not pass it).
    pub callee: Option<u32>,
    /// The function's index in its compile unit (see [`crate::link`]).
    pub unit: u32,
    /// Whether the function makes calls (set by [`crate::calls::prepare`]).
    pub makes_calls: bool,
    /// Instructions run when the function is done instead of `s_endpgm`
    /// (a callee's return; set by [`crate::calls`]).
    pub epilogue: Vec<MInst>,
}

/// The ABI inputs that locate a wave's scratch memory (GFX9 without
/// architected flat scratch: AMDGPUUsage "Flat Scratch").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScratchInputs {
    /// First of the two user SGPRs holding `flat_scratch_init` (the
    /// dispatch's scratch base).
    pub flat_scratch_init: u16,
    /// The system SGPR holding the wave's private segment byte offset.
    pub wave_offset: u16,
}

impl Function {
    /// An empty function.
    pub fn new(name: &str) -> Function {
        Function {
            name: name.to_string(),
            vregs: Vec::new(),
            prologue: Vec::new(),
            blocks: Vec::new(),
            live_in_sgprs: Vec::new(),
            live_in_vgprs: Vec::new(),
            private_size: 0,
            scratch: None,
            pinned: Vec::new(),
            callee: None,
            makes_calls: false,
            unit: 0,
            epilogue: Vec::new(),
        }
    }

    /// A new virtual register.
    pub fn new_vreg(&mut self, class: RegClass, width: u8) -> VReg {
        self.vregs.push(VRegInfo { class, width });
        VReg(self.vregs.len() as u32 - 1)
    }

    /// Class and width of `r`.
    pub fn info(&self, r: VReg) -> VRegInfo {
        self.vregs[r.0 as usize]
    }

    /// A new block ending in `ret`, returning its index.
    pub fn add_block(&mut self) -> usize {
        self.blocks.push(Block {
            insts: Vec::new(),
            term: Terminator::Ret,
        });
        self.blocks.len() - 1
    }
}
