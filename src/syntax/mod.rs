//! Lexing and parsing of Boogie (Ultimate's dialect) into the parse tree of [`ast`].

pub mod ast;
pub mod lexer;

#[allow(clippy::all, unused, dead_code, unused_qualifications)]
#[rustfmt::skip]
mod boogie {
    lalrpop_util::lalrpop_mod!(pub grammar, "/boogie.rs");
}
