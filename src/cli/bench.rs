//! `verify bench`: runs the verifier on every file of a benchmark manifest and scores the answers.
//!
//! Each file runs in its own child process (`VERIFY --format json --timeout S [--property P]
//! [EXTRA] FILE`, the property option `termination` for files with a termination label,
//! `no-data-race` for files tagged `prop:datarace`, `valid-memsafety` for other C files tagged
//! `no-explicit-assert`) under a
//! wall limit of `S + 2` seconds, after which the child's whole process group (the verifier and its
//! SMT solvers) is killed, so a hanging file never hangs the bench. `jobs` worker threads run
//! children in parallel; results are sorted by manifest path, so the output does not depend on
//! scheduling.
//!
//! Classification of one file (expected verdict from the manifest, answer from the child):
//!
//! * **correct**: the verdict answers the expected one (`safe` for `Safe`, `unsafe` for `Unsafe`,
//!   `terminating` for `Terminating`/`rTermination`/`rTerminationDerivable`, `nonterminating` for
//!   `Nonterminating`/`rNonTermination`/`rNonTerminationDerivable`, `error` for `SyntaxError`);
//! * **wrong**: the opposite answer of the same property (or any `safe`/`unsafe`/`terminating`/
//!   `nonterminating` answer on a `SyntaxError` file);
//! * **timeout**: killed at the wall limit, or verdict `unknown` with a reason starting "timeout";
//! * **unknown**: any other `unknown`;
//! * **error**: a crash (signal, exit code 4, exit code inconsistent with the verdict), output
//!   without a parsable verdict line, verdict `error` on a file that is not expected `SyntaxError`,
//!   or an answer about the other property (e.g. `safe` on a termination file).
//!
//! Scores follow SV-COMP: correct safe/terminating +2, correct unsafe/nonterminating +1, wrong
//! safe/terminating (the program has a bug, we claimed a proof) −32, wrong unsafe/nonterminating
//! −16; `SyntaxError` files score 0.
//!
//! Architecture: [`run_bench`] does the work and writes `--out`; [`render_tables`] only formats.
//! Neither depends on clap: the CLI builds a [`BenchOptions`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Extra wall-clock seconds a child gets beyond its `--timeout` before it is killed.
pub const GRACE_S: f64 = 2.0;

/// Options of `verify bench`, independent of the argument parser.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The TSV manifest (`path tier category expected features`).
    pub manifest: PathBuf,
    /// Run only these tiers (all if `None`).
    pub tiers: Option<Vec<String>>,
    /// Number of children run in parallel (at least 1).
    pub jobs: usize,
    /// Per-file timeout passed to the child, in seconds.
    pub timeout_s: f64,
    /// Write JSON results here.
    pub out: Option<PathBuf>,
    /// Compare outcomes with an earlier JSON results file.
    pub compare: Option<PathBuf>,
    /// The `verify` executable to run on each file.
    pub verify_exe: PathBuf,
    /// Extra arguments passed to each child before the file name.
    pub extra_args: Vec<String>,
    /// Show a progress line on stderr (only if stderr is a terminal).
    pub progress: bool,
}

/// The expected verdict of a manifest entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Expected {
    /// No assertion can fail.
    Safe,
    /// Some assertion can fail.
    Unsafe,
    /// The program must be rejected.
    SyntaxError,
    /// Every execution terminates.
    Terminating,
    /// Some execution does not terminate.
    Nonterminating,
    /// Lasso program, terminating.
    RTermination,
    /// Lasso program, terminating, and a ranking function must be derivable.
    RTerminationDerivable,
    /// Lasso program, nonterminating.
    RNonTermination,
    /// Lasso program, nonterminating, and a nontermination argument must be derivable.
    RNonTerminationDerivable,
}

impl Expected {
    const ALL: [(Expected, &'static str); 9] = [
        (Expected::Safe, "Safe"),
        (Expected::Unsafe, "Unsafe"),
        (Expected::SyntaxError, "SyntaxError"),
        (Expected::Terminating, "Terminating"),
        (Expected::Nonterminating, "Nonterminating"),
        (Expected::RTermination, "rTermination"),
        (Expected::RTerminationDerivable, "rTerminationDerivable"),
        (Expected::RNonTermination, "rNonTermination"),
        (
            Expected::RNonTerminationDerivable,
            "rNonTerminationDerivable",
        ),
    ];

    /// Parses a manifest label.
    pub fn parse(label: &str) -> Option<Expected> {
        Self::ALL.iter().find(|(_, l)| *l == label).map(|(e, _)| *e)
    }

    /// The manifest label.
    pub fn label(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, l)| l)
    }

    /// Whether the label is about termination (the task's property, like an SV-COMP property file;
    /// only the property, never the expected answer, reaches the verifier).
    pub fn is_termination(self) -> bool {
        !matches!(
            self,
            Expected::Safe | Expected::Unsafe | Expected::SyntaxError
        )
    }

    /// The verdict that answers this expectation correctly.
    pub fn correct_verdict(self) -> &'static str {
        match self {
            Expected::Safe => "safe",
            Expected::Unsafe => "unsafe",
            Expected::SyntaxError => "error",
            Expected::Terminating | Expected::RTermination | Expected::RTerminationDerivable => {
                "terminating"
            }
            Expected::Nonterminating
            | Expected::RNonTermination
            | Expected::RNonTerminationDerivable => "nonterminating",
        }
    }
}

/// One row of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// Path relative to the manifest's directory.
    pub path: String,
    /// Tier (`T1`…).
    pub tier: String,
    /// Category (directory).
    pub category: String,
    /// Ground truth.
    pub expected: Expected,
    /// Comma-separated feature tags.
    pub features: String,
}

/// Parses a manifest (TSV with a header naming at least `path`, `tier`, `category`, `expected`).
/// Blank lines and lines starting with `#` are ignored.
pub fn parse_manifest(text: &str) -> Result<Vec<ManifestEntry>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let Some((_, header)) = lines.next() else {
        return Err("manifest is empty (expected a header line)".into());
    };
    let columns: Vec<&str> = header.split('\t').map(str::trim).collect();
    let column = |name: &str| {
        columns
            .iter()
            .position(|c| *c == name)
            .ok_or_else(|| format!("manifest header lacks column `{name}`"))
    };
    let (c_path, c_tier, c_cat, c_exp) = (
        column("path")?,
        column("tier")?,
        column("category")?,
        column("expected")?,
    );
    let c_feat = column("features").ok();
    let mut entries = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, line) in lines {
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        let get = |c: usize, name: &str| {
            fields
                .get(c)
                .copied()
                .ok_or_else(|| format!("manifest line {}: missing column `{name}`", i + 1))
        };
        let path = get(c_path, "path")?.to_string();
        let label = get(c_exp, "expected")?;
        let expected = Expected::parse(label).ok_or_else(|| {
            format!(
                "manifest line {}: unknown expected verdict `{label}`",
                i + 1
            )
        })?;
        if path.is_empty() {
            return Err(format!("manifest line {}: empty path", i + 1));
        }
        if !seen.insert(path.clone()) {
            return Err(format!("manifest line {}: duplicate path `{path}`", i + 1));
        }
        entries.push(ManifestEntry {
            path,
            tier: get(c_tier, "tier")?.to_string(),
            category: get(c_cat, "category")?.to_string(),
            expected,
            features: c_feat
                .and_then(|c| fields.get(c))
                .unwrap_or(&"")
                .to_string(),
        });
    }
    Ok(entries)
}

/// How one file's answer is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The expected verdict.
    Correct,
    /// The opposite verdict: a soundness or completeness bug.
    Wrong,
    /// No answer (not a timeout).
    Unknown,
    /// Ran out of time.
    Timeout,
    /// Crash, internal error, unparsable output, or an input error on a valid file.
    Error,
}

impl Outcome {
    /// Lower-case name, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Correct => "correct",
            Outcome::Wrong => "wrong",
            Outcome::Unknown => "unknown",
            Outcome::Timeout => "timeout",
            Outcome::Error => "error",
        }
    }
}

/// The result for one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileResult {
    /// Path as in the manifest.
    pub path: String,
    /// Tier.
    pub tier: String,
    /// Category.
    pub category: String,
    /// Expected verdict (manifest label).
    pub expected: String,
    /// The child's verdict, if it printed one.
    pub verdict: Option<String>,
    /// Classification.
    pub outcome: Outcome,
    /// Wall-clock seconds measured by the runner.
    pub time_s: f64,
    /// The child's reason, or why the runner classified the file as it did.
    pub reason: String,
    /// SV-COMP score of this answer.
    #[serde(default)]
    pub score: i64,
}

/// Aggregates over a set of files.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Number of files.
    pub files: usize,
    /// Correct answers.
    pub correct: usize,
    /// Wrong answers.
    pub wrong: usize,
    /// Unknown answers.
    pub unknown: usize,
    /// Timeouts.
    pub timeout: usize,
    /// Errors.
    pub error: usize,
    /// SV-COMP score.
    pub score: i64,
    /// Total wall time, seconds.
    pub total_time_s: f64,
    /// Median wall time over all files, seconds.
    pub median_time_s: f64,
    /// Median wall time over correct answers, seconds (0 if none).
    pub median_correct_time_s: f64,
}

impl Row {
    fn of<'a>(results: impl IntoIterator<Item = &'a FileResult>) -> Row {
        let mut row = Row::default();
        let mut times = Vec::new();
        let mut correct_times = Vec::new();
        for r in results {
            row.files += 1;
            row.score += r.score;
            row.total_time_s += r.time_s;
            times.push(r.time_s);
            match r.outcome {
                Outcome::Correct => {
                    row.correct += 1;
                    correct_times.push(r.time_s);
                }
                Outcome::Wrong => row.wrong += 1,
                Outcome::Unknown => row.unknown += 1,
                Outcome::Timeout => row.timeout += 1,
                Outcome::Error => row.error += 1,
            }
        }
        row.total_time_s = round_us(row.total_time_s);
        row.median_time_s = round_us(median(&mut times));
        row.median_correct_time_s = round_us(median(&mut correct_times));
        row
    }
}

/// Rounds seconds to microseconds, so that times survive a JSON round trip exactly.
fn round_us(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// A file whose outcome differs from an earlier run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// Path as in the manifest.
    pub path: String,
    /// Outcome in the earlier run (`None` if the file was not in it).
    pub old: Option<Outcome>,
    /// Outcome now.
    pub new: Outcome,
}

/// Everything a bench run produced; also the `--out` JSON document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchSummary {
    /// The manifest that was run.
    pub manifest: String,
    /// Per-file timeout, seconds.
    pub timeout_s: f64,
    /// Per-file results, sorted by path.
    pub results: Vec<FileResult>,
    /// Totals over all files.
    pub total: Row,
    /// Per tier.
    pub tiers: BTreeMap<String, Row>,
    /// Per category.
    pub categories: BTreeMap<String, Row>,
    /// Outcome changes against `--compare` (absent without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<Change>>,
}

impl BenchSummary {
    /// Builds the aggregates from per-file results (sorted by path here).
    pub fn from_results(
        manifest: String,
        timeout_s: f64,
        mut results: Vec<FileResult>,
    ) -> BenchSummary {
        results.sort_by(|a, b| a.path.cmp(&b.path));
        let total = Row::of(&results);
        let group = |key: fn(&FileResult) -> &str| {
            let mut groups: BTreeMap<String, Vec<&FileResult>> = BTreeMap::new();
            for r in &results {
                groups.entry(key(r).to_string()).or_default().push(r);
            }
            groups
                .into_iter()
                .map(|(k, rs)| (k, Row::of(rs)))
                .collect::<BTreeMap<_, _>>()
        };
        let tiers = group(|r| &r.tier);
        let categories = group(|r| &r.category);
        BenchSummary {
            manifest,
            timeout_s,
            results,
            total,
            tiers,
            categories,
            changes: None,
        }
    }

    /// Reads a summary written by `--out`.
    pub fn from_json(text: &str) -> Result<BenchSummary, String> {
        serde_json::from_str(text).map_err(|e| format!("invalid bench results: {e}"))
    }

    /// Serializes as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Files of this run whose outcome differs from `old`'s (in path order).
    pub fn compare(&self, old: &BenchSummary) -> Vec<Change> {
        let old: BTreeMap<&str, Outcome> = old
            .results
            .iter()
            .map(|r| (r.path.as_str(), r.outcome))
            .collect();
        self.results
            .iter()
            .filter_map(|r| {
                let before = old.get(r.path.as_str()).copied();
                (before != Some(r.outcome)).then(|| Change {
                    path: r.path.clone(),
                    old: before,
                    new: r.outcome,
                })
            })
            .collect()
    }
}

/// What the child printed: the last JSON object line with a `verdict`.
#[derive(Debug, Deserialize)]
struct ChildLine {
    verdict: String,
    #[serde(default)]
    reason: Option<String>,
}

/// How a child ended.
#[derive(Debug)]
pub struct ChildRun {
    /// Exit status, or `None` if the runner killed it at the wall limit.
    pub status: Option<ExitStatus>,
    /// Everything the child wrote to stdout.
    pub stdout: String,
    /// Everything the child wrote to stderr.
    pub stderr: String,
    /// Wall-clock seconds.
    pub time_s: f64,
}

/// Runs `cmd` with a wall limit; on expiry kills the child's process group. Never blocks longer than
/// the limit plus a bounded drain time (5 s after a normal exit, 0.5 s after a kill), even if
/// grandchildren keep the output pipes open.
pub fn run_with_wall_limit(mut cmd: Command, limit: Duration) -> Result<ChildRun, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let (tx, rx) = mpsc::channel();
    let readers = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ];
    for (i, reader) in readers.into_iter().enumerate() {
        let tx = tx.clone();
        thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = reader {
                let _ = r.read_to_end(&mut buf);
            }
            let _ = tx.send((i, buf));
        });
    }
    drop(tx);
    // A limit too large to add to an instant is no limit.
    let deadline = start.checked_add(limit);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                kill_group(&mut child);
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                kill_group(&mut child);
                let _ = child.wait();
                return Err(format!("waiting for child failed: {e}"));
            }
        }
    };
    let time_s = start.elapsed().as_secs_f64();
    // Orphaned grandchildren may keep a pipe open after the child exited: kill the group, then drain
    // with a bounded wait.
    #[cfg(unix)]
    if status.is_some() {
        kill_group(&mut child);
    }
    // The readers see end-of-file as soon as the group is gone; on a loaded machine they may be
    // scheduled late, so a child that exited by itself gets a longer (still bounded) drain than
    // one killed at the limit — a verdict line already written must not be lost.
    let mut out = [Vec::new(), Vec::new()];
    let drain = if status.is_some() {
        Duration::from_secs(5)
    } else {
        Duration::from_millis(500)
    };
    let drain_deadline = Instant::now() + drain;
    for _ in 0..2 {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((i, buf)) => out[i] = buf,
            Err(_) => break,
        }
    }
    let [stdout, stderr] = out;
    Ok(ChildRun {
        status,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        time_s,
    })
}

#[cfg(unix)]
fn kill_group(child: &mut std::process::Child) {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: `kill(2)` has no memory-safety preconditions. The child was started with
        // `process_group(0)`, so its pid is its process group id; a negative pid addresses the group.
        // Only processes of that group (the child and its descendants) are signalled.
        unsafe {
            kill(-pid, SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(not(unix))]
fn kill_group(child: &mut std::process::Child) {
    let _ = child.kill();
}

/// The SV-COMP score of an outcome on a file expected `expected`.
fn score(expected: Expected, outcome: Outcome) -> i64 {
    let proof_like = matches!(expected.correct_verdict(), "safe" | "terminating");
    let bug_like = matches!(expected.correct_verdict(), "unsafe" | "nonterminating");
    match outcome {
        Outcome::Correct if proof_like => 2,
        Outcome::Correct if bug_like => 1,
        // Expected a bug, answered "proof": wrong safe.
        Outcome::Wrong if bug_like => -32,
        // Expected a proof, answered "bug": wrong unsafe.
        Outcome::Wrong if proof_like => -16,
        _ => 0,
    }
}

/// The exit code a well-behaved child uses for `verdict`.
fn expected_exit_codes(verdict: &str) -> &'static [i32] {
    match verdict {
        "safe" | "terminating" => &[0],
        "unsafe" | "nonterminating" => &[1],
        "unknown" => &[2],
        "error" => &[3, 4],
        _ => &[],
    }
}

/// Classifies a finished child. Returns (verdict, outcome, reason).
pub fn classify(
    expected: Expected,
    run: &ChildRun,
    timeout_s: f64,
) -> (Option<String>, Outcome, String) {
    let Some(status) = run.status else {
        return (
            None,
            Outcome::Timeout,
            format!("killed at wall limit ({:.1} s)", timeout_s + GRACE_S),
        );
    };
    let line = run
        .stdout
        .lines()
        .rev()
        .filter(|l| l.trim_start().starts_with('{'))
        .find_map(|l| serde_json::from_str::<ChildLine>(l).ok());
    let code = status.code();
    let Some(line) = line else {
        let why = match code {
            Some(c) => format!("exit code {c}"),
            None => signal_description(status),
        };
        let stderr_tail = run
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        return (
            None,
            Outcome::Error,
            format!("no verdict line ({why}); stderr: {stderr_tail}"),
        );
    };
    let verdict = line.verdict;
    let reason = line.reason.unwrap_or_default();
    let Some(code) = code else {
        let why = signal_description(status);
        return (
            Some(verdict),
            Outcome::Error,
            format!("{why} after printing a verdict; {reason}"),
        );
    };
    if code == 4 {
        return (
            Some(verdict),
            Outcome::Error,
            format!("internal error (exit 4): {reason}"),
        );
    }
    let codes = expected_exit_codes(&verdict);
    if codes.is_empty() {
        return (
            Some(verdict.clone()),
            Outcome::Error,
            format!("unrecognised verdict `{verdict}`"),
        );
    }
    if !codes.contains(&code) {
        return (
            Some(verdict.clone()),
            Outcome::Error,
            format!("exit code {code} inconsistent with verdict `{verdict}`; {reason}"),
        );
    }
    let correct = expected.correct_verdict();
    let outcome = match verdict.as_str() {
        v if v == correct => Outcome::Correct,
        "unknown" if reason.starts_with("timeout") => Outcome::Timeout,
        "unknown" => Outcome::Unknown,
        "error" => Outcome::Error,
        _ if expected == Expected::SyntaxError => Outcome::Wrong,
        "safe" | "unsafe" if matches!(correct, "safe" | "unsafe") => Outcome::Wrong,
        "terminating" | "nonterminating" if matches!(correct, "terminating" | "nonterminating") => {
            Outcome::Wrong
        }
        _ => {
            let reason = format!(
                "verdict `{verdict}` does not answer expected {}; {reason}",
                expected.label()
            );
            return (Some(verdict), Outcome::Error, reason);
        }
    };
    (Some(verdict), outcome, reason)
}

#[cfg(unix)]
fn signal_description(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(sig) => format!("killed by signal {sig}"),
        None => "no exit code".into(),
    }
}

#[cfg(not(unix))]
fn signal_description(_status: ExitStatus) -> String {
    "no exit code".into()
}

fn run_one(opts: &BenchOptions, base: &Path, entry: &ManifestEntry) -> FileResult {
    let file = base.join(&entry.path);
    let (verdict, outcome, reason, time_s) = if !file.is_file() {
        (
            None,
            Outcome::Error,
            format!("file not found: {}", file.display()),
            0.0,
        )
    } else {
        let mut cmd = Command::new(&opts.verify_exe);
        cmd.arg("--format")
            .arg("json")
            .arg("--timeout")
            .arg(format!("{}", opts.timeout_s));
        if entry.expected.is_termination() {
            cmd.arg("--property").arg("termination");
        } else if entry.features.split(',').any(|f| f == "prop:datarace") {
            // the label is about data races (as SV-COMP hands the property file, never the verdict)
            cmd.arg("--property").arg("no-data-race");
        } else if entry.features.split(',').any(|f| f == "no-explicit-assert")
            && crate::cfront::is_c_file(&file)
        {
            // a C program without assertions: its label is about memory safety
            cmd.arg("--property").arg("valid-memsafety");
        }
        cmd.args(&opts.extra_args).arg(&file);
        let limit = super::limit(opts.timeout_s + GRACE_S).unwrap_or(Duration::MAX);
        match run_with_wall_limit(cmd, limit) {
            Ok(run) => {
                let (v, o, r) = classify(entry.expected, &run, opts.timeout_s);
                (v, o, r, run.time_s)
            }
            Err(e) => (None, Outcome::Error, e, 0.0),
        }
    };
    FileResult {
        path: entry.path.clone(),
        tier: entry.tier.clone(),
        category: entry.category.clone(),
        expected: entry.expected.label().to_string(),
        verdict,
        outcome,
        time_s: round_us(time_s),
        reason,
        score: score(entry.expected, outcome),
    }
}

/// Runs the bench: parses the manifest, runs every selected file, writes `--out`, compares with
/// `--compare`. Errors are about the bench itself (unreadable manifest, unknown tier, unwritable
/// output), never about a benchmark file.
pub fn run_bench(opts: &BenchOptions) -> Result<BenchSummary, String> {
    let text = std::fs::read_to_string(&opts.manifest)
        .map_err(|e| format!("cannot read manifest {}: {e}", opts.manifest.display()))?;
    let mut entries =
        parse_manifest(&text).map_err(|e| format!("{}: {e}", opts.manifest.display()))?;
    if let Some(tiers) = &opts.tiers {
        let known: BTreeSet<&str> = entries.iter().map(|e| e.tier.as_str()).collect();
        if let Some(bad) = tiers.iter().find(|t| !known.contains(t.as_str())) {
            let known: Vec<&str> = known.into_iter().collect();
            return Err(format!(
                "unknown tier `{bad}` (manifest has {})",
                known.join(", ")
            ));
        }
        entries.retain(|e| tiers.contains(&e.tier));
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let old = match &opts.compare {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            Some(BenchSummary::from_json(&text).map_err(|e| format!("{}: {e}", p.display()))?)
        }
        None => None,
    };
    // An unwritable results file is found before the run, not after it.
    if let Some(out) = &opts.out {
        std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    if !(opts.timeout_s.is_finite() && opts.timeout_s >= 0.0) {
        return Err(format!(
            "invalid timeout {}: a finite, non-negative number of seconds",
            opts.timeout_s
        ));
    }
    let base = opts
        .manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let show_progress = opts.progress && std::io::stderr().is_terminal();

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<FileResult>> = Mutex::new(Vec::with_capacity(entries.len()));
    let counts: Mutex<Row> = Mutex::new(Row::default());
    let jobs = opts.jobs.clamp(1, entries.len().max(1));
    thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(entry) = entries.get(i) else { break };
                    let result = run_one(opts, &base, entry);
                    if show_progress {
                        let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
                        c.files += 1;
                        match result.outcome {
                            Outcome::Correct => c.correct += 1,
                            Outcome::Wrong => c.wrong += 1,
                            Outcome::Unknown => c.unknown += 1,
                            Outcome::Timeout => c.timeout += 1,
                            Outcome::Error => c.error += 1,
                        }
                        let mut err = std::io::stderr().lock();
                        let _ = write!(
                            err,
                            "\r\x1b[2K[{}/{}] correct {} wrong {} unknown {} timeout {} error {}  {}",
                            c.files,
                            entries.len(),
                            c.correct,
                            c.wrong,
                            c.unknown,
                            c.timeout,
                            c.error,
                            result.path
                        );
                        let _ = err.flush();
                    }
                    results.lock().unwrap_or_else(|p| p.into_inner()).push(result);
                }
            });
        }
    });
    if show_progress {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
    }
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut summary =
        BenchSummary::from_results(opts.manifest.display().to_string(), opts.timeout_s, results);
    if let Some(old) = &old {
        summary.changes = Some(summary.compare(old));
    }
    if let Some(out) = &opts.out {
        std::fs::write(out, summary.to_json() + "\n")
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(summary)
}

fn table(out: &mut String, title: &str, rows: &BTreeMap<String, Row>, total: &Row) {
    let width = rows
        .keys()
        .map(String::len)
        .chain([title.len(), 5])
        .max()
        .unwrap_or(5);
    let _ = writeln!(
        out,
        "{title:<width$} {:>6} {:>7} {:>5} {:>7} {:>7} {:>5} {:>7} {:>9} {:>8} {:>9}",
        "files",
        "correct",
        "wrong",
        "unknown",
        "timeout",
        "error",
        "score",
        "time_s",
        "median_s",
        "med_ok_s"
    );
    let line = |out: &mut String, name: &str, r: &Row| {
        let _ = writeln!(
            out,
            "{name:<width$} {:>6} {:>7} {:>5} {:>7} {:>7} {:>5} {:>7} {:>9.1} {:>8.2} {:>9.2}",
            r.files,
            r.correct,
            r.wrong,
            r.unknown,
            r.timeout,
            r.error,
            r.score,
            r.total_time_s,
            r.median_time_s,
            r.median_correct_time_s
        );
    };
    for (name, r) in rows {
        line(out, name, r);
    }
    line(out, "total", total);
}

/// Renders the per-tier and per-category tables, the list of WRONG files (always) and, after a
/// comparison, the list of changed outcomes.
pub fn render_tables(summary: &BenchSummary) -> String {
    let mut out = String::new();
    table(&mut out, "tier", &summary.tiers, &summary.total);
    out.push('\n');
    table(&mut out, "category", &summary.categories, &summary.total);
    out.push('\n');
    let wrong: Vec<&FileResult> = summary
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Wrong)
        .collect();
    if wrong.is_empty() {
        out.push_str("WRONG: none\n");
    } else {
        let _ = writeln!(out, "WRONG ({}):", wrong.len());
        for r in wrong {
            let _ = writeln!(
                out,
                "  {}  expected {}, got {} ({:.2} s){}",
                r.path,
                r.expected,
                r.verdict.as_deref().unwrap_or("-"),
                r.time_s,
                if r.reason.is_empty() {
                    String::new()
                } else {
                    format!(": {}", r.reason)
                }
            );
        }
    }
    if let Some(changes) = &summary.changes {
        if changes.is_empty() {
            out.push_str("Changed outcomes: none\n");
        } else {
            let _ = writeln!(out, "Changed outcomes ({}):", changes.len());
            for c in changes {
                let _ = writeln!(
                    out,
                    "  {}  {} -> {}",
                    c.path,
                    c.old.map_or("(new)", Outcome::name),
                    c.new.name()
                );
            }
        }
    }
    out
}
