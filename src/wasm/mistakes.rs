//! Plain `write_todos` mistakes (see `validate::write_todos`), written as the issues they
//! stand for (`wasm::issues`) without making those issues first: the invalid path of the
//! primitives, kept as fast as the valid one.

use std::cell::RefCell;

use super::out::Out;
use crate::validate::write_todos::{Mistake, Place, What, STATUSES};

thread_local! {
    /// The message of each kind of plain mistake, made once by the issue constructors
    /// (so that they are worded in one place) and reused.
    static MESSAGES: RefCell<Vec<(What, String)>> = const { RefCell::new(Vec::new()) };
}

impl Out<'_> {
    /// [`Self::issues`] for plain mistakes, without making them issues first.
    pub fn mistakes(&mut self, mistakes: &[Mistake]) {
        self.numbers.push(mistakes.len() as u32);
        for mistake in mistakes {
            self.numbers.push(match mistake.what {
                What::WrongType(..) => 0,
                What::TooSmall(..) => 1,
                What::TooBig(..) => 2,
                What::NotAStatus => 3,
            });
            self.place(mistake.at);
            match mistake.what {
                What::WrongType(expected, _) => self.numbers.push(expected as u32),
                What::TooSmall(origin, limit) | What::TooBig(origin, limit) => {
                    self.size(origin, f64::from(limit), true)
                }
                What::NotAStatus => {
                    self.numbers.push(STATUSES.len() as u32);
                    for status in STATUSES {
                        self.ascii(status);
                    }
                }
            }
            self.mistake_message(mistake);
        }
    }

    /// The summary of plain mistakes a model reads (as `issue::summarize` writes it).
    pub fn summary(&mut self, head: &str, mistakes: &[Mistake]) {
        self.string_with(|text| {
            text.extend_from_slice(head.as_bytes());
            for (i, mistake) in mistakes.iter().enumerate() {
                if i > 0 {
                    text.push(b'\n');
                }
                if dotted(mistake.at, text) {
                    text.extend_from_slice(b": ");
                }
                with_message(mistake, |message| text.extend_from_slice(message.as_bytes()));
            }
        });
    }

    fn mistake_message(&mut self, mistake: &Mistake) {
        self.string_with(|text| with_message(mistake, |message| text.extend_from_slice(message.as_bytes())));
    }

    fn place(&mut self, place: Place) {
        let in_todo = |writer: &mut Self, index: u32, field: &str| {
            writer.numbers.push(3);
            writer.numbers.push(0);
            writer.ascii("todos");
            writer.numbers.extend([1, index, 0]);
            writer.numbers.push(0);
            writer.ascii(field);
        };
        match place {
            Place::Root => self.numbers.push(0),
            Place::Todos | Place::Focus | Place::Note => {
                self.numbers.extend([1, 0]);
                self.ascii(match place {
                    Place::Todos => "todos",
                    Place::Focus => "focus",
                    _ => "note",
                });
            }
            Place::Todo(index) => {
                self.numbers.extend([2, 0]);
                self.ascii("todos");
                self.numbers.extend([1, index, 0]);
            }
            Place::Id(index) => in_todo(self, index, "id"),
            Place::Content(index) => in_todo(self, index, "content"),
            Place::Status(index) => in_todo(self, index, "status"),
        }
    }
}

/// Runs `write` with the message of `mistake`'s kind, made the first time it is needed.
/// Writes where a mistake is as `issue::format_path` would (`todos[0].id`), without
/// building its path first (most of the cost of a summary); false at the root.
fn dotted(place: Place, text: &mut Vec<u8>) -> bool {
    let (index, field) = match place {
        Place::Root => return false,
        Place::Focus => (None, "focus"),
        Place::Note => (None, "note"),
        Place::Todos => (None, ""),
        Place::Todo(index) => (Some(index), ""),
        Place::Id(index) => (Some(index), ".id"),
        Place::Content(index) => (Some(index), ".content"),
        Place::Status(index) => (Some(index), ".status"),
    };
    if !matches!(place, Place::Focus | Place::Note) {
        text.extend_from_slice(b"todos");
    }
    if let Some(index) = index {
        text.push(b'[');
        let start = text.len();
        let mut rest = index;
        loop {
            text.push(b'0' + (rest % 10) as u8);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        text[start..].reverse();
        text.push(b']');
    }
    text.extend_from_slice(field.as_bytes());
    true
}

fn with_message(mistake: &Mistake, write: impl FnOnce(&str)) {
    MESSAGES.with(|messages| {
        let mut messages = messages.borrow_mut();
        let index = match messages.iter().position(|(what, _)| *what == mistake.what) {
            Some(index) => index,
            None => {
                messages.push((mistake.what, mistake.issue().message().to_owned()));
                messages.len() - 1
            }
        };
        write(&messages[index].1);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::issue::{Expected, Issue, Origin};

    #[test]
    fn a_mistake_is_written_as_its_issue_would_be() {
        let mistakes = [
            Mistake { at: Place::Status(2), what: What::NotAStatus },
            Mistake { at: Place::Id(0), what: What::TooBig(Origin::String, 40) },
            Mistake { at: Place::Root, what: What::WrongType(Expected::Object, "array") },
            Mistake { at: Place::Todo(1), what: What::WrongType(Expected::Object, "null") },
            Mistake { at: Place::Focus, what: What::TooSmall(Origin::String, 1) },
            Mistake { at: Place::Todos, what: What::TooBig(Origin::Array, 8) },
            Mistake { at: Place::Content(1234), what: What::TooSmall(Origin::String, 1) },
            Mistake { at: Place::Note, what: What::TooBig(Origin::String, 200) },
        ];
        let issues: Vec<Issue> = mistakes.iter().map(Mistake::issue).collect();
        let (mut fast_numbers, mut fast_text) = (Vec::new(), Vec::new());
        Out::new(&mut fast_numbers, &mut fast_text).mistakes(&mistakes);
        let (mut numbers, mut text) = (Vec::new(), Vec::new());
        Out::new(&mut numbers, &mut text).issues(&issues);
        assert_eq!(fast_numbers, numbers);
        assert_eq!(fast_text, text);
        let (mut summary_numbers, mut summary) = (Vec::new(), Vec::new());
        Out::new(&mut summary_numbers, &mut summary).summary("Head:\n", &mistakes);
        let expected = format!("Head:\n{}", crate::error::issue::summarize(&issues));
        assert_eq!(String::from_utf8(summary).unwrap(), expected);
    }
}
