//! Interpolants for infeasible traces by strongest post / weakest precondition — the three levels of
//! Ultimate's "Newton" interpolation (design notes §4.2; Dietsch, Heizmann, Musa, Nutz, Podelski:
//! "Craig vs. Newton in software model checking", ESEC/FSE 2017):
//! 1. SP (or WP) along the trace;
//! 2. plus projection onto the *relevant* variables at each position: forward, a variable is kept only
//!    if the rest of the trace mentions its current value (live); backward, only if the prefix does;
//!    the others are quantified away and eliminated;
//! 3. plus unsat-core relaxation first: conjuncts outside the core are dropped, so the variables they
//!    defined become unconstrained (a havoc), and assumes outside the core become `true`.
//!
//! Everything is computed on the SSA trace: the forward predicate after `i` letters is
//! `∃ (SSA variables other than the kept current versions). P_{i-1} ∧ C_i`, then renamed to canonical
//! names. Quantifiers are eliminated by the cheap own QE first, then by the solver's `qe`; leftovers
//! are allowed and counted. Array variables the cheap QE cannot eliminate are weakened away
//! (`arrays::weaken`): forward this over-approximates the post, backward it strengthens the
//! precondition, so every triple stays valid (and each is checked by the solver before it is used).
//!
//! Invariant (checked): the sequence starts with `true`, ends with `false`, and each consecutive pair
//! is a valid Hoare triple for the *original* letter (the relaxed trace over-approximates it).

use super::stats::Stats;
use super::tracecheck::SsaTrace;
use super::transition::Vocabulary;
use crate::smt::{self, Quantifier, SatResult, Session, Term, TermKind, Var};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// A plug point of the CEGAR loop ([`super::cegar::Cegar`]): proves an infeasible trace by a sequence
/// of predicates, and projects formulas onto variables (for proofs stated over a procedure's scope).
/// Contract: a sequence `I_0 … I_n` for a trace of `n` letters, where each `{I_i} letter_i {I_i+1}`
/// is a valid Hoare triple — the loop re-checks the ends ([`close_ends`]) and the Floyd–Hoare automaton
/// checks every triple it uses, so an imprecise interpolator costs progress, never soundness.
pub trait Interpolator {
    /// The sequence for `trace` relaxed to `core` (all conjuncts if `None`), computed as `settings`
    /// say; `Err` with a reason when it cannot be computed.
    fn interpolants(
        &mut self,
        trace: &SsaTrace,
        core: Option<&BTreeSet<(usize, usize)>>,
        settings: Settings,
        stats: &mut Stats,
    ) -> Result<Vec<Term>, String>;

    /// `∃ vars. body`, with quantifiers eliminated as far as possible.
    fn project_exists(
        &mut self,
        vars: Vec<Var>,
        body: Term,
        stats: &mut Stats,
    ) -> Result<Term, String>;

    /// How many quantifier eliminations ran out of their time limit so far (a sequence that
    /// needed one will likely need one again in the other sequences of its direction).
    fn expired_eliminations(&self) -> usize {
        0
    }
}

/// Strongest post / weakest precondition with live variables and unsat-core relaxation (this
/// module), quantifiers eliminated by the own light QE and z3's `qe` in the session `qe`.
pub struct PostImages<'v, 'p, 's> {
    pub voc: &'v Vocabulary<'p>,
    pub qe: &'s mut Session,
}

impl Interpolator for PostImages<'_, '_, '_> {
    fn interpolants(
        &mut self,
        trace: &SsaTrace,
        core: Option<&BTreeSet<(usize, usize)>>,
        settings: Settings,
        stats: &mut Stats,
    ) -> Result<Vec<Term>, String> {
        interpolants(self.voc, trace, core, settings, self.qe, stats)
    }

    fn expired_eliminations(&self) -> usize {
        self.qe.qe_expired()
    }

    fn project_exists(
        &mut self,
        vars: Vec<Var>,
        body: Term,
        stats: &mut Stats,
    ) -> Result<Term, String> {
        project_exists(vars, body, false, self.qe, stats)
    }
}

/// Direction of the predicate transformer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

/// Interpolation settings for one sequence.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub direction: Direction,
    pub live: bool,
    /// Exact projections: no weakening of array or index quantifiers (which may leave quantified
    /// predicates); the fallback when every weakened sequence fails to reach `false`.
    pub exact: bool,
    /// The sequence is given up at this instant (another member's answer is due then, see
    /// `bmc::Unroller::answer_due`): checked before each projection, and no quantifier
    /// elimination runs past it.
    pub until: Option<Instant>,
}

/// The error of a sequence given up at [`Settings::until`].
const INTERRUPTED: &str = "interrupted: another proof is due";

pub fn has_quantifier(t: &Term) -> bool {
    match t.kind() {
        TermKind::Quant(..) => true,
        TermKind::App(_, args) => args.iter().any(has_quantifier),
        _ => false,
    }
}

/// The time z3's `qe` may spend on a formula that quantifies bit-vectors.
const BITVECTOR_QE_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The time z3's `qe` may spend on any other formula. A `qe` call that has not finished by then
/// rarely finishes at all (measured on T2: the priced timed automata spent the rest of the run in
/// one call); the failed sequence leaves the portfolio to the others (weakest preconditions need
/// no elimination).
const QE_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The largest result of z3's `qe` kept as a predicate, in nodes of the term as a tree. Larger
/// ones are disjunctions over case splits that no later query can afford (a list built in a loop
/// of three iterations gave 117 k nodes in 2.5 k distinct terms; simplifying it alone took 0.7 s),
/// and the portfolio's other sequences do better without them. On T1, T2 and T5 one result in a
/// thousand exceeds 30 k nodes, and only in files that time out or answer without them.
const QE_RESULT_MAX: u64 = 20_000;

/// The shortest limit a quantifier elimination is given (one cut at [`Settings::until`]).
const MIN_QE: std::time::Duration = std::time::Duration::from_millis(20);

/// Does `t` quantify a bit-vector variable?
fn quantifies_bitvectors(t: &Term) -> bool {
    match t.kind() {
        TermKind::Quant(_, vars, body) => {
            vars.iter()
                .any(|v| matches!(v.sort, smt::Sort::BitVec(_) | smt::Sort::Builtin(_)))
                || quantifies_bitvectors(body)
        }
        TermKind::App(_, args) => args.iter().any(quantifies_bitvectors),
        _ => false,
    }
}

/// `∃ vars. body` with quantifiers eliminated as far as possible.
pub fn project_exists(
    vars: Vec<Var>,
    body: Term,
    exact: bool,
    qe: &mut Session,
    stats: &mut Stats,
) -> Result<Term, String> {
    project_exists_until(vars, body, exact, None, qe, stats)
}

/// [`project_exists`], with no quantifier elimination running past `until`.
fn project_exists_until(
    vars: Vec<Var>,
    body: Term,
    exact: bool,
    until: Option<Instant>,
    qe: &mut Session,
    stats: &mut Stats,
) -> Result<Term, String> {
    if vars.is_empty() {
        return Ok(smt::simplify(&body));
    }
    let start = Instant::now();
    let body = smt::drop_bounded_mods(&body);
    let t = smt::simplify(&smt::qe_light(&Term::exists(vars, body)));
    // Variables of an uninterpreted sort (Boogie's enumerations) the light QE left: split over the
    // values they are compared with — an over-approximation, so not where the projection must be
    // exact; z3's fast `qe2` refuses such variables.
    let t = if !exact && t.has_quantifier() {
        smt::simplify(&smt::weaken_uninterpreted(&t))
    } else {
        t
    };
    // Array variables the light QE left: weaken them away (sound in both directions, see
    // `arrays`), rather than let z3's `qe` spend its time limit on them.
    let t = if !exact && t.has_array_quantifier() {
        smt::simplify(&smt::qe_light(&super::arrays::weaken(&t)))
    } else {
        t
    };
    let bitvectors = quantifies_bitvectors(&t);
    let t = if has_quantifier(&t) {
        stats.qe_solver_calls += 1;
        // z3's `qe` on bit-vectors may bit-blast: a short limit, and a predicate that keeps a
        // bit-vector quantifier (which makes every Hoare triple over it slow) fails this sequence,
        // so that the portfolio tries another.
        let limit = if bitvectors {
            BITVECTOR_QE_LIMIT
        } else {
            QE_LIMIT
        };
        let limit = Some(match until {
            Some(u) => limit.min(u.saturating_duration_since(Instant::now()).max(MIN_QE)),
            None => limit,
        });
        let rq = qe.qe_within(&t, limit);
        if let Ok(r) = &rq
            && r.tree_size() > QE_RESULT_MAX
        {
            if super::cegar::debug() {
                eprintln!(
                    "  quantifier elimination: a result of {} nodes",
                    r.tree_size()
                );
            }
            stats.qe_time += start.elapsed();
            return Err("quantifier elimination: the result is too large".into());
        }
        match rq {
            // Scalars that index selects often survive z3's `qe`: weaken them away (as arrays
            // above), instead of keeping a quantified predicate.
            Ok(r) if !exact && super::arrays::has_index_quantifier(&r) => smt::simplify(
                &smt::qe_light(&super::arrays::weaken_indices(&smt::simplify(&r))),
            ),
            Ok(r) => smt::simplify(&r),
            Err(e) => {
                if super::cegar::debug() {
                    eprintln!("  quantifier elimination failed ({e}) on {t}");
                }
                stats.qe_time += start.elapsed();
                return Err(format!("quantifier elimination: {e}"));
            }
        }
    } else {
        t
    };
    if bitvectors && quantifies_bitvectors(&t) {
        stats.qe_time += start.elapsed();
        return Err("quantifier elimination: a quantified bit-vector remains".into());
    }
    if has_quantifier(&t) {
        stats.quantified_predicates += 1;
    }
    stats.qe_time += start.elapsed();
    Ok(t)
}

/// Computes the predicate sequence `I_0 = true, …, I_n = false` (canonical variables) for an
/// infeasible SSA trace, keeping only the conjuncts in `core` (all if `None`).
pub fn interpolants(
    voc: &Vocabulary,
    trace: &SsaTrace,
    core: Option<&BTreeSet<(usize, usize)>>,
    settings: Settings,
    qe: &mut Session,
    stats: &mut Stats,
) -> Result<Vec<Term>, String> {
    let start = Instant::now();
    let n = trace.conjuncts.len();
    let relaxed: Vec<Term> = trace
        .conjuncts
        .iter()
        .enumerate()
        .map(|(i, cs)| {
            Term::and(
                cs.iter()
                    .enumerate()
                    .filter(|(j, _)| core.is_none_or(|c| c.contains(&(i, *j))))
                    .map(|(_, c)| c.clone())
                    .collect(),
            )
        })
        .collect();
    // Canonical renaming of SSA variables.
    let mut to_canon: HashMap<Var, Term> = HashMap::new();
    for (ssa, x) in &trace.origin {
        if let Ok(v) = voc.pre(*x) {
            to_canon.insert(ssa.clone(), Term::var(&v));
        }
    }
    let is_ssa = |v: &Var| trace.origin.contains_key(v);
    let is_const = |v: &Var| trace.origin.get(v).is_some_and(|x| voc.is_const(*x));
    // The variables of `phi` to quantify away at position `pos`: all but constants and the current
    // SSA versions — and, with live variables, only those the rest of the trace (`relevant`) mentions.
    let to_eliminate = |phi: &Term, pos: usize, relevant: &BTreeSet<Var>| -> Vec<Var> {
        let current: BTreeSet<&Var> = trace.versions[pos].values().collect();
        phi.free_vars()
            .into_iter()
            .filter(|v| {
                let keep = is_const(v)
                    || (is_ssa(v)
                        && current.contains(v)
                        && (!settings.live || relevant.contains(v)));
                !keep
            })
            .collect()
    };
    let mut preds = vec![Term::tt(); n + 1];
    match settings.direction {
        Direction::Forward => {
            // suffix[i]: variables mentioned by letters i.. (i = 0..=n)
            // A return also reads what its call wrote (the callee's entry versions, which link the
            // callee's exit predicate to the caller's): they are live up to the return.
            let mut suffix = vec![BTreeSet::new(); n + 1];
            for i in (0..n).rev() {
                let mut s = suffix[i + 1].clone();
                s.extend(relaxed[i].free_vars());
                if let Some(c) = trace.calls.get(i).copied().flatten() {
                    s.extend(relaxed[c].free_vars());
                }
                suffix[i] = s;
            }
            // SSA-form predicates, for the returns of nested traces: the post of a return combines
            // the predicate before its call (the caller's frame), the call, the callee's exit
            // predicate and the return — exact, because the callee's parameters and `old` values
            // keep their entry versions (see `tracecheck`).
            let call_positions: BTreeSet<usize> = trace.calls.iter().flatten().copied().collect();
            let mut ssa_preds = vec![Term::tt(); n + 1];
            let mut p = Term::tt();
            for i in 0..n {
                let phi = match trace.calls.get(i).copied().flatten() {
                    Some(c) => Term::and(vec![
                        ssa_preds[c].clone(),
                        relaxed[c].clone(),
                        p,
                        relaxed[i].clone(),
                    ]),
                    None => Term::and(vec![p, relaxed[i].clone()]),
                };
                let mut elim = to_eliminate(&phi, i + 1, &suffix[i + 1]);
                if call_positions.contains(&i) {
                    // The callee's entry: the caller's frame stays with the caller (the return
                    // takes it from the predicate before the call), so the callee's predicates are
                    // summaries over what the call wrote and the globals.
                    let (before, after) = (&trace.versions[i], &trace.versions[i + 1]);
                    let written: BTreeSet<&Var> = after
                        .iter()
                        .filter(|(x, v)| before.get(x) != Some(v))
                        .map(|(_, v)| v)
                        .collect();
                    for v in phi.free_vars() {
                        let frame = trace.origin.get(&v).is_some_and(|x| {
                            super::tracecheck::is_frame_var(x) && !voc.is_const(*x)
                        });
                        if frame && !written.contains(&v) && !elim.contains(&v) {
                            elim.push(v);
                        }
                    }
                }
                interrupted(settings)?;
                p = project_exists_until(elim, phi, settings.exact, settings.until, qe, stats)?;
                ssa_preds[i + 1] = p.clone();
                preds[i + 1] = p.substitute(&to_canon);
            }
            preds[0] = Term::tt();
        }
        Direction::Backward if trace.calls.iter().any(Option::is_some) => {
            // The weakest precondition of a return needs the caller's context, which the flat
            // backward pass has projected away: nested traces are interpolated forward only.
            return Err("backward interpolation of a nested trace".into());
        }
        Direction::Backward => {
            let mut prefix = vec![BTreeSet::new(); n + 1];
            for i in 0..n {
                let mut s = prefix[i].clone();
                s.extend(relaxed[i].free_vars());
                prefix[i + 1] = s;
            }
            // b is the *negation* of the weakest precondition, kept existential.
            let mut nb = Term::tt();
            for i in (0..n).rev() {
                let phi = Term::and(vec![relaxed[i].clone(), nb]);
                let elim = to_eliminate(&phi, i, &prefix[i]);
                interrupted(settings)?;
                nb = project_exists_until(elim, phi, settings.exact, settings.until, qe, stats)?;
                preds[i] = smt::simplify(&Term::not(&nb)).substitute(&to_canon);
            }
            preds[n] = Term::ff();
        }
    }
    stats.interpolation_time += start.elapsed();
    Ok(preds)
}

/// `Err` once the sequence's time is up ([`Settings::until`]).
fn interrupted(settings: Settings) -> Result<(), String> {
    match settings.until {
        Some(u) if Instant::now() >= u => Err(INTERRUPTED.into()),
        _ => Ok(()),
    }
}

/// Checks the ends of a sequence: `I_0` valid and `I_n` unsatisfiable; normalises them to the
/// constants `true` and `false`. Returns `Err` if a check fails or is unknown.
pub fn close_ends(preds: &mut [Term], session: &mut Session) -> Result<(), String> {
    let n = preds.len() - 1;
    if preds[n] != Term::ff() {
        session.push();
        session.assert(&preds[n]);
        let r = session.check_sat();
        session.pop();
        match r {
            SatResult::Unsat => preds[n] = Term::ff(),
            SatResult::Sat => return Err("the last interpolant is satisfiable".into()),
            SatResult::Unknown(r) => return Err(format!("solver unknown ({r})")),
        }
    }
    if preds[0] != Term::tt() {
        session.push();
        session.assert(&Term::not(&preds[0]));
        let r = session.check_sat();
        session.pop();
        match r {
            SatResult::Unsat => preds[0] = Term::tt(),
            SatResult::Sat => return Err("the first interpolant is not valid".into()),
            SatResult::Unknown(r) => return Err(format!("solver unknown ({r})")),
        }
    }
    Ok(())
}

/// A sequence is *perfect* if, for all positions `i < j` at the same location, `I_j ⇒ I_i`: the
/// Floyd–Hoare automaton then covers the whole path program (no further unrolling of the loop).
pub fn is_perfect(preds: &[Term], locs: &[usize], session: &mut Session) -> bool {
    for j in 0..preds.len() {
        for i in 0..j {
            if locs[i] != locs[j]
                || preds[i] == preds[j]
                || preds[i] == Term::tt()
                || preds[j] == Term::ff()
            {
                continue;
            }
            session.push();
            session.assert(&preds[j]);
            session.assert(&Term::not(&preds[i]));
            let r = session.check_sat();
            session.pop();
            if r != SatResult::Unsat {
                return false;
            }
        }
    }
    true
}

/// Keeps `Quantifier` in scope for callers matching on quantified predicates.
pub fn is_exists(t: &Term) -> bool {
    matches!(t.kind(), TermKind::Quant(Quantifier::Exists, ..))
}
