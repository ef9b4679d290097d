//! The general reader: any JSON (or host encoding), keys in any order, whitespace,
//! escapes; plain mistakes noted in zod's order. What it cannot tell is `Unsure`.

use super::scan::scan_plain;
use super::{
    Field, Found, FoundTodo, FoundTodos, Mistake, Outcome, Place, Span, What, CONTENT, FOCUS, ID, MAX_TODOS, NOTE,
    STATUSES,
};
use crate::error::issue::{Expected, Origin};
use crate::json::{Decoded, Parser};

/// A value as read where the schema wants a string.
#[derive(Clone, Copy)]
enum Text {
    Absent,
    Undefined,
    /// A well-formed string and its length in code points.
    String(Span, usize),
    /// A JSON primitive of the wrong type (no `length` for zod to check).
    Other(&'static str),
}

pub fn read(text: &[u8], host: bool) -> Outcome {
    match (Reader { p: Parser::unchecked(text), host, mistakes: Vec::new(), todos: FoundTodos::EMPTY }).root() {
        Some(outcome) => outcome,
        None => Outcome::Unsure,
    }
}

struct Reader<'a> {
    p: Parser<'a>,
    host: bool,
    mistakes: Vec<Mistake>,
    /// The valid todos so far (kept here, not returned up the calls: it is a few hundred
    /// bytes, and moving it costs more than reading a short call).
    todos: FoundTodos,
}

impl Reader<'_> {
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
            b"todos" if todos.is_none() => {
                todos = Some(reader.todos()?);
                Some(())
            }
            b"focus" if matches!(focus, Text::Absent) => {
                focus = reader.text()?;
                Some(())
            }
            b"note" if matches!(note, Text::Absent) => {
                note = reader.text()?;
                Some(())
            }
            // A repeated key: the last one wins, and the full path knows how.
            b"todos" | b"focus" | b"note" => None,
            _ => reader.p.skip_value().ok(),
        })?;
        self.end()?;
        if todos.is_none() {
            self.note(Place::Todos, What::WrongType(Expected::Array, "undefined"));
        }
        let focus = self.optional(focus, FOCUS, Place::Focus);
        let note = self.optional(note, NOTE, Place::Note);
        Some(match todos {
            Some(true) if self.mistakes.is_empty() => Outcome::Valid(Found { todos: self.todos, focus, note }),
            _ => Outcome::Invalid(self.mistakes),
        })
    }

    /// The todo list, into `self.todos`; whether it is valid (its issues are recorded).
    fn todos(&mut self) -> Option<bool> {
        if self.p.peek() != Some(b'[') {
            match self.text()? {
                // A string where the list goes: zod measures it against the list's limits.
                Text::String(_, length) => {
                    self.note(Place::Todos, What::WrongType(Expected::Array, "string"));
                    if length < 1 {
                        self.note(Place::Todos, What::TooSmall(Origin::String, 1));
                    }
                    if length > MAX_TODOS {
                        self.note(Place::Todos, What::TooBig(Origin::String, MAX_TODOS as u32));
                    }
                }
                Text::Other(received) => self.note(Place::Todos, What::WrongType(Expected::Array, received)),
                Text::Absent | Text::Undefined => {
                    self.note(Place::Todos, What::WrongType(Expected::Array, "undefined"))
                }
            }
            return Some(false);
        }
        self.p.eat(b'[');
        let before = self.mistakes.len();
        let mut count = 0usize;
        self.p.skip_whitespace();
        if !self.p.eat(b']') {
            loop {
                self.p.skip_whitespace();
                if count < MAX_TODOS {
                    self.todo(count)?;
                } else {
                    // Past the limit zod reads no item: only the list's shape matters.
                    self.p.skip_value().ok()?;
                }
                count += 1;
                self.p.skip_whitespace();
                if self.p.eat(b']') {
                    break;
                }
                self.p.eat(b',').then_some(())?;
            }
        }
        // zod reports an oversized list alone, without reading its items.
        if count > MAX_TODOS {
            self.mistakes.truncate(before);
            self.note(Place::Todos, What::TooBig(Origin::Array, MAX_TODOS as u32));
            return Some(false);
        }
        if count == 0 {
            self.note(Place::Todos, What::TooSmall(Origin::Array, 1));
        }
        Some(self.mistakes.len() == before && count > 0)
    }

    /// Todo `index`, into `self.todos` when it is valid (its issues are recorded).
    fn todo(&mut self, index: usize) -> Option<()> {
        let index = index as u32;
        if self.p.peek() != Some(b'{') {
            let received = self.primitive_or_array()?;
            self.note(Place::Todo(index), What::WrongType(Expected::Object, received));
            return Some(());
        }
        self.p.eat(b'{');
        let (mut id, mut content, mut status) = (Text::Absent, Text::Absent, None);
        self.members(|reader, key| match key {
            b"id" if matches!(id, Text::Absent) => {
                id = reader.text()?;
                Some(())
            }
            b"content" if matches!(content, Text::Absent) => {
                content = reader.text()?;
                Some(())
            }
            b"status" if status.is_none() => {
                status = Some(reader.status()?);
                Some(())
            }
            b"id" | b"content" | b"status" => None,
            _ => reader.p.skip_value().ok(),
        })?;
        let before = self.mistakes.len();
        let id = self.required(id, ID, Place::Id(index));
        let content = self.required(content, CONTENT, Place::Content(index));
        let status = status.flatten();
        if status.is_none() {
            self.note(Place::Status(index), What::NotAStatus);
        }
        if let (Some(id), Some(content), Some(status)) = (id, content, status) {
            if self.mistakes.len() == before {
                self.todos.push(FoundTodo { id, content, status });
            }
        }
        Some(())
    }

    /// A status: its index, or `None` for anything else (zod's `invalid_value`).
    fn status(&mut self) -> Option<Option<u8>> {
        Some(match self.text()? {
            Text::String(span, _) if !span.escaped => {
                let text = &self.p.text()[span.start as usize..span.end as usize];
                STATUSES.iter().position(|status| status.as_bytes() == text).map(|i| i as u8)
            }
            // An escaped spelling of a status is valid too, but rare: the full path decides.
            Text::String(..) => return None,
            // Whatever else it is, zod's enum says the same.
            Text::Other(_) | Text::Undefined | Text::Absent => None,
        })
    }

    /// A required string field's span, its mistakes noted.
    fn required(&mut self, value: Text, (min, max): (usize, usize), at: Place) -> Option<Span> {
        match value {
            Text::String(span, length) if (min..=max).contains(&length) => Some(span),
            Text::String(_, length) => {
                if length < min {
                    self.note(at, What::TooSmall(Origin::String, min as u32));
                }
                if length > max {
                    self.note(at, What::TooBig(Origin::String, max as u32));
                }
                None
            }
            Text::Other(received) => {
                self.note(at, What::WrongType(Expected::String, received));
                None
            }
            Text::Absent | Text::Undefined => {
                self.note(at, What::WrongType(Expected::String, "undefined"));
                None
            }
        }
    }

    fn note(&mut self, at: Place, what: What) {
        self.mistakes.push(Mistake { at, what });
    }

    /// An optional string field, its mistakes noted.
    fn optional(&mut self, value: Text, limits: (usize, usize), at: Place) -> Field {
        match value {
            Text::Absent => Field::Absent,
            Text::Undefined => Field::Undefined,
            value => match self.required(value, limits, at) {
                Some(span) => Field::Text(span),
                None => Field::Absent,
            },
        }
    }

    /// An object's members after its `{`: `member` reads each value after its key.
    fn members(&mut self, mut member: impl FnMut(&mut Self, &[u8]) -> Option<()>) -> Option<()> {
        self.p.skip_whitespace();
        if self.p.eat(b'}') {
            return Some(());
        }
        loop {
            self.p.skip_whitespace();
            self.p.eat(b'"').then_some(())?;
            let (start, end) = self.plain_key()?;
            self.p.skip_whitespace();
            self.p.eat(b':').then_some(())?;
            self.p.skip_whitespace();
            let text = self.p.text();
            member(self, &text[start..end])?;
            self.p.skip_whitespace();
            if self.p.eat(b'}') {
                return Some(());
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// A key without escapes, after its opening quote: where it lies.
    fn plain_key(&mut self) -> Option<(usize, usize)> {
        let start = self.p.position();
        let (end, _) = scan_plain(self.p.text(), start)?;
        self.p.set_position(end + 1);
        Some((start, end))
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
                let start = self.p.position();
                if scan_plain(self.p.text(), start).is_some() {
                    return None; // plain, but not UTF-8 (see `text`)
                }
                let length = match self.p.string_body().ok()? {
                    Decoded::Utf8(s) => s.chars().count(),
                    Decoded::Escaped(s) => s.chars().count(),
                    Decoded::Units(units) => {
                        let mut count = 0;
                        for unit in char::decode_utf16(units.iter().copied()) {
                            unit.ok()?; // a lone surrogate: the full path reports it
                            count += 1;
                        }
                        count
                    }
                };
                let end = self.p.position() - 1;
                Some(Text::String(Span { start: start as u32, end: end as u32, escaped: true }, length))
            }
            b'u' if self.host => self.p.literal("undefined").ok().map(|_| Text::Undefined),
            b't' => self.p.literal("true").ok().map(|_| Text::Other("boolean")),
            b'f' => self.p.literal("false").ok().map(|_| Text::Other("boolean")),
            b'n' => self.p.literal("null").ok().map(|_| Text::Other("null")),
            b'-' | b'0'..=b'9' => self.p.number().ok().filter(|n| n.is_finite()).map(|_| Text::Other("number")),
            _ => None,
        }
    }

    /// A JSON primitive or an array where an object goes: its type name for zod.
    fn primitive_or_array(&mut self) -> Option<&'static str> {
        if self.p.peek()? == b'[' {
            self.p.skip_value().ok()?;
            return Some("array");
        }
        match self.text()? {
            Text::String(..) => Some("string"),
            Text::Other(received) => Some(received),
            Text::Absent | Text::Undefined => None,
        }
    }

    fn end(&mut self) -> Option<()> {
        self.p.skip_whitespace();
        self.p.at_end().then_some(())
    }
}
