//! Reachable-states materialization (the one explorer) and dead-end removal.
//!
//! [`explore()`] computes the reachable part of any [`FallibleAutomaton`] by breadth-first search
//! and stores it as an [`Nfa`]; it is the only place in the library that materializes a lazy view
//! (Ultimate's `NestedWordAutomatonReachableStates`). Driving a [`Difference`](super::Difference)
//! through it is what makes an on-demand Floyd–Hoare automaton compute its transitions.
//!
//! [`remove_dead_ends`] keeps the states that are reachable from an initial state *and* can reach an
//! accepting state (the "trim" part; Ultimate's `removeDeadEnds`); [`remove_buchi_dead_ends`] its
//! Büchi twin, those that can reach an accepting state on a cycle (Ultimate's
//! `RemoveNonLiveStates`).
//!
//! Invariants: `L(explore(A)) = L(A)`, and every state of `explore(A)` is reachable;
//! `L(remove_dead_ends(N)) = L(N)`, and every state of the result lies on an accepting run; the
//! Büchi language of `remove_buchi_dead_ends(N)` is that of `N`, and each of its states lies on an
//! accepting lasso.

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
    let targets: BTreeSet<&S> = nfa.accepting().collect();
    trim(nfa, targets)
}

/// The sub-automaton of states that are reachable and can reach an accepting state on a cycle:
/// read as a Büchi automaton, the states of accepting lassos (the infinite words are kept).
pub fn remove_buchi_dead_ends<S: Ord + Clone, L: Ord + Clone>(nfa: &Nfa<S, L>) -> Nfa<S, L> {
    let targets = accepting_on_cycles(nfa);
    trim(nfa, targets)
}

/// The states reachable from an initial state that can reach one of `targets`.
fn trim<'n, S: Ord + Clone, L: Ord + Clone>(
    nfa: &'n Nfa<S, L>,
    targets: BTreeSet<&'n S>,
) -> Nfa<S, L> {
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
    // Backward reachability from the targets.
    let pred = nfa.predecessors();
    let mut live: BTreeSet<&S> = targets;
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

/// The accepting states that lie on a cycle (in a strongly connected component with two states,
/// or with a self-loop), by an iterative Tarjan over all states.
fn accepting_on_cycles<S: Ord + Clone, L: Ord + Clone>(nfa: &Nfa<S, L>) -> BTreeSet<&S> {
    let states: Vec<&S> = nfa.states().collect();
    let id: std::collections::BTreeMap<&S, usize> =
        states.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let succ: Vec<Vec<usize>> = states
        .iter()
        .map(|s| nfa.outgoing(s).map(|(_, t)| id[t]).collect())
        .collect();
    let n = states.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let mut cyclic = vec![false; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (state, index of the next successor to visit)
        let mut calls = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = calls.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let nontrivial = members.len() > 1 || succ[v].contains(&v);
                for w in members {
                    cyclic[w] = nontrivial;
                }
            }
        }
    }
    let accepting: BTreeSet<&S> = nfa.accepting().collect();
    states
        .into_iter()
        .enumerate()
        .filter(|(i, s)| cyclic[*i] && accepting.contains(s))
        .map(|(_, s)| s)
        .collect()
}
