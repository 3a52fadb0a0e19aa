//! Linear constraints for the ranking-function synthesis ([`super::ranking`]): a transition formula
//! as a disjunction of conjunctions of linear constraints (DNF), and Farkas' lemma as linear
//! constraints over unknown coefficients.
//!
//! [`dnf`] *over-approximates*: a non-linear numeric subterm (a map select, an uninterpreted
//! function, a product of variables, `div`/`mod`) becomes an abstraction variable standing for it
//! (one per distinct term; `x div k` and `x mod k` for a constant `k` with their Euclidean bounds
//! `x = k·q + r, 0 <= r <= |k| - 1` added to every disjunct; `x mod y` for a divisor `y` that is not
//! constant with its range by the sign of `y`, [`mod_ranges`]), a boolean atom that is not arithmetic
//! (a boolean variable, a select from a boolean map, an equality of maps) becomes `β >= 1` or
//! `β <= 0` for an abstraction variable `β` standing for `ite(atom, 1, 0)`, and anything else is
//! replaced by `true` after the negations have been pushed to the atoms, so every model of the
//! formula, extended by the values of the abstracted terms, satisfies one of the returned
//! disjuncts. Integer strict inequalities are
//! tightened (`e < 0` to `e + 1 <= 0` once the coefficients are integers), which is exact over the
//! integers. Proving an implication from the over-approximation proves it from the formula.
//!
//! [`farkas`] (affine form of Farkas' lemma): if multipliers `λ_i ≥ 0` (free for equalities) satisfy
//! `Σ λ_i a_i = g` and `h ≤ Σ λ_i b_i`, then every `y` with `a_i·y + b_i ≤ 0` for all `i` satisfies
//! `g·y + h ≤ Σ λ_i (a_i·y + b_i) ≤ 0`. Sound for any hypotheses; complete over the reals for
//! satisfiable non-strict ones. `g` and `h` may be linear terms over unknowns (template
//! coefficients), which keeps the constraints linear: the synthesis is one query in linear real
//! arithmetic.

use crate::smt::{Op, Sort, Term, TermKind, Value, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};

pub type Q = BigRational;

/// `Σ coef·v + constant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lin {
    pub coef: BTreeMap<Var, Q>,
    pub constant: Q,
}

impl Lin {
    pub fn constant(q: Q) -> Lin {
        Lin {
            coef: BTreeMap::new(),
            constant: q,
        }
    }

    pub fn var(v: &Var) -> Lin {
        Lin {
            coef: BTreeMap::from([(v.clone(), Q::one())]),
            constant: Q::zero(),
        }
    }

    /// `self + s · other`.
    pub fn add_scaled(&self, other: &Lin, s: &Q) -> Lin {
        let mut out = self.clone();
        for (v, c) in &other.coef {
            let e = out.coef.entry(v.clone()).or_insert_with(Q::zero);
            *e += s * c;
        }
        out.coef.retain(|_, c| !c.is_zero());
        out.constant += s * &other.constant;
        out
    }

    pub fn scale(&self, s: &Q) -> Lin {
        Lin::constant(Q::zero()).add_scaled(self, s)
    }

    pub fn is_constant(&self) -> bool {
        self.coef.is_empty()
    }

    fn all_int(&self) -> bool {
        self.coef.keys().all(|v| v.sort == Sort::Int)
    }

    /// The term `Σ coef·v + constant`: over `Int` if every variable is an integer and every
    /// coefficient integral, else over `Real` (integer variables through `to_real`).
    pub fn term(&self) -> Term {
        let integral = self.all_int()
            && self.coef.values().all(|c| c.is_integer())
            && self.constant.is_integer();
        let mut parts = Vec::new();
        for (v, c) in &self.coef {
            if integral {
                parts.push(Term::mul(vec![Term::int(c.to_integer()), Term::var(v)]));
            } else {
                let x = if v.sort == Sort::Int {
                    Term::to_real(&Term::var(v))
                } else {
                    Term::var(v)
                };
                parts.push(Term::mul(vec![Term::real(c.clone()), x]));
            }
        }
        if integral {
            parts.push(Term::int(self.constant.to_integer()));
        } else {
            parts.push(Term::real(self.constant.clone()));
        }
        Term::add(parts)
    }
}

/// `lin rel 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rel {
    Le,
    Lt,
    Eq,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub lin: Lin,
    pub rel: Rel,
}

impl Constraint {
    pub fn term(&self) -> Term {
        let t = self.lin.term();
        let zero = if *t.sort_ref() == Sort::Int {
            Term::int(0)
        } else {
            Term::real(Q::zero())
        };
        match self.rel {
            Rel::Le => Term::le(&t, &zero),
            Rel::Lt => Term::lt(&t, &zero),
            Rel::Eq => Term::eq(&t, &zero),
        }
    }

    /// Over integer variables: integral coefficients, `e < 0` as `e + 1 <= 0`, and `e <= 0` divided
    /// by the gcd of the coefficients with the constant rounded (exact over the integers).
    pub fn tighten(self) -> Constraint {
        if !self.lin.all_int() || self.lin.is_constant() {
            return self;
        }
        // Scale to integer coefficients.
        let mut l = BigInt::one();
        for c in self
            .lin
            .coef
            .values()
            .chain(std::iter::once(&self.lin.constant))
        {
            l = l.lcm(c.denom());
        }
        let mut lin = self.lin.scale(&Q::from_integer(l));
        let mut rel = self.rel;
        if rel == Rel::Lt {
            lin.constant += Q::one();
            rel = Rel::Le;
        }
        if rel == Rel::Le {
            let g = lin
                .coef
                .values()
                .fold(BigInt::zero(), |g, c| g.gcd(&c.to_integer()));
            if g > BigInt::one() {
                // Σ a x + c <= 0  ⇔  Σ (a/g) x <= floor(-c / g)
                let gq = Q::from_integer(g);
                let bound = (-&lin.constant / &gq).floor();
                let mut coef = BTreeMap::new();
                for (v, c) in &lin.coef {
                    coef.insert(v.clone(), c / &gq);
                }
                lin = Lin {
                    coef,
                    constant: -bound,
                };
            }
        }
        Constraint { lin, rel }
    }

    /// `Some(truth)` if the constraint has no variable.
    fn constant_truth(&self) -> Option<bool> {
        if !self.lin.is_constant() {
            return None;
        }
        let c = &self.lin.constant;
        Some(match self.rel {
            Rel::Le => !c.is_positive(),
            Rel::Lt => c.is_negative(),
            Rel::Eq => c.is_zero(),
        })
    }

    pub fn vars(&self) -> impl Iterator<Item = &Var> {
        self.lin.coef.keys()
    }
}

/// `t` as a linear expression over numeric variables, if it is one.
pub fn linear(t: &Term) -> Option<Lin> {
    match t.kind() {
        TermKind::Const(Value::Int(i)) => Some(Lin::constant(Q::from_integer(i.clone()))),
        TermKind::Const(Value::Real(r)) => Some(Lin::constant(r.clone())),
        TermKind::Var(v) if matches!(v.sort, Sort::Int | Sort::Real) => Some(Lin::var(v)),
        TermKind::App(op, args) => match op {
            Op::Add => {
                let mut acc = Lin::constant(Q::zero());
                for a in args {
                    acc = acc.add_scaled(&linear(a)?, &Q::one());
                }
                Some(acc)
            }
            Op::Sub if !args.is_empty() => {
                let mut acc = linear(&args[0])?;
                for a in &args[1..] {
                    acc = acc.add_scaled(&linear(a)?, &-Q::one());
                }
                Some(acc)
            }
            Op::Neg if args.len() == 1 => Some(linear(&args[0])?.scale(&-Q::one())),
            Op::ToReal if args.len() == 1 => linear(&args[0]),
            Op::Mul => {
                let mut acc = Lin::constant(Q::one());
                for a in args {
                    let l = linear(a)?;
                    if l.is_constant() {
                        acc = acc.scale(&l.constant);
                    } else if acc.is_constant() {
                        acc = l.scale(&acc.constant);
                    } else {
                        return None;
                    }
                }
                Some(acc)
            }
            Op::RealDiv if args.len() == 2 => {
                let d = linear(&args[1])?;
                if !d.is_constant() || d.constant.is_zero() {
                    return None;
                }
                Some(linear(&args[0])?.scale(&d.constant.recip()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A disjunction of conjunctions of linear constraints.
pub type Dnf = Vec<Vec<Constraint>>;

/// The result of [`dnf`].
#[derive(Clone, Debug)]
pub struct Linearised {
    pub disjuncts: Dnf,
    /// Some atom was not linear and was abstracted or replaced by `true` (the DNF over-approximates).
    pub approximated: bool,
    /// The abstraction variables (module comment) and the terms they stand for: substituting them
    /// turns a disjunct into a formula over the original variables that the formula implies when the
    /// disjunct's other constraints hold.
    pub meanings: Vec<(Var, Term)>,
}

/// The state of [`dnf`]: whether it over-approximated, the abstracted terms, and the constraints
/// every disjunct gets (facts about abstracted `div` and `mod` terms).
struct Ctx {
    approx: bool,
    atoms: Vec<(Term, Var)>,
    side: Vec<Constraint>,
}

impl Ctx {
    /// The abstraction variable of `t` (one per distinct term), of sort `sort`.
    fn abstract_var(&mut self, t: &Term, sort: Sort) -> Var {
        self.approx = true;
        if let Some((_, v)) = self.atoms.iter().find(|(u, _)| u == t) {
            return v.clone();
        }
        let v = Var::new(format!("lin@abs{}", self.atoms.len()), sort);
        self.atoms.push((t.clone(), v.clone()));
        v
    }

    /// `t` as a linear expression in which every non-linear numeric subterm is an abstraction
    /// variable; `x div k` and `x mod k` for a constant `k != 0` get their Euclidean bounds.
    fn lin(&mut self, t: &Term, depth: usize) -> Option<Lin> {
        if !is_numeric(t) || depth > 100 {
            return None;
        }
        if let Some(l) = linear(t) {
            return Some(l);
        }
        let sort = t.sort();
        let TermKind::App(op, args) = t.kind() else {
            return Some(Lin::var(&self.abstract_var(t, sort)));
        };
        let sub = |cx: &mut Ctx, a: &Term| cx.lin(a, depth + 1);
        match op {
            Op::Add => {
                let mut acc = Lin::constant(Q::zero());
                for a in args {
                    acc = acc.add_scaled(&sub(self, a)?, &Q::one());
                }
                Some(acc)
            }
            Op::Sub if !args.is_empty() => {
                let mut acc = sub(self, &args[0])?;
                for a in &args[1..] {
                    acc = acc.add_scaled(&sub(self, a)?, &-Q::one());
                }
                Some(acc)
            }
            Op::Neg if args.len() == 1 => Some(sub(self, &args[0])?.scale(&-Q::one())),
            Op::ToReal if args.len() == 1 => sub(self, &args[0]),
            Op::Mul => {
                // A constant factor times an abstracted product of the rest.
                let mut k = Q::one();
                let mut rest = Vec::new();
                for a in args {
                    match linear(a) {
                        Some(l) if l.is_constant() => k *= l.constant,
                        _ => rest.push(a.clone()),
                    }
                }
                let l = if rest.len() == 1 {
                    sub(self, &rest[0])?
                } else {
                    Lin::var(&self.abstract_var(&Term::mul(rest), sort))
                };
                Some(l.scale(&k))
            }
            Op::IntDiv | Op::Mod if args.len() == 2 => {
                let d = linear(&args[1]).filter(|d| d.is_constant() && !d.constant.is_zero());
                let v = self.abstract_var(t, sort);
                if let Some(d) = d {
                    let x = sub(self, &args[0])?;
                    let k = d.constant.abs();
                    // x = d·q + r with 0 <= r <= |d| - 1.
                    let r = if *op == Op::IntDiv {
                        x.add_scaled(&Lin::var(&v), &-d.constant.clone())
                    } else {
                        let qt = Term::int_div(&args[0], &args[1]);
                        let q = Lin::var(&self.abstract_var(&qt, Sort::Int));
                        let r = Lin::var(&v);
                        self.side.push(Constraint {
                            lin: x
                                .add_scaled(&q, &-d.constant.clone())
                                .add_scaled(&r, &-Q::one()),
                            rel: Rel::Eq,
                        });
                        r
                    };
                    self.side.push(Constraint {
                        lin: r.scale(&-Q::one()),
                        rel: Rel::Le,
                    });
                    self.side.push(Constraint {
                        lin: r.add_scaled(&Lin::constant(k - Q::one()), &-Q::one()),
                        rel: Rel::Le,
                    });
                }
                Some(Lin::var(&v))
            }
            _ => Some(Lin::var(&self.abstract_var(t, sort))),
        }
    }

    /// A boolean atom that is not arithmetic: an abstraction variable `β` standing for
    /// `ite(t, 1, 0)`, with `β >= 1` for `t` and `β <= 0` for `¬t`.
    fn bool_atom(&mut self, t: &Term, pos: bool) -> Dnf {
        let meaning = Term::ite(t, &Term::int(1), &Term::int(0));
        let b = Lin::var(&self.abstract_var(&meaning, Sort::Int));
        if pos {
            literal(Lin::constant(Q::one()).add_scaled(&b, &-Q::one()), Rel::Le)
        } else {
            literal(b, Rel::Le)
        }
    }
}

/// The DNF is larger than the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge;

/// An over-approximating DNF of `t` over linear constraints (see the module comment), with at most
/// `limit` disjuncts.
pub fn dnf(t: &Term, limit: usize) -> Result<Linearised, TooLarge> {
    let mut cx = Ctx {
        approx: false,
        atoms: Vec::new(),
        side: Vec::new(),
    };
    let ranged = mod_ranges(t);
    let mut d = nnf_dnf(&ranged, true, limit, &mut cx, 0)?;
    if !cx.side.is_empty() {
        for c in &mut d {
            c.extend(cx.side.iter().cloned().map(Constraint::tighten));
        }
    }
    Ok(Linearised {
        disjuncts: d,
        approximated: cx.approx,
        meanings: cx.atoms.into_iter().map(|(t, v)| (v, t)).collect(),
    })
}

/// `t` with the range of every `x mod y` whose divisor `y` is not a constant (outside binders)
/// conjoined: `y > 0 ∧ 0 <= m <= y - 1`, or `y < 0 ∧ 0 <= m <= -y - 1`, or `y = 0` (where SMT-LIB
/// leaves `m` unspecified). Each is valid, so the result is equivalent to `t`; once `m` is
/// abstracted, the range is what is left of it (`b := a mod b` decreases `b` while `b > 0`: a gcd
/// loop's ranking function).
fn mod_ranges(t: &Term) -> Term {
    if t.has_quantifier() {
        return t.clone();
    }
    let mut facts = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![t.clone()];
    while let Some(s) = stack.pop() {
        if !seen.insert(s.id()) {
            continue;
        }
        let Some((op, args)) = s.as_app() else {
            continue;
        };
        stack.extend(args.iter().cloned());
        if let (Op::Mod, [_, y]) = (op, args)
            && y.as_const().is_none()
            && facts.len() < MAX_MOD_RANGES
        {
            let zero = Term::int(0);
            let one = Term::int(1);
            let within = |bound: Term| {
                Term::and(vec![
                    Term::le(&zero, &s),
                    Term::le(&s, &Term::sub(&bound, &one)),
                ])
            };
            facts.push(Term::or(vec![
                Term::and(vec![Term::gt(y, &zero), within(y.clone())]),
                Term::and(vec![Term::lt(y, &zero), within(Term::neg(y))]),
                Term::eq(y, &zero),
            ]));
        }
    }
    if facts.is_empty() {
        return t.clone();
    }
    facts.insert(0, t.clone());
    Term::and(facts)
}

/// At most this many `mod` ranges in one formula ([`mod_ranges`]): each may triple its DNF.
const MAX_MOD_RANGES: usize = 2;

fn tt() -> Dnf {
    vec![Vec::new()]
}

/// The conjunctions of a disjunct of `a` and one of `b`, without those [`bounds_conflict`] shows
/// empty (a formula that tests one atom several times, as a loop unrolled or a chain of stores
/// read back does, would otherwise multiply its DNF by every combination of the atom's values).
fn product(a: Dnf, b: Dnf, limit: usize) -> Result<Dnf, TooLarge> {
    if a.len().saturating_mul(b.len()) > limit.saturating_mul(limit) {
        return Err(TooLarge);
    }
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.extend(y.iter().cloned());
            if b.len() > 1 && bounds_conflict(&c) {
                continue;
            }
            out.push(c);
            if out.len() > limit {
                return Err(TooLarge);
            }
        }
    }
    Ok(out)
}

/// Whether two constraints of the conjunction bound one linear form from above and below
/// inconsistently (`d ≤ u` and `d ≥ l` with `l > u`, or `l = u` with one of them strict): a
/// conjunction this finds is empty (a cheap syntactic test, incomplete).
fn bounds_conflict(conj: &[Constraint]) -> bool {
    if conj.len() < 2 {
        return false;
    }
    // Per direction (coefficients scaled so that the first is 1): the least upper bound and the
    // greatest lower bound, each with its strictness.
    type Bound = Option<(Q, bool)>;
    let mut bounds: BTreeMap<Vec<(Var, Q)>, (Bound, Bound)> = BTreeMap::new();
    for c in conj {
        let Some((_, m)) = c.lin.coef.iter().next() else {
            continue;
        };
        let m = m.clone();
        let dir: Vec<(Var, Q)> = c
            .lin
            .coef
            .iter()
            .map(|(v, q)| (v.clone(), q / &m))
            .collect();
        // m·d + k rel 0  ⇔  d rel -k/m (m > 0), d rel⁻¹ -k/m (m < 0).
        let value = -&c.lin.constant / &m;
        let strict = c.rel == Rel::Lt;
        let (upper, lower) = match c.rel {
            Rel::Eq => (true, true),
            _ if m.is_positive() => (true, false),
            _ => (false, true),
        };
        let e = bounds.entry(dir).or_insert((None, None));
        if upper {
            let tighter = match &e.0 {
                None => true,
                Some((u, s)) => value < *u || (value == *u && strict && !s),
            };
            if tighter {
                e.0 = Some((value.clone(), strict));
            }
        }
        if lower {
            let tighter = match &e.1 {
                None => true,
                Some((l, s)) => value > *l || (value == *l && strict && !s),
            };
            if tighter {
                e.1 = Some((value.clone(), strict));
            }
        }
        if let (Some((u, su)), Some((l, sl))) = &e {
            if l > u || (l == u && (*su || *sl)) {
                return true;
            }
        }
    }
    false
}

fn union(mut a: Dnf, b: Dnf, limit: usize) -> Result<Dnf, TooLarge> {
    a.extend(b);
    if a.len() > limit {
        return Err(TooLarge);
    }
    Ok(a)
}

fn is_numeric(t: &Term) -> bool {
    matches!(t.sort_ref(), Sort::Int | Sort::Real)
}

/// The literal `lin rel 0`, simplified: `true`, `false` or one constraint.
fn literal(lin: Lin, rel: Rel) -> Dnf {
    let c = Constraint { lin, rel }.tighten();
    match c.constant_truth() {
        Some(true) => tt(),
        Some(false) => Vec::new(),
        None => vec![vec![c]],
    }
}

fn nnf_dnf(t: &Term, pos: bool, limit: usize, cx: &mut Ctx, depth: usize) -> Result<Dnf, TooLarge> {
    if depth > 200 {
        return Err(TooLarge);
    }
    let rec = |t: &Term, pos: bool, cx: &mut Ctx| nnf_dnf(t, pos, limit, cx, depth + 1);
    let all = |args: &[Term], pos: bool, cx: &mut Ctx| -> Result<Dnf, TooLarge> {
        let mut acc = tt();
        for a in args {
            acc = product(acc, rec(a, pos, cx)?, limit)?;
            if acc.is_empty() {
                break;
            }
        }
        Ok(acc)
    };
    let any = |args: &[Term], pos: bool, cx: &mut Ctx| -> Result<Dnf, TooLarge> {
        let mut acc = Vec::new();
        for a in args {
            acc = union(acc, rec(a, pos, cx)?, limit)?;
        }
        Ok(acc)
    };
    let TermKind::App(op, args) = t.kind() else {
        if let Some(b) = t.as_bool() {
            return Ok(if b == pos { tt() } else { Vec::new() });
        }
        if *t.sort_ref() == Sort::Bool {
            return Ok(cx.bool_atom(t, pos));
        }
        cx.approx = true;
        return Ok(tt());
    };
    // An atom over a numeric `ite`: split on its condition.
    if is_atom(op) {
        if let Some(ite) = args.iter().find_map(numeric_ite) {
            let (c, a, b) = (&ite.args()[0], &ite.args()[1], &ite.args()[2]);
            let with = |r: &Term| {
                let new_args: Vec<Term> = args.iter().map(|x| replace(x, &ite, r)).collect();
                t.with_args(new_args)
            };
            let split = Term::or(vec![
                Term::and(vec![c.clone(), with(a)]),
                Term::and(vec![Term::not(c), with(b)]),
            ]);
            return rec(&split, pos, cx);
        }
    }
    match op {
        Op::Not if args.len() == 1 => rec(&args[0], !pos, cx),
        Op::And => {
            if pos {
                all(args, true, cx)
            } else {
                any(args, false, cx)
            }
        }
        Op::Or => {
            if pos {
                any(args, true, cx)
            } else {
                all(args, false, cx)
            }
        }
        Op::Implies if args.len() >= 2 => {
            // a1 => (a2 => … => b)  ≡  ¬a1 ∨ ¬a2 ∨ … ∨ b
            let (last, init) = args.split_last().ok_or(TooLarge)?;
            let mut parts: Vec<Term> = init.iter().map(Term::not).collect();
            parts.push(last.clone());
            rec(&Term::or(parts), pos, cx)
        }
        Op::Ite if args.len() == 3 && *t.sort_ref() == Sort::Bool => {
            let (c, a, b) = (&args[0], &args[1], &args[2]);
            let l = product(rec(c, true, cx)?, rec(a, pos, cx)?, limit)?;
            let r = product(rec(c, false, cx)?, rec(b, pos, cx)?, limit)?;
            union(l, r, limit)
        }
        Op::Eq if args.len() == 2 && *args[0].sort_ref() == Sort::Bool => {
            let (a, b) = (&args[0], &args[1]);
            // a = b is (a ∧ b) ∨ (¬a ∧ ¬b); its negation (a ∧ ¬b) ∨ (¬a ∧ b).
            union(
                product(rec(a, true, cx)?, rec(b, pos, cx)?, limit)?,
                product(rec(a, false, cx)?, rec(b, !pos, cx)?, limit)?,
                limit,
            )
        }
        Op::Eq | Op::Distinct if args.len() == 2 && is_numeric(&args[0]) => {
            let (Some(a), Some(b)) = (cx.lin(&args[0], 0), cx.lin(&args[1], 0)) else {
                cx.approx = true;
                return Ok(tt());
            };
            let d = a.add_scaled(&b, &-Q::one());
            let equal = (*op == Op::Eq) == pos;
            if equal {
                Ok(literal(d, Rel::Eq))
            } else {
                let neg = d.scale(&-Q::one());
                union(literal(d, Rel::Lt), literal(neg, Rel::Lt), limit)
            }
        }
        Op::Le | Op::Lt | Op::Ge | Op::Gt if args.len() == 2 => {
            let (Some(a), Some(b)) = (cx.lin(&args[0], 0), cx.lin(&args[1], 0)) else {
                cx.approx = true;
                return Ok(tt());
            };
            // Normalise to `x rel 0` with rel ∈ {<=, <}: a <= b is a - b <= 0, a >= b is b - a <= 0.
            let (d, strict) = match op {
                Op::Le => (a.add_scaled(&b, &-Q::one()), false),
                Op::Lt => (a.add_scaled(&b, &-Q::one()), true),
                Op::Ge => (b.add_scaled(&a, &-Q::one()), false),
                _ => (b.add_scaled(&a, &-Q::one()), true),
            };
            if pos {
                Ok(literal(d, if strict { Rel::Lt } else { Rel::Le }))
            } else {
                // ¬(d <= 0) is -d < 0; ¬(d < 0) is -d <= 0.
                let neg = d.scale(&-Q::one());
                Ok(literal(neg, if strict { Rel::Le } else { Rel::Lt }))
            }
        }
        _ if *t.sort_ref() == Sort::Bool => Ok(cx.bool_atom(t, pos)),
        _ => {
            cx.approx = true;
            Ok(tt())
        }
    }
}

fn is_atom(op: &Op) -> bool {
    matches!(
        op,
        Op::Eq | Op::Distinct | Op::Le | Op::Lt | Op::Ge | Op::Gt
    )
}

/// The first `ite` of numeric sort inside a numeric term (not inside conditions).
fn numeric_ite(t: &Term) -> Option<Term> {
    if !is_numeric(t) {
        return None;
    }
    match t.kind() {
        TermKind::App(Op::Ite, _) => Some(t.clone()),
        TermKind::App(_, args) => args.iter().find_map(numeric_ite),
        _ => None,
    }
}

/// `t` with every occurrence of `what` replaced by `by`.
fn replace(t: &Term, what: &Term, by: &Term) -> Term {
    if t == what {
        return by.clone();
    }
    match t.kind() {
        TermKind::App(_, args) => {
            let new: Vec<Term> = args.iter().map(|a| replace(a, what, by)).collect();
            if new.iter().zip(args).all(|(a, b)| a == b) {
                t.clone()
            } else {
                t.with_args(new)
            }
        }
        _ => t.clone(),
    }
}

/// Farkas' lemma (module comment): constraints over fresh multipliers (made by `mult`, a fresh
/// `Real` variable per hypothesis) whose satisfiability implies that `hyp` entails
/// `Σ goal[v]·v + goal_const <= 0`. `goal` and `goal_const` are `Real` terms (over unknowns).
pub fn farkas(
    hyp: &[Constraint],
    goal: &BTreeMap<Var, Term>,
    goal_const: &Term,
    mult: &mut dyn FnMut() -> Var,
) -> Term {
    let (conj, _, _) = farkas_parts(hyp, goal, goal_const, mult);
    Term::and(conj)
}

/// Motzkin's transposition theorem in the form used with [`farkas`]: constraints over fresh
/// multipliers whose satisfiability implies that `hyp` entails the *strict* `Σ goal[v]·v +
/// goal_const < 0`. Besides Farkas' conditions, either `h < Σ λ_i b_i`, or some strict hypothesis
/// (`a_i·y + b_i < 0`) has `λ_i > 0`: then `Σ λ_i (a_i·y + b_i) < 0` and `g·y + h` is below it or
/// equal to it. Sound for any hypotheses.
pub fn motzkin_strict(
    hyp: &[Constraint],
    goal: &BTreeMap<Var, Term>,
    goal_const: &Term,
    mult: &mut dyn FnMut() -> Var,
) -> Term {
    let (mut conj, lambdas, rhs) = farkas_parts(hyp, goal, goal_const, mult);
    let zero = Term::real(Q::zero());
    let mut strict = vec![Term::lt(goal_const, &rhs)];
    let positive: Vec<Term> = hyp
        .iter()
        .zip(&lambdas)
        .filter(|(c, _)| c.rel == Rel::Lt)
        .map(|(_, l)| l.clone())
        .collect();
    if !positive.is_empty() {
        strict.push(Term::gt(&Term::add(positive), &zero));
    }
    conj.push(Term::or(strict));
    Term::and(conj)
}

/// Farkas' conditions, the multipliers (one per hypothesis) and `Σ λ_i b_i`.
fn farkas_parts(
    hyp: &[Constraint],
    goal: &BTreeMap<Var, Term>,
    goal_const: &Term,
    mult: &mut dyn FnMut() -> Var,
) -> (Vec<Term>, Vec<Term>, Term) {
    let mut conj = Vec::new();
    let lambdas: Vec<Term> = hyp
        .iter()
        .map(|c| {
            let l = Term::var(&mult());
            if c.rel != Rel::Eq {
                conj.push(Term::ge(&l, &Term::real(Q::zero())));
            }
            l
        })
        .collect();
    let mut vars: BTreeSet<&Var> = goal.keys().collect();
    for c in hyp {
        vars.extend(c.vars());
    }
    for v in vars {
        let mut sum = Vec::new();
        for (c, l) in hyp.iter().zip(&lambdas) {
            if let Some(a) = c.lin.coef.get(v) {
                sum.push(Term::mul(vec![Term::real(a.clone()), l.clone()]));
            }
        }
        let lhs = if sum.is_empty() {
            Term::real(Q::zero())
        } else {
            Term::add(sum)
        };
        let rhs = goal
            .get(v)
            .cloned()
            .unwrap_or_else(|| Term::real(Q::zero()));
        conj.push(Term::eq(&lhs, &rhs));
    }
    let mut sum = Vec::new();
    for (c, l) in hyp.iter().zip(&lambdas) {
        if !c.lin.constant.is_zero() {
            sum.push(Term::mul(vec![
                Term::real(c.lin.constant.clone()),
                l.clone(),
            ]));
        }
    }
    let rhs = if sum.is_empty() {
        Term::real(Q::zero())
    } else {
        Term::add(sum)
    };
    conj.push(Term::le(goal_const, &rhs));
    (conj, lambdas, rhs)
}

/// Rounds of [`integer_bounds`]' propagation.
const BOUND_ROUNDS: usize = 6;

/// Bounds of single variables that the conjunction `conj` implies over the integers but not over
/// the reals: interval propagation (every constraint `Σ a_i·v_i + k ≤ 0`, or `= 0`, bounds each
/// `v_j` by the others' bounds) with the bounds of integer variables rounded (`2q ≥ 1` gives
/// `q ≥ 1`), a few rounds; only bounds whose derivation rounded are returned (the others the
/// relaxation derives itself). The linear relaxation that Farkas' lemma reasons in
/// does not round: a quotient `q` of `x - 1 = 2^32·q + r, 0 ≤ r < 2^32, x ≥ 1` (an unsigned
/// decrement) is `> -1` there, and only `q ≥ 0` shows that `x` decreases. Each returned
/// constraint is implied by `conj` for integer values of its integer variables (a cut), so adding
/// it keeps every integer model; `None` when the bounds conflict (no integer model).
pub fn integer_bounds(conj: &[Constraint]) -> Option<Vec<Constraint>> {
    // Per variable: its lower and upper bound, each with whether its derivation rounded (only
    // those are cuts: the others the relaxation derives itself).
    type Bound = Option<(Q, bool)>;
    type Bounds = BTreeMap<Var, (Bound, Bound)>;
    // Tightens `v`'s bound to `q` (rounded for an integer); whether it changed.
    let tighten = |b: &mut Bounds, v: &Var, q: Q, upper: bool, cut: bool| -> bool {
        let r = match (v.sort == Sort::Int, upper) {
            (true, true) => q.floor(),
            (true, false) => q.ceil(),
            (false, _) => q.clone(),
        };
        let cut = cut || r != q;
        let e = b.entry(v.clone()).or_insert((None, None));
        let slot = if upper { &mut e.1 } else { &mut e.0 };
        let better = match slot {
            None => true,
            Some((old, _)) => (upper && r < *old) || (!upper && r > *old),
        };
        if better {
            *slot = Some((r, cut));
        }
        better
    };
    // Directions: each `lin ≤ 0` (an equality both ways; a strict inequality as its closure).
    let mut rows: Vec<Lin> = Vec::new();
    for c in conj {
        if c.lin.is_constant() {
            continue;
        }
        rows.push(c.lin.clone());
        if c.rel == Rel::Eq {
            rows.push(c.lin.scale(&-Q::one()));
        }
    }
    let mut bounds: Bounds = BTreeMap::new();
    for r in &rows {
        if let [(v, a)] = r.coef.iter().collect::<Vec<_>>()[..] {
            let q = -&r.constant / a;
            tighten(&mut bounds, v, q, a.is_positive(), false);
        }
    }
    for _ in 0..BOUND_ROUNDS {
        let mut changed = false;
        for r in &rows {
            if r.coef.len() < 2 {
                continue;
            }
            // k + Σ_i a_i·min(a_i·v_i)/a_i, whether a cut was used, and the one unbounded term.
            let mut min_sum = r.constant.clone();
            let mut cut = false;
            let mut unbounded: Option<&Var> = None;
            let mut several = false;
            for (v, a) in &r.coef {
                let b = bounds.get(v);
                let lo = if a.is_positive() {
                    b.and_then(|b| b.0.as_ref())
                } else {
                    b.and_then(|b| b.1.as_ref())
                };
                match lo {
                    Some((x, c)) => {
                        min_sum += a * x;
                        cut |= *c;
                    }
                    None if unbounded.is_none() => unbounded = Some(v),
                    None => several = true,
                }
            }
            if several {
                continue;
            }
            for (v, a) in &r.coef {
                if unbounded.is_some_and(|u| u != v) {
                    continue;
                }
                // a·v ≤ -(k + Σ_{i≠j} a_i·min(v_i))
                let rest = if unbounded.is_some() {
                    min_sum.clone()
                } else {
                    let b = &bounds[v];
                    let own = if a.is_positive() { &b.0 } else { &b.1 };
                    match own {
                        Some((x, _)) => &min_sum - a * x,
                        None => continue,
                    }
                };
                let q = -rest / a;
                changed |= tighten(&mut bounds, v, q, a.is_positive(), cut);
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = Vec::new();
    for (v, (lo, hi)) in &bounds {
        if let (Some((l, _)), Some((h, _))) = (lo, hi) {
            if l > h {
                return None;
            }
        }
        if let Some((l, true)) = lo {
            // l - v <= 0
            out.push(Constraint {
                lin: Lin::constant(l.clone()).add_scaled(&Lin::var(v), &-Q::one()),
                rel: Rel::Le,
            });
        }
        if let Some((h, true)) = hi {
            // v - h <= 0
            out.push(Constraint {
                lin: Lin::var(v).add_scaled(&Lin::constant(h.clone()), &-Q::one()),
                rel: Rel::Le,
            });
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: &str) -> Var {
        Var::new(n, Sort::Int)
    }
    fn v(n: &str) -> Term {
        Term::var(&int(n))
    }

    #[test]
    fn linear_forms() {
        let t = Term::sub(
            &Term::mul(vec![Term::int(3), v("x")]),
            &Term::add(vec![v("y"), Term::int(2)]),
        );
        let l = linear(&t).expect("linear");
        assert_eq!(l.coef[&int("x")], Q::from_integer(3.into()));
        assert_eq!(l.coef[&int("y")], -Q::one());
        assert_eq!(l.constant, Q::from_integer((-2).into()));
        assert!(linear(&Term::mul(vec![v("x"), v("y")])).is_none());
        assert!(linear(&Term::modulo(&v("x"), &Term::int(2))).is_none());
    }

    /// `lin ≤ 0` from `(var, coefficient)` pairs and a constant.
    fn le(terms: &[(&str, i64)], k: i64) -> Constraint {
        let mut lin = Lin::constant(Q::from_integer(k.into()));
        for (n, a) in terms {
            lin = lin.add_scaled(&Lin::var(&int(n)), &Q::from_integer((*a).into()));
        }
        Constraint { lin, rel: Rel::Le }
    }

    /// The bounds `integer_bounds` adds, as `(var, lower, upper)` over the integers.
    fn bounds_of(cs: &[Constraint]) -> BTreeMap<String, (Option<i64>, Option<i64>)> {
        let mut out: BTreeMap<String, (Option<i64>, Option<i64>)> = BTreeMap::new();
        for c in cs {
            let [(v, a)] = c.lin.coef.iter().collect::<Vec<_>>()[..] else {
                panic!("not a bound: {c:?}");
            };
            let q = (-&c.lin.constant / a).to_integer();
            let q = i64::try_from(q).expect("small");
            let e = out.entry(v.name.clone()).or_default();
            if a.is_positive() {
                e.1 = Some(q);
            } else {
                e.0 = Some(q);
            }
        }
        out
    }

    #[test]
    fn integer_bounds_round_quotients() {
        // x >= 1, x - 1 - 2^32·q - r = 0, 0 <= r <= 2^32 - 1: q >= 0 (over the reals q > -1).
        let m = 1i64 << 32;
        let mut conj = vec![
            le(&[("x", -1)], 1),
            le(&[("r", -1)], 0),
            le(&[("r", 1)], -(m - 1)),
        ];
        let eq = le(&[("x", 1), ("q", -m), ("r", -1)], -1);
        conj.push(Constraint { rel: Rel::Eq, ..eq });
        let cuts = integer_bounds(&conj).expect("feasible");
        assert_eq!(bounds_of(&cuts)["q"].0, Some(0));
        // No cut repeats a bound the conjunction states itself.
        assert!(!bounds_of(&cuts).contains_key("r"));
        // y = 2·h, y >= 1: h >= 1 and then y >= 2.
        let conj = vec![
            Constraint {
                lin: le(&[("y", 1), ("h", -2)], 0).lin,
                rel: Rel::Eq,
            },
            le(&[("y", -1)], 1),
        ];
        let b = bounds_of(&integer_bounds(&conj).expect("feasible"));
        assert_eq!(b["h"].0, Some(1));
        assert_eq!(b["y"].0, Some(2));
        // 2z = 1 has no integer solution: 1/2 <= z <= 1/2 rounds to 1 <= z <= 0.
        let conj = vec![
            le(&[("z", 2), ("w", 1)], -1),
            le(&[("z", -2), ("w", -1)], 1),
            le(&[("w", 1)], 0),
            le(&[("w", -1)], 0),
        ];
        assert_eq!(integer_bounds(&conj), None);
    }

    #[test]
    fn integer_strict_inequalities_are_tightened() {
        // x > 0  is  -x < 0  is  -x + 1 <= 0
        let d = dnf(&Term::gt(&v("x"), &Term::int(0)), 8).expect("small");
        assert_eq!(d.disjuncts.len(), 1);
        let c = &d.disjuncts[0][0];
        assert_eq!(c.rel, Rel::Le);
        assert_eq!(c.lin.constant, Q::one());
        // 2x <= 3  is  x <= 1
        let d = dnf(
            &Term::le(&Term::mul(vec![Term::int(2), v("x")]), &Term::int(3)),
            8,
        )
        .expect("small");
        let c = &d.disjuncts[0][0];
        assert_eq!(c.lin.coef[&int("x")], Q::one());
        assert_eq!(c.lin.constant, -Q::one());
    }

    #[test]
    fn repeated_atoms_do_not_multiply_the_dnf() {
        // (x <= 0 ∨ x >= 1) eight times over (a loop unrolled, a store chain read back): 2
        // consistent disjuncts, not 2^8 > the limit.
        let split = Term::or(vec![
            Term::le(&v("x"), &Term::int(0)),
            Term::ge(&v("x"), &Term::int(1)),
        ]);
        let t = Term::and(
            (0..8)
                .map(|i| Term::and(vec![split.clone(), Term::eq(&v(&format!("y{i}")), &v("x"))]))
                .collect(),
        );
        let d = dnf(&t, 8).expect("pruned below the limit");
        assert_eq!(d.disjuncts.len(), 2);
        // Bounds through a scaled direction: 2x + 2y <= 3 and x + y >= 2 conflict; with
        // x + y >= 1 they do not.
        let sum = Term::add(vec![v("x"), v("y")]);
        let two_sum = Term::mul(vec![Term::int(2), sum.clone()]);
        let t = Term::and(vec![
            Term::or(vec![
                Term::le(&two_sum, &Term::int(3)),
                Term::gt(&v("z"), &Term::int(0)),
            ]),
            Term::or(vec![
                Term::ge(&sum, &Term::int(2)),
                Term::ge(&sum, &Term::int(1)),
            ]),
        ]);
        let d = dnf(&t, 8).expect("small");
        assert_eq!(d.disjuncts.len(), 3);
        assert!(!bounds_conflict(&[]));
    }

    #[test]
    fn negation_disequality_and_nonlinear_atoms() {
        // ¬(x = y) is x < y ∨ x > y
        let d = dnf(&Term::not(&Term::eq(&v("x"), &v("y"))), 8).expect("small");
        assert_eq!(d.disjuncts.len(), 2);
        assert!(!d.approximated);
        // x*y > 0 ∧ x > 0: the product is abstracted (over-approximation), the bound stays.
        let t = Term::and(vec![
            Term::gt(&Term::mul(vec![v("x"), v("y")]), &Term::int(0)),
            Term::gt(&v("x"), &Term::int(0)),
        ]);
        let d = dnf(&t, 8).expect("small");
        assert!(d.approximated);
        assert_eq!(d.disjuncts.len(), 1);
        assert_eq!(d.disjuncts[0].len(), 2);
        assert_eq!(d.meanings.len(), 1);
        // A boolean variable and its negation: contradictory bounds on one abstraction variable.
        let b = Term::var(&Var::new("b", Sort::Bool));
        let d = dnf(&Term::and(vec![b.clone(), Term::not(&b)]), 8).expect("small");
        assert_eq!(d.meanings.len(), 1);
        assert_eq!(d.disjuncts[0].len(), 2);
        // x mod 2 = 1: r = 1 with x = 2q + r, 0 <= r <= 1.
        let d = dnf(
            &Term::eq(&Term::modulo(&v("x"), &Term::int(2)), &Term::int(1)),
            8,
        )
        .expect("small");
        assert_eq!(d.meanings.len(), 2);
        assert_eq!(d.disjuncts[0].len(), 4);
        // ite in arithmetic: x = ite(b > 0, 1, 2) splits in two.
        let t = Term::eq(
            &v("x"),
            &Term::ite(
                &Term::gt(&v("b"), &Term::int(0)),
                &Term::int(1),
                &Term::int(2),
            ),
        );
        let d = dnf(&t, 8).expect("small");
        assert_eq!(d.disjuncts.len(), 2);
        // Limits are respected.
        let big = Term::and(
            (0..6)
                .map(|i| {
                    Term::or(vec![
                        Term::gt(&v(&format!("a{i}")), &Term::int(0)),
                        Term::lt(&v(&format!("a{i}")), &Term::int(-5)),
                    ])
                })
                .collect(),
        );
        assert_eq!(dnf(&big, 16).err(), Some(TooLarge));
    }
}
