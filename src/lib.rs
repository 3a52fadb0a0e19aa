//! Lapidary: a software verifier based on trace abstraction.
//!
//! Modules in pipeline order, dependencies one way: `syntax` → `ir` → `smt` → `automata` → `engine` →
//! `cli`. See docs/ARCHITECTURE.md.

pub mod automata;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod ir;
pub mod smt;
pub mod syntax;
