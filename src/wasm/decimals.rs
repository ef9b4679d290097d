//! The host's decimal numbers for the core (see `json::decimals`): `parseFloat` reads a
//! literal as `JSON.parse` rounds it, and `String(n)` gives serde_json's digits.

use crate::json::decimals::{self, Decimals};

/// Installs them (once: every call into the module asks, and all but the first find
/// them there).
pub fn install() {
    decimals::install(Decimals { read: js_sys::Number::parse_float, shortest });
}

fn shortest(n: f64) -> String {
    js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default()
}
