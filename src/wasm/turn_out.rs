//! The results of every tool round, `runTools` and the tool messages, as fields (see
//! [`Out`]) for `src/wasm/js/round.ts`. They are most of a session's results: serde_json's
//! generic writer, built for size, took a third of a decision's time, and `JSON.parse`
//! of its text a sixth. A call's arguments go as JSON text, one string each, unless the JS
//! layer has them. The other results are rarer and go as JSON through serde.

use super::out::Out;
use crate::json::write::write_value;
use crate::session::exchange::{NextCall, ToolCall, ToolMessage, ToolResultsOutcome};
use crate::wasm::decimals::HOST;

/// A `runTools` decision: its calls, its replies, then `next`. The arguments of the calls
/// in `copied` (sorted ids) go as an empty string: the JS layer has them (see
/// `copied_calls`).
pub fn run_tools(out: &mut Out<'_>, calls: &[ToolCall], replies: &[ToolMessage], next: &NextCall, copied: &[String]) {
    out.count(calls.len());
    for call in calls {
        out.string(&call.id);
        out.string(&call.name);
        match copied.binary_search(&call.id).is_ok() {
            true => out.string(""),
            false => out.string_with(|text| write_value(text, &call.args, HOST)),
        }
    }
    messages(out, replies);
    next_call(out, next);
}

/// The tool messages, whether the batch is complete, then `next`.
pub fn tool_results(out: &mut Out<'_>, outcome: &ToolResultsOutcome) {
    messages(out, &outcome.messages);
    out.flag(outcome.complete);
    next_call(out, &outcome.next);
}

fn messages(out: &mut Out<'_>, messages: &[ToolMessage]) {
    out.count(messages.len());
    for message in messages {
        out.string(&message.tool_call_id);
        out.string(&message.name);
        out.string(&message.content);
        out.flag(message.is_error);
    }
}

fn next_call(out: &mut Out<'_>, next: &NextCall) {
    out.number(next.iteration);
    out.flag(next.tools_withheld);
    out.number(next.tool_rounds_remaining);
    out.string(&next.budget_line);
}
