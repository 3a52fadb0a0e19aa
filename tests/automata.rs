//! Tests of the automata library: language laws on random small automata (checked by enumerating
//! all words up to length 5 against a brute-force reference), plus unit tests for cancellation,
//! error propagation, trap pruning, the progress check and the text format.
//!
//! The rungs of the emptiness ladder each have a brute-force twin: DFS against BFS and word
//! enumeration; the Büchi lasso search against enumeration of `u · v^ω` lassos with short `u`, `v`
//! (exact for the automata sizes generated); nested-word emptiness against a bounded-stack
//! exploration of configurations, with every returned run replayed on the raw automaton.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use lapidary::automata::*;
use proptest::prelude::*;

const MAX_LEN: usize = 5;

/// A random NFA in raw form, so the reference semantics is independent of the library.
#[derive(Clone, Debug)]
struct RawNfa {
    n: usize,
    initial: Vec<usize>,
    accepting: Vec<usize>,
    edges: Vec<(usize, char, usize)>,
}

impl RawNfa {
    fn to_nfa(&self) -> Nfa<usize, char> {
        let mut nfa = Nfa::new();
        for s in 0..self.n {
            nfa.add_state(s, self.accepting.contains(&s));
        }
        for &s in &self.initial {
            nfa.add_initial(s);
        }
        for &(s, l, t) in &self.edges {
            nfa.add_transition(s, l, t);
        }
        nfa
    }

    /// Reference membership: the set of states reachable by `w`.
    fn accepts(&self, w: &[char]) -> bool {
        let mut cur: BTreeSet<usize> = self.initial.iter().copied().collect();
        for &c in w {
            cur = self
                .edges
                .iter()
                .filter(|(s, l, _)| cur.contains(s) && *l == c)
                .map(|(_, _, t)| *t)
                .collect();
        }
        cur.iter().any(|s| self.accepting.contains(s))
    }
}

/// A random total DFA in raw form, optionally with an accepting trap state.
#[derive(Clone, Debug)]
struct RawDfa {
    table: Vec<Vec<usize>>,
    accepting: Vec<usize>,
    trap: Option<usize>,
}

impl RawDfa {
    fn to_dfa(&self) -> Dfa<usize, char> {
        let mut dfa = Dfa::new(0);
        for &s in &self.accepting {
            dfa.set_accepting(s);
        }
        if let Some(t) = self.trap {
            dfa.add_trap(t);
        }
        for (s, row) in self.table.iter().enumerate() {
            for (i, &t) in row.iter().enumerate() {
                dfa.set_transition(s, letter(i), t);
            }
        }
        dfa
    }

    fn accepts(&self, w: &[char]) -> bool {
        let mut s = 0;
        for &c in w {
            if Some(s) != self.trap {
                s = self.table[s][(c as u8 - b'a') as usize];
            }
        }
        self.accepting.contains(&s) || Some(s) == self.trap
    }
}

fn letter(i: usize) -> char {
    (b'a' + i as u8) as char
}

fn words(k: usize, max_len: usize) -> Vec<Vec<char>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for w in &layer {
            for i in 0..k {
                let mut w2: Vec<char> = w.clone();
                w2.push(letter(i));
                next.push(w2);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

fn raw_nfa(k: usize) -> impl Strategy<Value = RawNfa> {
    raw_nfa_sized(k, 6, 12)
}

fn raw_nfa_sized(k: usize, max_n: usize, max_edges: usize) -> impl Strategy<Value = RawNfa> {
    (1usize..=max_n).prop_flat_map(move |n| {
        (
            prop::collection::vec(0..n, 1..=2),
            prop::collection::vec(0..n, 0..=2),
            prop::collection::vec((0..n, 0..k, 0..n), 0..=max_edges),
        )
            .prop_map(move |(initial, accepting, edges)| RawNfa {
                n,
                initial,
                accepting,
                edges: edges
                    .into_iter()
                    .map(|(s, l, t)| (s, letter(l), t))
                    .collect(),
            })
    })
}

fn raw_dfa(k: usize) -> impl Strategy<Value = RawDfa> {
    (1usize..=6).prop_flat_map(move |m| {
        (
            prop::collection::vec(prop::collection::vec(0..m, k), m),
            prop::collection::vec(0..m, 0..=2),
            prop::option::of(0..m),
        )
            .prop_map(move |(table, accepting, trap)| RawDfa {
                table,
                accepting,
                trap,
            })
    })
}

fn nfa_and_dfa() -> impl Strategy<Value = (usize, RawNfa, RawDfa)> {
    (1usize..=3).prop_flat_map(|k| (Just(k), raw_nfa(k), raw_dfa(k)))
}

fn ok<T>(r: Result<T, impl std::fmt::Debug>) -> T {
    r.expect("no error expected")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn difference_is_intersection_with_complement((k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let diff = Difference::new(&nfa, b.to_dfa());
        let explored = ok(explore(&diff, &Budget::unlimited()));
        let alphabet: Vec<char> = (0..k).map(letter).collect();
        let mismatch = ok(check_difference_bounded(&nfa, &mut b.to_dfa(), &explored, &alphabet, MAX_LEN));
        prop_assert_eq!(mismatch, None, "difference check failed; minuend:\n{}", nfa);
        for w in words(k, MAX_LEN) {
            let expected = a.accepts(&w) && !b.accepts(&w);
            prop_assert_eq!(ok(accepts(&diff, &w)), expected, "lazy, word {:?}", w);
            prop_assert_eq!(ok(accepts(&explored, &w)), expected, "explored, word {:?}", w);
        }
    }

    #[test]
    fn trap_pruning_keeps_the_language((k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let pruned = ok(explore(&Difference::new(&nfa, b.to_dfa()), &Budget::unlimited()));
        let full = ok(explore(
            &Difference::new(&nfa, b.to_dfa()).with_trap_pruning(false),
            &Budget::unlimited(),
        ));
        prop_assert!(pruned.num_states() <= full.num_states());
        for w in words(k, MAX_LEN) {
            prop_assert_eq!(ok(accepts(&pruned, &w)), ok(accepts(&full, &w)), "word {:?}", w);
        }
    }

    #[test]
    fn explore_and_dead_end_removal_keep_the_language((k, a, _b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let explored = ok(explore(&nfa, &Budget::unlimited()));
        let trimmed = remove_dead_ends(&explored);
        for s in trimmed.states() {
            // Every remaining state lies on an accepting run: reachable and co-reachable.
            prop_assert!(explored.contains(s));
        }
        prop_assert!(trimmed.num_states() <= explored.num_states());
        for w in words(k, MAX_LEN) {
            prop_assert_eq!(ok(accepts(&explored, &w)), a.accepts(&w), "explored, word {:?}", w);
            prop_assert_eq!(ok(accepts(&trimmed, &w)), a.accepts(&w), "trimmed, word {:?}", w);
        }
        // A trimmed automaton is empty iff it has no states.
        let empty = ok(shortest_accepting_run(&nfa, &Budget::unlimited())).is_none();
        prop_assert_eq!(empty, trimmed.num_states() == 0);
    }

    #[test]
    fn bfs_finds_a_shortest_accepting_run((k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        // Plain NFA: with ≤ 6 states a shortest accepted word has length ≤ 5, so brute force is exact.
        let shortest = words(k, MAX_LEN).into_iter().find(|w| a.accepts(w));
        let run = ok(shortest_accepting_run(&nfa, &Budget::unlimited()));
        match (&run, &shortest) {
            (None, None) => {}
            (Some(run), Some(w)) => {
                prop_assert!(ok(run.is_run_of(&nfa)));
                prop_assert!(a.accepts(&run.letters));
                prop_assert_eq!(run.len(), w.len());
            }
            _ => prop_assert!(false, "run {:?} vs brute force {:?}", run, shortest),
        }
        // Difference: runs may be longer than the enumeration bound.
        let diff = Difference::new(&nfa, b.to_dfa());
        let shortest = words(k, MAX_LEN).into_iter().find(|w| a.accepts(w) && !b.accepts(w));
        let run = ok(shortest_accepting_run(&diff, &Budget::unlimited()));
        if let Some(run) = &run {
            prop_assert!(ok(run.is_run_of(&diff)));
            prop_assert!(a.accepts(&run.letters) && !b.accepts(&run.letters));
        }
        match (&run, &shortest) {
            (Some(run), Some(w)) => prop_assert_eq!(run.len(), w.len()),
            (Some(run), None) => prop_assert!(run.len() > MAX_LEN),
            (None, Some(w)) => prop_assert!(false, "missed {:?}", w),
            (None, None) => {}
        }
    }

    #[test]
    fn determinize_and_intersection_laws((k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let mut det = Determinize::new(&nfa);
        let dfa_as_nfa = {
            // The DFA as an explicit NFA (trap loops made explicit).
            let mut out = Nfa::new();
            out.add_initial(0usize);
            for (s, row) in b.table.iter().enumerate() {
                let acc = b.accepting.contains(&s) || Some(s) == b.trap;
                out.add_state(s, acc);
                for (i, &t) in row.iter().enumerate() {
                    out.add_transition(s, letter(i), if Some(s) == b.trap { s } else { t });
                }
            }
            out
        };
        let product = Intersection::new(&nfa, &dfa_as_nfa);
        for w in words(k, MAX_LEN) {
            prop_assert_eq!(ok(accepts_deterministic(&mut det, &w)), a.accepts(&w));
            prop_assert_eq!(ok(accepts(&product, &w)), a.accepts(&w) && b.accepts(&w));
            // Difference with a nondeterministic subtrahend via the subset construction.
            let diff = Difference::new(&dfa_as_nfa, Determinize::new(&nfa));
            prop_assert_eq!(ok(accepts(&diff, &w)), b.accepts(&w) && !a.accepts(&w));
        }
    }

    #[test]
    fn minimization_keeps_the_language_and_the_partition((k, a, _b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let min = minimize(&nfa, |s| s % 2);
        prop_assert!(min.num_states() <= nfa.num_states());
        for w in words(k, MAX_LEN) {
            prop_assert_eq!(ok(accepts(&min, &w)), a.accepts(&w), "word {:?}", w);
        }
        // Idempotent.
        prop_assert_eq!(minimize(&min, |s| s % 2).num_states(), min.num_states());
    }

    #[test]
    fn text_format_round_trips((_k, a, _b) in nfa_and_dfa()) {
        let nfa = a.to_nfa().map_states(|s| format!("q{s}"));
        let nfa = {
            let mut out: Nfa<String, String> = Nfa::new();
            for s in nfa.states() {
                out.add_state(s.clone(), nfa.accepting().any(|t| t == s));
            }
            for s in nfa.initial() {
                out.add_initial(s.clone());
            }
            for (s, l, t) in nfa.transitions() {
                out.add_transition(s.clone(), l.to_string(), t.clone());
            }
            out
        };
        let text = nfa.to_string();
        prop_assert_eq!(Nfa::from_text(&text), Ok(nfa));
    }
}

fn example() -> Nfa<String, String> {
    Nfa::from_text(
        "// a loop with an exit to the error state
         init q0; final err;
         q0 a q1; q1 b q0; q1 c err; q0 d q2;",
    )
    .expect("valid text")
}

#[test]
fn text_format_prints_deterministically() {
    let nfa = example();
    assert_eq!(
        nfa.to_string(),
        "init q0;\nfinal err;\nq0 a q1;\nq0 d q2;\nq1 b q0;\nq1 c err;\n"
    );
    let trimmed = remove_dead_ends(&nfa);
    assert_eq!(
        trimmed.to_string(),
        "init q0;\nfinal err;\nq0 a q1;\nq1 b q0;\nq1 c err;\n"
    );
}

#[test]
fn text_format_reports_errors() {
    assert_eq!(
        Nfa::from_text("init q0; q0 a;"),
        Err(ParseError {
            statement: 2,
            message:
                "expected `init S..`, `final S..`, `state S..` or `FROM LETTER TO`, found `q0 a`"
                    .into()
        })
    );
    assert!(Nfa::from_text("init q0; q0 a q1").is_err());
    assert!(Nfa::from_text("final;").is_err());
    assert_eq!(Nfa::from_text("state s; ;").map(|n| n.num_states()), Ok(1));
}

#[test]
fn shortest_run_breaks_ties_by_successor_order() {
    let nfa = Nfa::from_text("init q; final f; q a x; q b y; x c f; y c f;").expect("valid");
    let run = shortest_accepting_run(&nfa, &Budget::unlimited())
        .expect("no error")
        .expect("nonempty");
    assert_eq!(run.letters, ["a", "c"]);
    assert_eq!(run.states, ["q", "x", "f"]);
    let accepting_initial = Nfa::from_text("init q; final q;").expect("valid");
    let run = shortest_accepting_run(&accepting_initial, &Budget::unlimited())
        .expect("ok")
        .expect("nonempty");
    assert!(run.is_empty());
}

/// A Floyd–Hoare-like subtrahend: `true` (initial) and `false` (accepting trap); letter `c` is
/// infeasible from `true` (leads to `false`); it counts queries and fails on letter `boom`.
struct FakeFloydHoare {
    queries: Vec<(String, String)>,
}

#[derive(Debug, PartialEq, Eq)]
struct SolverUnknown;

impl DeterministicAutomaton for FakeFloydHoare {
    type State = String;
    type Letter = String;
    type Error = SolverUnknown;
    fn initial(&self) -> String {
        "true".into()
    }
    fn is_accepting(&self, s: &String) -> bool {
        s == "false"
    }
    fn is_trap(&self, s: &String) -> bool {
        s == "false"
    }
    fn successor(&mut self, s: &String, a: &String) -> Result<String, SolverUnknown> {
        self.queries.push((s.clone(), a.clone()));
        if a == "boom" {
            return Err(SolverUnknown);
        }
        Ok(if s == "false" || a == "c" {
            "false".into()
        } else {
            "true".into()
        })
    }
}

#[test]
fn refinement_step_with_trap_pruning_and_progress() {
    let abstraction =
        Nfa::from_text("init q0; final err; q0 a q1; q1 b q0; q1 c q3; q3 e err; q0 d q2;")
            .expect("valid");
    let cex = shortest_accepting_run(&abstraction, &Budget::unlimited())
        .expect("ok")
        .expect("nonempty");
    assert_eq!(cex.letters, ["a", "c", "e"]);

    let mut fh = FakeFloydHoare {
        queries: Vec::new(),
    };
    let diff = Difference::new(&abstraction, &mut fh);
    let refined = explore(&diff, &Budget::unlimited()).expect("no solver failure");
    let (_, _) = diff.into_parts();
    // The trap state `false` is never expanded: no query starts from it.
    assert!(
        fh.queries.iter().all(|(s, _)| s != "false"),
        "{:?}",
        fh.queries
    );
    let refined = remove_dead_ends(&refined);
    assert_eq!(refined.num_states(), 0);
    assert_eq!(ensure_progress(&refined, &cex.letters), Ok(()));
    assert_eq!(
        shortest_accepting_run(&refined, &Budget::unlimited()),
        Ok(None)
    );
    // Without pruning the trap is expanded.
    let mut fh = FakeFloydHoare {
        queries: Vec::new(),
    };
    let diff = Difference::new(&abstraction, &mut fh).with_trap_pruning(false);
    explore(&diff, &Budget::unlimited()).expect("ok");
    let (_, _) = diff.into_parts();
    assert!(fh.queries.iter().any(|(s, _)| s == "false"));
}

#[test]
fn difference_check_finds_a_wrong_result() {
    let a = Nfa::from_text("init q; final q; q x q;").expect("valid");
    let mut b: Dfa<u8, String> = Dfa::new(0);
    b.set_transition(0, "x".into(), 1);
    b.add_trap(1);
    // L(a) \ L(b) = {ε}; claiming L(a) is wrong from "x" on.
    let wrong = check_difference_bounded(&a, &mut b, &a, &["x".to_string()], 3).expect("total");
    assert_eq!(wrong, Some(vec!["x".to_string()]));
    let right = explore(&Difference::new(&a, &mut b), &Budget::unlimited()).expect("ok");
    assert_eq!(
        check_difference_bounded(&a, &mut b, &right, &["x".to_string()], 3),
        Ok(None)
    );
}

#[test]
fn progress_check_reports_a_still_accepted_word() {
    let nfa = example();
    let word: Vec<String> = vec!["a".into(), "c".into()];
    assert_eq!(
        ensure_progress(&nfa, &word),
        Err(NoProgress::<Infallible>::StillAccepted)
    );
}

#[test]
fn subtrahend_errors_propagate() {
    let nfa = Nfa::from_text("init q; final f; q a r; r boom f;").expect("valid");
    let diff = Difference::new(
        &nfa,
        FakeFloydHoare {
            queries: Vec::new(),
        },
    );
    assert_eq!(
        explore(&diff, &Budget::unlimited()).err(),
        Some(ExploreError::Successor(SolverUnknown))
    );
    assert_eq!(
        shortest_accepting_run(&diff, &Budget::unlimited()),
        Err(ExploreError::Successor(SolverUnknown))
    );
    let word: Vec<String> = vec!["a".into(), "boom".into()];
    assert_eq!(accepts(&diff, &word), Err(SolverUnknown));
    assert_eq!(
        ensure_progress(&diff, &word),
        Err(NoProgress::Successor(SolverUnknown))
    );
    // An explicit DFA reports a missing transition.
    let mut dfa: Dfa<u8, String> = Dfa::new(0);
    dfa.set_transition(0, "a".into(), 0);
    let err = explore(&Difference::new(&nfa, dfa), &Budget::unlimited()).expect_err("missing");
    assert!(
        matches!(err, ExploreError::Successor(MissingTransition { .. })),
        "{err:?}"
    );
}

/// An infinite automaton over the naturals: n --inc--> n+1, nothing accepting.
struct Counter;

impl Automaton for Counter {
    type State = u64;
    type Letter = &'static str;
    fn initial_states(&self) -> Vec<u64> {
        vec![0]
    }
    fn is_accepting(&self, _: &u64) -> bool {
        false
    }
    fn successors(&self, s: &u64) -> Vec<(&'static str, u64)> {
        vec![("inc", s + 1)]
    }
}

#[test]
fn budgets_cancel_exploration_and_emptiness() {
    let limit = Budget::unlimited().with_max_states(100);
    assert_eq!(
        explore(&Counter, &limit).err(),
        Some(ExploreError::Cancelled(Cancelled::StateLimit(100)))
    );
    assert_eq!(
        shortest_accepting_run(&Counter, &limit),
        Err(ExploreError::Cancelled(Cancelled::StateLimit(100)))
    );
    let past = Budget::unlimited().with_deadline(Instant::now());
    assert_eq!(
        explore(&Counter, &past).err(),
        Some(ExploreError::Cancelled(Cancelled::Deadline))
    );
    let soon = Budget::unlimited().with_deadline(Instant::now() + Duration::from_millis(50));
    assert_eq!(
        shortest_accepting_run(&Counter, &soon),
        Err(ExploreError::Cancelled(Cancelled::Deadline))
    );
    let flag = Arc::new(AtomicBool::new(true));
    let requested = Budget::unlimited().with_cancel_flag(flag);
    assert_eq!(
        explore(&Counter, &requested).err(),
        Some(ExploreError::Cancelled(Cancelled::Requested))
    );
}

#[test]
fn minimization_respects_the_partition() {
    // q1 and q2 are bisimilar; they merge unless the key separates them.
    let nfa = Nfa::from_text("init q0; final f; q0 a q1; q0 b q2; q1 c f; q2 c f;").expect("valid");
    let merged = minimize(&nfa, |_| ());
    assert_eq!(merged.num_states(), 3);
    assert_eq!(
        merged.to_string(),
        "init q0;\nfinal f;\nq0 a q1;\nq0 b q1;\nq1 c f;\n"
    );
    let separated = minimize(&nfa, |s| s.clone());
    assert_eq!(separated, nfa);
}

// ---------------------------------------------------------------------------------------------
// Per-letter queries and DFS emptiness.
// ---------------------------------------------------------------------------------------------

/// The per-letter contract on every reachable state: `enabled_letters` covers the letters of
/// `successors`, and `successor(s, x)` lists exactly the `x`-targets of `successors(s)`, in order.
fn check_per_letter_contract<A: FallibleAutomaton>(aut: &A) -> Result<(), String>
where
    A::Error: std::fmt::Debug,
{
    let explored = explore(aut, &Budget::unlimited()).map_err(|e| format!("{e:?}"))?;
    for s in explored.states() {
        let all = aut.try_successors(s).map_err(|e| format!("{e:?}"))?;
        let enabled = aut.try_enabled_letters(s).map_err(|e| format!("{e:?}"))?;
        for (x, _) in &all {
            if !enabled.contains(x) {
                return Err(format!("{s:?}: letter {x:?} not enabled"));
            }
        }
        for x in &enabled {
            let expected: Vec<A::State> = all
                .iter()
                .filter(|(y, _)| y == x)
                .map(|(_, t)| t.clone())
                .collect();
            let got = aut.try_successor(s, x).map_err(|e| format!("{e:?}"))?;
            if got != expected {
                return Err(format!("{s:?} {x:?}: {got:?} vs {expected:?}"));
            }
        }
    }
    Ok(())
}

/// Orders to run DFS with: the automaton's, ascending, descending, and one depending on the state.
fn with_each_order<S: std::fmt::Debug, T>(
    mut f: impl FnMut(&dyn DfsOrder<S, char>) -> T,
) -> Vec<T> {
    let reversed = |_: &S, ls: &mut [char]| ls.sort_by(|x, y| y.cmp(x));
    let rotated = |s: &S, ls: &mut [char]| {
        let n = format!("{s:?}").len();
        if !ls.is_empty() {
            ls.rotate_left(n % ls.len());
        }
    };
    vec![f(&EnabledOrder), f(&LetterOrder), f(&reversed), f(&rotated)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn per_letter_queries_agree_with_all_successors((_k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        prop_assert_eq!(check_per_letter_contract(&nfa), Ok(()));
        prop_assert_eq!(check_per_letter_contract(&Difference::new(&nfa, b.to_dfa())), Ok(()));
        let unpruned = Difference::new(&nfa, b.to_dfa()).with_trap_pruning(false);
        prop_assert_eq!(check_per_letter_contract(&unpruned), Ok(()));
        prop_assert_eq!(check_per_letter_contract(&Intersection::new(&nfa, &nfa)), Ok(()));
    }

    #[test]
    fn dfs_agrees_with_bfs_and_brute_force((k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        // With ≤ 6 states, a shortest accepted word has length ≤ 5: the enumeration is exact.
        let brute = words(k, MAX_LEN).into_iter().any(|w| a.accepts(&w));
        let bfs = ok(shortest_accepting_run(&nfa, &Budget::unlimited()));
        prop_assert_eq!(bfs.is_some(), brute);
        for run in with_each_order(|order| ok(accepting_run_dfs(&nfa, order, &Budget::unlimited()))) {
            prop_assert_eq!(run.is_some(), brute, "dfs {:?}", run);
            if let Some(run) = run {
                prop_assert!(ok(run.is_run_of(&nfa)), "not a run: {:?}", run);
                prop_assert!(a.accepts(&run.letters));
            }
        }
        // The lazy difference, explored letter by letter.
        let diff = Difference::new(&nfa, b.to_dfa());
        let bfs = ok(shortest_accepting_run(&diff, &Budget::unlimited()));
        for run in with_each_order(|order| ok(accepting_run_dfs(&diff, order, &Budget::unlimited()))) {
            prop_assert_eq!(run.is_some(), bfs.is_some(), "dfs {:?} bfs {:?}", run, bfs);
            if let Some(run) = run {
                prop_assert!(ok(run.is_run_of(&diff)), "not a run: {:?}", run);
                prop_assert!(a.accepts(&run.letters) && !b.accepts(&run.letters));
                if let Some(bfs) = &bfs {
                    prop_assert!(run.len() >= bfs.len());
                }
            }
        }
    }
}

#[test]
fn dfs_follows_the_preference_order() {
    let nfa = Nfa::from_text("init q; final f; q a x; q b y; x c f; y c f;").expect("valid");
    let budget = Budget::unlimited();
    let run = accepting_run_dfs(&nfa, &EnabledOrder, &budget)
        .expect("ok")
        .expect("nonempty");
    assert_eq!(run.letters, ["a", "c"]);
    let prefer_b = |_: &String, ls: &mut [String]| ls.sort_by_key(|l| l != "b");
    let run = accepting_run_dfs(&nfa, &prefer_b, &budget)
        .expect("ok")
        .expect("nonempty");
    assert_eq!(run.letters, ["b", "c"]);
    assert_eq!(run.states, ["q", "y", "f"]);
    // DFS goes deep first: not necessarily a shortest run.
    let nfa = Nfa::from_text("init q; final f; q a x; x a f; q b f;").expect("valid");
    let run = accepting_run_dfs(&nfa, &LetterOrder, &budget)
        .expect("ok")
        .expect("nonempty");
    assert_eq!(run.letters, ["a", "a"]);
    let empty = Nfa::from_text("init q; final f; q a q;").expect("valid");
    assert_eq!(accepting_run_dfs(&empty, &LetterOrder, &budget), Ok(None));
}

#[test]
fn dfs_on_a_difference_asks_the_subtrahend_only_for_explored_letters() {
    // From q0, letter a reaches the error at once; b and d are never explored.
    let abstraction =
        Nfa::from_text("init q0; final err; q0 a err; q0 b q1; q0 d q2; q1 e err;").expect("valid");
    let mut fh = FakeFloydHoare {
        queries: Vec::new(),
    };
    let diff = Difference::new(&abstraction, &mut fh);
    let run = accepting_run_dfs(&diff, &EnabledOrder, &Budget::unlimited())
        .expect("no solver failure")
        .expect("nonempty");
    assert_eq!(run.letters, ["a"]);
    let (_, _) = diff.into_parts();
    assert_eq!(fh.queries, [("true".to_string(), "a".to_string())]);
    // BFS asks for every successor of an expanded state.
    let mut fh = FakeFloydHoare {
        queries: Vec::new(),
    };
    let diff = Difference::new(&abstraction, &mut fh);
    shortest_accepting_run(&diff, &Budget::unlimited()).expect("ok");
    let (_, _) = diff.into_parts();
    assert_eq!(fh.queries.len(), 3, "{:?}", fh.queries);
    // Subtrahend errors propagate from the letter being explored.
    let nfa = Nfa::from_text("init q; final f; q a r; r boom f;").expect("valid");
    let diff = Difference::new(
        &nfa,
        FakeFloydHoare {
            queries: Vec::new(),
        },
    );
    assert_eq!(
        accepting_run_dfs(&diff, &EnabledOrder, &Budget::unlimited()),
        Err(ExploreError::Successor(SolverUnknown))
    );
    assert_eq!(
        accepting_lasso(&diff, &Budget::unlimited()),
        Err(ExploreError::Successor(SolverUnknown))
    );
}

#[test]
fn budgets_cancel_dfs_and_lasso_search() {
    let limit = Budget::unlimited().with_max_states(100);
    assert_eq!(
        accepting_run_dfs(&Counter, &EnabledOrder, &limit),
        Err(ExploreError::Cancelled(Cancelled::StateLimit(100)))
    );
    assert_eq!(
        accepting_lasso(&Counter, &limit),
        Err(ExploreError::Cancelled(Cancelled::StateLimit(100)))
    );
    let flag = Arc::new(AtomicBool::new(true));
    let requested = Budget::unlimited().with_cancel_flag(flag);
    assert_eq!(
        accepting_run_dfs(&Counter, &LetterOrder, &requested),
        Err(ExploreError::Cancelled(Cancelled::Requested))
    );
    let past = Budget::unlimited().with_deadline(Instant::now());
    assert_eq!(
        accepting_lasso(&Counter, &past),
        Err(ExploreError::Cancelled(Cancelled::Deadline))
    );
}

// ---------------------------------------------------------------------------------------------
// Büchi lassos.
// ---------------------------------------------------------------------------------------------

impl RawNfa {
    /// The states reachable from `from` by `w` (reference semantics).
    fn post(&self, from: &BTreeSet<usize>, w: &[char]) -> BTreeSet<usize> {
        let mut cur = from.clone();
        for &c in w {
            cur = self
                .edges
                .iter()
                .filter(|(s, l, _)| cur.contains(s) && *l == c)
                .map(|(_, _, t)| *t)
                .collect();
        }
        cur
    }

    /// Whether some run reads `v` from `p` back to `p` and visits an accepting state after a letter.
    fn accepting_cycle(&self, p: usize, v: &[char]) -> bool {
        let mut cur: BTreeSet<(usize, bool)> = BTreeSet::from([(p, false)]);
        for &c in v {
            cur = cur
                .iter()
                .flat_map(|&(s, seen)| {
                    self.edges
                        .iter()
                        .filter(move |(s2, l, _)| *s2 == s && *l == c)
                        .map(move |&(_, _, t)| (t, seen || self.accepting.contains(&t)))
                })
                .collect();
        }
        cur.contains(&(p, true))
    }

    /// Whether `u · v^ω` has an accepting lasso run `u` to `p`, `v` from `p` back to `p`.
    fn accepts_lasso(&self, u: &[char], v: &[char]) -> bool {
        let init: BTreeSet<usize> = self.initial.iter().copied().collect();
        self.post(&init, u)
            .into_iter()
            .any(|p| self.accepting_cycle(p, v))
    }

    /// Whether the run is made of raw edges.
    fn has_steps(&self, states: &[usize], letters: &[char]) -> bool {
        states.len() == letters.len() + 1
            && letters
                .iter()
                .enumerate()
                .all(|(i, &l)| self.edges.contains(&(states[i], l, states[i + 1])))
    }
}

/// Lassos of raw NFAs with ≤ 4 states found by enumeration: stems of length ≤ 3 and loops of
/// length 1..=4. Exact for ≤ 4 states: an accepting lasso can always be chosen with its loop
/// starting at an accepting state `f`, a simple stem to `f` (≤ 3 letters) and a simple cycle
/// through `f` (≤ 4 letters).
fn enumerated_lasso(a: &RawNfa, k: usize) -> Option<(Vec<char>, Vec<char>)> {
    let stems = words(k, 3);
    let loops: Vec<Vec<char>> = words(k, 4).into_iter().filter(|w| !w.is_empty()).collect();
    for u in &stems {
        for v in &loops {
            if a.accepts_lasso(u, v) {
                return Some((u.clone(), v.clone()));
            }
        }
    }
    None
}

fn small_nfa() -> impl Strategy<Value = (usize, RawNfa)> {
    (1usize..=2).prop_flat_map(|k| (Just(k), raw_nfa_sized(k, 4, 8)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lasso_search_agrees_with_lasso_enumeration((k, a) in small_nfa()) {
        let nfa = a.to_nfa();
        let lasso = ok(accepting_lasso(&nfa, &Budget::unlimited()));
        let enumerated = enumerated_lasso(&a, k);
        prop_assert_eq!(lasso.is_some(), enumerated.is_some(), "{:?} vs {:?}\n{}", lasso, enumerated, nfa);
        if let Some(l) = lasso {
            prop_assert!(ok(l.is_lasso_of(&nfa)), "not a lasso: {:?}", l);
            // Independently of the library: raw edges, an initial start, an accepting loop state.
            prop_assert!(a.initial.contains(&l.stem.states[0]));
            prop_assert!(a.has_steps(&l.stem.states, &l.stem.letters));
            prop_assert!(a.has_steps(&l.cycle.states, &l.cycle.letters));
            prop_assert!(!l.cycle.letters.is_empty());
            prop_assert_eq!(l.stem.states.last(), l.cycle.states.first());
            prop_assert_eq!(l.cycle.states.first(), l.cycle.states.last());
            prop_assert!(l.cycle.states.iter().any(|s| a.accepting.contains(s)));
            prop_assert!(a.accepts_lasso(&l.stem.letters, &l.cycle.letters));
        }
    }

    #[test]
    fn lasso_search_on_a_lazy_difference((_k, a, b) in nfa_and_dfa()) {
        let nfa = a.to_nfa();
        let diff = Difference::new(&nfa, b.to_dfa());
        let explored = ok(explore(&diff, &Budget::unlimited()));
        let lazy = ok(accepting_lasso(&diff, &Budget::unlimited()));
        let materialized = ok(accepting_lasso(&explored, &Budget::unlimited()));
        prop_assert_eq!(lazy.is_some(), materialized.is_some());
        prop_assert_eq!(&lazy, &materialized, "same search order, same lasso");
        if let Some(l) = lazy {
            prop_assert!(ok(l.is_lasso_of(&diff)));
            prop_assert!(a.has_steps(
                &l.stem.states.iter().map(|s| s.0).collect::<Vec<_>>(),
                &l.stem.letters
            ));
        }
    }
}

#[test]
fn lasso_examples() {
    let budget = Budget::unlimited();
    // q0 a q1, then (b c)^ω through the accepting q2.
    let nfa =
        Nfa::from_text("init q0; final q2; q0 a q1; q1 b q2; q2 c q1; q1 d q3;").expect("valid");
    let lasso = accepting_lasso(&nfa, &budget).expect("ok").expect("lasso");
    assert_eq!(lasso.stem.letters, ["a"]);
    assert_eq!(lasso.stem.states, ["q0", "q1"]);
    assert_eq!(lasso.cycle.letters, ["b", "c"]);
    assert_eq!(lasso.cycle.states, ["q1", "q2", "q1"]);
    assert_eq!(lasso.is_lasso_of(&nfa), Ok(true));
    // An accepting state reachable, but on no cycle: finite-word nonempty, Büchi empty.
    let nfa = Nfa::from_text("init q0; final f; q0 a q0; q0 b f;").expect("valid");
    assert_eq!(accepting_lasso(&nfa, &budget), Ok(None));
    assert!(shortest_accepting_run(&nfa, &budget).expect("ok").is_some());
    // A self-loop on an accepting initial state: empty stem.
    let nfa = Nfa::from_text("init q; final q; q a q;").expect("valid");
    let lasso = accepting_lasso(&nfa, &budget).expect("ok").expect("lasso");
    assert!(lasso.stem.letters.is_empty());
    assert_eq!(lasso.cycle.letters, ["a"]);
    // A malformed lasso is rejected.
    let mut bad = lasso.clone();
    bad.cycle.letters.clear();
    bad.cycle.states.truncate(1);
    assert_eq!(bad.is_lasso_of(&nfa), Ok(false));
}

// ---------------------------------------------------------------------------------------------
// NCSB complementation and the Büchi difference.
// ---------------------------------------------------------------------------------------------

/// Reference Büchi membership of `u · v^ω` (`v` nonempty) in a raw automaton: the product with the
/// word's positions (`0..|u|+|v|`, position `|u|+|v|` wraps to `|u|`) has a reachable accepting
/// node on a cycle. Exact, and independent of the library.
fn buchi_accepts(
    initial: &[usize],
    accepting: &[usize],
    edges: &[(usize, char, usize)],
    u: &[char],
    v: &[char],
) -> bool {
    let word: Vec<char> = u.iter().chain(v).copied().collect();
    let next_pos = |p: usize| if p + 1 < word.len() { p + 1 } else { u.len() };
    let succ = |(q, p): (usize, usize)| -> Vec<(usize, usize)> {
        edges
            .iter()
            .filter(|(s, l, _)| *s == q && *l == word[p])
            .map(|&(_, _, t)| (t, next_pos(p)))
            .collect()
    };
    let reach = |from: Vec<(usize, usize)>| -> BTreeSet<(usize, usize)> {
        let mut seen: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut stack = from;
        while let Some(x) = stack.pop() {
            if seen.insert(x) {
                stack.extend(succ(x));
            }
        }
        seen
    };
    let reachable = reach(initial.iter().map(|&q| (q, 0)).collect());
    reachable
        .iter()
        .filter(|(q, _)| accepting.contains(q))
        .any(|&x| reach(succ(x)).contains(&x))
}

/// Initial states, accepting states and edges of a raw automaton.
type RawBuchi = (Vec<usize>, Vec<usize>, Vec<(usize, char, usize)>);

/// A raw explicit automaton read off any `Nfa` (states numbered in order).
fn raw_of<S: Ord + Clone>(nfa: &Nfa<S, char>) -> RawBuchi {
    let ids: std::collections::BTreeMap<&S, usize> =
        nfa.states().enumerate().map(|(i, s)| (s, i)).collect();
    (
        nfa.initial().map(|s| ids[s]).collect(),
        nfa.accepting().map(|s| ids[s]).collect(),
        nfa.transitions()
            .map(|(s, l, t)| (ids[s], *l, ids[t]))
            .collect(),
    )
}

/// A random semi-deterministic Büchi automaton in raw form: states `0..n1` nondeterministic,
/// `n1..n` deterministic (at most one successor per letter, inside), accepting states among them.
#[derive(Clone, Debug)]
struct RawSdba {
    n1: usize,
    initial: Vec<usize>,
    accepting: Vec<usize>,
    edges: Vec<(usize, char, usize)>,
}

impl SemiDeterministicAutomaton for RawSdba {
    type State = usize;
    type Letter = char;
    type Error = Infallible;
    fn initial_states(&self) -> Vec<usize> {
        let set: BTreeSet<usize> = self.initial.iter().copied().collect();
        set.into_iter().collect()
    }
    fn is_accepting(&self, s: &usize) -> bool {
        self.accepting.contains(s)
    }
    fn is_deterministic(&self, s: &usize) -> bool {
        *s >= self.n1
    }
    fn successors(&mut self, s: &usize, a: &char) -> Result<Vec<usize>, Infallible> {
        let set: BTreeSet<usize> = self
            .edges
            .iter()
            .filter(|(p, l, _)| p == s && l == a)
            .map(|&(_, _, t)| t)
            .collect();
        Ok(set.into_iter().collect())
    }
}

fn raw_sdba(k: usize) -> impl Strategy<Value = RawSdba> {
    (0usize..=2, 1usize..=3).prop_flat_map(move |(n1, n2)| {
        let n = n1 + n2;
        (
            prop::collection::vec(0..n, 1..=2),
            prop::collection::vec(n1..n, 0..=2),
            prop::collection::vec((0..n1.max(1), 0..k, 0..n), 0..=(3 * n1)),
            // For each deterministic state and letter: a target, or none.
            prop::collection::vec(prop::option::of(n1..n), n2 * k),
        )
            .prop_map(move |(initial, accepting, nondet, det)| {
                let mut edges: Vec<(usize, char, usize)> = nondet
                    .into_iter()
                    .filter(|(s, _, _)| *s < n1)
                    .map(|(s, l, t)| (s, letter(l), t))
                    .collect();
                for (i, t) in det.into_iter().enumerate() {
                    if let Some(t) = t {
                        edges.push((n1 + i / k, letter(i % k), t));
                    }
                }
                RawSdba {
                    n1,
                    initial,
                    accepting,
                    edges,
                }
            })
    })
}

/// The lasso words `u · v^ω` with `|u| <= 2` and `1 <= |v| <= 3`.
fn lasso_words(k: usize) -> Vec<(Vec<char>, Vec<char>)> {
    let loops: Vec<Vec<char>> = words(k, 3).into_iter().filter(|w| !w.is_empty()).collect();
    words(k, 2)
        .into_iter()
        .flat_map(|u| loops.iter().map(move |v| (u.clone(), v.clone())))
        .collect()
}

/// One state accepting everything over `k` letters.
fn universal(k: usize) -> Nfa<usize, char> {
    let mut nfa = Nfa::new();
    nfa.add_state(0, true);
    nfa.add_initial(0);
    for i in 0..k {
        nfa.add_transition(0, letter(i), 0);
    }
    nfa
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ncsb_complements_semi_deterministic_automata(
        (k, b) in (1usize..=2).prop_flat_map(|k| (Just(k), raw_sdba(k)))
    ) {
        let all = universal(k);
        let mut sub = b.clone();
        let complement = ok(explore(&BuchiDifference::new(&all, &mut sub), &Budget::unlimited()));
        let (ci, ca, ce) = raw_of(&complement);
        for (u, v) in lasso_words(k) {
            let in_b = buchi_accepts(&b.initial, &b.accepting, &b.edges, &u, &v);
            let in_c = buchi_accepts(&ci, &ca, &ce, &u, &v);
            prop_assert_eq!(in_c, !in_b, "{:?}·({:?})^ω, complement:\n{:?}", u, v, complement);
        }
    }

    #[test]
    fn buchi_difference_agrees_with_the_reference(
        (k, a, b) in (1usize..=2).prop_flat_map(|k| (Just(k), raw_nfa_sized(k, 4, 8), raw_sdba(k)))
    ) {
        let nfa = a.to_nfa();
        let mut sub = b.clone();
        let diff = BuchiDifference::new(&nfa, &mut sub);
        let explored = ok(explore(&diff, &Budget::unlimited()));
        let trimmed = remove_buchi_dead_ends(&explored);
        let (di, da, de) = raw_of(&explored);
        let (ti, ta, te) = raw_of(&trimmed);
        for (u, v) in lasso_words(k) {
            let expected = buchi_accepts(&a.initial, &a.accepting, &a.edges, &u, &v)
                && !buchi_accepts(&b.initial, &b.accepting, &b.edges, &u, &v);
            prop_assert_eq!(buchi_accepts(&di, &da, &de, &u, &v), expected, "{:?}·({:?})^ω", u, v);
            prop_assert_eq!(buchi_accepts(&ti, &ta, &te, &u, &v), expected, "trimmed {:?}·({:?})^ω", u, v);
        }
        // The lasso search on the lazy view finds a lasso iff the explored one has one.
        let lazy = ok(accepting_lasso(&diff, &Budget::unlimited()));
        let materialized = ok(accepting_lasso(&explored, &Budget::unlimited()));
        prop_assert_eq!(lazy.is_some(), materialized.is_some());
        if let Some(l) = lazy {
            prop_assert!(ok(l.is_lasso_of(&diff)));
        }
    }

    #[test]
    fn buchi_dead_end_removal_keeps_lasso_words((k, a) in small_nfa()) {
        let nfa = a.to_nfa();
        let trimmed = remove_buchi_dead_ends(&nfa);
        let (ti, ta, te) = raw_of(&trimmed);
        for (u, v) in lasso_words(k) {
            prop_assert_eq!(
                buchi_accepts(&ti, &ta, &te, &u, &v),
                buchi_accepts(&a.initial, &a.accepting, &a.edges, &u, &v)
            );
        }
        // Every state left lies on an accepting lasso: it reaches an accepting state on a cycle.
        for s in trimmed.states() {
            let single = {
                let mut n = Nfa::new();
                for x in trimmed.states() {
                    n.add_state(*x, trimmed.accepting().any(|y| y == x));
                }
                n.add_initial(*s);
                for (p, l, q) in trimmed.transitions() {
                    n.add_transition(*p, *l, *q);
                }
                n
            };
            prop_assert!(ok(accepting_lasso(&single, &Budget::unlimited())).is_some(), "state {}", s);
        }
    }
}

#[test]
fn ncsb_examples() {
    // Ultimate's example: words that eventually repeat `ab`; the complement accepts `a^ω`, `b^ω`,
    // `(aab)^ω`, not `(ab)^ω` or `b (ab)^ω`.
    let mut b = RawSdba {
        n1: 1,
        initial: vec![0],
        accepting: vec![1],
        edges: vec![
            (0, 'a', 0),
            (0, 'b', 0),
            (0, 'a', 1),
            (1, 'b', 2),
            (2, 'a', 1),
        ],
    };
    let all = universal(2);
    let complement = ok(explore(
        &BuchiDifference::new(&all, &mut b),
        &Budget::unlimited(),
    ));
    let (ci, ca, ce) = raw_of(&complement);
    let accepts = |u: &str, v: &str| {
        let (u, v): (Vec<char>, Vec<char>) = (u.chars().collect(), v.chars().collect());
        buchi_accepts(&ci, &ca, &ce, &u, &v)
    };
    assert!(accepts("", "a"));
    assert!(accepts("", "b"));
    assert!(accepts("", "aab"));
    assert!(!accepts("", "ab"));
    assert!(!accepts("b", "ab"));
    // A deterministic state with two successors is reported, not complemented.
    let mut bad = RawSdba {
        n1: 0,
        initial: vec![0],
        accepting: vec![0],
        edges: vec![(0, 'a', 0), (0, 'a', 1)],
    };
    let diff = BuchiDifference::new(&all, &mut bad);
    assert!(matches!(
        explore(&diff, &Budget::unlimited()),
        Err(ExploreError::Successor(NcsbError::NotSemiDeterministic(_)))
    ));
}

// ---------------------------------------------------------------------------------------------
// Nested words.
// ---------------------------------------------------------------------------------------------

/// A random nested word automaton in raw form: internal letters `a`, `b`, call `c`, return `r`.
#[derive(Clone, Debug)]
struct RawNwa {
    n: usize,
    initial: Vec<usize>,
    accepting: Vec<usize>,
    internal: Vec<(usize, char, usize)>,
    calls: Vec<(usize, usize)>,
    returns: Vec<(usize, usize, usize)>,
}

const CALL: char = 'c';
const RETURN: char = 'r';

impl RawNwa {
    fn to_nwa(&self) -> Nwa<usize, char> {
        let mut nwa = Nwa::new();
        for s in 0..self.n {
            nwa.add_state(s, self.accepting.contains(&s));
        }
        for &s in &self.initial {
            nwa.add_initial(s);
        }
        for &(s, l, t) in &self.internal {
            nwa.add_internal(s, l, t);
        }
        for &(s, t) in &self.calls {
            nwa.add_call(s, CALL, t);
        }
        for &(s, h, t) in &self.returns {
            nwa.add_return(s, h, RETURN, t);
        }
        nwa
    }

    /// Whether some configuration (state, stack) with an accepting state is reachable within
    /// `max_len` letters and stack height `max_stack` (reference: explicit stacks).
    fn bounded_nonempty(&self, max_len: usize, max_stack: usize) -> bool {
        let mut layer: BTreeSet<(usize, Vec<usize>)> =
            self.initial.iter().map(|&s| (s, Vec::new())).collect();
        let mut seen = layer.clone();
        for _ in 0..=max_len {
            if layer.iter().any(|(s, _)| self.accepting.contains(s)) {
                return true;
            }
            let mut next = BTreeSet::new();
            for (s, stack) in &layer {
                for &(s2, _, t) in &self.internal {
                    if s2 == *s {
                        next.insert((t, stack.clone()));
                    }
                }
                if stack.len() < max_stack {
                    for &(s2, t) in &self.calls {
                        if s2 == *s {
                            let mut st = stack.clone();
                            st.push(*s);
                            next.insert((t, st));
                        }
                    }
                }
                if let Some((&h, rest)) = stack.split_last() {
                    for &(s2, h2, t) in &self.returns {
                        if s2 == *s && h2 == h {
                            next.insert((t, rest.to_vec()));
                        }
                    }
                }
            }
            layer = next
                .into_iter()
                .filter(|c| seen.insert(c.clone()))
                .collect();
        }
        false
    }

    /// Replays a nested run on the raw transitions with an explicit stack.
    fn replays(&self, run: &NestedRun<usize, char>) -> bool {
        if run.states.len() != run.letters.len() + 1
            || !self.initial.contains(&run.states[0])
            || !run
                .states
                .last()
                .is_some_and(|s| self.accepting.contains(s))
        {
            return false;
        }
        let mut stack = Vec::new();
        for (i, l) in run.letters.iter().enumerate() {
            let (s, t) = (run.states[i], run.states[i + 1]);
            let ok = match l {
                NestedLetter::Internal(x) => self.internal.contains(&(s, *x, t)),
                NestedLetter::Call(x) => {
                    stack.push(s);
                    *x == CALL && self.calls.contains(&(s, t))
                }
                NestedLetter::Return(x) => match stack.pop() {
                    Some(h) => *x == RETURN && self.returns.contains(&(s, h, t)),
                    None => false,
                },
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

fn raw_nwa() -> impl Strategy<Value = RawNwa> {
    (1usize..=6).prop_flat_map(|n| {
        (
            prop::collection::vec(0..n, 1..=2),
            prop::collection::vec(0..n, 0..=1),
            prop::collection::vec((0..n, 0..2usize, 0..n), 0..=4),
            prop::collection::vec((0..n, 0..n), 1..=4),
            // Returns (s, i, t): the hierarchical predecessor is mostly the source of call `i`,
            // so that returns can match (uniformly random ones almost never do).
            prop::collection::vec((0..n, 0..6usize, 0..n), 1..=8),
        )
            .prop_map(move |(initial, accepting, internal, calls, returns)| {
                let returns = returns
                    .into_iter()
                    .map(|(s, i, t)| {
                        let hier = calls.get(i).map_or(i % n, |c| c.0);
                        (s, hier, t)
                    })
                    .collect();
                RawNwa {
                    n,
                    initial,
                    accepting,
                    internal: internal
                        .into_iter()
                        .map(|(s, l, t)| (s, letter(l), t))
                        .collect(),
                    calls,
                    returns,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn nested_emptiness_agrees_with_bounded_stacks(a in raw_nwa()) {
        // Once with the generated accepting states, then once per state as the only accepting
        // one: the reachability of every state is checked.
        let variants = std::iter::once(a.clone()).chain((0..a.n).map(|q| RawNwa {
            accepting: vec![q],
            ..a.clone()
        }));
        for a in variants {
            let nwa = a.to_nwa();
            let run = ok(nested_accepting_run(&nwa, &Budget::unlimited()));
            if a.bounded_nonempty(12, 3) {
                prop_assert!(run.is_some(), "missed an accepting configuration: {:?}", a);
            }
            if let Some(run) = run {
                prop_assert!(ok(run.is_run_of(&nwa)), "not a run: {:?}", run);
                prop_assert!(a.replays(&run), "raw replay failed: {:?} on {:?}", run, a);
            }
        }
    }
}

#[test]
fn nested_runs_use_summaries() {
    // main: m0 calls p (entry p0) and returns to m1, then calls p again from m1 and returns to the
    // accepting m2. p: p0 --x--> p1, returns to its caller.
    let mut nwa: Nwa<&str, &str> = Nwa::new();
    nwa.add_initial("m0");
    nwa.add_state("m2", true);
    nwa.add_call("m0", "call", "p0");
    nwa.add_call("m1", "call", "p0");
    nwa.add_internal("p0", "x", "p1");
    nwa.add_return("p1", "m0", "ret", "m1");
    nwa.add_return("p1", "m1", "ret", "m2");
    let run = nested_accepting_run(&nwa, &Budget::unlimited())
        .expect("ok")
        .expect("nonempty");
    use NestedLetter::{Call, Internal, Return};
    assert_eq!(
        run.letters,
        [
            Call("call"),
            Internal("x"),
            Return("ret"),
            Call("call"),
            Internal("x"),
            Return("ret")
        ]
    );
    assert_eq!(run.states, ["m0", "p0", "p1", "m1", "p0", "p1", "m2"]);
    assert_eq!(run.is_run_of(&nwa), Ok(true));
    // Without the return to m1 nothing is accepted: the return to m2 needs m1 on the stack.
    let mut empty: Nwa<&str, &str> = Nwa::new();
    empty.add_initial("m0");
    empty.add_state("m2", true);
    empty.add_call("m0", "call", "p0");
    empty.add_internal("p0", "x", "p1");
    empty.add_return("p1", "m1", "ret", "m2");
    assert_eq!(nested_accepting_run(&empty, &Budget::unlimited()), Ok(None));
    // A pending call is fine; a return on the empty stack is not a run.
    let mut pending: Nwa<&str, &str> = Nwa::new();
    pending.add_initial("m0");
    pending.add_state("f", true);
    pending.add_call("m0", "call", "f");
    let run = nested_accepting_run(&pending, &Budget::unlimited())
        .expect("ok")
        .expect("nonempty");
    assert_eq!(run.letters, [Call("call")]);
    let bad = NestedRun {
        states: vec!["m0", "f"],
        letters: vec![Return("call")],
    };
    assert_eq!(bad.is_run_of(&pending), Ok(false));
}

#[test]
fn nested_summaries_apply_to_callers_found_later() {
    // The procedure entered at `e` is called from `d` twice: first with the empty stack (the
    // summary d ⇒ g is recorded), then, three steps later, with `m0` on the stack; only that
    // second context can return to the accepting `f`.
    let mut nwa: Nwa<&str, &str> = Nwa::new();
    nwa.add_initial("m0");
    nwa.add_state("f", true);
    nwa.add_internal("m0", "a", "d");
    nwa.add_call("m0", "call", "y1");
    nwa.add_internal("y1", "b", "y2");
    nwa.add_internal("y2", "b", "d");
    nwa.add_call("d", "call", "e");
    nwa.add_return("e", "d", "ret", "g");
    nwa.add_return("g", "m0", "ret", "f");
    let run = nested_accepting_run(&nwa, &Budget::unlimited())
        .expect("ok")
        .expect("nonempty");
    assert_eq!(run.states, ["m0", "y1", "y2", "d", "e", "g", "f"]);
    assert_eq!(run.is_run_of(&nwa), Ok(true));
}

/// `Counted` counts each state the emptiness check expands exactly once: on an automaton whose
/// language is empty, BFS expands every reachable state, so the count equals the explored states
/// (`--stats` reports this count as "abstraction: N states explored").
#[test]
fn counted_view_counts_expanded_states() {
    // Five states reachable from q0 (q0..q4), one unreachable (q9), no reachable final state.
    let aut = Nfa::from_text(
        "init q0; final q9; q0 a q1; q0 b q2; q1 a q3; q2 a q3; q3 b q4; q4 a q0; q9 a q9;",
    )
    .expect("valid");
    let counted = Counted::new(&aut);
    let run = shortest_accepting_run(&counted, &Budget::unlimited()).expect("infallible");
    assert!(run.is_none());
    assert_eq!(counted.expanded(), 5);
    let explored = explore(&aut, &Budget::unlimited()).expect("infallible");
    assert_eq!(counted.expanded(), explored.num_states());
    // With a reachable final state the search stops early: fewer expansions, never more.
    let aut =
        Nfa::from_text("init q0; final q1; q0 a q1; q0 b q2; q2 a q3; q3 a q4;").expect("valid");
    let counted = Counted::new(&aut);
    let run = shortest_accepting_run(&counted, &Budget::unlimited()).expect("infallible");
    assert_eq!(run.map(|r| r.letters), Some(vec!["a".to_string()]));
    assert!(
        (1..=2).contains(&counted.expanded()),
        "{}",
        counted.expanded()
    );
}
