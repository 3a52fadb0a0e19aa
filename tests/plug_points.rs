//! The CEGAR loop's plug points (`TraceChecker`, `Interpolator`): the loop runs with implementations
//! other than the built-in ones, calls them as documented, and stays sound when one of them is wrong —
//! an interpolator that returns invalid predicates costs progress, never a SAFE.

mod common;

use lapidary::engine::blocks;
use lapidary::engine::cegar::{Cegar, LoopEnd, Sessions};
use lapidary::engine::cfa;
use lapidary::engine::floyd_hoare::FloydHoare;
use lapidary::engine::hoare::HoareChecker;
use lapidary::engine::interpolate::{Direction, Interpolator, PostImages, Settings};
use lapidary::engine::tracecheck::{Feasibility, SmtTraceChecker, SsaTrace, TraceChecker};
use lapidary::engine::transition::Vocabulary;
use lapidary::engine::{BlockEncoding, Config, Stats, Verdict};
use lapidary::ir;
use lapidary::smt::{Session, SolverConfig, SolverKind, Term, Var};
use lapidary::syntax::parse;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check_inline(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

/// A loop whose proof needs an interpolant at the loop head (`i <= n`).
const COUNTER: &str = "
procedure main() {
  var i, n: int;
  assume n >= 0;
  i := 0;
  while (i < n) { i := i + 1; }
  assert i == n;
}";

fn session(cores: bool) -> Option<Session> {
    let mut c = SolverConfig::new(SolverKind::Z3);
    c.produce_cores = cores;
    c.produce_models = true;
    c.query_timeout = Duration::from_secs(10);
    match Session::new(c) {
        Ok(s) => Some(s),
        Err(_) => {
            common::solver_missing("z3");
            None
        }
    }
}

/// Counts the calls and passes them on.
struct CountingChecker<'s> {
    inner: SmtTraceChecker<'s>,
    calls: usize,
}

impl TraceChecker for CountingChecker<'_> {
    fn check(&mut self, trace: &SsaTrace) -> Feasibility {
        self.calls += 1;
        self.inner.check(trace)
    }
}

/// Passes the calls on, or (when `lie`) answers every sequence with `true … true, false`: invalid
/// for any trace whose proof needs a non-trivial predicate.
struct Wrapped<'a> {
    inner: &'a mut dyn Interpolator,
    lie: bool,
    calls: usize,
}

impl Interpolator for Wrapped<'_> {
    fn interpolants(
        &mut self,
        trace: &SsaTrace,
        core: Option<&BTreeSet<(usize, usize)>>,
        settings: Settings,
        stats: &mut Stats,
    ) -> Result<Vec<Term>, String> {
        self.calls += 1;
        if self.lie {
            let n = trace.conjuncts.len();
            let mut seq = vec![Term::tt(); n + 1];
            seq[n] = Term::ff();
            return Ok(seq);
        }
        self.inner.interpolants(trace, core, settings, stats)
    }

    fn project_exists(
        &mut self,
        vars: Vec<Var>,
        body: Term,
        stats: &mut Stats,
    ) -> Result<Term, String> {
        self.inner.project_exists(vars, body, stats)
    }
}

/// Runs one CEGAR loop on `src` with the given interpolator behaviour; (verdict, trace checks,
/// interpolator calls, iterations).
fn run(src: &str, lie: bool) -> Option<(Verdict, usize, usize, usize)> {
    let p = program(src);
    let voc = Vocabulary::new(&p);
    let config = Config {
        invariants: false,
        deadline: Some(Instant::now() + Duration::from_secs(30)),
        ..Config::default()
    };
    let cfa = cfa::build_with(&voc, config.max_locations, 1).expect("cfa");
    let enc = blocks::encode(&cfa, &voc, BlockEncoding::Large).expect("encoding");
    let (mut trace_session, mut qe_session) = (session(true)?, session(false)?);
    let mut fh = FloydHoare::new(&voc, &enc, HoareChecker::new(session(false)?));
    let mut checker = CountingChecker {
        inner: SmtTraceChecker {
            session: &mut trace_session,
            cores: true,
        },
        calls: 0,
    };
    let mut images = PostImages {
        voc: &voc,
        qe: &mut qe_session,
    };
    let mut wrapped = Wrapped {
        inner: &mut images,
        lie,
        calls: 0,
    };
    let mut stats = Stats::default();
    let end = {
        let mut sessions = Sessions {
            trace: &mut checker,
            interpolator: &mut wrapped,
        };
        Cegar::new(&voc, &cfa, &enc, &config).run(&mut fh, &mut sessions, &mut stats)
    };
    let LoopEnd::Done(outcome) = end else {
        panic!("the loop was not asked to stop on divergence");
    };
    Some((
        outcome.verdict,
        checker.calls,
        wrapped.calls,
        stats.iterations,
    ))
}

#[test]
fn the_loop_calls_its_plug_points() {
    let Some((verdict, checks, sequences, iterations)) = run(COUNTER, false) else {
        return;
    };
    assert_eq!(verdict, Verdict::Safe);
    // Every iteration but the last (whose emptiness check succeeds) checks one trace.
    assert_eq!(checks + 1, iterations, "one trace check per refuted trace");
    assert!(
        sequences >= checks,
        "at least one sequence per infeasible trace"
    );
}

#[test]
fn a_lying_interpolator_never_yields_safe() {
    let Some((verdict, checks, sequences, _)) = run(COUNTER, true) else {
        return;
    };
    assert_ne!(
        verdict,
        Verdict::Safe,
        "invalid predicates must not prove anything"
    );
    assert_eq!(verdict, Verdict::Unknown);
    assert!(checks >= 1 && sequences >= 1);
}

/// A sequence given an instant that has passed (`Settings::until`: another member's proof is due)
/// gives up before its first projection; the same sequence without one is computed.
#[test]
fn a_sequence_past_its_instant_gives_up() {
    let p = program(
        "
procedure main() {
  var x, y: int;
  x := 0;
  y := x + 1;
  assert y == 1;
}",
    );
    let voc = Vocabulary::new(&p);
    let cfa = cfa::build_with(&voc, Config::default().max_locations, 1).expect("cfa");
    let enc = blocks::encode(&cfa, &voc, BlockEncoding::None).expect("encoding");
    // The error trace: from the initial location to an error location, one letter at a time.
    let mut path = Vec::new();
    let mut at = enc.init;
    while cfa.error_of(at).is_none() {
        let next = enc.out[at]
            .iter()
            .map(|a| &enc.letters[*a])
            .find(|l| path.len() < 10 && l.tgt != at)
            .expect("a letter towards the error");
        path.push(&next.tf);
        at = next.tgt;
    }
    let ssa = lapidary::engine::tracecheck::ssa(&voc, &path);
    let (Some(mut qe), Some(mut check)) = (session(false), session(false)) else {
        return;
    };
    let mut images = PostImages {
        voc: &voc,
        qe: &mut qe,
    };
    let mut stats = Stats::default();
    for direction in [Direction::Forward, Direction::Backward] {
        let settings = |until| Settings {
            direction,
            live: true,
            exact: false,
            until,
        };
        let past = Instant::now() - Duration::from_millis(1);
        let given_up = images.interpolants(&ssa, None, settings(Some(past)), &mut stats);
        assert!(
            given_up.is_err_and(|e| e.contains("interrupted")),
            "{direction:?}"
        );
        let later = Instant::now() + Duration::from_secs(60);
        for until in [None, Some(later)] {
            let mut seq = images
                .interpolants(&ssa, None, settings(until), &mut stats)
                .expect("a sequence");
            assert_eq!(seq.len(), path.len() + 1);
            lapidary::engine::interpolate::close_ends(&mut seq, &mut check).expect("true … false");
        }
    }
}
