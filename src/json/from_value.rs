//! Typed values out of a validated [`Value`], through serde.
//!
//! The validator has already checked types and limits and dropped unknown keys, so this
//! step only moves the data into Rust structs. A failure here means a schema and its
//! Rust type disagree, which is a planloop bug.

use serde::de::{self, value::StringDeserializer, DeserializeOwned, IntoDeserializer, Visitor};

use crate::error::Error;
use crate::json::value::{Host, Value};

/// Moves `value` into a `T`.
pub fn from_value<T: DeserializeOwned>(value: Value<'_>) -> Result<T, Error> {
    T::deserialize(ValueDeserializer(value)).map_err(|e| Error::internal(&format!("schema and type disagree: {}", e.0)))
}

#[derive(Debug)]
pub struct DeError(String);

impl std::fmt::Display for DeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

/// Messages name what was found without printing it: serde's default wording prints
/// floats, and float printing alone would add 14 KB to the wasm module.
impl de::Error for DeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
    }

    fn invalid_type(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        DeError(format!("invalid type: {}, expected {expected}", kind_of(&unexpected)))
    }

    fn invalid_value(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        DeError(format!("invalid value: {}, expected {expected}", kind_of(&unexpected)))
    }
}

fn kind_of<'a>(unexpected: &de::Unexpected<'a>) -> &'a str {
    use de::Unexpected as U;
    match unexpected {
        U::Bool(_) => "a boolean",
        U::Unsigned(_) | U::Signed(_) | U::Float(_) => "a number",
        U::Char(_) | U::Str(_) => "a string",
        U::Bytes(_) => "bytes",
        U::Unit => "null",
        U::Option => "an optional value",
        U::NewtypeStruct => "a newtype struct",
        U::Seq => "an array",
        U::Map => "an object",
        U::Enum | U::UnitVariant | U::NewtypeVariant | U::TupleVariant | U::StructVariant => "an enum variant",
        U::Other(other) => other,
    }
}

struct ValueDeserializer<'a>(Value<'a>);

/// An object's members for a visitor. A member set to `undefined` is left out, as JSON
/// leaves it out: an optional field reads it as absent either way, and a value kept as
/// data (a call's `args`) then holds only what JSON can carry.
fn entries<'a>(
    members: Vec<(std::borrow::Cow<'a, str>, Value<'a>)>,
) -> de::value::MapDeserializer<'static, impl Iterator<Item = (String, ValueDeserializer<'a>)>, DeError> {
    let present = members.into_iter().filter(|(_, v)| !matches!(v, Value::Undefined));
    de::value::MapDeserializer::new(present.map(|(k, v)| (k.into_owned(), ValueDeserializer(v))))
}

impl<'de> de::Deserializer<'de> for ValueDeserializer<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DeError> {
        match &mut self.0 {
            Value::Undefined | Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                let n = *n;
                if n.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&n) {
                    visitor.visit_u64(n as u64)
                } else if n.fract() == 0.0 && n < 0.0 && n > -9_007_199_254_740_992.0 {
                    visitor.visit_i64(n as i64)
                } else {
                    visitor.visit_f64(n)
                }
            }
            Value::String(s) | Value::IllFormedString(s) => visitor.visit_string(std::mem::take(s).into_owned()),
            Value::Array(items) => {
                let items = std::mem::take(items);
                visitor.visit_seq(de::value::SeqDeserializer::new(items.into_iter().map(ValueDeserializer)))
            }
            Value::Object(members) => {
                let members = std::mem::take(members);
                visitor.visit_map(entries(members))
            }
            // As JSON carries them: an object's own members, else nothing.
            Value::Host(host) => match host.as_mut() {
                Host::Object { own, .. } => visitor.visit_map(entries(std::mem::take(own))),
                _ => visitor.visit_unit(),
            },
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.0.is_nullish() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0.take_string() {
            Some(variant) => {
                let variant: StringDeserializer<DeError> = variant.into_deserializer();
                visitor.visit_enum(variant)
            }
            None => Err(de::Error::custom("only unit variants named by a string are supported")),
        }
    }

    // What a derived type asks for, answered with only the matching visit: every
    // instance of `deserialize_any` carries all of them, and there is one per visitor.
    fn deserialize_struct<V: Visitor<'de>>(
        mut self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match &mut self.0 {
            Value::Object(members) => {
                let members = std::mem::take(members);
                visitor.visit_map(entries(members))
            }
            _ => Err(de::Error::custom("expected an object")),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DeError> {
        match &mut self.0 {
            Value::Array(items) => {
                let items = std::mem::take(items);
                visitor.visit_seq(de::value::SeqDeserializer::new(items.into_iter().map(ValueDeserializer)))
            }
            _ => Err(de::Error::custom("expected an array")),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DeError> {
        match self.0.take_string() {
            Some(s) => visitor.visit_string(s),
            None => Err(de::Error::custom("expected a string")),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_string(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_string(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Bool(b) => visitor.visit_bool(b),
            _ => Err(de::Error::custom("expected a boolean")),
        }
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Number(n) if n >= 0.0 && n.fract() == 0.0 => visitor.visit_u64(n as u64),
            _ => Err(de::Error::custom("expected a whole number")),
        }
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Number(n) if n.fract() == 0.0 => visitor.visit_i64(n as i64),
            _ => Err(de::Error::custom("expected a whole number")),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Value::Number(n) => visitor.visit_f64(n),
            _ => Err(de::Error::custom("expected a number")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i64 i128 u8 u16 u64 u128 f32 char bytes byte_buf unit unit_struct tuple tuple_struct map
    }
}

impl<'de> IntoDeserializer<'de, DeError> for ValueDeserializer<'_> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Sample {
        count: u32,
        ratio: f64,
        label: Option<String>,
        missing: Option<String>,
        mode: Mode,
        tags: Vec<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Mode {
        FullHistory,
    }

    #[test]
    fn moves_validated_values_into_structs() {
        let value = Value::Object(vec![
            ("count".into(), Value::Number(3.0)),
            ("ratio".into(), Value::Number(0.5)),
            ("label".into(), Value::String("x".into())),
            ("missing".into(), Value::Undefined),
            ("mode".into(), Value::String("full_history".into())),
            ("tags".into(), Value::Array(vec![Value::String("a".into())])),
        ]);
        let sample: Sample = from_value(value).unwrap();
        assert_eq!(
            sample,
            Sample {
                count: 3,
                ratio: 0.5,
                label: Some("x".into()),
                missing: None,
                mode: Mode::FullHistory,
                tags: vec!["a".into()],
            }
        );
    }

    #[test]
    fn a_mismatch_is_an_internal_error() {
        let err = from_value::<Sample>(Value::Null).unwrap_err();
        assert_eq!(err.code, crate::error::ErrorCode::Internal);
    }
}
