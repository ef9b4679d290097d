//! Decimal text to a number, and a number to its shortest digits, as whoever reads or
//! writes JSON passes them in: Rust's own ([`Decimals::RUST`]) natively, the host's in the
//! wasm modules (`wasm::HOST`). The host reads as `JSON.parse` rounds and gives
//! the digits serde_json gives, and Rust's float tables (10 KB of powers of five,
//! serde_json's formatter) stay out of the modules: nothing the modules export reaches
//! [`Decimals::RUST`], and their numbers are nearly all small integers, read and written
//! without either (`number::small_integer`, `write::write_number`).

use std::fmt;

/// How decimal numbers are read and written.
#[derive(Clone, Copy)]
pub struct Decimals {
    /// A decimal literal's value, correctly rounded, overflowing to infinity.
    pub read: fn(&str) -> f64,
    /// The fewest digits that read back to a finite positive number (of two as close,
    /// the even one), in any notation.
    pub shortest: fn(f64) -> String,
}

impl Decimals {
    /// Rust's parser; serde_json's digits.
    pub const RUST: Decimals = Decimals {
        read: |literal| literal.parse().unwrap_or(f64::NAN),
        shortest: |n| serde_json::to_string(&n).unwrap_or_default(),
    };

    pub(crate) fn read(self, literal: &str) -> f64 {
        (self.read)(literal)
    }

    pub(crate) fn shortest(self, n: f64) -> String {
        (self.shortest)(n)
    }
}

/// Any two are equal: each gives the same numbers (correctly rounded, the shortest
/// digits), so what holds one (a session) compares by its state alone.
impl PartialEq for Decimals {
    fn eq(&self, _: &Decimals) -> bool {
        true
    }
}

impl fmt::Debug for Decimals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Decimals")
    }
}
