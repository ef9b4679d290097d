//! Live JS values as validator input, read lazily and only where a schema looks.
//!
//! Every read that could run host code (getters, proxy traps, `valueOf`) goes through a
//! catching import, so a throwing host value becomes a `host_exception` error instead of
//! an exception unwinding through Rust.

use js_sys::{Array, Function, JsString, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::{Error, Result};
use crate::input::{Input, Kind, Text};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> std::result::Result<bool, JsValue>;

    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> std::result::Result<Array, JsValue>;

    #[wasm_bindgen(catch, js_name = String)]
    fn to_js_string(value: &JsValue) -> std::result::Result<JsString, JsValue>;

    #[wasm_bindgen(thread_local_v2, js_name = Number)]
    static NUMBER: Function;

    #[wasm_bindgen(thread_local_v2, js_namespace = Object, js_name = prototype)]
    static OBJECT_PROTOTYPE: JsValue;
}

/// A JS value and its kind.
pub struct JsInput {
    value: JsValue,
    kind: Kind,
}

impl JsInput {
    pub fn new(value: JsValue) -> Result<JsInput> {
        let kind = if value.is_undefined() {
            Kind::Undefined
        } else if value.is_null() {
            Kind::Null
        } else if value.as_bool().is_some() {
            Kind::Boolean
        } else if value.as_f64().is_some() {
            Kind::Number
        } else if value.is_string() {
            Kind::String
        } else if is_array(&value).map_err(host_exception)? {
            Kind::Array
        } else if value.is_object() {
            Kind::Object
        } else {
            Kind::Other
        };
        Ok(JsInput { value, kind })
    }
}

/// The text of whatever a host threw, for `data.detail`.
pub fn host_exception(thrown: JsValue) -> Error {
    let detail = match thrown.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => to_js_string(&thrown).map(String::from).unwrap_or_else(|_| "a value that cannot be shown".to_owned()),
    };
    Error::host_exception(detail)
}

/// The text of a JS string; lone surrogates become U+FFFD and clear `well_formed`.
pub fn js_text(value: &JsValue) -> Text {
    let string: &JsString = value.unchecked_ref();
    Text { value: String::from(string), well_formed: string.is_well_formed() }
}

impl Input for JsInput {
    fn kind(&self) -> Kind {
        self.kind
    }

    fn type_name(&self) -> Result<String> {
        let name = match self.kind {
            Kind::Number => match self.number() {
                n if n.is_nan() => "NaN",
                f64::INFINITY => "Infinity",
                f64::NEG_INFINITY => "-Infinity",
                _ => "number",
            },
            // zod names an object by its constructor unless it is a plain object.
            Kind::Object => {
                let proto: JsValue = Reflect::get_prototype_of(&self.value).map_err(host_exception)?.into();
                let plain = OBJECT_PROTOTYPE.with(|p| p == &proto);
                let constructor = match plain {
                    true => None,
                    false => match Reflect::has(&self.value, &"constructor".into()).map_err(host_exception)? {
                        true => Some(Reflect::get(&self.value, &"constructor".into()).map_err(host_exception)?),
                        false => None,
                    },
                };
                match constructor.filter(JsValue::is_truthy) {
                    Some(c) => {
                        let name = Reflect::get(&c, &"name".into()).map_err(host_exception)?;
                        return to_js_string(&name).map(String::from).map_err(host_exception);
                    }
                    None => "object",
                }
            }
            Kind::Other => return Ok(self.value.js_typeof().as_string().unwrap_or_default()),
            Kind::Undefined => "undefined",
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::String => "string",
            Kind::Array => "array",
        };
        Ok(name.to_owned())
    }

    fn property(&self, key: &str) -> Result<Option<Self>> {
        let key = JsValue::from_str(key);
        if !Reflect::has(&self.value, &key).map_err(host_exception)? {
            return Ok(None);
        }
        JsInput::new(Reflect::get(&self.value, &key).map_err(host_exception)?).map(Some)
    }

    fn keys(&self) -> Result<Vec<String>> {
        let keys = object_keys(&self.value).map_err(host_exception)?;
        Ok(keys.iter().filter_map(|k| k.as_string()).collect())
    }

    fn item_count(&self) -> Result<usize> {
        Ok(self.value.unchecked_ref::<Array>().length() as usize)
    }

    fn item(&self, index: usize) -> Result<Self> {
        let index = u32::try_from(index).map_err(|_| Error::internal("array index over u32"))?;
        JsInput::new(Reflect::get_u32(&self.value, index).map_err(host_exception)?)
    }

    fn text(&self) -> Result<Text> {
        Ok(js_text(&self.value))
    }

    fn number(&self) -> f64 {
        self.value.as_f64().unwrap_or(f64::NAN)
    }

    fn boolean(&self) -> bool {
        self.value.as_bool().unwrap_or(false)
    }

    fn length(&self) -> Result<Option<f64>> {
        match self.kind {
            Kind::String => Ok(Some(self.text()?.value.chars().count() as f64)),
            Kind::Array => Ok(Some(self.item_count()? as f64)),
            Kind::Object => self.length_property(),
            Kind::Other if self.value.is_function() => self.length_property(),
            _ => Ok(None),
        }
    }

    fn undefined() -> Self {
        JsInput { value: JsValue::UNDEFINED, kind: Kind::Undefined }
    }
}

impl JsInput {
    /// `value.length` through JS's ToNumber, as `length <= max` would convert it.
    fn length_property(&self) -> Result<Option<f64>> {
        let length = Reflect::get(&self.value, &"length".into()).map_err(host_exception)?;
        if length.is_undefined() {
            return Ok(None);
        }
        let number = NUMBER.with(|number| Reflect::apply(number, &JsValue::UNDEFINED, &Array::of1(&length)));
        Ok(Some(number.map_err(host_exception)?.as_f64().unwrap_or(f64::NAN)))
    }
}

/// Reads a JS argument as raw JSON text: UTF-8, or WTF-8 when it holds lone surrogates
/// (found by `isWellFormed`, then carried through `JSON.stringify`'s escapes).
pub fn json_text(value: &JsValue) -> Result<Vec<u8>> {
    let string: &JsString = value.unchecked_ref();
    if string.is_well_formed() {
        return Ok(String::from(string).into_bytes());
    }
    let escaped = js_sys::JSON::stringify(value).map_err(host_exception)?;
    crate::json::escaped_text_to_wtf8(String::from(escaped).as_bytes()).map_err(|e| Error::internal(&e.message))
}
