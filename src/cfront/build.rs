//! Small constructors for the Boogie parse tree (`syntax::ast`) the translation builds.

use crate::diag::Span;
use crate::syntax::ast::{
    BinOp, Body, Else, Expr, ExprKind, Ident, Lhs, Selector, Stmt, StmtKind, Type, TypeKind,
    TypedIdents, UnOp,
};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

pub fn ident(name: &str, span: Span) -> Ident {
    Ident {
        name: name.to_string(),
        span,
    }
}

pub fn ex(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub fn lit(v: &BigInt, span: Span) -> Expr {
    if v.is_negative() {
        ex(
            ExprKind::Unary(
                UnOp::Neg,
                Box::new(ex(ExprKind::IntLit((-v).to_string()), span)),
            ),
            span,
        )
    } else {
        ex(ExprKind::IntLit(v.to_string()), span)
    }
}

pub fn int(v: i64, span: Span) -> Expr {
    lit(&BigInt::from(v), span)
}

pub fn boolean(v: bool, span: Span) -> Expr {
    ex(ExprKind::BoolLit(v), span)
}

/// The value of an integer literal (`5` or `-5`).
pub fn as_lit(e: &Expr) -> Option<BigInt> {
    match &e.kind {
        ExprKind::IntLit(s) => s.parse().ok(),
        ExprKind::Unary(UnOp::Neg, inner) => match &inner.kind {
            ExprKind::IntLit(s) => s.parse::<BigInt>().ok().map(|v| -v),
            _ => None,
        },
        _ => None,
    }
}

pub fn as_bool_lit(e: &Expr) -> Option<bool> {
    match e.kind {
        ExprKind::BoolLit(b) => Some(b),
        _ => None,
    }
}

pub fn var(name: &str, span: Span) -> Expr {
    ex(ExprKind::Var(ident(name, span)), span)
}

pub fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

pub fn not(e: Expr, span: Span) -> Expr {
    match e.kind {
        ExprKind::BoolLit(b) => boolean(!b, span),
        ExprKind::Unary(UnOp::Not, inner) => *inner,
        kind => ex(
            ExprKind::Unary(UnOp::Not, Box::new(Expr { kind, span: e.span })),
            span,
        ),
    }
}

pub fn neg(e: Expr, span: Span) -> Expr {
    match as_lit(&e) {
        Some(v) => lit(&-v, span),
        None => ex(ExprKind::Unary(UnOp::Neg, Box::new(e)), span),
    }
}

pub fn ite(c: Expr, t: Expr, e: Expr, span: Span) -> Expr {
    match as_bool_lit(&c) {
        Some(true) => t,
        Some(false) => e,
        None => ex(
            ExprKind::IfThenElse(Box::new(c), Box::new(t), Box::new(e)),
            span,
        ),
    }
}

/// `e mod m` for a positive literal modulus (SMT `mod`: the result lies in `0 .. m`).
pub fn modulo(e: Expr, m: &BigInt, span: Span) -> Expr {
    match (as_lit(&e), &e.kind) {
        (Some(v), _) => {
            let r = ((v % m) + m) % m;
            lit(&r, span)
        }
        // already in `[0, k)` with `k <= m`
        (None, ExprKind::Binary(BinOp::Mod, _, k))
            if as_lit(k).is_some_and(|k| k.is_positive() && k <= *m) =>
        {
            e
        }
        (None, _) => bin(BinOp::Mod, e, lit(m, span), span),
    }
}

/// `a op b` with both literals folded for `+`, `-`, `*`.
pub fn arith(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    if let (Some(x), Some(y)) = (as_lit(&a), as_lit(&b)) {
        let v = match op {
            BinOp::Add => Some(x + y),
            BinOp::Sub => Some(x - y),
            BinOp::Mul => Some(x * y),
            _ => None,
        };
        if let Some(v) = v {
            return lit(&v, span);
        }
    }
    if op == BinOp::Add && as_lit(&b).is_some_and(|v| v.is_zero()) {
        return a;
    }
    bin(op, a, b, span)
}

pub fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

pub fn assign(lhs: Lhs, rhs: Expr, span: Span) -> Stmt {
    stmt(
        StmtKind::Assign {
            lhs: vec![lhs],
            rhs: vec![rhs],
        },
        span,
    )
}

pub fn assign_var(name: &str, rhs: Expr, span: Span) -> Stmt {
    assign(lhs(name, Vec::new(), span), rhs, span)
}

pub fn lhs(base: &str, indices: Vec<Expr>, span: Span) -> Lhs {
    Lhs {
        base: ident(base, span),
        selectors: indices
            .into_iter()
            .map(|i| Selector::Index(vec![i]))
            .collect(),
        span,
    }
}

pub fn assume(e: Expr, span: Span) -> Stmt {
    stmt(
        StmtKind::Assume {
            attrs: Vec::new(),
            expr: e,
        },
        span,
    )
}

pub fn assert(e: Expr, span: Span) -> Stmt {
    stmt(
        StmtKind::Assert {
            attrs: Vec::new(),
            expr: e,
        },
        span,
    )
}

pub fn havoc(name: &str, span: Span) -> Stmt {
    stmt(StmtKind::Havoc(vec![ident(name, span)]), span)
}

pub fn label(name: &str, span: Span) -> Stmt {
    stmt(StmtKind::Label(ident(name, span)), span)
}

/// `call outs := proc(args);`
pub fn call(proc: &str, outs: Vec<Ident>, args: Vec<Option<Expr>>, span: Span) -> Stmt {
    stmt(
        StmtKind::Call {
            attrs: Vec::new(),
            forall: false,
            outs,
            proc: ident(proc, span),
            args,
        },
        span,
    )
}

pub fn goto(name: &str, span: Span) -> Stmt {
    stmt(StmtKind::Goto(vec![ident(name, span)]), span)
}

pub fn if_(c: Expr, then_branch: Vec<Stmt>, else_branch: Vec<Stmt>, span: Span) -> Stmt {
    stmt(
        StmtKind::If {
            cond: Some(c),
            then_branch,
            else_branch: (!else_branch.is_empty()).then_some(Else::Block(else_branch)),
        },
        span,
    )
}

pub fn ty(kind: TypeKind, span: Span) -> Type {
    Type { kind, span }
}

/// `int`, or `[int]…[int]int` for an array of `dims` dimensions.
pub fn int_map_type(dims: usize, span: Span) -> Type {
    let mut t = ty(TypeKind::Int, span);
    for _ in 0..dims {
        t = ty(
            TypeKind::Map {
                type_params: Vec::new(),
                args: vec![ty(TypeKind::Int, span)],
                result: Box::new(t),
            },
            span,
        );
    }
    t
}

pub fn typed(name: &str, t: Type, span: Span) -> TypedIdents {
    TypedIdents {
        names: vec![ident(name, span)],
        ty: t,
        where_clause: None,
        span,
    }
}

pub fn body(locals: Vec<crate::syntax::ast::VarDecl>, stmts: Vec<Stmt>, span: Span) -> Body {
    Body {
        locals,
        stmts,
        span,
        end: Span::new(span.end as usize, span.end as usize),
    }
}
