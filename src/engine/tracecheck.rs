//! Trace check: is a sequence of letters feasible? (design notes §4.1)
//!
//! The trace is put in static single assignment form: the pre variable of `x` at position `i` becomes
//! `x@k` for the current version `k` of `x`, every write creates a new version, auxiliary variables are
//! renamed per position, and constants are never renamed. Each top-level conjunct of each letter is
//! asserted under its own name `c<i>_<j>`, so that an unsat core tells which conjuncts the proof of
//! infeasibility needs (the input of unsat-core interpolation).
//!
//! Nested traces (calls of recursive procedures as call/return letters): a call pushes the versions
//! of the caller's frame — every non-global variable —, and the matching return reads the callee's
//! versions, restores the caller's and then writes the call's results; globals flow through. So the
//! SSA formula of a nested trace is again a plain conjunction, satisfiable iff the trace is feasible.

use super::cfa::EdgeKind;
use super::transition::{PVar, TransFormula, Vocabulary};
use crate::smt::{SatResult, Session, Term, Value, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A trace in SSA form.
#[derive(Clone, Debug)]
pub struct SsaTrace {
    /// Per letter, the renamed top-level conjuncts.
    pub conjuncts: Vec<Vec<Term>>,
    /// `versions[i]`: the SSA variable holding each program variable's value after `i` letters
    /// (`i = 0..=n`); a variable not yet mentioned is absent.
    pub versions: Vec<BTreeMap<PVar, Var>>,
    /// SSA variable → program variable.
    pub origin: HashMap<Var, PVar>,
    /// Per letter: for a return, the position of its matching call (nested traces); else `None`.
    pub calls: Vec<Option<usize>>,
}

fn ssa_var(voc: &Vocabulary, x: PVar, k: u32) -> Option<Var> {
    let base = voc.pre(x).ok()?;
    if voc.is_const(x) {
        return Some(base);
    }
    Some(Var {
        name: format!("{}@{k}", base.name),
        sort: base.sort,
    })
}

/// Incremental SSA renaming (cloneable, for backtracking searches).
#[derive(Clone, Debug, Default)]
pub struct SsaBuilder {
    cur: BTreeMap<PVar, u32>,
    next: BTreeMap<PVar, u32>,
    pub current_vars: BTreeMap<PVar, Var>,
    pub origin: HashMap<Var, PVar>,
    position: usize,
    /// The frames of the pending calls (nested traces): the versions before each call.
    frames: Vec<(BTreeMap<PVar, u32>, BTreeMap<PVar, Var>)>,
}

/// Is `x` part of a procedure's frame (restored when a call returns)? Everything but globals.
pub fn is_frame_var(x: &PVar) -> bool {
    !matches!(x, PVar::Var { inst: 0, .. })
}

/// One renamed letter: its formula and the SSA variables of what it read and wrote.
#[derive(Clone, Debug)]
pub struct SsaStep {
    pub formula: Term,
    pub reads: BTreeMap<PVar, Var>,
    pub writes: BTreeMap<PVar, Var>,
}

impl SsaBuilder {
    /// Renames the next letter of the trace, of kind `kind`: a [`EdgeKind::Call`] pushes the
    /// caller's frame first; a [`EdgeKind::Return`] reads the callee's frame, restores the caller's
    /// (every frame variable, [`is_frame_var`]) and then writes the results. A return without a
    /// pending call is renamed as an ordinary letter.
    pub fn step_kind(&mut self, voc: &Vocabulary, tf: &TransFormula, kind: EdgeKind) -> SsaStep {
        match kind {
            EdgeKind::Call => {
                self.frames
                    .push((self.cur.clone(), self.current_vars.clone()));
                self.step(voc, tf)
            }
            EdgeKind::Return { .. } => {
                let frame = self.frames.pop();
                self.step_with(voc, tf, frame)
            }
            _ => self.step(voc, tf),
        }
    }

    /// Number of pending calls.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Renames the next letter of the trace.
    pub fn step(&mut self, voc: &Vocabulary, tf: &TransFormula) -> SsaStep {
        self.step_with(voc, tf, None)
    }

    /// Gives every variable in `xs` a fresh version (as a havoc would).
    pub fn havoc(&mut self, voc: &Vocabulary, xs: impl IntoIterator<Item = PVar>) {
        self.step(voc, &TransFormula::havoc(xs));
    }

    fn step_with(
        &mut self,
        voc: &Vocabulary,
        tf: &TransFormula,
        restore: Option<(BTreeMap<PVar, u32>, BTreeMap<PVar, Var>)>,
    ) -> SsaStep {
        let i = self.position;
        self.position += 1;
        let mut map: HashMap<Var, Term> = HashMap::new();
        let mut reads = BTreeMap::new();
        let mut writes = BTreeMap::new();
        for v in tf.formula.free_vars() {
            match voc.lookup(&v) {
                Some((x, false)) => {
                    let k = *self.cur.entry(x).or_insert(0);
                    if let Some(s) = ssa_var(voc, x, k) {
                        self.origin.insert(s.clone(), x);
                        self.current_vars.entry(x).or_insert_with(|| s.clone());
                        reads.insert(x, s.clone());
                        map.insert(v, Term::var(&s));
                    }
                }
                Some((_, true)) => {}
                None => {
                    let renamed = Var {
                        name: format!("{}@t{i}", v.name),
                        sort: v.sort.clone(),
                    };
                    map.insert(v, Term::var(&renamed));
                }
            }
        }
        if let Some((cur, vars)) = restore {
            // The caller's frame comes back; globals keep the callee's versions.
            self.cur.retain(|x, _| !is_frame_var(x));
            self.current_vars.retain(|x, _| !is_frame_var(x));
            self.cur
                .extend(cur.into_iter().filter(|(x, _)| is_frame_var(x)));
            self.current_vars
                .extend(vars.into_iter().filter(|(x, _)| is_frame_var(x)));
        }
        let mut new_versions: Vec<(PVar, u32)> = Vec::new();
        for &x in &tf.writes {
            let n = self.next.entry(x).or_insert(0);
            *n = (*n).max(*self.cur.get(&x).unwrap_or(&0)) + 1;
            let k = *n;
            new_versions.push((x, k));
            if let (Ok(post), Some(s)) = (voc.post(x), ssa_var(voc, x, k)) {
                self.origin.insert(s.clone(), x);
                writes.insert(x, s.clone());
                map.insert(post, Term::var(&s));
            }
        }
        let formula = tf.formula.substitute(&map);
        for (x, k) in new_versions {
            self.cur.insert(x, k);
            if let Some(s) = ssa_var(voc, x, k) {
                self.current_vars.insert(x, s);
            }
        }
        SsaStep {
            formula,
            reads,
            writes,
        }
    }
}

/// Splits each arithmetic equality `a = b` into `a <= b` and `a >= b` (Ultimate's SPLIT_EQUALITIES):
/// an unsat core may then need only one half, and the relaxed trace yields inequalities (`x >= 0`)
/// where it would otherwise yield equalities (`x == 5`) that only hold for one unrolling.
fn split_equalities(conjuncts: Vec<Term>) -> Vec<Term> {
    let mut out = Vec::with_capacity(conjuncts.len());
    for c in conjuncts {
        match c.as_app() {
            Some((crate::smt::Op::Eq, args)) if args.len() == 2 && args[0].sort().is_numeric() => {
                out.push(Term::le(&args[0], &args[1]));
                out.push(Term::ge(&args[0], &args[1]));
            }
            _ => out.push(c),
        }
    }
    out
}

/// Renames a trace of transition formulas to SSA.
pub fn ssa(voc: &Vocabulary, trace: &[&TransFormula]) -> SsaTrace {
    let plain: Vec<(&TransFormula, EdgeKind)> =
        trace.iter().map(|tf| (*tf, EdgeKind::Plain)).collect();
    ssa_nested(voc, &plain)
}

/// Renames a nested trace (letters with their kinds, see [`SsaBuilder::step_kind`]) to SSA; the
/// result's [`SsaTrace::calls`] names each return's matching call.
pub fn ssa_nested(voc: &Vocabulary, trace: &[(&TransFormula, EdgeKind)]) -> SsaTrace {
    let mut b = SsaBuilder::default();
    let mut conjuncts = Vec::new();
    let mut versions = vec![BTreeMap::new()];
    let mut pending = Vec::new();
    let mut calls = vec![None; trace.len()];
    for (i, (tf, kind)) in trace.iter().enumerate() {
        match kind {
            EdgeKind::Call => pending.push(i),
            EdgeKind::Return { .. } => calls[i] = pending.pop(),
            _ => {}
        }
        let step = b.step_kind(voc, tf, *kind);
        conjuncts.push(split_equalities(step.formula.conjuncts()));
        versions.push(b.current_vars.clone());
    }
    // Variables read before they are written hold their initial version at every earlier position.
    let mut initial: BTreeMap<PVar, Var> = BTreeMap::new();
    for (v, x) in &b.origin {
        if ssa_var(voc, *x, 0).as_ref() == Some(v) {
            initial.insert(*x, v.clone());
        }
    }
    let versions = versions
        .into_iter()
        .map(|cur| {
            let mut m = initial.clone();
            m.extend(cur);
            m
        })
        .collect();
    SsaTrace {
        conjuncts,
        versions,
        origin: b.origin,
        calls,
    }
}

/// The result of a trace check.
#[derive(Clone, Debug)]
pub enum Feasibility {
    /// Feasible, with the values of the SSA variables.
    Feasible(BTreeMap<Var, Value>),
    /// Infeasible; the unsat core as (letter, conjunct) positions.
    Infeasible(BTreeSet<(usize, usize)>),
    Unknown(crate::smt::UnknownKind),
}

/// Solvers keep `:named` labels after `pop`, so every check gets its own label prefix.
static CHECKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn conjunct_name(check: u64, i: usize, j: usize) -> String {
    format!("c{check}_{i}_{j}")
}

fn parse_name(check: u64, s: &str) -> Option<(usize, usize)> {
    let rest = s.strip_prefix(&format!("c{check}_"))?;
    let (a, b) = rest.split_once('_')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// A plug point of the CEGAR loop ([`super::cegar::Cegar`]): decides whether a trace, in SSA form, is
/// feasible, with the values of a feasible one or the unsat core (conjunct positions) of an
/// infeasible one. Contract: `Infeasible` only when the conjunction of the trace's conjuncts is
/// unsatisfiable (a wrong `Infeasible` would make a proof unsound), and its core, when asked for,
/// is itself unsatisfiable; `Unknown` whenever the checker cannot tell.
pub trait TraceChecker {
    fn check(&mut self, trace: &SsaTrace) -> Feasibility;
}

/// The trace checker over an SMT solver session (named conjuncts for unsat cores).
pub struct SmtTraceChecker<'s> {
    pub session: &'s mut Session,
    /// Ask for unsat cores (the session must have been opened with `produce_cores`).
    pub cores: bool,
}

impl TraceChecker for SmtTraceChecker<'_> {
    fn check(&mut self, trace: &SsaTrace) -> Feasibility {
        check(self.session, trace, self.cores)
    }
}

/// Checks the SSA trace in `session` (in its own scope).
pub fn check(session: &mut Session, trace: &SsaTrace, want_core: bool) -> Feasibility {
    let check = CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    session.push();
    for (i, cs) in trace.conjuncts.iter().enumerate() {
        for (j, c) in cs.iter().enumerate() {
            if want_core {
                session.assert_named(c, &conjunct_name(check, i, j));
            } else {
                session.assert(c);
            }
        }
    }
    let result = match session.check_sat() {
        SatResult::Sat => match session.get_model() {
            Ok(model) => Feasibility::Feasible(model),
            Err(e) => {
                Feasibility::Unknown(crate::smt::UnknownKind::SolverError(format!("model: {e}")))
            }
        },
        SatResult::Unsat => {
            if want_core {
                match session.unsat_core() {
                    Ok(names) => Feasibility::Infeasible(
                        names.iter().filter_map(|n| parse_name(check, n)).collect(),
                    ),
                    Err(e) => Feasibility::Unknown(crate::smt::UnknownKind::SolverError(format!(
                        "unsat core: {e}"
                    ))),
                }
            } else {
                Feasibility::Infeasible(
                    trace
                        .conjuncts
                        .iter()
                        .enumerate()
                        .flat_map(|(i, cs)| (0..cs.len()).map(move |j| (i, j)))
                        .collect(),
                )
            }
        }
        SatResult::Unknown(r) => Feasibility::Unknown(r),
    };
    session.pop();
    result
}
