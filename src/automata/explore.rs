//! Reachable-states materialization (the one explorer) and dead-end removal.
//!
//! [`explore()`] computes the reachable part of any [`FallibleAutomaton`] by breadth-first search
//! and stores it as an [`Nfa`]; it is the only place in the library that materializes a lazy view
//! (Ultimate's `NestedWordAutomatonReachableStates`). Driving a [`Difference`](super::Difference)
//! through it is what makes an on-demand Floyd–Hoare automaton compute its transitions.
//!
//! [`remove_dead_ends`] keeps the states that are reachable from an initial state *and* can reach an
//! accepting state (the "trim" part; Ultimate's `removeDeadEnds`).
//!
//! Invariants: `L(explore(A)) = L(A)`, and every state of `explore(A)` is reachable;
//! `L(remove_dead_ends(N)) = L(N)`, and every state of the result lies on an accepting run.

use std::collections::{BTreeSet, HashSet, VecDeque};

use super::automaton::FallibleAutomaton;
use super::budget::{Budget, ExploreError};
use super::nfa::Nfa;

/// The explicit automaton type [`explore()`] produces for `A`.
pub type NfaOf<A> = Nfa<<A as FallibleAutomaton>::State, <A as FallibleAutomaton>::Letter>;

/// Materializes the reachable part of `aut` by BFS, polling `budget` once per expanded state.
pub fn explore<A: FallibleAutomaton>(
    aut: &A,
    budget: &Budget,
) -> Result<NfaOf<A>, ExploreError<A::Error>> {
    let mut nfa = Nfa::new();
    let mut seen: HashSet<A::State> = HashSet::new();
    let mut queue = VecDeque::new();
    for s in aut.initial_states() {
        nfa.add_initial(s.clone());
        if seen.insert(s.clone()) {
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        budget.check(seen.len())?;
        nfa.add_state(s.clone(), aut.is_accepting(&s));
        for (letter, t) in aut.try_successors(&s).map_err(ExploreError::Successor)? {
            if seen.insert(t.clone()) {
                queue.push_back(t.clone());
            }
            nfa.add_transition(s.clone(), letter, t);
        }
    }
    Ok(nfa)
}

/// The sub-automaton of states that are reachable and can reach an accepting state.
pub fn remove_dead_ends<S: Ord + Clone, L: Ord + Clone>(nfa: &Nfa<S, L>) -> Nfa<S, L> {
    // Forward reachability.
    let mut reachable: BTreeSet<&S> = nfa.initial().collect();
    let mut stack: Vec<&S> = reachable.iter().copied().collect();
    while let Some(s) = stack.pop() {
        for (_, t) in nfa.outgoing(s) {
            if reachable.insert(t) {
                stack.push(t);
            }
        }
    }
    // Backward reachability from accepting states.
    let pred = nfa.predecessors();
    let mut live: BTreeSet<&S> = nfa.accepting().collect();
    let mut stack: Vec<&S> = live.iter().copied().collect();
    while let Some(t) = stack.pop() {
        for (s, _) in pred.get(t).into_iter().flatten() {
            if live.insert(s) {
                stack.push(s);
            }
        }
    }
    nfa.restrict(|s| reachable.contains(s) && live.contains(s))
}
