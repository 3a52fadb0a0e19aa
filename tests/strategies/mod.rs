//! proptest strategies shared by the term-layer tests (`smt.rs`, checked with the solver, and
//! `smt_terms.rs`, solver-free).

use lapidary::smt::{Sort, Term, Var};
use proptest::prelude::*;

/// Atoms over integer terms drawn from `int`: Boolean variables `p`, `q` and the comparisons.
pub fn arb_atom(int: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    prop_oneof![
        prop::sample::select(vec!["p", "q"]).prop_map(|n| Term::var(&Var::new(n, Sort::Bool))),
        (int.clone(), int.clone()).prop_map(|(a, b)| Term::le(&a, &b)),
        (int.clone(), int.clone()).prop_map(|(a, b)| Term::lt(&a, &b)),
        (int.clone(), int.clone()).prop_map(|(a, b)| Term::ge(&a, &b)),
        (int.clone(), int.clone()).prop_map(|(a, b)| Term::gt(&a, &b)),
        (int.clone(), int.clone()).prop_map(|(a, b)| Term::eq(&a, &b)),
        (int.clone(), int).prop_map(|(a, b)| Term::distinct(vec![a, b])),
    ]
    .boxed()
}
