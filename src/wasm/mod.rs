//! The binding: what the JS layer (`src/wasm/js/`) calls.
//!
//! The boundary is the hot path, so it is crossed once each way per call. The JS layer
//! writes a call's arguments into the input buffer as UTF-8 with one `encodeInto`: raw
//! JSON text for `write_todos` arguments given as text; tool outputs and prompt texts raw
//! after a small head (`raw.rs`); otherwise one array of the arguments in its encoding of
//! JS values (JSON plus `undefined`, `NaN`, tags; see `json::parse_host`).
//! [`pl_call`] runs the operation and returns a [`Status`] saying what to read: JSON
//! text for `JSON.parse`, a JS value built by serde-wasm-bindgen (the session's typed cold
//! results, where that measured faster; free-form JSON inside still by `JSON.parse`:
//! [`to_js`]), so that each key a host or a model wrote is an own property; a few
//! numbers, a structured result as fields (`io::Out`), or an error. Nothing here decides
//! anything.
//!
//! Two modules are built from this crate: the primitives (feature `core`) and the
//! session engine (feature `session`); a page that only validates loads only the first.
//! `src/wasm/README.md` draws the path of a call through these files.

#[cfg(any(test, all(target_family = "wasm", not(target_feature = "atomics"))))]
mod alloc;
mod args;
// (Each module leaves the other's declared arguments unused.)
#[cfg_attr(not(all(feature = "core", feature = "session")), allow(dead_code))]
pub mod arguments;
#[cfg(feature = "session")]
mod compose;
#[cfg(feature = "core")]
mod primitives;
// (One file for both modules: each leaves the other's writers unused.)
#[cfg(feature = "core")]
mod field_parts;
#[cfg_attr(not(all(feature = "core", feature = "session")), allow(dead_code))]
mod field_writers;
mod io;
#[cfg(feature = "core")]
mod mistakes;
#[cfg(feature = "session")]
mod raw;
#[cfg(feature = "session")]
mod session;
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
use crate::json::decimals::Decimals;
use field_writers::WriteFields;

/// Installs the panic hook when the module starts, so a planloop bug reaches the console
/// with its message rather than as a bare `unreachable`.
#[wasm_bindgen(start, private)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Runs operation `op` (on the instance `handle`, for methods) with the first `len` bytes
/// of the input buffer; `now_ms` is the call's time when its arguments are raw JSON text
/// (`applyWriteTodos`: the text has no place for it), and `ascii` says the input is ASCII (its length in bytes and in UTF-16 units agree,
/// which the JS layer sees for free), so that offsets need no conversion.
#[wasm_bindgen]
pub fn pl_call(op: u32, handle: u32, len: usize, now_ms: f64, ascii: bool) -> u32 {
    let result = io::with_input(len, |input| match Op::from_code(op) {
        Some(op) => dispatch(op, handle, Input { bytes: input, ascii }, now_ms),
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

fn dispatch(op: Op, handle: u32, input: Input<'_>, now_ms: f64) -> Result<Status, Error> {
    let _ = (handle, input, now_ms);
    #[cfg(feature = "core")]
    if let Some(result) = primitives::call(op, handle, input, now_ms) {
        return result;
    }
    #[cfg(feature = "session")]
    if let Some(result) = session::call(op, handle, input) {
        return result;
    }
    Err(Error::internal(&format!("operation {} is not in this module", op as u32)))
}

/// An error, as fields for the JS layer's `PlanloopError`.
fn write_error(error: &Error) {
    io::write(|out| error.write(out));
}

/// The host's decimal numbers for the core (see `json::decimals`): `parseFloat` reads a
/// literal as `JSON.parse` rounds it, and `String(n)` gives serde_json's digits. Every
/// export passes these, never Rust's own, whose tables the modules leave out.
pub const HOST: Decimals = Decimals { read: js_sys::Number::parse_float, shortest };

fn shortest(n: f64) -> String {
    js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default()
}

// The calls the JS layer makes, by number, and what a call's status tells it to read.
// `src/wasm/js/boundary.ts` has them too, generated from this list (`tests/generated.rs`).
macro_rules! ops {
    ($($name:ident = $code:literal,)*) => {
        /// One operation of the JS API.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Op {
            $($name = $code,)*
        }

        impl Op {
            /// Every operation, for the generated JS table.
            pub const ALL: &'static [(&'static str, u32)] = &[$((stringify!($name), $code),)*];

            pub fn from_code(code: u32) -> Option<Op> {
                match code {
                    $($code => Some(Op::$name),)*
                    _ => None,
                }
            }
        }
    };
}

ops! {
    ValidateText = 1,
    ValidateValue = 2,
    ValidateQuoted = 7,
    WriteTodosJsonSchema = 3,
    ToolDefinitions = 4,
    ExtractReflection = 5,
    ContextCapsule = 6,
    PlannerNew = 10,
    PlannerFree = 11,
    PlannerRecordIteration = 12,
    PlannerApplyText = 13,
    PlannerApplyValue = 14,
    PlannerSnapshot = 15,
    PlannerApplyQuoted = 16,
    PlannerApplyChecked = 17,
    LogNew = 20,
    LogFree = 21,
    LogRecordPlan = 22,
    LogRecordAct = 23,
    LogRecordObs = 24,
    LogRecordReflection = 25,
    LogEvents = 26,
    LogSteps = 27,
    LogClear = 28,
    ComposePrompt = 40,
    ComposeTexts = 41,
    SessionNew = 50,
    SessionFree = 51,
    SessionRestore = 52,
    SessionSnapshot = 53,
    SessionStepPlan = 54,
    SessionSystemPrompt = 55,
    SessionBeginTurn = 56,
    SessionApprove = 57,
    SessionReject = 58,
    SessionProposals = 59,
    SessionHandleModelResponse = 60,
    SessionHandleToolResults = 61,
    SessionDrainEvents = 62,
    SessionTodos = 63,
    SessionPlan = 64,
    SessionProgress = 65,
    SessionCapsule = 66,
    SessionSteps = 67,
    SessionReasoning = 68,
    SessionToolDefinitions = 69,
    SessionHandleToolResultsRaw = 70,
    SessionMayHold = 73,
    SessionNextCall = 74,
    SessionHandoff = 75,
    SessionDelegations = 76,
    SessionBeginDelegation = 77,
    SessionChild = 78,
    SessionFinishDelegation = 79,
    ReviewsNew = 80,
    ReviewsFree = 81,
    ReviewsFromJson = 82,
    ReviewsPut = 83,
    ReviewsTake = 84,
    ReviewsSize = 85,
    ReviewsToJson = 86,
    SessionHandleVerdict = 87,
}

/// How the JS layer reads a call's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Status {
    /// The text output is JSON.
    Json = 0,
    /// A PlanloopError, as fields (`Error`'s).
    Error = 1,
    /// Nothing to read (`undefined`).
    Nothing = 2,
    /// The number output holds one number (a handle, a count).
    Number = 3,
    /// A structured result (as `Fields`) whose strings are places in the text the JS
    /// layer sent: valid `write_todos` arguments, or the ack of an accepted call, read
    /// from their text (see `primitives::Spans`).
    Spans = 4,
    /// Invalid `write_todos` arguments: zod's issues, as fields (a list of `Issue`).
    Issues = 6,
    /// A structured result, as `io::Out` writes them; the call's reader in the JS layer
    /// knows its shape.
    Fields = 8,
    /// A JS value the module built (`pl_value` hands it over): a typed result, as
    /// `src/wasm/to_js.rs` builds it.
    Value = 9,
}

impl Status {
    /// Every status, for the generated JS table.
    pub const ALL: &'static [(&'static str, u32)] = &[
        ("Json", Status::Json as u32),
        ("Error", Status::Error as u32),
        ("Nothing", Status::Nothing as u32),
        ("Number", Status::Number as u32),
        ("Spans", Status::Spans as u32),
        ("Issues", Status::Issues as u32),
        ("Fields", Status::Fields as u32),
        ("Value", Status::Value as u32),
    ];
}

/// Marks a string of a result that the JS layer keeps by its id (see `Out::interned`).
pub const INTERNED: u32 = 1 << 31;
/// In place of a kept string's start: the JS layer has it already.
pub const KEPT: u32 = u32::MAX;

/// The instances JS objects stand for (`PlannerState`, `Session`, …), by handle. A JS
/// object holds its handle; the JS layer frees it when the object is collected or
/// `free()` is called. A slot is reused after its instance is freed, with a new
/// generation in the handle, so an old handle is refused rather than reaching another
/// object.
pub(crate) mod slab {
    use std::cell::RefCell;
    use std::thread::LocalKey;

    use crate::error::{Error, Result};

    /// Handles are the slot's index in the low bits and its generation above them.
    const INDEX_BITS: u32 = 20;
    const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;

    pub struct Slab<T> {
        slots: Vec<Slot<T>>,
        free: Vec<u32>,
    }

    /// An instance is boxed, so that taking it out for a call and putting it back moves a
    /// pointer rather than the whole instance (a `Session` is hundreds of bytes).
    struct Slot<T> {
        generation: u32,
        item: Option<Box<T>>,
    }

    impl<T> Slab<T> {
        pub const fn new() -> Self {
            Slab { slots: Vec::new(), free: Vec::new() }
        }
    }

    /// A table of instances in a thread-local.
    pub type Table<T> = LocalKey<RefCell<Slab<T>>>;

    /// Keeps `item`; its handle.
    pub fn insert<T>(table: &'static Table<T>, item: T) -> Result<u32> {
        table.with(|slab| {
            let mut slab = slab.borrow_mut();
            let index = match slab.free.pop() {
                Some(index) => index,
                None if slab.slots.len() <= INDEX_MASK as usize => {
                    slab.slots.push(Slot { generation: 0, item: None });
                    slab.slots.len() as u32 - 1
                }
                None => return Err(Error::internal("more than a million live objects")),
            };
            let slot = &mut slab.slots[index as usize];
            slot.generation = (slot.generation + 1) & (u32::MAX >> INDEX_BITS);
            slot.item = Some(Box::new(item));
            Ok(slot.generation << INDEX_BITS | index)
        })
    }

    /// Runs `work` on the instance of `handle`.
    pub fn with<T, R>(table: &'static Table<T>, handle: u32, work: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
        // Taken out for the call: an instance is never borrowed twice, even if `work` fails.
        let mut item = take(table, handle)?;
        let result = work(&mut item);
        put_back(table, handle, item);
        result
    }

    // Taking out and putting back are apart from `with`, which is made once per operation
    // (for each closure): kept out of line, they are in the module once per table.
    #[inline(never)]
    fn take<T>(table: &'static Table<T>, handle: u32) -> Result<Box<T>> {
        table
            .with(|slab| slab.borrow_mut().slot(handle).and_then(|slot| slot.item.take()))
            .ok_or_else(|| Error::invalid_state("this call", "the object was freed: make a new one"))
    }

    #[inline(never)]
    fn put_back<T>(table: &'static Table<T>, handle: u32, item: Box<T>) {
        table.with(|slab| {
            if let Some(slot) = slab.borrow_mut().slot(handle) {
                slot.item = Some(item);
            }
        });
    }

    /// Drops the instance of `handle` (nothing when it is already gone).
    pub fn remove<T>(table: &'static Table<T>, handle: u32) {
        let removed = table.with(|slab| {
            let mut slab = slab.borrow_mut();
            let item = slab.slot(handle).and_then(|slot| slot.item.take());
            if item.is_some() {
                slab.free.push(handle & INDEX_MASK);
            }
            item
        });
        // Dropped after the borrow ends.
        drop(removed);
    }

    impl<T> Slab<T> {
        /// The slot `handle` names, if its generation is current.
        fn slot(&mut self, handle: u32) -> Option<&mut Slot<T>> {
            let slot = self.slots.get_mut((handle & INDEX_MASK) as usize)?;
            (slot.generation == handle >> INDEX_BITS).then_some(slot)
        }
    }
}
