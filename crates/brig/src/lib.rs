//! BRIG 1.0, the binary form of HSAIL (HSA PRM 1.0, chapter 18).
//!
//! BRIG is hsakit's interchange format, as it is in the PRM and in
//! HSAILasm: the assembler turns HSAIL text into BRIG, and everything after
//! it — printer, validator, finalizer — reads BRIG through the zero-copy,
//! random-access reader of this crate.
//!
//! ```text
//!  HSAIL text ──hsail (parser)──► BrigWriter ──► BRIG bytes ◄── other producers
//!                                                   │
//!                                            BrigModule::parse
//!                                                   │
//!              hsail::print · hsail::validate · hsail-finalizer · brig::dump
//! ```
//!
//! * [`enums`]: every enumeration and mask of §18.3 as a transparent newtype
//!   over the spec's integer (unknown values stay representable), with
//!   spec-named consts (`BrigOpcode::ADD`) usable in patterns.
//! * [`entries`]: every entry struct of §18.3–§18.6, named as in the PRM, as
//!   `#[repr(C)]` zerocopy views usable at any offset; typed section offsets
//!   [`DataOffset`], [`CodeOffset`], [`OperandOffset`].
//! * [`read`]: [`BrigModule::parse`] validates the container and every entry
//!   walk once; accessors return [`Code`]/[`Operand`] views or a
//!   [`BrigError`] naming the section and offset. Never panics.
//! * [`write`](mod@write): [`BrigWriter`] lays a module out byte-for-byte as HSAILasm
//!   does (section headers, `hsa_data` sharing rules, padding).
//! * [`dump`]: an annotated one-line-per-entry listing for diffing modules.
//! * [`fuzz`]: fuzz entry points, smoke-tested under `cargo test`.

pub mod dump;
pub mod entries;
pub mod enums;
pub mod fuzz;
pub mod read;
pub mod write;

pub use entries::*;
pub use enums::*;
pub use read::{BrigError, BrigModule, BrigSection, Code, Operand};
pub use write::BrigWriter;
