//! The host's decimal numbers for the core (see `json::decimals`): `parseFloat` reads a
//! literal as `JSON.parse` rounds it, and `String(n)` gives serde_json's digits. Every
//! export passes these, never Rust's own, whose tables the modules leave out.

use crate::json::decimals::Decimals;

/// The host's decimals.
pub const HOST: Decimals = Decimals { read: js_sys::Number::parse_float, shortest };

fn shortest(n: f64) -> String {
    js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default()
}
