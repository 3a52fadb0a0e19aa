//! Name resolution: the first checking phase.
//!
//! Computes the [`Env`]: the global symbol tables (types, constants, global variables, functions,
//! procedures), the resolved signature of every function and procedure, and for every procedure body the
//! scope of its parameters, returns and locals. Implementation parameters are mapped position-wise to the
//! procedure's `VarId`s; implementation type parameters are renamed to the procedure's.
//!
//! It reports (codes `E02xx`, see docs/IR.md): undeclared variables, functions, procedures and types,
//! duplicate declarations (with a secondary label at the first one), locals clashing with parameters,
//! implementations of undeclared procedures, `goto` to undefined labels, duplicate labels, and `break`
//! outside loops or to unknown labels.
//!
//! Invariants of a returned `Env` without errors: every name used in the program resolves in the scopes the
//! type checker rebuilds from the `Env` (same rules: bound variables, then the procedure scope, then
//! globals); all types in signatures are resolved (synonyms expanded).
//! Declaration order is irrelevant at the global level.

use super::program::{Type, TypeCtor, VarId, VarKind, Variable};
use super::{ProcId, diag_dup};
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast;
use std::collections::{HashMap, HashSet};

/// A function's resolved signature.
#[derive(Clone, Debug)]
pub struct FuncSig<'a> {
    pub decl: &'a ast::FunctionDecl,
    pub type_params: Vec<String>,
    pub params: Vec<Type>,
    pub result: Type,
}

/// Which source text a procedure body comes from.
#[derive(Clone, Debug)]
pub struct BodyInfo<'a> {
    pub body: &'a ast::Body,
    /// Parameter, return and local names of this body to their variables (the implementation's names).
    pub scope: HashMap<String, VarId>,
    /// Type-parameter names of the body's declaration to the procedure's type parameters.
    pub tparams: Vec<(String, Type)>,
    pub locals: Vec<VarId>,
    /// For a separate `implementation`: its name and its parameter and return names with resolved types
    /// (in the procedure's type parameters), for the signature check of the type checker.
    pub impl_sig: Option<ImplSig>,
}

/// An implementation's name and its parameter and return names with resolved types.
pub type ImplSig = (ast::Ident, Vec<(Span, Type)>, Vec<(Span, Type)>);

/// A procedure's resolved signature and body.
#[derive(Clone, Debug)]
pub struct ProcSig<'a> {
    pub decl: &'a ast::ProcDecl,
    pub type_params: Vec<String>,
    pub params: Vec<VarId>,
    pub returns: Vec<VarId>,
    /// Parameter and return names of the procedure declaration (contracts are resolved in these).
    pub scope: HashMap<String, VarId>,
    pub modifies: Vec<VarId>,
    pub body: Option<BodyInfo<'a>>,
}

/// The result of name resolution.
#[derive(Clone, Debug, Default)]
pub struct Env<'a> {
    pub vars: Vec<Variable>,
    /// Globals and constants by name.
    pub global_names: HashMap<String, VarId>,
    pub globals: Vec<VarId>,
    pub consts: Vec<VarId>,
    pub type_ctors: Vec<TypeCtor>,
    pub funcs: Vec<FuncSig<'a>>,
    pub func_names: HashMap<String, usize>,
    pub procs: Vec<ProcSig<'a>>,
    pub proc_names: HashMap<String, usize>,
    /// Implementations that were not attached to their procedure (a second implementation); reported by
    /// the semantic checks.
    pub extra_impls: Vec<&'a ast::ImplDecl>,
    /// All declarations, in source order.
    pub decls: Vec<&'a ast::Decl>,
    types: HashMap<String, (TypeDef<'a>, Span)>,
}

#[derive(Clone, Debug)]
enum TypeDef<'a> {
    Ctor(usize),
    Synonym(&'a ast::TypeDecl),
    Builtin(String),
}

struct Resolver<'a> {
    env: Env<'a>,
    diags: Vec<Diagnostic>,
}

/// Runs name resolution over the whole program.
pub fn resolve(prog: &ast::Program) -> (Env<'_>, Vec<Diagnostic>) {
    let mut r = Resolver {
        env: Env::default(),
        diags: Vec::new(),
    };
    r.env.decls = prog.decls.iter().collect();
    r.collect_types(prog);
    r.collect_globals(prog);
    r.collect_functions(prog);
    r.collect_procedures(prog);
    r.check_uses(prog);
    (r.env, r.diags)
}

impl Env<'_> {
    /// Resolves a type whose names are known to resolve (after a successful resolution phase).
    pub fn resolve_type_quiet(&self, t: &ast::Type, tparams: &[(String, Type)]) -> Type {
        self.resolve_type_in(t, tparams, 0, &mut Vec::new())
    }

    pub(crate) fn resolve_type_in(
        &self,
        t: &ast::Type,
        tparams: &[(String, Type)],
        depth: usize,
        diags: &mut Vec<Diagnostic>,
    ) -> Type {
        match &t.kind {
            ast::TypeKind::Bool => Type::Bool,
            ast::TypeKind::Int => Type::Int,
            ast::TypeKind::Real => Type::Real,
            ast::TypeKind::BitVec(n) => Type::BitVec(*n),
            ast::TypeKind::Map {
                type_params,
                args,
                result,
            } => {
                let mut tps = tparams.to_vec();
                for p in type_params {
                    tps.push((p.name.clone(), Type::Param(p.name.clone())));
                }
                Type::Map {
                    type_params: type_params.iter().map(|p| p.name.clone()).collect(),
                    args: args
                        .iter()
                        .map(|a| self.resolve_type_in(a, &tps, depth, diags))
                        .collect(),
                    result: Box::new(self.resolve_type_in(result, &tps, depth, diags)),
                }
            }
            ast::TypeKind::Record(fields) => Type::Record(
                fields
                    .iter()
                    .map(|(n, ft)| {
                        (
                            n.name.clone(),
                            self.resolve_type_in(ft, tparams, depth, diags),
                        )
                    })
                    .collect(),
            ),
            ast::TypeKind::Named(id, args) => {
                if let Some((_, ty)) = tparams.iter().rev().find(|(n, _)| *n == id.name) {
                    if !args.is_empty() {
                        diags.push(arity_diag(id, 0, args.len()));
                    }
                    return ty.clone();
                }
                let rargs: Vec<Type> = args
                    .iter()
                    .map(|a| self.resolve_type_in(a, tparams, depth, diags))
                    .collect();
                match self.types.get(&id.name) {
                    None => {
                        diags.push(undeclared("E0204", "type", id));
                        Type::Int
                    }
                    Some((TypeDef::Builtin(s), _)) => Type::Builtin(s.clone()),
                    Some((TypeDef::Ctor(n), _)) => {
                        if *n != rargs.len() {
                            diags.push(arity_diag(id, *n, rargs.len()));
                        }
                        Type::Ctor(id.name.clone(), rargs)
                    }
                    Some((TypeDef::Synonym(decl), _)) => {
                        if decl.params.len() != rargs.len() {
                            diags.push(arity_diag(id, decl.params.len(), rargs.len()));
                            return Type::Int;
                        }
                        if depth > 64 {
                            diags.push(
                                Diagnostic::error(
                                    "E0213",
                                    format!("cyclic type synonym `{}`", id.name),
                                    id.span,
                                    "this synonym expands to itself",
                                )
                                .with_help("type synonyms must not be recursive"),
                            );
                            return Type::Int;
                        }
                        let tps: Vec<(String, Type)> = decl
                            .params
                            .iter()
                            .map(|p| p.name.clone())
                            .zip(rargs)
                            .collect();
                        match &decl.synonym {
                            Some(s) => {
                                let mut inner = Vec::new();
                                let ty = self.resolve_type_in(s, &tps, depth + 1, &mut inner);
                                // Errors inside the synonym body are reported once, at the declaration.
                                if let Some(d) = inner.into_iter().find(|d| d.code == "E0213") {
                                    diags.push(d);
                                }
                                ty
                            }
                            None => Type::Int,
                        }
                    }
                }
            }
        }
    }
}

/// The string argument of attribute `name`, if present.
pub fn attr_str(attrs: &[ast::Attribute], name: &str) -> Option<String> {
    attrs.iter().find(|a| a.name.name == name).and_then(|a| {
        a.args.iter().find_map(|x| match x {
            ast::AttrArg::Str(s) => Some(s.clone()),
            _ => None,
        })
    })
}

/// The integer arguments of attribute `name` (e.g. `{:indices 5, 11}`).
pub fn attr_ints(attrs: &[ast::Attribute], name: &str) -> Vec<u32> {
    attrs
        .iter()
        .filter(|a| a.name.name == name)
        .flat_map(|a| a.args.iter())
        .filter_map(|x| match x {
            ast::AttrArg::Expr(ast::Expr {
                kind: ast::ExprKind::IntLit(s),
                ..
            }) => s.parse().ok(),
            _ => None,
        })
        .collect()
}

pub fn has_attr(attrs: &[ast::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.name.name == name)
}

fn undeclared(code: &'static str, what: &str, id: &ast::Ident) -> Diagnostic {
    Diagnostic::error(
        code,
        format!("undeclared {what} `{}`", id.name),
        id.span,
        "not found in this scope",
    )
}

/// Names visible at some point of a body: innermost scope last.
#[derive(Default)]
struct Scopes {
    bound: Vec<HashSet<String>>,
    tparams: Vec<String>,
}

impl<'a> Resolver<'a> {
    fn collect_types(&mut self, prog: &'a ast::Program) {
        for d in &prog.decls {
            let ast::Decl::Type(t) = d else { continue };
            if let Some((_, first)) = self.env.types.get(&t.name.name) {
                self.diags.push(diag_dup("E0205", "type", &t.name, *first));
                continue;
            }
            let def = if let Some(b) = attr_str(&t.attrs, "builtin") {
                let idx = attr_ints(&t.attrs, "indices");
                if idx.is_empty() {
                    TypeDef::Builtin(b)
                } else {
                    let idx: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
                    TypeDef::Builtin(format!("(_ {} {})", b, idx.join(" ")))
                }
            } else if t.synonym.is_some() {
                TypeDef::Synonym(t)
            } else {
                self.env.type_ctors.push(TypeCtor {
                    name: t.name.name.clone(),
                    arity: t.params.len(),
                    finite: t.finite,
                });
                TypeDef::Ctor(t.params.len())
            };
            self.env
                .types
                .insert(t.name.name.clone(), (def, t.name.span));
        }
        // Check synonym bodies once so that errors in unused synonyms are reported too.
        for d in &prog.decls {
            if let ast::Decl::Type(t) = d
                && let Some(syn) = &t.synonym
            {
                let tps: Vec<(String, Type)> = t
                    .params
                    .iter()
                    .map(|p| (p.name.clone(), Type::Param(p.name.clone())))
                    .collect();
                let mut diags = Vec::new();
                self.env.resolve_type_in(syn, &tps, 0, &mut diags);
                self.diags.extend(diags);
            }
        }
    }

    /// Resolves a parse-tree type; `tparams` maps type-parameter names in scope to their meaning.
    pub fn resolve_type(&mut self, t: &ast::Type, tparams: &[(String, Type)]) -> Type {
        let mut diags = Vec::new();
        let ty = self.env.resolve_type_in(t, tparams, 0, &mut diags);
        self.diags.extend(diags);
        ty
    }

    fn new_var(&mut self, name: &str, ty: Type, kind: VarKind, span: Span) -> VarId {
        let id = VarId(self.env.vars.len() as u32);
        self.env.vars.push(Variable {
            name: name.to_string(),
            ty,
            kind,
            span,
        });
        id
    }

    fn collect_globals(&mut self, prog: &'a ast::Program) {
        for d in &prog.decls {
            match d {
                ast::Decl::Const(c) => {
                    let ty = self.resolve_type(&c.ty, &[]);
                    for n in &c.names {
                        if let Some(&first) = self.env.global_names.get(&n.name) {
                            let fs = self.env.vars[first.0 as usize].span;
                            self.diags.push(diag_dup("E0205", "constant", n, fs));
                            continue;
                        }
                        let v = self.new_var(
                            &n.name,
                            ty.clone(),
                            VarKind::Const { unique: c.unique },
                            n.span,
                        );
                        self.env.global_names.insert(n.name.clone(), v);
                        self.env.consts.push(v);
                    }
                }
                ast::Decl::Var(vd) => {
                    for g in &vd.vars {
                        let ty = self.resolve_type(&g.ty, &[]);
                        for n in &g.names {
                            if let Some(&first) = self.env.global_names.get(&n.name) {
                                let fs = self.env.vars[first.0 as usize].span;
                                self.diags.push(diag_dup("E0205", "variable", n, fs));
                                continue;
                            }
                            let v = self.new_var(&n.name, ty.clone(), VarKind::Global, n.span);
                            self.env.global_names.insert(n.name.clone(), v);
                            self.env.globals.push(v);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn collect_functions(&mut self, prog: &'a ast::Program) {
        for d in &prog.decls {
            let ast::Decl::Function(f) = d else { continue };
            if let Some(&first) = self.env.func_names.get(&f.name.name) {
                let fs = self.env.funcs[first].decl.name.span;
                self.diags.push(diag_dup("E0205", "function", &f.name, fs));
                continue;
            }
            self.check_dup_idents(f.type_params.iter(), "type parameter");
            let tps: Vec<(String, Type)> = f
                .type_params
                .iter()
                .map(|p| (p.name.clone(), Type::Param(p.name.clone())))
                .collect();
            let params = f
                .params
                .iter()
                .map(|a| self.resolve_type(&a.ty, &tps))
                .collect();
            let result = self.resolve_type(&f.result.ty, &tps);
            self.check_dup_idents(f.params.iter().filter_map(|a| a.name.as_ref()), "parameter");
            self.env
                .func_names
                .insert(f.name.name.clone(), self.env.funcs.len());
            self.env.funcs.push(FuncSig {
                decl: f,
                type_params: f.type_params.iter().map(|p| p.name.clone()).collect(),
                params,
                result,
            });
        }
    }

    fn check_dup_idents<'b>(&mut self, ids: impl Iterator<Item = &'b ast::Ident>, what: &str) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for id in ids {
            if let Some(first) = seen.get(id.name.as_str()) {
                self.diags.push(diag_dup("E0206", what, id, *first));
            } else {
                seen.insert(&id.name, id.span);
            }
        }
    }

    /// Declares the variables of `groups` into `scope`, reporting names already in it.
    fn declare_group(
        &mut self,
        groups: &[ast::TypedIdents],
        tparams: &[(String, Type)],
        kind: VarKind,
        scope: &mut HashMap<String, VarId>,
        what: &str,
    ) -> Vec<VarId> {
        let mut out = Vec::new();
        for g in groups {
            let ty = self.resolve_type(&g.ty, tparams);
            for n in &g.names {
                if let Some(&first) = scope.get(&n.name) {
                    let fs = self.env.vars[first.0 as usize].span;
                    self.diags.push(diag_dup("E0206", what, n, fs).with_help(
                        "Boogie forbids two parameters, returns or locals of one procedure with the same name",
                    ));
                    continue;
                }
                let v = self.new_var(&n.name, ty.clone(), kind.clone(), n.span);
                scope.insert(n.name.clone(), v);
                out.push(v);
            }
        }
        out
    }

    fn collect_procedures(&mut self, prog: &'a ast::Program) {
        for d in &prog.decls {
            let ast::Decl::Procedure(p) = d else { continue };
            if let Some(&first) = self.env.proc_names.get(&p.name.name) {
                let fs = self.env.procs[first].decl.name.span;
                self.diags.push(diag_dup("E0205", "procedure", &p.name, fs));
                continue;
            }
            let pid = ProcId(self.env.procs.len() as u32);
            self.check_dup_idents(p.type_params.iter(), "type parameter");
            let tps: Vec<(String, Type)> = p
                .type_params
                .iter()
                .map(|t| (t.name.clone(), Type::Param(t.name.clone())))
                .collect();
            let mut scope = HashMap::new();
            let params = self.declare_group(
                &p.params,
                &tps,
                VarKind::Param(pid),
                &mut scope,
                "parameter",
            );
            let returns = self.declare_group(
                &p.returns,
                &tps,
                VarKind::Return(pid),
                &mut scope,
                "parameter",
            );
            let mut modifies = Vec::new();
            for s in &p.specs {
                if let ast::SpecKind::Modifies(ids) = &s.kind {
                    for id in ids {
                        match self.env.global_names.get(&id.name) {
                            Some(&v) => {
                                if !modifies.contains(&v) {
                                    modifies.push(v);
                                }
                            }
                            None => {
                                self.diags
                                    .push(undeclared("E0201", "variable", id).with_help(
                                        "a `modifies` clause may only name global variables",
                                    ))
                            }
                        }
                    }
                }
            }
            let body = p.body.as_ref().map(|b| {
                let mut bscope = scope.clone();
                let locals = self.declare_locals(b, &tps, pid, &mut bscope);
                BodyInfo {
                    body: b,
                    scope: bscope,
                    tparams: tps.clone(),
                    locals,
                    impl_sig: None,
                }
            });
            self.env
                .proc_names
                .insert(p.name.name.clone(), self.env.procs.len());
            self.env.procs.push(ProcSig {
                decl: p,
                type_params: p.type_params.iter().map(|t| t.name.clone()).collect(),
                params,
                returns,
                scope,
                modifies,
                body,
            });
        }
        for d in &prog.decls {
            let ast::Decl::Implementation(im) = d else {
                continue;
            };
            let Some(&idx) = self.env.proc_names.get(&im.name.name) else {
                self.diags.push(
                    Diagnostic::error(
                        "E0207",
                        format!("implementation of undeclared procedure `{}`", im.name.name),
                        im.name.span,
                        "no procedure with this name",
                    )
                    .with_help("declare the procedure with `procedure` before implementing it"),
                );
                continue;
            };
            if self.env.procs[idx].body.is_some() {
                self.env.extra_impls.push(im);
                continue;
            }
            let pid = ProcId(idx as u32);
            let proc_tps = self.env.procs[idx].type_params.clone();
            self.check_dup_idents(im.type_params.iter(), "type parameter");
            let tps: Vec<(String, Type)> = im
                .type_params
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let target = proc_tps.get(i).cloned().unwrap_or_else(|| t.name.clone());
                    (t.name.clone(), Type::Param(target))
                })
                .collect();
            let mut scope = HashMap::new();
            let pv = self.env.procs[idx].params.clone();
            let rv = self.env.procs[idx].returns.clone();
            let ip = self.bind_impl_group(&im.params, &pv, &tps, &mut scope);
            let ir = self.bind_impl_group(&im.returns, &rv, &tps, &mut scope);
            let locals = self.declare_locals(&im.body, &tps, pid, &mut scope);
            self.env.procs[idx].body = Some(BodyInfo {
                body: &im.body,
                scope,
                tparams: tps,
                locals,
                impl_sig: Some((im.name.clone(), ip, ir)),
            });
        }
    }

    /// Binds implementation parameter names position-wise to the procedure's variables. Count and type
    /// mismatches are reported by the type checker.
    fn bind_impl_group(
        &mut self,
        groups: &[ast::TypedIdents],
        vars: &[VarId],
        tparams: &[(String, Type)],
        scope: &mut HashMap<String, VarId>,
    ) -> Vec<(Span, Type)> {
        let mut i = 0;
        let mut sig = Vec::new();
        for g in groups {
            let ty = self.resolve_type(&g.ty, tparams);
            for n in &g.names {
                sig.push((n.span, ty.clone()));
                if let Some(&first) = scope.get(&n.name) {
                    let fs = self.impl_name_span(groups, n, first);
                    self.diags.push(diag_dup("E0206", "parameter", n, fs));
                } else if let Some(&v) = vars.get(i) {
                    scope.insert(n.name.clone(), v);
                }
                i += 1;
            }
        }
        sig
    }

    /// The span of the first implementation parameter named like `n`.
    fn impl_name_span(&self, groups: &[ast::TypedIdents], n: &ast::Ident, first: VarId) -> Span {
        groups
            .iter()
            .flat_map(|g| g.names.iter())
            .find(|m| m.name == n.name)
            .map(|m| m.span)
            .unwrap_or(self.env.vars[first.0 as usize].span)
    }

    fn declare_locals(
        &mut self,
        b: &ast::Body,
        tps: &[(String, Type)],
        pid: ProcId,
        scope: &mut HashMap<String, VarId>,
    ) -> Vec<VarId> {
        let mut locals = Vec::new();
        for vd in &b.locals {
            locals.extend(self.declare_group(
                &vd.vars,
                tps,
                VarKind::Local(pid),
                scope,
                "local variable",
            ));
        }
        locals
    }

    // ---- uses ---------------------------------------------------------------------------------------

    fn check_uses(&mut self, prog: &'a ast::Program) {
        let empty = HashMap::new();
        for d in &prog.decls {
            match d {
                ast::Decl::Axiom(a) => self.expr(&a.expr, &empty, &mut Scopes::default()),
                ast::Decl::Const(c) => {
                    for (_, p) in c.parents.iter().flatten() {
                        if !self.env.global_names.contains_key(&p.name) {
                            self.diags.push(undeclared("E0201", "constant", p));
                        }
                    }
                }
                ast::Decl::Var(vd) => {
                    for g in &vd.vars {
                        if let Some(w) = &g.where_clause {
                            self.expr(w, &empty, &mut Scopes::default());
                        }
                    }
                }
                ast::Decl::Function(f) => {
                    if let Some(b) = &f.body {
                        let mut sc = Scopes {
                            bound: vec![
                                f.params
                                    .iter()
                                    .filter_map(|a| a.name.as_ref())
                                    .map(|n| n.name.clone())
                                    .collect(),
                            ],
                            tparams: f.type_params.iter().map(|t| t.name.clone()).collect(),
                        };
                        self.expr(b, &empty, &mut sc);
                    }
                }
                _ => {}
            }
        }
        for i in 0..self.env.procs.len() {
            let p = self.env.procs[i].decl;
            let scope = self.env.procs[i].scope.clone();
            let mut sc = Scopes {
                bound: Vec::new(),
                tparams: p.type_params.iter().map(|t| t.name.clone()).collect(),
            };
            for g in p.params.iter().chain(&p.returns) {
                if let Some(w) = &g.where_clause {
                    self.expr(w, &scope, &mut sc);
                }
            }
            for s in &p.specs {
                match &s.kind {
                    ast::SpecKind::Requires(e) | ast::SpecKind::Ensures(e) => {
                        self.expr(e, &scope, &mut sc)
                    }
                    ast::SpecKind::Modifies(_) => {}
                }
            }
            if let Some(b) = self.env.procs[i].body.clone() {
                let mut sc = Scopes {
                    bound: Vec::new(),
                    tparams: b.tparams.iter().map(|(n, _)| n.clone()).collect(),
                };
                for vd in &b.body.locals {
                    for g in &vd.vars {
                        if let Some(w) = &g.where_clause {
                            self.expr(w, &b.scope, &mut sc);
                        }
                    }
                }
                self.body(b.body, &b.scope, &mut sc);
            }
        }
    }

    fn lookup_var(&self, id: &ast::Ident, scope: &HashMap<String, VarId>, sc: &Scopes) -> bool {
        sc.bound.iter().any(|s| s.contains(&id.name))
            || scope.contains_key(&id.name)
            || self.env.global_names.contains_key(&id.name)
    }

    fn var_use(&mut self, id: &ast::Ident, scope: &HashMap<String, VarId>, sc: &Scopes) {
        if !self.lookup_var(id, scope, sc) {
            let candidates = sc
                .bound
                .iter()
                .flatten()
                .chain(scope.keys())
                .chain(self.env.global_names.keys());
            let mut d = undeclared("E0201", "variable", id);
            if let Some(s) = similar(&id.name, candidates) {
                d = d.with_help(format!("a variable with a similar name exists: `{s}`"));
            }
            self.diags.push(d);
        }
    }

    fn expr(&mut self, e: &ast::Expr, scope: &HashMap<String, VarId>, sc: &mut Scopes) {
        use ast::ExprKind as K;
        match &e.kind {
            K::BoolLit(_) | K::IntLit(_) | K::RealLit(_) | K::BvLit { .. } | K::FloatLit(_) => {}
            K::Var(id) => self.var_use(id, scope, sc),
            K::Old(a) | K::Unary(_, a) | K::Extract { expr: a, .. } | K::Field(a, _) => {
                self.expr(a, scope, sc)
            }
            K::Coerce(a, t) => {
                let tps: Vec<(String, Type)> = sc
                    .tparams
                    .iter()
                    .map(|n| (n.clone(), Type::Param(n.clone())))
                    .collect();
                self.resolve_type(t, &tps);
                self.expr(a, scope, sc)
            }
            K::Binary(_, a, b) => {
                self.expr(a, scope, sc);
                self.expr(b, scope, sc);
            }
            K::Select(a, idx) => {
                self.expr(a, scope, sc);
                for i in idx {
                    self.expr(i, scope, sc);
                }
            }
            K::Store(a, idx, v) => {
                self.expr(a, scope, sc);
                for i in idx {
                    self.expr(i, scope, sc);
                }
                self.expr(v, scope, sc);
            }
            K::Call(f, args) => {
                if !self.env.func_names.contains_key(&f.name) {
                    let mut d = undeclared("E0202", "function", f);
                    if self.env.proc_names.contains_key(&f.name) {
                        d = d.with_help(format!(
                            "`{}` is a procedure; procedures are invoked with a `call` statement",
                            f.name
                        ));
                    }
                    self.diags.push(d);
                }
                for a in args {
                    self.expr(a, scope, sc);
                }
            }
            K::IfThenElse(c, a, b) => {
                self.expr(c, scope, sc);
                self.expr(a, scope, sc);
                self.expr(b, scope, sc);
            }
            K::Quant {
                type_params,
                vars,
                triggers,
                body,
                ..
            } => {
                self.check_dup_idents(type_params.iter(), "type parameter");
                self.check_dup_idents(vars.iter().flat_map(|g| g.names.iter()), "bound variable");
                let ntp = sc.tparams.len();
                sc.tparams
                    .extend(type_params.iter().map(|t| t.name.clone()));
                let tps: Vec<(String, Type)> = sc
                    .tparams
                    .iter()
                    .map(|n| (n.clone(), Type::Param(n.clone())))
                    .collect();
                for g in vars {
                    self.resolve_type(&g.ty, &tps);
                }
                sc.bound.push(
                    vars.iter()
                        .flat_map(|g| g.names.iter().map(|n| n.name.clone()))
                        .collect(),
                );
                for g in vars {
                    if let Some(w) = &g.where_clause {
                        self.expr(w, scope, sc);
                    }
                }
                for t in triggers.iter().flatten() {
                    self.expr(t, scope, sc);
                }
                self.expr(body, scope, sc);
                sc.bound.pop();
                sc.tparams.truncate(ntp);
            }
            K::Record(fields) => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for (n, v) in fields {
                    if let Some(first) = seen.get(n.name.as_str()) {
                        self.diags.push(diag_dup("E0206", "field", n, *first));
                    } else {
                        seen.insert(&n.name, n.span);
                    }
                    self.expr(v, scope, sc);
                }
            }
        }
    }

    fn body(&mut self, b: &ast::Body, scope: &HashMap<String, VarId>, sc: &mut Scopes) {
        // Labels are visible in the whole body.
        let mut labels: HashMap<String, Span> = HashMap::new();
        collect_labels(&b.stmts, &mut labels, &mut self.diags);
        let mut enclosing: Vec<(Vec<String>, bool)> = Vec::new();
        self.stmts(&b.stmts, scope, sc, &labels, &mut enclosing);
    }

    fn stmts(
        &mut self,
        ss: &[ast::Stmt],
        scope: &HashMap<String, VarId>,
        sc: &mut Scopes,
        labels: &HashMap<String, Span>,
        enclosing: &mut Vec<(Vec<String>, bool)>,
    ) {
        let mut pending: Vec<String> = Vec::new();
        for s in ss {
            let mine = std::mem::take(&mut pending);
            use ast::StmtKind as S;
            match &s.kind {
                S::Label(l) => {
                    pending = mine;
                    pending.push(l.name.clone());
                }
                S::Assert { expr, .. } | S::Assume { expr, .. } => self.expr(expr, scope, sc),
                S::Havoc(ids) => {
                    for id in ids {
                        self.var_use(id, scope, sc);
                    }
                }
                S::Assign { lhs, rhs } => {
                    for l in lhs {
                        self.var_use(&l.base, scope, sc);
                        for sel in &l.selectors {
                            if let ast::Selector::Index(idx) = sel {
                                for i in idx {
                                    self.expr(i, scope, sc);
                                }
                            }
                        }
                    }
                    for r in rhs {
                        self.expr(r, scope, sc);
                    }
                }
                S::Call {
                    outs, proc, args, ..
                } => {
                    self.proc_use(proc);
                    for o in outs {
                        self.var_use(o, scope, sc);
                    }
                    for a in args.iter().flatten() {
                        self.expr(a, scope, sc);
                    }
                }
                S::Fork { tid, proc, args } => {
                    self.proc_use(proc);
                    for a in tid.iter().chain(args) {
                        self.expr(a, scope, sc);
                    }
                }
                S::Join { tid, assign } => {
                    for a in tid {
                        self.expr(a, scope, sc);
                    }
                    for o in assign {
                        self.var_use(o, scope, sc);
                    }
                }
                S::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    if let Some(c) = cond {
                        self.expr(c, scope, sc);
                    }
                    enclosing.push((mine, false));
                    self.stmts(then_branch, scope, sc, labels, enclosing);
                    let mut e = else_branch;
                    loop {
                        match e {
                            None => break,
                            Some(ast::Else::Block(b)) => {
                                self.stmts(b, scope, sc, labels, enclosing);
                                break;
                            }
                            Some(ast::Else::If(inner)) => {
                                let S::If {
                                    cond,
                                    then_branch,
                                    else_branch,
                                } = &inner.kind
                                else {
                                    self.stmts(
                                        std::slice::from_ref(inner),
                                        scope,
                                        sc,
                                        labels,
                                        enclosing,
                                    );
                                    break;
                                };
                                if let Some(c) = cond {
                                    self.expr(c, scope, sc);
                                }
                                self.stmts(then_branch, scope, sc, labels, enclosing);
                                e = else_branch;
                            }
                        }
                    }
                    enclosing.pop();
                }
                S::While {
                    cond,
                    invariants,
                    body,
                } => {
                    if let Some(c) = cond {
                        self.expr(c, scope, sc);
                    }
                    for i in invariants {
                        self.expr(&i.expr, scope, sc);
                    }
                    enclosing.push((mine, true));
                    self.stmts(body, scope, sc, labels, enclosing);
                    enclosing.pop();
                }
                S::Atomic(body) => {
                    enclosing.push((mine, false));
                    self.stmts(body, scope, sc, labels, enclosing);
                    enclosing.pop();
                }
                S::Break(None) => {
                    if !enclosing.iter().any(|(_, is_loop)| *is_loop) {
                        self.diags.push(
                            Diagnostic::error(
                                "E0210",
                                "`break` outside of a loop",
                                s.span,
                                "not inside a `while`",
                            )
                            .with_help("use `break L;` to leave a labelled statement, or `goto`"),
                        );
                    }
                }
                S::Break(Some(l)) => {
                    if !enclosing.iter().any(|(ls, _)| ls.contains(&l.name)) {
                        let mut d = Diagnostic::error(
                            "E0211",
                            format!("`break` to unknown label `{}`", l.name),
                            l.span,
                            "no enclosing statement has this label",
                        );
                        if let Some(sp) = labels.get(&l.name) {
                            d = d.with_secondary(*sp, "this label does not enclose the `break`");
                        }
                        self.diags.push(d);
                    }
                }
                S::Return => {}
                S::Goto(ls) => {
                    for l in ls {
                        if !labels.contains_key(&l.name) {
                            self.diags.push(Diagnostic::error(
                                "E0208",
                                format!("`goto` to undefined label `{}`", l.name),
                                l.span,
                                "no such label in this procedure body",
                            ));
                        }
                    }
                }
            }
        }
    }

    fn proc_use(&mut self, id: &ast::Ident) {
        if !self.env.proc_names.contains_key(&id.name) {
            let mut d = undeclared("E0203", "procedure", id);
            if self.env.func_names.contains_key(&id.name) {
                d = d.with_help(format!(
                    "`{}` is a function; use it inside an expression",
                    id.name
                ));
            }
            self.diags.push(d);
        }
    }
}

/// The candidate closest to `name` (edit distance at most 2, and less than the name's length); ties go
/// to the lexicographically smallest, so the choice is deterministic.
fn similar<'s>(name: &str, candidates: impl Iterator<Item = &'s String>) -> Option<&'s str> {
    let limit = 2.min(name.chars().count().saturating_sub(1));
    candidates
        .filter_map(|c| {
            let d = edit_distance(name, c);
            (d <= limit).then_some((d, c.as_str()))
        })
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn arity_diag(id: &ast::Ident, expected: usize, found: usize) -> Diagnostic {
    Diagnostic::error(
        "E0302",
        format!(
            "wrong number of type arguments for `{}`: expected {expected}, found {found}",
            id.name
        ),
        id.span,
        format!(
            "expects {expected} type argument{}",
            if expected == 1 { "" } else { "s" }
        ),
    )
}

/// Collects all labels of a body (at any nesting depth), reporting duplicates.
fn collect_labels(ss: &[ast::Stmt], out: &mut HashMap<String, Span>, diags: &mut Vec<Diagnostic>) {
    for s in ss {
        match &s.kind {
            ast::StmtKind::Label(l) => {
                if let Some(first) = out.get(&l.name) {
                    diags.push(diag_dup("E0209", "label", l, *first));
                } else {
                    out.insert(l.name.clone(), l.span);
                }
            }
            ast::StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                collect_labels(then_branch, out, diags);
                match else_branch {
                    Some(ast::Else::Block(b)) => collect_labels(b, out, diags),
                    Some(ast::Else::If(i)) => collect_labels(std::slice::from_ref(i), out, diags),
                    None => {}
                }
            }
            ast::StmtKind::While { body, .. } | ast::StmtKind::Atomic(body) => {
                collect_labels(body, out, diags)
            }
            _ => {}
        }
    }
}
