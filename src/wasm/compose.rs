//! `composePrompt` for JS, two ways in and one way out.
//!
//! A prompt's texts are most of its input: tens of kilobytes, mostly prose with line
//! breaks and quotes. Written as JSON they must be escaped, and V8's `JSON.stringify` of
//! them alone takes as long as composing the prompt in plain JS. So when the input's
//! shape is plain (the JS layer's `composePrompt` checks), the base prompt and the
//! components cross raw, after a small head that carries everything else; otherwise the
//! whole input crosses as any call's arguments do, and the schema says what is wrong
//! with it. The prompt comes back as fields, its text sliced from one decoded string.

use super::args::Args;
use super::io::fields;
use super::ops::Status;
use super::out::Out;
use super::Input;
use crate::error::{Error, Result};
use crate::json::value::Value;
use crate::prompts::compose::{compose_texts, ComposeInput, Composition, Texts};
use crate::prompts::compose::{BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX};
use crate::validate::compiled;

/// `[input]`, as any call's arguments.
pub fn encoded(input: &[u8]) -> Result<Status> {
    let a = Args::parse(input)?;
    let input: ComposeInput = a.options(0, "input", &compiled::COMPOSE_INPUT)?;
    written(compose_texts(&input, &Texts::of(&input.parts), "input")?)
}

/// The head `[input, lengths]` in its first `head` bytes, `input` with an empty base and
/// no components; then the base, and each component's name and text, raw, their lengths
/// in UTF-16 units as `lengths` gives them. The JS layer sends only texts within the
/// schema's limits and well-formed; that is checked again here (cheaply) rather than
/// trusted.
pub fn raw(given: Input<'_>, head: f64) -> Result<Status> {
    let bytes = given.bytes;
    let head = Some(head).filter(|h| h.fract() == 0.0 && *h >= 0.0 && *h <= bytes.len() as f64);
    let (head, body) = bytes.split_at(head.ok_or_else(|| malformed("a head past the input"))? as usize);
    let a = Args::parse(head)?;
    let input: ComposeInput = a.options(0, "input", &compiled::COMPOSE_INPUT)?;
    let lengths = match a.get(1) {
        Value::Array(lengths) if lengths.len() % 2 == 1 && lengths.len() <= 1 + 2 * COMPONENTS_MAX => lengths,
        _ => return Err(malformed("no list of lengths")),
    };
    let body = std::str::from_utf8(body).map_err(|_| malformed("texts that are not UTF-8"))?;
    let mut raw = Raw { rest: body, ascii: given.ascii };
    let base = raw.next(&lengths[0], BASE_MAX)?;
    let components = lengths[1..]
        .chunks(2)
        .map(|pair| {
            let name = raw.next(&pair[0], NAME_MAX)?;
            if name.is_empty() {
                return Err(malformed("an empty component name"));
            }
            Ok((name, raw.next(&pair[1], TEXT_MAX)?))
        })
        .collect::<Result<_>>()?;
    if !raw.rest.is_empty() {
        return Err(malformed("more text than its lengths say"));
    }
    written(compose_texts(&input, &Texts { base, components }, "input")?)
}

/// The raw texts not yet taken.
struct Raw<'a> {
    rest: &'a str,
    ascii: bool,
}

impl<'a> Raw<'a> {
    /// The next text, `length` UTF-16 units long and at most `max` characters.
    fn next(&mut self, length: &Value<'_>, max: usize) -> Result<&'a str> {
        let units = match length {
            Value::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n <= self.rest.len() as f64 => *n as usize,
            _ => return Err(malformed("a length out of the texts")),
        };
        let end = match self.ascii {
            true => units,
            false => utf16_end(self.rest, units).ok_or_else(|| malformed("a length inside a character"))?,
        };
        let (text, rest) = self.rest.split_at(end);
        // Characters are at most bytes: counted only when the bytes could be over.
        if text.len() > max && text.chars().count() > max {
            return Err(malformed("a text over its limit"));
        }
        self.rest = rest;
        Ok(text)
    }
}

/// The byte offset `units` UTF-16 units into `text`, if that is a character boundary.
fn utf16_end(text: &str, units: usize) -> Option<usize> {
    let mut counted = 0;
    for (at, c) in text.char_indices() {
        if counted == units {
            return Some(at);
        }
        counted += c.len_utf16();
    }
    (counted == units).then_some(text.len())
}

fn malformed(what: &str) -> Error {
    Error::internal(&format!("composePrompt's raw texts: {what}"))
}

/// `{prompt, components, unresolved}`.
fn written(composed: Composition<'_>) -> Result<Status> {
    fields(|out: &mut Out<'_>| {
        out.string(&composed.prompt);
        out.strings(&composed.components);
        out.strings(&composed.unresolved);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_lengths_end_on_character_boundaries_only() {
        let text = "aé😀b";
        assert_eq!(utf16_end(text, 0), Some(0));
        assert_eq!(utf16_end(text, 2), Some(3));
        assert_eq!(utf16_end(text, 3), None, "inside the surrogate pair");
        assert_eq!(utf16_end(text, 4), Some(7));
        assert_eq!(utf16_end(text, 5), Some(8));
        assert_eq!(utf16_end(text, 6), None, "past the end");
    }
}
