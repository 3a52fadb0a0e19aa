//! Concurrent programs under every `--predicate-scope` (where the Floyd–Hoare automaton takes its
//! candidate predicates: everywhere, per configuration, per thread projections) with the frame rule
//! of the Hoare-triple checker on: the scope and the rule may change how fast a proof is found,
//! never the verdict. Each SAFE answer is re-checked with `--check-proof` (the certificate over the
//! reduced product, in a fresh solver session). The cases exercise predicates over other threads'
//! locals (the frame rule's cached implications), assumes over disjoint variables, and an
//! uninterpreted function in an assume (where combining models is not sound, so the rule must not
//! learn an implication from it).

use std::process::Command;

const SCOPES: &[&str] = &["global", "configuration", "threads", "threads-moved"];
const DEFAULT: &str = "threads-moved";

const CASES: &[(&str, &str, &str)] = &[
    (
        "acquire before writing: a thread's own cell is not overwritten",
        "SAFE",
        r#"var A: [int]int; var B: [int]bool;
procedure ULTIMATE.start() modifies A, B; { fork 1 w1(1); fork 2 w2(2); join 1; join 2; }
procedure w1(x: int) modifies A, B; { var i: int; var b: bool; i := 0;
  while (i < 2) { atomic { b := B[i]; if (b) { B[i] := false; } } if (b) { A[i] := x; assert A[i] == x; } i := i + 1; } }
procedure w2(x: int) modifies A, B; { var j: int; var b: bool; j := 0;
  while (j < 2) { atomic { b := B[j]; if (b) { B[j] := false; } } if (b) { A[j] := x; } j := j + 1; } }"#,
    ),
    (
        "writing without acquiring races",
        "UNSAFE",
        r#"var A: [int]int; var B: [int]bool;
procedure ULTIMATE.start() modifies A, B; { fork 1 w1(1); fork 2 w2(2); join 1; join 2; }
procedure w1(x: int) modifies A, B; { var i: int; var b: bool; i := 0;
  while (i < 2) { atomic { b := B[i]; if (b) { B[i] := false; } } if (b) { A[i] := x; assert A[i] == x; } i := i + 1; } }
procedure w2(x: int) modifies A, B; { var j: int; j := 0;
  while (j < 2) { A[j] := x; j := j + 1; } }"#,
    ),
    (
        "two atomic increments",
        "SAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 inc(); fork 2 inc(); join 1; join 2; assert x == 2; }
procedure inc() modifies x; { atomic { x := x + 1; } }"#,
    ),
    (
        "two atomic increments, wrong total",
        "UNSAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 inc(); fork 2 inc(); join 1; join 2; assert x == 1; }
procedure inc() modifies x; { atomic { x := x + 1; } }"#,
    ),
    (
        "thread-local loop counters and a guard over disjoint variables",
        "SAFE",
        r#"var x, y, n: int;
procedure ULTIMATE.start() modifies x, y; { x := 0; y := 0; fork 1 a(); fork 2 b(); join 1; join 2; assert x >= 0 && y <= 0; }
procedure a() modifies x; { var i: int; i := 0; while (i < n) { x := x + i; i := i + 1; } }
procedure b() modifies y; { var j: int; j := 0; while (j < n) { y := y - j; j := j + 1; } }"#,
    ),
    (
        "thread-local loop counters, a bound that does not hold",
        "UNSAFE",
        r#"var x, y, n: int;
procedure ULTIMATE.start() modifies x, y; { x := 0; y := 0; fork 1 a(); fork 2 b(); join 1; join 2; assert x + y == 0; }
procedure a() modifies x; { var i: int; i := 0; while (i < n) { x := x + i; i := i + 1; } }
procedure b() modifies y; { var j: int; j := 0; while (j < n) { y := y - 2 * j; j := j + 1; } }"#,
    ),
    (
        "an assume through an uninterpreted function in one thread, the assertion in another",
        "UNSAFE",
        r#"function f(int) returns (int);
var y, z: int;
procedure ULTIMATE.start() modifies y, z; { fork 1 t1(); fork 2 t2(); join 1; join 2; }
procedure t1() modifies y; { y := 1; assume f(0) == 1; }
procedure t2() modifies z; { z := 1; assert f(0) == 1; }"#,
    ),
    (
        "an assume through an uninterpreted function, joined before the assertion",
        "SAFE",
        r#"function f(int) returns (int);
var y, z: int;
procedure ULTIMATE.start() modifies y, z; { fork 1 t1(); join 1; fork 2 t2(); join 2; }
procedure t1() modifies y; { y := 1; assume f(0) == 1; }
procedure t2() modifies z; { z := 1; assert f(0) == 1; }"#,
    ),
];

#[test]
fn every_predicate_scope_gives_the_right_verdict() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-scopes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for (i, (what, expected, src)) in CASES.iter().enumerate() {
        let path = dir.join(format!("case{i}.bpl"));
        std::fs::write(&path, src).expect("write case");
        for scope in SCOPES {
            let out = Command::new(env!("CARGO_BIN_EXE_verify"))
                .arg(&path)
                .args([
                    "--check-proof",
                    "--timeout",
                    "30",
                    "--predicate-scope",
                    scope,
                ])
                .output()
                .expect("run verify");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let first = stdout.lines().next().unwrap_or("");
            let verdict = first
                .split(": ")
                .nth(1)
                .unwrap_or("")
                .split(' ')
                .next()
                .unwrap_or("");
            // The default scope must find the answer; the others (slower on some cases: the global
            // one times out on the acquire and loop cases) may give up, but never answer wrongly.
            let ok = verdict == *expected || (*scope != DEFAULT && verdict == "UNKNOWN");
            if !ok {
                failures.push(format!(
                    "{what} (--predicate-scope {scope}): expected {expected}, got {first}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
