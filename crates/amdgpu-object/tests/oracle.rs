//! Differential tests against LLVM 19: code objects built at test time by
//! clang-19 / llvm-mc-19 + ld.lld-19 from `tests/codeobj/`, read by this
//! crate, and compared with what llvm-readelf-19 and llvm-objdump-19 say.

use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_object::read::CodeObject;
use amdgpu_object::{Metadata, metadata};
use oracles::Scratch;

fn inputs() -> PathBuf {
    oracles::workspace_root().join("tests/codeobj")
}

fn have_llvm() -> bool {
    oracles::clang_available() && oracles::llvm_available()
}

use oracles::run;

/// clang-19 OpenCL → relocatable object → ld.lld-19 shared object.
fn build_cl(s: &Scratch, src: &Path, mcpu: &str, cov: u32) -> (PathBuf, PathBuf) {
    let tag = format!(
        "{}-{}-v{cov}",
        src.file_stem().unwrap().to_str().unwrap(),
        mcpu.replace(':', "_")
    );
    let obj = s.path(&format!("{tag}.o"));
    let co = s.path(&format!("{tag}.co"));
    run(Command::new("clang-19")
        .args([
            "-x",
            "cl",
            "-cl-std=CL2.0",
            "-target",
            "amdgcn-amd-amdhsa",
            "-O3",
            "-nogpulib",
        ])
        .arg(format!("-mcpu={mcpu}"))
        .arg(format!("-mcode-object-version={cov}"))
        .arg("-c")
        .arg(src)
        .arg("-o")
        .arg(&obj));
    run(Command::new("ld.lld-19")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&co));
    (obj, co)
}

/// llvm-mc-19 assembly → relocatable object → ld.lld-19 shared object.
fn build_s(s: &Scratch, src: &Path, mcpu: &str, defsyms: &[&str]) -> (PathBuf, PathBuf) {
    let tag = format!("{}-{mcpu}", src.file_stem().unwrap().to_str().unwrap());
    let obj = s.path(&format!("{tag}.o"));
    let co = s.path(&format!("{tag}.co"));
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
        .arg(format!("-mcpu={mcpu}"));
    for d in defsyms {
        cmd.arg(format!("--defsym={d}"));
    }
    run(cmd.arg(src).arg("-o").arg(&obj));
    run(Command::new("ld.lld-19")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&co));
    (obj, co)
}

/// What llvm-objdump-19 prints for `NAME.kd`, from `.amdhsa_kernel` to
/// `.end_amdhsa_kernel` (or its error line).
fn objdump_kd(co: &Path, name: &str) -> String {
    let out = run(Command::new("llvm-objdump-19")
        .arg("-D")
        .arg(format!("--disassemble-symbols={name}.kd"))
        .arg(co));
    if let Some(start) = out.find(".amdhsa_kernel") {
        let end = out
            .find(".end_amdhsa_kernel")
            .expect("unterminated directives")
            + ".end_amdhsa_kernel\n".len();
        return out[start..end].to_string();
    }
    let line = out
        .lines()
        .find(|l| l.starts_with("; error decoding"))
        .expect("no descriptor output");
    line.to_string()
}

fn compare_descriptors(co_path: &Path) -> usize {
    let bytes = std::fs::read(co_path).unwrap();
    let co = CodeObject::parse(&bytes).unwrap();
    let target = co.header.target.clone().expect("target from e_flags");
    assert!(!co.kernels.is_empty(), "{co_path:?}: no kernels found");
    for k in &co.kernels {
        let kd = k.descriptor().expect("v3+ descriptor");
        let ours = match kd.to_directives(
            k.name,
            target.processor,
            co.header.code_object_version,
            k.descriptor_offset,
        ) {
            Ok(s) => s,
            Err(amdgpu_object::Error::KernelDescriptor { what, .. }) => {
                format!("; error decoding {}.kd: {what}", k.name)
            }
            Err(e) => panic!("{e}"),
        };
        let theirs = objdump_kd(co_path, k.name);
        assert_eq!(ours, theirs, "{co_path:?} kernel {}", k.name);
    }
    co.kernels.len()
}

#[test]
fn descriptors_print_like_llvm_objdump() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("kd");
    let cl = inputs().join("kernels.cl");
    let mut n = 0;
    for mcpu in ["gfx900", "gfx906", "gfx90a", "gfx942", "gfx1030", "gfx1100"] {
        for cov in [4, 5] {
            n += compare_descriptors(&build_cl(&s, &cl, mcpu, cov).1);
        }
    }
    for mcpu in ["gfx1010", "gfx1030", "gfx1100", "gfx1101"] {
        n += compare_descriptors(&build_s(&s, &inputs().join("wave32.s"), mcpu, &[]).1);
    }
    // GFX12 has no SHARED_VGPR_COUNT: the same kernels without it.
    let w32 = std::fs::read_to_string(inputs().join("wave32.s")).unwrap();
    let w32: String = w32
        .lines()
        .filter(|l| !l.contains("shared_vgpr_count"))
        .map(|l| format!("{l}\n"))
        .collect();
    for mcpu in ["gfx1200", "gfx1201"] {
        let src = s.path(&format!("wave32-{mcpu}.s"));
        std::fs::write(&src, &w32).unwrap();
        n += compare_descriptors(&build_s(&s, &src, mcpu, &[]).1);
    }
    // llvm-mc rejects `.ifdef` inside `.amdhsa_kernel`: resolve it here.
    let gfx9 = std::fs::read_to_string(inputs().join("gfx9.s")).unwrap();
    let (before, rest) = gfx9.split_once(".ifdef GFX90A\n").unwrap();
    let (inside, after) = rest.split_once(".endif\n").unwrap();
    for (mcpu, text) in [
        ("gfx900", format!("{before}{after}")),
        ("gfx90a", format!("{before}{inside}{after}")),
        ("gfx942", format!("{before}{inside}{after}")),
    ] {
        let src = s.path(&format!("gfx9-{mcpu}.s"));
        std::fs::write(&src, text).unwrap();
        n += compare_descriptors(&build_s(&s, &src, mcpu, &[]).1);
    }
    assert!(n >= 40, "compared only {n} descriptors");
}

/// The YAML llvm-readelf-19 prints for the metadata note.
fn readelf_metadata_yaml(co: &Path) -> String {
    let out = run(Command::new("llvm-readelf-19").arg("--notes").arg(co));
    let start =
        out.find("AMDGPU Metadata:\n").expect("no metadata note") + "AMDGPU Metadata:\n".len();
    let rest = out[start..].trim_start();
    let end = rest.find("\n...\n").expect("no YAML end") + "\n...\n".len();
    rest[..end].to_string()
}

#[test]
fn metadata_round_trips_byte_identical_and_prints_like_readelf() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("md");
    let cl = inputs().join("kernels.cl");
    for (mcpu, cov) in [
        ("gfx900", 4),
        ("gfx900", 5),
        ("gfx90a", 4),
        ("gfx90a", 5),
        ("gfx90a:xnack+", 5),
        ("gfx1100", 5),
    ] {
        let (obj, co_path) = build_cl(&s, &cl, mcpu, cov);
        for path in [&obj, &co_path] {
            let bytes = std::fs::read(path).unwrap();
            let co = CodeObject::parse(&bytes).unwrap();
            let note = co
                .notes
                .iter()
                .find(|n| n.name == "AMDGPU" && n.n_type == amdgpu_object::elf::NT_AMDGPU_METADATA)
                .expect("metadata note");
            let md = co.metadata.as_ref().unwrap();
            assert_eq!(md.code_object_version(), Some(cov), "{path:?}");
            assert_eq!(
                md.to_msgpack(),
                note.desc,
                "{path:?}: re-encoded metadata differs from LLVM's"
            );
            let yaml =
                metadata::to_yaml(&metadata::decode_value(note.desc, note.desc_offset).unwrap());
            let theirs = readelf_metadata_yaml(path);
            assert_eq!(yaml, theirs, "{path:?}");
            assert_eq!(
                md.to_yaml(),
                theirs,
                "{path:?}: typed metadata prints differently"
            );
            assert_eq!(
                md.target.as_deref(),
                Some(co.header.target.as_ref().unwrap().to_string().as_str()),
                "{path:?}: amdhsa.target vs e_flags"
            );
            assert_eq!(co.kernels.len(), md.kernels.len(), "{path:?}");
            for k in &co.kernels {
                let km = co.kernel_metadata(k).expect("metadata for every kernel");
                let kd = k.descriptor().unwrap();
                assert_eq!(
                    km.group_segment_fixed_size,
                    u64::from(kd.group_segment_fixed_size.get())
                );
                assert_eq!(
                    km.private_segment_fixed_size,
                    u64::from(kd.private_segment_fixed_size.get())
                );
                assert_eq!(km.kernarg_segment_size, u64::from(kd.kernarg_size.get()));
            }
        }
    }
}

/// `.amdgpu_metadata` YAML assembled by llvm-mc-19 gives the same bytes as
/// our encoder, including keys we do not see from clang.
#[test]
fn metadata_encoding_matches_llvm_mc() {
    if !have_llvm() {
        return;
    }
    let md = Metadata {
        kernels: vec![metadata::Kernel {
            agpr_count: Some(0),
            args: Some(vec![
                metadata::KernelArg {
                    access: Some(metadata::Access::ReadOnly),
                    actual_access: Some(metadata::Access::ReadOnly),
                    address_space: Some(metadata::AddressSpace::Global),
                    is_const: Some(true),
                    is_pipe: Some(false),
                    is_restrict: Some(true),
                    is_volatile: Some(false),
                    name: Some("in".into()),
                    type_name: Some("float*".into()),
                    ..metadata::KernelArg::new(metadata::ValueKind::GlobalBuffer, 0, 8)
                },
                metadata::KernelArg {
                    pointee_align: Some(16),
                    address_space: Some(metadata::AddressSpace::Local),
                    ..metadata::KernelArg::new(metadata::ValueKind::DynamicSharedPointer, 8, 4)
                },
                metadata::KernelArg::new(metadata::ValueKind::HiddenHeapV1, 96, 8),
                metadata::KernelArg::new(metadata::ValueKind::HiddenQueuePtr, 200, 8),
            ]),
            device_enqueue_symbol: Some("k.kd".into()),
            group_segment_fixed_size: 16,
            kernarg_segment_align: 8,
            kernarg_segment_size: 280,
            kind: Some(metadata::KernelKind::Init),
            language: Some("OpenCL C".into()),
            language_version: Some(vec![2, 0]),
            max_flat_workgroup_size: 1024,
            max_num_workgroups_x: None,
            max_num_workgroups_y: None,
            max_num_workgroups_z: None,
            name: "k".into(),
            private_segment_fixed_size: 300,
            reqd_workgroup_size: Some(vec![64, 1, 1]),
            sgpr_count: 100,
            sgpr_spill_count: Some(0),
            symbol: "k.kd".into(),
            uniform_work_group_size: Some(1),
            uses_dynamic_stack: Some(false),
            vec_type_hint: Some("float4".into()),
            vgpr_count: 256,
            vgpr_spill_count: Some(70000),
            wavefront_size: 64,
            workgroup_processor_mode: Some(1),
            workgroup_size_hint: Some(vec![8, 8, 1]),
        }],
        printf: Some(vec!["1:1:4:%d\\n".into()]),
        target: Some("amdgcn-amd-amdhsa--gfx900".into()),
        version: vec![1, 2],
    };
    let s = Scratch::new("mdmc");
    let src = s.path("md.s");
    std::fs::write(
        &src,
        format!(".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n.amdhsa_code_object_version 5\n.amdgpu_metadata\n{}.end_amdgpu_metadata\n", md.to_yaml()),
    )
    .unwrap();
    let obj = s.path("md.o");
    run(Command::new("llvm-mc-19")
        .args(["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj"])
        .arg(&src)
        .arg("-o")
        .arg(&obj));
    let bytes = std::fs::read(&obj).unwrap();
    let co = CodeObject::parse(&bytes).unwrap();
    let note = co.notes.iter().find(|n| n.n_type == 32).unwrap();
    assert_eq!(
        md.to_msgpack(),
        note.desc,
        "our msgpack differs from llvm-mc's"
    );
    assert_eq!(co.metadata.as_ref(), Some(&md));
    assert_eq!(md.to_yaml(), readelf_metadata_yaml(&obj));
}

struct ReadelfSection {
    name: String,
    sh_type: String,
    addr: u64,
    off: u64,
    size: u64,
}

fn readelf_sections(co: &Path) -> Vec<ReadelfSection> {
    let out = run(Command::new("llvm-readelf-19").arg("-S").arg(co));
    let mut v = Vec::new();
    for line in out.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('[') else {
            continue;
        };
        let Some((idx, rest)) = rest.split_once(']') else {
            continue;
        };
        if idx.trim().parse::<usize>().is_err() {
            continue;
        }
        let tok: Vec<&str> = rest.split_whitespace().collect();
        let (name, tok) = if tok.len() == 8 && tok[0] == "NULL" {
            ("", &tok[..])
        } else {
            (tok[0], &tok[1..])
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        v.push(ReadelfSection {
            name: name.into(),
            sh_type: tok[0].into(),
            addr: hex(tok[1]),
            off: hex(tok[2]),
            size: hex(tok[3]),
        });
    }
    v
}

fn readelf_type(t: u32) -> &'static str {
    use amdgpu_object::elf::*;
    match t {
        SHT_NULL => "NULL",
        SHT_PROGBITS => "PROGBITS",
        SHT_SYMTAB => "SYMTAB",
        SHT_STRTAB => "STRTAB",
        SHT_RELA => "RELA",
        SHT_HASH => "HASH",
        SHT_DYNAMIC => "DYNAMIC",
        SHT_NOTE => "NOTE",
        SHT_NOBITS => "NOBITS",
        SHT_REL => "REL",
        SHT_DYNSYM => "DYNSYM",
        SHT_GNU_HASH => "GNU_HASH",
        0x6fff_4c03 => "LLVM_ADDRSIG",
        _ => "?",
    }
}

/// Symbols as `llvm-readelf -s` lists them: (table, value, size, type, name).
fn readelf_symbols(co: &Path) -> Vec<(String, u64, u64, String, String)> {
    let out = run(Command::new("llvm-readelf-19")
        .arg("-s")
        .arg("--dyn-syms")
        .arg(co));
    let mut v = Vec::new();
    let mut table = String::new();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("Symbol table '") {
            table = rest.split('\'').next().unwrap().to_string();
            continue;
        }
        let tok: Vec<&str> = line.split_whitespace().collect();
        if tok.len() < 7 || !tok[0].ends_with(':') || tok[0] == "Num:" {
            continue;
        }
        let name = tok.get(7).copied().unwrap_or("").to_string();
        v.push((
            table.clone(),
            u64::from_str_radix(tok[1], 16).unwrap(),
            tok[2].parse().unwrap(),
            tok[3].to_string(),
            name,
        ));
    }
    v
}

fn sym_type(k: u8) -> &'static str {
    match k {
        0 => "NOTYPE",
        1 => "OBJECT",
        2 => "FUNC",
        3 => "SECTION",
        4 => "FILE",
        _ => "?",
    }
}

#[test]
fn sections_symbols_and_kernels_match_readelf() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("elf");
    let cl = inputs().join("kernels.cl");
    for (mcpu, cov) in [
        ("gfx900", 4),
        ("gfx904", 5),
        ("gfx90a", 5),
        ("gfx942", 5),
        ("gfx9-generic", 6),
        ("gfx1100", 5),
        ("gfx90a:sramecc-:xnack+", 5),
        ("gfx942:sramecc+", 4),
    ] {
        let (obj, co_path) = build_cl(&s, &cl, mcpu, cov);
        for path in [&obj, &co_path] {
            let bytes = std::fs::read(path).unwrap();
            let co = CodeObject::parse(&bytes).unwrap();
            let theirs = readelf_sections(path);
            assert_eq!(co.sections.len(), theirs.len(), "{path:?}");
            for (a, b) in co.sections.iter().zip(&theirs) {
                assert_eq!(
                    (a.name, readelf_type(a.sh_type), a.addr, a.offset, a.size),
                    (b.name.as_str(), b.sh_type.as_str(), b.addr, b.off, b.size),
                    "{path:?}"
                );
            }
            let mut ours = Vec::new();
            for (table, syms) in [(".dynsym", &co.dynamic_symbols), (".symtab", &co.symbols)] {
                for sy in syms.iter() {
                    ours.push((
                        table.to_string(),
                        sy.value,
                        sy.size,
                        sym_type(sy.kind).to_string(),
                        sy.name.to_string(),
                    ));
                }
            }
            let mut theirs = readelf_symbols(path);
            theirs.sort();
            ours.sort();
            assert_eq!(ours, theirs, "{path:?}");
            for (flag, ours) in [
                ("-h", amdgpu_object::print::readelf_header(&co)),
                ("-S", amdgpu_object::print::readelf_sections(&co)),
                ("-s", amdgpu_object::print::readelf_symbols(&co)),
                ("-l", amdgpu_object::print::readelf_segments(&co)),
            ] {
                let theirs = run(Command::new("llvm-readelf-19").arg(flag).arg(path));
                assert_eq!(ours, theirs, "{path:?}: llvm-readelf {flag}");
            }
            // Header facts: OS ABI 64, ABI version = cov - 2, e_flags mach.
            assert_eq!(co.header.os_abi, 64);
            assert_eq!(co.header.code_object_version, cov);
            assert_eq!(co.header.target.as_ref().unwrap().short(), mcpu);
            // Kernels: every .kd symbol, code = the function symbol's bytes.
            let names: Vec<_> = co.kernels.iter().map(|k| k.name).collect();
            assert_eq!(names, ["add", "k2", "many"], "{path:?}");
            for k in &co.kernels {
                assert!(!k.code.is_empty());
                if co.header.e_type == amdgpu_object::elf::ET_DYN {
                    let f = co.symbols.iter().find(|sy| sy.name == k.name).unwrap();
                    assert_eq!(
                        k.entry_address, f.value,
                        "entry = kd + kernel_code_entry_byte_offset"
                    );
                }
            }
        }
        // Relocatable objects carry the descriptor's entry offset as a relocation.
        let bytes = std::fs::read(&obj).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        let relocs = run(Command::new("llvm-readelf-19").arg("-r").arg(&obj));
        for r in &co.relocations {
            let name = amdgpu_object::elf::reloc_name(r.r_type).unwrap();
            let line = format!(
                "{:016x}  {:016x} {name}",
                r.offset,
                (u64::from(r.symbol) << 32) | u64::from(r.r_type)
            );
            assert!(relocs.contains(&line), "missing `{line}` in\n{relocs}");
        }
        assert!(
            co.relocations
                .iter()
                .any(|r| r.r_type == amdgpu_object::elf::R_AMDGPU_REL64 && r.symbol_name == "add")
        );
    }
}

/// Seeded mutations of real code objects: the reader returns errors, never panics.
#[test]
fn mutated_code_objects_never_panic() {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    if have_llvm() {
        let s = Scratch::new("fuzz");
        let (obj, co) = build_cl(&s, &inputs().join("kernels.cl"), "gfx90a", 5);
        seeds.push(std::fs::read(obj).unwrap());
        seeds.push(std::fs::read(co).unwrap());
    }
    seeds.push(vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 64, 3]);
    // Longer runs: AMDGPU_OBJECT_FUZZ_ITERS=100000 cargo test ... mutated
    let iterations: usize = std::env::var("AMDGPU_OBJECT_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for seed in &seeds {
        amdgpu_object::fuzz::fuzz_read(seed);
        for len in (0..seed.len()).step_by(97) {
            amdgpu_object::fuzz::fuzz_read(&seed[..len]);
        }
        for _ in 0..iterations {
            let mut m = seed.clone();
            for _ in 0..1 + rand() % 8 {
                let i = (rand() % m.len() as u64) as usize;
                m[i] = match rand() % 4 {
                    0 => 0xff,
                    1 => 0,
                    _ => rand() as u8,
                };
            }
            amdgpu_object::fuzz::fuzz_read(&m);
        }
    }
}

/// Our writer against `llvm-mc-19` + `ld.lld-19 -shared`: the same kernels
/// (code, descriptor, metadata) must give the same bytes, given lld's
/// `.comment` text.
#[test]
fn writer_matches_ld_lld_byte_for_byte() {
    use amdgpu_object::write::{KernelInput, WriteOptions, write_code_object};
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("write");
    for (mcpu, cov, nkernels, with_metadata) in [
        ("gfx900", 4, 1, true),
        ("gfx90a", 5, 2, true),
        ("gfx942", 5, 5, true),
        ("gfx1100", 5, 9, true),
        ("gfx90a", 4, 17, true),
        ("gfx1030", 6, 3, false),
        ("gfx906", 5, 1, false),
    ] {
        let mut asm = format!(
            ".amdgcn_target \"amdgcn-amd-amdhsa--{mcpu}\"\n.amdhsa_code_object_version {cov}\n"
        );
        let mut kernels = Vec::new();
        for i in 0..nkernels {
            let name = format!("kern_{i}");
            asm.push_str(&format!(
                ".text\n.globl {name}\n.p2align 8\n.type {name},@function\n{name}:\n"
            ));
            for _ in 0..i * 3 {
                asm.push_str("  s_nop 1\n");
            }
            asm.push_str(&format!(
                "  s_endpgm\n.L{name}_end:\n.size {name}, .L{name}_end-{name}\n"
            ));
            asm.push_str(&format!(".rodata\n.p2align 6\n.amdhsa_kernel {name}\n  .amdhsa_next_free_vgpr {}\n  .amdhsa_next_free_sgpr {}\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_group_segment_fixed_size {}\n", 1 + i, 2 + i, 64 * i));
            if matches!(mcpu, "gfx90a" | "gfx942") {
                asm.push_str("  .amdhsa_accum_offset 4\n");
            }
            asm.push_str(&format!(".end_amdhsa_kernel\n.protected {name}.kd\n"));
            let mut k = amdgpu_object::metadata::Kernel {
                agpr_count: Some(0),
                args: Some(vec![metadata::KernelArg::new(
                    metadata::ValueKind::GlobalBuffer,
                    0,
                    8,
                )]),
                device_enqueue_symbol: None,
                group_segment_fixed_size: 64 * i as u64,
                kernarg_segment_align: 8,
                kernarg_segment_size: 8,
                kind: None,
                language: Some("OpenCL C".into()),
                language_version: Some(vec![2, 0]),
                max_flat_workgroup_size: 256,
                max_num_workgroups_x: None,
                max_num_workgroups_y: None,
                max_num_workgroups_z: None,
                name: name.clone(),
                private_segment_fixed_size: 0,
                reqd_workgroup_size: None,
                sgpr_count: 8,
                sgpr_spill_count: Some(0),
                symbol: format!("{name}.kd"),
                uniform_work_group_size: None,
                uses_dynamic_stack: Some(false),
                vec_type_hint: None,
                vgpr_count: 4,
                vgpr_spill_count: Some(0),
                wavefront_size: 64,
                workgroup_processor_mode: None,
                workgroup_size_hint: None,
            };
            if cov == 5 {
                let (hidden, size) = amdgpu_object::abi::v5_geometry_hidden_args(8);
                k.args.as_mut().unwrap().extend(hidden);
                k.kernarg_segment_size = size;
            }
            kernels.push(k);
        }
        let md = Metadata {
            kernels,
            printf: None,
            target: Some(format!("amdgcn-amd-amdhsa--{mcpu}")),
            version: Metadata::version_for(cov),
        };
        if with_metadata {
            asm.push_str(&format!(
                ".amdgpu_metadata\n{}.end_amdgpu_metadata\n",
                md.to_yaml()
            ));
        }
        let src = s.path(&format!("w-{mcpu}-{cov}-{nkernels}.s"));
        std::fs::write(&src, asm).unwrap();
        let (_, co_path) = build_s(&s, &src, mcpu, &[]);
        let lld = std::fs::read(&co_path).unwrap();
        let co = CodeObject::parse(&lld).unwrap();
        assert_eq!(co.metadata.as_ref(), with_metadata.then_some(&md));
        let comment = co.section(".comment").unwrap().data;
        let mut opts = WriteOptions::new(co.header.target.clone().unwrap(), cov);
        opts.metadata = with_metadata.then(|| md.clone());
        opts.comment = std::str::from_utf8(&comment[..comment.len() - 1])
            .unwrap()
            .to_string();
        let inputs: Vec<KernelInput<'_>> = co
            .kernels
            .iter()
            .map(|k| KernelInput {
                name: k.name,
                code: k.code,
                descriptor: *k.descriptor().unwrap(),
            })
            .collect();
        assert_eq!(inputs.len(), nkernels);
        let ours = write_code_object(&inputs, &opts).unwrap();
        let ours_path = s.path(&format!("ours-{mcpu}-{cov}-{nkernels}.co"));
        std::fs::write(&ours_path, &ours).unwrap();
        let show = |p: &Path| {
            run(Command::new("llvm-readelf-19")
                .args(["-h", "-S", "-l", "-s", "--notes", "-d"])
                .arg(p))
            .replace(p.to_str().unwrap(), "FILE")
        };
        assert_eq!(
            show(&ours_path),
            show(&co_path),
            "{mcpu}: llvm-readelf output differs"
        );
        if let Some(i) = ours.iter().zip(&lld).position(|(a, b)| a != b) {
            panic!(
                "{mcpu}: first differing byte at offset {i:#x} (ours {:#04x}, lld {:#04x})",
                ours[i], lld[i]
            );
        }
        assert_eq!(ours.len(), lld.len(), "{mcpu}");
        // And our output reads back as what we wrote.
        let back = CodeObject::parse(&ours).unwrap();
        assert_eq!(back.kernels.len(), nkernels);
        for (a, b) in back.kernels.iter().zip(&co.kernels) {
            assert_eq!(
                (a.name, a.code, a.descriptor(), a.entry_address),
                (b.name, b.code, b.descriptor(), b.entry_address)
            );
        }
    }
}

/// The kernel ABI contract against the code clang-19 generates: the SGPRs
/// that our [`WaveLayout`](amdgpu_object::abi::WaveLayout) says hold the
/// kernarg/dispatch pointers and work-group IDs, and the VGPRs holding the
/// work-item IDs, are the ones the compiled code reads.
#[test]
fn wave_layout_matches_the_registers_clang_code_reads() {
    use amdgpu_object::abi::{SgprContent, WaveLayout, WorkItemIds};
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("abi");
    let src = inputs().join("abi.cl");
    let mut checked = 0;
    for mcpu in ["gfx900", "gfx906", "gfx90a", "gfx942", "gfx1030", "gfx1100"] {
        for cov in [4, 5] {
            let (_, co_path) = build_cl(&s, &src, mcpu, cov);
            let bytes = std::fs::read(&co_path).unwrap();
            let co = CodeObject::parse(&bytes).unwrap();
            let processor = co.header.target.as_ref().unwrap().processor;
            let dis = run(Command::new("llvm-objdump-19")
                .arg("-d")
                .arg(format!("--mcpu={mcpu}"))
                .arg(&co_path));
            for k in &co.kernels {
                let layout = WaveLayout::new(k.descriptor().unwrap(), processor);
                let header = format!("<{}>:\n", k.name);
                let body = &dis[dis.find(&header).unwrap() + header.len()..];
                let body = &body[..body.find("\n\n").unwrap_or(body.len())];
                let insts: Vec<String> = body
                    .lines()
                    .map(|l| l.split("//").next().unwrap().trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect();
                let ctx = format!("{mcpu} v{cov} {}: {layout:?}\n{}", k.name, insts.join("\n"));
                let pair = |c: SgprContent| {
                    let n = layout
                        .sgpr_of(c)
                        .unwrap_or_else(|| panic!("{c:?} not set up: {ctx}"));
                    format!("s[{n}:{}]", n + 1)
                };
                let loads_from = |base: &str| {
                    insts.iter().any(|i| {
                        i.starts_with("s_load") && i.split(", ").nth(1).is_some_and(|b| b == base)
                    })
                };
                let reads_sgpr = |c: SgprContent| {
                    let n = layout
                        .sgpr_of(c)
                        .unwrap_or_else(|| panic!("{c:?} not set up: {ctx}"));
                    let tok = format!("s{n}");
                    insts
                        .iter()
                        .any(|i| !i.starts_with("s_load") && i.split([' ', ',']).any(|t| t == tok))
                };
                assert!(
                    loads_from(&pair(SgprContent::KernargSegmentPtr)),
                    "kernarg pointer: {ctx}"
                );
                match k.name {
                    "wg_x" => assert!(reads_sgpr(SgprContent::WorkgroupId(0)), "{ctx}"),
                    "wg_y" => assert!(reads_sgpr(SgprContent::WorkgroupId(1)), "{ctx}"),
                    "wg_z" => assert!(reads_sgpr(SgprContent::WorkgroupId(2)), "{ctx}"),
                    "wg_yz_dispatch" => {
                        assert!(reads_sgpr(SgprContent::WorkgroupId(2)), "{ctx}");
                        assert!(
                            loads_from(&pair(SgprContent::DispatchPtr)),
                            "dispatch pointer: {ctx}"
                        );
                    }
                    "tid_y" | "tid_z" => {
                        let dim = if k.name == "tid_y" { 1 } else { 2 };
                        assert!(layout.work_item_ids.dims() > dim, "{ctx}");
                        let ok = match layout.work_item_ids {
                            WorkItemIds::Packed { .. } => {
                                let field = format!("v0, {}, 10", 10 * dim);
                                insts
                                    .iter()
                                    .any(|i| i.starts_with("v_bfe_u32") && i.ends_with(&field))
                            }
                            WorkItemIds::Separate { .. } => {
                                let v = format!("v{dim}");
                                insts.iter().any(|i| {
                                    i.starts_with("global_store")
                                        && i.split(", ").nth(1) == Some(v.as_str())
                                })
                            }
                        };
                        assert!(ok, "work-item id {dim}: {ctx}");
                    }
                    other => panic!("unexpected kernel {other}"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6 * 2 * 6);
}

/// v5 hidden arguments: our table places them where clang-19 does.
#[test]
fn v5_hidden_argument_layout_matches_clang() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("hidden");
    for mcpu in ["gfx900", "gfx90a", "gfx1100"] {
        let (_, co_path) = build_cl(&s, &inputs().join("kernels.cl"), mcpu, 5);
        let bytes = std::fs::read(&co_path).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        let md = co.metadata.as_ref().unwrap();
        let add = md.kernel("add").unwrap();
        let explicit_end = add
            .args()
            .iter()
            .filter(|a| !a.value_kind.is_hidden())
            .map(|a| a.offset + a.size)
            .max()
            .unwrap();
        let hidden: Vec<_> = add
            .args()
            .iter()
            .filter(|a| a.value_kind.is_hidden())
            .cloned()
            .collect();
        let (ours, size) = amdgpu_object::abi::v5_geometry_hidden_args(explicit_end);
        assert_eq!(ours, hidden, "{mcpu}");
        assert_eq!(size, add.kernarg_segment_size, "{mcpu}");
    }
}

/// v4 hidden arguments: our table places them where clang-19 does (a slot
/// clang does not fill is `hidden_none`).
#[test]
fn v4_hidden_argument_layout_matches_clang() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("hidden4");
    for mcpu in ["gfx900", "gfx90a"] {
        let (obj, _) = build_cl(&s, &inputs().join("hidden.cl"), mcpu, 4);
        let bytes = std::fs::read(&obj).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        let k = co.metadata.as_ref().unwrap().kernel("imp").unwrap();
        let explicit_end = k
            .args()
            .iter()
            .filter(|a| !a.value_kind.is_hidden())
            .map(|a| a.offset + a.size)
            .max()
            .unwrap();
        let base = explicit_end.next_multiple_of(8);
        let hidden: Vec<_> = k
            .args()
            .iter()
            .filter(|a| a.value_kind.is_hidden())
            .collect();
        assert_eq!(
            hidden.len(),
            amdgpu_object::abi::V4_HIDDEN_ARGS.len(),
            "{mcpu}"
        );
        for (a, (off, size, kind)) in hidden.iter().zip(amdgpu_object::abi::V4_HIDDEN_ARGS) {
            assert_eq!((a.offset, a.size), (base + off, *size), "{mcpu}: {a:?}");
            assert!(
                a.value_kind == *kind || a.value_kind == metadata::ValueKind::HiddenNone,
                "{mcpu}: {a:?}"
            );
        }
        assert_eq!(k.kernarg_segment_size, base + 56, "{mcpu}");
    }
}

/// Random `.amdhsa_kernel` directive sets: llvm-mc-19's descriptor bytes
/// equal [`KernelDirectives::build`](amdgpu_object::directives::KernelDirectives::build).
#[test]
fn directives_build_descriptors_like_llvm_mc() {
    use amdgpu_object::directives::KernelDirectives;
    use amdgpu_object::target::ProcessorExt;
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("dirs");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for mcpu in [
        "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100",
        "gfx1101", "gfx1200",
    ] {
        let target = amdgpu_object::TargetId::parse(mcpu).unwrap();
        let p = target.processor;
        let arch = p.has_architected_flat_scratch();
        let gfx10 = p.is_gfx10_plus();
        let mut asm = String::from(".amdhsa_code_object_version 5\n");
        let mut expected = Vec::new();
        for i in 0..60 {
            let mut d: Vec<(&str, u64)> = Vec::new();
            let maybe = |d: &mut Vec<(&str, u64)>, name: &'static str, v: u64, coin: u64| {
                if coin == 0 {
                    d.push((name, v));
                }
            };
            maybe(&mut d, "group_segment_fixed_size", rand(16385) * 4, rand(2));
            maybe(
                &mut d,
                "private_segment_fixed_size",
                rand(1025) * 4,
                rand(2),
            );
            maybe(&mut d, "kernarg_size", rand(257) * 4, rand(2));
            let mut implied = 0;
            for (name, count, ok) in [
                ("user_sgpr_private_segment_buffer", 4, !arch),
                ("user_sgpr_dispatch_ptr", 2, true),
                ("user_sgpr_queue_ptr", 2, true),
                ("user_sgpr_kernarg_segment_ptr", 2, true),
                ("user_sgpr_dispatch_id", 2, true),
                ("user_sgpr_flat_scratch_init", 2, !arch),
                ("user_sgpr_private_segment_size", 1, true),
            ] {
                if ok && rand(2) == 0 {
                    let v = rand(2);
                    implied += count * v;
                    d.push((name, v));
                }
            }
            if rand(3) == 0 {
                d.push(("user_sgpr_count", implied + rand(16 - implied + 1)));
            }
            // Without the directive, GFX10+ defaults to wave32 (checked against llvm-mc).
            let mut wave32 = gfx10;
            if gfx10 && rand(2) == 0 {
                wave32 = rand(2) == 0;
                d.push(("wavefront_size32", u64::from(wave32)));
            }
            maybe(&mut d, "uses_dynamic_stack", rand(2), rand(2));
            let private = if arch {
                "enable_private_segment"
            } else {
                "system_sgpr_private_segment_wavefront_offset"
            };
            maybe(&mut d, private, rand(2), rand(2));
            for name in [
                "system_sgpr_workgroup_id_x",
                "system_sgpr_workgroup_id_y",
                "system_sgpr_workgroup_id_z",
                "system_sgpr_workgroup_info",
            ] {
                maybe(&mut d, name, rand(2), rand(2));
            }
            maybe(&mut d, "system_vgpr_workitem_id", rand(3), rand(2));
            let shared = if gfx10
                && !wave32
                && p.generation < amdgpu_object::target::Generation::Gfx12
                && rand(2) == 0
            {
                rand(8)
            } else {
                0
            };
            let max_vgpr = if p.is_gfx90a_family() {
                512
            } else {
                4 * (64 - 2 * shared)
            };
            let next_free_vgpr = rand(max_vgpr + 1);
            d.push(("next_free_vgpr", next_free_vgpr));
            d.push(("next_free_sgpr", rand(91)));
            if p.is_gfx90a_family() {
                let max_accum = next_free_vgpr.max(1).next_multiple_of(4).min(256);
                d.push(("accum_offset", 4 * (1 + rand(max_accum / 4))));
                maybe(&mut d, "tg_split", rand(2), rand(2));
            }
            maybe(&mut d, "reserve_vcc", rand(2), rand(2));
            if !arch {
                maybe(&mut d, "reserve_flat_scratch", rand(2), rand(2));
            }
            if !gfx10 {
                // llvm-mc requires the value the target ID implies (xnack on or any).
                let xnack = matches!(
                    target.xnack,
                    Some(amdgpu_object::target::Setting::On | amdgpu_object::target::Setting::Any)
                );
                maybe(&mut d, "reserve_xnack_mask", u64::from(xnack), rand(2));
            }
            for name in [
                "float_round_mode_32",
                "float_round_mode_16_64",
                "float_denorm_mode_32",
                "float_denorm_mode_16_64",
            ] {
                maybe(&mut d, name, rand(4), rand(2));
            }
            let gfx12 = p.generation >= amdgpu_object::target::Generation::Gfx12;
            let rsrc1_flags: &[&str] = if gfx12 {
                &["round_robin_scheduling", "fp16_overflow"]
            } else {
                &["dx10_clamp", "ieee_mode", "fp16_overflow"]
            };
            for name in rsrc1_flags {
                maybe(&mut d, name, rand(2), rand(2));
            }
            if gfx10 {
                for name in [
                    "workgroup_processor_mode",
                    "memory_ordered",
                    "forward_progress",
                ] {
                    maybe(&mut d, name, rand(2), rand(2));
                }
                if shared != 0 || (!wave32 && !gfx12 && rand(2) == 0) {
                    d.push(("shared_vgpr_count", shared));
                }
            }
            for name in [
                "exception_fp_ieee_invalid_op",
                "exception_fp_denorm_src",
                "exception_fp_ieee_div_zero",
                "exception_fp_ieee_overflow",
                "exception_fp_ieee_underflow",
                "exception_fp_ieee_inexact",
                "exception_int_div_zero",
            ] {
                maybe(&mut d, name, rand(2), rand(4));
            }
            asm.push_str(&format!(
                ".text\n.p2align 8\nk{i}:\n  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k{i}\n"
            ));
            let mut dirs = KernelDirectives::new();
            for (name, v) in &d {
                asm.push_str(&format!("  .amdhsa_{name} {v}\n"));
                dirs.set(name, *v, &target)
                    .unwrap_or_else(|e| panic!("{mcpu} k{i}: {e}"));
            }
            asm.push_str(".end_amdhsa_kernel\n");
            let kd = dirs
                .build(&target)
                .unwrap_or_else(|e| panic!("{mcpu} k{i}: {e}\n{d:?}"));
            expected.push((format!("k{i}"), kd, d));
        }
        let src = s.path(&format!("dirs-{mcpu}.s"));
        std::fs::write(&src, &asm).unwrap();
        let (obj, _) = build_s(&s, &src, mcpu, &[]);
        let bytes = std::fs::read(&obj).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        for (name, kd, d) in &expected {
            let k = co.kernels.iter().find(|k| k.name == name).unwrap();
            let theirs = k.descriptor().unwrap();
            assert_eq!(
                kd.to_bytes(),
                theirs.to_bytes(),
                "{mcpu} {name}: ours {kd:#x?}\nllvm-mc {theirs:#x?}\n{d:?}"
            );
        }
    }
}

/// `print::kernel_descriptor_fields` (`hsakit readobj -F`) against the
/// descriptor bytes `llvm-objdump-19 -s -j .rodata` dumps and the symbol
/// values `llvm-readelf-19 -s` lists: every field of every descriptor.
#[test]
fn descriptor_fields_match_the_bytes_llvm_dumps() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("kd-fields");
    let cl = inputs().join("kernels.cl");
    let mut n = 0;
    for (mcpu, cov) in [("gfx900", 4), ("gfx90a", 5), ("gfx942", 5)] {
        let (_, co_path) = build_cl(&s, &cl, mcpu, cov);
        // .rodata bytes by address, from objdump's hex dump.
        let dump = run(Command::new("llvm-objdump-19")
            .args(["-s", "-j", ".rodata"])
            .arg(&co_path));
        let mut rodata = std::collections::BTreeMap::new();
        for line in dump.lines().filter(|l| l.starts_with(' ')) {
            let mut words = line.split_whitespace();
            let Some(addr) = words.next().and_then(|a| u64::from_str_radix(a, 16).ok()) else {
                continue;
            };
            // Up to four groups of hex digits, then the ASCII column.
            let hex: String = words
                .take(4)
                .take_while(|w| w.len() <= 8 && w.bytes().all(|c| c.is_ascii_hexdigit()))
                .collect();
            for i in 0..hex.len() / 2 {
                let b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
                rodata.insert(addr + i as u64, b);
            }
        }
        let syms = readelf_symbols(&co_path);
        let value_of = |name: &str| {
            syms.iter()
                .find(|sy| sy.4 == name && sy.0 == ".symtab")
                .map(|sy| sy.1)
                .unwrap()
        };
        let bytes = std::fs::read(&co_path).unwrap();
        let co = CodeObject::parse(&bytes).unwrap();
        let printed = amdgpu_object::print::kernel_descriptor_fields(&co);
        for k in &co.kernels {
            let at = value_of(&format!("{}.kd", k.name));
            let b = |o: u64, w: usize| -> u64 {
                (0..w as u64).fold(0, |v, i| v | u64::from(rodata[&(at + o + i)]) << (8 * i))
            };
            let entry = b(16, 8) as i64;
            let want = [
                format!("   0  group_segment_fixed_size       {}", b(0, 4)),
                format!("   4  private_segment_fixed_size     {}", b(4, 4)),
                format!("   8  kernarg_size                   {}", b(8, 4)),
                format!(
                    "  16  kernel_code_entry_byte_offset  {entry} (entry at {:#x})",
                    value_of(k.name)
                ),
                format!("  44  compute_pgm_rsrc3              {:#010x}", b(44, 4)),
                format!("  48  compute_pgm_rsrc1              {:#010x}", b(48, 4)),
                format!("  52  compute_pgm_rsrc2              {:#010x}", b(52, 4)),
                format!("  56  kernel_code_properties         {:#06x}", b(56, 2)),
                format!("  58  kernarg_preload                {:#06x}", b(58, 2)),
            ];
            let head = format!(
                "Kernel descriptor {}.kd at {:#x}:",
                k.name, k.descriptor_offset
            );
            let block = printed.split(&head).nth(1).expect("descriptor listed");
            for (line, want) in block.lines().skip(1).zip(&want) {
                assert_eq!(line, want, "{mcpu} v{cov} {}", k.name);
                n += 1;
            }
        }
    }
    assert!(n >= 9 * 9, "compared only {n} fields");
}
