//! Conversions between core types and JS values.

use js_sys::{Array, Object};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::js_input::JsInput;
use crate::error::{Error, Result};
use crate::json::text as json_text;
use crate::json::to_value::to_value;
use crate::json::value::Value;

/// A plain JS value: objects, arrays, `null` for `None`. Objects are made the way
/// `JSON.parse` makes them, with every key an own data property: a model's `"__proto__"`
/// key stays a key, never the object's prototype, so what the user is shown and what
/// the host receives are the same data. One JSON text for `JSON.parse` is the fast way;
/// a value holding `undefined` (which JSON cannot carry) is built with
/// `Object.fromEntries`, which defines keys the same way.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let value = to_value(value).throw()?;
    match json_text::exact(&value) {
        Some(text) => js_sys::JSON::parse(&text).map_err(|_| error_to_js(Error::internal("JSON text planloop wrote"))),
        None => Ok(build(&value)),
    }
}

/// `value` built in JS (bounded recursion: only planloop's own values are returned).
fn build(value: &Value<'_>) -> JsValue {
    match value {
        Value::Undefined => JsValue::UNDEFINED,
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(*n),
        Value::String(s) | Value::IllFormedString(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(build).collect::<Array>().into(),
        Value::Object(members) => {
            let entries: Array = members.iter().map(|(k, v)| Array::of2(&JsValue::from_str(k), &build(v))).collect();
            // fromEntries only throws for entries that are not pairs.
            Object::from_entries(&entries).map_or(JsValue::NULL, JsValue::from)
        }
    }
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
    crate::validate::args::string(input(value)?, name).throw()
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
        _ => crate::validate::args::time(input(value)?, name).throw(),
    }
}

/// A whole-number argument in `[min, max]`. One in range, the usual case, is taken as it is.
pub fn whole(value: JsValue, name: &str, min: u32, max: u32) -> Result<u32, JsValue> {
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= f64::from(min) && n <= f64::from(max) => Ok(n as u32),
        _ => crate::validate::args::whole(input(value)?, name, min, max).throw(),
    }
}

/// An optional whole-number argument.
pub fn whole_or(value: JsValue, name: &str, min: u32, max: u32, default: u32) -> Result<u32, JsValue> {
    crate::validate::args::whole_or(input(value)?, name, min, max, default).throw()
}

/// A boolean argument.
pub fn boolean(value: JsValue, name: &str) -> Result<bool, JsValue> {
    crate::validate::args::boolean(input(value)?, name).throw()
}

/// An object argument checked against its embedded schema.
pub fn object<T: serde::de::DeserializeOwned>(value: JsValue, name: &str, schema: &'static str) -> Result<T, JsValue> {
    crate::validate::args::object(input(value)?, name, schema).throw()
}

/// An options argument; `undefined` gives the defaults.
pub fn options<T: serde::de::DeserializeOwned>(value: JsValue, name: &str, schema: &'static str) -> Result<T, JsValue> {
    crate::validate::args::options(input(value)?, name, schema).throw()
}
