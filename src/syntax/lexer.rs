//! The Boogie lexer: a [`logos`] tokenizer wrapped in an iterator that feeds the LALRPOP parser.
//!
//! Lexical rules follow Ultimate's `Boogie.flex` (see docs, ultimate-design-notes §1.1):
//! - `//` and (non-nested) `/* */` comments and whitespace are skipped;
//! - identifiers are `Letter (Letter | Digit)*` where `Letter` is any Unicode letter or one of
//!   `' ~ # $ ^ _ . ? \` and `Digit` any Unicode decimal digit (so `ULTIMATE.start`, `#res`, `~x`,
//!   `x'`, `$p` are identifiers);
//! - keywords are exactly those of Ultimate's lexer (design notes §1.1); Boogie 2's `div`, `mod` and
//!   `lambda` are not keywords there, so they are identifiers (`/` and `%` are integer division and
//!   modulus on `int`); right after an operand, where no identifier can stand, `div` and `mod` are
//!   the operator tokens [`Tok::DivWord`] and [`Tok::ModWord`] (Boogie 2's operators), and
//!   `lambda` right after `(` and before a binder `x:` or `x,` is [`Tok::LambdaWord`];
//! - literals: decimal integers `0 | [1-9][0-9]*` (a leading zero, as in `007`, is the lexical error
//!   `LeadingZero`), reals `DEC.[0-9]+`, bit-vector literals `DECbvN`, bit-vector types `bv32`,
//!   strings (attribute arguments only) in which `\t \n \r \"` are escapes and any other backslash
//!   stands for itself (as in Ultimate's lexer);
//! - the Unicode aliases `∀ ∃ ≔ ≤ ≥ ≠ ¬ ∧ ∨ ⇒ ⇐ ⇔ •` produce the same tokens as their ASCII forms;
//! - `{` followed by optional whitespace/comments and `:` is the single attribute-opener token `{:`.
//!
//! The iterator [`Lexer`] yields `Result<(usize, Tok, usize), LexError>` as LALRPOP's external-lexer
//! interface expects. Lexing never panics; malformed input becomes a [`LexError`] carrying its span.

use logos::{FilterResult, Logos};

use crate::diag::Span;

/// What went wrong while lexing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LexErrorKind {
    /// A character that starts no token.
    #[default]
    InvalidChar,
    /// `/*` without a matching `*/`.
    UnterminatedComment,
    /// `"` without a closing quote on the same line.
    UnterminatedString,
    /// `bvN` / `NbvM` whose width is missing or does not fit in 32 bits.
    BadBvWidth,
    /// A number written with a leading zero (`007`): Ultimate's integer literals are `0` or start with
    /// 1–9.
    LeadingZero,
}

/// A lexical error and the byte range where it occurred.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub span: Span,
}

/// A token. Payloads borrow from the source where possible.
#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(error = LexErrorKind)]
#[logos(skip r"[ \t\r\n\f\u{feff}]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum Tok<'input> {
    /// `/* … */`: always skipped (or reported as unterminated), never yielded.
    #[token("/*", block_comment)]
    BlockComment,

    // ----- keywords -----
    #[token("type")]
    Type,
    #[token("const")]
    Const,
    #[token("function")]
    Function,
    #[token("axiom")]
    Axiom,
    #[token("var")]
    Var,
    #[token("procedure")]
    Procedure,
    #[token("implementation")]
    Implementation,
    #[token("finite")]
    Finite,
    #[token("unique")]
    Unique,
    #[token("complete")]
    Complete,
    #[token("returns")]
    Returns,
    #[token("where")]
    Where,
    #[token("free")]
    Free,
    #[token("ensures")]
    Ensures,
    #[token("requires")]
    Requires,
    #[token("modifies")]
    Modifies,
    #[token("invariant")]
    Invariant,
    #[token("assume")]
    Assume,
    #[token("assert")]
    Assert,
    #[token("havoc")]
    Havoc,
    #[token("async")]
    Async,
    #[token("call")]
    Call,
    #[token("fork")]
    Fork,
    #[token("join")]
    Join,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("break")]
    Break,
    #[token("return")]
    Return,
    #[token("goto")]
    Goto,
    #[token("atomic")]
    Atomic,
    #[token("assign")]
    AssignKw,
    #[token("old")]
    Old,
    #[token("forall")]
    #[token("∀")]
    Forall,
    #[token("exists")]
    #[token("∃")]
    Exists,
    #[token("bool")]
    Bool,
    #[token("int")]
    Int,
    #[token("real")]
    Real,
    #[token("false")]
    False,
    #[token("true")]
    True,

    // ----- operators and punctuation -----
    #[token(":=")]
    #[token("≔")]
    Assign,
    #[token("=")]
    Eq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    #[token("≠")]
    Neq,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    #[token("≤")]
    Le,
    #[token(">=")]
    #[token("≥")]
    Ge,
    #[token("<:")]
    Subtype,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    #[token("¬")]
    Not,
    #[token("&&")]
    #[token("∧")]
    And,
    #[token("||")]
    #[token("∨")]
    Or,
    #[token("==>")]
    #[token("⇒")]
    Implies,
    #[token("<==")]
    #[token("⇐")]
    Explies,
    #[token("<==>")]
    #[token("⇔")]
    Iff,
    #[token("::")]
    #[token("•")]
    ColonColon,
    #[token("++")]
    Concat,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    /// `{:` — produced by [`Lexer`], never by logos directly.
    LBraceColon,
    /// `div` right after an operand (an identifier, a literal, `)` or `]`): Boogie 2's integer
    /// division. Elsewhere `div` is an identifier, as in Ultimate's lexer (a function may be named
    /// `div`); produced by [`Lexer`], not by logos.
    DivWord,
    /// `mod` right after an operand, like [`Tok::DivWord`].
    ModWord,
    /// `lambda` right after `(` and before a binder `x:` or `x,` (`(lambda x: int :: e)`, Boogie 2's
    /// lambda expression); elsewhere `lambda` is an identifier, as in Ultimate's lexer. Produced by
    /// [`Lexer`].
    LambdaWord,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,

    // ----- literals and identifiers -----
    /// `0` or `[1-9][0-9]*` (Ultimate's `DecIntegerLiteral`).
    #[regex(r"0|[1-9][0-9]*")]
    IntLit(&'input str),
    /// `DEC.[0-9]+`.
    #[regex(r"(0|[1-9][0-9]*)\.[0-9]+")]
    RealLit(&'input str),
    /// `5bv32`, as written; the width is validated by the lexer.
    #[regex(r"(0|[1-9][0-9]*)bv[0-9]*", bv_literal)]
    BvLit(&'input str),
    /// A number with a leading zero (`007`, `00.5`, `01bv8`): not a literal of Ultimate's dialect,
    /// reported as an error instead of being read as `0` followed by `07`.
    #[regex(r"0[0-9]+(\.[0-9]+|bv[0-9]*)?", leading_zero)]
    LeadingZero,
    /// `bv32`: the width, `bv` followed by `DEC` (`bv032` is longer as an identifier, and one).
    #[regex(r"bv(0|[1-9][0-9]*)", bv_type, priority = 10)]
    BvType(u32),
    #[token("\"", string_literal)]
    Str(String),
    #[regex(r"[\p{L}'~#$^_.?\\][\p{L}\p{Nd}'~#$^_.?\\]*")]
    Ident(&'input str),
}

fn leading_zero<'a>(_: &mut logos::Lexer<'a, Tok<'a>>) -> Result<(), LexErrorKind> {
    Err(LexErrorKind::LeadingZero)
}

fn block_comment<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> FilterResult<(), LexErrorKind> {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            FilterResult::Skip
        }
        None => {
            lex.bump(rest.len());
            FilterResult::Error(LexErrorKind::UnterminatedComment)
        }
    }
}

fn parse_width(digits: &str) -> Result<u32, LexErrorKind> {
    if digits.is_empty() {
        return Err(LexErrorKind::BadBvWidth);
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(LexErrorKind::LeadingZero); // `5bv08`: the width is a `DEC` too
    }
    digits.parse::<u32>().map_err(|_| LexErrorKind::BadBvWidth)
}

fn bv_literal<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> Result<&'a str, LexErrorKind> {
    let s = lex.slice();
    let (_, width) = s.split_once("bv").ok_or(LexErrorKind::BadBvWidth)?;
    parse_width(width)?;
    Ok(s)
}

fn bv_type<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> Result<u32, LexErrorKind> {
    parse_width(&lex.slice()[2..])
}

fn string_literal<'a>(lex: &mut logos::Lexer<'a, Tok<'a>>) -> Result<String, LexErrorKind> {
    // As Ultimate's lexer: `\t \n \r \"` are escapes; any other backslash stands for itself.
    let rest = lex.remainder();
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                lex.bump(i + 1);
                return Ok(out);
            }
            '\n' => {
                lex.bump(i);
                return Err(LexErrorKind::UnterminatedString);
            }
            '\\' => {
                let escaped = match chars.peek() {
                    Some((_, 't')) => Some('\t'),
                    Some((_, 'n')) => Some('\n'),
                    Some((_, 'r')) => Some('\r'),
                    Some((_, '"')) => Some('"'),
                    _ => None,
                };
                match escaped {
                    Some(e) => {
                        chars.next();
                        out.push(e);
                    }
                    None => out.push('\\'),
                }
            }
            c => out.push(c),
        }
    }
    lex.bump(rest.len());
    Err(LexErrorKind::UnterminatedString)
}

/// Skips whitespace and comments at the start of `s`; returns the number of bytes skipped, or `None` if
/// an unterminated block comment was reached.
fn skip_trivia(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0c') => i += 1,
            Some(b'/') if bytes.get(i + 1) == Some(&b'/') => match s[i..].find('\n') {
                Some(n) => i += n + 1,
                None => i = s.len(),
            },
            Some(b'/') if bytes.get(i + 1) == Some(&b'*') => {
                let n = s[i + 2..].find("*/")?;
                i += 2 + n + 2;
            }
            _ => return Some(i),
        }
    }
}

/// The token stream of a source text, in the form LALRPOP's external-lexer interface expects.
pub struct Lexer<'input> {
    inner: logos::Lexer<'input, Tok<'input>>,
    /// Did the previous token end an operand (so that `div`/`mod` is an operator)?
    after_operand: bool,
    /// Was the previous token `(` (so that `lambda` before an identifier is a binder)?
    after_lparen: bool,
}

impl<'input> Lexer<'input> {
    pub fn new(src: &'input str) -> Self {
        Lexer {
            inner: Tok::lexer(src),
            after_operand: false,
            after_lparen: false,
        }
    }
}

impl Lexer<'_> {
    /// Does a binder follow (after whitespace and comments): an identifier and then `:` or `,`
    /// (`x: int`, `x, y: int`)?
    fn binder_follows(&self) -> bool {
        let is_ident = |c: char| c.is_alphanumeric() || "'~#$^_.?\\".contains(c);
        let rest = self.inner.remainder();
        let Some(n) = skip_trivia(rest) else {
            return false;
        };
        let rest = &rest[n..];
        if !rest.starts_with(|c: char| is_ident(c) && !c.is_ascii_digit()) {
            return false;
        }
        let rest = rest.trim_start_matches(is_ident);
        let Some(n) = skip_trivia(rest) else {
            return false;
        };
        let rest = &rest[n..];
        rest.starts_with(',')
            || (rest.starts_with(':') && !rest.starts_with("::") && !rest.starts_with(":="))
    }
}

/// Does `t` end an operand: after it, an identifier `div` or `mod` can only be an operator (no
/// other construct puts an identifier right after an expression, except `fork tid P(…)`, where a
/// procedure named `div` or `mod` must follow a parenthesised id, and a type-constructor
/// application, where a type named `div` or `mod` cannot be an argument: `Field div`).
fn ends_operand(t: &Tok<'_>) -> bool {
    matches!(
        t,
        Tok::Ident(_)
            | Tok::IntLit(_)
            | Tok::RealLit(_)
            | Tok::BvLit(_)
            | Tok::True
            | Tok::False
            | Tok::RParen
            | Tok::RBracket
    )
}

impl<'input> Iterator for Lexer<'input> {
    type Item = Result<(usize, Tok<'input>, usize), LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        let tok = self.inner.next()?;
        let range = self.inner.span();
        let after_operand = std::mem::replace(
            &mut self.after_operand,
            tok.as_ref().is_ok_and(ends_operand),
        );
        let after_lparen =
            std::mem::replace(&mut self.after_lparen, matches!(tok, Ok(Tok::LParen)));
        match tok {
            Ok(Tok::Ident("lambda")) if after_lparen && self.binder_follows() => {
                self.after_operand = false;
                Some(Ok((range.start, Tok::LambdaWord, range.end)))
            }
            Ok(Tok::Ident("div")) if after_operand => {
                self.after_operand = false;
                Some(Ok((range.start, Tok::DivWord, range.end)))
            }
            Ok(Tok::Ident("mod")) if after_operand => {
                self.after_operand = false;
                Some(Ok((range.start, Tok::ModWord, range.end)))
            }
            Ok(Tok::LBrace) => {
                let rest = self.inner.remainder();
                if let Some(n) = skip_trivia(rest)
                    && rest[n..].starts_with(':')
                    && !rest[n..].starts_with("::")
                    && !rest[n..].starts_with(":=")
                {
                    self.inner.bump(n + 1);
                    return Some(Ok((range.start, Tok::LBraceColon, range.start + n + 2)));
                }
                Some(Ok((range.start, Tok::LBrace, range.end)))
            }
            Ok(t) => Some(Ok((range.start, t, range.end))),
            Err(kind) => {
                // Report an invalid character as exactly one character, not as a byte.
                let end = if kind == LexErrorKind::InvalidChar {
                    let src = self.inner.source();
                    let len = src[range.start..].chars().next().map_or(1, char::len_utf8);
                    range.start + len
                } else {
                    range.end
                };
                Some(Err(LexError {
                    kind,
                    span: Span::new(range.start, end.max(range.end)),
                }))
            }
        }
    }
}
