//! Finite automata as traits with on-demand successors, lazy products and differences, one explorer.
//!
//! This module knows nothing of SMT or of the program IR: automata are generic over their state and
//! letter types, as in Ultimate's Library-Automata (Heizmann, Hoenicke, Podelski, "Software Model
//! Checking for People Who Love Automata", CAV 2013).
//!
//! # The ladder of capabilities
//!
//! * [`Automaton`]: initial states, acceptance and *all enabled letters with their successors* of a
//!   state, computed on demand and infallibly (`&self`). The program automaton and every explicit
//!   automaton ([`Nfa`]) implement it; so do infallible lazy views such as [`Intersection`].
//! * [`DeterministicAutomaton`]: the subtrahend of a [`Difference`]. Deterministic and *total*: a
//!   successor query for any (state, letter) returns exactly one state, or an error (solver unknown,
//!   timeout). Floyd–Hoare automata implement it with `&mut self`, so they can compute and cache
//!   transitions while the difference is explored.
//! * [`FallibleAutomaton`]: what the explorer and the emptiness check consume. It is `Automaton` with
//!   an associated `Error` type; every `Automaton` is one (with `Error = Infallible`), and
//!   [`Difference`] is one with the subtrahend's error type.
//! * Both answer per-letter queries, `enabled_letters(s)` and `successor(s, letter)`, by default by
//!   filtering all successors; the lazy views override them so that letter-by-letter searches
//!   ([`accepting_run_dfs`], [`accepting_lasso`]) compute only the successors they explore.
//! * [`NestedWordAutomaton`]: call / internal / return letters, return transitions reading the
//!   hierarchical predecessor; emptiness by summaries over double deckers
//!   ([`nested_accepting_run`]).
//!
//! Emptiness comes in four rungs: BFS ([`shortest_accepting_run`], shortest counterexample), DFS with
//! a preference order ([`accepting_run_dfs`]), Büchi lassos ([`accepting_lasso`], acceptance read as
//! Büchi acceptance) and nested words ([`nested_accepting_run`]). All poll a [`Budget`].
//!
//! # Architecture invariants
//!
//! * **Only [`explore()`] materializes.** Products, differences and subset constructions are lazy
//!   views; [`explore()`] builds the reachable part as an [`Nfa`]. The emptiness searches
//!   (BFS, DFS, lasso, nested) walk the views too, keeping only what their answer needs (parents,
//!   visited states; the lasso search the explored edges, to build the loop).
//! * **Cancellation is explicit.** Every loop that can run long polls a [`Budget`] and stops with
//!   [`ExploreError::Cancelled`]; a subtrahend's failure surfaces as [`ExploreError::Successor`].
//! * **Deterministic iteration.** Explicit automata use `BTreeMap`/`BTreeSet`; BFS visits successors
//!   in the order `successors` returns them, so counterexamples and printed automata are
//!   reproducible.
//! * **Ready for concurrency and Büchi acceptance.** Letters are opaque (a letter may carry a thread
//!   id); acceptance is a state predicate, which is also how Büchi acceptance is expressed, so only
//!   the emptiness check ([`accepting_lasso`] instead of BFS) changes for termination analysis.
//!
//! # Example: one refinement step of the CEGAR loop
//!
//! ```
//! use lapidary::automata::*;
//!
//! // The abstraction: an error location `err` reachable by `a c`.
//! let abstraction = Nfa::from_text("init q0; final err; q0 a q1; q1 b q0; q1 c err;").unwrap();
//! let cex = shortest_accepting_run(&abstraction, &Budget::unlimited()).unwrap().unwrap();
//! assert_eq!(cex.letters, ["a", "c"]);
//!
//! // A (here explicit) Floyd–Hoare automaton proving every trace containing `c` infeasible:
//! // `true` is initial, `false` is the accepting trap.
//! let mut proof: Dfa<&str, String> = Dfa::new("true");
//! for letter in ["a", "b"] {
//!     proof.set_transition("true", letter.to_string(), "true");
//! }
//! proof.set_transition("true", "c".to_string(), "false");
//! proof.add_trap("false");
//!
//! // Refine: abstraction := remove_dead_ends(explore(abstraction \ proof)).
//! let refined = explore(&Difference::new(&abstraction, &mut proof), &Budget::unlimited()).unwrap();
//! let refined = remove_dead_ends(&refined);
//! assert!(ensure_progress(&refined, &cex.letters).is_ok());
//! assert_eq!(shortest_accepting_run(&refined, &Budget::unlimited()), Ok(None));
//! ```
//!
//! # Modules (one per algorithm)
//!
//! | module | computes |
//! |---|---|
//! | [`automaton`] | the traits |
//! | [`budget`] | budgets, cancellation, the error type of operations |
//! | [`nfa`] | explicit automata and the textual format |
//! | [`dfa`] | explicit total DFAs and the lazy subset construction |
//! | [`intersection`] | lazy product `A ∩ B` |
//! | [`difference`] | lazy `A ∩ complement(B)` for deterministic total `B`, with trap pruning |
//! | [`explore`](mod@explore) | reachable-states materialization and dead-end removal |
//! | [`emptiness`] | shortest accepting run by BFS, word membership, the CEGAR progress check |
//! | [`dfs`] | an accepting run by DFS with a pluggable letter preference ([`DfsOrder`]) |
//! | [`lasso`] | Büchi emptiness: an accepting [`Lasso`] by on-the-fly Tarjan SCCs |
//! | [`ncsb`] | lazy Büchi difference `A \ B` for semi-deterministic `B` by NCSB complementation |
//! | [`nested`] | nested word automata, emptiness with summaries over double deckers |
//! | [`minimize`](mod@minimize) | partition-refinement minimization restricted by an initial partition |

pub mod automaton;
pub mod budget;
pub mod counted;
pub mod dfa;
pub mod dfs;
pub mod difference;
pub mod emptiness;
pub mod explore;
pub mod intersection;
pub mod lasso;
pub mod minimize;
pub mod ncsb;
pub mod nested;
pub mod nfa;
pub mod sleep;

pub use automaton::{Automaton, DeterministicAutomaton, FallibleAutomaton, Successors};
pub use budget::{Budget, Cancelled, ExploreError};
pub use counted::Counted;
pub use dfa::{Determinize, Dfa, MissingTransition};
pub use dfs::{DfsOrder, EnabledOrder, LetterOrder, accepting_run_dfs};
pub use difference::{Difference, check_bounded as check_difference_bounded};
pub use emptiness::{
    NoProgress, Run, RunOf, accepts, accepts_deterministic, ensure_progress, shortest_accepting_run,
};
pub use explore::{NfaOf, explore, remove_buchi_dead_ends, remove_dead_ends};
pub use intersection::Intersection;
pub use lasso::{Lasso, LassoOf, accepting_lasso};
pub use minimize::minimize;
pub use ncsb::{
    BuchiDifference, BuchiDifferenceState, Ncsb, NcsbError, SemiDeterministicAutomaton,
};
pub use nested::{
    DoubleDecker, NestedLetter, NestedRun, NestedRunOf, NestedWordAutomaton, Nwa,
    nested_accepting_run,
};
pub use nfa::{Nfa, ParseError};
pub use sleep::{Independence, SleepSetReduction, SleepState};
