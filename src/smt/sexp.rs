//! S-expression reading for solver replies.
//!
//! Two parts:
//! - [`Splitter`]: an incremental, byte-oriented scanner that finds where each complete top-level
//!   s-expression ends in a stream of solver output. It carries string (`"…"` with `""` escapes),
//!   quoted-symbol (`|…|`) and comment state across chunk boundaries, so multi-line strings and symbols
//!   never desynchronise it (the easy-smt line reader deadlocks on those, tooling notes §2 gotcha 3).
//! - [`parse`]: turns the text of one or more s-expressions into [`SExp`] trees.

use std::fmt;

/// A parsed s-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExp {
    /// An unquoted token: symbol, keyword (`:named`), numeral, decimal, `#x…`/`#b…`.
    Atom(String),
    /// A `|quoted|` symbol, content without bars.
    Quoted(String),
    /// A string literal, with `""` unescaped.
    Str(String),
    List(Vec<SExp>),
}

impl SExp {
    /// The symbol name for `Atom` and `Quoted`.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            SExp::Atom(s) | SExp::Quoted(s) => Some(s),
            _ => None,
        }
    }
    pub fn atom(&self) -> Option<&str> {
        match self {
            SExp::Atom(s) => Some(s),
            _ => None,
        }
    }
    pub fn list(&self) -> Option<&[SExp]> {
        match self {
            SExp::List(l) => Some(l),
            _ => None,
        }
    }
    /// Whether this is `(error "…")`; returns the message.
    pub fn as_error(&self) -> Option<String> {
        match self {
            SExp::List(l) if l.first().and_then(SExp::atom) == Some("error") => Some(
                l.get(1)
                    .map(|m| match m {
                        SExp::Str(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_default(),
            ),
            _ => None,
        }
    }
}

impl fmt::Display for SExp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SExp::Atom(s) => f.write_str(s),
            SExp::Quoted(s) => write!(f, "|{s}|"),
            SExp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            SExp::List(l) => {
                f.write_str("(")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Normal,
    Str,
    Quoted,
    Comment,
    Atom,
}

/// Incremental splitter of a byte stream into complete top-level s-expressions.
#[derive(Debug)]
pub struct Splitter {
    buf: Vec<u8>,
    /// Next byte to scan.
    pos: usize,
    /// Start of the current top-level expression, if one has begun.
    start: Option<usize>,
    depth: usize,
    state: State,
}

impl Default for Splitter {
    fn default() -> Self {
        Self::new()
    }
}

impl Splitter {
    pub fn new() -> Splitter {
        Splitter {
            buf: Vec::with_capacity(4096),
            pos: 0,
            start: None,
            depth: 0,
            state: State::Normal,
        }
    }
    pub fn push(&mut self, data: &[u8]) {
        self.buf.extend_from_slice(data);
    }
    /// Bytes received but not yet returned (for error messages).
    pub fn pending_text(&self) -> String {
        String::from_utf8_lossy(&self.buf).into_owned()
    }
    pub fn clear(&mut self) {
        self.buf.clear();
        self.pos = 0;
        self.start = None;
        self.depth = 0;
        self.state = State::Normal;
    }
    fn take(&mut self, end: usize) -> String {
        let start = self.start.take().unwrap_or(0);
        let text = String::from_utf8_lossy(&self.buf[start..end]).into_owned();
        self.buf.drain(..end);
        self.pos = 0;
        self.depth = 0;
        self.state = State::Normal;
        text
    }
    /// The next complete top-level s-expression, if the buffer holds one.
    pub fn next_expr(&mut self) -> Option<String> {
        while self.pos < self.buf.len() {
            let c = self.buf[self.pos];
            match self.state {
                State::Comment => {
                    if c == b'\n' {
                        self.state = State::Normal;
                    }
                    self.pos += 1;
                }
                State::Str => {
                    if c == b'"' {
                        if self.pos + 1 >= self.buf.len() {
                            return None; // cannot tell `""` from the end of the string yet
                        }
                        if self.buf[self.pos + 1] == b'"' {
                            self.pos += 2;
                            continue;
                        }
                        self.pos += 1;
                        self.state = State::Normal;
                        if self.depth == 0 {
                            return Some(self.take(self.pos));
                        }
                    } else {
                        self.pos += 1;
                    }
                }
                State::Quoted => {
                    self.pos += 1;
                    if c == b'|' {
                        self.state = State::Normal;
                        if self.depth == 0 {
                            return Some(self.take(self.pos));
                        }
                    }
                }
                State::Atom => {
                    if c.is_ascii_whitespace() || c == b'(' || c == b')' || c == b'"' || c == b';' {
                        // top-level atom ends before this byte
                        return Some(self.take(self.pos));
                    }
                    self.pos += 1;
                }
                State::Normal => {
                    if self.depth == 0 && self.start.is_none() {
                        if c.is_ascii_whitespace() {
                            // drop leading whitespace eagerly
                            self.buf.drain(..=self.pos);
                            self.pos = 0;
                            continue;
                        }
                        if c == b';' {
                            self.state = State::Comment;
                            self.pos += 1;
                            continue;
                        }
                        self.start = Some(self.pos);
                        match c {
                            b'(' => self.depth = 1,
                            b'"' => self.state = State::Str,
                            b'|' => self.state = State::Quoted,
                            b')' => {
                                self.pos += 1;
                                return Some(self.take(self.pos));
                            }
                            _ => self.state = State::Atom,
                        }
                        self.pos += 1;
                        continue;
                    }
                    self.pos += 1;
                    match c {
                        b'(' => self.depth += 1,
                        b')' => {
                            self.depth = self.depth.saturating_sub(1);
                            if self.depth == 0 {
                                return Some(self.take(self.pos));
                            }
                        }
                        b'"' => self.state = State::Str,
                        b'|' => self.state = State::Quoted,
                        b';' => self.state = State::Comment,
                        _ => {}
                    }
                }
            }
        }
        None
    }
}

/// Parse error with position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SExpError(pub String);

impl fmt::Display for SExpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses all s-expressions in `text`.
pub fn parse(text: &str) -> Result<Vec<SExp>, SExpError> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut stack: Vec<Vec<SExp>> = vec![Vec::new()];
    while i < b.len() {
        let c = b[i];
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                stack.push(Vec::new());
                i += 1;
            }
            b')' => {
                if stack.len() < 2 {
                    return Err(SExpError(format!(
                        "unbalanced ')' at byte {i} in {}",
                        excerpt(text)
                    )));
                }
                let l = stack.pop().unwrap_or_default();
                if let Some(top) = stack.last_mut() {
                    top.push(SExp::List(l));
                }
                i += 1;
            }
            b'"' => {
                let mut s = Vec::new();
                i += 1;
                loop {
                    if i >= b.len() {
                        return Err(SExpError(format!(
                            "unterminated string in {}",
                            excerpt(text)
                        )));
                    }
                    if b[i] == b'"' {
                        if i + 1 < b.len() && b[i + 1] == b'"' {
                            s.push(b'"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    s.push(b[i]);
                    i += 1;
                }
                push(
                    &mut stack,
                    SExp::Str(String::from_utf8_lossy(&s).into_owned()),
                );
            }
            b'|' => {
                let st = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'|' {
                    i += 1;
                }
                if i >= b.len() {
                    return Err(SExpError(format!(
                        "unterminated |symbol| in {}",
                        excerpt(text)
                    )));
                }
                push(&mut stack, SExp::Quoted(text[st..i].to_string()));
                i += 1;
            }
            _ => {
                let st = i;
                while i < b.len() {
                    let c = b[i];
                    if c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'"' | b'|' | b';') {
                        break;
                    }
                    i += 1;
                }
                push(&mut stack, SExp::Atom(text[st..i].to_string()));
            }
        }
    }
    if stack.len() != 1 {
        return Err(SExpError(format!("unbalanced '(' in {}", excerpt(text))));
    }
    Ok(stack.pop().unwrap_or_default())
}

fn push(stack: &mut [Vec<SExp>], e: SExp) {
    if let Some(top) = stack.last_mut() {
        top.push(e);
    }
}

/// Parses exactly one s-expression.
pub fn parse_one(text: &str) -> Result<SExp, SExpError> {
    let mut v = parse(text)?;
    if v.len() != 1 {
        return Err(SExpError(format!(
            "expected one s-expression, found {}: {}",
            v.len(),
            excerpt(text)
        )));
    }
    Ok(v.remove(0))
}

pub(crate) fn excerpt(s: &str) -> String {
    const MAX: usize = 300;
    if s.len() <= MAX {
        s.to_string()
    } else {
        let mut end = MAX;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitter_handles_chunks_strings_and_symbols() {
        let mut s = Splitter::new();
        s.push(b"sat\nuns");
        assert_eq!(s.next_expr().as_deref(), Some("sat"));
        assert_eq!(s.next_expr(), None);
        s.push(b"at\n(error \"a\nb)\"\"");
        assert_eq!(s.next_expr().as_deref(), Some("unsat"));
        assert_eq!(s.next_expr(), None);
        s.push(b"c\")\n(|a)\nb| ; x)\n 1)\n");
        assert_eq!(s.next_expr().as_deref(), Some("(error \"a\nb)\"\"c\")"));
        assert_eq!(s.next_expr().as_deref(), Some("(|a)\nb| ; x)\n 1)"));
        assert_eq!(s.next_expr(), None);
    }

    #[test]
    fn parse_basic() {
        let v = parse("(a |b c| \"x\"\"y\" (1 #x0f)) :k").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].to_string(), "(a |b c| \"x\"\"y\" (1 #x0f))");
        assert_eq!(v[1], SExp::Atom(":k".into()));
        assert!(parse("(a").is_err());
        assert_eq!(
            parse_one("(error \"boom\")").unwrap().as_error().as_deref(),
            Some("boom")
        );
    }
}
