//! Data-race instrumentation of a translated C program (SV-COMP's `no-data-race`).
//!
//! A data race is a reachable state in which two threads are about to access the same memory
//! location, at least one of them writing, and at least one access not atomic. The translated
//! program has interleaving semantics at the granularity of IR statements (a statement that
//! reads or writes a shared variable is never merged with another one that does: see
//! `engine::blocks`, Lipton movers), so a race is a state in which two threads are each just
//! before a statement accessing a common location. The instrumentation turns that state into a
//! reachable assertion violation, in the spirit of Ultimate's `#race` variables:
//!
//! * every shared location `l` (a C global that lives in Boogie variables — one race variable
//!   per leaf, with the leaf's map dimensions — or a memory cell `{base, offset}` of
//!   `#memory_*`, one race map `#race[base][offset]`) gets a ghost cell `race(l)`;
//! * before every statement `s` that accesses shared locations, the executing thread first
//!   *announces* each access — `race(l) := v` for a write, with `v` a fresh nondeterministic value
//!   (`havoc` of a thread-local variable), `race(l) := 0` for a read — in statements of their own,
//!   then *checks* in one further statement that every announced cell still holds its value, and
//!   only then executes `s`. (The results of a call or a join are written when it completes, after
//!   the callee or the joined thread ran: they are announced and checked right after the statement.
//!   The C front end assigns them to temporaries, so this case does not arise from C.)
//!
//! Soundness (a failing check is a race): if `race(l)` changed between `T`'s announcement and
//! `T`'s check, another thread `U` announced an access to `l` in between, with a different value,
//! so at least one of the two is a write; right after `U`'s announcement both threads are
//! before their accesses of `l` (only announcements and checks, which are always enabled, stand
//! between), which is a race of the original program. Completeness (a race makes a check fail):
//! from the racy state, let `T` announce, then `U` announce with a value different from `T`'s
//! (the nondeterministic choice of a write value allows it), then `T` check.
//!
//! Atomic accesses (`atomic { … }` blocks: GCC's atomic builtins, `__VERIFIER_atomic_*`
//! functions, the pthread mutex operations) are instrumented inside their block: two atomic
//! accesses never interleave, so they never fail each other's checks, while an atomic write (or
//! read) between the announcement and the check of a conflicting non-atomic access of another
//! thread still changes the cell — a race in C11's sense (conflicting accesses, not both
//! atomic).
//!
//! A write of a whole row of memory (`#memory_*[b] := …`: zero-initialisation of a fresh
//! allocation or of a static object) is announced for every cell of the row (`#race[b] :=
//! const(v)`) and not checked: no other thread can be about to access a fresh object. Any other
//! access to a shared variable as a whole (a map read or written without all its indices) is
//! not instrumented faithfully and is reported, so the caller answers UNKNOWN.

use super::build::*;
use crate::diag::Span;
use crate::syntax::ast::{BinOp, Else, Expr, ExprKind, Lhs, Selector, Stmt, StmtKind};
use std::collections::BTreeMap;

/// The shared Boogie variables and their race variables.
pub struct Shared {
    /// Shared variable → (race variable, number of map dimensions).
    pub vars: BTreeMap<String, (String, usize)>,
    /// The constant-map function (`int → [int]int`) for row writes.
    pub const_map: String,
    /// The thread-local variable holding the value of a write announcement.
    pub value: String,
}

/// An access to one shared location: the race variable and the indices.
#[derive(Clone, PartialEq)]
struct Access {
    race: String,
    idx: Vec<Expr>,
    write: bool,
    /// A whole row (fewer indices than dimensions): announced, not checked.
    row: bool,
    /// The access happens only when this holds (the right operand of `&&`, `||`, `==>`, a branch
    /// of `if … then … else`); `None`: always.
    guard: Option<Expr>,
}

/// Why a program is not instrumented, and where.
pub type Error = (String, Span);

impl Shared {
    /// Instruments a procedure body.
    pub fn instrument(&self, body: Vec<Stmt>) -> Result<Vec<Stmt>, Error> {
        let mut out = Vec::with_capacity(body.len());
        for s in body {
            self.stmt(s, &mut out)?;
        }
        Ok(out)
    }

    fn stmt(&self, s: Stmt, out: &mut Vec<Stmt>) -> Result<(), Error> {
        let span = s.span;
        let mut acc = Vec::new();
        // writes that happen when the statement completes (a call's results at the return, a
        // join's at the join): announced after it, so that what runs before (the callee, the
        // joined thread) is not taken for a concurrent access
        let mut post = Vec::new();
        let kind = match s.kind {
            StmtKind::Label(_) | StmtKind::Goto(_) | StmtKind::Break(_) | StmtKind::Return => {
                s.kind
            }
            StmtKind::Assert { ref expr, .. } | StmtKind::Assume { ref expr, .. } => {
                self.reads(expr, &mut acc)?;
                s.kind
            }
            StmtKind::Havoc(ref ids) => {
                for id in ids {
                    self.write_var(&id.name, &[], span, &mut acc)?;
                }
                s.kind
            }
            StmtKind::Assign { ref lhs, ref rhs } => {
                for e in rhs {
                    self.reads(e, &mut acc)?;
                }
                for l in lhs {
                    self.lhs(l, &mut acc)?;
                }
                s.kind
            }
            StmtKind::Call {
                ref outs, ref args, ..
            } => {
                for e in args.iter().flatten() {
                    self.reads(e, &mut acc)?;
                }
                for id in outs {
                    self.write_var(&id.name, &[], span, &mut post)?;
                }
                s.kind
            }
            StmtKind::Fork {
                ref tid, ref args, ..
            } => {
                for e in tid.iter().chain(args) {
                    self.reads(e, &mut acc)?;
                }
                s.kind
            }
            StmtKind::Join {
                ref tid,
                ref assign,
            } => {
                for e in tid {
                    self.reads(e, &mut acc)?;
                }
                for id in assign {
                    self.write_var(&id.name, &[], span, &mut post)?;
                }
                s.kind
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                if let Some(c) = &cond {
                    self.reads(c, &mut acc)?;
                }
                let else_branch = match else_branch {
                    None => None,
                    Some(Else::Block(b)) => Some(Else::Block(self.instrument(b)?)),
                    // the nested condition is evaluated on the else path only
                    Some(Else::If(nested)) => Some(Else::Block(self.instrument(vec![*nested])?)),
                };
                StmtKind::If {
                    cond,
                    then_branch: self.instrument(then_branch)?,
                    else_branch,
                }
            }
            StmtKind::While {
                cond,
                invariants,
                body,
            } => {
                let mut cacc = Vec::new();
                if let Some(c) = &cond {
                    self.reads(c, &mut cacc)?;
                }
                let body = self.instrument(body)?;
                let (cond, body) = match cond {
                    Some(c) if !cacc.is_empty() => {
                        // the condition is evaluated at every iteration: `while (true) { if (!c)
                        // break; … }` with the condition's accesses instrumented
                        let mut head = Vec::new();
                        self.announce(cacc, span, &mut head);
                        head.push(if_(
                            not(c, span),
                            vec![stmt(StmtKind::Break(None), span)],
                            Vec::new(),
                            span,
                        ));
                        head.extend(body);
                        (Some(boolean(true, span)), head)
                    }
                    c => (c, body),
                };
                StmtKind::While {
                    cond,
                    invariants,
                    body,
                }
            }
            StmtKind::Atomic(b) => StmtKind::Atomic(self.instrument(b)?),
        };
        self.announce(acc, span, out);
        out.push(Stmt { kind, span });
        self.announce(post, span, out);
        Ok(())
    }

    /// Announces the accesses `acc` and checks them (see the module comment). The accesses of
    /// one statement to one location are merged: the location is announced when any of them
    /// happens, as written when a write happens.
    fn announce(&self, acc: Vec<Access>, span: Span, out: &mut Vec<Stmt>) {
        let mut groups: Vec<Vec<Access>> = Vec::new();
        for a in acc {
            match groups
                .iter_mut()
                .find(|g| g[0].race == a.race && g[0].idx == a.idx && g[0].row == a.row)
            {
                Some(g) => g.push(a),
                None => groups.push(vec![a]),
            }
        }
        if groups.is_empty() {
            return;
        }
        // `None`: no access; `Some(None)`: always; `Some(Some(g))`: when `g` holds
        let when = |accs: &[&Access]| -> Option<Option<Expr>> {
            if accs.is_empty() {
                return None;
            }
            let mut g: Option<Expr> = None;
            for a in accs {
                let Some(x) = &a.guard else {
                    return Some(None);
                };
                g = Some(match g {
                    None => x.clone(),
                    Some(y) => bin(BinOp::Or, y, x.clone(), span),
                });
            }
            Some(g)
        };
        let fresh = var(&self.value, span);
        if groups.iter().flatten().any(|a| a.write) {
            out.push(havoc(&self.value, span));
        }
        let mut checks: Option<Expr> = None;
        for g in groups {
            let all: Vec<&Access> = g.iter().collect();
            let writes: Vec<&Access> = g.iter().filter(|a| a.write).collect();
            let Some(guard) = when(&all) else { continue };
            let value = match when(&writes) {
                None => int(0, span),
                Some(None) => fresh.clone(),
                Some(Some(w)) => ite(w, fresh.clone(), int(0, span), span),
            };
            let (race, idx) = (&g[0].race, &g[0].idx);
            if g[0].row {
                // rows are only written, unconditionally (see `write_var`)
                let row = ex(
                    ExprKind::Call(ident(&self.const_map, span), vec![value]),
                    span,
                );
                out.push(assign(lhs(race, idx.clone(), span), row, span));
                continue;
            }
            let mut cell = var(race, span);
            for i in idx {
                cell = ex(ExprKind::Select(Box::new(cell), vec![i.clone()]), span);
            }
            let new = match &guard {
                None => value.clone(),
                Some(c) => ite(c.clone(), value.clone(), cell.clone(), span),
            };
            out.push(assign(lhs(race, idx.clone(), span), new, span));
            let mut eq = bin(BinOp::Eq, cell, value, span);
            if let Some(c) = guard {
                eq = bin(BinOp::Implies, c, eq, span);
            }
            checks = Some(match checks {
                None => eq,
                Some(c) => bin(BinOp::And, c, eq, span),
            });
        }
        if let Some(c) = checks {
            out.push(assert(c, span));
        }
    }

    fn lhs(&self, l: &Lhs, acc: &mut Vec<Access>) -> Result<(), Error> {
        let mut idx = Vec::new();
        for s in &l.selectors {
            match s {
                Selector::Index(es) => {
                    for e in es {
                        self.reads(e, acc)?;
                        idx.push(e.clone());
                    }
                }
                Selector::Field(_) => {
                    if self.vars.contains_key(&l.base.name) {
                        return Err(("a field of a shared variable".into(), l.span));
                    }
                }
            }
        }
        self.write_var(&l.base.name, &idx, l.span, acc)
    }

    fn write_var(
        &self,
        name: &str,
        idx: &[Expr],
        span: Span,
        acc: &mut Vec<Access>,
    ) -> Result<(), Error> {
        let Some((race, dims)) = self.vars.get(name) else {
            return Ok(());
        };
        if idx.len() > *dims || (idx.len() < *dims && idx.len() + 1 != *dims) {
            return Err((format!("a write of `{name}` as a whole"), span));
        }
        acc.push(Access {
            race: race.clone(),
            idx: idx.to_vec(),
            write: true,
            row: idx.len() < *dims,
            guard: None,
        });
        Ok(())
    }

    /// The shared locations `e` reads.
    fn reads(&self, e: &Expr, acc: &mut Vec<Access>) -> Result<(), Error> {
        self.reads_if(e, None, acc)
    }

    /// The shared locations `e` reads when `guard` holds.
    fn reads_if(&self, e: &Expr, guard: Option<&Expr>, acc: &mut Vec<Access>) -> Result<(), Error> {
        let read = |race: &str, idx: Vec<Expr>| Access {
            race: race.to_string(),
            idx,
            write: false,
            row: false,
            guard: guard.cloned(),
        };
        match &e.kind {
            ExprKind::Var(id) => {
                if let Some((race, dims)) = self.vars.get(&id.name) {
                    if *dims != 0 {
                        return Err((format!("a read of `{}` as a whole", id.name), e.span));
                    }
                    acc.push(read(race, Vec::new()));
                }
                Ok(())
            }
            ExprKind::Select(..) => {
                // peel the chain of selects down to its root
                let mut chain: Vec<&Vec<Expr>> = Vec::new();
                let mut root = e;
                while let ExprKind::Select(m, is) = &root.kind {
                    chain.push(is);
                    root = m;
                }
                for is in &chain {
                    for i in is.iter() {
                        self.reads_if(i, guard, acc)?;
                    }
                }
                match &root.kind {
                    ExprKind::Var(id) if self.vars.contains_key(&id.name) => {
                        let (race, dims) = &self.vars[&id.name];
                        let idx: Vec<Expr> =
                            chain.iter().rev().flat_map(|v| v.iter().cloned()).collect();
                        if idx.len() != *dims {
                            return Err((format!("a read of `{}` as a whole", id.name), e.span));
                        }
                        acc.push(read(race, idx));
                        Ok(())
                    }
                    _ => self.reads_if(root, guard, acc),
                }
            }
            ExprKind::BoolLit(_)
            | ExprKind::IntLit(_)
            | ExprKind::RealLit(_)
            | ExprKind::BvLit { .. }
            | ExprKind::FloatLit(_) => Ok(()),
            ExprKind::Old(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Coerce(x, _)
            | ExprKind::Extract { expr: x, .. }
            | ExprKind::Field(x, _) => self.reads_if(x, guard, acc),
            ExprKind::Binary(op, a, b) => {
                self.reads_if(a, guard, acc)?;
                // the right operand of a short-circuit operator is evaluated only sometimes
                let when = match op {
                    BinOp::And | BinOp::Implies => Some((**a).clone()),
                    BinOp::Or => Some(not((**a).clone(), e.span)),
                    _ => None,
                };
                match when {
                    None => self.reads_if(b, guard, acc),
                    Some(w) => {
                        let g = conj(guard, w, e.span);
                        self.reads_if(b, Some(&g), acc)
                    }
                }
            }
            ExprKind::Store(m, is, v) => {
                if let ExprKind::Var(id) = &m.kind {
                    if self.vars.contains_key(&id.name) {
                        return Err((format!("an update of `{}` as a whole", id.name), e.span));
                    }
                }
                self.reads_if(m, guard, acc)?;
                for i in is {
                    self.reads_if(i, guard, acc)?;
                }
                self.reads_if(v, guard, acc)
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    self.reads_if(a, guard, acc)?;
                }
                Ok(())
            }
            ExprKind::IfThenElse(c, t, f) => {
                self.reads_if(c, guard, acc)?;
                let gt = conj(guard, (**c).clone(), e.span);
                self.reads_if(t, Some(&gt), acc)?;
                let gf = conj(guard, not((**c).clone(), e.span), e.span);
                self.reads_if(f, Some(&gf), acc)
            }
            ExprKind::Quant { body, .. } => self.reads_if(body, guard, acc),
            ExprKind::Record(fs) => {
                for (_, x) in fs {
                    self.reads_if(x, guard, acc)?;
                }
                Ok(())
            }
        }
    }
}

/// `guard && c`.
fn conj(guard: Option<&Expr>, c: Expr, span: Span) -> Expr {
    match guard {
        None => c,
        Some(g) => bin(BinOp::And, g.clone(), c, span),
    }
}
