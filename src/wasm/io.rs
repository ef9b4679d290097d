//! The memory the JS layer and the module share: one input buffer the JS layer writes a
//! call's arguments into (UTF-8, with one `TextEncoder.encodeInto`), one text output
//! (JSON for `JSON.parse`, or the strings of a structured result), one number output
//! (offsets, counts, the shape of a structured result) and a small header saying where
//! each output is. Every call crosses the boundary once each way, but for a result the
//! module built as a JS value, which the JS layer then takes ([`pl_value`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use wasm_bindgen::prelude::*;

use super::ops::Status;
use super::out::Out;

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

/// Sets the text output to `value` as JSON.
#[cfg(feature = "session")]
pub fn set_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), crate::error::Error> {
    // (Its error's text would carry every message of serde_json into the module.)
    set_text_with(|out| crate::json::write::to_writer(out, value, super::decimals::HOST))
        .map_err(|_| crate::error::Error::internal("a result that is not JSON"))
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
    set_json(value)?;
    Ok(Status::Json)
}

/// `n` as the call's result (a handle, a count).
pub fn number(n: u32) -> Result<Status, crate::error::Error> {
    set_numbers(|out| out.push(n));
    Ok(Status::Number)
}
