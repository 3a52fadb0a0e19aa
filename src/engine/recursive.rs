//! Trace abstraction for recursive programs over nested words (Heizmann, Hoenicke, Podelski:
//! "Nested interpolants", POPL 2010; design notes §3, Ultimate's `NestedWordAutomaton` CEGAR).
//!
//! The program's recursive procedures are kept as call and return letters ([`cfa::build_nested`]).
//! The abstraction is the product of the program's nested word automaton (states: locations) with
//! the Floyd–Hoare automaton (states: predicate sets), on demand: internal and call letters take
//! the Floyd–Hoare successor of [`FloydHoare`] (a call is a Hoare triple from the caller's state to
//! the callee's entry), a return letter the *return* successor, which depends on the current state
//! (the callee's exit) and the hierarchical predecessor (the caller's state before the call,
//! [`FloydHoare::return_successor`]). A return is taken only from the caller's location of its
//! call (its source has no other edge). Emptiness with summaries over double deckers
//! ([`automata::nested_accepting_run`]).
//!
//! ```text
//! loop:
//!   τ = accepting nested run of CFA × FH (states whose FH part is false are traps) — none: SAFE
//!   nested SSA of τ (a return restores the caller's frame) — feasible: re-validate → UNSAFE
//!   infeasible → forward nested interpolants (unsat-core relaxed, then plain) at τ's locations;
//!                failing that, backward ones (a trace without calls or returns), unprojected, exact
//!   progress: FH must now reject τ (replayed with a stack), else UNKNOWN
//! ```
//!
//! Invariant: every transition of the Floyd–Hoare automaton is a valid Hoare triple of its kind
//! (internal, call, return with the caller's predicate), so the product keeps every feasible error
//! trace of the program: an empty product proves it SAFE. A return triple is exact only for frame
//! variables no edge but a call writes ([`FloydHoare::with_fixed`]); every other variable gets a
//! fresh value over the callee, so the triple over-approximates what the callee does.

use super::blocks::Encoded;
use super::cegar::Sessions;
use super::cfa::{Cfa, EdgeKind, LocId};
use super::floyd_hoare::{FloydHoare, Interrupted};
use super::interpolate::{self, Direction, Settings};
use super::predicates::{FALSE_STATE, StateId, TRUE_STATE};
use super::tracecheck::{self, Feasibility};
use super::transition::{PVar, TransFormula, Vocabulary};
use super::{Config, Outcome, Stats, UnknownReason, counterexample};
use crate::automata::{self, Budget, ExploreError, NestedLetter, NestedWordAutomaton};
use crate::smt::{Session, Term};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// The frame variables no edge writes except call edges: the parameters and `old` values of the
/// recursive procedures keep their values over a callee's frame.
pub fn fixed_variables(cfa: &Cfa) -> BTreeSet<PVar> {
    let mut written = BTreeSet::new();
    let mut all = BTreeSet::new();
    for e in &cfa.edges {
        all.extend(e.tf.writes.iter().copied());
        all.extend(e.tf.reads.iter().copied());
        if e.kind != EdgeKind::Call {
            written.extend(e.tf.writes.iter().copied());
        }
    }
    all.difference(&written).copied().collect()
}

/// The product of the nested program automaton with the Floyd–Hoare automaton.
struct Product<'a, 'b, 'v, 'p> {
    cfa: &'a Cfa,
    enc: &'a Encoded,
    fh: RefCell<&'b mut FloydHoare<'v, 'p>>,
    /// The letter of each call edge.
    call_letter: &'a HashMap<usize, usize>,
    /// Every transition asked for, with `false` successors (the certificate of an empty search).
    log: RefCell<Vec<Transition>>,
}

/// A transition of the product's Floyd–Hoare part: `(state, hierarchical predecessor for a
/// return, letter, successor)`.
type Transition = (StateId, Option<(StateId, usize)>, usize, StateId);

type State = (LocId, StateId);

impl Product<'_, '_, '_, '_> {
    fn successors_of(
        &self,
        s: &State,
        want: impl Fn(EdgeKind) -> bool,
    ) -> Result<Vec<(usize, State)>, Interrupted> {
        use crate::automata::DeterministicAutomaton;
        let mut out = Vec::new();
        for &a in &self.enc.out[s.0] {
            let letter = &self.enc.letters[a];
            if !want(letter.kind) {
                continue;
            }
            let t = self.fh.borrow_mut().successor(&s.1, &a)?;
            self.log.borrow_mut().push((s.1, None, a, t));
            if t != FALSE_STATE {
                out.push((a, (letter.tgt, t)));
            }
        }
        Ok(out)
    }
}

impl NestedWordAutomaton for Product<'_, '_, '_, '_> {
    type State = State;
    type Letter = usize;
    type Error = Interrupted;

    fn initial_states(&self) -> Vec<State> {
        vec![(self.enc.init, TRUE_STATE)]
    }

    fn is_accepting(&self, s: &State) -> bool {
        self.cfa.error_of(s.0).is_some() && s.1 != FALSE_STATE
    }

    fn internal_successors(&self, s: &State) -> Result<Vec<(usize, State)>, Interrupted> {
        self.successors_of(s, |k| {
            !matches!(k, EdgeKind::Call | EdgeKind::Return { .. })
        })
    }

    fn call_successors(&self, s: &State) -> Result<Vec<(usize, State)>, Interrupted> {
        self.successors_of(s, |k| k == EdgeKind::Call)
    }

    fn return_successors(
        &self,
        s: &State,
        hier: &State,
    ) -> Result<Vec<(usize, State)>, Interrupted> {
        let mut out = Vec::new();
        for &a in &self.enc.out[s.0] {
            let letter = &self.enc.letters[a];
            let EdgeKind::Return { call } = letter.kind else {
                continue;
            };
            let Some(&c) = self.call_letter.get(&call) else {
                continue;
            };
            if self.enc.letters[c].src != hier.0 {
                continue;
            }
            let t = self.fh.borrow_mut().return_successor(s.1, hier.1, c, a)?;
            self.log.borrow_mut().push((s.1, Some((hier.1, c)), a, t));
            if t != FALSE_STATE {
                out.push((a, (letter.tgt, t)));
            }
        }
        Ok(out)
    }
}

/// Does the Floyd–Hoare automaton reject the nested trace (reach `false`)?
fn progress(
    fh: &mut FloydHoare,
    letters: &[NestedLetter<usize>],
    call_letter: &HashMap<usize, usize>,
    enc: &Encoded,
) -> Result<bool, UnknownReason> {
    use crate::automata::DeterministicAutomaton;
    let mut s = fh.initial();
    let mut stack: Vec<StateId> = Vec::new();
    for l in letters {
        s = match l {
            NestedLetter::Internal(a) => fh.successor(&s, a),
            NestedLetter::Call(a) => {
                stack.push(s);
                fh.successor(&s, a)
            }
            NestedLetter::Return(a) => {
                let (Some(hier), EdgeKind::Return { call }) = (stack.pop(), enc.letters[*a].kind)
                else {
                    return Err(UnknownReason::Internal("a return without its call".into()));
                };
                let Some(&c) = call_letter.get(&call) else {
                    return Err(UnknownReason::Internal("a return without its call".into()));
                };
                fh.return_successor(s, hier, c, *a)
            }
        }
        .map_err(|_| UnknownReason::Timeout)?;
        if s == FALSE_STATE {
            return Ok(true);
        }
    }
    Ok(s == FALSE_STATE)
}

/// Re-checks, in a fresh solver session, every Floyd–Hoare transition the last (empty) search of
/// the product used — internal and call triples `{S} a {S'}`, return triples with the caller's
/// state, and the `false` successors that cut runs —: together they are the proof that no error
/// location is reachable (the search visited every reachable double decker and asked for all its
/// successors).
fn check_certificate(
    voc: &Vocabulary,
    enc: &Encoded,
    fh: &mut FloydHoare,
    log: &[Transition],
    session: Session,
) -> Result<(), UnknownReason> {
    use super::hoare::{HoareChecker, Post};
    let mut htc = HoareChecker::new(session);
    let fixed = fh.fixed().clone();
    let mut stats = Stats::default();
    let fail = |what: &str| {
        UnknownReason::ProofCheck(format!("proof check: a {what} triple does not hold"))
    };
    let seen: BTreeSet<&Transition> = log.iter().collect();
    for &(s, hier, a, t) in seen {
        let letter = &enc.letters[a];
        match hier {
            None => {
                let post = if t == FALSE_STATE {
                    Term::ff()
                } else {
                    fh.state_term(t)
                };
                let r = htc.check_triple(voc, &fh.state_term(s), letter, &post);
                if r != crate::smt::SatResult::Unsat {
                    return Err(fail("Floyd–Hoare"));
                }
            }
            Some((h, c)) => {
                let wanted: Vec<_> = if t == FALSE_STATE {
                    Vec::new()
                } else {
                    fh.state_preds(t).to_vec()
                };
                let post = htc.return_post(
                    voc,
                    fh.predicates(),
                    s,
                    h,
                    &enc.letters[c],
                    letter,
                    &|x| fixed.contains(x),
                    &wanted,
                    &mut stats,
                );
                let ok = match post {
                    Post::False => true,
                    Post::Holds(ps) => t != FALSE_STATE && ps.len() == wanted.len(),
                };
                if !ok {
                    return Err(fail("return"));
                }
            }
        }
    }
    Ok(())
}

/// The summaries of the recursive procedures from the last (empty) search: at each exit of a
/// recursive procedure, the disjunction of the Floyd–Hoare states the search reached there,
/// projected onto the procedure's scope (its parameters, returns, globals and `old` values). A
/// summary that cannot be projected is left out (the proof itself is the automaton).
fn summaries(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    fh: &mut FloydHoare,
    log: &[Transition],
    projector: &mut dyn super::interpolate::Interpolator,
    stats: &mut Stats,
) -> Vec<super::LoopInvariant> {
    let exits: BTreeSet<LocId> = enc
        .letters
        .iter()
        .filter(|l| matches!(l.kind, EdgeKind::Return { .. }))
        .map(|l| l.src)
        .collect();
    let mut at: std::collections::BTreeMap<LocId, BTreeSet<StateId>> = Default::default();
    for &(_, _, a, t) in log {
        let l = enc.letters[a].tgt;
        if t != FALSE_STATE && exits.contains(&l) {
            at.entry(l).or_default().insert(t);
        }
    }
    let mut out = Vec::new();
    for (l, states) in at {
        let loc = &cfa.locs[l];
        let Some(p) = loc.proc else { continue };
        let body = Term::or(states.iter().map(|s| fh.state_term(*s)).collect());
        let outside: Vec<crate::smt::Var> = body
            .free_vars()
            .into_iter()
            .filter(|v| match voc.lookup(v) {
                Some((x, false)) => !super::proof::in_scope(voc, x, Some(p), loc.inst),
                _ => true,
            })
            .collect();
        let Ok(term) = projector.project_exists(outside, body, stats) else {
            continue;
        };
        let term = crate::smt::simplify(&term);
        out.push(super::LoopInvariant {
            summary: true,
            span: Some(voc.program.proc(p).span),
            procedure: voc.program.proc(p).name.clone(),
            term: super::pretty::source_term(voc, &term),
            invariant: super::pretty::term(voc, &term),
        });
    }
    out
}

/// How many earlier predicates at a location a new one is joined with.
const HULL_WINDOW: usize = 3;

/// Runs nested-word trace abstraction on a program with recursive procedures.
#[allow(clippy::too_many_arguments)]
pub fn run(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    config: &Config,
    fh: &mut FloydHoare,
    sessions: &mut Sessions,
    stats: &mut Stats,
    fresh_session: &dyn Fn() -> Result<Session, String>,
) -> Outcome {
    let budget = match config.deadline {
        Some(d) => Budget::unlimited().with_deadline(d),
        None => Budget::unlimited(),
    };
    let mut call_letter = HashMap::new();
    for (a, l) in enc.letters.iter().enumerate() {
        if l.kind == EdgeKind::Call {
            for e in &l.edges {
                call_letter.insert(*e, a);
            }
        }
    }
    let live = config.interpolation.uses_live();
    // The predicates of earlier sequences per location, for their joins.
    let mut history: HashMap<LocId, Vec<Term>> = HashMap::new();
    loop {
        if config.timed_out() {
            return Outcome::unknown(UnknownReason::Timeout, stats.clone());
        }
        if stats.iterations >= config.max_iterations {
            return super::cegar::iteration_limit(config, stats);
        }
        stats.iterations += 1;
        let (run, log) = {
            let product = Product {
                cfa,
                enc,
                fh: RefCell::new(&mut *fh),
                call_letter: &call_letter,
                log: RefCell::new(Vec::new()),
            };
            let run = automata::nested_accepting_run(&product, &budget);
            (run, product.log.into_inner())
        };
        let run = match run {
            Ok(Some(run)) => run,
            Ok(None) => {
                if config.check_proof {
                    let checked = fresh_session()
                        .map_err(UnknownReason::SolverUnavailable)
                        .and_then(|session| check_certificate(voc, enc, fh, &log, session));
                    if let Err(e) = checked {
                        return Outcome::unknown(e, stats.clone());
                    }
                }
                let proof = if config.proof {
                    summaries(voc, cfa, enc, fh, &log, sessions.interpolator, stats)
                } else {
                    Vec::new()
                };
                return Outcome::safe(None, proof, stats.clone());
            }
            Err(ExploreError::Cancelled(_)) | Err(ExploreError::Successor(Interrupted)) => {
                return Outcome::unknown(UnknownReason::Timeout, stats.clone());
            }
        };
        stats.abstraction_states += run.states.len();
        let letters: Vec<usize> = run.letters.iter().map(|l| *l.letter()).collect();
        stats.max_trace_length = stats.max_trace_length.max(letters.len());
        let steps: Vec<(&TransFormula, EdgeKind)> = letters
            .iter()
            .map(|a| (&enc.letters[*a].tf, enc.letters[*a].kind))
            .collect();
        let ssa = tracecheck::ssa_nested(voc, &steps);
        if super::cegar::debug() {
            eprintln!(
                "iteration {}: nested trace of {} letters",
                stats.iterations,
                letters.len()
            );
            for l in &run.letters {
                let a = &enc.letters[*l.letter()];
                let texts: Vec<&str> = a
                    .edges
                    .iter()
                    .map(|e| cfa.edges[*e].text.as_str())
                    .collect();
                eprintln!(
                    "    {:?} {} -> {}: {}",
                    std::mem::discriminant(l),
                    a.src,
                    a.tgt,
                    texts.join("; ")
                );
            }
            for (i, cs) in ssa.conjuncts.iter().enumerate() {
                eprintln!("    ssa {i}: {}", Term::and(cs.clone()));
            }
        }
        let locs: Vec<LocId> = std::iter::once(enc.init)
            .chain(letters.iter().map(|a| enc.letters[*a].tgt))
            .collect();
        match sessions.trace.check(&ssa) {
            Feasibility::Unknown(r) => return super::cegar::trace_unknown(config, r, stats),
            Feasibility::Feasible(_) => {
                return counterexample::outcome(voc, cfa, enc, &letters, fresh_session(), stats).0;
            }
            Feasibility::Infeasible(core) => {
                let core = config.interpolation.uses_core().then_some(&core);
                let mut errors = Vec::new();
                let mut done = false;
                // (direction, relax by the unsat core, project onto live variables, exact): the
                // forward sequences first, then the sequential loop's fallbacks — backward (the
                // weakest precondition keeps an array cell a store wrote, which a forward
                // projection quantifies away), without the live projection, the exact post.
                // Each is only a source of predicates: the Floyd–Hoare automaton checks every
                // triple it takes.
                // (the weakest precondition of a return needs the caller's context: a trace with
                // calls is interpolated forward only)
                let nested = ssa.calls.iter().any(Option::is_some);
                let mut plan = Vec::new();
                for p in [
                    (Direction::Forward, true, live, false),
                    (Direction::Forward, false, live, false),
                    (Direction::Backward, true, live, false),
                    (Direction::Backward, false, live, false),
                    (Direction::Backward, true, false, false),
                    (Direction::Forward, false, false, true),
                ] {
                    let (direction, relax, _, _) = p;
                    let backward = direction == Direction::Backward;
                    if relax && core.is_none() || backward && nested || plan.contains(&p) {
                        continue;
                    }
                    plan.push(p);
                }
                for (direction, relax, live, exact) in plan {
                    if config.timed_out() {
                        return Outcome::unknown(UnknownReason::Timeout, stats.clone());
                    }
                    let settings = Settings {
                        direction,
                        live,
                        exact,
                        until: None,
                    };
                    let used = if relax { core } else { None };
                    let mut preds = match sessions
                        .interpolator
                        .interpolants(&ssa, used, settings, stats)
                    {
                        Ok(p) => p,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    };
                    if super::cegar::debug() {
                        for (i, p) in preds.iter().enumerate() {
                            eprintln!("  I{i} @{}: {}", locs[i], super::pretty::term(voc, p));
                        }
                    }
                    if let Err(e) = interpolate::close_ends(&mut preds, fh.session()) {
                        errors.push(e);
                        continue;
                    }
                    let n = preds.len() - 1;
                    for i in 1..n {
                        fh.add_predicate(locs[i], &preds[i]);
                        // Two unwindings of a recursion (or loop) leave two predicates at one
                        // location: their join is a candidate for the summary both instantiate.
                        let seen = history.entry(locs[i]).or_default();
                        if seen.contains(&preds[i]) {
                            continue;
                        }
                        for q in seen.iter().rev().take(HULL_WINDOW) {
                            for t in super::invariants::hull_facts(voc, &preds[i], q) {
                                fh.add_predicate(locs[i], &t);
                            }
                        }
                        seen.push(preds[i].clone());
                    }
                    match progress(fh, &run.letters, &call_letter, enc) {
                        Ok(true) => {
                            done = true;
                            break;
                        }
                        Ok(false) => {}
                        Err(r) => return Outcome::unknown(r, stats.clone()),
                    }
                }
                if !done {
                    let reason = if config.timed_out() {
                        UnknownReason::Timeout
                    } else if errors.is_empty() {
                        UnknownReason::NoProgress(fh.last_unknown())
                    } else {
                        UnknownReason::Interpolation(errors.join("; "))
                    };
                    return Outcome::unknown(reason, stats.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ir::test_program as program;

    const FACT: &str = "procedure f(n: int) returns (r: int) { var t: int; if (n > 0) { call t := f(n - 1); r := t + 1; } else { r := 0; } }\n\
                        procedure main() { var x: int; call x := f(3); assert x == 3; }";

    /// A return restores the caller's frame: along call f(3) · call f(2) · return · return, the
    /// caller's `n` after the inner return is the version from before the inner call.
    #[test]
    fn nested_ssa_restores_the_callers_frame() {
        let program = program(FACT);
        let voc = Vocabulary::new(&program);
        let cfa = super::super::cfa::build_nested(&voc, 10_000, 1).expect("cfa");
        let call = cfa
            .edges
            .iter()
            .find(|e| e.kind == EdgeKind::Call)
            .expect("a call");
        let ret = cfa
            .edges
            .iter()
            .find(|e| matches!(e.kind, EdgeKind::Return { .. }))
            .expect("a return");
        let steps = vec![
            (&call.tf, EdgeKind::Call),
            (&call.tf, EdgeKind::Call),
            (&ret.tf, ret.kind),
            (&ret.tf, ret.kind),
        ];
        let ssa = tracecheck::ssa_nested(&voc, &steps);
        assert_eq!(ssa.calls, vec![None, None, Some(1), Some(0)]);
        let n = |pos: usize| -> Option<crate::smt::Var> {
            ssa.versions[pos]
                .iter()
                .find(|(x, _)| voc.name(**x).starts_with('n'))
                .map(|(_, v)| v.clone())
        };
        // After the inner return, `n` is the version of the first frame (after one call);
        // after the outer return, the version of the outermost frame (before any call).
        assert_eq!(n(3), n(1));
        assert_eq!(n(4), n(0));
        assert_ne!(n(1), n(2));
    }

    /// The join of two unwindings' predicates yields the summary both instantiate.
    #[test]
    fn hull_of_two_unwindings_is_the_summary() {
        let program = program(FACT);
        let voc = Vocabulary::new(&program);
        let cfa = super::super::cfa::build_nested(&voc, 10_000, 1).expect("cfa");
        let var = |name: &str| {
            let x = cfa
                .edges
                .iter()
                .flat_map(|e| e.tf.reads.iter().chain(&e.tf.writes))
                .find(|x| match x {
                    PVar::Var { id, .. } => program.var(*id).name == name,
                    _ => false,
                })
                .copied()
                .expect("variable");
            Term::var(&voc.pre(x).expect("pre"))
        };
        let (n, r) = (var("n"), var("r"));
        let p = Term::and(vec![
            Term::eq(&n, &Term::int(0)),
            Term::eq(&r, &Term::int(0)),
        ]);
        let q = Term::and(vec![
            Term::eq(&n, &Term::int(1)),
            Term::eq(&r, &Term::int(1)),
        ]);
        let facts = crate::engine::invariants::hull_facts(&voc, &p, &q);
        let mut z3 = match crate::smt::Session::new(crate::smt::SolverConfig::new(
            crate::smt::SolverKind::Z3,
        )) {
            Ok(s) => s,
            Err(e) => {
                assert!(
                    std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false"),
                    "z3 is missing and CI is set: {e}"
                );
                return;
            }
        };
        // r = n is among the facts (as some equivalent equality), and n >= 0 too.
        let implied = |goal: &Term, z3: &mut crate::smt::Session| {
            z3.push();
            z3.assert(&Term::and(facts.clone()));
            z3.assert(&Term::not(goal));
            let r = z3.check_sat();
            z3.pop();
            r == crate::smt::SatResult::Unsat
        };
        assert!(implied(&Term::eq(&r, &n), &mut z3), "{facts:?}");
        assert!(implied(&Term::ge(&n, &Term::int(0)), &mut z3), "{facts:?}");
        // …and every fact holds on both predicates.
        for f in &facts {
            for pre in [&p, &q] {
                z3.push();
                z3.assert(pre);
                z3.assert(&Term::not(f));
                assert_eq!(z3.check_sat(), crate::smt::SatResult::Unsat, "{f:?}");
                z3.pop();
            }
        }
    }

    #[test]
    fn fixed_variables_are_those_only_calls_write() {
        let program = program(FACT);
        let voc = Vocabulary::new(&program);
        let cfa = super::super::cfa::build_nested(&voc, 10_000, 1).expect("cfa");
        assert!(cfa.nested);
        let fixed = fixed_variables(&cfa);
        let names: BTreeSet<String> = fixed.iter().map(|x| voc.name(*x)).collect();
        assert!(names.iter().any(|n| n.starts_with('n')), "{names:?}");
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with('r') || n.starts_with('t')),
            "{names:?}"
        );
    }
}
