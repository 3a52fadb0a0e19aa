//! The fast Hoare-triple solver (`HoareChecker::with_fast`, yices before z3): it may change the
//! speed, never the answers. A brute-force comparison over the letters of a small program whose
//! letters mix what yices takes (linear arithmetic, arrays) with what it must not be asked
//! (non-linear products, a division by a variable, a quantified assume): every post computed with
//! the fast solver equals the post of a z3-only checker, the fast solver answers some triples, and
//! it never fails on a query outside its fragment (no restart of its process).

mod common;

use common::triples::{encoded, guard_predicates, program, session, small_states, sorted};
use lapidary::engine::hoare::{HoareChecker, is_total};
use lapidary::engine::predicates::Predicates;
use lapidary::engine::transition::Vocabulary;
use lapidary::engine::{BlockEncoding, Stats};
use lapidary::smt::SolverKind;

const PROGRAM: &str = r#"var x, y, n: int;
var a: [int]int;
procedure ULTIMATE.start() modifies x, y, a;
{
  var i: int;
  i := 0;
  while (i < n) {
    if (x > y) { x := x * y; } else { y := y + 1; }
    a[i] := x;
    i := i + 1;
  }
  if (y != 0) { x := x / y; }
  assume (forall k: int :: a[k] >= 0);
  assert x >= 0 || a[0] < y;
}
"#;

#[test]
fn fast_solver_agrees_with_z3() {
    let prog = program(PROGRAM);
    let voc = Vocabulary::new(&prog);
    let enc = encoded(&voc, BlockEncoding::None);
    let Some(mut s0) = session(SolverKind::Z3) else {
        return;
    };
    let nonlinear = enc
        .letters
        .iter()
        .any(|l| l.tf.formula.to_string().contains('*'));
    assert!(nonlinear, "a letter with a non-linear product");
    let quantified = enc.letters.iter().any(|l| l.tf.formula.has_quantifier());
    assert!(quantified, "a quantified letter");
    // Predicates: the letters' conjuncts over pre-state variables, and their negations.
    let mut preds = Predicates::new();
    let ids = guard_predicates(&voc, &enc, &mut preds, &mut s0);
    assert!(ids.len() >= 6, "enough predicates: {}", ids.len());
    let states = small_states(&mut preds, &ids);
    let (Some(main), Some(fast)) = (session(SolverKind::Z3), session(SolverKind::Yices)) else {
        return;
    };
    let mut tiered = HoareChecker::new(main).with_fast(fast);
    let Some(reference) = session(SolverKind::Z3) else {
        return;
    };
    let mut plain = HoareChecker::new(reference);
    let (mut stats, mut plain_stats) = (Stats::default(), Stats::default());
    let mut mismatches = Vec::new();
    for &s in &states {
        for (a, letter) in enc.letters.iter().enumerate() {
            let total = is_total(&voc, letter);
            let got = sorted(tiered.post(&voc, &preds, s, a, letter, total, &ids, &mut stats));
            let want =
                sorted(plain.post(&voc, &preds, s, a, letter, total, &ids, &mut plain_stats));
            if got != want {
                mismatches.push(format!(
                    "state {:?}, letter {a}: fast {got:?}, z3 {want:?}",
                    preds.state_preds(s)
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    let fast = tiered.fast_stats().expect("a fast session");
    assert!(fast.checks > 0, "the fast solver answered nothing");
    assert_eq!(
        fast.restarts, 0,
        "the fast solver was asked outside its fragment"
    );
    assert!(
        tiered.session.stats().checks > 0,
        "no query went to z3: the letters outside yices's fragment were not exercised"
    );
}
