//! A [`Value`] as JSON text: for tool output a model reads, and for the fast way into JS.
//!
//! Building a JS object from wasm one property at a time costs a boundary crossing per
//! key and value; handing JS one JSON string for `JSON.parse` costs two crossings in all
//! and lets V8's fastest object builder do the rest. Recursion is bounded: only planloop's
//! own values, as deep as their types or schemas, are written.

use crate::json::value::{Host, Members, Value};
use crate::json::write_string;

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `value` as `JSON.stringify` would write it: `undefined` members dropped, `undefined`
/// items and non-finite numbers as `null`.
pub fn stringify(value: &Value<'_>) -> String {
    let mut out = String::with_capacity(128);
    write_into(&mut out, value, false);
    out
}

/// `value` as JSON text that `JSON.parse` turns back into exactly `value`, or `None` when
/// it holds `undefined` (which JSON cannot carry).
pub fn exact(value: &Value<'_>) -> Option<String> {
    let mut out = String::with_capacity(128);
    write_into(&mut out, value, true).then_some(out)
}

/// Writes `value`; false when `exact` and an `undefined` was met.
fn write_into(out: &mut String, value: &Value<'_>, exact: bool) -> bool {
    let value = match value {
        // As JSON.stringify writes them: an object's own members, else nothing.
        Value::Host(host) => match host.as_ref() {
            Host::Object { own, .. } => return write_members(out, own, exact),
            _ => &Value::Undefined,
        },
        value => value,
    };
    match value {
        Value::Undefined if exact => return false,
        Value::Undefined | Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if !n.is_finite() => out.push_str("null"),
        Value::Number(n) if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER && !(*n == 0.0 && n.is_sign_negative()) => {
            out.push_str(&(*n as i64).to_string())
        }
        // Rust prints the shortest text that reads back as the same number.
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) | Value::IllFormedString(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_into(out, item, exact) {
                    return false;
                }
            }
            out.push(']');
        }
        Value::Object(members) => return write_members(out, members, exact),
        Value::Host(_) => {}
    }
    true
}

fn write_members(out: &mut String, members: &Members<'_>, exact: bool) -> bool {
    out.push('{');
    let mut first = true;
    for (key, item) in members {
        let absent = matches!(item, Value::Undefined)
            || matches!(item, Value::Host(host) if !matches!(host.as_ref(), Host::Object { .. }));
        if absent && !exact {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        write_string(out, key);
        out.push(':');
        if !write_into(out, item, exact) {
            return false;
        }
    }
    out.push('}');
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_compact_json_in_member_order() {
        let value = Value::Object(vec![
            ("a\"b".into(), Value::Array(vec![Value::String("é\n".into()), Value::Null, Value::Bool(false)])),
            ("n".into(), Value::Number(-9_007_199_254_740_991.0)),
            ("f".into(), Value::Number(0.1)),
            ("big".into(), Value::Number(1e300)),
            ("z".into(), Value::Number(-0.0)),
        ]);
        let text = exact(&value).unwrap();
        assert!(text.starts_with(r#"{"a\"b":["é\n",null,false],"n":-9007199254740991,"f":0.1,"big":1000"#), "{text}");
        let parsed = crate::json::parse(text.as_bytes()).unwrap();
        assert_eq!(*parsed, value, "JSON.parse gives the same value back");
    }

    #[test]
    fn undefined_is_dropped_or_refused_and_non_finite_numbers_are_null() {
        let value = Value::Object(vec![
            ("u".into(), Value::Undefined),
            ("a".into(), Value::Array(vec![Value::Undefined, Value::Number(f64::NAN)])),
        ]);
        assert_eq!(stringify(&value), r#"{"a":[null,null]}"#);
        assert_eq!(exact(&value), None);
        assert_eq!(exact(&Value::Number(f64::INFINITY)).as_deref(), Some("null"));
    }
}
