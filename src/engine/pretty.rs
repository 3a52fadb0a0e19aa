//! Terms printed in Boogie syntax over source names (for proofs and counterexamples).

use super::transition::Vocabulary;
use crate::smt::{Op, Quantifier, Term, TermKind, Value};

/// Precedence levels as in Boogie (higher binds tighter).
fn prec(op: &Op) -> u8 {
    match op {
        Op::Implies => 1,
        Op::And | Op::Or => 2,
        Op::Eq | Op::Distinct | Op::Le | Op::Lt | Op::Ge | Op::Gt => 3,
        Op::Add | Op::Sub => 5,
        Op::Mul | Op::IntDiv | Op::Mod | Op::RealDiv => 6,
        Op::Not | Op::Neg => 7,
        _ => 8,
    }
}

/// `t` in Boogie syntax.
pub fn term(voc: &Vocabulary, t: &Term) -> String {
    let mut s = String::new();
    write(voc, t, 0, &mut s);
    s
}

fn write(voc: &Vocabulary, t: &Term, outer: u8, s: &mut String) {
    match t.kind() {
        TermKind::Const(v) => match v {
            Value::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => s.push_str(&i.to_string()),
            Value::Real(r) => s.push_str(&r.to_string()),
            Value::BitVec(b, w) => s.push_str(&format!("{b}bv{w}")),
        },
        TermKind::Var(v) => match voc.lookup(v) {
            Some((x, post)) => {
                s.push_str(&voc.display_name(x));
                if post {
                    s.push('\'');
                }
            }
            None => s.push_str(&v.name),
        },
        TermKind::Quant(q, vars, body) => {
            s.push('(');
            s.push_str(match q {
                Quantifier::Forall => "forall ",
                Quantifier::Exists => "exists ",
            });
            let names: Vec<String> = vars
                .iter()
                .map(|v| format!("{}: {}", v.name, v.sort))
                .collect();
            s.push_str(&names.join(", "));
            s.push_str(" :: ");
            write(voc, body, 0, s);
            s.push(')');
        }
        TermKind::App(op, args) => {
            let p = prec(op);
            let infix = match op {
                Op::Implies => Some(" ==> "),
                Op::And => Some(" && "),
                Op::Or => Some(" || "),
                Op::Eq => Some(
                    if args
                        .first()
                        .is_some_and(|a| a.sort() == crate::smt::Sort::Bool)
                    {
                        " <==> "
                    } else {
                        " == "
                    },
                ),
                Op::Distinct if args.len() == 2 => Some(" != "),
                Op::Le => Some(" <= "),
                Op::Lt => Some(" < "),
                Op::Ge => Some(" >= "),
                Op::Gt => Some(" > "),
                Op::Add => Some(" + "),
                Op::Sub => Some(" - "),
                Op::Mul => Some(" * "),
                Op::IntDiv => Some(" div "),
                Op::Mod => Some(" mod "),
                Op::RealDiv => Some(" / "),
                _ => None,
            };
            let paren = p < outer || (p == outer && p <= 3);
            if let Some(sep) = infix {
                if paren {
                    s.push('(');
                }
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(sep);
                    }
                    write(voc, a, p + 1, s);
                }
                if paren {
                    s.push(')');
                }
                return;
            }
            match op {
                Op::Not => {
                    s.push('!');
                    write(voc, &args[0], 8, s);
                }
                Op::Neg => {
                    s.push('-');
                    write(voc, &args[0], 8, s);
                }
                Op::Ite => {
                    s.push_str("(if ");
                    write(voc, &args[0], 0, s);
                    s.push_str(" then ");
                    write(voc, &args[1], 0, s);
                    s.push_str(" else ");
                    write(voc, &args[2], 0, s);
                    s.push(')');
                }
                _ => {
                    s.push_str(&format!("{op:?}").to_lowercase());
                    s.push('(');
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        write(voc, a, 0, s);
                    }
                    s.push(')');
                }
            }
        }
    }
}
