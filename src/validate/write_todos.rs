//! The `write_todos` schema compiled to one pass over the text.
//!
//! A model's call is usually valid, and when it is not, it is usually wrong in a plain
//! way: a status out of the enum, a string too long, a key missing, a number where a
//! string goes, a ninth todo. Reading the text once, checking each value as it goes and
//! noting where each string lies (rather than copying it) lets the JS layer build the
//! result from slices of the caller's own string; the plain mistakes get zod's issues
//! here, in zod's order (schema order, whatever the order of the keys). Anything else (a
//! repeated key, an escaped key, an object where a string goes, whose `length` zod would
//! read, a lone surrogate, anything but plain JSON) is [`Outcome::Unsure`], and the
//! caller takes the full path (a tree, then the schema's validator). The answer never
//! depends on which path ran: the differential tests hold both to zod.

use crate::error::issue::{Expected, Issue, Origin, PathSegment};
use crate::json::{Decoded, Parser};

/// The statuses the schema allows, in its order; a todo's `status` is an index here.
pub const STATUSES: [&str; 3] = ["pending", "in_progress", "completed"];

/// Where a string's content lies in the text, between its quotes (bytes), and whether
/// it holds escapes (then it must be decoded rather than sliced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub escaped: bool,
}

/// An optional key as found: absent, present as `undefined` (only a JS value can say
/// that; zod keeps such a key), or a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Absent,
    Undefined,
    Text(Span),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoundTodo {
    pub id: Span,
    pub content: Span,
    /// An index into [`STATUSES`].
    pub status: u8,
}

/// Valid `write_todos` arguments, as places in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub todos: Vec<FoundTodo>,
    pub focus: Field,
    pub note: Field,
}

/// What one pass over the text could tell.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Valid(Found),
    /// zod's issues, in zod's order, as [`Mistake`]s.
    Invalid(Vec<Mistake>),
    /// Not plain enough to tell here: the full path decides.
    Unsure,
}

/// A plain mistake, noted without allocating: [`Mistake::issue`] makes zod's issue of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mistake {
    pub at: Place,
    pub what: What,
}

/// Where a mistake is: its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Root,
    Todos,
    Todo(u32),
    Id(u32),
    Content(u32),
    Status(u32),
    Focus,
    Note,
}

/// What the mistake is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum What {
    /// Expected this type; received a value zod names so.
    WrongType(Expected, &'static str),
    TooSmall(Origin, u32),
    TooBig(Origin, u32),
    /// Not one of [`STATUSES`].
    NotAStatus,
}

impl Mistake {
    /// The issue zod reports.
    pub fn issue(&self) -> Issue {
        let path = self.path();
        match self.what {
            What::WrongType(expected, received) => Issue::invalid_type(expected, received, &path),
            What::TooSmall(origin, minimum) => Issue::too_small(origin, f64::from(minimum), &path),
            What::TooBig(origin, maximum) => Issue::too_big(origin, f64::from(maximum), &path),
            What::NotAStatus => Issue::invalid_value(&STATUSES.map(str::to_owned), &path),
        }
    }

    pub fn path(&self) -> Vec<PathSegment> {
        let in_todo = |index: u32, field: &str| vec![key("todos"), PathSegment::Index(index), key(field)];
        match self.at {
            Place::Root => Vec::new(),
            Place::Todos => vec![key("todos")],
            Place::Todo(index) => vec![key("todos"), PathSegment::Index(index)],
            Place::Id(index) => in_todo(index, "id"),
            Place::Content(index) => in_todo(index, "content"),
            Place::Status(index) => in_todo(index, "status"),
            Place::Focus => vec![key("focus")],
            Place::Note => vec![key("note")],
        }
    }
}

const MAX_TODOS: usize = 8;
const ID: (usize, usize) = (1, 40);
const CONTENT: (usize, usize) = (1, 140);
const FOCUS: (usize, usize) = (0, 40);
const NOTE: (usize, usize) = (0, 200);

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

/// Reads `text` (JSON, or the JS layer's encoding of a JS value when `host`).
pub fn read(text: &[u8], host: bool) -> Outcome {
    match (Reader { p: Parser::unchecked(text), host, mistakes: Vec::new() }).root() {
        Some(outcome) => outcome,
        None => Outcome::Unsure,
    }
}

struct Reader<'a> {
    p: Parser<'a>,
    host: bool,
    mistakes: Vec<Mistake>,
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
        let todos = match todos {
            Some(todos) => todos,
            None => {
                self.note(Place::Todos, What::WrongType(Expected::Array, "undefined"));
                None
            }
        };
        let focus = self.optional(focus, FOCUS, Place::Focus);
        let note = self.optional(note, NOTE, Place::Note);
        Some(match todos {
            Some(todos) if self.mistakes.is_empty() => Outcome::Valid(Found { todos, focus, note }),
            _ => Outcome::Invalid(self.mistakes),
        })
    }

    /// The todo list; its issues are recorded, and `None` comes back in their stead.
    fn todos(&mut self) -> Option<Option<Vec<FoundTodo>>> {
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
            return Some(None);
        }
        self.p.eat(b'[');
        let before = self.mistakes.len();
        let mut todos = Vec::with_capacity(4);
        let mut count = 0usize;
        self.p.skip_whitespace();
        if !self.p.eat(b']') {
            loop {
                self.p.skip_whitespace();
                if count < MAX_TODOS {
                    if let Some(todo) = self.todo(count)? {
                        todos.push(todo);
                    }
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
            return Some(None);
        }
        if count == 0 {
            self.note(Place::Todos, What::TooSmall(Origin::Array, 1));
        }
        Some((self.mistakes.len() == before && count > 0).then_some(todos))
    }

    /// Todo `index`; its issues are recorded, and `None` comes back in their stead.
    fn todo(&mut self, index: usize) -> Option<Option<FoundTodo>> {
        let index = index as u32;
        if self.p.peek() != Some(b'{') {
            let received = self.primitive_or_array()?;
            self.note(Place::Todo(index), What::WrongType(Expected::Object, received));
            return Some(None);
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
        Some(match (id, content, status) {
            (Some(id), Some(content), Some(status)) if self.mistakes.len() == before => {
                Some(FoundTodo { id, content, status })
            }
            _ => None,
        })
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

    /// A value where the schema wants a string.
    fn text(&mut self) -> Option<Text> {
        match self.p.peek()? {
            b'"' => {
                self.p.eat(b'"');
                let start = self.p.position();
                let text = self.p.text();
                if let Some((end, code_points)) = scan_plain(text, start) {
                    // Non-ASCII text must be UTF-8 to be sliced (WTF-8 holds lone surrogates).
                    if code_points != end - start && std::str::from_utf8(&text[start..end]).is_err() {
                        return None;
                    }
                    self.p.set_position(end + 1);
                    return Some(Text::String(
                        Span { start: start as u32, end: end as u32, escaped: false },
                        code_points,
                    ));
                }
                let length = match self.p.string_body().ok()? {
                    Decoded::Utf8(s) => s.chars().count(),
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

fn key(name: &str) -> PathSegment {
    PathSegment::Key(name.to_owned())
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// A string without escapes, from `start` (after its opening quote): where its closing
/// quote is, and its length in code points. `None` at an escape, a control character or
/// the end of the text. Eight bytes at a time, counting code points as it goes (the
/// bytes that do not continue a UTF-8 sequence), since strings are most of a tool call.
#[inline(always)]
fn scan_plain(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut i = start;
    let mut continuations = 0usize;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        // A continuation byte is 10xxxxxx: bit 7 set and bit 6 clear.
        let continues = word & !(word << 1) & HIGH;
        let stops = stops(word);
        if stops == 0 {
            continuations += continues.count_ones() as usize;
            i += 8;
            continue;
        }
        // The lowest flagged byte is exact (a borrow only flags bytes above it).
        let at = (stops.trailing_zeros() / 8) as usize;
        let before = (1u64 << (at * 8)).wrapping_sub(1);
        continuations += (continues & before).count_ones() as usize;
        return (bytes[i + at] == b'"').then(|| (i + at, i + at - start - continuations));
    }
    loop {
        let byte = *bytes.get(i)?;
        match byte {
            b'"' => return Some((i, i - start - continuations)),
            b'\\' | 0x00..=0x1F => return None,
            _ => {
                continuations += usize::from(byte & 0xC0 == 0x80);
                i += 1;
            }
        }
    }
}

/// The bytes of `word` that end a plain run (`"`, `\\`, a control character), each as its
/// high bit; exact for the lowest one.
#[inline(always)]
fn stops(word: u64) -> u64 {
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH;
    below(word ^ (ONES * u64::from(b'"')), 1) | below(word ^ (ONES * u64::from(b'\\')), 1) | below(word, 0x20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(text: &str, span: Span) -> &str {
        &text[span.start as usize..span.end as usize]
    }

    fn valid(text: &str) -> Option<Found> {
        match read(text.as_bytes(), false) {
            Outcome::Valid(found) => Some(found),
            _ => None,
        }
    }

    fn messages(text: &str) -> Vec<String> {
        match read(text.as_bytes(), false) {
            Outcome::Invalid(mistakes) => {
                mistakes.iter().map(|m| m.issue()).map(|i| format!("{:?} {}", i.path(), i.message())).collect()
            }
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn valid_text_is_read_with_the_place_of_every_string() {
        let text =
            r#" {"note":"n","x":{"deep":[1,{"a":null}]},"todos":[{"status":"pending","id":"a","content":"b\u00e9"}]} "#;
        let found = valid(text).unwrap();
        assert_eq!(found.todos.len(), 1);
        let todo = found.todos[0];
        assert_eq!((slice(text, todo.id), todo.id.escaped), ("a", false));
        assert_eq!((slice(text, todo.content), todo.content.escaped), (r"b\u00e9", true));
        assert_eq!(STATUSES[todo.status as usize], "pending");
        assert!(matches!(found.note, Field::Text(span) if slice(text, span) == "n"));
        assert_eq!(found.focus, Field::Absent);
    }

    #[test]
    fn the_limits_are_the_schemas_counted_in_code_points() {
        let args = |id: &str, content: &str, count: usize| {
            let todo = format!(r#"{{"id":"{id}","content":"{content}","status":"completed"}}"#);
            format!(r#"{{"todos":[{}]}}"#, vec![todo; count].join(","))
        };
        assert!(valid(&args(&"😀".repeat(40), &"é".repeat(140), 8)).is_some());
        assert_eq!(
            messages(&args(&"😀".repeat(41), "c", 1)),
            [r#"[Key("todos"), Index(0), Key("id")] Too big: expected string to have <=40 characters"#]
        );
        assert_eq!(messages(&args("a", &"é".repeat(141), 1)).len(), 1);
        assert_eq!(messages(&args("a", "c", 9)), [r#"[Key("todos")] Too big: expected array to have <=8 items"#]);
        assert_eq!(messages(&args("a", "c", 0)), [r#"[Key("todos")] Too small: expected array to have >=1 items"#]);
        assert_eq!(messages(&args("", "c", 1)).len(), 1);
        let focus = |n: usize| {
            format!(r#"{{"todos":[{{"id":"a","content":"c","status":"pending"}}],"focus":"{}"}}"#, "f".repeat(n))
        };
        assert!(valid(&focus(40)).is_some());
        assert_eq!(messages(&focus(41)).len(), 1);
    }

    #[test]
    fn plain_mistakes_get_zods_issues_in_schema_order() {
        let text = r#"{"focus":"ffffffffffffffffffffffffffffffffffffffffff","todos":[{"content":5,"id":""}]}"#;
        assert_eq!(
            messages(text),
            [
                r#"[Key("todos"), Index(0), Key("id")] Too small: expected string to have >=1 characters"#,
                r#"[Key("todos"), Index(0), Key("content")] Invalid input: expected string, received number"#,
                r#"[Key("todos"), Index(0), Key("status")] Invalid option: expected one of "pending"|"in_progress"|"completed""#,
                r#"[Key("focus")] Too big: expected string to have <=40 characters"#,
            ]
        );
        assert_eq!(messages("[1]"), [r#"[] Invalid input: expected object, received array"#]);
        assert_eq!(messages(r#"{"todos":"abcdefghij"}"#).len(), 2, "a string is measured against the list's limits");
        assert_eq!(messages(r#"{"todos":[null,[]]}"#).len(), 2);
    }

    #[test]
    fn undefined_is_an_optional_keys_value_only_in_a_hosts_value() {
        let text = br#"{"todos":[{"id":"a","content":"c","status":"pending"}],"focus":undefined}"#;
        assert!(matches!(read(text, true), Outcome::Valid(Found { focus: Field::Undefined, .. })));
        assert_eq!(read(text, false), Outcome::Unsure);
    }

    #[test]
    fn anything_not_plain_goes_to_the_full_path() {
        for text in [
            r#"{"todos":[{"id":"a","content":"b","status":"pend\u0069ng"}]}"#,
            r#"{"todos":5,"todos":[{"id":"a","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"\ud800","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":{"length":3},"content":"b","status":"pending"}]}"#,
            r#"{"todos":{"length":9}}"#,
            r#"{"t\u006fdos":[]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}]} x"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":[1,]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":undefined}"#,
        ] {
            assert_eq!(read(text.as_bytes(), false), Outcome::Unsure, "{text}");
        }
    }

    #[test]
    fn scanning_counts_code_points_across_word_boundaries() {
        for text in ["", "a", "abcdefgh", "abcdefghi", "é😀中abcdefgh", "ééééééééé", "😀😀😀😀😀"]
        {
            let quoted = format!("{text}\"");
            assert_eq!(scan_plain(quoted.as_bytes(), 0), Some((text.len(), text.chars().count())), "{text}");
        }
        assert_eq!(scan_plain(b"abcdefgh\\n\"", 0), None);
        assert_eq!(scan_plain(b"abc", 0), None);
    }
}
