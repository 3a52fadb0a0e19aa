//! Nontermination by a closed recurrence set of a lasso (Gupta, Henzinger, Majumdar, Rybalchenko
//! & Xu, "Proving non-termination", POPL 2008; Chen, Cook, Fuhs, Nimkar & O'Hearn, "Proving
//! nontermination via safety", TACAS 2014), for loops whose growth is not geometric with a rational
//! eigenvalue (`x, y := x + y, x`: Fibonacci numbers) or not linear at all.
//!
//! # What it computes
//!
//! A lasso `stem · cycle^ω` of exact letters, the cycle composed into one transition formula
//! `C(x, x')` at the loop head `h`. A *recurrence set* is a conjunction `R` of facts at `h` with
//! - (reach) a state `s ⊨ R` that the program reaches at `h`: the stem followed by the cycle
//!   `k − 1` times ends in `s`;
//! - (closed) `R(x) ∧ C(x, x') ⇒ R(x')`: every successor of a state of `R` is in `R`;
//! - (enabled) `R(x) ⇒ ∃x'. C(x, x')`: every state of `R` has a successor.
//!
//! From `s` the cycle then runs forever: an infinite execution. The seed `s` is read off a model
//! of the stem followed by the cycle `k` times (`k` = 2, then 5: a state the loop has already
//! kept going from), and `R` is the greatest subset of candidate facts that holds at `s` and is
//! closed: Houdini ([`invariants::synthesize_on`], with the candidates of supporting invariants —
//! the cycle's comparisons, bounds by its constants and `s`'s values, comparisons between
//! variables, Karr's equalities through the orbit of `s`) on a two-location automaton whose entry
//! letter sets the state to `s` and whose loop is `C`.
//!
//! # Soundness invariant
//!
//! NONTERMINATING is returned only after a *fresh* session answered: the stem and `k − 1` cycles
//! ending in `s` `sat` (reach); `R` at `s` `sat` (ground); `R ∧ C ∧ ¬R'` `unsat` (closed);
//! `R ∧ ∀x', w. ¬C(x, x', w)` `unsat` (enabled; `w` the cycle's auxiliaries). The letters are
//! exact (no `{:overapproximation}` edge, no uninterpreted function) and the stem and cycle are
//! paths of the automaton from its initial location, so the execution is one of the program. With
//! machine integers (C) the execution is one over mathematical integers: should it reach a signed
//! overflow, that is undefined behaviour, after which nontermination is not excluded either.

use super::ranking::{exact_letter, session_config, ssa, timed_out};
use crate::engine::blocks::{Encoded, Letter, LetterId};
use crate::engine::cfa::{Cfa, EdgeKind};
use crate::engine::invariants::{self, Limits};
use crate::engine::transition::{PVar, TransFormula, Vocabulary, seq};
use crate::engine::{Config, pretty};
use crate::smt::{SatResult, Session, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

/// The numbers of cycles after which the seed is taken.
const SEED_AFTER: [usize; 2] = [2, 5];

/// A recurrence set for the lasso `stem · cycle^ω` (module comment), re-validated; its
/// description.
#[allow(clippy::too_many_arguments)]
pub(super) fn argument_of(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    stem: &[LetterId],
    cycle: &[LetterId],
    config: &Config,
    deadline: Option<Instant>,
) -> Option<String> {
    let (&first, rest) = cycle.split_first()?;
    if !stem.iter().chain(cycle).all(|&a| exact_letter(cfa, enc, a)) {
        return None;
    }
    let mut c = enc.letters[first].tf.clone();
    for &a in rest {
        c = seq(voc, &c, &enc.letters[a].tf).ok()?;
    }
    // Numbers and booleans only (a map's value is no candidate's business).
    let vars: Vec<PVar> = c.vars().into_iter().collect();
    if vars.is_empty()
        || vars
            .iter()
            .any(|&x| !matches!(voc.sort(x), Ok(Sort::Int | Sort::Real | Sort::Bool)))
    {
        return None;
    }
    let h = enc.letters[first].src;
    let stem_tfs: Vec<&TransFormula> = stem.iter().map(|&a| &enc.letters[a].tf).collect();
    let mut session = Session::new(session_config(config, deadline)).ok()?;
    for d in &cfa.definitions {
        session.assert(d);
    }
    for k in SEED_AFTER {
        if timed_out(deadline) {
            return None;
        }
        let mut steps = stem_tfs.clone();
        for _ in 1..k {
            steps.push(&c);
        }
        let (prefix, state) = ssa(voc, &steps, BTreeMap::new(), "rec", 0)?;
        let (then, _) = ssa(voc, &[&c], state.clone(), "rec", steps.len())?;
        session.push();
        session.assert(&prefix);
        session.assert(&then);
        let values = match session.check_sat() {
            SatResult::Sat => {
                let at: Vec<Term> = vars.iter().map(|x| at_state(voc, &state, *x)).collect();
                session.get_values(&at).ok()
            }
            _ => None,
        };
        session.pop();
        let Some(values) = values else { continue };
        let seed: Vec<(PVar, Term)> = vars
            .iter()
            .zip(values)
            .map(|(&x, (_, v))| (x, Term::constant(v)))
            .collect();
        let r = recurrent(voc, &c, &seed, &mut session, deadline)?;
        let mut fresh = Session::new(session_config(config, deadline)).ok()?;
        if validate(voc, cfa, &c, &prefix, &state, &seed, &r, &mut fresh) {
            return Some(describe(voc, cfa, stem, cycle, h, k, &r, config));
        }
    }
    None
}

/// The greatest closed subset of the candidates that holds at `seed` (Houdini on the automaton
/// `init --(x := seed)--> h --C--> h`).
fn recurrent(
    voc: &Vocabulary,
    c: &TransFormula,
    seed: &[(PVar, Term)],
    session: &mut Session,
    deadline: Option<Instant>,
) -> Option<Vec<Term>> {
    let mut eqs = Vec::new();
    for (x, v) in seed {
        eqs.push(Term::eq(&Term::var(&voc.post(*x).ok()?), v));
    }
    let entry = TransFormula {
        formula: Term::and(eqs),
        reads: BTreeSet::new(),
        writes: seed.iter().map(|(x, _)| *x).collect(),
        aux: BTreeSet::new(),
    };
    let letter = |src, tgt, tf: TransFormula| Letter {
        src,
        tgt,
        tf,
        edges: BTreeSet::new(),
        kind: EdgeKind::Plain,
    };
    let two = Encoded {
        letters: vec![letter(0, 1, entry), letter(1, 1, c.clone())],
        out: vec![vec![0], vec![1]],
        init: 0,
        kept: [0, 1].into(),
    };
    let limits = Limits {
        deadline,
        termination_candidates: true,
        ..Limits::default()
    };
    let inv = invariants::synthesize_on(voc, &two, &|_| true, session, &limits);
    Some(inv.at.get(&1).cloned().unwrap_or_default())
}

/// The module comment's checks, in `fresh`.
#[allow(clippy::too_many_arguments)]
fn validate(
    voc: &Vocabulary,
    cfa: &Cfa,
    c: &TransFormula,
    prefix: &Term,
    state: &BTreeMap<PVar, Term>,
    seed: &[(PVar, Term)],
    r: &[Term],
    fresh: &mut Session,
) -> bool {
    for d in &cfa.definitions {
        fresh.assert(d);
    }
    let mut check = |hyp: &[Term], want: SatResult| -> bool {
        fresh.push();
        for t in hyp {
            fresh.assert(t);
        }
        let ok = fresh.check_sat() == want;
        fresh.pop();
        ok
    };
    let r = Term::and(r.to_vec());
    // (reach) the prefix ends in the seed
    let mut at_seed = vec![prefix.clone()];
    for (x, v) in seed {
        at_seed.push(Term::eq(&at_state(voc, state, *x), v));
    }
    if !check(&at_seed, SatResult::Sat) {
        return false;
    }
    // R holds at the seed
    let mut values: HashMap<Var, Term> = HashMap::new();
    for (x, v) in seed {
        if let Ok(pre) = voc.pre(*x) {
            values.insert(pre, v.clone());
        }
    }
    let r_at_seed = r.substitute(&values);
    if !r_at_seed.free_vars().is_empty() || !check(&[r_at_seed], SatResult::Sat) {
        return false;
    }
    // (closed) R ∧ C ⇒ R'
    let mut post: HashMap<Var, Term> = HashMap::new();
    let mut bound: Vec<Var> = c.aux.iter().cloned().collect();
    for &x in &c.writes {
        let (Ok(pre), Ok(p)) = (voc.pre(x), voc.post(x)) else {
            return false;
        };
        post.insert(pre, Term::var(&p));
        bound.push(p);
    }
    let r_post = r.substitute(&post);
    if !check(
        &[r.clone(), c.formula.clone(), Term::not(&r_post)],
        SatResult::Unsat,
    ) {
        return false;
    }
    // (enabled) R ⇒ ∃x', w. C
    let stuck = if bound.is_empty() {
        Term::not(&c.formula)
    } else {
        Term::forall(bound, Term::not(&c.formula))
    };
    check(&[r, stuck], SatResult::Unsat)
}

/// The term of `x`'s value in `state` (its pre variable where no step wrote it).
fn at_state(voc: &Vocabulary, state: &BTreeMap<PVar, Term>, x: PVar) -> Term {
    state
        .get(&x)
        .cloned()
        .or_else(|| voc.pre(x).ok().map(|v| Term::var(&v)))
        .unwrap_or_else(Term::tt)
}

#[allow(clippy::too_many_arguments)]
fn describe(
    voc: &Vocabulary,
    cfa: &Cfa,
    stem: &[LetterId],
    cycle: &[LetterId],
    h: crate::engine::cfa::LocId,
    k: usize,
    r: &[Term],
    config: &Config,
) -> String {
    let procedure = cfa.locs[h]
        .proc
        .map(|p| voc.program.proc(p).name.clone())
        .unwrap_or_default();
    let set = if r.is_empty() {
        "true".to_string()
    } else {
        r.iter()
            .map(|t| pretty::term(voc, t))
            .collect::<Vec<_>>()
            .join(" && ")
    };
    let mut text = format!(
        "a recurrence set: a stem of {} and the loop {} reach the loop head in procedure \
         {procedure} in a state of {set}, which every iteration of the loop of {} keeps and \
         from which the loop can always go on",
        pretty::letters(stem.len()),
        times(k - 1),
        pretty::letters(cycle.len()),
    );
    if config.bounded_integers {
        text.push_str(
            "; over mathematical integers: should the run reach a signed overflow in C, that is \
             undefined behaviour, after which nontermination is not excluded",
        );
    }
    text
}

fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        n => format!("{n} times"),
    }
}
