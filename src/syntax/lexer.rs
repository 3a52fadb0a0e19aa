//! The logos lexer feeding the LALRPOP parser (placeholder).

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Eof,
}
