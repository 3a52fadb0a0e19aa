//! Floating point in the C translation: `float`, `double` and `long double` as the SMT-LIB
//! floating-point theory (IEEE 754 binary32, binary64 and the x87 80-bit extended format of
//! `long double` on x86, under both ILP32 and LP64), as Ultimate's bit-precise translation has them.
//!
//! Every operation is the IEEE operation of the C type it is performed in (`FLT_EVAL_METHOD` 0, as
//! on x86-64 with SSE): `+ - * /` round to nearest, ties to even (the default rounding mode, which
//! the translation assumes throughout: `fesetround` is not translated); comparisons are IEEE's
//! (`==` is `fp.eq`, so `NaN != NaN` and `-0.0 == 0.0`); the usual arithmetic conversions make the
//! operand of lower rank the type of the other (an integer operand is converted exactly as C
//! converts it, `to_fp` of its value rounded to nearest). A float converted to an integer type is
//! truncated towards zero (C11 6.3.1.4; a value out of the target's range is undefined behaviour:
//! the result is then some value of the type), to `_Bool` it compares with zero (`NaN` is true).
//! Literals are exact rationals rounded to their type (`0.1f`, hexadecimal `0x1p-3`).
//!
//! The library: `fabs`, `fmin`, `fmax`, `sqrt`, `floor`, `ceil`, `trunc`, `round`, `rint`,
//! `nearbyint`, `copysign` (each with its `f` and `l` forms and `__builtin_` names) and GCC's
//! builtins for `<math.h>`'s macros (`INFINITY`, `NAN`, `HUGE_VAL`, `isnan`, `isinf`, `isfinite`,
//! `isnormal`, `signbit`, `fpclassify`, `isgreater` and the other quiet comparisons). SMT-LIB has
//! one NaN without sign: where C's result depends on the sign of a NaN (`signbit(NAN)`,
//! `copysign(x, NAN)`), the translation leaves the sign nondeterministic, a sound
//! over-approximation of both. Floats in memory have a memory map per type (`mem::float_map`).
//!
//! Invariant: every float value is a Boogie expression of the float type its [`FloatTy`] names;
//! the function declarations the expressions use are recorded as they are built (`Translator::fp`)
//! and declared by `finish`.

use super::{CType, R, TV, Translator, V, unsupported};
use crate::cfront::build::*;
use crate::cfront::ints::{IntKind, IntTy};
use crate::diag::Span;
use crate::syntax::ast as b;
use crate::syntax::ast::BinOp;
use lang_c::ast as c;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// A C floating type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum FloatTy {
    Float,
    Double,
    LongDouble,
}

impl FloatTy {
    /// Exponent and significand widths (SMT-LIB's `(_ FloatingPoint eb sb)`).
    fn indices(self) -> (u32, u32) {
        match self {
            FloatTy::Float => (8, 24),
            FloatTy::Double => (11, 53),
            FloatTy::LongDouble => (15, 64),
        }
    }

    /// The Boogie type's name.
    pub(super) fn boogie(self) -> &'static str {
        match self {
            FloatTy::Float => "C_FLOAT",
            FloatTy::Double => "C_DOUBLE",
            FloatTy::LongDouble => "C_LONGDOUBLE",
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            FloatTy::Float => "float",
            FloatTy::Double => "double",
            FloatTy::LongDouble => "long double",
        }
    }

    /// Size and alignment in bytes (i386 aligns `double` and `long double` to 4 bytes).
    pub(super) fn size_align(self, ilp32: bool) -> (u64, u64) {
        match (self, ilp32) {
            (FloatTy::Float, _) => (4, 4),
            (FloatTy::Double, false) => (8, 8),
            (FloatTy::Double, true) => (8, 4),
            (FloatTy::LongDouble, false) => (16, 16),
            (FloatTy::LongDouble, true) => (12, 4),
        }
    }

    pub(super) fn boogie_type(self, span: Span) -> b::Type {
        ty(
            b::TypeKind::Named(ident(self.boogie(), span), Vec::new()),
            span,
        )
    }
}

/// The type of a library function's name: `f` suffix `float`, `l` suffix `long double`.
fn suffixed(name: &str, base: &str) -> Option<FloatTy> {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    let rest = name.strip_prefix(base)?;
    match rest {
        "" => Some(FloatTy::Double),
        "f" => Some(FloatTy::Float),
        "l" => Some(FloatTy::LongDouble),
        _ => None,
    }
}

/// A function of the floating-point theory the translation uses (declared by `finish`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum FpFn {
    /// A rounding mode constant (`RNE`, `RTZ`, …).
    Mode(&'static str),
    /// An `fp.…` operation on one type.
    Op(&'static str, FloatTy),
    /// `to_fp` of a real.
    FromReal(FloatTy),
    /// `to_fp` of another float type: `(from, to)`.
    Convert(FloatTy, FloatTy),
    /// A constant of a type (`+oo`, `-oo`, `NaN`, `+zero`).
    Special(&'static str, FloatTy),
    /// Declares nothing but the type itself (and `fp.isZero` on it, see [`is_zero`]).
    Type(FloatTy),
    /// `fp.to_sbv` (`true`) or `fp.to_ubv` to a bit-vector of a width, from a type.
    ToBv(bool, u32, FloatTy),
    /// `bv2nat` of a bit-vector of a width: its unsigned value.
    Bv2Nat(u32),
}

impl FpFn {
    fn name(self) -> String {
        match self {
            FpFn::Mode(m) => format!("~{m}"),
            FpFn::Op(op, t) => format!("~{op}~{}", t.boogie()),
            FpFn::FromReal(t) => format!("~to_fp~{}", t.boogie()),
            FpFn::Convert(f, t) => format!("~to_fp~{}~{}", f.boogie(), t.boogie()),
            FpFn::Type(t) => t.boogie().to_string(),
            FpFn::ToBv(signed, n, t) => {
                let s = if signed { "sbv" } else { "ubv" };
                format!("~fp.to_{s}~{n}~{}", t.boogie())
            }
            FpFn::Bv2Nat(n) => format!("~bv2nat~{n}"),
            FpFn::Special(s, t) => {
                let s = match s {
                    "+oo" => "plusInfinity",
                    "-oo" => "minusInfinity",
                    "+zero" => "plusZero",
                    _ => s,
                };
                format!("~{s}~{}", t.boogie())
            }
        }
    }

    /// The declaration: `{:builtin}` (with `{:indices}` where SMT-LIB indexes it), parameters,
    /// result.
    fn decl(self, span: Span) -> b::FunctionDecl {
        let rm = || {
            ty(
                b::TypeKind::Named(ident("RoundingMode", span), Vec::new()),
                span,
            )
        };
        let real = || ty(b::TypeKind::Real, span);
        let boolean = || ty(b::TypeKind::Bool, span);
        let bv = |n: u32| ty(b::TypeKind::BitVec(n), span);
        let fp_indices = |t: FloatTy| {
            let (e, s) = t.indices();
            vec![e, s]
        };
        let (builtin, indices, params, result): (&str, Vec<u32>, Vec<b::Type>, b::Type) = match self
        {
            FpFn::Mode(m) => (m, Vec::new(), Vec::new(), rm()),
            FpFn::ToBv(signed, n, t) => (
                if signed { "fp.to_sbv" } else { "fp.to_ubv" },
                vec![n],
                vec![rm(), t.boogie_type(span)],
                bv(n),
            ),
            FpFn::Bv2Nat(n) => (
                "bv2nat",
                Vec::new(),
                vec![bv(n)],
                ty(b::TypeKind::Int, span),
            ),
            FpFn::Op(op, t) => {
                let f = || t.boogie_type(span);
                let (params, result) = match op {
                    "fp.add" | "fp.sub" | "fp.mul" | "fp.div" => (vec![rm(), f(), f()], f()),
                    "fp.sqrt" | "fp.roundToIntegral" => (vec![rm(), f()], f()),
                    "fp.neg" | "fp.abs" => (vec![f()], f()),
                    "fp.min" | "fp.max" => (vec![f(), f()], f()),
                    "fp.eq" | "fp.lt" | "fp.leq" | "fp.gt" | "fp.geq" => {
                        (vec![f(), f()], boolean())
                    }
                    "fp.to_real" => (vec![f()], real()),
                    // the classification predicates
                    _ => (vec![f()], boolean()),
                };
                (op, Vec::new(), params, result)
            }
            FpFn::FromReal(t) => (
                "to_fp",
                fp_indices(t),
                vec![rm(), real()],
                t.boogie_type(span),
            ),
            FpFn::Convert(f, t) => (
                "to_fp",
                fp_indices(t),
                vec![rm(), f.boogie_type(span)],
                t.boogie_type(span),
            ),
            FpFn::Special(s, t) => (s, fp_indices(t), Vec::new(), t.boogie_type(span)),
            FpFn::Type(t) => return FpFn::Op("fp.isZero", t).decl(span),
        };
        let mut attrs = vec![builtin_attr(builtin, span)];
        if !indices.is_empty() {
            attrs.push(indices_attr(&indices, span));
        }
        let arg = |t: b::Type| b::FunArg {
            name: None,
            ty: t,
            span,
        };
        b::FunctionDecl {
            attrs,
            name: ident(&self.name(), span),
            type_params: Vec::new(),
            params: params.into_iter().map(arg).collect(),
            result: arg(result),
            body: None,
            span,
        }
    }
}

/// `{:builtin "s"}`.
fn builtin_attr(s: &str, span: Span) -> b::Attribute {
    b::Attribute {
        name: ident("builtin", span),
        args: vec![b::AttrArg::Str(s.to_string())],
        span,
    }
}

/// `{:indices i, …}`.
fn indices_attr(indices: &[u32], span: Span) -> b::Attribute {
    b::Attribute {
        name: ident("indices", span),
        args: indices
            .iter()
            .map(|i| b::AttrArg::Expr(int(i64::from(*i), span)))
            .collect(),
        span,
    }
}

/// The float types the functions are over.
fn types_of(used: &BTreeSet<FpFn>) -> impl Iterator<Item = FloatTy> + '_ {
    used.iter().flat_map(|f| match *f {
        FpFn::Mode(_) | FpFn::Bv2Nat(_) => Vec::new(),
        FpFn::Op(_, t)
        | FpFn::FromReal(t)
        | FpFn::Special(_, t)
        | FpFn::Type(t)
        | FpFn::ToBv(_, _, t) => vec![t],
        FpFn::Convert(a, t) => vec![a, t],
    })
}

/// `fp.isZero(e)` (declared for every float type the translation uses).
pub(super) fn is_zero(e: b::Expr, t: FloatTy, span: Span) -> b::Expr {
    call(&FpFn::Op("fp.isZero", t).name(), vec![e], span)
}

/// The type declarations and functions of the floating-point theory a translation used.
pub(super) fn declarations(used: &BTreeSet<FpFn>, span: Span) -> Vec<b::Decl> {
    if used.is_empty() {
        return Vec::new();
    }
    let types: BTreeSet<FloatTy> = types_of(used).collect();
    let mut decls = vec![b::Decl::Type(b::TypeDecl {
        attrs: vec![builtin_attr("RoundingMode", span)],
        finite: false,
        name: ident("RoundingMode", span),
        params: Vec::new(),
        synonym: None,
        span,
    })];
    for t in &types {
        let (e, s) = t.indices();
        decls.push(b::Decl::Type(b::TypeDecl {
            attrs: vec![
                builtin_attr("FloatingPoint", span),
                indices_attr(&[e, s], span),
            ],
            finite: false,
            name: ident(t.boogie(), span),
            params: Vec::new(),
            synonym: None,
            span,
        }));
    }
    // every type's `fp.isZero` (the truth value of a float, built without the translator)
    let mut fns: BTreeSet<FpFn> = used
        .iter()
        .copied()
        .filter(|f| !matches!(f, FpFn::Type(_)))
        .collect();
    fns.extend(types.iter().map(|t| FpFn::Op("fp.isZero", *t)));
    decls.extend(fns.iter().map(|f| b::Decl::Function(f.decl(span))));
    decls
}

/// The exact value of a C floating constant as a decimal Boogie real literal (`digits.digits`),
/// and its type.
pub(super) fn literal(f: &c::Float) -> Result<(String, FloatTy), String> {
    let ty = match &f.suffix.format {
        _ if f.suffix.imaginary => return Err("imaginary constant".into()),
        c::FloatFormat::Float => FloatTy::Float,
        c::FloatFormat::Double => FloatTy::Double,
        c::FloatFormat::LongDouble => FloatTy::LongDouble,
        c::FloatFormat::TS18661Format(_) => return Err("TS 18661 floating constant".into()),
    };
    let hex = f.base == c::FloatBase::Hexadecimal;
    let s = f.number.to_ascii_lowercase();
    let (mant, exp) = match s.split_once(if hex { 'p' } else { 'e' }) {
        Some((m, e)) => (
            m.to_string(),
            e.parse::<i64>()
                .map_err(|_| format!("floating constant `{s}`"))?,
        ),
        None => (s.clone(), 0),
    };
    let (int_part, frac) = mant.split_once('.').unwrap_or((&mant, ""));
    let radix: u32 = if hex { 16 } else { 10 };
    let digits = format!("{int_part}{frac}");
    let digits = if digits.is_empty() { "0" } else { &digits };
    let m = BigInt::parse_bytes(digits.as_bytes(), radix)
        .ok_or_else(|| format!("floating constant `{s}`"))?;
    // value = m * radix^-|frac| * (2 or 10)^exp
    let (num, den_pow2, den_pow10): (BigInt, i64, i64) = if hex {
        (m, exp - 4 * frac.len() as i64, 0)
    } else {
        (m, 0, exp - frac.len() as i64)
    };
    if den_pow2.abs() > 20_000 || den_pow10.abs() > 6_000 {
        return Err(format!("floating constant `{s}` out of range"));
    }
    // num * 2^p2 * 10^p10 as a decimal: a negative power of two is 5^k / 10^k
    let mut num = num;
    let mut scale: i64 = 0; // the value is num / 10^scale
    if den_pow2 >= 0 {
        num <<= den_pow2 as usize;
    } else {
        num *= BigInt::from(5).pow((-den_pow2) as u32);
        scale += -den_pow2;
    }
    if den_pow10 >= 0 {
        num *= BigInt::from(10).pow(den_pow10 as u32);
    } else {
        scale += -den_pow10;
    }
    let digits = num.to_string();
    let scale = scale as usize;
    let text = if scale == 0 {
        format!("{digits}.0")
    } else if digits.len() > scale {
        let (i, f) = digits.split_at(digits.len() - scale);
        format!("{i}.{f}")
    } else {
        format!("0.{}{digits}", "0".repeat(scale - digits.len()))
    };
    // trailing zeros of the fraction dropped (one digit stays)
    let text = match text.split_once('.') {
        Some((i, f)) => {
            let f = f.trim_end_matches('0');
            format!("{i}.{}", if f.is_empty() { "0" } else { f })
        }
        None => text,
    };
    Ok((text, ty))
}

/// The rank of the usual arithmetic conversions: the type of an operation on `a` and `b` of which
/// at least one is a float.
pub(super) fn common(a: &CType, b: &CType) -> Option<FloatTy> {
    match (a, b) {
        (CType::Float(x), CType::Float(y)) => Some(*x.max(y)),
        (CType::Float(x), CType::Int(_)) | (CType::Int(_), CType::Float(x)) => Some(*x),
        _ => None,
    }
}

fn call(name: &str, args: Vec<b::Expr>, span: Span) -> b::Expr {
    ex(b::ExprKind::Call(ident(name, span), args), span)
}

impl<'a> Translator<'a> {
    /// An application of a function of the theory (recorded for `finish`).
    pub(super) fn fp(&self, f: FpFn, args: Vec<b::Expr>, span: Span) -> b::Expr {
        self.fp_used.borrow_mut().insert(f);
        call(&f.name(), args, span)
    }

    fn mode(&self, m: &'static str, span: Span) -> b::Expr {
        self.fp_used.borrow_mut().insert(FpFn::Mode(m));
        call(&FpFn::Mode(m).name(), Vec::new(), span)
    }

    /// A float constant: the exact real `text` rounded to nearest in `t`.
    pub(super) fn float_lit(&self, text: &str, t: FloatTy, span: Span) -> b::Expr {
        let neg = text.starts_with('-');
        let digits = text.trim_start_matches('-');
        let r = ex(b::ExprKind::RealLit(digits.to_string()), span);
        let v = self.fp(FpFn::FromReal(t), vec![self.mode("RNE", span), r], span);
        if neg {
            self.fp(FpFn::Op("fp.neg", t), vec![v], span)
        } else {
            v
        }
    }

    /// `+0.0` of a type (the zero of static storage and of `{0}`).
    pub(super) fn float_zero(&self, t: FloatTy, span: Span) -> b::Expr {
        self.fp(FpFn::Special("+zero", t), Vec::new(), span)
    }

    /// The value of `v` (an integer or a float) converted to the floating type `to`.
    pub(super) fn to_float(&self, v: &TV, to: FloatTy, span: Span) -> R<b::Expr> {
        match (&v.ty, &v.v) {
            (CType::Float(f), V::Float(e)) => Ok(if *f == to {
                e.clone()
            } else {
                self.fp(
                    FpFn::Convert(*f, to),
                    vec![self.mode("RNE", span), e.clone()],
                    span,
                )
            }),
            (CType::Int(_), _) => {
                let i = v.to_int(span);
                if let Some(n) = as_lit(&i) {
                    return Ok(self.float_lit(&format!("{n}.0"), to, span));
                }
                let r = ex(b::ExprKind::Unary(b::UnOp::ToReal, Box::new(i)), span);
                Ok(self.fp(FpFn::FromReal(to), vec![self.mode("RNE", span), r], span))
            }
            (t, _) => unsupported(
                format!("conversion of {} to {}", t.describe(), to.name()),
                span,
            ),
        }
    }

    /// The float `e` of type `from` converted to the integer type `to` (C11 6.3.1.4: truncated
    /// towards zero, through a bit-vector of `to`'s width; a value out of `to`'s range is undefined
    /// behaviour and gives some value of the type; to `_Bool`: compared with zero).
    pub(super) fn float_to_int(
        &self,
        e: &b::Expr,
        from: FloatTy,
        to: IntTy,
        span: Span,
    ) -> b::Expr {
        if to.kind == IntKind::Bool {
            let z = self.fp(FpFn::Op("fp.isZero", from), vec![e.clone()], span);
            return ite(z, int(0, span), int(1, span), span);
        }
        let n = to.bits(self.arch);
        let bits = self.fp(
            FpFn::ToBv(to.signed, n, from),
            vec![self.mode("RTZ", span), e.clone()],
            span,
        );
        let nat = self.fp(FpFn::Bv2Nat(n), vec![bits], span);
        if !to.signed {
            return nat;
        }
        let half = lit(&(BigInt::from(1) << (n - 1)), span);
        let full = lit(&(BigInt::from(1) << n), span);
        ite(
            bin(BinOp::Ge, nat.clone(), half, span),
            arith(BinOp::Sub, nat.clone(), full, span),
            nat,
            span,
        )
    }

    /// Records that the program uses the type `t` (declared by `finish`).
    pub(super) fn float_type(&self, t: FloatTy) -> CType {
        self.fp_used.borrow_mut().insert(FpFn::Type(t));
        CType::Float(t)
    }

    /// A binary arithmetic or comparison operator with a float operand (after the usual
    /// arithmetic conversions).
    pub(super) fn float_arith(
        &mut self,
        op: c::BinaryOperator,
        a: &TV,
        b2: &TV,
        span: Span,
    ) -> R<TV> {
        use c::BinaryOperator as O;
        let Some(t) = common(&a.ty, &b2.ty) else {
            return unsupported(
                format!("operator on {} and {}", a.ty.describe(), b2.ty.describe()),
                span,
            );
        };
        let x = self.to_float(a, t, span)?;
        let y = self.to_float(b2, t, span)?;
        let cmp = |this: &Self, o: &'static str| {
            TV::boolean(this.fp(FpFn::Op(o, t), vec![x.clone(), y.clone()], span))
        };
        let rounded = |this: &Self, o: &'static str| {
            TV::float(
                this.fp(
                    FpFn::Op(o, t),
                    vec![this.mode("RNE", span), x.clone(), y.clone()],
                    span,
                ),
                t,
            )
        };
        Ok(match op {
            O::Less => cmp(self, "fp.lt"),
            O::Greater => cmp(self, "fp.gt"),
            O::LessOrEqual => cmp(self, "fp.leq"),
            O::GreaterOrEqual => cmp(self, "fp.geq"),
            O::Equals => cmp(self, "fp.eq"),
            O::NotEquals => TV::boolean(not(
                self.fp(FpFn::Op("fp.eq", t), vec![x.clone(), y.clone()], span),
                span,
            )),
            O::Plus => rounded(self, "fp.add"),
            O::Minus => rounded(self, "fp.sub"),
            O::Multiply => rounded(self, "fp.mul"),
            O::Divide => rounded(self, "fp.div"),
            _ => return unsupported(format!("operator {op:?} on a floating type"), span),
        })
    }

    /// Unary `-` of a float.
    pub(super) fn float_neg(&self, e: b::Expr, t: FloatTy, span: Span) -> TV {
        TV::float(self.fp(FpFn::Op("fp.neg", t), vec![e], span), t)
    }

    /// A float-valued or float-classifying library function or GCC builtin; `None`: not one.
    pub(super) fn float_call(
        &mut self,
        name: &str,
        args: &'a [Node<c::Expression>],
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> Option<R<TV>> {
        let bare = name.strip_prefix("__builtin_").unwrap_or(name);
        // constants
        let special = |n: &str| match n {
            "inf" | "huge_val" => Some(("+oo", FloatTy::Double)),
            "inff" | "huge_valf" => Some(("+oo", FloatTy::Float)),
            "infl" | "huge_vall" => Some(("+oo", FloatTy::LongDouble)),
            "nan" | "nans" => Some(("NaN", FloatTy::Double)),
            "nanf" | "nansf" => Some(("NaN", FloatTy::Float)),
            "nanl" | "nansl" => Some(("NaN", FloatTy::LongDouble)),
            _ => None,
        };
        if name.starts_with("__builtin_") {
            if let Some((s, t)) = special(bare) {
                // `nan("")`: the string selects a payload, which SMT-LIB's single NaN has not
                for a in args {
                    if let Err(e) = self.expr(a, out) {
                        return Some(Err(e));
                    }
                }
                return Some(Ok(TV::float(
                    self.fp(FpFn::Special(s, t), Vec::new(), span),
                    t,
                )));
            }
        }
        let classify = matches!(
            bare,
            "isnan"
                | "isinf"
                | "isinf_sign"
                | "isfinite"
                | "isnormal"
                | "signbit"
                | "signbitf"
                | "signbitl"
                | "fpclassify"
                | "isgreater"
                | "isgreaterequal"
                | "isless"
                | "islessequal"
                | "islessgreater"
                | "isunordered"
        ) && (name.starts_with("__builtin_") || bare.starts_with("is"));
        let unary_fns = [
            "fabs",
            "sqrt",
            "floor",
            "ceil",
            "trunc",
            "round",
            "rint",
            "nearbyint",
        ];
        let binary_fns = ["fmin", "fmax", "copysign"];
        let lib = unary_fns
            .iter()
            .chain(&binary_fns)
            .find_map(|f| suffixed(name, f).map(|t| (*f, t)));
        if !classify && lib.is_none() {
            return None;
        }
        Some(self.float_call_inner(bare, lib, args, span, out))
    }

    fn float_call_inner(
        &mut self,
        bare: &str,
        lib: Option<(&str, FloatTy)>,
        args: &'a [Node<c::Expression>],
        span: Span,
        out: &mut Vec<b::Stmt>,
    ) -> R<TV> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a, out)?);
        }
        let arity = |n: usize| -> R<()> {
            if vals.len() == n {
                Ok(())
            } else {
                unsupported(format!("`{bare}` with other than {n} arguments"), span)
            }
        };
        if let Some((f, t)) = lib {
            let n = if ["fmin", "fmax", "copysign"].contains(&f) {
                2
            } else {
                1
            };
            arity(n)?;
            let x = self.to_float(&vals[0], t, span)?;
            let op = |this: &Self, o: &'static str, args: Vec<b::Expr>| {
                TV::float(this.fp(FpFn::Op(o, t), args, span), t)
            };
            let round = |this: &Self, m: &'static str| {
                op(
                    this,
                    "fp.roundToIntegral",
                    vec![this.mode(m, span), x.clone()],
                )
            };
            return Ok(match f {
                "fabs" => op(self, "fp.abs", vec![x]),
                "sqrt" => op(self, "fp.sqrt", vec![self.mode("RNE", span), x]),
                "floor" => round(self, "RTN"),
                "ceil" => round(self, "RTP"),
                "trunc" => round(self, "RTZ"),
                "round" => round(self, "RNA"),
                "rint" | "nearbyint" => round(self, "RNE"),
                "fmin" | "fmax" => {
                    // C's fmin/fmax return the other operand when one is NaN, as fp.min/fp.max
                    let y = self.to_float(&vals[1], t, span)?;
                    op(
                        self,
                        if f == "fmin" { "fp.min" } else { "fp.max" },
                        vec![x, y],
                    )
                }
                _ => {
                    // copysign(x, y): |x| with the sign of y; a NaN's sign is not known
                    let y = self.to_float(&vals[1], t, span)?;
                    let neg_y = self.sign_bit(&y, t, span, out);
                    let abs = self.fp(FpFn::Op("fp.abs", t), vec![x], span);
                    let negated = self.fp(FpFn::Op("fp.neg", t), vec![abs.clone()], span);
                    TV::float(ite(neg_y, negated, abs, span), t)
                }
            });
        }
        let float_arg = |this: &Self, v: &TV| -> R<(b::Expr, FloatTy)> {
            match (&v.ty, &v.v) {
                (CType::Float(t), V::Float(e)) => Ok((e.clone(), *t)),
                (CType::Int(_), _) => {
                    Ok((this.to_float(v, FloatTy::Double, span)?, FloatTy::Double))
                }
                (t, _) => unsupported(format!("`{bare}` of {}", t.describe()), span),
            }
        };
        let pred = |this: &Self, p: &'static str, e: &b::Expr, t: FloatTy| {
            this.fp(FpFn::Op(p, t), vec![e.clone()], span)
        };
        let as_int = |c: b::Expr| ite(c, int(1, span), int(0, span), span);
        match bare {
            "isnan" | "isinf" | "isfinite" | "isnormal" => {
                arity(1)?;
                let (e, t) = float_arg(self, &vals[0])?;
                let c = match bare {
                    "isnan" => pred(self, "fp.isNaN", &e, t),
                    "isinf" => pred(self, "fp.isInfinite", &e, t),
                    "isnormal" => pred(self, "fp.isNormal", &e, t),
                    _ => not(
                        bin(
                            BinOp::Or,
                            pred(self, "fp.isNaN", &e, t),
                            pred(self, "fp.isInfinite", &e, t),
                            span,
                        ),
                        span,
                    ),
                };
                Ok(TV::boolean(c))
            }
            "isinf_sign" => {
                arity(1)?;
                let (e, t) = float_arg(self, &vals[0])?;
                let r = ite(
                    pred(self, "fp.isInfinite", &e, t),
                    ite(
                        pred(self, "fp.isNegative", &e, t),
                        int(-1, span),
                        int(1, span),
                        span,
                    ),
                    int(0, span),
                    span,
                );
                Ok(TV::int(r, IntTy::INT))
            }
            "signbit" | "signbitf" | "signbitl" => {
                arity(1)?;
                let (e, t) = float_arg(self, &vals[0])?;
                let s = self.sign_bit(&e, t, span, out);
                Ok(TV::int(as_int(s), IntTy::INT))
            }
            "fpclassify" => {
                // fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
                arity(6)?;
                let mut codes = Vec::new();
                for v in &vals[..5] {
                    codes.push(self.convert(v, IntTy::INT, span)?);
                }
                let (e, t) = float_arg(self, &vals[5])?;
                let r = ite(
                    pred(self, "fp.isNaN", &e, t),
                    codes[0].clone(),
                    ite(
                        pred(self, "fp.isInfinite", &e, t),
                        codes[1].clone(),
                        ite(
                            pred(self, "fp.isNormal", &e, t),
                            codes[2].clone(),
                            ite(
                                pred(self, "fp.isSubnormal", &e, t),
                                codes[3].clone(),
                                codes[4].clone(),
                                span,
                            ),
                            span,
                        ),
                        span,
                    ),
                    span,
                );
                Ok(TV::int(r, IntTy::INT))
            }
            _ => {
                // the quiet comparisons: false on unordered operands, like the operators
                arity(2)?;
                let t = match common(&vals[0].ty, &vals[1].ty) {
                    Some(t) => t,
                    None => return unsupported(format!("`{bare}` of non-floats"), span),
                };
                let x = self.to_float(&vals[0], t, span)?;
                let y = self.to_float(&vals[1], t, span)?;
                let p = |this: &Self, o: &'static str| {
                    this.fp(FpFn::Op(o, t), vec![x.clone(), y.clone()], span)
                };
                let unordered = bin(
                    BinOp::Or,
                    pred(self, "fp.isNaN", &x, t),
                    pred(self, "fp.isNaN", &y, t),
                    span,
                );
                let c = match bare {
                    "isgreater" => p(self, "fp.gt"),
                    "isgreaterequal" => p(self, "fp.geq"),
                    "isless" => p(self, "fp.lt"),
                    "islessequal" => p(self, "fp.leq"),
                    "islessgreater" => bin(BinOp::Or, p(self, "fp.lt"), p(self, "fp.gt"), span),
                    _ => unordered,
                };
                Ok(TV::boolean(c))
            }
        }
    }

    /// Whether the sign bit of `e` is set: `fp.isNegative`, except for a NaN, whose sign SMT-LIB
    /// does not have: then a nondeterministic choice (a fresh variable).
    fn sign_bit(&mut self, e: &b::Expr, t: FloatTy, span: Span, out: &mut Vec<b::Stmt>) -> b::Expr {
        let choice = self.new_local("#nanSign", ty(b::TypeKind::Bool, span));
        out.push(havoc(&choice, span));
        ite(
            self.fp(FpFn::Op("fp.isNaN", t), vec![e.clone()], span),
            var(&choice, span),
            self.fp(FpFn::Op("fp.isNegative", t), vec![e.clone()], span),
            span,
        )
    }

    /// A fresh temporary of a float type.
    pub(super) fn float_temp(&mut self, t: FloatTy, span: Span) -> String {
        self.new_local("#t", t.boogie_type(span))
    }

    /// A fresh local of a float type holding an arbitrary value (any bit pattern: NaN and the
    /// infinities too).
    pub(super) fn nondet_float(&mut self, t: FloatTy, span: Span, out: &mut Vec<b::Stmt>) -> TV {
        let tmp = self.float_temp(t, span);
        out.push(havoc(&tmp, span));
        TV::float(var(&tmp, span), t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(number: &str, hex: bool, format: c::FloatFormat) -> (String, FloatTy) {
        literal(&c::Float {
            base: if hex {
                c::FloatBase::Hexadecimal
            } else {
                c::FloatBase::Decimal
            },
            number: number.into(),
            suffix: c::FloatSuffix {
                format,
                imaginary: false,
            },
        })
        .unwrap()
    }

    #[test]
    fn literals_are_exact_decimals() {
        use c::FloatFormat::*;
        assert_eq!(lit("1.5", false, Double), ("1.5".into(), FloatTy::Double));
        assert_eq!(lit("0.1", false, Float), ("0.1".into(), FloatTy::Float));
        assert_eq!(lit("1e3", false, Double).0, "1000.0");
        assert_eq!(
            lit("2.5e-3", false, LongDouble),
            ("0.0025".into(), FloatTy::LongDouble)
        );
        assert_eq!(lit(".5", false, Double).0, "0.5");
        assert_eq!(lit("5.", false, Double).0, "5.0");
        // hexadecimal: 0x1.8p1 = 3, 0x1p-3 = 0.125, 0xAp0 = 10
        assert_eq!(lit("1.8p1", true, Double).0, "3.0");
        assert_eq!(lit("1p-3", true, Double).0, "0.125");
        assert_eq!(lit("Ap0", true, Float).0, "10.0");
        assert_eq!(lit("0.0", false, Double).0, "0.0");
    }

    #[test]
    fn library_names_carry_their_type() {
        assert_eq!(suffixed("fabsf", "fabs"), Some(FloatTy::Float));
        assert_eq!(
            suffixed("__builtin_fabsl", "fabs"),
            Some(FloatTy::LongDouble)
        );
        assert_eq!(suffixed("sqrt", "sqrt"), Some(FloatTy::Double));
        assert_eq!(suffixed("sqrtx", "sqrt"), None);
    }
}
