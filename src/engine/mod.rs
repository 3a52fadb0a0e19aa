//! The verification engine: trace abstraction for sequential programs (safety), and termination
//! ([`termination`]).
//!
//! Pipeline (each step its own module):
//! 1. [`cfa`]: the control-flow automaton of the lowered IR — procedures inlined, every edge a
//!    transition formula ([`transition`]) over program variables, error locations accepting;
//! 2. [`blocks`]: block encoding (none / sequences / large blocks);
//! 3. [`cegar`]: the CEGAR loop — shortest error trace of `CFA \ FH`, trace check ([`tracecheck`]),
//!    interpolants ([`interpolate`]), a Floyd–Hoare automaton built on demand ([`floyd_hoare`]) with a
//!    tiered Hoare-triple checker ([`hoare`]) and a predicate unifier ([`predicates`]); when a refuted
//!    trace unrolls a loop, inductive invariants ([`invariants`]: Karr + templates, Houdini) strengthen
//!    the letters; a bounded model check ([`bmc`]) looks for deep error traces in a slice of the
//!    run's time;
//! 4. results: SAFE with a proof, UNSAFE with a re-validated counterexample ([`counterexample`]),
//!    UNKNOWN with a reason.
//!
//! Before all of it, a program without threads whose control flow does not depend on inputs is
//! run by the explicit-state executor ([`termination::execute::check_safety`]): SAFE when its one
//! path fails no specification, UNSAFE when a realisable execution fails one (a million loop
//! iterations before an assertion fails leave no short error trace for the CEGAR loop).
//!
//! Soundness invariant: SAFE only when no error location is reachable in the refined abstraction and
//! every solver answer that justified a refinement was definite; UNSAFE only for a trace re-checked as
//! feasible in a fresh solver session (or executed concretely, above).

use std::path::PathBuf;
use std::time::Instant;

pub mod array_invariants;
pub mod arrays;
pub mod blocks;
pub mod bmc;
pub mod cegar;
pub mod cfa;
pub mod chc;
pub mod counterexample;
pub mod floyd_hoare;
pub mod hoare;
pub mod horn;
pub mod interleaving;
pub mod interpolate;
pub mod invariants;
pub mod model;
pub mod predicates;
pub mod pretty;
pub mod proof;
pub mod recursive;
pub mod slice;
pub mod stats;
pub mod termination;
pub mod thread_modular;
pub mod tracecheck;
pub mod transition;

pub use stats::Stats;

/// The answer for one program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Safe,
    Unsafe,
    Unknown,
    Terminating,
    Nonterminating,
    /// The input was rejected (syntax or type error).
    Error,
    /// Lapidary itself failed (a bug).
    InternalError,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Unsafe => "unsafe",
            Verdict::Unknown => "unknown",
            Verdict::Terminating => "terminating",
            Verdict::Nonterminating => "nonterminating",
            Verdict::Error | Verdict::InternalError => "error",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEncoding {
    /// One letter per IR statement.
    None,
    /// Straight-line sequences merged into one letter.
    Seq,
    /// Large blocks: sequences and loop-free branching merged, keeping loop heads and error locations.
    Large,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Level 1: strongest post along the trace.
    Sp,
    /// Level 2: strongest post projected onto live variables.
    SpLive,
    /// Level 3: unsat-core relaxation, then strongest post projected onto live variables.
    SpLiveUc,
    /// Weakest precondition along the trace.
    Wp,
    /// Weakest precondition projected onto live variables.
    WpLive,
    /// Unsat-core relaxation, then weakest precondition projected onto live variables.
    WpLiveUc,
    /// A portfolio: forward and backward on the unsat-core-relaxed trace, then backward and forward on
    /// the full trace (live variables throughout), stopping at the first perfect sequence.
    FpBp,
}

impl Interpolation {
    pub fn uses_core(self) -> bool {
        matches!(
            self,
            Interpolation::SpLiveUc | Interpolation::WpLiveUc | Interpolation::FpBp
        )
    }
    pub fn uses_live(self) -> bool {
        !matches!(self, Interpolation::Sp | Interpolation::Wp)
    }
}

/// A termination technique ([`termination`] tries those the configuration names, in its fixed
/// order); for ablations (`--termination-techniques`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TerminationTechnique {
    /// The explicit-state executor, in symbolic mode and in witness mode.
    Executor,
    /// Linear lexicographic ranking functions over the SCCs, and fixpoint lassos.
    Ranking,
    /// Geometric nontermination arguments for lassos.
    Gnta,
    /// Büchi trace abstraction.
    Buchi,
}

impl TerminationTechnique {
    pub const ALL: [TerminationTechnique; 4] = [
        TerminationTechnique::Executor,
        TerminationTechnique::Ranking,
        TerminationTechnique::Gnta,
        TerminationTechnique::Buchi,
    ];
}

/// Partial-order reduction of the interleavings of a concurrent program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Por {
    /// Every interleaving.
    None,
    /// Sleep sets: one representative per class of interleavings that differ only in the order of
    /// independent letters.
    Sleep,
    /// Thread-based persistent sets: only the enabled letters of a set of threads that no other
    /// thread's future letters conflict with ([`interleaving::PersistentReduction`]). The default:
    /// the best measured on T3 (BENCHMARKS.md).
    #[default]
    Persistent,
    /// Both: sleep sets over persistent sets that are compatible with the preference order (each
    /// contains the preferred enabled thread), so the reduced words follow the order (lockstep).
    SleepPersistent,
}

/// The preference order of the reduction: which interleaving represents its class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PorOrder {
    /// Threads in index order (each thread runs as long as it can).
    #[default]
    Serial,
    /// Threads take turns at loop heads (one loop iteration per thread), GemCutter's lockstep order.
    Lockstep,
}

/// Where an interpolant of a concurrent program is a candidate predicate of the Floyd–Hoare
/// automaton ([`predicates`]): at the configurations that agree with the one where it occurred on
/// the selected threads. Only precision and speed depend on it (every transition is a checked
/// Hoare triple).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PredicateScope {
    /// Everywhere.
    Global,
    /// On every thread (the exact configuration).
    Configuration,
    /// On the threads whose local variables the predicate mentions (a predicate over globals only
    /// is a candidate everywhere).
    Threads,
    /// On those threads and the thread whose letter led to the configuration.
    #[default]
    ThreadsMoved,
}

/// The property to decide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Property {
    /// No assertion (assert, checked requires/ensures, loop invariant) can fail: SAFE / UNSAFE.
    #[default]
    Safety,
    /// Every execution terminates: TERMINATING / NONTERMINATING (assertions are not checked).
    Termination,
}

/// Engine configuration: plain data with documented defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// What `verify` decides (default safety).
    pub property: Property,
    pub solver: crate::smt::SolverKind,
    /// The solver asked first for the Hoare triples of the CEGAR loop, with a short query limit;
    /// what it cannot answer goes to `solver` ([`hoare`]). `None`, or `solver` itself: `solver`
    /// alone.
    pub hoare_solver: Option<crate::smt::SolverKind>,
    pub smt_log: Option<PathBuf>,
    pub block_encoding: BlockEncoding,
    pub interpolation: Interpolation,
    /// The whole run stops (UNKNOWN "timeout") at this instant.
    pub deadline: Option<Instant>,
    /// Limit on a single solver query, in seconds (bounded by the deadline).
    pub query_timeout_s: f64,
    /// Maximal number of CEGAR iterations.
    pub max_iterations: usize,
    /// Maximal number of locations of the inlined control-flow automaton.
    pub max_locations: usize,
    /// Synthesise inductive invariants ([`invariants`]) when a refuted trace unrolls a loop.
    pub invariants: bool,
    /// Maximal number of steps of the explicit-state executor (termination).
    pub max_exec_steps: u64,
    /// Integer variables stand for fixed-width machine integers (programs of the C front end, whose
    /// signed arithmetic the IR states over unbounded integers): a nontermination argument whose
    /// run grows without bound says that in C the run overflows (undefined behaviour), and
    /// fresh-cell arguments (indices that move for ever) are not used.
    pub bounded_integers: bool,
    /// Re-check the proof of a SAFE answer in a fresh solver session ([`proof::check`]); a failed
    /// check turns the answer into UNKNOWN.
    pub check_proof: bool,
    /// Compute the invariants of the source's loops for a SAFE answer (`--proof`).
    pub proof: bool,
    /// Partial-order reduction for concurrent programs.
    pub por: Por,
    /// The preference order of the reduction.
    pub por_order: PorOrder,
    /// Where the predicates of a concurrent program are candidates.
    pub predicate_scope: PredicateScope,
    /// The termination techniques tried (default all).
    pub termination_techniques: std::collections::BTreeSet<TerminationTechnique>,
    /// Remove the variables outside the cone of influence of control flow and specifications
    /// ([`slice`]) before a safety run.
    pub slice: bool,
    /// Run a program without threads first ([`termination::execute::check_safety`]: safety by
    /// execution, before the CEGAR loop).
    pub execution: bool,
    /// Run z3's Horn solver on the clauses of a program without threads ([`chc`]) beside the
    /// other engines. Off by default: which prover wins the race (and so which proof is
    /// reported) depends on the machine's speed; the command line turns it on (`--no-horn` off).
    pub horn: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            property: Property::Safety,
            solver: crate::smt::SolverKind::Z3,
            hoare_solver: Some(crate::smt::SolverKind::Yices),
            smt_log: None,
            block_encoding: BlockEncoding::Large,
            interpolation: Interpolation::FpBp,
            deadline: None,
            query_timeout_s: 10.0,
            max_iterations: 10_000,
            max_locations: 200_000,
            invariants: true,
            max_exec_steps: 500_000_000,
            bounded_integers: false,
            check_proof: false,
            proof: false,
            por: Por::SleepPersistent,
            por_order: PorOrder::Lockstep,
            predicate_scope: PredicateScope::default(),
            termination_techniques: TerminationTechnique::ALL.into_iter().collect(),
            slice: true,
            execution: true,
            horn: false,
        }
    }
}

impl Config {
    /// The deadline passed, or the run was cancelled ([`crate::cancel`]).
    pub fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || crate::cancel::requested()
    }

    /// Whether termination may use technique `t`.
    pub fn uses(&self, t: TerminationTechnique) -> bool {
        self.termination_techniques.contains(&t)
    }
}

/// One step of a counterexample: a statement of the lowered program, with the values of the variables
/// it reads (before) and writes (after).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Step {
    /// Source span of the statement, if known.
    #[serde(skip)]
    pub span: Option<crate::diag::Span>,
    /// The thread instance that executes the step (concurrent programs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    /// The statement in Boogie syntax.
    pub statement: String,
    pub reads: Vec<(String, String)>,
    pub writes: Vec<(String, String)>,
}

/// A feasible error trace, re-validated.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Counterexample {
    /// What fails (e.g. "assertion can be violated").
    pub property: String,
    /// The failing assertion's `{:check "name"}` attribute (the C front end's kind of check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    #[serde(skip)]
    pub error_span: crate::diag::Span,
    pub steps: Vec<Step>,
    /// A long trace shows only its ends: `Some((i, n))` when `n` steps were left out after the
    /// first `i` of `steps` (a violation found by execution).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<(usize, u64)>,
}

/// An inductive invariant at a loop head of the source, or (`summary`) the summary of a recursive
/// procedure: what holds at its exit, over its parameters, returns, globals and `old` values.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoopInvariant {
    /// A procedure summary rather than a loop invariant.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub summary: bool,
    /// The loop head's span.
    #[serde(skip)]
    pub span: Option<crate::diag::Span>,
    pub procedure: String,
    /// The invariant over the source's variable names (see [`pretty::source_term`]).
    #[serde(skip)]
    pub term: crate::smt::Term,
    /// The invariant in Boogie syntax.
    pub invariant: String,
}

/// Why a run answers UNKNOWN: typed, so that no caller compares reason texts. `Display` gives the
/// reason as the output shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// The run's deadline passed.
    Timeout,
    /// A construct the engine does not interpret yet.
    Unsupported(String),
    /// A solver could not be started.
    SolverUnavailable(String),
    /// The solver answered unknown on a query the answer depends on (`during` names the query).
    SolverUnknown {
        during: &'static str,
        kind: crate::smt::UnknownKind,
    },
    /// No interpolant sequence could be computed for an infeasible trace.
    Interpolation(String),
    /// The refined abstraction still accepts the refuted trace; the kind of the last unknown
    /// Hoare-triple check, if one was unknown.
    NoProgress(Option<crate::smt::UnknownKind>),
    /// A feasible trace could not be confirmed as a violation (re-validation, over-approximation).
    NotConfirmed(String),
    /// A feasible trace reaches a `fork` with no free thread instance, with this many instances per
    /// fork statement (the engine retries with more, up to a bound).
    InsufficientInstances(usize),
    /// As [`UnknownReason::InsufficientInstances`] at the largest instance bound, after no
    /// thread-modular proof was found with up to `view` threads per unbounded fork.
    UnboundedThreads { instances: usize, view: usize },
    /// A limit other than time (iterations, program size, search steps).
    ResourceLimit(String),
    /// `--check-proof` rejected the proof (a bug in Lapidary if it ever happens).
    ProofCheck(String),
    /// The termination analysis could not decide (its reason).
    Termination(String),
    /// An internal inconsistency of the engine.
    Internal(String),
}

impl std::fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownReason::Timeout => f.write_str("timeout"),
            UnknownReason::Unsupported(s) => write!(f, "unsupported: {s}"),
            UnknownReason::SolverUnavailable(s) => write!(f, "solver: {s}"),
            UnknownReason::SolverUnknown { during, kind } => {
                write!(f, "solver unknown on {during} ({kind})")
            }
            UnknownReason::Interpolation(s) => write!(f, "interpolation failed: {s}"),
            UnknownReason::NoProgress(Some(k)) => {
                write!(f, "no progress: a Hoare-triple check was unknown ({k})")
            }
            UnknownReason::NoProgress(None) => {
                f.write_str("no progress: the refined abstraction still accepts the counterexample")
            }
            UnknownReason::InsufficientInstances(k) => write!(
                f,
                "unbounded threads: a fork needs more than {k} thread instances"
            ),
            UnknownReason::UnboundedThreads { instances, view } => write!(
                f,
                "unbounded threads: a fork needs more than {instances} thread instances, and no \
                 thread-modular proof with up to {view} threads per unbounded fork was found"
            ),
            UnknownReason::NotConfirmed(s)
            | UnknownReason::ResourceLimit(s)
            | UnknownReason::ProofCheck(s)
            | UnknownReason::Termination(s) => f.write_str(s),
            UnknownReason::Internal(s) => write!(f, "internal: {s}"),
        }
    }
}

/// The result of `verify`.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The reason shown after the verdict (for UNKNOWN, `unknown` rendered).
    pub reason: Option<String>,
    /// Why the answer is UNKNOWN (typed); `None` for every other verdict.
    pub unknown: Option<UnknownReason>,
    pub counterexample: Option<Counterexample>,
    pub proof: Vec<LoopInvariant>,
    pub stats: Stats,
}

impl Outcome {
    /// SAFE, with the reason shown after the verdict (e.g. "vacuously: …") and the proof.
    pub fn safe(reason: Option<String>, proof: Vec<LoopInvariant>, stats: Stats) -> Outcome {
        Outcome {
            verdict: Verdict::Safe,
            reason,
            unknown: None,
            counterexample: None,
            proof,
            stats,
        }
    }

    /// UNSAFE, with the re-validated counterexample.
    pub fn violated(cex: Counterexample, stats: Stats) -> Outcome {
        Outcome {
            verdict: Verdict::Unsafe,
            reason: Some(cex.property.clone()),
            unknown: None,
            counterexample: Some(cex),
            proof: Vec::new(),
            stats,
        }
    }

    pub fn unknown(reason: UnknownReason, stats: Stats) -> Outcome {
        Outcome {
            verdict: Verdict::Unknown,
            reason: Some(reason.to_string()),
            unknown: Some(reason),
            counterexample: None,
            proof: Vec::new(),
            stats,
        }
    }
}

/// Verifies `program` for `config.property`: SAFE, UNSAFE or UNKNOWN (safety), TERMINATING,
/// NONTERMINATING or UNKNOWN (termination), with a reason.
pub fn verify(program: &crate::ir::Program, config: &Config) -> Outcome {
    match config.property {
        Property::Safety => cegar::run(program, config),
        Property::Termination => termination::run(program, config),
    }
}
