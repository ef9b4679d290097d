//! A call's arguments as the JS layer writes them: one array, in its encoding of JS
//! values (`json::parse_host`), each argument checked by the core's validators.

use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::json::from_value::FromValue;
use crate::json::value::{Document, Host, Value};
use crate::validate::args as checked;
use crate::validate::schema::Schema;

/// The arguments, and the decimals their numbers were read with (and any `length`
/// given as a decimal string is).
pub struct Args<'t>(Document<'t>, Decimals);

static UNDEFINED: Value<'static> = Value::Undefined;

#[cfg_attr(not(all(feature = "core", feature = "session")), allow(dead_code))]
impl<'t> Args<'t> {
    pub fn parse(input: &'t [u8], decimals: Decimals) -> Result<Args<'t>> {
        // No arguments (a getter's call): no parser to set up and take down, a tenth of
        // such a call's time.
        if input == b"[]" {
            return Ok(Args(Document::new(Value::Array(Vec::new())), decimals));
        }
        let document = crate::json::parse_host(input, decimals).map_err(|e| Error::internal(&e.message))?;
        match &*document {
            Value::Array(_) => Ok(Args(document, decimals)),
            _ => Err(Error::internal("arguments are not an array")),
        }
    }

    /// Argument `index`; `undefined` when the caller gave fewer.
    pub fn get(&self, index: usize) -> &Value<'t> {
        match &*self.0 {
            Value::Array(items) => items.get(index).unwrap_or(&UNDEFINED),
            _ => &UNDEFINED,
        }
    }

    /// Argument `index` as it is; a `host_exception` when reading it threw.
    pub fn value(&self, index: usize) -> Result<&Value<'t>> {
        match self.get(index) {
            Value::Host(host) => match host.as_ref() {
                Host::Thrown(thrown) => Err(Error::host_exception(thrown.to_string())),
                _ => Ok(self.get(index)),
            },
            value => Ok(value),
        }
    }

    pub fn string(&self, index: usize, name: &str) -> Result<String> {
        checked::string(self.get(index), name, self.1)
    }

    /// A string, or nothing for `undefined` and `null`.
    pub fn string_or_absent(&self, index: usize, name: &str) -> Result<Option<String>> {
        match self.get(index).is_nullish() {
            true => Ok(None),
            false => self.string(index, name).map(Some),
        }
    }

    pub fn time(&self, index: usize, name: &str) -> Result<f64> {
        match self.get(index) {
            Value::Number(n) if n.is_finite() => Ok(*n),
            other => checked::time(other, name, self.1),
        }
    }

    pub fn whole(&self, index: usize, name: &str, min: u32, max: u32) -> Result<u32> {
        checked::whole(self.get(index), name, min, max, self.1)
    }

    pub fn whole_or(&self, index: usize, name: &str, min: u32, max: u32, default: u32) -> Result<u32> {
        checked::whole_or(self.get(index), name, min, max, default, self.1)
    }

    pub fn boolean(&self, index: usize, name: &str) -> Result<bool> {
        checked::boolean(self.get(index), name, self.1)
    }

    pub fn names(&self, index: usize, name: &str, max: u32) -> Result<Vec<String>> {
        checked::names(self.get(index), name, max, self.1)
    }

    /// Argument `index` as `schema` passes it (see [`checked::checked`]).
    pub fn checked(&self, index: usize, name: &str, schema: &'static Schema) -> Result<Value<'static>> {
        checked::checked(schema, self.get(index), name, self.1)
    }

    pub fn object<T: FromValue>(&self, index: usize, name: &str, schema: &'static Schema) -> Result<T> {
        checked::object(self.get(index), name, schema, self.1)
    }

    /// An options object; `undefined` gives the defaults.
    pub fn options<T: FromValue>(&self, index: usize, name: &str, schema: &'static Schema) -> Result<T> {
        checked::options(self.get(index), name, schema, self.1)
    }
}
