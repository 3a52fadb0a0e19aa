//! Abstract values of the explicit-state executor: concrete integers, reals, booleans and finite maps,
//! or `Unknown` (⊤: any value of the type — an unconstrained input, a havoc, an uninterpreted
//! function's result). `Unknown` has no identity: two unknowns are never known to be equal.
//!
//! Every operation is a sound over-approximation: if it returns a concrete value, every concretisation
//! of its operands gives that value; otherwise it returns `Unknown`.

use crate::ir::Type;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Signed;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// An abstract value. Structural equality (`==`) implies that both sides stand for the same set of
/// concrete values (the same concrete value, or both ⊤); it is what cycle detection compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Unknown,
    Bool(bool),
    Int(Int),
    Real(BigRational),
    Map(Rc<MapValue>),
}

/// A concrete map index component.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Bool(bool),
    Int(Int),
    Real(BigRational),
}

/// A map: finitely many explicit cells, every other cell holds `default`. Cells equal to the default are
/// not stored (so equal maps built in different orders are usually structurally equal too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapValue {
    pub default: Value,
    pub entries: BTreeMap<Index, Value>,
}

/// The index of a map cell: its keys, one per index of the map type, ordered (and compared) as the
/// slice of keys. Most maps have one index, which takes no allocation of its own (a map of a
/// million cells is copied whenever a saved state shares it, see `Machine::execute`).
#[derive(Clone, Debug)]
pub enum Index {
    One(Key),
    Many(Vec<Key>),
}

impl Index {
    pub fn new(keys: Vec<Key>) -> Index {
        match <[Key; 1]>::try_from(keys) {
            Ok([k]) => Index::One(k),
            Err(keys) => Index::Many(keys),
        }
    }
}

impl Deref for Index {
    type Target = [Key];
    fn deref(&self) -> &[Key] {
        match self {
            Index::One(k) => std::slice::from_ref(k),
            Index::Many(ks) => ks,
        }
    }
}

impl Borrow<[Key]> for Index {
    fn borrow(&self) -> &[Key] {
        self
    }
}

impl PartialEq for Index {
    fn eq(&self, other: &Index) -> bool {
        **self == **other
    }
}

impl Eq for Index {}

impl Ord for Index {
    fn cmp(&self, other: &Index) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl PartialOrd for Index {
    fn partial_cmp(&self, other: &Index) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A mathematical integer, held in a machine word while it fits: the executor's loops count with
/// small numbers, and a `BigInt` allocates for every non-zero value (and compares digit vectors
/// as a map key). Invariant: `Big` only outside the range of `i64`, so equal numbers are
/// structurally equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    Big(BigInt),
}

impl Int {
    pub fn big(b: BigInt) -> Int {
        match i64::try_from(&b) {
            Ok(s) => Int::Small(s),
            Err(_) => Int::Big(b),
        }
    }

    pub fn from_big(b: &BigInt) -> Int {
        match i64::try_from(b) {
            Ok(s) => Int::Small(s),
            Err(_) => Int::Big(b.clone()),
        }
    }

    pub fn to_big(&self) -> BigInt {
        match self {
            Int::Small(s) => BigInt::from(*s),
            Int::Big(b) => b.clone(),
        }
    }

    /// Bits of the magnitude.
    pub fn bits(&self) -> u64 {
        match self {
            Int::Small(s) => u64::from(64 - s.unsigned_abs().leading_zeros()),
            Int::Big(b) => b.bits(),
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }

    /// `self op other` by `small` on words, by `big` when that overflows.
    fn combine(
        &self,
        other: &Int,
        small: fn(i64, i64) -> Option<i64>,
        big: fn(BigInt, BigInt) -> BigInt,
    ) -> Int {
        if let (Int::Small(a), Int::Small(b)) = (self, other)
            && let Some(r) = small(*a, *b)
        {
            return Int::Small(r);
        }
        Int::big(big(self.to_big(), other.to_big()))
    }

    pub fn add(&self, other: &Int) -> Int {
        self.combine(other, i64::checked_add, |a, b| a + b)
    }

    pub fn sub(&self, other: &Int) -> Int {
        self.combine(other, i64::checked_sub, |a, b| a - b)
    }

    pub fn mul(&self, other: &Int) -> Int {
        self.combine(other, i64::checked_mul, |a, b| a * b)
    }

    pub fn neg(&self) -> Int {
        match self {
            Int::Small(s) if *s != i64::MIN => Int::Small(-s),
            _ => Int::big(-self.to_big()),
        }
    }

    /// SMT-LIB's `mod` and `div` (`self = q * d + r`, `0 <= r < |d|`), for `d != 0`.
    pub fn div_mod(&self, d: &Int) -> (Int, Int) {
        if let (Int::Small(a), Int::Small(b)) = (self, d)
            && let Some(m) = b.checked_abs()
            && let Some(r) = a.checked_rem_euclid(m)
            && let Some(q) = a.checked_sub(r).and_then(|x| x.checked_div(*b))
        {
            return (Int::Small(q), Int::Small(r));
        }
        let (a, b) = (self.to_big(), d.to_big());
        let r = a.mod_floor(&b.abs());
        (Int::big((a - &r) / b), Int::big(r))
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            // (a `Big` is beyond every `Small`, on the side of its sign)
            (Int::Small(_), Int::Big(b)) => {
                if b.is_negative() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Int::Big(a), Int::Small(_)) => {
                if a.is_negative() {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Int::Big(a), Int::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(s) => write!(f, "{s}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl From<i64> for Int {
    fn from(i: i64) -> Int {
        Int::Small(i)
    }
}

/// A three-valued truth value: `None` is unknown.
pub type Tri = Option<bool>;

impl Value {
    /// The map that holds `default` everywhere.
    pub fn constant_map(default: Value) -> Value {
        Value::Map(Rc::new(MapValue {
            default,
            entries: BTreeMap::new(),
        }))
    }

    /// The key this value is as a map index, if concrete and a scalar.
    pub fn key(&self) -> Option<Key> {
        match self {
            Value::Bool(b) => Some(Key::Bool(*b)),
            Value::Int(i) => Some(Key::Int(i.clone())),
            Value::Real(r) => Some(Key::Real(r.clone())),
            Value::Unknown | Value::Map(_) => None,
        }
    }

    /// Number of explicit map cells in this value (nested maps included).
    pub fn cells(&self) -> usize {
        match self {
            Value::Map(m) => {
                let nested = matches!(m.default, Value::Map(_))
                    || m.entries
                        .values()
                        .find(|v| !matches!(v, Value::Unknown))
                        .is_some_and(|v| matches!(v, Value::Map(_)));
                if nested {
                    m.entries.len()
                        + m.default.cells()
                        + m.entries.values().map(Value::cells).sum::<usize>()
                } else {
                    m.entries.len()
                }
            }
            _ => 0,
        }
    }

    /// Renders the value in Boogie-like syntax (maps as `[k := v, …, else d]`).
    pub fn show(&self) -> String {
        match self {
            Value::Unknown => "?".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Real(r) => {
                if r.is_integer() {
                    format!("{}.0", r.to_integer())
                } else {
                    format!("{}/{}", r.numer(), r.denom())
                }
            }
            Value::Map(m) => {
                let mut parts: Vec<String> = m
                    .entries
                    .iter()
                    .take(8)
                    .map(|(k, v)| {
                        let ks: Vec<String> = k.iter().map(Key::show).collect();
                        format!("{} := {}", ks.join(", "), v.show())
                    })
                    .collect();
                if m.entries.len() > 8 {
                    parts.push("…".into());
                }
                parts.push(format!("else {}", m.default.show()));
                format!("[{}]", parts.join(", "))
            }
        }
    }
}

impl Key {
    fn show(&self) -> String {
        Value::from(self.clone()).show()
    }
}

impl From<Key> for Value {
    fn from(k: Key) -> Value {
        match k {
            Key::Bool(b) => Value::Bool(b),
            Key::Int(i) => Value::Int(i),
            Key::Real(r) => Value::Real(r),
        }
    }
}

impl MapValue {
    /// The value at `key`.
    pub fn get(&self, key: &[Key]) -> &Value {
        self.entries.get(key).unwrap_or(&self.default)
    }

    /// Sets the cell at `key`, keeping the representation normalised.
    pub fn set(&mut self, key: Index, v: Value) {
        if v == self.default {
            self.entries.remove(&*key);
        } else {
            self.entries.insert(key, v);
        }
    }
}

/// Whether a map type's index domain is infinite in every component, so that two maps with finitely
/// many explicit cells each also agree on (infinitely many) cells where both hold their default.
fn infinite_domain(args: &[Type]) -> bool {
    args.iter().all(|t| matches!(t, Type::Int | Type::Real))
}

/// Three-valued equality of two values of type `ty`.
pub fn equal(a: &Value, b: &Value, ty: &Type) -> Tri {
    match (a, b) {
        (Value::Unknown, _) | (_, Value::Unknown) => None,
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Int(x), Value::Int(y)) => Some(x == y),
        (Value::Real(x), Value::Real(y)) => Some(x == y),
        (Value::Map(x), Value::Map(y)) => {
            let Type::Map {
                type_params,
                args,
                result,
            } = ty
            else {
                return None;
            };
            if !type_params.is_empty() || !infinite_domain(args) {
                return None;
            }
            let mut all_true = true;
            let mut combine = |t: Tri| -> bool {
                match t {
                    Some(false) => true,
                    Some(true) => false,
                    None => {
                        all_true = false;
                        false
                    }
                }
            };
            // Defaults first: some index is explicit in neither map (infinite domain).
            if combine(equal(&x.default, &y.default, result)) {
                return Some(false);
            }
            for (k, v) in &x.entries {
                if combine(equal(v, y.get(k), result)) {
                    return Some(false);
                }
            }
            for (k, v) in &y.entries {
                if !x.entries.contains_key(k) && combine(equal(x.get(k), v, result)) {
                    return Some(false);
                }
            }
            if all_true { Some(true) } else { None }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    fn int(i: i64) -> Value {
        Value::Int(Int::from(i))
    }
    fn key(i: i64) -> Index {
        Index::One(Key::Int(Int::from(i)))
    }
    fn int_map() -> Type {
        Type::Map {
            type_params: vec![],
            args: vec![Type::Int],
            result: Box::new(Type::Int),
        }
    }

    /// Numbers at and around the edges of `i64`, and beyond.
    fn samples() -> Vec<BigInt> {
        let mut v: Vec<BigInt> = [0i64, 1, -1, 2, -2, 3, -7, 7, 1 << 31, -(1 << 31)]
            .into_iter()
            .map(BigInt::from)
            .collect();
        for edge in [BigInt::from(i64::MAX), BigInt::from(i64::MIN)] {
            for d in -2..=2 {
                v.push(&edge + d);
            }
        }
        v.push(BigInt::from(i64::MAX) * 3);
        v.push(BigInt::from(i64::MIN) * 5);
        v
    }

    /// Every operation on `Int` agrees with the same operation on `BigInt` (the reference), keeps
    /// the representation canonical (`Small` exactly within `i64`) and orders as `BigInt` does.
    #[test]
    fn small_integers_agree_with_big_ones() {
        let canonical = |i: &Int, b: &BigInt| {
            assert_eq!(i.to_big(), *b);
            assert_eq!(matches!(i, Int::Small(_)), i64::try_from(b).is_ok(), "{b}");
            assert_eq!(i.bits(), b.bits(), "{b}");
        };
        let samples = samples();
        for a in &samples {
            let x = Int::from_big(a);
            canonical(&x, a);
            canonical(&x.neg(), &-a);
            assert_eq!(x.to_string(), a.to_string());
            for b in &samples {
                let y = Int::from_big(b);
                canonical(&x.add(&y), &(a + b));
                canonical(&x.sub(&y), &(a - b));
                canonical(&x.mul(&y), &(a * b));
                assert_eq!(x.cmp(&y), a.cmp(b), "{a} vs {b}");
                assert_eq!(x == y, a == b);
                if !b.is_zero() {
                    let r = a.mod_floor(&b.abs());
                    let q = (a - &r) / b;
                    let (d, m) = x.div_mod(&y);
                    canonical(&d, &q);
                    canonical(&m, &r);
                }
            }
        }
    }

    /// A one-key index is ordered and found as the slice of its keys.
    #[test]
    fn indices_order_as_their_keys() {
        let k = |i: i64| Key::Int(Int::from(i));
        let mut m = BTreeMap::new();
        m.insert(Index::new(vec![k(2)]), 1);
        m.insert(Index::new(vec![k(1), k(5)]), 2);
        m.insert(Index::new(vec![k(1)]), 3);
        let order: Vec<Vec<Key>> = m.keys().map(|i| i.to_vec()).collect();
        assert_eq!(order, vec![vec![k(1)], vec![k(1), k(5)], vec![k(2)]]);
        assert_eq!(m.get(&[k(1)][..]), Some(&3));
        assert_eq!(m.get(&[k(1), k(5)][..]), Some(&2));
        assert!(matches!(Index::new(vec![k(3)]), Index::One(_)));
    }

    #[test]
    fn storing_the_default_keeps_maps_canonical() {
        let mut a = MapValue {
            default: int(0),
            entries: BTreeMap::new(),
        };
        a.set(key(3), int(5));
        a.set(key(3), int(0));
        assert!(a.entries.is_empty());
        assert_eq!(Value::Map(Rc::new(a)), Value::constant_map(int(0)));
    }

    #[test]
    fn map_equality_is_three_valued() {
        let mut a = MapValue {
            default: int(0),
            entries: BTreeMap::new(),
        };
        a.set(key(1), int(1));
        let b = a.clone();
        let (va, vb) = (Value::Map(Rc::new(a)), Value::Map(Rc::new(b)));
        assert_eq!(equal(&va, &vb, &int_map()), Some(true));
        let c = Value::constant_map(int(0));
        assert_eq!(equal(&va, &c, &int_map()), Some(false));
        let unknown_default = Value::constant_map(Value::Unknown);
        assert_eq!(equal(&unknown_default, &unknown_default, &int_map()), None);
        // Structurally equal, but both ⊤: equality of the values is not known.
        assert_eq!(equal(&Value::Unknown, &Value::Unknown, &Type::Int), None);
    }
}
