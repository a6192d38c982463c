//! The HSA runtime over the emulated AMD GPU agent: a safe Rust API
//! modelled on the HSA Runtime Programmer's Reference Manual (v1.2) and
//! on ROCr, AMD's implementation of it.
//!
//! ```text
//!  System ── agents (GPU: the emulated processor, CPU: the host)
//!    │    └─ regions (fine-grained, coarse-grained, kernarg, group) → device memory
//!    ├── Executable::load(code object) → KernelInfo (kernel object, kernarg size…)
//!    ├── Signal (amd_signal_t in device memory; wait/notify)
//!    └── Queue (amd_queue_t + AQL ring) ── packet processor thread
//!              kernel dispatch → amdgpu_emu::Device::run
//!              barrier-AND / barrier-OR → signal waits
//! ```
//!
//! A typical dispatch, as an HSA application does it: load an executable,
//! look up the kernel, build the kernarg segment ([`KernargBuilder`]: the
//! explicit arguments, then the hidden ones from the metadata), copy it
//! into the [`Region::Kernarg`] region, create a completion [`Signal`] of
//! value 1, submit a [`DispatchPacket`], wait for the signal to reach 0,
//! and check [`Queue::error`]. [`Queue::dispatch`] does exactly that.
//!
//! Nothing here panics on bad input: malformed code objects, packets,
//! arguments and kernel faults come back as [`Error`] values.

pub mod cformat;
pub mod error;
pub mod executable;
pub mod kernarg;
pub mod packet;
pub mod printf;
pub mod queue;
pub mod signal;
pub mod system;

pub use amdgpu_emu::{DispatchError, Stats};
pub use error::{Error, Result};
pub use executable::{Executable, KernelInfo, Variable};
pub use kernarg::{Geometry, HiddenValues, KernargBuilder, describe_arg, fill_hidden_args};
pub use packet::{BarrierPacket, DispatchPacket, FenceScope, Header, PacketType};
pub use printf::{Formats as PrintfFormats, PrintfBuffer};
pub use queue::{DispatchRecord, Queue};
pub use signal::{Condition, Signal};
pub use system::{Agent, AgentKind, MachineModel, Region, Segment, System};
