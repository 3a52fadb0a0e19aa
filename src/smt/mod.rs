//! Terms, SMT-LIB sessions over pipes, and the solver back ends (z3, yices, cvc5).
//!
//! Layers, bottom up:
//! - [`term`]: hash-consed [`Term`]s with sorts, variables, uninterpreted functions; substitution,
//!   renaming, free variables (cached);
//! - [`print`] / [`parse`] / [`sexp`]: SMT-LIB text out (symbol quoting, `(- 5)`, `(/ 1.0 2.0)`) and in
//!   (paren-, string- and `|symbol|`-aware reader, `let`, quantifiers);
//! - [`simplify()`](simplify::simplify), [`eval`](simplify::eval), [`qe_light`](qe::qe_light): solver-free
//!   normalisation, evaluation and partial quantifier elimination;
//! - [`config`] / [`session`]: solver discovery and robust incremental [`Session`]s (watchdog, restart
//!   and replay, lazy error detection, logging).

pub mod bench;
pub mod config;
pub mod error;
pub mod parse;
pub mod print;
mod process;
pub mod qe;
pub mod session;
pub mod sexp;
pub mod simplify;
pub mod term;

pub use bench::{BenchReport, bench_smt};
pub use config::{SolverConfig, SolverKind, discover, resolve_path};
pub use error::SmtError;
pub use parse::{ParseEnv, ParseError, parse_term, sexp_to_term};
pub use print::{is_simple_symbol, quote_symbol};
pub use qe::qe_light;
pub use session::{SatResult, Session, SessionStats};
pub use simplify::{eval, simplify};
pub use term::{
    FuncDecl, Op, Quantifier, Sort, Symbols, Term, TermKind, Value, Var, fresh_var, rat,
};
