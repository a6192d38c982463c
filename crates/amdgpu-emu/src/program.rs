//! Loaded machine code, decoded once per instruction address on first
//! execution and shared by every wave and thread.

use std::sync::OnceLock;

use amdgpu_isa::gfx9::{Target, decode_at};

use crate::exec::{Decoded, FaultKind, prepare};

/// A range of machine code at a device address.
#[derive(Debug)]
pub struct Program {
    base: u64,
    code: Vec<u8>,
    target: Target,
    cache: Box<[OnceLock<Result<Decoded, String>>]>,
}

impl Program {
    /// Code `code` loaded at device address `base` (4-byte aligned), for `target`.
    pub fn new(base: u64, code: Vec<u8>, target: Target) -> Program {
        let slots = code.len().div_ceil(4);
        Program {
            base,
            code,
            target,
            cache: (0..slots).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Device address of the first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The code bytes.
    pub fn code(&self) -> &[u8] {
        &self.code
    }

    /// The target the code is decoded for.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether `pc` lies in this program.
    pub fn contains(&self, pc: u64) -> bool {
        pc >= self.base && pc - self.base < self.code.len() as u64
    }

    /// The instruction at `pc`, decoded.
    #[inline]
    pub fn fetch(&self, pc: u64) -> Result<&Decoded, FaultKind> {
        let off = pc.wrapping_sub(self.base);
        if !off.is_multiple_of(4) || off >= self.code.len() as u64 {
            return Err(FaultKind::Illegal(format!(
                "program counter {pc:#x} outside the loaded code {:#x}..{:#x}",
                self.base,
                self.base + self.code.len() as u64
            )));
        }
        let slot = &self.cache[(off / 4) as usize];
        let entry = slot.get_or_init(|| {
            decode_at(&self.code, off as usize, self.target)
                .map(|(inst, len)| prepare(inst, len))
                .map_err(|e| e.to_string())
        });
        entry.as_ref().map_err(|e| FaultKind::Illegal(e.clone()))
    }
}
