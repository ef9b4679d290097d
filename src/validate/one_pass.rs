//! One-pass validation of JSON text, for the common case: the text is valid.
//!
//! A model's tool call is usually valid. Reading it once, checking each value against
//! its schema as it goes and borrowing strings from the text, is several times faster
//! than building a tree and walking it. This path only says yes: at the first thing
//! that is not plainly valid (a type mismatch, a limit crossed, a repeated key, a lone
//! surrogate, text that is not JSON) it gives up, and the caller takes the full path
//! (`json::parse` then `schema::validate`), which reports zod's issues in zod's order.
//! So the answer never depends on which path ran; the differential test holds both to
//! zod.

use std::borrow::Cow;

use crate::json::value::Value;
use crate::json::{Decoded, Parser};
use crate::validate::schema::Schema;

/// The validated value of `text`, or `None` when the full path must decide.
pub fn validate<'x>(schema: &'x Schema, text: &'x [u8]) -> Option<Value<'x>> {
    let mut reader = Parser::new(text);
    let value = read(&mut reader, schema)?;
    reader.skip_whitespace();
    reader.at_end().then_some(value)
}

fn read<'x>(p: &mut Parser<'x>, schema: &'x Schema) -> Option<Value<'x>> {
    p.skip_whitespace();
    match schema {
        Schema::Object { properties, strict } => {
            p.eat(b'{').then_some(())?;
            // Members as read, tagged with their property's index; `seen` flags each one.
            let mut members: Vec<(usize, Value<'x>)> = Vec::with_capacity(properties.len());
            let mut seen = 0u64;
            p.skip_whitespace();
            if !p.eat(b'}') {
                loop {
                    p.skip_whitespace();
                    let key = p.member_key().ok()?;
                    match properties.iter().position(|property| property.key == key) {
                        // A repeated key: the last one wins, and the full path knows how.
                        Some(i) if i >= 64 || seen & (1 << i) != 0 => return None,
                        Some(i) => {
                            seen |= 1 << i;
                            members.push((i, read(p, &properties[i].schema)?));
                        }
                        None if *strict => return None,
                        None => p.skip_value().ok()?,
                    }
                    p.skip_whitespace();
                    if p.eat(b'}') {
                        break;
                    }
                    p.eat(b',').then_some(())?;
                }
            }
            let missing = properties.iter().enumerate().any(|(i, property)| property.required && seen & (1 << i) == 0);
            if missing {
                return None;
            }
            // zod builds its output in schema order.
            members.sort_by_key(|(i, _)| *i);
            let members = members.into_iter().map(|(i, value)| (Cow::Borrowed(properties[i].key.as_str()), value));
            Some(Value::Object(members.collect()))
        }
        Schema::Array { items, min_items, max_items } => {
            p.eat(b'[').then_some(())?;
            let mut values = Vec::new();
            p.skip_whitespace();
            if !p.eat(b']') {
                loop {
                    values.push(read(p, items)?);
                    p.skip_whitespace();
                    if p.eat(b']') {
                        break;
                    }
                    p.eat(b',').then_some(())?;
                }
            }
            within(values.len() as f64, *min_items, *max_items).then_some(Value::Array(values))
        }
        Schema::String { min_length, max_length } => {
            let text = string(p)?;
            within(text.chars().count() as f64, *min_length, *max_length).then_some(Value::String(text))
        }
        Schema::Enum(values) => {
            let text = string(p)?;
            values.iter().any(|v| *v == text).then_some(Value::String(text))
        }
        Schema::Number { integer, minimum, maximum } => {
            matches!(p.peek(), Some(b'-' | b'0'..=b'9')).then_some(())?;
            let n = p.number().ok()?;
            let fits = n.is_finite() && (!integer || n.fract() == 0.0) && within(n, *minimum, *maximum);
            fits.then_some(Value::Number(n))
        }
        Schema::Boolean => match p.peek() {
            Some(b't') => p.literal("true").ok().map(|_| Value::Bool(true)),
            Some(b'f') => p.literal("false").ok().map(|_| Value::Bool(false)),
            _ => None,
        },
        Schema::Null => p.literal("null").ok().map(|_| Value::Null),
        Schema::Nullable(inner) => match p.peek() {
            Some(b'n') => p.literal("null").ok().map(|_| Value::Null),
            _ => read(p, inner),
        },
        Schema::Record(_) | Schema::AnyOf(_) | Schema::Any => None,
    }
}

/// A well-formed string value, borrowed when it had no escapes.
#[inline(always)]
fn string<'x>(p: &mut Parser<'x>) -> Option<Cow<'x, str>> {
    p.eat(b'"').then_some(())?;
    match p.string_body().ok()? {
        Decoded::Utf8(s) => Some(Cow::Borrowed(s)),
        Decoded::Units(units) => String::from_utf16(&units).ok().map(Cow::Owned),
    }
}

#[inline(always)]
fn within(n: f64, min: Option<f64>, max: Option<f64>) -> bool {
    min.is_none_or(|min| n >= min) && max.is_none_or(|max| n <= max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::todos::WRITE_TODOS_SCHEMA;
    use crate::validate::schema;

    fn fast(text: &str) -> Option<Value<'_>> {
        validate(schema::compiled(WRITE_TODOS_SCHEMA).unwrap(), text.as_bytes())
    }

    #[test]
    fn valid_text_passes_in_schema_order_with_unknown_keys_dropped() {
        let value = fast(
            r#" {"note":"n","x":{"deep":[1,{"a":null}]},"todos":[{"status":"pending","id":"a","content":"b\u00e9"}]} "#,
        );
        let expected = Value::Object(vec![
            (
                "todos".into(),
                Value::Array(vec![Value::Object(vec![
                    ("id".into(), Value::String("a".into())),
                    ("content".into(), Value::String("bé".into())),
                    ("status".into(), Value::String("pending".into())),
                ])]),
            ),
            ("note".into(), Value::String("n".into())),
        ]);
        assert_eq!(value, Some(expected));
    }

    #[test]
    fn anything_doubtful_goes_to_the_full_path() {
        for text in [
            r#"{"todos":[]}"#,
            r#"{"todos":[{"id":"","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"done"}]}"#,
            r#"{"todos":[{"id":"a","content":"b"}]}"#,
            r#"{"todos":5,"todos":[{"id":"a","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"\ud800","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"focus":null}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}]} x"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":[1,]}"#,
            r#"[]"#,
        ] {
            assert_eq!(fast(text), None, "{text}");
        }
    }
}
