//! Büchi emptiness: an accepting lasso `stem · loop^ω` of an on-demand automaton, or none.
//!
//! Read as a Büchi automaton (acceptance is the same state predicate
//! [`is_accepting`](super::FallibleAutomaton::is_accepting)), an automaton accepts an infinite word
//! iff some run visits accepting states infinitely often; its language is nonempty iff there is a
//! [`Lasso`]: a run from an initial state to a state `p` (the stem), then a nonempty run from `p`
//! back to `p` (the loop) that visits an accepting state. This is the counterexample shape of
//! termination analysis (Heizmann, Hoenicke, Podelski, "Termination Analysis by Learning Terminating
//! Programs", CAV 2014: Ultimate's `BuchiIsEmpty` returns a `NestedLassoRun`).
//!
//! **Algorithm: Tarjan's strongly connected components, on the fly** (R. Tarjan, "Depth-First
//! Search and Linear Graph Algorithms", SIAM J. Comput. 1972; used for LTL emptiness by Couvreur,
//! FM 1999, and Geldenhuys and Valmari, TCS 2005). The language is nonempty iff a reachable
//! *nontrivial* SCC (two states, or one with a self-loop) contains an accepting state. We chose the
//! SCC search over the nested DFS of Courcoubetis, Vardi, Wolper and Yannakakis (FMSD 1992) because
//! the nested DFS expands states twice (blue and red search), and on a lazy
//! [`Difference`](super::Difference) every expansion may ask the Floyd–Hoare subtrahend for a
//! transition (a Hoare-triple check). Tarjan expands each state once, letter by letter through
//! [`try_enabled_letters`](super::FallibleAutomaton::try_enabled_letters) /
//! [`try_successor`](super::FallibleAutomaton::try_successor), and stops at the first completed SCC
//! with an accepting state (later than Couvreur's earliest detection, but simpler). It keeps the
//! explored edges of the states it has seen, so the loop is built by BFS inside the SCC without
//! asking the automaton again.
//!
//! Invariants: the DFS call stack is a run from an initial state; when the SCC rooted at `r`
//! completes, all its states are fully expanded, so its explored edges are all its edges; the stem
//! of a returned lasso is the call stack down to `r`, and its loop is a shortest path (BFS, ties by
//! exploration order) from `r` to the SCC's first-visited accepting state `f`, followed by a shortest
//! nonempty path from `f` back to `r`. So a returned lasso is a lasso of the automaton with an
//! accepting state in its loop ([`Lasso::is_lasso_of`]); `None` means no accepting lasso exists.
//! The [`Budget`] is polled once per newly visited state.

use std::collections::{HashMap, VecDeque};

use super::automaton::FallibleAutomaton;
use super::budget::{Budget, ExploreError};
use super::emptiness::Run;

/// An ultimately periodic run: `stem` from an initial state to the loop's first state, then `cycle`
/// (the loop), a nonempty run from that state back to itself.
///
/// Invariant of a well-formed lasso: `stem.states.last() == cycle.states.first() ==
/// cycle.states.last()` and `cycle.letters` is nonempty. The infinite word is
/// `stem.letters · cycle.letters^ω`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lasso<S, L> {
    /// From an initial state to the loop's first state (may read no letter).
    pub stem: Run<S, L>,
    /// The loop: a nonempty run returning to its first state.
    pub cycle: Run<S, L>,
}

/// The lasso type of an automaton.
pub type LassoOf<A> = Lasso<<A as FallibleAutomaton>::State, <A as FallibleAutomaton>::Letter>;

impl<S, L> Lasso<S, L> {
    /// Whether this is an accepting lasso of `aut`: well formed (see the type), the stem starts in
    /// an initial state, every step is a transition of `aut`, and some state of the loop is
    /// accepting.
    pub fn is_lasso_of<A>(&self, aut: &A) -> Result<bool, A::Error>
    where
        A: FallibleAutomaton<State = S, Letter = L>,
        S: PartialEq,
        L: PartialEq,
    {
        let (Some(first), Some(stem_end)) = (self.stem.states.first(), self.stem.states.last())
        else {
            return Ok(false);
        };
        let well_formed = !self.cycle.letters.is_empty()
            && self.cycle.states.first() == Some(stem_end)
            && self.cycle.states.last() == Some(stem_end)
            && aut.initial_states().contains(first);
        if !well_formed || !self.cycle.states.iter().any(|s| aut.is_accepting(s)) {
            return Ok(false);
        }
        Ok(steps_are_transitions(aut, &self.stem)? && steps_are_transitions(aut, &self.cycle)?)
    }
}

/// Whether `run` has one state more than letters and each step is a transition of `aut`.
fn steps_are_transitions<A: FallibleAutomaton>(
    aut: &A,
    run: &Run<A::State, A::Letter>,
) -> Result<bool, A::Error> {
    if run.states.len() != run.letters.len() + 1 {
        return Ok(false);
    }
    for (i, l) in run.letters.iter().enumerate() {
        if !aut
            .try_successor(&run.states[i], l)?
            .contains(&run.states[i + 1])
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A state on the DFS call stack, by index; `entered_by` is the letter from its parent.
struct Frame<L, S> {
    v: usize,
    entered_by: Option<L>,
    letters: Vec<L>,
    next_letter: usize,
    targets: Vec<S>,
    next_target: usize,
}

/// The call-stack frame type for an automaton.
type FrameOf<A> = Frame<<A as FallibleAutomaton>::Letter, <A as FallibleAutomaton>::State>;

/// Tarjan's bookkeeping for the visited states, all indexed by visiting order.
struct Tarjan<S, L> {
    index: HashMap<S, usize>,
    states: Vec<S>,
    accepting: Vec<bool>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    edges: Vec<Vec<(L, usize)>>,
}

impl<S: Clone + Eq + std::hash::Hash, L: Clone> Tarjan<S, L> {
    /// A shortest path of at least one step from `from` to `to` through states with `in_scc`,
    /// as (letter, target) steps; ties by exploration order of the edges.
    fn path(&self, from: usize, to: usize, in_scc: &[bool]) -> Option<Vec<(L, usize)>> {
        // parent[w] = (source, edge index) of the BFS tree edge into `w`.
        let mut parent: Vec<Option<(usize, usize)>> = vec![None; self.states.len()];
        let mut queue = VecDeque::from([from]);
        let mut seen = vec![false; self.states.len()];
        while let Some(v) = queue.pop_front() {
            for (e, (_, w)) in self.edges[v].iter().enumerate() {
                if !in_scc[*w] || seen[*w] {
                    continue;
                }
                seen[*w] = true;
                parent[*w] = Some((v, e));
                if *w == to {
                    let mut steps = Vec::new();
                    let mut cur = to;
                    loop {
                        let (src, e) = parent[cur]?;
                        steps.push(self.edges[src][e].clone());
                        if src == from {
                            break;
                        }
                        cur = src;
                    }
                    steps.reverse();
                    return Some(steps);
                }
                queue.push_back(*w);
            }
        }
        None
    }
}

/// An accepting lasso of `aut` read as a Büchi automaton, or `None` if it accepts no infinite
/// word; polls `budget` once per visited state.
pub fn accepting_lasso<A: FallibleAutomaton>(
    aut: &A,
    budget: &Budget,
) -> Result<Option<LassoOf<A>>, ExploreError<A::Error>> {
    let mut t: Tarjan<A::State, A::Letter> = Tarjan {
        index: HashMap::new(),
        states: Vec::new(),
        accepting: Vec::new(),
        low: Vec::new(),
        on_stack: Vec::new(),
        stack: Vec::new(),
        edges: Vec::new(),
    };
    let visit = |t: &mut Tarjan<A::State, A::Letter>,
                 s: A::State,
                 entered_by: Option<A::Letter>|
     -> Result<FrameOf<A>, ExploreError<A::Error>> {
        let v = t.states.len();
        budget.check(v + 1)?;
        let letters = aut
            .try_enabled_letters(&s)
            .map_err(ExploreError::Successor)?;
        t.index.insert(s.clone(), v);
        t.accepting.push(aut.is_accepting(&s));
        t.states.push(s);
        t.low.push(v);
        t.on_stack.push(true);
        t.stack.push(v);
        t.edges.push(Vec::new());
        Ok(Frame {
            v,
            entered_by,
            letters,
            next_letter: 0,
            targets: Vec::new(),
            next_target: 0,
        })
    };
    for init in aut.initial_states() {
        if t.index.contains_key(&init) {
            continue;
        }
        let mut calls = vec![visit(&mut t, init, None)?];
        while let Some(top) = calls.last_mut() {
            let v = top.v;
            if top.next_target < top.targets.len() {
                let s = top.targets[top.next_target].clone();
                top.next_target += 1;
                let letter = top.letters[top.next_letter - 1].clone();
                match t.index.get(&s) {
                    Some(&w) => {
                        t.edges[v].push((letter, w));
                        if t.on_stack[w] {
                            t.low[v] = t.low[v].min(w);
                        }
                    }
                    None => {
                        let frame = visit(&mut t, s, Some(letter.clone()))?;
                        t.edges[v].push((letter, frame.v));
                        calls.push(frame);
                    }
                }
            } else if top.next_letter < top.letters.len() {
                let targets = aut
                    .try_successor(&t.states[v], &top.letters[top.next_letter])
                    .map_err(ExploreError::Successor)?;
                top.next_letter += 1;
                top.targets = targets;
                top.next_target = 0;
            } else {
                // `v` is finished.
                let Some(done) = calls.pop() else { break };
                if let Some(parent) = calls.last() {
                    t.low[parent.v] = t.low[parent.v].min(t.low[v]);
                }
                if t.low[v] != v {
                    continue;
                }
                // `v` is the root of an SCC: pop it.
                let mut members = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                // Accepting lassos need an accepting state (the first visited one) and a
                // nontrivial SCC: two states, or a self-loop.
                let Some(&f) = members.iter().filter(|&&w| t.accepting[w]).min() else {
                    continue;
                };
                if members.len() == 1 && !t.edges[v].iter().any(|(_, w)| *w == v) {
                    continue;
                }
                let mut in_scc = vec![false; t.states.len()];
                for &w in &members {
                    in_scc[w] = true;
                }
                let to_f = if f == v {
                    Some(Vec::new())
                } else {
                    t.path(v, f, &in_scc)
                };
                let (Some(to_f), Some(back)) = (to_f, t.path(f, v, &in_scc)) else {
                    // Unreachable: a nontrivial SCC connects every pair of its states.
                    continue;
                };
                // The stem: the call stack, then `v`.
                let mut stem_states: Vec<A::State> =
                    calls.iter().map(|c| t.states[c.v].clone()).collect();
                stem_states.push(t.states[v].clone());
                let stem_letters: Vec<A::Letter> = calls
                    .iter()
                    .filter_map(|c| c.entered_by.clone())
                    .chain(done.entered_by)
                    .collect();
                let mut cycle = Run {
                    states: vec![t.states[v].clone()],
                    letters: Vec::new(),
                };
                for (l, w) in to_f.into_iter().chain(back) {
                    cycle.letters.push(l);
                    cycle.states.push(t.states[w].clone());
                }
                return Ok(Some(Lasso {
                    stem: Run {
                        states: stem_states,
                        letters: stem_letters,
                    },
                    cycle,
                }));
            }
        }
    }
    Ok(None)
}
