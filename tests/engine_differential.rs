//! Differential test of the engine against brute force. Small random Boogie programs over four
//! local integers, a global array of four cells and a global counter: assignments reduced modulo
//! small constants, `havoc` into small ranges, `assume`, `if`/`if (*)`, unbounded `while (c)` and
//! `while (*)` loops, integer division, `if then else`, and calls of a procedure that modifies the
//! global. Every value stays in a small range, so the reachable states are finitely many: a
//! fixpoint per loop enumerates them exactly. The assertion at the end bounds a linear combination
//! of two variables by its exact extremum (Safe) or one step inside it (Unsafe), so a proof must be
//! as precise as the program, and `verify` must answer SAFE for the first, UNSAFE for the second, or
//! UNKNOWN. Seeds are fixed, so a failure reproduces; the failing program is kept in the test's
//! temporary directory.

mod common;

use common::lang::{Cond, Expr, Random, Rng, cond_text, const_text, eval, expr_text, holds};
use std::collections::BTreeSet;

/// Programs generated (those whose every execution blocks, or with too many states, are dropped).
const PROGRAMS: u64 = 40;
/// The enumeration gives up beyond this many states at one loop head.
const STATE_LIMIT: usize = 20_000;

/// x, y, z, w, then the array's cells a[0..4], then the global g.
type State = [i64; 9];
const VARS: [&str; 4] = ["x", "y", "z", "w"];
const A0: usize = 4;
const G: usize = 8;

#[derive(Clone, Debug)]
enum Stmt {
    Assign(usize, Expr),
    /// `havoc v; assume lo <= v && v <= hi;`
    Havoc(usize, i64, i64),
    Assume(Cond),
    /// `if (c)`, or `if (*)` for `None`
    If(Option<Cond>, Vec<Stmt>, Vec<Stmt>),
    /// `while (c)`, or `while (*)` for `None`
    While(Option<Cond>, Vec<Stmt>),
    /// `a[i % 4] := e;`
    Write(Expr, Expr),
    /// `call v := step(e);`
    Call(usize, Expr),
}

struct Gen {
    rng: Rng,
}

impl Random for Gen {
    fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    fn var(&mut self) -> usize {
        self.below(4) as usize
    }

    fn expr(&mut self, depth: u32) -> Expr {
        if depth >= 2 || self.chance(35) {
            return match self.below(3) {
                0 => Expr::Const(self.range(-3, 5)),
                _ => Expr::Var(self.var()),
            };
        }
        let d = depth + 1;
        let b = |e: Expr| Box::new(e);
        match self.below(9) {
            0 | 1 => Expr::Add(b(self.expr(d)), b(self.expr(d))),
            2 | 3 => Expr::Sub(b(self.expr(d)), b(self.expr(d))),
            4 => {
                let k = [2, 3, -1][self.below(3) as usize];
                Expr::Scale(k, b(self.expr(d)))
            }
            5 => Expr::Div(b(self.expr(d)), self.range(2, 4)),
            6 => Expr::Mod(b(self.expr(d)), self.range(2, 4)),
            7 => Expr::Ite(Box::new(self.cond(d)), b(self.expr(d)), b(self.expr(d))),
            _ => Expr::Read(A0, b(self.expr(d))),
        }
    }
}

impl Gen {
    /// A value reduced modulo a small constant: every variable stays in a small range.
    fn bounded(&mut self) -> Expr {
        let m = self.range(5, 40);
        Expr::Mod(Box::new(self.expr(0)), m)
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        let k = self.below(100);
        let d = depth + 1;
        if k < 35 {
            let v = self.var();
            return if self.chance(80) {
                Stmt::Assign(v, self.bounded())
            } else {
                Stmt::Assign(v, Expr::Var(self.var()))
            };
        }
        if k < 45 {
            let lo = self.range(-2, 2);
            let hi = lo + self.range(0, 3);
            return Stmt::Havoc(self.var(), lo, hi);
        }
        if k < 50 {
            let i = self.expr(0);
            let m = self.range(3, 9);
            return Stmt::Write(i, Expr::Mod(Box::new(self.expr(0)), m));
        }
        if k < 55 {
            return Stmt::Call(self.var(), self.expr(0));
        }
        if depth < 2 && k < 72 {
            let c = self.chance(70).then(|| self.cond(0));
            let then = self.block(d);
            let els = if self.chance(60) {
                self.block(d)
            } else {
                Vec::new()
            };
            return Stmt::If(c, then, els);
        }
        if depth < 2 && k < 92 {
            let c = self.chance(60).then(|| self.cond(0));
            return Stmt::While(c, self.block(d));
        }
        if k < 96 {
            return Stmt::Assume(self.cond(0));
        }
        Stmt::Assign(self.var(), self.bounded())
    }

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.below(4);
        (0..n).map(|_| self.stmt(depth)).collect()
    }
}

type States = BTreeSet<State>;

/// The states after `block` from `states`; `None` beyond the state limit.
fn run(block: &[Stmt], mut states: States) -> Option<States> {
    for st in block {
        states = step(st, states)?;
    }
    Some(states)
}

fn step(st: &Stmt, states: States) -> Option<States> {
    let map = |f: &dyn Fn(&State) -> State| states.iter().map(f).collect::<States>();
    Some(match st {
        Stmt::Assign(v, e) => map(&|s| {
            let mut t = *s;
            t[*v] = eval(e, s);
            t
        }),
        Stmt::Havoc(v, lo, hi) => states
            .iter()
            .flat_map(|s| {
                (*lo..=*hi).map(move |x| {
                    let mut t = *s;
                    t[*v] = x;
                    t
                })
            })
            .collect(),
        Stmt::Assume(c) => states.into_iter().filter(|s| holds(c, s)).collect(),
        Stmt::Write(i, e) => map(&|s| {
            let mut t = *s;
            t[A0 + eval(i, s).rem_euclid(4) as usize] = eval(e, s);
            t
        }),
        Stmt::Call(v, e) => map(&|s| {
            let p = eval(e, s);
            let mut t = *s;
            t[G] = (s[G] + p).rem_euclid(9);
            t[*v] = (t[G] * 2 + p).rem_euclid(7);
            t
        }),
        Stmt::If(c, a, b) => {
            let (yes, no): (States, States) = match c {
                Some(c) => states.into_iter().partition(|s| holds(c, s)),
                None => (states.clone(), states),
            };
            let mut out = run(a, yes)?;
            out.extend(run(b, no)?);
            out
        }
        Stmt::While(c, body) => {
            // the states at the loop head: a fixpoint
            let mut seen = States::new();
            let mut out = States::new();
            let mut frontier = states;
            while !frontier.is_empty() {
                let new: States = frontier.difference(&seen).copied().collect();
                seen.extend(new.iter().copied());
                if seen.len() > STATE_LIMIT {
                    return None;
                }
                let go: States = match c {
                    Some(c) => {
                        let (go, exit): (States, States) =
                            new.into_iter().partition(|s| holds(c, s));
                        out.extend(exit);
                        go
                    }
                    None => {
                        out.extend(new.iter().copied());
                        new
                    }
                };
                frontier = run(body, go)?;
            }
            out
        }
    })
}

fn text(e: &Expr) -> String {
    expr_text(e, &VARS)
}

fn ctext(c: &Cond) -> String {
    cond_text(c, &VARS)
}

fn block_text(block: &[Stmt], indent: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(indent);
    for st in block {
        match st {
            Stmt::Assign(v, e) => out.push(format!("{pad}{} := {};", VARS[*v], text(e))),
            Stmt::Havoc(v, lo, hi) => {
                let v = VARS[*v];
                out.push(format!(
                    "{pad}havoc {v}; assume {} <= {v} && {v} <= {};",
                    const_text(*lo),
                    const_text(*hi)
                ));
            }
            Stmt::Assume(c) => out.push(format!("{pad}assume {};", ctext(c))),
            Stmt::Write(i, e) => out.push(format!("{pad}a[{} % 4] := {};", text(i), text(e))),
            Stmt::Call(v, e) => out.push(format!("{pad}call {} := step({});", VARS[*v], text(e))),
            Stmt::If(c, a, b) => {
                let c = c.as_ref().map_or("*".to_string(), ctext);
                out.push(format!("{pad}if ({c}) {{"));
                block_text(a, indent + 1, out);
                out.push(format!("{pad}}} else {{"));
                block_text(b, indent + 1, out);
                out.push(format!("{pad}}}"));
            }
            Stmt::While(c, body) => {
                let c = c.as_ref().map_or("*".to_string(), ctext);
                out.push(format!("{pad}while ({c}) {{"));
                block_text(body, indent + 1, out);
                out.push(format!("{pad}}}"));
            }
        }
    }
}

/// The program of `seed` and whether it is Unsafe; `None` when it is dropped.
fn program(seed: u64) -> Option<(String, bool)> {
    let mut g = Gen {
        rng: Rng::new(seed, 0xD1B5_4A32_D192_ED03),
    };
    let mut body = g.block(0);
    body.extend(g.block(0));
    let mut init: State = [0; 9];
    for v in init.iter_mut() {
        *v = g.range(-2, 3);
    }
    let havocked: Vec<usize> = (0..4).filter(|_| g.chance(30)).collect();
    let mut start = States::from([init]);
    for v in &havocked {
        start = step(&Stmt::Havoc(*v, -1, 2), start)?;
    }
    let finals = run(&body, start)?;
    // the bound: c1 * v1 + c2 * v2 at its extremum, or one step inside it
    let v1 = g.var();
    let v2 = (v1 + 1 + g.below(3) as usize) % 4;
    let c1 = [1, 1, 2, -1][g.below(4) as usize];
    let c2 = [0, 1, -1][g.below(3) as usize];
    let values = finals.iter().map(|s| c1 * s[v1] + c2 * s[v2]);
    let (lo, hi) = (values.clone().min()?, values.max()?);
    let unsafe_ = seed % 2 == 1;
    let sum = format!(
        "({} * {} + {} * {})",
        const_text(c1),
        VARS[v1],
        const_text(c2),
        VARS[v2]
    );
    let assertion = if g.chance(50) {
        format!("{sum} <= {}", const_text(hi - i64::from(unsafe_)))
    } else {
        format!("{sum} >= {}", const_text(lo + i64::from(unsafe_)))
    };
    let mut lines = vec![
        "var a: [int]int;".to_string(),
        "var g: int;".to_string(),
        "procedure step(p: int) returns (r: int)".to_string(),
        "  modifies g;".to_string(),
        "{".to_string(),
        "  g := (g + p) % 9;".to_string(),
        "  r := (g * 2 + p) % 7;".to_string(),
        "}".to_string(),
        "procedure main()".to_string(),
        "  modifies a, g;".to_string(),
        "{".to_string(),
        "  var x, y, z, w: int;".to_string(),
    ];
    for (v, name) in VARS.iter().enumerate() {
        if havocked.contains(&v) {
            lines.push(format!(
                "  havoc {name}; assume -1 <= {name} && {name} <= 2;"
            ));
        } else {
            lines.push(format!("  {name} := {};", const_text(init[v])));
        }
    }
    for i in 0..4 {
        lines.push(format!("  a[{i}] := {};", const_text(init[A0 + i])));
    }
    lines.push(format!("  g := {};", const_text(init[G])));
    block_text(&body, 1, &mut lines);
    lines.push(format!("  assert {assertion};"));
    lines.push("}".to_string());
    Some((lines.join("\n") + "\n", unsafe_))
}

#[test]
fn verdicts_agree_with_enumerated_executions() {
    let Some(dir) = common::differential_dir("engine") else {
        return;
    };
    let mut kept: usize = 0;
    let mut verdicts = common::Verdicts::default();
    for seed in 0..PROGRAMS {
        let Some((src, unsafe_)) = program(seed) else {
            continue;
        };
        kept += 1;
        let file = dir.join(format!("p{seed}.bpl"));
        std::fs::write(&file, &src).expect("write the program");
        verdicts.run(&[], &file, unsafe_);
    }
    verdicts.assert_sound();
    let decided = verdicts.decided;
    // (not vacuous: most programs are kept, and most of those decided)
    assert!(
        kept as u64 >= PROGRAMS / 2,
        "only {kept} of {PROGRAMS} kept"
    );
    assert!(decided * 4 >= kept * 3, "only {decided} of {kept} decided");
    eprintln!("{kept} of {PROGRAMS} programs kept, {decided} decided");
}
