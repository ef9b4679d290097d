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
//! # Driving the planner primitives
//!
//! For each model response in an agent iteration:
//!
//! 1. [`planner::PlannerState::record_iteration`] with the names of every tool the model
//!    called. The verdict says whether this iteration's planner calls will be refused
//!    (too many planner-only iterations in a row, or `write_todos` twice in one response).
//! 2. For each `write_todos` call, [`planner::PlannerState::apply_write_todos`] with its
//!    arguments (the raw JSON text, or a value) and the current time. Send the returned
//!    ack back to the model as the tool result; it is seed 004's
//!    `{ok, revision, todoCount, inProgress}`, or a rejection that says what to fix.
//! 3. Run the other tools yourself, and record the trail in a [`reasoning::ReasoningLog`]:
//!    `record_plan` after an accepted update, `record_act` / `record_obs` around each tool,
//!    `record_reflection` with the model's text.
//!
//! ```
//! use planloop::planner::{PlannerAck, PlannerOptions, PlannerState};
//! use planloop::reasoning::{HistoryOptions, ReasoningLog};
//! use planloop::todos::Args;
//! use planloop::value::Value;
//!
//! let mut planner = PlannerState::new(PlannerOptions::default());
//! let mut log = ReasoningLog::new(HistoryOptions::default());
//! let now_ms = 1_700_000_000_000.0;
//!
//! // The model answered with one write_todos call and one search.
//! planner.record_iteration(&["write_todos", "search_vault"]);
//! let call = br#"{"todos":[
//!     {"id":"search_vault","content":"Find the Q3 report","status":"in_progress"},
//!     {"id":"summarize","content":"Summarize it","status":"pending"}]}"#;
//! let ack = planner.apply_write_todos(Args::<&Value>::Text(call), now_ms)?;
//! assert!(matches!(ack, PlannerAck::Accepted(ref a) if a.revision == 1));
//!
//! let plan = log.record_plan(planner.todos(), 1, now_ms);
//! assert_eq!(plan.step(), "[Plan] 0/2 done · now: search_vault");
//! # Ok::<(), planloop::error::Error>(())
//! ```
//!
//! Bad input never panics: it is a [`error::Error`] with a stable code, or, for a
//! model's tool arguments, validation issues shaped exactly as zod 4 reports them
//! ([`issue::Issue`]).

pub mod args;
pub mod capsule;
pub mod error;
mod from_value;
pub mod guard;
pub mod input;
pub mod issue;
mod js_number;
pub mod json;
mod json_text;
mod literal;
mod one_pass;
pub mod planner;
pub mod reasoning;
pub mod reflection;
pub mod schema;
pub mod text;
mod to_value;
pub mod todos;
pub mod tools;
pub mod value;
pub mod wasm;
