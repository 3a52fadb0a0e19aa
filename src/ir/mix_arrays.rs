//! Ultimate's builtin `mix-Array-…` functions (`function {:builtin "mix-Array-Int-Int"}
//! mix(in1: [int]int, in2: [int]int, nondet: [int]bool) returns ([int]int)`), over-approximated.
//!
//! What Ultimate's sources pin down (its equality domain, `EqNodeAndFunctionFactory` and
//! `CongruenceClosure.mixFunctionTreatmentOnAddElement`): a mix array `m = mix(a, b, n)` satisfies
//! `m[x] ∈ {a[x], b[x]}` for every index `x`, and `n` is a Boolean array expected to be
//! unconstrained. Which of `a[x]` or `b[x]` a true `n[x]` selects is not fixed anywhere (the
//! solver function is disabled, `ENABLE_ARRAY_MIX_FUNCTION = false`). So the function becomes an
//! uninterpreted function marked `{:overapproximation}` and every edge that applies it first
//! assumes, for each application `mix(a, b, n)` over the edge's pre-state, the set constraint
//! `∀k. mix(a, b, n)[k] == a[k] || mix(a, b, n)[k] == b[k]`.
//!
//! Invariant: under either reading of `n` (and any other that keeps each cell from one of the two
//! arrays) every execution of the original program is an execution of the rewritten one, so SAFE
//! carries over; a counterexample through a mix application depends on the over-approximation and
//! answers UNKNOWN (the engine's rule for `{:overapproximation}` functions), never UNSAFE.
//! Applications under a binder (whose arguments mention bound variables) get no constraint: the
//! plain uninterpreted function is weaker still, so the same holds.

use super::program::*;
use petgraph::graph::EdgeIndex;
use std::collections::BTreeSet;

/// The builtin name prefix of Ultimate's mix functions.
const PREFIX: &str = "mix-Array-";

/// The program with its mix functions over-approximated (see the module comment); unchanged when
/// it has none.
pub fn over_approximate(mut prog: Program) -> Program {
    let mixes: BTreeSet<FuncId> = prog
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.builtin.as_deref().is_some_and(|b| b.starts_with(PREFIX)) && shape(f).is_some()
        })
        .map(|(i, _)| FuncId(i as u32))
        .collect();
    if mixes.is_empty() {
        return prog;
    }
    for &m in &mixes {
        let f = &mut prog.functions[m.0 as usize];
        let name = f.builtin.take().unwrap_or_default();
        f.overapproximation = Some(format!("{name} (each cell from one of the two arrays)"));
    }
    let mut fresh = 0usize;
    for p in 0..prog.procedures.len() {
        let Some(cfg) = prog.procedures[p].body.as_ref() else {
            continue;
        };
        let edges: Vec<EdgeIndex> = cfg.graph.edge_indices().collect();
        for e in edges {
            let apps = {
                let cfg = prog.procedures[p].body.as_ref().expect("body");
                applications(&cfg.graph[e].stmt, &mixes)
            };
            if apps.is_empty() {
                continue;
            }
            let mut constraints = Vec::new();
            for app in apps {
                if let Some(c) = constraint(&mut prog, &app, &mut fresh) {
                    constraints.push(c);
                }
            }
            if constraints.is_empty() {
                continue;
            }
            let cond = constraints
                .into_iter()
                .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                .expect("non-empty");
            let cfg = prog.procedures[p].body.as_mut().expect("body");
            let Some((src, tgt)) = cfg.graph.edge_endpoints(e) else {
                continue;
            };
            let span = cfg.graph[e].span;
            let mid = cfg.graph.add_node(Location {
                kind: LocKind::Plain,
                span,
                label: None,
            });
            let stmt = cfg.graph[e].stmt.clone();
            cfg.graph.remove_edge(e);
            cfg.graph.add_edge(
                src,
                mid,
                Edge {
                    stmt: Stmt::Assume(cond),
                    span,
                },
            );
            cfg.graph.add_edge(mid, tgt, Edge { stmt, span });
        }
    }
    prog
}

/// `([I]E, [I]E, [I]bool) -> [I]E` with one index type: the index type.
fn shape(f: &Function) -> Option<Type> {
    if !f.type_params.is_empty() {
        return None;
    }
    let [a, b, n] = f.params.as_slice() else {
        return None;
    };
    let Type::Map {
        type_params,
        args,
        result: _,
    } = &f.result
    else {
        return None;
    };
    let [index] = args.as_slice() else {
        return None;
    };
    let bools = Type::Map {
        type_params: Vec::new(),
        args: vec![index.clone()],
        result: Box::new(Type::Bool),
    };
    (type_params.is_empty() && *a == f.result && *b == f.result && *n == bools)
        .then(|| index.clone())
}

/// The mix applications of a statement whose arguments mention no bound variable.
fn applications(s: &Stmt, mixes: &BTreeSet<FuncId>) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    let mut visit = |e: &Expr| {
        e.visit(&mut |x| {
            if let Expr::App { func, .. } = x
                && mixes.contains(func)
                && !out.contains(x)
            {
                out.push(x.clone());
            }
        })
    };
    match s {
        Stmt::Assume(e) => visit(e),
        Stmt::Assign(xs) => xs.iter().for_each(|(_, e)| visit(e)),
        Stmt::Call { args, .. } | Stmt::Fork { args, .. } => args.iter().for_each(&mut visit),
        Stmt::Join { tid, .. } => tid.iter().for_each(&mut visit),
        Stmt::Havoc(_) | Stmt::AtomicBegin | Stmt::AtomicEnd | Stmt::Unsupported(_) => {}
    }
    // Under a binder: no constraint (see the module comment).
    out.retain(|app| {
        let mut bound = false;
        app.visit(&mut |x| {
            if matches!(x, Expr::Quant { .. }) {
                bound = true;
            }
        });
        !bound
    });
    out
}

/// `∀k. app[k] == a[k] || app[k] == b[k]` for `app = mix(a, b, n)` (with a fresh bound `k`).
fn constraint(prog: &mut Program, app: &Expr, fresh: &mut usize) -> Option<Expr> {
    let Expr::App { func, args, .. } = app else {
        return None;
    };
    let [a, b, _] = args.as_slice() else {
        return None;
    };
    // Arguments that mention bound variables of an enclosing binder are not closed terms here.
    let mut open = false;
    for x in args {
        x.visit(&mut |y| {
            if let Expr::Var(v) = y
                && prog.var(*v).kind == VarKind::Bound
            {
                open = true;
            }
        });
    }
    if open {
        return None;
    }
    let index = shape(prog.func(*func))?;
    let k = VarId(prog.vars.len() as u32);
    prog.vars.push(Variable {
        name: format!("k!mix{fresh}"),
        ty: index,
        kind: VarKind::Bound,
        span: prog.func(*func).span,
    });
    *fresh += 1;
    let at = |m: &Expr| Expr::Select(Box::new(m.clone()), vec![Expr::Var(k)]);
    let eq = |x: Expr, y: Expr| Expr::Binary(BinOp::Eq, Box::new(x), Box::new(y));
    let body = Expr::Binary(
        BinOp::Or,
        Box::new(eq(at(app), at(a))),
        Box::new(eq(at(app), at(b))),
    );
    Some(Expr::Quant {
        quantifier: Quantifier::Forall,
        vars: vec![k],
        triggers: vec![vec![at(app)]],
        body: Box::new(body),
    })
}
