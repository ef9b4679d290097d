//! JSON text out: one writer (serde_json) for everything planloop writes, from results
//! for the JS layer to tool replies a model reads and the text a snapshot's checksum
//! covers.

use serde::Serialize;

use crate::json::value::{is_json, Value};

/// `value` as compact JSON text. (Writing into memory cannot fail, and planloop's types
/// have string keys only.)
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// `value` as `JSON.stringify(value, null, 2)` writes it (an answer some agents' tools
/// give).
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// `value` as `JSON.stringify` writes it: `undefined` members dropped, `undefined` items
/// and numbers JSON has no form for as `null`.
pub fn stringify(value: &Value<'_>) -> String {
    if is_json(value) {
        return to_string(value);
    }
    match value.clone().into_json() {
        Some(json) => to_string(&json),
        None => "null".to_owned(),
    }
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
            ("z".into(), Value::Number(-0.0)),
        ]);
        let text = stringify(&value);
        assert_eq!(text, r#"{"a\"b":["é\n",null,false],"n":-9007199254740991,"f":0.1,"z":0}"#);
        let parsed = crate::json::parse(text.as_bytes()).unwrap();
        assert_eq!(*parsed, value.into_json().unwrap(), "JSON.parse gives the same value back");
    }

    #[test]
    fn undefined_is_dropped_and_numbers_json_cannot_carry_are_null() {
        let value = Value::Object(vec![
            ("u".into(), Value::Undefined),
            ("a".into(), Value::Array(vec![Value::Undefined, Value::Number(f64::NAN)])),
        ]);
        assert_eq!(stringify(&value), r#"{"a":[null,null]}"#);
        assert_eq!(stringify(&Value::Number(f64::INFINITY)), "null");
    }
}
