//! The predicate unifier and the states of Floyd–Hoare automata (design notes §3.5).
//!
//! Predicates are terms over canonical program variables, kept once per syntactic class after
//! simplification (hash-consing makes this a lookup). Predicates equivalent to `true` are dropped and
//! those equivalent to `false` become [`FALSE`] (one solver check each). Each predicate is attached to
//! the locations where an interpolant sequence produced it: those are the candidate post-conditions of
//! transitions into that location ("conservative" successor selection, which keeps Hoare-triple checks
//! per transition few; the interpolant of position `i` of a refuted trace is always a candidate at the
//! trace's `i`-th location, which guarantees progress).
//!
//! Concurrent programs (Ultimate's conservative successor selection lifted to configurations, design
//! notes §3.2/§5): a predicate is attached to the *configuration* (the tuple of thread locations)
//! where an interpolant occurred, projected onto the threads selected by the [`PredicateScope`] —
//! every thread, the threads whose local variables the predicate mentions, those plus the thread
//! whose letter led to the configuration, or none (a candidate everywhere). A predicate is a
//! candidate at every configuration that agrees with one of its projections. Interpolant `i` of a
//! refuted trace is always a candidate at the trace's `i`-th configuration (each projection is a
//! projection of that configuration), which keeps progress. The scope only selects which triples the
//! Floyd–Hoare automaton tries; each transition is still a checked Hoare triple, so the scope changes
//! precision and speed, never soundness.
//!
//! A Floyd–Hoare automaton state is a set of predicates (their conjunction), interned as a
//! [`StateId`]. Invariant: the state containing [`FALSE`] is exactly `{FALSE}`; the candidates of a
//! location or configuration only grow, in attachment order (the automaton's caches rely on it).

use super::PredicateScope;
use super::cfa::LocId;
use super::transition::{PVar, Vocabulary, pvars_of};
use crate::smt::{SatResult, Session, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

pub const FALSE: PredId = PredId(0);

/// An interned configuration (thread locations) of a concurrent program; see [`Predicates::conf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConfId(pub u32);

/// A projection of a configuration: (thread, location) pairs, sorted by thread.
type Pattern = Box<[(u32, u32)]>;

/// How many of a location's most recent candidates a new predicate is compared with semantically.
pub const UNIFY_WINDOW: usize = 24;

/// Is `a ⇒ b` valid (definitely)?
fn implies(session: &mut Session, a: &Term, b: &Term) -> bool {
    session.push();
    session.assert(a);
    session.assert(&Term::not(b));
    let r = check(session, a.has_quantifier() || b.has_quantifier());
    session.pop();
    r == SatResult::Unsat
}

/// A check whose query has a quantifier gets at most [`QUANTIFIED_LIMIT`]: what the solver does
/// not answer quickly it rarely answers later, and an unknown answer only costs precision (a
/// transition left out, a merge or a simplification not made). Shared with the Hoare-triple checks.
pub(super) fn check(session: &mut Session, quantified: bool) -> SatResult {
    if quantified {
        session.check_sat_within(QUANTIFIED_LIMIT)
    } else {
        session.check_sat()
    }
}

const QUANTIFIED_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);
pub const TRUE_STATE: StateId = StateId(0);
pub const FALSE_STATE: StateId = StateId(1);

#[derive(Clone, Debug)]
pub struct Predicate {
    pub term: Term,
    pub vars: BTreeSet<PVar>,
}

pub struct Predicates {
    preds: Vec<Predicate>,
    by_term: HashMap<Term, Option<PredId>>,
    at_loc: BTreeMap<LocId, Vec<PredId>>,
    states: Vec<Vec<PredId>>,
    by_state: HashMap<Vec<PredId>, StateId>,
    /// Every predicate is a candidate everywhere (concurrent programs: a predicate found at one
    /// interleaving's location must be available wherever another interleaving passes).
    global: bool,
    /// Configuration-scoped candidates (concurrent programs), if set.
    confs: Option<Confs>,
}

/// The configuration-scoped candidates of a concurrent program (see the module comment).
struct Confs {
    scope: PredicateScope,
    /// The thread owning each procedure instance's variables (globals: none).
    thread_of_inst: HashMap<u32, u32>,
    /// Every (predicate, projection) attached, in attachment order.
    patterns: Vec<(PredId, Pattern)>,
    seen: HashSet<(PredId, Pattern)>,
    /// Distinct attached predicates, in attachment order (for unification).
    recent: Vec<PredId>,
    ids: HashMap<Box<[u32]>, ConfId>,
    locs: Vec<Box<[u32]>>,
    /// Per configuration: its candidates and how many of `patterns` they reflect.
    cands: Vec<(Vec<PredId>, usize)>,
}

impl Confs {
    fn matches(pattern: &[(u32, u32)], locs: &[u32]) -> bool {
        pattern
            .iter()
            .all(|&(t, l)| locs.get(t as usize) == Some(&l))
    }
}

impl Default for Predicates {
    fn default() -> Self {
        Self::new()
    }
}

impl Predicates {
    pub fn new() -> Predicates {
        let mut p = Predicates {
            preds: vec![Predicate {
                term: Term::ff(),
                vars: BTreeSet::new(),
            }],
            by_term: HashMap::new(),
            at_loc: BTreeMap::new(),
            states: Vec::new(),
            by_state: HashMap::new(),
            global: false,
            confs: None,
        };
        p.by_term.insert(Term::ff(), Some(FALSE));
        p.by_term.insert(Term::tt(), None);
        let t = p.state(Vec::new());
        let f = p.state(vec![FALSE]);
        debug_assert_eq!((t, f), (TRUE_STATE, FALSE_STATE));
        p
    }

    /// Makes every predicate a candidate at every location (see the field).
    pub fn set_global(&mut self, global: bool) {
        self.global = global;
    }

    /// Makes predicates candidates per configuration (concurrent programs): `thread_of_inst` maps
    /// each procedure instance to the thread running it (its locals belong to that thread).
    pub fn set_scoped(&mut self, scope: PredicateScope, thread_of_inst: HashMap<u32, u32>) {
        self.confs = Some(Confs {
            scope,
            thread_of_inst,
            patterns: Vec::new(),
            seen: HashSet::new(),
            recent: Vec::new(),
            ids: HashMap::new(),
            locs: Vec::new(),
            cands: Vec::new(),
        });
    }

    /// Are candidates kept per configuration?
    pub fn is_scoped(&self) -> bool {
        self.confs.is_some()
    }

    /// Interns a configuration (its thread locations). Only meaningful when scoped.
    pub fn conf(&mut self, locs: &[u32]) -> ConfId {
        let Some(c) = self.confs.as_mut() else {
            return ConfId(0);
        };
        if let Some(id) = c.ids.get(locs) {
            return *id;
        }
        let id = ConfId(c.locs.len() as u32);
        c.locs.push(locs.into());
        c.ids.insert(locs.into(), id);
        c.cands.push((Vec::new(), 0));
        id
    }

    /// The thread locations of an interned configuration.
    pub fn conf_locs(&self, c: ConfId) -> &[u32] {
        self.confs
            .as_ref()
            .and_then(|cs| cs.locs.get(c.0 as usize))
            .map_or(&[], |l| l)
    }

    /// The threads whose local variables `p` mentions.
    fn threads_of(&self, p: PredId) -> BTreeSet<u32> {
        let Some(c) = &self.confs else {
            return BTreeSet::new();
        };
        self.get(p)
            .vars
            .iter()
            .filter_map(|x| match x {
                PVar::Var { inst, .. } | PVar::Old { inst, .. } if *inst != 0 => {
                    c.thread_of_inst.get(inst).copied()
                }
                _ => None,
            })
            .collect()
    }

    /// Makes `p` a candidate at every configuration that agrees with `locs` on the threads the scope
    /// selects (`moved`: the thread whose letter led to `locs`, if any); returns whether that is new.
    pub fn attach_conf(&mut self, locs: &[u32], moved: Option<u32>, p: PredId) -> bool {
        if p == FALSE {
            return false;
        }
        let Some(scope) = self.confs.as_ref().map(|c| c.scope) else {
            return false;
        };
        let threads: BTreeSet<u32> = match scope {
            PredicateScope::Global => BTreeSet::new(),
            PredicateScope::Configuration => (0..locs.len() as u32).collect(),
            PredicateScope::Threads => self.threads_of(p),
            PredicateScope::ThreadsMoved => {
                let mut t = self.threads_of(p);
                t.extend(moved);
                t
            }
        };
        let pattern: Pattern = threads
            .into_iter()
            .filter_map(|t| locs.get(t as usize).map(|&l| (t, l)))
            .collect();
        self.attach_pattern(p, pattern)
    }

    /// Makes `p` a candidate wherever `pattern` matches; returns whether that is new.
    fn attach_pattern(&mut self, p: PredId, pattern: Pattern) -> bool {
        let Some(c) = self.confs.as_mut() else {
            return false;
        };
        if !c.seen.insert((p, pattern.clone())) {
            return false;
        }
        if !c.recent.contains(&p) {
            c.recent.push(p);
        }
        c.patterns.push((p, pattern));
        true
    }

    /// Makes `p` a candidate at exactly the configuration `locs` (every thread's location):
    /// invariants found for that configuration. Returns whether that is new.
    pub fn attach_exact(&mut self, locs: &[u32], p: PredId) -> bool {
        if p == FALSE {
            return false;
        }
        let pattern: Pattern = locs
            .iter()
            .enumerate()
            .map(|(t, &l)| (t as u32, l))
            .collect();
        self.attach_pattern(p, pattern)
    }

    /// The candidates at configuration `conf` (scoped), in attachment order (append-only).
    pub fn candidates_conf(&mut self, conf: ConfId) -> &[PredId] {
        let Some(c) = self.confs.as_mut() else {
            return &[];
        };
        let k = conf.0 as usize;
        let Some((list, scanned)) = c.cands.get_mut(k) else {
            return &[];
        };
        let locs = &c.locs[k];
        for (p, pattern) in &c.patterns[*scanned..] {
            if Confs::matches(pattern, locs) && !list.contains(p) {
                list.push(*p);
            }
        }
        *scanned = c.patterns.len();
        list
    }

    /// The representative of `p`'s equivalence class among the most recent predicates attached
    /// anywhere (scoped candidates; as [`Self::unify_at`]).
    pub fn unify_scoped(&mut self, p: PredId, session: &mut Session) -> PredId {
        if p == FALSE {
            return p;
        }
        let Some(c) = &self.confs else {
            return p;
        };
        if c.recent.contains(&p) {
            return p;
        }
        let start = c.recent.len().saturating_sub(UNIFY_WINDOW);
        let recent: Vec<PredId> = c.recent[start..].to_vec();
        let tp = self.get(p).term.clone();
        for &q in recent.iter().rev() {
            if self.get(q).vars != self.get(p).vars {
                continue;
            }
            let tq = self.get(q).term.clone();
            if implies(session, &tp, &tq) && implies(session, &tq, &tp) {
                return q;
            }
        }
        p
    }

    fn key(&self, loc: LocId) -> LocId {
        if self.global { 0 } else { loc }
    }

    pub fn get(&self, p: PredId) -> &Predicate {
        &self.preds[p.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.preds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.preds.len() <= 1
    }

    /// The predicate for `t` (`None` if `t` is valid).
    pub fn intern(&mut self, voc: &Vocabulary, t: &Term, session: &mut Session) -> Option<PredId> {
        let t = crate::smt::simplify(t);
        if let Some(p) = self.by_term.get(&t) {
            return *p;
        }
        // Semantic check against the constants.
        let result = {
            let quantified = t.has_quantifier();
            session.push();
            session.assert(&Term::not(&t));
            let valid = check(session, quantified) == SatResult::Unsat;
            session.pop();
            if valid {
                None
            } else {
                session.push();
                session.assert(&t);
                let unsat = check(session, quantified) == SatResult::Unsat;
                session.pop();
                if unsat {
                    Some(FALSE)
                } else {
                    let id = PredId(self.preds.len() as u32);
                    self.preds.push(Predicate {
                        vars: pvars_of(voc, &t),
                        term: t.clone(),
                    });
                    Some(id)
                }
            }
        };
        self.by_term.insert(t, result);
        result
    }

    /// The representative of `p`'s equivalence class among the candidates at `loc`: `p` itself, or an
    /// equivalent candidate already there (two implication checks each, against at most the last
    /// [`UNIFY_WINDOW`] candidates, stopping at the first failed direction). An unknown answer keeps `p`.
    pub fn unify_at(&mut self, loc: LocId, p: PredId, session: &mut Session) -> PredId {
        if p == FALSE {
            return p;
        }
        let cands = self.candidates(loc);
        if cands.contains(&p) {
            return p;
        }
        let start = cands.len().saturating_sub(UNIFY_WINDOW);
        let tp = self.get(p).term.clone();
        for &q in cands[start..].iter().rev() {
            let tq = &self.get(q).term;
            if self.get(q).vars != self.get(p).vars {
                continue; // equivalent predicates over different variables are rare; skip the checks
            }
            if implies(session, &tp, tq) && implies(session, tq, &tp) {
                return q;
            }
        }
        p
    }

    /// Makes `p` a candidate at `loc`; returns whether it is new there.
    pub fn attach(&mut self, loc: LocId, p: PredId) -> bool {
        if p == FALSE {
            return false;
        }
        let v = self.at_loc.entry(self.key(loc)).or_default();
        if v.contains(&p) {
            return false;
        }
        v.push(p);
        true
    }

    /// Candidates at `loc`, in the order they were attached (append-only).
    pub fn candidates(&self, loc: LocId) -> &[PredId] {
        self.at_loc
            .get(&self.key(loc))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Interns the state for a set of predicates.
    pub fn state(&mut self, mut set: Vec<PredId>) -> StateId {
        set.sort();
        set.dedup();
        if set.contains(&FALSE) {
            set = vec![FALSE];
        }
        if let Some(s) = self.by_state.get(&set) {
            return *s;
        }
        let id = StateId(self.states.len() as u32);
        self.states.push(set.clone());
        self.by_state.insert(set, id);
        id
    }

    pub fn state_preds(&self, s: StateId) -> &[PredId] {
        &self.states[s.0 as usize]
    }

    /// The conjunction a state stands for.
    pub fn state_term(&self, s: StateId) -> Term {
        Term::and(
            self.state_preds(s)
                .iter()
                .map(|p| self.get(*p).term.clone())
                .collect(),
        )
    }

    pub fn num_states(&self) -> usize {
        self.states.len()
    }
}

/// The comparisons of two numbers in `formula` (under any connective) as predicates over the
/// program variables, both orders non-strict and strict, appended to `out` without duplicates.
pub fn comparisons(voc: &Vocabulary, formula: &Term, out: &mut Vec<Term>) {
    use crate::smt::Op;
    let Some((op, args)) = formula.as_app() else {
        return;
    };
    match op {
        Op::Not | Op::And | Op::Or | Op::Implies => {
            for a in args {
                comparisons(voc, a, out);
            }
        }
        Op::Eq | Op::Distinct | Op::Le | Op::Lt | Op::Ge | Op::Gt
            if args.len() == 2 && matches!(args[0].sort(), Sort::Int | Sort::Real) =>
        {
            let mut to_pre: HashMap<Var, Term> = HashMap::new();
            for v in formula.free_vars() {
                match voc.lookup(&v) {
                    Some((x, _)) => match voc.pre(x) {
                        Ok(pre) => {
                            to_pre.insert(v, Term::var(&pre));
                        }
                        Err(_) => return,
                    },
                    None => return,
                }
            }
            let (a, b) = (args[0].substitute(&to_pre), args[1].substitute(&to_pre));
            if a == b {
                return;
            }
            for p in [
                Term::le(&a, &b),
                Term::le(&b, &a),
                Term::lt(&a, &b),
                Term::lt(&b, &a),
            ] {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        _ => {}
    }
}

/// The comparisons ([`comparisons`]) of the letters of `trace` (each letter once), in order.
pub fn trace_comparisons(
    voc: &Vocabulary,
    enc: &super::blocks::Encoded,
    trace: &[usize],
) -> Vec<Term> {
    let mut preds = Vec::new();
    let mut seen = BTreeSet::new();
    for &a in trace {
        if seen.insert(a) {
            comparisons(voc, &enc.letters[a].tf.formula, &mut preds);
        }
    }
    preds
}
