//! Small constructors used by the actions of the LALRPOP grammar (`grammar/boogie.lalrpop`).

use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::{Attribute, BinOp, Expr, ExprKind, Ident, Type, TypedIdents};

/// An `&&`/`||` chain under construction: the expression and, if it is an unparenthesized chain, its
/// operator and the span of that operator.
pub struct Chain {
    pub expr: Expr,
    pub op: Option<(BinOp, Span)>,
}

/// A trigger `{e, …}` or an attribute `{:name …}` of a quantifier.
pub enum TrigOrAttr {
    Trigger(Vec<Expr>),
    Attr(Attribute),
}

pub fn bin(op: BinOp, a: Expr, b: Expr, l: usize, r: usize) -> Expr {
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span: Span::new(l, r),
    }
}

/// Builds `a op b` where `b` is the rest of an `&&`/`||` chain, reporting a mix of the two operators.
pub fn and_or(
    errors: &mut Vec<Diagnostic>,
    op: BinOp,
    op_span: Span,
    a: Expr,
    b: Chain,
    l: usize,
    r: usize,
) -> Chain {
    if let Some((other, other_span)) = b.op
        && other != op
    {
        let name = |o: BinOp| if o == BinOp::And { "&&" } else { "||" };
        errors.push(
            Diagnostic::error(
                crate::syntax::codes::AND_OR_MIX,
                format!(
                    "`{}` and `{}` mixed without parentheses",
                    name(op),
                    name(other)
                ),
                op_span,
                format!("`{}` used here", name(op)),
            )
            .with_secondary(other_span, format!("`{}` used here", name(other)))
            .with_help("`&&` and `||` cannot be mixed without parentheses"),
        );
    }
    Chain {
        expr: bin(op, a, b.expr, l, r),
        op: Some((op, op_span)),
    }
}

/// The value of a bound of a bit-vector extract `e[hi:lo]`.
pub fn extract_bound(errors: &mut Vec<Diagnostic>, digits: &str, span: Span) -> u32 {
    match digits.parse::<u32>() {
        Ok(v) => v,
        Err(_) => {
            errors.push(Diagnostic::error(
                crate::syntax::codes::BAD_EXTRACT,
                "bit-vector extract bound is too large",
                span,
                "does not fit in 32 bits",
            ));
            0
        }
    }
}

/// `5bv32` → `BvLit { value: "5", width: 32 }` (the lexer has validated the width).
pub fn bv_lit(s: &str) -> ExprKind {
    let (value, width) = s.split_once("bv").unwrap_or((s, "0"));
    ExprKind::BvLit {
        value: value.to_string(),
        width: width.parse().unwrap_or(0),
    }
}

/// Flattens `{a, b: T, c: U}` into one `(name, type)` pair per field.
pub fn record_fields(groups: Vec<TypedIdents>) -> Vec<(Ident, Type)> {
    let mut out = Vec::new();
    for g in groups {
        for n in g.names {
            out.push((n, g.ty.clone()));
        }
    }
    out
}

pub fn cons(t: Type, rest: Option<Vec<Type>>) -> Vec<Type> {
    let mut v = vec![t];
    v.extend(rest.unwrap_or_default());
    v
}

pub fn split_trig_attrs(items: Vec<TrigOrAttr>) -> (Vec<Attribute>, Vec<Vec<Expr>>) {
    let mut attrs = Vec::new();
    let mut triggers = Vec::new();
    for it in items {
        match it {
            TrigOrAttr::Trigger(t) => triggers.push(t),
            TrigOrAttr::Attr(a) => attrs.push(a),
        }
    }
    (attrs, triggers)
}
