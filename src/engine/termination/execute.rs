//! Explicit-state execution: decides termination, and safety, of programs whose control flow does
//! not depend on unconstrained values, by running them.
//!
//! # The abstract execution
//!
//! The executor runs the lowered IR step by step (one CFG edge, or one procedure return, per step) on
//! an *abstract state*: a call stack of frames (procedure, location, parameter/return/local values, the
//! globals at the procedure's entry for `old`, the call edge being executed) and the global values. A
//! value is concrete (`int` as a machine word or a `BigInt`, `real`, `bool`, maps as finitely many
//! cells plus a default) or
//! ⊤ (`Value::Unknown`): any value. Unconstrained values are ⊤: uninitialised globals, locals and map
//! cells, procedure parameters of the entry, constants, `havoc`, results and modified globals of
//! procedures without a body, applications of functions without a body — except an
//! `{:overapproximation}` function, which stands for an operation of the program rather than any
//! function: it has that operation's value where it names one (`{:concrete}`) and stops the
//! execution (UNKNOWN) otherwise. Expression evaluation is a sound over-approximation
//! (`value.rs`): a concrete result holds for every concretisation.
//!
//! At a location, every outgoing edge's guard (the condition of an `assume`, `true` otherwise) is
//! evaluated to true, false or ⊤. Edges into error locations (failing assertions) are handled apart:
//! one that is definitely disabled is ignored; one that may be enabled is recorded (below); one that is
//! definitely enabled stops the analysis (the semantics of an execution that fails an assertion —
//! ending there, as in Ultimate's CFG, or continuing, if assertions are ignored — is left open, and the
//! two differ there). The executor follows the first edge (in edge order) whose guard is true, else the
//! first whose guard is ⊤; the choice is a function of the abstract state. Two facts are tracked:
//!
//! * **covering** — so far, at every step at most one non-error edge was possibly enabled. Then every
//!   concrete execution either follows the abstract path step for step, or stops at a step whose
//!   guard was ⊤ and is false for it, or ends in an error location (finite either way; if assertions
//!   are ignored instead, it follows the path, as the `assume e` after `assert e` is then skipped and
//!   changes no state).
//! * **realisable** — so far, every guard taken was definitely true, every error edge definitely
//!   disabled, the axioms and the entry's `requires` evaluated to true and no implicit constraint on
//!   the initial state could be unsatisfiable (`unique` constants of a finite type, recursive function
//!   definitions, `{:smtdefined}` functions). Then the abstract path is realised by a concrete
//!   execution: start in any concretisation of the initial abstract state (it satisfies the axioms and
//!   requires), and at each step the chosen edge is enabled and its effect maps a concretisation of
//!   the abstract state to a concretisation of the next (havoc may pick any value; ⊤ covers it).
//!
//! If both facts fail, the analysis stops (UNKNOWN, "depends on unconstrained values").
//!
//! # Verdicts
//!
//! * **TERMINATING**: the abstract path ends — the entry procedure returns or no edge is possibly
//!   enabled (an `assume` blocks) — after N steps while *covering* holds. Every concrete execution then
//!   follows a prefix of this path: all executions are finite (at most N steps). In library mode
//!   (no `ULTIMATE.start`) this must hold for every entry procedure.
//! * **NONTERMINATING**: the abstract state after step j is structurally equal to the one after step
//!   i < j, and *realisable* holds. The next-state function depends only on the abstract state (⊤ has
//!   no identity; edge choice is by edge order), so the abstract path is infinite: i steps of stem,
//!   then the loop i..j forever; by *realisable* a concrete execution follows it. States are compared
//!   with full structural equality (Brent's cycle detection keeps one saved state) — never by a hash.
//! * Everything else is UNKNOWN with a reason: control flow depending on ⊤, unsupported constructs
//!   (bit-vectors, floats, quantifiers, records, builtin functions, threads), limits (steps, call depth,
//!   map cells, integer size), the deadline.
//!
//! # Safety (`Goal::Safety`, [`check_safety`])
//!
//! The same execution decides SAFE / UNSAFE for a program without threads:
//! * **UNSAFE**: an edge into an error location is definitely enabled while *realisable* holds: a
//!   concrete execution fails that specification (the execution, on concrete values wherever a
//!   guard or the failing condition depends on them, is its own re-validation). The execution is
//!   replayed to record the first and last [`TRACE_ENDS`] steps of its trace.
//! * **SAFE**: the abstract path ends, blocks or repeats a state while *covering* holds and no edge
//!   into an error location was ever possibly enabled: every execution follows a prefix of the
//!   path (or the path itself, forever), and no specification fails on it. A repetition may ignore
//!   the values of variables that no guard, specification or other value depends on (the caller's
//!   `unobserved`, from the cone-of-influence slice; [`Machine::observe_only`]).
//! * An error edge possibly but not definitely enabled stops the analysis (UNKNOWN), as does a
//!   definitely enabled one on a path that may not be realisable. When the path so far covers
//!   every execution, the UNKNOWN says so (`retrace`): a witness execution (below) follows the
//!   same path and decides the specification there.
//! * **Probes**: at a nondeterministic choice (several edges definitely enabled) on a realisable
//!   path, each edge the executor does not choose is followed, with the executor's choices after
//!   it, for at most [`PROBE_STEPS`] steps; one that fails a specification on a realisable path
//!   is UNSAFE as above (the path with one deviation is as realisable as the chosen one; the
//!   replay takes the same deviation). `while (*) { … } assert e;` thus fails after the first
//!   iteration count that fails `e`, which the executor, staying in the loop, never reaches.
//!
//! The *witness* mode (`Mode::Witness(k)`) is a further attempt for NONTERMINATING and UNSAFE only:
//! unconstrained inputs and havocs get fixed values (k for numbers, false, constant maps of those)
//! instead of ⊤, which picks one particular execution; *covering* is false from the start (the
//! verdict can never be TERMINATING or SAFE), and *realisable* is checked as above with the chosen
//! values. For safety, the one path is followed until its time is up while it is deterministic, and
//! at most 100,000 steps past its first nondeterministic choice.

use super::value::{Index, Int, MapValue, Tri, Value, equal};
use crate::diag::Span;
use crate::engine::{Config, Step};
use crate::ir::{
    BinOp, Entry, ErrorId, Expr, FuncId, LocKind, ProcId, Program, Quantifier, Stmt, Type, UnOp,
    VarId, VarKind,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use petgraph::Direction;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// Function applications allowed per step.
const FUEL: u64 = 1_000_000;

/// Limits of one execution.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_steps: u64,
    pub max_depth: usize,
    pub max_cells: usize,
    pub max_int_bits: u64,
    /// Numerator and denominator bits of a real together (rational arithmetic slows down with
    /// them: a loop that halves a real every step took 2.5 s to reach 8192 bits).
    pub max_real_bits: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 500_000_000,
            max_depth: 10_000,
            max_cells: 1_000_000,
            max_int_bits: 1 << 13,
            max_real_bits: 1 << 11,
        }
    }
}

/// How unconstrained values are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// As ⊤: the path covers every execution.
    Symbolic,
    /// As fixed values (this integer for `int` and `real`, `false`, constant maps of those): one
    /// particular execution (NONTERMINATING only).
    Witness(i64),
}

/// The result of executing from one entry procedure.
#[derive(Clone, Debug)]
pub enum ExecResult {
    /// Every execution follows one path of `steps` steps.
    Terminating { steps: u64, blocked: bool },
    /// A reachable abstract state repeats.
    Nonterminating(Lasso),
    /// No verdict; `dependent` says whether the cause was a dependence on unconstrained values (so
    /// that another mode may help); `retrace` (safety) that the execution stopped at a
    /// specification that may fail depending on them, on a path every execution follows: a
    /// witness execution retraces the path step for step and decides the specification there.
    Unknown {
        reason: String,
        dependent: bool,
        retrace: bool,
    },
    /// ([`Goal::Safety`] only) Every execution follows one path on which no specification can fail:
    /// it ends after `steps` steps, or (`repeats`) its abstract state repeats after them.
    Safe { steps: u64, repeats: bool },
    /// ([`Goal::Safety`] only) A concrete execution fails a specification.
    Violated(Violation),
}

/// What the executor decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// TERMINATING / NONTERMINATING; a failing specification stops the analysis.
    Termination,
    /// SAFE / UNSAFE (see the module comment).
    Safety,
}

/// A specification that fails on an executed path that a concrete execution realises.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The entry procedure the execution starts in.
    pub entry: ProcId,
    pub error: ErrorId,
    /// Steps before the failing one.
    pub steps: u64,
    /// The recorded steps, ending with the failing one; when the path is long, only its first
    /// and last [`TRACE_ENDS`] steps: `omitted = Some((i, n))` says that `n` steps were left out
    /// after the first `i` recorded ones.
    pub trace: Vec<Step>,
    pub omitted: Option<(usize, u64)>,
    /// The path left the executor's choice once (see [`PROBE_STEPS`]): at this step it took this
    /// edge instead (the replay takes it too).
    deviation: Option<(u64, EdgeIndex)>,
}

/// A violation's trace shows at most this many steps at each end of a longer path.
pub const TRACE_ENDS: u64 = 40;

/// (Safety.) Once the path stops covering every execution, it is followed at most this many
/// steps further: only a violation can then be found, on one path of many (`while (*)`).
const SAFETY_UNCOVERED_STEPS: u64 = 100_000;

/// (Safety.) At a nondeterministic choice — several edges definitely enabled, on a path some
/// concrete execution realises — each edge the executor does not choose is *probed*: followed,
/// with the executor's choices from then on, for at most this many steps. A probe that fails a
/// specification (realisable throughout) is a violation: the path with that one deviation is
/// realised by a concrete execution as much as the chosen one (`while (*) { … } assert e;` fails
/// `e` after the iteration where it first fails, which the executor, always staying in the loop,
/// never reaches). A probe that does not fail one changes nothing: the state is restored.
const PROBE_STEPS: u64 = 2_000;
/// The steps all probes of one execution may take together; a probe is also charged a step per
/// this many values and map cells of the state (saving the state copies its values, a write
/// copies a map the saved state shares).
const PROBE_BUDGET: u64 = 100_000;
const PROBE_CELLS_PER_STEP: u64 = 32;

/// A lasso: `stem` steps, then `loop_len` steps returning to the same state at `span`.
#[derive(Clone, Debug)]
pub struct Lasso {
    pub entry: String,
    pub stem: u64,
    pub loop_len: u64,
    pub procedure: String,
    pub span: Option<Span>,
    /// The loop's steps (statement and written values), when it is short.
    pub steps: Vec<Step>,
}

/// Why execution stopped early.
#[derive(Debug)]
enum Stop {
    /// Covering and realisable both failed.
    Dependent(String),
    /// (Safety.) A specification may fail depending on unconstrained values, on a path every
    /// execution follows (covering holds).
    Undecided(String),
    /// Unsupported construct, limit, deadline: no other mode helps.
    Other(String),
}

type R<T> = Result<T, Stop>;

fn unsupported<T>(what: impl std::fmt::Display) -> R<T> {
    Err(Stop::Other(format!("unsupported by the executor: {what}")))
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Global(usize),
    Local(usize),
    Const(usize),
    Bound,
}

/// A call-stack frame.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Frame {
    proc: ProcId,
    loc: NodeIndex,
    vars: Vec<Value>,
    /// Globals at the procedure's entry (`old`).
    old: Vec<Value>,
    /// The call edge this frame is executing (its callee is the frame above).
    call: Option<EdgeIndex>,
}

/// The full abstract state compared by cycle detection.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    globals: Vec<Value>,
    frames: Vec<Frame>,
}

impl State {
    /// Every value of the state.
    fn values(&self) -> impl Iterator<Item = &Value> {
        self.globals
            .iter()
            .chain(self.frames.iter().flat_map(|f| f.vars.iter().chain(&f.old)))
    }

    /// The map cells of every value.
    fn cells(&self) -> usize {
        self.values().map(Value::cells).sum()
    }
}

enum StepEnd {
    Continue,
    Returned,
    Blocked,
    /// An edge into this error location is definitely enabled, on a realisable path (safety).
    Violated(ErrorId),
    /// A probe of another edge at this step failed a specification after `steps` more steps
    /// (safety; the machine is in the probe's state).
    Deviated {
        error: ErrorId,
        edge: EdgeIndex,
        steps: u64,
    },
}

struct Machine<'p> {
    prog: &'p Program,
    config: &'p Config,
    limits: Limits,
    mode: Mode,
    slots: Vec<Slot>,
    /// Number of local slots per procedure.
    frame_size: Vec<usize>,
    consts: Vec<Value>,
    state: State,
    /// `Some(why)` once covering has failed.
    not_covering: Option<String>,
    /// `Some(why)` once realisable has failed.
    not_realisable: Option<String>,
    /// Some step had more than one possibly enabled edge (the path is one of several).
    branched: bool,
    /// When `Some`, executed steps are recorded here (lasso rendering).
    record: Option<Vec<Step>>,
    goal: Goal,
    /// (Safety, replaying a violation.) Record only the steps numbered below the first and from
    /// the second bound on; the steps recorded before the gap.
    window: Option<(u64, u64)>,
    before_gap: Option<usize>,
    /// Function applications left for the current step (bounds evaluation time).
    fuel: Cell<u64>,
    /// The number of the step being taken (set by [`Machine::execute`]).
    now: u64,
    /// (Safety.) Steps left for probes ([`PROBE_BUDGET`]); whether a probe is running (probes do
    /// not nest).
    probe_budget: u64,
    probing: bool,
    /// (Replaying a violation found by a probe.) The step and the edge it takes instead of the
    /// executor's choice.
    deviation: Option<(u64, EdgeIndex)>,
    /// (Safety.) The values cycle detection compares, when not all ([`Machine::observe_only`]).
    observed: Option<Observed>,
}

/// Which values of a state cycle detection compares: per global (also in `old`), and per local
/// slot of each procedure.
struct Observed {
    globals: Vec<bool>,
    locals: Vec<Vec<bool>>,
}

/// Executes from every entry of `prog` and combines the results: NONTERMINATING if some entry has a
/// nonterminating execution, TERMINATING if all entries terminate.
pub fn run(prog: &Program, config: &Config, limits: &Limits, mode: Mode) -> ExecResult {
    run_for(
        prog,
        config,
        limits,
        mode,
        Goal::Termination,
        &BTreeSet::new(),
    )
}

/// Safety by execution (symbolic mode; see the module comment): SAFE if every entry's path
/// fails no specification, UNSAFE with the first entry whose execution fails one, replayed to
/// record the ends of its trace (within `replay`'s deadline). States that differ only in the
/// variables `unobserved` count as equal (a repetition); no specification and no control flow may
/// depend on them ([`crate::engine::slice`]'s irrelevant variables).
pub fn check_safety(
    prog: &Program,
    config: &Config,
    replay: &Config,
    limits: &Limits,
    mode: Mode,
    unobserved: &BTreeSet<VarId>,
) -> ExecResult {
    match run_for(prog, config, limits, mode, Goal::Safety, unobserved) {
        ExecResult::Violated(v) => {
            // The next-state function is deterministic: the replay takes the same path.
            let from = v.steps.saturating_sub(TRACE_ENDS);
            let window = (TRACE_ENDS, from.max(TRACE_ENDS));
            let machine = Machine::new(prog, replay, limits.clone(), mode, v.entry, Goal::Safety);
            let replay = machine.ok().and_then(|mut m| {
                m.window = Some(window);
                m.deviation = v.deviation;
                match m.execute() {
                    Ok(ExecResult::Violated(w)) if w.steps == v.steps && w.error == v.error => {
                        Some(w)
                    }
                    _ => None,
                }
            });
            match replay {
                Some(w) => ExecResult::Violated(w),
                None => ExecResult::Unknown {
                    reason: format!(
                        "an execution fails a specification after {} steps, but its replay did not (in time)",
                        v.steps
                    ),
                    dependent: false,
                    retrace: false,
                },
            }
        }
        other => other,
    }
}

fn run_for(
    prog: &Program,
    config: &Config,
    limits: &Limits,
    mode: Mode,
    goal: Goal,
    unobserved: &BTreeSet<VarId>,
) -> ExecResult {
    let entries = match &prog.entry {
        Entry::Procedure(p) => vec![*p],
        Entry::Library(ps) => ps.clone(),
    };
    let mut max_steps = 0;
    let mut any_blocked = false;
    let mut any_repeats = false;
    let mut unknown: Option<(String, bool, bool)> = None;
    for &p in &entries {
        if prog.proc(p).body.is_none() {
            continue;
        }
        match run_entry(prog, config, limits, mode, p, goal, unobserved) {
            ExecResult::Terminating { steps, blocked } => {
                max_steps = max_steps.max(steps);
                any_blocked |= blocked;
            }
            ExecResult::Safe { steps, repeats } => {
                max_steps = max_steps.max(steps);
                any_repeats |= repeats;
            }
            ExecResult::Violated(v) => return ExecResult::Violated(v),
            ExecResult::Nonterminating(l) => return ExecResult::Nonterminating(l),
            ExecResult::Unknown {
                reason,
                dependent,
                retrace,
            } => {
                let reason = if entries.len() > 1 {
                    format!("{reason}, from entry procedure {}", prog.proc(p).name)
                } else {
                    reason
                };
                if unknown.is_none() {
                    unknown = Some((reason, dependent, retrace));
                }
                if config.timed_out() {
                    break;
                }
            }
        }
    }
    match unknown {
        Some((reason, dependent, retrace)) => ExecResult::Unknown {
            reason,
            dependent,
            retrace,
        },
        None if goal == Goal::Safety => ExecResult::Safe {
            steps: max_steps,
            repeats: any_repeats,
        },
        None => ExecResult::Terminating {
            steps: max_steps,
            blocked: any_blocked,
        },
    }
}

fn run_entry(
    prog: &Program,
    config: &Config,
    limits: &Limits,
    mode: Mode,
    p: ProcId,
    goal: Goal,
    unobserved: &BTreeSet<VarId>,
) -> ExecResult {
    let mut m = match Machine::new(prog, config, limits.clone(), mode, p, goal) {
        Ok(m) => m,
        Err(stop) => return unknown_of(stop),
    };
    m.observe_only(unobserved);
    match m.execute() {
        Ok(r) => r,
        Err(stop) => unknown_of(stop),
    }
}

fn unknown_of(stop: Stop) -> ExecResult {
    match stop {
        Stop::Dependent(reason) => ExecResult::Unknown {
            reason,
            dependent: true,
            retrace: false,
        },
        Stop::Undecided(reason) => ExecResult::Unknown {
            reason,
            dependent: true,
            retrace: true,
        },
        Stop::Other(reason) => ExecResult::Unknown {
            reason,
            dependent: false,
            retrace: false,
        },
    }
}

/// Whether a type is interpreted by the executor.
fn check_type(t: &Type) -> Result<(), String> {
    match t {
        Type::Bool | Type::Int | Type::Real | Type::Ctor(..) => Ok(()),
        Type::Map {
            type_params,
            args,
            result,
        } => {
            if !type_params.is_empty() {
                return Err(format!("polymorphic map type {t}"));
            }
            args.iter().try_for_each(check_type)?;
            check_type(result)
        }
        Type::BitVec(_) | Type::Builtin(_) | Type::Param(_) | Type::Record(_) => {
            Err(format!("type {t}"))
        }
    }
}

impl<'p> Machine<'p> {
    fn new(
        prog: &'p Program,
        config: &'p Config,
        limits: Limits,
        mode: Mode,
        entry: ProcId,
        goal: Goal,
    ) -> R<Machine<'p>> {
        let mut slots = vec![Slot::Bound; prog.vars.len()];
        for (i, g) in prog.globals.iter().enumerate() {
            slots[g.0 as usize] = Slot::Global(i);
        }
        for (i, c) in prog.consts.iter().enumerate() {
            slots[c.0 as usize] = Slot::Const(i);
        }
        let mut frame_size = Vec::with_capacity(prog.procedures.len());
        for proc in &prog.procedures {
            let mut n = 0;
            for v in proc.params.iter().chain(&proc.returns).chain(&proc.locals) {
                slots[v.0 as usize] = Slot::Local(n);
                n += 1;
            }
            frame_size.push(n);
        }
        for (i, v) in prog.vars.iter().enumerate() {
            if !matches!(v.kind, VarKind::Bound) {
                if let Err(what) = check_type(&v.ty) {
                    let _ = i;
                    return unsupported(format!("{what} (variable {})", v.name));
                }
            }
        }
        let mut m = Machine {
            prog,
            config,
            limits,
            mode,
            slots,
            frame_size,
            consts: Vec::new(),
            state: State {
                globals: Vec::new(),
                frames: Vec::new(),
            },
            not_covering: None,
            not_realisable: None,
            branched: false,
            record: None,
            goal,
            window: None,
            before_gap: None,
            fuel: Cell::new(FUEL),
            now: 0,
            probe_budget: if goal == Goal::Safety {
                PROBE_BUDGET
            } else {
                0
            },
            probing: false,
            deviation: None,
            observed: None,
        };
        if matches!(mode, Mode::Witness(_)) {
            m.not_covering = Some("inputs were fixed to find a witness".into());
        }
        m.consts = prog
            .consts
            .iter()
            .map(|c| match prog.var(*c).kind {
                // Distinct values would be needed; ⊤ is always sound.
                VarKind::Const { unique: true } => Value::Unknown,
                _ => m.input(&prog.var(*c).ty),
            })
            .collect();
        m.state.globals = prog
            .globals
            .iter()
            .map(|g| m.input(&prog.var(*g).ty))
            .collect();
        if let Some(why) = implicit_constraints(prog) {
            m.not_realisable = Some(why);
        }
        let body = prog
            .proc(entry)
            .body
            .as_ref()
            .ok_or_else(|| Stop::Other("entry procedure has no body".into()))?;
        let mut vars = Vec::with_capacity(m.frame_size[entry.0 as usize]);
        let proc = prog.proc(entry);
        for v in proc.params.iter().chain(&proc.returns).chain(&proc.locals) {
            vars.push(m.input(&prog.var(*v).ty));
        }
        m.state.frames.push(Frame {
            proc: entry,
            loc: body.entry,
            vars,
            old: m.state.globals.clone(),
            call: None,
        });
        Ok(m)
    }

    /// The value of an unconstrained input of type `ty`.
    fn input(&self, ty: &Type) -> Value {
        match self.mode {
            Mode::Symbolic => Value::Unknown,
            Mode::Witness(k) => default_value(ty, k),
        }
    }

    fn proc_name(&self) -> &str {
        self.state
            .frames
            .last()
            .map_or("?", |f| self.prog.proc(f.proc).name.as_str())
    }

    fn lose_covering(&mut self, why: impl FnOnce() -> String) -> R<()> {
        if self.not_covering.is_none() {
            self.not_covering = Some(why());
        }
        self.check_alive()
    }

    fn lose_realisable(&mut self, why: impl FnOnce() -> String) -> R<()> {
        if self.not_realisable.is_none() {
            self.not_realisable = Some(why());
        }
        self.check_alive()
    }

    fn check_alive(&self) -> R<()> {
        match (&self.not_covering, &self.not_realisable) {
            (Some(c), Some(r)) => Err(Stop::Dependent(if matches!(self.mode, Mode::Witness(_)) {
                format!("witness attempt failed: {r}")
            } else if c == r || c.contains("unconstrained") {
                c.clone()
            } else {
                format!("{c}; {r}")
            })),
            _ => Ok(()),
        }
    }

    /// Assumes `cond` at the start or on entry to a procedure (axioms, requires).
    fn assume_initial(&mut self, tri: R<Tri>, what: &str) -> R<bool> {
        match tri {
            Ok(Some(true)) => Ok(true),
            Ok(Some(false)) => Ok(false),
            Ok(None) => {
                let name = self.proc_name().to_string();
                self.lose_realisable(|| {
                    format!("{what} depends on unconstrained values (in procedure {name})")
                })?;
                Ok(true)
            }
            Err(Stop::Other(why)) => {
                self.lose_realisable(|| format!("{what} cannot be evaluated: {why}"))?;
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }

    fn execute(&mut self) -> R<ExecResult> {
        let entry_name = self.proc_name().to_string();
        // Axioms constrain the initial state; TERMINATING does not need them.
        for ax in &self.prog.axioms {
            let top = self.state.frames.len() - 1;
            let t = self.eval_bool(ax, top);
            if !self.assume_initial(t, "an axiom")? {
                return self.finish(0, true);
            }
        }
        let entry = self.state.frames[0].proc;
        let proc = self.prog.proc(entry);
        for r in &proc.requires {
            let t = self.eval_bool(&r.expr, 0);
            if !self.assume_initial(t, "a requires clause of the entry procedure")? {
                return self.finish(0, true);
            }
        }
        let mut steps: u64 = 0;
        let mut saved = self.state.clone();
        let mut saved_at: u64 = 0;
        let mut power: u64 = 1;
        let mut lam: u64 = 0;
        let mut gap: Vec<Step> = Vec::new();
        let mut uncovered: u64 = 0;
        loop {
            if let Some((head, from)) = self.window {
                if steps < head || steps >= from {
                    if self.record.is_none() {
                        self.record = Some(std::mem::take(&mut gap));
                    }
                } else if let Some(r) = self.record.take() {
                    self.before_gap = Some(r.len());
                    gap = r;
                }
            }
            self.now = steps;
            let end = self.step()?;
            let mut deviation = None;
            let end = match end {
                StepEnd::Deviated {
                    error,
                    edge,
                    steps: more,
                } => {
                    deviation = Some((steps, edge));
                    steps += more;
                    StepEnd::Violated(error)
                }
                end => end,
            };
            match end {
                StepEnd::Continue => {}
                StepEnd::Returned => return self.finish(steps + 1, false),
                StepEnd::Blocked => return self.finish(steps, true),
                StepEnd::Deviated { .. } => {
                    return Err(Stop::Other("internal: a probe within a probe".into()));
                }
                StepEnd::Violated(error) => {
                    let trace = self.record.take().unwrap_or_default();
                    let omitted = self.before_gap.map(|i| {
                        let shown = trace.len() as u64;
                        (i, (steps + 1).saturating_sub(shown))
                    });
                    return Ok(ExecResult::Violated(Violation {
                        entry,
                        error,
                        steps,
                        trace,
                        omitted,
                        deviation: deviation.or(self.deviation),
                    }));
                }
            }
            steps += 1;
            lam += 1;
            if self.goal == Goal::Safety
                && let Some(why) = &self.not_covering
                && (self.branched || self.mode == Mode::Symbolic)
            {
                // Only a violation can follow, on this one path among others: not for long (a
                // witness attempt's one deterministic path runs until its time is up).
                uncovered += 1;
                if uncovered > SAFETY_UNCOVERED_STEPS {
                    return Err(Stop::Dependent(format!(
                        "{why}; no specification fails within {SAFETY_UNCOVERED_STEPS} further steps of the path followed"
                    )));
                }
            }
            if self.repeats(&saved) {
                return self.found_cycle(entry_name, saved_at, lam);
            }
            if lam == power {
                saved = self.state.clone();
                saved_at = steps;
                power = power.saturating_mul(2);
                lam = 0;
            }
            if steps % 64 == 0 && self.config.timed_out() {
                return Err(Stop::Other(format!(
                    "timeout (no repetition within {steps} steps)"
                )));
            }
            if steps % 1024 == 0 && self.state.cells() > self.limits.max_cells {
                return Err(Stop::Other(format!(
                    "more than {} map cells after {steps} steps",
                    self.limits.max_cells
                )));
            }
            if steps >= self.limits.max_steps {
                return Err(Stop::Other(format!("no repetition within {steps} steps")));
            }
        }
    }

    /// Cycle detection ignores the values of `unobserved`. Sound for safety when no guard, no
    /// specification and no value of another variable depends on them (a cone-of-influence
    /// slice): the observed values then determine every later step's edge and every later
    /// observed value, so a state whose observed values repeat repeats its path forever, and no
    /// specification fails on it later than on the steps taken (concretisations are per value: an
    /// observed ⊤ at both points covers the same concrete values).
    fn observe_only(&mut self, unobserved: &BTreeSet<VarId>) {
        if unobserved.is_empty() {
            return;
        }
        let observed = |v: &VarId| !unobserved.contains(v);
        self.observed = Some(Observed {
            globals: self.prog.globals.iter().map(observed).collect(),
            locals: self
                .prog
                .procedures
                .iter()
                .map(|p| {
                    p.params
                        .iter()
                        .chain(&p.returns)
                        .chain(&p.locals)
                        .map(observed)
                        .collect()
                })
                .collect(),
        });
    }

    /// Whether the current state equals `saved` in every observed value (and location, call
    /// stack).
    fn repeats(&self, saved: &State) -> bool {
        let Some(obs) = &self.observed else {
            return self.state == *saved;
        };
        let same = |mask: &[bool], a: &[Value], b: &[Value]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .zip(mask.iter().chain(std::iter::repeat(&true)))
                    .all(|((x, y), &o)| !o || x == y)
        };
        let (now, then) = (&self.state, saved);
        same(&obs.globals, &now.globals, &then.globals)
            && now.frames.len() == then.frames.len()
            && now.frames.iter().zip(&then.frames).all(|(f, g)| {
                f.proc == g.proc
                    && f.loc == g.loc
                    && f.call == g.call
                    && same(&obs.locals[f.proc.0 as usize], &f.vars, &g.vars)
                    && same(&obs.globals, &f.old, &g.old)
            })
    }

    fn finish(&self, steps: u64, blocked: bool) -> R<ExecResult> {
        match &self.not_covering {
            None if self.goal == Goal::Safety => Ok(ExecResult::Safe {
                steps,
                repeats: false,
            }),
            None => Ok(ExecResult::Terminating { steps, blocked }),
            Some(why) => Err(Stop::Dependent(format!(
                "an execution ends after {steps} steps, but others may differ: {why}"
            ))),
        }
    }

    fn found_cycle(&mut self, entry: String, stem: u64, loop_len: u64) -> R<ExecResult> {
        if self.goal == Goal::Safety {
            // Every execution follows the path, and the path repeats: no specification can fail
            // on it later than on the steps already taken.
            return match &self.not_covering {
                None => Ok(ExecResult::Safe {
                    steps: stem + loop_len,
                    repeats: true,
                }),
                Some(why) => Err(Stop::Dependent(format!(
                    "the abstract state repeats after {loop_len} steps, but other executions may differ: {why}"
                ))),
            };
        }
        if let Some(why) = &self.not_realisable {
            return Err(Stop::Dependent(format!(
                "the abstract state repeats after {loop_len} steps, but the path may not be realisable: {why}"
            )));
        }
        let (procedure, span) = {
            let f = self.state.frames.last();
            match f {
                Some(f) => {
                    let p = self.prog.proc(f.proc);
                    let span = p
                        .body
                        .as_ref()
                        .and_then(|b| b.graph[f.loc].span)
                        .or(Some(p.span));
                    (p.name.clone(), span)
                }
                None => ("?".into(), None),
            }
        };
        // Replay the loop once to show it (the next-state function is deterministic).
        let mut steps = Vec::new();
        if loop_len <= 64 {
            self.record = Some(Vec::new());
            for _ in 0..loop_len {
                if !matches!(self.step(), Ok(StepEnd::Continue)) {
                    break;
                }
            }
            steps = self.record.take().unwrap_or_default();
        }
        Ok(ExecResult::Nonterminating(Lasso {
            entry,
            stem,
            loop_len,
            procedure,
            span,
            steps,
        }))
    }

    /// One step: take an edge, or return from the top frame.
    fn step(&mut self) -> R<StepEnd> {
        self.fuel.set(FUEL);
        let Some(top) = self.state.frames.len().checked_sub(1) else {
            return Ok(StepEnd::Returned);
        };
        let prog = self.prog;
        let (proc_id, loc) = (self.state.frames[top].proc, self.state.frames[top].loc);
        let proc = prog.proc(proc_id);
        let Some(cfg) = proc.body.as_ref() else {
            return Err(Stop::Other("internal: frame without body".into()));
        };
        if loc == cfg.exit {
            return self.do_return();
        }
        let mut edges: Vec<_> = cfg
            .graph
            .edges_directed(loc, Direction::Outgoing)
            .map(|e| (e.id(), e.target()))
            .collect();
        edges.sort_by_key(|(id, _)| id.index());
        let mut first_true = None;
        let mut first_unknown = None;
        let mut possible = 0;
        let mut enabled: Vec<EdgeIndex> = Vec::new();
        for &(id, target) in &edges {
            let stmt = &cfg.graph[id].stmt;
            let guard = match stmt {
                Stmt::Assume(e) => self.eval_bool(e, top)?,
                _ => Some(true),
            };
            if let LocKind::Error(err) = cfg.graph[target].kind {
                match guard {
                    Some(false) => {}
                    Some(true) if self.goal == Goal::Safety => {
                        if let Some(why) = &self.not_realisable {
                            return Err(Stop::Dependent(format!(
                                "a specification fails on the executed path, which no execution may realise: {why}"
                            )));
                        }
                        if self.record.is_some() {
                            let mut reads: Vec<(String, String)> = Vec::new();
                            if let Stmt::Assume(e) = stmt {
                                let mut vars: Vec<VarId> = Vec::new();
                                e.visit(&mut |x| {
                                    if let Expr::Var(v) = x
                                        && !vars.contains(v)
                                    {
                                        vars.push(*v);
                                    }
                                });
                                for v in vars {
                                    if !matches!(self.slots[v.0 as usize], Slot::Bound) {
                                        let value = self.read(top, v).show();
                                        reads.push((prog.var(v).name.clone(), value));
                                    }
                                }
                            }
                            let rec = self.record.get_or_insert_with(Vec::new);
                            rec.push(Step {
                                thread: None,
                                span: cfg.graph[id].span,
                                statement: prog.show_stmt(stmt).to_string(),
                                reads,
                                writes: Vec::new(),
                            });
                        }
                        return Ok(StepEnd::Violated(err));
                    }
                    Some(true) => {
                        return Err(Stop::Other(format!(
                            "a specification fails on the executed path ({}, in procedure {}); termination of executions that fail one is not decided",
                            prog.error(err).kind.description(),
                            proc.name
                        )));
                    }
                    None if self.goal == Goal::Safety => {
                        // Neither answer can follow: the path may fail it, and may not.
                        let why = format!(
                            "a specification may fail depending on unconstrained values (in procedure {})",
                            proc.name
                        );
                        return Err(if self.not_covering.is_none() {
                            Stop::Undecided(why)
                        } else {
                            Stop::Dependent(why)
                        });
                    }
                    None => {
                        let name = proc.name.clone();
                        self.lose_realisable(|| {
                            format!(
                                "a specification may fail depending on unconstrained values (in procedure {name})"
                            )
                        })?;
                    }
                }
                continue;
            }
            match guard {
                Some(false) => {}
                Some(true) => {
                    possible += 1;
                    first_true.get_or_insert(id);
                    enabled.push(id);
                }
                None => {
                    possible += 1;
                    first_unknown.get_or_insert(id);
                }
            }
        }
        if possible > 1 {
            self.branched = true;
            let name = proc.name.clone();
            let why = if first_unknown.is_some() {
                "control flow depends on unconstrained values"
            } else {
                "a nondeterministic choice"
            };
            self.lose_covering(|| format!("{why} (in procedure {name})"))?;
        }
        if let Some((at, edge)) = self.deviation
            && at == self.now
        {
            if !enabled.contains(&edge) {
                return Err(Stop::Other(
                    "internal: the replay cannot take the probed edge".into(),
                ));
            }
            return self.take_edge(top, edge);
        }
        if enabled.len() > 1
            && self.goal == Goal::Safety
            && !self.probing
            && self.window.is_none()
            && self.not_realisable.is_none()
        {
            for &edge in &enabled[1..] {
                if let Some((error, steps)) = self.probe(top, edge) {
                    return Ok(StepEnd::Deviated { error, edge, steps });
                }
            }
        }
        let chosen = match (first_true, first_unknown) {
            (Some(e), _) => e,
            (None, Some(e)) => {
                let name = proc.name.clone();
                self.lose_realisable(|| {
                    format!("an assume depends on unconstrained values (in procedure {name})")
                })?;
                e
            }
            (None, None) => return Ok(StepEnd::Blocked),
        };
        self.take_edge(top, chosen)
    }

    /// Follows `edge` (instead of the executor's choice) and then the executor's choices for at
    /// most [`PROBE_STEPS`] steps (within the budget left): the error and the number of steps
    /// after `edge`'s when a specification fails on a realisable path — the machine is then in
    /// that state — else `None`, with the state before the probe restored.
    fn probe(&mut self, top: usize, edge: EdgeIndex) -> Option<(ErrorId, u64)> {
        // Saving the state copies its values (a deep call stack has many), and a write to a map
        // shared with the saved state copies the map: each probe is charged for the state's
        // values and cells as well as for its steps.
        if self.probe_budget == 0 {
            return None;
        }
        let size = self.state.values().count() + self.state.cells();
        let charge = 1 + size as u64 / PROBE_CELLS_PER_STEP;
        if self.probe_budget < charge {
            self.probe_budget = 0;
            return None;
        }
        self.probe_budget -= charge;
        let state = self.state.clone();
        let flags = (
            self.not_covering.clone(),
            self.not_realisable.clone(),
            self.branched,
        );
        self.probing = true;
        let mut found = None;
        if let Ok(StepEnd::Continue) = self.take_edge(top, edge) {
            let mut n = 0;
            while n < PROBE_STEPS && self.probe_budget > 0 {
                n += 1;
                self.probe_budget -= 1;
                if n % 64 == 0 && self.config.timed_out() {
                    break;
                }
                match self.step() {
                    Ok(StepEnd::Continue) => {}
                    Ok(StepEnd::Violated(error)) => {
                        found = Some((error, n));
                        break;
                    }
                    _ => break,
                }
            }
        }
        self.probing = false;
        if found.is_none() {
            self.state = state;
            (self.not_covering, self.not_realisable, self.branched) = flags;
        }
        found
    }

    fn do_return(&mut self) -> R<StepEnd> {
        let Some(callee) = self.state.frames.pop() else {
            return Ok(StepEnd::Returned);
        };
        let Some(caller) = self.state.frames.last_mut() else {
            return Ok(StepEnd::Returned);
        };
        let Some(edge) = caller.call.take() else {
            return Err(Stop::Other("internal: return without a call".into()));
        };
        let prog = self.prog;
        let cfg = prog
            .proc(caller.proc)
            .body
            .as_ref()
            .ok_or_else(|| Stop::Other("internal: caller without body".into()))?;
        let Stmt::Call { rets, .. } = &cfg.graph[edge].stmt else {
            return Err(Stop::Other("internal: call edge is not a call".into()));
        };
        let callee_proc = prog.proc(callee.proc);
        let mut writes = Vec::new();
        for (r, formal) in rets.iter().zip(&callee_proc.returns) {
            let v = match self.slots[formal.0 as usize] {
                Slot::Local(i) => callee.vars.get(i).cloned().unwrap_or(Value::Unknown),
                _ => Value::Unknown,
            };
            writes.push((*r, v));
        }
        let top = self.state.frames.len() - 1;
        if let Some(rec) = &mut self.record {
            rec.push(Step {
                thread: None,
                span: None,
                statement: format!("return from {}", callee_proc.name),
                reads: Vec::new(),
                writes: writes
                    .iter()
                    .map(|(v, x)| (prog.var(*v).name.clone(), x.show()))
                    .collect(),
            });
        }
        for (r, v) in writes {
            self.write(top, r, v)?;
        }
        Ok(StepEnd::Continue)
    }

    fn take_edge(&mut self, top: usize, edge: EdgeIndex) -> R<StepEnd> {
        let prog = self.prog;
        let proc = prog.proc(self.state.frames[top].proc);
        let Some(cfg) = proc.body.as_ref() else {
            return Err(Stop::Other("internal: frame without body".into()));
        };
        let Some((_, target)) = cfg.graph.edge_endpoints(edge) else {
            return Err(Stop::Other("internal: dangling edge".into()));
        };
        let e = &cfg.graph[edge];
        let mut written: Vec<VarId> = Vec::new();
        match &e.stmt {
            Stmt::Assume(_) | Stmt::AtomicBegin | Stmt::AtomicEnd => {}
            Stmt::Assign(pairs) => {
                enum Pending {
                    Set(VarId, Value),
                    Store(VarId, Option<Index>, Value),
                }
                let mut pending = Vec::with_capacity(pairs.len());
                for (x, rhs) in pairs {
                    match rhs {
                        Expr::Store(base, idx, val) if **base == Expr::Var(*x) => {
                            let keys = self.eval_keys(idx, top)?;
                            let v = self.eval(val, top)?;
                            pending.push(Pending::Store(*x, keys, v));
                        }
                        _ => pending.push(Pending::Set(*x, self.eval(rhs, top)?)),
                    }
                }
                for p in pending {
                    match p {
                        Pending::Set(x, v) => {
                            written.push(x);
                            self.write(top, x, v)?;
                        }
                        Pending::Store(x, keys, v) => {
                            written.push(x);
                            self.store_in_place(top, x, keys, v)?;
                        }
                    }
                }
            }
            Stmt::Havoc(xs) => {
                for x in xs {
                    let v = self.input(&prog.var(*x).ty);
                    written.push(*x);
                    self.write(top, *x, v)?;
                }
            }
            Stmt::Call { callee, args, rets } => {
                let args = args
                    .iter()
                    .map(|a| self.eval(a, top))
                    .collect::<R<Vec<_>>>()?;
                if let Some(rec) = &mut self.record {
                    rec.push(Step {
                        thread: None,
                        span: e.span,
                        statement: prog.show_stmt(&e.stmt).to_string(),
                        reads: Vec::new(),
                        writes: Vec::new(),
                    });
                }
                return self.call(top, edge, target, *callee, args, rets);
            }
            Stmt::Fork { .. } | Stmt::Join { .. } => return unsupported("fork/join"),
            Stmt::Unsupported(what) => return unsupported(what),
        }
        self.state.frames[top].loc = target;
        if self.record.is_some() {
            let writes = written
                .iter()
                .map(|v| (prog.var(*v).name.clone(), self.read(top, *v).show()))
                .collect();
            let rec = self.record.get_or_insert_with(Vec::new);
            rec.push(Step {
                thread: None,
                span: e.span,
                statement: prog.show_stmt(&e.stmt).to_string(),
                reads: Vec::new(),
                writes,
            });
        }
        Ok(StepEnd::Continue)
    }

    fn call(
        &mut self,
        top: usize,
        edge: EdgeIndex,
        target: NodeIndex,
        callee: ProcId,
        args: Vec<Value>,
        rets: &[VarId],
    ) -> R<StepEnd> {
        let prog = self.prog;
        let cp = prog.proc(callee);
        if !cp.type_params.is_empty() {
            return unsupported(format!("polymorphic procedure {}", cp.name));
        }
        let mut vars = Vec::with_capacity(self.frame_size[callee.0 as usize]);
        vars.extend(args);
        for v in cp.returns.iter().chain(&cp.locals) {
            vars.push(self.input(&prog.var(*v).ty));
        }
        let frame = Frame {
            proc: callee,
            loc: cp.body.as_ref().map_or(NodeIndex::new(0), |b| b.entry),
            vars,
            old: self.state.globals.clone(),
            call: None,
        };
        if self.state.frames.len() >= self.limits.max_depth {
            return Err(Stop::Other(format!(
                "call depth exceeds {}",
                self.limits.max_depth
            )));
        }
        self.state.frames[top].loc = target;
        self.state.frames[top].call = Some(edge);
        self.state.frames.push(frame);
        let new_top = top + 1;
        // All requires (free or not) are assumed on entry.
        for r in &cp.requires {
            match self.eval_bool(&r.expr, new_top)? {
                Some(true) => {}
                Some(false) => return Ok(StepEnd::Blocked),
                None => {
                    let name = cp.name.clone();
                    self.lose_realisable(|| {
                        format!("a requires clause of {name} depends on unconstrained values")
                    })?;
                }
            }
        }
        if cp.body.is_some() {
            return Ok(StepEnd::Continue);
        }
        // No body: havoc returns (already inputs) and modified globals, assume the ensures.
        for g in &cp.modifies {
            let v = self.input(&prog.var(*g).ty);
            if let Slot::Global(i) = self.slots[g.0 as usize] {
                self.state.globals[i] = v;
            }
        }
        for en in &cp.ensures {
            match self.eval_bool(&en.expr, new_top)? {
                Some(true) => {}
                Some(false) => return Ok(StepEnd::Blocked),
                None => {
                    let name = cp.name.clone();
                    self.lose_realisable(|| {
                        format!("an ensures clause of {name} depends on unconstrained values")
                    })?;
                }
            }
        }
        let Some(frame) = self.state.frames.pop() else {
            return Err(Stop::Other("internal: lost frame".into()));
        };
        self.state.frames[top].call = None;
        for (r, formal) in rets.iter().zip(&cp.returns) {
            let v = match self.slots[formal.0 as usize] {
                Slot::Local(i) => frame.vars.get(i).cloned().unwrap_or(Value::Unknown),
                _ => Value::Unknown,
            };
            self.write(top, *r, v)?;
        }
        Ok(StepEnd::Continue)
    }

    fn read(&self, frame: usize, v: VarId) -> Value {
        match self.slots[v.0 as usize] {
            Slot::Global(i) => self.state.globals[i].clone(),
            Slot::Local(i) => self.state.frames[frame].vars[i].clone(),
            Slot::Const(i) => self.consts[i].clone(),
            Slot::Bound => Value::Unknown,
        }
    }

    fn write(&mut self, frame: usize, x: VarId, v: Value) -> R<()> {
        match self.slots[x.0 as usize] {
            Slot::Global(i) => self.state.globals[i] = v,
            Slot::Local(i) => self.state.frames[frame].vars[i] = v,
            Slot::Const(_) | Slot::Bound => {
                return Err(Stop::Other("internal: assignment to a constant".into()));
            }
        }
        Ok(())
    }

    fn slot_mut(&mut self, frame: usize, x: VarId) -> R<&mut Value> {
        match self.slots[x.0 as usize] {
            Slot::Global(i) => Ok(&mut self.state.globals[i]),
            Slot::Local(i) => Ok(&mut self.state.frames[frame].vars[i]),
            Slot::Const(_) | Slot::Bound => {
                Err(Stop::Other("internal: assignment to a constant".into()))
            }
        }
    }

    /// `x := x[keys := v]` without copying `x`'s map when it is not shared.
    fn store_in_place(&mut self, frame: usize, x: VarId, keys: Option<Index>, v: Value) -> R<()> {
        let max = self.limits.max_cells;
        let slot = self.slot_mut(frame, x)?;
        let Some(keys) = keys else {
            *slot = Value::Unknown;
            return Ok(());
        };
        match slot {
            Value::Map(m) => {
                let m = Rc::make_mut(m);
                m.set(keys, v);
                if m.entries.len() > max {
                    return Err(Stop::Other(format!("a map has more than {max} cells")));
                }
            }
            Value::Unknown => {
                let mut m = MapValue {
                    default: Value::Unknown,
                    entries: Default::default(),
                };
                m.set(keys, v);
                *slot = Value::Map(Rc::new(m));
            }
            _ => return Err(Stop::Other("internal: store into a non-map".into())),
        }
        Ok(())
    }

    fn eval_keys(&self, idx: &[Expr], frame: usize) -> R<Option<Index>> {
        self.ev_keys(idx, frame, &mut Vec::new(), 0)
    }

    fn eval_bool(&self, e: &Expr, frame: usize) -> R<Tri> {
        as_bool(self.eval(e, frame)?)
    }

    fn eval(&self, e: &Expr, frame: usize) -> R<Value> {
        let mut env = Vec::new();
        self.ev(e, frame, &mut env, 0)
    }

    fn int(&self, i: Int) -> R<Value> {
        if i.bits() > self.limits.max_int_bits {
            return Err(Stop::Other(format!(
                "an integer exceeds {} bits",
                self.limits.max_int_bits
            )));
        }
        Ok(Value::Int(i))
    }

    /// Evaluates `e` in frame `frame`, with bound variables in `env` (innermost last).
    /// The keys of a map access, or `None` if one of them is not known.
    fn ev_keys(
        &self,
        idx: &[Expr],
        frame: usize,
        env: &mut Vec<(VarId, Value)>,
        depth: usize,
    ) -> R<Option<Index>> {
        if let [i] = idx {
            let v = self.ev(i, frame, env, depth)?;
            if let Value::Map(_) = v {
                return unsupported("map-typed map index");
            }
            return Ok(v.key().map(Index::One));
        }
        let mut keys = Vec::with_capacity(idx.len());
        let mut known = true;
        for i in idx {
            let v = self.ev(i, frame, env, depth)?;
            if let Value::Map(_) = v {
                return unsupported("map-typed map index");
            }
            match v.key() {
                Some(k) => keys.push(k),
                None => known = false,
            }
        }
        Ok(known.then(|| Index::new(keys)))
    }

    fn ev(&self, e: &Expr, frame: usize, env: &mut Vec<(VarId, Value)>, depth: usize) -> R<Value> {
        Ok(match e {
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Int(i) => Value::Int(Int::from_big(i)),
            Expr::Real(r) => Value::Real(r.clone()),
            Expr::BitVec { .. } => return unsupported("bit-vectors"),
            Expr::Float { .. } => return unsupported("floats"),
            Expr::Var(v) => match self.slots[v.0 as usize] {
                Slot::Bound => env
                    .iter()
                    .rev()
                    .find(|(b, _)| b == v)
                    .map_or(Value::Unknown, |(_, x)| x.clone()),
                _ => self.read(frame, *v),
            },
            Expr::Old(v) => match self.slots[v.0 as usize] {
                Slot::Global(i) => self.state.frames[frame].old[i].clone(),
                _ => self.read(frame, *v),
            },
            Expr::Unary(UnOp::Not, a) => match as_bool(self.ev(a, frame, env, depth)?)? {
                Some(b) => Value::Bool(!b),
                None => Value::Unknown,
            },
            Expr::Unary(UnOp::Neg, a) => match self.ev(a, frame, env, depth)? {
                Value::Int(i) => Value::Int(i.neg()),
                Value::Real(r) => Value::Real(-r),
                _ => Value::Unknown,
            },
            Expr::Unary(UnOp::ToInt, a) => match self.ev(a, frame, env, depth)? {
                Value::Real(r) => Value::Int(Int::big(r.floor().to_integer())),
                _ => Value::Unknown,
            },
            Expr::Unary(UnOp::ToReal, a) => match self.ev(a, frame, env, depth)? {
                Value::Int(i) => Value::Real(num_rational::BigRational::from_integer(i.to_big())),
                _ => Value::Unknown,
            },
            Expr::Binary(op, a, b) => self.binary(*op, a, b, frame, env, depth)?,
            Expr::Ite(c, a, b) => match as_bool(self.ev(c, frame, env, depth)?)? {
                Some(true) => self.ev(a, frame, env, depth)?,
                Some(false) => self.ev(b, frame, env, depth)?,
                None => {
                    let x = self.ev(a, frame, env, depth)?;
                    let y = self.ev(b, frame, env, depth)?;
                    // Both branches have the same abstract value: so does the whole.
                    if x == y { x } else { Value::Unknown }
                }
            },
            Expr::Select(m, idx) => {
                let mv = self.ev(m, frame, env, depth)?;
                match (mv, self.ev_keys(idx, frame, env, depth)?) {
                    (Value::Map(m), Some(keys)) => m.get(&keys).clone(),
                    _ => Value::Unknown,
                }
            }
            Expr::Store(m, idx, val) => {
                let mv = self.ev(m, frame, env, depth)?;
                let keys = self.ev_keys(idx, frame, env, depth)?;
                let v = self.ev(val, frame, env, depth)?;
                let Some(keys) = keys else {
                    return Ok(Value::Unknown);
                };
                let mut map = match mv {
                    Value::Map(m) => m,
                    _ => Rc::new(MapValue {
                        default: Value::Unknown,
                        entries: Default::default(),
                    }),
                };
                let inner = Rc::make_mut(&mut map);
                inner.set(keys, v);
                if inner.entries.len() > self.limits.max_cells {
                    return Err(Stop::Other(format!(
                        "a map has more than {} cells",
                        self.limits.max_cells
                    )));
                }
                Value::Map(map)
            }
            Expr::Extract { .. } => return unsupported("bit-vector extraction"),
            Expr::App {
                func,
                type_args,
                args,
            } => self.apply(*func, type_args, args, frame, env, depth)?,
            Expr::Quant { quantifier, .. } => {
                return unsupported(match quantifier {
                    Quantifier::Lambda => "lambda expressions",
                    _ => "quantifiers",
                });
            }
            Expr::Field(..) | Expr::Record(..) => return unsupported("records"),
        })
    }

    fn apply(
        &self,
        func: FuncId,
        type_args: &[Type],
        args: &[Expr],
        frame: usize,
        env: &mut Vec<(VarId, Value)>,
        depth: usize,
    ) -> R<Value> {
        let f = self.prog.func(func);
        if !type_args.is_empty() || !f.type_params.is_empty() {
            return unsupported(format!("polymorphic function {}", f.name));
        }
        if f.const_array {
            let v = match args.first() {
                Some(a) => self.ev(a, frame, env, depth)?,
                None => Value::Unknown,
            };
            return Ok(Value::constant_map(v));
        }
        if let Some(b) = &f.builtin {
            return unsupported(format!("builtin function {b}"));
        }
        let Some((params, body)) = &f.body else {
            // An over-approximating function that stands for an operation (`{:concrete "and"}`: a
            // bitwise operator of C) has that operation's value on concrete arguments.
            if let (Some(op), [x, y]) = (f.concrete, args)
                && let (Value::Int(x), Value::Int(y)) = (
                    self.ev(x, frame, env, depth)?,
                    self.ev(y, frame, env, depth)?,
                )
                && let Some(v) = op.eval(&x.to_big(), &y.to_big())
            {
                return Ok(Value::Int(super::value::Int::big(v)));
            }
            // An over-approximation of an operation the executor cannot evaluate here: the
            // execution stops (the program may not go on like this; `not_followed` marks the
            // executions a front end does not follow by exactly such an application).
            if let Some(what) = &f.overapproximation {
                return Err(Stop::Other(format!(
                    "the execution applies an over-approximation ({what})"
                )));
            }
            // Uninterpreted (or defined by axioms only): any value.
            return Ok(Value::Unknown);
        };
        let fuel = self.fuel.get();
        if fuel == 0 {
            return Err(Stop::Other(format!(
                "more than {FUEL} function applications in one step"
            )));
        }
        self.fuel.set(fuel - 1);
        if depth >= 256 {
            return Err(Stop::Other(format!(
                "function applications nested deeper than 256 ({})",
                f.name
            )));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.ev(a, frame, env, depth)?);
        }
        // The body sees only its parameters (and globals/constants).
        let mut inner: Vec<(VarId, Value)> = params.iter().copied().zip(vals).collect();
        self.ev(body, frame, &mut inner, depth + 1)
    }

    fn binary(
        &self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        frame: usize,
        env: &mut Vec<(VarId, Value)>,
        depth: usize,
    ) -> R<Value> {
        // Boolean connectives short-circuit on a definite operand (sound: expressions are pure).
        match op {
            BinOp::And | BinOp::Or | BinOp::Implies => {
                let x = as_bool(self.ev(a, frame, env, depth)?)?;
                let decisive = match op {
                    BinOp::And => Some(false),
                    _ => Some(true),
                };
                let x = if op == BinOp::Implies {
                    x.map(|v| !v)
                } else {
                    x
                };
                if x == decisive {
                    return Ok(Value::Bool(decisive == Some(true)));
                }
                let y = as_bool(self.ev(b, frame, env, depth)?)?;
                if y == decisive {
                    return Ok(Value::Bool(decisive == Some(true)));
                }
                return Ok(match (x, y) {
                    (Some(_), Some(y)) => Value::Bool(y),
                    _ => Value::Unknown,
                });
            }
            _ => {}
        }
        let x = self.ev(a, frame, env, depth)?;
        let y = self.ev(b, frame, env, depth)?;
        let tri = |t: Tri| t.map_or(Value::Unknown, Value::Bool);
        Ok(match op {
            BinOp::Iff => match (as_bool(x)?, as_bool(y)?) {
                (Some(p), Some(q)) => Value::Bool(p == q),
                _ => Value::Unknown,
            },
            BinOp::Eq | BinOp::Neq => {
                let ty = if matches!(x, Value::Map(_)) {
                    self.prog.type_of(a)
                } else {
                    Type::Bool
                };
                let t = equal(&x, &y, &ty);
                tri(if op == BinOp::Neq { t.map(|v| !v) } else { t })
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ord = match (&x, &y) {
                    (Value::Int(p), Value::Int(q)) => Some(p.cmp(q)),
                    (Value::Real(p), Value::Real(q)) => Some(p.cmp(q)),
                    _ => None,
                };
                match ord {
                    None => Value::Unknown,
                    Some(o) => Value::Bool(match op {
                        BinOp::Lt => o.is_lt(),
                        BinOp::Le => o.is_le(),
                        BinOp::Gt => o.is_gt(),
                        _ => o.is_ge(),
                    }),
                }
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => match (x, y) {
                (Value::Int(p), Value::Int(q)) => self.int(match op {
                    BinOp::Add => p.add(&q),
                    BinOp::Sub => p.sub(&q),
                    _ => p.mul(&q),
                })?,
                (Value::Real(p), Value::Real(q)) => {
                    let r = match op {
                        BinOp::Add => p + q,
                        BinOp::Sub => p - q,
                        _ => p * q,
                    };
                    if r.numer().bits() + r.denom().bits() > self.limits.max_real_bits {
                        return Err(Stop::Other(format!(
                            "a real exceeds {} bits",
                            self.limits.max_real_bits
                        )));
                    }
                    Value::Real(r)
                }
                _ => Value::Unknown,
            },
            BinOp::IntDiv | BinOp::Mod => match (x, y) {
                // SMT-LIB semantics: x = y*q + r with 0 <= r < |y|; division by zero is
                // unspecified (any value).
                (Value::Int(p), Value::Int(q)) if !q.is_zero() => {
                    let (d, r) = p.div_mod(&q);
                    Value::Int(if op == BinOp::Mod { r } else { d })
                }
                _ => Value::Unknown,
            },
            BinOp::RealDiv => match (x, y) {
                (Value::Real(p), Value::Real(q)) if !q.is_zero() => Value::Real(p / q),
                _ => Value::Unknown,
            },
            BinOp::Concat => return unsupported("bit-vectors"),
            BinOp::Subtype => Value::Unknown,
            BinOp::And | BinOp::Or | BinOp::Implies => Value::Unknown,
        })
    }
}

fn as_bool(v: Value) -> R<Tri> {
    match v {
        Value::Bool(b) => Ok(Some(b)),
        Value::Unknown => Ok(None),
        _ => Err(Stop::Other("internal: non-boolean condition".into())),
    }
}

/// What the witness mode with value `k` fixed, as said beside a verdict it found.
pub fn fixed_inputs(k: i64) -> String {
    format!("unconstrained numbers fixed to {k}, booleans to false")
}

/// The fixed value the witness mode gives an unconstrained input of type `ty`.
fn default_value(ty: &Type, k: i64) -> Value {
    match ty {
        Type::Bool => Value::Bool(false),
        Type::Int => Value::Int(Int::from(k)),
        Type::Real => Value::Real(BigRational::from_integer(BigInt::from(k))),
        Type::Map {
            type_params,
            result,
            ..
        } if type_params.is_empty() => Value::constant_map(default_value(result, k)),
        _ => Value::Unknown,
    }
}

/// A reason why the initial state's implicit constraints might be unsatisfiable, if any: `unique`
/// constants of a type that may be finite, function definitions that are recursive (a recursive
/// definition `f(x) = f(x) + 1` has no model), and `{:smtdefined}` functions.
fn implicit_constraints(prog: &Program) -> Option<String> {
    for c in &prog.consts {
        let v = prog.var(*c);
        if matches!(v.kind, VarKind::Const { unique: true })
            && !matches!(v.ty, Type::Int | Type::Real)
        {
            return Some(format!("unique constant {} of type {}", v.name, v.ty));
        }
    }
    for f in &prog.functions {
        if f.smt_defined.is_some() {
            return Some(format!("function {} is {{:smtdefined}}", f.name));
        }
    }
    // Recursion among function bodies.
    crate::engine::transition::recursive_functions(prog)
        .first()
        .map(|f| format!("function {} is defined recursively", prog.func(*f).name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        match crate::cli::frontend(src) {
            Ok((p, _)) => p,
            Err(d) => panic!("rejected: {d:?}"),
        }
    }

    fn small_limits() -> Limits {
        Limits {
            max_steps: 10_000,
            ..Limits::default()
        }
    }

    fn entry(p: &Program) -> ProcId {
        match &p.entry {
            Entry::Procedure(e) => *e,
            Entry::Library(ps) => ps[0],
        }
    }

    /// Replays a reported lasso from scratch and checks that the state after the stem really equals
    /// the state one loop later (and differs at every point in between).
    fn replay(p: &Program, mode: Mode, stem: u64, loop_len: u64) {
        let config = Config::default();
        let mut m = Machine::new(
            p,
            &config,
            small_limits(),
            mode,
            entry(p),
            Goal::Termination,
        )
        .expect("machine");
        for _ in 0..stem {
            assert!(matches!(m.step(), Ok(StepEnd::Continue)));
        }
        let at_stem = m.state.clone();
        for i in 1..=loop_len {
            assert!(matches!(m.step(), Ok(StepEnd::Continue)));
            if i < loop_len {
                assert_ne!(m.state, at_stem, "state repeats early, after {i} steps");
            }
        }
        assert_eq!(m.state, at_stem);
    }

    const REPEAT: &str = "procedure main() { var x: int; x := 0;
        while (x < 10) { x := x + 1; if (x == 5) { x := 0; } } }";

    #[test]
    fn a_reported_repetition_is_a_real_one() {
        let p = program(REPEAT);
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        let ExecResult::Nonterminating(l) = r else {
            panic!("expected nontermination, got {r:?}");
        };
        replay(&p, Mode::Symbolic, l.stem, l.loop_len);
        // x goes 0,1,…,4 and back to 0: one loop iteration per value, 16 steps in all.
        assert_eq!(l.loop_len, 16);
    }

    #[test]
    fn an_unobserved_counter_does_not_hide_a_repetition() {
        // `x` alternates; `c` counts iterations and nothing depends on it: the state repeats
        // apart from `c`.
        let p = program(
            "procedure main() { var x, c: int; x := 0; c := 0;
             while (true) { x := 1 - x; c := c + 1; assert x >= 0; } }",
        );
        let c: BTreeSet<VarId> = (0..p.vars.len() as u32)
            .map(VarId)
            .filter(|v| p.var(*v).name == "c")
            .collect();
        assert_eq!(c.len(), 1);
        let conf = Config::default();
        let safety = |unobserved: &BTreeSet<VarId>, mode| {
            check_safety(&p, &conf, &conf, &small_limits(), mode, unobserved)
        };
        let all = safety(&BTreeSet::new(), Mode::Symbolic);
        assert!(
            matches!(&all, ExecResult::Unknown { reason, .. } if reason.contains("no repetition")),
            "{all:?}"
        );
        let r = safety(&c, Mode::Symbolic);
        assert!(matches!(r, ExecResult::Safe { repeats: true, .. }), "{r:?}");
        // A witness stops at the repetition too (UNKNOWN: it covers one execution).
        let w = safety(&c, Mode::Witness(0));
        assert!(
            matches!(&w, ExecResult::Unknown { reason, .. } if reason.contains("repeats")),
            "{w:?}"
        );
    }

    #[test]
    fn maps_are_compared_by_content() {
        // The head moves right forever, writing fresh cells: locations and scalars repeat modulo the
        // head, but the map grows, so no state repeats.
        let p = program(
            "procedure main() { var head: int; var mem: [int]int; head := 0;
             while (true) { mem[head] := 1; head := head + 1; } }",
        );
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(
            matches!(&r, ExecResult::Unknown { reason, .. } if reason.contains("no repetition")),
            "{r:?}"
        );
        // Writing the same cell over and over does repeat.
        let p = program(
            "procedure main() { var mem: [int]int; mem[0] := 0;
             while (true) { mem[0] := mem[0] + 1; mem[0] := 0; } }",
        );
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        let ExecResult::Nonterminating(l) = r else {
            panic!("expected nontermination, got {r:?}");
        };
        replay(&p, Mode::Symbolic, l.stem, l.loop_len);
    }

    #[test]
    fn unknown_values_block_verdicts_that_depend_on_them() {
        // The loop repeats its abstract state, but only if the unknown guard holds; all executions
        // may block there, so no NONTERMINATING; nor TERMINATING (some may loop).
        let p = program("procedure main() { var x: int; while (x > 0) { } }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(
            matches!(
                &r,
                ExecResult::Unknown {
                    dependent: true,
                    ..
                }
            ),
            "{r:?}"
        );
        // An unknown assume on the only path: every execution either blocks or returns.
        let p = program("procedure main() { var x: int; assume x > 0; x := 1; }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(matches!(r, ExecResult::Terminating { .. }), "{r:?}");
        // The same assume before a self-loop: neither verdict.
        let p = program("procedure main() { var x: int; assume x > 0; while (true) { } }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(matches!(r, ExecResult::Unknown { .. }), "{r:?}");
        // Unsatisfiable requires: no execution at all.
        let p = program("procedure main() requires false; { while (true) { } }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(matches!(r, ExecResult::Terminating { .. }), "{r:?}");
    }

    #[test]
    fn witness_mode_never_claims_termination() {
        let p = program("procedure main() { var x: int; havoc x; while (x > 0) { x := x - 1; } }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Witness(0));
        assert!(matches!(r, ExecResult::Unknown { .. }), "{r:?}");
        let p = program("procedure main() { var x: int; havoc x; while (x >= 0) { } }");
        let r = run(&p, &Config::default(), &small_limits(), Mode::Witness(0));
        let ExecResult::Nonterminating(l) = r else {
            panic!("expected nontermination, got {r:?}");
        };
        replay(&p, Mode::Witness(0), l.stem, l.loop_len);
    }

    #[test]
    fn recursive_function_definitions_prevent_nontermination_claims() {
        // `f(x) == f(x) + 1` has no model: there is no execution at all.
        let p = program(
            "function f(x: int) returns (int) { f(x) + 1 }
             procedure main() { var y: int; y := 0; while (true) { } }",
        );
        let r = run(&p, &Config::default(), &small_limits(), Mode::Symbolic);
        assert!(matches!(r, ExecResult::Unknown { .. }), "{r:?}");
    }

    fn safety(src: &str) -> ExecResult {
        let p = program(src);
        let limits = Limits {
            max_steps: 1_000_000,
            ..Limits::default()
        };
        check_safety(
            &p,
            &Config::default(),
            &Config::default(),
            &limits,
            Mode::Symbolic,
            &BTreeSet::new(),
        )
    }

    fn witness_safety(src: &str) -> ExecResult {
        let limits = Limits {
            max_steps: 1_000_000,
            ..Limits::default()
        };
        let p = program(src);
        let c = Config::default();
        check_safety(&p, &c, &c, &limits, Mode::Witness(0), &BTreeSet::new())
    }

    #[test]
    fn a_witness_execution_fails_an_assertion_over_uninitialised_cells() {
        // Symbolic execution cannot say whether `a[-1] == 42` fails (the cell is unconstrained);
        // the execution with every input 0 fails it, after the whole loop.
        let src = "var a: [int]int; procedure main() modifies a; { var i: int; i := 0; \
                   while (i < 1000) { a[i] := 42; i := i + 1; } assert a[-1] == 42; }";
        // It stopped there on the one path of every execution: a witness retraces it.
        assert!(
            matches!(
                safety(src),
                ExecResult::Unknown {
                    dependent: true,
                    retrace: true,
                    ..
                }
            ),
            "{:?}",
            safety(src)
        );
        // Not so when the path itself depends on an input.
        let branching =
            "procedure main() { var x: int; havoc x; if (x > 0) { x := 1; } assert x > 0; }";
        assert!(
            matches!(
                safety(branching),
                ExecResult::Unknown {
                    dependent: true,
                    retrace: false,
                    ..
                }
            ),
            "{:?}",
            safety(branching)
        );
        let ExecResult::Violated(v) = witness_safety(src) else {
            panic!("expected a violation, got {:?}", witness_safety(src));
        };
        // `i := 0`, the loop entry, per iteration the test, the store and the increment, then the
        // exit test and the failing assertion.
        assert_eq!(v.steps + 1, 3004);
    }

    #[test]
    fn a_witness_execution_never_answers_safe() {
        // Fixed inputs pick one execution of many: the assertion holds on it (x = 0), not on all.
        let r = witness_safety(
            "procedure main() { var x: int; var i: int; i := 0; \
             while (i < 10) { i := i + 1; } assert x == 0; }",
        );
        assert!(matches!(r, ExecResult::Unknown { .. }), "{r:?}");
        // After a nondeterministic choice, the path is followed for a bounded number of steps.
        let r = witness_safety(
            "procedure main() { var x: int; x := 0; while (*) { x := x + 1; } assert x >= 0; }",
        );
        assert!(matches!(r, ExecResult::Unknown { .. }), "{r:?}");
    }

    #[test]
    fn a_long_failing_execution_is_a_violation_with_the_ends_of_its_trace() {
        let r = safety(
            "procedure main() { var x: int; x := 0; \
             while (x < 1000) { x := x + 1; } assert x == 1001; }",
        );
        let ExecResult::Violated(v) = r else {
            panic!("expected a violation, got {r:?}");
        };
        // By hand: `x := 0`, the loop entry's `assume true`, per iteration the test and the
        // increment, then the exit test and the failing assertion: 2,004 steps.
        assert_eq!(v.steps + 1, 2004);
        let (gap, skipped) = v.omitted.expect("a long trace shows its ends");
        assert_eq!(gap as u64, TRACE_ENDS);
        assert_eq!(v.trace.len() as u64, 2 * TRACE_ENDS + 1);
        // The shown steps are the run's: step n (from 1) that writes x (the first, then every
        // increment) writes x = (n - 2) / 2, or 0.
        for (i, step) in v.trace.iter().enumerate() {
            let n = if i < gap {
                i as u64 + 1
            } else {
                i as u64 + 1 + skipped
            };
            if let [(x, value)] = step.writes.as_slice() {
                assert_eq!(
                    (x.as_str(), value.clone()),
                    ("x", (n.saturating_sub(2) / 2).to_string())
                );
            }
        }
        let last = v.trace.last().expect("the failing step");
        assert!(last.statement.contains("x == 1001"), "{last:?}");
        assert_eq!(last.reads, vec![("x".to_string(), "1000".to_string())]);
        // A short one is recorded whole.
        let r = safety("procedure main() { var x: int; x := 1; x := x + 1; assert x == 3; }");
        let ExecResult::Violated(v) = r else {
            panic!("expected a violation, got {r:?}");
        };
        assert_eq!(v.omitted, None);
        assert_eq!(v.trace.len() as u64, v.steps + 1);
    }

    #[test]
    fn a_probe_of_another_choice_finds_a_violation_after_a_nondeterministic_loop() {
        // The executor stays in the loop; the probe of the exit after each iteration fails the
        // assertion once x = 102 (34 iterations).
        let src =
            "procedure main() { var x: int; x := 0; while (*) { x := x + 3; } assert x < 100; }";
        let r = safety(src);
        let ExecResult::Violated(v) = r else {
            panic!("expected a violation, got {r:?}");
        };
        // By hand: `x := 0`, the loop entry, per iteration the choice and the increment, then
        // the exit and the failing assertion.
        assert_eq!(v.steps + 1, 1 + 1 + 34 * 2 + 1 + 1);
        assert_eq!(v.deviation.map(|(at, _)| at), Some(2 + 34 * 2));
        let last = v.trace.last().expect("the failing step");
        assert!(last.statement.contains("x < 100"), "{last:?}");
        assert_eq!(last.reads, vec![("x".to_string(), "102".to_string())]);
        // The replay took the probed path: the step before the failing one is the exit.
        assert_eq!((v.trace.len() as u64, v.omitted), (v.steps + 1, None));
        let writes: Vec<_> = v.trace.iter().filter(|s| !s.writes.is_empty()).collect();
        assert_eq!(
            writes.last().map(|s| s.writes.clone()),
            Some(vec![("x".to_string(), "102".to_string())])
        );
        // The same in witness mode.
        assert!(matches!(witness_safety(src), ExecResult::Violated(_)));
    }

    #[test]
    fn a_probe_claims_no_violation_on_a_path_no_execution_may_realise() {
        for src in [
            // After the exit, `assume z == x` depends on an input: the path may not be realised.
            "procedure main() { var x, z: int; havoc z; x := 0; \
             while (*) { x := x + 1; } assume z == x; assert z < 5; }",
            // No iteration count fails the assertion.
            "procedure main() { var x: int; x := 0; while (*) { x := x + 2; } assert x != 7; }",
        ] {
            let r = safety(src);
            assert!(matches!(r, ExecResult::Unknown { .. }), "{src}: {r:?}");
        }
    }

    #[test]
    fn one_path_that_fails_nothing_is_safe() {
        let r = safety(
            "procedure main() { var x: int; x := 0; \
             while (x < 1000) { x := x + 1; } assert x == 1000; }",
        );
        assert!(
            matches!(r, ExecResult::Safe { repeats: false, .. }),
            "{r:?}"
        );
        // A path that repeats its state: no specification can fail later either.
        let r = safety(
            "procedure main() { var x: int; x := 0; \
             while (true) { x := 1 - x; assert x <= 1; } }",
        );
        assert!(matches!(r, ExecResult::Safe { repeats: true, .. }), "{r:?}");
    }

    #[test]
    fn inputs_leave_safety_undecided() {
        for src in [
            // The control flow depends on an input.
            "procedure main() { var x: int; havoc x; if (x > 0) { assert false; } }",
            // The assertion depends on one.
            "procedure main() { var x: int; havoc x; assert x > 0; }",
            // The path fails the assertion, but no execution may take it: `x > 0` and `x < 0`
            // are each undecided, and together infeasible.
            "procedure main() { var x: int; havoc x; assume x > 0; assume x < 0; assert false; }",
            // Inputs pass a loop: a second path of one execution is not excluded.
            "procedure main() { var x: int; havoc x; while (x > 0) { x := x - 1; } assert x == 0; }",
            // A nondeterministic loop: one path of many (followed for a while, then given up).
            "procedure main() { var x: int; x := 0; while (*) { x := x + 4; } assert x != 7; }",
        ] {
            let r = safety(src);
            assert!(matches!(r, ExecResult::Unknown { .. }), "{src}: {r:?}");
        }
    }
}
