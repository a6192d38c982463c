//! The library API: finalizing text and BRIG, and the errors for what the
//! first slice does not support (located, never a panic).

use hsail_finalizer::{Error, Options, finalize_brig, finalize_text};

const VECTOR_ADD: &str = include_str!("../../../examples/vector_add.hsail");

#[test]
fn text_and_brig_give_the_same_object() {
    let opts = Options::new("gfx90a").unwrap();
    let a = finalize_text(VECTOR_ADD, "vector_add.hsail", &opts).unwrap();
    assert_eq!(a.kernels, ["vec_add"]);
    let brig = hsail::assemble(VECTOR_ADD, "vector_add.hsail").unwrap();
    let b = finalize_brig(&brig, &opts).unwrap();
    assert_eq!(a.code_object, b.code_object);
    assert!(a.asm.contains(".amdhsa_kernel vec_add"));
    assert!(a.asm.contains(".amdhsa_accum_offset"));
    let co = amdgpu_object::CodeObject::parse(&a.code_object).unwrap();
    let meta = co.metadata.expect("v5 metadata");
    let k = meta.kernel("vec_add").unwrap();
    assert_eq!(k.kernarg_segment_size, 28);
    assert_eq!(k.args().len(), 4);
    assert_eq!(k.args()[3].offset, 24);
    assert_eq!(k.symbol, "vec_add.kd");
}

#[test]
fn gfx900_and_code_object_v4() {
    let mut opts = Options::new("gfx900").unwrap();
    opts.code_object_version = 4;
    let out = finalize_text(VECTOR_ADD, "v.hsail", &opts).unwrap();
    assert!(!out.asm.contains("accum_offset"));
    assert!(out.asm.contains(".amdhsa_code_object_version 4"));
}

#[test]
fn unsupported_things_are_located() {
    let opts = Options::new("gfx90a").unwrap();
    // Small-model (sig32) signal instructions are refused.
    let src = "module &m:1:0:$full:$small:$default;\n\
               kernel &k(kernarg_sig32 %s) { ld_kernarg_sig32 $d0, [%s]; \
               signalnoret_add_screl_s32_sig32 $d0, 1; ret; };\n";
    let err = finalize_text(src, "f.hsail", &opts).unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err}");
    assert!(err.to_string().starts_with("f.hsail:2:"), "{err}");
    assert!(err.to_string().contains("sig32"), "{err}");
    let brig = hsail::assemble(src, "f.hsail").unwrap();
    let err = finalize_brig(&brig, &opts).unwrap_err();
    assert!(err.to_string().contains("hsa_code offset 0x"), "{err}");
    assert!(Options::new("gfx1030").is_ok());
    assert!(finalize_text(VECTOR_ADD, "v.hsail", &Options::new("gfx1030").unwrap()).is_err());
    assert!(finalize_text("kernel", "x.hsail", &opts).is_err());
}
