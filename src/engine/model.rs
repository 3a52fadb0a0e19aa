//! The program automaton over *configurations*, built on demand (control only).
//!
//! What it computes: for a lowered program (one CFG per procedure, `ir::Program`), the automaton
//! whose states are configurations — for every thread instance in use, its current procedure,
//! location and call stack, plus the owner of a running `atomic` block — and whose letters are
//! [`Action`]s `{thread, edge, kind}`. A sequential program is the one-thread case. This is the
//! program model of Ultimate GemCutter (Farzan, Klumpp, Podelski: "Sound sequentialization for
//! concurrent program verification", PLDI 2022; "Stratified commutativity in verification algorithms
//! for concurrent programs", POPL 2023; design notes §5.4 on fork/join and thread instances), with
//! calls kept as call/return letters (nested words, Heizmann, Hoenicke, Podelski POPL 2010) instead
//! of being inlined.
//!
//! - **Threads.** The entry thread is instance 0 of the entry procedure. Each procedure that some
//!   `fork` starts has `ModelConfig::instances` instances `1..=k`. `fork` starts a free instance at
//!   the procedure's entry (one successor per free instance); when every instance is in use, the
//!   successor is the accepting *insufficient thread instances* configuration (Ultimate's
//!   "insufficient thread instances" error: k must grow). `join` is enabled for every forked instance
//!   that has returned (at the exit of its own procedure with an empty stack) and frees it; that the
//!   joined thread's ids match the `join`'s ids is a data constraint of the letter, the engine's
//!   business, not the model's.
//! - **Calls.** A call of a procedure with a body pushes the call edge and enters the callee (a
//!   `Call` letter); at the callee's exit the `Return` letter pops it. Beyond
//!   `ModelConfig::max_call_depth` frames a call has no successor — an under-approximation a client
//!   must not take for a proof: [`ProgramModel::call_cut`] tells where it happened. A call of a
//!   procedure without a body is an internal letter (a summary).
//! - **Atomic blocks.** `AtomicBegin` makes its thread the owner; while an owner is set only the
//!   owner moves; `AtomicEnd` releases it.
//!
//! Invariants: successors come in a deterministic order (threads in `ThreadId` order, edges in edge
//! index order); a configuration is accepting iff some thread is at an error location or it is the
//! insufficient-instances configuration, which has no successors; the model knows nothing of SMT.

use crate::automata::Automaton;
use crate::ir::{self, LocKind, ProcId, Stmt};
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, BTreeSet};

/// Bounds of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    /// Instances of each forked procedure.
    pub instances: u32,
    /// Frames a thread's call stack may hold.
    pub max_call_depth: usize,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            instances: 1,
            max_call_depth: 16,
        }
    }
}

/// A thread instance: instance 0 of the entry procedure, or instance `1..=k` of a forked one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadId {
    pub template: ProcId,
    pub instance: u32,
}

/// Where a thread is: its current procedure and location, and the call edges it will return to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadState {
    pub proc: ProcId,
    pub loc: u32,
    /// (caller, call edge), innermost last.
    pub stack: Vec<(ProcId, u32)>,
}

/// A configuration: the threads in use and the owner of a running atomic block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Configuration {
    pub threads: BTreeMap<ThreadId, ThreadState>,
    pub atomic: Option<ThreadId>,
    /// Every instance of a forked procedure was in use at a `fork` (accepting, no successors).
    pub insufficient: bool,
}

/// What a letter does to the control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ActionKind {
    Internal,
    Call,
    /// Return to the call edge `Action::edge` of `Action::proc`.
    Return,
    Fork(ThreadId),
    Join(ThreadId),
    AtomicBegin,
    AtomicEnd,
}

/// A letter: `thread` takes `edge` of procedure `proc`'s CFG (for a return: the call edge it
/// returns to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    pub thread: ThreadId,
    pub proc: ProcId,
    pub edge: u32,
    pub kind: ActionKind,
}

/// Why a model cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The entry procedure has no body.
    NoBody(String),
}

/// The program automaton of `program` from one entry procedure.
pub struct ProgramModel<'p> {
    program: &'p ir::Program,
    entry: ProcId,
    config: ModelConfig,
}

impl<'p> ProgramModel<'p> {
    pub fn new(
        program: &'p ir::Program,
        entry: ProcId,
        config: ModelConfig,
    ) -> Result<Self, ModelError> {
        if program.proc(entry).body.is_none() {
            return Err(ModelError::NoBody(program.proc(entry).name.clone()));
        }
        Ok(ProgramModel {
            program,
            entry,
            config,
        })
    }

    fn cfg(&self, p: ProcId) -> Option<&'p ir::Cfg> {
        self.program.proc(p).body.as_ref()
    }

    fn kind(&self, p: ProcId, loc: u32) -> Option<LocKind> {
        self.cfg(p)
            .and_then(|c| c.graph.node_weight(NodeIndex::new(loc as usize)))
            .map(|l| l.kind.clone())
    }

    fn at_own_exit(&self, t: ThreadId, s: &ThreadState) -> bool {
        s.stack.is_empty()
            && s.proc == t.template
            && self
                .cfg(s.proc)
                .is_some_and(|c| c.exit.index() as u32 == s.loc)
    }

    /// The successors of thread `t` in `c`, appended to `out`.
    fn thread_successors(
        &self,
        c: &Configuration,
        t: ThreadId,
        s: &ThreadState,
        out: &mut Vec<(Action, Configuration)>,
    ) {
        let Some(cfg) = self.cfg(s.proc) else {
            return;
        };
        let with = |c: &Configuration, st: ThreadState| {
            let mut n = c.clone();
            n.threads.insert(t, st);
            n
        };
        // Return from a callee.
        if cfg.exit.index() as u32 == s.loc {
            if let Some((caller, call)) = s.stack.last().copied() {
                let target = self
                    .cfg(caller)
                    .and_then(|cc| cc.graph.edge_endpoints(EdgeIndex::new(call as usize)))
                    .map(|(_, tgt)| tgt.index() as u32);
                if let Some(target) = target {
                    let mut stack = s.stack.clone();
                    stack.pop();
                    let st = ThreadState {
                        proc: caller,
                        loc: target,
                        stack,
                    };
                    out.push((
                        Action {
                            thread: t,
                            proc: caller,
                            edge: call,
                            kind: ActionKind::Return,
                        },
                        with(c, st),
                    ));
                }
            }
            return;
        }
        let mut edges: Vec<_> = cfg
            .graph
            .edges(NodeIndex::new(s.loc as usize))
            .map(|e| {
                (
                    e.id().index() as u32,
                    e.target().index() as u32,
                    &e.weight().stmt,
                )
            })
            .collect();
        edges.sort_by_key(|(id, _, _)| *id);
        for (id, target, stmt) in edges {
            let act = |kind| Action {
                thread: t,
                proc: s.proc,
                edge: id,
                kind,
            };
            let moved = ThreadState {
                proc: s.proc,
                loc: target,
                stack: s.stack.clone(),
            };
            match stmt {
                Stmt::Call { callee, .. } if self.cfg(*callee).is_some() => {
                    let Some(callee_cfg) = self.cfg(*callee) else {
                        continue;
                    };
                    if s.stack.len() >= self.config.max_call_depth {
                        continue; // cut off: see `call_cut`
                    }
                    let mut stack = s.stack.clone();
                    stack.push((s.proc, id));
                    let st = ThreadState {
                        proc: *callee,
                        loc: callee_cfg.entry.index() as u32,
                        stack,
                    };
                    out.push((act(ActionKind::Call), with(c, st)));
                }
                Stmt::Fork { callee, .. } => {
                    let Some(callee_cfg) = self.cfg(*callee) else {
                        continue;
                    };
                    let free: Vec<u32> = (1..=self.config.instances)
                        .filter(|k| {
                            !c.threads.contains_key(&ThreadId {
                                template: *callee,
                                instance: *k,
                            })
                        })
                        .collect();
                    if free.is_empty() {
                        let n = Configuration {
                            insufficient: true,
                            ..c.clone()
                        };
                        let none = ThreadId {
                            template: *callee,
                            instance: 0,
                        };
                        out.push((act(ActionKind::Fork(none)), n));
                    }
                    for k in free {
                        let u = ThreadId {
                            template: *callee,
                            instance: k,
                        };
                        let mut n = with(c, moved.clone());
                        n.threads.insert(
                            u,
                            ThreadState {
                                proc: *callee,
                                loc: callee_cfg.entry.index() as u32,
                                stack: Vec::new(),
                            },
                        );
                        out.push((act(ActionKind::Fork(u)), n));
                    }
                }
                Stmt::Join { .. } => {
                    for (u, us) in &c.threads {
                        if *u != t && u.instance > 0 && self.at_own_exit(*u, us) {
                            let mut n = with(c, moved.clone());
                            n.threads.remove(u);
                            out.push((act(ActionKind::Join(*u)), n));
                        }
                    }
                }
                Stmt::AtomicBegin => {
                    let mut n = with(c, moved);
                    n.atomic = Some(t);
                    out.push((act(ActionKind::AtomicBegin), n));
                }
                Stmt::AtomicEnd => {
                    let mut n = with(c, moved);
                    n.atomic = None;
                    out.push((act(ActionKind::AtomicEnd), n));
                }
                _ => out.push((act(ActionKind::Internal), with(c, moved))),
            }
        }
    }

    /// Does some thread of `c` stand at a call it cannot take because its stack is full?
    pub fn call_cut(&self, c: &Configuration) -> bool {
        c.threads.values().any(|s| {
            s.stack.len() >= self.config.max_call_depth
                && self.cfg(s.proc).is_some_and(|cfg| {
                    cfg.graph
                        .edges(NodeIndex::new(s.loc as usize))
                        .any(|e| matches!(&e.weight().stmt, Stmt::Call { callee, .. } if self.cfg(*callee).is_some()))
                })
        })
    }

    /// The procedures some `fork` starts (those with instances `1..=k`).
    pub fn forked(&self) -> BTreeSet<ProcId> {
        let mut out = BTreeSet::new();
        for p in &self.program.procedures {
            if let Some(cfg) = &p.body {
                for e in cfg.graph.edge_weights() {
                    if let Stmt::Fork { callee, .. } = &e.stmt {
                        out.insert(*callee);
                    }
                }
            }
        }
        out
    }
}

impl Automaton for ProgramModel<'_> {
    type State = Configuration;
    type Letter = Action;

    fn initial_states(&self) -> Vec<Configuration> {
        let Some(cfg) = self.cfg(self.entry) else {
            return Vec::new();
        };
        let mut c = Configuration::default();
        c.threads.insert(
            ThreadId {
                template: self.entry,
                instance: 0,
            },
            ThreadState {
                proc: self.entry,
                loc: cfg.entry.index() as u32,
                stack: Vec::new(),
            },
        );
        vec![c]
    }

    fn is_accepting(&self, c: &Configuration) -> bool {
        c.insufficient
            || c.threads
                .values()
                .any(|s| matches!(self.kind(s.proc, s.loc), Some(LocKind::Error(_))))
    }

    fn successors(&self, c: &Configuration) -> Vec<(Action, Configuration)> {
        let mut out = Vec::new();
        if c.insufficient {
            return out;
        }
        for (t, s) in &c.threads {
            if c.atomic.is_some_and(|o| o != *t) {
                continue;
            }
            if self.at_own_exit(*t, s) {
                continue; // finished: waits to be joined (or the program ends)
            }
            self.thread_successors(c, *t, s, &mut out);
        }
        out
    }
}
