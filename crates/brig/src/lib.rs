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

/// Numeric ordering and conversions for a newtype over little-endian bytes
/// (an enum, mask or section offset): `$raw` reads the value, `new` makes
/// one. Ordering is by value, which deriving over the bytes would not give.
macro_rules! numeric_value_impls {
    ($name:ident, $repr:ty, $raw:ident) => {
        impl PartialOrd for $name {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $name {
            #[inline]
            fn cmp(&self, other: &Self) -> core::cmp::Ordering {
                self.$raw().cmp(&other.$raw())
            }
        }
        impl From<$repr> for $name {
            #[inline]
            fn from(v: $repr) -> Self {
                Self::new(v)
            }
        }
        impl From<$name> for $repr {
            #[inline]
            fn from(v: $name) -> $repr {
                v.$raw()
            }
        }
    };
}

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
