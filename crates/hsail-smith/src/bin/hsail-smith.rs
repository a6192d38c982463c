//! `hsail-smith [--seed S] [--instructions N | --large N]`: prints a random
//! valid HSAIL module (for benchmarks and for reproducing a failing seed).

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut seed = 0u64;
    let mut instructions = None;
    let mut large = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--seed", Some(v)) => seed = v,
            ("--instructions", Some(v)) => instructions = Some(v as usize),
            ("--large", Some(v)) => large = Some(v as usize),
            _ => {
                eprintln!("usage: hsail-smith [--seed S] [--instructions N | --large N]");
                return ExitCode::from(2);
            }
        }
    }
    let text = match large {
        Some(n) => hsail_smith::generate_large(n, seed),
        None => {
            let mut config = hsail_smith::Config::default();
            if let Some(n) = instructions {
                config.instructions = n;
            }
            hsail_smith::generate(seed, &config)
        }
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}
