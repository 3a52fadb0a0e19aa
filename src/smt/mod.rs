//! Terms, SMT-LIB sessions over pipes, and the solver back ends (z3, yices, cvc5).
//!
//! Layers, bottom up:
//! - [`term`]: hash-consed [`Term`]s with sorts, variables, uninterpreted functions; substitution,
//!   renaming, free variables (cached);
//! - [`print`] / [`parse`] / [`sexp`]: SMT-LIB text out (symbol quoting, `(- 5)`, `(/ 1.0 2.0)`) and in
//!   (paren-, string- and `|symbol|`-aware reader, `let`, quantifiers);
//! - [`simplify()`](simplify::simplify), [`eval`](simplify::eval), [`qe_light`](qe::qe_light): solver-free
//!   normalisation, evaluation and partial quantifier elimination.

pub mod parse;
pub mod print;
pub mod qe;
pub mod sexp;
pub mod simplify;
pub mod term;

pub use parse::{ParseEnv, ParseError, parse_term, sexp_to_term};
pub use print::{is_simple_symbol, quote_symbol};
pub use qe::qe_light;
pub use simplify::{eval, simplify};
pub use term::{
    FuncDecl, Op, Quantifier, Sort, Symbols, Term, TermKind, Value, Var, fresh_var, rat,
};
