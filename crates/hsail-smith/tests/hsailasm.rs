//! Every generated module must be accepted by the reference assembler
//! `HSAILasm` and be canonical-stable: assemble → disassemble → assemble
//! gives byte-identical BRIG. Skipped (loudly) when HSAILasm is not on
//! PATH, except under CI (`CI` set), where its absence is a failure.

use std::path::Path;
use std::process::Command;

use hsail_smith::{Config, MachineModel, Profile, generate, generate_large};

fn hsailasm_available() -> bool {
    oracles::hsailasm_available()
}

type TempDir = oracles::Scratch;

/// Runs HSAILasm; returns its stdout+stderr on failure.
fn run(args: &[&Path], flags: &[&str]) -> Result<(), String> {
    let out = Command::new("HSAILasm")
        .args(flags)
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() && text.trim().is_empty() {
        Ok(())
    } else {
        Err(format!("exit {:?}: {text}", out.status.code()))
    }
}

/// Assembles `text`, disassembles, re-assembles and compares the BRIG.
fn check(text: &str, dir: &TempDir, tag: &str) -> Result<(), String> {
    let src = dir.path(&format!("{tag}.hsail"));
    let brig = dir.path(&format!("{tag}.brig"));
    let dis = dir.path(&format!("{tag}.dis.hsail"));
    let brig2 = dir.path(&format!("{tag}.2.brig"));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    run(&[&src, Path::new("-o"), &brig], &[]).map_err(|e| format!("assemble: {e}"))?;
    run(&[&brig, Path::new("-o"), &dis], &["-disassemble"])
        .map_err(|e| format!("disassemble: {e}"))?;
    run(&[&dis, Path::new("-o"), &brig2], &[]).map_err(|e| format!("re-assemble: {e}"))?;
    let a = std::fs::read(&brig).map_err(|e| e.to_string())?;
    let b = std::fs::read(&brig2).map_err(|e| e.to_string())?;
    if a != b {
        return Err("BRIG differs after disassemble/re-assemble".to_owned());
    }
    Ok(())
}

fn check_seeds(test: &str, configs: &[(&str, Config)], seeds: std::ops::Range<u64>) {
    if !hsailasm_available() {
        return;
    }
    let dir = TempDir::new(test);
    let mut failures = Vec::new();
    for (name, config) in configs {
        for seed in seeds.clone() {
            let text = generate(seed, config);
            if let Err(e) = check(&text, &dir, &format!("{name}-{seed}")) {
                let kept =
                    std::env::temp_dir().join(format!("hsail-smith-fail-{name}-{seed}.hsail"));
                let _ = std::fs::write(&kept, &text);
                failures.push(format!("{name} seed {seed} ({}): {e}", kept.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn default_config_seeds_0_to_50_are_accepted_and_stable() {
    check_seeds("default", &[("default", Config::default())], 0..50);
}

#[test]
fn every_profile_and_model_is_accepted() {
    let mut configs = Vec::new();
    for (pn, profile) in [("full", Profile::Full), ("base", Profile::Base)] {
        for (mn, model) in [
            ("small", MachineModel::Small),
            ("large", MachineModel::Large),
        ] {
            let name: &'static str = match (pn, mn) {
                ("full", "small") => "full-small",
                ("full", _) => "full-large",
                (_, "small") => "base-small",
                _ => "base-large",
            };
            configs.push((
                name,
                Config {
                    instructions: 400,
                    profile: Some(profile),
                    model: Some(model),
                    images: model == MachineModel::Large,
                    comments: profile == Profile::Full,
                    ..Config::default()
                },
            ));
        }
    }
    check_seeds("models", &configs, 100..110);
}

#[test]
fn large_module_is_accepted() {
    if !hsailasm_available() {
        return;
    }
    let dir = TempDir::new("large");
    let text = generate_large(20_000, 9);
    check(&text, &dir, "large").unwrap();
}

/// Long run: `SMITH_SEEDS=5000 cargo test -p hsail-smith -- --ignored`.
#[test]
#[ignore = "long run; set SMITH_SEEDS"]
fn many_seeds() {
    let n = std::env::var("SMITH_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    check_seeds("many", &[("many", Config::default())], 1000..1000 + n);
}

#[test]
#[ignore = "slow: 200k instructions through HSAILasm"]
fn benchmark_sized_module_is_accepted() {
    if !hsailasm_available() {
        return;
    }
    let dir = TempDir::new("bench");
    let text = generate_large(200_000, 1);
    check(&text, &dir, "bench").unwrap();
}
