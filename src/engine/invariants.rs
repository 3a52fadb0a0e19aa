//! Invariant synthesis: a conjunction of linear facts at each location of the block-encoded
//! control-flow automaton that is *inductive* for the whole automaton, checked by the solver.
//!
//! Two steps:
//! 1. **Candidates.** (a) Affine equalities from Karr's analysis (M. Karr, "Affine relationships among
//!    variables of a program", Acta Informatica 6, 1976) over the integer program variables: an
//!    affine subspace per location in generator form (a point and a basis of directions, exact
//!    rationals), transition formulas interpreted as relations over pre, post and auxiliary
//!    variables (affine equalities intersect, disjunctions join, `t mod c` is read as `t` — a C
//!    conversion's wrap-around, assumed not to happen, which a wrong candidate's check catches —,
//!    everything else is ignored, which over-approximates), iterated to the fixpoint (each
//!    location's dimension only grows, so at most `n + 1` changes per location); also the equalities between two or more variables on a
//!    location's first visit (`x - y == 42` after `x := y + 42`), which a loop may keep through
//!    updates Karr cannot read (`x := (y + x) / 2`). (b) Templates over the integer constants `c`
//!    of the program: bounds `x <= c`, `x >= c`; for small programs also `x <= y`, congruences
//!    `x mod k == r` and ratios `y <= k * x`, `y >= k * x` for small constants `k`, and the same
//!    relations anchored at the location's first visit: `x - y`, `x + y` and `y - k * x` bounded
//!    above and below by their value there when it is one value (`y >= x + 17` for a loop entered
//!    with `x == 20 && y == 37` that adds to `y` at least what it adds to `x`). (c) Index
//!    splits for loops that update a map cell by cell at a loop counter `i` (`a[i] := e`, `e` may
//!    read `a[i]`), about a cell `a[t]` read elsewhere: `t >= i ==> a[t] == v` (not reached yet)
//!    and `t < i ==> a[t] == e[a[i] := v, i := t]` (passed), for values `v` among the constants, the
//!    variables and what an earlier loop leaves in the cell ([`index_splits`]); ranged forms for a
//!    loop over part of a map (`i0 <= t < i ==> …`, `t >= i && guard[i := t] ==> …`). (d) Witnesses
//!    of aggregations for loops that test `g(a[i])` at an up-stepped counter `i`:
//!    `t < i && g(a[t]) ==> c >= 1` for a count `c` ([`witness_splits`]). (e) Products of repeated
//!    addition: `z == i * b` for `z := z + b; i := i + 1`, `r == v * w` for `r := z` ([`products`]).
//!    (f) Cell deltas for cells that several loops (threads) add to at their counters: what the
//!    loops that have passed the cell added, `a[t] - Σ ite(t < i_f, d_f, 0)`, is the same for two
//!    maps read at one index, or equal to a value ([`cell_deltas`]). (g) With the map candidates
//!    (sequential safety): what the letters store, over the state after them (`#length[p] == 4 *
//!    n` after an allocation, [`store_equalities`]); the strides of variables that only step by
//!    constants (`p.offset % 4 == 0`, [`strides`]); the guards, also through an equivalence, and
//!    strict ones weakened by one (`p.offset <= 4 * n` for a loop while `p.offset < 4 * n`).
//!
//! The graph may be any encoded automaton ([`synthesize_on`]): the concurrent engine runs the
//! synthesis on the configurations of a program (every interleaving is a path there, so an
//! inductive invariant of a configuration holds whatever the other threads do), restricted to the
//! index splits, witnesses or products and what supports them ([`Limits::focus`]).
//! 2. **Houdini** (C. Flanagan, K. R. M. Leino: "Houdini, an annotation assistant for ESC/Java",
//!    FME 2001): the greatest subset of the candidates that is inductive. For every letter
//!    `a: l -> l'` the query `Inv(l) ∧ a ∧ ¬(∧ Inv(l')')` is posed; a model drops every candidate of
//!    `l'` it falsifies at once (one query per letter and round), an `unsat` answer accepts the
//!    letter, and an `unknown` one (a nonlinear letter; the query gets 1 s) is followed by one
//!    query per candidate, which keeps those proven and drops the others. The initial location
//!    carries no candidate (`true`), so initiation is the check of the letters leaving it.
//!
//! Invariant of the result: for every letter `a: l -> l'` of the encoded automaton reachable from the
//! initial location, the solver answered `unsat` for `Inv(l) ∧ a ∧ ¬Inv(l')'` with the final sets
//! (or `Inv(l')` is empty). Hence, by induction over the length of a run, every state a run reaches
//! at a location `l` satisfies `Inv(l)`. If the fixpoint is not reached within the query budget or
//! the deadline, the result is empty: nothing is claimed. Karr's analysis is only a source of
//! candidates; its correctness is not needed for soundness.
//!
//! Use ([`strengthen`]): conjoining `Inv(l)` to every letter leaving `l` removes only transitions
//! from unreachable states, so the set of feasible error traces is unchanged (a feasible trace of the
//! original letters reaches only states satisfying the invariants, so it is feasible with the
//! strengthened letters, and conversely each strengthened letter implies the original). Trace
//! abstraction over the strengthened letters is therefore sound for the original program;
//! counterexamples are re-validated on the original CFA edges regardless.

use super::blocks::{Encoded, Letter};
use super::cfa::{Cfa, LocId};
use super::hoare::primed;
use super::transition::{PVar, Vocabulary, pvars_of};
use crate::smt::{Op, SatResult, Session, Sort, Term, TermKind, Value, Var};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

type Q = BigRational;

/// Limits that keep the synthesis cheap.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Programs with more integer variables are skipped.
    pub max_vars: usize,
    /// At most this many candidates per location.
    pub max_candidates: usize,
    /// At most this many Houdini queries.
    pub max_queries: usize,
    /// At most this many distinct program constants in bound templates.
    pub max_constants: usize,
    /// Constants up to this value are also moduli (`x mod k == r`) and ratios (`y <= k * x`, k <= 4).
    pub max_modulus: u32,
    /// Time budget of Karr's analysis, in milliseconds (its partial result is still a candidate set).
    pub karr_ms: u64,
    /// Also propose boolean variables and bounds on the map cells the letters read (supporting
    /// invariants of ranking functions: `b` guarding a decrement, `a[k] >= 1` for `x := x - a[k]`).
    /// Off for safety, whose candidates and timings were measured without them.
    pub termination_candidates: bool,
    /// Also propose bounds on the map cells the letters read at flat indices (`m[p] >= 0`) and
    /// disequalities between the indices of one map's cells (`p != q`: distinct allocations) — the
    /// invariants of programs over a heap modelled as maps.
    pub map_candidates: bool,
    /// Which candidates: all, or (for the configurations of a concurrent program — many nodes
    /// whose other candidates the Karr seeds already cover) one kind with what supports it.
    pub focus: Focus,
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_vars: 40,
            max_candidates: 200,
            max_queries: 400,
            max_constants: 8,
            max_modulus: 8,
            karr_ms: 500,
            termination_candidates: false,
            map_candidates: false,
            focus: Focus::All,
            deadline: None,
        }
    }
}

/// The candidates [`synthesize_on`] proposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Every kind the limits allow.
    All,
    /// Index splits with what supports them — Karr's equalities, bounds by the two smallest
    /// constants, bounds between variables and the guards — and nothing at all when there is no
    /// split.
    Splits,
    /// Witnesses of counts ([`witness_splits`]) with Karr's equalities, bounds by the two
    /// smallest constants on the witnesses' variables and the guards over them, and nothing at
    /// all when there is no witness.
    Witnesses,
    /// Products of repeated addition ([`products`]) with Karr's equalities, bounds by the two
    /// smallest constants on their variables and the guards over them (also weakened by one:
    /// `i <= a` for `i < a`), and nothing at all when there is none.
    Products,
}

/// Proven invariants per location (terms over canonical pre-state variables), and counters.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    pub at: BTreeMap<LocId, Vec<Term>>,
    pub candidates: usize,
    pub queries: usize,
    /// How many of the invariants are of the kind [`Limits::focus`] names (all with
    /// [`Focus::All`]).
    pub focused: usize,
}

impl Invariants {
    pub fn is_empty(&self) -> bool {
        self.at.values().all(Vec::is_empty)
    }
    pub fn count(&self) -> usize {
        self.at.values().map(Vec::len).sum()
    }
    /// The conjunction at `l` (`true` if none).
    pub fn term_at(&self, l: LocId) -> Term {
        Term::and(self.at.get(&l).cloned().unwrap_or_default())
    }
}

/// Synthesises inductive invariants for the encoded automaton (see the module comment).
pub fn synthesize(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    session: &mut Session,
    limits: &Limits,
) -> Invariants {
    synthesize_on(voc, enc, &|l| cfa.error_of(l).is_none(), session, limits)
}

/// [`synthesize`] on any encoded graph (for example the configurations of a concurrent program):
/// candidates at the reachable nodes other than the initial one for which `wanted` holds.
pub fn synthesize_on(
    voc: &Vocabulary,
    enc: &Encoded,
    wanted: &dyn Fn(LocId) -> bool,
    session: &mut Session,
    limits: &Limits,
) -> Invariants {
    let reach = reachable(enc);
    let letters: Vec<usize> = reach.iter().flat_map(|l| enc.out[*l].clone()).collect();
    // Integer (and, for Karr's equalities, real) program variables mentioned by the letters.
    let mut vars: BTreeSet<PVar> = BTreeSet::new();
    let mut reals: BTreeSet<PVar> = BTreeSet::new();
    for &a in &letters {
        for x in enc.letters[a].tf.vars() {
            match voc.sort(x) {
                Ok(Sort::Int) => {
                    vars.insert(x);
                }
                Ok(Sort::Real) => {
                    reals.insert(x);
                }
                _ => {}
            }
        }
    }
    if (vars.is_empty() && reals.is_empty() && !limits.termination_candidates)
        || vars.len() + reals.len() > limits.max_vars
    {
        return Invariants::default();
    }
    let vars: Vec<PVar> = vars.into_iter().collect();
    // Karr's dimensions: the integers, then the reals (its equalities are over one sort).
    let numeric: Vec<PVar> = vars.iter().copied().chain(reals).collect();
    let targets: Vec<LocId> = reach
        .iter()
        .copied()
        .filter(|l| *l != enc.init && wanted(*l))
        .collect();
    let consts = constants(enc, &letters, limits.max_constants);
    // (Safety only: termination's candidates were measured without them.)
    // The index splits or the witnesses (with the guards that support them), the ids of the
    // focus kind among them, and (witnesses) the variables they mention: only those get bounds.
    let (splits, focus_ids, bounded): (Vec<Term>, BTreeSet<u32>, Option<BTreeSet<Var>>) =
        match limits.focus {
            _ if limits.termination_candidates => Default::default(),
            Focus::All | Focus::Splits => {
                let splits = index_splits(voc, enc, &letters, &consts, &vars);
                let ids = splits.iter().map(Term::id).collect();
                (splits, ids, None)
            }
            Focus::Witnesses => {
                let formulas = || letters.iter().map(|&a| &enc.letters[a].tf.formula);
                let reads = map_reads(voc, formulas(), 24, false);
                let mut out = witness_splits(voc, enc, &letters, &reads);
                let ids = out.iter().map(Term::id).collect();
                let mentioned: BTreeSet<Var> = out.iter().flat_map(Term::free_vars).collect();
                // (The guards over them: `m < N` bounds a cell that a loop up to `N` passes.)
                if !out.is_empty() {
                    out.extend(
                        guard_atoms(voc, formulas(), 32)
                            .into_iter()
                            .filter(|g| g.free_vars().iter().any(|v| mentioned.contains(v))),
                    );
                }
                (out, ids, Some(mentioned))
            }
            Focus::Products => {
                let mut out = products(voc, enc, &letters, &vars);
                let ids = out.iter().map(Term::id).collect();
                let mentioned: BTreeSet<Var> = out.iter().flat_map(Term::free_vars).collect();
                if !out.is_empty() {
                    let formulas = letters.iter().map(|&a| &enc.letters[a].tf.formula);
                    for g in guard_atoms(voc, formulas, 32) {
                        if !g.free_vars().iter().any(|v| mentioned.contains(v)) {
                            continue;
                        }
                        if let Some((Op::Le, [l, r])) = g.as_app() {
                            let weak = Term::le(&Term::sub(l, &Term::int(1)), r);
                            out.push(crate::smt::simplify(&weak));
                        }
                        out.push(g);
                    }
                }
                (out, ids, Some(mentioned))
            }
        };
    if limits.focus != Focus::All && splits.is_empty() {
        return Invariants::default();
    }
    // Karr's analysis only proposes candidates: stopping it early (time budget) is sound.
    let karr_stop = Instant::now() + std::time::Duration::from_millis(limits.karr_ms);
    let karr_stop = limits.deadline.map_or(karr_stop, |d| d.min(karr_stop));
    let (affine, entered) = karr(voc, enc, &reach, &letters, &numeric, karr_stop);
    let ranges = range_constants(enc, &letters);
    let atoms = if limits.termination_candidates {
        let formulas = || letters.iter().map(|&a| &enc.letters[a].tf.formula);
        let mut atoms = guard_atoms(voc, formulas(), 16);
        atoms.extend(disequality_atoms(voc, formulas(), 8));
        atoms.extend(real_guard_atoms(voc, formulas(), 8));
        atoms
    } else {
        Vec::new()
    };
    // The congruences the letters test (`x % 11 == 0`: moduli beyond the small multipliers).
    let congruences = if limits.focus == Focus::All {
        congruence_atoms(voc, letters.iter().map(|&a| &enc.letters[a].tf.formula), 16)
    } else {
        Vec::new()
    };
    // Equalities between variables of one uninterpreted sort (`y == x` when `y := x` before a
    // loop that only copies `y`).
    let same_sort = if limits.termination_candidates {
        uninterpreted_equalities(voc, enc, &letters, 12)
    } else {
        Vec::new()
    };
    let bools = if limits.termination_candidates {
        bool_vars(voc, enc, &letters, 8)
    } else {
        Vec::new()
    };
    let reads: Vec<Term> = if limits.termination_candidates || limits.map_candidates {
        map_reads(
            voc,
            letters.iter().map(|&a| &enc.letters[a].tf.formula),
            24,
            true,
        )
        .into_iter()
        .filter(|r| matches!(r.sort_ref(), Sort::Int | Sort::Bool))
        .collect()
    } else {
        Vec::new()
    };
    let distinct = if limits.map_candidates {
        distinct_indices(&reads, 200)
    } else {
        Vec::new()
    };
    // What the letters store (`#length[p] == 4 * n` after `#length[p] := 4 * n`), and in a program
    // over maps the strides of variables that only step by constants (`p.offset % 4 == 0`) and the
    // guards, strict ones also weakened by one (`p.offset <= 4 * n` for a loop while `p.offset < 4 *
    // n`).
    let stored = if limits.map_candidates && !limits.termination_candidates {
        let tfs = || letters.iter().map(|&a| &enc.letters[a].tf);
        let mut out = store_equalities(voc, tfs(), MAX_STORE_EQUALITIES);
        // Strides and guards only for programs over maps (a heap: pointer offsets step by an
        // object's size and are compared with an end); elsewhere the other templates cover them.
        let heap = !out.is_empty() || !reads.is_empty();
        if heap {
            out.extend(strides(voc, tfs(), &vars));
        }
        // (through `a <=> b`, whose atoms hold either way: a C comparison of pointers is
        // `same_object ==> (t == 1 <=> p.offset < q.offset)`)
        let formulas: Vec<Term> = tfs()
            .filter(|_| heap)
            .map(|tf| expand_iff(&tf.formula))
            .collect();
        for g in guard_atoms(voc, formulas.iter(), MAX_GUARDS) {
            if let Some((Op::Le, [l, r])) = g.as_app() {
                out.push(crate::smt::simplify(&Term::le(
                    &Term::sub(l, &Term::int(1)),
                    r,
                )));
            }
            out.push(g);
        }
        out
    } else {
        Vec::new()
    };
    // (Bounds by the two smallest constants only, no congruences or ratios.)
    let consts = if limits.focus != Focus::All {
        consts.into_iter().take(2).collect()
    } else {
        consts
    };
    let mut cands: BTreeMap<LocId, Vec<Term>> = BTreeMap::new();
    let mut total = 0;
    for &l in &targets {
        let mut cs: Vec<Term> = Vec::new();
        let mut seen: BTreeSet<u32> = BTreeSet::new();
        // Candidates stay unsimplified (`x <= c`), so that weaker bounds can be recognised later.
        let mut push = |t: Term, cs: &mut Vec<Term>| {
            if seen.insert(t.id()) {
                cs.push(t);
            }
        };
        if let Some(Some(space)) = affine.get(&l) {
            for (coef, c) in space.equalities() {
                if let Some(t) = equality_term(voc, &numeric, &coef, &c) {
                    push(t, &mut cs);
                }
            }
        }
        // The relations between variables on the location's first visit (`x - y == 42` after
        // `x := y + 42`), which a loop may keep through updates Karr cannot follow (`x := (y + x)
        // / 2`): the solver judges them.
        if let Some(space) = entered.get(&l) {
            for (coef, c) in space.equalities() {
                if coef.iter().filter(|q| !q.is_zero()).count() < 2 {
                    continue;
                }
                if let Some(t) = equality_term(voc, &numeric, &coef, &c) {
                    push(t, &mut cs);
                }
            }
        }
        for t in &stored {
            push(t.clone(), &mut cs);
        }
        // The comparisons the letters make (`assume x + y >= 0` before a loop: LassoRanker's
        // supporting invariants are often a stem's assumption).
        for a in atoms
            .iter()
            .chain(&same_sort)
            .chain(&distinct)
            .chain(&congruences)
        {
            push(a.clone(), &mut cs);
        }
        // Bounds, the constants of smallest magnitude first (truncation drops the largest).
        for c in &consts {
            for &x in &vars {
                let Ok(v) = voc.pre(x) else { continue };
                if bounded.as_ref().is_some_and(|b| !b.contains(&v)) {
                    continue;
                }
                let v = Term::var(&v);
                push(Term::le(&v, &Term::int(c.clone())), &mut cs);
                push(Term::ge(&v, &Term::int(c.clone())), &mut cs);
            }
        }
        let pairs = match limits.focus {
            Focus::All => vars.len() <= 8,
            Focus::Splits => vars.len() <= 12,
            Focus::Witnesses | Focus::Products => false,
        };
        // Relations between two variables anchored where the location is first entered (`y >= x +
        // 17` for a loop entered with `x == 20 && y == 37` that adds at least as much to `y` as to
        // `x`): when `x - y` (or `x + y`) has one value `v` on the first visit, `x - y <= v` and
        // `x - y >= v`.
        // (Beyond the candidate limit, at most `MAX_ANCHORED`: a heap program's addresses and
        // offsets are constants on entry, and their relations would displace the cells' bounds.)
        let mut anchored: Vec<Term> = Vec::new();
        if pairs {
            if let Some(space) = entered.get(&l) {
                for (i, &x) in vars.iter().enumerate() {
                    for (j, &y) in vars.iter().enumerate().skip(i + 1) {
                        let (Ok(a), Ok(b)) = (voc.pre(x), voc.pre(y)) else {
                            continue;
                        };
                        // `x - y` and `x + y` (a loop that moves one unit from `y` to `x`)
                        for sign in [-1, 1] {
                            let mut coef = vec![Q::zero(); numeric.len()];
                            coef[i] = Q::one();
                            coef[j] = Q::from_integer(BigInt::from(sign));
                            let Some(v) = space.constant_value(&coef) else {
                                continue;
                            };
                            if (sign < 0 && v.is_zero()) || !v.is_integer() {
                                continue;
                            }
                            let v = Term::int(v.to_integer());
                            let (lhs, rhs) = if sign < 0 {
                                (Term::var(&a), Term::add(vec![Term::var(&b), v]))
                            } else {
                                (Term::add(vec![Term::var(&a), Term::var(&b)]), v)
                            };
                            anchored.push(Term::le(&lhs, &rhs));
                            anchored.push(Term::ge(&lhs, &rhs));
                        }
                    }
                }
            }
        }
        if pairs {
            for &x in &vars {
                for &y in &vars {
                    if x < y {
                        if let (Ok(a), Ok(b)) = (voc.pre(x), voc.pre(y)) {
                            push(Term::le(&Term::var(&a), &Term::var(&b)), &mut cs);
                            push(Term::ge(&Term::var(&a), &Term::var(&b)), &mut cs);
                        }
                    }
                }
            }
        }
        // Small multipliers among the constants: congruences `x mod k == r` and ratios `y <= k * x`.
        let ks: Vec<BigInt> = consts
            .iter()
            .filter(|c| {
                limits.focus == Focus::All
                    && **c >= BigInt::from(2)
                    && **c <= BigInt::from(limits.max_modulus)
            })
            .cloned()
            .collect();
        if vars.len() <= 8 {
            for k in &ks {
                for &x in &vars {
                    let Ok(v) = voc.pre(x) else { continue };
                    let m = Term::modulo(&Term::var(&v), &Term::int(k.clone()));
                    let mut r = BigInt::zero();
                    while r < *k {
                        push(Term::eq(&m, &Term::int(r.clone())), &mut cs);
                        r += 1;
                    }
                }
            }
        }
        if vars.len() <= 6 {
            for k in ks.iter().filter(|k| **k <= BigInt::from(4)) {
                for (i, &x) in vars.iter().enumerate() {
                    for (j, &y) in vars.iter().enumerate() {
                        if let (true, Ok(a), Ok(b)) = (x != y, voc.pre(x), voc.pre(y)) {
                            let kx = Term::mul(vec![Term::int(k.clone()), Term::var(&a)]);
                            // (anchored at the first visit, as the differences above)
                            let v = entered.get(&l).and_then(|space| {
                                let mut coef = vec![Q::zero(); numeric.len()];
                                coef[j] = Q::one();
                                coef[i] = -Q::from_integer(k.clone());
                                space.constant_value(&coef)
                            });
                            if let Some(v) = v.filter(|v| !v.is_zero() && v.is_integer()) {
                                let kxv = Term::add(vec![kx.clone(), Term::int(v.to_integer())]);
                                anchored.push(Term::le(&Term::var(&b), &kxv));
                                anchored.push(Term::ge(&Term::var(&b), &kxv));
                            }
                            push(Term::le(&Term::var(&b), &kx), &mut cs);
                            push(Term::ge(&Term::var(&b), &kx), &mut cs);
                        }
                    }
                }
            }
        }
        // Last (truncation drops them first): boolean variables that keep their value (`b`
        // guarding a decrement in a loop).
        for b in &bools {
            push(b.clone(), &mut cs);
            push(Term::not(b), &mut cs);
        }
        // Bounds on the map cells the letters read (`a[k] >= 1`: the supporting invariant of a
        // loop that subtracts `a[k]`).
        for r in reads.iter().filter(|r| *r.sort_ref() == Sort::Bool) {
            push(r.clone(), &mut cs);
            push(Term::not(r), &mut cs);
        }
        // (The constants of smallest magnitude: there may be many cells.)
        // For termination beyond the limit (a cell's bound is the supporting invariant of a loop
        // that subtracts the cell, which the multipliers of many variables would displace), for
        // at most `MAX_TERMINATION_CELLS` cells; for safety last within it, for every cell.
        let cells = if limits.termination_candidates {
            MAX_TERMINATION_CELLS
        } else {
            usize::MAX
        };
        let mut cell_bounds = Vec::new();
        for c in consts.iter().take(4) {
            for r in reads
                .iter()
                .filter(|r| *r.sort_ref() == Sort::Int)
                .take(cells)
            {
                cell_bounds.push(Term::le(r, &Term::int(c.clone())));
                cell_bounds.push(Term::ge(r, &Term::int(c.clone())));
            }
        }
        if !limits.termination_candidates {
            for t in cell_bounds.drain(..) {
                push(t, &mut cs);
            }
        }
        cs.truncate(limits.max_candidates);
        for t in anchored.into_iter().take(MAX_ANCHORED) {
            push(t, &mut cs);
        }
        for t in cell_bounds {
            push(t, &mut cs);
        }
        // Beyond the limit too (they have their own caps, and only map loops have them): the
        // index splits.
        for t in &splits {
            push(t.clone(), &mut cs);
        }
        // Beyond the limit, so that they never displace the others: the ranges of machine
        // integers (`x <= 2^31 - 1`, `x >= -2^31`: the supporting invariant of a loop whose
        // increment must not overflow), for at most 16 variables.
        for c in &ranges {
            for &x in vars.iter().take(16) {
                let Ok(v) = voc.pre(x) else { continue };
                let v = Term::var(&v);
                push(Term::le(&v, &Term::int(c.clone())), &mut cs);
                push(Term::ge(&v, &Term::int(-c.clone())), &mut cs);
            }
        }
        total += cs.len();
        cands.insert(l, cs);
    }
    let mut result = houdini(voc, enc, &letters, cands, session, limits);
    result.candidates = total;
    for ts in result.at.values_mut() {
        *ts = drop_weaker_bounds(std::mem::take(ts));
    }
    // Drop invariants implied by earlier ones (equalities come first): smaller letters and proofs.
    // Any subset of the proven invariants is sound to use, so an unknown answer simply keeps one.
    // (Locations with the same invariants — many configurations — share one answer.)
    let mut done: HashMap<Vec<u32>, Vec<Term>> = HashMap::new();
    for ts in result.at.values_mut() {
        let key: Vec<u32> = ts.iter().map(Term::id).collect();
        if let Some(kept) = done.get(&key) {
            *ts = kept.clone();
            continue;
        }
        let mut kept: Vec<Term> = Vec::new();
        for t in std::mem::take(ts) {
            if !kept.is_empty() && result.queries < 2 * limits.max_queries && !timed_out(limits) {
                result.queries += 1;
                if implied_by(session, &kept, &t) {
                    continue;
                }
            }
            kept.push(t);
        }
        done.insert(key, kept.clone());
        *ts = kept;
    }
    result.focused = result
        .at
        .values()
        .flatten()
        .filter(|t| limits.focus == Focus::All || focus_ids.contains(&t.id()))
        .count();
    result
}

/// Relations anchored at a location's first visit, at most (beyond the candidate limit).
const MAX_ANCHORED: usize = 48;

/// Cells whose bounds are termination candidates beyond the candidate limit, at most.
const MAX_TERMINATION_CELLS: usize = 8;

/// The equations among the top-level conjuncts of the letters' formulas that are linear, each as
/// the difference of its sides (`l - r`, zero when the letter is taken).
fn letter_equations<'a>(
    enc: &'a Encoded,
    letters: &'a [usize],
) -> impl Iterator<Item = crate::engine::termination::linear::Lin> + 'a {
    letters.iter().flat_map(move |&a| {
        enc.letters[a]
            .tf
            .formula
            .conjuncts()
            .into_iter()
            .filter_map(|c| match c.as_app() {
                Some((Op::Eq, [l, r])) => {
                    crate::engine::termination::linear::linear(&Term::sub(l, r))
                }
                _ => None,
            })
    })
}

/// A counter's step in the linear equation `d = 0`: `p·x' - p·x + c = 0` with `p = ±1` and `c != 0`
/// (`x' = x - c / p`); the pre-state variable and whether it steps up.
fn counter_step(
    voc: &Vocabulary,
    d: &crate::engine::termination::linear::Lin,
) -> Option<(Var, bool)> {
    let [(x, p), (y, q)] = d.coef.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let (Some((px, bx)), Some((py, by))) = (voc.lookup(x), voc.lookup(y)) else {
        return None;
    };
    if d.constant.is_zero() || !(p + q).is_zero() || !p.abs().is_one() || px != py || bx == by {
        return None;
    }
    let up = (-&d.constant / if bx { p } else { q }).is_positive();
    Some((voc.pre(px).ok()?, up))
}

/// At most this many index-split candidates per round (see [`index_splits`]).
const MAX_SPLITS: usize = 48;

/// Index-split candidates for loops that update a map cell by cell, `a[i + c] := e` with `i` an
/// integer variable (a fill `a[i] := 0` or a map `a[i] := a[i] + 1`), about a cell `a[t]` the
/// letters read at an index `t` free of `i` (a constant or another variable): the cells the loop has
/// not reached keep a value `v`, the ones it has passed hold `e` computed from `v` —
/// `t >= i + c ==> a[t] == v` and `t < i + c ==> a[t] == e[a[i + c] := v]` (an ascending loop; the
/// mirror images for a descending one), for `v` among the program's integer constants and integer
/// variables other than `i` (first round) and the values the first round's loops leave in a cell
/// (second round: a later loop over the same cells). Together they are inductive for such a loop (a
/// step writes the cell `t` exactly when `t = i + c`, turning `v` into `e`), and no single-cell
/// interpolant of an unrolled trace generalises to them. `i` must be a loop counter (some letter
/// steps it by a constant), and only the forms of the directions it is stepped in are proposed
/// (each strict and non-strict: between the write and the step the cell `i + c` is passed already).
///
/// Ranged forms, for a loop over part of a map whose other part another loop (another thread)
/// writes: the cells still ahead are `t >= i + c` that pass a guard `g` of the counter at
/// `i = t - c` (`t >= i && g[i := t - c] ==> a[t] == v`), the cells passed lie between the
/// counter's start `i0` (a value some letter assigns it) and `i + c`
/// (`i0 + c <= t && t < i + c ==> a[t] == e[…]`); plus `a[t] == v` itself (before the loop).
/// The guards that bound a split index or a counter (`k < N`) come last.
fn index_splits(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    consts: &[BigInt],
    vars: &[PVar],
) -> Vec<Term> {
    let mut fills = BTreeSet::new();
    for &a in letters {
        super::array_invariants::collect_fills(voc, &enc.letters[a].tf.formula, &mut fills);
    }
    // Loop counters: variables some letter steps by a constant (`i' - i = c`, `c != 0`); and the
    // values letters assign to variables (`i' = e`, `e` over pre-state variables other than `i`).
    // (With the directions they are stepped in: up, down.)
    let mut counters: BTreeMap<Var, (bool, bool)> = BTreeMap::new();
    let inits = assigned_values(voc, enc, letters);
    for d in letter_equations(enc, letters) {
        if let Some((pre, up)) = counter_step(voc, &d) {
            let dir = counters.entry(pre).or_default();
            if up {
                dir.0 = true;
            } else {
                dir.1 = true;
            }
        }
    }
    let fills: Vec<_> = fills
        .into_iter()
        .filter(|f| {
            f.map.as_var().is_some()
                && *f.map.sort_ref() == Sort::array(Sort::Int, Sort::Int)
                && counters.contains_key(&f.index)
        })
        .collect();
    if fills.is_empty() {
        return Vec::new();
    }
    let reads = map_reads(
        voc,
        letters.iter().map(|&a| &enc.letters[a].tf.formula),
        24,
        false,
    );
    // Pairs of a fill and a cell it may write.
    let mut pairs: Vec<(&super::array_invariants::Fill, &Term, &Term)> = Vec::new();
    for f in &fills {
        for r in &reads {
            if let Some((Op::Select, [m, t])) = r.as_app()
                && *m == f.map
                && !t.has_free_var(&f.index)
                && t.free_vars().iter().all(|v| v.sort == Sort::Int)
            {
                pairs.push((f, r, t));
            }
        }
    }
    // Cells at a fixed index first (`A[k]`), before the cells another loop steps through.
    pairs.sort_by_key(|(_, _, t)| t.free_vars().iter().any(|v| counters.contains_key(v)));
    let passed = |f: &super::array_invariants::Fill, t: &Term, at: &Term, v: &Term| {
        let cell = Term::select(&f.map, at);
        let e = super::arrays::replace(&f.value, &HashMap::from([(cell.id(), v.clone())]));
        let shift = crate::smt::simplify(&Term::sub(t, &Term::int(f.offset.clone())));
        let p = e.substitute(&HashMap::from([(f.index.clone(), shift)]));
        (!p.has_free_var(&f.index)).then(|| crate::smt::simplify(&p))
    };
    // The values a cell may keep: constants and variables, then (for a later loop over the same
    // cells) what an earlier loop leaves in them.
    let mut values: Vec<Term> = consts
        .iter()
        .map(|c| Term::int(c.clone()))
        .chain(
            vars.iter()
                .filter_map(|&x| voc.pre(x).ok())
                .filter(|v| !counters.contains_key(v))
                .map(|v| Term::var(&v)),
        )
        .collect();
    // Variables that meet a fill's map in a conjunct (`x := A[k]`) are the likeliest values: first.
    let related: BTreeSet<Var> = letters
        .iter()
        .flat_map(|&a| enc.letters[a].tf.formula.conjuncts())
        .filter(|c| fills.iter().any(|f| reads_map(c, &f.map)))
        .flat_map(|c| c.free_vars())
        .filter_map(|v| voc.lookup(&v).and_then(|(x, _)| voc.pre(x).ok()))
        .collect();
    values.sort_by_key(|v| !v.as_var().is_some_and(|x| related.contains(x)));
    let first_values = values.clone();
    let mut out: Vec<Term> = Vec::new();
    for round in 0..2 {
        let mut next: Vec<Term> = Vec::new();
        'pairs: for &(f, r, t) in &pairs {
            let at = fill_cell(f);
            for v in values.iter().filter(|v| !v.has_free_var(&f.index)) {
                let Some(p) = passed(f, t, &at, v) else {
                    continue;
                };
                let keeps = Term::eq(r, v);
                let holds = Term::eq(r, &p);
                let (up, down) = counters.get(&f.index).copied().unwrap_or_default();
                // At the loop head the cell `i + c` is next; between the write and the step it
                // is passed already (the strict and non-strict forms).
                if up {
                    out.push(Term::implies(&Term::ge(t, &at), &keeps));
                    out.push(Term::implies(&Term::lt(t, &at), &holds));
                    out.push(Term::implies(&Term::gt(t, &at), &keeps));
                    out.push(Term::implies(&Term::le(t, &at), &holds));
                }
                if down {
                    out.push(Term::implies(&Term::le(t, &at), &keeps));
                    out.push(Term::implies(&Term::gt(t, &at), &holds));
                    out.push(Term::implies(&Term::lt(t, &at), &keeps));
                    out.push(Term::implies(&Term::ge(t, &at), &holds));
                }
                if out.len() >= MAX_SPLITS * (round + 1) {
                    break 'pairs;
                }
                if round == 0 && !values.contains(&p) && !next.contains(&p) {
                    next.push(p);
                }
            }
        }
        values = next;
    }
    // Ranged splits, for loops over part of a map (two threads, each over its half): the cells the
    // loop will still write are those `t >= i + c` that pass the loop's guard at `i = t - c`, the
    // ones it has written lie between its start `i0 + c` and `i + c` (and mirrored).
    let guards = guard_atoms(voc, letters.iter().map(|&a| &enc.letters[a].tf.formula), 32);
    let mut ranged: Vec<Term> = Vec::new();
    for &(f, r, t) in &pairs {
        let (up, down) = counters.get(&f.index).copied().unwrap_or_default();
        let at = fill_cell(f);
        let shift = crate::smt::simplify(&Term::sub(t, &Term::int(f.offset.clone())));
        let to_cell = HashMap::from([(f.index.clone(), shift)]);
        let ahead: Vec<Term> = guards
            .iter()
            .filter(|g| g.has_free_var(&f.index))
            .map(|g| crate::smt::simplify(&g.substitute(&to_cell)))
            .collect();
        let starts: Vec<Term> = inits
            .get(&f.index)
            .into_iter()
            .flatten()
            .map(|lo| {
                crate::smt::simplify(&Term::add(vec![lo.clone(), Term::int(f.offset.clone())]))
            })
            .collect();
        let mut here: Vec<Term> = Vec::new();
        for v in first_values.iter().filter(|v| !v.has_free_var(&f.index)) {
            let Some(p) = passed(f, t, &at, v) else {
                continue;
            };
            let (keeps, holds) = (Term::eq(r, v), Term::eq(r, &p));
            // (Before the loop starts, every cell keeps its value.)
            here.push(keeps.clone());
            let sides = [
                (up, Term::ge(t, &at), Term::lt(t, &at)),
                (up, Term::gt(t, &at), Term::le(t, &at)),
                (down, Term::le(t, &at), Term::gt(t, &at)),
                (down, Term::lt(t, &at), Term::ge(t, &at)),
            ];
            for (_, ahead_side, _) in sides.iter().filter(|s| s.0) {
                for g in &ahead {
                    let range = Term::and(vec![ahead_side.clone(), g.clone()]);
                    here.push(Term::implies(&range, &keeps));
                }
            }
            for (i, (_, _, behind_side)) in sides.iter().enumerate().filter(|(_, s)| s.0) {
                for lo in &starts {
                    let from = if i < 2 {
                        Term::ge(t, lo)
                    } else {
                        Term::le(t, lo)
                    };
                    let range = Term::and(vec![from, behind_side.clone()]);
                    here.push(Term::implies(&range, &holds));
                }
            }
            if here.len() >= MAX_SPLITS / 2 {
                break;
            }
        }
        ranged.extend(here);
        if ranged.len() >= 2 * MAX_SPLITS {
            break;
        }
    }
    out.extend(ranged);
    out.extend(cell_deltas(voc, &fills, &counters, &reads, &first_values));
    // What bounds the split indices (`assume 0 <= k && k < N`): a cell `k < N` is passed when a
    // loop up to `N` ends; and the loops' own guards (`i < N` between the test and the write).
    let index_vars: BTreeSet<Var> = pairs
        .iter()
        .flat_map(|(f, _, t)| t.free_vars().into_iter().chain([f.index.clone()]))
        .collect();
    for a in guards {
        if a.free_vars().iter().any(|v| index_vars.contains(v)) && !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// The values letters assign to variables: `x' = e` for `e` over pre-state variables other than
/// `x` (by the pre-state name of `x`).
fn assigned_values(voc: &Vocabulary, enc: &Encoded, letters: &[usize]) -> BTreeMap<Var, Vec<Term>> {
    let mut inits: BTreeMap<Var, Vec<Term>> = BTreeMap::new();
    for d in letter_equations(enc, letters) {
        for (x, p) in &d.coef {
            let (true, Some((px, true))) = (p.abs().is_one(), voc.lookup(x)) else {
                continue;
            };
            let Ok(pre) = voc.pre(px) else { continue };
            let others_pre = d
                .coef
                .keys()
                .all(|y| y == x || (*y != pre && matches!(voc.lookup(y), Some((_, false)))));
            if others_pre {
                // `p·x' + rest = 0`, so `x' = -rest / p`.
                let rest = d.add_scaled(&crate::engine::termination::linear::Lin::var(x), &-p);
                let e = crate::smt::simplify(&rest.scale(&-p.recip()).term());
                let es = inits.entry(pre).or_default();
                if !es.contains(&e) {
                    es.push(e);
                }
            }
        }
    }
    inits
}

/// The index `i + c` of the cell a fill writes.
fn fill_cell(f: &super::array_invariants::Fill) -> Term {
    crate::smt::simplify(&Term::add(vec![
        Term::var(&f.index),
        Term::int(f.offset.clone()),
    ]))
}

/// At most this many cell-delta candidates (see [`cell_deltas`]).
const MAX_DELTAS: usize = 64;
/// At most this many additive loops writing the cells of one candidate (`3^n` variants).
const MAX_DELTA_FILLS: usize = 3;

/// How a cell-delta candidate counts one loop's addition (see [`cell_deltas`]).
#[derive(Clone, Copy)]
enum Tested {
    /// Passed when `t < i + c` (ascending): at the loop head.
    Strict,
    /// Passed when `t <= i + c`: between the write and the step.
    Weak,
    /// Not counted: before the loop (its counter not yet initialised).
    NotYet,
}

/// Cell-delta candidates for cells that several loops (several threads) add to, cell by cell at
/// their counters (`a[i + c] := a[i + c] + d`, `d` free of `a` and `i`): the cell `a[t]` has been
/// passed by exactly the loops with `t < i + c` (ascending; `t > i + c` descending), each adding its
/// `d` once, so `a[t] - Σ ite(t < i_f + c_f, d_f, 0)` keeps its value whatever the interleaving.
/// Proposed relationally for two maps read at the same index (`a[t] - Δa == b[t] - Δb`: `b := a`
/// before threads add 1 and 2 to `a` and 3 to `b`), and for one map with two or more such loops
/// against the values `v` (`a[t] - Δa == v`). Each loop's term is strict, non-strict (between the
/// write and the step the cell `i + c` is passed already) or absent (its thread not started):
/// every combination is a candidate, and Houdini keeps the ones of each location.
fn cell_deltas(
    voc: &Vocabulary,
    fills: &[super::array_invariants::Fill],
    counters: &BTreeMap<Var, (bool, bool)>,
    reads: &[Term],
    values: &[Term],
) -> Vec<Term> {
    // The additive loops: a fill whose value is its own cell plus an increment free of the map
    // and the counter, with the direction its counter steps in.
    let hole = Var::new("cell!delta", Sort::Int);
    let mut adds: Vec<(&super::array_invariants::Fill, Term, Term, bool)> = Vec::new();
    for f in fills {
        let (up, down) = counters.get(&f.index).copied().unwrap_or_default();
        if up == down {
            continue;
        }
        let at = fill_cell(f);
        let cell = Term::select(&f.map, &at);
        let e = super::arrays::replace(&f.value, &HashMap::from([(cell.id(), Term::var(&hole))]));
        let Some(lin) = crate::engine::termination::linear::linear(&e) else {
            continue;
        };
        if lin.coef.get(&hole).is_none_or(|c| !c.is_one()) {
            continue;
        }
        let d = lin
            .add_scaled(
                &crate::engine::termination::linear::Lin::var(&hole),
                &-Q::one(),
            )
            .term();
        let d = crate::smt::simplify(&d);
        if d.has_free_var(&f.index)
            || d.has_free_var(&hole)
            || reads_map(&d, &f.map)
            || d.free_vars()
                .iter()
                .any(|v| voc.lookup(v).is_none_or(|(_, post)| post))
        {
            continue;
        }
        adds.push((f, at, d, up));
    }
    if adds.is_empty() {
        return Vec::new();
    }
    // `Σ ite(t < i_f + c_f, d_f, 0)` over the loops of `m`, one per choice of strict tests.
    let sums = |m: &Term, t: &Term, test: &mut dyn FnMut() -> Tested| -> Vec<Term> {
        adds.iter()
            .filter(|(f, ..)| f.map == *m)
            .filter_map(|(_, at, d, up)| {
                let passed = match (*up, test()) {
                    (_, Tested::NotYet) => return None,
                    (true, Tested::Strict) => Term::lt(t, at),
                    (true, Tested::Weak) => Term::le(t, at),
                    (false, Tested::Strict) => Term::gt(t, at),
                    (false, Tested::Weak) => Term::ge(t, at),
                };
                Some(Term::ite(&passed, d, &Term::int(0)))
            })
            .collect()
    };
    let loops_of = |m: &Term| adds.iter().filter(|(f, ..)| f.map == *m).count();
    let cell = |r: &Term| match r.as_app() {
        Some((Op::Select, [m, t])) if t.free_vars().iter().all(|v| !counters.contains_key(v)) => {
            Some((m.clone(), t.clone()))
        }
        _ => None,
    };
    let mut out: Vec<Term> = Vec::new();
    for (x, r1) in reads.iter().enumerate() {
        let Some((m1, t1)) = cell(r1) else { continue };
        let n1 = loops_of(&m1);
        // Against another map's cell at the same index.
        for r2 in &reads[x + 1..] {
            let Some((m2, t2)) = cell(r2) else { continue };
            let n2 = loops_of(&m2);
            if t1 != t2 || m1 == m2 || n1 + n2 == 0 || n1 + n2 > MAX_DELTA_FILLS {
                continue;
            }
            out.extend(delta_variants(n1 + n2, |test| {
                let mut lhs = vec![r1.clone()];
                lhs.extend(sums(&m2, &t1, &mut *test));
                let mut rhs = vec![r2.clone()];
                rhs.extend(sums(&m1, &t1, &mut *test));
                Term::eq(&Term::add(lhs), &Term::add(rhs))
            }));
        }
        // Against a value, for a cell two or more loops add to.
        if (2..=MAX_DELTA_FILLS).contains(&n1) {
            for v in values.iter().take(4) {
                out.extend(delta_variants(n1, |test| {
                    let mut rhs = vec![v.clone()];
                    rhs.extend(sums(&m1, &t1, &mut *test));
                    Term::eq(r1, &Term::add(rhs))
                }));
            }
        }
        if out.len() >= MAX_DELTAS {
            break;
        }
    }
    out.truncate(MAX_DELTAS);
    out
}

/// The candidates `build` makes for every combination, over the `n` loops of a cell-delta
/// candidate, of a strict test, a non-strict one and none (a loop whose thread has not started
/// yet: its counter is not initialised); `build` asks for the loops' tests in order.
fn delta_variants(
    n: usize,
    mut build: impl FnMut(&mut dyn FnMut() -> Tested) -> Term,
) -> Vec<Term> {
    (0..3u32.pow(n as u32))
        .map(|code| {
            let mut rest = code;
            let mut test = || {
                let t = match rest % 3 {
                    0 => Tested::Strict,
                    1 => Tested::Weak,
                    _ => Tested::NotYet,
                };
                rest /= 3;
                t
            };
            build(&mut test)
        })
        .collect()
}

/// Visits each application in the terms once (a shared subterm once), depth first, the last
/// root first; `visit(term, op, args)` says whether to descend into its arguments.
fn walk<'a>(
    roots: impl Iterator<Item = &'a Term>,
    mut visit: impl FnMut(&Term, &Op, &[Term]) -> bool,
) {
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let mut stack: Vec<Term> = roots.cloned().collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if let Some((op, args)) = t.as_app()
            && visit(&t, op, args)
        {
            stack.extend(args.iter().cloned());
        }
    }
}

/// At most this many witness candidates (see [`witness_splits`]).
const MAX_WITNESSES: usize = 24;

/// Witness candidates for loops that step a counter `i` up and test the cell `a[i]` (`g(a[i])`,
/// e.g. `A[j] > 0` before a count), about a cell `a[t]` read elsewhere at an index free of `i`:
/// once the loop has passed `t` and `g(a[t])` holds, what the loop steps up has been stepped —
/// `t < i && g(a[t]) ==> c >= 1` (at the loop head) and `t <= i && g(a[t]) ==> c >= 1` (between the
/// test and the step), for each variable `c` some letter steps up and no letter uses as an index
/// (a count, not a loop counter). The invariant of an
/// aggregation (a count, a sum of positives, the largest index with a property) that an assertion
/// about one cell needs, whatever another thread does to the cells so long as `g` of each stays.
fn witness_splits(voc: &Vocabulary, enc: &Encoded, letters: &[usize], reads: &[Term]) -> Vec<Term> {
    // What is stepped up anywhere in a letter (also on one branch: `if (g) { c := c + 1; }`).
    let mut stepped: BTreeSet<Var> = BTreeSet::new();
    // The variables that index a cell somewhere (loop counters: not what an aggregation counts).
    let mut indexing: BTreeSet<Var> = BTreeSet::new();
    let formulas = || letters.iter().map(|&a| &enc.letters[a].tf.formula);
    walk(formulas(), |_, op, args| {
        if let (Op::Select, [_, index]) | (Op::Store, [_, index, _]) = (op, args)
            && let Some(x) = index.as_var()
            && let Some((px, _)) = voc.lookup(x)
            && let Ok(pre) = voc.pre(px)
        {
            indexing.insert(pre);
        }
        if *op == Op::Eq
            && let [l, r] = args
            && let Some(d) = crate::engine::termination::linear::linear(&Term::sub(l, r))
            && let Some((pre, true)) = counter_step(voc, &d)
        {
            stepped.insert(pre);
        }
        true
    });
    // Tests of a cell at an up-stepped counter, over pre-state variables: (atom, map, counter).
    let mut tests: Vec<(Term, Term, Var)> = Vec::new();
    walk(formulas(), |t, op, args| {
        let comparison = matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq)
            && args.iter().all(|a| *a.sort_ref() == Sort::Int);
        if !comparison {
            return true;
        }
        let pre_only = t
            .free_vars_ref()
            .iter()
            .all(|v| matches!(voc.lookup(v), Some((_, false))));
        if !pre_only {
            return false;
        }
        let mut sub: Vec<Term> = args.to_vec();
        while let Some(u) = sub.pop() {
            if let Some((Op::Select, [m, i])) = u.as_app()
                && let Some(iv) = i.as_var()
                && stepped.contains(iv)
                && !tests.iter().any(|(a, _, _)| a == t)
            {
                tests.push((t.clone(), m.clone(), iv.clone()));
            }
            if let Some((_, xs)) = u.as_app() {
                sub.extend(xs.iter().cloned());
            }
        }
        false
    });
    let mut out = Vec::new();
    for (g, m, i) in &tests {
        let ti = Term::var(i);
        for r in reads {
            let Some((Op::Select, [rm, t])) = r.as_app() else {
                continue;
            };
            // (A cell at a fixed index: one no loop steps through.)
            let fixed = t
                .free_vars()
                .iter()
                .all(|v| v.sort == Sort::Int && !stepped.contains(v));
            if rm != m || !fixed {
                continue;
            }
            let g_t = crate::smt::simplify(&g.substitute(&HashMap::from([(i.clone(), t.clone())])));
            for c in stepped.iter().filter(|c| !indexing.contains(*c)) {
                let stepped = Term::ge(&Term::var(c), &Term::int(1));
                for passed in [Term::lt(t, &ti), Term::le(t, &ti)] {
                    let range = Term::and(vec![passed, g_t.clone()]);
                    out.push(Term::implies(&range, &stepped));
                }
                if out.len() >= MAX_WITNESSES {
                    return out;
                }
            }
        }
    }
    out
}

/// At most this many product candidates (see [`products`]).
const MAX_PRODUCTS: usize = 64;

/// Product candidates for loops that add a variable `b` to an accumulator `z` (`z := z + b`) and
/// step a counter `i` by one: `z == i * b` — multiplication by repeated
/// addition from `z = i = 0` (with `i <= a` from a loop guard `i < a`, the product `a * b` on exit).
/// And for a variable `u` that takes an accumulator's value (`u := z`, a join's assignment of a
/// thread's result), `u == v * w` for the other integer variables `v`, `w` (the product in the
/// forking thread's terms: `z1 == x * y`). No linear interpolant generalises an unrolled
/// trace of such a loop (Karr's analysis does not see it either: `b` is not a constant), while
/// the solver checks the candidates' inductiveness directly (`z + b == (i + 1) * b`).
fn products(voc: &Vocabulary, enc: &Encoded, letters: &[usize], vars: &[PVar]) -> Vec<Term> {
    let mut accumulators: BTreeSet<(Var, Var)> = BTreeSet::new();
    let mut counters: BTreeSet<Var> = BTreeSet::new();
    // (`u`, `z`): `u := z` with `z` pre-state.
    let mut copies: BTreeSet<(Var, Var)> = BTreeSet::new();
    for d in letter_equations(enc, letters) {
        let coef: Vec<(&Var, &Q)> = d.coef.iter().collect();
        // The post-state variable, with coefficient `p`; every other one pre-state.
        let posts: Vec<(PVar, &Q)> = coef
            .iter()
            .filter_map(|(v, p)| match voc.lookup(v) {
                Some((x, true)) => Some((x, *p)),
                _ => None,
            })
            .collect();
        let [(x, p)] = posts[..] else { continue };
        let Ok(pre) = voc.pre(x) else { continue };
        let others: Vec<(&Var, &Q)> = coef
            .iter()
            .filter(|(v, _)| **v != pre && voc.lookup(v).is_some_and(|(_, post)| !post))
            .copied()
            .collect();
        // `p·x' - p·z = 0` with no pre-state `x`: a copy.
        if !d.coef.contains_key(&pre)
            && d.constant.is_zero()
            && let [(z, q)] = others[..]
            && *q == -p
        {
            copies.insert((pre, z.clone()));
            continue;
        }
        // `p·x' - p·x - p·rest = 0`: the pre-state `x` with coefficient `-p`.
        if d.coef.get(&pre) != Some(&-p) {
            continue;
        }
        match (&others[..], d.constant.is_zero()) {
            ([], false) if (-&d.constant / p).is_one() => {
                counters.insert(pre);
            }
            ([(b, q)], true) if (*q / p) == -Q::one() => {
                accumulators.insert((pre, (*b).clone()));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (z, b) in &accumulators {
        if z.sort != Sort::Int || b.sort != Sort::Int || counters.contains(b) {
            continue;
        }
        for i in counters.iter().filter(|i| *i != z && *i != b) {
            out.push(Term::eq(
                &Term::var(z),
                &Term::mul(vec![Term::var(i), Term::var(b)]),
            ));
        }
    }
    out.truncate(MAX_PRODUCTS / 2);
    let zs: BTreeSet<&Var> = accumulators.iter().map(|(z, _)| z).collect();
    let factors: Vec<Var> = vars
        .iter()
        .filter_map(|x| voc.pre(*x).ok())
        .filter(|v| {
            v.sort == Sort::Int
                && !zs.contains(v)
                && !counters.contains(v)
                && !copies.iter().any(|(u, _)| u == v)
        })
        .collect();
    for (u, _) in copies.iter().filter(|(_, z)| zs.contains(z)) {
        for (k, v) in factors.iter().enumerate() {
            for w in &factors[k..] {
                let product = Term::mul(vec![Term::var(v), Term::var(w)]);
                out.push(Term::eq(&Term::var(u), &product));
            }
        }
    }
    out.truncate(MAX_PRODUCTS);
    out
}

/// Does `t` read the map `m` (a select whose map is `m`)? (Each shared subterm visited once.)
fn reads_map(t: &Term, m: &Term) -> bool {
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if let TermKind::App(op, args) = t.kind()
            && seen.insert(t.id())
        {
            if *op == Op::Select && args.first() == Some(m) {
                return true;
            }
            stack.extend(args.iter().cloned());
        }
    }
    false
}

/// The first `max` distinct linear comparisons over integer program variables that `formulas` make,
/// each over the pre-state names of its variables (an atom over post-state variables holds after its
/// letter); the negation of an atom under a `not` is taken as it is written, strict integer
/// comparisons tightened (`x > y` as `x >= y + 1`).
pub(crate) fn guard_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
) -> Vec<Term> {
    comparison_atoms(voc, formulas, max, Sort::Int)
}

/// [`guard_atoms`] over real program variables, strict comparisons kept strict (`assume y > 0.0`
/// before a loop `x := x - y`: the supporting invariant of its decrease by `y`).
pub(crate) fn real_guard_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
) -> Vec<Term> {
    comparison_atoms(voc, formulas, max, Sort::Real)
}

/// The comparisons `d op 0` over program variables of `sort` (`Int` or `Real`), see
/// [`guard_atoms`].
fn comparison_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
    sort: Sort,
) -> Vec<Term> {
    let int = sort == Sort::Int;
    collect_atoms(voc, formulas, max, sort, |t, op, args, positive| {
        if !matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt)
            || args.len() != 2
            || t.free_vars_ref().is_empty()
        {
            return None;
        }
        let d = crate::engine::termination::linear::linear(&Term::sub(&args[0], &args[1]))?.term();
        // `d op 0`, negated when under a `not`; as `d >= 0` or `d <= 0` over the integers.
        let op = if positive {
            op.clone()
        } else {
            match op {
                Op::Le => Op::Gt,
                Op::Lt => Op::Ge,
                Op::Ge => Op::Lt,
                _ => Op::Le,
            }
        };
        if int {
            let zero = Term::int(0);
            let one = Term::int(1);
            return Some(match op {
                Op::Le => Term::le(&d, &zero),
                Op::Lt => Term::le(&Term::add(vec![d.clone(), one]), &zero),
                Op::Ge => Term::ge(&d, &zero),
                _ => Term::ge(&d, &one),
            });
        }
        if *d.sort_ref() != Sort::Real {
            return None;
        }
        let zero = Term::real(BigRational::zero());
        Some(match op {
            Op::Le => Term::le(&d, &zero),
            Op::Lt => Term::lt(&d, &zero),
            Op::Ge => Term::ge(&d, &zero),
            _ => Term::gt(&d, &zero),
        })
    })
}

/// The atoms over program variables of `sort` only (`Int`, or `Real`) — all before or all after
/// their letter, no map read — under the `and`/`or`/`not` of `formulas`, each mapped by `atom` (its operator,
/// arguments and polarity) to a candidate, which is renamed to pre-state variables and
/// simplified; distinct non-constant candidates, at most `max`.
fn collect_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
    sort: Sort,
    mut atom: impl FnMut(&Term, &Op, &[Term], bool) -> Option<Term>,
) -> Vec<Term> {
    let mut atoms: Vec<Term> = Vec::new();
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let mut stack: Vec<(Term, bool)> = formulas.map(|t| (t.clone(), true)).collect();
    while let Some((t, positive)) = stack.pop() {
        if atoms.len() >= max {
            break;
        }
        if !seen.insert(t.id() * 2 + u32::from(positive)) {
            continue;
        }
        let TermKind::App(op, args) = t.kind() else {
            continue;
        };
        match op {
            Op::And | Op::Or => stack.extend(args.iter().map(|a| (a.clone(), positive))),
            Op::Not => stack.extend(args.iter().map(|a| (a.clone(), !positive))),
            _ => {
                let of_sort = args.iter().all(|a| *a.sort_ref() == sort);
                let sides: BTreeSet<Option<bool>> = t
                    .free_vars_ref()
                    .iter()
                    .map(|v| match voc.lookup(v) {
                        Some((x, post)) if voc.sort(x).as_ref() == Ok(&sort) => Some(post),
                        _ => None,
                    })
                    .collect();
                // Over program variables only, all before or all after the letter.
                let program_only = sides.len() == 1 && !sides.contains(&None);
                if !of_sort || !program_only || contains_select(&t) {
                    continue;
                }
                let Some(a) = atom(&t, op, args, positive) else {
                    continue;
                };
                let pre = a.rename(&|v| match voc.lookup(v) {
                    Some((x, true)) => voc.pre(x).ok(),
                    _ => None,
                });
                let pre = crate::smt::simplify(&pre);
                if !pre.is_true() && !pre.is_false() && !atoms.contains(&pre) {
                    atoms.push(pre);
                }
            }
        }
    }
    atoms
}

/// The congruences `e mod k == c` (`k`, `c` constants, `e` over integer program variables, all
/// before or all after the letter) that the letters test, over pre-state variables, at most `max`
/// (`assume x % 11 == 0` before a loop that doubles `x`: kept by it, and checked after it).
fn congruence_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
) -> Vec<Term> {
    collect_atoms(voc, formulas, max, Sort::Int, |t, op, args, _| {
        let modulus = |m: &Term| {
            matches!(m.as_app(), Some((Op::Mod, [_, k]))
                if matches!(k.as_const(), Some(Value::Int(k)) if *k > BigInt::one()))
        };
        let constant = |c: &Term| matches!(c.as_const(), Some(Value::Int(_)));
        let congruence = matches!(op, Op::Eq)
            && args.len() == 2
            && ((modulus(&args[0]) && constant(&args[1]))
                || (modulus(&args[1]) && constant(&args[0])));
        congruence.then(|| t.clone())
    })
}

/// The disequalities `d != 0` over integer program variables (all before or all after the letter)
/// that the letters assume, over pre-state variables, at most `max` (`assume i != j` in a stem:
/// the supporting invariant of a loop that stores at `j` and decreases `a[i]`).
fn disequality_atoms<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
) -> Vec<Term> {
    collect_atoms(voc, formulas, max, Sort::Int, |_, op, args, positive| {
        if !matches!(op, Op::Eq) || positive || args.len() != 2 {
            return None;
        }
        let d = crate::engine::termination::linear::linear(&Term::sub(&args[0], &args[1]))?;
        Some(Term::not(&Term::eq(&d.term(), &Term::int(0))))
    })
}

/// Equalities `x == y` between the (pre-state) program variables of one uninterpreted sort that the
/// letters mention, at most `max`.
fn uninterpreted_equalities(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    max: usize,
) -> Vec<Term> {
    let mut by_sort: BTreeMap<String, BTreeSet<PVar>> = BTreeMap::new();
    for &a in letters {
        for x in enc.letters[a].tf.vars() {
            if let Ok(sort @ Sort::Uninterpreted(..)) = voc.sort(x) {
                by_sort.entry(format!("{sort:?}")).or_default().insert(x);
            }
        }
    }
    let mut out = Vec::new();
    for xs in by_sort.values() {
        let xs: Vec<Var> = xs.iter().filter_map(|&x| voc.pre(x).ok()).collect();
        for (i, x) in xs.iter().enumerate() {
            for y in &xs[i + 1..] {
                if out.len() < max {
                    out.push(Term::eq(&Term::var(x), &Term::var(y)));
                }
            }
        }
    }
    out
}

/// `e1 != e2` for the distinct index terms of two single-index reads `m[e1]`, `m[e2]` of one map,
/// at most `max`.
fn distinct_indices(reads: &[Term], max: usize) -> Vec<Term> {
    let mut by_map: BTreeMap<u32, (Term, Vec<Term>)> = BTreeMap::new();
    for r in reads {
        if let Some((Op::Select, [m, e])) = r.as_app() {
            if m.as_var().is_some() {
                let entry = by_map
                    .entry(m.id())
                    .or_insert_with(|| (m.clone(), Vec::new()));
                if !entry.1.contains(e) {
                    entry.1.push(e.clone());
                }
            }
        }
    }
    let mut out = Vec::new();
    for (_, es) in by_map.values() {
        for (i, e) in es.iter().enumerate() {
            for f in &es[i + 1..] {
                if out.len() < max {
                    out.push(Term::not(&Term::eq(e, f)));
                }
            }
        }
    }
    out
}

/// The first `max` boolean program variables (pre-state) the letters mention.
fn bool_vars(voc: &Vocabulary, enc: &Encoded, letters: &[usize], max: usize) -> Vec<Term> {
    let mut bools: Vec<Term> = Vec::new();
    for &a in letters {
        for x in enc.letters[a].tf.vars() {
            if voc.sort(x) == Ok(Sort::Bool) && !voc.is_const(x) {
                if let Ok(v) = voc.pre(x) {
                    let t = Term::var(&v);
                    if !bools.contains(&t) && bools.len() < max {
                        bools.push(t);
                    }
                }
            }
        }
    }
    bools
}

/// `t` with every `a <=> b` (an equality of booleans) written `(a ∧ b) ∨ (¬a ∧ ¬b)`.
fn expand_iff(t: &Term) -> Term {
    match t.as_app() {
        Some((Op::Eq, [a, b])) if *a.sort_ref() == Sort::Bool => {
            let (a, b) = (expand_iff(a), expand_iff(b));
            Term::or(vec![
                Term::and(vec![a.clone(), b.clone()]),
                Term::and(vec![Term::not(&a), Term::not(&b)]),
            ])
        }
        Some((op @ (Op::And | Op::Or | Op::Not), args)) => {
            Term::app(op.clone(), args.iter().map(expand_iff).collect())
        }
        _ => t.clone(),
    }
}

/// Most candidates [`store_equalities`] proposes.
const MAX_STORE_EQUALITIES: usize = 16;
/// Most guards proposed with the map candidates (each also weakened by one).
const MAX_GUARDS: usize = 16;

/// Congruences of variables that only step by constants (P. Granger: "Static analysis of
/// arithmetical congruences", 1989, restricted to one variable): `x % g == r` when every letter
/// that writes `x` sets it to a constant or adds a constant to it (through copies within the
/// letter: `t := p; p := t + 4`), `g` the gcd (at least 2) of the steps and of the constants'
/// differences, `r` a constant's residue (or, without one, no candidate: the start is unknown).
fn strides<'a>(
    voc: &Vocabulary,
    letters: impl Iterator<Item = &'a super::transition::TransFormula>,
    vars: &[PVar],
) -> Vec<Term> {
    use num_integer::Integer;
    // Per letter: what it writes, and the `v' = e` definitions of its written variables as linear
    // forms (an equality is `Σ c·a = k` after simplification: solved for a post-state atom with a
    // unit coefficient).
    let letters: Vec<(&BTreeSet<PVar>, Defs)> = letters
        .map(|tf| (&tf.writes, definitions(voc, &tf.formula)))
        .collect();
    let mut out = Vec::new();
    'vars: for &x in vars {
        let Ok(pre) = voc.pre(x) else { continue };
        let mut g = BigInt::zero();
        let mut start: Option<BigInt> = None;
        for (_, defs) in letters.iter().filter(|(w, _)| w.contains(&x)) {
            match chase(voc, defs, x, x, &mut Vec::new()) {
                Some((step, true)) => g = g.gcd(&step),
                Some((value, false)) => match &start {
                    Some(s0) => g = g.gcd(&(&value - s0)),
                    None => start = Some(value),
                },
                None => continue 'vars,
            }
        }
        if let Some(s0) = start
            && g > BigInt::one()
        {
            let m = Term::modulo(&Term::var(&pre), &Term::int(g.clone()));
            out.push(Term::eq(&m, &Term::int(s0.mod_floor(&g))));
        }
    }
    out
}

/// The loop counters of the letters: the pre-state variables some letter steps by a non-zero
/// constant (through copies within the letter, as [`strides`] reads them), with the directions
/// they are stepped in (up, down).
pub(super) fn counters<'a>(
    voc: &Vocabulary,
    letters: impl Iterator<Item = &'a super::transition::TransFormula>,
) -> BTreeMap<Var, (bool, bool)> {
    let mut out: BTreeMap<Var, (bool, bool)> = BTreeMap::new();
    for tf in letters {
        if tf.writes.is_empty() {
            continue;
        }
        let defs = definitions(voc, &tf.formula);
        for &x in &tf.writes {
            let Some((step, true)) = chase(voc, &defs, x, x, &mut Vec::new()) else {
                continue;
            };
            let Ok(pre) = voc.pre(x) else { continue };
            if pre.sort != Sort::Int || step.is_zero() {
                continue;
            }
            let dir = out.entry(pre).or_default();
            if step.is_positive() {
                dir.0 = true;
            } else {
                dir.1 = true;
            }
        }
    }
    out
}

/// The linear definitions of a letter's post-state variables (see [`strides`]).
type Defs = HashMap<PVar, Vec<crate::smt::simplify::Lin>>;

fn definitions(voc: &Vocabulary, formula: &Term) -> Defs {
    let conjuncts: &[Term] = match formula.as_app() {
        Some((Op::And, args)) => args,
        _ => std::slice::from_ref(formula),
    };
    let mut defs = Defs::new();
    for c in conjuncts {
        let Some((Op::Eq, [l, r])) = c.as_app() else {
            continue;
        };
        if *l.sort_ref() != Sort::Int {
            continue;
        }
        let d = crate::smt::simplify::lin_of(&Term::sub(l, r));
        for (t, k) in d.terms.values() {
            let Some((y, true)) = t.as_var().and_then(|v| voc.lookup(v)) else {
                continue;
            };
            if !(k.is_one() || (-k).is_one()) {
                continue;
            }
            // y' = -(d - k·y') / k
            let mut rest = d.clone();
            rest.add_atom(t, -k.clone());
            rest.scale(&(-Q::one() / k));
            defs.entry(y).or_default().push(rest);
        }
    }
    defs
}

/// `cur'` (a post-state variable of the letter of `defs`) as the pre-state `x` plus a constant
/// (`(c, true)`) or as a constant (`(c, false)`), through at most four definitions.
fn chase(
    voc: &Vocabulary,
    defs: &Defs,
    x: PVar,
    cur: PVar,
    visited: &mut Vec<PVar>,
) -> Option<(BigInt, bool)> {
    if visited.len() > 4 || visited.contains(&cur) {
        return None;
    }
    visited.push(cur);
    let mut found = None;
    for l in defs.get(&cur).into_iter().flatten() {
        if !l.c.is_integer() {
            continue;
        }
        let c = l.c.to_integer();
        let terms: Vec<_> = l.terms.values().collect();
        found = match terms.as_slice() {
            [] => Some((c, false)),
            [(t, k)] if k.is_one() => match t.as_var().and_then(|v| voc.lookup(v)) {
                Some((y, false)) if y == x => Some((c, true)),
                // a copy made earlier in the letter
                Some((y, true)) => {
                    chase(voc, defs, x, y, visited).map(|(c2, stepped)| (c + c2, stepped))
                }
                _ => None,
            },
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    visited.pop();
    found
}

/// The equalities the letters' stores establish, over the state after the letter: `m[i] == e` for
/// a conjunct `m' == store(…store(m, i, e)…)` of a letter (or of one of its disjuncts) whose index and value mention only
/// variables after the letter (post-state variables, or pre-state ones of variables the letter
/// does not write), numbers or booleans stored at flat indices (`#length[p] == 4 * n` after `p :=
/// malloc(4 * n)`). A map that one letter allocates and no other writes keeps them; Houdini
/// judges every location.
/// How deep [`store_equalities`] looks into nested conjunctions and disjunctions.
const STORE_NESTING: usize = 32;

fn store_equalities<'a>(
    voc: &Vocabulary,
    letters: impl Iterator<Item = &'a super::transition::TransFormula>,
    max: usize,
) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    for tf in letters {
        // A term over the state after the letter, in canonical (pre-state) names.
        let after = |t: &Term| -> Option<Term> {
            if contains_select(t) || t.has_quantifier() {
                return None;
            }
            let mut map: HashMap<Var, Term> = HashMap::new();
            for v in t.free_vars_ref() {
                let (x, post) = voc.lookup(v)?;
                if !post && tf.writes.contains(&x) {
                    return None;
                }
                map.insert(v.clone(), Term::var(&voc.pre(x).ok()?));
            }
            Some(t.substitute(&map))
        };
        // The conjuncts, also those of the disjuncts (a store in one branch of a letter is a
        // candidate too: a loop's first iteration peeled before it allocates in branches).
        let mut conjuncts: Vec<Term> = Vec::new();
        let mut open = vec![(tf.formula.clone(), 0)];
        while let Some((t, depth)) = open.pop() {
            match t.as_app() {
                Some((Op::And | Op::Or, args)) if depth < STORE_NESTING => {
                    open.extend(args.iter().map(|a| (a.clone(), depth + 1)));
                }
                _ => conjuncts.push(t),
            }
        }
        for c in conjuncts {
            let Some((Op::Eq, [l, r])) = c.as_app() else {
                continue;
            };
            let (m, chain) = match (l.as_var(), r.as_var()) {
                (Some(v), _) if r.is_app_of(&Op::Store) => (v, r),
                (_, Some(v)) if l.is_app_of(&Op::Store) => (v, l),
                _ => continue,
            };
            let Some((x, true)) = voc.lookup(m) else {
                continue;
            };
            let Ok(pre) = voc.pre(x) else { continue };
            // The stores of the chain, with the cell they write: `m[b][o] := v` of a C memory
            // map is `store(m, b, store(select(m, b), o, v))` (inner rows up to three deep).
            let mut work: Vec<(&Term, Term)> = vec![(chain, Term::var(&pre))];
            while let Some((mut cur, row)) = work.pop() {
                while let Some((Op::Store, [inner, i, e])) = cur.as_app() {
                    cur = inner;
                    let Some(i) = after(i) else { continue };
                    let cell = Term::select(&row, &i);
                    if matches!(e.sort_ref(), Sort::Int | Sort::Bool) {
                        let Some(e) = after(e) else { continue };
                        let t = Term::eq(&cell, &e);
                        if out.len() < max && seen.insert(t.id()) {
                            out.push(t);
                        }
                    } else if e.is_app_of(&Op::Store) && work.len() < 3 {
                        work.push((e, cell));
                    }
                }
            }
        }
    }
    out
}

/// The reads `m[e]` of maps from numbers to numbers (to booleans too with `bool_elements`; `m` a program variable, `e` over numeric program
/// variables, pre-state, no read inside) that `formulas` make, the first `max` distinct ones; linear
/// indices in a canonical form (so that `1 + h` and `h + 1` are one read).
pub fn map_reads<'a>(
    voc: &Vocabulary,
    formulas: impl Iterator<Item = &'a Term>,
    max: usize,
    bool_elements: bool,
) -> Vec<Term> {
    let pre_numeric = |v: &Var| {
        matches!(voc.lookup(v), Some((_, false))) && matches!(v.sort, Sort::Int | Sort::Real)
    };
    let mut reads: Vec<Term> = Vec::new();
    let mut stack: Vec<Term> = formulas.cloned().collect();
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        let TermKind::App(op, args) = t.kind() else {
            continue;
        };
        stack.extend(args.iter().cloned());
        if *op != Op::Select || args.len() != 2 {
            continue;
        }
        // `m[e1]..[ek]`: a program map (pre-state) read at flat numeric indices, the last read
        // giving a number (or a boolean); `m[i, j]` is `select(select(m, i), j)`.
        let mut indices = vec![&args[1]];
        let mut root = &args[0];
        while let Some((Op::Select, [inner, i])) = root.as_app() {
            indices.push(i);
            root = inner;
        }
        indices.reverse();
        // The map: a program map, or an uninterpreted function of flat arguments (`f(i)[i]`).
        let root_ok = match root.as_app() {
            Some((Op::Uf(_), fargs)) => fargs
                .iter()
                .all(|e| e.free_vars_ref().iter().all(pre_numeric) && !contains_select(e)),
            _ => root
                .as_var()
                .is_some_and(|v| matches!(voc.lookup(v), Some((_, false)))),
        };
        if !root_ok {
            continue;
        }
        let root_sort = root.sort();
        let element_ok =
            t.sort_ref().is_numeric() || (bool_elements && *t.sort_ref() == Sort::Bool);
        let all_numeric_indices = {
            let mut sort = &root_sort;
            let mut ok = true;
            for _ in &indices {
                match sort {
                    Sort::Array(i, el) if i.is_numeric() => sort = el,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            ok
        };
        if !element_ok || !all_numeric_indices {
            continue;
        }
        let flat = indices
            .iter()
            .all(|e| e.free_vars_ref().iter().all(pre_numeric) && !contains_select(e));
        if !flat {
            continue;
        }
        let mut read = root.clone();
        for e in indices {
            let e = match crate::engine::termination::linear::linear(e) {
                Some(l) => crate::smt::simplify(&l.term()),
                None => e.clone(),
            };
            read = Term::select(&read, &e);
        }
        if !reads.contains(&read) && reads.len() < max {
            reads.push(read);
        }
    }
    reads
}

fn contains_select(t: &Term) -> bool {
    match t.kind() {
        TermKind::App(op, args) => *op == Op::Select || args.iter().any(contains_select),
        _ => false,
    }
}

/// Karr's affine equalities at each location of `enc` reachable from its initial location (but
/// that one), over its integer and real variables: *candidates* only, not checked by a solver. The
/// caller must check whatever it uses (the Floyd–Hoare automaton checks every transition).
pub fn affine_candidates(
    voc: &Vocabulary,
    enc: &Encoded,
    limits: &Limits,
) -> BTreeMap<LocId, Vec<Term>> {
    let reach = reachable(enc);
    let letters: Vec<usize> = reach.iter().flat_map(|l| enc.out[*l].clone()).collect();
    let mut numeric: BTreeSet<PVar> = BTreeSet::new();
    for &a in &letters {
        for x in enc.letters[a].tf.vars() {
            // (Thread ids are constants after their fork: no useful relation.)
            if !matches!(x, PVar::Tid { .. }) && matches!(voc.sort(x), Ok(Sort::Int | Sort::Real)) {
                numeric.insert(x);
            }
        }
    }
    if numeric.is_empty() || numeric.len() > limits.max_vars {
        return BTreeMap::new();
    }
    let numeric: Vec<PVar> = numeric.into_iter().collect();
    let stop = Instant::now() + std::time::Duration::from_millis(limits.karr_ms);
    let stop = limits.deadline.map_or(stop, |d| d.min(stop));
    let (affine, _) = karr(voc, enc, &reach, &letters, &numeric, stop);
    let mut out = BTreeMap::new();
    for (l, space) in affine {
        let Some(space) = space else { continue };
        if l == enc.init {
            continue;
        }
        let ts: Vec<Term> = space
            .equalities()
            .iter()
            .filter_map(|(coef, c)| equality_term(voc, &numeric, coef, c))
            .collect();
        if !ts.is_empty() {
            out.insert(l, ts);
        }
    }
    out
}

/// Conjoins `Inv(src)` to every letter (see the module comment for why this is sound).
pub fn strengthen(voc: &Vocabulary, enc: &Encoded, inv: &Invariants) -> Encoded {
    let mut out = enc.clone();
    for letter in &mut out.letters {
        let Some(ts) = inv.at.get(&letter.src) else {
            continue;
        };
        if ts.is_empty() {
            continue;
        }
        let guard = Term::and(ts.clone());
        letter.tf.reads.extend(pvars_of(voc, &guard));
        letter.tf.formula = Term::and(vec![guard, letter.tf.formula.clone()]);
    }
    out
}

fn reachable(enc: &Encoded) -> Vec<LocId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![enc.init];
    while let Some(l) = stack.pop() {
        if seen.insert(l) {
            for &a in &enc.out[l] {
                stack.push(enc.letters[a].tgt);
            }
        }
    }
    seen.into_iter().collect()
}

/// Integer constants of the letters and their negations (0 included), for the `max` smallest
/// magnitudes, smallest magnitude first.
fn constants(enc: &Encoded, letters: &[usize], max: usize) -> Vec<BigInt> {
    let mut found: BTreeSet<BigInt> = BTreeSet::new();
    found.insert(BigInt::zero());
    let mut seen = BTreeSet::new();
    for &a in letters {
        let mut stack = vec![enc.letters[a].tf.formula.clone()];
        while let Some(t) = stack.pop() {
            if seen.len() > 20_000 || !seen.insert(t.id()) {
                continue;
            }
            match t.kind() {
                TermKind::Const(Value::Int(i)) if i.abs() <= BigInt::from(1_000_000) => {
                    found.insert(i.abs());
                }
                TermKind::App(_, args) => stack.extend(args.iter().cloned()),
                _ => {}
            }
        }
    }
    found
        .into_iter()
        .take(max)
        .flat_map(|c| {
            if c.is_zero() {
                vec![c]
            } else {
                vec![c.clone(), -c]
            }
        })
        .collect()
}

/// The magnitudes above those of [`constants`] that bound machine integers (`2^k - 1` and `2^k`
/// for `k` in 16..=64) and occur in the letters, at most four, smallest first.
fn range_constants(enc: &Encoded, letters: &[usize]) -> Vec<BigInt> {
    let mut found: BTreeSet<BigInt> = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let is_range = |i: &BigInt| {
        let one = BigInt::from(1);
        (16..=64u32).any(|k| {
            let p = &one << k;
            *i == p || *i == &p - &one
        })
    };
    for &a in letters {
        let mut stack = vec![enc.letters[a].tf.formula.clone()];
        while let Some(t) = stack.pop() {
            if seen.len() > 20_000 || !seen.insert(t.id()) {
                continue;
            }
            match t.kind() {
                TermKind::Const(Value::Int(i))
                    if i.abs() > BigInt::from(1_000_000) && is_range(&i.abs()) =>
                {
                    found.insert(i.abs());
                }
                TermKind::App(_, args) => stack.extend(args.iter().cloned()),
                _ => {}
            }
        }
    }
    found.into_iter().take(4).collect()
}

/// Among `x <= c` (resp. `x >= c`) for the same `x`, only the tightest is kept.
fn drop_weaker_bounds(ts: Vec<Term>) -> Vec<Term> {
    // (var term, is upper) → tightest constant
    let bound = |t: &Term| -> Option<(u32, bool, BigInt)> {
        let (op, args) = t.as_app()?;
        if args.len() != 2 {
            return None;
        }
        let Some(Value::Int(c)) = args[1].as_const() else {
            return None;
        };
        args[0].as_var()?;
        match op {
            Op::Le => Some((args[0].id(), true, c.clone())),
            Op::Ge => Some((args[0].id(), false, c.clone())),
            _ => None,
        }
    };
    let mut best: HashMap<(u32, bool), BigInt> = HashMap::new();
    for t in &ts {
        if let Some((v, up, c)) = bound(t) {
            let e = best.entry((v, up)).or_insert_with(|| c.clone());
            if (up && c < *e) || (!up && c > *e) {
                *e = c;
            }
        }
    }
    ts.into_iter()
        .filter(|t| match bound(t) {
            Some((v, up, c)) => best.get(&(v, up)) == Some(&c),
            None => true,
        })
        .collect()
}

/// The deadline has passed, or the thread was asked to stop ([`crate::cancel`]).
fn timed_out(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d) || crate::cancel::requested()
}

/// The time limit of one Houdini query about all the open candidates of a letter, and of one about
/// a single candidate after the solver gave up on all of them.
const HOUDINI_QUERY: std::time::Duration = std::time::Duration::from_secs(1);
const HOUDINI_SINGLE: std::time::Duration = std::time::Duration::from_millis(250);

/// The greatest inductive subset of `cands` (empty if the budget runs out first).
///
/// A letter is checked against the candidates of its target that do not follow by the frame rule
/// (the source carries the candidate and the letter writes none of its variables); a model drops
/// the candidates it falsifies and the rest is checked again under the same asserted source and
/// letter until it follows (a self-loop, whose source shrinks with its target, is re-queued
/// instead).
fn houdini(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    mut cands: BTreeMap<LocId, Vec<Term>>,
    session: &mut Session,
    limits: &Limits,
) -> Invariants {
    let mut queries = 0;
    let mut queue: std::collections::VecDeque<usize> = letters.iter().copied().collect();
    let mut queued: BTreeSet<usize> = letters.iter().copied().collect();
    let mut failed = false;
    'letters: while let Some(a) = queue.pop_front() {
        queued.remove(&a);
        let letter = &enc.letters[a];
        let posts = cands.get(&letter.tgt).cloned().unwrap_or_default();
        let pre = cands.get(&letter.src).cloned().unwrap_or_default();
        let pre_ids: BTreeSet<u32> = pre.iter().map(Term::id).collect();
        let (framed, mut open): (Vec<Term>, Vec<Term>) = posts
            .into_iter()
            .partition(|p| pre_ids.contains(&p.id()) && primed(voc, p, letter) == *p);
        if open.is_empty() {
            continue;
        }
        session.push();
        session.assert(&Term::and(pre));
        session.assert(&letter.tf.formula);
        let mut shrunk = false;
        loop {
            if queries >= limits.max_queries || timed_out(limits) {
                failed = true;
                session.pop();
                break 'letters;
            }
            queries += 1;
            let primed_open: Vec<Term> = open.iter().map(|p| primed(voc, p, letter)).collect();
            session.push();
            session.assert(&Term::not(&Term::and(primed_open.clone())));
            let answer = session.check_sat_within(HOUDINI_QUERY);
            let keep: Option<Vec<bool>> = match answer {
                SatResult::Unsat => None,
                SatResult::Sat => match session.get_values(&primed_open) {
                    Ok(vals) if vals.len() == open.len() => Some(
                        vals.iter()
                            .map(|(_, v)| matches!(v, Value::Bool(true)))
                            .collect(),
                    ),
                    _ => Some(vec![false; open.len()]),
                },
                SatResult::Unknown(_) => Some(Vec::new()),
            };
            session.pop();
            // The solver gave up on the conjunction (a nonlinear letter): ask for each candidate
            // alone, keeping those it proves, rather than dropping them all.
            let keep = match keep {
                Some(k) if k.is_empty() => {
                    let mut k = Vec::with_capacity(primed_open.len());
                    for p in &primed_open {
                        if queries >= limits.max_queries || timed_out(limits) {
                            k.push(false);
                            continue;
                        }
                        queries += 1;
                        session.push();
                        session.assert(&Term::not(p));
                        k.push(matches!(
                            session.check_sat_within(HOUDINI_SINGLE),
                            SatResult::Unsat
                        ));
                        session.pop();
                    }
                    // (each candidate follows: so does their conjunction)
                    (!k.iter().all(|x| *x)).then_some(k)
                }
                other => other,
            };
            let Some(mut keep) = keep else { break };
            if keep.iter().all(|k| *k) {
                // The model falsifies the conjunction, so some value must be false; be safe
                // regardless.
                keep = vec![false; open.len()];
            }
            open = open
                .into_iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|(p, _)| p)
                .collect();
            shrunk = true;
            if letter.src == letter.tgt || open.is_empty() {
                break;
            }
        }
        session.pop();
        if !shrunk {
            continue;
        }
        let kept: BTreeSet<u32> = framed.iter().chain(&open).map(Term::id).collect();
        if let Some(ts) = cands.get_mut(&letter.tgt) {
            ts.retain(|t| kept.contains(&t.id()));
        }
        // The target's set shrank: recheck every letter leaving it (a self-loop among them).
        for &b in &enc.out[letter.tgt] {
            if queued.insert(b) {
                queue.push_back(b);
            }
        }
    }
    if failed {
        return Invariants {
            queries,
            ..Invariants::default()
        };
    }
    cands.retain(|_, v| !v.is_empty());
    Invariants {
        at: cands,
        candidates: 0,
        queries,
        focused: 0,
    }
}

// ---------------------------------------------------------------------------------------------
// Karr's analysis in generator form.

/// An affine subspace `{ point + Σ λ_i dirs_i }`; `dirs` linearly independent (reduced row echelon).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Affine {
    point: Vec<Q>,
    dirs: Vec<Vec<Q>>,
}

fn dot(a: &[Q], b: &[Q]) -> Q {
    a.iter()
        .zip(b)
        .filter(|(x, y)| !x.is_zero() && !y.is_zero())
        .map(|(x, y)| x * y)
        .sum()
}

/// Reduced row echelon form of the rows, zero rows removed.
fn rref(mut rows: Vec<Vec<Q>>, width: usize) -> Vec<Vec<Q>> {
    let mut r = 0;
    for c in 0..width {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][c].is_zero()) else {
            continue;
        };
        rows.swap(r, p);
        let inv = rows[r][c].recip();
        for x in rows[r].iter_mut().filter(|x| !x.is_zero()) {
            *x = &*x * &inv;
        }
        let pivot = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&pivot) {
                    if !y.is_zero() {
                        *x = &*x - &f * y;
                    }
                }
            }
        }
        r += 1;
        if r == rows.len() {
            break;
        }
    }
    rows.truncate(r);
    rows
}

impl Affine {
    /// The whole space of dimension `n`.
    fn top(n: usize) -> Affine {
        Affine {
            point: vec![Q::zero(); n],
            dirs: (0..n)
                .map(|i| {
                    let mut d = vec![Q::zero(); n];
                    d[i] = Q::one();
                    d
                })
                .collect(),
        }
    }

    fn dim(&self) -> usize {
        self.point.len()
    }

    /// The value of `coef · x` when it is the same at every point of the space.
    fn constant_value(&self, coef: &[Q]) -> Option<Q> {
        self.dirs
            .iter()
            .all(|d| dot(coef, d).is_zero())
            .then(|| dot(coef, &self.point))
    }

    fn join(&self, other: &Affine) -> Affine {
        let mut rows = self.dirs.clone();
        rows.extend(other.dirs.iter().cloned());
        rows.push(
            other
                .point
                .iter()
                .zip(&self.point)
                .map(|(a, b)| a - b)
                .collect(),
        );
        Affine {
            point: self.point.clone(),
            dirs: rref(rows, self.dim()),
        }
    }

    /// The intersection with `coef · x = c` (`None`: empty).
    fn meet(mut self, coef: &[Q], c: &Q) -> Option<Affine> {
        let Some(k) = self.dirs.iter().position(|d| !dot(coef, d).is_zero()) else {
            return if dot(coef, &self.point) == *c {
                Some(self)
            } else {
                None
            };
        };
        let d0 = self.dirs.remove(k);
        let ad0 = dot(coef, &d0);
        let t = (c - dot(coef, &self.point)) / &ad0;
        for (p, d) in self.point.iter_mut().zip(&d0) {
            if !d.is_zero() {
                *p = &*p + &t * d;
            }
        }
        let dirs = std::mem::take(&mut self.dirs)
            .into_iter()
            .map(|mut d: Vec<Q>| {
                let f = dot(coef, &d) / &ad0;
                if !f.is_zero() {
                    for (x, y) in d.iter_mut().zip(&d0) {
                        if !y.is_zero() {
                            *x = &*x - &f * y;
                        }
                    }
                }
                d
            })
            .collect();
        // (Still a basis: the directions were independent and `d0` is gone from each. The
        // result is not in reduced row echelon form; `transfer` and `join` reduce theirs.)
        self.dirs = dirs;
        Some(self)
    }

    /// A basis of the affine equalities `coef · x = c` that hold on the subspace.
    fn equalities(&self) -> Vec<(Vec<Q>, Q)> {
        let n = self.dim();
        let pivots: Vec<usize> = self
            .dirs
            .iter()
            .map(|d| d.iter().position(|x| !x.is_zero()).unwrap_or(n))
            .collect();
        let mut out = Vec::new();
        for j in 0..n {
            if pivots.contains(&j) {
                continue;
            }
            // coef_j = 1, coef_{pivot_i} = -dirs_i[j]: then coef · dirs_i = dirs_i[j] - dirs_i[j] = 0
            // because each row of the RREF has 1 at its pivot and 0 at the other pivots.
            let mut coef = vec![Q::zero(); n];
            coef[j] = Q::one();
            for (i, d) in self.dirs.iter().enumerate() {
                if pivots[i] < n {
                    coef[pivots[i]] = -d[j].clone();
                }
            }
            let c = dot(&coef, &self.point);
            out.push((coef, c));
        }
        out
    }
}

/// `coef · vars = c` as a term with integer coefficients (positive and negative sides apart).
fn equality_term(voc: &Vocabulary, vars: &[PVar], coef: &[Q], c: &Q) -> Option<Term> {
    // One sort: integers, or reals (an equality mixing them has no Boogie form without casts).
    let sorts: BTreeSet<Sort> = vars
        .iter()
        .zip(coef)
        .filter(|(_, q)| !q.is_zero())
        .filter_map(|(x, _)| voc.sort(*x).ok())
        .collect();
    if sorts.len() != 1 {
        return None;
    }
    let real = sorts.contains(&Sort::Real);
    let num = |k: BigInt| {
        if real {
            Term::real(Q::from_integer(k))
        } else {
            Term::int(k)
        }
    };
    let mut lcm = BigInt::one();
    for q in coef.iter().chain(std::iter::once(c)) {
        lcm = num_integer::Integer::lcm(&lcm, q.denom());
    }
    let scale = |q: &Q| -> BigInt { (q * Q::from_integer(lcm.clone())).to_integer() };
    let mut lhs = Vec::new();
    let mut rhs = Vec::new();
    for (x, q) in vars.iter().zip(coef) {
        if q.is_zero() {
            continue;
        }
        let k = scale(q);
        if k.bits() > 40 {
            return None;
        }
        let v = Term::var(&voc.pre(*x).ok()?);
        let mon = |k: BigInt| {
            if k.is_one() {
                v.clone()
            } else {
                Term::mul(vec![num(k), v.clone()])
            }
        };
        if k.is_positive() {
            lhs.push(mon(k));
        } else {
            rhs.push(mon(-k));
        }
    }
    let k = scale(c);
    if k.bits() > 40 {
        return None;
    }
    if !k.is_zero() {
        rhs.push(num(k));
    }
    let side = |v: Vec<Term>| match v.len() {
        0 => num(BigInt::zero()),
        1 => v.into_iter().next().unwrap_or_else(|| num(BigInt::zero())),
        _ => Term::add(v),
    };
    if lhs.is_empty() {
        return None; // a constant equation
    }
    Some(Term::eq(&side(lhs), &side(rhs)))
}

/// Karr's analysis over the encoded automaton: the affine hull of the reachable states per location
/// (`None`: unreachable) — an over-approximation up to the formulas it cannot read — and the hull
/// on each location's first visit (its entry from the locations before it, loops aside).
fn karr(
    voc: &Vocabulary,
    enc: &Encoded,
    reach: &[LocId],
    letters: &[usize],
    vars: &[PVar],
    stop: Instant,
) -> (BTreeMap<LocId, Option<Affine>>, BTreeMap<LocId, Affine>) {
    let n = vars.len();
    let mut entered: BTreeMap<LocId, Affine> = BTreeMap::new();
    let index: HashMap<PVar, usize> = vars.iter().enumerate().map(|(i, x)| (*x, i)).collect();
    let mut at: BTreeMap<LocId, Option<Affine>> = reach.iter().map(|l| (*l, None)).collect();
    let top = Affine::top(n);
    at.insert(enc.init, Some(top));
    let letter_set: BTreeSet<usize> = letters.iter().copied().collect();
    // The worklist in reverse postorder of a depth-first search from the initial location (a
    // location after its predecessors, loops aside): each location is visited about once per
    // change of its loop heads rather than once per change of any predecessor.
    let order: HashMap<LocId, usize> = {
        let mut post: Vec<LocId> = Vec::new();
        let mut seen: BTreeSet<LocId> = [enc.init].into();
        let mut stack: Vec<(LocId, usize)> = vec![(enc.init, 0)];
        while let Some((l, i)) = stack.pop() {
            if let Some(&a) = enc.out[l].get(i) {
                stack.push((l, i + 1));
                let t = enc.letters[a].tgt;
                if letter_set.contains(&a) && seen.insert(t) {
                    stack.push((t, 0));
                }
            } else {
                post.push(l);
            }
        }
        post.iter()
            .rev()
            .enumerate()
            .map(|(i, l)| (*l, i))
            .collect()
    };
    let rank = |l: LocId| order.get(&l).copied().unwrap_or(usize::MAX);
    let mut queue: BTreeSet<(usize, LocId)> = [(rank(enc.init), enc.init)].into();
    let mut steps = 0;
    while let Some((_, l)) = queue.pop_first() {
        steps += 1;
        if steps > 20 * (reach.len() + 1) * (n + 2)
            || Instant::now() >= stop
            || crate::cancel::requested()
        {
            break; // the step guard cannot trigger (each location's dimension grows)
        }
        let Some(Some(src)) = at.get(&l).cloned() else {
            continue;
        };
        for &a in &enc.out[l] {
            if !letter_set.contains(&a) {
                continue;
            }
            let letter = &enc.letters[a];
            let Some(post) = transfer(voc, letter, &index, &src, stop) else {
                continue;
            };
            let old = at.get(&letter.tgt).cloned().flatten();
            let new = match &old {
                None => post,
                Some(o) => o.join(&post),
            };
            let changed = match &old {
                None => true,
                Some(o) => o.dirs.len() != new.dirs.len(),
            };
            if changed {
                if old.is_none() {
                    entered.insert(letter.tgt, new.clone());
                }
                at.insert(letter.tgt, Some(new));
                queue.insert((rank(letter.tgt), letter.tgt));
            }
        }
    }
    (at, entered)
}

/// The image of `src` under the letter's relation (affine facts only).
fn transfer(
    voc: &Vocabulary,
    letter: &Letter,
    index: &HashMap<PVar, usize>,
    src: &Affine,
    stop: Instant,
) -> Option<Affine> {
    let n = index.len();
    // Joint dimensions: the pre-state (n), then the post-state of the written variables only
    // (the others keep their pre-state value: the frame costs no dimension), then the auxiliary
    // variables.
    let written: HashMap<usize, usize> = {
        let mut w: Vec<usize> = letter
            .tf
            .writes
            .iter()
            .filter_map(|x| index.get(x).copied())
            .collect();
        w.sort_unstable();
        w.dedup();
        w.into_iter().enumerate().map(|(k, i)| (i, n + k)).collect()
    };
    let aux: Vec<&Var> = letter
        .tf
        .aux
        .iter()
        .filter(|v| matches!(v.sort, Sort::Int | Sort::Real))
        .collect();
    let base = n + written.len();
    let width = base + aux.len();
    let aux_index: HashMap<&Var, usize> = aux
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, base + i))
        .collect();
    let dim_of = |v: &Var| -> Option<usize> {
        if let Some(i) = aux_index.get(v) {
            return Some(*i);
        }
        let (x, post) = voc.lookup(v)?;
        let i = *index.get(&x)?;
        Some(if post {
            written.get(&i).copied().unwrap_or(i)
        } else {
            i
        })
    };
    // pre = src, post and aux unconstrained
    let mut point = src.point.clone();
    point.resize(width, Q::zero());
    let mut dirs: Vec<Vec<Q>> = src
        .dirs
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.resize(width, Q::zero());
            d
        })
        .collect();
    for i in n..width {
        let mut d = vec![Q::zero(); width];
        d[i] = Q::one();
        dirs.push(d);
    }
    let joint = Affine { point, dirs };
    let mut budget = 5_000usize;
    let e = apply(&letter.tf.formula, joint, &dim_of, width, &mut budget, stop)?;
    // The post-state: a written variable's post dimension, an unwritten one's pre dimension.
    let post = |v: &[Q]| -> Vec<Q> {
        (0..n)
            .map(|i| v[written.get(&i).copied().unwrap_or(i)].clone())
            .collect()
    };
    let point = post(&e.point);
    let dirs = e.dirs.iter().map(|d| post(d)).collect();
    Some(Affine {
        point,
        dirs: rref(dirs, n),
    })
}

/// The affine hull of `e` restricted by the affine facts of `f`. Past `budget` nodes or `stop` the
/// rest of `f` is skipped: the result is then larger, still an over-approximation.
fn apply(
    f: &Term,
    e: Affine,
    dim_of: &dyn Fn(&Var) -> Option<usize>,
    width: usize,
    budget: &mut usize,
    stop: Instant,
) -> Option<Affine> {
    if *budget == 0 {
        return Some(e);
    }
    *budget -= 1;
    if *budget % 32 == 0 && (Instant::now() >= stop || crate::cancel::requested()) {
        *budget = 0;
        return Some(e);
    }
    if f.is_false() {
        return None;
    }
    let Some((op, args)) = f.as_app() else {
        return Some(e);
    };
    match op {
        Op::And => {
            let mut e = e;
            for a in args {
                e = apply(a, e, dim_of, width, budget, stop)?;
            }
            Some(e)
        }
        Op::Or => {
            let mut acc: Option<Affine> = None;
            for a in args {
                if let Some(r) = apply(a, e.clone(), dim_of, width, budget, stop) {
                    acc = Some(match acc {
                        None => r,
                        Some(x) => x.join(&r),
                    });
                }
            }
            acc
        }
        Op::Eq if args.len() >= 2 && matches!(args[0].sort(), Sort::Int | Sort::Real) => {
            let mut e = e;
            for w in args.windows(2) {
                let (Some((ca, ka)), Some((cb, kb))) =
                    (linear(&w[0], dim_of, width), linear(&w[1], dim_of, width))
                else {
                    continue;
                };
                let coef: Vec<Q> = ca.iter().zip(&cb).map(|(a, b)| a - b).collect();
                e = e.meet(&coef, &(kb - ka))?;
            }
            Some(e)
        }
        _ => Some(e),
    }
}

/// `t` as `coef · x + k` over the joint dimensions, if it is affine.
fn linear(t: &Term, dim_of: &dyn Fn(&Var) -> Option<usize>, width: usize) -> Option<(Vec<Q>, Q)> {
    match t.kind() {
        TermKind::Const(Value::Int(i)) => {
            Some((vec![Q::zero(); width], Q::from_integer(i.clone())))
        }
        TermKind::Const(Value::Real(q)) => Some((vec![Q::zero(); width], q.clone())),
        TermKind::Var(v) => {
            let mut c = vec![Q::zero(); width];
            c[dim_of(v)?] = Q::one();
            Some((c, Q::zero()))
        }
        TermKind::App(op, args) => {
            let ls: Vec<(Vec<Q>, Q)> = args
                .iter()
                .map(|a| linear(a, dim_of, width))
                .collect::<Option<_>>()?;
            let add = |a: &(Vec<Q>, Q), b: &(Vec<Q>, Q), s: &Q| -> (Vec<Q>, Q) {
                (
                    a.0.iter().zip(&b.0).map(|(x, y)| x + s * y).collect(),
                    &a.1 + s * &b.1,
                )
            };
            match op {
                Op::Add => {
                    let mut acc = (vec![Q::zero(); width], Q::zero());
                    for l in &ls {
                        acc = add(&acc, l, &Q::one());
                    }
                    Some(acc)
                }
                Op::Sub if !ls.is_empty() => {
                    let mut acc = ls[0].clone();
                    for l in &ls[1..] {
                        acc = add(&acc, l, &-Q::one());
                    }
                    Some(acc)
                }
                Op::Neg if ls.len() == 1 => {
                    let zero = (vec![Q::zero(); width], Q::zero());
                    Some(add(&zero, &ls[0], &-Q::one()))
                }
                // `t / c` for a nonzero constant `c`.
                Op::RealDiv if ls.len() == 2 && ls[1].0.iter().all(Zero::is_zero) => {
                    let c = &ls[1].1;
                    if c.is_zero() {
                        return None;
                    }
                    let inv = Q::one() / c;
                    Some((ls[0].0.iter().map(|x| x * &inv).collect(), &ls[0].1 * &inv))
                }
                Op::Mul => {
                    let mut acc = (vec![Q::zero(); width], Q::one());
                    let mut nonconst = false;
                    for l in &ls {
                        let l_const = l.0.iter().all(Zero::is_zero);
                        let acc_const = acc.0.iter().all(Zero::is_zero);
                        if l_const {
                            acc = (acc.0.iter().map(|x| x * &l.1).collect(), &acc.1 * &l.1);
                        } else if acc_const && !nonconst {
                            nonconst = true;
                            acc = (l.0.iter().map(|x| x * &acc.1).collect(), &l.1 * &acc.1);
                        } else {
                            return None;
                        }
                    }
                    Some(acc)
                }
                // `t mod c` for a constant `c > 0` read as `t`: the wrap-around of a C integer
                // conversion (`((c + 1 + 128) mod 256) - 128` for a `char` counter) seldom
                // happens where a loop's invariant lives, and what this suggests is only a
                // candidate (a wrong one fails its check)
                Op::Mod
                    if ls.len() == 2
                        && ls[1].0.iter().all(Zero::is_zero)
                        && ls[1].1.is_positive() =>
                {
                    Some(ls[0].clone())
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The affine and bound facts of the join of two predicates: a source of candidate predicates for
/// a location where two unwindings left the predicates `p` and `q` (e.g. `y = 0 ∧ r = x` and
/// `y = 1 ∧ r = x + 1` give `r = x + y` and `y >= 0`). Each linear conjunct `a <= b`, `a >= b`,
/// `a = b` of `p` and `q` over integer variables is read (everything else is ignored, which only
/// weakens the predicates); the result is the affine hull's equalities (Karr's join) and, for each
/// linear form bounded in both, the weaker bound. The facts are candidates only: the Floyd–Hoare
/// automaton checks every triple it uses them in.
pub fn hull_facts(voc: &Vocabulary, p: &Term, q: &Term) -> Vec<Term> {
    let mut vars: Vec<PVar> = pvars_of(voc, p)
        .into_iter()
        .chain(pvars_of(voc, q))
        .filter(|x| matches!(voc.sort(*x), Ok(Sort::Int)))
        .collect();
    vars.sort();
    vars.dedup();
    let n = vars.len();
    if n == 0 || n > 12 {
        return Vec::new();
    }
    let names: HashMap<Var, usize> = vars
        .iter()
        .enumerate()
        .filter_map(|(i, x)| Some((voc.pre(*x).ok()?, i)))
        .collect();
    let dim_of = |v: &Var| names.get(v).copied();
    // Upper bounds `coef · x <= c` of a predicate's linear conjuncts.
    let bounds = |t: &Term| -> Vec<(Vec<Q>, Q)> {
        let mut out = Vec::new();
        for c in t.conjuncts() {
            let Some((op, args)) = c.as_app() else {
                continue;
            };
            if args.len() != 2 {
                continue;
            }
            let (Some(a), Some(b)) = (linear(&args[0], &dim_of, n), linear(&args[1], &dim_of, n))
            else {
                continue;
            };
            // a - b as coef · x + k
            let d: Vec<Q> = a.0.iter().zip(&b.0).map(|(x, y)| x - y).collect();
            let k = &a.1 - &b.1;
            let neg = |v: &[Q]| v.iter().map(|x| -x).collect::<Vec<Q>>();
            match op {
                Op::Le => out.push((d, -k)),
                Op::Ge => out.push((neg(&d), k)),
                Op::Eq => {
                    out.push((d.clone(), -k.clone()));
                    out.push((neg(&d), k));
                }
                _ => {}
            }
        }
        out
    };
    // Normalise a bound so that its first nonzero coefficient is ±1 (equal forms compare equal).
    let normal = |(coef, c): (Vec<Q>, Q)| -> Option<(Vec<Q>, Q)> {
        let lead = coef.iter().find(|x| !x.is_zero())?.abs();
        Some((coef.iter().map(|x| x / &lead).collect(), c / lead))
    };
    let (bp, bq): (Vec<_>, Vec<_>) = (
        bounds(p).into_iter().filter_map(normal).collect(),
        bounds(q).into_iter().filter_map(normal).collect(),
    );
    let subspace = |bs: &[(Vec<Q>, Q)]| -> Option<Affine> {
        let mut a = Affine::top(n);
        for (coef, c) in bs {
            let minus: Vec<Q> = coef.iter().map(|x| -x).collect();
            if bs.iter().any(|(c2, k2)| *c2 == minus && *k2 == -c.clone()) {
                a = a.meet(coef, c)?;
            }
        }
        Some(a)
    };
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (subspace(&bp), subspace(&bq)) {
        for (coef, c) in a.join(&b).equalities() {
            if let Some(t) = equality_term(voc, &vars, &coef, &c) {
                out.push(t);
            }
        }
    }
    for (coef, c) in &bp {
        let Some((_, c2)) = bq.iter().find(|(k, _)| k == coef) else {
            continue;
        };
        let c = if c2 > c { c2 } else { c };
        // coef · x <= c with integer coefficients: scale by the coefficients' denominators.
        let mut lcm = BigInt::one();
        for q in coef {
            lcm = num_integer::Integer::lcm(&lcm, q.denom());
        }
        let scale = Q::from_integer(lcm);
        let mut lhs = Vec::new();
        for (x, k) in vars.iter().zip(coef) {
            if k.is_zero() {
                continue;
            }
            let Ok(v) = voc.pre(*x) else { continue };
            let k = (k * &scale).to_integer();
            lhs.push(Term::mul(vec![Term::int(k), Term::var(&v)]));
        }
        let bound = (c * &scale).floor().to_integer();
        out.push(crate::smt::simplify(&Term::le(
            &Term::add(lhs),
            &Term::int(bound),
        )));
    }
    out.sort();
    out.dedup();
    out
}

/// Does the conjunction of `hyps` imply `t`? (`unsat` of `hyps ∧ ¬t`; any other answer: no.)
pub(super) fn implied_by(session: &mut Session, hyps: &[Term], t: &Term) -> bool {
    session.push();
    session.assert(&Term::and(hyps.to_vec()));
    session.assert(&Term::not(t));
    let implied = session.check_sat() == SatResult::Unsat;
    session.pop();
    implied
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{BlockEncoding, blocks, cfa};

    fn z3() -> Option<Session> {
        crate::smt::z3_for_tests("invariant synthesis tests")
    }

    /// Synthesises invariants for `src` and re-checks every one of them separately in a fresh
    /// session; returns the invariants (printed) and the conjunction per location.
    fn check(src: &str, mode: BlockEncoding) -> Option<(Vec<String>, Invariants)> {
        check_with(src, mode, &Limits::default())
    }

    /// [`check`] with the given limits.
    fn check_with(
        src: &str,
        mode: BlockEncoding,
        limits: &Limits,
    ) -> Option<(Vec<String>, Invariants)> {
        let mut session = z3()?;
        let (ast, diags) = crate::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
        let (program, diags) = crate::ir::check(&ast);
        let program = program.unwrap_or_else(|| panic!("{diags:?}"));
        let voc = Vocabulary::new(&program);
        let cfa = cfa::build(&voc, 10_000).expect("cfa");
        let enc = blocks::encode(&cfa, &voc, mode).expect("encoding");
        let inv = synthesize(&voc, &cfa, &enc, &mut session, limits);
        let mut fresh = z3()?;
        for l in reachable(&enc) {
            for &a in &enc.out[l] {
                let letter = &enc.letters[a];
                for p in inv.at.get(&letter.tgt).into_iter().flatten() {
                    fresh.push();
                    fresh.assert(&inv.term_at(l));
                    fresh.assert(&letter.tf.formula);
                    fresh.assert(&Term::not(&primed(&voc, p, letter)));
                    let r = fresh.check_sat();
                    fresh.pop();
                    assert_eq!(
                        r,
                        SatResult::Unsat,
                        "not inductive: {} in\n{src}",
                        crate::engine::pretty::term(&voc, p)
                    );
                }
            }
        }
        let printed = inv
            .at
            .values()
            .flatten()
            .map(|t| crate::engine::pretty::term(&voc, t))
            .collect();
        Some((printed, inv))
    }

    #[test]
    fn witnesses_of_counts() {
        let witnesses = Limits {
            focus: Focus::Witnesses,
            ..Limits::default()
        };
        // A count of the positive cells, with the witness of a positive cell `a[m]` once passed.
        let src = "var a: [int]int; procedure p() { var m, j, c, n: int; \
                   assume 0 <= m && m < n; c := 0; j := 0; \
                   while (j < n) { if (a[j] > 0) { c := c + 1; } j := j + 1; } \
                   assert a[m] > 0 ==> c >= 1; }";
        let Some((printed, inv)) = check_with(src, BlockEncoding::Large, &witnesses) else {
            return;
        };
        assert!(
            printed
                .iter()
                .any(|s| s == "(m < j && a[m] >= 1) ==> c >= 1"),
            "{printed:?}"
        );
        assert!(inv.focused >= 1, "{printed:?}");
        // The count also goes down on a negative cell: no witness survives.
        let src = "var a: [int]int; procedure p() { var m, j, c, n: int; \
                   assume 0 <= m && m < n; c := 0; j := 0; \
                   while (j < n) { if (a[j] > 0) { c := c + 1; } \
                   if (a[j] < 0) { c := c - 1; } j := j + 1; } \
                   assert a[m] > 0 ==> c >= 1; }";
        let Some((printed, inv)) = check_with(src, BlockEncoding::Large, &witnesses) else {
            return;
        };
        assert!(printed.iter().all(|s| !s.contains("c >= 1")), "{printed:?}");
        assert_eq!(inv.focused, 0, "{printed:?}");
        // No loop tests a cell: nothing is proposed.
        let src = "procedure p() { var x: int; x := 0; while (x < 10) { x := x + 1; } }";
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &witnesses) else {
            return;
        };
        assert!(printed.is_empty(), "{printed:?}");
    }

    #[test]
    fn products_of_repeated_addition() {
        let products = Limits {
            focus: Focus::Products,
            ..Limits::default()
        };
        // Multiplication by repeated addition, its result copied: `z == i * b` in the loop,
        // `r == a * b` after it (where `z` is gone), with `i <= a` from the guard.
        let src = "procedure p() { var a, b, i, z, r: int; assume a >= 0; z := 0; i := 0; \
                   while (i < a) { z := z + b; i := i + 1; } r := z; z := 0; \
                   while (*) { } assert r == a * b; }";
        let Some((printed, inv)) = check_with(src, BlockEncoding::Large, &products) else {
            return;
        };
        assert!(printed.iter().any(|s| s == "z == i * b"), "{printed:?}");
        assert!(printed.iter().any(|s| s == "r == a * b"), "{printed:?}");
        assert!(printed.iter().any(|s| s == "i <= a"), "{printed:?}");
        assert!(inv.focused >= 2, "{printed:?}");
        // The counter steps by two: no product survives.
        let src = "procedure p() { var a, b, i, z, r: int; assume a >= 0; z := 0; i := 0; \
                   while (i < a) { z := z + b; i := i + 1; i := i + 1; } r := z; }";
        let Some((printed, inv)) = check_with(src, BlockEncoding::Large, &products) else {
            return;
        };
        assert!(printed.iter().all(|s| !s.contains('*')), "{printed:?}");
        assert_eq!(inv.focused, 0, "{printed:?}");
    }

    #[test]
    fn relational_equality_of_simultaneous_decrement() {
        let src = "procedure p() { var x, y, i, j: int; x := i; y := j; \
                   while (x != 0) { x := x - 1; y := y - 1; } \
                   if (i == j) { assert y == 0; } }";
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(printed.iter().any(|s| s == "x + j == y + i"), "{printed:?}");
    }

    #[test]
    fn equality_with_coefficient_and_bound() {
        let src = "procedure p() { var t, f: int; t := 0; f := 0; \
                   while (t < 100) { t := t + 1; f := f + 3; } assert f <= 1000; }";
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(printed.iter().any(|s| s == "f == 3 * t"), "{printed:?}");
        assert!(printed.iter().any(|s| s == "t <= 100"), "{printed:?}");
    }

    #[test]
    fn non_invariant_candidates_are_dropped() {
        // x == y holds initially but not after the loop body; x >= 0 is not inductive either.
        let src = "procedure p() { var x, y: int; x := 0; y := 0; \
                   while (*) { x := x + 1; y := y + 2; havoc y; x := x - 5; } assert x <= y; }";
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(
            printed.iter().all(|s| s != "y == x" && s != "x >= 0"),
            "{printed:?}"
        );
    }

    #[test]
    fn congruence_and_ratio_templates() {
        let src = "procedure p() { var x, y: int; x := 0; y := 0; \
                   while (x < 500) { x := x + 3; if (*) { y := y + 2; } else { y := y + 1; } } \
                   assert x == 501; }";
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(printed.iter().any(|s| s == "x % 3 == 0"), "{printed:?}");
        assert!(printed.iter().any(|s| s == "x <= 501"), "{printed:?}");
    }

    #[test]
    fn relations_anchored_at_the_loop_entry() {
        // Entered with `y - x == 17` and `y - 2 * x == -3`, the loop keeps `y >= x + 17` and
        // `y <= 2 * x - 3` (inequalities: Karr's equalities cannot say them); the unanchored
        // `y >= x` and `y <= 2 * x` are too weak for the assertions.
        let src = "procedure p() { var x, y: int; x := 20; y := 37; \
                   while (x < 1000) { if (*) { y := y + 2; } else { y := y + 1; } x := x + 1; } \
                   assert y >= x + 17; assert y <= 2 * x - 3; }";
        proves(src, &["x + 17 <= y", "y + 3 <= 2 * x"]);
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        // (the other directions do not hold, and nothing else is claimed)
        let mut all = printed.clone();
        all.sort();
        let expected = [
            "x + 17 <= y",
            "x <= y",
            "x >= 20",
            "y + 3 <= 2 * x",
            "y <= 2 * x",
            "y >= 37",
        ];
        assert_eq!(all, expected, "{printed:?}");
    }

    #[test]
    fn stored_cells_are_candidates() {
        // An allocation stores the length `4 * n` at a fresh base; the loop over the object
        // needs it (with the base's validity) at its head.
        let src = "var valid: [int]bool; var length: [int]int; \
                   procedure p() modifies valid, length; { var n, b, i: int; \
                   assume 1 <= n && n <= 100; havoc b; assume !valid[b]; \
                   valid[b] := true; length[b] := 4 * n; i := 0; \
                   while (i < n) { assert valid[b] && 4 * i + 4 <= length[b]; i := i + 1; } }";
        let map_limits = Limits {
            map_candidates: true,
            ..Limits::default()
        };
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &map_limits) else {
            return;
        };
        assert!(
            printed.iter().any(|s| s == "length[b] == 4 * n"),
            "{printed:?}"
        );
        assert!(
            printed.iter().any(|s| s == "valid[b] == true"),
            "{printed:?}"
        );
        // without the stores' candidates, neither is found
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(
            printed.iter().all(|s| !s.contains("length[b]")),
            "{printed:?}"
        );
        // a cell of a two-level memory map (a C string's terminator), read by a later loop
        let src = "var mem: [int][int]int; procedure p() modifies mem; { var n, b, i: int; \
                   assume 1 <= n; mem[b][n - 1] := 0; i := 0; \
                   while (mem[b][i] != 0) { assert i < n - 1; i := i + 1; } }";
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &map_limits) else {
            return;
        };
        assert!(
            printed.iter().any(|s| s == "mem[b][n + -1] == 0"),
            "{printed:?}"
        );
        // stores in the branches of a letter (a loop's first iteration peeled before it, which
        // may allocate anew): each branch's store is a candidate
        let src = "var valid: [int]bool;                    procedure p() modifies valid; { var b, i: int;                    havoc b; assume !valid[b]; valid[b] := true;                    if (*) { havoc b; assume !valid[b]; valid[b] := true; }                    while (*) { assert valid[b];                      if (*) { havoc b; assume !valid[b]; valid[b] := true; } } }";
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &map_limits) else {
            return;
        };
        assert!(
            printed.iter().any(|s| s == "valid[b] == true"),
            "{printed:?}"
        );
    }

    #[test]
    fn strides_and_weakened_guards_are_candidates() {
        // A pointer's offset steps by 4 through a copy (`t := off; off := t + 4`) while a
        // comparison inside an equivalence (as a C pointer comparison is translated) holds: the
        // offset stays a multiple of 4 and at most `4 * n`.
        let src = "var length: [int]int; procedure p() { var n, off, t, b: int; var c: bool; \
                   assume 0 <= n && n <= 100; assume length[b] == 400; off := 0; \
                   while (true) { havoc c; assume c <==> off < 4 * n; if (!c) { break; } \
                   t := off; off := t + 4; assert off <= length[b]; } }";
        let map_limits = Limits {
            map_candidates: true,
            ..Limits::default()
        };
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &map_limits) else {
            return;
        };
        assert!(printed.iter().any(|s| s == "off % 4 == 0"), "{printed:?}");
        assert!(printed.iter().any(|s| s == "off <= 4 * n"), "{printed:?}");
        // a variable that also takes an unknown value has no stride (in a program over maps,
        // where strides are proposed: `z` steps by 6 and keeps its residue)
        let src = "var m: [int]int; procedure p() { var x, y, z: int; x := 0; z := 0; \
                   while (*) { if (*) { x := x + 6; } else { x := m[y]; } z := z + 6; assert z != 3; } }";
        let Some((printed, _)) = check_with(src, BlockEncoding::Large, &map_limits) else {
            return;
        };
        assert!(printed.iter().all(|s| !s.contains("x %")), "{printed:?}");
        assert!(printed.iter().any(|s| s == "z % 6 == 0"), "{printed:?}");
    }

    #[test]
    fn index_splits_of_map_loops() {
        // Two loops over the same cells, incrementing then decrementing each: the second starts
        // from what the first left in the cell `a[k]`.
        let src = "var a: [int]int; procedure p() modifies a; { var x, i, k, n: int; \
                   assume 0 <= k && k < n; x := a[k]; i := 0; \
                   while (i < n) { a[i] := a[i] + 1; i := i + 1; } i := 0; \
                   while (i < n) { a[i] := a[i] - 1; i := i + 1; } assert a[k] == x; }";
        proves(
            src,
            &[
                "k >= i ==> a[k] == x",
                "k < i ==> a[k] == x + 1",
                "k >= i ==> a[k] == x + 1",
                "k < i ==> a[k] == x",
            ],
        );
        // A cell written in place (at an index that is no loop counter) gets no split.
        let src = "var a: [int]int; procedure p() modifies a; { var x, j, k: int; \
                   x := a[k]; while (*) { a[j] := a[j] + 1; } assert a[k] >= x; }";
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        assert!(printed.iter().all(|p| !p.contains("==>")), "{printed:?}");
    }

    #[test]
    fn cell_deltas_of_additive_loops() {
        // `b` starts as a copy of `a`, then one loop adds 1 to each cell of `a`, another to each
        // of `b`: a cell of each differs by what the loops that have passed it added.
        let src = "var a, b: [int]int; procedure p() modifies a, b; { var i, j, k, n: int; \
                   assume 0 <= k && k < n; b := a; i := 0; \
                   while (i < n) { a[i] := a[i] + 1; i := i + 1; } j := 0; \
                   while (j < n) { b[j] := b[j] + 1; j := j + 1; } assert a[k] == b[k]; }";
        proves(
            src,
            &[
                "b[k] + (if k < i then 1 else 0) == a[k]",
                "b[k] + (if k < i then 1 else 0) == a[k] + (if k < j then 1 else 0)",
            ],
        );
    }

    #[test]
    fn ranged_and_descending_index_splits() {
        // The lower half goes up, then the upper half goes down: the second loop's proof is a
        // ranged split (its cells lie between n and 2n - 1) and a descending one.
        let src = "var a: [int]int; procedure p() modifies a; { var x, i, j, k, n: int; \
                   assume 0 <= k && k < 2 * n; x := a[k]; i := 0; \
                   while (i < n) { a[i] := a[i] + 1; i := i + 1; } j := 2 * n - 1; \
                   while (j >= n) { a[j] := a[j] - 1; j := j - 1; } \
                   assert k < n ==> a[k] == x + 1; assert k >= n ==> a[k] == x - 1; }";
        proves(
            src,
            &[
                // The first loop, ascending.
                "k < i ==> a[k] == x + 1",
                // The second loop: the cells ahead (down to n), and those passed.
                "(k <= j && n <= k) ==> a[k] == x",
                "k > j ==> a[k] + 1 == x",
            ],
        );
    }

    #[test]
    fn tested_congruences_are_candidates() {
        // A modulus beyond the small multipliers: the assumed `x % 11 == 0` is kept by doubling.
        let src = "procedure p() { var x, i: int; assume x % 11 == 0; i := 0; \
                   while (i < 3) { i := i + 1; x := x + x; } assert x % 11 == 0; }";
        proves(src, &["x % 11 == 0"]);
    }

    /// Each of `expected` is among the invariants synthesised for `src` (large blocks).
    fn proves(src: &str, expected: &[&str]) {
        let Some((printed, _)) = check(src, BlockEncoding::Large) else {
            return;
        };
        for s in expected {
            assert!(printed.iter().any(|p| p == s), "{s} not in {printed:?}");
        }
    }

    /// A small deterministic generator of loop programs over `a`, `b`, `c`.
    struct Gen(u64);
    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
        fn var(&mut self) -> &'static str {
            ["a", "b", "c"][self.next(3) as usize]
        }
        fn stmt(&mut self) -> String {
            let k = self.next(7) as i64 - 3;
            match self.next(6) {
                0 => format!("{} := {} + {k};", self.var(), self.var()),
                1 => format!("{} := {} - {};", self.var(), self.var(), self.var()),
                2 => format!("havoc {};", self.var()),
                3 => format!("assume {} <= {k};", self.var()),
                4 => format!("{} := {} * {};", self.var(), k, self.var()),
                _ => {
                    let (x, y) = (self.var(), self.var());
                    format!("if (*) {{ {x} := {x} + 1; }} else {{ {y} := {y} - {k}; }}")
                }
            }
        }
        fn block(&mut self, n: u64) -> String {
            (0..1 + self.next(n)).map(|_| self.stmt()).collect()
        }
    }

    #[test]
    fn random_programs_get_only_inductive_invariants() {
        if z3().is_none() {
            return;
        }
        let mut g = Gen(42);
        for i in 0..40 {
            let inner = if g.next(3) == 0 {
                format!("while (*) {{ {} }}", g.block(2))
            } else {
                String::new()
            };
            let src = format!(
                "procedure p() {{ var a, b, c: int; {} while ({} < {}) {{ {} {} {} }} assert a <= b + c; }}",
                g.block(3),
                g.var(),
                g.var(),
                g.block(3),
                inner,
                g.block(2)
            );
            let mode = if i % 2 == 0 {
                BlockEncoding::Large
            } else {
                BlockEncoding::None
            };
            check(&src, mode);
        }
    }
}
