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

use crate::value::Value;

/// Why a text is not JSON, and where (in UTF-16 code units, as JS counts).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    pub message: String,
    pub position: usize,
}

/// Parses a complete JSON text.
pub fn parse(text: &[u8]) -> Result<Value, JsonError> {
    Parser { text, pos: 0 }.document()
}

/// Decodes the JSON string literal that `JSON.stringify(text)` makes of a JS string into
/// WTF-8: the same code units, lone surrogates included, ready for [`parse`].
pub fn escaped_text_to_wtf8(literal: &[u8]) -> Result<Vec<u8>, JsonError> {
    let mut parser = Parser { text: literal, pos: 0 };
    parser.expect(b'"', "a string")?;
    let units = match parser.string_body()? {
        Decoded::Utf8(s) => return Ok(s.as_bytes().to_vec()),
        Decoded::Units(units) => units,
    };
    let mut out = Vec::with_capacity(units.len() * 3);
    for unit in char::decode_utf16(units.iter().copied()) {
        match unit {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(lone) => out.extend_from_slice(&wtf8_surrogate(lone.unpaired_surrogate())),
        }
    }
    Ok(out)
}

/// Appends `s` to `out` as a JSON string literal.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn wtf8_surrogate(unit: u16) -> [u8; 3] {
    [0xE0 | (unit >> 12) as u8, 0x80 | ((unit >> 6) & 0x3F) as u8, 0x80 | (unit & 0x3F) as u8]
}

/// A container still open while the parser reads its members.
enum Open {
    Array(Vec<Value>),
    Object(Vec<(String, Value)>, String),
}

enum Decoded<'a> {
    Utf8(&'a str),
    Units(Vec<u16>),
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn document(&mut self) -> Result<Value, JsonError> {
        let mut open: Vec<Open> = Vec::new();
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
                    self.skip_whitespace();
                    if self.eat(b'}') {
                        Value::Object(Vec::new())
                    } else {
                        let key = self.member_key()?;
                        open.push(Open::Object(Vec::new(), key));
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.string_value()?
                }
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.unexpected("a JSON value")),
            };
            loop {
                match open.last_mut() {
                    None => {
                        self.skip_whitespace();
                        if self.pos < self.text.len() {
                            return Err(self.unexpected("the end of the input after the JSON value"));
                        }
                        return Ok(value);
                    }
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
                            _ => return Err(self.unexpected("',' or ']' after an array element")),
                        }
                    }
                    Some(Open::Object(members, key)) => {
                        members.push((std::mem::take(key), value));
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_whitespace();
                                *key = self.member_key()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                value = Value::Object(std::mem::take(members));
                                open.pop();
                            }
                            _ => return Err(self.unexpected("',' or '}' after a property value")),
                        }
                    }
                }
            }
        }
    }

    /// `"key" :` — leaves the parser at the member's value.
    fn member_key(&mut self) -> Result<String, JsonError> {
        if !self.eat(b'"') {
            return Err(self.unexpected("a double-quoted property name"));
        }
        let key = match self.string_body()? {
            Decoded::Utf8(s) => s.to_owned(),
            Decoded::Units(units) => String::from_utf16_lossy(&units),
        };
        self.skip_whitespace();
        self.expect(b':', "':' after a property name")?;
        Ok(key)
    }

    fn string_value(&mut self) -> Result<Value, JsonError> {
        Ok(match self.string_body()? {
            Decoded::Utf8(s) => Value::String(s.to_owned()),
            Decoded::Units(units) => match String::from_utf16(&units) {
                Ok(s) => Value::String(s),
                Err(_) => Value::IllFormedString(String::from_utf16_lossy(&units)),
            },
        })
    }

    /// Reads a string body after its opening quote, through the closing quote.
    fn string_body(&mut self) -> Result<Decoded<'a>, JsonError> {
        let start = self.pos;
        let plain_end = self.text[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|i| start + i);
        if let Some(end) = plain_end {
            if self.text[end] == b'"' {
                if let Ok(s) = std::str::from_utf8(&self.text[start..end]) {
                    self.pos = end + 1;
                    return Ok(Decoded::Utf8(s));
                }
            }
        }
        let mut units = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.unexpected("'\"' to close the string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Decoded::Units(units));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut units)?;
                }
                Some(b) if b < 0x20 => return Err(self.unexpected("an escaped control character")),
                Some(_) => self.code_point(&mut units)?,
            }
        }
    }

    fn escape(&mut self, units: &mut Vec<u16>) -> Result<(), JsonError> {
        let unit = match self.peek() {
            Some(b'"') => b'"' as u16,
            Some(b'\\') => b'\\' as u16,
            Some(b'/') => b'/' as u16,
            Some(b'b') => 0x08,
            Some(b'f') => 0x0C,
            Some(b'n') => b'\n' as u16,
            Some(b'r') => b'\r' as u16,
            Some(b't') => b'\t' as u16,
            Some(b'u') => {
                let hex = self.text.get(self.pos + 1..self.pos + 5);
                let unit = hex
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u16::from_str_radix(h, 16).ok());
                match unit {
                    Some(unit) => {
                        self.pos += 5;
                        units.push(unit);
                        return Ok(());
                    }
                    None => {
                        self.pos += 1;
                        return Err(self.unexpected("four hexadecimal digits after '\\u'"));
                    }
                }
            }
            _ => return Err(self.unexpected("a valid escape character after '\\'")),
        };
        self.pos += 1;
        units.push(unit);
        Ok(())
    }

    /// Decodes one UTF-8 (or WTF-8 surrogate) sequence into UTF-16 code units.
    fn code_point(&mut self, units: &mut Vec<u16>) -> Result<(), JsonError> {
        let lead = self.text[self.pos];
        let len = match lead {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 0,
        };
        let tail = self.text.get(self.pos + 1..self.pos + len.max(1));
        let valid = len > 0 && tail.is_some_and(|t| t.iter().all(|&b| b & 0xC0 == 0x80));
        if !valid {
            return Err(self.unexpected("valid UTF-8 text"));
        }
        let mut code = u32::from(lead) & if len == 1 { 0x7F } else { 0x7F >> len };
        for &b in &self.text[self.pos + 1..self.pos + len] {
            code = (code << 6) | u32::from(b & 0x3F);
        }
        self.pos += len;
        if code >= 0x10000 {
            let c = code - 0x10000;
            units.push(0xD800 | (c >> 10) as u16);
            units.push(0xDC00 | (c & 0x3FF) as u16);
        } else {
            units.push(code as u16);
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Value, JsonError> {
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
        let literal = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or("NaN");
        // Rust parses the JSON number grammar with correct rounding, and overflows to
        // infinity exactly as `JSON.parse` does.
        Ok(Value::Number(literal.parse().unwrap_or(f64::NAN)))
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        for &b in word.as_bytes() {
            if !self.eat(b) {
                return Err(self.unexpected(&format!("'{word}'")));
            }
        }
        Ok(value)
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
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
        Some(c) if c.is_control() || c.is_whitespace() => format!("U+{:04X}", c as u32),
        Some(c) => format!("'{c}'"),
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

    fn ok(text: &str) -> Value {
        parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {}", e.message))
    }

    fn err(text: &str) -> JsonError {
        parse(text.as_bytes()).expect_err(text)
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
            assert!(parse(bad.as_bytes()).is_err(), "accepted {bad:?}");
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
        assert!(matches!(ok(&deep), Value::Array(_)));
        let unclosed = "{\"a\":".repeat(50_000);
        assert!(err(&unclosed).message.starts_with("Unexpected end of JSON input"));
    }

    #[test]
    fn lone_surrogate_escapes_make_ill_formed_strings() {
        assert_eq!(ok(r#""a\ud800b""#), Value::IllFormedString("a\u{fffd}b".into()));
        assert_eq!(ok(r#""\udc00\ud83d\ude00""#), Value::IllFormedString("\u{fffd}😀".into()));
    }

    #[test]
    fn repeated_keys_are_all_kept_and_the_last_wins_on_lookup() {
        let v = ok(r#"{"a":1,"a":2}"#);
        assert_eq!(v.get("a"), Some(&Value::Number(2.0)));
    }

    #[test]
    fn escaped_text_round_trips_lone_surrogates_as_wtf8() {
        // JSON.stringify("\"\ud800\"") == "\"\\\"\\ud800\\\"\""
        let wtf8 = escaped_text_to_wtf8(br#""\"\ud800\"""#).unwrap();
        assert_eq!(wtf8, b"\"\xED\xA0\x80\"");
        assert_eq!(parse(&wtf8).unwrap(), Value::IllFormedString("\u{fffd}".into()));
        // A lone surrogate outside a string is a syntax error, as in JSON.parse.
        let outside = escaped_text_to_wtf8(br#""[\ud800]""#).unwrap();
        assert_eq!(
            parse(&outside).unwrap_err().message,
            "Expected a JSON value but found a lone surrogate at position 1"
        );
    }

    #[test]
    fn a_literal_high_surrogate_escape_pairs_with_a_literal_low_surrogate() {
        // The JS string `"\ud83d` + U+DE00 + `"` is one well-formed emoji to JSON.parse.
        let mut text = br#""\ud83d"#.to_vec();
        text.extend_from_slice(&wtf8_surrogate(0xDE00));
        text.push(b'"');
        assert_eq!(parse(&text).unwrap(), Value::String("😀".into()));
    }

    #[test]
    fn writes_string_literals_that_parse_back() {
        let mut out = String::new();
        write_string(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
        assert_eq!(ok(&out), Value::String("a\"b\\c\nd\u{1}é".into()));
    }
}
