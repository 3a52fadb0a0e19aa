//! The string functions of `<string.h>` (C11 7.24) as loops over the characters in memory.
//!
//! What it computes: each call becomes a Boogie `while` loop at the call site that walks the
//! characters one at a time, with the ordinary access check of every character read or written
//! (`valid-deref`): a string without its terminating null inside its object is a memory-safety
//! violation found by the loop, exactly where a real implementation would read past the end.
//! Nothing is over-approximated (unlike Ultimate, which havocs the result of `strlen` and
//! `strcmp`), so the verdicts a program's strings decide stay decided.
//!
//! - `strlen(s)`, `strnlen(s, n)`: the number of characters before the first null (at most `n`).
//! - `strcmp(a, b)`, `strncmp(a, b, n)`: characters compared as `unsigned char` (7.24.4p1) up to
//!   the first difference or null (or `n` characters); the result is 0 for equal strings (in a
//!   branch of its own, so that a run on concrete strings keeps it concrete) and otherwise any
//!   `int` of the sign of the first difference: the standard fixes only the sign, so a program
//!   that tests `== -1` is not verified against one library's choice.
//! - `strcpy(d, s)`, `strcat(d, s)`: the characters of `s` up to and including its null, written
//!   from `d` (`strcat`: from the null of `d`); `strncpy(d, s, n)` writes exactly `n` characters,
//!   nulls after the end of `s` (7.24.2.4p3); `strncat(d, s, n)` at most `n` characters, then a
//!   null. They return `d`.
//! - `memcmp(a, b, n)`: as `strncmp`, but a null does not end the comparison; for operands that
//!   point to characters only (other objects' bytes are not addressable one by one here).
//! - `strchr(s, c)`, `strrchr(s, c)`: the first / last character equal to `(char) c` (the null
//!   counts, 7.24.5.2p2), or a null pointer.
//! - `strdup(s)`, `strndup(s, n)` (POSIX): a new heap object holding the characters (at most `n`)
//!   and a null; like `malloc`, it never fails.
//!
//! Invariant: the pointer operands are evaluated once, before the loop, into temporaries (a write
//! of the loop cannot change where it reads or writes), and they point to one-byte integer types
//! (`char`, `signed char`, `unsigned char`); any other operand is unsupported. Copies between
//! overlapping objects are undefined (7.24.2.3p2) and translated as the forward copy.

use super::*;

/// A string operand: the temporaries holding its base and offset, and its character type.
struct Str {
    base: String,
    off: String,
    ty: IntTy,
}

impl<'a> Translator<'a> {
    /// The string functions; `None`: not one of them.
    pub(super) fn string_call(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let name = name.strip_prefix("__builtin_").unwrap_or(name);
        let arity = match name {
            "strlen" | "strdup" => 1,
            "strcmp" | "strcpy" | "strcat" | "strchr" | "strrchr" | "strnlen" | "strndup" => 2,
            "strncmp" | "strncpy" | "strncat" | "memcmp" => 3,
            _ => return None,
        };
        Some((|| {
            let args = ce.arguments.as_slice();
            if args.len() != arity {
                return unsupported(format!("`{name}` with other than {arity} arguments"), span);
            }
            let vals = self.args(args, out)?;
            match name {
                "strlen" | "strnlen" => {
                    let s = self.string_operand(name, &vals[0], span, out)?;
                    let max = self.count_operand(vals.get(1), span, out)?;
                    let n = self.string_length(&s, max.as_deref(), span, out)?;
                    Ok(TV::int(var(&n, span), IntTy::SIZE_T))
                }
                "strdup" | "strndup" => {
                    // a new heap object of the length (at most `n`) plus one, the characters
                    // copied and a null after them (POSIX; it never fails, as `malloc`)
                    let s = self.string_operand(name, &vals[0], span, out)?;
                    let max = self.count_operand(vals.get(1), span, out)?;
                    let n = self.string_length(&s, max.as_deref(), span, out)?;
                    let base = self.temp(span);
                    let size = arith(BinOp::Add, var(&n, span), int(1, span), span);
                    self.alloc(&base, size, true, span, out);
                    let (off, count) = (self.temp(span), self.temp(span));
                    out.push(assign_var(&off, int(0, span), span));
                    out.push(assign_var(&count, var(&n, span), span));
                    let d = Str {
                        base: base.clone(),
                        off,
                        ty: s.ty,
                    };
                    self.string_copy(&d, &s, Some(&count), false, true, span, out)?;
                    Ok(TV::ptr(var(&base, span), int(0, span), CType::Int(s.ty)))
                }
                "strcmp" | "strncmp" | "memcmp" => {
                    let a = self.string_operand(name, &vals[0], span, out)?;
                    let b2 = self.string_operand(name, &vals[1], span, out)?;
                    let max = self.count_operand(vals.get(2), span, out)?;
                    let at_null = name != "memcmp";
                    self.string_compare(&a, &b2, max.as_deref(), at_null, span, out)
                }
                "strcpy" | "strncpy" | "strcat" | "strncat" => {
                    let d = self.string_operand(name, &vals[0], span, out)?;
                    let s = self.string_operand(name, &vals[1], span, out)?;
                    let max = self.count_operand(vals.get(2), span, out)?;
                    // where the copy starts: `d`, or the null of `d`
                    let start = self.temp(span);
                    if matches!(name, "strcat" | "strncat") {
                        let n = self.string_length(&d, None, span, out)?;
                        out.push(assign_var(
                            &start,
                            arith(BinOp::Add, var(&d.off, span), var(&n, span), span),
                            span,
                        ));
                    } else {
                        out.push(assign_var(&start, var(&d.off, span), span));
                    }
                    let to = Str {
                        base: d.base.clone(),
                        off: start,
                        ty: d.ty,
                    };
                    let pad = name == "strncpy";
                    let terminate = name == "strncat";
                    self.string_copy(&to, &s, max.as_deref(), pad, terminate, span, out)?;
                    Ok(TV::ptr(
                        var(&d.base, span),
                        var(&d.off, span),
                        CType::Int(d.ty),
                    ))
                }
                _ => {
                    let s = self.string_operand(name, &vals[0], span, out)?;
                    let c = self.convert(&vals[1], IntTy::CHAR, span)?;
                    self.string_find(&s, c, name == "strrchr", span, out)
                }
            }
        })())
    }

    /// A pointer operand to characters, its base and offset in fresh temporaries.
    fn string_operand(&mut self, name: &str, v: &TV, span: Span, out: &mut Vec<b::Stmt>) -> R<Str> {
        let v = self.decay(v.clone(), span)?;
        let (CType::Ptr(pt), V::Ptr(b, o)) = (&v.ty, &v.v) else {
            return unsupported(format!("`{name}` of {}", v.ty.describe()), span);
        };
        let ty = match &**pt {
            CType::Int(t)
                if t.size(self.arch) == 1
                    && !matches!(t.kind, IntKind::Bool | IntKind::BitField { .. }) =>
            {
                *t
            }
            other => {
                return unsupported(
                    format!("`{name}` of a pointer to {}", other.describe()),
                    span,
                );
            }
        };
        self.note_deref(pt);
        let (base, off) = (self.temp(span), self.temp(span));
        out.push(assign_var(&base, b.clone(), span));
        out.push(assign_var(&off, o.clone(), span));
        Ok(Str { base, off, ty })
    }

    /// The `size_t` count operand of the `n` forms in a fresh temporary (`None`: no such operand).
    fn count_operand(
        &mut self,
        v: Option<&TV>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<Option<String>> {
        let Some(v) = v else { return Ok(None) };
        let n = self.convert(v, IntTy::SIZE_T, span)?;
        let t = self.temp(span);
        out.push(assign_var(&t, n, span));
        Ok(Some(t))
    }

    /// Reads the character `k` places after the start of `s` (checked).
    fn string_char(
        &mut self,
        s: &Str,
        k: b::Expr,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<b::Expr> {
        let p = Place::Mem {
            base: var(&s.base, span),
            off: arith(BinOp::Add, var(&s.off, span), k, span),
            ty: CType::Int(s.ty),
            safe: false,
            unions: Vec::new(),
        };
        Ok(self.read_place(&p, true, span, out)?.to_int(span))
    }

    /// `i := 0; while (true) { body(i); i := i + 1; }`, where `body` breaks out of the loop; with
    /// `max`, the loop also ends when `i` reaches it.
    fn string_loop(
        &mut self,
        max: Option<&str>,
        span: Span,
        out: &mut Vec<b::Stmt>,
        body: impl FnOnce(&mut Self, &str, &mut Vec<b::Stmt>) -> R<()>,
    ) -> R<String> {
        let i = self.temp(span);
        out.push(assign_var(&i, int(0, span), span));
        let mut inner = Vec::new();
        if let Some(m) = max {
            inner.push(if_(
                bin(BinOp::Ge, var(&i, span), var(m, span), span),
                vec![stmt(b::StmtKind::Break(None), span)],
                Vec::new(),
                span,
            ));
        }
        body(self, &i, &mut inner)?;
        inner.push(assign_var(
            &i,
            arith(BinOp::Add, var(&i, span), int(1, span), span),
            span,
        ));
        self.cmap.library_loops.push(span);
        out.push(stmt(
            b::StmtKind::While {
                cond: Some(boolean(true, span)),
                invariants: Vec::new(),
                body: inner,
            },
            span,
        ));
        Ok(i)
    }

    /// The length of `s` (at most `max`) in a fresh temporary.
    fn string_length(
        &mut self,
        s: &Str,
        max: Option<&str>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<String> {
        self.string_loop(max, span, out, |this, i, body| {
            let c = this.string_char(s, var(i, span), span, body)?;
            body.push(break_if(bin(BinOp::Eq, c, int(0, span), span), span));
            Ok(())
        })
    }

    /// `strcmp` / `strncmp`: an `int` of the sign of the first difference.
    fn string_compare(
        &mut self,
        a: &Str,
        b2: &Str,
        max: Option<&str>,
        at_null: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        // the difference of the first differing characters, as `unsigned char`s (0: equal)
        let diff = self.temp(span);
        out.push(assign_var(&diff, int(0, span), span));
        self.string_loop(max, span, out, |this, i, body| {
            let ca = this.string_char(a, var(i, span), span, body)?;
            let ca = unsigned_char(ca, a.ty, span);
            let cb = this.string_char(b2, var(i, span), span, body)?;
            let cb = unsigned_char(cb, b2.ty, span);
            body.push(assign_var(
                &diff,
                arith(BinOp::Sub, ca.clone(), cb, span),
                span,
            ));
            let differ = bin(BinOp::Neq, var(&diff, span), int(0, span), span);
            let stop = if at_null {
                bin(
                    BinOp::Or,
                    differ,
                    bin(BinOp::Eq, ca, int(0, span), span),
                    span,
                )
            } else {
                differ
            };
            body.push(break_if(stop, span));
            Ok(())
        })?;
        // 0 when equal (a branch of its own, so that a run on concrete strings keeps the result
        // of equal ones concrete); otherwise any `int` of the difference's sign
        let r = self.temp(span);
        let d = var(&diff, span);
        let rv = var(&r, span);
        let sign = |op: BinOp, e: &b::Expr| bin(op, e.clone(), int(0, span), span);
        let same = bin(
            BinOp::And,
            bin(BinOp::Iff, sign(BinOp::Lt, &rv), sign(BinOp::Lt, &d), span),
            bin(BinOp::Iff, sign(BinOp::Gt, &rv), sign(BinOp::Gt, &d), span),
            span,
        );
        let unequal = vec![
            havoc(&r, span),
            assume(same, span),
            assume(self.in_range(rv.clone(), IntTy::INT, span), span),
        ];
        out.push(if_(
            sign(BinOp::Eq, &d),
            vec![assign_var(&r, int(0, span), span)],
            unequal,
            span,
        ));
        Ok(TV::int(rv, IntTy::INT))
    }

    /// Copies the characters of `s` to `d`, up to and including the null, or `max` characters;
    /// `pad`: after the null, nulls up to `max`; `terminate`: a null after `max` characters
    /// copied without meeting one.
    #[allow(clippy::too_many_arguments)]
    fn string_copy(
        &mut self,
        d: &Str,
        s: &Str,
        max: Option<&str>,
        pad: bool,
        terminate: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<()> {
        // `ended`: the null of `s` was copied (`strncpy` pads from there on)
        let ended = self.temp(span);
        out.push(assign_var(&ended, int(0, span), span));
        let i = self.string_loop(max, span, out, |this, i, body| {
            let at = || Place::Mem {
                base: var(&d.base, span),
                off: arith(BinOp::Add, var(&d.off, span), var(i, span), span),
                ty: CType::Int(d.ty),
                safe: false,
                unions: Vec::new(),
            };
            let mut copy = Vec::new();
            let c = this.string_char(s, var(i, span), span, &mut copy)?;
            let c = this.convert(&TV::int(c, s.ty), d.ty, span)?;
            let ct = this.temp(span);
            copy.push(assign_var(&ct, c, span));
            this.store_place(&at(), SVal::Int(var(&ct, span)), span, &mut copy)?;
            let null = bin(BinOp::Eq, var(&ct, span), int(0, span), span);
            if pad {
                copy.push(if_(
                    null,
                    vec![assign_var(&ended, int(1, span), span)],
                    Vec::new(),
                    span,
                ));
                let mut zero = Vec::new();
                this.store_place(&at(), SVal::Int(int(0, span)), span, &mut zero)?;
                body.push(if_(
                    bin(BinOp::Eq, var(&ended, span), int(0, span), span),
                    copy,
                    zero,
                    span,
                ));
            } else {
                body.extend(copy);
                body.push(if_(
                    null,
                    vec![
                        assign_var(&ended, int(1, span), span),
                        stmt(b::StmtKind::Break(None), span),
                    ],
                    Vec::new(),
                    span,
                ));
            }
            Ok(())
        })?;
        if terminate {
            // `strncat` stopped after `max` characters: the null after them
            let end = Place::Mem {
                base: var(&d.base, span),
                off: arith(BinOp::Add, var(&d.off, span), var(&i, span), span),
                ty: CType::Int(d.ty),
                safe: false,
                unions: Vec::new(),
            };
            let mut put = Vec::new();
            self.store_place(&end, SVal::Int(int(0, span)), span, &mut put)?;
            out.push(if_(
                bin(BinOp::Eq, var(&ended, span), int(0, span), span),
                put,
                Vec::new(),
                span,
            ));
        }
        Ok(())
    }

    /// `strchr` / `strrchr` (`last`): a pointer to the first / last character equal to `c`, or
    /// null.
    fn string_find(
        &mut self,
        s: &Str,
        c: b::Expr,
        last: bool,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let ct = self.temp(span);
        out.push(assign_var(&ct, c, span));
        // the index found, -1: none
        let found = self.temp(span);
        out.push(assign_var(&found, int(-1, span), span));
        self.string_loop(None, span, out, |this, i, body| {
            let ch = this.string_char(s, var(i, span), span, body)?;
            let ch = this.convert(&TV::int(ch, s.ty), IntTy::CHAR, span)?;
            let chv = this.temp(span);
            body.push(assign_var(&chv, ch, span));
            let mut hit = vec![assign_var(&found, var(i, span), span)];
            if !last {
                hit.push(stmt(b::StmtKind::Break(None), span));
            }
            body.push(if_(
                bin(BinOp::Eq, var(&chv, span), var(&ct, span), span),
                hit,
                Vec::new(),
                span,
            ));
            body.push(break_if(
                bin(BinOp::Eq, var(&chv, span), int(0, span), span),
                span,
            ));
            Ok(())
        })?;
        let none = bin(BinOp::Lt, var(&found, span), int(0, span), span);
        let base = ite(none.clone(), int(0, span), var(&s.base, span), span);
        let off = ite(
            none,
            int(0, span),
            arith(BinOp::Add, var(&s.off, span), var(&found, span), span),
            span,
        );
        Ok(TV::ptr(base, off, CType::Int(s.ty)))
    }
}

/// `if (c) { break; }`
fn break_if(c: b::Expr, span: Span) -> b::Stmt {
    if_(
        c,
        vec![stmt(b::StmtKind::Break(None), span)],
        Vec::new(),
        span,
    )
}

/// The character `c` of type `t` (one byte, in its range) as an `unsigned char`: without the
/// `mod 256` of a general conversion, which is harder for the solver.
fn unsigned_char(c: b::Expr, t: IntTy, span: Span) -> b::Expr {
    if !t.signed {
        return c;
    }
    ite(
        bin(BinOp::Lt, c.clone(), int(0, span), span),
        arith(BinOp::Add, c.clone(), int(256, span), span),
        c,
        span,
    )
}
