//! Counterexamples: re-validation of a feasible error trace and its expansion into program steps.
//!
//! The CEGAR loop finds a feasible trace of block-encoded letters. Before UNSAFE is reported, the trace
//! is re-checked in a *fresh* solver session, statement by statement: a depth-first search through
//! each letter's constituent CFA edges (from the letter's source to its target location) asserts each
//! edge's SSA-renamed formula and backtracks on `unsat`. A complete path whose conjunction is
//! satisfiable (together with the recursive function definitions, which expansion cannot reproduce)
//! is a concrete error path of the program; its model gives the value of every variable
//! each step reads and writes. If no such path is found (or the solver answers unknown), the result is
//! UNKNOWN, never UNSAFE.

use super::blocks::Encoded;
use super::cfa::{Cfa, EdgeId, EdgeKind, LocId};
use super::tracecheck::{SsaBuilder, SsaStep};
use super::transition::Vocabulary;
use super::{Counterexample, Step};
use crate::smt::{SatResult, Session, Value};

/// Maximal number of edges the search may try.
const SEARCH_LIMIT: usize = 50_000;

struct Search<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    cfa: &'a Cfa,
    enc: &'a Encoded,
    out: Vec<Vec<EdgeId>>,
    session: &'a mut Session,
    letters: &'a [usize],
    tried: usize,
    path: Vec<(EdgeId, SsaStep)>,
    unknown: Option<crate::smt::UnknownKind>,
}

impl Search<'_, '_> {
    /// Extends the path from `loc` inside letter `i`; `started` tells whether at least one edge of the
    /// letter was taken.
    fn go(&mut self, i: usize, loc: LocId, started: bool, ssa: &SsaBuilder) -> bool {
        if i == self.letters.len() {
            return match self.session.check_sat() {
                SatResult::Sat => true,
                SatResult::Unsat => false,
                SatResult::Unknown(r) => {
                    self.unknown = Some(r);
                    false
                }
            };
        }
        let letter = &self.enc.letters[self.letters[i]];
        if started && loc == letter.tgt {
            // The next letter may belong to another thread: it starts at its own source.
            let next = match self.letters.get(i + 1) {
                Some(&b) => self.enc.letters[b].src,
                None => loc,
            };
            return self.go(i + 1, next, false, ssa);
        }
        let outgoing = self.out[loc].clone();
        for e in outgoing {
            if !letter.edges.contains(&e) {
                continue;
            }
            self.tried += 1;
            if self.tried > SEARCH_LIMIT {
                return false;
            }
            let mut b = ssa.clone();
            let edge = &self.cfa.full_edges()[e];
            let step = b.step_kind(self.voc, &edge.tf, edge.kind);
            self.session.push();
            self.session.assert(&step.formula);
            let feasible = match self.session.check_sat() {
                SatResult::Unsat => false,
                SatResult::Sat => true,
                SatResult::Unknown(r) => {
                    self.unknown = Some(r);
                    false
                }
            };
            if feasible {
                self.path.push((e, step));
                if self.go(i, self.cfa.full_edges()[e].tgt, true, &b) {
                    return true; // keep the scope: the model is read afterwards
                }
                self.path.pop();
            }
            self.session.pop();
        }
        false
    }
}

fn show(v: &Value) -> String {
    super::pretty::value(v)
}

/// The outcome of a feasible trace: UNSAFE with the counterexample if it re-validates in the fresh
/// `session`, else UNKNOWN (the session could not be opened, or the trace is not confirmed).
pub fn outcome(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    letters: &[usize],
    session: Result<Session, String>,
    stats: &super::Stats,
) -> super::Outcome {
    use super::{Outcome, UnknownReason};
    let mut fresh = match session {
        Ok(s) => s,
        Err(e) => return Outcome::unknown(UnknownReason::SolverUnavailable(e), stats.clone()),
    };
    match build(voc, cfa, enc, letters, &cfa.definitions, &mut fresh) {
        Ok(cex) => Outcome::violated(cex, stats.clone()),
        Err(e) => Outcome::unknown(UnknownReason::NotConfirmed(e), stats.clone()),
    }
}

/// Re-validates the trace `letters` in `session` (which must be fresh) and expands it into steps.
pub fn build(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    letters: &[usize],
    definitions: &[crate::smt::Term],
    session: &mut Session,
) -> Result<Counterexample, String> {
    let mut out = vec![Vec::new(); cfa.locs.len()];
    for (i, e) in cfa.full_edges().iter().enumerate() {
        out[e.src].push(i);
    }
    let Some(&first) = letters.first() else {
        return Err("empty trace".into());
    };
    let start = enc.letters[first].src;
    let last = enc.letters[letters[letters.len() - 1]].tgt;
    let Some(error) = cfa.error_of(last) else {
        return Err("the trace does not end in an error location".into());
    };
    let mut search = Search {
        voc,
        cfa,
        enc,
        out,
        session,
        letters,
        tried: 0,
        path: Vec::new(),
        unknown: None,
    };
    // The recursive function definitions (∀-axioms) hold in every execution.
    for d in definitions {
        search.session.assert(d);
    }
    session_push_base(search.session);
    let found = search.go(0, start, false, &SsaBuilder::default());
    if !found {
        let with = if definitions.is_empty() {
            ""
        } else {
            " with the recursive function definitions"
        };
        return Err(match search.unknown {
            Some(r) => {
                format!("counterexample could not be re-validated{with} (solver unknown: {r})")
            }
            None => format!("counterexample could not be re-validated{with}"),
        });
    }
    if let Some(what) = search
        .path
        .iter()
        .find_map(|(e, _)| cfa.full_edges()[*e].overapprox.clone())
    {
        return Err(format!(
            "the error trace depends on an over-approximation ({what}); no violation is reported"
        ));
    }
    // Array and uninterpreted values are rendered from the same model; a shape we cannot read is
    // said so, not guessed.
    let (model, arrays) = match search.session.get_full_model() {
        Ok(m) => m,
        Err(e) => return Err(format!("counterexample model: {e}")),
    };
    let value = |v: &crate::smt::Var| match (model.get(v), arrays.get(v)) {
        (Some(x), _) => show(x),
        (None, Some(Some(a))) => a.clone(),
        (None, Some(None)) => "(unprintable value)".into(),
        (None, None) => "any".into(),
    };
    let mut steps = Vec::new();
    for (e, step) in &search.path {
        let edge = &cfa.full_edges()[*e];
        if edge.tf.formula == crate::smt::Term::tt()
            && edge.tf.writes.is_empty()
            && !matches!(
                edge.kind,
                EdgeKind::Fork { .. } | EdgeKind::GhostFork { .. } | EdgeKind::Join { .. }
            )
        {
            // `assume true` (a goto or skip): nothing to show; forks and joins always show
            continue;
        }
        let reads = step
            .reads
            .iter()
            .map(|(x, v)| (voc.display_name(*x), value(v)))
            .collect();
        let writes = step
            .writes
            .iter()
            .map(|(x, v)| (voc.display_name(*x), value(v)))
            .collect();
        let thread = cfa
            .is_concurrent()
            .then(|| cfa.threads[cfa.thread_of[edge.src] as usize].name.clone());
        steps.push(Step {
            thread,
            span: edge.span,
            statement: edge.text.clone(),
            reads,
            writes,
        });
    }
    let site = voc.program.error(error);
    Ok(Counterexample {
        property: site.kind.description().to_string(),
        check: site.check.clone(),
        error_span: site.span,
        steps,
        omitted: None,
    })
}

fn session_push_base(session: &mut Session) {
    session.push();
}
