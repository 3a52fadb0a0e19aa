//! The parse tree of a Boogie program, as written (Ultimate's dialect, docs/IR.md §1).
//!
//! A value type: no resolution, no types. Every node carries its source span. Name resolution and type
//! checking (`crate::ir`) read this tree and build the lowered IR; they never mutate it.

use crate::diag::Span;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Expr(Expr),
    Str(String),
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub decls: Vec<Decl>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Type(TypeDecl),
    Const(ConstDecl),
    Function(FunctionDecl),
    Axiom(AxiomDecl),
    Var(VarDecl),
    Procedure(ProcDecl),
    Implementation(ImplDecl),
}

/// `type {:attrs} finite? Name a b = T;` (synonym when `synonym` is set) or `type Name a b;` (constructor).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub attrs: Vec<Attribute>,
    pub finite: bool,
    pub name: Ident,
    pub params: Vec<Ident>,
    pub synonym: Option<Type>,
    pub span: Span,
}

/// `const {:attrs} unique? x, y: T <: parents complete?;`
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    pub attrs: Vec<Attribute>,
    pub unique: bool,
    pub names: Vec<Ident>,
    pub ty: Type,
    /// The order specification after `<:`, if any: `(unique?, parent)`.
    pub parents: Option<Vec<(bool, Ident)>>,
    pub complete: bool,
    pub span: Span,
}

/// `function {:attrs} f<a>(x: T, U) returns (r: T) { body }` or `: T;`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<FunArg>,
    pub result: FunArg,
    pub body: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunArg {
    pub name: Option<Ident>,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AxiomDecl {
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

/// `var {:attrs} x, y: T where e, z: U;`
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub attrs: Vec<Attribute>,
    pub vars: Vec<TypedIdents>,
    pub span: Span,
}

/// `x, y: T where e` — one group of names sharing a type and an optional `where` clause.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedIdents {
    pub names: Vec<Ident>,
    pub ty: Type,
    pub where_clause: Option<Expr>,
    pub span: Span,
}

/// `procedure {:attrs} P<a>(ins) returns (outs); specs` or with an inline body.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<TypedIdents>,
    pub returns: Vec<TypedIdents>,
    pub specs: Vec<Spec>,
    pub body: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub free: bool,
    pub kind: SpecKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SpecKind {
    Requires(Expr),
    Ensures(Expr),
    Modifies(Vec<Ident>),
}

/// `implementation {:attrs} P<a>(ins) returns (outs) body`.
#[derive(Clone, Debug, PartialEq)]
pub struct ImplDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<TypedIdents>,
    pub returns: Vec<TypedIdents>,
    pub body: Body,
    pub span: Span,
}

/// `{ var …; stmts }`. `end` is the span of the closing brace (the location of implicit returns).
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub locals: Vec<VarDecl>,
    pub stmts: Vec<Stmt>,
    pub span: Span,
    pub end: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Bool,
    Int,
    Real,
    /// `bvN`
    BitVec(u32),
    /// A named type: a type constructor applied to arguments, a synonym, or a type parameter.
    Named(Ident, Vec<Type>),
    /// `<a>[T1, T2]U`
    Map {
        type_params: Vec<Ident>,
        args: Vec<Type>,
        result: Box<Type>,
    },
    /// `{ f: T, g: U }` (Ultimate extension)
    Record(Vec<(Ident, Type)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `L:` — a label before the next statement.
    Label(Ident),
    Assert {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    Assume {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    Havoc(Vec<Ident>),
    /// `l1, l2 := e1, e2;`
    Assign {
        lhs: Vec<Lhs>,
        rhs: Vec<Expr>,
    },
    /// `call {:attrs} outs := P(args);`; `forall` for `call forall P(args)`, where an argument may be `*`
    /// (`None`).
    Call {
        attrs: Vec<Attribute>,
        forall: bool,
        outs: Vec<Ident>,
        proc: Ident,
        args: Vec<Option<Expr>>,
    },
    /// `if (c) {…} else …`; `cond` is `None` for `if (*)`.
    If {
        cond: Option<Expr>,
        then_branch: Vec<Stmt>,
        else_branch: Option<Else>,
    },
    /// `while (c) invariant…; {…}`; `cond` is `None` for `while (*)`.
    While {
        cond: Option<Expr>,
        invariants: Vec<Invariant>,
        body: Vec<Stmt>,
    },
    Atomic(Vec<Stmt>),
    Break(Option<Ident>),
    Return,
    Goto(Vec<Ident>),
    /// `fork t1, …, tn P(args);` — the thread id is the tuple `tid`.
    Fork {
        tid: Vec<Expr>,
        proc: Ident,
        args: Vec<Expr>,
    },
    /// `join t1, …, tn [assign x, …];`
    Join {
        tid: Vec<Expr>,
        assign: Vec<Ident>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Else {
    Block(Vec<Stmt>),
    /// `else if …`: the nested `If` statement.
    If(Box<Stmt>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Invariant {
    pub free: bool,
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

/// An assignment target: `x`, `x[i]`, `x[i][j]`, `x!f`, …
#[derive(Clone, Debug, PartialEq)]
pub struct Lhs {
    pub base: Ident,
    pub selectors: Vec<Selector>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    Index(Vec<Expr>),
    Field(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
    /// `int(e)`: the integer part (floor) of a real.
    ToInt,
    /// `real(e)`: an integer as a real.
    ToReal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Iff,
    Implies,
    /// `a <== b` means `b ==> a`.
    Explies,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `<:` (partial order on constants)
    Subtype,
    /// `++` (bit-vector concatenation)
    Concat,
    Add,
    Sub,
    Mul,
    /// `/`: integer division on int (SMT `div`), real division on real.
    Div,
    /// `%`: SMT `mod` on int.
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Forall,
    Exists,
    /// `(lambda x: T :: e)`: the map `[T]U` taking each `x` to `e` (Boogie 2).
    Lambda,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    BoolLit(bool),
    /// Decimal digits, arbitrary size.
    IntLit(String),
    /// `123.456` as written.
    RealLit(String),
    /// `5bv32`: value digits and width.
    BvLit {
        value: String,
        width: u32,
    },
    /// A float literal as written (e.g. `0x1.8p1f24e8` or `1.5e10`), kept verbatim for the type checker.
    FloatLit(String),
    Var(Ident),
    Old(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// A type coercion `(e : T)`: `e`, whose type must be `T`.
    Coerce(Box<Expr>, Type),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `m[i, j]`
    Select(Box<Expr>, Vec<Expr>),
    /// `m[i, j := v]`
    Store(Box<Expr>, Vec<Expr>, Box<Expr>),
    /// `e[hi:lo]`
    Extract {
        expr: Box<Expr>,
        hi: u32,
        lo: u32,
    },
    /// `e!f`
    Field(Box<Expr>, Ident),
    /// `f(args)`
    Call(Ident, Vec<Expr>),
    IfThenElse(Box<Expr>, Box<Expr>, Box<Expr>),
    Quant {
        quantifier: Quantifier,
        type_params: Vec<Ident>,
        vars: Vec<TypedIdents>,
        attrs: Vec<Attribute>,
        triggers: Vec<Vec<Expr>>,
        body: Box<Expr>,
    },
    /// `{ f: e, g: e }`
    Record(Vec<(Ident, Expr)>),
}
