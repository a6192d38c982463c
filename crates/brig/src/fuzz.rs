//! Fuzz entry points (library code, so `cargo test` can smoke-test them and
//! `cargo fuzz` targets stay one-liners).

use crate::read::{BrigModule, Code, Operand};

/// Parses `data` as a BRIG module and, if it parses, walks every entry and
/// every reference an entry holds, then dumps it. Must never panic.
pub fn fuzz_read(data: &[u8]) {
    let Ok(m) = BrigModule::parse(data) else {
        return;
    };
    for (off, _) in m.data_entries() {
        let _ = m.string(off);
        let _ = m.operand_list(off);
        let _ = m.code_list(off);
    }
    for e in m.code_entries() {
        let Ok((off, c)) = e else { continue };
        let _ = m.next_code(off);
        if let Some(i) = c.inst()
            && let Ok(ops) = m.operand_list(i.operands)
        {
            for o in ops {
                let _ = m.operand(o);
            }
        }
        match c {
            Code::DirectiveVariable(v) => {
                let _ = m.string(v.name);
                let _ = m.operand(v.init);
            }
            Code::DirectiveControl(d) => {
                let _ = m.operand_list(d.operands);
            }
            Code::DirectivePragma(d) => {
                let _ = m.operand_list(d.operands);
            }
            _ => {}
        }
        if let Some(e) = c.executable() {
            let _ = m.string(e.name);
            let _ = m.code(e.first_in_arg);
            let _ = m.code(e.first_code_block_entry);
            let _ = m.code(e.next_module_entry);
        }
    }
    for e in m.operand_entries() {
        let Ok((_, o)) = e else { continue };
        match o {
            Operand::Address(a) => {
                let _ = m.code(a.symbol);
                let _ = m.operand(a.reg);
            }
            Operand::CodeList(l) => {
                let _ = m.code_list(l.elements);
            }
            Operand::CodeRef(r) => {
                let _ = m.code(r.ref_);
            }
            Operand::ConstantBytes(b) => {
                let _ = m.data_bytes(b.bytes);
            }
            Operand::ConstantOperandList(l) => {
                let _ = m.operand_list(l.elements);
            }
            Operand::OperandList(l) => {
                let _ = m.operand_list(l.elements);
            }
            Operand::String(s) => {
                let _ = m.string(s.string);
            }
            _ => {}
        }
    }
    let _ = crate::dump::dump_to_string(&m);
    // Copying into a writer and back must reproduce the module.
    let out = crate::write::BrigWriter::from_module(&m).finish();
    let _ = BrigModule::parse(&out);
}
