//! Quantified array invariants over a loop's index range: `∀k. lo <= k < i ==> a[k] == e(k)`.
//!
//! A loop that fills an array cell by cell (`a[i] := e; i := i + 1`) keeps the invariant that every
//! cell it has passed holds `e` at that index; interpolants of unrolled traces only ever name
//! single cells, so trace abstraction unrolls such a loop for ever. Following the template idea of
//! quantified invariant inference (S. Gulwani, B. McCloskey, A. Tiwari: "Lifting abstract
//! interpreters to quantified logical domains", POPL 2008; Houdini-style filtering as in
//! C. Flanagan, S. Qadeer: "Predicate abstraction for software verification", POPL 2002), the
//! candidates are read off the letters: for every store `a[i := e]` whose index is an integer
//! program variable `i` and whose value `e` reads only program variables other than `a`, the
//! candidates are `∀k. b <= k < i ==> a[k] == e[i := k]` (an ascending loop) and
//! `∀k. i < k < b ==> a[k] == e[i := k]` (a descending one), for bounds `b` among the program's
//! small integer constants and integer variables, at every location.
//!
//! They are filtered by a Houdini run of their own on top of the invariants the quantifier-free
//! synthesis proved ([`super::invariants`]): for every letter `a: l -> l'` the query
//! `Inv(l) ∧ Q(l) ∧ a ∧ Inv(l')' ∧ ∨_j ¬body_j(c_j)'` (the negated candidates of `l'`, each
//! instantiated at a fresh constant `c_j`, so that a model names a falsified candidate by a ground
//! value) drops the candidates it falsifies; `unknown` drops every candidate of `l'`.
//!
//! Invariant of the result: for every reachable letter `a: l -> l'`, `Inv(l) ∧ Q(l) ∧ a ⇒ Q(l')'`
//! was answered `unsat`, and `Inv` is inductive by itself, so `Inv ∧ Q` is inductive (initiation is
//! the check of the letters leaving the initial location, which carries no candidate). When the
//! budget runs out the extension adds nothing.

use super::blocks::Encoded;
use super::cfa::{Cfa, LocId};
use super::hoare::primed;
use super::invariants::{Invariants, Limits};
use super::transition::{PVar, Vocabulary};
use crate::smt::{Op, SatResult, Session, Sort, Term, Value, Var};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::time::Instant;

/// At most this many quantified candidates per location.
const MAX_CANDIDATES: usize = 48;
/// At most this many queries.
const MAX_QUERIES: usize = 300;

/// A store `a[i := e]` of a letter: the map, the index variable and the stored value (over pre
/// variables).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Fill {
    map: Var,
    index: Var,
    value: Term,
}

/// `inv` extended by the quantified candidates that are inductive relative to it (see the module
/// comment); `inv` unchanged when there are none or the budget runs out.
pub fn extend(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    session: &mut Session,
    limits: &Limits,
    mut inv: Invariants,
) -> Invariants {
    let reach = reachable(enc);
    let letters: Vec<usize> = reach.iter().flat_map(|l| enc.out[*l].clone()).collect();
    let mut fills: BTreeSet<Fill> = BTreeSet::new();
    for &a in &letters {
        collect_fills(voc, &enc.letters[a].tf.formula, &mut fills);
    }
    if fills.is_empty() {
        return inv;
    }
    let bounds = bounds(voc, enc, &letters);
    let targets: Vec<LocId> = reach
        .iter()
        .copied()
        .filter(|l| *l != enc.init && cfa.error_of(*l).is_none())
        .collect();
    let mut cands: BTreeMap<LocId, Vec<(Var, Term)>> = BTreeMap::new();
    let mut fresh = 0usize;
    for &l in &targets {
        let mut cs = Vec::new();
        for f in &fills {
            let k = Var::new(format!("k!q{fresh}"), Sort::Int);
            fresh += 1;
            let kt = Term::var(&k);
            let i = Term::var(&f.index);
            let value = f
                .value
                .substitute(&HashMap::from([(f.index.clone(), kt.clone())]));
            let cell = Term::eq(&Term::select(&Term::var(&f.map), &kt), &value);
            for b in bounds.iter().filter(|b| b.as_var() != Some(&f.index)) {
                let up = Term::and(vec![Term::le(b, &kt), Term::lt(&kt, &i)]);
                cs.push((k.clone(), Term::implies(&up, &cell)));
                let down = Term::and(vec![Term::lt(&i, &kt), Term::lt(&kt, b)]);
                cs.push((k.clone(), Term::implies(&down, &cell)));
            }
        }
        cs.truncate(MAX_CANDIDATES);
        cands.insert(l, cs);
    }
    let Some(found) = houdini(voc, enc, &letters, &inv, cands, session, limits) else {
        return inv;
    };
    for (l, qs) in found {
        let at = inv.at.entry(l).or_default();
        for (k, body) in qs {
            at.push(Term::forall(vec![k], body));
        }
    }
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

fn collect_fills(voc: &Vocabulary, t: &Term, out: &mut BTreeSet<Fill>) {
    if let Some((Op::Store, args)) = t.as_app()
        && let [m, i, e] = args
        && let (Some(map), Some(index)) = (m.as_var(), i.as_var())
        && index.sort == Sort::Int
        && is_pre(voc, map)
        && is_pre(voc, index)
        && !e.has_quantifier()
        && e.free_vars().iter().all(|v| is_pre(voc, v) && v != map)
    {
        out.insert(Fill {
            map: map.clone(),
            index: index.clone(),
            value: e.clone(),
        });
    }
    for a in t.args() {
        collect_fills(voc, a, out);
    }
}

/// Bounds of index ranges: the program's integer constants of smallest magnitude (and 0), then
/// its integer variables.
fn bounds(voc: &Vocabulary, enc: &Encoded, letters: &[usize]) -> Vec<Term> {
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
    let mut out: Vec<Term> = cs.into_iter().take(4).map(Term::int).collect();
    out.extend(vars.iter().take(6).map(Term::var));
    out
}

fn walk(t: &Term, f: &mut dyn FnMut(&Term)) {
    f(t);
    for a in t.args() {
        walk(a, f);
    }
}

fn timed_out(limits: &Limits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
}

/// The greatest subset of `cands` inductive relative to `inv`; `None` if the budget runs out.
#[allow(clippy::type_complexity)]
fn houdini(
    voc: &Vocabulary,
    enc: &Encoded,
    letters: &[usize],
    inv: &Invariants,
    mut cands: BTreeMap<LocId, Vec<(Var, Term)>>,
    session: &mut Session,
    limits: &Limits,
) -> Option<BTreeMap<LocId, Vec<(Var, Term)>>> {
    let mut queries = 0;
    let mut queue: VecDeque<usize> = letters.iter().copied().collect();
    let mut queued: BTreeSet<usize> = letters.iter().copied().collect();
    let quantified = |qs: &[(Var, Term)]| -> Vec<Term> {
        qs.iter()
            .map(|(k, b)| Term::forall(vec![k.clone()], b.clone()))
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
        let instances: Vec<Term> = posts
            .iter()
            .enumerate()
            .map(|(j, (k, body))| {
                let c = Var::new(format!("k!w{j}"), Sort::Int);
                let inst = body.substitute(&HashMap::from([(k.clone(), Term::var(&c))]));
                primed(voc, &inst, letter)
            })
            .collect();
        session.push();
        session.assert(&inv.term_at(letter.src));
        session.assert(&Term::and(pre));
        session.assert(&letter.tf.formula);
        session.assert(&post_inv);
        session.assert(&Term::or(instances.iter().map(Term::not).collect()));
        let keep: Option<Vec<bool>> = match session.check_sat() {
            SatResult::Unsat => None,
            SatResult::Sat => match session.get_values(&instances) {
                Ok(vals) if vals.len() == posts.len() => Some(
                    vals.iter()
                        .map(|(_, v)| matches!(v, Value::Bool(true)))
                        .collect(),
                ),
                _ => Some(vec![false; posts.len()]),
            },
            SatResult::Unknown(_) => Some(vec![false; posts.len()]),
        };
        session.pop();
        let Some(mut keep) = keep else { continue };
        if keep.iter().all(|k| *k) {
            keep = vec![false; posts.len()];
        }
        let kept: Vec<(Var, Term)> = posts
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
    Some(cands)
}
