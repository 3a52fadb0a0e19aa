//! A guard against pathologically deep parse trees.
//!
//! The parser itself is table driven and never recurses, but every later phase (and even dropping the
//! tree) walks it recursively. [`too_deep`] measures the nesting depth of expressions, statements and
//! types *without* recursion, so that [`super::parse`] can reject absurd inputs such as a million nested
//! `!` with a diagnostic instead of overflowing the stack.

use crate::diag::Span;
use crate::syntax::ast::{
    AttrArg, Attribute, Body, Decl, Else, Expr, ExprKind, Lhs, Program, Selector, SpecKind, Stmt,
    StmtKind, Type, TypeKind, TypedIdents,
};

/// The maximal nesting depth accepted by [`super::parse`].
pub const MAX_DEPTH: usize = 5_000;

enum Node<'a> {
    E(&'a Expr),
    S(&'a Stmt),
    T(&'a Type),
}

struct Walker<'a> {
    stack: Vec<(Node<'a>, usize)>,
}

impl<'a> Walker<'a> {
    fn e(&mut self, e: &'a Expr, d: usize) {
        self.stack.push((Node::E(e), d));
    }
    fn t(&mut self, t: &'a Type, d: usize) {
        self.stack.push((Node::T(t), d));
    }
    fn stmts(&mut self, ss: &'a [Stmt], d: usize) {
        self.stack.extend(ss.iter().map(|s| (Node::S(s), d)));
    }
    fn attrs(&mut self, attrs: &'a [Attribute], d: usize) {
        for a in attrs {
            for arg in &a.args {
                if let AttrArg::Expr(e) = arg {
                    self.e(e, d);
                }
            }
        }
    }
    fn typed(&mut self, ts: &'a [TypedIdents], d: usize) {
        for t in ts {
            self.t(&t.ty, d);
            if let Some(w) = &t.where_clause {
                self.e(w, d);
            }
        }
    }
    fn lhs(&mut self, l: &'a Lhs, d: usize) {
        for s in &l.selectors {
            if let Selector::Index(es) = s {
                for e in es {
                    self.e(e, d);
                }
            }
        }
    }
    fn body(&mut self, b: &'a Body, d: usize) {
        for v in &b.locals {
            self.attrs(&v.attrs, d);
            self.typed(&v.vars, d);
        }
        self.stmts(&b.stmts, d);
    }

    fn expand(&mut self, node: Node<'a>, d: usize) {
        let c = d + 1;
        match node {
            Node::E(e) => match &e.kind {
                ExprKind::BoolLit(_)
                | ExprKind::IntLit(_)
                | ExprKind::RealLit(_)
                | ExprKind::BvLit { .. }
                | ExprKind::FloatLit(_)
                | ExprKind::Var(_) => {}
                ExprKind::Old(x)
                | ExprKind::Unary(_, x)
                | ExprKind::Coerce(x, _)
                | ExprKind::Field(x, _) => self.e(x, c),
                ExprKind::Extract { expr, .. } => self.e(expr, c),
                ExprKind::Binary(_, a, b) => {
                    self.e(a, c);
                    self.e(b, c);
                }
                ExprKind::Select(m, idx) => {
                    self.e(m, c);
                    idx.iter().for_each(|i| self.e(i, c));
                }
                ExprKind::Store(m, idx, v) => {
                    self.e(m, c);
                    idx.iter().for_each(|i| self.e(i, c));
                    self.e(v, c);
                }
                ExprKind::Call(_, args) => args.iter().for_each(|a| self.e(a, c)),
                ExprKind::IfThenElse(a, b, x) => {
                    self.e(a, c);
                    self.e(b, c);
                    self.e(x, c);
                }
                ExprKind::Quant {
                    vars,
                    attrs,
                    triggers,
                    body,
                    ..
                } => {
                    self.typed(vars, c);
                    self.attrs(attrs, c);
                    triggers.iter().flatten().for_each(|t| self.e(t, c));
                    self.e(body, c);
                }
                ExprKind::Record(fields) => fields.iter().for_each(|(_, x)| self.e(x, c)),
            },
            Node::T(t) => match &t.kind {
                TypeKind::Bool | TypeKind::Int | TypeKind::Real | TypeKind::BitVec(_) => {}
                TypeKind::Named(_, args) => args.iter().for_each(|a| self.t(a, c)),
                TypeKind::Map { args, result, .. } => {
                    args.iter().for_each(|a| self.t(a, c));
                    self.t(result, c);
                }
                TypeKind::Record(fields) => fields.iter().for_each(|(_, x)| self.t(x, c)),
            },
            Node::S(s) => match &s.kind {
                StmtKind::Label(_)
                | StmtKind::Havoc(_)
                | StmtKind::Break(_)
                | StmtKind::Return
                | StmtKind::Goto(_) => {}
                StmtKind::Assert { attrs, expr } | StmtKind::Assume { attrs, expr } => {
                    self.attrs(attrs, c);
                    self.e(expr, c);
                }
                StmtKind::Assign { lhs, rhs } => {
                    lhs.iter().for_each(|l| self.lhs(l, c));
                    rhs.iter().for_each(|r| self.e(r, c));
                }
                StmtKind::Call { attrs, args, .. } => {
                    self.attrs(attrs, c);
                    args.iter().flatten().for_each(|a| self.e(a, c));
                }
                StmtKind::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    if let Some(x) = cond {
                        self.e(x, c);
                    }
                    self.stmts(then_branch, c);
                    match else_branch {
                        Some(Else::Block(b)) => self.stmts(b, c),
                        Some(Else::If(i)) => self.stack.push((Node::S(i), c)),
                        None => {}
                    }
                }
                StmtKind::While {
                    cond,
                    invariants,
                    body,
                } => {
                    if let Some(x) = cond {
                        self.e(x, c);
                    }
                    for i in invariants {
                        self.attrs(&i.attrs, c);
                        self.e(&i.expr, c);
                    }
                    self.stmts(body, c);
                }
                StmtKind::Atomic(b) => self.stmts(b, c),
                StmtKind::Fork { tid, args, .. } => {
                    tid.iter().chain(args).for_each(|x| self.e(x, c))
                }
                StmtKind::Join { tid, .. } => tid.iter().for_each(|x| self.e(x, c)),
            },
        }
    }
}

fn span_of(node: &Node<'_>) -> Span {
    match node {
        Node::E(e) => e.span,
        Node::S(s) => s.span,
        Node::T(t) => t.span,
    }
}

/// The span of the first node found nested deeper than `limit`, if any. Iterative (no recursion).
pub fn too_deep(program: &Program, limit: usize) -> Option<Span> {
    let mut w = Walker { stack: Vec::new() };
    for d in &program.decls {
        match d {
            Decl::Type(t) => {
                w.attrs(&t.attrs, 0);
                if let Some(ty) = &t.synonym {
                    w.t(ty, 0);
                }
            }
            Decl::Const(c) => {
                w.attrs(&c.attrs, 0);
                w.t(&c.ty, 0);
            }
            Decl::Function(f) => {
                w.attrs(&f.attrs, 0);
                f.params.iter().for_each(|p| w.t(&p.ty, 0));
                w.t(&f.result.ty, 0);
                if let Some(b) = &f.body {
                    w.e(b, 0);
                }
            }
            Decl::Axiom(a) => {
                w.attrs(&a.attrs, 0);
                w.e(&a.expr, 0);
            }
            Decl::Var(v) => {
                w.attrs(&v.attrs, 0);
                w.typed(&v.vars, 0);
            }
            Decl::Procedure(p) => {
                w.attrs(&p.attrs, 0);
                w.typed(&p.params, 0);
                w.typed(&p.returns, 0);
                for s in &p.specs {
                    match &s.kind {
                        SpecKind::Requires(e) | SpecKind::Ensures(e) => w.e(e, 0),
                        SpecKind::Modifies(_) => {}
                    }
                }
                if let Some(b) = &p.body {
                    w.body(b, 0);
                }
            }
            Decl::Implementation(i) => {
                w.attrs(&i.attrs, 0);
                w.typed(&i.params, 0);
                w.typed(&i.returns, 0);
                w.body(&i.body, 0);
            }
        }
    }
    while let Some((node, d)) = w.stack.pop() {
        if d > limit {
            return Some(span_of(&node));
        }
        w.expand(node, d);
    }
    None
}
