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
//! A Floyd–Hoare automaton state is a set of predicates (their conjunction), interned as a
//! [`StateId`]. Invariant: the state containing [`FALSE`] is exactly `{FALSE}`.

use super::cfa::LocId;
use super::transition::{PVar, Vocabulary, pvars_of};
use crate::smt::{SatResult, Session, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

pub const FALSE: PredId = PredId(0);

/// How many of a location's most recent candidates a new predicate is compared with semantically.
pub const UNIFY_WINDOW: usize = 24;

/// Is `a ⇒ b` valid (definitely)?
fn implies(session: &mut Session, a: &Term, b: &Term) -> bool {
    session.push();
    session.assert(a);
    session.assert(&Term::not(b));
    let r = session.check_sat();
    session.pop();
    r == SatResult::Unsat
}
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
            session.push();
            session.assert(&Term::not(&t));
            let valid = session.check_sat() == SatResult::Unsat;
            session.pop();
            if valid {
                None
            } else {
                session.push();
                session.assert(&t);
                let unsat = session.check_sat() == SatResult::Unsat;
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
