//! Types of lowered expressions: [`Program::type_of`].
//!
//! The IR does not store a type on every node; this recomputes it bottom-up from the variable and
//! function tables. It relies on the IR invariant that expressions are well typed. Selects from
//! polymorphic maps are instantiated by matching the map's argument types against the index types.

use super::program::*;
use std::collections::HashMap;

impl Program {
    /// The type of a well-typed expression of this program.
    pub fn type_of(&self, e: &Expr) -> Type {
        match e {
            Expr::Bool(_) => Type::Bool,
            Expr::Int(_) => Type::Int,
            Expr::Real(_) => Type::Real,
            Expr::BitVec { width, .. } => Type::BitVec(*width),
            Expr::Float { ty, .. } => ty.clone(),
            Expr::Var(v) | Expr::Old(v) => self.var(*v).ty.clone(),
            Expr::Unary(UnOp::Not, _) => Type::Bool,
            Expr::Unary(UnOp::Neg, a) => self.type_of(a),
            Expr::Unary(UnOp::ToInt, _) => Type::Int,
            Expr::Unary(UnOp::ToReal, _) => Type::Real,
            Expr::Binary(op, a, b) => match op {
                BinOp::Iff
                | BinOp::Implies
                | BinOp::And
                | BinOp::Or
                | BinOp::Eq
                | BinOp::Neq
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Subtype => Type::Bool,
                BinOp::Add | BinOp::Sub | BinOp::Mul => self.type_of(a),
                BinOp::IntDiv | BinOp::Mod => Type::Int,
                BinOp::RealDiv => Type::Real,
                BinOp::Concat => match (self.type_of(a), self.type_of(b)) {
                    (Type::BitVec(n), Type::BitVec(m)) => Type::BitVec(n.saturating_add(m)),
                    (t, _) => t,
                },
            },
            Expr::Ite(_, a, _) => self.type_of(a),
            Expr::Select(m, idx) => match self.type_of(m) {
                Type::Map {
                    type_params,
                    args,
                    result,
                } => {
                    if type_params.is_empty() {
                        return *result;
                    }
                    let mut binding = HashMap::new();
                    for (formal, actual) in args.iter().zip(idx) {
                        bind(formal, &self.type_of(actual), &type_params, &mut binding);
                    }
                    instantiate(&result, &binding)
                }
                t => t,
            },
            Expr::Store(m, _, _) => self.type_of(m),
            Expr::Extract { hi, lo, .. } => Type::BitVec(hi.saturating_sub(*lo)),
            Expr::App {
                func, type_args, ..
            } => {
                let f = self.func(*func);
                let binding: HashMap<String, Type> = f
                    .type_params
                    .iter()
                    .cloned()
                    .zip(type_args.iter().cloned())
                    .collect();
                instantiate(&f.result, &binding)
            }
            Expr::Quant {
                quantifier: Quantifier::Lambda,
                vars,
                body,
                ..
            } => Type::Map {
                type_params: Vec::new(),
                args: vars.iter().map(|v| self.var(*v).ty.clone()).collect(),
                result: Box::new(self.type_of(body)),
            },
            Expr::Quant { .. } => Type::Bool,
            Expr::Field(r, f) => match self.type_of(r) {
                Type::Record(fs) => fs
                    .into_iter()
                    .find(|(n, _)| n == f)
                    .map(|(_, t)| t)
                    .unwrap_or(Type::Bool),
                t => t,
            },
            Expr::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(n, x)| (n.clone(), self.type_of(x)))
                    .collect(),
            ),
        }
    }
}

/// Matches `formal` (mentioning `params`) against `actual`, recording bindings.
pub(crate) fn bind(
    formal: &Type,
    actual: &Type,
    params: &[String],
    out: &mut HashMap<String, Type>,
) {
    match (formal, actual) {
        (Type::Param(p), _) if params.contains(p) => {
            out.entry(p.clone()).or_insert_with(|| actual.clone());
        }
        (
            Type::Map {
                args: a1,
                result: r1,
                ..
            },
            Type::Map {
                args: a2,
                result: r2,
                ..
            },
        ) => {
            for (x, y) in a1.iter().zip(a2) {
                bind(x, y, params, out);
            }
            bind(r1, r2, params, out);
        }
        (Type::Ctor(n1, a1), Type::Ctor(n2, a2)) if n1 == n2 => {
            for (x, y) in a1.iter().zip(a2) {
                bind(x, y, params, out);
            }
        }
        (Type::Record(f1), Type::Record(f2)) => {
            for ((_, x), (_, y)) in f1.iter().zip(f2) {
                bind(x, y, params, out);
            }
        }
        _ => {}
    }
}

/// Replaces bound type parameters (respecting map types that rebind a name).
fn instantiate(t: &Type, binding: &HashMap<String, Type>) -> Type {
    if binding.is_empty() {
        return t.clone();
    }
    super::typeck::subst_params(t, binding)
}
