//! Type checking: the second checking phase.
//!
//! Reads the parse tree with the [`Env`] of name resolution and computes the typed IR pieces: every
//! expression becomes a well-typed [`ir::Expr`](super::Expr) (operators resolved by operand type, `<==`
//! swapped into `==>`, `old` pushed down to globals, polymorphic function and map instantiations inferred
//! by unification), every procedure gets its typed contracts, and every body becomes a tree of
//! [`TStmt`]s — structured statements over typed expressions, with map and field updates already turned
//! into whole-variable assignments. The lowering pass turns the tree into a CFG.
//!
//! It reports type errors (`E03xx`) and the other semantic checks (`E04xx`): assignments to globals not in
//! `modifies`, calls and forks of procedures that modify more than the caller may (which makes `modifies`
//! transitive), assignments to constants and in-parameters, `old` outside procedures, variables assigned
//! twice in one parallel assignment, and second implementations.
//!
//! Invariants of an output without errors: all types are free of inference variables; `Expr::Old` only
//! names globals; the `Program` has no bodies and no error sites yet (lowering adds them).

use super::program::*;
use super::resolve::{Env, FuncSig, attr_ints, attr_str, has_attr};
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use std::collections::{BTreeMap, HashMap};

/// A structured statement over typed expressions.
#[derive(Clone, Debug)]
pub enum TStmt {
    Label(String, Span),
    /// The span is the asserted expression's.
    /// The assertion, its span, and the name of its `{:check "…"}` attribute (what kind of check
    /// a front end generated it for, reported with a violation).
    Assert(Expr, Span, Option<String>),
    Assume(Expr, Span),
    Havoc(Vec<VarId>, Span),
    Assign(Vec<(VarId, Expr)>, Span),
    Call {
        callee: ProcId,
        args: Vec<Expr>,
        rets: Vec<VarId>,
        span: Span,
    },
    Unsupported(String, Span),
    /// `call forall callee(args)`: a `None` argument is a wildcard `*`.
    CallForall {
        callee: ProcId,
        args: Vec<Option<Expr>>,
        span: Span,
    },
    Fork {
        tid: Vec<Expr>,
        callee: ProcId,
        args: Vec<Expr>,
        span: Span,
    },
    Join {
        tid: Vec<Expr>,
        rets: Vec<VarId>,
        span: Span,
    },
    If {
        cond: Option<Expr>,
        then_branch: Vec<TStmt>,
        else_branch: Vec<TStmt>,
        span: Span,
    },
    While {
        cond: Option<Expr>,
        invariants: Vec<Contract>,
        body: Vec<TStmt>,
        span: Span,
    },
    Atomic(Vec<TStmt>, Span),
    Break(Option<String>, Span),
    Return(Span),
    Goto(Vec<(String, Span)>, Span),
}

/// A typed procedure body.
#[derive(Clone, Debug)]
pub struct TBody {
    pub proc: ProcId,
    pub stmts: Vec<TStmt>,
    /// The closing brace of the body.
    pub end: Span,
}

/// The output of type checking: the program without CFGs, and the typed bodies.
#[derive(Clone, Debug)]
pub struct Typed {
    pub program: Program,
    pub bodies: Vec<TBody>,
    /// The `where` clause of each global, parameter, return and local variable that has one (with
    /// the clause's span), typed; lowering turns them into assumptions (docs/IR.md §3).
    pub wheres: BTreeMap<VarId, (Expr, Span)>,
}

/// Internal marker type for expressions whose type is unknown after an error (unifies with everything).
fn err_ty() -> Type {
    Type::Ctor(" error".into(), Vec::new())
}
fn is_err(t: &Type) -> bool {
    matches!(t, Type::Ctor(n, _) if n == " error")
}
fn is_infvar(t: &Type) -> bool {
    matches!(t, Type::Param(n) if n.starts_with(" ?"))
}

struct Ctx<'s> {
    scope: &'s HashMap<String, VarId>,
    bound: Vec<(String, VarId)>,
    tparams: Vec<(String, Type)>,
    old_allowed: bool,
    in_old: bool,
}

impl<'s> Ctx<'s> {
    fn new(
        scope: &'s HashMap<String, VarId>,
        tparams: Vec<(String, Type)>,
        old_allowed: bool,
    ) -> Self {
        Ctx {
            scope,
            bound: Vec::new(),
            tparams,
            old_allowed,
            in_old: false,
        }
    }
}

/// What a body may modify and where it is.
struct ProcCtx {
    pid: ProcId,
    modifies: Vec<VarId>,
}

struct Checker<'e, 'a> {
    env: &'e Env<'a>,
    vars: Vec<Variable>,
    diags: Vec<Diagnostic>,
    subst: HashMap<String, Type>,
    fresh: u32,
    /// Constants declared with `{:builtin "S"}`, read as applications of a 0-ary builtin function.
    builtin_consts: HashMap<VarId, FuncId>,
    /// The typed `where` clauses (see [`Typed::wheres`]).
    wheres: BTreeMap<VarId, (Expr, Span)>,
}

/// Runs the type checker.
pub fn typecheck(env: Env<'_>) -> (Option<Typed>, Vec<Diagnostic>) {
    let mut c = Checker {
        env: &env,
        vars: env.vars.clone(),
        diags: Vec::new(),
        subst: HashMap::new(),
        fresh: 0,
        builtin_consts: HashMap::new(),
        wheres: BTreeMap::new(),
    };
    let typed = c.run();
    let diags = c.diags;
    (Some(typed), diags)
}

fn mismatch(expected: &Type, found: &Type, span: Span) -> Diagnostic {
    let d = Diagnostic::error(
        "E0301",
        format!("type mismatch: expected {expected}, found {found}"),
        span,
        format!("expected `{expected}`, found `{found}`"),
    );
    match (expected, found) {
        (Type::Real, Type::Int) | (Type::Int, Type::Real) => d.with_help(
            "Boogie never converts between `int` and `real`; real literals need a decimal point (`1.0`)",
        ),
        (Type::BitVec(_), Type::Int) => {
            d.with_help("bit-vector literals carry their width, e.g. `5bv32`")
        }
        _ => d,
    }
}

/// Replaces type parameters by `map`, respecting map types that rebind a name.
pub fn subst_params(t: &Type, map: &HashMap<String, Type>) -> Type {
    match t {
        Type::Param(n) => map.get(n).cloned().unwrap_or_else(|| t.clone()),
        Type::Map {
            type_params,
            args,
            result,
        } => {
            let inner;
            let m = if type_params.iter().any(|p| map.contains_key(p)) {
                let mut mm = map.clone();
                for p in type_params {
                    mm.remove(p);
                }
                inner = mm;
                &inner
            } else {
                map
            };
            Type::Map {
                type_params: type_params.clone(),
                args: args.iter().map(|a| subst_params(a, m)).collect(),
                result: Box::new(subst_params(result, m)),
            }
        }
        Type::Ctor(n, args) => Type::Ctor(
            n.clone(),
            args.iter().map(|a| subst_params(a, map)).collect(),
        ),
        Type::Record(fs) => Type::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), subst_params(t, map)))
                .collect(),
        ),
        _ => t.clone(),
    }
}

impl<'e, 'a> Checker<'e, 'a> {
    fn run(&mut self) -> Typed {
        let env = self.env;
        // Functions.
        let mut functions = Vec::new();
        for f in &env.funcs {
            let d = f.decl;
            // standard Boogie writes bit-vector operations `{:bvbuiltin "bvadd"}`, Ultimate's
            // dialect `{:builtin "bvadd"}`: both name the SMT function
            let builtin = attr_str(&d.attrs, "builtin").or_else(|| attr_str(&d.attrs, "bvbuiltin"));
            let inline = d.attrs.iter().any(|a| {
                a.name.name == "inline"
                    && !a.args.iter().any(|x| {
                        matches!(
                            x,
                            ast::AttrArg::Expr(ast::Expr {
                                kind: ast::ExprKind::BoolLit(false),
                                ..
                            })
                        )
                    })
            });
            functions.push(Function {
                name: d.name.name.clone(),
                span: d.name.span,
                type_params: f.type_params.clone(),
                params: f.params.clone(),
                param_names: d
                    .params
                    .iter()
                    .map(|p| p.name.as_ref().map(|n| n.name.clone()))
                    .collect(),
                result: f.result.clone(),
                body: None,
                builtin,
                indices: attr_ints(&d.attrs, "indices"),
                inline,
                smt_defined: attr_str(&d.attrs, "smtdefined"),
                const_array: has_attr(&d.attrs, "const_array"),
                overapproximation: attr_str(&d.attrs, "overapproximation").or_else(|| {
                    has_attr(&d.attrs, "overapproximation").then(|| d.name.name.clone())
                }),
                concrete: self.concrete_attr(d, f),
            });
        }
        // `const {:builtin "+oo"} {:indices 5, 11} c: T;` becomes a 0-ary builtin function `c`.
        for d in &env.decls {
            let ast::Decl::Const(c) = d else { continue };
            let Some(builtin) = attr_str(&c.attrs, "builtin") else {
                continue;
            };
            for n in &c.names {
                let Some(&v) = env.global_names.get(&n.name) else {
                    continue;
                };
                let fid = FuncId(functions.len() as u32);
                functions.push(Function {
                    name: n.name.clone(),
                    span: n.span,
                    type_params: Vec::new(),
                    params: Vec::new(),
                    param_names: Vec::new(),
                    result: self.vars[v.0 as usize].ty.clone(),
                    body: None,
                    builtin: Some(builtin.clone()),
                    indices: attr_ints(&c.attrs, "indices"),
                    inline: false,
                    smt_defined: None,
                    const_array: false,
                    overapproximation: None,
                    concrete: None,
                });
                self.builtin_consts.insert(v, fid);
            }
        }
        let empty = HashMap::new();
        for (i, f) in env.funcs.iter().enumerate() {
            let Some(b) = &f.decl.body else { continue };
            let tps: Vec<(String, Type)> = f
                .type_params
                .iter()
                .map(|n| (n.clone(), Type::Param(n.clone())))
                .collect();
            let mut ctx = Ctx::new(&empty, tps, false);
            let mut pvars = Vec::new();
            for (k, (a, ty)) in f.decl.params.iter().zip(&f.params).enumerate() {
                let name = a
                    .name
                    .as_ref()
                    .map(|n| n.name.clone())
                    .unwrap_or_else(|| format!("#arg{k}"));
                let v = self.new_var(&name, ty.clone(), VarKind::Bound, a.span);
                ctx.bound.push((name, v));
                pvars.push(v);
            }
            let e = self.top_expr(b, &mut ctx, Some(&f.result));
            functions[i].body = Some((pvars, e));
        }
        self.check_const_parents();
        for f in &env.funcs {
            self.check_tparams_used(&f.decl.type_params, &f.params, "function parameter");
        }
        for p in &env.procs {
            let tys: Vec<Type> = p
                .params
                .iter()
                .map(|v| self.vars[v.0 as usize].ty.clone())
                .collect();
            self.check_tparams_used(&p.decl.type_params, &tys, "procedure parameter");
        }
        // Axioms and where clauses of globals.
        let mut axioms = Vec::new();
        for d in self.all_decls() {
            match d {
                ast::Decl::Axiom(a) => {
                    let mut ctx = Ctx::new(&empty, Vec::new(), false);
                    axioms.push(self.top_expr(&a.expr, &mut ctx, Some(&Type::Bool)));
                }
                ast::Decl::Var(vd) => {
                    for g in &vd.vars {
                        if let Some(w) = &g.where_clause {
                            let mut ctx = Ctx::new(&empty, Vec::new(), true);
                            let e = self.top_expr(w, &mut ctx, Some(&Type::Bool));
                            self.add_where(g, &env.global_names, e, w.span);
                        }
                    }
                }
                _ => {}
            }
        }
        // Procedures: contracts.
        let mut procedures = Vec::new();
        for p in &env.procs {
            let tps: Vec<(String, Type)> = p
                .type_params
                .iter()
                .map(|n| (n.clone(), Type::Param(n.clone())))
                .collect();
            let mut requires = Vec::new();
            let mut ensures = Vec::new();
            for g in p.decl.params.iter().chain(&p.decl.returns) {
                if let Some(w) = &g.where_clause {
                    let mut ctx = Ctx::new(&p.scope, tps.clone(), true);
                    let e = self.top_expr(w, &mut ctx, Some(&Type::Bool));
                    self.add_where(g, &p.scope, e, w.span);
                }
            }
            for s in &p.decl.specs {
                let mut ctx = Ctx::new(&p.scope, tps.clone(), true);
                match &s.kind {
                    ast::SpecKind::Requires(e) => requires.push(Contract {
                        free: s.free,
                        expr: self.top_expr(e, &mut ctx, Some(&Type::Bool)),
                        span: e.span,
                    }),
                    ast::SpecKind::Ensures(e) => ensures.push(Contract {
                        free: s.free,
                        expr: self.top_expr(e, &mut ctx, Some(&Type::Bool)),
                        span: e.span,
                    }),
                    ast::SpecKind::Modifies(ids) => {
                        for id in ids {
                            if let Some(&v) = env.global_names.get(&id.name)
                                && matches!(self.vars[v.0 as usize].kind, VarKind::Const { .. })
                            {
                                self.diags.push(
                                    Diagnostic::error(
                                        "E0407",
                                        format!("constant `{}` in a modifies clause", id.name),
                                        id.span,
                                        "constants cannot be modified",
                                    )
                                    .with_help(
                                        "a `modifies` clause may only name global variables",
                                    ),
                                );
                            }
                        }
                    }
                }
            }
            procedures.push(Procedure {
                name: p.decl.name.name.clone(),
                span: p.decl.name.span,
                type_params: p.type_params.clone(),
                params: p.params.clone(),
                returns: p.returns.clone(),
                locals: p
                    .body
                    .as_ref()
                    .map(|b| b.locals.clone())
                    .unwrap_or_default(),
                requires,
                ensures,
                modifies: p.modifies.clone(),
                body: None,
            });
        }
        for im in &env.extra_impls {
            let first = env
                .proc_names
                .get(&im.name.name)
                .and_then(|&i| env.procs[i].body.as_ref());
            let mut d = Diagnostic::error(
                "E0405",
                format!(
                    "procedure `{}` has more than one implementation",
                    im.name.name
                ),
                im.name.span,
                "second implementation",
            )
            .with_help("Lapidary supports one body per procedure");
            if let Some(b) = first {
                d = d.with_secondary(b.body.span, "first body here");
            }
            self.diags.push(d);
        }
        // Bodies.
        let mut bodies = Vec::new();
        for (i, p) in env.procs.iter().enumerate() {
            let Some(b) = &p.body else { continue };
            let pid = ProcId(i as u32);
            if let Some((name, ip, ir)) = &b.impl_sig {
                self.check_impl_sig(name, "parameter", ip, &p.params);
                self.check_impl_sig(name, "return", ir, &p.returns);
            }
            let mut ctx = Ctx::new(&b.scope, b.tparams.clone(), true);
            for vd in &b.body.locals {
                for g in &vd.vars {
                    if let Some(w) = &g.where_clause {
                        let e = self.top_expr(w, &mut ctx, Some(&Type::Bool));
                        self.add_where(g, &b.scope, e, w.span);
                    }
                }
            }
            let pc = ProcCtx {
                pid,
                modifies: p.modifies.clone(),
            };
            let stmts = self.stmts(&b.body.stmts, &mut ctx, &pc);
            bodies.push(TBody {
                proc: pid,
                stmts,
                end: b.body.end,
            });
        }
        let find = |n: &str| env.proc_names.get(n).map(|&i| ProcId(i as u32));
        // As Ultimate's CfgBuilder: `ULTIMATE.start` if declared; otherwise library mode, where every
        // procedure with a body (`main` included) is checked from any state satisfying its requires.
        let entry = match find("ULTIMATE.start") {
            Some(p) => Entry::Procedure(p),
            None => Entry::Library(bodies.iter().map(|b| b.proc).collect()),
        };
        let program = Program {
            vars: std::mem::take(&mut self.vars),
            functions,
            procedures,
            type_ctors: env.type_ctors.clone(),
            axioms,
            globals: env.globals.clone(),
            consts: env.consts.clone(),
            errors: Vec::new(),
            entry,
        };
        Typed {
            program,
            bodies,
            wheres: std::mem::take(&mut self.wheres),
        }
    }

    /// Records `e`, the typed `where` clause of the declaration group `g` (`x, y: T where e`), for
    /// each of its names (resolved in `scope`), as Boogie does.
    fn add_where(
        &mut self,
        g: &ast::TypedIdents,
        scope: &HashMap<String, VarId>,
        e: Expr,
        span: Span,
    ) {
        for n in &g.names {
            if let Some(&v) = scope.get(&n.name) {
                self.wheres.insert(v, (e.clone(), span));
            }
        }
    }

    /// Ultimate's rule: each type parameter must occur in the types of the parameters (so that
    /// instantiations can be inferred).
    /// `{:concrete "op"}` of a function declaration: a known operation, on an
    /// `{:overapproximation}` function of type `(int, int) returns (int)` (`E0314` otherwise).
    fn concrete_attr(&mut self, d: &ast::FunctionDecl, f: &FuncSig<'_>) -> Option<ConcreteOp> {
        let a = d.attrs.iter().find(|a| a.name.name == "concrete")?;
        let width = attr_ints(&d.attrs, "concrete").first().copied();
        let op = attr_str(&d.attrs, "concrete").and_then(|s| ConcreteOp::from_name(&s, width));
        let shape = f.params.len() == 2
            && f.params.iter().all(|t| *t == Type::Int)
            && f.result == Type::Int
            && has_attr(&d.attrs, "overapproximation");
        match op {
            Some(op) if shape => Some(op),
            _ => {
                let (what, help) = if op.is_none() {
                    (
                        "unknown operation in `{:concrete}`".to_string(),
                        format!(
                            "the operations are {}; shifts take the operand's width in bits \
                             (`{{:concrete \"shl\", 32}}`)",
                            ConcreteOp::NAMES.map(|n| format!("\"{n}\"")).join(", ")
                        ),
                    )
                } else {
                    (
                        "`{:concrete}` on a function that is not an `{:overapproximation}` of type `(int, int) returns (int)`".to_string(),
                        "declare the function `{:overapproximation} f(x: int, y: int) returns (int)`".to_string(),
                    )
                };
                self.diags.push(
                    Diagnostic::error("E0314", what, a.span, "invalid `{:concrete}`")
                        .with_help(help),
                );
                None
            }
        }
    }

    fn check_tparams_used(&mut self, tparams: &[ast::Ident], tys: &[Type], what: &str) {
        for tp in tparams {
            if !tys.iter().any(|t| mentions(t, &tp.name)) {
                self.diags.push(
                    Diagnostic::error(
                        "E0313",
                        format!(
                            "type parameter `{}` is not used in the {what} types",
                            tp.name
                        ),
                        tp.span,
                        "unused type parameter",
                    )
                    .with_help(
                        "every type parameter must occur in a parameter type so it can be inferred",
                    ),
                );
            }
        }
    }

    /// The parents of `const x: T <: p;` must be constants of type `T`.
    fn check_const_parents(&mut self) {
        let env = self.env;
        for d in &env.decls {
            let ast::Decl::Const(c) = d else { continue };
            let Some(first) = c.names.first().and_then(|n| env.global_names.get(&n.name)) else {
                continue;
            };
            let ty = self.vars[first.0 as usize].ty.clone();
            for (_, p) in c.parents.iter().flatten() {
                let Some(&pv) = env.global_names.get(&p.name) else {
                    continue;
                };
                let var = &self.vars[pv.0 as usize];
                if !matches!(var.kind, VarKind::Const { .. }) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0408",
                            format!("parent `{}` is not a constant", p.name),
                            p.span,
                            "expected a constant",
                        )
                        .with_secondary(var.span, "declared as a variable here"),
                    );
                } else if !self.unify(&ty, &var.ty.clone()) {
                    let pt = self.vars[pv.0 as usize].ty.clone();
                    self.diags.push(mismatch(&ty, &pt, p.span));
                }
            }
        }
    }

    fn all_decls(&self) -> Vec<&'a ast::Decl> {
        // The declarations are reachable through the signatures; axioms and globals need the program.
        self.env.decls.clone()
    }

    fn check_impl_sig(
        &mut self,
        name: &ast::Ident,
        what: &str,
        got: &[(Span, Type)],
        want: &[VarId],
    ) {
        if got.len() != want.len() {
            self.diags.push(
                Diagnostic::error(
                    "E0306",
                    format!(
                        "implementation of `{}` has {} {what}s, but the procedure declares {}",
                        name.name,
                        got.len(),
                        want.len()
                    ),
                    name.span,
                    "signature differs from the procedure's",
                )
                .with_help(
                    "an implementation must repeat the procedure's signature (names may differ)",
                ),
            );
            return;
        }
        for ((sp, t), v) in got.iter().zip(want) {
            let pt = self.vars[v.0 as usize].ty.clone();
            if !self.unify(&pt, t) {
                let pspan = self.vars[v.0 as usize].span;
                self.diags.push(
                    mismatch(&pt, t, *sp).with_secondary(pspan, "declared type in the procedure"),
                );
            }
        }
    }

    fn new_var(&mut self, name: &str, ty: Type, kind: VarKind, span: Span) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Variable {
            name: name.to_string(),
            ty,
            kind,
            span,
        });
        id
    }

    fn fresh_var(&mut self) -> Type {
        self.fresh += 1;
        Type::Param(format!(" ?{}", self.fresh))
    }

    // ---- unification -------------------------------------------------------------------------------

    fn shallow(&self, t: &Type) -> Type {
        let mut t = t.clone();
        while let Type::Param(n) = &t {
            match self.subst.get(n) {
                Some(u) => t = u.clone(),
                None => break,
            }
        }
        t
    }

    /// Applies the current substitution fully.
    fn apply(&self, t: &Type) -> Type {
        let t = self.shallow(t);
        match t {
            Type::Map {
                type_params,
                args,
                result,
            } => Type::Map {
                type_params,
                args: args.iter().map(|a| self.apply(a)).collect(),
                result: Box::new(self.apply(&result)),
            },
            Type::Ctor(n, args) => Type::Ctor(n, args.iter().map(|a| self.apply(a)).collect()),
            Type::Record(fs) => {
                Type::Record(fs.iter().map(|(n, t)| (n.clone(), self.apply(t))).collect())
            }
            t => t,
        }
    }

    fn occurs(&self, v: &str, t: &Type) -> bool {
        match self.shallow(t) {
            Type::Param(n) => n == v,
            Type::Map { args, result, .. } => {
                args.iter().any(|a| self.occurs(v, a)) || self.occurs(v, &result)
            }
            Type::Ctor(_, args) => args.iter().any(|a| self.occurs(v, a)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.occurs(v, t)),
            _ => false,
        }
    }

    fn unify(&mut self, a: &Type, b: &Type) -> bool {
        let a = self.shallow(a);
        let b = self.shallow(b);
        if is_err(&a) || is_err(&b) {
            return true;
        }
        if let Type::Param(n) = &a
            && is_infvar(&a)
        {
            if a == b {
                return true;
            }
            if self.occurs(n, &b) {
                return false;
            }
            self.subst.insert(n.clone(), b);
            return true;
        }
        if is_infvar(&b) {
            return self.unify(&b, &a);
        }
        match (&a, &b) {
            (
                Type::Map {
                    type_params: tp1,
                    args: a1,
                    result: r1,
                },
                Type::Map {
                    type_params: tp2,
                    args: a2,
                    result: r2,
                },
            ) => {
                if tp1.len() != tp2.len() || a1.len() != a2.len() {
                    return false;
                }
                // Alpha-rename the second map's type parameters to the first's.
                let ren: HashMap<String, Type> = tp2
                    .iter()
                    .cloned()
                    .zip(tp1.iter().map(|n| Type::Param(n.clone())))
                    .collect();
                let a2: Vec<Type> = a2.iter().map(|t| subst_params(t, &ren)).collect();
                let r2 = subst_params(r2, &ren);
                a1.iter().zip(&a2).all(|(x, y)| self.unify(x, y)) && self.unify(r1, &r2)
            }
            (Type::Ctor(n1, a1), Type::Ctor(n2, a2)) => {
                n1 == n2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| self.unify(x, y))
            }
            (Type::Record(f1), Type::Record(f2)) => {
                f1.len() == f2.len()
                    && f1
                        .iter()
                        .zip(f2)
                        .all(|((n1, t1), (n2, t2))| n1 == n2 && self.unify(t1, t2))
            }
            _ => a == b,
        }
    }

    /// Unifies `found` with `expected`, reporting a mismatch at `span`.
    fn expect(&mut self, expected: &Type, found: &Type, span: Span) {
        if !self.unify(expected, found) {
            let (e, f) = (self.apply(expected), self.apply(found));
            self.diags.push(mismatch(&e, &f, span));
        }
    }

    /// Types a top-level expression, checks it against `expected`, and resolves inference variables.
    fn top_expr(&mut self, e: &ast::Expr, ctx: &mut Ctx, expected: Option<&Type>) -> Expr {
        let (x, t) = self.expr(e, ctx);
        if let Some(exp) = expected {
            self.expect(exp, &t, e.span);
        }
        self.finish(x)
    }

    /// Applies the substitution to the type arguments inside `e`; unresolved inference variables become
    /// `int` (Boogie leaves them unconstrained; any choice is sound for an unconstrained type).
    fn finish(&mut self, e: Expr) -> Expr {
        let mut e = e;
        self.finish_in(&mut e);
        e
    }

    fn close(&self, t: &Type) -> Type {
        let t = self.apply(t);
        let mut m = HashMap::new();
        collect_infvars(&t, &mut m);
        if m.is_empty() {
            t
        } else {
            subst_params(&t, &m)
        }
    }

    fn finish_in(&mut self, e: &mut Expr) {
        match e {
            Expr::App {
                type_args, args, ..
            } => {
                for t in type_args.iter_mut() {
                    *t = self.close(t);
                }
                for a in args {
                    self.finish_in(a);
                }
            }
            Expr::Float { ty, .. } => *ty = self.close(ty),
            Expr::Unary(_, a) | Expr::Extract { expr: a, .. } | Expr::Field(a, _) => {
                self.finish_in(a)
            }
            Expr::Binary(_, a, b) => {
                self.finish_in(a);
                self.finish_in(b);
            }
            Expr::Ite(a, b, c) => {
                self.finish_in(a);
                self.finish_in(b);
                self.finish_in(c);
            }
            Expr::Select(a, idx) => {
                self.finish_in(a);
                idx.iter_mut().for_each(|i| self.finish_in(i));
            }
            Expr::Store(a, idx, v) => {
                self.finish_in(a);
                idx.iter_mut().for_each(|i| self.finish_in(i));
                self.finish_in(v);
            }
            Expr::Quant {
                triggers,
                body,
                vars,
                ..
            } => {
                for v in vars.iter() {
                    let t = self.vars[v.0 as usize].ty.clone();
                    self.vars[v.0 as usize].ty = self.close(&t);
                }
                triggers
                    .iter_mut()
                    .flatten()
                    .for_each(|t| self.finish_in(t));
                self.finish_in(body);
            }
            Expr::Record(fs) => fs.iter_mut().for_each(|(_, x)| self.finish_in(x)),
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Real(_)
            | Expr::BitVec { .. }
            | Expr::Var(_)
            | Expr::Old(_) => {}
        }
    }

    // ---- expressions -------------------------------------------------------------------------------

    fn lookup(&self, name: &str, ctx: &Ctx) -> Option<VarId> {
        if let Some((_, v)) = ctx.bound.iter().rev().find(|(n, _)| n == name) {
            return Some(*v);
        }
        ctx.scope
            .get(name)
            .or_else(|| self.env.global_names.get(name))
            .copied()
    }

    fn resolve_ty(&mut self, t: &ast::Type, ctx: &Ctx) -> Type {
        self.env.resolve_type_quiet(t, &ctx.tparams)
    }

    fn expr(&mut self, e: &ast::Expr, ctx: &mut Ctx) -> (Expr, Type) {
        use ast::ExprKind as K;
        match &e.kind {
            K::BoolLit(b) => (Expr::Bool(*b), Type::Bool),
            K::IntLit(s) => match s.parse::<BigInt>() {
                Ok(n) => (Expr::Int(n), Type::Int),
                Err(_) => self.bad_literal(e.span, "integer"),
            },
            K::RealLit(s) => match parse_real(s) {
                Some(r) => (Expr::Real(r), Type::Real),
                None => self.bad_literal(e.span, "real"),
            },
            K::BvLit { value, width } => match value.parse::<BigUint>() {
                Ok(v) => (
                    Expr::BitVec {
                        value: v,
                        width: *width,
                    },
                    Type::BitVec(*width),
                ),
                Err(_) => self.bad_literal(e.span, "bit-vector"),
            },
            K::FloatLit(s) => match float_type(s) {
                Some(ty) => (
                    Expr::Float {
                        text: s.clone(),
                        ty: ty.clone(),
                    },
                    ty,
                ),
                None => self.bad_literal(e.span, "floating-point"),
            },
            K::Var(id) => match self.lookup(&id.name, ctx) {
                Some(v) => {
                    let var = &self.vars[v.0 as usize];
                    let ty = var.ty.clone();
                    if let Some(&func) = self.builtin_consts.get(&v) {
                        let app = Expr::App {
                            func,
                            type_args: Vec::new(),
                            args: Vec::new(),
                        };
                        (app, ty)
                    } else if ctx.in_old && var.kind == VarKind::Global {
                        (Expr::Old(v), ty)
                    } else {
                        (Expr::Var(v), ty)
                    }
                }
                None => (Expr::Bool(false), err_ty()),
            },
            K::Old(a) => {
                if !ctx.old_allowed {
                    self.diags.push(
                        Diagnostic::error(
                            "E0404",
                            "`old` outside of a procedure",
                            e.span,
                            "`old` is not allowed here",
                        )
                        .with_help("`old(e)` may only be used in procedure bodies and contracts"),
                    );
                }
                let prev = ctx.in_old;
                ctx.in_old = true;
                let r = self.expr(a, ctx);
                ctx.in_old = prev;
                r
            }
            K::Unary(op, a) => {
                let (x, t) = self.expr(a, ctx);
                match op {
                    ast::UnOp::Not => {
                        self.expect(&Type::Bool, &t, a.span);
                        (Expr::Unary(UnOp::Not, Box::new(x)), Type::Bool)
                    }
                    ast::UnOp::Neg => {
                        let t = self.numeric(&t, a.span, "-", false);
                        (Expr::Unary(UnOp::Neg, Box::new(x)), t)
                    }
                    ast::UnOp::ToInt => {
                        self.expect(&Type::Real, &t, a.span);
                        (Expr::Unary(UnOp::ToInt, Box::new(x)), Type::Int)
                    }
                    ast::UnOp::ToReal => {
                        self.expect(&Type::Int, &t, a.span);
                        (Expr::Unary(UnOp::ToReal, Box::new(x)), Type::Real)
                    }
                }
            }
            K::Coerce(a, ty) => {
                let want = self.env.resolve_type_quiet(ty, &ctx.tparams);
                let (x, t) = self.expr(a, ctx);
                self.expect(&want, &t, a.span);
                (x, want)
            }
            K::Binary(op, a, b) => self.binary(*op, a, b, e.span, ctx),
            K::Select(m, idx) => {
                let (mx, mt) = self.expr(m, ctx);
                let (args, result) = self.map_access(&mt, m.span, idx, e.span, ctx);
                (Expr::Select(Box::new(mx), args), result)
            }
            K::Store(m, idx, v) => {
                let (mx, mt) = self.expr(m, ctx);
                let (args, result) = self.map_access(&mt, m.span, idx, e.span, ctx);
                let (vx, vt) = self.expr(v, ctx);
                self.expect(&result, &vt, v.span);
                (Expr::Store(Box::new(mx), args, Box::new(vx)), mt)
            }
            K::Extract { expr, hi, lo } => {
                let (x, t) = self.expr(expr, ctx);
                let t = self.apply(&t);
                match t {
                    Type::BitVec(n) if lo < hi && *hi <= n => (
                        Expr::Extract {
                            expr: Box::new(x),
                            hi: *hi,
                            lo: *lo,
                        },
                        Type::BitVec(hi - lo),
                    ),
                    Type::BitVec(n) => {
                        self.diags.push(
                            Diagnostic::error(
                                "E0311",
                                format!("invalid bit-vector extraction [{hi}:{lo}] from bv{n}"),
                                e.span,
                                format!("needs 0 <= {lo} < {hi} <= {n}"),
                            )
                            .with_help("`e[hi:lo]` extracts bits lo..hi-1 and has width hi-lo"),
                        );
                        (Expr::Bool(false), err_ty())
                    }
                    t if is_err(&t) => (Expr::Bool(false), t),
                    t => {
                        self.diags.push(Diagnostic::error(
                            "E0311",
                            format!("bit-vector extraction from a value of type {t}"),
                            expr.span,
                            "not a bit-vector",
                        ));
                        (Expr::Bool(false), err_ty())
                    }
                }
            }
            K::Field(a, f) => {
                let (x, t) = self.expr(a, ctx);
                let t = self.apply(&t);
                match &t {
                    Type::Record(fs) => match fs.iter().find(|(n, _)| *n == f.name) {
                        Some((_, ft)) => (Expr::Field(Box::new(x), f.name.clone()), ft.clone()),
                        None => {
                            self.diags.push(unknown_field(&t, f));
                            (Expr::Bool(false), err_ty())
                        }
                    },
                    t if is_err(t) => (Expr::Bool(false), err_ty()),
                    _ => {
                        self.diags.push(unknown_field(&t, f));
                        (Expr::Bool(false), err_ty())
                    }
                }
            }
            K::Call(f, args) => {
                let Some(&fi) = self.env.func_names.get(&f.name) else {
                    return (Expr::Bool(false), err_ty());
                };
                let sig = &self.env.funcs[fi];
                if sig.params.len() != args.len() {
                    self.diags.push(
                        Diagnostic::error(
                            "E0303",
                            format!(
                                "wrong number of arguments to function `{}`: expected {}, found {}",
                                f.name,
                                sig.params.len(),
                                args.len()
                            ),
                            e.span,
                            format!(
                                "expects {} argument{}",
                                sig.params.len(),
                                plural(sig.params.len())
                            ),
                        )
                        .with_secondary(sig.decl.name.span, "function declared here"),
                    );
                    for a in args {
                        self.expr(a, ctx);
                    }
                    return (Expr::Bool(false), err_ty());
                }
                let inst: HashMap<String, Type> = sig
                    .type_params
                    .clone()
                    .into_iter()
                    .map(|n| (n, self.fresh_var()))
                    .collect();
                let type_args: Vec<Type> = sig
                    .type_params
                    .iter()
                    .map(|n| inst.get(n).cloned().unwrap_or_else(err_ty))
                    .collect();
                let params: Vec<Type> = sig.params.iter().map(|t| subst_params(t, &inst)).collect();
                let result = subst_params(&sig.result, &inst);
                let mut xs = Vec::new();
                for (a, pt) in args.iter().zip(&params) {
                    let (x, t) = self.expr(a, ctx);
                    self.expect(pt, &t, a.span);
                    xs.push(x);
                }
                (
                    Expr::App {
                        func: FuncId(fi as u32),
                        type_args,
                        args: xs,
                    },
                    result,
                )
            }
            K::IfThenElse(c, a, b) => {
                let (cx, ct) = self.expr(c, ctx);
                self.expect(&Type::Bool, &ct, c.span);
                let (ax, at) = self.expr(a, ctx);
                let (bx, bt) = self.expr(b, ctx);
                self.expect(&at, &bt, b.span);
                (Expr::Ite(Box::new(cx), Box::new(ax), Box::new(bx)), at)
            }
            K::Quant {
                quantifier,
                type_params,
                vars,
                triggers,
                body,
                ..
            } => {
                let ntp = ctx.tparams.len();
                let nb = ctx.bound.len();
                for t in type_params {
                    ctx.tparams
                        .push((t.name.clone(), Type::Param(t.name.clone())));
                }
                let mut vs = Vec::new();
                let mut tys = Vec::new();
                for g in vars {
                    let ty = self.resolve_ty(&g.ty, ctx);
                    for n in &g.names {
                        let v = self.new_var(&n.name, ty.clone(), VarKind::Bound, n.span);
                        ctx.bound.push((n.name.clone(), v));
                        vs.push(v);
                        tys.push(ty.clone());
                    }
                }
                for g in vars {
                    if let Some(w) = &g.where_clause {
                        let (_, t) = self.expr(w, ctx);
                        self.expect(&Type::Bool, &t, w.span);
                    }
                }
                self.check_tparams_used(type_params, &tys, "bound variable");
                let trig: Vec<Vec<Expr>> = triggers
                    .iter()
                    .map(|ts| ts.iter().map(|t| self.expr(t, ctx).0).collect())
                    .collect();
                let (bx, bt) = self.expr(body, ctx);
                ctx.bound.truncate(nb);
                ctx.tparams.truncate(ntp);
                let (q, ty) = match quantifier {
                    ast::Quantifier::Forall | ast::Quantifier::Exists => {
                        self.expect(&Type::Bool, &bt, body.span);
                        let q = if *quantifier == ast::Quantifier::Forall {
                            Quantifier::Forall
                        } else {
                            Quantifier::Exists
                        };
                        (q, Type::Bool)
                    }
                    ast::Quantifier::Lambda => (
                        Quantifier::Lambda,
                        Type::Map {
                            type_params: type_params.iter().map(|t| t.name.clone()).collect(),
                            args: tys,
                            result: Box::new(bt),
                        },
                    ),
                };
                (
                    Expr::Quant {
                        quantifier: q,
                        vars: vs,
                        triggers: trig,
                        body: Box::new(bx),
                    },
                    ty,
                )
            }
            K::Record(fields) => {
                let mut xs = Vec::new();
                let mut ts = Vec::new();
                for (n, v) in fields {
                    let (x, t) = self.expr(v, ctx);
                    xs.push((n.name.clone(), x));
                    ts.push((n.name.clone(), t));
                }
                (Expr::Record(xs), Type::Record(ts))
            }
        }
    }

    fn bad_literal(&mut self, span: Span, what: &str) -> (Expr, Type) {
        self.diags.push(Diagnostic::error(
            "E0312",
            format!("malformed {what} literal"),
            span,
            "cannot read this literal",
        ));
        (Expr::Bool(false), err_ty())
    }

    /// Checks that `t` is `int` or `real` (or, with `bv`, a bit-vector); returns it.
    fn numeric(&mut self, t: &Type, span: Span, op: &str, bv: bool) -> Type {
        let t = self.apply(t);
        match &t {
            Type::Int | Type::Real => t,
            Type::BitVec(_) if bv => t,
            t if is_err(t) => err_ty(),
            t if is_infvar(t) => {
                self.unify(t, &Type::Int);
                Type::Int
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        "E0309",
                        format!("invalid operand type {t} for `{op}`"),
                        span,
                        format!("expected `int` or `real`, found `{t}`"),
                    )
                    .with_help(
                        "bit-vector arithmetic is written with `{:builtin \"bvadd\"}` functions",
                    ),
                );
                err_ty()
            }
        }
    }

    fn binary(
        &mut self,
        op: ast::BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        ctx: &mut Ctx,
    ) -> (Expr, Type) {
        use ast::BinOp as B;
        let (ax, at) = self.expr(a, ctx);
        let (bx, bt) = self.expr(b, ctx);
        let mk = |o: BinOp, x: Expr, y: Expr| Expr::Binary(o, Box::new(x), Box::new(y));
        match op {
            B::Iff | B::Implies | B::Explies | B::And | B::Or => {
                self.expect(&Type::Bool, &at, a.span);
                self.expect(&Type::Bool, &bt, b.span);
                let e = match op {
                    B::Iff => mk(BinOp::Iff, ax, bx),
                    B::Implies => mk(BinOp::Implies, ax, bx),
                    B::Explies => mk(BinOp::Implies, bx, ax),
                    B::And => mk(BinOp::And, ax, bx),
                    _ => mk(BinOp::Or, ax, bx),
                };
                (e, Type::Bool)
            }
            B::Eq | B::Neq | B::Subtype => {
                if !self.unify(&at, &bt) {
                    let (x, y) = (self.apply(&at), self.apply(&bt));
                    self.diags.push(
                        Diagnostic::error(
                            "E0301",
                            format!("type mismatch: cannot compare {x} with {y}"),
                            span,
                            format!("`{x}` and `{y}` are different types"),
                        )
                        .with_secondary(a.span, format!("this is `{x}`"))
                        .with_secondary(b.span, format!("this is `{y}`")),
                    );
                }
                let o = match op {
                    B::Eq => BinOp::Eq,
                    B::Neq => BinOp::Neq,
                    _ => BinOp::Subtype,
                };
                (mk(o, ax, bx), Type::Bool)
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                self.expect(&at, &bt, b.span);
                self.numeric(&at, a.span, op_str(op), false);
                let o = match op {
                    B::Lt => BinOp::Lt,
                    B::Le => BinOp::Le,
                    B::Gt => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                (mk(o, ax, bx), Type::Bool)
            }
            B::Add | B::Sub | B::Mul | B::Div | B::Mod => {
                self.expect(&at, &bt, b.span);
                let t = self.numeric(&at, a.span, op_str(op), false);
                let o = match (op, &t) {
                    (B::Add, _) => BinOp::Add,
                    (B::Sub, _) => BinOp::Sub,
                    (B::Mul, _) => BinOp::Mul,
                    (B::Div, Type::Real) => BinOp::RealDiv,
                    (B::Div, _) => BinOp::IntDiv,
                    _ => BinOp::Mod,
                };
                if matches!(op, B::Mod) && t == Type::Real {
                    self.diags.push(Diagnostic::error(
                        "E0309",
                        format!("invalid operand type real for `{}`", op_str(op)),
                        span,
                        "integer operator applied to reals",
                    ));
                }
                (mk(o, ax, bx), t)
            }
            B::Concat => {
                let (x, y) = (self.apply(&at), self.apply(&bt));
                match (&x, &y) {
                    (Type::BitVec(n), Type::BitVec(m)) if n.checked_add(*m).is_some() => (
                        mk(BinOp::Concat, ax, bx),
                        Type::BitVec(n.saturating_add(*m)),
                    ),
                    _ if is_err(&x) || is_err(&y) => (mk(BinOp::Concat, ax, bx), err_ty()),
                    _ => {
                        let (bad, sp) = if matches!(x, Type::BitVec(_)) {
                            (&y, b.span)
                        } else {
                            (&x, a.span)
                        };
                        self.diags.push(Diagnostic::error(
                            "E0309",
                            format!("invalid operand type {bad} for `++`"),
                            sp,
                            format!("expected a bit-vector, found `{bad}`"),
                        ));
                        (Expr::Bool(false), err_ty())
                    }
                }
            }
        }
    }

    /// Checks the indices of a map access; returns the typed indices and the result type.
    fn map_access(
        &mut self,
        mt: &Type,
        mspan: Span,
        idx: &[ast::Expr],
        span: Span,
        ctx: &mut Ctx,
    ) -> (Vec<Expr>, Type) {
        let mt = self.apply(mt);
        match &mt {
            Type::Map {
                type_params,
                args,
                result,
            } => {
                if args.len() != idx.len() {
                    self.diags.push(Diagnostic::error(
                        "E0304",
                        format!(
                            "wrong number of map indices: expected {}, found {}",
                            args.len(),
                            idx.len()
                        ),
                        span,
                        format!(
                            "`{mt}` takes {} index{}",
                            args.len(),
                            if args.len() == 1 { "" } else { "es" }
                        ),
                    ));
                    let xs = idx.iter().map(|i| self.expr(i, ctx).0).collect();
                    return (xs, err_ty());
                }
                let inst: HashMap<String, Type> = type_params
                    .iter()
                    .map(|n| (n.clone(), self.fresh_var()))
                    .collect();
                let mut xs = Vec::new();
                for (i, at) in idx.iter().zip(args) {
                    let (x, t) = self.expr(i, ctx);
                    let at = subst_params(at, &inst);
                    self.expect(&at, &t, i.span);
                    xs.push(x);
                }
                (xs, subst_params(result, &inst))
            }
            t => {
                if !is_err(t) {
                    self.diags.push(Diagnostic::error(
                        "E0305",
                        format!("indexing a value of type {t}, which is not a map"),
                        mspan,
                        format!("this is `{t}`"),
                    ));
                }
                let xs = idx.iter().map(|i| self.expr(i, ctx).0).collect();
                (xs, err_ty())
            }
        }
    }

    // ---- statements --------------------------------------------------------------------------------

    /// Checks that `v` may be written in the body of `pc`.
    fn check_writable(&mut self, v: VarId, id: &ast::Ident, pc: &ProcCtx) {
        let var = &self.vars[v.0 as usize];
        match &var.kind {
            VarKind::Const { .. } => self.diags.push(
                Diagnostic::error(
                    "E0403",
                    format!("assignment to constant `{}`", id.name),
                    id.span,
                    "constants cannot be assigned",
                )
                .with_secondary(var.span, "declared as a constant here"),
            ),
            VarKind::Param(_) => self.diags.push(
                Diagnostic::error(
                    "E0403",
                    format!("assignment to in-parameter `{}`", id.name),
                    id.span,
                    "in-parameters are immutable",
                )
                .with_secondary(var.span, "declared as an in-parameter here")
                .with_help("copy the parameter into a local variable and modify that"),
            ),
            VarKind::Bound => self.diags.push(Diagnostic::error(
                "E0403",
                format!("assignment to bound variable `{}`", id.name),
                id.span,
                "bound variables cannot be assigned",
            )),
            VarKind::Global => {
                if !pc.modifies.contains(&v) {
                    let pname = &self.env.procs[pc.pid.0 as usize].decl.name;
                    self.diags.push(
                        Diagnostic::error(
                            "E0401",
                            format!(
                                "assignment to global `{}` not in the modifies clause of `{}`",
                                id.name, pname.name
                            ),
                            id.span,
                            "not in `modifies`",
                        )
                        .with_secondary(pname.span, "procedure declared here")
                        .with_help(format!(
                            "add `modifies {};` to the procedure's specification",
                            id.name
                        )),
                    );
                }
            }
            VarKind::Return(_) | VarKind::Local(_) => {}
        }
    }

    fn check_callee_modifies(
        &mut self,
        callee: ProcId,
        proc_id: &ast::Ident,
        span: Span,
        pc: &ProcCtx,
        what: &str,
    ) {
        let missing: Vec<VarId> = self.env.procs[callee.0 as usize]
            .modifies
            .iter()
            .filter(|g| !pc.modifies.contains(g))
            .copied()
            .collect();
        if missing.is_empty() {
            return;
        }
        let names: Vec<String> = missing
            .iter()
            .map(|g| self.vars[g.0 as usize].name.clone())
            .collect();
        let pname = &self.env.procs[pc.pid.0 as usize].decl.name;
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        self.diags.push(
            Diagnostic::error(
                "E0402",
                format!(
                    "{what} `{}` may modify {list}, which `{}` does not list in its modifies clause",
                    proc_id.name, pname.name
                ),
                span,
                format!("`{}` modifies {list}", proc_id.name),
            )
            .with_secondary(pname.span, "caller declared here")
            .with_help(format!("add `modifies {};` to `{}`", names.join(", "), pname.name)),
        );
    }

    fn stmts(&mut self, ss: &[ast::Stmt], ctx: &mut Ctx, pc: &ProcCtx) -> Vec<TStmt> {
        ss.iter().map(|s| self.stmt(s, ctx, pc)).collect()
    }

    fn stmt(&mut self, s: &ast::Stmt, ctx: &mut Ctx, pc: &ProcCtx) -> TStmt {
        use ast::StmtKind as S;
        match &s.kind {
            S::Label(l) => TStmt::Label(l.name.clone(), l.span),
            S::Assert { expr, attrs } => TStmt::Assert(
                self.top_expr(expr, ctx, Some(&Type::Bool)),
                expr.span,
                check_attribute(attrs),
            ),
            S::Assume { expr, .. } => {
                TStmt::Assume(self.top_expr(expr, ctx, Some(&Type::Bool)), expr.span)
            }
            S::Havoc(ids) => {
                let mut vs: Vec<VarId> = Vec::new();
                for id in ids {
                    if let Some(v) = self.lookup(&id.name, ctx) {
                        self.check_writable(v, id, pc);
                        if !vs.contains(&v) {
                            vs.push(v);
                        }
                    }
                }
                TStmt::Havoc(vs, s.span)
            }
            S::Assign { lhs, rhs } => self.assign(lhs, rhs, s.span, ctx, pc),
            S::Call {
                forall,
                outs,
                proc,
                args,
                ..
            } => {
                let Some(&pi) = self.env.proc_names.get(&proc.name) else {
                    return TStmt::Unsupported("unresolved call".into(), s.span);
                };
                let callee = ProcId(pi as u32);
                let sig = &self.env.procs[pi];
                let (ptys, rtys) = self.instantiate_proc(pi);
                if args.len() != ptys.len() {
                    self.diags.push(
                        Diagnostic::error(
                            "E0307",
                            format!(
                                "wrong number of arguments in call to `{}`: expected {}, found {}",
                                proc.name,
                                ptys.len(),
                                args.len()
                            ),
                            s.span,
                            format!("expects {} argument{}", ptys.len(), plural(ptys.len())),
                        )
                        .with_secondary(sig.decl.name.span, "procedure declared here"),
                    );
                }
                if !forall && outs.len() != rtys.len() {
                    self.diags.push(
                        Diagnostic::error(
                            "E0307",
                            format!(
                                "wrong number of results in call to `{}`: expected {}, found {}",
                                proc.name,
                                rtys.len(),
                                outs.len()
                            ),
                            s.span,
                            format!("returns {} value{}", rtys.len(), plural(rtys.len())),
                        )
                        .with_secondary(sig.decl.name.span, "procedure declared here"),
                    );
                }
                let mut xs = Vec::new();
                let mut with_wildcards = Vec::new();
                for (a, pt) in args
                    .iter()
                    .zip(ptys.iter().map(Some).chain(std::iter::repeat(None)))
                {
                    if let Some(a) = a {
                        let (x, t) = self.expr(a, ctx);
                        if let Some(pt) = pt {
                            self.expect(pt, &t, a.span);
                        }
                        let x = self.finish(x);
                        with_wildcards.push(Some(x.clone()));
                        xs.push(x);
                    } else {
                        with_wildcards.push(None);
                    }
                }
                let mut rets = Vec::new();
                for (o, rt) in outs
                    .iter()
                    .zip(rtys.iter().map(Some).chain(std::iter::repeat(None)))
                {
                    if let Some(v) = self.lookup(&o.name, ctx) {
                        self.check_writable(v, o, pc);
                        if rets.contains(&v) {
                            self.diags.push(twice(o));
                        }
                        if let Some(rt) = rt {
                            let vt = self.vars[v.0 as usize].ty.clone();
                            self.expect(&vt, rt, o.span);
                        }
                        rets.push(v);
                    }
                }
                self.check_callee_modifies(callee, proc, s.span, pc, "called procedure");
                if *forall {
                    let checked_modifies = self.env.procs[pi]
                        .decl
                        .specs
                        .iter()
                        .find(|sp| !sp.free && matches!(sp.kind, ast::SpecKind::Modifies(_)));
                    if let Some(m) = checked_modifies {
                        self.diags.push(
                            Diagnostic::error(
                                "E0409",
                                format!(
                                    "`call forall` of `{}`, which has a modifies clause",
                                    proc.name
                                ),
                                s.span,
                                "`call forall` needs a procedure without side effects",
                            )
                            .with_secondary(m.span, "modifies clause here"),
                        );
                    }
                    let sig = &self.env.procs[pi];
                    if !sig.type_params.is_empty() || !rtys.is_empty() {
                        return TStmt::Unsupported(
                            "call forall of a procedure with type parameters or out-parameters"
                                .into(),
                            s.span,
                        );
                    }
                    return TStmt::CallForall {
                        callee,
                        args: with_wildcards,
                        span: s.span,
                    };
                }
                TStmt::Call {
                    callee,
                    args: xs,
                    rets,
                    span: s.span,
                }
            }
            S::Fork { tid, proc, args } => {
                let tid: Vec<Expr> = tid.iter().map(|t| self.top_expr(t, ctx, None)).collect();
                let Some(&pi) = self.env.proc_names.get(&proc.name) else {
                    return TStmt::Unsupported("unresolved fork".into(), s.span);
                };
                let callee = ProcId(pi as u32);
                let (ptys, _) = self.instantiate_proc(pi);
                if args.len() != ptys.len() {
                    self.diags.push(
                        Diagnostic::error(
                            "E0307",
                            format!(
                                "wrong number of arguments in fork of `{}`: expected {}, found {}",
                                proc.name,
                                ptys.len(),
                                args.len()
                            ),
                            s.span,
                            format!("expects {} argument{}", ptys.len(), plural(ptys.len())),
                        )
                        .with_secondary(
                            self.env.procs[pi].decl.name.span,
                            "procedure declared here",
                        ),
                    );
                }
                let mut xs = Vec::new();
                for (a, pt) in args
                    .iter()
                    .zip(ptys.iter().map(Some).chain(std::iter::repeat(None)))
                {
                    let (x, t) = self.expr(a, ctx);
                    if let Some(pt) = pt {
                        self.expect(pt, &t, a.span);
                    }
                    xs.push(self.finish(x));
                }
                self.check_callee_modifies(callee, proc, s.span, pc, "forked procedure");
                TStmt::Fork {
                    tid,
                    callee,
                    args: xs,
                    span: s.span,
                }
            }
            S::Join { tid, assign } => {
                let tid: Vec<Expr> = tid.iter().map(|t| self.top_expr(t, ctx, None)).collect();
                let mut rets = Vec::new();
                for o in assign {
                    if let Some(v) = self.lookup(&o.name, ctx) {
                        self.check_writable(v, o, pc);
                        if rets.contains(&v) {
                            self.diags.push(twice(o));
                        }
                        rets.push(v);
                    }
                }
                TStmt::Join {
                    tid,
                    rets,
                    span: s.span,
                }
            }
            S::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let cond = cond
                    .as_ref()
                    .map(|c| self.top_expr(c, ctx, Some(&Type::Bool)));
                let then_branch = self.stmts(then_branch, ctx, pc);
                let else_branch = match else_branch {
                    None => Vec::new(),
                    Some(ast::Else::Block(b)) => self.stmts(b, ctx, pc),
                    Some(ast::Else::If(i)) => vec![self.stmt(i, ctx, pc)],
                };
                TStmt::If {
                    cond,
                    then_branch,
                    else_branch,
                    span: s.span,
                }
            }
            S::While {
                cond,
                invariants,
                body,
            } => {
                let cond = cond
                    .as_ref()
                    .map(|c| self.top_expr(c, ctx, Some(&Type::Bool)));
                let invariants = invariants
                    .iter()
                    .map(|i| Contract {
                        free: i.free,
                        expr: self.top_expr(&i.expr, ctx, Some(&Type::Bool)),
                        span: i.expr.span,
                    })
                    .collect();
                let body = self.stmts(body, ctx, pc);
                TStmt::While {
                    cond,
                    invariants,
                    body,
                    span: s.span,
                }
            }
            S::Atomic(b) => TStmt::Atomic(self.stmts(b, ctx, pc), s.span),
            S::Break(l) => TStmt::Break(l.as_ref().map(|l| l.name.clone()), s.span),
            S::Return => TStmt::Return(s.span),
            S::Goto(ls) => TStmt::Goto(
                ls.iter().map(|l| (l.name.clone(), l.span)).collect(),
                s.span,
            ),
        }
    }

    /// The parameter and return types of procedure `pi` with its type parameters instantiated freshly.
    fn instantiate_proc(&mut self, pi: usize) -> (Vec<Type>, Vec<Type>) {
        let sig = &self.env.procs[pi];
        let inst: HashMap<String, Type> = sig
            .type_params
            .clone()
            .into_iter()
            .map(|n| (n, self.fresh_var()))
            .collect();
        let sig = &self.env.procs[pi];
        let p = sig
            .params
            .iter()
            .map(|v| subst_params(&self.vars[v.0 as usize].ty, &inst))
            .collect();
        let r = sig
            .returns
            .iter()
            .map(|v| subst_params(&self.vars[v.0 as usize].ty, &inst))
            .collect();
        (p, r)
    }

    fn assign(
        &mut self,
        lhs: &[ast::Lhs],
        rhs: &[ast::Expr],
        span: Span,
        ctx: &mut Ctx,
        pc: &ProcCtx,
    ) -> TStmt {
        if lhs.len() != rhs.len() {
            self.diags.push(
                Diagnostic::error(
                    "E0308",
                    format!(
                        "wrong number of right-hand sides: {} target{}, {} value{}",
                        lhs.len(),
                        plural(lhs.len()),
                        rhs.len(),
                        plural(rhs.len())
                    ),
                    span,
                    "left and right sides differ in length",
                )
                .with_help(
                    "a parallel assignment `x, y := e1, e2;` needs one expression per target",
                ),
            );
        }
        let mut pairs: Vec<(VarId, Expr)> = Vec::new();
        for (l, r) in lhs.iter().zip(rhs) {
            let Some(v) = self.lookup(&l.base.name, ctx) else {
                continue;
            };
            self.check_writable(v, &l.base, pc);
            if pairs.iter().any(|(w, _)| *w == v) {
                self.diags.push(twice(&l.base));
            }
            // Walk the selectors, recording the path.
            let mut ty = self.vars[v.0 as usize].ty.clone();
            let mut path: Vec<Sel> = Vec::new();
            for sel in &l.selectors {
                match sel {
                    ast::Selector::Index(idx) => {
                        let (xs, rt) =
                            self.map_access(&ty, l.base.span.to(l.span), idx, l.span, ctx);
                        path.push(Sel::Index(xs));
                        ty = rt;
                    }
                    ast::Selector::Field(f) => {
                        let t = self.apply(&ty);
                        match &t {
                            Type::Record(fs) => match fs.iter().find(|(n, _)| *n == f.name) {
                                Some((_, ft)) => {
                                    path.push(Sel::Field(
                                        f.name.clone(),
                                        fs.iter().map(|(n, _)| n.clone()).collect(),
                                    ));
                                    ty = ft.clone();
                                }
                                None => {
                                    self.diags.push(unknown_field(&t, f));
                                    ty = err_ty();
                                }
                            },
                            t if is_err(t) => {}
                            _ => {
                                self.diags.push(unknown_field(&t, f));
                                ty = err_ty();
                            }
                        }
                    }
                }
            }
            let (rx, rt) = self.expr(r, ctx);
            self.expect(&ty, &rt, r.span);
            let value = update(Expr::Var(v), &path, rx);
            let value = self.finish(value);
            pairs.push((v, value));
        }
        TStmt::Assign(pairs, span)
    }
}

/// One step of an assignment target path.
enum Sel {
    Index(Vec<Expr>),
    /// The field and all field names of the record, in order.
    Field(String, Vec<String>),
}

/// `base` with the location at `path` replaced by `value`.
fn update(base: Expr, path: &[Sel], value: Expr) -> Expr {
    match path.split_first() {
        None => value,
        Some((Sel::Index(idx), rest)) => {
            let inner = update(
                Expr::Select(Box::new(base.clone()), idx.clone()),
                rest,
                value,
            );
            Expr::Store(Box::new(base), idx.clone(), Box::new(inner))
        }
        Some((Sel::Field(f, all), rest)) => Expr::Record(
            all.iter()
                .map(|g| {
                    let cur = Expr::Field(Box::new(base.clone()), g.clone());
                    if g == f {
                        (g.clone(), update(cur, rest, value.clone()))
                    } else {
                        (g.clone(), cur)
                    }
                })
                .collect(),
        ),
    }
}

/// Whether type parameter `name` occurs free in `t`.
fn mentions(t: &Type, name: &str) -> bool {
    match t {
        Type::Param(n) => n == name,
        Type::Map {
            type_params,
            args,
            result,
        } => {
            !type_params.iter().any(|p| p == name)
                && (args.iter().any(|a| mentions(a, name)) || mentions(result, name))
        }
        Type::Ctor(_, args) => args.iter().any(|a| mentions(a, name)),
        Type::Record(fs) => fs.iter().any(|(_, t)| mentions(t, name)),
        _ => false,
    }
}

fn collect_infvars(t: &Type, out: &mut HashMap<String, Type>) {
    match t {
        Type::Param(n) if n.starts_with(" ?") => {
            out.insert(n.clone(), Type::Int);
        }
        Type::Map { args, result, .. } => {
            args.iter().for_each(|a| collect_infvars(a, out));
            collect_infvars(result, out);
        }
        Type::Ctor(_, args) => args.iter().for_each(|a| collect_infvars(a, out)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| collect_infvars(t, out)),
        _ => {}
    }
}

fn twice(id: &ast::Ident) -> Diagnostic {
    Diagnostic::error(
        "E0406",
        format!("variable `{}` is assigned more than once", id.name),
        id.span,
        "assigned again here",
    )
    .with_help("each variable may appear at most once on the left of a parallel assignment")
}

fn unknown_field(t: &Type, f: &ast::Ident) -> Diagnostic {
    Diagnostic::error(
        "E0310",
        format!("no field `{}` in type {t}", f.name),
        f.span,
        "unknown field",
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn op_str(op: ast::BinOp) -> &'static str {
    use ast::BinOp as B;
    match op {
        B::Iff => "<==>",
        B::Implies => "==>",
        B::Explies => "<==",
        B::And => "&&",
        B::Or => "||",
        B::Eq => "==",
        B::Neq => "!=",
        B::Lt => "<",
        B::Le => "<=",
        B::Gt => ">",
        B::Ge => ">=",
        B::Subtype => "<:",
        B::Concat => "++",
        B::Add => "+",
        B::Sub => "-",
        B::Mul => "*",
        B::Div => "/",
        B::Mod => "%",
    }
}

/// Parses `123.456` (optionally with an exponent `e-3`) exactly.
fn parse_real(s: &str) -> Option<BigRational> {
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().ok()?),
        None => (s, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits = format!("{int}{frac}");
    let num: BigInt = digits.parse().ok()?;
    let scale = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
    if scale.unsigned_abs() > 1_000_000 {
        return None;
    }
    let ten = BigInt::from(10);
    let p = num_traits::pow(ten, scale.unsigned_abs() as usize);
    Some(if scale >= 0 {
        BigRational::from_integer(num * p)
    } else {
        BigRational::new(num, p)
    })
}

/// The type of a float literal with an `f<significand>e<exponent>` suffix (e.g. `0x1.8p1f24e8`).
fn float_type(s: &str) -> Option<Type> {
    let i = s.rfind('f')?;
    let (sig, exp) = s[i + 1..].split_once('e')?;
    let sig: u32 = sig.parse().ok()?;
    let exp: u32 = exp.parse().ok()?;
    Some(Type::Builtin(format!("(_ FloatingPoint {exp} {sig})")))
}

/// The string of an assertion's `{:check "name"}` attribute.
fn check_attribute(attrs: &[ast::Attribute]) -> Option<String> {
    attrs
        .iter()
        .filter(|a| a.name.name == "check")
        .find_map(|a| match a.args.as_slice() {
            [ast::AttrArg::Str(s)] => Some(s.clone()),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_literals_are_exact() {
        let q = |n: i64, d: i64| BigRational::new(BigInt::from(n), BigInt::from(d));
        assert_eq!(parse_real("3.5"), Some(q(7, 2)));
        assert_eq!(parse_real("0.10"), Some(q(1, 10)));
        assert_eq!(parse_real("1.5e2"), Some(q(150, 1)));
        assert_eq!(parse_real("25.0e-2"), Some(q(1, 4)));
        assert_eq!(parse_real("x"), None);
    }

    #[test]
    fn float_literal_types_come_from_the_suffix() {
        assert_eq!(
            float_type("0x1.8p1f24e8"),
            Some(Type::Builtin("(_ FloatingPoint 8 24)".into()))
        );
        assert_eq!(float_type("1.5"), None);
    }

    #[test]
    fn substitution_respects_map_binders() {
        let a = || Type::Param("a".into());
        let inner = Type::Map {
            type_params: vec!["a".into()],
            args: vec![a()],
            result: Box::new(a()),
        };
        let t = Type::Map {
            type_params: vec![],
            args: vec![a()],
            result: Box::new(inner.clone()),
        };
        let m: HashMap<String, Type> = [("a".to_string(), Type::Int)].into_iter().collect();
        let expected = Type::Map {
            type_params: vec![],
            args: vec![Type::Int],
            result: Box::new(inner),
        };
        assert_eq!(subst_params(&t, &m), expected);
        assert!(mentions(&t, "a"));
        assert!(!mentions(
            &Type::Map {
                type_params: vec!["a".into()],
                args: vec![a()],
                result: Box::new(Type::Int)
            },
            "a"
        ));
    }
}
