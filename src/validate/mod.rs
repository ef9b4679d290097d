//! Validation of what hosts and models send, with zod 4's semantics: the issues, the
//! inputs a validator reads (JSON values and live JS values alike), the schemas, and the
//! checked positional arguments and options of the JS API.

pub mod args;
#[rustfmt::skip]
pub mod compiled;
pub mod input;
pub mod schema;
pub mod write_todos;
