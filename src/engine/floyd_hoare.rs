//! The Floyd–Hoare automaton, built on demand (Heizmann, Hoenicke, Podelski: "Software model checking
//! for people who love automata", CAV 2013; design notes §3.2).
//!
//! States are sets of predicates (their conjunction, see [`super::predicates`]); the initial state is
//! `true` (the empty set) and the only accepting state is `false`, a trap. The successor of `S` under
//! letter `a` is `false` if `{S} a {false}` is valid, and otherwise the set of candidate predicates `p`
//! at `a`'s target location with `{S} a {p}` valid — a Cartesian predicate-abstraction post, so one
//! refuted trace generalises to every trace whose Hoare triples check.
//!
//! Transitions are computed when the difference `CFA \ FH` asks for them and cached together with the
//! number of candidates they considered; when new predicates are attached to a location, a cached
//! transition is extended by checking only the new candidates. Because the predicate pool only grows,
//! the automaton of iteration `k+1` accepts every trace the automaton of iteration `k` accepts: the
//! abstraction `CFA \ FH_k` is the iterated difference of trace abstraction.
//!
//! Invariant: every transition `S -a-> S'` satisfies `{∧S} a {∧S'}` (checked by [`super::hoare`]).

use super::blocks::Encoded;
use super::hoare::{HoareChecker, Post, is_total};
use super::predicates::{FALSE_STATE, Predicates, StateId, TRUE_STATE};
use super::stats::Stats;
use super::transition::Vocabulary;
use crate::automata::DeterministicAutomaton;
use std::collections::HashMap;

pub struct FloydHoare<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    enc: &'a Encoded,
    preds: Predicates,
    htc: HoareChecker,
    stats: Stats,
    total: Vec<bool>,
    /// (state, letter) → (successor, number of candidates considered)
    trans: HashMap<(StateId, usize), (StateId, usize)>,
    /// (state, hierarchical predecessor, return letter) → (successor, candidates considered)
    returns: HashMap<(StateId, StateId, usize), (StateId, usize)>,
    /// Frame variables no letter but a call writes (nested words, see [`Self::return_successor`]).
    fixed: std::collections::BTreeSet<super::transition::PVar>,
    deadline: Option<std::time::Instant>,
}

/// A successor could not be computed: the run's deadline passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("timeout")
    }
}

impl<'a, 'p> FloydHoare<'a, 'p> {
    pub fn new(voc: &'a Vocabulary<'p>, enc: &'a Encoded, htc: HoareChecker) -> Self {
        let total = enc.letters.iter().map(|l| is_total(voc, l)).collect();
        FloydHoare {
            voc,
            enc,
            preds: Predicates::new(),
            htc,
            stats: Stats::default(),
            total,
            trans: HashMap::new(),
            returns: HashMap::new(),
            fixed: Default::default(),
            deadline: None,
        }
    }

    /// Successors are not computed after this instant ([`Interrupted`]).
    pub fn with_deadline(mut self, deadline: Option<std::time::Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// The variables that keep their value over a callee's frame (written only by call letters).
    pub fn with_fixed(
        mut self,
        fixed: std::collections::BTreeSet<super::transition::PVar>,
    ) -> Self {
        self.fixed = fixed;
        self
    }

    /// The successor of `s` under the return letter `ret` when `hier` is the state before the
    /// matching call letter `call` (nested words; the Hoare triple of
    /// [`HoareChecker::return_post`](super::hoare::HoareChecker::return_post)). Cached, and
    /// extended by the new candidates only, as [`DeterministicAutomaton::successor`].
    pub fn return_successor(
        &mut self,
        s: StateId,
        hier: StateId,
        call: usize,
        ret: usize,
    ) -> Result<StateId, Interrupted> {
        if s == FALSE_STATE || hier == FALSE_STATE {
            return Ok(FALSE_STATE);
        }
        let letter = &self.enc.letters[ret];
        let cands = self.preds.candidates(letter.tgt);
        let (base, checked) = match resume(self.returns.get(&(s, hier, ret)), cands.len()) {
            Ok(t) => return Ok(t),
            Err(resume_at) => resume_at,
        };
        self.check_deadline()?;
        let new_cands: Vec<_> = cands[checked..].to_vec();
        let n = cands.len();
        let fixed = &self.fixed;
        let post = self.htc.return_post(
            self.voc,
            &self.preds,
            s,
            hier,
            &self.enc.letters[call],
            letter,
            &|x| fixed.contains(x),
            &new_cands,
            &mut self.stats,
        );
        let t = self.state_of(post, base);
        self.returns.insert((s, hier, ret), (t, n));
        Ok(t)
    }

    /// Makes every predicate a candidate at every location (concurrent programs).
    pub fn with_global_predicates(mut self, global: bool) -> Self {
        self.preds.set_global(global);
        self
    }

    /// Adds predicate `t` (over canonical variables) as a candidate at location `loc`, unified with an
    /// equivalent candidate already there.
    pub fn add_predicate(&mut self, loc: super::cfa::LocId, t: &crate::smt::Term) {
        if let Some(p) = self.preds.intern(self.voc, t, &mut self.htc.session) {
            let p = self.preds.unify_at(loc, p, &mut self.htc.session);
            self.preds.attach(loc, p);
        }
    }

    /// The frame variables fixed over a callee (see [`Self::with_fixed`]).
    pub fn fixed(&self) -> &std::collections::BTreeSet<super::transition::PVar> {
        &self.fixed
    }

    /// The predicates and states (read only).
    pub fn predicates(&self) -> &Predicates {
        &self.preds
    }

    /// The conjunction of a state's predicates, and its predicates.
    pub fn state_term(&self, s: StateId) -> crate::smt::Term {
        self.preds.state_term(s)
    }

    pub fn state_preds(&self, s: StateId) -> &[super::predicates::PredId] {
        self.preds.state_preds(s)
    }

    /// Number of predicates and of states so far.
    pub fn size(&self) -> (usize, usize) {
        (self.preds.len(), self.preds.num_states())
    }

    /// The solver session of the Hoare-triple checker (shared with interpolation checks and
    /// invariant synthesis).
    pub fn session(&mut self) -> &mut crate::smt::Session {
        &mut self.htc.session
    }

    /// Hands the checker's session on (to the automaton of a second loop).
    pub fn into_session(self) -> crate::smt::Session {
        self.htc.session
    }

    /// The kind of the last `unknown` Hoare-triple answer, if any.
    pub fn last_unknown(&self) -> Option<crate::smt::UnknownKind> {
        self.htc.last_unknown.clone()
    }

    /// The automaton's counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// A cached transition `(successor, candidates considered)` with `cands` candidates now: the answer
/// if the cache has it (all candidates checked, or the successor is the `false` trap), else where
/// to resume: the earlier successor (if any) and how many candidates it checked.
fn resume(
    cached: Option<&(StateId, usize)>,
    cands: usize,
) -> Result<StateId, (Option<StateId>, usize)> {
    match cached {
        Some(&(t, n)) if n == cands => Ok(t),
        Some(&(t, _)) if t == FALSE_STATE => Ok(t),
        Some(&(t, n)) => Err((Some(t), n)),
        None => Err((None, 0)),
    }
}

impl FloydHoare<'_, '_> {
    /// The successor state of a post: `false`, or the candidates that hold together with those of
    /// the earlier successor `base` (whose candidates were checked before).
    fn state_of(&mut self, post: Post, base: Option<StateId>) -> StateId {
        match post {
            Post::False => FALSE_STATE,
            Post::Holds(mut ps) => {
                if let Some(b) = base {
                    ps.extend_from_slice(self.preds.state_preds(b));
                }
                self.preds.state(ps)
            }
        }
    }

    fn check_deadline(&self) -> Result<(), Interrupted> {
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            Err(Interrupted)
        } else {
            Ok(())
        }
    }
}

impl DeterministicAutomaton for FloydHoare<'_, '_> {
    type State = StateId;
    type Letter = usize;
    type Error = Interrupted;

    fn initial(&self) -> StateId {
        TRUE_STATE
    }

    fn is_accepting(&self, s: &StateId) -> bool {
        *s == FALSE_STATE
    }

    fn is_trap(&self, s: &StateId) -> bool {
        *s == FALSE_STATE
    }

    fn successor(&mut self, s: &StateId, a: &usize) -> Result<StateId, Interrupted> {
        if *s == FALSE_STATE {
            return Ok(FALSE_STATE);
        }
        let letter = &self.enc.letters[*a];
        let cands = self.preds.candidates(letter.tgt);
        let (base, checked) = match resume(self.trans.get(&(*s, *a)), cands.len()) {
            Ok(t) => return Ok(t),
            Err(resume_at) => resume_at,
        };
        self.check_deadline()?;
        let new_cands: Vec<_> = cands[checked..].to_vec();
        let n = cands.len();
        let post = self.htc.post(
            self.voc,
            &self.preds,
            *s,
            *a,
            letter,
            self.total[*a],
            &new_cands,
            &mut self.stats,
        );
        let t = self.state_of(post, base);
        self.trans.insert((*s, *a), (t, n));
        Ok(t)
    }
}
