//! Decimal text to a number, and a number to its shortest digits: Rust's own by
//! default, and in the wasm modules the host's, which the binding installs on the first call
//! into a module (`wasm::decimals`). The host reads as `JSON.parse` rounds and gives the digits
//! serde_json gives, and Rust's float tables (10 KB of powers of five, serde_json's
//! formatter) stay out of the modules: their numbers are nearly all small integers,
//! read and written without either (`number::small_integer`, `write::write_number`).

use std::sync::OnceLock;

/// How decimal numbers are read and written.
#[derive(Clone, Copy)]
pub struct Decimals {
    /// A decimal literal's value, correctly rounded, overflowing to infinity.
    pub read: fn(&str) -> f64,
    /// The fewest digits that read back to a finite positive number (of two as close,
    /// the even one), in any notation.
    pub shortest: fn(f64) -> String,
}

static INSTALLED: OnceLock<Decimals> = OnceLock::new();

/// Uses `decimals` from now on (the first installed stays).
pub fn install(decimals: Decimals) {
    let _ = INSTALLED.set(decimals);
}

pub(crate) fn read(literal: &str) -> f64 {
    (decimals().read)(literal)
}

pub(crate) fn shortest(n: f64) -> String {
    (decimals().shortest)(n)
}

fn decimals() -> Decimals {
    INSTALLED.get().copied().unwrap_or(OWN)
}

/// Rust's parser; serde_json's digits.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
const OWN: Decimals = Decimals {
    read: |literal| literal.parse().unwrap_or(f64::NAN),
    shortest: |n| serde_json::to_string(&n).unwrap_or_default(),
};

/// In a wasm module the binding has installed the host's before any work (the tables
/// these would need are what the modules leave out).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
const OWN: Decimals = Decimals { read: |_| uninstalled(), shortest: |_| uninstalled() };

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn uninstalled() -> ! {
    panic!("planloop's wasm binding installs the host's decimals before any work")
}
