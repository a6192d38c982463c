//! Probe programs of the validator's differential test (`validate_probes`):
//! the hand-written lists in `tests/validate-probes/*.txt` (format in the
//! README there) and the exhaustive grids of [`grids`].
//!
//! A probe is one small module: a header kind (which `module` line it gets)
//! and the text after that line.

pub mod grids;

use std::path::Path;

/// Which `module` directive starts a probe (the short names of the probe
/// files).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// `$full:$large:$default`
    FullLarge,
    /// `$full:$small:$default`
    FullSmall,
    /// `$base:$large:$default`
    BaseLarge,
    /// `$base:$small:$near`
    BaseSmall,
    /// `$base:$large:$zero`
    BaseLargeZero,
    /// No module directive: the body brings its own (or none).
    None,
}

/// Short name, module line.
const HEADERS: &[(Header, &str, &str)] = &[
    (
        Header::FullLarge,
        "fl",
        "module &m:1:0:$full:$large:$default;",
    ),
    (
        Header::FullSmall,
        "fs",
        "module &m:1:0:$full:$small:$default;",
    ),
    (
        Header::BaseLarge,
        "bl",
        "module &m:1:0:$base:$large:$default;",
    ),
    (Header::BaseSmall, "bs", "module &m:1:0:$base:$small:$near;"),
    (
        Header::BaseLargeZero,
        "blz",
        "module &m:1:0:$base:$large:$zero;",
    ),
    (Header::None, "noh", ""),
];

impl Header {
    /// The header of a short name (`fl`, `fs`, `bl`, `bs`, `blz`, `noh`).
    pub fn from_short(name: &str) -> Option<Header> {
        HEADERS.iter().find(|h| h.1 == name).map(|h| h.0)
    }

    /// The short name.
    pub fn short(self) -> &'static str {
        HEADERS.iter().find(|h| h.0 == self).map_or("?", |h| h.1)
    }

    /// The `module` line (empty for [`Header::None`]).
    pub fn line(self) -> &'static str {
        HEADERS.iter().find(|h| h.0 == self).map_or("", |h| h.2)
    }
}

/// One probe program.
#[derive(Debug, Clone)]
pub struct Probe {
    /// `<set>/<name>`: the probe file's stem or the grid's name, then the
    /// probe's name in it.
    pub id: String,
    /// The module line it starts with.
    pub header: Header,
    /// Everything after the module line.
    pub body: String,
    /// The verdict a grid derives from its own PRM table (valid or not),
    /// when it has one; `None` when only the oracle decides.
    pub prm_valid: Option<bool>,
}

impl Probe {
    /// A probe without a PRM verdict of its own.
    pub fn new(id: String, header: Header, body: String) -> Probe {
        Probe {
            id,
            header,
            body,
            prm_valid: None,
        }
    }

    /// The whole module text.
    pub fn source(&self) -> String {
        match self.header {
            Header::None => self.body.clone(),
            h => format!("{}\n{}", h.line(), self.body),
        }
    }
}

/// Parses one probe file: `=== NAME HEADER` starts a probe whose body is
/// every following line up to the next `===` line; lines starting with
/// `# ` are comments anywhere. Errors name the line.
pub fn parse_probe_file(set: &str, text: &str) -> Result<Vec<Probe>, String> {
    let mut probes: Vec<Probe> = Vec::new();
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with("# ") || line.trim_end() == "#" {
            continue;
        }
        if let Some(rest) = line.strip_prefix("===") {
            let mut words = rest.split_whitespace();
            let (Some(name), Some(hdr), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("{set}:{}: expected `=== NAME HEADER`", n + 1));
            };
            let header = Header::from_short(hdr)
                .ok_or_else(|| format!("{set}:{}: unknown header kind `{hdr}`", n + 1))?;
            probes.push(Probe::new(format!("{set}/{name}"), header, String::new()));
        } else if let Some(p) = probes.last_mut() {
            p.body.push_str(line);
        } else if !line.trim().is_empty() {
            return Err(format!("{set}:{}: text before the first probe", n + 1));
        }
    }
    Ok(probes)
}

/// Every probe of every `*.txt` file in `dir`, in file order.
pub fn load_probe_files(dir: &Path) -> Result<Vec<Probe>, String> {
    let mut all = Vec::new();
    for path in oracles::files_with_extension(dir, "txt") {
        let set = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        all.extend(parse_probe_file(&set, &text)?);
    }
    Ok(all)
}
