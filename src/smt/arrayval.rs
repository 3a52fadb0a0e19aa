//! Array values of a solver model, rendered for people: `[0 := 5, 3 := 1, else 0]`.
//!
//! Solvers write array values in several shapes: z3 `((as const (Array Int Int)) 0)`, `store` chains
//! over them, `(_ as-array k!0)` naming an auxiliary `define-fun` whose body is an `ite` chain over its
//! parameter, or `(lambda ((x Int)) …)`; yices writes store chains or functions. [`render`] understands
//! these shapes (nested arrays too), writes any other `lambda` as the solver wrote it, and returns
//! `None` for anything else, so that the caller can say honestly that it cannot print the value.

use super::sexp::SExp;
use std::collections::HashMap;

/// Auxiliary function definitions of a model: name → (parameter names, body).
pub type Defs<'a> = HashMap<&'a str, (Vec<&'a str>, &'a SExp)>;

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Scalar(String),
    Array {
        /// (index, value), later entries override earlier ones at the same index.
        entries: Vec<(String, Val)>,
        default: Option<Box<Val>>,
    },
}

const MAX_DEPTH: usize = 64;
const MAX_ENTRIES: usize = 1000;

/// Renders the model value `e` (of an array sort) or `None` if its shape is not understood.
pub fn render(e: &SExp, defs: &Defs) -> Option<String> {
    let Some(v) = value(e, defs, 0) else {
        // A function whose body is no `ite` chain over its parameter (z3's value of an array
        // defined pointwise, such as a hoisted lambda expression): as the solver wrote it.
        return match e.list()? {
            [kw, _, _] if kw.atom() == Some("lambda") => Some(e.to_string()),
            [u, kw, f] if u.atom() == Some("_") && kw.atom() == Some("as-array") => {
                let (params, body) = defs.get(f.symbol()?)?;
                Some(format!("(lambda ({}) {body})", params.join(" ")))
            }
            _ => None,
        };
    };
    let mut s = String::new();
    show(&v, &mut s);
    Some(s)
}

/// Yices' own model format: `(function @f (type …) (= (@f i) v) … (default d))` items, collected
/// by [`yices_functions`]; a value `@f` refers to one.
pub type YicesFuns<'a> = HashMap<&'a str, &'a [SExp]>;

/// The `function` items of a yices model.
pub fn yices_functions(items: &[SExp]) -> YicesFuns<'_> {
    let mut out = HashMap::new();
    for it in items {
        if let Some(l) = it.list()
            && l.len() >= 2
            && l[0].atom() == Some("function")
            && let Some(name) = l[1].symbol()
        {
            out.insert(name, &l[2..]);
        }
    }
    out
}

/// Renders the yices value `e` (a scalar or `@f`), or `None`.
pub fn render_yices(e: &SExp, funs: &YicesFuns) -> Option<String> {
    let v = yices_value(e, funs, 0)?;
    let mut s = String::new();
    show(&v, &mut s);
    Some(s)
}

fn yices_value(e: &SExp, funs: &YicesFuns, depth: usize) -> Option<Val> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(name) = e.symbol()
        && let Some(body) = funs.get(name)
    {
        let mut entries = Vec::new();
        let mut default = None;
        for b in body.iter() {
            let l = b.list()?;
            match l {
                [t, _] if t.atom() == Some("type") => {}
                [d, v] if d.atom() == Some("default") => {
                    default = Some(Box::new(yices_value(v, funs, depth + 1)?));
                }
                [eq, app, v] if eq.atom() == Some("=") => {
                    let app = app.list()?;
                    let [f, i] = app else { return None };
                    if f.symbol() != Some(name) || entries.len() >= MAX_ENTRIES {
                        return None;
                    }
                    entries.push((scalar(i)?, yices_value(v, funs, depth + 1)?));
                }
                _ => return None,
            }
        }
        return Some(Val::Array { entries, default });
    }
    scalar(e).map(Val::Scalar)
}

/// An element of an uninterpreted sort `S` named by z3 (`S!val!3`, with the engine's `!type` suffix
/// on `S`) is shown as `S#3`, as the session shows scalar model values.
fn element_name(a: &str) -> Option<String> {
    let (sort, k) = a.rsplit_once("!val!")?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(format!(
        "{}#{k}",
        sort.strip_suffix("!type").unwrap_or(sort)
    ))
}

fn scalar(e: &SExp) -> Option<String> {
    match e {
        SExp::Atom(a) => Some(element_name(a).unwrap_or_else(|| a.clone())),
        SExp::List(l) => match l.as_slice() {
            // yices: (as @const_3 S)
            [op, a, sort]
                if op.atom() == Some("as") && a.atom().is_some_and(|a| a.starts_with('@')) =>
            {
                let a = a.atom()?;
                let k: String = a.chars().filter(char::is_ascii_digit).collect();
                let sort = sort.symbol()?;
                Some(format!(
                    "{}#{k}",
                    sort.strip_suffix("!type").unwrap_or(sort)
                ))
            }
            // (- 5)
            [op, x] if op.atom() == Some("-") => Some(format!("-{}", scalar(x)?)),
            // (/ 1 2), (_ bv5 8)
            [op, a, b] if op.atom() == Some("/") => Some(format!("{}/{}", scalar(a)?, scalar(b)?)),
            [u, v, w] if u.atom() == Some("_") => {
                let v = v.atom()?.strip_prefix("bv")?;
                Some(format!("{v}bv{}", w.atom()?))
            }
            _ => None,
        },
        _ => None,
    }
}

fn value(e: &SExp, defs: &Defs, depth: usize) -> Option<Val> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(s) = scalar(e) {
        // A bare symbol naming a definition is an array in disguise; otherwise a scalar.
        if let SExp::Atom(a) = e
            && let Some((params, body)) = defs.get(a.as_str())
            && params.len() == 1
        {
            return function(params[0], body, defs, depth + 1);
        }
        return Some(Val::Scalar(s));
    }
    let l = e.list()?;
    match l {
        // ((as const (Array I E)) v)
        [head, v] if is_as_const(head) => Some(Val::Array {
            entries: vec![],
            default: Some(Box::new(value(v, defs, depth + 1)?)),
        }),
        // (store a i v)
        [op, a, i, v] if op.atom() == Some("store") => {
            let Val::Array {
                mut entries,
                default,
            } = value(a, defs, depth + 1)?
            else {
                return None;
            };
            if entries.len() >= MAX_ENTRIES {
                return None;
            }
            let i = scalar(i)?;
            entries.retain(|(k, _)| *k != i);
            entries.push((i, value(v, defs, depth + 1)?));
            Some(Val::Array { entries, default })
        }
        // (_ as-array f)
        [u, kw, f] if u.atom() == Some("_") && kw.atom() == Some("as-array") => {
            let (params, body) = defs.get(f.symbol()?)?;
            if params.len() != 1 {
                return None;
            }
            function(params[0], body, defs, depth + 1)
        }
        // (lambda ((x I)) body)
        [kw, ps, body] if kw.atom() == Some("lambda") => {
            let ps = ps.list()?;
            let [p] = ps else { return None };
            let name = p.list()?.first()?.symbol()?;
            function(name, body, defs, depth + 1)
        }
        _ => None,
    }
}

fn is_as_const(e: &SExp) -> bool {
    matches!(e.list(), Some([a, c, _]) if a.atom() == Some("as") && c.atom() == Some("const"))
}

/// Renders `λ param. body` (yices writes an array constant as a `define-fun` with one parameter).
pub fn render_function(param: &str, body: &SExp, defs: &Defs) -> Option<String> {
    let v = function(param, body, defs, 0)?;
    let mut s = String::new();
    show(&v, &mut s);
    Some(s)
}

/// The function `λ param. body` as an array, when `body` is an `ite` chain of equalities between the
/// parameter and constants ending in a value independent of the parameter.
fn function(param: &str, body: &SExp, defs: &Defs, depth: usize) -> Option<Val> {
    let mut entries: Vec<(String, Val)> = Vec::new();
    let mut cur = body;
    loop {
        if entries.len() >= MAX_ENTRIES || depth > MAX_DEPTH {
            return None;
        }
        match cur.list() {
            Some([op, c, t, f]) if op.atom() == Some("ite") => {
                let idx = index_test(param, c)?;
                if !entries.iter().any(|(k, _)| *k == idx) {
                    entries.push((idx, value(t, defs, depth + 1)?));
                }
                cur = f;
            }
            _ => {
                if mentions(cur, param) {
                    return None;
                }
                let d = value(cur, defs, depth + 1)?;
                return Some(Val::Array {
                    entries,
                    default: Some(Box::new(d)),
                });
            }
        }
    }
}

/// `(= param c)`, `(= c param)` (possibly wrapped in a one-argument `and`): the constant `c`.
fn index_test(param: &str, c: &SExp) -> Option<String> {
    let l = c.list()?;
    match l {
        [op, x] if op.atom() == Some("and") => index_test(param, x),
        [op, a, b] if op.atom() == Some("=") => {
            if a.symbol() == Some(param) && !mentions(b, param) {
                scalar(b)
            } else if b.symbol() == Some(param) && !mentions(a, param) {
                scalar(a)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn mentions(e: &SExp, name: &str) -> bool {
    match e {
        SExp::List(l) => l.iter().any(|x| mentions(x, name)),
        other => other.symbol() == Some(name),
    }
}

fn show(v: &Val, s: &mut String) {
    match v {
        Val::Scalar(x) => s.push_str(x),
        Val::Array { entries, default } => {
            let mut entries = entries.clone();
            // Deterministic order: numerically by index where possible.
            entries.sort_by(|(a, _), (b, _)| {
                match (
                    a.parse::<num_bigint::BigInt>(),
                    b.parse::<num_bigint::BigInt>(),
                ) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => a.cmp(b),
                }
            });
            s.push('[');
            let mut first = true;
            for (k, x) in &entries {
                if !first {
                    s.push_str(", ");
                }
                first = false;
                s.push_str(k);
                s.push_str(" := ");
                show(x, s);
            }
            if let Some(d) = default {
                if !first {
                    s.push_str(", ");
                }
                s.push_str("else ");
                show(d, s);
            }
            s.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::sexp::parse_one;

    fn r(text: &str) -> Option<String> {
        render(&parse_one(text).unwrap(), &Defs::new())
    }

    #[test]
    fn const_and_store_chains() {
        assert_eq!(
            r("((as const (Array Int Int)) 0)").as_deref(),
            Some("[else 0]")
        );
        assert_eq!(
            r("(store (store ((as const (Array Int Int)) 0) 3 (- 1)) 1 5)").as_deref(),
            Some("[1 := 5, 3 := -1, else 0]")
        );
        assert_eq!(
            r("(store (store ((as const (Array Int Int)) 0) 1 2) 1 7)").as_deref(),
            Some("[1 := 7, else 0]")
        );
    }

    #[test]
    fn lambdas_and_nested() {
        assert_eq!(
            r("(lambda ((x!1 Int)) (ite (= x!1 2) 4 (ite (= 3 x!1) 5 0)))").as_deref(),
            Some("[2 := 4, 3 := 5, else 0]")
        );
        assert_eq!(
            r("((as const (Array Int (Array Int Bool))) ((as const (Array Int Bool)) false))")
                .as_deref(),
            Some("[else [else false]]")
        );
        assert_eq!(
            r("(lambda ((x Int)) (+ x 1))").as_deref(),
            Some("(lambda ((x Int)) (+ x 1))")
        );
        assert_eq!(r("(store (lambda ((x Int)) (+ x 1)) 0 1)"), None);
        assert_eq!(r("(foo bar)"), None);
    }

    #[test]
    fn yices_format() {
        let items = crate::smt::sexp::parse(
            "(= a @fun_5) (function @fun_5 (type (Array Int Int)) (= (@fun_5 1) 5) (default 0))",
        )
        .unwrap();
        let funs = yices_functions(&items);
        let v = &items[0].list().unwrap()[2];
        assert_eq!(render_yices(v, &funs).as_deref(), Some("[1 := 5, else 0]"));
    }

    #[test]
    fn as_array() {
        let def = parse_one("(ite (= x!0 1) 5 0)").unwrap();
        let mut defs = Defs::new();
        defs.insert("k!0", (vec!["x!0"], &def));
        let e = parse_one("(_ as-array k!0)").unwrap();
        assert_eq!(render(&e, &defs).as_deref(), Some("[1 := 5, else 0]"));
        let def = parse_one("(and (<= 0 x!0) (not (<= 6 x!0)))").unwrap();
        defs.insert("k!1", (vec!["x!0"], &def));
        let e = parse_one("(_ as-array k!1)").unwrap();
        assert_eq!(
            render(&e, &defs).as_deref(),
            Some("(lambda (x!0) (and (<= 0 x!0) (not (<= 6 x!0))))")
        );
    }
}
