//! Conversions between core types and JS values.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::js_input::JsInput;
use crate::error::{Error, Result};
use crate::json_text;
use crate::to_value::to_value;

/// A plain JS value: objects, arrays, `null` for `None`, built property by property
/// (the cheapest way for the small, fixed-shape results most calls return).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serialize(value, serde_wasm_bindgen::Serializer::json_compatible())
}

/// For results that carry a model's data (kilobytes of todos): one JSON text for
/// `JSON.parse`, which beats building the objects from wasm as soon as there is more than
/// a handful of properties. `undefined` stays `undefined`, as zod keeps an optional key
/// a host set to `undefined` (JSON cannot, so such a value is built property by property,
/// and only values whose schema admits no `null` may take this way).
pub fn to_js_through_json<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let value = to_value(value).throw()?;
    match json_text::exact(&value) {
        Some(text) => js_sys::JSON::parse(&text).map_err(|_| error_to_js(Error::internal("JSON text planloop wrote"))),
        None => serialize(&value, serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true)),
    }
}

fn serialize<T: Serialize + ?Sized>(value: &T, serializer: serde_wasm_bindgen::Serializer) -> Result<JsValue, JsValue> {
    value.serialize(&serializer).map_err(|e| error_to_js(Error::internal(&e.to_string())))
}

/// A JS `Error` named `PlanloopError`, with `code` and `data`.
pub fn error_to_js(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("PlanloopError");
    let code = to_js(&error.code).unwrap_or(JsValue::NULL);
    let data = to_js(&error.data).unwrap_or_else(|_| js_sys::Object::new().into());
    // Setting own data properties on a fresh Error cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &code);
    let _ = js_sys::Reflect::set(&js, &"data".into(), &data);
    js.into()
}

/// A JS value as JSON text: a string as it is, anything else through `JSON.stringify`
/// (`undefined` gives `null`; a throwing getter or a cycle is a `host_exception`).
pub fn json_text_of(value: JsValue) -> Result<String, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    match js_sys::JSON::stringify(&value) {
        Ok(text) => Ok(text.as_string().unwrap_or_else(|| "null".to_owned())),
        Err(thrown) => {
            let detail = js_sys::Error::from(thrown).message().as_string().unwrap_or_default();
            Err(error_to_js(Error::host_exception(detail)))
        }
    }
}

/// Wraps a JS argument for the core's validators.
pub fn input(value: JsValue) -> Result<JsInput, JsValue> {
    JsInput::new(value).map_err(error_to_js)
}

/// Turns a core error into a thrown `PlanloopError`.
pub trait Throw<T> {
    fn throw(self) -> Result<T, JsValue>;
}

impl<T> Throw<T> for Result<T, Error> {
    fn throw(self) -> Result<T, JsValue> {
        self.map_err(error_to_js)
    }
}

/// A string argument.
pub fn string(value: JsValue, name: &str) -> Result<String, JsValue> {
    crate::args::string(input(value)?, name).throw()
}

/// An optional string argument: `undefined` and `null` are absent.
pub fn string_or_absent(value: JsValue, name: &str) -> Result<Option<String>, JsValue> {
    match value.is_undefined() || value.is_null() {
        true => Ok(None),
        false => string(value, name).map(Some),
    }
}

/// A time argument (`nowMs`). A finite number, the usual case, is taken as it is.
pub fn time(value: JsValue, name: &str) -> Result<f64, JsValue> {
    match value.as_f64() {
        Some(n) if n.is_finite() => Ok(n),
        _ => crate::args::time(input(value)?, name).throw(),
    }
}

/// A whole-number argument in `[min, max]`. One in range, the usual case, is taken as it is.
pub fn whole(value: JsValue, name: &str, min: u32, max: u32) -> Result<u32, JsValue> {
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= f64::from(min) && n <= f64::from(max) => Ok(n as u32),
        _ => crate::args::whole(input(value)?, name, min, max).throw(),
    }
}

/// An optional whole-number argument.
pub fn whole_or(value: JsValue, name: &str, min: u32, max: u32, default: u32) -> Result<u32, JsValue> {
    crate::args::whole_or(input(value)?, name, min, max, default).throw()
}

/// A boolean argument.
pub fn boolean(value: JsValue, name: &str) -> Result<bool, JsValue> {
    crate::args::boolean(input(value)?, name).throw()
}

/// An object argument checked against its embedded schema.
pub fn object<T: serde::de::DeserializeOwned>(value: JsValue, name: &str, schema: &'static str) -> Result<T, JsValue> {
    crate::args::object(input(value)?, name, schema).throw()
}

/// An options argument; `undefined` gives the defaults.
pub fn options<T: serde::de::DeserializeOwned>(value: JsValue, name: &str, schema: &'static str) -> Result<T, JsValue> {
    crate::args::options(input(value)?, name, schema).throw()
}
