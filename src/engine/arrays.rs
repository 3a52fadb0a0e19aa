//! Over-approximating elimination of existentially quantified array variables.
//!
//! Strongest posts (and the negated weakest preconditions the backward interpolator keeps) are
//! existential formulas `∃xs. φ`. When some `x` is an SMT array, the light QE and z3's `qe` rarely
//! eliminate it and z3 can spend its whole time limit trying. [`weaken`] replaces every positive
//! `∃xs. φ` that binds an array variable by a *weaker* formula without array quantifiers:
//!
//! - a conjunction with a disjunction that mentions an array is distributed (bounded), and the light QE
//!   tried again on each disjunct;
//! - a conjunct `b = store(a, i, v)` (with `a` quantified and not in `b`, `i`) is eliminated exactly:
//!   for an *invertible* update `v = k·a[i] + d` (`k = ±1` over the integers; `a ∉ d`) `a` is
//!   `store(b, i, (b[i] − d) / k)`, substituted everywhere (so `x = a[j]` after `a[i] := a[i] + 1`
//!   keeps `x = ite(j = i, b[i] − 1, b[j])`); otherwise `a` is `store(b, i, e)` for a fresh element
//!   `e` (`a[i]`), substituted everywhere, and the definition becomes `b[i] = v[a := store(b, i, e)]`
//!   (`e`, an array for nested maps, is eliminated in turn);
//! - only when `a` occurs under a binder is the store weakened instead: `select(b, i) = v`, and every
//!   other conjunct `C` whose occurrences of `a` are all selects `a[j1], …, a[jn]` becomes
//!   `(j1 ≠ i ∧ … ∧ jn ≠ i) ⇒ C[b[jk] / a[jk]]` (true because `b` and `a` agree off `i`);
//! - a remaining select `a[j]` becomes a fresh existential variable `e_j` of the element sort, and
//!   functional consistency is kept by Ackermann's constraints `j = k ⇒ e_j = e_k` for each pair of
//!   distinct indices (up to [`ACKERMANN_MAX`] selects; beyond that it is forgotten, which only
//!   weakens) — so `∃a. s = a[j] ∧ j = 0 ∧ u = a[0]` keeps `s = u`;
//! - a conjunct that still mentions `a` any other way is dropped (replaced by `true`).
//!
//! Every step only weakens the existential, i.e. `∃xs. φ ⇒ weaken(∃xs. φ)`. Forward, a weaker post is
//! still a post; backward, a weaker `∃` is a stronger precondition. Either way every Hoare triple stays
//! valid, and the engine checks each triple it uses with the solver anyway; the ends of a sequence
//! (`true` … `false`) are checked too, so a weakening that loses the proof only costs precision.

use crate::smt::{Op, Quantifier, Sort, Term, TermKind, Var};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

static FRESH: AtomicU64 = AtomicU64::new(0);

fn fresh(base: &str, sort: Sort) -> Var {
    let n = FRESH.fetch_add(1, Ordering::Relaxed);
    Var {
        name: format!("{base}!ae{n}"),
        sort,
    }
}

fn is_array(v: &Var) -> bool {
    matches!(v.sort, Sort::Array(..))
}

/// Weakens `t` (see module docs): positive existentials over arrays (reached through `and`, `or` and
/// `exists`) lose their array variables. Other occurrences are left alone.
pub fn weaken(t: &Term) -> Term {
    let mut cases = MAX_CASES;
    weaken_within(t, &mut cases)
}

/// The cases all distributions of one [`weaken`] may create together: each distribution
/// multiplies the cases of the ones below it, so a formula with a few dozen disjunctions over an
/// array (a loop over a string, unrolled) would otherwise grow without bound. Past the budget a
/// disjunction stays whole (precision is lost, the result is still weaker).
const MAX_CASES: usize = 256;

fn weaken_within(t: &Term, cases: &mut usize) -> Term {
    if !t.has_array_quantifier() {
        return t.clone();
    }
    match t.kind() {
        TermKind::App(Op::And, args) => {
            Term::and(args.iter().map(|a| weaken_within(a, cases)).collect())
        }
        TermKind::App(Op::Or, args) => {
            Term::or(args.iter().map(|a| weaken_within(a, cases)).collect())
        }
        TermKind::Quant(Quantifier::Exists, vs, body) => {
            let body = weaken_within(body, cases);
            weaken_exists(vs.clone(), &body, cases)
        }
        _ => t.clone(),
    }
}

/// Does `v` occur inside the index of a select in `t`?
fn indexes(t: &Term, v: &Var) -> bool {
    if !t.has_free_var(v) {
        return false;
    }
    match t.kind() {
        TermKind::App(Op::Select, args) if args.len() == 2 => {
            args[1].has_free_var(v) || indexes(&args[0], v)
        }
        TermKind::App(_, args) => args.iter().any(|a| indexes(a, v)),
        TermKind::Quant(_, _, b) => indexes(b, v),
        _ => false,
    }
}

/// Does `t` have a positive `∃` (through `and`, `or`, `exists`) binding a scalar that indexes a
/// select of its body (`∃x. a[x] = 13 ∧ x ≠ k ∧ …`, which neither the light QE nor z3's `qe`
/// eliminates)?
pub fn has_index_quantifier(t: &Term) -> bool {
    if !t.has_quantifier() {
        return false;
    }
    match t.kind() {
        TermKind::App(Op::And | Op::Or, args) => args.iter().any(has_index_quantifier),
        TermKind::Quant(Quantifier::Exists, vs, b) => {
            vs.iter().any(|v| !is_array(v) && indexes(b, v)) || has_index_quantifier(b)
        }
        _ => false,
    }
}

/// Weakens every positive `∃xs. φ` whose scalars index selects ([`has_index_quantifier`]): two
/// bounds `e ≤ 0`, `−e ≤ 0` on such a scalar become `e = 0`; a read over a write or an `ite` whose
/// case depends on such a scalar is split into its two cases, and a disjunction mentioning one is
/// distributed (both bounded), with the light QE tried on each case — `x = k` in one substitutes
/// `x`, which may contradict `x ≠ k` or `¬m[k]` —; then the conjuncts that still mention such a
/// scalar are dropped. Exact up to the dropping, which only weakens (see the module comment).
pub fn weaken_indices(t: &Term) -> Term {
    weaken_indices_at(t, 0)
}

/// [`weaken_indices`] at `depth` case splits: a case keeps its depth through the existentials the
/// light QE leaves inside it, so that every path splits at most 6 times (64 cases).
fn weaken_indices_at(t: &Term, depth: usize) -> Term {
    if !has_index_quantifier(t) {
        return t.clone();
    }
    match t.kind() {
        TermKind::App(Op::And, args) => {
            Term::and(args.iter().map(|a| weaken_indices_at(a, depth)).collect())
        }
        TermKind::App(Op::Or, args) => {
            Term::or(args.iter().map(|a| weaken_indices_at(a, depth)).collect())
        }
        TermKind::Quant(Quantifier::Exists, vs, body) => {
            let body = weaken_indices_at(body, depth);
            weaken_index_exists(vs.clone(), &body, depth)
        }
        _ => t.clone(),
    }
}

fn weaken_index_exists(vs: Vec<Var>, body: &Term, depth: usize) -> Term {
    let bad: Vec<Var> = vs
        .iter()
        .filter(|v| !is_array(v) && indexes(body, v))
        .cloned()
        .collect();
    if bad.is_empty() {
        return Term::exists(vs, body.clone());
    }
    if body.is_app_of(&Op::Or) {
        return Term::or(
            body.args()
                .iter()
                .map(|d| weaken_index_exists(vs.clone(), d, depth))
                .collect(),
        );
    }
    let mut conj = body.conjuncts();
    if depth < 6 && body.dag_size() <= 4000 {
        // Bounds `e <= 0` and `-e <= 0` (z3's `qe` writes `x = k` so) on a quantified index are
        // the equality `e = 0`, which the light QE substitutes.
        if let Some(merged) = merge_bounds(&conj, &bad) {
            return weaken_case(vs, merged, depth);
        }
        // A case that depends on a quantified index — a read over a write `store(a, i, v)[j]` or an
        // `ite` — is split into its two cases first: dropping the conjunct would lose what it says
        // off the index (`∃i. m[i] ∧ store(a, i, v)[k] ≠ b[k]` keeps `a[k] ≠ b[k]` where `i ≠ k`).
        if let Some((k, guard, then, other)) = conj.iter().enumerate().find_map(|(k, c)| {
            let (guard, then, other) = split_case(c, &bad)?;
            Some((k, guard, then, other))
        }) {
            conj.remove(k);
            let cases = [(guard.clone(), then), (Term::not(&guard), other)];
            return Term::or(
                cases
                    .into_iter()
                    .map(|(g, c)| {
                        let mut cs = conj.clone();
                        cs.push(g);
                        cs.push(c);
                        weaken_case(vs.clone(), cs, depth)
                    })
                    .collect(),
            );
        }
        if let Some(k) = conj
            .iter()
            .position(|c| c.is_app_of(&Op::Or) && bad.iter().any(|v| c.has_free_var(v)))
        {
            let d = conj.remove(k);
            return Term::or(
                d.args()
                    .iter()
                    .map(|x| {
                        let mut cs = conj.clone();
                        cs.push(x.clone());
                        weaken_case(vs.clone(), cs, depth)
                    })
                    .collect(),
            );
        }
    }
    conj.retain(|c| !bad.iter().any(|v| c.has_free_var(v)));
    let rest: Vec<Var> = vs.into_iter().filter(|v| !bad.contains(v)).collect();
    Term::exists(rest, Term::and(conj))
}

/// `conj` with the first pair of bounds `a <= b`, `c <= d` on one of `bad` such that
/// `(a - b) + (c - d)` is `0` replaced by the equality `a = b`; `None` without such a pair.
fn merge_bounds(conj: &[Term], bad: &[Var]) -> Option<Vec<Term>> {
    // (k, a, b, a - b) for each conjunct `a <= b` on a scalar of `bad`
    let bounds: Vec<(usize, &Term, &Term, Term)> = conj
        .iter()
        .enumerate()
        .filter_map(|(k, c)| match c.as_app() {
            Some((Op::Le, [a, b])) if bad.iter().any(|v| c.has_free_var(v)) => {
                Some((k, a, b, Term::sub(a, b)))
            }
            _ => None,
        })
        .take(MAX_MERGED_BOUNDS)
        .collect();
    let zero = num_rational::BigRational::from_integer(0.into());
    for (x, (k, a, b, e)) in bounds.iter().enumerate() {
        for (l, _, _, f) in &bounds[x + 1..] {
            let sum = crate::smt::simplify(&Term::add(vec![e.clone(), f.clone()]));
            if sum.as_const().and_then(|v| v.as_rational()) == Some(zero.clone()) {
                let mut out: Vec<Term> = conj
                    .iter()
                    .enumerate()
                    .filter(|(m, _)| m != k && m != l)
                    .map(|(_, c)| c.clone())
                    .collect();
                out.push(Term::eq(a, b));
                return Some(out);
            }
        }
    }
    None
}

/// Bounds on quantified indices compared pairwise by [`merge_bounds`], at most.
const MAX_MERGED_BOUNDS: usize = 16;

/// One case of [`weaken_index_exists`]: the light QE on `∃vs. ⋀cs` (an equality on a quantified
/// index substitutes it), then the weakening of what is left, one level deeper.
fn weaken_case(vs: Vec<Var>, cs: Vec<Term>, depth: usize) -> Term {
    let t = crate::smt::simplify(&crate::smt::qe_light(&Term::exists(vs, Term::and(cs))));
    match t.kind() {
        TermKind::Quant(Quantifier::Exists, ws, b) => weaken_index_exists(ws.clone(), b, depth + 1),
        _ => weaken_indices_at(&t, depth + 1),
    }
}

/// The first case split in `c` on a condition that mentions one of `bad` (outside binders): a read
/// over a write `store(a, i, v)[j]` (the condition `i = j`, the cases `v` and `a[j]`) or an
/// `ite(cond, x, y)`. Returns the condition and `c` in each case.
fn split_case(c: &Term, bad: &[Var]) -> Option<(Term, Term, Term)> {
    fn find(t: &Term, bad: &[Var]) -> Option<(Term, Term, Term, Term)> {
        if !bad.iter().any(|v| t.has_free_var(v)) {
            return None;
        }
        let TermKind::App(op, args) = t.kind() else {
            return None;
        };
        if let Some(r) = args.iter().find_map(|x| find(x, bad)) {
            return Some(r);
        }
        let mentions = |x: &Term| bad.iter().any(|v| x.has_free_var(v));
        match op {
            Op::Select if args.len() == 2 && args[0].is_app_of(&Op::Store) => {
                let st = args[0].args();
                if st.len() == 3 && (mentions(&st[1]) || mentions(&args[1])) {
                    let cond = Term::eq(&st[1], &args[1]);
                    return Some((
                        t.clone(),
                        cond,
                        st[2].clone(),
                        Term::select(&st[0], &args[1]),
                    ));
                }
                None
            }
            Op::Ite if args.len() == 3 && mentions(&args[0]) => {
                Some((t.clone(), args[0].clone(), args[1].clone(), args[2].clone()))
            }
            _ => None,
        }
    }
    let (at, cond, then, other) = find(c, bad)?;
    let case = |x: Term| crate::smt::simplify(&replace(c, &HashMap::from([(at.id(), x)])));
    Some((cond, case(then), case(other)))
}

fn weaken_exists(vs: Vec<Var>, body: &Term, cases: &mut usize) -> Term {
    if body.is_app_of(&Op::Or) {
        return Term::or(
            body.args()
                .iter()
                .map(|d| weaken_exists(vs.clone(), d, cases))
                .collect(),
        );
    }
    let mut conj = body.conjuncts();
    // A disjunction that mentions a quantified array (typically the branches of an `if` that update
    // the map differently) is distributed, so that each branch's `b = store(a, …)` becomes a
    // top-level conjunct the light QE can substitute. Bounded; beyond the bound, precision is lost.
    if let Some(k) = conj
        .iter()
        .position(|c| c.is_app_of(&Op::Or) && vs.iter().any(|v| is_array(v) && c.has_free_var(v)))
        && body.dag_size() <= 4000
        && conj[k].args().len() <= *cases
    {
        let d = conj.remove(k);
        *cases -= d.args().len();
        let disjuncts: Vec<Term> = d
            .args()
            .iter()
            .map(|x| {
                let mut cs = conj.clone();
                cs.push(x.clone());
                Term::and(cs)
            })
            .collect();
        return Term::or(
            disjuncts
                .into_iter()
                .map(|b| {
                    let t =
                        crate::smt::simplify(&crate::smt::qe_light(&Term::exists(vs.clone(), b)));
                    weaken_within(&t, cases)
                })
                .collect(),
        );
    }
    let (mut arrays, mut others): (Vec<Var>, Vec<Var>) = vs.into_iter().partition(is_array);
    // Bounded: each round removes one array variable (fresh ones are element-sorted, possibly arrays
    // for nested maps, and strictly smaller in sort).
    let mut rounds = 0;
    while let Some(a) = arrays.pop() {
        rounds += 1;
        if rounds > 64 {
            // Give up on precision: drop everything that mentions the remaining arrays.
            arrays.push(a);
            conj.retain(|c| !arrays.iter().any(|x| c.has_free_var(x)));
            break;
        }
        conj = eliminate_one(&a, conj, &mut arrays, &mut others);
    }
    Term::exists(others, Term::and(conj))
}

/// Eliminates array variable `a` from the conjunction `conj` (over-approximating).
fn eliminate_one(
    a: &Var,
    conj: Vec<Term>,
    arrays: &mut Vec<Var>,
    others: &mut Vec<Var>,
) -> Vec<Term> {
    let at = Term::var(a);
    let mut conj = conj;
    // A defining store `b = store(a, i, v)`.
    let def = conj.iter().position(|c| store_def(c, &at, a).is_some());
    if let Some(k) = def {
        let c = conj.remove(k);
        let Some((b, i, v)) = store_def(&c, &at, a) else {
            return conj;
        };
        if let Some(cell) = inverse_update(&at, a, &b, &i, &v)
            && conj.iter().all(|c| !under_binder(c, a))
        {
            // Exact: `a = store(b, i, cell)` (`b` agrees with `a` off `i`, and the invertible
            // update gives back the old cell), and the definition itself then holds identically.
            let map = HashMap::from([(at.id(), Term::store(&b, &i, &cell))]);
            return conj
                .iter()
                .map(|c| crate::smt::simplify(&replace(c, &map)))
                .collect();
        }
        // Exact otherwise too: `a = store(b, i, e)` for the fresh element `e = a[i]`, so `a` is
        // replaced by that store everywhere and the definition becomes
        // `b[i] = v[a := store(b, i, e)]`; read-over-write turns `a[j]` into `ite(j = i, e, b[j])`.
        // Not when `a` occurs under a binder (the replacement does not enter binders).
        let fact = Term::eq(&Term::select(&b, &i), &v);
        if !under_binder(&fact, a) && conj.iter().all(|c| !under_binder(c, a)) {
            let elem = fresh(&a.name, Term::select(&at, &i).sort());
            let map = HashMap::from([(at.id(), Term::store(&b, &i, &Term::var(&elem)))]);
            if is_array(&elem) {
                arrays.push(elem);
            } else {
                others.push(elem);
            }
            return std::iter::once(&fact)
                .chain(&conj)
                .map(|c| crate::smt::simplify(&replace(c, &map)))
                .collect();
        }
        let mut out = Vec::with_capacity(conj.len() + 1);
        // `b[i] = v`; `v` may mention `a` (nested maps): handled below like any other conjunct.
        for c in std::iter::once(fact).chain(conj) {
            if !c.has_free_var(a) {
                out.push(c);
                continue;
            }
            let mut sels = Vec::new();
            if only_selects(&c, &at, a, &mut sels) {
                sels.sort();
                sels.dedup();
                // Selects at index `i` itself cannot be read off `b`: keep them (they are replaced by
                // fresh variables below).
                let mut map = HashMap::new();
                let mut guards = Vec::new();
                for j in &sels {
                    if *j == i {
                        continue;
                    }
                    map.insert(Term::select(&at, j).id(), Term::select(&b, j));
                    guards.push(Term::not(&Term::eq(j, &i)));
                }
                let replaced = replace(&c, &map);
                out.push(Term::implies(&Term::and(guards), &replaced));
            } else {
                out.push(c);
            }
        }
        conj = out;
    }
    // Remaining selects of `a` become fresh variables; other uses drop the conjunct.
    let mut out = Vec::with_capacity(conj.len());
    let mut fresh_of: HashMap<u32, Term> = HashMap::new();
    let mut introduced: Vec<(Term, Term)> = Vec::new();
    for c in conj {
        if !c.has_free_var(a) {
            out.push(c);
            continue;
        }
        let mut sels = Vec::new();
        if !only_selects(&c, &at, a, &mut sels) {
            continue;
        }
        let mut map = HashMap::new();
        for j in sels {
            let s = Term::select(&at, &j);
            let f = fresh_of
                .entry(s.id())
                .or_insert_with(|| {
                    let x = fresh(&a.name, s.sort());
                    if is_array(&x) {
                        arrays.push(x.clone());
                    } else {
                        others.push(x.clone());
                    }
                    introduced.push((j.clone(), Term::var(&x)));
                    Term::var(&x)
                })
                .clone();
            map.insert(s.id(), f);
        }
        out.push(replace(&c, &map));
    }
    if introduced.len() <= ACKERMANN_MAX {
        for (k, (jk, ek)) in introduced.iter().enumerate() {
            for (jl, el) in &introduced[k + 1..] {
                out.push(Term::implies(&Term::eq(jk, jl), &Term::eq(ek, el)));
            }
        }
    }
    out
}

/// At most this many selects of one array get Ackermann's consistency constraints (quadratic).
pub const ACKERMANN_MAX: usize = 12;

/// `c` is `b = store(a, i, v)` (either side) with `a` neither in `b` nor in `i`: returns `(b, i, v)`.
fn store_def(c: &Term, at: &Term, a: &Var) -> Option<(Term, Term, Term)> {
    let (op, args) = c.as_app()?;
    if *op != Op::Eq || args.len() != 2 {
        return None;
    }
    for (l, r) in [(&args[0], &args[1]), (&args[1], &args[0])] {
        if let Some((Op::Store, s)) = r.as_app()
            && s.len() == 3
            && s[0] == *at
            && !l.has_free_var(a)
            && !s[1].has_free_var(a)
        {
            return Some((l.clone(), s[1].clone(), s[2].clone()));
        }
    }
    None
}

/// For an invertible update `b = store(a, i, v)` with `v = k·a[i] + d` (`k = ±1` over the integers,
/// `k ≠ 0` over the reals, `a ∉ d`): the old cell `a[i] = (b[i] − d) / k`. `None` for any other `v`
/// (a plain store loses the old cell: it becomes a fresh element).
fn inverse_update(at: &Term, a: &Var, b: &Term, i: &Term, v: &Term) -> Option<Term> {
    use num_rational::BigRational;
    use num_traits::{One, Signed, Zero};
    let sort = v.sort();
    if !sort.is_numeric() || !v.has_free_var(a) {
        return None;
    }
    let cell = Term::select(at, i);
    let mut lin = crate::smt::simplify::lin_of(v);
    let mut k = None;
    for (t, c) in lin.terms.values() {
        if *t == cell {
            k = Some(c.clone());
        } else if t.has_free_var(a) {
            return None;
        }
    }
    let k = k?;
    if k.is_zero() || (sort == Sort::Int && !k.abs().is_one()) {
        return None;
    }
    // `d = v − k·a[i]`; `a[i] = (b[i] − d) / k`, i.e. `(1/k)·b[i] − (1/k)·d`.
    lin.add_atom(&cell, -k.clone());
    let inv_k = k.recip();
    let mut out = crate::smt::simplify::Lin::constant(BigRational::zero());
    out.add_atom(&Term::select(b, i), inv_k.clone());
    out.add(&lin, &-inv_k);
    Some(crate::smt::simplify::lin_to_term(&out, &sort))
}

/// Does `a` occur free in `t` under a quantifier or other binder?
fn under_binder(t: &Term, a: &Var) -> bool {
    if !t.has_free_var(a) {
        return false;
    }
    match t.kind() {
        TermKind::App(_, args) => args.iter().any(|x| under_binder(x, a)),
        TermKind::Var(_) => false,
        _ => true,
    }
}

/// Do all occurrences of `a` in `t` have the form `select(a, j)` with `a ∉ j`? Collects the indices.
fn only_selects(t: &Term, at: &Term, a: &Var, out: &mut Vec<Term>) -> bool {
    if !t.has_free_var(a) {
        return true;
    }
    match t.kind() {
        TermKind::Var(_) => false, // `a` itself, not under a select
        TermKind::App(Op::Select, args) if args.len() == 2 && args[0] == *at => {
            if args[1].has_free_var(a) {
                return false;
            }
            out.push(args[1].clone());
            true
        }
        TermKind::App(_, args) => args.iter().all(|x| only_selects(x, at, a, out)),
        // Under a binder: give up (the bound names could capture).
        _ => false,
    }
}

/// Replaces subterms (keyed by their hash-consed id) top-down; does not enter binders.
pub(super) fn replace(t: &Term, map: &HashMap<u32, Term>) -> Term {
    if map.is_empty() {
        return t.clone();
    }
    fn go(t: &Term, map: &HashMap<u32, Term>, memo: &mut HashMap<u32, Term>) -> Term {
        if let Some(r) = map.get(&t.id()) {
            return r.clone();
        }
        if let Some(r) = memo.get(&t.id()) {
            return r.clone();
        }
        let r = match t.kind() {
            TermKind::App(_, args) => {
                let new: Vec<Term> = args.iter().map(|x| go(x, map, memo)).collect();
                if new.iter().zip(args).all(|(x, y)| x == y) {
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
    go(t, map, &mut HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr() -> Sort {
        Sort::array(Sort::Int, Sort::Int)
    }

    #[test]
    fn store_definition_yields_select_facts() {
        let a = Var::new("a", arr());
        let b = Var::new("b", arr());
        let i = Var::new("i", Sort::Int);
        let k = Var::new("k", Sort::Int);
        let (at, bt, it, kt) = (Term::var(&a), Term::var(&b), Term::var(&i), Term::var(&k));
        // ∃a. b = store(a, i, 0) ∧ a[k] = 1
        let t = Term::exists(
            vec![a.clone()],
            Term::and(vec![
                Term::eq(&bt, &Term::store(&at, &it, &Term::int(0))),
                Term::eq(&Term::select(&at, &kt), &Term::int(1)),
            ]),
        );
        let w = weaken(&t);
        assert!(!w.has_array_quantifier());
        assert!(!w.has_free_var(&a));
        let s = w.to_string();
        assert!(s.contains("(select b i)"), "{s}");
        assert!(s.contains("(select b k)"), "{s}");
    }

    #[test]
    fn index_scalars_are_case_split_then_dropped() {
        let a = Var::new("a", arr());
        let x = Var::new("x", Sort::Int);
        let k = Var::new("k", Sort::Int);
        let (at, xt, kt) = (Term::var(&a), Term::var(&x), Term::var(&k));
        // ∃x. a[x] = 13 ∧ x ≠ k ∧ (x = k ∨ a[k] = 7): the branch x = k contradicts x ≠ k, the
        // other keeps a[k] = 7 once the conjuncts over x are dropped.
        let a_k_7 = Term::eq(&Term::select(&at, &kt), &Term::int(7));
        let t = Term::exists(
            vec![x.clone()],
            Term::and(vec![
                Term::eq(&Term::select(&at, &xt), &Term::int(13)),
                Term::not(&Term::eq(&xt, &kt)),
                Term::or(vec![Term::eq(&xt, &kt), a_k_7.clone()]),
            ]),
        );
        assert!(has_index_quantifier(&t));
        let w = crate::smt::simplify(&weaken_indices(&t));
        assert!(!w.has_quantifier(), "{w:?}");
        assert_eq!(w, crate::smt::simplify(&a_k_7));
        // A scalar that indexes nothing is left to the real QE.
        let plain = Term::exists(vec![x.clone()], Term::eq(&xt, &kt));
        assert!(!has_index_quantifier(&plain));
    }

    #[test]
    fn reads_over_writes_at_an_index_are_split_before_dropping() {
        let a = Var::new("a", arr());
        let b = Var::new("b", arr());
        let m = Var::new("m", Sort::array(Sort::Int, Sort::Bool));
        let x = Var::new("x", Sort::Int);
        let k = Var::new("k", Sort::Int);
        let (at, bt, mt, xt, kt) = (
            Term::var(&a),
            Term::var(&b),
            Term::var(&m),
            Term::var(&x),
            Term::var(&k),
        );
        let not_m_k = Term::not(&Term::select(&mt, &kt));
        let differ = Term::not(&Term::eq(&Term::select(&at, &kt), &Term::select(&bt, &kt)));
        // ∃x. m[x] ∧ ¬m[k] ∧ store(a, x, a[x] + 1)[k] ≠ b[k]: where x = k, m[k] contradicts ¬m[k];
        // elsewhere the read is a[k]. Dropping the conjunct whole would keep only ¬m[k].
        let row = Term::select(
            &Term::store(
                &at,
                &xt,
                &Term::add(vec![Term::select(&at, &xt), Term::int(1)]),
            ),
            &kt,
        );
        let t = Term::exists(
            vec![x.clone()],
            Term::and(vec![
                Term::select(&mt, &xt),
                not_m_k.clone(),
                Term::not(&Term::eq(&row, &Term::select(&bt, &kt))),
            ]),
        );
        let w = crate::smt::simplify(&weaken_indices(&t));
        assert!(!w.has_quantifier(), "{w}");
        assert!(w.has_free_var(&a) && w.has_free_var(&b), "{w}");
        // The same as z3's `qe` writes it: the case x = k as two bounds, then an `ite`.
        let le = |p: &Term, q: &Term| Term::le(p, q);
        let t2 = Term::exists(
            vec![x.clone()],
            Term::and(vec![
                Term::select(&mt, &xt),
                not_m_k.clone(),
                Term::or(vec![
                    Term::and(vec![
                        le(&kt, &xt),
                        le(&xt, &kt),
                        Term::not(&Term::eq(
                            &Term::add(vec![Term::select(&at, &xt), Term::int(1)]),
                            &Term::select(&bt, &kt),
                        )),
                    ]),
                    Term::and(vec![
                        Term::not(&Term::eq(&xt, &kt)),
                        Term::not(&Term::eq(
                            &Term::ite(&Term::eq(&xt, &kt), &Term::int(0), &Term::select(&at, &kt)),
                            &Term::select(&bt, &kt),
                        )),
                    ]),
                ]),
            ]),
        );
        let w2 = crate::smt::simplify(&weaken_indices(&t2));
        assert!(!w2.has_quantifier(), "{w2}");
        assert!(w2.has_free_var(&a) && w2.has_free_var(&b), "{w2}");
        // Each weakening is implied by its formula and implies `¬m[k] ∧ a[k] ≠ b[k]`.
        let Some(mut z3) = crate::smt::z3_for_tests("array weakening tests") else {
            return;
        };
        let exact = Term::and(vec![not_m_k, differ]);
        for (t, w) in [(&t, &w), (&t2, &w2)] {
            for (p, q) in [(t, w), (w, &exact)] {
                z3.push();
                z3.assert(p);
                z3.assert(&Term::not(q));
                assert_eq!(z3.check_sat(), crate::smt::SatResult::Unsat, "{p} => {q}");
                z3.pop();
            }
        }
    }

    #[test]
    fn other_uses_are_dropped() {
        let a = Var::new("a", arr());
        let c = Var::new("c", arr());
        let t = Term::exists(
            vec![a.clone()],
            Term::and(vec![
                Term::eq(
                    &Term::var(&a),
                    &Term::store(&Term::var(&c), &Term::int(0), &Term::int(1)),
                ),
                Term::eq(&Term::var(&c), &Term::var(&c)),
            ]),
        );
        let w = weaken(&t);
        assert!(!w.has_free_var(&a));
        assert!(!w.has_array_quantifier());
    }
}
