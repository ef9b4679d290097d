//! JSON strings: a string's body read (plain runs copied whole, escapes decoded into
//! UTF-8, or into UTF-16 units where surrogates must be paired), a string literal
//! written, and the literal `JSON.stringify` makes of a JS string turned into WTF-8.

use std::borrow::Cow;

use super::{JsonError, Parser};

/// Decodes the JSON string literal that `JSON.stringify(text)` makes of a JS string into
/// WTF-8: the same code units, lone surrogates included, ready for [`parse`](super::parse).
pub fn escaped_text_to_wtf8(literal: &[u8]) -> Result<Vec<u8>, JsonError> {
    let mut parser = Parser::new(literal);
    parser.expect(b'"', "a string")?;
    let units = match parser.string_body()? {
        Decoded::Utf8(s) => return Ok(s.as_bytes().to_vec()),
        Decoded::Escaped(s) => return Ok(s.into_bytes()),
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

/// Appends `s` to `out` as a JSON string literal, escaped as `JSON.stringify` and
/// serde_json escape it: `"`, `\\` and control characters only (a snapshot's checksum
/// covers this text, so it must never change).
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut rest = s.as_bytes();
    loop {
        // Runs with nothing to escape are copied whole.
        let run = plain_run(rest);
        out.extend_from_slice(&rest[..run]);
        let Some(&b) = rest.get(run) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xF)]]),
        }
        rest = &rest[run + 1..];
    }
    out.push(b'"');
}

/// The length of the run of bytes that need no attention inside a string: up to the
/// first `"`, `\\` or control byte. Eight bytes at a time (SWAR), since string content is
/// most of a tool call.
#[inline(always)]
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_byte_below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH != 0;
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        if has_byte_below(quote, 1) || has_byte_below(backslash, 1) || has_byte_below(word, 0x20) {
            break;
        }
        i += 8;
    }
    i + bytes[i..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(bytes.len() - i)
}

fn wtf8_surrogate(unit: u16) -> [u8; 3] {
    [0xE0 | (unit >> 12) as u8, 0x80 | ((unit >> 6) & 0x3F) as u8, 0x80 | (unit & 0x3F) as u8]
}

/// A string as read: borrowed when it had no escapes, decoded into UTF-8 when its escapes
/// held no surrogate, else its UTF-16 code units (which alone can say whether each
/// surrogate has its pair).
pub(crate) enum Decoded<'a> {
    Utf8(&'a str),
    Escaped(String),
    Units(Vec<u16>),
}

impl<'a> Decoded<'a> {
    /// The text, a lone surrogate as U+FFFD (for keys and tags, which need no more).
    pub(crate) fn into_lossy(self) -> Cow<'a, str> {
        match self {
            Decoded::Utf8(s) => Cow::Borrowed(s),
            Decoded::Escaped(s) => Cow::Owned(s),
            Decoded::Units(units) => Cow::Owned(String::from_utf16_lossy(&units)),
        }
    }
}

impl<'a> Parser<'a> {
    /// Reads a string body after its opening quote, through the closing quote.
    pub(crate) fn string_body(&mut self) -> Result<Decoded<'a>, JsonError> {
        let start = self.pos;
        let end = start + plain_run(&self.text[start..]);
        if self.text.get(end) == Some(&b'"') {
            // `start` and `end` sit next to ASCII quotes, so they are char boundaries.
            let plain = match self.utf8 {
                Some(text) => text.get(start..end),
                None => std::str::from_utf8(&self.text[start..end]).ok(),
            };
            if let Some(s) = plain {
                self.pos = end + 1;
                return Ok(Decoded::Utf8(s));
            }
        }
        if let Some(text) = self.escaped_body()? {
            return Ok(Decoded::Escaped(text));
        }
        self.pos = start;
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
                    units.push(self.escape()?);
                }
                Some(b) if b < 0x20 => return Err(self.unexpected("an escaped control character")),
                Some(_) => self.code_point(&mut units)?,
            }
        }
    }

    /// A string body with escapes, decoded straight into UTF-8, plain runs copied whole
    /// (decoding through UTF-16 units one character at a time was most of the cost of
    /// reading long texts). `None` at the first surrogate or bytes that are not UTF-8:
    /// the caller reads the string again as units, which pair or report them.
    fn escaped_body(&mut self) -> Result<Option<String>, JsonError> {
        let mut text = String::new();
        loop {
            let start = self.pos;
            let end = start + plain_run(&self.text[start..]);
            // (`start` and `end` sit next to ASCII bytes, so they are char boundaries.)
            let run = match self.utf8 {
                Some(utf8) => utf8.get(start..end),
                None => std::str::from_utf8(&self.text[start..end]).ok(),
            };
            match run {
                Some(run) => text.push_str(run),
                None => return Ok(None),
            }
            self.pos = end;
            match self.peek() {
                None => return Err(self.unexpected("'\"' to close the string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Some(text));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match char::from_u32(u32::from(self.escape()?)) {
                        Some(c) => text.push(c),
                        None => return Ok(None),
                    }
                }
                Some(_) => return Err(self.unexpected("an escaped control character")),
            }
        }
    }

    /// The code unit an escape stands for, after its backslash.
    fn escape(&mut self) -> Result<u16, JsonError> {
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
                        return Ok(unit);
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
        Ok(unit)
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::decimals::Decimals;
    use crate::json::value::Value;
    use crate::json::{parse, parse_host};

    fn ok(text: &str) -> Value<'_> {
        parse(text.as_bytes(), Decimals::RUST).unwrap().into_shallow()
    }

    #[test]
    fn plain_runs_stop_at_quotes_backslashes_and_control_bytes() {
        for (text, run) in [
            ("", 0),
            ("abc", 3),
            ("abcdefghijklmnop\"", 16),
            ("abcdefgh\\", 8),
            ("abcdefghij\u{1}", 10),
            ("éééééééé\"", 16),
            ("a\"", 1),
            ("\u{7f}\u{80}ÿ\"", 5),
        ] {
            assert_eq!(plain_run(text.as_bytes()), run, "{text:?}");
        }
    }

    #[test]
    fn escaped_strings_decode_as_json_parse_does_whichever_way_they_are_read() {
        for (json, expected) in [
            (r#""a\nb\t\"q\" \\ \/ \u00e9 é \ud83d\ude00 😀""#, Value::String("a\nb\t\"q\" \\ / é é 😀 😀".into())),
            (r#""\u0041\u00""#, Value::Undefined),
            (r#""x\ud800y""#, Value::IllFormedString("x\u{fffd}y".into())),
            (r#""\udc00""#, Value::IllFormedString("\u{fffd}".into())),
            ("\"a\\n\u{1}\"", Value::Undefined),
            (r#""a\n"#, Value::Undefined),
        ] {
            match parse(json.as_bytes(), Decimals::RUST) {
                Ok(document) => assert_eq!(*document, expected, "{json}"),
                Err(_) => assert_eq!(expected, Value::Undefined, "{json} is refused"),
            }
        }
        // Raw WTF-8 surrogate halves next to escapes still pair up.
        let wtf8 = [b"\"\\n".as_slice(), &[0xED, 0xA0, 0xBD], b"\\ude00\"".as_slice()].concat();
        assert_eq!(*parse_host(&wtf8, Decimals::RUST).unwrap(), Value::String("\n😀".into()));
    }

    #[test]
    fn lone_surrogate_escapes_make_ill_formed_strings() {
        assert_eq!(ok(r#""a\ud800b""#), Value::IllFormedString("a\u{fffd}b".into()));
        assert_eq!(ok(r#""\udc00\ud83d\ude00""#), Value::IllFormedString("\u{fffd}😀".into()));
    }

    #[test]
    fn escaped_text_round_trips_lone_surrogates_as_wtf8() {
        // JSON.stringify("\"\ud800\"") == "\"\\\"\\ud800\\\"\""
        let wtf8 = escaped_text_to_wtf8(br#""\"\ud800\"""#).unwrap();
        assert_eq!(wtf8, b"\"\xED\xA0\x80\"");
        assert_eq!(*parse(&wtf8, Decimals::RUST).unwrap(), Value::IllFormedString("\u{fffd}".into()));
        // A lone surrogate outside a string is a syntax error, as in JSON.parse.
        let outside = escaped_text_to_wtf8(br#""[\ud800]""#).unwrap();
        assert_eq!(
            parse(&outside, Decimals::RUST).unwrap_err().message,
            "Expected a JSON value but found a lone surrogate at position 1"
        );
    }

    #[test]
    fn a_literal_high_surrogate_escape_pairs_with_a_literal_low_surrogate() {
        // The JS string `"\ud83d` + U+DE00 + `"` is one well-formed emoji to JSON.parse.
        let mut text = br#""\ud83d"#.to_vec();
        text.extend_from_slice(&wtf8_surrogate(0xDE00));
        text.push(b'"');
        assert_eq!(*parse(&text, Decimals::RUST).unwrap(), Value::String("😀".into()));
    }

    #[test]
    fn writes_string_literals_that_parse_back() {
        let mut out = Vec::new();
        write_string(&mut out, "a\"b\\c\nd\u{1}é\u{8}\u{c}");
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out, r#""a\"b\\c\nd\u0001é\b\f""#);
        assert_eq!(ok(&out), Value::String("a\"b\\c\nd\u{1}é\u{8}\u{c}".into()));
    }
}
