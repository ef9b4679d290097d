//! planloop keeps LLM agents on plan.
//!
//! An agent loop (a TypeScript chain runner in an editor plugin, a browser page or a
//! Node agent) calls planloop in-process, compiled to WebAssembly. The host owns all I/O:
//! model calls, tool execution, storage, UI. planloop owns the decisions: it validates the
//! model's todo list exactly as zod would, keeps the planner state, refuses planner spam,
//! and turns each step into a short tagged line for the user.
//!
//! The core is sans-IO: no clock, no randomness, no JS. Time comes in as `now_ms`, every
//! input is validated before use, and every output is plain data. `src/wasm/` only
//! converts between JS values and these types.
//!
//! # The drive contract of a [`session::Session`]
//!
//! A session is a state machine the host drives; it never calls anything itself.
//!
//! 1. `begin_turn({message, now_ms})` when the user speaks. Send the returned `message`
//!    to the model, with the host's tools and `Session::tool_definitions` (the planner
//!    tools planloop answers itself).
//! 2. `handle_model_response({text, tool_calls}, now_ms)` with every model response. It
//!    returns a [`session::exchange::Decision`]:
//!    - `RunTools { calls, replies, next }`: append the assistant message, then `replies`
//!      (planloop's answers to its own tools) as tool messages; run `calls` and pass their
//!      results to `handle_tool_results`, which returns the tool messages to append. When
//!      `calls` is empty, call the model again right away.
//!    - `AwaitApproval { proposals, calls, replies, .. }`: as `RunTools` for `calls` (they
//!      only read); show `proposals` to the user and call `approve` or `reject` for each.
//!      When the last one is resolved, the outcome's `resumed` decision (`RunTools` with
//!      the approved calls and the rejections as tool messages) continues the turn.
//!    - `AwaitPlanReview { review, message, replies }`: show `message` (the plan); the
//!      user's next message, in `begin_turn`, is read as feedback on it.
//!    - `Continue { message, .. }`: the model stopped too early; append `message` as a user
//!      message and call the model again.
//!    - `Finalize { answer, exit_reason }`: the turn is over; show `answer`.
//!    - `Pause { summary, .. }` / `Fail { message, .. }`: the turn stopped at a limit.
//!    - `VerifyGoal { goal, answer, evidence }` (a turn begun with a `goal`, under
//!      `completion.verify: "host"`): the list is done; judge the goal and answer with
//!      `handle_verdict({met, reason}, now_ms)`, which returns the next decision (`Finalize`
//!      when met, a `Continue` to re-plan when not). Nothing else moves the turn meanwhile.
//! 3. Before each model call, `next.tools_withheld` says whether to call it without tools
//!    (the last iteration of the turn), and `next.budget_line` can go in the system prompt.
//! 4. `drain_events()` whenever convenient; `todos()`, `progress()`, `steps()` and
//!    `capsule()` at any time, and `handoff(options, now)` for what a sub-agent's run
//!    hands back to the agent that started it.
//! 5. `snapshot()` at any time (after draining events) to save the session as one JSON
//!    document; `Session::restore` (or `restore_json`) rebuilds it, or refuses it with
//!    `invalid_snapshot`. When a turn paused at a limit, a user message asking to
//!    "continue" resumes the plan: `begin_turn` puts a progress summary before it.
//!
//! A call out of this order is refused with `invalid_state` and changes nothing.
//!
//! ```
//! use planloop::session::approval::{ToolClass, ToolPolicy};
//! use planloop::session::config::SessionConfig;
//! use planloop::session::exchange::{BeginTurn, Decision, ExitReason, ModelResponse, ToolCallInput, ToolResult};
//! use planloop::session::Session;
//! use planloop::json::value::Value;
//!
//! // `search` only reads; any other host tool would wait for the user's approval.
//! let tools = ToolPolicy { read: vec!["search".into()], ..ToolPolicy::default() };
//! let mut session = Session::new(SessionConfig { tools, ..SessionConfig::default() });
//! let mut now = 0.0;
//! session.begin_turn(BeginTurn { message: "Summarize my notes".into(), now_ms: now, user_id: None, chat_id: None, review: None, goal: None })?;
//!
//! // The model plans and searches in one response.
//! let todos = r#"{"todos":[{"id":"search","content":"Find the notes","status":"in_progress"},
//!                          {"id":"summarize","content":"Summarize them","status":"pending"}]}"#;
//! let calls = vec![
//!     ToolCallInput { id: "c1".into(), name: "write_todos".into(), args: Value::String(todos.into()) },
//!     ToolCallInput { id: "c2".into(), name: "search".into(), args: Value::String(r#"{"query":"notes"}"#.into()) },
//! ];
//! now += 1000.0;
//! let Decision::RunTools { calls, replies, .. } = session.handle_model_response(ModelResponse { text: None, tool_calls: calls, usage: None }, now)? else {
//!     unreachable!()
//! };
//! assert_eq!(replies[0].content, r#"{"ok":true,"revision":1,"todoCount":2,"inProgress":"search"}"#);
//! let results = calls.iter().map(|c| ToolResult { id: c.id.clone(), output: Value::String("3 notes".into()), stderr: None, is_error: false, duration_ms: None, exit_code: None });
//! session.handle_tool_results(results.collect(), now)?;
//!
//! // It stops after the first step: planloop asks it to go on.
//! now += 1000.0;
//! let decision = session.handle_model_response(ModelResponse { text: Some("I found 3 notes.".into()), tool_calls: vec![], usage: None }, now)?;
//! assert!(matches!(decision, Decision::Continue { attempt: 1, .. }));
//! # let _ = ExitReason::FinalAnswer;
//! # Ok::<(), planloop::error::Error>(())
//! ```
//!
//! # The planner primitives alone
//!
//! A host with its own loop can use the pieces: [`plan::planner::PlannerState`] (the todo list
//! and the overuse guard: `record_iteration` with each response's tool names, then
//! `apply_write_todos` per call) and [`trail::reasoning::ReasoningLog`] (the tagged trail).
//! [`prompts::compose::compose`] builds the system prompt: the agent's own prompt, planloop's
//! shared components and the host's, in a fixed order.
//!
//! Bad input never panics: it is a [`error::Error`] with a stable code, or, for a
//! model's tool arguments, validation issues shaped exactly as zod 4 reports them
//! ([`error::issue::Issue`]).

// Texts are cut with `text::part`: indexing a `str` brings its panic message into each
// wasm module (see there).
#![cfg_attr(not(test), deny(clippy::string_slice))]
// Tests are not built into the modules: they may use any collection (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_types))]

pub mod error;
pub mod json;
pub mod plan;
pub mod prompts;
pub mod session;
pub mod snapshot;
mod sort;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod trail;
pub mod validate;
pub mod wasm;
