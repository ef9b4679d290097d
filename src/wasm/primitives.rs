//! The seed-004 primitives for JS: `write_todos` validation, `PlannerState`,
//! `ReasoningLog`, reflections, capsules and the tool schemas. Each call converts its
//! arguments, calls the core, and converts the result.

use std::cell::RefCell;

use super::arguments;
use super::field_parts::{AcceptedAckParts, Key, RejectedAckParts, TodoParts, WriteTodosParts};
use super::field_writers::{list, WriteFields};
use super::io::Out;
use super::io::{fields, json_text, number, write};
use super::slab::{self, Slab};
use super::Input;
use super::{Op, Status};
use crate::error::Result;
use crate::json::from_value::from_value;
use crate::json::value::Value;
use crate::plan::planner::{self, AckError, Applied, InvalidArgumentsCode, PlannerState};
use crate::plan::todos::{self, Todo, TodoStatus, ToolArgs, WriteTodosValidation};
use crate::plan::todos::{WRITE_TODOS_DESCRIPTION, WRITE_TODOS_SCHEMA};
use crate::sort::sort_by;
use crate::text::reflection::extract_reflection;
use crate::trail::capsule::ContextCapsule;
use crate::trail::reasoning::ReasoningLog;
use crate::validate::write_todos::{self, Field, Found, Mistake, Outcome, Span};
use crate::wasm::HOST;

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
        Op::WriteTodosJsonSchema => json_text(WRITE_TODOS_SCHEMA.as_bytes()),
        // The JS layer makes the definition, the schema without its document keywords.
        Op::ToolDefinitions => arguments::ToolDefinitions::answer(&arguments::ToolText {
            name: "write_todos".to_owned(),
            description: WRITE_TODOS_DESCRIPTION.trim_end().to_owned(),
            schema: WRITE_TODOS_SCHEMA.to_owned(),
        }),
        Op::ExtractReflection => arguments::ExtractReflection::read(input)
            .and_then(|a| arguments::ExtractReflection::answer(&extract_reflection(&a.text, a.max_chars as usize))),
        Op::ContextCapsule => arguments::ContextCapsule::read(input)
            .and_then(|a| arguments::ContextCapsule::answer(&ContextCapsule::new(a.input))),
        Op::PlannerNew => arguments::PlannerNew::read(input)
            .and_then(|a| number(slab::insert(&PLANNERS, PlannerState::new(a.options))?)),
        Op::PlannerFree => {
            slab::remove(&PLANNERS, handle);
            Ok(Status::Nothing)
        }
        Op::PlannerRecordIteration => slab::with(&PLANNERS, handle, |planner| {
            let verdict = planner.record_iteration(&arguments::PlannerRecordIteration::read(input)?.tool_names);
            arguments::PlannerRecordIteration::answer(&verdict)
        }),
        Op::PlannerApplyText => slab::with(&PLANNERS, handle, |planner| apply(planner, given, false, now_ms)),
        Op::PlannerApplyValue => slab::with(&PLANNERS, handle, |planner| apply(planner, given, true, now_ms)),
        Op::PlannerApplyQuoted => slab::with(&PLANNERS, handle, |planner| {
            apply(planner, Input { bytes: &unquoted(input)?, ascii: false }, false, now_ms)
        }),
        // A time that is not a finite number: checked here, so that the error is the
        // same as for any other argument.
        Op::PlannerApplyChecked => slab::with(&PLANNERS, handle, |planner| {
            let a = arguments::PlannerApplyChecked::read(input)?;
            let args = match &a.args {
                Value::String(text) => ToolArgs::Text(text.as_bytes()),
                value => ToolArgs::Value(value),
            };
            let ack = planner.apply_write_todos(args, a.now_ms, HOST)?;
            fields(|out| ack.write(out))
        }),
        Op::PlannerSnapshot => {
            slab::with(&PLANNERS, handle, |planner| arguments::PlannerSnapshot::answer(planner.snapshot()))
        }
        Op::LogNew => {
            arguments::LogNew::read(input).and_then(|a| number(slab::insert(&LOGS, ReasoningLog::new(a.options))?))
        }
        Op::LogFree => {
            slab::remove(&LOGS, handle);
            Ok(Status::Nothing)
        }
        Op::LogRecordPlan => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordPlan::read(input)?;
            arguments::LogRecordPlan::answer(log.record_plan(&a.snapshot.todos, a.iteration, a.now_ms))
        }),
        Op::LogRecordAct => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordAct::read(input)?;
            arguments::LogRecordAct::answer(log.record_act(&a.tool, &&a.args, a.iteration, a.now_ms, HOST)?)
        }),
        Op::LogRecordObs => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordObs::read(input)?;
            arguments::LogRecordObs::answer(log.record_obs(&a.tool, &a.output, a.is_error, a.iteration, a.now_ms))
        }),
        Op::LogRecordReflection => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordReflection::read(input)?;
            let event = log.record_reflection(&a.text, a.max_chars as usize, a.iteration, a.now_ms);
            arguments::LogRecordReflection::answer(&event.cloned())
        }),
        Op::LogEvents => {
            slab::with(&LOGS, handle, |log| arguments::LogEvents::answer(&log.events().cloned().collect()))
        }
        Op::LogSteps => {
            slab::with(&LOGS, handle, |log| arguments::LogSteps::answer(&log.events().map(|e| e.step()).collect()))
        }
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
/// anything else through the full path.
fn validate(given: Input<'_>, host: bool) -> Result<Status> {
    let input = given.bytes;
    match write_todos::read(input, host, HOST) {
        Outcome::Valid(found) => return spans(given, |out, spans| write_found(out, spans, &found)),
        Outcome::Invalid(mistakes) => return issues(&mistakes),
        Outcome::NotJson(error) => {
            write(|out| list(out, &[error.issue()]));
            return Ok(Status::Issues);
        }
        Outcome::Unsure => {}
    }
    let args = match host {
        true => ToolArgs::<&Value>::Host(input),
        false => ToolArgs::Text(input),
    };
    match todos::validate(args, HOST)? {
        WriteTodosValidation::Failure { error, .. } => {
            write(|out| list(out, &error.issues));
            Ok(Status::Issues)
        }
        WriteTodosValidation::Success { data, .. } => {
            // The todos read as the core reads any todo.
            let todos: Vec<Todo> = from_value(data.get("todos").cloned().unwrap_or(Value::Undefined))?;
            // `focus` and `note` as zod gives them: absent, a string, or `undefined`.
            let key = |name| match data.get(name) {
                Some(Value::String(s)) => Key::Given(&**s),
                Some(Value::Undefined) => Key::Undefined,
                _ => Key::Absent,
            };
            let todos = |out: &mut Out<'_>| list(out, &todos);
            fields(|out| WriteTodosParts { todos, focus: key("focus"), note: key("note") }.write(out))
        }
    }
}

/// `applyWriteTodos`: an accepted call as its ack, with the id of the todo in progress as
/// its place in the text; a refusal for plain mistakes as its message and issues;
/// anything else as the ack the core made.
fn apply(planner: &mut PlannerState, given: Input<'_>, host: bool, now_ms: f64) -> Result<Status> {
    match planner.apply_text(given.bytes, host, now_ms, HOST)? {
        Applied::Found { found, revision } => spans(given, |out, spans| {
            let in_progress = in_progress(&found).map(|i| found.todos[i].id);
            let in_progress = in_progress.map(|span| move |out: &mut Out<'_>| spans.put(out, span));
            AcceptedAckParts { revision, todo_count: found.todos.len() as u32, in_progress }.write(out)
        }),
        Applied::Mistaken(mistakes) => fields(|out| {
            RejectedAckParts {
                error: AckError::InvalidArguments(InvalidArgumentsCode),
                message: |out: &mut Out<'_>| out.summary(planner::REJECTION_HEAD, &mistakes),
                issues: Key::Given(|out: &mut Out<'_>| out.mistakes(&mistakes)),
            }
            .write(out)
        }),
        Applied::Ack(ack) => fields(|out| ack.write(out)),
    }
}

/// Which of valid arguments' todos is the one in progress, if any.
fn in_progress(found: &Found) -> Option<usize> {
    found.todos.iter().position(|t| TodoStatus::from_index(t.status) == TodoStatus::InProgress)
}

/// Invalid arguments' issues, for `validateWriteTodos`.
fn issues(mistakes: &[Mistake]) -> Result<Status> {
    write(|out| out.mistakes(mistakes));
    Ok(Status::Issues)
}

/// Valid arguments found in the text, as `WriteTodos` (their strings as places in it).
fn write_found(out: &mut Out<'_>, spans: &Spans, found: &Found) {
    let todos = |out: &mut Out<'_>| {
        out.count(found.todos.len());
        for todo in found.todos.iter() {
            let id = |out: &mut Out<'_>| spans.put(out, todo.id);
            let content = |out: &mut Out<'_>| spans.put(out, todo.content);
            TodoParts { id, content, status: TodoStatus::from_index(todo.status) }.write(out);
        }
    };
    let key = |field| match field {
        Field::Absent => Key::Absent,
        Field::Text(span) => Key::Given(move |out: &mut Out<'_>| spans.put(out, span)),
        Field::Undefined => Key::Undefined,
    };
    WriteTodosParts { todos, focus: key(found.focus), note: key(found.note) }.write(out);
}

/// A result `fill` writes whose strings are places in the text given (see [`Spans`]).
fn spans(given: Input<'_>, fill: impl FnOnce(&mut Out<'_>, &Spans)) -> Result<Status> {
    let spans = Spans { offsets: (!given.ascii).then(|| RefCell::new(Vec::new())) };
    write(|out| {
        fill(out, &spans);
        spans.in_utf16(out.numbers, given);
    });
    Ok(Status::Spans)
}

/// The strings of a result read from the text the JS layer sent, as their places in it
/// (`SpanReader` in `js/engine.ts` reads them): 1 when the string holds escapes (to be
/// decoded rather than sliced), else 0; then its start and end between the quotes, in
/// bytes as the reader found them and, once [`Spans::in_utf16`] has run, in UTF-16 units.
struct Spans {
    /// Where each start and end is in the number output, when they must be turned into
    /// UTF-16 offsets (the text is not ASCII).
    offsets: Option<RefCell<Vec<usize>>>,
}

impl Spans {
    /// Inlined, with the three numbers copied as one slice: this module's inliner leaves
    /// calls of cost over 50 (scripts/build.mjs), and left a call, writing the spans took
    /// a tenth of a validate-and-apply loop.
    #[inline]
    fn put(&self, out: &mut Out<'_>, span: Span) {
        let at = out.numbers.len();
        out.numbers.extend_from_slice(&[u32::from(span.escaped), span.start, span.end]);
        if let Some(offsets) = &self.offsets {
            offsets.borrow_mut().extend([at + 1, at + 2]);
        }
    }

    /// Turns the byte offsets into UTF-16 offsets of `given` (the same for ASCII text).
    fn in_utf16(&self, numbers: &mut [u32], given: Input<'_>) {
        let Some(offsets) = &self.offsets else {
            return;
        };
        let mut order = offsets.borrow_mut();
        // Offsets with one value get the same answer, so their order does not matter.
        sort_by(&mut order, |&a, &b| numbers[a] < numbers[b]);
        let (mut byte, mut unit) = (0usize, 0u32);
        for &slot in order.iter() {
            let target = numbers[slot] as usize;
            for &b in given.bytes.get(byte..target).unwrap_or_default() {
                // A UTF-8 lead byte starts one code unit, a four-byte one two.
                unit += u32::from(b & 0xC0 != 0x80) + u32::from(b >= 0xF0);
            }
            byte = target;
            numbers[slot] = unit;
        }
    }
}
