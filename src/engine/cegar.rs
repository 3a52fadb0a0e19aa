//! The CEGAR loop of trace abstraction (Heizmann, Hoenicke, Podelski: "Refinement of trace
//! abstraction", SAS 2009; design notes §3.1).
//!
//! ```text
//! A_0 = CFA;  loop:
//!   τ = shortest accepting run of A_k = CFA \ FH_k (BFS; FH_k built on demand)   — none: SAFE
//!   trace check τ:  feasible → re-validate → UNSAFE;  unknown → UNKNOWN
//!   infeasible → interpolants I_0..I_n → attach I_i at τ's i-th location → FH_{k+1}
//!   progress: FH_{k+1} must accept τ (reach `false`), else UNKNOWN
//! ```
//! Invariant: `L(A_k)` contains every feasible error trace (FH automata only accept infeasible traces,
//! because each of their transitions is a valid Hoare triple); so an empty `A_k` proves the program
//! SAFE. Solver sessions: one for Hoare triples (incremental, long-lived), one for trace checks with
//! unsat cores, one z3 session for quantifier elimination, and a fresh one per counterexample.

use super::blocks::{self, Encoded};
use super::cfa::{self, Cfa, LocId};
use super::floyd_hoare::{FloydHoare, Interrupted, Tracked};
use super::hoare::HoareChecker;
use super::interleaving::{self, Conf, Interleaving, ProgramAutomaton};
use super::interpolate::{self, Direction, Interpolator, PostImages, Settings};
use super::invariants;
use super::predicates::{FALSE_STATE, StateId};
use super::proof::Certificate;
use super::thread_modular::{Attempt, Method, Pools};
use super::tracecheck::{self, Feasibility, SmtTraceChecker, TraceChecker};
use super::transition::{TransFormula, Vocabulary};
use super::{
    Config, Counterexample, Interpolation, LoopInvariant, Outcome, Stats, UnknownReason,
    counterexample, pretty,
};
use crate::automata::{self, Budget, Counted, Difference, ExploreError};
use crate::ir::Program;
use crate::smt::{Session, SolverConfig, SolverKind, Term};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

pub(super) fn session_config(config: &Config, kind: SolverKind, cores: bool) -> SolverConfig {
    let mut c = SolverConfig::new(kind);
    c.query_timeout = query_timeout(config);
    c.deadline = config.deadline;
    c.log_dir = config.smt_log.clone();
    c.produce_cores = cores;
    c.produce_models = true;
    c
}

fn query_timeout(config: &Config) -> Duration {
    let limit = Duration::from_secs_f64(config.query_timeout_s);
    match config.deadline {
        Some(d) => limit.min(
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100)),
        ),
        None => limit,
    }
}

/// UNKNOWN after a trace check the solver could not decide (a timeout if the deadline passed).
pub(super) fn trace_unknown(
    config: &Config,
    kind: crate::smt::UnknownKind,
    stats: &Stats,
) -> Outcome {
    if config.timed_out() {
        timeout_outcome(stats.clone())
    } else {
        Outcome::unknown(
            UnknownReason::SolverUnknown {
                during: "a trace check",
                kind,
            },
            stats.clone(),
        )
    }
}

/// UNKNOWN: the run's iteration limit is reached.
pub(super) fn iteration_limit(config: &Config, stats: &Stats) -> Outcome {
    Outcome::unknown(
        UnknownReason::ResourceLimit(format!(
            "iteration limit ({}) reached",
            config.max_iterations
        )),
        stats.clone(),
    )
}

fn timeout_outcome(stats: Stats) -> Outcome {
    Outcome::unknown(UnknownReason::Timeout, stats)
}

/// The limit of one query of the fast Hoare-triple solver (what it does not answer in time goes
/// to the main solver).
const FAST_HOARE_LIMIT: Duration = Duration::from_millis(500);

/// The Hoare-triple checker of a run: on `session`, with the configured fast solver first when it
/// is installed.
fn hoare_checker(config: &Config, session: Session) -> HoareChecker {
    let htc = HoareChecker::new(session);
    match config.hoare_solver {
        Some(kind) if kind != config.solver => {
            let mut sc = session_config(config, kind, false);
            sc.query_timeout = sc.query_timeout.min(FAST_HOARE_LIMIT);
            match Session::new(sc) {
                Ok(fast) => htc.with_fast(fast),
                Err(e) => {
                    if debug() {
                        eprintln!("no fast Hoare-triple solver: {e}");
                    }
                    htc
                }
            }
        }
        _ => htc,
    }
}

/// Thread instances per fork statement tried before answering "unbounded threads".
pub const MAX_INSTANCES: usize = 4;

/// Iterations spent looking for a real error once a feasible trace needs more than
/// [`MAX_INSTANCES`] instances (the limit marker is then a dead end; see `Interleaving::ignore_limit`).
pub const LOOK_ON_ITERATIONS: usize = 30;
/// The share of the time left when the limit is reached that the loop spends looking on (so that
/// "unbounded threads" is answered before the run's deadline).
const LOOK_ON_SHARE: f64 = 0.5;

/// Runs trace abstraction on `program`: with one thread instance per `fork` statement first, and
/// with more while a feasible trace finds every instance in use (up to [`MAX_INSTANCES`]).
pub fn run(program: &Program, config: &Config) -> Outcome {
    if config.horn && !has_forks(program) {
        let start = Instant::now();
        let background = |wait: &dyn Fn(Duration) -> bool| horn_windows(program, config, wait);
        let mut o = beside(config, "horn-clauses", background, || {
            run_alone(program, config)
        });
        o.stats.total_time = start.elapsed();
        return o;
    }
    run_alone(program, config)
}

/// [`run`] without z3's Horn solver beside it.
fn run_alone(program: &Program, config: &Config) -> Outcome {
    let start = Instant::now();
    // A long executed path decides at once; a short one only where the CEGAR loop does not.
    let executed = execution_attempt(program, config);
    if let Some(mut o) = executed.clone().filter(|o| {
        o.stats.execution_steps
            >= match o.verdict {
                super::Verdict::Safe => EXECUTION_MIN_SAFE_STEPS,
                _ => EXECUTION_MIN_UNSAFE_STEPS,
            }
    }) {
        o.stats.total_time = start.elapsed();
        return o;
    }
    // A short executed path decided: the engines may still find a proof with invariants, within a
    // share of the time left (waiting out the whole limit for one turned answers into timeouts).
    let outcome = match &executed {
        Some(_) => {
            let now = Instant::now();
            let budget = config.deadline.map_or(EXECUTED_ENGINE_MAX, |d| {
                d.saturating_duration_since(now)
                    .mul_f64(EXECUTED_ENGINE_SHARE)
                    .min(EXECUTED_ENGINE_MAX)
            });
            let mut limited = config.clone();
            limited.deadline = Some(now + budget);
            run_engines(program, &limited, start)
        }
        None => run_engines(program, config, start),
    };
    match executed {
        Some(mut o) if outcome.verdict == super::Verdict::Unknown => {
            o.stats.total_time = start.elapsed();
            o
        }
        _ => outcome,
    }
}

/// [`run`] after the execution attempt: the thread-modular, abstraction and CEGAR runs.
fn run_engines(program: &Program, config: &Config, start: Instant) -> Outcome {
    let voc = Vocabulary::new(program);
    let unbounded = super::thread_modular::forks_unboundedly(program);
    let mut outcome = if !unbounded && cfa::largest_merged_pool(&voc) >= MERGED_POOL_MIN_FORKS {
        match thread_modular_proof(&voc, config, Pools::Merged, &MERGED_HOUDINI) {
            Ok(proof) => proof,
            Err(_) => {
                beside_horn_solver(program, config, || bounded_engines(&voc, config, unbounded))
            }
        }
    } else {
        bounded_engines(&voc, config, unbounded)
    };
    outcome.stats.total_time = start.elapsed();
    outcome
}

/// Runs `foreground` (the bounded engines) while z3's Horn solver searches a thread-modular proof
/// with merged pools ([`MERGED_HORN`]) on a thread of its own, each until the run's deadline: the
/// Horn solver's time grows linearly with the number of fork statements of a family, the bounded
/// product's exponentially, and which one decides a program is not known before (a share of the
/// time for each in turn lost one or the other: `acq-work-6threads` needs the Horn solver for
/// 5.2 s, `array-sum-with-log-6threads` the bounded engine for 5 s). See [`beside`].
fn beside_horn_solver(
    program: &Program,
    config: &Config,
    foreground: impl FnOnce() -> Outcome,
) -> Outcome {
    let background = |_: &dyn Fn(Duration) -> bool| {
        let voc = Vocabulary::new(program);
        thread_modular_proof(&voc, config, Pools::Merged, &MERGED_HORN).ok()
    };
    beside(config, "horn-solver", background, foreground)
}

/// z3's Horn solver beside the engines of a program without threads ([`run`]) runs in two
/// windows: a short one once the run has taken [`HORN_DELAY`] (most programs are decided sooner
/// and never start it; the median answer takes 0.05 s), and from [`HORN_LATE_SHARE`] of the time
/// until the deadline. In between, the engines have the processor to themselves: beside them the
/// whole time, the solver slowed programs the engines decide in seconds by up to six times under
/// `--jobs 2` (T2's binary-search family of priced timed automata went from 1.4–7.8 s to
/// timeouts), and the programs it proves it proves either within a second or not at all.
const HORN_DELAY: Duration = Duration::from_millis(200);
/// The length of the early window (see [`HORN_DELAY`]).
const HORN_EARLY: Duration = Duration::from_millis(600);
/// The share of the time left at the start after which the late window opens.
const HORN_LATE_SHARE: f64 = 0.8;

/// z3's Horn solver on `program` in the windows of [`HORN_DELAY`]; `wait` sleeps until the
/// foreground is done or the time given has passed (`false`: the foreground is done).
fn horn_windows(
    program: &Program,
    config: &Config,
    wait: &dyn Fn(Duration) -> bool,
) -> Option<Outcome> {
    let start = Instant::now();
    let late = config
        .deadline
        .map(|d| start + d.saturating_duration_since(start).mul_f64(HORN_LATE_SHARE));
    if !wait(HORN_DELAY) {
        return None;
    }
    // The clauses are built once, for both windows.
    let mut windows = 0;
    super::chc::prove_each(program, config, || {
        windows += 1;
        match windows {
            1 => {
                let mut early = config.clone();
                let end = Instant::now() + HORN_EARLY;
                early.deadline = Some(config.deadline.map_or(end, |d| d.min(end)));
                Some(early)
            }
            2 => {
                let late = late?;
                let open = wait(late.saturating_duration_since(Instant::now()));
                (open && !config.timed_out()).then(|| config.clone())
            }
            _ => None,
        }
    })
}

/// Runs `foreground` while `background` (a prover: SAFE or nothing) runs on a thread of its own,
/// each until the run's deadline; `background` gets a `wait` that sleeps until the foreground is
/// done or the time given has passed (`false`: the foreground is done). Whichever proves first
/// cancels the other ([`crate::cancel`]); a verdict of the foreground is its own, proved or
/// re-validated, and is kept; an UNKNOWN gives way to the background's proof when one comes
/// before the deadline.
fn beside(
    config: &Config,
    name: &str,
    background: impl FnOnce(&dyn Fn(Duration) -> bool) -> Option<Outcome> + Send,
    foreground: impl FnOnce() -> Outcome,
) -> Outcome {
    let stop_background = crate::cancel::Canceller::new();
    let installed = crate::cancel::install();
    let stop_foreground = installed.canceller();
    let (tx, rx) = std::sync::mpsc::channel();
    // Dropped when the foreground is done: ends the background's waits.
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        let stop = stop_background.clone();
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn_scoped(s, move || {
                let _installed = stop.install();
                let wait = |d: Duration| {
                    matches!(
                        done_rx.recv_timeout(d),
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                    )
                };
                let r = background(&wait);
                if r.is_some() {
                    stop_foreground.cancel();
                }
                let _ = tx.send(r);
            });
        if let Err(e) = &spawned
            && debug()
        {
            eprintln!("no thread for {name}: {e}");
        }
        let mut outcome = foreground();
        drop(done_tx);
        if outcome.verdict == super::Verdict::Unknown && spawned.is_ok() {
            let wait = match config.deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::from_secs_f64(config.query_timeout_s),
            };
            if let Ok(Some(proof)) = rx.recv_timeout(wait) {
                outcome = proof;
            }
        }
        stop_background.cancel();
        outcome
    })
}

/// The abstraction attempt, then the CEGAR runs with ever more thread instances (and the
/// thread-modular attempts of a program that forks unboundedly).
fn bounded_engines(voc: &Vocabulary, config: &Config, unbounded: bool) -> Outcome {
    let mut iterations = 0;
    if let Some(o) = abstraction_attempt(voc, config, unbounded) {
        return o;
    }
    let mut instances = 1;
    let mut thread_modular_tried = false;
    let mut outcome = loop {
        let mut o = run_inner(voc, config, instances, false);
        iterations += o.stats.iterations;
        o.stats.iterations = iterations;
        match o.unknown {
            Some(UnknownReason::InsufficientInstances(_)) if instances < MAX_INSTANCES => {
                // A fork statement that runs unboundedly often: a thread-modular proof is tried
                // once, after the cheapest search for errors (one instance per fork).
                if instances == 1 && unbounded {
                    // A fork on a cycle may still run a few times only (threads created in a loop
                    // over a constant): one more instance each decides such a program within a
                    // short share of the time, which the thread-modular attempts would spend.
                    let mut probe_config = config.clone();
                    probe_config.deadline = Some(share_of_time_left(config, BOUNDED_PROBE_SHARE));
                    let probe = run_inner(voc, &probe_config, 2, false);
                    iterations += probe.stats.iterations;
                    if debug() {
                        eprintln!("two instances per fork: {:?}", probe.verdict);
                    }
                    if probe.verdict != super::Verdict::Unknown {
                        let mut probe = probe;
                        probe.stats.iterations = iterations;
                        break probe;
                    }
                    // (Two instances found in use already: the loop goes on with three.)
                    if matches!(probe.unknown, Some(UnknownReason::InsufficientInstances(_))) {
                        instances += 1;
                    }
                    match thread_modular_proof(
                        voc,
                        config,
                        Pools::PerStatement,
                        &THREAD_MODULAR_ATTEMPTS,
                    ) {
                        Ok(mut proof) => {
                            proof.stats.iterations = iterations;
                            break proof;
                        }
                        Err(tried) => thread_modular_tried = tried,
                    }
                }
                instances += 1;
            }
            _ => break o,
        }
    };
    if let Some(UnknownReason::InsufficientInstances(k)) = outcome.unknown
        && thread_modular_tried
    {
        let reason = UnknownReason::UnboundedThreads {
            instances: k,
            view: THREAD_MODULAR_MAX_VIEW,
        };
        outcome = Outcome::unknown(reason, std::mem::take(&mut outcome.stats));
    }
    outcome
}

/// Whether some procedure forks a thread.
fn has_forks(program: &Program) -> bool {
    program.procedures.iter().any(|p| {
        p.body.as_ref().is_some_and(|cfg| {
            cfg.graph
                .edge_weights()
                .any(|e| matches!(e.stmt, crate::ir::Stmt::Fork { .. }))
        })
    })
}

/// The share of the time left that safety by execution ([`execution_attempt`]) may take, and
/// at most this long.
/// (3 s: a loop of a million iterations over an array takes 2.1 s; at 1.5 s it answered nothing.)
const EXECUTION_SHARE: f64 = 0.3;
const EXECUTION_MAX: Duration = Duration::from_millis(3000);
/// The limit of the concrete (witness) executions tried when the executed path depends on inputs
/// (they can only find a violation: a safe program pays all of it).
const WITNESS_MAX: Duration = Duration::from_millis(1500);
/// The values every input and havoc takes in the witness executions, in order, within one budget
/// ([`WITNESS_MAX`]): 0 first; then 1 and -1, which tell apart what 0 makes equal (an array
/// filled with 0 at index 0 is the same array at every index and initial value).
const SAFETY_WITNESS_VALUES: [i64; 3] = [0, 1, -1];
/// The time of the witnesses after the first, together.
const WITNESS_FOLLOW_MAX: Duration = Duration::from_millis(100);
/// A witness execution that retraces a symbolic path to a specification that may fail on it gets
/// this multiple of the time the symbolic execution took (the witness's concrete values cost about
/// as much to compute as ⊤), within this share of the time left.
const RETRACE_MARGIN: f64 = 1.5;
const RETRACE_SHARE: f64 = 0.5;
/// A failing executed path at least this long decides before the CEGAR loop runs (the loop finds
/// a shorter error trace at once, with its values re-validated; a much longer one not at all).
const EXECUTION_MIN_UNSAFE_STEPS: u64 = 256;
/// A safe executed path at least this long decides before the CEGAR loop runs; a shorter one only
/// when the loop does not decide (its proof has loop invariants to show).
const EXECUTION_MIN_SAFE_STEPS: u64 = 10_000;

/// The share of the time left that the engines get after a short executed path decided, and at
/// most this long: the executed answer is complete, the engines only add a proof with invariants
/// (a string function's loops over a constant string have none the loop finds quickly; at the
/// default limit the answer came after 24 s).
const EXECUTED_ENGINE_SHARE: f64 = 0.4;
const EXECUTED_ENGINE_MAX: Duration = Duration::from_secs(2);

/// Safety by execution, for a program whose control flow does not depend on unconstrained values
/// ([`super::termination::execute::check_safety`]; a loop that runs a million times before its
/// assertion fails has no short error trace for the CEGAR loop to find): SAFE when every execution
/// follows one path, ending or repeating a state, on which no specification can fail; UNSAFE when
/// an execution that some concrete run realises fails one — every guard on it definitely true and
/// every value concrete or unconstrained (the execution is its own re-validation); `None`
/// otherwise, quickly where the control flow depends on an input. When the executed path depends
/// on inputs, concrete executions with every input and havoc 0, 1 or -1 in turn
/// ([`SAFETY_WITNESS_VALUES`]) may still fail a specification (UNSAFE; all within
/// [`WITNESS_MAX`]). Within [`EXECUTION_SHARE`] of the time left, at most [`EXECUTION_MAX`]; a
/// violation is replayed (to record its trace's ends) within the run's deadline. Programs with threads are left to the CEGAR loop.
fn execution_attempt(program: &Program, config: &Config) -> Option<Outcome> {
    use super::termination::execute::{self, ExecResult, Mode};
    if has_forks(program) || !config.execution {
        return None;
    }
    let start = Instant::now();
    // `share` of the time left from now, at most `cap`.
    let budget = |cap: Duration, share: f64| {
        let now = Instant::now();
        Some(match config.deadline {
            Some(d) => (now + cap).min(now + d.saturating_duration_since(now).mul_f64(share)),
            None => now + cap,
        })
    };
    let mut limited = config.clone();
    limited.deadline = budget(EXECUTION_MAX, EXECUTION_SHARE);
    let limits = execute::Limits {
        max_steps: config.max_exec_steps,
        ..execute::Limits::default()
    };
    let unobserved = unobserved_variables(program, config);
    let mut result = execute::check_safety(
        program,
        &limited,
        config,
        &limits,
        Mode::Symbolic,
        &unobserved,
    );
    // The value the witness execution that found a violation gave every input.
    let mut fixed = None;
    if debug() {
        eprintln!("execution: {:?} after {:?}", result, start.elapsed());
    }
    if let ExecResult::Unknown {
        dependent: true,
        retrace,
        ..
    } = result
    {
        // The path depends on inputs: concrete executions with every input and havoc 0, 1, -1 (a
        // violation on it is real; a million-iteration loop before an assertion over uninitialised
        // cells has no short error trace for the CEGAR loop). When the symbolic path stopped at a
        // specification that may fail, the witness retraces that path and decides it there: it
        // gets the time the path took (and a margin), within a larger share of the time left.
        let want = start.elapsed().mul_f64(RETRACE_MARGIN);
        limited.deadline = if retrace && want > WITNESS_MAX {
            budget(want, RETRACE_SHARE)
        } else {
            budget(WITNESS_MAX, EXECUTION_SHARE)
        };
        // Further values while the time lasts: a witness that ends without a violation leaves
        // the rest of the budget to the next, those after the first within
        // [`WITNESS_FOLLOW_MAX`] in all (an input of 1 or -1 can make a loop that 0 skips run
        // until the budget is spent, or a long path run again, and a safe program pays that).
        for (i, k) in SAFETY_WITNESS_VALUES.into_iter().enumerate() {
            if limited.timed_out() {
                break;
            }
            if i == 1 {
                let cap = Instant::now() + WITNESS_FOLLOW_MAX;
                limited.deadline = limited.deadline.map(|d| d.min(cap));
            }
            let witness = execute::check_safety(
                program,
                &limited,
                config,
                &limits,
                Mode::Witness(k),
                &unobserved,
            );
            if debug() {
                eprintln!("witness execution with inputs {k}: {witness:?}");
            }
            if matches!(witness, ExecResult::Violated(_)) {
                result = witness;
                fixed = Some(k);
                break;
            }
        }
    }
    let mut stats = Stats {
        execution_time: start.elapsed(),
        ..Stats::default()
    };
    match result {
        ExecResult::Safe { steps, repeats } => {
            stats.execution_steps = steps.max(1);
            let path = if repeats {
                format!("repeats its state after {steps} steps")
            } else {
                format!("ends after {steps} steps")
            };
            let reason = format!(
                "by execution: every execution follows one path, which {path} and fails no specification"
            );
            Some(Outcome::safe(Some(reason), Vec::new(), stats))
        }
        ExecResult::Violated(v) => {
            stats.execution_steps = v.steps + 1;
            let site = program.error(v.error);
            let cex = Counterexample {
                property: site.kind.description().to_string(),
                check: site.check.clone(),
                error_span: site.span,
                steps: v.trace,
                omitted: v.omitted,
            };
            let mut o = Outcome::violated(cex, stats);
            if let (Some(k), Some(r)) = (fixed, o.reason.as_mut()) {
                // The trace shows what the program writes, not its inputs: they are said here.
                r.push_str(&format!(", with {}", execute::fixed_inputs(k)));
            }
            Some(o)
        }
        _ => None,
    }
}

/// The program variables that no specification and no control flow depends on, directly or
/// through the values of others (the variables the cone-of-influence slice of the one-thread CFA
/// removes, [`super::slice::slice`]); empty when the CFA cannot be built or is not sliced. An
/// execution's cycle detection ignores them: a counter that only counts no longer hides that a
/// loop repeats its state.
fn unobserved_variables(program: &Program, config: &Config) -> BTreeSet<crate::ir::VarId> {
    use super::transition::PVar;
    if !config.slice {
        return BTreeSet::new();
    }
    let voc = Vocabulary::new(program);
    let Ok(mut cfa) = cfa::build_nested(&voc, config.max_locations, 1) else {
        return BTreeSet::new();
    };
    let id = |x: &PVar| match x {
        PVar::Var { id, .. } | PVar::Old { id, .. } => Some(*id),
        PVar::Tid { .. } => None,
    };
    let removed: BTreeSet<_> = super::slice::slice(&mut cfa, &voc)
        .iter()
        .filter_map(id)
        .collect();
    // A variable with one instance that stays (or whose `old` value stays) is observed.
    let kept: BTreeSet<_> = cfa
        .edges
        .iter()
        .flat_map(|e| e.tf.vars())
        .filter_map(|x| id(&x))
        .collect();
    removed.difference(&kept).copied().collect()
}

/// The share of the time left that a program forking on a cycle gets with two instances per fork
/// before the thread-modular attempts (see [`run_engines`]).
const BOUNDED_PROBE_SHARE: f64 = 0.2;

/// The instant when `share` of the run's time left from now has passed (of the query limit
/// without a deadline).
fn share_of_time_left(config: &Config, share: f64) -> Instant {
    let left = match config.deadline {
        Some(d) => d.saturating_duration_since(Instant::now()),
        None => Duration::from_secs_f64(config.query_timeout_s),
    };
    Instant::now() + left.mul_f64(share)
}

/// Thread-modular proofs for a program that forks unboundedly: Houdini with 1, then 2 threads per
/// unbounded fork statement in the view (cheap; enough for most lock-based programs), then z3's
/// Horn solver with 1, then 2; each with a share of the time left (a method that ran out of time
/// is not tried with a larger view).
const THREAD_MODULAR_ATTEMPTS: [(usize, Method, f64); 4] = [
    (1, Method::Houdini, 0.15),
    (2, Method::Houdini, 0.3),
    (1, Method::Spacer, 0.3),
    (2, Method::Spacer, 0.6),
];

/// A bounded program with a procedure forked by at least this many statements (a family whose
/// interleavings grow exponentially with its size) first gets [`MERGED_ATTEMPTS`].
const MERGED_POOL_MIN_FORKS: usize = 3;

/// Thread-modular proofs with one thread of each procedure forked by several statements in the
/// view ([`Pools::Merged`]): Houdini first, with a cheap share, since the bounded engine may well
/// prove the program; then z3's Horn solver beside the bounded engine ([`beside_horn_solver`]),
/// with all the time left.
const MERGED_HOUDINI: [(usize, Method, f64); 1] = [(1, Method::Houdini, 0.03)];
const MERGED_HORN: [(usize, Method, f64); 1] = [(1, Method::Spacer, 1.0)];

/// The most threads per unbounded fork in a view of [`THREAD_MODULAR_ATTEMPTS`].
const THREAD_MODULAR_MAX_VIEW: usize = 2;

/// SAFE by a thread-modular proof ([`super::thread_modular`]), if one is found in time; otherwise
/// whether one was searched for (the program is in the module's scope).
fn thread_modular_proof(
    voc: &Vocabulary,
    config: &Config,
    pools: Pools,
    attempts: &[(usize, Method, f64)],
) -> Result<Outcome, bool> {
    let mut tried = false;
    // Views that are out of the module's scope, and those no proof exists for.
    let mut skip: BTreeSet<usize> = BTreeSet::new();
    // Methods that ran out of time with a smaller view.
    let mut out_of_time: Vec<Method> = Vec::new();
    for &(k, method, share) in attempts {
        if skip.contains(&k) || out_of_time.contains(&method) {
            continue;
        }
        let limit = share_of_time_left(config, share).saturating_duration_since(Instant::now());
        let attempt = super::thread_modular::prove_with(
            voc,
            config,
            k,
            pools,
            &[method],
            limit.max(Duration::from_millis(200)),
        );
        if debug() {
            eprintln!("thread-modular proof with k = {k} by {method:?}: {attempt:?}");
        }
        match attempt {
            Attempt::Proved { tuples, by } => {
                let threads = if k == 1 { "thread" } else { "threads" };
                let of = match pools {
                    Pools::PerStatement => "each unbounded fork",
                    Pools::Merged => "each procedure forked by several statements",
                };
                let stats = Stats {
                    thread_modular_tuples: tuples,
                    ..Stats::default()
                };
                return Ok(Outcome::safe(
                    Some(format!(
                        "thread-modular proof: an invariant over the shared state and {k} {threads} \
                         of {of}, found by {by} and re-checked"
                    )),
                    Vec::new(),
                    stats,
                ));
            }
            Attempt::NoProof => {
                tried = true;
                skip.insert(k);
            }
            Attempt::Unknown(_) => tried = true,
            // (A larger view would take longer still.)
            Attempt::OutOfTime(_) => {
                tried = true;
                out_of_time.push(method);
            }
            Attempt::NotApplicable(_) => {
                skip.insert(k);
            }
        }
    }
    Err(tried)
}

/// The share of the time left that a run on the program with its synchronisation abstracted
/// ([`abstraction_attempt`]) may take.
const ABSTRACTION_SHARE: f64 = 0.25;

/// A concurrent program whose specification needs none of its locks (they only order the steps
/// of threads that a reduction could otherwise commute, `equal-array-sums` under a lock): a run
/// on the program with the synchronisation abstracted away ([`super::slice::abstract_synchronization`],
/// an over-approximation) within [`ABSTRACTION_SHARE`] of the time left, at most
/// [`MAX_INSTANCES`] instances per fork. Its SAFE is a proof of the program; its UNSAFE was
/// re-validated on the original edges, so it is an error of the program too; anything else is
/// dropped (`None`), and the caller runs on the program itself. (`unbounded`: the program forks
/// on a cycle, [`super::thread_modular::forks_unboundedly`].)
fn abstraction_attempt(voc: &Vocabulary, config: &Config, unbounded: bool) -> Option<Outcome> {
    if !config.slice || !has_forks(voc.program) {
        return None;
    }
    let left = match config.deadline {
        Some(d) => d.saturating_duration_since(Instant::now()),
        None => Duration::from_secs_f64(config.query_timeout_s),
    };
    let mut limited = config.clone();
    limited.deadline = Some(Instant::now() + left.mul_f64(ABSTRACTION_SHARE));
    let mut iterations = 0;
    for instances in 1..=MAX_INSTANCES {
        let mut o = run_inner(voc, &limited, instances, true);
        iterations += o.stats.iterations;
        o.stats.iterations = iterations;
        match (o.verdict, &o.unknown) {
            // (`run_inner` declines when there is nothing to abstract, so this is the
            // abstraction's answer.)
            (super::Verdict::Safe | super::Verdict::Unsafe, _) => {
                if o.verdict == super::Verdict::Safe {
                    let what = format!(
                        "proved with {} abstracted away: an over-approximation",
                        abstracted_names(voc, config, instances)
                    );
                    o.reason = Some(match o.reason.take() {
                        Some(r) => format!("{r}; {what}"),
                        None => what,
                    });
                }
                return Some(o);
            }
            // (A fork on a cycle needs ever more instances: the thread-modular proof of the
            // program itself is the better use of the time.)
            (_, Some(UnknownReason::InsufficientInstances(_))) if !unbounded => {
                continue;
            }
            _ => return None,
        }
    }
    None
}

/// The names of the variables [`super::slice::abstract_synchronization`] abstracts (for the
/// answer's reason), as `run_inner` computes them.
fn abstracted_names(voc: &Vocabulary, config: &Config, instances: usize) -> String {
    let Ok(mut cfa) = cfa::build_nested(voc, config.max_locations, instances) else {
        return "variables".into();
    };
    super::slice::slice(&mut cfa, voc);
    let names: Vec<String> = super::slice::abstract_synchronization(&mut cfa, voc)
        .into_iter()
        .map(|x| voc.display_name(x))
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    names.join(", ")
}

/// The CFA a safety run works on: `instances` per fork statement, the assertions of inlined
/// callees assumed, sliced with `config.slice` (with `abstract_sync`, the synchronisation
/// variables abstracted; nothing to abstract is an error), block-encoded; its sizes in `stats`.
pub(super) fn safety_cfa(
    voc: &Vocabulary,
    config: &Config,
    instances: usize,
    abstract_sync: bool,
    stats: &mut Stats,
) -> Result<(Cfa, Encoded), UnknownReason> {
    let mut cfa =
        cfa::build_nested(voc, config.max_locations, instances).map_err(|e| e.reason())?;
    let assumed = cfa.assume_callee_assertions();
    if debug() && assumed > 0 {
        eprintln!("{assumed} error locations of inlined bodies assumed (library mode)");
    }
    if config.slice {
        let removed = super::slice::slice(&mut cfa, voc);
        if debug() && !removed.is_empty() {
            let names: Vec<String> = removed.iter().map(|x| voc.name(*x)).collect();
            eprintln!("slicing removed {}", names.join(", "));
        }
        stats.sliced_variables = removed.len();
        if abstract_sync {
            let abstracted = super::slice::abstract_synchronization(&mut cfa, voc);
            if abstracted.is_empty() {
                return Err(UnknownReason::Unsupported("nothing to abstract".into()));
            }
            if debug() {
                let names: Vec<String> = abstracted.iter().map(|x| voc.name(*x)).collect();
                eprintln!("synchronisation abstracted: {}", names.join(", "));
            }
            stats.abstracted_variables = abstracted.len();
        }
        stats.idle_forks = super::slice::drop_idle_threads(&mut cfa, voc);
    }
    stats.cfa_locations = cfa.locs.len();
    stats.thread_instances = cfa.threads.len();
    stats.cfa_edges = cfa.edges.len();
    let enc = blocks::encode(&cfa, voc, config.block_encoding)
        .map_err(|u| UnknownReason::Unsupported(u.0))?;
    Ok((cfa, enc))
}

fn run_inner(voc: &Vocabulary, config: &Config, instances: usize, abstract_sync: bool) -> Outcome {
    let program = voc.program;
    let mut stats = Stats::default();
    let (cfa, enc) = match safety_cfa(voc, config, instances, abstract_sync, &mut stats) {
        Ok(built) => built,
        Err(why) => return Outcome::unknown(why, stats),
    };
    stats.letters = enc.letters.len();
    if !cfa.is_concurrent() && blocks::reachable_errors(&cfa, &enc).is_empty() {
        return Outcome::safe(
            Some(if program.errors.is_empty() {
                "no specification to check".into()
            } else {
                "no error location is reachable".into()
            }),
            Vec::new(),
            stats,
        );
    }
    let open = |kind: SolverKind, cores: bool| Session::new(session_config(config, kind, cores));
    let htc_session = match open(config.solver, false) {
        Ok(s) => s,
        Err(e) => return Outcome::unknown(UnknownReason::SolverUnavailable(e.to_string()), stats),
    };
    let mut trace_session = match open(config.solver, config.interpolation.uses_core()) {
        Ok(s) => s,
        Err(e) => return Outcome::unknown(UnknownReason::SolverUnavailable(e.to_string()), stats),
    };
    let mut qe_session = match open(SolverKind::Z3, false) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::unknown(
                UnknownReason::SolverUnavailable(format!("z3 (for quantifier elimination): {e}")),
                stats,
            );
        }
    };
    // The axioms and the recursive function definitions (∀-axioms) may be inconsistent, which makes
    // every execution infeasible (Boogie and Ultimate then answer SAFE vacuously): checked once here.
    if (!cfa.background.is_empty() || !cfa.definitions.is_empty())
        && !background_consistent(&mut qe_session, &cfa.background, &cfa.definitions)
    {
        return Outcome::safe(
            Some("vacuously: the axioms and function definitions are inconsistent".into()),
            Vec::new(),
            stats,
        );
    }
    let mut fh = FloydHoare::new(voc, &enc, hoare_checker(config, htc_session))
        .with_deadline(config.deadline)
        .with_scope(
            &cfa,
            config.predicate_scope,
            config.por_order == super::PorOrder::Lockstep,
        );
    if cfa.is_concurrent() {
        seed_guards(voc, &cfa, &enc, &mut fh);
    }
    let mut checker = SmtTraceChecker {
        session: &mut trace_session,
        cores: config.interpolation.uses_core(),
    };
    let mut images = PostImages {
        voc,
        qe: &mut qe_session,
    };
    let mut sessions = Sessions {
        trace: &mut checker,
        interpolator: &mut images,
    };
    if cfa.nested {
        // Recursive procedures: nested-word trace abstraction.
        let mut fh = fh.with_fixed(super::recursive::fixed_variables(&cfa));
        let fresh = || {
            Session::new(session_config(config, config.solver, false)).map_err(|e| e.to_string())
        };
        let o = super::recursive::run(
            voc,
            &cfa,
            &enc,
            config,
            &mut fh,
            &mut sessions,
            &mut stats,
            &fresh,
        );
        let mut outcome = finish(o, &mut fh);
        for s in [&trace_session, &qe_session] {
            let st = s.stats();
            outcome.stats.solver_calls += st.checks as usize;
            outcome.stats.solver_time += st.solver_time;
        }
        return outcome;
    }
    // Declared before the deep search, which they outlive (it is asked again after the loops).
    let mut inv_slot: invariants::Invariants;
    let strong_slot: Encoded;
    // Deep error traces: a bounded model check shares the time between iterations.
    let deep = RefCell::new(super::bmc::Unroller::new(voc, &cfa, &enc, config));
    // Invariant synthesis is per location of one thread: sequential programs only.
    let first = Cegar::new(voc, &cfa, &enc, config)
        .with_deep_search(Some(&deep))
        .stop_on_divergence(config.invariants && !cfa.is_concurrent())
        .run(&mut fh, &mut sessions, &mut stats);
    let mut outcome = match first {
        LoopEnd::Done(o) => finish(*o, &mut fh),
        LoopEnd::Untrim => unreachable_outcome(&stats),
        LoopEnd::Diverging(_) => {
            // The loop unrolls: synthesise inductive invariants (sound by construction, see
            // `invariants`) and, if there are any, restart on the letters they strengthen.
            // At most a share of the time left: the loop (and the deep search) need the rest.
            let t0 = Instant::now();
            let limits = invariants::Limits {
                deadline: config
                    .deadline
                    .map(|d| t0 + d.saturating_duration_since(t0).mul_f64(INVARIANT_SHARE)),
                map_candidates: true,
                ..invariants::Limits::default()
            };
            let inv = invariants::synthesize(voc, &cfa, &enc, fh.session(), &limits);
            if debug() {
                eprintln!("  invariants: quantifier-free in {:?}", t0.elapsed());
            }
            inv_slot = super::array_invariants::extend(voc, &cfa, &enc, config, &limits, inv);
            if inv_slot.at.values().flatten().any(Term::has_quantifier) {
                // The facts that need the quantified invariants (`sum == i` summing cells filled
                // with 1): synthesised again on the letters they strengthen, instantiated.
                let ground = super::array_invariants::instantiate(
                    &invariants::strengthen(voc, &enc, &inv_slot),
                    fh.session(),
                );
                let more = invariants::synthesize(voc, &cfa, &ground, fh.session(), &limits);
                inv_slot.queries += more.queries;
                for (l, ts) in more.at {
                    let at = inv_slot.at.entry(l).or_default();
                    for t in ts {
                        if !at.contains(&t) {
                            at.push(t);
                        }
                    }
                }
            }
            let inv = &inv_slot;
            stats.invariant_time += t0.elapsed();
            stats.invariant_queries += inv.queries;
            stats.invariants = inv.count();
            if debug() {
                for (l, ts) in &inv.at {
                    for t in ts {
                        eprintln!("  invariant @{l}: {}", pretty::term(voc, t));
                    }
                }
            }
            if inv.is_empty() {
                seeding_run(
                    voc,
                    &cfa,
                    &enc,
                    config,
                    &deep,
                    None,
                    &mut fh,
                    &mut sessions,
                    &mut stats,
                )
            } else {
                strong_slot = invariants::strengthen(voc, &enc, inv);
                let strong = &strong_slot;
                let mut old = finish(
                    Outcome::unknown(UnknownReason::Internal(String::new()), Stats::default()),
                    &mut fh,
                );
                let mut fh2 =
                    FloydHoare::new(voc, strong, fh.into_checker()).with_deadline(config.deadline);
                let o = seeding_run(
                    voc,
                    &cfa,
                    strong,
                    config,
                    &deep,
                    Some(inv),
                    &mut fh2,
                    &mut sessions,
                    &mut stats,
                );
                // The first Floyd–Hoare automaton's counters (its sessions are the second's).
                old.stats.solver_calls = 0;
                old.stats.fast_hoare_calls = 0;
                old.stats.solver_time = Duration::ZERO;
                let mut o = o;
                o.stats.absorb(&old.stats);
                o.stats.predicates += old.stats.predicates;
                o.stats.fh_states += old.stats.fh_states;
                o
            }
        }
    };
    if outcome.verdict == super::Verdict::Unknown {
        // The loop gave up: the deep search's proof by exhaustion, if it has one, or the search
        // goes on for up to half the time left (a bounded program whose loop the CEGAR loop cannot
        // summarise, or whose trace went through over-approximated operations).
        let now = Instant::now();
        let until = match config.deadline {
            Some(d) => now + d.saturating_duration_since(now).mul_f64(RESCUE_SHARE),
            None => now + RESCUE_MAX,
        };
        // (its outcome carries the run's statistics, with the search's)
        if let Some(o) = deep.borrow_mut().rescue(until, &mut outcome.stats) {
            outcome = o;
        }
    }
    for s in [&trace_session, &qe_session] {
        let st = s.stats();
        outcome.stats.solver_calls += st.checks as usize;
        outcome.stats.solver_time += st.solver_time;
    }
    outcome
}

/// After the CEGAR loop gave up, the deep search may go on for this share of the time left (at
/// most [`RESCUE_MAX`] without a deadline).
const RESCUE_SHARE: f64 = 0.5;
const RESCUE_MAX: Duration = Duration::from_secs(10);

/// The loop after invariant synthesis on `letters` (the encoding, strengthened by `inv` if any):
/// when a refuted trace visits a location [`SEED_REPEATS`] times, the comparisons its letters
/// make join the candidates at its locations ([`FloydHoare::add_comparisons`], at most
/// [`MAX_ATOMS`] (location, predicate) pairs) and the loop goes on with the same Floyd–Hoare
/// automaton. Interpolants of each unrolling count iterations; a comparison such as `tmp <= id`
/// may hold along all of them (the Büchi loop does the same, `termination::buchi`). Only a loop
/// that still unrolls gets them: more candidates make finer states and longer printed proofs.
#[allow(clippy::too_many_arguments)]
fn seeding_run<'a, 'p>(
    voc: &'a Vocabulary<'p>,
    cfa: &'a Cfa,
    letters: &'a Encoded,
    config: &'a Config,
    deep: &'a RefCell<super::bmc::Unroller<'a, 'p>>,
    inv: Option<&'a invariants::Invariants>,
    fh: &mut FloydHoare,
    sessions: &mut Sessions,
    stats: &mut Stats,
) -> Outcome {
    let cegar = || {
        Cegar::new(voc, cfa, letters, config)
            .with_deep_search(Some(deep))
            .with_invariants(inv)
    };
    let trace = match cegar()
        .stop_on_unrolling(SEED_REPEATS)
        .run(fh, sessions, stats)
    {
        LoopEnd::Done(o) => return finish(*o, fh),
        LoopEnd::Untrim => return unreachable_outcome(stats),
        LoopEnd::Diverging(trace) => trace,
    };
    fh.add_comparisons(&trace, &mut BTreeSet::new(), MAX_ATOMS);
    match cegar().run(fh, sessions, stats) {
        LoopEnd::Done(o) => finish(*o, fh),
        LoopEnd::Diverging(_) | LoopEnd::Untrim => unreachable_outcome(stats),
    }
}

/// (Location, comparison) candidates [`seeding_run`] adds at most.
const MAX_ATOMS: usize = 256;
/// The visits of one location by a refuted trace after which [`seeding_run`] seeds comparisons.
const SEED_REPEATS: usize = 3;

/// The share of the time left that invariant synthesis may use when the first loop diverges.
const INVARIANT_SHARE: f64 = 0.5;

pub enum LoopEnd {
    Done(Box<Outcome>),
    /// A refuted trace (its letters) repeated a location [`DIVERGENCE_REPEATS`] times (only when
    /// asked to stop).
    Diverging(Vec<usize>),
    /// The instance bound was reached on the live part of the program automaton, which was
    /// computed without the forks beyond the bound ([`EdgeKind::GhostFork`]): the loop goes on
    /// on the whole automaton. Internal to [`Cegar::run`], which never returns it.
    Untrim,
}

/// When the loop stops on an unrolled loop ([`LoopEnd::Diverging`]).
#[derive(Clone, Copy, Debug)]
struct Divergence {
    /// A refuted trace visits one location this often.
    repeats: usize,
    /// The trace is refined first: the seeding run goes on with the same automaton, while the
    /// loop after invariant synthesis starts a new one.
    refine_first: bool,
}

/// A refuted trace that visits one location this often (a loop was unrolled) stops the first loop for
/// invariant synthesis. Measured on T1: 2 answers more programs than 3 (waiting longer lets the
/// unrolled interpolants grow) and costs little on programs that are already fast.
pub const DIVERGENCE_REPEATS: usize = 2;

/// The time the consistency check of the axioms and function definitions may take. Inconsistent
/// ones are found at once (each example that is safe vacuously: under 0.05 s in all); one that
/// takes longer is almost always consistent, and then the check only delays.
const BACKGROUND_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);

fn unreachable_outcome(stats: &Stats) -> Outcome {
    Outcome::unknown(
        UnknownReason::Internal("the CEGAR loop stopped unexpectedly".into()),
        stats.clone(),
    )
}

/// Is the background (axioms, distinct constants) together with the recursive function definitions
/// satisfiable? Asked of the z3 session (the definitions are quantified). `false` only on a
/// definite `unsat`; `true` also when the solver cannot tell (a counterexample is then
/// re-validated with the definitions, so nothing unsound follows). Bounded by
/// [`BACKGROUND_LIMIT`]: a satisfiable quantified axiom z3 cannot decide (`∀x. f(x) > x`) held
/// every run that has one for the whole query limit.
fn background_consistent(session: &mut Session, background: &[Term], definitions: &[Term]) -> bool {
    session.push();
    for t in background.iter().chain(definitions) {
        session.assert(t);
    }
    let r = session.check_sat_within(BACKGROUND_LIMIT);
    session.pop();
    !matches!(r, crate::smt::SatResult::Unsat)
}

/// Adds the Floyd–Hoare automaton's counters and its session's solver counters to the outcome.
fn finish(mut outcome: Outcome, fh: &mut FloydHoare) -> Outcome {
    outcome.stats.absorb(fh.stats());
    (outcome.stats.predicates, outcome.stats.fh_states) = fh.size();
    let st = fh.session().stats();
    outcome.stats.solver_calls += st.checks as usize;
    outcome.stats.solver_time += st.solver_time;
    if let Some(st) = fh.fast_session_stats() {
        outcome.stats.solver_calls += st.checks as usize;
        outcome.stats.solver_time += st.solver_time;
        outcome.stats.fast_hoare_calls = st.checks as usize;
    }
    outcome
}

/// One CEGAR loop over the encoded automaton `enc` (whose letters may be strengthened by `inv`), in
/// the style of egg's `Runner`: `Cegar::new(…).with_invariants(…).stop_on_divergence(…)
/// .run(&mut fh, &mut sessions, &mut stats)`. The mutable state (Floyd–Hoare automaton, solver
/// sessions, counters) is passed to `run`, so one automaton and its sessions can serve two loops.
pub struct Cegar<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    cfa: &'a Cfa,
    enc: &'a Encoded,
    inv: Option<&'a invariants::Invariants>,
    config: &'a Config,
    budget: Budget,
    stop_on_divergence: Option<Divergence>,
    deep: Option<&'a RefCell<super::bmc::Unroller<'a, 'p>>>,
    /// Once a feasible trace has found every thread instance in use at the largest bound: the
    /// iteration and the instant at which the loop stops looking for a real error.
    limit: std::cell::Cell<Option<(usize, Option<Instant>)>>,
}

/// The loop's plug points besides the proof automaton (which brings the Hoare-triple checker): the
/// trace checker and the interpolator.
pub struct Sessions<'s> {
    pub trace: &'s mut dyn TraceChecker,
    pub interpolator: &'s mut dyn Interpolator,
}

impl<'a, 'p> Cegar<'a, 'p> {
    /// A loop over `enc` with the run's deadline as its budget.
    pub fn new(
        voc: &'a Vocabulary<'p>,
        cfa: &'a Cfa,
        enc: &'a Encoded,
        config: &'a Config,
    ) -> Self {
        let budget = match config.deadline {
            Some(d) => Budget::unlimited().with_deadline(d),
            None => Budget::unlimited(),
        };
        Cegar {
            voc,
            cfa,
            enc,
            inv: None,
            config,
            budget,
            stop_on_divergence: None,
            deep: None,
            limit: std::cell::Cell::new(None),
        }
    }

    /// Share the run's time with this deep search ([`super::bmc`]) between iterations.
    pub fn with_deep_search(
        mut self,
        deep: Option<&'a RefCell<super::bmc::Unroller<'a, 'p>>>,
    ) -> Self {
        self.deep = deep;
        self
    }

    /// The letters of `enc` are strengthened by these invariants (part of the proof).
    pub fn with_invariants(mut self, inv: Option<&'a invariants::Invariants>) -> Self {
        self.inv = inv;
        self
    }

    /// The budget of each emptiness check.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Stop with [`LoopEnd::Diverging`] when a refuted trace unrolls a loop, before refining it.
    pub fn stop_on_divergence(mut self, yes: bool) -> Self {
        self.stop_on_divergence = yes.then_some(Divergence {
            repeats: DIVERGENCE_REPEATS,
            refine_first: false,
        });
        self
    }

    /// Stop with [`LoopEnd::Diverging`] when a refuted trace visits one location `repeats` times,
    /// after refining it.
    pub fn stop_on_unrolling(mut self, repeats: usize) -> Self {
        self.stop_on_divergence = Some(Divergence {
            repeats,
            refine_first: true,
        });
        self
    }

    /// Runs the loop to SAFE, UNSAFE or UNKNOWN (or divergence, when asked to stop on it).
    pub fn run(&self, fh: &mut FloydHoare, sessions: &mut Sessions, stats: &mut Stats) -> LoopEnd {
        let (cfa, enc) = (self.cfa, self.enc);
        self.limit.set(None);
        let product = Interleaving::new(cfa, enc)
            .with_lockstep(self.config.por_order == super::PorOrder::Lockstep);
        if !cfa.is_concurrent() {
            return self.run_on(&product, fh, sessions, stats);
        }
        // Syntactic independence first; for conflicting assignments of different threads, a
        // semantic commutativity check in a session of its own (cached).
        let session = Session::new(session_config(self.config, self.config.solver, false)).ok();
        let commutativity = interleaving::Commutativity::new(self.voc, cfa, enc, session);
        let indep = |a: &usize, b: &usize| commutativity.independent(*a, *b);
        let end = match self.config.por {
            super::Por::None => self.run_live(&product, fh, sessions, stats),
            super::Por::Sleep => {
                let reduced = automata::SleepSetReduction::new(&product, indep);
                self.run_live(&reduced, fh, sessions, stats)
            }
            super::Por::Persistent => {
                let reduced = interleaving::PersistentReduction::new(&product, indep, false);
                self.run_live(&reduced, fh, sessions, stats)
            }
            super::Por::SleepPersistent => {
                let persistent = interleaving::PersistentReduction::new(&product, indep, true);
                let reduced = automata::SleepSetReduction::new(&persistent, indep);
                self.run_live(&reduced, fh, sessions, stats)
            }
        };
        // The counters of the independence relation (the outcome carries a copy of `stats`).
        let (syntactic, semantic, cached) = commutativity.counts.get();
        let solver = commutativity.solver_stats();
        let add = |st: &mut Stats| {
            st.independence_syntactic += syntactic;
            st.commutativity_checks += semantic;
            st.independence_cached += cached;
            if let Some((calls, time)) = solver {
                st.solver_calls += calls;
                st.solver_time += time;
            }
        };
        add(stats);
        match end {
            LoopEnd::Done(mut o) => {
                add(&mut o.stats);
                LoopEnd::Done(o)
            }
            end => end,
        }
    }

    /// The loop on `aut`, for a concurrent program first restricted to its live part
    /// ([`interleaving::Trimmed`]) with Karr's equalities over its configurations seeded into the
    /// Floyd–Hoare automaton ([`seed_configuration_invariants`]) — both only when the control graph
    /// has at most [`MAX_SEED_STATES`] states.
    fn run_live<A: ProgramAutomaton>(
        &self,
        aut: &A,
        fh: &mut FloydHoare,
        sessions: &mut Sessions,
        stats: &mut Stats,
    ) -> LoopEnd {
        if self.cfa.is_concurrent() && self.config.invariants {
            let t0 = Instant::now();
            let mut budget = Budget::unlimited().with_max_states(MAX_SEED_STATES);
            if let Some(d) = self.config.deadline {
                budget = budget.with_deadline(d);
            }
            let live = interleaving::Trimmed::new(aut, &budget);
            if debug() {
                eprintln!(
                    "  live program automaton: {:?} states, {:.3} s",
                    live.as_ref().map(|l| l.nfa.num_states()),
                    t0.elapsed().as_secs_f64()
                );
            }
            if let Some(live) = live {
                let n = seed_configuration_invariants(
                    self.voc,
                    self.cfa,
                    self.enc,
                    &live,
                    fh,
                    self.config,
                );
                stats.invariant_time += t0.elapsed();
                stats.seeded_predicates += n;
                stats.live_states += live.nfa.num_states();
                return match self.run_on(&live, fh, sessions, stats) {
                    LoopEnd::Untrim => self.run_on(aut, fh, sessions, stats),
                    end => end,
                };
            }
            stats.invariant_time += t0.elapsed();
        }
        self.run_on(aut, fh, sessions, stats)
    }

    /// The loop on the program automaton `aut` (the product, or a reduction of it).
    fn run_on<A: ProgramAutomaton>(
        &self,
        aut: &A,
        fh: &mut FloydHoare,
        sessions: &mut Sessions,
        stats: &mut Stats,
    ) -> LoopEnd {
        let (voc, cfa, enc, config) = (self.voc, self.cfa, self.enc, self.config);
        let stop_on_divergence = self.stop_on_divergence;
        let budget = &self.budget;
        let outcome = loop {
            // A feasible trace reached a fork without a free thread instance (see `ignore_limit`).
            let limit_reached = self.limit.get().is_some();
            if let Some((limit_iterations, limit_deadline)) = self.limit.get()
                && (stats.iterations >= limit_iterations
                    || limit_deadline.is_some_and(|d| Instant::now() >= d))
            {
                let k = cfa.instances();
                break Outcome::unknown(UnknownReason::InsufficientInstances(k), stats.clone());
            }
            if config.timed_out() {
                break timeout_outcome(stats.clone());
            }
            if stats.iterations >= config.max_iterations {
                break iteration_limit(config, stats);
            }
            if let Some(deep) = self.deep
                && let Some(o) = deep.borrow_mut().run_due(stats)
            {
                break o;
            }
            stats.iterations += 1;
            let run = {
                let diff = Counted::new(Difference::new(aut, Tracked(&mut *fh)));
                let run = automata::shortest_accepting_run(&diff, budget);
                stats.abstraction_states += diff.expanded();
                run
            };
            let run = match run {
                Ok(Some(run)) => run,
                Ok(None) if limit_reached => {
                    let k = cfa.instances();
                    break Outcome::unknown(UnknownReason::InsufficientInstances(k), stats.clone());
                }
                Ok(None) => match self.proof(aut, fh, sessions.interpolator, stats) {
                    Ok(proof) => {
                        break Outcome::safe(None, proof, stats.clone());
                    }
                    Err(e) => break Outcome::unknown(e, stats.clone()),
                },
                Err(ExploreError::Cancelled(_)) => break timeout_outcome(stats.clone()),
                Err(ExploreError::Successor(Interrupted)) => break timeout_outcome(stats.clone()),
            };
            let letters: Vec<usize> = run.letters.clone();
            // Interpolant i is attached at the location the i-th letter leads its thread to (for a
            // sequential program: the i-th state of the run).
            let locs: Vec<LocId> = std::iter::once(enc.init)
                .chain(letters.iter().map(|a| enc.letters[*a].tgt))
                .collect();
            // The configuration of each position and the thread whose letter led there (for
            // predicates scoped by configuration).
            let confs: Vec<(Box<[u32]>, Option<u32>)> = run
                .states
                .iter()
                .enumerate()
                .map(|(i, (c, _))| {
                    let moved = i
                        .checked_sub(1)
                        .and_then(|j| letters.get(j))
                        .map(|a| aut.product().thread_of(*a));
                    (aut.conf(c).locs.clone(), moved)
                })
                .collect();
            // Positions with equal states (for the perfect-sequence test).
            let state_keys: Vec<usize> = {
                let mut ids: std::collections::HashMap<&Conf, usize> = Default::default();
                run.states
                    .iter()
                    .map(|(c, _)| {
                        let n = ids.len();
                        *ids.entry(aut.conf(c)).or_insert(n)
                    })
                    .collect()
            };
            let at_limit = run
                .states
                .last()
                .is_some_and(|(c, _)| aut.product().at_limit(aut.conf(c)));
            stats.max_trace_length = stats.max_trace_length.max(letters.len());
            if debug() {
                eprintln!(
                    "iteration {}: trace of {} letters, {} predicates, {} Floyd–Hoare states",
                    stats.iterations,
                    letters.len(),
                    fh.size().0,
                    fh.size().1
                );
                for a in &letters {
                    let l = &enc.letters[*a];
                    let texts: Vec<&str> = l
                        .edges
                        .iter()
                        .map(|e| cfa.edges[*e].text.as_str())
                        .collect();
                    eprintln!(
                        "    [{}] {} -> {}: {}",
                        cfa.thread_of[l.src],
                        l.src,
                        l.tgt,
                        texts.join("; ")
                    );
                }
            }
            let tfs: Vec<&TransFormula> = letters.iter().map(|a| &enc.letters[*a].tf).collect();
            let ssa = tracecheck::ssa(voc, &tfs);
            let uses_core = config.interpolation.uses_core();
            match sessions.trace.check(&ssa) {
                Feasibility::Unknown(r) => break trace_unknown(config, r, stats),
                Feasibility::Feasible(_) if at_limit => {
                    // The bound is too small. Below the largest bound, retry with more instances;
                    // at the largest, look on for a real error (a few more iterations) before
                    // answering "unbounded threads".
                    let k = cfa.instances();
                    if k < MAX_INSTANCES || limit_reached {
                        break Outcome::unknown(
                            UnknownReason::InsufficientInstances(k),
                            stats.clone(),
                        );
                    }
                    let deadline = config.deadline.map(|d| {
                        let now = Instant::now();
                        now + d.saturating_duration_since(now).mul_f64(LOOK_ON_SHARE)
                    });
                    self.limit
                        .set(Some((stats.iterations + LOOK_ON_ITERATIONS, deadline)));
                    aut.product().ignore_limit();
                    if aut.trimmed() {
                        // The live part knows no forks beyond the bound.
                        return LoopEnd::Untrim;
                    }
                    continue;
                }
                Feasibility::Feasible(_) => {
                    let session = Session::new(session_config(config, config.solver, false))
                        .map_err(|e| e.to_string());
                    break counterexample::outcome(voc, cfa, enc, &letters, session, stats).0;
                }
                Feasibility::Infeasible(_)
                    if stop_on_divergence
                        .is_some_and(|d| !d.refine_first && repeats(&locs) >= d.repeats) =>
                {
                    // The loop unrolls: invariant synthesis comes next, and the loop after it
                    // starts a new Floyd–Hoare automaton (or refutes this trace again), so this
                    // trace's refinement — the most expensive so far, over the longest trace —
                    // is not needed (a loop body of eight branches spent 3.6 s on it).
                    return LoopEnd::Diverging(letters);
                }
                Feasibility::Infeasible(core) => {
                    let core = if uses_core { Some(&core) } else { None };
                    match self.refine(
                        &ssa,
                        core,
                        &locs,
                        &confs,
                        &state_keys,
                        &letters,
                        fh,
                        sessions.interpolator,
                        stats,
                    ) {
                        Ok(()) => {}
                        Err(Refinement::Overtaken(o)) => break *o,
                        Err(Refinement::Failed(reason)) => {
                            break if config.timed_out() {
                                timeout_outcome(stats.clone())
                            } else {
                                Outcome::unknown(reason, stats.clone())
                            };
                        }
                    }
                    if stop_on_divergence.is_some_and(|d| repeats(&locs) >= d.repeats) {
                        return LoopEnd::Diverging(letters);
                    }
                }
            }
        };
        LoopEnd::Done(Box::new(outcome))
    }
}

/// States of the program automaton explored at most for its live part and the seeds
/// ([`Cegar::run_live`]).
pub const MAX_SEED_STATES: usize = 20_000;

/// Karr's affine equalities over the configurations of a concurrent program's live program
/// automaton `live`, seeded as candidates of the Floyd–Hoare automaton at their configurations.
///
/// The graph analysed has the configurations of `live`'s states as nodes — the thread locations,
/// and the turn under the lockstep order; states that differ otherwise (sleep sets, atomic owners)
/// are merged, which only adds paths — and `live`'s transitions as edges. Karr's analysis on it
/// gives per configuration the affine equalities that hold in every state the program reaches
/// there along `live`'s words (for example `i == j && x == 0` for two threads that add and
/// subtract in lockstep). They are candidates only: the Floyd–Hoare automaton checks every
/// transition that takes one, so soundness does not depend on them.
///
/// On small graphs ([`MAX_HOUDINI_CONFIGURATIONS`]) Houdini then proves the index splits of map
/// loops over the same graph ([`invariants::synthesize_on`] with [`invariants::Focus::Splits`]):
/// each thread's `m < j ==> C[m] == A[m] + B[m]` survives exactly when every other thread's steps
/// preserve it. Before them, the witnesses of counts ([`invariants::Focus::Witnesses`]:
/// `m < j && A[m] > 0 ==> cnt >= 1` while another thread maps `A` preserving positivity; when one
/// is proven, nothing else is tried) and the products of repeated addition
/// ([`invariants::Focus::Products`]: `z == i * b` in a thread's loop, `z1 == x * y` after the
/// join that takes its result). Those are seeded too. Returns the number of (predicate,
/// configuration) pairs seeded.
fn seed_configuration_invariants<A: ProgramAutomaton>(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    live: &interleaving::Trimmed<A>,
    fh: &mut FloydHoare,
    config: &Config,
) -> usize {
    use std::collections::HashMap;
    let lockstep = config.por_order == super::PorOrder::Lockstep;
    let key = |s: &A::State| -> Box<[u32]> {
        let c = live.conf(s);
        let mut k = c.locs.to_vec();
        if lockstep {
            k.push(c.turn);
        }
        k.into_boxed_slice()
    };
    let mut ids: HashMap<Box<[u32]>, usize> = HashMap::new();
    let mut nodes: Vec<Box<[u32]>> = Vec::new();
    let mut node_of = |k: Box<[u32]>, nodes: &mut Vec<Box<[u32]>>| -> usize {
        if let Some(&i) = ids.get(&k) {
            return i;
        }
        let i = nodes.len();
        nodes.push(k.clone());
        ids.insert(k, i);
        i
    };
    let Some(init) = live.nfa.initial().next() else {
        return 0;
    };
    node_of(key(init), &mut nodes);
    let mut edges: BTreeSet<(usize, usize, usize)> = BTreeSet::new();
    for (s, a, t) in live.nfa.transitions() {
        let src = node_of(key(s), &mut nodes);
        let tgt = node_of(key(t), &mut nodes);
        edges.insert((src, *a, tgt));
    }
    // The graph as an encoded automaton over the configurations (node 0 is the initial one).
    let mut graph = Encoded {
        letters: Vec::with_capacity(edges.len()),
        out: vec![Vec::new(); nodes.len()],
        init: 0,
        kept: (0..nodes.len()).collect(),
    };
    for &(src, a, tgt) in &edges {
        let mut letter = enc.letters[a].clone();
        letter.src = src;
        letter.tgt = tgt;
        graph.out[src].push(graph.letters.len());
        graph.letters.push(letter);
    }
    let limits = invariants::Limits {
        deadline: config.deadline,
        max_vars: 60,
        karr_ms: configuration_karr_ms(config),
        ..invariants::Limits::default()
    };
    let t0 = Instant::now();
    let found = invariants::affine_candidates(voc, &graph, &limits);
    if debug() {
        eprintln!(
            "  Karr over {} configurations, {} edges: {:.3} s",
            nodes.len(),
            graph.letters.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    // No candidates where a thread is at an error location (the error is refuted there).
    let at_error = |locs: &[u32]| {
        locs[..cfa.threads.len()]
            .iter()
            .any(|&l| l != interleaving::FREE && cfa.error_of(l as LocId).is_some())
    };
    let mut n = 0;
    for (node, ts) in &found {
        let locs = &nodes[*node];
        if at_error(locs) {
            continue;
        }
        for t in ts {
            if debug() {
                eprintln!("  seed {:?}: {}", locs, pretty::term(voc, t));
            }
            n += fh.seed_predicate(locs, t);
        }
    }
    // Houdini over the configurations (small graphs, a share of the time left each), one pass
    // per kind of candidate that the other threads' steps may preserve, with the bounds and
    // guards that support it: the witnesses of counts (`m < j && A[m] >= 1 ==> cnt >= 1`; when
    // one is proven, nothing else is tried), the products of repeated addition (`z == i * b`),
    // the index splits of map loops (`m < j ==> C[m] == A[m] + B[m]`). A pass without candidates
    // costs nothing.
    if nodes.len() <= MAX_HOUDINI_CONFIGURATIONS {
        for (focus, most, share) in [
            (invariants::Focus::Witnesses, WITNESS_TIME, 0.5),
            (invariants::Focus::Products, HOUDINI_TIME, 0.3),
            (invariants::Focus::Splits, HOUDINI_TIME, 0.3),
        ] {
            let t0 = Instant::now();
            let limits = invariants::Limits {
                deadline: Some(config.deadline.map_or(t0 + most, |d| {
                    t0 + d.saturating_duration_since(t0).mul_f64(share).min(most)
                })),
                max_vars: 60,
                focus,
                max_candidates: 400,
                max_queries: (40 * graph.letters.len()).clamp(400, 20_000),
                ..invariants::Limits::default()
            };
            let inv = invariants::synthesize_on(
                voc,
                &graph,
                &|l| !at_error(&nodes[l]),
                fh.session(),
                &limits,
            );
            if debug() {
                eprintln!(
                    "  Houdini ({focus:?}) over {} configurations: {} invariants ({} of the focus), \
                     {} queries, {:.3} s",
                    nodes.len(),
                    inv.count(),
                    inv.focused,
                    inv.queries,
                    t0.elapsed().as_secs_f64()
                );
            }
            for (node, ts) in &inv.at {
                let locs = &nodes[*node];
                for t in ts {
                    if debug() {
                        eprintln!("  seed {:?}: {}", locs, pretty::term(voc, t));
                    }
                    n += fh.seed_predicate(locs, t);
                }
            }
            // (A product is part of a proof at most: the splits are still tried after it.)
            if inv.focused > 0 && focus == invariants::Focus::Witnesses {
                break;
            }
        }
    }
    n
}

/// Karr's time over a concurrent program's configurations: a share of the time left, between
/// the default (a stopped analysis proposes candidates that are not invariants) and a cap. (Six
/// threads summing an array in lockstep: 1,522 configurations of 19 variables, 0.65 s.)
fn configuration_karr_ms(config: &Config) -> u64 {
    const MIN_MS: u64 = 500;
    const MAX_MS: u64 = 2_000;
    let ms = config.deadline.map_or(MAX_MS, |d| {
        (d.saturating_duration_since(Instant::now()).as_millis() as f64 * 0.2) as u64
    });
    ms.clamp(MIN_MS, MAX_MS)
}

/// The comparisons of each thread's branch and loop conditions (`i < N`, `N <= i`), as candidate
/// predicates at the location the condition leads to, for that thread (thread-scoped candidates
/// of [`FloydHoare::add_predicate_in`]). An interpolant of an unrolled trace states such a bound
/// by its values (`N <= 2 && i >= 2` after two rounds); the condition itself, together with the
/// equalities between the threads' counters seeded at configurations
/// ([`seed_configuration_invariants`]), refutes a thread that enters its loop after another, in
/// lockstep with it, has left: for every round at once.
fn seed_guards(voc: &Vocabulary, cfa: &Cfa, enc: &Encoded, fh: &mut FloydHoare) {
    let n = cfa.threads.len();
    for l in enc.letters.iter().filter(|l| l.tf.writes.is_empty()) {
        let t = cfa.thread_of[l.tgt];
        let mut locs = vec![interleaving::FREE; n];
        locs[t as usize] = l.tgt as u32;
        for g in invariants::guard_atoms(voc, std::iter::once(&l.tf.formula), 4) {
            fh.add_predicate_in(l.tgt, &locs, Some(t), &g);
        }
    }
}

/// Houdini over a concurrent program's configurations only when there are at most this many
/// ([`seed_configuration_invariants`]), with at most this much time.
const MAX_HOUDINI_CONFIGURATIONS: usize = 600;
const HOUDINI_TIME: std::time::Duration = std::time::Duration::from_secs(2);
/// At most this much time for the witnesses of aggregations (tried first, see
/// [`seed_configuration_invariants`]).
const WITNESS_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// How often the most visited location occurs in a run.
fn repeats(locs: &[LocId]) -> usize {
    let mut count: BTreeMap<LocId, usize> = BTreeMap::new();
    for l in locs {
        *count.entry(*l).or_default() += 1;
    }
    count.values().copied().max().unwrap_or(0)
}

impl Cegar<'_, '_> {
    /// Adds the interpolants of the infeasible trace to the Floyd–Hoare automaton and checks
    /// progress.
    #[allow(clippy::too_many_arguments)]
    fn refine(
        &self,
        ssa: &tracecheck::SsaTrace,
        core: Option<&BTreeSet<(usize, usize)>>,
        locs: &[LocId],
        confs: &[(Box<[u32]>, Option<u32>)],
        state_keys: &[usize],
        letters: &[usize],
        fh: &mut FloydHoare,
        interpolator: &mut dyn Interpolator,
        stats: &mut Stats,
    ) -> Result<(), Refinement> {
        let (voc, config) = (self.voc, self.config);
        // Between two sequences, the deep search gets its turn: one refinement can take many
        // seconds (each quantifier elimination that fails spends its limit), and a shallow error
        // behind large letters should not wait for the loop to give up.
        let deep_turn = |stats: &mut Stats| -> Result<(), Refinement> {
            match self.deep.and_then(|d| d.borrow_mut().run_due(stats)) {
                Some(o) => Err(Refinement::Overtaken(Box::new(o))),
                None => Ok(()),
            }
        };
        let live = config.interpolation.uses_live();
        // A proof by exhaustion the deep search holds answers once the loop has had its time for a
        // proof with invariants: a sequence does not run past that (one sequence whose
        // eliminations take seconds held the answer up for as long). Asked for each sequence: the
        // search may find its proof in a turn between two of them.
        let until = || self.deep.and_then(|d| d.borrow().answer_due());
        // (direction, relax by the unsat core)
        let plan: Vec<(Direction, bool)> = match config.interpolation {
            Interpolation::Sp | Interpolation::SpLive | Interpolation::SpLiveUc => {
                vec![(Direction::Forward, core.is_some())]
            }
            Interpolation::Wp | Interpolation::WpLive | Interpolation::WpLiveUc => {
                vec![(Direction::Backward, core.is_some())]
            }
            // A portfolio as Ultimate's strategies: sequences in order until one is perfect (or, for a
            // concurrent program, until the relaxed ones are done, see below); all of them go into
            // the Floyd–Hoare automaton.
            Interpolation::FpBp => vec![
                (Direction::Forward, true),
                (Direction::Backward, true),
                (Direction::Backward, false),
                (Direction::Forward, false),
            ],
        };
        let mut errors = Vec::new();
        let mut added_any = false;
        // Directions whose sequence failed because a quantifier elimination ran out of its limit:
        // the other sequence of that direction projects the same letters (with more conjuncts, or
        // fewer) and runs out again — a strongest post over a loop body of eight branches spent
        // its 2 s limit twice in each refinement.
        let mut expired: Vec<Direction> = Vec::new();
        for (k, (direction, relax)) in plan.iter().enumerate() {
            if config.timed_out() {
                return Err(UnknownReason::Timeout.into());
            }
            if expired.contains(direction) {
                continue;
            }
            if k > 0 {
                deep_turn(stats)?;
            }
            let expired_before = interpolator.expired_eliminations();
            let settings = Settings {
                direction: *direction,
                live,
                exact: false,
                until: until(),
            };
            let used_core = if *relax { core } else { None };
            let mut preds = match interpolator.interpolants(ssa, used_core, settings, stats) {
                Ok(p) => p,
                Err(e) => {
                    if interpolator.expired_eliminations() > expired_before {
                        expired.push(*direction);
                    }
                    errors.push(e);
                    continue;
                }
            };
            if let Err(e) = interpolate::close_ends(&mut preds, fh.session()) {
                if debug() {
                    eprintln!("  failed sequence ({e}):");
                    for (i, p) in preds.iter().enumerate() {
                        eprintln!("    I{i}: {}", pretty::term(voc, p));
                    }
                }
                errors.push(e);
                continue;
            }
            add_sequence(voc, &preds, locs, confs, fh);
            added_any = true;
            if k + 1 < plan.len() && interpolate::is_perfect(&preds, state_keys, fh.session()) {
                stats.perfect_sequences += 1;
                break;
            }
            // A concurrent program's Floyd–Hoare states are sets of predicates per configuration,
            // so each predicate costs far more: the sequences relaxed by the unsat core (smaller
            // predicates) suffice there once one of them succeeded (a 2-thread non-atomic
            // increment: 13 s with all four sequences, 3 s without the unrelaxed ones); a
            // sequential program keeps them (there they save refinements: a 32-bit counter
            // program 3 s with them, 8 s without).
            let relaxed_done = *relax && core.is_some() && plan.get(k + 1).is_some_and(|n| !n.1);
            if relaxed_done && added_any && self.cfa.is_concurrent() {
                break;
            }
        }
        if !added_any {
            // Every sequence failed (a weakened projection lost the infeasibility). Projecting onto
            // live variables quantifies away a variable the prefix (backward) or suffix (forward)
            // does not mention, although a loop's invariant may need it — an index the loop never
            // writes, read only by the assertion after it: weakened sequences without that
            // projection first (the weakest precondition keeps the index and stays
            // quantifier-free), then the exact strongest post, quantified predicates allowed.
            // (direction, relax by the unsat core, exact)
            let non_live = [
                (Direction::Backward, true, false),
                (Direction::Backward, false, false),
                (Direction::Forward, false, false),
            ];
            let exact = [
                (Direction::Forward, true, true),
                (Direction::Forward, false, true),
            ];
            let fallbacks = non_live.iter().filter(|_| live).chain(&exact);
            for &(direction, relax, exact) in fallbacks {
                if config.timed_out() {
                    return Err(UnknownReason::Timeout.into());
                }
                if relax && core.is_none() {
                    continue;
                }
                deep_turn(stats)?;
                let settings = Settings {
                    direction,
                    live: live && exact,
                    exact,
                    until: until(),
                };
                let used_core = if relax { core } else { None };
                let Ok(mut preds) = interpolator.interpolants(ssa, used_core, settings, stats)
                else {
                    continue;
                };
                if interpolate::close_ends(&mut preds, fh.session()).is_ok() {
                    add_sequence(voc, &preds, locs, confs, fh);
                    added_any = true;
                    break;
                }
            }
        }
        if !added_any {
            return Err(UnknownReason::Interpolation(errors.join("; ")).into());
        }
        if progress(fh, letters)? {
            return Ok(());
        }
        // No progress yet (e.g. a Hoare-triple check was unknown): try the sequences the plan skipped.
        let fallback = [
            (Direction::Forward, true),
            (Direction::Backward, true),
            (Direction::Backward, false),
            (Direction::Forward, false),
        ];
        for (direction, use_core) in fallback.into_iter().filter(|x| !plan.contains(x)) {
            let use_core = use_core && core.is_some();
            if config.timed_out() {
                return Err(UnknownReason::Timeout.into());
            }
            deep_turn(stats)?;
            let settings = Settings {
                direction,
                live,
                exact: false,
                until: until(),
            };
            let Ok(mut preds) =
                interpolator.interpolants(ssa, if use_core { core } else { None }, settings, stats)
            else {
                continue;
            };
            if interpolate::close_ends(&mut preds, fh.session()).is_err() {
                continue;
            }
            add_sequence(voc, &preds, locs, confs, fh);
            if progress(fh, letters)? {
                return Ok(());
            }
        }
        Err(UnknownReason::NoProgress(fh.last_unknown()).into())
    }
}

/// Why [`Cegar::refine`] did not refine the abstraction.
enum Refinement {
    /// No sequence made progress, for this reason.
    Failed(UnknownReason),
    /// The deep search, given its turn between two sequences, answered first.
    Overtaken(Box<Outcome>),
}

impl From<UnknownReason> for Refinement {
    fn from(r: UnknownReason) -> Self {
        Refinement::Failed(r)
    }
}

fn add_sequence(
    voc: &Vocabulary,
    preds: &[Term],
    locs: &[LocId],
    confs: &[(Box<[u32]>, Option<u32>)],
    fh: &mut FloydHoare,
) {
    let n = preds.len() - 1;
    if debug() {
        for (i, p) in preds.iter().enumerate() {
            eprintln!("  I{i} @{}: {}", locs[i], pretty::term(voc, p));
        }
    }
    for i in 1..n {
        match confs.get(i) {
            Some((c, moved)) => fh.add_predicate_in(locs[i], c, *moved, &preds[i]),
            None => fh.add_predicate(locs[i], &preds[i]),
        }
    }
}

/// `LAPIDARY_DEBUG=1` prints each iteration's trace and interpolants to stderr (for development).
pub(super) fn debug() -> bool {
    static DEBUG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DEBUG.get_or_init(|| std::env::var_os("LAPIDARY_DEBUG").is_some())
}

/// Does the Floyd–Hoare automaton now accept the trace (reach `false`)?
fn progress(fh: &mut FloydHoare, letters: &[usize]) -> Result<bool, UnknownReason> {
    use crate::automata::DeterministicAutomaton;
    let mut fh = Tracked(fh);
    let mut s = fh.initial();
    for a in letters {
        s = fh.successor(&s, a).map_err(|_| UnknownReason::Timeout)?;
        if s.1 == FALSE_STATE {
            return Ok(true);
        }
    }
    Ok(s.1 == FALSE_STATE)
}

/// The certificate of the explored abstraction `CFA \ FH` (see [`proof`](super::proof)): at each
/// reached location the disjunction of its Floyd–Hoare states (minus subsumed ones), conjoined with
/// the synthesised invariant. `None` when the exploration is cut short.
fn certificate<A: ProgramAutomaton>(
    aut: &A,
    fh: &mut FloydHoare,
    budget: &Budget,
    inv: Option<&invariants::Invariants>,
) -> Option<BTreeMap<A::State, Term>> {
    let explored = {
        let diff = Difference::new(aut, Tracked(&mut *fh));
        automata::explore(&diff, budget)
    };
    let nfa = explored.ok()?;
    let mut at: BTreeMap<A::State, BTreeSet<StateId>> = BTreeMap::new();
    for (l, (_, s)) in nfa.states() {
        at.entry(l.clone()).or_default().insert(*s);
    }
    let at = at
        .into_iter()
        .map(|(l, states)| {
            // A state whose predicates include all of another state's is subsumed by it.
            let sets: Vec<BTreeSet<_>> = states
                .iter()
                .map(|s| fh.state_preds(*s).iter().copied().collect())
                .collect();
            let keep: Vec<StateId> = states
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    !sets.iter().enumerate().any(|(j, other)| {
                        j != *i && other.is_subset(&sets[*i]) && (other != &sets[*i] || j < *i)
                    })
                })
                .map(|(_, s)| *s)
                .collect();
            let mut disj = Term::or(keep.iter().map(|s| fh.state_term(*s)).collect());
            if let Some(inv) = inv {
                // The letters leaving `l` assume the synthesised invariant: it is part of the proof.
                disj = Term::and(vec![inv.term_at(aut.conf(&l).main_loc()), disj]);
            }
            (l, crate::smt::simplify(&disj))
        })
        .collect();
    Some(at)
}

impl Cegar<'_, '_> {
    /// The proof of a SAFE run: the invariants of the source's loops, re-checked in a fresh session when
    /// `config.check_proof` asks for it (a failed check is an UNKNOWN, never a SAFE with a false
    /// proof).
    fn proof<A: ProgramAutomaton>(
        &self,
        aut: &A,
        fh: &mut FloydHoare,
        projector: &mut dyn Interpolator,
        stats: &mut Stats,
    ) -> Result<Vec<LoopInvariant>, UnknownReason> {
        let (voc, cfa, enc, config) = (self.voc, self.cfa, self.enc, self.config);
        if !config.proof && !config.check_proof {
            // Nobody asked: do not explore the abstraction again.
            return Ok(Vec::new());
        }
        let Some(by_conf) = certificate(aut, fh, &self.budget, self.inv) else {
            return if config.check_proof {
                Err(UnknownReason::ProofCheck(
                    "proof check: the abstraction could not be explored again".into(),
                ))
            } else {
                Ok(Vec::new())
            };
        };
        if cfa.is_concurrent() {
            // The certificate maps configurations to invariants; it is checked over the product.
            if config.check_proof {
                let session = Session::new(session_config(config, config.solver, false))
                    .map_err(|e| UnknownReason::SolverUnavailable(e.to_string()))?;
                super::proof::check_interleaving(voc, aut, &by_conf, session)
                    .map_err(UnknownReason::ProofCheck)?;
            }
            return Ok(Vec::new());
        }
        let mut at: BTreeMap<LocId, Vec<Term>> = BTreeMap::new();
        for (s, t) in by_conf {
            at.entry(aut.conf(&s).main_loc()).or_default().push(t);
        }
        let cert = Certificate {
            at: at
                .into_iter()
                .map(|(l, ts)| (l, crate::smt::simplify(&Term::or(ts))))
                .collect(),
        };
        let source = match super::proof::source_invariants(voc, cfa, &cert, projector, stats) {
            Ok(s) => s,
            Err(e) if config.check_proof => return Err(UnknownReason::ProofCheck(e)),
            Err(_) => return Ok(Vec::new()),
        };
        if config.check_proof {
            let session = Session::new(session_config(config, config.solver, false))
                .map_err(|e| UnknownReason::SolverUnavailable(e.to_string()))?;
            super::proof::check(voc, cfa, enc, &cert, &source, session)
                .map_err(UnknownReason::ProofCheck)?;
        }
        Ok(source.into_iter().map(|s| s.printed).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Library mode: the inlined bodies' error locations are assumed, so each error of the
    /// program is checked once, in its procedure's own entry body, and the verdicts stay: a
    /// `requires` that fails two calls down is still found (in `mid`'s own body).
    #[test]
    fn library_mode_checks_each_assertion_in_its_own_body() {
        let unsafe_src = "procedure helper(x: int) requires x > 0; { assert x > 0; }
            procedure mid() { call helper(0); }
            procedure main() { call mid(); }";
        let safe_src = "procedure helper(x: int) requires x > 0; { assert x > 0; }
            procedure mid() { call helper(1); }
            procedure main() { call mid(); call helper(2); }";
        for (src, expected) in [
            (unsafe_src, super::super::Verdict::Unsafe),
            (safe_src, super::super::Verdict::Safe),
        ] {
            let (p, _) = crate::cli::frontend(src).expect("parses");
            let voc = Vocabulary::new(&p);
            let mut cfa = cfa::build_nested(&voc, 10_000, 1).expect("cfa");
            let errors = |cfa: &Cfa| {
                let mut ids: Vec<_> = cfa
                    .error_locations()
                    .filter_map(|l| cfa.error_of(l))
                    .collect();
                ids.sort();
                ids
            };
            // Every error once per copy of its body before (helper's assertion in 3 copies,
            // mid's requires check in 2), once after.
            assert!(errors(&cfa).len() > p.errors.len());
            assert!(cfa.assume_callee_assertions() > 0);
            let once: Vec<_> = (0..p.errors.len())
                .map(|i| crate::ir::ErrorId(i as u32))
                .collect();
            assert_eq!(errors(&cfa), once);
            let config = Config {
                execution: false,
                ..Config::default()
            };
            assert_eq!(run(&p, &config).verdict, expected, "{src}");
        }
    }

    #[test]
    fn variables_nothing_depends_on_are_unobserved() {
        let (p, _) = crate::cli::frontend(
            "var g, h: int; procedure main() modifies g, h; { var x, c, d: int; x := 0; c := 0; \
             while (x < 10) { x := x + 1; c := c + d; g := g + 1; h := x; } assert h <= 10; }",
        )
        .expect("parses");
        let names: BTreeSet<String> = unobserved_variables(&p, &Config::default())
            .into_iter()
            .map(|v| p.var(v).name.clone())
            .collect();
        let expected: BTreeSet<String> = ["c", "d", "g"].iter().map(|s| s.to_string()).collect();
        assert_eq!(names, expected);
    }

    /// A small deterministic pseudo-random generator (xorshift), for reproducible programs.
    struct Gen(u64);

    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn var(&mut self) -> &'static str {
            ["a", "b", "c"][self.next(3) as usize]
        }

        fn stmt(&mut self, depth: u32) -> String {
            let k = self.next(7) as i64 - 2;
            match self.next(if depth > 0 { 6 } else { 5 }) {
                0 => format!("{} := {} + {k};", self.var(), self.var()),
                1 => format!("{} := {} - {};", self.var(), self.var(), self.var()),
                2 => format!("{} := {k} * {};", self.var(), self.var()),
                3 => {
                    let (x, y) = (self.var(), self.var());
                    format!("if ({x} < {y}) {{ {x} := {x} + 1; }} else {{ {y} := {y} - {k}; }}")
                }
                4 => {
                    let (x, y) = (self.var(), self.var());
                    if self.next(2) == 0 {
                        format!("assert {x} <= {y} + {};", self.next(30))
                    } else {
                        format!("assert {x} != {k};")
                    }
                }
                _ => {
                    let body: Vec<String> = (0..2).map(|_| self.stmt(depth - 1)).collect();
                    format!(
                        "i := 0; while (i < {}) {{ {} i := i + 1; }}",
                        self.next(6),
                        body.join(" ")
                    )
                }
            }
        }
    }

    /// Safety by execution never contradicts the CEGAR loop: on random programs whose control
    /// flow depends on no input (so that the executor decides each), every program both decide
    /// gets the same verdict, SAFE as UNSAFE.
    #[test]
    fn execution_agrees_with_the_cegar_loop() {
        if crate::smt::z3_for_tests("execution against the CEGAR loop").is_none() {
            return;
        }
        let mut g = Gen(0x9e37_79b9_7f4a_7c15);
        let (mut both, mut unsafe_ones) = (0, 0);
        for _ in 0..40 {
            let init: Vec<String> = ["a", "b", "c"]
                .iter()
                .map(|x| format!("{x} := {};", g.next(9) as i64 - 4))
                .collect();
            let body: Vec<String> = (0..5).map(|_| g.stmt(1)).collect();
            let src = format!(
                "procedure main() {{ var a, b, c, i: int; {} {} assert a + b <= c + {}; }}",
                init.join(" "),
                body.join(" "),
                g.next(20)
            );
            let program = match crate::cli::frontend(&src) {
                Ok((p, _)) => p,
                Err(d) => panic!("rejected: {d:?}\n{src}"),
            };
            let config = Config {
                deadline: Some(Instant::now() + Duration::from_secs(10)),
                ..Config::default()
            };
            let executed = execution_attempt(&program, &config)
                .unwrap_or_else(|| panic!("a program without inputs is executed:\n{src}"));
            let proved = run_engines(&program, &config, Instant::now());
            if matches!(
                proved.verdict,
                super::super::Verdict::Safe | super::super::Verdict::Unsafe
            ) {
                assert_eq!(executed.verdict, proved.verdict, "{src}");
                both += 1;
                unsafe_ones += usize::from(proved.verdict == super::super::Verdict::Unsafe);
            }
        }
        // Both kinds of answers were compared, and most programs.
        assert!(
            both >= 30 && unsafe_ones >= 5 && both - unsafe_ones >= 5,
            "{both} compared, {unsafe_ones} unsafe"
        );
    }

    /// A violation that no witness with inputs 0 shows (index 0 and every initial cell look
    /// alike there) is found by the witness with inputs 1 of the same attempt; a safe program
    /// whose witnesses all end gets no answer from them.
    #[test]
    fn witness_executions_try_several_input_values() {
        let run = |src: &str| {
            let program = match crate::cli::frontend(src) {
                Ok((p, _)) => p,
                Err(d) => panic!("rejected: {d:?}\n{src}"),
            };
            let config = Config {
                deadline: Some(Instant::now() + Duration::from_secs(10)),
                ..Config::default()
            };
            execution_attempt(&program, &config)
        };
        let unsafe_one = run(
            "procedure main() { var x: int; var a: [int]int; a[x] := 0; \
             while (a[x] < 100) { a[x] := a[x] + 1; } \
             if (a[0] == 1) { assert a[x] != 100; } }",
        )
        .expect("a witness fails the assertion");
        assert_eq!(unsafe_one.verdict, super::super::Verdict::Unsafe);
        assert!(
            run(
                "procedure main() { var x: int; var a: [int]int; a[x] := 0; \
             while (a[x] < 100) { a[x] := a[x] + 1; } assert a[x] == 100; }"
            )
            .is_none()
        );
    }

    /// An interpolator that fails every sequence slowly (as quantifier elimination that runs
    /// into its limit does).
    struct SlowFailure;

    impl Interpolator for SlowFailure {
        fn interpolants(
            &mut self,
            _: &tracecheck::SsaTrace,
            _: Option<&BTreeSet<(usize, usize)>>,
            _: Settings,
            _: &mut Stats,
        ) -> Result<Vec<Term>, String> {
            std::thread::sleep(Duration::from_millis(300));
            Err("slow failure".into())
        }

        fn project_exists(
            &mut self,
            _: Vec<crate::smt::Var>,
            _: Term,
            _: &mut Stats,
        ) -> Result<Term, String> {
            Err("slow failure".into())
        }
    }

    /// Runs the loop on `enc` with the [`SlowFailure`] interpolator and z3 sessions.
    fn run_with<'a, 'p>(
        voc: &'a Vocabulary<'p>,
        c: &'a Cfa,
        enc: &'a Encoded,
        config: &'a Config,
        deep: Option<&'a RefCell<super::super::bmc::Unroller<'a, 'p>>>,
    ) -> Outcome {
        run_with_interpolator(voc, c, enc, config, deep, &mut SlowFailure)
    }

    /// Runs the loop on `enc` with `interpolator` and z3 sessions.
    fn run_with_interpolator<'a, 'p>(
        voc: &'a Vocabulary<'p>,
        c: &'a Cfa,
        enc: &'a Encoded,
        config: &'a Config,
        deep: Option<&'a RefCell<super::super::bmc::Unroller<'a, 'p>>>,
        interpolator: &mut dyn Interpolator,
    ) -> Outcome {
        let open = |cores| Session::new(session_config(config, SolverKind::Z3, cores));
        let mut fh = FloydHoare::new(voc, enc, HoareChecker::new(open(false).expect("z3")));
        let mut trace_session = open(true).expect("z3");
        let mut checker = SmtTraceChecker {
            session: &mut trace_session,
            cores: true,
        };
        let mut sessions = Sessions {
            trace: &mut checker,
            interpolator,
        };
        let mut stats = Stats::default();
        match Cegar::new(voc, c, enc, config).with_deep_search(deep).run(
            &mut fh,
            &mut sessions,
            &mut stats,
        ) {
            LoopEnd::Done(o) => *o,
            _ => panic!("the loop does not end on divergence here"),
        }
    }

    /// A refinement that fails slowly gives the deep search its turns between its sequences:
    /// the shallow error (six loop iterations) is found in the first iteration's refinement,
    /// where without a deep search the loop gives up on interpolation.
    #[test]
    fn the_deep_search_overtakes_a_slow_refinement() {
        if crate::smt::z3_for_tests("the deep search during a refinement").is_none() {
            return;
        }
        let p = crate::ir::test_program(
            "procedure ULTIMATE.start() {
               var x, d: int;
               x := 0;
               while (true) { havoc d; assume d == 1 || d == 2; x := x + d; assert x < 11; }
             }",
        );
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let enc = blocks::encode(&c, &voc, super::super::BlockEncoding::Large).expect("encoding");
        let config = Config::default();
        let alone = run_with(&voc, &c, &enc, &config, None);
        assert_eq!(alone.verdict, super::super::Verdict::Unknown);
        assert!(
            matches!(alone.unknown, Some(UnknownReason::Interpolation(_))),
            "{:?}",
            alone.reason
        );
        let deep = RefCell::new(super::super::bmc::Unroller::new(&voc, &c, &enc, &config));
        let shared = run_with(&voc, &c, &enc, &config, Some(&deep));
        assert_eq!(
            shared.verdict,
            super::super::Verdict::Unsafe,
            "{:?}",
            shared.reason
        );
        assert_eq!(shared.stats.iterations, 1);
        assert!(shared.stats.bmc_runs >= 1);
    }

    /// An interpolator whose forward sequences fail because a quantifier elimination ran out of
    /// its limit, and whose backward ones fail plainly; it records the directions of the
    /// portfolio's sequences (live projection, not exact).
    #[derive(Default)]
    struct ForwardExpires {
        expired: usize,
        asked: Vec<Direction>,
    }

    impl Interpolator for ForwardExpires {
        fn interpolants(
            &mut self,
            _: &tracecheck::SsaTrace,
            _: Option<&BTreeSet<(usize, usize)>>,
            settings: Settings,
            _: &mut Stats,
        ) -> Result<Vec<Term>, String> {
            if settings.live && !settings.exact {
                self.asked.push(settings.direction);
            }
            if settings.direction == Direction::Forward {
                self.expired += 1;
                return Err("quantifier elimination: timeout".into());
            }
            Err("no sequence".into())
        }

        fn project_exists(
            &mut self,
            _: Vec<crate::smt::Var>,
            _: Term,
            _: &mut Stats,
        ) -> Result<Term, String> {
            Err("no projection".into())
        }

        fn expired_eliminations(&self) -> usize {
            self.expired
        }
    }

    /// A direction whose sequence ran out of time in quantifier elimination is not asked again in
    /// the same refinement: of the portfolio's four sequences (forward and backward, each with and
    /// without the unsat core), the second forward one is skipped.
    #[test]
    fn a_refinement_skips_a_direction_whose_elimination_ran_out() {
        if crate::smt::z3_for_tests("a refinement whose elimination ran out").is_none() {
            return;
        }
        let p = crate::ir::test_program(
            "procedure ULTIMATE.start() { var x: int; x := 0; while (*) { x := x + 1; } assert x >= 0; }",
        );
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let enc = blocks::encode(&c, &voc, super::super::BlockEncoding::Large).expect("encoding");
        let config = Config::default();
        let mut interpolator = ForwardExpires::default();
        let o = run_with_interpolator(&voc, &c, &enc, &config, None, &mut interpolator);
        assert!(
            matches!(o.unknown, Some(UnknownReason::Interpolation(_))),
            "{:?}",
            o.reason
        );
        assert_eq!(o.stats.iterations, 1);
        assert_eq!(
            interpolator.asked,
            [Direction::Forward, Direction::Backward, Direction::Backward]
        );
    }
}
