//! The verification IR (see [`program`]) and the Boogie front end's checking and lowering passes.

pub mod program;

pub use program::*;
