//! Target facts against LLVM 19: the e_flags `llvm-mc-19 -filetype=obj`
//! writes for every processor (and feature combination), read back with
//! `llvm-readelf-19 -h`, and the `.amdgcn_target` text it prints.

use amdgpu_isa::target::{Arch, Feature, PROCESSORS, Setting, TargetId};
use std::process::{Command, Stdio};

fn oracle() -> bool {
    oracles::require("llvm-mc-19", "llvm-19") && oracles::require("llvm-readelf-19", "llvm-19")
}

fn e_flags(triple: &str, mcpu: &str, mattr: &str, scratch: &oracles::Scratch) -> u32 {
    e_flags_of(triple, mcpu, mattr, None, scratch)
}

/// The e_flags of llvm-mc-19's object for an empty source, or for one that
/// only sets the code object version `cov`.
fn e_flags_of(
    triple: &str,
    mcpu: &str,
    mattr: &str,
    cov: Option<u32>,
    scratch: &oracles::Scratch,
) -> u32 {
    let tag = cov.map_or(String::new(), |v| format!("-v{v}"));
    let obj = scratch.path(&format!("{mcpu}{mattr}{tag}.o").replace(',', "_"));
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args([
        &format!("-triple={triple}"),
        &format!("-mcpu={mcpu}"),
        "-filetype=obj",
        "-o",
    ])
    .arg(&obj);
    if !mattr.is_empty() {
        cmd.arg(format!("-mattr={mattr}"));
    }
    if let Some(v) = cov {
        let src = scratch.path(&format!("{mcpu}{tag}.s"));
        std::fs::write(&src, format!(".amdhsa_code_object_version {v}\n")).unwrap();
        cmd.arg(&src);
    }
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "llvm-mc-19 -mcpu={mcpu}: {out:?}");
    assert!(
        out.stderr.is_empty(),
        "llvm-mc-19 -mcpu={mcpu} complained: {out:?}"
    );
    let out = Command::new("llvm-readelf-19")
        .arg("-h")
        .arg(&obj)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("Flags:"))
        .unwrap();
    let hex = line
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches(',');
    u32::from_str_radix(hex.trim_start_matches("0x"), 16).unwrap()
}

#[test]
fn every_processor_e_flags_match_llvm() {
    if !oracle() {
        return;
    }
    let scratch = oracles::Scratch::new("amdgpu-isa-target");
    for p in PROCESSORS {
        let triple = match p.arch {
            Arch::R600 => "r600",
            Arch::Amdgcn => "amdgcn-amd-amdhsa",
        };
        let id = TargetId::new(p);
        assert_eq!(
            e_flags(triple, p.name, "", &scratch),
            id.e_flags_v4(),
            "{}",
            p.name
        );
        for alt in p.alt_names {
            assert_eq!(e_flags(triple, alt, "", &scratch), id.e_flags_v4(), "{alt}");
        }
    }
}

/// Code object V6 e_flags: generic targets carry their generic version
/// (`EF_AMDGPU_GENERIC_VERSION`), other processors do not; V4/V5 never.
#[test]
fn generic_version_matches_llvm() {
    if !oracle() {
        return;
    }
    let scratch = oracles::Scratch::new("amdgpu-isa-target-generic");
    let generic: Vec<_> = PROCESSORS
        .iter()
        .filter(|p| p.generic_version() != 0)
        .collect();
    assert!(generic.len() >= 5, "generic targets missing");
    let names = generic
        .iter()
        .map(|p| p.name)
        .chain(["gfx900", "gfx90a", "gfx1100"]);
    for name in names {
        let p = amdgpu_isa::Processor::from_name(name).unwrap();
        for cov in [4, 5, 6] {
            let id = TargetId::new(p).for_code_object(cov);
            let flags = e_flags_of("amdgcn-amd-amdhsa", name, "", Some(cov), &scratch);
            assert_eq!(flags, id.e_flags_v4(), "{name} v{cov}");
            assert_eq!(
                TargetId::from_e_flags_v4(flags).unwrap(),
                id,
                "{name} v{cov}"
            );
        }
    }
}

#[test]
fn feature_settings_match_llvm() {
    if !oracle() {
        return;
    }
    let scratch = oracles::Scratch::new("amdgpu-isa-target-features");
    for name in [
        "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx1010", "gfx801",
    ] {
        let p = amdgpu_isa::Processor::from_name(name).unwrap();
        let choices = |f: Feature| {
            if p.supports(f) {
                vec![(Setting::Any, ""), (Setting::On, "+"), (Setting::Off, "-")]
            } else {
                vec![(Setting::Any, "")]
            }
        };
        for (s, sp) in choices(Feature::Sramecc) {
            for (x, xp) in choices(Feature::Xnack) {
                let mut id = TargetId::new(p);
                let mut attrs = Vec::new();
                if !sp.is_empty() {
                    id = id.with(Feature::Sramecc, s).unwrap();
                    attrs.push(format!("{sp}sramecc"));
                }
                if !xp.is_empty() {
                    id = id.with(Feature::Xnack, x).unwrap();
                    attrs.push(format!("{xp}xnack"));
                }
                let mattr = attrs.join(",");
                let flags = e_flags("amdgcn-amd-amdhsa", name, &mattr, &scratch);
                assert_eq!(flags, id.e_flags_v4(), "{name} {mattr}");
                assert_eq!(TargetId::from_e_flags_v4(flags).unwrap(), id);
                // The target ID llvm-mc prints for this setting.
                let mut cmd = Command::new("llvm-mc-19");
                cmd.args(["-triple=amdgcn-amd-amdhsa", &format!("-mcpu={name}")]);
                if !mattr.is_empty() {
                    cmd.arg(format!("-mattr={mattr}"));
                }
                let out = cmd.stdin(Stdio::null()).output().unwrap();
                let text = String::from_utf8(out.stdout).unwrap();
                let printed = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix(".amdgcn_target \""))
                    .unwrap()
                    .trim_end_matches('"')
                    .to_string();
                assert_eq!(printed, id.to_string(), "{name} {mattr}");
                assert_eq!(TargetId::parse(&printed).unwrap(), id);
            }
        }
    }
}
