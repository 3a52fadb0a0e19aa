//! Explicit deterministic automata ([`Dfa`]) and the lazy subset construction ([`Determinize`]).
//!
//! Both implement [`DeterministicAutomaton`], so they can be subtrahends of a
//! [`Difference`](super::Difference). [`Determinize`] is the classical powerset construction
//! (Rabin and Scott, "Finite Automata and Their Decision Problems", IBM J. Res. Dev., 1959),
//! computed on demand: a subset's successor is computed when asked for. It is total over *every*
//! letter (the empty set is the rejecting sink), and accepts exactly the words its operand accepts.
//! [`Dfa`] is a table; it reports a [`MissingTransition`] error for an undefined transition, which
//! also makes it the simplest subtrahend for testing error propagation.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::fmt;

use super::automaton::{Automaton, DeterministicAutomaton};

/// An explicit deterministic automaton given by a transition table.
///
/// Trap states (declared with [`Dfa::add_trap`]) are accepting and loop on every letter without
/// table entries, as the Floyd–Hoare `false` state does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa<S: Ord, L: Ord> {
    initial: S,
    accepting: BTreeSet<S>,
    traps: BTreeSet<S>,
    table: BTreeMap<(S, L), S>,
}

/// A [`Dfa`] has no transition for this state and letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingTransition {
    /// The state, printed with `Debug`.
    pub state: String,
    /// The letter, printed with `Debug`.
    pub letter: String,
}

impl fmt::Display for MissingTransition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no transition from {} under {}", self.state, self.letter)
    }
}

impl std::error::Error for MissingTransition {}

impl<S: Ord + Clone, L: Ord + Clone> Dfa<S, L> {
    /// A DFA with initial state `initial` and no transitions.
    pub fn new(initial: S) -> Self {
        Dfa {
            initial,
            accepting: BTreeSet::new(),
            traps: BTreeSet::new(),
            table: BTreeMap::new(),
        }
    }

    /// Marks `s` accepting.
    pub fn set_accepting(&mut self, s: S) {
        self.accepting.insert(s);
    }

    /// Declares `s` an accepting trap: every letter loops on it.
    pub fn add_trap(&mut self, s: S) {
        self.accepting.insert(s.clone());
        self.traps.insert(s);
    }

    /// Sets the transition `from --letter--> to`, replacing an earlier one.
    pub fn set_transition(&mut self, from: S, letter: L, to: S) {
        self.table.insert((from, letter), to);
    }
}

impl<S, L> DeterministicAutomaton for Dfa<S, L>
where
    S: Clone + Eq + std::hash::Hash + Ord + fmt::Debug,
    L: Clone + Eq + std::hash::Hash + Ord + fmt::Debug,
{
    type State = S;
    type Letter = L;
    type Error = MissingTransition;
    fn initial(&self) -> S {
        self.initial.clone()
    }
    fn is_accepting(&self, s: &S) -> bool {
        self.accepting.contains(s)
    }
    fn is_trap(&self, s: &S) -> bool {
        self.traps.contains(s)
    }
    fn successor(&mut self, s: &S, a: &L) -> Result<S, MissingTransition> {
        if self.traps.contains(s) {
            return Ok(s.clone());
        }
        self.table
            .get(&(s.clone(), a.clone()))
            .cloned()
            .ok_or_else(|| MissingTransition {
                state: format!("{s:?}"),
                letter: format!("{a:?}"),
            })
    }
}

/// The lazy subset construction of an [`Automaton`]: deterministic, total, same language.
///
/// States are sets of operand states; the initial state is the set of initial states; a set is
/// accepting iff it contains an accepting state; `successor(Q, a) = { q' | q ∈ Q, (a, q') ∈ succ(q) }`.
/// Invariant: after reading `w`, the state is exactly the set of operand states reachable by `w`.
pub struct Determinize<A> {
    operand: A,
}

impl<A: Automaton> Determinize<A> {
    /// Wraps `operand` (pass a reference to keep ownership).
    pub fn new(operand: A) -> Self {
        Determinize { operand }
    }
}

impl<A: Automaton> DeterministicAutomaton for Determinize<A> {
    type State = BTreeSet<A::State>;
    type Letter = A::Letter;
    type Error = Infallible;
    fn initial(&self) -> Self::State {
        self.operand.initial_states().into_iter().collect()
    }
    fn is_accepting(&self, s: &Self::State) -> bool {
        s.iter().any(|q| self.operand.is_accepting(q))
    }
    fn successor(&mut self, s: &Self::State, a: &A::Letter) -> Result<Self::State, Infallible> {
        Ok(s.iter()
            .flat_map(|q| self.operand.successors(q))
            .filter(|(b, _)| b == a)
            .map(|(_, t)| t)
            .collect())
    }
}
