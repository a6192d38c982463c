//! The runtime's one error type.
//!
//! Each variant corresponds to an `hsa_status_t` family of the HSA Runtime
//! specification (noted per variant), but carries a message that names
//! the offending value, so callers can print it as is.

use amdgpu_emu::{DispatchError, LoadError, MemFault};

/// Result with the runtime's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the runtime. Cloneable, so a queue can
/// keep the error that stopped it and hand out copies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An argument is out of range or malformed
    /// (`HSA_STATUS_ERROR_INVALID_ARGUMENT`).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The processor name is unknown or not emulated
    /// (`HSA_STATUS_ERROR_INVALID_AGENT`).
    #[error("{0}")]
    Agent(String),
    /// Device memory is exhausted or a size exceeds a limit
    /// (`HSA_STATUS_ERROR_OUT_OF_RESOURCES`).
    #[error("out of resources: {0}")]
    OutOfResources(String),
    /// A host access to device memory failed.
    #[error("memory access failed: {0}")]
    Memory(#[from] MemFault),
    /// The code object cannot be loaded
    /// (`HSA_STATUS_ERROR_INVALID_CODE_OBJECT`).
    #[error("cannot load code object: {0}")]
    Load(#[from] LoadError),
    /// The code object was built for another processor or target features
    /// (`HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS` / `INVALID_ISA`).
    #[error("code object for `{object}` cannot run on agent `{agent}`")]
    IncompatibleIsa {
        /// Target ID of the code object.
        object: String,
        /// Target ID of the agent.
        agent: String,
    },
    /// No kernel (or variable) of that name in the executable
    /// (`HSA_STATUS_ERROR_INVALID_SYMBOL_NAME`).
    #[error("no {what} named `{name}` in the code object (it has: {available})")]
    SymbolNotFound {
        /// "kernel" or "variable".
        what: &'static str,
        /// The name asked for.
        name: String,
        /// What exists, comma-separated.
        available: String,
    },
    /// The explicit kernel arguments do not match the kernel's metadata.
    #[error("kernel `{kernel}`: {message}")]
    KernelArgument {
        /// Kernel name.
        kernel: String,
        /// What is wrong, naming the argument.
        message: String,
    },
    /// The packet processor rejected a packet; the queue is inactive
    /// (`HSA_STATUS_ERROR_INVALID_PACKET_FORMAT` and friends).
    #[error("invalid AQL packet at index {index}: {reason}")]
    InvalidPacket {
        /// Packet index (dispatch ID).
        index: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// A kernel faulted; the queue is inactive
    /// (`HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION`, `…_ILLEGAL_INSTRUCTION`, …).
    #[error("kernel fault: {0}")]
    Fault(#[from] DispatchError),
    /// The queue stopped on an earlier error and processes no more packets.
    #[error("queue is inactive after an earlier error: {0}")]
    QueueInactive(Box<Error>),
    /// A wait ran out of time.
    #[error("timed out after {0:?}")]
    Timeout(std::time::Duration),
}
