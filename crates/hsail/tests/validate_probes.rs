//! The validator's differential test against HSAILasm (issue #3): the
//! probe programs of the PRM audit (docs/validator-audit/), each run
//! through HSAILasm and through our assembler + validator (what
//! `hsakit validate` does), whose verdicts must agree.
//!
//! * Probes: the hand-written lists `tests/validate-probes/*.txt` (each
//!   invalid form with its valid neighbours; format in the README there)
//!   and the exhaustive grids of `probes::grids`.
//! * Exceptions: `tests/validate-probes/exceptions.list` names each probe
//!   where the PRM and HSAILasm part ways, with the PRM section and the
//!   direction. For those the test asserts OUR verdict (reject when the
//!   PRM is stricter, accept when HSAILasm is) and that HSAILasm still
//!   disagrees, so a stale entry fails too. Grid probes that carry a
//!   verdict from their own PRM table (image channel orders × types) are
//!   held to that verdict instead of HSAILasm's.
//! * Selection (env `VALIDATE_PROBES`): by default every hand-written probe,
//!   every exception and a seeded sample of [`DEFAULT_GRID_SAMPLE`] grid
//!   probes; `all` runs every grid probe too (~70,000, a few minutes),
//!   `hand` no grid probe, a number N a sample of N. `VALIDATE_PROBES_SEED`
//!   changes the sample, `VALIDATE_PROBES_FILTER` keeps ids containing a
//!   string, `VALIDATE_PROBES_REPORT=FILE` writes every failure there.
//!
//! `probe_lists_are_well_formed` needs no oracle: the files parse, ids are
//! unique and every exception names a probe.

mod probes;

use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use probes::Probe;

/// Grid probes run by default (next to every hand-written one).
const DEFAULT_GRID_SAMPLE: usize = 3000;

/// Seed of the default grid sample.
const DEFAULT_SEED: u64 = 20_261_122;

fn probe_dir() -> PathBuf {
    oracles::workspace_root().join("tests/validate-probes")
}

/// Which tool is stricter than the other on an exception probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// The PRM forbids it, HSAILasm accepts: we reject.
    PrmStricter,
    /// HSAILasm rejects what the PRM allows: we accept.
    HsailasmStricter,
}

/// One line of `exceptions.list`.
#[derive(Debug, Clone)]
struct Exception {
    way: Way,
    /// `PRM x.y`, for messages.
    prm: String,
}

/// Parses `exceptions.list`: `ID WAY PRM-SECTION REASON…` per line, `#`
/// comments and blank lines ignored.
fn load_exceptions() -> HashMap<String, Exception> {
    let path = probe_dir().join("exceptions.list");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut map = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [id, way, prm, _reason, ..] = words[..] else {
            panic!(
                "exceptions.list:{}: expected `ID WAY PRM-SECTION REASON`",
                n + 1
            );
        };
        let way = match way {
            "prm-stricter" => Way::PrmStricter,
            "hsailasm-stricter" => Way::HsailasmStricter,
            _ => panic!("exceptions.list:{}: unknown direction `{way}`", n + 1),
        };
        let entry = Exception {
            way,
            prm: format!("PRM {prm}"),
        };
        assert!(
            map.insert(id.to_string(), entry).is_none(),
            "exceptions.list:{}: {id} listed twice",
            n + 1
        );
    }
    map
}

/// Hand-written probes, then grid probes.
fn load_all() -> (Vec<Probe>, Vec<Probe>) {
    let hand = probes::load_probe_files(&probe_dir()).unwrap_or_else(|e| panic!("{e}"));
    (hand, probes::grids::all())
}

#[test]
fn probe_lists_are_well_formed() {
    let (hand, grid) = load_all();
    assert!(
        hand.len() > 2500,
        "hand-written probes not found ({})",
        hand.len()
    );
    assert!(grid.len() > 50_000, "grids too small ({})", grid.len());
    let mut ids = HashSet::new();
    for p in hand.iter().chain(&grid) {
        assert!(ids.insert(p.id.as_str()), "probe id {} is not unique", p.id);
    }
    for id in load_exceptions().keys() {
        assert!(
            ids.contains(id.as_str()),
            "exceptions.list names no probe: {id}"
        );
    }
}

/// The probes of this run: see the module documentation.
/// Returns them and how many of them are hand-written.
fn select(
    hand: Vec<Probe>,
    grid: Vec<Probe>,
    exceptions: &HashMap<String, Exception>,
) -> (Vec<Probe>, usize) {
    let mode = std::env::var("VALIDATE_PROBES").unwrap_or_default();
    let sample = match mode.as_str() {
        "all" => grid.len(),
        "hand" => 0,
        "" => DEFAULT_GRID_SAMPLE,
        n => n
            .parse()
            .unwrap_or_else(|_| panic!("VALIDATE_PROBES={n}: expected all, hand or a number")),
    };
    let seed = std::env::var("VALIDATE_PROBES_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let picked = sample_indices(grid.len(), sample, seed);
    let filter = std::env::var("VALIDATE_PROBES_FILTER").unwrap_or_default();
    let mut chosen: Vec<Probe> = hand
        .into_iter()
        .filter(|p| p.id.contains(&filter))
        .collect();
    let n_hand = chosen.len();
    chosen.extend(
        grid.into_iter()
            .enumerate()
            .filter(|(i, p)| picked.contains(i) || exceptions.contains_key(&p.id))
            .map(|(_, p)| p)
            .filter(|p| p.id.contains(&filter)),
    );
    (chosen, n_hand)
}

/// `k` distinct indices below `n`, chosen by a seeded partial shuffle.
fn sample_indices(n: usize, k: usize, seed: u64) -> HashSet<usize> {
    if k >= n {
        return (0..n).collect();
    }
    let mut rng = oracles::Rng::new(seed);
    let mut order: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = i + rng.below(n - i);
        order.swap(i, j);
    }
    order[..k].iter().copied().collect()
}

/// What both tools said about one probe.
struct Outcome {
    /// HSAILasm's verdict and, when it rejected, its last output line.
    hsailasm: Result<(), String>,
    /// Our verdict and, when we rejected, our first diagnostic line; `None`
    /// when we panicked.
    ours: Option<Result<(), String>>,
}

/// Runs one probe through HSAILasm and through `assemble_validated`.
fn run_probe(probe: &Probe) -> Outcome {
    let source = probe.source();
    let hsailasm = oracles::hsailasm_assemble(&source).map(drop).map_err(|e| {
        let last = e.output.trim().lines().last().unwrap_or_default();
        last.to_string()
    });
    let ours = panic::catch_unwind(AssertUnwindSafe(|| {
        hsail::lower::assemble_validated(&source, "probe.hsail", false)
            .map(drop)
            .map_err(|d| d.to_string().lines().next().unwrap_or_default().to_string())
    }))
    .ok();
    Outcome { hsailasm, ours }
}

/// Runs every probe on all cores; outcomes in probe order.
fn run_all(probes: &[Probe]) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> =
        Mutex::new((0..probes.len()).map(|_| None).collect());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(probe) = probes.get(i) else { break };
                    let outcome = run_probe(probe);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|o| o.expect("every probe ran"))
        .collect()
}

fn verdict(r: &Result<(), String>) -> &'static str {
    if r.is_ok() { "accepts" } else { "rejects" }
}

/// The failure message for `probe`, or `None` when the verdicts are as
/// required.
fn judge(probe: &Probe, o: &Outcome, exception: Option<&Exception>) -> Option<String> {
    let Some(ours) = &o.ours else {
        return Some("our assembler/validator PANICKED".to_string());
    };
    let (we_accept, they_accept) = (ours.is_ok(), o.hsailasm.is_ok());
    if let Some(e) = exception {
        let should_accept = e.way == Way::HsailasmStricter;
        if we_accept != should_accept {
            return Some(format!(
                "exception ({:?}, {}): we must {} it",
                e.way,
                e.prm,
                if should_accept { "accept" } else { "reject" }
            ));
        }
        if they_accept == we_accept {
            return Some(format!(
                "exception ({:?}, {}) is stale: HSAILasm now agrees; remove it from exceptions.list",
                e.way, e.prm
            ));
        }
        return None;
    }
    let (expected, by) = match probe.prm_valid {
        Some(v) => (v, "the grid's PRM table"),
        None => (they_accept, "HSAILasm"),
    };
    (we_accept != expected).then(|| {
        format!(
            "{by} {} it, we {}",
            if expected { "accepts" } else { "rejects" },
            verdict(ours)
        )
    })
}

/// Describes one failing probe with both tools' messages and its source.
fn describe(probe: &Probe, o: &Outcome, why: &str) -> String {
    let mut s = format!("{} [{}]: {why}", probe.id, probe.header.short());
    if let Err(m) = &o.hsailasm {
        s.push_str(&format!("\n    HSAILasm: {m}"));
    }
    if let Some(Err(m)) = &o.ours {
        s.push_str(&format!("\n    we      : {m}"));
    }
    for line in probe.body.lines() {
        s.push_str(&format!("\n    | {line}"));
    }
    s
}

#[test]
fn validator_agrees_with_hsailasm_on_the_probes() {
    if !oracles::hsailasm_available() {
        return;
    }
    let exceptions = load_exceptions();
    let (hand, grid) = load_all();
    let n_grid = grid.len();
    let (probes, n_hand) = select(hand, grid, &exceptions);
    let start = Instant::now();
    let outcomes = run_all(&probes);
    let elapsed = start.elapsed();
    let mut failures = Vec::new();
    let mut table_overrides = 0;
    for (p, o) in probes.iter().zip(&outcomes) {
        let exception = exceptions.get(&p.id);
        if p.prm_valid.is_some_and(|v| v != o.hsailasm.is_ok()) && exception.is_none() {
            table_overrides += 1;
        }
        if let Some(why) = judge(p, o, exception) {
            failures.push(describe(p, o, &why));
        }
    }
    eprintln!(
        "validate probes: {} run ({n_hand} hand-written, {} of {n_grid} grid) in {:.1} s; \
         {} exceptions listed, {table_overrides} grid probes held to their PRM table; {} failures",
        probes.len(),
        probes.len().saturating_sub(n_hand),
        elapsed.as_secs_f64(),
        exceptions.len(),
        failures.len()
    );
    if let Ok(path) = std::env::var("VALIDATE_PROBES_REPORT") {
        std::fs::write(&path, failures.join("\n") + "\n").expect("cannot write the report");
    }
    let shown: Vec<&str> = failures.iter().take(60).map(String::as_str).collect();
    assert!(
        failures.is_empty(),
        "{} of {} probes fail: our verdict differs from HSAILasm's or from \
         tests/validate-probes/exceptions.list{}:\n{}",
        failures.len(),
        probes.len(),
        if failures.len() > shown.len() {
            "; first 60"
        } else {
            ""
        },
        shown.join("\n")
    );
}
