//! HSAIL 1.0, the HSA intermediate language (HSA PRM 1.0, ch. 4–17, grammar ch. 19).
//!
//! Where it sits in the data flow:
//!
//! ```text
//!  HSAIL text ──lexer──► parser (syntax tree) ──lower──► BRIG bytes (crate `brig`)
//!                                                            │
//!  canonical HSAIL text ◄──────────── print ◄────────────────┘
//! ```
//!
//! [`assemble`] turns text into BRIG that is byte-identical to HSAILasm's;
//! [`disassemble`] turns any BRIG module into HSAILasm's canonical text.
//! Errors carry `file:line:col` (text) or section and byte offset (BRIG).

pub mod ast;
pub mod diag;
pub mod fuzz;
pub mod lexer;
pub mod lower;
pub mod ops;
pub mod parser;
pub mod print;
pub mod validate;

pub use diag::{Diagnostic, Diagnostics};
pub use lower::assemble;
pub use print::disassemble;
