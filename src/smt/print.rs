//! SMT-LIB 2.6 printing of sorts, values and terms.
//!
//! - Symbols are quoted (`|x'@2|`) unless they are simple symbols made of letters, digits and `_ . @ $`,
//!   not starting with a digit and not reserved words; anything else (`~x`, `#res`, `a b`) is quoted, which
//!   is always legal. Names containing `|` or `\` cannot be quoted in SMT-LIB; those characters are
//!   replaced by `?` (documented lossy case; sessions map names through their own symbol table).
//! - Negative numbers print as `(- 5)`, reals as `1.0` / `(/ 1.0 3.0)` / `(- (/ 1.0 3.0))`, bit-vectors as
//!   `#x…` when the width is a multiple of 4, else `#b…`.
//! - Printing is deterministic (a pure function of the term structure and the namer).

use super::term::{Op, Quantifier, Sort, Term, TermKind, Value, Var};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Write};

const RESERVED: &[&str] = &[
    "_",
    "!",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
    "assert",
    "check-sat",
    "check-sat-assuming",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-model",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "reset",
    "reset-assertions",
    "set-info",
    "set-logic",
    "set-option",
];

/// Whether `s` can be printed unquoted (conservative: a subset of SMT-LIB simple symbols).
pub fn is_simple_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@' | '$'))
    {
        return false;
    }
    // `true`/`false` and operator names would be misread as built-ins.
    !RESERVED.contains(&s) && !is_builtin_name(s)
}

/// Names that the reader interprets as built-in symbols; a variable with such a name must be quoted.
fn is_builtin_name(s: &str) -> bool {
    matches!(
        s,
        "true"
            | "false"
            | "not"
            | "and"
            | "or"
            | "xor"
            | "ite"
            | "distinct"
            | "div"
            | "mod"
            | "abs"
            | "to_real"
            | "to_int"
            | "is_int"
            | "select"
            | "store"
            | "concat"
            | "extract"
            | "const"
            | "Int"
            | "Real"
            | "Bool"
            | "Array"
            | "BitVec"
    ) || (s.starts_with("bv") && s.len() > 2)
}

/// The symbol as SMT-LIB text, quoted when needed.
pub fn quote_symbol(s: &str) -> Cow<'_, str> {
    if is_simple_symbol(s) {
        Cow::Borrowed(s)
    } else {
        let clean: String = s
            .chars()
            .map(|c| if c == '|' || c == '\\' { '?' } else { c })
            .collect();
        Cow::Owned(format!("|{clean}|"))
    }
}

pub(crate) fn write_symbol(out: &mut String, s: &str) {
    if is_simple_symbol(s) {
        out.push_str(s);
    } else {
        out.push('|');
        for c in s.chars() {
            out.push(if c == '|' || c == '\\' { '?' } else { c });
        }
        out.push('|');
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_sort(&mut s, self);
        f.write_str(&s)
    }
}

pub(crate) fn write_sort(out: &mut String, s: &Sort) {
    match s {
        Sort::Bool => out.push_str("Bool"),
        Sort::Int => out.push_str("Int"),
        Sort::Real => out.push_str("Real"),
        Sort::BitVec(w) => {
            let _ = write!(out, "(_ BitVec {w})");
        }
        Sort::Array(a, b) => {
            out.push_str("(Array ");
            write_sort(out, a);
            out.push(' ');
            write_sort(out, b);
            out.push(')');
        }
        Sort::Uninterpreted(n, args) => {
            if args.is_empty() {
                write_symbol(out, n);
            } else {
                out.push('(');
                write_symbol(out, n);
                for a in args {
                    out.push(' ');
                    write_sort(out, a);
                }
                out.push(')');
            }
        }
        Sort::Builtin(text) => out.push_str(text),
    }
}

/// Decimal digits of `v` (the hot path of printing; avoids the formatting machinery).
fn write_u64(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut pos = buf.len();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[pos..]).unwrap_or("0"));
}

fn write_int(out: &mut String, i: &BigInt) {
    use num_traits::ToPrimitive;
    if let Some(small) = i.to_i64() {
        if small < 0 {
            out.push_str("(- ");
            write_u64(out, small.unsigned_abs());
            out.push(')');
        } else {
            write_u64(out, small as u64);
        }
        return;
    }
    if i.is_negative() {
        let _ = write!(out, "(- {})", -i);
    } else {
        let _ = write!(out, "{i}");
    }
}

fn write_real(out: &mut String, r: &BigRational) {
    let neg = r.is_negative();
    let a = r.abs();
    if neg {
        out.push_str("(- ");
    }
    if a.denom() == &BigInt::from(1) {
        let _ = write!(out, "{}.0", a.numer());
    } else {
        let _ = write!(out, "(/ {}.0 {}.0)", a.numer(), a.denom());
    }
    if neg {
        out.push(')');
    }
}

pub(crate) fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => write_int(out, i),
        Value::Real(r) => write_real(out, r),
        Value::BitVec(x, w) => {
            if *w == 0 {
                out.push_str("#b0");
            } else if w % 4 == 0 {
                let s = x.to_str_radix(16);
                out.push_str("#x");
                for _ in s.len()..(*w as usize / 4) {
                    out.push('0');
                }
                out.push_str(&s);
            } else {
                let s = x.to_str_radix(2);
                out.push_str("#b");
                for _ in s.len()..(*w as usize) {
                    out.push('0');
                }
                out.push_str(&s);
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_value(&mut s, self);
        f.write_str(&s)
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote_symbol(&self.name))
    }
}

/// How variables and function symbols are named in printed text. The default quotes raw names; sessions
/// use their own table (to keep same-named variables of different sorts apart).
pub trait Namer {
    /// `t` is the variable term of `v`.
    fn var(&self, out: &mut String, t: &Term, v: &Var);
    fn fun(&self, out: &mut String, name: &str, f: &super::term::FuncDecl);
}

/// Prints raw names, quoted when needed.
pub struct RawNamer;
impl Namer for RawNamer {
    fn var(&self, out: &mut String, _t: &Term, v: &Var) {
        write_symbol(out, &v.name);
    }
    fn fun(&self, out: &mut String, name: &str, _f: &super::term::FuncDecl) {
        write_symbol(out, name);
    }
}

pub(crate) fn op_name(op: &Op) -> Cow<'static, str> {
    Cow::Borrowed(match op {
        Op::Not => "not",
        Op::And => "and",
        Op::Or => "or",
        Op::Implies => "=>",
        Op::Xor => "xor",
        Op::Ite => "ite",
        Op::Eq => "=",
        Op::Distinct => "distinct",
        Op::Le => "<=",
        Op::Lt => "<",
        Op::Ge => ">=",
        Op::Gt => ">",
        Op::Add => "+",
        Op::Sub | Op::Neg => "-",
        Op::Mul => "*",
        Op::IntDiv => "div",
        Op::Mod => "mod",
        Op::RealDiv => "/",
        Op::Abs => "abs",
        Op::ToReal => "to_real",
        Op::ToInt => "to_int",
        Op::IsInt => "is_int",
        Op::Select => "select",
        Op::Store => "store",
        Op::Concat => "concat",
        Op::Extract(i, j) => return Cow::Owned(format!("(_ extract {i} {j})")),
        Op::ZeroExtend(n) => return Cow::Owned(format!("(_ zero_extend {n})")),
        Op::SignExtend(n) => return Cow::Owned(format!("(_ sign_extend {n})")),
        Op::Repeat(n) => return Cow::Owned(format!("(_ repeat {n})")),
        Op::RotateLeft(n) => return Cow::Owned(format!("(_ rotate_left {n})")),
        Op::RotateRight(n) => return Cow::Owned(format!("(_ rotate_right {n})")),
        Op::ConstArray(s) => {
            let mut o = String::from("(as const ");
            write_sort(&mut o, s);
            o.push(')');
            return Cow::Owned(o);
        }
        Op::BvBuiltin(n) | Op::Builtin(n, _) => return Cow::Owned(n.clone()),
        Op::Uf(f) => return Cow::Owned(quote_symbol(&f.name).into_owned()),
    })
}

/// Trees larger than this are printed with `let` for shared subterms (when that saves at least half).
pub const LET_THRESHOLD: u64 = 4096;

/// Writes `t` as SMT-LIB text. Small terms print as trees; a term whose tree is larger than
/// [`LET_THRESHOLD`] and at least twice its DAG size gets `let` bindings `lap!<n>` for its shared
/// non-leaf subterms (outside quantifiers), so printing is linear in the DAG size.
pub fn write_term(out: &mut String, t: &Term, namer: &dyn Namer) {
    if t.tree_size() > LET_THRESHOLD && write_term_with_lets(out, t, namer) {
        return;
    }
    write_tree(out, t, namer, None);
}

/// Tries let-printing; returns false (writing nothing) if sharing does not pay.
fn write_term_with_lets(out: &mut String, t: &Term, namer: &dyn Namer) -> bool {
    // Parent counts over the DAG, not entering quantifier bodies (bound variables must stay bound).
    let mut refs: HashMap<u32, u32> = HashMap::new();
    let mut order: Vec<Term> = Vec::new(); // post-order of distinct nodes
    let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
    let mut seen: std::collections::HashSet<u32> = std::collections::HashSet::new();
    while let Some((n, done)) = stack.pop() {
        if done {
            order.push(n);
            continue;
        }
        if !seen.insert(n.id()) {
            continue;
        }
        stack.push((n.clone(), true));
        if let TermKind::App(_, args) = n.kind() {
            for a in args.iter().rev() {
                *refs.entry(a.id()).or_insert(0) += 1;
                if !seen.contains(&a.id()) {
                    stack.push((a.clone(), false));
                }
            }
        }
    }
    if t.tree_size() < 2 * order.len() as u64 {
        return false;
    }
    let shared: Vec<Term> = order
        .into_iter()
        .filter(|n| n != t && refs.get(&n.id()).copied().unwrap_or(0) > 1 && !n.args().is_empty())
        .collect();
    if shared.is_empty() {
        return false;
    }
    let mut names: HashMap<u32, String> = HashMap::with_capacity(shared.len());
    let mut closing = 0usize;
    for (k, n) in shared.iter().enumerate() {
        out.push_str("(let ((");
        let name = format!("lap!{k}");
        out.push_str(&name);
        out.push(' ');
        write_tree(out, n, namer, Some(&names));
        out.push_str(")) ");
        names.insert(n.id(), name);
        closing += 1;
    }
    write_tree(out, t, namer, Some(&names));
    for _ in 0..closing {
        out.push(')');
    }
    true
}

fn write_tree(out: &mut String, t: &Term, namer: &dyn Namer, lets: Option<&HashMap<u32, String>>) {
    if let Some(l) = lets
        && let Some(name) = l.get(&t.id())
    {
        out.push_str(name);
        return;
    }
    match t.kind() {
        TermKind::Const(v) => write_value(out, v),
        TermKind::Var(v) => namer.var(out, t, v),
        TermKind::App(op, args) => {
            if args.is_empty() {
                match op {
                    Op::Uf(f) => namer.fun(out, &f.name, f),
                    // Degenerate nullary built-ins (only reachable through `mk_raw`).
                    Op::And => out.push_str("true"),
                    Op::Or => out.push_str("false"),
                    Op::Add => out.push('0'),
                    Op::Mul => out.push('1'),
                    _ => out.push_str(&op_name(op)),
                }
                return;
            }
            out.push('(');
            match op {
                Op::Uf(f) => namer.fun(out, &f.name, f),
                _ => out.push_str(&op_name(op)),
            }
            for a in args {
                out.push(' ');
                write_tree(out, a, namer, lets);
            }
            out.push(')');
        }
        TermKind::Quant(q, vs, body) => {
            out.push_str(match q {
                Quantifier::Exists => "(exists (",
                Quantifier::Forall => "(forall (",
            });
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push('(');
                namer.var(out, &Term::var(v), v);
                out.push(' ');
                write_sort(out, &v.sort);
                out.push(')');
            }
            out.push_str(") ");
            let body = macro_shaped(*q, vs, body).unwrap_or_else(|| body.clone());
            write_tree(out, &body, namer, None);
            out.push(')');
        }
    }
}

/// Does `t` contain a `forall` whose body defines an array pointwise (see [`macro_shaped`])?
pub(crate) fn defines_array_pointwise(t: &Term) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !t.has_quantifier() || !seen.insert(t.id()) {
            continue;
        }
        match t.kind() {
            TermKind::Quant(q, vs, body) => {
                if macro_shaped(*q, vs, body).is_some() {
                    return true;
                }
                stack.push(body.clone());
            }
            TermKind::App(_, args) => stack.extend(args.iter().cloned()),
            _ => {}
        }
    }
    false
}

fn mentions(t: &Term, base: &Term) -> bool {
    base.free_vars_ref().iter().any(|v| t.has_free_var(v))
}

/// `t` as `a[x1]…[xn]` (nested selects) over exactly the bound variables `vs`, all distinct, each
/// once, for an array `a` with free variables but none of `vs`: `Some(a)`.
fn defined_cell(vs: &[Var], t: &Term) -> Option<Term> {
    let mut idx = Vec::new();
    let mut a = t;
    while let TermKind::App(Op::Select, args) = a.kind() {
        idx.push(args[1].as_var()?.clone());
        a = &args[0];
    }
    let distinct: std::collections::BTreeSet<&Var> = idx.iter().collect();
    let covers = idx.len() == vs.len() && distinct.len() == idx.len();
    (covers
        && vs.iter().all(|v| distinct.contains(v))
        && vs.iter().all(|v| !a.has_free_var(v))
        && !a.free_vars_ref().is_empty())
    .then(|| a.clone())
}

/// A universally quantified body that defines the cells of an array pointwise, as the solver's
/// macro finder needs to see it: the simplifier's linear normal form writes
/// `(forall ((i Int)) (= a[i] (+ i n)))` as `(= (+ (select a i) (- i) (- n)) 0)`, for which z3's
/// model finder gives up on a satisfiable query, while `(= (select a i) (- 0 (+ (- i) (- n))))` it
/// turns into the definition of `a` and answers at once. The body is `Σ ± s + rest = c` (or `=`
/// between `s` and a term) where `s` is `a[x1]…[xn]` (nested selects) for an array `a` without
/// bound variables, the `xi` are the quantifier's variables, all distinct, each once, and `rest`
/// does not mention `a`; the result is the equivalent `s = rhs` (the body itself when it already
/// is). `None` for anything else.
fn macro_shaped(q: Quantifier, vs: &[Var], body: &Term) -> Option<Term> {
    if q != Quantifier::Forall {
        return None;
    }
    let (l, r) = match body.kind() {
        TermKind::App(Op::Eq, args) if args.len() == 2 => (&args[0], &args[1]),
        _ => return None,
    };
    let cell = |t: &Term| defined_cell(vs, t);
    if cell(l).is_some_and(|b| !mentions(r, &b)) {
        return Some(body.clone()); // already `s = rhs`
    }
    if cell(r).is_some_and(|b| !mentions(l, &b)) {
        return Some(Term::eq(r, l));
    }
    // `Σ ± s + rest = c`, `c` a constant.
    r.as_const()?;
    let summands: Vec<Term> = match l.kind() {
        TermKind::App(Op::Add, args) => args.clone(),
        _ => return None,
    };
    let mut found = None;
    for (k, t) in summands.iter().enumerate() {
        let (negated, s) = match t.kind() {
            TermKind::App(Op::Neg, a) if a.len() == 1 => (true, &a[0]),
            _ => (false, t),
        };
        if let Some(base) = cell(s) {
            if found.is_some() {
                return None;
            }
            found = Some((k, negated, s.clone(), base));
        }
    }
    let (k, negated, s, base) = found?;
    let rest: Vec<Term> = (summands.iter().enumerate())
        .filter(|&(j, _)| j != k)
        .map(|(_, t)| t.clone())
        .collect();
    if rest.iter().any(|t| mentions(t, &base)) {
        return None;
    }
    let rest = match rest.len() {
        1 => rest[0].clone(),
        _ => Term::mk_raw(Op::Add, rest),
    };
    // s + rest = c  ⇒  s = c − rest;  −s + rest = c  ⇒  s = rest − c.
    let rhs = if negated {
        Term::mk_raw(Op::Sub, vec![rest, r.clone()])
    } else {
        Term::mk_raw(Op::Sub, vec![r.clone(), rest])
    };
    Some(Term::eq(&s, &rhs))
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_term(&mut s, self, &RawNamer);
        f.write_str(&s)
    }
}

/// Writes an SMT-LIB string literal (`"` doubled).
pub fn write_string_literal(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
}
