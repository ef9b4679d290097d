//! Plain `write_todos` mistakes (see `validate::write_todos`), written as the issues they
//! stand for without making those issues first: the invalid path of the primitives, kept
//! as fast as the valid one. It writes each issue's fields through the generated
//! `…IssueParts` writers (`field_parts.rs`), so the layout is the one `Issue`'s writer
//! has. Kept for speed: with the mistakes made issues and written as those instead,
//! `make bench`'s invalid row went from 0.12–0.24 to 0.26–0.91 of JSON.parse + zod
//! (limit 0.5; the module 1.1 KB gzip smaller).
//!
//! Every string of such an issue is one of a small set (the schema's keys and statuses,
//! and a message per kind of mistake), so each crosses as text once and then by its id
//! ([`Out::interned`]): a repeated mistake's issues need no text decoded in JS, which was
//! a quarter of their time.

use std::cell::RefCell;

use super::field_parts::{path_segment_index, path_segment_key};
use super::field_parts::{InvalidFormatIssueParts, InvalidTypeIssueParts, InvalidValueIssueParts};
use super::field_parts::{TooBigIssueParts, TooSmallIssueParts};
use super::io::Out;
use crate::error::issue::Origin;
use crate::validate::write_todos::{Mistake, Place, What, STATUSES};

thread_local! {
    /// The message of each kind of plain mistake, made once by the issue constructors
    /// (so that they are worded in one place) and reused.
    static MESSAGES: RefCell<Vec<(What, String)>> = const { RefCell::new(Vec::new()) };
    /// Which interned strings the JS layer has had (by id: [`NAMES`], then [`MESSAGES`]).
    static SENT: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
}

/// The names a plain mistake's issue holds, by id: the keys, then the statuses.
const NAMES: [&str; 9] = ["todos", "focus", "note", "id", "content", "status", STATUSES[0], STATUSES[1], STATUSES[2]];
const TODOS: usize = 0;
const FOCUS: usize = 1;
const NOTE: usize = 2;
const ID: usize = 3;
const CONTENT: usize = 4;
const STATUS: usize = 5;
const FIRST_STATUS: usize = 6;

impl Out<'_> {
    /// Plain mistakes as the list of issues they stand for, without making those issues.
    pub fn mistakes(&mut self, mistakes: &[Mistake]) {
        self.count(mistakes.len());
        for mistake in mistakes {
            let path = |out: &mut Out<'_>| place(out, mistake.at);
            let message =
                |out: &mut Out<'_>| with_message(mistake, |index, message| kept(out, NAMES.len() + index, message));
            match mistake.what {
                What::WrongType(expected, _) => InvalidTypeIssueParts { expected, path, message }.write(self),
                What::TooSmall(origin, limit) => {
                    TooSmallIssueParts { origin, minimum: f64::from(limit), inclusive: true, path, message }.write(self)
                }
                What::TooBig(origin, limit) => {
                    TooBigIssueParts { origin, maximum: f64::from(limit), inclusive: true, path, message }.write(self)
                }
                What::NotAStatus => {
                    let values = |out: &mut Out<'_>| {
                        out.count(STATUSES.len());
                        (FIRST_STATUS..FIRST_STATUS + STATUSES.len()).for_each(|id| name(out, id));
                    };
                    InvalidValueIssueParts { values, path, message }.write(self)
                }
                What::LoneSurrogate => InvalidFormatIssueParts { origin: Origin::String, path, message }.write(self),
            }
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
                with_message(mistake, |_, message| text.extend_from_slice(message.as_bytes()));
            }
        });
    }
}

/// The name `id` of [`NAMES`].
fn name(out: &mut Out<'_>, id: usize) {
    kept(out, id, NAMES[id]);
}

/// The interned string `id`, as text only if the JS layer has not had it.
fn kept(out: &mut Out<'_>, id: usize, text: &str) {
    let kept = SENT.with(|sent| {
        let mut sent = sent.borrow_mut();
        if sent.len() <= id {
            sent.resize(id + 1, false);
        }
        std::mem::replace(&mut sent[id], true)
    });
    out.interned(id as u32, text, kept);
}

/// Where a mistake is, as its issue's path.
fn place(out: &mut Out<'_>, place: Place) {
    let key = |out: &mut Out<'_>, id: usize| path_segment_key(out, |out: &mut Out<'_>| name(out, id));
    match place {
        Place::Root => out.count(0),
        Place::Todos | Place::Focus | Place::Note => {
            out.count(1);
            key(
                out,
                match place {
                    Place::Focus => FOCUS,
                    Place::Note => NOTE,
                    _ => TODOS,
                },
            );
        }
        Place::Todo(index) => {
            out.count(2);
            key(out, TODOS);
            path_segment_index(out, index);
        }
        Place::Id(index) | Place::Content(index) | Place::Status(index) => {
            out.count(3);
            key(out, TODOS);
            path_segment_index(out, index);
            key(
                out,
                match place {
                    Place::Id(_) => ID,
                    Place::Content(_) => CONTENT,
                    _ => STATUS,
                },
            );
        }
    }
}

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

/// Runs `write` with the message of `mistake`'s kind and its index in [`MESSAGES`], made
/// the first time it is needed.
fn with_message(mistake: &Mistake, write: impl FnOnce(usize, &str)) {
    MESSAGES.with(|messages| {
        let mut messages = messages.borrow_mut();
        let index = match messages.iter().position(|(what, _)| *what == mistake.what) {
            Some(index) => index,
            None => {
                messages.push((mistake.what, mistake.issue().message().to_owned()));
                messages.len() - 1
            }
        };
        write(index, &messages[index].1);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::issue::{Expected, Issue};
    use crate::wasm::{INTERNED, KEPT};

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
            Mistake { at: Place::Id(3), what: What::LoneSurrogate },
            Mistake { at: Place::Focus, what: What::TooBig(Origin::Unknown, 40) },
        ];
        let issues: Vec<Issue> = mistakes.iter().map(Mistake::issue).collect();
        let (mut numbers, mut text) = (Vec::new(), Vec::new());
        crate::wasm::field_writers::list(&mut Out::new(&mut numbers, &mut text), &issues);
        // (No other number of these issues has the high bit, and their text is ASCII.)
        assert!(numbers.iter().all(|n| n & INTERNED == 0) && text.is_ascii());
        SENT.with(|sent| sent.borrow_mut().clear());
        let mut known = Vec::new();
        for round in 0..2 {
            let (mut fast_numbers, mut fast_text) = (Vec::new(), Vec::new());
            Out::new(&mut fast_numbers, &mut fast_text).mistakes(&mistakes);
            assert_eq!(round == 1, fast_text.is_empty(), "the second time, every string is kept");
            assert_eq!(expanded(&fast_numbers, &fast_text, &mut known), (numbers.clone(), text.clone()));
        }
        let (mut summary_numbers, mut summary) = (Vec::new(), Vec::new());
        Out::new(&mut summary_numbers, &mut summary).summary("Head:\n", &mistakes);
        let expected = format!("Head:\n{}", crate::error::issue::summarize(&issues));
        assert_eq!(String::from_utf8(summary).unwrap(), expected);
    }

    /// The output as the JS layer reads it, each interned string written out as text
    /// (`known` holds what it has kept, by id).
    fn expanded(numbers: &[u32], text: &[u8], known: &mut Vec<Vec<u8>>) -> (Vec<u32>, Vec<u8>) {
        let (mut out, mut out_text) = (Vec::new(), Vec::new());
        let mut at = 0;
        while at < numbers.len() {
            let word = numbers[at];
            if word & INTERNED == 0 {
                out.push(word);
                at += 1;
                continue;
            }
            let id = (word ^ INTERNED) as usize;
            if numbers[at + 1] != KEPT {
                let (start, length) = (numbers[at + 1] as usize, numbers[at + 2] as usize);
                known.resize(known.len().max(id + 1), Vec::new());
                known[id] = text[start..start + length].to_vec();
                at += 1;
            }
            at += 2;
            out.extend([out_text.len() as u32, known[id].len() as u32]);
            out_text.extend_from_slice(&known[id]);
        }
        (out, out_text)
    }
}
