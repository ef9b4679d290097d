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
/// [`super::raw`]), their lengths in UTF-16 units as `lengths` gives them.
pub fn raw(given: Input<'_>, head: f64) -> Result<Status> {
    let (head, mut raw) = super::raw::split(given, head, "composePrompt")?;
    let a = Args::parse(head)?;
    let input: ComposeInput = a.options(0, "input", &compiled::COMPOSE_INPUT)?;
    let lengths = match a.get(1) {
        Value::Array(lengths) if lengths.len() % 2 == 1 && lengths.len() <= 1 + 2 * COMPONENTS_MAX => lengths,
        _ => return Err(raw.malformed("no list of lengths")),
    };
    let length = |value: &Value<'_>| match value {
        Value::Number(n) => *n,
        _ => f64::NAN,
    };
    let base = raw.next(length(&lengths[0]), BASE_MAX)?;
    let components = lengths[1..]
        .chunks(2)
        .map(|pair| {
            let name = raw.next(length(&pair[0]), NAME_MAX)?;
            if name.is_empty() {
                return Err(raw.malformed("an empty component name"));
            }
            Ok((name, raw.next(length(&pair[1]), TEXT_MAX)?))
        })
        .collect::<Result<_>>()?;
    raw.finish()?;
    written(compose_texts(&input, &Texts { base, components }, "input")?)
}

/// `{prompt, components, unresolved}`.
fn written(composed: Composition<'_>) -> Result<Status> {
    fields(|out: &mut Out<'_>| {
        out.string(&composed.prompt);
        out.strings(&composed.components);
        out.strings(&composed.unresolved);
    })
}
