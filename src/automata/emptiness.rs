//! Emptiness check by breadth-first search (shortest accepting run), word membership, and the CEGAR
//! progress check.
//!
//! [`shortest_accepting_run`] is Ultimate's `IsEmpty` with `CounterexampleSearchStrategy.BFS`: it
//! returns an accepting run of minimal length, or `None` if the language is empty. Ties between runs
//! of equal length are broken deterministically: initial states in the order `initial_states`
//! returns them, then successors in the order `try_successors` returns them.
//!
//! Invariant: a returned [`Run`] is a run of the automaton (see [`Run::is_run_of`]) that ends in an
//! accepting state, and no shorter accepting run exists.
//!
//! [`ensure_progress`] is the "No progress!" assertion of trace abstraction: after a refinement,
//! the counterexample's word must no longer be accepted by the new abstraction.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::automaton::{DeterministicAutomaton, FallibleAutomaton};
use super::budget::{Budget, ExploreError};

/// A run: `states[0] --letters[0]--> states[1] ... --letters[n-1]--> states[n]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Run<S, L> {
    /// The visited states; one more than letters.
    pub states: Vec<S>,
    /// The letters read (the counterexample trace).
    pub letters: Vec<L>,
}

impl<S, L> Run<S, L> {
    /// The number of letters.
    pub fn len(&self) -> usize {
        self.letters.len()
    }

    /// Whether the run reads no letter.
    pub fn is_empty(&self) -> bool {
        self.letters.is_empty()
    }

    /// Whether this is an accepting run of `aut`: it starts in an initial state, every step is a
    /// transition of `aut`, and it ends in an accepting state.
    pub fn is_run_of<A>(&self, aut: &A) -> Result<bool, A::Error>
    where
        A: FallibleAutomaton<State = S, Letter = L>,
        S: PartialEq,
        L: PartialEq,
    {
        let (Some(first), Some(last)) = (self.states.first(), self.states.last()) else {
            return Ok(false);
        };
        if self.states.len() != self.letters.len() + 1
            || !aut.initial_states().contains(first)
            || !aut.is_accepting(last)
        {
            return Ok(false);
        }
        for (i, l) in self.letters.iter().enumerate() {
            let succ = aut.try_successors(&self.states[i])?;
            if !succ.iter().any(|(x, t)| x == l && t == &self.states[i + 1]) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The run type of an automaton.
pub type RunOf<A> = Run<<A as FallibleAutomaton>::State, <A as FallibleAutomaton>::Letter>;

/// A BFS tree edge: predecessor and letter.
type Edge<A> = (
    <A as FallibleAutomaton>::State,
    <A as FallibleAutomaton>::Letter,
);

/// An accepting run of minimal length, or `None` if `L(aut)` is empty; polls `budget` once per
/// expanded state.
pub fn shortest_accepting_run<A: FallibleAutomaton>(
    aut: &A,
    budget: &Budget,
) -> Result<Option<RunOf<A>>, ExploreError<A::Error>> {
    // parent[s] = None for initial states, Some((predecessor, letter)) otherwise.
    let mut parent: HashMap<A::State, Option<Edge<A>>> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut found = None;
    for s in aut.initial_states() {
        if parent.contains_key(&s) {
            continue;
        }
        parent.insert(s.clone(), None);
        if aut.is_accepting(&s) {
            found = Some(s);
            break;
        }
        queue.push_back(s);
    }
    'bfs: while found.is_none() {
        let Some(s) = queue.pop_front() else { break };
        budget.check(parent.len())?;
        for (letter, t) in aut.try_successors(&s).map_err(ExploreError::Successor)? {
            if parent.contains_key(&t) {
                continue;
            }
            parent.insert(t.clone(), Some((s.clone(), letter)));
            if aut.is_accepting(&t) {
                found = Some(t);
                break 'bfs;
            }
            queue.push_back(t);
        }
    }
    let Some(mut s) = found else { return Ok(None) };
    let mut states = vec![s.clone()];
    let mut letters = Vec::new();
    while let Some(Some((p, l))) = parent.get(&s) {
        letters.push(l.clone());
        states.push(p.clone());
        s = p.clone();
    }
    states.reverse();
    letters.reverse();
    Ok(Some(Run { states, letters }))
}

/// Whether `aut` accepts `word` (subset simulation; no budget, the word bounds the work).
pub fn accepts<A: FallibleAutomaton>(aut: &A, word: &[A::Letter]) -> Result<bool, A::Error> {
    let mut current: BTreeSet<A::State> = aut.initial_states().into_iter().collect();
    for letter in word {
        let mut next = BTreeSet::new();
        for s in &current {
            for (x, t) in aut.try_successors(s)? {
                if &x == letter {
                    next.insert(t);
                }
            }
        }
        if next.is_empty() {
            return Ok(false);
        }
        current = next;
    }
    Ok(current.iter().any(|s| aut.is_accepting(s)))
}

/// Whether the deterministic automaton `aut` accepts `word`.
pub fn accepts_deterministic<B: DeterministicAutomaton>(
    aut: &mut B,
    word: &[B::Letter],
) -> Result<bool, B::Error> {
    let mut s = aut.initial();
    for letter in word {
        s = aut.successor(&s, letter)?;
    }
    Ok(aut.is_accepting(&s))
}

/// The refined abstraction still accepts the counterexample (a bug in the proof or the difference),
/// or membership could not be decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoProgress<E> {
    /// The word is still accepted.
    StillAccepted,
    /// Computing successors failed.
    Successor(E),
}

impl<E: std::fmt::Display> std::fmt::Display for NoProgress<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoProgress::StillAccepted => {
                write!(f, "no progress: the counterexample is still accepted")
            }
            NoProgress::Successor(e) => write!(f, "progress check failed: {e}"),
        }
    }
}

/// `Ok(())` iff `aut` does not accept `word`: the CEGAR progress assertion.
pub fn ensure_progress<A: FallibleAutomaton>(
    aut: &A,
    word: &[A::Letter],
) -> Result<(), NoProgress<A::Error>> {
    match accepts(aut, word) {
        Ok(false) => Ok(()),
        Ok(true) => Err(NoProgress::StillAccepted),
        Err(e) => Err(NoProgress::Successor(e)),
    }
}
