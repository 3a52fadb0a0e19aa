//! Proofs of SAFE programs: the certificate of the explored abstraction, the invariants printed at the
//! loops of the *source*, and an independent check of both.
//!
//! When `CFA \ FH` has no accepting run, every reachable product state `(ℓ, s)` was explored, and each
//! of its successors is given by a valid Hoare triple (design notes §3.1). The **certificate** maps
//! each kept location `ℓ` of the block-encoded automaton to `I(ℓ) = Inv(ℓ) ∧ ⋁ {s | (ℓ, s) explored}`
//! (`Inv` the synthesised invariants, `true` without them; `false` at a location never reached): it is
//! an inductive invariant of the program automaton that excludes every error location.
//!
//! The procedures are inlined, so one loop of the source may have several copies, each over its own
//! instance of the procedure's locals, and a copy's `I(ℓ)` may mention the caller's variables. The
//! **source invariant** of a loop is therefore the disjunction over its copies of
//! `∃ (variables out of the procedure's scope). I(ℓ_k)`, each copy renamed to one instance: a true
//! statement about every state in which the source reaches that loop, over the names in its scope
//! (globals, constants, the procedure's parameters, locals and `old(g)`).
//!
//! [`check`] re-checks, in a fresh solver session, that the certificate is inductive (`I(init)` valid,
//! `{I(src)} a {I(tgt)}` for every letter, `I = false` at error locations) and that every printed
//! invariant is satisfiable and implied by `I` at each of its copies. Invariant: a proof that passes
//! [`check`] is a true statement about the source program.

use super::blocks::Encoded;
use super::cfa::{Cfa, LocId};
use super::hoare::HoareChecker;
use super::interpolate::Interpolator;
use super::transition::{PVar, Vocabulary};
use super::{LoopInvariant, Stats, pretty};
use crate::ir::{LocKind, ProcId, VarKind};
use crate::smt::{SatResult, Session, Term, Var};
use std::collections::{BTreeMap, HashMap};

/// The inductive invariant of the program automaton: `I(ℓ)` per kept location that was reached.
#[derive(Clone, Debug, Default)]
pub struct Certificate {
    pub at: BTreeMap<LocId, Term>,
}

impl Certificate {
    /// `I(ℓ)`: `false` at a location the exploration never reached.
    pub fn get(&self, l: LocId) -> Term {
        self.at.get(&l).cloned().unwrap_or_else(Term::ff)
    }
}

/// A loop of the source with its invariant as a term (variables of the instance `canonical`), and the
/// copies (location, instance) it summarises.
#[derive(Clone, Debug)]
pub struct SourceInvariant {
    pub printed: LoopInvariant,
    pub term: Term,
    pub proc: Option<ProcId>,
    pub canonical: u32,
    pub copies: Vec<(LocId, u32)>,
}

/// Is `x` in the scope of procedure `proc`'s instance `inst`?
pub(super) fn in_scope(voc: &Vocabulary, x: PVar, proc: Option<ProcId>, inst: u32) -> bool {
    match x {
        PVar::Var { id, inst: i } => match voc.program.var(id).kind {
            VarKind::Global | VarKind::Const { .. } => true,
            VarKind::Param(p) | VarKind::Return(p) | VarKind::Local(p) => {
                Some(p) == proc && i == inst
            }
            VarKind::Bound => false,
        },
        PVar::Old { inst: i, .. } => i == inst,
        PVar::Tid { .. } => false,
    }
}

/// `t` (over instance `from` of a procedure) with that instance's variables renamed to instance `to`.
fn rename_instance(voc: &Vocabulary, t: &Term, from: u32, to: u32) -> Term {
    if from == to {
        return t.clone();
    }
    let mut map: HashMap<Var, Term> = HashMap::new();
    for v in t.free_vars() {
        let renamed = match voc.lookup(&v) {
            Some((PVar::Var { id, inst }, false)) if inst == from && inst != 0 => {
                voc.pre(PVar::Var { id, inst: to }).ok()
            }
            Some((PVar::Old { id, inst }, false)) if inst == from => {
                voc.pre(PVar::Old { id, inst: to }).ok()
            }
            _ => None,
        };
        if let Some(r) = renamed {
            map.insert(v, Term::var(&r));
        }
    }
    if map.is_empty() {
        t.clone()
    } else {
        t.substitute(&map)
    }
}

/// The invariants of the source's loops (one per loop, over the names in its scope), from the
/// certificate. Copies whose projection fails are left out of the disjunction only if the projection
/// is not needed; an error makes the whole proof unavailable.
pub fn source_invariants(
    voc: &Vocabulary,
    cfa: &Cfa,
    cert: &Certificate,
    projector: &mut dyn Interpolator,
    stats: &mut Stats,
) -> Result<Vec<SourceInvariant>, String> {
    // Loops of the source: (procedure, span) of the loop head, in location order of the first copy.
    let mut groups: BTreeMap<(Option<ProcId>, Option<crate::diag::Span>), Vec<LocId>> =
        BTreeMap::new();
    let mut order: Vec<(Option<ProcId>, Option<crate::diag::Span>)> = Vec::new();
    for (l, _) in cert.at.iter() {
        let loc = &cfa.locs[*l];
        if loc.kind != LocKind::LoopHead {
            continue;
        }
        let key = (loc.proc, loc.span);
        if !groups.contains_key(&key) {
            order.push(key);
        }
        groups.entry(key).or_default().push(*l);
    }
    let mut out = Vec::new();
    for key in order {
        let copies = &groups[&key];
        let (proc, span) = key;
        let canonical = copies.iter().map(|l| cfa.locs[*l].inst).min().unwrap_or(0);
        let mut disjuncts = Vec::new();
        let mut summarised = Vec::new();
        for &l in copies {
            let inst = cfa.locs[l].inst;
            let body = cert.get(l);
            let outside: Vec<Var> = body
                .free_vars()
                .into_iter()
                .filter(|v| match voc.lookup(v) {
                    Some((x, false)) => !in_scope(voc, x, proc, inst),
                    _ => true,
                })
                .collect();
            let projected = projector.project_exists(outside, body, stats)?;
            disjuncts.push(rename_instance(voc, &projected, inst, canonical));
            summarised.push((l, inst));
        }
        let term = crate::smt::simplify(&Term::or(disjuncts));
        out.push(SourceInvariant {
            printed: LoopInvariant {
                summary: false,
                span,
                procedure: proc
                    .map(|p| voc.program.proc(p).name.clone())
                    .unwrap_or_default(),
                term: pretty::source_term(voc, &term),
                invariant: pretty::term(voc, &term),
            },
            term,
            proc,
            canonical,
            copies: summarised,
        });
    }
    Ok(out)
}

/// Checks the certificate and the source invariants in `session` (fresh): see the module comment.
pub fn check(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    cert: &Certificate,
    invariants: &[SourceInvariant],
    session: Session,
) -> Result<(), String> {
    let mut htc = HoareChecker::new(session);
    let definite = |r: SatResult, what: &dyn Fn() -> String| match r {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(format!("proof check failed: {}", what())),
        SatResult::Unknown(k) => Err(format!("proof check: solver unknown ({k}) on {}", what())),
    };
    // I(init) is valid.
    let init = cert.get(enc.init);
    htc.session.push();
    htc.session.assert(&Term::not(&init));
    let r = htc.session.check_sat();
    htc.session.pop();
    definite(r, &|| "the invariant at the start is not valid".into())?;
    // Every letter preserves I; error locations are never reached (I = false there).
    for letter in &enc.letters {
        let pre = cert.get(letter.src);
        if pre == Term::ff() {
            continue;
        }
        let post = if cfa.error_of(letter.tgt).is_some() {
            Term::ff()
        } else {
            cert.get(letter.tgt)
        };
        let r = htc.check_triple(voc, &pre, letter, &post);
        definite(r, &|| {
            format!(
                "the invariant is not inductive for the letter {} → {}",
                letter.src, letter.tgt
            )
        })?;
    }
    // Each printed invariant is satisfiable and implied by I at each of its copies.
    for inv in invariants {
        htc.session.push();
        htc.session.assert(&inv.term);
        let r = htc.session.check_sat();
        htc.session.pop();
        match r {
            SatResult::Sat => {}
            SatResult::Unsat => {
                return Err(format!(
                    "proof check failed: the invariant of the loop in {} is unsatisfiable",
                    inv.printed.procedure
                ));
            }
            SatResult::Unknown(k) => {
                return Err(format!(
                    "proof check: solver unknown ({k}) on satisfiability"
                ));
            }
        }
        for &(l, inst) in &inv.copies {
            let at_copy = rename_instance(voc, &inv.term, inv.canonical, inst);
            htc.session.push();
            htc.session.assert(&cert.get(l));
            htc.session.assert(&Term::not(&at_copy));
            let r = htc.session.check_sat();
            htc.session.pop();
            definite(r, &|| {
                format!(
                    "the printed invariant of the loop in {} does not follow at one of its copies",
                    inv.printed.procedure
                )
            })?;
        }
    }
    Ok(())
}

/// Re-checks, in a fresh session, the certificate of a concurrent program: `I(c)` per reached
/// configuration `c` of the interleaving product ([`super::interleaving`]), `false` elsewhere. `I` of
/// the initial configuration must be valid, and every transition `c -a-> c'` of the product from a
/// reached configuration must satisfy `{I(c)} a {I(c')}`, with `I(c') = false` when `c'` is
/// accepting (an error location or the thread-instance limit). Invariant: a certificate that passes
/// is an inductive invariant of the product that excludes every accepting configuration.
pub fn check_interleaving<A: super::interleaving::ProgramAutomaton>(
    voc: &Vocabulary,
    aut: &A,
    cert: &BTreeMap<A::State, Term>,
    session: Session,
) -> Result<(), String> {
    let mut htc = HoareChecker::new(session);
    let get = |c: &A::State| cert.get(c).cloned().unwrap_or_else(Term::ff);
    let inits = aut.initial_states();
    let init = Term::and(inits.iter().map(get).collect());
    htc.session.push();
    htc.session.assert(&Term::not(&init));
    let r = htc.session.check_sat();
    htc.session.pop();
    match r {
        SatResult::Unsat => {}
        SatResult::Sat => {
            return Err("proof check failed: the invariant at the start is not valid".into());
        }
        SatResult::Unknown(k) => {
            return Err(format!("proof check: solver unknown ({k}) on the start"));
        }
    }
    for (c, pre) in cert {
        if *pre == Term::ff() {
            continue;
        }
        for (a, next) in aut.successors(c) {
            let post = if aut.is_accepting(&next) {
                Term::ff()
            } else {
                get(&next)
            };
            let letter = &aut.product().enc.letters[a];
            match htc.check_triple(voc, pre, letter, &post) {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    return Err(format!(
                        "proof check failed: the invariant is not inductive for the letter {} → {} of thread {}",
                        letter.src,
                        letter.tgt,
                        aut.product().thread_of(a)
                    ));
                }
                SatResult::Unknown(k) => {
                    return Err(format!(
                        "proof check: solver unknown ({k}) on a Hoare triple"
                    ));
                }
            }
        }
    }
    Ok(())
}
