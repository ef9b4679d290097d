//! The `write_todos` schema compiled to one pass over the text.
//!
//! A model's call is usually valid, and when it is not, it is usually wrong in a plain
//! way: a status out of the enum, a string too long, a key missing, a number where a
//! string goes, a ninth todo. Reading the text once, checking each value as it goes and
//! noting where each string lies (rather than copying it) lets the JS layer build the
//! result from slices of the caller's own string; the plain mistakes get zod's issues
//! here, in zod's order (schema order, whatever the order of the keys). What is rarer is
//! read in the same pass: repeated keys (the last wins), escapes in keys and values, lone
//! surrogates, values of any type (with an object's `length`, which zod's length checks
//! read), and of a host's value `undefined`, `NaN`, inherited keys, functions, symbols
//! and bigints. Text that is not JSON gets `JSON.parse`'s error from a second pass that
//! builds nothing. So JSON text never needs the full path (a tree, then the schema's
//! validator); only a host's value holding what the reader does not know (a getter that
//! threw, a value cut off, an object of a class where the schema looks) is
//! [`Outcome::Unsure`] and goes there. The answer never depends on which path ran:
//! `agreement.rs` holds the two to each other, and the differential tests hold both to
//! zod.

#[cfg(test)]
mod agreement;
mod checks;
mod compact;
mod reader;
mod scan;

pub use checks::Text;

use std::borrow::Cow;

use crate::error::issue::{Expected, Issue, Origin, PathSegment};
use crate::json::decimals::Decimals;
use crate::json::{Decoded, JsonError, Parser};

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

impl Span {
    const EMPTY: Span = Span { start: 0, end: 0, escaped: false };
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
    pub todos: FoundTodos,
    pub focus: Field,
    pub note: Field,
}

/// The todos of valid arguments: at most `MAX_TODOS`, so held inline (reading a call
/// allocates nothing).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FoundTodos {
    items: [FoundTodo; MAX_TODOS],
    len: u8,
}

impl FoundTodos {
    const EMPTY: FoundTodos =
        FoundTodos { items: [FoundTodo { id: Span::EMPTY, content: Span::EMPTY, status: 0 }; MAX_TODOS], len: 0 };

    /// Keeps `todo` (the reader never finds more than [`MAX_TODOS`]).
    fn push(&mut self, todo: FoundTodo) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = todo;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for FoundTodos {
    type Target = [FoundTodo];

    fn deref(&self) -> &[FoundTodo] {
        &self.items[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for FoundTodos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The text a [`Found`] points into, for taking its strings out.
pub struct Source<'a> {
    bytes: &'a [u8],
    /// The same text when it is UTF-8 (checked once, rather than string by string).
    utf8: Option<&'a str>,
}

impl<'a> Source<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Source { bytes, utf8: std::str::from_utf8(bytes).ok() }
    }

    /// The string at `span`: a slice of the text, or its escapes decoded.
    pub fn string(&self, span: &Span) -> Cow<'a, str> {
        let (start, end) = (span.start as usize, span.end as usize);
        if !span.escaped {
            // The reader checked that the span is UTF-8, even in WTF-8 text.
            let slice = match self.utf8 {
                Some(text) => text.get(start..end),
                None => self.bytes.get(start..end).and_then(|bytes| std::str::from_utf8(bytes).ok()),
            };
            return Cow::Borrowed(slice.unwrap_or_default());
        }
        let mut parser = Parser::unchecked(self.bytes);
        parser.set_position(start);
        // (The reader found no lone surrogate in it.)
        parser.string_body().map_or(Cow::Borrowed(""), Decoded::into_lossy)
    }
}

/// What one pass over the text could tell.
#[derive(Debug, Clone, PartialEq)]
// `Found` is held inline on purpose: reading a valid call allocates nothing.
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    Valid(Found),
    /// zod's issues, in zod's order, as [`Mistake`]s.
    Invalid(Vec<Mistake>),
    /// The text is not JSON: what `JSON.parse` refuses it for (the full path's
    /// `invalid_json` issue).
    NotJson(JsonError),
    /// A host's value holding what the reader does not know (never JSON text): the full
    /// path decides.
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
    /// A string holding a lone surrogate (planloop's `well_formed_utf16`).
    LoneSurrogate,
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
            What::LoneSurrogate => Issue::lone_surrogate(&path),
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

/// The most todos a list may hold.
pub const MAX_TODOS: usize = 8;
const ID: (usize, usize) = (1, 40);
const CONTENT: (usize, usize) = (1, 140);
const FOCUS: (usize, usize) = (0, 40);
const NOTE: (usize, usize) = (0, 200);

/// Reads `text` (JSON, or the JS layer's encoding of a JS value when `host`): the
/// compact layout `JSON.stringify` writes the short way, anything else in full.
///
/// The primitives' hot path: a page validates or applies a list on every call of the
/// model's. A `Session` answers `write_todos` the full way instead
/// ([`crate::plan::planner::PlannerState::apply_in_full`]): the call is one of a
/// decision's several, and this pass (22 KB of code in the session module, 9 KB gzip)
/// would only repeat the full path's answer faster. Decimal numbers are read with
/// `decimals`.
pub fn read(text: &[u8], host: bool, decimals: Decimals) -> Outcome {
    if let Some(outcome) = compact::read(text, decimals) {
        return outcome;
    }
    match reader::read(text, host, decimals) {
        // Checked only when the reader stops: what it cannot read may not be JSON at all
        // (a model's call cut short), and that needs no tree to tell.
        Outcome::Unsure if !host => crate::json::syntax_error(text, decimals).map_or(Outcome::Unsure, Outcome::NotJson),
        outcome => outcome,
    }
}

pub(crate) fn key(name: &str) -> PathSegment {
    PathSegment::Key(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(text: &str, span: Span) -> &str {
        &text[span.start as usize..span.end as usize]
    }

    fn valid(text: &str) -> Option<Found> {
        match read(text.as_bytes(), false, Decimals::RUST) {
            Outcome::Valid(found) => Some(found),
            _ => None,
        }
    }

    fn messages(text: &str) -> Vec<String> {
        match read(text.as_bytes(), false, Decimals::RUST) {
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
        assert!(matches!(read(text, true, Decimals::RUST), Outcome::Valid(Found { focus: Field::Undefined, .. })));
        assert!(matches!(read(text, false, Decimals::RUST), Outcome::NotJson(_)));
    }

    #[test]
    fn a_hosts_values_the_reader_does_not_know_go_to_the_full_path() {
        let todos = r#""todos":[{"id":"a","content":"b","status":"pending"}]"#;
        for text in [
            format!(r#"{{{todos},"note":<o"Date",0>{{}}}}"#),
            format!(r#"{{{todos},"focus":<x"a getter threw">}}"#),
            format!(r#"{{{todos},"note":<c>}}"#),
            r#"{"todos":<a100000>}"#.to_string(),
            format!(r#"<o"Map",0>{{{todos}}}"#),
        ] {
            assert_eq!(read(text.as_bytes(), true, Decimals::RUST), Outcome::Unsure, "{text}");
        }
    }

    #[test]
    fn text_that_is_not_json_is_answered_with_the_full_paths_error() {
        for text in [
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}]} x"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":[1,]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":undefined}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pen"#,
            r#"{"todos":[{"id":"a" "content":"b","status":"pending"}]}"#,
            "",
        ] {
            let expected = crate::json::parse(text.as_bytes(), Decimals::RUST).expect_err(text);
            assert_eq!(read(text.as_bytes(), false, Decimals::RUST), Outcome::NotJson(expected), "{text}");
        }
    }
}
