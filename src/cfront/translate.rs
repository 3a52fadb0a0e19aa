//! lang-c's C AST → the Boogie parse tree, with C's integer semantics (see `ints`) and Ultimate's
//! memory model (see `mem`).
//!
//! Variables live in Boogie variables (aggregates flattened per field, a pointer as `.base` and
//! `.offset`; a union per field of every member, see `Translator::union_sync`; a struct passed or
//! returned by value per field too) unless their address is taken or they are arrays that decay to pointers: those live in
//! memory. The set of such declarations (`Translator::in_mem`) is a fixpoint found by restarting the
//! translation (`Unsupported::needs_memory`); within one translation it is fixed, so every use of a
//! variable agrees on where it lives.
//!
//! Only functions reachable from `main` are translated, and a global only when it is used, so an
//! unsupported declaration in a header costs nothing until the program uses it. Every construct
//! that is not translated faithfully is an [`Unsupported`] error: never a different program.

use super::Check;
use super::build::*;
use super::ints::{self, Arch, IntKind, IntTy};
use super::preprocess::{
    ACSL_ASSERT, ACSL_CONTRACT, ACSL_ENSURES, ACSL_OLD, ACSL_REQUIRES, ACSL_RESULT, SpanMap,
};
use crate::diag::Span;
use crate::syntax::ast as b;
use crate::syntax::ast::BinOp;
use lang_c::ast as c;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod atomic;
mod float;
mod fptr;
mod mem;
mod strings;
use float::FloatTy;
use mem::{MemUse, SVal, is_null_ptr};

/// A construct that is not translated, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    pub what: String,
    pub span: Span,
    /// Not a limit of the translation: the declaration with this key (see [`Translator::in_mem`])
    /// must live in memory (its address is taken or it is an array that decays to a pointer); the
    /// translation is restarted with it there.
    pub needs_memory: Option<String>,
    /// Not a limit of the translation: it made this many objects with a fixed base, not the
    /// number it started with (`Translator::fixed_bases`); it is restarted with this number.
    pub fixed_bases: Option<usize>,
}

type R<T> = Result<T, Unsupported>;

fn unsupported<T>(what: impl Into<String>, span: Span) -> R<T> {
    Err(Unsupported {
        what: what.into(),
        span,
        needs_memory: None,
        fixed_bases: None,
    })
}

/// Restart the translation with the declaration `key` in memory.
fn needs_memory<T>(key: &str, span: Span) -> R<T> {
    Err(Unsupported {
        what: format!("internal: `{key}` must live in memory"),
        span,
        needs_memory: Some(key.to_string()),
        fixed_bases: None,
    })
}

/// The tag of a union type starts with it (struct and union tags are different name spaces).
const UNION_PREFIX: &str = "union ";

fn is_union(tag: &str) -> bool {
    tag.starts_with(UNION_PREFIX)
}

/// `d` declares a function (`f(…)`, `*f(…)`), not an object.
fn declares_function(d: &Node<c::Declarator>) -> bool {
    matches!(d.node.kind.node, c::DeclaratorKind::Identifier(_))
        && d.node
            .derived
            .iter()
            .find(|x| {
                !matches!(
                    x.node,
                    c::DerivedDeclarator::Pointer(_) | c::DerivedDeclarator::Block(_)
                )
            })
            .is_some_and(|x| {
                matches!(
                    x.node,
                    c::DerivedDeclarator::Function(_) | c::DerivedDeclarator::KRFunction(_)
                )
            })
}

/// The name a declarator declares (`None` for an abstract one).
fn declarator_name(d: &Node<c::Declarator>) -> Option<String> {
    match &d.node.kind.node {
        c::DeclaratorKind::Identifier(i) => Some(i.node.name.clone()),
        c::DeclaratorKind::Abstract => None,
        c::DeclaratorKind::Declarator(inner) => declarator_name(inner),
    }
}

/// The size expression of a declarator's outermost array type when it declares an array of
/// known element type (`a[n]`, `*a[n]`, `a[n][3]`; not `(*a)[n]` or `f(…)[n]`).
fn vla_size(d: &Node<c::Declarator>) -> Option<&Node<c::Expression>> {
    if !matches!(d.node.kind.node, c::DeclaratorKind::Identifier(_)) {
        return None;
    }
    let suffix = d.node.derived.iter().find(|x| {
        !matches!(
            x.node,
            c::DerivedDeclarator::Pointer(_) | c::DerivedDeclarator::Block(_)
        )
    })?;
    match &suffix.node {
        c::DerivedDeclarator::Array(a) => match &a.node.size {
            c::ArraySize::VariableExpression(e) => Some(e),
            _ => None,
        },
        _ => None,
    }
}

/// The length of `int a[] = {…}` until the initialiser gives it.
const UNKNOWN_LEN: u64 = u64::MAX;

/// Most array cells an initialisation may write cell by cell (`aggregate_cells` zeroes an array
/// of integers and pointers at once instead, whatever its size).
const MAX_INIT_CELLS: u64 = 1024;

#[derive(Clone, Debug, PartialEq)]
enum CType {
    Void,
    Int(IntTy),
    /// A floating type (see `float`).
    Float(FloatTy),
    /// A pointer to an object of this type (`Void`: `void *`): a pair `{base, offset}` of integers
    /// (see the module comment).
    Ptr(Box<CType>),
    Array(Box<CType>, u64),
    /// A variable-length array (C11 6.7.6.2p4), only as the type of a block-scope object in
    /// memory: its elements, and the Boogie variable holding its number of elements (the value of
    /// the size expression when the declaration was reached).
    Vla(Box<CType>, String),
    /// A string literal: only its truth value (a non-null address) and its being passed to a
    /// function without body are translated.
    Str,
    /// A struct or a union, by tag (fields in `Translator::structs`; a union's tag starts with
    /// `union `, see [`is_union`]): flattened into one variable per field (a union: per field of
    /// every member, kept consistent by `Translator::union_sync`).
    Struct(String),
    /// A function type: only pointed to (a function pointer is a `Ptr(Fn)`, see `Translator::call`).
    Fn(Box<FnSig>),
    /// A type that is not translated (pointer, struct, float, …): the reason.
    Other(String),
}

/// A member of a struct with bit-fields, in declaration order, for its layout (`mem::bit_layout`).
#[derive(Clone, Debug)]
enum Member {
    /// A named member (a bit-field has an `IntKind::BitField` type).
    Field(CType),
    /// An unnamed bit-field: its declared type and width (0: the next bit-field starts a new
    /// unit).
    Unnamed(IntTy, u8),
}

impl CType {
    fn is_scalar(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Float(_) | CType::Ptr(_))
    }

    fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(t) => t.name().into(),
            CType::Float(t) => t.name().into(),
            CType::Ptr(_) => "pointer".into(),
            CType::Array(..) => "array".into(),
            CType::Vla(..) => "variable-length array".into(),
            CType::Str => "string literal".into(),
            CType::Struct(t) if is_union(t) => t.clone(),
            CType::Struct(t) => format!("struct {t}"),
            CType::Fn(_) => "function".into(),
            CType::Other(s) => s.clone(),
        }
    }
}

/// The type of a function: its result and parameters (`None`: declared without a prototype,
/// `T f()`; a definition `T f() {…}` has none: `Some([])`).
#[derive(Clone, Debug, PartialEq)]
struct FnSig {
    ret: CType,
    params: Option<Vec<CType>>,
    variadic: bool,
}

/// Compatible types (C11 6.2.7), as far as the translated types tell: equal integer types,
/// pointers to compatible types, arrays of compatible elements, the same struct, compatible
/// function types (6.7.6.3p15: a type without prototype is compatible with a prototype whose
/// parameters the default argument promotions leave unchanged, without `...`).
fn compatible(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Ptr(x), CType::Ptr(y)) => compatible(x, y),
        (CType::Array(x, n), CType::Array(y, m)) => {
            compatible(x, y) && (n == m || *n == UNKNOWN_LEN || *m == UNKNOWN_LEN)
        }
        (CType::Fn(f), CType::Fn(g)) => {
            if !compatible(&f.ret, &g.ret) {
                return false;
            }
            match (&f.params, &g.params) {
                (Some(p), Some(q)) => {
                    f.variadic == g.variadic
                        && p.len() == q.len()
                        && p.iter().zip(q).all(|(x, y)| compatible(x, y))
                }
                (None, None) => true,
                (Some(p), None) | (None, Some(p)) => {
                    let proto = if f.params.is_some() { f } else { g };
                    !proto.variadic && p.iter().all(|t| compatible(&promoted(t), t))
                }
            }
        }
        (CType::Other(_), _) | (_, CType::Other(_)) => false,
        _ => a == b,
    }
}

/// The default argument promotion of a type (C11 6.5.2.2p6; arrays and functions decay).
fn promoted(t: &CType) -> CType {
    match t {
        CType::Int(i) => CType::Int(ints::promote(*i)),
        CType::Float(FloatTy::Float) => CType::Float(FloatTy::Double),
        CType::Array(e, _) => CType::Ptr(e.clone()),
        CType::Fn(_) => CType::Ptr(Box::new(t.clone())),
        t => t.clone(),
    }
}

#[derive(Clone, Debug)]
enum V {
    Int(b::Expr),
    /// A value of a floating type (an expression of its Boogie type, see `float`).
    Float(b::Expr),
    Bool(b::Expr),
    /// A pointer `{base, offset}`; also the address of an array or struct in memory (type
    /// `Array`/`Struct`: an array decays to a pointer to its first element where it is used).
    Ptr(b::Expr, b::Expr),
    /// A struct or union held in Boogie variables: the lvalue it is read from.
    Agg(LVal),
}

#[derive(Clone, Debug)]
struct TV {
    v: V,
    ty: CType,
}

impl TV {
    fn int(e: b::Expr, t: IntTy) -> TV {
        TV {
            v: V::Int(e),
            ty: CType::Int(t),
        }
    }

    fn float(e: b::Expr, t: FloatTy) -> TV {
        TV {
            v: V::Float(e),
            ty: CType::Float(t),
        }
    }

    fn boolean(e: b::Expr) -> TV {
        TV {
            v: V::Bool(e),
            ty: CType::Int(IntTy::INT),
        }
    }

    fn void(span: Span) -> TV {
        TV {
            v: V::Int(int(0, span)),
            ty: CType::Void,
        }
    }

    fn int_ty(&self, span: Span) -> R<IntTy> {
        match &self.ty {
            CType::Int(t) => Ok(*t),
            other => unsupported(format!("value of type {}", other.describe()), span),
        }
    }

    fn ptr(b: b::Expr, o: b::Expr, pointee: CType) -> TV {
        TV {
            v: V::Ptr(b, o),
            ty: CType::Ptr(Box::new(pointee)),
        }
    }

    /// The integer value (callers have checked `int_ty`; a pointer has none: its base is returned
    /// only so that this stays total).
    fn to_int(&self, span: Span) -> b::Expr {
        match &self.v {
            V::Int(e) | V::Float(e) => e.clone(),
            V::Bool(c) => ite(c.clone(), int(1, span), int(0, span), span),
            V::Ptr(b, _) => b.clone(),
            V::Agg(lv) => lv.read(span),
        }
    }

    fn to_bool(&self, span: Span) -> R<b::Expr> {
        if matches!(self.ty, CType::Str | CType::Array(..) | CType::Fn(_)) {
            // the address of an object or a function is never null
            return Ok(boolean(true, span));
        }
        if let (CType::Ptr(_), V::Ptr(b, o)) = (&self.ty, &self.v) {
            return Ok(not(is_null_ptr(b, o, span), span));
        }
        if let (CType::Float(t), V::Float(e)) = (&self.ty, &self.v) {
            return Ok(not(float::is_zero(e.clone(), *t, span), span));
        }
        self.int_ty(span)?;
        Ok(match &self.v {
            V::Bool(c) => c.clone(),
            V::Int(e) | V::Ptr(e, _) => match as_lit(e) {
                Some(v) => boolean(!v.is_zero(), span),
                None => bin(BinOp::Neq, e.clone(), int(0, span), span),
            },
            V::Agg(_) => return unsupported("struct used as a condition", span),
            V::Float(_) => return unsupported("float of an integer type", span),
        })
    }
}

#[derive(Clone, Debug)]
enum Binding {
    Local {
        name: String,
        ty: CType,
    },
    /// A local (or parameter) that lives in memory: `base` is the Boogie variable holding the base
    /// address of its object (offset 0).
    Mem {
        base: String,
        ty: CType,
    },
    Global(String),
    /// An enumeration constant: its value and type (`int` where the value fits, else the
    /// enumeration's type, as GCC has it).
    Enum(BigInt, IntTy),
    Typedef(CType),
}

#[derive(Clone)]
struct FnInfo<'a> {
    ret: CType,
    /// Name, type and declaration key (see `Translator::in_mem`) of each parameter.
    params: Vec<(Option<String>, CType, String)>,
    variadic: bool,
    def: Option<&'a Node<c::FunctionDefinition>>,
    /// Declared or defined in the main file (not only in a system header).
    in_main: bool,
    span: Span,
}

struct Global<'a> {
    name: String,
    ty: CType,
    /// Lives in memory (its address is taken): `#addr` followed by `name` holds its base.
    mem: bool,
    /// Declared `pthread_mutex_t m` (not a pointer or array): usable only as `&m` in the
    /// `pthread_mutex_*` functions, as an `int` (0 unlocked, 1 locked).
    mutex: bool,
    init: Option<&'a Node<c::Initializer>>,
    order: usize,
    span: Span,
}

/// The parameter list of a function declarator: a prototype, or `()` (old style, no parameters).
#[derive(Clone, Copy)]
enum FDecl<'a> {
    Proto(&'a c::FunctionDeclarator),
    NoParams,
    /// A K&R-style definition's identifier list and the declarations of its parameters (one
    /// without a declaration is an `int`, C89 3.7.1).
    KR(&'a [Node<c::Identifier>], &'a [Node<c::Declaration>]),
}

/// A scalar cell of an aggregate: the leaf's path, the array indices, the byte offset in the
/// aggregate, the type (an integer or a pointer).
#[derive(Clone, Debug)]
struct Cell {
    path: String,
    idx: Vec<u64>,
    off: u64,
    ty: CType,
    /// The unions of the aggregate the cell is in (outermost first).
    unions: Vec<CellUnion>,
}

/// What initialises a scalar cell: an expression of the program, or a character of a string
/// literal that initialises a character array.
#[derive(Clone, Copy, Debug)]
enum Init<'a> {
    Expr(&'a Node<c::Expression>),
    Char(u8),
}

/// The initialiser of each scalar cell given one, by the cell's path and indices.
type Given<'a> = BTreeMap<(String, Vec<u64>), Init<'a>>;

/// The string literal of a braced initialiser `{"abc"}`: one item without designation.
fn braced_string(items: &[Node<c::InitializerListItem>]) -> Option<&Node<c::Expression>> {
    match items {
        [one] if one.node.designation.is_empty() => match &one.node.initializer.node {
            c::Initializer::Expression(e) if matches!(e.node, c::Expression::StringLiteral(_)) => {
                Some(e)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The type of the character array of unknown size `ty` completed by the string literal `e`
/// (its characters and the terminating zero); `None` if `ty` is not such an array or `e` not
/// such a literal.
fn string_completes(ty: &CType, e: &Node<c::Expression>) -> Option<CType> {
    let CType::Array(elem, UNKNOWN_LEN) = ty else {
        return None;
    };
    let bytes = char_array_string(ty, e)?;
    Some(CType::Array(elem.clone(), bytes.len() as u64))
}

/// The characters `e` puts into the character array `ty` when it initialises it: a plain string
/// literal's bytes and, if the array has room, the terminating zero (`None`: `ty` is not an array
/// of a character type or `e` not such a literal).
fn char_array_string(ty: &CType, e: &Node<c::Expression>) -> Option<Vec<u8>> {
    let CType::Array(elem, n) = ty else {
        return None;
    };
    let CType::Int(t) = **elem else {
        return None;
    };
    if t.kind != IntKind::Char {
        return None;
    }
    let c::Expression::StringLiteral(pieces) = &e.node else {
        return None;
    };
    let mut bytes = string_bytes(&pieces.node)?;
    if (bytes.len() as u64) < *n {
        bytes.push(0);
    }
    Some(bytes)
}

/// A union of an aggregate that a cell is in: the union (as a cell of the aggregate), the
/// member, the offset of the cell in the union.
#[derive(Clone, Debug)]
struct CellUnion {
    at: Cell,
    member: String,
    off: u64,
}

/// Where an lvalue lives: Boogie variables, or memory.
#[derive(Clone, Debug)]
enum Place {
    Var(LVal),
    /// `ty` at `{base, offset}`; `safe`: a named object or a part of it at a constant offset, whose
    /// accesses need no check.
    Mem {
        base: b::Expr,
        off: b::Expr,
        ty: CType,
        safe: bool,
        unions: Vec<InUnion>,
    },
}

/// A union enclosing a place (outermost first): a write to the place also writes the other
/// members of the union (`Translator::union_sync`).
#[derive(Clone, Debug)]
struct InUnion {
    /// The union object (without enclosing unions: those are before it in the list).
    root: Box<Place>,
    tag: String,
    /// The member the place is in.
    member: String,
    /// The byte offset of the place in the union (`None`: not a constant).
    off: Option<u64>,
}

#[derive(Clone, Debug)]
struct LVal {
    base: String,
    /// `.f.g`: the fields selected so far (the Boogie variable is `base` followed by the path of
    /// a leaf).
    path: String,
    indices: Vec<b::Expr>,
    ty: CType,
    /// The unions the lvalue is in.
    unions: Vec<InUnion>,
}

impl LVal {
    fn name(&self) -> String {
        format!("{}{}", self.base, self.path)
    }

    fn read(&self, span: Span) -> b::Expr {
        self.leaf_read("", span)
    }

    /// The variable of a leaf below this lvalue (`.base` of a pointer), indexed.
    fn leaf_read(&self, suffix: &str, span: Span) -> b::Expr {
        let mut e = var(&format!("{}{suffix}", self.name()), span);
        for i in &self.indices {
            e = ex(b::ExprKind::Select(Box::new(e), vec![i.clone()]), span);
        }
        e
    }
}

/// The target of `break`, with the depth of `FnCtx::mem_scopes` it leaves to.
enum BreakTarget {
    Loop(usize),
    Label(String, usize),
}

struct SwitchCtx {
    ty: IntTy,
    /// The values of each case (a GNU case range `lo ... hi`, or `lo` alone), `None`: `default`.
    cases: Vec<(Option<(BigInt, BigInt)>, String)>,
}

#[derive(Default)]
struct FnCtx {
    locals: Vec<(String, b::Type)>,
    counter: usize,
    /// The result type (an integer or a pointer; `None`: `void`).
    ret: Option<CType>,
    /// Continue label of each enclosing loop, whether it is used, the depth of `mem_scopes` at
    /// the loop.
    loops: Vec<(String, bool, usize)>,
    /// The stack objects of each open block (Boogie variables holding their bases), invalidated
    /// when the block is left.
    mem_scopes: Vec<Vec<String>>,
    /// The function has a stack object of a nested block, or one of its outermost block that is
    /// not allocated when it starts (`hoist`: a variable-length array) met after a label or a
    /// `goto` / contains a `goto`: the two together are not translated (a jump could leave the
    /// block without invalidating the object, or skip or repeat its allocation). `alloca`
    /// objects, allocated where reached, live until the function returns anyway.
    late_objects: bool,
    gotos: bool,
    /// A label or a `goto` has been translated.
    jumps_seen: bool,
    /// The function contains a `goto`: the objects of its outermost block (not variable-length
    /// arrays) are allocated when it starts, in `hoisted` (their lifetime is the whole block,
    /// C11 6.2.4p6: a jump back over a declaration or a compound literal meets the same object,
    /// 6.5.2.5p15).
    hoist: bool,
    hoisted: Vec<b::Stmt>,
    /// Translating a loop condition or step (nesting depth).
    loop_header: usize,
    breaks: Vec<BreakTarget>,
    switches: Vec<SwitchCtx>,
    /// Translating a thread start routine (its result is never read: `return e` evaluates `e`
    /// only when it is a side-effect-free expression; `pthread_exit` returns).
    thread: bool,
    /// The C name of the function being translated.
    name: String,
    /// A variadic function: the locals holding the address of its extra arguments (`va_start`).
    va: Option<(String, String)>,
}

struct ProcOut {
    name: String,
    params: Vec<b::TypedIdents>,
    returns: Vec<b::TypedIdents>,
    locals: Vec<(String, b::Type)>,
    /// `None`: a function without body that has an ACSL contract.
    body: Option<Vec<b::Stmt>>,
    /// The ACSL contract.
    specs: Vec<b::Spec>,
    span: Span,
}

pub struct Translator<'a> {
    arch: Arch,
    map: &'a SpanMap,
    /// The C program behind the translation, for witnesses (`super::CMap`).
    cmap: super::CMap,
    /// The locals of `cmap` whose block is open: the depth of `scopes` they are bound at and
    /// their index in `cmap.locals`.
    open_locals: Vec<(usize, usize)>,
    scopes: Vec<HashMap<String, Binding>>,
    funcs: HashMap<String, FnInfo<'a>>,
    globals: BTreeMap<String, Global<'a>>,
    used_globals: BTreeSet<String>,
    queue: Vec<String>,
    queued: BTreeSet<String>,
    procs: Vec<ProcOut>,
    f: FnCtx,
    statics: usize,
    /// Failing file-scope static assertions (checked at the start of `ULTIMATE.start`).
    file_asserts: Vec<b::Stmt>,
    /// Struct tags and their fields (`Err`: the tag is not translated, and why).
    structs: HashMap<String, Result<Vec<(String, CType)>, String>>,
    /// The members of each struct with bit-fields in declaration order, unnamed bit-fields
    /// included, for its layout (`mem::bit_layout`).
    bit_structs: HashMap<String, Vec<Member>>,
    /// An ACSL contract waiting for the function it precedes; contracts by function.
    pending_contract: Option<&'a Node<c::FunctionDefinition>>,
    contracts: HashMap<String, &'a Node<c::FunctionDefinition>>,
    /// Translating a postcondition (where `\old` is allowed).
    in_ensures: bool,
    contract_error: Option<Unsupported>,
    /// Functions named as the start routine of a `pthread_create` anywhere in the program.
    thread_fns: BTreeSet<String>,
    /// The program forks threads: the global fork counter `#pthreadsForks` is declared.
    forks: bool,
    /// `__VERIFIER_atomic_begin`/`_end` are called: declared as body-less procedures.
    atomic_markers: bool,
    /// The over-approximating functions used (bitwise operators, `bitwise_overapprox`; function
    /// pointers, `fptr`), declared as `{:overapproximation}` functions of two integers; an
    /// operator's name carries the width of its operands (`bitwiseAnd~32`).
    bitwise_fns: BTreeSet<String>,
    /// `~unspecified` is applied (`union_sync`): declared as an `{:overapproximation}` function.
    unspecified_used: bool,
    /// The float types and floating-point functions used (`float`), declared by `finish`.
    fp_used: std::cell::RefCell<BTreeSet<float::FpFn>>,
    /// Sub-aggregates initialised by a struct value (`{ s, 1 }`), found by `fill_list`: path,
    /// indices, type, expression.
    #[allow(clippy::type_complexity)]
    agg_given: Vec<(String, Vec<u64>, CType, &'a Node<c::Expression>)>,
    /// The over-approximated integer–pointer conversions used (`mem::PTR_TO_INT`,
    /// `mem::INT_TO_PTR`), declared as `{:overapproximation}` functions.
    conv_fns: BTreeSet<&'static str>,
    /// The first conversion between `void *` and each character type's pointer (not from a fresh
    /// allocation), and the first between `void *` and another object pointer: both together are
    /// not translated (see `mem::Translator::ptr_compatible`).
    void_char: Vec<(IntTy, Span)>,
    void_other: Vec<(CType, Span)>,
    /// The pointed-to types of the conversions between object pointers that only
    /// `mem::foreign_conversions` accepts, where they are.
    foreign: Vec<(CType, Span)>,
    /// The pointed-to types of the pointers dereferenced, and of the pointers converted to
    /// another pointer type (see `mem::foreign_conversions`).
    derefs: Vec<CType>,
    converted: Vec<CType>,
    /// Mutexes used (keys of `globals`).
    used_mutexes: BTreeSet<String>,
    /// Where an object of an `_Atomic`-qualified type is first declared (directly or through a
    /// typedef of `atomic_typedefs`): its read-modify-write operations (`++`, `+=`) are atomic in
    /// C11, which the translation does not model, so a program with threads is not translated.
    atomic_use: Option<Span>,
    atomic_typedefs: BTreeSet<String>,
    /// Globals declared `_Atomic` by themselves (`_Atomic int c;`, `atomic_int c;`: keys of
    /// `globals`): their `++`, `--` and compound assignments are one atomic step (`atomic_rmw`);
    /// one that is not an integer or lives in memory is not translated in a program with threads.
    atomic_globals: BTreeSet<String>,
    /// Only calls of `reach_error` are checked (SV-COMP's `unreach-call`): other checks (`assert`,
    /// ACSL assertions, division by zero, array bounds, static assertions, memory safety) become
    /// assumptions.
    pub reach_only: bool,
    /// Check for data races only (`super::race`): other checks are assumptions, `reach_error`
    /// ends the path.
    pub data_race: bool,
    /// Check only signed overflow (`no-overflow`, see `Options::overflow`).
    pub overflow: bool,
    /// Check only memory safety (`valid-memsafety`, see `Options::memsafety`).
    pub memsafety: bool,
    /// Check only that heap memory is freed at the end (`valid-memcleanup`).
    pub memcleanup: bool,
    /// Keys of the declarations that live in memory: `G<name>` for globals (the key of
    /// `globals`), `L<offset>` for locals and `P<offset>` for parameters (the offset of the
    /// declarator in the preprocessed text); `F<name>` for a function whose address is taken (it
    /// has a base address, see `fptr`). Found by restarting the translation
    /// (`Unsupported::needs_memory`) until no other declaration needs it.
    pub in_mem: BTreeSet<String>,
    /// The declaration key of each Boogie variable that holds a C variable (for `needs_memory`).
    var_keys: HashMap<String, String>,
    /// Set while `declarator` reads a block-scope object's declarator whose outermost array
    /// size is not a constant (see `vla_size`): the Boogie variable holding that size, which
    /// makes the type a [`CType::Vla`]. `Some("")` while it reads a parameter's declarator,
    /// whose outermost array type becomes a pointer (C11 6.7.6.3p7): its size is not needed.
    vla_count: Option<String>,
    /// The integer type of each tagged enumeration defined so far (GCC's choice: `unsigned int`
    /// when no enumerator is negative, else `int`).
    enum_types: HashMap<String, IntTy>,
    /// Parts of the memory model used.
    mem: MemUse,
    /// Temporaries holding the base of a fresh allocation (its `void *` may become a `char *`).
    fresh: BTreeSet<String>,
    /// The bytes of each string literal (without the terminating zero); those used as pointers are
    /// objects of static storage, allocated by `finish`.
    strings: Vec<Vec<u8>>,
    used_strings: BTreeSet<usize>,
    /// Whether the program compares two pointers for equality or converts one to an integer: only
    /// then can it tell whether two objects are one (string literals with the same characters).
    addresses_observed: bool,
    /// The base variables of compound literals at file scope (objects of static storage, C11
    /// 6.5.2.5p5), allocated and initialised where the global initialiser that contains them is.
    static_literals: Vec<String>,
    /// The number of objects with a fixed base (`mem::alloc_fixed`) the previous translation
    /// made: dynamic stack objects are allocated below all of them. A translation that makes
    /// another number is restarted with it (`Unsupported::fixed_bases`).
    pub fixed_bases: usize,
    /// The objects with a fixed base made so far.
    fixed_made: usize,
    /// `main` runs once: it is the entry and no expression names it (no call, no address), so
    /// the objects of its outermost block are allocated once per execution.
    main_once: bool,
}

/// The fork counter: the thread id of the next `pthread_create` (as Ultimate's `#pthreadsForks`).
const FORK_COUNTER: &str = "#pthreadsForks";

/// Collects the start routines named in `pthread_create` calls (`f`, `&f`, casts of them), and
/// whether one passes another expression (a function pointer, see `pthread_create_pointer`).
#[derive(Default)]
struct ThreadRoutines(BTreeSet<String>, bool);

impl<'ast> lang_c::visit::Visit<'ast> for ThreadRoutines {
    fn visit_call_expression(
        &mut self,
        call: &'ast c::CallExpression,
        span: &'ast lang_c::span::Span,
    ) {
        if let c::Expression::Identifier(f) = &call.callee.node {
            if f.node.name == "pthread_create" {
                match call.arguments.get(2).map(|a| function_name(&a.node)) {
                    Some(Some(name)) => {
                        self.0.insert(name.to_string());
                    }
                    Some(None) => self.1 = true,
                    None => {}
                }
            }
        }
        lang_c::visit::visit_call_expression(self, call, span);
    }
}

/// Whether an expression names `main` (a call of it, its address): then `main` may run more
/// than once.
struct NamesMain(bool);

impl<'ast> lang_c::visit::Visit<'ast> for NamesMain {
    fn visit_expression(&mut self, e: &'ast c::Expression, span: &'ast lang_c::span::Span) {
        if matches!(e, c::Expression::Identifier(i) if i.node.name == "main") {
            self.0 = true;
        }
        lang_c::visit::visit_expression(self, e, span);
    }
}

/// Whether a function body contains a `goto`.
struct HasGoto(bool);

impl<'ast> lang_c::visit::Visit<'ast> for HasGoto {
    fn visit_statement(&mut self, s: &'ast c::Statement, span: &'ast lang_c::span::Span) {
        if matches!(s, c::Statement::Goto(_)) {
            self.0 = true;
        }
        lang_c::visit::visit_statement(self, s, span);
    }
}

/// `f`, `&f`, `(T)f`: the function named.
fn function_name(e: &c::Expression) -> Option<&str> {
    match e {
        c::Expression::Identifier(i) => Some(&i.node.name),
        c::Expression::Cast(c) => function_name(&c.node.expression.node),
        c::Expression::UnaryOperator(u) if u.node.operator.node == c::UnaryOperator::Address => {
            function_name(&u.node.operand.node)
        }
        _ => None,
    }
}

/// A null pointer constant: `0`, `NULL` (`(void *)0`), casts of it.
fn is_null(e: &c::Expression) -> bool {
    match e {
        c::Expression::Constant(k) => match &k.node {
            c::Constant::Integer(i) => i.number.chars().all(|c| c == '0'),
            _ => false,
        },
        c::Expression::Cast(c) => is_null(&c.node.expression.node),
        _ => false,
    }
}

/// Evaluating the expression has no effect and cannot fail (its value may be of any type): a
/// variable, a constant, a string, `&x`, casts of these.
fn is_inert(e: &c::Expression) -> bool {
    match e {
        c::Expression::Identifier(_)
        | c::Expression::Constant(_)
        | c::Expression::StringLiteral(_) => true,
        c::Expression::Cast(c) => is_inert(&c.node.expression.node),
        c::Expression::UnaryOperator(u) => {
            u.node.operator.node == c::UnaryOperator::Address
                && matches!(u.node.operand.node, c::Expression::Identifier(_))
        }
        _ => false,
    }
}

/// Names of Boogie keywords a C function could be called.
const BOOGIE_KEYWORDS: &[&str] = &[
    "assert",
    "assume",
    "atomic",
    "axiom",
    "bool",
    "break",
    "call",
    "complete",
    "const",
    "div",
    "else",
    "ensures",
    "exists",
    "false",
    "finite",
    "forall",
    "fork",
    "free",
    "function",
    "goto",
    "havoc",
    "if",
    "implementation",
    "int",
    "invariant",
    "join",
    "lambda",
    "mod",
    "modifies",
    "old",
    "procedure",
    "real",
    "requires",
    "return",
    "returns",
    "then",
    "true",
    "type",
    "unique",
    "var",
    "where",
    "while",
    "async",
];

fn proc_name(c: &str) -> String {
    if BOOGIE_KEYWORDS.contains(&c) {
        format!("{c}~")
    } else {
        c.to_string()
    }
}

/// The Boogie variables a scalar is: `""` for an integer or float, `.base` and `.offset` for a
/// pointer (none: not a scalar).
fn scalar_suffixes(t: &CType) -> Vec<&'static str> {
    match t {
        CType::Int(_) | CType::Float(_) => vec![""],
        CType::Ptr(_) => vec![".base", ".offset"],
        _ => Vec::new(),
    }
}

/// A Boogie variable of a flattened value: its path suffix, its map dimensions and its element
/// type (`None`: `int`).
type Leaf = (String, usize, Option<FloatTy>);

/// The Boogie type of a leaf: `int` or a float type, under `dims` map dimensions.
fn leaf_type(dims: usize, elem: Option<FloatTy>, span: Span) -> b::Type {
    match elem {
        None => int_map_type(dims, span),
        Some(f) => mem::map_type(dims, f.boogie_type(span), span),
    }
}

fn unsigned_of(t: IntTy) -> Option<IntTy> {
    (!t.signed).then_some(t)
}

impl<'a> Translator<'a> {
    pub fn new(arch: Arch, map: &'a SpanMap) -> Self {
        Translator {
            arch,
            map,
            cmap: super::CMap::default(),
            open_locals: Vec::new(),
            scopes: vec![HashMap::new()],
            funcs: HashMap::new(),
            globals: BTreeMap::new(),
            used_globals: BTreeSet::new(),
            queue: Vec::new(),
            queued: BTreeSet::new(),
            procs: Vec::new(),
            f: FnCtx::default(),
            statics: 0,
            file_asserts: Vec::new(),
            structs: HashMap::new(),
            bit_structs: HashMap::new(),
            pending_contract: None,
            contracts: HashMap::new(),
            in_ensures: false,
            contract_error: None,
            thread_fns: BTreeSet::new(),
            forks: false,
            atomic_markers: false,
            used_mutexes: BTreeSet::new(),
            atomic_use: None,
            atomic_typedefs: BTreeSet::new(),
            atomic_globals: BTreeSet::new(),
            reach_only: false,
            data_race: false,
            overflow: false,
            memsafety: false,
            memcleanup: false,
            bitwise_fns: BTreeSet::new(),
            fp_used: Default::default(),
            unspecified_used: false,
            agg_given: Vec::new(),
            conv_fns: BTreeSet::new(),
            void_char: Vec::new(),
            void_other: Vec::new(),
            foreign: Vec::new(),
            derefs: Vec::new(),
            converted: Vec::new(),
            in_mem: BTreeSet::new(),
            var_keys: HashMap::new(),
            vla_count: None,
            enum_types: HashMap::new(),
            mem: MemUse::default(),
            fresh: BTreeSet::new(),
            strings: Vec::new(),
            used_strings: BTreeSet::new(),
            addresses_observed: false,
            static_literals: Vec::new(),
            fixed_bases: 0,
            fixed_made: 0,
            main_once: false,
        }
    }

    /// Whether the property checks only one kind of thing, so that `reach_error` ends the path
    /// and contracts are not checked (`no-data-race`, `no-overflow`, `valid-memsafety`).
    fn other_property(&self) -> bool {
        self.data_race || self.overflow || self.memsafety || self.memcleanup
    }

    /// Whether checks of `kind` are asserted under the property; `None`: neither asserted nor
    /// assumed (checks that only their own property makes: without them the semantics is that of
    /// the default property).
    fn asserts(&self, kind: Check) -> Option<bool> {
        use Check as K;
        let own = matches!(
            kind,
            K::Overflow | K::Memtrack | K::MemtrackUnsure | K::Memcleanup | K::MemcleanupUnsure
        );
        let asserted = if self.reach_only || self.data_race {
            false
        } else if self.overflow {
            kind == K::Overflow
        } else if self.memsafety {
            matches!(kind, K::Deref | K::Free | K::Memtrack | K::MemtrackUnsure)
        } else if self.memcleanup {
            matches!(kind, K::Memcleanup | K::MemcleanupUnsure)
        } else {
            !own
        };
        (asserted || !own).then_some(asserted)
    }

    /// A check other than `reach_error`: an assertion with the attribute `{:check "name"}` when
    /// the property checks `kind`, else an assumption (or nothing, see `asserts`).
    fn check(&self, kind: Check, e: b::Expr, span: Span) -> Option<b::Stmt> {
        match self.asserts(kind)? {
            true => {
                let mut s = assert(e, span);
                if let b::StmtKind::Assert { attrs, .. } = &mut s.kind {
                    attrs.push(b::Attribute {
                        name: ident("check", span),
                        args: vec![b::AttrArg::Str(kind.name().to_string())],
                        span,
                    });
                }
                Some(s)
            }
            false => Some(assume(e, span)),
        }
    }

    fn sp(&self, s: lang_c::span::Span) -> Span {
        self.map.span(s.start, s.end)
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    /// Notes the C local `name` of type `ty`, held in the Boogie variable `boogie` from `start`
    /// to the end of the current block, for witnesses (integers only).
    fn note_local(&mut self, name: &str, boogie: &str, ty: &CType, start: u32) {
        let CType::Int(t) = ty else { return };
        self.open_locals
            .push((self.scopes.len(), self.cmap.locals.len()));
        self.cmap.locals.push(super::CVar {
            name: name.to_string(),
            boogie: boogie.to_string(),
            function: self.f.name.clone(),
            min: t.min(self.arch),
            max: t.max(self.arch),
            scope: Span::new(start as usize, start as usize),
        });
    }

    /// Ends the scope of the noted locals of the innermost block at `end` (before it is popped).
    fn close_locals(&mut self, end: u32) {
        let depth = self.scopes.len();
        while let Some(&(d, i)) = self.open_locals.last() {
            if d < depth {
                break;
            }
            self.open_locals.pop();
            self.cmap.locals[i].scope.end = end.max(self.cmap.locals[i].scope.start);
        }
    }

    /// Notes the branch point `kind` (its C condition at `c_cond`) whose Boogie condition `cond`
    /// (of the `if` or `while` with span `span`) is the C condition, or (`negated`) its negation.
    fn note_branch(
        &mut self,
        kind: super::BranchKind,
        c_cond: Span,
        cond: &b::Expr,
        negated: bool,
        span: Span,
    ) {
        let mut nots = 0;
        let mut e = cond;
        while let b::ExprKind::Unary(b::UnOp::Not, inner) = &e.kind {
            nots += 1;
            e = inner;
        }
        if matches!(e.kind, b::ExprKind::BoolLit(_)) {
            return; // a constant condition: one edge is `assume true`, the other infeasible
        }
        self.cmap.branches.push(super::CBranch {
            kind,
            span,
            cond: c_cond,
            nots,
            negated,
        });
    }

    // ----- declarations -------------------------------------------------------------------

    /// Reads the file-scope declarations, then translates `main` and every function it reaches.
    pub fn translate(mut self, unit: &'a c::TranslationUnit) -> R<(b::Program, super::Notes)> {
        for ext in &unit.0 {
            let waiting = self.pending_contract.is_some();
            match &ext.node {
                c::ExternalDeclaration::Declaration(d) => self.global_declaration(d)?,
                c::ExternalDeclaration::StaticAssert(sa) => {
                    if self.map.in_main(sa.span.start) {
                        let span = self.sp(sa.span);
                        let mut out = Vec::new();
                        self.static_assert(&sa.node.expression, span, &mut out)?;
                        self.file_asserts.extend(out);
                    }
                }
                c::ExternalDeclaration::FunctionDefinition(fd) => self.function_definition(fd),
            }
            if waiting && self.pending_contract.is_some() {
                return unsupported(
                    "ACSL contract that does not precede a function",
                    self.sp(ext.span),
                );
            }
            if let Some(e) = self.contract_error.take() {
                return Err(e);
            }
        }
        if let Some(c) = self.pending_contract {
            return unsupported(
                "ACSL contract that does not precede a function",
                self.sp(c.span),
            );
        }
        // The functions a run starts in: `main`, or without one (library mode, as Ultimate's
        // translation does) any function the file defines, with arbitrary integer arguments.
        let entries: Vec<String> = match self.funcs.get("main") {
            Some(FnInfo { def: Some(_), .. }) => vec!["main".to_string()],
            _ => {
                let mut defined: Vec<(&String, &FnInfo)> = self
                    .funcs
                    .iter()
                    .filter(|(_, i)| i.def.is_some() && i.in_main)
                    .collect();
                defined.sort_by_key(|(_, i)| i.span.start);
                if defined.is_empty() {
                    return unsupported(
                        "a program without a `main` function or any other function definition",
                        Span::new(0, 0),
                    );
                }
                for (name, info) in &defined {
                    if let Some((_, t, _)) = info
                        .params
                        .iter()
                        .find(|(_, t, _)| !matches!(t, CType::Int(_)))
                    {
                        return unsupported(
                            format!(
                                "a program without `main` whose function `{name}` has a parameter of type {}",
                                t.describe()
                            ),
                            info.span,
                        );
                    }
                }
                defined.into_iter().map(|(n, _)| n.clone()).collect()
            }
        };
        let main_span = self.funcs[&entries[0]].span;
        let mut routines = ThreadRoutines::default();
        lang_c::visit::Visit::visit_translation_unit(&mut routines, unit);
        let ThreadRoutines(names, pointer) = routines;
        // a start routine held in a variable: every function whose address is taken and that has
        // the shape of a start routine is one
        if pointer
            || names
                .iter()
                .any(|n| self.funcs.get(n).is_none_or(|i| i.def.is_none()))
        {
            let shaped: Vec<String> = self
                .address_taken()
                .filter(|f| self.thread_shaped(f))
                .map(String::from)
                .collect();
            self.thread_fns.extend(shaped);
        }
        self.thread_fns.extend(names);
        if self.thread_fns.contains("main") {
            return unsupported("`main` as a thread start routine", main_span);
        }
        if entries[0] != "main" && !self.thread_fns.is_empty() {
            return unsupported("threads in a program without `main`", main_span);
        }
        for e in entries.iter().rev() {
            self.enqueue(e);
        }
        let mut names_main = NamesMain(false);
        lang_c::visit::Visit::visit_translation_unit(&mut names_main, unit);
        self.main_once = entries[0] == "main" && !names_main.0;
        while let Some(name) = self.queue.pop() {
            self.function(&name)?;
        }
        self.finish(main_span, &entries)
    }

    fn enqueue(&mut self, name: &str) {
        if self.queued.insert(name.to_string()) {
            self.queue.push(name.to_string());
        }
    }

    /// The declaration specifiers name the typedef `name`.
    fn names_type(specs: &[Node<c::DeclarationSpecifier>], name: &str) -> bool {
        specs.iter().any(|s| {
            matches!(&s.node, c::DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, c::TypeSpecifier::TypedefName(n) if n.node.name == name))
        })
    }

    fn storage(specs: &[Node<c::DeclarationSpecifier>]) -> Option<c::StorageClassSpecifier> {
        specs.iter().find_map(|s| match &s.node {
            c::DeclarationSpecifier::StorageClass(sc) => Some(sc.node.clone()),
            _ => None,
        })
    }

    fn global_declaration(&mut self, d: &'a Node<c::Declaration>) -> R<()> {
        // The parameters of a function declared without a body are no objects (`<stdatomic.h>`
        // declares `atomic_flag_clear(volatile atomic_flag *)`).
        let before = self.atomic_use;
        let r = self.global_declaration_inner(d);
        let ids = &d.node.declarators;
        if !ids.is_empty() && ids.iter().all(|id| declares_function(&id.node.declarator)) {
            self.atomic_use = before;
        }
        // `_Atomic int c;`: atomic globals whose read-modify-writes are translated atomically
        let specs = &d.node.specifiers;
        let atomic = self.atomic_specs(specs);
        let plain = |id: &Node<c::InitDeclarator>| {
            let dd = &id.node.declarator.node;
            dd.derived.is_empty() && matches!(dd.kind.node, c::DeclaratorKind::Identifier(_))
        };
        if atomic
            && Self::storage(specs) != Some(c::StorageClassSpecifier::Typedef)
            && !ids.is_empty()
            && ids.iter().all(plain)
        {
            self.atomic_use = before;
            for id in ids {
                if let c::DeclaratorKind::Identifier(i) = &id.node.declarator.node.kind.node {
                    self.atomic_globals.insert(i.node.name.clone());
                }
            }
        }
        r
    }

    fn global_declaration_inner(&mut self, d: &'a Node<c::Declaration>) -> R<()> {
        let storage = Self::storage(&d.node.specifiers);
        let base = self.base_type_decl(&d.node.specifiers);
        for id in &d.node.declarators {
            let (name, ty, fdecl) = self.declarator(base.clone(), &id.node.declarator);
            let Some(name) = name else { continue };
            let span = self.sp(id.span);
            if storage == Some(c::StorageClassSpecifier::Typedef) {
                let ty = self.typedef_type(ty, fdecl);
                self.atomic_typedef(&name, &d.node.specifiers);
                self.scopes[0].insert(name, Binding::Typedef(ty));
                continue;
            }
            if let Some(fd) = fdecl {
                self.declare_function(&name, ty, fd, None, span, id.span.start);
                continue;
            }
            let ty = match &id.node.initializer {
                Some(_) => self.complete_array(ty, id.node.initializer.as_ref()),
                None => ty,
            };
            let order = self.globals.len();
            let mutex = ty == base && Self::names_type(&d.node.specifiers, "pthread_mutex_t");
            let mem = self.in_mem.contains(&format!("G{name}"));
            self.var_keys.insert(format!("~{name}"), format!("G{name}"));
            let entry = self.globals.entry(name.clone()).or_insert_with(|| Global {
                name: format!("~{name}"),
                ty: ty.clone(),
                mem,
                mutex,
                init: None,
                order,
                span,
            });
            if id.node.initializer.is_some() {
                entry.init = id.node.initializer.as_ref();
                entry.ty = ty;
                entry.span = span;
            } else if matches!(entry.ty, CType::Array(..)) && !matches!(ty, CType::Array(..)) {
                // keep the sized declaration
            } else if let (CType::Other(_), CType::Array(..)) = (&entry.ty, &ty) {
                entry.ty = ty;
            }
            self.scopes[0].insert(name.clone(), Binding::Global(name));
        }
        Ok(())
    }

    /// Name, type and declaration key of each parameter of a function declarator (a parameter of
    /// array or function type is a pointer, C11 6.7.6.3p7–8), and whether it ends with `...`.
    fn parameters(&mut self, fd: FDecl<'a>) -> (Vec<(Option<String>, CType, String)>, bool) {
        let mut params = Vec::new();
        let (parameters, variadic): (&[Node<c::ParameterDeclaration>], bool) = match fd {
            FDecl::Proto(f) => (&f.parameters, matches!(f.ellipsis, c::Ellipsis::Some)),
            FDecl::NoParams => (&[], false),
            FDecl::KR(ids, decls) => return (self.kr_parameters(ids, decls), false),
        };
        for p in parameters {
            let base = self.base_type_decl(&p.node.specifiers);
            let (pname, ty) = match &p.node.declarator {
                Some(d) => {
                    // `int a[n]` is `int *a`: a size that is a variable need not be constant
                    let vla = vla_size(d).is_some_and(|e| {
                        matches!(e.node, c::Expression::Identifier(_))
                            && self.const_eval(e).is_none()
                    });
                    if vla {
                        self.vla_count = Some(String::new());
                    }
                    let (n, t, f) = self.declarator(base, d);
                    self.vla_count = None;
                    match f {
                        Some(f) => {
                            let sig = self.fn_sig(t, f);
                            (n, CType::Ptr(Box::new(CType::Fn(Box::new(sig)))))
                        }
                        None => (n, t),
                    }
                }
                None => (None, base),
            };
            let ty = match ty {
                CType::Array(e, _) => CType::Ptr(e),
                CType::Fn(f) => CType::Ptr(Box::new(CType::Fn(f))),
                t => t,
            };
            params.push((pname, ty, format!("P{}", p.span.start)));
        }
        if params.len() == 1 && params[0].1 == CType::Void && params[0].0.is_none() {
            params.clear();
        }
        (params, variadic)
    }

    /// The parameters of a K&R-style definition: each identifier with the type its declaration
    /// gives it (`int` without one); array and function types become pointers.
    fn kr_parameters(
        &mut self,
        ids: &'a [Node<c::Identifier>],
        decls: &'a [Node<c::Declaration>],
    ) -> Vec<(Option<String>, CType, String)> {
        let mut params = Vec::new();
        for id in ids {
            let mut ty = CType::Int(IntTy::INT);
            for d in decls {
                for init in &d.node.declarators {
                    if declarator_name(&init.node.declarator).as_deref() != Some(&id.node.name) {
                        continue;
                    }
                    let base = self.base_type_decl(&d.node.specifiers);
                    let (_, t, f) = self.declarator(base, &init.node.declarator);
                    ty = match f {
                        Some(f) => CType::Ptr(Box::new(CType::Fn(Box::new(self.fn_sig(t, f))))),
                        None => t,
                    };
                }
            }
            let ty = match ty {
                CType::Array(e, _) => CType::Ptr(e),
                t => t,
            };
            params.push((
                Some(id.node.name.clone()),
                ty,
                format!("P{}", id.span.start),
            ));
        }
        params
    }

    /// The type a typedef names (`typedef int f(int);`: a function type).
    fn typedef_type(&mut self, ty: CType, fdecl: Option<FDecl<'a>>) -> CType {
        match fdecl {
            Some(f) => CType::Fn(Box::new(self.fn_sig(ty, f))),
            None => ty,
        }
    }

    /// The type of a function declared with result `ret` and the declarator `fd` (`()`: without a
    /// prototype).
    fn fn_sig(&mut self, ret: CType, fd: FDecl<'a>) -> FnSig {
        let (params, variadic) = self.parameters(fd);
        FnSig {
            ret,
            params: match fd {
                // (A K&R definition's calls are checked against its parameters as a prototype's.)
                FDecl::Proto(_) | FDecl::KR(..) => Some(params.into_iter().map(|p| p.1).collect()),
                FDecl::NoParams => None,
            },
            variadic,
        }
    }

    fn declare_function(
        &mut self,
        name: &str,
        ret: CType,
        fd: FDecl<'a>,
        def: Option<&'a Node<c::FunctionDefinition>>,
        span: Span,
        offset: usize,
    ) {
        let (params, variadic) = self.parameters(fd);
        if let Some(c) = self.pending_contract.take() {
            if self.contracts.insert(name.to_string(), c).is_some() {
                self.contract_error = Some(Unsupported {
                    what: "two ACSL contracts for one function".into(),
                    span,
                    needs_memory: None,
                    fixed_bases: None,
                });
            }
        }
        let in_main = self.map.in_main(offset);
        let info = FnInfo {
            ret,
            params,
            variadic,
            def,
            in_main,
            span,
        };
        match self.funcs.get_mut(name) {
            Some(old) if old.def.is_some() && def.is_none() => old.in_main |= in_main,
            Some(old) => {
                let was_main = old.in_main;
                *old = info;
                old.in_main |= was_main;
            }
            None => {
                self.funcs.insert(name.to_string(), info);
            }
        }
    }

    fn function_definition(&mut self, fd: &'a Node<c::FunctionDefinition>) {
        let base = self.base_type_decl(&fd.node.specifiers);
        let span = self.sp(fd.span);
        let (name, ret, fdecl) = self.declarator(base, &fd.node.declarator);
        let Some(name) = name else { return };
        if name == ACSL_CONTRACT {
            if self.pending_contract.replace(fd).is_some() {
                self.contract_error = Some(Unsupported {
                    what: "two ACSL contracts for one function".into(),
                    span,
                    needs_memory: None,
                    fixed_bases: None,
                });
            }
            return;
        }
        match fdecl {
            Some(FDecl::KR(ids, _)) => {
                let f = FDecl::KR(ids, &fd.node.declarations);
                self.declare_function(&name, ret, f, Some(fd), span, fd.span.start)
            }
            Some(f) if fd.node.declarations.is_empty() => {
                self.declare_function(&name, ret, f, Some(fd), span, fd.span.start)
            }
            _ => {
                // Anything else with declarations: recorded so that a call reports it.
                self.funcs.insert(
                    name,
                    FnInfo {
                        ret: CType::Other("K&R-style function definition".into()),
                        params: Vec::new(),
                        variadic: false,
                        def: Some(fd),
                        in_main: true,
                        span,
                    },
                );
            }
        }
    }

    /// `e` names an `_Atomic` global (see `atomic_globals`) in the current scope.
    fn atomic_rmw(&self, e: &c::Expression) -> bool {
        let c::Expression::Identifier(i) = e else {
            return false;
        };
        matches!(self.lookup(&i.node.name), Some(Binding::Global(key))
            if self.atomic_globals.contains(key))
    }

    /// Records the first declaration of an `_Atomic` object (see `atomic_use`).
    fn note_atomic(&mut self, span: lang_c::span::Span) {
        if self.atomic_use.is_none() {
            self.atomic_use = Some(self.sp(span));
        }
    }

    /// Declaration specifiers name an `_Atomic` type: qualified there, or a typedef of one.
    fn atomic_specs(&self, specs: &[Node<c::DeclarationSpecifier>]) -> bool {
        specs.iter().any(|s| match &s.node {
            c::DeclarationSpecifier::TypeQualifier(q) => q.node == c::TypeQualifier::Atomic,
            c::DeclarationSpecifier::TypeSpecifier(t) => matches!(&t.node,
                c::TypeSpecifier::TypedefName(n) if self.atomic_typedefs.contains(&n.node.name)),
            _ => false,
        })
    }

    /// A typedef `name` declared with `specs` names an `_Atomic` type (`atomic_specs`).
    fn atomic_typedef(&mut self, name: &str, specs: &[Node<c::DeclarationSpecifier>]) {
        if self.atomic_specs(specs) {
            self.atomic_typedefs.insert(name.to_string());
        }
    }

    /// The type named by declaration specifiers (enum constants are bound on the way).
    fn base_type_decl(&mut self, specs: &'a [Node<c::DeclarationSpecifier>]) -> CType {
        // (a typedef's qualifier counts where the typedef names an object's type)
        let typedef = Self::storage(specs) == Some(c::StorageClassSpecifier::Typedef);
        if !typedef {
            if let Some(q) = specs.iter().find(|s| {
                matches!(&s.node, c::DeclarationSpecifier::TypeQualifier(q)
                    if q.node == c::TypeQualifier::Atomic)
            }) {
                self.note_atomic(q.span);
            }
        }
        let ts: Vec<&'a Node<c::TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                c::DeclarationSpecifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        self.base_type(&ts)
    }

    fn base_type_spec(&mut self, specs: &'a [Node<c::SpecifierQualifier>]) -> CType {
        if let Some(q) = specs.iter().find(|s| {
            matches!(&s.node, c::SpecifierQualifier::TypeQualifier(q)
                if q.node == c::TypeQualifier::Atomic)
        }) {
            self.note_atomic(q.span);
        }
        let ts: Vec<&'a Node<c::TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                c::SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        self.base_type(&ts)
    }

    fn base_type(&mut self, ts: &[&'a Node<c::TypeSpecifier>]) -> CType {
        let (mut longs, mut signed, mut unsigned) = (0, false, false);
        let mut kind: Option<IntKind> = None;
        let mut void = false;
        let mut float: Option<FloatTy> = None;
        for t in ts {
            match &t.node {
                c::TypeSpecifier::Void => void = true,
                c::TypeSpecifier::Char => kind = Some(IntKind::Char),
                c::TypeSpecifier::Short => kind = Some(IntKind::Short),
                c::TypeSpecifier::Int => kind = kind.or(Some(IntKind::Int)),
                c::TypeSpecifier::Long => longs += 1,
                c::TypeSpecifier::Signed => signed = true,
                c::TypeSpecifier::Unsigned => unsigned = true,
                c::TypeSpecifier::Bool => kind = Some(IntKind::Bool),
                c::TypeSpecifier::Float => float = Some(FloatTy::Float),
                c::TypeSpecifier::Double => float = Some(FloatTy::Double),
                c::TypeSpecifier::Complex => return CType::Other("complex type".into()),
                c::TypeSpecifier::TS18661Float(_) => {
                    return CType::Other("TS 18661 floating type".into());
                }
                c::TypeSpecifier::Atomic(_) => return CType::Other("_Atomic type".into()),
                c::TypeSpecifier::Struct(st) => {
                    return self.struct_type(st);
                }
                c::TypeSpecifier::Enum(e) => return CType::Int(self.enumeration(&e.node)),
                c::TypeSpecifier::TypedefName(n) => {
                    if self.atomic_typedefs.contains(&n.node.name) {
                        self.note_atomic(n.span);
                    }
                    return match self.lookup(&n.node.name) {
                        Some(Binding::Typedef(t)) => t.clone(),
                        // the address of the next extra argument (`Translator::varargs`)
                        _ if n.node.name == "__builtin_va_list" => {
                            CType::Ptr(Box::new(CType::Int(IntTy::CHAR)))
                        }
                        _ => CType::Other(format!("type `{}`", n.node.name)),
                    };
                }
                // GNU `typeof`: the type of an expression, which is not evaluated (translated
                // into a scratch buffer, as for `sizeof`), or of a type name
                c::TypeSpecifier::TypeOf(t) => {
                    return match &t.node {
                        c::TypeOf::Type(tn) => self.type_name(tn),
                        c::TypeOf::Expression(e) => {
                            let mut scratch = Vec::new();
                            match self.expr(e, &mut scratch) {
                                Ok(v) if !matches!(v.ty, CType::Str | CType::Vla(..)) => v.ty,
                                _ => CType::Other("typeof".into()),
                            }
                        }
                    };
                }
            }
        }
        if void {
            return CType::Void;
        }
        match (float, longs) {
            (Some(FloatTy::Double), 1) => return self.float_type(FloatTy::LongDouble),
            (Some(t), 0) => return self.float_type(t),
            (Some(_), _) => return CType::Other("floating type".into()),
            (None, _) => {}
        }
        let kind = match (kind, longs) {
            (Some(IntKind::Char), _) => IntKind::Char,
            (Some(IntKind::Short), _) => IntKind::Short,
            (Some(IntKind::Bool), _) => IntKind::Bool,
            (_, 0) => IntKind::Int,
            (_, 1) => IntKind::Long,
            (_, 2) => IntKind::LongLong,
            _ => IntKind::Int128, // `long long long` stands for `__int128` (`rewrite_gaps`)
        };
        let _ = signed;
        CType::Int(IntTy::new(kind, !unsigned))
    }

    /// A struct specifier: its tag, with the fields recorded when it has a body.
    fn struct_type(&mut self, st: &'a Node<c::StructType>) -> CType {
        let tag = match &st.node.identifier {
            Some(i) => i.node.name.clone(),
            None => format!("#anon@{}", st.span.start),
        };
        let tag = if st.node.kind.node == c::StructKind::Union {
            format!("{UNION_PREFIX}{tag}")
        } else {
            tag
        };
        let Some(decls) = &st.node.declarations else {
            return CType::Struct(tag);
        };
        let mut fields: Result<Vec<(String, CType)>, String> = Ok(Vec::new());
        let mut members = Vec::new();
        for d in decls {
            let c::StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base = self.base_type_spec(&f.node.specifiers);
            for sd in &f.node.declarators {
                let field = match (&sd.node.declarator, &sd.node.bit_width) {
                    (decl, Some(w)) => {
                        let union = tag.starts_with(UNION_PREFIX);
                        match self.bit_field(&base, decl.as_ref(), w, union) {
                            Ok((Some(n), ty, _)) => Ok((n, ty)),
                            Ok((None, CType::Int(declared), width)) => {
                                members.push(Member::Unnamed(declared, width));
                                continue;
                            }
                            Ok((None, ..)) => Err("bit-field".to_string()),
                            Err(e) => Err(e),
                        }
                    }
                    (None, None) => Err("anonymous struct member".to_string()),
                    (Some(decl), None) => match self.declarator(base.clone(), decl) {
                        (Some(_), CType::Fn(_), _) => {
                            Err("struct member of a function type".to_string())
                        }
                        (Some(n), ty, None) => Ok((n, ty)),
                        _ => Err("struct member of a function type".to_string()),
                    },
                };
                match (field, &mut fields) {
                    (Ok(fd), Ok(list)) => {
                        members.push(Member::Field(fd.1.clone()));
                        list.push(fd)
                    }
                    (Err(e), Ok(_)) => fields = Err(e),
                    _ => {}
                }
            }
            if f.node.declarators.is_empty() {
                fields = Err("anonymous struct member".to_string());
            }
        }
        // a flexible array member (C11 6.7.2.1:18, the last member of a struct with another
        // named member): no elements of its own — the struct's size is as if it were omitted,
        // and its elements are those of the object beyond (a heap object allocated larger),
        // reached through memory and checked against the object's length like any access
        if let (Ok(list), false) = (&mut fields, tag.starts_with(UNION_PREFIX)) {
            if let (true, Some((_, ty @ CType::Array(_, UNKNOWN_LEN)))) =
                (list.len() >= 2, list.last_mut())
            {
                if let CType::Array(e, _) = ty.clone() {
                    *ty = CType::Array(e, 0);
                }
            }
        }
        let bits = |m: &Member| match m {
            Member::Field(CType::Int(t)) => matches!(t.kind, IntKind::BitField { .. }),
            Member::Field(_) => false,
            Member::Unnamed(..) => true,
        };
        if members.iter().any(bits) {
            // a bit-field's position in its storage unit: its cell in memory (`mem::bit_cell`)
            if let (Ok(list), Ok(layout)) =
                (&mut fields, self.bit_layout(&members, self.sp(st.span)))
            {
                let named = members.iter_mut().filter(|m| matches!(m, Member::Field(_)));
                for (((_, fty), m), at) in list.iter_mut().zip(named).zip(&layout.shifts) {
                    if let CType::Int(IntTy {
                        kind: IntKind::BitField { shift, .. },
                        ..
                    }) = fty
                    {
                        *shift = Some(*at);
                        *m = Member::Field(fty.clone());
                    }
                }
            }
            self.bit_structs.insert(tag.clone(), members);
        }
        if let Ok(list) = &fields
            && tag.starts_with(UNION_PREFIX)
            && list.iter().any(|(_, t)| self.has_bit_fields(t))
        {
            // its members' cells would overlap bit by bit
            fields = Err("struct with bit-fields in a union".to_string());
        }
        let same = match (self.structs.get(&tag), &fields) {
            (None, _) => true,
            (Some(old), new) => old == new,
        };
        if same {
            self.structs.insert(tag.clone(), fields);
        } else {
            self.structs
                .insert(tag.clone(), Err("struct tag defined twice".to_string()));
        }
        CType::Struct(tag)
    }

    /// A bit-field declaration `T name : width` (`name` absent: an unnamed bit-field, padding):
    /// its name, its type (an `IntKind::BitField` of the declared integer type; a `_Bool`
    /// bit-field is a `_Bool`) and its width; unnamed, the declared type itself.
    fn bit_field(
        &mut self,
        base: &CType,
        decl: Option<&'a Node<c::Declarator>>,
        width: &'a Node<c::Expression>,
        union: bool,
    ) -> Result<(Option<String>, CType, u8), String> {
        if union {
            return Err("bit-field in a union".into());
        }
        let (name, ty) = match decl {
            Some(d) => match self.declarator(base.clone(), d) {
                (Some(n), ty, None) => (Some(n), ty),
                _ => return Err("bit-field of a function type".into()),
            },
            None => (None, base.clone()),
        };
        let CType::Int(t) = ty else {
            return Err(format!("bit-field of type {}", ty.describe()));
        };
        let w = match self.const_eval(width) {
            Some((v, _)) if v >= BigInt::zero() && v <= BigInt::from(t.bits(self.arch)) => {
                u8::try_from(&v).map_err(|_| "bit-field width".to_string())?
            }
            _ => return Err("bit-field width that is not a constant of the type's width".into()),
        };
        let field = match (name.is_some(), t.kind, w) {
            (true, _, 0) => return Err("named bit-field of width 0".into()),
            (false, _, _) | (true, IntKind::Bool, _) => t,
            (true, _, _) => IntTy {
                kind: IntKind::BitField {
                    width: w,
                    unit: u8::try_from(t.size(self.arch)).map_err(|_| "bit-field unit")?,
                    shift: None,
                },
                signed: t.signed,
            },
        };
        Ok((name, CType::Int(field), w))
    }

    /// Whether a value of type `t` has a bit-field.
    fn has_bit_fields(&self, t: &CType) -> bool {
        match t {
            CType::Array(e, _) => self.has_bit_fields(e),
            CType::Struct(tag) => {
                self.bit_structs.contains_key(tag)
                    || matches!(self.structs.get(tag), Some(Ok(fs)) if fs.iter().any(|(_, t)| self.has_bit_fields(t)))
            }
            _ => false,
        }
    }

    fn struct_fields(&self, tag: &str, span: Span) -> R<Vec<(String, CType)>> {
        match self.structs.get(tag) {
            Some(Ok(f)) => Ok(f.clone()),
            Some(Err(e)) => unsupported(e.clone(), span),
            None => unsupported(format!("incomplete struct {tag}"), span),
        }
    }

    /// The integer leaves of a value of type `ty` (see `leaves`) with their types.
    fn int_leaves(&self, ty: &CType, span: Span) -> R<Vec<(String, usize, IntTy)>> {
        match ty {
            CType::Int(t) => Ok(vec![(String::new(), 0, *t)]),
            CType::Array(e, _) => Ok(self
                .int_leaves(e, span)?
                .into_iter()
                .map(|(p, d, t)| (p, d + 1, t))
                .collect()),
            CType::Struct(tag) => {
                let mut out = Vec::new();
                for (f, fty) in self.struct_fields(tag, span)? {
                    for (p, d, t) in self.int_leaves(&fty, span)? {
                        out.push((format!(".{f}{p}"), d, t));
                    }
                }
                Ok(out)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The scalar and array variables a value of type `ty` is flattened into: `(path, number of
    /// map dimensions)` (a pointer is two leaves, `.base` and `.offset`).
    fn leaves(&self, ty: &CType, span: Span) -> R<Vec<Leaf>> {
        match ty {
            CType::Int(_) => Ok(vec![(String::new(), 0, None)]),
            CType::Float(f) => Ok(vec![(String::new(), 0, Some(*f))]),
            CType::Ptr(_) => Ok(vec![(".base".into(), 0, None), (".offset".into(), 0, None)]),
            CType::Array(_, UNKNOWN_LEN) => unsupported("array of unknown size", span),
            CType::Array(e, _) => Ok(self
                .leaves(e, span)?
                .into_iter()
                .map(|(p, d, f)| (p, d + 1, f))
                .collect()),
            CType::Struct(tag) => {
                let mut out = Vec::new();
                for (f, fty) in self.struct_fields(tag, span)? {
                    for (p, d, e) in self.leaves(&fty, span)? {
                        out.push((format!(".{f}{p}"), d, e));
                    }
                }
                Ok(out)
            }
            other => unsupported(format!("variable of type {}", other.describe()), span),
        }
    }

    /// Every scalar cell of a value of type `ty` (at byte offset `off`), in order.
    fn cells(&self, ty: &CType, at: (&str, &[u64], u64), span: Span, out: &mut Vec<Cell>) -> R<()> {
        let (path, idx, off) = at;
        if out.len() as u64 > MAX_INIT_CELLS {
            return unsupported(
                format!("initialisation of more than {MAX_INIT_CELLS} cells"),
                span,
            );
        }
        match ty {
            CType::Int(_) | CType::Float(_) | CType::Ptr(_) => out.push(Cell {
                path: path.to_string(),
                idx: idx.to_vec(),
                off,
                ty: ty.clone(),
                unions: Vec::new(),
            }),
            CType::Array(_, UNKNOWN_LEN) => return unsupported("array of unknown size", span),
            CType::Array(e, n) => {
                if *n > MAX_INIT_CELLS {
                    return unsupported(
                        format!("initialisation of an array of {n} elements"),
                        span,
                    );
                }
                let esize = self.size_align(e, span)?.0;
                for k in 0..*n {
                    let mut i = idx.to_vec();
                    i.push(k);
                    self.cells(e, (path, &i, off + k * esize), span, out)?;
                }
            }
            CType::Struct(tag) => {
                for (f, fty) in self.struct_fields(tag, span)? {
                    let (foff, _) = self.field_offset(tag, &f, span)?;
                    let first = out.len();
                    self.cells(&fty, (&format!("{path}.{f}"), idx, off + foff), span, out)?;
                    if is_union(tag) {
                        let at = Cell {
                            path: path.to_string(),
                            idx: idx.to_vec(),
                            off,
                            ty: ty.clone(),
                            unions: Vec::new(),
                        };
                        for c in &mut out[first..] {
                            let u = CellUnion {
                                at: at.clone(),
                                member: f.clone(),
                                off: c.off - off,
                            };
                            c.unions.insert(0, u);
                        }
                    }
                }
            }
            other => return unsupported(format!("initialisation of {}", other.describe()), span),
        }
        Ok(())
    }

    /// Binds the enumerators of `e` (constants of type `int`) and gives the enumeration's type:
    /// GCC's, `unsigned int` when no enumerator is negative and `int` otherwise (the C standard
    /// leaves the choice to the implementation, 6.7.2.2p4); a reference to an enumeration
    /// defined before has the type of that definition (`int` for one never defined).
    fn enumeration(&mut self, e: &'a c::EnumType) -> IntTy {
        if e.enumerators.is_empty() {
            let tag = e.identifier.as_ref().map(|i| &i.node.name);
            return tag
                .and_then(|t| self.enum_types.get(t).copied())
                .unwrap_or(IntTy::INT);
        }
        // GCC: the enumeration's type is `unsigned int` without negative enumerators, else
        // `int`, a 64-bit type where the values need it; an enumerator has type `int` where its
        // value fits, else the enumeration's type (also while the list is read)
        let arch = self.arch;
        let smallest = |min: &BigInt, max: &BigInt| {
            let long = IntTy::new(IntKind::LongLong, min.is_negative());
            [IntTy::UINT, IntTy::INT, long]
                .into_iter()
                .find(|t| {
                    (min.is_negative() == t.signed)
                        && t.contains(min, arch)
                        && t.contains(max, arch)
                })
                .unwrap_or(long)
        };
        let constant = |v: &BigInt, enum_ty: IntTy| {
            if IntTy::INT.contains(v, arch) {
                IntTy::INT
            } else {
                enum_ty
            }
        };
        let mut next = BigInt::zero();
        let (mut min, mut max) = (BigInt::zero(), BigInt::zero());
        let mut names = Vec::new();
        for en in &e.enumerators {
            if let Some(x) = &en.node.expression {
                match self.const_eval(x) {
                    Some((v, _)) => next = v,
                    None => continue,
                }
            }
            min = min.min(next.clone());
            max = max.max(next.clone());
            let name = en.node.identifier.node.name.clone();
            let t = constant(&next, smallest(&next.clone().min(BigInt::zero()), &next));
            self.bind(&name, Binding::Enum(next.clone(), t));
            names.push((name, next.clone()));
            next += 1;
        }
        let ty = smallest(&min, &max);
        for (name, v) in names {
            let t = constant(&v, ty);
            self.bind(&name, Binding::Enum(v, t));
        }
        if let Some(i) = &e.identifier {
            self.enum_types.insert(i.node.name.clone(), ty);
        }
        ty
    }

    /// Name, type and (for a function declarator) its parameters.
    ///
    /// lang-c lists a declarator's pointer prefixes first, then its array and function suffixes
    /// outermost first (`*a[2]`: an array of pointers; `a[2][3]`: an array of 2 arrays of 3); a
    /// parenthesised inner declarator applies to the type the outer part builds (`(*p)[2]`: a
    /// pointer to an array).
    fn declarator(
        &mut self,
        base: CType,
        d: &'a Node<c::Declarator>,
    ) -> (Option<String>, CType, Option<FDecl<'a>>) {
        let derived = &d.node.derived;
        let npre = derived
            .iter()
            .take_while(|x| {
                matches!(
                    x.node,
                    c::DerivedDeclarator::Pointer(_) | c::DerivedDeclarator::Block(_)
                )
            })
            .count();
        let mut ty = base;
        for der in &derived[..npre] {
            if let c::DerivedDeclarator::Pointer(quals) = &der.node {
                if let Some(q) = quals.iter().find(|q| {
                    matches!(&q.node, c::PointerQualifier::TypeQualifier(t)
                        if t.node == c::TypeQualifier::Atomic)
                }) {
                    self.note_atomic(q.span);
                }
            }
            ty = match &der.node {
                c::DerivedDeclarator::Pointer(_) => match ty {
                    CType::Other(w) if w.contains("function") => CType::Other(w),
                    t => CType::Ptr(Box::new(t)),
                },
                _ => CType::Other("block pointer".into()),
            };
        }
        let mut fdecl = None;
        let suffixes = &derived[npre..];
        for (k, der) in suffixes.iter().enumerate().rev() {
            if fdecl.is_some() {
                // an array of functions, a function returning a function or an array
                return (None, CType::Other("function type".into()), None);
            }
            match &der.node {
                c::DerivedDeclarator::Pointer(_) | c::DerivedDeclarator::Block(_) => {
                    return (None, CType::Other("pointer declarator".into()), None);
                }
                c::DerivedDeclarator::Array(a) => {
                    let n = match &a.node.size {
                        c::ArraySize::VariableExpression(e) | c::ArraySize::StaticExpression(e) => {
                            self.const_eval(e).and_then(|(v, _)| v.to_u64())
                        }
                        c::ArraySize::Unknown if k == 0 => Some(UNKNOWN_LEN),
                        _ => None,
                    };
                    ty = match (n, ty) {
                        (_, CType::Other(w)) => CType::Other(w),
                        (Some(n), t) => CType::Array(Box::new(t), n),
                        (None, t) if k == 0 && self.vla_count.as_deref() == Some("") => {
                            CType::Array(Box::new(t), UNKNOWN_LEN)
                        }
                        (None, t) if k == 0 && self.vla_count.is_some() => {
                            CType::Vla(Box::new(t), self.vla_count.take().unwrap_or_default())
                        }
                        (None, _) => CType::Other("array of unknown or variable size".into()),
                    };
                }
                c::DerivedDeclarator::Function(f) => {
                    if k != 0 {
                        return (None, CType::Other("function type".into()), None);
                    }
                    fdecl = Some(FDecl::Proto(&f.node));
                }
                c::DerivedDeclarator::KRFunction(ps) => {
                    if k != 0 {
                        return (None, CType::Other("K&R-style function".into()), None);
                    }
                    // (A definition's parameter declarations are joined in `function_definition`.)
                    fdecl = Some(if ps.is_empty() {
                        FDecl::NoParams
                    } else {
                        FDecl::KR(ps, &[])
                    });
                }
            }
        }
        match &d.node.kind.node {
            c::DeclaratorKind::Identifier(i) => (Some(i.node.name.clone()), ty, fdecl),
            c::DeclaratorKind::Abstract => (None, ty, fdecl),
            c::DeclaratorKind::Declarator(inner) => {
                if inner.node.derived.is_empty() {
                    let (n, t, f) = self.declarator(ty, inner);
                    return (n, t, f.or(fdecl));
                }
                if let Some(f) = fdecl {
                    // `(*f)(…)`: the inner declarator applies to the function type (a function
                    // pointer, an array of them, a function returning one)
                    let sig = self.fn_sig(ty, f);
                    return self.declarator(CType::Fn(Box::new(sig)), inner);
                }
                self.declarator(ty, inner)
            }
        }
    }

    /// `T a[] = {…}`: the length is the number of elements the initialiser gives; without one the
    /// array is not translated.
    fn complete_array(&mut self, ty: CType, ini: Option<&'a Node<c::Initializer>>) -> CType {
        match ini.map(|i| &i.node) {
            // `char s[] = "abc"` or `{"abc"}`: the characters and the terminating zero
            Some(c::Initializer::List(items)) => {
                match braced_string(items).and_then(|e| string_completes(&ty, e)) {
                    Some(t) => t,
                    None => self.complete_array_items(ty, items),
                }
            }
            Some(c::Initializer::Expression(e)) if matches!(ty, CType::Array(_, UNKNOWN_LEN)) => {
                string_completes(&ty, e)
                    .unwrap_or_else(|| CType::Other("array of unknown size".into()))
            }
            _ if matches!(ty, CType::Array(_, UNKNOWN_LEN)) => {
                CType::Other("array of unknown size".into())
            }
            _ => ty,
        }
    }

    fn complete_array_items(
        &mut self,
        ty: CType,
        items: &'a [Node<c::InitializerListItem>],
    ) -> CType {
        let CType::Array(elem, UNKNOWN_LEN) = ty else {
            return ty;
        };
        let multi = matches!(*elem, CType::Array(..));
        let (mut k, mut n) = (0u64, 0u64);
        for it in items {
            let whole = match &it.node.initializer.node {
                c::Initializer::List(_) => true,
                // a string literal initialises a whole character array
                c::Initializer::Expression(e) => char_array_string(&elem, e).is_some(),
            };
            if multi && !whole {
                return CType::Other("array of unknown size with elided braces".into());
            }
            match it.node.designation.as_slice() {
                [] => {}
                [d] => match &d.node {
                    c::Designator::Index(e) => {
                        match self.const_eval(e).and_then(|(v, _)| v.to_u64()) {
                            Some(v) => k = v,
                            None => return CType::Other("non-constant array designator".into()),
                        }
                    }
                    _ => return CType::Other("designated initialiser".into()),
                },
                _ => return CType::Other("designated initialiser".into()),
            }
            k += 1;
            n = n.max(k);
        }
        CType::Array(elem, n)
    }

    fn type_name(&mut self, t: &'a Node<c::TypeName>) -> CType {
        let base = self.base_type_spec(&t.node.specifiers);
        match &t.node.declarator {
            Some(d) => {
                let (_, ty, f) = self.declarator(base, d);
                if f.is_some() {
                    CType::Other("function type".into())
                } else {
                    ty
                }
            }
            None => base,
        }
    }

    fn size_of(&self, t: &CType, span: Span) -> R<u64> {
        self.size_align(t, span).map(|(s, _)| s)
    }

    /// `_Alignof` / `__alignof__` of a type: its alignment as a struct member. i386 is the one
    /// target where gcc's `__alignof__` (the preferred alignment, 8) and C11's `_Alignof` (4) of
    /// an 8-byte scalar differ, and lang-c parses both into one node: `None` then.
    fn align_of(&self, t: &CType, span: Span) -> R<Option<u64>> {
        let mut scalar = t;
        while let CType::Array(e, _) = scalar {
            scalar = e;
        }
        let ambiguous = self.arch == Arch::Ilp32
            && match scalar {
                CType::Int(i) => i.size(self.arch) == 8,
                CType::Float(f) => *f == FloatTy::Double,
                _ => false,
            };
        if ambiguous {
            return Ok(None);
        }
        self.size_align(t, span).map(|(_, a)| Some(a))
    }

    /// `offsetof(type, designator)` (C11 7.19p3): the byte offset of the member the designator
    /// names, through members and constant array indices.
    fn offset_of(&mut self, o: &'a c::OffsetOfExpression, span: Span) -> R<u64> {
        let mut ty = self.type_name(&o.type_name);
        let member = |this: &mut Self, ty: &mut CType, off: &mut u64, f: &str| -> R<()> {
            let CType::Struct(tag) = ty.clone() else {
                return unsupported(format!("offsetof of a member of {}", ty.describe()), span);
            };
            let (foff, fty) = this.field_offset(&tag, f, span)?;
            if matches!(&fty, CType::Int(t) if matches!(t.kind, IntKind::BitField { .. })) {
                return unsupported("offsetof of a bit-field", span);
            }
            *off += foff;
            *ty = fty;
            Ok(())
        };
        let mut off = 0u64;
        member(self, &mut ty, &mut off, &o.designator.node.base.node.name)?;
        for m in &o.designator.node.members {
            match &m.node {
                c::OffsetMember::Member(id) => member(self, &mut ty, &mut off, &id.node.name)?,
                c::OffsetMember::Index(e) => {
                    let CType::Array(elem, _) = ty.clone() else {
                        return unsupported("offsetof indexing a non-array", span);
                    };
                    let Some(k) = self.const_eval(e).and_then(|(k, _)| k.to_u64()) else {
                        return unsupported("offsetof with a non-constant index", span);
                    };
                    off += k * self.size_of(&elem, span)?;
                    ty = *elem;
                }
                c::OffsetMember::IndirectMember(_) => {
                    return unsupported("offsetof with `->`", span);
                }
            }
        }
        Ok(off)
    }

    // ----- constant expressions ------------------------------------------------------------

    fn const_eval(&mut self, e: &'a Node<c::Expression>) -> Option<(BigInt, IntTy)> {
        let a = self.arch;
        match &e.node {
            c::Expression::Constant(k) => self.constant(&k.node).ok(),
            c::Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Enum(v, t)) => Some((v.clone(), *t)),
                _ => None,
            },
            c::Expression::Cast(cst) => {
                let (v, _) = self.const_eval(&cst.node.expression)?;
                match self.type_name(&cst.node.type_name) {
                    CType::Int(t) => Some((ints::convert(&v, t, a), t)),
                    _ => None,
                }
            }
            c::Expression::AlignOf(al) => {
                let t = self.type_name(&al.node.0);
                let n = self.align_of(&t, Span::default()).ok()??;
                Some((BigInt::from(n), IntTy::SIZE_T))
            }
            c::Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0);
                let n = self.size_of(&t, Span::default()).ok()?;
                Some((BigInt::from(n), IntTy::SIZE_T))
            }
            c::Expression::OffsetOf(o) => {
                let n = self.offset_of(&o.node, Span::default()).ok()?;
                Some((BigInt::from(n), IntTy::SIZE_T))
            }
            c::Expression::UnaryOperator(u) => {
                let (v, t) = self.const_eval(&u.node.operand)?;
                let p = ints::promote(t);
                let v = ints::convert(&v, p, a);
                match u.node.operator.node {
                    c::UnaryOperator::Plus => Some((v, p)),
                    c::UnaryOperator::Minus => Some((ints::convert(&-v, p, a), p)),
                    c::UnaryOperator::Complement => Some((ints::convert(&(-v - 1), p, a), p)),
                    c::UnaryOperator::Negate => {
                        Some((BigInt::from(v.is_zero() as i32), IntTy::INT))
                    }
                    _ => None,
                }
            }
            c::Expression::Conditional(cd) => {
                let (cv, _) = self.const_eval(&cd.node.condition)?;
                let (x, tx) = self.const_eval(&cd.node.then_expression)?;
                let (y, ty) = self.const_eval(&cd.node.else_expression)?;
                let ct = ints::common(tx, ty, a);
                let v = if cv.is_zero() { y } else { x };
                Some((ints::convert(&v, ct, a), ct))
            }
            c::Expression::BinaryOperator(bo) => {
                use c::BinaryOperator as O;
                let (x, tx) = self.const_eval(&bo.node.lhs)?;
                let (y, ty) = self.const_eval(&bo.node.rhs)?;
                let op = bo.node.operator.node.clone();
                if matches!(op, O::LogicalAnd | O::LogicalOr) {
                    let r = match op {
                        O::LogicalAnd => !x.is_zero() && !y.is_zero(),
                        _ => !x.is_zero() || !y.is_zero(),
                    };
                    return Some((BigInt::from(r as i32), IntTy::INT));
                }
                if matches!(op, O::ShiftLeft | O::ShiftRight) {
                    let p = ints::promote(tx);
                    let x = ints::convert(&x, p, a);
                    let s = y.to_u32().filter(|s| *s < p.bits(a))?;
                    let r = if op == O::ShiftLeft {
                        x << s
                    } else {
                        num_integer::Integer::div_floor(&x, &(BigInt::one() << s))
                    };
                    if p.signed && !p.contains(&r, a) {
                        return None; // signed overflow: undefined
                    }
                    return Some((ints::convert(&r, p, a), p));
                }
                let ct = ints::common(tx, ty, a);
                let (x, y) = (ints::convert(&x, ct, a), ints::convert(&y, ct, a));
                let bool_res = |b: bool| Some((BigInt::from(b as i32), IntTy::INT));
                let r = match op {
                    O::Multiply => x * y,
                    O::Divide => ints::c_div(&x, &y)?,
                    O::Modulo => ints::c_rem(&x, &y)?,
                    O::Plus => x + y,
                    O::Minus => x - y,
                    O::BitwiseAnd => x & y,
                    O::BitwiseOr => x | y,
                    O::BitwiseXor => x ^ y,
                    O::Less => return bool_res(x < y),
                    O::Greater => return bool_res(x > y),
                    O::LessOrEqual => return bool_res(x <= y),
                    O::GreaterOrEqual => return bool_res(x >= y),
                    O::Equals => return bool_res(x == y),
                    O::NotEquals => return bool_res(x != y),
                    _ => return None,
                };
                let r = if ct.signed {
                    r
                } else {
                    ints::convert(&r, ct, a)
                };
                Some((r, ct))
            }
            _ => None,
        }
    }

    fn constant(&self, k: &c::Constant) -> Result<(BigInt, IntTy), String> {
        match k {
            c::Constant::Integer(i) => {
                let radix = match i.base {
                    c::IntegerBase::Decimal => 10,
                    c::IntegerBase::Octal => 8,
                    c::IntegerBase::Hexadecimal => 16,
                    c::IntegerBase::Binary => 2,
                };
                let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
                let digits = digits.trim_start_matches("0b").trim_start_matches("0B");
                let digits = if digits.is_empty() { "0" } else { digits };
                let v = BigInt::parse_bytes(digits.as_bytes(), radix)
                    .ok_or_else(|| format!("integer constant `{}`", i.number))?;
                if i.suffix.imaginary {
                    return Err("imaginary constant".into());
                }
                let size = match i.suffix.size {
                    c::IntegerSize::Int => 0,
                    c::IntegerSize::Long => 1,
                    c::IntegerSize::LongLong => 2,
                };
                let decimal = matches!(i.base, c::IntegerBase::Decimal);
                let t = ints::literal_type(&v, decimal, i.suffix.unsigned, size, self.arch)
                    .ok_or_else(|| format!("integer constant `{}` too large", i.number))?;
                Ok((v, t))
            }
            c::Constant::Float(_) => Err("floating-point constant".into()),
            c::Constant::Character(s) => {
                char_value(s).ok_or_else(|| format!("character constant {s}"))
            }
        }
    }

    // ----- functions ------------------------------------------------------------------------

    fn new_local(&mut self, base: &str, ty: b::Type) -> String {
        self.f.counter += 1;
        let name = format!("{base}~{}", self.f.counter);
        self.f.locals.push((name.clone(), ty));
        name
    }

    fn temp(&mut self, span: Span) -> String {
        self.new_local("#t", int_map_type(0, span))
    }

    fn fresh_label(&mut self, base: &str) -> String {
        self.f.counter += 1;
        format!("#{base}~{}", self.f.counter)
    }

    fn function(&mut self, name: &str) -> R<()> {
        let Some(info) = self.funcs.get(name).cloned() else {
            return Ok(());
        };
        let span = info.span;
        let mut specs = match self.contracts.get(name).copied() {
            Some(c) => self.contract_specs(c, &info, span)?,
            None => Vec::new(),
        };
        if self.reach_only || self.other_property() {
            // a contract is a check of its own: under another property, the contract of a
            // function with a body is ignored, that of a declaration is assumed
            if info.def.is_some() {
                specs.clear();
            }
            for s in &mut specs {
                s.free = true;
            }
        }
        let Some(fd) = info.def else {
            if specs.is_empty() {
                return Ok(());
            }
            // a declaration with a contract: a procedure without body
            let mut params = Vec::new();
            for (i, (pname, pty, _)) in info.params.iter().enumerate() {
                let CType::Int(_) = pty else {
                    return unsupported(format!("parameter of type {}", pty.describe()), span);
                };
                let pname = pname.clone().unwrap_or_else(|| format!("#p{i}"));
                params.push(typed(&format!("#in~{pname}"), int_map_type(0, span), span));
            }
            let mut specs = specs;
            let returns = match &info.ret {
                CType::Int(t) => {
                    specs.push(b::Spec {
                        free: true,
                        kind: b::SpecKind::Ensures(self.in_range(var("#res", span), *t, span)),
                        span,
                    });
                    vec![typed("#res", int_map_type(0, span), span)]
                }
                CType::Void => Vec::new(),
                other => {
                    return unsupported(
                        format!("function `{name}` returning {}", other.describe()),
                        span,
                    );
                }
            };
            self.procs.push(ProcOut {
                name: proc_name(name),
                params,
                returns,
                locals: Vec::new(),
                body: None,
                specs,
                span,
            });
            return Ok(());
        };
        self.f = FnCtx {
            name: name.to_string(),
            ..FnCtx::default()
        };
        if self.thread_fns.contains(name) {
            // a thread start routine `void *f(void *arg)`: forked with its argument, its result
            // read by `pthread_join`
            if !specs.is_empty() {
                return unsupported(
                    format!("thread start routine `{name}` with a contract"),
                    span,
                );
            }
            if info.params.len() > 1
                || info.variadic
                || info.params.iter().any(|p| !matches!(p.1, CType::Ptr(_)))
            {
                return unsupported(
                    format!("thread start routine `{name}` with other parameters than one pointer"),
                    span,
                );
            }
            self.f.thread = true;
        }
        self.f.ret = match &info.ret {
            CType::Int(_) if self.f.thread => None,
            t @ (CType::Int(_) | CType::Float(_) | CType::Ptr(_) | CType::Struct(_)) => {
                Some(t.clone())
            }
            CType::Void => None,
            other => {
                return unsupported(
                    format!("function `{name}` returning {}", other.describe()),
                    span,
                );
            }
        };
        self.scopes.push(HashMap::new());
        self.f.mem_scopes.push(Vec::new());
        let mut params = Vec::new();
        let mut body = Vec::new();
        for (i, (pname, pty, key)) in info.params.iter().enumerate() {
            // a struct parameter: one in-parameter per leaf, copied to the local
            let leaves = self.param_leaves(pty, span)?;
            let pname = pname.clone().unwrap_or_else(|| format!("#p{i}"));
            let in_name = format!("#in~{pname}");
            for (path, dims, elem) in &leaves {
                params.push(typed(
                    &format!("{in_name}{path}"),
                    leaf_type(*dims, *elem, span),
                    span,
                ));
            }
            let in_lv = Place::Var(LVal {
                base: in_name.clone(),
                path: String::new(),
                indices: Vec::new(),
                ty: pty.clone(),
                unions: Vec::new(),
            });
            let value = if pty.is_scalar() {
                let v = self.read_place(&in_lv, true, span, &mut body)?;
                Some(self.scalar_value(v, pty, span)?)
            } else {
                None
            };
            let place = if self.in_mem.contains(key) {
                let base = self.stack_object(&pname, pty, span, &mut body)?;
                self.bind(
                    &pname,
                    Binding::Mem {
                        base: base.clone(),
                        ty: pty.clone(),
                    },
                );
                Place::Mem {
                    base: var(&base, span),
                    off: int(0, span),
                    ty: pty.clone(),
                    safe: true,
                    unions: Vec::new(),
                }
            } else {
                self.f.counter += 1;
                let local = format!("{pname}~{}", self.f.counter);
                self.note_local(&pname, &local, pty, span.start);
                for (path, dims, elem) in &leaves {
                    self.f
                        .locals
                        .push((format!("{local}{path}"), leaf_type(*dims, *elem, span)));
                }
                self.var_keys.insert(local.clone(), key.clone());
                self.bind(
                    &pname,
                    Binding::Local {
                        name: local.clone(),
                        ty: pty.clone(),
                    },
                );
                Place::Var(LVal {
                    base: local,
                    path: String::new(),
                    indices: Vec::new(),
                    ty: pty.clone(),
                    unions: Vec::new(),
                })
            };
            match value {
                Some(v) => self.store_place(&place, v, span, &mut body)?,
                None => self.copy_place(&place, &in_lv, span, &mut body)?,
            }
        }
        if info.variadic {
            // the address of the extra arguments, as the caller left it
            let (vb, vo) = (self.temp(span), self.temp(span));
            body.push(assign_var(&vb, var(mem::VA_BASE, span), span));
            body.push(assign_var(&vo, var(mem::VA_OFF, span), span));
            self.mem.varargs = true;
            self.f.va = Some((vb, vo));
        }
        let returns = match self.f.ret.clone() {
            Some(t) => self
                .param_leaves(&t, span)?
                .into_iter()
                .map(|(path, dims, elem)| {
                    typed(&format!("#res{path}"), leaf_type(dims, elem, span), span)
                })
                .collect(),
            None => Vec::new(),
        };
        let mut jumps = HasGoto(false);
        lang_c::visit::Visit::visit_statement(
            &mut jumps,
            &fd.node.statement.node,
            &fd.node.statement.span,
        );
        self.f.hoist = jumps.0;
        self.stmt(&fd.node.statement, &mut body)?;
        body.extend(self.free_scopes(0, span));
        self.f.mem_scopes.pop();
        self.close_locals(span.end);
        self.scopes.pop();
        self.cmap.functions.push(super::CFunction {
            name: name.to_string(),
            procedure: proc_name(name),
            span,
        });
        // the bases of stack objects start at 0 (never valid), so that invalidating one that a
        // path did not allocate changes nothing
        let zeroes: Vec<b::Stmt> = self
            .f
            .locals
            .iter()
            .filter(|(n, _)| n.starts_with("#addr~"))
            .map(|(n, _)| assign_var(n, int(0, span), span))
            .chain(std::mem::take(&mut self.f.hoisted))
            .collect();
        body.splice(0..0, zeroes);
        if self.f.late_objects && self.f.gotos {
            return unsupported(
                format!("`goto` in function `{name}`, which has variables in memory"),
                span,
            );
        }
        let f = std::mem::take(&mut self.f);
        self.procs.push(ProcOut {
            name: proc_name(name),
            params,
            returns,
            locals: f.locals,
            body: Some(body),
            specs,
            span,
        });
        Ok(())
    }

    /// The Boogie variables of a parameter or result: a scalar's (`scalar_suffixes`), a struct's
    /// leaves (with their map dimensions).
    fn param_leaves(&self, t: &CType, span: Span) -> R<Vec<Leaf>> {
        match t {
            CType::Int(_) | CType::Float(_) | CType::Ptr(_) => self.leaves(t, span),
            CType::Struct(_) => self.leaves(t, span),
            other => unsupported(format!("parameter of type {}", other.describe()), span),
        }
    }

    /// A fresh struct held in Boogie variables (one local per leaf).
    fn temp_agg(&mut self, ty: &CType, span: Span) -> R<LVal> {
        self.f.counter += 1;
        let base = format!("#t~{}", self.f.counter);
        for (path, dims, elem) in self.leaves(ty, span)? {
            self.f
                .locals
                .push((format!("{base}{path}"), leaf_type(dims, elem, span)));
        }
        Ok(LVal {
            base,
            path: String::new(),
            indices: Vec::new(),
            ty: ty.clone(),
            unions: Vec::new(),
        })
    }

    /// The object a struct value is (to copy from).
    fn agg_place(&self, tv: TV, span: Span) -> R<Place> {
        match (tv.v, &tv.ty) {
            (V::Agg(lv), _) => Ok(Place::Var(lv)),
            (V::Ptr(base, off), CType::Struct(_)) => Ok(Place::Mem {
                base,
                off,
                ty: tv.ty,
                safe: false,
                unions: Vec::new(),
            }),
            _ => unsupported(format!("value of type {}", tv.ty.describe()), span),
        }
    }

    /// The object to copy the struct value `e` of type `ty` from: an lvalue's object, else the
    /// value's (a call's result, a conditional's).
    fn struct_source(
        &mut self,
        e: &'a Node<c::Expression>,
        ty: &CType,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<Place> {
        let src = if is_lvalue_shaped(&e.node) {
            self.lvalue(e, out)?
        } else {
            let v = self.expr(e, out)?;
            if !matches!(v.ty, CType::Struct(_)) {
                return unsupported(format!("value of type {}", v.ty.describe()), span);
            }
            self.agg_place(v, span)?
        };
        if src.ty() != ty {
            return unsupported("assignment between different struct types", span);
        }
        Ok(src)
    }

    /// The `requires`/`ensures` of an ACSL contract: parameters are the procedure's in-parameters
    /// (in a postcondition they denote the values at entry, as in ACSL), `\result` is `#res`,
    /// `\old(e)` is `old(e)`.
    fn contract_specs(
        &mut self,
        c: &'a Node<c::FunctionDefinition>,
        info: &FnInfo<'a>,
        span: Span,
    ) -> R<Vec<b::Spec>> {
        let c::Statement::Compound(items) = &c.node.statement.node else {
            return unsupported("ACSL contract", span);
        };
        let saved = std::mem::take(&mut self.f);
        let mut specs = Vec::new();
        let result = (|| {
            for it in items {
                let c::BlockItem::Statement(Node {
                    node: c::Statement::Expression(Some(e)),
                    ..
                }) = &it.node
                else {
                    return unsupported("ACSL contract", span);
                };
                let c::Expression::Call(call) = &e.node else {
                    return unsupported("ACSL contract", span);
                };
                let (c::Expression::Identifier(f), [arg]) =
                    (&call.node.callee.node, call.node.arguments.as_slice())
                else {
                    return unsupported("ACSL contract", span);
                };
                let ensures = f.node.name == ACSL_ENSURES;
                if !ensures && f.node.name != ACSL_REQUIRES {
                    return unsupported("ACSL contract", span);
                }
                self.scopes.push(HashMap::new());
                for (pname, pty, _) in &info.params {
                    if let Some(p) = pname {
                        self.bind(
                            p,
                            Binding::Local {
                                name: format!("#in~{p}"),
                                ty: pty.clone(),
                            },
                        );
                    }
                }
                if ensures {
                    self.bind(
                        ACSL_RESULT,
                        Binding::Local {
                            name: "#res".into(),
                            ty: info.ret.clone(),
                        },
                    );
                }
                self.in_ensures = ensures;
                let mut out = Vec::new();
                let v = self.expr(arg, &mut out);
                self.in_ensures = false;
                self.scopes.pop();
                let sp = self.sp(arg.span);
                let e = v?.to_bool(sp)?;
                if !out.is_empty() {
                    return unsupported("ACSL contract with a check or a call", sp);
                }
                specs.push(b::Spec {
                    free: false,
                    kind: if ensures {
                        b::SpecKind::Ensures(e)
                    } else {
                        b::SpecKind::Requires(e)
                    },
                    span: sp,
                });
            }
            Ok(())
        })();
        self.f = saved;
        result.map(|()| specs)
    }

    fn finish(mut self, main_span: Span, entries: &[String]) -> R<(b::Program, super::Notes)> {
        let mut decls = Vec::new();
        let mut init = std::mem::take(&mut self.file_asserts);
        self.f = FnCtx::default();
        let mut modifies: Vec<b::Ident> = Vec::new();
        // Globals used, in declaration order; an initialiser may use more (`int *p = &x;`).
        // Objects in memory are allocated before any initialiser runs.
        let mut done: BTreeSet<String> = BTreeSet::new();
        let mut allocs = Vec::new();
        let mut inits = Vec::new();
        // the Boogie variables of C globals, with their map dimensions (shared between threads)
        let mut race_leaves: Vec<(String, usize)> = Vec::new();
        loop {
            let mut used: Vec<(String, &Global)> = self
                .used_globals
                .iter()
                .filter(|n| !done.contains(*n))
                .filter_map(|n| self.globals.get(n).map(|g| (n.clone(), g)))
                .collect();
            if used.is_empty() {
                break;
            }
            used.sort_by_key(|(_, g)| g.order);
            #[allow(clippy::type_complexity)]
            let used: Vec<(
                String,
                String,
                CType,
                bool,
                Option<&'a Node<c::Initializer>>,
                Span,
            )> = used
                .iter()
                .map(|(k, g)| {
                    (
                        k.clone(),
                        g.name.clone(),
                        g.ty.clone(),
                        g.mem,
                        g.init,
                        g.span,
                    )
                })
                .collect();
            for (key, name, ty, mem, ini, span) in used {
                // (accesses to an `_Atomic` global are all atomic: they never race)
                let atomic = self.atomic_globals.contains(&key);
                done.insert(key);
                let root = if mem {
                    let base = format!("#addr{name}");
                    decls.push(b::Decl::Var(b::VarDecl {
                        attrs: Vec::new(),
                        vars: vec![typed(&base, int_map_type(0, span), span)],
                        span,
                    }));
                    modifies.push(ident(&base, span));
                    let size = self.size_of(&ty, span)?;
                    self.alloc_fixed(&base, lit(&BigInt::from(size), span), span, &mut allocs);
                    // static storage: zero-initialised
                    self.zero_object(&var(&base, span), span, &mut allocs);
                    Place::Mem {
                        base: var(&base, span),
                        off: int(0, span),
                        ty: ty.clone(),
                        safe: true,
                        unions: Vec::new(),
                    }
                } else {
                    for (path, dims, elem) in self.leaves(&ty, span)? {
                        let leaf = format!("{name}{path}");
                        if !atomic {
                            race_leaves.push((leaf.clone(), dims));
                        }
                        decls.push(b::Decl::Var(b::VarDecl {
                            attrs: Vec::new(),
                            vars: vec![typed(&leaf, leaf_type(dims, elem, span), span)],
                            span,
                        }));
                        modifies.push(ident(&leaf, span));
                    }
                    Place::Var(LVal {
                        base: name.clone(),
                        path: String::new(),
                        indices: Vec::new(),
                        ty: ty.clone(),
                        unions: Vec::new(),
                    })
                };
                self.global_init(&root, ini, span, &mut inits)?;
            }
        }
        self.string_objects(main_span, &mut decls, &mut modifies, &mut allocs)?;
        for base in &self.static_literals {
            decls.push(b::Decl::Var(b::VarDecl {
                attrs: Vec::new(),
                vars: vec![typed(base, int_map_type(0, main_span), main_span)],
                span: main_span,
            }));
            modifies.push(ident(base, main_span));
        }
        if self.mem.valid {
            init.push(assign(
                lhs(mem::VALID, vec![int(0, main_span)], main_span),
                boolean(false, main_span),
                main_span,
            ));
            self.invalidate_functions(main_span, &mut init);
        }
        init.extend(allocs);
        init.extend(inits);
        let mut mutexes: Vec<&Global> = self
            .used_mutexes
            .iter()
            .filter_map(|n| self.globals.get(n))
            .collect();
        mutexes.sort_by_key(|g| g.order);
        let mut extra: Vec<(String, Span, Option<&'a Node<c::Initializer>>)> = mutexes
            .iter()
            .map(|g| (g.name.clone(), g.span, g.init))
            .collect();
        if self.forks {
            if self.mem.varargs {
                // another thread could call one between a call's setting `#va.base` and the
                // callee's reading it
                return unsupported("variadic function in a program with threads", main_span);
            }
            if let Some(span) = self.atomic_use {
                // C11's `_Atomic` makes `++`, `--` and compound assignments of the object one
                // atomic step, which the translation does only for atomic globals
                return unsupported("`_Atomic` object in a program with threads", span);
            }
            for key in &self.atomic_globals {
                if let Some(g) = self.globals.get(key) {
                    if g.mem || !matches!(g.ty, CType::Int(_)) {
                        return unsupported(
                            "`_Atomic` global in memory or not of an integer type, in a program with threads",
                            g.span,
                        );
                    }
                }
            }
            extra.push((FORK_COUNTER.into(), main_span, None));
        }
        if self.counts_heap() {
            extra.push((mem::HEAP_LIVE.into(), main_span, None));
        }
        for (name, span, ini) in extra {
            // a mutex is unlocked when zero-initialised (`PTHREAD_MUTEX_INITIALIZER`, a static
            // object); another initialiser is not translated
            if let Some(ini) = ini {
                if !self.zero_initializer(ini) {
                    return unsupported("mutex initialiser other than zeros", span);
                }
            }
            decls.push(b::Decl::Var(b::VarDecl {
                attrs: Vec::new(),
                vars: vec![typed(&name, int_map_type(0, span), span)],
                span,
            }));
            modifies.push(ident(&name, span));
            let first = if name == FORK_COUNTER { 1 } else { 0 };
            init.insert(0, assign_var(&name, int(first, span), span));
        }
        if let (true, Some(at)) = (self.mem.calloc, self.mem.realloc) {
            return unsupported("`realloc` in a program that calls `calloc`", at);
        }
        // data races: only a program that forks threads has any
        let races = (self.data_race && self.forks)
            .then(|| self.race_shared(race_leaves, main_span, &mut decls, &mut modifies));
        self.memory_decls(main_span, &mut decls, &mut modifies);
        self.void_pointer_worlds()?;
        self.foreign_conversions()?;
        let arg = |n: Option<&str>| b::FunArg {
            name: n.map(|n| ident(n, main_span)),
            ty: int_map_type(0, main_span),
            span: main_span,
        };
        decls.extend(float::declarations(&self.fp_used.borrow(), main_span));
        if self.unspecified_used {
            decls.push(b::Decl::Function(b::FunctionDecl {
                attrs: vec![b::Attribute {
                    name: ident("overapproximation", main_span),
                    args: vec![b::AttrArg::Str(
                        "unspecified value of a union member".into(),
                    )],
                    span: main_span,
                }],
                name: ident(mem::UNSPECIFIED, main_span),
                type_params: Vec::new(),
                params: vec![arg(Some("x"))],
                result: arg(None),
                body: None,
                span: main_span,
            }));
        }
        let conv = self.conv_fns.iter().map(|n| (*n, mem::conv_arity(n)));
        for (name, arity) in self.bitwise_fns.iter().map(|n| (n.as_str(), 2)).chain(conv) {
            let (what, width) = match name.split_once('~') {
                Some((w, bits)) => (w, bits.parse::<u32>().ok()),
                None => (name, None),
            };
            let mut attrs = vec![b::Attribute {
                name: ident("overapproximation", main_span),
                args: vec![b::AttrArg::Str(what.to_string())],
                span: main_span,
            }];
            // the bitwise operators on two values of one integer type, and shifts of a value of
            // `width` bits: their two's-complement result (a counterexample through them is
            // confirmed with it, see `engine::counterexample`)
            let concrete = match what {
                "bitwiseAnd" => Some("and"),
                "bitwiseOr" => Some("or"),
                "bitwiseXor" => Some("xor"),
                "shiftLeft" => Some("shl"),
                "shiftRight" => Some("shr"),
                _ => None,
            }
            .filter(|_| width.is_some());
            if let Some(c) = concrete {
                let mut args = vec![b::AttrArg::Str(c.to_string())];
                args.extend(width.map(|w| b::AttrArg::Expr(int(i64::from(w), main_span))));
                attrs.push(b::Attribute {
                    name: ident("concrete", main_span),
                    args,
                    span: main_span,
                });
            }
            decls.push(b::Decl::Function(b::FunctionDecl {
                attrs,
                name: ident(&format!("~{name}"), main_span),
                type_params: Vec::new(),
                params: ["x", "y"][..arity].iter().map(|n| arg(Some(n))).collect(),
                result: arg(None),
                body: None,
                span: main_span,
            }));
        }
        let spec = |span: Span| {
            if modifies.is_empty() {
                Vec::new()
            } else {
                vec![b::Spec {
                    free: false,
                    kind: b::SpecKind::Modifies(modifies.clone()),
                    span,
                }]
            }
        };
        // ULTIMATE.start: initialise the globals, call main (in library mode: one of the
        // functions, chosen nondeterministically).
        let mut calls: Vec<Vec<b::Stmt>> = Vec::new();
        for name in entries {
            let Some(f) = self.funcs.get(name.as_str()).cloned() else {
                continue;
            };
            let mut call = Vec::new();
            let at = f.span;
            let mut args = Vec::new();
            for (_, t, _) in &f.params {
                let CType::Int(it) = t else {
                    return unsupported(
                        format!("`{name}` with a parameter of type {}", t.describe()),
                        f.span,
                    );
                };
                let tmp = self.temp(at);
                call.extend(self.nondet(&tmp, *it, at));
                args.push(Some(var(&tmp, at)));
            }
            // (results of any other type are left unassigned: ignored)
            let outs = if matches!(f.ret, CType::Int(_)) {
                vec![ident(&self.temp(at), at)]
            } else {
                Vec::new()
            };
            call.push(super::build::call(&proc_name(name), outs, args, at));
            calls.push(call);
        }
        let mut choice = calls.pop().unwrap_or_default();
        while let Some(call) = calls.pop() {
            choice = vec![stmt(
                b::StmtKind::If {
                    cond: None,
                    then_branch: call,
                    else_branch: Some(b::Else::Block(choice)),
                },
                main_span,
            )];
        }
        init.extend(choice);
        if self.memsafety {
            // `main` returned: its locals are gone, so heap memory still allocated is lost unless
            // a global variable can point to it (or another thread still runs)
            let roots = self.forks || self.globals.values().any(|g| self.may_hold_pointer(&g.ty));
            let kind = if roots {
                Check::MemtrackUnsure
            } else {
                Check::Memtrack
            };
            init.extend(self.check(kind, self.all_heap_freed(main_span), main_span));
        }
        if self.memcleanup {
            // `main` returned: the program ends (other threads with it)
            init.extend(self.check(Check::Memcleanup, self.all_heap_freed(main_span), main_span));
        }
        let start_locals = std::mem::take(&mut self.f.locals);
        let mut procs = std::mem::take(&mut self.procs);
        if self.atomic_markers {
            for n in ["__VERIFIER_atomic_begin", "__VERIFIER_atomic_end"] {
                procs.push(ProcOut {
                    name: n.into(),
                    params: Vec::new(),
                    returns: Vec::new(),
                    locals: Vec::new(),
                    body: None,
                    specs: Vec::new(),
                    span: main_span,
                });
            }
        }
        procs.sort_by(|a, b| a.name.cmp(&b.name));
        procs.insert(
            0,
            ProcOut {
                name: "ULTIMATE.start".into(),
                params: Vec::new(),
                returns: Vec::new(),
                locals: start_locals,
                body: Some(init),
                specs: Vec::new(),
                span: main_span,
            },
        );
        for mut p in procs {
            if let (Some(races), Some(stmts)) = (&races, p.body.as_mut()) {
                let stmts = races
                    .instrument(std::mem::take(stmts))
                    .or_else(|(what, span)| {
                        unsupported(format!("data-race check of {what}"), span)
                    })?;
                p.locals
                    .push((races.value.clone(), int_map_type(0, p.span)));
                p.body = Some(stmts);
            }
            let locals = p
                .locals
                .into_iter()
                .map(|(n, t)| b::VarDecl {
                    attrs: Vec::new(),
                    vars: vec![typed(&n, t, p.span)],
                    span: p.span,
                })
                .collect();
            let mut specs = p.specs;
            if p.body.is_some() {
                specs.extend(spec(p.span));
            }
            decls.push(b::Decl::Procedure(b::ProcDecl {
                attrs: Vec::new(),
                name: ident(&p.name, p.span),
                type_params: Vec::new(),
                params: p.params,
                returns: p.returns,
                specs,
                body: p.body.map(|stmts| body(locals, stmts, p.span)),
                span: p.span,
            }));
        }
        for (key, g) in &self.globals {
            if key.contains('#') {
                continue; // a static local (not a file-scope name)
            }
            if let (CType::Int(t), false, false, true) =
                (&g.ty, g.mem, g.mutex, self.used_globals.contains(key))
            {
                self.cmap.globals.push(super::CVar {
                    name: key.clone(),
                    boogie: g.name.clone(),
                    function: String::new(),
                    min: t.min(self.arch),
                    max: t.max(self.arch),
                    scope: Span::new(0, u32::MAX as usize),
                });
            }
        }
        if self.fixed_made != self.fixed_bases {
            return Err(Unsupported {
                what: "internal: the number of objects with a fixed base changed".into(),
                span: main_span,
                needs_memory: None,
                fixed_bases: Some(self.fixed_made),
            });
        }
        let notes = super::Notes {
            memtrack_open: self.memsafety && self.mem.heap,
            forks: self.forks,
            map: std::mem::take(&mut self.cmap),
        };
        Ok((b::Program { decls }, notes))
    }

    /// Whether an object of type `t` may hold a pointer (conservatively: yes for a type that is
    /// not translated).
    fn may_hold_pointer(&self, t: &CType) -> bool {
        match t {
            CType::Void | CType::Int(_) | CType::Str => false,
            CType::Array(e, _) => self.may_hold_pointer(e),
            CType::Struct(tag) => match self.structs.get(tag) {
                Some(Ok(fields)) => fields.iter().any(|(_, t)| self.may_hold_pointer(t)),
                _ => true,
            },
            _ => true,
        }
    }

    /// Under `valid-memsafety`, the check (`Check::MemtrackUnsure`) that no heap memory is
    /// allocated where the program ends other than by `main` returning (`exit`, `abort`, …): the
    /// memory may still be reachable there, so a violation is not reported as one.
    /// Under `valid-memcleanup`, the check that no heap memory is allocated there: `Memcleanup` where
    /// the program ends normally (`exit`), `MemcleanupUnsure` where it ends abnormally.
    fn memtrack_at_end(&self, span: Span, out: &mut Vec<b::Stmt>) {
        self.memory_at_end(false, span, out)
    }

    /// `memtrack_at_end`, where `normal` says the program ends normally (`exit`).
    fn memory_at_end(&self, normal: bool, span: Span, out: &mut Vec<b::Stmt>) {
        if self.memsafety {
            out.extend(self.check(Check::MemtrackUnsure, self.all_heap_freed(span), span));
        }
        if self.memcleanup {
            let kind = if normal {
                Check::Memcleanup
            } else {
                Check::MemcleanupUnsure
            };
            out.extend(self.check(kind, self.all_heap_freed(span), span));
        }
    }

    /// Whether live heap objects are counted (`#heap_live`): under `valid-memsafety` and
    /// `valid-memcleanup`.
    pub(super) fn counts_heap(&self) -> bool {
        self.memsafety || self.memcleanup
    }

    /// No heap object is live (`#heap_live == 0`).
    fn all_heap_freed(&self, span: Span) -> b::Expr {
        bin(BinOp::Eq, var(mem::HEAP_LIVE, span), int(0, span), span)
    }

    /// An initialiser (list) of constant zeros (without designators).
    fn zero_initializer(&mut self, i: &'a Node<c::Initializer>) -> bool {
        match &i.node {
            c::Initializer::Expression(e) => {
                is_null(&e.node) || self.const_eval(e).is_some_and(|(v, _)| v.is_zero())
            }
            c::Initializer::List(items) => items.iter().all(|it| {
                it.node.designation.is_empty() && self.zero_initializer(&it.node.initializer)
            }),
        }
    }

    /// `havoc x; assume min <= x <= max`.
    fn nondet(&self, name: &str, t: IntTy, span: Span) -> Vec<b::Stmt> {
        vec![
            havoc(name, span),
            assume(self.in_range(var(name, span), t, span), span),
        ]
    }

    fn in_range(&self, e: b::Expr, t: IntTy, span: Span) -> b::Expr {
        bin(
            BinOp::And,
            bin(BinOp::Le, lit(&t.min(self.arch), span), e.clone(), span),
            bin(BinOp::Le, e, lit(&t.max(self.arch), span), span),
            span,
        )
    }

    /// Initialises a global (zero without initialiser; integers by constant expressions, pointers
    /// by address constants). An object in memory is already zero.
    fn global_init(
        &mut self,
        root: &Place,
        ini: Option<&'a Node<c::Initializer>>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        let ty = root.ty().clone();
        if !matches!(
            ty,
            CType::Int(_) | CType::Float(_) | CType::Ptr(_) | CType::Array(..) | CType::Struct(_)
        ) {
            return unsupported(format!("global of type {}", ty.describe()), span);
        }
        let in_mem = matches!(root, Place::Mem { .. });
        if in_mem && ini.is_none() {
            return Ok(());
        }
        let whole_var =
            matches!(root, Place::Var(lv) if lv.path.is_empty() && lv.indices.is_empty());
        let (cells, aggs, sparse) = self.aggregate_cells(&ty, ini, whole_var || in_mem, span)?;
        if !aggs.is_empty() {
            return unsupported("non-constant global initialiser", span);
        }
        if sparse && !in_mem {
            self.zero_place(root, &ty, span, out)?;
        }
        for (cell, e) in cells {
            let v = match (&cell.ty, e) {
                (_, None) if in_mem => continue,
                (CType::Int(_), None) => SVal::Int(int(0, span)),
                (CType::Float(f), None) => SVal::Float(self.float_zero(*f, span)),
                (_, None) => SVal::Ptr(int(0, span), int(0, span)),
                (CType::Int(t), Some(Init::Char(b))) => {
                    SVal::Int(lit(&ints::convert(&BigInt::from(b), *t, self.arch), span))
                }
                (_, Some(Init::Char(_))) => {
                    return unsupported("string literal initialising a non-character", span);
                }
                (CType::Int(t), Some(Init::Expr(e))) => match self.const_eval(e) {
                    Some((v, _)) => SVal::Int(lit(&ints::convert(&v, *t, self.arch), span)),
                    None => return unsupported("non-constant global initialiser", span),
                },
                (t, Some(Init::Expr(e))) => {
                    let mut buf = Vec::new();
                    let literals = self.static_literals.len();
                    let v = self.expr(e, &mut buf)?;
                    if !buf.is_empty() && self.static_literals.len() == literals {
                        return unsupported("global pointer initialiser with side effects", span);
                    }
                    // the allocation and initialisation of a compound literal at file scope
                    out.append(&mut buf);
                    self.scalar_value(v, &t.clone(), span)?
                }
            };
            let place = self.cell_place(root, &cell, span);
            self.store_place(&place, v, span, out)?;
        }
        Ok(())
    }

    /// Every scalar cell of an aggregate with its initialising expression (`None`: zero), and
    /// the sub-aggregates initialised by a struct value.
    ///
    /// With `sparse` allowed, an aggregate that holds an array and whose cells are integers or
    /// pointers outside unions, initialised by scalars only, has just the cells its initialiser
    /// gives (the third component is then `true`): the caller zeroes the aggregate at once
    /// (`zero_place`), whatever its size, before it writes them.
    #[allow(clippy::type_complexity)]
    fn aggregate_cells(
        &mut self,
        ty: &CType,
        ini: Option<&'a Node<c::Initializer>>,
        sparse: bool,
        span: Span,
    ) -> R<(
        Vec<(Cell, Option<Init<'a>>)>,
        Vec<(Cell, &'a Node<c::Expression>)>,
        bool,
    )> {
        let sparse = sparse && self.zeroable(ty, span)?;
        let mut given: Given<'a> = BTreeMap::new();
        let saved = std::mem::take(&mut self.agg_given);
        let filled = match ini {
            Some(ini) => self.fill(ty, String::new(), Vec::new(), ini, &mut given, span),
            None => Ok(()),
        };
        if filled.is_ok() && sparse && self.agg_given.is_empty() {
            self.agg_given = saved;
            let mut cells = Vec::new();
            for ((path, idx), e) in given {
                let cell = self.cell_at(ty, path, idx, span)?;
                cells.push((cell, Some(e)));
            }
            cells.sort_by_key(|(c, _)| c.off);
            return Ok((cells, Vec::new(), true));
        }
        let mut all = Vec::new();
        let aggs = filled
            .and_then(|()| self.cells(ty, ("", &[], 0), span, &mut all))
            .and_then(|()| self.agg_inits(&all, span));
        self.agg_given = saved;
        let aggs = aggs?;
        let cells: Vec<_> = all
            .into_iter()
            .map(|c| {
                let e = given.get(&(c.path.clone(), c.idx.clone())).copied();
                (c, e)
            })
            .collect();
        Ok((Self::union_init_cells(cells, span)?, aggs, false))
    }

    /// `ty` holds an array, and its cells are integers or pointers outside unions: it can be
    /// zeroed at once (`zero_place`).
    fn zeroable(&self, ty: &CType, span: Span) -> R<bool> {
        fn no_union(t: &Translator, ty: &CType, span: Span) -> R<bool> {
            Ok(match ty {
                CType::Array(e, _) => no_union(t, e, span)?,
                CType::Struct(tag) if is_union(tag) => false,
                CType::Struct(tag) => {
                    for (_, f) in t.struct_fields(tag, span)? {
                        if !no_union(t, &f, span)? {
                            return Ok(false);
                        }
                    }
                    true
                }
                CType::Int(_) | CType::Ptr(_) => true,
                _ => false,
            })
        }
        if !no_union(self, ty, span)? {
            return Ok(false);
        }
        let leaves = self.leaves(ty, span)?;
        Ok(leaves.iter().any(|(_, dims, _)| *dims > 0)
            && leaves.iter().all(|(_, _, f)| f.is_none()))
    }

    /// Every cell of the aggregate at `root` (of type `ty`, `zeroable`) zero: each leaf of a
    /// variable the constant zero map of its dimensions, a whole object in memory (offset 0, the
    /// root of a declaration) the rows of its cells' maps.
    fn zero_place(
        &mut self,
        root: &Place,
        ty: &CType,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        match root {
            Place::Var(lv) => {
                for (path, dims, _) in self.leaves(ty, span)? {
                    let zero = self.zero_int_map(dims, span);
                    out.push(assign_var(&format!("{}{path}", lv.base), zero, span));
                }
            }
            Place::Mem { base, .. } => {
                // the maps of the cells' types: an integer cell is not read as a pointer
                let mut cells = Vec::new();
                self.scalar_types(ty, span, &mut cells)?;
                let ints = cells.iter().any(|t| matches!(t, CType::Int(_)));
                let ptrs = cells.iter().any(|t| matches!(t, CType::Ptr(_)));
                let base = base.clone();
                self.zero_rows(&base, ints, ptrs, span, out);
            }
        }
        Ok(())
    }

    /// The types of the scalars of `ty` (an integer type once, however many cells have it).
    fn scalar_types(&self, ty: &CType, span: Span, out: &mut Vec<CType>) -> R<()> {
        match ty {
            CType::Array(e, _) => self.scalar_types(e, span, out)?,
            CType::Struct(tag) => {
                for (_, f) in self.struct_fields(tag, span)? {
                    self.scalar_types(&f, span, out)?;
                }
            }
            t if !out.contains(t) => out.push(t.clone()),
            _ => {}
        }
        Ok(())
    }

    /// The cell at `path`/`idx` of an aggregate of type `ty` (without unions): its byte offset
    /// and type.
    fn cell_at(&self, ty: &CType, path: String, idx: Vec<u64>, span: Span) -> R<Cell> {
        let mut fields = path.split('.').skip(1);
        let mut indices = idx.iter();
        let mut t = ty.clone();
        let mut off = 0;
        loop {
            t = match &t {
                CType::Array(e, _) => {
                    let Some(k) = indices.next() else { break };
                    off += k * self.size_align(e, span)?.0;
                    (**e).clone()
                }
                CType::Struct(tag) => {
                    let Some(f) = fields.next() else { break };
                    let (foff, fty) = self.field_offset(tag, f, span)?;
                    off += foff;
                    fty
                }
                _ => break,
            };
        }
        if fields.next().is_some() || indices.next().is_some() || !t.is_scalar() {
            return unsupported("initialiser of a cell that is not a scalar", span);
        }
        Ok(Cell {
            path,
            idx,
            off,
            ty: t,
            unions: Vec::new(),
        })
    }

    /// The cells an initialisation writes in its unions: of a union that is initialised, those of
    /// the member initialised (the others follow it, `union_sync`); of a union that is not, those
    /// of every member, zero (C11 6.7.9p10: the first member and the padding are zero bits, so
    /// every member is zero).
    #[allow(clippy::type_complexity)]
    fn union_init_cells(
        cells: Vec<(Cell, Option<Init<'a>>)>,
        span: Span,
    ) -> R<Vec<(Cell, Option<Init<'a>>)>> {
        let mut active: BTreeMap<(String, Vec<u64>), String> = BTreeMap::new();
        for (c, e) in &cells {
            if e.is_none() {
                continue;
            }
            for u in &c.unions {
                let key = (u.at.path.clone(), u.at.idx.clone());
                match active.get(&key) {
                    Some(m) if *m != u.member => {
                        return unsupported("initialisation of two members of a union", span);
                    }
                    Some(_) => {}
                    None => {
                        active.insert(key, u.member.clone());
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (mut c, e) in cells {
            let mut keep = true;
            c.unions.retain(|u| {
                match active.get(&(u.at.path.clone(), u.at.idx.clone())) {
                    Some(m) if *m != u.member => keep = false,
                    Some(_) => return true,
                    None => {}
                }
                false
            });
            if keep {
                out.push((c, e));
            }
        }
        Ok(out)
    }

    /// Number of elements of an aggregate (array length or number of fields).
    fn agg_len(&self, ty: &CType, span: Span) -> R<Option<u64>> {
        Ok(match ty {
            CType::Array(_, n) => Some(*n),
            CType::Struct(tag) => Some(self.struct_fields(tag, span)?.len() as u64),
            _ => None,
        })
    }

    /// Element `k` of an aggregate: its type, path and indices.
    fn agg_elem(
        &self,
        ty: &CType,
        k: u64,
        path: &str,
        idx: &[u64],
        span: Span,
    ) -> R<(CType, String, Vec<u64>)> {
        match ty {
            CType::Array(e, _) => {
                let mut i = idx.to_vec();
                i.push(k);
                Ok(((**e).clone(), path.to_string(), i))
            }
            CType::Struct(tag) => {
                let fields = self.struct_fields(tag, span)?;
                let Some((f, fty)) = usize::try_from(k).ok().and_then(|k| fields.get(k)) else {
                    return unsupported("initialiser beyond the struct's fields", span);
                };
                Ok((fty.clone(), format!("{path}.{f}"), idx.to_vec()))
            }
            other => unsupported(format!("initialiser of {}", other.describe()), span),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        ty: &CType,
        path: String,
        idx: Vec<u64>,
        ini: &'a Node<c::Initializer>,
        given: &mut Given<'a>,
        span: Span,
    ) -> R<()> {
        let items = match &ini.node {
            c::Initializer::List(items) => items,
            c::Initializer::Expression(e) if ty.is_scalar() => {
                given.insert((path, idx), Init::Expr(e));
                return Ok(());
            }
            c::Initializer::Expression(e) => {
                return self.fill_string(ty, &path, &idx, e, given, span);
            }
        };
        if ty.is_scalar() {
            // `{e}`; gcc also accepts excess elements (with a warning) and ignores them, which
            // is translated only when they have no side effects
            let inert = |it: &Node<c::InitializerListItem>| {
                it.node.designation.is_empty()
                    && matches!(&it.node.initializer.node,
                        c::Initializer::Expression(e) if is_inert(&e.node))
            };
            return match items.as_slice() {
                [one, rest @ ..] if one.node.designation.is_empty() && rest.iter().all(inert) => {
                    self.fill(ty, path, idx, &one.node.initializer, given, span)
                }
                _ => unsupported("initialiser list of a scalar", span),
            };
        }
        if let Some(e) = braced_string(items) {
            if char_array_string(ty, e).is_some() {
                // `char s[4] = {"abc"}` (C11 6.7.9p14: optionally enclosed in braces)
                return self.fill_string(ty, &path, &idx, e, given, span);
            }
        }
        let mut pos = 0;
        self.fill_list(ty, &path, &idx, items, &mut pos, given, true, span)?;
        if pos < items.len() {
            return unsupported("initialiser beyond the aggregate's size", span);
        }
        Ok(())
    }

    /// A character array initialised by a string literal (C11 6.7.9p14): its characters, then the
    /// terminating zero if there is room; the rest of the array is zero like any cell not given.
    fn fill_string(
        &mut self,
        ty: &CType,
        path: &str,
        idx: &[u64],
        e: &'a Node<c::Expression>,
        given: &mut Given<'a>,
        span: Span,
    ) -> R<()> {
        let Some(bytes) = char_array_string(ty, e) else {
            return unsupported("aggregate initialised by an expression", span);
        };
        let CType::Array(_, n) = ty else {
            return unsupported("aggregate initialised by an expression", span);
        };
        if bytes.len() as u64 > *n {
            return unsupported("string literal longer than the array it initialises", span);
        }
        for (k, b) in bytes.into_iter().enumerate() {
            let mut ix = idx.to_vec();
            ix.push(k as u64);
            given.insert((path.to_string(), ix), Init::Char(b));
        }
        Ok(())
    }

    /// `e` is a value of the struct type `ty` (which then initialises a whole member, C11
    /// 6.7.9p13), found by translating it aside.
    fn is_struct_value(&mut self, e: &'a Node<c::Expression>, ty: &CType) -> bool {
        if !matches!(ty, CType::Struct(_))
            || matches!(
                e.node,
                c::Expression::Constant(_) | c::Expression::StringLiteral(_)
            )
        {
            return false;
        }
        let saved = std::mem::take(&mut self.agg_given);
        let mut scratch = Vec::new();
        let r = self.expr(e, &mut scratch);
        self.agg_given = saved;
        r.is_ok_and(|v| v.ty == *ty)
    }

    /// The sub-aggregates of `cells` initialised by a struct value (`agg_given`, taken), as
    /// cells of the aggregate.
    fn agg_inits(&mut self, cells: &[Cell], span: Span) -> R<Vec<(Cell, &'a Node<c::Expression>)>> {
        let mut out = Vec::new();
        for (path, idx, ty, e) in std::mem::take(&mut self.agg_given) {
            let prefix = format!("{path}.");
            let under: Vec<&Cell> = cells
                .iter()
                .filter(|c| c.path.starts_with(&prefix) && c.idx.starts_with(&idx))
                .collect();
            let Some(off) = under.iter().map(|c| c.off).min() else {
                return unsupported("initialisation of an empty struct", span);
            };
            let in_union = under.iter().any(|c| {
                c.unions
                    .iter()
                    .any(|u| u.at.path.len() < path.len() || u.at.idx.len() < idx.len())
            });
            if in_union {
                return unsupported("initialisation of a union member by a struct value", span);
            }
            let cell = Cell {
                path,
                idx,
                off,
                ty,
                unions: Vec::new(),
            };
            out.push((cell, e));
        }
        Ok(out)
    }

    /// Initialises the aggregate `ty` at `path`/`idx` from `items[*pos..]` (C11 6.7.9: a braced
    /// list, or with `braced == false` the items a sub-aggregate takes when its braces are elided).
    #[allow(clippy::too_many_arguments)]
    fn fill_list(
        &mut self,
        ty: &CType,
        path: &str,
        idx: &[u64],
        items: &'a [Node<c::InitializerListItem>],
        pos: &mut usize,
        given: &mut Given<'a>,
        braced: bool,
        span: Span,
    ) -> R<()> {
        let Some(n) = self.agg_len(ty, span)? else {
            return unsupported(format!("initialiser of {}", ty.describe()), span);
        };
        if n == 0 || n == UNKNOWN_LEN {
            return unsupported("aggregate of zero or unknown size", span);
        }
        let mut k = 0u64;
        while *pos < items.len() {
            let item = &items[*pos];
            match item.node.designation.as_slice() {
                [] => {}
                [d] if braced => match (&d.node, ty) {
                    (c::Designator::Index(e), CType::Array(..)) => {
                        match self.const_eval(e).and_then(|(v, _)| v.to_u64()) {
                            Some(v) => k = v,
                            None => return unsupported("non-constant array designator", span),
                        }
                    }
                    (c::Designator::Member(m), CType::Struct(tag)) => {
                        let fields = self.struct_fields(tag, span)?;
                        match fields.iter().position(|(f, _)| *f == m.node.name) {
                            Some(i) => k = i as u64,
                            None => return unsupported("designator of an unknown field", span),
                        }
                    }
                    _ => return unsupported("designated initialiser", span),
                },
                [first, rest @ ..] if braced => {
                    // a designator list names a sub-object (C11 6.7.9p17); the initialisation
                    // would go on after it, inside the aggregate it is in, so the next item must
                    // designate its own sub-object
                    if items
                        .get(*pos + 1)
                        .is_some_and(|it| it.node.designation.is_empty())
                    {
                        return unsupported(
                            "initialiser after a nested designation without designation",
                            span,
                        );
                    }
                    let k0 = self.designator_index(&first.node, ty, span)?;
                    if k0 >= n {
                        return unsupported("initialiser beyond the aggregate's size", span);
                    }
                    let (ety, p, ix) = self.agg_elem(ty, k0, path, idx, span)?;
                    self.fill_designated(&ety, p, ix, rest, &item.node.initializer, given, span)?;
                    *pos += 1;
                    continue;
                }
                _ => return unsupported("designated initialiser", span),
            }
            if k >= n {
                if braced {
                    return unsupported("initialiser beyond the aggregate's size", span);
                }
                return Ok(());
            }
            let (ety, p, ix) = self.agg_elem(ty, k, path, idx, span)?;
            match &item.node.initializer.node {
                c::Initializer::List(_) => {
                    self.fill(&ety, p, ix, &item.node.initializer, given, span)?;
                    *pos += 1;
                }
                c::Initializer::Expression(e) if ety.is_scalar() => {
                    given.insert((p, ix), Init::Expr(e));
                    *pos += 1;
                }
                c::Initializer::Expression(e) if char_array_string(&ety, e).is_some() => {
                    self.fill_string(&ety, &p, &ix, e, given, span)?;
                    *pos += 1;
                }
                c::Initializer::Expression(e) if self.is_struct_value(e, &ety) => {
                    self.agg_given.push((p, ix, ety, e));
                    *pos += 1;
                }
                c::Initializer::Expression(_) => {
                    self.fill_list(&ety, &p, &ix, items, pos, given, false, span)?;
                }
            }
            k += 1;
            if matches!(ty, CType::Struct(tag) if is_union(tag)) {
                // one member of a union is initialised
                k = n;
            }
        }
        Ok(())
    }

    /// The element or member of the aggregate `ty` a designator names.
    fn designator_index(&mut self, d: &'a c::Designator, ty: &CType, span: Span) -> R<u64> {
        match (d, ty) {
            (c::Designator::Index(e), CType::Array(..)) => {
                match self.const_eval(e).and_then(|(v, _)| v.to_u64()) {
                    Some(v) => Ok(v),
                    None => unsupported("non-constant array designator", span),
                }
            }
            (c::Designator::Member(m), CType::Struct(tag)) => {
                let fields = self.struct_fields(tag, span)?;
                match fields.iter().position(|(f, _)| *f == m.node.name) {
                    Some(i) => Ok(i as u64),
                    None => unsupported("designator of an unknown field", span),
                }
            }
            _ => unsupported("designated initialiser", span),
        }
    }

    /// Initialises the sub-object of `ty` (at `path`/`idx`) that the designators `ds` name with
    /// `ini` (the rest of a designator list, C11 6.7.9p17).
    #[allow(clippy::too_many_arguments)]
    fn fill_designated(
        &mut self,
        ty: &CType,
        path: String,
        idx: Vec<u64>,
        ds: &'a [Node<c::Designator>],
        ini: &'a Node<c::Initializer>,
        given: &mut Given<'a>,
        span: Span,
    ) -> R<()> {
        let Some((d, rest)) = ds.split_first() else {
            return match &ini.node {
                c::Initializer::List(_) => self.fill(ty, path, idx, ini, given, span),
                c::Initializer::Expression(e) if ty.is_scalar() => {
                    given.insert((path, idx), Init::Expr(e));
                    Ok(())
                }
                c::Initializer::Expression(e) if char_array_string(ty, e).is_some() => {
                    self.fill_string(ty, &path, &idx, e, given, span)
                }
                c::Initializer::Expression(e) if self.is_struct_value(e, ty) => {
                    self.agg_given.push((path, idx, ty.clone(), e));
                    Ok(())
                }
                c::Initializer::Expression(_) => {
                    unsupported("designated aggregate initialised without braces", span)
                }
            };
        };
        let Some(n) = self.agg_len(ty, span)? else {
            return unsupported(format!("initialiser of {}", ty.describe()), span);
        };
        let k = self.designator_index(&d.node, ty, span)?;
        if k >= n {
            return unsupported("initialiser beyond the aggregate's size", span);
        }
        let (ety, p, ix) = self.agg_elem(ty, k, &path, &idx, span)?;
        self.fill_designated(&ety, p, ix, rest, ini, given, span)
    }

    // ----- statements -------------------------------------------------------------------------

    fn stmt(&mut self, s: &'a Node<c::Statement>, out: &mut Vec<b::Stmt>) -> R<()> {
        let span = self.sp(s.span);
        self.cmap.statements.push(span);
        match &s.node {
            c::Statement::Compound(items) => {
                self.enter_block();
                for it in items {
                    self.block_item(it, out)?;
                }
                self.leave_block(span, out);
            }
            c::Statement::Expression(e) => {
                if let Some(e) = e {
                    self.expr(e, out)?;
                }
            }
            c::Statement::If(i) => {
                let cond = self.cond(&i.node.condition, out)?;
                let c_cond = self.sp(i.node.condition.span);
                self.note_branch(super::BranchKind::If, c_cond, &cond, false, span);
                // each branch is a block (C11 6.8.4)
                let mut then_b = Vec::new();
                self.enter_block();
                self.stmt(&i.node.then_statement, &mut then_b)?;
                self.leave_block(span, &mut then_b);
                let mut else_b = Vec::new();
                if let Some(e) = &i.node.else_statement {
                    self.enter_block();
                    self.stmt(e, &mut else_b)?;
                    self.leave_block(span, &mut else_b);
                }
                out.push(if_(cond, then_b, else_b, span));
            }
            c::Statement::While(w) => self.lp(
                Some(&w.node.expression),
                &w.node.statement,
                None,
                super::BranchKind::While,
                span,
                out,
            )?,
            c::Statement::DoWhile(w) => self.lp(
                Some(&w.node.expression),
                &w.node.statement,
                None,
                super::BranchKind::DoWhile,
                span,
                out,
            )?,
            c::Statement::For(f) => {
                self.enter_block();
                match &f.node.initializer.node {
                    c::ForInitializer::Empty => {}
                    c::ForInitializer::StaticAssert(sa) => {
                        let sp = self.sp(sa.span);
                        self.static_assert(&sa.node.expression, sp, out)?
                    }
                    c::ForInitializer::Expression(e) => {
                        self.expr(e, out)?;
                    }
                    c::ForInitializer::Declaration(d) => self.local_declaration(d, out)?,
                }
                self.lp(
                    f.node.condition.as_deref(),
                    &f.node.statement,
                    f.node.step.as_deref(),
                    super::BranchKind::For,
                    span,
                    out,
                )?;
                self.leave_block(span, out);
            }
            c::Statement::Goto(l) => {
                self.f.gotos = true;
                self.f.jumps_seen = true;
                out.push(goto(&format!("L~{}", l.node.name), span))
            }
            c::Statement::Continue => match self.f.loops.last_mut() {
                Some((l, used, depth)) => {
                    *used = true;
                    let (l, depth) = (l.clone(), *depth);
                    out.extend(self.free_scopes(depth, span));
                    out.push(goto(&l, span));
                }
                None => return unsupported("`continue` outside a loop", span),
            },
            c::Statement::Break => match self.f.breaks.last() {
                Some(BreakTarget::Loop(depth)) => {
                    let depth = *depth;
                    out.extend(self.free_scopes(depth, span));
                    out.push(stmt(b::StmtKind::Break(None), span))
                }
                Some(BreakTarget::Label(l, depth)) => {
                    let (l, depth) = (l.clone(), *depth);
                    out.extend(self.free_scopes(depth, span));
                    out.push(goto(&l, span));
                }
                None => return unsupported("`break` outside a loop or switch", span),
            },
            c::Statement::Return(e) => {
                if let Some(e) = e.as_ref().filter(|_| self.f.thread && self.f.ret.is_none()) {
                    if !is_inert(&e.node) {
                        return unsupported(
                            "result of a thread start routine with side effects",
                            span,
                        );
                    }
                } else if let Some(e) = e
                    .as_ref()
                    .filter(|_| matches!(self.f.ret, Some(CType::Struct(_))))
                {
                    let rt = self.f.ret.clone().unwrap_or(CType::Void);
                    let src = self.struct_source(e, &rt, span, out)?;
                    let res = Place::Var(LVal {
                        base: "#res".into(),
                        path: String::new(),
                        indices: Vec::new(),
                        ty: rt,
                        unions: Vec::new(),
                    });
                    self.copy_place(&res, &src, span, out)?;
                } else if let Some(e) = e {
                    let v = self.expr(e, out)?;
                    if let Some(rt) = self.f.ret.clone() {
                        let val = self.scalar_value(v, &rt, span)?;
                        let res = Place::Var(LVal {
                            base: "#res".into(),
                            path: String::new(),
                            indices: Vec::new(),
                            ty: rt,
                            unions: Vec::new(),
                        });
                        self.store_place(&res, val, span, out)?;
                    }
                }
                out.extend(self.free_scopes(0, span));
                out.push(stmt(b::StmtKind::Return, span));
            }
            c::Statement::Labeled(l) => {
                match &l.node.label.node {
                    c::Label::Identifier(i) => {
                        self.f.jumps_seen = true;
                        out.push(label(&format!("L~{}", i.node.name), span))
                    }
                    c::Label::Case(e) => {
                        let Some(sw) = self.f.switches.len().checked_sub(1) else {
                            return unsupported("`case` outside a switch", span);
                        };
                        let Some((v, _)) = self.const_eval(e) else {
                            return unsupported("non-constant case label", span);
                        };
                        let t = self.f.switches[sw].ty;
                        let v = ints::convert(&v, t, self.arch);
                        let name = self.fresh_label("case");
                        self.f.switches[sw]
                            .cases
                            .push((Some((v.clone(), v)), name.clone()));
                        out.push(label(&name, span));
                    }
                    c::Label::CaseRange(r) => {
                        let Some(sw) = self.f.switches.len().checked_sub(1) else {
                            return unsupported("`case` outside a switch", span);
                        };
                        let (Some((lo, _)), Some((hi, _))) =
                            (self.const_eval(&r.node.low), self.const_eval(&r.node.high))
                        else {
                            return unsupported("non-constant case label", span);
                        };
                        let t = self.f.switches[sw].ty;
                        let lo = ints::convert(&lo, t, self.arch);
                        let hi = ints::convert(&hi, t, self.arch);
                        let name = self.fresh_label("case");
                        self.f.switches[sw]
                            .cases
                            .push((Some((lo, hi)), name.clone()));
                        out.push(label(&name, span));
                    }
                    c::Label::Default => {
                        let Some(sw) = self.f.switches.len().checked_sub(1) else {
                            return unsupported("`default` outside a switch", span);
                        };
                        let name = self.fresh_label("default");
                        self.f.switches[sw].cases.push((None, name.clone()));
                        out.push(label(&name, span));
                    }
                }
                self.stmt(&l.node.statement, out)?;
            }
            c::Statement::Switch(sw) => {
                let v = self.expr(&sw.node.expression, out)?;
                let t = ints::promote(v.int_ty(span)?);
                let val = self.convert(&v, t, span)?;
                let tmp = self.temp(span);
                out.push(assign_var(&tmp, val, span));
                let end = self.fresh_label("switch_end");
                self.f.switches.push(SwitchCtx {
                    ty: t,
                    cases: Vec::new(),
                });
                let depth = self.f.mem_scopes.len();
                self.f.breaks.push(BreakTarget::Label(end.clone(), depth));
                let mut body = Vec::new();
                let r = self.stmt(&sw.node.statement, &mut body);
                self.f.breaks.pop();
                let ctx = self.f.switches.pop();
                r?;
                let mut default = None;
                for (v, l) in ctx.map(|c| c.cases).unwrap_or_default() {
                    match v {
                        Some((lo, hi)) => {
                            let c = if lo == hi {
                                bin(BinOp::Eq, var(&tmp, span), lit(&lo, span), span)
                            } else {
                                bin(
                                    BinOp::And,
                                    bin(BinOp::Le, lit(&lo, span), var(&tmp, span), span),
                                    bin(BinOp::Le, var(&tmp, span), lit(&hi, span), span),
                                    span,
                                )
                            };
                            out.push(if_(c, vec![goto(&l, span)], Vec::new(), span))
                        }
                        None => default = Some(l),
                    }
                }
                out.push(goto(default.as_ref().unwrap_or(&end), span));
                out.extend(body);
                out.push(label(&end, span));
                out.push(assume(boolean(true, span), span));
            }
            c::Statement::Asm(_) => return unsupported("inline assembly", span),
        }
        Ok(())
    }

    /// `_Static_assert(e, msg)`: checked as Ultimate does, as an assertion where it stands (a false
    /// one is an error, as a failing `assert`).
    fn static_assert(
        &mut self,
        e: &'a Node<c::Expression>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        match self.const_eval(e) {
            Some((v, _)) if v.is_zero() => {
                out.extend(self.check(Check::Assertion, boolean(false, span), span));
                Ok(())
            }
            Some(_) => Ok(()),
            None => unsupported("static assertion that is not an integer constant", span),
        }
    }

    fn enter_block(&mut self) {
        self.scopes.push(HashMap::new());
        self.f.mem_scopes.push(Vec::new());
    }

    /// Leaves a block normally: its stack objects are invalidated.
    fn leave_block(&mut self, span: Span, out: &mut Vec<b::Stmt>) {
        let depth = self.f.mem_scopes.len().saturating_sub(1);
        out.extend(self.free_scopes(depth, span));
        self.f.mem_scopes.pop();
        self.close_locals(span.end);
        self.scopes.pop();
    }

    fn block_item(&mut self, it: &'a Node<c::BlockItem>, out: &mut Vec<b::Stmt>) -> R<()> {
        match &it.node {
            c::BlockItem::Declaration(d) => {
                let span = self.sp(d.span);
                self.cmap.statements.push(span);
                self.local_declaration(d, out)
            }
            c::BlockItem::StaticAssert(sa) => {
                let span = self.sp(sa.span);
                self.static_assert(&sa.node.expression, span, out)
            }
            c::BlockItem::Statement(s) => self.stmt(s, out),
        }
    }

    /// `while`, `do … while` and `for` (with `step`): `while (c) { body; #cont: step }`, or with the
    /// condition's side effects inside `while (true)`.
    fn lp(
        &mut self,
        cond: Option<&'a Node<c::Expression>>,
        body_s: &'a Node<c::Statement>,
        step: Option<&'a Node<c::Expression>>,
        kind: super::BranchKind,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        let do_while = kind == super::BranchKind::DoWhile;
        let c_cond = cond.map_or(span, |e| self.sp(e.span));
        let body_start = self.sp(body_s.span).start;
        self.cmap.loops.push((span, body_start));
        let cont = self.fresh_label("continue");
        let mut pre = Vec::new();
        self.f.loop_header += 1;
        let c = match cond {
            Some(e) => self.cond(e, &mut pre),
            None => Ok(boolean(true, span)),
        };
        self.f.loop_header -= 1;
        let c = c?;
        let depth = self.f.mem_scopes.len();
        self.f.loops.push((cont.clone(), false, depth));
        self.f.breaks.push(BreakTarget::Loop(depth));
        let mut body = Vec::new();
        let exit = vec![if_(
            not(c.clone(), span),
            vec![stmt(b::StmtKind::Break(None), span)],
            Vec::new(),
            span,
        )];
        let simple = pre.is_empty() && !do_while;
        if !simple && !do_while {
            body.extend(pre.clone());
            body.extend(exit.clone());
            self.note_branch(kind, c_cond, &not(c.clone(), span), true, span);
        } else if simple {
            self.note_branch(kind, c_cond, &c, false, span);
        }
        // the body is a block (C11 6.8.5), left at the end of each iteration
        self.enter_block();
        let r = self.stmt(body_s, &mut body);
        self.leave_block(span, &mut body);
        self.f.breaks.pop();
        let used = self.f.loops.pop().is_some_and(|(_, u, _)| u);
        r?;
        if used {
            body.push(label(&cont, span));
            body.push(assume(boolean(true, span), span));
        }
        self.f.loop_header += 1;
        let r = (|| {
            if let Some(st) = step {
                self.expr(st, &mut body)?;
            }
            Ok(())
        })();
        self.f.loop_header -= 1;
        r?;
        if do_while {
            // the condition is evaluated again after each iteration
            let mut pre2 = Vec::new();
            self.f.loop_header += 1;
            let c2 = match cond {
                Some(e) => self.cond(e, &mut pre2),
                None => Ok(boolean(true, span)),
            };
            self.f.loop_header -= 1;
            let c2 = c2?;
            body.extend(pre2);
            self.note_branch(kind, c_cond, &not(c2.clone(), span), true, span);
            body.push(if_(
                not(c2, span),
                vec![stmt(b::StmtKind::Break(None), span)],
                Vec::new(),
                span,
            ));
        }
        out.push(stmt(
            b::StmtKind::While {
                cond: Some(if simple { c } else { boolean(true, span) }),
                invariants: Vec::new(),
                body,
            },
            span,
        ));
        Ok(())
    }

    fn local_declaration(&mut self, d: &'a Node<c::Declaration>, out: &mut Vec<b::Stmt>) -> R<()> {
        let storage = Self::storage(&d.node.specifiers);
        let base = self.base_type_decl(&d.node.specifiers);
        for id in &d.node.declarators {
            let span = self.sp(id.span);
            // a variable-length array: its size is evaluated where the declaration is reached
            if let (
                None | Some(c::StorageClassSpecifier::Auto | c::StorageClassSpecifier::Register),
                Some(e),
            ) = (&storage, vla_size(&id.node.declarator))
            {
                if self.const_eval(e).is_none() {
                    let v = self.expr(e, out)?;
                    v.int_ty(span)?;
                    let count = self.new_local("#vla", int_map_type(0, span));
                    out.push(assign_var(&count, v.to_int(span), span));
                    self.vla_count = Some(count);
                }
            }
            let (name, ty, fdecl) = self.declarator(base.clone(), &id.node.declarator);
            self.vla_count = None;
            let Some(name) = name else { continue };
            match storage {
                Some(c::StorageClassSpecifier::Typedef) => {
                    let ty = self.typedef_type(ty, fdecl);
                    self.atomic_typedef(&name, &d.node.specifiers);
                    self.bind(&name, Binding::Typedef(ty));
                    continue;
                }
                Some(c::StorageClassSpecifier::Extern) => {
                    if let Some(fd) = fdecl {
                        self.declare_function(&name, ty, fd, None, span, id.span.start);
                    } else if self.globals.contains_key(&name) {
                        self.bind(&name, Binding::Global(name.clone()));
                    } else {
                        return unsupported("block-scope `extern` declaration", span);
                    }
                    continue;
                }
                Some(c::StorageClassSpecifier::Static) if fdecl.is_none() => {
                    self.statics += 1;
                    let key = format!("{name}#static{}", self.statics);
                    let order = self.globals.len();
                    let gname = format!("~{name}~static{}", self.statics);
                    self.var_keys.insert(gname.clone(), format!("G{key}"));
                    self.globals.insert(
                        key.clone(),
                        Global {
                            name: gname,
                            ty,
                            mem: self.in_mem.contains(&format!("G{key}")),
                            mutex: false,
                            init: id.node.initializer.as_ref(),
                            order,
                            span,
                        },
                    );
                    self.used_globals.insert(key.clone());
                    self.bind(&name, Binding::Global(key));
                    continue;
                }
                Some(c::StorageClassSpecifier::ThreadLocal) => {
                    return unsupported("thread-local variable", span);
                }
                _ => {}
            }
            if let Some(fd) = fdecl {
                self.declare_function(&name, ty, fd, None, span, id.span.start);
                continue;
            }
            if let CType::Vla(elem, count) = &ty {
                if id.node.initializer.is_some() {
                    return unsupported("initialiser of a variable-length array", span);
                }
                let base = self.vla_object(&name, elem, count, span, out)?;
                self.bind(&name, Binding::Mem { base, ty });
                continue;
            }
            let ty = self.complete_array(ty, id.node.initializer.as_ref());
            if !matches!(
                ty,
                CType::Int(_)
                    | CType::Float(_)
                    | CType::Ptr(_)
                    | CType::Array(..)
                    | CType::Struct(_)
            ) {
                return unsupported(format!("variable of type {}", ty.describe()), span);
            }
            let key = format!("L{}", id.span.start);
            let ini = id.node.initializer.as_ref();
            let root = if self.in_mem.contains(&key) {
                let base = self.stack_object(&name, &ty, span, out)?;
                self.bind(
                    &name,
                    Binding::Mem {
                        base: base.clone(),
                        ty: ty.clone(),
                    },
                );
                Place::Mem {
                    base: var(&base, span),
                    off: int(0, span),
                    ty: ty.clone(),
                    safe: true,
                    unions: Vec::new(),
                }
            } else {
                self.f.counter += 1;
                let local = format!("{name}~{}", self.f.counter);
                self.note_local(&name, &local, &ty, span.start);
                for (path, dims, elem) in self.leaves(&ty, span)? {
                    let leaf = format!("{local}{path}");
                    self.f
                        .locals
                        .push((leaf.clone(), leaf_type(dims, elem, span)));
                    match (&ty, ini) {
                        (CType::Int(t), None) => out.extend(self.nondet(&leaf, *t, span)),
                        (CType::Int(_) | CType::Float(_) | CType::Ptr(_), Some(_)) => {}
                        _ => out.push(havoc(&leaf, span)),
                    }
                }
                if ini.is_none() && !ty.is_scalar() {
                    // an indeterminate value is a value of its type: a scalar member's range
                    // assumed now, an array element's where it is read (`read_place`)
                    for (path, dims, t) in self.int_leaves(&ty, span)? {
                        if dims == 0 {
                            let leaf = var(&format!("{local}{path}"), span);
                            out.push(assume(self.in_range(leaf, t, span), span));
                        }
                    }
                }
                self.var_keys.insert(local.clone(), key);
                self.bind(
                    &name,
                    Binding::Local {
                        name: local.clone(),
                        ty: ty.clone(),
                    },
                );
                Place::Var(LVal {
                    base: local,
                    path: String::new(),
                    indices: Vec::new(),
                    ty: ty.clone(),
                    unions: Vec::new(),
                })
            };
            let Some(ini) = ini else { continue };
            match (&ini.node, ty.is_scalar()) {
                (c::Initializer::Expression(e), true) => {
                    let v = self.expr(e, out)?;
                    let val = self.scalar_value(v, &ty, span)?;
                    self.store_place(&root, val, span, out)?;
                }
                (c::Initializer::Expression(e), false) if char_array_string(&ty, e).is_some() => {
                    self.init_aggregate(&root, &ty, ini, span, out)?;
                }
                (c::Initializer::Expression(e), false) => {
                    if !matches!(ty, CType::Struct(_)) {
                        return unsupported(format!("initialisation of {}", ty.describe()), span);
                    }
                    let src = self.struct_source(e, &ty, span, out)?;
                    self.copy_place(&root, &src, span, out)?;
                }
                (c::Initializer::List(_), _) => {
                    self.init_aggregate(&root, &ty, ini, span, out)?;
                }
            }
        }
        Ok(())
    }

    /// Initialises the aggregate of a local at `root` (its whole variable or its object on the
    /// stack).
    fn init_aggregate(
        &mut self,
        root: &Place,
        ty: &CType,
        ini: &'a Node<c::Initializer>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        let (cells, aggs, sparse) = self.aggregate_cells(ty, Some(ini), true, span)?;
        if sparse {
            self.zero_place(root, ty, span, out)?;
        }
        self.store_cells(root, cells, aggs, span, out)
    }

    /// Writes the cells of an initialisation at `root` (`None`: zero), then the
    /// sub-aggregates initialised by a struct value.
    #[allow(clippy::type_complexity)]
    fn store_cells(
        &mut self,
        root: &Place,
        cells: Vec<(Cell, Option<Init<'a>>)>,
        aggs: Vec<(Cell, &'a Node<c::Expression>)>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        for (cell, e) in cells {
            let val = match (e, &cell.ty) {
                (None, CType::Int(_)) => SVal::Int(int(0, span)),
                (None, CType::Float(f)) => SVal::Float(self.float_zero(*f, span)),
                (None, _) => SVal::Ptr(int(0, span), int(0, span)),
                (Some(Init::Char(b)), CType::Int(t)) => {
                    SVal::Int(lit(&ints::convert(&BigInt::from(b), *t, self.arch), span))
                }
                (Some(Init::Char(_)), _) => {
                    return unsupported("string literal initialising a non-character", span);
                }
                (Some(Init::Expr(e)), t) => {
                    let v = self.expr(e, out)?;
                    self.scalar_value(v, &t.clone(), span)?
                }
            };
            let place = self.cell_place(root, &cell, span);
            self.store_place(&place, val, span, out)?;
        }
        for (cell, e) in aggs {
            let dst = self.cell_place(root, &cell, span);
            let src = self.struct_source(e, &cell.ty, span, out)?;
            self.copy_place(&dst, &src, span, out)?;
        }
        Ok(())
    }

    // ----- expressions ------------------------------------------------------------------------

    fn cond(&mut self, e: &'a Node<c::Expression>, out: &mut Vec<b::Stmt>) -> R<b::Expr> {
        let span = self.sp(e.span);
        let v = self.expr(e, out)?;
        v.to_bool(span)
    }

    /// The value of `v` converted to `to` (C11 6.3.1.3, exact).
    fn convert(&self, v: &TV, to: IntTy, span: Span) -> R<b::Expr> {
        if let (CType::Float(f), V::Float(e)) = (&v.ty, &v.v) {
            return Ok(self.float_to_int(e, *f, to, span));
        }
        let from = v.int_ty(span)?;
        let e = match &v.v {
            V::Bool(c) => return Ok(ite(c.clone(), int(1, span), int(0, span), span)),
            V::Int(e) => e.clone(),
            V::Ptr(..) => return unsupported("conversion of a pointer to an integer", span),
            V::Agg(_) => return unsupported("conversion of a struct to an integer", span),
            V::Float(_) => return unsupported("float of an integer type", span),
        };
        if let Some(x) = as_lit(&e) {
            return Ok(lit(&ints::convert(&x, to, self.arch), span));
        }
        if to.kind == IntKind::Bool {
            if from.kind == IntKind::Bool {
                return Ok(e);
            }
            return Ok(ite(
                bin(BinOp::Neq, e, int(0, span), span),
                int(1, span),
                int(0, span),
                span,
            ));
        }
        if from.fits_in(to, self.arch) {
            return Ok(e);
        }
        let m = to.modulus(self.arch);
        if !to.signed {
            return Ok(modulo(e, &m, span));
        }
        let half = &m >> 1;
        Ok(arith(
            BinOp::Sub,
            modulo(arith(BinOp::Add, e, lit(&half, span), span), &m, span),
            lit(&half, span),
            span,
        ))
    }

    /// Under `no-overflow`, the check that the exact result `e` of a signed operation of type `t`
    /// is in its range (nothing otherwise: signed results are exact, a program without undefined
    /// behaviour never leaves the range).
    fn overflow_check(&self, e: &b::Expr, t: IntTy, span: Span, out: &mut Vec<b::Stmt>) {
        let in_range = as_lit(e).is_some_and(|v| t.contains(&v, self.arch));
        if t.signed
            && t.kind != IntKind::Bool
            && !in_range
            && self.asserts(Check::Overflow) == Some(true)
        {
            out.extend(self.check(Check::Overflow, self.in_range(e.clone(), t, span), span));
        }
    }

    /// Unsigned results wrap modulo `2^n`.
    fn wrap(&self, e: b::Expr, t: IntTy, span: Span) -> b::Expr {
        match unsigned_of(t) {
            Some(u) => modulo(e, &u.modulus(self.arch), span),
            None => e,
        }
    }

    /// Evaluates two operands left to right: if the right one has side effects, the left value is
    /// saved first.
    fn operands(
        &mut self,
        l: &'a Node<c::Expression>,
        r: &'a Node<c::Expression>,
        out: &mut Vec<b::Stmt>,
    ) -> R<(TV, TV)> {
        let a = self.expr(l, out)?;
        let mut buf = Vec::new();
        let bv = self.expr(r, &mut buf)?;
        let a = self.snapshot(a, !buf.is_empty(), self.sp(l.span), out);
        out.extend(buf);
        Ok((a, bv))
    }

    fn snapshot(&mut self, a: TV, needed: bool, span: Span, out: &mut Vec<b::Stmt>) -> TV {
        if let (true, CType::Ptr(pt), V::Ptr(b, o)) = (needed, &a.ty, &a.v) {
            let keep = |e: &b::Expr| as_lit(e).is_some();
            if keep(b) && keep(o) {
                return a;
            }
            let (tb, to) = (self.temp(span), self.temp(span));
            out.push(stmt(
                b::StmtKind::Assign {
                    lhs: vec![lhs(&tb, Vec::new(), span), lhs(&to, Vec::new(), span)],
                    rhs: vec![b.clone(), o.clone()],
                },
                span,
            ));
            return TV::ptr(var(&tb, span), var(&to, span), (**pt).clone());
        }
        if let (true, CType::Float(t), V::Float(e)) = (needed, &a.ty, &a.v) {
            let tmp = self.float_temp(*t, span);
            out.push(assign_var(&tmp, e.clone(), span));
            return TV::float(var(&tmp, span), *t);
        }
        let CType::Int(t) = a.ty else { return a };
        if !needed || matches!(&a.v, V::Int(e) if as_lit(e).is_some()) {
            return a;
        }
        let tmp = self.temp(span);
        out.push(assign_var(&tmp, a.to_int(span), span));
        TV::int(var(&tmp, span), t)
    }

    fn expr(&mut self, e: &'a Node<c::Expression>, out: &mut Vec<b::Stmt>) -> R<TV> {
        let span = self.sp(e.span);
        match &e.node {
            c::Expression::Identifier(i) => {
                let name = &i.node.name;
                match self.lookup(name).cloned() {
                    Some(Binding::Enum(v, t)) => Ok(TV::int(lit(&v, span), t)),
                    Some(Binding::Typedef(_)) | None => {
                        if self.funcs.contains_key(name) {
                            self.function_value(name, span)
                        } else {
                            unsupported(format!("undeclared identifier `{name}`"), span)
                        }
                    }
                    Some(_) => {
                        let p = self.ident_place(name, span)?;
                        self.read_place(&p, true, span, out)
                    }
                }
            }
            c::Expression::Constant(k) if matches!(k.node, c::Constant::Float(_)) => {
                let c::Constant::Float(f) = &k.node else {
                    unreachable!("matched above")
                };
                match float::literal(f) {
                    Ok((text, t)) => Ok(TV::float(self.float_lit(&text, t, span), t)),
                    Err(w) => unsupported(w, span),
                }
            }
            c::Expression::Constant(k) => match self.constant(&k.node) {
                Ok((v, t)) => Ok(TV::int(lit(&v, span), t)),
                Err(w) => unsupported(w, span),
            },
            c::Expression::StringLiteral(pieces) => {
                // the value is the index of its bytes in `strings` (-1: not decoded), used when
                // it decays to a pointer
                let k = match string_bytes(&pieces.node) {
                    Some(bytes) => {
                        self.strings.push(bytes);
                        self.strings.len() as i64 - 1
                    }
                    None => -1,
                };
                Ok(TV {
                    v: V::Int(int(k, span)),
                    ty: CType::Str,
                })
            }
            c::Expression::Member(_) => {
                let p = self.lvalue(e, out)?;
                self.read_place(&p, true, span, out)
            }
            c::Expression::Call(ce) => self.call(&ce.node, span, out),
            c::Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0);
                let n = self.size_of(&t, span)?;
                Ok(TV::int(lit(&BigInt::from(n), span), IntTy::SIZE_T))
            }
            c::Expression::SizeOfVal(s) => {
                // a string literal is an array of its bytes and the terminating zero
                if let c::Expression::StringLiteral(p) = &s.node.0.node
                    && let Some(bytes) = string_bytes(&p.node)
                {
                    let n = BigInt::from(bytes.len() + 1);
                    return Ok(TV::int(lit(&n, span), IntTy::SIZE_T));
                }
                let mut scratch = Vec::new();
                let v = self.expr(&s.node.0, &mut scratch)?;
                if let CType::Vla(elem, count) = &v.ty {
                    // the number of elements the declaration gave times their size
                    let bytes = arith(
                        BinOp::Mul,
                        var(count, span),
                        lit(&BigInt::from(self.size_of(elem, span)?), span),
                        span,
                    );
                    // in `size_t`: any signed source type reduces it modulo `SIZE_MAX + 1`
                    let bytes = self.convert(&TV::int(bytes, IntTy::INT), IntTy::SIZE_T, span)?;
                    return Ok(TV::int(bytes, IntTy::SIZE_T));
                }
                let n = self.size_of(&v.ty, span)?;
                Ok(TV::int(lit(&BigInt::from(n), span), IntTy::SIZE_T))
            }
            c::Expression::AlignOf(a) => {
                let t = self.type_name(&a.node.0);
                if let Some(n) = self.align_of(&t, span)? {
                    return Ok(TV::int(lit(&BigInt::from(n), span), IntTy::SIZE_T));
                }
                // 4 or 8: a value of an `{:overapproximation}` function of a fresh argument,
                // so that each occurrence may answer either and a violation that depends on
                // the choice is not reported
                if self.f.mem_scopes.is_empty() {
                    return unsupported(format!("alignof of {} on i386", t.describe()), span);
                }
                self.conv_fns.insert(mem::ALIGNOF);
                let (arg, r) = (self.temp(span), self.temp(span));
                out.push(havoc(&arg, span));
                let app = b::ExprKind::Call(
                    ident(&format!("~{}", mem::ALIGNOF), span),
                    vec![var(&arg, span)],
                );
                out.push(assign_var(&r, ex(app, span), span));
                let is = |k: i64| bin(BinOp::Eq, var(&r, span), int(k, span), span);
                out.push(assume(bin(BinOp::Or, is(4), is(8), span), span));
                Ok(TV::int(var(&r, span), IntTy::SIZE_T))
            }
            c::Expression::UnaryOperator(u) => self.unary(&u.node, span, out),
            c::Expression::Cast(cst) => {
                let t = self.type_name(&cst.node.type_name);
                let v = self.expr(&cst.node.expression, out)?;
                match t {
                    CType::Void => Ok(TV::void(span)),
                    CType::Float(ft) => Ok(TV::float(self.to_float(&v, ft, span)?, ft)),
                    CType::Int(it) => {
                        let v = self.decay(v, span)?;
                        if let (CType::Ptr(_), V::Ptr(b, o)) = (&v.ty, &v.v) {
                            let e = self.ptr_to_int(b.clone(), o.clone(), it, span, out)?;
                            return Ok(TV::int(e, it));
                        }
                        match self.scalar_value(v, &t, span)? {
                            SVal::Int(e) => Ok(TV::int(e, it)),
                            SVal::Ptr(..) | SVal::Float(_) => {
                                unsupported("cast to an integer", span)
                            }
                        }
                    }
                    CType::Ptr(ref pt) => {
                        if matches!(&pt.as_ref(), CType::Other(_)) {
                            return unsupported(format!("pointer to {}", pt.describe()), span);
                        }
                        let (b, o) = match (&v.ty, &v.v) {
                            (CType::Int(_), V::Int(e))
                                if as_lit(e).is_some_and(|x| x.is_zero()) =>
                            {
                                (int(0, span), int(0, span))
                            }
                            (CType::Int(_), _) => self.int_to_ptr(&v, span, out)?,
                            _ => self.as_pointer(v, pt, span)?,
                        };
                        Ok(TV::ptr(b, o, (**pt).clone()))
                    }
                    other => unsupported(format!("cast to {}", other.describe()), span),
                }
            }
            c::Expression::BinaryOperator(bo) => self.binary(&bo.node, span, out),
            c::Expression::Conditional(cd) => {
                let c = self.cond(&cd.node.condition, out)?;
                let c_cond = self.sp(cd.node.condition.span);
                let mut tb = Vec::new();
                let t = self.expr(&cd.node.then_expression, &mut tb)?;
                let mut eb = Vec::new();
                let f = self.expr(&cd.node.else_expression, &mut eb)?;
                match (&t.ty, &f.ty) {
                    (CType::Void, CType::Void) => {
                        if !tb.is_empty() || !eb.is_empty() {
                            self.note_branch(super::BranchKind::Operator, c_cond, &c, false, span);
                            out.push(if_(c, tb, eb, span));
                        }
                        Ok(TV::void(span))
                    }
                    (CType::Int(x), CType::Int(y)) => {
                        let ct = ints::common(*x, *y, self.arch);
                        let tv = self.convert(&t, ct, span)?;
                        let fv = self.convert(&f, ct, span)?;
                        if tb.is_empty() && eb.is_empty() {
                            return Ok(TV::int(ite(c, tv, fv, span), ct));
                        }
                        let tmp = self.temp(span);
                        tb.push(assign_var(&tmp, tv, span));
                        eb.push(assign_var(&tmp, fv, span));
                        self.note_branch(super::BranchKind::Operator, c_cond, &c, false, span);
                        out.push(if_(c, tb, eb, span));
                        Ok(TV::int(var(&tmp, span), ct))
                    }
                    (CType::Float(_), CType::Float(_) | CType::Int(_))
                    | (CType::Int(_), CType::Float(_)) => {
                        let Some(ct) = float::common(&t.ty, &f.ty) else {
                            return unsupported("conditional expression", span);
                        };
                        let tv = self.to_float(&t, ct, span)?;
                        let fv = self.to_float(&f, ct, span)?;
                        if tb.is_empty() && eb.is_empty() {
                            return Ok(TV::float(ite(c, tv, fv, span), ct));
                        }
                        let tmp = self.float_temp(ct, span);
                        tb.push(assign_var(&tmp, tv, span));
                        eb.push(assign_var(&tmp, fv, span));
                        self.note_branch(super::BranchKind::Operator, c_cond, &c, false, span);
                        out.push(if_(c, tb, eb, span));
                        Ok(TV::float(var(&tmp, span), ct))
                    }
                    (CType::Struct(x), CType::Struct(y)) if x == y => {
                        let r = self.temp_agg(&t.ty, span)?;
                        let dst = Place::Var(r.clone());
                        let ts = self.agg_place(t.clone(), span)?;
                        self.copy_place(&dst, &ts, span, &mut tb)?;
                        let fs = self.agg_place(f.clone(), span)?;
                        self.copy_place(&dst, &fs, span, &mut eb)?;
                        self.note_branch(super::BranchKind::Operator, c_cond, &c, false, span);
                        out.push(if_(c, tb, eb, span));
                        Ok(TV {
                            v: V::Agg(r),
                            ty: t.ty,
                        })
                    }
                    (CType::Ptr(_) | CType::Array(..) | CType::Vla(..) | CType::Fn(_), _)
                    | (_, CType::Ptr(_) | CType::Array(..) | CType::Vla(..) | CType::Fn(_)) => {
                        let t = self.decay(t, span)?;
                        let f = self.decay(f, span)?;
                        let pt = match (&t.ty, &f.ty) {
                            (CType::Ptr(p), _) | (_, CType::Ptr(p)) => (**p).clone(),
                            _ => return unsupported("conditional expression", span),
                        };
                        let (tb0, to0) = self.as_pointer(t, &pt, span)?;
                        let (fb0, fo0) = self.as_pointer(f, &pt, span)?;
                        if tb.is_empty() && eb.is_empty() {
                            return Ok(TV::ptr(
                                ite(c.clone(), tb0, fb0, span),
                                ite(c, to0, fo0, span),
                                pt,
                            ));
                        }
                        let (rb, ro) = (self.temp(span), self.temp(span));
                        tb.push(assign_var(&rb, tb0, span));
                        tb.push(assign_var(&ro, to0, span));
                        eb.push(assign_var(&rb, fb0, span));
                        eb.push(assign_var(&ro, fo0, span));
                        self.note_branch(super::BranchKind::Operator, c_cond, &c, false, span);
                        out.push(if_(c, tb, eb, span));
                        Ok(TV::ptr(var(&rb, span), var(&ro, span), pt))
                    }
                    (x, y) => unsupported(
                        format!(
                            "conditional expression on {} and {}",
                            x.describe(),
                            y.describe()
                        ),
                        span,
                    ),
                }
            }
            c::Expression::Comma(es) => {
                let mut last = TV::void(span);
                for x in es.iter() {
                    last = self.expr(x, out)?;
                }
                Ok(last)
            }
            c::Expression::Statement(s) => match &s.node {
                c::Statement::Compound(items) => {
                    self.enter_block();
                    let mut last = TV::void(span);
                    let r = (|| {
                        for (k, it) in items.iter().enumerate() {
                            match &it.node {
                                c::BlockItem::Statement(Node {
                                    node: c::Statement::Expression(Some(x)),
                                    ..
                                }) if k + 1 == items.len() => last = self.expr(x, out)?,
                                _ => self.block_item(it, out)?,
                            }
                        }
                        Ok(())
                    })();
                    self.leave_block(span, out);
                    r.map(|()| last)
                }
                _ => unsupported("statement expression", span),
            },
            c::Expression::GenericSelection(_) => unsupported("_Generic", span),
            c::Expression::CompoundLiteral(cl) => {
                let p = self.compound_literal(&cl.node, span, out)?;
                self.read_place(&p, true, span, out)
            }
            c::Expression::OffsetOf(o) => {
                let n = self.offset_of(&o.node, span)?;
                Ok(TV::int(lit(&BigInt::from(n), span), IntTy::SIZE_T))
            }
            c::Expression::VaArg(va) => self.va_arg(&va.node, span, out),
        }
    }

    /// The place of a variable.
    fn ident_place(&mut self, name: &str, span: Span) -> R<Place> {
        let unknown = |t: &CType| matches!(t, CType::Array(_, UNKNOWN_LEN));
        match self.lookup(name).cloned() {
            Some(Binding::Local { name, ty }) => {
                if unknown(&ty) {
                    return unsupported("array of unknown size", span);
                }
                Ok(Place::Var(LVal {
                    base: name,
                    path: String::new(),
                    indices: Vec::new(),
                    ty,
                    unions: Vec::new(),
                }))
            }
            Some(Binding::Mem { base, ty }) => Ok(Place::Mem {
                base: var(&base, span),
                off: int(0, span),
                ty,
                safe: true,
                unions: Vec::new(),
            }),
            Some(Binding::Global(key)) => {
                let Some(g) = self.globals.get(&key) else {
                    return unsupported(format!("identifier `{name}`"), span);
                };
                if let CType::Other(w) = &g.ty {
                    return unsupported(format!("variable of type {w}"), span);
                }
                if unknown(&g.ty) {
                    return unsupported("array of unknown size", span);
                }
                let (gname, ty, mem) = (g.name.clone(), g.ty.clone(), g.mem);
                self.used_globals.insert(key);
                Ok(if mem {
                    Place::Mem {
                        base: var(&format!("#addr{gname}"), span),
                        off: int(0, span),
                        ty,
                        safe: true,
                        unions: Vec::new(),
                    }
                } else {
                    Place::Var(LVal {
                        base: gname,
                        path: String::new(),
                        indices: Vec::new(),
                        ty,
                        unions: Vec::new(),
                    })
                })
            }
            Some(Binding::Enum(..)) => unsupported("assignment to a constant", span),
            Some(Binding::Typedef(_)) | None => {
                if self.funcs.contains_key(name) {
                    unsupported(format!("function `{name}` as an object"), span)
                } else {
                    unsupported(format!("undeclared identifier `{name}`"), span)
                }
            }
        }
    }

    fn lvalue(&mut self, e: &'a Node<c::Expression>, out: &mut Vec<b::Stmt>) -> R<Place> {
        let span = self.sp(e.span);
        match &e.node {
            c::Expression::Identifier(i) => self.ident_place(&i.node.name, span),
            c::Expression::BinaryOperator(bo)
                if bo.node.operator.node == c::BinaryOperator::Index =>
            {
                self.lvalue_of_index(&bo.node, span, out)
            }
            c::Expression::UnaryOperator(u)
                if u.node.operator.node == c::UnaryOperator::Indirection =>
            {
                let v = self.expr(&u.node.operand, out)?;
                self.deref(v, span)
            }
            c::Expression::Member(m) => {
                let base = if m.node.operator.node == c::MemberOperator::Indirect {
                    let v = self.expr(&m.node.expression, out)?;
                    self.deref(v, span)?
                } else if is_lvalue_shaped(&m.node.expression.node) {
                    self.lvalue(&m.node.expression, out)?
                } else {
                    // a member of a struct value (a call's result, a conditional's): read from
                    // the object that holds the value
                    let v = self.expr(&m.node.expression, out)?;
                    if !matches!(v.ty, CType::Struct(_)) {
                        return unsupported(format!("member access on {}", v.ty.describe()), span);
                    }
                    self.agg_place(v, span)?
                };
                let CType::Struct(tag) = base.ty().clone() else {
                    return unsupported(format!("member access on {}", base.ty().describe()), span);
                };
                let f = &m.node.identifier.node.name;
                let union = is_union(&tag);
                if union && self.data_race {
                    // a write also writes the other members: not instrumented for data races
                    return unsupported("union in a program checked for data races", span);
                }
                let (foff, fty) = match &base {
                    Place::Var(_) if union || !base.unions().is_empty() => {
                        self.field_offset(&tag, f, span)?
                    }
                    Place::Var(_) => {
                        let fields = self.struct_fields(&tag, span)?;
                        let Some((_, fty)) = fields.iter().find(|(n, _)| n == f) else {
                            return unsupported(format!("unknown struct member `{f}`"), span);
                        };
                        if let CType::Other(w) = fty {
                            return unsupported(format!("struct member of type {w}"), span);
                        }
                        (0, fty.clone())
                    }
                    Place::Mem { .. } => self.field_offset(&tag, f, span)?,
                };
                let in_union = union.then(|| {
                    let mut root = base.clone();
                    root.unions_mut().clear();
                    InUnion {
                        root: Box::new(root),
                        tag: tag.clone(),
                        member: f.clone(),
                        off: Some(0),
                    }
                });
                if union && matches!(base, Place::Mem { .. }) {
                    self.check_mem_unions(&CType::Struct(tag.clone()), span)?;
                }
                let mut place = match base {
                    Place::Var(mut lv) => {
                        lv.path = format!("{}.{f}", lv.path);
                        lv.ty = fty;
                        Place::Var(lv)
                    }
                    Place::Mem {
                        base,
                        off,
                        safe,
                        unions,
                        ..
                    } => Place::Mem {
                        base,
                        off: arith(BinOp::Add, off, lit(&BigInt::from(foff), span), span),
                        ty: fty,
                        safe,
                        unions,
                    },
                };
                place.shift_unions(Some(foff));
                place.unions_mut().extend(in_union);
                Ok(place)
            }
            c::Expression::CompoundLiteral(cl) => self.compound_literal(&cl.node, span, out),
            _ => unsupported("this kind of expression as an object (an lvalue)", span),
        }
    }

    /// `(T){ … }`: an unnamed object of the enclosing block, initialised at each evaluation (the
    /// members not given are zero); at file scope an object of static storage (`static_literals`),
    /// initialised once with the global initialiser that contains it. In a loop condition or step one object would be evaluated
    /// several times in the same block: not translated there.
    fn compound_literal(
        &mut self,
        cl: &'a c::CompoundLiteral,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<Place> {
        let file_scope = self.f.mem_scopes.is_empty();
        if self.f.loop_header > 0 {
            return unsupported("compound literal in a loop condition or step", span);
        }
        let is_const = cl.type_name.node.specifiers.iter().any(|q| {
            matches!(&q.node, c::SpecifierQualifier::TypeQualifier(t)
                if t.node == c::TypeQualifier::Const)
        });
        if is_const {
            // const compound literals need not be distinct objects (C11 6.5.2.5p7)
            return unsupported("const-qualified compound literal", span);
        }
        let ty = self.type_name(&cl.type_name);
        let ty = self.complete_array_items(ty, &cl.initializer_list);
        if !matches!(
            ty,
            CType::Int(_) | CType::Float(_) | CType::Ptr(_) | CType::Array(..) | CType::Struct(_)
        ) {
            return unsupported(format!("compound literal of type {}", ty.describe()), span);
        }
        let base = if file_scope {
            // static storage: one object for the program's run, allocated (and zeroed, as every
            // object of static storage) where the global initialiser runs
            let base = format!("#lit~{}", self.static_literals.len());
            self.static_literals.push(base.clone());
            let size = self.size_align(&ty, span)?.0;
            self.alloc_fixed(&base, lit(&BigInt::from(size), span), span, out);
            self.zero_object(&var(&base, span), span, out);
            base
        } else {
            self.stack_object("literal", &ty, span, out)?
        };
        let root = Place::Mem {
            base: var(&base, span),
            off: int(0, span),
            ty: ty.clone(),
            safe: true,
            unions: Vec::new(),
        };
        let mut cells = Vec::new();
        self.cells(&ty, ("", &[], 0), span, &mut cells)?;
        let mut given: Given<'a> = BTreeMap::new();
        let saved = std::mem::take(&mut self.agg_given);
        let r = self.compound_items(cl, &ty, &mut given, span);
        let aggs = r.and_then(|()| self.agg_inits(&cells, span));
        self.agg_given = saved;
        let aggs = aggs?;
        let cells = cells
            .into_iter()
            .map(|c| {
                let e = given.get(&(c.path.clone(), c.idx.clone())).copied();
                (c, e)
            })
            .collect();
        let cells = Self::union_init_cells(cells, span)?;
        self.store_cells(&root, cells, aggs, span, out)?;
        Ok(root)
    }

    fn compound_items(
        &mut self,
        cl: &'a c::CompoundLiteral,
        ty: &CType,
        given: &mut Given<'a>,
        span: Span,
    ) -> R<()> {
        let items = &cl.initializer_list;
        if ty.is_scalar() {
            match items.as_slice() {
                [one] if one.node.designation.is_empty() => self.fill(
                    ty,
                    String::new(),
                    Vec::new(),
                    &one.node.initializer,
                    given,
                    span,
                )?,
                _ => return unsupported("initialiser list of a scalar", span),
            }
        } else {
            let mut pos = 0;
            self.fill_list(ty, "", &[], items, &mut pos, given, true, span)?;
            if pos < items.len() {
                return unsupported("initialiser beyond the aggregate's size", span);
            }
        }
        Ok(())
    }

    /// `target = e` for a struct `e` that is an lvalue of the same type.
    fn copy_struct(
        &mut self,
        target: &Place,
        e: &'a Node<c::Expression>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        if !matches!(target.ty(), CType::Struct(_)) {
            return unsupported(format!("assignment to {}", target.ty().describe()), span);
        }
        let src = self.struct_source(e, &target.ty().clone(), span, out)?;
        self.copy_place(target, &src, span, out)
    }

    fn unary(
        &mut self,
        u: &'a c::UnaryOperatorExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        use c::UnaryOperator as U;
        match u.operator.node {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                let lv = self.lvalue(&u.operand, out)?;
                let ty = lv.ty().clone();
                if !ty.is_scalar() {
                    return unsupported(format!("increment of {}", ty.describe()), span);
                }
                // an `_Atomic` global: read, compute and write in one atomic step
                let atomic = self.atomic_rmw(&u.operand.node);
                let post = matches!(u.operator.node, U::PostIncrement | U::PostDecrement);
                let mut rmw = Vec::new();
                let old = {
                    let o: &mut Vec<b::Stmt> = if atomic { &mut rmw } else { &mut *out };
                    let old = self.read_place(&lv, true, span, o)?;
                    let old = self.snapshot(old, post, span, o);
                    let one = TV::int(int(1, span), IntTy::INT);
                    let op = if matches!(u.operator.node, U::PostIncrement | U::PreIncrement) {
                        BinOp::Add
                    } else {
                        BinOp::Sub
                    };
                    let new = self.arith_op(op, old.clone(), one, span, o)?;
                    let val = self.scalar_value(new, &ty, span)?;
                    self.store_place(&lv, val, span, o)?;
                    old
                };
                if atomic {
                    out.push(stmt(b::StmtKind::Atomic(rmw), span));
                }
                if post {
                    Ok(old)
                } else {
                    self.read_place(&lv, false, span, out)
                }
            }
            U::Address => {
                if let c::Expression::UnaryOperator(inner) = &u.operand.node {
                    if inner.node.operator.node == c::UnaryOperator::Indirection {
                        // `&*p` is `p` (C11 6.5.3.2)
                        let v = self.expr(&inner.node.operand, out)?;
                        let v = self.decay(v, span)?;
                        if !matches!(v.ty, CType::Ptr(_)) {
                            return unsupported(format!("`&*` of {}", v.ty.describe()), span);
                        }
                        return Ok(v);
                    }
                }
                if let c::Expression::Identifier(i) = &u.operand.node {
                    let name = &i.node.name;
                    if matches!(self.lookup(name), None | Some(Binding::Typedef(_)))
                        && self.funcs.contains_key(name)
                    {
                        // `&f`: the function's address
                        let f = self.function_value(name, span)?;
                        return self.decay(f, span);
                    }
                }
                match self.lvalue(&u.operand, out)? {
                    p if !p.unions().is_empty() => {
                        // a write through the pointer would not write the other members
                        unsupported("address of a union member", span)
                    }
                    Place::Mem { base, off, ty, .. } => Ok(TV::ptr(base, off, ty)),
                    Place::Var(lv) => match self.var_keys.get(&lv.base) {
                        Some(key) => needs_memory(&key.clone(), span),
                        None => unsupported("address of this variable", span),
                    },
                }
            }
            U::Indirection => {
                let v = self.expr(&u.operand, out)?;
                if let CType::Fn(_) = v.ty {
                    // `*f`: `f` decays to its address first, `*` gives `f` again
                    return Ok(v);
                }
                if let (CType::Ptr(pt), V::Ptr(b, o)) = (&v.ty, &v.v) {
                    if let CType::Fn(_) = **pt {
                        // `*fp`: the function designator (C11 6.5.3.2p4)
                        return Ok(TV {
                            v: V::Ptr(b.clone(), o.clone()),
                            ty: (**pt).clone(),
                        });
                    }
                }
                let p = self.deref(v, span)?;
                self.read_place(&p, true, span, out)
            }
            U::Plus => {
                let v = self.expr(&u.operand, out)?;
                if let (CType::Float(_), V::Float(_)) = (&v.ty, &v.v) {
                    return Ok(v);
                }
                let p = ints::promote(v.int_ty(span)?);
                Ok(TV::int(self.convert(&v, p, span)?, p))
            }
            U::Minus => {
                let v = self.expr(&u.operand, out)?;
                if let (CType::Float(t), V::Float(e)) = (&v.ty, &v.v) {
                    return Ok(self.float_neg(e.clone(), *t, span));
                }
                let p = ints::promote(v.int_ty(span)?);
                let e = neg(self.convert(&v, p, span)?, span);
                self.overflow_check(&e, p, span, out);
                Ok(TV::int(self.wrap(e, p, span), p))
            }
            U::Complement => {
                let v = self.expr(&u.operand, out)?;
                let p = ints::promote(v.int_ty(span)?);
                self.complement(&v, p, span)
            }
            U::Negate => {
                let v = self.expr(&u.operand, out)?;
                Ok(TV::boolean(not(v.to_bool(span)?, span)))
            }
        }
    }

    /// `~v` in the (promoted) type `p`: `-v - 1` if signed, `max - v` if not.
    fn complement(&self, v: &TV, p: IntTy, span: Span) -> R<TV> {
        let e = self.convert(v, p, span)?;
        let r = if p.signed {
            arith(BinOp::Sub, neg(e, span), int(1, span), span)
        } else {
            arith(BinOp::Sub, lit(&p.max(self.arch), span), e, span)
        };
        Ok(TV::int(r, p))
    }

    fn binary(
        &mut self,
        bo: &'a c::BinaryOperatorExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        use c::BinaryOperator as O;
        let op = bo.operator.node.clone();
        let compound = match op {
            O::Index => {
                let p = self.lvalue_of_index(bo, span, out)?;
                return self.read_place(&p, true, span, out);
            }
            O::LogicalAnd | O::LogicalOr => {
                let a = self.expr(&bo.lhs, out)?;
                let ca = a.to_bool(span)?;
                let mut buf = Vec::new();
                let bv = self.expr(&bo.rhs, &mut buf)?;
                let cb = bv.to_bool(span)?;
                let and = op == O::LogicalAnd;
                if buf.is_empty() {
                    return Ok(TV::boolean(bin(
                        if and { BinOp::And } else { BinOp::Or },
                        ca,
                        cb,
                        span,
                    )));
                }
                let tmp = self.temp(span);
                buf.push(assign_var(
                    &tmp,
                    ite(cb, int(1, span), int(0, span), span),
                    span,
                ));
                let short = vec![assign_var(&tmp, int(if and { 0 } else { 1 }, span), span)];
                let c_cond = self.sp(bo.lhs.span);
                self.note_branch(super::BranchKind::Operator, c_cond, &ca, false, span);
                out.push(if and {
                    if_(ca, buf, short, span)
                } else {
                    if_(ca, short, buf, span)
                });
                return Ok(TV::int(var(&tmp, span), IntTy::INT));
            }
            O::Assign => None,
            O::AssignMultiply => Some(O::Multiply),
            O::AssignDivide => Some(O::Divide),
            O::AssignModulo => Some(O::Modulo),
            O::AssignPlus => Some(O::Plus),
            O::AssignMinus => Some(O::Minus),
            O::AssignShiftLeft => Some(O::ShiftLeft),
            O::AssignShiftRight => Some(O::ShiftRight),
            O::AssignBitwiseAnd => Some(O::BitwiseAnd),
            O::AssignBitwiseXor => Some(O::BitwiseXor),
            O::AssignBitwiseOr => Some(O::BitwiseOr),
            _ => {
                let (a, b2) = self.operands(&bo.lhs, &bo.rhs, out)?;
                return self.arith(op, a, b2, span, out);
            }
        };
        // assignments
        let lv = self.lvalue(&bo.lhs, out)?;
        let ty = lv.ty().clone();
        if matches!(ty, CType::Struct(_)) && compound.is_none() {
            self.copy_struct(&lv, &bo.rhs, span, out)?;
            return Ok(TV::void(span));
        }
        if !ty.is_scalar() {
            return unsupported(format!("assignment to {}", ty.describe()), span);
        }
        let r = self.expr(&bo.rhs, out)?;
        // a compound assignment to an `_Atomic` global: the right operand is evaluated first, then
        // read, compute and write are one atomic step
        let atomic = compound.is_some() && self.atomic_rmw(&bo.lhs.node);
        // (its value is taken before the atomic step: another thread may write what it reads
        // between the two)
        let r = self.snapshot(r, atomic, span, out);
        let mut rmw = Vec::new();
        {
            let o: &mut Vec<b::Stmt> = if atomic { &mut rmw } else { &mut *out };
            let val = match compound {
                None => self.scalar_value(r, &ty, span)?,
                Some(op) => {
                    let cur = self.read_place(&lv, true, span, o)?;
                    let res = self.arith(op, cur, r, span, o)?;
                    self.scalar_value(res, &ty, span)?
                }
            };
            self.store_place(&lv, val, span, o)?;
        }
        if atomic {
            out.push(stmt(b::StmtKind::Atomic(rmw), span));
        }
        self.read_place(&lv, false, span, out)
    }

    fn lvalue_of_index(
        &mut self,
        bo: &'a c::BinaryOperatorExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<Place> {
        // `a[i]` or `i[a]`: the array or pointer is the operand that is not an integer
        let mut buf = Vec::new();
        let (base, idx) = match self.index_base(&bo.lhs, &mut buf)? {
            Some(b) => (b, &bo.rhs),
            None => {
                buf.clear();
                match self.index_base(&bo.rhs, &mut buf)? {
                    Some(b) => (b, &bo.lhs),
                    None => return unsupported("indexing of a non-array", span),
                }
            }
        };
        out.extend(buf);
        let i = self.expr(idx, out)?;
        i.int_ty(span)?;
        let ie = i.to_int(span);
        match base {
            Ok(Place::Var(mut lv)) => {
                let CType::Array(elem, n) = lv.ty.clone() else {
                    return unsupported("indexing of a non-array", span);
                };
                let in_bounds =
                    as_lit(&ie).is_some_and(|v| v >= BigInt::zero() && v < BigInt::from(n));
                if !in_bounds {
                    out.extend(self.check(
                        Check::Deref,
                        bin(
                            BinOp::And,
                            bin(BinOp::Le, int(0, span), ie.clone(), span),
                            bin(BinOp::Lt, ie.clone(), lit(&BigInt::from(n), span), span),
                            span,
                        ),
                        span,
                    ));
                }
                let shift = self.union_shift(&lv.unions, &elem, &ie, span)?;
                lv.indices.push(ie);
                lv.ty = *elem;
                let mut p = Place::Var(lv);
                p.shift_unions(shift);
                Ok(p)
            }
            Ok(Place::Mem {
                base,
                off,
                ty: CType::Array(elem, n),
                safe,
                unions,
            }) => {
                let shift = self.union_shift(&unions, &elem, &ie, span)?;
                let in_bounds =
                    as_lit(&ie).is_some_and(|v| v >= BigInt::zero() && v < BigInt::from(n));
                let TV {
                    v: V::Ptr(b, o), ..
                } = self.ptr_add(base, off, &elem, ie, span)?
                else {
                    return unsupported("indexing", span);
                };
                let mut p = Place::Mem {
                    base: b,
                    off: o,
                    ty: *elem,
                    safe: safe && in_bounds,
                    unions,
                };
                p.shift_unions(shift);
                Ok(p)
            }
            Ok(p) => unsupported(format!("indexing of {}", p.ty().describe()), span),
            Err(ptr) => {
                let TV {
                    v: V::Ptr(b, o),
                    ty: CType::Ptr(pt),
                } = ptr
                else {
                    return unsupported("indexing of a non-pointer", span);
                };
                let p = self.ptr_add(b, o, &pt, ie, span)?;
                self.deref(p, span)
            }
        }
    }

    /// How far element `i` of an array of `elem` is into the array, for the offsets of the
    /// unions of an lvalue (`None`: not a constant; nothing computed outside a union).
    fn union_shift(
        &self,
        unions: &[InUnion],
        elem: &CType,
        i: &b::Expr,
        span: Span,
    ) -> R<Option<u64>> {
        if unions.is_empty() {
            return Ok(Some(0));
        }
        let size = self.size_of(elem, span)?;
        Ok(as_lit(i)
            .and_then(|k| k.to_u64())
            .and_then(|k| k.checked_mul(size)))
    }

    /// The operand of `[]` that is an array (`Ok`: its place) or a pointer (`Err`: its value);
    /// `None`: an integer.
    #[allow(clippy::type_complexity)]
    fn index_base(
        &mut self,
        e: &'a Node<c::Expression>,
        out: &mut Vec<b::Stmt>,
    ) -> R<Option<Result<Place, TV>>> {
        let span = self.sp(e.span);
        match self.lvalue(e, out) {
            Ok(p) if matches!(p.ty(), CType::Array(..)) => return Ok(Some(Ok(p))),
            Ok(p) if matches!(p.ty(), CType::Vla(..)) => {
                // indexed as the pointer it decays to: every access checked against its length
                let v = self.read_place(&p, true, span, out)?;
                return Ok(Some(Err(self.decay(v, span)?)));
            }
            Ok(p) if matches!(p.ty(), CType::Ptr(_)) => {
                let v = self.read_place(&p, true, span, out)?;
                return Ok(Some(Err(v)));
            }
            Ok(_) => return Ok(None),
            Err(err) if err.needs_memory.is_some() => return Err(err),
            Err(_) => {}
        }
        out.clear();
        let v = self.expr(e, out)?;
        let v = self.decay(v, span)?;
        Ok(match v.ty {
            CType::Ptr(_) => Some(Err(v)),
            _ => None,
        })
    }

    fn arith_op(&mut self, op: BinOp, a: TV, b2: TV, span: Span, out: &mut Vec<b::Stmt>) -> R<TV> {
        let cop = match op {
            BinOp::Add => c::BinaryOperator::Plus,
            _ => c::BinaryOperator::Minus,
        };
        self.arith(cop, a, b2, span, out)
    }

    /// A binary arithmetic, comparison, shift or bitwise operator on two evaluated operands.
    fn arith(
        &mut self,
        op: c::BinaryOperator,
        a: TV,
        b2: TV,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        use c::BinaryOperator as O;
        let a = self.decay(a, span)?;
        let b2 = self.decay(b2, span)?;
        if matches!(a.ty, CType::Ptr(_)) || matches!(b2.ty, CType::Ptr(_)) {
            return self.ptr_arith(op, a, b2, span, out);
        }
        if matches!(a.ty, CType::Float(_)) || matches!(b2.ty, CType::Float(_)) {
            return self.float_arith(op, &a, &b2, span);
        }
        let (ta, tb) = (a.int_ty(span)?, b2.int_ty(span)?);
        let arch = self.arch;
        if matches!(op, O::ShiftLeft | O::ShiftRight) {
            let p = ints::promote(ta);
            let x = self.convert(&a, p, span)?;
            let s = as_lit(&b2.to_int(span))
                .and_then(|s| s.to_u32())
                .filter(|s| *s < p.bits(arch));
            let Some(s) = s else {
                if as_lit(&b2.to_int(span)).is_none() {
                    if op == O::ShiftLeft && p.signed && self.asserts(Check::Overflow) == Some(true)
                    {
                        return unsupported(
                            "overflow check of a signed left shift by a non-constant amount",
                            span,
                        );
                    }
                    // a non-constant amount: over-approximated
                    let y = b2.to_int(span);
                    return Ok(self.bitwise_overapprox(op, x, y, p, span, out));
                }
                return unsupported("shift by an out-of-range amount", span);
            };
            let pow = BigInt::one() << s;
            let r = if op == O::ShiftLeft {
                // a signed result that overflows (undefined, C11 6.5.7p4) is exact, as that of
                // `x * 2^s`, and checked under `no-overflow`
                let r = arith(BinOp::Mul, x, lit(&pow, span), span);
                self.overflow_check(&r, p, span, out);
                self.wrap(r, p, span)
            } else {
                match as_lit(&x) {
                    Some(v) => lit(&num_integer::Integer::div_floor(&v, &pow), span),
                    None if s == 0 => x,
                    None => bin(BinOp::Div, x, lit(&pow, span), span),
                }
            };
            return Ok(TV::int(r, p));
        }
        let ct = ints::common(ta, tb, arch);
        let x = self.convert(&a, ct, span)?;
        let y = self.convert(&b2, ct, span)?;
        let cmp = |o: BinOp| Ok(TV::boolean(bin(o, x.clone(), y.clone(), span)));
        match op {
            O::Less => cmp(BinOp::Lt),
            O::Greater => cmp(BinOp::Gt),
            O::LessOrEqual => cmp(BinOp::Le),
            O::GreaterOrEqual => cmp(BinOp::Ge),
            O::Equals => cmp(BinOp::Eq),
            O::NotEquals => cmp(BinOp::Neq),
            O::Plus | O::Minus | O::Multiply => {
                let o = match op {
                    O::Plus => BinOp::Add,
                    O::Minus => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                let r = arith(o, x, y, span);
                self.overflow_check(&r, ct, span, out);
                Ok(TV::int(self.wrap(r, ct, span), ct))
            }
            O::Divide | O::Modulo => {
                let yl = as_lit(&y);
                if yl.as_ref().is_none_or(|v| v.is_zero()) {
                    out.extend(self.check(
                        Check::DivZero,
                        bin(BinOp::Neq, y.clone(), int(0, span), span),
                        span,
                    ));
                }
                let div = op == O::Divide;
                if ct.signed && yl.as_ref().is_none_or(|v| *v == BigInt::from(-1)) {
                    // `MIN / -1` and `MIN % -1` overflow (C11 6.5.5p6)
                    let min = lit(&ct.min(self.arch), span);
                    let overflows = bin(
                        BinOp::And,
                        bin(BinOp::Eq, x.clone(), min, span),
                        bin(BinOp::Eq, y.clone(), int(-1, span), span),
                        span,
                    );
                    if self.asserts(Check::Overflow) == Some(true) {
                        out.extend(self.check(Check::Overflow, not(overflows, span), span));
                    }
                }
                if let (Some(p), Some(q)) = (as_lit(&x), yl.as_ref()) {
                    let r = if div {
                        ints::c_div(&p, q)
                    } else {
                        ints::c_rem(&p, q)
                    };
                    if let Some(r) = r {
                        let r = if ct.signed {
                            r
                        } else {
                            ints::convert(&r, ct, arch)
                        };
                        return Ok(TV::int(lit(&r, span), ct));
                    }
                }
                let o = if div { BinOp::Div } else { BinOp::Mod };
                if !ct.signed || as_lit(&x).is_some_and(|v| !v.is_negative()) {
                    return Ok(TV::int(bin(o, x, y, span), ct));
                }
                // C truncates: for a < 0, a / b = -((-a) div b) and a % b = -((-a) mod b).
                let pos = bin(o, x.clone(), y.clone(), span);
                let negv = neg(bin(o, neg(x.clone(), span), y, span), span);
                Ok(TV::int(
                    ite(bin(BinOp::Ge, x, int(0, span), span), pos, negv, span),
                    ct,
                ))
            }
            O::BitwiseAnd | O::BitwiseOr | O::BitwiseXor => {
                if let (Some(p), Some(q)) = (as_lit(&x), as_lit(&y)) {
                    let r = match op {
                        O::BitwiseAnd => p & q,
                        O::BitwiseOr => p | q,
                        _ => p ^ q,
                    };
                    return Ok(TV::int(lit(&ints::convert(&r, ct, arch), span), ct));
                }
                let (other, mask) = match (as_lit(&x), as_lit(&y)) {
                    (Some(m), None) => (y.clone(), m),
                    (None, Some(m)) => (x.clone(), m),
                    _ => return Ok(self.bitwise_overapprox(op, x, y, ct, span, out)),
                };
                if mask.is_zero() {
                    return Ok(TV::int(
                        if op == O::BitwiseAnd {
                            int(0, span)
                        } else {
                            other
                        },
                        ct,
                    ));
                }
                let m1 = &mask + 1u32;
                let pow2 = !mask.is_negative() && (&m1 & (&m1 - 1u32)).is_zero();
                if op == O::BitwiseAnd && pow2 {
                    // x & (2^k - 1) == x mod 2^k in two's complement
                    return Ok(TV::int(modulo(other, &m1, span), ct));
                }
                Ok(self.bitwise_overapprox(op, x, y, ct, span, out))
            }
            _ => unsupported("binary operator", span),
        }
    }

    /// `x op y` for a bitwise `op` the integer translation does not express: the application of
    /// an `{:overapproximation}` function, one per operator and width of `ct` (its `{:concrete}`
    /// operation confirms a counterexample through it, `engine::counterexample`; else it is not
    /// reported), constrained by facts that hold in two's complement for operands in the range
    /// of `ct` (Ultimate's non-bit-precise translation does the same): signs, bounds, and the
    /// neutral and absorbing operands.
    fn bitwise_overapprox(
        &mut self,
        op: c::BinaryOperator,
        x: b::Expr,
        y: b::Expr,
        ct: IntTy,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> TV {
        use c::BinaryOperator as O;
        let name = match op {
            O::BitwiseAnd => "bitwiseAnd",
            O::BitwiseOr => "bitwiseOr",
            O::ShiftLeft => "shiftLeft",
            O::ShiftRight => "shiftRight",
            _ => "bitwiseXor",
        };
        let name = format!("{name}~{}", ct.bits(self.arch));
        self.bitwise_fns.insert(name.clone());
        let r = self.temp(span);
        let app = ex(
            b::ExprKind::Call(ident(&format!("~{name}"), span), vec![x.clone(), y.clone()]),
            span,
        );
        // `x << s` is `x * 2^s` ({:concrete "shl"}): an unsigned result wraps (defined in C); a
        // signed one that overflows is undefined and kept exact, as `x << 3` and `x * 8` are
        // (checked under `no-overflow`) — a range assumption would cut such executions off
        let shl = op == O::ShiftLeft;
        let value = if shl { self.wrap(app, ct, span) } else { app };
        out.push(assign_var(&r, value, span));
        let rv = var(&r, span);
        let mut facts = Vec::new();
        if !(shl && ct.signed) {
            facts.push(self.in_range(rv.clone(), ct, span));
        }
        let ones = if ct.signed {
            int(-1, span)
        } else {
            lit(&ct.max(self.arch), span)
        };
        facts.extend(bitwise_facts(op, &x, &y, &rv, &ones, span));
        let all = facts
            .into_iter()
            .reduce(|a, c| bin(BinOp::And, a, c, span))
            .unwrap_or_else(|| boolean(true, span));
        out.push(assume(all, span));
        TV::int(rv, ct)
    }

    fn call(&mut self, ce: &'a c::CallExpression, span: Span, out: &mut Vec<b::Stmt>) -> R<TV> {
        let c::Expression::Identifier(callee) = &ce.callee.node else {
            return self.call_pointer(ce, span, out);
        };
        let name = callee.node.name.as_str();
        if matches!(
            self.lookup(name),
            Some(Binding::Local { .. } | Binding::Global(_) | Binding::Mem { .. })
        ) {
            return self.call_pointer(ce, span, out);
        }
        if name == ACSL_OLD {
            let [arg] = ce.arguments.as_slice() else {
                return unsupported("`\\old` with other than one argument", span);
            };
            if !self.in_ensures {
                return unsupported("`\\old` outside a postcondition", span);
            }
            let v = self.expr(arg, out)?;
            let wrap = |e: b::Expr| ex(b::ExprKind::Old(Box::new(e)), span);
            return Ok(TV {
                v: match v.v {
                    V::Int(e) => V::Int(wrap(e)),
                    V::Float(e) => V::Float(wrap(e)),
                    V::Bool(e) => V::Bool(wrap(e)),
                    V::Ptr(b, o) => V::Ptr(wrap(b), wrap(o)),
                    V::Agg(_) => return unsupported("`\\old` of a struct", span),
                },
                ty: v.ty,
            });
        }
        match name {
            "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert" => {
                // `assert` of <assert.h> fails through `__assert_fail`: not `reach_error`
                let reach = matches!(name, "reach_error" | "__VERIFIER_error");
                if reach && self.other_property() {
                    self.memtrack_at_end(span, out);
                    out.push(assume(boolean(false, span), span));
                } else if reach {
                    out.push(assert(boolean(false, span), span));
                } else {
                    if self.counts_heap() {
                        // the failing `assert` aborts the program
                        self.memtrack_at_end(span, out);
                    }
                    out.extend(self.check(Check::Assertion, boolean(false, span), span));
                }
                return Ok(TV::void(span));
            }
            ACSL_ASSERT | "__VERIFIER_assert"
                if self.funcs.get(name).is_none_or(|f| f.def.is_none()) =>
            {
                let [arg] = ce.arguments.as_slice() else {
                    return unsupported(format!("`{name}` with other than one argument"), span);
                };
                let c = self.cond(arg, out)?;
                out.extend(self.check(Check::Assertion, c, span));
                return Ok(TV::void(span));
            }
            "__VERIFIER_assume" => {
                let [arg] = ce.arguments.as_slice() else {
                    return unsupported("`__VERIFIER_assume` with other than one argument", span);
                };
                let c = self.cond(arg, out)?;
                out.push(assume(c, span));
                return Ok(TV::void(span));
            }
            // a program's own `exit` (undefined behaviour, but what the linker uses) is called
            "abort" | "exit" | "_Exit" if self.funcs.get(name).is_none_or(|f| f.def.is_none()) => {
                for a in &ce.arguments {
                    self.expr(a, out)?;
                }
                self.memory_at_end(name != "abort", span, out);
                out.push(assume(boolean(false, span), span));
                return Ok(TV::void(span));
            }
            "__builtin_unreachable" => {
                // reaching it is undefined (GCC's manual): no run goes on past it, as Ultimate's
                // translation has it (`assume false`)
                if !ce.arguments.is_empty() {
                    return unsupported("`__builtin_unreachable` with arguments", span);
                }
                out.push(assume(boolean(false, span), span));
                return Ok(TV::void(span));
            }
            "__builtin_va_start" | "__builtin_va_end" | "__builtin_va_copy" => {
                return self.va_builtin(name, ce, span, out);
            }
            "__builtin_expect" => {
                let [x, y] = ce.arguments.as_slice() else {
                    return unsupported("`__builtin_expect` with other than two arguments", span);
                };
                let (v, _) = self.operands(x, y, out)?;
                return Ok(v);
            }
            _ => {}
        }
        let info = self.funcs.get(name).cloned();
        let defined = info.as_ref().is_some_and(|i| i.def.is_some());
        if !defined {
            if let Some(r) = self.float_call(name, &ce.arguments, span, out) {
                return r;
            }
            if let Some(r) = self.pthread_call(name, ce, span, out) {
                return r;
            }
            if let Some(r) = self.mem_call(name, ce, span, out) {
                return r;
            }
            if let Some(r) = self.string_call(name, ce, span, out) {
                return r;
            }
            if let Some(r) = self.atomic_builtin(name, ce, span, out) {
                return r;
            }
        }
        if self.thread_fns.contains(name) {
            return unsupported(format!("call of thread start routine `{name}`"), span);
        }
        let nondet_ty = name.strip_prefix("__VERIFIER_nondet_").map(nondet_type);
        let has_contract = self.contracts.contains_key(name);
        if let Some(info) = info.as_ref().filter(|i| i.def.is_some() || has_contract) {
            let arity_ok = if info.variadic {
                ce.arguments.len() >= info.params.len()
            } else {
                ce.arguments.len() == info.params.len()
            };
            if !arity_ok {
                return unsupported(
                    format!("call of `{name}` with a different number of arguments"),
                    span,
                );
            }
            let vals = self.args(&ce.arguments, out)?;
            let mut args = Vec::new();
            for (v, (_, pt, _)) in vals.iter().zip(&info.params) {
                if let CType::Struct(_) = pt {
                    if v.ty != *pt {
                        return unsupported(
                            format!("argument of type {} to `{name}`", v.ty.describe()),
                            span,
                        );
                    }
                    // passed by value: a copy, whose leaves are the arguments
                    let src = self.agg_place(v.clone(), span)?;
                    let copy = self.temp_agg(pt, span)?;
                    self.copy_place(&Place::Var(copy.clone()), &src, span, out)?;
                    for (path, _, _) in self.leaves(pt, span)? {
                        args.push(Some(var(&format!("{}{path}", copy.base), span)));
                    }
                    continue;
                }
                if !pt.is_scalar() {
                    return unsupported(format!("parameter of type {}", pt.describe()), span);
                }
                match self.scalar_value(v.clone(), pt, span)? {
                    SVal::Int(e) | SVal::Float(e) => args.push(Some(e)),
                    SVal::Ptr(b, o) => {
                        args.push(Some(b));
                        args.push(Some(o));
                    }
                }
            }
            // extra arguments of a variadic function: in a new object whose address the callee
            // reads at its entry, invalidated after the call
            let block = if info.variadic {
                Some(self.varargs(name, &vals[info.params.len()..], span, out)?)
            } else {
                None
            };
            self.enqueue(name);
            let atomic = name.starts_with("__VERIFIER_atomic_");
            let (outs, res) = self.result_temps(&info.ret, span)?;
            let call = super::build::call(&proc_name(name), outs, args, span);
            // SV-COMP: the body of a `__VERIFIER_atomic_*` function runs atomically
            out.push(if atomic {
                stmt(b::StmtKind::Atomic(vec![call]), span)
            } else {
                call
            });
            if let Some(block) = block {
                out.push(assign(
                    lhs(mem::VALID, vec![var(&block, span)], span),
                    boolean(false, span),
                    span,
                ));
            }
            return Ok(res);
        }
        // No body: SV-COMP's nondeterministic functions and functions declared in the program
        // return an arbitrary value of their type; library functions are modelled one by one.
        let ret = match (&info, nondet_ty) {
            (Some(i), _) => i.ret.clone(),
            (_, Some(Some(t))) => CType::Int(t),
            (None, _) if name == "__VERIFIER_nondet_float" => self.float_type(FloatTy::Float),
            (None, _) if name == "__VERIFIER_nondet_double" => self.float_type(FloatTy::Double),
            (None, _) if name == "static_assert" && !ce.arguments.is_empty() => {
                self.static_assert(&ce.arguments[0], span, out)?;
                return Ok(TV::void(span));
            }
            (None, _) if name == "assert" => {
                let [arg] = ce.arguments.as_slice() else {
                    return unsupported("`assert` with other than one argument", span);
                };
                let c = self.cond(arg, out)?;
                out.extend(self.check(Check::Assertion, c, span));
                return Ok(TV::void(span));
            }
            (None, _) if overflow_builtin(name).is_some() => {
                return self.overflow_builtin(name, ce, span, out);
            }
            (None, _) if name.starts_with("__builtin") => {
                return unsupported(format!("call of `{name}`"), span);
            }
            // an implicit declaration (C89): `int name()`
            (None, _) => CType::Int(IntTy::INT),
        };
        let in_main = info.as_ref().is_none_or(|i| i.in_main);
        if let Some(r) = self.ctype_call(name, ce, span, out) {
            return r;
        }
        if matches!(name, "abs" | "labs" | "llabs") {
            let [arg] = ce.arguments.as_slice() else {
                return unsupported(format!("`{name}` with other than one argument"), span);
            };
            let v = self.expr(arg, out)?;
            let t = match name {
                "abs" => IntTy::INT,
                "labs" => IntTy::new(IntKind::Long, true),
                _ => IntTy::new(IntKind::LongLong, true),
            };
            let x = self.convert(&v, t, span)?;
            return Ok(TV::int(
                ite(
                    bin(BinOp::Lt, x.clone(), int(0, span), span),
                    neg(x.clone(), span),
                    x,
                    span,
                ),
                t,
            ));
        }
        if name == "ffs" {
            // the position of the least significant set bit (1-based), 0 for 0: the bits below
            // it are those `x mod 2^k` sees, in two's complement as for |x|
            let [arg] = ce.arguments.as_slice() else {
                return unsupported("`ffs` with other than one argument", span);
            };
            let v = self.expr(arg, out)?;
            let x = self.convert(&v, IntTy::INT, span)?;
            let width = IntTy::INT.bits(self.arch);
            let mut r = ite(
                bin(BinOp::Eq, x.clone(), int(0, span), span),
                int(0, span),
                int(i64::from(width), span),
                span,
            );
            for k in (1..width).rev() {
                let low = arith(
                    BinOp::Mod,
                    x.clone(),
                    lit(&(BigInt::one() << k), span),
                    span,
                );
                r = ite(
                    bin(BinOp::Neq, low, int(0, span), span),
                    int(i64::from(k), span),
                    r,
                    span,
                );
            }
            return Ok(TV::int(r, IntTy::INT));
        }
        if name == "scanf" && !ce.arguments.is_empty() {
            return self.scanf(ce, span, out);
        }
        let printing = matches!(name, "printf" | "puts" | "putchar");
        // a C library function is never an arbitrary one, even when the program declares it itself
        // or calls it without a declaration
        if (!in_main || LIBC.contains(&name))
            && !name.starts_with("__VERIFIER_nondet_")
            && !printing
        {
            return unsupported(format!("call of library function `{name}`"), span);
        }
        // Printing reads its arguments and writes no memory of the program, unless a format
        // string has a `%n` conversion (which stores the count so far through a pointer): pointer
        // arguments (strings for `%s`, pointers for `%p`) are then only evaluated.
        let reads_only = match name {
            "puts" => true,
            "printf" => match ce.arguments.first().map(|a| &a.node) {
                Some(c::Expression::StringLiteral(p)) => {
                    string_bytes(&p.node).is_some_and(|f| !stores_count(&f))
                }
                _ => false,
            },
            _ => false,
        };
        for a in &ce.arguments {
            let v = self.expr(a, out)?;
            let pointer = matches!(v.ty, CType::Ptr(_) | CType::Array(..) | CType::Vla(..));
            if !(matches!(v.ty, CType::Int(_) | CType::Float(_) | CType::Str)
                || (pointer && reads_only))
            {
                return unsupported(
                    format!("argument of type {} to `{name}`", v.ty.describe()),
                    span,
                );
            }
        }
        match ret {
            CType::Int(t) => {
                let tmp = self.temp(span);
                out.extend(self.nondet(&tmp, t, span));
                Ok(TV::int(var(&tmp, span), t))
            }
            CType::Float(t) => Ok(self.nondet_float(t, span, out)),
            CType::Void => Ok(TV::void(span)),
            other => Ok(TV {
                v: V::Int(int(0, span)),
                ty: CType::Other(format!("result of `{name}` ({})", other.describe())),
            }),
        }
    }

    /// The temporaries that receive a call's result of type `ret` (none for `void`, two for a
    /// pointer, one per leaf for a struct), and the result as a value.
    fn result_temps(&mut self, ret: &CType, span: Span) -> R<(Vec<b::Ident>, TV)> {
        Ok(match ret {
            CType::Float(t) => {
                let tmp = self.float_temp(*t, span);
                (vec![ident(&tmp, span)], TV::float(var(&tmp, span), *t))
            }
            CType::Int(t) => {
                let tmp = self.temp(span);
                (vec![ident(&tmp, span)], TV::int(var(&tmp, span), *t))
            }
            CType::Ptr(pt) => {
                let (tb, to) = (self.temp(span), self.temp(span));
                (
                    vec![ident(&tb, span), ident(&to, span)],
                    TV::ptr(var(&tb, span), var(&to, span), (**pt).clone()),
                )
            }
            CType::Void => (Vec::new(), TV::void(span)),
            t @ CType::Struct(_) => {
                let r = self.temp_agg(t, span)?;
                let outs = self
                    .leaves(t, span)?
                    .into_iter()
                    .map(|(path, _, _)| ident(&format!("{}{path}", r.base), span))
                    .collect();
                (
                    outs,
                    TV {
                        v: V::Agg(r),
                        ty: t.clone(),
                    },
                )
            }
            other => {
                return unsupported(format!("function returning {}", other.describe()), span);
            }
        })
    }

    /// `<ctype.h>` in the "C" locale: `toupper`/`tolower` map the letters and keep every other
    /// value; `isdigit`, `isalpha`, `isalnum`, `isspace`, `isupper`, `islower` return an arbitrary
    /// nonzero `int` (the value is the implementation's) exactly for their characters. `None`: not
    /// one of them.
    fn ctype_call(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let ranges: &[(i64, i64)] = match name {
            "toupper" | "islower" => &[(97, 122)],
            "tolower" | "isupper" => &[(65, 90)],
            "isdigit" => &[(48, 57)],
            "isalpha" => &[(65, 90), (97, 122)],
            "isalnum" => &[(48, 57), (65, 90), (97, 122)],
            "isspace" => &[(9, 13), (32, 32)],
            _ => return None,
        };
        Some((|| {
            let [arg] = ce.arguments.as_slice() else {
                return unsupported(format!("`{name}` with other than one argument"), span);
            };
            let v = self.expr(arg, out)?;
            let x = self.convert(&v, IntTy::INT, span)?;
            let x = self
                .snapshot(TV::int(x, IntTy::INT), true, span, out)
                .to_int(span);
            let inside = ranges
                .iter()
                .map(|&(lo, hi)| {
                    bin(
                        BinOp::And,
                        bin(BinOp::Le, int(lo, span), x.clone(), span),
                        bin(BinOp::Le, x.clone(), int(hi, span), span),
                        span,
                    )
                })
                .reduce(|a, c| bin(BinOp::Or, a, c, span))
                .unwrap_or_else(|| boolean(false, span));
            if name == "toupper" || name == "tolower" {
                let d = if name == "toupper" { -32 } else { 32 };
                let mapped = arith(BinOp::Add, x.clone(), int(d, span), span);
                return Ok(TV::int(ite(inside, mapped, x, span), IntTy::INT));
            }
            let r = self.temp(span);
            out.extend(self.nondet(&r, IntTy::INT, span));
            out.push(assume(
                bin(
                    BinOp::Iff,
                    bin(BinOp::Neq, var(&r, span), int(0, span), span),
                    inside,
                    span,
                ),
                span,
            ));
            Ok(TV::int(var(&r, span), IntTy::INT))
        })())
    }

    /// `scanf(format, p1, …)`: every `pi` must point to an integer; the input is unknown, so the
    /// result `r` is arbitrary in `-1..=n` (`EOF`, or the number of items assigned) and the first
    /// `r` targets get arbitrary values of their types, the others keep theirs.
    fn scanf(&mut self, ce: &'a c::CallExpression, span: Span, out: &mut Vec<b::Stmt>) -> R<TV> {
        let format = match &ce.arguments[0].node {
            c::Expression::StringLiteral(pieces) => string_bytes(&pieces.node),
            _ => None,
        };
        let Some(format) = format else {
            return unsupported("`scanf` with a format that is not a string literal", span);
        };
        // only conversions that store one integer each
        match scanf_integer_conversions(&format) {
            Some(n) if n + 1 == ce.arguments.len() => {}
            _ => {
                return unsupported(
                    "`scanf` with a conversion other than one integer per argument",
                    span,
                );
            }
        }
        let vals = self.args(&ce.arguments, out)?;
        // the result: EOF (-1) or the number of items assigned, which are the first ones
        let n = vals.len() - 1;
        let res = self.temp(span);
        out.extend(self.nondet(&res, IntTy::INT, span));
        out.push(assume(
            bin(
                BinOp::And,
                bin(BinOp::Le, int(-1, span), var(&res, span), span),
                bin(BinOp::Le, var(&res, span), int(n as i64, span), span),
                span,
            ),
            span,
        ));
        for (i, v) in vals.into_iter().skip(1).enumerate() {
            let p = self.deref(v, span)?;
            let CType::Int(t) = p.ty().clone() else {
                return unsupported(format!("`scanf` into {}", p.ty().describe()), span);
            };
            let tmp = self.temp(span);
            let mut store = self.nondet(&tmp, t, span);
            self.store_place(&p, SVal::Int(var(&tmp, span)), span, &mut store)?;
            out.push(if_(
                bin(BinOp::Gt, var(&res, span), int(i as i64, span), span),
                store,
                Vec::new(),
                span,
            ));
        }
        Ok(TV::int(var(&res, span), IntTy::INT))
    }

    /// The POSIX threads functions (and SV-COMP's atomic markers) onto fork/join/atomic; `None`:
    /// not one of them. Thread ids are the values of a global fork counter; a mutex is an `int`
    /// (0 unlocked, 1 locked), locked by an atomic test-and-set. Every function succeeds (returns
    /// 0), as in Ultimate's translation.
    fn pthread_call(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let args = ce.arguments.as_slice();
        let zero = |span| Ok(TV::int(int(0, span), IntTy::INT));
        let r = match name {
            "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end" => {
                if !args.is_empty() {
                    return Some(unsupported(format!("`{name}` with arguments"), span));
                }
                self.atomic_markers = true;
                out.push(super::build::call(name, Vec::new(), Vec::new(), span));
                Ok(TV::void(span))
            }
            "pthread_create" => self.pthread_create(args, span, out),
            "pthread_join" => (|| {
                let [t, ret] = args else {
                    return unsupported("`pthread_join` with other than two arguments", span);
                };
                let v = self.expr(t, out)?;
                v.int_ty(span)?;
                if is_null(&ret.node) {
                    out.push(stmt(
                        b::StmtKind::Join {
                            tid: vec![v.to_int(span)],
                            assign: Vec::new(),
                        },
                        span,
                    ));
                    return zero(span);
                }
                // the result: a join assigns the returns of a thread with as many, so every start
                // routine must return a pointer
                let routines: Vec<String> = self.thread_fns.iter().cloned().collect();
                for r in routines {
                    if !matches!(self.funcs.get(&r).map(|i| &i.ret), Some(CType::Ptr(_))) {
                        return unsupported(
                            format!("result of thread start routine `{r}`, which is not a pointer"),
                            span,
                        );
                    }
                }
                let (rb, ro) = (self.temp(span), self.temp(span));
                out.push(stmt(
                    b::StmtKind::Join {
                        tid: vec![v.to_int(span)],
                        assign: vec![ident(&rb, span), ident(&ro, span)],
                    },
                    span,
                ));
                // `pthread_join` writes a `void *` where its argument points: every object
                // pointer has the representation of a `void *` (gcc), so casts of the argument
                // do not change what is written; an integer of the size of a pointer gets the
                // pointer's address
                let mut inner = ret;
                while let c::Expression::Cast(cst) = &inner.node {
                    inner = &cst.node.expression;
                }
                let target = self.expr(inner, out)?;
                let place = self.deref(target, span)?;
                let val = TV::ptr(var(&rb, span), var(&ro, span), CType::Void);
                let val = match place.ty().clone() {
                    CType::Int(it)
                        if it.kind != IntKind::Bool && it.size(self.arch) == self.ptr_size() =>
                    {
                        let e = self.ptr_to_int(var(&rb, span), var(&ro, span), it, span, out)?;
                        SVal::Int(e)
                    }
                    t @ CType::Ptr(_) => self.scalar_value(val, &t, span)?,
                    t => {
                        return unsupported(
                            format!("`pthread_join` into an object of type {}", t.describe()),
                            span,
                        );
                    }
                };
                self.store_place(&place, val, span, out)?;
                zero(span)
            })(),
            "pthread_exit" => {
                let [ret] = args else {
                    return Some(unsupported(
                        "`pthread_exit` with other than one argument",
                        span,
                    ));
                };
                if let (true, Some(rt)) = (self.f.thread, self.f.ret.clone()) {
                    // ends the thread with this result: its start routine returns
                    let r = (|| {
                        let v = self.expr(ret, out)?;
                        let val = self.scalar_value(v, &rt, span)?;
                        let res = Place::Var(LVal {
                            base: "#res".into(),
                            path: String::new(),
                            indices: Vec::new(),
                            ty: rt,
                            unions: Vec::new(),
                        });
                        self.store_place(&res, val, span, out)
                    })();
                    if let Err(e) = r {
                        return Some(Err(e));
                    }
                    out.extend(self.free_scopes(0, span));
                    out.push(stmt(b::StmtKind::Return, span));
                    return Some(Ok(TV::void(span)));
                }
                if !is_inert(&ret.node) {
                    return Some(unsupported("result of a thread with side effects", span));
                }
                if self.f.thread {
                    // ends the thread: its start routine returns
                    out.extend(self.free_scopes(0, span));
                    out.push(stmt(b::StmtKind::Return, span));
                } else if self.f.name == "main" {
                    // the main thread ends; the process lives on until the other threads end
                    self.memtrack_at_end(span, out);
                    out.push(assume(boolean(false, span), span));
                } else {
                    return Some(unsupported(
                        "`pthread_exit` outside a thread start routine and `main`",
                        span,
                    ));
                }
                Ok(TV::void(span))
            }
            "pthread_mutex_lock"
            | "pthread_mutex_unlock"
            | "pthread_mutex_init"
            | "pthread_mutex_destroy" => (|| {
                let (m, rest) = match args {
                    [m, rest @ ..] => (m, rest),
                    [] => return unsupported(format!("`{name}` without arguments"), span),
                };
                let expected = if name == "pthread_mutex_init" { 1 } else { 0 };
                if rest.len() != expected {
                    return unsupported(format!("`{name}` with a wrong number of arguments"), span);
                }
                if rest.iter().any(|a| !is_null(&a.node)) {
                    return unsupported("mutex attributes", span);
                }
                let m = self.mutex(m, span)?;
                let set = |v: i64| assign_var(&m, int(v, span), span);
                match name {
                    "pthread_mutex_lock" => out.push(stmt(
                        b::StmtKind::Atomic(vec![
                            assume(bin(BinOp::Eq, var(&m, span), int(0, span), span), span),
                            set(1),
                        ]),
                        span,
                    )),
                    "pthread_mutex_unlock" | "pthread_mutex_init" => out.push(set(0)),
                    _ => {}
                }
                zero(span)
            })(),
            // Condition variables. POSIX allows spurious wake-ups (`pthread_cond_wait` may return
            // without a signal), so a wait that releases the mutex and takes it again at any later
            // point is one of its behaviours, and every behaviour a signal allows is one of
            // those: exact for safety (a wait that blocks forever only removes executions).
            // Signals, inits and destroys then change nothing.
            "pthread_cond_init"
            | "pthread_cond_destroy"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast" => (|| {
                let expected = if name == "pthread_cond_init" { 2 } else { 1 };
                if args.len() != expected {
                    return unsupported(format!("`{name}` with a wrong number of arguments"), span);
                }
                if args[1..].iter().any(|a| !is_null(&a.node)) {
                    return unsupported("condition variable attributes", span);
                }
                if !is_inert(&args[0].node) {
                    self.expr(&args[0], out)?;
                }
                zero(span)
            })(),
            "pthread_cond_wait" | "pthread_cond_timedwait" => (|| {
                let expected = if name == "pthread_cond_wait" { 2 } else { 3 };
                if args.len() != expected {
                    return unsupported(format!("`{name}` with a wrong number of arguments"), span);
                }
                for a in [&args[0]].into_iter().chain(args.get(2)) {
                    if !is_inert(&a.node) {
                        self.expr(a, out)?;
                    }
                }
                let m = self.mutex(&args[1], span)?;
                out.push(assign_var(&m, int(0, span), span));
                out.push(stmt(
                    b::StmtKind::Atomic(vec![
                        assume(bin(BinOp::Eq, var(&m, span), int(0, span), span), span),
                        assign_var(&m, int(1, span), span),
                    ]),
                    span,
                ));
                if name == "pthread_cond_wait" {
                    return zero(span);
                }
                // woken, or timed out (`ETIMEDOUT`, 110 on Linux)
                let r = self.temp(span);
                out.push(havoc(&r, span));
                out.push(assume(
                    bin(
                        BinOp::Or,
                        bin(BinOp::Eq, var(&r, span), int(0, span), span),
                        bin(BinOp::Eq, var(&r, span), int(110, span), span),
                        span,
                    ),
                    span,
                ));
                Ok(TV::int(var(&r, span), IntTy::INT))
            })(),
            _ if name.starts_with("pthread_") => unsupported(format!("pthreads (`{name}`)"), span),
            _ => return None,
        };
        Some(r)
    }

    /// `&m` for a global `pthread_mutex_t m`: its variable.
    fn mutex(&mut self, e: &'a Node<c::Expression>, span: Span) -> R<String> {
        if let c::Expression::UnaryOperator(u) = &e.node {
            if u.node.operator.node == c::UnaryOperator::Address {
                if let c::Expression::Identifier(i) = &u.node.operand.node {
                    if let Some(Binding::Global(key)) = self.lookup(&i.node.name).cloned() {
                        if let Some(g) = self.globals.get(&key).filter(|g| g.mutex) {
                            let name = g.name.clone();
                            self.used_mutexes.insert(key);
                            return Ok(name);
                        }
                    }
                }
            }
        }
        unsupported(
            "mutex other than `&m` for a global `pthread_mutex_t m`",
            span,
        )
    }

    /// `pthread_create(&t, NULL, f, arg)`: `t := #pthreadsForks; fork t f(arg);`, the counter
    /// incremented. `t` is any integer lvalue (`pthread_t` is an integer type); `arg` is converted
    /// to `f`'s pointer parameter (a routine without parameters takes no argument: `arg` is then only
    /// accepted where evaluating it has no effect).
    fn pthread_create(
        &mut self,
        args: &'a [Node<c::Expression>],
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let [t, attr, f, arg] = args else {
            return unsupported("`pthread_create` with other than four arguments", span);
        };
        if !is_null(&attr.node) {
            return unsupported("thread attributes", span);
        }
        let fname = function_name(&f.node).filter(|n| {
            !matches!(
                self.lookup(n),
                Some(Binding::Local { .. } | Binding::Global(_) | Binding::Mem { .. })
            )
        });
        let Some(fname) = fname else {
            return self.pthread_create_pointer(t, f, arg, span, out);
        };
        if self.funcs.get(fname).is_none_or(|i| i.def.is_none()) {
            return unsupported(
                format!("thread start routine `{fname}` that is not a defined function"),
                span,
            );
        }
        let param = self
            .funcs
            .get(fname)
            .and_then(|i| i.params.first().map(|p| p.1.clone()));
        let fork_args = match param {
            Some(pt) => {
                let v = self.expr(arg, out)?;
                match self.scalar_value(v, &pt, span)? {
                    SVal::Ptr(b, o) => vec![b, o],
                    SVal::Int(e) | SVal::Float(e) => vec![e],
                }
            }
            None if is_inert(&arg.node) => Vec::new(),
            None => return unsupported("thread argument with side effects", span),
        };
        let id = self.thread_id(t, span, out)?;
        out.push(stmt(
            b::StmtKind::Fork {
                tid: vec![var(&id, span)],
                proc: ident(&proc_name(fname), span),
                args: fork_args,
            },
            span,
        ));
        self.enqueue(fname);
        Ok(TV::int(int(0, span), IntTy::INT))
    }

    /// The thread id of a new thread, stored in `*t` (`&t` with `t` an integer lvalue): the fork
    /// counter, incremented.
    fn thread_id(
        &mut self,
        t: &'a Node<c::Expression>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        let c::Expression::UnaryOperator(u) = &t.node else {
            return unsupported("`pthread_create` with a thread id that is not `&t`", span);
        };
        if u.node.operator.node != c::UnaryOperator::Address {
            return unsupported("`pthread_create` with a thread id that is not `&t`", span);
        }
        let lv = self.lvalue(&u.node.operand, out)?;
        let CType::Int(tt) = *lv.ty() else {
            return unsupported(format!("thread id of type {}", lv.ty().describe()), span);
        };
        self.forks = true;
        let id = self.temp(span);
        out.push(assign_var(&id, var(FORK_COUNTER, span), span));
        out.push(assign_var(
            FORK_COUNTER,
            arith(BinOp::Add, var(FORK_COUNTER, span), int(1, span), span),
            span,
        ));
        // ids stay in the range of the thread id's type (the engine bounds the thread instances
        // far below it)
        out.push(assume(self.in_range(var(&id, span), tt, span), span));
        self.store_place(&lv, SVal::Int(var(&id, span)), span, out)?;
        Ok(id)
    }

    /// `__builtin_{s,u,}{add,sub,mul}{,l,ll}_overflow(a, b, &r)`: `r` gets the exact result converted
    /// to its type; the value says whether that conversion changed it.
    fn overflow_builtin(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let Some((op, operand_ty)) = overflow_builtin(name) else {
            return unsupported(format!("call of `{name}`"), span);
        };
        let [x, y, r] = ce.arguments.as_slice() else {
            return unsupported(format!("`{name}` with other than three arguments"), span);
        };
        let c::Expression::UnaryOperator(u) = &r.node else {
            return unsupported(
                format!("`{name}` with a result that is not `&variable`"),
                span,
            );
        };
        if u.node.operator.node != c::UnaryOperator::Address {
            return unsupported(
                format!("`{name}` with a result that is not `&variable`"),
                span,
            );
        }
        let (a, bv) = self.operands(x, y, out)?;
        let (ea, eb) = match operand_ty {
            Some(t) => (self.convert(&a, t, span)?, self.convert(&bv, t, span)?),
            None => {
                a.int_ty(span)?;
                bv.int_ty(span)?;
                (a.to_int(span), bv.to_int(span))
            }
        };
        let lv = self.lvalue(&u.node.operand, out)?;
        let CType::Int(rt) = *lv.ty() else {
            return unsupported(
                format!("`{name}` with a result of type {}", lv.ty().describe()),
                span,
            );
        };
        let tmp = self.temp(span);
        out.push(assign_var(&tmp, arith(op, ea, eb, span), span));
        let exact = var(&tmp, span);
        let stored = if rt.kind == IntKind::Bool {
            return unsupported(format!("`{name}` with a _Bool result"), span);
        } else if rt.signed {
            let m = rt.modulus(self.arch);
            let half = &m >> 1;
            arith(
                BinOp::Sub,
                modulo(
                    arith(BinOp::Add, exact.clone(), lit(&half, span), span),
                    &m,
                    span,
                ),
                lit(&half, span),
                span,
            )
        } else {
            modulo(exact.clone(), &rt.modulus(self.arch), span)
        };
        self.store_place(&lv, SVal::Int(stored), span, out)?;
        Ok(TV::boolean(not(self.in_range(exact, rt, span), span)))
    }

    /// Arguments left to right; a value is saved when a later argument has side effects.
    /// The extra arguments of a call of the variadic function `name`, default-promoted, stored one
    /// after the other in a new object on the stack, whose address goes to `#va.base`/`#va.off`
    /// (read at the callee's entry); the Boogie variable holding its base.
    fn varargs(
        &mut self,
        name: &str,
        extra: &[TV],
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        let mut layout = Vec::new();
        let mut size = 0u64;
        for v in extra {
            let v = self.decay(v.clone(), span)?;
            let t = match &v.ty {
                CType::Int(i) => CType::Int(ints::promote(*i)),
                CType::Ptr(_) => v.ty.clone(),
                other => {
                    return unsupported(
                        format!("extra argument of type {} to `{name}`", other.describe()),
                        span,
                    );
                }
            };
            let sv = self.scalar_value(v, &t, span)?;
            let (n, _) = self.size_align(&t, span)?;
            layout.push((sv, t, size));
            size += n;
        }
        let base = self.new_local("#va~args", int_map_type(0, span));
        self.alloc(&base, lit(&BigInt::from(size), span), false, span, out);
        for (sv, t, off) in layout {
            let p = Place::Mem {
                base: var(&base, span),
                off: lit(&BigInt::from(off), span),
                ty: t,
                safe: true,
                unions: Vec::new(),
            };
            self.store_place(&p, sv, span, out)?;
        }
        self.mem.varargs = true;
        out.push(assign_var(mem::VA_BASE, var(&base, span), span));
        out.push(assign_var(mem::VA_OFF, int(0, span), span));
        Ok(base)
    }

    /// `__builtin_va_start(ap, last)`: `ap` is the address of the extra arguments;
    /// `__builtin_va_end(ap)`: nothing; `__builtin_va_copy(d, s)`: `d = s`.
    fn va_builtin(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let (dst, v) = match (name, ce.arguments.as_slice()) {
            ("__builtin_va_start", [ap, _]) => {
                let Some((vb, vo)) = self.f.va.clone() else {
                    return unsupported("`va_start` outside a variadic function", span);
                };
                let v = TV::ptr(var(&vb, span), var(&vo, span), CType::Int(IntTy::CHAR));
                (ap, v)
            }
            ("__builtin_va_end", [ap]) => {
                self.expr(ap, out)?;
                return Ok(TV::void(span));
            }
            ("__builtin_va_copy", [d, s]) => (d, self.expr(s, out)?),
            _ => return unsupported(format!("`{name}` with these arguments"), span),
        };
        let p = self.lvalue(dst, out)?;
        let sv = self.scalar_value(v, &p.ty().clone(), span)?;
        self.store_place(&p, sv, span, out)?;
        Ok(TV::void(span))
    }

    /// `__builtin_va_arg(ap, T)`: the `T` at the address in `ap`, which then moves past it.
    fn va_arg(&mut self, va: &'a c::VaArgExpression, span: Span, out: &mut Vec<b::Stmt>) -> R<TV> {
        let t = self.type_name(&va.type_name);
        if !matches!(t, CType::Int(_) | CType::Ptr(_)) {
            return unsupported(format!("`va_arg` of {}", t.describe()), span);
        }
        let lv = self.lvalue(&va.va_list, out)?;
        if !matches!(lv.ty(), CType::Ptr(_)) {
            return unsupported(format!("`va_arg` of a {}", lv.ty().describe()), span);
        }
        let cur = self.read_place(&lv, true, span, out)?;
        let cur = self.snapshot(cur, true, span, out);
        let V::Ptr(b, o) = cur.v else {
            return unsupported("`va_arg` of this list", span);
        };
        let (n, _) = self.size_align(&t, span)?;
        let at = self.deref(TV::ptr(b.clone(), o.clone(), t.clone()), span)?;
        let val = self.read_place(&at, true, span, out)?;
        let val = self.snapshot(val, true, span, out);
        let next = TV::ptr(
            b,
            arith(BinOp::Add, o, lit(&BigInt::from(n), span), span),
            CType::Int(IntTy::CHAR),
        );
        let sv = self.scalar_value(next, &lv.ty().clone(), span)?;
        self.store_place(&lv, sv, span, out)?;
        Ok(val)
    }

    fn args(&mut self, es: &'a [Node<c::Expression>], out: &mut Vec<b::Stmt>) -> R<Vec<TV>> {
        let mut vals: Vec<TV> = Vec::new();
        for e in es {
            let mut buf = Vec::new();
            let v = self.expr(e, &mut buf)?;
            if !buf.is_empty() {
                let spn = self.sp(e.span);
                let old = std::mem::take(&mut vals);
                for p in old {
                    let s = self.snapshot(p, true, spn, out);
                    vals.push(s);
                }
            }
            out.extend(buf);
            vals.push(v);
        }
        Ok(vals)
    }
}

/// Facts about `r = x op y` for a bitwise `op` (or a shift) that hold in two's complement whenever
/// `x` and `y` are in the range of one integer type whose all-ones value is `ones` (-1 if signed,
/// the maximum if unsigned; see `Translator::bitwise_overapprox`).
fn bitwise_facts(
    op: c::BinaryOperator,
    x: &b::Expr,
    y: &b::Expr,
    rv: &b::Expr,
    ones: &b::Expr,
    span: Span,
) -> Vec<b::Expr> {
    use c::BinaryOperator as O;
    let zero = || int(0, span);
    let ge0 = |e: &b::Expr| bin(BinOp::Ge, e.clone(), zero(), span);
    let lt0 = |e: &b::Expr| bin(BinOp::Lt, e.clone(), zero(), span);
    let imp = |a: b::Expr, c: b::Expr| bin(BinOp::Implies, a, c, span);
    let eq = |a: &b::Expr, c: &b::Expr| bin(BinOp::Eq, a.clone(), c.clone(), span);
    let le = |a: &b::Expr, c: &b::Expr| bin(BinOp::Le, a.clone(), c.clone(), span);
    let or = |a: b::Expr, c: b::Expr| bin(BinOp::Or, a, c, span);
    let and = |a: b::Expr, c: b::Expr| bin(BinOp::And, a, c, span);
    let mut facts = Vec::new();
    match op {
        O::BitwiseAnd => {
            // clearing bits: below each non-negative operand, below both negative ones
            facts.push(imp(or(ge0(x), ge0(y)), ge0(rv)));
            facts.push(imp(ge0(x), le(rv, x)));
            facts.push(imp(ge0(y), le(rv, y)));
            facts.push(imp(
                and(lt0(x), lt0(y)),
                and(lt0(rv), and(le(rv, x), le(rv, y))),
            ));
            facts.push(imp(eq(x, y), eq(rv, x)));
            facts.push(imp(or(eq(x, &zero()), eq(y, &zero())), eq(rv, &zero())));
            facts.push(imp(eq(x, ones), eq(rv, y)));
            facts.push(imp(eq(y, ones), eq(rv, x)));
        }
        O::BitwiseOr => {
            // setting bits: above each negative operand, above both non-negative ones
            facts.push(imp(or(lt0(x), lt0(y)), lt0(rv)));
            facts.push(imp(lt0(x), le(x, rv)));
            facts.push(imp(lt0(y), le(y, rv)));
            facts.push(imp(
                and(ge0(x), ge0(y)),
                and(
                    and(le(x, rv), le(y, rv)),
                    le(rv, &arith(BinOp::Add, x.clone(), y.clone(), span)),
                ),
            ));
            facts.push(imp(eq(x, y), eq(rv, x)));
            facts.push(imp(eq(x, &zero()), eq(rv, y)));
            facts.push(imp(eq(y, &zero()), eq(rv, x)));
            facts.push(imp(or(eq(x, ones), eq(y, ones)), eq(rv, ones)));
        }
        O::ShiftLeft | O::ShiftRight => {
            // (amounts in range; also for the masked amounts of x86 hardware)
            facts.push(imp(eq(x, &zero()), eq(rv, &zero())));
            facts.push(imp(eq(y, &zero()), eq(rv, x)));
            if op == O::ShiftRight {
                // an arithmetic shift moves towards zero and keeps the sign
                facts.push(imp(ge0(x), and(ge0(rv), le(rv, x))));
                facts.push(imp(lt0(x), and(le(x, rv), lt0(rv))));
            }
        }
        _ => {
            // the sign bit is the exclusive or of the signs
            facts.push(imp(bin(BinOp::Iff, ge0(x), ge0(y), span), ge0(rv)));
            facts.push(imp(
                not(bin(BinOp::Iff, ge0(x), ge0(y), span), span),
                lt0(rv),
            ));
            facts.push(imp(
                and(ge0(x), ge0(y)),
                le(rv, &arith(BinOp::Add, x.clone(), y.clone(), span)),
            ));
            facts.push(imp(eq(x, y), eq(rv, &zero())));
            facts.push(imp(eq(x, &zero()), eq(rv, y)));
            facts.push(imp(eq(y, &zero()), eq(rv, x)));
            // the complement: `ones - v` (`-1 - v` signed, `max - v` unsigned)
            facts.push(imp(
                eq(y, ones),
                eq(rv, &arith(BinOp::Sub, ones.clone(), x.clone(), span)),
            ));
            facts.push(imp(
                eq(x, ones),
                eq(rv, &arith(BinOp::Sub, ones.clone(), y.clone(), span)),
            ));
        }
    }
    facts
}

/// The number of assigning conversions of a `scanf` format, if each stores one integer (`%d`, `%i`,
/// `%u`, `%o`, `%x`, `%X`, `%c` without a width, with length modifiers); `%*…` assigns nothing,
/// `%%` is a literal. (`%n`, which assigns without counting, is not accepted.)
fn scanf_integer_conversions(format: &[u8]) -> Option<usize> {
    let mut n = 0;
    for (spec, conversion) in format_conversions(format) {
        let (suppress, rest) = match spec.split_first() {
            Some((b'*', rest)) => (true, rest),
            _ => (false, spec),
        };
        let width = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        if !rest[width..].iter().all(|c| b"hljztLq".contains(c)) {
            return None;
        }
        match conversion? {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => {}
            b'c' if width == 0 => {}
            _ => return None,
        }
        if !suppress {
            n += 1;
        }
    }
    Some(n)
}

/// Does the `printf` format have a `%n` conversion (flags, width, precision and length
/// modifiers allowed before the `n`)?
fn stores_count(format: &[u8]) -> bool {
    format_conversions(format)
        .iter()
        .any(|(_, conversion)| *conversion == Some(b'n'))
}

/// The conversions of a `printf` or `scanf` format, `%%` (a literal `%`) left out: what stands
/// between the `%` and the conversion character (flags, width, precision, length modifiers, `*`),
/// and the conversion character (`None` at the end of the format).
fn format_conversions(format: &[u8]) -> Vec<(&[u8], Option<u8>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i + 1;
        i = start;
        while i < format.len() && b"-+ #0123456789.*hlLqjzt'".contains(&format[i]) {
            i += 1;
        }
        let conversion = format.get(i).copied();
        if !(conversion == Some(b'%') && i == start) {
            out.push((&format[start..i], conversion));
        }
        i += 1;
    }
    out
}

/// C library functions whose results are not arbitrary (called without their header, they must
/// not become nondeterministic functions).
const LIBC: &[&str] = &[
    "rand", "random", "srand", "strlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat",
    "strchr", "strrchr", "strstr", "memcpy", "memset", "memcmp", "memmove", "malloc", "calloc",
    "realloc", "free", "alloca", "atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "sqrt",
    "pow", "exp", "log", "sin", "cos", "floor", "ceil", "fabs", "fmin", "fmax", "isdigit",
    "isalpha", "isalnum", "isspace", "isupper", "islower", "toupper", "tolower", "getchar",
    "fgetc", "getc", "scanf", "fscanf", "sscanf", "sprintf", "snprintf", "fprintf", "time",
    "clock", "getenv", "qsort", "bsearch", "ffs", "div", "ldiv", "strdup", "strndup", "strnlen",
    "strncat",
];

/// The operation and operand type (`None`: the operands' own types) of a GCC overflow builtin.
fn overflow_builtin(name: &str) -> Option<(BinOp, Option<IntTy>)> {
    let core = name.strip_prefix("__builtin_")?.strip_suffix("_overflow")?;
    let (signed, rest) = match core.as_bytes().first()? {
        b's' if !core.starts_with("sub") => (Some(true), &core[1..]),
        b'u' => (Some(false), &core[1..]),
        _ => (None, core),
    };
    let (op, size) = if let Some(s) = rest.strip_prefix("add") {
        (BinOp::Add, s)
    } else if let Some(s) = rest.strip_prefix("sub") {
        (BinOp::Sub, s)
    } else if let Some(s) = rest.strip_prefix("mul") {
        (BinOp::Mul, s)
    } else {
        return None;
    };
    let kind = match size {
        "" => IntKind::Int,
        "l" => IntKind::Long,
        "ll" => IntKind::LongLong,
        _ => return None,
    };
    match signed {
        Some(sg) => Some((op, Some(IntTy::new(kind, sg)))),
        None if size.is_empty() => Some((op, None)),
        None => None,
    }
}

/// The type of `__VERIFIER_nondet_<suffix>` (SV-COMP's naming).
fn nondet_type(suffix: &str) -> Option<IntTy> {
    use IntKind::*;
    Some(match suffix {
        "int" => IntTy::INT,
        "uint" | "unsigned" | "u32" => IntTy::UINT,
        "char" => IntTy::CHAR,
        "uchar" | "u8" => IntTy::new(Char, false),
        "short" => IntTy::new(Short, true),
        "ushort" | "u16" => IntTy::new(Short, false),
        "long" => IntTy::new(Long, true),
        "ulong" | "size_t" => IntTy::new(Long, false),
        "longlong" => IntTy::new(LongLong, true),
        "ulonglong" => IntTy::new(LongLong, false),
        "int128" => IntTy::new(Int128, true),
        "uint128" => IntTy::new(Int128, false),
        "bool" | "_Bool" => IntTy::BOOL,
        _ => return None,
    })
}

/// Whether `e` designates an object by its form (an identifier, a member, a compound literal, a
/// dereference or an index), as opposed to a value (a call's result, a conditional's).
fn is_lvalue_shaped(e: &c::Expression) -> bool {
    match e {
        c::Expression::Identifier(_)
        | c::Expression::Member(_)
        | c::Expression::CompoundLiteral(_) => true,
        c::Expression::UnaryOperator(u) => u.node.operator.node == c::UnaryOperator::Indirection,
        c::Expression::BinaryOperator(b) => b.node.operator.node == c::BinaryOperator::Index,
        _ => false,
    }
}

/// The bytes of a string literal (the pieces of a concatenation, each with its quotes); `None`: a
/// wide or prefixed literal, or an escape not decoded.
fn string_bytes(pieces: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in pieces {
        let inner = p.strip_prefix('"')?.strip_suffix('"')?;
        let b = inner.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let e = *b.get(i + 1)?;
            i += 2;
            let v: u32 = match e {
                b'n' => 10,
                b't' => 9,
                b'r' => 13,
                b'\\' => 92,
                b'\'' => 39,
                b'"' => 34,
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'v' => 11,
                b'?' => 63,
                b'x' => {
                    let start = i;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        i += 1;
                    }
                    u32::from_str_radix(std::str::from_utf8(&b[start..i]).ok()?, 16).ok()?
                }
                b'0'..=b'7' => {
                    let start = i - 1;
                    while i < b.len() && i < start + 3 && (b'0'..=b'7').contains(&b[i]) {
                        i += 1;
                    }
                    u32::from_str_radix(std::str::from_utf8(&b[start..i]).ok()?, 8).ok()?
                }
                _ => return None,
            };
            out.push(u8::try_from(v).ok()?);
        }
    }
    Some(out)
}

/// The value and type of a character constant such as `'a'`, `'\n'`, `'\x41'`, `'\0'` (type
/// `int`; a plain `char` is signed, so `'\xff'` is -1), or one with a prefix, whose value is the
/// character's code point (or the escape's value) in its type: `L'…'` `wchar_t` (`int` on x86
/// Linux, both architectures), `u'…'` `char16_t` (`unsigned short`), `U'…'` `char32_t` (`unsigned
/// int`). `None` for what is implementation-defined or ill-formed: several characters, a plain
/// constant of a non-ASCII character, a value out of the type's range.
fn char_value(s: &str) -> Option<(BigInt, IntTy)> {
    let (prefix, quoted) = match s.find('\'') {
        Some(k) => s.split_at(k),
        None => return None,
    };
    let inner = quoted.strip_prefix('\'')?.strip_suffix('\'')?;
    let v: u64 = if let Some(esc) = inner.strip_prefix('\\') {
        match esc {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "0" => 0,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            "?" => 63,
            _ if esc.starts_with('x') && esc.len() > 1 => {
                u64::from_str_radix(&esc[1..], 16).ok()?
            }
            _ if (1..=3).contains(&esc.len()) && esc.chars().all(|c| c.is_digit(8)) => {
                u64::from_str_radix(esc, 8).ok()?
            }
            _ => return None,
        }
    } else {
        let mut chars = inner.chars();
        let ch = chars.next()?;
        if chars.next().is_some() || (prefix.is_empty() && !ch.is_ascii()) {
            return None;
        }
        u64::from(u32::from(ch))
    };
    match prefix {
        "" if v <= 255 => {
            let v = v as i64;
            Some((BigInt::from(if v > 127 { v - 256 } else { v }), IntTy::INT))
        }
        // `wchar_t` is a signed 32-bit `int`: an escape up to 0xffffffff gives its bits
        "L" if v <= 0xffff_ffff => {
            let v = v as i64;
            let v = if v > 0x7fff_ffff { v - (1i64 << 32) } else { v };
            Some((BigInt::from(v), IntTy::INT))
        }
        "u" if v <= 0xffff => Some((BigInt::from(v), IntTy::new(ints::IntKind::Short, false))),
        "U" if v <= 0xffff_ffff => Some((BigInt::from(v), IntTy::UINT)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{bitwise_facts, scanf_integer_conversions, stores_count, string_bytes};
    use crate::cfront::build::var;
    use crate::diag::Span;
    use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};
    use lang_c::ast::BinaryOperator as O;

    #[test]
    fn printf_formats_that_store_through_a_pointer() {
        for f in ["%n", "x=%d%n", "%5n", "%hhn", "%-lln", "%%%n"] {
            assert!(stores_count(f.as_bytes()), "{f}");
        }
        for f in ["", "%d %s\n", "%%n", "100%", "%s%%", "%p %c %5.2f"] {
            assert!(!stores_count(f.as_bytes()), "{f}");
        }
    }

    /// Evaluates the integer/boolean expressions `bitwise_facts` builds.
    fn eval(e: &Expr, env: &dyn Fn(&str) -> i64) -> i64 {
        match &e.kind {
            ExprKind::IntLit(v) => v.parse().expect("literal"),
            ExprKind::BoolLit(b) => i64::from(*b),
            ExprKind::Var(id) => env(&id.name),
            ExprKind::Unary(UnOp::Not, a) => i64::from(eval(a, env) == 0),
            ExprKind::Unary(UnOp::Neg, a) => -eval(a, env),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (eval(a, env), eval(b, env));
                let t = |c: bool| i64::from(c);
                match op {
                    BinOp::And => t(x != 0 && y != 0),
                    BinOp::Or => t(x != 0 || y != 0),
                    BinOp::Implies => t(x == 0 || y != 0),
                    BinOp::Iff => t((x != 0) == (y != 0)),
                    BinOp::Eq => t(x == y),
                    BinOp::Le => t(x <= y),
                    BinOp::Lt => t(x < y),
                    BinOp::Ge => t(x >= y),
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    other => panic!("unexpected operator {other:?}"),
                }
            }
            other => panic!("unexpected expression {other:?}"),
        }
    }

    /// Every fact holds for every pair of 8-bit operands, signed and unsigned.
    #[test]
    fn bitwise_facts_hold_in_twos_complement() {
        let span = Span::new(0, 0);
        let (x, y, r) = (var("x", span), var("y", span), var("r", span));
        for (op, f) in [
            (O::BitwiseAnd, (|a, b| a & b) as fn(i64, i64) -> i64),
            (O::BitwiseOr, |a, b| a | b),
            (O::BitwiseXor, |a, b| a ^ b),
        ] {
            let name = format!("{op:?}");
            for signed in [true, false] {
                let ones = var(if signed { "m1" } else { "max" }, span);
                let facts = bitwise_facts(op.clone(), &x, &y, &r, &ones, span);
                assert!(facts.len() >= 5);
                let range: Vec<i64> = if signed {
                    (-128..128).collect()
                } else {
                    (0..256).collect()
                };
                for &a in &range {
                    for &b in &range {
                        // the bit pattern of the result, read back in the operands' type
                        let bits = f(a & 0xff, b & 0xff) & 0xff;
                        let res = if signed && bits >= 128 {
                            bits - 256
                        } else {
                            bits
                        };
                        let env = |n: &str| match n {
                            "x" => a,
                            "y" => b,
                            "m1" => -1,
                            "max" => 255,
                            _ => res,
                        };
                        for fact in &facts {
                            assert_eq!(eval(fact, &env), 1, "{name} {a} {b} = {res}: {fact:?}");
                        }
                    }
                }
            }
        }
        // shifts of 8-bit values by the amounts 0..=8 (`>>` arithmetic, `<<` wrapping)
        for op in [O::ShiftLeft, O::ShiftRight] {
            let left = op == O::ShiftLeft;
            let facts = bitwise_facts(op, &x, &y, &r, &var("m1", span), span);
            assert!(facts.len() >= 2);
            for a in -128i64..128 {
                for b in 0i64..=8 {
                    let res = if left {
                        let bits = (a << b) & 0xff;
                        if bits >= 128 { bits - 256 } else { bits }
                    } else {
                        a >> b
                    };
                    let env = |n: &str| match n {
                        "x" => a,
                        "y" => b,
                        "m1" => -1,
                        _ => res,
                    };
                    for fact in &facts {
                        assert_eq!(eval(fact, &env), 1, "{left} {a} {b} = {res}: {fact:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn scanf_formats() {
        let n = |f: &str| scanf_integer_conversions(f.as_bytes());
        assert_eq!(n("%d"), Some(1));
        assert_eq!(n("x=%d, y=%5lu %%"), Some(2));
        assert_eq!(
            n("%*d %hhx %c"),
            Some(2),
            "suppressed, length modifier, one char"
        );
        assert_eq!(n("%s"), None, "a string is not one integer");
        assert_eq!(n("%3c"), None, "a char array");
        assert_eq!(n("%f"), None, "a float");
        assert_eq!(n("%n"), None, "assigns without counting");
        assert_eq!(n("%"), None, "incomplete");
        assert_eq!(n("plain"), Some(0));
    }

    #[test]
    fn string_literal_bytes() {
        let s = |p: &[&str]| string_bytes(&p.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["\"ab\""]), Some(b"ab".to_vec()));
        assert_eq!(s(&["\"a\"", "\"b\""]), Some(b"ab".to_vec()));
        assert_eq!(s(&["\"\\n\\t\\\\\\\"\""]), Some(vec![10, 9, 92, 34]));
        assert_eq!(s(&["\"\\x41\\101\\0\""]), Some(vec![65, 65, 0]));
        assert_eq!(s(&["\"\\xfff\""]), None, "out of range for a char");
        assert_eq!(s(&["L\"w\""]), None, "wide literal");
        assert_eq!(s(&["\"\\q\""]), None, "unknown escape");
    }
}
