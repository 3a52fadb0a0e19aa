//! Lazy intersection `A ∩ B` of two automata over the same alphabet (the synchronous product).
//!
//! States are pairs `(a, b)`; `(a, b) --x--> (a', b')` iff `a --x--> a'` in `A` and `b --x--> b'`
//! in `B`; a pair is initial/accepting iff both components are (Rabin and Scott, 1959).
//! Invariant: `L(A ∩ B) = L(A) ∩ L(B)`. Successors are listed in the order of `A`'s successors, then
//! `B`'s, so BFS tie-breaking is inherited from the operands.
//!
//! Per-letter queries are lazy: `enabled_letters((a, b))` asks both operands only for their
//! enabled letters, and `successor((a, b), x)` asks each operand only for its `x`-successors.

use super::automaton::Automaton;

/// The lazy product of `A` and `B`. Pass references to keep ownership of the operands.
pub struct Intersection<A, B> {
    a: A,
    b: B,
}

impl<A, B> Intersection<A, B>
where
    A: Automaton,
    B: Automaton<Letter = A::Letter>,
{
    /// The product view of `a` and `b`.
    pub fn new(a: A, b: B) -> Self {
        Intersection { a, b }
    }

    /// The operands.
    pub fn into_parts(self) -> (A, B) {
        (self.a, self.b)
    }
}

impl<A, B> Automaton for Intersection<A, B>
where
    A: Automaton,
    B: Automaton<Letter = A::Letter>,
{
    type State = (A::State, B::State);
    type Letter = A::Letter;

    fn initial_states(&self) -> Vec<Self::State> {
        let bs = self.b.initial_states();
        let mut out = Vec::new();
        for a in self.a.initial_states() {
            for b in &bs {
                out.push((a.clone(), b.clone()));
            }
        }
        out
    }

    fn is_accepting(&self, (a, b): &Self::State) -> bool {
        self.a.is_accepting(a) && self.b.is_accepting(b)
    }

    fn successors(&self, (a, b): &Self::State) -> Vec<(Self::Letter, Self::State)> {
        let b_succ = self.b.successors(b);
        let mut out = Vec::new();
        for (x, a2) in self.a.successors(a) {
            for (y, b2) in &b_succ {
                if &x == y {
                    out.push((x.clone(), (a2.clone(), b2.clone())));
                }
            }
        }
        out
    }

    fn enabled_letters(&self, (a, b): &Self::State) -> Vec<Self::Letter> {
        let b_letters = self.b.enabled_letters(b);
        self.a
            .enabled_letters(a)
            .into_iter()
            .filter(|x| b_letters.contains(x))
            .collect()
    }

    fn successor(&self, (a, b): &Self::State, letter: &Self::Letter) -> Vec<Self::State> {
        let a_targets = self.a.successor(a, letter);
        if a_targets.is_empty() {
            return Vec::new();
        }
        let b_targets = self.b.successor(b, letter);
        let mut out = Vec::new();
        for a2 in &a_targets {
            for b2 in &b_targets {
                out.push((a2.clone(), b2.clone()));
            }
        }
        out
    }
}
