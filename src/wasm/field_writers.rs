//! The writers of the results that cross as fields, one per type, for the readers in
//! `js/boundary.ts`. Generated from the types' JSON Schemas by
//! tests/generated/fields.rs. Do not edit.

use super::io::Out;
use crate::error::issue::CustomIssue;
use crate::error::issue::Expected;
use crate::error::issue::InvalidFormatIssue;
use crate::error::issue::InvalidJsonIssue;
use crate::error::issue::InvalidTypeIssue;
use crate::error::issue::InvalidUnionIssue;
use crate::error::issue::InvalidValueIssue;
use crate::error::issue::Issue;
use crate::error::issue::Origin;
use crate::error::issue::PathSegment;
use crate::error::issue::TooBigIssue;
use crate::error::issue::TooSmallIssue;
use crate::error::issue::UnrecognizedKeysIssue;
use crate::error::Error;
use crate::error::ErrorCode;
use crate::error::ErrorData;
use crate::plan::guard::IterationVerdict;
use crate::plan::guard::Refusal;
use crate::plan::planner::AcceptedAck;
use crate::plan::planner::AckError;
use crate::plan::planner::PlannerAck;
use crate::plan::planner::PlannerSnapshot;
use crate::plan::planner::RejectedAck;
use crate::plan::todos::Todo;
use crate::plan::todos::TodoStatus;
use crate::prompts::compose::Composition;
use crate::session::delegate_call::Delegation;
use crate::session::exchange::NextCall;
use crate::session::exchange::ToolCall;
use crate::session::exchange::ToolMessage;
use crate::session::exchange::ToolResultsOutcome;
use crate::trail::capsule::Artifact;
use crate::trail::capsule::ContextCapsule;
use crate::trail::reasoning::Phase;
use crate::trail::reasoning::ReasoningEvent;
use crate::wasm::arguments::ToolText;

/// A result that crosses as fields.
pub trait WriteFields {
    fn write(&self, out: &mut Out<'_>);
}

/// A count, then each item.
pub fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {
    out.count(items.len());
    items.iter().for_each(|item| item.write(out));
}

impl<T: WriteFields> WriteFields for Vec<T> {
    fn write(&self, out: &mut Out<'_>) {
        list(out, self);
    }
}

/// A flag, then the value if there is one.
impl<T: WriteFields> WriteFields for Option<T> {
    fn write(&self, out: &mut Out<'_>) {
        out.flag(self.is_some());
        if let Some(value) = self {
            value.write(out);
        }
    }
}

impl WriteFields for String {
    fn write(&self, out: &mut Out<'_>) {
        out.string(self);
    }
}

// `ErrorCode` crosses as its index in [invalid_argument, invalid_options, host_exception, invalid_state, unknown_action, action_already_resolved, action_of_another_turn, invalid_snapshot, internal].
const _: () = assert!(ErrorCode::InvalidArgument as u32 == 0);
const _: () = assert!(ErrorCode::InvalidOptions as u32 == 1);
const _: () = assert!(ErrorCode::HostException as u32 == 2);
const _: () = assert!(ErrorCode::InvalidState as u32 == 3);
const _: () = assert!(ErrorCode::UnknownAction as u32 == 4);
const _: () = assert!(ErrorCode::ActionAlreadyResolved as u32 == 5);
const _: () = assert!(ErrorCode::ActionOfAnotherTurn as u32 == 6);
const _: () = assert!(ErrorCode::InvalidSnapshot as u32 == 7);
const _: () = assert!(ErrorCode::Internal as u32 == 8);

// `Expected` crosses as its index in [object, array, string, number, int, boolean, null, record].
const _: () = assert!(Expected::Object as u32 == 0);
const _: () = assert!(Expected::Array as u32 == 1);
const _: () = assert!(Expected::String as u32 == 2);
const _: () = assert!(Expected::Number as u32 == 3);
const _: () = assert!(Expected::Int as u32 == 4);
const _: () = assert!(Expected::Boolean as u32 == 5);
const _: () = assert!(Expected::Null as u32 == 6);
const _: () = assert!(Expected::Record as u32 == 7);

// `Origin` crosses as its index in [string, array, number, unknown].
const _: () = assert!(Origin::String as u32 == 0);
const _: () = assert!(Origin::Array as u32 == 1);
const _: () = assert!(Origin::Number as u32 == 2);
const _: () = assert!(Origin::Unknown as u32 == 3);

// `Phase` crosses as its index in [plan, act, obs, reflect].
const _: () = assert!(Phase::Plan as u32 == 0);
const _: () = assert!(Phase::Act as u32 == 1);
const _: () = assert!(Phase::Obs as u32 == 2);
const _: () = assert!(Phase::Reflect as u32 == 3);

// `Refusal` crosses as its index in [planner_overuse_execute_next_step, duplicate_planner_call].
const _: () = assert!(Refusal::PlannerOveruseExecuteNextStep as u32 == 0);
const _: () = assert!(Refusal::DuplicatePlannerCall as u32 == 1);

// `TodoStatus` crosses as its index in [pending, in_progress, completed].
const _: () = assert!(TodoStatus::Pending as u32 == 0);
const _: () = assert!(TodoStatus::InProgress as u32 == 1);
const _: () = assert!(TodoStatus::Completed as u32 == 2);

/// `AcceptedAck`.
impl WriteFields for AcceptedAck {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.revision);
        out.number(self.todo_count);
        match &self.in_progress {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
    }
}

/// `Artifact`.
impl WriteFields for Artifact {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.kind);
        out.string(&self.reference);
        out.string(&self.summary);
    }
}

/// `Composed`.
impl WriteFields for Composition<'_> {
    fn write(&self, out: &mut Out<'_>) {
        out.strings(&self.components);
        out.strings(&self.unresolved);
        out.last_string(&self.prompt);
    }
}

/// `ContextCapsule`.
impl WriteFields for ContextCapsule {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.goal);
        match &self.plan_snapshot {
            Some(value) => {
                out.flag(true);
                value.write(out);
            }
            None => out.flag(false),
        }
        out.strings(&self.key_findings);
        list(out, &self.artifacts);
        out.strings(&self.next_actions);
    }
}

/// `CustomIssue`.
impl WriteFields for CustomIssue {
    fn write(&self, out: &mut Out<'_>) {
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `Delegation`.
impl WriteFields for Delegation {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.call_id);
        out.string(&self.tool);
        out.string(&self.goal);
        out.strings(&self.acceptance);
        out.number(self.max_iterations);
        out.number(self.timeout_ms);
        out.number(self.depth);
        match &self.title {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.agent {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.todo_id {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.context {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
    }
}

/// `Error`.
impl WriteFields for Error {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.code as u32);
        out.string(&self.message);
        self.data.write(out);
    }
}

/// `ErrorData`.
impl WriteFields for ErrorData {
    fn write(&self, out: &mut Out<'_>) {
        match &self.argument {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.issues {
            Some(value) => {
                out.flag(true);
                list(out, value);
            }
            None => out.flag(false),
        }
        match &self.detail {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
    }
}

/// `InvalidFormatIssue`.
impl WriteFields for InvalidFormatIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.origin as u32);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `InvalidJsonIssue`.
impl WriteFields for InvalidJsonIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.position);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `InvalidTypeIssue`.
impl WriteFields for InvalidTypeIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.expected as u32);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `InvalidUnionIssue`.
impl WriteFields for InvalidUnionIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.count(self.errors.len());
        for item in &self.errors {
            list(out, item);
        }
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `InvalidValueIssue`.
impl WriteFields for InvalidValueIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.strings(&self.values);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `IterationVerdict`.
impl WriteFields for IterationVerdict {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.iteration);
        out.flag(self.planner_only);
        out.number(self.planner_only_streak);
        match &self.refusal {
            Some(value) => {
                out.flag(true);
                out.number(*value as u32);
            }
            None => out.flag(false),
        }
    }
}

/// `NextCall`.
impl WriteFields for NextCall {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.iteration);
        out.flag(self.tools_withheld);
        out.number(self.tool_rounds_remaining);
        out.string(&self.budget_line);
        match &self.tokens_remaining {
            Some(value) => {
                out.flag(true);
                out.number(*value);
            }
            None => out.flag(false),
        }
    }
}

/// `PlannerSnapshot`.
impl WriteFields for PlannerSnapshot {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.revision);
        list(out, &self.todos);
        match &self.focus {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.note {
            Some(value) => {
                out.flag(true);
                out.string(value);
            }
            None => out.flag(false),
        }
        match &self.updated_at {
            Some(value) => {
                out.flag(true);
                out.float(*value);
            }
            None => out.flag(false),
        }
    }
}

/// `ReasoningEvent`.
impl WriteFields for ReasoningEvent {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.phase as u32);
        out.string(&self.summary);
        out.number(self.iteration);
        out.float(self.timestamp);
    }
}

/// `RejectedAck`.
impl WriteFields for RejectedAck {
    fn write(&self, out: &mut Out<'_>) {
        self.error.write(out);
        out.string(&self.message);
        match &self.issues {
            Some(value) => {
                out.flag(true);
                list(out, value);
            }
            None => out.flag(false),
        }
    }
}

/// `Todo`.
impl WriteFields for Todo {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.id);
        out.string(&self.content);
        out.number(self.status as u32);
    }
}

/// `TooBigIssue`.
impl WriteFields for TooBigIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.origin as u32);
        out.float(self.maximum);
        out.flag(self.inclusive);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `TooSmallIssue`.
impl WriteFields for TooSmallIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.number(self.origin as u32);
        out.float(self.minimum);
        out.flag(self.inclusive);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `ToolCall`.
impl WriteFields for ToolCall {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.id);
        out.string(&self.name);
        out.json(&self.args);
    }
}

/// `ToolMessage`.
impl WriteFields for ToolMessage {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.tool_call_id);
        out.string(&self.name);
        out.string(&self.content);
        out.flag(self.is_error);
    }
}

/// `ToolResultsOutcome`.
impl WriteFields for ToolResultsOutcome {
    fn write(&self, out: &mut Out<'_>) {
        list(out, &self.messages);
        out.flag(self.complete);
        self.next.write(out);
    }
}

/// `ToolText`.
impl WriteFields for ToolText {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.name);
        out.string(&self.description);
        out.string(&self.schema);
    }
}

/// `UnrecognizedKeysIssue`.
impl WriteFields for UnrecognizedKeysIssue {
    fn write(&self, out: &mut Out<'_>) {
        out.strings(&self.keys);
        list(out, &self.path);
        out.string(&self.message);
    }
}

/// `AckError`: its variant's index, then the variant.
impl WriteFields for AckError {
    fn write(&self, out: &mut Out<'_>) {
        match self {
            AckError::InvalidArguments(_) => out.number(0),
            AckError::Refused(value) => {
                out.number(1);
                out.number(*value as u32);
            }
        }
    }
}

/// `Issue`: its variant's index, then the variant.
impl WriteFields for Issue {
    fn write(&self, out: &mut Out<'_>) {
        match self {
            Issue::InvalidType(value) => {
                out.number(0);
                value.write(out);
            }
            Issue::TooSmall(value) => {
                out.number(1);
                value.write(out);
            }
            Issue::TooBig(value) => {
                out.number(2);
                value.write(out);
            }
            Issue::InvalidValue(value) => {
                out.number(3);
                value.write(out);
            }
            Issue::UnrecognizedKeys(value) => {
                out.number(4);
                value.write(out);
            }
            Issue::InvalidUnion(value) => {
                out.number(5);
                value.write(out);
            }
            Issue::InvalidFormat(value) => {
                out.number(6);
                value.write(out);
            }
            Issue::InvalidJson(value) => {
                out.number(7);
                value.write(out);
            }
            Issue::Custom(value) => {
                out.number(8);
                value.write(out);
            }
        }
    }
}

/// `PathSegment`: its variant's index, then the variant.
impl WriteFields for PathSegment {
    fn write(&self, out: &mut Out<'_>) {
        match self {
            PathSegment::Key(value) => {
                out.number(0);
                out.string(value);
            }
            PathSegment::Index(value) => {
                out.number(1);
                out.number(*value);
            }
        }
    }
}

/// `PlannerAck`: its variant's index, then the variant.
impl WriteFields for PlannerAck {
    fn write(&self, out: &mut Out<'_>) {
        match self {
            PlannerAck::Accepted(value) => {
                out.number(0);
                value.write(out);
            }
            PlannerAck::Rejected(value) => {
                out.number(1);
                value.write(out);
            }
        }
    }
}

/// `Decision::RunTools` (`type: "runTools"`, which the reader knows).
pub fn run_tools(
    out: &mut Out<'_>,
    calls: &[ToolCall],
    delegations: &[Delegation],
    replies: &[ToolMessage],
    next: &NextCall,
) {
    list(out, calls);
    list(out, delegations);
    list(out, replies);
    next.write(out);
}
