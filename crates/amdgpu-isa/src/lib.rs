//! AMD GPU target facts and machine code.
//!
//! Where this sits in hsakit's data flow:
//!
//! ```text
//!  AMDGPU asm ──parse_line──► Inst ──encode──► bytes ──► amdgpu-object (ELF)
//!                               ▲                │
//!               print (LLVM text)└──── decode ◄──┘──► amdgpu-emu dispatch
//! ```
//!
//! * [`target`]: every AMDGPU processor (AMDGPUUsage's processor table),
//!   its target features, wavefront sizes and `EF_AMDGPU_MACH` value;
//!   [`TargetId`] parse/print and `e_flags` encode/decode. Used by
//!   `amdgpu-object` for ELF headers and by everything that takes `-mcpu`.
//! * [`gfx9`]: the GFX9 (gfx900, gfx906, gfx90a, gfx942) instruction table —
//!   one definition per instruction, generated from LLVM's instruction
//!   inventory — driving [`gfx9::encode`], [`gfx9::decode`], the
//!   LLVM-syntax printer [`gfx9::print`] and the assembler-line parser
//!   [`gfx9::parse_line`]; bit-exact with LLVM 19 (`llvm-mc-19`,
//!   `llvm-objdump-19`), tested with oracle vectors in
//!   `data/amdgpu/vectors/<gfx>.tsv`.

pub mod gfx9;
pub mod target;

pub use target::{Feature, Generation, PROCESSORS, Processor, Setting, TargetError, TargetId};
