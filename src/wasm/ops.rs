//! The calls the JS layer makes, by number, and what a call's status tells it to read.
//! `src/wasm/js/ops.ts` is generated from this list (see `tests/generated.rs`).

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
    ReviewsNew = 80,
    ReviewsFree = 81,
    ReviewsFromJson = 82,
    ReviewsPut = 83,
    ReviewsTake = 84,
    ReviewsSize = 85,
    ReviewsToJson = 86,
}

/// How the JS layer reads a call's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Status {
    /// The text output is JSON.
    Json = 0,
    /// The text output is a PlanloopError as JSON: `{code, message, data}`.
    Error = 1,
    /// Nothing to read (`undefined`).
    Nothing = 2,
    /// The number output holds one number (a handle, a count).
    Number = 3,
    /// Valid `write_todos` arguments: the number output says where their strings are
    /// (see `core::write_found`); for arguments read as an object, nothing (the JS
    /// layer has them).
    Found = 4,
    /// An accepted `write_todos` call: the number output holds the ack and where the
    /// id of the todo in progress is (for arguments read as an object, which todo).
    Accepted = 5,
    /// Invalid `write_todos` arguments: zod's issues, as `wasm::issues` writes them.
    Issues = 6,
    /// A `write_todos` call refused for its arguments: the ack's message, then its issues.
    Rejected = 7,
    /// A structured result, as `wasm::out` writes them; the call's reader in the JS
    /// layer knows its shape.
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
        ("Found", Status::Found as u32),
        ("Accepted", Status::Accepted as u32),
        ("Issues", Status::Issues as u32),
        ("Rejected", Status::Rejected as u32),
        ("Fields", Status::Fields as u32),
        ("Value", Status::Value as u32),
    ];
}

/// Marks a string of a result that the JS layer keeps by its id (see `Out::interned`).
pub const INTERNED: u32 = 1 << 31;
/// In place of a kept string's start: the JS layer has it already.
pub const KEPT: u32 = u32::MAX;
