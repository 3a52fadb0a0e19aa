//! The control-flow automaton (CFA) of a lowered program, with procedures inlined.
//!
//! Locations are the CFG nodes of procedure *instances*: the entry procedure (or, in library mode, each
//! procedure with a body) is instance `1..`, and every call of a procedure with a body gets a fresh
//! instance of the callee (Ultimate's inliner, design notes §7.3: non-recursive procedures only).
//! Edges carry [`TransFormula`]s. A fresh initial location leads to each entry procedure by an edge that
//! assumes the axioms, distinctness of `unique` constants, the entry procedure's `requires` and
//! `old(g) = g`.
//!
//! Calls: call edge (parameters := arguments, `old(g)` := `g`, the callee's locals and returns havocked,
//! then `assume requires`), then the callee's body, then a return edge (results := returns). A call of a
//! procedure without a body is one summary edge that havocs the results and the callee's `modifies`
//! and assumes every `ensures` (with `old(g)` the value before the call). Recursion and the concurrency
//! statements are [`BuildError`]s, reported as UNKNOWN.
//!
//! Invariant: error locations (accepting) have no outgoing edges; every edge's formula mentions only
//! int/bool program variables.

use super::transition::{
    Env, PVar, PreEnv, TransFormula, Translator, Unsupported, Vocabulary, instance_of, seq,
};
use crate::diag::Span;
use crate::ir::{self, ErrorId, Expr, LocKind, ProcId, Stmt, VarId};
use crate::smt::Term;
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use std::collections::{BTreeSet, HashMap};

pub type LocId = usize;
pub type EdgeId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    Unsupported(String),
    Recursion(String),
    TooLarge(usize),
}

impl From<Unsupported> for BuildError {
    fn from(u: Unsupported) -> Self {
        BuildError::Unsupported(u.0)
    }
}

impl BuildError {
    /// The UNKNOWN reason a build error gives.
    pub fn reason(&self) -> super::UnknownReason {
        match self {
            BuildError::Unsupported(_) | BuildError::Recursion(_) => {
                // "unsupported: …" without repeating the prefix.
                let text = self.to_string();
                super::UnknownReason::Unsupported(
                    text.strip_prefix("unsupported: ")
                        .unwrap_or(&text)
                        .to_string(),
                )
            }
            BuildError::TooLarge(_) => super::UnknownReason::ResourceLimit(self.to_string()),
        }
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Unsupported(s) => write!(f, "unsupported: {s}"),
            BuildError::Recursion(p) => write!(f, "unsupported: recursion (procedure {p})"),
            BuildError::TooLarge(n) => {
                write!(f, "inlined program too large (more than {n} locations)")
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Loc {
    pub proc: Option<ProcId>,
    pub inst: u32,
    pub kind: LocKind,
    pub span: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct CfaEdge {
    pub src: LocId,
    pub tgt: LocId,
    pub tf: TransFormula,
    /// The statement in Boogie syntax (for counterexamples).
    pub text: String,
    pub span: Option<Span>,
    /// An `{:overapproximation}` function the statement applies: a counterexample through this edge is
    /// not reported as a violation.
    pub overapprox: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Cfa {
    pub locs: Vec<Loc>,
    pub edges: Vec<CfaEdge>,
    pub init: LocId,
    /// The background facts every execution starts from (axioms, distinct `unique` constants); part
    /// of each edge leaving `init`.
    pub background: Vec<Term>,
    /// The definitions of recursively defined functions as ∀-axioms
    /// ([`super::transition::recursive_definitions`]): not part of any edge (expansion cannot
    /// reproduce them); checked with the background up front and asserted when a counterexample is
    /// re-validated.
    pub definitions: Vec<Term>,
}

impl Cfa {
    pub fn error_of(&self, l: LocId) -> Option<ErrorId> {
        match self.locs[l].kind {
            LocKind::Error(e) => Some(e),
            _ => None,
        }
    }
}

struct Builder<'v, 'p> {
    voc: &'v Vocabulary<'p>,
    cfa: Cfa,
    next_inst: u32,
    max_locations: usize,
    old_globals: HashMap<ProcId, BTreeSet<VarId>>,
}

/// Builds the inlined CFA of `program`.
pub fn build(voc: &Vocabulary, max_locations: usize) -> Result<Cfa, BuildError> {
    let program = voc.program;
    let mut b = Builder {
        voc,
        cfa: Cfa {
            locs: Vec::new(),
            edges: Vec::new(),
            init: 0,
            background: Vec::new(),
            definitions: Vec::new(),
        },
        next_inst: 1,
        max_locations,
        old_globals: HashMap::new(),
    };
    let init = b.add_loc(Loc {
        proc: None,
        inst: 0,
        kind: LocKind::Entry,
        span: None,
    })?;
    b.cfa.init = init;
    let entries = match &program.entry {
        ir::Entry::Procedure(p) => vec![*p],
        ir::Entry::Library(ps) => ps.clone(),
    };
    // Background facts: axioms and distinct unique constants.
    let tr = Translator { voc };
    let env0 = PreEnv::new(voc, 0);
    let mut background = Vec::new();
    for ax in &program.axioms {
        background.push(tr.expr(ax, &env0)?);
    }
    let uniques: Vec<VarId> = program
        .consts
        .iter()
        .copied()
        .filter(|c| matches!(program.var(*c).kind, ir::VarKind::Const { unique: true }))
        .collect();
    let mut by_type: std::collections::BTreeMap<String, Vec<Term>> = Default::default();
    for c in uniques {
        by_type
            .entry(program.var(c).ty.to_string())
            .or_default()
            .push(env0.var(c)?);
    }
    for (_, cs) in by_type {
        if cs.len() > 1 {
            background.push(Term::distinct(cs));
        }
    }
    let background_reads = env0.reads.borrow().clone();
    b.cfa.background = background.clone();
    b.cfa.definitions = super::transition::recursive_definitions(voc)?;
    for p in entries {
        let procedure = program.proc(p);
        if procedure.body.is_none() {
            continue;
        }
        let inst = b.fresh_inst();
        let (entry, _exit) = b.instantiate(p, inst, &mut vec![p])?;
        // assume axioms ∧ requires ∧ old(g) = g
        let env = PreEnv::new(voc, inst);
        let mut conj = background.clone();
        for r in &procedure.requires {
            conj.push(tr.expr(&r.expr, &env)?);
        }
        for &g in b.old_globals_of(p).iter() {
            let old = PVar::Old { id: g, inst };
            conj.push(Term::eq(&Term::var(&voc.pre(old)?), &env.var(g)?));
            env.reads.borrow_mut().insert(old);
        }
        let mut reads = env.reads.borrow().clone();
        reads.extend(background_reads.iter().copied());
        let tf = TransFormula::assume(Term::and(conj), reads);
        b.add_edge(
            init,
            entry,
            tf,
            format!("start {}", procedure.name),
            Some(procedure.span),
        );
    }
    Ok(b.cfa)
}

impl Builder<'_, '_> {
    fn fresh_inst(&mut self) -> u32 {
        let i = self.next_inst;
        self.next_inst += 1;
        i
    }

    fn add_loc(&mut self, loc: Loc) -> Result<LocId, BuildError> {
        if self.cfa.locs.len() >= self.max_locations {
            return Err(BuildError::TooLarge(self.max_locations));
        }
        self.cfa.locs.push(loc);
        Ok(self.cfa.locs.len() - 1)
    }

    fn add_edge(
        &mut self,
        src: LocId,
        tgt: LocId,
        tf: TransFormula,
        text: String,
        span: Option<Span>,
    ) {
        self.cfa.edges.push(CfaEdge {
            src,
            tgt,
            tf,
            text,
            span,
            overapprox: None,
        });
    }

    /// Globals `g` such that `old(g)` occurs in the procedure's body or contracts.
    fn old_globals_of(&mut self, p: ProcId) -> BTreeSet<VarId> {
        if let Some(s) = self.old_globals.get(&p) {
            return s.clone();
        }
        let procedure = self.voc.program.proc(p);
        let mut set = BTreeSet::new();
        for c in procedure.requires.iter().chain(&procedure.ensures) {
            collect_old(&c.expr, &mut set);
        }
        if let Some(cfg) = &procedure.body {
            for e in cfg.graph.edge_weights() {
                match &e.stmt {
                    Stmt::Assume(x) => collect_old(x, &mut set),
                    Stmt::Assign(pairs) => pairs.iter().for_each(|(_, x)| collect_old(x, &mut set)),
                    Stmt::Call { args, .. } | Stmt::Fork { args, .. } => {
                        args.iter().for_each(|x| collect_old(x, &mut set))
                    }
                    _ => {}
                }
            }
        }
        self.old_globals.insert(p, set.clone());
        set
    }

    /// Copies procedure `p`'s CFG as instance `inst`; returns its entry and exit locations.
    fn instantiate(
        &mut self,
        p: ProcId,
        inst: u32,
        stack: &mut Vec<ProcId>,
    ) -> Result<(LocId, LocId), BuildError> {
        let program = self.voc.program;
        let procedure = program.proc(p);
        let Some(cfg) = &procedure.body else {
            return Err(BuildError::Unsupported(format!(
                "procedure {} has no body",
                procedure.name
            )));
        };
        let mut map: HashMap<NodeIndex, LocId> = HashMap::new();
        for n in cfg.graph.node_indices() {
            let l = &cfg.graph[n];
            let id = self.add_loc(Loc {
                proc: Some(p),
                inst,
                kind: l.kind.clone(),
                span: l.span,
            })?;
            map.insert(n, id);
        }
        let tr = Translator { voc: self.voc };
        for e in cfg.graph.edge_references() {
            let (src, tgt) = (map[&e.source()], map[&e.target()]);
            let edge = e.weight();
            let first_new = self.cfa.edges.len();
            let text = crate::ir::dot::stmt_to_string(program, &edge.stmt);
            match &edge.stmt {
                Stmt::Assume(x) => {
                    let env = PreEnv::new(self.voc, inst);
                    let t = tr.expr(x, &env)?;
                    let reads = env.reads.into_inner();
                    self.add_edge(src, tgt, TransFormula::assume(t, reads), text, edge.span);
                }
                Stmt::Assign(pairs) => {
                    let env = PreEnv::new(self.voc, inst);
                    let mut assigned = Vec::new();
                    for (v, x) in pairs {
                        assigned.push((env.pvar(*v), tr.expr(x, &env)?));
                    }
                    let reads = env.reads.into_inner();
                    let tf = TransFormula::assign(self.voc, assigned, reads)?;
                    self.add_edge(src, tgt, tf, text, edge.span);
                }
                Stmt::Havoc(vs) => {
                    let xs: Vec<PVar> = vs
                        .iter()
                        .map(|v| PVar::Var {
                            id: *v,
                            inst: instance_of(program, *v, inst),
                        })
                        .collect();
                    for x in &xs {
                        self.voc.sort(*x)?;
                    }
                    self.add_edge(src, tgt, TransFormula::havoc(xs), text, edge.span);
                }
                Stmt::Call { callee, args, rets } => {
                    self.call(src, tgt, inst, *callee, args, rets, text, edge.span, stack)?;
                }
                Stmt::AtomicBegin | Stmt::AtomicEnd => {
                    self.add_edge(src, tgt, TransFormula::skip(), text, edge.span);
                }
                Stmt::Fork { .. } | Stmt::Join { .. } => {
                    return Err(BuildError::Unsupported("concurrency (fork/join)".into()));
                }
                Stmt::Unsupported(reason) => return Err(BuildError::Unsupported(reason.clone())),
            }
            if let Some(what) = overapproximation_in(program, &edge.stmt) {
                for e in &mut self.cfa.edges[first_new..] {
                    e.overapprox.get_or_insert_with(|| what.clone());
                }
            }
        }
        Ok((map[&cfg.entry], map[&cfg.exit]))
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        src: LocId,
        tgt: LocId,
        inst: u32,
        callee: ProcId,
        args: &[Expr],
        rets: &[VarId],
        text: String,
        span: Option<Span>,
        stack: &mut Vec<ProcId>,
    ) -> Result<(), BuildError> {
        let program = self.voc.program;
        let cp = program.proc(callee);
        let tr = Translator { voc: self.voc };
        let caller_env = PreEnv::new(self.voc, inst);
        let arg_terms: Vec<Term> = args
            .iter()
            .map(|a| tr.expr(a, &caller_env))
            .collect::<Result<_, _>>()?;
        let ret_vars: Vec<PVar> = rets
            .iter()
            .map(|v| PVar::Var {
                id: *v,
                inst: instance_of(program, *v, inst),
            })
            .collect();
        if cp.body.is_none() {
            // Summary edge, as Ultimate's `Statements2TransFormula.addSummary`: the callee's returns are
            // fresh auxiliary values; a global the callee modifies has an "after the call" value (its
            // post variable, or an auxiliary if the call's results also assign it); everything else in
            // the contracts (parameters = arguments, unmodified globals, `old(g)`) is the pre-state.
            // The results are assigned last: lhs' = return value.
            let lhs: BTreeSet<PVar> = ret_vars.iter().copied().collect();
            let mut writes: BTreeSet<PVar> = lhs.clone();
            let mut aux: BTreeSet<crate::smt::Var> = BTreeSet::new();
            let mut globals_after: HashMap<VarId, Term> = HashMap::new();
            for g in &cp.modifies {
                let x = PVar::Var { id: *g, inst: 0 };
                let after = if lhs.contains(&x) {
                    let a = self.voc.fresh(&self.voc.name(x), self.voc.sort(x)?);
                    aux.insert(a.clone());
                    Term::var(&a)
                } else {
                    Term::var(&self.voc.post(x)?)
                };
                globals_after.insert(*g, after);
                writes.insert(x);
            }
            let mut returns: HashMap<VarId, Term> = HashMap::new();
            let mut results = Vec::new();
            for (r, target) in cp.returns.iter().zip(&ret_vars) {
                let x = PVar::Var { id: *r, inst: 0 };
                let a = self.voc.fresh(&self.voc.name(x), self.voc.sort(*target)?);
                aux.insert(a.clone());
                returns.insert(*r, Term::var(&a));
                results.push(Term::eq(
                    &Term::var(&self.voc.post(*target)?),
                    &Term::var(&a),
                ));
            }
            let params: HashMap<VarId, Term> = cp
                .params
                .iter()
                .copied()
                .zip(arg_terms.iter().cloned())
                .collect();
            let env = SummaryEnv {
                params: params.clone(),
                returns,
                globals_after,
                caller: &caller_env,
            };
            // Requires (free ones too, as Ultimate) hold before the call; then the ensures after it.
            let pre_env = SummaryEnv {
                params,
                returns: HashMap::new(),
                globals_after: HashMap::new(),
                caller: &caller_env,
            };
            let mut conj = Vec::new();
            for r in &cp.requires {
                conj.push(tr.expr(&r.expr, &pre_env)?);
            }
            for e in &cp.ensures {
                conj.push(tr.expr(&e.expr, &env)?);
            }
            conj.extend(results);
            for x in &writes {
                self.voc.sort(*x)?;
            }
            // Every pre variable the formula mentions was read through `caller_env`.
            let tf = TransFormula {
                formula: Term::and(conj),
                reads: caller_env.reads.into_inner(),
                writes,
                aux,
            };
            self.add_edge(src, tgt, tf, text, span);
            return Ok(());
        }
        if stack.contains(&callee) {
            return Err(BuildError::Recursion(cp.name.clone()));
        }
        let k = self.fresh_inst();
        stack.push(callee);
        let (centry, cexit) = self.instantiate(callee, k, stack)?;
        stack.pop();
        // Call edge: params := args; old(g) := g; havoc returns and locals; assume requires.
        let mut assigned: Vec<(PVar, Term)> = Vec::new();
        for (prm, a) in cp.params.iter().zip(arg_terms) {
            assigned.push((PVar::Var { id: *prm, inst: k }, a));
        }
        for g in self.old_globals_of(callee) {
            assigned.push((PVar::Old { id: g, inst: k }, caller_env.var(g)?));
        }
        let reads = caller_env.reads.into_inner();
        let assign = TransFormula::assign(self.voc, assigned, reads)?;
        let havoc = TransFormula::havoc(
            cp.returns
                .iter()
                .chain(&cp.locals)
                .map(|v| PVar::Var { id: *v, inst: k })
                .filter(|x| self.voc.sort(*x).is_ok()),
        );
        for v in cp.returns.iter().chain(&cp.locals) {
            self.voc.sort(PVar::Var { id: *v, inst: k })?;
        }
        let callee_env = PreEnv::new(self.voc, k);
        let mut req = Vec::new();
        for r in &cp.requires {
            req.push(tr.expr(&r.expr, &callee_env)?);
        }
        let requires = TransFormula::assume(Term::and(req), callee_env.reads.into_inner());
        let tf = seq(self.voc, &seq(self.voc, &assign, &havoc)?, &requires)?;
        self.add_edge(src, centry, tf, text.clone(), span);
        // Return edge: rets := returns.
        let ret_env = PreEnv::new(self.voc, k);
        let mut back = Vec::new();
        for (r, v) in ret_vars.iter().zip(&cp.returns) {
            back.push((*r, ret_env.var(*v)?));
        }
        let tf = TransFormula::assign(self.voc, back, ret_env.reads.into_inner())?;
        self.add_edge(cexit, tgt, tf, format!("return from {}", cp.name), span);
        Ok(())
    }
}

/// Leaves of a callee's contracts in a summary edge: parameters are the arguments, returns are fresh
/// auxiliary values, modified globals their value after the call, everything else (including
/// `old(g)`) the caller's pre-state.
struct SummaryEnv<'a, 'v, 'p> {
    params: HashMap<VarId, Term>,
    returns: HashMap<VarId, Term>,
    globals_after: HashMap<VarId, Term>,
    caller: &'a PreEnv<'v, 'p>,
}

impl Env for SummaryEnv<'_, '_, '_> {
    fn var(&self, id: VarId) -> Result<Term, Unsupported> {
        if let Some(t) = self
            .params
            .get(&id)
            .or_else(|| self.returns.get(&id))
            .or_else(|| self.globals_after.get(&id))
        {
            return Ok(t.clone());
        }
        self.caller.var(id)
    }
    fn old(&self, id: VarId) -> Result<Term, Unsupported> {
        self.caller.var(id)
    }
}

fn collect_old(e: &Expr, out: &mut BTreeSet<VarId>) {
    e.visit(&mut |x| {
        if let Expr::Old(v) = x {
            out.insert(*v);
        }
    });
}

/// The first `{:overapproximation}` function a statement applies (directly or through definitions).
fn overapproximation_in(p: &ir::Program, s: &Stmt) -> Option<String> {
    let mut found = None;
    let mut visit = |e: &Expr| find_overapprox(p, e, &mut found, 0);
    match s {
        Stmt::Assume(e) => visit(e),
        Stmt::Assign(pairs) => pairs.iter().for_each(|(_, e)| visit(e)),
        Stmt::Call { args, .. } | Stmt::Fork { args, .. } => args.iter().for_each(&mut visit),
        _ => {}
    }
    found
}

fn find_overapprox(p: &ir::Program, e: &Expr, found: &mut Option<String>, depth: usize) {
    if found.is_some() || depth > 64 {
        return;
    }
    let mut go = |x: &Expr| find_overapprox(p, x, found, depth + 1);
    match e {
        Expr::App { func, args, .. } => {
            let f = p.func(*func);
            if let Some(what) = &f.overapproximation {
                *found = Some(what.clone());
                return;
            }
            if let Some((_, body)) = &f.body {
                go(body);
            }
            args.iter().for_each(go);
        }
        Expr::Unary(_, a) | Expr::Extract { expr: a, .. } | Expr::Field(a, _) => go(a),
        Expr::Binary(_, a, b) => {
            go(a);
            go(b);
        }
        Expr::Ite(a, b, c) => {
            go(a);
            go(b);
            go(c);
        }
        Expr::Select(a, is) => {
            go(a);
            is.iter().for_each(go);
        }
        Expr::Store(a, is, v) => {
            go(a);
            is.iter().for_each(&mut go);
            go(v);
        }
        Expr::Quant { body, .. } => go(body),
        Expr::Record(fs) => fs.iter().for_each(|(_, x)| go(x)),
        _ => {}
    }
}
