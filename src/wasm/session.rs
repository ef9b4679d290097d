//! The loop controller for JS: `Session`, `PlanReviewStore` and `composePrompt`. Each
//! call converts its arguments, calls the core, and converts the result.

use std::borrow::Cow;
use std::cell::RefCell;

use super::args::Args;
use super::field_writers::{self, WriteFields};
use super::io::{fields, json, json_text, number, value};
use super::slab::{self, Slab};
use super::{compose, hot, raw, Input};
use super::{Op, Status};
use crate::error::Result;
use crate::json::from_value::{from_value, FromValue};
use crate::json::value::Value;
use crate::plan::tools;
use crate::validate::compiled;
use crate::validate::schema::Schema;

use crate::session::exchange::{Decision, ToolResult};
use crate::session::review::{PlanReview, PlanReviewStore};
use crate::session::Session;
use crate::wasm::HOST;

thread_local! {
    static SESSIONS: RefCell<Slab<Session>> = const { RefCell::new(Slab::new()) };
    static REVIEWS: RefCell<Slab<PlanReviewStore>> = const { RefCell::new(Slab::new()) };
}

/// Runs one session call; `None` when `op` is not one. `head` is the call's number,
/// which only the calls with raw texts read (the length of their head, in bytes).
///
/// The getters' typed results, `beginTurn`'s and the review store's cross as JS values
/// ([`value`]): 5–48 % faster than as JSON text (interleaved runs), for 5.7 KB gzip.
/// `drainEvents` and `proposals` stay JSON text (24–48 % slower as values: each key of a
/// flattened event crosses as a string of its own), and so do `approve`/`reject`, the
/// decisions and `toolDefinitions`: no faster as values (0.9–1.1), and each adds 1.9–4.2
/// KB gzip, which takes the module past its 176 KB budget.
pub fn call(op: Op, handle: u32, given: Input<'_>, head: f64) -> Option<Result<Status>> {
    let input = given.bytes;
    let with = |work: &dyn Fn(&mut Session, Args<'_>) -> Result<Status>| {
        slab::with(&SESSIONS, handle, |session| work(session, Args::parse(input, HOST)?))
    };
    Some(match op {
        Op::ComposePrompt => compose::encoded(input),
        Op::ComposeTexts => compose::raw(given, head),
        Op::SessionNew => Args::parse(input, HOST).and_then(|a| {
            let config: crate::session::config::SessionConfig = a.options(0, "config", &compiled::SESSION_CONFIG)?;
            config.check("config")?;
            let session = Session::with_decimals(config, HOST);
            number(slab::insert(&SESSIONS, session)?)
        }),
        Op::SessionFree => {
            slab::remove(&SESSIONS, handle);
            Ok(Status::Nothing)
        }
        Op::SessionRestore => Args::parse(input, HOST).and_then(|a| {
            // The object `snapshot()` returned, or its JSON text.
            let session = match a.value(0)? {
                Value::String(text) => Session::restore_json_with_decimals(text, HOST)?,
                value => Session::restore_with_decimals(value, HOST)?,
            };
            number(slab::insert(&SESSIONS, session)?)
        }),
        Op::SessionSnapshot => with(&|s, _| json_text(s.snapshot_json()?.as_bytes())),
        Op::SessionStepPlan => with(&|s, _| value(&s.step_plan())),
        Op::SessionSystemPrompt => with(&|s, a| {
            let (parts, now_ms) = (a.options(0, "parts", &compiled::PROMPT_PARTS)?, a.time(1, "nowMs")?);
            let composed = s.system_prompt(parts, now_ms)?;
            compose::composed_fields(&composed.components, &composed.unresolved, &composed.prompt)
        }),
        Op::SessionBeginTurn => with(&|s, a| value(&s.begin_turn(a.object(0, "input", &compiled::BEGIN_TURN)?)?)),
        Op::SessionApprove => with(&|s, a| {
            let (action_id, now_ms) = (a.string(0, "actionId")?, a.time(2, "nowMs")?);
            json(&s.approve(&action_id, a.options(1, "options", &compiled::APPROVE_OPTIONS)?, now_ms)?)
        }),
        Op::SessionReject => with(&|s, a| {
            let (action_id, now_ms) = (a.string(0, "actionId")?, a.time(2, "nowMs")?);
            json(&s.reject(&action_id, a.options(1, "options", &compiled::REJECT_OPTIONS)?, now_ms)?)
        }),
        Op::SessionProposals => with(&|s, _| json(&s.proposals())),
        Op::SessionHandleModelResponse => slab::with(&SESSIONS, handle, |s| {
            let (response, now_ms) = value_and_time(input, hot::model_response, "response", &compiled::MODEL_RESPONSE)?;
            match s.handle_model_response(response, now_ms)? {
                Decision::RunTools { calls, replies, next } => {
                    fields(|out| field_writers::run_tools(out, &calls, &replies, &next))
                }
                decision => json(&decision),
            }
        }),
        Op::SessionHandleToolResults | Op::SessionHandleToolResultsRaw => slab::with(&SESSIONS, handle, |s| {
            let (results, now_ms) = match op {
                Op::SessionHandleToolResultsRaw => raw_results(given, head)?,
                _ => value_and_time(input, hot::tool_results, "results", &compiled::TOOL_RESULTS)?,
            };
            let outcome = s.handle_tool_results(results, now_ms)?;
            fields(|out| outcome.write(out))
        }),
        Op::SessionDrainEvents => with(&|s, _| json(&s.drain_events())),
        Op::SessionTodos => with(&|s, _| value(s.todos())),
        Op::SessionPlan => with(&|s, _| value(&s.plan())),
        Op::SessionProgress => with(&|s, _| value(&s.progress())),
        Op::SessionCapsule => with(&|s, _| value(&s.capsule())),
        Op::SessionSteps => with(&|s, _| value(&s.steps())),
        Op::SessionReasoning => with(&|s, _| value(&s.reasoning().collect::<Vec<_>>())),
        Op::SessionToolDefinitions => {
            with(&|s, _| json(&tools::session_tool_definitions(&s.answered_dialects(), HOST)?))
        }
        Op::SessionMayHold => with(&|s, a| json(&s.config().tools.may_hold(&a.string(0, "tool")?))),
        Op::SessionNextCall => with(&|s, a| value(&s.next_call(a.time(0, "nowMs")?))),
        Op::ReviewsNew => number(slab::insert(&REVIEWS, PlanReviewStore::default()).unwrap_or(0)),
        Op::ReviewsFree => {
            slab::remove(&REVIEWS, handle);
            Ok(Status::Nothing)
        }
        Op::ReviewsFromJson => Args::parse(input, HOST).and_then(|a| {
            let store: PlanReviewStore = a.object(0, "data", &compiled::PLAN_REVIEW_STORE)?;
            number(slab::insert(&REVIEWS, store)?)
        }),
        Op::ReviewsPut => slab::with(&REVIEWS, handle, |store| {
            let review: PlanReview = Args::parse(input, HOST)?.object(0, "review", &compiled::PLAN_REVIEW)?;
            store.put(review);
            Ok(Status::Nothing)
        }),
        Op::ReviewsTake => slab::with(&REVIEWS, handle, |store| {
            let a = Args::parse(input, HOST)?;
            let (user_id, chat_id) = (a.string_or_absent(0, "userId")?, a.string_or_absent(1, "chatId")?);
            value(&store.take(user_id.as_deref(), chat_id.as_deref(), a.time(2, "nowMs")?))
        }),
        Op::ReviewsSize => slab::with(&REVIEWS, handle, |store| number(store.len() as u32)),
        Op::ReviewsToJson => slab::with(&REVIEWS, handle, |store| value(store)),
        _ => return None,
    })
}

/// `[results, nowMs]` with each result's `output` given as its length (no lengths come
/// before the head), and the outputs raw after the head (see [`raw`]): a tool's output
/// is most of a result, often kilobytes of lines and quotes.
fn raw_results(given: Input<'_>, head_end: f64) -> Result<(Vec<ToolResult>, f64)> {
    let (_, head, mut raw) = raw::split(given, head_end, "handleToolResults")?;
    let (mut results, now_ms) = value_and_time(head, hot::tool_results, "results", &compiled::TOOL_RESULTS)?;
    for result in &mut results {
        let length = match result.output {
            Value::Number(n) => n,
            _ => f64::NAN,
        };
        result.output = Value::String(Cow::Owned(raw.next(length, usize::MAX)?.to_owned()));
    }
    raw.finish()?;
    Ok((results, now_ms))
}

/// `[value, nowMs]` read by the `hot` reader where it can, else by the general path,
/// which also says what is wrong.
fn value_and_time<T: FromValue>(
    input: &[u8],
    hot: hot::Hot<T>,
    name: &str,
    schema: &'static Schema,
) -> Result<(T, f64)> {
    match hot(input, HOST) {
        Some(read) => Ok(read),
        None => {
            let (value, now_ms) = checked_and_time(input, name, schema)?;
            Ok((from_value(value)?, now_ms))
        }
    }
}

/// `[value, nowMs]` read the general way, the value as `schema` passes it: the part of
/// [`value_and_time`] its instances share.
fn checked_and_time(input: &[u8], name: &str, schema: &'static Schema) -> Result<(Value<'static>, f64)> {
    let a = Args::parse(input, HOST)?;
    Ok((a.checked(0, name, schema)?, a.time(1, "nowMs")?))
}
