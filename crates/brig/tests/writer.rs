//! (c) Hand-building `data/kernel.hsail` entry by entry, in the order
//! HSAILasm creates them, reproduces HSAILasm's bytes exactly
//! (`data/kernel.brig`, checked against HSAILasm in `hsailasm.rs`).

use brig::*;
use zerocopy::FromZeros;

fn reg(w: &mut BrigWriter, kind: BrigRegisterKind, num: u16) -> OperandOffset {
    w.add_operand(BrigOperandRegister {
        base: BrigBase::new(0, BrigKind::OPERAND_REGISTER),
        reg_kind: kind,
        reg_num: num.into(),
    })
}

fn constant(w: &mut BrigWriter, t: BrigType, bytes: &[u8]) -> OperandOffset {
    let data = w.add_data(bytes);
    w.add_operand(BrigOperandConstantBytes {
        base: BrigBase::new(0, BrigKind::OPERAND_CONSTANT_BYTES),
        type_: t,
        reserved: 0.into(),
        bytes: data,
    })
}

fn inst_base(op: BrigOpcode, t: BrigType, operands: DataOffset, kind: BrigKind) -> BrigInstBase {
    BrigInstBase {
        base: BrigBase::new(0, kind),
        opcode: op,
        type_: t,
        operands,
    }
}

#[test]
fn hand_built_kernel_matches_hsailasm_bytes() {
    use BrigRegisterKind as R;
    let mut w = BrigWriter::new();

    // module &m:1:0:$full:$large:$default;
    let name = w.add_string("&m");
    w.add_code(BrigDirectiveModule {
        base: BrigBase::new(0, BrigKind::DIRECTIVE_MODULE),
        name,
        hsail_major: BrigVersion::new(1),
        hsail_minor: BrigVersion::new(0),
        profile: BrigProfile::FULL,
        machine_model: BrigMachineModel::LARGE,
        default_float_round: BrigRound::FLOAT_DEFAULT,
        reserved: 0,
    });

    // prog kernel &k(kernarg_u64 %out)
    let name = w.add_string("&k");
    let mut k = BrigDirectiveExecutable::new_zeroed();
    k.base = BrigBase::new(0, BrigKind::DIRECTIVE_KERNEL);
    k.name = name;
    k.in_arg_count = 1.into();
    k.modifier = BrigExecutableModifierMask::DEFINITION;
    k.linkage = BrigLinkage::PROGRAM;
    let kernel = w.add_code(k);
    let name = w.add_string("%out");
    let mut v = BrigDirectiveVariable::new_zeroed();
    v.base = BrigBase::new(0, BrigKind::DIRECTIVE_VARIABLE);
    v.name = name;
    v.type_ = BrigType::U64;
    v.segment = BrigSegment::KERNARG;
    v.align = BrigAlignment::_8;
    v.modifier = BrigVariableModifierMask::DEFINITION;
    v.linkage = BrigLinkage::FUNCTION;
    v.allocation = BrigAllocation::AUTOMATIC;
    let out = w.add_code(v);

    // ld_kernarg_align(8)_width(all)_u64 $d0, [%out];
    let d0 = reg(&mut w, R::DOUBLE, 0);
    let addr = w.add_operand(BrigOperandAddress {
        base: BrigBase::new(0, BrigKind::OPERAND_ADDRESS),
        symbol: out,
        reg: OperandOffset::NONE,
        offset: BrigUInt64::new(0),
    });
    let ops = w.add_operand_list(&[d0, addr]);
    let first = w.add_code(BrigInstMem {
        base: inst_base(BrigOpcode::LD, BrigType::U64, ops, BrigKind::INST_MEM),
        segment: BrigSegment::KERNARG,
        align: BrigAlignment::_8,
        equiv_class: 0,
        width: BrigWidth::ALL,
        modifier: BrigMemoryModifierMask::EMPTY,
        reserved: [0; 3],
    });

    // add_u32 $s1, $s2, 5;
    let s1 = reg(&mut w, R::SINGLE, 1);
    let s2 = reg(&mut w, R::SINGLE, 2);
    let five = constant(&mut w, BrigType::U32, &5u32.to_le_bytes());
    let ops = w.add_operand_list(&[s1, s2, five]);
    w.add_code(BrigInstBasic {
        base: inst_base(BrigOpcode::ADD, BrigType::U32, ops, BrigKind::INST_BASIC),
    });

    // @L1:
    let name = w.add_string("@L1");
    let label = w.add_code(BrigDirectiveLabel {
        base: BrigBase::new(0, BrigKind::DIRECTIVE_LABEL),
        name,
    });

    // cmp_lt_b1_u32 $c0, $s1, 10;
    let c0 = reg(&mut w, R::CONTROL, 0);
    let s1 = reg(&mut w, R::SINGLE, 1);
    let ten = constant(&mut w, BrigType::U32, &10u32.to_le_bytes());
    let ops = w.add_operand_list(&[c0, s1, ten]);
    w.add_code(BrigInstCmp {
        base: inst_base(BrigOpcode::CMP, BrigType::B1, ops, BrigKind::INST_CMP),
        source_type: BrigType::U32,
        modifier: BrigAluModifierMask::EMPTY,
        compare: BrigCompareOperation::LT,
        pack: BrigPack::NONE,
        reserved: [0; 3],
    });

    // cbr_b1 $c0, @L1;
    let c0 = reg(&mut w, R::CONTROL, 0);
    let target = w.add_operand(BrigOperandCodeRef {
        base: BrigBase::new(0, BrigKind::OPERAND_CODE_REF),
        ref_: label,
    });
    let ops = w.add_operand_list(&[c0, target]);
    w.add_code(BrigInstBr {
        base: inst_base(BrigOpcode::CBR, BrigType::B1, ops, BrigKind::INST_BR),
        width: BrigWidth::_1,
        reserved: [0; 3],
    });

    // st_global_u32 $s1, [$d0+4];
    let s1 = reg(&mut w, R::SINGLE, 1);
    let d0 = reg(&mut w, R::DOUBLE, 0);
    let addr = w.add_operand(BrigOperandAddress {
        base: BrigBase::new(0, BrigKind::OPERAND_ADDRESS),
        symbol: CodeOffset::NONE,
        reg: d0,
        offset: BrigUInt64::new(4),
    });
    let ops = w.add_operand_list(&[s1, addr]);
    w.add_code(BrigInstMem {
        base: inst_base(BrigOpcode::ST, BrigType::U32, ops, BrigKind::INST_MEM),
        segment: BrigSegment::GLOBAL,
        align: BrigAlignment::_1,
        equiv_class: 0,
        width: BrigWidth::NONE,
        modifier: BrigMemoryModifierMask::EMPTY,
        reserved: [0; 3],
    });

    // ret;
    let ops = w.add_operand_list(&[]);
    w.add_code(BrigInstBasic {
        base: inst_base(BrigOpcode::RET, BrigType::NONE, ops, BrigKind::INST_BASIC),
    });

    // Forward links of the kernel.
    let end = w.next_code_offset();
    let k = w.code_mut::<BrigDirectiveExecutable>(kernel).unwrap();
    k.first_in_arg = out;
    k.first_code_block_entry = first;
    k.next_module_entry = end;

    let bytes = w.finish();
    let expected: &[u8] = include_bytes!("data/kernel.brig");
    if bytes != expected {
        let ours = BrigModule::parse(&bytes).map(|m| brig::dump::dump_to_string(&m));
        let theirs = brig::dump::dump_to_string(&BrigModule::parse(expected).unwrap());
        let first_diff = bytes.iter().zip(expected).position(|(a, b)| a != b);
        panic!(
            "bytes differ (first difference at file offset {first_diff:?}, lengths {} vs {})\n\
             --- ours\n{}\n--- HSAILasm\n{theirs}",
            bytes.len(),
            expected.len(),
            match ours {
                Ok(s) => s,
                Err(e) => e.to_string(),
            }
        );
    }
}

#[test]
fn data_sharing_follows_hsailasm() {
    let mut w = BrigWriter::new();
    let a = w.add_string("&f");
    let l1 = w.add_operand_list(&[]);
    let b = w.add_string("&f");
    let l2 = w.add_operand_list(&[]);
    let c = w.add_data(&5u32.to_le_bytes());
    let d = w.add_data(&5u32.to_le_bytes());
    assert_eq!(a, b, "strings are shared");
    assert_eq!(c, d, "constant bytes are shared");
    assert_ne!(l1, l2, "lists are never shared, even empty ones");
    // A list's bytes are not offered for sharing to add_data.
    let list = w.add_operand_list(&[OperandOffset::new(0x24)]);
    let same_bytes = w.add_data(&0x24u32.to_le_bytes());
    assert_ne!(list, same_bytes);
    // Entries are padded to 4 with zeros.
    assert_eq!(a.get(), 32);
    assert_eq!(l1.get(), 40);
    let bytes = w.finish();
    let m = BrigModule::parse(&bytes).unwrap();
    assert_eq!(m.string(a).unwrap(), "&f");
    assert_eq!(m.operand_list(l2).unwrap(), vec![]);
}

#[test]
fn empty_module_layout() {
    let bytes = BrigWriter::new().finish();
    // header 104 + index 24 = 128; data 32 -> 160; code 32 -> 192; operand 36 -> 228 -> 240.
    assert_eq!(bytes.len(), 240);
    assert_eq!(&bytes[..8], b"HSA BRIG");
    let m = BrigModule::parse(&bytes).unwrap();
    let offs: Vec<u64> = m.sections().iter().map(|s| s.file_offset).collect();
    assert_eq!(offs, [128, 160, 192]);
    assert_eq!(m.sections()[2].header.header_byte_count.get(), 36);
    assert_eq!(m.code_entries().count(), 0);
}

#[test]
fn extra_sections_round_trip() {
    let mut w = BrigWriter::new();
    w.add_string("x");
    let idx = w.add_section(b"my_debug", &[1, 2, 3, 4, 5]);
    assert_eq!(idx, BrigSectionIndex::new(3));
    let bytes = w.finish();
    let m = BrigModule::parse(&bytes).unwrap();
    assert_eq!(m.sections().len(), 4);
    assert_eq!(m.sections()[3].name, b"my_debug");
    assert_eq!(m.sections()[3].body(), &[1, 2, 3, 4, 5]);
    assert_eq!(BrigWriter::from_module(&m).finish(), bytes);
}

#[test]
fn add_data_shares_exactly_the_equal_byte_strings() {
    // Many entries, short (keyed by content) and long (keyed by hash),
    // against a plain map from content to the first offset.
    let mut w = BrigWriter::new();
    let mut model = std::collections::HashMap::new();
    for i in 0u32..20_000 {
        let n = (i % 23) as usize;
        let bytes: Vec<u8> = (0..n).map(|k| (i / 7 + k as u32 * 31) as u8).collect();
        let off = w.add_data(&bytes);
        assert_eq!(*model.entry(bytes).or_insert(off), off);
        if i % 5 == 0 {
            // Lists in between are never shared and never matched.
            w.add_operand_list(&[OperandOffset::new(i)]);
        }
    }
    let bytes = w.finish();
    let m = BrigModule::parse(&bytes).unwrap();
    for (content, off) in &model {
        assert_eq!(m.data_bytes(*off).unwrap(), &content[..]);
    }
}

#[test]
fn a_loaded_module_shares_its_first_entry_of_each_content() {
    let mut w = BrigWriter::new();
    let first = w.add_data_unique(b"same");
    w.add_data_unique(b"same");
    let long = w.add_data_unique(b"a longer string");
    let bytes = w.finish();
    let m = BrigModule::parse(&bytes).unwrap();
    let mut w = BrigWriter::from_module(&m);
    assert_eq!(w.add_data(b"same"), first);
    assert_eq!(w.add_data(b"a longer string"), long);
}

#[test]
fn write_to_writes_what_finish_returns() {
    let build = || {
        let mut w = BrigWriter::with_capacity(100, 100, 100);
        let s = w.add_string("&x");
        w.add_code(BrigDirectiveComment {
            base: BrigBase::new(0, BrigKind::DIRECTIVE_COMMENT),
            name: s,
        });
        w.add_section(b"extra", &[9; 5]);
        w
    };
    let mut out = Vec::new();
    build().write_to(&mut out).unwrap();
    assert_eq!(out.len(), build().module_len());
    assert_eq!(out, build().finish());
}

#[test]
fn code_lists_can_be_patched() {
    let mut w = BrigWriter::new();
    let list = w.add_code_list(&[CodeOffset::NONE, CodeOffset::new(8)]);
    w.code_list_mut(list).unwrap()[0] = CodeOffset::new(40);
    let bytes = w.finish();
    let m = BrigModule::parse(&bytes).unwrap();
    let raw = m.data_bytes(list).unwrap();
    assert_eq!(raw, [40, 0, 0, 0, 8, 0, 0, 0]);
}

/// A writer holding HSAILasm's `data/kernel.brig` again, appended entry by
/// entry through the public API (as raw bytes).
fn rebuilt_kernel() -> (BrigWriter, Vec<u8>) {
    let file = include_bytes!("data/kernel.brig").to_vec();
    let m = BrigModule::parse(&file).unwrap();
    let mut w = BrigWriter::new();
    for (_, bytes) in m.data_entries() {
        w.add_data_unique(bytes);
    }
    for off in m.code_offsets() {
        w.append_code(m.code_bytes(off).unwrap());
    }
    for off in m.operand_offsets() {
        w.append_operand(m.operand_bytes(off).unwrap());
    }
    (w, file)
}

/// The entry starts the writer records as it appends are the ones the
/// reader's walk finds in HSAILasm's file.
#[test]
fn recorded_entry_starts_match_the_walk() {
    let (mut w, file) = rebuilt_kernel();
    let parsed = BrigModule::parse(&file).unwrap();
    let mut trusted_writer = w.clone();
    let trusted = trusted_writer.trusted_module().unwrap();
    assert_eq!(trusted.code_offset_slice(), parsed.code_offset_slice());
    let view = w.module().unwrap();
    for m in [&view, &trusted] {
        assert_eq!(parsed.code_offset_slice(), m.code_offset_slice());
        assert_eq!(parsed.operand_offset_slice(), m.operand_offset_slice());
        let a: Vec<_> = parsed.data_entries().collect();
        let b: Vec<_> = m.data_entries().collect();
        assert_eq!(a, b);
    }
    assert_entry_starts(&parsed, &view, file.len() as u32, false);
    assert_entry_starts(&parsed, &trusted, file.len() as u32, true);
}

/// At every offset below `end`, `m` has a code entry start exactly where
/// `parsed` has one, and so for `hsa_operand` and `hsa_data` entries;
/// but a `trusted` module (`trusted_module`) takes every 4-byte aligned
/// offset of `hsa_operand` and `hsa_data` past the section header (and
/// before its end) for an entry start.
fn assert_entry_starts(parsed: &BrigModule<'_>, m: &BrigModule<'_>, end: u32, trusted: bool) {
    let sections = m.sections();
    let aligned_entry = |i: usize, off: u32| {
        let s = &sections[i];
        off.is_multiple_of(4) && off >= s.first_entry() && (off as usize) < s.bytes.len()
    };
    for off in 0..end {
        let (c, o, d) = (
            CodeOffset::new(off),
            OperandOffset::new(off),
            DataOffset::new(off),
        );
        assert_eq!(m.is_code_entry(c), parsed.is_code_entry(c), "{off}");
        let (operand, data) = if trusted {
            (aligned_entry(2, off), aligned_entry(0, off))
        } else {
            (parsed.is_operand_entry(o), parsed.is_data_entry(d))
        };
        assert_eq!(m.is_operand_entry(o), operand, "{off}");
        assert_eq!(m.is_data_entry(d), data, "{off}");
        // Every real start is one.
        assert!(
            !parsed.is_operand_entry(o) || m.is_operand_entry(o),
            "{off}"
        );
        assert!(!parsed.is_data_entry(d) || m.is_data_entry(d), "{off}");
    }
}

/// An entry whose `byte_count` is wrong, appended as is or patched in
/// later, makes `module()` walk the sections and fail as the reader fails
/// on the written file.
#[test]
fn a_bad_entry_is_found_however_it_got_there() {
    let (mut w, _) = rebuilt_kernel();
    let first = w.module().unwrap().code_offsets().next().unwrap();
    let mut bad = w.clone();
    bad.code_mut::<BrigBase>(first).unwrap().byte_count = 6.into();
    assert!(BrigModule::parse(&bad.clone().finish()).is_err());
    assert!(bad.module().is_err());

    let mut appended = w.clone();
    appended.append_operand(&BrigBase::new(8, BrigKind::OPERAND_REGISTER));
    assert!(BrigModule::parse(&appended.clone().finish()).is_err());
    assert!(appended.module().is_err());
    assert!(appended.trusted_module().is_err());

    // Too small for its kind (a BrigOperandRegister is 8 bytes).
    let mut small = w.clone();
    small.append_operand(&BrigBase::new(4, BrigKind::OPERAND_REGISTER));
    assert!(BrigModule::parse(&small.clone().finish()).is_err());
    assert!(small.module().is_err());
    assert!(small.trusted_module().is_err());
    assert!(w.module().is_ok());
}
