//! Record elimination: rewrites a lowered program without record types (Ultimate's Boogie extension
//! `type P = { base: int, offset: int }`, field access `e!f`, record literals `{ f: e, … }`).
//!
//! Every type is flattened into its *leaves*: a scalar is its own leaf; a record is the
//! concatenation of its fields' leaves (in declaration order, named by the field path, `!base`);
//! a map `[A1, …, An]U` has one leaf `[leaves of A1, …, leaves of An]L` per leaf `L` of `U` — a
//! record index becomes several indices (a map over pairs is a map over two arguments), a record
//! value several maps (one per field). Each variable, parameter, return and bound variable whose
//! type contains a record becomes one variable per leaf (named `x!f`, the first leaf keeping the
//! variable's id); each function whose signature contains a record becomes one function per leaf
//! of its result (the first keeping the id), taking the leaves of its arguments (a `{:const_array}`
//! function: leaf `i` takes argument leaf `i`). Expressions are rewritten into one expression per
//! leaf of their type: `e!f` selects `f`'s leaves, a literal concatenates its fields' leaves,
//! `==` on a record (or a map of records) is the conjunction over the leaves and `!=` the
//! disjunction, `if`, select, store, application and lambda work leaf-wise.
//!
//! Invariant: the rewriting is a bijection of states — a record value is exactly the tuple of its
//! leaves, a map into records the tuple of its field maps, a map over records the curried map
//! over the fields (extensional equality is preserved both ways) — so every execution of the
//! original program is an execution of the rewritten one and back; verdicts carry over.
//!
//! Records inside polymorphic types, applications of builtin or `{:smtdefined}` functions on
//! records, records as arguments of type constructors and the empty record are not rewritten:
//! [`eliminate`] then returns the program unchanged and the engine answers UNKNOWN
//! "unsupported: records".

use super::program::*;
use std::collections::HashMap;

/// The program without records, or the program unchanged (see the module comment) when it uses
/// records in a way this pass does not rewrite.
pub fn eliminate(prog: Program) -> Program {
    if !uses_records(&prog) {
        return prog;
    }
    match Flattener::new(&prog).and_then(|f| f.run()) {
        Some(p) => p,
        None => prog,
    }
}

fn has_record(t: &Type) -> bool {
    match t {
        Type::Record(_) => true,
        Type::Map { args, result, .. } => args.iter().any(has_record) || has_record(result),
        Type::Ctor(_, args) => args.iter().any(has_record),
        _ => false,
    }
}

fn uses_records(p: &Program) -> bool {
    p.vars.iter().any(|v| has_record(&v.ty))
        || p.functions
            .iter()
            .any(|f| has_record(&f.result) || f.params.iter().any(has_record))
}

/// The leaves of a type: (field-path suffix, leaf type); `None` when a record sits where it is
/// not rewritten (polymorphic maps, type-constructor arguments, type parameters, empty records).
pub fn leaves(t: &Type) -> Option<Vec<(String, Type)>> {
    match t {
        Type::Record(fields) => {
            if fields.is_empty() {
                return None;
            }
            let mut out = Vec::new();
            for (name, ft) in fields {
                for (suffix, lt) in leaves(ft)? {
                    out.push((format!("!{name}{suffix}"), lt));
                }
            }
            Some(out)
        }
        Type::Map {
            type_params,
            args,
            result,
        } if has_record(t) => {
            if !type_params.is_empty() {
                return None;
            }
            let mut flat_args = Vec::new();
            for a in args {
                flat_args.extend(leaves(a)?.into_iter().map(|(_, lt)| lt));
            }
            Some(
                leaves(result)?
                    .into_iter()
                    .map(|(suffix, lt)| {
                        (
                            suffix,
                            Type::Map {
                                type_params: Vec::new(),
                                args: flat_args.clone(),
                                result: Box::new(lt),
                            },
                        )
                    })
                    .collect(),
            )
        }
        Type::Ctor(..) if has_record(t) => None,
        _ => Some(vec![(String::new(), t.clone())]),
    }
}

struct Flattener<'a> {
    orig: &'a Program,
    vars: Vec<Variable>,
    /// The leaf variables of every variable whose type contains a record.
    var_leaves: HashMap<VarId, Vec<VarId>>,
    functions: Vec<Function>,
    /// The leaf functions of every function whose signature contains a record.
    func_leaves: HashMap<FuncId, Vec<FuncId>>,
}

/// `None`: the construct is not rewritten (the program stays as it is).
type R<T> = Option<T>;

impl<'a> Flattener<'a> {
    fn new(orig: &'a Program) -> R<Flattener<'a>> {
        let mut vars = orig.vars.clone();
        let mut var_leaves = HashMap::new();
        for (i, v) in orig.vars.iter().enumerate() {
            if !has_record(&v.ty) {
                continue;
            }
            let id = VarId(i as u32);
            let mut ids = Vec::new();
            for (k, (suffix, ty)) in leaves(&v.ty)?.into_iter().enumerate() {
                let leaf = Variable {
                    name: format!("{}{suffix}", v.name),
                    ty,
                    kind: v.kind.clone(),
                    span: v.span,
                };
                if k == 0 {
                    vars[i] = leaf;
                    ids.push(id);
                } else {
                    ids.push(VarId(vars.len() as u32));
                    vars.push(leaf);
                }
            }
            var_leaves.insert(id, ids);
        }
        Some(Flattener {
            orig,
            vars,
            var_leaves,
            functions: orig.functions.clone(),
            func_leaves: HashMap::new(),
        })
    }

    fn run(mut self) -> R<Program> {
        let orig = self.orig;
        // Function signatures first (bodies may apply other functions).
        let mut pending = Vec::new();
        for (i, f) in orig.functions.iter().enumerate() {
            if !(has_record(&f.result) || f.params.iter().any(has_record)) {
                continue;
            }
            if !f.type_params.is_empty() || f.builtin.is_some() || f.smt_defined.is_some() {
                return None;
            }
            let params: Vec<Vec<(String, Type)>> =
                f.params.iter().map(leaves).collect::<Option<_>>()?;
            let flat_params: Vec<Type> = params.iter().flatten().map(|(_, t)| t.clone()).collect();
            let names: Vec<Option<String>> = f
                .param_names
                .iter()
                .zip(&params)
                .flat_map(|(n, ls)| {
                    ls.iter()
                        .map(move |(s, _)| n.as_ref().map(|n| format!("{n}{s}")))
                })
                .collect();
            let results = leaves(&f.result)?;
            if f.const_array && (params.len() != 1 || params[0].len() != results.len()) {
                return None;
            }
            let mut ids = Vec::new();
            for (k, (suffix, ty)) in results.iter().enumerate() {
                let leaf = Function {
                    name: format!("{}{suffix}", f.name),
                    result: ty.clone(),
                    params: if f.const_array {
                        vec![flat_params[k].clone()]
                    } else {
                        flat_params.clone()
                    },
                    param_names: if f.const_array {
                        vec![names[k].clone()]
                    } else {
                        names.clone()
                    },
                    body: None,
                    ..f.clone()
                };
                if k == 0 {
                    self.functions[i] = leaf;
                    ids.push(FuncId(i as u32));
                } else {
                    ids.push(FuncId(self.functions.len() as u32));
                    self.functions.push(leaf);
                }
            }
            self.func_leaves.insert(FuncId(i as u32), ids.clone());
            pending.push((i, ids));
        }
        // Bodies: of the rewritten functions leaf-wise, of the others as they are.
        for (i, f) in orig.functions.iter().enumerate() {
            let Some((params, body)) = &f.body else {
                continue;
            };
            let flat_params = self.vars_flat(params);
            let bodies = self.flat(body)?;
            match pending.iter().find(|(j, _)| *j == i) {
                Some((_, ids)) => {
                    if bodies.len() != ids.len() {
                        return None;
                    }
                    for (id, b) in ids.iter().zip(bodies) {
                        self.functions[id.0 as usize].body = Some((flat_params.clone(), b));
                    }
                }
                None => {
                    let [b] = <[Expr; 1]>::try_from(bodies).ok()?;
                    self.functions[i].body = Some((flat_params, b));
                }
            }
        }
        let mut procedures = Vec::new();
        for p in &orig.procedures {
            let mut q = p.clone();
            q.params = self.vars_flat(&p.params);
            q.returns = self.vars_flat(&p.returns);
            q.locals = self.vars_flat(&p.locals);
            q.modifies = self.vars_flat(&p.modifies);
            for c in q.requires.iter_mut().chain(q.ensures.iter_mut()) {
                c.expr = self.flat1(&c.expr)?;
            }
            if let Some(cfg) = &mut q.body {
                for e in cfg.graph.edge_weights_mut() {
                    e.stmt = self.stmt(&e.stmt)?;
                }
            }
            procedures.push(q);
        }
        let axioms = orig
            .axioms
            .iter()
            .map(|a| self.flat1(a))
            .collect::<Option<_>>()?;
        let globals = self.vars_flat(&orig.globals);
        let consts = self.vars_flat(&orig.consts);
        Some(Program {
            vars: self.vars,
            functions: self.functions,
            procedures,
            type_ctors: orig.type_ctors.clone(),
            axioms,
            globals,
            consts,
            errors: orig.errors.clone(),
            entry: orig.entry.clone(),
        })
    }

    fn var_flat(&self, v: VarId) -> Vec<VarId> {
        self.var_leaves.get(&v).cloned().unwrap_or_else(|| vec![v])
    }

    fn vars_flat(&self, vs: &[VarId]) -> Vec<VarId> {
        vs.iter().flat_map(|v| self.var_flat(*v)).collect()
    }

    fn stmt(&self, s: &Stmt) -> R<Stmt> {
        Some(match s {
            Stmt::Assume(e) => Stmt::Assume(self.flat1(e)?),
            Stmt::Assign(pairs) => {
                let mut out = Vec::new();
                for (x, e) in pairs {
                    let xs = self.var_flat(*x);
                    let es = self.flat(e)?;
                    if xs.len() != es.len() {
                        return None;
                    }
                    out.extend(xs.into_iter().zip(es));
                }
                // A leaf the assignment leaves as it is (`r!g := r!g`, every field of a record
                // update but one) is dropped, unless nothing else is left.
                let changed: Vec<(VarId, Expr)> = out
                    .iter()
                    .filter(|(x, e)| *e != Expr::Var(*x))
                    .cloned()
                    .collect();
                Stmt::Assign(if changed.is_empty() { out } else { changed })
            }
            Stmt::Havoc(xs) => Stmt::Havoc(self.vars_flat(xs)),
            Stmt::Call { callee, args, rets } => Stmt::Call {
                callee: *callee,
                args: self.flat_all(args)?,
                rets: self.vars_flat(rets),
            },
            Stmt::Fork { tid, callee, args } => Stmt::Fork {
                tid: self.flat_all(tid)?,
                callee: *callee,
                args: self.flat_all(args)?,
            },
            Stmt::Join { tid, rets } => Stmt::Join {
                tid: self.flat_all(tid)?,
                rets: self.vars_flat(rets),
            },
            Stmt::AtomicBegin | Stmt::AtomicEnd | Stmt::Unsupported(_) => s.clone(),
        })
    }

    fn flat_all(&self, es: &[Expr]) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for e in es {
            out.extend(self.flat(e)?);
        }
        Some(out)
    }

    /// The rewriting of an expression whose type has exactly one leaf.
    fn flat1(&self, e: &Expr) -> R<Expr> {
        let [x] = <[Expr; 1]>::try_from(self.flat(e)?).ok()?;
        Some(x)
    }

    /// One expression per leaf of `e`'s type.
    fn flat(&self, e: &Expr) -> R<Vec<Expr>> {
        let b = |x: Expr| Box::new(x);
        Some(match e {
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Real(_)
            | Expr::BitVec { .. }
            | Expr::Float { .. } => vec![e.clone()],
            Expr::Var(v) => self.var_flat(*v).into_iter().map(Expr::Var).collect(),
            Expr::Old(v) => self.var_flat(*v).into_iter().map(Expr::Old).collect(),
            Expr::Unary(op, a) => vec![Expr::Unary(*op, b(self.flat1(a)?))],
            Expr::Binary(op @ (BinOp::Eq | BinOp::Neq), x, y) => {
                let xs = self.flat(x)?;
                let ys = self.flat(y)?;
                if xs.len() != ys.len() {
                    return None;
                }
                let parts: Vec<Expr> = xs
                    .into_iter()
                    .zip(ys)
                    .map(|(x, y)| Expr::Binary(*op, b(x), b(y)))
                    .collect();
                let join = if *op == BinOp::Eq {
                    BinOp::And
                } else {
                    BinOp::Or
                };
                let mut it = parts.into_iter();
                let first = it.next()?;
                vec![it.fold(first, |acc, p| Expr::Binary(join, b(acc), b(p)))]
            }
            Expr::Binary(op, x, y) => vec![Expr::Binary(*op, b(self.flat1(x)?), b(self.flat1(y)?))],
            Expr::Ite(c, x, y) => {
                let c = self.flat1(c)?;
                let xs = self.flat(x)?;
                let ys = self.flat(y)?;
                if xs.len() != ys.len() {
                    return None;
                }
                xs.into_iter()
                    .zip(ys)
                    .map(|(x, y)| Expr::Ite(b(c.clone()), b(x), b(y)))
                    .collect()
            }
            Expr::Select(m, idx) => {
                let keys = self.flat_all(idx)?;
                self.flat(m)?
                    .into_iter()
                    .map(|m| Expr::Select(b(m), keys.clone()))
                    .collect()
            }
            Expr::Store(m, idx, v) => {
                let keys = self.flat_all(idx)?;
                let ms = self.flat(m)?;
                let vs = self.flat(v)?;
                if ms.len() != vs.len() {
                    return None;
                }
                ms.into_iter()
                    .zip(vs)
                    .map(|(m, v)| Expr::Store(b(m), keys.clone(), b(v)))
                    .collect()
            }
            Expr::Extract { expr, hi, lo } => vec![Expr::Extract {
                expr: b(self.flat1(expr)?),
                hi: *hi,
                lo: *lo,
            }],
            Expr::App {
                func,
                type_args,
                args,
            } => {
                let args = self.flat_all(args)?;
                match self.func_leaves.get(func) {
                    None => {
                        if type_args.iter().any(has_record) {
                            return None;
                        }
                        vec![Expr::App {
                            func: *func,
                            type_args: type_args.clone(),
                            args,
                        }]
                    }
                    Some(ids) => {
                        let const_array = self.orig.func(*func).const_array;
                        if const_array && args.len() != ids.len() {
                            return None;
                        }
                        ids.iter()
                            .enumerate()
                            .map(|(k, id)| Expr::App {
                                func: *id,
                                type_args: type_args.clone(),
                                args: if const_array {
                                    vec![args[k].clone()]
                                } else {
                                    args.clone()
                                },
                            })
                            .collect()
                    }
                }
            }
            Expr::Quant {
                quantifier,
                vars,
                triggers,
                body,
            } => {
                let vars = self.vars_flat(vars);
                let triggers = triggers
                    .iter()
                    .map(|t| self.flat_all(t))
                    .collect::<Option<Vec<_>>>()?;
                let bodies = self.flat(body)?;
                if *quantifier != Quantifier::Lambda && bodies.len() != 1 {
                    return None;
                }
                bodies
                    .into_iter()
                    .map(|body| Expr::Quant {
                        quantifier: *quantifier,
                        vars: vars.clone(),
                        triggers: triggers.clone(),
                        body: b(body),
                    })
                    .collect()
            }
            Expr::Field(r, f) => {
                let Type::Record(fields) = self.orig.type_of(r) else {
                    return None;
                };
                let mut start = 0;
                let mut width = None;
                for (name, ft) in &fields {
                    let n = leaves(ft)?.len();
                    if name == f {
                        width = Some(n);
                        break;
                    }
                    start += n;
                }
                let xs = self.flat(r)?;
                xs.get(start..start + width?)?.to_vec()
            }
            Expr::Record(fields) => {
                let mut out = Vec::new();
                for (_, x) in fields {
                    out.extend(self.flat(x)?);
                }
                out
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str) -> Program {
        let (ast, d) = crate::syntax::parse(src);
        assert!(d.is_empty(), "{d:?}");
        let (p, d) = crate::ir::check(&ast.expect("parses"));
        assert!(!crate::diag::has_errors(&d), "{d:?}");
        p.expect("checks")
    }

    #[test]
    fn leaves_of_nested_types() {
        let pair = Type::Record(vec![("a".into(), Type::Int), ("b".into(), Type::Bool)]);
        let nested = Type::Record(vec![("p".into(), pair.clone()), ("c".into(), Type::Real)]);
        let got: Vec<String> = leaves(&nested)
            .expect("flattens")
            .into_iter()
            .map(|(s, t)| format!("{s}:{t}"))
            .collect();
        assert_eq!(got, ["!p!a:int", "!p!b:bool", "!c:real"]);
        let map = Type::Map {
            type_params: vec![],
            args: vec![pair.clone()],
            result: Box::new(pair),
        };
        let got: Vec<String> = leaves(&map)
            .expect("flattens")
            .into_iter()
            .map(|(s, t)| format!("{s}:{t}"))
            .collect();
        assert_eq!(got, ["!a:[int, bool]int", "!b:[int, bool]bool"]);
        assert!(leaves(&Type::Record(vec![])).is_none());
    }

    #[test]
    fn no_record_type_is_left() {
        let p = check(
            "type P = { base: int, offset: int };
             var m: [P]P; var g: P;
             function f(p: P) returns (P) { { base: p!offset, offset: p!base } }
             procedure main() modifies m, g; {
               var x: P;
               x := f({ base: 1, offset: 2 });
               m[x] := g; g!base := 3;
               assert m[x] == g || g != x;
             }",
        );
        assert!(!uses_records(&p));
        for pr in &p.procedures {
            let cfg = pr.body.as_ref().expect("body");
            for e in cfg.graph.edge_weights() {
                let mut found = false;
                if let Stmt::Assign(xs) = &e.stmt {
                    for (_, x) in xs {
                        x.visit(&mut |y| found |= matches!(y, Expr::Field(..) | Expr::Record(_)));
                    }
                }
                assert!(!found, "{:?}", e.stmt);
            }
        }
        let names: Vec<&str> = p.vars.iter().map(|v| v.name.as_str()).collect();
        assert!(
            names.contains(&"m!base") && names.contains(&"x!offset"),
            "{names:?}"
        );
    }
}
