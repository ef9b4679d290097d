//! Live JS values as validator input, read lazily and only where a schema looks.
//!
//! Every read that could run host code (getters, proxy traps, `valueOf`) goes through a
//! catching import, so a throwing host value becomes a `host_exception` error instead of
//! an exception unwinding through Rust.

use js_sys::{Array, Function, JsString, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::{Error, Result};
use crate::plan::todos::Args;
use crate::validate::input::{Input, Kind, Text};

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

    type TextEncoder;

    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;

    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, destination: &Uint8Array) -> EncodeIntoResult;

    type EncodeIntoResult;

    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
    /// Reused between calls, grown to the longest text seen.
    static SCRATCH: std::cell::RefCell<Uint8Array> = std::cell::RefCell::new(Uint8Array::new_with_length(0));
}

/// The UTF-8 bytes of a well-formed JS string. For long text `TextEncoder.encodeInto`
/// writes them natively, several times faster than the generic string glue, which copies
/// one character at a time; short text is not worth its extra crossings.
fn utf8_bytes(string: &JsString) -> Vec<u8> {
    let units = string.length();
    if units < 256 {
        return String::from(string).into_bytes();
    }
    let most = units * 3;
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        if scratch.length() < most {
            *scratch = Uint8Array::new_with_length(most.max(1024));
        }
        let written = ENCODER.with(|encoder| encoder.encode_into(string, &scratch).written());
        let mut bytes = vec![0; written as usize];
        scratch.subarray(0, written).copy_to(&mut bytes);
        bytes
    })
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
pub fn js_text<'a>(value: &JsValue) -> Text<'a> {
    let string: &JsString = value.unchecked_ref();
    Text { value: String::from(string).into(), well_formed: string.is_well_formed() }
}

/// JS strings are copied into Rust, so they can live as long as any caller needs.
impl<'a> Input<'a> for JsInput {
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

    fn is_plain_object(&self) -> Result<bool> {
        if self.kind != Kind::Object {
            return Ok(false);
        }
        let constructor = Reflect::get(&self.value, &"constructor".into()).map_err(host_exception)?;
        if !constructor.is_function() {
            return Ok(true);
        }
        let prototype = Reflect::get(&constructor, &"prototype".into()).map_err(host_exception)?;
        if !prototype.is_object() || is_array(&prototype).map_err(host_exception)? {
            return Ok(false);
        }
        let own =
            Reflect::get_own_property_descriptor(prototype.unchecked_ref::<js_sys::Object>(), &"isPrototypeOf".into());
        Ok(!own.map_err(host_exception)?.is_undefined())
    }

    fn item_count(&self) -> Result<usize> {
        Ok(self.value.unchecked_ref::<Array>().length() as usize)
    }

    fn item(&self, index: usize) -> Result<Self> {
        let index = u32::try_from(index).map_err(|_| Error::internal("array index over u32"))?;
        JsInput::new(Reflect::get_u32(&self.value, index).map_err(host_exception)?)
    }

    fn text(&self) -> Result<Text<'a>> {
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

/// A tool call's arguments as the host passed them: JSON text (as UTF-8, or WTF-8 when
/// it holds lone surrogates) or a JS value.
pub enum ToolArgs {
    Text(Vec<u8>),
    Value(JsInput),
}

impl ToolArgs {
    pub fn new(value: JsValue) -> Result<ToolArgs> {
        match value.is_string() {
            true => json_text(&value).map(ToolArgs::Text),
            false => JsInput::new(value).map(ToolArgs::Value),
        }
    }

    pub fn args(&self) -> Args<'_, JsInput> {
        match self {
            ToolArgs::Text(text) => Args::Text(text),
            ToolArgs::Value(input) => Args::Value(JsInput { value: input.value.clone(), kind: input.kind }),
        }
    }
}

/// Reads a JS string as raw JSON text: UTF-8, or WTF-8 when it holds lone surrogates
/// (found by `isWellFormed`, then carried through `JSON.stringify`'s escapes).
fn json_text(value: &JsValue) -> Result<Vec<u8>> {
    let string: &JsString = value.unchecked_ref();
    if string.is_well_formed() {
        return Ok(utf8_bytes(string));
    }
    let escaped = js_sys::JSON::stringify(value).map_err(host_exception)?;
    crate::json::escaped_text_to_wtf8(String::from(escaped).as_bytes()).map_err(|e| Error::internal(&e.message))
}
