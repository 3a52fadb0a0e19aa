//! Minimization of an explicit automaton by forward-bisimulation partition refinement, restricted by
//! an initial partition.
//!
//! Computes the coarsest partition of the states that (1) refines the initial partition given by a
//! key function and by acceptance, and (2) is a forward bisimulation: two states in one block have,
//! for every letter, successors in the same set of blocks. The quotient (each block merged into its
//! least state) accepts the same language. For a deterministic automaton with a trivial key this is
//! Moore's algorithm (E. F. Moore, "Gedanken-Experiments on Sequential Machines", Automata
//! Studies, 1956); Ultimate restricts the initial partition to states of the same program location
//! (`TraceAbstractionUtils.computePartition`), which is what the key function is for.
//!
//! Invariant: `L(minimize(N, key)) = L(N)`; merged states have equal keys; the representative of a
//! block is its least state, so state types are preserved.

use std::collections::{BTreeMap, BTreeSet};

use super::nfa::Nfa;

/// The bisimulation quotient of `nfa`, never merging states with different `key`s.
pub fn minimize<S, L, K>(nfa: &Nfa<S, L>, key: impl Fn(&S) -> K) -> Nfa<S, L>
where
    S: Ord + Clone,
    L: Ord + Clone,
    K: Ord,
{
    let states: Vec<&S> = nfa.states().collect();
    let index: BTreeMap<&S, usize> = states.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let accepting: BTreeSet<&S> = nfa.accepting().collect();
    // Initial partition by (key, acceptance); block numbers are dense and ordered.
    let mut block = number(
        states
            .iter()
            .map(|s| (key(s), accepting.contains(s)))
            .collect(),
    );
    loop {
        let signatures: Vec<(usize, BTreeSet<(&L, usize)>)> = states
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    block[i],
                    nfa.outgoing(s).map(|(l, t)| (l, block[index[t]])).collect(),
                )
            })
            .collect();
        let refined = number(signatures);
        let before = block.iter().max().map_or(0, |m| m + 1);
        let after = refined.iter().max().map_or(0, |m| m + 1);
        block = refined;
        if before == after {
            break;
        }
    }
    // Representative = least state of its block (states are in order, so the first seen).
    let mut rep: BTreeMap<usize, &S> = BTreeMap::new();
    for (i, s) in states.iter().enumerate() {
        rep.entry(block[i]).or_insert(s);
    }
    nfa.map_states(|s| rep[&block[index[s]]].clone())
}

/// Numbers equal values densely, in order of the values.
fn number<T: Ord>(values: Vec<T>) -> Vec<usize> {
    let distinct: BTreeSet<&T> = values.iter().collect();
    let ids: BTreeMap<&T, usize> = distinct
        .into_iter()
        .enumerate()
        .map(|(i, v)| (v, i))
        .collect();
    values.iter().map(|v| ids[v]).collect()
}
