//! (d) Malformed input: truncated, garbage and bit-flipped modules never
//! panic, and errors name the section and offset.

use brig::fuzz::fuzz_read;
use brig::*;

const KERNEL: &[u8] = include_bytes!("data/kernel.brig");

// Layout of data/kernel.brig (see `HSAILasm -decode`): sections at file
// offsets 128 (hsa_data), 288 (hsa_code), 512 (hsa_operand).
const CODE_AT: usize = 288;
const OPERAND_AT: usize = 512;
const DATA_AT: usize = 128;

fn err(bytes: &[u8]) -> BrigError {
    match BrigModule::parse(bytes) {
        Ok(_) => panic!("malformed module was accepted"),
        Err(e) => e,
    }
}

fn with(patch: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = KERNEL.to_vec();
    patch(&mut b);
    b
}

#[test]
fn every_truncation_is_an_error_at_a_file_offset() {
    for len in 0..KERNEL.len() {
        let e = err(&KERNEL[..len]);
        assert!(
            e.to_string().contains(" at file offset 0x"),
            "len {len}: {e}"
        );
        fuzz_read(&KERNEL[..len]);
    }
    BrigModule::parse(KERNEL).unwrap();
}

#[test]
fn header_errors_name_the_file_offset() {
    let e = err(&with(|b| b[0] = b'X'));
    assert_eq!(e.section, None);
    assert!(e.to_string().ends_with("at file offset 0x0"), "{e}");
    let e = err(&with(|b| b[8] = 2));
    assert!(e.to_string().contains("version 2.0"), "{e}");
    let e = err(&with(|b| b[92] = 2)); // section_count
    assert!(e.to_string().ends_with("at file offset 0x5c"), "{e}");
    let e = err(&with(|b| b[96] = 0x69)); // section_index not 8-aligned
    assert!(e.to_string().ends_with("at file offset 0x60"), "{e}");
    let e = err(&with(|b| b[104] = 0x81)); // hsa_data offset not 16-aligned
    assert!(e.to_string().ends_with("at file offset 0x68"), "{e}");
    let e = err(&with(|b| b[CODE_AT + 16] = b'x')); // section name
    assert!(e.to_string().contains("expected \"hsa_code\""), "{e}");
    let e = err(&with(|b| b[OPERAND_AT] = 0xff)); // section byte_count too big
    assert!(
        e.to_string().contains("runs past the end of the module"),
        "{e}"
    );
}

#[test]
fn entry_errors_name_section_and_offset() {
    // code@108 is an InstMem (20 bytes): make its byte_count 14.
    let e = err(&with(|b| b[CODE_AT + 108] = 14));
    assert_eq!(e.section, Some(BrigSectionIndex::CODE));
    assert_eq!(e.offset, 108);
    assert!(
        e.to_string()
            .ends_with("in section hsa_code at offset 0x6c"),
        "{e}"
    );
    // ... or 12: a multiple of 4 but smaller than BrigInstMem.
    let e = err(&with(|b| b[CODE_AT + 108] = 12));
    assert!(e.message.contains("less than the 20 bytes"), "{e}");
    // ... or 0.
    let e = err(&with(|b| b[CODE_AT + 108] = 0));
    assert!(
        e.to_string()
            .ends_with("in section hsa_code at offset 0x6c"),
        "{e}"
    );
    // operand@36 (register, 8 bytes) claims 255 * 4 bytes: past the end.
    let e = err(&with(|b| b[OPERAND_AT + 37] = 4));
    assert!(
        e.to_string()
            .ends_with("in section hsa_operand at offset 0x24"),
        "{e}"
    );
    // data@56 (an 8-byte list) claims 0x10000 bytes.
    let e = err(&with(|b| b[DATA_AT + 58] = 1));
    assert!(
        e.to_string()
            .ends_with("in section hsa_data at offset 0x38"),
        "{e}"
    );
}

#[test]
fn bad_references_are_errors_not_panics() {
    let m = BrigModule::parse(KERNEL).unwrap();
    let e = m.code(CodeOffset::new(110)).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("in section hsa_code at offset 0x6e"),
        "{e}"
    );
    assert!(m.code(CodeOffset::new(0)).is_err());
    assert!(m.code(CodeOffset::new(u32::MAX)).is_err());
    assert!(m.operand(OperandOffset::new(40)).is_err());
    assert!(m.data_bytes(DataOffset::new(33)).is_err());
    assert!(
        m.code_as::<BrigInstMem>(CodeOffset::new(128)).is_err(),
        "code@128 is InstBasic"
    );
    assert!(m.code_as::<BrigInstMem>(CodeOffset::new(108)).is_ok());
    // A string is not a list of operands.
    let e = m.operand_list(DataOffset::new(32)).unwrap_err();
    assert!(
        e.to_string().contains("in section hsa_data at offset 0x"),
        "{e}"
    );
    assert_eq!(m.operand_list(DataOffset::NONE).unwrap(), vec![]);
    // code@52 is the kernel; its name is data@40.
    let k = m
        .code_as::<BrigDirectiveExecutable>(CodeOffset::new(52))
        .unwrap();
    assert_eq!(m.string(k.name).unwrap(), "&k");
    assert_eq!(m.next_code(CodeOffset::new(204)).unwrap(), m.code_end());
}

#[test]
fn every_single_bit_flip_is_handled() {
    let mut b = KERNEL.to_vec();
    for i in 0..b.len() {
        for bit in 0..8 {
            b[i] ^= 1 << bit;
            fuzz_read(&b);
            if let Err(e) = BrigModule::parse(&b) {
                let s = e.to_string();
                assert!(
                    s.contains(" at file offset 0x") || s.contains(" at offset 0x"),
                    "{s}"
                );
            }
            b[i] ^= 1 << bit;
        }
    }
}

#[test]
fn garbage_is_rejected() {
    let mut x = 0x9e3779b97f4a7c15u64;
    for len in [0usize, 1, 8, 103, 104, 200, 1000, 4096] {
        let mut buf = vec![0u8; len];
        for b in buf.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        assert!(BrigModule::parse(&buf).is_err());
        // Garbage behind a valid magic and version.
        if len >= 16 {
            buf[..8].copy_from_slice(b"HSA BRIG");
            buf[8..16].copy_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
        }
        fuzz_read(&buf);
    }
}
