//! The program automaton of trace abstraction: the interleaving product of the thread instances of
//! the block-encoded control-flow automaton, built on demand (design notes §5.1; Ultimate explores
//! the Petri net of thread instances lazily as a finite automaton in the same way).
//!
//! A state is a [`Conf`]iguration: the location of every thread instance (or "not in use"), and the
//! owner of a running `atomic` block with its nesting depth. Letters are the letters of the encoding
//! ([`Encoded`]); a letter belongs to the thread whose location is its source, so a letter names an
//! action of a thread instance. A sequential program is the one-thread case: its configurations are
//! its locations and its letters exactly the encoding's.
//!
//! Enabled letters of a configuration: every letter leaving the location of a thread in use (only the
//! atomic owner's while it runs an atomic block), where
//! * `Fork { thread }` needs `thread` to be the lowest free instance of its fork statement (the
//!   instances of one statement are interchangeable: a symmetry reduction, as in Ultimate) and puts
//!   it at its entry;
//! * `ForkLimit { pool }` needs every instance of the statement to be in use and leads to the
//!   accepting limit marker (the engine must refute such a trace or retry with more instances);
//! * `GhostFork { pool }` needs the same as `ForkLimit`, and the limit to be ignored (the engine
//!   then looks for real errors beyond the bound): the forking thread goes on, the forked thread
//!   never runs;
//! * `Join { thread }` needs `thread` to be at its exit, and frees it;
//! * `AtomicBegin` / `AtomicEnd` set and release the owner (nested blocks count a depth).
//!
//! Accepting: some thread is at an error location or at the limit marker. Invariant: every
//! interleaving of the threads' letters that the program can execute is a path of this automaton,
//! and vice versa up to the data constraints the letters carry (thread-id matches, assumes).
//!
//! Reductions the CEGAR loop may run on instead: the sleep-set reduction
//! ([`crate::automata::SleepSetReduction`]) under [`independent`], and thread-based persistent sets
//! ([`PersistentReduction`], with its soundness argument).

use super::blocks::Encoded;
use super::cfa::{Cfa, EdgeKind, LocId};
use crate::automata::Automaton;

/// "Not in use" in [`Conf::locs`].
pub const FREE: u32 = u32::MAX;

/// A configuration of the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conf {
    /// Per thread instance its location, or [`FREE`].
    pub locs: Box<[u32]>,
    /// The thread running an atomic block and the block's nesting depth.
    pub atomic: Option<(u32, u32)>,
    /// The thread whose letters come first in the preference order (lockstep order only; always 0
    /// otherwise).
    pub turn: u32,
}

impl Conf {
    /// The location of thread 0 (the only one of a sequential program).
    pub fn main_loc(&self) -> LocId {
        self.locs[0] as LocId
    }
}

/// The thread locations after letter `a` from `locs`, whether or not `a` is enabled there (the
/// location part of [`Interleaving::step`]): the letter's thread moves to the letter's target, a
/// fork puts the forked thread at its entry, a join frees the joined thread.
pub fn locs_after(cfa: &Cfa, enc: &Encoded, locs: &[u32], a: usize) -> Box<[u32]> {
    let letter = &enc.letters[a];
    let mut next: Box<[u32]> = locs.into();
    if let Some(l) = next.get_mut(cfa.thread_of[letter.src] as usize) {
        *l = letter.tgt as u32;
    }
    match letter.kind {
        EdgeKind::Fork { thread } => {
            if let (Some(l), Some(th)) = (
                next.get_mut(thread as usize),
                cfa.threads.get(thread as usize),
            ) {
                *l = th.entry as u32;
            }
        }
        EdgeKind::Join { thread } => {
            if let Some(l) = next.get_mut(thread as usize) {
                *l = FREE;
            }
        }
        _ => {}
    }
    next
}

/// The lockstep turn after letter `a` (of `n` threads): the letter's thread keeps the turn until
/// it reaches a loop head, then the next thread has it.
pub fn turn_after(cfa: &Cfa, enc: &Encoded, n: usize, a: usize) -> u32 {
    let letter = &enc.letters[a];
    let t = cfa.thread_of[letter.src] as usize;
    if cfa.locs[letter.tgt].kind == crate::ir::LocKind::LoopHead {
        ((t + 1) % n.max(1)) as u32
    } else {
        t as u32
    }
}

/// The interleaving product of the threads of `cfa` under the encoding `enc`.
pub struct Interleaving<'a> {
    pub cfa: &'a Cfa,
    pub enc: &'a Encoded,
    /// Is the limit marker accepting? Once a feasible trace has reached it, the engine knows the
    /// bound is too small and only looks for real errors (the marker becomes a dead end); it may
    /// then answer UNSAFE, but never SAFE.
    limit_accepting: std::cell::Cell<bool>,
    /// Lockstep preference order: a thread keeps the turn until it reaches a loop head, then the
    /// next thread has it (so representatives interleave loop iterations one per thread, and
    /// proofs relate the threads' counters); otherwise threads are preferred in index order.
    lockstep: bool,
}

impl<'a> Interleaving<'a> {
    pub fn new(cfa: &'a Cfa, enc: &'a Encoded) -> Self {
        Interleaving {
            cfa,
            enc,
            limit_accepting: std::cell::Cell::new(true),
            lockstep: false,
        }
    }

    /// Uses the lockstep preference order (see the field).
    pub fn with_lockstep(mut self, yes: bool) -> Self {
        self.lockstep = yes;
        self
    }

    /// Makes the limit marker a non-accepting dead end (see the field) and enables the forks
    /// beyond the bound ([`EdgeKind::GhostFork`]).
    pub fn ignore_limit(&self) {
        self.limit_accepting.set(false);
    }

    /// Has [`Self::ignore_limit`] been called?
    pub fn limit_ignored(&self) -> bool {
        !self.limit_accepting.get()
    }

    pub fn initial(&self) -> Conf {
        let mut locs = vec![FREE; self.cfa.threads.len()];
        locs[0] = self.enc.init as u32;
        Conf {
            locs: locs.into_boxed_slice(),
            atomic: None,
            turn: 0,
        }
    }

    /// Is some thread at an error location?
    pub fn error_in(&self, c: &Conf) -> Option<LocId> {
        c.locs
            .iter()
            .filter(|&&l| l != FREE)
            .map(|&l| l as LocId)
            .find(|&l| self.cfa.error_of(l).is_some())
    }

    /// Is some thread at the limit marker (a fork found no free instance)?
    pub fn at_limit(&self, c: &Conf) -> bool {
        self.cfa
            .limit
            .is_some_and(|m| c.locs.iter().any(|&l| l as LocId == m))
    }

    /// The thread that letter `a` moves.
    pub fn thread_of(&self, a: usize) -> u32 {
        self.cfa.thread_of[self.enc.letters[a].src]
    }

    /// The successor of `c` under letter `a`, if `a` is enabled there.
    pub fn step(&self, c: &Conf, a: usize) -> Option<Conf> {
        let letter = &self.enc.letters[a];
        let t = self.cfa.thread_of[letter.src] as usize;
        if c.locs.get(t).copied() != Some(letter.src as u32) {
            return None;
        }
        if let Some((owner, _)) = c.atomic
            && owner as usize != t
        {
            return None;
        }
        let mut next = c.clone();
        next.locs = locs_after(self.cfa, self.enc, &c.locs, a);
        if self.lockstep {
            next.turn = turn_after(self.cfa, self.enc, c.locs.len(), a);
        }
        match letter.kind {
            // Call/return letters belong to nested programs, which the recursive engine explores
            // (`super::recursive`); here they are plain steps.
            EdgeKind::Plain | EdgeKind::Call | EdgeKind::Return { .. } => {}
            EdgeKind::Fork { thread } => {
                let th = &self.cfa.threads[thread as usize];
                let pool = th.pool? as usize;
                let lowest = self.cfa.pools[pool]
                    .threads
                    .iter()
                    .copied()
                    .find(|&u| c.locs[u as usize] == FREE)?;
                if lowest != thread {
                    return None;
                }
            }
            EdgeKind::ForkLimit { pool } | EdgeKind::GhostFork { pool } => {
                let ghost = matches!(letter.kind, EdgeKind::GhostFork { .. });
                if (ghost && self.limit_accepting.get())
                    || self.cfa.pools[pool as usize]
                        .threads
                        .iter()
                        .any(|&u| c.locs[u as usize] == FREE)
                {
                    return None;
                }
            }
            EdgeKind::Join { thread } => {
                let th = &self.cfa.threads[thread as usize];
                if c.locs[thread as usize] != th.exit as u32 || thread as usize == t {
                    return None;
                }
            }
            EdgeKind::AtomicBegin => {
                next.atomic = Some(match c.atomic {
                    Some((o, d)) => (o, d + 1),
                    None => (t as u32, 1),
                });
            }
            EdgeKind::AtomicEnd => {
                next.atomic = match c.atomic {
                    Some((o, d)) if d > 1 => Some((o, d - 1)),
                    _ => None,
                };
            }
        }
        Some(next)
    }
}

impl Automaton for Interleaving<'_> {
    type State = Conf;
    type Letter = usize;

    fn initial_states(&self) -> Vec<Conf> {
        vec![self.initial()]
    }

    fn is_accepting(&self, c: &Conf) -> bool {
        self.error_in(c).is_some() || (self.limit_accepting.get() && self.at_limit(c))
    }

    fn enabled_letters(&self, c: &Conf) -> Vec<usize> {
        if self.is_accepting(c) || self.at_limit(c) {
            return Vec::new();
        }
        self.moves(c)
    }

    fn successor(&self, c: &Conf, a: &usize) -> Vec<Conf> {
        if self.is_accepting(c) || self.at_limit(c) {
            return Vec::new();
        }
        self.step(c, *a).into_iter().collect()
    }

    fn successors(&self, c: &Conf) -> Vec<(usize, Conf)> {
        self.enabled_letters(c)
            .into_iter()
            .filter_map(|a| self.step(c, a).map(|n| (a, n)))
            .collect()
    }
}

impl Interleaving<'_> {
    /// The letters some thread may take at `c` ([`Self::step`] is defined), whether or not `c` is
    /// accepting: only the atomic owner's while it runs an atomic block, the threads in preference
    /// order ([`Conf::turn`] first). [`Automaton::enabled_letters`] is this at non-accepting
    /// configurations below the limit.
    pub fn moves(&self, c: &Conf) -> Vec<usize> {
        let n = c.locs.len();
        let threads: Vec<usize> = match c.atomic {
            Some((o, _)) => vec![o as usize],
            None => (0..n).map(|k| (k + c.turn as usize) % n).collect(),
        };
        let mut out = Vec::new();
        for t in threads {
            let l = c.locs[t];
            if l == FREE {
                continue;
            }
            for &a in &self.enc.out[l as usize] {
                if self.step(c, a).is_some() {
                    out.push(a);
                }
            }
        }
        out
    }
}

/// A program automaton the CEGAR loop can run on: the interleaving product or a reduction of it.
pub trait ProgramAutomaton: Automaton<Letter = usize> {
    /// The configuration of a state.
    fn conf<'s>(&self, s: &'s Self::State) -> &'s Conf;
    /// The product this automaton is (a reduction of).
    fn product(&self) -> &Interleaving<'_>;
    /// Is this a live part computed once ([`Trimmed`]), which does not follow later changes of
    /// the product (the forks that [`Interleaving::ignore_limit`] enables)?
    fn trimmed(&self) -> bool {
        false
    }
}

impl ProgramAutomaton for Interleaving<'_> {
    fn conf<'s>(&self, s: &'s Conf) -> &'s Conf {
        s
    }
    fn product(&self) -> &Interleaving<'_> {
        self
    }
}

impl<A: ProgramAutomaton, I: crate::automata::Independence<usize>> ProgramAutomaton
    for crate::automata::SleepSetReduction<'_, A, I>
{
    fn conf<'s>(&self, s: &'s Self::State) -> &'s Conf {
        self.inner.conf(&s.0)
    }
    fn product(&self) -> &Interleaving<'_> {
        self.inner.product()
    }
}

/// Syntactic independence of two letters (a commutativity relation of the product): letters of
/// different threads whose variables do not conflict (neither writes what the other reads or
/// writes), where at most one is a fork or join and neither opens or closes an atomic block. A fork
/// or join of thread `j` commutes with the letters of other threads: it only changes `j`'s
/// location and reads or writes `j`'s variables (which no other thread's letter accesses).
pub fn independent(cfa: &Cfa, enc: &Encoded, a: usize, b: usize) -> bool {
    let (la, lb) = (&enc.letters[a], &enc.letters[b]);
    let (ta, tb) = (cfa.thread_of[la.src], cfa.thread_of[lb.src]);
    if ta == tb {
        return false;
    }
    let atomic = |k: EdgeKind| matches!(k, EdgeKind::AtomicBegin | EdgeKind::AtomicEnd);
    if atomic(la.kind) || atomic(lb.kind) {
        return false;
    }
    if la.kind != EdgeKind::Plain && lb.kind != EdgeKind::Plain {
        return false;
    }
    // A fork or join of a thread is dependent with that thread's letters.
    let touches = |k: EdgeKind, t: u32| match k {
        EdgeKind::Fork { thread } | EdgeKind::Join { thread } => thread == t,
        _ => false,
    };
    if touches(la.kind, tb) || touches(lb.kind, ta) {
        return false;
    }
    let conflict = |x: &super::transition::TransFormula, y: &super::transition::TransFormula| {
        x.writes
            .iter()
            .any(|v| y.reads.contains(v) || y.writes.contains(v))
    };
    !conflict(&la.tf, &lb.tf) && !conflict(&lb.tf, &la.tf)
}

/// A letter that is a guarded deterministic assignment: `guard ∧ ∧ x' = e_x`, where the guard and
/// every `e_x` are over pre-state variables (a letter of a thread's branch or loop condition
/// followed by assignments). `None` for any other letter (auxiliary variables, havocs, equations
/// that do not define a post-state variable).
struct GuardedAssignment {
    guard: crate::smt::Term,
    values: std::collections::BTreeMap<super::transition::PVar, crate::smt::Term>,
}

fn guarded_assignment(
    voc: &super::transition::Vocabulary,
    letter: &super::blocks::Letter,
) -> Option<GuardedAssignment> {
    use crate::smt::Term;
    if !letter.tf.aux.is_empty() {
        return None;
    }
    let mut guard = Vec::new();
    let mut values = std::collections::BTreeMap::new();
    for c in letter.tf.formula.conjuncts() {
        if c == Term::tt() {
            continue;
        }
        let post = c
            .free_vars()
            .iter()
            .any(|w| matches!(voc.lookup(w), Some((_, true))));
        if !post {
            guard.push(c);
            continue;
        }
        let (x, e) = super::hoare::assignment_of(voc, letter, &c)?;
        if values.insert(x, e).is_some() {
            return None;
        }
    }
    // Havocked variables (written without an equation) make the letter nondeterministic.
    if letter.tf.writes.iter().any(|x| !values.contains_key(x)) {
        return None;
    }
    Some(GuardedAssignment {
        guard: Term::and(guard),
        values,
    })
}

/// Semantic commutativity (Ultimate GemCutter's semantic independence) of two guarded
/// deterministic assignments `a` and `b` ([`GuardedAssignment`]): `a;b` and `b;a` are the same
/// relation — from every pre-state, `a;b` can run iff `b;a` can, and then both compute the same
/// value of every variable either writes. One solver query: `unsat` of the negation. Any other
/// answer means dependent. (Neither disables the other in the program automaton: they belong to
/// different threads, so their control is independent.)
pub fn commute(
    voc: &super::transition::Vocabulary,
    a: &super::blocks::Letter,
    b: &super::blocks::Letter,
    session: &mut crate::smt::Session,
) -> bool {
    use crate::smt::Term;
    use std::collections::HashMap;
    let (Some(ga), Some(gb)) = (guarded_assignment(voc, a), guarded_assignment(voc, b)) else {
        return false;
    };
    // The substitution "pre-state variable ↦ its value after the letter".
    let as_subst = |g: &GuardedAssignment| -> Option<HashMap<crate::smt::Var, Term>> {
        let mut m: HashMap<crate::smt::Var, Term> = HashMap::new();
        for (x, e) in &g.values {
            m.insert(voc.pre(*x).ok()?, e.clone());
        }
        Some(m)
    };
    let (Some(ma), Some(mb)) = (as_subst(&ga), as_subst(&gb)) else {
        return false;
    };
    // a;b runs iff g_a and g_b after a; b;a iff g_b and g_a after b.
    let en_ab = Term::and(vec![ga.guard.clone(), gb.guard.substitute(&ma)]);
    let en_ba = Term::and(vec![gb.guard.clone(), ga.guard.substitute(&mb)]);
    let written: std::collections::BTreeSet<_> =
        ga.values.keys().chain(gb.values.keys()).copied().collect();
    let mut diffs = Vec::new();
    for x in written {
        let Ok(v) = voc.pre(x) else {
            return false;
        };
        let pre = Term::var(&v);
        // After a;b: b's value (over the state after a) or a's value.
        let ab = match gb.values.get(&x) {
            Some(e) => e.substitute(&ma),
            None => ma.get(&v).cloned().unwrap_or_else(|| pre.clone()),
        };
        let ba = match ga.values.get(&x) {
            Some(e) => e.substitute(&mb),
            None => mb.get(&v).cloned().unwrap_or_else(|| pre.clone()),
        };
        if ab != ba {
            diffs.push(Term::not(&Term::eq(&ab, &ba)));
        }
    }
    let same_guard = en_ab == en_ba;
    if diffs.is_empty() && same_guard {
        return true;
    }
    // Violations: one order runs and the other does not, or both run to different states.
    let mut bad = Vec::new();
    if !same_guard {
        bad.push(Term::not(&Term::eq(&en_ab, &en_ba)));
    }
    if !diffs.is_empty() {
        bad.push(Term::and(vec![en_ab, Term::or(diffs)]));
    }
    session.push();
    session.assert(&Term::or(bad));
    let r = session.check_sat();
    session.pop();
    r == crate::smt::SatResult::Unsat
}

/// The independence relation the reductions use, in tiers: syntactic ([`independent`]) first;
/// letters of different threads that conflict syntactically but are both plain, total and
/// deterministic are then checked for semantic commutativity ([`commute`], one solver query in a
/// session of its own). Answers are cached per unordered pair; the counters say how many pairs
/// each tier decided (`--stats`).
pub struct Commutativity<'a, 'p> {
    voc: &'a super::transition::Vocabulary<'p>,
    cfa: &'a Cfa,
    enc: &'a Encoded,
    session: std::cell::RefCell<Option<crate::smt::Session>>,
    cache: std::cell::RefCell<std::collections::HashMap<(usize, usize), bool>>,
    /// Pairs decided by the syntactic check, by a solver query, and answered from the cache.
    pub counts: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a, 'p> Commutativity<'a, 'p> {
    /// `session` is used for the semantic checks (none: syntactic only).
    pub fn new(
        voc: &'a super::transition::Vocabulary<'p>,
        cfa: &'a Cfa,
        enc: &'a Encoded,
        session: Option<crate::smt::Session>,
    ) -> Self {
        Commutativity {
            voc,
            cfa,
            enc,
            session: std::cell::RefCell::new(session),
            cache: Default::default(),
            counts: Default::default(),
        }
    }

    /// Are letters `a` and `b` independent (they commute, and neither disables the other)?
    pub fn independent(&self, a: usize, b: usize) -> bool {
        let key = (a.min(b), a.max(b));
        let (syn, sem, hit) = self.counts.get();
        if let Some(&r) = self.cache.borrow().get(&key) {
            self.counts.set((syn, sem, hit + 1));
            return r;
        }
        let r = self.decide(a, b);
        self.cache.borrow_mut().insert(key, r);
        r
    }

    fn decide(&self, a: usize, b: usize) -> bool {
        let (syn, sem, hit) = self.counts.get();
        let (cfa, enc) = (self.cfa, self.enc);
        let (la, lb) = (&enc.letters[a], &enc.letters[b]);
        let semantic_candidate = cfa.thread_of[la.src] != cfa.thread_of[lb.src]
            && la.kind == EdgeKind::Plain
            && lb.kind == EdgeKind::Plain;
        let syntactic = independent(cfa, enc, a, b);
        if syntactic || !semantic_candidate {
            self.counts.set((syn + 1, sem, hit));
            return syntactic;
        }
        let mut guard = self.session.borrow_mut();
        let Some(session) = guard.as_mut() else {
            self.counts.set((syn + 1, sem, hit));
            return false;
        };
        self.counts.set((syn, sem + 1, hit));
        commute(self.voc, la, lb, session)
    }

    /// The solver counters of the semantic checks' session.
    pub fn solver_stats(&self) -> Option<(usize, std::time::Duration)> {
        self.session
            .borrow()
            .as_ref()
            .map(|s| (s.stats().checks as usize, s.stats().solver_time))
    }
}

/// Thread-based persistent sets (Godefroid 1996; Ultimate GemCutter's `ThreadBasedPersistentSets`,
/// design notes §5.2): at each configuration only the enabled letters of a set `T` of threads are
/// explored. `T` is closed under
/// * **error conflicts**: every thread that is in use and may still reach an error location or the
///   limit marker (itself or through the threads it may fork) is in `T` — unless it reaches none
///   without a join of the seed thread `u` (itself or through the threads it forks before one),
///   while `u` is in use, not at its exit, and has only enabled letters at its location (*guarded
///   by a join*: the main thread that asserts after joining its workers; the futures of the other
///   conflicts are then cut at `u`'s joins too);
/// * **enabling conflicts**: a letter of a thread in `T` that is not enabled brings in whoever may
///   enable it: a join of `v` brings `v` (if `v` is free: every thread that may fork it); a fork of
///   an instance that is not the lowest free one, every thread that may fork or join an instance
///   of that statement; the "all instances in use" letter, every thread that may fork one (threads
///   "that may" are those in use with such a letter in their future);
/// * **commutativity conflicts**: a thread (in use) with a future letter — any letter reachable from
///   its location in its own graph, or in the graph of a thread it may fork — dependent with an
///   enabled letter of `T` is in `T`.
///
/// Among the seeds (each enabled thread) the smallest set is taken (ties: preference order).
///
/// Why every error configuration stays reachable (by an equivalent word, so a proof of the reduced
/// language covers every error trace): take an error word `w` from `c`. No thread of `T` moves in
/// `w` before `w`'s first letter of `P` (their letters at `c` are in `P`, or joins of threads of `T`,
/// which cannot move either). If `w` has no letter of `P`, the error is reached by a thread outside
/// `T` or one it forked — but every thread that may reach an error is in `T`, except those guarded
/// by a join of the seed `u`, which reach one only after joining `u`: that needs `u` at its exit,
/// so `u` moves first, by a letter of its location (all enabled, so in `P`). (For the same reason
/// no letter behind a join of `u` occurs before `w`'s first letter of `P`: the futures below may
/// stop at `u`'s joins.) Otherwise the first
/// letter `a ∈ P` in `w` is independent of every letter before it (they are future letters of
/// threads outside `T`), so `w ≡ a·w'`, and induction on the length of `w` applies from `c·a`.
/// Independence is any commutativity relation of the product — [`independent`], or
/// [`Commutativity`] (syntactic, then semantic): a static relation of letter pairs under which
/// `a;b` and `b;a` denote the same relation (the lockstep turn is part of the configuration but
/// changes no enabledness).
pub struct PersistentReduction<'a, 'b, I> {
    pub inner: &'b Interleaving<'a>,
    /// The independence relation (a commutativity relation of the product).
    indep: I,
    /// Compatible with the preference order: only the first enabled thread (in the order of
    /// [`Interleaving::enabled_letters`]) seeds the set, so the set always contains the preferred
    /// letter (needed when sleep sets are combined with persistent sets, so that the reduced words
    /// follow the preference order, e.g. lockstep).
    compatible: bool,
    /// Per location: the letters reachable from it in its thread's graph and in the graphs of the
    /// threads it may fork (sorted), and whether an error location or the limit marker is reachable.
    future: Vec<(Vec<usize>, bool)>,
    /// Per location `l` and thread `u` joined in its future: as `future`, along the paths that do
    /// not join `u` (the future of a thread while `u` has not reached its exit).
    before_join: std::collections::HashMap<(usize, u32), (Vec<usize>, bool)>,
    /// Persistent sets per configuration and [`Interleaving::limit_ignored`] (which enables the
    /// forks beyond the bound).
    cache: std::cell::RefCell<std::collections::HashMap<(Conf, bool), Vec<usize>>>,
    indep_cache: std::cell::RefCell<std::collections::HashMap<(usize, usize), bool>>,
}

impl<'a, 'b, I: crate::automata::Independence<usize>> PersistentReduction<'a, 'b, I> {
    /// Persistent sets of `inner` under `indep`; `compatible`: see the field.
    pub fn new(inner: &'b Interleaving<'a>, indep: I, compatible: bool) -> Self {
        let (cfa, enc) = (inner.cfa, inner.enc);
        let n = cfa.locs.len();
        // The letters reachable from `l` (and whether an error location or the limit marker is),
        // along letters other than the joins of `avoid`, and from a fork letter into the forked
        // thread's entry. A search over the (small) location graph.
        let reach = |l: usize, avoid: Option<u32>| -> (Vec<usize>, bool) {
            let mut seen = vec![false; n];
            let mut stack = vec![l];
            let mut letters = std::collections::BTreeSet::new();
            let mut error = false;
            while let Some(q) = stack.pop() {
                if std::mem::replace(&mut seen[q], true) {
                    continue;
                }
                error |= cfa.error_of(q).is_some() || cfa.limit == Some(q);
                for &a in &enc.out[q] {
                    let letter = &enc.letters[a];
                    if matches!(letter.kind, EdgeKind::Join { thread } if Some(thread) == avoid) {
                        continue;
                    }
                    letters.insert(a);
                    stack.push(letter.tgt);
                    if let EdgeKind::Fork { thread } = letter.kind
                        && let Some(th) = cfa.threads.get(thread as usize)
                    {
                        stack.push(th.entry);
                    }
                }
            }
            (letters.into_iter().collect(), error)
        };
        let future: Vec<(Vec<usize>, bool)> = (0..n).map(|l| reach(l, None)).collect();
        // The same without the joins of each thread joined in a location's future.
        let mut before_join = std::collections::HashMap::new();
        for (l, (letters, _)) in future.iter().enumerate() {
            for &a in letters {
                if let EdgeKind::Join { thread } = enc.letters[a].kind {
                    before_join
                        .entry((l, thread))
                        .or_insert_with(|| reach(l, Some(thread)));
                }
            }
        }
        PersistentReduction {
            inner,
            indep,
            compatible,
            future,
            before_join,
            cache: Default::default(),
            indep_cache: Default::default(),
        }
    }

    fn independent(&self, a: usize, b: usize) -> bool {
        let key = (a.min(b), a.max(b));
        if let Some(&r) = self.indep_cache.borrow().get(&key) {
            return r;
        }
        let r = self.indep.independent(&a, &b);
        self.indep_cache.borrow_mut().insert(key, r);
        r
    }

    /// The persistent set of `c` (a subset of its enabled letters, in their order).
    fn persistent(&self, c: &Conf) -> Vec<usize> {
        let key = (c.clone(), self.inner.limit_ignored());
        if let Some(p) = self.cache.borrow().get(&key) {
            return p.clone();
        }
        let enabled = self.inner.enabled_letters(c);
        let p = self.compute(c, &enabled);
        self.cache.borrow_mut().insert(key, p.clone());
        p
    }

    fn compute(&self, c: &Conf, enabled: &[usize]) -> Vec<usize> {
        let (cfa, enc) = (self.inner.cfa, self.inner.enc);
        let n = c.locs.len();
        let thread = |a: usize| cfa.thread_of[enc.letters[a].src] as usize;
        let mut seeds: Vec<usize> = Vec::new();
        for &a in enabled {
            if !seeds.contains(&thread(a)) {
                seeds.push(thread(a));
            }
        }
        if c.atomic.is_some() || seeds.len() <= 1 {
            return enabled.to_vec();
        }
        if self.compatible {
            seeds.truncate(1);
        }
        let in_use = |t: usize| c.locs[t] != FREE;
        let mut best: Option<Vec<usize>> = None;
        for &seed in &seeds {
            let mut in_t = vec![false; n];
            let mut todo = vec![seed];
            // The seed must move before its thread can be joined: when its letters here are all
            // enabled (so all in `P`), a word without letters of `P` joins no instance of it, and
            // the other threads' futures end at its joins (see the comment of the type).
            let seed_loc = c.locs[seed] as usize;
            let seed_blocks_joins = in_use(seed)
                && cfa.threads.get(seed).is_some_and(|th| th.exit != seed_loc)
                && enc.out[seed_loc].iter().all(|a| enabled.contains(a));
            let future_of = |w: usize| -> &(Vec<usize>, bool) {
                let l = c.locs[w] as usize;
                seed_blocks_joins
                    .then(|| self.before_join.get(&(l, seed as u32)))
                    .flatten()
                    .unwrap_or(&self.future[l])
            };
            for t in 0..n {
                if in_use(t) && future_of(t).1 {
                    todo.push(t);
                }
            }
            let mut give_up = false;
            while let Some(u) = todo.pop() {
                if std::mem::replace(&mut in_t[u], true) {
                    continue;
                }
                // The threads in use with a future letter of the given kind.
                let having = |kind: &dyn Fn(EdgeKind) -> bool| -> Vec<usize> {
                    (0..n)
                        .filter(|&w| {
                            in_use(w) && future_of(w).0.iter().any(|&b| kind(enc.letters[b].kind))
                        })
                        .collect()
                };
                if !in_use(u) {
                    // A join waits for a free thread: whoever may fork it (directly or through
                    // the threads it forks) joins `T`, so it cannot start outside `P`.
                    todo.extend(having(&|k| k == EdgeKind::Fork { thread: u as u32 }));
                    continue;
                }
                let loc = c.locs[u] as usize;
                for &a in &enc.out[loc] {
                    if enabled.contains(&a) {
                        // Commutativity conflicts with the threads outside `T`.
                        for (w, &inside) in in_t.iter().enumerate() {
                            if inside || !in_use(w) || todo.contains(&w) {
                                continue;
                            }
                            let fut = &future_of(w).0;
                            if fut.iter().any(|&b| !self.independent(a, b)) {
                                todo.push(w);
                            }
                        }
                    } else {
                        // A letter that is not enabled: whoever may enable it joins `T`.
                        let pool_of = |t: u32| cfa.threads.get(t as usize).and_then(|th| th.pool);
                        match enc.letters[a].kind {
                            EdgeKind::Join { thread: v } => todo.push(v as usize),
                            // All instances in use: needs forks of the statement's instances.
                            EdgeKind::ForkLimit { pool } | EdgeKind::GhostFork { pool } => todo.extend(having(&|k| {
                                matches!(k, EdgeKind::Fork { thread } if pool_of(thread) == Some(pool))
                            })),
                            // The lowest free instance: needs forks or joins of the instances.
                            EdgeKind::Fork { thread } => {
                                let pool = pool_of(thread);
                                todo.extend(having(&|k| match k {
                                    EdgeKind::Fork { thread: x } | EdgeKind::Join { thread: x } => {
                                        pool_of(x) == pool
                                    }
                                    _ => false,
                                }))
                            }
                            _ => give_up = true,
                        }
                    }
                }
                if give_up {
                    break;
                }
            }
            if give_up {
                return enabled.to_vec();
            }
            let p: Vec<usize> = enabled
                .iter()
                .copied()
                .filter(|&a| in_t[thread(a)])
                .collect();
            if !p.is_empty() && best.as_ref().is_none_or(|b| p.len() < b.len()) {
                best = Some(p);
            }
        }
        best.unwrap_or_else(|| enabled.to_vec())
    }
}

impl<I: crate::automata::Independence<usize>> Automaton for PersistentReduction<'_, '_, I> {
    type State = Conf;
    type Letter = usize;

    fn initial_states(&self) -> Vec<Conf> {
        self.inner.initial_states()
    }

    fn is_accepting(&self, c: &Conf) -> bool {
        self.inner.is_accepting(c)
    }

    fn enabled_letters(&self, c: &Conf) -> Vec<usize> {
        self.persistent(c)
    }

    fn successor(&self, c: &Conf, a: &usize) -> Vec<Conf> {
        if !self.persistent(c).contains(a) {
            return Vec::new();
        }
        self.inner.successor(c, a)
    }

    fn successors(&self, c: &Conf) -> Vec<(usize, Conf)> {
        self.persistent(c)
            .into_iter()
            .filter_map(|a| self.inner.step(c, a).map(|n| (a, n)))
            .collect()
    }
}

impl<I: crate::automata::Independence<usize>> ProgramAutomaton for PersistentReduction<'_, '_, I> {
    fn conf<'s>(&self, s: &'s Conf) -> &'s Conf {
        s
    }
    fn product(&self) -> &Interleaving<'_> {
        self.inner
    }
}

/// A program automaton restricted to its *live* states: those reachable in `inner` from which an
/// accepting state is reachable, computed once on the data-free control graph
/// ([`crate::automata::explore`], [`crate::automata::remove_dead_ends`]). The other states cannot
/// lead to an error under any data, so removing them changes no accepting run — for instance the
/// states of a sleep-set reduction whose sleep set blocks a thread for ever (the lockstep order
/// leaves many). Acceptance is still asked of `inner`, whose limit marker may stop being accepting
/// during a run ([`Interleaving::ignore_limit`]).
pub struct Trimmed<'a, A: ProgramAutomaton> {
    pub inner: &'a A,
    pub nfa: crate::automata::Nfa<A::State, usize>,
}

impl<'a, A: ProgramAutomaton> Trimmed<'a, A> {
    /// The live part of `inner`, or `None` if exploring it exceeds `budget`.
    pub fn new(inner: &'a A, budget: &crate::automata::Budget) -> Option<Self> {
        let all = crate::automata::explore(inner, budget).ok()?;
        Some(Trimmed {
            inner,
            nfa: crate::automata::remove_dead_ends(&all),
        })
    }
}

impl<A: ProgramAutomaton> Automaton for Trimmed<'_, A> {
    type State = A::State;
    type Letter = usize;

    fn initial_states(&self) -> Vec<A::State> {
        self.nfa.initial().cloned().collect()
    }

    fn is_accepting(&self, s: &A::State) -> bool {
        self.inner.is_accepting(s)
    }

    fn successors(&self, s: &A::State) -> Vec<(usize, A::State)> {
        self.nfa.outgoing(s).map(|(a, t)| (*a, t.clone())).collect()
    }
}

impl<A: ProgramAutomaton> ProgramAutomaton for Trimmed<'_, A> {
    fn conf<'s>(&self, s: &'s A::State) -> &'s Conf {
        self.inner.conf(s)
    }
    fn product(&self) -> &Interleaving<'_> {
        self.inner.product()
    }
    fn trimmed(&self) -> bool {
        true
    }
}
