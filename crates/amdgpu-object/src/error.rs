//! The crate's one error type. Every error about input bytes names the byte
//! offset in the file (or in the note/descriptor being decoded) where the
//! problem was found.

use thiserror::Error;

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The input ends before a structure it must contain.
    #[error("truncated {what}: need {needed} bytes, have {available} at offset {offset:#x}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Byte offset of the structure.
        offset: u64,
        /// Bytes needed.
        needed: u64,
        /// Bytes available from `offset`.
        available: u64,
    },
    /// A value that breaks the format's rules.
    #[error("{what} at offset {offset:#x}")]
    Malformed {
        /// Description of the problem.
        what: String,
        /// Byte offset of the offending value.
        offset: u64,
    },
    /// Valid ELF, but not something this crate handles.
    #[error("unsupported {what} at offset {offset:#x}")]
    Unsupported {
        /// Description.
        what: String,
        /// Byte offset.
        offset: u64,
    },
    /// Metadata that does not decode (msgpack or YAML).
    #[error("bad metadata: {what} at offset {offset:#x}")]
    Metadata {
        /// Description from the decoder.
        what: String,
        /// Byte offset of the note descriptor holding the metadata.
        offset: u64,
    },
    /// A kernel descriptor the LLVM disassembler would reject.
    #[error("{what} at offset {offset:#x}")]
    KernelDescriptor {
        /// LLVM's message, e.g. `kernel descriptor reserved bits in range (95:64) set`.
        what: String,
        /// Byte offset of the descriptor.
        offset: u64,
    },
    /// Inputs to the writer that cannot be laid out.
    #[error("cannot write code object: {what}")]
    Write {
        /// Description.
        what: String,
    },
}

impl Error {
    /// Shorthand for [`Error::Malformed`].
    pub fn malformed(what: impl Into<String>, offset: u64) -> Error {
        Error::Malformed {
            what: what.into(),
            offset,
        }
    }

    /// The byte offset the error refers to, if any.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Truncated { offset, .. }
            | Error::Malformed { offset, .. }
            | Error::Unsupported { offset, .. }
            | Error::Metadata { offset, .. }
            | Error::KernelDescriptor { offset, .. } => Some(*offset),
            Error::Write { .. } => None,
        }
    }
}
