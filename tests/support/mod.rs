//! Driving a `Session` from Rust tests with simulated time.

#![allow(dead_code)]

use planloop::json::decimals::Decimals;
use planloop::json::value::Value;
use planloop::session::approval::{ToolClass, ToolPolicy};
use planloop::session::config::SessionConfig;
use planloop::session::events::{Event, EventKind};
use planloop::session::exchange::{
    BeginTurn, Decision, ModelResponse, ToolCallInput, ToolMessage, ToolResult, ToolResultsOutcome, TurnStart,
};
use planloop::session::Session;

/// Every host tool reads (no approvals): tests about the loop, not approvals.
pub fn config() -> SessionConfig {
    SessionConfig {
        tools: ToolPolicy { default: ToolClass::Read, ..ToolPolicy::default() },
        ..SessionConfig::default()
    }
}

pub fn is_continue(decision: &Decision) -> bool {
    matches!(decision, Decision::Continue { .. })
}

/// A session and a clock that moves one second per call.
pub struct Drive {
    pub session: Session,
    pub now: f64,
    pub events: Vec<Event>,
}

impl Drive {
    pub fn new(config: SessionConfig) -> Self {
        Drive { session: Session::new(config), now: 1_000.0, events: Vec::new() }
    }

    pub fn tick(&mut self, ms: f64) -> f64 {
        self.now += ms;
        self.now
    }

    pub fn begin(&mut self, message: &str) -> TurnStart {
        let now = self.tick(1000.0);
        let input = BeginTurn {
            message: message.to_owned(),
            now_ms: now,
            user_id: None,
            chat_id: None,
            review: None,
            goal: None,
        };
        let start = self.session.begin_turn(input).expect("beginTurn");
        self.collect();
        start
    }

    pub fn respond(&mut self, text: &str, calls: Vec<ToolCallInput>) -> Decision {
        let now = self.tick(1000.0);
        let text = (!text.is_empty()).then(|| text.to_owned());
        let decision = self
            .session
            .handle_model_response(ModelResponse { text, tool_calls: calls, usage: None }, now)
            .expect("handleModelResponse");
        self.collect();
        decision
    }

    pub fn results(&mut self, results: Vec<ToolResult>) -> ToolResultsOutcome {
        let now = self.tick(1000.0);
        let outcome = self.session.handle_tool_results(results, now).expect("handleToolResults");
        self.collect();
        outcome
    }

    /// Responds with `calls` and answers every host call with "ok".
    pub fn act(&mut self, text: &str, calls: Vec<ToolCallInput>) -> (Decision, Option<ToolResultsOutcome>) {
        let decision = self.respond(text, calls);
        let outcome = match &decision {
            Decision::RunTools { calls, .. } if !calls.is_empty() => {
                let results = calls.iter().map(|c| ok(&c.id, &format!("{} done", c.name))).collect();
                Some(self.results(results))
            }
            _ => None,
        };
        (decision, outcome)
    }

    pub fn collect(&mut self) {
        self.events.extend(self.session.drain_events());
    }

    pub fn count(&self, matches: impl Fn(&EventKind) -> bool) -> usize {
        self.events.iter().filter(|e| matches(&e.kind)).count()
    }
}

pub fn args(json: &str) -> Value<'static> {
    planloop::json::parse(json.as_bytes(), Decimals::RUST).expect("test args are JSON").into_shallow().into_owned()
}

pub fn call(id: &str, name: &str, json: &str) -> ToolCallInput {
    ToolCallInput { id: id.to_owned(), name: name.to_owned(), args: args(json) }
}

pub fn ok(id: &str, output: &str) -> ToolResult {
    ToolResult {
        id: id.to_owned(),
        output: Value::String(output.to_owned().into()),
        stderr: None,
        is_error: false,
        duration_ms: None,
        exit_code: None,
    }
}

pub fn failed(id: &str, output: &str) -> ToolResult {
    ToolResult { is_error: true, ..ok(id, output) }
}

pub fn plan(complexity: &str) -> String {
    format!(
        r#"{{"overall_goal_ui":"Summarize the vault","internal_plan":"1. list notes\n2. read them\n3. write summary","complexity":"{complexity}"}}"#
    )
}

pub fn todos(items: &[(&str, &str)]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(id, status)| format!(r#"{{"id":"{id}","content":"Do {id}","status":"{status}"}}"#))
        .collect();
    format!(r#"{{"todos":[{}]}}"#, items.join(","))
}

/// The snapshot document of `session`, as JSON values.
pub fn document(session: &Session) -> Value<'static> {
    args(&session.snapshot().unwrap().to_json(Decimals::RUST).unwrap())
}

/// Sets `path` in `value` to `new`.
pub fn set(value: &mut Value<'static>, path: &[&str], new: Value<'static>) {
    let mut at = value;
    for key in path {
        at = match at {
            Value::Object(members) => {
                &mut members.iter_mut().find(|(k, _)| k == key).unwrap_or_else(|| panic!("no {key}")).1
            }
            Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
            _ => panic!("{key} in a scalar"),
        };
    }
    *at = new;
}

/// `value` with a checksum that matches it again (as a forger would write).
pub fn resealed(mut value: Value<'static>) -> Value<'static> {
    let sum = planloop::snapshot::checksum(&value, Decimals::RUST);
    set(&mut value, &["checksum"], Value::String(sum.into()));
    value
}

pub fn last_message(outcome: &ToolResultsOutcome) -> &ToolMessage {
    outcome.messages.last().expect("a tool message")
}

#[path = "../../src/test_rng.rs"]
mod test_rng;
#[allow(unused_imports)] // (not every test file draws numbers)
pub use test_rng::{seeds, Rng};
