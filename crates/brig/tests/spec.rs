//! (a) Struct sizes and enum values against HSA PRM 1.0 chapter 18.

use std::collections::{BTreeMap, BTreeSet};
use std::mem::size_of;

use brig::*;

/// `tests/data/prm-18.3-enums.txt`: every value listed in PRM §18.3.
fn spec_values() -> Vec<(String, String, u64)> {
    let text = include_str!("data/prm-18.3-enums.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let e = it.next().unwrap().to_owned();
            let n = it.next().unwrap().to_owned();
            let v = it.next().unwrap().parse().unwrap();
            (e, n, v)
        })
        .collect()
}

macro_rules! enum_tables {
    ($($t:ident),* $(,)?) => {
        /// enum name -> (spec name -> value), from our `NAMES` tables.
        fn ours() -> BTreeMap<&'static str, BTreeMap<&'static str, u64>> {
            let mut m = BTreeMap::new();
            $(
                let mut names = BTreeMap::new();
                for &(n, v) in $t::NAMES {
                    names.insert(n, u64::from(v.raw()));
                }
                m.insert(stringify!($t), names);
            )*
            m
        }
    };
}

enum_tables!(
    BrigAlignment,
    BrigAllocation,
    BrigAluModifierMask,
    BrigAtomicOperation,
    BrigCompareOperation,
    BrigControlDirective,
    BrigExceptionsMask,
    BrigExecutableModifierMask,
    BrigImageChannelOrder,
    BrigImageChannelType,
    BrigImageGeometry,
    BrigImageQuery,
    BrigKind,
    BrigLinkage,
    BrigMachineModel,
    BrigMemoryModifierMask,
    BrigMemoryOrder,
    BrigMemoryScope,
    BrigOpcode,
    BrigPack,
    BrigProfile,
    BrigRegisterKind,
    BrigRound,
    BrigSamplerAddressing,
    BrigSamplerCoordNormalization,
    BrigSamplerFilter,
    BrigSamplerQuery,
    BrigSectionIndex,
    BrigSegCvtModifierMask,
    BrigSegment,
    BrigType,
    BrigVariableModifierMask,
    BrigVersion,
    BrigWidth,
);

#[test]
fn every_spec_enum_value_is_defined_with_the_spec_value() {
    let ours = ours();
    let spec = spec_values();
    let spec_enums: BTreeSet<&str> = spec.iter().map(|(e, _, _)| e.as_str()).collect();
    let our_enums: BTreeSet<&str> = ours.keys().copied().collect();
    assert_eq!(
        spec_enums, our_enums,
        "the set of enums differs from PRM §18.3"
    );
    let mut bad = Vec::new();
    for (e, n, v) in &spec {
        match ours[e.as_str()].get(n.as_str()) {
            Some(ours) if ours == v => {}
            Some(ours) => bad.push(format!("{e} {n}: spec {v}, ours {ours}")),
            None => bad.push(format!("{e} {n} = {v}: missing")),
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn our_named_values_are_all_in_the_spec() {
    // Extras we define beyond the PRM's text, each justified.
    let allowed_extra: BTreeSet<&str> = [
        "BRIG_OPCODE_FIRST_USER_DEFINED", // PRM prose: 32768.. implementation defined
        "BRIG_ROUND_INTEGER_NEAR_SAT",    // short alias of INTEGER_NEAR_EVEN_SAT
    ]
    .into();
    let spec: BTreeSet<(String, String)> =
        spec_values().into_iter().map(|(e, n, _)| (e, n)).collect();
    for (e, names) in ours() {
        for n in names.keys() {
            if !allowed_extra.contains(n) {
                assert!(
                    spec.contains(&(e.to_owned(), (*n).to_owned())),
                    "{e} {n} not in the PRM"
                );
            }
        }
    }
}

#[test]
fn names_and_debug() {
    assert_eq!(BrigOpcode::ADD.name(), Some("BRIG_OPCODE_ADD"));
    assert_eq!(BrigOpcode::ADD.short_name(), Some("ADD"));
    assert_eq!(format!("{:?}", BrigOpcode::new(2)), "BRIG_OPCODE_ADD");
    assert_eq!(format!("{:?}", BrigOpcode::new(999)), "BrigOpcode(999)");
    assert_eq!(BrigOpcode::new(999).name(), None);
    assert_eq!(BrigAlignment::_8.name(), Some("BRIG_ALIGNMENT_8"));
    assert_eq!(BrigImageGeometry::_2DA.name(), Some("BRIG_GEOMETRY_2DA"));
    assert_eq!(BrigWidth::ALL.name(), Some("BRIG_WIDTH_ALL"));
    assert_eq!(
        BrigKind::DIRECTIVE_ARG_BLOCK_END.name(),
        Some("BRIG_KIND_DIRECTIVE_ARG_BLOCK_END")
    );
    assert_eq!(BrigKind::DIRECTIVE_BEGIN, BrigKind::DIRECTIVE_ARG_BLOCK_END);
    assert_eq!(
        BrigRound::INTEGER_NEAR_SAT,
        BrigRound::INTEGER_NEAR_EVEN_SAT
    );
    assert_eq!(BrigType::from_name("BRIG_TYPE_U8X4"), Some(BrigType::U8X4));
    let m = BrigVariableModifierMask::DEFINITION | BrigVariableModifierMask::CONST;
    assert_eq!(m.raw(), 3);
    assert!(m.contains(BrigVariableModifierMask::CONST));
    assert_eq!(
        format!("{m:?}"),
        "BRIG_VARIABLE_DEFINITION|BRIG_VARIABLE_CONST"
    );
    assert_eq!(
        format!("{:?}", BrigAluModifierMask::new(0x81)),
        "BRIG_ALU_FTZ|0x80"
    );
    assert_eq!(format!("{:?}", BrigAluModifierMask::EMPTY), "0");
    // Consts work as patterns.
    let k = BrigKind::new(0x2002);
    assert!(matches!(k, BrigKind::INST_BASIC));
    match BrigSegment::new(2) {
        BrigSegment::GLOBAL => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn type_helpers() {
    assert_eq!(BrigType::U32.bit_size(), Some(32));
    assert_eq!(BrigType::B1.bit_size(), Some(1));
    assert_eq!(BrigType::B128.bit_size(), Some(128));
    assert_eq!(BrigType::SIG32.bit_size(), Some(32));
    assert_eq!(BrigType::ROIMG.bit_size(), Some(64));
    assert_eq!(BrigType::U8X4.bit_size(), Some(32));
    assert_eq!(BrigType::F16X8.bit_size(), Some(128));
    assert_eq!(BrigType::NONE.bit_size(), None);
    assert!(BrigType::S16X4.is_packed());
    assert!(!BrigType::S16.is_packed());
    assert_eq!(BrigType::S16X4.element_type(), BrigType::S16);
    assert_eq!(BrigType::S16X4.packed_count(), 4);
    assert_eq!(BrigType::U32.element_type(), BrigType::U32);
    assert!(BrigType::F32_ARRAY.is_array());
    assert_eq!(BrigType::F32_ARRAY.array_element(), Some(BrigType::F32));
    assert_eq!(BrigType::U8X4_ARRAY.array_element(), Some(BrigType::U8X4));
    assert_eq!(BrigType::F32.array_element(), None);
    assert_eq!(BrigType::F32.array_of(), BrigType::F32_ARRAY);
    assert_eq!(BrigType::U64.base_class(), BaseClass::U);
    assert_eq!(BrigType::S8X4.base_class(), BaseClass::S);
    assert_eq!(BrigType::F64_ARRAY.base_class(), BaseClass::F);
    assert_eq!(BrigType::B1.base_class(), BaseClass::B);
    assert_eq!(BrigType::SAMP.base_class(), BaseClass::Opaque);
    assert_eq!(BrigType::NONE.base_class(), BaseClass::None);
    assert_eq!(BrigType::U8X4.text().as_deref(), Some("u8x4"));
    assert_eq!(BrigType::B32_ARRAY.text().as_deref(), Some("b32[]"));
    // Every named packed type's bit size is its pack size.
    for &t in BrigType::VALUES {
        if t.is_packed() {
            let pack = match t.raw() & BrigType::PACK_MASK {
                0x20 => 32,
                0x40 => 64,
                _ => 128,
            };
            assert_eq!(t.bit_size(), Some(pack), "{t:?}");
            assert_eq!(
                t.base().bit_size().unwrap() * t.packed_count(),
                pack,
                "{t:?}"
            );
        }
    }
    assert_eq!(BrigAlignment::_16.bytes(), Some(16));
    assert_eq!(BrigAlignment::from_bytes(256), Some(BrigAlignment::_256));
    assert_eq!(BrigAlignment::from_bytes(3), None);
    assert_eq!(BrigWidth::_64.count(), Some(64));
    assert_eq!(BrigWidth::from_count(1 << 31), Some(BrigWidth::_2147483648));
}

#[test]
fn struct_sizes_match_the_spec() {
    // Sizes from the PRM's struct definitions (§18.3, §18.5, §18.6).
    let sizes: &[(&str, usize, usize)] = &[
        ("BrigBase", size_of::<BrigBase>(), 4),
        ("BrigModuleHeader", size_of::<BrigModuleHeader>(), 104),
        (
            "BrigSectionHeader (fixed part)",
            size_of::<BrigSectionHeader>(),
            16,
        ),
        ("BrigUInt64", size_of::<BrigUInt64>(), 8),
        ("BrigData (fixed part)", size_of::<BrigData>(), 4),
        (
            "BrigDirectiveArgBlock",
            size_of::<BrigDirectiveArgBlock>(),
            4,
        ),
        ("BrigDirectiveComment", size_of::<BrigDirectiveComment>(), 8),
        (
            "BrigDirectiveControl",
            size_of::<BrigDirectiveControl>(),
            12,
        ),
        (
            "BrigDirectiveExecutable",
            size_of::<BrigDirectiveExecutable>(),
            28,
        ),
        (
            "BrigDirectiveExtension",
            size_of::<BrigDirectiveExtension>(),
            8,
        ),
        (
            "BrigDirectiveFbarrier",
            size_of::<BrigDirectiveFbarrier>(),
            12,
        ),
        ("BrigDirectiveLabel", size_of::<BrigDirectiveLabel>(), 8),
        ("BrigDirectiveLoc", size_of::<BrigDirectiveLoc>(), 16),
        ("BrigDirectiveModule", size_of::<BrigDirectiveModule>(), 20),
        ("BrigDirectiveNone", size_of::<BrigDirectiveNone>(), 4),
        ("BrigDirectivePragma", size_of::<BrigDirectivePragma>(), 8),
        (
            "BrigDirectiveVariable",
            size_of::<BrigDirectiveVariable>(),
            28,
        ),
        ("BrigInstBase", size_of::<BrigInstBase>(), 12),
        ("BrigInstAddr", size_of::<BrigInstAddr>(), 16),
        ("BrigInstAtomic", size_of::<BrigInstAtomic>(), 20),
        ("BrigInstBasic", size_of::<BrigInstBasic>(), 12),
        ("BrigInstBr", size_of::<BrigInstBr>(), 16),
        ("BrigInstCmp", size_of::<BrigInstCmp>(), 20),
        ("BrigInstCvt", size_of::<BrigInstCvt>(), 16),
        ("BrigInstImage", size_of::<BrigInstImage>(), 20),
        ("BrigInstLane", size_of::<BrigInstLane>(), 16),
        ("BrigInstMem", size_of::<BrigInstMem>(), 20),
        ("BrigInstMemFence", size_of::<BrigInstMemFence>(), 16),
        ("BrigInstMod", size_of::<BrigInstMod>(), 16),
        ("BrigInstQueryImage", size_of::<BrigInstQueryImage>(), 16),
        (
            "BrigInstQuerySampler",
            size_of::<BrigInstQuerySampler>(),
            16,
        ),
        ("BrigInstQueue", size_of::<BrigInstQueue>(), 16),
        ("BrigInstSeg", size_of::<BrigInstSeg>(), 16),
        ("BrigInstSegCvt", size_of::<BrigInstSegCvt>(), 16),
        ("BrigInstSignal", size_of::<BrigInstSignal>(), 16),
        ("BrigInstSourceType", size_of::<BrigInstSourceType>(), 16),
        ("BrigOperandAddress", size_of::<BrigOperandAddress>(), 20),
        ("BrigOperandAlign", size_of::<BrigOperandAlign>(), 8),
        ("BrigOperandCodeList", size_of::<BrigOperandCodeList>(), 8),
        ("BrigOperandCodeRef", size_of::<BrigOperandCodeRef>(), 8),
        (
            "BrigOperandConstantBytes",
            size_of::<BrigOperandConstantBytes>(),
            12,
        ),
        (
            "BrigOperandConstantImage",
            size_of::<BrigOperandConstantImage>(),
            44,
        ),
        (
            "BrigOperandConstantOperandList",
            size_of::<BrigOperandConstantOperandList>(),
            12,
        ),
        (
            "BrigOperandConstantSampler",
            size_of::<BrigOperandConstantSampler>(),
            12,
        ),
        (
            "BrigOperandOperandList",
            size_of::<BrigOperandOperandList>(),
            8,
        ),
        ("BrigOperandRegister", size_of::<BrigOperandRegister>(), 8),
        ("BrigOperandString", size_of::<BrigOperandString>(), 8),
        ("BrigOperandWavesize", size_of::<BrigOperandWavesize>(), 4),
    ];
    for &(name, ours, spec) in sizes {
        assert_eq!(ours, spec, "size of {name}");
    }
    // Every kind the spec gives a struct has entry_size; the reserved one has none.
    for &k in BrigKind::VALUES {
        assert_eq!(
            entry_size(k).is_some(),
            k != BrigKind::OPERAND_RESERVED,
            "{k:?}"
        );
    }
}

#[test]
fn field_offsets_match_the_spec() {
    use zerocopy::FromZeros;
    use zerocopy::IntoBytes;
    // Spot checks of field placement by writing a field and finding the byte.
    let mut v = BrigDirectiveVariable::new_zeroed();
    v.dim = BrigUInt64::new(0x1122334455667788);
    v.allocation = BrigAllocation::AUTOMATIC;
    let b = v.as_bytes();
    assert_eq!(&b[16..24], &0x1122334455667788u64.to_le_bytes());
    assert_eq!(b[26], 3);
    let mut e = BrigDirectiveExecutable::new_zeroed();
    e.next_module_entry = CodeOffset::new(0xabcd);
    e.linkage = BrigLinkage::PROGRAM;
    let b = e.as_bytes();
    assert_eq!(&b[20..24], &0xabcdu32.to_le_bytes());
    assert_eq!(b[25], 1);
    let mut m = BrigInstMem::new_zeroed();
    m.width = BrigWidth::ALL;
    m.modifier = BrigMemoryModifierMask::CONST;
    let b = m.as_bytes();
    assert_eq!((b[15], b[16]), (34, 1));
    let mut h = BrigModuleHeader::new_zeroed();
    h.section_index = 104.into();
    assert_eq!(&h.as_bytes()[96..104], &104u64.to_le_bytes());
}

#[test]
fn ordering_is_numeric() {
    assert!(BrigKind::new(0x0100) > BrigKind::new(0x00ff));
    assert!(BrigOpcode::new(256) > BrigOpcode::WAVEID);
    assert!(CodeOffset::new(256) > CodeOffset::new(255));
    assert!(DataOffset::new(0x1_0000) > DataOffset::new(0xffff));
    let mut v = vec![
        OperandOffset::new(300),
        OperandOffset::new(44),
        OperandOffset::new(256),
    ];
    v.sort();
    assert_eq!(
        v,
        [
            OperandOffset::new(44),
            OperandOffset::new(256),
            OperandOffset::new(300)
        ]
    );
}
