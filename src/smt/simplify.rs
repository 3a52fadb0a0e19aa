//! Own, solver-free simplifier and evaluator.
//!
//! [`simplify`] is meaning-preserving (checked against z3 by property tests) and does:
//! - constant folding for Boolean, arithmetic (SMT-LIB Euclidean `div`/`mod`; division by zero is left
//!   alone because it is uninterpreted) and `ite`;
//! - linear normal form for arithmetic: sums collect coefficients per atom, atoms ordered by structural
//!   hash (stable across runs), constants last;
//! - comparisons become `sum <= k`, `sum < k` (Real only; Int strict bounds become `<=`) or `sum = k`, with
//!   integer coefficients divided by their gcd (rounding `k`, or deciding `=`), trivial ones decided
//!   (`x <= x`, `3 < 5`);
//! - `not` pushed into comparisons and over `not`; `=>` becomes `or`;
//! - `and`/`or` flattened, deduplicated, ordered, complementary literals and bounds on the same sum
//!   merged;
//! - `ite` with a constant condition or equal branches; Boolean `ite` with constant branches; a
//!   comparison with an `ite` operand split over the branches when one of them decides;
//! - `select` over `store` with the same or distinct constant index, otherwise as an `ite` on the
//!   index equality; a store that a later store of the same chain overwrites at the same index is
//!   dropped (`store(store(store(b, i, v), j, u), i, w)` is `store(store(b, j, u), i, w)`, whether
//!   `i` and `j` alias or not); `store(b, i, select(b, i))` is `b`;
//! - quantifiers drop unused bound variables.
//!
//! This corresponds to the cheap normalisation Ultimate does before its solver-based simplifications
//! (ultimate-design-notes §3.5 "commuhash normal form"); solver simplification is `Session::simplify_smt`.

use super::term::{Op, Sort, Term, TermKind, Value, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, HashMap};

/// Simplifies `t` (see module docs). Idempotent in practice; always equivalent.
pub fn simplify(t: &Term) -> Term {
    let mut s = Simp {
        memo: HashMap::new(),
    };
    s.go(t)
}

struct Simp {
    memo: HashMap<u32, Term>,
}

type Key = (u64, u32);
fn key(t: &Term) -> Key {
    (t.structural_hash(), t.id())
}

/// A linear combination `Σ c_i·a_i + c`.
#[derive(Clone, Debug)]
pub(crate) struct Lin {
    pub(crate) terms: BTreeMap<Key, (Term, BigRational)>,
    pub(crate) c: BigRational,
}

impl Lin {
    pub(crate) fn constant(c: BigRational) -> Lin {
        Lin {
            terms: BTreeMap::new(),
            c,
        }
    }
    fn atom(t: &Term, k: BigRational) -> Lin {
        let mut l = Lin::constant(BigRational::zero());
        l.add_atom(t, k);
        l
    }
    pub(crate) fn add_atom(&mut self, t: &Term, k: BigRational) {
        let e = self
            .terms
            .entry(key(t))
            .or_insert_with(|| (t.clone(), BigRational::zero()));
        e.1 += k;
        if e.1.is_zero() {
            self.terms.remove(&key(t));
        }
    }
    /// `self += k·o` (a unit `k` without multiplications: rational products normalise by a gcd).
    pub(crate) fn add(&mut self, o: &Lin, k: &BigRational) {
        let (one, minus_one) = (k.is_one(), (-k).is_one());
        let times_k = |c: &BigRational| match (one, minus_one) {
            (true, _) => c.clone(),
            (_, true) => -c,
            _ => c * k,
        };
        for (t, c) in o.terms.values() {
            self.add_atom(t, times_k(c));
        }
        self.c += times_k(&o.c);
    }
    /// `self := k·self` (a unit `k` without multiplications, as in [`Lin::add`]).
    pub(crate) fn scale(&mut self, k: &BigRational) {
        if k.is_one() {
            return;
        }
        if k.is_zero() {
            self.terms.clear();
        }
        let minus_one = (-k).is_one();
        let times_k = |c: &mut BigRational| {
            *c = if minus_one {
                -std::mem::take(c)
            } else {
                &*c * k
            }
        };
        for v in self.terms.values_mut() {
            times_k(&mut v.1);
        }
        times_k(&mut self.c);
    }
    fn is_const(&self) -> bool {
        self.terms.is_empty()
    }
}

fn num_const(v: &BigRational, sort: &Sort) -> Term {
    if *sort == Sort::Int && v.denom().is_one() {
        Term::int(v.numer().clone())
    } else {
        Term::real(v.clone())
    }
}

/// The sum without its constant as a term of `sort`.
fn lin_terms_to_term(l: &Lin, sort: &Sort) -> Term {
    let mut parts = Vec::with_capacity(l.terms.len() + 1);
    for (t, c) in l.terms.values() {
        if c.is_one() {
            parts.push(t.clone());
        } else if (-c).is_one() {
            parts.push(Term::mk_raw(Op::Neg, vec![t.clone()]));
        } else {
            parts.push(Term::mk_raw(Op::Mul, vec![num_const(c, sort), t.clone()]));
        }
    }
    if parts.len() == 1 {
        parts
            .pop()
            .unwrap_or_else(|| num_const(&BigRational::zero(), sort))
    } else if parts.is_empty() {
        num_const(&BigRational::zero(), sort)
    } else {
        Term::mk_raw(Op::Add, parts)
    }
}

pub(crate) fn lin_to_term(l: &Lin, sort: &Sort) -> Term {
    if l.terms.is_empty() {
        return num_const(&l.c, sort);
    }
    let s = lin_terms_to_term(l, sort);
    if l.c.is_zero() {
        return s;
    }
    let mut parts: Vec<Term> = if s.is_app_of(&Op::Add) {
        s.args().to_vec()
    } else {
        vec![s]
    };
    parts.push(num_const(&l.c, sort));
    Term::mk_raw(Op::Add, parts)
}

fn rat(v: &Value) -> Option<BigRational> {
    v.as_rational()
}

fn int_gcd_of(l: &Lin) -> BigInt {
    let mut g = BigInt::zero();
    for (_, c) in l.terms.values() {
        g = g.gcd(c.numer());
    }
    g
}

/// Euclidean division and remainder (SMT-LIB `div`/`mod`), `b != 0`.
pub fn euclid_div_mod(a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
    let r = a.mod_floor(&b.abs());
    let q = (a - &r) / b;
    (q, r)
}

fn is_numeric(t: &Term) -> bool {
    t.sort_ref().is_numeric()
}

fn arith_sort(args: &[Term]) -> Sort {
    if args.iter().any(|a| *a.sort_ref() == Sort::Real) {
        Sort::Real
    } else {
        Sort::Int
    }
}

impl Simp {
    fn go(&mut self, t: &Term) -> Term {
        if let Some(r) = self.memo.get(&t.id()) {
            return r.clone();
        }
        let r = match t.kind() {
            TermKind::Const(_) | TermKind::Var(_) => t.clone(),
            TermKind::Quant(q, vs, body) => {
                let b = self.go(body);
                let fv = b.free_vars_ref();
                let used: Vec<Var> = vs.iter().filter(|v| fv.contains(*v)).cloned().collect();
                if b.as_bool().is_some() {
                    b
                } else {
                    Term::quant(*q, used, b)
                }
            }
            TermKind::App(op, args) => {
                let sargs: Vec<Term> = args.iter().map(|a| self.go(a)).collect();
                self.app(op, sargs)
            }
        };
        self.memo.insert(t.id(), r.clone());
        r
    }

    /// Simplifies an application whose arguments are already simplified.
    fn app(&mut self, op: &Op, args: Vec<Term>) -> Term {
        let n = args.len();
        if let Some(t) = self.lift_ite(op, &args) {
            return t;
        }
        match op {
            Op::Not if n == 1 => neg_lit(&args[0]),
            Op::And => junction(true, args),
            Op::Or => junction(false, args),
            Op::Implies if n >= 2 => {
                // a1 => a2 => ... => b  ==  ¬a1 ∨ ¬a2 ∨ ... ∨ b
                let mut parts: Vec<Term> = args[..n - 1].iter().map(neg_lit).collect();
                parts.push(args[n - 1].clone());
                junction(false, parts)
            }
            Op::Xor if n == 2 => match (args[0].as_bool(), args[1].as_bool()) {
                (Some(a), Some(b)) => Term::bool(a != b),
                (Some(a), None) => {
                    if a {
                        neg_lit(&args[1])
                    } else {
                        args[1].clone()
                    }
                }
                (None, Some(b)) => {
                    if b {
                        neg_lit(&args[0])
                    } else {
                        args[0].clone()
                    }
                }
                _ if args[0] == args[1] => Term::ff(),
                _ => Term::mk_raw(Op::Xor, args),
            },
            Op::Ite if n == 3 => self.ite(&args[0], &args[1], &args[2]),
            Op::Eq if n == 2 => eq2(&args[0], &args[1]),
            Op::Eq if n > 2 => {
                let parts = args.windows(2).map(|w| eq2(&w[0], &w[1])).collect();
                junction(true, parts)
            }
            Op::Distinct if n == 2 => neg_lit(&eq2(&args[0], &args[1])),
            Op::Distinct => {
                let mut seen = std::collections::HashSet::new();
                if !args.iter().all(|a| seen.insert(a.id())) {
                    return Term::ff();
                }
                if args.iter().all(|a| a.as_const().is_some()) {
                    // distinct terms are distinct constants only if values differ; ints/reals may coincide
                    let vals: Vec<Option<BigRational>> =
                        args.iter().map(|a| a.as_const().and_then(rat)).collect();
                    if vals.iter().all(Option::is_some) {
                        let mut vs: Vec<BigRational> = vals.into_iter().flatten().collect();
                        vs.sort();
                        vs.dedup();
                        return Term::bool(vs.len() == n);
                    }
                    return Term::tt();
                }
                Term::mk_raw(Op::Distinct, args)
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt
                if n == 2 && is_numeric(&args[0]) && is_numeric(&args[1]) =>
            {
                cmp(op, &args[0], &args[1])
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt if n > 2 => {
                let parts = args.windows(2).map(|w| self.app(op, w.to_vec())).collect();
                junction(true, parts)
            }
            Op::Add | Op::Sub | Op::Neg | Op::Mul => {
                let s = arith_sort(&args);
                let t = Term::mk_raw(op.clone(), args);
                lin_to_term(&lin_of(&t), &s)
            }
            Op::RealDiv if n == 2 => match args[1].as_const().and_then(rat) {
                Some(d) if !d.is_zero() => {
                    let mut l = lin_of(&args[0]);
                    l.scale(&(BigRational::one() / d));
                    lin_to_term(&l, &Sort::Real)
                }
                _ => Term::real_div(&args[0], &args[1]),
            },
            Op::IntDiv | Op::Mod if n == 2 => {
                let a = args[0].as_const().and_then(rat);
                let b = args[1].as_const().and_then(rat);
                match (a, b) {
                    (Some(a), Some(b)) if a.is_integer() && b.is_integer() && !b.is_zero() => {
                        let (q, r) = euclid_div_mod(a.numer(), b.numer());
                        Term::int(if *op == Op::IntDiv { q } else { r })
                    }
                    (_, Some(b)) if b.is_one() => {
                        if *op == Op::IntDiv {
                            args[0].clone()
                        } else {
                            Term::int(0)
                        }
                    }
                    (_, Some(b)) if (-b.clone()).is_one() && *op == Op::Mod => Term::int(0),
                    // `(b·L + c) div b = L + c div b` and `(b·L + c) mod b = c mod b` when every
                    // coefficient of the dividend is a multiple of `b` (Euclidean: `c = b·q + r`
                    // with `0 ≤ r < |b|` gives the dividend `b·(L + q) + r`). Exact; Karr's
                    // affine invariants see through a halving of an even sum (`(2·y + 84) div 2`).
                    (_, Some(b)) if b.is_integer() && !b.is_zero() => {
                        let mut l = lin_of(&args[0]);
                        let divisible = !l.terms.is_empty()
                            && l.c.is_integer()
                            && l.terms.values().all(|(_, k)| (k / &b).is_integer());
                        if divisible {
                            let (q, r) = euclid_div_mod(l.c.numer(), b.numer());
                            if *op == Op::IntDiv {
                                l.scale(&(BigRational::one() / &b));
                                l.c = BigRational::from_integer(q);
                                lin_to_term(&l, &Sort::Int)
                            } else {
                                Term::int(r)
                            }
                        } else {
                            Term::app(op.clone(), args)
                        }
                    }
                    _ => Term::app(op.clone(), args),
                }
            }
            Op::Abs if n == 1 => match args[0].as_const().and_then(rat) {
                Some(v) => num_const(&v.abs(), args[0].sort_ref()),
                None => Term::mk_raw(Op::Abs, args),
            },
            Op::ToReal if n == 1 => match args[0].as_const().and_then(rat) {
                Some(v) => Term::real(v),
                None if *args[0].sort_ref() == Sort::Real => args[0].clone(),
                None => Term::mk_raw(Op::ToReal, args),
            },
            Op::ToInt if n == 1 => match args[0].as_const().and_then(rat) {
                Some(v) => Term::int(v.floor().to_integer()),
                None if *args[0].sort_ref() == Sort::Int => args[0].clone(),
                None => Term::mk_raw(Op::ToInt, args),
            },
            Op::IsInt if n == 1 => match args[0].as_const().and_then(rat) {
                Some(v) => Term::bool(v.is_integer()),
                None if *args[0].sort_ref() == Sort::Int => Term::tt(),
                None => Term::mk_raw(Op::IsInt, args),
            },
            Op::Select if n == 2 => {
                let (a, j) = (&args[0], &args[1]);
                if let Some((Op::Store, sa)) = a.as_app()
                    && sa.len() == 3
                {
                    if sa[1] == *j {
                        return sa[2].clone();
                    }
                    if let (Some(x), Some(y)) = (sa[1].as_const(), j.as_const())
                        && x != y
                    {
                        return self.app(&Op::Select, vec![sa[0].clone(), j.clone()]);
                    }
                    // Undecided index: `select(store(b, i, v), j)` is `ite(i = j, v, select(b, j))`.
                    let c = self.app(&Op::Eq, vec![sa[1].clone(), j.clone()]);
                    let rest = self.app(&Op::Select, vec![sa[0].clone(), j.clone()]);
                    return self.ite(&c, &sa[2], &rest);
                }
                if let Some((Op::ConstArray(_), v)) = a.as_app()
                    && v.len() == 1
                {
                    return v[0].clone();
                }
                Term::mk_raw(Op::Select, args)
            }
            Op::Store if n == 3 => {
                // `store(store(b, i, v), i, w)` is `store(b, i, w)`, and so is a store at `i`
                // further down the chain: each store between writes another index or `i` again,
                // and either way `i` ends up `w` (whether the indices alias or not).
                let mut args = args;
                if let Some(base) = without_store_at(&args[0], &args[1], DEAD_STORE_DEPTH) {
                    args[0] = base;
                }
                // `store(b, i, select(b, i))` is `b`.
                if let Some((Op::Select, sa)) = args[2].as_app()
                    && sa.len() == 2
                    && sa[0] == args[0]
                    && sa[1] == args[1]
                {
                    return args[0].clone();
                }
                Term::mk_raw(Op::Store, args)
            }
            _ => Term::app(op.clone(), args),
        }
    }

    /// `rel(ite(c, x, y), z)` (a comparison or a non-Boolean equality with an `ite` on one side)
    /// becomes `ite(c, rel(x, z), rel(y, z))` when one of the branches decides to a constant, so the
    /// Boolean `ite` turns into a junction: `ite(i = k, 1, a[k]) = 0` is `i ≠ k ∧ a[k] = 0`. (Such
    /// `ite`s come from `select` over `store`.)
    fn lift_ite(&mut self, op: &Op, args: &[Term]) -> Option<Term> {
        if args.len() != 2
            || !matches!(op, Op::Eq | Op::Le | Op::Lt | Op::Ge | Op::Gt)
            || *args[0].sort_ref() == Sort::Bool
        {
            return None;
        }
        for side in 0..2 {
            let Some((Op::Ite, ia)) = args[side].as_app() else {
                continue;
            };
            if ia.len() != 3 {
                continue;
            }
            let with = |x: &Term| -> Vec<Term> {
                if side == 0 {
                    vec![x.clone(), args[1].clone()]
                } else {
                    vec![args[0].clone(), x.clone()]
                }
            };
            let r1 = self.app(op, with(&ia[1]));
            let r2 = self.app(op, with(&ia[2]));
            if r1.as_bool().is_some() || r2.as_bool().is_some() {
                return Some(self.ite(&ia[0], &r1, &r2));
            }
            return None;
        }
        None
    }

    fn ite(&mut self, c: &Term, a: &Term, b: &Term) -> Term {
        if let Some(cv) = c.as_bool() {
            return if cv { a.clone() } else { b.clone() };
        }
        if a == b {
            return a.clone();
        }
        if *a.sort_ref() == Sort::Bool {
            match (a.as_bool(), b.as_bool()) {
                (Some(true), Some(false)) => return c.clone(),
                (Some(false), Some(true)) => return neg_lit(c),
                (Some(true), None) => return junction(false, vec![c.clone(), b.clone()]),
                (Some(false), None) => return junction(true, vec![neg_lit(c), b.clone()]),
                (None, Some(true)) => return junction(false, vec![neg_lit(c), a.clone()]),
                (None, Some(false)) => return junction(true, vec![c.clone(), a.clone()]),
                _ => {}
            }
        }
        if let Some((Op::Not, inner)) = c.as_app()
            && inner.len() == 1
        {
            return Term::ite(&inner[0], b, a);
        }
        Term::ite(c, a, b)
    }
}

/// Linear form of an (already simplified) arithmetic term.
/// Linear form of an arithmetic term (memoised over the DAG, so shared sums cost their DAG size).
pub(crate) fn lin_of(t: &Term) -> Lin {
    let mut memo = HashMap::new();
    lin_rec(t, &mut memo)
}

fn lin_rec(t: &Term, memo: &mut HashMap<u32, Lin>) -> Lin {
    if let Some(l) = memo.get(&t.id()) {
        return l.clone();
    }
    let l = lin_rec_uncached(t, memo);
    if !t.args().is_empty() {
        memo.insert(t.id(), l.clone());
    }
    l
}

fn lin_rec_uncached(t: &Term, memo: &mut HashMap<u32, Lin>) -> Lin {
    if let Some(v) = t.as_const().and_then(rat) {
        return Lin::constant(v);
    }
    match t.as_app() {
        Some((Op::Add, args)) => {
            let mut l = Lin::constant(BigRational::zero());
            for a in args {
                l.add(&lin_rec(a, memo), &BigRational::one());
            }
            l
        }
        Some((Op::Sub, args)) if !args.is_empty() => {
            let mut l = lin_rec(&args[0], memo);
            for a in &args[1..] {
                l.add(&lin_rec(a, memo), &-BigRational::one());
            }
            l
        }
        Some((Op::Neg, args)) if args.len() == 1 => {
            let mut l = lin_rec(&args[0], memo);
            l.scale(&-BigRational::one());
            l
        }
        Some((Op::Mul, args)) => {
            let mut k = BigRational::one();
            let mut rest: Vec<Term> = Vec::new();
            for a in args {
                match a.as_const().and_then(rat) {
                    Some(v) => k *= v,
                    None => rest.push(a.clone()),
                }
            }
            match rest.len() {
                0 => Lin::constant(k),
                1 => {
                    let mut l = lin_rec(&rest[0], memo);
                    l.scale(&k);
                    l
                }
                _ => {
                    // Non-linear monomial: factors may be linear forms themselves; keep as an atom with the
                    // factors in a canonical order.
                    rest.sort_by_key(key);
                    let m = Term::mk_raw(Op::Mul, rest);
                    if k.is_zero() {
                        Lin::constant(k)
                    } else {
                        Lin::atom(&m, k)
                    }
                }
            }
        }
        Some((Op::RealDiv, args)) if args.len() == 2 => match args[1].as_const().and_then(rat) {
            Some(d) if !d.is_zero() => {
                let mut l = lin_rec(&args[0], memo);
                l.scale(&(BigRational::one() / d));
                l
            }
            _ => Lin::atom(t, BigRational::one()),
        },
        _ => Lin::atom(t, BigRational::one()),
    }
}

/// Canonical comparison of `l OP 0`, `OP` one of `<=`, `<`, `=`; `int` for integer arithmetic.
fn lin_cmp(mut l: Lin, op: &Op, int: bool) -> Term {
    let mut op = op.clone();
    if int {
        // integer coefficients: scale to clear denominators (all Int terms have integer coefficients
        // already, but be safe)
        let mut den = BigInt::one();
        for (_, c) in l.terms.values() {
            den = den.lcm(c.denom());
        }
        den = den.lcm(l.c.denom());
        if !den.is_one() {
            l.scale(&BigRational::from_integer(den));
        }
        if op == Op::Lt {
            // s + c < 0  ⇔  s + c + 1 <= 0
            l.c += BigRational::one();
            op = Op::Le;
        }
    }
    if l.is_const() {
        let c = &l.c;
        return Term::bool(match op {
            Op::Le => !c.is_positive(),
            Op::Lt => c.is_negative(),
            _ => c.is_zero(),
        });
    }
    // Move the constant to the right: s OP k with k = -c.
    let mut k = -l.c.clone();
    l.c = BigRational::zero();
    if int {
        let g = BigRational::from_integer(int_gcd_of(&l));
        if !g.is_one() && !g.is_zero() {
            let q = &k / &g;
            if op == Op::Eq && !q.is_integer() {
                return Term::ff();
            }
            k = q.floor();
            l.scale(&(BigRational::one() / &g));
        }
    } else {
        // Real: make the first coefficient ±1 (positive scaling keeps the direction).
        if let Some((_, c0)) = l.terms.values().next() {
            let s = BigRational::one() / c0.abs();
            l.scale(&s);
            k *= s;
        }
    }
    if op == Op::Eq
        && l.terms
            .values()
            .next()
            .is_some_and(|(_, c)| c.is_negative())
    {
        l.scale(&-BigRational::one());
        k = -k;
    }
    let sort = if int { Sort::Int } else { Sort::Real };
    let lhs = lin_terms_to_term(&l, &sort);
    Term::mk_raw(op, vec![lhs, num_const(&k, &sort)])
}

fn cmp(op: &Op, a: &Term, b: &Term) -> Term {
    let int = *a.sort_ref() == Sort::Int && *b.sort_ref() == Sort::Int;
    let (mut l, o) = match op {
        Op::Le => (lin_of(a), Op::Le),
        Op::Lt => (lin_of(a), Op::Lt),
        Op::Ge => (lin_of(b), Op::Le),
        _ => (lin_of(b), Op::Lt),
    };
    let r = if matches!(op, Op::Le | Op::Lt) {
        lin_of(b)
    } else {
        lin_of(a)
    };
    l.add(&r, &-BigRational::one());
    lin_cmp(l, &o, int)
}

fn eq2(a: &Term, b: &Term) -> Term {
    if a == b {
        return Term::tt();
    }
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return Term::bool(match (rat(x), rat(y)) {
            (Some(p), Some(q)) => p == q,
            _ => x == y,
        });
    }
    if *a.sort_ref() == Sort::Bool {
        match (a.as_bool(), b.as_bool()) {
            (Some(true), _) => return b.clone(),
            (Some(false), _) => return neg_lit(b),
            (_, Some(true)) => return a.clone(),
            (_, Some(false)) => return neg_lit(a),
            _ => {}
        }
        if neg_lit(a) == *b {
            return Term::ff();
        }
    }
    if is_numeric(a) && is_numeric(b) {
        let int = *a.sort_ref() == Sort::Int && *b.sort_ref() == Sort::Int;
        let mut l = lin_of(a);
        l.add(&lin_of(b), &-BigRational::one());
        return lin_cmp(l, &Op::Eq, int);
    }
    let (x, y) = if key(a) <= key(b) { (a, b) } else { (b, a) };
    Term::eq(x, y)
}

/// Negation of a simplified formula, pushed one level (comparisons flipped, double negation removed).
pub(crate) fn neg_lit(t: &Term) -> Term {
    if let Some(b) = t.as_bool() {
        return Term::bool(!b);
    }
    if let Some((op, args)) = t.as_app()
        && args.len() == 2
        && matches!(op, Op::Le | Op::Lt)
        && is_numeric(&args[0])
        && is_numeric(&args[1])
    {
        let int = *args[0].sort_ref() == Sort::Int && *args[1].sort_ref() == Sort::Int;
        // ¬(a <= b) ⇔ b < a ;  ¬(a < b) ⇔ b <= a
        let mut l = lin_of(&args[1]);
        l.add(&lin_of(&args[0]), &-BigRational::one());
        let o = if *op == Op::Le { Op::Lt } else { Op::Le };
        return lin_cmp(l, &o, int);
    }
    Term::not(t)
}

/// Bound information of a canonical `s <= k` / `s < k` atom: (lhs, k, strict).
fn bound_of(t: &Term) -> Option<(Term, BigRational, bool)> {
    let (op, args) = t.as_app()?;
    if args.len() != 2 || !matches!(op, Op::Le | Op::Lt) {
        return None;
    }
    let k = args[1].as_const().and_then(rat)?;
    Some((args[0].clone(), k, *op == Op::Lt))
}

/// `and` (conj = true) or `or` of simplified arguments.
fn junction(conj: bool, args: Vec<Term>) -> Term {
    let flat = if conj {
        Term::and(args)
    } else {
        Term::or(args)
    };
    let op = if conj { Op::And } else { Op::Or };
    if !flat.is_app_of(&op) {
        return flat;
    }
    let mut items: Vec<Term> = flat.args().to_vec();
    let ids: std::collections::HashSet<u32> = items.iter().map(Term::id).collect();
    for a in &items {
        if bound_of(a).is_some() {
            // A complementary bound is found by the bounds below (an empty or full pair).
            continue;
        }
        let na = neg_lit(a);
        if ids.contains(&na.id()) {
            return Term::bool(!conj);
        }
    }
    // Bounds on the same left-hand side: keep the strongest (and) / weakest (or).
    let mut best: HashMap<u32, (BigRational, bool, usize)> = HashMap::new();
    let mut drop = vec![false; items.len()];
    for (i, a) in items.iter().enumerate() {
        if let Some((lhs, k, strict)) = bound_of(a) {
            match best.get(&lhs.id()) {
                None => {
                    best.insert(lhs.id(), (k, strict, i));
                }
                Some((k0, s0, j)) => {
                    // tighter: smaller k, or equal k and strict
                    let tighter = k < *k0 || (k == *k0 && strict && !*s0);
                    let keep_new = if conj { tighter } else { !tighter };
                    if keep_new {
                        drop[*j] = true;
                        best.insert(lhs.id(), (k, strict, i));
                    } else {
                        drop[i] = true;
                    }
                }
            }
        }
    }
    // Contradicting / tautological pairs s <= k1 and -s <= k2 (i.e. s >= -k2).
    for (i, a) in items.iter().enumerate() {
        if drop[i] {
            continue;
        }
        if let Some((lhs, k1, s1)) = bound_of(a) {
            let mut neg = lin_of(&lhs);
            neg.scale(&-BigRational::one());
            let sort = lhs.sort();
            let nl = lin_terms_to_term(&neg, &sort);
            if let Some((k2, s2, _)) = best.get(&nl.id()) {
                // s <= k1 and s >= -k2: empty iff -k2 > k1 (or equal with strictness)
                let lo = -k2.clone();
                let empty = lo > k1 || (lo == k1 && (s1 || *s2));
                if conj && empty {
                    return Term::ff();
                }
                // s <= k1 or s >= lo covers everything iff lo <= k1 (non-strict), or for Int lo <= k1 + 1
                let int_gap = sort == Sort::Int && lo <= &k1 + BigRational::one() && !s1 && !*s2;
                let full = lo < k1 || (lo == k1 && !(s1 && *s2)) || int_gap;
                if !conj && full {
                    return Term::tt();
                }
            }
        }
    }
    let mut kept: Vec<Term> = items
        .drain(..)
        .enumerate()
        .filter(|(i, _)| !drop[*i])
        .map(|(_, t)| t)
        .collect();
    kept.sort_by_key(key);
    if conj {
        Term::and(kept)
    } else {
        Term::or(kept)
    }
}

// ------------------------------------------------------------------------------------------------ eval

/// Evaluates a quantifier-free term over Bool/Int/Real under an assignment of its free variables.
/// Returns `None` for unassigned variables, division by zero, uninterpreted functions, arrays, bit-vectors
/// and quantifiers.
pub fn eval(t: &Term, env: &BTreeMap<Var, Value>) -> Option<Value> {
    let mut memo = HashMap::new();
    eval_rec(t, env, &mut memo)
}

fn eval_rec(
    t: &Term,
    env: &BTreeMap<Var, Value>,
    memo: &mut HashMap<u32, Option<Value>>,
) -> Option<Value> {
    if let Some(v) = memo.get(&t.id()) {
        return v.clone();
    }
    let v = eval_uncached(t, env, memo);
    memo.insert(t.id(), v.clone());
    v
}

fn eval_uncached(
    t: &Term,
    env: &BTreeMap<Var, Value>,
    memo: &mut HashMap<u32, Option<Value>>,
) -> Option<Value> {
    match t.kind() {
        TermKind::Const(v) => Some(v.clone()),
        TermKind::Var(v) => env.get(v).cloned(),
        TermKind::Quant(..) => None,
        TermKind::App(op, args) => {
            let vals: Vec<Value> = args
                .iter()
                .map(|a| eval_rec(a, env, memo))
                .collect::<Option<Vec<_>>>()?;
            let b = |i: usize| match vals.get(i) {
                Some(Value::Bool(x)) => Some(*x),
                _ => None,
            };
            let r = |i: usize| vals.get(i).and_then(Value::as_rational);
            let int_result = t.sort_ref() == &Sort::Int;
            let num = |x: BigRational| {
                if int_result {
                    Value::Int(x.to_integer())
                } else {
                    Value::Real(x)
                }
            };
            Some(match op {
                Op::Not => Value::Bool(!b(0)?),
                Op::And => Value::Bool(
                    (0..vals.len())
                        .map(b)
                        .collect::<Option<Vec<_>>>()?
                        .iter()
                        .all(|x| *x),
                ),
                Op::Or => Value::Bool(
                    (0..vals.len())
                        .map(b)
                        .collect::<Option<Vec<_>>>()?
                        .iter()
                        .any(|x| *x),
                ),
                Op::Implies => {
                    let bs = (0..vals.len()).map(b).collect::<Option<Vec<_>>>()?;
                    let mut acc = *bs.last()?;
                    for x in bs[..bs.len() - 1].iter().rev() {
                        acc = !x || acc;
                    }
                    Value::Bool(acc)
                }
                Op::Xor => Value::Bool(b(0)? != b(1)?),
                Op::Ite => {
                    if b(0)? {
                        vals[1].clone()
                    } else {
                        vals[2].clone()
                    }
                }
                Op::Eq => {
                    let same = |x: &Value, y: &Value| match (x.as_rational(), y.as_rational()) {
                        (Some(p), Some(q)) => p == q,
                        _ => x == y,
                    };
                    Value::Bool(vals.windows(2).all(|w| same(&w[0], &w[1])))
                }
                Op::Distinct => {
                    let mut ok = true;
                    for i in 0..vals.len() {
                        for j in i + 1..vals.len() {
                            let same = match (vals[i].as_rational(), vals[j].as_rational()) {
                                (Some(p), Some(q)) => p == q,
                                _ => vals[i] == vals[j],
                            };
                            ok &= !same;
                        }
                    }
                    Value::Bool(ok)
                }
                Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                    let rs = (0..vals.len()).map(r).collect::<Option<Vec<_>>>()?;
                    Value::Bool(rs.windows(2).all(|w| match op {
                        Op::Le => w[0] <= w[1],
                        Op::Lt => w[0] < w[1],
                        Op::Ge => w[0] >= w[1],
                        _ => w[0] > w[1],
                    }))
                }
                Op::Add => num((0..vals.len()).map(r).sum::<Option<BigRational>>()?),
                Op::Mul => num((0..vals.len()).map(r).product::<Option<BigRational>>()?),
                Op::Sub => {
                    let mut acc = r(0)?;
                    for i in 1..vals.len() {
                        acc -= r(i)?;
                    }
                    num(acc)
                }
                Op::Neg => num(-r(0)?),
                Op::Abs => num(r(0)?.abs()),
                Op::RealDiv => {
                    let d = r(1)?;
                    if d.is_zero() {
                        return None;
                    }
                    Value::Real(r(0)? / d)
                }
                Op::IntDiv | Op::Mod => {
                    let (x, y) = (r(0)?, r(1)?);
                    if y.is_zero() {
                        return None;
                    }
                    let (q, m) = euclid_div_mod(&x.to_integer(), &y.to_integer());
                    Value::Int(if *op == Op::IntDiv { q } else { m })
                }
                Op::ToReal => Value::Real(r(0)?),
                Op::ToInt => Value::Int(r(0)?.floor().to_integer()),
                Op::IsInt => Value::Bool(r(0)?.is_integer()),
                _ => return None,
            })
        }
    }
}

/// How far down a chain of stores [`without_store_at`] looks (chains of a C program's memory can
/// be long, and each store of one is simplified).
const DEAD_STORE_DEPTH: usize = 64;

/// The chain of stores `t` without its store at index `i` (the outermost one; a simplified chain
/// has at most one), if it has one within `depth` stores.
fn without_store_at(t: &Term, i: &Term, depth: usize) -> Option<Term> {
    let (Op::Store, sa) = t.as_app()? else {
        return None;
    };
    if sa.len() != 3 {
        return None;
    }
    if sa[1] == *i {
        return Some(sa[0].clone());
    }
    let inner = without_store_at(&sa[0], i, depth.checked_sub(1)?)?;
    Some(Term::mk_raw(
        Op::Store,
        vec![inner, sa[1].clone(), sa[2].clone()],
    ))
}
