//! Hash-consed SMT terms.
//!
//! Every [`Term`] is interned in one process-wide table, so structurally equal terms built anywhere are the
//! same allocation with the same [`Term::id`]. Equality, hashing and ordering are therefore O(1).
//!
//! Invariants:
//! - two `Term`s are equal iff their `TermKind`s are equal (children compared by identity);
//! - `Term::id` is unique for the lifetime of the term; ids are never reused (a `u32` counter);
//! - the hash of a term is *structural* (computed from names, sorts, values and the children's structural
//!   hashes, never from ids), so it is the same in every run and can be used for deterministic orders;
//! - constructors do only trivial normalisation (see each constructor); full simplification is
//!   [`crate::smt::simplify()`].
//!
//! Terms are `Send + Sync`. Unused terms are freed: the table holds weak references and is swept when it
//! has doubled since the last sweep.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, OnceLock, Weak};

/// SMT sorts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Bool,
    Int,
    Real,
    BitVec(u32),
    Array(Box<Sort>, Box<Sort>),
    /// An uninterpreted sort (constructor) applied to arguments; declared with `declare-sort name arity`.
    Uninterpreted(String, Vec<Sort>),
    /// A solver built-in sort written verbatim, e.g. `(_ FloatingPoint 8 24)`; never declared.
    Builtin(String),
}

impl Sort {
    pub fn array(index: Sort, elem: Sort) -> Sort {
        Sort::Array(Box::new(index), Box::new(elem))
    }
    pub fn is_numeric(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }
    /// Calls `f` for every uninterpreted sort constructor (name, arity) occurring in this sort.
    pub fn for_each_uninterpreted(&self, f: &mut dyn FnMut(&str, usize)) {
        match self {
            Sort::Array(a, b) => {
                a.for_each_uninterpreted(f);
                b.for_each_uninterpreted(f);
            }
            Sort::Uninterpreted(n, args) => {
                f(n, args.len());
                for a in args {
                    a.for_each_uninterpreted(f);
                }
            }
            _ => {}
        }
    }
}

/// A variable (an SMT constant when free, a bound variable under a quantifier). `name` is raw, unquoted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    pub name: String,
    pub sort: Sort,
}

impl Var {
    pub fn new(name: impl Into<String>, sort: Sort) -> Var {
        Var {
            name: name.into(),
            sort,
        }
    }
}

/// An uninterpreted function symbol.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncDecl {
    pub name: String,
    pub args: Vec<Sort>,
    pub result: Sort,
}

impl FuncDecl {
    pub fn new(name: impl Into<String>, args: Vec<Sort>, result: Sort) -> FuncDecl {
        FuncDecl {
            name: name.into(),
            args,
            result,
        }
    }
}

/// Constant values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    /// Value (always `< 2^width`) and width.
    BitVec(BigUint, u32),
}

impl Value {
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Real(_) => Sort::Real,
            Value::BitVec(_, w) => Sort::BitVec(*w),
        }
    }
    /// The value as a rational if it is numeric.
    pub fn as_rational(&self) -> Option<BigRational> {
        match self {
            Value::Int(i) => Some(BigRational::from_integer(i.clone())),
            Value::Real(r) => Some(r.clone()),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantifier {
    Exists,
    Forall,
}

/// Operators. SMT-LIB names in the comments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Not,
    And,
    Or,
    /// `=>`, right-associative when n-ary.
    Implies,
    Ite,
    Eq,
    Distinct,
    Le,
    Lt,
    Ge,
    Gt,
    Add,
    /// `-` with two or more arguments (left-associative).
    Sub,
    /// Unary `-`.
    Neg,
    Mul,
    /// `div` (SMT-LIB Euclidean division).
    IntDiv,
    Mod,
    /// `/`
    RealDiv,
    Abs,
    ToReal,
    ToInt,
    IsInt,
    Select,
    Store,
    /// `(_ extract i j)`
    Extract(u32, u32),
    Concat,
    /// Any other bit-vector function by its SMT-LIB name (`bvadd`, `bvult`, …).
    BvBuiltin(String),
    /// Application of an uninterpreted function.
    Uf(FuncDecl),
    /// `xor`
    Xor,
    /// `((as const (Array I E)) v)`: the constant array of the given array sort.
    ConstArray(Sort),
    /// `(_ zero_extend n)`
    ZeroExtend(u32),
    /// `(_ sign_extend n)`
    SignExtend(u32),
    /// `(_ repeat n)`
    Repeat(u32),
    /// `(_ rotate_left n)`
    RotateLeft(u32),
    /// `(_ rotate_right n)`
    RotateRight(u32),
    /// Another solver built-in by its SMT-LIB name, written verbatim (an indexed one as
    /// `(_ to_fp 8 24)`), with its result sort: floating-point operations, rounding modes and
    /// constants such as `(_ +oo 8 24)`. Opaque to the simplifier.
    Builtin(String, Sort),
}

impl Op {
    /// Whether the result sort is Bool regardless of the arguments.
    pub fn is_predicate(&self) -> bool {
        match self {
            Op::Not
            | Op::And
            | Op::Or
            | Op::Implies
            | Op::Xor
            | Op::Eq
            | Op::Distinct
            | Op::Le
            | Op::Lt
            | Op::Ge
            | Op::Gt
            | Op::IsInt => true,
            Op::BvBuiltin(n) => bv_is_predicate(n),
            Op::Uf(f) => f.result == Sort::Bool,
            Op::Builtin(_, s) => *s == Sort::Bool,
            _ => false,
        }
    }
}

pub(crate) fn bv_is_predicate(name: &str) -> bool {
    matches!(
        name,
        "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge"
    )
}

/// The structure of a term. Children are `Term`s (compared by identity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermKind {
    Const(Value),
    Var(Var),
    App(Op, Vec<Term>),
    Quant(Quantifier, Vec<Var>, Term),
}

impl Hash for TermKind {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // Structural: children contribute their cached structural hash.
        match self {
            TermKind::Const(Value::Int(i)) => match i.to_i64() {
                Some(small) => hash_small_int(h, small),
                None => {
                    0u8.hash(h);
                    i.hash(h)
                }
            },
            TermKind::Const(v) => {
                0u8.hash(h);
                v.hash(h)
            }
            TermKind::Var(v) => {
                1u8.hash(h);
                v.hash(h)
            }
            TermKind::App(op, args) => {
                2u8.hash(h);
                op.hash(h);
                args.len().hash(h);
                for a in args {
                    a.0.shash.hash(h);
                }
            }
            TermKind::Quant(q, vs, b) => {
                3u8.hash(h);
                q.hash(h);
                vs.hash(h);
                b.0.shash.hash(h);
            }
        }
    }
}

/// Structural hash contribution of an integer constant that fits in an `i64` (shared by the generic
/// path and [`Term::int`]'s allocation-free fast path, so both find the same table entry).
#[inline]
fn hash_small_int<H: Hasher>(h: &mut H, i: i64) {
    h.write_u8(4);
    h.write_u64(i as u64);
}

/// An integer literal for [`Term::int`]: machine integers are interned without allocating a `BigInt`
/// when the constant already exists.
pub trait IntLiteral {
    /// The value as an `i64` if it fits, else as a `BigInt`.
    fn into_small(self) -> Result<i64, BigInt>;
}

macro_rules! int_literal_via_i64 {
    ($($t:ty),*) => {$(
        impl IntLiteral for $t {
            #[inline]
            fn into_small(self) -> Result<i64, BigInt> {
                i64::try_from(self).map_err(|_| BigInt::from(self))
            }
        }
    )*};
}
int_literal_via_i64!(
    i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, isize, usize
);

impl IntLiteral for BigInt {
    fn into_small(self) -> Result<i64, BigInt> {
        self.to_i64().ok_or(self)
    }
}

impl IntLiteral for &BigInt {
    fn into_small(self) -> Result<i64, BigInt> {
        self.to_i64().ok_or_else(|| self.clone())
    }
}

/// Symbols a term mentions, cached per term.
#[derive(Debug, Default)]
pub struct Symbols {
    /// Free variables as variable terms, sorted by [`Var`] order, without duplicates.
    var_terms: Vec<Term>,
    /// `var_terms` as a set of `Var`s, materialised on demand.
    var_set: OnceLock<BTreeSet<Var>>,
    /// Uninterpreted functions applied anywhere.
    pub funs: BTreeSet<FuncDecl>,
    /// Uninterpreted sort constructors (name, arity) in any sort occurring in the term (bound variables,
    /// constant arrays; the sorts of free variables and functions are *not* included here, see
    /// [`Symbols::for_each_sort`]).
    pub bound_sorts: BTreeSet<(String, usize)>,
}

fn var_of(t: &Term) -> &Var {
    match t.kind() {
        TermKind::Var(v) => v,
        _ => unreachable!("Symbols::var_terms holds only variables"),
    }
}

impl Symbols {
    /// Free variables.
    pub fn vars(&self) -> &BTreeSet<Var> {
        self.var_set
            .get_or_init(|| self.var_terms.iter().map(|t| var_of(t).clone()).collect())
    }
    /// Free variables as (hash-consed) variable terms, sorted by variable.
    pub fn var_terms(&self) -> &[Term] {
        &self.var_terms
    }
    pub fn has_var(&self, v: &Var) -> bool {
        self.var_terms
            .binary_search_by(|t| var_of(t).cmp(v))
            .is_ok()
    }
    /// Every uninterpreted sort constructor the term needs declared.
    pub fn for_each_sort(&self, f: &mut dyn FnMut(&str, usize)) {
        for v in &self.var_terms {
            var_of(v).sort.for_each_uninterpreted(f);
        }
        for fd in &self.funs {
            for s in &fd.args {
                s.for_each_uninterpreted(f);
            }
            fd.result.for_each_uninterpreted(f);
        }
        for (n, a) in &self.bound_sorts {
            f(n, *a);
        }
    }
    fn is_empty(&self) -> bool {
        self.var_terms.is_empty() && self.funs.is_empty() && self.bound_sorts.is_empty()
    }
}

/// Above this many arguments with free variables, an application's variables are collected and
/// sorted once instead of merged pairwise.
const WIDE_MERGE: usize = 8;

/// Merges sorted, duplicate-free variable-term lists.
fn merge_vars(a: &[Term], b: &[Term]) -> Vec<Term> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            out.push(a[i].clone());
            i += 1;
            j += 1;
            continue;
        }
        match var_of(&a[i]).cmp(var_of(&b[j])) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend(a[i..].iter().cloned());
    out.extend(b[j..].iter().cloned());
    out
}

pub(crate) struct TermData {
    id: u32,
    shash: u64,
    kind: TermKind,
    sort: Sort,
    /// Size of the term as a tree (saturating), i.e. its printed size without sharing.
    tree_size: u64,
    /// Whether a quantifier occurs in the term.
    has_quant: bool,
    symbols: OnceLock<Arc<Symbols>>,
}

/// A hash-consed term handle. `Clone` is an atomic increment.
#[derive(Clone)]
pub struct Term(Arc<TermData>);

impl PartialEq for Term {
    fn eq(&self, o: &Term) -> bool {
        Arc::ptr_eq(&self.0, &o.0)
    }
}
impl Eq for Term {}
impl Hash for Term {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.shash.hash(h)
    }
}
impl PartialOrd for Term {
    fn partial_cmp(&self, o: &Term) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Term {
    fn cmp(&self, o: &Term) -> std::cmp::Ordering {
        self.0.id.cmp(&o.0.id)
    }
}

/// A small, fast, deterministic hasher (the FxHash mixing step). Used for structural hashes (which must
/// not depend on per-process random keys) and for internal tables keyed by small values.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        // final avalanche so that low bits (used by hash tables) depend on all input
        let mut h = self.hash;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }
}

/// `BuildHasher` for [`FxHasher`].
pub type FxBuild = std::hash::BuildHasherDefault<FxHasher>;

enum Bucket {
    One(Weak<TermData>),
    Many(Vec<Weak<TermData>>),
}

impl Bucket {
    fn live(&self) -> usize {
        match self {
            Bucket::One(w) => usize::from(w.strong_count() > 0),
            Bucket::Many(v) => v.iter().filter(|w| w.strong_count() > 0).count(),
        }
    }
}

struct Interner {
    table: HashMap<u64, Bucket, FxBuild>,
    entries: usize,
    sweep_at: usize,
    next_id: u32,
}

static INTERNER: LazyLock<Mutex<Interner>> = LazyLock::new(|| {
    Mutex::new(Interner {
        table: HashMap::default(),
        entries: 0,
        sweep_at: 1 << 10,
        next_id: 0,
    })
});

/// Quantifiers by their alpha key (`alpha_key`): the first quantifier built with each key. The
/// keys are terms of their own (over canonical bound names no real term has); entries whose
/// quantifier is gone are swept when the table has doubled since the last sweep.
static ALPHA: LazyLock<Mutex<HashMap<Term, Weak<TermData>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
static ALPHA_SWEEP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1 << 10);

fn lock_alpha() -> std::sync::MutexGuard<'static, HashMap<Term, Weak<TermData>>> {
    ALPHA.lock().unwrap_or_else(|e| e.into_inner())
}

/// Quantifiers whose body is larger (as a tree) are not looked up by their alpha key.
const ALPHA_MAX_BODY: u64 = 400;

/// Prefix of the canonical bound names of alpha keys: no variable of a real term starts with it.
const CANONICAL: char = '\u{0}';

/// The alpha key of `q vars . body`: the same quantifier with the bound variables renamed to
/// canonical names `CANONICAL level _ j`. The level is one above every canonical name free in
/// `body` (those of the keys of enclosing quantifiers, while their key is built), so a canonical
/// name never captures another; two quantifiers have the same key iff they are alpha-equivalent
/// (nested quantifiers are represented by their own first alpha-equivalent form).
fn alpha_key(q: Quantifier, vars: &[Var], body: &Term) -> Term {
    let level = body
        .symbols()
        .var_terms()
        .iter()
        .filter_map(|t| match t.kind() {
            TermKind::Var(v) => v.name.strip_prefix(CANONICAL),
            _ => None,
        })
        .filter_map(|rest| rest.split('_').next()?.parse::<u32>().ok())
        .map(|l| l + 1)
        .max()
        .unwrap_or(0);
    let canon: Vec<Var> = vars
        .iter()
        .enumerate()
        .map(|(j, v)| Var::new(format!("{CANONICAL}{level}_{j}"), v.sort.clone()))
        .collect();
    let map: HashMap<Var, Term> = vars
        .iter()
        .zip(&canon)
        .map(|(v, c)| (v.clone(), Term::var(c)))
        .collect();
    let body = body.substitute(&map);
    intern(TermKind::Quant(q, canon, body), Sort::Bool)
}

fn structural_hash(kind: &TermKind) -> u64 {
    let mut h = FxHasher::default();
    kind.hash(&mut h);
    h.finish()
}

thread_local! {
    /// Set while this thread holds the interner lock: a term dropped then must not take the lock again.
    static IN_INTERNER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The interner lock, flagged in `IN_INTERNER` while held.
struct InternerGuard(std::sync::MutexGuard<'static, Interner>);

impl InternerGuard {
    fn lock() -> InternerGuard {
        let g = INTERNER.lock().unwrap_or_else(|e| e.into_inner());
        IN_INTERNER.with(|f| f.set(true));
        InternerGuard(g)
    }
}

impl Drop for InternerGuard {
    fn drop(&mut self) {
        IN_INTERNER.with(|f| f.set(false));
    }
}

impl std::ops::Deref for InternerGuard {
    type Target = Interner;
    fn deref(&self) -> &Interner {
        &self.0
    }
}

impl std::ops::DerefMut for InternerGuard {
    fn deref_mut(&mut self) -> &mut Interner {
        &mut self.0
    }
}

impl Drop for TermData {
    /// Removes the (now dead) table entry right away, so that the allocation is freed while it is still
    /// cache-hot; entries of terms dropped while the table is locked are left to the sweep.
    fn drop(&mut self) {
        if IN_INTERNER.with(|f| f.get()) {
            return;
        }
        let mut it = InternerGuard::lock();
        let me = self as *const TermData;
        let mut remove = false;
        let mut removed = 0usize;
        if let Some(b) = it.table.get_mut(&self.shash) {
            match b {
                Bucket::One(w) => {
                    remove = std::ptr::eq(w.as_ptr(), me) || w.strong_count() == 0;
                    removed = usize::from(remove);
                }
                Bucket::Many(v) => {
                    let before = v.len();
                    v.retain(|w| !std::ptr::eq(w.as_ptr(), me) && w.strong_count() > 0);
                    removed = before - v.len();
                    remove = v.is_empty();
                }
            }
        }
        if remove {
            it.table.remove(&self.shash);
        }
        it.entries = it.entries.saturating_sub(removed);
    }
}

fn intern(kind: TermKind, sort: Sort) -> Term {
    let shash = structural_hash(&kind);
    let mut guard = InternerGuard::lock();
    if let Some(t) = lookup(&guard, shash, |k| *k == kind) {
        return t;
    }
    insert(&mut guard, shash, kind, sort)
}

/// Looks up a term with structural hash `shash` satisfying `eq`, or inserts the one `make` builds.
fn intern_by(
    shash: u64,
    eq: impl Fn(&TermKind) -> bool,
    make: impl FnOnce() -> (TermKind, Sort),
) -> Term {
    let mut guard = InternerGuard::lock();
    if let Some(t) = lookup(&guard, shash, eq) {
        return t;
    }
    let (kind, sort) = make();
    insert(&mut guard, shash, kind, sort)
}

fn lookup(it: &Interner, shash: u64, eq: impl Fn(&TermKind) -> bool) -> Option<Term> {
    match it.table.get(&shash) {
        Some(Bucket::One(w)) => {
            if let Some(t) = w.upgrade()
                && eq(&t.kind)
            {
                return Some(Term(t));
            }
        }
        Some(Bucket::Many(v)) => {
            for w in v {
                if let Some(t) = w.upgrade()
                    && eq(&t.kind)
                {
                    return Some(Term(t));
                }
            }
        }
        None => {}
    }
    None
}

fn insert(it: &mut Interner, shash: u64, kind: TermKind, sort: Sort) -> Term {
    let tree_size = match &kind {
        TermKind::App(_, args) => args
            .iter()
            .fold(1u64, |acc, a| acc.saturating_add(a.0.tree_size)),
        TermKind::Quant(_, _, b) => b.0.tree_size.saturating_add(1),
        _ => 1,
    };
    let has_quant = match &kind {
        TermKind::App(_, args) => args.iter().any(|a| a.0.has_quant),
        TermKind::Quant(..) => true,
        _ => false,
    };
    if it.entries >= it.sweep_at {
        it.table.retain(|_, b| {
            if let Bucket::Many(v) = b {
                v.retain(|w| w.strong_count() > 0);
            }
            b.live() > 0
        });
        it.entries = it.table.values().map(Bucket::live).sum();
        it.sweep_at = (it.entries * 2).max(1 << 10);
    }
    let id = it.next_id;
    it.next_id = it.next_id.wrapping_add(1);
    let data = Arc::new(TermData {
        id,
        shash,
        kind,
        sort,
        tree_size,
        has_quant,
        symbols: OnceLock::new(),
    });
    let w = Arc::downgrade(&data);
    match it.table.get_mut(&shash) {
        None => {
            it.table.insert(shash, Bucket::One(w));
        }
        Some(b) => match b {
            Bucket::One(old) if old.strong_count() == 0 => *b = Bucket::One(w),
            Bucket::One(old) => {
                let old = old.clone();
                *b = Bucket::Many(vec![old, w]);
            }
            Bucket::Many(v) => {
                v.retain(|x| x.strong_count() > 0);
                v.push(w);
            }
        },
    }
    it.entries += 1;
    Term(data)
}

/// Computes the sort of an application (best effort for ill-sorted input; never panics).
fn app_sort(op: &Op, args: &[Term]) -> Sort {
    let arg_sort = |i: usize| args.get(i).map(|a| a.sort_ref().clone());
    let numeric = || {
        if args.iter().any(|a| *a.sort_ref() == Sort::Real) {
            Sort::Real
        } else {
            Sort::Int
        }
    };
    let bvw = |i: usize| match args.get(i).map(|a| a.sort_ref()) {
        Some(Sort::BitVec(w)) => *w,
        _ => 0,
    };
    if op.is_predicate() {
        return Sort::Bool;
    }
    match op {
        Op::Ite => arg_sort(1).unwrap_or(Sort::Bool),
        Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::Abs => numeric(),
        Op::IntDiv | Op::Mod | Op::ToInt => Sort::Int,
        Op::RealDiv | Op::ToReal => Sort::Real,
        Op::Select => match args.first().map(|a| a.sort_ref()) {
            Some(Sort::Array(_, e)) => (**e).clone(),
            _ => Sort::Bool,
        },
        Op::Store => arg_sort(0).unwrap_or(Sort::Bool),
        Op::Extract(i, j) => Sort::BitVec(i.saturating_sub(*j) + 1),
        Op::Concat => Sort::BitVec((0..args.len()).map(bvw).sum()),
        Op::BvBuiltin(n) if n == "bvcomp" => Sort::BitVec(1),
        Op::BvBuiltin(_) | Op::RotateLeft(_) | Op::RotateRight(_) => {
            arg_sort(0).unwrap_or(Sort::Bool)
        }
        Op::ZeroExtend(n) | Op::SignExtend(n) => Sort::BitVec(bvw(0) + n),
        Op::Repeat(n) => Sort::BitVec(bvw(0) * n),
        Op::Uf(f) => f.result.clone(),
        Op::ConstArray(s) | Op::Builtin(_, s) => s.clone(),
        _ => Sort::Bool,
    }
}

impl Term {
    // ---------------------------------------------------------------- accessors
    pub fn id(&self) -> u32 {
        self.0.id
    }
    pub fn sort(&self) -> Sort {
        self.0.sort.clone()
    }
    pub fn sort_ref(&self) -> &Sort {
        &self.0.sort
    }
    pub fn kind(&self) -> &TermKind {
        &self.0.kind
    }
    /// Number of nodes of the term as a tree (shared subterms counted each time; saturating).
    pub fn tree_size(&self) -> u64 {
        self.0.tree_size
    }
    /// Structural hash: equal for equal terms in every run (independent of ids).
    pub fn structural_hash(&self) -> u64 {
        self.0.shash
    }
    /// The operator and arguments if this is an application.
    pub fn as_app(&self) -> Option<(&Op, &[Term])> {
        match &self.0.kind {
            TermKind::App(op, args) => Some((op, args)),
            _ => None,
        }
    }
    pub fn as_var(&self) -> Option<&Var> {
        match &self.0.kind {
            TermKind::Var(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_const(&self) -> Option<&Value> {
        match &self.0.kind {
            TermKind::Const(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match &self.0.kind {
            TermKind::Const(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }
    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }
    pub fn is_false(&self) -> bool {
        self.as_bool() == Some(false)
    }
    pub fn is_app_of(&self, op: &Op) -> bool {
        matches!(&self.0.kind, TermKind::App(o, _) if o == op)
    }
    /// Arguments of an application, empty otherwise.
    pub fn args(&self) -> &[Term] {
        match &self.0.kind {
            TermKind::App(_, args) => args,
            _ => &[],
        }
    }

    // ---------------------------------------------------------------- leaves
    pub fn tt() -> Term {
        static T: LazyLock<Term> =
            LazyLock::new(|| intern(TermKind::Const(Value::Bool(true)), Sort::Bool));
        T.clone()
    }
    pub fn ff() -> Term {
        static F: LazyLock<Term> =
            LazyLock::new(|| intern(TermKind::Const(Value::Bool(false)), Sort::Bool));
        F.clone()
    }
    pub fn bool(b: bool) -> Term {
        if b { Term::tt() } else { Term::ff() }
    }
    pub fn int(i: impl IntLiteral) -> Term {
        match i.into_small() {
            Ok(small) => {
                let mut h = FxHasher::default();
                hash_small_int(&mut h, small);
                intern_by(
                    h.finish(),
                    |k| matches!(k, TermKind::Const(Value::Int(b)) if b.to_i64() == Some(small)),
                    || (TermKind::Const(Value::Int(BigInt::from(small))), Sort::Int),
                )
            }
            Err(big) => intern(TermKind::Const(Value::Int(big)), Sort::Int),
        }
    }
    pub fn real(r: BigRational) -> Term {
        intern(TermKind::Const(Value::Real(r)), Sort::Real)
    }
    /// Bit-vector literal; the value is reduced modulo `2^w`.
    pub fn bv(v: BigUint, w: u32) -> Term {
        let m = BigUint::one() << w;
        intern(TermKind::Const(Value::BitVec(v % m, w)), Sort::BitVec(w))
    }
    pub fn constant(v: Value) -> Term {
        match v {
            Value::Bool(b) => Term::bool(b),
            Value::BitVec(x, w) => Term::bv(x, w),
            v => {
                let s = v.sort();
                intern(TermKind::Const(v), s)
            }
        }
    }
    pub fn var(v: &Var) -> Term {
        // Same hash as `TermKind::Var(v).hash()`, without cloning `v` on a hit.
        let mut h = FxHasher::default();
        1u8.hash(&mut h);
        v.hash(&mut h);
        let shash = h.finish();
        intern_by(
            shash,
            |k| matches!(k, TermKind::Var(w) if w == v),
            || (TermKind::Var(v.clone()), v.sort.clone()),
        )
    }

    // ---------------------------------------------------------------- generic
    /// Generic constructor: the sort is computed, and the same trivial normalisation as the named
    /// constructors is applied (so `app(Op::And, …)` equals `and(…)`).
    pub fn app(op: Op, args: Vec<Term>) -> Term {
        match op {
            Op::Not if args.len() == 1 => Term::not(&args[0]),
            Op::And => Term::and(args),
            Op::Or => Term::or(args),
            Op::Add => Term::add(args),
            Op::Mul => Term::mul(args),
            Op::Neg if args.len() == 1 => Term::neg(&args[0]),
            Op::RealDiv if args.len() == 2 => Term::real_div(&args[0], &args[1]),
            Op::IntDiv if args.len() == 2 => Term::int_div(&args[0], &args[1]),
            Op::Mod if args.len() == 2 => Term::modulo(&args[0], &args[1]),
            op => Term::mk_raw(op, args),
        }
    }
    /// Builds an application with no normalisation at all.
    pub fn mk_raw(op: Op, args: Vec<Term>) -> Term {
        let sort = app_sort(&op, &args);
        intern(TermKind::App(op, args), sort)
    }

    // ---------------------------------------------------------------- Boolean
    /// `not`: folds constants and removes double negation.
    pub fn not(a: &Term) -> Term {
        if let Some(b) = a.as_bool() {
            return Term::bool(!b);
        }
        if let TermKind::App(Op::Not, args) = a.kind()
            && args.len() == 1
        {
            return args[0].clone();
        }
        Term::mk_raw(Op::Not, vec![a.clone()])
    }
    /// `and`: flattens nested `and`, drops `true` and duplicates, `false` absorbs; `and([]) = true`,
    /// `and([a]) = a`.
    pub fn and(args: Vec<Term>) -> Term {
        Term::junction(Op::And, args)
    }
    /// `or`: dual of [`Term::and`].
    pub fn or(args: Vec<Term>) -> Term {
        Term::junction(Op::Or, args)
    }
    fn junction(op: Op, args: Vec<Term>) -> Term {
        let unit = op == Op::And; // neutral element
        let mut out: Vec<Term> = Vec::with_capacity(args.len());
        let mut seen: Option<std::collections::HashSet<u32, FxBuild>> = None;
        fn push(
            out: &mut Vec<Term>,
            seen: &mut Option<std::collections::HashSet<u32, FxBuild>>,
            t: &Term,
        ) {
            // linear scan for the usual few arguments, a set beyond that
            if out.len() < 16 && seen.is_none() {
                if !out.contains(t) {
                    out.push(t.clone());
                }
                return;
            }
            let set = seen.get_or_insert_with(|| out.iter().map(Term::id).collect());
            if set.insert(t.id()) {
                out.push(t.clone());
            }
        }
        for a in &args {
            match a.as_bool() {
                Some(b) if b == unit => continue,
                Some(_) => return Term::bool(!unit),
                None => {}
            }
            if a.is_app_of(&op) {
                for c in a.args() {
                    push(&mut out, &mut seen, c);
                }
            } else {
                push(&mut out, &mut seen, a);
            }
        }
        match out.len() {
            0 => Term::bool(unit),
            1 => out.pop().unwrap_or_else(|| Term::bool(unit)),
            _ => Term::mk_raw(op, out),
        }
    }
    pub fn implies(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Implies, vec![a.clone(), b.clone()])
    }
    pub fn xor(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Xor, vec![a.clone(), b.clone()])
    }
    pub fn ite(c: &Term, a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Ite, vec![c.clone(), a.clone(), b.clone()])
    }
    pub fn eq(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Eq, vec![a.clone(), b.clone()])
    }
    pub fn distinct(args: Vec<Term>) -> Term {
        if args.len() < 2 {
            return Term::tt();
        }
        Term::mk_raw(Op::Distinct, args)
    }

    // ---------------------------------------------------------------- arithmetic
    pub fn le(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Le, vec![a.clone(), b.clone()])
    }
    pub fn lt(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Lt, vec![a.clone(), b.clone()])
    }
    pub fn ge(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Ge, vec![a.clone(), b.clone()])
    }
    pub fn gt(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Gt, vec![a.clone(), b.clone()])
    }
    /// `+`: flattens nested sums (unless that would copy a large shared sum); `add([]) = 0` (Int),
    /// `add([a]) = a`.
    pub fn add(args: Vec<Term>) -> Term {
        let mut out = flatten(&Op::Add, args);
        match out.len() {
            0 => Term::int(0),
            1 => out.pop().unwrap_or_else(|| Term::int(0)),
            _ => Term::mk_raw(Op::Add, out),
        }
    }
    pub fn sub(a: &Term, b: &Term) -> Term {
        Term::mk_raw(Op::Sub, vec![a.clone(), b.clone()])
    }
    /// Unary minus; on a numeric constant it yields the negated constant (so `(- 5)` is a literal).
    pub fn neg(a: &Term) -> Term {
        match a.as_const() {
            Some(Value::Int(i)) => Term::int(-i),
            Some(Value::Real(r)) => Term::real(-r),
            _ => Term::mk_raw(Op::Neg, vec![a.clone()]),
        }
    }
    /// `*`: flattens nested products (like [`Term::add`]); `mul([]) = 1` (Int), `mul([a]) = a`.
    pub fn mul(args: Vec<Term>) -> Term {
        let mut out = flatten(&Op::Mul, args);
        match out.len() {
            0 => Term::int(1),
            1 => out.pop().unwrap_or_else(|| Term::int(1)),
            _ => Term::mk_raw(Op::Mul, out),
        }
    }
    /// SMT-LIB `div` (Euclidean: the remainder is in `[0, |b|)`). A negative constant divisor is
    /// made positive, `div a (-c) = -(div a c)`, an exact rewrite: z3's `qe2` spins on negative
    /// divisors (measured: `∃y. x ≤ div y (-2)` runs into any limit, `div y 2` answers at once).
    pub fn int_div(a: &Term, b: &Term) -> Term {
        match b.as_const() {
            Some(Value::Int(c)) if c.is_negative() => Term::neg(&Term::int_div(a, &Term::int(-c))),
            _ => Term::mk_raw(Op::IntDiv, vec![a.clone(), b.clone()]),
        }
    }
    /// SMT-LIB `mod` (in `[0, |b|)`). A negative constant divisor is made positive,
    /// `mod a (-c) = mod a c`, an exact rewrite: z3's `qe` answers `false` for
    /// `∃y. x ≤ mod y (-2)` (z3 5.4.0, measured), `qe2` fails.
    pub fn modulo(a: &Term, b: &Term) -> Term {
        match b.as_const() {
            Some(Value::Int(c)) if c.is_negative() => Term::modulo(a, &Term::int(-c)),
            _ => Term::mk_raw(Op::Mod, vec![a.clone(), b.clone()]),
        }
    }
    /// `/`; two numeric constants with a non-zero divisor fold to a Real constant (so `(/ 1 2)` is a
    /// literal).
    pub fn real_div(a: &Term, b: &Term) -> Term {
        if let (Some(x), Some(y)) = (
            a.as_const().and_then(Value::as_rational),
            b.as_const().and_then(Value::as_rational),
        ) && !y.is_zero()
        {
            return Term::real(x / y);
        }
        Term::mk_raw(Op::RealDiv, vec![a.clone(), b.clone()])
    }
    pub fn abs(a: &Term) -> Term {
        Term::mk_raw(Op::Abs, vec![a.clone()])
    }
    pub fn to_real(a: &Term) -> Term {
        Term::mk_raw(Op::ToReal, vec![a.clone()])
    }
    pub fn to_int(a: &Term) -> Term {
        Term::mk_raw(Op::ToInt, vec![a.clone()])
    }

    // ---------------------------------------------------------------- arrays, functions, bit-vectors
    pub fn select(a: &Term, i: &Term) -> Term {
        Term::mk_raw(Op::Select, vec![a.clone(), i.clone()])
    }
    pub fn store(a: &Term, i: &Term, v: &Term) -> Term {
        Term::mk_raw(Op::Store, vec![a.clone(), i.clone(), v.clone()])
    }
    /// The constant array of sort `array_sort` whose every element is `v`.
    pub fn const_array(array_sort: Sort, v: &Term) -> Term {
        Term::mk_raw(Op::ConstArray(array_sort), vec![v.clone()])
    }
    pub fn uf(f: &FuncDecl, args: Vec<Term>) -> Term {
        Term::mk_raw(Op::Uf(f.clone()), args)
    }
    /// A bit-vector operation by SMT-LIB name, e.g. `bv_op("bvadd", vec![a, b])`.
    pub fn bv_op(name: &str, args: Vec<Term>) -> Term {
        Term::mk_raw(Op::BvBuiltin(name.to_string()), args)
    }

    // ---------------------------------------------------------------- quantifiers
    /// `exists`; drops nothing, but an empty variable list yields the body.
    pub fn exists(vars: Vec<Var>, body: Term) -> Term {
        Term::quant(Quantifier::Exists, vars, body)
    }
    pub fn forall(vars: Vec<Var>, body: Term) -> Term {
        Term::quant(Quantifier::Forall, vars, body)
    }
    /// A quantifier; one with a small body that is equal to an existing one up to the names of its
    /// bound variables (alpha-equivalent) is that one, so that conjunctions and caches see them as
    /// one term.
    pub fn quant(q: Quantifier, vars: Vec<Var>, body: Term) -> Term {
        if vars.is_empty() {
            return body;
        }
        // the key costs a substitution over the body: large bodies (a large block's formula in
        // quantifier elimination, built quantifier by quantifier) are interned as they are
        if body.tree_size() > ALPHA_MAX_BODY {
            return intern(TermKind::Quant(q, vars, body), Sort::Bool);
        }
        let key = alpha_key(q, &vars, &body);
        if let Some(t) = lock_alpha().get(&key).and_then(Weak::upgrade) {
            return Term(t);
        }
        let t = intern(TermKind::Quant(q, vars, body), Sort::Bool);
        let mut table = lock_alpha();
        if let Some(t) = table.get(&key).and_then(Weak::upgrade) {
            return Term(t);
        }
        table.insert(key, Arc::downgrade(&t.0));
        if table.len() > ALPHA_SWEEP.load(std::sync::atomic::Ordering::Relaxed) {
            table.retain(|_, w| w.strong_count() > 0);
            ALPHA_SWEEP.store(
                (2 * table.len()).max(1 << 10),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        t
    }

    // ---------------------------------------------------------------- queries
    /// Cached symbol information (free variables, functions, sorts).
    pub fn symbols(&self) -> &Symbols {
        self.symbols_arc_ref()
    }
    fn compute_symbols(&self) -> Arc<Symbols> {
        static EMPTY: LazyLock<Arc<Symbols>> = LazyLock::new(|| Arc::new(Symbols::default()));
        match self.kind() {
            TermKind::Const(_) => EMPTY.clone(),
            TermKind::Var(_) => Arc::new(Symbols {
                var_terms: vec![self.clone()],
                ..Symbols::default()
            }),
            TermKind::App(op, args) => {
                let own_fun = matches!(op, Op::Uf(_));
                let own_sort = matches!(op, Op::ConstArray(_));
                // Share a child's set when it is the only non-empty one (or all are the same).
                let mut first: Option<&Arc<Symbols>> = None;
                let mut shared = true;
                for a in args.iter() {
                    let sa = a.symbols_arc_ref();
                    if sa.is_empty() {
                        continue;
                    }
                    match first {
                        None => first = Some(sa),
                        Some(f) if Arc::ptr_eq(f, sa) => {}
                        Some(_) => shared = false,
                    }
                }
                if !own_fun && !own_sort && shared {
                    return first.cloned().unwrap_or_else(|| EMPTY.clone());
                }
                let mut s = Symbols::default();
                let with_vars = args
                    .iter()
                    .filter(|a| !a.symbols().var_terms.is_empty())
                    .count();
                // Pairwise merging is quadratic in the arguments of a wide application (a Farkas
                // sum over thousands of multipliers): there, one sort of all of them.
                let wide = with_vars > WIDE_MERGE;
                for a in args.iter().filter(|a| !a.symbols().is_empty()) {
                    let cs = a.symbols();
                    if s.var_terms.is_empty() || wide {
                        s.var_terms.extend(cs.var_terms.iter().cloned());
                    } else if !cs.var_terms.is_empty() {
                        s.var_terms = merge_vars(&s.var_terms, &cs.var_terms);
                    }
                    s.funs.extend(cs.funs.iter().cloned());
                    s.bound_sorts.extend(cs.bound_sorts.iter().cloned());
                }
                if wide {
                    s.var_terms.sort_by(|a, b| var_of(a).cmp(var_of(b)));
                    s.var_terms.dedup_by(|a, b| var_of(a) == var_of(b));
                }
                if let Op::Uf(f) = op {
                    s.funs.insert(f.clone());
                }
                if let Op::ConstArray(sort) = op {
                    sort.for_each_uninterpreted(&mut |n, a| {
                        s.bound_sorts.insert((n.to_string(), a));
                    });
                }
                Arc::new(s)
            }
            TermKind::Quant(_, vs, body) => {
                let b = body.symbols();
                let mut s = Symbols {
                    var_terms: b
                        .var_terms
                        .iter()
                        .filter(|t| !vs.contains(var_of(t)))
                        .cloned()
                        .collect(),
                    var_set: OnceLock::new(),
                    funs: b.funs.clone(),
                    bound_sorts: b.bound_sorts.clone(),
                };
                for v in vs {
                    v.sort.for_each_uninterpreted(&mut |n, a| {
                        s.bound_sorts.insert((n.to_string(), a));
                    });
                }
                Arc::new(s)
            }
        }
    }
    fn symbols_arc_ref(&self) -> &Arc<Symbols> {
        if let Some(s) = self.0.symbols.get() {
            return s;
        }
        let computed = self.compute_symbols();
        self.0.symbols.get_or_init(|| computed)
    }
    /// Free variables (cached per term).
    pub fn free_vars(&self) -> BTreeSet<Var> {
        self.symbols().vars().clone()
    }
    /// Free variables by reference (no copy after the first call).
    pub fn free_vars_ref(&self) -> &BTreeSet<Var> {
        self.symbols().vars()
    }
    /// Free variables as variable terms (cheap; sorted by variable).
    pub fn free_var_terms(&self) -> &[Term] {
        self.symbols().var_terms()
    }
    pub fn has_free_var(&self, v: &Var) -> bool {
        self.symbols().has_var(v)
    }
    /// Top-level conjuncts: the arguments of an `and`, `[]` for `true`, `[self]` otherwise.
    pub fn conjuncts(&self) -> Vec<Term> {
        if self.is_true() {
            return vec![];
        }
        if self.is_app_of(&Op::And) {
            return self.args().to_vec();
        }
        vec![self.clone()]
    }
    /// Top-level disjuncts: the arguments of an `or`, `[]` for `false`, `[self]` otherwise.
    pub fn disjuncts(&self) -> Vec<Term> {
        if self.is_false() {
            return vec![];
        }
        if self.is_app_of(&Op::Or) {
            return self.args().to_vec();
        }
        vec![self.clone()]
    }
    /// Whether a quantifier occurs anywhere (cached, O(1)).
    pub fn has_quantifier(&self) -> bool {
        self.0.has_quant
    }
    /// Does `self` contain a `div` or `mod` whose divisor is the constant 0? (Each shared
    /// subterm visited once.)
    pub fn has_division_by_zero(&self) -> bool {
        let mut stack = vec![self.clone()];
        let mut seen = std::collections::HashSet::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            match t.kind() {
                TermKind::App(op, args) => {
                    let zero = matches!(args.get(1).and_then(Term::as_const),
                        Some(Value::Int(z)) if z.is_zero());
                    if matches!(op, Op::IntDiv | Op::Mod) && zero {
                        return true;
                    }
                    stack.extend(args.iter().cloned());
                }
                TermKind::Quant(_, _, b) => stack.push(b.clone()),
                _ => {}
            }
        }
        false
    }
    /// Does `self` contain a quantifier that binds a variable of an array sort?
    pub fn has_array_quantifier(&self) -> bool {
        if !self.has_quantifier() {
            return false;
        }
        match self.kind() {
            TermKind::Quant(_, vs, b) => {
                vs.iter().any(|v| matches!(v.sort, Sort::Array(..))) || b.has_array_quantifier()
            }
            TermKind::App(_, args) => args.iter().any(Term::has_array_quantifier),
            _ => false,
        }
    }
    /// Number of distinct subterms (DAG size).
    pub fn dag_size(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![self.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            match t.kind() {
                TermKind::App(_, args) => stack.extend(args.iter().cloned()),
                TermKind::Quant(_, _, b) => stack.push(b.clone()),
                _ => {}
            }
        }
        seen.len()
    }

    /// Rebuilds this term with new children (same operator / quantifier), through the normalising
    /// constructors.
    pub fn with_args(&self, args: Vec<Term>) -> Term {
        match self.kind() {
            TermKind::App(op, _) => Term::app(op.clone(), args),
            _ => self.clone(),
        }
    }

    // ---------------------------------------------------------------- substitution
    /// Simultaneous, capture-avoiding substitution of free variables.
    pub fn substitute(&self, map: &HashMap<Var, Term>) -> Term {
        if map.is_empty() {
            return self.clone();
        }
        let mut memo = HashMap::new();
        subst_rec(self, map, &mut memo)
    }
    /// Renames free variables: `f(v) = Some(w)` replaces `v` by `w`; capture-avoiding.
    pub fn rename(&self, f: &dyn Fn(&Var) -> Option<Var>) -> Term {
        let mut map = HashMap::new();
        for v in self.free_vars_ref() {
            if let Some(w) = f(v)
                && w != *v
            {
                map.insert(v.clone(), Term::var(&w));
            }
        }
        self.substitute(&map)
    }

    /// Skolemization of the quantifiers in positive positions (`∃` under `∧`, `∨`, the right of
    /// `⇒`, and `∀` under a negation): each binder occurrence gets fresh constants `fresh(v)`, so
    /// that asserting the result is equisatisfiable with asserting `self`, and every model of the
    /// result is one of `self`. Quantifiers elsewhere (under `=`, `ite`, function arguments) stay.
    pub fn skolemize(&self, fresh: &mut dyn FnMut(&Var) -> Var) -> Term {
        let mut memo = HashMap::new();
        skolem_rec(self, true, fresh, &mut memo)
    }
}

fn skolem_rec(
    t: &Term,
    positive: bool,
    fresh: &mut dyn FnMut(&Var) -> Var,
    memo: &mut HashMap<(u32, bool), Term>,
) -> Term {
    if !t.has_quantifier() {
        return t.clone();
    }
    if let Some(r) = memo.get(&(t.id(), positive)) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::Quant(q, vars, body) if (*q == Quantifier::Exists) == positive => {
            let map: HashMap<Var, Term> = vars
                .iter()
                .map(|v| (v.clone(), Term::var(&fresh(v))))
                .collect();
            skolem_rec(&body.substitute(&map), positive, fresh, memo)
        }
        TermKind::App(Op::Not, args) if args.len() == 1 => {
            Term::not(&skolem_rec(&args[0], !positive, fresh, memo))
        }
        TermKind::App(op @ (Op::And | Op::Or), args) => Term::app(
            op.clone(),
            args.iter()
                .map(|a| skolem_rec(a, positive, fresh, memo))
                .collect(),
        ),
        TermKind::App(Op::Implies, args) if args.len() == 2 => Term::implies(
            &skolem_rec(&args[0], !positive, fresh, memo),
            &skolem_rec(&args[1], positive, fresh, memo),
        ),
        _ => t.clone(),
    };
    memo.insert((t.id(), positive), r.clone());
    r
}

/// Flattens nested applications of the associative `op`, but never past [`FLATTEN_LIMIT`] arguments and
/// never when the same child occurs twice (flattening `(+ t t)` repeatedly would destroy sharing and grow
/// exponentially).
fn flatten(op: &Op, args: Vec<Term>) -> Vec<Term> {
    if !args.iter().any(|a| a.is_app_of(op)) {
        return args;
    }
    let dup = args.iter().enumerate().any(|(i, a)| args[..i].contains(a));
    let total: usize = args
        .iter()
        .map(|a| if a.is_app_of(op) { a.args().len() } else { 1 })
        .sum();
    if dup || total > FLATTEN_LIMIT {
        return args;
    }
    let mut out = Vec::with_capacity(total);
    for a in args {
        if a.is_app_of(op) {
            out.extend(a.args().iter().cloned());
        } else {
            out.push(a);
        }
    }
    out
}

/// Maximal argument count produced by flattening sums and products.
const FLATTEN_LIMIT: usize = 64;

fn subst_rec(t: &Term, map: &HashMap<Var, Term>, memo: &mut HashMap<u32, Term>) -> Term {
    if t.symbols().var_terms().is_empty() {
        return t.clone();
    }
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match t.kind() {
        TermKind::Const(_) => t.clone(),
        TermKind::Var(v) => map.get(v).cloned().unwrap_or_else(|| t.clone()),
        TermKind::App(_, args) => {
            let new: Vec<Term> = args.iter().map(|a| subst_rec(a, map, memo)).collect();
            if new.iter().zip(args).all(|(a, b)| a == b) {
                t.clone()
            } else {
                t.with_args(new)
            }
        }
        TermKind::Quant(q, vs, body) => {
            // Restrict the map to free variables of the body that are not bound here.
            let fv = body.free_vars_ref();
            let inner: HashMap<Var, Term> = map
                .iter()
                .filter(|(k, _)| fv.contains(*k) && !vs.contains(*k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if inner.is_empty() {
                t.clone()
            } else {
                // Variables the replacements mention: bound variables among them must be renamed.
                let mut avoid: BTreeSet<Var> = BTreeSet::new();
                for r in inner.values() {
                    avoid.extend(r.free_vars_ref().iter().cloned());
                }
                let mut inner = inner;
                let mut new_vs = Vec::with_capacity(vs.len());
                for v in vs {
                    if avoid.contains(v) {
                        let fresh = fresh_var(v, |c| {
                            avoid.contains(c)
                                || fv.contains(c)
                                || vs.contains(c)
                                || new_vs.contains(c)
                        });
                        inner.insert(v.clone(), Term::var(&fresh));
                        new_vs.push(fresh);
                    } else {
                        new_vs.push(v.clone());
                    }
                }
                let mut m2 = HashMap::new();
                let nb = subst_rec(body, &inner, &mut m2);
                Term::quant(*q, new_vs, nb)
            }
        }
    };
    memo.insert(t.id(), r.clone());
    r
}

/// SMT-LIB's rounding-mode constants (theory FloatingPoint), short and long names.
pub fn is_rounding_mode(name: &str) -> bool {
    matches!(
        name,
        "RNE"
            | "RNA"
            | "RTP"
            | "RTN"
            | "RTZ"
            | "roundNearestTiesToEven"
            | "roundNearestTiesToAway"
            | "roundTowardPositive"
            | "roundTowardNegative"
            | "roundTowardZero"
    )
}

/// A variant of `v` (same sort, name `v.name` + `'` + counter) for which `taken` is false.
pub fn fresh_var(v: &Var, taken: impl Fn(&Var) -> bool) -> Var {
    let mut i = 0u64;
    loop {
        let c = Var::new(format!("{}'{}", v.name, i), v.sort.clone());
        if !taken(&c) {
            return c;
        }
        i += 1;
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Convenience: `BigRational` from numerator and denominator.
pub fn rat(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}
