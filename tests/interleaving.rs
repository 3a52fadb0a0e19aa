//! Tests of the interleaving product the CEGAR loop runs on (`lapidary::engine::interleaving`):
//! reachable configurations of small fork/join programs against hand counts, the sleep-set reduction
//! (same configurations, fewer transitions), the fork limit, and joins matched by literal ids.

use std::collections::BTreeSet;

use lapidary::automata::{Automaton, Budget, SleepSetReduction, explore};
use lapidary::engine::BlockEncoding;
use lapidary::engine::blocks;
use lapidary::engine::cfa::{self, EdgeKind};
use lapidary::engine::interleaving::{self, Conf, FREE, Interleaving};
use lapidary::engine::transition::Vocabulary;
use lapidary::ir;
use lapidary::syntax::parse;

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check_inline(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

/// Two threads, each one assignment to its own global, forked and joined by the main thread.
const TWO_WRITERS: &str = "
var x, y : int;
procedure ULTIMATE.start()
modifies x, y;
{
  fork 1 a();
  fork 2 b();
  join 1;
  join 2;
  assert x == 1 && y == 2;
}
procedure a() modifies x; { x := 1; }
procedure b() modifies y; { y := 2; }
";

fn configurations<A: Automaton>(a: &A) -> (usize, usize) {
    let nfa = explore(a, &Budget::unlimited()).expect("exploration");
    let states = nfa.states().count();
    let transitions: usize = nfa.states().map(|s| a.successors(s).len()).sum();
    (states, transitions)
}

#[test]
fn two_writers_configurations_match_a_hand_count() {
    let prog = program(TWO_WRITERS);
    let voc = Vocabulary::new(&prog);
    let cfa = cfa::build_with(&voc, 10_000, 1).expect("cfa");
    assert_eq!(
        cfa.threads.len(),
        3,
        "main and one instance per fork statement"
    );
    let enc = blocks::encode(&cfa, &voc, BlockEncoding::None).expect("encoding");
    let product = Interleaving::new(&cfa, &enc);
    let nfa = explore(&product, &Budget::unlimited()).expect("exploration");
    // Hand count (block encoding none; main's locations: init, entry, after fork 1, after fork 2,
    // after join 1, after join 2, exit, error; a and b are FREE, at their entry or at their exit):
    //   init (F,F) 1 + entry (F,F) 1 + after fork 1 (a ∈ {entry, exit}, F) 2
    //   + after fork 2 (a × b, 2 × 2) 4 + after join 1 (F, b ∈ {entry, exit}; join 1 needs a at
    //   its exit) 2 + after join 2 (F,F) 1 + exit 1 + error 1 = 13.
    let mut seen: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); 3];
    for c in nfa.states() {
        for (t, l) in c.locs.iter().enumerate() {
            seen[t].insert(*l);
        }
    }
    assert_eq!(
        seen.iter().map(BTreeSet::len).collect::<Vec<_>>(),
        [8, 3, 3]
    );
    assert_eq!(nfa.states().count(), 13);
    assert!(seen[1].contains(&FREE) && seen[2].contains(&FREE));
    // The sleep-set reduction reaches the same configurations with fewer transitions.
    let reduced = SleepSetReduction::new(&product, |a: &usize, b: &usize| {
        interleaving::independent(&cfa, &enc, *a, *b)
    });
    let red = explore(&reduced, &Budget::unlimited()).expect("exploration");
    let confs: BTreeSet<Conf> = nfa.states().cloned().collect();
    let red_confs: BTreeSet<Conf> = red.states().map(|s| s.0.clone()).collect();
    assert_eq!(confs, red_confs);
    let (_, full_t) = configurations(&product);
    let (_, red_t) = configurations(&reduced);
    assert!(red_t < full_t, "{red_t} < {full_t}");
}

#[test]
fn joins_are_made_only_for_matching_literal_ids() {
    let prog = program(TWO_WRITERS);
    let voc = Vocabulary::new(&prog);
    let cfa = cfa::build_with(&voc, 10_000, 2).expect("cfa");
    // Two fork statements with two instances each; `join 1` matches only the instances of
    // `fork 1`, `join 2` only those of `fork 2`: 4 join edges, not 8.
    let joins = cfa
        .edges
        .iter()
        .filter(|e| matches!(e.kind, EdgeKind::Join { .. }))
        .count();
    assert_eq!(joins, 4);
    let forks = cfa
        .edges
        .iter()
        .filter(|e| matches!(e.kind, EdgeKind::Fork { .. }))
        .count();
    let limits = cfa
        .edges
        .iter()
        .filter(|e| matches!(e.kind, EdgeKind::ForkLimit { .. }))
        .count();
    assert_eq!((forks, limits), (4, 2));
}

#[test]
fn a_fork_in_a_loop_reaches_the_limit_marker() {
    let prog = program(
        "
var x : int;
procedure ULTIMATE.start()
modifies x;
{
  while (*) { fork 0 w(); }
}
procedure w() modifies x; { x := x + 1; }
",
    );
    let voc = Vocabulary::new(&prog);
    for k in 1..=3 {
        let cfa = cfa::build_with(&voc, 10_000, k).expect("cfa");
        let enc = blocks::encode(&cfa, &voc, BlockEncoding::None).expect("encoding");
        let product = Interleaving::new(&cfa, &enc);
        let nfa = explore(&product, &Budget::unlimited()).expect("exploration");
        assert!(
            nfa.states().any(|c| product.at_limit(c)),
            "with {k} instances a (k+1)-th fork finds none free"
        );
        // The lowest free instance is forked first: instance j is never in use while a lower one
        // of the same statement is free.
        for c in nfa.states() {
            let used: Vec<bool> = c.locs[1..].iter().map(|&l| l != FREE).collect();
            for j in 1..used.len() {
                assert!(!used[j] || used[j - 1], "{used:?}");
            }
        }
    }
}

/// `locs_after` (the configuration the Floyd–Hoare automaton tracks to scope its candidates) is the
/// location part of the product's step on every enabled letter of every reachable configuration.
#[test]
fn locs_after_is_the_location_part_of_a_step() {
    let prog = program(TWO_WRITERS);
    let voc = Vocabulary::new(&prog);
    let cfa = cfa::build_with(&voc, 10_000, 2).expect("cfa");
    for encoding in [BlockEncoding::None, BlockEncoding::Large] {
        let enc = blocks::encode(&cfa, &voc, encoding).expect("encoding");
        let product = Interleaving::new(&cfa, &enc);
        let nfa = explore(&product, &Budget::unlimited()).expect("exploration");
        let mut steps = 0;
        for c in nfa.states() {
            for (a, next) in product.successors(c) {
                steps += 1;
                assert_eq!(
                    interleaving::locs_after(&cfa, &enc, &c.locs, a),
                    next.locs,
                    "letter {a} from {c:?}"
                );
            }
        }
        assert!(steps > 10, "the product has steps ({steps})");
    }
}

/// Two counting workers whose results the main thread compares after joining both: its assertion
/// lies behind their joins (the join-guarded error conflict of the persistent sets).
const JOINED_WORKERS: &str = "var N : int;
procedure ULTIMATE.start() { var x1, x2 : int; fork 1 w(); fork 2 w(); join 1 assign x1; join 2 assign x2; assert x1 == x2; }
procedure w() returns (x : int) { x := 0; while (x < N) { x := x + 1; } }";

/// Small programs for the persistent-set test: independent writers and a reader with assertions in
/// several threads, a racy counter in loops, a fork inside a forked thread, a join of a thread that
/// loops, an atomic block, a fork in a loop (the limit marker), assertions behind joins (after all
/// of them; between them, reading a global that a thread not yet joined writes) and in a worker.
const PERSISTENT_CASES: &[&str] = &[
    TWO_WRITERS,
    JOINED_WORKERS,
    "var N, g : int;
procedure ULTIMATE.start() modifies g; { var x1 : int; g := 0; fork 1 w(); fork 2 v(); join 1 assign x1; assert g == 0; join 2; }
procedure w() returns (x : int) { x := 0; while (x < N) { x := x + 1; } }
procedure v() modifies g; { g := 1; }",
    "var N, g : int;
procedure ULTIMATE.start() modifies g; { g := 0; fork 1 w(); fork 2 w(); join 1; join 2; }
procedure w() modifies g; { var x : int; x := 0; while (x < N) { x := x + 1; } g := x; assert g == x; }",
    "var x, y : int;
procedure ULTIMATE.start() modifies x, y; { x := 0; y := 0; fork 1 a(); fork 2 b(); fork 3 c(); join 1; assert x == 1; }
procedure a() modifies x; { x := 1; }
procedure b() modifies y; { y := 1; assert y == 1; }
procedure c() { var t : int; t := 0; assert t == 0; }",
    "var x : int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 inc(); fork 2 inc(); join 1; join 2; assert x <= 2; }
procedure inc() modifies x; { var i : int; i := 0; while (i < 2) { x := x + 1; i := i + 1; } }",
    "var x, y : int;
procedure ULTIMATE.start() modifies x, y; { fork 1 outer(); x := 1; join 1; assert y == 2; }
procedure outer() modifies x, y; { fork 2 inner(); y := x; join 2; }
procedure inner() modifies y; { y := 2; }",
    "var x, z : int;
procedure ULTIMATE.start() modifies x, z; { x := 0; fork 1 spin(); z := 1; join 1; assert x >= 0; }
procedure spin() modifies x; { while (*) { atomic { x := x + 1; } } }",
    "var x : int;
procedure ULTIMATE.start() modifies x; { x := 0; while (*) { fork 0 w(); } assert x >= 0; }
procedure w() modifies x; { x := x + 1; }",
];

/// Every accepting word of `a` of at most `max` letters.
fn accepting_words<A: Automaton<Letter = usize>>(a: &A, max: usize) -> BTreeSet<Vec<usize>> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<(A::State, Vec<usize>)> = a
        .initial_states()
        .into_iter()
        .map(|q| (q, Vec::new()))
        .collect();
    while let Some((q, w)) = stack.pop() {
        if a.is_accepting(&q) {
            out.insert(w.clone());
        }
        if w.len() == max {
            continue;
        }
        for (x, t) in a.successors(&q) {
            let mut w2 = w.clone();
            w2.push(x);
            stack.push((t, w2));
        }
    }
    out
}

/// Is `v` a prefix of the Mazurkiewicz trace of `w` under `indep` (a prefix of some word equivalent
/// to `w`)? Each letter of `v` in turn must occur in what is left of `w` with only independent
/// (and different) letters before its first occurrence.
fn is_trace_prefix(v: &[usize], w: &[usize], indep: &dyn Fn(usize, usize) -> bool) -> bool {
    let mut rest = w.to_vec();
    for &x in v {
        let Some(i) = rest.iter().position(|&y| y == x) else {
            return false;
        };
        if !(0..i).all(|j| indep(rest[j], x)) {
            return false;
        }
        rest.remove(i);
    }
    true
}

/// The reductions against the unreduced product, by brute force: for every accepting word `w`
/// (error or limit marker) of the product up to a length bound, the reduction accepts a prefix of a
/// word equivalent to `w` (so a feasible error trace of the program has a feasible one in the
/// reduction: equivalent words and their prefixes are feasible together; the reduction may stop
/// earlier, at another thread's error), and every word of the reduction is one of the product.
/// Checked for persistent sets (smallest and order-compatible), sleep sets over order-compatible
/// persistent sets (serial and lockstep order), and the live part ([`interleaving::Trimmed`]) of
/// each.
#[test]
fn reductions_keep_a_representative_of_every_error_word() {
    const MAX: usize = 14;
    let mut reduced_somewhere = [false; 4];
    let mut words = 0;
    for src in PERSISTENT_CASES {
        let prog = program(src);
        let voc = Vocabulary::new(&prog);
        for k in [1, 2] {
            let cfa = cfa::build_with(&voc, 10_000, k).expect("cfa");
            for encoding in [BlockEncoding::None, BlockEncoding::Large] {
                let enc = blocks::encode(&cfa, &voc, encoding).expect("encoding");
                for lockstep in [false, true] {
                    let product = Interleaving::new(&cfa, &enc).with_lockstep(lockstep);
                    let indep = |a: usize, b: usize| interleaving::independent(&cfa, &enc, a, b);
                    let rel = |a: &usize, b: &usize| indep(*a, *b);
                    let full = accepting_words(&product, MAX);
                    words += full.len();
                    let (_, full_t) = configurations(&product);
                    let check = |name: &str, red: &BTreeSet<Vec<usize>>| {
                        assert!(red.is_subset(&full), "{name}: the reduction invents words");
                        for w in &full {
                            assert!(
                                red.iter().any(|v| is_trace_prefix(v, w, &indep)),
                                "{name}: no representative of {w:?} ({k} instances, \
                                 {encoding:?}, lockstep {lockstep}) in:\n{src}"
                            );
                        }
                    };
                    let budget = Budget::unlimited();
                    let smallest = interleaving::PersistentReduction::new(&product, rel, false);
                    check("persistent", &accepting_words(&smallest, MAX));
                    let live = interleaving::Trimmed::new(&smallest, &budget).expect("live part");
                    check("live persistent", &accepting_words(&live, MAX));
                    reduced_somewhere[0] |= configurations(&smallest).1 < full_t;
                    let compatible = interleaving::PersistentReduction::new(&product, rel, true);
                    check("compatible persistent", &accepting_words(&compatible, MAX));
                    reduced_somewhere[1] |= configurations(&compatible).1 < full_t;
                    let both = SleepSetReduction::new(&compatible, rel);
                    check("sleep+persistent", &accepting_words(&both, MAX));
                    reduced_somewhere[2] |= configurations(&both).1 < full_t;
                    let live = interleaving::Trimmed::new(&both, &budget).expect("live part");
                    check("live sleep+persistent", &accepting_words(&live, MAX));
                    reduced_somewhere[3] |= configurations(&live).1 < configurations(&both).1;
                }
            }
        }
    }
    assert_eq!(
        reduced_somewhere, [true; 4],
        "a reduction never removed a transition"
    );
    assert!(words > 100, "few accepting words to compare ({words})");
}

/// A main thread whose only assertion lies behind the joins of its workers is no conflict of
/// theirs: once they are forked, every order-compatible persistent set (whatever the preference
/// order) holds the letters of one thread only, so the reduction explores the workers in its order
/// instead of pairs of them (six threads summing an array: 92,081 states explored before, the
/// 1,523 live ones after).
#[test]
fn an_assertion_behind_joins_conflicts_with_no_worker() {
    let prog = program(JOINED_WORKERS);
    let voc = Vocabulary::new(&prog);
    let cfa = cfa::build_with(&voc, 10_000, 1).expect("cfa");
    let enc = blocks::encode(&cfa, &voc, BlockEncoding::Large).expect("encoding");
    for lockstep in [false, true] {
        let product = Interleaving::new(&cfa, &enc).with_lockstep(lockstep);
        let rel = |a: &usize, b: &usize| interleaving::independent(&cfa, &enc, *a, *b);
        let reduced = interleaving::PersistentReduction::new(&product, rel, true);
        let nfa = explore(&reduced, &Budget::unlimited()).expect("exploration");
        let thread = |a: usize| cfa.thread_of[enc.letters[a].src];
        let mut checked = 0;
        for c in nfa.states() {
            // Both workers running, neither at its exit.
            let running = |t: usize| c.locs[t] != FREE && c.locs[t] as usize != cfa.threads[t].exit;
            if c.atomic.is_some() || !(running(1) && running(2)) {
                continue;
            }
            let threads: BTreeSet<u32> =
                reduced.enabled_letters(c).into_iter().map(thread).collect();
            assert_eq!(
                threads.len(),
                1,
                "persistent set at {:?}: threads {threads:?}",
                c.locs
            );
            checked += 1;
        }
        assert!(checked > 0, "no configuration with both workers running");
    }
}
