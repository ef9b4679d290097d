//! `write_todos` arguments given as a JS object, as the JS layer lays out what it read of
//! them (`src/wasm/js/object.ts`): the strings raw, joined, then 32-bit words. The words
//! are the list (1 and its length for an array, 0 for absent or `undefined`), then for
//! each of its items up to the limit its id, its content and its status, then `focus` and
//! `note`. A value where a string goes is a word below; a status is its index in
//! `STATUSES`, or `STATUSES.len()` for any other value. The layout is checked, not
//! trusted: one that does not add up is an internal error.

use super::raw::{self, Lengths, Raw};
use super::Input;
use crate::error::Result;
use crate::validate::write_todos::{check_object, Found, GivenTodo, Mistake, Span, Text, MAX_TODOS, STATUSES};

/// A value that is absent.
pub const ABSENT: u32 = 0;
pub const UNDEFINED: u32 = 1;
/// `OTHER + i`: a value of the type zod names `RECEIVED[i]`.
pub const OTHER: u32 = 2;
pub const RECEIVED: [&str; 6] = ["number", "NaN", "Infinity", "-Infinity", "boolean", "null"];
/// `STRING + n`: a well-formed string of `n` UTF-16 units, the next of the raw texts.
pub const STRING: u32 = 1 << 31;

/// Arguments as read, ready to be checked.
pub(crate) struct Given<'a> {
    list: Option<usize>,
    todos: [GivenTodo; MAX_TODOS],
    count: usize,
    focus: Text,
    note: Text,
    /// The joined strings, which the spans of valid arguments point into.
    pub texts: &'a [u8],
}

impl Given<'_> {
    pub fn check(&self) -> std::result::Result<Found, Vec<Mistake>> {
        check_object(self.list, &self.todos[..self.count], self.focus, self.note)
    }
}

/// Reads the layout of `given`; `what` names the call for an error.
pub(crate) fn read<'a>(given: Input<'a>, what: &'static str) -> Result<Given<'a>> {
    let (words, raw) = raw::words_last(given, what)?;
    let texts = raw.rest().as_bytes();
    let mut layout = Layout { words, raw, taken: 0 };
    let list = match layout.word()? {
        0 => None,
        1 => Some(layout.word()? as usize),
        _ => return Err(layout.raw.malformed("a list that is neither absent nor an array")),
    };
    let empty = GivenTodo { id: Text::Absent, content: Text::Absent, status: None };
    let mut todos = [empty; MAX_TODOS];
    let count = list.filter(|&n| n <= MAX_TODOS).unwrap_or(0);
    for todo in &mut todos[..count] {
        let (id, content) = (layout.text()?, layout.text()?);
        let status = layout.word()?;
        *todo =
            GivenTodo { id, content, status: u8::try_from(status).ok().filter(|&s| usize::from(s) < STATUSES.len()) };
    }
    let (focus, note) = (layout.text()?, layout.text()?);
    if layout.words.next().is_some() {
        return Err(layout.raw.malformed("more words than its values"));
    }
    layout.raw.finish()?;
    Ok(Given { list, todos, count, focus, note, texts })
}

struct Layout<'a> {
    words: Lengths<'a>,
    raw: Raw<'a>,
    /// Bytes of the texts taken so far.
    taken: usize,
}

impl Layout<'_> {
    fn word(&mut self) -> Result<u32> {
        match self.words.next() {
            Some(word) => Ok(word as u32),
            None => Err(self.raw.malformed("fewer words than its values")),
        }
    }

    /// A value where a string goes.
    fn text(&mut self) -> Result<Text> {
        Ok(match self.word()? {
            ABSENT => Text::Absent,
            UNDEFINED => Text::Undefined,
            word if word >= STRING => {
                let text = self.raw.next(f64::from(word - STRING), usize::MAX)?;
                let start = self.taken;
                self.taken += text.len();
                let span = Span { start: start as u32, end: self.taken as u32, escaped: false };
                Text::String(span, self.raw.characters(text))
            }
            word => match RECEIVED.get((word - OTHER) as usize) {
                Some(name) => Text::Other(name, None),
                None => return Err(self.raw.malformed("a value of no known type")),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `words` and `texts` as the JS layer lays them out.
    fn laid_out(words: &[u32], texts: &str) -> Vec<u8> {
        let mut bytes = texts.as_bytes().to_vec();
        bytes.extend(words.iter().copied().chain([words.len() as u32]).flat_map(u32::to_le_bytes));
        bytes
    }

    fn read_laid_out(words: &[u32], texts: &str) -> Result<Found> {
        let bytes = laid_out(words, texts);
        let given = read(Input { bytes: &bytes, ascii: texts.is_ascii() }, "test")?;
        Ok(given.check().expect("valid"))
    }

    #[test]
    fn strings_are_found_in_the_joined_texts_by_their_utf16_lengths() {
        // One todo ("é😀" and "b", in progress), no focus, the note "n".
        let found = read_laid_out(&[1, 1, STRING + 3, STRING + 1, 1, ABSENT, STRING + 1], "é😀bn").expect("laid out");
        let todo = found.todos[0];
        assert_eq!((todo.id.start, todo.id.end, todo.content.start, todo.content.end, todo.status), (0, 6, 6, 7, 1));
        assert_eq!(found.note, crate::validate::write_todos::Field::Text(Span { start: 7, end: 8, escaped: false }));
    }

    #[test]
    fn a_layout_that_does_not_add_up_is_an_internal_error() {
        for (words, texts) in [
            (&[1, 1, STRING + 1, STRING + 1, 0, ABSENT][..], "ab"),
            (&[1, 1, STRING + 1, STRING + 1, 0, ABSENT, ABSENT, ABSENT], "ab"),
            (&[1, 1, STRING + 1, STRING + 1, 0, ABSENT, ABSENT], "abc"),
            (&[1, 1, STRING + 1, STRING + 2, 0, ABSENT, ABSENT], "ab"),
            (&[1, 1, STRING + 1, STRING + 1, 0, ABSENT, ABSENT], "😀"),
            (&[2, ABSENT, ABSENT], ""),
            (&[0, OTHER + 6, ABSENT], ""),
        ] {
            let error = read_laid_out(words, texts).expect_err(texts);
            assert_eq!(error.code.as_str(), "internal", "{words:?} {texts}");
        }
        // A count of words past the input, or no count at all.
        for bytes in [vec![0, 0, 0, 0, 9, 0, 0, 0], u32::MAX.to_le_bytes().to_vec(), vec![1, 2, 3]] {
            let error = read(Input { bytes: &bytes, ascii: true }, "test").map(|_| ()).expect_err("no layout");
            assert_eq!(error.code.as_str(), "internal", "{bytes:?}");
        }
    }
}
