//! C integer types and their semantics over mathematical integers (ILP32 / LP64).
//!
//! Every C integer is a Boogie `int`. A value of type `T` lies in `T::min ..= T::max`; unsigned
//! arithmetic is wrapped modulo `2^n` after each operation; conversions between integer types are
//! exact (modulo `2^n` into an unsigned type, two's-complement wrap into a narrower signed type, as
//! gcc does). Signed overflow is not wrapped (Ultimate's default: the result stays mathematical).
//! Division and remainder truncate towards zero (C99 6.5.5), unlike SMT-LIB's Euclidean `div`/`mod`.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// The data model: `int` is 32 bits in both; `long` is 32 bits in ILP32 and 64 bits in LP64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Arch {
    #[default]
    Ilp32,
    Lp64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IntKind {
    Bool,
    Char,
    Short,
    Int,
    Long,
    LongLong,
    /// GCC's `__int128`.
    Int128,
    /// A bit-field of `width` bits (C11 6.7.2.1p10) declared with an integer type of `unit` bytes:
    /// the values of a `width`-bit integer of the signedness declared, its lowest bit at `shift`
    /// in its first byte (`None`: the struct's layout is unknown).
    BitField {
        width: u8,
        unit: u8,
        shift: Option<u8>,
    },
}

/// A C integer type. `char` is signed (gcc on x86, Ultimate's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntTy {
    pub kind: IntKind,
    pub signed: bool,
}

impl IntTy {
    pub const BOOL: IntTy = IntTy {
        kind: IntKind::Bool,
        signed: false,
    };
    pub const INT: IntTy = IntTy {
        kind: IntKind::Int,
        signed: true,
    };
    pub const UINT: IntTy = IntTy {
        kind: IntKind::Int,
        signed: false,
    };
    pub const CHAR: IntTy = IntTy {
        kind: IntKind::Char,
        signed: true,
    };
    /// `size_t`: `unsigned long` in both data models.
    pub const SIZE_T: IntTy = IntTy {
        kind: IntKind::Long,
        signed: false,
    };

    pub fn new(kind: IntKind, signed: bool) -> IntTy {
        IntTy {
            kind,
            signed: signed && kind != IntKind::Bool,
        }
    }

    /// Width in bits (`_Bool` is 1: its values are 0 and 1).
    pub fn bits(self, arch: Arch) -> u32 {
        match self.kind {
            IntKind::Bool => 1,
            IntKind::Char => 8,
            IntKind::Short => 16,
            IntKind::Int => 32,
            IntKind::Long => match arch {
                Arch::Ilp32 => 32,
                Arch::Lp64 => 64,
            },
            IntKind::LongLong => 64,
            IntKind::Int128 => 128,
            IntKind::BitField { width, .. } => u32::from(width),
        }
    }

    /// Storage size in bytes (`sizeof`).
    pub fn size(self, arch: Arch) -> u64 {
        match self.kind {
            IntKind::Bool => 1,
            IntKind::BitField { unit, .. } => u64::from(unit),
            _ => u64::from(self.bits(arch) / 8),
        }
    }

    pub fn min(self, arch: Arch) -> BigInt {
        if self.signed {
            -(BigInt::one() << (self.bits(arch) - 1))
        } else {
            BigInt::zero()
        }
    }

    pub fn max(self, arch: Arch) -> BigInt {
        if self.signed {
            (BigInt::one() << (self.bits(arch) - 1)) - 1
        } else {
            (BigInt::one() << self.bits(arch)) - 1
        }
    }

    /// `2^n` for an n-bit type.
    pub fn modulus(self, arch: Arch) -> BigInt {
        BigInt::one() << self.bits(arch)
    }

    pub fn contains(self, v: &BigInt, arch: Arch) -> bool {
        *v >= self.min(arch) && *v <= self.max(arch)
    }

    /// Whether every value of `self` is a value of `other`.
    pub fn fits_in(self, other: IntTy, arch: Arch) -> bool {
        self.min(arch) >= other.min(arch) && self.max(arch) <= other.max(arch)
    }

    fn rank(self) -> u8 {
        match self.kind {
            IntKind::Bool => 0,
            IntKind::Char => 1,
            IntKind::Short => 2,
            IntKind::Int => 3,
            IntKind::Long => 4,
            IntKind::LongLong => 5,
            IntKind::Int128 => 6,
            // promoted before any use of the rank (see `promote`)
            IntKind::BitField { unit, .. } => match unit {
                1 => 1,
                2 => 2,
                4 => 3,
                _ => 5,
            },
        }
    }

    /// The C name of the type.
    pub fn name(self) -> &'static str {
        match (self.kind, self.signed) {
            (IntKind::Bool, _) => "_Bool",
            (IntKind::Char, true) => "char",
            (IntKind::Char, false) => "unsigned char",
            (IntKind::Short, true) => "short",
            (IntKind::Short, false) => "unsigned short",
            (IntKind::Int, true) => "int",
            (IntKind::Int, false) => "unsigned int",
            (IntKind::Long, true) => "long",
            (IntKind::Long, false) => "unsigned long",
            (IntKind::LongLong, true) => "long long",
            (IntKind::LongLong, false) => "unsigned long long",
            (IntKind::Int128, true) => "__int128",
            (IntKind::Int128, false) => "unsigned __int128",
            (IntKind::BitField { .. }, true) => "signed bit-field",
            (IntKind::BitField { .. }, false) => "unsigned bit-field",
        }
    }
}

/// Integer promotion (C11 6.3.1.1): types of rank below `int` become `int` (all their values fit).
/// A bit-field becomes `int` if `int` holds all its values, else `unsigned int` if that does (C11
/// 6.3.1.1p2); a wider one (a gcc extension) keeps the width of its declared type.
pub fn promote(t: IntTy) -> IntTy {
    if let IntKind::BitField { width, unit, .. } = t.kind {
        return match (width, t.signed) {
            (0..32, _) | (32, true) => IntTy::INT,
            (32, false) => IntTy::new(IntKind::Int, false),
            _ if unit <= 4 => IntTy::new(IntKind::Int, t.signed),
            _ => IntTy::new(IntKind::LongLong, t.signed),
        };
    }
    if t.rank() < IntTy::INT.rank() {
        IntTy::INT
    } else {
        t
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) on two integer types.
pub fn common(a: IntTy, b: IntTy, arch: Arch) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if u.fits_in(s, arch) {
        s
    } else {
        IntTy::new(s.kind, false)
    }
}

/// The value of `v` converted to `to` (exact: modulo `2^n` for unsigned targets, two's-complement
/// wrap for signed ones, `!= 0` for `_Bool`).
pub fn convert(v: &BigInt, to: IntTy, arch: Arch) -> BigInt {
    if to.kind == IntKind::Bool {
        return if v.is_zero() {
            BigInt::zero()
        } else {
            BigInt::one()
        };
    }
    if to.contains(v, arch) {
        return v.clone();
    }
    let m = to.modulus(arch);
    let r = v.mod_floor(&m);
    if to.signed && r > to.max(arch) {
        r - m
    } else {
        r
    }
}

/// C division: truncates towards zero. `None` for a zero divisor.
pub fn c_div(a: &BigInt, b: &BigInt) -> Option<BigInt> {
    if b.is_zero() {
        return None;
    }
    let q = a.abs() / b.abs();
    Some(if a.is_negative() != b.is_negative() {
        -q
    } else {
        q
    })
}

/// C remainder: `a - b * (a / b)`, with the sign of `a`. `None` for a zero divisor.
pub fn c_rem(a: &BigInt, b: &BigInt) -> Option<BigInt> {
    let q = c_div(a, b)?;
    Some(a - b * q)
}

/// The type of an integer constant (C11 6.4.4.1): the first of the candidate types that holds it.
pub fn literal_type(
    v: &BigInt,
    decimal: bool,
    unsigned: bool,
    size: u8,
    arch: Arch,
) -> Option<IntTy> {
    use IntKind::*;
    let kinds: &[IntKind] = match size {
        0 => &[Int, Long, LongLong],
        1 => &[Long, LongLong],
        _ => &[LongLong],
    };
    let mut cands = Vec::new();
    for &k in kinds {
        if unsigned {
            cands.push(IntTy::new(k, false));
        } else {
            cands.push(IntTy::new(k, true));
            if !decimal {
                cands.push(IntTy::new(k, false));
            }
        }
    }
    cands.into_iter().find(|t| t.contains(v, arch))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: i64) -> BigInt {
        BigInt::from(v)
    }

    #[test]
    fn division_truncates_towards_zero() {
        assert_eq!(c_div(&b(7), &b(2)), Some(b(3)));
        assert_eq!(c_div(&b(-7), &b(2)), Some(b(-3)));
        assert_eq!(c_div(&b(7), &b(-2)), Some(b(-3)));
        assert_eq!(c_div(&b(-7), &b(-2)), Some(b(3)));
        assert_eq!(c_rem(&b(-7), &b(2)), Some(b(-1)));
        assert_eq!(c_rem(&b(7), &b(-2)), Some(b(1)));
        assert_eq!(c_rem(&b(-7), &b(-2)), Some(b(-1)));
        assert_eq!(c_div(&b(1), &b(0)), None);
    }

    #[test]
    fn ranges_per_data_model() {
        let long = IntTy::new(IntKind::Long, true);
        assert_eq!(long.max(Arch::Ilp32), b(i32::MAX as i64));
        assert_eq!(long.max(Arch::Lp64), b(i64::MAX));
        assert_eq!(IntTy::UINT.max(Arch::Ilp32), b(u32::MAX as i64));
        assert_eq!(IntTy::CHAR.min(Arch::Ilp32), b(-128));
        assert_eq!(IntTy::BOOL.max(Arch::Ilp32), b(1));
    }

    #[test]
    fn conversions_are_exact() {
        let uchar = IntTy::new(IntKind::Char, false);
        assert_eq!(convert(&b(-1), IntTy::UINT, Arch::Ilp32), b(4294967295));
        assert_eq!(convert(&b(256 + 7), uchar, Arch::Ilp32), b(7));
        assert_eq!(convert(&b(200), IntTy::CHAR, Arch::Ilp32), b(-56));
        assert_eq!(convert(&b(4294967295), IntTy::INT, Arch::Ilp32), b(-1));
        assert_eq!(convert(&b(-5), IntTy::BOOL, Arch::Ilp32), b(1));
        assert_eq!(convert(&b(0), IntTy::BOOL, Arch::Ilp32), b(0));
    }

    #[test]
    fn usual_arithmetic_conversions() {
        let a = Arch::Ilp32;
        let uchar = IntTy::new(IntKind::Char, false);
        let long = IntTy::new(IntKind::Long, true);
        let ulong = IntTy::new(IntKind::Long, false);
        let llong = IntTy::new(IntKind::LongLong, true);
        assert_eq!(common(uchar, IntTy::CHAR, a), IntTy::INT);
        assert_eq!(common(IntTy::INT, IntTy::UINT, a), IntTy::UINT);
        // long and unsigned int: in ILP32 long cannot hold every unsigned int
        assert_eq!(common(long, IntTy::UINT, a), ulong);
        assert_eq!(common(long, IntTy::UINT, Arch::Lp64), long);
        assert_eq!(common(llong, IntTy::UINT, a), llong);
    }

    #[test]
    fn literal_types() {
        let a = Arch::Ilp32;
        assert_eq!(literal_type(&b(5), true, false, 0, a), Some(IntTy::INT));
        assert_eq!(
            literal_type(&b(4294967295), true, false, 0, a),
            Some(IntTy::new(IntKind::LongLong, true))
        );
        assert_eq!(
            literal_type(&b(4294967295), false, false, 0, a),
            Some(IntTy::UINT)
        );
        assert_eq!(literal_type(&b(5), true, true, 0, a), Some(IntTy::UINT));
    }
}
