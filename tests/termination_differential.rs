//! Differential test of the termination analysis against brute force. Small random Boogie
//! programs over three integers with nested loops (`while (c)`, and loops bounded by counters),
//! `if`/`if (*)`, blocking `assume`, `havoc` into small ranges, and assignments that step a
//! variable by one or reduce a value modulo a small constant. An explicit search over the
//! configurations (location and values) decides termination exactly where they are finitely many:
//! a program is nonterminating exactly when a configuration it reaches lies on a cycle.
//! - Even seeds start from `havoc`ed values in small ranges: the program is dropped when a value
//!   leaves [-40, 40] (the search would not be exact), else its termination is known, and
//!   `verify --property termination` must not answer against it.
//! - Odd seeds start from unconstrained values (`havoc x, y, z;`): the search starts from every
//!   value in [-4, 4] and stops where a value leaves [-40, 40]; a cycle it reaches makes the program
//!   nonterminating, and TERMINATING would be wrong; without one the program is dropped (it may
//!   not terminate for larger values).
//!
//! Seeds are fixed, so a failure reproduces; the failing program is kept in the test's temporary
//! directory.

mod common;

use common::lang::{
    Bounds, Cond, Expr, Ins, Probed, Random, Rng, Stmt, block_text, compile, exec, holds,
};
use std::collections::{BTreeMap, HashMap};

/// Programs generated.
const PROGRAMS: u64 = 80;
/// The search gives up beyond this many configurations.
const STATE_LIMIT: usize = 100_000;
/// Values beyond this bound end the search's exactness.
const BOUND: i64 = 40;

/// x, y, z, then the counters of the bounded loops at depth 0 and 1.
type State = [i64; 5];
const NAMES: [&str; 5] = ["x", "y", "z", "k0", "k1"];

struct Gen {
    rng: Rng,
}

impl Random for Gen {
    fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    fn expr(&mut self, depth: u32) -> Expr {
        self.small_expr(depth)
    }

    fn var(&mut self) -> usize {
        self.below(3) as usize
    }
}

impl Gen {
    fn assign(&mut self) -> Stmt {
        let v = self.var();
        if self.chance(30) {
            let one = Box::new(Expr::Const(1));
            let x = Box::new(Expr::Var(v));
            return Stmt::Assign(
                v,
                if self.chance(50) {
                    Expr::Add(x, one)
                } else {
                    Expr::Sub(x, one)
                },
            );
        }
        let m = self.range(3, 5);
        Stmt::Assign(v, Expr::modulo(self.expr(0), m))
    }

    fn simple(&mut self) -> Stmt {
        let k = self.below(100);
        if k < 60 {
            return self.assign();
        }
        if k < 75 {
            return self.small_havoc(Self::var);
        }
        if k < 85 {
            return Stmt::Assume(self.cond(0));
        }
        self.if_else(60, |g| vec![g.assign()])
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        let k = self.below(100);
        if k < 45 {
            return self.simple();
        }
        if depth < 2 && k < 65 {
            return self.if_else(70, |g| g.block(depth + 1));
        }
        if depth < 2 && k < 90 {
            return if self.chance(70) {
                Stmt::While(self.cond(0), self.block(depth + 1))
            } else {
                let c = self.chance(60).then(|| self.cond(0));
                let n = self.range(1, 3);
                Stmt::Bounded(3 + depth as usize, n, c, self.block(depth + 1))
            };
        }
        self.assign()
    }

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.below(3);
        (0..n).map(|_| self.stmt(depth)).collect()
    }
}

/// Whether a configuration reachable from `init` lies on a cycle; `None` beyond the limit, or
/// (with `exact`) when a value leaves the bound. Without `exact` such a configuration is a dead
/// end (the answer `false` then says nothing).
fn reaches_cycle(code: &[Ins], init: Vec<(usize, State)>, exact: bool) -> Option<bool> {
    let mut succ: HashMap<(usize, State), Vec<(usize, State)>> = HashMap::new();
    let mut todo = init;
    let mut unused = Probed::new();
    while let Some(c) = todo.pop() {
        if succ.contains_key(&c) {
            continue;
        }
        let (pc, s) = c;
        let mut next = Vec::new();
        if s.iter().any(|v| v.abs() > BOUND) {
            if exact {
                return None;
            }
        } else {
            match code.get(pc) {
                None => {}
                Some(Ins::Do(seq)) => {
                    next.extend(exec(seq, s, &mut unused).into_iter().map(|t| (pc + 1, t)))
                }
                Some(Ins::Goto(t)) => next.push((*t, s)),
                Some(Ins::Branch(arms)) => {
                    for (g, t) in arms {
                        if g.as_ref().is_none_or(|g| holds(g, &s)) {
                            next.push((*t, s));
                        }
                    }
                }
                Some(other) => unreachable!("no threads here: {other:?}"),
            }
        }
        todo.extend(next.iter().copied());
        succ.insert(c, next);
        if succ.len() > STATE_LIMIT {
            return None;
        }
    }
    // a depth-first search: an edge back to a configuration on the stack closes a cycle
    let mut colour: BTreeMap<(usize, State), bool> = BTreeMap::new(); // false: on the stack
    for root in succ.keys() {
        if colour.contains_key(root) {
            continue;
        }
        colour.insert(*root, false);
        let mut stack = vec![(*root, 0)];
        while let Some((c, i)) = stack.pop() {
            match succ[&c].get(i) {
                None => {
                    colour.insert(c, true);
                }
                Some(n) => {
                    stack.push((c, i + 1));
                    match colour.get(n) {
                        Some(false) => return Some(true),
                        Some(true) => {}
                        None => {
                            colour.insert(*n, false);
                            stack.push((*n, 0));
                        }
                    }
                }
            }
        }
    }
    Some(false)
}

/// The program of `seed` and whether it terminates; `None` when it is dropped.
fn program(seed: u64) -> Option<(String, bool)> {
    let mut g = Gen {
        rng: Rng::new(seed, 0x2545_F491_4F6C_DD1D),
    };
    let free = seed % 2 == 1;
    let mut body = Vec::new();
    if !free {
        for v in 0..3 {
            let hi = g.range(0, 3);
            body.push(Stmt::Havoc(v, 0, hi));
        }
    }
    body.extend(g.block(0));
    if !body
        .iter()
        .any(|s| matches!(s, Stmt::While(..) | Stmt::Bounded(..)))
    {
        let c: Cond = g.cond(0);
        let b = g.block(1);
        body.push(Stmt::While(c, b));
    }
    let mut code = Vec::new();
    compile(&body, &mut code);
    let terminating = if free {
        let mut init = Vec::new();
        for x in -4..=4 {
            for y in -4..=4 {
                for z in -4..=4 {
                    init.push((0, [x, y, z, 0, 0]));
                }
            }
        }
        if !reaches_cycle(&code, init, false)? {
            return None;
        }
        false
    } else {
        !reaches_cycle(&code, vec![(0, [0; 5])], true)?
    };
    let mut lines = vec![
        "procedure main()".to_string(),
        "{".to_string(),
        "  var x, y, z, k0, k1: int;".to_string(),
    ];
    if free {
        lines.push("  havoc x, y, z;".to_string());
    }
    // (`atomic`: a `havoc` and its range are printed as two statements, not an atomic block)
    block_text(&body, &NAMES, &Bounds::new(), true, 1, &mut lines);
    lines.push("}".to_string());
    Some((lines.join("\n") + "\n", terminating))
}

#[test]
fn termination_verdicts_agree_with_the_configuration_graph() {
    let Some(dir) = common::differential_dir("termination") else {
        return;
    };
    let (mut kept, mut terminating) = (0usize, 0usize);
    let mut verdicts = common::Verdicts::default();
    for seed in 0..PROGRAMS {
        let Some((src, t)) = program(seed) else {
            continue;
        };
        kept += 1;
        terminating += usize::from(t);
        let file = dir.join(format!("m{seed}.bpl"));
        std::fs::write(&file, &src).expect("write the program");
        let (expected, contradicting) = if t {
            ("TERMINATING", "NONTERMINATING")
        } else {
            ("NONTERMINATING", "TERMINATING")
        };
        verdicts.run_expecting(
            &["--property", "termination"],
            &file,
            expected,
            contradicting,
        );
    }
    verdicts.assert_sound();
    let decided = verdicts.decided;
    // (not vacuous: most programs are kept, both answers occur, and most are decided)
    assert!(
        kept as u64 >= PROGRAMS / 2,
        "only {kept} of {PROGRAMS} kept"
    );
    assert!(
        terminating * 5 >= kept && terminating * 5 <= kept * 4,
        "{terminating} of {kept} terminating"
    );
    assert!(decided * 4 >= kept * 3, "only {decided} of {kept} decided");
    eprintln!("{kept} of {PROGRAMS} programs kept ({terminating} terminating), {decided} decided");
}
