//! Validation issues for the JS layer to build (`src/wasm/js/issues.ts`): their shape as
//! numbers, their strings as one text. On the invalid path this is an order of magnitude
//! faster than `JSON.parse` of the same issues, and the messages are still written here.
//!
//! An issue is its kind (the order of [`Issue`]'s variants), its path (a count, then per
//! segment 0 and a string, or 1 and an index), its own fields, then its message. A string
//! is its start and length in the text, in UTF-16 units; a number (`minimum`,
//! `maximum`) is the two 32-bit halves of its double, low first.

use std::cell::RefCell;

use crate::error::issue::{Issue, Origin, PathSegment};
use crate::validate::write_todos::{Mistake, Place, What, STATUSES};

/// Writes into the call's outputs: `numbers`, and `text` (UTF-8).
pub struct IssueWriter<'o> {
    pub numbers: &'o mut Vec<u32>,
    pub text: &'o mut Vec<u8>,
    /// The text's length so far, in UTF-16 units.
    units: u32,
}

thread_local! {
    /// The message of each kind of plain mistake, made once by the issue constructors
    /// (so that they are worded in one place) and reused.
    static MESSAGES: RefCell<Vec<(What, String)>> = const { RefCell::new(Vec::new()) };
}

impl<'o> IssueWriter<'o> {
    pub fn new(numbers: &'o mut Vec<u32>, text: &'o mut Vec<u8>) -> Self {
        IssueWriter { numbers, text, units: 0 }
    }

    /// A count, then each issue.
    pub fn issues(&mut self, issues: &[Issue]) {
        self.numbers.push(issues.len() as u32);
        for issue in issues {
            self.issue(issue);
        }
    }

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
        let start = self.text.len();
        self.text.extend_from_slice(head.as_bytes());
        for (i, mistake) in mistakes.iter().enumerate() {
            if i > 0 {
                self.text.push(b'\n');
            }
            let path = crate::error::issue::format_path(&mistake.path());
            if !path.is_empty() {
                self.text.extend_from_slice(path.as_bytes());
                self.text.extend_from_slice(b": ");
            }
            let text = &mut *self.text;
            with_message(mistake, |message| text.extend_from_slice(message.as_bytes()));
        }
        let length = (self.text.len() - start) as u32;
        self.numbers.extend([self.units, length]);
        self.units += length;
    }

    /// Appends `s` to the text and refers to it.
    pub fn string(&mut self, s: &str) {
        let length = s.encode_utf16().count() as u32;
        self.numbers.extend([self.units, length]);
        self.text.extend_from_slice(s.as_bytes());
        self.units += length;
    }

    /// [`Self::string`] for ASCII text, whose length needs no counting.
    fn ascii(&mut self, s: &str) {
        let length = s.len() as u32;
        self.numbers.extend([self.units, length]);
        self.text.extend_from_slice(s.as_bytes());
        self.units += length;
    }

    fn mistake_message(&mut self, mistake: &Mistake) {
        let start = self.text.len();
        let text = &mut *self.text;
        with_message(mistake, |message| text.extend_from_slice(message.as_bytes()));
        let length = (self.text.len() - start) as u32;
        self.numbers.extend([self.units, length]);
        self.units += length;
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

    fn issue(&mut self, issue: &Issue) {
        let kind = match issue {
            Issue::InvalidType(_) => 0,
            Issue::TooSmall(_) => 1,
            Issue::TooBig(_) => 2,
            Issue::InvalidValue(_) => 3,
            Issue::UnrecognizedKeys(_) => 4,
            Issue::InvalidUnion(_) => 5,
            Issue::InvalidFormat(_) => 6,
            Issue::InvalidJson(_) => 7,
            Issue::Custom(_) => 8,
        };
        self.numbers.push(kind);
        self.path(issue.path());
        match issue {
            Issue::InvalidType(i) => self.numbers.push(i.expected as u32),
            Issue::TooSmall(i) => self.size(i.origin, i.minimum, i.inclusive),
            Issue::TooBig(i) => self.size(i.origin, i.maximum, i.inclusive),
            Issue::InvalidValue(i) => self.strings(&i.values),
            Issue::UnrecognizedKeys(i) => self.strings(&i.keys),
            Issue::InvalidUnion(i) => {
                self.numbers.push(i.errors.len() as u32);
                for alternative in &i.errors {
                    self.issues(alternative);
                }
            }
            Issue::InvalidFormat(i) => self.numbers.push(i.origin as u32),
            Issue::InvalidJson(i) => self.numbers.push(i.position),
            Issue::Custom(_) => {}
        }
        self.string(issue.message());
    }

    fn path(&mut self, path: &[PathSegment]) {
        self.numbers.push(path.len() as u32);
        for segment in path {
            match segment {
                PathSegment::Key(key) => {
                    self.numbers.push(0);
                    self.string(key);
                }
                PathSegment::Index(index) => self.numbers.extend([1, *index, 0]),
            }
        }
    }

    fn size(&mut self, origin: Origin, limit: f64, inclusive: bool) {
        let bits = limit.to_bits();
        self.numbers.extend([origin as u32, bits as u32, (bits >> 32) as u32, u32::from(inclusive)]);
    }

    fn strings(&mut self, strings: &[String]) {
        self.numbers.push(strings.len() as u32);
        for s in strings {
            self.string(s);
        }
    }
}

/// Runs `write` with the message of `mistake`'s kind, made the first time it is needed.
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
    use crate::error::issue::Expected;

    #[test]
    fn a_mistake_is_written_as_its_issue_would_be() {
        let mistakes = [
            Mistake { at: Place::Status(2), what: What::NotAStatus },
            Mistake { at: Place::Id(0), what: What::TooBig(Origin::String, 40) },
            Mistake { at: Place::Root, what: What::WrongType(Expected::Object, "array") },
            Mistake { at: Place::Todo(1), what: What::WrongType(Expected::Object, "null") },
            Mistake { at: Place::Focus, what: What::TooSmall(Origin::String, 1) },
        ];
        let issues: Vec<Issue> = mistakes.iter().map(Mistake::issue).collect();
        let (mut fast_numbers, mut fast_text) = (Vec::new(), Vec::new());
        IssueWriter::new(&mut fast_numbers, &mut fast_text).mistakes(&mistakes);
        let (mut numbers, mut text) = (Vec::new(), Vec::new());
        IssueWriter::new(&mut numbers, &mut text).issues(&issues);
        assert_eq!(fast_numbers, numbers);
        assert_eq!(fast_text, text);
        let (mut summary_numbers, mut summary) = (Vec::new(), Vec::new());
        IssueWriter::new(&mut summary_numbers, &mut summary).summary("Head:\n", &mistakes);
        let expected = format!("Head:\n{}", crate::error::issue::summarize(&issues));
        assert_eq!(String::from_utf8(summary).unwrap(), expected);
    }
}
