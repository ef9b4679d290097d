//! JSON text in and out, with `JSON.parse` semantics.
//!
//! Tool-call arguments arrive as JSON text written by a model. planloop must accept and
//! reject exactly what `JSON.parse` does, so that `validateWriteTodos(text)` answers like
//! `schema.safeParse(JSON.parse(text))`: any nesting depth (the parser keeps its own stack
//! instead of recursing), numbers that overflow to `Infinity`, repeated keys (the last
//! wins) and lone surrogates in `\u` escapes (kept as [`Value::IllFormedString`]).
//!
//! The input is UTF-8, or WTF-8 when the host's text held lone surrogates (see
//! [`escaped_text_to_wtf8`]).

pub mod decimals;
pub mod float;
pub mod from_value;
mod host;
pub(crate) mod number;
mod skip;
mod string;
pub mod value;
pub mod write;

pub use host::parse_host;
pub(crate) use host::Tagged;
pub use skip::syntax_error;
pub(crate) use string::Decoded;
pub use string::{escaped_text_to_wtf8, write_string};

use std::borrow::Cow;

use crate::error::issue::Issue;
use crate::json::decimals::Decimals;
use crate::json::value::{dismantle, Document, Host, Members, Value};
use crate::text;

/// Why a text is not JSON, and where (in UTF-16 code units, as JS counts).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    pub message: String,
    pub position: usize,
}

impl JsonError {
    /// The `invalid_json` issue a call whose arguments are not JSON gets.
    pub fn issue(&self) -> Issue {
        Issue::invalid_json(&self.message, self.position)
    }
}

/// Parses a complete JSON text, reading decimal numbers with `decimals`.
pub fn parse(text: &[u8], decimals: Decimals) -> Result<Document<'_>, JsonError> {
    Parser::new(text).document(decimals)
}

// What the parser expected where it stopped: [`Parser::document`] and
// [`Parser::skip_value`] say the same, so that [`syntax_error`] is [`parse`]'s error.
const AFTER_DOCUMENT: &str = "the end of the input after the JSON value";
const AFTER_ITEM: &str = "',' or ']' after an array element";
const AFTER_MEMBER: &str = "',' or '}' after a property value";

/// A container still open while the parser reads its members.
enum Open<'a> {
    Array(Vec<Value<'a>>),
    Object(Box<OpenObject<'a>>),
}

/// An object being read: its members so far and the key whose value comes next.
struct OpenObject<'a> {
    own: Members<'a>,
    inherited: Members<'a>,
    key: Cow<'a, str>,
    key_inherited: bool,
    /// A host object's type name and `isPlainObject`, when it has a tag.
    tag: Option<(Cow<'a, str>, bool)>,
}

impl<'a> OpenObject<'a> {
    fn close(&mut self) -> Value<'a> {
        let (own, inherited) = (std::mem::take(&mut self.own), std::mem::take(&mut self.inherited));
        match self.tag.take() {
            None if inherited.is_empty() => Value::Object(own),
            tag => {
                let (type_name, plain) = tag.unwrap_or((Cow::Borrowed("object"), true));
                Value::Host(Box::new(Host::Object { type_name, plain, own, inherited }))
            }
        }
    }
}

/// The open containers; on an error their contents, however deep, are dropped
/// without recursion.
struct OpenStack<'a>(Vec<Open<'a>>);

impl Drop for OpenStack<'_> {
    fn drop(&mut self) {
        let mut values = Vec::new();
        for open in self.0.drain(..) {
            match open {
                Open::Array(mut items) => values.append(&mut items),
                Open::Object(object) => {
                    let OpenObject { own, inherited, .. } = *object;
                    values.extend(own.into_iter().chain(inherited).map(|(_, v)| v));
                }
            }
        }
        dismantle(values);
    }
}

/// A cursor over JSON text, shared by the tree parser here and the one-pass validator.
/// What reads values (or reads past them) takes the decimals their numbers are read
/// with; what reads strings alone needs none.
pub(crate) struct Parser<'a> {
    text: &'a [u8],
    /// The same text when it is UTF-8 (not WTF-8): strings are then sliced out of it
    /// without checking each one again.
    utf8: Option<&'a str>,
    pos: usize,
    /// Reading the JS layer's encoding of host values (see [`parse_host`]).
    host: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Self {
        Parser { text, utf8: std::str::from_utf8(text).ok(), pos: 0, host: false }
    }

    /// A parser that checks UTF-8 string by string, for a reader that slices few strings
    /// out of the text and checks those itself.
    pub(crate) fn unchecked(text: &'a [u8]) -> Self {
        Parser { text, utf8: None, pos: 0, host: false }
    }

    /// This parser reading the JS layer's encoding of host values when `host`.
    pub(crate) fn reading_host(self, host: bool) -> Self {
        Parser { host, ..self }
    }

    /// Where the parser is, in bytes.
    #[inline(always)]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Moves the parser to `position` (bytes), which a caller found by reading ahead.
    #[inline(always)]
    pub(crate) fn set_position(&mut self, position: usize) {
        self.pos = position;
    }

    /// The whole text being read.
    #[inline(always)]
    pub(crate) fn text(&self) -> &'a [u8] {
        self.text
    }

    #[inline(always)]
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// A complete JSON text: one value, then nothing but whitespace.
    fn document(&mut self, decimals: Decimals) -> Result<Document<'a>, JsonError> {
        let document = Document::new(self.value(decimals)?);
        self.skip_whitespace();
        if self.pos < self.text.len() {
            return Err(self.unexpected(AFTER_DOCUMENT));
        }
        Ok(document)
    }

    /// The value here, built; the parser stops right after it.
    pub(crate) fn value(&mut self, decimals: Decimals) -> Result<Value<'a>, JsonError> {
        let mut stack = OpenStack(Vec::new());
        let open = &mut stack.0;
        'value: loop {
            self.skip_whitespace();
            let mut value = match self.peek() {
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.eat(b']') {
                        Value::Array(Vec::new())
                    } else {
                        open.push(Open::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    match self.open_object(None)? {
                        Some(object) => {
                            open.push(Open::Object(object));
                            continue 'value;
                        }
                        None => Value::Object(Vec::new()),
                    }
                }
                Some(b'<') if self.host => match self.tag(decimals)? {
                    Tagged::Value(value) => value,
                    Tagged::Object(type_name, plain) => {
                        self.expect(b'{', "'{' after an object tag")?;
                        let tag = Some((type_name, plain));
                        match self.open_object(tag.clone())? {
                            Some(object) => {
                                open.push(Open::Object(object));
                                continue 'value;
                            }
                            None => OpenObject {
                                own: Vec::new(),
                                inherited: Vec::new(),
                                key: Cow::Borrowed(""),
                                key_inherited: false,
                                tag,
                            }
                            .close(),
                        }
                    }
                },
                Some(b'"') => {
                    self.pos += 1;
                    self.string_value()?
                }
                _ => self.scalar(decimals)?,
            };
            loop {
                match open.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array(items)) => {
                        items.push(value);
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                value = Value::Array(std::mem::take(items));
                                open.pop();
                            }
                            _ => return Err(self.unexpected(AFTER_ITEM)),
                        }
                    }
                    Some(Open::Object(object)) => {
                        let key = std::mem::take(&mut object.key);
                        match object.key_inherited {
                            true => object.inherited.push((key, value)),
                            false => object.own.push((key, value)),
                        }
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_whitespace();
                                (object.key, object.key_inherited) = self.any_member_key()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                value = object.close();
                                open.pop();
                            }
                            _ => return Err(self.unexpected(AFTER_MEMBER)),
                        }
                    }
                }
            }
        }
    }

    /// The scalar here: a literal, a number, or (reading host values) `undefined`, `NaN`,
    /// `Infinity` or `-Infinity`. Anything else is not a JSON value.
    pub(crate) fn scalar(&mut self, decimals: Decimals) -> Result<Value<'static>, JsonError> {
        let (word, value) = match (self.peek(), self.text.get(self.pos + 1)) {
            (Some(b'u'), _) if self.host => ("undefined", Value::Undefined),
            (Some(b'N'), _) if self.host => ("NaN", Value::Number(f64::NAN)),
            (Some(b'I'), _) if self.host => ("Infinity", Value::Number(f64::INFINITY)),
            (Some(b'-'), Some(b'I')) if self.host => {
                self.pos += 1;
                ("Infinity", Value::Number(f64::NEG_INFINITY))
            }
            (Some(b't'), _) => ("true", Value::Bool(true)),
            (Some(b'f'), _) => ("false", Value::Bool(false)),
            (Some(b'n'), _) => ("null", Value::Null),
            (Some(b'-' | b'0'..=b'9'), _) => return self.number(decimals).map(Value::Number),
            _ => return Err(self.unexpected("a JSON value")),
        };
        self.literal(word).map(|()| value)
    }

    /// After an object's `{`: `None` for an empty object, else the object open at its
    /// first member's value.
    fn open_object(&mut self, tag: Option<(Cow<'a, str>, bool)>) -> Result<Option<Box<OpenObject<'a>>>, JsonError> {
        self.skip_whitespace();
        if self.eat(b'}') {
            return Ok(None);
        }
        let (key, key_inherited) = self.any_member_key()?;
        Ok(Some(Box::new(OpenObject { own: Vec::new(), inherited: Vec::new(), key, key_inherited, tag })))
    }

    /// `"key" :` — leaves the parser at the member's value.
    pub(crate) fn member_key(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if !self.eat(b'"') {
            return Err(self.unexpected("a double-quoted property name"));
        }
        let key = self.string_body()?.into_lossy();
        self.skip_whitespace();
        self.expect(b':', "':' after a property name")?;
        Ok(key)
    }

    fn string_value(&mut self) -> Result<Value<'a>, JsonError> {
        Ok(match self.string_body()? {
            Decoded::Utf8(s) => Value::String(Cow::Borrowed(s)),
            Decoded::Escaped(s) => Value::String(Cow::Owned(s)),
            Decoded::Units(units) => match String::from_utf16(&units) {
                Ok(s) => Value::String(Cow::Owned(s)),
                Err(_) => Value::IllFormedString(Cow::Owned(String::from_utf16_lossy(&units))),
            },
        })
    }

    pub(crate) fn number(&mut self, decimals: Decimals) -> Result<f64, JsonError> {
        let start = self.pos;
        self.eat(b'-');
        if !self.eat(b'0') && self.digits() == 0 {
            return Err(self.unexpected("a digit"));
        }
        if self.eat(b'.') && self.digits() == 0 {
            return Err(self.unexpected("a digit after the decimal point"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return Err(self.unexpected("a digit in the exponent"));
            }
        }
        let literal = &self.text[start..self.pos];
        if let Some(n) = number::small_integer(literal) {
            return Ok(n);
        }
        // The literal is ASCII: the grammar above let nothing else through.
        Ok(std::str::from_utf8(literal).map_or(f64::NAN, |literal| decimals.read(literal)))
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    pub(crate) fn literal(&mut self, word: &str) -> Result<(), JsonError> {
        for &b in word.as_bytes() {
            if !self.eat(b) {
                return Err(self.unexpected(&format!("'{word}'")));
            }
        }
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    #[inline(always)]
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), JsonError> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn unexpected(&self, expected: &str) -> JsonError {
        let position = utf16_len(&self.text[..self.pos.min(self.text.len())]);
        let found = match self.text.get(self.pos..) {
            None | Some([]) => return end_of_input(expected, position),
            Some(rest) => describe_char(rest),
        };
        JsonError { message: format!("Expected {expected} but found {found} at position {position}"), position }
    }
}

fn end_of_input(expected: &str, position: usize) -> JsonError {
    JsonError { message: format!("Unexpected end of JSON input: expected {expected}"), position }
}

fn describe_char(rest: &[u8]) -> String {
    let len = match rest[0] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    match std::str::from_utf8(&rest[..len.min(rest.len())]).ok().and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() || c.is_whitespace() => format!("U+{}", text::hex(c.into(), 4, b"0123456789ABCDEF")),
        // (Pushed: `format!("'{c}'")` kept `char`'s `Display` in the module.)
        Some(c) => {
            let mut quoted = String::from("'");
            quoted.push(c);
            quoted.push('\'');
            quoted
        }
        None => "a lone surrogate".to_owned(),
    }
}

/// The UTF-16 length of UTF-8 or WTF-8 text.
fn utf16_len(text: &[u8]) -> usize {
    text.iter()
        .map(|&b| match b {
            0x80..=0xBF => 0,
            0xF0..=0xFF => 2,
            _ => 1,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Value<'_> {
        parse(text.as_bytes(), Decimals::RUST).unwrap_or_else(|e| panic!("{text}: {}", e.message)).into_shallow()
    }

    fn err(text: &str) -> JsonError {
        parse(text.as_bytes(), Decimals::RUST).expect_err(text)
    }

    #[test]
    fn parses_every_json_type() {
        assert_eq!(
            ok(r#" {"a": [1, -2.5e3, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}} "#),
            Value::Object(vec![
                (
                    "a".into(),
                    Value::Array(vec![
                        Value::Number(1.0),
                        Value::Number(-2500.0),
                        Value::Bool(true),
                        Value::Bool(false),
                        Value::Null,
                        Value::String("x\né😀".into()),
                    ])
                ),
                ("b".into(), Value::Object(vec![])),
            ])
        );
    }

    #[test]
    fn numbers_overflow_to_infinity_like_json_parse() {
        assert_eq!(ok("1e999"), Value::Number(f64::INFINITY));
        assert_eq!(ok("-1e999"), Value::Number(f64::NEG_INFINITY));
        assert_eq!(ok("-0"), Value::Number(-0.0));
    }

    #[test]
    fn rejects_what_json_parse_rejects() {
        for bad in [
            "",
            " ",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "+1",
            "1e",
            "tru",
            "nul",
            "'a'",
            "{a:1}",
            "[1 2]",
            "\"\t\"",
            "\"\\x\"",
            "\"\\u12\"",
            "NaN",
            "Infinity",
            "[",
            "{\"a\"",
            "1 2",
            "\u{a0}1",
            "//c\n1",
        ] {
            assert!(parse(bad.as_bytes(), Decimals::RUST).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn errors_say_what_was_expected_and_where_in_utf16_units() {
        let e = err("{\"é😀\": 1 x");
        assert_eq!(e.position, 10);
        assert_eq!(e.message, "Expected ',' or '}' after a property value but found 'x' at position 10");
        assert_eq!(err("[1,").message, "Unexpected end of JSON input: expected a JSON value");
    }

    #[test]
    fn nesting_depth_is_unlimited_and_costs_no_stack() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(matches!(*parse(deep.as_bytes(), Decimals::RUST).unwrap(), Value::Array(_)));
        let deep_error = "[".repeat(50_000) + "1" + &"]".repeat(49_999);
        assert!(err(&deep_error).message.starts_with("Unexpected end of JSON input"));
        let unclosed = "{\"a\":".repeat(50_000);
        assert!(err(&unclosed).message.starts_with("Unexpected end of JSON input"));
    }

    #[test]
    fn repeated_keys_are_all_kept_and_the_last_wins_on_lookup() {
        let v = ok(r#"{"a":1,"a":2}"#);
        assert_eq!(v.get("a"), Some(&Value::Number(2.0)));
    }
}
