//! `write_todos` arguments given as a JS object, as the JS layer lays out what it read of
//! them (`src/wasm/js/object.ts`): the strings raw, joined, then 32-bit words. The words
//! are the list (1 and its length for an array, 0 for absent or `undefined`), then for
//! each of its items up to the limit its id, its content and its status, then `focus` and
//! `note`. A value where a string goes is a word below (a number followed by the two
//! halves of its bits, low first, so that it is named here as the full path names it); a
//! status is its index in `STATUSES`, or `STATUSES.len()` for any other value. The layout
//! is checked, not trusted: one that does not add up is an internal error.

use super::raw::{self, Raw, Words};
use super::Input;
use crate::error::Result;
use crate::json::value::Value;
use crate::validate::input::scalar_name;
use crate::validate::write_todos::{check_object, Found, GivenTodo, Mistake, Span, Text, MAX_TODOS, STATUSES};

/// A value that is absent.
pub const ABSENT: u32 = 0;
pub const UNDEFINED: u32 = 1;
/// A number; the next two words are its bits.
pub const NUMBER: u32 = 2;
pub const BOOLEAN: u32 = 3;
pub const NULL: u32 = 4;
/// `STRING + n`: a well-formed string of `n` UTF-16 units, the next of the raw texts.
pub const STRING: u32 = 1 << 31;

/// Arguments as read, checked: valid ones (their spans point into `texts`, the joined
/// strings) or their mistakes.
pub(crate) struct Checked<'a> {
    pub outcome: std::result::Result<Found, Vec<Mistake>>,
    pub texts: &'a [u8],
}

/// Reads the layout of `given` and checks what it says; `what` names the call for an error.
pub(crate) fn check<'a>(given: Input<'a>, what: &'static str) -> Result<Checked<'a>> {
    let (words, raw) = raw::words_last(given, what)?;
    let texts = raw.rest().as_bytes();
    let mut layout = Layout { words, raw, taken: 0 };
    match layout.check() {
        Some(outcome) if layout.words.next().is_none() => layout.raw.finish().map(|()| Checked { outcome, texts }),
        _ => Err(layout.raw.malformed("words that do not add up")),
    }
}

struct Layout<'a> {
    words: Words<'a>,
    raw: Raw<'a>,
    /// Bytes of the texts taken so far.
    taken: usize,
}

impl Layout<'_> {
    // (`Option`s here, one error at the end: an `Error` per step made reading the words
    // take twice as long. The todos are checked where they were read, not moved.)
    fn check(&mut self) -> Option<std::result::Result<Found, Vec<Mistake>>> {
        let list = match self.word()? {
            0 => None,
            1 => Some(self.word()? as usize),
            _ => return None,
        };
        let empty = GivenTodo { id: Text::Absent, content: Text::Absent, status: None };
        let mut todos = [empty; MAX_TODOS];
        let count = list.filter(|&n| n <= MAX_TODOS).unwrap_or(0);
        for todo in &mut todos[..count] {
            let (id, content) = (self.text()?, self.text()?);
            let status = u8::try_from(self.word()?).ok().filter(|&s| usize::from(s) < STATUSES.len());
            *todo = GivenTodo { id, content, status };
        }
        let (focus, note) = (self.text()?, self.text()?);
        Some(check_object(list, &todos[..count], focus, note))
    }

    // (`word` and `text`, and the raw reader's `Words::next` and `word`, are inlined:
    // this module's inliner leaves calls of cost over 50 (scripts/build.mjs), and as
    // calls they made a call with one to eight todos 6-9 % slower.)
    #[inline]
    fn word(&mut self) -> Option<u32> {
        self.words.next()
    }
    /// A value where a string goes.
    #[inline]
    fn text(&mut self) -> Option<Text> {
        Some(match self.word()? {
            ABSENT => Text::Absent,
            UNDEFINED => Text::Undefined,
            word if word >= STRING => {
                let text = self.raw.take((word - STRING) as usize, usize::MAX).ok()?;
                let start = self.taken;
                self.taken += text.len();
                let span = Span { start: start as u32, end: self.taken as u32, escaped: false };
                Text::String(span, self.raw.characters(text))
            }
            NUMBER => {
                let bits = u64::from(self.word()?) | u64::from(self.word()?) << 32;
                Text::Other(scalar_name(&Value::Number(f64::from_bits(bits))), None)
            }
            BOOLEAN => Text::Other(scalar_name(&Value::Bool(false)), None),
            NULL => Text::Other(scalar_name(&Value::Null), None),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::issue::Expected;

    /// `words` and `texts` as the JS layer lays them out.
    fn laid_out(words: &[u32], texts: &str) -> Vec<u8> {
        let mut bytes = texts.as_bytes().to_vec();
        bytes.extend(words.iter().copied().chain([words.len() as u32]).flat_map(u32::to_le_bytes));
        bytes
    }

    fn read_laid_out(words: &[u32], texts: &str) -> Result<Found> {
        let bytes = laid_out(words, texts);
        Ok(check(Input { bytes: &bytes, ascii: texts.is_ascii() }, "test")?.outcome.expect("valid"))
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
    fn a_number_crosses_as_its_bits_and_is_named_as_zod_names_it() {
        use crate::validate::write_todos::{Place, What};
        let number = |n: f64| [NUMBER, n.to_bits() as u32, (n.to_bits() >> 32) as u32];
        for (n, name) in [(f64::NAN, "NaN"), (f64::NEG_INFINITY, "-Infinity"), (-0.0, "number"), (1e300, "number")] {
            let words = [&[1, 1][..], &number(n), &[STRING + 1, 0, ABSENT, ABSENT]].concat();
            let bytes = laid_out(&words, "c");
            let mistakes = check(Input { bytes: &bytes, ascii: true }, "test")
                .expect("laid out")
                .outcome
                .expect_err("a number id");
            assert_eq!((mistakes[0].at, mistakes[0].what), (Place::Id(0), What::WrongType(Expected::String, name)));
        }
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
            (&[0, NULL + 1, ABSENT], ""),
            (&[0, NUMBER, 0], ""),
        ] {
            let error = read_laid_out(words, texts).expect_err(texts);
            assert_eq!(error.code.as_str(), "internal", "{words:?} {texts}");
        }
        // A count of words past the input, or no count at all.
        for bytes in [vec![0, 0, 0, 0, 9, 0, 0, 0], u32::MAX.to_le_bytes().to_vec(), vec![1, 2, 3]] {
            let error = check(Input { bytes: &bytes, ascii: true }, "test").map(|_| ()).expect_err("no layout");
            assert_eq!(error.code.as_str(), "internal", "{bytes:?}");
        }
    }
}
