//! Lowering: the third phase, structured typed statements to one control-flow graph per body.
//!
//! Computes, for every procedure with a body, a [`Cfg`] whose edges carry only simple [`Stmt`]s, and
//! registers every error location in [`Program::errors`] (in procedure order, then source order, so ids
//! are deterministic). The shapes (docs/IR.md §3):
//! - `assert e`: an edge `assume !e` to a fresh error location and a continuing edge `assume e`;
//! - `call P(a)`: for each non-free `requires r` of `P`, the same pair with `r[a/params]` (and `old(g)`
//!   read as `g`), then the `Call` edge; `call forall P(a, *)` assumes `(∀w :: requires ⇒ ensures)`
//!   over its wildcards (a callee with out-parameters or type parameters: `Unsupported`);
//! - `while`: every arrival at the loop head (entry edge and back edge) passes the loop's
//!   specifications in source order — a free invariant is assumed, a checked one checked
//!   (`InvariantEntry` / `InvariantMaintained` error locations) and then assumed — so a free invariant
//!   written before a checked one guards it (Boogie, Ultimate's UnstructureCode); after the head
//!   `assume c` leads into the body and `assume !c` out (`while (*)`: `assume true` both ways);
//! - `return` and the end of the body reach one return location, from which the non-free ensures are
//!   checked (error location, then assume) in source order, and only then the free ensures assumed
//!   (they never guard the procedure's own checked ensures; callers of an inlined body see them),
//!   on the way to the exit;
//! - `where` clauses, as Boogie: assumed at the start of the body (all globals, then parameters,
//!   returns and locals), after `havoc` (its variables) and after `call` (its targets and the
//!   callee's modified globals).
//!
//! Invariants of the result: one `Entry` and one `Exit` location per CFG; error locations have no
//! outgoing edges and belong to exactly one `ErrorSite`; targets of back edges (w.r.t. a depth-first
//! search from the entry, visiting successors in edge order) are `LoopHead`s; isolated placeholder
//! locations (after `return`/`goto`/`break`) are removed, other dead code is kept.

use super::program::*;
use super::typeck::{TBody, TStmt, Typed};
use crate::diag::{Diagnostic, Span};
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, HashMap};

/// Lowers all typed bodies into CFGs.
pub fn lower(t: Typed) -> (Program, Vec<Diagnostic>) {
    let mut prog = t.program;
    for body in &t.bodies {
        let cfg = lower_body(&mut prog, body, &t.wheres);
        prog.procedures[body.proc.0 as usize].body = Some(cfg);
    }
    (prog, Vec::new())
}

fn t() -> Expr {
    Expr::Bool(true)
}

/// `!e`, without double negation.
pub fn negate(e: &Expr) -> Expr {
    match e {
        Expr::Unary(UnOp::Not, inner) => (**inner).clone(),
        Expr::Bool(b) => Expr::Bool(!b),
        _ => Expr::Unary(UnOp::Not, Box::new(e.clone())),
    }
}

/// Substitutes variables by expressions; `old(g)` is read as `g` first (for requires at call sites).
pub fn subst_requires(e: &Expr, map: &HashMap<VarId, Expr>) -> Expr {
    match e {
        Expr::Var(v) | Expr::Old(v) => map.get(v).cloned().unwrap_or(Expr::Var(*v)),
        _ => e.map_children(&mut |x| subst_requires(x, map)),
    }
}

struct Enclosing {
    labels: Vec<String>,
    is_loop: bool,
    /// An `atomic` block: leaving it by `break`/`return` passes an `AtomicEnd` edge.
    is_atomic: bool,
    exit: NodeIndex,
}

struct Builder<'p> {
    prog: &'p mut Program,
    wheres: &'p BTreeMap<VarId, (Expr, Span)>,
    pid: ProcId,
    g: DiGraph<Location, Edge>,
    entry: NodeIndex,
    labels: HashMap<String, NodeIndex>,
    ret: NodeIndex,
    enclosing: Vec<Enclosing>,
}

fn lower_body(prog: &mut Program, body: &TBody, wheres: &BTreeMap<VarId, (Expr, Span)>) -> Cfg {
    let pspan = prog.procedures[body.proc.0 as usize].span;
    let mut g = DiGraph::new();
    let entry = g.add_node(Location {
        kind: LocKind::Entry,
        span: Some(pspan),
        label: None,
    });
    let mut b = Builder {
        prog,
        wheres,
        pid: body.proc,
        g,
        entry,
        labels: HashMap::new(),
        ret: entry,
        enclosing: Vec::new(),
    };
    b.collect_labels(&body.stmts);
    b.ret = b.node(LocKind::Plain, Some(body.end));
    // Boogie assumes the `where` clauses of the globals, parameters, returns and locals at the start
    // of every implementation (the values are arbitrary there).
    let p = &b.prog.procedures[body.proc.0 as usize];
    let scope: Vec<VarId> = (b.prog.globals.iter())
        .chain(&p.params)
        .chain(&p.returns)
        .chain(&p.locals)
        .copied()
        .collect();
    let start = b.assume_wheres(entry, &scope, None);
    let end = b.stmts(&body.stmts, start, Some(b.ret), Vec::new());
    let ret = b.ret;
    b.jump(end, ret, Some(body.end));
    // Ensures: checked (or, when free, assumed) on the way from the return location to the exit.
    let ensures = b.prog.procedures[body.proc.0 as usize].ensures.clone();
    let exit = if ensures.is_empty() {
        b.g[ret].kind = LocKind::Exit;
        ret
    } else {
        let exit = b.node(LocKind::Exit, Some(body.end));
        // Checked ensures first, in source order; the free ones are assumed only afterwards (for the
        // callers of an inlined body): a procedure's own free postconditions never guard its checked
        // ones (Boogie never assumes them for the implementation; Ultimate checks each non-free one
        // from the final node).
        let ensures: Vec<Contract> = ensures
            .iter()
            .filter(|c| !c.free)
            .chain(ensures.iter().filter(|c| c.free))
            .cloned()
            .collect();
        let mut cur = ret;
        for (i, c) in ensures.iter().enumerate() {
            let next = if i + 1 == ensures.len() {
                Some(exit)
            } else {
                None
            };
            if !c.free {
                cur = b.check(cur, &c.expr, ErrorKind::Ensures, c.span, c.span, next);
            } else {
                let n = b.target(next, c.span);
                b.edge(cur, n, Stmt::Assume(c.expr.clone()), Some(c.span));
                cur = n;
            }
        }
        exit
    };
    b.finish(exit)
}

impl Builder<'_> {
    fn node(&mut self, kind: LocKind, span: Option<Span>) -> NodeIndex {
        self.g.add_node(Location {
            kind,
            span,
            label: None,
        })
    }

    fn edge(&mut self, from: NodeIndex, to: NodeIndex, stmt: Stmt, span: Option<Span>) {
        self.g.add_edge(from, to, Edge { stmt, span });
    }

    fn is_isolated(&self, n: NodeIndex) -> bool {
        n != self.entry
            && self
                .g
                .edges_directed(n, Direction::Incoming)
                .next()
                .is_none()
            && self
                .g
                .edges_directed(n, Direction::Outgoing)
                .next()
                .is_none()
            && self.g[n].kind == LocKind::Plain
            && self.g[n].label.is_none()
    }

    /// An `assume true` edge, unless `from` is an isolated placeholder or equals `to`.
    fn jump(&mut self, from: NodeIndex, to: NodeIndex, span: Option<Span>) {
        if from != to && !self.is_isolated(from) {
            self.edge(from, to, Stmt::Assume(t()), span);
        }
    }

    fn target(&mut self, hint: Option<NodeIndex>, span: Span) -> NodeIndex {
        hint.unwrap_or_else(|| self.node(LocKind::Plain, Some(span)))
    }

    fn collect_labels(&mut self, ss: &[TStmt]) {
        for s in ss {
            match s {
                TStmt::Label(l, sp) => {
                    let n = self.node(LocKind::Plain, Some(*sp));
                    self.g[n].label = Some(l.clone());
                    self.labels.entry(l.clone()).or_insert(n);
                }
                TStmt::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    self.collect_labels(then_branch);
                    self.collect_labels(else_branch);
                }
                TStmt::While { body, .. } | TStmt::Atomic(body, _) => self.collect_labels(body),
                _ => {}
            }
        }
    }

    /// Adds the error check `e` at `cur`: `assume !e` to a new error location, `assume e` onward to
    /// `next` (or a fresh location). Returns the continuing location.
    fn check(
        &mut self,
        cur: NodeIndex,
        e: &Expr,
        kind: ErrorKind,
        site_span: Span,
        span: Span,
        next: Option<NodeIndex>,
    ) -> NodeIndex {
        let id = ErrorId(self.prog.errors.len() as u32);
        let err = self.node(LocKind::Error(id), Some(site_span));
        self.prog.errors.push(ErrorSite {
            kind,
            span: site_span,
            proc: self.pid,
            location: err,
            check: None,
        });
        self.edge(cur, err, Stmt::Assume(negate(e)), Some(span));
        let n = self.target(next, span);
        self.edge(cur, n, Stmt::Assume(e.clone()), Some(span));
        n
    }

    /// Lowers a statement list starting at `cur`; the last statement ends in `after` if given.
    fn stmts(
        &mut self,
        ss: &[TStmt],
        mut cur: NodeIndex,
        after: Option<NodeIndex>,
        labels: Vec<String>,
    ) -> NodeIndex {
        let mut pending = labels;
        for (i, s) in ss.iter().enumerate() {
            let hint = match ss.get(i + 1) {
                None => after,
                Some(TStmt::Label(l, _)) => self.labels.get(l).copied(),
                Some(_) => None,
            };
            let mine = std::mem::take(&mut pending);
            if let TStmt::Label(l, _) = s {
                pending = mine;
                pending.push(l.clone());
                cur = self.stmt(s, cur, hint, Vec::new());
            } else {
                cur = self.stmt(s, cur, hint, mine);
            }
        }
        cur
    }

    fn stmt(
        &mut self,
        s: &TStmt,
        cur: NodeIndex,
        hint: Option<NodeIndex>,
        labels: Vec<String>,
    ) -> NodeIndex {
        match s {
            TStmt::Label(l, _) => {
                let Some(&n) = self.labels.get(l) else {
                    return cur;
                };
                if cur != n && !self.is_isolated(cur) {
                    self.edge(cur, n, Stmt::Assume(t()), None);
                }
                n
            }
            TStmt::Assert(e, sp, check) => {
                let n = self.check(cur, e, ErrorKind::Assert, *sp, *sp, hint);
                if let Some(site) = self.prog.errors.last_mut() {
                    site.check = check.clone();
                }
                n
            }
            TStmt::Assume(e, sp) => self.simple(cur, Stmt::Assume(e.clone()), *sp, hint),
            TStmt::Havoc(vs, sp) => {
                let n = self.simple_before_wheres(cur, Stmt::Havoc(vs.clone()), *sp, vs, hint);
                self.assume_wheres(n, vs, hint)
            }
            TStmt::Assign(pairs, sp) => self.simple(cur, Stmt::Assign(pairs.clone()), *sp, hint),
            TStmt::Unsupported(what, sp) => {
                self.simple(cur, Stmt::Unsupported(what.clone()), *sp, hint)
            }
            // Boogie's lemma call: assume `(∀w :: requires ⇒ ensures)` over the wildcards `w`,
            // the other parameters replaced by their arguments (the callee has no side effects,
            // so `old(g)` is `g`); free contracts included, nothing is checked.
            TStmt::CallForall { callee, args, span } => {
                let p = &self.prog.procedures[callee.0 as usize];
                let (params, requires, ensures) =
                    (p.params.clone(), p.requires.clone(), p.ensures.clone());
                let mut map: HashMap<VarId, Expr> = HashMap::new();
                let mut bound = Vec::new();
                for (x, a) in params.iter().zip(args) {
                    let e = match a {
                        Some(a) => a.clone(),
                        None => {
                            let mut v = self.prog.var(*x).clone();
                            v.kind = VarKind::Bound;
                            let w = VarId(self.prog.vars.len() as u32);
                            self.prog.vars.push(v);
                            bound.push(w);
                            Expr::Var(w)
                        }
                    };
                    map.insert(*x, e);
                }
                let conj = |cs: &[Contract]| {
                    (cs.iter().map(|c| subst_requires(&c.expr, &map)))
                        .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                        .unwrap_or(Expr::Bool(true))
                };
                let mut e = match requires.is_empty() {
                    true => conj(&ensures),
                    false => Expr::Binary(
                        BinOp::Implies,
                        Box::new(conj(&requires)),
                        Box::new(conj(&ensures)),
                    ),
                };
                if !bound.is_empty() {
                    e = Expr::Quant {
                        quantifier: Quantifier::Forall,
                        vars: bound,
                        triggers: Vec::new(),
                        body: Box::new(e),
                    };
                }
                self.simple(cur, Stmt::Assume(e), *span, hint)
            }
            TStmt::Call {
                callee,
                args,
                rets,
                span,
            } => {
                let p = &self.prog.procedures[callee.0 as usize];
                let map: HashMap<VarId, Expr> =
                    p.params.iter().copied().zip(args.iter().cloned()).collect();
                let reqs: Vec<Contract> = p.requires.iter().filter(|r| !r.free).cloned().collect();
                // Boogie assumes the `where` clauses of the call's targets and of the callee's
                // modified globals after the call.
                let changed: Vec<VarId> = rets.iter().chain(&p.modifies).copied().collect();
                let mut cur = cur;
                for r in reqs {
                    let e = subst_requires(&r.expr, &map);
                    let kind = ErrorKind::Requires {
                        callee: *callee,
                        requires_span: r.span,
                    };
                    cur = self.check(cur, &e, kind, *span, *span, None);
                }
                let stmt = Stmt::Call {
                    callee: *callee,
                    args: args.clone(),
                    rets: rets.clone(),
                };
                let n = self.simple_before_wheres(cur, stmt, *span, &changed, hint);
                self.assume_wheres(n, &changed, hint)
            }
            TStmt::Fork {
                tid,
                callee,
                args,
                span,
            } => {
                let stmt = Stmt::Fork {
                    tid: tid.clone(),
                    callee: *callee,
                    args: args.clone(),
                };
                self.simple(cur, stmt, *span, hint)
            }
            TStmt::Join { tid, rets, span } => {
                let stmt = Stmt::Join {
                    tid: tid.clone(),
                    rets: rets.clone(),
                };
                self.simple(cur, stmt, *span, hint)
            }
            TStmt::If {
                cond,
                then_branch,
                else_branch,
                span,
            } => {
                let join = self.target(hint, *span);
                self.enclosing.push(Enclosing {
                    labels,
                    is_loop: false,
                    is_atomic: false,
                    exit: join,
                });
                let (ct, ce) = match cond {
                    Some(c) => (c.clone(), negate(c)),
                    None => (t(), t()),
                };
                for (branch, c) in [(then_branch, ct), (else_branch, ce)] {
                    let start = if branch.is_empty() {
                        join
                    } else {
                        self.node(LocKind::Plain, Some(*span))
                    };
                    self.edge(cur, start, Stmt::Assume(c), Some(*span));
                    let end = self.stmts(branch, start, Some(join), Vec::new());
                    self.jump(end, join, None);
                }
                self.enclosing.pop();
                join
            }
            TStmt::While {
                cond,
                invariants,
                body,
                span,
            } => {
                let head = self.node(LocKind::LoopHead, Some(*span));
                // Entry: the specifications in source order (free ones assumed, checked ones
                // checked) on the way to the head.
                self.spec_chain(cur, invariants, ErrorKind::InvariantEntry, head, *span);
                let exit = self.target(hint, *span);
                let (ct, ce) = match cond {
                    Some(c) => (c.clone(), negate(c)),
                    None => (t(), t()),
                };
                let start = self.node(LocKind::Plain, Some(*span));
                self.edge(head, start, Stmt::Assume(ct), Some(*span));
                self.edge(head, exit, Stmt::Assume(ce), Some(*span));
                self.enclosing.push(Enclosing {
                    labels,
                    is_loop: true,
                    is_atomic: false,
                    exit,
                });
                // The end of the body goes back to the head, checking the invariants again.
                let back = if invariants.is_empty() {
                    head
                } else {
                    self.node(LocKind::Plain, Some(*span))
                };
                let end = self.stmts(body, start, Some(back), Vec::new());
                self.jump(end, back, None);
                self.enclosing.pop();
                if back != head
                    && self
                        .g
                        .edges_directed(back, Direction::Incoming)
                        .next()
                        .is_some()
                {
                    self.spec_chain(
                        back,
                        invariants,
                        ErrorKind::InvariantMaintained,
                        head,
                        *span,
                    );
                }
                exit
            }
            TStmt::Atomic(body, span) => {
                let start = self.node(LocKind::Plain, Some(*span));
                self.edge(cur, start, Stmt::AtomicBegin, Some(*span));
                let before_end = self.node(LocKind::Plain, Some(*span));
                self.enclosing.push(Enclosing {
                    labels,
                    is_loop: false,
                    is_atomic: true,
                    exit: before_end,
                });
                let end = self.stmts(body, start, Some(before_end), Vec::new());
                self.jump(end, before_end, None);
                self.enclosing.pop();
                self.simple(before_end, Stmt::AtomicEnd, *span, hint)
            }
            TStmt::Break(label, span) => {
                let target = match label {
                    None => self.enclosing.iter().rposition(|e| e.is_loop),
                    Some(l) => self.enclosing.iter().rposition(|e| e.labels.contains(l)),
                };
                if let Some(i) = target {
                    let open = self.enclosing[i + 1..]
                        .iter()
                        .filter(|e| e.is_atomic)
                        .count();
                    let exit = self.enclosing[i].exit;
                    let c = self.close_atomics(cur, open, *span);
                    self.jump(c, exit, Some(*span));
                }
                self.node(LocKind::Plain, Some(*span))
            }
            TStmt::Return(span) => {
                let ret = self.ret;
                let open = self.enclosing.iter().filter(|e| e.is_atomic).count();
                let c = self.close_atomics(cur, open, *span);
                self.jump(c, ret, Some(*span));
                self.node(LocKind::Plain, Some(*span))
            }
            TStmt::Goto(targets, span) => {
                if !self.is_isolated(cur) {
                    for (l, _) in targets {
                        if let Some(&n) = self.labels.get(l) {
                            self.edge(cur, n, Stmt::Assume(t()), Some(*span));
                        }
                    }
                }
                self.node(LocKind::Plain, Some(*span))
            }
        }
    }

    /// `n` `AtomicEnd` edges from `cur` (when `break`/`return` leaves atomic blocks); returns the end.
    fn close_atomics(&mut self, cur: NodeIndex, n: usize, span: Span) -> NodeIndex {
        let mut c = cur;
        for _ in 0..n {
            if self.is_isolated(c) {
                break;
            }
            let next = self.node(LocKind::Plain, Some(span));
            self.edge(c, next, Stmt::AtomicEnd, Some(span));
            c = next;
        }
        c
    }

    /// Checks `invs` one after the other from `cur`, the last one continuing into `to`.
    /// The specifications `invs` in source order from `cur` to `to`: a free one is assumed, a checked
    /// one is checked (error location of `kind`, then assumed). A free specification written before a
    /// checked one therefore guards it, as in Boogie and Ultimate (UnstructureCode).
    fn spec_chain(
        &mut self,
        cur: NodeIndex,
        invs: &[Contract],
        kind: ErrorKind,
        to: NodeIndex,
        span: Span,
    ) {
        let mut c = cur;
        for (i, inv) in invs.iter().enumerate() {
            let next = if i + 1 == invs.len() { Some(to) } else { None };
            c = if inv.free {
                let n = self.target(next, inv.span);
                self.edge(c, n, Stmt::Assume(inv.expr.clone()), Some(inv.span));
                n
            } else {
                self.check(c, &inv.expr, kind.clone(), inv.span, inv.span, next)
            };
        }
        if invs.is_empty() {
            self.jump_always(c, to, Some(span));
        }
    }

    /// An `assume true` edge even if `from` has no edges yet (used where `from` was created for it).
    fn jump_always(&mut self, from: NodeIndex, to: NodeIndex, span: Option<Span>) {
        if from != to {
            self.edge(from, to, Stmt::Assume(t()), span);
        }
    }

    /// The `where` clauses of `vars` (each clause once: a declaration group shares one).
    fn wheres_of(&self, vars: &[VarId]) -> Vec<(Expr, Span)> {
        let mut out: Vec<(Expr, Span)> = Vec::new();
        for v in vars {
            if let Some((e, sp)) = self.wheres.get(v)
                && !out.iter().any(|(_, s)| s == sp)
            {
                out.push((e.clone(), *sp));
            }
        }
        out
    }

    /// `stmt` from `cur`, to `hint` unless `where` clauses of `vars` follow it (then to a fresh
    /// location, from which [`Builder::assume_wheres`] continues).
    fn simple_before_wheres(
        &mut self,
        cur: NodeIndex,
        stmt: Stmt,
        span: Span,
        vars: &[VarId],
        hint: Option<NodeIndex>,
    ) -> NodeIndex {
        let hint = if self.wheres_of(vars).is_empty() {
            hint
        } else {
            None
        };
        self.simple(cur, stmt, span, hint)
    }

    /// A chain of `assume` edges from `cur`, one per `where` clause of `vars` (to `hint` at the
    /// end); `cur` itself when none of them has one.
    fn assume_wheres(
        &mut self,
        cur: NodeIndex,
        vars: &[VarId],
        hint: Option<NodeIndex>,
    ) -> NodeIndex {
        let clauses = self.wheres_of(vars);
        let k = clauses.len();
        let mut n = cur;
        for (i, (e, sp)) in clauses.into_iter().enumerate() {
            let next = if i + 1 == k { hint } else { None };
            n = self.simple(n, Stmt::Assume(e), sp, next);
        }
        n
    }

    fn simple(
        &mut self,
        cur: NodeIndex,
        stmt: Stmt,
        span: Span,
        hint: Option<NodeIndex>,
    ) -> NodeIndex {
        let n = self.target(hint, span);
        self.edge(cur, n, stmt, Some(span));
        n
    }

    /// Marks back-edge targets as loop heads, drops isolated placeholders, and builds the `Cfg`.
    fn finish(mut self, exit: NodeIndex) -> Cfg {
        // Loop heads: targets of DFS back edges.
        let n = self.g.node_count();
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut stack: Vec<(NodeIndex, Vec<NodeIndex>)> = Vec::new();
        let succ = |g: &DiGraph<Location, Edge>, x: NodeIndex| {
            let mut v: Vec<(usize, NodeIndex)> =
                g.edges(x).map(|e| (e.id().index(), e.target())).collect();
            v.sort();
            v.into_iter().rev().map(|(_, t)| t).collect::<Vec<_>>()
        };
        state[self.entry.index()] = 1;
        stack.push((self.entry, succ(&self.g, self.entry)));
        while let Some((x, mut todo)) = stack.pop() {
            match todo.pop() {
                None => state[x.index()] = 2,
                Some(y) => {
                    stack.push((x, todo));
                    match state[y.index()] {
                        0 => {
                            state[y.index()] = 1;
                            let s = succ(&self.g, y);
                            stack.push((y, s));
                        }
                        1 if self.g[y].kind == LocKind::Plain => {
                            self.g[y].kind = LocKind::LoopHead;
                        }
                        _ => {}
                    }
                }
            }
        }
        // Compact: drop isolated placeholders.
        let keep: Vec<bool> = self
            .g
            .node_indices()
            .map(|x| x == exit || x == self.entry || !self.is_isolated(x))
            .collect();
        if keep.iter().all(|k| *k) {
            return Cfg {
                graph: self.g,
                entry: self.entry,
                exit,
            };
        }
        let mut map = vec![None; n];
        let mut g2: DiGraph<Location, Edge> = DiGraph::new();
        for x in self.g.node_indices() {
            if keep[x.index()] {
                map[x.index()] = Some(g2.add_node(self.g[x].clone()));
            }
        }
        for e in self.g.edge_references() {
            if let (Some(a), Some(b)) = (map[e.source().index()], map[e.target().index()]) {
                g2.add_edge(a, b, e.weight().clone());
            }
        }
        for site in self.prog.errors.iter_mut().filter(|s| s.proc == self.pid) {
            if let Some(m) = map[site.location.index()] {
                site.location = m;
            }
        }
        let remap = |x: NodeIndex| map[x.index()].unwrap_or(x);
        Cfg {
            graph: g2,
            entry: remap(self.entry),
            exit: remap(exit),
        }
    }
}
