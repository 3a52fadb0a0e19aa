//! Cheap, solver-free partial quantifier elimination (Ultimate's `eliminateLight`, design notes §4.3).
//!
//! Bottom-up over the term; for `∃xs. φ`:
//! - `∃` is pushed over `∨` (`∃x. A ∨ B → (∃x. A) ∨ (∃x. B)`);
//! - **DER** (destructive equality resolution): a conjunct `x = t` with `x ∉ vars(t)` (either side), a
//!   linear equality where `x` has coefficient ±1 (any non-zero coefficient for Real), or a Boolean literal
//!   `x` / `¬x`, is removed and `t` substituted for `x` in the other conjuncts;
//! - **IRD/UPD**: a numeric `x` that occurs only in bounds of one direction and disequalities, each linear
//!   in `x`, is dropped together with those conjuncts (such an `x` always exists over ℤ and ℝ);
//! - **FME**: a numeric `x` bounded on both sides, every conjunct linear in `x` and no disequality, is
//!   eliminated by Fourier–Motzkin (each lower bound at most each upper bound; over ℤ only with
//!   coefficients ±1 and integral rests, where that is exact once strict bounds are made non-strict;
//!   at most [`MAX_FM_PAIRS`] new constraints); when the conjuncts with `x` mention nothing else
//!   (a sentence in one variable), it is decided outright, disequalities included;
//! - unused quantified variables are dropped; conjuncts without quantified variables move outside;
//! - **case split**: when variables remain and an `ite` whose condition `c` does not mention them
//!   has one in a branch (a read of a C program's memory at a base that may be the one written),
//!   `∃xs. φ ≡ (c ∧ ∃xs. φ[c:=⊤]) ∨ (¬c ∧ ∃xs. φ[c:=⊥])`, each case simplified and eliminated
//!   again (at most [`MAX_ITE_SPLITS`] nested splits).
//! - **miniscoping**: when variables still remain, the conjuncts are grouped by the quantified
//!   variables they share, `∃xs. A ∧ B ≡ (∃xs∩vars(A). A) ∧ (∃xs∩vars(B). B)`, and each group is
//!   eliminated on its own; a group of one disjunction disjunct by disjunct (a large block's paths,
//!   each with the equalities DER needs). `∧` is not distributed over `∨` (measured: it copies the
//!   rest of the conjunction into every case and makes the predicates larger for less gain).
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
                Quantifier::Exists => elim_exists(vs.clone(), &b, MAX_ITE_SPLITS),
                Quantifier::Forall => {
                    let nb = nnf_neg(&b);
                    let r = elim_exists(vs.clone(), &nb, MAX_ITE_SPLITS);
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

/// How often one elimination may split on the condition of an `ite` (so at most `2^n` cases).
const MAX_ITE_SPLITS: u32 = 3;

/// `∃vs. body`, see the module docs; `splits` bounds the case splits on `ite` conditions still
/// allowed.
fn elim_exists(vs: Vec<Var>, body: &Term, splits: u32) -> Term {
    let vs: Vec<Var> = vs.into_iter().filter(|v| body.has_free_var(v)).collect();
    if vs.is_empty() {
        return body.clone();
    }
    if body.is_app_of(&Op::Or) {
        let parts = body
            .args()
            .iter()
            .map(|d| elim_exists(vs.clone(), d, splits))
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
            let with_x = mentioning(&conj, &x);
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
                remove_at(&mut conj, &with_x);
                vs.remove(vi);
                continue 'outer;
            }
        }
        // FME / closed: bounds in both directions
        for vi in 0..vs.len() {
            let x = vs[vi].clone();
            if !x.sort.is_numeric() {
                continue;
            }
            let with_x = mentioning(&conj, &x);
            let Some(replacement) =
                two_sided(&with_x.iter().map(|&i| &conj[i]).collect::<Vec<_>>(), &x)
            else {
                continue;
            };
            remove_at(&mut conj, &with_x);
            if replacement.iter().any(Term::is_false) {
                return Term::ff();
            }
            conj.extend(replacement.into_iter().filter(|c| !c.is_true()));
            vs.remove(vi);
            continue 'outer;
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
        let inside = Term::and(inside);
        match splittable_condition(&inside, &vs).filter(|_| splits > 0) {
            // **Case split**: an `ite` whose condition `c` does not mention the quantified
            // variables (a select over a store at a symbolic index: "are these two bases the
            // same?") often hides what DER needs; `∃x. φ ≡ (c ∧ ∃x. φ[c:=⊤]) ∨ (¬c ∧ ∃x. φ[c:=⊥])`.
            Some(c) => {
                let case = |value: bool| {
                    let mut memo = HashMap::new();
                    let body = super::simplify::simplify(&assume(
                        &inside,
                        &c,
                        &Term::bool(value),
                        &mut memo,
                    ));
                    let lit = if value { c.clone() } else { Term::not(&c) };
                    Term::and(vec![lit, elim_exists(vs.clone(), &body, splits - 1)])
                };
                parts.push(Term::or(vec![case(true), case(false)]));
            }
            None => parts
                .push(miniscope(&vs, &inside, splits).unwrap_or_else(|| Term::exists(vs, inside))),
        }
    }
    Term::and(parts)
}

/// **Miniscoping** of what remains of `∃vs. inside` after the conjunctive rules: the conjuncts in
/// groups that share no variable of `vs`, each group eliminated on its own (a group of one
/// disjunction disjunct by disjunct). `None` when there is nothing to split (one group of several
/// conjuncts, or one conjunct that is not a disjunction).
fn miniscope(vs: &[Var], inside: &Term, splits: u32) -> Option<Term> {
    if inside.has_quantifier() {
        return None;
    }
    let conj = inside.conjuncts();
    let groups = conjunct_groups(&conj, |v| vs.contains(v));
    let one_disjunction = conj.len() == 1 && inside.is_app_of(&Op::Or);
    if groups.len() == 1 && !one_disjunction {
        return None;
    }
    let parts = groups.into_iter().map(|g| {
        let g = Term::and(g.into_iter().map(|i| conj[i].clone()).collect());
        let gvs: Vec<Var> = vs.iter().filter(|v| g.has_free_var(v)).cloned().collect();
        if g.is_app_of(&Op::And) {
            // one group of several conjuncts: the conjunctive rules have run on it already
            Term::exists(gvs, g)
        } else {
            elim_exists(gvs, &g, splits)
        }
    });
    Some(Term::and(parts.collect()))
}

/// The conjuncts `conj` in groups connected by shared variables that satisfy `links` (union–find):
/// each group's indices ascending, the groups in the order of their first conjunct.
pub fn conjunct_groups(conj: &[Term], links: impl Fn(&Var) -> bool) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..conj.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: HashMap<&Var, usize> = HashMap::new();
    for (i, c) in conj.iter().enumerate() {
        for v in c.free_vars_ref().iter().filter(|v| links(v)) {
            if let Some(&j) = owner.get(v) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a] = b;
            } else {
                owner.insert(v, i);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for i in 0..conj.len() {
        let r = root(&mut parent, i);
        let k = *slot.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[k].push(i);
    }
    groups
}

/// The condition of the first `ite` (outside nested quantifiers) in `t` that mentions none of `vs`
/// while one of its branches mentions one of them.
fn splittable_condition(t: &Term, vs: &[Var]) -> Option<Term> {
    fn walk(t: &Term, vs: &[Var], seen: &mut std::collections::HashSet<u32>) -> Option<Term> {
        if !seen.insert(t.id()) || !vs.iter().any(|v| t.has_free_var(v)) {
            return None;
        }
        let TermKind::App(op, args) = t.kind() else {
            return None;
        };
        if *op == Op::Ite
            && args.len() == 3
            && !vs.iter().any(|v| args[0].has_free_var(v))
            && !args[0].has_quantifier()
        {
            return Some(args[0].clone());
        }
        args.iter().find_map(|a| walk(a, vs, seen))
    }
    walk(t, vs, &mut std::collections::HashSet::new())
}

/// `t` with the occurrences of `c` (outside quantifiers, which may bind its variables) replaced
/// by `value`.
fn assume(t: &Term, c: &Term, value: &Term, memo: &mut HashMap<u32, Term>) -> Term {
    if t.id() == c.id() {
        return value.clone();
    }
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::App(_, args) => {
            let new: Vec<Term> = args.iter().map(|a| assume(a, c, value, memo)).collect();
            if new.iter().zip(args).all(|(a, b)| a.id() == b.id()) {
                t.clone()
            } else {
                t.with_args(new)
            }
        }
        _ => t.clone(),
    };
    memo.insert(t.id(), r.clone());
    r
}

/// The positions of the conjuncts that mention `x`.
fn mentioning(conj: &[Term], x: &Var) -> Vec<usize> {
    (0..conj.len())
        .filter(|&i| conj[i].has_free_var(x))
        .collect()
}

/// `conj` without the conjuncts at the (ascending) positions `at`.
fn remove_at(conj: &mut Vec<Term>, at: &[usize]) {
    let mut k = 0;
    conj.retain(|_| {
        let keep = at.binary_search(&k).is_err();
        k += 1;
        keep
    });
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

/// At most this many constraints come out of eliminating one variable by Fourier–Motzkin.
const MAX_FM_PAIRS: usize = 16;

/// A conjunct in `x` as `k·x + rest ⋈ 0`.
enum Rel {
    Le,
    Lt,
    Ne,
}

/// `c` as `k·x + rest ⋈ 0` (`⋈` one of `≤`, `<`, `≠`; `k ≠ 0`, `x` not in `rest`); `None` for any
/// other shape, equalities included (DER solves those).
fn linear_in(c: &Term, x: &Var) -> Option<(Rel, BigRational, super::simplify::Lin)> {
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
    // l = a - b
    let mut l = lin_of(&args[0]);
    l.add(&lin_of(&args[1]), &-BigRational::one());
    let (k, rest) = split_var(&l, &xt, x)?;
    let neg = |k: BigRational, mut r: super::simplify::Lin| {
        r.scale(&-BigRational::one());
        (-k, r)
    };
    Some(match (op, negated) {
        (Op::Le, false) | (Op::Gt, true) => (Rel::Le, k, rest),
        (Op::Lt, false) | (Op::Ge, true) => (Rel::Lt, k, rest),
        (Op::Ge, false) | (Op::Lt, true) => {
            let (k, r) = neg(k, rest);
            (Rel::Le, k, r)
        }
        (Op::Gt, false) | (Op::Le, true) => {
            let (k, r) = neg(k, rest);
            (Rel::Lt, k, r)
        }
        (Op::Eq, true) | (Op::Distinct, false) => (Rel::Ne, k, rest),
        _ => return None,
    })
}

/// `∃x. ⋀cs` without `x`, when every conjunct is linear in `x` (`k·x + r ⋈ 0`): by Fourier–Motzkin
/// when there are no disequalities (over `Int` only with unit coefficients and integral rests,
/// where it is exact: strict bounds become non-strict ones), at most [`MAX_FM_PAIRS`] pairs of a
/// lower and an upper bound; and decided outright when no conjunct has another free variable (a
/// sentence over one variable: is there a value within the bounds that no disequality excludes?).
/// `None` when neither applies.
fn two_sided(cs: &[&Term], x: &Var) -> Option<Vec<Term>> {
    use super::simplify::{Lin, lin_to_term};
    let int = x.sort == Sort::Int;
    let mut lowers: Vec<(Lin, bool)> = Vec::new(); // x ≥ l (strict: >)
    let mut uppers: Vec<(Lin, bool)> = Vec::new(); // x ≤ u (strict: <)
    let mut excluded: Vec<Lin> = Vec::new(); // x ≠ e
    for c in cs {
        let (rel, k, rest) = linear_in(c, x)?;
        if int
            && (!(k.is_one() || (-k.clone()).is_one())
                || !rest.c.is_integer()
                || rest.terms.values().any(|(_, c)| !c.is_integer()))
        {
            // (closed sentences with other coefficients are left to the solver)
            return None;
        }
        // k·x + rest ⋈ 0  ⟺  x ⋈' -rest/k
        let mut bound = rest;
        bound.scale(&(-BigRational::one() / &k));
        match rel {
            Rel::Ne => excluded.push(bound),
            Rel::Le | Rel::Lt => {
                let strict = matches!(rel, Rel::Lt);
                // over Int, x < b ⟺ x ≤ b - 1 and x > b ⟺ x ≥ b + 1 (b integral)
                let (bound, strict) = if int && strict {
                    let mut b = bound;
                    b.c += if k.is_positive() {
                        -BigRational::one()
                    } else {
                        BigRational::one()
                    };
                    (b, false)
                } else {
                    (bound, strict)
                };
                if k.is_positive() {
                    uppers.push((bound, strict));
                } else {
                    lowers.push((bound, strict));
                }
            }
        }
    }
    let closed = lowers
        .iter()
        .chain(&uppers)
        .map(|(l, _)| l)
        .chain(&excluded)
        .all(|l| l.terms.is_empty());
    if closed {
        let lo = lowers
            .iter()
            .max_by(|a, b| a.0.c.cmp(&b.0.c).then(a.1.cmp(&b.1)))
            .map(|(l, s)| (l.c.clone(), *s));
        let hi = uppers
            .iter()
            .min_by(|a, b| a.0.c.cmp(&b.0.c).then(b.1.cmp(&a.1)))
            .map(|(l, s)| (l.c.clone(), *s));
        let out: Vec<BigRational> = excluded.iter().map(|l| l.c.clone()).collect();
        let sat = match (lo, hi) {
            (Some((l, ls)), Some((h, hs))) => {
                if int {
                    let (l, h) = (l.ceil(), h.floor());
                    if l > h {
                        false
                    } else {
                        let mut inside: Vec<&BigRational> = out
                            .iter()
                            .filter(|e| e.is_integer() && **e >= l && **e <= h)
                            .collect();
                        inside.sort();
                        inside.dedup();
                        (&h - &l + BigRational::one())
                            > BigRational::from_integer(inside.len().into())
                    }
                } else if l < h {
                    true
                } else {
                    l == h && !ls && !hs && !out.contains(&l)
                }
            }
            // unbounded on a side: infinitely many values, finitely many excluded
            _ => true,
        };
        return Some(vec![if sat { Term::tt() } else { Term::ff() }]);
    }
    if !excluded.is_empty() || lowers.len() * uppers.len() > MAX_FM_PAIRS {
        return None;
    }
    let sort = if int { Sort::Int } else { Sort::Real };
    let mut out = Vec::with_capacity(lowers.len() * uppers.len());
    for (l, ls) in &lowers {
        for (u, us) in &uppers {
            // l ≤ u  ⟺  l - u ≤ 0
            let mut d = l.clone();
            d.add(u, &-BigRational::one());
            let lhs = lin_to_term(&d, &sort);
            let zero = if int {
                Term::int(0)
            } else {
                Term::real(BigRational::zero())
            };
            out.push(super::simplify::simplify(&if *ls || *us {
                Term::lt(&lhs, &zero)
            } else {
                Term::le(&lhs, &zero)
            }));
        }
    }
    Some(out)
}

/// Direction of `c` as a bound on `x`: `Some(1)` upper bound, `Some(-1)` lower bound, `Some(0)` a
/// disequality (no direction), `None` if `c` is not of that shape.
fn bound_direction(c: &Term, x: &Var) -> Option<i32> {
    let (rel, k, _) = linear_in(c, x)?;
    // k·x + rest ⋈ 0: an upper bound if k > 0
    Some(match rel {
        Rel::Ne => 0,
        Rel::Le | Rel::Lt if k.is_positive() => 1,
        Rel::Le | Rel::Lt => -1,
    })
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
