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

/// A constant in Boogie syntax: reals as decimal literals (`999.5`, `-0.25`) when the expansion is
/// finite, else as a quotient of decimal literals (`(1.0 / 3.0)`).
/// `n` letters, in words: "1 letter", "3 letters".
pub fn letters(n: usize) -> String {
    if n == 1 {
        "1 letter".into()
    } else {
        format!("{n} letters")
    }
}

pub fn value(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Real(r) => real(r),
        Value::BitVec(b, w) => format!("{b}bv{w}"),
    }
}

fn real(r: &num_rational::BigRational) -> String {
    use num_traits::{Signed, Zero};
    let sign = if r.is_negative() { "-" } else { "" };
    let (n, d) = (r.numer().abs(), r.denom().clone());
    // d = 2^a 5^b has a finite expansion with max(a, b) digits
    let (mut rest, mut digits) = (d.clone(), 0u32);
    let two = num_bigint::BigInt::from(2);
    let five = num_bigint::BigInt::from(5);
    let (mut twos, mut fives) = (0u32, 0u32);
    while (&rest % &two).is_zero() {
        rest /= &two;
        twos += 1;
    }
    while (&rest % &five).is_zero() {
        rest /= &five;
        fives += 1;
    }
    if rest == num_bigint::BigInt::from(1) {
        digits = digits.max(twos).max(fives);
        let scaled = &n * num_bigint::BigInt::from(10).pow(digits) / &d;
        let text = scaled.to_string();
        let (int, frac) = if digits == 0 {
            (text, "0".to_string())
        } else {
            let width = digits as usize + 1;
            let padded = format!("{text:0>width$}");
            let (i, f) = padded.split_at(padded.len() - digits as usize);
            (i.to_string(), f.to_string())
        };
        return format!("{sign}{int}.{frac}");
    }
    format!("({sign}{n}.0 / {d}.0)")
}

/// `t` with each program variable renamed to its source name (as [`term`] prints it): a term a
/// consumer outside the engine (a witness, a second solver) can read without the vocabulary.
pub fn source_term(voc: &Vocabulary, t: &Term) -> Term {
    let map: std::collections::HashMap<crate::smt::Var, Term> = t
        .free_vars()
        .into_iter()
        .filter_map(|v| {
            let (x, post) = voc.lookup(&v)?;
            let name = voc.display_name(x) + if post { "'" } else { "" };
            let renamed = crate::smt::Var::new(name, v.sort.clone());
            Some((v, Term::var(&renamed)))
        })
        .collect();
    if map.is_empty() {
        t.clone()
    } else {
        t.substitute(&map)
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
        TermKind::Const(v) => s.push_str(&value(v)),
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
        TermKind::App(op, args) if is_relation(op) && args.len() == 2 => {
            // `x + -n <= 0` is shown as `x <= n`: negative summands move to the other side.
            let (mut lhs, mut rhs) = (Vec::new(), Vec::new());
            split_summands(&args[0], true, &mut lhs, &mut rhs);
            split_summands(&args[1], false, &mut lhs, &mut rhs);
            let show = |side: &[Term]| -> Term {
                match side.len() {
                    0 => Term::int(0),
                    1 => side[0].clone(),
                    _ => Term::mk_raw(Op::Add, side.to_vec()),
                }
            };
            let (l, r) = (show(&lhs), show(&rhs));
            // Put a lone constant on the right: `0 <= n` becomes `n >= 0`.
            let (op, l, r) = if lhs.is_empty() || (l.as_const().is_some() && r.as_const().is_none())
            {
                (flip(op), r, l)
            } else {
                (op.clone(), l, r)
            };
            let p = prec(&op);
            let paren = p < outer;
            if paren {
                s.push('(');
            }
            write(voc, &l, p + 1, s);
            s.push_str(match op {
                Op::Le => " <= ",
                Op::Lt => " < ",
                Op::Ge => " >= ",
                Op::Gt => " > ",
                _ => " == ",
            });
            write(voc, &r, p + 1, s);
            if paren {
                s.push(')');
            }
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
                // Ultimate's dialect has no `div`/`mod` keywords: `/` and `%` on int are SMT's.
                Op::IntDiv => Some(" / "),
                Op::Mod => Some(" % "),
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
                Op::Select if args.len() == 2 => {
                    // Curried maps print as `m[i][j]` (Boogie's `m[i, j]` for `[int, int]` maps).
                    write(voc, &args[0], 8, s);
                    s.push('[');
                    write(voc, &args[1], 0, s);
                    s.push(']');
                }
                Op::Store if args.len() == 3 => {
                    write(voc, &args[0], 8, s);
                    s.push('[');
                    write(voc, &args[1], 0, s);
                    s.push_str(" := ");
                    write(voc, &args[2], 0, s);
                    s.push(']');
                }
                Op::ConstArray(_) if args.len() == 1 => {
                    // No Boogie literal exists: the constant map is written as a lambda.
                    s.push_str("(lambda _: ");
                    if let crate::smt::Sort::Array(i, _) = t.sort_ref() {
                        s.push_str(&boogie_sort(i));
                    }
                    s.push_str(" :: ");
                    write(voc, &args[0], 0, s);
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

/// A sort in Boogie syntax (curried arrays as nested maps).
pub fn boogie_sort(s: &crate::smt::Sort) -> String {
    use crate::smt::Sort;
    match s {
        Sort::Int => "int".into(),
        Sort::Bool => "bool".into(),
        Sort::Real => "real".into(),
        Sort::BitVec(w) => format!("bv{w}"),
        Sort::Array(i, e) => format!("[{}]{}", boogie_sort(i), boogie_sort(e)),
        other => other.to_string(),
    }
}

fn is_relation(op: &Op) -> bool {
    matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq)
}

fn flip(op: &Op) -> Op {
    match op {
        Op::Le => Op::Ge,
        Op::Lt => Op::Gt,
        Op::Ge => Op::Le,
        Op::Gt => Op::Lt,
        o => o.clone(),
    }
}

/// Splits an integer sum into summands for the left side (`positive` as written) and the right side
/// (negated); zero constants are dropped.
fn split_summands(t: &Term, left: bool, lhs: &mut Vec<Term>, rhs: &mut Vec<Term>) {
    if t.sort() != crate::smt::Sort::Int {
        if left {
            lhs.push(t.clone())
        } else {
            rhs.push(t.clone())
        }
        return;
    }
    let parts: Vec<Term> = if t.is_app_of(&Op::Add) {
        t.args().to_vec()
    } else {
        vec![t.clone()]
    };
    for part in parts {
        let (negated, magnitude) = negative_part(&part);
        if let Some(Value::Int(i)) = magnitude.as_const() {
            if i == &num_bigint::BigInt::from(0) {
                continue;
            }
        }
        let goes_left = left != negated;
        if goes_left {
            lhs.push(magnitude)
        } else {
            rhs.push(magnitude)
        }
    }
}

/// `(true, m)` if `t` is `-m`, `c * m` with `c < 0`, or a negative constant.
fn negative_part(t: &Term) -> (bool, Term) {
    use num_traits::Signed;
    if let Some(Value::Int(i)) = t.as_const() {
        return (i.is_negative(), Term::int(i.abs()));
    }
    if t.is_app_of(&Op::Neg) {
        return (true, t.args()[0].clone());
    }
    if t.is_app_of(&Op::Mul) {
        if let Some(Value::Int(c)) = t.args().first().and_then(|a| a.as_const()) {
            if c.is_negative() {
                let c = c.abs();
                let rest: Vec<Term> = t.args()[1..].to_vec();
                let m = if c == num_bigint::BigInt::from(1) {
                    if rest.len() == 1 {
                        rest[0].clone()
                    } else {
                        Term::mk_raw(Op::Mul, rest)
                    }
                } else {
                    let mut v = vec![Term::int(c)];
                    v.extend(rest);
                    Term::mk_raw(Op::Mul, v)
                };
                return (true, m);
            }
        }
    }
    (false, t.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn q(n: i64, d: i64) -> Value {
        Value::Real(BigRational::new(n.into(), d.into()))
    }

    #[test]
    fn reals_print_as_boogie_literals() {
        assert_eq!(value(&q(1999, 2)), "999.5");
        assert_eq!(value(&q(-1, 4)), "-0.25");
        assert_eq!(value(&q(3, 1)), "3.0");
        assert_eq!(value(&q(0, 1)), "0.0");
        assert_eq!(value(&q(-7, 1)), "-7.0");
        assert_eq!(value(&q(1, 100000)), "0.00001");
        assert_eq!(value(&q(1, 3)), "(1.0 / 3.0)");
        assert_eq!(value(&q(-2, 3)), "(-2.0 / 3.0)");
    }
}
