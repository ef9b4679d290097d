//! The writers of the results that cross as fields, one per type, for the readers in
//! `js/boundary.ts`. Generated from the types' JSON Schemas by
//! tests/generated/fields.rs. Do not edit.

use super::io::Out;
use crate::plan::guard::IterationVerdict;
use crate::plan::guard::Refusal;
use crate::plan::planner::PlannerSnapshot;
use crate::plan::todos::Todo;
use crate::plan::todos::TodoStatus;
use crate::session::exchange::NextCall;
use crate::session::exchange::ToolCall;
use crate::session::exchange::ToolMessage;
use crate::session::exchange::ToolResultsOutcome;
use crate::trail::capsule::Artifact;
use crate::trail::capsule::ContextCapsule;
use crate::trail::reasoning::Phase;
use crate::trail::reasoning::ReasoningEvent;

/// A result that crosses as fields.
pub trait WriteFields {
    fn write(&self, out: &mut Out<'_>);
}

/// A count, then each item.
fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {
    out.count(items.len());
    items.iter().for_each(|item| item.write(out));
}

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

/// `Artifact`.
impl WriteFields for Artifact {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.kind);
        out.string(&self.reference);
        out.string(&self.summary);
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

/// `Todo`.
impl WriteFields for Todo {
    fn write(&self, out: &mut Out<'_>) {
        out.string(&self.id);
        out.string(&self.content);
        out.number(self.status as u32);
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

/// `Decision::RunTools` (`type: "runTools"`, which the reader knows).
pub fn run_tools(out: &mut Out<'_>, calls: &[ToolCall], replies: &[ToolMessage], next: &NextCall) {
    list(out, calls);
    list(out, replies);
    next.write(out);
}
