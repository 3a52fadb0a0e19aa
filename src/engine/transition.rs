//! Transition formulas: the semantics of a letter as a relation between a pre-state and a post-state.
//!
//! A [`TransFormula`] is a formula over the *pre* variables of the program variables it reads (named by
//! their canonical names, the same names predicates use), the *post* variables of those it writes
//! (canonical name + `@post`), and auxiliary variables (existentially quantified, globally fresh).
//! Invariant: a program variable not in `writes` keeps its value; one in `writes` whose post variable does
//! not occur is havocked. Sequential and parallel composition ([`seq`], [`par`]) implement block encoding.
//!
//! [`Translator`] maps IR expressions to terms. `int`, `bool`, `real`, uninterpreted types (Boogie
//! `type T;`, as declared SMT sorts) and (monomorphic) maps over them are interpreted; a map `[a, b]c`
//! is the curried SMT array `(Array a (Array b c))`, so `m[i, j]` is `select(select(m, i), j)` and
//! `m[i, j := v]` is `store(m, i, store(select(m, i), j, v))`. Other types and quantifiers yield
//! [`Unsupported`], which the engine reports as UNKNOWN.

use crate::ir::{self, Expr, Program, Type, VarId};
use crate::smt::{FuncDecl, Op, Sort, Term, Var};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A program variable of the inlined program: a variable of the IR in a procedure *instance* (each
/// inlined call gets its own instance of the callee's parameters and locals; globals are instance 0), or
/// the snapshot `old(g)` of a global at the entry of an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PVar {
    Var {
        id: VarId,
        inst: u32,
    },
    Old {
        id: VarId,
        inst: u32,
    },
    /// Component `idx` of the thread id of thread instance `thread` (assigned by the `fork` that
    /// starts it, compared by `join`); its sort is registered with [`Vocabulary::declare_tid`].
    Tid {
        thread: u32,
        idx: u32,
    },
}

/// A construct the engine does not interpret yet; the run answers UNKNOWN "unsupported: …".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

#[derive(Clone, Debug)]
pub struct TransFormula {
    pub formula: Term,
    pub reads: BTreeSet<PVar>,
    pub writes: BTreeSet<PVar>,
    pub aux: BTreeSet<Var>,
}

/// Names and sorts of program variables, and fresh auxiliary variables.
pub struct Vocabulary<'p> {
    pub program: &'p Program,
    base_names: Vec<String>,
    fresh: Cell<u64>,
    /// smt variable name → (program variable, is post variable)
    index: std::cell::RefCell<HashMap<String, (PVar, bool)>>,
    /// Functions whose definition is recursive (directly or through other definitions): their
    /// definitions are ∀-axioms that expansion cannot reproduce (see [`recursive_definitions`]).
    pub recursive: BTreeSet<ir::FuncId>,
    /// Sorts of the thread-id variables ([`PVar::Tid`]).
    tid_sorts: std::cell::RefCell<HashMap<(u32, u32), Sort>>,
}

impl<'p> Vocabulary<'p> {
    pub fn new(program: &'p Program) -> Vocabulary<'p> {
        // Names are counted as the SMT printer will write them (it cannot write `|` or `\` and uses
        // `?` instead), so that distinct variables never share a solver symbol.
        let printed = |n: &str| n.replace(['|', '\\'], "?");
        let mut count: HashMap<String, usize> = HashMap::new();
        for v in &program.vars {
            *count.entry(printed(&v.name)).or_default() += 1;
        }
        let base_names = program
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let global = matches!(v.kind, ir::VarKind::Global | ir::VarKind::Const { .. });
                let clash = printed(&v.name) != v.name && count[&printed(&v.name)] > 1;
                if count[&printed(&v.name)] > 1 && (!global || clash) {
                    format!("{}!{}", v.name, i)
                } else {
                    v.name.clone()
                }
            })
            .collect();
        Vocabulary {
            program,
            base_names,
            fresh: Cell::new(0),
            index: Default::default(),
            recursive: recursive_functions(program),
            tid_sorts: Default::default(),
        }
    }

    /// The source name of a program variable (for printing).
    pub fn display_name(&self, x: PVar) -> String {
        match x {
            PVar::Var { id, .. } => self.program.var(id).name.clone(),
            PVar::Old { id, .. } => format!("old({})", self.program.var(id).name),
            PVar::Tid { thread, idx } => format!("tid#{thread}.{idx}"),
        }
    }

    /// Registers the sort of a thread-id variable.
    pub fn declare_tid(&self, thread: u32, idx: u32, sort: Sort) {
        self.tid_sorts.borrow_mut().insert((thread, idx), sort);
    }

    /// The canonical name: unique per program variable.
    pub fn name(&self, x: PVar) -> String {
        let (id, inst, old) = match x {
            PVar::Var { id, inst } => (id, inst, false),
            PVar::Old { id, inst } => (id, inst, true),
            PVar::Tid { thread, idx } => return format!("tid#{thread}.{idx}"),
        };
        let base = &self.base_names[id.0 as usize];
        let mut s = if old {
            format!("old({base})")
        } else {
            base.clone()
        };
        if inst > 0 {
            s.push_str(&format!("!{inst}"));
        }
        s
    }

    pub fn sort(&self, x: PVar) -> Result<Sort, Unsupported> {
        match x {
            PVar::Var { id, .. } | PVar::Old { id, .. } => sort_of(&self.program.var(id).ty),
            PVar::Tid { thread, idx } => self
                .tid_sorts
                .borrow()
                .get(&(thread, idx))
                .cloned()
                .ok_or_else(|| {
                    Unsupported(format!("thread id of an unknown thread ({thread}.{idx})"))
                }),
        }
    }

    /// The pre-state (canonical) variable.
    pub fn pre(&self, x: PVar) -> Result<Var, Unsupported> {
        let v = Var {
            name: self.name(x),
            sort: self.sort(x)?,
        };
        self.index.borrow_mut().insert(v.name.clone(), (x, false));
        Ok(v)
    }

    /// The post-state variable.
    pub fn post(&self, x: PVar) -> Result<Var, Unsupported> {
        let v = Var {
            name: format!("{}@post", self.name(x)),
            sort: self.sort(x)?,
        };
        self.index.borrow_mut().insert(v.name.clone(), (x, true));
        Ok(v)
    }

    /// Which program variable (and whether post) an smt variable stands for.
    pub fn lookup(&self, v: &Var) -> Option<(PVar, bool)> {
        self.index.borrow().get(&v.name).copied()
    }

    /// A globally fresh auxiliary variable.
    pub fn fresh(&self, hint: &str, sort: Sort) -> Var {
        let n = self.fresh.get();
        self.fresh.set(n + 1);
        Var {
            name: format!("{hint}@aux{n}"),
            sort,
        }
    }

    /// Is this a constant (never written, never renamed)?
    pub fn is_const(&self, x: PVar) -> bool {
        match x {
            PVar::Var { id, .. } => matches!(self.program.var(id).kind, ir::VarKind::Const { .. }),
            PVar::Old { .. } | PVar::Tid { .. } => false,
        }
    }
}

pub fn sort_of(t: &Type) -> Result<Sort, Unsupported> {
    match t {
        Type::Int => Ok(Sort::Int),
        Type::Bool => Ok(Sort::Bool),
        Type::Real => Ok(Sort::Real),
        Type::BitVec(0) => Err(Unsupported("bit-vectors of width 0".into())),
        Type::BitVec(w) => Ok(Sort::BitVec(*w)),
        Type::Builtin(s) if is_float_sort(s) => Ok(Sort::Builtin(s.clone())),
        Type::Builtin(s) => Err(Unsupported(format!("builtin type {s}"))),
        Type::Map {
            type_params,
            args,
            result,
        } => {
            if !type_params.is_empty() {
                return Err(Unsupported("polymorphic maps".into()));
            }
            // `[a, b]c` is the curried `(Array a (Array b c))`.
            let mut sort = sort_of(result)?;
            for a in args.iter().rev() {
                sort = Sort::array(sort_of(a)?, sort);
            }
            if args.is_empty() {
                return Err(Unsupported("maps without index".into()));
            }
            Ok(sort)
        }
        Type::Ctor(n, args) => Ok(Sort::Uninterpreted(
            uninterpreted_sort_name(n),
            args.iter().map(sort_of).collect::<Result<_, _>>()?,
        )),
        Type::Param(_) => Err(Unsupported("polymorphism".into())),
        Type::Record(_) => Err(Unsupported("records".into())),
    }
}

/// The solver name of a Boogie type constructor. SMT-LIB symbols are the same quoted or not, and
/// solvers reserve many sort names beyond the standard theories (`Set`, `Seq`, `Float32`,
/// `RoundingMode`, …), so every type constructor gets the suffix `!type` (no solver sort contains
/// `!`); output strips it again.
fn uninterpreted_sort_name(n: &str) -> String {
    format!("{n}!type")
}

/// Maps a leaf of an IR expression (a variable or `old(g)`) to a term.
pub trait Env {
    fn var(&self, id: VarId) -> Result<Term, Unsupported>;
    fn old(&self, id: VarId) -> Result<Term, Unsupported>;
}

/// Translates IR expressions to terms.
pub struct Translator<'v, 'p> {
    pub voc: &'v Vocabulary<'p>,
}

impl Translator<'_, '_> {
    pub fn expr(&self, e: &Expr, env: &dyn Env) -> Result<Term, Unsupported> {
        self.expr_depth(e, env, 0, false)
    }

    /// `e` with every application of a recursively defined function left uninterpreted (for the
    /// ∀-axioms of [`recursive_definitions`]); [`Translator::expr`] rejects such applications.
    fn expr_recursive_uf(&self, e: &Expr, env: &dyn Env) -> Result<Term, Unsupported> {
        self.expr_depth(e, env, 0, true)
    }

    fn expr_depth(
        &self,
        e: &Expr,
        env: &dyn Env,
        depth: usize,
        recursive_uf: bool,
    ) -> Result<Term, Unsupported> {
        if depth > 64 {
            return Err(Unsupported("deeply nested function definitions".into()));
        }
        let tr = |e: &Expr| self.expr_depth(e, env, depth, recursive_uf);
        Ok(match e {
            Expr::Bool(b) => Term::bool(*b),
            Expr::Int(i) => Term::int(i.clone()),
            Expr::Real(r) => Term::real(r.clone()),
            Expr::BitVec { value, width } => Term::bv(value.clone(), *width),
            Expr::Float { .. } => return Err(Unsupported("floats".into())),
            Expr::Var(v) => env.var(*v)?,
            Expr::Old(v) => env.old(*v)?,
            Expr::Unary(op, a) => {
                let a = tr(a)?;
                match op {
                    ir::UnOp::Not => Term::not(&a),
                    ir::UnOp::Neg => Term::neg(&a),
                    ir::UnOp::ToInt => Term::app(Op::ToInt, vec![a]),
                    ir::UnOp::ToReal => Term::app(Op::ToReal, vec![a]),
                }
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (tr(a)?, tr(b)?);
                use ir::BinOp::*;
                match op {
                    Iff | Eq => Term::eq(&a, &b),
                    Implies => Term::implies(&a, &b),
                    And => Term::and(vec![a, b]),
                    Or => Term::or(vec![a, b]),
                    Neq => Term::not(&Term::eq(&a, &b)),
                    Lt => Term::lt(&a, &b),
                    Le => Term::le(&a, &b),
                    Gt => Term::gt(&a, &b),
                    Ge => Term::ge(&a, &b),
                    Add => Term::add(vec![a, b]),
                    Sub => Term::sub(&a, &b),
                    Mul => Term::mul(vec![a, b]),
                    IntDiv => Term::int_div(&a, &b),
                    Mod => Term::modulo(&a, &b),
                    RealDiv => Term::real_div(&a, &b),
                    Concat => bv_checked(Term::app(Op::Concat, vec![a, b]), None)?,
                    Subtype => return Err(Unsupported("the partial order <:".into())),
                }
            }
            Expr::Ite(c, a, b) => Term::ite(&tr(c)?, &tr(a)?, &tr(b)?),
            Expr::Select(m, idx) => {
                let m = tr(m)?;
                let idx: Vec<Term> = idx.iter().map(tr).collect::<Result<_, _>>()?;
                select_curried(&m, &idx)?
            }
            Expr::Store(m, idx, v) => {
                let m = tr(m)?;
                let idx: Vec<Term> = idx.iter().map(tr).collect::<Result<_, _>>()?;
                store_curried(&m, &idx, &tr(v)?)?
            }
            // Boogie's `e[hi:lo]` is bits lo … hi-1: SMT's `(_ extract hi-1 lo)`.
            Expr::Extract { expr, hi, lo } if hi > lo => {
                bv_checked(Term::app(Op::Extract(hi - 1, *lo), vec![tr(expr)?]), None)?
            }
            Expr::Extract { .. } => return Err(Unsupported("an empty bit-vector extract".into())),
            Expr::App { func, args, .. } => {
                let f = self.voc.program.func(*func);
                let args: Vec<Term> = args.iter().map(tr).collect::<Result<_, _>>()?;
                if self.voc.recursive.contains(func) {
                    if !recursive_uf {
                        return Err(Unsupported(format!(
                            "recursive function definition ({})",
                            f.name
                        )));
                    }
                    Term::uf(&uf_decl(f, *func)?, args)
                } else if let Some((params, body)) = &f.body {
                    // Expand the definition: bind the parameters to the arguments.
                    let bound: HashMap<VarId, Term> = params.iter().copied().zip(args).collect();
                    let inner = BoundEnv {
                        bound: &bound,
                        outer: env,
                    };
                    self.expr_depth(body, &inner, depth + 1, recursive_uf)?
                } else if f.const_array
                    || f.builtin
                        .as_deref()
                        .is_some_and(|b| b.starts_with("const-Array-"))
                {
                    // `{:const_array}` (or Ultimate's builtin `const-Array-…`): the constant map that
                    // is the argument everywhere.
                    let sort = sort_of(&f.result)?;
                    match (args.as_slice(), &sort) {
                        ([v], Sort::Array(..)) => const_array_curried(&sort, v)?,
                        _ => {
                            return Err(Unsupported(format!(
                                "{{:const_array}} function {}",
                                f.name
                            )));
                        }
                    }
                } else if let Some(name) = &f.builtin {
                    let result = sort_of(&f.result)?;
                    builtin(name, &f.indices, args, &result)?
                } else if let Some(text) = &f.smt_defined {
                    smt_defined(f, text, args)?
                } else {
                    Term::uf(&uf_decl(f, *func)?, args)
                }
            }
            // Bound variables become fresh solver variables (globally unique names, so no capture
            // when terms are combined). Triggers are not passed on: the solver picks its own.
            Expr::Quant {
                quantifier,
                vars,
                body,
                ..
            } => {
                if *quantifier == ir::Quantifier::Lambda {
                    return Err(Unsupported("lambda expressions".into()));
                }
                let mut bound: HashMap<VarId, Term> = HashMap::new();
                let mut svars = Vec::new();
                for v in vars {
                    let var = self.voc.program.var(*v);
                    let fresh = self.voc.fresh(&var.name, sort_of(&var.ty)?);
                    bound.insert(*v, Term::var(&fresh));
                    svars.push(fresh);
                }
                let inner = BoundEnv {
                    bound: &bound,
                    outer: env,
                };
                let body = self.expr_depth(body, &inner, depth, recursive_uf)?;
                match quantifier {
                    ir::Quantifier::Forall => Term::forall(svars, body),
                    ir::Quantifier::Exists => Term::exists(svars, body),
                    ir::Quantifier::Lambda => {
                        return Err(Unsupported("lambda expressions".into()));
                    }
                }
            }
            Expr::Field(..) | Expr::Record(..) => return Err(Unsupported("records".into())),
        })
    }
}

/// The solver name of an uninterpreted (or recursively defined) function.
pub fn uf_symbol(f: &ir::Function, func: ir::FuncId) -> String {
    // `|` and `\` print as `?`: keep such names apart from genuine `?` names.
    if f.name.contains(['|', '\\']) {
        format!("{}!f{}", f.name, func.0)
    } else {
        f.name.clone()
    }
}

/// The solver symbol of an uninterpreted (or recursively defined) function.
fn uf_decl(f: &ir::Function, func: ir::FuncId) -> Result<FuncDecl, Unsupported> {
    if !f.type_params.is_empty() {
        return Err(Unsupported("polymorphic functions".into()));
    }
    Ok(FuncDecl {
        name: uf_symbol(f, func),
        args: f.params.iter().map(sort_of).collect::<Result<_, _>>()?,
        result: sort_of(&f.result)?,
    })
}

/// The functions whose definition reaches an application of themselves through definitions.
pub fn recursive_functions(program: &Program) -> BTreeSet<ir::FuncId> {
    let n = program.functions.len();
    let calls: Vec<BTreeSet<ir::FuncId>> = program
        .functions
        .iter()
        .map(|f| {
            let mut out = BTreeSet::new();
            if let Some((_, body)) = &f.body {
                body.applied_functions(&mut out);
            }
            out
        })
        .collect();
    (0..n)
        .map(|i| ir::FuncId(i as u32))
        .filter(|&f| {
            // Does `f` reach itself? (Depth-first over the definitions' applications.)
            let mut seen = BTreeSet::new();
            let mut stack: Vec<ir::FuncId> = calls[f.0 as usize].iter().copied().collect();
            while let Some(g) = stack.pop() {
                if g == f {
                    return true;
                }
                if seen.insert(g) {
                    stack.extend(calls.get(g.0 as usize).into_iter().flatten().copied());
                }
            }
            false
        })
        .collect()
}

/// The definitions of the recursively defined functions as ∀-axioms
/// `∀ params. f(params) = body` (applications of recursive functions uninterpreted, other definitions
/// expanded). Expansion cannot reproduce them, and an inconsistent one (`f(x) = f(x) + 1`) makes every
/// execution infeasible, as an inconsistent `axiom` does: the engine checks them once up front and
/// includes them when it re-validates a counterexample.
pub fn recursive_definitions(voc: &Vocabulary) -> Result<Vec<Term>, Unsupported> {
    let tr = Translator { voc };
    let mut out = Vec::new();
    for &func in &voc.recursive {
        let f = voc.program.func(func);
        let Some((params, body)) = &f.body else {
            continue;
        };
        let decl = uf_decl(f, func)?;
        let vars: Vec<Var> = params
            .iter()
            .zip(&decl.args)
            .enumerate()
            .map(|(i, (_, sort))| Var::new(format!("{}@def{}", f.name, i), sort.clone()))
            .collect();
        let terms: Vec<Term> = vars.iter().map(Term::var).collect();
        let bound: HashMap<VarId, Term> =
            params.iter().copied().zip(terms.iter().cloned()).collect();
        // Constants (the only free variables a definition may mention) keep their one symbol.
        let consts = PreEnv::new(voc, 0);
        let env = BoundEnv {
            bound: &bound,
            outer: &consts,
        };
        let rhs = tr.expr_recursive_uf(body, &env)?;
        let lhs = Term::uf(&decl, terms);
        let eq = Term::eq(&lhs, &rhs);
        out.push(if vars.is_empty() {
            eq
        } else {
            Term::forall(vars, eq)
        });
    }
    Ok(out)
}

/// `m[i1, …, in]` over the curried encoding: `select(…select(m, i1)…, in)`.
pub fn select_curried(m: &Term, idx: &[Term]) -> Result<Term, Unsupported> {
    if idx.is_empty() {
        return Err(Unsupported("maps without index".into()));
    }
    let mut t = m.clone();
    for i in idx {
        if !matches!(t.sort_ref(), Sort::Array(..)) {
            return Err(Unsupported(
                "selecting from a value that is not a map".into(),
            ));
        }
        t = Term::select(&t, i);
    }
    Ok(t)
}

/// `m[i1, …, in := v]` over the curried encoding:
/// `store(m, i1, store(select(m, i1), i2, … v))`.
pub fn store_curried(m: &Term, idx: &[Term], v: &Term) -> Result<Term, Unsupported> {
    let Some((i, rest)) = idx.split_first() else {
        return Err(Unsupported("maps without index".into()));
    };
    if !matches!(m.sort_ref(), Sort::Array(..)) {
        return Err(Unsupported("updating a value that is not a map".into()));
    }
    let inner = if rest.is_empty() {
        v.clone()
    } else {
        store_curried(&Term::select(m, i), rest, v)?
    };
    Ok(Term::store(m, i, &inner))
}

/// The constant map of (curried) sort `sort` whose every element is `v`: nested constant arrays
/// until the element sort is that of `v`.
fn const_array_curried(sort: &Sort, v: &Term) -> Result<Term, Unsupported> {
    if sort == v.sort_ref() {
        return Ok(v.clone());
    }
    match sort {
        Sort::Array(_, elem) => Ok(Term::const_array(
            sort.clone(),
            &const_array_curried(elem, v)?,
        )),
        _ => Err(Unsupported("{:const_array} of a mismatched type".into())),
    }
}

struct BoundEnv<'a> {
    bound: &'a HashMap<VarId, Term>,
    outer: &'a dyn Env,
}

impl Env for BoundEnv<'_> {
    fn var(&self, id: VarId) -> Result<Term, Unsupported> {
        match self.bound.get(&id) {
            Some(t) => Ok(t.clone()),
            None => self.outer.var(id),
        }
    }
    fn old(&self, id: VarId) -> Result<Term, Unsupported> {
        self.outer.old(id)
    }
}

/// A bit-vector operation of SMT-LIB's `FixedSizeBitVectors` theory by name, with its arity.
fn bv_function(name: &str) -> Option<usize> {
    Some(match name {
        "bvneg" | "bvnot" => 1,
        "bvadd" | "bvsub" | "bvmul" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod"
        | "bvand" | "bvor" | "bvxor" | "bvnand" | "bvnor" | "bvxnor" | "bvshl" | "bvlshr"
        | "bvashr" | "bvcomp" | "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle"
        | "bvsgt" | "bvsge" => 2,
        _ => return None,
    })
}

/// `t` if it is a well-sorted bit-vector application (every argument a bit-vector; operations other
/// than `concat` and `extract` on arguments of one width) whose sort is `expected` (when given); a
/// declaration that does not fit its builtin is unsupported, never sent to the solver.
fn bv_checked(t: Term, expected: Option<&Sort>) -> Result<Term, Unsupported> {
    let ill = || Unsupported(format!("an ill-sorted bit-vector operation ({t})"));
    let (op, args) = t.as_app().ok_or_else(ill)?;
    let widths: Vec<u32> = args
        .iter()
        .map(|a| match a.sort_ref() {
            Sort::BitVec(w) => Some(*w),
            _ => None,
        })
        .collect::<Option<_>>()
        .ok_or_else(ill)?;
    let uniform = widths.windows(2).all(|w| w[0] == w[1]);
    let ok = match op {
        Op::Concat => widths.len() == 2,
        Op::Extract(hi, lo) => widths.len() == 1 && hi >= lo && *hi < widths[0],
        Op::ZeroExtend(_) | Op::SignExtend(_) | Op::Repeat(_) => widths.len() == 1,
        Op::RotateLeft(_) | Op::RotateRight(_) => widths.len() == 1,
        Op::BvBuiltin(n) => bv_function(n) == Some(widths.len()) && uniform,
        _ => false,
    };
    if !ok || expected.is_some_and(|s| s != t.sort_ref()) {
        return Err(ill());
    }
    Ok(t)
}

/// An application of a `{:smtdefined "text"}` function: `text` is an SMT-LIB term over the
/// function's parameter names, parsed with the parameters bound to the arguments. A text that does
/// not parse, mentions anything but the parameters, or has another sort than the function's result
/// is unsupported (never sent to the solver as something else).
fn smt_defined(f: &ir::Function, text: &str, args: Vec<Term>) -> Result<Term, Unsupported> {
    let unsupported = || Unsupported(format!("{{:smtdefined}} function {}", f.name));
    if f.param_names.len() != args.len() {
        return Err(unsupported());
    }
    let mut env = crate::smt::ParseEnv::new();
    let mut map: HashMap<Var, Term> = HashMap::new();
    for (name, a) in f.param_names.iter().zip(args) {
        let Some(name) = name else {
            return Err(unsupported());
        };
        let placeholder = Var {
            name: name.clone(),
            sort: a.sort(),
        };
        env.add_var(&placeholder);
        map.insert(placeholder, a);
    }
    let t = crate::smt::parse_term(text, &env).map_err(|_| unsupported())?;
    if t.sort() != sort_of(&f.result)? || t.free_vars().iter().any(|v| !map.contains_key(v)) {
        return Err(unsupported());
    }
    if !t.symbols().funs.is_empty() {
        return Err(unsupported());
    }
    Ok(t.substitute(&map))
}

/// SMT-LIB's floating-point sorts (`(_ FloatingPoint e s)`, `Float32`, …) and `RoundingMode`, which
/// `type {:builtin …}` declarations name and the solver interprets.
fn is_float_sort(s: &str) -> bool {
    s == "RoundingMode"
        || s.starts_with("(_ FloatingPoint ")
        || matches!(s, "Float16" | "Float32" | "Float64" | "Float128")
}

/// SMT-LIB's floating-point functions and constants (theory FloatingPoint).
fn is_float_builtin(name: &str) -> bool {
    name.starts_with("fp.")
        || crate::smt::term::is_rounding_mode(name)
        || matches!(
            name,
            "fp" | "to_fp" | "to_fp_unsigned" | "+oo" | "-oo" | "NaN" | "+zero" | "-zero"
        )
}

/// `{:builtin "name"}` functions: integer and Boolean operators, bit-vector operations, and the
/// floating-point theory (passed to the solver by name, with its `{:indices}`; the solver checks
/// their sorts, and an ill-sorted application is a solver error, never a verdict).
fn builtin(
    name: &str,
    indices: &[u32],
    mut args: Vec<Term>,
    result: &Sort,
) -> Result<Term, Unsupported> {
    let floats = |s: &Sort| matches!(s, Sort::Builtin(b) if is_float_sort(b));
    if is_float_builtin(name) || floats(result) || args.iter().any(|a| floats(a.sort_ref())) {
        if !is_float_builtin(name) {
            return Err(Unsupported(format!("builtin function {name}")));
        }
        let text = if indices.is_empty() {
            name.to_string()
        } else {
            let is: Vec<String> = indices.iter().map(u32::to_string).collect();
            format!("(_ {name} {})", is.join(" "))
        };
        return Ok(Term::app(Op::Builtin(text, result.clone()), args));
    }
    if bv_function(name).is_some() || name == "concat" {
        let op = if name == "concat" {
            Op::Concat
        } else {
            Op::BvBuiltin(name.to_string())
        };
        return bv_checked(Term::app(op, args), Some(result));
    }
    if name == "bv2nat" {
        // the unsigned value of a bit-vector (the C translation's float-to-integer conversion)
        if let [a] = args.as_slice()
            && matches!(a.sort_ref(), Sort::BitVec(_))
            && *result == Sort::Int
        {
            return Ok(Term::app(Op::Builtin("bv2nat".into(), Sort::Int), args));
        }
        return Err(Unsupported("an ill-sorted bv2nat".into()));
    }
    let indexed = match (name, indices) {
        ("extract", [hi, lo]) => Some(Op::Extract(*hi, *lo)),
        ("zero_extend", [n]) => Some(Op::ZeroExtend(*n)),
        ("sign_extend", [n]) => Some(Op::SignExtend(*n)),
        ("repeat", [n]) if *n >= 1 => Some(Op::Repeat(*n)),
        ("rotate_left", [n]) => Some(Op::RotateLeft(*n)),
        ("rotate_right", [n]) => Some(Op::RotateRight(*n)),
        _ => None,
    };
    if let Some(op) = indexed {
        return bv_checked(Term::app(op, args), Some(result));
    }
    let two = |args: &mut Vec<Term>| -> Option<(Term, Term)> {
        if args.len() == 2 {
            let b = args.pop()?;
            let a = args.pop()?;
            Some((a, b))
        } else {
            None
        }
    };
    let t = match name {
        "+" => Some(Term::add(args)),
        "*" => Some(Term::mul(args)),
        "-" if args.len() == 1 => args.pop().map(|a| Term::neg(&a)),
        "-" => two(&mut args).map(|(a, b)| Term::sub(&a, &b)),
        "div" => two(&mut args).map(|(a, b)| Term::int_div(&a, &b)),
        "mod" => two(&mut args).map(|(a, b)| Term::modulo(&a, &b)),
        "<" => two(&mut args).map(|(a, b)| Term::lt(&a, &b)),
        "<=" => two(&mut args).map(|(a, b)| Term::le(&a, &b)),
        ">" => two(&mut args).map(|(a, b)| Term::gt(&a, &b)),
        ">=" => two(&mut args).map(|(a, b)| Term::ge(&a, &b)),
        "=" => two(&mut args).map(|(a, b)| Term::eq(&a, &b)),
        "and" => Some(Term::and(args)),
        "or" => Some(Term::or(args)),
        "not" if args.len() == 1 => args.pop().map(|a| Term::not(&a)),
        "abs" if args.len() == 1 => Some(Term::app(Op::Abs, args)),
        _ => None,
    };
    t.ok_or_else(|| Unsupported(format!("builtin function {name}")))
}

/// The environment of a single statement: leaves are pre-state variables of `inst`.
pub struct PreEnv<'v, 'p> {
    pub voc: &'v Vocabulary<'p>,
    pub inst: u32,
    pub reads: std::cell::RefCell<BTreeSet<PVar>>,
}

impl<'v, 'p> PreEnv<'v, 'p> {
    pub fn new(voc: &'v Vocabulary<'p>, inst: u32) -> Self {
        PreEnv {
            voc,
            inst,
            reads: Default::default(),
        }
    }
    pub fn pvar(&self, id: VarId) -> PVar {
        PVar::Var {
            id,
            inst: instance_of(self.voc.program, id, self.inst),
        }
    }
}

/// Globals and constants live in instance 0; everything else in the given instance.
pub fn instance_of(p: &Program, id: VarId, inst: u32) -> u32 {
    match p.var(id).kind {
        ir::VarKind::Global | ir::VarKind::Const { .. } => 0,
        _ => inst,
    }
}

impl Env for PreEnv<'_, '_> {
    fn var(&self, id: VarId) -> Result<Term, Unsupported> {
        let x = self.pvar(id);
        self.reads.borrow_mut().insert(x);
        Ok(Term::var(&self.voc.pre(x)?))
    }
    fn old(&self, id: VarId) -> Result<Term, Unsupported> {
        let x = PVar::Old {
            id,
            inst: self.inst,
        };
        self.reads.borrow_mut().insert(x);
        Ok(Term::var(&self.voc.pre(x)?))
    }
}

impl TransFormula {
    pub fn assume(formula: Term, reads: BTreeSet<PVar>) -> TransFormula {
        TransFormula {
            formula,
            reads,
            writes: BTreeSet::new(),
            aux: BTreeSet::new(),
        }
    }

    pub fn skip() -> TransFormula {
        TransFormula::assume(Term::tt(), BTreeSet::new())
    }

    /// `x1, …, xn := t1, …, tn` (terms over pre variables).
    pub fn assign(
        voc: &Vocabulary,
        pairs: Vec<(PVar, Term)>,
        reads: BTreeSet<PVar>,
    ) -> Result<TransFormula, Unsupported> {
        let mut conj = Vec::new();
        let mut writes = BTreeSet::new();
        for (x, t) in pairs {
            conj.push(Term::eq(&Term::var(&voc.post(x)?), &t));
            writes.insert(x);
        }
        Ok(TransFormula {
            formula: Term::and(conj),
            reads,
            writes,
            aux: BTreeSet::new(),
        })
    }

    pub fn havoc(xs: impl IntoIterator<Item = PVar>) -> TransFormula {
        TransFormula {
            formula: Term::tt(),
            reads: BTreeSet::new(),
            writes: xs.into_iter().collect(),
            aux: BTreeSet::new(),
        }
    }

    /// All program variables mentioned.
    pub fn vars(&self) -> BTreeSet<PVar> {
        self.reads.union(&self.writes).copied().collect()
    }

    pub fn is_infeasible(&self) -> bool {
        self.formula == Term::ff()
    }
}

/// Sequential composition `a; b`.
pub fn seq(
    voc: &Vocabulary,
    a: &TransFormula,
    b: &TransFormula,
) -> Result<TransFormula, Unsupported> {
    Ok(eliminate_aux(seq_unreduced(voc, a, b)?))
}

/// [`seq`] without the elimination of auxiliary variables.
fn seq_unreduced(
    voc: &Vocabulary,
    a: &TransFormula,
    b: &TransFormula,
) -> Result<TransFormula, Unsupported> {
    // Intermediate values of the variables `a` writes: the post variable itself if `b` does not write
    // the variable, a fresh auxiliary variable otherwise.
    let mut a_map: HashMap<Var, Term> = HashMap::new();
    let mut b_map: HashMap<Var, Term> = HashMap::new();
    let mut aux: BTreeSet<Var> = a.aux.clone();
    // `b`'s auxiliary variables are its own: those that `a` also has (`a` and `b` may be the same
    // letter, or letters composed from a common one) are renamed apart.
    for v in &b.aux {
        if a.aux.contains(v) {
            let m = voc.fresh(&v.name, v.sort.clone());
            b_map.insert(v.clone(), Term::var(&m));
            aux.insert(m);
        } else {
            aux.insert(v.clone());
        }
    }
    for &x in &a.writes {
        let mid = if b.writes.contains(&x) {
            let m = voc.fresh(&voc.name(x), voc.sort(x)?);
            aux.insert(m.clone());
            a_map.insert(voc.post(x)?, Term::var(&m));
            Term::var(&m)
        } else {
            Term::var(&voc.post(x)?)
        };
        b_map.insert(voc.pre(x)?, mid);
    }
    let fa = a.formula.substitute(&a_map);
    let fb = b.formula.substitute(&b_map);
    let mut reads = a.reads.clone();
    for &x in &b.reads {
        if !a.writes.contains(&x) {
            reads.insert(x);
        }
    }
    let writes = a.writes.union(&b.writes).copied().collect();
    Ok(TransFormula {
        formula: Term::and(vec![fa, fb]),
        reads,
        writes,
        aux,
    })
}

/// `tf` with the values it writes to variables outside `live` forgotten: each such post variable
/// becomes a fresh auxiliary variable (existentially quantified, then eliminated where an equality
/// defines it), and the variable leaves `writes`. With `live` the variables live after `tf` (read
/// on some path before being written), every run of the result extends to a run of `tf` by the
/// forgotten values, and both agree on everything a later step reads.
pub fn forget_dead(voc: &Vocabulary, tf: TransFormula, live: &BTreeSet<PVar>) -> TransFormula {
    if tf.writes.is_subset(live) {
        return tf;
    }
    eliminate_aux(forget_unreduced(voc, tf, live))
}

/// [`forget_dead`] without the elimination.
fn forget_unreduced(voc: &Vocabulary, tf: TransFormula, live: &BTreeSet<PVar>) -> TransFormula {
    let dead: Vec<PVar> = tf.writes.difference(live).copied().collect();
    if dead.is_empty() {
        return tf;
    }
    let mut map: HashMap<Var, Term> = HashMap::new();
    let mut aux = tf.aux;
    let mut writes = tf.writes;
    for x in dead {
        let (Ok(post), Ok(sort)) = (voc.post(x), voc.sort(x)) else {
            continue;
        };
        let m = voc.fresh(&voc.name(x), sort);
        map.insert(post, Term::var(&m));
        aux.insert(m);
        writes.remove(&x);
    }
    TransFormula {
        formula: tf.formula.substitute(&map),
        reads: tf.reads,
        writes,
        aux,
    }
}

/// `a; b` with the values it writes to variables outside `live` forgotten ([`forget_dead`]), one
/// elimination for both.
pub fn seq_forgetting(
    voc: &Vocabulary,
    a: &TransFormula,
    b: &TransFormula,
    live: &BTreeSet<PVar>,
) -> Result<TransFormula, Unsupported> {
    Ok(eliminate_aux(forget_unreduced(
        voc,
        seq_unreduced(voc, a, b)?,
        live,
    )))
}

/// Parallel composition `a ∪ b` (nondeterministic choice).
pub fn par(
    voc: &Vocabulary,
    a: &TransFormula,
    b: &TransFormula,
) -> Result<TransFormula, Unsupported> {
    let writes: BTreeSet<PVar> = a.writes.union(&b.writes).copied().collect();
    let frame = |t: &TransFormula| -> Result<Term, Unsupported> {
        let mut conj = vec![t.formula.clone()];
        for &x in writes.difference(&t.writes) {
            conj.push(Term::eq(
                &Term::var(&voc.post(x)?),
                &Term::var(&voc.pre(x)?),
            ));
        }
        Ok(Term::and(conj))
    };
    let fa = frame(a)?;
    let fb = frame(b)?;
    let mut reads: BTreeSet<PVar> = a.reads.union(&b.reads).copied().collect();
    for &x in writes.difference(&a.writes) {
        reads.insert(x);
    }
    for &x in writes.difference(&b.writes) {
        reads.insert(x);
    }
    Ok(TransFormula {
        formula: Term::or(vec![fa, fb]),
        reads,
        writes,
        aux: a.aux.union(&b.aux).cloned().collect(),
    })
}

/// Simplifies and eliminates auxiliary variables that are defined by an equality; a `mod` or `div`
/// whose dividend the formula's own guards keep within one period is dropped
/// ([`crate::smt::drop_bounded_mods`]: an unsigned conversion of a bounded value).
pub fn eliminate_aux(tf: TransFormula) -> TransFormula {
    if tf.aux.is_empty() {
        return TransFormula {
            formula: crate::smt::drop_bounded_mods(&crate::smt::simplify(&tf.formula)),
            ..tf
        };
    }
    let q = Term::exists(
        tf.aux.iter().cloned().collect(),
        crate::smt::drop_bounded_mods(&tf.formula),
    );
    let r = crate::smt::simplify(&crate::smt::qe_light(&q));
    // Strip the existentials that remain around the formula and its conjuncts (qe_light scopes
    // them as narrowly as it can): their variables stay auxiliary.
    let mut aux = BTreeSet::new();
    let formula = lift_exists(&r, &mut aux, r.free_vars_ref());
    let aux: BTreeSet<Var> = aux
        .into_iter()
        .filter(|v| formula.free_vars().contains(v))
        .collect();
    TransFormula { formula, aux, ..tf }
}

/// `t` without the existential quantifiers around it and around its conjuncts (recursively), their
/// variables added to `aux`, so that `∃aux. result ≡ t`. `free` holds the free variables of the
/// whole formula: a quantifier whose variable is among them or already in `aux` stays (lifting it
/// would capture). (A variable free in another conjunct is free in the whole formula unless a
/// quantifier binds it there; a lifted one then put it in `aux`, one not lifted keeps its own.)
fn lift_exists(t: &Term, aux: &mut BTreeSet<Var>, free: &BTreeSet<Var>) -> Term {
    use crate::smt::{Quantifier, TermKind};
    match t.kind() {
        TermKind::Quant(Quantifier::Exists, vars, body)
            if vars.iter().all(|v| !aux.contains(v) && !free.contains(v)) =>
        {
            aux.extend(vars.iter().cloned());
            lift_exists(body, aux, free)
        }
        _ if t.is_app_of(&crate::smt::Op::And) => {
            Term::and(t.args().iter().map(|a| lift_exists(a, aux, free)).collect())
        }
        _ => t.clone(),
    }
}

/// The program variables an smt term mentions (pre or post), via the vocabulary.
pub fn pvars_of(voc: &Vocabulary, t: &Term) -> BTreeSet<PVar> {
    t.free_vars()
        .iter()
        .filter_map(|v| voc.lookup(v).map(|(x, _)| x))
        .collect()
}

/// Renders a transition's statement list for counterexamples (`x := x + 1`, `assume x > 0`).
pub fn describe_stmt(p: &Program, s: &ir::Stmt) -> String {
    crate::ir::dot::stmt_to_string(p, s)
}

/// Program variables of a statement's constituent sorts must be int or bool; returns the first
/// unsupported type among `vars`.
pub fn check_sorts(voc: &Vocabulary, vars: &BTreeMap<PVar, ()>) -> Result<(), Unsupported> {
    for &x in vars.keys() {
        voc.sort(x)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn existentials_are_lifted_without_capture() {
        let v = |n: &str| Var::new(n, Sort::Int);
        let t = |n: &str| Term::var(&v(n));
        let zero = Term::int(0);
        // (∃a. a > x) ∧ (∃a. a < 0) ∧ (∃x. x < y) ∧ (∃b. b > 0 ∧ (∃c. c < b))
        let f = Term::and(vec![
            Term::exists(vec![v("a")], Term::gt(&t("a"), &t("x"))),
            Term::exists(vec![v("a")], Term::lt(&t("a"), &zero)),
            Term::exists(vec![v("x")], Term::lt(&t("x"), &t("y"))),
            Term::exists(
                vec![v("b")],
                Term::and(vec![
                    Term::gt(&t("b"), &zero),
                    Term::exists(vec![v("c")], Term::lt(&t("c"), &t("b"))),
                ]),
            ),
        ]);
        let mut aux = BTreeSet::new();
        let r = lift_exists(&f, &mut aux, f.free_vars_ref());
        // the first `a`, `b` and `c` are lifted; the second `a` (taken) and `x` (free) stay
        assert_eq!(aux, BTreeSet::from([v("a"), v("b"), v("c")]));
        assert_eq!(
            r.to_string(),
            "(and (> a x) (exists ((a Int)) (< a 0)) (exists ((x Int)) (< x y)) (> b 0) (< c b))"
        );
    }

    #[test]
    fn two_argument_maps_are_curried() {
        let t = Type::Map {
            type_params: vec![],
            args: vec![Type::Int, Type::Bool],
            result: Box::new(Type::Int),
        };
        let s = sort_of(&t).unwrap();
        assert_eq!(
            s,
            Sort::array(Sort::Int, Sort::array(Sort::Bool, Sort::Int))
        );
        let m = Term::var(&Var::new("m", s));
        let (i, j, v) = (
            Term::var(&Var::new("i", Sort::Int)),
            Term::var(&Var::new("j", Sort::Bool)),
            Term::int(3),
        );
        let sel = select_curried(&m, &[i.clone(), j.clone()]).unwrap();
        assert_eq!(sel.to_string(), "(select (select m i) j)");
        let st = store_curried(&m, &[i, j], &v).unwrap();
        assert_eq!(st.to_string(), "(store m i (store (select m i) j 3))");
        // Reading back the updated cell gives the stored value.
        let back = select_curried(
            &st,
            &[
                Term::var(&Var::new("i", Sort::Int)),
                Term::var(&Var::new("j", Sort::Bool)),
            ],
        )
        .unwrap();
        assert_eq!(crate::smt::simplify(&back), Term::int(3));
        // Polymorphic maps stay unsupported.
        let poly = Type::Map {
            type_params: vec!["a".into()],
            args: vec![Type::Param("a".into())],
            result: Box::new(Type::Int),
        };
        assert!(sort_of(&poly).is_err());
    }
}
