//! The integer language of the differential tests against brute force (`engine_differential`,
//! `concurrent_differential`, `termination_differential`): expressions and conditions over a slice
//! of variable values, their evaluation (as Boogie's integers: `/` and `%` Euclidean) and their
//! Boogie text, a reproducible random generator, and structured statements with threads compiled
//! to steps for an explicit search.

use std::collections::BTreeMap;

/// An integer expression; `Var(i)` is the `i`-th value of the state.
#[derive(Clone, Debug)]
pub enum Expr {
    Var(usize),
    Const(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    /// `k * e`
    Scale(i64, Box<Expr>),
    /// Boogie's `/` and `%` on integers (Euclidean; the divisor here is positive: floor).
    Div(Box<Expr>, i64),
    Mod(Box<Expr>, i64),
    Ite(Box<Cond>, Box<Expr>, Box<Expr>),
    /// `a[e % 4]`, the array's four cells at `base..base + 4` of the state
    Read(usize, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Cond {
    Cmp(&'static str, Expr, Expr),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
}

impl Expr {
    pub fn modulo(e: Expr, k: i64) -> Expr {
        Expr::Mod(Box::new(e), k)
    }
}

impl Cond {
    pub fn not(&self) -> Cond {
        Cond::Not(Box::new(self.clone()))
    }
}

pub fn eval(e: &Expr, s: &[i64]) -> i64 {
    match e {
        Expr::Var(v) => s[*v],
        Expr::Const(c) => *c,
        Expr::Add(a, b) => eval(a, s) + eval(b, s),
        Expr::Sub(a, b) => eval(a, s) - eval(b, s),
        Expr::Scale(k, a) => k * eval(a, s),
        Expr::Div(a, k) => eval(a, s).div_euclid(*k),
        Expr::Mod(a, k) => eval(a, s).rem_euclid(*k),
        Expr::Ite(c, a, b) => {
            if holds(c, s) {
                eval(a, s)
            } else {
                eval(b, s)
            }
        }
        Expr::Read(base, i) => s[base + eval(i, s).rem_euclid(4) as usize],
    }
}

pub fn holds(c: &Cond, s: &[i64]) -> bool {
    match c {
        Cond::Cmp(op, a, b) => {
            let (a, b) = (eval(a, s), eval(b, s));
            match *op {
                "<" => a < b,
                "<=" => a <= b,
                "==" => a == b,
                "!=" => a != b,
                ">" => a > b,
                _ => a >= b,
            }
        }
        Cond::And(a, b) => holds(a, s) && holds(b, s),
        Cond::Or(a, b) => holds(a, s) || holds(b, s),
        Cond::Not(a) => !holds(a, s),
    }
}

pub fn const_text(c: i64) -> String {
    if c < 0 {
        format!("(-{})", -c)
    } else {
        c.to_string()
    }
}

/// The Boogie text of `e`, with `names[i]` for `Var(i)`.
pub fn expr_text(e: &Expr, names: &[&str]) -> String {
    let t = |e: &Expr| expr_text(e, names);
    match e {
        Expr::Var(v) => names[*v].to_string(),
        Expr::Const(c) => const_text(*c),
        Expr::Add(a, b) => format!("({} + {})", t(a), t(b)),
        Expr::Sub(a, b) => format!("({} - {})", t(a), t(b)),
        Expr::Scale(k, a) => format!("({} * {})", const_text(*k), t(a)),
        Expr::Div(a, k) => format!("({} / {k})", t(a)),
        Expr::Mod(a, k) => format!("({} % {k})", t(a)),
        Expr::Ite(c, a, b) => {
            format!("(if {} then {} else {})", cond_text(c, names), t(a), t(b))
        }
        Expr::Read(_, i) => format!("a[{} % 4]", t(i)),
    }
}

pub fn cond_text(c: &Cond, names: &[&str]) -> String {
    match c {
        Cond::Cmp(op, a, b) => format!("({} {op} {})", expr_text(a, names), expr_text(b, names)),
        Cond::And(a, b) => format!("({} && {})", cond_text(a, names), cond_text(b, names)),
        Cond::Or(a, b) => format!("({} || {})", cond_text(a, names), cond_text(b, names)),
        Cond::Not(a) => format!("!{}", cond_text(a, names)),
    }
}

/// A reproducible random generator (a linear congruential one, `super::below`).
pub struct Rng {
    pub state: u64,
}

impl Rng {
    /// The generator of `seed`, scrambled by `salt` (one per test).
    pub fn new(seed: u64, salt: u64) -> Rng {
        Rng {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt,
        }
    }

    pub fn below(&mut self, n: u64) -> u64 {
        super::below(&mut self.state, n)
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random program generator: its own expressions, and conditions over them.
pub trait Random {
    fn rng(&mut self) -> &mut Rng;

    fn expr(&mut self, depth: u32) -> Expr;

    /// A variable to read.
    fn var(&mut self) -> usize;

    /// An expression over `var`s and constants in [-2, 4]: sums, differences, small multiples,
    /// remainders modulo 2–4 and `if then else`, at most two operators deep (the generators with
    /// threads and loops; `expr` for the subexpressions).
    fn small_expr(&mut self, depth: u32) -> Expr {
        if depth >= 2 || self.chance(40) {
            return match self.below(3) {
                0 => Expr::Const(self.range(-2, 4)),
                _ => Expr::Var(self.var()),
            };
        }
        let d = depth + 1;
        let b = |e: Expr| Box::new(e);
        match self.below(7) {
            0 | 1 => Expr::Add(b(self.expr(d)), b(self.expr(d))),
            2 | 3 => Expr::Sub(b(self.expr(d)), b(self.expr(d))),
            4 => {
                let k = [2, 3, -1][self.below(3) as usize];
                Expr::Scale(k, b(self.expr(d)))
            }
            5 => Expr::Mod(b(self.expr(d)), self.range(2, 4)),
            _ => Expr::Ite(Box::new(self.cond(d)), b(self.expr(d)), b(self.expr(d))),
        }
    }

    /// `havoc v` into a range of at most three values about 0, for the variable `var` picks.
    fn small_havoc(&mut self, var: impl FnOnce(&mut Self) -> usize) -> Stmt
    where
        Self: Sized,
    {
        let lo = self.range(-1, 1);
        let hi = lo + self.range(0, 2);
        Stmt::Havoc(var(self), lo, hi)
    }

    /// `if (c)` (with `cond_percent` chance, else `if (*)`) over the block `branch` makes, with an
    /// `else` block half of the time.
    fn if_else(&mut self, cond_percent: u64, mut branch: impl FnMut(&mut Self) -> Vec<Stmt>) -> Stmt
    where
        Self: Sized,
    {
        let c = self.chance(cond_percent).then(|| self.cond(0));
        let then = branch(self);
        let els = if self.chance(50) {
            branch(self)
        } else {
            Vec::new()
        };
        Stmt::If(c, then, els)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng().below(n)
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng().range(lo, hi)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng().chance(percent)
    }

    /// A comparison of two expressions, or (at depth 0, sometimes) a conjunction or disjunction of
    /// two conditions; sometimes negated.
    fn cond(&mut self, depth: u32) -> Cond {
        if depth < 1 && self.chance(20) {
            let (l, r) = (
                Box::new(self.cond(depth + 1)),
                Box::new(self.cond(depth + 1)),
            );
            return if self.chance(50) {
                Cond::And(l, r)
            } else {
                Cond::Or(l, r)
            };
        }
        if self.chance(10) {
            return Cond::Not(Box::new(self.cond(depth + 1)));
        }
        let op = ["<", "<=", "==", "!=", ">", ">="][self.below(6) as usize];
        Cond::Cmp(op, self.expr(depth + 1), self.expr(depth + 1))
    }
}

/// A structured program of the tests with threads and loops (`concurrent_differential`,
/// `termination_differential`): statements, their steps (`compile`: a thread's control flow as a
/// list of instructions), the straight-line execution of a step, and the Boogie text.
#[derive(Clone, Debug)]
pub enum Stmt {
    Assign(usize, Expr),
    /// `havoc v; assume lo <= v && v <= hi;` (one atomic step)
    Havoc(usize, i64, i64),
    Assume(Cond),
    /// `if (c)`, or `if (*)` for `None`
    If(Option<Cond>, Vec<Stmt>, Vec<Stmt>),
    /// `k := 0; while (k < n && c) { body; k := k + 1; }` for the counter `k` (a variable)
    Bounded(usize, i64, Option<Cond>, Vec<Stmt>),
    /// `while (c) { body }`
    While(Cond, Vec<Stmt>),
    /// `atomic { … }` of assignments, havocs, assumptions and `if`s of these
    Atomic(Vec<Stmt>),
    /// `assert e <= c` / `assert e >= c` (the bound is chosen once the values are known)
    Probe(usize, Expr),
    /// `fork id T<proc>(e);`
    Fork(i64, usize, Expr),
    /// `join id;` or `join id assign v;`
    Join(i64, Option<usize>),
}

/// One step of a thread: a sequence executed atomically, a branch, a jump, a fork or a join.
#[derive(Clone, Debug)]
pub enum Ins {
    Do(Vec<Stmt>),
    Branch(Vec<(Option<Cond>, usize)>),
    Goto(usize),
    Fork(i64, usize, Expr),
    Join(i64, Option<usize>),
}

/// The values each probe is reached with.
pub type Probed = BTreeMap<usize, (i64, i64)>;

/// The views after the straight-line `seq` from `s` (probes record their values in `probed`).
pub fn exec<const N: usize>(seq: &[Stmt], s: [i64; N], probed: &mut Probed) -> Vec<[i64; N]> {
    let mut views = vec![s];
    for st in seq {
        let mut next = Vec::new();
        for s in views {
            match st {
                Stmt::Assign(v, e) => {
                    let mut t = s;
                    t[*v] = eval(e, &s);
                    next.push(t);
                }
                Stmt::Havoc(v, lo, hi) => next.extend((*lo..=*hi).map(|x| {
                    let mut t = s;
                    t[*v] = x;
                    t
                })),
                Stmt::Assume(c) => {
                    if holds(c, &s) {
                        next.push(s);
                    }
                }
                Stmt::If(c, a, b) => {
                    let (yes, no) = match c {
                        Some(c) => (holds(c, &s), !holds(c, &s)),
                        None => (true, true),
                    };
                    if yes {
                        next.extend(exec(a, s, probed));
                    }
                    if no {
                        next.extend(exec(b, s, probed));
                    }
                }
                Stmt::Probe(i, e) => {
                    let x = eval(e, &s);
                    let r = probed.entry(*i).or_insert((x, x));
                    *r = (r.0.min(x), r.1.max(x));
                    next.push(s);
                }
                other => unreachable!("not straight-line: {other:?}"),
            }
        }
        views = next;
    }
    views
}

/// The steps of `block` appended to `code`.
pub fn compile(block: &[Stmt], code: &mut Vec<Ins>) {
    for st in block {
        match st {
            Stmt::Atomic(seq) => code.push(Ins::Do(seq.clone())),
            Stmt::If(c, a, b) => {
                let head = code.len();
                code.push(Ins::Goto(0));
                compile(a, code);
                let jump = code.len();
                code.push(Ins::Goto(0));
                compile(b, code);
                let end = code.len();
                code[head] = Ins::Branch(vec![
                    (c.clone(), head + 1),
                    (c.as_ref().map(Cond::not), jump + 1),
                ]);
                code[jump] = Ins::Goto(end);
            }
            Stmt::Bounded(k, n, c, body) => {
                let k = *k;
                code.push(Ins::Do(vec![Stmt::Assign(k, Expr::Const(0))]));
                let head = code.len();
                code.push(Ins::Goto(0));
                compile(body, code);
                let step = Expr::Add(Box::new(Expr::Var(k)), Box::new(Expr::Const(1)));
                code.push(Ins::Do(vec![Stmt::Assign(k, step)]));
                code.push(Ins::Goto(head));
                let end = code.len();
                let mut guard = Cond::Cmp("<", Expr::Var(k), Expr::Const(*n));
                if let Some(c) = c {
                    guard = Cond::And(Box::new(guard), Box::new(c.clone()));
                }
                code[head] = Ins::Branch(vec![
                    (Some(guard.clone()), head + 1),
                    (Some(guard.not()), end),
                ]);
            }
            Stmt::While(c, body) => {
                let head = code.len();
                code.push(Ins::Goto(0));
                compile(body, code);
                code.push(Ins::Goto(head));
                let end = code.len();
                code[head] = Ins::Branch(vec![(Some(c.clone()), head + 1), (Some(c.not()), end)]);
            }
            Stmt::Fork(id, p, e) => code.push(Ins::Fork(*id, *p, e.clone())),
            Stmt::Join(id, v) => code.push(Ins::Join(*id, *v)),
            other => code.push(Ins::Do(vec![other.clone()])),
        }
    }
}

/// The bound of each probe that is reached: `e <= c` or `e >= c` (a probe without one asserts
/// `false`).
pub type Bounds = BTreeMap<usize, (&'static str, i64)>;

/// The text of `block`; `bounds` gives each probe's assertion, `atomic` says whether the block
/// is already inside an atomic block.
pub fn block_text(
    block: &[Stmt],
    names: &[&str],
    bounds: &Bounds,
    atomic: bool,
    indent: usize,
    out: &mut Vec<String>,
) {
    let pad = "  ".repeat(indent);
    let e = |x: &Expr| expr_text(x, names);
    let c = |x: &Cond| cond_text(x, names);
    for st in block {
        match st {
            Stmt::Assign(v, x) => out.push(format!("{pad}{} := {};", names[*v], e(x))),
            Stmt::Havoc(v, lo, hi) => {
                let v = names[*v];
                let h = format!(
                    "havoc {v}; assume {} <= {v} && {v} <= {};",
                    const_text(*lo),
                    const_text(*hi)
                );
                out.push(if atomic {
                    format!("{pad}{h}")
                } else {
                    format!("{pad}atomic {{ {h} }}")
                });
            }
            Stmt::Assume(x) => out.push(format!("{pad}assume {};", c(x))),
            Stmt::If(x, a, b) => {
                let x = x.as_ref().map_or("*".to_string(), c);
                out.push(format!("{pad}if ({x}) {{"));
                block_text(a, names, bounds, atomic, indent + 1, out);
                out.push(format!("{pad}}} else {{"));
                block_text(b, names, bounds, atomic, indent + 1, out);
                out.push(format!("{pad}}}"));
            }
            Stmt::Bounded(k, n, x, body) => {
                let k = names[*k];
                let guard = match x {
                    Some(x) => format!("{k} < {n} && {}", c(x)),
                    None => format!("{k} < {n}"),
                };
                out.push(format!("{pad}{k} := 0;"));
                out.push(format!("{pad}while ({guard}) {{"));
                block_text(body, names, bounds, atomic, indent + 1, out);
                out.push(format!("{pad}  {k} := {k} + 1;"));
                out.push(format!("{pad}}}"));
            }
            Stmt::While(x, body) => {
                out.push(format!("{pad}while ({}) {{", c(x)));
                block_text(body, names, bounds, atomic, indent + 1, out);
                out.push(format!("{pad}}}"));
            }
            Stmt::Atomic(seq) => {
                out.push(format!("{pad}atomic {{"));
                block_text(seq, names, bounds, true, indent + 1, out);
                out.push(format!("{pad}}}"));
            }
            Stmt::Probe(i, x) => out.push(match bounds.get(i) {
                Some((op, c)) => format!("{pad}assert {} {op} {};", e(x), const_text(*c)),
                None => format!("{pad}assert false;"),
            }),
            Stmt::Fork(id, p, x) => out.push(format!("{pad}fork {id} T{p}({});", e(x))),
            Stmt::Join(id, None) => out.push(format!("{pad}join {id};")),
            Stmt::Join(id, Some(v)) => out.push(format!("{pad}join {id} assign {};", names[*v])),
        }
    }
}
