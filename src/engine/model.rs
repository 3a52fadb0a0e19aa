//! The program model: the program automaton of a (possibly concurrent) lowered program, built on
//! demand, whose states are *configurations* and whose letters are *actions* of thread instances.
//!
//! This is the initial abstraction of trace abstraction for concurrent programs as in Ultimate
//! GemCutter (Farzan, Klumpp, Podelski: "Sound sequentialization for concurrent program
//! verification", PLDI 2022; "Stratified commutativity in verification algorithms for concurrent
//! programs", POPL 2023), where Ultimate builds it as a Petri net of thread instances and explores
//! the net's markings lazily as a finite automaton (`/work/shared/docs/ultimate-design-notes.md`
//! §5.1, §5.4; `target-architecture.md`, "engine::model"). It is *control only*: it knows nothing
//! of SMT. What a letter does to the data (assume, assign, the call's parameter passing, the
//! fork's thread id, the join's thread-id match) is the engine's business, read off the IR edge the
//! letter names.
//!
//! # What it computes
//!
//! * **Thread templates**: one per procedure with a body (its CFG).
//! * **Thread instances** ([`ThreadInstance`]): instance 0 is the entry thread (the entry procedure;
//!   in library mode, one model per entry procedure, see [`ProgramModel::for_program`]); then, for
//!   every procedure that is the target of some `fork` statement anywhere in the program (in
//!   [`ProcId`] order), `ModelConfig::instances` instances of it. Unlike Ultimate, instances belong
//!   to the forked *procedure*, not to the fork statement.
//! * **Configurations** ([`Configuration`]): for each thread instance either "not in use" (`None`) or
//!   its current location and call stack ([`ThreadState`]), plus the atomic owner. The call stack
//!   holds the *call edges* of the pending calls (the return location is the call edge's target;
//!   the edge also names the call's result variables, which the return letter needs).
//! * **Letters** ([`Action`]): a thread, an IR edge and an [`ActionKind`]:
//!   - `Internal`: `assume`, assignments, `havoc`, `Unsupported` and calls of procedures without a
//!     body (summaries);
//!   - `Call { callee }`: a call of a procedure with a body pushes the call edge and moves to the
//!     callee's entry; `Return { callee }` (at the callee's exit with a nonempty stack; the letter's
//!     edge is the popped call edge) moves to the call edge's target;
//!   - `Fork { instance }`: `fork tid P(args)` has one successor per free instance of `P` (or only
//!     the lowest free one with `ModelConfig::lowest_free_instance`, Ultimate's canonical choice),
//!     which becomes in use at `P`'s entry with an empty stack;
//!   - `Join { instance }`: `join tid` is enabled once for every in-use instance of a forked
//!     procedure that is at its exit with an empty stack, provided the arities fit (the join's tid
//!     arity is the arity of some `fork` of that procedure, and `join … assign xs` has as many
//!     variables as the procedure has returns — Ultimate's arity/sort filter without the sorts); the
//!     instance becomes not in use. Whether the thread ids actually match is a **data constraint**
//!     the letter carries for the engine (`tid` = the instance's id), so the model over-approximates;
//!   - `AtomicBegin` / `AtomicEnd`: while an atomic owner is set, only the owner has letters. Nested
//!     blocks of the owner count a depth; an `AtomicEnd` without an owner (an unbalanced `goto` out of
//!     a block, docs/IR.md §5) changes nothing;
//!   - `Limit(l)`: a bound of the model was hit; the target is the accepting marker state
//!     [`State::Limit`]`(l)`, see below.
//! * **Bounds** are explicit, accepting marker states ([`Limit`]), never silent truncation: a fork
//!   when no instance of the callee is free leads to `State::Limit(InsufficientInstances)` (Ultimate's
//!   "petrification did not provide enough thread instances" error location); a call whose push would
//!   make the stack longer than `ModelConfig::max_call_depth` leads to `State::Limit(CallDepth)`.
//!   Since markers are accepting, the engine must refute the trace that reaches one (then the bound
//!   is irrelevant) or report that the bound was insufficient (retry with a larger one, or UNKNOWN);
//!   it can never conclude SAFE while a feasible trace is cut off by a bound.
//! * **Accepting**: a configuration in which some thread is at an error location
//!   (`LocKind::Error`), and every marker state. Other threads keep moving in such a configuration
//!   (the language of the automaton is the set of traces of the program that reach an error; what
//!   follows an accepting state does not matter for safety, and the engine may stop there).
//! * A thread at the exit of its own template with an empty stack has no letters: the entry thread
//!   ends there; a forked instance waits there to be joined.
//!
//! A sequential program is the one-thread case of the same code (no `fork`: only instance 0).
//!
//! # Invariants
//!
//! * Every configuration has one slot per thread instance; the entry thread's slot is always in use.
//! * A [`Loc`] names a node of the CFG of its procedure, which has a body; every stack frame names a
//!   `Call` edge of a procedure with a body whose callee has a body; stacks are at most
//!   `max_call_depth` long; a thread's bottom frame (if any) belongs to its template.
//! * The atomic owner, if any, is in use and has depth ≥ 1.
//! * `successors` is deterministic: threads in instance order; per thread the return letter (at the
//!   exit of a callee) first, then the outgoing edges in edge-index order; per fork or join edge the
//!   instances in instance order. Marker states have no successors.
//! * Configurations are plain values (`Ord`, `Hash`): equal configurations are equal states.

use crate::automata::Automaton;
use crate::ir::{Cfg, Entry, LocKind, ProcId, Program, Stmt};
use petgraph::graph::{EdgeIndex, NodeIndex};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The bounds of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelConfig {
    /// Instances per forked procedure (Ultimate starts with 1 and increases it while the
    /// insufficient-instances marker is reachable by a feasible trace).
    pub instances: usize,
    /// The maximal length of a thread's call stack; a call beyond it leads to
    /// [`Limit::CallDepth`].
    pub max_call_depth: usize,
    /// Fork only the lowest free instance (Ultimate's canonical choice, a symmetry reduction; the
    /// instances of a procedure are interchangeable). Off: one successor per free instance.
    pub lowest_free_instance: bool,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            instances: 1,
            max_call_depth: 16,
            lowest_free_instance: false,
        }
    }
}

/// A thread instance: an index into [`ProgramModel::threads`]. Instance 0 is the entry thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadInstance(pub u32);

impl ThreadInstance {
    /// The entry thread.
    pub const ENTRY: ThreadInstance = ThreadInstance(0);

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a thread instance runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadInfo {
    /// The procedure whose body is the thread's template.
    pub template: ProcId,
    /// `None` for the entry thread; `Some(j)` for the `j`-th instance (from 0) of a forked procedure.
    pub copy: Option<usize>,
    /// A readable name: the procedure's name, with `#j` for forked instances.
    pub name: String,
}

/// An IR edge: the procedure whose CFG holds it, and its index there.
pub type ProgramEdge = (ProcId, EdgeIndex);

/// A control location: a node of a procedure's CFG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub proc: ProcId,
    pub node: NodeIndex,
}

/// The control state of a thread instance in use.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadState {
    pub loc: Loc,
    /// The pending calls, outermost first: each a `Call` edge whose target is the return location.
    pub stack: Vec<ProgramEdge>,
}

/// The owner of the atomic section and its nesting depth (≥ 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtomicOwner {
    pub thread: ThreadInstance,
    pub depth: u32,
}

/// A configuration: the control state of every thread instance, and the atomic owner.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Configuration {
    /// One slot per thread instance, in instance order; `None` = not in use.
    pub threads: Vec<Option<ThreadState>>,
    pub atomic: Option<AtomicOwner>,
}

impl Configuration {
    /// The state of thread `t`, if it is in use.
    pub fn thread(&self, t: ThreadInstance) -> Option<&ThreadState> {
        self.threads.get(t.index()).and_then(Option::as_ref)
    }
}

/// A bound of the model that an execution exceeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limit {
    /// A `fork` of `procedure` found all its instances in use.
    InsufficientInstances { procedure: ProcId },
    /// A call of `callee` would exceed `max_call_depth`.
    CallDepth { callee: ProcId },
}

/// A state of the program automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    Config(Configuration),
    /// An accepting marker without successors: a bound was insufficient.
    Limit(Limit),
}

impl State {
    pub fn config(&self) -> Option<&Configuration> {
        match self {
            State::Config(c) => Some(c),
            State::Limit(_) => None,
        }
    }
}

/// What kind of step an [`Action`] is (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ActionKind {
    Internal,
    Call {
        callee: ProcId,
    },
    /// The letter's edge is the call edge being returned from.
    Return {
        callee: ProcId,
    },
    Fork {
        instance: ThreadInstance,
    },
    /// The joined instance; that its thread id equals the join's `tid` is a data constraint.
    Join {
        instance: ThreadInstance,
    },
    AtomicBegin,
    AtomicEnd,
    /// The edge (a fork or call) exceeds a bound; the target is [`State::Limit`].
    Limit(Limit),
}

/// A letter: thread `thread` takes IR edge `edge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    pub thread: ThreadInstance,
    pub edge: ProgramEdge,
    pub kind: ActionKind,
}

/// Why a model cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The entry procedure does not exist in the program.
    UnknownProcedure(ProcId),
    /// The entry procedure has no body.
    EntryWithoutBody(String),
    /// A `fork` of a procedure without a body (it has no template to run).
    ForkWithoutBody(String),
    /// More thread instances than fit a `u32`.
    TooManyThreads,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::UnknownProcedure(p) => write!(f, "no procedure with id {}", p.0),
            ModelError::EntryWithoutBody(p) => write!(f, "entry procedure {p} has no body"),
            ModelError::ForkWithoutBody(p) => {
                write!(f, "unsupported: fork of procedure {p} without a body")
            }
            ModelError::TooManyThreads => write!(f, "too many thread instances"),
        }
    }
}

/// The program automaton of one entry procedure (see the module documentation).
#[derive(Clone, Debug)]
pub struct ProgramModel<'p> {
    program: &'p Program,
    config: ModelConfig,
    entry: ProcId,
    threads: Vec<ThreadInfo>,
    /// The forked procedures: their instances (in instance order) and the tid arities of their forks.
    forked: BTreeMap<ProcId, Forked>,
    /// Per procedure with a body, per node: the outgoing edges in index order.
    out_edges: BTreeMap<ProcId, Vec<Vec<EdgeIndex>>>,
}

#[derive(Clone, Debug)]
struct Forked {
    instances: Vec<ThreadInstance>,
    tid_arities: BTreeSet<usize>,
}

impl<'p> ProgramModel<'p> {
    /// The model whose entry thread runs `entry`.
    pub fn new(
        program: &'p Program,
        entry: ProcId,
        config: ModelConfig,
    ) -> Result<Self, ModelError> {
        let entry_proc = program
            .procedures
            .get(entry.0 as usize)
            .ok_or(ModelError::UnknownProcedure(entry))?;
        if entry_proc.body.is_none() {
            return Err(ModelError::EntryWithoutBody(entry_proc.name.clone()));
        }
        let mut out_edges = BTreeMap::new();
        let mut arities: BTreeMap<ProcId, BTreeSet<usize>> = BTreeMap::new();
        for (p, procedure) in (0u32..).map(ProcId).zip(&program.procedures) {
            let Some(cfg) = &procedure.body else {
                continue;
            };
            let mut per_node = vec![Vec::new(); cfg.graph.node_count()];
            for e in cfg.graph.edge_indices() {
                let src = cfg.graph.edge_endpoints(e).map(|(src, _)| src.index());
                if let Some(slot) = src.and_then(|src| per_node.get_mut(src)) {
                    slot.push(e);
                }
                if let Stmt::Fork { tid, callee, .. } = &cfg.graph[e].stmt {
                    arities.entry(*callee).or_default().insert(tid.len());
                }
            }
            // `edge_indices` is in index order, so every list is sorted.
            out_edges.insert(p, per_node);
        }
        let mut threads = vec![ThreadInfo {
            template: entry,
            copy: None,
            name: entry_proc.name.clone(),
        }];
        let mut forked = BTreeMap::new();
        for (callee, tid_arities) in arities {
            let procedure = program
                .procedures
                .get(callee.0 as usize)
                .ok_or(ModelError::UnknownProcedure(callee))?;
            if procedure.body.is_none() {
                return Err(ModelError::ForkWithoutBody(procedure.name.clone()));
            }
            let mut instances = Vec::new();
            for j in 0..config.instances {
                let t = u32::try_from(threads.len()).map_err(|_| ModelError::TooManyThreads)?;
                instances.push(ThreadInstance(t));
                threads.push(ThreadInfo {
                    template: callee,
                    copy: Some(j),
                    name: format!("{}#{j}", procedure.name),
                });
            }
            forked.insert(
                callee,
                Forked {
                    instances,
                    tid_arities,
                },
            );
        }
        Ok(ProgramModel {
            program,
            config,
            entry,
            threads,
            forked,
            out_edges,
        })
    }

    /// One model per entry procedure with a body: `ULTIMATE.start`, or in library mode every
    /// procedure with a body (docs/IR.md §entry points).
    pub fn for_program(program: &'p Program, config: ModelConfig) -> Result<Vec<Self>, ModelError> {
        let entries = match &program.entry {
            Entry::Procedure(p) => vec![*p],
            Entry::Library(ps) => ps.clone(),
        };
        entries
            .into_iter()
            .filter(|p| {
                program
                    .procedures
                    .get(p.0 as usize)
                    .is_some_and(|pr| pr.body.is_some())
            })
            .map(|p| ProgramModel::new(program, p, config))
            .collect()
    }

    pub fn program(&self) -> &'p Program {
        self.program
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    pub fn entry(&self) -> ProcId {
        self.entry
    }

    /// All thread instances, in instance order (index = [`ThreadInstance`]).
    pub fn threads(&self) -> &[ThreadInfo] {
        &self.threads
    }

    pub fn thread(&self, t: ThreadInstance) -> Option<&ThreadInfo> {
        self.threads.get(t.index())
    }

    /// The instances of a forked procedure (empty if it is never forked).
    pub fn instances_of(&self, p: ProcId) -> &[ThreadInstance] {
        self.forked
            .get(&p)
            .map(|f| f.instances.as_slice())
            .unwrap_or(&[])
    }

    /// The CFG of a procedure with a body.
    pub fn cfg(&self, p: ProcId) -> Option<&'p Cfg> {
        self.program
            .procedures
            .get(p.0 as usize)
            .and_then(|pr| pr.body.as_ref())
    }

    /// The IR statement of an edge (for a return letter: the call).
    pub fn stmt(&self, (p, e): ProgramEdge) -> Option<&'p Stmt> {
        self.cfg(p)
            .and_then(|cfg| cfg.graph.edge_weight(e))
            .map(|edge| &edge.stmt)
    }

    /// The kind of a location.
    pub fn loc_kind(&self, l: Loc) -> Option<&'p LocKind> {
        self.cfg(l.proc)
            .and_then(|cfg| cfg.graph.node_weight(l.node))
            .map(|loc| &loc.kind)
    }

    /// The initial configuration: the entry thread at its entry, every other instance not in use.
    pub fn initial_configuration(&self) -> Option<Configuration> {
        let cfg = self.cfg(self.entry)?;
        let mut threads = vec![None; self.threads.len()];
        *threads.first_mut()? = Some(ThreadState {
            loc: Loc {
                proc: self.entry,
                node: cfg.entry,
            },
            stack: Vec::new(),
        });
        Some(Configuration {
            threads,
            atomic: None,
        })
    }

    /// The threads at error locations in `c`, with their errors, in instance order.
    pub fn errors(&self, c: &Configuration) -> Vec<(ThreadInstance, crate::ir::ErrorId)> {
        let mut out = Vec::new();
        for (i, ts) in c.threads.iter().enumerate() {
            let kind = ts.as_ref().and_then(|ts| self.loc_kind(ts.loc));
            if let (Some(LocKind::Error(e)), Ok(t)) = (kind, u32::try_from(i)) {
                out.push((ThreadInstance(t), *e));
            }
        }
        out
    }

    /// The letters of thread `t` in `c` with their successors, appended to `out`.
    fn thread_successors(
        &self,
        c: &Configuration,
        t: ThreadInstance,
        ts: &ThreadState,
        out: &mut Vec<(Action, State)>,
    ) {
        let Some(cfg) = self.cfg(ts.loc.proc) else {
            return;
        };
        // Return from a callee.
        let frame = ts.stack.last().copied().filter(|_| ts.loc.node == cfg.exit);
        let ret = frame.and_then(|frame| {
            let (_, ret) = self.cfg(frame.0)?.graph.edge_endpoints(frame.1)?;
            Some((frame, ret))
        });
        if let Some((frame, ret)) = ret {
            let mut stack = ts.stack.clone();
            stack.pop();
            let next = ThreadState {
                loc: Loc {
                    proc: frame.0,
                    node: ret,
                },
                stack,
            };
            out.push((
                Action {
                    thread: t,
                    edge: frame,
                    kind: ActionKind::Return {
                        callee: ts.loc.proc,
                    },
                },
                State::Config(with_thread(c, t, Some(next))),
            ));
        }
        let Some(edges) = self
            .out_edges
            .get(&ts.loc.proc)
            .and_then(|per_node| per_node.get(ts.loc.node.index()))
        else {
            return;
        };
        for &e in edges {
            let (Some(edge), Some((_, target))) =
                (cfg.graph.edge_weight(e), cfg.graph.edge_endpoints(e))
            else {
                continue;
            };
            let pe = (ts.loc.proc, e);
            let action = |kind| Action {
                thread: t,
                edge: pe,
                kind,
            };
            let moved = ThreadState {
                loc: Loc {
                    proc: ts.loc.proc,
                    node: target,
                },
                stack: ts.stack.clone(),
            };
            match &edge.stmt {
                Stmt::Assume(_) | Stmt::Assign(_) | Stmt::Havoc(_) | Stmt::Unsupported(_) => out
                    .push((
                        action(ActionKind::Internal),
                        State::Config(with_thread(c, t, Some(moved))),
                    )),
                Stmt::Call { callee, .. } => match self.cfg(*callee) {
                    None => out.push((
                        action(ActionKind::Internal),
                        State::Config(with_thread(c, t, Some(moved))),
                    )),
                    Some(_) if ts.stack.len() >= self.config.max_call_depth => {
                        let limit = Limit::CallDepth { callee: *callee };
                        out.push((action(ActionKind::Limit(limit)), State::Limit(limit)));
                    }
                    Some(callee_cfg) => {
                        let mut stack = ts.stack.clone();
                        stack.push(pe);
                        let next = ThreadState {
                            loc: Loc {
                                proc: *callee,
                                node: callee_cfg.entry,
                            },
                            stack,
                        };
                        out.push((
                            action(ActionKind::Call { callee: *callee }),
                            State::Config(with_thread(c, t, Some(next))),
                        ));
                    }
                },
                Stmt::Fork { callee, .. } => {
                    // `new` rejects forks of procedures without a body.
                    let Some(callee_cfg) = self.cfg(*callee) else {
                        continue;
                    };
                    let free = self
                        .instances_of(*callee)
                        .iter()
                        .copied()
                        .filter(|i| c.thread(*i).is_none())
                        .take(if self.config.lowest_free_instance {
                            1
                        } else {
                            usize::MAX
                        });
                    let mut any = false;
                    for i in free {
                        any = true;
                        let mut next = with_thread(c, t, Some(moved.clone()));
                        if let Some(slot) = next.threads.get_mut(i.index()) {
                            *slot = Some(ThreadState {
                                loc: Loc {
                                    proc: *callee,
                                    node: callee_cfg.entry,
                                },
                                stack: Vec::new(),
                            });
                        }
                        out.push((
                            action(ActionKind::Fork { instance: i }),
                            State::Config(next),
                        ));
                    }
                    if !any {
                        let limit = Limit::InsufficientInstances { procedure: *callee };
                        out.push((action(ActionKind::Limit(limit)), State::Limit(limit)));
                    }
                }
                Stmt::Join { tid, rets } => {
                    for (p, forked) in &self.forked {
                        let Some(procedure) = self.program.procedures.get(p.0 as usize) else {
                            continue;
                        };
                        let Some(p_cfg) = &procedure.body else {
                            continue;
                        };
                        if !forked.tid_arities.contains(&tid.len())
                            || !(rets.is_empty() || rets.len() == procedure.returns.len())
                        {
                            continue;
                        }
                        for &i in &forked.instances {
                            let done = c.thread(i).is_some_and(|other| {
                                other.loc.proc == *p
                                    && other.loc.node == p_cfg.exit
                                    && other.stack.is_empty()
                            });
                            if done {
                                let mut next = with_thread(c, t, Some(moved.clone()));
                                if let Some(slot) = next.threads.get_mut(i.index()) {
                                    *slot = None;
                                }
                                out.push((
                                    action(ActionKind::Join { instance: i }),
                                    State::Config(next),
                                ));
                            }
                        }
                    }
                }
                Stmt::AtomicBegin => {
                    let mut next = with_thread(c, t, Some(moved));
                    next.atomic = Some(AtomicOwner {
                        thread: t,
                        depth: c.atomic.map_or(1, |a| a.depth.saturating_add(1)),
                    });
                    out.push((action(ActionKind::AtomicBegin), State::Config(next)));
                }
                Stmt::AtomicEnd => {
                    let mut next = with_thread(c, t, Some(moved));
                    next.atomic = c.atomic.and_then(|a| {
                        (a.depth > 1).then_some(AtomicOwner {
                            thread: a.thread,
                            depth: a.depth - 1,
                        })
                    });
                    out.push((action(ActionKind::AtomicEnd), State::Config(next)));
                }
            }
        }
    }
}

/// `c` with thread `t`'s slot replaced.
fn with_thread(c: &Configuration, t: ThreadInstance, ts: Option<ThreadState>) -> Configuration {
    let mut next = c.clone();
    if let Some(slot) = next.threads.get_mut(t.index()) {
        *slot = ts;
    }
    next
}

impl Automaton for ProgramModel<'_> {
    type State = State;
    type Letter = Action;

    fn initial_states(&self) -> Vec<State> {
        self.initial_configuration()
            .map(State::Config)
            .into_iter()
            .collect()
    }

    fn is_accepting(&self, s: &State) -> bool {
        match s {
            State::Limit(_) => true,
            State::Config(c) => c
                .threads
                .iter()
                .flatten()
                .any(|ts| matches!(self.loc_kind(ts.loc), Some(LocKind::Error(_)))),
        }
    }

    fn successors(&self, s: &State) -> Vec<(Action, State)> {
        let mut out = Vec::new();
        let State::Config(c) = s else {
            return out;
        };
        for (i, ts) in c.threads.iter().enumerate() {
            let (Some(ts), Ok(t)) = (ts, u32::try_from(i)) else {
                continue;
            };
            let t = ThreadInstance(t);
            if c.atomic.is_some_and(|a| a.thread != t) {
                continue;
            }
            self.thread_successors(c, t, ts, &mut out);
        }
        out
    }
}
