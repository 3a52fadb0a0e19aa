//! Quantified array invariants over a loop's index range: `∀k. lo <= k < i ==> a[k] == e(k)`.
//!
//! A loop that fills an array cell by cell (`a[i] := e; i := i + 1`) keeps the invariant that every
//! cell it has passed holds `e` at that index; interpolants of unrolled traces only ever name
//! single cells, so trace abstraction unrolls such a loop for ever. Following the template idea of
//! quantified invariant inference (S. Gulwani, B. McCloskey, A. Tiwari: "Lifting abstract
//! interpreters to quantified logical domains", POPL 2008; Houdini-style filtering as in
//! C. Flanagan, S. Qadeer: "Predicate abstraction for software verification", POPL 2002), the
//! candidates are read off the letters: for every store `m[i + c := e]` whose map `m` is a program
//! variable or a cell of one (`a[23]` of a two-dimensional `a[23, i] := e`), whose index is an
//! integer program variable `i` plus a constant `c`, and whose value `e` reads only program
//! variables, the cell `m[k] == e[i := k - c]` is claimed for the indices `k` of a range:
//! `b <= k < i + c` (an ascending loop), `i + c < k < b` (a descending one), `b <= k < d` (a later
//! loop reads what an earlier one wrote), `b <= k < i + c && k < d` (stores under a guard `i < d`)
//! and `b <= k < i + c && (k - b) % s == 0` (a stride `i := i + s`), for bounds `b` among the
//! program's small integer constants and integer variables and constants `d`, `s`, at every
//! location; the constants the index is compared with in the letters, and each one's successor (a
//! guard `i < d` may read `i <= d - 1`, its negation `!(i <= d - 1)`), bound ranges of their own,
//! `d <= k < i + c` and `b <= k < i + c && k < d`, whatever other constants the program has (a loop
//! that fills the cells below a constant with one value and the rest with another). A store of a
//! value the letter bounds rather than names (`havoc x; assume x < i; a[i] := x`: a variable other
//! than a pre-state one, compared in a conjunct of the letter with a term `t` over pre-state
//! variables) claims the bound for the cells passed, `b <= k < i + c ==> m[k] <= t[i := k - c]`
//! (or `>=`; strict comparisons tightened over the integers). The cells an ascending loop has not
//! reached yet are claimed zero, `i + c <= k ==> m[k] == 0` (an array of static storage, or from
//! `calloc`, filled from the front).
//!
//! A store whose index is a loop counter `i` scaled by `s` plus a rest `r` over other variables (an
//! element of an array in memory, `#memory_int[p.base][p.offset + 4 * i]`, also several fields of
//! one row stored in one letter) is a strided fill: the cells `m[r + s * k] == e[i := k]` are
//! claimed for the counter values `k` it passed, `lo <= k < i` (ascending), `i < k < hi`
//! (descending, `hi` one above a value the counter starts at, `i := n - 1`), and `lo <= k < hi` (a
//! later loop), for `lo` 0 or a constant and `hi` a variable or a positive constant the counter is
//! compared with.
//!
//! They are filtered by a Houdini run of their own on top of the invariants the quantifier-free
//! synthesis proved ([`super::invariants`]), in a z3 session with a short query limit: for every
//! letter `a: l -> l'` the query `Inv(l) ∧ Q(l) ∧ a ∧ Inv(l')' ∧ ∨_j ¬body_j(c_j)'` (the negated
//! candidates of `l'`, each instantiated at a fresh constant `c_j`, so that a model names a
//! falsified candidate by a ground value) drops the candidates it falsifies, at their own
//! constants or at the constant of another falsified one (every candidate is evaluated in the
//! model at those points: a model rarely falsifies more than one or two instances by itself, and
//! one candidate at a time took hundreds of queries on an n-bit counter's array); on `unknown` each
//! candidate of `l'` is asked alone (with only its own copy at `l` as the hypothesis), and those
//! not proven are dropped. Finally a candidate implied by `Inv(l)` and the ones kept before it is
//! dropped (any subset of an inductive set's conjuncts that is kept is still implied by it).
//!
//! [`instantiate`] gives the letters strengthened with the result a quantifier-free form (each
//! quantifier replaced by its instances at the cells the letter reads) for a second run of the
//! quantifier-free synthesis: the facts inductive only together with the quantified invariants.
//!
//! Invariant of the result: for every reachable letter `a: l -> l'`, `Inv(l) ∧ Q(l) ∧ a ⇒ Q(l')'`
//! was answered `unsat` (in the one-at-a-time fallback with a subset of `Q(l)` as hypothesis,
//! which is stronger), and `Inv` is inductive by itself, so `Inv ∧ Q` is inductive (initiation is
//! the check of the letters leaving the initial location, which carries no candidate). When the
//! budget runs out the extension adds nothing.

use super::Config;
use super::blocks::Encoded;
use super::cfa::{Cfa, LocId};
use super::hoare::primed;
use super::invariants::{Invariants, Limits};
use super::transition::{PVar, Vocabulary};
use crate::smt::{
    Op, Quantifier, SatResult, Session, SolverConfig, SolverKind, Sort, Term, TermKind, Value, Var,
};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// At most this many quantified candidates per location.
const MAX_CANDIDATES: usize = 96;
/// The limit of one query: z3 answered the queries of an n-bit counter's array (252 candidates)
/// within 60 ms, save one it loops on; a query it does not answer is followed by the
/// one-at-a-time fallback (a 1 s limit spent whole seconds on such queries).
const QUERY_LIMIT: Duration = Duration::from_millis(400);
/// The limit of one query of the one-candidate-at-a-time fallback: z3 proves an inductive
/// candidate alone in a few milliseconds, and a limit reached drops the candidate as a model does
/// (a whole second per candidate made the fallback take most of a 10 s run).
const SINGLE_LIMIT: Duration = Duration::from_millis(250);
/// At most this many queries.
const MAX_QUERIES: usize = 300;
/// At most this many constants a fill's index is compared with give bounds of its own.
const MAX_GUARD_CONSTS: usize = 4;

/// A store `m[i + c := e]` of a letter: the map (a program variable, or a cell of one such as
/// `a[23]` for a two-dimensional `a[23, i] := e`), the index variable `i` and constant offset `c`,
/// and the stored value (over pre variables).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Fill {
    pub map: Term,
    pub index: Var,
    pub offset: BigInt,
    pub value: Term,
}

/// A store `m[i + c := v]` of a letter whose value `v` is no pre-state variable (a value the letter
/// havocs and then bounds, `havoc x; assume x < i; a[i] := x`), with a conjunct of the letter that
/// bounds `v` by a term over pre-state variables: `v <= bound` (`upper`) or `v >= bound`. The
/// cells it has written are claimed bounded alike, `m[k] <= bound[i := k - c]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct BoundedFill {
    pub map: Term,
    pub index: Var,
    pub offset: BigInt,
    pub upper: bool,
    pub bound: Term,
}

/// A store `m[r + s·i := e]` of a letter whose index is a loop counter `i` (see
/// [`super::invariants::counters`]) scaled by `s` plus a rest `r` over other pre-state variables
/// and constants, other than the `i + c` of a [`Fill`]: an element of an array in memory
/// (`#memory_int[a.base][a.offset + 4 * i]`). The cells it has written are claimed for the values
/// `k` the counter had: `m[r + s·k] == e[i := k]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct StridedFill {
    pub map: Term,
    pub index: Var,
    pub scale: BigInt,
    pub rest: Term,
    pub value: Term,
}

/// The strided fills of `t` (see [`StridedFill`]) whose counter is one of `counters`.
fn collect_strided_fills(
    voc: &Vocabulary,
    t: &Term,
    counters: &BTreeMap<Var, (bool, bool)>,
    out: &mut BTreeSet<StridedFill>,
) {
    // the cells of one row stored one after another (`p[i].x := …; p[i].y := …`): each a fill
    // of the row
    let root = |mut m: &Term| {
        while let Some((Op::Store, [inner, _, _])) = m.as_app() {
            m = inner;
        }
        m.clone()
    };
    if let Some((Op::Store, [m, i, e])) = t.as_app()
        && let m = &root(m)
        && is_map_path(m)
        && !e.has_quantifier()
        && e.free_vars().iter().all(|v| is_pre(voc, v))
        && m.free_vars().iter().all(|v| is_pre(voc, v))
        && let Some(lin) = crate::engine::termination::linear::linear(i)
        && lin.coef.keys().all(|v| is_pre(voc, v))
    {
        for (x, s) in &lin.coef {
            if !counters.contains_key(x) || !s.is_integer() || m.has_free_var(x) {
                continue;
            }
            let rest = lin.add_scaled(&crate::engine::termination::linear::Lin::var(x), &-s);
            let scale = s.to_integer();
            if scale.is_one() && rest.coef.is_empty() {
                continue; // a `Fill`
            }
            out.insert(StridedFill {
                map: m.clone(),
                index: x.clone(),
                scale,
                rest: crate::smt::simplify(&rest.term()),
                value: e.clone(),
            });
        }
    }
    for a in t.args() {
        collect_strided_fills(voc, a, counters, out);
    }
}

/// The integer pre-state variables compared with `x` in the letters' atoms (`i < n`: `n`), and
/// the constants they are compared with.
fn compared_with(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    x: &Var,
) -> (BTreeSet<Var>, BTreeSet<BigInt>) {
    let mut vars = BTreeSet::new();
    let mut consts = BTreeSet::new();
    for &a in letters {
        walk(&enc.letters[a].tf.formula, &mut |t| {
            if let Some((Op::Lt | Op::Le | Op::Gt | Op::Ge, [l, r])) = t.as_app()
                && (l.has_free_var(x) || r.has_free_var(x))
            {
                for v in l.free_vars().into_iter().chain(r.free_vars()) {
                    if v != *x && v.sort == Sort::Int && is_pre(voc, &v) {
                        vars.insert(v);
                    }
                }
                for side in [l, r] {
                    if let Some(Value::Int(c)) = side.as_const() {
                        consts.insert(c.clone());
                    }
                }
            }
        });
    }
    (vars, consts)
}

/// The values letters set the pre-state variable `x` to, over the state after the letter (`x :=
/// n - 1` in the letter that also assigns `n`: `n - 1`): from the linear equations among a
/// letter's conjuncts with a unit coefficient for `x'`, no `x`, and otherwise post-state variables
/// (read by their pre-state names) or pre-state variables of variables the letter does not write.
fn start_values(voc: &Vocabulary, enc: &Encoded, letters: &[usize], x: &Var) -> Vec<Term> {
    use crate::engine::termination::linear::{Lin, linear};
    let Some((px, false)) = voc.lookup(x) else {
        return Vec::new();
    };
    let mut out: Vec<Term> = Vec::new();
    for &a in letters {
        let tf = &enc.letters[a].tf;
        if !tf.writes.contains(&px) {
            continue;
        }
        for c in tf.formula.conjuncts() {
            let Some((Op::Eq, [l, r])) = c.as_app() else {
                continue;
            };
            let Some(d) = linear(&Term::sub(l, r)) else {
                continue;
            };
            let Some((xp, p)) = d
                .coef
                .iter()
                .find(|(v, _)| voc.lookup(v) == Some((px, true)))
            else {
                continue;
            };
            if !p.abs().is_one() || d.coef.contains_key(x) {
                continue;
            }
            // `p·x' + rest = 0`, so `x' = -rest / p`, read after the letter
            let rest = d.add_scaled(&Lin::var(xp), &-p).scale(&-p.recip());
            let mut names: HashMap<Var, Term> = HashMap::new();
            let readable = rest.coef.keys().all(|v| match voc.lookup(v) {
                Some((y, true)) => voc.pre(y).is_ok_and(|pre| {
                    names.insert(v.clone(), Term::var(&pre));
                    true
                }),
                Some((y, false)) => !tf.writes.contains(&y),
                None => false,
            });
            if readable {
                let e = crate::smt::simplify(&rest.term().substitute(&names));
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// `inv` extended by the quantified candidates that are inductive relative to it (see the module
/// comment); `inv` unchanged when there are none or the budget runs out.
pub fn extend(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    config: &Config,
    limits: &Limits,
    mut inv: Invariants,
) -> Invariants {
    let reach = reachable(enc);
    let letters: Vec<usize> = reach.iter().flat_map(|l| enc.out[*l].clone()).collect();
    let mut fills: BTreeSet<Fill> = BTreeSet::new();
    let counters = super::invariants::counters(voc, letters.iter().map(|&a| &enc.letters[a].tf));
    let mut strided: BTreeSet<StridedFill> = BTreeSet::new();
    let mut bounded: BTreeSet<BoundedFill> = BTreeSet::new();
    for &a in &letters {
        collect_fills(voc, &enc.letters[a].tf.formula, &mut fills);
        collect_strided_fills(voc, &enc.letters[a].tf.formula, &counters, &mut strided);
        collect_bounded_fills(voc, &enc.letters[a].tf.formula, &mut bounded);
    }
    // A row stored at an index that no letter steps (the memory map's row of a pointer's base,
    // `#memory_int[p.base := …]`) fills no range: its candidates only cost quantified map
    // equalities.
    fills.retain(|f| {
        !matches!(f.value.sort_ref(), Sort::Array(..)) || counters.contains_key(&f.index)
    });
    if super::cegar::debug() {
        eprintln!(
            "  array fills: {fills:?}\n  strided: {strided:?}\n  bounded: {bounded:?}\n  counters: {counters:?}"
        );
    }
    if fills.is_empty() && strided.is_empty() && bounded.is_empty() {
        return inv;
    }
    // The ranges of a strided fill's counter values: from 0 or a constant it is compared with,
    // up to it (ascending), down to a variable or constant it is compared with (descending), and
    // between those (a later loop reads what the loop wrote).
    let mut strided_ranges: Vec<(&StridedFill, Vec<Term>, Vec<Term>)> = Vec::new();
    for f in &strided {
        let (vs, cs) = compared_with(voc, enc, &letters, &f.index);
        let mut lows: Vec<Term> = vec![Term::int(0)];
        lows.extend(
            cs.iter()
                .filter(|c| !c.is_zero())
                .map(|c| Term::int(c.clone())),
        );
        let mut highs: Vec<Term> = vs.iter().take(4).map(Term::var).collect();
        highs.extend(
            cs.iter()
                .filter(|c| c.is_positive())
                .map(|c| Term::int(c.clone())),
        );
        // a descending loop's start `i := n - 1` bounds the cells it passed by `n`
        if counters.get(&f.index).is_some_and(|d| d.1) {
            for e in start_values(voc, enc, &letters, &f.index).iter().take(2) {
                highs.push(crate::smt::simplify(&Term::add(vec![
                    e.clone(),
                    Term::int(1),
                ])));
            }
        }
        lows.truncate(3);
        strided_ranges.push((f, lows, highs));
    }
    let (consts, bounds) = bounds(voc, enc, &letters);
    // Strides of loops that skip cells (`i := i + 2`): the small constants of the program.
    let strides: Vec<BigInt> = consts
        .iter()
        .filter(|c| **c >= BigInt::from(2) && **c <= BigInt::from(4))
        .cloned()
        .collect();
    let targets: Vec<LocId> = reach
        .iter()
        .copied()
        .filter(|l| *l != enc.init && cfa.error_of(*l).is_none())
        .collect();
    let mut cands: BTreeMap<LocId, Vec<(usize, Var, Term)>> = BTreeMap::new();
    let mut fresh = 0usize;
    let const_bounds: Vec<&Term> = bounds.iter().filter(|b| b.as_const().is_some()).collect();
    // The constants each fill's index is compared with, and each one's successor: a store under
    // the guard `i < d` (which the letters may read `i <= d - 1`) fills the cells below `d`, one
    // under `i >= d` (`!(i <= d - 1)`) the cells from `d` up, whatever constants the program
    // has besides.
    let guard_consts: Vec<Vec<BigInt>> = fills
        .iter()
        .map(|f| {
            let (_, cs) = compared_with(voc, enc, &letters, &f.index);
            let mut ds: BTreeSet<BigInt> = BTreeSet::new();
            for c in cs.iter().take(MAX_GUARD_CONSTS) {
                ds.insert(c.clone());
                ds.insert(c + 1);
            }
            ds.into_iter().collect()
        })
        .collect();
    for &l in &targets {
        // (form priority, bound variable, body): the forms most often needed first, so that
        // truncation drops the rare ones.
        let mut cs: Vec<(usize, Var, Term)> = Vec::new();
        for (f, guards) in fills.iter().zip(&guard_consts) {
            let k = Var::new(format!("k!q{fresh}"), Sort::Int);
            fresh += 1;
            let kt = Term::var(&k);
            // The cells written so far lie below (ascending) or above (descending) `i + c`.
            let hi = Term::add(vec![Term::var(&f.index), Term::int(f.offset.clone())]);
            let at = Term::sub(&kt, &Term::int(f.offset.clone()));
            let value = f.value.substitute(&HashMap::from([(f.index.clone(), at)]));
            let cell = Term::eq(&Term::select(&f.map, &kt), &value);
            let mut push = |form: usize, range: Vec<Term>| {
                cs.push((form, k.clone(), Term::implies(&Term::and(range), &cell)))
            };
            // The cells from a guard's constant up, and below it (stores under a guard), first: they
            // are the widest, and make the others redundant.
            for d in guards {
                let dt = Term::int(d.clone());
                push(0, vec![Term::le(&dt, &kt), Term::lt(&kt, &hi)]);
                for b in const_bounds
                    .iter()
                    .filter(|b| b.as_const() < Some(&Value::Int(d.clone())))
                {
                    push(
                        3,
                        vec![Term::le(b, &kt), Term::lt(&kt, &hi), Term::lt(&kt, &dt)],
                    );
                }
            }
            for b in bounds.iter().filter(|b| b.as_var() != Some(&f.index)) {
                push(0, vec![Term::le(b, &kt), Term::lt(&kt, &hi)]);
                push(1, vec![Term::lt(&hi, &kt), Term::lt(&kt, b)]);
            }
            for b in &const_bounds {
                for c in consts
                    .iter()
                    .filter(|c| b.as_const() < Some(&Value::Int((*c).clone())))
                {
                    let c = Term::int(c.clone());
                    // A range between constants (a later loop reads what an earlier one wrote).
                    push(2, vec![Term::le(b, &kt), Term::lt(&kt, &c)]);
                    // The cells below `i + c` and below a constant (stores under a guard).
                    push(
                        3,
                        vec![Term::le(b, &kt), Term::lt(&kt, &hi), Term::lt(&kt, &c)],
                    );
                }
                // Every `s`-th cell (`i := i + s`).
                for st in &strides {
                    let rem = Term::modulo(&Term::sub(&kt, b), &Term::int(st.clone()));
                    push(
                        4,
                        vec![
                            Term::le(b, &kt),
                            Term::lt(&kt, &hi),
                            Term::eq(&rem, &Term::int(0)),
                        ],
                    );
                }
            }
            // The cells an ascending loop has not reached yet still zero (an array of static
            // storage, or from `calloc`).
            if *f.value.sort_ref() == Sort::Int {
                let zero = Term::eq(&Term::select(&f.map, &kt), &Term::int(0));
                cs.push((1, k.clone(), Term::implies(&Term::le(&hi, &kt), &zero)));
            }
        }
        for (f, lows, highs) in &strided_ranges {
            let k = Var::new(format!("k!q{fresh}"), Sort::Int);
            fresh += 1;
            let kt = Term::var(&k);
            let i = Term::var(&f.index);
            let at = Term::add(vec![
                f.rest.clone(),
                Term::mul(vec![Term::int(f.scale.clone()), kt.clone()]),
            ]);
            let value = f
                .value
                .substitute(&HashMap::from([(f.index.clone(), kt.clone())]));
            let cell = Term::eq(&Term::select(&f.map, &at), &value);
            let (up, down) = counters.get(&f.index).copied().unwrap_or_default();
            let mut push = |form: usize, range: Vec<Term>| {
                cs.push((form, k.clone(), Term::implies(&Term::and(range), &cell)))
            };
            for lo in lows {
                if up {
                    push(0, vec![Term::le(lo, &kt), Term::lt(&kt, &i)]);
                }
                for hi in highs {
                    push(2, vec![Term::le(lo, &kt), Term::lt(&kt, hi)]);
                }
            }
            if down {
                for hi in highs {
                    push(1, vec![Term::lt(&i, &kt), Term::lt(&kt, hi)]);
                }
            }
        }
        for f in &bounded {
            let k = Var::new(format!("k!q{fresh}"), Sort::Int);
            fresh += 1;
            let kt = Term::var(&k);
            let hi = Term::add(vec![Term::var(&f.index), Term::int(f.offset.clone())]);
            let at = Term::sub(&kt, &Term::int(f.offset.clone()));
            let b =
                crate::smt::simplify(&f.bound.substitute(&HashMap::from([(f.index.clone(), at)])));
            let cell = Term::select(&f.map, &kt);
            let cell = if f.upper {
                Term::le(&cell, &b)
            } else {
                Term::le(&b, &cell)
            };
            // the cells passed by an ascending loop, from each lower bound
            for lo in bounds.iter().filter(|lo| lo.as_var() != Some(&f.index)) {
                let range = Term::and(vec![Term::le(lo, &kt), Term::lt(&kt, &hi)]);
                cs.push((0, k.clone(), Term::implies(&range, &cell)));
            }
        }
        // (a guard's constant may be one the program states: the same candidate once)
        let mut seen: HashSet<Term> = HashSet::new();
        cs.retain(|(_, _, body)| seen.insert(body.clone()));
        cs.sort_by_key(|(form, _, _)| *form);
        cs.truncate(MAX_CANDIDATES);
        // Ids (the position in this order) identify a candidate across locations.
        let cs = cs
            .into_iter()
            .enumerate()
            .map(|(id, (_, k, body))| (id, k, body))
            .collect();
        cands.insert(l, cs);
    }
    // A session of its own: quantified queries get a short limit (z3 answers the inductive ones
    // at once; a query it struggles with drops its candidates).
    let mut sc = SolverConfig::new(SolverKind::Z3);
    sc.query_timeout = QUERY_LIMIT;
    sc.deadline = limits.deadline;
    sc.log_dir = config.smt_log.clone();
    sc.produce_cores = false;
    sc.produce_models = true;
    let Ok(mut own) = Session::new(sc) else {
        return inv;
    };
    let session = &mut own;
    let t0 = Instant::now();
    let ncand: usize = cands.values().map(Vec::len).sum();
    let Some(found) = houdini(voc, enc, &letters, &inv, cands, session, limits) else {
        return inv;
    };
    if super::cegar::debug() {
        let kept: usize = found.values().map(Vec::len).sum();
        eprintln!(
            "  quantified Houdini: {kept} of {ncand} candidates kept in {:?}",
            t0.elapsed()
        );
    }
    // Drop a candidate implied by the ones kept before it (the widest ranges come first): smaller
    // letters and proofs. Any subset of the proven invariants is sound, so an unknown answer
    // simply keeps it.
    let mut queries = 0;
    for (l, qs) in found {
        let mut kept: Vec<Term> = Vec::new();
        for (_, k, body) in qs {
            let t = Term::forall(vec![k], body);
            if queries < MAX_QUERIES && !timed_out(limits) {
                queries += 1;
                let mut hyps = vec![inv.term_at(l)];
                hyps.extend(kept.iter().cloned());
                if super::invariants::implied_by(session, &hyps, &t) {
                    continue;
                }
            }
            kept.push(t);
        }
        inv.at.entry(l).or_default().extend(kept);
    }
    inv.queries += queries;
    inv
}

fn reachable(enc: &Encoded) -> Vec<LocId> {
    let mut seen = BTreeSet::from([enc.init]);
    let mut stack = vec![enc.init];
    while let Some(l) = stack.pop() {
        for &a in &enc.out[l] {
            let t = enc.letters[a].tgt;
            if seen.insert(t) {
                stack.push(t);
            }
        }
    }
    seen.into_iter().collect()
}

/// The pre variable `v` stands for a program variable of the state (not a post or auxiliary one).
fn is_pre(voc: &Vocabulary, v: &Var) -> bool {
    matches!(voc.lookup(v), Some((_, false)))
}

pub(super) fn collect_fills(voc: &Vocabulary, t: &Term, out: &mut BTreeSet<Fill>) {
    if let Some((Op::Store, args)) = t.as_app()
        && let [m, i, e] = args
        && let Some((index, offset)) = index_offset(i)
        && index.sort == Sort::Int
        && is_pre(voc, &index)
        && is_map_path(m)
        && !e.has_quantifier()
        && m.free_vars().iter().all(|v| is_pre(voc, v) && *v != index)
        && e.free_vars().iter().all(|v| is_pre(voc, v))
    {
        out.insert(Fill {
            map: m.clone(),
            index,
            offset,
            value: e.clone(),
        });
    }
    for a in t.args() {
        collect_fills(voc, a, out);
    }
}

/// The [`BoundedFill`]s of the letter formula `f`: its stores of a value that is a variable `v`
/// other than a pre-state one, each with every conjunct of `f` that is a linear comparison of
/// `v` (coefficient ±1) with a term over pre-state integer variables (tightened over the integers:
/// `v < i` is `v <= i - 1`).
fn collect_bounded_fills(voc: &Vocabulary, f: &Term, out: &mut BTreeSet<BoundedFill>) {
    use crate::engine::termination::linear::{Lin, Q, linear};
    let conjuncts = f.conjuncts();
    walk(f, &mut |t| {
        let Some((Op::Store, [m, i, e])) = t.as_app() else {
            return;
        };
        let (Some((index, offset)), Some(v)) = (index_offset(i), e.as_var()) else {
            return;
        };
        if index.sort != Sort::Int
            || v.sort != Sort::Int
            || !is_pre(voc, &index)
            || is_pre(voc, v)
            || !is_map_path(m)
            || !m.free_vars().iter().all(|w| is_pre(voc, w) && *w != index)
        {
            return;
        }
        for c in &conjuncts {
            // `l op r` as `d op' 0` with `d = l - r` (or `r - l`), `op'` one of `<=`, `<`
            let (d, strict) = match c.as_app() {
                Some((Op::Le, [l, r])) => (linear(&Term::sub(l, r)), false),
                Some((Op::Lt, [l, r])) => (linear(&Term::sub(l, r)), true),
                Some((Op::Ge, [l, r])) => (linear(&Term::sub(r, l)), false),
                Some((Op::Gt, [l, r])) => (linear(&Term::sub(r, l)), true),
                _ => continue,
            };
            let Some(d) = d else { continue };
            let Some(p) = d.coef.get(v).cloned() else {
                continue;
            };
            if !p.abs().is_one()
                || !d
                    .coef
                    .keys()
                    .all(|w| w == v || (w.sort == Sort::Int && is_pre(voc, w)))
            {
                continue;
            }
            // `p·v + rest op' 0`: `v op' -rest` (p = 1) or `v op'' rest` reversed (p = -1)
            let rest = d.add_scaled(&Lin::var(v), &-p.clone());
            let mut bound = rest.scale(&-p.recip());
            if strict {
                // over the integers `v < b` is `v <= b - 1`, `v > b` is `v >= b + 1`
                bound.constant += if p.is_positive() { -Q::one() } else { Q::one() };
            }
            if !bound.coef.values().all(|q| q.is_integer()) || !bound.constant.is_integer() {
                continue;
            }
            out.insert(BoundedFill {
                map: m.clone(),
                index: index.clone(),
                offset: offset.clone(),
                upper: p.is_positive(),
                bound: crate::smt::simplify(&bound.term()),
            });
        }
    });
}

/// `i` or `i + c` / `c + i` for a variable `i` and an integer constant `c`.
fn index_offset(t: &Term) -> Option<(Var, BigInt)> {
    if let Some(v) = t.as_var() {
        return Some((v.clone(), BigInt::from(0)));
    }
    match t.as_app() {
        Some((Op::Add, [a, b])) => match (a.as_var(), b.as_const(), b.as_var(), a.as_const()) {
            (Some(v), Some(Value::Int(c)), _, _) | (_, _, Some(v), Some(Value::Int(c))) => {
                Some((v.clone(), c.clone()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A map variable, or a cell of one (`a[c]`, `a[c][d]`) at quantifier-free indices.
fn is_map_path(m: &Term) -> bool {
    match m.as_app() {
        Some((Op::Select, [inner, idx])) => is_map_path(inner) && !idx.has_quantifier(),
        Some(_) => false,
        None => m.as_var().is_some(),
    }
}

/// Bounds of index ranges: the program's integer constants of smallest magnitude (and 0), then
/// its integer variables; and the constants.
fn bounds(voc: &Vocabulary, enc: &Encoded, letters: &[usize]) -> (Vec<BigInt>, Vec<Term>) {
    let mut consts: BTreeSet<BigInt> = BTreeSet::from([BigInt::from(0)]);
    let mut vars: BTreeSet<Var> = BTreeSet::new();
    for &a in letters {
        let f = &enc.letters[a].tf.formula;
        walk(f, &mut |t| {
            if let Some(Value::Int(c)) = t.as_const() {
                consts.insert(c.clone());
            }
        });
        for v in f.free_vars() {
            if v.sort == Sort::Int
                && let Some((x, false)) = voc.lookup(&v)
                && matches!(x, PVar::Var { .. })
            {
                vars.insert(v);
            }
        }
    }
    let mut cs: Vec<BigInt> = consts.into_iter().collect();
    cs.sort_by_key(|c| (c.magnitude().clone(), c < &BigInt::from(0)));
    cs.truncate(4);
    let mut out: Vec<Term> = cs.iter().cloned().map(Term::int).collect();
    out.extend(vars.iter().take(6).map(Term::var));
    (cs, out)
}

fn walk(t: &Term, f: &mut dyn FnMut(&Term)) {
    f(t);
    for a in t.args() {
        walk(a, f);
    }
}

/// At most this many instances of one quantified conjunct (see [`instantiate`]).
const MAX_INSTANCES: usize = 16;

/// The letters of `enc` with every quantified conjunct replaced by its instances at the cells
/// the rest of the letter reads: for a cell `m[at(k)]` of the body of `∀k. body` (`at` linear in
/// `k` with an integer coefficient `s`, `m` free of `k`) and a cell `m[t]` of the letter with
/// `t - at(0)` equal to `s` times a linear term `u`, the body at `k := u` (`∀k. 0 <= k < i ==>
/// #memory_int[b][o + 4 * k] == 1` read at `#memory_int[b][o + 4 * j]`: the instance at `j`).
/// Other quantified conjuncts are dropped. An instance `range ==> cell` whose range the rest of
/// the letter implies (asked in `session`) is the plain `cell`, an equality Karr's analysis reads.
/// Each letter is weakened (its quantifiers imply their instances, and a cell replaced by the
/// value an instance gives it keeps that instance as a conjunct), so what is inductive for these
/// letters is inductive for the originals; where all quantifiers are instantiated, the letters
/// are quantifier-free again, for the synthesis of the facts that need the quantified invariants
/// (`sum == i` of a loop summing cells a loop filled with 1).
pub fn instantiate(enc: &Encoded, session: &mut Session) -> Encoded {
    use crate::engine::termination::linear::{Lin, linear};
    let mut out = enc.clone();
    for letter in &mut out.letters {
        let mut conjuncts = Vec::new();
        let mut stack = vec![letter.tf.formula.clone()];
        while let Some(t) = stack.pop() {
            match t.as_app() {
                Some((Op::And, args)) => stack.extend(args.iter().rev().cloned()),
                _ => conjuncts.push(t),
            }
        }
        if !conjuncts.iter().any(Term::has_quantifier) {
            continue;
        }
        let (quantified, mut ground): (Vec<Term>, Vec<Term>) =
            conjuncts.into_iter().partition(Term::has_quantifier);
        // the cells the letter reads outside its quantifiers
        let mut cells: Vec<(Term, Lin)> = Vec::new();
        for g in &ground {
            walk(g, &mut |t| {
                if let Some((Op::Select, [_, i])) = t.as_app()
                    && let Some(l) = linear(i)
                    && !cells.iter().any(|(c, _)| c == t)
                {
                    cells.push((t.clone(), l));
                }
            });
        }
        let mut instances: Vec<(Option<Term>, Term)> = Vec::new();
        for q in &quantified {
            let TermKind::Quant(Quantifier::Forall, vars, body) = q.kind() else {
                continue;
            };
            let [k] = vars.as_slice() else { continue };
            if k.sort != Sort::Int || body.has_quantifier() {
                continue;
            }
            let mut made = 0;
            walk(body, &mut |t| {
                let Some((Op::Select, [m, at])) = t.as_app() else {
                    return;
                };
                if m.has_free_var(k) || !at.has_free_var(k) {
                    return;
                }
                let Some(la) = linear(at) else { return };
                let Some(s) = la.coef.get(k).cloned() else {
                    return;
                };
                let base = la.add_scaled(&Lin::var(k), &-s.clone());
                for (cell, lt) in &cells {
                    let Some((Op::Select, [m2, _])) = cell.as_app() else {
                        continue;
                    };
                    if m2 != m || made >= MAX_INSTANCES {
                        continue;
                    }
                    let d = lt.add_scaled(&base, &-num_rational::BigRational::one());
                    let u = d.scale(&s.recip());
                    if !u.constant.is_integer() || u.coef.values().any(|c| !c.is_integer()) {
                        continue;
                    }
                    let at_u = HashMap::from([(k.clone(), u.term())]);
                    let inst = |t: &Term| crate::smt::simplify(&t.substitute(&at_u));
                    let inst = match body.as_app() {
                        Some((Op::Implies, [range, cell])) => (Some(inst(range)), inst(cell)),
                        _ => (None, inst(body)),
                    };
                    if !instances.contains(&inst) {
                        instances.push(inst);
                        made += 1;
                    }
                }
            });
        }
        let rest = Term::and(ground.clone());
        // the cells whose value an instance gives outright, replaced by it in the letter
        let mut values: HashMap<u32, Term> = HashMap::new();
        let mut facts = Vec::new();
        for inst in instances {
            match inst {
                (Some(range), cell)
                    if super::invariants::implied_by(
                        session,
                        std::slice::from_ref(&rest),
                        &range,
                    ) =>
                {
                    if let Some((Op::Eq, [c, v])) = cell.as_app()
                        && c.is_app_of(&Op::Select)
                        && {
                            let mut reads = false;
                            walk(v, &mut |t| reads |= t.is_app_of(&Op::Select));
                            !reads
                        }
                    {
                        values.entry(c.id()).or_insert_with(|| v.clone());
                    }
                    facts.push(cell)
                }
                (Some(range), cell) => facts.push(Term::implies(&range, &cell)),
                (None, cell) => facts.push(cell),
            }
        }
        if !values.is_empty() {
            ground = ground
                .iter()
                .map(|g| super::arrays::replace(g, &values))
                .collect();
        }
        ground.extend(facts);
        letter.tf.formula = Term::and(ground);
    }
    out
}

/// The deadline has passed, or the thread was asked to stop ([`crate::cancel`]).
fn timed_out(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d) || crate::cancel::requested()
}

/// The greatest subset of `cands` inductive relative to `inv`; `None` if the budget runs out.
#[allow(clippy::type_complexity)]
fn houdini(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    inv: &Invariants,
    mut cands: BTreeMap<LocId, Vec<(usize, Var, Term)>>,
    session: &mut Session,
    limits: &Limits,
) -> Option<BTreeMap<LocId, Vec<(usize, Var, Term)>>> {
    let mut queries = 0;
    let mut queue: VecDeque<usize> = letters.iter().copied().collect();
    let mut queued: BTreeSet<usize> = letters.iter().copied().collect();
    let quantified = |qs: &[(usize, Var, Term)]| -> Vec<Term> {
        qs.iter()
            .map(|(_, k, b)| Term::forall(vec![k.clone()], b.clone()))
            .collect()
    };
    while let Some(a) = queue.pop_front() {
        queued.remove(&a);
        let letter = &enc.letters[a];
        let posts = cands.get(&letter.tgt).cloned().unwrap_or_default();
        if posts.is_empty() {
            continue;
        }
        if queries >= MAX_QUERIES.min(limits.max_queries) || timed_out(limits) {
            return None;
        }
        queries += 1;
        let pre = quantified(cands.get(&letter.src).map_or(&[][..], |v| v));
        let post_inv = primed(voc, &inv.term_at(letter.tgt), letter);
        // Each negated candidate at its own fresh constant: a model names the falsified ones.
        // A candidate is often false where the model falsifies another one: with the probe,
        // every candidate is also evaluated at the witness points of the falsified ones.
        let at = |j: usize, point: &Term| {
            let (_, k, body) = &posts[j];
            let inst = body.substitute(&HashMap::from([(k.clone(), point.clone())]));
            primed(voc, &inst, letter)
        };
        let witnesses: Vec<Term> = (0..posts.len())
            .map(|j| Term::var(&Var::new(format!("k!w{j}"), Sort::Int)))
            .collect();
        let instances: Vec<Term> = (0..posts.len()).map(|j| at(j, &witnesses[j])).collect();
        let probe = Probe {
            witnesses: &witnesses,
            at: &at,
        };
        let hyp = Term::and(vec![
            inv.term_at(letter.src),
            Term::and(pre),
            letter.tf.formula.clone(),
            post_inv.clone(),
        ]);
        let answer = ask(session, &hyp, &instances, Some(&probe), QUERY_LIMIT);
        let keep: Option<Vec<bool>> = match answer {
            Answer::Valid => None,
            Answer::Falsified(keep) => Some(keep),
            Answer::Unknown => {
                // One candidate at a time, each with only its own copy at the source as the
                // hypothesis (a cheaper query: most such invariants are inductive by themselves).
                let src = cands.get(&letter.src).cloned().unwrap_or_default();
                let mut keep = Vec::new();
                for (j, (id, _, _)) in posts.iter().enumerate() {
                    if queries >= MAX_QUERIES.min(limits.max_queries) || timed_out(limits) {
                        return None;
                    }
                    queries += 1;
                    let own = src
                        .iter()
                        .filter(|(i, _, _)| i == id)
                        .map(|(_, k, b)| Term::forall(vec![k.clone()], b.clone()))
                        .collect();
                    let hyp = Term::and(vec![
                        inv.term_at(letter.src),
                        Term::and(own),
                        letter.tf.formula.clone(),
                        post_inv.clone(),
                    ]);
                    keep.push(matches!(
                        ask(session, &hyp, &instances[j..j + 1], None, SINGLE_LIMIT),
                        Answer::Valid
                    ));
                }
                Some(keep)
            }
        };
        let Some(keep) = keep else { continue };
        let kept: Vec<(usize, Var, Term)> = posts
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(p, _)| p)
            .collect();
        cands.insert(letter.tgt, kept);
        for &b in std::iter::once(&a).chain(enc.out[letter.tgt].iter()) {
            if queued.insert(b) {
                queue.push_back(b);
            }
        }
    }
    cands.retain(|_, v| !v.is_empty());
    if super::cegar::debug() {
        eprintln!("  quantified Houdini: {queries} queries");
    }
    Some(cands)
}

/// Drops the kept candidates that the current model falsifies at the witness point of a
/// candidate it falsifies (`witness_values`: the model's values of `p.witnesses`).
fn probe_points(
    session: &mut Session,
    p: &Probe,
    witness_values: &[(Term, Value)],
    keep: &mut [bool],
) {
    let points: BTreeSet<BigInt> = keep
        .iter()
        .zip(witness_values)
        .filter_map(|(k, (_, v))| match v {
            Value::Int(i) if !*k => Some(i.clone()),
            _ => None,
        })
        .collect();
    let alive: Vec<usize> = (0..keep.len()).filter(|&j| keep[j]).collect();
    let mut terms = Vec::new();
    let mut owner = Vec::new();
    'fill: for pt in &points {
        let pt = Term::int(pt.clone());
        for &j in &alive {
            if terms.len() >= MAX_PROBES {
                break 'fill;
            }
            terms.push((p.at)(j, &pt));
            owner.push(j);
        }
    }
    if let Ok(vals) = session.get_values(&terms)
        && vals.len() == terms.len()
    {
        for ((_, v), j) in vals.iter().zip(owner) {
            if matches!(v, Value::Bool(false)) {
                keep[j] = false;
            }
        }
    }
}

enum Answer {
    /// `hyp ⇒ instances` holds.
    Valid,
    /// A model: which instances it keeps true (at least one is false).
    Falsified(Vec<bool>),
    Unknown,
}

/// The candidates of a query at other points: `at(j, p)` is candidate `j` (primed) at the index
/// `p`; `witnesses[j]` the constant at which the query negates candidate `j`.
struct Probe<'a> {
    witnesses: &'a [Term],
    at: &'a dyn Fn(usize, &Term) -> Term,
}

/// At most this many probe terms are evaluated in one model (candidates times distinct points).
const MAX_PROBES: usize = 2048;

/// Is `hyp ∧ ∨_j ¬instances_j` unsatisfiable (within `limit`)? On `sat`, which instances the model
/// keeps: with a `probe`, an instance is dropped also when the model falsifies its candidate at
/// the point where it falsifies another one (the model satisfies `hyp`, so such a candidate is not
/// inductive relative to the current set either, which is exactly Houdini's reason to drop one).
fn ask(
    session: &mut Session,
    hyp: &Term,
    instances: &[Term],
    probe: Option<&Probe>,
    limit: Duration,
) -> Answer {
    session.push();
    session.assert(hyp);
    session.assert(&Term::or(instances.iter().map(Term::not).collect()));
    let answer = match session.check_sat_within(limit) {
        SatResult::Unsat => Answer::Valid,
        SatResult::Sat => {
            // the instances' values and, with a probe, the witness points, in one request
            let mut asked = instances.to_vec();
            asked.extend(probe.iter().flat_map(|p| p.witnesses.iter().cloned()));
            match session.get_values(&asked) {
                Ok(vals) if vals.len() == asked.len() => {
                    let (inst, points) = vals.split_at(instances.len());
                    let mut keep: Vec<bool> = inst
                        .iter()
                        .map(|(_, v)| matches!(v, Value::Bool(true)))
                        .collect();
                    // The model falsifies the disjunction, so some instance must be false; be
                    // safe regardless.
                    if keep.iter().all(|k| *k) {
                        Answer::Falsified(vec![false; instances.len()])
                    } else {
                        if let Some(p) = probe {
                            probe_points(session, p, points, &mut keep);
                        }
                        Answer::Falsified(keep)
                    }
                }
                _ => Answer::Falsified(vec![false; instances.len()]),
            }
        }
        SatResult::Unknown(r) => {
            if super::cegar::debug() {
                eprintln!("  quantified Houdini: unknown ({r})");
            }
            Answer::Unknown
        }
    };
    session.pop();
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a` is 1 at index 3 and 0 elsewhere; of the candidates `a[k] <= 0`, `a[k] == 0`,
    /// `2 * a[k] <= 1`, `a[k] >= 0`, `a[k] <= 1` the first three are false exactly at 3. A model
    /// falsifies one of them at its witness point, 3, where it also falsifies the other two: all
    /// three are dropped in one query, the true ones kept.
    #[test]
    fn a_model_drops_every_candidate_false_at_a_witness_point() {
        let Some(mut session) = crate::smt::z3_for_tests("quantified Houdini tests") else {
            return;
        };
        let a = Term::var(&Var::new("a", Sort::array(Sort::Int, Sort::Int)));
        let i = Var::new("i", Sort::Int);
        let ti = Term::var(&i);
        let shape = Term::forall(
            vec![i.clone()],
            Term::eq(
                &Term::select(&a, &ti),
                &Term::ite(&Term::eq(&ti, &Term::int(3)), &Term::int(1), &Term::int(0)),
            ),
        );
        let k = Var::new("k", Sort::Int);
        let cell = Term::select(&a, &Term::var(&k));
        let bodies = [
            Term::le(&cell, &Term::int(0)),
            Term::eq(&cell, &Term::int(0)),
            Term::le(&Term::mul(vec![Term::int(2), cell.clone()]), &Term::int(1)),
            Term::ge(&cell, &Term::int(0)),
            Term::le(&cell, &Term::int(1)),
        ];
        let witnesses: Vec<Term> = (0..bodies.len())
            .map(|j| Term::var(&Var::new(format!("k!w{j}"), Sort::Int)))
            .collect();
        let at_point =
            |j: usize, p: &Term| bodies[j].substitute(&HashMap::from([(k.clone(), p.clone())]));
        let instances: Vec<Term> = (0..bodies.len())
            .map(|j| at_point(j, &witnesses[j]))
            .collect();
        let probe = Probe {
            witnesses: &witnesses,
            at: &at_point,
        };
        let limit = Duration::from_secs(5);
        match ask(&mut session, &shape, &instances, Some(&probe), limit) {
            Answer::Falsified(keep) => assert_eq!(keep, vec![false, false, false, true, true]),
            _ => panic!("the first three candidates are false at 3"),
        }
        // Without the probe only the candidates falsified at their own witness are dropped, and
        // the true ones are never dropped.
        match ask(&mut session, &shape, &instances, None, limit) {
            Answer::Falsified(keep) => {
                assert!(keep[3] && keep[4] && !(keep[0] && keep[1] && keep[2]))
            }
            _ => panic!("sat expected"),
        }
    }
}
