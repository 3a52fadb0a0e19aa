//! Printing of lowered programs: Boogie-syntax pretty-printing of IR expressions and statements, and a
//! Graphviz rendering of all procedure CFGs.
//!
//! Output is deterministic: nodes and edges are printed in index order, procedures in table order.
//! Variables print by their source name (bound variables of different quantifiers may share a name; the
//! printer does not rename them).

use super::program::*;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use petgraph::visit::EdgeRef;
use std::fmt::{self, Write};

/// Displays an [`Expr`] in Boogie syntax (see [`Program::show_expr`]).
pub struct ExprDisplay<'a> {
    pub program: &'a Program,
    pub expr: &'a Expr,
}

/// Displays a [`Stmt`] in Boogie syntax (see [`Program::show_stmt`]).
pub struct StmtDisplay<'a> {
    pub program: &'a Program,
    pub stmt: &'a Stmt,
}

impl Program {
    /// A `Display` wrapper printing `e` in Boogie syntax with this program's names.
    pub fn show_expr<'a>(&'a self, e: &'a Expr) -> ExprDisplay<'a> {
        ExprDisplay {
            program: self,
            expr: e,
        }
    }

    /// A `Display` wrapper printing `s` in Boogie syntax with this program's names.
    pub fn show_stmt<'a>(&'a self, s: &'a Stmt) -> StmtDisplay<'a> {
        StmtDisplay {
            program: self,
            stmt: s,
        }
    }
}

/// `e` in Boogie syntax.
pub fn expr_to_string(p: &Program, e: &Expr) -> String {
    p.show_expr(e).to_string()
}

/// `s` in Boogie syntax (with the trailing `;`).
pub fn stmt_to_string(p: &Program, s: &Stmt) -> String {
    p.show_stmt(s).to_string()
}

impl fmt::Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self.program, self.expr, 0)
    }
}

impl fmt::Display for StmtDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.program;
        let name = |v: &VarId| p.var(*v).name.clone();
        let list = |f: &mut fmt::Formatter<'_>, es: &[Expr]| -> fmt::Result {
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write_expr(f, p, e, 0)?;
            }
            Ok(())
        };
        match self.stmt {
            Stmt::Assume(e) => {
                write!(f, "assume ")?;
                write_expr(f, p, e, 0)?;
                write!(f, ";")
            }
            Stmt::Assign(pairs) => {
                let lhs: Vec<String> = pairs.iter().map(|(v, _)| name(v)).collect();
                write!(f, "{} := ", lhs.join(", "))?;
                let rhs: Vec<Expr> = pairs.iter().map(|(_, e)| e.clone()).collect();
                list(f, &rhs)?;
                write!(f, ";")
            }
            Stmt::Havoc(vs) => {
                let ns: Vec<String> = vs.iter().map(name).collect();
                write!(f, "havoc {};", ns.join(", "))
            }
            Stmt::Call { callee, args, rets } => {
                write!(f, "call ")?;
                if !rets.is_empty() {
                    let ns: Vec<String> = rets.iter().map(name).collect();
                    write!(f, "{} := ", ns.join(", "))?;
                }
                write!(f, "{}(", p.proc(*callee).name)?;
                list(f, args)?;
                write!(f, ");")
            }
            Stmt::Fork { tid, callee, args } => {
                write!(f, "fork ")?;
                list(f, tid)?;
                write!(f, " {}(", p.proc(*callee).name)?;
                list(f, args)?;
                write!(f, ");")
            }
            Stmt::Join { tid, rets } => {
                write!(f, "join ")?;
                list(f, tid)?;
                if !rets.is_empty() {
                    let ns: Vec<String> = rets.iter().map(name).collect();
                    write!(f, " assign {}", ns.join(", "))?;
                }
                write!(f, ";")
            }
            Stmt::AtomicBegin => write!(f, "atomic_begin;"),
            Stmt::AtomicEnd => write!(f, "atomic_end;"),
            Stmt::Unsupported(why) => write!(f, "unsupported({why});"),
        }
    }
}

/// Binding strength of an expression's top operator (higher binds tighter).
fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Ite(..) => 0,
        Expr::Binary(op, ..) => match op {
            BinOp::Iff => 1,
            BinOp::Implies => 2,
            BinOp::And | BinOp::Or => 3,
            BinOp::Eq
            | BinOp::Neq
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Subtype => 4,
            BinOp::Concat => 5,
            BinOp::Add | BinOp::Sub => 6,
            BinOp::Mul | BinOp::IntDiv | BinOp::Mod | BinOp::RealDiv => 7,
        },
        Expr::Unary(..) => 8,
        Expr::Int(n) if n.is_negative() => 8,
        Expr::Real(r) if r.is_negative() => 8,
        _ => 10,
    }
}

fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Iff => "<==>",
        BinOp::Implies => "==>",
        BinOp::And => "&&",
        BinOp::Or => "||",
        BinOp::Eq => "==",
        BinOp::Neq => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::IntDiv => "/",
        BinOp::Mod => "%",
        BinOp::RealDiv => "/",
        BinOp::Concat => "++",
        BinOp::Subtype => "<:",
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, p: &Program, es: &[Expr]) -> fmt::Result {
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write_expr(f, p, e, 0)?;
    }
    Ok(())
}

/// Writes `e`, parenthesised if it binds looser than `min`.
fn write_expr(f: &mut fmt::Formatter<'_>, p: &Program, e: &Expr, min: u8) -> fmt::Result {
    let paren = prec(e) < min;
    if paren {
        write!(f, "(")?;
    }
    match e {
        Expr::Bool(b) => write!(f, "{b}")?,
        Expr::Int(n) => write!(f, "{n}")?,
        Expr::Real(r) => write!(f, "{}", real_to_string(r.numer(), r.denom()))?,
        Expr::BitVec { value, width } => write!(f, "{value}bv{width}")?,
        Expr::Float { text, .. } => write!(f, "{text}")?,
        Expr::Var(v) => write!(f, "{}", p.var(*v).name)?,
        Expr::Old(v) => write!(f, "old({})", p.var(*v).name)?,
        Expr::Unary(op @ (UnOp::ToInt | UnOp::ToReal), a) => {
            write!(f, "{}(", if *op == UnOp::ToInt { "int" } else { "real" })?;
            write_expr(f, p, a, 0)?;
            write!(f, ")")?;
        }
        Expr::Unary(op, a) => {
            write!(f, "{}", if *op == UnOp::Not { "!" } else { "-" })?;
            write_expr(f, p, a, 8)?;
        }
        Expr::Binary(op, a, b) => {
            let q = prec(e);
            let (lmin, rmin) = match op {
                BinOp::Implies => (q + 1, q),
                BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::IntDiv
                | BinOp::Mod
                | BinOp::RealDiv
                | BinOp::Concat => (q, q + 1),
                BinOp::And | BinOp::Or => {
                    let same = |x: &Expr| matches!(x, Expr::Binary(o, ..) if o == op);
                    (
                        if same(a) { q } else { q + 1 },
                        if same(b) { q } else { q + 1 },
                    )
                }
                _ => (q + 1, q + 1),
            };
            write_expr(f, p, a, lmin)?;
            write!(f, " {} ", op_str(*op))?;
            write_expr(f, p, b, rmin)?;
        }
        Expr::Ite(c, a, b) => {
            write!(f, "if ")?;
            write_expr(f, p, c, 0)?;
            write!(f, " then ")?;
            write_expr(f, p, a, 0)?;
            write!(f, " else ")?;
            write_expr(f, p, b, 0)?;
        }
        Expr::Select(m, idx) => {
            write_expr(f, p, m, 10)?;
            write!(f, "[")?;
            write_list(f, p, idx)?;
            write!(f, "]")?;
        }
        Expr::Store(m, idx, v) => {
            write_expr(f, p, m, 10)?;
            write!(f, "[")?;
            write_list(f, p, idx)?;
            write!(f, " := ")?;
            write_expr(f, p, v, 0)?;
            write!(f, "]")?;
        }
        Expr::Extract { expr, hi, lo } => {
            write_expr(f, p, expr, 10)?;
            write!(f, "[{hi}:{lo}]")?;
        }
        Expr::App { func, args, .. } => {
            write!(f, "{}(", p.func(*func).name)?;
            write_list(f, p, args)?;
            write!(f, ")")?;
        }
        Expr::Quant {
            quantifier,
            vars,
            triggers,
            body,
        } => {
            let q = match quantifier {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
                Quantifier::Lambda => "lambda",
            };
            write!(f, "({q} ")?;
            for (i, v) in vars.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                let var = p.var(*v);
                write!(f, "{}: {}", var.name, var.ty)?;
            }
            write!(f, " :: ")?;
            for t in triggers {
                write!(f, "{{ ")?;
                write_list(f, p, t)?;
                write!(f, " }} ")?;
            }
            write_expr(f, p, body, 0)?;
            write!(f, ")")?;
        }
        Expr::Field(a, name) => {
            write_expr(f, p, a, 10)?;
            write!(f, "!{name}")?;
        }
        Expr::Record(fs) => {
            write!(f, "{{ ")?;
            for (i, (n, x)) in fs.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{n}: ")?;
                write_expr(f, p, x, 0)?;
            }
            write!(f, " }}")?;
        }
    }
    if paren {
        write!(f, ")")?;
    }
    Ok(())
}

/// A real in Boogie syntax: `2.5`, `3.0`, or `(1.0 / 3.0)` when not a finite decimal.
fn real_to_string(n: &BigInt, d: &BigInt) -> String {
    if d.is_one() {
        return format!("{n}.0");
    }
    // Finite decimal iff d has only factors 2 and 5.
    let mut rest = d.clone();
    let mut digits = 0usize;
    let two = BigInt::from(2);
    let five = BigInt::from(5);
    let ten = BigInt::from(10);
    let mut scale = BigInt::one();
    while !rest.is_one() && digits < 1000 {
        if rest.is_multiple_of(&two) {
            rest /= &two;
        } else if rest.is_multiple_of(&five) {
            rest /= &five;
        } else {
            break;
        }
        digits += 1;
        scale *= &ten;
    }
    if rest.is_one() {
        // n/d = n * (scale/d) / scale
        let m = n * (&scale / d);
        let neg = m.is_negative();
        let s = m.abs().to_string();
        let s = if s.len() <= digits {
            format!("{}{s}", "0".repeat(digits - s.len() + 1))
        } else {
            s
        };
        let (i, fr) = s.split_at(s.len() - digits);
        let fr = fr.trim_end_matches('0');
        let fr = if fr.is_empty() { "0" } else { fr };
        format!("{}{i}.{fr}", if neg { "-" } else { "" })
    } else if n.is_zero() {
        "0.0".into()
    } else {
        format!("({n}.0 / {d}.0)")
    }
}

/// `s` with `"`, `\` and newlines backslash-escaped (the escapes DOT and YAML double-quoted
/// strings share).
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// Graphviz DOT of all procedure CFGs, one cluster per procedure with a body.
pub fn to_dot(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph program {{");
    let _ = writeln!(out, "  node [shape=circle, fontsize=10];");
    let _ = writeln!(out, "  edge [fontsize=10];");
    for (pi, proc) in p.procedures.iter().enumerate() {
        let Some(cfg) = &proc.body else { continue };
        let _ = writeln!(out, "  subgraph cluster_{pi} {{");
        let _ = writeln!(out, "    label=\"{}\";", escape(&proc.name));
        for n in cfg.graph.node_indices() {
            let loc = &cfg.graph[n];
            let mut label = format!("l{}", n.index());
            if let Some(l) = &loc.label {
                label = format!("{label} {}:", escape(l));
            }
            let style = match &loc.kind {
                LocKind::Entry => {
                    label = format!("entry\\n{label}");
                    "shape=doublecircle".to_string()
                }
                LocKind::Exit => {
                    label = format!("exit\\n{label}");
                    "shape=doublecircle".to_string()
                }
                LocKind::LoopHead => {
                    label = format!("loop\\n{label}");
                    "shape=circle, style=bold".to_string()
                }
                LocKind::Error(id) => {
                    let what = p
                        .errors
                        .get(id.0 as usize)
                        .map(|s| match s.kind {
                            ErrorKind::Assert => "assert",
                            ErrorKind::Requires { .. } => "requires",
                            ErrorKind::Ensures => "ensures",
                            ErrorKind::InvariantEntry => "inv-entry",
                            ErrorKind::InvariantMaintained => "inv-maintained",
                        })
                        .unwrap_or("error");
                    label = format!("error {}\\n{what}", id.0);
                    "shape=octagon, color=red, fontcolor=red".to_string()
                }
                LocKind::Plain => "shape=circle".to_string(),
            };
            let _ = writeln!(
                out,
                "    p{pi}_n{} [label=\"{}\", {style}];",
                n.index(),
                label
            );
        }
        let mut edges: Vec<_> = cfg.graph.edge_references().collect();
        edges.sort_by_key(|e| e.id().index());
        for e in edges {
            let text = stmt_to_string(p, &e.weight().stmt);
            let to_err = matches!(cfg.graph[e.target()].kind, LocKind::Error(_));
            let _ = writeln!(
                out,
                "    p{pi}_n{} -> p{pi}_n{} [label=\"{}\"{}];",
                e.source().index(),
                e.target().index(),
                escape(&text),
                if to_err { ", color=red" } else { "" }
            );
        }
        let _ = writeln!(out, "  }}");
    }
    let _ = writeln!(out, "}}");
    out
}

#[cfg(test)]
mod tests {
    use super::real_to_string;
    use num_bigint::BigInt;

    fn r(n: i64, d: i64) -> String {
        let q = num_rational::BigRational::new(BigInt::from(n), BigInt::from(d));
        real_to_string(q.numer(), q.denom())
    }

    #[test]
    fn reals_print_as_decimals_when_finite() {
        assert_eq!(r(3, 1), "3.0");
        assert_eq!(r(7, 2), "3.5");
        assert_eq!(r(-1, 8), "-0.125");
        assert_eq!(r(1, 100), "0.01");
        assert_eq!(r(1, 3), "(1.0 / 3.0)");
        assert_eq!(r(0, 1), "0.0");
    }
}
