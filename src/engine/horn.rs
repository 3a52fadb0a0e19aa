//! Constrained Horn clauses and a Houdini solver for them: the greatest solution in the conjunctive
//! domain of given candidate atoms.
//!
//! # What it computes
//!
//! Clauses `B_1 ∧ … ∧ B_n ∧ φ ⇒ H` over uninterpreted predicates (an atom `P(t̄)` of a predicate
//! with candidates, or `false` as the head of a query). Each predicate `P(x̄)` comes with candidate
//! atoms over its parameters `x̄`. Houdini (C. Flanagan, K. R. M. Leino: "Houdini, an annotation
//! assistant for ESC/Java", FME 2001), generalised to non-linear clauses as in its use for
//! constrained Horn clauses (e.g. Garg, Löding, Madhusudan, Neider: "ICE", CAV 2014, §6): every
//! predicate starts as the conjunction of all its candidates; a clause whose body, with the current
//! conjunctions substituted, does not imply its head's conjunction gets a model, and the model drops
//! every head candidate it falsifies at once; a dropped candidate re-queues the clauses whose body
//! mentions the predicate. The fixpoint is the greatest conjunction of candidates per predicate
//! that satisfies every clause with a predicate head. It is a solution if, in addition, every
//! query's body is unsatisfiable under it; a query found satisfiable stops the search at once
//! (conjunctions only weaken, so it stays satisfiable).
//!
//! This is the cheap complement of a general Horn solver (Spacer), which searches any formula but
//! may take minutes where a conjunction of program atoms suffices (mutual exclusion by a lock:
//! the predicate of two threads in a critical section is `false`, the conjunction of contradictory
//! candidates that no clause ever weakens). [`spacer`] runs that solver (z3's `HORN` logic;
//! Komuravelli, Gurfinkel, Chaki: "SMT-based model checking for recursive programs", CAV 2014) on
//! the same clauses and re-checks its definitions in a fresh session.
//!
//! # Invariant
//!
//! [`solve`] returns definitions only when, for every clause, the solver answered `unsat` for its
//! body and the negation of its head with the returned definitions substituted (a predicate with
//! no candidate left is `true`). Any other answer (`unknown`, the budget) gives `None`: nothing is
//! claimed. Callers re-check the definitions anyway before they report a proof. [`spacer`]
//! answers [`SpacerAnswer::Solved`] only after that re-check: every clause valid with the
//! definitions substituted.

use super::{Config, cegar};
use crate::smt::qe::qe_light;
use crate::smt::{
    FuncDecl, Op, SatResult, Session, SolverKind, Sort, Term, UnknownKind, Value, Var, eval,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// A Horn clause: premises (a conjunction) imply the head (`None`: `false`).
pub struct Clause {
    pub body: Vec<Term>,
    pub head: Option<Term>,
}

impl Clause {
    pub fn implication(&self) -> Term {
        Term::implies(
            &Term::and(self.body.clone()),
            self.head.as_ref().unwrap_or(&Term::ff()),
        )
    }
}

/// A predicate's parameters and its candidate atoms over them.
pub struct Candidates {
    pub params: Vec<Var>,
    pub atoms: Vec<Term>,
}

/// Definitions of predicates: parameters and body.
pub type Definitions = HashMap<FuncDecl, (Vec<Var>, Term)>;

/// Budget of one search.
pub struct Budget {
    pub deadline: Instant,
    pub max_queries: usize,
}

/// What [`solve`] did, for the debug log.
#[derive(Debug, Default)]
pub struct Report {
    pub queries: usize,
    /// Candidates in all, and kept in the end.
    pub candidates: usize,
    pub kept: usize,
    /// Why no solution was returned.
    pub failure: Option<String>,
    /// Was it the budget (time or queries) that stopped the search?
    pub exhausted: bool,
    /// The query found satisfiable, if that is why.
    pub failed_query: Option<usize>,
    /// The conjunctions when the search stopped (a solution if `failure` is `None`).
    pub last: Definitions,
}

impl Report {
    /// Counts one more query if the budget allows it; otherwise records that it ran out.
    fn spend(&mut self, budget: &Budget) -> bool {
        if self.queries >= budget.max_queries || Instant::now() >= budget.deadline {
            self.failure = Some("budget exhausted".into());
            self.exhausted = true;
            return false;
        }
        self.queries += 1;
        true
    }
}

/// One clause, split: predicate atoms of the body (predicate index, arguments), the rest of the
/// body, and the head (predicate index and arguments; `None`: a query).
struct Split {
    apps: Vec<(usize, Vec<Term>)>,
    rest: Vec<Term>,
    head: Option<(usize, Vec<Term>)>,
}

/// Houdini on `clauses` with the candidates of `preds` (every predicate a clause mentions must have
/// an entry). Returns the definitions if they solve every clause (see the module comment).
pub fn solve(
    clauses: &[Clause],
    preds: &HashMap<FuncDecl, Candidates>,
    session: &mut Session,
    budget: &Budget,
) -> (Option<Definitions>, Report) {
    let mut report = Report::default();
    let decls: Vec<&FuncDecl> = {
        let mut v: Vec<&FuncDecl> = preds.keys().collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    };
    let index: HashMap<&FuncDecl, usize> = decls.iter().enumerate().map(|(i, f)| (*f, i)).collect();
    let app_of = |t: &Term| -> Option<(usize, Vec<Term>)> {
        match t.as_app() {
            Some((Op::Uf(f), args)) => index.get(f).map(|&i| (i, args.to_vec())),
            _ => None,
        }
    };
    let mut split = Vec::with_capacity(clauses.len());
    for c in clauses {
        let mut apps = Vec::new();
        let mut rest = Vec::new();
        for b in &c.body {
            match app_of(b) {
                Some(a) => apps.push(a),
                None => rest.push(b.clone()),
            }
        }
        let head = match &c.head {
            None => None,
            Some(h) => match app_of(h) {
                Some(a) => Some(a),
                None => {
                    report.failure = Some("a clause whose head is not a predicate".into());
                    return (None, report);
                }
            },
        };
        split.push(Split { apps, rest, head });
    }
    let cands: Vec<&Candidates> = decls.iter().map(|f| &preds[*f]).collect();
    let mut alive: Vec<Vec<bool>> = cands.iter().map(|c| vec![true; c.atoms.len()]).collect();
    report.candidates = cands.iter().map(|c| c.atoms.len()).sum();
    // The clauses whose body mentions each predicate.
    let mut users: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); decls.len()];
    for (i, s) in split.iter().enumerate() {
        for (p, _) in &s.apps {
            users[*p].insert(i);
        }
    }
    // The alive candidates of predicate `p` instantiated at `args` (index and term).
    let instantiate = |alive: &[Vec<bool>], p: usize, args: &[Term]| -> Vec<(usize, Term)> {
        let map: HashMap<Var, Term> = cands[p]
            .params
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        cands[p]
            .atoms
            .iter()
            .enumerate()
            .filter(|(i, _)| alive[p][*i])
            .map(|(i, a)| (i, a.substitute(&map)))
            .collect()
    };
    // Clauses in the order of their head's distance from the facts (a query's: one more than
    // its body's), so that a weakening flows forward before the clauses after it are checked.
    let rank = ranks(&split, decls.len());
    let key = |c: usize| -> (usize, usize) {
        let s = &split[c];
        let r = match &s.head {
            Some((p, _)) => rank[*p],
            None => s
                .apps
                .iter()
                .map(|(p, _)| rank[*p])
                .max()
                .unwrap_or(0)
                .saturating_add(1),
        };
        (r, c)
    };
    let mut weakened = vec![false; decls.len()];
    let mut empty: Vec<Option<bool>> = vec![None; decls.len()];
    let mut queue: BTreeSet<(usize, usize)> = (0..split.len()).map(key).collect();
    while let Some((_, c)) = queue.pop_first() {
        let s = &split[c];
        // A predicate no clause has weakened yet may be unsatisfiable (contradictory candidates:
        // no state reaches it so far), and a clause from it holds: one query per predicate
        // instead of one per clause. (A weakened one is satisfiable: the model that weakened it
        // satisfies the candidates kept.)
        let mut skip = false;
        for (p, _) in &s.apps {
            if weakened[*p] {
                continue;
            }
            let unsat = match empty[*p] {
                Some(u) => u,
                None => {
                    if !report.spend(budget) {
                        return (None, report);
                    }
                    session.push();
                    for (_, t) in instantiate(
                        &alive,
                        *p,
                        &cands[*p].params.iter().map(Term::var).collect::<Vec<_>>(),
                    ) {
                        session.assert(&t);
                    }
                    let u = session.check_sat().is_unsat();
                    session.pop();
                    empty[*p] = Some(u);
                    u
                }
            };
            if unsat {
                skip = true;
                break;
            }
        }
        if skip {
            continue;
        }
        let body: Vec<Term> = s
            .apps
            .iter()
            .flat_map(|(p, args)| instantiate(&alive, *p, args).into_iter().map(|(_, t)| t))
            .collect();
        // Head candidates that are literally body candidates hold (the step leaves their
        // variables alone): only the others are checked.
        let heads = match &s.head {
            Some((p, args)) => {
                let ids: BTreeSet<u32> = body.iter().map(Term::id).collect();
                let mut hs = instantiate(&alive, *p, args);
                hs.retain(|(_, t)| !ids.contains(&t.id()));
                if hs.is_empty() {
                    continue;
                }
                Some((*p, hs))
            }
            None => None,
        };
        if !report.spend(budget) {
            return (None, report);
        }
        session.push();
        session.assert(&Term::and(s.rest.iter().chain(&body).cloned().collect()));
        let Some((p, hs)) = heads else {
            let r = session.check_sat();
            session.pop();
            if !r.is_unsat() {
                report.failure = Some(format!("a query is not refuted ({r:?})"));
                report.failed_query = Some(c);
                report.last = definitions(&decls, &cands, &alive).0;
                return (None, report);
            }
            continue;
        };
        // The head weakened under the same body until it follows (one body for several
        // models); if the head's predicate is also in the body, the body changed with it and
        // the clause is checked again later.
        let self_dependent = s.apps.iter().any(|(q, _)| *q == p);
        let mut hs = hs;
        let mut weakened_here = false;
        loop {
            session.push();
            session.assert(&Term::not(&Term::and(
                hs.iter().map(|(_, t)| t.clone()).collect(),
            )));
            let dropped: Vec<usize> = match session.check_sat() {
                SatResult::Unsat => Vec::new(),
                SatResult::Sat => falsified(session, &hs),
                SatResult::Unknown(_) => hs.iter().map(|(i, _)| *i).collect(),
            };
            session.pop();
            if dropped.is_empty() {
                break;
            }
            weakened_here = true;
            for i in dropped {
                alive[p][i] = false;
            }
            hs.retain(|(i, _)| alive[p][*i]);
            if self_dependent || hs.is_empty() {
                break;
            }
            if !report.spend(budget) {
                session.pop();
                return (None, report);
            }
        }
        session.pop();
        if !weakened_here {
            continue;
        }
        weakened[p] = true;
        for &u in &users[p] {
            queue.insert(key(u));
        }
        if self_dependent {
            queue.insert(key(c));
        }
    }
    let (defs, kept) = definitions(&decls, &cands, &alive);
    report.kept = kept;
    (Some(defs), report)
}

/// The candidates of `hs` that the current model falsifies (all of them if it cannot be read):
/// the model's values of their variables, each candidate evaluated here (one short reply instead
/// of one value per candidate), the solver asked only about what does not evaluate (`mod 0`).
fn falsified(session: &mut Session, hs: &[(usize, Term)]) -> Vec<usize> {
    let all = || hs.iter().map(|(i, _)| *i).collect::<Vec<usize>>();
    // Only values a [`Value`] can hold are read; a candidate over a map is asked as a whole.
    let vars: BTreeSet<Var> = hs
        .iter()
        .flat_map(|(_, t)| t.free_vars_ref().iter().cloned())
        .filter(|v| {
            matches!(
                v.sort,
                Sort::Bool | Sort::Int | Sort::Real | Sort::BitVec(_)
            )
        })
        .collect();
    let terms: Vec<Term> = vars.iter().map(Term::var).collect();
    let env: BTreeMap<Var, Value> = match session.get_values(&terms) {
        Ok(vals) if vals.len() == vars.len() => vars
            .into_iter()
            .zip(vals.into_iter().map(|(_, v)| v))
            .collect(),
        _ => return all(),
    };
    let mut out = Vec::new();
    let mut open = Vec::new();
    for (i, t) in hs {
        match eval(t, &env) {
            Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => out.push(*i),
            _ => open.push((*i, t.clone())),
        }
    }
    if !open.is_empty() {
        let ts: Vec<Term> = open.iter().map(|(_, t)| t.clone()).collect();
        match session.get_values(&ts) {
            Ok(vals) if vals.len() == ts.len() => {
                for ((i, _), (_, v)) in open.iter().zip(&vals) {
                    if !matches!(v, Value::Bool(true)) {
                        out.push(*i);
                    }
                }
            }
            _ => out.extend(open.iter().map(|(i, _)| *i)),
        }
    }
    // The model falsifies the conjunction, so some candidate must be false; be safe regardless.
    if out.is_empty() { all() } else { out }
}

/// Rounds of the rank computation ([`ranks`]).
const MAX_RANK_ROUNDS: usize = 64;

/// Per predicate, its distance from the facts in the clause graph (a head is one more than the
/// farthest predicate of its body); unreachable predicates last.
fn ranks(split: &[Split], n: usize) -> Vec<usize> {
    let mut rank = vec![usize::MAX - 1; n];
    let mut changed = true;
    let mut rounds = 0;
    // (Only an order: a rank left too high after the last round costs re-checks, nothing else.)
    while changed && rounds < MAX_RANK_ROUNDS {
        changed = false;
        rounds += 1;
        for s in split {
            let Some((h, _)) = &s.head else { continue };
            let r = s.apps.iter().map(|(p, _)| rank[*p]).max().unwrap_or(0);
            if r < usize::MAX - 1 && r + 1 < rank[*h] {
                rank[*h] = r + 1;
                changed = true;
            }
        }
    }
    rank
}

/// The conjunctions of the alive candidates, and their number.
fn definitions(
    decls: &[&FuncDecl],
    cands: &[&Candidates],
    alive: &[Vec<bool>],
) -> (Definitions, usize) {
    let mut defs = Definitions::new();
    let mut count = 0;
    for (p, f) in decls.iter().enumerate() {
        let kept: Vec<Term> = cands[p]
            .atoms
            .iter()
            .zip(&alive[p])
            .filter(|(_, a)| **a)
            .map(|(t, _)| t.clone())
            .collect();
        count += kept.len();
        defs.insert((*f).clone(), (cands[p].params.clone(), Term::and(kept)));
    }
    (defs, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::Sort;
    use std::time::Duration;

    fn z3() -> Option<Session> {
        crate::smt::z3_for_tests("Horn Houdini tests")
    }

    fn int(n: i64) -> Term {
        Term::int(num_bigint::BigInt::from(n))
    }

    fn budget() -> Budget {
        Budget {
            deadline: Instant::now() + Duration::from_secs(20),
            max_queries: 10_000,
        }
    }

    /// Every clause holds with `defs` substituted (checked in a fresh session, independently of
    /// the search).
    fn solves(clauses: &[Clause], defs: &Definitions) -> bool {
        let Some(mut s) = z3() else { return true };
        clauses.iter().all(|c| {
            let subst = |t: &Term| -> Term {
                match t.as_app() {
                    Some((Op::Uf(f), args)) => {
                        let (ps, body) = &defs[f];
                        let map: HashMap<Var, Term> =
                            ps.iter().cloned().zip(args.iter().cloned()).collect();
                        body.substitute(&map)
                    }
                    _ => t.clone(),
                }
            };
            let body: Vec<Term> = c.body.iter().map(subst).collect();
            let head = c.head.as_ref().map_or(Term::ff(), subst);
            s.push();
            s.assert(&Term::and(body));
            s.assert(&Term::not(&head));
            let r = s.check_sat();
            s.pop();
            r.is_unsat()
        })
    }

    /// A counter loop `x := 0; while (x < 10) x := x + 1; assert x <= 10` and a non-linear clause
    /// (two premises): `P(y) ∧ P(z) ⇒ P(max(y, z))` changes nothing.
    #[test]
    fn the_greatest_conjunctive_solution_is_found() {
        let Some(mut session) = z3() else { return };
        let x = Var::new("x", Sort::Int);
        let y = Var::new("y", Sort::Int);
        let z = Var::new("z", Sort::Int);
        let p = FuncDecl::new("P", vec![Sort::Int], Sort::Bool);
        let app = |t: Term| Term::uf(&p, vec![t]);
        let (tx, ty, tz) = (Term::var(&x), Term::var(&y), Term::var(&z));
        let clauses = vec![
            Clause {
                body: vec![Term::eq(&tx, &int(0))],
                head: Some(app(tx.clone())),
            },
            Clause {
                body: vec![app(tx.clone()), Term::lt(&tx, &int(10))],
                head: Some(app(Term::add(vec![tx.clone(), int(1)]))),
            },
            Clause {
                body: vec![app(ty.clone()), app(tz.clone())],
                head: Some(app(Term::ite(&Term::ge(&ty, &tz), &ty, &tz))),
            },
            Clause {
                body: vec![app(tx.clone()), Term::gt(&tx, &int(10))],
                head: None,
            },
        ];
        let atoms = vec![
            Term::ge(&tx, &int(0)),
            Term::le(&tx, &int(5)),
            Term::le(&tx, &int(10)),
            Term::eq(&tx, &int(0)),
        ];
        let preds = HashMap::from([(
            p.clone(),
            Candidates {
                params: vec![x.clone()],
                atoms: atoms.clone(),
            },
        )]);
        let (defs, report) = solve(&clauses, &preds, &mut session, &budget());
        let defs = defs.unwrap_or_else(|| panic!("no solution: {report:?}"));
        assert_eq!(
            defs[&p].1,
            Term::and(vec![atoms[0].clone(), atoms[2].clone()]),
            "exactly the inductive candidates are kept"
        );
        assert!(solves(&clauses, &defs));
    }

    /// With `x <= 11` reachable, the query fails whatever the candidates: no solution, and the
    /// failing query is named. A predicate no clause reaches keeps every candidate (`false`).
    #[test]
    fn a_reachable_violation_gives_no_solution_and_unreached_predicates_stay_false() {
        let Some(mut session) = z3() else { return };
        let x = Var::new("x", Sort::Int);
        let tx = Term::var(&x);
        let p = FuncDecl::new("P", vec![Sort::Int], Sort::Bool);
        let q = FuncDecl::new("Q", vec![Sort::Int], Sort::Bool);
        let init = Clause {
            body: vec![Term::eq(&tx, &int(0))],
            head: Some(Term::uf(&p, vec![tx.clone()])),
        };
        let step = Clause {
            body: vec![Term::uf(&p, vec![tx.clone()]), Term::le(&tx, &int(10))],
            head: Some(Term::uf(&p, vec![Term::add(vec![tx.clone(), int(1)])])),
        };
        // Q is entered only from a state of P with x < 0, which no run reaches.
        let to_q = Clause {
            body: vec![Term::uf(&p, vec![tx.clone()]), Term::lt(&tx, &int(0))],
            head: Some(Term::uf(&q, vec![tx.clone()])),
        };
        let q_query = Clause {
            body: vec![Term::uf(&q, vec![tx.clone()])],
            head: None,
        };
        let candidates = |atoms: Vec<Term>| Candidates {
            params: vec![x.clone()],
            atoms,
        };
        let preds = HashMap::from([
            (
                p.clone(),
                candidates(vec![Term::ge(&tx, &int(0)), Term::le(&tx, &int(11))]),
            ),
            (
                q.clone(),
                candidates(vec![Term::ge(&tx, &int(5)), Term::le(&tx, &int(4))]),
            ),
        ]);
        let clauses = vec![init, step, to_q, q_query];
        let (defs, report) = solve(&clauses, &preds, &mut session, &budget());
        let defs = defs.unwrap_or_else(|| panic!("no solution: {report:?}"));
        assert!(solves(&clauses, &defs));
        assert_eq!(defs[&q].1.to_string(), "(and (>= x 5) (<= x 4))");
        // Now a query that a reachable state violates.
        let bad = Clause {
            body: vec![Term::uf(&p, vec![tx.clone()]), Term::ge(&tx, &int(11))],
            head: None,
        };
        let mut clauses = clauses;
        clauses.push(bad);
        let (defs, report) = solve(&clauses, &preds, &mut session, &budget());
        assert!(defs.is_none());
        assert_eq!(report.failed_query, Some(4));
    }
}

/// What z3's Horn solver made of a set of clauses ([`spacer`]).
#[derive(Debug)]
pub enum SpacerAnswer {
    /// Definitions of the predicates that solve every clause, re-checked.
    Solved(Definitions),
    /// The clauses have no solution (`false` is derivable).
    NoSolution,
    /// The time limit ran out (the reason).
    OutOfTime(String),
    /// Any other answer, or definitions that did not re-check (the reason).
    Unknown(String),
}

/// Solves `clauses` with z3's Horn engine within `limit` and re-checks a solution in a fresh
/// session (within what is left of the limit, and at least half of it). `is_pred` names the
/// uninterpreted predicates to solve for (one the solver leaves undefined is `false`); both
/// solvers run at `niceness` (see [`crate::smt::SolverConfig::niceness`]).
pub fn spacer(
    config: &Config,
    clauses: &[Clause],
    limit: Duration,
    is_pred: &dyn Fn(&FuncDecl) -> bool,
    niceness: Option<u8>,
) -> SpacerAnswer {
    let start = Instant::now();
    let mut sc = cegar::session_config(config, SolverKind::Z3, false);
    sc.niceness = niceness;
    sc.logic = Some("HORN".into());
    sc.query_timeout = limit;
    let mut horn = match Session::new(sc) {
        Ok(s) => s,
        Err(e) => return SpacerAnswer::Unknown(format!("solver: {e}")),
    };
    for c in clauses {
        let imp = c.implication();
        let vars: Vec<Var> = imp.free_vars().into_iter().collect();
        horn.assert(&if vars.is_empty() {
            imp
        } else {
            Term::forall(vars, imp)
        });
    }
    let r = horn.check_sat();
    if r.is_unsat() {
        return SpacerAnswer::NoSolution;
    }
    if let SatResult::Unknown(UnknownKind::Timeout) = r {
        return SpacerAnswer::OutOfTime("Horn solver: timeout".into());
    }
    if !r.is_sat() {
        return SpacerAnswer::Unknown(format!("Horn solver: {r:?}"));
    }
    let defs = match horn.function_definitions() {
        Ok(d) => d,
        Err(e) => return SpacerAnswer::Unknown(format!("reading the invariant: {e}")),
    };
    drop(horn);
    // Spacer's definitions often project with `exists` (`∃ y. y = x ∧ …`); where a definition
    // is a clause's head, the re-check would have to refute a `forall`, which z3 often cannot
    // within its time. The light elimination removes those (an equivalent definition).
    let defs: Definitions = defs
        .into_iter()
        .map(|(f, ps, b)| (f, (ps, qe_light(&b))))
        .collect();
    let left = limit.saturating_sub(start.elapsed()).max(limit / 2);
    if cegar::debug() {
        eprintln!(
            "Horn solver answered in {:.3} s; the re-check gets {:.3} s",
            start.elapsed().as_secs_f64(),
            left.as_secs_f64()
        );
    }
    match recheck(config, clauses, &defs, left, is_pred, niceness) {
        Ok(()) => SpacerAnswer::Solved(defs),
        Err(a) => a,
    }
}

/// Replaces every application of a predicate (`is_pred`) by its definition (a missing one by
/// `false`).
pub fn expand(t: &Term, defs: &Definitions, is_pred: &dyn Fn(&FuncDecl) -> bool) -> Term {
    match t.as_app() {
        Some((Op::Uf(f), args)) if f.result == Sort::Bool && is_pred(f) => {
            let args: Vec<Term> = args.iter().map(|a| expand(a, defs, is_pred)).collect();
            match defs.get(f) {
                Some((params, body)) => {
                    let map: HashMap<Var, Term> = params.iter().cloned().zip(args).collect();
                    body.substitute(&map)
                }
                None => Term::ff(),
            }
        }
        Some((_, args)) => t.with_args(args.iter().map(|a| expand(a, defs, is_pred)).collect()),
        None => t.clone(),
    }
}

/// Checks in a fresh z3 session (at `niceness`), within `limit`, that every clause holds with the
/// definitions substituted (`Err`: [`SpacerAnswer::OutOfTime`] or [`SpacerAnswer::Unknown`] with
/// the reason).
pub fn recheck(
    config: &Config,
    clauses: &[Clause],
    defs: &Definitions,
    limit: Duration,
    is_pred: &dyn Fn(&FuncDecl) -> bool,
    niceness: Option<u8>,
) -> Result<(), SpacerAnswer> {
    let deadline = Instant::now() + limit;
    let mut sc = cegar::session_config(config, SolverKind::Z3, false);
    sc.niceness = niceness;
    sc.query_timeout = sc.query_timeout.min(limit);
    let mut s = Session::new(sc).map_err(|e| SpacerAnswer::Unknown(format!("solver: {e}")))?;
    for chunk in clauses.chunks(64) {
        if Instant::now() >= deadline {
            return Err(SpacerAnswer::OutOfTime(
                "the re-check ran out of time".into(),
            ));
        }
        let violated: Vec<Term> = chunk
            .iter()
            .map(|c| Term::not(&expand(&c.implication(), defs, is_pred)))
            .collect();
        s.push();
        s.assert(&Term::or(violated));
        let r = s.check_sat();
        s.pop();
        if !r.is_unsat() {
            return Err(SpacerAnswer::Unknown(format!(
                "the invariant did not re-check ({r:?})"
            )));
        }
    }
    Ok(())
}
