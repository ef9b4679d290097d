//! A JSON-like value, as planloop exchanges it with a host.
//!
//! It is JSON plus `undefined` (a JS property can hold it, and zod treats it apart from
//! `null`) plus strings that were not well-formed UTF-16 (JS strings may carry lone
//! surrogates, Rust strings may not). A parsed [`Document`] can be nested arbitrarily
//! deep and is dropped without recursion.

use std::borrow::Cow;
use std::mem;

/// A value received from the host. Strings borrow from the JSON text they were parsed
/// from when they can (no escapes), so parsing a tool call allocates little.
#[derive(Debug, PartialEq)]
pub enum Value<'a> {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    /// A JS string with lone surrogates; each one is replaced by U+FFFD here.
    IllFormedString(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    /// Members in source order; a repeated key keeps every occurrence, the last one wins.
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// The value of `key`, with `JSON.parse` semantics for repeated keys (the last wins).
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Moves a well-formed string out.
    pub fn take_string(&mut self) -> Option<String> {
        match self {
            Value::String(s) => Some(mem::take(s).into_owned()),
            _ => None,
        }
    }

    /// `null` or `undefined`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Null | Value::Undefined)
    }
}

/// A parsed JSON document. `JSON.parse` accepts any nesting depth, and dropping a
/// 10,000-deep tree recursively would overflow the wasm stack, so a document takes its
/// tree apart iteratively. Values planloop builds itself are as deep as their types and
/// drop the ordinary way, which is much cheaper.
#[derive(Debug, PartialEq)]
pub struct Document<'a>(Value<'a>);

impl<'a> Document<'a> {
    pub fn new(root: Value<'a>) -> Self {
        Document(root)
    }

    /// The root value, for documents known to be shallow (planloop's own schemas).
    pub fn into_shallow(mut self) -> Value<'a> {
        mem::replace(&mut self.0, Value::Null)
    }
}

impl<'a> std::ops::Deref for Document<'a> {
    type Target = Value<'a>;

    fn deref(&self) -> &Value<'a> {
        &self.0
    }
}

impl Drop for Document<'_> {
    fn drop(&mut self) {
        dismantle(vec![mem::replace(&mut self.0, Value::Null)]);
    }
}

/// Drops values of any depth without recursion: containers are emptied onto a stack
/// before they are dropped.
pub fn dismantle(mut pending: Vec<Value<'_>>) {
    while let Some(mut value) = pending.pop() {
        match &mut value {
            Value::Array(items) => pending.append(items),
            Value::Object(members) => pending.extend(members.drain(..).map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// `undefined` serializes as serde's unit and `null` as `None`, so conversions that can
/// tell them apart do (see `src/to_value.rs`). Recursion is bounded because only
/// planloop's own values, as deep as their types or schemas, are serialized.
impl serde::Serialize for Value<'_> {
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
    fn dropping_a_very_deep_document_does_not_overflow_the_stack() {
        let mut value = Value::Null;
        for i in 0..200_000 {
            value = if i % 2 == 0 { Value::Array(vec![value]) } else { Value::Object(vec![("k".into(), value)]) };
        }
        drop(Document::new(value));
    }

    #[test]
    fn get_uses_the_last_occurrence_of_a_key() {
        let v = Value::Object(vec![("a".into(), Value::Number(1.0)), ("a".into(), Value::Number(2.0))]);
        assert_eq!(v.get("a"), Some(&Value::Number(2.0)));
        assert_eq!(v.get("b"), None);
    }
}
