//! Prints a parse tree (`ast::Program`) as Boogie text that [`super::parse`] reads back
//! (`verify --emit-ir`). Expressions are fully parenthesised, so no precedence is lost.

use super::ast::*;
use std::fmt::Write;

/// The program as Boogie text.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    for d in &p.decls {
        decl(&mut out, d);
        out.push('\n');
    }
    out
}

fn attrs(out: &mut String, a: &[Attribute]) {
    for at in a {
        let _ = write!(out, "{{:{}", at.name.name);
        for (i, arg) in at.args.iter().enumerate() {
            out.push_str(if i == 0 { " " } else { ", " });
            match arg {
                AttrArg::Expr(e) => out.push_str(&expr(e)),
                AttrArg::Str(s) => {
                    let _ = write!(out, "\"{s}\"");
                }
            }
        }
        out.push_str("} ");
    }
}

fn names(ids: &[Ident]) -> String {
    ids.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn typed_idents(ts: &[TypedIdents]) -> String {
    ts.iter()
        .map(|t| {
            let mut s = format!("{}: {}", names(&t.names), ty(&t.ty));
            if let Some(w) = &t.where_clause {
                let _ = write!(s, " where {}", expr(w));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn decl(out: &mut String, d: &Decl) {
    match d {
        Decl::Type(t) => {
            out.push_str("type ");
            attrs(out, &t.attrs);
            if t.finite {
                out.push_str("finite ");
            }
            out.push_str(&t.name.name);
            for p in &t.params {
                let _ = write!(out, " {}", p.name);
            }
            if let Some(s) = &t.synonym {
                let _ = write!(out, " = {}", ty(s));
            }
            out.push_str(";\n");
        }
        Decl::Const(c) => {
            out.push_str("const ");
            attrs(out, &c.attrs);
            if c.unique {
                out.push_str("unique ");
            }
            let _ = write!(out, "{}: {}", names(&c.names), ty(&c.ty));
            if let Some(ps) = &c.parents {
                out.push_str(" <:");
                let list: Vec<String> = ps
                    .iter()
                    .map(|(u, p)| format!("{}{}", if *u { "unique " } else { "" }, p.name))
                    .collect();
                let _ = write!(out, " {}", list.join(", "));
            }
            if c.complete {
                out.push_str(" complete");
            }
            out.push_str(";\n");
        }
        Decl::Function(f) => {
            out.push_str("function ");
            attrs(out, &f.attrs);
            let _ = write!(out, "{}{}(", f.name.name, type_params(&f.type_params));
            let args: Vec<String> = f.params.iter().map(fun_arg).collect();
            let _ = write!(out, "{}) returns ({})", args.join(", "), fun_arg(&f.result));
            match &f.body {
                Some(b) => {
                    let _ = writeln!(out, " {{ {} }}", expr(b));
                }
                None => out.push_str(";\n"),
            }
        }
        Decl::Axiom(a) => {
            out.push_str("axiom ");
            attrs(out, &a.attrs);
            let _ = writeln!(out, "{};", expr(&a.expr));
        }
        Decl::Var(v) => {
            out.push_str("var ");
            attrs(out, &v.attrs);
            let _ = writeln!(out, "{};", typed_idents(&v.vars));
        }
        Decl::Procedure(p) => {
            out.push_str("procedure ");
            attrs(out, &p.attrs);
            let _ = write!(
                out,
                "{}{}({})",
                p.name.name,
                type_params(&p.type_params),
                typed_idents(&p.params)
            );
            if !p.returns.is_empty() {
                let _ = write!(out, " returns ({})", typed_idents(&p.returns));
            }
            if p.body.is_none() {
                out.push(';');
            }
            out.push('\n');
            for s in &p.specs {
                out.push_str("  ");
                if s.free {
                    out.push_str("free ");
                }
                match &s.kind {
                    SpecKind::Requires(e) => {
                        let _ = writeln!(out, "requires {};", expr(e));
                    }
                    SpecKind::Ensures(e) => {
                        let _ = writeln!(out, "ensures {};", expr(e));
                    }
                    SpecKind::Modifies(ids) => {
                        let _ = writeln!(out, "modifies {};", names(ids));
                    }
                }
            }
            if let Some(b) = &p.body {
                body(out, b);
            }
        }
        Decl::Implementation(i) => {
            out.push_str("implementation ");
            attrs(out, &i.attrs);
            let _ = write!(
                out,
                "{}{}({})",
                i.name.name,
                type_params(&i.type_params),
                typed_idents(&i.params)
            );
            if !i.returns.is_empty() {
                let _ = write!(out, " returns ({})", typed_idents(&i.returns));
            }
            out.push('\n');
            body(out, &i.body);
        }
    }
}

fn type_params(ps: &[Ident]) -> String {
    if ps.is_empty() {
        String::new()
    } else {
        format!("<{}>", names(ps))
    }
}

fn fun_arg(a: &FunArg) -> String {
    match &a.name {
        Some(n) => format!("{}: {}", n.name, ty(&a.ty)),
        None => ty(&a.ty),
    }
}

fn body(out: &mut String, b: &Body) {
    out.push_str("{\n");
    for l in &b.locals {
        out.push_str("  var ");
        attrs(out, &l.attrs);
        let _ = writeln!(out, "{};", typed_idents(&l.vars));
    }
    stmts(out, &b.stmts, 1);
    out.push_str("}\n");
}

/// Types; a map type in argument or result position is parenthesised where needed.
pub fn ty(t: &Type) -> String {
    match &t.kind {
        TypeKind::Bool => "bool".into(),
        TypeKind::Int => "int".into(),
        TypeKind::Real => "real".into(),
        TypeKind::BitVec(n) => format!("bv{n}"),
        TypeKind::Named(n, args) => {
            if args.is_empty() {
                n.name.clone()
            } else {
                let a: Vec<String> = args
                    .iter()
                    .map(|x| match x.kind {
                        TypeKind::Named(_, ref xs) if !xs.is_empty() => format!("({})", ty(x)),
                        TypeKind::Map { .. } => format!("({})", ty(x)),
                        _ => ty(x),
                    })
                    .collect();
                format!("{} {}", n.name, a.join(" "))
            }
        }
        TypeKind::Map {
            type_params: tp,
            args,
            result,
        } => {
            let a: Vec<String> = args.iter().map(ty).collect();
            format!("{}[{}]{}", type_params(tp), a.join(", "), ty(result))
        }
        TypeKind::Record(fields) => {
            let f: Vec<String> = fields
                .iter()
                .map(|(n, t)| format!("{}: {}", n.name, ty(t)))
                .collect();
            format!("{{ {} }}", f.join(", "))
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn stmts(out: &mut String, ss: &[Stmt], depth: usize) {
    for s in ss {
        stmt(out, s, depth);
    }
}

fn stmt(out: &mut String, s: &Stmt, depth: usize) {
    indent(out, depth);
    match &s.kind {
        StmtKind::Label(l) => {
            let _ = writeln!(out, "{}:", l.name);
        }
        StmtKind::Assert { attrs: a, expr: e } => {
            out.push_str("assert ");
            attrs(out, a);
            let _ = writeln!(out, "{};", expr(e));
        }
        StmtKind::Assume { attrs: a, expr: e } => {
            out.push_str("assume ");
            attrs(out, a);
            let _ = writeln!(out, "{};", expr(e));
        }
        StmtKind::Havoc(ids) => {
            let _ = writeln!(out, "havoc {};", names(ids));
        }
        StmtKind::Assign { lhs, rhs } => {
            let l: Vec<String> = lhs.iter().map(lhs_text).collect();
            let r: Vec<String> = rhs.iter().map(expr).collect();
            let _ = writeln!(out, "{} := {};", l.join(", "), r.join(", "));
        }
        StmtKind::Call {
            attrs: a,
            forall,
            outs,
            proc,
            args,
        } => {
            out.push_str("call ");
            attrs(out, a);
            if *forall {
                out.push_str("forall ");
            }
            if !outs.is_empty() {
                let _ = write!(out, "{} := ", names(outs));
            }
            let a: Vec<String> = args
                .iter()
                .map(|x| x.as_ref().map_or("*".to_string(), expr))
                .collect();
            let _ = writeln!(out, "{}({});", proc.name, a.join(", "));
        }
        StmtKind::If {
            cond,
            then_branch,
            else_branch,
        } => {
            if_text(out, cond.as_ref(), then_branch, else_branch.as_ref(), depth);
            out.push('\n');
        }
        StmtKind::While {
            cond,
            invariants,
            body,
        } => {
            let _ = writeln!(
                out,
                "while ({})",
                cond.as_ref().map_or("*".to_string(), expr)
            );
            for inv in invariants {
                indent(out, depth + 1);
                if inv.free {
                    out.push_str("free ");
                }
                out.push_str("invariant ");
                attrs(out, &inv.attrs);
                let _ = writeln!(out, "{};", expr(&inv.expr));
            }
            indent(out, depth);
            out.push_str("{\n");
            stmts(out, body, depth + 1);
            indent(out, depth);
            out.push_str("}\n");
        }
        StmtKind::Atomic(body) => {
            out.push_str("atomic {\n");
            stmts(out, body, depth + 1);
            indent(out, depth);
            out.push_str("}\n");
        }
        StmtKind::Break(l) => match l {
            Some(l) => {
                let _ = writeln!(out, "break {};", l.name);
            }
            None => out.push_str("break;\n"),
        },
        StmtKind::Return => out.push_str("return;\n"),
        StmtKind::Goto(ls) => {
            let _ = writeln!(out, "goto {};", names(ls));
        }
        StmtKind::Fork { tid, proc, args } => {
            let t: Vec<String> = tid.iter().map(expr).collect();
            let a: Vec<String> = args.iter().map(expr).collect();
            let _ = writeln!(
                out,
                "fork {} {}({});",
                t.join(", "),
                proc.name,
                a.join(", ")
            );
        }
        StmtKind::Join { tid, assign } => {
            let t: Vec<String> = tid.iter().map(expr).collect();
            if assign.is_empty() {
                let _ = writeln!(out, "join {};", t.join(", "));
            } else {
                let _ = writeln!(out, "join {} assign {};", t.join(", "), names(assign));
            }
        }
    }
}

fn if_text(
    out: &mut String,
    cond: Option<&Expr>,
    then_branch: &[Stmt],
    else_branch: Option<&Else>,
    depth: usize,
) {
    let _ = writeln!(out, "if ({}) {{", cond.map_or("*".to_string(), expr));
    stmts(out, then_branch, depth + 1);
    indent(out, depth);
    out.push('}');
    match else_branch {
        None => {}
        Some(Else::Block(b)) => {
            out.push_str(" else {\n");
            stmts(out, b, depth + 1);
            indent(out, depth);
            out.push('}');
        }
        Some(Else::If(s)) => {
            out.push_str(" else ");
            if let StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } = &s.kind
            {
                if_text(out, cond.as_ref(), then_branch, else_branch.as_ref(), depth);
            }
        }
    }
}

fn lhs_text(l: &Lhs) -> String {
    let mut s = l.base.name.clone();
    for sel in &l.selectors {
        match sel {
            Selector::Index(ix) => {
                let i: Vec<String> = ix.iter().map(expr).collect();
                let _ = write!(s, "[{}]", i.join(", "));
            }
            Selector::Field(f) => {
                let _ = write!(s, "!{}", f.name);
            }
        }
    }
    s
}

/// An expression, parenthesised so that it reads back as the same tree.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::BoolLit(b) => b.to_string(),
        ExprKind::IntLit(s) | ExprKind::RealLit(s) | ExprKind::FloatLit(s) => s.clone(),
        ExprKind::BvLit { value, width } => format!("{value}bv{width}"),
        ExprKind::Var(v) => v.name.clone(),
        ExprKind::Old(x) => format!("old({})", expr(x)),
        ExprKind::Coerce(x, t) => format!("({} : {})", expr(x), ty(t)),
        ExprKind::Unary(op, x) => {
            let o = match op {
                UnOp::Not => "!",
                UnOp::Neg => "-",
                UnOp::ToInt => "int",
                UnOp::ToReal => "real",
            };
            format!("{o}({})", expr(x))
        }
        ExprKind::Binary(op, a, b) => {
            let o = match op {
                BinOp::Iff => "<==>",
                BinOp::Implies => "==>",
                BinOp::Explies => "<==",
                BinOp::And => "&&",
                BinOp::Or => "||",
                BinOp::Eq => "==",
                BinOp::Neq => "!=",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Gt => ">",
                BinOp::Ge => ">=",
                BinOp::Subtype => "<:",
                BinOp::Concat => "++",
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Mod => "%",
            };
            format!("({} {o} {})", expr(a), expr(b))
        }
        ExprKind::Select(m, ix) => {
            let i: Vec<String> = ix.iter().map(expr).collect();
            format!("{}[{}]", atom(m), i.join(", "))
        }
        ExprKind::Store(m, ix, v) => {
            let i: Vec<String> = ix.iter().map(expr).collect();
            format!("{}[{} := {}]", atom(m), i.join(", "), expr(v))
        }
        ExprKind::Extract { expr: x, hi, lo } => format!("{}[{hi}:{lo}]", atom(x)),
        ExprKind::Field(x, f) => format!("{}!{}", atom(x), f.name),
        ExprKind::Call(f, args) => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", f.name, a.join(", "))
        }
        ExprKind::IfThenElse(c, t, f) => {
            format!("(if {} then {} else {})", expr(c), expr(t), expr(f))
        }
        ExprKind::Quant {
            quantifier,
            type_params: tp,
            vars,
            attrs: a,
            triggers,
            body,
        } => {
            let q = match quantifier {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
                Quantifier::Lambda => "lambda",
            };
            let mut s = format!("({q} {}{} :: ", type_params(tp), typed_idents(vars));
            attrs(&mut s, a);
            for t in triggers {
                let ts: Vec<String> = t.iter().map(expr).collect();
                let _ = write!(s, "{{ {} }} ", ts.join(", "));
            }
            let _ = write!(s, "{})", expr(body));
            s
        }
        ExprKind::Record(fields) => {
            let f: Vec<String> = fields
                .iter()
                .map(|(n, x)| format!("{}: {}", n.name, expr(x)))
                .collect();
            format!("{{ {} }}", f.join(", "))
        }
    }
}

fn atom(e: &Expr) -> String {
    match e.kind {
        ExprKind::Var(_)
        | ExprKind::Select(..)
        | ExprKind::Store(..)
        | ExprKind::Call(..)
        | ExprKind::Old(_)
        | ExprKind::IntLit(_)
        | ExprKind::BoolLit(_) => expr(e),
        _ => format!("({})", expr(e)),
    }
}
