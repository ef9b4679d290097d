//! A [`Value`] as JSON text, for the fast way into JS.
//!
//! Building a JS object from wasm one property at a time costs a boundary crossing per
//! key and value; handing JS one JSON string for `JSON.parse` costs two crossings in all
//! and lets V8's fastest object builder do the rest. Two things JSON cannot carry make
//! this writer give up, so the caller builds the object directly instead: `undefined`,
//! and numbers that are not safe integers (printing floats exactly would take 14 KB of
//! wasm for a rare case). Recursion is bounded: only planloop's own values, as deep as
//! their types, are written.

use crate::json::write_string;
use crate::value::Value;

/// Why a value has no JSON text here.
#[derive(Debug, PartialEq)]
pub enum Unsupported {
    Undefined,
    Fraction,
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `value` as compact JSON text.
pub fn write(value: &Value<'_>) -> Result<String, Unsupported> {
    let mut out = String::with_capacity(128);
    write_into(&mut out, value)?;
    Ok(out)
}

fn write_into(out: &mut String, value: &Value<'_>) -> Result<(), Unsupported> {
    match value {
        Value::Undefined => return Err(Unsupported::Undefined),
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            // -0 would come back from JSON.parse as +0.
            if n.fract() != 0.0 || n.abs() > MAX_SAFE_INTEGER || (*n == 0.0 && n.is_sign_negative()) {
                return Err(Unsupported::Fraction);
            }
            out.push_str(&(*n as i64).to_string());
        }
        Value::String(s) | Value::IllFormedString(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_into(out, item)?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_into(out, item)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_compact_json_in_member_order() {
        let value = Value::Object(vec![
            ("a\"b".into(), Value::Array(vec![Value::String("é\n".into()), Value::Null, Value::Bool(false)])),
            ("n".into(), Value::Number(-9_007_199_254_740_991.0)),
        ]);
        assert_eq!(write(&value).unwrap(), r#"{"a\"b":["é\n",null,false],"n":-9007199254740991}"#);
    }

    #[test]
    fn gives_up_on_what_json_cannot_carry_exactly() {
        assert_eq!(write(&Value::Undefined), Err(Unsupported::Undefined));
        assert_eq!(write(&Value::Number(0.5)), Err(Unsupported::Fraction));
        assert_eq!(write(&Value::Number(-0.0)), Err(Unsupported::Fraction));
        assert_eq!(write(&Value::Number(9_007_199_254_740_992.0)), Err(Unsupported::Fraction));
    }
}
