//! Nontermination by geometric nontermination arguments (Leike & Heizmann, "Geometric nontermination
//! arguments", TACAS 2018; LassoRanker's GNTA), with guessed eigenvalues.
//!
//! # What it computes
//!
//! A lasso of the block-encoded CFA: a `stem` (letters from the initial location to a location `h`)
//! and a `cycle` (letters from `h` back to `h`). The cycle is composed in SSA form into one relation
//! `L(x, x', w)` over the numeric state variables `x` it mentions (pre state at `h`), their values
//! `x'` after the cycle, and auxiliary values `w` (intermediate states, local choices). A disjunct
//! `D = {A·(x, x', w) ≤ b}` of the *exact* linear DNF of `L` ([`linear::dnf`], rejected when it
//! over-approximates) is a polyhedron with `D ⊆ L`. The argument of size `k ≤ 3` is a point `x`
//! (with `w0`), directions `y_1..y_k` (with `r_1..r_k`), eigenvalues `λ_i ≥ 0` and nilpotent parts
//! `ν_i ≥ 0` such that
//! - (stem) the stem reaches `x` at `h`;
//! - (point) `(x, x + Σ y_i, w0) ∈ D`;
//! - (ray) `A·(y_i, λ_i·y_i + ν_{i-1}·y_{i-1}, r_i) ≤ 0` (constants dropped, strict as non-strict).
//!
//! Then with `U` the upper bidiagonal matrix of the `λ_i` and `ν_i` (all entries `≥ 0`) and
//! `v_t = Σ_{j<t} U^j·1 ≥ 0`, the states `x_t = x + Y·v_t` satisfy
//! `(x_t, x_{t+1}, w0 + R·v_t) = (x, x + Y·1, w0) + Σ_i v_{t,i}·(y_i, (Y·U)_i, r_i)`, so every row of
//! `A` is at most `b` (the point) plus a non-negative combination of non-positive numbers (the rays):
//! each step stays in `D ⊆ L`, an infinite execution. Unwritten variables get direction 0. Over the
//! integers the execution is integral when `x`, `w0`, `y_i`, `r_i` are integral (they are values
//! of `Int` variables) and the `λ_i`, `ν_i` are non-negative integers, which is required as soon
//! as one variable of the lasso is an integer.
//!
//! The eigenvalues are guessed (which keeps every query linear): 0 and 1, the non-negative rational
//! roots of the characteristic polynomial of the update matrix when `D` determines `x'` as an
//! affine function of `x`, and the ratios `-a/a'` of the coefficients of a variable's pre and post
//! value in one constraint; `ν_i ∈ {0, 1}` between equal eigenvalues.
//!
//! Maps from numbers to numbers enter through their *cells* ([`cells`]): the contents `m[e(x)]`
//! that the cycle reads become state variables, and the relation is eliminated to one over numbers
//! that under-approximates the cycle uniformly in the maps (map elimination, Heizmann, Hoenicke,
//! Leike & Podelski, ATVA 2013). When the cycle's indices move, through *fresh cells*
//! ([`cells::fresh`]): the maps constant (`v0`, an unwritten state variable) at the first loop head,
//! every read replaced by `v0`, a ghost state variable per index term that moves by a common `δ`
//! (`sign · δ ≥ 1`, an unwritten state variable) with every write behind every read of its map —
//! so no iteration reads a cell that an earlier one wrote.
//!
//! # Soundness invariant
//!
//! NONTERMINATING is returned only after the argument is re-validated in a *fresh* solver session:
//! `D ∧ ¬L` unsat (the polyhedron lies inside the loop's relation), the point and every ray
//! condition with the model's values (ground formulas) `sat`, with maps also
//! `D ∧ cells ∧ ¬L_maps` unsat ([`cells::Eliminated::arrays`]: each step of the polyhedron is a
//! step of the cycle with maps from any maps that agree with the cells, and the cells after it are
//! the maps' cells), the stem formula with its final state
//! fixed to `x` `sat` (with the definitions of recursive functions); with fresh cells the maps'
//! values after the cycle re-read as chains of stores over the maps at the indices with ghosts,
//! `D ∧ ¬moving` unsat ([`cells::Fresh::moving`]: the indices move, writes behind reads),
//! `D ∧ (m[e_r] = v0 at every read) ∧ ¬L_maps` unsat (any maps), and the stem reaching the point
//! with each read map equal to the constant array of its `v0` — by the invariant of
//! [`cells::fresh`] every read of the run then sees `v0`, so each step is one of the cycle; and
//! the eigenvalues checked non-negative, and integral when required, in exact arithmetic. Only
//! lassos whose letters are exact
//! (no `{:overapproximation}` edge, no uninterpreted function) and whose cycle mentions only numeric
//! variables are considered; the stem and the cycle are paths of the automaton from its initial
//! location, so the execution is one of the program. With machine integers
//! (`Config::bounded_integers`, programs of the C front end) the argument is one over mathematical
//! integers, as the IR states C's signed arithmetic: a nonzero ray's run grows without bound, so in
//! C it reaches a signed overflow, which C leaves undefined (after it no behaviour, nontermination
//! included, is excluded); the answer says so. Fresh-cell arguments are not used for C.

use super::cells;
use super::linear::{self, Constraint, Lin, Q, Rel};
use super::ranking::{
    Shared, cycle_through, exact_letter, reachable_letters, sccs, session_config, timed_out,
};
use crate::engine::blocks::{Encoded, LetterId};
use crate::engine::cfa::{Cfa, LocId};
use crate::engine::transition::{PVar, TransFormula, Vocabulary};
use crate::engine::{Config, pretty};
use crate::smt::{SatResult, Session, Sort, Term, Value, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

/// Said of a C argument whose run grows without bound.
const OVERFLOW_NOTE: &str = "; over mathematical integers: in C the run reaches a signed overflow, \
     undefined behaviour, after which no behaviour (nontermination included) is excluded";

/// The display name of the ghost state variables of fresh cells (left out of the reason).
const GHOST: &str = "(ghost)";
/// Lassos tried at most.
const MAX_LASSOS: usize = 32;
/// Unrollings of the cycle into the stem at most.
const MAX_UNROLL: usize = 2;
/// Disjuncts of a cycle's DNF at most.
const MAX_DISJUNCTS: usize = 32;
/// Guessed eigenvalues per disjunct at most.
const MAX_EIGENVALUES: usize = 6;
/// Queries per disjunct at most.
const MAX_QUERIES: usize = 400;
/// Boolean state variables at most (each valuation is a lasso of its own).
const MAX_BOOLS: usize = 2;

/// Looks for a geometric nontermination argument before `deadline`; the reason (with the argument)
/// if one is found and re-validated.
pub fn prove(prep: &Shared, config: &Config, deadline: Option<Instant>) -> Option<String> {
    let (voc, cfa) = (&prep.voc, prep.cfa().ok()?);
    if cfa.is_concurrent() {
        return None;
    }
    let enc = prep.large().ok()?;
    let reach = reachable_letters(enc);
    let exact = |a: LetterId| exact_letter(cfa, enc, a);
    let stem_to = stems(enc, &exact);
    let mut session = Session::new(session_config(config, deadline)).ok()?;
    let mut tries = 0;
    for scc in sccs(enc, &reach) {
        for &first in &scc {
            if tries >= MAX_LASSOS || timed_out(deadline) {
                return None;
            }
            let h = enc.letters[first].src;
            let Some(stem) = stem_to.get(&h) else {
                continue;
            };
            let Some(cycle) = cycle_through(enc, &scc, first) else {
                continue;
            };
            if !cycle.iter().all(|&a| exact(a)) {
                continue;
            }
            if let Some(why) = argument_of(
                voc,
                cfa,
                enc,
                stem,
                &cycle,
                config,
                &mut session,
                deadline,
                &mut tries,
            ) {
                return Some(why);
            }
        }
    }
    None
}

/// A geometric nontermination argument for the lasso `stem · cycle^ω` (exact letters, the cycle
/// from `h` back to `h`), the stem as given and with the cycle unrolled once and twice into it (a
/// first iteration may take another branch than all later ones, e.g. one that initialises a cell);
/// the reason with the argument after it was re-validated in a fresh session. `tries` counts the
/// lassos prepared, and stops at [`MAX_LASSOS`].
#[allow(clippy::too_many_arguments)]
pub(super) fn argument_of(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    stem: &[LetterId],
    cycle: &[LetterId],
    config: &Config,
    session: &mut Session,
    deadline: Option<Instant>,
    tries: &mut usize,
) -> Option<String> {
    let h = enc.letters[*cycle.first()?].src;
    for unroll in 0..=MAX_UNROLL {
        if *tries >= MAX_LASSOS || timed_out(deadline) {
            return None;
        }
        let mut stem = stem.to_vec();
        for _ in 0..unroll {
            stem.extend(cycle.iter().copied());
        }
        *tries += 1;
        // With machine integers a fresh-cell argument is never kept (its indices grow).
        let fresh = !config.bounded_integers;
        for lasso in Lasso::build(voc, enc, &stem, cycle, fresh) {
            if timed_out(deadline) {
                return None;
            }
            let Some(arg) = lasso.search(cfa, session, deadline) else {
                continue;
            };
            // A nonzero direction grows without bound: with machine integers (C) that run
            // overflows, and the answer says so.
            let unbounded = arg.rays.iter().any(|r| {
                r.values().any(|v| {
                    v.as_rational()
                        .is_some_and(|q| !num_traits::Zero::is_zero(&q))
                })
            });
            let mut fresh = Session::new(session_config(config, deadline)).ok()?;
            if lasso.validate(cfa, &arg, &mut fresh).is_ok() {
                let mut text = describe(voc, cfa, &lasso, &arg, h);
                if config.bounded_integers && unbounded {
                    text.push_str(OVERFLOW_NOTE);
                }
                return Some(text);
            }
        }
    }
    None
}

/// Shortest stems (BFS over exact letters) from the initial location to each location.
fn stems(enc: &Encoded, exact: &dyn Fn(LetterId) -> bool) -> BTreeMap<LocId, Vec<LetterId>> {
    let mut stem_to: BTreeMap<LocId, Vec<LetterId>> = BTreeMap::new();
    stem_to.insert(enc.init, Vec::new());
    let mut queue = std::collections::VecDeque::from([enc.init]);
    while let Some(l) = queue.pop_front() {
        for &a in &enc.out[l] {
            let t = enc.letters[a].tgt;
            if !stem_to.contains_key(&t) && exact(a) {
                let mut p = stem_to[&l].clone();
                p.push(a);
                stem_to.insert(t, p);
                queue.push_back(t);
            }
        }
    }
    stem_to
}

/// SSA composition of letters: the current term of each program variable and the conjuncts.
struct Ssa {
    current: BTreeMap<PVar, Term>,
    conj: Vec<Term>,
    n: usize,
    tag: &'static str,
}

impl Ssa {
    fn step(&mut self, voc: &Vocabulary, tf: &TransFormula) -> Option<()> {
        self.n += 1;
        let n = self.n;
        let mut map: HashMap<Var, Term> = HashMap::new();
        for v in tf.formula.free_vars() {
            match voc.lookup(&v) {
                Some((x, false)) => {
                    let cur = self
                        .current
                        .get(&x)
                        .cloned()
                        .unwrap_or_else(|| Term::var(&v));
                    map.insert(v, cur);
                }
                Some((x, true)) => {
                    if !tf.writes.contains(&x) {
                        return None;
                    }
                }
                None => {
                    let name = format!("{}@{}{n}", v.name, self.tag);
                    map.insert(v.clone(), Term::var(&Var::new(name, v.sort.clone())));
                }
            }
        }
        for &x in &tf.writes {
            let post = voc.post(x).ok()?;
            let name = format!("{}@{}{n}", post.name, self.tag);
            let fresh = Term::var(&Var::new(name, post.sort.clone()));
            map.insert(post, fresh.clone());
            self.current.insert(x, fresh);
        }
        self.conj.push(tf.formula.substitute(&map));
        Some(())
    }
}

/// The role of a variable of the cycle's relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Value of state variable `i` at the loop head.
    Pre(usize),
    /// Value of written state variable `i` after the cycle.
    Post(usize),
    Aux,
}

/// A lasso prepared for the search.
#[derive(Clone)]
struct Lasso {
    stem_len: usize,
    cycle_len: usize,
    /// The stem in SSA form and the term of each state variable at its end.
    stem: Term,
    stem_end: Vec<Term>,
    /// State variables: name, value at the loop head (a variable of the queries), whether the cycle
    /// writes it. Numeric program variables first, then the cells of maps ([`cells`]).
    state: Vec<(String, Var, bool)>,
    /// Final SSA variable of each written state variable.
    post: BTreeMap<usize, Var>,
    /// The cycle's relation (over numbers; with maps, over their cells).
    relation: Term,
    /// With maps: the elimination, whose steps [`Lasso::validate`] re-checks.
    with_maps: Option<cells::Eliminated>,
    /// With maps read at fresh cells: the elimination, whose steps [`Lasso::validate`] re-checks.
    fresh: Option<cells::Fresh>,
    /// Some variable is an integer: eigenvalues must be integers.
    integral: bool,
    /// Boolean state variables fixed for the whole run (display name, value), and the cycle's
    /// relation before they were substituted with the equalities that fix them at the head and after
    /// the cycle: [`Lasso::validate`] re-checks that the polyhedron lies inside it.
    fixed: Vec<(String, bool)>,
    unspecialised: Option<(Term, Term)>,
}

/// An argument found by [`Lasso::search`]: a disjunct, eigenvalues, nilpotent parts, and values.
#[derive(Clone, Debug)]
struct Argument {
    disjunct: Vec<Constraint>,
    lambda: Vec<Q>,
    nu: Vec<Q>,
    /// Values of the point (state variables at the loop head, auxiliaries).
    point: BTreeMap<Var, Value>,
    /// Values of the directions: `rays[i]` maps state index or auxiliary to a value.
    rays: Vec<BTreeMap<Var, Value>>,
}

impl Lasso {
    /// The lasso `stem · cycle^ω` prepared for the search: one per disjunct of the cycle when it
    /// has maps ([`cells::eliminate`], then with `fresh` [`cells::fresh`] per disjunct and
    /// direction), else one (none if it is out of scope).
    fn build(
        voc: &Vocabulary,
        enc: &Encoded,
        stem: &[LetterId],
        cycle: &[LetterId],
        fresh: bool,
    ) -> Vec<Lasso> {
        let mut s = Ssa {
            current: BTreeMap::new(),
            conj: Vec::new(),
            n: 0,
            tag: "gstem",
        };
        for &a in stem {
            if s.step(voc, &enc.letters[a].tf).is_none() {
                return Vec::new();
            }
        }
        // State variables: every program variable the cycle mentions; numbers, and maps from
        // numbers to numbers (through their cells).
        let mut pvars: BTreeSet<PVar> = BTreeSet::new();
        for &a in cycle {
            let tf = &enc.letters[a].tf;
            pvars.extend(tf.writes.iter().copied());
            for v in tf.formula.free_vars() {
                if let Some((x, _)) = voc.lookup(&v) {
                    pvars.insert(x);
                }
            }
        }
        let mut state = Vec::new();
        let mut numeric = Vec::new();
        let mut maps: Vec<(PVar, Var)> = Vec::new();
        let mut stem_end = Vec::new();
        let mut l = Ssa {
            current: BTreeMap::new(),
            conj: Vec::new(),
            n: 0,
            tag: "gloop",
        };
        let mut integral = false;
        let mut bools: Vec<(PVar, Var, Term)> = Vec::new();
        let at_stem_end = |x: PVar, pre: &Var| -> Term {
            s.current.get(&x).cloned().unwrap_or_else(|| Term::var(pre))
        };
        for &x in &pvars {
            let Ok(pre) = voc.pre(x) else {
                return Vec::new();
            };
            let at_h = Var::new(format!("{}@ghead", pre.name), pre.sort.clone());
            l.current.insert(x, Term::var(&at_h));
            match &pre.sort {
                Sort::Int => integral = true,
                Sort::Real => {}
                Sort::Array(i, e) if i.is_numeric() && e.is_numeric() => {
                    maps.push((x, at_h));
                    continue;
                }
                Sort::Bool => {
                    bools.push((x, at_h, at_stem_end(x, &pre)));
                    continue;
                }
                _ => return Vec::new(),
            }
            stem_end.push(at_stem_end(x, &pre));
            state.push((voc.display_name(x), at_h, false));
            numeric.push(x);
        }
        let start = l.current.clone();
        for &a in cycle {
            if l.step(voc, &enc.letters[a].tf).is_none() {
                return Vec::new();
            }
        }
        let mut post = BTreeMap::new();
        for (i, x) in numeric.iter().enumerate() {
            if l.current.get(x) != start.get(x) {
                state[i].2 = true;
                let Some(v) = l.current.get(x).and_then(|t| t.as_var()) else {
                    return Vec::new();
                };
                post.insert(i, v.clone());
            }
        }
        if bools.len() > MAX_BOOLS {
            return Vec::new();
        }
        // Booleans are fixed for the whole run: one lasso per valuation at the head, each with the
        // booleans substituted in the relation (their values after the cycle equal too) and their
        // values at the stem's end conjoined to the stem.
        let relation = Term::and(l.conj.clone());
        let mut variants = vec![(
            relation.clone(),
            Term::and(s.conj.clone()),
            Vec::new(),
            Vec::new(),
        )];
        for (x, h, at_end) in &bools {
            let after = l.current.get(x).and_then(|t| t.as_var().cloned());
            let name = voc.display_name(*x);
            let mut next = Vec::new();
            for (rel, stem, fixed, eqs) in variants {
                for c in [true, false] {
                    let mut map: HashMap<Var, Term> = HashMap::new();
                    map.insert(h.clone(), Term::bool(c));
                    let mut eqs = eqs.clone();
                    eqs.push(Term::eq(&Term::var(h), &Term::bool(c)));
                    if let Some(p) = after.as_ref().filter(|p| *p != h) {
                        map.insert(p.clone(), Term::bool(c));
                        eqs.push(Term::eq(&Term::var(p), &Term::bool(c)));
                    }
                    let rel = crate::smt::simplify(&rel.substitute(&map));
                    let stem = Term::and(vec![stem.clone(), Term::eq(at_end, &Term::bool(c))]);
                    let mut fixed = fixed.clone();
                    fixed.push((name.clone(), c));
                    next.push((rel, stem, fixed, eqs));
                }
            }
            variants = next;
        }
        let mut out = Vec::new();
        for (relation_c, stem_term, fixed, eqs) in variants {
            let unspecialised = (!eqs.is_empty()).then(|| (Term::and(eqs), relation.clone()));
            out.extend(Self::with_cells(
                voc,
                stem,
                cycle,
                &s,
                &l,
                &maps,
                &numeric,
                &state,
                &stem_end,
                &post,
                relation_c,
                stem_term,
                integral,
                fixed,
                unspecialised,
                fresh,
            ));
        }
        out
    }

    /// The lasso over numbers and the cells of `maps`, one per disjunct of the map elimination.
    #[allow(clippy::too_many_arguments)]
    fn with_cells(
        voc: &Vocabulary,
        stem: &[LetterId],
        cycle: &[LetterId],
        s: &Ssa,
        l: &Ssa,
        maps: &[(PVar, Var)],
        numeric: &[PVar],
        state: &[(String, Var, bool)],
        stem_end: &[Term],
        post: &BTreeMap<usize, Var>,
        relation: Term,
        stem_term: Term,
        integral: bool,
        fixed: Vec<(String, bool)>,
        unspecialised: Option<(Term, Term)>,
        fresh: bool,
    ) -> Vec<Lasso> {
        let base = Lasso {
            stem_len: stem.len(),
            cycle_len: cycle.len(),
            stem: stem_term,
            stem_end: stem_end.to_vec(),
            state: state.to_vec(),
            post: post.clone(),
            relation,
            with_maps: None,
            fresh: None,
            integral,
            fixed,
            unspecialised,
        };
        if maps.is_empty() {
            return base.checked().into_iter().collect();
        }
        let heads: BTreeSet<Var> = maps.iter().map(|(_, h)| h.clone()).collect();
        let Some(finals) = maps
            .iter()
            .map(|(x, h)| Some((h.clone(), l.current.get(x)?.clone())))
            .collect::<Option<HashMap<Var, Term>>>()
        else {
            return Vec::new();
        };
        let next: HashMap<Var, Term> = base
            .state
            .iter()
            .enumerate()
            .map(|(i, (_, h, _))| {
                let v = base
                    .post
                    .get(&i)
                    .map(Term::var)
                    .unwrap_or_else(|| Term::var(h));
                (h.clone(), v)
            })
            .collect();
        // A cell is a state variable; at the stem's end it is the stem's map at the stem's value
        // of the index.
        let head_to_stem: HashMap<Var, Term> = base
            .state
            .iter()
            .map(|(_, h, _)| h.clone())
            .zip(base.stem_end.iter().cloned())
            .collect();
        let source: HashMap<Var, Term> = base
            .state
            .iter()
            .zip(numeric)
            .filter_map(|((_, h, _), y)| Some((h.clone(), Term::var(&voc.pre(*y).ok()?))))
            .collect();
        // A head map's program variable, its pre-state variable, and the map at the stem's end.
        let at_stem_end = |head: &Var| {
            let (x, _) = maps.iter().find(|(_, h)| h == head)?;
            let pre = voc.pre(*x).ok()?;
            let end = s.current.get(x).cloned().unwrap_or_else(|| Term::var(&pre));
            Some((*x, pre, end))
        };
        let mut out = Vec::new();
        for elim in cells::eliminate(&base.relation, &heads, &finals, &next, MAX_DISJUNCTS) {
            let mut lasso = Lasso {
                relation: elim.numeric.clone(),
                ..base.clone()
            };
            let mut ok = true;
            for c in &elim.cells {
                let Some((_, pre, map_at_end)) = at_stem_end(&c.map) else {
                    ok = false;
                    break;
                };
                let at_end = Term::select(&map_at_end, &c.index.substitute(&head_to_stem));
                lasso.stem_end.push(at_end);
                let read = Term::select(&Term::var(&pre), &c.index.substitute(&source));
                lasso.post.insert(lasso.state.len(), c.post.clone());
                lasso
                    .state
                    .push((pretty::term(voc, &read), c.head.clone(), true));
            }
            if ok {
                lasso.with_maps = Some(elim);
                out.extend(lasso.checked());
            }
        }
        // Fresh cells: the maps constant at the loop head, every read at a cell no earlier
        // iteration wrote.
        let fresh = match fresh {
            true => cells::fresh(&base.relation, &heads, &finals, &next, MAX_DISJUNCTS),
            false => Vec::new(),
        };
        for f in fresh {
            let mut lasso = Lasso {
                relation: f.numeric.clone(),
                ..base.clone()
            };
            let mut stem = vec![lasso.stem.clone()];
            let mut ok = true;
            for fm in &f.maps {
                let Some((x, pre, map_at_end)) = at_stem_end(&fm.map) else {
                    ok = false;
                    break;
                };
                let constant = Term::const_array(pre.sort.clone(), &Term::var(&fm.value));
                stem.push(Term::eq(&map_at_end, &constant));
                lasso.stem_end.push(Term::var(&fm.value));
                let name = format!("every cell of {}", voc.display_name(x));
                lasso.state.push((name, fm.value.clone(), false));
            }
            for (_, h, p) in &f.ghosts {
                lasso.stem_end.push(Term::var(h));
                lasso.post.insert(lasso.state.len(), p.clone());
                lasso.state.push((GHOST.to_string(), h.clone(), true));
            }
            lasso.stem_end.push(Term::var(&f.delta));
            lasso
                .state
                .push((GHOST.to_string(), f.delta.clone(), false));
            lasso.stem = Term::and(stem);
            if ok {
                lasso.fresh = Some(f);
                out.extend(lasso.checked());
            }
        }
        out
    }

    /// `self` if its relation is over numbers only (with `integral` updated).
    fn checked(mut self) -> Option<Lasso> {
        for v in self.relation.free_vars() {
            if !matches!(v.sort, Sort::Int | Sort::Real) {
                return None;
            }
            self.integral |= v.sort == Sort::Int;
        }
        Some(self)
    }

    fn role(&self, v: &Var) -> Role {
        if let Some(i) = self.state.iter().position(|(_, h, _)| h == v) {
            return Role::Pre(i);
        }
        if let Some((&i, _)) = self.post.iter().find(|(_, p)| *p == v) {
            return Role::Post(i);
        }
        Role::Aux
    }

    /// The variable of direction `i` for the query variable `v` (a state variable at the head or an
    /// auxiliary).
    fn dir(i: usize, v: &Var) -> Var {
        Var::new(format!("{}@gdir{i}", v.name), v.sort.clone())
    }

    /// The point condition: `D` with each post value `x + Σ y_i`.
    fn point(&self, d: &[Constraint], k: usize) -> Term {
        let mut map: HashMap<Var, Term> = HashMap::new();
        for (&i, p) in &self.post {
            let h = &self.state[i].1;
            let mut sum = vec![Term::var(h)];
            sum.extend((0..k).map(|j| Term::var(&Self::dir(j, h))));
            map.insert(p.clone(), Term::add(sum));
        }
        Term::and(d.iter().map(|c| c.term().substitute(&map)).collect())
    }

    /// The ray conditions of directions `0..k` for eigenvalues `lambda` and nilpotent parts `nu`
    /// (`nu[i]` links direction `i + 1` to direction `i`).
    fn rays(&self, d: &[Constraint], lambda: &[Q], nu: &[Q]) -> Term {
        let mut conj = Vec::new();
        for i in 0..lambda.len() {
            for c in d {
                let mut lin = Lin::constant(Q::zero());
                for (v, a) in &c.lin.coef {
                    match self.role(v) {
                        Role::Pre(s) => {
                            if self.state[s].2 {
                                lin = lin.add_scaled(&Lin::var(&Self::dir(i, v)), a);
                            }
                        }
                        Role::Post(s) => {
                            let h = &self.state[s].1;
                            lin = lin.add_scaled(&Lin::var(&Self::dir(i, h)), &(a * &lambda[i]));
                            if i > 0 && !nu[i - 1].is_zero() {
                                let prev = Lin::var(&Self::dir(i - 1, h));
                                lin = lin.add_scaled(&prev, &(a * &nu[i - 1]));
                            }
                        }
                        Role::Aux => lin = lin.add_scaled(&Lin::var(&Self::dir(i, v)), a),
                    }
                }
                let rel = if c.rel == Rel::Eq { Rel::Eq } else { Rel::Le };
                conj.push(Constraint { lin, rel }.term());
            }
        }
        Term::and(conj)
    }

    /// The stem reaching the values `at` of the state variables at the loop head.
    fn stem_to(&self, at: &dyn Fn(usize) -> Term) -> Term {
        let mut conj = vec![self.stem.clone()];
        for (i, e) in self.stem_end.iter().enumerate() {
            conj.push(Term::eq(e, &at(i)));
        }
        Term::and(conj)
    }

    /// Searches an argument over the disjuncts of the cycle's DNF and the guessed eigenvalues.
    fn search(
        &self,
        cfa: &Cfa,
        session: &mut Session,
        deadline: Option<Instant>,
    ) -> Option<Argument> {
        // The linear DNF of each top-level disjunct on its own (so that one large disjunct does
        // not hide the others); over-approximated ones are skipped.
        let mut disjuncts: Vec<Vec<Constraint>> = Vec::new();
        for part in self.relation.disjuncts() {
            match linear::dnf(&part, MAX_DISJUNCTS) {
                Ok(lin) if !lin.approximated => disjuncts.extend(lin.disjuncts),
                _ => {}
            }
        }
        let stem = self.stem_to(&|i| Term::var(&self.state[i].1));
        session.push();
        for d in &cfa.definitions {
            session.assert(d);
        }
        session.assert(&stem);
        let reachable = session.check_sat() == SatResult::Sat;
        let mut found = None;
        if reachable {
            'disjuncts: for d in &disjuncts {
                // A disjunct that no state the stem reaches can take is skipped at once.
                session.push();
                for c in d {
                    session.assert(&c.term());
                }
                let possible = session.check_sat() != SatResult::Unsat;
                session.pop();
                if !possible {
                    continue;
                }
                let mut queries = 0;
                for (lambda, nu) in self.guesses(d) {
                    queries += 1;
                    if timed_out(deadline) {
                        break 'disjuncts;
                    }
                    if queries > MAX_QUERIES {
                        break;
                    }
                    let k = lambda.len();
                    session.push();
                    session.assert(&self.point(d, k));
                    session.assert(&self.rays(d, &lambda, &nu));
                    let r = session.check_sat();
                    if r == SatResult::Sat {
                        found = self.model(session, d, lambda, nu);
                    }
                    session.pop();
                    if found.is_some() {
                        break 'disjuncts;
                    }
                }
            }
        }
        session.pop();
        found
    }

    fn model(
        &self,
        session: &mut Session,
        d: &[Constraint],
        lambda: Vec<Q>,
        nu: Vec<Q>,
    ) -> Option<Argument> {
        let k = lambda.len();
        let mut point_vars: BTreeSet<Var> = self.state.iter().map(|(_, h, _)| h.clone()).collect();
        let mut dir_of: BTreeSet<Var> = BTreeSet::new();
        for c in d {
            for v in c.vars() {
                match self.role(v) {
                    Role::Aux => {
                        point_vars.insert(v.clone());
                        dir_of.insert(v.clone());
                    }
                    Role::Pre(s) | Role::Post(s) => {
                        if self.state[s].2 {
                            dir_of.insert(self.state[s].1.clone());
                        }
                    }
                }
            }
        }
        for (i, _) in self.post.iter() {
            dir_of.insert(self.state[*i].1.clone());
        }
        let mut terms: Vec<Term> = point_vars.iter().map(Term::var).collect();
        for i in 0..k {
            terms.extend(dir_of.iter().map(|v| Term::var(&Self::dir(i, v))));
        }
        let values = session.get_values(&terms).ok()?;
        let by_name: HashMap<String, Value> = values
            .into_iter()
            .filter_map(|(t, v)| Some((t.as_var()?.name.clone(), v)))
            .collect();
        let point = point_vars
            .iter()
            .map(|v| Some((v.clone(), by_name.get(&v.name)?.clone())))
            .collect::<Option<BTreeMap<_, _>>>()?;
        let rays = (0..k)
            .map(|i| {
                dir_of
                    .iter()
                    .map(|v| {
                        let dv = Self::dir(i, v);
                        Some((dv.clone(), by_name.get(&dv.name)?.clone()))
                    })
                    .collect::<Option<BTreeMap<_, _>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Argument {
            disjunct: d.to_vec(),
            lambda,
            nu,
            point,
            rays,
        })
    }

    /// Candidate (eigenvalues, nilpotent parts) for sizes 1 to 3, most plausible first.
    fn guesses(&self, d: &[Constraint]) -> Vec<(Vec<Q>, Vec<Q>)> {
        // The roots of the characteristic polynomial first, largest first (the dominant
        // eigenvector, then the generalised ones linked to it), then 1, 0, 2 and the ratios of a
        // variable's pre and post coefficients in one constraint.
        let ok = |q: &Q| !q.is_negative() && (!self.integral || q.is_integer());
        let mut roots: Vec<Q> = self.eigenvalues(d).into_iter().filter(ok).collect();
        roots.sort_by(|a, b| b.cmp(a));
        let mut cands: Vec<Q> = Vec::new();
        let mut push = |q: Q| {
            if ok(&q) && !cands.contains(&q) {
                cands.push(q);
            }
        };
        roots.into_iter().for_each(&mut push);
        [Q::one(), Q::zero(), q(2)].into_iter().for_each(&mut push);
        for c in d {
            for (v, a) in &c.lin.coef {
                if let Role::Pre(s) = self.role(v) {
                    if let Some(p) = self.post.get(&s) {
                        if let Some(b) = c.lin.coef.get(p) {
                            push(-(a / b));
                        }
                    }
                }
            }
        }
        cands.truncate(MAX_EIGENVALUES);
        let mut out = Vec::new();
        for l in &cands {
            out.push((vec![l.clone()], Vec::new()));
        }
        // Ordered pairs: the nilpotent part may link different eigenvalues (an upper triangular
        // update, not only a Jordan block).
        for a in &cands {
            for b in &cands {
                for nu in [Q::zero(), Q::one()] {
                    out.push((vec![a.clone(), b.clone()], vec![nu]));
                }
            }
        }
        for a in &cands {
            for b in &cands {
                for c in &cands {
                    for (n1, n2) in [(0, 0), (1, 1), (1, 0), (0, 1)] {
                        out.push((vec![a.clone(), b.clone(), c.clone()], vec![q(n1), q(n2)]));
                    }
                }
            }
        }
        out
    }

    /// The non-negative rational eigenvalues of the update matrix, if the equalities of `d` over pre
    /// and post values (no auxiliaries) determine every written variable's post value as an affine
    /// function of the pre values — directly or through other post values (`x' = 2x + 4y; y' =
    /// 4x'`, a sequence of assignments), solved by Gauss–Jordan elimination on the post values.
    fn eigenvalues(&self, d: &[Constraint]) -> Vec<Q> {
        let n = self.state.len();
        let written: Vec<usize> = (0..n).filter(|&s| self.state[s].2).collect();
        // Each equation as (coefficients of the written post values, of the pre values).
        let mut rows: Vec<(Vec<Q>, Vec<Q>)> = Vec::new();
        for c in d.iter().filter(|c| c.rel == Rel::Eq) {
            let mut post = vec![Q::zero(); written.len()];
            let mut pre = vec![Q::zero(); n];
            let mut ok = true;
            for (v, a) in &c.lin.coef {
                match self.role(v) {
                    Role::Pre(t) => pre[t] += a,
                    Role::Post(t) => match written.iter().position(|&s| s == t) {
                        Some(i) => post[i] += a,
                        None => ok = false,
                    },
                    Role::Aux => ok = false,
                }
            }
            if ok && post.iter().any(|q| !q.is_zero()) {
                rows.push((post, pre));
            }
        }
        // Gauss–Jordan on the post columns: each written variable needs a pivot.
        let mut pivot_of: Vec<usize> = Vec::with_capacity(written.len());
        for col in 0..written.len() {
            let Some(r) =
                (0..rows.len()).find(|&r| !pivot_of.contains(&r) && !rows[r].0[col].is_zero())
            else {
                return Vec::new();
            };
            let k = rows[r].0[col].clone();
            let (post, pre) = &mut rows[r];
            post.iter_mut()
                .chain(pre.iter_mut())
                .for_each(|q| *q /= k.clone());
            let (pivot_post, pivot_pre) = rows[r].clone();
            for (i, (post, pre)) in rows.iter_mut().enumerate() {
                let f = post[col].clone();
                if i == r || f.is_zero() {
                    continue;
                }
                for (q, p) in post.iter_mut().zip(&pivot_post) {
                    *q -= f.clone() * p;
                }
                for (q, p) in pre.iter_mut().zip(&pivot_pre) {
                    *q -= f.clone() * p;
                }
            }
            pivot_of.push(r);
        }
        // Row `s` of the update matrix: `x_s' = -Σ pre_t · x_t` (the pivot row reads
        // `x_s' + Σ pre_t · x_t + c = 0`); unwritten variables keep their value.
        let mut m = vec![vec![Q::zero(); n]; n];
        for (s, row) in m.iter_mut().enumerate() {
            match written.iter().position(|&w| w == s) {
                Some(i) => {
                    for (t, q) in rows[pivot_of[i]].1.iter().enumerate() {
                        row[t] = -q.clone();
                    }
                }
                None => row[s] = Q::one(),
            }
        }
        rational_roots(&char_poly(&m))
            .into_iter()
            .filter(|q| !q.is_negative())
            .collect()
    }

    /// Re-validates `arg` in `fresh` (module comment); `Err` names the first failed condition.
    fn validate(&self, cfa: &Cfa, arg: &Argument, fresh: &mut Session) -> Result<(), String> {
        let k = arg.lambda.len();
        if k == 0 || arg.nu.len() + 1 != k {
            return Err("malformed argument".into());
        }
        for q in arg.lambda.iter().chain(&arg.nu) {
            if q.is_negative() || (self.integral && !q.is_integer()) {
                return Err("an eigenvalue is negative or not integral".into());
            }
        }
        let mut check = |hyp: &[Term], want: SatResult, what: &str| -> Result<(), String> {
            fresh.push();
            for h in hyp {
                fresh.assert(h);
            }
            let r = fresh.check_sat();
            fresh.pop();
            if r == want {
                Ok(())
            } else {
                Err(format!("{what}: {r}"))
            }
        };
        let d = Term::and(arg.disjunct.iter().map(Constraint::term).collect());
        check(
            &[d, Term::not(&self.relation)],
            SatResult::Unsat,
            "the polyhedron is not inside the loop",
        )?;
        if let Some((eqs, original)) = &self.unspecialised {
            // The booleans substituted: the polyhedron with them fixed lies inside the relation.
            let d = Term::and(arg.disjunct.iter().map(Constraint::term).collect());
            check(
                &[d, eqs.clone(), Term::not(original)],
                SatResult::Unsat,
                "the polyhedron is not inside the loop with its booleans",
            )?;
        }
        if let Some(e) = &self.with_maps {
            // Each step of the map elimination: from a state whose cells agree with the maps, the
            // polyhedron's steps are steps of the relation with maps, and the cells after them are
            // the maps' cells.
            let d = Term::and(arg.disjunct.iter().map(Constraint::term).collect());
            check(
                &[d, e.cell_definitions(), Term::not(&e.arrays)],
                SatResult::Unsat,
                "the polyhedron is not inside the loop with maps",
            )?;
        }
        if let Some(f) = &self.fresh {
            // Fresh cells: the maps' values after the cycle are stores at the indices that
            // move; each step moves them (so no read meets an earlier iteration's write) and, with
            // `v0` at every read of any maps, is a step of the relation with maps.
            if !f.well_formed() {
                return Err("the fresh cells are not well formed".into());
            }
            let d = Term::and(arg.disjunct.iter().map(Constraint::term).collect());
            check(
                &[d.clone(), Term::not(&f.moving())],
                SatResult::Unsat,
                "the indices do not move apart",
            )?;
            check(
                &[d, f.read_values(), Term::not(&f.arrays)],
                SatResult::Unsat,
                "the polyhedron is not inside the loop with fresh cells",
            )?;
        }
        let mut values: HashMap<Var, Term> = HashMap::new();
        for (v, x) in &arg.point {
            values.insert(v.clone(), Term::constant(x.clone()));
        }
        for ray in &arg.rays {
            for (v, x) in ray {
                values.insert(v.clone(), Term::constant(x.clone()));
            }
        }
        // Every state variable and every variable of a ray has a value: ground formulas.
        let point = self.point(&arg.disjunct, k).substitute(&values);
        let rays = self
            .rays(&arg.disjunct, &arg.lambda, &arg.nu)
            .substitute(&values);
        for (t, what) in [(&point, "point"), (&rays, "ray")] {
            if !t.free_vars().is_empty() {
                return Err(format!("the {what} condition is not ground"));
            }
            check(std::slice::from_ref(t), SatResult::Sat, what)?;
        }
        let at = |i: usize| {
            values
                .get(&self.state[i].1)
                .cloned()
                .unwrap_or_else(|| Term::var(&self.state[i].1))
        };
        let stem = self.stem_to(&at);
        let mut hyp = cfa.definitions.clone();
        hyp.push(stem);
        check(&hyp, SatResult::Sat, "the stem does not reach the point")?;
        Ok(())
    }
}

fn q(n: i64) -> Q {
    Q::from_integer(BigInt::from(n))
}

/// The coefficients (lowest degree first) of the characteristic polynomial `det(λI − M)`
/// (Faddeev–LeVerrier, exact).
fn char_poly(m: &[Vec<Q>]) -> Vec<Q> {
    let n = m.len();
    let mut c = vec![Q::zero(); n + 1];
    c[n] = Q::one();
    let mut mk = vec![vec![Q::zero(); n]; n];
    for k in 1..=n {
        // M_k = M · M_{k-1} + c_{n-k+1} I
        let mut next = vec![vec![Q::zero(); n]; n];
        for i in 0..n {
            for j in 0..n {
                let mut s = Q::zero();
                for (l, row) in mk.iter().enumerate() {
                    s += &m[i][l] * &row[j];
                }
                if i == j {
                    s += &c[n - k + 1];
                }
                next[i][j] = s;
            }
        }
        mk = next;
        // c_{n-k} = -tr(M · M_k) / k
        let mut tr = Q::zero();
        for i in 0..n {
            for (l, row) in mk.iter().enumerate() {
                tr += &m[i][l] * &row[i];
            }
        }
        c[n - k] = -tr / Q::from_integer(BigInt::from(k));
    }
    c
}

/// The rational roots of a polynomial (coefficients lowest degree first), by the rational root
/// theorem; only for small coefficients (else none).
fn rational_roots(p: &[Q]) -> Vec<Q> {
    let mut l = BigInt::one();
    for c in p {
        l = l.lcm(c.denom());
    }
    let mut ints: Vec<BigInt> = p
        .iter()
        .map(|c| (c * Q::from_integer(l.clone())).to_integer())
        .collect();
    let mut roots = Vec::new();
    // Zero roots.
    while ints.len() > 1 && ints[0].is_zero() {
        ints.remove(0);
        if !roots.contains(&Q::zero()) {
            roots.push(Q::zero());
        }
    }
    let (Some(a0), Some(an)) = (ints.first(), ints.last()) else {
        return roots;
    };
    let (Some(a0), Some(an)) = (a0.abs().to_u64(), an.abs().to_u64()) else {
        return roots;
    };
    if a0 == 0 || an == 0 || a0 > 1_000_000 || an > 1_000_000 {
        return roots;
    }
    let divisors = |n: u64| -> Vec<u64> { (1..=n).filter(|d| n % d == 0).take(64).collect() };
    let eval = |x: &Q| -> bool {
        let mut acc = Q::zero();
        for c in ints.iter().rev() {
            acc = acc * x + Q::from_integer(c.clone());
        }
        acc.is_zero()
    };
    for p in divisors(a0) {
        for q in divisors(an) {
            for s in [1i64, -1] {
                let x = Q::new(BigInt::from(p) * s, BigInt::from(q));
                if !roots.contains(&x) && eval(&x) {
                    roots.push(x);
                }
            }
        }
    }
    roots.sort();
    roots
}

fn describe(voc: &Vocabulary, cfa: &Cfa, lasso: &Lasso, arg: &Argument, h: LocId) -> String {
    let procedure = cfa.locs[h]
        .proc
        .map(|p| voc.program.proc(p).name.clone())
        .unwrap_or_default();
    let show = |v: &Value| match v.as_rational() {
        Some(q) => q.to_string(),
        None => format!("{v:?}"),
    };
    // Only what the cycle reads: the values it overwrites first (inlined callees' temporaries,
    // results) do not matter to the run.
    let read = lasso.relation.free_vars_ref();
    let state: Vec<String> = lasso
        .state
        .iter()
        .filter(|(x, h, _)| x != GHOST && read.contains(h))
        .filter_map(|(x, h, _)| Some(format!("{} = {}", x, show(arg.point.get(h)?))))
        .chain(lasso.fixed.iter().map(|(x, b)| format!("{x} = {b}")))
        .collect();
    let mut dirs = Vec::new();
    for (i, ray) in arg.rays.iter().enumerate() {
        let comps: Vec<String> = lasso
            .state
            .iter()
            .filter(|(x, h, w)| *w && x != GHOST && read.contains(h))
            .filter_map(|(x, h, _)| {
                let v = ray.get(&Lasso::dir(i, h))?;
                Some(format!("{} = {}", x, show(v)))
            })
            .collect();
        let nu = if i > 0 && !arg.nu[i - 1].is_zero() {
            format!(", nilpotent part {}", arg.nu[i - 1])
        } else {
            String::new()
        };
        dirs.push(format!(
            "y{} ({}) with eigenvalue {}{nu}",
            i + 1,
            comps.join(", "),
            arg.lambda[i]
        ));
    }
    let fresh = match &lasso.fresh {
        Some(f) => {
            let step = arg
                .point
                .get(&f.delta)
                .map(|v| format!(" by {}", show(v)))
                .unwrap_or_default();
            format!(
                " (fresh cells: every iteration reads map cells no earlier iteration wrote, its \
                 indices move{step} each time, so each read sees the map's initial value)"
            )
        }
        None => String::new(),
    };
    format!(
        "a geometric nontermination argument: a stem of {} reaches the loop head in \
         procedure {procedure} with {}, then a loop of {} runs forever along {}{fresh}",
        pretty::letters(lasso.stem_len),
        state.join(", "),
        pretty::letters(lasso.cycle_len),
        dirs.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characteristic_polynomial_and_roots() {
        // [[2, 1], [0, 3]]: (λ - 2)(λ - 3) = λ² - 5λ + 6
        let m = vec![vec![q(2), q(1)], vec![q(0), q(3)]];
        let p = char_poly(&m);
        assert_eq!(p, vec![q(6), q(-5), q(1)]);
        assert_eq!(rational_roots(&p), vec![q(2), q(3)]);
        // Swap [[0, 1], [1, 0]]: λ² - 1, roots ±1.
        let m = vec![vec![q(0), q(1)], vec![q(1), q(0)]];
        assert_eq!(rational_roots(&char_poly(&m)), vec![q(-1), q(1)]);
        // λ² (nilpotent) has the root 0 only.
        let m = vec![vec![q(0), q(1)], vec![q(0), q(0)]];
        assert_eq!(rational_roots(&char_poly(&m)), vec![q(0)]);
    }

    fn answer(src: &str) -> Option<String> {
        let (program, config) = super::super::test_program(src);
        prove(&Shared::new(&program, &config), &config, None)
    }

    /// z3 is installed (under CI its absence fails the test instead of skipping it).
    fn have_solver() -> bool {
        crate::smt::z3_for_tests("GNTA tests").is_some()
    }

    #[test]
    fn geometric_arguments() {
        if !have_solver() {
            return;
        }
        for src in [
            // Eigenvalue 2 (no fixpoint: x grows).
            "procedure main() { var x: int; while (x > 1) { x := 2 * x; } }",
            // Eigenvalues 2 and 3.
            "procedure main() { var x, y: int; while (x + y >= 1 && x <= -1) { x := 2*x; y := 3*y; } }",
            // A nondeterministic update.
            "procedure main() { var x, o: int; while (x > 1) { o := x; havoc x; assume x >= 2*o; } }",
            // Nilpotent part: b grows by one, a triples.
            "procedure main() { var a, b: real; while (a - b >= 0.0 && b >= 0.0) { a := 3.0*a; b := b + 1.0; } }",
        ] {
            assert!(answer(src).is_some(), "{src}");
        }
    }

    #[test]
    fn fresh_cells() {
        if !have_solver() {
            return;
        }
        for src in [
            // Each iteration reads a cell never written before (a = 0 everywhere).
            "var a: [int]int; var k: int; procedure main() modifies a, k; { \
             while (a[k] >= 0) { a[k] := a[k] - 1; k := k + 1; } }",
            // A havocked index: the argument chooses a fresh one each time.
            "var a: [int]int; procedure main() modifies a; { var i: int; \
             while (true) { havoc i; assume a[i] == 0; a[i] := 1; } }",
            // A body-less procedure's contract reads and writes the map at its result.
            "var a: [int]int; procedure get() returns (i: int); modifies a; \
             ensures old(a)[i] == 0; ensures a == old(a)[i := 1]; \
             procedure main() modifies a; { var r: int; while (true) { call r := get(); } }",
            // Moving down by 2, two reads, the write at a read of this iteration.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { \
             while (a[k] <= a[k - 1] + 3) { a[k] := a[k] + 7; k := k - 2; } }",
            // A write behind the reads; the stem writes the map where the run never reads.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { k := 0; a[0 - 1] := 3; \
             while (a[k] >= 0) { a[k - 1] := 0 - 1; k := k + 1; } }",
        ] {
            let why = answer(src);
            assert!(
                why.as_deref().is_some_and(|w| w.contains("fresh cells")),
                "{src}: {why:?}"
            );
        }
    }

    #[test]
    fn fresh_cells_need_unconstrained_fresh_moving_cells() {
        if !have_solver() {
            return;
        }
        for src in [
            // The stem constrains a cell the run reads: the loop stops at k = 5.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { assume a[5] < 0; \
             k := 0; while (a[k] >= 0) { a[k] := a[k] - 1; k := k + 1; } }",
            // The stem writes a cell the run reads.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { k := 0; a[3] := 0 - 1; \
             while (a[k] >= 0) { k := k + 1; } }",
            // The index does not move: the cell counts down.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { \
             while (a[k] >= 0) { a[k] := a[k] - 1; } }",
            // A havocked index confined to three cells.
            "var a: [int]int; procedure main() modifies a; { var i: int; \
             while (true) { havoc i; assume 0 <= i && i < 3; assume a[i] == 0; a[i] := 1; } }",
            // A write ahead of the index, which the next iteration reads.
            "var a: [int]int; var k: int; procedure main() modifies a, k; { \
             while (a[k] >= 0) { a[k + 1] := 0 - 1; k := k + 1; } }",
            // Moving down, a write below the index (where the next iteration reads).
            "var a: [int]int; var k: int; procedure main() modifies a, k; { \
             while (a[k] >= 0) { a[k - 1] := 0 - 1; k := k - 1; } }",
        ] {
            assert!(answer(src).is_none(), "{src}");
        }
    }

    #[test]
    fn terminating_loops_have_no_argument() {
        if !have_solver() {
            return;
        }
        for src in [
            "procedure main() { var x: int; while (x > 0) { x := x - 1; } }",
            // Over the reals this halves forever above 0 but x >= 1 is left eventually.
            "procedure main() { var x: real; while (x >= 1.0) { x := x / 2.0; } }",
            // Over the integers 2x = 1 has no solution.
            "procedure main() { var x, y: int; while (2 * x == 1) { y := y + 1; } }",
        ] {
            assert!(answer(src).is_none(), "{src}");
        }
    }
}
