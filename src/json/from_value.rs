//! Typed values out of a validated [`Value`].
//!
//! The validator has already checked types and limits and dropped unknown keys, so this
//! step only moves the data into Rust structs. A value that does not fit means a schema
//! and its Rust type disagree, which is a planloop bug: an internal error, never a panic.
//!
//! Each type reads itself ([`FromValue`]); structs and unit enums through
//! `struct_from_value!` and `enum_from_value!`, which spell each key from the Rust
//! name the way serde does under the type's `rename_all`, so that they read the keys the
//! schema (written by schemars from the same serde attributes) lets through. A member
//! a struct does not read is a mismatch too, so a misspelt key cannot go unnoticed.
//!
//! The code is kept small, as it is compiled into the wasm module once per type: a
//! mismatch is noted and reading goes on with a placeholder, so that reading a struct is
//! straight-line code (no early return that drops the fields read so far), and finding
//! a member or spelling a key are plain functions. Taking an object's members and reading
//! a boolean, a number or an option are calls, never copied into each reader, and a list
//! is read by a plain loop: 2.0 KB gzip off the session module (181.6 → 179.6 KB; a
//! table of keys per struct, matched in one walk, made it 0.5 KB bigger instead).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::mem;

use crate::error::{Error, Result};
use crate::json::value::{Host, Members, Value};

/// The first value found not to fit its type, by what it should have been.
#[derive(Debug, Default, PartialEq)]
pub struct Mismatch(Option<&'static str>);

impl Mismatch {
    /// Notes that a value is not `expected` (the first such note is kept).
    pub fn note(&mut self, expected: &'static str) {
        self.0.get_or_insert(expected);
    }
}

/// A type read out of a value its schema has validated.
pub trait FromValue: Sized {
    /// The value as a `Self`, its strings and items moved out of it; when it does not
    /// fit, a placeholder, with the mismatch noted.
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self;
}

/// Moves `value` into a `T`.
pub fn from_value<T: FromValue>(mut value: Value<'_>) -> Result<T> {
    let mut mismatch = Mismatch::default();
    let read = T::from_value(&mut value, &mut mismatch);
    match mismatch.0 {
        None => Ok(read),
        Some(expected) => Err(disagreement(expected)),
    }
}

/// The error of a value its schema passed that does not fit the type: out of line, so
/// that each of the many `from_value` instances holds a call rather than a `format!`.
#[cold]
#[inline(never)]
fn disagreement(expected: &str) -> Error {
    Error::internal(&format!("schema and type disagree: expected {expected}"))
}

/// How serde spells a Rust name under a `rename_all` rule (the rules planloop uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// As written: a name without `rename_all`, or a `rename`.
    AsIs,
    /// `"camelCase"`: `max_streak` is `maxStreak`, `InProgress` is `inProgress`.
    Camel,
    /// `"lowercase"`: `InProgress` is `inprogress`.
    Lower,
    /// `"snake_case"`: `InProgress` is `in_progress`.
    Snake,
}

/// Whether `key` is the Rust name `name` spelled under `case`, compared without building
/// the spelling.
fn spelled(key: &str, name: &str, case: Case) -> bool {
    let mut key = key.bytes();
    let mut word = false;
    for (i, c) in name.bytes().enumerate() {
        let (underscore, c) = match case {
            Case::AsIs => (false, c),
            Case::Lower => (false, c.to_ascii_lowercase()),
            Case::Snake => (i > 0 && c.is_ascii_uppercase(), c.to_ascii_lowercase()),
            Case::Camel if c == b'_' => {
                word = true;
                continue;
            }
            Case::Camel if i == 0 => (false, c.to_ascii_lowercase()),
            Case::Camel => (false, if mem::take(&mut word) { c.to_ascii_uppercase() } else { c }),
        };
        if (underscore && key.next() != Some(b'_')) || key.next() != Some(c) {
            return false;
        }
    }
    key.next().is_none()
}

/// A validated object's members, each read in place, by name.
pub struct Fields<'a> {
    members: Members<'a>,
    /// Which members were read, a bit each (an object has at most 64 members: its
    /// schema's properties).
    read: u64,
    /// What an absent member reads as (`undefined`, which reading leaves as it is).
    absent: Value<'a>,
}

impl<'a> Fields<'a> {
    /// The members of an object (none, with the mismatch noted, for any other value).
    /// (Not inlined: 0.5 KB gzip.)
    #[inline(never)]
    pub fn new(value: &mut Value<'a>, mismatch: &mut Mismatch) -> Self {
        let members = match value {
            Value::Object(members) if members.len() <= 64 => mem::take(members),
            _ => {
                mismatch.note("an object of at most 64 members");
                Vec::new()
            }
        };
        Fields { members, read: 0, absent: Value::Undefined }
    }

    /// The value of the member whose key is `(name, case)`, for a `FromValue` to take
    /// what it reads out of; `undefined` when there is none.
    #[inline(always)]
    pub fn get(&mut self, (name, case): (&str, Case)) -> &mut Value<'a> {
        self.find(name, case)
    }

    fn find(&mut self, name: &str, case: Case) -> &mut Value<'a> {
        match self.members.iter_mut().enumerate().find(|(_, (key, _))| spelled(key, name, case)) {
            Some((index, (_, value))) => {
                self.read |= 1 << index;
                value
            }
            None => &mut self.absent,
        }
    }

    /// The members not read, as an object: what a flattened field reads.
    pub fn rest(self) -> Value<'a> {
        let unread = self.members.into_iter().enumerate().filter(|(index, _)| self.read & 1 << index == 0);
        Value::Object(unread.map(|(_, member)| member).collect())
    }

    /// Notes a mismatch if a member was not read.
    pub fn end(self, mismatch: &mut Mismatch) {
        let unread = self
            .members
            .iter()
            .enumerate()
            .any(|(index, (_, value))| self.read & 1 << index == 0 && !matches!(value, Value::Undefined));
        if unread {
            mismatch.note("no member its type does not read");
        }
    }
}

/// A field with a default: an absent member gives `default()`.
pub fn read_or<T: FromValue>(value: &mut Value<'_>, default: impl FnOnce() -> T, mismatch: &mut Mismatch) -> T {
    match value {
        Value::Undefined => default(),
        value => T::from_value(value, mismatch),
    }
}

/// The unit variant whose key is the string `value` (`placeholder` when none is).
pub fn variant<T: Copy>(
    value: &Value<'_>,
    variants: &[((&str, Case), T)],
    placeholder: T,
    mismatch: &mut Mismatch,
) -> T {
    let found = match value {
        Value::String(key) => variants.iter().find(|((name, case), _)| spelled(key, name, *case)),
        _ => None,
    };
    match found {
        Some((_, variant)) => *variant,
        None => {
            mismatch.note("a variant's name");
            placeholder
        }
    }
}

/// The [`Case`] of a `rename_all` rule: none, `"camelCase"`, `"lowercase"` or `"snake_case"`.
macro_rules! rename_all {
    () => {
        $crate::json::from_value::Case::AsIs
    };
    ("camelCase") => {
        $crate::json::from_value::Case::Camel
    };
    ("lowercase") => {
        $crate::json::from_value::Case::Lower
    };
    ("snake_case") => {
        $crate::json::from_value::Case::Snake
    };
}
pub(crate) use rename_all;

/// The key serde reads a field or variant from: its name under the type's `case`, or
/// the `key` of its `rename` (`name as "key"`).
macro_rules! key {
    ($case:expr; $name:ident as $key:literal) => {
        ($key, $crate::json::from_value::Case::AsIs)
    };
    ($case:expr; $name:ident) => {
        (stringify!($name), $case)
    };
}
pub(crate) use key;

/// Implements [`FromValue`] for a struct with named fields, mirroring its serde
/// attributes: `struct_from_value!(Type, "camelCase" { plain, renamed as "key",
/// defaulted = expr })`, where the rule is the struct's `rename_all` (left out when it
/// has none), `as` a field's `rename` and `= expr` its `default`. An `Option` field reads
/// an absent member, or `null`, as `None`. (A field left out does not compile.)
macro_rules! struct_from_value {
    ($type:ident $(, $rule:tt)? { $($field:ident $(as $key:literal)? $(= $default:expr)?),* $(,)? }) => {
        impl $crate::json::from_value::FromValue for $type {
            fn from_value(
                value: &mut $crate::json::value::Value<'_>,
                mismatch: &mut $crate::json::from_value::Mismatch,
            ) -> Self {
                const CASE: $crate::json::from_value::Case = $crate::json::from_value::rename_all!($($rule)?);
                let mut fields = $crate::json::from_value::Fields::new(value, mismatch);
                let read = $type {
                    $($field: $crate::json::from_value::struct_from_value!(
                        @read fields.get($crate::json::from_value::key!(CASE; $field $(as $key)?)),
                        mismatch $(, $default)?
                    ),)*
                };
                fields.end(mismatch);
                read
            }
        }
    };
    (@read $value:expr, $mismatch:ident) => {
        $crate::json::from_value::FromValue::from_value($value, $mismatch)
    };
    (@read $value:expr, $mismatch:ident, $default:expr) => {
        $crate::json::from_value::read_or($value, || $default, $mismatch)
    };
}
pub(crate) use struct_from_value;

/// Implements [`FromValue`] for an enum of unit variants, read from their names:
/// `enum_from_value!(Type, "snake_case" [Plain, Renamed as "name"])`, where the rule is
/// the enum's `rename_all` (left out when it has none) and `as` a variant's `rename`.
/// (A variant left out does not compile.)
macro_rules! enum_from_value {
    (
        $type:ident $(, $rule:tt)?
        [$first:ident $(as $first_name:literal)? $(, $variant:ident $(as $name:literal)?)* $(,)?]
    ) => {
        impl $crate::json::from_value::FromValue for $type {
            fn from_value(
                value: &mut $crate::json::value::Value<'_>,
                mismatch: &mut $crate::json::from_value::Mismatch,
            ) -> Self {
                use $crate::json::from_value::Case;
                const CASE: Case = $crate::json::from_value::rename_all!($($rule)?);
                const VARIANTS: &[((&str, Case), $type)] = &[
                    ($crate::json::from_value::key!(CASE; $first $(as $first_name)?), $type::$first),
                    $(($crate::json::from_value::key!(CASE; $variant $(as $name)?), $type::$variant),)*
                ];
                $crate::json::from_value::variant(value, VARIANTS, $type::$first, mismatch)
            }
        }

        // Every variant is listed: the match is exhaustive (it runs only at compile time).
        const _: fn($type) = |variant| match variant {
            $type::$first $(| $type::$variant)* => (),
        };
    };
}
pub(crate) use enum_from_value;

impl FromValue for String {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::String(s) => mem::take(s).into_owned(),
            _ => {
                mismatch.note("a string");
                String::new()
            }
        }
    }
}

/// (Not inlined, nor is `f64`'s: 0.3 KB gzip.)
impl FromValue for bool {
    #[inline(never)]
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::Bool(b) => *b,
            _ => {
                mismatch.note("a boolean");
                false
            }
        }
    }
}

impl FromValue for f64 {
    #[inline(never)]
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::Number(n) => *n,
            _ => {
                mismatch.note("a number");
                0.0
            }
        }
    }
}

/// A whole number in `[min, max]` (0 when it is not one).
fn whole(value: &Value<'_>, min: f64, max: f64, mismatch: &mut Mismatch) -> f64 {
    match *value {
        Value::Number(n) if n.fract() == 0.0 && n >= min && n <= max => n,
        _ => {
            mismatch.note("a whole number in range");
            0.0
        }
    }
}

impl FromValue for u32 {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        whole(value, 0.0, f64::from(u32::MAX), mismatch) as u32
    }
}

impl FromValue for i32 {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        whole(value, f64::from(i32::MIN), f64::from(i32::MAX), mismatch) as i32
    }
}

/// Up to 2^53 - 1, the whole numbers a JSON number holds exactly.
impl FromValue for u64 {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        whole(value, 0.0, 9_007_199_254_740_991.0, mismatch) as u64
    }
}

/// `null` and an absent member are `None`. (Not inlined: 0.3 KB gzip.)
impl<T: FromValue> FromValue for Option<T> {
    #[inline(never)]
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::Null | Value::Undefined => None,
            value => Some(T::from_value(value, mismatch)),
        }
    }
}

/// (A loop rather than `collect`, whose code for each item type is bigger: 1.0 KB gzip.)
impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::Array(items) => {
                let mut read = Vec::with_capacity(items.len());
                for item in items {
                    read.push(T::from_value(item, mismatch));
                }
                read
            }
            _ => {
                mismatch.note("an array");
                Vec::new()
            }
        }
    }
}

impl<T: FromValue> FromValue for VecDeque<T> {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        Vec::from_value(value, mismatch).into()
    }
}

/// A value kept as data (a call's `args`, a tool's `output`) as planloop has always
/// read it: `undefined` members dropped and `undefined` items `null`, every string
/// well-formed, `-0` as `0`, a host object as its own members and any other host value
/// `null`. A field without a default must be present.
impl FromValue for Value<'static> {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        if let Value::Undefined = value {
            mismatch.note("a value");
        }
        data(mem::take(value))
    }
}

/// (Recursive: a value held as data is as deep as schema `{}` allows.)
fn data(value: Value<'_>) -> Value<'static> {
    let object = |members: Members<'_>| {
        let present = members.into_iter().filter(|(_, v)| !matches!(v, Value::Undefined));
        Value::Object(present.map(|(k, v)| (Cow::Owned(k.into_owned()), data(v))).collect())
    };
    match value {
        Value::Undefined | Value::Null => Value::Null,
        Value::Bool(b) => Value::Bool(b),
        Value::Number(n) => Value::Number(if n == 0.0 { 0.0 } else { n }),
        Value::String(s) | Value::IllFormedString(s) => Value::String(Cow::Owned(s.into_owned())),
        Value::Array(items) => Value::Array(items.into_iter().map(data).collect()),
        Value::Object(members) => object(members),
        Value::Host(host) => match *host {
            Host::Object { own, .. } => object(own),
            _ => Value::Null,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Sample {
        count: u32,
        ratio: f64,
        label: Option<String>,
        missing: Option<String>,
        mode: Mode,
        tags: Vec<String>,
        renamed: bool,
        defaulted: u32,
    }

    struct_from_value!(Sample, "camelCase" {
        count,
        ratio,
        label,
        missing,
        mode,
        tags,
        renamed as "other",
        defaulted = 7,
    });

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Mode {
        FullHistory,
        Kept,
    }

    enum_from_value!(Mode, "snake_case" [FullHistory, Kept as "KEPT"]);

    fn object(members: Vec<(&'static str, Value<'static>)>) -> Value<'static> {
        Value::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// A sample with `key` set to `value` (left out when `undefined`), or the mismatch.
    fn sample_with(key: &'static str, value: Value<'static>) -> std::result::Result<Sample, &'static str> {
        let mut members = vec![
            ("count", Value::Number(1.0)),
            ("ratio", Value::Number(0.5)),
            ("mode", Value::String("KEPT".into())),
            ("tags", Value::Array(vec![])),
            ("other", Value::Bool(false)),
        ];
        members.retain(|(k, _)| *k != key);
        members.push((key, value));
        let mut mismatch = Mismatch::default();
        let sample = Sample::from_value(&mut object(members), &mut mismatch);
        mismatch.0.map_or(Ok(sample), Err)
    }

    #[test]
    fn moves_validated_values_into_structs() {
        let value = object(vec![
            ("count", Value::Number(3.0)),
            ("ratio", Value::Number(0.5)),
            ("label", Value::String("x".into())),
            ("missing", Value::Undefined),
            ("mode", Value::String("full_history".into())),
            ("tags", Value::Array(vec![Value::String("a".into())])),
            ("other", Value::Bool(true)),
        ]);
        let sample = Sample {
            count: 3,
            ratio: 0.5,
            label: Some("x".into()),
            missing: None,
            mode: Mode::FullHistory,
            tags: vec!["a".into()],
            renamed: true,
            defaulted: 7,
        };
        assert_eq!(from_value::<Sample>(value), Ok(sample));
        assert_eq!(sample_with("label", Value::Null).map(|s| s.label), Ok(None));
        assert_eq!(sample_with("defaulted", Value::Number(8.0)).map(|s| s.defaulted), Ok(8));
    }

    #[test]
    fn a_mismatch_is_an_internal_error_naming_the_first_one() {
        let err = from_value::<Sample>(Value::Null).unwrap_err();
        assert_eq!(err.code, crate::error::ErrorCode::Internal);
        assert!(err.message.contains("schema and type disagree: expected an object"), "{}", err.message);
        assert_eq!(sample_with("mode", Value::String("kept".into())), Err("a variant's name"));
        assert_eq!(sample_with("count", Value::Number(-1.0)), Err("a whole number in range"));
        assert_eq!(sample_with("count", Value::Number(0.5)), Err("a whole number in range"));
        assert_eq!(sample_with("tags", Value::Undefined), Err("an array"));
        assert_eq!(sample_with("renamed", Value::Bool(true)), Err("no member its type does not read"));
        assert_eq!(sample_with("defaulted", Value::Null), Err("a whole number in range"));
        assert_eq!(sample_with("label", Value::Number(1.0)), Err("a string"));
    }

    #[test]
    fn names_are_spelled_as_serde_spells_them() {
        let cases = [
            ("max_planner_only_streak", Case::Camel, "maxPlannerOnlyStreak"),
            ("goal", Case::Camel, "goal"),
            ("InProgress", Case::Camel, "inProgress"),
            ("InProgress", Case::Snake, "in_progress"),
            ("PlannerOveruseExecuteNextStep", Case::Snake, "planner_overuse_execute_next_step"),
            ("InProgress", Case::Lower, "inprogress"),
            ("TodoWrite", Case::AsIs, "TodoWrite"),
            ("current_step_index", Case::AsIs, "current_step_index"),
        ];
        for (name, case, key) in cases {
            assert!(spelled(key, name, case), "{name} {case:?} {key}");
            for near in [&key[1..], &key[..key.len() - 1], &format!("{key}x"), &key.to_uppercase()] {
                assert!(!spelled(near, name, case), "{name} {case:?} {near}");
            }
        }
    }

    #[test]
    fn whole_numbers_fit_their_type_or_are_a_mismatch() {
        fn read<T: FromValue>(n: f64) -> Option<T> {
            let mut mismatch = Mismatch::default();
            let read = T::from_value(&mut Value::Number(n), &mut mismatch);
            mismatch.0.is_none().then_some(read)
        }
        assert_eq!(read::<u32>(4_294_967_295.0), Some(u32::MAX));
        assert_eq!(read::<u32>(-0.0), Some(0));
        assert_eq!(read::<u32>(4_294_967_296.0), None);
        assert_eq!(read::<u32>(f64::NAN), None);
        assert_eq!(read::<i32>(-2_147_483_648.0), Some(i32::MIN));
        assert_eq!(read::<i32>(2_147_483_648.0), None);
        assert_eq!(read::<u64>(9_007_199_254_740_991.0), Some(9_007_199_254_740_991));
        assert_eq!(read::<u64>(9_007_199_254_740_992.0), None);
        assert_eq!(read::<u64>(f64::INFINITY), None);
    }

    #[test]
    fn a_value_kept_as_data_is_read_as_it_always_was() {
        let host = |own| {
            Value::Host(Box::new(Host::Object { type_name: "Date".into(), plain: false, own, inherited: vec![] }))
        };
        let given = Value::Array(vec![
            Value::Undefined,
            Value::Number(-0.0),
            Value::Number(f64::NAN),
            Value::IllFormedString("a\u{fffd}".into()),
            object(vec![("a", Value::Undefined), ("b", Value::Null), ("b", Value::Bool(true))]),
            host(vec![("x".into(), Value::Number(1.0))]),
            Value::Host(Box::new(Host::Symbol)),
        ]);
        let Ok(Value::Array(items)) = from_value::<Value>(given) else { panic!("an array") };
        assert_eq!(items[0], Value::Null);
        assert!(matches!(items[1], Value::Number(n) if n == 0.0 && n.is_sign_positive()));
        assert!(matches!(items[2], Value::Number(n) if n.is_nan()));
        assert_eq!(items[3], Value::String("a\u{fffd}".into()));
        assert_eq!(items[4], object(vec![("b", Value::Null), ("b", Value::Bool(true))]));
        assert_eq!(items[5], object(vec![("x", Value::Number(1.0))]));
        assert_eq!(items[6], Value::Null);
        assert!(from_value::<Value>(Value::Undefined).is_err());
        assert_eq!(from_value::<Option<Value>>(Value::Null), Ok(None));
    }
}
