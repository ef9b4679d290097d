//! The shared wasm cases, in Node (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]

mod common;
