//! The two results of every tool round, `runTools` and the tool messages, written as
//! JSON by hand. They are most of a session's calls, and serde_json's generic writer,
//! built for size, took a third of a decision's time; the other results are rarer and
//! go through serde. The text is byte for byte what serde writes (tested below), so
//! the JS layer reads both the same way.

use crate::json::write::write_value;
use crate::json::write_string;
use crate::session::exchange::{NextCall, ToolCall, ToolMessage, ToolResultsOutcome};

/// A `runTools` decision as JSON.
pub fn run_tools(out: &mut Vec<u8>, calls: &[ToolCall], replies: &[ToolMessage], next: &NextCall) {
    out.extend_from_slice(br#"{"type":"runTools","calls":"#);
    list(out, calls, |out, call| {
        out.extend_from_slice(br#"{"id":"#);
        write_string(out, &call.id);
        out.extend_from_slice(br#","name":"#);
        write_string(out, &call.name);
        out.extend_from_slice(br#","args":"#);
        write_value(out, &call.args);
        out.push(b'}');
    });
    out.extend_from_slice(br#","replies":"#);
    messages(out, replies);
    out.extend_from_slice(br#","next":"#);
    next_call(out, next);
    out.push(b'}');
}

/// `outcome` as JSON.
pub fn tool_results(out: &mut Vec<u8>, outcome: &ToolResultsOutcome) {
    out.extend_from_slice(br#"{"messages":"#);
    messages(out, &outcome.messages);
    out.extend_from_slice(if outcome.complete {
        br#","complete":true,"next":"#
    } else {
        br#","complete":false,"next":"#
    });
    next_call(out, &outcome.next);
    out.push(b'}');
}

/// `items` as a JSON array, each written by `item`.
fn list<T>(out: &mut Vec<u8>, items: &[T], mut item: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, each) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item(out, each);
    }
    out.push(b']');
}

fn messages(out: &mut Vec<u8>, messages: &[ToolMessage]) {
    list(out, messages, |out, message| {
        out.extend_from_slice(br#"{"toolCallId":"#);
        write_string(out, &message.tool_call_id);
        out.extend_from_slice(br#","name":"#);
        write_string(out, &message.name);
        out.extend_from_slice(br#","content":"#);
        write_string(out, &message.content);
        out.extend_from_slice(if message.is_error { br#","isError":true}"# } else { br#","isError":false}"# });
    });
}

fn next_call(out: &mut Vec<u8>, next: &NextCall) {
    out.extend_from_slice(br#"{"iteration":"#);
    unsigned(out, next.iteration);
    out.extend_from_slice(if next.tools_withheld { br#","toolsWithheld":true"# } else { br#","toolsWithheld":false"# });
    out.extend_from_slice(br#","toolRoundsRemaining":"#);
    unsigned(out, next.tool_rounds_remaining);
    out.extend_from_slice(br#","budgetLine":"#);
    write_string(out, &next.budget_line);
    out.push(b'}');
}

fn unsigned(out: &mut Vec<u8>, n: u32) {
    write_value(out, &crate::json::value::Value::Number(f64::from(n)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::value::Value;
    use crate::session::exchange::Decision;

    fn next(withheld: bool) -> NextCall {
        NextCall {
            iteration: 4_000_000_000,
            tools_withheld: withheld,
            tool_rounds_remaining: 0,
            budget_line: "Tool rounds remaining: 0 of 5.\n\"é\"".into(),
        }
    }

    fn message(id: &str, is_error: bool) -> ToolMessage {
        ToolMessage { tool_call_id: id.into(), name: "grep\u{1}".into(), content: "a\\b\t😀".into(), is_error }
    }

    #[test]
    fn run_tools_is_written_as_serde_writes_it() {
        let args = Value::Object(vec![
            ("q\"".into(), Value::String("x\ny".into())),
            ("n".into(), Value::Array(vec![Value::Number(1.0), Value::Number(-0.5), Value::Null, Value::Bool(true)])),
        ]);
        for (calls, replies) in [
            (vec![], vec![]),
            (vec![ToolCall { id: "c1".into(), name: "read".into(), args: args.clone() }], vec![message("w", false)]),
            (
                vec![
                    ToolCall { id: "c\u{7f}".into(), name: "a".into(), args: Value::Object(vec![]) },
                    ToolCall { id: "c2".into(), name: "b".into(), args },
                ],
                vec![message("1", true), message("2", false)],
            ),
        ] {
            for withheld in [false, true] {
                let next = next(withheld);
                let mut ours = Vec::new();
                run_tools(&mut ours, &calls, &replies, &next);
                let decision = Decision::RunTools { calls: calls.clone(), replies: replies.clone(), next };
                assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&decision).unwrap());
            }
        }
    }

    #[test]
    fn tool_results_are_written_as_serde_writes_them() {
        for (messages, complete) in [(vec![], true), (vec![message("c1", false), message("c2", true)], false)] {
            let outcome = ToolResultsOutcome { messages, complete, next: next(complete) };
            let mut ours = Vec::new();
            tool_results(&mut ours, &outcome);
            assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&outcome).unwrap());
        }
    }
}
