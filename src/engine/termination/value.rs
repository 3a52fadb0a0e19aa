//! Abstract values of the explicit-state executor: concrete integers, reals, booleans and finite maps,
//! or `Unknown` (⊤: any value of the type — an unconstrained input, a havoc, an uninterpreted
//! function's result). `Unknown` has no identity: two unknowns are never known to be equal.
//!
//! Every operation is a sound over-approximation: if it returns a concrete value, every concretisation
//! of its operands gives that value; otherwise it returns `Unknown`.

use crate::ir::Type;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeMap;
use std::rc::Rc;

/// An abstract value. Structural equality (`==`) implies that both sides stand for the same set of
/// concrete values (the same concrete value, or both ⊤); it is what cycle detection compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Unknown,
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    Map(Rc<MapValue>),
}

/// A concrete map index component.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
}

/// A map: finitely many explicit cells, every other cell holds `default`. Cells equal to the default are
/// not stored (so equal maps built in different orders are usually structurally equal too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapValue {
    pub default: Value,
    pub entries: BTreeMap<Vec<Key>, Value>,
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
    pub fn set(&mut self, key: Vec<Key>, v: Value) {
        if v == self.default {
            self.entries.remove(&key);
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

    fn int(i: i64) -> Value {
        Value::Int(BigInt::from(i))
    }
    fn key(i: i64) -> Vec<Key> {
        vec![Key::Int(BigInt::from(i))]
    }
    fn int_map() -> Type {
        Type::Map {
            type_params: vec![],
            args: vec![Type::Int],
            result: Box::new(Type::Int),
        }
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
