//! The frame rule of the Hoare-triple checker (`engine::hoare`): triples decided by a cached
//! implication `S ⇒ p` must agree with the solver on every triple. A brute-force comparison over
//! the letters of a small concurrent program (assignments, assumes over disjoint variables, an
//! assume through an uninterpreted function), predicates read off the letters' guards and their
//! negations, and states of up to two predicates: one checker with the rule on (learning
//! implications across letters, in a fixed order) against a fresh checker with the rule off per
//! triple set.

mod common;

use common::triples::{encoded, guard_predicates, program, session, small_states, sorted};
use lapidary::engine::hoare::{HoareChecker, is_total};
use lapidary::engine::predicates::Predicates;
use lapidary::engine::transition::Vocabulary;
use lapidary::engine::{BlockEncoding, Stats};
use lapidary::smt::SolverKind;

const PROGRAM: &str = r#"function f(int) returns (int);
var x, y, n: int;
procedure ULTIMATE.start() modifies x, y; { x := 0; fork 1 a(); fork 2 b(); join 1; join 2; }
procedure a() modifies x; { var i: int; i := 0; while (i < n) { x := x + 1; i := i + 1; } assume f(0) == 1; }
procedure b() modifies y; { var j: int; j := 0; while (j < n) { y := y - 1; j := j + 1; } if (y == 0) { assert f(0) == 1; } }
"#;

#[test]
fn frame_rule_agrees_with_the_solver() {
    let prog = program(PROGRAM);
    let voc = Vocabulary::new(&prog);
    let enc = encoded(&voc, BlockEncoding::Large);
    let Some(mut s0) = session(SolverKind::Z3) else {
        return;
    };
    // Predicates: the letters' conjuncts over pre-state variables only, and their negations.
    let mut preds = Predicates::new();
    let ids = guard_predicates(&voc, &enc, &mut preds, &mut s0);
    let has_uf = ids
        .iter()
        .any(|p| !preds.get(*p).term.symbols().funs.is_empty());
    assert!(has_uf, "a predicate through the uninterpreted function");
    assert!(ids.len() >= 6, "enough predicates: {}", ids.len());
    let states = small_states(&mut preds, &ids);
    let Some(s1) = session(SolverKind::Z3) else {
        return;
    };
    let mut framed = HoareChecker::new(s1);
    framed.set_frame_rule(true);
    let mut stats = Stats::default();
    let mut mismatches = Vec::new();
    for &s in &states {
        // A fresh reference per state, so the solver answers every triple of that state itself.
        let Some(s2) = session(SolverKind::Z3) else {
            return;
        };
        let mut plain = HoareChecker::new(s2);
        let mut plain_stats = Stats::default();
        for (a, letter) in enc.letters.iter().enumerate() {
            let total = is_total(&voc, letter);
            let got = sorted(framed.post(&voc, &preds, s, a, letter, total, &ids, &mut stats));
            let want =
                sorted(plain.post(&voc, &preds, s, a, letter, total, &ids, &mut plain_stats));
            if got != want {
                mismatches.push(format!(
                    "state {:?}, letter {a} ({} -> {}): frame {got:?}, solver {want:?}",
                    preds.state_preds(s),
                    letter.src,
                    letter.tgt
                ));
            }
        }
        assert_eq!(
            plain_stats.htc_frame, 0,
            "the reference never uses the rule"
        );
    }
    assert!(
        stats.htc_frame > 0,
        "the rule decided no triple: the test does not exercise it"
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
