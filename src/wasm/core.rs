//! The seed-004 primitives for JS: `write_todos` validation, `PlannerState`,
//! `ReasoningLog`, reflections, capsules and the tool schemas. Each call converts its
//! arguments, calls the core, and converts the result.

use std::cell::RefCell;

use super::args::Args;
use super::io::{json, number, set_both, set_numbers};
use super::issues::IssueWriter;
use super::ops::{Op, Status};
use super::slab::{self, Slab};
use super::Input;
use crate::error::Result;
use crate::plan::planner::{self, PlannerAck, PlannerSnapshot, PlannerState, RejectedAck};
use crate::plan::todos::{self, Args as TodoArgs, TodoStatus};
use crate::plan::tools;
use crate::text::reflection::{extract_reflection, DEFAULT_MAX_CHARS};
use crate::trail::capsule::ContextCapsule;
use crate::trail::reasoning::ReasoningLog;
use crate::validate::compiled;
use crate::validate::write_todos::{self, Field, Found, Outcome, Span};

thread_local! {
    static PLANNERS: RefCell<Slab<PlannerState>> = const { RefCell::new(Slab::new()) };
    static LOGS: RefCell<Slab<ReasoningLog>> = const { RefCell::new(Slab::new()) };
}

/// Runs one primitive; `None` when `op` is not one.
pub fn call(op: Op, handle: u32, given: Input<'_>, now_ms: f64) -> Option<Result<Status>> {
    let input = given.bytes;
    Some(match op {
        Op::ValidateText => validate(given, false),
        Op::ValidateValue => validate(given, true),
        Op::ValidateQuoted => unquoted(input).and_then(|text| validate(Input { bytes: &text, ascii: false }, false)),
        Op::WriteTodosJsonSchema => tools::write_todos_json_schema().and_then(|schema| json(&schema)),
        Op::ToolDefinitions => tools::tool_definitions().and_then(|tools| json(&tools)),
        Op::ExtractReflection => Args::parse(input).and_then(|a| {
            let text = a.string(0, "text")?;
            let max_chars = a.whole_or(1, "maxChars", 1, 100_000, DEFAULT_MAX_CHARS as u32)?;
            json(&extract_reflection(&text, max_chars as usize))
        }),
        Op::ContextCapsule => Args::parse(input)
            .and_then(|a| json(&ContextCapsule::new(a.object(0, "input", &compiled::CONTEXT_CAPSULE_INPUT)?))),
        Op::PlannerNew => Args::parse(input).and_then(|a| {
            let planner = PlannerState::new(a.options(0, "options", &compiled::PLANNER_OPTIONS)?);
            number(slab::insert(&PLANNERS, planner)?)
        }),
        Op::PlannerFree => {
            slab::remove(&PLANNERS, handle);
            Ok(Status::Nothing)
        }
        Op::PlannerRecordIteration => slab::with(&PLANNERS, handle, |planner| {
            let names = Args::parse(input)?.names(0, "toolNames", 1024)?;
            json(&planner.record_iteration(&names))
        }),
        Op::PlannerApplyText => slab::with(&PLANNERS, handle, |planner| apply(planner, given, false, now_ms)),
        Op::PlannerApplyValue => slab::with(&PLANNERS, handle, |planner| apply(planner, given, true, now_ms)),
        Op::PlannerApplyQuoted => slab::with(&PLANNERS, handle, |planner| {
            apply(planner, Input { bytes: &unquoted(input)?, ascii: false }, false, now_ms)
        }),
        // A time that is not a finite number: checked here, so that the error is the
        // same as for any other argument.
        Op::PlannerApplyChecked => slab::with(&PLANNERS, handle, |planner| {
            let a = Args::parse(input)?;
            let now_ms = a.time(1, "nowMs")?;
            let args = match a.get(0) {
                crate::json::value::Value::String(text) => TodoArgs::Text(text.as_bytes()),
                value => TodoArgs::Value(value),
            };
            ack(planner.apply_write_todos(args, now_ms)?)
        }),
        Op::PlannerSnapshot => slab::with(&PLANNERS, handle, |planner| json(planner.snapshot())),
        Op::LogNew => Args::parse(input).and_then(|a| {
            let log = ReasoningLog::new(a.options(0, "options", &compiled::HISTORY_OPTIONS)?);
            number(slab::insert(&LOGS, log)?)
        }),
        Op::LogFree => {
            slab::remove(&LOGS, handle);
            Ok(Status::Nothing)
        }
        Op::LogRecordPlan => slab::with(&LOGS, handle, |log| {
            let a = Args::parse(input)?;
            let snapshot: PlannerSnapshot = a.object(0, "snapshot", &compiled::PLANNER_SNAPSHOT)?;
            let (iteration, now_ms) = (a.whole(1, "iteration", 0, u32::MAX)?, a.time(2, "nowMs")?);
            json(log.record_plan(&snapshot.todos, iteration, now_ms))
        }),
        Op::LogRecordAct => slab::with(&LOGS, handle, |log| {
            let a = Args::parse(input)?;
            let tool = a.string(0, "tool")?;
            let (iteration, now_ms) = (a.whole(2, "iteration", 0, u32::MAX)?, a.time(3, "nowMs")?);
            json(log.record_act(&tool, &a.get(1), iteration, now_ms)?)
        }),
        Op::LogRecordObs => slab::with(&LOGS, handle, |log| {
            let a = Args::parse(input)?;
            let (tool, output, is_error) = (a.string(0, "tool")?, a.string(1, "output")?, a.boolean(2, "isError")?);
            let (iteration, now_ms) = (a.whole(3, "iteration", 0, u32::MAX)?, a.time(4, "nowMs")?);
            json(log.record_obs(&tool, &output, is_error, iteration, now_ms))
        }),
        Op::LogRecordReflection => slab::with(&LOGS, handle, |log| {
            let a = Args::parse(input)?;
            let text = a.string(0, "text")?;
            let (iteration, now_ms) = (a.whole(1, "iteration", 0, u32::MAX)?, a.time(2, "nowMs")?);
            let max_chars = a.whole_or(3, "maxChars", 1, 100_000, DEFAULT_MAX_CHARS as u32)?;
            json(&log.record_reflection(&text, max_chars as usize, iteration, now_ms))
        }),
        Op::LogEvents => slab::with(&LOGS, handle, |log| json(&log.events().collect::<Vec<_>>())),
        Op::LogSteps => slab::with(&LOGS, handle, |log| json(&log.steps())),
        Op::LogClear => slab::with(&LOGS, handle, |log| {
            log.clear();
            Ok(Status::Nothing)
        }),
        _ => return None,
    })
}

/// A string that crossed as its JSON literal (it holds lone surrogates): its code
/// units as WTF-8, which the JSON parser reads as `JSON.parse` would read the string.
fn unquoted(literal: &[u8]) -> Result<Vec<u8>> {
    crate::json::escaped_text_to_wtf8(literal).map_err(|e| crate::error::Error::internal(&e.message))
}

/// `validateWriteTodos`: plainly valid arguments as the places of their strings, for the
/// JS layer to slice from its own string; plain mistakes as issues for it to build;
/// anything else through the full path, as JSON.
fn validate(given: Input<'_>, host: bool) -> Result<Status> {
    let input = given.bytes;
    match write_todos::read(input, host) {
        Outcome::Valid(found) => {
            write_found(given, &found);
            return Ok(Status::Found);
        }
        Outcome::Invalid(mistakes) => {
            set_both(|numbers, text| IssueWriter::new(numbers, text).mistakes(&mistakes));
            return Ok(Status::Issues);
        }
        Outcome::Unsure => {}
    }
    let args = match host {
        true => TodoArgs::<&crate::json::value::Value>::Host(input),
        false => TodoArgs::Text(input),
    };
    let validation = todos::validate(args)?;
    if let todos::WriteTodosValidation::Failure { error, .. } = &validation {
        set_both(|numbers, text| IssueWriter::new(numbers, text).issues(&error.issues));
        return Ok(Status::Issues);
    }
    // JSON has no `undefined`: an optional key given as `undefined` (which zod keeps) is
    // named in the number output instead.
    set_numbers(|out| {
        if let todos::WriteTodosValidation::Success { data, .. } = &validation {
            for (index, key) in ["focus", "note"].into_iter().enumerate() {
                if matches!(data.get(key), Some(crate::json::value::Value::Undefined)) {
                    out.push(index as u32);
                }
            }
        }
    });
    // (`undefined` is written as `null`, and named above.)
    json(&validation)
}

/// `applyWriteTodos`: an accepted call as numbers (the ack, and where the id of the todo
/// in progress lies), a refusal for plain mistakes as its message and issues, anything
/// else as JSON.
fn apply(planner: &mut PlannerState, given: Input<'_>, host: bool, now_ms: f64) -> Result<Status> {
    let input = given.bytes;
    if planner.refusal().is_none() {
        match write_todos::read(input, host) {
            Outcome::Valid(found) => {
                let revision = planner.replace_found(input, &found, now_ms);
                let in_progress = found
                    .todos
                    .iter()
                    .find(|t| TodoStatus::from_index(t.status) == TodoStatus::InProgress)
                    .map(|t| t.id);
                set_numbers(|out| {
                    out.extend([revision, found.todos.len() as u32]);
                    push_span(out, in_progress);
                    utf16_offsets(given, out, &[3, 4]);
                });
                return Ok(Status::Accepted);
            }
            Outcome::Invalid(mistakes) => {
                set_both(|numbers, text| {
                    let mut writer = IssueWriter::new(numbers, text);
                    writer.summary(planner::REJECTION_HEAD, &mistakes);
                    writer.mistakes(&mistakes);
                });
                return Ok(Status::Rejected);
            }
            Outcome::Unsure => {}
        }
    }
    let args = match host {
        true => TodoArgs::<&crate::json::value::Value>::Host(input),
        false => TodoArgs::Text(input),
    };
    ack(planner.apply_write_todos(args, now_ms)?)
}

/// An ack the full path made: a rejection for invalid arguments as its message and
/// issues, any other as JSON.
fn ack(ack: PlannerAck) -> Result<Status> {
    match &ack {
        PlannerAck::Rejected(RejectedAck { issues: Some(issues), message, .. }) => {
            set_both(|numbers, text| {
                let mut writer = IssueWriter::new(numbers, text);
                writer.string(message);
                writer.issues(issues);
            });
            Ok(Status::Rejected)
        }
        _ => json(&ack),
    }
}

/// The number output of [`Status::Found`]: the todo count; then `focus` and `note`, each
/// as a kind (0 absent, 1 a string, 2 `undefined`) and a span; then per todo its id
/// span, its content span and its status (0 pending, 1 in progress, 2 completed). A span
/// is three numbers: start and end in UTF-16 units of the caller's string, between the
/// quotes, and 1 when the string holds escapes (to be decoded rather than sliced).
fn write_found(given: Input<'_>, found: &Found) {
    set_numbers(|numbers| {
        numbers.reserve(9 + 7 * found.todos.len());
        numbers.push(found.todos.len() as u32);
        for field in [found.focus, found.note] {
            let (kind, span) = match field {
                Field::Absent => (0, None),
                Field::Text(span) => (1, Some(span)),
                Field::Undefined => (2, None),
            };
            numbers.push(kind);
            push_span(numbers, span);
        }
        for todo in &found.todos {
            push_span(numbers, Some(todo.id));
            push_span(numbers, Some(todo.content));
            numbers.push(u32::from(todo.status));
        }
        if !given.ascii {
            // The starts and ends: two of each field's four numbers, four of a todo's seven.
            let todos = (0..found.todos.len()).flat_map(|i| [1, 2, 4, 5].map(|slot| 9 + 7 * i + slot));
            let slots: Vec<usize> = [3, 4, 7, 8].into_iter().chain(todos).collect();
            utf16_offsets(given, numbers, &slots);
        }
    });
}

/// A span as three numbers (a present flag, start, end; the escape flag folded into the
/// present flag: 1 plain, 2 escaped, 0 none).
fn push_span(numbers: &mut Vec<u32>, span: Option<Span>) {
    match span {
        Some(span) => numbers.extend([1 + u32::from(span.escaped), span.start, span.end]),
        None => numbers.extend([0, 0, 0]),
    }
}

/// Turns the byte offsets at `slots` into UTF-16 offsets (the same for ASCII text).
fn utf16_offsets(given: Input<'_>, numbers: &mut [u32], slots: &[usize]) {
    if given.ascii {
        return;
    }
    let text = given.bytes;
    let mut order: Vec<usize> = slots.to_vec();
    order.sort_by_key(|&slot| numbers[slot]);
    let (mut byte, mut unit) = (0usize, 0u32);
    for slot in order {
        let target = numbers[slot] as usize;
        for &b in &text[byte..target] {
            // A UTF-8 lead byte starts one code unit, a four-byte one two.
            unit += u32::from(b & 0xC0 != 0x80) + u32::from(b >= 0xF0);
        }
        byte = target;
        numbers[slot] = unit;
    }
}

