//! The writers of the results that cross as fields, one per type, for the readers in
//! `js/field_readers.ts`. Generated from the types' JSON Schemas by tests/generated/fields.rs.
//! Do not edit.

use super::out::Out;
use crate::session::exchange::NextCall;
use crate::session::exchange::ToolCall;
use crate::session::exchange::ToolMessage;
use crate::session::exchange::ToolResultsOutcome;

/// A result that crosses as fields.
pub trait WriteFields {
    fn write(&self, out: &mut Out<'_>);
}

/// A count, then each item.
fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {
    out.count(items.len());
    items.iter().for_each(|item| item.write(out));
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
