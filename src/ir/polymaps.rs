//! Polymorphic maps as records of monomorphic maps: Boogie's heap `var H: <a>[Ref, Field a]a`
//! (This is Boogie 2, §4), which the solvers' array theory cannot state directly.
//!
//! A polymorphic map type `<a1, …, an>[A1, …, Am]U` is only ever read and written at the
//! instantiations of its type parameters that the program's selects and stores name (each
//! `H[r, f]` determines them by matching the index types against `A1, …, Am`; Boogie requires every
//! type parameter to occur there). Let `σ1, …, σk` be those instantiations, over the whole program,
//! of every map of that type. The type becomes the record
//! `{σ1: [A1σ1, …]Uσ1, …, σk: [A1σk, …]Uσk, ~others: R}` of one monomorphic map per instantiation
//! and a value `~others` of a fresh uninterpreted type `R` that stands for the map's values at all
//! other instantiations. `m[i]` at `σj` becomes `m!σj[i]`; `m[i := v]` at `σj` the record whose
//! field `σj` is `m!σj[i := v]` and whose other fields are `m`'s. Equality, assignment, `havoc`,
//! parameters and quantified variables are then record operations, which [`super::records`]
//! eliminates right after this pass (`H` becomes `H!int`, `H!bool`, …, `H!~others`).
//!
//! Invariant: the rewriting is a bijection between the values of a polymorphic map and the
//! records (the map at the named instantiations, and an encoding of its values at all others —
//! `R` is an uninterpreted sort, so it can encode them injectively): no expression of the program
//! reads the map at another instantiation, stores change exactly one field, and two maps are equal
//! iff every field is, `~others` included (without it `h1 == h2` would follow from equality at the
//! used instantiations alone, which Boogie does not conclude). Verdicts carry over.
//!
//! Not rewritten (the program stays as it is, and the engine answers UNKNOWN "unsupported:
//! polymorphic maps"): an instantiation that mentions a type parameter (a select inside a
//! polymorphic function, procedure or quantifier), a polymorphic map type nested inside another
//! type, and polymorphic maps in the signature of a polymorphic, builtin or `{:smtdefined}`
//! function.

use super::program::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The program with every polymorphic map a record of monomorphic maps, or the program unchanged
/// (see the module comment).
pub fn monomorphize(prog: Program) -> Program {
    if !prog.vars.iter().any(|v| is_polymap(&v.ty)) {
        return prog;
    }
    rewrite(&prog).unwrap_or(prog)
}

/// `None`: the construct is not rewritten (the program stays as it is).
type R<T> = Option<T>;

fn is_polymap(t: &Type) -> bool {
    matches!(t, Type::Map { type_params, .. } if !type_params.is_empty())
}

/// Does a polymorphic map occur strictly inside `t`?
fn nested_polymap(t: &Type) -> bool {
    match t {
        Type::Map { args, result, .. } => args
            .iter()
            .chain(std::iter::once(&**result))
            .any(|a| is_polymap(a) || nested_polymap(a)),
        Type::Ctor(_, args) => args.iter().any(|a| is_polymap(a) || nested_polymap(a)),
        Type::Record(fs) => fs.iter().any(|(_, a)| is_polymap(a) || nested_polymap(a)),
        _ => false,
    }
}

/// The type with its own type parameters renamed by position, so that `<a>[Field a]a` and
/// `<b>[Field b]b` are one key.
fn canonical(t: &Type) -> Type {
    let Type::Map {
        type_params,
        args,
        result,
    } = t
    else {
        return t.clone();
    };
    let binding: HashMap<String, Type> = type_params
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), Type::Param(format!("#{i}"))))
        .collect();
    Type::Map {
        type_params: (0..type_params.len()).map(|i| format!("#{i}")).collect(),
        args: args
            .iter()
            .map(|a| super::typeck::subst_params(a, &binding))
            .collect(),
        result: Box::new(super::typeck::subst_params(result, &binding)),
    }
}

fn mentions_param(t: &Type) -> bool {
    match t {
        Type::Param(_) => true,
        Type::Map { args, result, .. } => args.iter().any(mentions_param) || mentions_param(result),
        Type::Ctor(_, args) => args.iter().any(mentions_param),
        Type::Record(fs) => fs.iter().any(|(_, a)| mentions_param(a)),
        _ => false,
    }
}

/// A readable field name for an instantiation (`int`, `bool`, `Ref`, `bv8`, `map_int_int`, …).
fn type_name(t: &Type) -> String {
    match t {
        Type::Bool => "bool".into(),
        Type::Int => "int".into(),
        Type::Real => "real".into(),
        Type::BitVec(w) => format!("bv{w}"),
        Type::Builtin(s) => s
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect(),
        Type::Map { args, result, .. } => {
            let mut s = "map".to_string();
            for a in args.iter().chain(std::iter::once(&**result)) {
                s.push('_');
                s.push_str(&type_name(a));
            }
            s
        }
        Type::Ctor(n, args) => {
            let mut s = n.clone();
            for a in args {
                s.push('_');
                s.push_str(&type_name(a));
            }
            s
        }
        Type::Param(p) => p.clone(),
        Type::Record(fs) => {
            let mut s = "rec".to_string();
            for (n, _) in fs {
                s.push('_');
                s.push_str(n);
            }
            s
        }
    }
}

/// The field holding a polymorphic map's values at all instantiations the program does not name.
const OTHERS: &str = "~others";

/// One polymorphic map type: its instantiations (in order) and their field names.
struct Family {
    fields: BTreeMap<Vec<Type>, String>,
    /// The uninterpreted type of the `~others` field.
    others: Type,
}

struct Mono<'a> {
    prog: &'a Program,
    families: BTreeMap<Type, Family>,
}

fn rewrite(prog: &Program) -> R<Program> {
    // Where polymorphic maps may stand.
    for v in &prog.vars {
        if nested_polymap(&v.ty) {
            return None;
        }
    }
    for f in &prog.functions {
        let poly = is_polymap(&f.result) || f.params.iter().any(is_polymap);
        if nested_polymap(&f.result) || f.params.iter().any(nested_polymap) {
            return None;
        }
        if poly && (!f.type_params.is_empty() || f.builtin.is_some() || f.smt_defined.is_some()) {
            return None;
        }
    }
    // The instantiations.
    let mut inst: BTreeMap<Type, BTreeSet<Vec<Type>>> = BTreeMap::new();
    for v in &prog.vars {
        if is_polymap(&v.ty) {
            inst.entry(canonical(&v.ty)).or_default();
        }
    }
    let mut ok = true;
    let mut collect = |e: &Expr| {
        let m = match e {
            Expr::Select(m, idx) | Expr::Store(m, idx, _) => Some((m, idx)),
            _ => None,
        };
        if let Some((m, idx)) = m {
            let t = prog.type_of(m);
            if is_polymap(&t) {
                match instantiation(prog, &t, idx) {
                    Some(s) => {
                        inst.entry(canonical(&t)).or_default().insert(s);
                    }
                    None => ok = false,
                }
            }
        }
    };
    prog.visit_exprs(&mut collect);
    if !ok {
        return None;
    }
    let mut families = BTreeMap::new();
    let mut type_ctors = prog.type_ctors.clone();
    for (k, (key, sigmas)) in inst.into_iter().enumerate() {
        let mut fields = BTreeMap::new();
        let mut used = BTreeSet::from([OTHERS.to_string()]);
        for s in sigmas {
            let base = s.iter().map(type_name).collect::<Vec<_>>().join("_");
            let mut name = base.clone();
            let mut n = 1;
            while used.contains(&name) {
                n += 1;
                name = format!("{base}~{n}");
            }
            used.insert(name.clone());
            fields.insert(s, name);
        }
        let ctor = format!("polymap~{k}");
        type_ctors.push(TypeCtor {
            name: ctor.clone(),
            arity: 0,
            finite: false,
        });
        families.insert(
            key,
            Family {
                fields,
                others: Type::Ctor(ctor, Vec::new()),
            },
        );
    }
    let mono = Mono { prog, families };
    let mut out = prog.clone();
    for v in &mut out.vars {
        v.ty = mono.ty(&v.ty);
    }
    for f in &mut out.functions {
        f.params = f.params.iter().map(|t| mono.ty(t)).collect();
        f.result = mono.ty(&f.result);
        if let Some((_, body)) = &mut f.body {
            *body = mono.expr(body)?;
        }
    }
    for p in &mut out.procedures {
        for c in p.requires.iter_mut().chain(p.ensures.iter_mut()) {
            c.expr = mono.expr(&c.expr)?;
        }
        if let Some(cfg) = &mut p.body {
            for e in cfg.graph.edge_weights_mut() {
                e.stmt = mono.stmt(&e.stmt)?;
            }
        }
    }
    out.axioms = prog.axioms.iter().map(|a| mono.expr(a)).collect::<R<_>>()?;
    out.type_ctors = type_ctors;
    Some(out)
}

/// The instantiation of the polymorphic map type `t` (its type parameters, in order) at which
/// indices `idx` read or write it; `None` if one is left open or mentions a type parameter.
fn instantiation(prog: &Program, t: &Type, idx: &[Expr]) -> R<Vec<Type>> {
    let Type::Map {
        type_params, args, ..
    } = t
    else {
        return None;
    };
    let mut binding = HashMap::new();
    for (formal, actual) in args.iter().zip(idx) {
        super::types::bind(formal, &prog.type_of(actual), type_params, &mut binding);
    }
    type_params
        .iter()
        .map(|p| binding.get(p).filter(|t| !mentions_param(t)).cloned())
        .collect()
}

impl Mono<'_> {
    fn family(&self, t: &Type) -> Option<&Family> {
        if is_polymap(t) {
            self.families.get(&canonical(t))
        } else {
            None
        }
    }

    /// The record type a polymorphic map type becomes; other types unchanged.
    fn ty(&self, t: &Type) -> Type {
        let (
            Some(fam),
            Type::Map {
                type_params,
                args,
                result,
            },
        ) = (self.family(t), t)
        else {
            return t.clone();
        };
        let mut fields = Vec::new();
        for (sigma, name) in &fam.fields {
            let binding: HashMap<String, Type> = type_params
                .iter()
                .cloned()
                .zip(sigma.iter().cloned())
                .collect();
            fields.push((
                name.clone(),
                Type::Map {
                    type_params: Vec::new(),
                    args: args
                        .iter()
                        .map(|a| super::typeck::subst_params(a, &binding))
                        .collect(),
                    result: Box::new(super::typeck::subst_params(result, &binding)),
                },
            ));
        }
        fields.push((OTHERS.to_string(), fam.others.clone()));
        Type::Record(fields)
    }

    /// The field of `m` (a polymorphic map of type `t`) that indices `idx` read or write.
    fn field(&self, t: &Type, idx: &[Expr]) -> R<String> {
        let sigma = instantiation(self.prog, t, idx)?;
        self.family(t)?.fields.get(&sigma).cloned()
    }

    fn stmt(&self, s: &Stmt) -> R<Stmt> {
        s.try_map_exprs(&mut |e| self.expr(e))
    }

    /// `e` with every select from and store into a polymorphic map made a field access (types are
    /// read from the original program).
    fn expr(&self, e: &Expr) -> R<Expr> {
        let b = |x: Expr| Box::new(x);
        let all = |es: &[Expr]| es.iter().map(|x| self.expr(x)).collect::<R<Vec<_>>>();
        Some(match e {
            Expr::Select(m, idx) => {
                let t = self.prog.type_of(m);
                if is_polymap(&t) {
                    let f = self.field(&t, idx)?;
                    Expr::Select(b(Expr::Field(b(self.expr(m)?), f)), all(idx)?)
                } else {
                    e.try_map_children(&mut |x| self.expr(x))?
                }
            }
            Expr::Store(m, idx, v) => {
                let t = self.prog.type_of(m);
                if is_polymap(&t) {
                    let f = self.field(&t, idx)?;
                    let fam = self.family(&t)?;
                    let m2 = self.expr(m)?;
                    let (idx2, v2) = (all(idx)?, self.expr(v)?);
                    let mut fields = Vec::new();
                    for name in fam
                        .fields
                        .values()
                        .chain(std::iter::once(&OTHERS.to_string()))
                    {
                        let old = Expr::Field(b(m2.clone()), name.clone());
                        fields.push((
                            name.clone(),
                            if *name == f {
                                Expr::Store(b(old), idx2.clone(), b(v2.clone()))
                            } else {
                                old
                            },
                        ));
                    }
                    Expr::Record(fields)
                } else {
                    e.try_map_children(&mut |x| self.expr(x))?
                }
            }
            _ => e.try_map_children(&mut |x| self.expr(x))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::program::Type;
    use crate::ir::test_program as program;

    const HEAP: &str = "
        type Ref; type Field a;
        var Heap: <a>[Ref, Field a]a;
        const f: Field int; const g: Field bool; const h: Field Ref;
        procedure main(r: Ref) modifies Heap; {
            Heap[r, f] := 1; Heap[r, g] := Heap[r, f] == 1; assert Heap[r, h] == r || true;
        }";

    fn names(src: &str) -> Vec<String> {
        let p = program(src);
        assert!(
            p.vars.iter().all(|v| !super::is_polymap(&v.ty)),
            "a polymorphic map is left"
        );
        p.globals.iter().map(|g| p.var(*g).name.clone()).collect()
    }

    #[test]
    fn a_heap_becomes_one_map_per_field_type_and_the_others() {
        assert_eq!(
            names(HEAP),
            ["Heap!bool", "Heap!int", "Heap!Ref", "Heap!~others"]
        );
        let p = program(HEAP);
        let int_map = p
            .globals
            .iter()
            .map(|g| p.var(*g))
            .find(|v| v.name == "Heap!int");
        assert_eq!(
            int_map.map(|v| v.ty.clone()),
            Some(Type::Map {
                type_params: Vec::new(),
                args: vec![
                    Type::Ctor("Ref".into(), Vec::new()),
                    Type::Ctor("Field".into(), vec![Type::Int])
                ],
                result: Box::new(Type::Int),
            })
        );
    }

    #[test]
    fn a_heap_never_read_keeps_only_the_others() {
        let src = "type Ref; type Field a; var H1, H2: <a>[Ref, Field a]a;
            procedure main() { assert H1 == H2; }";
        assert_eq!(names(src), ["H1!~others", "H2!~others"]);
    }

    #[test]
    fn a_read_at_a_type_parameter_is_not_rewritten() {
        let src = "type Ref; type Field a; var H: <a>[Ref, Field a]a;
            procedure main(r: Ref) { assert (forall<b> f: Field b :: H[r, f] == H[r, f]); }";
        let p = program(src);
        assert!(p.vars.iter().any(|v| super::is_polymap(&v.ty)));
    }
}
