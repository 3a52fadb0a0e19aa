//! Büchi difference `A \ B` for a semi-deterministic Büchi automaton `B`, by NCSB complementation,
//! as a lazy view.
//!
//! A Büchi automaton is *semi-deterministic* (SDBA) when its states split into a nondeterministic
//! part `Q1` and a deterministic part `Q2` such that every accepting state is in `Q2`, no transition
//! leaves `Q2` for `Q1`, and a state of `Q2` has at most one successor per letter. Büchi Automizer's
//! rank certificates are SDBAs (the stem part nondeterministic, the loop part deterministic), and
//! the refinement subtracts them (Heizmann, Hoenicke, Podelski, "Termination Analysis by Learning
//! Terminating Programs", CAV 2014).
//!
//! **Complementation: NCSB** (Blahoudek, Heizmann, Schewe, Strejček, Tsai, "Complementing
//! Semi-deterministic Büchi Automata", TACAS 2016; Chen et al., "Advanced Automata-based Algorithms
//! for Program Termination Checking", PLDI 2018, for the on-the-fly difference). A state of the
//! complement is a tuple `(N, C, S, B)`: `N ⊆ Q1` the runs still in the nondeterministic part, `C ⊆
//! Q2` the deterministic runs that may still visit accepting states, `S ⊆ Q2` ("safe") the runs
//! guessed never to visit an accepting state again, disjoint from `C`, and `B ⊆ C` the runs of `C`
//! since the last breakpoint. On letter `x` the successors are all `(N', C', S', B')` with
//! - `N' = δ(N, x) ∩ Q1`;
//! - `S' = δ(S, x) ∪ X` and `C' = (δ(C, x) ∪ (δ(N, x) ∩ Q2)) \ S'` for every set `X` of
//!   non-accepting states of `δ(B, x) \ δ(S, x)` (the guesses; none when `B = ∅`), and no
//!   successor at all if `δ(S, x)` contains an accepting state (a safe run may not visit one);
//! - `B' = C'` if `B = ∅` (a breakpoint), else `B' = δ(B, x) \ S'`.
//!
//! These are the *lazy* guesses of Chen et al.: the original NCSB lets any run of `C` move to `S`
//! at any step; here only runs of the breakpoint move, and none at a reset, which gives fewer
//! successors and the same language (a safe run outside `B` moves once the next reset has put it
//! into `B`).
//!
//! The initial state is `(I ∩ Q1, I ∩ Q2, ∅, I ∩ Q2)`; a state is accepting iff `B = ∅`. Why this is
//! the complement: a run of `B` that visits accepting states infinitely often is eventually a
//! deterministic run that is tracked in `C ∪ S` forever; in `S` it would be killed, so it stays in
//! `C`, and after the next breakpoint in `B`, which is then never empty again. Conversely, if no run
//! is accepting, the guess "move each deterministic run to `S` right after its last accepting
//! state (or, lazily, at the first step after that in which it is in `B`)" is never killed, and
//! every run in `B` eventually leaves `C`, so `B` empties infinitely often.
//!
//! **The difference** pairs a state of `A` with a complement state and a track bit (the standard
//! intersection of two Büchi conditions): the track waits for an accepting state of `A`, then for an
//! accepting complement state, and a product state is accepting iff it waits for `A` and `A`'s state
//! is accepting. `A`'s letters drive the search: the subtrahend is asked only for the letters `A`
//! enables, so `B` may be an on-demand automaton over a large alphabet (it is queried with `&mut
//! self` through a `RefCell`, like [`Difference`](super::Difference)'s subtrahend).
//!
//! Invariant: the infinite words accepted by `BuchiDifference(A, B)` are exactly those accepted by
//! `A` and not by `B` (checked against a brute-force reference on ultimately periodic words by
//! `tests/automata.rs`); a subtrahend that is not semi-deterministic is reported as an error, never
//! complemented wrongly.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::hash::Hash;

use super::automaton::{FallibleAutomaton, Successors};

/// A semi-deterministic Büchi automaton with on-demand, fallible successors (module comment).
pub trait SemiDeterministicAutomaton {
    /// States of the automaton.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// Letters of the alphabet.
    type Letter: Clone + Eq + Hash + Ord + Debug;
    /// Why a successor could not be computed.
    type Error;
    /// The initial states, in a deterministic order.
    fn initial_states(&self) -> Vec<Self::State>;
    /// Whether `s` is accepting (only states of the deterministic part may be).
    fn is_accepting(&self, s: &Self::State) -> bool;
    /// Whether `s` belongs to the deterministic part `Q2`.
    fn is_deterministic(&self, s: &Self::State) -> bool;
    /// The successors of `s` under `a`, in a deterministic order (at most one, in `Q2`, when `s`
    /// is in `Q2`).
    fn successors(
        &mut self,
        s: &Self::State,
        a: &Self::Letter,
    ) -> Result<Vec<Self::State>, Self::Error>;
}

impl<B: SemiDeterministicAutomaton + ?Sized> SemiDeterministicAutomaton for &mut B {
    type State = B::State;
    type Letter = B::Letter;
    type Error = B::Error;
    fn initial_states(&self) -> Vec<Self::State> {
        (**self).initial_states()
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        (**self).is_accepting(s)
    }
    fn is_deterministic(&self, s: &Self::State) -> bool {
        (**self).is_deterministic(s)
    }
    fn successors(
        &mut self,
        s: &Self::State,
        a: &Self::Letter,
    ) -> Result<Vec<Self::State>, Self::Error> {
        (**self).successors(s, a)
    }
}

/// A state of the NCSB complement (module comment).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ncsb<S: Ord> {
    pub n: BTreeSet<S>,
    pub c: BTreeSet<S>,
    pub s: BTreeSet<S>,
    pub b: BTreeSet<S>,
}

/// Why a successor of the difference could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NcsbError<E> {
    /// An operand failed (its own error).
    Operand(E),
    /// The subtrahend broke the semi-determinism contract (the offending state, printed).
    NotSemiDeterministic(String),
    /// More guesses at one step than [`MAX_GUESSES`] allows (`2^n` successors).
    TooManyGuesses(usize),
}

impl<E: std::fmt::Display> std::fmt::Display for NcsbError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NcsbError::Operand(e) => write!(f, "{e}"),
            NcsbError::NotSemiDeterministic(s) => {
                write!(f, "the subtrahend is not semi-deterministic at {s}")
            }
            NcsbError::TooManyGuesses(n) => write!(f, "{n} NCSB guesses at one step"),
        }
    }
}

/// States that may move from `C` to `S` at one step at most (each doubles the successors).
pub const MAX_GUESSES: usize = 12;

/// The lazy view `A \ B` of Büchi automata for a semi-deterministic `B` (module comment). States
/// are `(a, complement state, waits for the complement)`.
pub struct BuchiDifference<A, B> {
    minuend: A,
    subtrahend: RefCell<B>,
}

/// The state type of a [`BuchiDifference`].
pub type BuchiDifferenceState<A, B> = (
    <A as FallibleAutomaton>::State,
    Ncsb<<B as SemiDeterministicAutomaton>::State>,
    bool,
);

impl<A, B> BuchiDifference<A, B>
where
    A: FallibleAutomaton,
    B: SemiDeterministicAutomaton<Letter = A::Letter, Error = A::Error>,
{
    /// The difference view; pass `&mut B` to keep ownership of the subtrahend.
    pub fn new(minuend: A, subtrahend: B) -> Self {
        BuchiDifference {
            minuend,
            subtrahend: RefCell::new(subtrahend),
        }
    }

    /// The operands; the subtrahend keeps what it computed during the exploration.
    pub fn into_parts(self) -> (A, B) {
        (self.minuend, self.subtrahend.into_inner())
    }

    /// The initial complement state.
    fn initial_ncsb(&self) -> Result<Ncsb<B::State>, NcsbError<A::Error>> {
        let b = self.subtrahend.borrow();
        let mut q = Ncsb {
            n: BTreeSet::new(),
            c: BTreeSet::new(),
            s: BTreeSet::new(),
            b: BTreeSet::new(),
        };
        for s in b.initial_states() {
            if b.is_deterministic(&s) {
                q.c.insert(s.clone());
                q.b.insert(s);
            } else if b.is_accepting(&s) {
                return Err(NcsbError::NotSemiDeterministic(format!("{s:?}")));
            } else {
                q.n.insert(s);
            }
        }
        Ok(q)
    }

    /// The complement's successors of `q` under `x` (module comment), in a deterministic order.
    fn ncsb_successors(
        &self,
        q: &Ncsb<B::State>,
        x: &A::Letter,
    ) -> Result<Vec<Ncsb<B::State>>, NcsbError<A::Error>> {
        let mut b = self.subtrahend.borrow_mut();
        let mut n2 = BTreeSet::new();
        let mut from_n = BTreeSet::new();
        for p in &q.n {
            for t in b.successors(p, x).map_err(NcsbError::Operand)? {
                if b.is_deterministic(&t) {
                    from_n.insert(t);
                } else if b.is_accepting(&t) {
                    return Err(NcsbError::NotSemiDeterministic(format!("{t:?}")));
                } else {
                    n2.insert(t);
                }
            }
        }
        // Successors inside the deterministic part: at most one each, in the deterministic part.
        let mut det =
            |set: &BTreeSet<B::State>| -> Result<BTreeSet<B::State>, NcsbError<A::Error>> {
                let mut out = BTreeSet::new();
                for p in set {
                    let ts = b.successors(p, x).map_err(NcsbError::Operand)?;
                    if ts.len() > 1 || ts.iter().any(|t| !b.is_deterministic(t)) {
                        return Err(NcsbError::NotSemiDeterministic(format!("{p:?}")));
                    }
                    out.extend(ts);
                }
                Ok(out)
            };
        let safe = det(&q.s)?;
        let checked = det(&q.c)?;
        let breakpoint = det(&q.b)?;
        if safe.iter().any(|t| b.is_accepting(t)) {
            return Ok(Vec::new());
        }
        let open: BTreeSet<B::State> = checked
            .union(&from_n)
            .filter(|t| !safe.contains(*t))
            .cloned()
            .collect();
        // Lazy guesses: only runs of the breakpoint move to `S`, and none at a reset.
        let free: Vec<&B::State> = breakpoint
            .iter()
            .filter(|t| !safe.contains(*t) && !b.is_accepting(t))
            .collect();
        if free.len() > MAX_GUESSES {
            return Err(NcsbError::TooManyGuesses(free.len()));
        }
        let mut out = Vec::with_capacity(1 << free.len());
        for mask in 0u32..(1u32 << free.len()) {
            let moved: BTreeSet<B::State> = free
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, t)| (*t).clone())
                .collect();
            let s2: BTreeSet<B::State> = safe.union(&moved).cloned().collect();
            let c2: BTreeSet<B::State> = open.difference(&moved).cloned().collect();
            let b2 = if q.b.is_empty() {
                c2.clone()
            } else {
                breakpoint.difference(&s2).cloned().collect()
            };
            out.push(Ncsb {
                n: n2.clone(),
                c: c2,
                s: s2,
                b: b2,
            });
        }
        Ok(out)
    }

    /// The track bit after a state: it switches to the complement once `A` accepted, and back once
    /// the complement accepted.
    fn next_track(&self, (a, q, waits): &BuchiDifferenceState<A, B>) -> bool {
        if *waits {
            !q.b.is_empty()
        } else {
            self.minuend.is_accepting(a)
        }
    }
}

impl<A, B> FallibleAutomaton for BuchiDifference<A, B>
where
    A: FallibleAutomaton,
    B: SemiDeterministicAutomaton<Letter = A::Letter, Error = A::Error>,
{
    type State = BuchiDifferenceState<A, B>;
    type Letter = A::Letter;
    type Error = NcsbError<A::Error>;

    fn initial_states(&self) -> Vec<Self::State> {
        // A subtrahend that is not semi-deterministic at its initial states: the error surfaces at
        // the first successor query (the trait gives initial states no error).
        let q = self.initial_ncsb().unwrap_or_else(|_| Ncsb {
            n: BTreeSet::new(),
            c: BTreeSet::new(),
            s: BTreeSet::new(),
            b: BTreeSet::new(),
        });
        self.minuend
            .initial_states()
            .into_iter()
            .map(|a| (a, q.clone(), false))
            .collect()
    }

    fn is_accepting(&self, (a, _, waits): &Self::State) -> bool {
        !*waits && self.minuend.is_accepting(a)
    }

    fn try_successors(
        &self,
        state: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error> {
        self.initial_ncsb()?;
        let track = self.next_track(state);
        let mut out = Vec::new();
        for (x, a2) in self
            .minuend
            .try_successors(&state.0)
            .map_err(NcsbError::Operand)?
        {
            for q2 in self.ncsb_successors(&state.1, &x)? {
                out.push((x.clone(), (a2.clone(), q2, track)));
            }
        }
        Ok(out)
    }

    fn try_enabled_letters(&self, state: &Self::State) -> Result<Vec<Self::Letter>, Self::Error> {
        self.minuend
            .try_enabled_letters(&state.0)
            .map_err(NcsbError::Operand)
    }

    fn try_successor(
        &self,
        state: &Self::State,
        letter: &Self::Letter,
    ) -> Result<Vec<Self::State>, Self::Error> {
        self.initial_ncsb()?;
        let targets = self
            .minuend
            .try_successor(&state.0, letter)
            .map_err(NcsbError::Operand)?;
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        let track = self.next_track(state);
        let qs = self.ncsb_successors(&state.1, letter)?;
        let mut out = Vec::with_capacity(targets.len() * qs.len());
        for a2 in targets {
            for q2 in &qs {
                out.push((a2.clone(), q2.clone(), track));
            }
        }
        Ok(out)
    }
}
