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
//! Concurrent programs: the candidates of a transition are those of the *configuration* it leads to
//! (see [`super::predicates`] and [`crate::engine::PredicateScope`]); [`Tracked`] is the automaton
//! over pairs (configuration, state) that the CEGAR loop subtracts. A transition then depends on the
//! target configuration too, and is cached per (state, letter, configuration); the Hoare-triple
//! checker's cache is per (state, letter, predicate) and is shared by all configurations.
//!
//! Invariant: every transition `S -a-> S'` satisfies `{∧S} a {∧S'}` (checked by [`super::hoare`]),
//! whatever the candidates were; so an error configuration reached only with `S = false` is reached
//! only by infeasible traces.

use super::blocks::Encoded;
use super::cfa::Cfa;
use super::hoare::{HoareChecker, Post, is_total};
use super::predicates::{ConfId, FALSE_STATE, Predicates, StateId, TRUE_STATE};
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
    /// The threads of a concurrent program whose candidates are scoped by configuration.
    cfa: Option<&'a Cfa>,
    /// (state, letter, target configuration) → (successor, candidates considered)
    trans_conf: HashMap<(StateId, usize, ConfId), (StateId, usize)>,
    /// The initial configuration (scoped candidates; a constant otherwise).
    init_conf: ConfId,
    /// (configuration, letter) → configuration after the letter
    conf_next: HashMap<(ConfId, usize), ConfId>,
    /// Configurations carry the lockstep turn as a last component (see [`Self::with_scope`]).
    lockstep: bool,
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
            cfa: None,
            trans_conf: HashMap::new(),
            init_conf: ConfId(0),
            conf_next: HashMap::new(),
            lockstep: false,
        }
    }

    /// Candidates per configuration of `cfa`'s threads under `scope` (concurrent programs; the
    /// global scope keeps every predicate a candidate everywhere, as
    /// [`Self::with_global_predicates`]). A sequential program is left as it is. With `lockstep`
    /// (the lockstep preference order), a configuration is the thread locations followed by the
    /// turn: the turn is not a thread, so candidates attached by thread never mention it, but
    /// seeded invariants ([`Self::seed_predicate`]) may differ between turns.
    pub fn with_scope(
        mut self,
        cfa: &'a Cfa,
        scope: super::PredicateScope,
        lockstep: bool,
    ) -> Self {
        if !cfa.is_concurrent() {
            return self;
        }
        self.htc.set_frame_rule(true);
        if scope == super::PredicateScope::Global {
            self.preds.set_global(true);
            return self;
        }
        let thread_of_inst = cfa
            .locs
            .iter()
            .zip(&cfa.thread_of)
            .filter(|(l, _)| l.inst != 0)
            .map(|(l, t)| (l.inst, *t))
            .collect();
        self.preds.set_scoped(scope, thread_of_inst);
        self.cfa = Some(cfa);
        self.lockstep = lockstep;
        let mut locs = vec![super::interleaving::FREE; cfa.threads.len()];
        if let Some(l) = locs.first_mut() {
            *l = self.enc.init as u32;
        }
        if lockstep {
            locs.push(0);
        }
        self.init_conf = self.preds.conf(&locs);
        self
    }

    /// The configuration after letter `a` (scoped candidates; a constant otherwise).
    pub fn conf_after(&mut self, c: ConfId, a: usize) -> ConfId {
        let Some(cfa) = self.cfa else {
            return c;
        };
        if let Some(n) = self.conf_next.get(&(c, a)) {
            return *n;
        }
        let conf = self.preds.conf_locs(c);
        let threads = cfa.threads.len();
        let mut locs =
            super::interleaving::locs_after(cfa, self.enc, &conf[..threads], a).into_vec();
        if self.lockstep {
            locs.push(super::interleaving::turn_after(cfa, self.enc, threads, a));
        }
        let n = self.preds.conf(&locs);
        self.conf_next.insert((c, a), n);
        n
    }

    /// The successor of `s` under `a` into configuration `c` (scoped candidates: those of `c`;
    /// otherwise [`DeterministicAutomaton::successor`]).
    pub fn successor_in(
        &mut self,
        s: StateId,
        a: usize,
        c: ConfId,
    ) -> Result<StateId, Interrupted> {
        if !self.preds.is_scoped() {
            return self.successor(&s, &a);
        }
        if s == FALSE_STATE {
            return Ok(FALSE_STATE);
        }
        let n = self.preds.candidates_conf(c).len();
        let (base, checked) = match resume(self.trans_conf.get(&(s, a, c)), n) {
            Ok(t) => return Ok(t),
            Err(resume_at) => resume_at,
        };
        self.check_deadline()?;
        let new_cands: Vec<_> = self.preds.candidates_conf(c)[checked..].to_vec();
        let letter = &self.enc.letters[a];
        let post = self.htc.post(
            self.voc,
            &self.preds,
            s,
            a,
            letter,
            self.total[a],
            &new_cands,
            &mut self.stats,
        );
        let t = self.state_of(post, base);
        self.trans_conf.insert((s, a, c), (t, n));
        Ok(t)
    }

    /// Adds predicate `t` as a candidate for the configuration `locs` reached by a step of thread
    /// `moved` (scoped candidates), unified with an equivalent recent predicate. Without scoping,
    /// as [`Self::add_predicate`] at `loc`.
    pub fn add_predicate_in(
        &mut self,
        loc: super::cfa::LocId,
        locs: &[u32],
        moved: Option<u32>,
        t: &crate::smt::Term,
    ) {
        if !self.preds.is_scoped() {
            return self.add_predicate(loc, t);
        }
        for c in conjuncts(&crate::smt::simplify(t)) {
            if let Some(p) = self.preds.intern(self.voc, &c, &mut self.htc.session) {
                let p = self.preds.unify_scoped(p, &mut self.htc.session);
                self.preds.attach_conf(locs, moved, p);
            }
        }
    }

    /// Adds the conjuncts of `t` as candidates at exactly the configuration `locs` (scoped
    /// candidates only; invariants of that configuration, not yet checked: each transition that
    /// takes them is a checked Hoare triple). Returns how many (predicate, configuration) pairs
    /// are new.
    pub fn seed_predicate(&mut self, locs: &[u32], t: &crate::smt::Term) -> usize {
        if !self.preds.is_scoped() {
            return 0;
        }
        let mut n = 0;
        for c in conjuncts(&crate::smt::simplify(t)) {
            if let Some(p) = self.preds.intern(self.voc, &c, &mut self.htc.session) {
                n += usize::from(self.preds.attach_exact(locs, p));
            }
        }
        n
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

    /// Adds the comparisons the letters of `trace` make ([`super::predicates::trace_comparisons`])
    /// as candidates at the trace's locations, skipping the (location, predicate) pairs in `added`
    /// and stopping when it holds `max`. Interpolants of an unrolled trace count iterations
    /// (`tmp = 0`, `tmp = 1`, …) when one comparison refutes every unrolling (`tmp <= id` after a
    /// wrap-around, kept by a guarded increment): the program's own atoms are predicate
    /// abstraction's seed. Candidates cost Hoare-triple checks only; a transition uses one only
    /// where its triple is valid.
    pub fn add_comparisons(
        &mut self,
        trace: &[usize],
        added: &mut std::collections::BTreeSet<(super::cfa::LocId, crate::smt::Term)>,
        max: usize,
    ) {
        let Some(&first) = trace.first() else {
            return;
        };
        let places: std::collections::BTreeSet<super::cfa::LocId> =
            std::iter::once(self.enc.letters[first].src)
                .chain(trace.iter().map(|&a| self.enc.letters[a].tgt))
                .collect();
        for p in super::predicates::trace_comparisons(self.voc, self.enc, trace) {
            for &l in &places {
                if added.len() >= max {
                    return;
                }
                if added.insert((l, p.clone())) {
                    self.add_predicate(l, &p);
                }
            }
        }
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
    /// The solver counters of the fast Hoare-triple session, if there is one.
    pub fn fast_session_stats(&self) -> Option<&crate::smt::SessionStats> {
        self.htc.fast_stats()
    }

    pub fn session(&mut self) -> &mut crate::smt::Session {
        &mut self.htc.session
    }

    /// Hands the checker's session on (to the automaton of a second loop).
    /// A fresh Hoare-triple checker on this automaton's solver sessions (its caches are about
    /// this automaton's states, so they are not kept).
    pub fn into_checker(self) -> HoareChecker {
        self.htc.into_fresh()
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

/// The top-level conjuncts of `t`, flattening nested conjunctions and negated disjunctions (each
/// conjunct of an interpolant is a candidate of its own: `{S} a {p ∧ q}` is valid iff `{S} a {p}`
/// and `{S} a {q}` are, so splitting loses no precision, and a conjunct may hold where the whole
/// does not).
fn conjuncts(t: &crate::smt::Term) -> Vec<crate::smt::Term> {
    use crate::smt::{Op, Term, TermKind};
    let mut out = Vec::new();
    let mut todo = vec![t.clone()];
    while let Some(t) = todo.pop() {
        match t.kind() {
            TermKind::App(Op::And, args) => todo.extend(args.iter().rev().cloned()),
            TermKind::App(Op::Not, args) if args.len() == 1 && args[0].is_app_of(&Op::Or) => {
                todo.extend(args[0].args().iter().rev().map(Term::not))
            }
            _ => {
                if !out.contains(&t) {
                    out.push(t)
                }
            }
        }
    }
    out
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
            || crate::cancel::requested()
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

/// The Floyd–Hoare automaton along the program's configurations: states are pairs (configuration,
/// Floyd–Hoare state), the configuration following the letters as in the interleaving product
/// ([`super::interleaving::locs_after`]), so that each transition can take the candidates of its
/// target configuration ([`FloydHoare::successor_in`]). Without scoped candidates the configuration
/// is a constant and this is the plain automaton. The `false` state is a trap (its successor is
/// itself).
pub struct Tracked<'f, 'a, 'p>(pub &'f mut FloydHoare<'a, 'p>);

impl DeterministicAutomaton for Tracked<'_, '_, '_> {
    type State = (ConfId, StateId);
    type Letter = usize;
    type Error = Interrupted;

    fn initial(&self) -> (ConfId, StateId) {
        (self.0.init_conf, TRUE_STATE)
    }

    fn is_accepting(&self, s: &(ConfId, StateId)) -> bool {
        s.1 == FALSE_STATE
    }

    fn is_trap(&self, s: &(ConfId, StateId)) -> bool {
        s.1 == FALSE_STATE
    }

    fn successor(
        &mut self,
        s: &(ConfId, StateId),
        a: &usize,
    ) -> Result<(ConfId, StateId), Interrupted> {
        if s.1 == FALSE_STATE {
            return Ok(*s);
        }
        let c = self.0.conf_after(s.0, *a);
        let t = self.0.successor_in(s.1, *a, c)?;
        Ok((c, t))
    }
}
