//! What the validator may ask of a value, with the JS semantics zod relies on.
//!
//! The validator reads its input through this trait so that one implementation of the
//! rules serves two sources: JSON text parsed into a [`Value`] (below) and live JS values
//! (in the wasm binding), which are read lazily, only where the schema looks. A JS value
//! is never walked as a whole, so cycles, getters and huge unrelated properties cost
//! nothing.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::json::number::to_number;
use crate::json::value::{keys_distinct, unique_members, Host, Members, Value};

/// The JS type of a value as zod distinguishes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Undefined,
    Null,
    Boolean,
    Number,
    String,
    Array,
    /// Anything `typeof` calls "object", but arrays and `null`.
    Object,
    /// Functions, symbols, bigints: not objects to zod.
    Other,
}

/// A string value: its text (lone surrogates replaced by U+FFFD) and whether it had none.
pub struct Text<'a> {
    pub value: Cow<'a, str>,
    pub well_formed: bool,
}

/// A value the validator can inspect; `'a` is how long the strings it hands out live.
pub trait Input<'a>: Sized {
    fn kind(&self) -> Kind;
    /// zod's name for the value's type in "received …" messages (`NaN`, `Date`, …).
    fn type_name(&self) -> Result<String>;
    /// `key in value ? value[key] : absent`, for objects.
    fn property(&self, key: &str) -> Result<Option<Self>>;
    /// `Object.keys(value)`, for objects.
    fn keys(&self) -> Result<Vec<String>>;
    /// `Object.entries(value)`, for objects: each key once, in `keys` order, with its value.
    fn entries(&self) -> Result<Vec<(String, Self)>> {
        let mut entries = Vec::new();
        for key in self.keys()? {
            let value = self.property(&key)?.unwrap_or_else(Self::undefined);
            entries.push((key, value));
        }
        Ok(entries)
    }
    /// zod's `isPlainObject`, which a record requires: an object (not an array) whose
    /// `constructor` is absent or not a function, or whose prototype owns `isPrototypeOf`
    /// (so `{}` and `Object.create(null)`, not a `Map`, a `Date` or a class instance).
    fn is_plain_object(&self) -> Result<bool>;
    /// `value.length`, for arrays.
    fn item_count(&self) -> Result<usize>;
    /// `value[index]`, for arrays.
    fn item(&self, index: usize) -> Result<Self>;
    /// The text, for strings.
    fn text(&self) -> Result<Text<'a>>;
    /// The number, for numbers.
    fn number(&self) -> f64;
    /// The boolean, for booleans.
    fn boolean(&self) -> bool;
    /// `value.length` as a number, the way `value.length <= n` compares in JS (strings
    /// count code points, as zod measures them); `None` when zod would skip its length
    /// checks (the value is nullish or has no `length`). A `length` that is a decimal
    /// string is read with `decimals`.
    fn length(&self, decimals: Decimals) -> Result<Option<f64>>;
    /// The `undefined` an absent property reads as.
    fn undefined() -> Self;
    /// What the JS layer did not read of a host value: too deep (or a cycle), or too
    /// many values. `None` for a value read whole.
    fn unread(&self) -> Option<Unread> {
        None
    }
}

/// Why part of a host value was not read (see [`Input::unread`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    Deep,
    Many,
}

static UNDEFINED: Value<'static> = Value::Undefined;

/// The name zod gives a scalar's type, `NaN` and the infinities by name ("number" for
/// any other value: only scalars are asked).
pub fn scalar_name(value: &Value) -> &'static str {
    match value {
        Value::Undefined => "undefined",
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_nan() => "NaN",
        Value::Number(n) if *n == f64::INFINITY => "Infinity",
        Value::Number(n) if *n == f64::NEG_INFINITY => "-Infinity",
        _ => "number",
    }
}

impl<'a> Input<'a> for &'a Value<'a> {
    fn kind(&self) -> Kind {
        match self {
            Value::Undefined => Kind::Undefined,
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Boolean,
            Value::Number(_) => Kind::Number,
            Value::String(_) | Value::IllFormedString(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
            Value::Host(host) => match host.as_ref() {
                Host::Object { .. } => Kind::Object,
                Host::LongArray(_) => Kind::Array,
                Host::Function(_) | Host::Symbol | Host::BigInt(_) | Host::Thrown(_) | Host::Cut | Host::Many => {
                    Kind::Other
                }
            },
        }
    }

    fn type_name(&self) -> Result<String> {
        Ok(match self {
            Value::Undefined | Value::Null | Value::Bool(_) | Value::Number(_) => scalar_name(self),
            Value::String(_) | Value::IllFormedString(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Host(host) => match host.as_ref() {
                Host::Object { type_name, .. } => return Ok(type_name.to_string()),
                Host::LongArray(_) => "array",
                Host::Function(_) => "function",
                Host::Symbol => "symbol",
                Host::BigInt(_) => "bigint",
                Host::Thrown(thrown) => return Err(Error::host_exception(thrown.to_string())),
                Host::Cut | Host::Many => "object",
            },
        }
        .to_owned())
    }

    fn property(&self, key: &str) -> Result<Option<Self>> {
        let found = match self {
            Value::Host(host) => match host.as_ref() {
                Host::Object { own, inherited, .. } => last(own, key).or_else(|| last(inherited, key)),
                _ => None,
            },
            value => value.get(key),
        };
        found.map(read).transpose()
    }

    fn keys(&self) -> Result<Vec<String>> {
        Ok(unique(self).into_iter().map(|(key, _)| key.to_string()).collect())
    }

    /// A repeated key stands where it first appeared, with its last value (`JSON.parse`).
    fn entries(&self) -> Result<Vec<(String, Self)>> {
        unique(self).into_iter().map(|(key, value)| Ok((key.to_string(), read(value)?))).collect()
    }

    fn is_plain_object(&self) -> Result<bool> {
        Ok(match self {
            Value::Object(_) => true,
            Value::Host(host) => matches!(host.as_ref(), Host::Object { plain: true, .. }),
            _ => false,
        })
    }

    fn item_count(&self) -> Result<usize> {
        Ok(match self {
            Value::Array(items) => items.len(),
            Value::Host(host) => match host.as_ref() {
                Host::LongArray(length) => *length as usize,
                _ => 0,
            },
            _ => 0,
        })
    }

    fn item(&self, index: usize) -> Result<Self> {
        match self {
            Value::Array(items) => read(items.get(index).unwrap_or(&UNDEFINED)),
            _ => Ok(&UNDEFINED),
        }
    }

    fn text(&self) -> Result<Text<'a>> {
        Ok(match self {
            Value::String(s) => Text { value: Cow::Borrowed(s), well_formed: true },
            Value::IllFormedString(s) => Text { value: Cow::Borrowed(s), well_formed: false },
            _ => Text { value: Cow::Borrowed(""), well_formed: true },
        })
    }

    fn number(&self) -> f64 {
        match self {
            Value::Number(n) => *n,
            _ => f64::NAN,
        }
    }

    fn boolean(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn length(&self, decimals: Decimals) -> Result<Option<f64>> {
        Ok(match self {
            Value::String(s) | Value::IllFormedString(s) => Some(s.chars().count() as f64),
            Value::Array(items) => Some(items.len() as f64),
            Value::Object(_) => {
                self.property("length")?.filter(|l| !matches!(l, Value::Undefined)).map(|l| to_number(l, decimals))
            }
            Value::Host(host) => match host.as_ref() {
                Host::Object { .. } => {
                    self.property("length")?.filter(|l| !matches!(l, Value::Undefined)).map(|l| to_number(l, decimals))
                }
                Host::LongArray(length) | Host::Function(length) => Some(*length),
                _ => None,
            },
            _ => None,
        })
    }

    fn undefined() -> Self {
        &UNDEFINED
    }

    fn unread(&self) -> Option<Unread> {
        match self {
            Value::Host(host) => match host.as_ref() {
                Host::Cut => Some(Unread::Deep),
                Host::Many => Some(Unread::Many),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A value as read from its container: reading one that threw is a `host_exception`.
fn read<'a>(value: &'a Value<'a>) -> Result<&'a Value<'a>> {
    match value {
        Value::Host(host) => match host.as_ref() {
            Host::Thrown(thrown) => Err(Error::host_exception(thrown.to_string())),
            _ => Ok(value),
        },
        value => Ok(value),
    }
}

fn last<'v, 'a>(members: &'v Members<'a>, key: &str) -> Option<&'v Value<'a>> {
    members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// An object's own members, each key once where it first stood with its last value.
fn unique<'v, 'a>(value: &'v Value<'a>) -> Vec<(&'v str, &'v Value<'a>)> {
    let members = match value {
        Value::Object(members) => members,
        Value::Host(host) => match host.as_ref() {
            Host::Object { own, .. } => own,
            _ => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    // Keys that stand once each (the usual object, told apart without allocating) are
    // the members as they are; only repeats need the sort.
    if keys_distinct(members) {
        return members.iter().map(|(key, value)| (key.as_ref(), value)).collect();
    }
    unique_members(members).into_iter().map(|(first, last)| (members[first].0.as_ref(), &members[last].1)).collect()
}
