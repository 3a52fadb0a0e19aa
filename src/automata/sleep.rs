//! Sleep-set reduction (Godefroid, "Partial-order methods for the verification of concurrent
//! systems", LNCS 1032, 1996), in the "new states" form that Ultimate GemCutter uses (Farzan,
//! Klumpp, Podelski: "Sound sequentialization for concurrent program verification", PLDI 2022).
//!
//! Given a deterministic automaton `A` (at most one successor per letter), a symmetric
//! *independence* relation `I` on letters, and the preference order in which `A` lists the enabled
//! letters of a state, the reduced automaton has states `(q, S)` with `S` a sleep set of letters.
//! From `(q, S)` the letters enabled in `q` and not in `S` are taken in order `a_1, a_2, …`; the
//! successor under `a_i` is `(δ(q, a_i), S')` with `S' = {b ∈ S ∪ {a_1, …, a_{i-1}} | b I a_i}`.
//!
//! What it computes: a sub-automaton whose words are the lexicographically least representatives
//! (w.r.t. the preference order) of the Mazurkiewicz classes of `A`'s words. Invariant (the
//! soundness argument the engine relies on): if `I` is a commutativity relation of `A` — for
//! independent `a`, `b` enabled in `q`, `a·b` and `b·a` are both enabled and lead to the same state,
//! and neither disables the other — then every state of `A` reachable by some word is reachable in
//! the reduction by an equivalent word; in particular an accepting state is reachable in `A` iff
//! it is in the reduction. Accepting: `(q, S)` iff `q` is.

use super::automaton::Automaton;
use std::cell::RefCell;
use std::collections::HashMap;

/// A symmetric independence relation on letters.
pub trait Independence<L> {
    fn independent(&self, a: &L, b: &L) -> bool;
}

impl<L, F: Fn(&L, &L) -> bool> Independence<L> for F {
    fn independent(&self, a: &L, b: &L) -> bool {
        self(a, b)
    }
}

/// A state of the reduction: a state of the inner automaton and its sleep set (sorted, no
/// duplicates).
pub type SleepState<S, L> = (S, Vec<L>);

/// Memoised answers of the independence relation.
type IndependenceCache<L> = RefCell<HashMap<(L, L), bool>>;

/// The sleep-set reduction of `inner` under `indep` (see the module comment).
pub struct SleepSetReduction<'a, A: Automaton, I> {
    pub inner: &'a A,
    indep: I,
    /// Cache of the independence relation.
    cache: IndependenceCache<A::Letter>,
}

impl<'a, A: Automaton, I: Independence<A::Letter>> SleepSetReduction<'a, A, I> {
    pub fn new(inner: &'a A, indep: I) -> Self {
        SleepSetReduction {
            inner,
            indep,
            cache: RefCell::new(HashMap::new()),
        }
    }

    fn independent(&self, a: &A::Letter, b: &A::Letter) -> bool {
        let key = if a <= b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        if let Some(&r) = self.cache.borrow().get(&key) {
            return r;
        }
        let r = self.indep.independent(a, b);
        self.cache.borrow_mut().insert(key, r);
        r
    }

    /// The letters explored from `(q, sleep)`, in preference order, each with the sleep set of its
    /// successor.
    fn explored(&self, q: &A::State, sleep: &[A::Letter]) -> Vec<(A::Letter, Vec<A::Letter>)> {
        let mut out = Vec::new();
        let mut done: Vec<A::Letter> = Vec::new();
        for a in self.inner.enabled_letters(q) {
            if sleep.binary_search(&a).is_ok() {
                continue;
            }
            let mut next: Vec<A::Letter> = sleep
                .iter()
                .chain(&done)
                .filter(|b| self.independent(b, &a))
                .cloned()
                .collect();
            next.sort();
            next.dedup();
            out.push((a.clone(), next));
            done.push(a);
        }
        out
    }
}

impl<A: Automaton, I: Independence<A::Letter>> Automaton for SleepSetReduction<'_, A, I> {
    type State = SleepState<A::State, A::Letter>;
    type Letter = A::Letter;

    fn initial_states(&self) -> Vec<Self::State> {
        self.inner
            .initial_states()
            .into_iter()
            .map(|q| (q, Vec::new()))
            .collect()
    }

    fn is_accepting(&self, s: &Self::State) -> bool {
        self.inner.is_accepting(&s.0)
    }

    fn successors(&self, s: &Self::State) -> Vec<(Self::Letter, Self::State)> {
        let mut out = Vec::new();
        for (a, sleep) in self.explored(&s.0, &s.1) {
            for t in self.inner.successor(&s.0, &a) {
                out.push((a.clone(), (t, sleep.clone())));
            }
        }
        out
    }

    fn enabled_letters(&self, s: &Self::State) -> Vec<Self::Letter> {
        self.inner
            .enabled_letters(&s.0)
            .into_iter()
            .filter(|a| s.1.binary_search(a).is_err())
            .collect()
    }

    fn successor(&self, s: &Self::State, letter: &Self::Letter) -> Vec<Self::State> {
        if s.1.binary_search(letter).is_ok() {
            return Vec::new();
        }
        let mut done: Vec<&A::Letter> = Vec::new();
        let enabled = self.inner.enabled_letters(&s.0);
        for a in &enabled {
            if a == letter {
                break;
            }
            if s.1.binary_search(a).is_err() {
                done.push(a);
            }
        }
        let mut next: Vec<A::Letter> =
            s.1.iter()
                .chain(done)
                .filter(|b| self.independent(b, letter))
                .cloned()
                .collect();
        next.sort();
        next.dedup();
        self.inner
            .successor(&s.0, letter)
            .into_iter()
            .map(|t| (t, next.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, VecDeque};

    /// The asynchronous product of small deterministic components: component `k` owns the letters
    /// `10 * k + x`; letters of different components are independent.
    /// One component: transitions (state, letter digit) → state, and its accepting states.
    type Component = (Vec<Vec<Option<usize>>>, Vec<bool>);

    struct Product {
        comps: Vec<Component>,
    }

    impl Automaton for Product {
        type State = Vec<usize>;
        type Letter = usize;
        fn initial_states(&self) -> Vec<Vec<usize>> {
            vec![vec![0; self.comps.len()]]
        }
        fn is_accepting(&self, s: &Vec<usize>) -> bool {
            s.iter().zip(&self.comps).all(|(q, (_, acc))| acc[*q])
        }
        fn successors(&self, s: &Vec<usize>) -> Vec<(usize, Vec<usize>)> {
            let mut out = Vec::new();
            for (k, (delta, _)) in self.comps.iter().enumerate() {
                for (x, t) in delta[s[k]].iter().enumerate() {
                    if let Some(t) = t {
                        let mut n = s.clone();
                        n[k] = *t;
                        out.push((10 * k + x, n));
                    }
                }
            }
            out
        }
    }

    fn reachable<A: Automaton>(a: &A) -> BTreeSet<A::State> {
        let mut seen = BTreeSet::new();
        let mut queue: VecDeque<A::State> = a.initial_states().into();
        while let Some(q) = queue.pop_front() {
            if !seen.insert(q.clone()) {
                continue;
            }
            for (_, t) in a.successors(&q) {
                queue.push_back(t);
            }
        }
        seen
    }

    /// Pseudo-random components from a seed (xorshift).
    fn product(seed: u64, comps: usize, states: usize, letters: usize) -> Product {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let comps = (0..comps)
            .map(|_| {
                let delta = (0..states)
                    .map(|_| {
                        (0..letters)
                            .map(|_| {
                                let r = next() as usize;
                                (r % 3 != 0).then_some(r / 3 % states)
                            })
                            .collect()
                    })
                    .collect();
                let acc = (0..states).map(|_| next() % 3 == 0).collect();
                (delta, acc)
            })
            .collect();
        Product { comps }
    }

    #[test]
    fn reduction_preserves_reachable_states_and_prunes_interleavings() {
        let mut pruned = 0;
        for seed in 0..200 {
            let p = product(seed, 2 + (seed % 2) as usize, 3, 2);
            let red = SleepSetReduction::new(&p, |a: &usize, b: &usize| a / 10 != b / 10);
            let full: BTreeSet<Vec<usize>> = reachable(&p);
            let reduced: BTreeSet<Vec<usize>> = reachable(&red).into_iter().map(|s| s.0).collect();
            assert_eq!(full, reduced, "seed {seed}");
            let edges_full: usize = full.iter().map(|q| p.successors(q).len()).sum();
            let edges_red: usize = reachable(&red)
                .iter()
                .map(|s| red.successors(s).len())
                .sum();
            if edges_red < edges_full {
                pruned += 1;
            }
            // The per-letter interface agrees with `successors`.
            for s in reachable(&red) {
                let mut via_letters = Vec::new();
                for a in red.enabled_letters(&s) {
                    for t in red.successor(&s, &a) {
                        via_letters.push((a, t));
                    }
                }
                assert_eq!(via_letters, red.successors(&s), "seed {seed}");
            }
        }
        assert!(
            pruned > 50,
            "the reduction should prune something ({pruned})"
        );
    }

    #[test]
    fn dependent_letters_are_never_pruned() {
        // With every pair dependent the reduction is the automaton itself.
        for seed in 0..50 {
            let p = product(seed, 2, 3, 2);
            let red = SleepSetReduction::new(&p, |_: &usize, _: &usize| false);
            for q in reachable(&p) {
                let s = (q.clone(), Vec::new());
                let a: Vec<_> = red
                    .successors(&s)
                    .into_iter()
                    .map(|(a, t)| (a, t.0))
                    .collect();
                assert_eq!(a, p.successors(&q));
            }
        }
    }
}
