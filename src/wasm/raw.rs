//! Texts that cross raw: after a head in the JS layer's encoding, the call's long texts
//! follow as they are, in one `encodeInto`, their lengths (in UTF-16 units) in the head.
//! Written as JSON they must be escaped first, and V8's `JSON.stringify` of long text
//! costs twenty times its `encodeInto` (and the module's unescaping it more again). The
//! JS layer sends only well-formed texts this way; lengths and bounds are checked here
//! (cheaply) rather than trusted.

use super::Input;
use crate::error::{Error, Result};

/// The input split at `head` (bytes): the head, and the raw texts after it.
pub fn split<'a>(given: Input<'a>, head: f64, what: &'static str) -> Result<(&'a [u8], Raw<'a>)> {
    let bytes = given.bytes;
    let head = Some(head).filter(|h| h.fract() == 0.0 && *h >= 0.0 && *h <= bytes.len() as f64);
    let (head, body) = bytes.split_at(head.ok_or_else(|| malformed(what, "a head past the input"))? as usize);
    let rest = std::str::from_utf8(body).map_err(|_| malformed(what, "texts that are not UTF-8"))?;
    Ok((head, Raw { rest, ascii: given.ascii, what }))
}

/// The raw texts not yet taken.
pub struct Raw<'a> {
    rest: &'a str,
    ascii: bool,
    /// The call, for errors.
    what: &'static str,
}

impl<'a> Raw<'a> {
    /// The next text, `length` UTF-16 units long and at most `max` characters.
    pub fn next(&mut self, length: f64, max: usize) -> Result<&'a str> {
        if !(length.fract() == 0.0 && length >= 0.0 && length <= self.rest.len() as f64) {
            return Err(self.malformed("a length out of the texts"));
        }
        let units = length as usize;
        let end = match self.ascii {
            true => units,
            false => utf16_end(self.rest, units).ok_or_else(|| self.malformed("a length inside a character"))?,
        };
        let (text, rest) = self.rest.split_at(end);
        // Characters are at most bytes: counted only when the bytes could be over.
        if text.len() > max && text.chars().count() > max {
            return Err(self.malformed("a text over its limit"));
        }
        self.rest = rest;
        Ok(text)
    }

    /// Checks that every text was taken.
    pub fn finish(self) -> Result<()> {
        match self.rest.is_empty() {
            true => Ok(()),
            false => Err(self.malformed("more text than its lengths say")),
        }
    }

    pub fn malformed(&self, why: &str) -> Error {
        malformed(self.what, why)
    }
}

fn malformed(what: &str, why: &str) -> Error {
    Error::internal(&format!("{what}'s raw texts: {why}"))
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
