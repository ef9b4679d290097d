//! The JS binding: classes and functions exported to JS. Each one converts its
//! arguments, calls the core, and converts the result; nothing else happens here.

pub mod api;
mod convert;
mod js_input;
pub mod planner;
pub mod reasoning;
pub mod review;
pub mod session;

use wasm_bindgen::prelude::*;

/// Installs the panic hook when the module starts, so a planloop bug reaches the console
/// with its message rather than as a bare `unreachable`.
#[wasm_bindgen(start, private)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The TypeScript types of every value planloop takes or returns, generated from the
/// Rust types (see `tests/generated.rs`).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
