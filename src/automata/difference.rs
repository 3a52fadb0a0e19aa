//! Lazy difference `A \ B = A ∩ complement(B)` for a deterministic, total subtrahend `B`.
//!
//! This is the refinement step of trace abstraction (Heizmann, Hoenicke, Podelski, "Refinement of
//! Trace Abstraction", SAS 2009; "Software Model Checking for People Who Love Automata", CAV 2013):
//! the abstraction `A` minus the Floyd–Hoare automaton `B` of a proof. Because `B` is deterministic
//! and total, complementing it only flips acceptance, with no powerset construction (Ultimate's
//! `Difference` = `IntersectNwa(A, ComplementDeterministicNwa(TotalizeNwa(B)))`).
//!
//! States are pairs `(a, b)`; `(a, b) --x--> (a', B.successor(b, x))` for each `a --x--> a'` in
//! `A`; a pair is accepting iff `a` is accepting and `b` is not.
//!
//! **Trap pruning.** If `B.is_trap(b)` (the Floyd–Hoare `false` state: accepting, looping on every
//! letter), every word through `(a, b)` is accepted by `B`, so no accepting product state is
//! reachable from it. With pruning on (the default), such product states are never created: edges
//! into them and initial states with a trap component are omitted, so they are never expanded and
//! never reach the subtrahend again. Ultimate's `finalIsTrap` does the same.
//!
//! Invariant: `L(Difference(A, B)) = L(A) \ L(B)`, with or without pruning; the reachable product
//! states are exactly those whose `b` is the state `B` reaches on some word that leads `A` to `a`
//! (minus trap states when pruning).
//!
//! The subtrahend is queried with `&mut self` through a `RefCell`, so the difference itself is a
//! `&self` [`FallibleAutomaton`] that [`explore`](super::explore()) and
//! [`shortest_accepting_run`](super::shortest_accepting_run) can drive; the first subtrahend error
//! aborts the query and propagates as [`ExploreError::Successor`](super::ExploreError::Successor).
//! After exploring, [`Difference::into_parts`] hands the (now partly constructed) subtrahend back.
//!
//! **Per-letter laziness.** `try_enabled_letters((a, b))` is the minuend's `enabled_letters(a)` and
//! asks the subtrahend nothing (it is a superset: a letter may lead only into a pruned trap);
//! `try_successor((a, b), x)` asks the minuend for its `x`-targets and the subtrahend for the one
//! successor `B.successor(b, x)`, and only if the minuend has an `x`-target. So a search that explores
//! letters one at a time (DFS, the lasso search) computes a Floyd–Hoare transition only for the
//! letters it actually explores. `try_successors` (used by BFS and [`explore`](super::explore())) still
//! queries the subtrahend once per minuend transition, in the minuend's order, exactly as before.

use std::cell::RefCell;

use super::automaton::{Automaton, DeterministicAutomaton, FallibleAutomaton, Successors};

/// The lazy difference view `A \ B`. Pass `&A` and `&mut B` to keep ownership of the operands.
pub struct Difference<A, B> {
    minuend: A,
    subtrahend: RefCell<B>,
    prune_traps: bool,
}

impl<A, B> Difference<A, B>
where
    A: Automaton,
    B: DeterministicAutomaton<Letter = A::Letter>,
{
    /// The difference view, with trap pruning on.
    pub fn new(minuend: A, subtrahend: B) -> Self {
        Difference {
            minuend,
            subtrahend: RefCell::new(subtrahend),
            prune_traps: true,
        }
    }

    /// Turns trap pruning on or off (for tests and statistics; the language is the same).
    pub fn with_trap_pruning(mut self, on: bool) -> Self {
        self.prune_traps = on;
        self
    }

    /// The operands; the subtrahend keeps every transition computed during exploration.
    pub fn into_parts(self) -> (A, B) {
        (self.minuend, self.subtrahend.into_inner())
    }

    fn pruned(&self, b: &B::State) -> bool {
        self.prune_traps && self.subtrahend.borrow().is_trap(b)
    }
}

impl<A, B> FallibleAutomaton for Difference<A, B>
where
    A: Automaton,
    B: DeterministicAutomaton<Letter = A::Letter>,
{
    type State = (A::State, B::State);
    type Letter = A::Letter;
    type Error = B::Error;

    fn initial_states(&self) -> Vec<Self::State> {
        let b = self.subtrahend.borrow().initial();
        if self.pruned(&b) {
            return Vec::new();
        }
        self.minuend
            .initial_states()
            .into_iter()
            .map(|a| (a, b.clone()))
            .collect()
    }

    fn is_accepting(&self, (a, b): &Self::State) -> bool {
        self.minuend.is_accepting(a) && !self.subtrahend.borrow().is_accepting(b)
    }

    fn try_successors(
        &self,
        (a, b): &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, B::Error> {
        if self.pruned(b) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for (x, a2) in self.minuend.successors(a) {
            let b2 = self.subtrahend.borrow_mut().successor(b, &x)?;
            if !self.pruned(&b2) {
                out.push((x, (a2, b2)));
            }
        }
        Ok(out)
    }

    fn try_enabled_letters(&self, (a, b): &Self::State) -> Result<Vec<Self::Letter>, B::Error> {
        if self.pruned(b) {
            return Ok(Vec::new());
        }
        Ok(self.minuend.enabled_letters(a))
    }

    fn try_successor(
        &self,
        (a, b): &Self::State,
        letter: &Self::Letter,
    ) -> Result<Vec<Self::State>, B::Error> {
        if self.pruned(b) {
            return Ok(Vec::new());
        }
        let a_targets = self.minuend.successor(a, letter);
        if a_targets.is_empty() {
            return Ok(Vec::new());
        }
        let b2 = self.subtrahend.borrow_mut().successor(b, letter)?;
        if self.pruned(&b2) {
            return Ok(Vec::new());
        }
        Ok(a_targets.into_iter().map(|a2| (a2, b2.clone())).collect())
    }
}

/// The `check` companion of the difference: compares a (materialized) result against the
/// definition `L(A) \ L(B)` on every word over `alphabet` of length at most `max_len`, by naive
/// simulation of both operands. Returns the first word (in length-lexicographic order) on which
/// `result` disagrees, or `None`. Meant for tests and `debug_assertions` runs with small bounds; on
/// a disagreement, dump the operands with the text format ([`Nfa`](super::Nfa)'s `Display`).
pub fn check_bounded<A, B, R>(
    minuend: &A,
    subtrahend: &mut B,
    result: &R,
    alphabet: &[A::Letter],
    max_len: usize,
) -> Result<Option<Vec<A::Letter>>, B::Error>
where
    A: Automaton,
    B: DeterministicAutomaton<Letter = A::Letter>,
    R: Automaton<Letter = A::Letter>,
{
    use super::emptiness::{accepts, accepts_deterministic};
    let mut layer: Vec<Vec<A::Letter>> = vec![Vec::new()];
    for len in 0..=max_len {
        for word in &layer {
            let Ok(in_a) = accepts(minuend, word);
            let Ok(in_r) = accepts(result, word);
            let expected = in_a && !accepts_deterministic(subtrahend, word)?;
            if in_r != expected {
                return Ok(Some(word.clone()));
            }
        }
        if len < max_len {
            layer = layer
                .iter()
                .flat_map(|w| {
                    alphabet.iter().map(move |l| {
                        let mut w2 = w.clone();
                        w2.push(l.clone());
                        w2
                    })
                })
                .collect();
        }
    }
    Ok(None)
}
