//! Recursive programs (nested-word trace abstraction, `engine::recursive`): verdicts on small
//! programs that exercise what the nested semantics must get right — a return goes back to its own
//! call site, the caller's frame (locals, parameters, inlined helpers' locals) survives a call while
//! globals flow through, results may overwrite arguments, errors inside pending calls, contracts of
//! recursive procedures checked at call sites and exits. Each answer is also checked with
//! `--check-proof` (a SAFE proof is re-checked in a fresh solver session).

use std::process::Command;

const CASES: &[(&str, &str, &str)] = &[
    (
        "two call sites, returns go to the right site",
        "SAFE",
        r#"procedure f(n: int) returns (r: int) { if (n > 0) { call r := f(n - 1); r := r + 1; } else { r := 0; } }
procedure main() { var a, b: int; call a := f(1); call b := f(2); assert a + 1 == b; }"#,
    ),
    (
        "two call sites swapped expectation",
        "UNSAFE",
        r#"procedure f(n: int) returns (r: int) { if (n > 0) { call r := f(n - 1); r := r + 1; } else { r := 0; } }
procedure main() { var a, b: int; call a := f(1); call b := f(2); assert a == b + 1; }"#,
    ),
    (
        "inlined helper's locals inside recursion are per-frame",
        "SAFE",
        r#"procedure h(x: int) returns (y: int) { var t: int; t := x * 2; y := t; }
procedure f(n: int) returns (r: int) { var u: int; call u := h(n); if (n > 0) { call r := f(n - 1); } else { r := 0; } assert u == 2 * n; }
procedure main() { var z: int; assume z >= 0 && z <= 3; call z := f(z); }"#,
    ),
    (
        "error deep inside recursion (pending calls)",
        "UNSAFE",
        r#"procedure f(n: int) { if (n > 0) { call f(n - 1); } else { assert n != 0; } }
procedure main() { call f(3); }"#,
    ),
    (
        "x := f(x) where result overwrites the argument",
        "UNSAFE",
        r#"procedure f(n: int) returns (r: int) { if (n > 0) { call r := f(n - 1); r := r + 2; } else { r := 0; } }
procedure main() { var x: int; x := 2; call x := f(x); assert x == 2; }"#,
    ),
    (
        "x := f(x) where result overwrites the argument",
        "SAFE",
        r#"procedure f(n: int) returns (r: int) { if (n > 0) { call r := f(n - 1); r := r + 2; } else { r := 0; } }
procedure main() { var x: int; x := 2; call x := f(x); assert x == 4; }"#,
    ),
    (
        "global modified by callee; old(g) in callee ensures violated",
        "UNSAFE",
        r#"var g: int;
procedure f(n: int) modifies g; ensures g == old(g) + n; { if (n > 0) { g := g + 2; call f(n - 1); } }
procedure main() modifies g; { call f(2); }"#,
    ),
    (
        "requires of recursive procedure checked at call sites, all hold",
        "SAFE",
        r#"procedure f(n: int) returns (r: int) requires n >= 0; { if (n > 0) { call r := f(n - 1); } else { r := 7; } }
procedure main() { var x: int; assume x >= 0; call x := f(x); assert x == 7; }"#,
    ),
    (
        "requires violated at the recursive call site",
        "UNSAFE",
        r#"procedure f(n: int) returns (r: int) requires n >= 0; { if (n >= 0) { call r := f(n - 1); } else { r := 7; } }
procedure main() { var x: int; assume x >= 0; call x := f(x); }"#,
    ),
    (
        "caller local survives calls, global changes seen",
        "SAFE",
        r#"var g: int;
procedure f(n: int) modifies g; { var keep: int; keep := n; g := g + 1; if (n > 0) { call f(n - 1); } assert keep == n; }
procedure main() modifies g; { var k: int; g := 0; k := 5; call f(2); assert k == 5; assert g == 3; }"#,
    ),
    (
        "g == 3 is wrong, it is 3 only for f(2); here f(3)",
        "UNSAFE",
        r#"var g: int;
procedure f(n: int) modifies g; { g := g + 1; if (n > 0) { call f(n - 1); } }
procedure main() modifies g; { g := 0; call f(3); assert g == 3; }"#,
    ),
];

#[test]
fn recursive_programs_get_the_right_verdicts() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-recursion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for (i, (what, expected, src)) in CASES.iter().enumerate() {
        let path = dir.join(format!("case{i}.bpl"));
        std::fs::write(&path, src).expect("write case");
        let out = Command::new(env!("CARGO_BIN_EXE_verify"))
            .arg(&path)
            .args(["--check-proof", "--timeout", "20"])
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
        if verdict != *expected {
            failures.push(format!("{what}: expected {expected}, got {first}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same programs as Horn clauses (`engine::chc`, one predicate per location relating a frame's
/// entry state to the current one): z3's Horn solver proves every SAFE case and none of the
/// UNSAFE ones — a return clause that took the caller's frame or the callee's globals wrongly
/// would prove one of them (the caller's local that survives, the global the callee changed).
#[test]
fn horn_clauses_prove_exactly_the_safe_cases() {
    use lapidary::engine::{Config, Verdict, chc};
    let mut failures = Vec::new();
    for (what, expected, src) in CASES {
        let (ast, diags) = lapidary::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("{what}: parse errors: {diags:?}"));
        let (program, diags) = lapidary::ir::check(&ast);
        let program = program.unwrap_or_else(|| panic!("{what}: check errors: {diags:?}"));
        let config = Config {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
            ..Config::default()
        };
        let proved = chc::prove(&program, &config).map(|o| o.verdict);
        let want = (*expected == "SAFE").then_some(Verdict::Safe);
        if proved != want {
            failures.push(format!(
                "{what}: expected {expected}, the Horn solver: {proved:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
