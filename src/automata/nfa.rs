//! Explicit finite automata (`Nfa`) and a tiny textual format for tests and reproducers.
//!
//! An [`Nfa`] stores its states, initial states, accepting states and transitions in ordered maps,
//! so iteration, printing and breadth-first search are deterministic. It is what
//! [`explore`](super::explore()) produces and what the CEGAR loop keeps as its abstraction.
//!
//! Invariant: every state that occurs as an initial state or as the source or target of a
//! transition is a key of the state map.
//!
//! # Text format
//!
//! In the spirit of Ultimate's `.ats` files: a sequence of `;`-terminated statements,
//!
//! ```text
//! init q0;          // one or more initial states
//! final q2;         // one or more accepting states
//! state q3;         // declares states without transitions (optional)
//! q0 a q1; q1 b q2; // transitions: source letter target
//! ```
//!
//! Names are whitespace-free tokens without `;`; `//` starts a comment that runs to the end of the
//! line. [`Nfa::from_text`] parses it into an `Nfa<String, String>`; the `Display` impl prints any
//! `Nfa` whose states and letters implement `Display` in the same format, one statement per line.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::automaton::Automaton;

#[derive(Clone, Debug, PartialEq, Eq)]
struct StateData<S, L> {
    accepting: bool,
    successors: BTreeSet<(L, S)>,
}

impl<S: Ord, L: Ord> Default for StateData<S, L> {
    fn default() -> Self {
        StateData {
            accepting: false,
            successors: BTreeSet::new(),
        }
    }
}

/// An explicit nondeterministic finite automaton with ordered storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nfa<S: Ord, L: Ord> {
    states: BTreeMap<S, StateData<S, L>>,
    initial: BTreeSet<S>,
}

impl<S: Ord, L: Ord> Default for Nfa<S, L> {
    fn default() -> Self {
        Nfa {
            states: BTreeMap::new(),
            initial: BTreeSet::new(),
        }
    }
}

impl<S: Ord + Clone, L: Ord + Clone> Nfa<S, L> {
    /// The empty automaton (no states).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `s` (if absent); marks it accepting if `accepting` is true (never un-marks).
    pub fn add_state(&mut self, s: S, accepting: bool) {
        let data = self.states.entry(s).or_default();
        data.accepting |= accepting;
    }

    /// Adds `s` as an initial state.
    pub fn add_initial(&mut self, s: S) {
        self.states.entry(s.clone()).or_default();
        self.initial.insert(s);
    }

    /// Marks `s` accepting (adding it if absent).
    pub fn set_accepting(&mut self, s: S) {
        self.add_state(s, true);
    }

    /// Adds the transition `from --letter--> to`, adding both states if absent.
    pub fn add_transition(&mut self, from: S, letter: L, to: S) {
        self.states.entry(to.clone()).or_default();
        self.states
            .entry(from)
            .or_default()
            .successors
            .insert((letter, to));
    }

    /// Whether `s` is a state.
    pub fn contains(&self, s: &S) -> bool {
        self.states.contains_key(s)
    }

    /// All states, in order.
    pub fn states(&self) -> impl Iterator<Item = &S> {
        self.states.keys()
    }

    /// The initial states, in order.
    pub fn initial(&self) -> impl Iterator<Item = &S> {
        self.initial.iter()
    }

    /// The accepting states, in order.
    pub fn accepting(&self) -> impl Iterator<Item = &S> {
        self.states
            .iter()
            .filter(|(_, d)| d.accepting)
            .map(|(s, _)| s)
    }

    /// All transitions `(from, letter, to)`, in order.
    pub fn transitions(&self) -> impl Iterator<Item = (&S, &L, &S)> {
        self.states
            .iter()
            .flat_map(|(s, d)| d.successors.iter().map(move |(l, t)| (s, l, t)))
    }

    /// The outgoing transitions of `s`, in order (empty if `s` is not a state).
    pub fn outgoing(&self, s: &S) -> impl Iterator<Item = (&L, &S)> {
        self.states
            .get(s)
            .into_iter()
            .flat_map(|d| d.successors.iter().map(|(l, t)| (l, t)))
    }

    /// The incoming transitions of every state: `target -> [(source, letter)]`, computed on demand.
    pub fn predecessors(&self) -> BTreeMap<&S, Vec<(&S, &L)>> {
        let mut pred: BTreeMap<&S, Vec<(&S, &L)>> =
            self.states.keys().map(|s| (s, Vec::new())).collect();
        for (s, l, t) in self.transitions() {
            pred.entry(t).or_default().push((s, l));
        }
        pred
    }

    /// The letters that occur on transitions, in order.
    pub fn alphabet(&self) -> BTreeSet<L> {
        self.transitions().map(|(_, l, _)| l.clone()).collect()
    }

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// Number of transitions.
    pub fn num_transitions(&self) -> usize {
        self.states.values().map(|d| d.successors.len()).sum()
    }

    /// The sub-automaton induced by the states satisfying `keep` (initial states and transitions
    /// touching a dropped state are dropped too).
    pub fn restrict(&self, mut keep: impl FnMut(&S) -> bool) -> Self {
        let kept: BTreeSet<&S> = self.states.keys().filter(|s| keep(s)).collect();
        let mut out = Nfa::new();
        for s in &kept {
            out.add_state((*s).clone(), self.states[*s].accepting);
        }
        for s in self.initial.iter().filter(|s| kept.contains(s)) {
            out.add_initial(s.clone());
        }
        for (s, l, t) in self.transitions() {
            if kept.contains(s) && kept.contains(t) {
                out.add_transition(s.clone(), l.clone(), t.clone());
            }
        }
        out
    }

    /// Renames states with `f` (which should be injective to keep the language).
    pub fn map_states<T: Ord + Clone>(&self, mut f: impl FnMut(&S) -> T) -> Nfa<T, L> {
        let mut out = Nfa::new();
        for (s, d) in &self.states {
            out.add_state(f(s), d.accepting);
        }
        for s in &self.initial {
            out.add_initial(f(s));
        }
        for (s, l, t) in self.transitions() {
            out.add_transition(f(s), l.clone(), f(t));
        }
        out
    }
}

impl<S, L> Automaton for Nfa<S, L>
where
    S: Clone + Eq + std::hash::Hash + Ord + fmt::Debug,
    L: Clone + Eq + std::hash::Hash + Ord + fmt::Debug,
{
    type State = S;
    type Letter = L;
    fn initial_states(&self) -> Vec<S> {
        self.initial.iter().cloned().collect()
    }
    fn is_accepting(&self, s: &S) -> bool {
        self.states.get(s).is_some_and(|d| d.accepting)
    }
    fn successors(&self, s: &S) -> Vec<(L, S)> {
        self.states
            .get(s)
            .map(|d| d.successors.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// A syntax error in the textual automaton format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based number of the offending statement.
    pub statement: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "statement {}: {}", self.statement, self.message)
    }
}

impl std::error::Error for ParseError {}

impl Nfa<String, String> {
    /// Parses the textual format described in the module documentation.
    pub fn from_text(text: &str) -> Result<Self, ParseError> {
        let without_comments: String = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut nfa = Nfa::new();
        let mut statements = without_comments.split(';').peekable();
        let mut index = 0;
        while let Some(stmt) = statements.next() {
            let words: Vec<&str> = stmt.split_whitespace().collect();
            if statements.peek().is_none() {
                // Text after the last `;`: must be blank.
                if !words.is_empty() {
                    return Err(ParseError {
                        statement: index + 1,
                        message: format!("missing `;` after `{}`", words.join(" ")),
                    });
                }
                break;
            }
            index += 1;
            let err = |message: String| ParseError {
                statement: index,
                message,
            };
            match words.as_slice() {
                [] => {}
                ["init", names @ ..] | ["final", names @ ..] | ["state", names @ ..] => {
                    if names.is_empty() {
                        return Err(err(format!("`{}` needs at least one state name", words[0])));
                    }
                    for name in names {
                        match words[0] {
                            "init" => nfa.add_initial((*name).to_string()),
                            "final" => nfa.set_accepting((*name).to_string()),
                            _ => nfa.add_state((*name).to_string(), false),
                        }
                    }
                }
                [from, letter, to] => nfa.add_transition(
                    (*from).to_string(),
                    (*letter).to_string(),
                    (*to).to_string(),
                ),
                _ => {
                    return Err(err(format!(
                        "expected `init S..`, `final S..`, `state S..` or `FROM LETTER TO`, found `{}`",
                        words.join(" ")
                    )));
                }
            }
        }
        Ok(nfa)
    }
}

impl<S: Ord + Clone + fmt::Display, L: Ord + Clone + fmt::Display> fmt::Display for Nfa<S, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |it: &mut dyn Iterator<Item = &S>| {
            it.map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
        };
        if !self.initial.is_empty() {
            writeln!(f, "init {};", join(&mut self.initial()))?;
        }
        if self.accepting().next().is_some() {
            writeln!(f, "final {};", join(&mut self.accepting()))?;
        }
        // States that are neither initial, accepting, nor touched by a transition.
        let mut touched: BTreeSet<&S> = self.initial.iter().chain(self.accepting()).collect();
        for (s, _, t) in self.transitions() {
            touched.insert(s);
            touched.insert(t);
        }
        let isolated: Vec<&S> = self.states().filter(|s| !touched.contains(s)).collect();
        if !isolated.is_empty() {
            writeln!(f, "state {};", join(&mut isolated.into_iter()))?;
        }
        for (s, l, t) in self.transitions() {
            writeln!(f, "{s} {l} {t};")?;
        }
        Ok(())
    }
}
