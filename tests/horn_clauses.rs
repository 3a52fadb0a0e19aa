//! Programs without threads as Horn clauses (`lapidary::engine::chc`), solved by z3's Horn solver:
//! a loop whose invariant relates two counters is proved, with the solution printed as the loop's
//! invariant and re-checked as a certificate; the same loop with a wrong assertion is never
//! proved; a program with threads is declined. Needs z3 (fails without it).

use lapidary::engine::{Config, Verdict, chc};
use lapidary::ir;
use lapidary::syntax::parse;
use std::time::{Duration, Instant};

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

fn config() -> Config {
    Config {
        deadline: Some(Instant::now() + Duration::from_secs(20)),
        ..Config::default()
    }
}

const COUNTERS: &str = "
procedure main() {
  var x, y, n: int;
  x := 0; y := 0; assume n >= 0;
  while (x < n) { x := x + 1; y := y + 2; }
  assert y == 2 * x;
}";

const COUNTERS_WRONG: &str = "
procedure main() {
  var x, y, n: int;
  x := 0; y := 0; assume n >= 0;
  while (x < n) { x := x + 1; y := y + 2; }
  assert y == x;
}";

#[test]
fn a_loop_invariant_is_found_and_printed() {
    let o = chc::prove(&program(COUNTERS), &config()).expect("proved");
    assert_eq!(o.verdict, Verdict::Safe);
    let checked = Config {
        check_proof: true,
        proof: true,
        ..config()
    };
    let o = chc::prove(&program(COUNTERS), &checked).expect("proved with its proof re-checked");
    assert_eq!(o.proof.len(), 1, "one loop, one invariant: {:?}", o.proof);
    assert!(
        o.proof[0].invariant.contains('x') && o.proof[0].invariant.contains('y'),
        "the invariant relates the counters: {}",
        o.proof[0].invariant
    );
}

#[test]
fn a_violated_assertion_is_never_proved() {
    assert!(chc::prove(&program(COUNTERS_WRONG), &config()).is_none());
}

#[test]
fn programs_with_threads_are_declined() {
    let src = "
var x: int;
procedure main() modifies x; { x := 0; fork 1 w(); join 1; assert x == 1; }
procedure w() modifies x; { x := x + 1; }";
    assert!(chc::prove(&program(src), &config()).is_none());
}
