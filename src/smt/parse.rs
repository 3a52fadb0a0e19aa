//! Reading terms back from SMT-LIB text (solver replies: models, values, `simplify`/`apply qe` results).
//!
//! Handles `let` (parallel bindings, nested), quantifiers (bound variables become [`Var`]s with the binder's
//! name and sort), `(! t :named n)` annotations, negative and rational literals (`(- 5)`, `(/ 1 2)`,
//! `(- (/ 1.0 3.0))` all become constants because the constructors fold them), bit-vector literals
//! (`#x…`, `#b…`, `(_ bvN w)`), indexed operators and `((as const S) v)`.
//!
//! Symbols that are not built-ins are looked up in a [`ParseEnv`] (variables and functions the session
//! declared); an unknown symbol is an error, never a guess.

use super::sexp::{self, SExp};
use super::term::{FuncDecl, Op, Quantifier, Sort, Term, Var};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Num;
use std::collections::HashMap;
use std::fmt;

/// Error while turning text into a term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ParseError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// Names the parser resolves: solver symbol → variable / function / uninterpreted sort arity.
#[derive(Clone, Debug, Default)]
pub struct ParseEnv {
    pub vars: HashMap<String, Var>,
    pub funs: HashMap<String, FuncDecl>,
    pub sorts: HashMap<String, usize>,
}

impl ParseEnv {
    pub fn new() -> ParseEnv {
        ParseEnv::default()
    }
    /// An environment knowing every free variable and function of `t` under its raw name.
    pub fn from_term(t: &Term) -> ParseEnv {
        let mut env = ParseEnv::new();
        env.add_term(t);
        env
    }
    pub fn add_term(&mut self, t: &Term) {
        let s = t.symbols();
        for v in s.vars() {
            self.add_var(v);
        }
        for f in &s.funs {
            self.add_fun(f);
        }
        s.for_each_sort(&mut |n, a| {
            self.sorts.insert(n.to_string(), a);
        });
    }
    pub fn add_var(&mut self, v: &Var) {
        self.vars.insert(v.name.clone(), v.clone());
    }
    pub fn add_fun(&mut self, f: &FuncDecl) {
        self.funs.insert(f.name.clone(), f.clone());
    }
}

/// Parses one term from text.
pub fn parse_term(text: &str, env: &ParseEnv) -> Result<Term, ParseError> {
    let e = sexp::parse_one(text).map_err(|e| ParseError(e.0))?;
    sexp_to_term(&e, env)
}

/// Converts an s-expression into a term.
pub fn sexp_to_term(e: &SExp, env: &ParseEnv) -> Result<Term, ParseError> {
    let mut p = Parser {
        env,
        scopes: Vec::new(),
    };
    p.term(e)
}

/// Parses a sort.
pub fn sexp_to_sort(e: &SExp) -> Result<Sort, ParseError> {
    match e {
        SExp::Atom(s) | SExp::Quoted(s) => Ok(match s.as_str() {
            "Bool" if matches!(e, SExp::Atom(_)) => Sort::Bool,
            "Int" if matches!(e, SExp::Atom(_)) => Sort::Int,
            "Real" if matches!(e, SExp::Atom(_)) => Sort::Real,
            _ => Sort::Uninterpreted(s.clone(), vec![]),
        }),
        SExp::List(l) => {
            let head = l.first().and_then(SExp::symbol).unwrap_or("");
            match head {
                "_" if l.get(1).and_then(SExp::atom) == Some("BitVec") && l.len() == 3 => {
                    let w = l[2].atom().and_then(|w| w.parse::<u32>().ok());
                    match w {
                        Some(w) => Ok(Sort::BitVec(w)),
                        None => err(format!("bad bit-vector sort {e}")),
                    }
                }
                "_" => Ok(Sort::Builtin(e.to_string())),
                "Array" if l.len() == 3 => {
                    Ok(Sort::array(sexp_to_sort(&l[1])?, sexp_to_sort(&l[2])?))
                }
                _ if !head.is_empty() => {
                    let args = l[1..]
                        .iter()
                        .map(sexp_to_sort)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Sort::Uninterpreted(head.to_string(), args))
                }
                _ => err(format!("bad sort {e}")),
            }
        }
        SExp::Str(_) => err(format!("bad sort {e}")),
    }
}

/// Parses a numeric or bit-vector literal token.
pub fn parse_literal(s: &str) -> Option<Term> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    if let Some(hex) = s.strip_prefix("#x") {
        let v = BigUint::from_str_radix(hex, 16).ok()?;
        return Some(Term::bv(v, (hex.len() * 4) as u32));
    }
    if let Some(bin) = s.strip_prefix("#b") {
        let v = BigUint::from_str_radix(bin, 2).ok()?;
        return Some(Term::bv(v, bin.len() as u32));
    }
    if b[0].is_ascii_digit() {
        if let Some((i, f)) = s.split_once('.') {
            if !i.bytes().all(|c| c.is_ascii_digit()) || !f.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let num = BigInt::from_str_radix(&format!("{i}{f}"), 10).ok()?;
            let den = num_traits::pow(BigInt::from(10), f.len());
            return Some(Term::real(BigRational::new(num, den)));
        }
        if !b.iter().all(|c| c.is_ascii_digit()) {
            return None;
        }
        return Some(Term::int(BigInt::from_str_radix(s, 10).ok()?));
    }
    None
}

struct Parser<'a> {
    env: &'a ParseEnv,
    /// Innermost last: let-bound names and quantifier-bound variables.
    scopes: Vec<HashMap<String, Term>>,
}

impl Parser<'_> {
    fn lookup(&self, name: &str) -> Option<Term> {
        for s in self.scopes.iter().rev() {
            if let Some(t) = s.get(name) {
                return Some(t.clone());
            }
        }
        if let Some(v) = self.env.vars.get(name) {
            return Some(Term::var(v));
        }
        if let Some(f) = self.env.funs.get(name)
            && f.args.is_empty()
        {
            return Some(Term::uf(f, vec![]));
        }
        None
    }

    fn term(&mut self, e: &SExp) -> Result<Term, ParseError> {
        match e {
            SExp::Atom(s) => {
                if let Some(t) = self.lookup(s) {
                    return Ok(t);
                }
                match s.as_str() {
                    "true" => Ok(Term::tt()),
                    "false" => Ok(Term::ff()),
                    m if super::term::is_rounding_mode(m) => Ok(Term::app(
                        Op::Builtin(s.clone(), Sort::Builtin("RoundingMode".into())),
                        Vec::new(),
                    )),
                    _ => {
                        parse_literal(s).ok_or_else(|| ParseError(format!("unknown symbol `{s}`")))
                    }
                }
            }
            SExp::Quoted(s) => self
                .lookup(s)
                .ok_or_else(|| ParseError(format!("unknown symbol `|{s}|`"))),
            SExp::Str(s) => err(format!("string literal \"{s}\" is not a supported term")),
            SExp::List(l) => self.list(e, l),
        }
    }

    fn args(&mut self, l: &[SExp]) -> Result<Vec<Term>, ParseError> {
        l.iter().map(|a| self.term(a)).collect()
    }

    fn list(&mut self, e: &SExp, l: &[SExp]) -> Result<Term, ParseError> {
        let Some(head) = l.first() else {
            return err("empty list is not a term");
        };
        match head {
            SExp::List(h) => {
                let hs = h.first().and_then(SExp::atom).unwrap_or("");
                match hs {
                    "_" => {
                        let name = h.get(1).and_then(SExp::atom).unwrap_or("");
                        let idx: Vec<u32> = h[2.min(h.len())..]
                            .iter()
                            .map(|x| x.atom().and_then(|a| a.parse::<u32>().ok()))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| ParseError(format!("bad indexed operator in {e}")))?;
                        if let ("divisible", [n]) = (name, idx.as_slice())
                            && *n > 0
                            && l.len() == 2
                        {
                            // `((_ divisible n) a)` is `(= (mod a n) 0)`.
                            let a = self.term(&l[1])?;
                            if a.sort() != Sort::Int {
                                return err(format!("divisible of a non-integer in {e}"));
                            }
                            let m = Term::modulo(&a, &Term::int(i64::from(*n)));
                            return Ok(Term::eq(&m, &Term::int(0)));
                        }
                        let op = match (name, idx.as_slice()) {
                            ("to_fp" | "to_fp_unsigned", [eb, sb]) => {
                                Op::Builtin(format!("(_ {name} {eb} {sb})"), fp_sort(*eb, *sb))
                            }
                            ("fp.to_ubv" | "fp.to_sbv", [n]) => {
                                Op::Builtin(format!("(_ {name} {n})"), Sort::BitVec(*n))
                            }
                            ("extract", [i, j]) => Op::Extract(*i, *j),
                            ("zero_extend", [n]) => Op::ZeroExtend(*n),
                            ("sign_extend", [n]) => Op::SignExtend(*n),
                            ("repeat", [n]) => Op::Repeat(*n),
                            ("rotate_left", [n]) => Op::RotateLeft(*n),
                            ("rotate_right", [n]) => Op::RotateRight(*n),
                            _ => return err(format!("unsupported indexed operator in {e}")),
                        };
                        let args = self.args(&l[1..])?;
                        Ok(Term::app(op, args))
                    }
                    "as" if h.get(1).and_then(SExp::atom) == Some("const")
                        && h.len() == 3
                        && l.len() == 2 =>
                    {
                        let s = sexp_to_sort(&h[2])?;
                        let v = self.term(&l[1])?;
                        Ok(Term::const_array(s, &v))
                    }
                    _ => err(format!("unsupported application head in {e}")),
                }
            }
            SExp::Quoted(name) => {
                let args = self.args(&l[1..])?;
                self.apply_user(name, args, e)
            }
            SExp::Str(_) => err(format!("bad term {e}")),
            SExp::Atom(name) => {
                let rest = &l[1..];
                match name.as_str() {
                    "_" => {
                        // (_ bvN w)
                        if let (Some(v), Some(w)) = (
                            rest.first().and_then(SExp::atom),
                            rest.get(1).and_then(SExp::atom),
                        ) && let Some(digits) = v.strip_prefix("bv")
                            && let (Ok(v), Ok(w)) =
                                (BigUint::from_str_radix(digits, 10), w.parse::<u32>())
                        {
                            return Ok(Term::bv(v, w));
                        }
                        // (_ +zero eb sb) and the other floating-point constants
                        if let (Some(c), Some(eb), Some(sb), 3) = (
                            rest.first().and_then(SExp::atom),
                            rest.get(1)
                                .and_then(SExp::atom)
                                .and_then(|a| a.parse::<u32>().ok()),
                            rest.get(2)
                                .and_then(SExp::atom)
                                .and_then(|a| a.parse::<u32>().ok()),
                            rest.len(),
                        ) && matches!(c, "+zero" | "-zero" | "+oo" | "-oo" | "NaN")
                        {
                            let op = Op::Builtin(format!("(_ {c} {eb} {sb})"), fp_sort(eb, sb));
                            return Ok(Term::app(op, Vec::new()));
                        }
                        err(format!("unsupported indexed term {e}"))
                    }
                    "let" => {
                        let binds = rest.first().and_then(SExp::list).ok_or_else(|| {
                            ParseError(format!("bad let in {}", sexp::excerpt(&e.to_string())))
                        })?;
                        let mut scope = HashMap::new();
                        for b in binds {
                            let pair = b.list().filter(|p| p.len() == 2);
                            let (Some(pair),) = (pair,) else {
                                return err(format!("bad let binding {b}"));
                            };
                            let n = pair[0]
                                .symbol()
                                .ok_or_else(|| ParseError(format!("bad let binding {b}")))?;
                            let v = self.term(&pair[1])?;
                            scope.insert(n.to_string(), v);
                        }
                        let body = rest
                            .get(1)
                            .ok_or_else(|| ParseError("let without body".into()))?;
                        self.scopes.push(scope);
                        let r = self.term(body);
                        self.scopes.pop();
                        r
                    }
                    "exists" | "forall" => {
                        let q = if name == "exists" {
                            Quantifier::Exists
                        } else {
                            Quantifier::Forall
                        };
                        let binds = rest
                            .first()
                            .and_then(SExp::list)
                            .ok_or_else(|| ParseError(format!("bad quantifier in {e}")))?;
                        let mut vars = Vec::new();
                        let mut scope = HashMap::new();
                        for b in binds {
                            let pair = b.list().filter(|p| p.len() == 2);
                            let Some(pair) = pair else {
                                return err(format!("bad binder {b}"));
                            };
                            let n = pair[0]
                                .symbol()
                                .ok_or_else(|| ParseError(format!("bad binder {b}")))?;
                            let v = Var::new(n, sexp_to_sort(&pair[1])?);
                            scope.insert(n.to_string(), Term::var(&v));
                            vars.push(v);
                        }
                        let body = rest
                            .get(1)
                            .ok_or_else(|| ParseError("quantifier without body".into()))?;
                        self.scopes.push(scope);
                        let r = self.term(body);
                        self.scopes.pop();
                        Ok(Term::quant(q, vars, r?))
                    }
                    "!" => match rest.first() {
                        Some(t) => self.term(t),
                        None => err("empty annotation"),
                    },
                    _ => {
                        let args = self.args(rest)?;
                        self.apply_named(name, args, e)
                    }
                }
            }
        }
    }

    fn apply_named(
        &mut self,
        name: &str,
        mut args: Vec<Term>,
        e: &SExp,
    ) -> Result<Term, ParseError> {
        // User symbols shadow nothing built in unless they were quoted, so built-ins come first; but a
        // let/binder-bound or declared function of the same name is only reachable quoted anyway.
        let n = args.len();
        let op = match name {
            "not" if n == 1 => return Ok(Term::not(&args[0])),
            "and" => return Ok(Term::and(args)),
            "or" => return Ok(Term::or(args)),
            "=>" => {
                // right-associative
                let Some(mut acc) = args.pop() else {
                    return err(format!("bad => in {e}"));
                };
                while let Some(a) = args.pop() {
                    acc = Term::implies(&a, &acc);
                }
                return Ok(acc);
            }
            "xor" => Op::Xor,
            "ite" if n == 3 => Op::Ite,
            "=" => Op::Eq,
            "distinct" => Op::Distinct,
            "<=" => Op::Le,
            "<" => Op::Lt,
            ">=" => Op::Ge,
            ">" => Op::Gt,
            "+" => return Ok(Term::add(args)),
            "-" if n == 1 => return Ok(Term::neg(&args[0])),
            "-" => Op::Sub,
            "*" => return Ok(Term::mul(args)),
            "div" => Op::IntDiv,
            "mod" => Op::Mod,
            "/" if n == 2 => return Ok(Term::real_div(&args[0], &args[1])),
            "/" => Op::RealDiv,
            "abs" => Op::Abs,
            "to_real" => Op::ToReal,
            "to_int" => Op::ToInt,
            "is_int" => Op::IsInt,
            "select" => Op::Select,
            "store" => Op::Store,
            "concat" => Op::Concat,
            "bv2nat" | "bv2int" if n == 1 && !self.env.funs.contains_key(name) => {
                Op::Builtin("bv2nat".into(), Sort::Int)
            }
            "fp" if n == 3 && !self.env.funs.contains_key(name) => {
                // (fp sign exponent significand): the sort from the widths
                match (args[1].sort_ref(), args[2].sort_ref()) {
                    (Sort::BitVec(eb), Sort::BitVec(m)) => {
                        Op::Builtin("fp".into(), fp_sort(*eb, m + 1))
                    }
                    _ => return err(format!("bad fp literal in {e}")),
                }
            }
            _ if name.starts_with("fp.") && !self.env.funs.contains_key(name) => {
                let sort = match name {
                    "fp.eq" | "fp.lt" | "fp.leq" | "fp.gt" | "fp.geq" | "fp.isNormal"
                    | "fp.isSubnormal" | "fp.isZero" | "fp.isInfinite" | "fp.isNaN"
                    | "fp.isNegative" | "fp.isPositive" => Sort::Bool,
                    "fp.to_real" => Sort::Real,
                    // the operations: the sort of their (last) float operand
                    _ => match args.last() {
                        Some(a) => a.sort(),
                        None => return err(format!("bad floating-point term {e}")),
                    },
                };
                Op::Builtin(name.to_string(), sort)
            }
            _ if name.starts_with("bv") && !self.env.funs.contains_key(name) => {
                Op::BvBuiltin(name.to_string())
            }
            _ => return self.apply_user(name, args, e),
        };
        Ok(Term::app(op, args))
    }

    fn apply_user(&mut self, name: &str, args: Vec<Term>, e: &SExp) -> Result<Term, ParseError> {
        match self.env.funs.get(name) {
            Some(f) if f.args.len() == args.len() => Ok(Term::uf(f, args)),
            Some(f) => err(format!(
                "function `{}` applied to {} arguments in {e}",
                f.name,
                args.len()
            )),
            None => err(format!(
                "unknown function `{name}` in {}",
                sexp::excerpt(&e.to_string())
            )),
        }
    }
}

/// SMT-LIB's `(_ FloatingPoint eb sb)` as the term layer writes it.
fn fp_sort(eb: u32, sb: u32) -> Sort {
    Sort::Builtin(format!("(_ FloatingPoint {eb} {sb})"))
}

/// Converts a parsed value term (a constant) to a [`Value`](super::term::Value), coercing integers to the expected sort.
pub fn term_to_value(t: &Term, expected: &Sort) -> Option<super::term::Value> {
    use super::term::Value;
    let v = t.as_const()?.clone();
    match (v, expected) {
        (Value::Int(i), Sort::Real) => Some(Value::Real(BigRational::from_integer(i))),
        (Value::Real(r), Sort::Int) if r.denom() == &BigInt::from(1) => {
            Some(Value::Int(r.numer().clone()))
        }
        (v, _) => Some(v),
    }
}
