//! Each operation's crossing, declared once: its arguments (their order, the names errors
//! give them, their types, and how each is read) and, where it answers with one type's
//! fields, that type. From one declaration come the Rust struct an operation reads its
//! arguments into (`Struct::read`), the typed `Struct::answer` it writes its result
//! with, and, by `tests/generated.rs`, the TypeScript function that writes the arguments
//! in that order (`declared` in `js/boundary.ts`, typed as the JS API takes them) and the
//! reader of the result (`results`). The hot calls' arguments are read here only on their
//! general path: a session's response or results are read by its plain reader first
//! (`session.rs`), a prompt's texts may cross raw (`compose.rs`), and `write_todos`
//! arguments cross as their text or value alone (`primitives.rs`).

use std::marker::PhantomData;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;

use super::args::Args;
use super::field_writers::WriteFields;
use super::io::fields;
use super::{Status, HOST};
use crate::error::Result;
use crate::json::value::Value;
use crate::plan::guard::IterationVerdict;
// (Two operations are named after the types they answer with.)
use crate::plan::planner::{PlannerOptions, PlannerSnapshot as Snapshot};
use crate::prompts::compose::{ComposeInput, PromptParts};
use crate::session::approval::{ApproveOptions, RejectOptions};
use crate::session::config::SessionConfig;
use crate::session::exchange::BeginTurn;
use crate::session::goal::Verdict;
use crate::session::handoff::HandoffOptions;
use crate::session::review::{PlanReview, PlanReviewStore};
use crate::trail::capsule::{ContextCapsule as Capsule, ContextCapsuleInput};
use crate::trail::reasoning::{HistoryOptions, ReasoningEvent};
use crate::validate::compiled;

/// How an argument is read: its Rust type, the reading, and its TypeScript type.
macro_rules! kind {
    (type string) => { String };
    (read string, $a:ident, $at:expr, $name:literal) => { $a.string($at, $name)? };
    (ts string) => { "string" };
    (type optional_string) => { Option<String> };
    (read optional_string, $a:ident, $at:expr, $name:literal) => { $a.string_or_absent($at, $name)? };
    (ts optional_string) => { "string | null | undefined" };
    (type time) => { f64 };
    (read time, $a:ident, $at:expr, $name:literal) => { $a.time($at, $name)? };
    (ts time) => { "number" };
    (type boolean) => { bool };
    (read boolean, $a:ident, $at:expr, $name:literal) => { $a.boolean($at, $name)? };
    (ts boolean) => { "boolean" };
    (type whole($min:expr, $max:expr)) => { u32 };
    (read whole($min:expr, $max:expr), $a:ident, $at:expr, $name:literal) => { $a.whole($at, $name, $min, $max)? };
    (ts whole($min:expr, $max:expr)) => { "number" };
    (type whole_or($min:expr, $max:expr, $default:expr)) => { u32 };
    (read whole_or($min:expr, $max:expr, $default:expr), $a:ident, $at:expr, $name:literal) => {
        $a.whole_or($at, $name, $min, $max, $default)?
    };
    (ts whole_or($min:expr, $max:expr, $default:expr)) => { "number | undefined" };
    (type names($max:expr)) => { Vec<String> };
    (read names($max:expr), $a:ident, $at:expr, $name:literal) => { $a.names($at, $name, $max)? };
    (ts names($max:expr)) => { "string[]" };
    // Any value, as the caller gave it (a read that threw included).
    (type any) => { Value<'t> };
    (read any, $a:ident, $at:expr, $name:literal) => { $a.get($at).clone() };
    (ts any) => { "unknown" };
    // Any value; a read that threw is a `host_exception`.
    (type given) => { Value<'t> };
    (read given, $a:ident, $at:expr, $name:literal) => { $a.value($at)?.clone() };
    (ts given) => { "unknown" };
    // An object as `SCHEMA` passes it; `TS` is its TypeScript type's name.
    (type object($ty:ident, $schema:ident, $ts:literal)) => { $ty };
    (read object($ty:ident, $schema:ident, $ts:literal), $a:ident, $at:expr, $name:literal) => {
        $a.object($at, $name, &compiled::$schema)?
    };
    (ts object($ty:ident, $schema:ident, $ts:literal)) => { $ts };
    // A value as `SCHEMA` passes it, not yet converted (the hot calls' general path).
    (type checked($schema:ident, $ts:literal)) => { Value<'static> };
    (read checked($schema:ident, $ts:literal), $a:ident, $at:expr, $name:literal) => {
        $a.checked($at, $name, &compiled::$schema)?
    };
    (ts checked($schema:ident, $ts:literal)) => { $ts };
    // An options object: `undefined` gives the defaults.
    (type options($ty:ident, $schema:ident, $ts:literal)) => { $ty };
    (read options($ty:ident, $schema:ident, $ts:literal), $a:ident, $at:expr, $name:literal) => {
        $a.options($at, $name, &compiled::$schema)?
    };
    (ts options($ty:ident, $schema:ident, $ts:literal)) => { concat!($ts, " | undefined") };
}

/// The schema of a declared result, for the generated reader (none for an operation whose
/// result is not one type's fields).
macro_rules! result_schema {
    () => {
        None
    };
    ($result:ty) => {
        Some(|| {
            schemars::SchemaGenerator::new(SchemaSettings::draft2020_12().for_serialize())
                .into_root_schema_for::<$result>()
        })
    };
}

macro_rules! arguments {
    ($($op:ident { $($field:ident $name:literal: $kind:ident $(($($param:tt)*))?),* $(,)? } $(-> $result:ty)?)*) => {
        $(
            #[doc = concat!("The arguments of `Op::", stringify!($op), "`; `'t` is the input's life.")]
            pub struct $op<'t> {
                $(pub $field: kind!(type $kind $(($($param)*))?),)*
                life: PhantomData<&'t [u8]>,
            }

            impl<'t> $op<'t> {
                /// The arguments in `input`, in the JS layer's encoding, each read and checked.
                pub fn read(input: &'t [u8]) -> Result<Self> {
                    let a = Args::parse(input, HOST)?;
                    let at = 0usize;
                    $(
                        let $field = kind!(read $kind $(($($param)*))?, a, at, $name);
                        let at = at + 1;
                    )*
                    let _ = (&a, at);
                    Ok($op { $($field,)* life: PhantomData })
                }

                $(
                    /// The operation's result, as its fields (`results` in `js/boundary.ts`
                    /// reads them).
                    pub fn answer(result: &$result) -> Result<Status> {
                        fields(|out| result.write(out))
                    }
                )?
            }
        )*

        /// Every declared operation: its name, each argument's name and TypeScript type,
        /// and the schema of its result.
        pub const ALL: &[Declared] = &[$(
            Declared {
                op: stringify!($op),
                arguments: &[$(($name, kind!(ts $kind $(($($param)*))?)),)*],
                result: result_schema!($($result)?),
            },
        )*];
    };
}

/// One declared operation, for the generated JS side.
pub struct Declared {
    pub op: &'static str,
    pub arguments: &'static [(&'static str, &'static str)],
    pub result: Option<fn() -> schemars::Schema>,
}

/// `write_todos`' tool definition: its schema as text, for the JS layer to take the
/// document keywords out of.
#[derive(JsonSchema)]
pub struct ToolText {
    pub name: String,
    pub description: String,
    pub schema: String,
}

arguments! {
    ToolDefinitions {} -> ToolText
    ExtractReflection { text "text": string, max_chars "maxChars": whole_or(1, 100_000, crate::text::reflection::DEFAULT_MAX_CHARS as u32) }
        -> Option<String>
    ContextCapsule { input "input": object(ContextCapsuleInput, CONTEXT_CAPSULE_INPUT, "ContextCapsuleInput") } -> Capsule
    PlannerNew { options "options": options(PlannerOptions, PLANNER_OPTIONS, "PlannerOptions") }
    PlannerRecordIteration { tool_names "toolNames": names(1024) } -> IterationVerdict
    PlannerApplyChecked { args "args": any, now_ms "nowMs": time }
    PlannerSnapshot {} -> Snapshot
    LogNew { options "options": options(HistoryOptions, HISTORY_OPTIONS, "HistoryOptions") }
    LogRecordPlan {
        snapshot "snapshot": object(Snapshot, PLANNER_SNAPSHOT, "PlannerSnapshot"),
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
    } -> ReasoningEvent
    LogRecordAct { tool "tool": string, args "args": any, iteration "iteration": whole(0, u32::MAX), now_ms "nowMs": time }
        -> ReasoningEvent
    LogRecordObs {
        tool "tool": string,
        output "output": string,
        is_error "isError": boolean,
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
    } -> ReasoningEvent
    LogRecordReflection {
        text "text": string,
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
        max_chars "maxChars": whole_or(1, 100_000, crate::text::reflection::DEFAULT_MAX_CHARS as u32),
    } -> Option<ReasoningEvent>
    LogEvents {} -> Vec<ReasoningEvent>
    LogSteps {} -> Vec<String>
    ComposePrompt { input "input": options(ComposeInput, COMPOSE_INPUT, "ComposeInput") }
    SessionNew { config "config": options(SessionConfig, SESSION_CONFIG, "SessionConfig") }
    SessionRestore { snapshot "snapshot": given }
    SessionSystemPrompt { parts "parts": options(PromptParts, PROMPT_PARTS, "PromptParts"), now_ms "nowMs": time }
    SessionBeginTurn { input "input": object(BeginTurn, BEGIN_TURN, "BeginTurn") }
    SessionApprove {
        action_id "actionId": string,
        options "options": options(ApproveOptions, APPROVE_OPTIONS, "ApproveOptions"),
        now_ms "nowMs": time,
    }
    SessionReject {
        action_id "actionId": string,
        options "options": options(RejectOptions, REJECT_OPTIONS, "RejectOptions"),
        now_ms "nowMs": time,
    }
    SessionHandleModelResponse { response "response": checked(MODEL_RESPONSE, "ModelResponse"), now_ms "nowMs": time }
    SessionHandleToolResults { results "results": checked(TOOL_RESULTS, "ToolResult[]"), now_ms "nowMs": time }
    SessionMayHold { tool "tool": string }
    SessionNextCall { now_ms "nowMs": time }
    SessionHandoff { options "options": options(HandoffOptions, HANDOFF_OPTIONS, "HandoffOptions"), now_ms "nowMs": time }
    SessionBeginDelegation { call_id "callId": string, now_ms "nowMs": time }
    SessionChild { call_id "callId": string }
    SessionFinishDelegation {
        call_id "callId": string,
        options "options": options(HandoffOptions, HANDOFF_OPTIONS, "HandoffOptions"),
        now_ms "nowMs": time,
        child "child": given,
    }
    ReviewsFromJson { data "data": object(PlanReviewStore, PLAN_REVIEW_STORE, "PlanReviewStoreData") }
    ReviewsPut { review "review": object(PlanReview, PLAN_REVIEW, "PlanReview") }
    ReviewsTake { user_id "userId": optional_string, chat_id "chatId": optional_string, now_ms "nowMs": time }
    SessionHandleVerdict { verdict "verdict": object(Verdict, VERDICT, "Verdict"), now_ms "nowMs": time }
}
