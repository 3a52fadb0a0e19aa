//! Cheap, solver-free partial quantifier elimination (Ultimate's `eliminateLight`, design notes §4.3).
//!
//! Bottom-up over the term; for `∃xs. φ`:
//! - `∃` is pushed over `∨` (`∃x. A ∨ B → (∃x. A) ∨ (∃x. B)`), no distribution of `∧` over `∨`;
//! - **DER** (destructive equality resolution): a conjunct `x = t` with `x ∉ vars(t)` (either side), a
//!   linear equality where `x` has coefficient ±1 (any non-zero coefficient for Real), or a Boolean literal
//!   `x` / `¬x`, is removed and `t` substituted for `x` in the other conjuncts;
//! - **IRD/UPD**: a numeric `x` that occurs only in bounds of one direction and disequalities, each linear
//!   in `x`, is dropped together with those conjuncts (such an `x` always exists over ℤ and ℝ);
//! - unused quantified variables are dropped; conjuncts without quantified variables move outside.
//!
//! `∀` is handled as the dual (`∀xs. φ ≡ ¬∃xs. ¬φ`, negation pushed into NNF). What cannot be eliminated
//! stays quantified. The result is equivalent to the input (property-tested against z3).
//!
//! [`weaken_uninterpreted`] is the one step here that is not exact: it splits variables of an
//! uninterpreted sort over the values they are compared with, assuming the sort has one element
//! more (an over-approximation, for strongest posts; property-tested: implied by the input, and
//! equivalent to it when the sort has a spare element).

use super::simplify::{lin_of, neg_lit};
use super::term::{Op, Quantifier, Sort, Term, TermKind, Var};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;

/// Partial quantifier elimination, see module docs.
pub fn qe_light(t: &Term) -> Term {
    let mut memo = HashMap::new();
    go(t, &mut memo)
}

fn go(t: &Term, memo: &mut HashMap<u32, Term>) -> Term {
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::Const(_) | TermKind::Var(_) => t.clone(),
        TermKind::App(_, args) => {
            if !t.has_quantifier() {
                t.clone()
            } else {
                let new: Vec<Term> = args.iter().map(|a| go(a, memo)).collect();
                t.with_args(new)
            }
        }
        TermKind::Quant(q, vs, body) => {
            let b = go(body, memo);
            match q {
                Quantifier::Exists => elim_exists(vs.clone(), &b),
                Quantifier::Forall => {
                    let nb = nnf_neg(&b);
                    let r = elim_exists(vs.clone(), &nb);
                    nnf_neg(&r)
                }
            }
        }
    };
    memo.insert(t.id(), r.clone());
    r
}

/// Negation in negation normal form over `and`/`or`/`not`/`=>`/quantifiers; literals via `neg_lit`.
pub(crate) fn nnf_neg(t: &Term) -> Term {
    match t.kind() {
        TermKind::App(Op::And, args) => Term::or(args.iter().map(nnf_neg).collect()),
        TermKind::App(Op::Or, args) => Term::and(args.iter().map(nnf_neg).collect()),
        TermKind::App(Op::Not, args) if args.len() == 1 => args[0].clone(),
        TermKind::App(Op::Implies, args) if args.len() == 2 => {
            Term::and(vec![args[0].clone(), nnf_neg(&args[1])])
        }
        TermKind::Quant(q, vs, b) => {
            let dual = match q {
                Quantifier::Exists => Quantifier::Forall,
                Quantifier::Forall => Quantifier::Exists,
            };
            Term::quant(dual, vs.clone(), nnf_neg(b))
        }
        _ => neg_lit(t),
    }
}

fn elim_exists(vs: Vec<Var>, body: &Term) -> Term {
    let vs: Vec<Var> = vs.into_iter().filter(|v| body.has_free_var(v)).collect();
    if vs.is_empty() {
        return body.clone();
    }
    if body.is_app_of(&Op::Or) {
        let parts = body
            .args()
            .iter()
            .map(|d| elim_exists(vs.clone(), d))
            .collect();
        return Term::or(parts);
    }
    let mut conj = body.conjuncts();
    let mut vs = vs;
    'outer: loop {
        vs.retain(|v| conj.iter().any(|c| c.has_free_var(v)));
        if vs.is_empty() {
            break;
        }
        // DER
        for vi in 0..vs.len() {
            let x = vs[vi].clone();
            for ci in 0..conj.len() {
                if let Some(rep) = solve_for(&conj[ci], &x) {
                    conj.remove(ci);
                    let mut m = HashMap::new();
                    m.insert(x.clone(), rep);
                    conj = Term::and(conj.iter().map(|c| c.substitute(&m)).collect()).conjuncts();
                    if conj.iter().any(Term::is_false) {
                        return Term::ff();
                    }
                    vs.remove(vi);
                    continue 'outer;
                }
            }
        }
        // IRD / UPD
        for vi in 0..vs.len() {
            let x = vs[vi].clone();
            if !x.sort.is_numeric() {
                continue;
            }
            let with_x: Vec<usize> = (0..conj.len())
                .filter(|&i| conj[i].has_free_var(&x))
                .collect();
            let mut dir = 0i32;
            let mut ok = true;
            for &i in &with_x {
                match bound_direction(&conj[i], &x) {
                    Some(0) => {}
                    Some(d) if dir == 0 || dir == d => dir = d,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                let mut k = 0;
                conj.retain(|_| {
                    let keep = !with_x.contains(&k);
                    k += 1;
                    keep
                });
                vs.remove(vi);
                continue 'outer;
            }
        }
        break;
    }
    if conj.is_empty() {
        return Term::tt();
    }
    let (inside, outside): (Vec<Term>, Vec<Term>) = conj
        .into_iter()
        .partition(|c| vs.iter().any(|v| c.has_free_var(v)));
    let mut parts = outside;
    if !inside.is_empty() {
        parts.push(Term::exists(vs, Term::and(inside)));
    }
    Term::and(parts)
}

/// If `c` is an equality that determines `x` (`x = t`, `x ∉ vars(t)`), returns `t`.
fn solve_for(c: &Term, x: &Var) -> Option<Term> {
    let xt = Term::var(x);
    if x.sort == Sort::Bool {
        if *c == xt {
            return Some(Term::tt());
        }
        if let Some((Op::Not, a)) = c.as_app()
            && a.len() == 1
            && a[0] == xt
        {
            return Some(Term::ff());
        }
    }
    let (op, args) = c.as_app()?;
    if *op != Op::Eq || args.len() != 2 {
        return None;
    }
    if args[0] == xt && !args[1].has_free_var(x) {
        return Some(args[1].clone());
    }
    if args[1] == xt && !args[0].has_free_var(x) {
        return Some(args[0].clone());
    }
    if !(args[0].sort_ref().is_numeric() && args[1].sort_ref().is_numeric()) {
        return None;
    }
    // linear: Σ + k·x = 0  →  x = -(Σ)/k
    let mut l = lin_of(&args[0]);
    l.add(&lin_of(&args[1]), &-BigRational::one());
    let (k, rest) = split_var(&l, &xt, x)?;
    let int = x.sort == Sort::Int;
    if int && !(k.is_one() || (-k.clone()).is_one()) {
        return None;
    }
    if int && (!rest.c.is_integer() || rest.terms.values().any(|(_, c)| !c.is_integer())) {
        return None;
    }
    let mut r = rest;
    r.scale(&(-BigRational::one() / k));
    let sort = if int { Sort::Int } else { Sort::Real };
    let t = super::simplify::lin_to_term(&r, &sort);
    if int && *t.sort_ref() != Sort::Int {
        return None;
    }
    Some(t)
}

/// Splits a linear form into the coefficient of `x` and the rest; `None` if `x` occurs inside another
/// atom or not at all.
fn split_var(
    l: &super::simplify::Lin,
    xt: &Term,
    x: &Var,
) -> Option<(BigRational, super::simplify::Lin)> {
    let mut k = None;
    let mut rest = super::simplify::Lin::constant(l.c.clone());
    for (t, c) in l.terms.values() {
        if t == xt {
            k = Some(c.clone());
        } else if t.has_free_var(x) {
            return None;
        } else {
            rest.add_atom(t, c.clone());
        }
    }
    let k = k?;
    if k.is_zero() {
        return None;
    }
    Some((k, rest))
}

/// Direction of `c` as a bound on `x`: `Some(1)` upper bound, `Some(-1)` lower bound, `Some(0)` a
/// disequality (no direction), `None` if `c` is not of that shape.
fn bound_direction(c: &Term, x: &Var) -> Option<i32> {
    let xt = Term::var(x);
    let (op, args) = c.as_app()?;
    let (op, args, negated) = match op {
        Op::Not if args.len() == 1 => {
            let (o, a) = args[0].as_app()?;
            (o, a, true)
        }
        _ => (op, args, false),
    };
    if args.len() != 2 || !args[0].sort_ref().is_numeric() || !args[1].sort_ref().is_numeric() {
        return None;
    }
    let mut l = lin_of(&args[0]);
    l.add(&lin_of(&args[1]), &-BigRational::one());
    let (k, _) = split_var(&l, &xt, x)?;
    // a - b with coefficient k for x
    let sign = if k.is_positive() { 1 } else { -1 };
    match (op, negated) {
        (Op::Eq, true) | (Op::Distinct, false) => Some(0),
        // a <= b, a < b: k·x <= …  → upper bound if k > 0
        (Op::Le | Op::Lt, false) | (Op::Ge | Op::Gt, true) => Some(sign),
        (Op::Ge | Op::Gt, false) | (Op::Le | Op::Lt, true) => Some(-sign),
        _ => None,
    }
}

/// Over-approximate elimination of the quantified variables of an uninterpreted sort at every
/// existential of `t` in positive position (under `and` / `or` only). Such a variable `x` that
/// occurs only in equalities `x = t` / `x ≠ t` with `t` free of `x` (the shape enumerations and
/// Boogie's `unique` constants give) is split over those values: `∃x. φ(x)` becomes
/// `φ(t₁) ∨ … ∨ φ(tₖ) ∨ φ(x ≠ every tᵢ)`, the last disjunct being `φ` with every such equality
/// false. That is the exact projection when the sort has an element other than `t₁ … tₖ`, and
/// weaker otherwise (the sort may have only those elements); so it is for strongest posts only,
/// never where the projection must be exact. One variable is split at a time (the one with the
/// fewest values), then [`qe_light`] pushes the quantifier into the new disjuncts, where equalities
/// often remove the other variables; at most [`MAX_SPLITS`] splits per call, and none that would
/// make `t` grow past [`MAX_GROWTH`] times its size (or past [`MAX_SIZE`] nodes).
pub fn weaken_uninterpreted(t: &Term) -> Term {
    let mut budget = MAX_SPLITS;
    let limit = MAX_SIZE.min(MAX_GROWTH * t.dag_size());
    let r = weaken_rec(t, &mut budget, limit);
    if r.dag_size() > limit { t.clone() } else { r }
}

/// See [`weaken_uninterpreted`].
const MAX_SPLITS: usize = 64;
const MAX_GROWTH: usize = 4;
const MAX_SIZE: usize = 20_000;

/// `limit`: the size a split existential may grow to.
fn weaken_rec(t: &Term, budget: &mut usize, limit: usize) -> Term {
    match t.kind() {
        TermKind::App(Op::And | Op::Or, args) if t.has_quantifier() => {
            t.with_args(args.iter().map(|a| weaken_rec(a, budget, limit)).collect())
        }
        TermKind::Quant(Quantifier::Exists, vs, body) if *budget > 0 => {
            let best = vs
                .iter()
                .filter(|x| matches!(x.sort, Sort::Uninterpreted(..)))
                .filter_map(|x| {
                    let mut values = Vec::new();
                    equality_values(body, x, &mut values, &mut HashMap::new()).then_some((
                        values.len(),
                        x,
                        values,
                    ))
                })
                .min_by_key(|(n, x, _)| (*n, (*x).clone()));
            let Some((_, x, values)) = best else {
                return t.clone();
            };
            *budget -= 1;
            let mut disj: Vec<Term> = values
                .iter()
                .map(|v| body.substitute(&HashMap::from([(x.clone(), v.clone())])))
                .collect();
            disj.push(other_element(body, x, &mut HashMap::new()));
            let left = vs.iter().filter(|v| *v != x).cloned().collect();
            let split = qe_light(&Term::exists(left, Term::or(disj)));
            if split.dag_size() > limit {
                return t.clone();
            }
            weaken_rec(&split, budget, limit)
        }
        _ => t.clone(),
    }
}

/// Collects into `values` the other sides of the equalities on `x` in `t`; `false` if `x` occurs
/// anywhere else (as an argument of another function, or under a quantifier).
fn equality_values(
    t: &Term,
    x: &Var,
    values: &mut Vec<Term>,
    seen: &mut HashMap<u32, bool>,
) -> bool {
    if !t.has_free_var(x) {
        return true;
    }
    if let Some(&ok) = seen.get(&t.id()) {
        return ok;
    }
    let ok = match t.kind() {
        TermKind::App(Op::Eq | Op::Distinct, args) if args.len() == 2 => {
            let xt = Term::var(x);
            let other = if args[0] == xt { &args[1] } else { &args[0] };
            if (args[0] == xt || args[1] == xt) && !other.has_free_var(x) {
                if !values.contains(other) {
                    values.push(other.clone());
                }
                true
            } else {
                false
            }
        }
        TermKind::App(Op::And | Op::Or | Op::Not | Op::Implies | Op::Ite, args) => {
            args.iter().all(|a| equality_values(a, x, values, seen))
        }
        _ => false,
    };
    seen.insert(t.id(), ok);
    ok
}

/// `t` with every equality on `x` false (and every disequality true): `t` at an element of `x`'s
/// sort other than all that `x` is compared with.
fn other_element(t: &Term, x: &Var, memo: &mut HashMap<u32, Term>) -> Term {
    if !t.has_free_var(x) {
        return t.clone();
    }
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::App(Op::Eq, args) if args.len() == 2 => Term::ff(),
        TermKind::App(Op::Distinct, args) if args.len() == 2 => Term::tt(),
        TermKind::App(_, args) => {
            let new = args.iter().map(|a| other_element(a, x, memo)).collect();
            t.with_args(new)
        }
        _ => t.clone(),
    };
    memo.insert(t.id(), r.clone());
    r
}
