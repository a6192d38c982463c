//! (b) The reader accepts HSAILasm's output and agrees with
//! `HSAILasm -decode` on every entry's offset, kind and size; the writer
//! reproduces each file byte for byte from the parsed module.

mod common;

use brig::dump::{code_kind_name, operand_kind_name};
use brig::{BrigModule, BrigWriter};

#[test]
fn reader_agrees_with_hsailasm_decode() {
    if !oracles::hsailasm_available() {
        return;
    }
    for (name, src) in common::samples() {
        let bytes = common::assemble(name, src);
        let m = BrigModule::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let yaml = common::decode(&bytes);
        let expected = common::parse_decode(&yaml);
        assert!(
            expected.len() > 5,
            "{name}: could not read the -decode listing:\n{yaml}"
        );

        let mut ours = Vec::new();
        for e in m.code_entries() {
            let (off, c) = e.unwrap_or_else(|e| panic!("{name}: {e}"));
            ours.push(common::Decoded {
                section: "Code".into(),
                kind: code_kind_name(&c).into(),
                offset: off.get().into(),
                byte_count: c.base().byte_count.get().into(),
            });
        }
        for e in m.operand_entries() {
            let (off, o) = e.unwrap_or_else(|e| panic!("{name}: {e}"));
            ours.push(common::Decoded {
                section: "Operands".into(),
                kind: operand_kind_name(&o).into(),
                offset: off.get().into(),
                byte_count: o.base().byte_count.get().into(),
            });
        }
        for (off, b) in m.data_entries() {
            ours.push(common::Decoded {
                section: "Data".into(),
                kind: "BrigData".into(),
                offset: off.get().into(),
                byte_count: b.len() as u64,
            });
        }
        let mut exp = expected.clone();
        let key = |d: &common::Decoded| (d.section.clone(), d.offset);
        exp.sort_by_key(key);
        ours.sort_by_key(key);
        assert_eq!(ours, exp, "{name}: entries differ from HSAILasm -decode");

        // Header facts -decode prints.
        let h = m.header();
        assert!(
            yaml.contains(&format!("byteCount: {},", h.byte_count.get())),
            "{name}"
        );
        let s = m.sections();
        assert!(
            yaml.contains(&format!(
                "SectionIndex: [Data: {}, Code: {}, Operands: {}]",
                s[0].file_offset, s[1].file_offset, s[2].file_offset
            )),
            "{name}: section offsets"
        );

        // Every reference resolves, and dumping works.
        for e in m.code_entries() {
            let (_, c) = e.unwrap();
            if let Some(i) = c.inst() {
                for o in m.operand_list(i.operands).unwrap() {
                    m.operand(o).unwrap();
                }
            }
        }
        let d = brig::dump::dump_to_string(&m);
        assert!(!d.contains("<error"), "{name}: dump shows an error:\n{d}");

        // The writer reproduces the file.
        assert!(
            BrigWriter::from_module(&m).finish() == bytes,
            "{name}: writer round trip differs"
        );
    }
}

#[test]
fn checked_in_fixture_is_what_hsailasm_produces() {
    if !oracles::hsailasm_available() {
        return;
    }
    let bytes = common::assemble("kernel", include_str!("data/kernel.hsail"));
    assert!(
        bytes == include_bytes!("data/kernel.brig"),
        "tests/data/kernel.brig is stale"
    );
}

/// HSAILasm keeps one pool of shared `hsa_data` entries for names and
/// constant bytes (exact byte strings), and never shares lists: what
/// `BrigWriter::add_data` / `add_operand_list` reproduce.
#[test]
fn hsailasm_shares_names_and_constants_but_not_lists() {
    use brig::{Code, Operand};
    if !oracles::hsailasm_available() {
        return;
    }
    let bytes = common::assemble("sharing", include_str!("data/sharing.hsail"));
    let m = BrigModule::parse(&bytes).unwrap();
    let label = m
        .code_entries()
        .find_map(|e| match e.unwrap().1 {
            Code::DirectiveLabel(l) => Some(l.name),
            _ => None,
        })
        .unwrap();
    assert_eq!(m.string(label).unwrap(), "@ABC");
    let constants: Vec<_> = m
        .operand_entries()
        .filter_map(|e| match e.unwrap().1 {
            Operand::ConstantBytes(c) => Some(c.bytes),
            _ => None,
        })
        .collect();
    // mov_b32 $s0, 0x43424140 ("@ABC" little-endian) shares the label's entry.
    assert_eq!(constants[0], label);
    // add_s32 ..., 5 and add_u32 ..., 5 share one entry.
    assert_eq!(constants[1], constants[2]);
    // 0x6d26 as 4 and as 8 bytes: two entries, neither the 2-byte "&m".
    assert_ne!(constants[3], constants[4]);
    // Every instruction has its own operand list, even empty ones.
    let lists: Vec<_> = m
        .code_entries()
        .filter_map(|e| e.unwrap().1.inst().map(|i| i.operands))
        .collect();
    let mut uniq = lists.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), lists.len());
}
