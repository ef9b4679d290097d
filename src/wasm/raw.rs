//! Texts that cross raw: after a head in the JS layer's encoding, the call's long texts
//! follow as they are, in one `encodeInto`, their lengths (in UTF-16 units) either in the
//! head or, before it, as 32-bit words. Written as JSON they must be escaped first, and
//! V8's `JSON.stringify` of long text costs twenty times its `encodeInto` (and the
//! module's unescaping it more again). A hundred lengths written as words cost the JS
//! layer a few stores, where joined as text for the head they cost it, and the module's
//! reading them, a tenth of `composePrompt`'s time. The JS layer sends only well-formed
//! texts this way; lengths and bounds are checked here (cheaply) rather than trusted.
//!
//! The input, as `Engine.callSplit` in `js/engine.ts` lays it out: the head's length in
//! bytes, the count of lengths and each length (32-bit words), the head, the texts.

use super::Input;
use crate::error::{Error, Result};
use crate::text::part;

/// The input split (see the module docs): the lengths, the head, and the raw texts.
pub fn split<'a>(given: Input<'a>, what: &'static str) -> Result<(Words<'a>, &'a [u8], Raw<'a>)> {
    let bytes = given.bytes;
    let (head_length, count) = match (bytes.get(..4), bytes.get(4..8)) {
        (Some(head), Some(count)) => (word(head) as usize, word(count) as usize),
        _ => return Err(malformed(what, "no head length or count")),
    };
    let words_end = count.checked_mul(4).and_then(|n| n.checked_add(8));
    let head_end = words_end.and_then(|start| start.checked_add(head_length));
    let (Some(words_end), Some(head_end)) = (words_end, head_end.filter(|&end| end <= bytes.len())) else {
        return Err(malformed(what, "a head past the input"));
    };
    let rest = std::str::from_utf8(&bytes[head_end..]).map_err(|_| malformed(what, "texts that are not UTF-8"))?;
    Ok((
        Words(bytes[8..words_end].chunks_exact(4)),
        &bytes[words_end..head_end],
        Raw { rest, ascii: given.ascii, what },
    ))
}

/// The 32-bit words given with the texts (for a call with a head, the texts' lengths in
/// UTF-16 units).
pub struct Words<'a>(std::slice::ChunksExact<'a, u8>);

impl Iterator for Words<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        self.0.next().map(word)
    }
}

/// The little-endian 32-bit word in `bytes`, which hold four.
#[inline]
fn word(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// The raw texts not yet taken.
pub struct Raw<'a> {
    rest: &'a str,
    ascii: bool,
    /// The call, for errors.
    what: &'static str,
}

impl<'a> Raw<'a> {
    /// The next text, `length` UTF-16 units long (as a JSON head gives it) and at most
    /// `max` characters.
    pub fn next(&mut self, length: f64, max: usize) -> Result<&'a str> {
        match length.fract() == 0.0 && length >= 0.0 && length <= self.rest.len() as f64 {
            true => self.take(length as usize, max),
            false => Err(self.malformed("a length out of the texts")),
        }
    }

    /// The next text, `units` UTF-16 units long and at most `max` characters.
    pub fn take(&mut self, units: usize, max: usize) -> Result<&'a str> {
        // (A UTF-16 unit takes at least a byte.)
        if units > self.rest.len() {
            return Err(self.malformed("a length out of the texts"));
        }
        let end = match self.ascii {
            true => units,
            false => utf16_end(self.rest, units).ok_or_else(|| self.malformed("a length inside a character"))?,
        };
        let (text, rest) = (part(self.rest, ..end), part(self.rest, end..));
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

    /// An input as the JS layer lays it out: the head's length and the lengths as words,
    /// the head, the texts.
    fn laid_out(lengths: &[u32], head: &str, texts: &str) -> Vec<u8> {
        let words = [head.len() as u32, lengths.len() as u32].into_iter().chain(lengths.iter().copied());
        let mut bytes: Vec<u8> = words.flat_map(u32::to_le_bytes).collect();
        bytes.extend_from_slice(head.as_bytes());
        bytes.extend_from_slice(texts.as_bytes());
        bytes
    }

    #[test]
    fn the_lengths_come_before_the_head_and_the_texts_after_it() {
        let bytes = laid_out(&[2, 300], "[{}]", "ab");
        let (lengths, head, mut raw) = split(Input { bytes: &bytes, ascii: true }, "test").expect("laid out");
        assert_eq!(lengths.collect::<Vec<_>>(), [2, 300]);
        assert_eq!(head, b"[{}]");
        assert_eq!(raw.take(2, 10).expect("two units"), "ab");
        raw.finish().expect("every text taken");
        let bytes = laid_out(&[], "[]", "");
        let (lengths, head, _) = split(Input { bytes: &bytes, ascii: true }, "test").expect("no lengths");
        assert_eq!((lengths.count(), head), (0, &b"[]"[..]));
    }

    #[test]
    fn a_layout_that_does_not_add_up_is_refused() {
        let bytes = laid_out(&[1, 2], "[]", "abc");
        let refused = |bytes: &[u8]| split(Input { bytes, ascii: true }, "test").is_err();
        // A head past the input, however long.
        for length in [6, 100, u32::MAX] {
            let mut lying = bytes.clone();
            lying[..4].copy_from_slice(&length.to_le_bytes());
            assert!(refused(&lying), "head of {length}");
        }
        // More lengths than the input holds.
        for count in [9, u32::MAX / 4, u32::MAX] {
            let mut lying = bytes.clone();
            lying[4..8].copy_from_slice(&count.to_le_bytes());
            assert!(refused(&lying), "{count} lengths");
        }
        assert!(refused(&[]) && refused(&bytes[..6]), "not even a count");
        // Texts that are not UTF-8.
        let mut broken = bytes.clone();
        *broken.last_mut().unwrap() = 0xFF;
        assert!(refused(&broken));
    }

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
