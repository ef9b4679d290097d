//! Conversions between core types and JS values.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::js_input::JsInput;
use crate::error::{Error, Result};

/// A plain JS value: objects, arrays, `null` for `None`.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).map_err(|e| error_to_js(Error::internal(&e.to_string())))
}

/// Like [`to_js`], but a missing value stays `undefined`: validated data keeps an
/// optional key the host set to `undefined`, as zod's output does. Only for values whose
/// schema admits no `null`.
pub fn to_js_keeping_undefined<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value.serialize(&serializer).map_err(|e| error_to_js(Error::internal(&e.to_string())))
}

/// A JS `Error` named `PlanloopError`, with `code` and `data`.
pub fn error_to_js(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("PlanloopError");
    let code = serde_wasm_bindgen::to_value(&error.code).unwrap_or(JsValue::NULL);
    let data = to_js(&error.data).unwrap_or_else(|_| js_sys::Object::new().into());
    // Setting own data properties on a fresh Error cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &code);
    let _ = js_sys::Reflect::set(&js, &"data".into(), &data);
    js.into()
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

/// A time argument (`nowMs`).
pub fn time(value: JsValue, name: &str) -> Result<f64, JsValue> {
    crate::args::time(input(value)?, name).throw()
}

/// A whole-number argument in `[min, max]`.
pub fn whole(value: JsValue, name: &str, min: u32, max: u32) -> Result<u32, JsValue> {
    crate::args::whole(input(value)?, name, min, max).throw()
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
