//! The lowered verification IR: resolved, typed, and with control flow as one graph per procedure.
//!
//! This is the contract between front ends (the Boogie front end here, the C translator later) and the
//! engine; docs/IR.md describes it for front-end authors. Invariants every front end must establish:
//! - every `VarId`, `FuncId`, `ProcId`, `ErrorId` indexes the tables of its `Program`;
//! - expressions are well typed; `Expr::Old` only names global variables;
//! - each CFG has exactly one entry and one exit location; error locations have no outgoing edges, and
//!   each error location belongs to exactly one `ErrorSite`;
//! - edges carry only the simple statements of `Stmt`; structured control flow is gone.

use crate::diag::Span;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use petgraph::graph::{DiGraph, NodeIndex};
use std::fmt;

/// Index into `Program::vars`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);
/// Index into `Program::functions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index into `Program::procedures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(pub u32);
/// Index into `Program::errors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorId(pub u32);

/// Types after synonym expansion.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Bool,
    Int,
    Real,
    BitVec(u32),
    /// A type declared with `{:builtin "S"}`: the SMT sort written verbatim, e.g. `(_ FloatingPoint 8 24)`.
    Builtin(String),
    /// `[T1, …, Tn]U`, possibly with type parameters bound by the map type itself.
    Map {
        type_params: Vec<String>,
        args: Vec<Type>,
        result: Box<Type>,
    },
    /// An uninterpreted type constructor applied to arguments (`type T;`, `type C a;`).
    Ctor(String, Vec<Type>),
    /// A type parameter of a polymorphic function, procedure or map.
    Param(String),
    /// `{f: T, …}` (Ultimate extension), fields in declaration order.
    Record(Vec<(String, Type)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    Global,
    Const {
        unique: bool,
    },
    Param(ProcId),
    Return(ProcId),
    Local(ProcId),
    /// Bound by a quantifier, lambda, or function parameter.
    Bound,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub ty: Type,
    pub kind: VarKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
    /// `int(e)`: floor of a real (SMT-LIB `to_int`).
    ToInt,
    /// `real(e)`: an integer as a real (SMT-LIB `to_real`).
    ToReal,
}

/// Operators with their operand type resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Iff,
    Implies,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    /// Integer division, SMT `div` (Boogie `/` or `div` on int).
    IntDiv,
    /// Integer modulus, SMT `mod` (Boogie `%` or `mod` on int).
    Mod,
    /// Real division (Boogie `/` on real).
    RealDiv,
    /// Bit-vector concatenation `++`.
    Concat,
    /// `<:` on constants.
    Subtype,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Forall,
    Exists,
    Lambda,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    BitVec {
        value: BigUint,
        width: u32,
    },
    /// A float literal as written, with its type.
    Float {
        text: String,
        ty: Type,
    },
    Var(VarId),
    /// The value of a global at the entry of the enclosing procedure.
    Old(VarId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Vec<Expr>),
    Store(Box<Expr>, Vec<Expr>, Box<Expr>),
    Extract {
        expr: Box<Expr>,
        hi: u32,
        lo: u32,
    },
    /// Function application with the instantiation of the function's type parameters.
    App {
        func: FuncId,
        type_args: Vec<Type>,
        args: Vec<Expr>,
    },
    Quant {
        quantifier: Quantifier,
        vars: Vec<VarId>,
        triggers: Vec<Vec<Expr>>,
        body: Box<Expr>,
    },
    Field(Box<Expr>, String),
    Record(Vec<(String, Expr)>),
}

impl Expr {
    /// This expression with each direct subexpression `x` replaced by `f(x)` (quantifier triggers
    /// included); `None` if `f` fails on one.
    pub fn try_map_children(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Option<Expr> {
        let all = |xs: &[Expr], f: &mut dyn FnMut(&Expr) -> Option<Expr>| {
            xs.iter().map(&mut *f).collect::<Option<Vec<_>>>()
        };
        Some(match self {
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Real(_)
            | Expr::BitVec { .. }
            | Expr::Float { .. }
            | Expr::Var(_)
            | Expr::Old(_) => self.clone(),
            Expr::Unary(op, a) => Expr::Unary(*op, Box::new(f(a)?)),
            Expr::Binary(op, a, b) => Expr::Binary(*op, Box::new(f(a)?), Box::new(f(b)?)),
            Expr::Ite(a, b, c) => Expr::Ite(Box::new(f(a)?), Box::new(f(b)?), Box::new(f(c)?)),
            Expr::Select(m, idx) => Expr::Select(Box::new(f(m)?), all(idx, f)?),
            Expr::Store(m, idx, v) => {
                let m = f(m)?;
                let idx = all(idx, f)?;
                Expr::Store(Box::new(m), idx, Box::new(f(v)?))
            }
            Expr::Extract { expr, hi, lo } => Expr::Extract {
                expr: Box::new(f(expr)?),
                hi: *hi,
                lo: *lo,
            },
            Expr::App {
                func,
                type_args,
                args,
            } => Expr::App {
                func: *func,
                type_args: type_args.clone(),
                args: all(args, f)?,
            },
            Expr::Quant {
                quantifier,
                vars,
                triggers,
                body,
            } => Expr::Quant {
                quantifier: *quantifier,
                vars: vars.clone(),
                triggers: triggers
                    .iter()
                    .map(|ts| all(ts, f))
                    .collect::<Option<_>>()?,
                body: Box::new(f(body)?),
            },
            Expr::Field(a, name) => Expr::Field(Box::new(f(a)?), name.clone()),
            Expr::Record(fields) => Expr::Record(
                fields
                    .iter()
                    .map(|(n, x)| Some((n.clone(), f(x)?)))
                    .collect::<Option<_>>()?,
            ),
        })
    }

    /// This expression with each direct subexpression `x` replaced by `f(x)`.
    pub fn map_children(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
        self.try_map_children(&mut |x| Some(f(x)))
            .unwrap_or_else(|| self.clone())
    }

    /// The functions applied anywhere in this expression.
    pub fn applied_functions(&self, out: &mut std::collections::BTreeSet<FuncId>) {
        self.visit(&mut |x| {
            if let Expr::App { func, .. } = x {
                out.insert(*func);
            }
        });
    }

    /// Calls `f` on this expression and every subexpression, parent before children, children in
    /// source order (quantifier triggers before the body).
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Real(_)
            | Expr::BitVec { .. }
            | Expr::Float { .. }
            | Expr::Var(_)
            | Expr::Old(_) => {}
            Expr::Unary(_, a) | Expr::Extract { expr: a, .. } | Expr::Field(a, _) => a.visit(f),
            Expr::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Ite(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            Expr::Select(m, idx) => {
                m.visit(f);
                idx.iter().for_each(|i| i.visit(f));
            }
            Expr::Store(m, idx, v) => {
                m.visit(f);
                idx.iter().for_each(|i| i.visit(f));
                v.visit(f);
            }
            Expr::App { args, .. } => args.iter().for_each(|a| a.visit(f)),
            Expr::Quant { triggers, body, .. } => {
                triggers.iter().flatten().for_each(|t| t.visit(f));
                body.visit(f);
            }
            Expr::Record(fields) => fields.iter().for_each(|(_, e)| e.visit(f)),
        }
    }
}

/// The statements on CFG edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Assume(Expr),
    /// Parallel assignment: all right-hand sides are evaluated before any variable is written. Map
    /// updates `m[i] := e` are lowered to `m := m[i := e]`.
    Assign(Vec<(VarId, Expr)>),
    Havoc(Vec<VarId>),
    /// Call `callee(args)` and assign its return values to `rets`. The callee's checked `requires` have
    /// already been turned into error edges at the call site by the front end; the engine assumes all
    /// requires on entry and all ensures on return of a procedure without a body.
    Call {
        callee: ProcId,
        args: Vec<Expr>,
        rets: Vec<VarId>,
    },
    /// `fork tid callee(args)`
    Fork {
        tid: Vec<Expr>,
        callee: ProcId,
        args: Vec<Expr>,
    },
    /// `join tid assign rets`
    Join {
        tid: Vec<Expr>,
        rets: Vec<VarId>,
    },
    AtomicBegin,
    AtomicEnd,
    /// A construct the front end accepts but the engine does not interpret (e.g. `call forall`). The
    /// engine must answer UNKNOWN with this reason if such an edge is reachable.
    Unsupported(String),
}

impl Stmt {
    /// The expressions of this statement (right-hand sides, arguments, thread ids).
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Stmt::Assume(e) => vec![e],
            Stmt::Assign(pairs) => pairs.iter().map(|(_, e)| e).collect(),
            Stmt::Call { args, .. } => args.iter().collect(),
            Stmt::Fork { tid, args, .. } => tid.iter().chain(args).collect(),
            Stmt::Join { tid, .. } => tid.iter().collect(),
            Stmt::Havoc(_) | Stmt::AtomicBegin | Stmt::AtomicEnd | Stmt::Unsupported(_) => {
                Vec::new()
            }
        }
    }

    /// This statement with each of its expressions `e` replaced by `f(e)`; `None` if `f` fails on
    /// one.
    pub fn try_map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Option<Stmt> {
        let all = |xs: &[Expr], f: &mut dyn FnMut(&Expr) -> Option<Expr>| {
            xs.iter().map(&mut *f).collect::<Option<Vec<_>>>()
        };
        Some(match self {
            Stmt::Assume(e) => Stmt::Assume(f(e)?),
            Stmt::Assign(pairs) => Stmt::Assign(
                pairs
                    .iter()
                    .map(|(x, e)| Some((*x, f(e)?)))
                    .collect::<Option<_>>()?,
            ),
            Stmt::Call { callee, args, rets } => Stmt::Call {
                callee: *callee,
                args: all(args, f)?,
                rets: rets.clone(),
            },
            Stmt::Fork { tid, callee, args } => Stmt::Fork {
                tid: all(tid, f)?,
                callee: *callee,
                args: all(args, f)?,
            },
            Stmt::Join { tid, rets } => Stmt::Join {
                tid: all(tid, f)?,
                rets: rets.clone(),
            },
            Stmt::Havoc(_) | Stmt::AtomicBegin | Stmt::AtomicEnd | Stmt::Unsupported(_) => {
                self.clone()
            }
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocKind {
    Entry,
    Exit,
    LoopHead,
    Error(ErrorId),
    Plain,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub kind: LocKind,
    /// The source position this location stands for (e.g. the statement that follows it).
    pub span: Option<Span>,
    /// A Boogie label at this location, if any.
    pub label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub stmt: Stmt,
    pub span: Option<Span>,
}

/// A procedure body as a control-flow graph.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub graph: DiGraph<Location, Edge>,
    pub entry: NodeIndex,
    pub exit: NodeIndex,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    pub free: bool,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: String,
    pub span: Span,
    pub type_params: Vec<String>,
    pub params: Vec<VarId>,
    pub returns: Vec<VarId>,
    pub locals: Vec<VarId>,
    pub requires: Vec<Contract>,
    pub ensures: Vec<Contract>,
    /// Globals this procedure may modify, as declared (the front end checks transitivity).
    pub modifies: Vec<VarId>,
    pub body: Option<Cfg>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub span: Span,
    pub type_params: Vec<String>,
    pub params: Vec<Type>,
    /// The parameters' names as declared (a declaration may leave them out).
    pub param_names: Vec<Option<String>>,
    pub result: Type,
    /// Parameter variables (kind `Bound`) and body, when the function is defined.
    pub body: Option<(Vec<VarId>, Expr)>,
    /// `{:builtin "name"}`: the SMT function symbol.
    pub builtin: Option<String>,
    /// `{:indices i, …}` for indexed builtins such as `(_ extract 7 0)`.
    pub indices: Vec<u32>,
    /// `{:inline}` / `{:inline true}`: expand the body at each application.
    pub inline: bool,
    /// `{:smtdefined "…"}`: the SMT definition text.
    pub smt_defined: Option<String>,
    /// `{:const_array}`: the function takes one value `v` and returns the constant map that is `v`
    /// everywhere (SMT `((as const (Array …)) v)`).
    pub const_array: bool,
    /// `{:overapproximation "what"}`: the function over-approximates an operation (e.g. a bitwise
    /// operator of C). A counterexample that applies it is not reported as a violation (UNKNOWN).
    pub overapproximation: Option<String>,
    /// `{:concrete "and"|"or"|"xor"}` on an `{:overapproximation}` function `(int, int) returns
    /// (int)`: the integer operation the function stands for. The CEGAR loop still reasons with the
    /// uninterpreted function (and what the program assumes of it) and evaluates the operation to
    /// confirm that a counterexample through the function is an execution of the program; the
    /// explicit-state executor evaluates it on concrete arguments.
    pub concrete: Option<ConcreteOp>,
}

/// The operation an over-approximating function stands for (`Function::concrete`): bitwise
/// operators on integers in two's complement of unbounded width, so on two values of one C integer
/// type the result is the C operator's result, in that type's range; shifts of an integer of
/// `width` bits (`{:concrete "shl", 32}`), defined for amounts in `[0, width)` only: `x << s` is
/// `x * 2^s`, exact (a front end wraps it where its language does: C's unsigned left shift),
/// `x >> s` is `floor(x / 2^s)` (arithmetic, as gcc). A bitwise operator may give the width of its
/// operands too (`{:concrete "and", 32}`), which lets the engine state the operator bit by bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcreteOp {
    pub kind: ConcreteKind,
    /// The operands' width in bits (always present for shifts).
    pub width: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcreteKind {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl ConcreteOp {
    pub const NAMES: [&'static str; 5] = ["and", "or", "xor", "shl", "shr"];

    /// The operation named `s` (`width`: the attribute's integer argument, which shifts need).
    pub fn from_name(s: &str, width: Option<u32>) -> Option<ConcreteOp> {
        let kind = match s {
            "and" => ConcreteKind::And,
            "or" => ConcreteKind::Or,
            "xor" => ConcreteKind::Xor,
            "shl" => ConcreteKind::Shl,
            "shr" => ConcreteKind::Shr,
            _ => return None,
        };
        let shift = matches!(kind, ConcreteKind::Shl | ConcreteKind::Shr);
        match width {
            Some(w) if !(1..=128).contains(&w) => None,
            None if shift => None,
            _ => Some(ConcreteOp { kind, width }),
        }
    }

    /// The operation's value on two integers, `None` where it is undefined (a shift amount out of
    /// range).
    pub fn eval(
        self,
        x: &num_bigint::BigInt,
        y: &num_bigint::BigInt,
    ) -> Option<num_bigint::BigInt> {
        use num_traits::ToPrimitive;
        let amount = || y.to_u32().filter(|s| *s < self.width.unwrap_or(0));
        match self.kind {
            ConcreteKind::And => Some(x & y),
            ConcreteKind::Or => Some(x | y),
            ConcreteKind::Xor => Some(x ^ y),
            ConcreteKind::Shl => amount().map(|s| x << s),
            ConcreteKind::Shr => amount().map(|s| x >> s),
        }
    }
}

/// What an error location checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Assert,
    /// A checked `requires` of `callee` at a call site (the site's span is the `ErrorSite` span).
    Requires {
        callee: ProcId,
        requires_span: Span,
    },
    /// A checked `ensures` at the procedure's exit.
    Ensures,
    /// A loop invariant on loop entry.
    InvariantEntry,
    /// A loop invariant after an iteration of the body.
    InvariantMaintained,
}

impl ErrorKind {
    /// Ultimate's wording of the property that may fail.
    pub fn description(&self) -> &'static str {
        match self {
            ErrorKind::Assert => "assertion can be violated",
            ErrorKind::Requires { .. } => "procedure precondition can be violated",
            ErrorKind::Ensures => "procedure postcondition can be violated",
            ErrorKind::InvariantEntry => "loop invariant can be violated on entry",
            ErrorKind::InvariantMaintained => "loop invariant may not be maintained",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorSite {
    pub kind: ErrorKind,
    /// The checked expression (or the call site for `Requires`).
    pub span: Span,
    pub proc: ProcId,
    pub location: NodeIndex,
    /// The `{:check "name"}` attribute of an assertion: which kind of check a front end generated
    /// it for (e.g. `valid-deref`), reported with a violation.
    pub check: Option<String>,
}

/// Where verification starts (docs/IR.md §entry points).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// `ULTIMATE.start`.
    Procedure(ProcId),
    /// Library mode: every procedure with a body, from an arbitrary state satisfying its requires.
    Library(Vec<ProcId>),
}

#[derive(Clone, Debug)]
pub struct TypeCtor {
    pub name: String,
    pub arity: usize,
    pub finite: bool,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub vars: Vec<Variable>,
    pub functions: Vec<Function>,
    pub procedures: Vec<Procedure>,
    pub type_ctors: Vec<TypeCtor>,
    pub axioms: Vec<Expr>,
    pub globals: Vec<VarId>,
    pub consts: Vec<VarId>,
    pub errors: Vec<ErrorSite>,
    pub entry: Entry,
}

impl Program {
    /// Calls `f` on every expression of the program and each of its subexpressions: function
    /// bodies, axioms, contracts and the statements of every body.
    pub fn visit_exprs(&self, f: &mut dyn FnMut(&Expr)) {
        for func in &self.functions {
            if let Some((_, body)) = &func.body {
                body.visit(f);
            }
        }
        for a in &self.axioms {
            a.visit(f);
        }
        for p in &self.procedures {
            for c in p.requires.iter().chain(&p.ensures) {
                c.expr.visit(f);
            }
            for e in p.body.iter().flat_map(|cfg| cfg.graph.edge_weights()) {
                for x in e.stmt.exprs() {
                    x.visit(f);
                }
            }
        }
    }

    pub fn var(&self, v: VarId) -> &Variable {
        &self.vars[v.0 as usize]
    }
    pub fn func(&self, f: FuncId) -> &Function {
        &self.functions[f.0 as usize]
    }
    pub fn proc(&self, p: ProcId) -> &Procedure {
        &self.procedures[p.0 as usize]
    }
    pub fn error(&self, e: ErrorId) -> &ErrorSite {
        &self.errors[e.0 as usize]
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Bool => write!(f, "bool"),
            Type::Int => write!(f, "int"),
            Type::Real => write!(f, "real"),
            Type::BitVec(n) => write!(f, "bv{n}"),
            Type::Builtin(s) => write!(f, "{s}"),
            Type::Map {
                type_params,
                args,
                result,
            } => {
                if !type_params.is_empty() {
                    write!(f, "<{}>", type_params.join(", "))?;
                }
                write!(f, "[")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, "]{result}")
            }
            Type::Ctor(name, args) => {
                write!(f, "{name}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                Ok(())
            }
            Type::Param(name) => write!(f, "{name}"),
            Type::Record(fields) => {
                write!(f, "{{")?;
                for (i, (n, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{n}: {t}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ConcreteKind, ConcreteOp};
    use num_bigint::BigInt;

    fn op(name: &str, width: Option<u32>) -> ConcreteOp {
        ConcreteOp::from_name(name, width).expect("a known operation")
    }

    /// The operations agree with the machine's 8-bit operators on every pair of `i8` and of `u8`
    /// values (two's complement, the values of one C type), and shifts are undefined exactly where
    /// C leaves them undefined (an amount outside `[0, width)`).
    #[test]
    fn concrete_operations_are_the_machine_operators() {
        for x in i8::MIN..=i8::MAX {
            for y in i8::MIN..=i8::MAX {
                let (bx, by) = (BigInt::from(x), BigInt::from(y));
                let want = [x & y, x | y, x ^ y];
                for (name, w) in ["and", "or", "xor"].into_iter().zip(want) {
                    assert_eq!(
                        op(name, None).eval(&bx, &by),
                        Some(BigInt::from(w)),
                        "{x} {name} {y}"
                    );
                }
                let (ux, uy) = (x as u8, y as u8);
                let (bux, buy) = (BigInt::from(ux), BigInt::from(uy));
                let want = [ux & uy, ux | uy, ux ^ uy];
                for (name, w) in ["and", "or", "xor"].into_iter().zip(want) {
                    assert_eq!(op(name, Some(8)).eval(&bux, &buy), Some(BigInt::from(w)));
                }
            }
            for s in -2i32..12 {
                let bs = BigInt::from(s);
                let shl = op("shl", Some(8)).eval(&BigInt::from(x), &bs);
                let shr = op("shr", Some(8)).eval(&BigInt::from(x), &bs);
                if (0..8).contains(&s) {
                    // the mathematical product (whether it fits is the caller's range check) and
                    // gcc's arithmetic right shift
                    assert_eq!(shl, Some(BigInt::from(i32::from(x) << s)));
                    assert_eq!(shr, Some(BigInt::from(x >> s)));
                } else {
                    assert_eq!((shl, shr), (None, None), "{x} by {s}");
                }
            }
        }
    }

    #[test]
    fn shifts_need_a_width() {
        assert_eq!(ConcreteOp::from_name("shl", None), None);
        assert_eq!(ConcreteOp::from_name("and", Some(0)), None);
        assert_eq!(ConcreteOp::from_name("nand", None), None);
        assert_eq!(
            ConcreteOp::from_name("shr", Some(32)).map(|o| o.kind),
            Some(ConcreteKind::Shr)
        );
    }
}
