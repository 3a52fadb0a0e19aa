//! The memory model of the C translation: pointers, objects in memory, allocation and the
//! memory-safety checks.
//!
//! A pointer is a pair of integers `{base, offset}`: the allocation it points into and a byte offset
//! in it; `NULL` is `{0, 0}`. A pointer variable `p` is two Boogie variables `p.base`, `p.offset`
//! (a pointer field or array element is two leaves of its aggregate: `s.f.base`, `a.base[i]`).
//! Memory is one map per data kind, indexed by base, then offset: `#memory_int: [int][int]int`
//! (every integer type: the value stored by the last write at that address), and
//! `#memory_$Pointer$.base`, `#memory_$Pointer$.offset` (pointers), and one per float type
//! (`#memory_C_DOUBLE: [int][int]C_DOUBLE`, see `float_map`). `#valid: [int]bool` says which
//! allocations are live and `#length: [int]int` gives their size in bytes. Heap allocations
//! (`malloc`, `calloc`) have positive bases, stack and global objects (locals or parameters whose
//! address is taken, arrays that decay to pointers, variable-length arrays, `alloca`) negative ones, below the bases of the
//! functions whose address is taken (`-1`, `-2`, …, see `fptr`: never valid, a function is not an
//! object); `#valid[0]` is false.
//! An allocation picks a base that is not live, so live objects never overlap. String literals used
//! as pointers are `char` arrays of static storage (one object per occurrence), compound literals
//! objects of their block (at file scope, of static storage). An object allocated at most once in
//! an execution (of static storage, or in the outermost block of a `main` that nothing calls) has
//! a fixed base instead, `-(F + k)` for the `k`-th of them and `F` functions whose address is
//! taken; every other stack object lies below them (`alloc_fixed`: exact, as the program cannot
//! tell one free base from another).
//!
//! Invariant (what makes the per-kind maps faithful): a memory cell is only read at the type it
//! was written with. The translation guarantees it by accepting conversions between pointer types
//! only when
//! - the pointed-to types are equal;
//! - one is `void` and the other is an object type: either the program converts `void *` only
//!   to and from character pointers (all of one character type), or never to or from them (a
//!   conversion straight from an allocation does not count: nothing else points there), so the
//!   cells a `void *` reaches are always read at the type they were written with
//!   (`void_pointer_worlds`), and the other object types converted to or from `void *` overlay
//!   cell for cell where they share bytes (`same_cells`: a struct and its first member do, `int`
//!   and `long` do not);
//! - a struct pointer becomes a pointer to the object the struct starts with (its first member,
//!   recursively, or that member's first element), not a character pointer (which may read every
//!   byte of the struct);
//! - the pointer has base 0 (points to no object: there is no cell to read);
//! - both are function types (a function has no cells; a function pointer to an integer is an
//!   over-approximation);
//!
//! `pthread_join` writes its `void *` result where its argument points whatever the casts on the
//! argument (every object pointer has the representation of a `void *`): into a pointer (the
//! conversion from `void *` above) or an integer of the size of a pointer (its address, below).
//! Any other conversion between object pointers is accepted only when no pointer to the type
//! converted to is dereferenced or converted again anywhere in the program (such a pointer is
//! only passed around and compared, `foreign_conversions`); every other pointer conversion is
//! unsupported. Values written are always in the range of their type, so a read assumes that
//! range (which also gives indeterminate values their type's range).
//!
//! Integer–pointer conversions (explicit casts; a comparison of a pointer with an integer compares
//! `(uintptr_t)` of both, as gcc): an integer `i` becomes the pointer `{0, (uintptr_t) i}`, to no
//! object; a pointer with base 0 converts back to its offset (converted to the integer type), so
//! integer → pointer → integer is exact and `NULL` is 0. This is exact only where no object can lie
//! at that address: below `LOW_ADDR` (Linux never maps the first page). An execution converting a
//! larger integer is not followed: an assertion that fails after an `{:overapproximation}`
//! function, so a counterexample reaching it answers UNKNOWN and no proof assumes it away (the same
//! for converting a base-0 pointer whose offset left the range of `uintptr_t`). An object pointer
//! `{b, o}` (`b != 0`) converts to its address, the `{:overapproximation}` function
//! `~ptrToInt(b, o)`, of which only what holds of every object address is assumed (in
//! `[LOW_ADDR, UINTPTR_MAX]`, hence non-zero, then truncated to the integer type): a proof through
//! it is sound, a counterexample through it answers UNKNOWN. Converting that address back to a
//! pointer (pointer → integer → pointer) is therefore not followed either. In a program with
//! threads, a conversion that reads a shared pointer (its branches are several statements) is one
//! atomic step, as the single load it is.
//!
//! A union in memory keeps the invariant: a member's cell is read at its type because the address
//! of a member is not translated (every write of a member goes through the union, and `union_sync`
//! writes the other members' cells at their types: an integer overlapping the integer written
//! takes its bytes, little-endian), and a union with two members of different types at one offset
//! in one map is not translated (`check_mem_unions`).
//!
//! A bit-field has no address: in memory it is a cell of its own in `#memory_int` whose key is
//! below every byte offset, `-(8 * o + s) - 1` for its lowest bit at bit `s` of byte `o` of the
//! object (`bit_cell`; distinct bit-fields have distinct lowest bits), holding its value in the
//! range of its width; an access checks the bytes it touches. Copies of whole objects (rows)
//! carry these cells along; a character pointer never reads a struct's bytes (above). Bit-fields
//! in unions are not translated.
//!
//! Under `valid-memsafety` (and `valid-memcleanup`) a ghost global `#heap_live` counts the live heap objects (+1 per heap
//! allocation, -1 per `free`/`realloc` of a non-null pointer, which the free check has shown to be a
//! live heap object's start); `#heap_live == 0` is checked after `main` returns (`valid-memtrack`:
//! exact when no global variable can hold a pointer, since `main`'s locals are gone, so any
//! allocated object is unreachable) and where the program ends otherwise (`exit`, `abort`, a failing
//! `assert`, `reach_error`: `valid-memtrack-unsure`, since the memory may still be reachable there).
//! Under `valid-memcleanup` the count is checked zero where the program ends normally (`main`
//! returns, `exit`: `valid-memcleanup`) and abnormally (`abort`, a failing `assert`, `reach_error`:
//! `valid-memcleanup-unsure`, whose violation answers UNKNOWN).
//!
//! Checks (assertions, assumptions under `reach_only`): a dereference of `n` bytes at `{b, o}`
//! needs `#valid[b] && 0 <= o && o + n <= #length[b]` (accesses to a named variable in memory
//! are valid by scoping and not checked); `free(p)` needs `p` null or `p.offset == 0 && p.base > 0
//! && #valid[p.base]` (no double free, no free of a stack object or an interior pointer). Stack
//! objects are invalidated when their block is left (normally, by `break`/`continue`, by `return`),
//! so a dangling pointer to them fails the check.

use super::*;

pub(super) use super::Place;

pub(super) const VALID: &str = "#valid";
pub(super) const LENGTH: &str = "#length";
pub(super) const MEM_INT: &str = "#memory_int";

/// `#valid[b] := true; #length[b] := size`: the object at base `b` is live with `size` bytes.
fn make_live(b: &b::Expr, size: b::Expr, span: Span, out: &mut Vec<b::Stmt>) {
    out.push(assign(
        lhs(VALID, vec![b.clone()], span),
        boolean(true, span),
        span,
    ));
    out.push(assign(lhs(LENGTH, vec![b.clone()], span), size, span));
}

/// The memory map of a float type (`#memory_C_DOUBLE: [int][int]C_DOUBLE`), a data kind of its own.
pub(super) fn float_map(t: FloatTy) -> String {
    format!("#memory_{}", t.boogie())
}

/// The key in `Translator::in_mem` that says the float type's memory map exists: the first
/// access restarts the translation with it (as for a declaration that must live in memory), so
/// every earlier row write (zeroing, copies) writes that map too.
fn float_map_key(t: FloatTy) -> String {
    format!("#float:{}", t.boogie())
}

/// The const-array function of a float type (`~const~C_DOUBLE(v)`: every cell `v`).
fn float_const_map(t: FloatTy) -> String {
    format!("~const~{}", t.boogie())
}
/// The `{:overapproximation}` marker of a `memset`/`memcpy` of a non-constant size that covers part
/// of an object (`Translator::mem_whole`: not followed).
pub(super) const MEM_PART: &str = "memPart";
/// The `{:overapproximation}` function giving the unspecified value of a union member that
/// another member's write changed (`Translator::union_sync`).
pub(super) const UNSPECIFIED: &str = "~unspecified";
pub(super) const MEM_BASE: &str = "#memory_$Pointer$.base";
pub(super) const MEM_OFF: &str = "#memory_$Pointer$.offset";
/// The race map of memory cells (`super::super::race`).
pub(super) const RACE_MEM: &str = "#race";
/// The number of live heap objects (under `valid-memsafety` only: the memtrack check).
pub(super) const HEAP_LIVE: &str = "#heap_live";
/// The address of the extra arguments of the variadic function called last (set by the caller,
/// read at the callee's entry).
pub(super) const VA_BASE: &str = "#va.base";
pub(super) const VA_OFF: &str = "#va.off";
/// The `{:const_array}` function giving the map that is its argument everywhere.
pub(super) const CONST_MAP: &str = "~const~int";

/// The `{:const_array}` function of the integer maps of `dims` dimensions (`~const~int~2(row)`: the
/// map whose every row is `row`).
fn const_map_name(dims: usize) -> String {
    if dims == 1 {
        CONST_MAP.to_string()
    } else {
        format!("{CONST_MAP}~{dims}")
    }
}

/// Which parts of the memory model the program uses (declared by `finish`).
#[derive(Default, Debug, Clone, Copy)]
pub(super) struct MemUse {
    /// `#valid` and `#length`.
    pub valid: bool,
    pub int: bool,
    pub ptr: bool,
    pub const_map: bool,
    /// The most dimensions of a constant integer map used (`const_map_name`; with `const_map`,
    /// at least one).
    pub const_map_dims: usize,
    /// `calloc` / `realloc` are called: together they are not translated (see `realloc`).
    pub calloc: bool,
    /// The heap is used (`malloc`, `calloc`, `realloc`).
    pub heap: bool,
    /// Where `realloc` is first called.
    pub realloc: Option<Span>,
    /// A variadic function is called: `#va.base`, `#va.off` pass the address of the extra
    /// arguments (`Translator::varargs`).
    pub varargs: bool,
}

/// The over-approximated address of an object pointer (`~ptrToInt(base, offset)`, see the module
/// comment).
pub(super) const PTR_TO_INT: &str = "ptrToInt";

/// `alignof` of an 8-byte scalar on i386, 4 or 8 (see `Translator::align_of`): the
/// `{:overapproximation}` function `~alignof` of a fresh argument.
pub(super) const ALIGNOF: &str = "alignof";
/// Applied where an integer too large to be outside every object becomes a pointer (see the module
/// comment).
pub(super) const INT_TO_PTR: &str = "intToPtr";
/// Applied where a pointer to no object has an offset outside the range of `uintptr_t` (only
/// after arithmetic on it, undefined in C) and is converted to an integer.
pub(super) const WRAPPED_PTR: &str = "wrappedPtrToInt";
/// Below this address no object ever lies (Linux never maps the first page; `mmap_min_addr` is at
/// least 4096): the pointer an integer below it converts to is exactly `{0, i}`.
pub(super) const LOW_ADDR: u64 = 4096;

/// The number of arguments of an integer–pointer conversion function.
pub(super) fn conv_arity(name: &str) -> usize {
    if name == PTR_TO_INT { 2 } else { 1 }
}

/// `uintptr_t` (`unsigned long` in both data models): the integer a pointer's address is.
pub(super) const UINTPTR: IntTy = IntTy::SIZE_T;

/// The expression reads memory or a global variable (which another thread may write between two
/// statements): a C global is a Boogie variable named `~…`, the memory model's maps `#…` (but
/// the bases `#addr~…` of objects, fixed once allocated, and temporaries `#t~…`).
fn reads_shared(e: &b::Expr) -> bool {
    let text = crate::syntax::print::expr(e);
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        let starts = !(prev.is_alphanumeric() || matches!(prev, '_' | '.' | '~' | '#' | '$'));
        if starts && c == '~' {
            return true;
        }
        if starts && c == '#' {
            let rest = &text[i..];
            if !(rest.starts_with("#addr~") || rest.starts_with("#t~") || rest.starts_with("#in~"))
            {
                return true;
            }
        }
        prev = c;
    }
    false
}

/// Appends `stmts`, as one atomic step if `atomic`.
fn atomic_if(atomic: bool, stmts: Vec<b::Stmt>, span: Span, out: &mut Vec<b::Stmt>) {
    if atomic {
        out.push(b::Stmt {
            kind: b::StmtKind::Atomic(stmts),
            span,
        });
    } else {
        out.extend(stmts);
    }
}

/// `a / m` rounded down (`m > 0`).
fn floor_div(a: &BigInt, m: &BigInt) -> BigInt {
    let q = a / m;
    if a.is_negative() && &(&q * m) != a {
        q - 1
    } else {
        q
    }
}

/// The integer comparison of a C comparison operator.
fn cmp_op(op: &c::BinaryOperator) -> BinOp {
    use c::BinaryOperator as O;
    match op {
        O::Equals => BinOp::Eq,
        O::NotEquals => BinOp::Neq,
        O::Less => BinOp::Lt,
        O::Greater => BinOp::Gt,
        O::LessOrEqual => BinOp::Le,
        _ => BinOp::Ge,
    }
}

/// `base == 0 && offset == 0`.
pub(super) fn is_null_ptr(b: &b::Expr, o: &b::Expr, span: Span) -> b::Expr {
    bin(
        BinOp::And,
        bin(BinOp::Eq, b.clone(), int(0, span), span),
        bin(BinOp::Eq, o.clone(), int(0, span), span),
        span,
    )
}

pub(super) fn sel(m: &str, i: b::Expr, span: Span) -> b::Expr {
    ex(b::ExprKind::Select(Box::new(var(m, span)), vec![i]), span)
}

pub(super) fn sel2(m: &str, i: b::Expr, j: b::Expr, span: Span) -> b::Expr {
    ex(
        b::ExprKind::Select(Box::new(sel(m, i, span)), vec![j]),
        span,
    )
}

/// What `free(p)` (and `realloc(p, n)`) needs of `p = {b, o}`: null, or the start of a live heap
/// object.
fn freeable(b: &b::Expr, o: &b::Expr, span: Span) -> b::Expr {
    bin(
        BinOp::Or,
        is_null_ptr(b, o, span),
        and(
            bin(BinOp::Eq, o.clone(), int(0, span), span),
            and(
                bin(BinOp::Gt, b.clone(), int(0, span), span),
                sel(VALID, b.clone(), span),
                span,
            ),
            span,
        ),
        span,
    )
}

fn and(a: b::Expr, c: b::Expr, span: Span) -> b::Expr {
    match (as_bool_lit(&a), as_bool_lit(&c)) {
        (Some(true), _) => c,
        (_, Some(true)) => a,
        _ => bin(BinOp::And, a, c, span),
    }
}

/// A character type (`char`, `signed char`, `unsigned char`): may alias any object in C.
fn is_char(t: &CType) -> bool {
    matches!(t, CType::Int(i) if i.kind == IntKind::Char)
}

fn align_up(x: u64, a: u64) -> u64 {
    if a <= 1 { x } else { x.div_ceil(a) * a }
}

/// A value to store: an integer or a pointer.
#[derive(Clone, Debug)]
pub(super) enum SVal {
    Int(b::Expr),
    /// A value of a floating type.
    Float(b::Expr),
    Ptr(b::Expr, b::Expr),
}

impl Place {
    pub(super) fn ty(&self) -> &CType {
        match self {
            Place::Var(lv) => &lv.ty,
            Place::Mem { ty, .. } => ty,
        }
    }

    pub(super) fn unions(&self) -> &[InUnion] {
        match self {
            Place::Var(lv) => &lv.unions,
            Place::Mem { unions, .. } => unions,
        }
    }

    pub(super) fn unions_mut(&mut self) -> &mut Vec<InUnion> {
        match self {
            Place::Var(lv) => &mut lv.unions,
            Place::Mem { unions, .. } => unions,
        }
    }

    /// The place moved `by` bytes further into the object (`None`: not a constant): the offsets in
    /// its unions follow.
    pub(super) fn shift_unions(&mut self, by: Option<u64>) {
        for u in self.unions_mut() {
            u.off = match (u.off, by) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            };
        }
    }
}

impl<'a> Translator<'a> {
    pub(super) fn ptr_size(&self) -> u64 {
        match self.arch {
            Arch::Ilp32 => 4,
            Arch::Lp64 => 8,
        }
    }

    /// `sizeof` and the alignment of a type as a struct member (i386: 8-byte scalars at 4).
    pub(super) fn size_align(&self, t: &CType, span: Span) -> R<(u64, u64)> {
        match t {
            CType::Int(i) => {
                let s = i.size(self.arch);
                Ok((
                    s,
                    if self.arch == Arch::Ilp32 {
                        s.min(4)
                    } else {
                        s
                    },
                ))
            }
            CType::Float(f) => Ok(f.size_align(self.arch == Arch::Ilp32)),
            CType::Ptr(_) => Ok((self.ptr_size(), self.ptr_size())),
            CType::Array(_, UNKNOWN_LEN) => unsupported("sizeof of an array of unknown size", span),
            CType::Array(e, n) => {
                let (s, a) = self.size_align(e, span)?;
                Ok((s * n, a))
            }
            CType::Struct(tag) if self.bit_structs.contains_key(tag) => {
                self.struct_fields(tag, span)?;
                let layout = self.bit_layout(&self.bit_structs[tag], span)?;
                Ok((layout.size, layout.align))
            }
            CType::Struct(tag) => {
                let (mut off, mut al) = (0u64, 1u64);
                for (_, fty) in self.struct_fields(tag, span)? {
                    let (s, a) = self.size_align(&fty, span)?;
                    // a union's members all start at offset 0
                    off = if is_union(tag) {
                        off.max(s)
                    } else {
                        align_up(off, a) + s
                    };
                    al = al.max(a);
                }
                Ok((align_up(off, al), al))
            }
            other => unsupported(format!("sizeof of {}", other.describe()), span),
        }
    }

    /// The layout of a struct with bit-fields as gcc lays it out on x86 (System V psABI,
    /// `PCC_BITFIELD_TYPE_MATTERS`): a bit-field follows the previous member's bits unless it
    /// would leave the `sizeof` bytes that start at a multiple of its declared type's alignment,
    /// where it starts at the next multiple instead (an unnamed one of width 0 moves there too);
    /// named bit-fields align the struct as their declared type, unnamed ones do not.
    pub(super) fn bit_layout(&self, members: &[Member], span: Span) -> R<BitLayout> {
        let (mut bit, mut align) = (0u64, 1u64);
        let (mut offsets, mut shifts) = (Vec::new(), Vec::new());
        // the declared type's alignment as a member: i386 aligns 8-byte integers at 4
        let type_align = |unit: u64| match (unit, self.arch) {
            (8, Arch::Ilp32) => 4,
            (u, _) => u,
        };
        // the bit-field's first byte and its lowest bit's position in it, once placed
        let place = |bit: &mut u64, w: u64, unit: u64| {
            let a = 8 * type_align(unit);
            if w == 0 || *bit % a + w > 8 * unit {
                *bit = align_up(*bit, a);
            }
            let at = (*bit / 8, *bit % 8);
            *bit += w;
            at
        };
        for m in members {
            match m {
                Member::Field(CType::Int(IntTy {
                    kind: IntKind::BitField { width, unit, .. },
                    ..
                })) => {
                    let (byte, shift) = place(&mut bit, u64::from(*width), u64::from(*unit));
                    offsets.push(byte);
                    shifts.push(u8::try_from(shift).unwrap_or(u8::MAX));
                    align = align.max(type_align(u64::from(*unit)));
                }
                Member::Field(ty) => {
                    let (s, a) = self.size_align(ty, span)?;
                    let off = align_up(bit.div_ceil(8), a);
                    offsets.push(off);
                    shifts.push(0);
                    bit = (off + s) * 8;
                    align = align.max(a);
                }
                Member::Unnamed(t, w) => {
                    place(&mut bit, u64::from(*w), t.size(self.arch));
                }
            }
        }
        Ok(BitLayout {
            offsets,
            shifts,
            size: align_up(bit.div_ceil(8), align),
            align,
        })
    }

    /// The cell of a bit-field in memory whose first byte is at offset `off`: the number of bytes
    /// it touches (what an access checks) and the key of its cell, `-(8 * off + shift) - 1` for
    /// its lowest bit at `shift` in that byte (see the module comment).
    fn bit_cell(&self, t: IntTy, off: &b::Expr, span: Span) -> R<(u64, b::Expr)> {
        let IntKind::BitField {
            width,
            shift: Some(shift),
            ..
        } = t.kind
        else {
            return unsupported("bit-field of a struct without a layout, in memory", span);
        };
        if self.data_race {
            // adjacent bit-fields are one memory location (C11 3.14): not instrumented so
            return unsupported(
                "bit-field in memory in a program checked for data races",
                span,
            );
        }
        let bit = arith(
            BinOp::Add,
            arith(BinOp::Mul, int(8, span), off.clone(), span),
            int(i64::from(shift) + 1, span),
            span,
        );
        Ok((
            (u64::from(shift) + u64::from(width)).div_ceil(8),
            arith(BinOp::Sub, int(0, span), bit, span),
        ))
    }

    /// The byte offset and type of a struct member (of a bit-field: of its first byte, see
    /// `bit_cell`).
    pub(super) fn field_offset(&self, tag: &str, f: &str, span: Span) -> R<(u64, CType)> {
        if let Some(members) = self.bit_structs.get(tag) {
            let offsets = self.bit_layout(members, span)?.offsets;
            let fields = self.struct_fields(tag, span)?;
            return match fields.iter().zip(offsets).find(|((n, _), _)| n == f) {
                Some(((_, ty), off)) => Ok((off, ty.clone())),
                None => unsupported(format!("unknown struct member `{f}`"), span),
            };
        }
        let mut off = 0u64;
        for (name, fty) in self.struct_fields(tag, span)? {
            let (s, a) = self.size_align(&fty, span)?;
            off = if is_union(tag) { 0 } else { align_up(off, a) };
            if name == f {
                if let CType::Other(w) = &fty {
                    return unsupported(format!("struct member of type {w}"), span);
                }
                return Ok((off, fty));
            }
            off += s;
        }
        unsupported(format!("unknown struct member `{f}`"), span)
    }

    /// The size of the object a pointer points to, for pointer arithmetic (`void *`: 1, as gcc).
    pub(super) fn elem_size(&self, pointee: &CType, span: Span) -> R<u64> {
        match pointee {
            CType::Void => Ok(1),
            t => self.size_align(t, span).map(|(s, _)| s),
        }
    }

    /// Asserts that `size` bytes at `{b, o}` may be accessed.
    pub(super) fn mem_check(
        &mut self,
        b: &b::Expr,
        o: &b::Expr,
        size: u64,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) {
        self.mem.valid = true;
        let c = and(
            sel(VALID, b.clone(), span),
            and(
                bin(BinOp::Le, int(0, span), o.clone(), span),
                bin(
                    BinOp::Le,
                    arith(BinOp::Add, o.clone(), lit(&BigInt::from(size), span), span),
                    sel(LENGTH, b.clone(), span),
                    span,
                ),
                span,
            ),
            span,
        );
        out.extend(self.check(Check::Deref, c, span));
    }

    /// A new object of `size` bytes: its base in `base` (positive on the heap, negative on the
    /// stack), not live before, live after.
    pub(super) fn alloc(
        &mut self,
        base: &str,
        size: b::Expr,
        heap: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) {
        self.mem.valid = true;
        let bv = var(base, span);
        out.push(havoc(base, span));
        // functions whose address is taken have the bases -1, -2, … (`fn_base`), the objects
        // with a fixed base the next ones (`alloc_fixed`)
        let functions = self.address_taken().count() as i64;
        let fixed = self.fixed_bases as i64;
        out.push(assume(
            if heap {
                bin(BinOp::Gt, bv.clone(), int(0, span), span)
            } else {
                bin(BinOp::Lt, bv.clone(), int(-functions - fixed, span), span)
            },
            span,
        ));
        out.push(assume(not(sel(VALID, bv.clone(), span), span), span));
        make_live(&bv, size, span, out);
        if heap {
            self.mem.heap = true;
            if self.counts_heap() {
                out.push(assign_var(
                    HEAP_LIVE,
                    arith(BinOp::Add, var(HEAP_LIVE, span), int(1, span), span),
                    span,
                ));
            }
        }
    }

    /// A new object of `size` bytes on the stack (or of static storage) that is allocated at most
    /// once in an execution: its base in `base` is the next fixed one, `-(F + k)` for the `k`-th
    /// such object and `F` functions whose address is taken. Live from here on.
    ///
    /// Exact: every other stack object lies below all fixed bases (`alloc`), heap objects are
    /// positive, functions above; so no other object ever has a fixed base, and the base is one of
    /// those `alloc` could pick. Which free base an allocation picks is not observable: a
    /// program compares bases only for equality (an order between pointers into different
    /// objects is any answer, a pointer's address an `{:overapproximation}` of its base and
    /// offset, see `ptr_arith`, `ptr_to_int`), so the executions with any other choice are
    /// these with the bases renamed. A fixed base keeps every state concrete, which lets the
    /// executor run a program with objects in memory, and makes two objects' distinctness a
    /// fact of the constants rather than of `#valid`.
    pub(super) fn alloc_fixed(
        &mut self,
        base: &str,
        size: b::Expr,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) {
        self.mem.valid = true;
        self.fixed_made += 1;
        let functions = self.address_taken().count() as i64;
        let b = -functions - self.fixed_made as i64;
        out.push(assign_var(base, int(b, span), span));
        make_live(&var(base, span), size, span, out);
    }

    /// Under `valid-memsafety`, counts the heap object `{b, o}` (null or a live heap object's start,
    /// as checked before) as freed.
    fn count_free(&self, b: &b::Expr, span: Span, out: &mut Vec<b::Stmt>) {
        if self.counts_heap() {
            let freed = ite(
                bin(BinOp::Eq, b.clone(), int(0, span), span),
                int(0, span),
                int(1, span),
                span,
            );
            out.push(assign_var(
                HEAP_LIVE,
                arith(BinOp::Sub, var(HEAP_LIVE, span), freed, span),
                span,
            ));
        }
    }

    /// `#valid[b] := false` for the stack objects of the blocks from `depth` on.
    pub(super) fn free_scopes(&mut self, depth: usize, span: Span) -> Vec<b::Stmt> {
        let mut out = Vec::new();
        for scope in self.f.mem_scopes.iter().skip(depth).rev() {
            for b in scope.iter().rev() {
                out.push(assign(
                    lhs(VALID, vec![var(b, span)], span),
                    boolean(false, span),
                    span,
                ));
            }
        }
        out
    }

    /// The integer map of `dims` dimensions whose every cell is zero (`dims == 0`: the integer 0):
    /// `~const~int~2(~const~int(0))`.
    pub(super) fn zero_int_map(&mut self, dims: usize, span: Span) -> b::Expr {
        let mut e = int(0, span);
        for d in 1..=dims {
            self.mem.const_map = true;
            self.mem.const_map_dims = self.mem.const_map_dims.max(d);
            e = ex(
                b::ExprKind::Call(ident(&const_map_name(d), span), vec![e]),
                span,
            );
        }
        e
    }

    /// Sets the integer cells (`ints`) and the pointer cells (`ptrs`) of the object `b` to zero.
    pub(super) fn zero_rows(
        &mut self,
        b: &b::Expr,
        ints: bool,
        ptrs: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) {
        let mut maps = Vec::new();
        if ints {
            self.mem.int = true;
            maps.push(MEM_INT);
        }
        if ptrs {
            self.mem.ptr = true;
            maps.extend([MEM_BASE, MEM_OFF]);
        }
        for m in maps {
            let zero = self.zero_int_map(1, span);
            out.push(assign(lhs(m, vec![b.clone()], span), zero, span));
        }
    }

    /// Sets every byte's cell of `n` bytes at `{b, o}` to zero (integers 0, pointers null).
    fn zero_row(&mut self, b: &b::Expr, span: Span, out: &mut Vec<b::Stmt>) {
        self.zero_rows(b, true, true, span, out);
        for t in self.float_maps() {
            let zero = ex(
                b::ExprKind::Call(
                    ident(&float_const_map(t), span),
                    vec![self.float_zero(t, span)],
                ),
                span,
            );
            out.push(assign(
                lhs(&float_map(t), vec![b.clone()], span),
                zero,
                span,
            ));
        }
    }

    /// The float types whose memory maps exist (`float_map_key`).
    pub(super) fn float_maps(&self) -> Vec<FloatTy> {
        [FloatTy::Float, FloatTy::Double, FloatTy::LongDouble]
            .into_iter()
            .filter(|t| self.in_mem.contains(&float_map_key(*t)))
            .collect()
    }

    /// The memory map of `t`, restarting the translation if it does not exist yet.
    fn float_map_used(&self, t: FloatTy, span: Span) -> R<String> {
        let key = float_map_key(t);
        if !self.in_mem.contains(&key) {
            return needs_memory(&key, span);
        }
        Ok(float_map(t))
    }

    /// Zero-initialises a whole object (static storage, `calloc`).
    pub(super) fn zero_object(&mut self, b: &b::Expr, span: Span, out: &mut Vec<b::Stmt>) {
        self.zero_row(b, span, out);
    }

    /// Reads a place. `checked`: emit the access check and the range assumption (not needed right
    /// after a store to the same place).
    pub(super) fn read_place(
        &mut self,
        p: &Place,
        checked: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        if matches!(p.ty(), CType::Array(..)) && !p.unions().is_empty() {
            // its pointer would write the union without the other members
            return unsupported("array in a union used as a value", span);
        }
        match p {
            Place::Var(lv) => Ok(match &lv.ty {
                CType::Ptr(pt) => TV::ptr(
                    lv.leaf_read(".base", span),
                    lv.leaf_read(".offset", span),
                    (**pt).clone(),
                ),
                CType::Struct(_) => TV {
                    v: V::Agg(lv.clone()),
                    ty: lv.ty.clone(),
                },
                CType::Float(f) => TV::float(lv.read(span), *f),
                t => {
                    let e = lv.read(span);
                    // an array element may be indeterminate (also after a copy of the array,
                    // a struct passed or returned): a value of its type
                    if let (true, CType::Int(it)) = (checked, t)
                        && !lv.indices.is_empty()
                    {
                        out.push(assume(self.in_range(e.clone(), *it, span), span));
                    }
                    TV {
                        v: V::Int(e),
                        ty: t.clone(),
                    }
                }
            }),
            Place::Mem {
                base,
                off,
                ty,
                safe,
                ..
            } => match ty {
                CType::Int(t) if matches!(t.kind, IntKind::BitField { .. }) => {
                    let (bytes, key) = self.bit_cell(*t, off, span)?;
                    if checked && !safe {
                        self.mem_check(base, off, bytes, span, out);
                    }
                    self.mem.int = true;
                    let e = sel2(MEM_INT, base.clone(), key, span);
                    if checked {
                        out.push(assume(self.in_range(e.clone(), *t, span), span));
                    }
                    Ok(TV::int(e, *t))
                }
                CType::Int(t) => {
                    if checked && !safe {
                        self.mem_check(base, off, t.size(self.arch), span, out);
                    }
                    self.mem.int = true;
                    let e = sel2(MEM_INT, base.clone(), off.clone(), span);
                    if checked {
                        out.push(assume(self.in_range(e.clone(), *t, span), span));
                    }
                    Ok(TV::int(e, *t))
                }
                CType::Float(t) => {
                    let m = self.float_map_used(*t, span)?;
                    if checked && !safe {
                        self.mem_check(base, off, self.size_align(ty, span)?.0, span, out);
                    }
                    Ok(TV::float(sel2(&m, base.clone(), off.clone(), span), *t))
                }
                CType::Ptr(pt) => {
                    if checked && !safe {
                        self.mem_check(base, off, self.ptr_size(), span, out);
                    }
                    self.mem.ptr = true;
                    Ok(TV::ptr(
                        sel2(MEM_BASE, base.clone(), off.clone(), span),
                        sel2(MEM_OFF, base.clone(), off.clone(), span),
                        (**pt).clone(),
                    ))
                }
                CType::Array(..) | CType::Vla(..) | CType::Struct(_) => Ok(TV {
                    v: V::Ptr(base.clone(), off.clone()),
                    ty: ty.clone(),
                }),
                other => unsupported(format!("access to {} in memory", other.describe()), span),
            },
        }
    }

    /// Writes a scalar to a place (with the access check for memory), and the other members of
    /// the unions it is in (`union_sync`).
    pub(super) fn store_place(
        &mut self,
        p: &Place,
        val: SVal,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        if p.unions().is_empty() {
            return self.store_scalar(p, val, span, out);
        }
        // the write could change what the place's addresses and indices read
        let mut pinned = HashMap::new();
        let p = self.pin_place(p, &mut pinned, span, out);
        self.store_scalar(&p, val, span, out)?;
        self.union_sync(&p, span, out)
    }

    /// The place with its addresses and indices in temporaries (the same expression in the same
    /// one), its unions' too.
    fn pin_place(
        &mut self,
        p: &Place,
        pinned: &mut HashMap<String, String>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Place {
        let in_mem = matches!(p, Place::Mem { .. });
        let mut pin = |this: &mut Self, e: &b::Expr| {
            // a write to memory changes no Boogie variable
            if as_lit(e).is_some() || (in_mem && matches!(e.kind, b::ExprKind::Var(_))) {
                return e.clone();
            }
            let key = format!("{e:?}");
            let t = match pinned.get(&key) {
                Some(t) => t.clone(),
                None => {
                    let t = this.temp(span);
                    out.push(assign_var(&t, e.clone(), span));
                    pinned.insert(key, t.clone());
                    t
                }
            };
            var(&t, span)
        };
        let mut q = p.clone();
        match &mut q {
            Place::Var(lv) => {
                for i in &mut lv.indices {
                    *i = pin(self, i);
                }
            }
            Place::Mem { base, off, .. } => {
                *base = pin(self, base);
                *off = pin(self, off);
            }
        }
        let mut unions = Vec::new();
        for u in p.unions() {
            let mut u = u.clone();
            u.root = Box::new(self.pin_place(&u.root, pinned, span, out));
            unions.push(u);
        }
        *q.unions_mut() = unions;
        q
    }

    fn store_scalar(&mut self, p: &Place, val: SVal, span: Span, out: &mut Vec<b::Stmt>) -> R<()> {
        match (p, val) {
            (Place::Var(lv), SVal::Int(e) | SVal::Float(e)) => {
                out.push(assign(lhs(&lv.name(), lv.indices.clone(), span), e, span));
            }
            (Place::Var(lv), SVal::Ptr(b, o)) => {
                let n = lv.name();
                out.push(stmt(
                    b::StmtKind::Assign {
                        lhs: vec![
                            lhs(&format!("{n}.base"), lv.indices.clone(), span),
                            lhs(&format!("{n}.offset"), lv.indices.clone(), span),
                        ],
                        rhs: vec![b, o],
                    },
                    span,
                ));
            }
            (
                Place::Mem {
                    base,
                    off,
                    ty,
                    safe,
                    ..
                },
                v,
            ) => {
                let size = match ty {
                    CType::Int(t) if matches!(t.kind, IntKind::BitField { .. }) => {
                        self.bit_cell(*t, off, span)?.0
                    }
                    _ => self.size_align(ty, span)?.0,
                };
                if !safe {
                    self.mem_check(base, off, size, span, out);
                }
                match (ty, v) {
                    (CType::Int(t), SVal::Int(e)) if matches!(t.kind, IntKind::BitField { .. }) => {
                        let (_, key) = self.bit_cell(*t, off, span)?;
                        self.mem.int = true;
                        out.push(assign(lhs(MEM_INT, vec![base.clone(), key], span), e, span));
                    }
                    (CType::Int(_), SVal::Int(e)) => {
                        self.mem.int = true;
                        out.push(assign(
                            lhs(MEM_INT, vec![base.clone(), off.clone()], span),
                            e,
                            span,
                        ));
                    }
                    (CType::Float(t), SVal::Float(e)) => {
                        let m = self.float_map_used(*t, span)?;
                        out.push(assign(
                            lhs(&m, vec![base.clone(), off.clone()], span),
                            e,
                            span,
                        ));
                    }
                    (CType::Ptr(_), SVal::Ptr(vb, vo)) => {
                        self.mem.ptr = true;
                        out.push(stmt(
                            b::StmtKind::Assign {
                                lhs: vec![
                                    lhs(MEM_BASE, vec![base.clone(), off.clone()], span),
                                    lhs(MEM_OFF, vec![base.clone(), off.clone()], span),
                                ],
                                rhs: vec![vb, vo],
                            },
                            span,
                        ));
                    }
                    _ => return unsupported(format!("store to {}", ty.describe()), span),
                }
            }
        }
        Ok(())
    }

    /// The value of `tv` converted to the type of the scalar place type `to` (integer or pointer).
    pub(super) fn scalar_value(&mut self, tv: TV, to: &CType, span: Span) -> R<SVal> {
        match to {
            CType::Float(f) => Ok(SVal::Float(self.to_float(&tv, *f, span)?)),
            CType::Int(t) => {
                let tv = self.decay(tv, span)?;
                if let (CType::Ptr(_), V::Ptr(b, o)) = (&tv.ty, &tv.v) {
                    if t.kind == IntKind::Bool {
                        let nn = not(is_null_ptr(b, o, span), span);
                        return Ok(SVal::Int(ite(nn, int(1, span), int(0, span), span)));
                    }
                    if let CType::Ptr(pt) = &tv.ty {
                        if let CType::Fn(_) = **pt {
                            return Ok(SVal::Int(self.fptr_to_int(b, o, *t, span)));
                        }
                    }
                    return unsupported("conversion of a pointer to an integer", span);
                }
                Ok(SVal::Int(self.convert(&tv, *t, span)?))
            }
            CType::Ptr(pt) => {
                let (b, o) = self.as_pointer(tv, pt, span)?;
                Ok(SVal::Ptr(b, o))
            }
            other => unsupported(format!("assignment to {}", other.describe()), span),
        }
    }

    /// An array (variable or in memory) used as a value: the pointer to its first element. An
    /// array held in Boogie variables restarts the translation with it in memory. A function
    /// designator: the pointer to the function.
    pub(super) fn decay(&mut self, tv: TV, span: Span) -> R<TV> {
        if let (CType::Str, V::Int(e)) = (&tv.ty, &tv.v) {
            // a string literal: its object of static storage (allocated by `finish`)
            let Some(k) = as_lit(e).and_then(|k| k.to_usize()) else {
                return unsupported(
                    "string literal with a prefix or an escape not decoded",
                    span,
                );
            };
            self.used_strings.insert(k);
            return Ok(TV::ptr(
                var(&format!("#str~{k}"), span),
                int(0, span),
                CType::Int(IntTy::CHAR),
            ));
        }
        if let (CType::Fn(_), V::Ptr(b, o)) = (&tv.ty, &tv.v) {
            // a function designator: the function's address (`fptr`)
            return Ok(TV::ptr(b.clone(), o.clone(), tv.ty.clone()));
        }
        let (CType::Array(elem, _) | CType::Vla(elem, _)) = &tv.ty else {
            return Ok(tv);
        };
        match &tv.v {
            V::Ptr(b, o) => Ok(TV::ptr(b.clone(), o.clone(), (**elem).clone())),
            V::Agg(_) | V::Float(_) => unsupported("array that decays to a pointer", span),
            V::Int(e) | V::Bool(e) => {
                let mut root = e;
                while let b::ExprKind::Select(m, _) = &root.kind {
                    root = m;
                }
                if let b::ExprKind::Var(v) = &root.kind {
                    let base = v.name.split('.').next().unwrap_or_default();
                    if let Some(key) = self.var_keys.get(base) {
                        return needs_memory(&key.clone(), span);
                    }
                }
                unsupported("array that decays to a pointer", span)
            }
        }
    }

    /// An integer of any value converted to `to` (modulo `2^n`, C11 6.3.1.3 as gcc): the offset of
    /// a pointer with base 0 need not lie in the range of `uintptr_t` after pointer arithmetic.
    fn wrap_to(&self, e: b::Expr, to: IntTy, span: Span) -> b::Expr {
        if let Some(x) = as_lit(&e) {
            return lit(&ints::convert(&x, to, self.arch), span);
        }
        if to.kind == IntKind::Bool {
            return ite(
                bin(BinOp::Neq, e, int(0, span), span),
                int(1, span),
                int(0, span),
                span,
            );
        }
        let m = to.modulus(self.arch);
        if !to.signed {
            return modulo(e, &m, span);
        }
        let half = &m >> 1;
        arith(
            BinOp::Sub,
            modulo(arith(BinOp::Add, e, lit(&half, span), span), &m, span),
            lit(&half, span),
            span,
        )
    }

    /// `e`, known to lie in `[lo, hi]`, converted to `to` (modulo `2^n`): without `mod` when the
    /// values wrap at most once (a case split), which the solver handles far better.
    fn convert_in(&self, e: b::Expr, lo: &BigInt, hi: &BigInt, to: IntTy, span: Span) -> b::Expr {
        if as_lit(&e).is_some() || to.kind == IntKind::Bool {
            return self.wrap_to(e, to, span);
        }
        let (tmin, m) = (to.min(self.arch), to.modulus(self.arch));
        let k_lo = floor_div(&(lo - &tmin), &m);
        let k_hi = floor_div(&(hi - &tmin), &m);
        let shift = |e: b::Expr, k: &BigInt| {
            let d = k * &m;
            match d.sign() {
                num_bigint::Sign::NoSign => e,
                num_bigint::Sign::Minus => arith(BinOp::Add, e, lit(&-d, span), span),
                num_bigint::Sign::Plus => arith(BinOp::Sub, e, lit(&d, span), span),
            }
        };
        if k_lo == k_hi {
            shift(e, &k_lo)
        } else if &k_hi - &k_lo == BigInt::one() {
            let edge = &tmin + &k_hi * &m;
            ite(
                bin(BinOp::Lt, e.clone(), lit(&edge, span), span),
                shift(e.clone(), &k_lo),
                shift(e, &k_hi),
                span,
            )
        } else {
            self.wrap_to(e, to, span)
        }
    }

    /// `(to) p` for the pointer `{b, o}` (see the module comment): a pointer with base 0 came from
    /// the integer `o`, which it converts back to exactly; an object pointer converts to its
    /// address, an over-approximated `~ptrToInt(b, o)` of which only what holds of every address
    /// of an object is assumed (at least `LOW_ADDR`, at most the largest `uintptr_t`).
    pub(super) fn ptr_to_int(
        &mut self,
        b: b::Expr,
        o: b::Expr,
        to: IntTy,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<b::Expr> {
        if to.kind == IntKind::Bool {
            let nn = not(is_null_ptr(&b, &o, span), span);
            return Ok(ite(nn, int(1, span), int(0, span), span));
        }
        let (umin, umax) = (UINTPTR.min(self.arch), UINTPTR.max(self.arch));
        let in_range = |lo: b::Expr, e: &b::Expr| {
            and(
                bin(BinOp::Le, lo, e.clone(), span),
                bin(BinOp::Le, e.clone(), lit(&umax, span), span),
                span,
            )
        };
        let zero = |e: &b::Expr| as_lit(e).is_some_and(|v| v.is_zero());
        // read once: the branches below are separate statements (another thread may write the
        // pointer between them), made one atomic step
        let shared = !self.thread_fns.is_empty() && (reads_shared(&b) || reads_shared(&o));
        let mut buf = Vec::new();
        let out_final = out;
        let out = &mut buf;
        let r = self.temp(span);
        // base 0: the offset is the integer (outside the range of `uintptr_t` only after
        // arithmetic on a pointer to no object, undefined in C: not followed)
        let from_int = if as_lit(&o).is_some() {
            vec![assign_var(&r, self.wrap_to(o.clone(), to, span), span)]
        } else {
            let mut stmts = Vec::new();
            let outside = not(in_range(lit(&umin, span), &o), span);
            self.not_followed(
                WRAPPED_PTR,
                vec![o.clone()],
                Some(outside),
                span,
                &mut stmts,
            );
            stmts.push(assign_var(
                &r,
                self.convert_in(o.clone(), &umin, &umax, to, span),
                span,
            ));
            stmts
        };
        if zero(&b) {
            if let [
                b::Stmt {
                    kind: b::StmtKind::Assign { rhs, .. },
                    ..
                },
            ] = from_int.as_slice()
            {
                if let [e] = rhs.as_slice() {
                    return Ok(e.clone());
                }
            }
            out.extend(from_int);
            atomic_if(shared, buf, span, out_final);
            return Ok(var(&r, span));
        }
        self.conv_fns.insert(PTR_TO_INT);
        self.addresses_observed = true;
        let a = self.temp(span);
        let addr = var(&a, span);
        let low = BigInt::from(LOW_ADDR);
        let of_object = vec![
            assign_var(
                &a,
                ex(
                    b::ExprKind::Call(ident(&format!("~{PTR_TO_INT}"), span), vec![b.clone(), o]),
                    span,
                ),
                span,
            ),
            assume(in_range(lit(&low, span), &addr), span),
            assign_var(&r, self.convert_in(addr, &low, &umax, to, span), span),
        ];
        out.push(if_(
            bin(BinOp::Eq, b, int(0, span), span),
            from_int,
            of_object,
            span,
        ));
        atomic_if(shared, buf, span, out_final);
        Ok(var(&r, span))
    }

    /// `(T *) i` for an integer `tv` (see the module comment): `{0, (uintptr_t) i}` when the address
    /// is below `LOW_ADDR`, where no object lies; an execution that converts a larger integer is not
    /// followed (an assertion that fails through an `{:overapproximation}` function: such a
    /// counterexample answers UNKNOWN).
    pub(super) fn int_to_ptr(
        &mut self,
        tv: &TV,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<(b::Expr, b::Expr)> {
        let from = tv.int_ty(span)?;
        let (lo, hi) = match &tv.v {
            V::Bool(_) => (BigInt::zero(), BigInt::one()),
            _ => (from.min(self.arch), from.max(self.arch)),
        };
        let u = self.convert_in(tv.to_int(span), &lo, &hi, UINTPTR, span);
        // read once: the check and the pointer are separate statements
        let u = if self.thread_fns.is_empty() || !reads_shared(&u) {
            u
        } else {
            let t = self.temp(span);
            out.push(assign_var(&t, u, span));
            var(&t, span)
        };
        let low = lit(&BigInt::from(LOW_ADDR), span);
        match as_lit(&u) {
            Some(v) if v < BigInt::from(LOW_ADDR) => {}
            Some(_) => self.not_followed(INT_TO_PTR, vec![u.clone()], None, span, out),
            None => {
                let large = bin(BinOp::Ge, u.clone(), low, span);
                self.not_followed(INT_TO_PTR, vec![u.clone()], Some(large), span, out);
            }
        }
        Ok((int(0, span), u))
    }

    /// An execution where `cond` holds (always: `None`) is not followed: an assertion that fails
    /// after applying the `{:overapproximation}` function `f` (to `args`), so that a counterexample
    /// reaching it answers UNKNOWN, never UNSAFE, and no proof assumes the execution away.
    fn not_followed(
        &mut self,
        f: &'static str,
        args: Vec<b::Expr>,
        cond: Option<b::Expr>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) {
        self.conv_fns.insert(f);
        let t = self.temp(span);
        let call = ex(b::ExprKind::Call(ident(&format!("~{f}"), span), args), span);
        let stop = vec![
            assign_var(&t, call, span),
            assert(boolean(false, span), span),
        ];
        match cond {
            None => out.extend(stop),
            Some(c) => out.push(if_(c, stop, Vec::new(), span)),
        }
    }

    /// The `{base, offset}` of `tv` converted to a pointer to `to` (see the module comment for the
    /// conversions accepted).
    pub(super) fn as_pointer(&mut self, tv: TV, to: &CType, span: Span) -> R<(b::Expr, b::Expr)> {
        let tv = self.decay(tv, span)?;
        match (&tv.ty, &tv.v) {
            (CType::Ptr(from), V::Ptr(b, o)) => {
                let zero = |e: &b::Expr| as_lit(e).is_some_and(|v| v.is_zero());
                // a pointer with base 0 (null, or from an integer) points to no object
                let fresh = matches!(&b.kind, b::ExprKind::Var(v) if self.fresh.contains(&v.name));
                if !zero(b) {
                    self.ptr_compatible(from, to, fresh, span)?;
                }
                Ok((b.clone(), o.clone()))
            }
            (CType::Int(_), V::Int(e)) if as_lit(e).is_some_and(|v| v.is_zero()) => {
                Ok((int(0, span), int(0, span)))
            }
            (CType::Int(_), _) => unsupported("conversion of an integer to a pointer", span),
            (t, _) => unsupported(format!("conversion of {} to a pointer", t.describe()), span),
        }
    }

    /// Whether a pointer to `from` may become a pointer to `to` (see the module comment). A
    /// conversion between `void *` and a character pointer, or between `void *` and another object
    /// pointer, is recorded for `void_pointer_worlds` (not one from a fresh allocation: nothing else
    /// points to that object).
    pub(super) fn ptr_compatible(
        &mut self,
        from: &CType,
        to: &CType,
        fresh: bool,
        span: Span,
    ) -> R<()> {
        if from == to {
            return Ok(());
        }
        if !self.converted.contains(from) {
            self.converted.push(from.clone());
        }
        match (from, to) {
            // a function has no cells: any function pointer type may hold its address (a call
            // checks the function's type, see `call_pointer`)
            (CType::Fn(_), CType::Fn(_)) => Ok(()),
            (CType::Fn(_), t) | (t, CType::Fn(_)) if *t != CType::Void => unsupported(
                "conversion between a function pointer and an object pointer",
                span,
            ),
            (CType::Void, t) | (t, CType::Void) => {
                if matches!(t, CType::Other(_)) {
                    return unsupported(format!("pointer to {}", t.describe()), span);
                }
                if fresh {
                    return Ok(());
                }
                match t {
                    CType::Int(i) if i.kind == IntKind::Char => {
                        if !self.void_char.iter().any(|(c, _)| c == i) {
                            self.void_char.push((*i, span));
                        }
                    }
                    _ => {
                        if !self.void_other.iter().any(|(u, _)| u == t) {
                            self.void_other.push((t.clone(), span));
                        }
                    }
                }
                Ok(())
            }
            // not to a character pointer: that may read every byte of the struct
            (CType::Struct(tag), t)
                if !is_char(t) && self.first_members(tag, span)?.contains(t) =>
            {
                Ok(())
            }
            // a pointer that is only passed around and compared: kept when no pointer of the
            // type converted to is dereferenced or converted again (`foreign_conversions`)
            _ => {
                self.foreign.push((to.clone(), span));
                Ok(())
            }
        }
    }

    /// A conversion between pointers to different object types that none of the rules above
    /// accepts is translated only when no pointer to the type converted to is dereferenced (by
    /// `*`, `->`, `[]` or a memory function) or converted to another pointer type anywhere in
    /// the program: then no cell is ever read or written through such a pointer, which may
    /// point to an object of another type (the memory-model invariant stands).
    pub(super) fn foreign_conversions(&self) -> R<()> {
        for (to, span) in &self.foreign {
            if self.derefs.contains(to) || self.converted.contains(to) {
                return unsupported("conversion between pointers to different types", *span);
            }
        }
        Ok(())
    }

    /// The types of the objects that start a struct (its first member, that member's first member
    /// or first element, …): a pointer to the struct may become a pointer to one of them, whose
    /// cells it then reads and writes at their type.
    fn first_members(&self, tag: &str, span: Span) -> R<Vec<CType>> {
        let mut found = Vec::new();
        let mut t = CType::Struct(tag.to_string());
        loop {
            let next = match &t {
                CType::Struct(tag) => match self.struct_fields(tag, span)?.into_iter().next() {
                    Some((_, f)) => f,
                    None => break,
                },
                CType::Array(e, _) => (**e).clone(),
                _ => break,
            };
            if found.contains(&next) || found.len() > 64 {
                break;
            }
            found.push(next.clone());
            t = next;
        }
        Ok(found)
    }

    /// Whether objects of types `a` and `b` overlay cell for cell where both have bytes: every
    /// scalar cell of one that overlaps a scalar cell of the other is at the same offset with the
    /// same type (so a cell written through one type is read through the other at its type).
    fn same_cells(&self, a: &CType, b: &CType, span: Span) -> bool {
        let cells = |t: &CType| -> Option<Vec<(u64, u64, CType)>> {
            let mut out = Vec::new();
            self.cells(t, ("", &[], 0), span, &mut out).ok()?;
            out.into_iter()
                .map(|c| Some((c.off, self.size_align(&c.ty, span).ok()?.0, c.ty)))
                .collect()
        };
        let (Some(ca), Some(cb)) = (cells(a), cells(b)) else {
            return false;
        };
        ca.iter().all(|(oa, sa, ta)| {
            cb.iter()
                .filter(|(ob, sb, _)| oa < &(ob + sb) && ob < &(oa + sa))
                .all(|(ob, _, tb)| oa == ob && ta == tb)
        })
    }

    /// `void *` holds either character pointers or other object pointers, never both: otherwise a
    /// `char *` from a `void *` could read a cell written at another type (or the converse).
    /// Character pointers of different signedness through `void *` are refused likewise.
    pub(super) fn void_pointer_worlds(&self) -> R<()> {
        if let Some((_, span)) = self.void_char.get(1) {
            return unsupported(
                "conversions between `void *` and character pointers of different types",
                *span,
            );
        }
        // a `void *` from a pointer to one type may become a pointer to another: every cell the
        // two types share must be one of the same type (a struct and its first member agree)
        for (i, (a, _)) in self.void_other.iter().enumerate() {
            for (b, span) in &self.void_other[i + 1..] {
                if !self.same_cells(a, b, *span) {
                    return unsupported(
                        format!(
                            "conversions between `void *` and pointers to object types whose \
                             cells differ ({} and {})",
                            a.describe(),
                            b.describe()
                        ),
                        *span,
                    );
                }
            }
        }
        match (self.void_char.first(), self.void_other.first()) {
            (Some((_, span)), Some(_)) => unsupported(
                "conversion between `void *` and a character pointer in a program that converts \
                 `void *` to or from other object pointers",
                *span,
            ),
            _ => Ok(()),
        }
    }

    /// `p + k` (in elements of the pointed-to type).
    pub(super) fn ptr_add(
        &mut self,
        b: b::Expr,
        o: b::Expr,
        pointee: &CType,
        k: b::Expr,
        span: Span,
    ) -> R<TV> {
        let size = self.elem_size(pointee, span)?;
        let delta = arith(BinOp::Mul, k, lit(&BigInt::from(size), span), span);
        Ok(TV::ptr(
            b,
            arith(BinOp::Add, o, delta, span),
            pointee.clone(),
        ))
    }

    /// A binary operator with a pointer operand (the operands decayed).
    pub(super) fn ptr_arith(
        &mut self,
        op: c::BinaryOperator,
        a: TV,
        b2: TV,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        use c::BinaryOperator as O;
        let null = |t: &TV| matches!(&t.v, V::Int(e) if as_lit(e).is_some_and(|v| v.is_zero()));
        let parts = |t: &TV| match (&t.ty, &t.v) {
            (CType::Ptr(p), V::Ptr(b, o)) => Some((b.clone(), o.clone(), (**p).clone())),
            _ => None,
        };
        match (op.clone(), parts(&a), parts(&b2)) {
            (O::Plus, Some((pb, po, pt)), None) | (O::Minus, Some((pb, po, pt)), None) => {
                b2.int_ty(span)?;
                let k = b2.to_int(span);
                let k = if op == O::Minus { neg(k, span) } else { k };
                self.ptr_add(pb, po, &pt, k, span)
            }
            (O::Plus, None, Some((pb, po, pt))) => {
                a.int_ty(span)?;
                let k = a.to_int(span);
                self.ptr_add(pb, po, &pt, k, span)
            }
            (O::Minus, Some((_, o1, t1)), Some((_, o2, _))) => {
                let size = self.elem_size(&t1, span)?;
                let d = arith(BinOp::Sub, o1, o2, span);
                let d = if size == 1 {
                    d
                } else {
                    bin(BinOp::Div, d, lit(&BigInt::from(size), span), span)
                };
                Ok(TV::int(d, IntTy::new(IntKind::Long, true)))
            }
            // a pointer and an integer other than a null pointer constant: compared as integers
            // (gcc converts the integer to a pointer; the address of each is compared)
            (
                O::Equals
                | O::NotEquals
                | O::Less
                | O::Greater
                | O::LessOrEqual
                | O::GreaterOrEqual,
                Some((pb, po, _)),
                None,
            ) if !null(&b2) => {
                let x = self.ptr_to_int(pb, po, UINTPTR, span, out)?;
                let y = self.convert(&b2, UINTPTR, span)?;
                Ok(TV::boolean(bin(cmp_op(&op), x, y, span)))
            }
            (
                O::Equals
                | O::NotEquals
                | O::Less
                | O::Greater
                | O::LessOrEqual
                | O::GreaterOrEqual,
                None,
                Some((pb, po, _)),
            ) if !null(&a) => {
                let x = self.convert(&a, UINTPTR, span)?;
                let y = self.ptr_to_int(pb, po, UINTPTR, span, out)?;
                Ok(TV::boolean(bin(cmp_op(&op), x, y, span)))
            }
            (O::Equals | O::NotEquals, x, y) => {
                self.addresses_observed |= x.is_some() && y.is_some();
                let (b1, o1) = match &x {
                    Some((b, o, _)) => (b.clone(), o.clone()),
                    None => (int(0, span), int(0, span)),
                };
                let (b2e, o2) = match &y {
                    Some((b, o, _)) => (b.clone(), o.clone()),
                    None => (int(0, span), int(0, span)),
                };
                let eq = and(
                    bin(BinOp::Eq, b1, b2e, span),
                    bin(BinOp::Eq, o1, o2, span),
                    span,
                );
                Ok(TV::boolean(if op == O::Equals {
                    eq
                } else {
                    not(eq, span)
                }))
            }
            (
                O::Less | O::Greater | O::LessOrEqual | O::GreaterOrEqual,
                Some((b1, o1, _)),
                Some((b2e, o2, _)),
            ) => {
                let bop = match op {
                    O::Less => BinOp::Lt,
                    O::Greater => BinOp::Gt,
                    O::LessOrEqual => BinOp::Le,
                    _ => BinOp::Ge,
                };
                let cmp = bin(bop, o1, o2, span);
                if b1 == b2e {
                    return Ok(TV::boolean(cmp));
                }
                // pointers into different objects: undefined in C, any answer here
                let t = self.temp(span);
                let tv = bin(BinOp::Eq, var(&t, span), int(1, span), span);
                out.push(havoc(&t, span));
                out.push(assume(
                    bin(
                        BinOp::Implies,
                        bin(BinOp::Eq, b1, b2e, span),
                        bin(BinOp::Iff, tv.clone(), cmp, span),
                        span,
                    ),
                    span,
                ));
                Ok(TV::boolean(tv))
            }
            _ => unsupported("this operator on pointers", span),
        }
    }

    /// The pointer `e` points to a `T` in memory: the place `*e`.
    pub(super) fn deref(&mut self, tv: TV, span: Span) -> R<Place> {
        let tv = self.decay(tv, span)?;
        let (CType::Ptr(pt), V::Ptr(b, o)) = (&tv.ty, &tv.v) else {
            return unsupported(format!("dereference of {}", tv.ty.describe()), span);
        };
        self.note_deref(pt);
        match &**pt {
            CType::Void => unsupported("dereference of a `void *`", span),
            CType::Other(w) => unsupported(format!("dereference of a pointer to {w}"), span),
            t => Ok(Place::Mem {
                base: b.clone(),
                off: o.clone(),
                ty: t.clone(),
                safe: false,
                unions: Vec::new(),
            }),
        }
    }

    /// The operands of `memset(p, 0, n)` / `memcpy(p, q, n)`: the type `p` points to and the
    /// `{base, offset}` of `p` and (`memcpy`) of `q`, which points to the same type. Not through a
    /// `void *`, not of structs with bit-fields (their cells lie below the bytes copied,
    /// `bit_cell`). The value of `memset`: see `memset_value`.
    #[allow(clippy::type_complexity)]
    fn mem_operands(
        &mut self,
        name: &str,
        set: bool,
        vals: &[TV],
        span: Span,
    ) -> R<(CType, (b::Expr, b::Expr), Option<(b::Expr, b::Expr)>)> {
        let dst = self.decay(vals[0].clone(), span)?;
        let (CType::Ptr(dt), V::Ptr(db, dof)) = (&dst.ty, &dst.v) else {
            return unsupported(format!("`{name}` of {}", dst.ty.describe()), span);
        };
        self.note_deref(dt);
        if matches!(**dt, CType::Void) {
            return unsupported(format!("`{name}` through a `void *`"), span);
        }
        if self.has_bit_fields(dt) {
            return unsupported(format!("`{name}` of a struct with bit-fields"), span);
        }
        let src = if set {
            None
        } else {
            let src = self.decay(vals[1].clone(), span)?;
            let (CType::Ptr(st), V::Ptr(sb, so)) = (&src.ty, &src.v) else {
                return unsupported(format!("`{name}` of {}", src.ty.describe()), span);
            };
            if **st != **dt {
                return unsupported(format!("`{name}` between different types"), span);
            }
            Some((sb.clone(), so.clone()))
        };
        Ok(((**dt).clone(), (db.clone(), dof.clone()), src))
    }

    /// The integer of type `t` at `{b, at}` (its access checked by the caller), in its range.
    fn int_cell(
        &mut self,
        b: &b::Expr,
        at: &b::Expr,
        t: IntTy,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> b::Expr {
        let e = sel2(MEM_INT, b.clone(), at.clone(), span);
        out.push(assume(self.in_range(e.clone(), t, span), span));
        e
    }

    /// The integer of type `t` at `{db, dof + at}` with its first `bytes` bytes (fewer than its
    /// size) replaced by those of `w` (little-endian; `w` any representative of the bytes): the
    /// end of a `memcpy`/`memset` that stops inside it (C11 7.24.2.1: the bytes are copied).
    #[allow(clippy::too_many_arguments)]
    fn partial_int(
        &mut self,
        db: &b::Expr,
        dof: &b::Expr,
        at: u64,
        bytes: u64,
        t: IntTy,
        w: b::Expr,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        let ut = IntTy::new(t.kind, false);
        let dk = arith(BinOp::Add, dof.clone(), lit(&BigInt::from(at), span), span);
        let old = self.int_cell(db, &dk, t, span, out);
        let old = self.convert(&TV::int(old, t), ut, span)?;
        let size = t.size(self.arch);
        let splice = Splice {
            write_off: 0,
            write_size: 8 * bytes,
            cell_off: 0,
            cell_size: 8 * size,
        };
        let new = splice.bits(w, Some(old), span);
        let new = self.convert(&TV::int(new, ut), t, span)?;
        let nt = self.temp(span);
        out.push(assign_var(&nt, new, span));
        out.push(assign(
            lhs(MEM_INT, vec![db.clone(), dk], span),
            var(&nt, span),
            span,
        ));
        Ok(())
    }

    /// The value every object of type `t` holds after `memset(p, v, …)` sets each of its bytes to
    /// `(unsigned char) v` (C11 7.24.6.1): `None` for 0 (every memory map zeroed); for an integer
    /// type the bytes read as one integer, little-endian (`memset(a, 1, …)` makes an `int` hold
    /// `0x01010101`, `memset(a, -1, …)` makes it `-1`), for a one-byte type also of a `v` known
    /// only at run time. Other types (pointers, floats, structs) with other than 0: unsupported.
    fn memset_value(&self, t: &CType, v: &TV, span: Span) -> R<Option<b::Expr>> {
        let e = v.to_int(span);
        let known = as_lit(&e);
        if known.as_ref().is_some_and(|x| x.is_zero()) {
            return Ok(None);
        }
        let CType::Int(it) = t else {
            return unsupported(
                format!("`memset` of {} with a value other than 0", t.describe()),
                span,
            );
        };
        let size = it.size(self.arch);
        match known {
            Some(x) => {
                let byte: BigInt = ((x % 256) + 256) % 256;
                if it.kind == IntKind::Bool && byte > BigInt::from(1) {
                    return unsupported(
                        "`memset` of a `_Bool` with a value other than 0 or 1",
                        span,
                    );
                }
                let mut u = BigInt::zero();
                for _ in 0..size {
                    u = (u << 8) + &byte;
                }
                if it.signed && u >= (BigInt::from(1) << (8 * size - 1)) {
                    u -= BigInt::from(1) << (8 * size);
                }
                Ok(Some(lit(&u, span)))
            }
            None if size == 1 && it.kind != IntKind::Bool => Ok(Some(self.convert(v, *it, span)?)),
            None => unsupported(
                format!(
                    "`memset` of {} with a value known only at run time",
                    t.describe()
                ),
                span,
            ),
        }
    }

    /// `memset(p, 0, n)` / `memcpy(p, q, n)` of a size `n` that is not a constant: exact when
    /// it covers whole objects (`p` and `q` at offset 0, `n` the length of `p`'s object: its
    /// memory rows are zeroed or copied, `q`'s object checked to hold `n` bytes); any other
    /// execution is not followed (an over-approximation: a counterexample through it answers
    /// UNKNOWN, and no proof assumes it away).
    fn mem_whole(
        &mut self,
        name: &str,
        set: bool,
        vals: &[TV],
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let (dt, (db, dof), src) = self.mem_operands(name, set, vals, span)?;
        let value = if set {
            self.memset_value(&dt, &vals[1], span)?
        } else {
            None
        };
        if self.data_race {
            return unsupported(format!("`{name}` of a non-constant size"), span);
        }
        let n = self.convert(&vals[2], IntTy::SIZE_T, span)?;
        self.mem.valid = true;
        let fits = |b: &b::Expr, o: &b::Expr| {
            and(
                sel(VALID, b.clone(), span),
                and(
                    bin(BinOp::Le, int(0, span), o.clone(), span),
                    bin(
                        BinOp::Le,
                        arith(BinOp::Add, o.clone(), n.clone(), span),
                        sel(LENGTH, b.clone(), span),
                        span,
                    ),
                    span,
                ),
                span,
            )
        };
        out.extend(self.check(Check::Deref, fits(&db, &dof), span));
        let at_start = |o: &b::Expr| bin(BinOp::Eq, o.clone(), int(0, span), span);
        let mut whole = and(
            at_start(&dof),
            bin(BinOp::Eq, n.clone(), sel(LENGTH, db.clone(), span), span),
            span,
        );
        let mut rows = Vec::new();
        if let Some((sb, so)) = src {
            out.extend(self.check(Check::Deref, fits(&sb, &so), span));
            whole = and(whole, at_start(&so), span);
            self.mem.int = true;
            self.mem.ptr = true;
            let floats: Vec<String> = self.float_maps().into_iter().map(float_map).collect();
            let maps = [MEM_INT, MEM_BASE, MEM_OFF]
                .into_iter()
                .chain(floats.iter().map(String::as_str));
            for m in maps {
                rows.push(assign(
                    lhs(m, vec![db.clone()], span),
                    sel(m, sb.clone(), span),
                    span,
                ));
            }
        } else if let Some(v) = value {
            // the rows of the other maps are not read through a pointer to this integer type
            self.mem.int = true;
            self.mem.const_map = true;
            let row = ex(b::ExprKind::Call(ident(CONST_MAP, span), vec![v]), span);
            rows.push(assign(lhs(MEM_INT, vec![db.clone()], span), row, span));
        } else {
            self.zero_row(&db, span, &mut rows);
        }
        let mut part = Vec::new();
        self.not_followed(MEM_PART, vec![n.clone()], None, span, &mut part);
        out.push(if_(whole, rows, part, span));
        self.decay(vals[0].clone(), span)
    }

    /// Records that cells are accessed through a pointer to `t` (see `foreign_conversions`).
    pub(super) fn note_deref(&mut self, t: &CType) {
        if !self.derefs.contains(t) {
            self.derefs.push(t.clone());
        }
    }

    /// The memory functions of the C library; `None`: not one of them.
    pub(super) fn mem_call(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let args = ce.arguments.as_slice();
        let r = match name {
            "malloc" | "__builtin_malloc" | "alloca" | "__builtin_alloca" | "calloc" => {
                (|| {
                    let calloc = name == "calloc";
                    let size = match (args, calloc) {
                        ([n], false) => {
                            let v = self.expr(n, out)?;
                            self.convert(&v, IntTy::SIZE_T, span)?
                        }
                        ([n, s], true) => {
                            let (a, bv) = self.operands(n, s, out)?;
                            let a = self.convert(&a, IntTy::SIZE_T, span)?;
                            let bv = self.convert(&bv, IntTy::SIZE_T, span)?;
                            arith(BinOp::Mul, a, bv, span)
                        }
                        _ => {
                            return unsupported(
                                format!("`{name}` with a wrong number of arguments"),
                                span,
                            );
                        }
                    };
                    let heap = !name.contains("alloca");
                    if !heap && self.f.mem_scopes.is_empty() {
                        return unsupported(format!("`{name}` outside a function"), span);
                    }
                    let t = self.temp(span);
                    self.alloc(&t, size, heap, span, out);
                    if calloc {
                        self.mem.calloc = true;
                        self.zero_object(&var(&t, span), span, out);
                    }
                    if !heap {
                        // freed when the function returns
                        if let Some(s) = self.f.mem_scopes.first_mut() {
                            s.push(t.clone());
                        }
                    }
                    self.fresh.insert(t.clone());
                    Ok(TV::ptr(var(&t, span), int(0, span), CType::Void))
                })()
            }
            // `realloc(p, n)`: a new heap object of `n` bytes whose cells are those of `*p` (the
            // whole rows of the memory maps are copied), and `p` freed (with the check of
            // `free`); `realloc(NULL, n)` is `malloc(n)`. It never fails. Copying whole rows is
            // exact below the old length; beyond it the old row holds arbitrary values (the old
            // base was chosen among all dead bases), unless `calloc` zeroed the row: a program
            // that calls both is not translated.
            "realloc" => (|| {
                let [p, n] = args else {
                    return unsupported("`realloc` with other than two arguments", span);
                };
                let (pv, nv) = self.operands(p, n, out)?;
                let pv = self.decay(pv, span)?;
                let (b, o) = match (&pv.ty, &pv.v) {
                    (CType::Ptr(_), V::Ptr(b, o)) => (b.clone(), o.clone()),
                    (_, V::Int(e)) if as_lit(e).is_some_and(|x| x.is_zero()) => {
                        (int(0, span), int(0, span))
                    }
                    _ => return unsupported(format!("`realloc` of {}", pv.ty.describe()), span),
                };
                let size = self.convert(&nv, IntTy::SIZE_T, span)?;
                self.mem.valid = true;
                self.mem.int = true;
                self.mem.ptr = true;
                self.mem.realloc.get_or_insert(span);
                let null = is_null_ptr(&b, &o, span);
                out.extend(self.check(Check::Free, freeable(&b, &o, span), span));
                self.count_free(&b, span, out);
                let t = self.temp(span);
                self.alloc(&t, size, true, span, out);
                let mut copy = Vec::new();
                let floats: Vec<String> = self.float_maps().into_iter().map(float_map).collect();
                let maps = [MEM_INT, MEM_BASE, MEM_OFF]
                    .into_iter()
                    .chain(floats.iter().map(String::as_str));
                for m in maps {
                    copy.push(assign(
                        lhs(m, vec![var(&t, span)], span),
                        sel(m, b.clone(), span),
                        span,
                    ));
                }
                copy.push(assign(
                    lhs(VALID, vec![b.clone()], span),
                    boolean(false, span),
                    span,
                ));
                out.push(if_(not(null, span), copy, Vec::new(), span));
                self.fresh.insert(t.clone());
                Ok(TV::ptr(var(&t, span), int(0, span), CType::Void))
            })(),
            "free" => (|| {
                let [p] = args else {
                    return unsupported("`free` with other than one argument", span);
                };
                let v = self.expr(p, out)?;
                let v = self.decay(v, span)?;
                let (CType::Ptr(_), V::Ptr(b, o)) = (&v.ty, &v.v) else {
                    if matches!(&v.v, V::Int(e) if as_lit(e).is_some_and(|x| x.is_zero())) {
                        return Ok(TV::void(span));
                    }
                    return unsupported(format!("`free` of {}", v.ty.describe()), span);
                };
                self.mem.valid = true;
                out.extend(self.check(Check::Free, freeable(b, o, span), span));
                self.count_free(b, span, out);
                out.push(assign(
                    lhs(VALID, vec![b.clone()], span),
                    boolean(false, span),
                    span,
                ));
                Ok(TV::void(span))
            })(),
            "memset" | "__builtin_memset" | "memcpy" | "__builtin_memcpy" | "memmove"
            | "__builtin_memmove" => (|| {
                let [d, x, n] = args else {
                    return unsupported(format!("`{name}` with other than three arguments"), span);
                };
                let vals = self.args(args, out)?;
                let _ = (d, x, n);
                let set = name.ends_with("memset");
                // `memmove`: the source's bytes are all read before any is written (the objects
                // may overlap, C11 7.24.2.2)
                let moving = name.ends_with("memmove");
                let len = as_lit(&vals[2].to_int(span)).and_then(|v| v.to_u64());
                // a non-constant size, or one too large to copy cell by cell: the whole object
                // at once or an over-approximation (`mem_whole`)
                let Some(len) = len.filter(|l| *l <= MAX_INIT_CELLS) else {
                    return self.mem_whole(name, set, &vals, span, out);
                };
                let (dt, (db, dof), src_parts) = self.mem_operands(name, set, &vals, span)?;
                // the bytes written cover whole objects of the (known) pointed-to type, but for
                // the last bytes of an integer (`partial_int`)
                let esize = self.size_align(&dt, span)?.0;
                let int_elem = matches!(&dt, CType::Int(t)
                    if !matches!(t.kind, IntKind::Bool | IntKind::BitField { .. }));
                if esize == 0 || (len % esize != 0 && !int_elem) {
                    return unsupported(format!("`{name}` of part of an object"), span);
                }
                let whole = len - len % esize;
                let value = if set {
                    self.memset_value(&dt, &vals[1], span)?
                } else {
                    None
                };
                self.mem_check(&db, &dof, len, span, out);
                if let Some((sb, so)) = &src_parts {
                    self.mem_check(sb, so, len, span, out);
                }
                self.mem.int = true;
                // the source integer whose first bytes end the copy, read before any write
                let vt = value.map(|v| {
                    let vt = self.temp(span);
                    out.push(assign_var(&vt, v, span));
                    vt
                });
                // the bytes that end the copy inside an integer: the source's (read before any
                // write), the byte set, or 0
                let last = match (whole < len, &src_parts, &vt) {
                    (false, ..) => None,
                    (true, Some((sb, so)), _) => match &dt {
                        CType::Int(t) => {
                            let at = arith(
                                BinOp::Add,
                                so.clone(),
                                lit(&BigInt::from(whole), span),
                                span,
                            );
                            let e = self.int_cell(sb, &at, *t, span, out);
                            let lt = self.temp(span);
                            out.push(assign_var(&lt, e, span));
                            Some(var(&lt, span))
                        }
                        _ => None,
                    },
                    (true, None, Some(vt)) => Some(var(vt, span)),
                    (true, None, None) => Some(int(0, span)),
                };
                if let Some(vt) = &vt {
                    // each integer object holds the bytes set (read only through its type)
                    for k in (0..whole).step_by(esize as usize) {
                        let dk = arith(BinOp::Add, dof.clone(), lit(&BigInt::from(k), span), span);
                        out.push(assign(
                            lhs(MEM_INT, vec![db.clone(), dk], span),
                            var(vt, span),
                            span,
                        ));
                    }
                }
                if vt.is_none() {
                    self.mem.ptr = true;
                    let floats = self.float_maps();
                    let mut maps: Vec<(String, b::Expr, Option<FloatTy>)> =
                        [MEM_INT, MEM_BASE, MEM_OFF]
                            .into_iter()
                            .map(|m| (m.to_string(), int(0, span), None))
                            .collect();
                    maps.extend(
                        floats
                            .into_iter()
                            .map(|t| (float_map(t), self.float_zero(t, span), Some(t))),
                    );
                    let mut writes = Vec::new();
                    for k in 0..whole {
                        let k = lit(&BigInt::from(k), span);
                        let dk = arith(BinOp::Add, dof.clone(), k.clone(), span);
                        for (m, zero, ft) in &maps {
                            let m = m.as_str();
                            let v = match &src_parts {
                                None => zero.clone(),
                                Some((sb, so)) => sel2(
                                    m,
                                    sb.clone(),
                                    arith(BinOp::Add, so.clone(), k.clone(), span),
                                    span,
                                ),
                            };
                            let v = if moving {
                                let t = match ft {
                                    Some(f) => self.float_temp(*f, span),
                                    None => self.temp(span),
                                };
                                out.push(assign_var(&t, v, span));
                                var(&t, span)
                            } else {
                                v
                            };
                            writes.push(assign(
                                lhs(m, vec![db.clone(), dk.clone()], span),
                                v,
                                span,
                            ));
                        }
                    }
                    out.extend(writes);
                }
                if let (CType::Int(t), Some(w)) = (&dt, last) {
                    self.partial_int(&db, &dof, whole, len - whole, *t, w, span, out)?;
                }
                self.decay(vals[0].clone(), span)
            })(),
            "getenv" => (|| {
                // null, or a string of the environment: an object of static storage with
                // arbitrary characters before its terminating zero
                let [n] = args else {
                    return unsupported("`getenv` with other than one argument", span);
                };
                self.expr(n, out)?;
                let (b, len, found) = (self.temp(span), self.temp(span), self.temp(span));
                out.push(havoc(&len, span));
                out.push(assume(
                    bin(BinOp::Ge, var(&len, span), int(1, span), span),
                    span,
                ));
                self.alloc(&b, var(&len, span), false, span, out);
                let end = Place::Mem {
                    base: var(&b, span),
                    off: arith(BinOp::Sub, var(&len, span), int(1, span), span),
                    ty: CType::Int(IntTy::CHAR),
                    safe: true,
                    unions: Vec::new(),
                };
                self.store_place(&end, SVal::Int(int(0, span)), span, out)?;
                out.push(havoc(&found, span));
                let base = ite(
                    bin(BinOp::Eq, var(&found, span), int(0, span), span),
                    int(0, span),
                    var(&b, span),
                    span,
                );
                Ok(TV::ptr(base, int(0, span), CType::Int(IntTy::CHAR)))
            })(),
            "__VERIFIER_nondet_pointer" => {
                if !args.is_empty() {
                    return Some(unsupported(
                        "`__VERIFIER_nondet_pointer` with arguments",
                        span,
                    ));
                }
                let (b, o) = (self.temp(span), self.temp(span));
                out.push(havoc(&b, span));
                out.push(havoc(&o, span));
                Ok(TV::ptr(var(&b, span), var(&o, span), CType::Void))
            }
            _ => return None,
        };
        Some(r)
    }
}

pub(super) fn map_type(dims: usize, elem: b::Type, span: Span) -> b::Type {
    let mut t = elem;
    for _ in 0..dims {
        t = ty(
            b::TypeKind::Map {
                type_params: Vec::new(),
                args: vec![ty(b::TypeKind::Int, span)],
                result: Box::new(t),
            },
            span,
        );
    }
    t
}

impl<'a> Translator<'a> {
    /// The global variables (and the constant-map function) of the parts of the memory model used.
    pub(super) fn memory_decls(
        &self,
        span: Span,
        decls: &mut Vec<b::Decl>,
        modifies: &mut Vec<b::Ident>,
    ) {
        let mut vars: Vec<(&str, b::Type)> = Vec::new();
        if self.mem.valid {
            vars.push((VALID, map_type(1, ty(b::TypeKind::Bool, span), span)));
            vars.push((LENGTH, int_map_type(1, span)));
        }
        if self.mem.int {
            vars.push((MEM_INT, int_map_type(2, span)));
        }
        if self.mem.ptr {
            vars.push((MEM_BASE, int_map_type(2, span)));
            vars.push((MEM_OFF, int_map_type(2, span)));
        }
        if self.mem.varargs {
            vars.push((VA_BASE, int_map_type(0, span)));
            vars.push((VA_OFF, int_map_type(0, span)));
        }
        let floats = self.float_maps();
        let float_names: Vec<String> = floats.iter().map(|t| float_map(*t)).collect();
        for (t, n) in floats.iter().zip(&float_names) {
            vars.push((n, map_type(2, t.boogie_type(span), span)));
        }
        for (n, t) in vars {
            decls.push(b::Decl::Var(b::VarDecl {
                attrs: Vec::new(),
                vars: vec![typed(n, t, span)],
                span,
            }));
            modifies.push(ident(n, span));
        }
        for t in floats {
            decls.push(b::Decl::Function(b::FunctionDecl {
                attrs: vec![b::Attribute {
                    name: ident("const_array", span),
                    args: Vec::new(),
                    span,
                }],
                name: ident(&float_const_map(t), span),
                type_params: Vec::new(),
                params: vec![b::FunArg {
                    name: Some(ident("v", span)),
                    ty: t.boogie_type(span),
                    span,
                }],
                result: b::FunArg {
                    name: None,
                    ty: map_type(1, t.boogie_type(span), span),
                    span,
                },
                body: None,
                span,
            }));
        }
        let depths = if self.mem.const_map {
            self.mem.const_map_dims.max(1)
        } else {
            0
        };
        for dims in 1..=depths {
            decls.push(b::Decl::Function(b::FunctionDecl {
                attrs: vec![b::Attribute {
                    name: ident("const_array", span),
                    args: Vec::new(),
                    span,
                }],
                name: ident(&const_map_name(dims), span),
                type_params: Vec::new(),
                params: vec![b::FunArg {
                    name: Some(ident("v", span)),
                    ty: int_map_type(dims - 1, span),
                    span,
                }],
                result: b::FunArg {
                    name: None,
                    ty: int_map_type(dims, span),
                    span,
                },
                body: None,
                span,
            }));
        }
    }

    /// A new object on the stack for the variable `name` of type `t`: the Boogie variable holding
    /// its base, invalidated when the current block is left.
    pub(super) fn stack_object(
        &mut self,
        name: &str,
        t: &CType,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        let size = self.size_align(t, span)?.0;
        let what = format!("variable `{name}` in memory");
        self.block_object(name, &what, lit(&BigInt::from(size), span), true, span, out)
    }

    /// A new object on the stack for the variable-length array `name` of `count` elements of
    /// type `elem` (`count` holds the value of its size expression): the Boogie variable holding
    /// its base, invalidated when the current block is left. Its length is `count` times the
    /// element size; a size expression that is not positive (undefined, C11 6.7.6.2p5) gives an
    /// object no access fits in.
    pub(super) fn vla_object(
        &mut self,
        name: &str,
        elem: &CType,
        count: &str,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        let esize = self.size_align(elem, span)?.0;
        let size = arith(
            BinOp::Mul,
            var(count, span),
            lit(&BigInt::from(esize), span),
            span,
        );
        let what = format!("variable-length array `{name}`");
        self.block_object(name, &what, size, false, span, out)
    }

    /// A stack object of `size` bytes for `name` (`what` names it in the unsupported cases: in a
    /// switch, whose jumps could skip its allocation, or outside a function), in the current
    /// block's scope. `hoistable`: its size is a constant, so that it may be allocated when the
    /// function starts (`FnCtx::hoist`).
    fn block_object(
        &mut self,
        name: &str,
        what: &str,
        size: b::Expr,
        hoistable: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        if !self.f.switches.is_empty() {
            return unsupported(format!("{what} declared in a switch"), span);
        }
        if self.f.mem_scopes.is_empty() {
            return unsupported(format!("{what} outside a function"), span);
        }
        let base = self.new_local(&format!("#addr~{name}"), int_map_type(0, span));
        // the parameters' scope, then the function body's block
        let outermost = self.f.mem_scopes.len() <= 2;
        // `main`'s outermost block runs once (with a `goto`, its objects are allocated when it
        // starts; without one, its declarations are in no loop)
        let once = self.main_once && self.f.name == "main" && outermost;
        if hoistable && outermost && self.f.hoist {
            let mut hoisted = std::mem::take(&mut self.f.hoisted);
            if once {
                self.alloc_fixed(&base, size, span, &mut hoisted);
            } else {
                self.alloc(&base, size, false, span, &mut hoisted);
            }
            self.f.hoisted = hoisted;
        } else if once && self.f.loops.is_empty() && self.f.loop_header == 0 && !self.f.hoist {
            self.alloc_fixed(&base, size, span, out);
        } else {
            self.alloc(&base, size, false, span, out);
            if !outermost || self.f.jumps_seen {
                self.f.late_objects = true;
            }
        }
        if let Some(s) = self.f.mem_scopes.last_mut() {
            s.push(base.clone());
        }
        Ok(base)
    }

    /// The place of a cell of the aggregate at `root`.
    pub(super) fn cell_place(&self, root: &Place, c: &Cell, span: Span) -> Place {
        let mut p = match root {
            Place::Var(lv) => {
                let mut indices = lv.indices.clone();
                indices.extend(c.idx.iter().map(|i| lit(&BigInt::from(*i), span)));
                Place::Var(LVal {
                    base: lv.base.clone(),
                    path: format!("{}{}", lv.path, c.path),
                    indices,
                    ty: c.ty.clone(),
                    unions: lv.unions.clone(),
                })
            }
            Place::Mem {
                base,
                off,
                safe,
                unions,
                ..
            } => Place::Mem {
                base: base.clone(),
                off: arith(
                    BinOp::Add,
                    off.clone(),
                    lit(&BigInt::from(c.off), span),
                    span,
                ),
                ty: c.ty.clone(),
                safe: *safe,
                unions: unions.clone(),
            },
        };
        p.shift_unions(Some(c.off));
        for cu in &c.unions {
            let mut at = self.cell_place(root, &cu.at, span);
            at.unions_mut().clear();
            let CType::Struct(tag) = &cu.at.ty else {
                continue;
            };
            p.unions_mut().push(InUnion {
                root: Box::new(at),
                tag: tag.clone(),
                member: cu.member.clone(),
                off: Some(cu.off),
            });
        }
        p
    }

    /// After a write to the scalar place `p` (see `store_place`), the other members of each union
    /// `p` is in. A scalar of another member at the same offset with the same type is the same
    /// value. An integer scalar of another member whose bytes overlap the integer bytes written
    /// and lie within the member written takes those bytes, little-endian as on every target of
    /// `--architecture` (C11 6.5.2.3p3 footnote 95: the bytes reinterpreted; `Splice`), keeping
    /// its other bytes; one that overlaps a pointer or a `_Bool`, or lies partly outside the
    /// member written (C11 6.2.6.1p7: unspecified), gets an unspecified value (an
    /// `{:overapproximation}`: a counterexample through it is not reported, as the actual bytes
    /// are the implementation's); the others are unchanged. In memory a
    /// scalar of another member at the same offset with the same type is the same cell (a union
    /// in memory has no two scalars of different types at one offset in one map, see
    /// `check_mem_unions`).
    pub(super) fn union_sync(&mut self, p: &Place, span: Span, out: &mut Vec<b::Stmt>) -> R<()> {
        let wty = p.ty().clone();
        let wsize = self.size_align(&wty, span)?.0;
        let mut value = None;
        for u in p.unions().to_vec() {
            let fields = self.struct_fields(&u.tag, span)?;
            let Some((_, mty)) = fields.iter().find(|(n, _)| *n == u.member) else {
                return unsupported(format!("unknown union member `{}`", u.member), span);
            };
            let msize = self.size_align(mty, span)?.0;
            for (f, fty) in &fields {
                if *f == u.member {
                    continue;
                }
                let mut cells = Vec::new();
                self.cells(fty, (&format!(".{f}"), &[], 0), span, &mut cells)?;
                for mut c in cells {
                    c.unions.clear();
                    let csize = self.size_align(&c.ty, span)?.0;
                    let mut target = self.cell_place(&u.root, &c, span);
                    if let Place::Mem { safe, .. } = &mut target {
                        // the bytes of the union the write did not check may lie beyond a
                        // too small allocation: only the bytes written are checked
                        *safe = true;
                    }
                    let same = u.off == Some(c.off) && c.ty == wty;
                    let overlap = u.off.is_none_or(|o| c.off < o + wsize && o < c.off + csize);
                    if same {
                        if matches!(target, Place::Var(_)) {
                            if value.is_none() {
                                let v = self.read_place(p, false, span, out)?;
                                value = Some(self.scalar_value(v, &wty, span)?);
                            }
                            if let Some(v) = value.clone() {
                                self.store_scalar(&target, v, span, out)?;
                            }
                        }
                    } else if overlap || c.off + csize > msize {
                        if matches!(target, Place::Mem { .. }) && u.off == Some(c.off) {
                            let kind = |t: &CType| matches!(t, CType::Ptr(_));
                            if kind(&c.ty) == kind(&wty) {
                                return unsupported(
                                    "union in memory with members of different types at one offset",
                                    span,
                                );
                            }
                        }
                        if matches!(c.ty, CType::Float(_)) || matches!(wty, CType::Float(_)) {
                            // the bytes of a float read as another type, or the reverse
                            return unsupported("union with a floating member", span);
                        }
                        let bytes = |t: &CType| match t {
                            CType::Int(it)
                                if !matches!(it.kind, IntKind::Bool | IntKind::BitField { .. }) =>
                            {
                                Some(*it)
                            }
                            _ => None,
                        };
                        let exact = match (u.off, bytes(&wty), bytes(&c.ty)) {
                            (Some(wo), Some(_), Some(ct)) if overlap && c.off + csize <= msize => {
                                Some((wo, ct))
                            }
                            _ => None,
                        };
                        let v = match exact {
                            Some((wo, ct)) => {
                                if value.is_none() {
                                    let v = self.read_place(p, false, span, out)?;
                                    value = Some(self.scalar_value(v, &wty, span)?);
                                }
                                let Some(SVal::Int(w)) = value.clone() else {
                                    return unsupported("union member of this type", span);
                                };
                                let cut = Splice {
                                    write_off: 8 * wo,
                                    write_size: 8 * wsize,
                                    cell_off: 8 * c.off,
                                    cell_size: 8 * csize,
                                };
                                let old = if cut.covers() {
                                    None
                                } else {
                                    let o = self.read_place(&target, false, span, out)?;
                                    match self.scalar_value(o, &c.ty, span)? {
                                        // its bits: an unsigned value is its own
                                        SVal::Int(e) if ct.signed => {
                                            Some(modulo(e, &ct.modulus(self.arch), span))
                                        }
                                        SVal::Int(e) => Some(e),
                                        _ => return unsupported("union member of this type", span),
                                    }
                                };
                                SVal::Int(self.wrap_to(cut.bits(w, old, span), ct, span))
                            }
                            None => self.unspecified(&c.ty, span, out),
                        };
                        self.store_scalar(&target, v, span, out)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// An unspecified value of the scalar type `t` (an application of the
    /// `{:overapproximation}` function `~unspecified` to a fresh value).
    fn unspecified(&mut self, t: &CType, span: Span, out: &mut Vec<b::Stmt>) -> SVal {
        self.unspecified_used = true;
        let mut one = |this: &mut Self| {
            let (x, r) = (this.temp(span), this.temp(span));
            out.push(havoc(&x, span));
            out.push(assign_var(
                &r,
                ex(
                    b::ExprKind::Call(ident(UNSPECIFIED, span), vec![var(&x, span)]),
                    span,
                ),
                span,
            ));
            r
        };
        match t {
            CType::Int(it) => {
                let r = one(self);
                out.push(assume(self.in_range(var(&r, span), *it, span), span));
                SVal::Int(var(&r, span))
            }
            _ => {
                let (b, o) = (one(self), one(self));
                SVal::Ptr(var(&b, span), var(&o, span))
            }
        }
    }

    /// A union in memory must not have two scalars of different types at one offset in one
    /// map (the memory-model invariant: a cell is read at the type it was written with).
    pub(super) fn check_mem_unions(&self, ty: &CType, span: Span) -> R<()> {
        match ty {
            CType::Array(e, _) => self.check_mem_unions(e, span),
            CType::Struct(tag) => {
                let fields = self.struct_fields(tag, span)?;
                let mut seen: BTreeMap<(u64, bool), (CType, String)> = BTreeMap::new();
                for (f, fty) in &fields {
                    self.check_mem_unions(fty, span)?;
                    if !is_union(tag) {
                        continue;
                    }
                    let mut cells = Vec::new();
                    self.cells(fty, ("", &[], 0), span, &mut cells)?;
                    for c in cells {
                        let key = (c.off, matches!(c.ty, CType::Ptr(_)));
                        match seen.get(&key) {
                            Some((t, m)) if *t != c.ty && m != f => {
                                return unsupported(
                                    "union in memory with members of different types at one offset",
                                    span,
                                );
                            }
                            Some(_) => {}
                            None => {
                                seen.insert(key, (c.ty.clone(), f.clone()));
                            }
                        }
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Copies the aggregate at `src` to `dst` (same type), cell by cell where memory is involved,
    /// in one parallel assignment between variables.
    pub(super) fn copy_place(
        &mut self,
        dst: &Place,
        src: &Place,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        if let (Place::Var(d), Place::Var(s)) = (dst, src)
            && d.unions.is_empty()
        {
            let mut assigns = Vec::new();
            for (path, _, _) in self.leaves(&d.ty, span)? {
                let from = LVal {
                    base: s.base.clone(),
                    path: format!("{}{path}", s.path),
                    indices: s.indices.clone(),
                    ty: CType::Void,
                    unions: Vec::new(),
                };
                assigns.push((
                    lhs(&format!("{}{path}", d.name()), d.indices.clone(), span),
                    from.read(span),
                ));
            }
            // one parallel assignment: `s = s` and overlapping copies read the old values
            let (l, r): (Vec<_>, Vec<_>) = assigns.into_iter().unzip();
            out.push(stmt(b::StmtKind::Assign { lhs: l, rhs: r }, span));
            return Ok(());
        }
        if matches!(dst, Place::Mem { .. }) || matches!(src, Place::Mem { .. }) {
            self.check_mem_unions(dst.ty(), span)?;
        }
        let mut cells = Vec::new();
        self.cells(dst.ty(), ("", &[], 0), span, &mut cells)?;
        for mut c in cells {
            // every member of a union is copied: none written by another
            c.unions.clear();
            let from = self.cell_place(src, &c, span);
            let to = self.cell_place(dst, &c, span);
            let v = self.read_place(&from, true, span, out)?;
            let v = self.scalar_value(v, &c.ty, span)?;
            self.store_place(&to, v, span, out)?;
        }
        Ok(())
    }
}

impl<'a> Translator<'a> {
    /// The objects of the string literals used as pointers: read-only arrays of `char` with static
    /// storage, a terminating zero at the end (declarations, allocations, initialisations).
    /// Literals with the same characters "need not designate distinct objects" (C11 6.4.5p7; gcc
    /// merges them): in a program that compares pointers or converts them to integers, each after
    /// the first may be the first one's object, a nondeterministic choice, so that the program is
    /// verified whichever the implementation does (elsewhere the choice cannot be observed: the
    /// objects are read-only, a write is undefined, and it would only cost a deterministic program
    /// its run by the executor).
    pub(super) fn string_objects(
        &mut self,
        span: Span,
        decls: &mut Vec<b::Decl>,
        modifies: &mut Vec<b::Ident>,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        let used: Vec<usize> = self.used_strings.iter().copied().collect();
        let mut first: HashMap<Vec<u8>, usize> = HashMap::new();
        for k in used {
            let Some(bytes) = self.strings.get(k).cloned() else {
                continue;
            };
            let shared = *first.entry(bytes.clone()).or_insert(k);
            if bytes.len() as u64 + 1 > MAX_INIT_CELLS {
                return unsupported("string literal longer than the initialisation limit", span);
            }
            let base = format!("#str~{k}");
            decls.push(b::Decl::Var(b::VarDecl {
                attrs: Vec::new(),
                vars: vec![typed(&base, int_map_type(0, span), span)],
                span,
            }));
            modifies.push(ident(&base, span));
            let n = bytes.len() as i64 + 1;
            self.alloc_fixed(&base, int(n, span), span, out);
            self.mem.int = true;
            for (i, c) in bytes.iter().chain(std::iter::once(&0u8)).enumerate() {
                // `char` is signed
                let v = if *c > 127 {
                    i64::from(*c) - 256
                } else {
                    i64::from(*c)
                };
                out.push(assign(
                    lhs(MEM_INT, vec![var(&base, span), int(i as i64, span)], span),
                    int(v, span),
                    span,
                ));
            }
            if shared != k && self.addresses_observed {
                // `if (*) { #str~k := #str~shared; }`
                let alias = assign_var(&base, var(&format!("#str~{shared}"), span), span);
                out.push(stmt(
                    b::StmtKind::If {
                        cond: None,
                        then_branch: vec![alias],
                        else_branch: None,
                    },
                    span,
                ));
            }
        }
        Ok(())
    }
}

impl<'a> Translator<'a> {
    /// The shared variables of a program checked for data races (`super::super::race`): the
    /// Boogie variables of C globals (`leaves`, with their map dimensions) and the memory maps,
    /// with their race variables, declared here.
    pub(super) fn race_shared(
        &mut self,
        leaves: Vec<(String, usize)>,
        span: Span,
        decls: &mut Vec<b::Decl>,
        modifies: &mut Vec<b::Ident>,
    ) -> crate::cfront::race::Shared {
        let mut vars = BTreeMap::new();
        let mut declare = |name: &str, dims: usize| {
            decls.push(b::Decl::Var(b::VarDecl {
                attrs: Vec::new(),
                vars: vec![typed(name, int_map_type(dims, span), span)],
                span,
            }));
            modifies.push(ident(name, span));
        };
        for (leaf, dims) in leaves {
            let race = format!("#race~{leaf}");
            declare(&race, dims);
            vars.insert(leaf, (race, dims));
        }
        let floats = self.float_maps();
        if self.mem.int || self.mem.ptr || !floats.is_empty() {
            declare(RACE_MEM, 2);
            for m in [MEM_INT, MEM_BASE, MEM_OFF] {
                vars.insert(m.to_string(), (RACE_MEM.to_string(), 2));
            }
            for t in floats {
                vars.insert(float_map(t), (RACE_MEM.to_string(), 2));
            }
            // a row write announces a row of `#race`
            self.mem.const_map = true;
        }
        crate::cfront::race::Shared {
            vars,
            const_map: CONST_MAP.to_string(),
            value: "#race~value".to_string(),
        }
    }
}

/// A struct with bit-fields laid out (`Translator::bit_layout`): each named member's byte offset
/// (a bit-field's: its first byte's) and bit position in that byte, the size and the alignment.
pub(super) struct BitLayout {
    offsets: Vec<u64>,
    pub shifts: Vec<u8>,
    size: u64,
    align: u64,
}

/// The bits a write of an integer gives an integer that overlaps it (positions and widths in
/// bits, in one frame: a union's bytes little-endian, a bit-field's storage unit): the cell's
/// bits in `[max(write_off, cell_off), min(write_off + write_size, cell_off + cell_size))` are
/// the written value's, its other bits unchanged.
struct Splice {
    write_off: u64,
    write_size: u64,
    cell_off: u64,
    cell_size: u64,
}

impl Splice {
    /// Whether the write covers every bit of the cell (its old value does not matter).
    fn covers(&self) -> bool {
        self.write_off <= self.cell_off
            && self.cell_off + self.cell_size <= self.write_off + self.write_size
    }

    /// The cell's new value as an unsigned integer of `cell_size` bits or more (the caller
    /// converts it to the cell's type, modulo `2^n`): from the written value `w` (any
    /// representative: `div` and `mod` by powers of two are the bits of its two's complement)
    /// and, unless the write covers the cell, the cell's old bits `old` (in `[0, 2^cell_size)`).
    fn bits(&self, w: b::Expr, old: Option<b::Expr>, span: Span) -> b::Expr {
        let lo = self.write_off.max(self.cell_off);
        let hi = (self.write_off + self.write_size).min(self.cell_off + self.cell_size);
        let pow = |bits: u64| BigInt::from(1) << bits;
        let shifted = |e: b::Expr, bits: u64| match bits {
            0 => e,
            n => arith(BinOp::Div, e, lit(&pow(n), span), span),
        };
        let scaled = |e: b::Expr, bits: u64| match bits {
            0 => e,
            n => arith(BinOp::Mul, e, lit(&pow(n), span), span),
        };
        // the written bits, moved to their place in the cell
        let piece = modulo(shifted(w, lo - self.write_off), &pow(hi - lo), span);
        let at = lo - self.cell_off;
        match old {
            None => scaled(piece, at),
            Some(old) => {
                let replaced = modulo(shifted(old.clone(), at), &pow(hi - lo), span);
                arith(
                    BinOp::Add,
                    arith(BinOp::Sub, old, scaled(replaced, at), span),
                    scaled(piece, at),
                    span,
                )
            }
        }
    }
}
