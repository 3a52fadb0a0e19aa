//! Results as data: a SAFE answer's proof carries each loop invariant as a term over the source's
//! names (not only as text), and an UNSAFE answer's counterexample carries its steps with thread,
//! span and the values read and written — what a witness writer or a certificate checker consumes.

mod common;

use lapidary::engine::{self, Config, Verdict};
use lapidary::ir;
use lapidary::smt::{SolverKind, Term};
use lapidary::syntax::parse;
use std::time::{Duration, Instant};

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check_inline(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

fn config() -> Option<Config> {
    if lapidary::smt::resolve_path(SolverKind::Z3, None).is_err() {
        common::solver_missing("z3");
        return None;
    }
    Some(Config {
        proof: true,
        check_proof: true,
        deadline: Some(Instant::now() + Duration::from_secs(30)),
        ..Config::default()
    })
}

#[test]
fn a_proof_carries_invariants_as_terms_over_source_names() {
    let Some(config) = config() else { return };
    let p = program(
        "procedure main() {
           var i, n: int;
           assume n >= 0;
           i := 0;
           while (i < n) { i := i + 1; }
           assert i == n;
         }",
    );
    let o = engine::verify(&p, &config);
    assert_eq!(o.verdict, Verdict::Safe, "{:?}", o.reason);
    assert_eq!(o.proof.len(), 1, "one loop, one invariant: {:?}", o.proof);
    let inv = &o.proof[0];
    assert_eq!(inv.procedure, "main");
    assert!(inv.span.is_some());
    let names: Vec<String> = inv.term.free_vars().into_iter().map(|v| v.name).collect();
    assert!(
        !names.is_empty(),
        "the invariant mentions the loop's variables"
    );
    for n in &names {
        assert!(
            n == "i" || n == "n",
            "a source name, not an engine name: {n}"
        );
    }
    // The term and the text say the same: the text names exactly the term's variables.
    for n in &names {
        assert!(inv.invariant.contains(n.as_str()), "{}", inv.invariant);
    }
    assert_ne!(inv.term, Term::tt(), "an invariant that excludes the error");
}

#[test]
fn a_counterexample_carries_threads_spans_and_values() {
    let Some(config) = config() else { return };
    let p = program(
        "var x: int;
         procedure ULTIMATE.start() modifies x; {
           x := 0;
           fork 1 inc();
           join 1;
           assert x == 2;
         }
         procedure inc() modifies x; { x := x + 1; }",
    );
    let o = engine::verify(&p, &config);
    assert_eq!(o.verdict, Verdict::Unsafe, "{:?}", o.reason);
    let cex = o.counterexample.expect("a counterexample");
    assert!(!cex.steps.is_empty());
    assert!(
        cex.steps.iter().any(|s| s.thread.is_some()),
        "a concurrent counterexample names the thread of its steps"
    );
    assert!(cex.steps.iter().any(|s| s.span.is_some()));
    let writes_x: Vec<&String> = cex
        .steps
        .iter()
        .flat_map(|s| s.writes.iter())
        .filter(|(n, _)| n == "x")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        writes_x,
        ["0", "1"],
        "x written 0 by main, then 1 by the thread"
    );
}
