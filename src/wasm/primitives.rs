//! The seed-004 primitives for JS: `write_todos` validation, `PlannerState`,
//! `ReasoningLog`, reflections, capsules and the tool schemas. Each call converts its
//! arguments, calls the core, and converts the result.

use std::cell::RefCell;

use super::arguments;
use super::field_writers::WriteFields;
use super::io::Out;
use super::io::{fields, json_text, number, set_numbers, write};
use super::slab::{self, Slab};
use super::Input;
use super::{Op, Status};
use crate::error::Result;
use crate::json::from_value::from_value;
use crate::json::value::Value;
use crate::plan::planner::{self, AckError, Applied, PlannerAck, PlannerState};
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
        Op::ToolDefinitions => fields(|out| {
            out.ascii("write_todos");
            out.string(WRITE_TODOS_DESCRIPTION.trim_end());
            out.string(WRITE_TODOS_SCHEMA);
        }),
        Op::ExtractReflection => arguments::ExtractReflection::read(input).and_then(|a| {
            fields(|out| out.optional_string(extract_reflection(&a.text, a.max_chars as usize).as_deref()))
        }),
        Op::ContextCapsule => arguments::ContextCapsule::read(input).and_then(|a| {
            let capsule = ContextCapsule::new(a.input);
            fields(|out| capsule.write(out))
        }),
        Op::PlannerNew => arguments::PlannerNew::read(input)
            .and_then(|a| number(slab::insert(&PLANNERS, PlannerState::new(a.options))?)),
        Op::PlannerFree => {
            slab::remove(&PLANNERS, handle);
            Ok(Status::Nothing)
        }
        Op::PlannerRecordIteration => slab::with(&PLANNERS, handle, |planner| {
            let verdict = planner.record_iteration(&arguments::PlannerRecordIteration::read(input)?.tool_names);
            fields(|out| verdict.write(out))
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
            ack(planner.apply_write_todos(args, a.now_ms, HOST)?)
        }),
        Op::PlannerSnapshot => slab::with(&PLANNERS, handle, |planner| fields(|out| planner.snapshot().write(out))),
        Op::LogNew => {
            arguments::LogNew::read(input).and_then(|a| number(slab::insert(&LOGS, ReasoningLog::new(a.options))?))
        }
        Op::LogFree => {
            slab::remove(&LOGS, handle);
            Ok(Status::Nothing)
        }
        Op::LogRecordPlan => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordPlan::read(input)?;
            let event = log.record_plan(&a.snapshot.todos, a.iteration, a.now_ms);
            fields(|out| event.write(out))
        }),
        Op::LogRecordAct => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordAct::read(input)?;
            let event = log.record_act(&a.tool, &&a.args, a.iteration, a.now_ms, HOST)?;
            fields(|out| event.write(out))
        }),
        Op::LogRecordObs => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordObs::read(input)?;
            let event = log.record_obs(&a.tool, &a.output, a.is_error, a.iteration, a.now_ms);
            fields(|out| event.write(out))
        }),
        Op::LogRecordReflection => slab::with(&LOGS, handle, |log| {
            let a = arguments::LogRecordReflection::read(input)?;
            let event = log.record_reflection(&a.text, a.max_chars as usize, a.iteration, a.now_ms);
            fields(|out| {
                out.flag(event.is_some());
                if let Some(event) = event {
                    event.write(out);
                }
            })
        }),
        Op::LogEvents => slab::with(&LOGS, handle, |log| {
            fields(|out| {
                out.count(log.events().len());
                log.events().for_each(|event| event.write(out));
            })
        }),
        Op::LogSteps => slab::with(&LOGS, handle, |log| {
            fields(|out| {
                out.count(log.events().len());
                log.events().for_each(|event| out.string(&event.step()));
            })
        }),
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
    match write_todos::read(input, host, HOST) {
        Outcome::Valid(found) => {
            write_found(given, &found);
            return Ok(Status::Found);
        }
        Outcome::Invalid(mistakes) => return issues(&mistakes),
        Outcome::NotJson(error) => {
            write(|out| out.issues(&[error.issue()]));
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
            write(|out| out.issues(&error.issues));
            Ok(Status::Issues)
        }
        WriteTodosValidation::Success { data, .. } => {
            // The todos read as the core reads any todo.
            let todos: Vec<Todo> = from_value(data.get("todos").cloned().unwrap_or(Value::Undefined))?;
            fields(|out| write_data(out, &todos, &data))
        }
    }
}

/// Valid arguments the full path read, for the JS layer to build as [`write_found`]'s:
/// `todos`; then `data`'s `focus` and `note`, each as a kind (0 absent, 1 a string, 2
/// `undefined`, which zod keeps) and the string.
fn write_data(out: &mut Out<'_>, todos: &[Todo], data: &Value<'_>) {
    out.count(todos.len());
    todos.iter().for_each(|todo| todo.write(out));
    for key in ["focus", "note"] {
        match data.get(key) {
            Some(Value::String(s)) => {
                out.number(1);
                out.string(s);
            }
            Some(Value::Undefined) => out.number(2),
            _ => out.number(0),
        }
    }
}

/// `applyWriteTodos`: an accepted call as numbers (the ack, and where the id of the todo
/// in progress lies), a refusal for plain mistakes as its message and issues, anything
/// else as JSON.
fn apply(planner: &mut PlannerState, given: Input<'_>, host: bool, now_ms: f64) -> Result<Status> {
    applied(given, planner.apply_text(given.bytes, host, now_ms, HOST)?)
}

/// An applied call given as text: accepted, as numbers (the ack, and where the id of the
/// todo in progress lies in the text); refused for plain mistakes, as its message and
/// issues; anything else as the ack.
fn applied(given: Input<'_>, applied: Applied) -> Result<Status> {
    match applied {
        Applied::Found { found, revision } => {
            let in_progress = in_progress(&found).map(|i| found.todos[i].id);
            set_numbers(|numbers| {
                let mut spans = Spans::new(numbers, given);
                spans.numbers.extend([revision, found.todos.len() as u32]);
                spans.push(in_progress);
                spans.in_utf16(given);
            });
            Ok(Status::Accepted)
        }
        Applied::Mistaken(mistakes) => rejection(&mistakes),
        Applied::Ack(ack) => self::ack(ack),
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

/// The refusal of a call for invalid arguments: its message and its issues.
fn rejection(mistakes: &[Mistake]) -> Result<Status> {
    write(|out| {
        out.summary(planner::REJECTION_HEAD, mistakes);
        out.mistakes(mistakes);
    });
    Ok(Status::Rejected)
}

/// An ack the full path made: a rejection for invalid arguments as its message and
/// issues; any other as fields: 1, the revision, the todo count and the todo in
/// progress for an accepted call; 0, the error code and the message for a refused one.
fn ack(ack: PlannerAck) -> Result<Status> {
    match &ack {
        PlannerAck::Rejected(rejected) => match (&rejected.issues, rejected.error) {
            (Some(issues), _) => {
                write(|out| {
                    out.string(&rejected.message);
                    out.issues(issues);
                });
                Ok(Status::Rejected)
            }
            (None, error) => fields(|out| {
                out.flag(false);
                out.ascii(match error {
                    AckError::Refused(refusal) => refusal.as_str(),
                    AckError::InvalidArguments(_) => "invalid_arguments",
                });
                out.string(&rejected.message);
            }),
        },
        PlannerAck::Accepted(accepted) => fields(|out| {
            out.flag(true);
            out.number(accepted.revision);
            out.number(accepted.todo_count);
            out.optional_string(accepted.in_progress.as_deref());
        }),
    }
}

/// The number output of [`Status::Found`], read in order by `foundArgs` in
/// `js/primitives.ts`: the todo count; then `focus` and `note`, each as a kind (0 absent,
/// 1 a string, 2 `undefined`) and a span; then per todo its id span, its content span and
/// its status (0 pending, 1 in progress, 2 completed).
fn write_found(given: Input<'_>, found: &Found) {
    set_numbers(|numbers| {
        let mut spans = Spans::new(numbers, given);
        spans.numbers.push(found.todos.len() as u32);
        for field in [found.focus, found.note] {
            let (kind, span) = match field {
                Field::Absent => (0, None),
                Field::Text(span) => (1, Some(span)),
                Field::Undefined => (2, None),
            };
            spans.numbers.push(kind);
            spans.push(span);
        }
        for todo in found.todos.iter() {
            spans.push(Some(todo.id));
            spans.push(Some(todo.content));
            spans.numbers.push(u32::from(todo.status));
        }
        spans.in_utf16(given);
    });
}

/// A number output holding spans of the caller's string, each three numbers (`found` in
/// `js/primitives.ts` reads them): 1, or 2 when the string holds escapes (to be decoded
/// rather than sliced), or 0 for none; then its start and end, between the quotes, in
/// bytes as the reader found them and, once [`Spans::in_utf16`] has run, in UTF-16 units.
struct Spans<'n> {
    numbers: &'n mut Vec<u32>,
    /// Where each start and end is in `numbers`, when they must be turned into UTF-16
    /// offsets (the caller's string is not ASCII).
    offsets: Option<Vec<usize>>,
}

impl<'n> Spans<'n> {
    fn new(numbers: &'n mut Vec<u32>, given: Input<'_>) -> Self {
        Spans { numbers, offsets: (!given.ascii).then(Vec::new) }
    }

    /// Inlined, with the three numbers copied as one slice: this module's inliner leaves
    /// calls of cost over 50 (scripts/build.mjs), and left a call, writing the spans took
    /// a tenth of a validate-and-apply loop.
    #[inline]
    fn push(&mut self, span: Option<Span>) {
        let at = self.numbers.len();
        match span {
            Some(span) => self.numbers.extend_from_slice(&[1 + u32::from(span.escaped), span.start, span.end]),
            None => self.numbers.extend_from_slice(&[0, 0, 0]),
        }
        if let Some(offsets) = &mut self.offsets {
            offsets.extend([at + 1, at + 2]);
        }
    }

    /// Turns the byte offsets into UTF-16 offsets of `given` (the same for ASCII text).
    fn in_utf16(self, given: Input<'_>) {
        let (numbers, Some(mut order)) = (self.numbers, self.offsets) else {
            return;
        };
        // Offsets with one value get the same answer, so their order does not matter.
        sort_by(&mut order, |&a, &b| numbers[a] < numbers[b]);
        let (mut byte, mut unit) = (0usize, 0u32);
        for slot in order {
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
