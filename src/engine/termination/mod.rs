//! Termination: does every execution of the program terminate?
//!
//! Semantics (docs/IR.md §termination): an execution starts at the entry — `ULTIMATE.start`, or in
//! library mode each procedure with a body, from a state where parameters, globals and constants are
//! unconstrained except by the `requires` and axioms — and runs until the entry procedure returns. An
//! execution that blocks (`assume false`) is finite. TERMINATING: every execution is finite;
//! NONTERMINATING: some execution is infinite; otherwise UNKNOWN with a reason.
//!
//! Techniques, tried in order (each sound on its own; the first definite answer wins):
//! 1. [`execute`] in symbolic mode — explicit-state execution with unconstrained values as ⊤; decides
//!    programs whose control flow does not depend on them (TERMINATING or NONTERMINATING); it gets
//!    a quarter of the time, at most 0.5 s, first (a counter that grows forever never repeats a
//!    state) and, when that was too little, the time left after 4;
//! 2. fixpoint lassos of [`ranking`] (a reachable state that a cycle maps to itself:
//!    NONTERMINATING) with a fifth of the time left — cheap, and a loop that maps a state to itself
//!    should not wait for every ranking template; then [`ranking`] — linear lexicographic ranking
//!    functions over the SCCs of the block-encoded CFA with supporting invariants, re-checked in a
//!    fresh solver session (TERMINATING); it gets most of the time left (the vocabulary, CFA and
//!    large-block encoding are built once for 2 and 3, first: [`ranking::Shared`]; for a
//!    recursive program the CFA is the [`descent`] program, whose return edges are
//!    over-approximations that no nontermination argument rests on);
//! 3. [`gnta`] — geometric nontermination arguments for lassos (stem and cycle of the block-encoded
//!    CFA) with guessed eigenvalues, re-validated in a fresh solver session (NONTERMINATING); when
//!    step 2 found a loop body with too many paths for one letter, then the fixpoint lassos of
//!    [`ranking`] (unless step 2 searched them in full) and [`ranking`] again on the sequential
//!    encoding (letters are single paths, ranking functions per location);
//! 4. [`buchi`] — Büchi trace abstraction on the sequential encoding: lassos ranked one at a time
//!    and refined by rank certificates (NCSB), infeasible ones by Floyd–Hoare automata, each lasso
//!    also checked for a fixpoint and a geometric argument; it decides loops whose paths need
//!    different ranking functions; [`BUCHI_SHARE`] of the time left;
//! 5. [`execute`] in witness mode — unconstrained numbers fixed to 0, then 1, -1, 100, -100 (each
//!    attempt one particular execution); NONTERMINATING only.
//!
//! `Config::termination_techniques` (`--termination-techniques`) can leave techniques out, for
//! ablations: executor covers 1 and 5, ranking covers 2 and the fixpoint lassos, gnta 3, buchi 4.
//!
//! The outcome's statistics ([`TerminationStats`]) say which technique decided and what each did.

pub mod buchi;
pub mod cells;
pub mod descent;
pub mod execute;
pub mod gnta;
pub mod linear;
pub mod ranking;
pub mod recurrence;
pub mod value;

use crate::engine::stats::TerminationStats;
use crate::engine::{
    BlockEncoding, Config, Counterexample, Outcome, Stats, TerminationTechnique as T,
    UnknownReason, Verdict,
};
use crate::ir::Program;
use execute::{ExecResult, Lasso, Limits, Mode};

/// Decides termination of `program`; the outcome's statistics say what each technique did.
pub fn run(program: &Program, config: &Config) -> Outcome {
    let start = std::time::Instant::now();
    let mut work = TerminationStats::default();
    let (mut outcome, by) = decide(program, config, &mut work);
    work.decided_by = by.into();
    outcome.stats.total_time = start.elapsed();
    outcome.stats.termination = Some(work);
    outcome
}

/// The techniques in order (module comment); the outcome and the technique that decided (empty
/// when none did).
fn decide(
    program: &Program,
    config: &Config,
    work: &mut TerminationStats,
) -> (Outcome, &'static str) {
    let limits = Limits {
        max_steps: config.max_exec_steps,
        ..Limits::default()
    };
    // The executor decides quickly or not at all (an unbounded counter never repeats a state):
    // a first run gets a share of the time, and runs on with what is left at the end.
    let mut first = config.clone();
    let cap = std::time::Instant::now() + EXECUTOR_FIRST;
    first.deadline = Some(share(config, EXECUTOR_SHARE).map_or(cap, |d| d.min(cap)));
    let mut lap = Lap(std::time::Instant::now());
    let (reason, dependent) = if config.uses(T::Executor) {
        work.executor_runs += 1;
        let result = execute::run(program, &first, &limits, Mode::Symbolic);
        lap.end(work, "executor");
        match result {
            ExecResult::Terminating { steps, blocked } => {
                return (terminating(program, steps, blocked), "executor");
            }
            ExecResult::Nonterminating(lasso) => return (nonterminating(lasso, None), "executor"),
            ExecResult::Unknown {
                reason, dependent, ..
            } => (reason, dependent),
            // (Safety answers only.)
            ExecResult::Safe { .. } | ExecResult::Violated(_) => (
                "internal: a safety answer of the executor".to_string(),
                false,
            ),
        }
    } else {
        ("the executor was not used".to_string(), false)
    };
    let cut = config.uses(T::Executor) && first.timed_out() && !config.timed_out();
    let prep = ranking::Shared::new(program, config);
    if (config.uses(T::Ranking) || config.uses(T::Gnta))
        && prep.cfa().is_ok_and(|c| !c.is_concurrent())
    {
        // Built once for the fixpoint search, the ranking prover and GNTA; timed on its own (on
        // a large program it takes seconds, which the first technique's share must not pay).
        let _ = prep.large();
        lap.end(work, "large-block encoding");
    }
    // Fixpoint lassos first, with a share of the time left: cheap, and a program whose loop maps a
    // state to itself should not wait for the ranking templates or the eigenvalue guesses.
    let mut fixpoint_tried = false;
    if config.uses(T::Ranking) && !config.timed_out() {
        let deadline = share(config, FIXPOINT_FIRST_SHARE);
        let found = ranking::fixpoint_lasso(&prep, config, deadline);
        lap.end(work, "fixpoint");
        if let Some(why) = found {
            return (refuted(why), "fixpoint");
        }
        fixpoint_tried = deadline.is_none_or(|d| std::time::Instant::now() < d);
    }
    // The ranking prover gets 60 % of the time left, on large blocks.
    let (mut not_ranked, finer) = if config.uses(T::Ranking) {
        let deadline = share(config, 0.6);
        let large = BlockEncoding::Large;
        work.ranking_runs += 1;
        let answer = ranking::prove_with(&prep, config, deadline, large, &mut work.ranking_queries);
        lap.end(work, "ranking (large blocks)");
        match answer {
            (ranking::Answer::Terminating(why), _) => return (proved(why), "ranking"),
            (ranking::Answer::Nonterminating(why), _) => return (refuted(why), "ranking"),
            (ranking::Answer::Unknown(why), finer) => (why, finer),
        }
    } else {
        ("the ranking prover was not used".to_string(), false)
    };
    // Geometric nontermination arguments get half of the time left.
    if config.uses(T::Gnta) {
        let deadline = share(config, 0.5);
        let found = gnta::prove(&prep, config, deadline);
        lap.end(work, "gnta");
        if let Some(why) = found {
            return (refuted(why), "gnta");
        }
    }
    if finer && !config.timed_out() {
        // Some loop body has too many paths for one letter: first the cheap fixpoint
        // lassos (unless they were searched in full), then the ranking prover again on the
        // sequential encoding (single paths, functions per location) with 60 % of the time left.
        if !fixpoint_tried {
            fixpoint_tried = true;
            let found = ranking::fixpoint_lasso(&prep, config, config.deadline);
            lap.end(work, "fixpoint");
            if let Some(why) = found {
                return (refuted(why), "fixpoint");
            }
        }
        let deadline = share(config, 0.6);
        work.ranking_runs += 1;
        let seq = BlockEncoding::Seq;
        let answer = ranking::prove_with(&prep, config, deadline, seq, &mut work.ranking_queries);
        lap.end(work, "ranking (single paths)");
        match answer.0 {
            ranking::Answer::Terminating(why) => return (proved(why), "ranking"),
            ranking::Answer::Nonterminating(why) => return (refuted(why), "ranking"),
            ranking::Answer::Unknown(why) => not_ranked = why,
        }
    }
    if config.uses(T::Buchi) && !config.timed_out() {
        let decided = buchi_step(program, config, work, &mut not_ranked);
        lap.end(work, "buchi");
        if let Some(decided) = decided {
            return decided;
        }
    }
    if cut && !config.timed_out() {
        work.executor_runs += 1;
        let result = execute::run(program, config, &limits, Mode::Symbolic);
        lap.end(work, "executor");
        match result {
            ExecResult::Terminating { steps, blocked } => {
                return (terminating(program, steps, blocked), "executor");
            }
            ExecResult::Nonterminating(lasso) => {
                return (nonterminating(lasso, None), "executor");
            }
            ExecResult::Unknown { .. } | ExecResult::Safe { .. } | ExecResult::Violated(_) => {}
        }
    }
    if dependent {
        // Each attempt fixes the inputs to one value and gets an equal share of the time left.
        for (i, &k) in WITNESS_VALUES.iter().enumerate() {
            if config.timed_out() {
                break;
            }
            let mut attempt = config.clone();
            if let Some(d) = config.deadline {
                let left = d.saturating_duration_since(std::time::Instant::now());
                let share = left / (WITNESS_VALUES.len() - i) as u32;
                attempt.deadline = Some(std::time::Instant::now() + share);
            }
            work.executor_runs += 1;
            let result = execute::run(program, &attempt, &limits, Mode::Witness(k));
            lap.end(work, "witness");
            if let ExecResult::Nonterminating(lasso) = result {
                return (nonterminating(lasso, Some(k)), "witness");
            }
        }
    }
    // Last, a fixpoint lasso (after the witness mode, whose lassos show their steps).
    if config.uses(T::Ranking) && !config.timed_out() && !fixpoint_tried {
        let found = ranking::fixpoint_lasso(&prep, config, config.deadline);
        lap.end(work, "fixpoint");
        if let Some(why) = found {
            return (refuted(why), "fixpoint");
        }
    }
    let why = UnknownReason::Termination(format!("{reason}; no ranking proof: {not_ranked}"));
    (Outcome::unknown(why, Stats::default()), "")
}

/// The start of the technique running now, whose time [`Lap::end`] charges to it.
struct Lap(std::time::Instant);

impl Lap {
    /// Adds the time since the last lap to `technique` in `work.phases` (summing repeated runs).
    fn end(&mut self, work: &mut TerminationStats, technique: &'static str) {
        let now = std::time::Instant::now();
        let spent = now.saturating_duration_since(self.0);
        self.0 = now;
        match work.phases.iter_mut().find(|(t, _)| *t == technique) {
            Some((_, d)) => *d += spent,
            None => work.phases.push((technique, spent)),
        }
    }
}

/// Büchi trace abstraction with [`BUCHI_SHARE`] of the time left: lassos ranked one at a time,
/// refined by their rank certificates; the outcome if it decided (else its reason joins
/// `not_ranked`).
fn buchi_step(
    program: &Program,
    config: &Config,
    work: &mut TerminationStats,
    not_ranked: &mut String,
) -> Option<(Outcome, &'static str)> {
    let deadline = share(config, BUCHI_SHARE);
    let mut loop_work = buchi::Work::default();
    let answer = buchi::prove(
        program,
        config,
        deadline,
        BlockEncoding::Seq,
        &mut loop_work,
    );
    loop_work.record(work);
    match answer {
        ranking::Answer::Terminating(why) => Some((proved(why), "buchi")),
        ranking::Answer::Nonterminating(why) => Some((refuted(why), "buchi")),
        ranking::Answer::Unknown(why) => {
            not_ranked.push_str("; ");
            not_ranked.push_str(&why);
            None
        }
    }
}

fn terminating(program: &Program, steps: u64, blocked: bool) -> Outcome {
    let library = matches!(&program.entry, crate::ir::Entry::Library(ps) if ps.len() > 1);
    let mut reason = if library {
        format!(
            "from each entry procedure, every execution follows one path of at most {steps} steps"
        )
    } else {
        format!("every execution follows one path of {steps} steps")
    };
    if blocked {
        reason.push_str(" (a path may end in a blocking assume)");
    }
    proved(reason)
}

fn proved(reason: String) -> Outcome {
    Outcome {
        verdict: Verdict::Terminating,
        reason: Some(reason),
        unknown: None,
        counterexample: None,
        proof: Vec::new(),
        stats: Stats::default(),
    }
}

fn refuted(reason: String) -> Outcome {
    Outcome {
        verdict: Verdict::Nonterminating,
        reason: Some(reason),
        unknown: None,
        counterexample: None,
        proof: Vec::new(),
        stats: Stats::default(),
    }
}

/// The share of the time the first run of the executor gets, and its cap: every executor verdict
/// of T4 comes within 15 ms (270 files), and a program whose values grow without bound (a
/// Brainfuck cell counting up) spent the whole cap before the techniques that decide it (44 T4
/// files were 1.5 s slower). A longer run still gets the time left at the end.
const EXECUTOR_SHARE: f64 = 0.25;
const EXECUTOR_FIRST: std::time::Duration = std::time::Duration::from_millis(500);

/// The share of the time left for the first search for fixpoint lassos (before the ranking
/// prover; on T4, before it rather than after decides the same files, the nonterminating ones
/// sooner: `pgarch.t2.c` 6.5 -> 0.7 s on the bench, BENCHMARKS.md).
const FIXPOINT_FIRST_SHARE: f64 = 0.2;

/// A deadline `fraction` of the time left from now (none without a deadline).
fn share(config: &Config, fraction: f64) -> Option<std::time::Instant> {
    config.deadline.map(|d| {
        let left = d.saturating_duration_since(std::time::Instant::now());
        std::time::Instant::now() + left.mul_f64(fraction)
    })
}

/// The share of the time left that the Büchi loop gets (after the ranking prover and GNTA: on
/// T4's Boogie lassos 0.7 there and 0.4 before GNTA decide the same files; 0.6 after GNTA, before
/// solver waits were bounded by the technique's deadline, overran the timeout on two).
const BUCHI_SHARE: f64 = 0.7;

/// The values the witness mode tries for unconstrained numbers, in order.
const WITNESS_VALUES: [i64; 5] = [0, 1, -1, 100, -100];

fn nonterminating(l: Lasso, witness: Option<i64>) -> Outcome {
    let inputs = match witness {
        Some(k) => format!(" ({})", execute::fixed_inputs(k)),
        None => String::new(),
    };
    let reason = format!(
        "a state repeats{inputs}: from {}, a stem of {} steps, then a loop of {} steps in procedure {}",
        l.entry, l.stem, l.loop_len, l.procedure
    );
    let property = format!(
        "nontermination: this state recurs every {} steps (after a stem of {} steps)",
        l.loop_len, l.stem
    );
    let counterexample = l.span.map(|span| Counterexample {
        check: None,
        property,
        error_span: span,
        steps: l.steps,
        omitted: None,
    });
    Outcome {
        verdict: Verdict::Nonterminating,
        reason: Some(reason),
        unknown: None,
        counterexample,
        proof: Vec::new(),
        stats: Stats::default(),
    }
}

/// Cone-of-influence slicing of a termination technique's CFA ([`crate::engine::slice`]; when
/// `config.slice`): a counter that nothing reads is no part of a ranking function or a
/// nontermination argument. Exact for infinite executions too, since the slice's extension of a
/// run to the original works step by step.
fn slice_cfa(
    cfa: &mut crate::engine::cfa::Cfa,
    voc: &crate::engine::transition::Vocabulary,
    config: &Config,
) {
    if config.slice {
        crate::engine::slice::slice(cfa, voc);
    }
}

/// A program parsed and checked for the termination property (unit tests of the techniques).
#[cfg(test)]
fn test_program(src: &str) -> (Program, Config) {
    let (ast, diags) = crate::syntax::parse(src);
    let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
    let (program, diags) = crate::ir::check(&ast);
    let program = program.unwrap_or_else(|| panic!("{diags:?}"));
    let config = Config {
        property: crate::engine::Property::Termination,
        ..Config::default()
    };
    (program, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether z3 runs; under CI its absence fails the test instead.
    fn have_z3() -> bool {
        crate::smt::z3_for_tests("termination techniques").is_some()
    }

    /// A counter that no guard reads is sliced away before the termination techniques: with it,
    /// the geometric argument of the first loop (eigenvalues 5/2 and 3) finds none, and the
    /// second loop's ranking function would sit beside a nonlinear update.
    #[test]
    fn counters_nothing_reads_are_sliced_away() {
        if !have_z3() {
            return;
        }
        for (src, expected) in [
            (
                "procedure main() returns (x, y: real) { var c: int;
                 while (x + y >= 1.0 && x + 1.0 <= 0.0) { c := c + 1; x := 2.5 * x; y := 3.0 * y; } }",
                Verdict::Nonterminating,
            ),
            (
                "procedure main() { var x, c: int; havoc x;
                 while (x > 0) { x := x - 1; c := c * c + 1; } }",
                Verdict::Terminating,
            ),
        ] {
            let (program, mut config) = test_program(src);
            config.deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(30));
            let outcome = run(&program, &config);
            assert_eq!(outcome.verdict, expected, "{src}: {:?}", outcome.reason);
        }
    }

    /// A loop whose guard depends on an input leaves the executor undecided; the loop maps every
    /// state to itself, so the fixpoint search decides — before the ranking prover, its time and
    /// the encoding's charged to each in order.
    #[test]
    fn the_fixpoint_search_comes_before_the_ranking_prover() {
        if !have_z3() {
            return;
        }
        let src = "procedure main() { var x: int; havoc x; while (x > 0) { x := x; } }";
        let (program, mut config) = test_program(src);
        config.deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(30));
        let outcome = run(&program, &config);
        assert!(
            matches!(outcome.verdict, Verdict::Nonterminating),
            "{:?}",
            outcome.verdict
        );
        let work = outcome.stats.termination.expect("termination statistics");
        assert_eq!(work.decided_by, "fixpoint");
        let names: Vec<&str> = work.phases.iter().map(|(t, _)| *t).collect();
        assert_eq!(names, ["executor", "large-block encoding", "fixpoint"]);
        let spent: std::time::Duration = work.phases.iter().map(|(_, d)| *d).sum();
        assert!(
            spent <= outcome.stats.total_time,
            "{spent:?} > {:?}",
            outcome.stats.total_time
        );
    }
}
