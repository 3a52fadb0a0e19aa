//! A view of a fallible automaton that counts the states whose successors were asked for.
//!
//! Computes nothing new: every query is forwarded to the wrapped automaton. The count is the number
//! of `try_successors` / `try_enabled_letters` calls, i.e. the states an emptiness check or the
//! explorer expanded (each expands a state once). The engine reports it as the abstraction states
//! explored (`--stats`). Invariant: the view's language and answers are the wrapped automaton's.

use super::automaton::{FallibleAutomaton, Successors};
use std::cell::Cell;

/// `inner`, counting expanded states.
pub struct Counted<A> {
    inner: A,
    expanded: Cell<usize>,
}

impl<A> Counted<A> {
    pub fn new(inner: A) -> Self {
        Counted {
            inner,
            expanded: Cell::new(0),
        }
    }

    /// The number of states expanded so far.
    pub fn expanded(&self) -> usize {
        self.expanded.get()
    }
}

impl<A: FallibleAutomaton> FallibleAutomaton for Counted<A> {
    type State = A::State;
    type Letter = A::Letter;
    type Error = A::Error;
    fn initial_states(&self) -> Vec<Self::State> {
        self.inner.initial_states()
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        self.inner.is_accepting(s)
    }
    fn try_successors(
        &self,
        s: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error> {
        self.expanded.set(self.expanded.get() + 1);
        self.inner.try_successors(s)
    }
    fn try_enabled_letters(&self, s: &Self::State) -> Result<Vec<Self::Letter>, Self::Error> {
        self.expanded.set(self.expanded.get() + 1);
        self.inner.try_enabled_letters(s)
    }
    fn try_successor(
        &self,
        s: &Self::State,
        letter: &Self::Letter,
    ) -> Result<Vec<Self::State>, Self::Error> {
        self.inner.try_successor(s, letter)
    }
}
