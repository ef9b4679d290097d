//! Structured results for the JS layer to build (`Reader` in `src/wasm/js/reader.ts`):
//! their shape as 32-bit numbers, their strings as one UTF-8 text. The JS layer decodes
//! the text once and slices each string out of it, and makes each object with a literal,
//! in the key order JSON would give. Reading a few numbers is several times faster than
//! `JSON.parse`, and the module needs no JSON writer for the primitives.
//!
//! A string is its start and length in the decoded text, in UTF-16 units; a float is the
//! two 32-bit halves of its bits, low first; an optional value is a flag (0 absent, 1
//! present) and then the value. A string the JS layer keeps (see [`Out::interned`]) is
//! `ops::INTERNED` plus its id, then either `ops::KEPT` or, the first time, its start and
//! length; the last string of the text may be its start alone (see [`Out::last_string`]).
//! (No text output reaches 2^31 units: a JS string is shorter.)

/// Writes into the call's outputs: `numbers`, and `text` (UTF-8).
pub struct Out<'o> {
    pub numbers: &'o mut Vec<u32>,
    pub text: &'o mut Vec<u8>,
    /// The text's length so far, in UTF-16 units.
    units: u32,
}

impl<'o> Out<'o> {
    pub fn new(numbers: &'o mut Vec<u32>, text: &'o mut Vec<u8>) -> Self {
        Out { numbers, text, units: 0 }
    }

    pub fn number(&mut self, n: u32) {
        self.numbers.push(n);
    }

    pub fn count(&mut self, n: usize) {
        self.numbers.push(u32::try_from(n).unwrap_or(u32::MAX));
    }

    pub fn flag(&mut self, on: bool) {
        self.numbers.push(u32::from(on));
    }

    pub fn float(&mut self, x: f64) {
        let bits = x.to_bits();
        self.numbers.extend([bits as u32, (bits >> 32) as u32]);
    }

    /// Appends `s` to the text and refers to it.
    pub fn string(&mut self, s: &str) {
        self.text_of(s.as_bytes(), utf16_length(s.as_bytes()));
    }

    /// [`Self::string`] for ASCII text, whose length needs no counting.
    pub fn ascii(&mut self, s: &str) {
        self.text_of(s.as_bytes(), s.len() as u32);
    }

    /// A string of a small fixed set, which the JS layer keeps by `id` once it has read
    /// it: its text only when the JS layer has not had it (`kept` false). This spares the
    /// text output, and decoding it, when every string of a result is one of these
    /// (zod's issues for a plain mistake, repeated).
    #[cfg(feature = "core")]
    pub fn interned(&mut self, id: u32, s: &str, kept: bool) {
        self.numbers.push(super::ops::INTERNED | id);
        match kept {
            true => self.numbers.push(super::ops::KEPT),
            false => self.string(s),
        }
    }

    /// A count, then each string.
    pub fn strings(&mut self, strings: &[impl AsRef<str>]) {
        self.numbers.push(strings.len() as u32);
        for s in strings {
            self.string(s.as_ref());
        }
    }

    pub fn optional_string(&mut self, s: Option<&str>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.string(s);
        }
    }

    /// A string that ends the text output (nothing is written after it): only its start,
    /// since the JS layer takes the text from there to the end. A long text (a composed
    /// prompt) is then not walked to count its length.
    #[cfg(feature = "session")]
    pub fn last_string(&mut self, s: &str) {
        self.numbers.push(self.units);
        self.text.extend_from_slice(s.as_bytes());
    }

    /// Refers to what `write` appends to the text, as one string.
    pub fn string_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        let start = self.text.len();
        write(self.text);
        let written = utf16_length(&self.text[start..]);
        self.numbers.extend([self.units, written]);
        self.units += written;
    }

    /// Any JSON value, as its JSON text (one string).
    pub fn json(&mut self, value: &crate::json::value::Value<'_>) {
        self.string_with(|text| crate::json::write::write_value(text, value, super::decimals::HOST));
    }

    fn text_of(&mut self, bytes: &[u8], units: u32) {
        self.numbers.extend([self.units, units]);
        self.text.extend_from_slice(bytes);
        self.units += units;
    }
}

/// UTF-8 text's length in UTF-16 units: one per lead byte, two for a four-byte one.
pub fn utf16_length(text: &[u8]) -> u32 {
    if text.is_ascii() {
        return text.len() as u32;
    }
    text.iter().map(|&b| u32::from(b & 0xC0 != 0x80) + u32::from(b >= 0xF0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_placed_in_utf16_units() {
        let (mut numbers, mut text) = (Vec::new(), Vec::new());
        let mut out = Out::new(&mut numbers, &mut text);
        out.string("añ😀");
        out.ascii("ok");
        out.string_with(|text| text.extend_from_slice("é!".as_bytes()));
        out.last_string("😀 end");
        assert_eq!(numbers, [0, 4, 4, 2, 6, 2, 8]);
        assert_eq!(String::from_utf8(text).unwrap(), "añ😀oké!😀 end");
    }
}
