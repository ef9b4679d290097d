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
use crate::error::Result;
use crate::json::number::small_integer;
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
/// no components; then the base, and each component's name and text, raw (see
/// [`super::raw`]), their lengths in UTF-16 units as `lengths` gives them: one string of
/// numbers joined by commas (a hundred numbers as one string cost the JS layer and the
/// parser a fraction of a hundred values).
pub fn raw(given: Input<'_>, head: f64) -> Result<Status> {
    let (head, mut raw) = super::raw::split(given, head, "composePrompt")?;
    let a = Args::parse(head)?;
    let input: ComposeInput = a.options(0, "input", &compiled::COMPOSE_INPUT)?;
    let lengths = match a.get(1) {
        Value::String(lengths) => lengths,
        _ => return Err(raw.malformed("no list of lengths")),
    };
    // A length that is not a number is NaN, which no text has.
    let mut lengths = lengths.as_bytes().split(|&b| b == b',').map(|n| small_integer(n).unwrap_or(f64::NAN));
    let base = raw.next(lengths.next().unwrap_or(f64::NAN), BASE_MAX)?;
    let mut components = Vec::new();
    while let Some(name) = lengths.next() {
        if components.len() == COMPONENTS_MAX {
            return Err(raw.malformed("more components than the schema allows"));
        }
        let name = raw.next(name, NAME_MAX)?;
        if name.is_empty() {
            return Err(raw.malformed("an empty component name"));
        }
        components.push((name, raw.next(lengths.next().unwrap_or(f64::NAN), TEXT_MAX)?));
    }
    raw.finish()?;
    written(compose_texts(&input, &Texts { base, components }, "input")?)
}

/// `{prompt, components, unresolved}`, the prompt last (it may be long; see
/// [`Out::last_string`]).
fn written(composed: Composition<'_>) -> Result<Status> {
    fields(|out: &mut Out<'_>| {
        out.strings(&composed.components);
        out.strings(&composed.unresolved);
        out.last_string(&composed.prompt);
    })
}
