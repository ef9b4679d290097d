//! An owned JSON-like value, as planloop receives it from a host.
//!
//! It is JSON plus `undefined` (a JS property can hold it, and zod treats it apart from
//! `null`) plus strings that were not well-formed UTF-16 (JS strings may carry lone
//! surrogates, Rust strings may not). Input can be nested arbitrarily deep, so `Drop` is
//! iterative: a 10,000-deep array must not overflow the wasm stack.

use std::mem;

/// A value received from the host.
#[derive(Debug, PartialEq)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    /// A JS string with lone surrogates; each one is replaced by U+FFFD here.
    IllFormedString(String),
    Array(Vec<Value>),
    /// Members in source order; a repeated key keeps every occurrence, the last one wins.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The value of `key`, with `JSON.parse` semantics for repeated keys (the last wins).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Moves `key`'s value out (the last occurrence), leaving `undefined` in its place.
    pub fn take(&mut self, key: &str) -> Option<Value> {
        match self {
            Value::Object(members) => {
                members.iter_mut().rev().find(|(k, _)| k == key).map(|(_, v)| mem::replace(v, Value::Undefined))
            }
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Moves a well-formed string out (`Value` implements `Drop`, so it cannot be destructured).
    pub fn take_string(&mut self) -> Option<String> {
        match self {
            Value::String(s) => Some(mem::take(s)),
            _ => None,
        }
    }

    /// Moves array items out.
    pub fn take_items(&mut self) -> Option<Vec<Value>> {
        match self {
            Value::Array(items) => Some(mem::take(items)),
            _ => None,
        }
    }

    /// `null` or `undefined`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Null | Value::Undefined)
    }
}

impl Drop for Value {
    fn drop(&mut self) {
        let mut pending = match self {
            Value::Array(items) if items.iter().any(is_container) => mem::take(items),
            Value::Object(members) if members.iter().any(|(_, v)| is_container(v)) => {
                members.drain(..).map(|(_, v)| v).collect()
            }
            _ => return,
        };
        while let Some(mut value) = pending.pop() {
            match &mut value {
                Value::Array(items) => pending.append(items),
                Value::Object(members) => pending.extend(members.drain(..).map(|(_, v)| v)),
                _ => {}
            }
        }
    }
}

fn is_container(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        Value::Object(members) => !members.is_empty(),
        _ => false,
    }
}

/// `undefined` and `null` both serialize as serde's unit, which the JS serializer turns
/// into `undefined` or `null` as configured (see `src/wasm/convert.rs`). Recursion is
/// bounded because only validated values, as deep as their schema, are serialized.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Undefined => serializer.serialize_unit(),
            Value::Null => serializer.serialize_none(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => serializer.serialize_f64(*n),
            Value::String(s) | Value::IllFormedString(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_a_very_deep_value_does_not_overflow_the_stack() {
        let mut value = Value::Null;
        for i in 0..200_000 {
            value = if i % 2 == 0 { Value::Array(vec![value]) } else { Value::Object(vec![("k".into(), value)]) };
        }
        drop(value);
    }

    #[test]
    fn get_and_take_use_the_last_occurrence_of_a_key() {
        let mut v = Value::Object(vec![("a".into(), Value::Number(1.0)), ("a".into(), Value::Number(2.0))]);
        assert_eq!(v.get("a"), Some(&Value::Number(2.0)));
        assert_eq!(v.take("a"), Some(Value::Number(2.0)));
        assert_eq!(v.get("a"), Some(&Value::Undefined));
        assert_eq!(v.get("b"), None);
    }
}
