//! The `write_todos` schema compiled to one pass over the text, for the common case: the
//! arguments are valid.
//!
//! A model's call is usually valid. Reading it once, checking each value as it goes and
//! noting where each string lies (rather than copying it) lets the JS layer build the
//! result from slices of the caller's own string. At the first thing that is not plainly
//! valid (a type mismatch, a limit crossed, a repeated key, a lone surrogate, anything
//! but plain JSON) it gives up, and the caller takes the full path (a tree, then the
//! schema's validator), which reports zod's issues in zod's order. The answer never
//! depends on which path ran: the differential tests hold both to zod, and a unit test
//! holds this reader to the schema's limits.

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

const MAX_TODOS: usize = 8;
const MAX_ID: usize = 40;
const MAX_CONTENT: usize = 140;
const MAX_FOCUS: usize = 40;
const MAX_NOTE: usize = 200;

/// `Some` when `text` holds plainly valid arguments; `host` accepts `undefined` for an
/// optional key, as the JS layer writes a JS value's.
pub fn read(text: &[u8], host: bool) -> Option<Found> {
    let mut p = Parser::new(text);
    let mut found = Found { todos: Vec::new(), focus: Field::Absent, note: Field::Absent };
    let mut seen_todos = false;
    p.skip_whitespace();
    p.eat(b'{').then_some(())?;
    p.skip_whitespace();
    if !p.eat(b'}') {
        loop {
            p.skip_whitespace();
            let key = p.member_key().ok()?;
            p.skip_whitespace();
            match key.as_ref() {
                "todos" if !seen_todos => {
                    seen_todos = true;
                    found.todos = todos(&mut p)?;
                }
                "focus" if found.focus == Field::Absent => found.focus = optional(&mut p, MAX_FOCUS, host)?,
                "note" if found.note == Field::Absent => found.note = optional(&mut p, MAX_NOTE, host)?,
                // A repeated key: the last one wins, and the full path knows how.
                "todos" | "focus" | "note" => return None,
                _ => p.skip_value().ok()?,
            }
            p.skip_whitespace();
            if p.eat(b'}') {
                break;
            }
            p.eat(b',').then_some(())?;
        }
    }
    p.skip_whitespace();
    (seen_todos && p.at_end()).then_some(found)
}

fn todos(p: &mut Parser<'_>) -> Option<Vec<FoundTodo>> {
    p.eat(b'[').then_some(())?;
    let mut todos = Vec::with_capacity(4);
    p.skip_whitespace();
    if !p.eat(b']') {
        loop {
            p.skip_whitespace();
            todos.push(todo(p)?);
            if todos.len() > MAX_TODOS {
                return None;
            }
            p.skip_whitespace();
            if p.eat(b']') {
                break;
            }
            p.eat(b',').then_some(())?;
        }
    }
    (!todos.is_empty()).then_some(todos)
}

fn todo(p: &mut Parser<'_>) -> Option<FoundTodo> {
    p.eat(b'{').then_some(())?;
    let (mut id, mut content, mut status) = (None, None, None);
    p.skip_whitespace();
    if !p.eat(b'}') {
        loop {
            p.skip_whitespace();
            let key = p.member_key().ok()?;
            p.skip_whitespace();
            match key.as_ref() {
                "id" if id.is_none() => id = Some(sized(p, MAX_ID)?),
                "content" if content.is_none() => content = Some(sized(p, MAX_CONTENT)?),
                "status" if status.is_none() => status = Some(todo_status(p)?),
                "id" | "content" | "status" => return None,
                _ => p.skip_value().ok()?,
            }
            p.skip_whitespace();
            if p.eat(b'}') {
                break;
            }
            p.eat(b',').then_some(())?;
        }
    }
    Some(FoundTodo { id: id?, content: content?, status: status? })
}

/// An optional string of at most `max` code points.
fn optional(p: &mut Parser<'_>, max: usize, host: bool) -> Option<Field> {
    if host && p.peek() == Some(b'u') {
        p.literal("undefined").ok()?;
        return Some(Field::Undefined);
    }
    let (span, length) = string(p)?;
    (length <= max).then_some(Field::Text(span))
}

/// A string of 1 to `max` code points.
fn sized(p: &mut Parser<'_>, max: usize) -> Option<Span> {
    let (span, length) = string(p)?;
    (1..=max).contains(&length).then_some(span)
}

fn todo_status(p: &mut Parser<'_>) -> Option<u8> {
    let (span, _) = string(p)?;
    // An escaped spelling of a status is valid too, but rare: the full path decides.
    let text = (!span.escaped).then(|| &p.text()[span.start as usize..span.end as usize])?;
    STATUSES.iter().position(|status| status.as_bytes() == text).map(|i| i as u8)
}

/// A well-formed string: where it lies, and its length in code points.
#[inline(always)]
fn string(p: &mut Parser<'_>) -> Option<(Span, usize)> {
    p.eat(b'"').then_some(())?;
    let start = p.position();
    let length = match p.string_body().ok()? {
        Decoded::Utf8(s) => code_points(s.as_bytes()),
        Decoded::Units(units) => {
            let mut count = 0;
            for unit in char::decode_utf16(units.iter().copied()) {
                unit.ok()?; // a lone surrogate: the full path reports it
                count += 1;
            }
            count
        }
    };
    let end = p.position() - 1;
    let escaped = p.text()[start..end].contains(&b'\\');
    Some((Span { start: start as u32, end: end as u32, escaped }, length))
}

/// Code points in UTF-8 text: the bytes that do not continue a sequence.
#[inline(always)]
fn code_points(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(text: &str, span: Span) -> &str {
        &text[span.start as usize..span.end as usize]
    }

    #[test]
    fn valid_text_is_read_with_the_place_of_every_string() {
        let text =
            r#" {"note":"n","x":{"deep":[1,{"a":null}]},"todos":[{"status":"pending","id":"a","content":"b\u00e9"}]} "#;
        let found = read(text.as_bytes(), false).unwrap();
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
        let ok = |text: String| read(text.as_bytes(), false).is_some();
        assert!(ok(args(&"😀".repeat(40), &"é".repeat(140), 8)));
        assert!(!ok(args(&"😀".repeat(41), "c", 1)));
        assert!(!ok(args("a", &"é".repeat(141), 1)));
        assert!(!ok(args("a", "c", 9)));
        assert!(!ok(args("a", "c", 0)));
        assert!(!ok(args("", "c", 1)));
        let focus = |n: usize| {
            format!(r#"{{"todos":[{{"id":"a","content":"c","status":"pending"}}],"focus":"{}"}}"#, "f".repeat(n))
        };
        assert!(ok(focus(40)) && !ok(focus(41)));
    }

    #[test]
    fn undefined_is_an_optional_keys_value_only_in_a_hosts_value() {
        let text = br#"{"todos":[{"id":"a","content":"c","status":"pending"}],"focus":undefined}"#;
        assert_eq!(read(text, true).unwrap().focus, Field::Undefined);
        assert_eq!(read(text, false), None);
    }

    #[test]
    fn anything_doubtful_goes_to_the_full_path() {
        for text in [
            r#"{"todos":[]}"#,
            r#"{"todos":[{"id":"","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"done"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pend\u0069ng"}]}"#,
            r#"{"todos":[{"id":"a","content":"b"}]}"#,
            r#"{"todos":5,"todos":[{"id":"a","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"\ud800","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"focus":null}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}]} x"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":[1,]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"x":undefined}"#,
            r#"[]"#,
        ] {
            assert_eq!(read(text.as_bytes(), false), None, "{text}");
        }
    }
}
