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
//! and assumes every `ensures` (with `old(g)` the value before the call). Recursion is a
//! [`BuildError`], reported as UNKNOWN — except with [`build_nested`], which keeps the procedures on
//! cycles of the call graph as call/return edges (one instance each; `old(g)` for every global a
//! recursive procedure modifies, so that its summaries can relate exit and entry).
//!
//! Threads (Ultimate's thread instances, design notes §5.1): every `fork` statement of the program
//! gets `instances` thread instances ([`Thread`]), each an inlined copy of the forked procedure with
//! its own locals, plus thread-id variables ([`PVar::Tid`]). A `fork` becomes one edge per instance
//! ([`EdgeKind::Fork`]: parameters := arguments, thread id := the fork's id, `old(g)` := `g`, the
//! instance's locals and returns havocked) and one edge to the [`Cfa::limit`] marker
//! ([`EdgeKind::ForkLimit`], taken when every instance is in use); a `join` becomes one edge per
//! instance of every fork statement whose id arity (and number of returns, with `assign`) fits
//! ([`EdgeKind::Join`]: assume the ids are equal, results := returns). Which edge is enabled where is
//! decided by the interleaving product ([`super::interleaving`]); locations belong to threads
//! ([`Cfa::thread_of`]). The entry thread is thread 0 and starts at `init`.
//!
//! Invariant: error locations (accepting) have no outgoing edges; every edge's formula mentions only
//! program variables of supported sorts; an edge's source and target belong to the same thread.

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

/// What an edge does besides its formula (for the interleaving product).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    Plain,
    /// Starts thread `thread` (which must be free: the lowest free instance of its fork statement).
    Fork {
        thread: u32,
    },
    /// A fork when every instance of fork statement `pool` is in use: leads to [`Cfa::limit`].
    ForkLimit {
        pool: u32,
    },
    /// A fork when every instance of fork statement `pool` is in use, of a thread that never runs:
    /// the forking thread goes on (a skip). Enabled only once the engine looks for real errors
    /// beyond the instance bound ([`super::interleaving::Interleaving::ignore_limit`]): its traces
    /// are executions of the program (the forked threads are never scheduled), so they may show a
    /// violation that needs more threads than the bound, but never count towards a proof.
    GhostFork {
        pool: u32,
    },
    /// Joins thread `thread` (which must be at its exit); the thread becomes free.
    Join {
        thread: u32,
    },
    AtomicBegin,
    AtomicEnd,
    /// A call of a recursive procedure kept as a call letter (nested words, [`build_nested`]): the
    /// formula is the inlined call edge's (parameters := arguments, `old(g)` := `g`, the callee's
    /// locals and returns havocked, `assume requires`); the caller's frame is pushed.
    Call,
    /// The return matching the call edge `call` (results := returns); the caller's frame (every
    /// non-global variable) is restored before the results are assigned.
    Return {
        call: EdgeId,
    },
}

/// A thread instance: thread 0 is the entry thread; the others belong to a fork statement.
#[derive(Clone, Debug)]
pub struct Thread {
    pub proc: ProcId,
    /// The inlined instance of `proc` that the thread runs.
    pub inst: u32,
    pub entry: LocId,
    pub exit: LocId,
    /// The fork statement (pool) it belongs to; `None` for the entry thread.
    pub pool: Option<u32>,
    /// A readable name: the procedure's name, with `#k` for the `k`-th instance of a pool.
    pub name: String,
}

/// The thread instances of one `fork` statement.
#[derive(Clone, Debug)]
pub struct Pool {
    pub callee: ProcId,
    pub tid_sorts: Vec<crate::smt::Sort>,
    /// The fork's id tuple when it is made of literals (a join whose literal id differs cannot
    /// match a thread of this pool: no edge is made for it).
    pub tid_literals: Option<Vec<Term>>,
    pub threads: Vec<u32>,
    /// For a pool shared by several fork statements of one procedure ([`build_merged`]): each
    /// statement's literal id tuple, indexed by its *tag* (the pool's one thread-id variable holds
    /// the tag of the statement that forked the thread). Empty for a pool of one fork statement.
    pub tags: Vec<Vec<Term>>,
}

impl Pool {
    /// Is this pool shared by several fork statements ([`build_merged`])?
    pub fn merged(&self) -> bool {
        !self.tags.is_empty()
    }
}

/// Is `t` a literal (an integer, real or Boolean constant)?
fn is_literal(t: &Term) -> bool {
    matches!(t.kind(), crate::smt::TermKind::Const(_))
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
    pub kind: EdgeKind,
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
    /// Thread instances (thread 0 is the entry thread; a sequential program has only it).
    pub threads: Vec<Thread>,
    /// Fork statements with their instances.
    pub pools: Vec<Pool>,
    /// The thread each location belongs to.
    pub thread_of: Vec<u32>,
    /// The accepting marker "a fork found no free instance" (only if the program forks).
    pub limit: Option<LocId>,
    /// Does the program keep calls of recursive procedures as call/return edges ([`build_nested`])?
    pub nested: bool,
    /// The edges before cone-of-influence slicing ([`super::slice`]; same ids), from which
    /// counterexamples are re-validated and shown with every variable's value.
    pub unsliced: Option<Vec<CfaEdge>>,
    /// (Library mode.) The error locations of procedure bodies inlined at calls (not those of an
    /// entry's own body, nor of a recursive procedure's one instance): each is an error location
    /// of the callee's own entry body too ([`Cfa::assume_callee_assertions`]).
    pub callee_errors: Vec<LocId>,
}

impl Cfa {
    /// In library mode every procedure with a body is an entry, checked from every state that
    /// satisfies its `requires`; a call's inlined body checks its assertions again in the states
    /// the caller reaches, a subset. Turns those error locations into plain dead ends (`assert e`
    /// becomes `assume e`), which preserves error reachability: an inlined body starts in the
    /// state at the call, which satisfies the callee's `requires` (the call edge assumes them, as
    /// the entry edge does), and the callee's own entry body, starting in that state, reaches the
    /// same error on the same path (its inlined calls assuming what held on it). Safety only: a
    /// failing assertion's meaning for termination is left open.
    pub fn assume_callee_assertions(&mut self) -> usize {
        let n = self.callee_errors.len();
        for l in std::mem::take(&mut self.callee_errors) {
            self.locs[l].kind = LocKind::Plain;
        }
        n
    }

    /// The edges counterexamples are re-validated on: those before slicing, if it changed any.
    pub fn full_edges(&self) -> &[CfaEdge] {
        self.unsliced.as_deref().unwrap_or(&self.edges)
    }

    /// Thread instances per fork statement (0 without forks).
    pub fn instances(&self) -> usize {
        self.pools.first().map_or(0, |p| p.threads.len())
    }

    /// Does the program have more than one thread instance?
    pub fn is_concurrent(&self) -> bool {
        self.threads.len() > 1
    }

    /// The error locations, in order.
    pub fn error_locations(&self) -> impl Iterator<Item = LocId> + '_ {
        (0..self.locs.len()).filter(|&l| self.error_of(l).is_some())
    }

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
    /// Instances per fork statement.
    instances: usize,
    /// The thread whose locations are being added.
    current_thread: u32,
    /// Fork statements (procedure, IR edge) → pool.
    pool_of: HashMap<(ProcId, petgraph::graph::EdgeIndex), u32>,
    /// Fork statements that share their callee's pool ([`build_merged`]).
    merged: MergedForks,
    /// The shared pool of each procedure whose fork statements are merged.
    merged_pool: HashMap<ProcId, u32>,
    /// Threads allocated but not instantiated yet.
    pending: Vec<u32>,
    /// Joins seen so far: their edges are made once every fork statement has its pool.
    joins: Vec<PendingJoin>,
    /// Procedures on a cycle of the call graph, kept as call/return edges (empty unless nested).
    recursive: BTreeSet<ProcId>,
    /// The one instance of each recursive procedure: (instance, entry, exit).
    recursive_inst: HashMap<ProcId, (u32, LocId, LocId)>,
}

/// A `join` statement whose edges are made at the end of the build.
struct PendingJoin {
    src: LocId,
    tgt: LocId,
    inst: u32,
    tid: Vec<Expr>,
    rets: Vec<VarId>,
    text: String,
    span: Option<Span>,
}

/// Builds the inlined CFA of `program` (sequential programs; a `fork` gets one thread instance).
pub fn build(voc: &Vocabulary, max_locations: usize) -> Result<Cfa, BuildError> {
    build_with(voc, max_locations, 1)
}

/// Builds the inlined CFA with `instances` thread instances per `fork` statement.
pub fn build_with(
    voc: &Vocabulary,
    max_locations: usize,
    instances: usize,
) -> Result<Cfa, BuildError> {
    build_general(voc, max_locations, instances, false, false)
}

/// Builds the CFA with the procedures on cycles of the call graph kept as nested words: each gets
/// one instance, and each of its calls a [`EdgeKind::Call`] edge to its entry and a matching
/// [`EdgeKind::Return`] edge from its exit (Heizmann, Hoenicke, Podelski: "Nested interpolants",
/// POPL 2010). Every other call is inlined as by [`build`]. A call edge's source has no other
/// outgoing edge (a fresh location is put before it), so a return is matched by its caller's
/// location.
pub fn build_nested(
    voc: &Vocabulary,
    max_locations: usize,
    instances: usize,
) -> Result<Cfa, BuildError> {
    build_general(voc, max_locations, instances, true, false)
}

/// [`build_nested`], with the fork statements of one procedure sharing one pool whenever the
/// procedure is forked by several statements, each with a literal id tuple: a thread of the pool
/// may have been forked by any of them (its tag says which, [`Pool::tags`]), and a join waits for
/// a thread whose statement's id tuple equals the join's. The program is the same; what changes is
/// that its threads of one procedure are instances of one pool, so a thread-modular view
/// ([`super::thread_modular`]) can summarise them by a few representatives whatever their number.
pub fn build_merged(
    voc: &Vocabulary,
    max_locations: usize,
    instances: usize,
) -> Result<Cfa, BuildError> {
    build_general(voc, max_locations, instances, true, true)
}

/// The fork statements of each procedure forked by several statements, all with literal id
/// tuples: (forking procedure, IR edge) → (callee, tag, literal id tuple).
type MergedForks = HashMap<(ProcId, petgraph::graph::EdgeIndex), (ProcId, u32, Vec<Term>)>;

/// The most fork statements that [`build_merged`] puts into one pool (0 if it merges none).
pub fn largest_merged_pool(voc: &Vocabulary) -> usize {
    let mut per_callee: HashMap<ProcId, usize> = HashMap::new();
    for (callee, _, _) in merged_forks(voc).values() {
        *per_callee.entry(*callee).or_default() += 1;
    }
    per_callee.into_values().max().unwrap_or(0)
}

fn merged_forks(voc: &Vocabulary) -> MergedForks {
    let program = voc.program;
    let tr = Translator { voc };
    let mut by_callee: std::collections::BTreeMap<ProcId, Vec<_>> = Default::default();
    let mut unmergeable = BTreeSet::new();
    for (i, proc) in program.procedures.iter().enumerate() {
        let Some(cfg) = &proc.body else { continue };
        for e in cfg.graph.edge_references() {
            let Stmt::Fork { tid, callee, .. } = &e.weight().stmt else {
                continue;
            };
            let env = PreEnv::new(voc, 0);
            let lits: Option<Vec<Term>> = tid
                .iter()
                .map(|x| {
                    tr.expr(x, &env)
                        .ok()
                        .map(|t| crate::smt::simplify(&t))
                        .filter(is_literal)
                })
                .collect();
            match lits {
                Some(lits) => by_callee
                    .entry(*callee)
                    .or_default()
                    .push(((ProcId(i as u32), e.id()), lits)),
                None => {
                    unmergeable.insert(*callee);
                }
            }
        }
    }
    let mut out = HashMap::new();
    for (callee, forks) in by_callee {
        if forks.len() < 2 || unmergeable.contains(&callee) {
            continue;
        }
        for (tag, (key, lits)) in forks.into_iter().enumerate() {
            out.insert(key, (callee, tag as u32, lits));
        }
    }
    out
}

/// Procedures on a cycle of the call graph (calls of procedures with a body; forks do not count).
pub fn recursive_procedures(program: &ir::Program) -> BTreeSet<ProcId> {
    let mut g: petgraph::graph::DiGraph<ProcId, ()> = petgraph::graph::DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..program.procedures.len())
        .map(|i| g.add_node(ProcId(i as u32)))
        .collect();
    for (i, proc) in program.procedures.iter().enumerate() {
        let Some(cfg) = &proc.body else { continue };
        for e in cfg.graph.edge_weights() {
            if let Stmt::Call { callee, .. } = &e.stmt {
                let callee: ProcId = *callee;
                if program.proc(callee).body.is_some() {
                    g.update_edge(nodes[i], nodes[callee.0 as usize], ());
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    for scc in petgraph::algo::tarjan_scc(&g) {
        if scc.len() > 1 || g.contains_edge(scc[0], scc[0]) {
            out.extend(scc.iter().map(|n| g[*n]));
        }
    }
    out
}

fn build_general(
    voc: &Vocabulary,
    max_locations: usize,
    instances: usize,
    nested: bool,
    merge: bool,
) -> Result<Cfa, BuildError> {
    let program = voc.program;
    let mut b = Builder {
        voc,
        cfa: Cfa {
            locs: Vec::new(),
            edges: Vec::new(),
            init: 0,
            background: Vec::new(),
            definitions: Vec::new(),
            threads: Vec::new(),
            pools: Vec::new(),
            thread_of: Vec::new(),
            limit: None,
            nested: false,
            unsliced: None,
            callee_errors: Vec::new(),
        },
        next_inst: 1,
        max_locations,
        old_globals: HashMap::new(),
        instances: instances.max(1),
        current_thread: 0,
        pool_of: HashMap::new(),
        merged: if merge {
            merged_forks(voc)
        } else {
            HashMap::new()
        },
        merged_pool: HashMap::new(),
        pending: Vec::new(),
        joins: Vec::new(),
        recursive: if nested {
            recursive_procedures(program)
        } else {
            BTreeSet::new()
        },
        recursive_inst: HashMap::new(),
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
    b.cfa.threads.push(Thread {
        proc: entries.first().copied().unwrap_or(ProcId(0)),
        inst: 1,
        entry: init,
        exit: init,
        pool: None,
        name: entries
            .first()
            .map(|p| program.proc(*p).name.clone())
            .unwrap_or_default(),
    });
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
    for &p in &entries {
        let procedure = program.proc(p);
        if procedure.body.is_none() {
            continue;
        }
        let inst = b.fresh_inst();
        let (entry, exit) = b.instantiate(p, inst, &mut vec![p])?;
        if b.cfa.threads[0].exit == init {
            b.cfa.threads[0].inst = inst;
            b.cfa.threads[0].exit = exit;
        }
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
    // The forked threads (a thread may fork more: the worklist grows until every fork statement has
    // its pool).
    while let Some(t) = b.pending.pop() {
        if matches!(program.entry, ir::Entry::Library(_)) {
            return Err(BuildError::Unsupported(
                "fork in a program without an entry procedure".into(),
            ));
        }
        let (p, inst) = (
            b.cfa.threads[t as usize].proc,
            b.cfa.threads[t as usize].inst,
        );
        b.current_thread = t;
        let (entry, exit) = b.instantiate(p, inst, &mut vec![p])?;
        b.cfa.threads[t as usize].entry = entry;
        b.cfa.threads[t as usize].exit = exit;
    }
    // A join may wait for a thread of any fork statement, also one found after it.
    for j in std::mem::take(&mut b.joins) {
        b.join(j.src, j.tgt, j.inst, &j.tid, &j.rets, j.text, j.span)?;
    }
    if b.cfa.is_concurrent() && entries.len() != 1 {
        return Err(BuildError::Unsupported(
            "fork in a program without an entry procedure".into(),
        ));
    }
    b.cfa.nested = b.cfa.edges.iter().any(|e| e.kind == EdgeKind::Call);
    if b.cfa.nested && b.cfa.is_concurrent() {
        return Err(BuildError::Unsupported(
            "recursion in a concurrent program".into(),
        ));
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
        self.cfa.thread_of.push(self.current_thread);
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
        self.add_kind_edge(src, tgt, tf, text, span, EdgeKind::Plain);
    }

    fn add_kind_edge(
        &mut self,
        src: LocId,
        tgt: LocId,
        tf: TransFormula,
        text: String,
        span: Option<Span>,
        kind: EdgeKind,
    ) {
        self.cfa.edges.push(CfaEdge {
            src,
            tgt,
            tf,
            text,
            span,
            overapprox: None,
            kind,
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
        if self.recursive.contains(&p) {
            // A recursive procedure's summary relates its globals to their values at the call.
            set.extend(procedure.modifies.iter().copied());
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
        // A body inlined at a call of a library-mode program (an entry's and a recursive
        // procedure's one instance are started with `stack == [p]`).
        let inlined = stack.len() > 1 && matches!(program.entry, ir::Entry::Library(_));
        for n in cfg.graph.node_indices() {
            let l = &cfg.graph[n];
            let id = self.add_loc(Loc {
                proc: Some(p),
                inst,
                kind: l.kind.clone(),
                span: l.span,
            })?;
            if inlined && matches!(l.kind, LocKind::Error(_)) {
                self.cfa.callee_errors.push(id);
            }
            map.insert(n, id);
        }
        if self.recursive.contains(&p) {
            self.recursive_inst
                .entry(p)
                .or_insert((inst, map[&cfg.entry], map[&cfg.exit]));
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
                    // Ultimate's markers of an atomic section (its C translation emits them):
                    // calls of these body-less procedures open and close an atomic block.
                    let cp = program.proc(*callee);
                    let marker = match cp.name.as_str() {
                        _ if cp.body.is_some() => None,
                        "__VERIFIER_atomic_begin" => Some(EdgeKind::AtomicBegin),
                        "__VERIFIER_atomic_end" => Some(EdgeKind::AtomicEnd),
                        _ => None,
                    };
                    match marker {
                        Some(kind) => self.add_kind_edge(
                            src,
                            tgt,
                            TransFormula::skip(),
                            text,
                            edge.span,
                            kind,
                        ),
                        None => {
                            self.call(src, tgt, inst, *callee, args, rets, text, edge.span, stack)?
                        }
                    }
                }
                Stmt::AtomicBegin | Stmt::AtomicEnd => {
                    let kind = if matches!(edge.stmt, Stmt::AtomicBegin) {
                        EdgeKind::AtomicBegin
                    } else {
                        EdgeKind::AtomicEnd
                    };
                    self.add_kind_edge(src, tgt, TransFormula::skip(), text, edge.span, kind);
                }
                Stmt::Fork { tid, callee, args } => {
                    let pool = self.pool(p, e.id(), *callee, tid, inst)?;
                    let tag = self.merged.get(&(p, e.id())).map(|m| m.1);
                    self.fork(src, tgt, inst, pool, tag, tid, args, text, edge.span)?;
                }
                Stmt::Join { tid, rets } => {
                    self.joins.push(PendingJoin {
                        src,
                        tgt,
                        inst,
                        tid: tid.clone(),
                        rets: rets.clone(),
                        text,
                        span: edge.span,
                    });
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

    /// The pool of fork statement `(p, e)`, allocated (with its threads pending) on first sight.
    fn pool(
        &mut self,
        p: ProcId,
        e: petgraph::graph::EdgeIndex,
        callee: ProcId,
        tid: &[Expr],
        inst: u32,
    ) -> Result<u32, BuildError> {
        if let Some(&k) = self.pool_of.get(&(p, e)) {
            return Ok(k);
        }
        let program = self.voc.program;
        let cp = program.proc(callee);
        if cp.body.is_none() {
            return Err(BuildError::Unsupported(format!(
                "fork of procedure {} without a body",
                cp.name
            )));
        }
        if !cp.requires.is_empty() {
            return Err(BuildError::Unsupported(format!(
                "requires of the forked procedure {}",
                cp.name
            )));
        }
        if self.merged.contains_key(&(p, e))
            && let Some(&k) = self.merged_pool.get(&callee)
        {
            self.pool_of.insert((p, e), k);
            return Ok(k);
        }
        let tr = Translator { voc: self.voc };
        let env = PreEnv::new(self.voc, inst);
        let tid_terms = tid
            .iter()
            .map(|x| tr.expr(x, &env).map(|t| crate::smt::simplify(&t)))
            .collect::<Result<Vec<_>, _>>()?;
        let (tid_sorts, tid_literals, tags) = if self.merged.contains_key(&(p, e)) {
            // One thread-id variable: the tag of the statement that forked the thread.
            let mut tags: Vec<(u32, Vec<Term>)> = self
                .merged
                .values()
                .filter(|(c, _, _)| *c == callee)
                .map(|(_, tag, lits)| (*tag, lits.clone()))
                .collect();
            tags.sort_by_key(|(tag, _)| *tag);
            let tags: Vec<Vec<Term>> = tags.into_iter().map(|(_, lits)| lits).collect();
            (vec![crate::smt::Sort::Int], None, tags)
        } else {
            let sorts: Vec<_> = tid_terms.iter().map(|t| t.sort()).collect();
            (
                sorts,
                tid_terms.iter().all(is_literal).then_some(tid_terms),
                Vec::new(),
            )
        };
        let k = self.cfa.pools.len() as u32;
        let mut threads = Vec::new();
        for j in 0..self.instances {
            let t = self.cfa.threads.len() as u32;
            let tinst = self.fresh_inst();
            for (i, s) in tid_sorts.iter().enumerate() {
                self.voc.declare_tid(t, i as u32, s.clone());
            }
            self.cfa.threads.push(Thread {
                proc: callee,
                inst: tinst,
                entry: 0,
                exit: 0,
                pool: Some(k),
                name: format!("{}#{}", cp.name, self.cfa.threads.len()),
            });
            let _ = j;
            threads.push(t);
            self.pending.push(t);
        }
        self.pending.sort_unstable_by(|a, b| b.cmp(a));
        let merged = !tags.is_empty();
        self.cfa.pools.push(Pool {
            callee,
            tid_sorts,
            tid_literals,
            threads,
            tags,
        });
        self.pool_of.insert((p, e), k);
        if merged {
            self.merged_pool.insert(callee, k);
        }
        Ok(k)
    }

    /// The edges of `fork tid callee(args)` in instance `inst`: one per thread of `pool`, and one
    /// to the limit marker. In a merged pool, the thread id is the statement's `tag`.
    #[allow(clippy::too_many_arguments)]
    fn fork(
        &mut self,
        src: LocId,
        tgt: LocId,
        inst: u32,
        pool: u32,
        tag: Option<u32>,
        tid: &[Expr],
        args: &[Expr],
        text: String,
        span: Option<Span>,
    ) -> Result<(), BuildError> {
        let program = self.voc.program;
        let tr = Translator { voc: self.voc };
        let threads = self.cfa.pools[pool as usize].threads.clone();
        let callee = self.cfa.pools[pool as usize].callee;
        let cp = program.proc(callee);
        for t in threads {
            let k = self.cfa.threads[t as usize].inst;
            let env = PreEnv::new(self.voc, inst);
            let mut assigned: Vec<(PVar, Term)> = Vec::new();
            for (prm, a) in cp.params.iter().zip(args) {
                assigned.push((PVar::Var { id: *prm, inst: k }, tr.expr(a, &env)?));
            }
            match tag {
                Some(tag) => {
                    assigned.push((PVar::Tid { thread: t, idx: 0 }, Term::int(i64::from(tag))))
                }
                None => {
                    for (i, x) in tid.iter().enumerate() {
                        assigned.push((
                            PVar::Tid {
                                thread: t,
                                idx: i as u32,
                            },
                            tr.expr(x, &env)?,
                        ));
                    }
                }
            }
            for g in self.old_globals_of(callee) {
                assigned.push((PVar::Old { id: g, inst: k }, env.var(g)?));
            }
            let assign = TransFormula::assign(self.voc, assigned, env.reads.into_inner())?;
            for v in cp.returns.iter().chain(&cp.locals) {
                self.voc.sort(PVar::Var { id: *v, inst: k })?;
            }
            let havoc = TransFormula::havoc(
                cp.returns
                    .iter()
                    .chain(&cp.locals)
                    .map(|v| PVar::Var { id: *v, inst: k }),
            );
            let tf = seq(self.voc, &assign, &havoc)?;
            let name = self.cfa.threads[t as usize].name.clone();
            self.add_kind_edge(
                src,
                tgt,
                tf,
                format!("{text} // starts {name}"),
                span,
                EdgeKind::Fork { thread: t },
            );
        }
        let limit = match self.cfa.limit {
            Some(l) => l,
            None => {
                let saved = std::mem::replace(&mut self.current_thread, 0);
                let l = self.add_loc(Loc {
                    proc: None,
                    inst: 0,
                    kind: LocKind::Exit,
                    span: None,
                })?;
                self.current_thread = saved;
                self.cfa.limit = Some(l);
                l
            }
        };
        self.add_kind_edge(
            src,
            limit,
            TransFormula::skip(),
            format!("{text} // no free thread instance"),
            span,
            EdgeKind::ForkLimit { pool },
        );
        self.add_kind_edge(
            src,
            tgt,
            TransFormula::skip(),
            format!("{text} // a further thread, which never runs"),
            span,
            EdgeKind::GhostFork { pool },
        );
        Ok(())
    }

    /// The edges of `join tid assign rets` in instance `inst`: one per thread of every pool whose id
    /// arity and sorts (and returns, with `assign`) fit.
    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        src: LocId,
        tgt: LocId,
        inst: u32,
        tid: &[Expr],
        rets: &[VarId],
        text: String,
        span: Option<Span>,
    ) -> Result<(), BuildError> {
        let program = self.voc.program;
        let tr = Translator { voc: self.voc };
        let probe = PreEnv::new(self.voc, inst);
        let tid_terms = tid
            .iter()
            .map(|x| tr.expr(x, &probe))
            .collect::<Result<Vec<_>, _>>()?;
        let sorts: Vec<_> = tid_terms.iter().map(|t| t.sort()).collect();
        let ret_vars: Vec<PVar> = rets
            .iter()
            .map(|v| PVar::Var {
                id: *v,
                inst: instance_of(program, *v, inst),
            })
            .collect();
        for pool in 0..self.cfa.pools.len() {
            let Pool {
                callee,
                tid_sorts,
                tid_literals,
                threads,
                tags,
            } = self.cfa.pools[pool].clone();
            let cp = program.proc(callee);
            // In a merged pool: the tags of the statements whose id tuple may equal the join's.
            let fitting: Vec<(u32, &Vec<Term>)> = tags
                .iter()
                .enumerate()
                .filter(|(_, lits)| {
                    lits.iter().map(Term::sort).eq(sorts.iter().cloned())
                        && !lits.iter().zip(&tid_terms).any(|(f, j)| {
                            let j = crate::smt::simplify(j);
                            is_literal(&j) && j != *f
                        })
                })
                .map(|(g, lits)| (g as u32, lits))
                .collect();
            if (tags.is_empty() && tid_sorts != sorts) || (!tags.is_empty() && fitting.is_empty()) {
                continue;
            }
            if let Some(lits) = &tid_literals {
                let differs = lits.iter().zip(&tid_terms).any(|(f, j)| {
                    let j = crate::smt::simplify(j);
                    is_literal(&j) && j != *f
                });
                if differs {
                    continue;
                }
            }
            if !rets.is_empty() {
                if cp.returns.len() != rets.len() {
                    continue;
                }
                let fits = cp.returns.iter().zip(&ret_vars).all(|(r, x)| {
                    self.voc.sort(PVar::Var { id: *r, inst: 0 }).ok() == self.voc.sort(*x).ok()
                });
                if !fits {
                    continue;
                }
            }
            // The fork's literal ids are the join's: the thread's ids hold them whenever
            // the join can take it (forked by that statement), so there is nothing to check
            // (and the ids stay out of the proofs).
            let same_literals = tid_literals.as_ref().is_some_and(|lits| {
                lits.len() == tid_terms.len()
                    && lits
                        .iter()
                        .zip(&tid_terms)
                        .all(|(f, j)| crate::smt::simplify(j) == *f)
            });
            for t in threads {
                let k = self.cfa.threads[t as usize].inst;
                let env = PreEnv::new(self.voc, inst);
                let mut eqs = Vec::new();
                let mut reads = BTreeSet::new();
                if tags.is_empty() && !same_literals {
                    for (i, x) in tid.iter().enumerate() {
                        let v = PVar::Tid {
                            thread: t,
                            idx: i as u32,
                        };
                        reads.insert(v);
                        eqs.push(Term::eq(&Term::var(&self.voc.pre(v)?), &tr.expr(x, &env)?));
                    }
                } else if !tags.is_empty() {
                    // Forked by a statement whose id tuple is the join's.
                    let v = PVar::Tid { thread: t, idx: 0 };
                    reads.insert(v);
                    let tag = Term::var(&self.voc.pre(v)?);
                    let mut cases = Vec::new();
                    for &(g, lits) in &fitting {
                        let mut case = vec![Term::eq(&tag, &Term::int(i64::from(g)))];
                        for (f, x) in lits.iter().zip(tid) {
                            case.push(Term::eq(f, &tr.expr(x, &env)?));
                        }
                        cases.push(Term::and(case));
                    }
                    eqs.push(Term::or(cases));
                }
                reads.extend(env.reads.into_inner());
                let check = TransFormula::assume(Term::and(eqs), reads);
                let mut back = Vec::new();
                let mut back_reads = BTreeSet::new();
                for (x, r) in ret_vars.iter().zip(&cp.returns) {
                    let rv = PVar::Var { id: *r, inst: k };
                    back_reads.insert(rv);
                    back.push((*x, Term::var(&self.voc.pre(rv)?)));
                }
                let assign = TransFormula::assign(self.voc, back, back_reads)?;
                let tf = seq(self.voc, &check, &assign)?;
                let name = self.cfa.threads[t as usize].name.clone();
                self.add_kind_edge(
                    src,
                    tgt,
                    tf,
                    format!("{text} // joins {name}"),
                    span,
                    EdgeKind::Join { thread: t },
                );
            }
        }
        Ok(())
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
        let recursive = self.recursive.contains(&callee);
        let (k, centry, cexit) = if recursive {
            // One instance of a recursive procedure, entered by call edges.
            match self.recursive_inst.get(&callee) {
                Some(&x) => x,
                None => {
                    let k = self.fresh_inst();
                    self.instantiate(callee, k, &mut vec![callee])?;
                    self.recursive_inst[&callee]
                }
            }
        } else {
            if stack.contains(&callee) {
                return Err(BuildError::Recursion(cp.name.clone()));
            }
            let k = self.fresh_inst();
            stack.push(callee);
            let (centry, cexit) = self.instantiate(callee, k, stack)?;
            stack.pop();
            (k, centry, cexit)
        };
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
        if recursive {
            // A fresh source, so that the caller's location names the call (see `build_nested`).
            let at = self.add_loc(Loc {
                proc: self.cfa.locs[src].proc,
                inst,
                kind: LocKind::Plain,
                span,
            })?;
            self.add_edge(src, at, TransFormula::skip(), "skip".into(), span);
            let call = self.cfa.edges.len();
            self.add_kind_edge(at, centry, tf, text, span, EdgeKind::Call);
            let ret_env = PreEnv::new(self.voc, k);
            let mut back = Vec::new();
            for (r, v) in ret_vars.iter().zip(&cp.returns) {
                back.push((*r, ret_env.var(*v)?));
            }
            let tf = TransFormula::assign(self.voc, back, ret_env.reads.into_inner())?;
            self.add_kind_edge(
                cexit,
                tgt,
                tf,
                format!("return from {}", cp.name),
                span,
                EdgeKind::Return { call },
            );
            return Ok(());
        }
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
