//! The memory the JS layer and the module share: one input buffer the JS layer writes a
//! call's arguments into (UTF-8, with one `TextEncoder.encodeInto`), one text output
//! (JSON for `JSON.parse`, or the strings of a structured result), one number output
//! (offsets, counts, the shape of a structured result) and a small header saying where
//! each output is. Every call crosses the boundary once each way, but for a result the
//! module built as a JS value, which the JS layer then takes ([`pl_value`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use wasm_bindgen::prelude::*;

use super::Status;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static NUMBERS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

#[cfg(feature = "session")]
thread_local! {
    static VALUE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The JS value the last call built (its status was `Value`), handed over once.
#[cfg(feature = "session")]
#[wasm_bindgen]
pub fn pl_value() -> JsValue {
    VALUE.with(|value| value.borrow_mut().take()).unwrap_or(JsValue::UNDEFINED)
}

/// `value` as the call's result, a JS value (see [`super::to_js`]).
#[cfg(feature = "session")]
pub fn value<T: serde::Serialize + ?Sized>(value: &T) -> Result<Status, crate::error::Error> {
    let built = super::to_js::to_js(value).map_err(|_| crate::error::Error::internal("a result with no JS value"))?;
    VALUE.with(|slot| *slot.borrow_mut() = Some(built));
    Ok(Status::Value)
}

/// Where the outputs of the last call are: text pointer and length, numbers pointer and
/// count. Its address never changes, so the JS layer reads it without asking.
static HEADER: [AtomicU32; 4] = [const { AtomicU32::new(0) }; 4];

/// Makes the input buffer hold at least `capacity` bytes and returns where it starts.
/// The JS layer keeps the address until it needs more room.
#[wasm_bindgen]
pub fn pl_input(capacity: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        if input.len() < capacity {
            input.resize(capacity.next_power_of_two().max(1024), 0);
        }
        input.as_mut_ptr()
    })
}

/// The header's address.
#[wasm_bindgen]
pub fn pl_header() -> *const AtomicU32 {
    HEADER.as_ptr()
}

/// Runs `work` on the first `len` bytes of the input buffer.
pub fn with_input<R>(len: usize, work: impl FnOnce(&[u8]) -> R) -> R {
    // Taken out for the call, so that `work` may start nested calls that use it too.
    let input = INPUT.with(|input| std::mem::take(&mut *input.borrow_mut()));
    let result = work(&input[..len.min(input.len())]);
    INPUT.with(|slot| *slot.borrow_mut() = input);
    result
}

/// Sets the text output to what `write` appends.
fn set_text_with<R>(write: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    TEXT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        let result = write(&mut out);
        HEADER[0].store(out.as_ptr() as u32, Ordering::Relaxed);
        HEADER[1].store(out.len() as u32, Ordering::Relaxed);
        result
    })
}

/// JSON text written before the call (a schema, a snapshot) as the call's JSON result.
pub fn json_text(text: &[u8]) -> Result<Status, crate::error::Error> {
    set_text_with(|out| out.extend_from_slice(text));
    Ok(Status::Json)
}

/// Sets the number output to what `fill` pushes.
pub fn set_numbers(fill: impl FnOnce(&mut Vec<u32>)) {
    NUMBERS.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        fill(&mut out);
        HEADER[2].store(out.as_ptr() as u32, Ordering::Relaxed);
        HEADER[3].store(out.len() as u32, Ordering::Relaxed);
    });
}

/// Lets `fill` write a structured result into both outputs (see [`Out`]).
pub fn write(fill: impl FnOnce(&mut Out<'_>)) {
    NUMBERS.with(|numbers| {
        TEXT.with(|text| {
            let (mut numbers, mut text) = (numbers.borrow_mut(), text.borrow_mut());
            numbers.clear();
            text.clear();
            fill(&mut Out::new(&mut numbers, &mut text));
            HEADER[0].store(text.as_ptr() as u32, Ordering::Relaxed);
            HEADER[1].store(text.len() as u32, Ordering::Relaxed);
            HEADER[2].store(numbers.as_ptr() as u32, Ordering::Relaxed);
            HEADER[3].store(numbers.len() as u32, Ordering::Relaxed);
        })
    });
}

/// A structured result that `fill` writes (see [`Out`]).
pub fn fields(fill: impl FnOnce(&mut Out<'_>)) -> Result<Status, crate::error::Error> {
    write(fill);
    Ok(Status::Fields)
}

/// `value` as the call's JSON result.
#[cfg(feature = "session")]
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Status, crate::error::Error> {
    // (Its error's text would carry every message of serde_json into the module.)
    set_text_with(|out| crate::json::write::to_writer(out, value, super::HOST))
        .map_err(|_| crate::error::Error::internal("a result that is not JSON"))?;
    Ok(Status::Json)
}

/// `n` as the call's result (a handle, a count).
pub fn number(n: u32) -> Result<Status, crate::error::Error> {
    set_numbers(|out| out.push(n));
    Ok(Status::Number)
}

/// Writes a structured result for the JS layer to build (`Reader` in `src/wasm/js/engine.ts`):
/// their shape as 32-bit numbers, their strings as one UTF-8 text. The JS layer decodes
/// the text once and slices each string out of it, and makes each object with a literal,
/// in the key order JSON would give. Reading a few numbers is several times faster than
/// `JSON.parse`, and the module needs no JSON writer for the primitives.
///
/// A string is its start and length in the decoded text, in UTF-16 units; a float is the
/// two 32-bit halves of its bits, low first; an optional value is a flag (0 absent, 1
/// present) and then the value. A string the JS layer keeps (see `Out::interned`) is
/// [`super::INTERNED`] plus its id, then either [`super::KEPT`] or, the first time, its start and
/// length; the last string of the text may be its start alone (see `Out::last_string`).
/// (No text output reaches 2^31 units: a JS string is shorter.)
///
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

    /// A string of a small fixed set, which the JS layer keeps by `id` once it has read
    /// it: its text only when the JS layer has not had it (`kept` false). This spares the
    /// text output, and decoding it, when every string of a result is one of these
    /// (zod's issues for a plain mistake, repeated).
    #[cfg(feature = "core")]
    pub fn interned(&mut self, id: u32, s: &str, kept: bool) {
        self.numbers.push(super::INTERNED | id);
        match kept {
            true => self.numbers.push(super::KEPT),
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

    /// A string that ends the text output (nothing is written after it): only its start,
    /// since the JS layer takes the text from there to the end. A long text (a composed
    /// prompt) is then not walked to count its length.
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
        self.string_with(|text| crate::json::write::write_value(text, value, super::HOST));
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
        out.string("ok");
        out.string_with(|text| text.extend_from_slice("é!".as_bytes()));
        out.last_string("😀 end");
        assert_eq!(numbers, [0, 4, 4, 2, 6, 2, 8]);
        assert_eq!(String::from_utf8(text).unwrap(), "añ😀oké!😀 end");
    }
}
