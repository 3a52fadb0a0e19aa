//! The automaton traits: on-demand successors, generic over states and letters.
//!
//! Computes nothing by itself; it fixes the contracts every other module relies on. Modelled on
//! Ultimate's `INwaOutgoingTransitionProvider` ladder, without the state set: an automaton only
//! answers "what are the initial states", "is this state accepting" and "what are the successors of
//! this state", so products, differences and Floyd–Hoare automata can be lazy views.
//!
//! Invariant for all implementations: answers are *pure functions of the state* for the lifetime of
//! one exploration (an on-demand automaton may compute an answer late, but must then keep it), and
//! `successors` returns each (letter, state) pair in a deterministic order.
//!
//! **Per-letter queries.** Besides all successors of a state, [`Automaton`] and
//! [`FallibleAutomaton`] answer `enabled_letters(s)` and `successor(s, letter)` (Ultimate's
//! `INwaOutgoingLetterAndTransitionProvider`). Both default to filtering `successors`, so every
//! implementation gets them for free; lazy views ([`Intersection`](super::Intersection),
//! [`Difference`](super::Difference)) override them so that a search which explores one letter at a
//! time (the DFS of [`dfs`](super::dfs), the lasso search of [`lasso`](super::lasso)) computes only
//! the successors it asks for. Contract between the three: every letter of `successors(s)` occurs in
//! `enabled_letters(s)` (which may be a *superset*: a letter may have no successor), and
//! `successor(s, x)` lists exactly the targets of the pairs `(x, t)` of `successors(s)`, in the same
//! order.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::fmt::Debug;
use std::hash::Hash;

/// The outgoing transitions of a state: (letter, target) pairs.
pub type Successors<S, L> = Vec<(L, S)>;

/// A (possibly nondeterministic) finite automaton with on-demand successors.
///
/// For the program automaton, `successors(s)` lists all enabled letters (program edges, later
/// possibly tagged with thread ids) of location `s` with their target locations. The order of the
/// returned vector is the tie-breaking order of breadth-first search.
pub trait Automaton {
    /// States of the automaton.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// Letters of the alphabet.
    type Letter: Clone + Eq + Hash + Ord + Debug;
    /// The initial states, in a deterministic order.
    fn initial_states(&self) -> Vec<Self::State>;
    /// Whether `s` is accepting (an error location, for the program automaton).
    fn is_accepting(&self, s: &Self::State) -> bool;
    /// All outgoing transitions of `s`, as (letter, target) pairs in a deterministic order.
    fn successors(&self, s: &Self::State) -> Vec<(Self::Letter, Self::State)>;
    /// The letters enabled in `s` (a superset of the letters of `successors(s)`), in a
    /// deterministic order. Defaults to the letters of `successors(s)` in order of first occurrence.
    fn enabled_letters(&self, s: &Self::State) -> Vec<Self::Letter> {
        letters_of(&self.successors(s))
    }
    /// The targets of `s` under `letter`, in the order `successors(s)` lists them. Defaults to
    /// filtering `successors(s)`.
    fn successor(&self, s: &Self::State, letter: &Self::Letter) -> Vec<Self::State> {
        targets_of(self.successors(s), letter)
    }
}

/// The letters of `succ` in order of first occurrence, without duplicates.
pub(crate) fn letters_of<S, L: Ord + Clone>(succ: &[(L, S)]) -> Vec<L> {
    let mut seen = BTreeSet::new();
    succ.iter()
        .filter(|(l, _)| seen.insert(l))
        .map(|(l, _)| l.clone())
        .collect()
}

/// The targets of the pairs of `succ` whose letter is `letter`, in order.
pub(crate) fn targets_of<S, L: PartialEq>(succ: Vec<(L, S)>, letter: &L) -> Vec<S> {
    succ.into_iter()
        .filter(|(l, _)| l == letter)
        .map(|(_, t)| t)
        .collect()
}

impl<A: Automaton + ?Sized> Automaton for &A {
    type State = A::State;
    type Letter = A::Letter;
    fn initial_states(&self) -> Vec<Self::State> {
        (**self).initial_states()
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        (**self).is_accepting(s)
    }
    fn successors(&self, s: &Self::State) -> Vec<(Self::Letter, Self::State)> {
        (**self).successors(s)
    }
    fn enabled_letters(&self, s: &Self::State) -> Vec<Self::Letter> {
        (**self).enabled_letters(s)
    }
    fn successor(&self, s: &Self::State, letter: &Self::Letter) -> Vec<Self::State> {
        (**self).successor(s, letter)
    }
}

/// A deterministic, **total** automaton: the subtrahend of a [`Difference`](super::Difference).
///
/// `successor` always yields exactly one state, or an error; there is no "undefined" successor. A
/// Floyd–Hoare automaton is total by construction: if no predicate of the interpolant automaton
/// holds after the letter, the successor is the `true` predicate (which is also the initial state).
///
/// `successor` takes `&mut self` because on-demand construction computes (with solver calls) and
/// caches transitions while the difference is being explored. After the exploration the caller gets
/// the automaton back (see [`Difference::into_parts`](super::Difference::into_parts)) and may freeze
/// it into a read-only type.
///
/// **Trap contract.** If `is_trap(s)` returns true, then `s` is accepting and `successor(s, a) == s`
/// for every letter `a` (the Floyd–Hoare `false` state). [`Difference`](super::Difference) relies on
/// this to never expand product states whose second component is a trap.
pub trait DeterministicAutomaton {
    /// States of the automaton.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// Letters of the alphabet.
    type Letter: Clone + Eq + Hash + Ord + Debug;
    /// Why a successor could not be computed (solver unknown, timeout, a missing transition).
    type Error;
    /// The unique initial state.
    fn initial(&self) -> Self::State;
    /// Whether `s` is accepting (the `false` predicate, for a Floyd–Hoare automaton).
    fn is_accepting(&self, s: &Self::State) -> bool;
    /// The unique successor of `s` under `a`.
    fn successor(&mut self, s: &Self::State, a: &Self::Letter) -> Result<Self::State, Self::Error>;
    /// Whether `s` is an accepting trap (see the trait documentation). Defaults to `false`, which is
    /// always sound; returning `true` is an optimisation that must respect the trap contract.
    fn is_trap(&self, _s: &Self::State) -> bool {
        false
    }
}

impl<B: DeterministicAutomaton + ?Sized> DeterministicAutomaton for &mut B {
    type State = B::State;
    type Letter = B::Letter;
    type Error = B::Error;
    fn initial(&self) -> Self::State {
        (**self).initial()
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        (**self).is_accepting(s)
    }
    fn successor(&mut self, s: &Self::State, a: &Self::Letter) -> Result<Self::State, Self::Error> {
        (**self).successor(s, a)
    }
    fn is_trap(&self, s: &Self::State) -> bool {
        (**self).is_trap(s)
    }
}

/// An on-demand automaton whose successor computation may fail.
///
/// This is what [`explore`](super::explore()) and [`shortest_accepting_run`](super::shortest_accepting_run)
/// consume. Every [`Automaton`] is a `FallibleAutomaton` with `Error = Infallible`;
/// [`Difference`](super::Difference) is one with the subtrahend's error type.
pub trait FallibleAutomaton {
    /// States of the automaton.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// Letters of the alphabet.
    type Letter: Clone + Eq + Hash + Ord + Debug;
    /// Why a successor could not be computed.
    type Error;
    /// The initial states, in a deterministic order.
    fn initial_states(&self) -> Vec<Self::State>;
    /// Whether `s` is accepting.
    fn is_accepting(&self, s: &Self::State) -> bool;
    /// All outgoing transitions of `s`, in a deterministic order, or the first failure.
    fn try_successors(
        &self,
        s: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error>;
    /// The letters enabled in `s` (a superset of the letters of `try_successors(s)`), in a
    /// deterministic order. Defaults to the letters of `try_successors(s)`.
    fn try_enabled_letters(&self, s: &Self::State) -> Result<Vec<Self::Letter>, Self::Error> {
        Ok(letters_of(&self.try_successors(s)?))
    }
    /// The targets of `s` under `letter`, in the order `try_successors(s)` lists them. Defaults to
    /// filtering `try_successors(s)`.
    fn try_successor(
        &self,
        s: &Self::State,
        letter: &Self::Letter,
    ) -> Result<Vec<Self::State>, Self::Error> {
        Ok(targets_of(self.try_successors(s)?, letter))
    }
}

impl<A: Automaton> FallibleAutomaton for A {
    type State = A::State;
    type Letter = A::Letter;
    type Error = Infallible;
    fn initial_states(&self) -> Vec<Self::State> {
        Automaton::initial_states(self)
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        Automaton::is_accepting(self, s)
    }
    fn try_successors(
        &self,
        s: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Infallible> {
        Ok(Automaton::successors(self, s))
    }
    fn try_enabled_letters(&self, s: &Self::State) -> Result<Vec<Self::Letter>, Infallible> {
        Ok(Automaton::enabled_letters(self, s))
    }
    fn try_successor(
        &self,
        s: &Self::State,
        letter: &Self::Letter,
    ) -> Result<Vec<Self::State>, Infallible> {
        Ok(Automaton::successor(self, s, letter))
    }
}
