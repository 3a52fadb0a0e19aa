//! GCC's atomic builtins (`__atomic_*`, the legacy `__sync_*`) onto `atomic { … }` blocks.
//!
//! The arguments are evaluated first, as ordinary (non-atomic) C expressions — a side effect in
//! an argument, or a read of a shared variable passed by value, is not part of the atomic
//! operation. Only the accesses to `*ptr` (the object the builtin operates on) run in one
//! `atomic { … }` block: read, compute, write. The other pointers of the generic forms (`val`,
//! `ret`, `expected`) are read or written by ordinary accesses before or after the block. Memory
//! orders are evaluated and otherwise ignored: the IR's interleaving semantics is sequentially
//! consistent, which every order allows.

use super::*;

/// The read-modify-write operator of a `fetch` builtin.
#[derive(Clone, Copy)]
enum Rmw {
    Add,
    Sub,
    And,
    Or,
    Xor,
    /// `~(old & val)`.
    Nand,
}

impl Rmw {
    fn of(name: &str) -> Option<Rmw> {
        Some(match name {
            "add" => Rmw::Add,
            "sub" => Rmw::Sub,
            "and" => Rmw::And,
            "or" => Rmw::Or,
            "xor" => Rmw::Xor,
            "nand" => Rmw::Nand,
            _ => return None,
        })
    }

    /// The operator (for `Nand`: the `&` before the complement).
    fn op(self) -> c::BinaryOperator {
        match self {
            Rmw::Add => c::BinaryOperator::Plus,
            Rmw::Sub => c::BinaryOperator::Minus,
            Rmw::And | Rmw::Nand => c::BinaryOperator::BitwiseAnd,
            Rmw::Or => c::BinaryOperator::BitwiseOr,
            Rmw::Xor => c::BinaryOperator::BitwiseXor,
        }
    }
}

/// What an atomic builtin does to `*ptr`, and how its other arguments are used.
enum Op {
    /// `__atomic_load_n(ptr, order)`: the value.
    LoadN,
    /// `__atomic_load(ptr, ret, order)`: `*ret = *ptr`.
    Load,
    /// `__atomic_store_n(ptr, val, order)`, `__sync_lock_release(ptr)` and
    /// `__atomic_clear(ptr, order)` (store 0).
    StoreN { zero: bool },
    /// `__atomic_store(ptr, val, order)`: `*ptr = *val`.
    Store,
    /// `__atomic_exchange_n(ptr, val, order)`, `__sync_lock_test_and_set(ptr, val)`: the old
    /// value.
    ExchangeN,
    /// `__atomic_exchange(ptr, val, ret, order)`: `*ret = *ptr; *ptr = *val`.
    Exchange,
    /// `__atomic_fetch_op` / `__sync_fetch_and_op` (`fetch_first`: the old value) and
    /// `__atomic_op_fetch` / `__sync_op_and_fetch` (the new value).
    Fetch { rmw: Rmw, old: bool },
    /// `__atomic_compare_exchange_n(ptr, expected, desired, weak, s, f)` (`by_ref`: the generic
    /// form, `desired` is a pointer): if `*ptr == *expected` then `*ptr = desired` (true) else
    /// `*expected = *ptr` (false).
    CompareExchange { by_ref: bool },
    /// `__sync_bool_compare_and_swap(ptr, old, new)` (`value`: `__sync_val_…`, the old value).
    CompareSwap { value: bool },
    /// `__atomic_test_and_set(ptr, order)`: `*ptr = 1`; whether `*ptr` was set before.
    TestAndSet,
    /// `__atomic_thread_fence`, `__atomic_signal_fence`, `__sync_synchronize`: nothing.
    Fence,
}

fn classify(name: &str) -> Option<(Op, usize)> {
    if let Some(rest) = name.strip_prefix("__atomic_") {
        return Some(match rest {
            "load_n" => (Op::LoadN, 2),
            "load" => (Op::Load, 3),
            "store_n" => (Op::StoreN { zero: false }, 3),
            "store" => (Op::Store, 3),
            "exchange_n" => (Op::ExchangeN, 3),
            "exchange" => (Op::Exchange, 4),
            "compare_exchange_n" => (Op::CompareExchange { by_ref: false }, 6),
            "compare_exchange" => (Op::CompareExchange { by_ref: true }, 6),
            "thread_fence" | "signal_fence" => (Op::Fence, 1),
            "test_and_set" => (Op::TestAndSet, 2),
            "clear" => (Op::StoreN { zero: true }, 2),
            _ => {
                if let Some(op) = rest.strip_prefix("fetch_").and_then(Rmw::of) {
                    (Op::Fetch { rmw: op, old: true }, 3)
                } else {
                    let op = rest.strip_suffix("_fetch").and_then(Rmw::of)?;
                    (
                        Op::Fetch {
                            rmw: op,
                            old: false,
                        },
                        3,
                    )
                }
            }
        });
    }
    let rest = name.strip_prefix("__sync_")?;
    Some(match rest {
        "synchronize" => (Op::Fence, 0),
        "lock_test_and_set" => (Op::ExchangeN, 2),
        "lock_release" => (Op::StoreN { zero: true }, 1),
        "bool_compare_and_swap" => (Op::CompareSwap { value: false }, 3),
        "val_compare_and_swap" => (Op::CompareSwap { value: true }, 3),
        _ => {
            if let Some(op) = rest.strip_prefix("fetch_and_").and_then(Rmw::of) {
                (Op::Fetch { rmw: op, old: true }, 2)
            } else {
                let op = rest.strip_suffix("_and_fetch").and_then(Rmw::of)?;
                (
                    Op::Fetch {
                        rmw: op,
                        old: false,
                    },
                    2,
                )
            }
        }
    })
}

impl<'a> Translator<'a> {
    /// An atomic builtin; `None`: `name` is not one.
    pub(super) fn atomic_builtin(
        &mut self,
        name: &str,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let (op, arity) = classify(name)?;
        Some(self.atomic_op(name, op, arity, ce, span, out))
    }

    fn atomic_op(
        &mut self,
        name: &str,
        op: Op,
        arity: usize,
        ce: &'a c::CallExpression,
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        // `__sync_*` builtins may carry extra (ignored) arguments
        let sync = name.starts_with("__sync_");
        if ce.arguments.len() != arity && !(sync && ce.arguments.len() > arity) {
            return unsupported(
                format!("`{name}` with {} arguments", ce.arguments.len()),
                span,
            );
        }
        if matches!(op, Op::Fence) {
            for a in &ce.arguments {
                self.expr(a, out)?;
            }
            return Ok(TV::void(span));
        }
        // Left to right: a pointer argument `&lv` is the place `lv` itself (a variable stays a
        // variable: its address does not escape), another argument is evaluated (and kept in
        // temporaries, so later accesses do not re-read what it read).
        let ptr_args: &[usize] = match op {
            Op::Load | Op::Store => &[0, 1],
            Op::Exchange | Op::CompareExchange { by_ref: true } => &[0, 1, 2],
            Op::CompareExchange { by_ref: false } => &[0, 1],
            _ => &[0],
        };
        let mut places: Vec<Option<Place>> = Vec::new();
        let mut vals: Vec<TV> = Vec::new();
        let mut fragile = false;
        for (i, a) in ce.arguments.iter().enumerate() {
            let mut buf = Vec::new();
            let addr_of = match &a.node {
                c::Expression::UnaryOperator(u)
                    if u.node.operator.node == c::UnaryOperator::Address
                        && ptr_args.contains(&i) =>
                {
                    Some(&u.node.operand)
                }
                _ => None,
            };
            // an earlier `&` place whose address depends on variables: this argument's statements
            // (side effects, conservatively any) could change them
            let earlier_fragile = fragile;
            let effects = if let Some(inner) = addr_of {
                let p = self.lvalue(inner, &mut buf)?;
                fragile |= !matches!(&p, Place::Var(lv) if lv.indices.is_empty());
                places.push(Some(p));
                vals.push(TV::void(span));
                !buf.is_empty()
            } else {
                let v = self.expr(a, &mut buf)?;
                let effects = !buf.is_empty();
                let v = self.snapshot(v, true, span, &mut buf);
                places.push(None);
                vals.push(v);
                effects
            };
            if earlier_fragile && effects {
                return unsupported(
                    format!("`{name}` with side effects after an `&` argument"),
                    span,
                );
            }
            out.extend(buf);
        }
        // the place an argument points to
        let mut place_of = |t: &mut Self, i: usize| -> R<Place> {
            match places[i].take() {
                Some(p) => Ok(p),
                None => t.deref(vals[i].clone(), span),
            }
        };
        let place = place_of(self, 0)?;
        let ty = place.ty().clone();
        if !ty.is_scalar() {
            return unsupported(format!("`{name}` on {}", ty.describe()), span);
        }
        // ordinary reads before the block: `*val`, `*expected`, `*desired`
        let read_ref = |t: &mut Self, p: &Place, out: &mut Vec<b::Stmt>| -> R<TV> {
            let r = t.read_place(p, true, span, out)?;
            Ok(t.snapshot(r, true, span, out))
        };
        let mut block = Vec::new();
        let old = self.read_place(&place, true, span, &mut block)?;
        let old = self.snapshot(old, true, span, &mut block);
        let result = match op {
            Op::Fence => unreachable!("handled above"),
            Op::LoadN => old,
            Op::Load => {
                out.push(stmt(b::StmtKind::Atomic(block), span));
                let ret = place_of(self, 1)?;
                let v = self.scalar_value(old, ret.ty(), span)?;
                self.store_place(&ret, v, span, out)?;
                return Ok(TV::void(span));
            }
            Op::StoreN { zero } => {
                let v = if zero {
                    TV::int(int(0, span), IntTy::INT)
                } else {
                    vals[1].clone()
                };
                let v = self.scalar_value(v, &ty, span)?;
                self.store_place(&place, v, span, &mut block)?;
                TV::void(span)
            }
            Op::Store => {
                let src = place_of(self, 1)?;
                let v = read_ref(self, &src, out)?;
                let v = self.scalar_value(v, &ty, span)?;
                self.store_place(&place, v, span, &mut block)?;
                TV::void(span)
            }
            Op::TestAndSet => {
                let v = self.scalar_value(TV::int(int(1, span), IntTy::INT), &ty, span)?;
                self.store_place(&place, v, span, &mut block)?;
                TV::boolean(old.to_bool(span)?)
            }
            Op::ExchangeN => {
                let v = self.scalar_value(vals[1].clone(), &ty, span)?;
                self.store_place(&place, v, span, &mut block)?;
                old
            }
            Op::Exchange => {
                let src = place_of(self, 1)?;
                let ret = place_of(self, 2)?;
                let v = read_ref(self, &src, out)?;
                let v = self.scalar_value(v, &ty, span)?;
                self.store_place(&place, v, span, &mut block)?;
                out.push(stmt(b::StmtKind::Atomic(block), span));
                let v = self.scalar_value(old, ret.ty(), span)?;
                self.store_place(&ret, v, span, out)?;
                return Ok(TV::void(span));
            }
            Op::Fetch { rmw, old: want_old } => {
                let CType::Int(t) = ty else {
                    return unsupported(format!("`{name}` on a pointer"), span);
                };
                // two's complement wrap-around, for signed types too (GCC's atomics)
                let new = match rmw {
                    Rmw::Add | Rmw::Sub => {
                        let op = if matches!(rmw, Rmw::Add) {
                            BinOp::Add
                        } else {
                            BinOp::Sub
                        };
                        let d = self.convert(&vals[1], t, span)?;
                        let exact = arith(op, old.to_int(span), d, span);
                        let m = t.modulus(self.arch);
                        if t.signed {
                            let half = &m >> 1;
                            arith(
                                BinOp::Sub,
                                modulo(arith(BinOp::Add, exact, lit(&half, span), span), &m, span),
                                lit(&half, span),
                                span,
                            )
                        } else {
                            modulo(exact, &m, span)
                        }
                    }
                    _ => {
                        let r =
                            self.arith(rmw.op(), old.clone(), vals[1].clone(), span, &mut block)?;
                        let r = if matches!(rmw, Rmw::Nand) {
                            self.complement(&r, r.int_ty(span)?, span)?
                        } else {
                            r
                        };
                        self.convert(&r, t, span)?
                    }
                };
                let new = self.snapshot(TV::int(new, t), true, span, &mut block);
                self.store_place(&place, SVal::Int(new.to_int(span)), span, &mut block)?;
                if want_old { old } else { new }
            }
            Op::CompareExchange { by_ref } => {
                let expected_place = place_of(self, 1)?;
                let expected = read_ref(self, &expected_place, out)?;
                let desired = if by_ref {
                    let d = place_of(self, 2)?;
                    read_ref(self, &d, out)?
                } else {
                    vals[2].clone()
                };
                let flag =
                    self.swap_if_equal(&place, &old, &expected, desired, span, &mut block)?;
                out.push(stmt(b::StmtKind::Atomic(block), span));
                // on failure, `*expected` gets the current value (an ordinary write)
                let failed = bin(BinOp::Eq, var(&flag, span), int(0, span), span);
                let mut els = Vec::new();
                let v = self.scalar_value(old, expected_place.ty(), span)?;
                self.store_place(&expected_place, v, span, &mut els)?;
                out.push(if_(failed, els, Vec::new(), span));
                return Ok(TV::int(var(&flag, span), IntTy::INT));
            }
            Op::CompareSwap { value } => {
                let desired = vals[2].clone();
                let flag = self.swap_if_equal(&place, &old, &vals[1], desired, span, &mut block)?;
                if value {
                    old
                } else {
                    TV::int(var(&flag, span), IntTy::INT)
                }
            }
        };
        out.push(stmt(b::StmtKind::Atomic(block), span));
        Ok(result)
    }

    /// Inside an atomic block: `*place = desired` if `old == expected`; returns the temporary
    /// holding whether it did (1) or not (0).
    fn swap_if_equal(
        &mut self,
        place: &Place,
        old: &TV,
        expected: &TV,
        desired: TV,
        span: Span,
        block: &mut Vec<b::Stmt>,
    ) -> R<String> {
        let ty = place.ty().clone();
        let ok = self.equal(old, expected, &ty, span)?;
        let flag = self.temp(span);
        block.push(assign_var(
            &flag,
            ite(ok.clone(), int(1, span), int(0, span), span),
            span,
        ));
        let desired = self.scalar_value(desired, &ty, span)?;
        let mut then = Vec::new();
        self.store_place(place, desired, span, &mut then)?;
        block.push(if_(ok, then, Vec::new(), span));
        Ok(flag)
    }

    /// `a == b` for two scalars of type `ty` (`b` converted to it).
    fn equal(&mut self, a: &TV, b2: &TV, ty: &CType, span: Span) -> R<b::Expr> {
        let x = self.scalar_value(a.clone(), ty, span)?;
        let y = self.scalar_value(b2.clone(), ty, span)?;
        Ok(match (x, y) {
            (SVal::Int(x), SVal::Int(y)) => bin(BinOp::Eq, x, y, span),
            (SVal::Ptr(xb, xo), SVal::Ptr(yb, yo)) => bin(
                BinOp::And,
                bin(BinOp::Eq, xb, yb, span),
                bin(BinOp::Eq, xo, yo, span),
                span,
            ),
            _ => return unsupported("comparison of a pointer with an integer", span),
        })
    }
}
