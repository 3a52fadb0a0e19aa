//! Cone-of-influence slicing of the control-flow automaton: program variables that can never
//! influence control flow or a specification are removed from every edge.
//!
//! A conjunct of an edge's formula *defines* `x` when it is an assignment `x@post = t`
//! ([`super::hoare::assignment_in`]) and `x@post` occurs in no other conjunct of the edge; every
//! other conjunct *constrains* (guards, assertions' negations, `assume`, thread-id matches, the
//! axioms, relations over several post variables). The *relevant* variables are the least set that
//! contains every variable of a constraining conjunct and, with each relevant `x`, every variable of
//! every term defining `x`. The slice drops the defining conjuncts of irrelevant variables and the
//! irrelevant variables from every edge's reads and writes (so havocs of them disappear too).
//!
//! This is the "abstraction of variables the proof does not need" of Farzan, Klumpp, Podelski:
//! "Stratified commutativity in verification algorithms for concurrent programs" (POPL 2023) in its
//! static form: a `log(msg)` that only writes `stdout[stdout_ptr]` and `stdout_ptr` becomes `skip`,
//! so it commutes with every other thread's letters and the reductions need not interleave it.
//!
//! Invariant (exactness): a path of locations is feasible in the sliced CFA iff it is feasible in
//! the original. One direction: each sliced edge is the original one with the irrelevant variables
//! projected away (`∃x@post. x@post = t ∧ rest ≡ rest` when `x@post` is not in `rest`). The other:
//! constraining conjuncts mention only relevant variables, and the relevant variables' defining
//! terms mention only relevant variables, so a run of the slice extends to a run of the original by
//! computing each irrelevant variable from its defining terms along the path (havocs: any value).
//! Hence error reachability, and with it every verdict and counterexample path, is unchanged; a
//! proof of the slice (over relevant variables) is a proof of the original. The extension works
//! step by step, so infinite executions correspond too: termination and nontermination are those
//! of the original (the termination techniques slice their CFA as well). The edges before
//! slicing are kept ([`Cfa::unsliced`], same ids): counterexamples are re-validated on them and
//! show every variable.
//!
//! Not applied to programs that keep recursive calls as call/return letters (their returns restore
//! the caller's frame implicitly, outside the formulas).

use super::cfa::Cfa;
use super::transition::{PVar, TransFormula, Vocabulary};
use crate::smt::{Term, Var};
use std::collections::{BTreeMap, BTreeSet};

/// The program variables of the formula `t` (pre and post).
fn pvars(voc: &Vocabulary, t: &Term) -> BTreeSet<PVar> {
    t.free_vars()
        .iter()
        .filter_map(|v| voc.lookup(v).map(|(x, _)| x))
        .collect()
}

/// The post variables occurring in `t`.
fn posts(voc: &Vocabulary, t: &Term) -> BTreeSet<PVar> {
    t.free_vars()
        .iter()
        .filter_map(|v| match voc.lookup(v) {
            Some((x, true)) => Some(x),
            _ => None,
        })
        .collect()
}

/// The conjunct `c` of an edge as a definition `x@post = t` whose post variable occurs in no other
/// conjunct (`occurrences` counts, per post variable, the conjuncts it occurs in).
fn definition(
    voc: &Vocabulary,
    aux: &BTreeSet<Var>,
    occurrences: &BTreeMap<PVar, usize>,
    c: &Term,
) -> Option<(PVar, Term)> {
    let p = posts(voc, c);
    let [x] = p.iter().copied().collect::<Vec<_>>()[..] else {
        return None;
    };
    if occurrences.get(&x) != Some(&1) {
        return None;
    }
    match super::hoare::assignment_in(voc, aux, c) {
        Some((y, t)) if y == x => Some((x, t)),
        _ => None,
    }
}

/// The conjuncts of `tf`, each with the variable it defines ([`definition`]; `None`: it
/// constrains).
fn classify(voc: &Vocabulary, tf: &TransFormula) -> Vec<Conjunct> {
    let conjuncts = tf.formula.conjuncts();
    let mut occurrences: BTreeMap<PVar, usize> = BTreeMap::new();
    for c in &conjuncts {
        for x in posts(voc, c) {
            *occurrences.entry(x).or_default() += 1;
        }
    }
    conjuncts
        .into_iter()
        .map(|c| {
            let d = definition(voc, &tf.aux, &occurrences, &c);
            (c, d)
        })
        .collect()
}

/// Slices `cfa` in place and returns the irrelevant variables it removed (empty: `cfa` unchanged).
pub fn slice(cfa: &mut Cfa, voc: &Vocabulary) -> BTreeSet<PVar> {
    if cfa.nested {
        return BTreeSet::new();
    }
    let mut relevant: BTreeSet<PVar> = BTreeSet::new();
    let mut deps: BTreeMap<PVar, BTreeSet<PVar>> = BTreeMap::new();
    let mut all: BTreeSet<PVar> = BTreeSet::new();
    for t in cfa.background.iter().chain(&cfa.definitions) {
        relevant.extend(pvars(voc, t));
    }
    let classified: Vec<_> = cfa.edges.iter().map(|e| classify(voc, &e.tf)).collect();
    for (e, conjuncts) in cfa.edges.iter().zip(&classified) {
        all.extend(e.tf.vars());
        for (c, d) in conjuncts {
            match d {
                Some((x, t)) => deps.entry(*x).or_default().extend(pvars(voc, t)),
                None => relevant.extend(pvars(voc, c)),
            }
        }
    }
    let mut work: Vec<PVar> = relevant.iter().copied().collect();
    while let Some(x) = work.pop() {
        for &y in deps.get(&x).into_iter().flatten() {
            if relevant.insert(y) {
                work.push(y);
            }
        }
    }
    let irrelevant: BTreeSet<PVar> = all.difference(&relevant).copied().collect();
    if irrelevant.is_empty() {
        return irrelevant;
    }
    remove(
        cfa,
        classified,
        &irrelevant,
        &|(_, d)| !matches!(d, Some((x, _)) if irrelevant.contains(x)),
    );
    irrelevant
}

/// A conjunct of an edge with the variable it defines ([`classify`]).
type Conjunct = (Term, Option<(PVar, Term)>);

/// Removes `gone` from every edge that mentions one of them: its conjuncts for which `keep` does
/// not hold, its reads and writes of them, and the auxiliary variables left unused; the original
/// edges are kept first ([`Cfa::unsliced`]). `classified` holds each edge's conjuncts.
fn remove(
    cfa: &mut Cfa,
    classified: Vec<Vec<Conjunct>>,
    gone: &BTreeSet<PVar>,
    keep: &dyn Fn(&Conjunct) -> bool,
) {
    if cfa.unsliced.is_none() {
        cfa.unsliced = Some(cfa.edges.clone());
    }
    for (e, conjuncts) in cfa.edges.iter_mut().zip(classified) {
        if !e.tf.vars().iter().any(|x| gone.contains(x)) {
            continue;
        }
        let kept: Vec<Term> = conjuncts
            .into_iter()
            .filter(|c| keep(c))
            .map(|(c, _)| c)
            .collect();
        let formula = Term::and(kept);
        let free = formula.free_vars();
        e.tf.aux.retain(|v| free.contains(v));
        e.tf.formula = formula;
        e.tf.reads.retain(|x| !gone.contains(x));
        e.tf.writes.retain(|x| !gone.contains(x));
    }
}

/// Removes the threads of fork statements whose threads cannot influence anything: their edges
/// write no global variable, they contain no error location, fork no threads, and no `join` can
/// match them (typically after [`slice`], a thread that only logs). Each fork of such a statement
/// becomes a skip of the forking thread, and the statement can no longer run out of instances.
/// Returns the number of fork statements removed.
///
/// Exactness: a thread that writes no global is invisible to the others — its guards block only
/// itself, its atomic blocks only delay the others, and nobody joins it — so deleting its steps
/// from an execution leaves an execution of the others that reaches the same error; conversely
/// every execution without it is one in which the forked thread is never scheduled.
pub fn drop_idle_threads(cfa: &mut Cfa, voc: &Vocabulary) -> usize {
    use super::cfa::EdgeKind;
    if cfa.nested {
        return 0;
    }
    let program = voc.program;
    let global = |x: &PVar| match x {
        PVar::Var { id, .. } => matches!(
            program.var(*id).kind,
            crate::ir::VarKind::Global | crate::ir::VarKind::Const { .. }
        ),
        PVar::Old { .. } | PVar::Tid { .. } => false,
    };
    let mut idle = vec![true; cfa.pools.len()];
    let pool_of = |t: u32| cfa.threads.get(t as usize).and_then(|th| th.pool);
    for (l, loc) in cfa.locs.iter().enumerate() {
        if matches!(loc.kind, crate::ir::LocKind::Error(_))
            && let Some(p) = pool_of(cfa.thread_of[l])
        {
            idle[p as usize] = false;
        }
    }
    for e in &cfa.edges {
        if let EdgeKind::Join { thread } = e.kind
            && let Some(p) = pool_of(thread)
        {
            idle[p as usize] = false;
        }
        // A fork that can block (an assumption on the arguments) must stay.
        if let EdgeKind::Fork { thread } = e.kind
            && let Some(p) = pool_of(thread)
            && !super::hoare::is_total_formula(voc, &e.tf)
        {
            idle[p as usize] = false;
        }
        let Some(p) = pool_of(cfa.thread_of[e.src]) else {
            continue;
        };
        let plain = matches!(
            e.kind,
            EdgeKind::Plain | EdgeKind::AtomicBegin | EdgeKind::AtomicEnd
        );
        if !plain || e.tf.writes.iter().any(global) {
            idle[p as usize] = false;
        }
    }
    if idle.iter().any(|&i| i) && cfa.unsliced.is_none() {
        cfa.unsliced = Some(cfa.edges.clone());
    }
    let mut dropped = 0;
    for (p, pool) in cfa.pools.iter().enumerate() {
        if !idle[p] {
            continue;
        }
        dropped += 1;
        let first = pool.threads.first().copied();
        for e in &mut cfa.edges {
            let keep_as_skip = match e.kind {
                EdgeKind::Fork { thread } if pool.threads.contains(&thread) => {
                    Some(first == Some(thread))
                }
                EdgeKind::ForkLimit { pool: q } | EdgeKind::GhostFork { pool: q }
                    if q as usize == p =>
                {
                    Some(false)
                }
                _ => None,
            };
            if let Some(skip) = keep_as_skip {
                e.kind = EdgeKind::Plain;
                e.tf = TransFormula::skip();
                if !skip {
                    e.tf.formula = Term::ff();
                } else {
                    e.text.push_str(" (a thread without effect: not run)");
                }
            }
        }
    }
    dropped
}

/// Abstracts the *synchronisation* of `cfa` away, in place: the variables that neither a
/// specification nor the data it depends on need (a lock `m` that only guards `assume m == 0`
/// and is set to constants; a reader count `LOCK[i]`), with every conjunct that mentions one of
/// them. Returns the variables abstracted (empty: `cfa` unchanged).
///
/// The variables kept are the least set that contains the variables of the error edges'
/// constraining conjuncts and of the axioms, with each kept `x` every variable of a term defining
/// `x`, and with each constraining conjunct that mentions a kept variable all of its variables
/// (a loop guard `i < n` stays with the counter `i` it bounds); thread ids are always kept. Only
/// the variables left over are abstracted.
///
/// Unlike [`slice`] this is an **over-approximation**, not exact: each edge keeps a subset of its
/// conjuncts (dropping a conjunct only adds transitions), its writes of the kept variables are
/// unchanged, and the abstracted variables occur in no formula any more. So every run of the
/// original is a run of the abstraction (with the same values of the kept variables): a proof of
/// the abstraction is a proof of the original, but an error of the abstraction need not be one —
/// only a SAFE answer may be taken from it (the lock-free reasoning of Farzan, Klumpp, Podelski:
/// "Stratified commutativity in verification algorithms for concurrent programs", POPL 2023, where
/// commutativity is checked with the lock abstracted). Programs with call/return letters are left
/// alone.
pub fn abstract_synchronization(cfa: &mut Cfa, voc: &Vocabulary) -> BTreeSet<PVar> {
    if cfa.nested {
        return BTreeSet::new();
    }
    let mut kept: BTreeSet<PVar> = BTreeSet::new();
    for t in cfa.background.iter().chain(&cfa.definitions) {
        kept.extend(pvars(voc, t));
    }
    let classified: Vec<_> = cfa.edges.iter().map(|e| classify(voc, &e.tf)).collect();
    let mut all: BTreeSet<PVar> = BTreeSet::new();
    let mut deps: BTreeMap<PVar, BTreeSet<PVar>> = BTreeMap::new();
    let mut constraints: Vec<BTreeSet<PVar>> = Vec::new();
    for (e, conjuncts) in cfa.edges.iter().zip(&classified) {
        all.extend(e.tf.vars());
        let error = cfa.error_of(e.tgt).is_some();
        for (c, d) in conjuncts {
            match d {
                Some((x, t)) => deps.entry(*x).or_default().extend(pvars(voc, t)),
                None if error => kept.extend(pvars(voc, c)),
                None => constraints.push(pvars(voc, c)),
            }
        }
    }
    kept.extend(all.iter().filter(|x| matches!(x, PVar::Tid { .. })));
    loop {
        let before = kept.len();
        let mut work: Vec<PVar> = kept.iter().copied().collect();
        while let Some(x) = work.pop() {
            for &y in deps.get(&x).into_iter().flatten() {
                if kept.insert(y) {
                    work.push(y);
                }
            }
        }
        for c in &constraints {
            if c.iter().any(|x| kept.contains(x)) {
                kept.extend(c.iter().copied());
            }
        }
        if kept.len() == before {
            break;
        }
    }
    let dropped: BTreeSet<PVar> = all.difference(&kept).copied().collect();
    if dropped.is_empty() {
        return dropped;
    }
    remove(cfa, classified, &dropped, &|(c, _)| {
        pvars(voc, c).is_disjoint(&dropped)
    });
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cfa;

    /// The sliced CFA of `src` (edges printed) and the names of the variables removed.
    fn sliced(src: &str) -> (Vec<String>, BTreeSet<String>) {
        let (ast, diags) = crate::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
        let (program, diags) = crate::ir::check(&ast);
        let program = program.unwrap_or_else(|| panic!("{diags:?}"));
        let voc = Vocabulary::new(&program);
        let mut c = cfa::build(&voc, 10_000).expect("cfa");
        let removed = slice(&mut c, &voc)
            .into_iter()
            .map(|x| voc.name(x))
            .collect();
        let edges = c
            .edges
            .iter()
            .map(|e| format!("{} {:?} {:?}", e.tf.formula, e.tf.reads, e.tf.writes))
            .collect();
        (edges, removed)
    }

    #[test]
    fn write_only_log_is_removed_and_leaves_no_trace() {
        let (edges, removed) = sliced(
            "var out: [int]int; var ptr: int; var x: int;
             procedure log(m: int) modifies out, ptr; { out[ptr] := m; ptr := ptr + 1; }
             procedure ULTIMATE.start() modifies out, ptr, x; {
               x := 0; while (x < 10) { x := x + 1; call log(x); } assert x == 10; }",
        );
        assert!(
            removed.contains("out") && removed.contains("ptr"),
            "{removed:?}"
        );
        assert!(!removed.contains("x"));
        assert!(edges.iter().any(|e| e.contains("x@post")), "{edges:?}");
        for e in &edges {
            assert!(!e.contains("out") && !e.contains("ptr"), "{e}");
        }
    }

    #[test]
    fn guards_and_their_sources_stay() {
        // `ptr` flows into `x`, which an assertion reads: nothing may be removed. `m` flows into
        // `out` only, but `out` is read by a guard.
        let (_, removed) = sliced(
            "var out: [int]int; var ptr: int; var x: int;
             procedure ULTIMATE.start() modifies out, ptr, x; {
               var m: int;
               ptr := 3; x := ptr; out[0] := m;
               if (out[0] > 0) { x := x + 1; }
               assert x >= 3; }",
        );
        assert!(removed.is_empty(), "{removed:?}");
    }

    #[test]
    fn constrained_havoc_stays() {
        // `havoc y; assume y > 0` constrains `y`: it stays even though no assertion reads it.
        let (_, removed) = sliced(
            "var y: int; var z: int;
             procedure ULTIMATE.start() modifies y, z; { havoc y; assume y > 0; z := y; assert true; }",
        );
        assert!(
            removed.contains("z") && !removed.contains("y"),
            "{removed:?}"
        );
    }

    /// The number of fork statements [`drop_idle_threads`] removes from `src` (after [`slice`]),
    /// and the kinds of the edges that remain forks.
    fn idle(src: &str) -> (usize, usize) {
        let (ast, diags) = crate::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
        let (program, diags) = crate::ir::check(&ast);
        let program = program.unwrap_or_else(|| panic!("{diags:?}"));
        let voc = Vocabulary::new(&program);
        let mut c = cfa::build_nested(&voc, 10_000, 2).expect("cfa");
        slice(&mut c, &voc);
        let n = drop_idle_threads(&mut c, &voc);
        let forks = c
            .edges
            .iter()
            .filter(|e| matches!(e.kind, cfa::EdgeKind::Fork { .. }))
            .count();
        (n, forks)
    }

    const MAIN: &str = "procedure ULTIMATE.start() modifies x, y; {
        x := 0; while (*) { fork 0 t(); } assert x == 0; }";

    #[test]
    fn a_thread_that_writes_only_irrelevant_globals_is_dropped() {
        let src = format!("var x, y: int; procedure t() modifies y; {{ y := y + 1; }} {MAIN}");
        assert_eq!(idle(&src), (1, 0));
    }

    #[test]
    fn threads_that_matter_stay() {
        // Writes a variable the assertion reads.
        let writes = format!("var x, y: int; procedure t() modifies x; {{ x := x + 1; }} {MAIN}");
        assert_eq!(idle(&writes), (0, 2));
        // Asserts something itself.
        let asserts = format!("var x, y: int; procedure t() {{ assert y >= 0; }} {MAIN}");
        assert_eq!(idle(&asserts), (0, 2));
        // Is joined: the joiner waits for it.
        let joined = "var x, y: int; procedure t() modifies y; { y := 1; }
            procedure ULTIMATE.start() modifies x, y; {
              x := 0; fork 1 t(); join 1; assert x == 0; }";
        assert_eq!(idle(joined).0, 0);
    }

    /// The CFA of `src` (two instances per fork), abstracted, with its original edges; the names
    /// of the variables abstracted.
    fn abstracted(src: &str) -> (Vec<cfa::CfaEdge>, Cfa, BTreeSet<String>) {
        let (ast, diags) = crate::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
        let (program, diags) = crate::ir::check_inline(&ast);
        let program = program.unwrap_or_else(|| panic!("{diags:?}"));
        let voc = Vocabulary::new(&program);
        let mut c = cfa::build_nested(&voc, 10_000, 2).expect("cfa");
        let before = c.edges.clone();
        let names = abstract_synchronization(&mut c, &voc)
            .into_iter()
            .map(|x| voc.name(x))
            .collect();
        (before, c, names)
    }

    const LOCKED_SUMS: &str = "
        var m: bool; var A: [int]int; var x, y, n: int;
        procedure ULTIMATE.start() modifies m, x, y;
        { x := 0; y := 0; fork 1 t1(); fork 2 t2(); join 1; join 2; assert x == y; }
        procedure t1() modifies m, x;
        { var i: int; i := 0;
          while (i < n) { atomic { assume !m; m := true; } x := x + A[i]; m := false; i := i + 1; } }
        procedure t2() modifies m, y;
        { var j: int; j := 0;
          while (j < n) { atomic { assume !m; m := true; } y := y + A[j]; m := false; j := j + 1; } }";

    #[test]
    fn a_lock_the_assertion_does_not_need_is_abstracted_and_loop_guards_stay() {
        let (_, c, names) = abstracted(LOCKED_SUMS);
        assert_eq!(names, BTreeSet::from(["m".to_string()]));
        let printed: Vec<String> = c.edges.iter().map(|e| e.tf.formula.to_string()).collect();
        assert!(
            printed
                .iter()
                .all(|f| !f.contains("m@post") && !f.contains("(not m)"))
        );
        // The loop guards bound the counters the sums read with: kept.
        assert!(printed.iter().any(|f| f.contains("n")), "{printed:?}");
    }

    #[test]
    fn a_lock_the_assertion_reads_is_kept() {
        let (_, _, names) = abstracted(
            "var m, c: int;
             procedure ULTIMATE.start() modifies m, c;
             { m := 0; c := 0; fork 1 w(); fork 2 w(); }
             procedure w() modifies m, c;
             { atomic { assume m == 0; m := 1; } c := c + 1; assert c == 1 || m == 1; c := c - 1; m := 0; }",
        );
        assert!(names.is_empty(), "{names:?}");
    }

    /// Every original edge implies its abstraction (the abstraction only adds transitions), checked
    /// by z3 edge by edge.
    #[test]
    fn the_abstraction_over_approximates_every_edge() {
        let (before, c, names) = abstracted(LOCKED_SUMS);
        assert!(!names.is_empty());
        let Some(mut s) = crate::smt::z3_for_tests("abstraction tests") else {
            return;
        };
        let mut checked = 0;
        for (orig, abs) in before.iter().zip(&c.edges) {
            if orig.tf.formula == abs.tf.formula {
                continue;
            }
            // Variables the abstraction still writes are written by the original edge too.
            assert!(abs.tf.writes.is_subset(&orig.tf.writes));
            s.push();
            s.assert(&orig.tf.formula);
            s.assert(&Term::not(&abs.tf.formula));
            assert!(
                s.check_sat().is_unsat(),
                "{} does not imply {}",
                orig.tf.formula,
                abs.tf.formula
            );
            s.pop();
            checked += 1;
        }
        assert!(checked >= 2, "the lock's edges changed");
    }
}
