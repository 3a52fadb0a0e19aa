//! Differential test of the concurrent engine against brute force. Small random Boogie programs
//! with threads: three shared integers, worker procedures forked from `ULTIMATE.start` (with
//! distinct thread ids, or several instances of one id forked in a loop), `join` with and without
//! `assign`, `atomic` blocks, blocking `assume`, `if`/`if (*)`, bounded and unbounded loops, and
//! `havoc` into small ranges. Every value is reduced modulo small constants, so the configurations
//! (shared state, each thread's location and locals, finished threads awaiting their join) are
//! finitely many: an explicit search over all interleavings enumerates them exactly. Assertions
//! (probes) sit in the workers and in `ULTIMATE.start`; each bounds an expression by the exact
//! extremum of its values where it is reached (Safe), or one of them one step inside it (Unsafe);
//! a probe that is never reached asserts `false`. `verify` must answer SAFE / UNSAFE as the search
//! says, or UNKNOWN, under the default reduction and under each other `--por` mode and without
//! block encoding. Seeds are fixed, so a failure reproduces; the failing program is kept in the
//! test's temporary directory.

mod common;

use common::lang::{
    Bounds, Expr, Ins, Probed, Random, Rng, Stmt, block_text, compile, eval, exec, holds,
};
use std::collections::HashSet;

/// Programs generated (those with too many configurations are dropped).
const PROGRAMS: u64 = 30;
/// The search gives up beyond this many configurations.
const STATE_LIMIT: usize = 200_000;

/// The variables a thread sees: the shared x, y, z, then its own `a` (a worker's parameter; `u` in
/// `ULTIMATE.start`), `l` (`v`), the loop counter `k` and the result `res`.
type View = [i64; 7];
const SHARED: usize = 3;
const K: usize = 5;
const RES: usize = 6;
const WORKER_NAMES: [&str; 7] = ["x", "y", "z", "a", "l", "k", "res"];
const MAIN_NAMES: [&str; 7] = ["x", "y", "z", "u", "v", "k", "res"];

struct Gen {
    rng: Rng,
    worker: bool,
    probes: Vec<Expr>,
}

impl Random for Gen {
    fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    fn expr(&mut self, depth: u32) -> Expr {
        self.small_expr(depth)
    }

    /// A variable to read: shared or the thread's `a`/`u`, `l`/`v`.
    fn var(&mut self) -> usize {
        self.below(5) as usize
    }
}

impl Gen {
    /// A variable to write (a worker's parameter is not one).
    fn wvar(&mut self) -> usize {
        let n = if self.worker { 4 } else { 5 };
        match self.below(n) as usize {
            3 if self.worker => 4,
            v => v,
        }
    }

    fn assign(&mut self) -> Stmt {
        let v = self.wvar();
        let m = self.range(3, 5);
        Stmt::Assign(v, Expr::modulo(self.expr(0), m))
    }

    /// A statement that may stand in an atomic block (or, with `probe`, a probe).
    fn simple(&mut self, probe: bool) -> Stmt {
        let k = self.below(100);
        if k < 55 {
            return self.assign();
        }
        if k < 70 {
            return self.small_havoc(Self::wvar);
        }
        if k < 80 && probe {
            let e = self.expr(0);
            self.probes.push(e.clone());
            return Stmt::Probe(self.probes.len() - 1, e);
        }
        if k < 90 {
            return Stmt::Assume(self.cond(0));
        }
        self.if_else(60, |g| vec![g.assign()])
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        let k = self.below(100);
        if k < 40 {
            return self.simple(true);
        }
        if k < 55 {
            let n = 1 + self.below(3);
            return Stmt::Atomic((0..n).map(|_| self.simple(false)).collect());
        }
        if depth < 1 && k < 70 {
            return self.if_else(70, |g| g.block(depth + 1));
        }
        if depth < 1 && k < 85 {
            // (one loop counter per thread: loops are not nested)
            return if self.chance(50) {
                Stmt::While(self.cond(0), self.block(1))
            } else {
                let c = self.chance(60).then(|| self.cond(0));
                Stmt::Bounded(K, self.range(1, 3), c, self.block(1))
            };
        }
        self.assign()
    }

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.below(3);
        (0..n).map(|_| self.stmt(depth)).collect()
    }
}

/// A thread: its id, its procedure (`0` is `ULTIMATE.start`, `p + 1` the worker `T<p>`), its
/// location and its locals.
type Thread = (i64, usize, usize, [i64; 4]);
/// A configuration: the shared variables, the running threads (sorted), the finished workers not
/// yet joined with their results (sorted).
type Config = ([i64; SHARED], Vec<Thread>, Vec<(i64, i64)>);

fn view(shared: &[i64; SHARED], locals: &[i64; 4]) -> View {
    let mut v = [0; 7];
    v[..SHARED].copy_from_slice(shared);
    v[SHARED..].copy_from_slice(locals);
    v
}

fn split(v: &View) -> ([i64; SHARED], [i64; 4]) {
    let mut s = [0; SHARED];
    let mut l = [0; 4];
    s.copy_from_slice(&v[..SHARED]);
    l.copy_from_slice(&v[SHARED..]);
    (s, l)
}

/// Every interleaving of the program (`code[0]` is `ULTIMATE.start`): the probes' values, or
/// `None` beyond the configuration limit.
fn search(code: &[Vec<Ins>]) -> Option<Probed> {
    let mut probed = Probed::new();
    let init: Config = ([0; SHARED], vec![(0, 0, 0, [0; 4])], Vec::new());
    let mut seen: HashSet<Config> = HashSet::from([init.clone()]);
    let mut todo = vec![init];
    while let Some((shared, threads, done)) = todo.pop() {
        for (i, &(id, proc_, pc, locals)) in threads.iter().enumerate() {
            let mut next: Vec<Config> = Vec::new();
            // the configuration where thread `i` moved to `pc2` (or finished) with `v`
            let moved =
                |v: &View, pc2: Option<usize>, extra: Option<Thread>, done2: Vec<(i64, i64)>| {
                    let (s, l) = split(v);
                    let mut t = threads.clone();
                    match pc2 {
                        Some(pc2) => t[i] = (id, proc_, pc2, l),
                        None => {
                            t.remove(i);
                        }
                    }
                    t.extend(extra);
                    t.sort();
                    let mut d = done2;
                    d.sort();
                    (s, t, d)
                };
            let here = view(&shared, &locals);
            match code[proc_].get(pc) {
                None => {
                    let mut d = done.clone();
                    if proc_ > 0 {
                        d.push((id, here[RES]));
                    }
                    next.push(moved(&here, None, None, d));
                }
                Some(Ins::Do(seq)) => {
                    for v in exec(seq, here, &mut probed) {
                        next.push(moved(&v, Some(pc + 1), None, done.clone()));
                    }
                }
                Some(Ins::Goto(t)) => next.push(moved(&here, Some(*t), None, done.clone())),
                Some(Ins::Branch(arms)) => {
                    for (c, t) in arms {
                        if c.as_ref().is_none_or(|c| holds(c, &here)) {
                            next.push(moved(&here, Some(*t), None, done.clone()));
                        }
                    }
                }
                Some(Ins::Fork(fid, p, e)) => {
                    let child = (*fid, p + 1, 0, [eval(e, &here), 0, 0, 0]);
                    next.push(moved(&here, Some(pc + 1), Some(child), done.clone()));
                }
                Some(Ins::Join(jid, var)) => {
                    for (j, &(did, r)) in done.iter().enumerate() {
                        if did != *jid {
                            continue;
                        }
                        let mut v = here;
                        if let Some(var) = var {
                            v[*var] = r;
                        }
                        let mut d = done.clone();
                        d.remove(j);
                        next.push(moved(&v, Some(pc + 1), None, d));
                    }
                }
            }
            for c in next {
                if seen.insert(c.clone()) {
                    if seen.len() > STATE_LIMIT {
                        return None;
                    }
                    todo.push(c);
                }
            }
        }
    }
    Some(probed)
}

/// The program of `seed` and whether it is Unsafe; `None` when it is dropped.
fn program(seed: u64) -> Option<(String, bool)> {
    let mut g = Gen {
        rng: Rng::new(seed, 0x5851_F42D_4C95_7F2D),
        worker: true,
        probes: Vec::new(),
    };
    let workers = 1 + g.below(2) as usize;
    let mut bodies: Vec<Vec<Stmt>> = Vec::new();
    for _ in 0..workers {
        let mut body = vec![Stmt::Assign(4, Expr::Const(0))];
        body.extend(g.block(0));
        let m = g.range(3, 5);
        body.push(Stmt::Assign(RES, Expr::Mod(Box::new(g.expr(0)), m)));
        bodies.push(body);
    }
    g.worker = false;
    let mut main: Vec<Stmt> = (0..5)
        .map(|v| Stmt::Assign(v, Expr::Const(if v < SHARED { g.range(0, 2) } else { 0 })))
        .collect();
    let mut id = 1;
    if g.chance(40) {
        // several instances of one worker with one id, forked and joined in loops
        let n = g.range(2, 3);
        let p = g.below(workers as u64) as usize;
        main.push(Stmt::Bounded(
            K,
            n,
            None,
            vec![Stmt::Fork(1, p, Expr::Var(K))],
        ));
        let joins = g.range(0, n);
        let var = g.chance(50).then_some(3);
        main.push(Stmt::Bounded(K, joins, None, vec![Stmt::Join(1, var)]));
        id = 2;
    }
    let mut forked = Vec::new();
    for _ in 0..1 + g.below(2) {
        let p = g.below(workers as u64) as usize;
        let arg = g.expr(1);
        main.push(Stmt::Fork(id, p, arg));
        forked.push(id);
        id += 1;
        if g.chance(50) {
            main.push(g.simple(true));
        }
    }
    for id in forked.into_iter().rev() {
        if g.chance(85) {
            let var = [None, Some(3), Some(4)][g.below(3) as usize];
            main.push(Stmt::Join(id, var));
        }
    }
    let e = g.expr(0);
    g.probes.push(e.clone());
    main.push(Stmt::Probe(g.probes.len() - 1, e));
    main.push(g.simple(true));

    let mut code = vec![Vec::new()];
    compile(&main, &mut code[0]);
    for b in &bodies {
        let mut c = Vec::new();
        compile(b, &mut c);
        code.push(c);
    }
    let probed = search(&code)?;
    let reached: Vec<usize> = probed.keys().copied().collect();
    let unsafe_ = seed % 2 == 1 && !reached.is_empty();
    let flip = unsafe_.then(|| reached[g.below(reached.len() as u64) as usize]);
    let mut bounds = Bounds::new();
    for (&i, &(lo, hi)) in &probed {
        let d = i64::from(flip == Some(i));
        let bound = if g.chance(50) {
            ("<=", hi - d)
        } else {
            (">=", lo + d)
        };
        bounds.insert(i, bound);
    }
    let mut lines = vec![
        "var x, y, z: int;".to_string(),
        String::new(),
        "procedure ULTIMATE.start()".to_string(),
        "  modifies x, y, z;".to_string(),
        "{".to_string(),
        "  var u, v, k: int;".to_string(),
    ];
    block_text(&main, &MAIN_NAMES, &bounds, false, 1, &mut lines);
    lines.push("}".to_string());
    for (p, b) in bodies.iter().enumerate() {
        lines.push(String::new());
        lines.push(format!("procedure T{p}(a: int) returns (res: int)"));
        lines.push("  modifies x, y, z;".to_string());
        lines.push("{".to_string());
        lines.push("  var l, k: int;".to_string());
        block_text(b, &WORKER_NAMES, &bounds, false, 1, &mut lines);
        lines.push("}".to_string());
    }
    Some((lines.join("\n") + "\n", unsafe_))
}

#[test]
fn verdicts_agree_with_every_interleaving() {
    let Some(dir) = common::differential_dir("concurrent") else {
        return;
    };
    let others: [&[&str]; 4] = [
        &["--por", "none"],
        &["--por", "sleep"],
        &["--por", "persistent"],
        &["--block-encoding", "none"],
    ];
    let mut kept: usize = 0;
    let mut unsafe_kept: usize = 0;
    let mut verdicts = common::Verdicts::default();
    for seed in 0..PROGRAMS {
        let Some((src, unsafe_)) = program(seed) else {
            continue;
        };
        kept += 1;
        unsafe_kept += usize::from(unsafe_);
        let file = dir.join(format!("t{seed}.bpl"));
        std::fs::write(&file, &src).expect("write the program");
        verdicts.run(&[], &file, unsafe_);
        verdicts.run(others[(seed / 2 % 4) as usize], &file, unsafe_);
    }
    verdicts.assert_sound();
    let decided = verdicts.decided;
    // (not vacuous: most programs are kept, both verdicts occur, and most runs decide)
    assert!(
        kept as u64 >= PROGRAMS * 3 / 4,
        "only {kept} of {PROGRAMS} kept"
    );
    assert!(
        unsafe_kept * 4 >= kept && unsafe_kept * 2 <= kept,
        "{unsafe_kept} of {kept} Unsafe"
    );
    assert!(
        decided * 4 >= kept * 2 * 3,
        "only {decided} of {} runs decided",
        kept * 2
    );
    eprintln!("{kept} of {PROGRAMS} programs kept ({unsafe_kept} Unsafe), {decided} runs decided");
}
