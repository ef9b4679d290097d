//! A typed result as a JS value, built by serde-wasm-bindgen: plain objects with their
//! keys in field order, `null` for nothing, numbers as they are: what `JSON.parse` gave
//! of the result's JSON. Free-form JSON inside it (a value serialized under
//! [`FREE_FORM`]: a call's arguments, a schema) is the exception: built key by key, an
//! object takes a `__proto__` key as its prototype (and, under a frozen `Object.prototype`,
//! cannot take a `toString` key), so it is written as JSON text and parsed by `JSON.parse`,
//! which makes every key an own property; serde-wasm-bindgen takes the parsed value as it
//! is (`preserve`). serde-wasm-bindgen has no hook for that, so a wrapper gives it one: it
//! passes every call on to the serializer it wraps, and every value inside a list or an
//! object through itself again, except a free-form one.

use serde::ser::{self, Error as _, Serialize, Serializer};
use wasm_bindgen::JsValue;

use crate::json::value::FREE_FORM;
use crate::wasm::HOST;

/// `value` as a JS value (see the module docs).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(Js(&serde_wasm_bindgen::Serializer::json_compatible()))
}

/// `value` (serialized under [`FREE_FORM`]) as JSON text, parsed by `JSON.parse`.
fn parsed<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, &'static str> {
    let mut text = Vec::with_capacity(64);
    crate::json::write::to_writer(&mut text, value, HOST).map_err(|_| "free-form JSON not written")?;
    let text = String::from_utf8(text).map_err(|_| "free-form JSON not UTF-8")?;
    js_sys::JSON::parse(&text).map_err(|_| "free-form JSON not parsed")
}

/// A serializer (or one of its lists or objects) with free-form JSON given to `JSON.parse`.
struct Js<S>(S);

/// A value inside a list or an object, serialized with [`Js`] around the serializer it is given.
struct Through<'v, T: ?Sized>(&'v T);

impl<T: Serialize + ?Sized> Serialize for Through<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Js(serializer))
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $type:ty),*);)*) => {
        $(fn $method(self, $($arg: $type),*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

impl<S: Serializer> Serializer for Js<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Js<S::SerializeSeq>;
    type SerializeTuple = Js<S::SerializeTuple>;
    type SerializeTupleStruct = Js<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Js<S::SerializeTupleVariant>;
    type SerializeMap = Js<S::SerializeMap>;
    type SerializeStruct = Js<S::SerializeStruct>;
    type SerializeStructVariant = Js<S::SerializeStructVariant>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Through(value))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        if name == FREE_FORM {
            let parsed = parsed(value).map_err(S::Error::custom)?;
            return serde_wasm_bindgen::preserve::serialize(&parsed, self.0);
        }
        self.0.serialize_newtype_struct(name, &Through(value))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_variant(name, index, variant, &Through(value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Js)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Js)
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Js)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0.serialize_tuple_variant(name, index, variant, len).map(Js)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Js)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Js)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0.serialize_struct_variant(name, index, variant, len).map(Js)
    }
}

/// The lists: each item through [`Js`].
macro_rules! items {
    ($($trait:ident::$method:ident;)*) => {
        $(impl<C: ser::$trait> ser::$trait for Js<C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                self.0.$method(&Through(value))
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        })*
    };
}

items! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
}

/// The objects: each member's value (and a map's key) through [`Js`].
macro_rules! members {
    ($($trait:ident;)*) => {
        $(impl<C: ser::$trait> ser::$trait for Js<C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), C::Error> {
                self.0.serialize_field(key, &Through(value))
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.0.skip_field(key)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        })*
    };
}

members! {
    SerializeStruct;
    SerializeStructVariant;
}

impl<C: ser::SerializeMap> ser::SerializeMap for Js<C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        self.0.serialize_key(&Through(key))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        self.0.serialize_value(&Through(value))
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.0.end()
    }
}
