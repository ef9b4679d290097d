//! Positional arguments and options objects from the host, checked before use.
//!
//! A wrong argument gets an `invalid_argument` error (an options object, an
//! `invalid_options` one) whose `data.issues` are the same zod-style issues the planner
//! tools report, so a host handles every validation failure one way. Each reads a
//! `length` given as a decimal string with the `decimals` passed in.

use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::json::from_value::{from_value, FromValue};
use crate::json::value::Value;
use crate::validate::input::{Input, Kind};
use crate::validate::schema::{self, Schema};

/// `input` as its schema passes it, or an `invalid_argument` error with the issues.
pub fn checked<'s, 'a, I: Input<'a>>(
    schema: &'s Schema,
    input: I,
    name: &str,
    decimals: Decimals,
) -> Result<Value<'s>> {
    schema::validate(schema, input, decimals)?.map_err(|issues| Error::invalid_argument(name, issues))
}

/// A string without lone surrogates.
pub fn string<'a, I: Input<'a>>(input: I, name: &str, decimals: Decimals) -> Result<String> {
    let mut value = checked(&Schema::String { min_length: None, max_length: None }, input, name, decimals)?;
    value.take_string().ok_or_else(|| Error::internal("validated string"))
}

/// A boolean.
pub fn boolean<'a, I: Input<'a>>(input: I, name: &str, decimals: Decimals) -> Result<bool> {
    match checked(&Schema::Boolean, input, name, decimals)? {
        Value::Bool(b) => Ok(b),
        _ => Err(Error::internal("validated boolean")),
    }
}

/// A whole number in `[min, max]`.
pub fn whole<'a, I: Input<'a>>(input: I, name: &str, min: u32, max: u32, decimals: Decimals) -> Result<u32> {
    let schema = Schema::Number { integer: true, minimum: Some(f64::from(min)), maximum: Some(f64::from(max)) };
    let value = checked(&schema, input, name, decimals)?;
    match value {
        Value::Number(n) => Ok(n as u32),
        _ => Err(Error::internal("validated integer")),
    }
}

/// A time in milliseconds, as the host's clock gives it: any finite number.
pub fn time<'a, I: Input<'a>>(input: I, name: &str, decimals: Decimals) -> Result<f64> {
    match checked(&Schema::Number { integer: false, minimum: None, maximum: None }, input, name, decimals)? {
        Value::Number(n) => Ok(n),
        _ => Err(Error::internal("validated number")),
    }
}

/// A list of names (each a non-empty string), at most `max` of them.
pub fn names<'a, I: Input<'a>>(input: I, name: &str, max: u32, decimals: Decimals) -> Result<Vec<String>> {
    const NAME: Schema = Schema::String { min_length: Some(1.0), max_length: Some(256.0) };
    let schema = Schema::Array { items: &NAME, min_items: None, max_items: Some(f64::from(max)) };
    let value = checked(&schema, input, name, decimals)?;
    from_value(value)
}

/// An options object validated against its schema; `undefined` gives the defaults.
pub fn options<'a, T: FromValue, I: Input<'a>>(
    input: I,
    name: &str,
    schema: &'static Schema,
    decimals: Decimals,
) -> Result<T> {
    let outcome = match input.kind() {
        Kind::Undefined => schema::validate(schema, &Value::Object(Vec::new()), decimals)?,
        _ => schema::validate(schema, input, decimals)?,
    };
    from_value(outcome.map_err(|issues| Error::invalid_options(name, issues))?)
}

/// An object validated against its schema.
pub fn object<'a, T: FromValue, I: Input<'a>>(
    input: I,
    name: &str,
    schema: &'static Schema,
    decimals: Decimals,
) -> Result<T> {
    from_value(schema::validate(schema, input, decimals)?.map_err(|issues| Error::invalid_argument(name, issues))?)
}

/// An optional count: `undefined` gives `default`.
pub fn whole_or<'a, I: Input<'a>>(
    input: I,
    name: &str,
    min: u32,
    max: u32,
    default: u32,
    decimals: Decimals,
) -> Result<u32> {
    if input.kind() == Kind::Undefined {
        Ok(default)
    } else {
        whole(input, name, min, max, decimals)
    }
}
