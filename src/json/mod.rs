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

pub mod from_value;
pub(crate) mod number;
pub mod value;
pub mod write;

use std::borrow::Cow;

use crate::json::value::{dismantle, Document, Host, Members, Value};

/// Why a text is not JSON, and where (in UTF-16 code units, as JS counts).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    pub message: String,
    pub position: usize,
}

/// Parses a complete JSON text.
pub fn parse(text: &[u8]) -> Result<Document<'_>, JsonError> {
    Parser::new(text).document().map(Document::new)
}

/// Parses what the JS layer writes of JS values (`src/wasm/js/encode.ts`): JSON, plus
/// `undefined`, `NaN`, `Infinity` and `-Infinity`, plus tags for what JSON has no form
/// for (see [`Host`]): `<f N>` a function of length N, `<s>` a symbol, `<b N>` a bigint
/// whose `Number()` is N, `<x "text">` a value whose reading threw, `<c>` a value cut
/// off (too deep, or a cycle), `<a N>` an array of length N too long to list, `<m>` an
/// object with too many keys (or a value past the number of values read), and
/// `<o "Type",P>{…}` an object zod names `Type` whose `isPlainObject` is P (0 or 1);
/// inside an object, `^"key":` marks an inherited enumerable property.
pub fn parse_host(text: &[u8]) -> Result<Document<'_>, JsonError> {
    Parser { host: true, ..Parser::new(text) }.document().map(Document::new)
}

/// Decodes the JSON string literal that `JSON.stringify(text)` makes of a JS string into
/// WTF-8: the same code units, lone surrogates included, ready for [`parse`].
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

/// Appends `s` to `out` as a JSON string literal.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    loop {
        // Runs with nothing to escape are copied whole.
        let run = plain_run(rest.as_bytes());
        out.push_str(&rest[..run]);
        let Some(c) = rest[run..].chars().next() else { break };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{:04x}", c as u32)),
        }
        rest = &rest[run + 1..];
    }
    out.push('"');
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

/// What a tag stands for: a value, or the start of a tagged object.
enum Tagged<'a> {
    Value(Value<'a>),
    Object(Cow<'a, str>, bool),
}

/// The open containers; on an error their contents, however deep, are dropped
/// without recursion.
struct OpenStack<'a>(Vec<Open<'a>>);

impl Drop for OpenStack<'_> {
    fn drop(&mut self) {
        let values = self.0.drain(..).flat_map(|open| match open {
            Open::Array(items) => items,
            Open::Object(object) => {
                let OpenObject { own, inherited, .. } = *object;
                own.into_iter().chain(inherited).map(|(_, v)| v).collect()
            }
        });
        dismantle(values.collect());
    }
}

/// A string as read: borrowed when it had no escapes, decoded into UTF-8 when its escapes
/// held no surrogate, else its UTF-16 code units (which alone can say whether each
/// surrogate has its pair).
pub(crate) enum Decoded<'a> {
    Utf8(&'a str),
    Escaped(String),
    Units(Vec<u16>),
}

/// A cursor over JSON text, shared by the tree parser here and the one-pass validator.
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

    fn document(&mut self) -> Result<Value<'a>, JsonError> {
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
                Some(b'<') if self.host => match self.tag()? {
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
                Some(b'u') if self.host => self.literal("undefined").map(|_| Value::Undefined)?,
                Some(b'N') if self.host => self.literal("NaN").map(|_| Value::Number(f64::NAN))?,
                Some(b'I') if self.host => self.literal("Infinity").map(|_| Value::Number(f64::INFINITY))?,
                Some(b'-') if self.host && self.text.get(self.pos + 1) == Some(&b'I') => {
                    self.pos += 1;
                    self.literal("Infinity").map(|_| Value::Number(f64::NEG_INFINITY))?
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.string_value()?
                }
                Some(b't') => self.literal("true").map(|_| Value::Bool(true))?,
                Some(b'f') => self.literal("false").map(|_| Value::Bool(false))?,
                Some(b'n') => self.literal("null").map(|_| Value::Null)?,
                Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
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
                            _ => return Err(self.unexpected("',' or '}' after a property value")),
                        }
                    }
                }
            }
        }
    }

    /// Reads past one JSON value without building it, at any depth.
    pub(crate) fn skip_value(&mut self) -> Result<(), JsonError> {
        let mut open: Vec<u8> = Vec::new(); // the closing byte of each open container
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if !self.eat(b']') {
                        open.push(b']');
                        continue;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if !self.eat(b'}') {
                        self.member_key()?;
                        open.push(b'}');
                        continue;
                    }
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.string_body()?;
                }
                Some(b't') => self.literal("true")?,
                Some(b'f') => self.literal("false")?,
                Some(b'n') => self.literal("null")?,
                Some(b'-' | b'0'..=b'9') => drop(self.number()?),
                _ => return Err(self.unexpected("a JSON value")),
            }
            loop {
                let Some(&close) = open.last() else { return Ok(()) };
                self.skip_whitespace();
                if self.eat(b',') {
                    if close == b'}' {
                        self.skip_whitespace();
                        self.member_key()?;
                    }
                    break;
                }
                if !self.eat(close) {
                    return Err(self.unexpected("',' or the end of the container"));
                }
                open.pop();
            }
        }
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

    /// A member key, and whether it is marked inherited (`^"key":`, host values only).
    fn any_member_key(&mut self) -> Result<(Cow<'a, str>, bool), JsonError> {
        let inherited = self.host && self.eat(b'^');
        Ok((self.member_key()?, inherited))
    }

    /// A tag after its `<` (see [`parse_host`]).
    fn tag(&mut self) -> Result<Tagged<'a>, JsonError> {
        self.pos += 1;
        let kind = self.peek();
        self.pos += 1;
        let tagged = match kind {
            Some(b'f') => Tagged::Value(Value::Host(Box::new(Host::Function(self.tag_number()?)))),
            Some(b's') => Tagged::Value(Value::Host(Box::new(Host::Symbol))),
            Some(b'b') => Tagged::Value(Value::Host(Box::new(Host::BigInt(self.tag_number()?)))),
            Some(b'c') => Tagged::Value(Value::Host(Box::new(Host::Cut))),
            Some(b'a') => Tagged::Value(Value::Host(Box::new(Host::LongArray(self.tag_number()?)))),
            Some(b'm') => Tagged::Value(Value::Host(Box::new(Host::Many))),
            Some(b'x') => {
                self.expect(b'"', "a string in a thrown tag")?;
                let text = match self.string_body()? {
                    Decoded::Utf8(s) => Cow::Borrowed(s),
                    Decoded::Escaped(s) => Cow::Owned(s),
                    Decoded::Units(units) => Cow::Owned(String::from_utf16_lossy(&units)),
                };
                Tagged::Value(Value::Host(Box::new(Host::Thrown(text))))
            }
            Some(b'o') => {
                self.expect(b'"', "a type name in an object tag")?;
                let type_name = match self.string_body()? {
                    Decoded::Utf8(s) => Cow::Borrowed(s),
                    Decoded::Escaped(s) => Cow::Owned(s),
                    Decoded::Units(units) => Cow::Owned(String::from_utf16_lossy(&units)),
                };
                self.expect(b',', "',' in an object tag")?;
                let plain = match self.peek() {
                    Some(b'0') => false,
                    Some(b'1') => true,
                    _ => return Err(self.unexpected("0 or 1 in an object tag")),
                };
                self.pos += 1;
                Tagged::Object(type_name, plain)
            }
            _ => return Err(self.unexpected("a tag letter after '<'")),
        };
        self.expect(b'>', "'>' to close a tag")?;
        Ok(tagged)
    }

    /// A number inside a tag (`Infinity` and `NaN` included).
    fn tag_number(&mut self) -> Result<f64, JsonError> {
        match self.peek() {
            Some(b'N') => self.literal("NaN").map(|_| f64::NAN),
            Some(b'I') => self.literal("Infinity").map(|_| f64::INFINITY),
            _ => self.number(),
        }
    }

    /// `"key" :` — leaves the parser at the member's value.
    pub(crate) fn member_key(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if !self.eat(b'"') {
            return Err(self.unexpected("a double-quoted property name"));
        }
        let key = match self.string_body()? {
            Decoded::Utf8(s) => Cow::Borrowed(s),
            Decoded::Escaped(s) => Cow::Owned(s),
            Decoded::Units(units) => Cow::Owned(String::from_utf16_lossy(&units)),
        };
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

    pub(crate) fn number(&mut self) -> Result<f64, JsonError> {
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
        Ok(literal.parse().unwrap_or(f64::NAN))
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

    fn ok(text: &str) -> Value<'_> {
        parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {}", e.message)).into_shallow()
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
            match parse(json.as_bytes()) {
                Ok(document) => assert_eq!(*document, expected, "{json}"),
                Err(_) => assert_eq!(expected, Value::Undefined, "{json} is refused"),
            }
        }
        // Raw WTF-8 surrogate halves next to escapes still pair up.
        let wtf8 = [b"\"\\n".as_slice(), &[0xED, 0xA0, 0xBD], b"\\ude00\"".as_slice()].concat();
        assert_eq!(*parse_host(&wtf8).unwrap(), Value::String("\n😀".into()));
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
        assert!(matches!(*parse(deep.as_bytes()).unwrap(), Value::Array(_)));
        let deep_error = "[".repeat(50_000) + "1" + &"]".repeat(49_999);
        assert!(err(&deep_error).message.starts_with("Unexpected end of JSON input"));
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
        assert_eq!(*parse(&wtf8).unwrap(), Value::IllFormedString("\u{fffd}".into()));
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
        assert_eq!(*parse(&text).unwrap(), Value::String("😀".into()));
    }

    #[test]
    fn writes_string_literals_that_parse_back() {
        let mut out = String::new();
        write_string(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
        assert_eq!(ok(&out), Value::String("a\"b\\c\nd\u{1}é".into()));
    }
}
