//! Hoare triples refuted by models (`engine::hoare`, tier 3): each `sat` answer's model is read
//! for the candidates still open, and a candidate false in it is reported invalid without a query
//! of its own. The post must agree, triple by triple, with a brute-force reference that asks the
//! solver `S ∧ a ∧ ¬p'` for every candidate in a session of its own; and the models must have
//! refuted some triples (else the test does not exercise them).

mod common;

use common::triples::{encoded, guard_predicates, program, session, small_states};
use lapidary::engine::hoare::{HoareChecker, Post, is_total, primed};
use lapidary::engine::predicates::{FALSE, Predicates};
use lapidary::engine::transition::Vocabulary;
use lapidary::engine::{BlockEncoding, Stats};
use lapidary::smt::{SatResult, SolverKind, Term};

const PROGRAM: &str = r#"var x, y, n: int;
procedure ULTIMATE.start() modifies x, y; {
  x := 0; y := 0;
  while (x < n) { if (y > x) { x := x + 2; } else { y := y + 1; } }
  if (y >= 3) { x := x - y; } else { havoc y; assume y < x; }
  assert x <= n + 2;
}
"#;

#[test]
fn model_refutations_agree_with_the_solver() {
    let prog = program(PROGRAM);
    let voc = Vocabulary::new(&prog);
    let enc = encoded(&voc, BlockEncoding::Seq);
    let Some(mut s0) = session(SolverKind::Z3) else {
        return;
    };
    let mut preds = Predicates::new();
    let ids = guard_predicates(&voc, &enc, &mut preds, &mut s0);
    assert!(ids.len() >= 6, "enough predicates: {}", ids.len());
    let states = small_states(&mut preds, &ids);
    let Some(s1) = session(SolverKind::Z3) else {
        return;
    };
    let mut checker = HoareChecker::new(s1);
    let mut stats = Stats::default();
    let Some(mut reference) = session(SolverKind::Z3) else {
        return;
    };
    let mut mismatches = Vec::new();
    for &s in &states {
        for (a, letter) in enc.letters.iter().enumerate() {
            let total = is_total(&voc, letter);
            let got = checker.post(&voc, &preds, s, a, letter, total, &ids, &mut stats);
            // The reference asks every candidate on its own (with `S ∧ a` unsatisfiable every
            // candidate holds, which is what the checker's `False` says too).
            let all: Vec<_> = ids.iter().copied().filter(|&p| p != FALSE).collect();
            reference.push();
            reference.assert(&preds.state_term(s));
            reference.assert(&letter.tf.formula);
            let mut want = Vec::new();
            for &p in &all {
                reference.push();
                reference.assert(&Term::not(&primed(&voc, &preds.get(p).term, letter)));
                if reference.check_sat() == SatResult::Unsat {
                    want.push(p);
                }
                reference.pop();
            }
            reference.pop();
            want.sort_unstable();
            let mut got = match got {
                Post::Holds(h) => h.into_iter().filter(|&p| p != FALSE).collect(),
                Post::False => all.clone(),
            };
            got.sort_unstable();
            got.dedup();
            if got != want {
                mismatches.push(format!(
                    "state {:?}, letter {a}: checker {got:?}, reference {want:?}",
                    preds.state_preds(s)
                ));
            }
        }
    }
    assert!(
        stats.htc_model > 0,
        "no triple was refuted by a model: the test does not exercise them"
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
