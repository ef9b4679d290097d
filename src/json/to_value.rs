//! Any `Serialize` value as a [`Value`]: the one shape planloop hands to JS.
//!
//! Everything planloop returns goes through `Value`, so the conversions to JS (JSON text
//! for `JSON.parse`, or property by property) exist once, for `Value`, instead of once
//! per returned type; that keeps the wasm module small. `None` becomes `null`; serde's
//! unit becomes `undefined` (only [`Value`] itself uses it, for a key a host set to
//! `undefined`).

use std::borrow::Cow;

use serde::ser::{self, Serialize};

use crate::error::Error;
use crate::json::value::Value;

/// `value` as a [`Value`], object keys in field order.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value<'static>, Error> {
    value.serialize(ValueSerializer).map_err(|e| Error::internal(&e.0))
}

#[derive(Debug)]
pub struct SerError(String);

impl std::fmt::Display for SerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        SerError(msg.to_string())
    }
}

type Out = Result<Value<'static>, SerError>;

struct ValueSerializer;

/// The items or members collected so far.
pub struct Collect {
    items: Vec<Value<'static>>,
    members: Vec<(Cow<'static, str>, Value<'static>)>,
    key: Option<Cow<'static, str>>,
}

impl Collect {
    fn new() -> Self {
        Collect { items: Vec::new(), members: Vec::new(), key: None }
    }
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value<'static>;
    type Error = SerError;
    type SerializeSeq = Collect;
    type SerializeTuple = Collect;
    type SerializeTupleStruct = Collect;
    type SerializeTupleVariant = ser::Impossible<Value<'static>, SerError>;
    type SerializeMap = Collect;
    type SerializeStruct = Collect;
    type SerializeStructVariant = ser::Impossible<Value<'static>, SerError>;

    fn serialize_bool(self, v: bool) -> Out {
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_i16(self, v: i16) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_i32(self, v: i32) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_i64(self, v: i64) -> Out {
        Ok(Value::Number(v as f64))
    }

    fn serialize_u8(self, v: u8) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Out {
        Ok(Value::Number(v as f64))
    }

    fn serialize_f32(self, v: f32) -> Out {
        Ok(Value::Number(f64::from(v)))
    }

    fn serialize_f64(self, v: f64) -> Out {
        Ok(Value::Number(v))
    }

    fn serialize_char(self, v: char) -> Out {
        Ok(Value::String(Cow::Owned(v.to_string())))
    }

    fn serialize_str(self, v: &str) -> Out {
        Ok(Value::String(Cow::Owned(v.to_owned())))
    }

    fn serialize_bytes(self, _: &[u8]) -> Out {
        Err(SerError("bytes have no JS form here".into()))
    }

    fn serialize_none(self) -> Out {
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Out {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Out {
        Ok(Value::Undefined)
    }

    fn serialize_unit_struct(self, _: &'static str) -> Out {
        Ok(Value::Undefined)
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out {
        Ok(Value::String(Cow::Borrowed(variant)))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Out {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Out {
        Err(SerError("externally tagged enums have no JS form here".into()))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Collect, SerError> {
        Ok(Collect::new())
    }

    fn serialize_tuple(self, _: usize) -> Result<Collect, SerError> {
        Ok(Collect::new())
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Collect, SerError> {
        Ok(Collect::new())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(SerError("tuple variants have no JS form here".into()))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Collect, SerError> {
        Ok(Collect::new())
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Collect, SerError> {
        Ok(Collect::new())
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(SerError("struct variants have no JS form here".into()))
    }
}

impl ser::SerializeSeq for Collect {
    type Ok = Value<'static>;
    type Error = SerError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        self.items.push(value.serialize(ValueSerializer)?);
        Ok(())
    }

    fn end(self) -> Out {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for Collect {
    type Ok = Value<'static>;
    type Error = SerError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Out {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Collect {
    type Ok = Value<'static>;
    type Error = SerError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Out {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Collect {
    type Ok = Value<'static>;
    type Error = SerError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        let mut key = key.serialize(ValueSerializer)?;
        match key.take_string() {
            Some(key) => self.key = Some(Cow::Owned(key)),
            None => return Err(SerError("object keys must be strings".into())),
        }
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        let key = self.key.take().ok_or_else(|| SerError("a value without a key".into()))?;
        self.members.push((key, value.serialize(ValueSerializer)?));
        Ok(())
    }

    fn end(self) -> Out {
        Ok(Value::Object(self.members))
    }
}

impl ser::SerializeStruct for Collect {
    type Ok = Value<'static>;
    type Error = SerError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), SerError> {
        self.members.push((Cow::Borrowed(key), value.serialize(ValueSerializer)?));
        Ok(())
    }

    fn end(self) -> Out {
        Ok(Value::Object(self.members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Ack {
        ok: bool,
        todo_count: u32,
        in_progress: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        issues: Option<Vec<u8>>,
        path: (&'static str, u32),
        kind: Kind,
    }

    #[derive(serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        InProgress,
    }

    #[test]
    fn structs_become_objects_in_field_order() {
        let ack = Ack {
            ok: true,
            todo_count: 3,
            in_progress: None,
            issues: None,
            path: ("todos", 0),
            kind: Kind::InProgress,
        };
        let expected = Value::Object(vec![
            ("ok".into(), Value::Bool(true)),
            ("todoCount".into(), Value::Number(3.0)),
            ("inProgress".into(), Value::Null),
            ("path".into(), Value::Array(vec![Value::String("todos".into()), Value::Number(0.0)])),
            ("kind".into(), Value::String("in_progress".into())),
        ]);
        assert_eq!(to_value(&ack).unwrap(), expected);
    }
}
