//! `write_todos` arguments a JS caller gave as an object (LangChain.js, the AI SDK and the
//! OpenAI Agents SDK hand a tool its arguments parsed), as the JS layer read them: the
//! list's length and, of its items up to the limit, what each value the schema reads is.
//! Nothing is parsed here; the checks are the text reader's (`checks.rs`), so the two
//! answer alike, and the tests below hold them to each other.

use super::checks::{Checks, Text};
use super::{Found, Mistake};

/// A todo's values as read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GivenTodo {
    pub id: Text,
    pub content: Text,
    /// An index into [`super::STATUSES`], or `None` for any other value.
    pub status: Option<u8>,
}

/// The answer for arguments whose list has `list` items (`None`: absent or `undefined`),
/// the first of which (at most [`super::MAX_TODOS`]; zod reads none of a longer list) are
/// `todos`, and whose `focus` and `note` are as given.
pub fn check_object(list: Option<usize>, todos: &[GivenTodo], focus: Text, note: Text) -> Result<Found, Vec<Mistake>> {
    let mut checks = Checks::new();
    let list = list.map(|count| {
        for (index, todo) in todos.iter().enumerate() {
            checks.todo(index as u32, todo.id, todo.content, todo.status);
        }
        checks.list(0, count)
    });
    checks.finish(list, focus, note)
}

#[cfg(test)]
mod tests {
    use super::super::agreement::data;
    use super::super::{read, Outcome, Span, MAX_TODOS, STATUSES};
    use super::*;
    use crate::json::decimals::Decimals;
    use crate::test_rng::{rounds, Rng};

    /// A value where the schema wants a string, as generated.
    #[derive(Clone)]
    enum Given {
        Absent,
        Undefined,
        String(String),
        /// A JSON literal (or the host encoding's word) and the name zod gives it.
        Other(&'static str, &'static str),
    }

    const OTHERS: [(&str, &str); 6] = [
        ("5", "number"),
        ("NaN", "NaN"),
        ("-Infinity", "-Infinity"),
        ("true", "boolean"),
        ("null", "null"),
        ("1e999", "Infinity"),
    ];

    /// A value; of a `clean` call's, a string within every limit.
    fn given(rng: &mut Rng, clean: bool) -> Given {
        if clean {
            return Given::String(rng.pick(&["a", "é😀", "Read the note"]).to_string());
        }
        match rng.below(10) {
            0 => Given::Absent,
            1 => Given::Undefined,
            2 => {
                let (literal, name) = *rng.pick(&OTHERS);
                Given::Other(literal, name)
            }
            _ => {
                let length = *rng.pick(&[0, 1, 2, 39, 40, 41, 139, 140, 141, 199, 200, 201]);
                let unit = *rng.pick(&["a", "é", "中", "😀", "\"", "\n"]);
                Given::String(unit.repeat(length))
            }
        }
    }

    /// `name: value` in the host encoding, or nothing for an absent value.
    fn member(out: &mut Vec<String>, name: &str, value: &Given) {
        match value {
            Given::Absent => {}
            Given::Undefined => out.push(format!("\"{name}\":undefined")),
            Given::String(text) => out.push(format!("\"{name}\":{}", serde_json::to_string(text).unwrap())),
            Given::Other(literal, _) => out.push(format!("\"{name}\":{literal}")),
        }
    }

    /// `value` as the JS layer reads it, its string appended to `texts`.
    fn text(value: &Given, texts: &mut String) -> Text {
        match value {
            Given::Absent => Text::Absent,
            Given::Undefined => Text::Undefined,
            Given::Other(_, name) => Text::Other(name, None),
            Given::String(text) => {
                let start = texts.len() as u32;
                texts.push_str(text);
                Text::String(Span { start, end: texts.len() as u32, escaped: false }, text.chars().count())
            }
        }
    }

    #[test]
    fn an_object_read_by_the_js_layer_is_answered_as_its_encoding_is_read() {
        let mut rng = Rng::for_test(0x000b_1ec7);
        let (mut valid, mut invalid) = (0, 0);
        for _ in 0..rounds(20_000) {
            let (mut members, mut texts, mut todos) = (Vec::new(), String::new(), Vec::new());
            let clean = rng.below(3) == 0;
            let list = match rng.below(8) {
                _ if clean => Some(*rng.pick(&[1, 2, 8])),
                0 => None,
                _ => Some(*rng.pick(&[0, 1, 1, 2, 3, 8, 8, 9, 40])),
            };
            if let Some(count) = list {
                let mut items = Vec::new();
                for _ in 0..count {
                    let (id, content) = (given(&mut rng, clean), given(&mut rng, clean));
                    let status = match rng.below(6) {
                        _ if clean => Some(*rng.pick(&[0u8, 1, 2])),
                        0 => None,
                        _ => Some(*rng.pick(&[0u8, 1, 2, 3])),
                    };
                    let mut fields = Vec::new();
                    member(&mut fields, "id", &id);
                    member(&mut fields, "content", &content);
                    match status {
                        Some(3) => fields.push("\"status\":\"done\"".to_owned()),
                        Some(index) => fields.push(format!("\"status\":\"{}\"", STATUSES[index as usize])),
                        None => {}
                    }
                    items.push(format!("{{{}}}", fields.join(",")));
                    if count <= MAX_TODOS {
                        let (id, content) = (text(&id, &mut texts), text(&content, &mut texts));
                        todos.push(GivenTodo { id, content, status: status.filter(|&s| s < 3) });
                    }
                }
                members.push(format!("\"todos\":[{}]", items.join(",")));
            } else if rng.below(2) == 0 {
                members.push("\"todos\":undefined".to_owned());
            }
            let (focus, note) = (given(&mut rng, clean), given(&mut rng, clean));
            member(&mut members, "focus", &focus);
            member(&mut members, "note", &note);
            let encoded = format!("{{{}}}", members.join(","));
            let (focus, note) = (text(&focus, &mut texts), text(&note, &mut texts));
            match (read(encoded.as_bytes(), true, Decimals::RUST), check_object(list, &todos, focus, note)) {
                (Outcome::Valid(by_text), Ok(by_object)) => {
                    assert_eq!(data(&by_text, encoded.as_bytes()), data(&by_object, texts.as_bytes()), "{encoded}");
                    valid += 1;
                }
                (Outcome::Invalid(by_text), Err(by_object)) => {
                    assert_eq!(by_text, by_object, "{encoded}");
                    invalid += 1;
                }
                (by_text, by_object) => panic!("{encoded}: {by_text:?} but {by_object:?}"),
            }
        }
        assert!(valid > rounds(20_000) / 50 && invalid > rounds(20_000) / 2, "{valid} valid, {invalid} invalid");
    }
}
