//! Before parsing: ACSL assertions rewritten into calls, `gcc -E`, and the map from offsets in the
//! preprocessed text back to the C source.

use super::ints::Arch;
use crate::diag::Span;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The function an ACSL `//@ assert e;` becomes (`__lapidary_acsl_assert(e);`).
pub const ACSL_ASSERT: &str = "__lapidary_acsl_assert";

/// An annotation that cannot be translated: what, and the 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcslUnsupported {
    pub what: String,
    pub line: usize,
}

/// Rewrites every ACSL comment `//@ assert e;` / `/*@ assert e; */` into `__lapidary_acsl_assert(e);`
/// and `//@ ghost code` into `code` (same lines: a block comment's newlines are kept).
/// `\true`/`\false` become `1`/`0`, the connectives `==>` and `<==>` C (`connectives`). Any other
/// ACSL annotation (loop invariants, quantifiers, `\valid`, …) is reported: Ultimate checks those
/// too, so ignoring one could hide a violation.
pub fn rewrite_acsl(src: &str) -> Result<String, AcslUnsupported> {
    let bytes = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut line = 1;
    let mut last = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'"' | b'\'' => {
                let q = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(src.len(), |n| i + n);
                if bytes.get(i + 2) == Some(&b'@') {
                    let call = acsl_assert(&src[i + 3..end], line)?;
                    out.push_str(&src[last..i]);
                    out.push_str(&call);
                    last = end;
                }
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..].find("*/").map_or(src.len(), |n| i + 2 + n + 2);
                let body_end = end.saturating_sub(2).max(i + 3).min(src.len());
                if bytes.get(i + 2) == Some(&b'@') {
                    let call = acsl_assert(&src[i + 3..body_end], line)?;
                    out.push_str(&src[last..i]);
                    out.push_str(&call);
                    for _ in src[i..end].matches('\n') {
                        out.push('\n');
                    }
                    last = end;
                }
                line += src[i..end].matches('\n').count();
                i = end;
            }
            _ => i += 1,
        }
    }
    out.push_str(&src[last..]);
    Ok(out)
}

fn acsl_assert(body: &str, line: usize) -> Result<String, AcslUnsupported> {
    let unsupported = |what: &str| AcslUnsupported {
        what: what.to_string(),
        line,
    };
    let t = body.trim();
    if let Some(code) = t.strip_prefix("ghost") {
        // ghost code is C code that only the annotations read: executed as written
        if code.starts_with(char::is_whitespace) && !code.contains('\\') {
            return Ok(code.trim().to_string());
        }
        return Err(unsupported("ACSL ghost code"));
    }
    if t.starts_with("requires") || t.starts_with("ensures") {
        return contract(t, line);
    }
    let Some(rest) = t.strip_prefix("assert") else {
        let word: String = t
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return Err(unsupported(&format!("ACSL annotation `{word}`")));
    };
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '(' || c == '\\') {
        return Err(unsupported("ACSL annotation"));
    }
    let Some(expr) = rest.trim().strip_suffix(';') else {
        return Err(unsupported("ACSL assertion without `;`"));
    };
    let expr = expr.replace("\\true", "1").replace("\\false", "0");
    let Some(expr) = connectives(&expr) else {
        return Err(unsupported("ACSL logic in an assertion"));
    };
    if expr.contains('\\') || expr.contains(';') {
        return Err(unsupported("ACSL logic in an assertion"));
    }
    let expr = lone_equals_as_equality(&expr);
    if has_side_effect(&expr) {
        return Err(unsupported("ACSL assertion with an assignment"));
    }
    Ok(format!("{ACSL_ASSERT}({expr});"))
}

/// The function a contract becomes: `void __lapidary_contract(void) { __lapidary_requires(e);
/// __lapidary_ensures(f); }`, which the translation attaches to the next function.
pub const ACSL_CONTRACT: &str = "__lapidary_contract";
pub const ACSL_REQUIRES: &str = "__lapidary_requires";
pub const ACSL_ENSURES: &str = "__lapidary_ensures";
pub const ACSL_RESULT: &str = "__lapidary_result";
pub const ACSL_OLD: &str = "__lapidary_old";

/// `requires e; ensures f;` (continuation lines may start with `@`): each clause a pure C
/// expression, with `\result` and `\old(…)` in postconditions.
fn contract(t: &str, line: usize) -> Result<String, AcslUnsupported> {
    let unsupported = |what: &str| AcslUnsupported {
        what: what.to_string(),
        line,
    };
    let text: String = t
        .lines()
        .map(|l| l.trim().trim_start_matches('@').trim_end_matches('@'))
        .collect::<Vec<_>>()
        .join(" ");
    let mut calls = String::new();
    for clause in text.split(';').map(str::trim).filter(|c| !c.is_empty()) {
        let (f, e) = if let Some(e) = clause.strip_prefix("requires") {
            (ACSL_REQUIRES, e)
        } else if let Some(e) = clause.strip_prefix("ensures") {
            (ACSL_ENSURES, e)
        } else {
            return Err(unsupported("ACSL contract clause"));
        };
        if !e.starts_with(|c: char| c.is_whitespace() || c == '(' || c == '\\') {
            return Err(unsupported("ACSL contract clause"));
        }
        let e = e
            .replace("\\result", ACSL_RESULT)
            .replace("\\old", ACSL_OLD)
            .replace("\\true", "1")
            .replace("\\false", "0");
        let Some(e) = connectives(&e) else {
            return Err(unsupported("ACSL logic in a contract"));
        };
        let e = lone_equals_as_equality(&e);
        if e.contains('\\') || has_side_effect(&e) {
            return Err(unsupported("ACSL logic in a contract"));
        }
        calls.push_str(&format!(" {f}({});", e.trim()));
    }
    Ok(format!("void {ACSL_CONTRACT}(void) {{{calls} }}"))
}

/// Replaces every comment of a preprocessed (`.i`) file by spaces, keeping its line breaks, so
/// that every offset stays where it was: such a file is read without `gcc -E`, which would have
/// removed them, and lang-c does not accept comments. String and character literals are kept.
pub fn blank_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                // a literal up to its closing quote (or the line's end), escapes included
                out.push(q);
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' && i + 1 < b.len() {
                        out.push(b[i]);
                        i += 1;
                    }
                    out.push(b[i]);
                    i += 1;
                }
                if i < b.len() && b[i] == q {
                    out.push(q);
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out.push(b' ');
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.extend_from_slice(b"  ");
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
                if i < b.len() {
                    out.extend_from_slice(b"  ");
                    i += 2;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    // (Only ASCII bytes were replaced, by ASCII bytes: still UTF-8 — a multi-byte character in a
    // comment becomes one space per byte.)
    String::from_utf8(out).unwrap_or_else(|_| src.to_string())
}

/// Rewrites lang-c's gaps (tooling-notes §5) in preprocessed text where that keeps the meaning:
/// `__float128` (in glibc's i386 `max_align_t`) becomes `long double` — both floating-point types,
/// which the translation does not support, so a program using one is still unsupported. GCC's
/// 128-bit integer types `__int128` (and `__int128_t`, `__uint128_t`) become `long long long`,
/// which no C program can write and the translation reads as the 128-bit type.
pub fn rewrite_gaps(pre: &str) -> String {
    let pre = universal_character_names(pre);
    let pre = replace_word(&pre, "__float128", "long double");
    let pre = replace_word(&pre, "__int128", INT128);
    let pre = replace_word(&pre, "__int128_t", INT128);
    let pre = replace_word(&pre, "__uint128_t", &format!("unsigned {INT128}"));
    static_assert_message(&pre)
}

/// lang-c rejects universal character names (`\u00f6`, `\U0010ffff`, C11 6.4.3) in character
/// constants: in a constant with a prefix (`L'…'`, `u'…'`, `U'…'`), whose value is the code point,
/// each becomes the hex escape of the same value (`\xf6`). Plain constants (an
/// implementation-defined multibyte value) and string literals are left alone.
fn universal_character_names(pre: &str) -> String {
    let b = pre.as_bytes();
    let mut out = String::with_capacity(pre.len());
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                let prefixed = q == b'\''
                    && i > 0
                    && matches!(b[i - 1], b'L' | b'u' | b'U')
                    && !(i > 1 && (b[i - 2].is_ascii_alphanumeric() || b[i - 2] == b'_'));
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        let digits = match b.get(i + 1) {
                            Some(b'u') => 4,
                            Some(b'U') => 8,
                            _ => 0,
                        };
                        let hex = pre.get(i + 2..i + 2 + digits);
                        if prefixed
                            && digits > 0
                            && hex.is_some_and(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                        {
                            out.push_str(&pre[last..i]);
                            out.push_str("\\x");
                            out.push_str(hex.unwrap_or_default());
                            i += 2 + digits;
                            last = i;
                            continue;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&pre[last.min(pre.len())..]);
    out
}

/// The type specifiers that stand for GCC's `__int128` in rewritten text.
pub const INT128: &str = "long long long";

/// `_Static_assert(e)` (C23, no message; lang-c wants one) becomes `_Static_assert(e, "")`.
fn static_assert_message(pre: &str) -> String {
    let mut out = String::with_capacity(pre.len());
    let mut rest = pre;
    while let Some(i) = rest.find("_Static_assert") {
        let word_before = rest[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = &rest[i + 14..];
        out.push_str(&rest[..i + 14]);
        rest = after;
        let open = after.len() - after.trim_start().len();
        if word_before || !after[open..].starts_with('(') {
            continue;
        }
        // the matching `)`, and whether a comma stands at depth 1
        let (mut depth, mut comma, mut close) = (0usize, false, None);
        for (k, ch) in after.char_indices().skip(open) {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        close = Some(k);
                        break;
                    }
                }
                ',' if depth == 1 => comma = true,
                '"' | '\'' => {
                    comma = true; // a literal: leave the text alone
                    break;
                }
                _ => {}
            }
        }
        if let (Some(k), false) = (close, comma) {
            out.push_str(&after[..k]);
            out.push_str(", \"\"");
            rest = &after[k..];
        }
    }
    out.push_str(rest);
    out
}

/// `pre` with each occurrence of the identifier `word` (not part of a longer one) replaced.
fn replace_word(pre: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(pre.len());
    let mut rest = pre;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if ident(before) || ident(after) {
            word
        } else {
            with
        });
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether a C expression's text contains an assignment, `++` or `--` (ACSL terms are pure).
/// ACSL annotations are pure, so a lone `=` between two terms is read as the relation `==`, as
/// Ultimate's ACSL grammar reads it (`relation ::= … | EQUAL`, "added to produce better error
/// messages"): `//@ assert k = 4;` asserts `k == 4`. Compound assignments (`+=`, `<<=`, …) and
/// `++`/`--` are left as they are, so [`has_side_effect`] still rejects them.
fn lone_equals_as_equality(e: &str) -> String {
    let b = e.as_bytes();
    let mut out = String::with_capacity(e.len() + 4);
    for (i, c) in e.char_indices() {
        out.push(c);
        if c == '='
            && b.get(i + 1) != Some(&b'=')
            && !(i > 0 && b"=!<>+-*/%&|^".contains(&b[i - 1]))
        {
            out.push('=');
        }
    }
    out
}

/// ACSL's implication `a ==> b` (right-associative, below `||`) and equivalence `a <==> b` (left,
/// below `==>`) as C: `(!(a) || (b))` and `(!(a) == !(b))`, inside parentheses and arguments too.
/// `None` where a connective sits beside a conditional `?:` at the same level (whose precedence
/// relative to them this does not model) or the brackets do not balance.
fn connectives(e: &str) -> Option<String> {
    if !e.contains("==>") {
        return Some(e.to_string());
    }
    let iff = top_level(e, "<==>")?;
    let imp = top_level(e, "==>")?;
    if (!iff.is_empty() || !imp.is_empty()) && !top_level(e, "?")?.is_empty() {
        return None;
    }
    if !iff.is_empty() {
        let mut parts = Vec::new();
        let mut from = 0;
        for &i in &iff {
            parts.push(connectives(&e[from..i])?);
            from = i + 4;
        }
        parts.push(connectives(&e[from..])?);
        let mut acc = parts[0].trim().to_string();
        for p in &parts[1..] {
            acc = format!("(!({acc}) == !({}))", p.trim());
        }
        return Some(acc);
    }
    if let Some(&i) = imp.first() {
        let (a, b) = (connectives(&e[..i])?, connectives(&e[i + 3..])?);
        return Some(format!("(!({}) || ({}))", a.trim(), b.trim()));
    }
    // inside brackets: each top-level group, and each argument of a call
    let mut out = String::with_capacity(e.len() + 16);
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in e.char_indices() {
        match c {
            '(' | '[' => {
                if depth == 0 {
                    out.push_str(&e[start..=i]);
                    start = i + 1;
                }
                depth += 1;
            }
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    let inner: Option<Vec<String>> = split_top(&e[start..i])?
                        .iter()
                        .map(|a| connectives(a))
                        .collect();
                    out.push_str(&inner?.join(","));
                    start = i;
                }
            }
            _ => {}
        }
    }
    out.push_str(&e[start..]);
    Some(out)
}

/// The top-level positions of `pat` in `e` (outside brackets; `==>` not inside a longer `<==>`);
/// `None` when the brackets do not balance.
fn top_level(e: &str, pat: &str) -> Option<Vec<usize>> {
    let b = e.as_bytes();
    let (mut depth, mut at) = (0i32, Vec::new());
    for i in 0..b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
        if depth == 0 && e[i..].starts_with(pat) && !(pat == "==>" && i > 0 && b[i - 1] == b'<') {
            at.push(i);
        }
    }
    (depth == 0).then_some(at)
}

/// `e` split at its top-level commas (`None`: unbalanced brackets).
fn split_top(e: &str) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut from = 0;
    for i in top_level(e, ",")? {
        parts.push(&e[from..i]);
        from = i + 1;
    }
    parts.push(&e[from..]);
    Some(parts)
}

fn has_side_effect(e: &str) -> bool {
    let b = e.as_bytes();
    if e.contains("++") || e.contains("--") {
        return true;
    }
    (0..b.len()).any(|i| {
        b[i] == b'='
            && b.get(i + 1) != Some(&b'=')
            && !(i > 0 && matches!(b[i - 1], b'=' | b'!' | b'<' | b'>'))
    }) || e.contains("<<=")
        || e.contains(">>=")
}

/// Why preprocessing failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreprocessError {
    /// `gcc` cannot be started.
    NoCompiler(String),
    /// `gcc -E` rejected the input (its message).
    Failed(String),
}

/// Header files the ILP32 view of the (x86-64) system headers needs and the system lacks: the
/// caller writes them into a directory and passes it as `ilp32_include` (only the CLI writes files).
pub const ILP32_STUBS: &[(&str, &str)] = &[("gnu/stubs-32.h", "/* no stubs */\n")];

/// gcc options that make the x86-64 system headers describe ILP32 (i386): `long` and pointers of
/// 32 bits, `int64_t` as `long long`, `LONG_MAX` = 2^31-1. Without them a 32-bit `long` in the
/// translation would not match `int64_t`/`LONG_MAX` of the headers.
fn arch_flags(arch: Arch, ilp32_include: Option<&Path>) -> Vec<String> {
    match arch {
        Arch::Lp64 => Vec::new(),
        Arch::Ilp32 => {
            let mut f: Vec<String> = [
                "-U__x86_64__",
                "-U__x86_64",
                "-U__amd64__",
                "-U__amd64",
                "-U__LP64__",
                "-U_LP64",
                "-U__SIZEOF_INT128__",
                "-D__i386__=1",
                "-D__i386=1",
                "-Di386=1",
                "-D__ILP32__=1",
                "-U__LONG_MAX__",
                "-D__LONG_MAX__=2147483647L",
                "-U__SIZEOF_LONG__",
                "-D__SIZEOF_LONG__=4",
                "-U__SIZEOF_POINTER__",
                "-D__SIZEOF_POINTER__=4",
                "-U__SIZE_MAX__",
                "-D__SIZE_MAX__=4294967295UL",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            if let Some(dir) = ilp32_include {
                f.push("-idirafter".into());
                f.push(dir.display().to_string());
            }
            f
        }
    }
}

/// Runs `gcc -E` on `text` (the C file `path`, rewritten), with the file's directory as the place for
/// `#include "…"`. The output keeps line markers. `with_stddef` reads `<stddef.h>` first (see
/// [`undeclared_stddef_type`]).
pub fn gcc_e(
    path: &Path,
    text: &str,
    arch: Arch,
    ilp32_include: Option<&Path>,
    with_stddef: bool,
) -> Result<String, PreprocessError> {
    let mut args = vec!["-E".to_string(), "-w".to_string()];
    args.extend(arch_flags(arch, ilp32_include));
    if with_stddef {
        args.extend(["-include".to_string(), "stddef.h".to_string()]);
    }
    run_gcc(path, text, &args)
}

/// Is gcc's message about a type of `<stddef.h>` used without a declaration — `size_t` in a
/// declaration of `malloc` copied from glibc instead of `#include <stdlib.h>`? Ultimate's C front
/// end reads such files, so the translation reads them with `<stddef.h>` (only after this error,
/// so that a program's own `size_t` never clashes with the header's).
pub fn undeclared_stddef_type(msg: &str) -> bool {
    msg.contains("unknown type name")
        && ["size_t", "ptrdiff_t", "wchar_t"]
            .iter()
            .any(|t| msg.contains(&format!("‘{t}’")) || msg.contains(&format!("'{t}'")))
}

/// `gcc -fsyntax-only`: `Ok` if gcc accepts the file, else its message.
pub fn gcc_syntax_check(
    path: &Path,
    text: &str,
    arch: Arch,
    ilp32_include: Option<&Path>,
    with_stddef: bool,
) -> Result<(), PreprocessError> {
    // the file's validity, on the machine's own target (the ILP32 view of the headers is only
    // for the translation)
    let _ = (arch, ilp32_include);
    let mut args = vec!["-fsyntax-only".to_string(), "-w".to_string()];
    if with_stddef {
        args.extend(["-include".to_string(), "stddef.h".to_string()]);
    }
    run_gcc(path, text, &args).map(|_| ())
}

fn run_gcc(path: &Path, text: &str, args: &[String]) -> Result<String, PreprocessError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut child = Command::new("gcc")
        .args(args)
        .arg("-iquote")
        .arg(dir)
        .args(["-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| PreprocessError::NoCompiler(format!("cannot run gcc: {e}")))?;
    let input = text.as_bytes().to_vec();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&input);
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| PreprocessError::NoCompiler(format!("gcc failed: {e}")))?;
    let _ = writer.join();
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr)
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or("gcc rejected the file")
            .replace("<stdin>", &path.display().to_string());
        return Err(PreprocessError::Failed(msg));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Maps offsets of the preprocessed text to spans in the C source.
#[derive(Debug, Clone)]
pub struct SpanMap {
    /// Start offset of each line of the preprocessed text, and the source line (1-based) it comes
    /// from if that is the main file.
    pre_lines: Vec<(usize, Option<usize>)>,
    /// Start offset of each line of the C source.
    src_lines: Vec<usize>,
    src_len: usize,
    /// The preprocessed text is the source itself (a `.i` file): offsets are kept.
    identity: bool,
}

impl SpanMap {
    /// For text produced by `gcc -E` from `src`: line markers say which lines come from the main
    /// file (the first marker's file).
    pub fn from_markers(pre: &str, src: &str, identity: bool) -> SpanMap {
        let mut pre_lines = Vec::new();
        let mut main: Option<String> = None;
        let mut cur_file: Option<String> = None;
        let mut cur_line = 1usize;
        let mut off = 0;
        for l in pre.split_inclusive('\n') {
            if let Some((n, f)) = line_marker(l) {
                if main.is_none() {
                    main = Some(f.clone());
                }
                cur_file = Some(f);
                cur_line = n;
                pre_lines.push((off, None));
            } else {
                let in_main = main.is_none() || cur_file == main;
                pre_lines.push((off, in_main.then_some(cur_line)));
                cur_line += 1;
            }
            off += l.len();
        }
        let mut src_lines = vec![0];
        src_lines.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        SpanMap {
            pre_lines,
            src_lines,
            src_len: src.len(),
            identity,
        }
    }

    fn pre_line(&self, off: usize) -> Option<(usize, Option<usize>)> {
        let i = match self.pre_lines.binary_search_by(|(s, _)| s.cmp(&off)) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let (start, line) = self.pre_lines[i];
        Some((off - start, line))
    }

    /// Whether the offset lies in the main file (not in a header).
    pub fn in_main(&self, off: usize) -> bool {
        self.pre_line(off).is_some_and(|(_, l)| l.is_some())
    }

    fn src_offset(&self, off: usize) -> Option<usize> {
        if self.identity && self.src_len > 0 {
            return Some(off.min(self.src_len));
        }
        let (col, line) = self.pre_line(off)?;
        let line = line?;
        let start = *self.src_lines.get(line.checked_sub(1)?)?;
        let end = self
            .src_lines
            .get(line)
            .map_or(self.src_len, |e| e.saturating_sub(1));
        Some((start + col).min(end.max(start)))
    }

    /// The source span of the preprocessed range `start..end` (an empty span at 0 for header code).
    pub fn span(&self, start: usize, end: usize) -> Span {
        match self.src_offset(start) {
            Some(s) => {
                let e = self.src_offset(end).filter(|e| *e >= s).unwrap_or(s);
                Span::new(s, e)
            }
            None => Span::new(0, 0),
        }
    }
}

/// `# 12 "file.c" 1 3` → (12, "file.c").
fn line_marker(l: &str) -> Option<(usize, String)> {
    let rest = l.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    let n: usize = rest[..end].parse().ok()?;
    let rest = rest[end..].trim_start();
    let file = rest.strip_prefix('"')?;
    let close = file.find('"')?;
    Some((n, file[..close].to_string()))
}

/// The 1-based line of a byte offset in `src`.
pub fn line_of(src: &str, off: usize) -> usize {
    src.as_bytes()[..off.min(src.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universal_character_names_in_prefixed_constants_become_hex_escapes() {
        let src = r#"a = u'\u00F6'; b = U'\U0010FFFF'; c = L'\u00e4'; d = '\u00F6'; e = "\u00F6 u'\u00F6'"; f = xu'\u0041'; g = u'\\';"#;
        assert_eq!(
            universal_character_names(src),
            r#"a = u'\x00F6'; b = U'\x0010FFFF'; c = L'\x00e4'; d = '\u00F6'; e = "\u00F6 u'\u00F6'"; f = xu'\u0041'; g = u'\\';"#
        );
    }

    #[test]
    fn comments_of_preprocessed_files_become_spaces() {
        let src =
            "int a; // one\nchar *s = \"// no /* comment */\"; /* two\nlines */ int b = '/';\n";
        let out = blank_comments(src);
        assert_eq!(
            out,
            "int a;       \nchar *s = \"// no /* comment */\";       \n         int b = '/';\n"
        );
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn acsl_asserts_become_calls() {
        let src = "int x;\n  //@ assert x == 1;\n/*@ assert \\false;\n */ x++;\n// //@ assert y;\n";
        let out = rewrite_acsl(src).expect("rewritten");
        assert_eq!(
            out,
            "int x;\n  __lapidary_acsl_assert(x == 1);\n__lapidary_acsl_assert(0);\n x++;\n// //@ assert y;\n"
        );
    }

    #[test]
    fn other_acsl_is_reported() {
        let e = rewrite_acsl("int x;\n//@ loop invariant x >= 0;\n").expect_err("invariant");
        assert_eq!(e.line, 2);
        assert_eq!(
            rewrite_acsl("//@ ghost int i = 0;\n").expect("ghost"),
            "int i = 0;\n"
        );
        assert!(rewrite_acsl("//@ assert \\forall int i; i == i;\n").is_err());
        assert_eq!(
            rewrite_acsl("//@ assert x > 0 ==> y > 0 ==> z;\n").expect("implication"),
            "__lapidary_acsl_assert((!(x > 0) || ((!(y > 0) || (z)))));\n"
        );
        assert_eq!(
            rewrite_acsl("//@ assert a <==> b || c ==> d;\n").expect("equivalence"),
            "__lapidary_acsl_assert((!(a) == !((!(b || c) || (d)))));\n"
        );
        assert_eq!(
            rewrite_acsl("//@ assert (p ==> q) && f(x, y ==> z);\n").expect("nested"),
            "__lapidary_acsl_assert(((!(p) || (q))) && f(x,(!(y) || (z))));\n"
        );
        assert!(rewrite_acsl("//@ assert x ? y : z ==> w;\n").is_err());
        assert!(rewrite_acsl("//@ assert (x ==> y;\n").is_err());
        assert_eq!(
            rewrite_acsl("//@ assert k = 4 && j <= 2;\n").expect("equality"),
            "__lapidary_acsl_assert(k == 4 && j <= 2);\n"
        );
        assert!(rewrite_acsl("//@ assert k += 4;\n").is_err());
        assert!(rewrite_acsl("//@ assert k <<= 4;\n").is_err());
        assert!(rewrite_acsl("//@ assert k++ == 4;\n").is_err());
        assert_eq!(
            rewrite_acsl(
                "/*@ requires (g > i);\n  @ ensures \\result >= \\old(g);\n  @*/\nint f(int i);\n"
            )
            .expect("contract"),
            "void __lapidary_contract(void) { __lapidary_requires((g > i)); \
             __lapidary_ensures(__lapidary_result >= __lapidary_old(g)); }\n\n\nint f(int i);\n"
        );
        assert!(rewrite_acsl("//@ assert k <= 4 && k >= 1 && k != 2 && k == 3;\n").is_ok());
        assert!(rewrite_acsl("char *s = \"//@ ghost\";\n").is_ok());
        // unterminated annotations at the end of the file do not panic
        for src in ["/*@", "/*@ a", "//@", "x /*@ assert 1; *"] {
            let _ = rewrite_acsl(src);
        }
    }

    #[test]
    fn gaps_are_rewritten() {
        assert_eq!(
            rewrite_gaps("_Static_assert(f(1, 2) == 3); _Static_assert(1, \"m\"); __float128 x;"),
            "_Static_assert(f(1, 2) == 3, \"\"); _Static_assert(1, \"m\"); long double x;"
        );
        assert_eq!(rewrite_gaps("my__float128 y;"), "my__float128 y;");
        assert_eq!(
            rewrite_gaps("unsigned __int128 x; __int128_t y; __uint128_t z; my__int128 w;"),
            "unsigned long long long x; long long long y; unsigned long long long z; my__int128 w;"
        );
    }

    #[test]
    fn markers_map_back_to_source_lines() {
        let pre = "# 1 \"<stdin>\"\n# 1 \"h.h\" 1\nint h;\n# 2 \"<stdin>\" 2\nint x;\n";
        let src = "#include \"h.h\"\nint x;\n";
        let m = SpanMap::from_markers(pre, src, false);
        let off = pre.find("int x").expect("x");
        assert_eq!(m.span(off, off + 5), Span::new(15, 20));
        let h = pre.find("int h").expect("h");
        assert!(!m.in_main(h));
        assert!(m.in_main(off));
    }
}
