//! Code object v2 (ROCm format; LLVM 19 can no longer produce it): a v2
//! object assembled here byte by byte from rocm-codeobj-format's layout
//! (notes in the "AMD" namespace, `amd_kernel_code_t` at an
//! `STT_AMDGPU_HSA_KERNEL` symbol, code at `kernel_code_entry_byte_offset`).

use amdgpu_object::CodeObject;
use amdgpu_object::abi::{SgprContent, WaveLayout};
use amdgpu_object::read::KernelHeader;

fn note(out: &mut Vec<u8>, name: &str, n_type: u32, desc: &[u8]) {
    out.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
    out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    out.extend_from_slice(&n_type.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    out.extend_from_slice(desc);
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

#[allow(clippy::too_many_arguments)]
fn shdr(
    out: &mut Vec<u8>,
    name: u32,
    ty: u32,
    flags: u64,
    off: u64,
    size: u64,
    link: u32,
    info: u32,
    entsize: u64,
) {
    out.extend_from_slice(&name.to_le_bytes());
    out.extend_from_slice(&ty.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&off.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&link.to_le_bytes());
    out.extend_from_slice(&info.to_le_bytes());
    out.extend_from_slice(&1u64.to_le_bytes());
    out.extend_from_slice(&entsize.to_le_bytes());
}

fn v2_object() -> Vec<u8> {
    // Notes: code object version 2.1, ISA 9.0.0 "AMD" "AMDGPU".
    let mut notes = Vec::new();
    note(&mut notes, "AMD", 1, &[2, 0, 0, 0, 1, 0, 0, 0]);
    let mut isa = Vec::new();
    isa.extend_from_slice(&4u16.to_le_bytes());
    isa.extend_from_slice(&7u16.to_le_bytes());
    for v in [9u32, 0, 0] {
        isa.extend_from_slice(&v.to_le_bytes());
    }
    isa.extend_from_slice(b"AMD\0AMDGPU\0");
    note(&mut notes, "AMD", 3, &isa);
    note(
        &mut notes,
        "AMD",
        10,
        b"---\nVersion: [ 1, 0 ]\nKernels:\n  - Name: k\n...\n\0",
    );
    // amd_kernel_code_t (256 bytes) then s_endpgm.
    let mut text = vec![0u8; 256];
    text[0..4].copy_from_slice(&1u32.to_le_bytes()); // amd_code_version_major
    text[8..10].copy_from_slice(&1u16.to_le_bytes()); // amd_machine_kind
    text[10..12].copy_from_slice(&9u16.to_le_bytes());
    text[16..24].copy_from_slice(&256i64.to_le_bytes()); // kernel_code_entry_byte_offset
    // compute_pgm_rsrc2: USER_SGPR_COUNT 8, workgroup id x and y, 2 work-item dims.
    let rsrc2: u32 = 8 << 1 | 1 << 7 | 1 << 8 | 1 << 11;
    text[52..56].copy_from_slice(&rsrc2.to_le_bytes());
    // kernel_code_properties: private segment buffer, dispatch ptr, kernarg ptr, is_ptr64.
    let props: u32 = 1 | 1 << 1 | 1 << 3 | 1 << 19;
    text[56..60].copy_from_slice(&props.to_le_bytes());
    text[103] = 6; // wavefront_size (bits 831:824) = log2(64)
    text.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]); // s_endpgm
    let strtab = b"\0k\0".to_vec();
    let mut symtab = vec![0u8; 24];
    symtab.extend_from_slice(&1u32.to_le_bytes());
    symtab.push(1 << 4 | 10); // GLOBAL, STT_AMDGPU_HSA_KERNEL
    symtab.push(0);
    symtab.extend_from_slice(&3u16.to_le_bytes()); // .text
    symtab.extend_from_slice(&0u64.to_le_bytes());
    symtab.extend_from_slice(&(text.len() as u64).to_le_bytes());
    let shstrtab = b"\0.note\0.hsatext\0.symtab\0.strtab\0.shstrtab\0".to_vec();

    let mut out = vec![0u8; 64];
    let place = |out: &mut Vec<u8>, data: &[u8]| {
        while !out.len().is_multiple_of(8) {
            out.push(0);
        }
        let at = out.len() as u64;
        out.extend_from_slice(data);
        at
    };
    let o_notes = place(&mut out, &notes);
    let o_text = place(&mut out, &text);
    let o_sym = place(&mut out, &symtab);
    let o_str = place(&mut out, &strtab);
    let o_shstr = place(&mut out, &shstrtab);
    while !out.len().is_multiple_of(8) {
        out.push(0);
    }
    let shoff = out.len() as u64;
    shdr(&mut out, 0, 0, 0, 0, 0, 0, 0, 0);
    shdr(&mut out, 1, 7, 2, o_notes, notes.len() as u64, 0, 0, 0);
    shdr(&mut out, 1, 0, 0, 0, 0, 0, 0, 0);
    shdr(&mut out, 7, 1, 6, o_text, text.len() as u64, 0, 0, 0);
    shdr(&mut out, 16, 2, 0, o_sym, symtab.len() as u64, 5, 1, 24);
    shdr(&mut out, 24, 3, 0, o_str, strtab.len() as u64, 0, 0, 0);
    shdr(&mut out, 32, 3, 0, o_shstr, shstrtab.len() as u64, 0, 0, 0);
    // ELF header: ELFCLASS64, LSB, OS ABI 64 (AMDGPU_HSA), ABI version 0 (v2), ET_EXEC.
    out[0..9].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 64, 0]);
    out[16..18].copy_from_slice(&2u16.to_le_bytes());
    out[18..20].copy_from_slice(&224u16.to_le_bytes());
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[40..48].copy_from_slice(&shoff.to_le_bytes());
    out[52..54].copy_from_slice(&64u16.to_le_bytes());
    out[58..60].copy_from_slice(&64u16.to_le_bytes());
    out[60..62].copy_from_slice(&7u16.to_le_bytes());
    out[62..64].copy_from_slice(&6u16.to_le_bytes());
    out
}

#[test]
fn reads_a_v2_code_object() {
    let bytes = v2_object();
    let co = CodeObject::parse(&bytes).unwrap();
    assert_eq!(co.header.code_object_version, 2);
    // AMDGPUUsage: ISA note AMD:AMDGPU:9:0:0 is target ID gfx900:xnack-.
    assert_eq!(co.header.target.as_ref().unwrap().short(), "gfx900:xnack-");
    assert_eq!(co.notes.len(), 3);
    assert!(co.metadata_v2_text.unwrap().contains("Name: k"));
    assert_eq!(co.metadata_v2.as_ref().unwrap().kernels[0].name, "k");
    let v2 = co.v2_notes().unwrap();
    assert_eq!(v2.code_object_version, Some((2, 1)));
    let isa = v2.isa.unwrap();
    assert_eq!(
        (isa.vendor.as_str(), isa.architecture.as_str()),
        ("AMD", "AMDGPU")
    );
    assert_eq!((isa.major, isa.minor, isa.stepping), (9, 0, 0));
    assert_eq!(v2.metadata.as_ref(), co.metadata_v2.as_ref());
    assert_eq!(co.kernels.len(), 1);
    let k = &co.kernels[0];
    assert_eq!(k.name, "k");
    assert_eq!(k.entry_address, 256);
    assert_eq!(k.code, &[0x00, 0x00, 0x81, 0xbf]);
    let KernelHeader::AmdKernelCode(akc) = &k.header else {
        panic!("not v2")
    };
    assert_eq!(akc.kernel_code_entry_byte_offset.get(), 256);
    assert!(akc.is_ptr64());
    let l = WaveLayout::from_amd_kernel_code(akc, co.header.target.as_ref().unwrap().processor);
    assert_eq!(l.sgpr_of(SgprContent::PrivateSegmentBuffer), Some(0));
    assert_eq!(l.sgpr_of(SgprContent::DispatchPtr), Some(4));
    assert_eq!(l.sgpr_of(SgprContent::KernargSegmentPtr), Some(6));
    assert_eq!(l.sgpr_of(SgprContent::WorkgroupId(0)), Some(8));
    assert_eq!(l.sgpr_of(SgprContent::WorkgroupId(1)), Some(9));
    assert_eq!(l.work_item_ids.dims(), 2);
    assert_eq!(l.wavefront_size, 64);
}

#[test]
fn truncations_of_a_v2_object_are_errors_with_offsets() {
    let bytes = v2_object();
    for len in 0..bytes.len() {
        match CodeObject::parse(&bytes[..len]) {
            Ok(_) => {}
            Err(e) => assert!(e.offset().is_some(), "{e}"),
        }
    }
}
