//! Each operation's arguments, declared once: their order, the names errors give them,
//! their types, and how each is read. From one declaration come the Rust struct an
//! operation reads its arguments into (`Struct::read`) and, by `tests/generated.rs`,
//! the TypeScript function that writes them in that order (`js/boundary.ts`), typed as
//! the JS API takes them. The hot calls' arguments are read here only on their general
//! path: a session's response or results are read by its plain reader first
//! (`session.rs`), a prompt's texts may cross raw (`compose.rs`), and `write_todos`
//! arguments cross as their text or value alone (`primitives.rs`).

use std::marker::PhantomData;

use super::args::Args;
use super::HOST;
use crate::error::Result;
use crate::json::value::Value;
use crate::plan::planner::{PlannerOptions, PlannerSnapshot};
use crate::prompts::compose::{ComposeInput, PromptParts};
use crate::session::approval::{ApproveOptions, RejectOptions};
use crate::session::config::SessionConfig;
use crate::session::exchange::BeginTurn;
use crate::session::review::{PlanReview, PlanReviewStore};
use crate::trail::capsule::ContextCapsuleInput;
use crate::trail::reasoning::HistoryOptions;
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

macro_rules! arguments {
    ($($op:ident { $($field:ident $name:literal: $kind:ident $(($($param:tt)*))?),* $(,)? })*) => {
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
                    let mut at = 0usize;
                    $(
                        let $field = kind!(read $kind $(($($param)*))?, a, at, $name);
                        at += 1;
                    )*
                    let _ = (&a, at);
                    Ok($op { $($field,)* life: PhantomData })
                }
            }
        )*

        /// Every declared operation: its name, and each argument's name and TypeScript type.
        pub const ALL: &[(&str, &[(&str, &str)])] = &[$(
            (stringify!($op), &[$(($name, kind!(ts $kind $(($($param)*))?)),)*]),
        )*];
    };
}

arguments! {
    ExtractReflection { text "text": string, max_chars "maxChars": whole_or(1, 100_000, crate::text::reflection::DEFAULT_MAX_CHARS as u32) }
    ContextCapsule { input "input": object(ContextCapsuleInput, CONTEXT_CAPSULE_INPUT, "ContextCapsuleInput") }
    PlannerNew { options "options": options(PlannerOptions, PLANNER_OPTIONS, "PlannerOptions") }
    PlannerRecordIteration { tool_names "toolNames": names(1024) }
    PlannerApplyChecked { args "args": any, now_ms "nowMs": time }
    LogNew { options "options": options(HistoryOptions, HISTORY_OPTIONS, "HistoryOptions") }
    LogRecordPlan {
        snapshot "snapshot": object(PlannerSnapshot, PLANNER_SNAPSHOT, "PlannerSnapshot"),
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
    }
    LogRecordAct { tool "tool": string, args "args": any, iteration "iteration": whole(0, u32::MAX), now_ms "nowMs": time }
    LogRecordObs {
        tool "tool": string,
        output "output": string,
        is_error "isError": boolean,
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
    }
    LogRecordReflection {
        text "text": string,
        iteration "iteration": whole(0, u32::MAX),
        now_ms "nowMs": time,
        max_chars "maxChars": whole_or(1, 100_000, crate::text::reflection::DEFAULT_MAX_CHARS as u32),
    }
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
    ReviewsFromJson { data "data": object(PlanReviewStore, PLAN_REVIEW_STORE, "PlanReviewStoreData") }
    ReviewsPut { review "review": object(PlanReview, PLAN_REVIEW, "PlanReview") }
    ReviewsTake { user_id "userId": optional_string, chat_id "chatId": optional_string, now_ms "nowMs": time }
}
