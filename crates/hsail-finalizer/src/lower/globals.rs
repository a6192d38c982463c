//! `global` and `readonly` variables defined in the module (module or
//! kernel scope): one copy per code object, in its writable `.data`
//! section, with the initializer's bytes (zeros without one). Code finds
//! a variable PC-relative, as clang does for globals:
//!
//! ```text
//! s_getpc_b64 s[p:p+1]              ; address of the next instruction
//! s_add_u32   s[p], s[p], <.data + offset - that address>
//! s_addc_u32  s[p+1], s[p+1], 0     ; .data comes after .text
//! ```
//!
//! the literal filled in by [`amdgpu_codegen::Compiled::relocate`] once
//! the code object is laid out.

use std::collections::HashMap;

use amdgpu_codegen::emit::PC_REL_PLACEHOLDER;
use amdgpu_codegen::{Opnd, VReg};
use amdgpu_isa::gfx9::Operand;
use brig::{BrigDirectiveVariable, BrigModule, BrigSegment};
use hsail::validate::{ModuleInfo, SymbolKind};

use super::ldst::{Addr, Mem};
use super::{Cx, Src, dw, pair, r};
use crate::{Error, Locator, Result};

/// The most bytes of global and readonly variables a module may define
/// (they are stored in the code object).
const MAX_DATA: u64 = 1 << 28;

/// The module's global and readonly variables.
#[derive(Debug, Clone, Default)]
pub(crate) struct ModuleData {
    /// Variable directive (definitions and the declarations naming them)
    /// → byte offset in [`ModuleData::bytes`].
    pub offsets: HashMap<u32, u32>,
    /// Initial contents of `.data`.
    pub bytes: Vec<u8>,
    /// Alignment of `.data`.
    pub align: u32,
}

/// Lays out every global and readonly variable the module defines.
pub(crate) fn module_data(
    m: &BrigModule<'_>,
    info: &ModuleInfo,
    loc: &Locator<'_>,
) -> Result<ModuleData> {
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
    let mut d = ModuleData {
        align: 1,
        ..ModuleData::default()
    };
    let syms = info
        .symbols
        .iter()
        .chain(info.code_blocks.iter().flat_map(|cb| &cb.locals))
        .filter(|s| s.kind == SymbolKind::Variable);
    let in_data = |v: &BrigDirectiveVariable| {
        matches!(v.segment, BrigSegment::GLOBAL | BrigSegment::READONLY)
    };
    for s in syms.clone().filter(|s| s.is_definition) {
        let v: &BrigDirectiveVariable = m.code_as(s.offset).map_err(brig_err)?;
        if !in_data(v) {
            continue;
        }
        let unsupported = |what: String| loc.unsupported(what, s.offset.get());
        let Some(size) = v.type_.byte_size() else {
            return Err(unsupported(format!(
                "variable `{}` of type {:?}",
                s.name, v.type_
            )));
        };
        let count = if v.type_.is_array() { v.dim.get() } else { 1 };
        let bytes = u64::from(size).saturating_mul(count);
        let align = v.align.bytes().unwrap_or(1).max(size);
        let at = (d.bytes.len() as u64).next_multiple_of(u64::from(align));
        if at.saturating_add(bytes) > MAX_DATA {
            return Err(unsupported(format!(
                "variable `{}` of {bytes} bytes",
                s.name
            )));
        }
        d.bytes.resize((at + bytes) as usize, 0);
        d.align = d.align.max(align);
        d.offsets.insert(s.offset.get(), at as u32);
        if v.init.get() != 0 {
            let mut init = Vec::new();
            if !initializer(m, v.init, &mut init) {
                return Err(unsupported(format!(
                    "the initializer of `{}` (constants and aggregates of constants only)",
                    s.name
                )));
            }
            let n = init.len().min(bytes as usize);
            d.bytes[at as usize..at as usize + n].copy_from_slice(&init[..n]);
        }
    }
    if d.bytes.is_empty() && !d.offsets.is_empty() {
        // Only empty variables: still a .data section for their address.
        d.bytes.push(0);
    }
    for s in syms.filter(|s| !s.is_definition) {
        if let Some(at) = s
            .definition
            .and_then(|def| d.offsets.get(&def.get()).copied())
        {
            d.offsets.insert(s.offset.get(), at);
        }
    }
    Ok(d)
}

/// Appends the bytes of an initializer (a constant, or an aggregate of
/// constants and `align(n)` paddings) to `out`; false for anything else
/// (image, sampler handles).
fn initializer(m: &BrigModule<'_>, o: brig::OperandOffset, out: &mut Vec<u8>) -> bool {
    match m.operand(o) {
        Ok(brig::Operand::ConstantBytes(c)) => match m.data_bytes(c.bytes) {
            Ok(b) => {
                out.extend_from_slice(b);
                true
            }
            Err(_) => false,
        },
        Ok(brig::Operand::Align(a)) => {
            let n = a.align.bytes().unwrap_or(1) as usize;
            out.resize(out.len().next_multiple_of(n), 0);
            true
        }
        Ok(brig::Operand::ConstantOperandList(l)) => match m.operand_list(l.elements) {
            Ok(elements) => elements.iter().all(|&e| initializer(m, e, out)),
            Err(_) => false,
        },
        _ => false,
    }
}

impl Cx<'_> {
    /// The address of a module-defined global or readonly variable plus a
    /// register and an offset, as a VGPR pair.
    pub(super) fn global_var_addr(
        &mut self,
        sym: u32,
        reg: Option<(VReg, bool)>,
        off: i64,
        what: &str,
    ) -> Result<Addr> {
        let Some(&at) = self.globals.get(&sym) else {
            return Err(self.unsupported(format!(
                "{what}: a variable that is not a global or readonly variable defined in the module"
            )));
        };
        let p = self.stemp(2);
        self.emit("s_getpc_b64", vec![pair(p)])?;
        let mut add = self.minst(
            "s_add_u32",
            vec![
                dw(p, 0),
                dw(p, 0),
                Opnd::Fixed(Operand::Literal(PC_REL_PLACEHOLDER)),
            ],
        )?;
        add.pc_rel = Some(at);
        self.emit_inst(add);
        self.emit("s_addc_u32", vec![dw(p, 1), dw(p, 1), Opnd::constant(0)])?;
        let v = self.vtemp(2);
        self.emit("v_mov_b32", vec![dw(v, 0), dw(p, 0)])?;
        self.emit("v_mov_b32", vec![dw(v, 1), dw(p, 1)])?;
        if self.small {
            // 32-bit address arithmetic on the variable's low dword.
            let a = match reg {
                None => v,
                Some((x, _)) => {
                    let t = self.vtemp(1);
                    self.emit("v_add_u32_e64", vec![r(t), dw(v, 0), r(x)])?;
                    t
                }
            };
            return Ok(Addr {
                mem: Mem::Vmem { flat: false },
                base: Some(self.small_addr(Src::Reg(a), off, false)?),
                off: 0,
            });
        }
        let base = match reg {
            None => v,
            Some((x, true)) => {
                let t = self.vtemp(2);
                self.add64(
                    "v_add_co_u32_e64",
                    "v_addc_co_u32_e64",
                    t,
                    Src::Reg(v),
                    Src::Reg(x),
                )?;
                t
            }
            Some(_) => {
                return Err(self.unsupported(format!(
                    "{what}: a 32-bit address register in the large machine model"
                )));
            }
        };
        Ok(Addr {
            mem: Mem::Vmem { flat: false },
            base: Some(base),
            off,
        })
    }
}
