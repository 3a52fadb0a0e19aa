//! Function pointers.
//!
//! A function pointer is a pointer `{base, offset}` like any other (`CType::Ptr(Fn)`): the address
//! of a function `f` is `{fn_base(f), 0}`, where every function whose address is taken (named
//! other than as a callee, `f` or `&f`) has its own constant base `-1`, `-2`, … (in the order of
//! the names; the key `F<name>` of `Translator::in_mem`, found by restarting the translation like
//! a declaration in memory). Stack objects are allocated below these bases and heap objects above
//! zero, and `#valid` is false for them: a function is never an object, so a data access through
//! a function pointer fails its check, and `free` of one too.
//!
//! A call through a pointer `fp(args)` / `(*fp)(args)` evaluates the arguments as the pointer's
//! type says (converted to its prototype's parameters, or with the default argument promotions
//! for `T (*)()`) and dispatches over the functions whose address is taken:
//! `if (fp == &f1) r := f1(args) else if (fp == &f2) … else <failed check>` (calling null, an
//! uninitialised pointer or the address of an object is undefined: an assertion, an assumption
//! under `reach_only`/`data_race`, like the other checks). A function whose type does not take
//! these arguments as they are (another number of parameters, other parameter types than C's
//! compatible types or pointers the memory model converts, a thread start routine, a variadic
//! function) is called through such a pointer only with undefined behaviour; its branch is not
//! translated but asserts an `{:overapproximation}` function, so that a counterexample reaching it
//! is never reported and a proof needs it unreachable.
//!
//! `pthread_create` with a start routine held in a pointer forks the same way (a fork per
//! function); the functions with the shape of a start routine whose address is taken are then all
//! translated as start routines (`Translator::thread_fns`).
//!
//! A function pointer converted to an integer is an `{:overapproximation}` function of the pointer
//! (the value is the implementation's).

use super::*;

/// The over-approximating function of a call of an address-taken function through a pointer of an
/// incompatible type.
pub(super) const INCOMPATIBLE_CALL: &str = "callThroughIncompatibleFunctionPointer";
/// The over-approximating function of the conversion of a function pointer to an integer.
pub(super) const FPTR_TO_INT: &str = "functionPointerToInteger";

impl<'a> Translator<'a> {
    /// The functions whose address is taken (named other than as a callee), by name: the keys
    /// `F<name>` of `in_mem`, each found by a translation that restarts with it there.
    pub(super) fn address_taken(&self) -> impl Iterator<Item = &str> {
        self.in_mem.iter().filter_map(|k| k.strip_prefix('F'))
    }

    /// The base address of the function `name` whose address is taken: `-1`, `-2`, … in the
    /// order of `address_taken` (stack objects are allocated below them, see `alloc`).
    pub(super) fn fn_base(&self, name: &str) -> Option<i64> {
        self.address_taken()
            .position(|f| f == name)
            .map(|k| -(k as i64) - 1)
    }

    /// The function designator `f`: its type, with the address `{base of f, 0}` as the value
    /// (it decays to that pointer, see `decay`).
    pub(super) fn function_value(&mut self, name: &str, span: Span) -> R<TV> {
        let Some(info) = self.funcs.get(name) else {
            return unsupported(format!("undeclared identifier `{name}`"), span);
        };
        if info.def.is_none() && !self.contracts.contains_key(name) {
            return unsupported(
                format!("address of function `{name}` without a definition"),
                span,
            );
        }
        if let CType::Other(w) = &info.ret {
            return unsupported(format!("address of function `{name}` ({w})"), span);
        }
        let sig = FnSig {
            ret: info.ret.clone(),
            params: Some(info.params.iter().map(|p| p.1.clone()).collect()),
            variadic: info.variadic,
        };
        let Some(base) = self.fn_base(name) else {
            return needs_memory(&format!("F{name}"), span);
        };
        self.enqueue(name);
        Ok(TV {
            v: V::Ptr(int(base, span), int(0, span)),
            ty: CType::Fn(Box::new(sig)),
        })
    }

    /// `#valid[b] := false` for the base `b` of each address-taken function (at the start).
    pub(super) fn invalidate_functions(&self, span: Span, out: &mut Vec<b::Stmt>) {
        for k in 0..self.address_taken().count() {
            out.push(assign(
                lhs(mem::VALID, vec![int(-(k as i64) - 1, span)], span),
                boolean(false, span),
                span,
            ));
        }
    }

    /// The function pointer `{b, o}` converted implicitly (without a cast, as gcc allows) to the
    /// integer type `t`: an over-approximation (the value is the implementation's), in the range of
    /// `t`. An explicit cast is `ptr_to_int`'s, as for object pointers.
    pub(super) fn fptr_to_int(
        &mut self,
        b: &b::Expr,
        o: &b::Expr,
        t: IntTy,
        span: Span,
    ) -> b::Expr {
        self.bitwise_fns.insert(FPTR_TO_INT.to_string());
        let e = ex(
            b::ExprKind::Call(
                ident(&format!("~{FPTR_TO_INT}"), span),
                vec![b.clone(), o.clone()],
            ),
            span,
        );
        self.wrap(e, t, span)
    }

    /// A call through a function pointer (see the module comment).
    pub(super) fn call_pointer(
        &mut self,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let callee = self.expr(&ce.callee, out)?;
        let callee = self.decay(callee, span)?;
        let sig = match &callee.ty {
            CType::Ptr(pt) => match &**pt {
                CType::Fn(sig) => (**sig).clone(),
                t => return unsupported(format!("call of a pointer to {}", t.describe()), span),
            },
            t => return unsupported(format!("call of {}", t.describe()), span),
        };
        let mut buf = Vec::new();
        let vals = self.args(&ce.arguments, &mut buf)?;
        let callee = self.snapshot(callee, !buf.is_empty(), span, out);
        out.extend(buf);
        let V::Ptr(fb, fo) = callee.v else {
            return unsupported("call of a function pointer that is not a pointer", span);
        };
        // the arguments as the pointer's type passes them, with their types
        let mut args: Vec<(SVal, CType)> = Vec::new();
        match &sig.params {
            Some(ps) => {
                if sig.variadic {
                    return unsupported("call through a pointer to a variadic function", span);
                }
                if ps.len() != vals.len() {
                    return unsupported(
                        "call through a function pointer with a different number of arguments",
                        span,
                    );
                }
                for (v, p) in vals.into_iter().zip(ps) {
                    if !p.is_scalar() {
                        return unsupported(format!("parameter of type {}", p.describe()), span);
                    }
                    args.push((self.scalar_value(v, p, span)?, p.clone()));
                }
            }
            None => {
                for v in vals {
                    let v = self.decay(v, span)?;
                    let t = promoted(&v.ty);
                    if !t.is_scalar() {
                        return unsupported(format!("argument of type {}", t.describe()), span);
                    }
                    args.push((self.scalar_value(v, &t, span)?, t));
                }
            }
        }
        if matches!(sig.ret, CType::Struct(_)) {
            return unsupported(format!("function returning {}", sig.ret.describe()), span);
        }
        let (outs, res) = self.result_temps(&sig.ret, span)?;
        self.dispatch(&fb, &fo, span, out, |tr, name| {
            Ok(
                match tr.candidate_call(name, &args, &sig.ret, &outs, span)? {
                    Some(call) => vec![call],
                    None => tr.incompatible_call(&fb, &fo, span),
                },
            )
        })?;
        Ok(res)
    }

    /// `if (p == &f1) B(f1) else if (p == &f2) B(f2) … else <failed check>` over the address-taken
    /// functions, for the function pointer `{fb, fo}` and the branch builder `branch`; the final
    /// else (not the address of a function) is undefined: a valid-deref check.
    fn dispatch(
        &mut self,
        fb: &b::Expr,
        fo: &b::Expr,
        span: Span,
        out: &mut Vec<b::Stmt>,
        mut branch: impl FnMut(&mut Self, &str) -> R<Vec<b::Stmt>>,
    ) -> R<()> {
        let mut chain: Vec<b::Stmt> = self
            .check(Check::Deref, boolean(false, span), span)
            .into_iter()
            .collect();
        let names: Vec<String> = self.address_taken().map(String::from).collect();
        for name in names.iter().rev() {
            let Some(base) = self.fn_base(name) else {
                continue;
            };
            let is = bin(
                BinOp::And,
                bin(BinOp::Eq, fb.clone(), int(base, span), span),
                bin(BinOp::Eq, fo.clone(), int(0, span), span),
                span,
            );
            let then = branch(self, name)?;
            chain = vec![if_(is, then, chain, span)];
        }
        out.extend(chain);
        Ok(())
    }

    /// `outs := name(args)` when the function `name` takes the arguments `args` (with their types)
    /// as they are and gives a result of type `ret`; `None`: it does not.
    fn candidate_call(
        &mut self,
        name: &str,
        args: &[(SVal, CType)],
        ret: &CType,
        outs: &[b::Ident],
        span: Span,
    ) -> R<Option<b::Stmt>> {
        let Some(info) = self.funcs.get(name).cloned() else {
            return Ok(None);
        };
        if info.variadic || info.params.len() != args.len() || self.thread_fns.contains(name) {
            return Ok(None);
        }
        let mut cargs = Vec::new();
        for ((v, at), (_, pt, _)) in args.iter().zip(&info.params) {
            if !self.passes_as(at, pt, span) {
                return Ok(None);
            }
            match v {
                SVal::Int(e) | SVal::Float(e) => cargs.push(Some(e.clone())),
                SVal::Ptr(b, o) => {
                    cargs.push(Some(b.clone()));
                    cargs.push(Some(o.clone()));
                }
            }
        }
        let couts = match (ret, &info.ret) {
            (CType::Void, CType::Void) => Vec::new(),
            // the result is discarded
            (CType::Void, t) => {
                let n = scalar_suffixes(t).len();
                if n == 0 {
                    return Ok(None);
                }
                (0..n).map(|_| ident(&self.temp(span), span)).collect()
            }
            (r, f) if r.is_scalar() && self.passes_as(f, r, span) => outs.to_vec(),
            _ => return Ok(None),
        };
        self.enqueue(name);
        let call = crate::cfront::build::call(&proc_name(name), couts, cargs, span);
        // SV-COMP: the body of a `__VERIFIER_atomic_*` function runs atomically
        Ok(Some(if name.starts_with("__VERIFIER_atomic_") {
            stmt(b::StmtKind::Atomic(vec![call]), span)
        } else {
            call
        }))
    }

    /// A value of type `from` is passed unchanged as a `to`: compatible types, or pointers the
    /// memory model converts (see `ptr_compatible`).
    fn passes_as(&mut self, from: &CType, to: &CType, span: Span) -> bool {
        compatible(from, to)
            || match (from, to) {
                (CType::Ptr(x), CType::Ptr(y)) => self.ptr_compatible(x, y, false, span).is_ok(),
                _ => false,
            }
    }

    /// The branch of a function the call does not translate: an assertion of an
    /// `{:overapproximation}` function (never reported as a violation, never proved), then the
    /// path ends.
    fn incompatible_call(&mut self, fb: &b::Expr, fo: &b::Expr, span: Span) -> Vec<b::Stmt> {
        self.bitwise_fns.insert(INCOMPATIBLE_CALL.to_string());
        let e = ex(
            b::ExprKind::Call(
                ident(&format!("~{INCOMPATIBLE_CALL}"), span),
                vec![fb.clone(), fo.clone()],
            ),
            span,
        );
        vec![
            assert(bin(BinOp::Neq, e, int(0, span), span), span),
            assume(boolean(false, span), span),
        ]
    }

    /// The function `name` has the shape of a thread start routine: defined, with at most one
    /// parameter, a pointer.
    pub(super) fn thread_shaped(&self, name: &str) -> bool {
        self.funcs.get(name).is_some_and(|i| {
            i.def.is_some()
                && !i.variadic
                && i.params.len() <= 1
                && i.params.iter().all(|p| matches!(p.1, CType::Ptr(_)))
        })
    }

    /// `pthread_create(&t, NULL, fp, arg)` with a start routine held in a pointer: the thread id
    /// as for a named routine, then a fork of the function `fp` holds (a dispatch as for a call;
    /// each candidate is a start routine, see `translate`).
    pub(super) fn pthread_create_pointer(
        &mut self,
        t: &'a Node<c::Expression>,
        f: &'a Node<c::Expression>,
        arg: &'a Node<c::Expression>,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let fv = self.expr(f, out)?;
        let fv = self.decay(fv, span)?;
        if !matches!(&fv.ty, CType::Ptr(pt) if matches!(**pt, CType::Fn(_))) {
            return unsupported(
                format!("thread start routine of type {}", fv.ty.describe()),
                span,
            );
        }
        let mut buf = Vec::new();
        let v = self.expr(arg, &mut buf)?;
        let v = self.decay(v, span)?;
        let fv = self.snapshot(fv, !buf.is_empty(), span, out);
        out.extend(buf);
        let v = self.snapshot(v, true, span, out);
        let V::Ptr(fb, fo) = fv.v else {
            return unsupported("thread start routine that is not a pointer", span);
        };
        let id = self.thread_id(t, span, out)?;
        self.dispatch(&fb, &fo, span, out, |tr, name| {
            let param = tr
                .funcs
                .get(name)
                .and_then(|i| i.params.first().map(|p| p.1.clone()));
            let args = if !tr.thread_fns.contains(name) || !tr.thread_shaped(name) {
                None
            } else {
                match param {
                    Some(CType::Ptr(pt)) => match tr.as_pointer(v.clone(), &pt, span) {
                        Ok((b, o)) => Some(vec![b, o]),
                        Err(e) if e.needs_memory.is_some() => return Err(e),
                        Err(_) => None,
                    },
                    Some(_) => None,
                    None => Some(Vec::new()),
                }
            };
            Ok(match args {
                Some(args) => {
                    tr.enqueue(name);
                    vec![stmt(
                        b::StmtKind::Fork {
                            tid: vec![var(&id, span)],
                            proc: ident(&proc_name(name), span),
                            args,
                        },
                        span,
                    )]
                }
                None => tr.incompatible_call(&fb, &fo, span),
            })
        })?;
        Ok(TV::int(int(0, span), IntTy::INT))
    }
}
