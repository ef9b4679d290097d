//! zod's checks of the values the schema reads, as the reader (`reader.rs`) found them:
//! it says what each value is; these note the mistakes in zod's order (schema order,
//! whatever the order of the keys) and keep the valid todos.

use super::{Field, Found, FoundTodo, FoundTodos, Mistake, Place, Span, What, CONTENT, FOCUS, ID, MAX_TODOS, NOTE};
use crate::error::issue::{Expected, Origin};

/// A value as read where the schema wants a string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Text {
    Absent,
    Undefined,
    /// A well-formed string and its length in code points.
    String(Span, usize),
    /// A string holding lone surrogates, and its length (each of them one).
    IllFormed(usize),
    /// A value of another type: the name zod gives it, and its `length` as zod's length
    /// checks read it, if it has one (an array's count; an object's `length` member).
    Other(&'static str, Option<(Origin, f64)>),
}

/// The mistakes noted so far, and the valid todos.
pub struct Checks {
    pub(super) mistakes: Vec<Mistake>,
    /// Kept here, not returned up a reader's calls: it is a few hundred bytes, and moving
    /// it costs more than reading a short call.
    pub(super) todos: FoundTodos,
}

impl Checks {
    pub const fn new() -> Self {
        Checks { mistakes: Vec::new(), todos: FoundTodos::EMPTY }
    }

    pub fn note(&mut self, at: Place, what: What) {
        self.mistakes.push(Mistake { at, what });
    }

    /// Todo `index`: its mistakes noted, kept when it has none. `status` is an index into
    /// [`super::STATUSES`], or `None` for any other value (zod's `invalid_value`).
    pub fn todo(&mut self, index: u32, id: Text, content: Text, status: Option<u8>) {
        let before = self.mistakes.len();
        let id = self.required(id, ID, Place::Id(index));
        let content = self.required(content, CONTENT, Place::Content(index));
        if status.is_none() {
            self.note(Place::Status(index), What::NotAStatus);
        }
        if let (Some(id), Some(content), Some(status)) = (id, content, status) {
            if self.mistakes.len() == before {
                self.todos.push(FoundTodo { id, content, status });
            }
        }
    }

    /// The end of a list of `count` items whose own mistakes were noted after the first
    /// `before`: whether it is valid.
    pub fn list(&mut self, before: usize, count: usize) -> bool {
        // zod reports an oversized list alone, without reading its items.
        if count > MAX_TODOS {
            self.mistakes.truncate(before);
            self.note(Place::Todos, What::TooBig(Origin::Array, MAX_TODOS as u32));
            return false;
        }
        if count == 0 {
            self.note(Place::Todos, What::TooSmall(Origin::Array, 1));
        }
        self.mistakes.len() == before && count > 0
    }

    /// A value that is not an array where the list goes: zod measures what has a
    /// `length` against the list's limits.
    pub fn not_a_list(&mut self, value: Text) {
        match value {
            Text::String(_, length) | Text::IllFormed(length) => {
                self.note(Place::Todos, What::WrongType(Expected::Array, "string"));
                self.sizes(Place::Todos, Origin::String, length as f64, (1, MAX_TODOS));
            }
            Text::Other(received, measured) => {
                self.note(Place::Todos, What::WrongType(Expected::Array, received));
                if let Some((origin, length)) = measured {
                    self.sizes(Place::Todos, origin, length, (1, MAX_TODOS));
                }
            }
            Text::Absent | Text::Undefined => self.note(Place::Todos, What::WrongType(Expected::Array, "undefined")),
        }
    }

    /// The answer, once the list was read (`Some`, whether it is valid) or found absent,
    /// then `focus` and `note`.
    pub fn finish(mut self, list: Option<bool>, focus: Text, note: Text) -> Result<Found, Vec<Mistake>> {
        if list.is_none() {
            self.note(Place::Todos, What::WrongType(Expected::Array, "undefined"));
        }
        let focus = self.optional(focus, FOCUS, Place::Focus);
        let note = self.optional(note, NOTE, Place::Note);
        match list {
            Some(true) if self.mistakes.is_empty() => Ok(Found { todos: self.todos, focus, note }),
            _ => Err(self.mistakes),
        }
    }

    /// A required string field's span, its mistakes noted.
    fn required(&mut self, value: Text, (min, max): (usize, usize), at: Place) -> Option<Span> {
        match value {
            Text::String(span, length) if (min..=max).contains(&length) => Some(span),
            Text::String(_, length) => {
                self.sizes(at, Origin::String, length as f64, (min, max));
                None
            }
            Text::IllFormed(length) => {
                self.sizes(at, Origin::String, length as f64, (min, max));
                self.note(at, What::LoneSurrogate);
                None
            }
            Text::Other(received, measured) => {
                self.note(at, What::WrongType(Expected::String, received));
                if let Some((origin, length)) = measured {
                    self.sizes(at, origin, length, (min, max));
                }
                None
            }
            Text::Absent | Text::Undefined => {
                self.note(at, What::WrongType(Expected::String, "undefined"));
                None
            }
        }
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

    /// zod's length checks of a value against `(min, max)` (a minimum of 0 is none),
    /// compared as zod compares, so that a length that is not a number fails both.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn sizes(&mut self, at: Place, origin: Origin, length: f64, (min, max): (usize, usize)) {
        if min > 0 && !(length >= min as f64) {
            self.note(at, What::TooSmall(origin, min as u32));
        }
        if !(length <= max as f64) {
            self.note(at, What::TooBig(origin, max as u32));
        }
    }
}
