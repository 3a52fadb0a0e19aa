//! The verification IR (see [`program`]) and the Boogie front end's checking and lowering passes.
//!
//! [`check`] runs the phases in order — [`resolve`] (names, `E02xx`), [`typeck`] (types and other semantic
//! checks, `E03xx`/`E04xx`), [`lower`] (control-flow graphs) — and stops after the first phase that reports
//! an error; [`records`] then rewrites records into their fields and [`mix_arrays`] over-approximates
//! Ultimate's builtin mix arrays. [`types`] recomputes the type of an IR expression. [`dot`] renders a lowered program as Graphviz and pretty-prints IR expressions and statements.

pub mod dot;
pub mod lambdas;
pub mod lower;
pub mod mix_arrays;
pub mod polymaps;
pub mod program;
pub mod records;
pub mod resolve;
pub mod typeck;
pub mod types;

pub use program::*;

use crate::diag::{Diagnostic, Span, has_errors};
use crate::syntax::ast;

/// Checks a parsed Boogie program and lowers it to the IR.
///
/// Returns `None` (and at least one error) if resolution or type checking failed; warnings may
/// accompany a `Some`. Never panics on any input. The passes recurse over the tree, so they run on a
/// thread with a stack large enough for the deepest tree the parser accepts (`syntax::MAX_DEPTH`).
///
/// The program returned is the one the engine reads: lambda expressions are lifted to functions
/// with axioms ([`lambdas`]), polymorphic maps become records of monomorphic
/// maps ([`polymaps`]), records are eliminated ([`records`]) and mix arrays over-approximated
/// ([`mix_arrays`]). [`check_surface`] stops before these rewrites.
pub fn check(ast: &ast::Program) -> (Option<Program>, Vec<Diagnostic>) {
    on_big_stack(|| check_inline(ast))
}

/// [`check`] without the rewrites: the lowered program as the source states it (records, mix
/// functions), whose expressions print as Boogie that parses again.
pub fn check_surface(ast: &ast::Program) -> (Option<Program>, Vec<Diagnostic>) {
    on_big_stack(|| check_surface_inline(ast))
}

fn on_big_stack<F>(run: F) -> (Option<Program>, Vec<Diagnostic>)
where
    F: Fn() -> (Option<Program>, Vec<Diagnostic>) + Send + Sync,
{
    const STACK: usize = 512 << 20;
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("boogie-check".to_string())
            .stack_size(STACK)
            .spawn_scoped(scope, &run);
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(result) => result,
                Err(payload) => std::panic::resume_unwind(payload),
            },
            // No thread available: check on the caller's stack.
            Err(_) => run(),
        }
    })
}

/// [`check`] on the caller's stack.
pub fn check_inline(ast: &ast::Program) -> (Option<Program>, Vec<Diagnostic>) {
    let (prog, diags) = check_surface_inline(ast);
    (
        prog.map(|p| {
            mix_arrays::over_approximate(records::eliminate(polymaps::monomorphize(lambdas::lift(
                p,
            ))))
        }),
        diags,
    )
}

/// [`check_surface`] on the caller's stack.
pub fn check_surface_inline(ast: &ast::Program) -> (Option<Program>, Vec<Diagnostic>) {
    let (env, mut diags) = resolve::resolve(ast);
    if has_errors(&diags) {
        return (None, diags);
    }
    let (typed, tdiags) = typeck::typecheck(env);
    diags.extend(tdiags);
    if has_errors(&diags) {
        return (None, diags);
    }
    let Some(typed) = typed else {
        return (None, diags);
    };
    let (prog, ldiags) = lower::lower(typed);
    diags.extend(ldiags);
    if has_errors(&diags) {
        return (None, diags);
    }
    (Some(prog), diags)
}

/// A duplicate-declaration diagnostic with a secondary label at the first declaration.
pub(crate) fn diag_dup(code: &'static str, what: &str, id: &ast::Ident, first: Span) -> Diagnostic {
    Diagnostic::error(
        code,
        format!("duplicate {what} `{}`", id.name),
        id.span,
        format!("`{}` redeclared here", id.name),
    )
    .with_secondary(first, "first declared here")
}

/// The checked program of the Boogie text `src` (unit tests; panics with the diagnostics).
#[cfg(test)]
pub(crate) fn test_program(src: &str) -> Program {
    let (ast, diags) = crate::syntax::parse(src);
    let ast = ast.unwrap_or_else(|| panic!("{diags:?}"));
    let (program, diags) = check(&ast);
    program.unwrap_or_else(|| panic!("{diags:?}"))
}
