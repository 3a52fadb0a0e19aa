//! Term layer tests: printing, parsing, simplification, substitution, light QE (solver-free parts).

use lapidary::smt::*;
use num_bigint::{BigInt, BigUint};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

mod strategies;
use strategies::arb_atom;

fn iv(n: &str) -> Var {
    Var::new(n, Sort::Int)
}
fn bv(n: &str) -> Var {
    Var::new(n, Sort::Bool)
}
fn x() -> Term {
    Term::var(&iv("x"))
}
fn y() -> Term {
    Term::var(&iv("y"))
}

#[test]
fn hash_consing_and_trivial_normalisation() {
    let a = Term::add(vec![x(), Term::int(1)]);
    let b = Term::add(vec![x(), Term::int(1)]);
    assert_eq!(a, b);
    assert_eq!(a.id(), b.id());
    assert_eq!(Term::and(vec![]), Term::tt());
    assert_eq!(Term::or(vec![]), Term::ff());
    let p = Term::var(&bv("p"));
    assert_eq!(Term::and(vec![p.clone()]), p);
    assert_eq!(Term::and(vec![Term::tt(), p.clone(), Term::tt()]), p);
    assert_eq!(Term::and(vec![p.clone(), Term::ff()]), Term::ff());
    let q = Term::var(&bv("q"));
    let n = Term::and(vec![p.clone(), Term::and(vec![q.clone(), p.clone()])]);
    assert_eq!(n.to_string(), "(and p q)");
    assert_eq!(Term::not(&Term::not(&p)), p);
    assert_eq!(
        Term::app(Op::And, vec![p.clone(), q.clone()]),
        Term::and(vec![p.clone(), q.clone()])
    );
    assert_eq!(Term::add(vec![]).to_string(), "0");
    assert_eq!(Term::int(-5).to_string(), "(- 5)");
    assert_eq!(Term::neg(&Term::int(5)), Term::int(-5));
    assert_eq!(Term::real(rat(1, 2)).to_string(), "(/ 1.0 2.0)");
    assert_eq!(Term::real(rat(-3, 1)).to_string(), "(- 3.0)");
    assert_eq!(
        Term::real_div(&Term::int(1), &Term::int(2)),
        Term::real(rat(1, 2))
    );
    assert_eq!(Term::bv(BigUint::from(10u32), 8).to_string(), "#x0a");
    assert_eq!(Term::bv(BigUint::from(5u32), 3).to_string(), "#b101");
    assert_eq!(p.conjuncts(), vec![p.clone()]);
    assert_eq!(Term::tt().conjuncts(), vec![]);
}

#[test]
fn integer_constants_are_one_term_whatever_the_constructor() {
    // `Term::int` on a machine integer takes an allocation-free path; it must find the very term that
    // the generic constructors (and the parser) build from a `BigInt`.
    let big: BigInt = BigInt::from(i64::MAX) * 4 + 3;
    let values = [
        BigInt::from(0),
        BigInt::from(7),
        BigInt::from(-7),
        BigInt::from(i64::MAX),
        BigInt::from(i64::MIN),
        BigInt::from(u64::MAX),
        big.clone(),
        -big,
    ];
    for v in &values {
        let generic = Term::constant(Value::Int(v.clone()));
        assert_eq!(Term::int(v.clone()), generic, "{v}");
        assert_eq!(Term::int(v), generic, "{v}");
        assert_eq!(
            parse_term(&generic.to_string(), &ParseEnv::new()).unwrap(),
            generic,
            "{v}"
        );
        if let Ok(small) = i64::try_from(v) {
            assert_eq!(Term::int(small), generic, "{v}");
            // the fast path, with the generic term dropped in between, still yields one term
            let id = Term::int(small).id();
            assert_eq!(Term::int(small).id(), id);
        }
    }
    assert_eq!(Term::int(5u8), Term::int(BigInt::from(5)));
    assert_eq!(Term::int(u128::MAX), Term::int(BigInt::from(u128::MAX)));
    assert_ne!(Term::int(1), Term::int(-1));
}

#[test]
fn symbol_quoting() {
    for (raw, printed) in [
        ("x", "x"),
        ("x'@2", "|x'@2|"),
        ("ULTIMATE.start", "ULTIMATE.start"),
        ("~x", "|~x|"),
        ("#res", "|#res|"),
        ("a b", "|a b|"),
        ("assert", "|assert|"),
        ("true", "|true|"),
        ("3x", "|3x|"),
        ("bvadd", "|bvadd|"),
        ("main_x@1", "main_x@1"),
    ] {
        assert_eq!(Term::var(&iv(raw)).to_string(), printed, "{raw}");
    }
}

#[test]
fn free_vars_substitute_rename() {
    let z = iv("z");
    let t = Term::and(vec![
        Term::le(&x(), &y()),
        Term::exists(
            vec![z.clone()],
            Term::eq(&Term::var(&z), &Term::add(vec![x(), Term::int(1)])),
        ),
    ]);
    let fv: Vec<String> = t.free_vars().into_iter().map(|v| v.name).collect();
    assert_eq!(fv, vec!["x", "y"]);
    // capture avoidance: substitute x := z under ∃z
    let mut m = HashMap::new();
    m.insert(iv("x"), Term::var(&z));
    let s = t.substitute(&m);
    assert_eq!(
        s.to_string(),
        "(and (<= z y) (exists ((|z'0| Int)) (= |z'0| (+ z 1))))"
    );
    let r = t.rename(&|v: &Var| Some(Var::new(format!("{}@1", v.name), v.sort.clone())));
    assert_eq!(
        r.to_string(),
        "(and (<= x@1 y@1) (exists ((z Int)) (= z (+ x@1 1))))"
    );
}

#[test]
fn alpha_equivalent_quantifiers_are_one_term() {
    // names no other test uses: the first of alpha-equivalent quantifiers built in this process wins
    let p = FuncDecl::new("alpha_p", vec![Sort::Int, Sort::Int], Sort::Bool);
    let app = |a: &str, b: &str| Term::uf(&p, vec![Term::var(&iv(a)), Term::var(&iv(b))]);
    // ∃u. ∀v. p(u, v) and ∃v. ∀u. p(v, u): the same quantifier, the first one built
    let first = Term::exists(vec![iv("u")], Term::forall(vec![iv("v")], app("u", "v")));
    let second = Term::exists(vec![iv("v")], Term::forall(vec![iv("u")], app("v", "u")));
    assert_eq!(first, second);
    assert_eq!(
        second.to_string(),
        "(exists ((u Int)) (forall ((v Int)) (alpha_p u v)))"
    );
    // ∃u. ∀v. p(v, u) binds the other way round: a different term
    let swapped = Term::exists(vec![iv("u")], Term::forall(vec![iv("v")], app("v", "u")));
    assert_ne!(first, swapped);
    // a free variable keeps its identity: ∀v. p(u, v) and ∀v. p(w, v) differ, ∀w. p(u, w) is the first
    let fu = Term::forall(vec![iv("v")], app("u", "v"));
    assert_ne!(fu, Term::forall(vec![iv("v")], app("w", "v")));
    assert_eq!(fu, Term::forall(vec![iv("w")], app("u", "w")));
    // a bound variable named like a free one of the other: ∀u. p(u, w) is not ∀w. p(w, w)
    assert_ne!(
        Term::forall(vec![iv("u")], app("u", "w")),
        Term::forall(vec![iv("w")], app("w", "w"))
    );
    // duplicates collapse in a conjunction
    let ax = Term::var(&iv("alpha_x"));
    let conj = Term::and(vec![
        Term::exists(vec![iv("a")], Term::le(&Term::var(&iv("a")), &ax)),
        Term::exists(vec![iv("b")], Term::le(&Term::var(&iv("b")), &ax)),
    ]);
    assert_eq!(conj.to_string(), "(exists ((a Int)) (<= a alpha_x))");
}

#[test]
fn parse_round_trip_examples() {
    let f = FuncDecl::new("f", vec![Sort::Int], Sort::Int);
    let a = Var::new("a", Sort::array(Sort::Int, Sort::Bool));
    let terms = vec![
        Term::le(&Term::int(-5), &Term::uf(&f, vec![x()])),
        Term::select(&Term::store(&Term::var(&a), &x(), &Term::tt()), &y()),
        Term::eq(
            &Term::real_div(&Term::to_real(&x()), &Term::real(rat(3, 1))),
            &Term::real(rat(-1, 3)),
        ),
        Term::forall(
            vec![iv("k")],
            Term::implies(
                &Term::gt(&Term::var(&iv("k")), &x()),
                &Term::var(&bv("odd name")),
            ),
        ),
        Term::eq(
            &Term::const_array(Sort::array(Sort::Int, Sort::Int), &Term::int(0)),
            &Term::var(&Var::new("m", Sort::array(Sort::Int, Sort::Int))),
        ),
        Term::bv_op(
            "bvult",
            vec![
                Term::bv(BigUint::from(3u32), 8),
                Term::var(&Var::new("b", Sort::BitVec(8))),
            ],
        ),
        Term::app(
            Op::Extract(3, 0),
            vec![Term::var(&Var::new("b", Sort::BitVec(8)))],
        ),
    ];
    for t in terms {
        let env = ParseEnv::from_term(&t);
        let p = parse_term(&t.to_string(), &env).unwrap();
        assert_eq!(p, t, "{t}");
    }
    // let and annotations, z3-style negative literals
    let env = ParseEnv::from_term(&Term::add(vec![x(), y()]));
    let p = parse_term("(let ((a!1 (+ x 1))) (! (<= a!1 (- 3)) :named foo))", &env).unwrap();
    assert_eq!(
        p,
        Term::le(&Term::add(vec![x(), Term::int(1)]), &Term::int(-3))
    );
    assert!(parse_term("(+ x unknown)", &env).is_err());
    assert!(parse_term("(+ x", &env).is_err());
}

#[test]
fn shared_dags_print_linearly_with_let() {
    // t_{k+1} = (- t_k t_k): tree size 2^k, DAG size k
    let mut t = x();
    for _ in 0..40 {
        t = Term::sub(&t, &t);
    }
    assert!(t.tree_size() > 1 << 39);
    let text = t.to_string();
    assert!(text.len() < 4000, "{}", text.len());
    assert!(
        text.starts_with("(let ((lap!0 (- x x))) (let ((lap!1 (- lap!0 lap!0)))"),
        "{text}"
    );
    let back = parse_term(&text, &ParseEnv::from_term(&t)).unwrap();
    assert_eq!(back, t);
    // sums with a shared summand are not flattened
    let mut s = Term::add(vec![x(), y()]);
    for _ in 0..40 {
        s = Term::add(vec![s.clone(), s]);
    }
    assert!(s.to_string().len() < 4000);
    assert_eq!(simplify(&Term::sub(&s, &s)), Term::int(0));
    // DAG-aware: evaluation, linear forms in qe_light, substitution
    let mut env = BTreeMap::new();
    env.insert(iv("x"), Value::Int(1.into()));
    env.insert(iv("y"), Value::Int(0.into()));
    assert_eq!(eval(&s, &env), Some(Value::Int(BigInt::from(1u64 << 40))));
    let z = iv("z");
    let zt = Term::var(&z);
    let q = Term::exists(
        vec![z.clone()],
        Term::and(vec![
            Term::le(&zt, &s),
            Term::distinct(vec![zt.clone(), y()]),
        ]),
    );
    assert_eq!(qe_light(&q), Term::tt());
    let mut m = HashMap::new();
    m.insert(iv("y"), Term::int(0));
    let s0 = s.substitute(&m);
    assert!(s0.dag_size() < 200);
}

#[test]
fn concurrent_construction_and_drop() {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let mut keep = Vec::new();
                for i in 0..20_000i64 {
                    let a = Term::add(vec![x(), Term::int(i % 97)]);
                    let b = Term::le(&a, &Term::mul(vec![Term::int(t), y()]));
                    let c = Term::and(vec![b.clone(), Term::not(&b)]);
                    if i % 1000 == 0 {
                        keep.push(c.clone());
                    }
                    assert_eq!(Term::add(vec![x(), Term::int(i % 97)]), a);
                }
                keep.len()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 20);
    }
    assert_eq!(Term::add(vec![x(), Term::int(5)]).to_string(), "(+ x 5)");
}

#[test]
fn simplify_examples() {
    let s = |t: &Term| simplify(t).to_string();
    assert_eq!(s(&Term::le(&x(), &x())), "true");
    assert_eq!(s(&Term::lt(&Term::int(3), &Term::int(5))), "true");
    assert_eq!(
        s(&Term::add(vec![x(), Term::int(2), x(), Term::int(-2)])),
        "(* 2 x)"
    );
    assert_eq!(s(&Term::lt(&x(), &Term::int(5))), "(<= x 4)");
    assert_eq!(
        s(&Term::ge(
            &Term::mul(vec![Term::int(2), x()]),
            &Term::int(3)
        )),
        "(<= (- x) (- 2))"
    );
    assert_eq!(
        s(&Term::eq(
            &Term::mul(vec![Term::int(2), x()]),
            &Term::int(3)
        )),
        "false"
    );
    let p = Term::var(&bv("p"));
    assert_eq!(s(&Term::and(vec![p.clone(), Term::not(&p)])), "false");
    assert_eq!(
        s(&Term::and(vec![
            Term::le(&x(), &Term::int(3)),
            Term::gt(&x(), &Term::int(3))
        ])),
        "false"
    );
    assert_eq!(
        s(&Term::and(vec![
            Term::le(&x(), &Term::int(3)),
            Term::le(&x(), &Term::int(5))
        ])),
        "(<= x 3)"
    );
    assert_eq!(s(&Term::ite(&Term::tt(), &x(), &y())), "x");
    assert_eq!(s(&Term::int_div(&Term::int(-7), &Term::int(2))), "(- 4)");
    assert_eq!(s(&Term::modulo(&Term::int(-7), &Term::int(2))), "1");
    assert_eq!(s(&Term::modulo(&Term::int(-7), &Term::int(-2))), "1");
    assert_eq!(s(&Term::int_div(&Term::int(-7), &Term::int(-2))), "4");
    assert_eq!(s(&Term::int_div(&x(), &Term::int(0))), "(div x 0)");
    // A dividend whose coefficients are multiples of the divisor: exact, whatever the constant.
    let two_x = |k: i64| Term::add(vec![Term::mul(vec![Term::int(2), x()]), Term::int(k)]);
    assert_eq!(s(&Term::int_div(&two_x(84), &Term::int(2))), "(+ x 42)");
    assert_eq!(s(&Term::int_div(&two_x(-3), &Term::int(2))), "(+ x (- 2))");
    assert_eq!(s(&Term::modulo(&two_x(-3), &Term::int(2))), "1");
    assert_eq!(
        s(&Term::int_div(&two_x(3), &Term::int(-2))),
        "(+ (- x) (- 1))"
    );
    assert_eq!(
        s(&Term::int_div(
            &Term::add(vec![two_x(0), y()]),
            &Term::int(2)
        )),
        "(div (+ y (* 2 x)) 2)"
    );
}

#[test]
fn qe_light_examples() {
    let z = iv("z");
    let zt = Term::var(&z);
    // ∃z. z = x+1 ∧ z <= y  →  x+1 <= y
    let t = Term::exists(
        vec![z.clone()],
        Term::and(vec![
            Term::eq(&zt, &Term::add(vec![x(), Term::int(1)])),
            Term::le(&zt, &y()),
        ]),
    );
    assert_eq!(qe_light(&t).to_string(), "(<= (+ x 1) y)");
    // linear with unit coefficient on the other side: ∃z. x = z + y ∧ z > 0 → x - y > 0
    let t = Term::exists(
        vec![z.clone()],
        Term::and(vec![
            Term::eq(&x(), &Term::add(vec![zt.clone(), y()])),
            Term::gt(&zt, &Term::int(0)),
        ]),
    );
    let r = qe_light(&t);
    assert!(!r.has_quantifier(), "{r}");
    // one-sided bounds: ∃z. z <= x ∧ z < y ∧ z != 3 → true
    let t = Term::exists(
        vec![z.clone()],
        Term::and(vec![
            Term::le(&zt, &x()),
            Term::lt(&zt, &y()),
            Term::distinct(vec![zt.clone(), Term::int(3)]),
            Term::le(&x(), &y()),
        ]),
    );
    assert_eq!(qe_light(&t).to_string(), "(<= x y)");
    // ∀ dual: ∀z. z != x ∨ z > y  →  x > y
    let t = Term::forall(
        vec![z.clone()],
        Term::or(vec![Term::not(&Term::eq(&zt, &x())), Term::gt(&zt, &y())]),
    );
    let r = qe_light(&t);
    assert!(!r.has_quantifier(), "{r}");
    // two-sided bound stays
    let t = Term::exists(
        vec![z.clone()],
        Term::and(vec![
            Term::le(&zt, &x()),
            Term::ge(&zt, &y()),
            Term::eq(&Term::modulo(&zt, &Term::int(2)), &Term::int(0)),
        ]),
    );
    assert!(qe_light(&t).has_quantifier());
}

// ------------------------------------------------------------------------------------------ proptest

pub fn arb_int_term(depth: u32) -> BoxedStrategy<Term> {
    let leaf = prop_oneof![
        (-5i64..=5).prop_map(Term::int),
        prop::sample::select(vec!["x", "y", "z"]).prop_map(|n| Term::var(&iv(n))),
    ];
    leaf.prop_recursive(depth, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Term::add),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::sub(&a, &b)),
            inner.clone().prop_map(|a| Term::neg(&a)),
            ((-3i64..=3), inner.clone()).prop_map(|(k, a)| Term::mul(vec![Term::int(k), a])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::mul(vec![a, b])),
            (inner.clone(), (-3i64..=3)).prop_map(|(a, k)| Term::int_div(&a, &Term::int(k))),
            (inner.clone(), (-3i64..=3)).prop_map(|(a, k)| Term::modulo(&a, &Term::int(k))),
            (arb_atom(inner.clone()), inner.clone(), inner)
                .prop_map(|(c, a, b)| Term::ite(&c, &a, &b)),
        ]
    })
    .boxed()
}

pub fn arb_formula(depth: u32) -> BoxedStrategy<Term> {
    let int = arb_int_term(2);
    arb_atom(int.clone())
        .prop_recursive(depth, 32, 4, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Term::and),
                prop::collection::vec(inner.clone(), 0..4).prop_map(Term::or),
                inner.clone().prop_map(|a| Term::not(&a)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::implies(&a, &b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::eq(&a, &b)),
                (inner.clone(), inner.clone(), inner).prop_map(|(c, a, b)| Term::ite(&c, &a, &b)),
            ]
        })
        .boxed()
}

fn envs() -> impl Strategy<Value = Vec<BTreeMap<Var, Value>>> {
    prop::collection::vec(
        (
            (-6i64..=6),
            (-6i64..=6),
            (-6i64..=6),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(a, b, c, p, q)| {
                let mut m = BTreeMap::new();
                m.insert(iv("x"), Value::Int(BigInt::from(a)));
                m.insert(iv("y"), Value::Int(BigInt::from(b)));
                m.insert(iv("z"), Value::Int(BigInt::from(c)));
                m.insert(bv("p"), Value::Bool(p));
                m.insert(bv("q"), Value::Bool(q));
                m
            }),
        8,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn simplify_preserves_value(t in arb_formula(3), es in envs()) {
        let s = simplify(&t);
        for e in &es {
            if let (Some(a), Some(b)) = (eval(&t, e), eval(&s, e)) {
                prop_assert_eq!(a, b, "t = {}\ns = {}", t, s);
            }
        }
        // a fixpoint within a few more rounds: a rewrite may expose another in its context
        // (`(>= (ite c 3 0) (ite p 0 x))` becomes `(<= (ite p 0 x) 3)` inside `(or _ p)`, whose
        // `p` is false there only for the next round)
        let mut s2 = simplify(&s);
        for round in 0.. {
            let next = simplify(&s2);
            if next == s2 {
                break;
            }
            prop_assert!(round < 4, "no fixpoint after {} rounds: t = {}", round + 2, t);
            s2 = next;
        }
    }

    #[test]
    fn print_parse_round_trip(t in arb_formula(3)) {
        let env = ParseEnv::from_term(&t);
        let p = parse_term(&t.to_string(), &env).unwrap();
        prop_assert_eq!(p, t);
    }

    #[test]
    fn substitute_matches_evaluation(t in arb_formula(3), e in arb_int_term(2), es in envs()) {
        let mut m = HashMap::new();
        m.insert(iv("x"), e.clone());
        let s = t.substitute(&m);
        for env in &es {
            if let Some(ev) = eval(&e, env) {
                let mut env2 = env.clone();
                env2.insert(iv("x"), ev);
                if let (Some(a), Some(b)) = (eval(&t, &env2), eval(&s, env)) {
                    prop_assert_eq!(a, b);
                }
            }
        }
    }
}

/// A wide application collects its free variables in one sort (not pairwise merges): the same
/// sorted, duplicate-free set as a narrow one.
#[test]
fn free_vars_of_wide_applications() {
    let vars: Vec<Term> = (0..40)
        .map(|i| Term::var(&iv(&format!("v{:02}", 39 - i))))
        .collect();
    // Every variable twice, in two orders, beside a boolean variable.
    let mut args: Vec<Term> = vars.iter().map(|v| Term::le(v, &x())).collect();
    args.extend(vars.iter().rev().map(|v| Term::le(&y(), v)));
    args.push(Term::var(&bv("p")));
    let wide = Term::or(args);
    let got: Vec<String> = wide.free_vars().into_iter().map(|v| v.name).collect();
    let mut want: Vec<String> = (0..40).map(|i| format!("v{i:02}")).collect();
    want.extend(["p".into(), "x".into(), "y".into()]);
    want.sort();
    assert_eq!(got, want);
    let sum = Term::add(vars.clone());
    assert_eq!(sum.free_vars().len(), 40);
    assert!(wide.symbols().has_var(&iv("v07")));
    assert!(!sum.symbols().has_var(&iv("x")));
}

/// Complementary bounds make a conjunction false and a disjunction true, for integers and reals,
/// whichever side is written first (the bounds check, not literal negation, finds them).
#[test]
fn complementary_bounds_simplify() {
    let s = |t: &Term| simplify(t).to_string();
    let r = Term::var(&Var::new("r", Sort::Real));
    let one = Term::real(num_rational::BigRational::from_integer(BigInt::from(1)));
    let two_x = Term::mul(vec![Term::int(2), x()]);
    let pairs = [
        (Term::le(&x(), &Term::int(3)), Term::gt(&x(), &Term::int(3))),
        (
            Term::ge(&two_x, &Term::int(7)),
            Term::lt(&two_x, &Term::int(7)),
        ),
        (
            Term::le(&Term::sub(&x(), &y()), &Term::int(0)),
            Term::lt(&y(), &x()),
        ),
        (Term::le(&r, &one), Term::gt(&r, &one)),
        (Term::lt(&r, &one), Term::ge(&r, &one)),
    ];
    for (a, b) in pairs {
        for (p, q) in [(&a, &b), (&b, &a)] {
            assert_eq!(
                s(&Term::and(vec![p.clone(), q.clone()])),
                "false",
                "{p} {q}"
            );
            assert_eq!(s(&Term::or(vec![p.clone(), q.clone()])), "true", "{p} {q}");
        }
    }
    // Not complementary: a gap (reals) or an overlap stays.
    let gap = Term::or(vec![Term::lt(&r, &one), Term::gt(&r, &one)]);
    assert_ne!(s(&gap), "true");
    let overlap = Term::and(vec![
        Term::le(&x(), &Term::int(3)),
        Term::ge(&x(), &Term::int(3)),
    ]);
    assert_ne!(s(&overlap), "false");
}

/// Sums and differences by units (the fast paths of the linear normal form) and by other factors.
#[test]
fn linear_normal_form_units() {
    let s = |t: &Term| simplify(t).to_string();
    let d = Term::sub(&x(), &y());
    assert_eq!(s(&Term::add(vec![d.clone(), Term::sub(&y(), &x())])), "0");
    assert_eq!(s(&Term::sub(&d, &d)), "0");
    assert_eq!(s(&Term::neg(&Term::neg(&d))), s(&d));
    assert_eq!(
        s(&Term::add(vec![
            Term::mul(vec![Term::int(3), d.clone()]),
            Term::mul(vec![Term::int(-3), x()])
        ])),
        "(* (- 3) y)"
    );
    assert_eq!(
        s(&Term::le(&Term::neg(&x()), &Term::neg(&Term::int(4)))),
        "(<= (- x) (- 4))"
    );
}
