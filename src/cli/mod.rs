//! The `verify` command line: the only module that prints or touches the file system for output.
//!
//! `verify FILE...` runs the pipeline (parse → check → lower → engine) on each file and prints one result
//! per file, as text or as one JSON object per line. Exit codes (README): 0 all verified, 1 a violation
//! found, 2 unknown or timeout, 3 input error, 4 internal error; with several files the most severe wins
//! in the order 4 > 3 > 1 > 2 > 0.

pub mod bench;
pub mod options;
pub mod output;
pub mod render;
pub mod sarif;
pub mod witness;

use crate::diag::Diagnostic;
use crate::engine::{self, Config, Outcome, Verdict};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "verify",
    version,
    about = "Lapidary: a software verifier based on trace abstraction",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Files to verify: Boogie (.bpl) or C (.c, preprocessed with `gcc -E`; .i, already preprocessed).
    pub files: Vec<PathBuf>,
    /// Print the Boogie program a file is translated to (for C files; a Boogie file is printed as
    /// parsed) instead of verifying it.
    #[arg(long)]
    pub emit_ir: bool,
    /// An SV-COMP property file (`.prp`): decides the property it states (overrides `--property`).
    #[arg(long, value_name = "FILE.prp")]
    pub spec: Option<PathBuf>,
    /// Write SV-COMP witnesses into this directory: when a C program is UNSAFE, a violation witness
    /// (GraphML 1.0, `witness.graphml`, and YAML 2.0, `witness.yml`); when it is SAFE, a correctness
    /// witness (YAML 2.0 `invariant_set`, `witness.yml`).
    #[arg(long, value_name = "DIR")]
    pub witness_dir: Option<PathBuf>,
    /// Data model of C programs: ILP32 (32bit) or LP64 (64bit).
    #[arg(long, value_enum, default_value_t = Architecture::Bits32)]
    pub architecture: Architecture,
    /// Parse, resolve and type-check only (exit 0 accepted, 3 rejected).
    #[arg(long)]
    pub no_verify: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Wall-clock limit for each file, in seconds (a finite number ≥ 0; ten years or more means no
    /// limit).
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Write the lowered program's control-flow graphs as Graphviz DOT to this file.
    #[arg(long, value_name = "OUT.dot")]
    pub dump_cfg: Option<PathBuf>,
    /// List the SMT solvers found, with version and path.
    #[arg(long)]
    pub solvers: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Colour diagnostics and counterexamples.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Options that configure the engine (shared by `verify FILE` and passed through by `verify bench`).
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// The property to decide: safety (every assertion and check; SAFE/UNSAFE), termination
    /// (TERMINATING/NONTERMINATING), or an SV-COMP property: `unreach-call` (for C: only calls of
    /// `reach_error` are checked, other checks are assumed), `no-data-race` (C programs: two
    /// threads about to access the same location, one of them writing, not both atomically; other
    /// checks are assumed); `no-overflow` (C programs: no signed integer operation leaves its
    /// type's range); `valid-memsafety` (C programs: valid dereferences and frees, no heap memory
    /// lost); `valid-memcleanup` (C programs: all heap memory freed when the program ends).
    #[arg(long, value_enum, default_value_t = PropertyArg::Safety)]
    pub property: PropertyArg,
    /// SV-COMP mode: the last line of standard output is the verdict as BenchExec reads it (`TRUE`,
    /// `FALSE(property)`, `UNKNOWN`, `ERROR`), the reason of UNKNOWN/ERROR on standard error.
    /// Without `--property`/`--spec`, the property is `unreach-call`.
    #[arg(long)]
    pub svcomp: bool,
    /// SMT solver used for all queries.
    #[arg(long, value_enum, default_value_t = crate::smt::SolverKind::Z3)]
    pub solver: crate::smt::SolverKind,
    /// SMT solver asked first for Hoare triples (what it cannot answer goes to --solver); `none`:
    /// --solver alone.
    #[arg(long, value_name = "SOLVER", default_value = "yices", value_parser = parse_hoare_solver)]
    pub hoare_solver: HoareSolver,
    /// Write every solver session's commands and replies to this directory.
    #[arg(long, value_name = "DIR")]
    pub smt_log: Option<PathBuf>,
    /// Block encoding of the control-flow automaton.
    #[arg(long, value_enum, default_value_t = engine::BlockEncoding::Large)]
    pub block_encoding: engine::BlockEncoding,
    /// Interpolation technique for proofs of infeasible traces.
    #[arg(long, value_enum, default_value_t = engine::Interpolation::FpBp)]
    pub interpolation: engine::Interpolation,
    /// Partial-order reduction of the interleavings of concurrent programs.
    #[arg(long, value_enum, default_value_t = engine::Por::SleepPersistent)]
    pub por: engine::Por,
    /// Preference order of the reduction (which interleaving represents its class).
    #[arg(long, value_enum, default_value_t = engine::PorOrder::Lockstep)]
    pub por_order: engine::PorOrder,
    /// Where the predicates of a concurrent program are candidates of the proof automaton.
    #[arg(long, value_enum, default_value_t = engine::PredicateScope::default())]
    pub predicate_scope: engine::PredicateScope,
    /// The termination techniques to try, comma-separated (for ablations; default all, in the
    /// fixed order executor, ranking, gnta, buchi).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_values_t = engine::TerminationTechnique::ALL
    )]
    pub termination_techniques: Vec<engine::TerminationTechnique>,
    /// Keep the variables that cannot influence control flow or a specification (no cone-of-influence
    /// slicing; for comparisons).
    #[arg(long)]
    pub no_slice: bool,
    /// Print statistics (iterations, Hoare-triple checks per tier, solver calls and time, …).
    #[arg(long)]
    pub stats: bool,
    /// Print the proof (an invariant at each loop head) when the program is safe.
    #[arg(long)]
    pub proof: bool,
    /// Do not synthesise inductive invariants (Karr + templates, Houdini) when a loop unrolls.
    #[arg(long)]
    pub no_invariants: bool,
    /// Do not run a program without threads first (safety by execution: SAFE or UNSAFE when its
    /// control flow depends on no input; for comparisons).
    #[arg(long)]
    pub no_execution: bool,
    /// Do not run z3's Horn solver on a program without threads beside the other engines (an
    /// invariant per location, re-checked; for comparisons).
    #[arg(long)]
    pub no_horn: bool,
    /// Re-check the proof of a SAFE answer in a fresh solver session (inductive, excludes every
    /// error, printed invariants true); a failed check answers UNKNOWN.
    #[arg(long)]
    pub check_proof: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the verifier on every file of a benchmark manifest and print per-tier tables.
    Bench(BenchArgs),
    /// Measure the SMT layer against a bare pipe to the same solver.
    BenchSmt {
        #[arg(long, value_enum, default_value_t = crate::smt::SolverKind::Z3)]
        solver: crate::smt::SolverKind,
        #[arg(long, default_value_t = 2000)]
        queries: usize,
        /// Do not pin the benchmark and both solver processes to one CPU (see BENCHMARKS.md: without
        /// pinning, each solver process's placement makes the ratio swing widely on a small machine).
        #[arg(long)]
        no_pin: bool,
    },
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The manifest (TSV: path, tier, category, expected, features).
    pub manifest: PathBuf,
    /// Only these tiers (comma-separated, e.g. T1,T2).
    #[arg(long, value_delimiter = ',')]
    pub tier: Option<Vec<String>>,
    /// Files verified in parallel.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Limit per file, in seconds (a finite number ≥ 0; ten years or more means no limit).
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Write per-file results as JSON.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Compare with an earlier results file and list changed outcomes.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// Further arguments passed to each `verify` run (e.g. `--interpolation=sp`).
    #[arg(long = "arg", allow_hyphen_values = true)]
    pub extra: Vec<String>,
}

/// The property to decide (`--property`, or read from an SV-COMP `--spec` file).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyArg {
    Safety,
    Termination,
    UnreachCall,
    NoOverflow,
    NoDataRace,
    ValidMemsafety,
    ValidMemcleanup,
}

impl PropertyArg {
    /// The SV-COMP name (as in `FALSE(name)`).
    pub fn svcomp_name(self) -> &'static str {
        match self {
            PropertyArg::Safety | PropertyArg::UnreachCall => "unreach-call",
            PropertyArg::Termination => "termination",
            PropertyArg::NoOverflow => "no-overflow",
            PropertyArg::NoDataRace => "no-data-race",
            PropertyArg::ValidMemsafety => "valid-memsafety",
            PropertyArg::ValidMemcleanup => "valid-memcleanup",
        }
    }

    /// The property as an SV-COMP specification (the line of its `.prp` file).
    pub fn specification(self) -> String {
        let ltl = match self {
            PropertyArg::Safety | PropertyArg::UnreachCall => "G ! call(reach_error())",
            PropertyArg::Termination => "F end",
            PropertyArg::NoOverflow => "G ! overflow",
            PropertyArg::NoDataRace => "G ! data-race",
            PropertyArg::ValidMemsafety => {
                return ["valid-free", "valid-deref", "valid-memtrack"]
                    .map(|p| format!("CHECK( init(main()), LTL(G {p}) )"))
                    .join("\n");
            }
            PropertyArg::ValidMemcleanup => "G valid-memcleanup",
        };
        format!("CHECK( init(main()), LTL({ltl}) )")
    }

    /// Whether it is a property of C programs only (its checks are made by the C translation).
    pub fn c_only(self) -> bool {
        matches!(
            self,
            PropertyArg::NoDataRace
                | PropertyArg::NoOverflow
                | PropertyArg::ValidMemsafety
                | PropertyArg::ValidMemcleanup
        )
    }

    /// The SV-COMP name of what a violation breaks: for `valid-memsafety`, the sub-property of
    /// the failing check (`valid-deref`, `valid-free`, `valid-memtrack`).
    pub fn violated_name(self, check: Option<&str>) -> &'static str {
        match (self, check) {
            (PropertyArg::ValidMemsafety, Some("valid-deref")) => "valid-deref",
            (PropertyArg::ValidMemsafety, Some("valid-free")) => "valid-free",
            (PropertyArg::ValidMemsafety, Some("valid-memtrack")) => "valid-memtrack",
            _ => self.svcomp_name(),
        }
    }
}

/// The property of an SV-COMP property file: one or more lines `CHECK( init(main()), LTL(…) )`
/// (a memory-safety file has three). Unknown formulas are an error.
pub fn parse_spec(text: &str) -> Result<PropertyArg, String> {
    let mut props = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
    {
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let Some(rest) = compact
            .strip_prefix("CHECK(init(main()),LTL(")
            .and_then(|r| r.strip_suffix("))"))
        else {
            return Err(format!("unrecognised property line `{line}`"));
        };
        let p = match rest {
            "G!call(reach_error())" | "G!call(__VERIFIER_error())" => PropertyArg::UnreachCall,
            "G!overflow" => PropertyArg::NoOverflow,
            "G!data-race" => PropertyArg::NoDataRace,
            "Fend" => PropertyArg::Termination,
            "Gvalid-free" | "Gvalid-deref" | "Gvalid-memtrack" => PropertyArg::ValidMemsafety,
            "Gvalid-memcleanup" => PropertyArg::ValidMemcleanup,
            _ => return Err(format!("unsupported property formula `{rest}`")),
        };
        props.push(p);
    }
    props.dedup();
    match props.as_slice() {
        [p] => Ok(*p),
        [] => Err("empty property file".into()),
        _ => Err("property file with several properties".into()),
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// One SARIF 2.1.0 log for all files (for code scanning), printed at the end.
    Sarif,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    #[value(name = "32bit")]
    Bits32,
    #[value(name = "64bit")]
    Bits64,
}

impl Architecture {
    /// The SV-COMP name (`32bit`, `64bit`).
    pub fn name(self) -> &'static str {
        match self {
            Architecture::Bits32 => "32bit",
            Architecture::Bits64 => "64bit",
        }
    }

    fn arch(self) -> crate::cfront::Arch {
        match self {
            Architecture::Bits32 => crate::cfront::Arch::Ilp32,
            Architecture::Bits64 => crate::cfront::Arch::Lp64,
        }
    }

    /// Options of the C front end; for ILP32 the stub headers it needs are written to a directory
    /// under the system's temporary directory (if that fails, gcc reports the missing header).
    fn c_options(self) -> crate::cfront::Options {
        let arch = self.arch();
        let ilp32_include = (arch == crate::cfront::Arch::Ilp32)
            .then(|| {
                let dir = std::env::temp_dir().join("lapidary-ilp32-include");
                for (rel, text) in crate::cfront::preprocess::ILP32_STUBS {
                    let file = dir.join(rel);
                    if std::fs::read_to_string(&file).ok().as_deref() != Some(*text) {
                        let parent = file.parent()?;
                        std::fs::create_dir_all(parent).ok()?;
                        // written to a unique name and renamed: concurrent runs never see half a file
                        let tmp = file.with_extension(format!("tmp{}", std::process::id()));
                        std::fs::write(&tmp, text).ok()?;
                        std::fs::rename(&tmp, &file).ok()?;
                    }
                }
                Some(dir)
            })
            .flatten();
        crate::cfront::Options {
            arch,
            ilp32_include,
            reach_only: false,
            data_race: false,
            overflow: false,
            memsafety: false,
            memcleanup: false,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The outcome of one input file, ready to print.
#[derive(Debug, Clone)]
pub struct FileResult {
    pub file: String,
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub time_s: f64,
    /// Rendered diagnostics (input errors) or counterexample/proof text.
    pub details: String,
    pub outcome: Option<Outcome>,
    /// The diagnostics as data (input errors and warnings), for SARIF.
    pub diagnostics: Vec<Diagnostic>,
    /// The source text, when it was read (to turn spans into lines and columns).
    pub source: Option<String>,
}

/// Seconds from which a limit means "no limit" (ten years): a larger duration may not even be
/// representable as an instant.
pub const NO_LIMIT_S: f64 = 315_360_000.0;

/// Parses a number of seconds: finite and non-negative, else a usage error (exit 3). `nan`, `inf` and
/// negative values are rejected; a huge finite value means no limit ([`limit`]).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!(
            "`{s}` is not a finite, non-negative number of seconds"
        ));
    }
    Ok(v)
}

/// A limit in seconds as a duration; `None` means no limit (not finite, negative, or [`NO_LIMIT_S`]
/// and more).
/// The value of `--hoare-solver`: a solver, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoareSolver(pub Option<crate::smt::SolverKind>);

fn parse_hoare_solver(s: &str) -> Result<HoareSolver, String> {
    if s == "none" {
        return Ok(HoareSolver(None));
    }
    crate::smt::SolverKind::from_name(s)
        .map(|k| HoareSolver(Some(k)))
        .ok_or_else(|| format!("unknown solver `{s}` (z3, yices, cvc5 or none)"))
}

pub fn limit(secs: f64) -> Option<Duration> {
    (0.0..NO_LIMIT_S)
        .contains(&secs)
        .then(|| Duration::from_secs_f64(secs))
}

/// Exit code of one verdict.
pub fn exit_code(v: Verdict) -> i32 {
    match v {
        Verdict::Safe | Verdict::Terminating => 0,
        Verdict::Unsafe | Verdict::Nonterminating => 1,
        Verdict::Unknown => 2,
        Verdict::Error => 3,
        Verdict::InternalError => 4,
    }
}

/// Severity order for combining several files' exit codes: 4 > 3 > 1 > 2 > 0.
fn severity(code: i32) -> u8 {
    match code {
        4 => 4,
        3 => 3,
        1 => 2,
        2 => 1,
        _ => 0,
    }
}

/// Runs the CLI and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 3 } else { 0 };
        }
    };
    run(cli)
}

pub fn run(cli: Cli) -> i32 {
    match &cli.command {
        Some(Command::Bench(args)) => return run_bench(args, &cli),
        Some(Command::BenchSmt {
            solver,
            queries,
            no_pin,
        }) => {
            if !no_pin {
                pin_to_current_cpu();
            }
            return run_bench_smt(*solver, *queries);
        }
        None => {}
    }
    if cli.solvers {
        return list_solvers();
    }
    if cli.files.is_empty() {
        warn("error: no input files (try `verify --help`)");
        return 3;
    }
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            cli.format == Format::Text && std::io::IsTerminal::is_terminal(&std::io::stdout())
        }
    };
    let mut cli = cli;
    if let Some(spec) = &cli.spec {
        let parsed = std::fs::read_to_string(spec)
            .map_err(|e| format!("cannot read {}: {e}", spec.display()))
            .and_then(|t| parse_spec(&t).map_err(|e| format!("{}: {e}", spec.display())));
        match parsed {
            Ok(p) => cli.engine.property = p,
            Err(e) => {
                warn(&format!("error: {e}"));
                return 3;
            }
        }
    } else if cli.engine.svcomp && cli.engine.property == PropertyArg::Safety {
        cli.engine.property = PropertyArg::UnreachCall;
    }
    if cli.engine.svcomp && cli.files.len() != 1 {
        warn("error: --svcomp takes exactly one file");
        return 3;
    }
    if cli.emit_ir {
        return emit_ir(&cli);
    }
    let worst = Arc::new(AtomicI32::new(0));
    let print_lock = Arc::new(Mutex::new(()));
    let mut sarif_results = Vec::new();
    for file in &cli.files {
        let done = Arc::new(AtomicBool::new(false));
        if !cli.no_verify {
            spawn_watchdog(file, &cli, done.clone(), worst.clone(), print_lock.clone());
        }
        let result = verify_file(file, &cli, color);
        let _guard = print_lock.lock().unwrap_or_else(|e| e.into_inner());
        done.store(true, Ordering::SeqCst);
        combine(&worst, exit_code(result.verdict));
        if cli.engine.svcomp
            && matches!(
                result.verdict,
                Verdict::Unknown | Verdict::Error | Verdict::InternalError
            )
        {
            if let Some(r) = &result.reason {
                warn(r);
            }
        }
        if cli.format == Format::Sarif {
            sarif_results.push(result);
        } else {
            emit(
                &output::render(&result, cli.format, &cli.engine),
                worst.load(Ordering::SeqCst),
            );
        }
    }
    if cli.format == Format::Sarif {
        emit(&sarif::log(&sarif_results), worst.load(Ordering::SeqCst));
    }
    worst.load(Ordering::SeqCst)
}

fn combine(worst: &AtomicI32, code: i32) {
    let _ = worst.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |w| {
        Some(if severity(code) > severity(w) {
            code
        } else {
            w
        })
    });
}

/// Grace after the deadline before the watchdog answers for the engine.
const WATCHDOG_GRACE: Duration = Duration::from_millis(800);

/// Guarantees that `--timeout` is honoured within a second: if the engine has not answered shortly
/// after the deadline (e.g. a solver query overran), this thread prints UNKNOWN "timeout" for the
/// file, kills the solver processes and exits.
fn spawn_watchdog(
    file: &Path,
    cli: &Cli,
    done: Arc<AtomicBool>,
    worst: Arc<AtomicI32>,
    print_lock: Arc<Mutex<()>>,
) {
    let Some(limit) = limit(cli.timeout) else {
        return; // no limit: nothing to guard
    };
    let limit = limit + WATCHDOG_GRACE;
    let start = Instant::now();
    let result = FileResult {
        file: file.display().to_string(),
        verdict: Verdict::Unknown,
        reason: Some("timeout".into()),
        time_s: limit.as_secs_f64(),
        details: String::new(),
        outcome: None,
        diagnostics: Vec::new(),
        source: None,
    };
    let format = cli.format;
    let args = cli.engine.clone();
    std::thread::spawn(move || {
        while start.elapsed() < limit {
            if done.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(
                Duration::from_millis(20).min(limit.saturating_sub(start.elapsed())),
            );
        }
        let _guard = print_lock.lock().unwrap_or_else(|e| e.into_inner());
        if done.load(Ordering::SeqCst) {
            return;
        }
        combine(&worst, exit_code(Verdict::Unknown));
        emit(
            &output::render(&result, format, &args),
            worst.load(Ordering::SeqCst),
        );
        kill_children();
        std::process::exit(worst.load(Ordering::SeqCst));
    });
}

/// How to translate a C file: the data model and the checks the property asks for.
fn c_options(cli: &Cli) -> crate::cfront::Options {
    let mut opts = cli.architecture.c_options();
    opts.reach_only = cli.engine.property == PropertyArg::UnreachCall;
    opts.data_race = cli.engine.property == PropertyArg::NoDataRace;
    opts.overflow = cli.engine.property == PropertyArg::NoOverflow;
    opts.memsafety = cli.engine.property == PropertyArg::ValidMemsafety;
    opts.memcleanup = cli.engine.property == PropertyArg::ValidMemcleanup;
    opts
}

/// Stack size of the engine thread.
const ENGINE_STACK: usize = 512 * 1024 * 1024;

/// Reads, checks and (unless `--no-verify`) verifies one file.
pub fn verify_file(path: &Path, cli: &Cli, color: bool) -> FileResult {
    let start = Instant::now();
    let name = path.display().to_string();
    let mut result = FileResult {
        file: name.clone(),
        verdict: Verdict::Error,
        reason: None,
        time_s: 0.0,
        details: String::new(),
        outcome: None,
        diagnostics: Vec::new(),
        source: None,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            result.reason = Some(format!("cannot read {name}: {e}"));
            return finish(result, start);
        }
    };
    let witness_bytes = cli.witness_dir.as_ref().map(|_| bytes.clone());
    // Boogie files are UTF-8; files in a legacy 8-bit encoding (Latin-1, as some of Ultimate's
    // examples are) are decoded byte by byte, with a warning.
    let (src, encoding_warning) = match String::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let src: String = e.as_bytes().iter().map(|&b| b as char).collect();
            let offset = src[..].char_indices().nth(at).map_or(src.len(), |(i, _)| i);
            let warning = Diagnostic::warning(
                "W0001",
                "input is not valid UTF-8; decoded as Latin-1",
                crate::diag::Span::new(offset, offset),
                "first invalid byte here",
            )
            .with_help("save the file as UTF-8");
            (src, Some(warning))
        }
    };
    if cli.format == Format::Sarif {
        result.source = Some(src.clone());
    }
    let is_c = crate::cfront::is_c_file(path);
    if cli.engine.property.c_only() && !is_c {
        result.verdict = Verdict::Unknown;
        result.reason = Some(format!(
            "unsupported: property {} of a Boogie program (checked for C programs)",
            cli.engine.property.svcomp_name()
        ));
        return finish(result, start);
    }
    let mut notes = crate::cfront::Notes::default();
    let translated = if is_c {
        let opts = c_options(cli);
        match crate::cfront::translate_file_noting(path, &src, &opts) {
            Ok((ast, n)) => {
                notes = n;
                Some(ast)
            }
            Err(e) => {
                result.verdict = match e {
                    crate::cfront::CError::Unsupported { .. } => Verdict::Unknown,
                    crate::cfront::CError::Internal(_) => Verdict::InternalError,
                    _ => Verdict::Error,
                };
                result.reason = Some(e.to_string());
                return finish(result, start);
            }
        }
    } else {
        None
    };
    let checked = match &translated {
        Some(ast) => frontend_ast(ast, Vec::new()),
        None => frontend(&src),
    };
    let program = match checked {
        Ok((program, mut warnings)) => {
            warnings.extend(encoding_warning);
            if !warnings.is_empty() && cli.format == Format::Text {
                result.details = render_diags(&name, &src, &warnings, color);
            }
            result.diagnostics = warnings;
            program
        }
        Err(diags) => {
            let first = diags.iter().find(|d| d.is_error()).unwrap_or(&diags[0]);
            result.reason = Some(format!("{}[{}]: {}", "error", first.code, first.message));
            result.details = render_diags(&name, &src, &diags, color);
            result.diagnostics = diags;
            return finish(result, start);
        }
    };
    if let Some(out) = &cli.dump_cfg {
        if let Err(e) = std::fs::write(out, crate::ir::dot::to_dot(&program)) {
            // The user's path cannot be written: an input error (exit 3), not a bug.
            result.verdict = Verdict::Error;
            result.reason = Some(format!("cannot write {}: {e}", out.display()));
            return finish(result, start);
        }
    }
    if let Some(dir) = &cli.engine.smt_log {
        if let Err(e) = std::fs::create_dir_all(dir) {
            result.verdict = Verdict::Error;
            result.reason = Some(format!(
                "cannot write solver logs to {}: {e}",
                dir.display()
            ));
            return finish(result, start);
        }
    }
    if cli.no_verify {
        result.verdict = Verdict::Safe;
        result.reason = Some("accepted (--no-verify)".into());
        return finish(result, start);
    }
    let mut config = engine_config(&cli.engine, cli.timeout);
    config.bounded_integers = translated.is_some();
    // Slicing is measured neutral on the C tier (T5) and makes the solver slower on quantified
    // Hoare triples of some C programs (examples/c/pthread_int_result_safe.c): Boogie input only.
    config.slice &= translated.is_none();
    // The fast Hoare-triple solver likewise: on that program z3 then times out on five quantified
    // triples it otherwise answers in time (its answers depend on the queries it saw before), 61 s
    // against 13 s; on T5 it gained one file (`NonAtomicIncrement_2Threads`, 10 s limit).
    if translated.is_some() {
        config.hoare_solver = None;
    }
    // a correctness witness states the proof's loop invariants
    config.proof |= cli.witness_dir.is_some() && translated.is_some();
    let mut outcome = run_engine(&program, &config);
    if let Ok(o) = &mut outcome {
        if o.verdict == Verdict::Safe && notes.memtrack_open {
            if let Some(ast) = &translated {
                memtrack_needs_termination(o, ast, &config, notes.forks);
            }
        }
    }
    match outcome {
        Ok(mut outcome) => {
            if cli.engine.property == PropertyArg::NoDataRace && outcome.verdict == Verdict::Unsafe
            {
                // every assertion of a program translated for `no-data-race` is a race check
                outcome.reason = Some(
                    "data race: two threads can access the same location at once, one writing"
                        .into(),
                );
            }
            name_violated_check(&mut outcome);
            result.verdict = outcome.verdict;
            result.reason = outcome.reason.clone();
            result.details.push_str(&output::render_outcome(
                &name,
                &src,
                &outcome,
                &cli.engine,
                color,
            ));
            // SV-COMP witnesses of a C program's answer: violation (GraphML and YAML) or correctness
            let files: Vec<(&str, String)> = match (&cli.witness_dir, &witness_bytes) {
                (Some(_), Some(bytes)) if translated.is_some() => {
                    let info = witness::WitnessInfo {
                        program_file: &name,
                        program_bytes: bytes,
                        source: &src,
                        specification: cli.engine.property.specification(),
                        architecture: cli.architecture.name(),
                        program: &program,
                        map: &notes.map,
                    };
                    match (outcome.verdict, &outcome.counterexample) {
                        // (Not for a trace that shows only its ends: the witness would skip
                        // the steps between them.)
                        (Verdict::Unsafe, Some(cex)) if cex.omitted.is_none() => vec![
                            ("witness.graphml", witness::violation_graphml(cex, &info)),
                            ("witness.yml", witness::violation_yaml(cex, &info)),
                        ],
                        (Verdict::Safe, _) => vec![(
                            "witness.yml",
                            witness::correctness_yaml(&outcome.proof, &info),
                        )],
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            if let (Some(dir), false) = (&cli.witness_dir, files.is_empty()) {
                let written = std::fs::create_dir_all(dir).and_then(|()| {
                    files
                        .iter()
                        .try_for_each(|(f, text)| std::fs::write(dir.join(f), text))
                });
                if let Err(e) = written {
                    result.verdict = Verdict::Error;
                    result.reason = Some(format!(
                        "cannot write the witness to {}: {e}",
                        dir.display()
                    ));
                }
            }
            result.outcome = Some(outcome);
        }
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            result.verdict = Verdict::InternalError;
            result.reason = Some(format!("internal error: {msg}"));
        }
    }
    finish(result, start)
}

/// Runs the engine in a thread of its own: the term layer recurses over formulas, and a large
/// stack keeps deep ones from overflowing it. A panic is returned as its payload.
fn run_engine(
    program: &crate::ir::Program,
    config: &Config,
) -> Result<Outcome, Box<dyn std::any::Any + Send>> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("engine".into())
            .stack_size(ENGINE_STACK)
            .spawn_scoped(scope, || {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    engine::verify(program, config)
                }))
            });
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(Err),
            Err(e) => Err(Box::new(format!("cannot start the engine thread: {e}"))
                as Box<dyn std::any::Any + Send>),
        }
    })
}

/// A SAFE answer under `valid-memsafety` for a program that allocates heap memory: its memtrack
/// checks hold where executions end, which says nothing of an execution that never ends (it may
/// lose memory and run on). The answer stands if every execution ends (proved by the termination
/// analysis of the same program, in the time left); otherwise it becomes UNKNOWN.
fn memtrack_needs_termination(
    outcome: &mut Outcome,
    ast: &crate::syntax::ast::Program,
    config: &Config,
    forks: bool,
) {
    let undecided = |outcome: &mut Outcome, why: &str| {
        outcome.verdict = Verdict::Unknown;
        outcome.reason = Some(format!(
            "memory safety holds where executions end, but valid-memtrack is not decided: {why}"
        ));
        outcome.proof.clear();
    };
    if forks {
        return undecided(outcome, "the program creates threads");
    }
    // every check holds (the answer is SAFE): as assumptions they change no execution
    let mut assumed = ast.clone();
    assume_assertions(&mut assumed);
    let program = match frontend_ast(&assumed, Vec::new()) {
        Ok((p, _)) => p,
        Err(_) => {
            return undecided(
                outcome,
                "the program without its checks does not type-check",
            );
        }
    };
    let termination = Config {
        property: engine::Property::Termination,
        ..config.clone()
    };
    match run_engine(&program, &termination) {
        Ok(t) if t.verdict == Verdict::Terminating => {}
        Ok(t) => {
            let why = match t.verdict {
                Verdict::Nonterminating => "an execution may not end".to_string(),
                _ => format!(
                    "termination (so that every execution ends where the checks are made) is not \
                     proved ({})",
                    t.reason.as_deref().unwrap_or("unknown")
                ),
            };
            undecided(outcome, &why)
        }
        Err(_) => undecided(outcome, "the termination analysis failed"),
    }
}

/// Turns every assertion of `program` into an assumption.
fn assume_assertions(program: &mut crate::syntax::ast::Program) {
    use crate::syntax::ast::{Decl, Else, Stmt, StmtKind};
    fn stmts(ss: &mut [Stmt]) {
        for s in ss {
            match &mut s.kind {
                StmtKind::Assert { attrs, expr } => {
                    s.kind = StmtKind::Assume {
                        attrs: std::mem::take(attrs),
                        expr: expr.clone(),
                    }
                }
                StmtKind::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    stmts(then_branch);
                    match else_branch {
                        Some(Else::Block(b)) => stmts(b),
                        Some(Else::If(i)) => stmts(std::slice::from_mut(&mut **i)),
                        None => {}
                    }
                }
                StmtKind::While { body, .. } | StmtKind::Atomic(body) => stmts(body),
                _ => {}
            }
        }
    }
    for d in &mut program.decls {
        match d {
            Decl::Procedure(p) => {
                if let Some(b) = &mut p.body {
                    stmts(&mut b.stmts);
                }
            }
            Decl::Implementation(i) => stmts(&mut i.body.stmts),
            _ => {}
        }
    }
}

/// Names what an UNSAFE answer of a C program violates, from the failing assertion's
/// `{:check "…"}` attribute (`cfront::Check`); a check that may fail although the property holds
/// (`Check::MemtrackUnsure`) turns the answer into UNKNOWN.
fn name_violated_check(outcome: &mut Outcome) {
    use crate::cfront::Check;
    if outcome.verdict != Verdict::Unsafe {
        return;
    }
    let Some(cex) = outcome.counterexample.as_mut() else {
        return;
    };
    let Some(check) = cex.check.as_deref().and_then(Check::from_name) else {
        return;
    };
    let what = match check {
        Check::Assertion => return,
        Check::Deref => "pointer dereference may fail [valid-deref]",
        Check::Free => "free of unallocated memory possible [valid-free]",
        Check::Memtrack => {
            "memory leak: heap memory is neither freed nor reachable when main returns [valid-memtrack]"
        }
        Check::MemtrackUnsure => {
            outcome.verdict = Verdict::Unknown;
            outcome.reason = Some(
                "heap memory is not freed where the program ends, but may still be reachable \
                 there: valid-memtrack not decided"
                    .into(),
            );
            outcome.counterexample = None;
            return;
        }
        Check::Memcleanup => "heap memory is not freed when the program ends [valid-memcleanup]",
        Check::MemcleanupUnsure => {
            outcome.verdict = Verdict::Unknown;
            outcome.reason = Some(
                "heap memory is not freed where the program aborts: valid-memcleanup not decided"
                    .into(),
            );
            outcome.counterexample = None;
            return;
        }
        Check::Overflow => "signed integer overflow possible [no-overflow]",
        Check::DivZero => "division by zero possible",
    };
    cex.property = what.to_string();
    outcome.reason = Some(what.to_string());
}

/// `--emit-ir`: prints the Boogie program of each file (C files translated, Boogie files as parsed).
/// Exit code 0, 2 when a C construct is unsupported, 3 for input errors.
fn emit_ir(cli: &Cli) -> i32 {
    let mut worst = 0;
    for path in &cli.files {
        let name = path.display().to_string();
        let src = match std::fs::read(path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                warn(&format!("error: cannot read {name}: {e}"));
                worst = worst_of(worst, 3);
                continue;
            }
        };
        let ast = if crate::cfront::is_c_file(path) {
            let opts = c_options(cli);
            match crate::cfront::translate_file(path, &src, &opts) {
                Ok(ast) => ast,
                Err(e) => {
                    let code = match e {
                        crate::cfront::CError::Unsupported { .. } => 2,
                        crate::cfront::CError::Internal(_) => 4,
                        _ => 3,
                    };
                    warn(&format!("{name}: UNKNOWN ({e})"));
                    worst = worst_of(worst, code);
                    continue;
                }
            }
        } else {
            match crate::syntax::parse(&src) {
                (Some(ast), d) if !crate::diag::has_errors(&d) => ast,
                (_, d) => {
                    warn(&render_diags(&name, &src, &non_empty(d), false));
                    worst = worst_of(worst, 3);
                    continue;
                }
            }
        };
        emit(&crate::syntax::print::program(&ast), worst);
    }
    worst
}

fn worst_of(a: i32, b: i32) -> i32 {
    if severity(b) > severity(a) { b } else { a }
}

fn finish(mut r: FileResult, start: Instant) -> FileResult {
    r.time_s = start.elapsed().as_secs_f64();
    r
}

/// Parse, resolve, type-check and lower. Returns the program and warnings, or all diagnostics.
pub fn frontend(src: &str) -> Result<(crate::ir::Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (ast, diags) = crate::syntax::parse(src);
    let ast = match ast {
        Some(ast) if !crate::diag::has_errors(&diags) => ast,
        _ => return Err(non_empty(diags)),
    };
    frontend_ast(&ast, diags)
}

/// Resolve, type-check and lower a parse tree (from the Boogie parser or the C front end).
pub fn frontend_ast(
    ast: &crate::syntax::ast::Program,
    mut diags: Vec<Diagnostic>,
) -> Result<(crate::ir::Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (program, more) = crate::ir::check(ast);
    diags.extend(more);
    match program {
        Some(p) if !crate::diag::has_errors(&diags) => Ok((p, diags)),
        _ => Err(non_empty(diags)),
    }
}

fn non_empty(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diags.is_empty() {
        diags.push(Diagnostic::error(
            "E0002",
            "input rejected",
            crate::diag::Span::default(),
            "here",
        ));
    }
    diags
}

fn render_diags(name: &str, src: &str, diags: &[Diagnostic], color: bool) -> String {
    render::render_diagnostics(name, src, diags, color)
}

pub fn engine_config(args: &EngineArgs, timeout_s: f64) -> Config {
    Config {
        property: match args.property {
            PropertyArg::Termination => engine::Property::Termination,
            _ => engine::Property::Safety,
        },
        solver: args.solver,
        hoare_solver: args.hoare_solver.0,
        smt_log: args.smt_log.clone(),
        block_encoding: args.block_encoding,
        interpolation: args.interpolation,
        deadline: limit(timeout_s).and_then(|d| Instant::now().checked_add(d)),
        invariants: !args.no_invariants,
        check_proof: args.check_proof,
        proof: args.proof || args.check_proof,
        por: args.por,
        por_order: args.por_order,
        slice: !args.no_slice,
        execution: !args.no_execution,
        horn: !args.no_horn,
        predicate_scope: args.predicate_scope,
        termination_techniques: args.termination_techniques.iter().copied().collect(),
        ..Config::default()
    }
}

fn list_solvers() -> i32 {
    let mut found = 0;
    let mut text = String::new();
    for (name, kind) in [
        ("z3", crate::smt::SolverKind::Z3),
        ("yices", crate::smt::SolverKind::Yices),
        ("cvc5", crate::smt::SolverKind::Cvc5),
    ] {
        match crate::smt::discover(kind) {
            Ok((path, version)) => {
                found += 1;
                text.push_str(&format!("{name:6} {version:12} {}\n", path.display()));
            }
            Err(e) => text.push_str(&format!("{name:6} not found: {e}\n")),
        }
    }
    let code = if found == 0 { 2 } else { 0 };
    emit(&text, code);
    code
}

fn run_bench_smt(solver: crate::smt::SolverKind, queries: usize) -> i32 {
    match crate::smt::bench_smt(solver, queries) {
        Ok(report) => {
            let per_q =
                |d: std::time::Duration| d.as_secs_f64() * 1e6 / report.queries.max(1) as f64;
            let text = format!(
                "solver={} queries={} sat={} unsat={}\n\
                 mean: layer_qps={:.0} raw_qps={:.0}; thread cpu per query: layer={:.2}us raw={:.2}us\n\
                 {report}\n",
                report.kind.name(),
                report.queries,
                report.sat,
                report.unsat,
                report.layer_mean_qps,
                report.raw_mean_qps,
                per_q(report.layer_cpu),
                per_q(report.raw_cpu)
            );
            emit(&text, 0);
            0
        }
        Err(e) => {
            warn(&format!("error: {e}"));
            2
        }
    }
}

fn run_bench(args: &BenchArgs, _cli: &Cli) -> i32 {
    let exe = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            warn(&format!("error: cannot locate the verify executable: {e}"));
            return 4;
        }
    };
    let opts = bench::BenchOptions {
        manifest: args.manifest.clone(),
        tiers: args.tier.clone(),
        jobs: args.jobs.max(1),
        timeout_s: args.timeout,
        out: args.out.clone(),
        compare: args.compare.clone(),
        verify_exe: exe,
        extra_args: args.extra.clone(),
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    match bench::run_bench(&opts) {
        Ok(summary) => {
            emit(&bench::render_tables(&summary), 0);
            0
        }
        Err(e) => {
            warn(&format!("error: {e}"));
            3
        }
    }
}

/// Writes `text` to standard output and flushes it. Never panics: a closed pipe (`verify … | head`)
/// ends the process quietly, as Unix tools do, with the exit code of what was verified so far
/// (`code_so_far`); any other failure (a full disk, `> /dev/full`) is reported on stderr and ends the
/// process with exit code 3. The solver processes are killed first.
pub fn emit(text: &str, code_so_far: i32) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let r = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    drop(out);
    if let Err(e) = r {
        kill_children();
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(code_so_far);
        }
        warn(&format!("error: cannot write the output: {e}"));
        std::process::exit(3);
    }
}

/// Writes a line to standard error; a failure there is ignored (there is nowhere left to report it).
pub fn warn(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Kills this process's child processes (the SMT solvers) before an early exit. Linux: children are
/// found in /proc; elsewhere nothing is done (the solvers see end of input when we exit).
fn kill_children() {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Format: pid (comm) state ppid …; comm may contain spaces, so split after the last ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(me) {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
    }
}

/// Pins this process (and so the solver processes it starts) to the CPU it runs on, so that both sides
/// of `bench-smt` are measured with the same placement. Linux only; elsewhere a no-op.
#[cfg(target_os = "linux")]
fn pin_to_current_cpu() {
    unsafe extern "C" {
        fn sched_getcpu() -> i32;
        fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
    }
    // SAFETY: plain libc calls; the mask is a valid, fully initialised cpu_set_t (1024 bits).
    unsafe {
        let cpu = sched_getcpu();
        if !(0..1024).contains(&cpu) {
            return;
        }
        let mut mask = [0u64; 16];
        mask[(cpu / 64) as usize] |= 1u64 << (cpu % 64);
        sched_setaffinity(0, std::mem::size_of_val(&mask), mask.as_ptr());
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_current_cpu() {}
