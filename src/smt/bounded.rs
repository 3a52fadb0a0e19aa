//! Integer `mod` and `div` by a positive constant, dropped where the bounds of an enclosing
//! conjunction put the dividend within one period: under `1 <= n <= 100`, `(4 * (n mod 2^32)) mod
//! 2^32` is `4 * n`.
//!
//! A C front end writes every conversion to an unsigned type and every unsigned operation as such
//! a `mod` (C11 6.3.1.3 and 6.2.5: `malloc(n * sizeof(int))` allocates `(n mod 2^32 · 4) mod 2^32`
//! bytes). z3's quantifier elimination gives up on them (the projection of `∃n. 1 <= n <= 100 ∧
//! len = (4 · (n mod 2^32)) mod 2^32` ran into its limit), and a predicate that keeps them makes
//! every later Hoare triple over it a non-linear query; most programs never leave the range where
//! the `mod` is the identity, and their own guards say so.
//!
//! [`drop_bounded_mods`] walks the formula with the bounds known at each subterm: those of the
//! literals `c·a <= k`, `c·a = k` (one atom `a`, after [`simplify`]) among the conjuncts of every
//! enclosing conjunction other than the one the subterm lies in, and of atoms equal by a literal
//! `a = b` (a variable copied into another by an assignment). An interval is computed for each
//! dividend from the intervals of its atoms (a `mod` by `m` lies in `[0, m-1]`, an `ite` in the
//! union of its branches); `e mod m` with `e` in `[k·m, k·m + m - 1]` is `e - k·m`, `e div m` is
//! `k`. Bounds stop at a quantifier for the atoms that mention its variables.
//!
//! Invariant: the result is equivalent to the input. A subterm is replaced only by a term equal to
//! it wherever the other conjuncts of an enclosing conjunction hold (`A ∧ B[t] ≡ A ∧ B[t']` when `A`
//! implies `t = t'`, whatever the polarity of `t` in `B`); the conjunct a bound comes from is never
//! rewritten with it.

use super::simplify::{lin_of, simplify};
use super::term::{Op, Sort, Term, TermKind, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeSet, HashMap};

/// An interval of integers; `None` is unbounded on that side.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Interval {
    lo: Option<BigInt>,
    hi: Option<BigInt>,
}

impl Interval {
    const TOP: Interval = Interval { lo: None, hi: None };

    fn point(v: BigInt) -> Interval {
        Interval {
            lo: Some(v.clone()),
            hi: Some(v),
        }
    }

    fn meet(&self, o: &Interval) -> Interval {
        let pick = |a: &Option<BigInt>, b: &Option<BigInt>, max: bool| match (a, b) {
            (Some(x), Some(y)) => Some(if (x > y) == max { x.clone() } else { y.clone() }),
            (Some(x), None) | (None, Some(x)) => Some(x.clone()),
            (None, None) => None,
        };
        Interval {
            lo: pick(&self.lo, &o.lo, true),
            hi: pick(&self.hi, &o.hi, false),
        }
    }

    fn join(&self, o: &Interval) -> Interval {
        let pick = |a: &Option<BigInt>, b: &Option<BigInt>, max: bool| match (a, b) {
            (Some(x), Some(y)) => Some(if (x > y) == max { x.clone() } else { y.clone() }),
            _ => None,
        };
        Interval {
            lo: pick(&self.lo, &o.lo, false),
            hi: pick(&self.hi, &o.hi, true),
        }
    }

    fn scale(&self, c: &BigInt) -> Interval {
        let mul = |b: &Option<BigInt>| b.as_ref().map(|v| v * c);
        if c.is_negative() {
            Interval {
                lo: mul(&self.hi),
                hi: mul(&self.lo),
            }
        } else {
            Interval {
                lo: mul(&self.lo),
                hi: mul(&self.hi),
            }
        }
    }

    fn plus(&self, o: &Interval) -> Interval {
        let add = |a: &Option<BigInt>, b: &Option<BigInt>| match (a, b) {
            (Some(x), Some(y)) => Some(x + y),
            _ => None,
        };
        Interval {
            lo: add(&self.lo, &o.lo),
            hi: add(&self.hi, &o.hi),
        }
    }
}

/// Bounds of atoms (by term id), and which atoms are equal (union–find over ids).
#[derive(Clone, Default)]
struct Ctx {
    /// An atom's bounds, with the atom (to drop it under a quantifier over its variables).
    bounds: HashMap<u32, (Term, Interval)>,
    parent: HashMap<u32, u32>,
    /// The atoms of `parent`, by id.
    atoms: HashMap<u32, Term>,
}

impl Ctx {
    fn root(&self, mut id: u32) -> u32 {
        while let Some(&p) = self.parent.get(&id) {
            if p == id {
                break;
            }
            id = p;
        }
        id
    }

    fn bound(&mut self, a: &Term, i: Interval) {
        let r = self.root(a.id());
        let atom = self.atoms.get(&r).cloned().unwrap_or_else(|| a.clone());
        let e = self
            .bounds
            .entry(r)
            .or_insert_with(|| (atom, Interval::TOP));
        e.1 = e.1.meet(&i);
    }

    fn unite(&mut self, a: &Term, b: &Term) {
        let (ra, rb) = (self.root(a.id()), self.root(b.id()));
        self.atoms.entry(a.id()).or_insert_with(|| a.clone());
        self.atoms.entry(b.id()).or_insert_with(|| b.clone());
        if ra == rb {
            return;
        }
        self.parent.insert(ra, rb);
        // the class's bounds move to its new root
        if let Some((_, i)) = self.bounds.remove(&ra) {
            self.bound(b, i);
        }
    }

    fn of(&self, a: &Term) -> Interval {
        self.bounds
            .get(&self.root(a.id()))
            .map_or(Interval::TOP, |(_, i)| i.clone())
    }

    /// The context under a quantifier over `vars`: what mentions them is dropped.
    fn without(&self, vars: &[Var]) -> Ctx {
        let vars: BTreeSet<&Var> = vars.iter().collect();
        let free = |t: &Term| t.free_vars_ref().iter().all(|v| !vars.contains(v));
        let mut c = Ctx::default();
        for (a, b) in &self.parent {
            if let (Some(x), Some(y)) = (self.atoms.get(a), self.atoms.get(b))
                && free(x)
                && free(y)
            {
                c.unite(x, y);
            }
        }
        for (t, i) in self.bounds.values() {
            if free(t) {
                c.bound(t, i.clone());
            }
        }
        c
    }
}

/// A fact a literal gives: a bound on an atom, or two equal atoms.
enum Fact {
    Bound(Term, Interval),
    Equal(Term, Term),
}

/// The fact of a canonical literal `s <= k`, `s = k` (see [`simplify`]) over integers.
fn fact(lit: &Term) -> Option<Fact> {
    let (op, args) = lit.as_app()?;
    if !matches!(op, Op::Le | Op::Eq) || args.len() != 2 || *args[0].sort_ref() != Sort::Int {
        return None;
    }
    let k = args[1].as_const()?.as_rational()?;
    let mut l = lin_of(&args[0]);
    l.c -= k;
    let atoms: Vec<(Term, BigInt)> = l
        .terms
        .values()
        .filter(|(_, c)| c.is_integer())
        .map(|(t, c)| (t.clone(), c.to_integer()))
        .collect();
    if atoms.len() != l.terms.len() || !l.c.is_integer() {
        return None;
    }
    let c0 = l.c.to_integer();
    match atoms.as_slice() {
        // c·a + c0 <= 0 / = 0
        [(a, c)] => {
            // c > 0: a <= floor(q/c); c < 0: a >= ceil(q/c) (rounding of the quotient itself)
            let q = -&c0;
            let i = match (op, c.is_positive()) {
                (Op::Le, true) => Interval {
                    lo: None,
                    hi: Some(q.div_floor(c)),
                },
                (Op::Le, false) => Interval {
                    lo: Some(q.div_ceil(c)),
                    hi: None,
                },
                _ if (&q % c).is_zero() => Interval::point(&q / c),
                _ => return None,
            };
            Some(Fact::Bound(a.clone(), i))
        }
        [(a, c), (b, d)]
            if *op == Op::Eq && c0.is_zero() && (c + d).is_zero() && c.abs().is_one() =>
        {
            Some(Fact::Equal(a.clone(), b.clone()))
        }
        _ => None,
    }
}

/// The facts of a conjunct: its own, or those of the conjuncts of `¬(a ∨ b)` (which [`simplify`]
/// leaves as it is).
fn facts(conjunct: &Term, out: &mut Vec<Fact>) {
    match conjunct.as_app() {
        Some((Op::Not, [d])) if d.is_app_of(&Op::Or) => {
            for a in d.args() {
                facts(&simplify(&Term::not(a)), out);
            }
        }
        Some((Op::And, args)) => {
            for a in args {
                facts(a, out);
            }
        }
        _ => out.extend(fact(conjunct)),
    }
}

/// The interval of the integer term `t` under `ctx`.
fn interval(t: &Term, ctx: &Ctx, depth: usize) -> Interval {
    if depth > 8 {
        return Interval::TOP;
    }
    let l = lin_of(t);
    if !l.c.is_integer() {
        return Interval::TOP;
    }
    let mut sum = Interval::point(l.c.to_integer());
    for (a, c) in l.terms.values() {
        if !c.is_integer() {
            return Interval::TOP;
        }
        let i = atom_interval(a, ctx, depth).scale(&c.to_integer());
        sum = sum.plus(&i);
        if sum.lo.is_none() && sum.hi.is_none() {
            break;
        }
    }
    sum
}

fn atom_interval(a: &Term, ctx: &Ctx, depth: usize) -> Interval {
    let own = ctx.of(a);
    let shape = match a.as_app() {
        Some((Op::Mod, [e, m])) => match m.as_const().and_then(|v| v.as_rational()) {
            Some(m) if m.is_integer() && m.is_positive() => {
                let m = m.to_integer();
                let i = interval(e, ctx, depth + 1);
                match within_period(&i, &m) {
                    Some(k) => i.plus(&Interval::point(-(k * &m))),
                    None => Interval {
                        lo: Some(BigInt::zero()),
                        hi: Some(m - 1),
                    },
                }
            }
            _ => Interval::TOP,
        },
        Some((Op::IntDiv, [e, m])) => match m.as_const().and_then(|v| v.as_rational()) {
            Some(m) if m.is_integer() && m.is_positive() => {
                let m = m.to_integer();
                let i = interval(e, ctx, depth + 1);
                Interval {
                    lo: i.lo.map(|v| v.div_floor(&m)),
                    hi: i.hi.map(|v| v.div_floor(&m)),
                }
            }
            _ => Interval::TOP,
        },
        Some((Op::Ite, [_, x, y])) if *x.sort_ref() == Sort::Int => {
            interval(x, ctx, depth + 1).join(&interval(y, ctx, depth + 1))
        }
        _ => Interval::TOP,
    };
    own.meet(&shape)
}

/// `k` if every value of `i` lies in `[k·m, k·m + m - 1]`.
fn within_period(i: &Interval, m: &BigInt) -> Option<BigInt> {
    let (lo, hi) = (i.lo.as_ref()?, i.hi.as_ref()?);
    let k = lo.div_floor(m);
    (hi.div_floor(m) == k).then_some(k)
}

/// Does `t` apply `mod` or `div`? (Memoised in `seen`: terms are shared DAGs.)
fn has_mod_in(t: &Term, seen: &mut HashMap<u32, bool>) -> bool {
    if let Some(&b) = seen.get(&t.id()) {
        return b;
    }
    let b = match t.kind() {
        TermKind::App(Op::Mod | Op::IntDiv, _) => true,
        TermKind::App(_, args) => args.iter().any(|a| has_mod_in(a, seen)),
        TermKind::Quant(_, _, b) => has_mod_in(b, seen),
        _ => false,
    };
    seen.insert(t.id(), b);
    b
}

#[cfg(test)]
fn has_mod(t: &Term) -> bool {
    has_mod_in(t, &mut HashMap::new())
}

/// `t` with every `mod` / `div` by a positive constant whose dividend lies within one period under
/// the bounds of its enclosing conjunctions replaced by its value there (see the module comment);
/// simplified. Equivalent to `t`.
pub fn drop_bounded_mods(t: &Term) -> Term {
    let mut has = HashMap::new();
    if !has_mod_in(t, &mut has) {
        return t.clone();
    }
    let t = simplify(t);
    let mut memo = HashMap::new();
    let r = go(&t, &Ctx::default(), &mut memo, &mut has);
    if r == t { t } else { simplify(&r) }
}

/// Rewrites `t` under `ctx`; `memo` caches subterms without a conjunction or quantifier (whose
/// result depends only on `ctx`, which is fixed for one call of [`go`] on a conjunction's part).
fn go(t: &Term, ctx: &Ctx, memo: &mut HashMap<u32, Term>, has: &mut HashMap<u32, bool>) -> Term {
    if !has_mod_in(t, has) {
        return t.clone();
    }
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::Quant(q, vars, body) => {
            let inner = ctx.without(vars);
            let mut m = HashMap::new();
            Term::quant(*q, vars.clone(), go(body, &inner, &mut m, has))
        }
        TermKind::App(Op::And, args) => {
            let facts: Vec<Vec<Fact>> = args
                .iter()
                .map(|a| {
                    let mut v = Vec::new();
                    facts(a, &mut v);
                    v
                })
                .collect();
            let mut out = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                if !has_mod_in(a, has) {
                    out.push(a.clone());
                    continue;
                }
                let mut c = ctx.clone();
                for f in facts.iter().enumerate().filter(|(j, _)| *j != i) {
                    for f in f.1 {
                        match f {
                            Fact::Bound(x, b) => c.bound(x, b.clone()),
                            Fact::Equal(x, y) => c.unite(x, y),
                        }
                    }
                }
                let mut m = HashMap::new();
                out.push(go(a, &c, &mut m, has));
            }
            Term::and(out)
        }
        TermKind::App(op @ (Op::Mod | Op::IntDiv), args) if args.len() == 2 => {
            let e = go(&args[0], ctx, memo, has);
            let m = args[1]
                .as_const()
                .and_then(|v| v.as_rational())
                .filter(|m| m.is_integer() && m.is_positive())
                .map(|m| m.to_integer());
            match m.and_then(|m| within_period(&interval(&e, ctx, 0), &m).map(|k| (k, m))) {
                Some((k, m)) if *op == Op::Mod => {
                    if k.is_zero() {
                        e
                    } else {
                        Term::sub(&e, &Term::int(k * m))
                    }
                }
                Some((k, _)) => Term::int(k),
                None => Term::app(op.clone(), vec![e, go(&args[1], ctx, memo, has)]),
            }
        }
        TermKind::App(op, args) => Term::app(
            op.clone(),
            args.iter().map(|a| go(a, ctx, memo, has)).collect(),
        ),
        _ => t.clone(),
    };
    memo.insert(t.id(), r.clone());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Term {
        Term::var(&Var::new(n, Sort::Int))
    }

    fn m32(e: Term) -> Term {
        Term::modulo(&e, &Term::int(4_294_967_296i64))
    }

    #[test]
    fn a_mod_within_the_bounds_of_a_conjunction_is_its_dividend() {
        let (n, len) = (v("n"), v("len"));
        let size = m32(Term::mul(vec![Term::int(4), m32(n.clone())]));
        let f = Term::and(vec![
            Term::le(&Term::int(1), &n),
            Term::le(&n, &Term::int(100)),
            Term::eq(&len, &size),
        ]);
        let want = simplify(&Term::and(vec![
            Term::le(&Term::int(1), &n),
            Term::le(&n, &Term::int(100)),
            Term::eq(&len, &Term::mul(vec![Term::int(4), n.clone()])),
        ]));
        assert_eq!(drop_bounded_mods(&f), want);
    }

    #[test]
    fn bounds_pass_through_equal_atoms_and_shift_by_whole_periods() {
        let (n, t, r) = (v("n"), v("t"), v("r"));
        // -10 <= t <= -1, n = t: n mod 8 = n + 8, n div 8 = -1
        let f = Term::and(vec![
            Term::le(&Term::int(-10), &t),
            Term::le(&t, &Term::int(-9)),
            Term::eq(&n, &t),
            Term::eq(
                &r,
                &Term::add(vec![
                    Term::modulo(&n, &Term::int(16)),
                    Term::int_div(&n, &Term::int(16)),
                ]),
            ),
        ]);
        let g = drop_bounded_mods(&f);
        assert!(!has_mod(&g), "{g}");
        let want = simplify(&Term::and(vec![
            Term::le(&Term::int(-10), &t),
            Term::le(&t, &Term::int(-9)),
            Term::eq(&n, &t),
            Term::eq(&r, &Term::add(vec![n.clone(), Term::int(15)])),
        ]));
        assert_eq!(g, want);
    }

    #[test]
    fn a_mod_that_can_wrap_or_whose_bounds_are_out_of_scope_stays() {
        let (n, x) = (v("n"), v("x"));
        // the range spans two periods
        let f = Term::and(vec![
            Term::le(&Term::int(0), &n),
            Term::le(&n, &Term::int(300)),
            Term::eq(&x, &Term::modulo(&n, &Term::int(256))),
        ]);
        assert!(has_mod(&drop_bounded_mods(&f)));
        // a bound under a disjunction says nothing about the other disjunct
        let g = Term::or(vec![
            Term::and(vec![
                Term::le(&Term::int(0), &n),
                Term::le(&n, &Term::int(3)),
            ]),
            Term::eq(&x, &Term::modulo(&n, &Term::int(256))),
        ]);
        assert!(has_mod(&drop_bounded_mods(&g)));
        // the bound is on the outer `n`, the `mod` on a quantified one
        let q = Term::and(vec![
            Term::le(&Term::int(0), &n),
            Term::le(&n, &Term::int(3)),
            Term::exists(
                vec![Var::new("n", Sort::Int)],
                Term::eq(&x, &Term::modulo(&n, &Term::int(256))),
            ),
        ]);
        assert!(has_mod(&drop_bounded_mods(&q)));
        // a conjunct's own bound is not used on itself
        let s = Term::le(&Term::modulo(&n, &Term::int(256)), &Term::int(3));
        assert_eq!(drop_bounded_mods(&s), simplify(&s));
    }
}
