//! Map cells for lassos: a cycle's relation over maps turned into a relation over numbers, with the
//! map contents the cycle depends on as *cell* state variables (LassoRanker's map elimination,
//! Heizmann, Hoenicke, Leike & Podelski, "Linear ranking for linear lasso programs", ATVA 2013, §
//! preprocessing; here for nontermination arguments).
//!
//! # What it computes
//!
//! Input: a cycle's relation `L(x, m, x', m', w)` in SSA form (head variables `x` numeric and `m`
//! maps, final values `x'`, `m'`, intermediate values `w`, maps among them). Output: a relation
//! `E(x, c, x', c', w)` over numbers, where each cell `c_k` stands for `m_k[e_k(x)]` at the loop head
//! (an index term `e_k` over the numeric head variables) and `c_k'` for `m_k'[e_k(x')]` after the
//! cycle. The construction, per disjunct of the relation's boolean DNF:
//! 1. equalities `v = t` defining an intermediate or final map variable `v` (SSA: each is defined
//!    once) are substituted away; a disjunct that still mentions a map other than the head maps (a
//!    havocked map) is dropped;
//! 2. reads over writes: `select(store(a, i, v), j)` is `ite(i = j, v, select(a, j))`, decided at once
//!    when `i - j` is a constant; `select(ite(b, a1, a2), j)` is `ite(b, select(a1, j), select(a2, j))`;
//! 3. the cells: every `select(m, e)` left over a head map `m` with `e` over numeric head variables,
//!    closed under "the index of a cell after the cycle" (bounded by [`MAX_CELLS`]); a disjunct that
//!    reads a map anywhere else (an index with intermediate values, a cell beyond the bound) is
//!    dropped; each select is replaced by its cell and `c_k' = (m_k'[e_k(x')])` is added.
//!
//! # Invariant (why an argument over `E` is one over the program)
//!
//! `E` *under*-approximates, uniformly in the maps: for every `(x, c, x', c', w) ∈ E` and every map
//! valuation `m` with `m_k[e_k(x)] = c_k` for all `k`, the maps `m'` the substituted definitions
//! give satisfy `L(x, m, x', m', w)` and `m_k'[e_k(x')] = c_k'`. So a run of `E` from a state whose
//! cells agree with the maps (the stem's end, checked by the caller) is a run of the program, and
//! its cells keep agreeing. Dropping a disjunct only loses runs. [`Eliminated::arrays`] states the
//! same relation with the maps kept, so that the caller re-checks each step of the construction with
//! the solver (`D ∧ cells ∧ ¬arrays` unsat).
//!
//! # Fresh cells
//!
//! A loop whose index moves (`while (a[k] >= 0) { a[k] := a[k] - 1; k := k + 1; }`, or a havocked
//! index) reads a new cell in every iteration, which no finite set of cells follows. [`fresh`]
//! eliminates the maps for runs of a special shape instead, a geometric nontermination argument
//! (Leike & Heizmann, "Geometric nontermination arguments", TACAS 2018) over the result is one for
//! the program when
//! - every map the cycle reads is *constant* at the first loop head (all cells one value `v0`, an
//!   unwritten state variable the argument chooses; the caller's stem check demands
//!   `m = ((as const) v0)` at the stem's end),
//! - every index term of the map's reads and writes equals a ghost state variable at the loop head,
//!   every ghost moves by the same `δ` in every iteration (`sign · δ ≥ 1`), and each write lies
//!   behind each read of the same map in the direction of the motion ([`Fresh::moving`]),
//! - the map after the cycle is a chain of stores over the map itself (no other map, no havoc).
//!
//! Then a read of iteration `n` is at `r_n`, a write of iteration `j < n` at
//! `w_j = w_n − (n − j)·δ`, so `sign · (w_j − r_n) ≤ −(n − j) < 0`: no read ever meets an earlier
//! iteration's write and every read sees `v0` ([`Fresh`]'s invariant). Each read is replaced by
//! `v0`; the caller re-checks `D ∧ (m[e_r] = v0 for every read) ∧ ¬arrays` unsat with the maps
//! arbitrary otherwise, and `D ⇒ moving`.

use super::linear::{self, Q};
use crate::smt::{Op, Sort, Term, TermKind, Var};
use num_traits::{One, Zero};
use std::collections::{BTreeSet, HashMap};

/// Cells at most (the closure under "index after the cycle" of a moving index never ends).
pub const MAX_CELLS: usize = 8;

/// One cell: `map[index]` at the loop head, as the state variable `head`; `post` is its value after
/// the cycle.
#[derive(Clone, Debug)]
pub struct Cell {
    pub map: Var,
    pub index: Term,
    pub head: Var,
    pub post: Var,
}

/// One disjunct of the result of [`eliminate`].
#[derive(Clone, Debug)]
pub struct Eliminated {
    pub cells: Vec<Cell>,
    /// `E`: a conjunction over numeric variables (cells as head and post variables).
    pub numeric: Term,
    /// The disjunct with its maps (definitions substituted) and `c_k' = m_k'[e_k(x')]`:
    /// `cells ∧ E ⇒ arrays` is what the caller re-checks.
    pub arrays: Term,
}

impl Eliminated {
    /// `c_k = m_k[e_k(x)]` for every cell.
    pub fn cell_definitions(&self) -> Term {
        Term::and(
            self.cells
                .iter()
                .map(|c| {
                    Term::eq(
                        &Term::var(&c.head),
                        &Term::select(&Term::var(&c.map), &c.index),
                    )
                })
                .collect(),
        )
    }
}

fn is_array(s: &Sort) -> bool {
    matches!(s, Sort::Array(..))
}

/// One disjunct's literals and the head maps' terms after the cycle.
type HeadMapDisjunct = (Vec<Term>, HashMap<Var, Term>);

/// The disjuncts of `relation`'s boolean DNF (none when it exceeds `limit`) with the map
/// definitions substituted, each with the head maps' terms after the cycle; only those that mention
/// no map other than the head maps (a havocked map is dropped).
fn head_map_disjuncts(
    relation: &Term,
    heads: &BTreeSet<Var>,
    finals: &HashMap<Var, Term>,
    limit: usize,
) -> Option<Vec<HeadMapDisjunct>> {
    let disjuncts = bool_dnf(relation, true, limit)?;
    let foreign = |t: &Term| {
        t.free_vars_ref()
            .iter()
            .any(|v| is_array(&v.sort) && !heads.contains(v))
    };
    let mut kept = Vec::new();
    for lits in disjuncts {
        let (lits, defs) = substitute_definitions(lits, heads);
        let fin: HashMap<Var, Term> = finals
            .iter()
            .map(|(m, f)| (m.clone(), f.substitute(&defs)))
            .collect();
        if lits.iter().any(foreign) || fin.values().any(foreign) {
            continue;
        }
        kept.push((lits, fin));
    }
    Some(kept)
}

/// Eliminates the maps of `relation` (module comment). `heads` are the maps' head variables,
/// `finals` the term of each head map after the cycle (its final SSA variable, or itself when the
/// cycle does not write it), `next` the term of each numeric head variable after the cycle. One
/// elimination per surviving disjunct of the relation's boolean DNF, each with its own cells (an
/// argument lies inside one disjunct); none when the DNF exceeds `limit` disjuncts.
pub fn eliminate(
    relation: &Term,
    heads: &BTreeSet<Var>,
    finals: &HashMap<Var, Term>,
    next: &HashMap<Var, Term>,
    limit: usize,
) -> Vec<Eliminated> {
    // Step 1: substitute the map definitions; keep the disjuncts over head maps only.
    let Some(kept) = head_map_disjuncts(relation, heads, finals, limit) else {
        return Vec::new();
    };
    // Step 2: reads over writes, indices expressed over the head variables as far as each
    // disjunct's equalities define them.
    let head_numeric: BTreeSet<&Var> = next.keys().collect();
    let definable = |v: &Var| !head_numeric.contains(v);
    let sigmas: Vec<HashMap<Var, Term>> = kept
        .iter()
        .map(|(lits, _)| numeric_definitions(lits, &definable))
        .collect();
    let rewritten: Vec<(Vec<Term>, HashMap<Var, Term>)> = kept
        .iter()
        .zip(&sigmas)
        .map(|((lits, fin), sigma)| {
            let lits = lits.iter().map(|l| read_over_write(l, sigma)).collect();
            (lits, fin.clone())
        })
        .collect();
    // Step 3, per disjunct: the cells, closed under the index after the cycle.
    let cell_index = |m: &Var, e: &Term| -> Option<Term> {
        if !heads.contains(m) || !e.free_vars_ref().iter().all(|v| head_numeric.contains(v)) {
            return None;
        }
        if has_select(e) {
            return None;
        }
        Some(canonical(e))
    };
    let add = |cells: &mut Vec<(Var, Term)>, t: &Term| {
        let mut found = Vec::new();
        selects(t, &mut found);
        for (m, e) in found {
            if let Some(e) = cell_index(&m, &e) {
                if !cells.iter().any(|(n, f)| *n == m && *f == e) && cells.len() < MAX_CELLS {
                    cells.push((m, e));
                }
            }
        }
    };
    let mut out = Vec::new();
    for (i, (lits, fin)) in rewritten.iter().enumerate() {
        let mut cells: Vec<(Var, Term)> = Vec::new();
        for l in lits {
            add(&mut cells, l);
        }
        // Post values `m_k'[e_k(x')]`, computed for new cells as they appear; `x'` as far as the
        // disjunct's equalities define it in terms of the head variables.
        let mut posts: Vec<Term> = Vec::new();
        let mut k = 0;
        while k < cells.len() {
            let (m, e) = cells[k].clone();
            let e_next = canonical(&resolve(&e.substitute(next), &sigmas[i]));
            let f = fin.get(&m).cloned().unwrap_or_else(|| Term::var(&m));
            let p = read_over_write(&Term::select(&f, &e_next), &sigmas[i]);
            add(&mut cells, &p);
            posts.push(p);
            k += 1;
        }
        if cells.is_empty() {
            continue;
        }
        let cells: Vec<Cell> = cells
            .into_iter()
            .enumerate()
            .map(|(k, (map, index))| {
                let sort = match &map.sort {
                    Sort::Array(_, el) => (**el).clone(),
                    s => s.clone(),
                };
                Cell {
                    head: Var::new(format!("cell{k}@ghead"), sort.clone()),
                    post: Var::new(format!("cell{k}@gpost"), sort),
                    map,
                    index,
                }
            })
            .collect();
        let replacements: Vec<(Term, Term)> = cells
            .iter()
            .map(|c| {
                let read = Term::select(&Term::var(&c.map), &c.index);
                (read, Term::var(&c.head))
            })
            .collect();
        let mut conj: Vec<Term> = lits.iter().map(|l| replace_all(l, &replacements)).collect();
        for (c, p) in cells.iter().zip(&posts) {
            let p = replace_all(p, &replacements);
            conj.push(Term::eq(&Term::var(&c.post), &p));
        }
        let numeric = Term::and(conj);
        if mentions_array(&numeric) {
            continue;
        }
        // The same disjunct with its maps: the substituted literals and the cells' post values.
        let (orig, fin) = &kept[i];
        let mut with_maps = orig.clone();
        for c in &cells {
            let f = fin
                .get(&c.map)
                .cloned()
                .unwrap_or_else(|| Term::var(&c.map));
            with_maps.push(Term::eq(
                &Term::var(&c.post),
                &Term::select(&f, &c.index.substitute(next)),
            ));
        }
        out.push(Eliminated {
            cells,
            numeric,
            arrays: Term::and(with_maps),
        });
    }
    out
}

/// One map of a fresh-cell elimination ([`fresh`]): its head variable, the state variable `value`
/// (the value `v0` of every cell at the first loop head), the indices at which the cycle reads the
/// map at the loop head (after reads over writes) and the indices of its writes (the store chain of
/// its value after the cycle).
#[derive(Clone, Debug)]
pub struct FreshMap {
    pub map: Var,
    pub value: Var,
    pub reads: Vec<Term>,
    pub writes: Vec<Term>,
    /// The map after the cycle: a chain of stores over `map` at `writes`.
    pub after: Term,
}

/// One disjunct of the result of [`fresh`].
#[derive(Clone, Debug)]
pub struct Fresh {
    pub maps: Vec<FreshMap>,
    /// A ghost state variable per index term: the term, its ghost at the loop head and after the
    /// cycle.
    pub ghosts: Vec<(Term, Var, Var)>,
    /// The step `δ` of every index (an unwritten state variable), and the direction of the motion:
    /// `sign · δ ≥ 1`.
    pub delta: Var,
    pub sign: i8,
    /// `E`: the disjunct over numbers (reads replaced by the maps' `value`) and [`Fresh::moving`].
    pub numeric: Term,
    /// The disjunct with its maps (definitions substituted): `D ∧ reads ⇒ arrays` is what the caller
    /// re-checks.
    pub arrays: Term,
}

impl Fresh {
    /// `m[e] = v0` for every read `e` of every map.
    pub fn read_values(&self) -> Term {
        Term::and(
            self.maps
                .iter()
                .flat_map(|fm| {
                    fm.reads.iter().map(|e| {
                        Term::eq(&Term::select(&Term::var(&fm.map), e), &Term::var(&fm.value))
                    })
                })
                .collect(),
        )
    }

    /// Whether each map's value after the cycle is a chain of stores over the map at exactly its
    /// `writes`, and every index has its ghost (the structure [`Fresh::moving`] relies on).
    pub fn well_formed(&self) -> bool {
        let indexed = |e: &Term| self.ghosts.iter().any(|(g, _, _)| g == e);
        self.maps.iter().all(|fm| {
            store_chain(&fm.after, &fm.map).is_some_and(|w| w == fm.writes)
                && fm.reads.iter().chain(&fm.writes).all(indexed)
        })
    }

    /// The motion of the indices: each index equals its ghost at the loop head, each ghost moves by
    /// `δ`, `sign · δ ≥ 1`, and each write of a map lies behind each of its reads
    /// (`sign · (write − read) ≤ 0`). In a run whose every step satisfies this, a read of iteration
    /// `n` never meets a write of an iteration `j < n`: that write is at most
    /// `read − (n − j)` in the direction of the motion.
    pub fn moving(&self) -> Term {
        let dt = Term::var(&self.delta);
        let one = match self.delta.sort {
            Sort::Real => Term::real(Q::one()),
            _ => Term::int(1),
        };
        let mut conj = Vec::new();
        for (e, h, p) in &self.ghosts {
            conj.push(Term::eq(e, &Term::var(h)));
            conj.push(Term::eq(
                &Term::var(p),
                &Term::add(vec![Term::var(h), dt.clone()]),
            ));
        }
        let behind = |w: &Term, r: &Term| {
            if self.sign > 0 {
                Term::le(w, r)
            } else {
                Term::ge(w, r)
            }
        };
        conj.push(if self.sign > 0 {
            Term::ge(&dt, &one)
        } else {
            Term::le(&dt, &Term::neg(&one))
        });
        for fm in &self.maps {
            for w in &fm.writes {
                for r in &fm.reads {
                    conj.push(behind(w, r));
                }
            }
        }
        Term::and(conj)
    }
}

/// The indices of a chain of stores over the variable `map` (outermost last), `None` if `t` is not
/// one.
fn store_chain(t: &Term, map: &Var) -> Option<Vec<Term>> {
    let mut writes = Vec::new();
    let mut t = t.clone();
    loop {
        if t.as_var() == Some(map) {
            writes.reverse();
            return Some(writes);
        }
        let (Op::Store, [b, i, _]) = t.as_app()? else {
            return None;
        };
        writes.push(i.clone());
        t = b.clone();
    }
}

/// Fresh-cell elimination: a cycle's relation over maps as one over numbers, for runs that start
/// with every cell of a map equal to one value `v0` and read in each iteration only cells that no
/// earlier iteration wrote (Leike & Heizmann, TACAS 2018, applied after the map elimination of
/// Heizmann et al., ATVA 2013; here the cells the cycle reads are *fresh* instead of state
/// variables, so a moving index needs no unbounded set of cells).
///
/// Per disjunct of the relation's boolean DNF (same inputs as [`eliminate`]): map definitions
/// substituted, reads pushed over writes; every select left must read a head map at an index
/// without maps, every head map read must be written (if at all) by a chain of stores over itself
/// at indices without maps. Each read `m[e]` is replaced by the map's `v0` (an unwritten state
/// variable), and [`Fresh::moving`] is conjoined with a ghost per index. Both directions of the
/// motion are returned (the one the index terms over head variables show first; a direction they
/// contradict is left out).
///
/// # Invariant
///
/// Let `(x_n, w_n)` be a run in which each step satisfies `E` ([`Fresh::numeric`]), `m_0` the
/// constant maps `v0`, and `m_{n+1}` the stores of [`FreshMap::after`] applied to `m_n` with step
/// `n`'s values. By [`Fresh::moving`], each write of an iteration `j < n` lies strictly behind each
/// read of iteration `n`, so `m_n` agrees with `m_0` at every read of iteration `n`: all reads see
/// `v0`. The caller re-checks that the numeric step with `m[e_r] = v0` at the reads implies the
/// disjunct with maps (`D ∧ reads ∧ ¬arrays` unsat, any maps), so the run with `m_n` is a run of
/// the cycle.
pub fn fresh(
    relation: &Term,
    heads: &BTreeSet<Var>,
    finals: &HashMap<Var, Term>,
    next: &HashMap<Var, Term>,
    limit: usize,
) -> Vec<Fresh> {
    let Some(kept) = head_map_disjuncts(relation, heads, finals, limit) else {
        return Vec::new();
    };
    let head_numeric: BTreeSet<&Var> = next.keys().collect();
    let definable = |v: &Var| !head_numeric.contains(v);
    let mut out = Vec::new();
    'disjuncts: for (lits, fin) in kept {
        let sigma = numeric_definitions(&lits, &definable);
        let rewritten: Vec<Term> = lits.iter().map(|l| read_over_write(l, &sigma)).collect();
        let mut found = Vec::new();
        for l in &rewritten {
            selects(l, &mut found);
        }
        let mut maps: Vec<FreshMap> = Vec::new();
        for (m, e) in found {
            if !heads.contains(&m) || has_select(&e) || !e.sort_ref().is_numeric() {
                continue 'disjuncts;
            }
            let k = match maps.iter().position(|fm| fm.map == m) {
                Some(k) => k,
                None => {
                    let Sort::Array(_, el) = &m.sort else {
                        continue 'disjuncts;
                    };
                    let after = fin.get(&m).cloned().unwrap_or_else(|| Term::var(&m));
                    let Some(writes) = store_chain(&after, &m) else {
                        continue 'disjuncts;
                    };
                    if writes
                        .iter()
                        .any(|i| has_select(i) || !i.sort_ref().is_numeric())
                    {
                        continue 'disjuncts;
                    }
                    let value = Var::new(format!("fresh{}@ghead", maps.len()), (**el).clone());
                    maps.push(FreshMap {
                        map: m.clone(),
                        value,
                        reads: Vec::new(),
                        writes,
                        after,
                    });
                    maps.len() - 1
                }
            };
            if !maps[k].reads.contains(&e) {
                maps[k].reads.push(e);
            }
        }
        if maps.is_empty() {
            continue;
        }
        // One ghost per index term, all indices of one sort.
        let mut indices: Vec<Term> = Vec::new();
        for fm in &maps {
            for e in fm.reads.iter().chain(&fm.writes) {
                if !indices.contains(e) {
                    indices.push(e.clone());
                }
            }
        }
        let sort = indices[0].sort_ref().clone();
        if indices.iter().any(|e| *e.sort_ref() != sort) {
            continue;
        }
        let ghosts: Vec<(Term, Var, Var)> = indices
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let h = Var::new(format!("fresh_index{k}@ghead"), sort.clone());
                let p = Var::new(format!("fresh_index{k}@gpost"), sort.clone());
                (e.clone(), h, p)
            })
            .collect();
        // The directions an index over head variables allows (its step is a constant).
        let mut signs: Vec<i8> = vec![1, -1];
        for e in &indices {
            if !e.free_vars_ref().iter().all(|v| head_numeric.contains(v)) {
                continue;
            }
            let after = resolve(&e.substitute(next), &sigma);
            let step = linear::linear(&after)
                .zip(linear::linear(&resolve(e, &sigma)))
                .map(|(a, b)| a.add_scaled(&b, &-Q::one()));
            if let Some(d) = step.filter(|d| d.is_constant()) {
                signs.retain(|&s| {
                    if s > 0 {
                        d.constant >= Q::one()
                    } else {
                        d.constant <= -Q::one()
                    }
                });
            }
        }
        let values: HashMap<Var, Var> = maps
            .iter()
            .map(|fm| (fm.map.clone(), fm.value.clone()))
            .collect();
        let replaced: Vec<Term> = rewritten
            .iter()
            .map(|l| replace_reads(l, &values))
            .collect();
        for sign in signs {
            let mut f = Fresh {
                maps: maps.clone(),
                ghosts: ghosts.clone(),
                delta: Var::new("fresh_delta@ghead", sort.clone()),
                sign,
                numeric: Term::tt(),
                arrays: Term::and(lits.clone()),
            };
            let mut conj = replaced.clone();
            conj.push(f.moving());
            f.numeric = Term::and(conj);
            if !mentions_array(&f.numeric) {
                out.push(f);
            }
        }
    }
    out
}

/// `t` with each `select(m, e)` of a map `m` of `values` replaced by its value variable.
fn replace_reads(t: &Term, values: &HashMap<Var, Var>) -> Term {
    match t.kind() {
        TermKind::App(op, args) => {
            if *op == Op::Select && args.len() == 2 {
                if let Some(v) = args[0].as_var().and_then(|m| values.get(m)) {
                    return Term::var(v);
                }
            }
            let new: Vec<Term> = args.iter().map(|a| replace_reads(a, values)).collect();
            t.with_args(new)
        }
        _ => t.clone(),
    }
}

/// For the ranking synthesis, which needs an *over*-approximation: `formula` as a disjunction in
/// which, per disjunct of its boolean DNF, the map variables that `keep` rejects (post and
/// intermediate values) are substituted by their definitions and reads are pushed over writes
/// (steps 1 and 2 of the module comment; equivalent to `formula` with those variables existentially
/// quantified). `None` beyond `limit` disjuncts.
pub fn expand_maps(formula: &Term, keep: &dyn Fn(&Var) -> bool, limit: usize) -> Option<Term> {
    let mut out = Vec::new();
    for lits in bool_dnf(formula, true, limit)? {
        let kept: BTreeSet<Var> = lits
            .iter()
            .flat_map(|l| l.free_vars_ref().iter().cloned())
            .filter(|v| is_array(&v.sort) && keep(v))
            .collect();
        let (lits, _) = substitute_definitions(lits, &kept);
        let lits = merge_equal_maps(lits);
        let numeric_kept = |v: &Var| v.sort.is_numeric() && keep(v);
        let sigma = numeric_definitions(&lits, &|v: &Var| !numeric_kept(v));
        out.push(Term::and(
            lits.iter().map(|l| read_over_write(l, &sigma)).collect(),
        ));
    }
    Some(Term::or(out))
}

/// A boolean DNF of `t` (negations pushed to the atoms; atoms are kept as they are), at most `limit`
/// disjuncts.
fn bool_dnf(t: &Term, pos: bool, limit: usize) -> Option<Vec<Vec<Term>>> {
    let product = |a: Vec<Vec<Term>>, b: Vec<Vec<Term>>| -> Option<Vec<Vec<Term>>> {
        if a.len().saturating_mul(b.len()) > limit {
            return None;
        }
        let mut out = Vec::new();
        for x in &a {
            for y in &b {
                let mut c = x.clone();
                c.extend(y.iter().cloned());
                out.push(c);
            }
        }
        Some(out)
    };
    if let Some(b) = t.as_bool() {
        return Some(if b == pos {
            vec![Vec::new()]
        } else {
            Vec::new()
        });
    }
    let conj = |args: &[Term], pos: bool| -> Option<Vec<Vec<Term>>> {
        let mut acc = vec![Vec::new()];
        for a in args {
            acc = product(acc, bool_dnf(a, pos, limit)?)?;
        }
        Some(acc)
    };
    let disj = |args: &[Term], pos: bool| -> Option<Vec<Vec<Term>>> {
        let mut acc = Vec::new();
        for a in args {
            acc.extend(bool_dnf(a, pos, limit)?);
            if acc.len() > limit {
                return None;
            }
        }
        Some(acc)
    };
    match t.as_app() {
        Some((Op::Not, [a])) => bool_dnf(a, !pos, limit),
        Some((Op::And, args)) if pos => conj(args, true),
        Some((Op::And, args)) => disj(args, false),
        Some((Op::Or, args)) if pos => disj(args, true),
        Some((Op::Or, args)) => conj(args, false),
        Some((Op::Implies, [a, b])) => {
            bool_dnf(&Term::or(vec![Term::not(a), b.clone()]), pos, limit)
        }
        _ => Some(vec![vec![if pos { t.clone() } else { Term::not(t) }]]),
    }
}

/// Substitutes every literal `v = t` (or `t = v`) with `v` a map variable not in `heads` and not in
/// `t`; the remaining literals and the substitution.
fn substitute_definitions(
    mut lits: Vec<Term>,
    heads: &BTreeSet<Var>,
) -> (Vec<Term>, HashMap<Var, Term>) {
    let mut defs: HashMap<Var, Term> = HashMap::new();
    loop {
        let found = lits.iter().enumerate().find_map(|(i, l)| {
            let (Op::Eq, [a, b]) = l.as_app()? else {
                return None;
            };
            for (v, t) in [(a, b), (b, a)] {
                if let Some(v) = v.as_var() {
                    if is_array(&v.sort) && !heads.contains(v) && !t.has_free_var(v) {
                        return Some((i, v.clone(), t.clone()));
                    }
                }
            }
            None
        });
        let Some((i, v, t)) = found else {
            break;
        };
        lits.remove(i);
        let one: HashMap<Var, Term> = HashMap::from([(v.clone(), t.clone())]);
        lits = lits.iter().map(|l| l.substitute(&one)).collect();
        for d in defs.values_mut() {
            *d = d.substitute(&one);
        }
        defs.insert(v, t);
    }
    (lits, defs)
}

/// The numeric variables (those `definable` accepts) that literals `v = t` of a disjunct define,
/// each with its first definition (`t` not mentioning `v`).
fn numeric_definitions(lits: &[Term], definable: &dyn Fn(&Var) -> bool) -> HashMap<Var, Term> {
    let mut defs: HashMap<Var, Term> = HashMap::new();
    for l in lits {
        let Some((Op::Eq, [a, b])) = l.as_app() else {
            continue;
        };
        let mut done = false;
        for (v, t) in [(a, b), (b, a)] {
            if let Some(v) = v.as_var() {
                if v.sort.is_numeric()
                    && definable(v)
                    && !defs.contains_key(v)
                    && !t.has_free_var(v)
                    && !mentions_array(t)
                {
                    defs.insert(v.clone(), t.clone());
                    done = true;
                    break;
                }
            }
        }
        // A linear equation solved for a variable with coefficient ±1 (exact over the integers).
        let (Some(la), Some(lb)) = (linear::linear(a), linear::linear(b)) else {
            continue;
        };
        if done {
            continue;
        }
        let d = la.add_scaled(&lb, &-Q::one());
        let solvable = d.coef.iter().find(|(v, c)| {
            definable(v) && !defs.contains_key(*v) && (c.is_one() || (-*c).is_one())
        });
        if let Some((v, c)) = solvable {
            let mut rest = d.clone();
            rest.coef.remove(v);
            let rest = rest.scale(&-(Q::one() / c));
            let integral = rest
                .coef
                .iter()
                .all(|(w, k)| w.sort == Sort::Int && k.is_integer())
                && rest.constant.is_integer();
            if v.sort == Sort::Real || integral {
                defs.insert(v.clone(), rest.term());
            }
        }
    }
    defs
}

/// `t` with `defs` substituted until nothing changes (bounded: the definitions may be cyclic).
fn resolve(t: &Term, defs: &HashMap<Var, Term>) -> Term {
    let mut t = t.clone();
    for _ in 0..16 {
        let u = crate::smt::simplify(&t.substitute(defs));
        if u == t {
            break;
        }
        t = u;
    }
    t
}

/// For each literal `a = b` between two map variables, `b` (the later name) replaced by `a` in the
/// other literals (the literal stays, so the result is equivalent).
fn merge_equal_maps(mut lits: Vec<Term>) -> Vec<Term> {
    for _ in 0..lits.len() {
        let found = lits.iter().enumerate().find_map(|(i, l)| {
            let (Op::Eq, [a, b]) = l.as_app()? else {
                return None;
            };
            let (a, b) = (a.as_var()?, b.as_var()?);
            if !is_array(&a.sort) || a == b {
                return None;
            }
            let (keep, gone) = if a.name <= b.name { (a, b) } else { (b, a) };
            let elsewhere = lits
                .iter()
                .enumerate()
                .any(|(j, m)| j != i && m.has_free_var(gone));
            elsewhere.then(|| (i, keep.clone(), gone.clone()))
        });
        let Some((i, keep, gone)) = found else {
            break;
        };
        let one: HashMap<Var, Term> = HashMap::from([(gone, Term::var(&keep))]);
        lits = lits
            .iter()
            .enumerate()
            .map(|(j, l)| {
                if j == i {
                    l.clone()
                } else {
                    l.substitute(&one)
                }
            })
            .collect();
    }
    lits
}

/// `i = j` for indices: decided when `i - j` is a constant once `defs` are substituted (the
/// disjunct's own equalities, so the decision holds wherever the disjunct does).
fn index_eq(i: &Term, j: &Term, defs: &HashMap<Var, Term>) -> Term {
    if i == j {
        return Term::tt();
    }
    let (ri, rj) = (resolve(i, defs), resolve(j, defs));
    if let (Some(a), Some(b)) = (linear::linear(&ri), linear::linear(&rj)) {
        let d = a.add_scaled(&b, &-Q::one());
        if d.is_constant() {
            return Term::bool(d.constant.is_zero());
        }
    }
    Term::eq(i, j)
}

/// A linear index in a canonical form (so that `1 + h` and `h + 1` are one cell).
fn canonical(e: &Term) -> Term {
    match linear::linear(e) {
        Some(l) => crate::smt::simplify(&l.term()),
        None => e.clone(),
    }
}

/// `t` with every select pushed through stores and `ite`s of maps (module comment, step 2), index
/// equalities decided under the numeric definitions `defs` where they can be.
pub fn read_over_write(t: &Term, defs: &HashMap<Var, Term>) -> Term {
    match t.kind() {
        TermKind::App(op, args) => {
            let args: Vec<Term> = args.iter().map(|a| read_over_write(a, defs)).collect();
            if *op == Op::Select && args.len() == 2 {
                select_down(&args[0], &args[1], defs, 0)
            } else {
                t.with_args(args)
            }
        }
        _ => t.clone(),
    }
}

fn select_down(a: &Term, j: &Term, defs: &HashMap<Var, Term>, depth: usize) -> Term {
    if depth > 64 {
        return Term::select(a, j);
    }
    match a.as_app() {
        Some((Op::Store, [b, i, v])) => {
            let c = index_eq(i, j, defs);
            match c.as_bool() {
                Some(true) => v.clone(),
                Some(false) => select_down(b, j, defs, depth + 1),
                None => Term::ite(&c, v, &select_down(b, j, defs, depth + 1)),
            }
        }
        Some((Op::Ite, [c, a1, a2])) => Term::ite(
            c,
            &select_down(a1, j, defs, depth + 1),
            &select_down(a2, j, defs, depth + 1),
        ),
        Some((Op::ConstArray(_), [v])) => v.clone(),
        _ => Term::select(a, &canonical(&resolve(j, defs))),
    }
}

/// Every `select(m, e)` of `t` with `m` a variable.
fn selects(t: &Term, out: &mut Vec<(Var, Term)>) {
    if let TermKind::App(op, args) = t.kind() {
        if *op == Op::Select && args.len() == 2 {
            if let Some(m) = args[0].as_var() {
                out.push((m.clone(), args[1].clone()));
            }
        }
        for a in args {
            selects(a, out);
        }
    }
}

fn has_select(t: &Term) -> bool {
    let mut v = Vec::new();
    selects(t, &mut v);
    !v.is_empty() || mentions_array(t)
}

/// Whether some subterm of `t` is of an array sort (a map variable, a store, a select's map).
fn mentions_array(t: &Term) -> bool {
    if is_array(t.sort_ref()) {
        return true;
    }
    match t.kind() {
        TermKind::App(_, args) => args.iter().any(mentions_array),
        TermKind::Quant(..) => true,
        _ => false,
    }
}

/// `t` with each occurrence of a replaced term substituted (bottom-up, innermost first).
fn replace_all(t: &Term, by: &[(Term, Term)]) -> Term {
    let t = match t.kind() {
        TermKind::App(_, args) => {
            let new: Vec<Term> = args.iter().map(|a| replace_all(a, by)).collect();
            if new.iter().zip(args).all(|(a, b)| a == b) {
                t.clone()
            } else {
                t.with_args(new)
            }
        }
        _ => t.clone(),
    };
    by.iter()
        .find(|(w, _)| *w == t)
        .map(|(_, r)| r.clone())
        .unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Term {
        Term::int(n)
    }

    #[test]
    fn reads_over_writes_decide_constant_offsets() {
        let m = Var::new("m", Sort::array(Sort::Int, Sort::Int));
        let h = Var::new("h", Sort::Int);
        let (mt, ht) = (Term::var(&m), Term::var(&h));
        let h1 = Term::add(vec![ht.clone(), int(1)]);
        // m[h := 5][h + 1] is m[h + 1]; m[h := 5][h] is 5.
        let st = Term::store(&mt, &ht, &int(5));
        assert_eq!(
            read_over_write(&Term::select(&st, &h1), &HashMap::new()),
            Term::select(&mt, &canonical(&h1))
        );
        assert_eq!(
            read_over_write(&Term::select(&st, &ht), &HashMap::new()),
            int(5)
        );
        // m[h := 5][k] is ite(h = k, 5, m[k]).
        let k = Term::var(&Var::new("k", Sort::Int));
        let r = read_over_write(&Term::select(&st, &k), &HashMap::new());
        assert!(r.is_app_of(&Op::Ite), "{r}");
    }

    #[test]
    fn a_counter_in_a_cell() {
        // mem[head] != 0 ∧ mem' = mem[head := mem[head] + 1]: the cell mem[head] grows by one.
        let m = Var::new("mem@ghead", Sort::array(Sort::Int, Sort::Int));
        let m1 = Var::new("mem@gloop1", Sort::array(Sort::Int, Sort::Int));
        let h = Var::new("head@ghead", Sort::Int);
        let (mt, ht) = (Term::var(&m), Term::var(&h));
        let cell = Term::select(&mt, &ht);
        let rel = Term::and(vec![
            Term::not(&Term::eq(&cell, &int(0))),
            Term::eq(
                &Term::var(&m1),
                &Term::store(&mt, &ht, &Term::add(vec![cell.clone(), int(1)])),
            ),
        ]);
        let heads = BTreeSet::from([m.clone()]);
        let finals = HashMap::from([(m.clone(), Term::var(&m1))]);
        let next = HashMap::from([(h.clone(), ht.clone())]);
        let es = eliminate(&rel, &heads, &finals, &next, 16);
        assert_eq!(es.len(), 1);
        let e = &es[0];
        assert_eq!(e.cells.len(), 1);
        assert!(!mentions_array(&e.numeric), "{}", e.numeric);
        let c = Term::var(&e.cells[0].head);
        let p = Term::var(&e.cells[0].post);
        // E contains c' = c + 1.
        let d = e.numeric.disjuncts();
        assert_eq!(d.len(), 1);
        let want = Term::eq(&p, &Term::add(vec![c.clone(), int(1)]));
        assert!(
            d[0].conjuncts()
                .iter()
                .any(|l| crate::smt::simplify(l) == crate::smt::simplify(&want)),
            "{}",
            d[0]
        );
        let _ = Q::zero();
    }

    /// [`fresh`] on `a[h] >= 0 ∧ a' = a[w(h) := a[h] - 1] ∧ h' = h + step` (or `a' = after`), with a
    /// second head map `b` that the cycle leaves alone.
    fn moving(step: i64, write: &dyn Fn(&Term) -> Term, after: Option<&Var>) -> Vec<Fresh> {
        let a = Var::new("a@ghead", Sort::array(Sort::Int, Sort::Int));
        let b = Var::new("b@ghead", Sort::array(Sort::Int, Sort::Int));
        let a1 = Var::new("a@gloop1", Sort::array(Sort::Int, Sort::Int));
        let h = Var::new("h@ghead", Sort::Int);
        let h1 = Var::new("h@gloop1", Sort::Int);
        let (at, ht) = (Term::var(&a), Term::var(&h));
        let read = Term::select(&at, &ht);
        let stored = match after {
            Some(m) => Term::var(m),
            None => Term::store(&at, &write(&ht), &Term::sub(&read, &int(1))),
        };
        let rel = Term::and(vec![
            Term::ge(&read, &int(0)),
            Term::eq(&Term::var(&a1), &stored),
            Term::eq(&Term::var(&h1), &Term::add(vec![ht.clone(), int(step)])),
        ]);
        let heads = BTreeSet::from([a.clone(), b.clone()]);
        let finals = HashMap::from([(a.clone(), Term::var(&a1)), (b.clone(), Term::var(&b))]);
        let next = HashMap::from([(h.clone(), Term::var(&h1))]);
        fresh(&rel, &heads, &finals, &next, 16)
    }

    #[test]
    fn a_moving_index_reads_fresh_cells() {
        let fs = moving(1, &|h| h.clone(), None);
        // One direction: the index grows.
        assert_eq!(fs.len(), 1);
        let f = &fs[0];
        assert_eq!(f.sign, 1);
        assert!(f.well_formed());
        assert_eq!(f.maps.len(), 1);
        assert_eq!(f.maps[0].reads, f.maps[0].writes);
        assert!(!mentions_array(&f.numeric), "{}", f.numeric);
        // The read became the map's initial value: `v0 >= 0` is a conjunct.
        let v0 = Term::var(&f.maps[0].value);
        let want = crate::smt::simplify(&Term::ge(&v0, &int(0)));
        assert!(
            f.numeric
                .conjuncts()
                .iter()
                .any(|l| crate::smt::simplify(l) == want),
            "{}",
            f.numeric
        );
        // Moving down, the other direction only.
        let fs = moving(-3, &|h| h.clone(), None);
        assert_eq!(fs.iter().map(|f| f.sign).collect::<Vec<_>>(), vec![-1]);
    }

    #[test]
    fn fresh_cells_need_moving_indices_and_stores_over_the_map() {
        // The index stands still: no direction.
        assert!(moving(0, &|h| h.clone(), None).is_empty());
        // The map after the cycle is another map: not a chain of stores over it.
        let b = Var::new("b@ghead", Sort::array(Sort::Int, Sort::Int));
        assert!(moving(1, &|h| h.clone(), Some(&b)).is_empty());
        // A write ahead of the read: the motion demands it behind (`h + 1 <= h`), so the relation
        // contradicts the motion.
        let fs = moving(1, &|h| Term::add(vec![h.clone(), int(1)]), None);
        assert_eq!(fs.len(), 1);
        let (w, r) = (&fs[0].maps[0].writes[0], &fs[0].maps[0].reads[0]);
        let behind = crate::smt::simplify(&Term::le(w, r));
        assert!(
            fs[0]
                .moving()
                .conjuncts()
                .iter()
                .any(|l| crate::smt::simplify(l) == behind),
            "{}",
            fs[0].moving()
        );
    }

    #[test]
    fn a_moving_index_without_closure_is_dropped() {
        // h' = h + 1 and the cell's post value reads m[h + 1], then m[h + 2], …: beyond MAX_CELLS the
        // disjunct reads a map outside the cells and is dropped.
        let m = Var::new("m@ghead", Sort::array(Sort::Int, Sort::Int));
        let h = Var::new("h@ghead", Sort::Int);
        let h1 = Var::new("h@gloop1", Sort::Int);
        let (mt, ht) = (Term::var(&m), Term::var(&h));
        let rel = Term::and(vec![
            Term::not(&Term::eq(&Term::select(&mt, &ht), &int(0))),
            Term::eq(&Term::var(&h1), &Term::add(vec![ht.clone(), int(1)])),
        ]);
        let heads = BTreeSet::from([m.clone()]);
        let finals = HashMap::from([(m.clone(), mt.clone())]);
        let next = HashMap::from([(h.clone(), Term::var(&h1))]);
        assert!(eliminate(&rel, &heads, &finals, &next, 16).is_empty());
    }
}
