//! Lambda expressions (This is Boogie 2, §4.1: a lambda is a map value) become either defined
//! locals or functions.
//!
//! **Hoisted** (every lambda of a procedure body's statement that no binder encloses, in a program
//! without `fork`): the edge `u --S--> v` becomes `u --havoc λ--> · --assume (∀x :: λ[x] == e)-->
//! · --S[λ]--> v` with a fresh local `λ` (`lambda~k`) of the map type. The assumption has one
//! solution (arrays are extensional), read in the state `S` reads, so `S[λ]` does what `S` did.
//! Its SMT form `∀x. λ[x] = e` is an array defined pointwise, which z3's one-shot solver turns into
//! a `lambda` term (`smt::session`: a satisfiable query is answered, so a violation through a
//! lambda is confirmed; `smt::print` writes the body in the shape z3 recognises).
//!
//! **Lifted** (the rest: lambdas in contracts, axioms, function bodies, under a quantifier or
//! another lambda, and every lambda of a program with threads — hoisting would let another thread
//! run between the lambda's evaluation and its statement), as Boogie's `LambdaHelper` does:
//! `(lambda x: T :: e)` with free variables `y1, …, yn` becomes `lambda~k(y1, …, yn)` for a fresh
//! uninterpreted function `lambda~k(Y1, …, Yn) returns ([T]U)` with the axiom
//! `(forall y1: Y1, …, yn: Yn, x: T :: lambda~k(y1, …, yn)[x] == e)`. Free are the variables of
//! `e` that neither the lambda nor a quantifier inside it binds — globals, parameters, locals and
//! variables bound by an enclosing quantifier — and every `old(g)` (a parameter too: the axiom
//! holds in every state). Constants stay in the axiom. Syntactically equal lambdas share one
//! function. (z3's model finder gives up on such an axiom: a violation through a lifted lambda is
//! UNKNOWN, never SAFE.)
//!
//! Invariant: a hoisted local and a function's value at the free variables' values are exactly the
//! lambda's map (each cell is fixed), so every expression keeps its value and verdicts carry over;
//! the axioms and assumptions are satisfiable (each defines its map). Lambdas whose types mention a
//! type parameter stay as they are (the engine then answers UNKNOWN "unsupported: lambda
//! expressions").

use super::program::*;
use crate::diag::Span;
use petgraph::graph::DiGraph;

/// The program with every lambda expression lifted (see the module comment).
pub fn lift(prog: Program) -> Program {
    let mut any = false;
    prog.visit_exprs(&mut |e| {
        any |= matches!(
            e,
            Expr::Quant {
                quantifier: Quantifier::Lambda,
                ..
            }
        )
    });
    if !any {
        return prog;
    }
    let mut l = Lifter {
        prog,
        lifted: Vec::new(),
        axioms: Vec::new(),
        hoisted: 0,
    };
    // The lifted functions are appended to the table as they are made (an enclosing lambda's type
    // reads them), after the program's own, whose bodies are rewritten in place.
    for i in 0..l.prog.functions.len() {
        if let Some((params, body)) = l.prog.functions[i].body.clone() {
            let body = l.expr(&body);
            l.prog.functions[i].body = Some((params, body));
        }
    }
    // Hoisting changes when a lambda's free variables are read (one step before its statement),
    // which only another thread could observe.
    let mut forks = false;
    for p in &l.prog.procedures {
        if let Some(cfg) = &p.body {
            forks |= (cfg.graph.edge_weights()).any(|e| matches!(e.stmt, Stmt::Fork { .. }));
        }
    }
    let mut procedures = std::mem::take(&mut l.prog.procedures);
    for (i, p) in procedures.iter_mut().enumerate() {
        for c in p.requires.iter_mut().chain(p.ensures.iter_mut()) {
            c.expr = l.expr(&c.expr);
        }
        if let Some(cfg) = &mut p.body {
            if forks {
                for e in cfg.graph.edge_weights_mut() {
                    e.stmt = l.stmt(&e.stmt);
                }
            } else {
                l.hoist_body(cfg, ProcId(i as u32), &mut p.locals);
            }
        }
    }
    let axioms: Vec<Expr> = std::mem::take(&mut l.prog.axioms)
        .iter()
        .map(|a| l.expr(a))
        .collect();
    let mut prog = l.prog;
    prog.procedures = procedures;
    prog.axioms = axioms;
    prog.axioms.extend(l.axioms);
    prog
}

fn mentions_param(t: &Type) -> bool {
    match t {
        Type::Param(_) => true,
        Type::Map {
            type_params,
            args,
            result,
        } => !type_params.is_empty() || args.iter().any(mentions_param) || mentions_param(result),
        Type::Ctor(_, args) => args.iter().any(mentions_param),
        Type::Record(fs) => fs.iter().any(|(_, a)| mentions_param(a)),
        _ => false,
    }
}

struct Lifter {
    prog: Program,
    /// The lambdas lifted so far (after lifting inside them; the types of the lambda's variables and
    /// its body with them renamed by position) and their functions.
    lifted: Vec<((Vec<Type>, Expr), FuncId)>,
    axioms: Vec<Expr>,
    /// Locals made for hoisted lambdas so far.
    hoisted: usize,
}

impl Lifter {
    /// Every edge `u --S--> v` of `cfg` whose statement has lambdas outside any binder becomes
    /// `u --havoc λ1, …--> · --assume (∀x :: λ1[x] == e1)--> · … --S[λ1, …]--> v` with a fresh
    /// local per lambda (see the module comment); the remaining lambdas are lifted to functions.
    /// Node indices are kept (error sites and the entry refer to them).
    fn hoist_body(&mut self, cfg: &mut Cfg, proc: ProcId, locals: &mut Vec<VarId>) {
        use petgraph::visit::EdgeRef;
        let old = std::mem::replace(&mut cfg.graph, DiGraph::new());
        for n in old.node_indices() {
            cfg.graph.add_node(old[n].clone());
        }
        for e in old.edge_references() {
            let (u, v, w) = (e.source(), e.target(), e.weight());
            let mut defs = Vec::new();
            let stmt = w
                .stmt
                .try_map_exprs(&mut |x| Some(self.hoist(x, proc, &mut defs)))
                .unwrap_or_else(|| w.stmt.clone());
            if defs.is_empty() {
                cfg.graph.add_edge(u, v, Edge { stmt, span: w.span });
                continue;
            }
            let mut at = u;
            let mut step = |g: &mut DiGraph<Location, Edge>, stmt: Stmt, span| {
                let n = g.add_node(Location {
                    kind: LocKind::Plain,
                    span,
                    label: None,
                });
                g.add_edge(at, n, Edge { stmt, span });
                at = n;
            };
            let havoc = Stmt::Havoc(defs.iter().map(|(x, _, _)| *x).collect());
            step(&mut cfg.graph, havoc, w.span);
            for (x, def, span) in defs {
                locals.push(x);
                step(&mut cfg.graph, Stmt::Assume(def), span);
            }
            cfg.graph.add_edge(at, v, Edge { stmt, span: w.span });
        }
    }

    /// `e` with its lambdas outside any binder replaced by fresh locals of `proc`, whose definitions
    /// `(∀x :: λ[x] == body)` (and spans) are pushed to `defs`; lambdas under a binder are lifted
    /// to functions.
    fn hoist(
        &mut self,
        e: &Expr,
        proc: ProcId,
        defs: &mut Vec<(VarId, Expr, Option<Span>)>,
    ) -> Expr {
        match e {
            Expr::Quant {
                quantifier: Quantifier::Lambda,
                vars,
                body,
                ..
            } => {
                let ty = self.prog.type_of(e);
                if mentions_param(&ty) {
                    return self.expr(e);
                }
                let body = self.expr(body);
                let span = self.prog.var(vars[0]).span;
                let x = VarId(self.prog.vars.len() as u32);
                self.prog.vars.push(Variable {
                    name: format!("lambda~{}", self.hoisted),
                    ty,
                    kind: VarKind::Local(proc),
                    span,
                });
                let cell = Expr::Select(
                    Box::new(Expr::Var(x)),
                    vars.iter().map(|v| Expr::Var(*v)).collect(),
                );
                let def = Expr::Quant {
                    quantifier: Quantifier::Forall,
                    vars: vars.clone(),
                    triggers: Vec::new(),
                    body: Box::new(Expr::Binary(BinOp::Eq, Box::new(cell), Box::new(body))),
                };
                self.hoisted += 1;
                defs.push((x, def, Some(span)));
                Expr::Var(x)
            }
            Expr::Quant { .. } => self.expr(e),
            _ => e.map_children(&mut |c| self.hoist(c, proc, defs)),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Stmt {
        s.try_map_exprs(&mut |e| Some(self.expr(e)))
            .unwrap_or_else(|| s.clone())
    }

    /// `e` with its lambdas lifted, innermost first.
    fn expr(&mut self, e: &Expr) -> Expr {
        let e = e.map_children(&mut |x| self.expr(x));
        match e {
            Expr::Quant {
                quantifier: Quantifier::Lambda,
                ..
            } => self.lambda(e),
            _ => e,
        }
    }

    /// The application of the function that `q` (a lambda without lambdas inside) lifts to, or `q`
    /// itself if its types mention a type parameter.
    fn lambda(&mut self, q: Expr) -> Expr {
        let Expr::Quant { vars, body, .. } = &q else {
            return q;
        };
        let map_ty = self.prog.type_of(&q);
        if mentions_param(&map_ty) {
            return q;
        }
        // The free leaves, in order of first occurrence.
        let mut bound: Vec<VarId> = vars.clone();
        body.visit(&mut |x| {
            if let Expr::Quant { vars, .. } = x {
                bound.extend(vars.iter().copied());
            }
        });
        let mut free: Vec<Expr> = Vec::new();
        body.visit(&mut |x| {
            let leaf = match x {
                Expr::Var(v) if !bound.contains(v) => {
                    !matches!(self.prog.var(*v).kind, VarKind::Const { .. })
                }
                Expr::Old(_) => true,
                _ => false,
            };
            if leaf && !free.contains(x) {
                free.push(x.clone());
            }
        });
        // Equal up to the names of the lambda's own variables (each binding has its own ids).
        let key = (
            vars.iter().map(|v| self.prog.var(*v).ty.clone()).collect(),
            replace(
                body,
                &vars
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (Expr::Var(*v), Expr::Var(VarId(u32::MAX - i as u32))))
                    .collect::<Vec<_>>(),
            ),
        );
        let func = match self.lifted.iter().find(|(k, _)| *k == key) {
            Some((_, id)) => *id,
            None => {
                let k = self.lifted.len();
                let id = FuncId(self.prog.functions.len() as u32);
                // The axiom: the function's parameters replace the free leaves.
                let mut params = Vec::new();
                let mut subst = Vec::new();
                for leaf in &free {
                    let (name, ty) = match leaf {
                        Expr::Var(v) | Expr::Old(v) => {
                            let var = self.prog.var(*v);
                            let name = if matches!(leaf, Expr::Old(_)) {
                                format!("old~{}", var.name)
                            } else {
                                var.name.clone()
                            };
                            (name, var.ty.clone())
                        }
                        _ => continue,
                    };
                    let p = VarId(self.prog.vars.len() as u32);
                    self.prog.vars.push(Variable {
                        name,
                        ty,
                        kind: VarKind::Bound,
                        span: self.prog.var(vars[0]).span,
                    });
                    params.push(p);
                    subst.push((leaf.clone(), Expr::Var(p)));
                }
                let app = Expr::App {
                    func: id,
                    type_args: Vec::new(),
                    args: params.iter().map(|p| Expr::Var(*p)).collect(),
                };
                let cell =
                    Expr::Select(Box::new(app), vars.iter().map(|v| Expr::Var(*v)).collect());
                let axiom = Expr::Quant {
                    quantifier: Quantifier::Forall,
                    vars: params.iter().chain(vars).copied().collect(),
                    triggers: vec![vec![cell.clone()]],
                    body: Box::new(Expr::Binary(
                        BinOp::Eq,
                        Box::new(cell),
                        Box::new(replace(body, &subst)),
                    )),
                };
                self.axioms.push(axiom);
                let f = Function {
                    name: format!("lambda~{k}"),
                    span: self.prog.var(vars[0]).span,
                    type_params: Vec::new(),
                    params: free
                        .iter()
                        .map(|x| match x {
                            Expr::Var(v) | Expr::Old(v) => self.prog.var(*v).ty.clone(),
                            _ => Type::Bool,
                        })
                        .collect(),
                    param_names: vec![None; free.len()],
                    result: map_ty,
                    body: None,
                    builtin: None,
                    indices: Vec::new(),
                    inline: false,
                    smt_defined: None,
                    const_array: false,
                    overapproximation: None,
                    concrete: None,
                };
                self.prog.functions.push(f);
                self.lifted.push((key, id));
                id
            }
        };
        Expr::App {
            func,
            type_args: Vec::new(),
            args: free,
        }
    }
}

/// `e` with each of the `(leaf, by)` leaves replaced.
fn replace(e: &Expr, subst: &[(Expr, Expr)]) -> Expr {
    match subst.iter().find(|(leaf, _)| leaf == e) {
        Some((_, by)) => by.clone(),
        None => e.map_children(&mut |x| replace(x, subst)),
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::program::{BinOp, Expr, Quantifier, Stmt};
    use crate::ir::test_program as program;

    fn lambdas_left(p: &crate::ir::program::Program) -> usize {
        let mut n = 0;
        p.visit_exprs(&mut |e| {
            if let Expr::Quant {
                quantifier: Quantifier::Lambda,
                ..
            } = e
            {
                n += 1;
            }
        });
        n
    }

    const BODY: &str = "
             procedure main(n: int) modifies g; {
                 var m: [int]int;
                 m := (lambda i: int :: i + n + old(g));
                 assert m == (lambda i: int :: i + n + old(g));
                 assert (lambda i: int :: (lambda j: int :: i + j))[1][2] == 3;
             }";

    #[test]
    fn lambdas_of_a_program_with_threads_become_functions_and_equal_ones_share() {
        let p = program(&format!(
            "var g: int;
             procedure worker() {{ }}
             procedure forker() {{ var t: int; fork t worker(); }}
             {BODY}"
        ));
        assert_eq!(lambdas_left(&p), 0);
        let lifted: Vec<_> = p
            .functions
            .iter()
            .filter(|f| f.name.starts_with("lambda~"))
            .collect();
        // the shared lambda, the inner and the outer one
        assert_eq!(lifted.len(), 3);
        assert_eq!(p.axioms.len(), 3);
        // the first takes `n` and `old(g)`; the inner one of the nested pair takes `i`
        assert_eq!(lifted[0].params.len(), 2);
        assert_eq!(lifted[1].params.len(), 1);
        assert_eq!(lifted[2].params.len(), 0);
    }

    #[test]
    fn lambdas_of_statements_become_locals_defined_before_their_statement() {
        let p = program(&format!("var g: int;{BODY}"));
        assert_eq!(lambdas_left(&p), 0);
        let main = p.procedures.iter().find(|q| q.name == "main").unwrap();
        let hoisted: Vec<_> = (main.locals.iter())
            .filter(|v| p.var(**v).name.starts_with("lambda~"))
            .collect();
        // one local per lambda outside a binder and edge: the assignment's, and the two of each
        // assertion (its edges to the error location and on each evaluate it)
        assert_eq!(hoisted.len(), 5);
        let cfg = main.body.as_ref().unwrap();
        let definitions = (cfg.graph.edge_weights())
            .filter(|e| matches!(&e.stmt, Stmt::Assume(Expr::Quant { quantifier: Quantifier::Forall, body, .. })
                if matches!(&**body, Expr::Binary(BinOp::Eq, cell, _)
                    if matches!(&**cell, Expr::Select(a, _) if matches!(&**a, Expr::Var(v) if hoisted.contains(&v))))))
            .count();
        assert_eq!(definitions, 5);
        // the inner lambda of the nested pair reads the outer one's variable: lifted
        let lifted = (p.functions.iter())
            .filter(|f| f.name.starts_with("lambda~"))
            .count();
        assert_eq!((lifted, p.axioms.len()), (1, 1));
    }

    #[test]
    fn a_lambda_over_a_type_parameter_stays() {
        let p = program(
            "function f<a>(x: a) returns (bool) { (lambda i: int :: x)[0] == x }
             procedure main() { assert f(1); }",
        );
        assert_eq!(lambdas_left(&p), 1);
    }
}
