//! A sequential or recursive program as constrained Horn clauses, one predicate per location of
//! its block-encoded control-flow graph, for z3's Horn solver ([`horn::spacer`]; Komuravelli,
//! Gurfinkel, Chaki: "SMT-based model checking for recursive programs", CAV 2014; the encoding
//! of procedures by summaries is the standard one, e.g. Bjørner, Gurfinkel, McMillan, Rybalchenko:
//! "Horn clause solvers for program verification", 2015).
//!
//! # What it computes
//!
//! Over the state vector `V` (every program variable a letter reads or writes, constants
//! included), location `l` gets `L_l(V)`, the states reachable at `l`; in a program whose CFA
//! keeps calls of recursive procedures as call and return letters ([`Cfa::nested`]), `L_l(E, V)`,
//! the states reachable at `l` from the state `E` at the entry of its procedure's frame. Clauses:
//! - the initial location: `L_init(V)` (`L_init(V, V)`);
//! - a letter `l → m` of formula `φ(V, V')`: `L_l(E, V) ∧ φ ⇒ L_m(E, V')`, where a variable the
//!   letter does not write keeps its value; `false` as the head where `m` is an error location;
//! - a call letter `a → entry` of formula `γ(V, V₁)`: `L_a(E, V) ∧ γ ⇒ L_entry(V₁, V₁)`;
//! - its return letter `x → t` of formula `ρ(V₂, V')`: `L_a(E, W) ∧ γ(W, V₁) ∧ L_x(V₁, V₂) ∧ ρ ⇒
//!   L_t(E, V')`, where `V'` is what `ρ` writes, else the caller's frame `W` for frame variables
//!   ([`tracecheck::is_frame_var`]) and the callee's `V₂` for globals — the semantics of a
//!   return in the nested SSA ([`tracecheck::SsaBuilder::step_kind`]).
//!
//! # Invariant
//!
//! The clauses are satisfiable iff no error location is reachable: a solution's `L_l` contains
//! every reachable state at `l` (induction over executions, a return's premises being the
//! states at its call and at the callee's exit of the same frame). A SAFE answer is only given
//! after the solution was re-checked against every clause ([`horn::spacer`]).

use super::blocks::Encoded;
use super::cfa::{Cfa, EdgeKind, LocId};
use super::horn::{self, Clause};
use super::proof::{self, Certificate};
use super::tracecheck::is_frame_var;
use super::transition::{PVar, TransFormula, Vocabulary};
use super::{Config, Outcome, Stats};
use crate::ir::Program;
use crate::smt::{FuncDecl, Session, SolverKind, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// At most this many letters are encoded (larger programs are left to the other engines).
const MAX_LETTERS: usize = 5_000;

/// The scheduling niceness of the Horn solver: it runs beside the engines, and takes the
/// processor time they leave (beside them at the same priority it made programs the engines
/// decide in seconds time out under `--jobs 2`: their solvers' time limits are wall-clock).
const NICENESS: u8 = 10;

/// The name prefix of the location predicates.
const PREFIX: &str = "chc!L";

fn is_location_predicate(f: &FuncDecl) -> bool {
    f.name.starts_with(PREFIX)
}

/// The clauses of a program.
pub struct Encoding<'v, 'p> {
    voc: &'v Vocabulary<'p>,
    /// The state vector.
    vars: Vec<PVar>,
    sorts: Vec<Sort>,
    /// Do predicates carry the frame's entry state too?
    nested: bool,
    preds: BTreeMap<LocId, FuncDecl>,
    pub clauses: Vec<Clause>,
}

impl<'v, 'p> Encoding<'v, 'p> {
    /// The clauses of the program `cfa` as `enc` encodes it; `Err` with a reason for a program
    /// this module does not handle (threads, recursive function definitions, size).
    pub fn new(voc: &'v Vocabulary<'p>, cfa: &Cfa, enc: &Encoded) -> Result<Self, String> {
        if cfa.is_concurrent() {
            return Err("threads".into());
        }
        if !cfa.definitions.is_empty() {
            return Err("recursively defined functions".into());
        }
        if enc.letters.len() > MAX_LETTERS {
            return Err(format!("{} letters", enc.letters.len()));
        }
        let mut all = BTreeSet::new();
        for l in &enc.letters {
            all.extend(l.tf.reads.iter().copied());
            all.extend(l.tf.writes.iter().copied());
        }
        let vars: Vec<PVar> = all.into_iter().collect();
        let sorts = vars
            .iter()
            .map(|x| voc.sort(*x).map_err(|u| u.0))
            .collect::<Result<Vec<Sort>, String>>()?;
        let mut e = Encoding {
            voc,
            vars,
            sorts,
            nested: cfa.nested,
            preds: BTreeMap::new(),
            clauses: Vec::new(),
        };
        e.encode(cfa, enc)?;
        Ok(e)
    }

    /// Declares the predicate of every location a letter leaves or enters.
    fn declare(&mut self, cfa: &Cfa, enc: &Encoded) {
        let arity = if self.nested { 2 } else { 1 };
        let sorts: Vec<Sort> = (0..arity).flat_map(|_| self.sorts.clone()).collect();
        let locs = std::iter::once(enc.init)
            .chain(enc.letters.iter().flat_map(|l| [l.src, l.tgt]))
            .collect::<BTreeSet<LocId>>();
        for l in locs.into_iter().filter(|l| cfa.error_of(*l).is_none()) {
            let f = FuncDecl::new(format!("{PREFIX}{l}"), sorts.clone(), Sort::Bool);
            self.preds.insert(l, f);
        }
    }

    /// `x`'s canonical pre-state variable.
    fn pre(&self, x: PVar) -> Result<Term, String> {
        Ok(Term::var(&self.voc.pre(x).map_err(|u| u.0)?))
    }

    /// A copy of `x` named by `tag` (constants are never copied: they are one value throughout).
    fn copy(&self, x: PVar, tag: &str) -> Result<Term, String> {
        if self.voc.is_const(x) {
            return self.pre(x);
        }
        let v = self.voc.pre(x).map_err(|u| u.0)?;
        Ok(Term::var(&Var::new(format!("{}@{tag}", v.name), v.sort)))
    }

    /// The value of every variable after `tf`, from `before`.
    fn after(
        &self,
        tf: &TransFormula,
        before: &dyn Fn(PVar) -> Result<Term, String>,
    ) -> Result<Vec<Term>, String> {
        self.vars
            .iter()
            .map(|&x| {
                if tf.writes.contains(&x) {
                    Ok(Term::var(&self.voc.post(x).map_err(|u| u.0)?))
                } else {
                    before(x)
                }
            })
            .collect()
    }

    /// `L_l` applied to the entry state `entry` (nested programs) and the current state `cur`.
    fn atom(&self, l: LocId, entry: &[Term], cur: &[Term]) -> Term {
        let p = &self.preds[&l];
        let args: Vec<Term> = if self.nested {
            entry.iter().chain(cur).cloned().collect()
        } else {
            cur.to_vec()
        };
        Term::uf(p, args)
    }

    fn all(&self, f: &dyn Fn(PVar) -> Result<Term, String>) -> Result<Vec<Term>, String> {
        self.vars.iter().map(|&x| f(x)).collect()
    }

    /// The solution as a certificate of locations (programs without recursive procedures): `L_l`
    /// over the canonical variables; `None` if a predicate's definition has other parameters.
    fn certificate(&self, defs: &horn::Definitions) -> Option<Certificate> {
        let cur: Vec<Term> = self
            .vars
            .iter()
            .map(|&x| self.pre(x).ok())
            .collect::<Option<_>>()?;
        let mut at = BTreeMap::new();
        for (l, f) in &self.preds {
            let Some((params, body)) = defs.get(f) else {
                at.insert(*l, Term::ff());
                continue;
            };
            if params.len() != cur.len() {
                return None;
            }
            let map: HashMap<Var, Term> = params.iter().cloned().zip(cur.iter().cloned()).collect();
            at.insert(*l, crate::smt::simplify(&body.substitute(&map)));
        }
        Some(Certificate { at })
    }

    fn encode(&mut self, cfa: &Cfa, enc: &Encoded) -> Result<(), String> {
        self.declare(cfa, enc);
        let mut clauses = Vec::new();
        let pre = |x: PVar| self.pre(x);
        let cur = self.all(&pre)?;
        let entry = self.all(&|x| self.copy(x, "e"))?;
        let init = self.atom(enc.init, &cur, &cur);
        clauses.push(Clause {
            body: Vec::new(),
            head: Some(init),
        });
        let mut call_letter = HashMap::new();
        for (a, l) in enc.letters.iter().enumerate() {
            if l.kind == EdgeKind::Call {
                for e in &l.edges {
                    call_letter.insert(*e, a);
                }
            }
        }
        for letter in &enc.letters {
            let error = cfa.error_of(letter.tgt).is_some();
            match letter.kind {
                EdgeKind::Plain | EdgeKind::Call => {
                    let here = self.atom(letter.src, &entry, &cur);
                    let next = self.after(&letter.tf, &|x| self.pre(x))?;
                    // (A call starts the callee's frame: its entry state is the state after it.)
                    let frame = if letter.kind == EdgeKind::Call {
                        &next
                    } else {
                        &entry
                    };
                    let head = (!error).then(|| self.atom(letter.tgt, frame, &next));
                    clauses.push(Clause {
                        body: vec![here, letter.tf.formula.clone()],
                        head,
                    });
                }
                EdgeKind::Return { call } => {
                    let &c = call_letter
                        .get(&call)
                        .ok_or("a return without its call letter")?;
                    let call = &enc.letters[c];
                    // The call from the caller's state `W` (tag `w`) to `V₁` (tag `c`).
                    let caller = self.all(&|x| self.copy(x, "w"))?;
                    let mut map: HashMap<Var, Term> = HashMap::new();
                    for v in call.tf.formula.free_vars() {
                        let to = match self.voc.lookup(&v) {
                            Some((x, false)) => self.copy(x, "w")?,
                            Some((x, true)) => self.copy(x, "c")?,
                            None => Term::var(&Var::new(format!("{}@c", v.name), v.sort.clone())),
                        };
                        map.insert(v, to);
                    }
                    let gamma = call.tf.formula.substitute(&map);
                    let v1 = self.all(&|x| {
                        if call.tf.writes.contains(&x) {
                            self.copy(x, "c")
                        } else {
                            self.copy(x, "w")
                        }
                    })?;
                    let at_call = self.atom(call.src, &entry, &caller);
                    let at_exit = self.atom(letter.src, &v1, &cur);
                    let next = self.after(&letter.tf, &|x| {
                        if is_frame_var(&x) {
                            self.copy(x, "w")
                        } else {
                            self.pre(x)
                        }
                    })?;
                    let head = (!error).then(|| self.atom(letter.tgt, &entry, &next));
                    clauses.push(Clause {
                        body: vec![at_call, gamma, at_exit, letter.tf.formula.clone()],
                        head,
                    });
                }
                _ => return Err("a thread's letter".into()),
            }
        }
        self.clauses = clauses;
        Ok(())
    }
}

/// SAFE if z3's Horn solver solves the clauses of `program` (without threads) within the run's
/// deadline, re-checked; `None` otherwise (the reason in the debug log); see [`prove_each`].
pub fn prove(program: &Program, config: &Config) -> Option<Outcome> {
    let mut once = Some(config.clone());
    prove_each(program, config, || once.take())
}

/// SAFE if z3's Horn solver solves the clauses of `program` (without threads) in one of the
/// attempts `next` gives (each with its own deadline, until it gives `None`), the solution
/// re-checked; `None` otherwise (the reason in the debug log). The clauses are built once, from
/// the CFA built, sliced and block-encoded as for the CEGAR loop ([`cegar::safety_cfa`]). With
/// `config.proof`, the solution gives the invariants of the loops ([`proof::source_invariants`]),
/// re-checked as a certificate with `config.check_proof` ([`proof::check`]; a failed check gives
/// `None`); a program with recursive procedures, whose predicates are relations to a frame's entry
/// state, is then not tried.
///
/// [`cegar::safety_cfa`]: super::cegar::safety_cfa
pub fn prove_each(
    program: &Program,
    config: &Config,
    mut next: impl FnMut() -> Option<Config>,
) -> Option<Outcome> {
    let start = Instant::now();
    let voc = Vocabulary::new(program);
    let built = (|| -> Result<_, String> {
        let (cfa, enc) = super::cegar::safety_cfa(&voc, config, 1, false, &mut Stats::default())
            .map_err(|e| e.to_string())?;
        let encoding = Encoding::new(&voc, &cfa, &enc)?;
        Ok((cfa, enc, encoding))
    })();
    let (cfa, enc, encoding) = match built {
        Ok(b) => b,
        Err(why) => {
            if super::cegar::debug() {
                eprintln!("Horn clauses: not encoded ({why})");
            }
            return None;
        }
    };
    if encoding.nested && (config.proof || config.check_proof) {
        // The relational predicates of recursive procedures are neither a certificate of
        // locations nor the loop invariants a proof prints.
        if super::cegar::debug() {
            eprintln!("Horn clauses: not tried (a proof of a recursive program is asked for)");
        }
        return None;
    }
    while let Some(attempt) = next() {
        let limit = match attempt.deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => Duration::from_secs_f64(attempt.query_timeout_s),
        };
        let answer = horn::spacer(
            &attempt,
            &encoding.clauses,
            limit,
            &is_location_predicate,
            Some(NICENESS),
        );
        if super::cegar::debug() {
            eprintln!(
                "Horn clauses: {} predicates, {} clauses, {} variables: {} after {:.3} s",
                encoding.preds.len(),
                encoding.clauses.len(),
                encoding.vars.len(),
                match &answer {
                    horn::SpacerAnswer::Solved(_) => "solved".to_string(),
                    other => format!("{other:?}"),
                },
                start.elapsed().as_secs_f64()
            );
        }
        let horn::SpacerAnswer::Solved(defs) = answer else {
            continue;
        };
        let mut stats = Stats::default();
        let proof = if (config.proof || config.check_proof) && !encoding.nested {
            match encoding.certificate(&defs) {
                Some(cert) => match certified(&voc, &cfa, &enc, &cert, &attempt, &mut stats) {
                    Ok(p) => p,
                    Err(why) => {
                        if super::cegar::debug() {
                            eprintln!("Horn clauses: the proof failed ({why})");
                        }
                        return None;
                    }
                },
                None if config.check_proof => return None,
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        return Some(Outcome::safe(
            Some("an invariant per location found by z3's Horn solver and re-checked".into()),
            proof,
            stats,
        ));
    }
    None
}

/// The source's loop invariants of a certificate, checked with `config.check_proof`.
fn certified(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    cert: &Certificate,
    config: &Config,
    stats: &mut Stats,
) -> Result<Vec<super::LoopInvariant>, String> {
    let session = |kind| {
        Session::new(super::cegar::session_config(config, kind, false)).map_err(|e| e.to_string())
    };
    let mut qe = session(SolverKind::Z3)?;
    let mut projector = super::interpolate::PostImages { voc, qe: &mut qe };
    let source = proof::source_invariants(voc, cfa, cert, &mut projector, stats)?;
    if config.check_proof {
        proof::check(voc, cfa, enc, cert, &source, session(config.solver)?)?;
    }
    Ok(source.into_iter().map(|s| s.printed).collect())
}
