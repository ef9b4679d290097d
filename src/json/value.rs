//! A JSON-like value, as planloop exchanges it with a host.
//!
//! It is JSON plus `undefined` (a JS property can hold it, and zod treats it apart from
//! `null`) plus strings that were not well-formed UTF-16 (JS strings may carry lone
//! surrogates, Rust strings may not). A parsed [`Document`] can be nested arbitrarily
//! deep and is dropped without recursion.

use std::borrow::Cow;
use std::mem;

use crate::sort::{places_by, sort_by};

/// A value received from the host. Strings borrow from the JSON text they were parsed
/// from when they can (no escapes), so parsing a tool call allocates little. (Only a
/// [`Document`] can be arbitrarily deep; a `Value` is as deep as a schema allows.)
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value<'a> {
    #[default]
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
    /// A JS value JSON has no form for, as the JS layer describes it.
    Host(Box<Host<'a>>),
}

/// Object members in source order.
pub type Members<'a> = Vec<(Cow<'a, str>, Value<'a>)>;

/// What the JS layer tells of a JS value that JSON cannot carry (see
/// `src/wasm/js/encode.ts`), so that validation answers as it would on the value itself.
#[derive(Debug, Clone, PartialEq)]
pub enum Host<'a> {
    /// An object zod names by its constructor (`Date`, a class instance), or one that
    /// zod's `isPlainObject` refuses, or one with inherited enumerable properties.
    Object {
        type_name: Cow<'a, str>,
        plain: bool,
        own: Members<'a>,
        inherited: Members<'a>,
    },
    /// A function, with its `length`.
    Function(f64),
    Symbol,
    /// A bigint, with its `Number(value)`.
    BigInt(f64),
    /// Reading the value threw (a getter, a proxy trap): what was thrown, as text.
    Thrown(Cow<'a, str>),
    /// Deeper than the JS layer reads, or a reference back to an ancestor.
    Cut,
    /// An array longer than the JS layer lists, with its `length`.
    LongArray(f64),
    /// An object with more keys than the JS layer lists, or a value past the number of
    /// values it reads in all.
    Many,
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

    /// The same value owning its strings. (Recursive: for values, not documents.)
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Undefined => Value::Undefined,
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::IllFormedString(s) => Value::IllFormedString(Cow::Owned(s.into_owned())),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(members) => Value::Object(owned_members(members)),
            Value::Host(host) => Value::Host(Box::new(match *host {
                Host::Object { type_name, plain, own, inherited } => Host::Object {
                    type_name: Cow::Owned(type_name.into_owned()),
                    plain,
                    own: owned_members(own),
                    inherited: owned_members(inherited),
                },
                Host::Thrown(text) => Host::Thrown(Cow::Owned(text.into_owned())),
                Host::Function(length) => Host::Function(length),
                Host::Symbol => Host::Symbol,
                Host::BigInt(n) => Host::BigInt(n),
                Host::Cut => Host::Cut,
                Host::LongArray(length) => Host::LongArray(length),
                Host::Many => Host::Many,
            })),
        }
    }

    /// `null` or `undefined`.
    pub fn is_nullish(&self) -> bool {
        matches!(self, Value::Null | Value::Undefined)
    }

    /// The value as JSON carries it, what `JSON.parse(JSON.stringify(value))` gives back:
    /// `undefined` members dropped and `undefined` items `null`, non-finite numbers
    /// `null`, `-0` as `0`, a repeated key once (where it first stood, with its last
    /// value). A session keeps only such values, so that what it hands the host, what
    /// the user approves and what a snapshot restores are the same data. `None` for a
    /// bare `undefined`. (Recursive: for values, not documents.)
    pub fn into_json(self) -> Option<Value<'static>> {
        Some(match self {
            Value::Undefined => return None,
            // What JSON.stringify writes of them: an object's own members, else nothing.
            Value::Host(host) => match *host {
                Host::Object { own, .. } => return Value::Object(own).into_json(),
                _ => return None,
            },
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) if !n.is_finite() => Value::Null,
            Value::Number(n) => Value::Number(if n == 0.0 { 0.0 } else { n }),
            Value::String(s) | Value::IllFormedString(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| v.into_json().unwrap_or(Value::Null)).collect())
            }
            // Each key once already (the usual case): kept in place.
            Value::Object(members) if keys_distinct(&members) => Value::Object(
                members.into_iter().filter_map(|(k, v)| Some((Cow::Owned(k.into_owned()), v.into_json()?))).collect(),
            ),
            Value::Object(members) => {
                // Each key once, where it first stood, with its last value.
                let places = unique_members(&members);
                let mut members: Vec<Option<(Cow<'a, str>, Value<'a>)>> = members.into_iter().map(Some).collect();
                let mut kept = Vec::with_capacity(places.len());
                for (first, last) in places {
                    let key = members[first].as_ref().map(|(k, _)| Cow::Owned(k.to_string()));
                    let value = members[last].take().and_then(|(_, v)| v.into_json());
                    if let (Some(key), Some(value)) = (key, value) {
                        kept.push((key, value));
                    }
                }
                Value::Object(kept)
            }
        })
    }
}

/// Whether the value is already what [`Value::into_json`] makes of it, so that writing it
/// as JSON needs no copy first.
pub fn is_json(value: &Value<'_>) -> bool {
    match value {
        Value::Undefined | Value::Host(_) | Value::IllFormedString(_) => false,
        Value::Number(n) => n.is_finite() && !(*n == 0.0 && n.is_sign_negative()),
        Value::Array(items) => items.iter().all(is_json),
        Value::Object(members) => keys_distinct(members) && members.iter().all(|(_, v)| is_json(v)),
        Value::Null | Value::Bool(_) | Value::String(_) => true,
    }
}

/// Whether each key of an object stands once: a look back over a few keys (no
/// allocation, the usual case), a sort over many.
pub fn keys_distinct<V>(members: &[(Cow<'_, str>, V)]) -> bool {
    const LOOK_BACK: usize = 16;
    match members.len() {
        n if n <= LOOK_BACK => (1..n).all(|i| members[..i].iter().all(|(key, _)| *key != members[i].0)),
        n => unique_members(members).len() == n,
    }
}

/// An object's keys each once, as `JSON.parse` leaves them: where the key first stood,
/// and where its last (winning) value stands, in the order the keys first stood.
pub fn unique_members<V>(members: &[(Cow<'_, str>, V)]) -> Vec<(usize, usize)> {
    let mut places = key_runs(members);
    sort_by(&mut places, |a, b| a < b);
    places
}

/// [`unique_members`] in key order (a checksum's sorted form): found by sorting, so that
/// an object of many keys costs n log n, not n².
pub fn key_runs<V>(members: &[(Cow<'_, str>, V)]) -> Vec<(usize, usize)> {
    let order = places_by(members.len(), |i| &members[i].0);
    let mut places = Vec::with_capacity(members.len());
    let mut run = 0;
    while run < order.len() {
        let mut end = run;
        while end + 1 < order.len() && members[order[end + 1]].0 == members[order[run]].0 {
            end += 1;
        }
        places.push((order[run], order[end]));
        run = end + 1;
    }
    places
}

/// Whether `value` nests deeper than `limit` levels (a scalar is level 0), found without
/// recursion, so that recursive walks (checksums, key sorting, writing) only ever see
/// documents known to be shallow.
pub fn deeper_than(value: &Value<'_>, limit: usize) -> bool {
    let mut pending: Vec<(&Value<'_>, usize)> = vec![(value, 0)];
    while let Some((value, depth)) = pending.pop() {
        let members = match value {
            Value::Object(members) => Some(members.iter().chain(&[])),
            Value::Host(host) => match host.as_ref() {
                Host::Object { own, inherited, .. } => Some(own.iter().chain(inherited)),
                _ => None,
            },
            _ => None,
        };
        let container = members.is_some() || matches!(value, Value::Array(_));
        if container && depth == limit {
            return true;
        }
        // Pushed one by one: `extend` with these adapters compiles to bigger code (0.4 KB
        // gzip, with dismantle's).
        if let Value::Array(items) = value {
            for item in items {
                pending.push((item, depth + 1));
            }
        }
        for (_, item) in members.into_iter().flatten() {
            pending.push((item, depth + 1));
        }
    }
    false
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
            Value::Object(members) => {
                for (_, v) in members.drain(..) {
                    pending.push(v);
                }
            }
            Value::Host(host) => {
                if let Host::Object { own, inherited, .. } = host.as_mut() {
                    for (_, v) in own.drain(..).chain(inherited.drain(..)) {
                        pending.push(v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Any JSON value (`unknown` in TypeScript).
impl schemars::JsonSchema for Value<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyValue".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({})
    }
}

/// The name a [`Value`] serializes under, as a newtype around its content: it marks
/// free-form JSON (a tool call's arguments, a schema) for serializers that build objects
/// key by key, where a `__proto__` key would set the prototype instead of making a
/// member; such a serializer hands the value over as JSON text, for a JSON parser. A
/// JSON writer (serde_json) ignores the name and writes the content, byte for byte.
pub const FREE_FORM: &str = "planloop::FreeFormJson";

/// `undefined` serializes as serde's unit and `null` as `None`. Recursion is bounded
/// because only planloop's own values, as deep as their types or schemas, are serialized.
impl serde::Serialize for Value<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(FREE_FORM, &Content(self))
    }
}

/// A value's content: marked once, at its top (see [`FREE_FORM`]).
struct Content<'v, 'a>(&'v Value<'a>);

impl serde::Serialize for Content<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self.0 {
            Value::Undefined => serializer.serialize_unit(),
            Value::Null => serializer.serialize_none(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            // A whole number is written as one (`1`, not `1.0`), as JSON.stringify writes it.
            Value::Number(n)
                if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 && !(*n == 0.0 && n.is_sign_negative()) =>
            {
                serializer.serialize_i64(*n as i64)
            }
            Value::Number(n) => serializer.serialize_f64(*n),
            Value::String(s) | Value::IllFormedString(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Content(item))?;
                }
                seq.end()
            }
            Value::Object(members) => serialize_members(members, serializer),
            // As JSON.stringify writes them: an object's own members, else nothing.
            Value::Host(host) => match host.as_ref() {
                Host::Object { own, .. } => serialize_members(own, serializer),
                _ => serializer.serialize_unit(),
            },
        }
    }
}

fn serialize_members<S: serde::Serializer>(members: &Members<'_>, serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(members.len()))?;
    for (key, value) in members {
        map.serialize_entry(key, &Content(value))?;
    }
    map.end()
}

fn owned_members(members: Members<'_>) -> Members<'static> {
    members.into_iter().map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::decimals::Decimals;

    #[test]
    fn dropping_a_very_deep_document_does_not_overflow_the_stack() {
        let mut value = Value::Null;
        for i in 0..200_000 {
            value = if i % 2 == 0 { Value::Array(vec![value]) } else { Value::Object(vec![("k".into(), value)]) };
        }
        drop(Document::new(value));
    }

    #[test]
    fn depth_is_measured_without_recursion() {
        let nested = |levels: usize| {
            let mut value = Value::Null;
            for _ in 0..levels {
                value = Value::Array(vec![Value::Number(1.0), value]);
            }
            Document::new(value)
        };
        assert!(!deeper_than(&nested(0), 0));
        assert!(deeper_than(&nested(1), 0));
        assert!(!deeper_than(&nested(3), 3));
        assert!(deeper_than(&nested(4), 3));
        assert!(deeper_than(&nested(500_000), 80));
    }

    #[test]
    fn into_json_is_what_a_json_round_trip_gives() {
        let value = Value::Object(vec![
            ("a".into(), Value::Undefined),
            ("b".into(), Value::Array(vec![Value::Undefined, Value::Number(-0.0), Value::Number(f64::NAN)])),
            ("c".into(), Value::Number(1.0)),
            ("d".into(), Value::IllFormedString("\u{fffd}".into())),
            ("c".into(), Value::Number(2.0)),
            ("e".into(), Value::Number(f64::NEG_INFINITY)),
        ]);
        let json = value.into_json().unwrap();
        let expected = crate::json::parse(
            "{\"b\":[null,0,null],\"c\":2,\"d\":\"\u{fffd}\",\"e\":null}".as_bytes(),
            Decimals::RUST,
        )
        .unwrap();
        assert_eq!(json, *expected);
        let Value::Object(members) = &json else { unreachable!() };
        assert!(
            matches!(&members[0].1, Value::Array(items) if matches!(items[1], Value::Number(n) if n.is_sign_positive()))
        );
        assert_eq!(Value::Undefined.into_json(), None);
    }

    #[test]
    fn a_value_is_json_exactly_when_into_json_leaves_it_as_it_is() {
        let many_keys = |repeat: bool| {
            let mut members: Vec<_> = (0..40).map(|i| (Cow::Owned(format!("k{i}")), Value::Null)).collect();
            if repeat {
                members.push(("k3".into(), Value::Bool(true)));
            }
            Value::Object(members)
        };
        let values = [
            Value::Object(vec![("a".into(), Value::Number(1.5)), ("b".into(), Value::Array(vec![Value::Null]))]),
            Value::Object(vec![("a".into(), Value::Number(1.0)), ("a".into(), Value::Number(2.0))]),
            Value::Array(vec![Value::Number(-0.0)]),
            Value::Array(vec![Value::Number(f64::NAN)]),
            Value::Object(vec![("u".into(), Value::Undefined)]),
            Value::IllFormedString("\u{fffd}".into()),
            many_keys(false),
            many_keys(true),
        ];
        for value in values {
            let json = value.clone().into_json();
            // (Compared as written, so that -0 and 0 differ.)
            let unchanged = format!("{json:?}") == format!("{:?}", Some(&value));
            assert_eq!(is_json(&value), unchanged, "{value:?}");
            assert!(json.as_ref().is_none_or(is_json), "into_json makes JSON: {json:?}");
        }
    }

    #[test]
    fn get_uses_the_last_occurrence_of_a_key() {
        let v = Value::Object(vec![("a".into(), Value::Number(1.0)), ("a".into(), Value::Number(2.0))]);
        assert_eq!(v.get("a"), Some(&Value::Number(2.0)));
        assert_eq!(v.get("b"), None);
    }
}
