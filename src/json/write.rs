//! JSON text out: serde_json for planloop's typed results, and [`write_value`] for the
//! values hosts and models hand in (a call's arguments, a tool's output), which the
//! session writes on every decision.

use serde::Serialize;

use crate::json::decimals::Decimals;
use crate::json::float::{write_float, Compact};
use crate::json::value::{is_json, Host, Value};
use crate::json::write_string;
use crate::text::push_decimal;

/// `value` as compact JSON text, floats written with `decimals`. (Writing into memory
/// cannot fail, and planloop's types have string keys only.)
pub fn to_string<T: Serialize + ?Sized>(value: &T, decimals: Decimals) -> String {
    let mut bytes = Vec::with_capacity(128);
    let _ = to_writer(&mut bytes, value, decimals);
    String::from_utf8(bytes).unwrap_or_default()
}

/// `value` as compact JSON text, appended to `out`: serde_json's, floats written by
/// [`write_float`] with `decimals`.
pub fn to_writer<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T, decimals: Decimals) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(out, Compact(decimals)))
}

/// `value` as `JSON.stringify` writes it: `undefined` members dropped, `undefined` items
/// and numbers JSON has no form for as `null`; other numbers written with `decimals`.
pub fn stringify(value: &Value<'_>, decimals: Decimals) -> String {
    let mut out = Vec::with_capacity(128);
    stringify_into(&mut out, value, decimals);
    String::from_utf8(out).unwrap_or_default()
}

/// [`stringify()`], appended to `out`.
pub fn stringify_into(out: &mut Vec<u8>, value: &Value<'_>, decimals: Decimals) {
    as_json(value, |json| write_value(out, json, decimals));
}

/// `value` as `JSON.stringify(value, null, 2)` writes it (an answer some agents' tools
/// give): each item and member on a line of its own, two spaces deeper.
pub fn stringify_pretty(value: &Value<'_>, decimals: Decimals) -> String {
    let mut out = Vec::with_capacity(128);
    as_json(value, |json| write_pretty(&mut out, json, 0, decimals));
    String::from_utf8(out).unwrap_or_default()
}

/// Runs `write` with `value` as JSON carries it (`null` for what it cannot carry).
fn as_json(value: &Value<'_>, write: impl FnOnce(&Value<'_>)) {
    match is_json(value) {
        true => write(value),
        false => write(&value.clone().into_json().unwrap_or(Value::Null)),
    }
}

fn write_pretty(out: &mut Vec<u8>, value: &Value<'_>, depth: usize, decimals: Decimals) {
    let line = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.resize(out.len() + 2 * depth, b' ');
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                out.extend_from_slice(if i > 0 { b"," } else { b"" });
                line(out, depth + 1);
                write_pretty(out, item, depth + 1, decimals);
            }
            line(out, depth);
            out.push(b']');
        }
        Value::Object(members) if !members.is_empty() => {
            out.push(b'{');
            for (i, (key, item)) in members.iter().enumerate() {
                out.extend_from_slice(if i > 0 { b"," } else { b"" });
                line(out, depth + 1);
                write_string(out, key);
                out.extend_from_slice(b": ");
                write_pretty(out, item, depth + 1, decimals);
            }
            line(out, depth);
            out.push(b'}');
        }
        // Scalars, and `[]` and `{}`, as compact JSON writes them.
        _ => write_value(out, value, decimals),
    }
}

/// Appends `value` as compact JSON, byte for byte what its `Serialize` gives through
/// serde_json (a snapshot's checksum covers this text, so it must never change), in a
/// quarter of the time in the module: serde_json's generic writer, built for size,
/// goes byte by byte through `io::Write`, and it was a third of a decision's time.
/// Numbers are written with `decimals`.
pub fn write_value(out: &mut Vec<u8>, value: &Value<'_>, decimals: Decimals) {
    match value {
        Value::Undefined | Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => write_number(out, *n, decimals),
        Value::String(s) | Value::IllFormedString(s) => write_string(out, s),
        Value::Array(items) => write_array(out, items, |out, item| write_value(out, item, decimals)),
        Value::Object(members) => write_members(out, members, decimals),
        Value::Host(host) => match host.as_ref() {
            Host::Object { own, .. } => write_members(out, own, decimals),
            _ => out.extend_from_slice(b"null"),
        },
    }
}

/// `items` as a compact JSON array, each written by `write_item`.
pub fn write_array<T>(out: &mut Vec<u8>, items: &[T], mut write_item: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_item(out, item);
    }
    out.push(b']');
}

fn write_members(out: &mut Vec<u8>, members: &[(std::borrow::Cow<'_, str>, Value<'_>)], decimals: Decimals) {
    out.push(b'{');
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(out, key);
        out.push(b':');
        write_value(out, value, decimals);
    }
    out.push(b'}');
}

/// A whole number below 2^53 as an integer (`1`, not `1.0`, as JSON.stringify writes
/// it; `-0` is not one); any other as serde_json writes an `f64` (`NaN` and the
/// infinities as `null`), its digits from `decimals`.
pub fn write_number(out: &mut Vec<u8>, n: f64, decimals: Decimals) {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 && !(n == 0.0 && n.is_sign_negative()) {
        if n < 0.0 {
            out.push(b'-');
        }
        push_decimal(out, n.abs() as u64);
    } else {
        write_float(out, n, decimals);
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
        let text = stringify(&value, Decimals::RUST);
        assert_eq!(text, r#"{"a\"b":["é\n",null,false],"n":-9007199254740991,"f":0.1,"z":0}"#);
        let parsed = crate::json::parse(text.as_bytes(), Decimals::RUST).unwrap();
        assert_eq!(*parsed, value.into_json().unwrap(), "JSON.parse gives the same value back");
    }

    /// Values of every kind, with strings of every escape, and numbers whole and not.
    fn values(seed: u64, count: usize) -> Vec<Value<'static>> {
        let mut rng = crate::test_rng::Rng(seed);
        let mut next = move |n: u64| rng.next() % n;
        fn build(next: &mut impl FnMut(u64) -> u64, depth: u32) -> Value<'static> {
            let pieces = [
                "a", "é", "😀", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{1}", "\u{1f}", "\u{7f}",
                "\u{2028}", " ", "/",
            ];
            let numbers = [
                0.0,
                -0.0,
                1.0,
                -7.0,
                0.1,
                1e21,
                1e-7,
                9_007_199_254_740_991.0,
                9_007_199_254_740_992.0,
                -1.5e300,
                f64::MIN_POSITIVE,
            ];
            match next(if depth > 2 { 5 } else { 7 }) {
                0 => Value::Null,
                1 => Value::Bool(next(2) == 0),
                2 => Value::Number(numbers[next(numbers.len() as u64) as usize] * if next(2) == 0 { 1.0 } else { 3.0 }),
                3 | 4 => Value::String(
                    (0..next(5)).map(|_| pieces[next(pieces.len() as u64) as usize]).collect::<String>().into(),
                ),
                5 => Value::Array((0..next(4)).map(|_| build(next, depth + 1)).collect()),
                _ => Value::Object((0..next(4)).map(|i| (format!("k{i}\"").into(), build(next, depth + 1))).collect()),
            }
        }
        (0..count).map(|_| build(&mut next, 0)).collect()
    }

    #[test]
    fn pretty_json_is_what_json_stringify_with_two_spaces_and_serde_json_write() {
        // serde_json's layout, of the value as JSON.stringify sees it (`-0` is `0`).
        for value in values(0x9E37_79B9_7F4A_7C15, 5_000) {
            let json = value.clone().into_json().unwrap_or(Value::Null);
            assert_eq!(
                stringify_pretty(&value, Decimals::RUST),
                serde_json::to_string_pretty(&json).unwrap(),
                "{value:?}"
            );
        }
        let value = crate::json::parse(br#"{"a":[1,2.5,{"b":[],"c":{}}],"d":-1e-7,"e":"x"}"#, Decimals::RUST).unwrap();
        let expected = "{\n  \"a\": [\n    1,\n    2.5,\n    {\n      \"b\": [],\n      \"c\": {}\n    }\n  ],\n  \"d\": -1e-7,\n  \"e\": \"x\"\n}";
        assert_eq!(stringify_pretty(&value, Decimals::RUST), expected);
    }

    #[test]
    fn writes_values_byte_for_byte_as_serde_json_does() {
        for value in values(0x2545_F491_4F6C_DD1D, 20_000) {
            let mut ours = Vec::new();
            write_value(&mut ours, &value, Decimals::RUST);
            assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&value).unwrap(), "{value:?}");
        }
    }

    #[test]
    fn undefined_is_dropped_and_numbers_json_cannot_carry_are_null() {
        let value = Value::Object(vec![
            ("u".into(), Value::Undefined),
            ("a".into(), Value::Array(vec![Value::Undefined, Value::Number(f64::NAN)])),
        ]);
        assert_eq!(stringify(&value, Decimals::RUST), r#"{"a":[null,null]}"#);
        assert_eq!(stringify(&Value::Number(f64::INFINITY), Decimals::RUST), "null");
    }
}
