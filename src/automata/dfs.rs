//! Emptiness check by depth-first search with a pluggable preference order on letters.
//!
//! [`accepting_run_dfs`] returns *an* accepting run (not necessarily a shortest one), or `None` if
//! the language is empty. It is Ultimate's `IsEmpty` with `CounterexampleSearchStrategy.DFS`, and
//! its [`DfsOrder`] plays the role of Ultimate's `IDfsOrder` (`partialorder/`): at each state the
//! enabled letters are explored in the order the preference gives, e.g. to prefer the letters of one
//! thread, or a previous counterexample. Beside [`shortest_accepting_run`](super::shortest_accepting_run)
//! (BFS), this is the search that stays lazy letter by letter: it asks
//! [`try_enabled_letters`](super::FallibleAutomaton::try_enabled_letters) once per visited state and
//! [`try_successor`](super::FallibleAutomaton::try_successor) only for the letters it explores, so on
//! a [`Difference`](super::Difference) a Floyd–Hoare transition is computed only when its letter is
//! explored, and nothing after the first accepting state is found.
//!
//! Invariants: every state is visited at most once; the DFS stack is always a run from an initial
//! state (so a returned [`Run`] is an accepting run of the automaton, see [`Run::is_run_of`]); the
//! search is complete (`None` only if no accepting state is reachable). Ties are deterministic:
//! initial states in the order `initial_states` returns them, letters in the preference order (which
//! starts from the order `try_enabled_letters` returns them), targets in the order `try_successor`
//! returns them. The [`Budget`] is polled once per visited state, as in [`explore`](super::explore()).

use std::collections::HashSet;

use super::automaton::FallibleAutomaton;
use super::budget::{Budget, ExploreError};
use super::emptiness::{Run, RunOf};

/// A preference order for DFS: reorders the enabled letters of a state in place, first explored
/// first. It must not add or remove letters (a reduction is a different automaton, not an order).
///
/// Closures `Fn(&S, &mut [L])` are orders, so `&|_, ls: &mut [char]| ls.reverse()` is one.
pub trait DfsOrder<S, L> {
    /// Reorders `letters`, the enabled letters of `state` in the automaton's order.
    fn order(&self, state: &S, letters: &mut [L]);
}

impl<S, L, F: Fn(&S, &mut [L])> DfsOrder<S, L> for F {
    fn order(&self, state: &S, letters: &mut [L]) {
        self(state, letters)
    }
}

/// The automaton's own order: letters as `try_enabled_letters` lists them.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnabledOrder;

impl<S, L> DfsOrder<S, L> for EnabledOrder {
    fn order(&self, _state: &S, _letters: &mut [L]) {}
}

/// Ascending letter order (`Ord` on letters), whatever order the automaton lists them in.
#[derive(Clone, Copy, Debug, Default)]
pub struct LetterOrder;

impl<S, L: Ord> DfsOrder<S, L> for LetterOrder {
    fn order(&self, _state: &S, letters: &mut [L]) {
        letters.sort();
    }
}

/// One state on the DFS stack: its letters (ordered), the next letter to explore, and the targets
/// of the letter being explored.
struct Frame<S, L> {
    state: S,
    letters: Vec<L>,
    next_letter: usize,
    targets: Vec<S>,
    next_target: usize,
}

fn frame<A, O>(aut: &A, order: &O, state: A::State) -> Result<Frame<A::State, A::Letter>, A::Error>
where
    A: FallibleAutomaton,
    O: DfsOrder<A::State, A::Letter> + ?Sized,
{
    let mut letters = aut.try_enabled_letters(&state)?;
    order.order(&state, &mut letters);
    Ok(Frame {
        state,
        letters,
        next_letter: 0,
        targets: Vec::new(),
        next_target: 0,
    })
}

/// An accepting run of `aut` found by DFS exploring letters in `order`, or `None` if `L(aut)` is
/// empty; polls `budget` once per visited state.
pub fn accepting_run_dfs<A, O>(
    aut: &A,
    order: &O,
    budget: &Budget,
) -> Result<Option<RunOf<A>>, ExploreError<A::Error>>
where
    A: FallibleAutomaton,
    O: DfsOrder<A::State, A::Letter> + ?Sized,
{
    let mut visited: HashSet<A::State> = HashSet::new();
    for init in aut.initial_states() {
        if !visited.insert(init.clone()) {
            continue;
        }
        budget.check(visited.len())?;
        if aut.is_accepting(&init) {
            return Ok(Some(Run {
                states: vec![init],
                letters: Vec::new(),
            }));
        }
        let mut stack = vec![frame(aut, order, init).map_err(ExploreError::Successor)?];
        // path[i] is the letter leading from stack[i] to stack[i + 1].
        let mut path: Vec<A::Letter> = Vec::new();
        while let Some(top) = stack.last_mut() {
            if top.next_target < top.targets.len() {
                let t = top.targets[top.next_target].clone();
                top.next_target += 1;
                if !visited.insert(t.clone()) {
                    continue;
                }
                budget.check(visited.len())?;
                // `next_letter` was advanced when the targets were computed.
                let letter = top.letters[top.next_letter - 1].clone();
                path.push(letter);
                if aut.is_accepting(&t) {
                    let mut states: Vec<A::State> = stack.into_iter().map(|f| f.state).collect();
                    states.push(t);
                    return Ok(Some(Run {
                        states,
                        letters: path,
                    }));
                }
                stack.push(frame(aut, order, t).map_err(ExploreError::Successor)?);
            } else if top.next_letter < top.letters.len() {
                let targets = aut
                    .try_successor(&top.state, &top.letters[top.next_letter])
                    .map_err(ExploreError::Successor)?;
                top.next_letter += 1;
                top.targets = targets;
                top.next_target = 0;
            } else {
                stack.pop();
                path.pop();
            }
        }
    }
    Ok(None)
}
