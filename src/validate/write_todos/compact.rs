//! The short way through the layout nearly every call has: the arguments as
//! `JSON.stringify` writes the schema's object, keys in schema order, no whitespace, no
//! escapes:
//!
//! `{"todos":[{"id":"…","content":"…","status":"…"},…]` then `,"focus":"…"` and
//! `,"note":"…"` if present, then `}`.
//!
//! Reading it is matching fixed bytes and scanning strings, with no key lookup; on a
//! 76-byte call it takes a third of the general reader's instructions. A string out of
//! its limits, a status out of the enum and a list over eight are noted as the general
//! reader notes them; whatever else differs (whitespace, another key order, an escape, a
//! value of another type) is left to the general reader.
//!
//! A twin of the general reader kept for speed: without it (`make bench`, one process)
//! `applyWriteTodos` of a one-todo call took 0.57 of JSON.parse + zod + state, over the
//! 0.5 limit (0.26–0.34 with it), and validating it 0.45.

use super::scan::scan_plain;
use super::{
    Field, Found, FoundTodo, FoundTodos, Mistake, Outcome, Place, Span, What, CONTENT, FOCUS, ID, MAX_TODOS, NOTE,
    STATUSES,
};
use crate::error::issue::Origin;
use crate::json::decimals::Decimals;
use crate::json::Parser;

/// What the compact layout says, when `text` has it: valid arguments, or the plain
/// mistakes of values out of their limits, in zod's order.
pub fn read(text: &[u8], decimals: Decimals) -> Option<Outcome> {
    let mut at = Cursor { text, pos: 0, decimals, mistakes: Vec::new() };
    at.literal(b"{\"todos\":[")?;
    let mut todos = FoundTodos::EMPTY;
    let mut count = 0usize;
    loop {
        if count == MAX_TODOS {
            // zod reports an oversized list alone, without reading its items.
            at.rest_of_list()?;
            at.mistakes.clear();
            at.note(Place::Todos, What::TooBig(Origin::Array, MAX_TODOS as u32));
            break;
        }
        let index = count as u32;
        at.literal(b"{\"id\":")?;
        let id = at.string(ID, Place::Id(index))?;
        at.literal(b",\"content\":")?;
        let content = at.string(CONTENT, Place::Content(index))?;
        at.literal(b",\"status\":")?;
        let status = at.status(Place::Status(index))?;
        at.literal(b"}")?;
        if let (Some(id), Some(content), Some(status)) = (id, content, status) {
            todos.push(FoundTodo { id, content, status });
        }
        count += 1;
        if !at.eat(b',') {
            at.literal(b"]")?;
            break;
        }
    }
    let focus = match at.literal(b",\"focus\":") {
        Some(()) => at.string(FOCUS, Place::Focus)?.map_or(Field::Absent, Field::Text),
        None => Field::Absent,
    };
    let note = match at.literal(b",\"note\":") {
        Some(()) => at.string(NOTE, Place::Note)?.map_or(Field::Absent, Field::Text),
        None => Field::Absent,
    };
    at.literal(b"}")?;
    (at.pos == text.len()).then_some(())?;
    Some(match at.mistakes.is_empty() {
        true => Outcome::Valid(Found { todos, focus, note }),
        false => Outcome::Invalid(at.mistakes),
    })
}

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
    /// For the numbers of the items past the eighth, read only to be skipped.
    decimals: Decimals,
    mistakes: Vec<Mistake>,
}

impl Cursor<'_> {
    #[inline(always)]
    fn literal(&mut self, bytes: &[u8]) -> Option<()> {
        let end = self.pos + bytes.len();
        (self.text.get(self.pos..end)? == bytes).then(|| self.pos = end)
    }

    #[inline(always)]
    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.text.get(self.pos) == Some(&byte);
        self.pos += usize::from(hit);
        hit
    }

    fn note(&mut self, at: Place, what: What) {
        self.mistakes.push(Mistake { at, what });
    }

    /// A string without escapes that is UTF-8: its span, or `None` inside when its
    /// length is out of `(min, max)` code points (the mistake noted).
    #[inline(always)]
    fn string(&mut self, (min, max): (usize, usize), at: Place) -> Option<Option<Span>> {
        let (span, code_points) = self.plain()?;
        if code_points < min {
            self.note(at, What::TooSmall(Origin::String, min as u32));
        } else if code_points > max {
            self.note(at, What::TooBig(Origin::String, max as u32));
        } else {
            return Some(Some(span));
        }
        Some(None)
    }

    #[inline(always)]
    fn plain(&mut self) -> Option<(Span, usize)> {
        let start = self.pos + 1;
        (self.text.get(self.pos) == Some(&b'"')).then_some(())?;
        let (end, code_points) = scan_plain(self.text, start)?;
        // Non-ASCII text must be UTF-8 to be sliced (WTF-8 holds lone surrogates).
        if code_points != end - start {
            std::str::from_utf8(&self.text[start..end]).ok()?;
        }
        self.pos = end + 1;
        Some((Span { start: start as u32, end: end as u32, escaped: false }, code_points))
    }

    /// A status: its index in `STATUSES`, or `None` inside for any other plain string
    /// (the mistake noted).
    #[inline(always)]
    fn status(&mut self, at: Place) -> Option<Option<u8>> {
        let (span, _) = self.plain()?;
        let index = STATUSES.iter().position(|s| s.as_bytes() == &self.text[span.start as usize..span.end as usize]);
        if index.is_none() {
            self.note(at, What::NotAStatus);
        }
        Some(index.map(|i| i as u8))
    }

    /// The items after the eighth and the list's end: any JSON, since zod reads none of
    /// them.
    fn rest_of_list(&mut self) -> Option<()> {
        let mut parser = Parser::unchecked(self.text);
        parser.set_position(self.pos);
        loop {
            parser.skip_whitespace();
            parser.skip_value(self.decimals).ok()?;
            parser.skip_whitespace();
            if parser.eat(b']') {
                break;
            }
            parser.eat(b',').then_some(())?;
        }
        self.pos = parser.position();
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::reader;
    use super::*;

    fn todo(id: &str, status: &str) -> String {
        format!(r#"{{"id":"{id}","content":"Do {id}","status":"{status}"}}"#)
    }

    #[test]
    fn the_compact_layout_is_read_as_the_general_reader_reads_it() {
        let texts = [
            format!(r#"{{"todos":[{}]}}"#, todo("a", "pending")),
            format!(r#"{{"todos":[{},{}],"focus":"f"}}"#, todo("a", "completed"), todo("é😀", "in_progress")),
            format!(r#"{{"todos":[{}],"focus":"","note":"n"}}"#, todo("a", "pending")),
            format!(r#"{{"todos":[{}]}}"#, vec![todo("a", "pending"); 8].join(",")),
            // Mistakes it notes itself.
            format!(r#"{{"todos":[{}]}}"#, todo("a", "done")),
            format!(r#"{{"todos":[{},{}]}}"#, todo("", "pending"), todo(&"i".repeat(41), "finished")),
            format!(
                r#"{{"todos":[{}],"focus":"{}","note":"{}"}}"#,
                todo("a", "pending"),
                "f".repeat(41),
                "n".repeat(201)
            ),
            format!(r#"{{"todos":[{}]}}"#, vec![todo("a", "pending"); 9].join(",")),
            {
                let eight: Vec<String> = (0..8).map(|i| todo(if i == 0 { "" } else { "a" }, "pending")).collect();
                format!(r#"{{"todos":[{}, 1, [2], {{"x": null}} ],"note":"n"}}"#, eight.join(","))
            },
        ];
        for text in &texts {
            let compact = read(text.as_bytes(), Decimals::RUST);
            assert!(compact.is_some(), "read the short way: {text}");
            assert_eq!(compact, Some(reader::read(text.as_bytes(), false, Decimals::RUST)), "{text}");
        }
    }

    #[test]
    fn anything_else_is_left_to_the_general_reader() {
        let others = [
            r#"{"todos": [{"id":"a","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"content":"b","id":"a","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a\n","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":5,"content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending","x":1}]}"#,
            r#"{"todos":[]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"focus":1}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}]} "#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"todos":[]}"#,
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"note":"n","focus":"f"}"#,
        ];
        for text in others {
            assert_eq!(read(text.as_bytes(), Decimals::RUST), None, "{text}");
        }
        let wtf8 = b"{\"todos\":[{\"id\":\"\xed\xa0\x80\",\"content\":\"b\",\"status\":\"pending\"}]}";
        assert_eq!(read(wtf8, Decimals::RUST), None, "a lone surrogate (WTF-8) is not sliced");
        let cut = format!(r#"{{"todos":[{},{{"id":"#, vec![todo("a", "pending"); 8].join(","));
        assert_eq!(
            read(cut.as_bytes(), Decimals::RUST),
            None,
            "a ninth item that is not JSON: the general reader says how"
        );
    }
}
