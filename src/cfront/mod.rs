//! The C front end: a C file (`.c`, preprocessed with `gcc -E`; or `.i`, already preprocessed) →
//! the Boogie parse tree (`syntax::ast`), which then goes through the ordinary resolve / type-check /
//! lower pipeline.
//!
//! Pipeline: `preprocess::rewrite_acsl` (ACSL `//@ assert e;` → a call) → `gcc -E` → lang-c →
//! `translate` (C semantics over mathematical integers, see `ints`) → `ast::Program` with spans in
//! the C source (`FileId::MAIN`: the C file is the main file). Semantics follow Ultimate's SV-COMP
//! defaults: integer types with their ranges (`Arch`), unsigned wrap-around, exact conversions,
//! truncating division, a division by zero or an array index out of bounds is an error,
//! `reach_error()`/`__VERIFIER_error()`/failing `assert` are errors, `abort()`/`exit()` end the path,
//! undefined functions of the program return nondeterministic values of their type. Pointers and the
//! heap follow Ultimate's memory model (`translate/mem.rs`: `{base, offset}` pointers, one memory map
//! per data kind, `#valid`/`#length` per allocation, memory-safety checks); a call through a
//! function pointer dispatches over the functions whose address is taken (`translate/fptr.rs`).
//! Bitwise operators and
//! shifts that integer arithmetic does not express are `{:overapproximation}` functions with two's-complement
//! facts (a counterexample through one is never reported), and so is the value a union member
//! takes when another member is written. Each check carries its kind ([`Check`], an attribute
//! `{:check "…"}`); the property ([`Options`]) decides which kinds are asserted and which
//! assumed: all but signed overflow and memtrack by default, only `reach_error` under
//! `unreach-call`, only its own under `no-data-race`, `no-overflow`, `valid-memsafety` and
//! `valid-memcleanup`. Anything
//! not translated faithfully (floats, addresses of union members, integer–pointer casts,
//! out-of-range constant shifts, …) is
//! [`CError::Unsupported`]: the CLI answers UNKNOWN "unsupported: … at file:line", never a different
//! program.

mod build;
pub mod ints;
pub mod preprocess;
mod race;
mod translate;

use crate::diag::Span;
use crate::syntax::ast;
use std::fmt;
use std::path::Path;

pub use ints::Arch;

/// Why a C file was not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CError {
    /// `gcc` is not available to preprocess the file (an input error, exit 3).
    NoCompiler(String),
    /// The C file is invalid: gcc rejects it (exit 3).
    Invalid(String),
    /// A bug in the front end (exit 4).
    Internal(String),
    /// A construct that is not translated faithfully: UNKNOWN with this reason.
    Unsupported {
        construct: String,
        file: String,
        line: usize,
    },
}

impl fmt::Display for CError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CError::NoCompiler(m) => write!(f, "{m} (gcc is needed to preprocess C files)"),
            CError::Invalid(m) => write!(f, "{m}"),
            CError::Internal(m) => write!(f, "internal error: {m}"),
            CError::Unsupported {
                construct,
                file,
                line,
            } => write!(f, "unsupported: {construct} at {file}:{line}"),
        }
    }
}

/// Whether `path` names a C file (`.c` or `.i`).
pub fn is_c_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "c" || e == "i" || e == "h")
}

/// The kind of a check the translation generates: the `{:check "name"}` attribute of its
/// assertion, so that a violation names the property it breaks (`FALSE(valid-deref)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `assert`, ACSL assertions and contracts, static assertions.
    Assertion,
    /// A dereference or array access outside a live object, a call through an invalid pointer.
    Deref,
    /// `free`/`realloc` of something other than null or the start of a live heap object.
    Free,
    /// Heap memory still allocated when `main` returns, and no global variable can point to it
    /// (then no pointer to it is left: it was lost).
    Memtrack,
    /// Heap memory still allocated where the program ends while memory may still be reachable
    /// (`exit`, `abort`, global pointers, other threads): the memtrack property may hold anyway,
    /// so a violation of this check answers UNKNOWN.
    MemtrackUnsure,
    /// Heap memory still allocated when the program ends by `main` returning or `exit`.
    Memcleanup,
    /// Heap memory still allocated where the program ends abnormally (`abort`, a failing
    /// `assert`, `reach_error`, `main` calling `pthread_exit`): whether that breaks
    /// `valid-memcleanup` is open, so a violation of this check answers UNKNOWN.
    MemcleanupUnsure,
    /// A signed integer operation whose result is out of its type's range.
    Overflow,
    /// Division or remainder by zero.
    DivZero,
}

impl Check {
    /// The attribute's name (the SV-COMP property name where there is one).
    pub fn name(self) -> &'static str {
        match self {
            Check::Assertion => "assertion",
            Check::Deref => "valid-deref",
            Check::Free => "valid-free",
            Check::Memtrack => "valid-memtrack",
            Check::MemtrackUnsure => "valid-memtrack-unsure",
            Check::Memcleanup => "valid-memcleanup",
            Check::MemcleanupUnsure => "valid-memcleanup-unsure",
            Check::Overflow => "no-overflow",
            Check::DivZero => "division-by-zero",
        }
    }

    /// The check named `name` (the inverse of [`Check::name`]).
    pub fn from_name(name: &str) -> Option<Check> {
        [
            Check::Assertion,
            Check::Deref,
            Check::Free,
            Check::Memtrack,
            Check::MemtrackUnsure,
            Check::Memcleanup,
            Check::MemcleanupUnsure,
            Check::Overflow,
            Check::DivZero,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// How to translate C files.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub arch: Arch,
    /// A directory holding [`preprocess::ILP32_STUBS`] (for `Arch::Ilp32` with x86-64 headers).
    pub ilp32_include: Option<std::path::PathBuf>,
    /// Check only that `reach_error` (`__VERIFIER_error`, `__assert_fail`) is unreachable
    /// (SV-COMP's `unreach-call`); the other checks are assumed.
    pub reach_only: bool,
    /// Check only that the program has no data race (SV-COMP's `no-data-race`, see `race`): the
    /// other checks are assumed and `reach_error` ends the path.
    pub data_race: bool,
    /// Check only that no signed integer operation overflows (SV-COMP's `no-overflow`): other
    /// checks are assumed and `reach_error` ends the path.
    pub overflow: bool,
    /// Check only memory safety (SV-COMP's `valid-memsafety`: valid dereferences, frees, and no
    /// heap memory lost, see [`Check::Memtrack`]): other checks are assumed and `reach_error`
    /// ends the path.
    pub memsafety: bool,
    /// Check only that all heap memory is freed when the program ends (SV-COMP's
    /// `valid-memcleanup`): other checks are assumed and `reach_error` ends the path.
    pub memcleanup: bool,
}

/// What the translation found out about a program, beyond the program itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Under `valid-memsafety`, the program allocates heap memory: its memtrack checks are made
    /// where executions end, so a leak in an execution that never ends is not checked (a SAFE
    /// answer also needs every execution to end).
    pub memtrack_open: bool,
    /// The program creates threads.
    pub forks: bool,
    /// The C program behind the translation, for witnesses.
    pub map: CMap,
}

/// What a witness needs to speak about a counterexample in the terms of the C program
/// (`cli::witness`): the translated functions, the C variables behind the translation's Boogie
/// variables with their scopes and ranges, the C branch points behind the translation's `if`s and
/// loops, and where the C statements are. Spans are offsets into the C file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CMap {
    pub functions: Vec<CFunction>,
    /// Integer locals and parameters held in Boogie variables (not in memory).
    pub locals: Vec<CVar>,
    /// Integer globals held in Boogie variables (not in memory).
    pub globals: Vec<CVar>,
    pub branches: Vec<CBranch>,
    /// The spans of the statements and declarations of the translated functions.
    pub statements: Vec<Span>,
    /// The loops: the statement and where its body starts (a `for` declares variables before).
    pub loops: Vec<(Span, u32)>,
    /// The loops the translation made for a library function (`strlen`, …), at the call: no
    /// loop of the C program, so no place for a witness's loop invariant.
    pub library_loops: Vec<Span>,
}

/// A C function with a body that the translation made a procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CFunction {
    /// The C name.
    pub name: String,
    /// The Boogie procedure's name.
    pub procedure: String,
    /// The definition.
    pub span: Span,
}

/// A C integer variable held in a Boogie variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CVar {
    /// The C name.
    pub name: String,
    /// The Boogie variable (`x~3` for a local, `~g` for a global).
    pub boogie: String,
    /// The function of a local (empty for a global).
    pub function: String,
    /// The range of its C type.
    pub min: num_bigint::BigInt,
    pub max: num_bigint::BigInt,
    /// Where its name is in scope: from its declaration to the end of its block (the whole file
    /// for a global).
    pub scope: Span,
}

/// What kind of C construct branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    If,
    While,
    DoWhile,
    For,
    /// `?:`, `&&`, `||` (its left operand decides).
    Operator,
}

/// A C branch point, translated into one Boogie `if` or `while` whose two `assume` edges (after
/// lowering) carry `span`. Which edge is the C condition's true branch is told by the number of
/// leading negations of the assumed expression: the Boogie condition has `nots` of them, and
/// lowering assumes it on one edge and its negation (one negation added or removed) on the other;
/// `negated` says whether the Boogie condition is the negation of the C condition (the exit test
/// `if (!c) break` of a loop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CBranch {
    pub kind: BranchKind,
    pub span: Span,
    /// The C condition (the left operand of `&&` and `||`).
    pub cond: Span,
    pub nots: u32,
    pub negated: bool,
}

/// Translates the C file `path` with contents `src` into a Boogie program whose spans point into
/// `src`.
pub fn translate_file(path: &Path, src: &str, opts: &Options) -> Result<ast::Program, CError> {
    translate_file_noting(path, src, opts).map(|(p, _)| p)
}

/// [`translate_file`], with the [`Notes`] of the translation.
pub fn translate_file_noting(
    path: &Path,
    src: &str,
    opts: &Options,
) -> Result<(ast::Program, Notes), CError> {
    // lang-c and the translation recurse over the syntax: a large stack keeps deeply nested
    // expressions (generated code) from overflowing it
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cfront".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || translate_file_here(path, src, opts))
            .map_err(|e| CError::Invalid(format!("cannot start the C front end: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(CError::Internal("the C front end panicked".into())))
    })
}

/// Stack size of the front-end thread.
const STACK: usize = 256 * 1024 * 1024;

fn translate_file_here(
    path: &Path,
    src: &str,
    opts: &Options,
) -> Result<(ast::Program, Notes), CError> {
    let arch = opts.arch;
    let inc = opts.ilp32_include.as_deref();
    let file = path.display().to_string();
    let preprocessed_input = path.extension().is_some_and(|e| e == "i");
    let unsupported = |construct: String, line: usize| CError::Unsupported {
        construct,
        file: file.clone(),
        line,
    };
    let text = preprocess::rewrite_acsl(src).map_err(|e| unsupported(e.what, e.line))?;
    let mut with_stddef = false;
    let (parsed, map) = loop {
        let pre = if preprocessed_input {
            preprocess::blank_comments(&text)
        } else {
            preprocess::gcc_e(path, &text, arch, inc, with_stddef).map_err(|e| match e {
                preprocess::PreprocessError::NoCompiler(m) => CError::NoCompiler(m),
                preprocess::PreprocessError::Failed(m) => CError::Invalid(m),
            })?
        };
        let pre = preprocess::rewrite_gaps(&pre);
        let map = preprocess::SpanMap::from_markers(&pre, src, preprocessed_input);
        let config = lang_c::driver::Config::with_gcc();
        match lang_c::driver::parse_preprocessed(&config, pre) {
            Ok(p) => break (p, map),
            Err(e) => {
                // gcc rejects the file (or accepts it and lang-c does not: one of lang-c's gaps)
                if !preprocessed_input {
                    if let Err(preprocess::PreprocessError::Failed(m)) =
                        preprocess::gcc_syntax_check(path, &text, arch, inc, with_stddef)
                    {
                        if !with_stddef && preprocess::undeclared_stddef_type(&m) {
                            with_stddef = true;
                            continue;
                        }
                        return Err(CError::Invalid(m));
                    }
                }
                let span = map.span(e.offset, e.offset);
                let line = preprocess::line_of(src, span.start as usize);
                return Err(unsupported(
                    "C syntax the parser (lang-c) does not accept".into(),
                    line,
                ));
            }
        }
    };
    // Declarations whose address is taken (or arrays that decay to pointers) live in memory: each
    // is found by a translation that needs it there and restarts with it (the set only grows, and
    // is bounded by the number of declarations).
    // Likewise the number of objects with a fixed base: it does not depend on the number a
    // translation starts with, so it settles with `in_mem` (one more restart at most).
    let mut in_mem = std::collections::BTreeSet::new();
    let mut fixed_bases = 0;
    loop {
        let mut tr = translate::Translator::new(arch, &map);
        tr.reach_only = opts.reach_only;
        tr.data_race = opts.data_race;
        tr.overflow = opts.overflow;
        tr.memsafety = opts.memsafety;
        tr.memcleanup = opts.memcleanup;
        tr.in_mem = in_mem.clone();
        tr.fixed_bases = fixed_bases;
        match tr.translate(&parsed.unit) {
            Ok(p) => return Ok(p),
            Err(translate::Unsupported {
                fixed_bases: Some(n),
                ..
            }) if n != fixed_bases => fixed_bases = n,
            Err(u) => match u.needs_memory {
                Some(key) if !in_mem.contains(&key) => {
                    in_mem.insert(key);
                }
                Some(key) => {
                    return Err(CError::Internal(format!(
                        "`{key}` in memory asked for twice"
                    )));
                }
                None => {
                    let line = preprocess::line_of(src, u.span.start as usize);
                    return Err(unsupported(u.what, line));
                }
            },
        }
    }
}
