//! The binding: what the JS layer (`src/wasm/js/`) calls.
//!
//! The boundary is the hot path, so it is crossed once each way per call. The JS layer
//! writes a call's arguments into the input buffer as UTF-8 with one `encodeInto`: raw
//! JSON text for `write_todos` arguments given as text; tool outputs and prompt texts raw
//! after a small head (`raw.rs`); otherwise one array of the arguments in its encoding of
//! JS values (JSON plus `undefined`, `NaN`, tags; see `json::parse_host`).
//! [`pl_call`] runs the operation and returns a [`ops::Status`] saying what to read: JSON
//! text for `JSON.parse`, a JS value built by serde-wasm-bindgen (the session's typed cold
//! results, where that measured faster; free-form JSON inside still by `JSON.parse`:
//! [`to_js`]), so that each key a host or a model wrote is an own property; a few
//! numbers, a structured result as fields (`out.rs`), or an error. Nothing here decides
//! anything.
//!
//! Two modules are built from this crate: the primitives (feature `core`) and the
//! session engine (feature `session`); a page that only validates loads only the first.

#[cfg(any(test, all(target_family = "wasm", not(target_feature = "atomics"))))]
mod alloc;
mod args;
#[cfg(feature = "session")]
mod compose;
#[cfg(feature = "core")]
mod core;
pub mod decimals;
// (One file for both modules: each leaves the other's writers unused.)
#[cfg_attr(not(all(feature = "core", feature = "session")), allow(dead_code))]
mod field_writers;
#[cfg(feature = "session")]
mod hot;
mod io;
mod issues;
#[cfg(feature = "core")]
mod mistakes;
pub mod ops;
mod out;
#[cfg(feature = "session")]
mod raw;
#[cfg(feature = "session")]
mod session;
mod slab;
#[cfg(feature = "session")]
pub mod to_js;

use wasm_bindgen::prelude::*;

/// The modules' allocator: talc rather than Rust's default dlmalloc, measured 3.4 KB
/// (primitives) and 3.1 KB (session) smaller after gzip, for about 3 % of a decision's
/// and of `composePrompt`'s time (interleaved runs). (A module without threads, as these
/// are, is what talc's wasm setup is for.) In front of it, the blocks each call frees
/// are kept for reuse by size (`alloc.rs`): a decision allocates dozens of small blocks,
/// and so does every primitive read the general way (its arguments as a value tree), which
/// the lists made 2–9 % faster in the primitives module (the trail's calls, for 0.4 KB gzip).
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: alloc::SizeClasses<talc::wasm::WasmDynamicTalc> =
    alloc::SizeClasses::new(talc::wasm::new_wasm_dynamic_allocator());

#[cfg(feature = "session")]
pub use io::pl_value;
pub use io::{pl_header, pl_input};

use crate::error::Error;
use ops::{Op, Status};

/// Installs the panic hook when the module starts, so a planloop bug reaches the console
/// with its message rather than as a bare `unreachable`.
#[wasm_bindgen(start, private)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Runs operation `op` (on the instance `handle`, for methods) with the first `len` bytes
/// of the input buffer; `number` carries a call's time when its arguments are raw text,
/// and `ascii` says the input is ASCII (its length in bytes and in UTF-16 units agree,
/// which the JS layer sees for free), so that offsets need no conversion.
#[wasm_bindgen]
pub fn pl_call(op: u32, handle: u32, len: usize, number: f64, ascii: bool) -> u32 {
    let result = io::with_input(len, |input| match Op::from_code(op) {
        Some(op) => dispatch(op, handle, Input { bytes: input, ascii }, number),
        None => Err(Error::internal("an unknown operation")),
    });
    match result {
        Ok(status) => status as u32,
        Err(error) => {
            write_error(&error);
            Status::Error as u32
        }
    }
}

/// A call's input: its bytes, and whether they are known to be ASCII.
#[derive(Clone, Copy)]
pub(crate) struct Input<'a> {
    pub bytes: &'a [u8],
    pub ascii: bool,
}

fn dispatch(op: Op, handle: u32, input: Input<'_>, number: f64) -> Result<Status, Error> {
    let _ = (handle, input, number);
    #[cfg(feature = "core")]
    if let Some(result) = core::call(op, handle, input, number) {
        return result;
    }
    #[cfg(feature = "session")]
    if let Some(result) = session::call(op, handle, input, number) {
        return result;
    }
    Err(Error::internal(&format!("operation {} is not in this module", op as u32)))
}

/// An error for the JS layer's `PlanloopError`: its code, its message, then `data`'s
/// fields (`argument`, `issues`, `detail`), each optional.
fn write_error(error: &Error) {
    io::write(|out| {
        out.ascii(error.code.as_str());
        out.string(&error.message);
        out.optional_string(error.data.argument.as_deref());
        out.flag(error.data.issues.is_some());
        if let Some(issues) = &error.data.issues {
            out.issues(issues);
        }
        out.optional_string(error.data.detail.as_deref());
    });
}
