//! The prompt as it is written, part by part, with values filled in and the length cap
//! kept.

use super::{Composition, Part, PROMPT_MAX_CHARS};
use crate::error::issue::Issue;
use crate::error::{Error, Result};
use crate::prompts;
use crate::sort::repeats;
use crate::text;
use crate::text::index::Index;

/// The values by key; of a key given twice, the last.
pub(super) struct Values<'a> {
    keys: Index<'a>,
    texts: Vec<&'a str>,
}

impl<'a> Values<'a> {
    pub(super) fn new(values: &'a [(String, String)]) -> Self {
        let mut keys = Index::with_capacity(values.len());
        let mut texts = Vec::with_capacity(values.len());
        for (key, text) in values {
            match keys.insert(key) {
                Ok(_) => texts.push(text.as_str()),
                Err(at) => {
                    if let Some(earlier) = texts.get_mut(at) {
                        *earlier = text;
                    }
                }
            }
        }
        Values { keys, texts }
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.keys.get(key).map(|at| self.texts[at])
    }
}

/// The prompt as it grows, within [`PROMPT_MAX_CHARS`]: `'a` is the life of the parts'
/// names, `'p` that of their texts.
#[derive(Default)]
pub(super) struct Writer<'a, 'p> {
    /// The argument errors name.
    argument: &'static str,
    prompt: String,
    /// The characters in the first `counted` bytes of the prompt.
    chars: usize,
    counted: usize,
    components: Vec<&'a str>,
    /// Each placeholder left unfilled, as often as it was (see [`Writer::done`]); each
    /// stays in the prompt, so the prompt's cap bounds them.
    unresolved: Vec<&'p str>,
}

impl<'a, 'p> Writer<'a, 'p> {
    /// A writer whose errors name `argument`, with room for `room` bytes.
    pub(super) fn new(argument: &'static str, room: usize) -> Self {
        Writer { argument, prompt: String::with_capacity(room.min(PROMPT_MAX_CHARS)), ..Writer::default() }
    }

    /// Appends `part` (values filled in where it takes them), after a blank line.
    pub(super) fn part(&mut self, part: &'p Part<'a>, values: &Values<'p>) -> Result<()> {
        let body = trim_line_breaks(&part.text);
        if body.is_empty() {
            return Ok(());
        }
        if !self.prompt.is_empty() {
            self.push("\n\n")?;
        }
        self.components.push(part.name);
        if !part.fill {
            return self.push(body);
        }
        // The text from one filled placeholder to the next goes in as one run, unfilled
        // placeholders and all.
        let mut done = 0;
        for (place, key) in prompts::placeholders(body) {
            match values.get(key) {
                Some(value) => {
                    self.push(text::part(body, done..place.start))?;
                    self.push(value)?;
                    done = place.end;
                }
                None => self.unresolved.push(key),
            }
        }
        self.push(text::part(body, done..))
    }

    fn push(&mut self, more: &str) -> Result<()> {
        // Characters are never more than bytes: counted (each once) only when the bytes
        // could be over.
        if self.prompt.len() + more.len() > PROMPT_MAX_CHARS {
            self.chars += text::part(&self.prompt, self.counted..).chars().count();
            self.counted = self.prompt.len();
            if self.chars + more.chars().count() > PROMPT_MAX_CHARS {
                let message = format!("The composed prompt would be over {PROMPT_MAX_CHARS} characters");
                return Err(Error::invalid_options(self.argument, vec![Issue::custom(message, Vec::new())]));
            }
        }
        self.prompt.push_str(more);
        Ok(())
    }

    pub(super) fn done(self) -> Composition<'a> {
        // Each name once, where it first went unfilled.
        let repeated = repeats(&self.unresolved);
        let unresolved =
            self.unresolved.iter().zip(repeated).filter(|(_, r)| !r).map(|(k, _)| (*k).to_owned()).collect();
        Composition { prompt: self.prompt, components: self.components, unresolved }
    }
}

/// `text` without line breaks at its ends (byte by byte: `\r` and `\n` are ASCII, so
/// whole characters).
fn trim_line_breaks(text: &str) -> &str {
    let bytes = text.as_bytes();
    let breaks = |b: &&u8| matches!(**b, b'\r' | b'\n');
    let start = bytes.iter().take_while(breaks).count();
    let end = bytes.len() - bytes[start..].iter().rev().take_while(breaks).count();
    text.get(start..end).unwrap_or_default()
}
