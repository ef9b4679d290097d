//! The general reader: any JSON (or host encoding), keys in any order and repeated (the
//! last one wins, as in `JSON.parse`), whitespace, escapes, values of any type; mistakes
//! noted in zod's order. What it cannot tell (text that is not JSON; in a host's value, a
//! tag it does not know) is `Unsure`.

use std::borrow::Cow;

use super::checks::{Checks, Text};
use super::scan::scan_plain;
use super::{Mistake, Outcome, Place, Source, Span, What, MAX_TODOS, STATUSES};
use crate::error::issue::{Expected, Origin};
use crate::json::decimals::Decimals;
use crate::json::value::{Document, Host, Value};
use crate::json::{Decoded, Parser, Tagged};
use crate::validate::input::{scalar_name, Input};

pub fn read(text: &[u8], host: bool, decimals: Decimals) -> Outcome {
    let p = Parser::unchecked(text).reading_host(host);
    match (OnePass { p, host, decimals, checks: Checks::new() }).root() {
        Some(outcome) => outcome,
        None => Outcome::Unsure,
    }
}

pub(super) struct OnePass<'a> {
    pub(super) p: Parser<'a>,
    host: bool,
    decimals: Decimals,
    checks: Checks,
}

impl<'a> OnePass<'a> {
    fn root(mut self) -> Option<Outcome> {
        self.p.skip_whitespace();
        if self.p.peek() != Some(b'{') {
            let received = self.primitive_or_array()?;
            self.end()?;
            let what = What::WrongType(Expected::Object, received);
            return Some(Outcome::Invalid(vec![Mistake { at: Place::Root, what }]));
        }
        self.p.eat(b'{');
        let (mut todos, mut focus, mut note) = (None, Text::Absent, Text::Absent);
        self.members(|reader, key| match key {
            b"todos" => {
                // Only the list notes mistakes while the members are read: those of a
                // list given before are dropped with it.
                reader.checks = Checks::new();
                todos = Some(reader.todos()?);
                Some(())
            }
            b"focus" => {
                focus = reader.text()?;
                Some(())
            }
            b"note" => {
                note = reader.text()?;
                Some(())
            }
            _ => reader.p.skip_value(reader.decimals).ok(),
        })?;
        self.end()?;
        Some(match self.checks.finish(todos, focus, note) {
            Ok(found) => Outcome::Valid(found),
            Err(mistakes) => Outcome::Invalid(mistakes),
        })
    }

    /// The todo list, its valid todos kept; whether it is valid (its issues are noted).
    fn todos(&mut self) -> Option<bool> {
        if self.p.peek() != Some(b'[') {
            let value = self.text()?;
            self.checks.not_a_list(value);
            return Some(false);
        }
        self.p.eat(b'[');
        let before = self.checks.mistakes.len();
        let mut count = 0usize;
        self.p.skip_whitespace();
        if !self.p.eat(b']') {
            loop {
                self.p.skip_whitespace();
                if count < MAX_TODOS {
                    self.todo(count)?;
                } else {
                    // Past the limit zod reads no item: only the list's shape matters.
                    self.p.skip_value(self.decimals).ok()?;
                }
                count += 1;
                self.p.skip_whitespace();
                if self.p.eat(b']') {
                    break;
                }
                self.p.eat(b',').then_some(())?;
            }
        }
        Some(self.checks.list(before, count))
    }

    /// Todo `index`, kept when it is valid (its issues are noted).
    fn todo(&mut self, index: usize) -> Option<()> {
        let index = index as u32;
        if self.p.peek() != Some(b'{') {
            let received = self.primitive_or_array()?;
            self.checks.note(Place::Todo(index), What::WrongType(Expected::Object, received));
            return Some(());
        }
        self.p.eat(b'{');
        let (mut id, mut content, mut status) = (Text::Absent, Text::Absent, None);
        self.members(|reader, key| match key {
            b"id" => {
                id = reader.text()?;
                Some(())
            }
            b"content" => {
                content = reader.text()?;
                Some(())
            }
            b"status" => {
                status = Some(reader.status()?);
                Some(())
            }
            _ => reader.p.skip_value(reader.decimals).ok(),
        })?;
        self.checks.todo(index, id, content, status.flatten());
        Some(())
    }

    /// A status: its index, or `None` for anything else (zod's `invalid_value`).
    fn status(&mut self) -> Option<Option<u8>> {
        let index = |text: &[u8]| STATUSES.iter().position(|status| status.as_bytes() == text).map(|i| i as u8);
        Some(match self.text()? {
            Text::String(span, _) if !span.escaped => index(&self.p.text()[span.start as usize..span.end as usize]),
            // An escaped spelling of a status is one too.
            Text::String(span, _) => index(Source::new(self.p.text()).string(&span).as_bytes()),
            // Whatever else it is, zod's enum says the same.
            Text::IllFormed(_) | Text::Other(..) | Text::Undefined | Text::Absent => None,
        })
    }

    /// An object's members after its `{`: `member` reads each value after its key.
    pub(super) fn members(&mut self, mut member: impl FnMut(&mut Self, &[u8]) -> Option<()>) -> Option<()> {
        self.p.skip_whitespace();
        if self.p.eat(b'}') {
            return Some(());
        }
        loop {
            self.p.skip_whitespace();
            // An inherited property (a host's value only) is read as an own one: zod
            // reads `value[key]`, wherever the key lives, and lists no keys here.
            if self.host {
                self.p.eat(b'^');
            }
            self.p.eat(b'"').then_some(())?;
            let key = self.key()?;
            self.p.skip_whitespace();
            self.p.eat(b':').then_some(())?;
            self.p.skip_whitespace();
            member(self, &key)?;
            self.p.skip_whitespace();
            if self.p.eat(b'}') {
                return Some(());
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// A key, after its opening quote: a slice of the text, or decoded when it holds
    /// escapes (a lone surrogate as U+FFFD: no key the schema names has one).
    fn key(&mut self) -> Option<Cow<'a, [u8]>> {
        let (start, text) = (self.p.position(), self.p.text());
        if let Some((end, _)) = scan_plain(text, start) {
            self.p.set_position(end + 1);
            return Some(Cow::Borrowed(&text[start..end]));
        }
        Some(match self.p.string_body().ok()?.into_lossy() {
            Cow::Borrowed(key) => Cow::Borrowed(key.as_bytes()),
            Cow::Owned(key) => Cow::Owned(key.into_bytes()),
        })
    }

    /// A value where the schema wants a string. A string without escapes is the common
    /// case and takes the short way; anything else the full one, kept out of line.
    #[inline(always)]
    fn text(&mut self) -> Option<Text> {
        if self.p.peek() == Some(b'"') {
            let start = self.p.position() + 1;
            let text = self.p.text();
            if let Some((end, code_points)) = scan_plain(text, start) {
                // Non-ASCII text must be UTF-8 to be sliced (WTF-8 holds lone surrogates).
                if code_points == end - start || std::str::from_utf8(&text[start..end]).is_ok() {
                    self.p.set_position(end + 1);
                    let span = Span { start: start as u32, end: end as u32, escaped: false };
                    return Some(Text::String(span, code_points));
                }
            }
        }
        self.other_text()
    }

    #[cold]
    #[inline(never)]
    fn other_text(&mut self) -> Option<Text> {
        match self.p.peek()? {
            b'"' => {
                self.p.eat(b'"');
                let start = self.p.position() as u32;
                let decoded = self.p.string_body().ok()?;
                let span = Span { start, end: self.p.position() as u32 - 1, escaped: true };
                Some(match decoded {
                    Decoded::Utf8(s) => Text::String(span, s.chars().count()),
                    Decoded::Escaped(s) => Text::String(span, s.chars().count()),
                    Decoded::Units(units) => {
                        let (mut length, mut well_formed) = (0, true);
                        for unit in char::decode_utf16(units.iter().copied()) {
                            well_formed &= unit.is_ok();
                            length += 1;
                        }
                        match well_formed {
                            true => Text::String(span, length),
                            false => Text::IllFormed(length),
                        }
                    }
                })
            }
            b'[' | b'{' => self.measured(),
            b'<' if self.host => self.tagged(),
            // (A number too large for a double is an infinity, and zod names it so.)
            _ => match self.p.scalar(self.decimals).ok()? {
                Value::Undefined => Some(Text::Undefined),
                scalar => Some(Text::Other(scalar_name(&scalar), None)),
            },
        }
    }

    /// An array or an object where a string goes, read whole (it is rare) for what the
    /// full path reads of it: its type's name, and its `length` as zod's length checks
    /// read it (an array's count; an object's `Number(length)`, inherited or own).
    fn measured(&mut self) -> Option<Text> {
        let value = Document::new(self.p.value(self.decimals).ok()?);
        let value: &Value<'_> = &value;
        let (name, origin) = match value {
            Value::Array(_) => ("array", Origin::Array),
            _ => ("object", Origin::Unknown),
        };
        Some(Text::Other(name, value.length(self.decimals).ok()?.map(|length| (origin, length))))
    }

    /// A host's tagged value where a string goes: a function (whose `length` zod checks),
    /// a symbol or a bigint. Any other (a value whose reading threw, one cut off, a long
    /// array, an object of a class) is for the full path.
    fn tagged(&mut self) -> Option<Text> {
        let Tagged::Value(Value::Host(host)) = self.p.tag(self.decimals).ok()? else { return None };
        match *host {
            Host::Function(length) => Some(Text::Other("function", Some((Origin::Unknown, length)))),
            Host::Symbol => Some(Text::Other("symbol", None)),
            Host::BigInt(_) => Some(Text::Other("bigint", None)),
            _ => None,
        }
    }

    /// A JSON primitive or an array where an object goes: its type name for zod.
    fn primitive_or_array(&mut self) -> Option<&'static str> {
        if self.p.peek()? == b'[' {
            self.p.skip_value(self.decimals).ok()?;
            return Some("array");
        }
        match self.text()? {
            Text::String(..) | Text::IllFormed(_) => Some("string"),
            Text::Other(received, _) => Some(received),
            Text::Undefined => Some("undefined"),
            Text::Absent => None,
        }
    }

    fn end(&mut self) -> Option<()> {
        self.p.skip_whitespace();
        self.p.at_end().then_some(())
    }
}
