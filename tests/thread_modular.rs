//! Thread-modular proofs of programs that fork unboundedly (`lapidary::engine::thread_modular`):
//! safe programs are proved with one or two threads per unbounded fork in the view; programs whose
//! violation needs another thread's interference are never proved (the outsider clauses are what
//! excludes them); programs outside the module's scope are declined; threads of one procedure
//! forked by several statements are summarised by a merged pool. Needs z3 (fails without it).

use lapidary::engine::Config;
use lapidary::engine::thread_modular::{
    Attempt, Method, Pools, forks_unboundedly, prove, prove_with,
};
use lapidary::engine::transition::Vocabulary;
use lapidary::ir;
use lapidary::syntax::parse;
use std::time::Duration;

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check_inline(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

fn attempt(src: &str, k: usize) -> Attempt {
    let p = program(src);
    assert!(forks_unboundedly(&p), "the case must fork in a loop");
    let voc = Vocabulary::new(&p);
    prove(&voc, &Config::default(), k, Duration::from_secs(60))
}

/// Workers that each add one atomically; the shared counter never decreases.
const MONOTONE: &str = "
var x : int;
procedure ULTIMATE.start() modifies x;
{ x := 0; while (*) { fork 0 worker(); } assert x >= 0; }
procedure worker() modifies x; { atomic { x := x + 1; } assert x >= 1; }
";

/// A read and a write that another worker may separate: the assertion fails with two workers.
const RACY: &str = "
var x : int;
procedure ULTIMATE.start() modifies x;
{ x := 0; while (*) { fork 0 worker(); } }
procedure worker() modifies x; { var t : int; t := x; x := t + 1; assert x == t + 1; }
";

/// The racy worker under a lock taken by test-and-set: the assertion holds, but only a view of
/// two workers knows that the lock's holder is unique.
const LOCKED: &str = "
var x, m : int;
procedure ULTIMATE.start() modifies x, m;
{ x := 0; m := 0; while (*) { fork 0 worker(); } }
procedure worker() modifies x, m;
{ var t : int; atomic { assume m == 0; m := 1; } t := x; x := t + 1; assert x == t + 1; atomic { m := 0; } }
";

/// Forks in a fixed number: nothing for this module.
const BOUNDED: &str = "
var x : int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 worker(); join 1; assert x == 1; }
procedure worker() modifies x; { x := x + 1; }
";

#[test]
fn a_monotone_counter_is_proved_with_one_thread_in_the_view() {
    match attempt(MONOTONE, 1) {
        Attempt::Proved { tuples, .. } => assert!(tuples > 1, "{tuples} tuples"),
        other => panic!("expected a proof, got {other:?}"),
    }
}

#[test]
fn interference_of_other_workers_is_never_proved_away() {
    for k in [1, 2] {
        match attempt(RACY, k) {
            Attempt::NoProof => {}
            other => panic!("k = {k}: expected no proof, got {other:?}"),
        }
    }
}

#[test]
fn a_lock_needs_two_threads_in_the_view() {
    assert!(
        matches!(attempt(LOCKED, 1), Attempt::NoProof),
        "one thread in the view cannot know that the lock's holder is unique"
    );
    match attempt(LOCKED, 2) {
        // (The lock makes the predicate of two workers past the lock `false`: a conjunction of
        // contradictory atoms that Houdini never weakens.)
        Attempt::Proved { by, .. } => assert_eq!(by, Method::Houdini),
        other => panic!("expected a proof with two threads, got {other:?}"),
    }
}

/// Workers rotate three values under a lock; a reader asserts two of them differ. Between the
/// writes of a rotation two values are equal, so the invariant the reader needs is guarded by the
/// lock's value (`m == 0 ==> a != b`), and two workers are in the view (the lock's holder is
/// unique). `writes` is the workers' critical section.
fn rotation(writes: &str) -> String {
    format!(
        "
var a, b, c, t, m : int;
procedure ULTIMATE.start() modifies a, b, c, t, m;
{{ a := 1; b := 2; c := 3; m := 0; fork 0 reader(); while (*) {{ fork 1 worker(); }} }}
procedure reader() modifies m;
{{ atomic {{ assume m == 0; m := 1; }} assert a != b; atomic {{ assume m == 1; m := 0; }} }}
procedure worker() modifies a, b, c, t, m;
{{ atomic {{ assume m == 0; m := 1; }} {writes} atomic {{ assume m == 1; m := 0; }} }}
"
    )
}

const ROTATION: &str = "t := a; a := b; b := c; c := t;";

/// The rotation with its last write missing: after one rotation `b == c`, after two `a == b`.
const BROKEN_ROTATION: &str = "t := a; a := b; b := c;";

#[test]
fn a_relation_guarded_by_a_lock_value_is_found_by_houdini() {
    match attempt(&rotation(ROTATION), 2) {
        Attempt::Proved { by, .. } => assert_eq!(by, Method::Houdini),
        other => panic!("expected a proof with two threads, got {other:?}"),
    }
    for k in [1, 2] {
        match attempt(&rotation(BROKEN_ROTATION), k) {
            Attempt::NoProof | Attempt::Unknown(_) | Attempt::OutOfTime(_) => {}
            other => panic!("k = {k}: a broken rotation must not be proved, got {other:?}"),
        }
    }
}

#[test]
fn bounded_forks_are_declined() {
    let p = program(BOUNDED);
    assert!(!forks_unboundedly(&p));
    let voc = Vocabulary::new(&p);
    match prove(&voc, &Config::default(), 1, Duration::from_secs(5)) {
        Attempt::NotApplicable(_) => {}
        other => panic!("expected not applicable, got {other:?}"),
    }
}

/// Workers acquire entries of `B` atomically and write their number into the entries of `A` they
/// own; the first one asserts its write stays. Forked by five statements, not in a loop: a merged
/// pool ([`Pools::Merged`]) summarises the four plain workers by one. `guard` decides whether a
/// worker writes only what it acquired.
fn acquire_work(guard: &str) -> String {
    format!(
        "
var A : [int]int;
var B : [int]bool;
procedure ULTIMATE.start() modifies A, B;
{{ fork 1 checker(1); fork 2,2 worker(2); fork 3,3,3 worker(3); fork 4,4,4,4 worker(4);
   fork 5,5,5,5,5 worker(5); join 1; }}
procedure acquire(i : int) returns (b : bool) modifies B;
{{ atomic {{ b := B[i]; if (b) {{ B[i] := false; }} }} }}
procedure checker(x : int) modifies A, B;
{{ var i : int; var b : bool; i := 0;
   while (true) {{ call b := acquire(i); if (b) {{ A[i] := x; assert A[i] == x; }} i := i + 1; }} }}
procedure worker(x : int) modifies A, B;
{{ var i : int; var b : bool; i := 0;
   while (true) {{ call b := acquire(i); if ({guard}) {{ A[i] := x; }} i := i + 1; }} }}
"
    )
}

/// Three threads of one procedure forked by three statements return their argument; a join
/// must take the thread of the statement whose id it names (`expected` is what it asserts).
fn tagged_joins(expected: i64) -> String {
    format!(
        "
procedure ULTIMATE.start()
{{ var r : int; fork 1 w(1); fork 2,2 w(2); fork 3,3,3 w(3); join 2,2 assign r; assert r == {expected}; }}
procedure w(a : int) returns (r : int) {{ r := a; }}
"
    )
}

fn merged(src: &str) -> Attempt {
    let p = program(src);
    assert!(!forks_unboundedly(&p), "the case must fork boundedly");
    let voc = Vocabulary::new(&p);
    prove_with(
        &voc,
        &Config::default(),
        1,
        Pools::Merged,
        &[Method::Spacer],
        Duration::from_secs(60),
    )
}

#[test]
fn threads_of_one_procedure_forked_by_several_statements_share_a_pool() {
    match merged(&acquire_work("b")) {
        Attempt::Proved { .. } => {}
        other => panic!("expected a proof with one worker in the view, got {other:?}"),
    }
    match merged(&acquire_work("true")) {
        Attempt::NoProof | Attempt::Unknown(_) | Attempt::OutOfTime(_) => {}
        other => panic!("a worker writing what it does not own must not be proved, got {other:?}"),
    }
    // Per fork statement, nothing runs unboundedly: not this module's program.
    let p = program(&acquire_work("b"));
    let voc = Vocabulary::new(&p);
    assert!(matches!(
        prove(&voc, &Config::default(), 1, Duration::from_secs(5)),
        Attempt::NotApplicable(_)
    ));
}

#[test]
fn a_join_in_a_merged_pool_takes_the_thread_its_id_names() {
    match merged(&tagged_joins(2)) {
        Attempt::Proved { .. } => {}
        other => panic!("expected a proof, got {other:?}"),
    }
    for wrong in [1, 3] {
        match merged(&tagged_joins(wrong)) {
            Attempt::NoProof | Attempt::Unknown(_) | Attempt::OutOfTime(_) => {}
            other => panic!("r == {wrong} must not be proved, got {other:?}"),
        }
    }
}

#[test]
fn verdicts_via_the_cli() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-tm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for (name, src, expected) in [
        ("monotone", MONOTONE.to_string(), "SAFE"),
        ("racy", RACY.to_string(), "UNSAFE"),
        ("locked", LOCKED.to_string(), "SAFE"),
        ("rotation", rotation(ROTATION), "SAFE"),
        ("broken rotation", rotation(BROKEN_ROTATION), "UNSAFE"),
        ("acquire work", acquire_work("b"), "SAFE"),
        ("unguarded work", acquire_work("true"), "UNSAFE"),
        ("tagged joins", tagged_joins(2), "SAFE"),
        ("mistagged joins", tagged_joins(3), "UNSAFE"),
    ] {
        let path = dir.join(format!("{name}.bpl"));
        std::fs::write(&path, src).expect("write case");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_verify"))
            .arg(&path)
            .args(["--timeout", "60"])
            .output()
            .expect("run verify");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let first = stdout.lines().next().unwrap_or("").to_string();
        if !first.contains(&format!(": {expected}")) {
            failures.push(format!("{name}: expected {expected}, got {first}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
