//! Nested word automata (call / internal / return letters) and their emptiness check with
//! summaries over double-decker states.
//!
//! A nested word automaton (Alur and Madhusudan, "Adding Nesting Structure to Words", J. ACM 2009)
//! reads *internal* letters like a finite automaton; a *call* letter pushes the current state (the
//! call's predecessor) as the hierarchical predecessor; a *return* letter pops it, and the return
//! transition depends on both the current state and that hierarchical predecessor. This is the
//! automaton model of Ultimate's library (`INestedWordAutomaton`, three alphabets) and of nested
//! interpolants (Heizmann, Hoenicke, Podelski, "Nested Interpolants", POPL 2010), where calls and
//! returns of a recursive program are letters. As in Ultimate, a run may end with *pending calls*
//! (unmatched calls; the stack need not be empty at the end), but there are *no pending returns*: a
//! return with an empty stack has no transition.
//!
//! [`nested_accepting_run`] decides emptiness by reachability over **double deckers** (Ultimate's
//! `IsEmpty` / `NestedWordAutomatonReachableStates`; Heizmann et al. POPL 2010): a
//! [`DoubleDecker`] `(down, up)` pairs the current state `up` with the state `down` on top of the
//! stack (`None` for the empty stack). Because call transitions depend only on the state they leave,
//! a return from `(d, q)` to `q'` leads from *every* reachable caller `(x, d)` to `(x, q')`: the
//! search records these returns as *summaries* keyed by `d`, and applies them to callers found
//! later. The stack itself is never built, so the search terminates on a finite automaton.
//!
//! Invariants: a double decker `(d, q)` is reached iff some run reaches `q` with `d` on top of the
//! stack (`None`: with the empty stack); every reached double decker records how it was first
//! reached (an internal or call step from an earlier one, or a return summary combining an earlier
//! caller and an earlier exit), so a run can be rebuilt by splicing, and the rebuilt
//! [`NestedRun`] is a run of the automaton ([`NestedRun::is_run_of`]) ending in an accepting state.
//! The search is breadth-first, in the order the automaton lists initial states and successors
//! (internal, then call, then return), so the result is deterministic. The [`Budget`] is polled once
//! per expanded double decker.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::convert::Infallible;
use std::fmt::Debug;
use std::hash::Hash;

use super::automaton::Successors;
use super::budget::{Budget, ExploreError};

/// A letter of a nested word, with its kind.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NestedLetter<L> {
    /// An internal letter.
    Internal(L),
    /// A call letter: pushes the current state.
    Call(L),
    /// A return letter: pops the hierarchical predecessor.
    Return(L),
}

impl<L> NestedLetter<L> {
    /// The letter without its kind.
    pub fn letter(&self) -> &L {
        match self {
            NestedLetter::Internal(l) | NestedLetter::Call(l) | NestedLetter::Return(l) => l,
        }
    }
}

/// A nested word automaton with on-demand, fallible successors.
///
/// Invariant for implementations, as for [`Automaton`](super::Automaton): answers are pure
/// functions of their arguments during one search, and successors come in a deterministic order.
pub trait NestedWordAutomaton {
    /// States of the automaton.
    type State: Clone + Eq + Hash + Ord + Debug;
    /// Letters of the three alphabets (the kind is given by the transition).
    type Letter: Clone + Eq + Hash + Ord + Debug;
    /// Why a successor could not be computed.
    type Error;
    /// The initial states, in a deterministic order.
    fn initial_states(&self) -> Vec<Self::State>;
    /// Whether `s` is accepting.
    fn is_accepting(&self, s: &Self::State) -> bool;
    /// The internal transitions of `s`.
    fn internal_successors(
        &self,
        s: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error>;
    /// The call transitions of `s` (`s` is pushed as the hierarchical predecessor).
    fn call_successors(
        &self,
        s: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error>;
    /// The return transitions of `s` when `hier` is the hierarchical predecessor (popped).
    fn return_successors(
        &self,
        s: &Self::State,
        hier: &Self::State,
    ) -> Result<Successors<Self::State, Self::Letter>, Self::Error>;
}

/// An explicit nested word automaton with ordered storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nwa<S: Ord, L: Ord> {
    states: BTreeSet<S>,
    initial: BTreeSet<S>,
    accepting: BTreeSet<S>,
    internal: BTreeMap<S, BTreeSet<(L, S)>>,
    call: BTreeMap<S, BTreeSet<(L, S)>>,
    ret: BTreeMap<(S, S), BTreeSet<(L, S)>>,
}

impl<S: Ord, L: Ord> Default for Nwa<S, L> {
    fn default() -> Self {
        Nwa {
            states: BTreeSet::new(),
            initial: BTreeSet::new(),
            accepting: BTreeSet::new(),
            internal: BTreeMap::new(),
            call: BTreeMap::new(),
            ret: BTreeMap::new(),
        }
    }
}

impl<S: Ord + Clone, L: Ord + Clone> Nwa<S, L> {
    /// The empty automaton.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `s`; marks it accepting if `accepting` (never un-marks).
    pub fn add_state(&mut self, s: S, accepting: bool) {
        if accepting {
            self.accepting.insert(s.clone());
        }
        self.states.insert(s);
    }

    /// Adds `s` as an initial state.
    pub fn add_initial(&mut self, s: S) {
        self.states.insert(s.clone());
        self.initial.insert(s);
    }

    /// Adds the internal transition `from --letter--> to`.
    pub fn add_internal(&mut self, from: S, letter: L, to: S) {
        self.states.insert(from.clone());
        self.states.insert(to.clone());
        self.internal.entry(from).or_default().insert((letter, to));
    }

    /// Adds the call transition `from --letter--> to`.
    pub fn add_call(&mut self, from: S, letter: L, to: S) {
        self.states.insert(from.clone());
        self.states.insert(to.clone());
        self.call.entry(from).or_default().insert((letter, to));
    }

    /// Adds the return transition `from --letter--> to` with hierarchical predecessor `hier`.
    pub fn add_return(&mut self, from: S, hier: S, letter: L, to: S) {
        self.states.insert(from.clone());
        self.states.insert(hier.clone());
        self.states.insert(to.clone());
        self.ret
            .entry((from, hier))
            .or_default()
            .insert((letter, to));
    }

    /// All states, in order.
    pub fn states(&self) -> impl Iterator<Item = &S> {
        self.states.iter()
    }
}

impl<S, L> NestedWordAutomaton for Nwa<S, L>
where
    S: Clone + Eq + Hash + Ord + Debug,
    L: Clone + Eq + Hash + Ord + Debug,
{
    type State = S;
    type Letter = L;
    type Error = Infallible;
    fn initial_states(&self) -> Vec<S> {
        self.initial.iter().cloned().collect()
    }
    fn is_accepting(&self, s: &S) -> bool {
        self.accepting.contains(s)
    }
    fn internal_successors(&self, s: &S) -> Result<Successors<S, L>, Infallible> {
        Ok(listed(self.internal.get(s)))
    }
    fn call_successors(&self, s: &S) -> Result<Successors<S, L>, Infallible> {
        Ok(listed(self.call.get(s)))
    }
    fn return_successors(&self, s: &S, hier: &S) -> Result<Successors<S, L>, Infallible> {
        Ok(listed(self.ret.get(&(s.clone(), hier.clone()))))
    }
}

fn listed<S: Clone, L: Clone>(set: Option<&BTreeSet<(L, S)>>) -> Vec<(L, S)> {
    set.map(|s| s.iter().cloned().collect()).unwrap_or_default()
}

/// A run over a nested word: `states[0] --letters[0]--> states[1] ...`; one more state than
/// letters. The stack is implicit: it holds the state before each pending call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NestedRun<S, L> {
    /// The visited states.
    pub states: Vec<S>,
    /// The letters read, with their kinds.
    pub letters: Vec<NestedLetter<L>>,
}

/// The nested run type of a nested word automaton.
pub type NestedRunOf<A> =
    NestedRun<<A as NestedWordAutomaton>::State, <A as NestedWordAutomaton>::Letter>;

impl<S: PartialEq + Clone, L: PartialEq> NestedRun<S, L> {
    /// Whether this is an accepting run of `aut`, replayed with an explicit stack: it starts in an
    /// initial state, every step is a transition of its kind (a return pops the state pushed by the
    /// matching call; a return on the empty stack is not a run), and it ends in an accepting state.
    /// Pending calls at the end are allowed.
    pub fn is_run_of<A>(&self, aut: &A) -> Result<bool, A::Error>
    where
        A: NestedWordAutomaton<State = S, Letter = L>,
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
        let mut stack: Vec<S> = Vec::new();
        for (i, l) in self.letters.iter().enumerate() {
            let (s, t) = (&self.states[i], &self.states[i + 1]);
            let succ = match l {
                NestedLetter::Internal(_) => aut.internal_successors(s)?,
                NestedLetter::Call(_) => {
                    stack.push(s.clone());
                    aut.call_successors(s)?
                }
                NestedLetter::Return(_) => match stack.pop() {
                    Some(h) => aut.return_successors(s, &h)?,
                    None => return Ok(false),
                },
            };
            if !succ.iter().any(|(x, u)| x == l.letter() && u == t) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A state of the summary search: `up` is the current state, `down` the state on top of the stack
/// (the predecessor of the innermost pending call), `None` for the empty stack.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DoubleDecker<S> {
    /// The top of the stack, or `None`.
    pub down: Option<S>,
    /// The current state.
    pub up: S,
}

/// How a double decker (by index) was first reached.
enum Parent<L> {
    Initial,
    Internal(usize, L),
    Call(usize, L),
    /// From the caller `(x, d)` through a call, a run at the next level to the exit `(d, q)`, and a
    /// return reading `letter`.
    Return {
        caller: usize,
        exit: usize,
        letter: L,
    },
}

struct Search<S, L> {
    index: HashMap<DoubleDecker<S>, usize>,
    deckers: Vec<DoubleDecker<S>>,
    parents: Vec<Parent<L>>,
    queue: VecDeque<usize>,
    /// For a state `u`: the reached double deckers `(x, u)`, i.e. the callers a call from `u` returns to.
    callers: HashMap<S, Vec<usize>>,
    /// For a state `d`: the returns found from exits `(d, q)`: (letter, target, exit).
    summaries: HashMap<S, Vec<(L, S, usize)>>,
}

impl<S: Clone + Eq + Hash, L: Clone> Search<S, L> {
    /// Adds `dd` (and every double decker that an existing summary derives from it) if new;
    /// returns the first new one whose state is accepting.
    fn reach(
        &mut self,
        dd: DoubleDecker<S>,
        parent: Parent<L>,
        accepting: &impl Fn(&S) -> bool,
    ) -> Option<usize> {
        let mut todo = VecDeque::from([(dd, parent)]);
        while let Some((dd, parent)) = todo.pop_front() {
            if self.index.contains_key(&dd) {
                continue;
            }
            let id = self.deckers.len();
            self.index.insert(dd.clone(), id);
            self.deckers.push(dd.clone());
            self.parents.push(parent);
            self.queue.push_back(id);
            if accepting(&dd.up) {
                return Some(id);
            }
            self.callers.entry(dd.up.clone()).or_default().push(id);
            for (letter, target, exit) in self.summaries.get(&dd.up).into_iter().flatten() {
                todo.push_back((
                    DoubleDecker {
                        down: dd.down.clone(),
                        up: target.clone(),
                    },
                    Parent::Return {
                        caller: id,
                        exit: *exit,
                        letter: letter.clone(),
                    },
                ));
            }
        }
        None
    }

    /// Rebuilds a run to the double decker `target` by splicing the recorded steps.
    fn run_to(&self, target: usize) -> NestedRun<S, L> {
        enum Task {
            /// The steps from an initial double decker to this one.
            Whole(usize),
            /// The steps from the call that entered this one's level to this one.
            Level(usize),
        }
        let mut reversed: Vec<(NestedLetter<L>, S)> = Vec::new();
        let mut start = None;
        let mut tasks = vec![Task::Whole(target)];
        while let Some(task) = tasks.pop() {
            let (id, whole) = match task {
                Task::Whole(id) => (id, true),
                Task::Level(id) => (id, false),
            };
            let same = |id| {
                if whole {
                    Task::Whole(id)
                } else {
                    Task::Level(id)
                }
            };
            let up = self.deckers[id].up.clone();
            match &self.parents[id] {
                Parent::Initial => start = Some(up),
                Parent::Internal(p, l) => {
                    reversed.push((NestedLetter::Internal(l.clone()), up));
                    tasks.push(same(*p));
                }
                Parent::Call(p, l) => {
                    reversed.push((NestedLetter::Call(l.clone()), up));
                    if whole {
                        tasks.push(Task::Whole(*p));
                    }
                }
                Parent::Return {
                    caller,
                    exit,
                    letter,
                } => {
                    reversed.push((NestedLetter::Return(letter.clone()), up));
                    tasks.push(same(*caller));
                    tasks.push(Task::Level(*exit));
                }
            }
        }
        let mut run = NestedRun {
            states: start.into_iter().collect(),
            letters: Vec::new(),
        };
        for (l, s) in reversed.into_iter().rev() {
            run.letters.push(l);
            run.states.push(s);
        }
        run
    }
}

/// An accepting run of the nested word automaton `aut` (possibly with pending calls, never with
/// pending returns), or `None` if its language is empty; polls `budget` once per expanded double
/// decker.
pub fn nested_accepting_run<A: NestedWordAutomaton>(
    aut: &A,
    budget: &Budget,
) -> Result<Option<NestedRunOf<A>>, ExploreError<A::Error>> {
    let mut search: Search<A::State, A::Letter> = Search {
        index: HashMap::new(),
        deckers: Vec::new(),
        parents: Vec::new(),
        queue: VecDeque::new(),
        callers: HashMap::new(),
        summaries: HashMap::new(),
    };
    let accepting = |s: &A::State| aut.is_accepting(s);
    for init in aut.initial_states() {
        let dd = DoubleDecker {
            down: None,
            up: init,
        };
        if let Some(found) = search.reach(dd, Parent::Initial, &accepting) {
            return Ok(Some(search.run_to(found)));
        }
    }
    while let Some(id) = search.queue.pop_front() {
        budget.check(search.deckers.len())?;
        let DoubleDecker { down, up } = search.deckers[id].clone();
        for (l, t) in aut
            .internal_successors(&up)
            .map_err(ExploreError::Successor)?
        {
            let dd = DoubleDecker {
                down: down.clone(),
                up: t,
            };
            if let Some(found) = search.reach(dd, Parent::Internal(id, l), &accepting) {
                return Ok(Some(search.run_to(found)));
            }
        }
        for (l, t) in aut.call_successors(&up).map_err(ExploreError::Successor)? {
            let dd = DoubleDecker {
                down: Some(up.clone()),
                up: t,
            };
            if let Some(found) = search.reach(dd, Parent::Call(id, l), &accepting) {
                return Ok(Some(search.run_to(found)));
            }
        }
        let Some(hier) = down else { continue };
        for (l, t) in aut
            .return_successors(&up, &hier)
            .map_err(ExploreError::Successor)?
        {
            search
                .summaries
                .entry(hier.clone())
                .or_default()
                .push((l.clone(), t.clone(), id));
            let callers = search.callers.get(&hier).cloned().unwrap_or_default();
            for caller in callers {
                let dd = DoubleDecker {
                    down: search.deckers[caller].down.clone(),
                    up: t.clone(),
                };
                let parent = Parent::Return {
                    caller,
                    exit: id,
                    letter: l.clone(),
                };
                if let Some(found) = search.reach(dd, parent, &accepting) {
                    return Ok(Some(search.run_to(found)));
                }
            }
        }
    }
    Ok(None)
}
