//! Lapidary: a software verifier based on trace abstraction.
//!
//! Modules in pipeline order, dependencies one way: `syntax` → `ir` → `smt` → `automata` → `engine` →
//! `cli`; the C front end `cfront` (C → `syntax::ast`) sits beside `syntax` and only `cli` uses it.
//! See docs/ARCHITECTURE.md.

pub mod automata;
pub mod cancel;
pub mod cfront;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod ir;
pub mod smt;
pub mod syntax;
