//! AMD GPU target facts and machine code.
//!
//! Where this sits in hsakit's data flow:
//!
//! ```text
//!  AMDGPU asm ──parse_line──► Inst ──encode──► bytes ──► amdgpu-object (ELF)
//!                              ▲                 │
//!          print (LLVM text) ◄─┴──── decode ◄────┴──► amdgpu-emu (dispatch on Inst::def)
//! ```
//!
//! * [`target`]: every AMDGPU processor (AMDGPUUsage's processor table plus
//!   LLVM 19's newer ones), its target features, wavefront sizes and
//!   `EF_AMDGPU_MACH` value; [`TargetId`] parse/print
//!   (`amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-`) and code object V3/V4+
//!   `e_flags` encode/decode. Used by `amdgpu-object` for ELF headers and by
//!   everything that takes `-mcpu`.
//! * [`gfx9`]: the GFX9 (gfx900, gfx904, gfx906, gfx908, gfx90a, gfx942, gfx9-generic) instruction table —
//!   one definition per instruction, generated from LLVM's instruction
//!   inventory and oracle encodings — driving the encoder, decoder,
//!   LLVM-syntax printer and assembler-line parser, bit-exact with LLVM 19
//!   (`llvm-mc-19`, `llvm-objdump-19`) on the oracle vectors in
//!   `data/amdgpu/vectors/`.

pub mod gfx9;
pub mod target;

pub use target::{Feature, Generation, PROCESSORS, Processor, Setting, TargetError, TargetId};
