//! The emulated AMD GPU agent: functional wave64 emulation of GFX9 machine
//! code (gfx900, gfx906, gfx908, gfx90a, gfx942), bit-exact with the ISA.
//!
//! ```text
//!  hsa-runtime (loader, AQL packet processor)
//!        │ Launch: code, entry, WaveLayout (amdgpu-object::abi), grid, kernarg…
//!        ▼
//!  dispatch ── work-groups over host threads ──► waves (wave::Wave)
//!        │                                          │ program::Program::fetch (decode once)
//!        ▼                                          ▼
//!  memory::Memory (device memory, faults)     exec::<family> (one fn per instruction)
//! ```
//!
//! It knows nothing of HSAIL: it runs code objects, whoever made them.
//! Faults (out-of-bounds accesses, illegal or unimplemented instructions,
//! traps, runaway waves) end the dispatch with a [`DispatchError`] naming
//! the kernel, work-group, wave, PC and instruction; the process goes on.

pub mod dispatch;
pub mod exec;
pub mod fuzz;
pub mod image;
pub mod memory;
pub mod program;
pub mod testing;
pub mod wave;

pub use dispatch::{Device, DispatchError, Launch, Stats, initial_mode};
pub use exec::FaultKind;
pub use image::{Image, LoadError, LoadedKernel};
pub use memory::{MemFault, MemView, Memory};
pub use program::Program;
pub use wave::Wave;
