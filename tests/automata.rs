//! Tests of the automata library: language laws on random small automata (checked by enumerating
//! all words up to length 5 against a brute-force reference), plus unit tests for cancellation,
//! error propagation, trap pruning, the progress check and the text format.

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
    (1usize..=6).prop_flat_map(move |n| {
        (
            prop::collection::vec(0..n, 1..=2),
            prop::collection::vec(0..n, 0..=2),
            prop::collection::vec((0..n, 0..k, 0..n), 0..=12),
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
